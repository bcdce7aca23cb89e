import { deepEqual, equal, ok, rejects } from "node:assert/strict";
import { dirname, join } from "node:path";
import type { ParseResult, SourceEnv } from "../core/harness.ts";
import { isSuperseded, type Session } from "../core/types.ts";
import {
  grok,
  type GrokParseOptions,
  parseGrokDb,
  parseGrokUpdates,
} from "./grok.ts";
import { writeFixtureDb } from "./_store_test_kit.ts";
import { jsonLines, resumeOptions, tempFileAt } from "./_test_kit.ts";

const HOME = new URL("../../fixtures/grok", import.meta.url).pathname;
const GROUP = `${HOME}/.grok/sessions/%2Fhome%2Fdev%2Fcode%2Fquarry`;
const MAIN = `${GROUP}/7c1e4a52-93b0-4f6d-b2a8-51d0e6f3c927/updates.jsonl`;
const SUB = `${GROUP}/0b9d2f7e-4c61-4a8e-9f35-2e7a1c5d8b40/updates.jsonl`;

const source: SourceEnv = { home: HOME, env: {}, os: "linux" };

function parse(
  path: string,
  extra: Partial<GrokParseOptions> = {},
): Promise<ParseResult> {
  return parseGrokUpdates(path, { includeSubagents: true, source, ...extra });
}

function line(update: unknown, timestamp = 1767225600): unknown {
  return {
    timestamp,
    method: "session/update",
    params: { sessionId: "s1", update },
  };
}

function user(text: string, promptIndex: number): unknown {
  return line({
    sessionUpdate: "user_message_chunk",
    content: { type: "text", text },
    _meta: { promptIndex },
  });
}

function agent(text: string): unknown {
  return line({
    sessionUpdate: "agent_message_chunk",
    content: { type: "text", text },
  });
}

/** An updates.jsonl in a session folder under an encoded-cwd group. */
function logFile(text: string, group = "%2Fw%2Fkiln"): Promise<string> {
  return tempFileAt(`sessions/${group}/s1/updates.jsonl`, text);
}

Deno.test("grok.roots() honours DEJA_GROK_ROOT and DEJA_GROK_DB, then GROK_HOME, then HOME", async (t) => {
  for (
    const [env, want] of [
      [{}, ["/h/.grok/sessions", "/h/.grok/grok.db"]],
      [{ GROK_HOME: "/g/" }, ["/g/sessions", "/g/grok.db"]],
      [
        { GROK_HOME: "/g", DEJA_GROK_ROOT: "/s", DEJA_GROK_DB: "/d/grok.db" },
        ["/s", "/d/grok.db"],
      ],
    ] as const
  ) {
    await t.step(JSON.stringify(env), () => {
      deepEqual(grok.roots({ home: "/h", env, os: "linux" }), want);
    });
  }
});

Deno.test("grok.discover() finds both fixture logs and a grok.db beside them", async () => {
  deepEqual(await grok.discover(source), [SUB, MAIN]);
  const home = await Deno.makeTempDir();
  await writeFixtureDb(`${home}/.grok/grok.db`, DB_SCHEMA, []);
  await Deno.mkdir(`${home}/.grok/sessions/x/y`, { recursive: true });
  await Deno.writeTextFile(`${home}/.grok/sessions/x/y/chat_history.jsonl`, "");
  deepEqual(await grok.discover({ home, env: {}, os: "linux" }), [
    `${home}/.grok/grok.db`,
  ]);
});

Deno.test("parseGrokUpdates() joins chunks, reads tools and keeps a rewound turn under a mark", async () => {
  const result = await parse(MAIN);
  equal(result.skipped, 0);
  const s = result.sessions[0] as Session;
  equal(s.id, "7c1e4a52-93b0-4f6d-b2a8-51d0e6f3c927");
  equal(s.project, "quarry");
  equal(s.cwd, "/home/dev/code/quarry");
  equal(s.title, "Fix sieve mesh units");
  equal(s.parent, undefined);
  deepEqual(
    s.records.map((r) => [r.role, r.exitCode, r.flags?.isError]),
    [
      ["user", undefined, undefined],
      ["assistant", undefined, undefined],
      ["command", 101, undefined],
      ["tool-output", undefined, true],
      ["files", undefined, undefined],
      ["tool-output", undefined, undefined],
      ["assistant", undefined, undefined],
      ["files", undefined, undefined],
      ["edit", undefined, undefined],
      ["user", undefined, undefined],
      ["assistant", undefined, undefined],
      ["command", undefined, undefined],
      ["user", undefined, undefined],
      ["assistant", undefined, undefined],
    ],
  );
  equal(
    s.records[0]?.text,
    "The gravel_grade tests fail since the sieve refactor. Find out why and fix it.",
  );
  equal(s.records[1]?.text, "Running the grading tests to see the failure.");
  equal(s.records[2]?.text, "cargo test -p gravel_grade");
  equal(
    s.records[8]?.text,
    "/home/dev/code/quarry/src/sieve.rs\n    let mesh_um = mesh_mm;",
  );
  deepEqual(s.marks, [{ kind: "rewind", from: 9, to: 12 }]);
  deepEqual(
    s.records.filter((r) => isSuperseded(r.seq, s.marks)).map((r) => r.text),
    [
      "Also bump the crate to 0.4.0 and publish it.",
      "Bumping the version and publishing.",
      "cargo publish -p gravel_grade",
    ],
  );
  ok(!s.records.some((r) => r.text.includes("mesh size units")), "thoughts");
  equal(s.records[2]?.locator.recordId, "call_01");
  equal(s.records[0]?.time, 1778230801000);
  equal(s.started, 1778230800000);
  equal(result.safeOffset, (await Deno.stat(MAIN)).size);
});

Deno.test("parseGrokUpdates() names a sub-agent's parent, and skips it when sub-agents are off", async () => {
  const s = (await parse(SUB)).sessions[0] as Session;
  deepEqual([s.parent, s.lineage], [
    "7c1e4a52-93b0-4f6d-b2a8-51d0e6f3c927",
    "subagent",
  ]);
  deepEqual((await parse(SUB, { includeSubagents: false })).sessions, []);
});

Deno.test("parseGrokUpdates() resumes from its safe offset with the same records, and a later rewind marks earlier ones", async () => {
  const whole = await Deno.readTextFile(MAIN);
  const lines = whole.split("\n");
  // Stop after the first rewound turn's command, before the rewind marker.
  const head = lines.slice(0, 18).join("\n") + "\n";
  const path = await logFile(head);
  const first = await parse(path);
  equal(first.safeOffset, new TextEncoder().encode(head).length);
  await Deno.writeTextFile(path, whole);
  const second = await parse(path, resumeOptions(first));
  const a = first.sessions[0] as Session;
  const b = second.sessions[0] as Session;
  const full = (await parse(MAIN)).sessions[0] as Session;
  deepEqual(
    [...a.records, ...b.records].map((r) => [r.seq, r.role, r.text]),
    full.records.map((r) => [r.seq, r.role, r.text]),
  );
  deepEqual(b.marks, [{ kind: "rewind", from: 9, to: 12 }]);
  equal(b.records[0]?.locator.line, 20);
});

Deno.test("parseGrokUpdates() keeps a user chunk without a prompt index, once prompts carry one, out of the turn count", async () => {
  const path = await logFile(jsonLines([
    user("Make the kiln timer count down.", 0),
    agent("Editing the timer."),
    // Mid-turn, unmarked: not a prompt of its own, so no rewind target.
    line({
      sessionUpdate: "user_message_chunk",
      content: { type: "text", text: "and keep seconds visible" },
    }),
    agent("Seconds stay visible."),
    user("Now add an alarm.", 1),
    agent("Alarm added."),
    {
      timestamp: 1767225601,
      method: "_x.ai/session/update",
      params: {
        sessionId: "s1",
        update: { sessionUpdate: "rewind_marker", target_prompt_index: 1 },
      },
    },
  ]));
  const s = (await parse(path)).sessions[0] as Session;
  deepEqual(s.records.map((r) => [r.seq, r.role, r.text]), [
    [0, "user", "Make the kiln timer count down."],
    [1, "assistant", "Editing the timer."],
    [2, "user", "and keep seconds visible"],
    [3, "assistant", "Seconds stay visible."],
    [4, "user", "Now add an alarm."],
    [5, "assistant", "Alarm added."],
  ]);
  deepEqual(s.marks, [{ kind: "rewind", from: 4, to: 6 }]);
});

Deno.test("parseGrokUpdates() flags a sub-agent's streamed words in the parent log as the sub-agent's", async () => {
  const sidechain = (meta: Record<string, unknown>, text: string) =>
    line({
      sessionUpdate: "agent_message_chunk",
      content: { type: "text", text },
      _meta: meta,
    });
  const path = await logFile(jsonLines([
    user("Survey the crate for unsafe blocks.", 0),
    agent("Handing this to an explorer."),
    sidechain({ isSidechain: true }, "Found 3 unsafe blocks "),
    sidechain({ isSidechain: true }, "in src/ffi.rs."),
    sidechain({ subagentId: "explore-1" }, "Done."),
    agent("The explorer found 3, all in FFI."),
  ]));
  const s = (await parse(path)).sessions[0] as Session;
  deepEqual(s.records.map((r) => [r.role, r.text, r.flags?.subagent]), [
    ["user", "Survey the crate for unsafe blocks.", undefined],
    ["assistant", "Handing this to an explorer.", undefined],
    ["assistant", "Found 3 unsafe blocks in src/ffi.rs.Done.", true],
    ["assistant", "The explorer found 3, all in FFI.", undefined],
  ]);
  const without = (await parse(path, { includeSubagents: false }))
    .sessions[0] as Session;
  ok(!without.records.some((r) => r.flags?.subagent));
  equal(without.records.length, 3);
});

Deno.test("parseGrokUpdates() reads a tool call's input from its x.ai/tool meta when rawInput is absent", async () => {
  const path = await logFile(jsonLines([
    user("Run the kiln tests.", 0),
    line({
      sessionUpdate: "tool_call",
      toolCallId: "call_9",
      kind: "execute",
      title: "bash",
      _meta: {
        "x.ai/tool": { name: "bash", input: { command: "cargo test -p kiln" } },
      },
    }),
    line({
      sessionUpdate: "tool_call",
      toolCallId: "call_10",
      kind: "read",
      title: "read_file",
      _meta: {
        "x.ai/tool": { name: "read_file", input: { path: "src/kiln.rs" } },
      },
    }),
  ]));
  const s = (await parse(path)).sessions[0] as Session;
  deepEqual(s.records.map((r) => [r.role, r.text]), [
    ["user", "Run the kiln tests."],
    ["command", "cargo test -p kiln"],
    ["files", "src/kiln.rs"],
  ]);
});

Deno.test("parseGrokUpdates() reads a bad resume state as no state", async () => {
  const path = await logFile(jsonLines([user("a", 0), agent("b")]));
  for (const state of [null, { nextSeq: -1 }, { nextSeq: 1, turns: "x" }]) {
    const r = await parse(path, { offset: 5, firstLine: 2, state });
    deepEqual(r.sessions[0]?.records.map((x) => x.seq), [0, 1]);
  }
});

Deno.test("parseGrokUpdates() leaves a torn last line and counts malformed and oversized ones", async () => {
  const text = jsonLines([user("kept", 0)]) + "not json\n[1]\n" +
    JSON.stringify(agent("x".repeat(3000))) + "\n" +
    JSON.stringify({ timestamp: 1, params: { update: { nope: 1 } } }) + "\n" +
    `{"timestamp":1767225601,"method":"session/update","params":{"update":{"sessionUpdate":"agent_mess`;
  const path = await logFile(text);
  const r = await parse(path, { maxLineBytes: 1000 });
  equal(r.skipped, 4);
  deepEqual(r.sessions[0]?.records.map((x) => x.text), ["kept"]);
  equal(r.safeOffset, new TextEncoder().encode(text).lastIndexOf(10) + 1);
});

Deno.test("parseGrokUpdates() takes the cwd from .cwd, else the group name, and a reply from agent_result", async () => {
  const body = jsonLines([
    user("hi", 0),
    line({ sessionUpdate: "turn_completed", agent_result: "Hello." }),
  ]);
  const encoded = await logFile(body, "%2Fsrv%2Fmill");
  const s = (await parse(encoded)).sessions[0] as Session;
  deepEqual([s.project, s.id], ["mill", "s1"]);
  deepEqual(s.records.map((r) => [r.role, r.text]), [
    ["user", "hi"],
    ["assistant", "Hello."],
  ]);
  const hashed = await logFile(body, "h-1f3a");
  await Deno.writeTextFile(
    join(dirname(dirname(hashed)), ".cwd"),
    "/srv/granary\n",
  );
  equal((await parse(hashed)).sessions[0]?.project, "granary");
});

Deno.test("parseGrokUpdates() survives hostile input", async (t) => {
  const cases: Array<[string, string]> = [
    ["garbage bytes", "\u0000\u00ff\ufffd\n\u202e\n"],
    [
      "wrong types",
      jsonLines([
        { params: "x" },
        { params: { update: { sessionUpdate: 7 } } },
        line({ sessionUpdate: "user_message_chunk", content: 5, _meta: 3 }),
        line({ sessionUpdate: "agent_message_chunk", content: [null, 1, {}] }),
        line({ sessionUpdate: "tool_call", toolCallId: 9, kind: [] }),
        line({
          sessionUpdate: "tool_call",
          toolCallId: "c",
          kind: "execute",
          rawInput: { command: [1, "ls"] },
          locations: "x",
        }),
        line({ sessionUpdate: "tool_call_update", toolCallId: "c", status: 1 }),
        line({
          sessionUpdate: "tool_call_update",
          toolCallId: "c",
          status: "completed",
          content: [{ type: "diff", path: 3 }, { type: "content" }],
        }),
        line({ sessionUpdate: "rewind_marker", target_prompt_index: "0" }),
        line({ sessionUpdate: "rewind_marker", target_prompt_index: -5 }),
        { timestamp: "soon", update: { sessionUpdate: "turn_completed" } },
      ]),
    ],
    ["huge nesting", `${'{"params":'.repeat(100_000)}\n`],
  ];
  for (const [name, text] of cases) {
    await t.step(name, async () => {
      const result = await parse(await logFile(text));
      ok(result.skipped >= 0);
    });
  }
  await t.step("a summary.json of the wrong shape", async () => {
    const path = await logFile(jsonLines([user("q", 0)]));
    await Deno.writeTextFile(
      join(dirname(path), "summary.json"),
      '{"info":[],"generated_title":4,"session_kind":{}}',
    );
    equal((await parse(path)).sessions[0]?.title, "q");
  });
});

const DB_SCHEMA = `
CREATE TABLE sessions (id TEXT PRIMARY KEY, workspace_id TEXT, title TEXT, model TEXT, mode TEXT, cwd_at_start TEXT, cwd_last TEXT, status TEXT, created_at TEXT, updated_at TEXT);
CREATE TABLE messages (session_id TEXT, seq INTEGER, role TEXT, message_json TEXT, created_at TEXT);
CREATE TABLE tool_calls (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT, message_seq INTEGER, tool_call_id TEXT, tool_name TEXT, args_json TEXT, status TEXT, started_at TEXT, completed_at TEXT);
CREATE TABLE tool_results (id INTEGER PRIMARY KEY AUTOINCREMENT, tool_call_row_id INTEGER, output_kind TEXT, output_json TEXT, success INTEGER, created_at TEXT);
`;

Deno.test("parseGrokDb() reads messages, tool calls and their results", async () => {
  const path = `${await Deno.makeTempDir()}/grok.db`;
  const msg = (
    session: string,
    seq: number,
    role: string,
    content: unknown,
  ) => ({
    session_id: session,
    seq,
    role,
    message_json: JSON.stringify({ role, content }),
    created_at: `2026-04-01T10:00:0${seq}Z`,
  });
  await writeFixtureDb(path, DB_SCHEMA, [
    {
      table: "sessions",
      rows: [{
        id: "g1",
        title: "Tidy the loader",
        cwd_at_start: "/w/old",
        cwd_last: "/w/loader",
        created_at: "2026-04-01T10:00:00Z",
        updated_at: "2026-04-01T10:09:00Z",
      }, { id: "g2", title: "empty" }],
    },
    {
      table: "messages",
      rows: [
        msg("g1", 0, "system", "You are grok."),
        msg("g1", 1, "user", "run the loader tests"),
        msg("g1", 2, "assistant", [
          { type: "text", text: "Running them." },
          {
            type: "tool-call",
            toolCallId: "c1",
            toolName: "bash",
            input: { command: "npm test -- loader" },
          },
        ]),
        msg("g1", 3, "assistant", "One test fails on CRLF input."),
        { session_id: "g1", seq: 4, role: "user", message_json: "{torn" },
        msg("g2", 0, "tool", []),
      ],
    },
    {
      table: "tool_calls",
      rows: [{
        session_id: "g1",
        message_seq: 2,
        tool_call_id: "c1",
        tool_name: "bash",
        status: "failed",
      }],
    },
    {
      table: "tool_results",
      rows: [{
        tool_call_row_id: 1,
        output_kind: "text",
        output_json: JSON.stringify("1 failing\nExit code: 1"),
        success: 0,
      }],
    },
  ]);
  const r = await parseGrokDb(path, { includeSubagents: true, source });
  equal(r.skipped, 1);
  equal(r.sessions.length, 1);
  const s = r.sessions[0] as Session;
  deepEqual([s.id, s.project, s.title], ["g1", "loader", "Tidy the loader"]);
  deepEqual(
    s.records.map((x) => [x.role, x.text, x.exitCode, x.flags?.isError]),
    [
      ["user", "run the loader tests", undefined, undefined],
      ["assistant", "Running them.", undefined, undefined],
      ["command", "npm test -- loader", 1, undefined],
      ["tool-output", "1 failing\nExit code: 1", undefined, true],
      ["assistant", "One test fails on CRLF input.", undefined, undefined],
    ],
  );
  equal(s.records[0]?.locator.recordId, "g1:1");
});

Deno.test("parseGrokDb() names a store of another shape", async () => {
  const path = `${await Deno.makeTempDir()}/grok.db`;
  await writeFixtureDb(path, "CREATE TABLE sessions (id TEXT);", []);
  await rejects(
    parseGrokDb(path, { includeSubagents: true, source }),
    /SRC-E002|Unknown Grok schema/,
  );
  const junk = await tempFileAt("grok.db", "not a database at all");
  await rejects(parseGrokDb(junk, { includeSubagents: true, source }));
});

Deno.test("parseGrokDb() places compaction summaries and reads a failed ToolResult's error", async () => {
  const path = `${await Deno.makeTempDir()}/grok.db`;
  const msg = (seq: number, role: string, content: unknown, at: string) => ({
    session_id: "g3",
    seq,
    role,
    message_json: JSON.stringify({ role, content }),
    created_at: at,
  });
  await writeFixtureDb(
    path,
    DB_SCHEMA +
      "CREATE TABLE compactions (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT, first_kept_seq INTEGER, summary TEXT, tokens_before INTEGER, created_at TEXT);",
    [
      { table: "sessions", rows: [{ id: "g3", title: "Long run" }] },
      {
        table: "messages",
        rows: [
          msg(1, "user", "migrate the schema", "2026-11-20T09:00:00Z"),
          msg(2, "assistant", [{
            type: "tool-call",
            toolCallId: "c9",
            toolName: "bash",
            input: { command: "npm run migrate" },
          }], "2026-11-20T09:00:05Z"),
          msg(3, "user", "and now the seed data", "2026-11-20T09:30:00Z"),
        ],
      },
      {
        table: "tool_calls",
        rows: [{
          session_id: "g3",
          message_seq: 2,
          tool_call_id: "c9",
          tool_name: "bash",
        }],
      },
      {
        table: "tool_results",
        rows: [{
          tool_call_row_id: 1,
          output_kind: "json",
          output_json: JSON.stringify({
            success: false,
            error: "relation users already exists",
          }),
          success: 0,
        }, {
          tool_call_row_id: 1,
          output_kind: "error-text",
          output_json: JSON.stringify({ type: "error-text", value: "retry" }),
          success: 0,
        }],
      },
      {
        table: "compactions",
        rows: [
          {
            session_id: "g3",
            first_kept_seq: 3,
            summary: "Migrated the schema; users table already existed.",
            created_at: "2026-11-20T09:10:00Z",
          },
          {
            session_id: "g3",
            first_kept_seq: 3,
            summary: "Seeding next.",
            created_at: "2026-11-20T10:00:00Z",
          },
          { session_id: "g3", summary: "  " },
          {
            session_id: 7,
            summary: "orphan",
          },
        ],
      },
    ],
  );
  const r = await parseGrokDb(path, { includeSubagents: true, source });
  const s = r.sessions[0] as Session;
  deepEqual(s.records.map((x) => [x.role, x.text, x.flags?.isError]), [
    ["user", "migrate the schema", undefined],
    ["command", "npm run migrate", undefined],
    ["tool-output", "relation users already exists", true],
    ["tool-output", "retry", true],
    ["summary", "Migrated the schema; users table already existed.", undefined],
    ["user", "and now the seed data", undefined],
    ["summary", "Seeding next.", undefined],
  ]);
});
