import { deepEqual, equal, ok } from "node:assert/strict";
import type { ParseResult, SourceEnv } from "../core/harness.ts";
import { isSuperseded, type Session } from "../core/types.ts";
import { parsePiSession, pi, type PiParseOptions } from "./pi.ts";
import { hasSamples, jsonLines, sampleDir, tempFileAt } from "./_test_kit.ts";

const HOME = new URL("../../fixtures/pi", import.meta.url).pathname;
const FIXTURE =
  `${HOME}/.pi/agent/sessions/--home-dev-code-lantern--/2026-03-02T09-00-00-000Z_5b8e2f10-7c3a-4d9e-a1b6-3f0c9d2e8a74.jsonl`;

const source: SourceEnv = { home: HOME, env: {}, os: "linux" };

function parse(
  path: string,
  extra: Partial<PiParseOptions> = {},
): Promise<ParseResult> {
  return parsePiSession(path, { includeSubagents: true, source, ...extra });
}

function sessionFile(text: string): Promise<string> {
  return tempFileAt("2026-01-01T00-00-00-000Z_0000aaaa.jsonl", text);
}

function msg(id: string, parent: string | null, message: unknown): unknown {
  return {
    type: "message",
    id,
    parentId: parent,
    timestamp: "2026-01-01T00:00:00Z",
    message,
  };
}

const HEADER = {
  type: "session",
  version: 3,
  id: "0000aaaa",
  timestamp: "2026-01-01T00:00:00Z",
  cwd: "/w/kiln",
};

Deno.test("pi.roots() honours DEJA_PI_ROOT, then PI_CODING_AGENT_DIR, then HOME", async (t) => {
  for (
    const [env, want] of [
      [{}, "/h/.pi/agent/sessions"],
      [{ PI_CODING_AGENT_DIR: "/agent" }, "/agent/sessions"],
      [{ DEJA_PI_ROOT: "/s", PI_CODING_AGENT_DIR: "/agent" }, "/s"],
    ] as const
  ) {
    await t.step(JSON.stringify(env), () => {
      deepEqual(pi.roots({ home: "/h", env, os: "linux" }), [want]);
    });
  }
});

Deno.test("pi.discover() finds the fixture session", async () => {
  deepEqual(await pi.discover(source), [FIXTURE]);
});

Deno.test("parsePiSession() keeps the abandoned branch under a mark and reads every kind", async () => {
  const result = await parse(FIXTURE);
  equal(result.skipped, 0);
  const s = result.sessions[0] as Session;
  equal(s.id, "5b8e2f10-7c3a-4d9e-a1b6-3f0c9d2e8a74");
  equal(s.project, "lantern");
  equal(s.title, "Wick timer DST fix");
  deepEqual(s.records.map((r) => [r.role, r.exitCode, r.flags]), [
    ["user", undefined, undefined],
    ["assistant", undefined, undefined],
    ["files", undefined, undefined],
    ["command", 1, undefined],
    ["tool-output", undefined, undefined],
    ["tool-output", undefined, { isError: true }],
    ["assistant", undefined, undefined],
    ["user", undefined, undefined],
    ["files", undefined, undefined],
    ["edit", undefined, undefined],
    ["assistant", undefined, undefined],
    ["summary", undefined, undefined],
    ["user", undefined, undefined],
    ["command", 0, undefined],
    ["tool-output", undefined, undefined],
    ["assistant", undefined, undefined],
  ]);
  deepEqual(s.marks, [{ kind: "branch", from: 7, to: 11 }]);
  deepEqual(
    s.records.filter((r) => isSuperseded(r.seq, s.marks)).map((r) => r.role),
    ["user", "files", "edit", "assistant"],
  );
  equal(
    s.records[9]?.text,
    "src/wick.ts\nconst offset = new Date().getTimezoneOffset();",
  );
  ok(!s.records.some((r) => r.text === "DST."), "thinking is not speech");
  equal(s.records[0]?.locator.recordId, "e1");
  equal(s.records[0]?.time, 1772442005000);
});

Deno.test("parsePiSession() reads a version 1 file (no ids) as one chain", async () => {
  const path = await sessionFile(jsonLines([
    {
      type: "session",
      id: "v1",
      timestamp: "2025-01-01T00:00:00Z",
      cwd: "/w/a",
    },
    {
      type: "message",
      timestamp: "2025-01-01T00:00:01Z",
      message: { role: "user", content: "hello" },
    },
    {
      type: "message",
      timestamp: "2025-01-01T00:00:02Z",
      message: { role: "assistant", content: [{ type: "text", text: "hi" }] },
    },
  ]));
  const s = (await parse(path)).sessions[0] as Session;
  deepEqual(s.marks, []);
  deepEqual(s.records.map((r) => r.text), ["hello", "hi"]);
});

Deno.test("parsePiSession() names a fork's parent and drops extension messages", async () => {
  const path = await sessionFile(jsonLines([
    {
      ...HEADER,
      parentSession:
        "/h/.pi/agent/sessions/--w--/2025-12-31T10-00-00-000Z_feedbeef.jsonl",
    },
    msg("a", null, { role: "user", content: "go" }),
    msg("b", "a", {
      role: "custom",
      customType: "todo",
      content: "injected",
      display: true,
    }),
    {
      type: "custom_message",
      id: "c",
      parentId: "b",
      customType: "x",
      content: "also injected",
      display: false,
    },
    {
      type: "compaction",
      id: "d",
      parentId: "c",
      summary: "earlier: set up the kiln",
      firstKeptEntryId: "a",
      tokensBefore: 9,
    },
    msg("e", "d", { role: "assistant", content: "done" }),
  ]));
  const s = (await parse(path)).sessions[0] as Session;
  deepEqual([s.parent, s.lineage], ["feedbeef", "fork"]);
  deepEqual(s.records.map((r) => [r.role, r.text]), [
    ["user", "go"],
    ["summary", "earlier: set up the kiln"],
    ["assistant", "done"],
  ]);
});

Deno.test("parsePiSession() keeps the error of a failed or aborted turn, flagged", async () => {
  const path = await sessionFile(jsonLines([
    HEADER,
    msg("a", null, { role: "user", content: "summarise the kiln log" }),
    msg("b", "a", {
      role: "assistant",
      content: [{ type: "thinking", thinking: "hm" }],
      api: "anthropic-messages",
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      stopReason: "error",
      errorMessage: "429 rate_limit_error: Number of request tokens exceeded",
      timestamp: 1767225601000,
    }),
    msg("c", "b", {
      role: "assistant",
      content: [{ type: "text", text: "Partial: the kiln" }],
      stopReason: "aborted",
      errorMessage: "Request was aborted",
    }),
    msg("d", "c", {
      role: "assistant",
      content: "fine",
      stopReason: "stop",
      errorMessage: "ignored when the turn stopped normally",
    }),
    msg("e", "d", { role: "assistant", stopReason: "error", errorMessage: 5 }),
  ]));
  const s = (await parse(path)).sessions[0] as Session;
  deepEqual(s.records.map((r) => [r.role, r.text, r.flags?.isError]), [
    ["user", "summarise the kiln log", undefined],
    [
      "assistant",
      "429 rate_limit_error: Number of request tokens exceeded",
      true,
    ],
    ["assistant", "Partial: the kiln", undefined],
    ["assistant", "Request was aborted", true],
    ["assistant", "fine", undefined],
  ]);
});

Deno.test("parsePiSession() leaves a torn last line and counts malformed and oversized ones", async () => {
  const text = jsonLines([
    HEADER,
    msg("a", null, { role: "user", content: "kept" }),
  ]) +
    `[]\n${
      JSON.stringify(msg("b", "a", { role: "user", content: "y".repeat(3000) }))
    }\n` +
    `{"type":"message","id":"c","parentId":"a","message":{"role":"user","content":"tor`;
  const result = await parse(await sessionFile(text), { maxLineBytes: 1000 });
  equal(result.skipped, 2);
  deepEqual(result.sessions[0]?.records.map((r) => r.text), ["kept"]);
  deepEqual(result.sessions[0]?.marks, []);
});

Deno.test("parsePiSession() survives hostile input", async (t) => {
  const cases: Array<[string, string]> = [
    ["garbage bytes", "\u0000\u00ff\ufffd\n\u202e\n"],
    [
      "wrong types",
      jsonLines([
        { type: "session", id: 4, cwd: [] },
        { type: "message", id: "x", parentId: "x", message: "str" },
        {
          type: "message",
          id: "y",
          parentId: "z",
          message: {
            role: "assistant",
            content: [{ type: "toolCall", name: "edit", arguments: "{bad" }],
          },
        },
        {
          type: "message",
          id: "z",
          parentId: "y",
          message: { role: "toolResult", content: 3, isError: "yes" },
        },
        {
          type: "message",
          id: "w",
          message: { role: "bashExecution", command: ["rm"], exitCode: "1" },
        },
        { type: 17 },
      ]),
    ],
    ["huge nesting", `${'{"type":'.repeat(100_000)}\n`],
  ];
  for (const [name, text] of cases) {
    await t.step(name, async () => {
      const result = await parse(await sessionFile(text));
      ok(result.skipped >= 0);
    });
  }
});

const SAMPLES = sampleDir("pi");
Deno.test({
  name: "pi parses every real sample without errors (none stored yet)",
  ignore: !hasSamples("pi"),
  fn: async () => {
    for await (const entry of Deno.readDir(SAMPLES)) {
      const env = { DEJA_PI_ROOT: `${SAMPLES}/${entry.name}` };
      for (
        const path of await pi.discover({ home: "/nohome", env, os: "linux" })
      ) {
        const result = await parse(path);
        equal(result.skipped, 0, path);
        for (const s of result.sessions) {
          ok(s.records.some((r) => r.role === "user"), path);
        }
      }
    }
  },
});
