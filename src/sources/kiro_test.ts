import { deepEqual, equal, ok } from "node:assert/strict";
import type { ParseOptions, ParseResult, SourceEnv } from "../core/harness.ts";
import { isSuperseded, type Session } from "../core/types.ts";
import { kiro, parseKiroLog } from "./kiro.ts";
import { jsonLines, resumeOptions, tempFileAt } from "./_test_kit.ts";

const HOME = new URL("../../fixtures/kiro", import.meta.url).pathname;
const FIXTURE =
  `${HOME}/.kiro/sessions/cli/4b2e8f61-0c7d-4a95-b3e2-9d1f6a0c5e87.jsonl`;

const source: SourceEnv = { home: HOME, env: {}, os: "linux" };

function parse(
  path: string,
  extra: Partial<ParseOptions> = {},
): Promise<ParseResult> {
  return parseKiroLog(path, { includeSubagents: true, source, ...extra });
}

function logFile(text: string): Promise<string> {
  return tempFileAt("cli/s1.jsonl", text);
}

function line(kind: string, content: unknown, extra = {}): unknown {
  return { version: "v1", kind, data: { message_id: kind, content, ...extra } };
}

Deno.test("kiro.roots() honours DEJA_KIRO_ROOT, then KIRO_HOME, then HOME", async (t) => {
  for (
    const [env, want] of [
      [{}, "/h/.kiro/sessions/cli"],
      [{ KIRO_HOME: "/k" }, "/k/sessions/cli"],
      [{ DEJA_KIRO_ROOT: "/s", KIRO_HOME: "/k" }, "/s"],
    ] as const
  ) {
    await t.step(JSON.stringify(env), () => {
      deepEqual(kiro.roots({ home: "/h", env, os: "linux" }), [want]);
    });
  }
});

Deno.test("kiro.discover() finds the log, not its metadata", async () => {
  deepEqual(await kiro.discover(source), [FIXTURE]);
});

Deno.test("parseKiroLog() reads prompts, tools and results, and marks what a Clear wiped", async () => {
  const result = await parse(FIXTURE);
  equal(result.skipped, 0);
  const s = result.sessions[0] as Session;
  deepEqual([s.id, s.project, s.title, s.started, s.updated], [
    "4b2e8f61-0c7d-4a95-b3e2-9d1f6a0c5e87",
    "ledgerline",
    "CSV import drops quoted commas",
    1779526800412,
    1779527402000,
  ]);
  deepEqual(
    s.records.map((r) => [r.role, r.tool, r.exitCode, r.flags?.isError]),
    [
      ["user", undefined, undefined, undefined],
      ["assistant", undefined, undefined, undefined],
      ["command", "shell", 1, undefined],
      ["tool-output", "shell", undefined, true],
      ["assistant", undefined, undefined, undefined],
      ["files", "fs_write", undefined, undefined],
      ["edit", "fs_write", undefined, undefined],
      ["tool-output", "fs_write", undefined, undefined],
      ["assistant", undefined, undefined, undefined],
      ["user", undefined, undefined, undefined],
      ["assistant", undefined, undefined, undefined],
    ],
  );
  deepEqual(s.marks, [{ kind: "clear", from: 0, to: 9 }]);
  ok(!isSuperseded(9, s.marks) && isSuperseded(8, s.marks));
  equal(s.records[2]?.text, "go test ./internal/importer/...");
  equal(
    s.records[6]?.text,
    '/home/dev/code/ledgerline/internal/importer/row.go\nfields := strings.Split(line, ",")',
  );
  ok(!s.records.some((r) => r.text.includes("naive split")), "thinking");
  equal(s.records[0]?.locator.recordId, "m-01");
});

Deno.test("parseKiroLog() resumes from its safe offset, and a later Clear marks earlier records", async () => {
  const whole = await Deno.readTextFile(FIXTURE);
  const head = whole.split("\n").slice(0, 4).join("\n") + "\n";
  const path = await logFile(head);
  const first = await parse(path);
  equal(first.safeOffset, new TextEncoder().encode(head).length);
  await Deno.writeTextFile(path, whole);
  const second = await parse(path, resumeOptions(first));
  const full = (await parse(FIXTURE)).sessions[0] as Session;
  const a = first.sessions[0] as Session;
  const b = second.sessions[0] as Session;
  deepEqual(
    [...a.records, ...b.records].map((r) => [r.seq, r.role, r.text]),
    full.records.map((r) => [r.seq, r.role, r.text]),
  );
  deepEqual(b.marks, [{ kind: "clear", from: 0, to: 9 }]);
  deepEqual(second.state, { nextSeq: 11, activeFrom: 9 });
});

Deno.test("parseKiroLog() reads a sub-agent's parent, and skips it when sub-agents are off", async () => {
  const path = await logFile(jsonLines([
    line("Prompt", [{ kind: "text", data: "scan the repo" }]),
  ]));
  await Deno.writeTextFile(
    path.replace(/\.jsonl$/, ".json"),
    JSON.stringify({ session_id: "s1", parent_session_id: "p0" }),
  );
  const s = (await parse(path)).sessions[0] as Session;
  deepEqual([s.parent, s.lineage], ["p0", "subagent"]);
  deepEqual((await parse(path, { includeSubagents: false })).sessions, []);
});

Deno.test("parseKiroLog() leaves a torn last line and counts malformed ones", async () => {
  const text = jsonLines([line("Prompt", [{ kind: "text", data: "kept" }])]) +
    "nope\n[]\n" + JSON.stringify({ version: "v1", kind: 3 }) + "\n" +
    `{"version":"v1","kind":"Prompt","data":{"content":[{"kind":"te`;
  const path = await logFile(text);
  const r = await parse(path);
  equal(r.skipped, 3);
  deepEqual(r.sessions[0]?.records.map((x) => x.text), ["kept"]);
  equal(r.safeOffset, new TextEncoder().encode(text).lastIndexOf(10) + 1);
  // A bad state reads the file from its start.
  const again = await parse(path, { offset: 5, state: { nextSeq: 1 } });
  deepEqual(again.sessions[0]?.records.map((x) => x.seq), [0]);
});

Deno.test("parseKiroLog() survives hostile input", async (t) => {
  const cases: Array<[string, string]> = [
    ["garbage bytes", "\u0000\u00ff\ufffd\n\u202e\n"],
    [
      "wrong types",
      jsonLines([
        { kind: "Prompt", data: "x" },
        line("Prompt", "text", { meta: { timestamp: "soon" } }),
        line("AssistantMessage", [
          { kind: "toolUse", data: { name: 4, input: [] } },
          { kind: "toolUse", data: { name: "shell", input: "{bad" } },
          { kind: "text", data: { text: "not a string" } },
        ]),
        line("ToolResults", [
          {
            kind: "toolResult",
            data: { content: [{ kind: "json", data: 7 }] },
          },
          { kind: "toolResult", data: "x" },
        ]),
        { kind: "Clear", data: { junk: true } },
        { kind: "Clear" },
      ]),
    ],
    ["huge nesting", `${'{"data":'.repeat(100_000)}\n`],
  ];
  for (const [name, text] of cases) {
    await t.step(name, async () => {
      const path = await logFile(text);
      await Deno.writeTextFile(path.replace(/\.jsonl$/, ".json"), "[1,");
      ok((await parse(path)).skipped >= 0);
    });
  }
});
