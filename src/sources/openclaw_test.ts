import { deepEqual, equal, ok, rejects } from "node:assert/strict";
import { dirname } from "node:path";
import type { ParseResult, SourceEnv } from "../core/harness.ts";
import type { Session } from "../core/types.ts";
import {
  openclaw,
  parseOpenClawAgentDb,
  parseOpenClawSession,
} from "./openclaw.ts";
import type { PiShapedParseOptions } from "./_pi_shaped.ts";
import { jsonLines, tempFileAt } from "./_test_kit.ts";
import { type FixtureTable, writeFixtureDb } from "./_store_test_kit.ts";

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

Deno.test("parseOpenClawSession() reads an exec exit code from the result's details and apply_patch files", async () => {
  const patch = [
    "*** Begin Patch",
    "*** Update File: backup/prune.sh",
    "@@",
    "-find /srv/backup -mtime +60 -delete",
    "+find /srv/backup -mtime +30 -delete",
    "*** Add File: backup/README.md",
    "+Nightly snapshots, 30 kept.",
    "*** End Patch",
  ].join("\n");
  const path = await sessionFile(jsonLines([
    { type: "session", version: 3, id: "s1", cwd: "/srv/ops" },
    {
      type: "message",
      id: "m1",
      parentId: null,
      message: {
        role: "assistant",
        content: [
          {
            type: "toolCall",
            id: "call_1",
            name: "exec",
            arguments: { command: "make prune" },
          },
        ],
      },
    },
    {
      type: "message",
      id: "m2",
      parentId: "m1",
      // A command that exits non-zero "completes": the code is in details and
      // in a parenthesised footer, and the result is not marked as an error.
      message: {
        role: "toolResult",
        toolCallId: "call_1",
        toolName: "exec",
        content: [{
          type: "text",
          text: "make: *** [prune] Error 2\n\n(Command exited with code 2)",
        }],
        details: {
          status: "completed",
          exitCode: 2,
          durationMs: 40,
          aggregated: "make: *** [prune] Error 2",
          cwd: "/srv/ops",
        },
        isError: false,
      },
    },
    {
      type: "message",
      id: "m3",
      parentId: "m2",
      message: {
        role: "assistant",
        content: [
          {
            type: "toolCall",
            id: "call_2",
            name: "apply_patch",
            arguments: { input: patch },
          },
        ],
      },
    },
    {
      type: "message",
      id: "m4",
      parentId: "m3",
      message: {
        role: "toolResult",
        toolCallId: "call_2",
        toolName: "apply_patch",
        content: [{
          type: "text",
          text:
            "Success. Updated the following files:\nA backup/README.md\nM backup/prune.sh",
        }],
        details: {
          summary: {
            added: ["backup/README.md"],
            modified: ["backup/prune.sh"],
            deleted: [],
          },
        },
        isError: false,
      },
    },
  ]));
  const s = (await parse(path)).sessions[0] as Session;
  deepEqual(
    s.records.map((r) => [r.role, r.tool, r.text, r.exitCode, r.flags]),
    [
      ["command", "exec", "make prune", 2, undefined],
      [
        "tool-output",
        "exec",
        "make: *** [prune] Error 2\n\n(Command exited with code 2)",
        undefined,
        { isError: true },
      ],
      ["files", "apply_patch", "backup/prune.sh", undefined, undefined],
      [
        "edit",
        "apply_patch",
        "backup/prune.sh\nfind /srv/backup -mtime +60 -delete",
        undefined,
        undefined,
      ],
      ["files", "apply_patch", "backup/README.md", undefined, undefined],
      [
        "tool-output",
        "apply_patch",
        "Success. Updated the following files:\nA backup/README.md\nM backup/prune.sh",
        undefined,
        undefined,
      ],
    ],
  );
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

/** OpenClaw's agent-database tables, as its schema writes them. */
const AGENT_SCHEMA = `
CREATE TABLE session_nodes (
  session_key TEXT NOT NULL PRIMARY KEY,
  current_session_id TEXT NOT NULL,
  entry_json TEXT NOT NULL,
  entry_valid INTEGER NOT NULL DEFAULT 0,
  updated_at INTEGER NOT NULL,
  spawned_by TEXT,
  label TEXT
) STRICT;
CREATE TABLE session_windows (
  session_id TEXT NOT NULL PRIMARY KEY,
  session_key TEXT NOT NULL,
  previous_session_id TEXT,
  reason TEXT,
  session_scope TEXT NOT NULL DEFAULT 'conversation',
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;
CREATE TABLE transcript_events (
  session_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  event_json TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (session_id, seq)
) STRICT;`;

const MAIN_ID = "3f2a9c1e-5b7d-4e8a-9c0f-1d2e3f4a5b6c";
const SUB_ID = "8c7b6a5d-4e3f-4a2b-9c1d-0e9f8a7b6c5d";
const FORK_ID = "5a4b3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d";

/** Rows of one session, inserted odd seqs first: a reader must order them. */
function eventRows(id: string, lines: string[]): FixtureTable["rows"] {
  const order = lines.map((_, i) => i);
  return [...order.filter((i) => i % 2), ...order.filter((i) => !(i % 2))]
    .map((seq) => ({
      session_id: id,
      seq,
      event_json: lines[seq] ?? "",
      created_at: 1781420400000 + seq,
    }));
}

/** A state folder whose `main` agent keeps the fixture sessions in its database. */
async function agentDbHome(
  extra: FixtureTable["rows"] = [],
): Promise<{ state: string; db: string }> {
  const state = await Deno.makeTempDir();
  const db = `${state}/agents/main/agent/openclaw-agent.sqlite`;
  const lines = async (path: string) =>
    (await Deno.readTextFile(path)).split("\n").filter((l) => l.trim());
  const fork = [
    {
      type: "session",
      version: 3,
      id: FORK_ID,
      timestamp: "2026-06-14T09:05:00.000Z",
      cwd: "/srv/ops",
    },
    {
      type: "message",
      id: "f1",
      parentId: null,
      timestamp: "2026-06-14T09:05:01.000Z",
      message: {
        role: "user",
        content: [{ type: "text", text: "try the restore on staging instead" }],
      },
    },
  ].map((l) => JSON.stringify(l));
  await writeFixtureDb(db, AGENT_SCHEMA, [
    {
      table: "session_nodes",
      rows: [
        {
          session_key: "agent:main:main",
          current_session_id: MAIN_ID,
          entry_json: JSON.stringify({ sessionId: MAIN_ID }),
          updated_at: 1,
        },
        {
          session_key: "agent:main:subagent:6b1f0c2e",
          current_session_id: SUB_ID,
          entry_json: JSON.stringify({
            sessionId: SUB_ID,
            spawnedBy: "agent:main:main",
            label: "Largest backup snapshots",
          }),
          updated_at: 1,
        },
        {
          session_key: "agent:main:staging",
          current_session_id: FORK_ID,
          entry_json: "not json",
          updated_at: 1,
        },
      ],
    },
    {
      table: "session_windows",
      rows: [
        [MAIN_ID, "agent:main:main", null, "initial"],
        [SUB_ID, "agent:main:subagent:6b1f0c2e", null, "initial"],
        [FORK_ID, "agent:main:staging", MAIN_ID, "fork"],
      ].map(([session_id, session_key, previous_session_id, reason]) => ({
        session_id: session_id ?? null,
        session_key: session_key ?? null,
        previous_session_id: previous_session_id ?? null,
        reason: reason ?? null,
        created_at: 1,
        updated_at: 1,
      })),
    },
    {
      table: "transcript_events",
      rows: [
        ...eventRows(MAIN_ID, await lines(MAIN)),
        ...eventRows(SUB_ID, await lines(SUB)),
        ...eventRows(FORK_ID, fork),
        ...extra,
      ],
    },
  ]);
  return { state, db };
}

function withoutLocators(s: Session | undefined): unknown {
  return s?.records.map(({ locator: _, ...rest }) => rest);
}

Deno.test("openclaw.discover() finds the agent database beside the session files", async () => {
  const { state, db } = await agentDbHome();
  await Deno.mkdir(`${state}/agents/main/sessions`, { recursive: true });
  await Deno.copyFile(MAIN, `${state}/agents/main/sessions/${MAIN_ID}.jsonl`);
  await Deno.writeTextFile(
    `${state}/agents/main/agent/incognito-openclaw-agent.sqlite`,
    "",
  );
  const env = { OPENCLAW_STATE_DIR: state };
  deepEqual(
    (await openclaw.discover({ home: "/h", env, os: "linux" })).sort(),
    [
      db,
      `${state}/agents/main/sessions/${MAIN_ID}.jsonl`,
    ].sort(),
  );
  deepEqual(openclaw.kinds.map((k) => k.match(db)), [true, false]);
});

Deno.test("parseOpenClawAgentDb() reads each session's rows in seq order, as its file would be read", async () => {
  const { db } = await agentDbHome();
  const result = await parseOpenClawAgentDb(db, {
    includeSubagents: true,
    source,
  });
  equal(result.skipped, 0);
  const byId = new Map(result.sessions.map((s) => [s.id, s]));
  deepEqual([...byId.keys()].sort(), [MAIN_ID, SUB_ID, FORK_ID].sort());
  const fromFile = (await parse(MAIN)).sessions[0];
  deepEqual(withoutLocators(byId.get(MAIN_ID)), withoutLocators(fromFile));
  equal(byId.get(MAIN_ID)?.project, fromFile?.project);
  const sub = byId.get(SUB_ID) as Session;
  deepEqual([sub.title, sub.parent, sub.lineage], [
    "Largest backup snapshots",
    MAIN_ID,
    "subagent",
  ]);
  const fork = byId.get(FORK_ID) as Session;
  deepEqual([fork.parent, fork.lineage, fork.project, fork.records[0]?.text], [
    MAIN_ID,
    "fork",
    "ops",
    "try the restore on staging instead",
  ]);
  equal(fork.records[0]?.locator.path, db);
  equal(fork.records[0]?.locator.recordId, "f1");
});

Deno.test("parseOpenClawAgentDb() leaves sub-agents out when asked", async () => {
  const { db } = await agentDbHome();
  const result = await parseOpenClawAgentDb(db, {
    includeSubagents: false,
    source,
  });
  ok(!result.sessions.some((s) => s.id === SUB_ID));
  equal(result.sessions.length, 2);
});

Deno.test("parseOpenClawSession() leaves a session the agent database holds to the database", async () => {
  const { state } = await agentDbHome();
  const dir = `${state}/agents/main/sessions`;
  await Deno.mkdir(dir, { recursive: true });
  await Deno.copyFile(MAIN, `${dir}/${MAIN_ID}.jsonl`);
  await Deno.writeTextFile(
    `${dir}/other.jsonl`,
    jsonLines([
      {
        type: "session",
        version: 3,
        id: "other",
        timestamp: "2026-01-01T00:00:00Z",
      },
      {
        type: "message",
        id: "e1",
        parentId: null,
        message: { role: "user", content: "only in a file" },
      },
    ]),
  );
  deepEqual((await parse(`${dir}/${MAIN_ID}.jsonl`)).sessions, []);
  equal((await parse(`${dir}/other.jsonl`)).sessions.length, 1);
});

Deno.test("parseOpenClawAgentDb() counts torn and hostile rows and keeps the rest", async () => {
  const row = (seq: number, event_json: string) => ({
    session_id: "torn",
    seq,
    event_json,
    created_at: 0,
  });
  const { db } = await agentDbHome([
    row(0, JSON.stringify({ type: "session", version: 3, id: "torn" })),
    row(
      1,
      JSON.stringify({
        type: "message",
        id: "t1",
        message: { role: "user", content: "kept" },
      }),
    ),
    row(2, '{"type":"message","id":"t2","message":{"role":"assis'),
    row(3, "[1,2]"),
    row(4, ""),
    row(5, JSON.stringify({ type: "message", id: "t3", message: 7 })),
    row(6, `${'{"a":'.repeat(100_000)}`),
  ]);
  const result = await parseOpenClawAgentDb(db, {
    includeSubagents: true,
    source,
  });
  const torn = result.sessions.find((s) => s.id === "torn");
  deepEqual(torn?.records.map((r) => r.text), ["kept"]);
  equal(result.skipped, 5);
});

Deno.test("parseOpenClawAgentDb() reads a database without session tables, and names a foreign one", async (t) => {
  await t.step("transcripts only", async () => {
    const path = `${await Deno.makeTempDir()}/agent/openclaw-agent.sqlite`;
    await writeFixtureDb(
      path,
      "CREATE TABLE transcript_events (session_id TEXT, seq INTEGER, event_json TEXT, created_at INTEGER);",
      [{
        table: "transcript_events",
        rows: [{
          session_id: "s",
          seq: 0,
          event_json: JSON.stringify({
            type: "message",
            id: "m",
            message: { role: "user", content: "hello" },
          }),
          created_at: 0,
        }],
      }],
    );
    const { sessions } = await parseOpenClawAgentDb(path, {
      includeSubagents: true,
      source,
    });
    deepEqual(sessions.map((s) => [s.id, s.records[0]?.text]), [[
      "s",
      "hello",
    ]]);
  });
  await t.step("no transcript table", async () => {
    const path = `${await Deno.makeTempDir()}/openclaw-agent.sqlite`;
    await writeFixtureDb(path, "CREATE TABLE other (x TEXT);", []);
    await rejects(
      parseOpenClawAgentDb(path, { includeSubagents: true, source }),
      /Unknown OpenClaw schema.*transcript_events/,
    );
  });
  await t.step("not a database", async () => {
    const path = `${await Deno.makeTempDir()}/openclaw-agent.sqlite`;
    await Deno.writeTextFile(path, "x".repeat(4096));
    await rejects(
      parseOpenClawAgentDb(path, { includeSubagents: true, source }),
    );
  });
});
