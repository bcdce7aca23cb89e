/**
 * Writes fixtures/goose-acp: a HOME whose `.local/share/goose/sessions/
 * sessions.db` is at schema version 11 (spring 2026), when an ACP client
 * (goose2) kept each conversation's name in a `threads` row and the messages
 * in an internal `acp` session pointing at it through `thread_id`; the
 * thread's messages were also copied to `thread_messages`. Run:
 * `deno run -A tests/fixtures_gen/goose_acp.ts`.
 *
 * @module
 */
import { writeFixtureDb } from "../../src/sources/_store_test_kit.ts";

const PATH = new URL(
  "../../fixtures/goose-acp/.local/share/goose/sessions/sessions.db",
  import.meta.url,
).pathname;

export const SCHEMA = `
CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP);
CREATE TABLE sessions (id TEXT PRIMARY KEY, name TEXT NOT NULL DEFAULT '', description TEXT NOT NULL DEFAULT '', user_set_name BOOLEAN DEFAULT FALSE, session_type TEXT NOT NULL DEFAULT 'user', working_dir TEXT NOT NULL, created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP, updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP, extension_data TEXT DEFAULT '{}', total_tokens INTEGER, input_tokens INTEGER, output_tokens INTEGER, accumulated_total_tokens INTEGER, accumulated_input_tokens INTEGER, accumulated_output_tokens INTEGER, schedule_id TEXT, recipe_json TEXT, user_recipe_values_json TEXT, provider_name TEXT, model_config_json TEXT, goose_mode TEXT NOT NULL DEFAULT 'auto', thread_id TEXT, parent_session_id TEXT);
CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL REFERENCES sessions(id), role TEXT NOT NULL, content_json TEXT NOT NULL, created_timestamp INTEGER NOT NULL, timestamp TIMESTAMP DEFAULT CURRENT_TIMESTAMP, tokens INTEGER, metadata_json TEXT, message_id TEXT);
CREATE TABLE threads (id TEXT PRIMARY KEY, name TEXT NOT NULL DEFAULT 'New Chat', user_set_name BOOLEAN DEFAULT FALSE, working_dir TEXT, created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP, updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP, archived_at TIMESTAMP, metadata_json TEXT DEFAULT '{}');
CREATE TABLE thread_messages (id INTEGER PRIMARY KEY AUTOINCREMENT, thread_id TEXT NOT NULL REFERENCES threads(id), session_id TEXT, message_id TEXT, role TEXT NOT NULL, content_json TEXT NOT NULL, created_timestamp INTEGER NOT NULL, metadata_json TEXT DEFAULT '{}');
`;

const CWD = "/home/dev/work/orchard";
const THREAD = "3f9a2c1e-8b7d-4e60-a5f4-0c2d9e8b7a61";
const SESSION = "20260410_3";
const T0 = 1775815200; // 2026-04-10T10:00:00Z
const VISIBLE = JSON.stringify({ userVisible: true, agentVisible: true });
const MODEL_ONLY = JSON.stringify({ userVisible: false, agentVisible: true });

const messages = [
  {
    role: "user",
    content: [{
      type: "text",
      text: "The orchard sync test fails one run in five; find out why.",
    }],
    dt: 0,
    meta: VISIBLE,
  },
  {
    role: "user",
    content: [{
      type: "text",
      text: "<info-msg>Working directory: /home/dev/work/orchard</info-msg>",
    }],
    dt: 1,
    meta: MODEL_ONLY,
  },
  {
    role: "assistant",
    content: [
      {
        type: "thinking",
        thinking: "Likely a race in the sync loop.",
        signature: "s",
      },
      { type: "text", text: "I'll run the test a few times." },
      {
        type: "toolRequest",
        id: "toolu_01",
        toolCall: {
          status: "success",
          value: {
            name: "developer__shell",
            arguments: {
              command: "for i in 1 2 3 4 5; do cargo test sync; done",
            },
          },
        },
      },
    ],
    dt: 4,
    meta: VISIBLE,
  },
  {
    role: "user",
    content: [{
      type: "toolResponse",
      id: "toolu_01",
      toolResult: {
        status: "success",
        value: {
          content: [{
            type: "text",
            text:
              "test sync::merges ... FAILED\nthread panicked: lock poisoned",
          }],
          isError: true,
        },
      },
    }],
    dt: 30,
    meta: VISIBLE,
  },
  {
    role: "assistant",
    content: [{
      type: "text",
      text: "The sync test shares one lock across runs; a panic poisons it.",
    }],
    dt: 33,
    meta: VISIBLE,
  },
];

/** Writes the fixture file. */
export async function generate(): Promise<void> {
  const rows = messages.map((m, i) => ({
    session_id: SESSION,
    role: m.role,
    content_json: JSON.stringify(m.content),
    created_timestamp: T0 + m.dt,
    metadata_json: m.meta,
    message_id: `msg_${SESSION}_${i + 1}`,
  }));
  await writeFixtureDb(PATH, SCHEMA, [
    {
      table: "schema_version",
      rows: Array.from({ length: 11 }, (_, i) => ({
        version: i + 1,
        applied_at: "2026-04-01 09:00:00",
      })),
    },
    {
      table: "threads",
      rows: [{
        id: THREAD,
        name: "Flaky orchard sync test",
        user_set_name: 1,
        working_dir: CWD,
        created_at: "2026-04-10 10:00:00",
        updated_at: "2026-04-10 10:00:33",
        metadata_json: "{}",
      }],
    },
    {
      table: "sessions",
      rows: [{
        id: SESSION,
        name: "ACP Session",
        description: "",
        user_set_name: 0,
        session_type: "acp",
        working_dir: CWD,
        created_at: "2026-04-10 10:00:00",
        updated_at: "2026-04-10 10:00:33",
        provider_name: "anthropic",
        goose_mode: "auto",
        thread_id: THREAD,
      }],
    },
    { table: "messages", rows },
    {
      table: "thread_messages",
      rows: rows.filter((r) => r.metadata_json === VISIBLE).map((r) => ({
        thread_id: THREAD,
        session_id: r.session_id,
        message_id: r.message_id,
        role: r.role,
        content_json: r.content_json,
        created_timestamp: r.created_timestamp,
        metadata_json: r.metadata_json,
      })),
    },
  ]);
}

if (import.meta.main) await generate();
