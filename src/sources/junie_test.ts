import { deepEqual, equal, ok } from "node:assert/strict";
import type { ParseResult, SourceEnv } from "../core/harness.ts";
import type { Session } from "../core/types.ts";
import { junie, parseJunieEvents } from "./junie.ts";
import { jsonLines, tempFileAt } from "./_test_kit.ts";

const HOME = new URL("../../fixtures/junie", import.meta.url).pathname;
const FIXTURE =
  `${HOME}/.junie/sessions/session-260412-101502-q7zk/events.jsonl`;

const source: SourceEnv = { home: HOME, env: {}, os: "linux" };

function parse(path: string): Promise<ParseResult> {
  return parseJunieEvents(path, { includeSubagents: true, source });
}

function eventsFile(text: string): Promise<string> {
  return tempFileAt("sessions/session-1/events.jsonl", text);
}

function block(kind: string, fields: Record<string, unknown>): unknown {
  return {
    kind: "SessionA2uxEvent",
    event: { state: "COMPLETED", agentEvent: { kind, ...fields } },
  };
}

Deno.test("junie.roots() honours DEJA_JUNIE_ROOT, then JUNIE_HOME, then HOME", async (t) => {
  for (
    const [env, want] of [
      [{}, "/h/.junie/sessions"],
      [{ JUNIE_HOME: "/j" }, "/j/sessions"],
      [{ DEJA_JUNIE_ROOT: "/s", JUNIE_HOME: "/j" }, "/s"],
    ] as const
  ) {
    await t.step(JSON.stringify(env), () => {
      deepEqual(junie.roots({ home: "/h", env, os: "linux" }), [want]);
    });
  }
});

Deno.test("junie.discover() finds the fixture log, not index.jsonl", async () => {
  deepEqual(await junie.discover(source), [FIXTURE]);
});

Deno.test("parseJunieEvents() keeps each step's last block in its first place", async () => {
  const result = await parse(FIXTURE);
  equal(result.skipped, 0);
  const s = result.sessions[0] as Session;
  deepEqual([s.id, s.title, s.started, s.updated], [
    "session-260412-101502-q7zk",
    "Fix invoice total rounding",
    1775988902000,
    1775989240000,
  ]);
  deepEqual(
    s.records.map((r) => [r.role, r.tool, r.exitCode, r.text.split("\n")[0]]),
    [
      [
        "user",
        undefined,
        undefined,
        "The invoice PDF shows totals with three decimals. Fix the rounding in the renderer.",
      ],
      ["files", "view", undefined, "src/invoice/render.py"],
      [
        "command",
        "terminal",
        1,
        "python -m pytest tests/test_render.py -q",
      ],
      ["tool-output", "terminal", undefined, "F."],
      ["files", "edit", undefined, "src/invoice/render.py"],
      ["edit", "edit", undefined, "src/invoice/render.py"],
      ["tool-output", "tool", undefined, "Search for usages of total("],
      [
        "command",
        "terminal",
        undefined,
        "python -m pytest tests/test_render.py -q",
      ],
      ["tool-output", "terminal", undefined, ".."],
      [
        "assistant",
        undefined,
        undefined,
        "Totals now go through money.quantize (ROUND_HALF_UP to cents); the renderer tests pass.",
      ],
    ],
  );
  equal(s.records[1]?.text, "src/invoice/render.py\nsrc/invoice/money.py");
  equal(s.records[5]?.text, 'src/invoice/render.py\n    return f"{x:.3f}"');
  equal(s.records[1]?.locator.recordId, "step-1");
  equal(s.records[1]?.locator.line, 6);
  equal(s.project, "");
});

Deno.test("parseJunieEvents() reads failures and skips cancelled or empty results", async () => {
  const path = await eventsFile(jsonLines([
    { kind: "UserPromptEvent", prompt: "deploy it" },
    block("ResultBlockUpdatedEvent", { stepId: "r", result: "Empty" }),
    block("ResultBlockUpdatedEvent", {
      stepId: "q",
      cancelled: true,
      result: "never said",
    }),
    block("AgentFailureEvent", { message: "LLM quota exceeded" }),
  ]));
  const s = (await parse(path)).sessions[0] as Session;
  deepEqual(s.records.map((r) => [r.role, r.text, r.flags?.isError]), [
    ["user", "deploy it", undefined],
    ["tool-output", "LLM quota exceeded", true],
  ]);
  equal(s.title, "deploy it");
});

Deno.test("parseJunieEvents() leaves a torn last line and counts malformed ones", async () => {
  const text = jsonLines([{ kind: "UserPromptEvent", prompt: "kept" }]) +
    "{bad\n[]\n" + JSON.stringify({ kind: "SessionA2uxEvent", event: 3 }) +
    '\n{"kind":"UserPromptEvent","prompt":"to';
  const result = await parse(await eventsFile(text));
  equal(result.skipped, 3);
  deepEqual(result.sessions[0]?.records.map((r) => r.text), ["kept"]);
});

Deno.test("parseJunieEvents() survives hostile input", async (t) => {
  const cases: Array<[string, string]> = [
    ["garbage bytes", "\u0000\u00ff\ufffd\n\u202e\n"],
    [
      "wrong types",
      jsonLines([
        { kind: 5 },
        { kind: "UserPromptEvent", prompt: ["x"] },
        block("TerminalBlockUpdatedEvent", { stepId: 4, command: {} }),
        block("TerminalBlockUpdatedEvent", { stepId: "t", output: 9 }),
        block("ViewFilesBlockUpdatedEvent", { stepId: "v", files: "a.ts" }),
        block("FileChangesBlockUpdatedEvent", {
          stepId: "f",
          changes: [null, { afterRelativePath: 1 }, {
            beforeRelativePath: "a",
          }],
        }),
        block("ResultBlockUpdatedEvent", { stepId: "r", result: {} }),
        { kind: "SessionA2uxEvent", event: { agentEvent: { kind: [] } } },
      ]),
    ],
    ["huge nesting", `${'{"kind":'.repeat(100_000)}\n`],
  ];
  for (const [name, text] of cases) {
    await t.step(name, async () => {
      ok((await parse(await eventsFile(text))).skipped >= 0);
    });
  }
  await t.step("an index.jsonl of the wrong shape", async () => {
    const path = await eventsFile(
      jsonLines([{ kind: "UserPromptEvent", prompt: "q" }]),
    );
    await Deno.writeTextFile(
      path.replace("session-1/events.jsonl", "index.jsonl"),
      '{"sessionId":"session-1","taskName":7,"createdAt":"x"}\n[\n',
    );
    equal((await parse(path)).sessions[0]?.title, "q");
  });
});
