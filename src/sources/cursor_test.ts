import { deepEqual, equal, ok, rejects } from "node:assert/strict";
import { join } from "node:path";
import { DejaError } from "../core/errors.ts";
import { cursor, parseCursorStateDb, parseCursorTranscript } from "./cursor.ts";
import {
  copyFile,
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
  equal(files.length, 4);
  equal(skipped, 0);
  equal(
    sessions.length,
    6,
    "two global composers, a workspace composer and tab, two CLI transcripts",
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
    command: 1,
  });
  equal(cli.project, "harbor");
  const sub = sessions.find((s) => s.lineage === "subagent");
  equal(sub?.parent, cli.id);
  ok(sub?.records.every((r) => r.flags?.subagent));
});

Deno.test("cursor leaves CLI sub-agent transcripts out when asked to", async () => {
  const { sessions } = await parseHome(cursor, linuxHome(FIXTURE), false);
  equal(sessions.length, 5);
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
      (e: unknown) => e instanceof DejaError && e.code === "SRC-E002",
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
