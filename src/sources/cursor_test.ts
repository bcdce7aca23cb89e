import { deepEqual, equal, ok, rejects } from "node:assert/strict";
import { join } from "node:path";
import { DejaError } from "../core/errors.ts";
import {
  cursor,
  parseCursorChatStore,
  parseCursorStateDb,
  parseCursorTextTranscript,
  parseCursorTranscript,
} from "./cursor.ts";
import {
  copyFile,
  copyTree,
  linuxHome,
  parseHome,
  roleCounts,
  total,
  writeFixtureDb,
} from "./_store_test_kit.ts";
import { hasSamples, SAMPLES } from "./_test_kit.ts";

const FIXTURE = new URL("../../fixtures/cursor", import.meta.url).pathname;
const SOURCE = linuxHome("/nonexistent");
const OPTIONS = { includeSubagents: true, source: SOURCE };
const KV =
  "CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);";

Deno.test("cursor parses the fixture IDE stores and CLI transcripts", async () => {
  const { files, sessions, skipped } = await parseHome(
    cursor,
    linuxHome(FIXTURE),
  );
  equal(files.length, 8);
  equal(skipped, 0);
  equal(
    sessions.length,
    10,
    "five global composers, a workspace composer and tab, three CLI transcripts (the IDE's twin is not one)",
  );
  const byTitle = (t: string) => sessions.find((s) => s.title === t);

  const booking = byTitle("Idempotent berth booking");
  ok(booking);
  deepEqual(roleCounts(booking), {
    user: 1,
    assistant: 2,
    files: 2,
    "tool-output": 2,
    edit: 1,
    command: 1,
  });
  equal(
    booking.records[0]?.text,
    "Ships dock twice when the berth API retries. Make the booking idempotent.",
  );
  equal(
    booking.project,
    "harbor",
    "from the first bubble's workspaceProjectDir",
  );
  equal(booking.records.find((r) => r.role === "command")?.exitCode, 1);
  equal(
    booking.records.find((r) =>
      r.tool === "run_terminal_cmd" &&
      r.role === "tool-output"
    )?.flags?.isError,
    true,
    "a non-zero exit is a failed run",
  );
  equal(booking.records[0]?.time, Date.parse("2026-03-17T10:00:00Z"));
  ok(
    !booking.records.some((r) => r.text.includes("unique key")),
    "thinking is dropped",
  );

  const inline = sessions.find((s) =>
    s.id === "d1e2f3a4-b5c6-4d7e-8f90-a1b2c3d4e5f6"
  );
  deepEqual(inline && roleCounts(inline), { user: 1, assistant: 1 });

  const legacy = byTitle("Rename Dock to Berth");
  equal(legacy?.project, "harbor", "from workspace.json");
  const tab = byTitle("Harbor map tiles");
  deepEqual(
    tab?.records.map((r) => r.role),
    ["user", "assistant"],
    "the empty draft bubble is dropped; rawText is used",
  );

  const cli = sessions.find((s) =>
    s.id === "5b6c7d8e-9f0a-4b1c-8d2e-3f4a5b6c7d8e"
  );
  ok(cli);
  equal(
    cli.records[0]?.text,
    "Add a /health endpoint to the harbor API.",
    "<timestamp> dropped, <user_query> unwrapped",
  );
  deepEqual(roleCounts(cli), {
    user: 1,
    assistant: 2,
    files: 2, // Read, then StrReplace of the same file: two tool calls
    edit: 1,
    command: 2, // Shell, and an MCP tool
  });
  equal(
    cli.records.find((r) => r.tool === "mcp_linear_create_issue")?.text,
    'mcp_linear_create_issue {"title":"Document /health"}',
  );
  equal(cli.project, "harbor", "no .workspace-trusted: the folder name");
  const sub = sessions.find((s) =>
    s.lineage === "subagent" && s.path.includes("/subagents/")
  );
  equal(sub?.parent, cli.id);
  ok(sub?.records.every((r) => r.flags?.subagent));
});

Deno.test("cursor fixture: Cursor 3.x composers, their sub-agents and tools", async (t) => {
  const { sessions } = await parseHome(cursor, linuxHome(FIXTURE));
  const byTitle = (title: string) => sessions.find((s) => s.title === title);
  const tides = byTitle("Tide alert threshold");
  ok(tides);
  await t.step("composer.composerHeaders names the workspace", () => {
    equal(tides.cwd, "/home/dev/code/tides");
    equal(tides.project, "tides");
  });
  await t.step("the composerHeaders table names it by workspace id", () => {
    const light = byTitle("Lighthouse leap days");
    equal(light?.cwd, "/home/dev/code/lighthouse");
  });
  await t.step("edit_file_v2: the lines its content rows lost", () => {
    const edit = tides.records.find((r) => r.role === "edit");
    equal(edit?.tool, "edit_file_v2");
    equal(
      edit?.text,
      "/home/dev/code/tides/src/gauge.ts\nconst alertAt = 0.5; // metres",
    );
    ok(!tides.records.some((r) => r.text.includes("0.8; // metres")));
  });
  await t.step("an MCP call and its result", () => {
    const mcp = tides.records.filter((r) =>
      r.tool === "mcp_tidesdb_query_levels"
    );
    deepEqual(mcp.map((r) => [r.role, r.text]), [
      ["command", 'mcp_tidesdb_query_levels {"station":"north-7"}'],
      ["tool-output", '{"station":"north-7","peak":"0.74 m"}'],
    ]);
    equal(mcp[1]?.flags?.isError, undefined);
  });
  await t.step("a run Cursor calls completed that exited 2 failed", () => {
    const run = tides.records.filter((r) =>
      r.tool === "run_terminal_command_v2"
    );
    equal(run[0]?.exitCode, 2);
    equal(run[1]?.flags?.isError, true);
  });
  await t.step(
    "a sub-agent composer: its parent, and the parent's project",
    () => {
      const sub = byTitle("Callers of read(port)");
      equal(sub?.parent, tides.id);
      equal(sub?.lineage, "subagent");
      equal(sub?.project, "tides");
      ok(sub?.records.every((r) => r.flags?.subagent));
    },
  );
  await t.step(
    "the older .txt transcript, its project from .workspace-trusted",
    () => {
      const txt = byTitle(
        "Why does the ferry timetable import drop the last row?",
      );
      ok(txt);
      equal(txt.cwd, "/home/dev/sea.port-v2", "not the folder name's v2");
      equal(txt.project, "sea.port-v2");
      deepEqual(txt.records.map((r) => [r.role, r.tool ?? ""]), [
        ["user", ""],
        ["assistant", ""],
        ["files", "ReadFile"],
        ["command", "Shell"],
        ["tool-output", "Shell"],
        ["assistant", ""],
        ["files", "StrReplace"],
        ["edit", "StrReplace"],
        ["assistant", ""],
      ]);
      ok(!txt.records.some((r) => r.text.includes("Checking the importer")));
      equal(txt.records[3]?.exitCode, 1, "from the result's Exit code line");
      equal(txt.records[4]?.flags?.isError, true);
      equal(
        txt.records[7]?.text,
        "/home/dev/sea.port-v2/src/import.ts\nfor (let i = 0; i < rows.length - 1; i++) {\n  const row = rows[i];",
        "an argument runs on over the lines after it",
      );
    },
  );
  await t.step("the IDE's twin transcript gives no second session", () => {
    const booking = sessions.filter((s) =>
      s.id === "c0a1b2c3-d4e5-4f60-8172-93a4b5c6d7e8"
    );
    equal(booking.length, 1);
    ok(booking[0]?.path.endsWith("globalStorage/state.vscdb"));
  });
});

Deno.test("cursor leaves sub-agents out when asked to", async () => {
  const { sessions } = await parseHome(cursor, linuxHome(FIXTURE), false);
  equal(sessions.length, 8, "the CLI sub-agent and the IDE sub-agent composer");
  ok(!sessions.some((s) => s.parent));
});

Deno.test("cursor roots follow the OS and the environment", () => {
  deepEqual(cursor.roots({ home: "/h", env: {}, os: "darwin" }), [
    "/h/Library/Application Support/Cursor/User",
    "/h/.cursor",
  ]);
  deepEqual(
    cursor.roots({ home: "/h", env: { APPDATA: "C:/A" }, os: "windows" }),
    ["C:/A/Cursor/User", "/h/.cursor"],
  );
  deepEqual(
    cursor.roots(
      linuxHome("/h", { XDG_CONFIG_HOME: "/x", CURSOR_CONFIG_DIR: "/c" }),
    ),
    [
      "/x/Cursor/User",
      "/h/.config/Cursor/User",
      "/c",
    ],
  );
});

Deno.test("cursor names an unknown schema", async (t) => {
  await t.step("no chat tables", async () => {
    const path = join(await Deno.makeTempDir(), "state.vscdb");
    await writeFixtureDb(path, "CREATE TABLE other (x);", []);
    await rejects(
      parseCursorStateDb(path, OPTIONS),
      (e: unknown) =>
        e instanceof DejaError && e.code === "SRC-E002" &&
        /Unknown Cursor schema in ".*state\.vscdb": missing table "ItemTable"/
          .test(e.message),
    );
  });
  await t.step("garbage bytes", async () => {
    const path = join(await Deno.makeTempDir(), "state.vscdb");
    await Deno.writeFile(path, crypto.getRandomValues(new Uint8Array(7000)));
    await rejects(
      parseCursorStateDb(path, OPTIONS),
      (e: unknown) => e instanceof DejaError && e.code === "SRC-E001",
    );
  });
  await t.step("a store without chats is empty, not an error", async () => {
    const path = join(await Deno.makeTempDir(), "state.vscdb");
    await writeFixtureDb(
      path,
      "CREATE TABLE ItemTable (key TEXT, value BLOB);",
      [
        {
          table: "ItemTable",
          rows: [{ key: "workbench.sideBar", value: "{}" }],
        },
      ],
    );
    deepEqual((await parseCursorStateDb(path, OPTIONS)).sessions, []);
  });
});

Deno.test("cursor survives hostile store values", async () => {
  const path = join(await Deno.makeTempDir(), "state.vscdb");
  const deep = "[".repeat(100_000) + "]".repeat(100_000);
  await writeFixtureDb(path, KV, [{
    table: "cursorDiskKV",
    rows: [
      { key: "composerData:bad", value: "{torn" },
      { key: "composerData:deep", value: deep },
      {
        key: "composerData:types",
        value: JSON.stringify({
          composerId: 5,
          conversation: "x",
          fullConversationHeadersOnly: [1, { bubbleId: 2 }],
        }),
      },
      {
        key: "composerData:ok",
        value: JSON.stringify({
          composerId: "ok",
          fullConversationHeadersOnly: [{ bubbleId: "1" }, {
            bubbleId: "missing",
          }, { bubbleId: "2" }],
        }),
      },
      {
        key: "bubbleId:ok:1",
        value: JSON.stringify({ type: 1, text: "hi", toolFormerData: "x" }),
      },
      {
        key: "bubbleId:ok:2",
        value: JSON.stringify({
          type: 2,
          text: "w".repeat(100_000),
          toolFormerData: {
            name: "run_terminal_cmd",
            rawArgs: "{bad",
            result: 7,
          },
        }),
      },
      {
        key: "composerData:scan",
        value: JSON.stringify({ composerId: "scan" }),
      },
      {
        key: "bubbleId:scan:a",
        value: JSON.stringify({ type: 1, text: "found by key range" }),
      },
      {
        key: "bubbleId:scanx:a",
        value: JSON.stringify({ type: 1, text: "another composer" }),
      },
    ],
  }]);
  const { sessions, skipped } = await parseCursorStateDb(path, OPTIONS);
  equal(skipped, 2);
  const ok1 = sessions.find((s) => s.id === "ok");
  deepEqual(ok1?.records.map((r) => r.role), ["user", "assistant"]);
  equal(ok1?.records[1]?.flags?.truncated, true);
  deepEqual(sessions.find((s) => s.id === "scan")?.records.map((r) => r.text), [
    "found by key range",
  ]);
});

Deno.test("cursor CLI transcript: torn, malformed and wrong-typed lines", async () => {
  const dir = join(await Deno.makeTempDir(), "home-a-api", "agent-transcripts");
  await Deno.mkdir(dir, { recursive: true });
  const path = join(dir, "t1.jsonl");
  await Deno.writeTextFile(
    path,
    [
      "{oops",
      JSON.stringify("string line"),
      JSON.stringify({
        role: "user",
        message: { content: "plain string content" },
      }),
      JSON.stringify({
        role: "assistant",
        message: {
          content: [5, { type: "tool_use", name: "Shell", input: "no" }],
        },
      }),
      JSON.stringify({
        role: "assistant",
        message: { content: [{ type: "text", text: "answer" }] },
      }),
      JSON.stringify({
        role: "assistant",
        message: { content: [{ type: "text", text: "torn" }] },
      }).slice(0, 20),
    ].join("\n"),
  );
  const { sessions, skipped } = await parseCursorTranscript(path, OPTIONS);
  equal(skipped, 2);
  deepEqual(sessions[0]?.records.map((r) => r.text), [
    "plain string content",
    "answer",
  ]);
  equal(sessions[0]?.project, "api");
});

Deno.test("cursor parses the real sample store", {
  ignore: !hasSamples("cursor"),
}, async () => {
  const copy = await copyFile(
    join(SAMPLES, "cursor/cursor-history-workspace/state.vscdb"),
  );
  const { sessions, skipped } = await parseCursorStateDb(copy, OPTIONS);
  equal(skipped, 0);
  // composer.composerData: 26 composers, 41 user and 41 assistant bubbles;
  // the chat panel: 5 tabs with 22 non-empty user and 22 ai bubbles.
  equal(sessions.length, 31);
  equal(total(sessions, "user"), 63);
  equal(total(sessions, "assistant"), 63);
  // One composer prompt kept the open tsconfig.json as an attached file, and
  // five chat-panel prompts their open file or selection (once a prompt).
  // The 26 composers' code blocks were for 94 files (counted once a
  // composer, the same as their `codeBlockData` keys).
  equal(total(sessions, "files"), 101);
  const tools = sessions.flatMap((s) => s.records).filter((r) =>
    r.role === "files"
  ).map((r) => r.tool);
  equal(tools.filter((t) => t === "mention").length, 7);
  equal(tools.filter((t) => t === "codeblock").length, 94);
  equal(
    sessions.find((s) => s.id === "2aa483d1-573c-4039-ae4e-7415e28d2605")
      ?.title,
    "Ionic App Sidebar Customization Guide",
  );
});

Deno.test("cursor global composers: project from the workspace that lists them, times from epoch fields only", async (t) => {
  const user = join(await Deno.makeTempDir(), "Cursor", "User");
  const ITEMS =
    "CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);";
  // A workspace store names the composers of its folder (headers only).
  await writeFixtureDb(
    join(user, "workspaceStorage", "9f3c", "state.vscdb"),
    ITEMS,
    [{
      table: "ItemTable",
      rows: [{
        key: "composer.composerData",
        value: JSON.stringify({
          allComposers: [{
            composerId: "c-ws",
            name: "Tide table cache",
            createdAt: 1766000000000,
          }],
        }),
      }],
    }],
  );
  await Deno.writeTextFile(
    join(user, "workspaceStorage", "9f3c", "workspace.json"),
    JSON.stringify({ folder: "file:///home/dev/tides" }),
  );
  const global = join(user, "globalStorage", "state.vscdb");
  await writeFixtureDb(global, `${KV}${ITEMS}`, [{
    table: "cursorDiskKV",
    rows: [
      {
        key: "composerData:c-ws",
        value: JSON.stringify({
          _v: 10,
          composerId: "c-ws",
          createdAt: 1766000000000,
          fullConversationHeadersOnly: [{ bubbleId: "b1", type: 1 }, {
            bubbleId: "b2",
            type: 2,
          }],
        }),
      },
      {
        key: "bubbleId:c-ws:b1",
        value: JSON.stringify({
          _v: 3,
          type: 1,
          text: "cache the tide tables",
        }),
      },
      {
        key: "bubbleId:c-ws:b2",
        value: JSON.stringify({
          _v: 3,
          type: 2,
          text: "Cached for an hour.",
          // clientStartTime is a monotonic clock, not an epoch.
          timingInfo: {
            clientStartTime: 4745281.3,
            clientRpcSendTime: 1766000005000,
            clientEndTime: 1766000009000,
          },
        }),
      },
      {
        key: "composerData:c-uri",
        value: JSON.stringify({
          composerId: "c-uri",
          fullConversationHeadersOnly: [{ bubbleId: "u1", type: 1 }],
        }),
      },
      {
        key: "bubbleId:c-uri:u1",
        value: JSON.stringify({
          type: 1,
          text: "lint the quay module",
          createdAt: "2026-01-05T08:00:00.000Z",
          workspaceUris: ["file:///home/dev/quay%20works"],
        }),
      },
      {
        key: "composerData:c-none",
        value: JSON.stringify({
          composerId: "c-none",
          conversation: [{
            type: 1,
            text: "orphan ask",
            timingInfo: { clientStartTime: 12.5 },
          }],
        }),
      },
    ],
  }]);
  const { sessions } = await parseCursorStateDb(global, OPTIONS);
  const byId = (id: string) => sessions.find((s) => s.id === id);
  await t.step("workspace composer.composerData names the folder", () => {
    equal(byId("c-ws")?.cwd, "/home/dev/tides");
    equal(byId("c-ws")?.project, "tides");
    equal(byId("c-ws")?.records[1]?.time, 1766000005000);
  });
  await t.step("a user bubble's workspaceUris names the folder", () => {
    equal(byId("c-uri")?.cwd, "/home/dev/quay works");
    equal(
      byId("c-uri")?.records[0]?.time,
      Date.parse("2026-01-05T08:00:00.000Z"),
    );
  });
  await t.step("a monotonic clientStartTime is no time", () => {
    equal(byId("c-none")?.records[0]?.time, undefined);
    ok((byId("c-none")?.started ?? Infinity) > Date.parse("2000-01-01"));
  });
});

Deno.test("cursor edit_file_v2 and MCP results read from the store, bounded", async (t) => {
  const user = join(await Deno.makeTempDir(), "Cursor", "User");
  const global = join(user, "globalStorage", "state.vscdb");
  const ITEMS =
    "CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);";
  const tail = "y".repeat(2 * 1024 * 1024);
  const tool = (id: string, data: Record<string, unknown>) => ({
    key: `bubbleId:c:${id}`,
    value: JSON.stringify({
      _v: 3,
      type: 2,
      bubbleId: id,
      text: "",
      toolFormerData: data,
    }),
  });
  const edit = (file: string, result: Record<string, string>) => ({
    name: "edit_file_v2",
    status: "completed",
    params: JSON.stringify({ relativeWorkspacePath: file }),
    result: JSON.stringify(result),
  });
  await writeFixtureDb(global, KV + ITEMS, [{
    table: "cursorDiskKV",
    rows: [
      {
        key: "composerData:c",
        value: JSON.stringify({
          composerId: "c",
          fullConversationHeadersOnly: ["u", "e1", "e2", "e3", "m", "r"].map((
            bubbleId,
          ) => ({ bubbleId })),
        }),
      },
      {
        key: "bubbleId:c:u",
        value: JSON.stringify({ type: 1, text: "tune the pier lights" }),
      },
      tool(
        "e1",
        edit("/w/big.ts", {
          beforeContentId: "composer.content.b1",
          afterContentId: "composer.content.a1",
        }),
      ),
      tool(
        "e2",
        edit("/w/gone.ts", {
          beforeContentId: "composer.content.b1",
          afterContentId: "composer.content.missing",
        }),
      ),
      tool(
        "e3",
        edit("/w/other.ts", {
          beforeContentId: "bubbleId:c:u",
          afterContentId: "composer.content.a1",
        }),
      ),
      tool("m", {
        name: "mcp_pier_set_lights",
        status: "completed",
        rawArgs: JSON.stringify({ pier: 4 }),
        result: JSON.stringify({
          content: [{ type: "text", text: "PIER_OFFLINE" }],
          isError: true,
        }),
      }),
      tool("r", {
        name: "run_terminal_command_v2",
        status: "completed",
        params: { command: "pier-ctl wait" },
        result: { output: "PIER_TIMEOUT", rejected: false },
        additionalData: { status: "error" },
      }),
      { key: "composer.content.b1", value: `lights = dim\n${tail}` },
      { key: "composer.content.a1", value: `lights = bright\n${tail}` },
    ],
  }]);
  const { sessions } = await parseCursorStateDb(global, OPTIONS);
  const records = sessions[0]?.records ?? [];
  await t.step("the removed lines of rows cut at the cap, flagged", () => {
    const edits = records.filter((r) => r.role === "edit");
    deepEqual(edits.map((r) => r.text), ["/w/big.ts\nlights = dim"]);
    equal(edits[0]?.flags?.truncated, true);
  });
  await t.step(
    "no edit without both rows, nor from a row that is not content",
    () => {
      deepEqual(records.filter((r) => r.role === "files").map((r) => r.text), [
        "/w/big.ts",
        "/w/gone.ts",
        "/w/other.ts",
      ]);
    },
  );
  await t.step("an MCP result's content blocks and isError", () => {
    const out = records.find((r) =>
      r.tool === "mcp_pier_set_lights" &&
      r.role === "tool-output"
    );
    equal(out?.text, "PIER_OFFLINE");
    equal(out?.flags?.isError, true);
  });
  await t.step("a run additionalData says failed, with no exit code", () => {
    const out = records.find((r) => r.text === "PIER_TIMEOUT");
    equal(out?.flags?.isError, true);
  });
});

Deno.test("cursor composer headers: a workspace id names a folder beside the store, nothing else", async () => {
  const user = join(await Deno.makeTempDir(), "Cursor", "User");
  const global = join(user, "globalStorage", "state.vscdb");
  await Deno.mkdir(join(user, "workspaceStorage", "ab12"), { recursive: true });
  await Deno.writeTextFile(
    join(user, "workspaceStorage", "ab12", "workspace.json"),
    JSON.stringify({ folder: "file:///home/dev/jetty" }),
  );
  await Deno.writeTextFile(
    join(user, "workspace.json"),
    JSON.stringify({ folder: "file:///home/dev/outside" }),
  );
  const ITEMS =
    "CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);";
  const composer = (id: string) => [
    {
      key: `composerData:${id}`,
      value: JSON.stringify({
        composerId: id,
        fullConversationHeadersOnly: [{ bubbleId: "u" }],
      }),
    },
    {
      key: `bubbleId:${id}:u`,
      value: JSON.stringify({ type: 1, text: `ask ${id}` }),
    },
  ];
  await writeFixtureDb(global, KV + ITEMS, [{
    table: "cursorDiskKV",
    rows: [...composer("by-id"), ...composer("escape"), ...composer("parent")],
  }, {
    table: "ItemTable",
    rows: [{
      key: "composer.composerHeaders",
      value: JSON.stringify({
        allComposers: [
          { composerId: "by-id", workspaceIdentifier: { id: "ab12" } },
          { composerId: "escape", workspaceIdentifier: { id: ".." } },
          // A header alone can name the parent.
          {
            composerId: "parent",
            subagentInfo: { parentComposerId: "by-id" },
          },
        ],
      }),
    }],
  }]);
  const { sessions } = await parseCursorStateDb(global, OPTIONS);
  const byId = (id: string) => sessions.find((s) => s.id === id);
  equal(byId("by-id")?.cwd, "/home/dev/jetty");
  equal(byId("escape")?.cwd, undefined);
  equal(byId("parent")?.parent, "by-id");
  equal(byId("parent")?.project, "jetty", "the parent's project");
  const { sessions: mains } = await parseCursorStateDb(global, {
    ...OPTIONS,
    includeSubagents: false,
  });
  deepEqual(mains.map((s) => s.id).sort(), ["by-id", "escape"]);
});

Deno.test("cursor text transcripts: results answer calls in order; preamble and thinking left out", async () => {
  const root = await Deno.makeTempDir();
  const dir = join(root, "home-dev-a-b", "agent-transcripts");
  await Deno.mkdir(join(dir, "t1", "subagents"), { recursive: true });
  const path = join(dir, "t1.txt");
  await Deno.writeTextFile(
    path,
    [
      "Exported transcript",
      "user:",
      "run both suites",
      "assistant:",
      "[Thinking] which first?",
      "[Tool call] Shell",
      "  command: make unit",
      "[Tool call] Shell",
      "  command: make e2e",
      "[Tool call] mcp_ci_rerun",
      "  job: 7",
      "[Tool result] Shell",
      "Exit code: 0",
      "[Tool result] Shell",
      "E2E_BROKEN",
      "Exit code: 3",
      "[Tool result] mcp_ci_rerun",
      "queued",
      "assistant:",
      "e2e fails.",
    ].join("\n"),
  );
  const { sessions } = await parseCursorTextTranscript(path, OPTIONS);
  const s = sessions[0];
  deepEqual(
    s?.records.map((r) => [r.role, r.text, r.exitCode ?? null]),
    [
      ["user", "run both suites", null],
      ["command", "make unit", 0],
      ["command", "make e2e", 3],
      ["command", 'mcp_ci_rerun {"job":"7"}', null],
      ["tool-output", "Exit code: 0", null],
      ["tool-output", "E2E_BROKEN\nExit code: 3", null],
      ["tool-output", "queued", null],
      ["assistant", "e2e fails.", null],
    ],
  );
  deepEqual(s?.records.map((r) => r.flags?.isError ?? false), [
    false,
    false,
    false,
    false,
    false,
    true,
    false,
    false,
  ]);
  equal(s?.project, "b", "no .workspace-trusted: the folder name's last part");
  const sub = join(dir, "t1", "subagents", "s1.txt");
  await Deno.writeTextFile(sub, "user:\nlook\n");
  equal(
    (await parseCursorTextTranscript(sub, OPTIONS)).sessions[0]?.parent,
    "t1",
  );
  deepEqual(
    (await parseCursorTextTranscript(sub, {
      ...OPTIONS,
      includeSubagents: false,
    }))
      .sessions,
    [],
  );
});

Deno.test("cursor .workspace-trusted: read only as a small regular file", async (t) => {
  const root = await Deno.makeTempDir();
  const transcript = async (slug: string, trusted?: string) => {
    const dir = join(root, slug, "agent-transcripts");
    await Deno.mkdir(dir, { recursive: true });
    if (trusted !== undefined) {
      await Deno.writeTextFile(join(root, slug, ".workspace-trusted"), trusted);
    }
    const path = join(dir, "t.jsonl");
    await Deno.writeTextFile(
      path,
      JSON.stringify({ role: "user", message: { content: "hi" } }) + "\n",
    );
    return (await parseCursorTranscript(path, OPTIONS)).sessions[0];
  };
  await t.step("its workspacePath", async () => {
    const s = await transcript(
      "home-dev-my-site-v2",
      JSON.stringify({ workspacePath: "/home/dev/my.site-v2" }),
    );
    equal(s?.cwd, "/home/dev/my.site-v2");
    equal(s?.project, "my.site-v2");
  });
  await t.step("broken: the folder name", async () => {
    equal((await transcript("home-dev-x-y", "{torn"))?.project, "y");
  });
  await t.step("a link is not followed", async () => {
    const target = join(root, "elsewhere.json");
    await Deno.writeTextFile(
      target,
      JSON.stringify({ workspacePath: "/somewhere/else" }),
    );
    await Deno.mkdir(join(root, "home-dev-z", "agent-transcripts"), {
      recursive: true,
    });
    await Deno.symlink(target, join(root, "home-dev-z", ".workspace-trusted"));
    const s = await transcript("home-dev-z");
    equal(s?.cwd, undefined);
    equal(s?.project, "z");
  });
});

Deno.test("cursor IDE twins: the transcript gives way only to a composer the IDE store holds", async (t) => {
  const home = await Deno.makeTempDir();
  const source = linuxHome(home);
  const options = { includeSubagents: true, source };
  const global = join(
    home,
    ".config",
    "Cursor",
    "User",
    "globalStorage",
    "state.vscdb",
  );
  const dir = join(
    home,
    ".cursor",
    "projects",
    "home-dev-a",
    "agent-transcripts",
  );
  const transcript = async (id: string) => {
    await Deno.mkdir(join(dir, id), { recursive: true });
    const path = join(dir, id, `${id}.jsonl`);
    await Deno.writeTextFile(
      path,
      JSON.stringify({ role: "user", message: { content: `ask ${id}` } }) +
        "\n",
    );
    return (await parseCursorTranscript(path, options)).sessions.length;
  };
  await writeFixtureDb(global, KV, [{
    table: "cursorDiskKV",
    rows: [
      {
        key: "composerData:both",
        value: JSON.stringify({ composerId: "both" }),
      },
      {
        key: "bubbleId:both:u",
        value: JSON.stringify({ type: 1, text: "ask" }),
      },
      {
        key: "composerData:empty",
        value: JSON.stringify({ composerId: "empty" }),
      },
      {
        key: "bubbleId:bothx:u",
        value: JSON.stringify({ type: 1, text: "ask" }),
      },
    ],
  }]);
  await t.step(
    "composer and bubbles in the store: the store's copy",
    async () => {
      equal(await transcript("both"), 0);
    },
  );
  await t.step(
    "a composer without bubbles, or none: the transcript",
    async () => {
      equal(await transcript("empty"), 1);
      equal(await transcript("bothx"), 1);
    },
  );
  await t.step("an unreadable store: the transcript", async () => {
    await Deno.writeFile(global, crypto.getRandomValues(new Uint8Array(7000)));
    equal(await transcript("both"), 1);
  });
});

Deno.test("cursor flags a tool call the person rejected or cancelled as failed", async () => {
  const path = join(await Deno.makeTempDir(), "state.vscdb");
  const tool = (id: string, data: Record<string, unknown>) => ({
    key: `bubbleId:c:${id}`,
    value: JSON.stringify({
      type: 2,
      bubbleId: id,
      text: "",
      toolFormerData: data,
    }),
  });
  await writeFixtureDb(path, KV, [{
    table: "cursorDiskKV",
    rows: [
      {
        key: "composerData:c",
        value: JSON.stringify({
          composerId: "c",
          fullConversationHeadersOnly: ["u", "t1", "t2", "t3", "t4"].map((
            bubbleId,
          ) => ({ bubbleId })),
        }),
      },
      {
        key: "bubbleId:c:u",
        value: JSON.stringify({ type: 1, text: "drain the lock" }),
      },
      // Rejected at the approval prompt: Cursor writes `rejected` in the result.
      tool("t1", {
        name: "run_terminal_cmd",
        status: "completed",
        rawArgs: JSON.stringify({ command: "lockctl drain --all" }),
        result: JSON.stringify({ output: "", rejected: true }),
        userDecision: "rejected",
      }),
      // Stopped while it ran.
      tool("t2", {
        name: "run_terminal_command_v2",
        status: "cancelled",
        params: JSON.stringify({ command: "lockctl wait" }),
      }),
      // An edit turned down in review.
      tool("t3", {
        name: "search_replace",
        status: "completed",
        rawArgs: JSON.stringify({
          file_path: "/w/lock.ts",
          old_string: "OPEN",
        }),
        userDecision: "rejected",
      }),
      // A run that went through stays a success.
      tool("t4", {
        name: "run_terminal_cmd",
        status: "completed",
        rawArgs: JSON.stringify({ command: "lockctl status" }),
        result: JSON.stringify({
          output: "LOCK_IDLE",
          rejected: false,
          exitCodeV2: 0,
        }),
        userDecision: "accepted",
      }),
    ],
  }]);
  const { sessions } = await parseCursorStateDb(path, OPTIONS);
  const outputs = (sessions[0]?.records ?? []).filter((r) =>
    r.role === "tool-output"
  );
  deepEqual(outputs.map((r) => [r.tool, r.text, r.flags?.isError === true]), [
    ["run_terminal_cmd", "(rejected by the user)", true],
    ["run_terminal_command_v2", "(cancelled by the user)", true],
    ["search_replace", "(rejected by the user)", true],
    ["run_terminal_cmd", "LOCK_IDLE", false],
  ]);
});

Deno.test("cursor records the files a person attached to a prompt as mentions", async () => {
  const path = join(await Deno.makeTempDir(), "state.vscdb");
  const uri = (p: string) => ({
    $mid: 1,
    fsPath: p,
    external: `file://${p}`,
    path: p,
    scheme: "file",
  });
  await writeFixtureDb(path, KV, [{
    table: "cursorDiskKV",
    rows: [
      {
        key: "composerData:m",
        value: JSON.stringify({
          composerId: "m",
          fullConversationHeadersOnly: [{ bubbleId: "u" }, { bubbleId: "a" }],
        }),
      },
      {
        key: "bubbleId:m:u",
        value: JSON.stringify({
          type: 1,
          text: "why does @tide.ts drift",
          context: {
            fileSelections: [
              { uri: uri("/w/harbour/src/tide.ts"), isCurrentFile: false },
              { uri: uri("/w/harbour/src/tide.ts"), isCurrentFile: true },
              { uri: "file:///w/harbour/src/moon%20phase.ts" },
              { uri: { scheme: "file" } },
              42,
              null,
            ],
            selections: "not a list",
          },
        }),
      },
      {
        key: "bubbleId:m:a",
        value: JSON.stringify({
          type: 2,
          text: "The offset is applied twice.",
        }),
      },
    ],
  }]);
  const { sessions, skipped } = await parseCursorStateDb(path, OPTIONS);
  equal(skipped, 0);
  deepEqual(
    sessions[0]?.records.map((r) => [r.role, r.tool, r.text]),
    [
      ["user", undefined, "why does @tide.ts drift"],
      ["files", "mention", "/w/harbour/src/tide.ts"],
      ["files", "mention", "/w/harbour/src/moon phase.ts"],
      ["assistant", undefined, "The offset is applied twice."],
    ],
  );
});

Deno.test("cursor records the folders and code selections a person attached to a prompt as mentions", async () => {
  const path = join(await Deno.makeTempDir(), "state.vscdb");
  await writeFixtureDb(path, KV, [{
    table: "cursorDiskKV",
    rows: [
      {
        key: "composerData:f",
        value: JSON.stringify({
          composerId: "f",
          fullConversationHeadersOnly: [{ bubbleId: "u" }],
        }),
      },
      {
        key: "bubbleId:f:u",
        value: JSON.stringify({
          type: 1,
          text: "what in @src/tides reads this selection",
          context: {
            folderSelections: [
              { relativePath: "src/tides", addedWithoutMention: false },
              { relativePath: "src/tides" },
              { relativePath: 7 },
            ],
            selections: [{
              uri: {
                $mid: 1,
                fsPath: "/w/harbour/src/moon.ts",
                path: "/w/harbour/src/moon.ts",
                scheme: "file",
              },
              range: {
                selectionStartLineNumber: 3,
                positionLineNumber: 9,
              },
              rawText: "const phase = lunarPhase(now);",
            }, { rawText: "no uri" }],
          },
        }),
      },
    ],
  }]);
  const { sessions, skipped } = await parseCursorStateDb(path, OPTIONS);
  equal(skipped, 0);
  deepEqual(
    sessions[0]?.records.map((r) => [r.role, r.tool, r.text]),
    [
      ["user", undefined, "what in @src/tides reads this selection"],
      ["files", "mention", "src/tides"],
      ["files", "mention", "/w/harbour/src/moon.ts"],
    ],
  );
});

Deno.test("cursor records the files a composer's code blocks were for, each once, and chat-panel attachments", async () => {
  const path = join(await Deno.makeTempDir(), "state.vscdb");
  const ITEMS =
    "CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);";
  const uri = (fsPath: string, external: string) => ({
    $mid: 1,
    fsPath,
    external,
    path: `/${fsPath.replaceAll("\\", "/")}`,
    scheme: "file",
  });
  const quay = uri(
    "c:\\dev\\ferry\\src\\quay.ts",
    "file:///c%3A/dev/ferry/src/quay.ts",
  );
  const berth = uri(
    "c:\\dev\\ferry\\src\\berth.ts",
    "file:///c%3A/dev/ferry/src/berth.ts",
  );
  await writeFixtureDb(path, ITEMS, [{
    table: "ItemTable",
    rows: [
      {
        key: "composer.composerData",
        value: JSON.stringify({
          allComposers: [{
            composerId: "k",
            conversation: [
              {
                type: 1,
                bubbleId: "u1",
                text: "split the quay loader",
                // Code the person pasted is not a file the composer wrote.
                codeBlocks: [{ uri: uri("c:\\dev\\pasted.ts", "") }],
              },
              {
                type: 2,
                bubbleId: "a1",
                text: "Here is the split.",
                codeBlocks: [
                  { uri: quay, version: 0, codeBlockIdx: 0 },
                  { uri: berth, version: 0, codeBlockIdx: 1 },
                  { version: 0, codeBlockIdx: 2 },
                  "not a block",
                ],
              },
              {
                type: 2,
                bubbleId: "a2",
                text: "And again, with the fix.",
                codeBlocks: [{ uri: quay, version: 1, codeBlockIdx: 0 }],
              },
            ],
            codeBlockData: {
              "file:///c%3A/dev/ferry/src/quay.ts": [{ uri: quay }],
              "file:///c%3A/dev/ferry/src/berth.ts": [],
              "file:///c%3A/dev/ferry/src/tide%20gate.ts": [{ version: 0 }],
              "untitled:Untitled-1": [],
            },
          }],
        }),
      },
      {
        key: "workbench.panel.aichat.view.aichat.chatdata",
        value: JSON.stringify({
          tabs: [{
            tabId: "t",
            chatTitle: "Quay loader",
            bubbles: [
              {
                type: "user",
                id: "b1",
                text: "what calls this",
                fileSelections: [{ uri: quay, isCurrentFile: true }],
                selections: [{
                  uri: berth,
                  range: { selectionStartLineNumber: 2, positionLineNumber: 4 },
                  text: "export function berth() {}",
                }],
              },
              {
                type: "ai",
                id: "b2",
                text: "Only the loader.",
                fileSelections: [{ uri: quay }],
              },
            ],
          }],
        }),
      },
    ],
  }]);
  const { sessions, skipped } = await parseCursorStateDb(path, OPTIONS);
  equal(skipped, 0);
  const files = (id: string) =>
    sessions.find((s) => s.id === id)?.records.filter((r) => r.role === "files")
      .map((r) => [r.tool, r.text, r.locator.recordId]);
  deepEqual(files("k"), [
    ["codeblock", "c:\\dev\\ferry\\src\\quay.ts", "k:a1"],
    ["codeblock", "c:\\dev\\ferry\\src\\berth.ts", "k:a1"],
    ["codeblock", "c:/dev/ferry/src/tide gate.ts", "k:codeBlockData"],
  ]);
  deepEqual(files("t"), [
    ["mention", "c:\\dev\\ferry\\src\\quay.ts", "t:b1"],
    ["mention", "c:\\dev\\ferry\\src\\berth.ts", "t:b1"],
  ]);
});

/** Protobuf length-delimited field `field` holding `payload`. */
function protoBytes(field: number, payload: Uint8Array): Uint8Array {
  const varint = (n: number) => {
    const out: number[] = [];
    while (n >= 0x80) {
      out.push((n & 0x7f) | 0x80);
      n >>>= 7;
    }
    out.push(n);
    return out;
  };
  return new Uint8Array([
    ...varint((field << 3) | 2),
    ...varint(payload.length),
    ...payload,
  ]);
}

/** Concatenated byte arrays. */
function bytesOf(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** What the CLI stores for one chat: messages (JSON) or raw blobs, and the root's other fields. */
interface ChatFixture {
  /** Message blobs, listed by the root's field 1 in this order. */
  messages?: unknown[];
  /** The root's other fields, after field 1. */
  rootExtra?: Uint8Array[];
  /** More blobs (turn graph nodes). */
  blobs?: Uint8Array[];
  /** The metadata JSON (hex-encoded into row `0`), merged over the defaults; null for no row. */
  meta?: Record<string, unknown> | null;
  /** A `meta.json` beside the store. */
  sidecar?: Record<string, unknown>;
}

const TEXT = new TextEncoder();

async function blobId(data: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(
    await crypto.subtle.digest("SHA-256", new Uint8Array(data)),
  );
}

function hexOf(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Writes a `store.db` shaped as cursor-agent writes it (`blobs` keyed by
 * the sha256 of their bytes, `meta` row `0` hex-encoded JSON naming the
 * root) at `dir/store.db`; blobs are inserted in reverse so their row order
 * is not the conversation's.
 */
async function writeChatStore(dir: string, fixture: ChatFixture) {
  const blobs: Uint8Array[] = [...fixture.blobs ?? []];
  const ids: Uint8Array[] = [];
  for (const message of fixture.messages ?? []) {
    const data = TEXT.encode(JSON.stringify(message));
    blobs.push(data);
    ids.push(await blobId(data));
  }
  const root = bytesOf(
    ...ids.map((id) => protoBytes(1, id)),
    ...fixture.rootExtra ?? [],
  );
  blobs.push(root);
  // Content-addressed: a message said twice is one blob.
  const byId = new Map<string, Uint8Array>();
  for (const data of blobs) byId.set(hexOf(await blobId(data)), data);
  const rows = [...byId].map(([id, data]) => ({ id, data }));
  const meta = fixture.meta === null ? [] : [{
    key: "0",
    value: hexOf(TEXT.encode(JSON.stringify({
      agentId: dir.split("/").at(-1),
      latestRootBlobId: hexOf(await blobId(root)),
      name: "New Agent",
      mode: "default",
      createdAt: Date.parse("2026-09-02T08:00:00Z"),
      ...fixture.meta,
    }))),
  }];
  const path = join(dir, "store.db");
  await writeFixtureDb(
    path,
    "CREATE TABLE blobs (id TEXT PRIMARY KEY, data BLOB); CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);",
    [
      { table: "blobs", rows: rows.reverse() },
      { table: "meta", rows: meta },
    ],
  );
  if (fixture.sidecar) {
    await Deno.writeTextFile(
      join(dir, "meta.json"),
      JSON.stringify(fixture.sidecar),
    );
  }
  return path;
}

/** A cursor-agent conversation as its store holds it. */
const CHAT = [
  {
    role: "system",
    content: "You are an AI coding assistant, powered by Composer.",
  },
  {
    role: "user",
    content:
      "<user_info>\nOS Version: linux 6.8\nShell: bash\nWorkspace Path: /home/dev/ferry app\n</user_info>",
  },
  {
    role: "user",
    content: [{
      type: "text",
      text:
        "<timestamp>Wednesday, Sep 2, 2026</timestamp>\n<user_query>\nWhy does the timetable test fail?\n</user_query>",
    }],
  },
  {
    id: "1",
    role: "assistant",
    content: [
      {
        type: "reasoning",
        text: "Probably the midnight wrap.",
        signature: "c2ln",
      },
      { type: "text", text: "Running the tests first." },
      {
        type: "tool-call",
        toolCallId: "toolu_1",
        toolName: "Shell",
        args: { command: "deno test timetable_test.ts" },
      },
    ],
  },
  {
    role: "tool",
    id: "toolu_1",
    content: [{
      type: "tool-result",
      toolCallId: "toolu_1",
      toolName: "Shell",
      result: "FAILED: 23:59 + 2 min\nExit code: 1",
    }],
  },
  {
    id: "1",
    role: "assistant",
    content: [{
      type: "tool-call",
      toolCallId: "toolu_2",
      toolName: "StrReplace",
      args: {
        path: "/home/dev/ferry app/src/timetable.ts",
        old_string: "return minutes + delta;",
        new_string: "return (minutes + delta) % 1440;",
      },
    }],
  },
  {
    role: "tool",
    id: "toolu_2",
    content: [{
      type: "tool-result",
      toolCallId: "toolu_2",
      toolName: "StrReplace",
      result: [{ type: "text", text: "String not found in file" }],
      isError: true,
    }],
  },
  {
    id: "1",
    role: "assistant",
    content: [{ type: "text", text: "Fixed the midnight wrap." }],
  },
  { role: "user", content: "<user_query>thanks</user_query>" },
  {
    id: "1",
    role: "assistant",
    content: [{ type: "text", text: "Fixed the midnight wrap." }],
  },
];

Deno.test("cursor chat store: messages in the root's order, tools and their results", async () => {
  const dir = join(await Deno.makeTempDir(), "chats", "0f".repeat(16), "c1a2");
  const path = await writeChatStore(dir, { messages: CHAT });
  const { sessions, skipped } = await parseCursorChatStore(path, OPTIONS);
  equal(skipped, 0);
  equal(sessions.length, 1);
  const chat = sessions[0];
  ok(chat);
  equal(chat.id, "c1a2");
  deepEqual(
    chat.records.map((r) => [r.role, r.text]),
    [
      ["user", "Why does the timetable test fail?"],
      ["assistant", "Running the tests first."],
      ["command", "deno test timetable_test.ts"],
      ["tool-output", "FAILED: 23:59 + 2 min\nExit code: 1"],
      ["files", "/home/dev/ferry app/src/timetable.ts"],
      ["edit", "/home/dev/ferry app/src/timetable.ts\nreturn minutes + delta;"],
      ["tool-output", "String not found in file"],
      ["assistant", "Fixed the midnight wrap."],
      ["user", "thanks"],
      ["assistant", "Fixed the midnight wrap."],
    ],
    "system prompt, <user_info> preamble and thinking left out; a message repeated later is read again",
  );
  equal(chat.records[2]?.exitCode, 1);
  deepEqual(
    chat.records.filter((r) => r.role === "tool-output").map((r) => [
      r.tool,
      r.flags?.isError === true,
    ]),
    [["Shell", true], ["StrReplace", true]],
  );
  equal(
    chat.title,
    "Why does the timetable test fail?",
    "New Agent is no title",
  );
  equal(chat.cwd, "/home/dev/ferry app", "from the preamble's Workspace Path");
  equal(chat.project, "ferry app");
  equal(chat.started, Date.parse("2026-09-02T08:00:00Z"));
  ok((chat.updated ?? 0) >= (chat.started ?? 0));
  ok(chat.records.every((r) => r.time === undefined), "no message has a time");
});

Deno.test("cursor chat store: tool calls and results in their other shapes", async () => {
  const path = await writeChatStore(join(await Deno.makeTempDir(), "s1"), {
    messages: [
      { role: "user", content: "<user_query>file the bug</user_query>" },
      {
        role: "assistant",
        content: [{
          type: "tool-call",
          toolCallId: "c1",
          toolName: "mcp_linear_create_issue",
          input: { title: "Berth double-booked" },
        }],
      },
      {
        role: "tool",
        content: [{
          type: "tool-result",
          toolCallId: "c1",
          toolName: "mcp_linear_create_issue",
          output: { type: "error-text", value: "Linear: unauthorized" },
        }],
      },
      {
        role: "assistant",
        content: "",
        tool_calls: [{
          id: "c2",
          function: { name: "Shell", arguments: '{"command":"git status"}' },
        }],
      },
      { role: "tool", tool_call_id: "c2", name: "Shell", content: "clean" },
      {
        role: "tool",
        content: [{
          type: "tool-result",
          toolCallId: "c3",
          toolName: "Read",
          result: { lines: 0 },
        }],
        providerOptions: {
          cursor: { highLevelToolCallResult: { isError: true } },
        },
      },
    ],
  });
  const [chat] = (await parseCursorChatStore(path, OPTIONS)).sessions;
  deepEqual(
    chat?.records.map((r) => [r.role, r.text, r.flags?.isError === true]),
    [
      ["user", "file the bug", false],
      [
        "command",
        'mcp_linear_create_issue {"title":"Berth double-booked"}',
        false,
      ],
      ["tool-output", "Linear: unauthorized", true],
      ["command", "git status", false],
      ["tool-output", "clean", false],
      ["tool-output", '{"lines":0}', true],
    ],
  );
});

Deno.test("cursor chat store: project, title, times and lineage from the metadata", async (t) => {
  const base = await Deno.makeTempDir();
  const uri = protoBytes(9, TEXT.encode("file:///home/dev/quay%20ops"));
  const question = { role: "user", content: "<user_query>hi</user_query>" };
  await t.step("meta.json beside the store wins", async () => {
    const path = await writeChatStore(join(base, "a"), {
      messages: [question],
      rootExtra: [uri],
      meta: { name: "Quay rota" },
      sidecar: {
        schemaVersion: 1,
        createdAtMs: Date.parse("2026-09-01T00:00:00Z"),
        updatedAtMs: Date.parse("2026-09-03T00:00:00Z"),
        hasConversation: true,
        cwd: "/srv/quay",
        title: "Quay rota, weekends",
      },
    });
    const [chat] = (await parseCursorChatStore(path, OPTIONS)).sessions;
    equal(chat?.cwd, "/srv/quay");
    equal(chat?.title, "Quay rota, weekends");
    equal(chat?.started, Date.parse("2026-09-02T08:00:00Z"), "createdAt");
    equal(chat?.updated, Date.parse("2026-09-03T00:00:00Z"), "updatedAtMs");
  });
  await t.step(
    "else the root's file:// workspace and the store's name",
    async () => {
      const path = await writeChatStore(join(base, "b"), {
        messages: [question],
        rootExtra: [uri],
        meta: { name: "Quay rota" },
      });
      const [chat] = (await parseCursorChatStore(path, OPTIONS)).sessions;
      equal(chat?.cwd, "/home/dev/quay ops");
      equal(chat?.title, "Quay rota");
    },
  );
  await t.step("nothing names it: no project", async () => {
    const path = await writeChatStore(join(base, "c"), {
      messages: [question],
    });
    const [chat] = (await parseCursorChatStore(path, OPTIONS)).sessions;
    equal(chat?.cwd, undefined);
    equal(chat?.project, "");
  });
  await t.step("a sub-agent's store", async () => {
    const path = await writeChatStore(join(base, "d"), {
      messages: [question],
      meta: {
        subagentInfo: {
          parentAgentId: "p1",
          rootParentAgentId: "p1",
          toolCallId: "toolu_9",
          typeName: "explore",
        },
      },
    });
    const [chat] = (await parseCursorChatStore(path, OPTIONS)).sessions;
    equal(chat?.parent, "p1");
    equal(chat?.lineage, "subagent");
    ok(chat?.records.every((r) => r.flags?.subagent));
    deepEqual(
      (await parseCursorChatStore(path, {
        ...OPTIONS,
        includeSubagents: false,
      }))
        .sessions,
      [],
    );
  });
});

Deno.test("cursor chat store: a store holding only the turn graph gives its text", async () => {
  const user = protoBytes(1, TEXT.encode("Tidy the berth list"));
  const step = protoBytes(
    1,
    protoBytes(1, TEXT.encode("Sorted by berth number.")),
  );
  const turn = protoBytes(
    1,
    bytesOf(
      protoBytes(1, await blobId(user)),
      protoBytes(2, await blobId(step)),
    ),
  );
  const path = await writeChatStore(join(await Deno.makeTempDir(), "t1"), {
    blobs: [user, step, turn],
    rootExtra: [protoBytes(8, await blobId(turn))],
  });
  const [chat] = (await parseCursorChatStore(path, OPTIONS)).sessions;
  deepEqual(chat?.records.map((r) => [r.role, r.text]), [
    ["user", "Tidy the berth list"],
    ["assistant", "Sorted by berth number."],
  ]);
});

Deno.test("cursor chat store: empty, damaged and foreign stores", async (t) => {
  const base = await Deno.makeTempDir();
  await t.step("no chat tables: SRC-E002 naming the file", async () => {
    const path = join(base, "x", "store.db");
    await writeFixtureDb(path, "CREATE TABLE blobs (id TEXT, data BLOB);", []);
    await rejects(
      parseCursorChatStore(path, OPTIONS),
      (e: unknown) =>
        e instanceof DejaError && e.code === "SRC-E002" &&
        e.message.includes(path) && e.message.includes('table "meta"'),
    );
  });
  await t.step("not a database: an error naming the file", async () => {
    const path = join(base, "y", "store.db");
    await Deno.mkdir(join(base, "y"));
    await Deno.writeFile(path, crypto.getRandomValues(new Uint8Array(7000)));
    await rejects(
      parseCursorChatStore(path, OPTIONS),
      (e: unknown) => e instanceof DejaError && e.message.includes(path),
    );
  });
  await t.step("a chat not started: nothing, nothing skipped", async () => {
    for (
      const [name, meta] of [["m1", null], ["m2", {
        latestRootBlobId: "",
      }]] as const
    ) {
      const path = await writeChatStore(join(base, name), { meta });
      deepEqual(await parseCursorChatStore(path, OPTIONS), {
        sessions: [],
        skipped: 0,
      });
    }
  });
  await t.step(
    "an unreadable metadata row or a missing root: skipped",
    async () => {
      const bad = join(base, "m3", "store.db");
      await writeFixtureDb(
        bad,
        "CREATE TABLE blobs (id TEXT PRIMARY KEY, data BLOB); CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);",
        [{ table: "meta", rows: [{ key: "0", value: "zz-not-hex" }] }],
      );
      deepEqual(await parseCursorChatStore(bad, OPTIONS), {
        sessions: [],
        skipped: 1,
      });
      const gone = await writeChatStore(join(base, "m4"), {
        meta: { latestRootBlobId: "ab".repeat(32) },
      });
      deepEqual(await parseCursorChatStore(gone, OPTIONS), {
        sessions: [],
        skipped: 1,
      });
    },
  );
  await t.step(
    "a message blob that is missing is skipped, the rest read",
    async () => {
      const path = await writeChatStore(join(base, "m5"), {
        messages: [{
          role: "user",
          content: "<user_query>still here</user_query>",
        }],
        rootExtra: [protoBytes(1, new Uint8Array(32).fill(7))],
      });
      const { sessions, skipped } = await parseCursorChatStore(path, OPTIONS);
      equal(skipped, 1);
      equal(sessions[0]?.records[0]?.text, "still here");
    },
  );
  await t.step("a tree node that lists itself ends", async () => {
    const path = await writeChatStore(join(base, "m6"), {
      messages: [{ role: "user", content: "<user_query>once</user_query>" }],
      rootExtra: [protoBytes(2, new Uint8Array(32).fill(1))],
    });
    const loop = bytesOf(protoBytes(2, new Uint8Array(32).fill(1)));
    const db = join(base, "m6", "store.db");
    const { openDatabase } = await import("../core/_sqlite.ts");
    const handle = openDatabase(db);
    handle.prepare("INSERT INTO blobs (id, data) VALUES (?, ?)").run(
      "01".repeat(32),
      loop,
    );
    handle.close();
    const { sessions } = await parseCursorChatStore(path, OPTIONS);
    equal(sessions[0]?.records.length, 1);
  });
});

Deno.test("cursor chat stores: discovered under chats/ and acp-sessions/, their transcripts give way", async () => {
  const home = await Deno.makeTempDir();
  const source = linuxHome(home);
  const root = join(home, ".cursor");
  await writeChatStore(join(root, "chats", "a".repeat(32), "chat-1"), {
    messages: [{
      role: "user",
      content: "<user_query>from the store</user_query>",
    }],
  });
  await writeChatStore(join(root, "acp-sessions", "chat-2"), {
    messages: [{ role: "user", content: "<user_query>over ACP</user_query>" }],
  });
  // Started but never written to: the CLI leaves meta.json alone.
  await Deno.mkdir(join(root, "acp-sessions", "chat-3"));
  await Deno.writeTextFile(
    join(root, "acp-sessions", "chat-3", "meta.json"),
    '{"schemaVersion":1,"cwd":"/w"}',
  );
  const transcripts = join(root, "projects", "home-dev-w", "agent-transcripts");
  for (const id of ["chat-1", "chat-4"]) {
    await Deno.mkdir(join(transcripts, id), { recursive: true });
    await Deno.writeTextFile(
      join(transcripts, id, `${id}.jsonl`),
      JSON.stringify({
        role: "user",
        message: {
          content: [{ type: "text", text: `from the transcript ${id}` }],
        },
      }) + "\n",
    );
  }
  const { files, sessions } = await parseHome(cursor, source);
  equal(files.filter((f) => f.endsWith("store.db")).length, 2);
  deepEqual(
    sessions.map((s) => [s.id, s.records[0]?.text]).sort(),
    [
      ["chat-1", "from the store"],
      ["chat-2", "over ACP"],
      ["chat-4", "from the transcript chat-4"],
    ],
  );
});

/** The real chat stores among the samples (none yet: the test skips). */
function sampleChatStores(): string[] {
  try {
    return [...Deno.readDirSync(join(SAMPLES, "cursor"))].flatMap((entry) => {
      const dir = join(SAMPLES, "cursor", entry.name);
      try {
        return Deno.statSync(join(dir, "store.db")).isFile ? [entry.name] : [];
      } catch {
        return [];
      }
    });
  } catch {
    return [];
  }
}

Deno.test("cursor reads the real chat store samples", {
  ignore: sampleChatStores().length === 0,
}, async () => {
  for (const name of sampleChatStores()) {
    const copy = await copyTree(join(SAMPLES, "cursor", name), ["store.db"]);
    const { sessions } = await parseCursorChatStore(
      join(copy, "store.db"),
      OPTIONS,
    );
    ok(sessions.length <= 1);
    ok(sessions.every((s) => s.records.some((r) => r.role === "user")), name);
  }
});
