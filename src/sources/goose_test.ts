import { deepEqual, equal, ok, rejects } from "node:assert/strict";
import { join } from "node:path";
import { DejaError } from "../core/errors.ts";
import { goose, parseGooseDb, parseGooseJsonl } from "./goose.ts";
import {
  copyFile,
  linuxHome,
  parseHome,
  roleCounts,
  writeFixtureDb,
} from "./_store_test_kit.ts";
import { hasSamples, SAMPLES } from "./_test_kit.ts";
import { SCHEMA as ACP_SCHEMA } from "../../tests/fixtures_gen/goose_acp.ts";

const FIXTURE = new URL("../../fixtures/goose", import.meta.url).pathname;
const SOURCE = linuxHome("/nonexistent");
const OPTIONS = { includeSubagents: true, source: SOURCE };

Deno.test("goose parses the fixture store and legacy JSONL", async () => {
  const { files, sessions, skipped } = await parseHome(
    goose,
    linuxHome(FIXTURE),
  );
  equal(files.length, 2);
  equal(skipped, 0);
  deepEqual(sessions.map((s) => s.id).sort(), [
    "20250301_1",
    "20260201_1",
    "20260201_2",
    "20260201_3",
  ], "the hidden session is skipped");
  const main = sessions.find((s) => s.id === "20260201_1");
  ok(main);
  deepEqual(roleCounts(main), {
    user: 1,
    assistant: 2,
    files: 2,
    "tool-output": 3,
    edit: 1,
    command: 1,
  });
  equal(main.title, "Harvest dry-run flag");
  equal(main.project, "orchard");
  const command = main.records.find((r) => r.role === "command");
  equal(command?.exitCode, 101);
  equal(main.records.filter((r) => r.flags?.isError).length, 1);
  ok(
    !main.records.some((r) => r.text.includes("compacted")),
    "userVisible:false text is not speech",
  );
  ok(
    !main.records.some((r) => r.text.includes("Find where flags")),
    "thinking is dropped",
  );
  equal(main.started, Date.parse("2026-02-01T10:00:00Z"));

  const sub = sessions.find((s) => s.id === "20260201_2");
  equal(sub?.lineage, "subagent");
  equal(sub?.parent, main.id);
  ok(sub?.records.every((r) => r.flags?.subagent));
  equal(sub?.records.find((r) => r.role === "command")?.exitCode, 0);

  const fork = sessions.find((s) => s.id === "20260201_3");
  equal(fork?.lineage, "fork");
  equal(fork?.parent, main.id);
  deepEqual(
    fork?.records.map((r) => r.role),
    ["user", "assistant"],
    "only the fork's own turns",
  );
  equal(fork?.title, "Harvest via env");

  const legacy = sessions.find((s) => s.id === "20250301_1");
  deepEqual(legacy && roleCounts(legacy), { user: 1, assistant: 1 });
  equal(legacy?.project, "quince");
});

const ACP_FIXTURE = new URL("../../fixtures/goose-acp", import.meta.url)
  .pathname;

Deno.test("goose names an ACP session (schema 10-11) after its thread and reads its messages once", async () => {
  const { files, sessions, skipped } = await parseHome(
    goose,
    linuxHome(ACP_FIXTURE),
  );
  equal(files.length, 1);
  equal(skipped, 0);
  equal(sessions.length, 1, "thread_messages copies are not a second session");
  const s = sessions[0];
  equal(s?.id, "20260410_3");
  equal(s?.title, "Flaky orchard sync test");
  equal(s?.project, "orchard");
  deepEqual(s?.records.map((r) => [r.role, r.tool, r.exitCode, r.flags]), [
    ["user", undefined, undefined, undefined],
    ["assistant", undefined, undefined, undefined],
    ["command", "developer__shell", undefined, undefined],
    ["tool-output", "developer__shell", undefined, { isError: true }],
    ["assistant", undefined, undefined, undefined],
  ]);
  ok(!s?.records.some((r) => r.text.includes("info-msg")));
  ok(!s?.records.some((r) => r.text.includes("race in the sync loop")));
});

Deno.test("goose survives a hostile or half-written threads table", async () => {
  const path = join(await Deno.makeTempDir(), "sessions.db");
  await writeFixtureDb(path, ACP_SCHEMA, [
    {
      table: "threads",
      rows: [
        { id: "t1", name: "", user_set_name: 0, working_dir: null },
        { id: "t2", name: "New Chat", user_set_name: 0 },
      ],
    },
    {
      table: "sessions",
      rows: [
        {
          id: "a",
          name: "ACP Session",
          session_type: "acp",
          working_dir: "/w/a",
          thread_id: "t1",
        },
        {
          id: "b",
          name: "ACP Session",
          session_type: "acp",
          working_dir: "/w/b",
          thread_id: "missing",
        },
        {
          id: "c",
          name: "Kept name",
          user_set_name: 1,
          session_type: "acp",
          working_dir: "/w/c",
          thread_id: "t2",
        },
      ],
    },
    {
      table: "messages",
      rows: ["a", "b", "c"].map((id, i) => ({
        session_id: id,
        role: "user",
        content_json: JSON.stringify([{ type: "text", text: `hello ${id}` }]),
        created_timestamp: 1775815200 + i,
      })),
    },
  ]);
  const { sessions } = await parseGooseDb(path, OPTIONS);
  deepEqual(
    sessions.map((s) => [s.id, s.title]).sort(),
    [["a", "hello a"], ["b", "hello b"], ["c", "Kept name"]],
  );
});

Deno.test("goose leaves sub-agent sessions out when asked to", async () => {
  const { sessions } = await parseHome(goose, linuxHome(FIXTURE), false);
  ok(!sessions.some((s) => s.lineage === "subagent"));
  equal(sessions.length, 3);
});

Deno.test("goose roots follow the environment", () => {
  deepEqual(goose.roots(linuxHome("/h", { GOOSE_PATH_ROOT: "/g" })), [
    "/g/data",
    "/h/.goose",
  ]);
  deepEqual(goose.roots(linuxHome("/h", { XDG_DATA_HOME: "/x" })), [
    "/x/goose",
    "/h/.goose",
  ]);
  deepEqual(
    goose.roots({
      home: "C:/Users/h",
      env: { APPDATA: "C:/Users/h/AppData/Roaming" },
      os: "windows",
    }),
    ["C:/Users/h/AppData/Roaming/Block/goose/data", "C:/Users/h/.goose"],
  );
});

Deno.test("goose names an unknown schema", async (t) => {
  await t.step("no messages table", async () => {
    const path = join(await Deno.makeTempDir(), "sessions.db");
    await writeFixtureDb(
      path,
      "CREATE TABLE sessions (id TEXT, working_dir TEXT);",
      [],
    );
    await rejects(
      parseGooseDb(path, OPTIONS),
      (e: unknown) =>
        e instanceof DejaError && e.code === "SRC-E002" &&
        /Unknown Goose schema in ".*sessions\.db": missing table "messages"/
          .test(e.message),
    );
  });
  await t.step("messages without content_json", async () => {
    const path = join(await Deno.makeTempDir(), "sessions.db");
    await writeFixtureDb(
      path,
      "CREATE TABLE sessions (id TEXT, working_dir TEXT); CREATE TABLE messages (session_id TEXT, role TEXT, created_timestamp INTEGER);",
      [],
    );
    await rejects(parseGooseDb(path, OPTIONS), /missing column "content_json"/);
  });
  await t.step("garbage bytes", async () => {
    const path = join(await Deno.makeTempDir(), "sessions.db");
    await Deno.writeFile(path, crypto.getRandomValues(new Uint8Array(5000)));
    await rejects(
      parseGooseDb(path, OPTIONS),
      (e: unknown) => e instanceof DejaError && e.code === "SRC-E001",
    );
  });
});

Deno.test("goose survives hostile rows", async () => {
  const path = join(await Deno.makeTempDir(), "sessions.db");
  const deep = "[".repeat(100_000) + "]".repeat(100_000);
  await writeFixtureDb(
    path,
    "CREATE TABLE sessions (id TEXT, working_dir TEXT, session_type TEXT); CREATE TABLE messages (session_id TEXT, role TEXT, content_json TEXT, created_timestamp INTEGER, metadata_json TEXT);",
    [
      {
        table: "sessions",
        rows: [{ id: "s", working_dir: "/w/p", session_type: "user" }, {
          id: "n",
          working_dir: "",
          session_type: null,
        }],
      },
      {
        table: "messages",
        rows: [
          {
            session_id: "s",
            role: "user",
            content_json: "nope",
            created_timestamp: 1,
          },
          {
            session_id: "s",
            role: "user",
            content_json: deep,
            created_timestamp: 2,
          },
          {
            session_id: "s",
            role: "user",
            content_json: '{"type":"text"}',
            created_timestamp: 3,
          },
          {
            session_id: "s",
            role: "user",
            content_json:
              '[1,null,{"type":"toolRequest"},{"type":"toolResponse","toolResult":7}]',
            created_timestamp: 4,
            metadata_json: "[]",
          },
          {
            session_id: "s",
            role: 5 as unknown as string,
            content_json: '[{"type":"text","text":"odd role"}]',
            created_timestamp: 5,
          },
          {
            session_id: "s",
            role: "user",
            content_json: JSON.stringify([{
              type: "text",
              text: "y".repeat(100_000),
            }]),
            created_timestamp: 9e18,
          },
          {
            session_id: "n",
            role: "assistant",
            content_json: '[{"type":"text","text":"no project dir"}]',
            created_timestamp: 6,
          },
        ],
      },
    ],
  );
  const { sessions, skipped } = await parseGooseDb(path, OPTIONS);
  ok(skipped >= 4);
  const s = sessions.find((x) => x.id === "s");
  equal(s?.records.length, 1);
  equal(s?.records[0]?.flags?.truncated, true);
  equal(sessions.find((x) => x.id === "n")?.project, "goose");
});

Deno.test("goose legacy JSONL: torn last line, malformed and oversized lines", async () => {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "20250101_1.jsonl");
  await Deno.writeTextFile(
    path,
    [
      JSON.stringify({ working_dir: "/w/api", description: "Retry" }),
      "{not json",
      JSON.stringify([1, 2]),
      JSON.stringify({
        role: "user",
        created: 1735725600,
        content: [{ type: "text", text: "hi" }],
      }),
      JSON.stringify({
        role: "assistant",
        created: 1735725601,
        content: '[{"type":"text","text":"hello"}]',
      }),
      JSON.stringify({
        role: "user",
        content: [{ type: "text", text: "z".repeat(5000) }],
      }),
      JSON.stringify({
        role: "assistant",
        created: 1735725602,
        content: [{ type: "text", text: "torn" }],
      }).slice(0, 30),
    ].join("\n"),
  );
  const { sessions, skipped } = await parseGooseJsonl(path, {
    ...OPTIONS,
    maxLineBytes: 1000,
  });
  equal(skipped, 3, "one malformed, one wrong type, one oversized");
  deepEqual(sessions[0]?.records.map((r) => r.text), ["hi", "hello"]);
  equal(sessions[0]?.records[0]?.locator.line, 4);
});

Deno.test("goose parses the real sample store", {
  ignore: !hasSamples("goose"),
}, async () => {
  const copy = await copyFile(
    join(SAMPLES, "goose/jwp23-dotfiles/sessions/sessions.db"),
  );
  const { sessions, skipped } = await parseGooseDb(copy, OPTIONS);
  // One "CLI Session" row and an empty messages table: nothing was said.
  equal(skipped, 0);
  equal(sessions.length, 0);
});

Deno.test("goose reads a tool's output once and a compaction's summary (schema 17 shapes)", async () => {
  const path = join(await Deno.makeTempDir(), "sessions.db");
  const text = (t: string, audience?: string[]) =>
    audience ? { type: "text", text: t, annotations: { audience } } : {
      type: "text",
      text: t,
    };
  const seen = JSON.stringify({ userVisible: true, agentVisible: true });
  const modelOnly = JSON.stringify({ userVisible: false, agentVisible: true });
  const retired = JSON.stringify({ userVisible: true, agentVisible: false });
  const gone = JSON.stringify({ userVisible: false, agentVisible: false });
  const rows: Array<[string, unknown[], string]> = [
    ["user", [text("count the pears in the crate log")], retired],
    ["assistant", [{
      type: "toolRequest",
      id: "call_1",
      toolCall: {
        status: "success",
        value: { name: "shell", arguments: { command: "wc -l crate.log" } },
      },
    }], retired],
    ["user", [{
      type: "toolResponse",
      id: "call_1",
      toolResult: {
        status: "success",
        value: {
          content: [
            text("41 crate.log\n", ["assistant"]),
            text("41 crate.log\n", ["user"]),
          ],
          isError: false,
        },
      },
    }], retired],
    ["user", [text("The pear count came to 41 (wc -l).")], modelOnly],
    ["assistant", [
      text(
        "The previous message is a structured summary of an earlier portion of this session. Continue calling tools as necessary.",
      ),
    ], modelOnly],
    ["user", [text("count the pears in the crate log")], seen],
    ["assistant", [text("There are 41 lines.")], seen],
    ["user", [
      text("now split them by orchard"),
      text("<orchard-hints>north, south</orchard-hints>", ["assistant"]),
    ], seen],
    ["user", [
      text(
        "Your context was compacted. The previous message contains a summary of the conversation so far.",
      ),
    ], gone],
    ["assistant", [text("Split done.", ["user", "assistant"])], seen],
  ];
  await writeFixtureDb(
    path,
    "CREATE TABLE sessions (id TEXT PRIMARY KEY, name TEXT, working_dir TEXT, session_type TEXT, created_at TEXT, updated_at TEXT, parent_session_id TEXT, parent_delegation TEXT); CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT, role TEXT, content_json TEXT, created_timestamp INTEGER, metadata_json TEXT, message_id TEXT);",
    [
      {
        table: "sessions",
        rows: [{
          id: "20261101_1",
          name: "Pear census",
          working_dir: "/w/orchard",
          session_type: "user",
        }],
      },
      {
        table: "messages",
        rows: rows.map(([role, content, metadata], i) => ({
          session_id: "20261101_1",
          role,
          content_json: JSON.stringify(content),
          created_timestamp: 1_793_000_000_000 + i * 1000,
          metadata_json: metadata,
          message_id: `msg_${i}`,
        })),
      },
    ],
  );
  const { sessions, skipped } = await parseGooseDb(path, OPTIONS);
  equal(skipped, 0);
  deepEqual(
    sessions[0]?.records.map((r) => [r.role, r.text]),
    [
      ["user", "count the pears in the crate log"],
      ["command", "wc -l crate.log"],
      ["tool-output", "41 crate.log"],
      ["summary", "The pear count came to 41 (wc -l)."],
      ["assistant", "There are 41 lines."],
      ["user", "now split them by orchard"],
      ["assistant", "Split done."],
    ],
    "the person's copy of the output, the re-sent prompt and the model-only hint are left out",
  );
  equal(sessions[0]?.records[1]?.exitCode, 0);
});

Deno.test("goose reads a frontend tool's request like any tool's and skips confirmations, thinking and unknown parts", async () => {
  const path = join(await Deno.makeTempDir(), "sessions.db");
  const rows: Array<[string, unknown[]]> = [
    ["user", [{ type: "text", text: "open the plum ledger" }]],
    ["assistant", [
      {
        type: "thinking",
        thinking: "Use the app's file panel.",
        signature: "s",
      },
      { type: "redactedThinking", data: "xx" },
      { type: "text", text: "Opening it in the panel." },
      {
        type: "frontendToolRequest",
        id: "fe_1",
        toolCall: {
          status: "success",
          value: {
            name: "panel__read",
            arguments: { path: "/w/plums/ledger.csv" },
          },
        },
      },
      {
        type: "toolConfirmationRequest",
        id: "fe_1",
        toolName: "panel__read",
        arguments: { path: "/w/plums/ledger.csv" },
        prompt: "Allow?",
      },
      { type: "someFuturePart", payload: { a: 1 } },
    ]],
    ["user", [{
      type: "toolResponse",
      id: "fe_1",
      toolResult: { status: "error", error: "panel closed before reading" },
    }]],
    ["assistant", [{ type: "text", text: "The panel was closed." }]],
  ];
  await writeFixtureDb(
    path,
    "CREATE TABLE sessions (id TEXT PRIMARY KEY, name TEXT, working_dir TEXT, session_type TEXT, created_at TEXT, updated_at TEXT); CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT, role TEXT, content_json TEXT, created_timestamp INTEGER);",
    [
      {
        table: "sessions",
        rows: [{
          id: "20261102_1",
          name: "Plum ledger",
          working_dir: "/w/plums",
          session_type: "user",
        }],
      },
      {
        table: "messages",
        rows: rows.map(([role, content], i) => ({
          session_id: "20261102_1",
          role,
          content_json: JSON.stringify(content),
          created_timestamp: 1_793_100_000 + i,
        })),
      },
    ],
  );
  const { sessions, skipped } = await parseGooseDb(path, OPTIONS);
  equal(skipped, 0);
  deepEqual(
    sessions[0]?.records.map((r) => [r.role, r.tool, r.text, r.flags]),
    [
      ["user", undefined, "open the plum ledger", undefined],
      ["assistant", undefined, "Opening it in the panel.", undefined],
      ["files", "panel__read", "/w/plums/ledger.csv", undefined],
      ["tool-output", "panel__read", "panel closed before reading", {
        isError: true,
      }],
      ["assistant", undefined, "The panel was closed.", undefined],
    ],
  );
});
