import { deepEqual, equal, ok } from "node:assert/strict";
import { dirname } from "node:path";
import type { ParseResult, SourceEnv } from "../core/harness.ts";
import type { Session } from "../core/types.ts";
import { openclaw, parseOpenClawSession } from "./openclaw.ts";
import type { PiShapedParseOptions } from "./_pi_shaped.ts";
import { jsonLines, tempFileAt } from "./_test_kit.ts";

const HOME = new URL("../../fixtures/openclaw", import.meta.url).pathname;
const DIR = `${HOME}/.openclaw/agents/main/sessions`;
const MAIN = `${DIR}/3f2a9c1e-5b7d-4e8a-9c0f-1d2e3f4a5b6c.jsonl`;
const SUB = `${DIR}/8c7b6a5d-4e3f-4a2b-9c1d-0e9f8a7b6c5d.jsonl`;

const source: SourceEnv = { home: HOME, env: {}, os: "linux" };

function parse(
  path: string,
  extra: Partial<PiShapedParseOptions> = {},
): Promise<ParseResult> {
  return parseOpenClawSession(path, {
    includeSubagents: true,
    source,
    ...extra,
  });
}

function sessionFile(text: string, agent = "ops"): Promise<string> {
  return tempFileAt(`agents/${agent}/sessions/s1.jsonl`, text);
}

Deno.test("openclaw.roots() honours DEJA_OPENCLAW_ROOT, then OPENCLAW_STATE_DIR, then HOME", async (t) => {
  for (
    const [env, want] of [
      [{}, "/h/.openclaw/agents"],
      [{ OPENCLAW_STATE_DIR: "/state" }, "/state/agents"],
      [{ DEJA_OPENCLAW_ROOT: "/a", OPENCLAW_STATE_DIR: "/state" }, "/a"],
    ] as const
  ) {
    await t.step(JSON.stringify(env), () => {
      deepEqual(openclaw.roots({ home: "/h", env, os: "linux" }), [want]);
    });
  }
});

Deno.test("openclaw.discover() lists transcripts, not checkpoints, archives or sessions.json", async () => {
  deepEqual(await openclaw.discover(source), [MAIN, SUB]);
});

Deno.test("parseOpenClawSession() reads speech, exec commands, edits and results", async () => {
  const result = await parse(MAIN);
  equal(result.skipped, 0);
  const s = result.sessions[0] as Session;
  deepEqual([s.harness, s.id, s.project, s.parent], [
    "openclaw",
    "3f2a9c1e-5b7d-4e8a-9c0f-1d2e3f4a5b6c",
    "workspace",
    undefined,
  ]);
  deepEqual(
    s.records.map((r) => [r.role, r.tool, r.exitCode]),
    [
      ["user", undefined, undefined],
      ["assistant", undefined, undefined],
      ["command", "exec", 0],
      ["tool-output", "exec", undefined],
      ["assistant", undefined, undefined],
      ["user", undefined, undefined],
      ["files", "edit", undefined],
      ["edit", "edit", undefined],
      ["tool-output", "edit", undefined],
      ["assistant", undefined, undefined],
    ],
  );
  equal(s.records[2]?.text, "df -h /srv/backup");
  equal(
    s.records[7]?.text,
    "/home/dev/.openclaw/workspace/backup/retention.conf\nkeep_snapshots = 60",
  );
  ok(!s.records.some((r) => r.text.includes("Check df first")), "thinking");
  deepEqual(s.marks, []);
});

Deno.test("parseOpenClawSession() takes a sub-agent's label and parent from sessions.json", async () => {
  const s = (await parse(SUB)).sessions[0] as Session;
  deepEqual([s.title, s.parent, s.lineage], [
    "Largest backup snapshots",
    "3f2a9c1e-5b7d-4e8a-9c0f-1d2e3f4a5b6c",
    "subagent",
  ]);
  deepEqual((await parse(SUB, { includeSubagents: false })).sessions, []);
  equal((await parse(MAIN, { includeSubagents: false })).sessions.length, 1);
});

Deno.test("parseOpenClawSession() names the agent when the header has no cwd", async () => {
  const path = await sessionFile(jsonLines([
    {
      type: "session",
      version: 3,
      id: "s1",
      timestamp: "2026-01-01T00:00:00Z",
    },
    {
      type: "message",
      id: "m1",
      parentId: null,
      timestamp: "2026-01-01T00:00:01Z",
      message: { role: "user", content: "rotate the logs" },
    },
  ]));
  equal((await parse(path)).sessions[0]?.project, "openclaw-ops");
});

Deno.test("parseOpenClawSession() leaves a torn last line and counts malformed ones", async () => {
  const text = jsonLines([
    { type: "session", version: 3, id: "s1", cwd: "/w/a" },
    {
      type: "message",
      id: "m1",
      parentId: null,
      message: { role: "user", content: "kept" },
    },
  ]) + "{oops\n" +
    `{"type":"message","id":"m2","parentId":"m1","message":{"role":"assist`;
  const result = await parse(await sessionFile(text));
  equal(result.skipped, 1);
  deepEqual(result.sessions[0]?.records.map((r) => r.text), ["kept"]);
});

Deno.test("parseOpenClawSession() survives hostile input", async (t) => {
  const cases: Array<[string, string, string]> = [
    ["garbage bytes", "\u0000\u00ff\ufffd\n\u202e\n", "{}"],
    [
      "wrong types",
      jsonLines([
        { type: "session", id: [], cwd: 3 },
        { type: "message", id: "x", message: { role: "user", content: 9 } },
        {
          type: "message",
          id: "y",
          parentId: "x",
          message: {
            role: "assistant",
            content: [{ type: "toolCall", name: "exec", arguments: 5 }],
          },
        },
      ]),
      '{"a":{"sessionId":"s1","spawnedBy":"a"},"b":[],"c":{"sessionId":4}}',
    ],
    [
      "a sessions.json that is not an object",
      jsonLines([{ type: "message", message: { role: "user", content: "q" } }]),
      "[1,2",
    ],
  ];
  for (const [name, text, index] of cases) {
    await t.step(name, async () => {
      const path = await sessionFile(text);
      await Deno.writeTextFile(`${dirname(path)}/sessions.json`, index);
      const result = await parse(path);
      ok(result.skipped >= 0);
      for (const s of result.sessions) ok(s.parent !== s.id);
    });
  }
});
