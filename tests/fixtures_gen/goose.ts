/**
 * Writes fixtures/goose: a HOME with `.local/share/goose/sessions/sessions.db`
 * (a session with shell and text-editor tools, a sub-agent, a fork that
 * copied the first turns of its source, a hidden session) and one legacy
 * `sessions/<id>.jsonl`. Run: `deno run -A tests/fixtures_gen/goose.ts`.
 *
 * @module
 */
import { writeFixtureDb } from "../../src/sources/_store_test_kit.ts";

const DIR =
  new URL("../../fixtures/goose/.local/share/goose/sessions/", import.meta.url)
    .pathname;

const SCHEMA = `
CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP);
CREATE TABLE sessions (id TEXT PRIMARY KEY, name TEXT NOT NULL DEFAULT '', description TEXT NOT NULL DEFAULT '', user_set_name BOOLEAN DEFAULT FALSE, session_type TEXT NOT NULL DEFAULT 'user', working_dir TEXT NOT NULL, created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP, updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP, extension_data TEXT DEFAULT '{}', parent_session_id TEXT);
CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL REFERENCES sessions(id), role TEXT NOT NULL, content_json TEXT NOT NULL, created_timestamp INTEGER NOT NULL, timestamp TIMESTAMP DEFAULT CURRENT_TIMESTAMP, tokens INTEGER, metadata_json TEXT, message_id TEXT);
`;

const CWD = "/home/dev/work/orchard";
const T0 = 1769940000; // 2026-02-01T10:00:00Z
const VISIBLE = JSON.stringify({ userVisible: true, agentVisible: true });

function text(t: string) {
  return { type: "text", text: t };
}
function request(id: string, name: string, args: unknown) {
  return {
    type: "toolRequest",
    id,
    toolCall: { status: "success", value: { name, arguments: args } },
  };
}
function response(id: string, out: string, isError = false) {
  return {
    type: "toolResponse",
    id,
    toolResult: {
      status: "success",
      value: { content: [{ type: "text", text: out }], isError },
    },
  };
}

let n = 0;
function msg(
  session: string,
  role: string,
  content: unknown[],
  dt: number,
  metadata = VISIBLE,
  mid?: string,
) {
  n++;
  return {
    session_id: session,
    role,
    content_json: JSON.stringify(content),
    created_timestamp: T0 + dt,
    timestamp: new Date((T0 + dt) * 1000).toISOString().slice(0, 19).replace(
      "T",
      " ",
    ),
    metadata_json: metadata,
    message_id: mid ?? `msg_${session}_${n}`,
  };
}

const MAIN = "20260201_1";
const SUB = "20260201_2";
const FORK = "20260201_3";
const HIDDEN = "20260201_4";

const first = msg(MAIN, "user", [
  text("Add a --dry-run flag to the harvest command."),
], 0);
const second = msg(MAIN, "assistant", [
  { type: "thinking", thinking: "Find where flags are parsed.", signature: "" },
  text("I'll look at the CLI module."),
  request("t1", "developer__text_editor", {
    command: "view",
    path: `${CWD}/src/cli.rs`,
  }),
], 3);

const rows = [
  first,
  second,
  msg(MAIN, "user", [response("t1", "fn harvest(args: Args) {}")], 4),
  msg(MAIN, "assistant", [
    request("t2", "developer__text_editor", {
      command: "str_replace",
      path: `${CWD}/src/cli.rs`,
      old_str: "fn harvest(args: Args) {}",
      new_str: "fn harvest(args: Args) { if args.dry_run { return; } }",
    }),
  ], 8),
  msg(MAIN, "user", [response("t2", "The file was edited.")], 9),
  msg(MAIN, "assistant", [
    request("t3", "developer__shell", { command: "cargo test harvest" }),
  ], 10),
  msg(MAIN, "user", [
    response(
      "t3",
      "error[E0609]: no field `dry_run` on type `Args`\nexit status 101",
      true,
    ),
  ], 30),
  msg(
    MAIN,
    "user",
    [text("Context was compacted; continue from the summary.")],
    31,
    JSON.stringify({ userVisible: false, agentVisible: true }),
  ),
  msg(MAIN, "assistant", [
    text("The flag needs a field on Args too; adding it now."),
  ], 32),
  msg(SUB, "user", [text("List the call sites of harvest().")], 11),
  msg(SUB, "assistant", [
    request("s1", "developer__shell", { command: "rg -n 'harvest\\(' src" }),
  ], 12),
  msg(SUB, "user", [response("s1", "src/main.rs:14: harvest(args)")], 13),
  msg(SUB, "assistant", [text("One call site: src/main.rs line 14.")], 14),
  // The fork repeats the first two messages of MAIN, ids included.
  { ...first, session_id: FORK, created_timestamp: T0 + 100 },
  { ...second, session_id: FORK, created_timestamp: T0 + 101 },
  msg(FORK, "user", [text("Instead, make it an environment variable.")], 102),
  msg(
    FORK,
    "assistant",
    [text("Then ORCHARD_DRY_RUN=1 will skip the writes.")],
    103,
  ),
  msg(HIDDEN, "user", [text("Generate a title for this session")], 1),
  msg(HIDDEN, "assistant", [text("Harvest dry run")], 2),
];

/** Writes the fixture files. */
export async function generate(): Promise<void> {
  await writeFixtureDb(`${DIR}sessions.db`, SCHEMA, [
    {
      table: "schema_version",
      rows: [{ version: 7, applied_at: "2026-02-01 09:00:00" }],
    },
    {
      table: "sessions",
      rows: [
        {
          id: MAIN,
          name: "CLI Session",
          description: "Harvest dry-run flag",
          session_type: "user",
          working_dir: CWD,
          created_at: "2026-02-01 10:00:00",
          updated_at: "2026-02-01 10:00:32",
        },
        {
          id: SUB,
          name: "Subagent",
          description: "",
          session_type: "sub_agent",
          working_dir: CWD,
          created_at: "2026-02-01 10:00:11",
          updated_at: "2026-02-01 10:00:14",
          parent_session_id: MAIN,
        },
        {
          id: FORK,
          name: "Harvest via env",
          user_set_name: 1,
          description: "",
          session_type: "user",
          working_dir: CWD,
          created_at: "2026-02-01 10:01:40",
          updated_at: "2026-02-01 10:01:43",
        },
        {
          id: HIDDEN,
          name: "",
          description: "",
          session_type: "hidden",
          working_dir: CWD,
          created_at: "2026-02-01 10:00:01",
          updated_at: "2026-02-01 10:00:02",
        },
      ],
    },
    { table: "messages", rows },
  ]);

  const legacy = [
    {
      working_dir: "/home/dev/work/quince",
      description: "Explain the retry policy",
      schedule_id: null,
      message_count: 2,
      total_tokens: 812,
    },
    {
      id: "m1",
      role: "user",
      created: 1740823200,
      content: [text("Why does the fetcher retry five times?")],
    },
    {
      id: "m2",
      role: "assistant",
      created: 1740823206,
      content: JSON.stringify([
        text("RETRY_LIMIT in src/fetch.py is 5; each retry doubles the wait."),
      ]),
    },
  ];
  await Deno.writeTextFile(
    `${DIR}20250301_1.jsonl`,
    legacy.map((l) => JSON.stringify(l)).join("\n") + "\n",
  );
}

if (import.meta.main) await generate();
