/**
 * Writes fixtures/crush/work/reefline/.crush/crush.db: a Crush store in the
 * late-2026 schema. Messages carry `is_summary_message` (the summary flag
 * moved onto the message), sessions carry the newer columns (todos,
 * archived_at), a generated continuation is a `hidden` text part, and some
 * rows store `parts` as a zstd-compressed BLOB (the compression proposed in
 * charmbracelet/crush#3581) beside rows still written as JSON text.
 * Run: `deno run -A tests/fixtures_gen/crush_2026.ts`.
 *
 * @module
 */
import { zstdCompressSync } from "node:zlib";
import { writeFixtureDb } from "../../src/sources/_store_test_kit.ts";

const SCHEMA = `
CREATE TABLE goose_db_version (id INTEGER PRIMARY KEY AUTOINCREMENT, version_id INTEGER NOT NULL, is_applied INTEGER NOT NULL, tstamp TIMESTAMP DEFAULT (datetime('now')));
CREATE TABLE sessions (id TEXT PRIMARY KEY, parent_session_id TEXT, title TEXT NOT NULL, message_count INTEGER NOT NULL DEFAULT 0, prompt_tokens INTEGER NOT NULL DEFAULT 0, completion_tokens INTEGER NOT NULL DEFAULT 0, cost REAL NOT NULL DEFAULT 0.0, updated_at INTEGER NOT NULL, created_at INTEGER NOT NULL, summary_message_id TEXT, todos TEXT, archived_at INTEGER);
CREATE TABLE files (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, path TEXT NOT NULL, content TEXT NOT NULL, version INTEGER NOT NULL DEFAULT 0, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, is_new INTEGER DEFAULT 0);
CREATE TABLE read_files (session_id TEXT NOT NULL, path TEXT NOT NULL, read_at INTEGER NOT NULL);
CREATE TABLE messages (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, role TEXT NOT NULL, parts TEXT NOT NULL default '[]', model TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, finished_at INTEGER, provider TEXT, is_summary_message INTEGER DEFAULT 0 NOT NULL);
`;

const ROOT = "/home/dev/work/reefline";
const MAIN = "9b3e61f0-2c4a-4d7e-8f15-6a0c2e9d4b71";
const T0 = 1789200000; // 2026-09-12T08:00:00Z, in seconds as Crush writes

function text(t: string, hidden = false) {
  return { type: "text", data: hidden ? { text: t, hidden } : { text: t } };
}
function call(id: string, name: string, input: unknown) {
  return {
    type: "tool_call",
    data: {
      id,
      name,
      input: JSON.stringify(input),
      provider_executed: false,
      finished: true,
    },
  };
}
function result(id: string, name: string, content: string, isError = false) {
  return {
    type: "tool_result",
    data: {
      tool_call_id: id,
      name,
      content,
      data: "",
      mime_type: "",
      metadata: "",
      is_error: isError,
    },
  };
}
function finish(reason: string) {
  return { type: "finish", data: { reason, time: T0 } };
}

let n = 0;
function msg(
  role: string,
  parts: unknown[],
  dt: number,
  opts: { compressed?: boolean; summary?: boolean } = {},
) {
  n++;
  const json = JSON.stringify(parts);
  return {
    id: `r${String(n).padStart(2, "0")}-${MAIN.slice(0, 4)}`,
    session_id: MAIN,
    role,
    parts: opts.compressed
      ? new Uint8Array(zstdCompressSync(new TextEncoder().encode(json)))
      : json,
    model: role === "assistant" ? "example/model-2" : null,
    provider: role === "user" ? null : "example",
    created_at: T0 + dt,
    updated_at: T0 + dt,
    finished_at: role === "assistant" ? T0 + dt : null,
    is_summary_message: opts.summary ? 1 : 0,
  };
}

const messages = [
  msg("user", [
    text("The reef sensor importer drops readings with a negative depth."),
    finish("stop"),
  ], 0),
  msg(
    "assistant",
    [
      { type: "reasoning", data: { thinking: "Find the depth filter." } },
      text("I'll find where depth is validated."),
      call("k1", "bash", { command: "rg -n 'depth <' src" }),
      finish("tool_use"),
    ],
    3,
    { compressed: true },
  ),
  msg(
    "tool",
    [
      result(
        "k1",
        "bash",
        `src/import.ts:41:  if (depth < 0) continue;\n\n<cwd>${ROOT}</cwd>`,
      ),
    ],
    5,
    { compressed: true },
  ),
  msg(
    "assistant",
    [
      call("k2", "edit", {
        file_path: `${ROOT}/src/import.ts`,
        old_string: "  if (depth < 0) continue;",
        new_string: "  depth = Math.abs(depth);",
      }),
      call("k3", "mcp_sensors_list_stations", { region: "north" }),
      finish("tool_use"),
    ],
    8,
    { compressed: true },
  ),
  msg(
    "tool",
    [
      result("k2", "edit", "<result>\nContent replaced in file\n</result>"),
      result(
        "k3",
        "mcp_sensors_list_stations",
        "station north-7 offline",
        true,
      ),
    ],
    10,
    { compressed: true },
  ),
  msg(
    "user",
    [
      text("Continue with the remaining steps of the plan.", true),
      finish("stop"),
    ],
    11,
    { compressed: true },
  ),
  msg("assistant", [
    text("Negative depths are now folded to positive; north-7 is offline."),
    finish("end_turn"),
  ], 14),
  msg(
    "assistant",
    [
      text("Summary: the importer keeps negative-depth readings as positive."),
      finish("end_turn"),
    ],
    20,
    { summary: true },
  ),
];

/** Writes the fixture file. */
export async function generate(): Promise<void> {
  await writeFixtureDb(
    new URL(
      "../../fixtures/crush/work/reefline/.crush/crush.db",
      import.meta.url,
    ).pathname,
    SCHEMA,
    [
      {
        table: "goose_db_version",
        rows: [{
          version_id: 20260925000000,
          is_applied: 1,
          tstamp: "2026-09-12 07:59:00",
        }],
      },
      {
        table: "sessions",
        rows: [{
          id: MAIN,
          parent_session_id: null,
          title: "Negative depth readings",
          message_count: messages.length,
          updated_at: T0 + 20,
          created_at: T0,
          summary_message_id: null,
          todos: "[]",
          archived_at: null,
        }],
      },
      { table: "messages", rows: messages },
    ],
  );
}

if (import.meta.main) await generate();
