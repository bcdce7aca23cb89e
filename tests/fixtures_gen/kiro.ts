/**
 * Writes fixtures/kiro's kiro-cli 1.x store: a HOME whose
 * `.local/share/kiro-cli/data.sqlite3` holds, in `conversations_v2`, a
 * conversation with shell, read and write tool uses (one failing, one
 * cancelled) and a compacted one whose history starts with the summary.
 * Run: `deno run -A tests/fixtures_gen/kiro.ts`.
 *
 * @module
 */
import { writeFixtureDb } from "../../src/sources/_store_test_kit.ts";

/** The store's tables, as kiro-cli's migrations create them (the ones deja reads). */
export const SCHEMA = `
CREATE TABLE migrations (id INTEGER PRIMARY KEY, version INTEGER NOT NULL, migration_time INTEGER NOT NULL);
CREATE TABLE conversations (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE conversations_v2 (key TEXT NOT NULL, conversation_id TEXT NOT NULL, value TEXT NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, PRIMARY KEY (key, conversation_id));
CREATE TABLE auth_kv (key TEXT PRIMARY KEY, value TEXT);
`;

const CWD = "/home/dev/code/tidepool";

function env(): unknown {
  return {
    env_state: {
      operating_system: "linux",
      current_working_directory: CWD,
      environment_variables: [],
    },
  };
}

function prompt(text: string, timestamp: string | null): unknown {
  return {
    additional_context: "",
    env_context: env(),
    content: { Prompt: { prompt: text } },
    timestamp,
    images: null,
  };
}

function results(list: unknown[]): unknown {
  return {
    additional_context: "",
    env_context: env(),
    content: { ToolUseResults: { tool_use_results: list } },
    timestamp: null,
    images: null,
  };
}

function use(id: string, name: string, args: unknown): unknown {
  return { id, name, orig_name: name, args, orig_args: args };
}

const MAIN = {
  conversation_id: "0f4d2c9a-6b1e-4e73-9a58-c2d7e1b4f306",
  next_message: null,
  history: [
    {
      user: prompt(
        "The tide table importer crashes on the 2026 file, can you look?",
        "2026-05-11T09:14:03.120+02:00",
      ),
      assistant: {
        ToolUse: {
          message_id: "a1",
          content: "Let me run the importer tests first.",
          tool_uses: [
            use("tooluse_r1", "execute_bash", {
              command: "cargo test -p importer",
              summary: "Run importer tests",
            }),
          ],
        },
      },
      request_metadata: null,
    },
    {
      user: results([{
        tool_use_id: "tooluse_r1",
        content: [{
          Json: {
            exit_status: "exit status: 101",
            stdout: "running 4 tests\ntest parse_row ... FAILED",
            stderr: "thread 'parse_row' panicked at 'index out of bounds'",
          },
        }],
        status: "Success",
      }]),
      assistant: {
        ToolUse: {
          message_id: "a2",
          content: "",
          tool_uses: [
            use("tooluse_r2", "fs_read", {
              operations: [{ mode: "Line", path: `${CWD}/src/row.rs` }],
            }),
          ],
        },
      },
      request_metadata: null,
    },
    {
      user: results([{
        tool_use_id: "tooluse_r2",
        content: [{ Text: "let height = cols[3].parse()?;" }],
        status: "Success",
      }]),
      assistant: {
        ToolUse: {
          message_id: "a3",
          content: "Rows with three columns index past the end.",
          tool_uses: [
            use("tooluse_r3", "fs_write", {
              command: "str_replace",
              path: `${CWD}/src/row.rs`,
              old_str: "let height = cols[3].parse()?;",
              new_str:
                "let height = cols.get(3).ok_or(RowError::Short)?.parse()?;",
            }),
          ],
        },
      },
      request_metadata: null,
    },
    {
      user: {
        additional_context: "",
        env_context: env(),
        content: {
          CancelledToolUses: {
            prompt: "Wait, keep the panic message too.",
            tool_use_results: [{
              tool_use_id: "tooluse_r3",
              content: [{ Text: "Tool use was cancelled by the user" }],
              status: "Error",
            }],
          },
        },
        timestamp: "2026-05-11T09:16:40.002+02:00",
        images: null,
      },
      assistant: {
        Response: {
          message_id: "a4",
          content:
            "Understood: short rows now return RowError::Short with the row number.",
        },
      },
      request_metadata: null,
    },
  ],
  valid_history_range: [0, 4],
  transcript: ["> The tide table importer crashes on the 2026 file"],
  latest_summary: null,
};

const COMPACTED = {
  conversation_id: "7e21b0c4-9d3f-4a86-b5e2-1f8c6a0d9b47",
  history: [
    [
      prompt("Now add a --since flag to the export command.", null),
      {
        Response: {
          message_id: "b1",
          content: "Added --since, parsed with humantime.",
        },
      },
    ],
  ],
  latest_summary: [
    "We renamed the crate to tidepool-core and moved the CLI into its own binary.",
    { request_id: "r-9" },
  ],
};

/** Writes the fixture file. */
export async function generate(): Promise<void> {
  await writeFixtureDb(
    new URL(
      "../../fixtures/kiro/.local/share/kiro-cli/data.sqlite3",
      import.meta.url,
    ).pathname,
    SCHEMA,
    [
      {
        table: "conversations_v2",
        rows: [
          {
            key: CWD,
            conversation_id: MAIN.conversation_id,
            value: JSON.stringify(MAIN),
            created_at: 1778483643120,
            updated_at: 1778483800002,
          },
          {
            key: CWD,
            conversation_id: COMPACTED.conversation_id,
            value: JSON.stringify(COMPACTED),
            created_at: 1778570000000,
            updated_at: 1778570400000,
          },
          {
            key: "/home/dev/broken",
            conversation_id: "c0ffee00-0000-4000-8000-000000000000",
            value: '{"conversation_id": "c0ffee00", "history": [',
            created_at: 1778570500000,
            updated_at: 1778570500000,
          },
        ],
      },
    ],
  );
}

if (import.meta.main) await generate();
