/**
 * Writes fixtures/crush: a HOME whose `code/tidepool/.crush/crush.db` holds
 * one Crush session (speech, bash with exit codes, view/edit/multiedit, a
 * summary message), a task sub-agent session and a title-generation session.
 * Run: `deno run -A tests/fixtures_gen/crush.ts`.
 *
 * @module
 */
import { writeFixtureDb } from "../../src/sources/_store_test_kit.ts";

const SCHEMA = `
CREATE TABLE goose_db_version (id INTEGER PRIMARY KEY AUTOINCREMENT, version_id INTEGER NOT NULL, is_applied INTEGER NOT NULL, tstamp TIMESTAMP DEFAULT (datetime('now')));
CREATE TABLE sessions (id TEXT PRIMARY KEY, parent_session_id TEXT, title TEXT NOT NULL, message_count INTEGER NOT NULL DEFAULT 0, prompt_tokens INTEGER NOT NULL DEFAULT 0, completion_tokens INTEGER NOT NULL DEFAULT 0, cost REAL NOT NULL DEFAULT 0.0, updated_at INTEGER NOT NULL, created_at INTEGER NOT NULL, summary_message_id TEXT);
CREATE TABLE files (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, path TEXT NOT NULL, content TEXT NOT NULL, version INTEGER NOT NULL DEFAULT 0, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
CREATE TABLE messages (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, role TEXT NOT NULL, parts TEXT NOT NULL default '[]', model TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, finished_at INTEGER, provider TEXT);
`;

const ROOT = "/home/dev/code/tidepool";
const MAIN = "5d0c7a1e-3b52-4f0e-9a61-2f8e4c1d7a10";
const TASK = "call-task-7";
const T0 = 1767261600; // 2026-01-01T10:00:00Z, seconds as Crush's triggers write

function text(t: string) {
  return { type: "text", data: { text: t } };
}
function call(id: string, name: string, input: unknown) {
  return {
    type: "tool_call",
    data: {
      id,
      name,
      input: JSON.stringify(input),
      type: "function",
      finished: true,
    },
  };
}
function result(id: string, content: string, isError = false, metadata = "") {
  return {
    type: "tool_result",
    data: { tool_call_id: id, name: "", content, metadata, is_error: isError },
  };
}
function finish(reason: string) {
  return { type: "finish", data: { reason, time: T0 } };
}

let n = 0;
function msg(session: string, role: string, parts: unknown[], dt: number) {
  n++;
  return {
    id: `m${String(n).padStart(2, "0")}-${session.slice(0, 4)}`,
    session_id: session,
    role,
    parts: JSON.stringify(parts),
    model: role === "assistant" ? "example/model-1" : null,
    provider: role === "user" ? null : "example",
    created_at: T0 + dt,
    updated_at: T0 + dt,
    finished_at: role === "assistant" ? T0 + dt : null,
  };
}

const messages = [
  msg(MAIN, "user", [
    text(
      "The tide chart endpoint returns stale data; make the cache expire after ten minutes.",
    ),
    finish("stop"),
  ], 0),
  msg(MAIN, "assistant", [
    {
      type: "reasoning",
      data: { thinking: "Look at the cache module first." },
    },
    text("Let me look at the cache module."),
    call("c1", "view", { file_path: `${ROOT}/src/cache.ts` }),
    finish("tool_use"),
  ], 2),
  msg(MAIN, "tool", [
    result("c1", "<file>\n     1|export const TTL_MS = 3_600_000;\n</file>"),
  ], 3),
  msg(MAIN, "assistant", [
    call("c2", "edit", {
      file_path: `${ROOT}/src/cache.ts`,
      old_string: "export const TTL_MS = 3_600_000;",
      new_string: "export const TTL_MS = 600_000;",
    }),
    call("c3", "bash", { command: "npm test" }),
    finish("tool_use"),
  ], 5),
  msg(MAIN, "tool", [
    result("c2", "<result>\nContent replaced in file\n</result>"),
    result(
      "c3",
      `FAIL src/cache.test.ts\n  expected 600000\n\nexit status 1\nExit code 1\n\n<cwd>${ROOT}</cwd>`,
      true,
      JSON.stringify({
        start_time: 1,
        end_time: 2,
        output: "FAIL",
        working_directory: ROOT,
      }),
    ),
  ], 9),
  msg(MAIN, "assistant", [
    call("c4", "multiedit", {
      file_path: `${ROOT}/src/cache.test.ts`,
      edits: [
        {
          old_string: "expect(TTL_MS).toBe(3_600_000);",
          new_string: "expect(TTL_MS).toBe(600_000);",
        },
        { old_string: "// one hour", new_string: "// ten minutes" },
      ],
    }),
    call("c5", "bash", { command: "npm test" }),
    call("c6", "agent", { prompt: "Check other callers of TTL_MS" }),
    finish("tool_use"),
  ], 12),
  msg(MAIN, "tool", [
    result("c4", "<result>\nApplied 2 edits\n</result>"),
    result("c5", `PASS src/cache.test.ts\n\n<cwd>${ROOT}</cwd>`),
    result("c6", "Only src/routes/tides.ts reads TTL_MS."),
  ], 20),
  msg(MAIN, "assistant", [
    text("The cache now expires after ten minutes and the tests pass."),
    finish("end_turn"),
  ], 22),
  msg(MAIN, "assistant", [
    text(
      "Summary: shortened the tide chart cache TTL to ten minutes; tests updated.",
    ),
    finish("end_turn"),
  ], 30),
  msg(TASK, "user", [text("Check other callers of TTL_MS")], 13),
  msg(TASK, "assistant", [
    call("t1", "bash", { command: "git grep -n TTL_MS" }),
    finish("tool_use"),
  ], 14),
  msg(
    TASK,
    "tool",
    [result("t1", "src/cache.ts:1\nsrc/routes/tides.ts:4")],
    15,
  ),
  msg(TASK, "assistant", [
    text("Only src/routes/tides.ts reads TTL_MS."),
    finish("end_turn"),
  ], 16),
  msg(`title-${MAIN}`, "user", [
    text("Generate a short title for this conversation"),
  ], 1),
  msg(`title-${MAIN}`, "assistant", [text("Tide chart cache expiry")], 1),
];

/** Writes the fixture files. */
export async function generate(): Promise<void> {
  await writeFixtureDb(
    new URL(
      "../../fixtures/crush/code/tidepool/.crush/crush.db",
      import.meta.url,
    )
      .pathname,
    SCHEMA,
    [
      {
        table: "goose_db_version",
        rows: [{
          version_id: 20250627000000,
          is_applied: 1,
          tstamp: "2026-01-01 09:00:00",
        }],
      },
      {
        table: "sessions",
        rows: [
          {
            id: MAIN,
            parent_session_id: null,
            title: "Tide chart cache expiry",
            message_count: 9,
            updated_at: T0 + 30,
            created_at: T0,
            summary_message_id: messages[8]?.id ?? null,
          },
          {
            id: TASK,
            parent_session_id: MAIN,
            title: "Check other callers of TTL_MS",
            message_count: 4,
            updated_at: T0 + 16,
            created_at: T0 + 13,
            summary_message_id: null,
          },
          {
            id: `title-${MAIN}`,
            parent_session_id: MAIN,
            title: "Generate title",
            message_count: 2,
            updated_at: T0 + 1,
            created_at: T0 + 1,
            summary_message_id: null,
          },
        ],
      },
      { table: "messages", rows: messages },
    ],
  );
}

if (import.meta.main) await generate();
