/**
 * Writes fixtures/hermes: a HOME whose `.hermes/state.db` holds a CLI
 * session with tool calls and a rewound exchange, and a delegated sub-agent
 * run. Run: `deno run -A tests/fixtures_gen/hermes.ts`.
 *
 * @module
 */
import { writeFixtureDb } from "../../src/sources/_store_test_kit.ts";

/** The store's tables, as far as deja reads them. */
export const SCHEMA = `
CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT, model TEXT, model_config TEXT, started_at REAL, ended_at REAL, end_reason TEXT, parent_session_id TEXT, cwd TEXT, title TEXT, title_source TEXT, last_activity_at REAL);
CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content TEXT, tool_calls TEXT, tool_call_id TEXT, tool_name TEXT, timestamp REAL, active INTEGER DEFAULT 1, compacted INTEGER DEFAULT 0, display_order INTEGER, display_metadata TEXT, reasoning TEXT, reasoning_content TEXT, finish_reason TEXT);
`;

const MAIN = "20260614_101500_4f2a9c";
const SUB = "20260614_102200_b81e3d";
const T = 1781432100; // 2026-06-14T10:15:00Z

function call(id: string, name: string, args: unknown): unknown {
  return {
    id,
    type: "function",
    function: { name, arguments: JSON.stringify(args) },
  };
}

/** Writes the fixture files. */
export async function generate(): Promise<void> {
  let id = 0;
  const msg = (
    session: string,
    role: string,
    content: string | null,
    at: number,
    extra: Record<string, string | number | null> = {},
  ) => ({
    id: ++id,
    session_id: session,
    role,
    content,
    timestamp: at,
    active: 1,
    display_order: id,
    ...extra,
  });
  await writeFixtureDb(
    new URL("../../fixtures/hermes/.hermes/state.db", import.meta.url).pathname,
    SCHEMA,
    [
      {
        table: "sessions",
        rows: [
          {
            id: MAIN,
            source: "cli",
            model: "hermes-4-405b",
            model_config: "{}",
            started_at: T,
            ended_at: null,
            parent_session_id: null,
            cwd: "/home/dev/code/tidewater",
            title: "Cron backup job silently skips Sundays",
            title_source: "llm",
            last_activity_at: T + 540,
          },
          {
            id: SUB,
            source: "tool",
            model: "hermes-4-70b",
            model_config: JSON.stringify({ _delegate_from: MAIN }),
            started_at: T + 420,
            ended_at: T + 450,
            end_reason: "agent_close",
            parent_session_id: MAIN,
            cwd: "/home/dev/code/tidewater",
            title: null,
            last_activity_at: T + 450,
          },
        ],
      },
      {
        table: "messages",
        rows: [
          msg(MAIN, "system", "You are Hermes, a helpful agent.", T),
          msg(
            MAIN,
            "user",
            "The nightly backup cron never runs on Sundays. Why?",
            T + 5,
          ),
          msg(MAIN, "assistant", "Let me look at the crontab entry.", T + 9, {
            tool_calls: JSON.stringify([
              call("call_h1", "terminal", {
                command: "crontab -l | grep backup",
              }),
            ]),
            finish_reason: "tool_calls",
          }),
          msg(MAIN, "tool", "15 2 * * 1-6 /usr/local/bin/backup.sh", T + 10, {
            tool_call_id: "call_h1",
            tool_name: "terminal",
          }),
          msg(
            MAIN,
            "assistant",
            "The day-of-week field is 1-6, which leaves out Sunday (0 or 7).",
            T + 15,
          ),
          msg(MAIN, "user", "Rewrite it in systemd timers instead.", T + 60, {
            active: 0,
          }),
          msg(
            MAIN,
            "assistant",
            "Converting the job to a systemd timer unit.",
            T + 64,
            { active: 0 },
          ),
          msg(MAIN, "user", "Actually just fix the crontab range.", T + 120),
          msg(MAIN, "assistant", null, T + 124, {
            tool_calls: JSON.stringify([call("call_h2", "patch", {
              path: "/home/dev/code/tidewater/deploy/crontab",
              old_string: "15 2 * * 1-6",
              new_string: "15 2 * * *",
            })]),
          }),
          msg(MAIN, "tool", "Patched deploy/crontab (1 replacement)", T + 125, {
            tool_call_id: "call_h2",
            tool_name: "patch",
          }),
          msg(
            MAIN,
            "assistant",
            "The backup now runs every day at 02:15.",
            T + 130,
          ),
          msg(
            SUB,
            "user",
            "List every script under deploy/ that cron calls.",
            T + 420,
          ),
          msg(
            SUB,
            "assistant",
            "Only backup.sh and rotate-logs.sh are called from cron.",
            T + 450,
          ),
        ],
      },
    ],
  );
}

if (import.meta.main) await generate();
