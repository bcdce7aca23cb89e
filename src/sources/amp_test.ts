import { deepEqual, equal, ok } from "node:assert/strict";
import type { ParseResult, SourceEnv } from "../core/harness.ts";
import type { Session } from "../core/types.ts";
import { amp, type AmpParseOptions, parseAmpThread } from "./amp.ts";
import { hasSamples, sampleDir, tempFileAt } from "./_test_kit.ts";

const HOME = new URL("../../fixtures/amp", import.meta.url).pathname;
const THREAD =
  `${HOME}/.local/share/amp/threads/T-2c9e4b17-6a0d-4f83-b5e2-8d1c7a3f9e06.json`;
const SAMPLES = sampleDir("amp");
const source: SourceEnv = { home: HOME, env: {}, os: "linux" };

function parse(
  path: string,
  extra: Partial<AmpParseOptions> = {},
): Promise<ParseResult> {
  return parseAmpThread(path, { includeSubagents: true, source, ...extra });
}

function threadFile(text: string): Promise<string> {
  return tempFileAt("threads/T-test.json", text);
}

Deno.test("amp.roots() honours DEJA_AMP_ROOT, then XDG_DATA_HOME, then HOME", async (t) => {
  for (
    const [env, want] of [
      [{}, "/h/.local/share/amp"],
      [{ XDG_DATA_HOME: "/data" }, "/data/amp"],
      [{ DEJA_AMP_ROOT: "/a", XDG_DATA_HOME: "/data" }, "/a"],
    ] as const
  ) {
    await t.step(JSON.stringify(env), () => {
      deepEqual(amp.roots({ home: "/h", env, os: "linux" }), [want]);
    });
  }
});

Deno.test("amp.discover() finds thread files and not the prompt history", async () => {
  deepEqual(await amp.discover(source), [THREAD]);
});

Deno.test("parseAmpThread() reads speech, tool calls, results and exit codes", async () => {
  const result = await parse(THREAD);
  equal(result.skipped, 0);
  const s = result.sessions[0] as Session;
  equal(s.id, "T-2c9e4b17-6a0d-4f83-b5e2-8d1c7a3f9e06");
  equal(s.title, "Quiet hours for the chime");
  equal(s.project, "chime");
  deepEqual(s.records.map((r) => [r.role, r.tool, r.exitCode, r.flags]), [
    ["user", undefined, undefined, undefined],
    ["assistant", undefined, undefined, undefined],
    ["files", "Read", undefined, undefined],
    ["command", "Bash", 101, undefined],
    ["tool-output", "Read", undefined, undefined],
    ["tool-output", "Bash", undefined, { isError: true }],
    ["files", "edit_file", undefined, undefined],
    ["edit", "edit_file", undefined, undefined],
    ["tool-output", "edit_file", undefined, { isError: true }],
    ["assistant", undefined, undefined, undefined],
  ]);
  equal(s.records[3]?.text, "cargo test quiet_hours");
  ok(!s.records.some((r) => r.text === "Find the scheduler."), "thinking");
  // Assistant turns take the time of the prompt they answer.
  equal(s.records[1]?.time, 1773500005000);
  equal(s.started, 1773500000000);
  equal(s.records[1]?.locator.recordId, "1");
});

Deno.test("parseAmpThread() counts a truncated or oversized thread as skipped", async () => {
  const whole = await Deno.readTextFile(THREAD);
  const cut = await threadFile(whole.slice(0, Math.floor(whole.length / 2)));
  deepEqual(await parse(cut), { sessions: [], skipped: 1 });
  deepEqual(await parse(THREAD, { maxDocumentBytes: 100 }), {
    sessions: [],
    skipped: 1,
  });
  deepEqual(await parse(`${cut}.missing`), { sessions: [], skipped: 0 });
});

Deno.test("parseAmpThread() survives hostile input", async (t) => {
  const cases: Array<[string, string]> = [
    ["garbage bytes", "\u0000\u00ff\ufffd"],
    ["not an object", "[1,2,3]"],
    [
      "wrong types",
      JSON.stringify({
        id: 5,
        title: ["x"],
        env: { initial: { trees: [{ uri: "file://%E0%A4%A" }, { uri: 3 }] } },
        messages: [
          null,
          { role: "user", content: "text" },
          {
            role: "user",
            content: [{ type: "tool_result", run: "done" }, {
              type: "text",
              text: 4,
            }],
          },
          {
            role: "assistant",
            content: [{
              type: "tool_use",
              name: "Bash",
              input: { cmd: ["ls"] },
            }, { type: "text" }],
          },
          {
            role: "user",
            meta: { sentAt: "never" },
            content: [{
              type: "tool_result",
              toolUseID: {},
              run: { status: 1, result: { exitCode: "1" } },
            }],
          },
        ],
      }),
    ],
    ["huge nesting", `${"[".repeat(200_000)}${"]".repeat(200_000)}`],
  ];
  for (const [name, text] of cases) {
    await t.step(name, async () => {
      const result = await parse(await threadFile(text));
      ok(result.skipped >= 0);
    });
  }
});

const SAMPLE_COUNTS: Record<string, [number, number, number]> = {
  "T-16c2227a-e98f-4969-998b-aaa50a930b05.json": [3, 3, 2],
  "T-1d0ef56c-0ecd-4bf7-af7b-5bc196dc8a6a.json": [1, 1, 3],
  "T-6b45efa0-1bae-4277-9991-293950d0ab14.json": [1, 1, 0],
};

Deno.test({
  name: "amp parses every real thread with the turns a reader counts",
  ignore: !hasSamples("amp"),
  fn: async () => {
    const seen: string[] = [];
    for await (const entry of Deno.readDir(SAMPLES)) {
      const env = { DEJA_AMP_ROOT: `${SAMPLES}/${entry.name}` };
      for (
        const path of await amp.discover({ home: "/nohome", env, os: "linux" })
      ) {
        const name = path.split("/").at(-1) as string;
        const want = SAMPLE_COUNTS[name];
        ok(want, name);
        seen.push(name);
        const result = await parse(path);
        equal(result.skipped, 0, name);
        equal(result.sessions.length, 1, name);
        const s = result.sessions[0] as Session;
        const count = (role: string) =>
          s.records.filter((r) => r.role === role).length;
        deepEqual(
          [count("user"), count("assistant"), count("tool-output")],
          want,
          name,
        );
        equal(s.project, "workspace");
        ok(s.title && s.title.length > 0);
      }
    }
    equal(seen.length, 3);
  },
});
