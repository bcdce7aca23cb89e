/**
 * Writes fixtures/cursor: a Linux HOME with Cursor's global `state.vscdb`
 * (cursorDiskKV composers: one with bubble rows and tool calls, one with an
 * inline conversation, one empty), a workspace `state.vscdb` in the older
 * ItemTable layout (composer list and a chat-panel tab) with its
 * `workspace.json`, and cursor-agent CLI transcripts (a main one and a
 * sub-agent). Run: `deno run -A tests/fixtures_gen/cursor.ts`.
 *
 * @module
 */
import { writeFixtureDb } from "../../src/sources/_store_test_kit.ts";

const HOME = new URL("../../fixtures/cursor/", import.meta.url).pathname;
const USER = `${HOME}.config/Cursor/User/`;
const SCHEMA = `
CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
`;
const ITEMS_ONLY =
  "CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);";
const PROJECT = "/home/dev/code/harbor";
const T0 = 1773741600000; // 2026-03-17T10:00:00Z

const A = "c0a1b2c3-d4e5-4f60-8172-93a4b5c6d7e8";
const B = "d1e2f3a4-b5c6-4d7e-8f90-a1b2c3d4e5f6";
const EMPTY = "e9f8d7c6-b5a4-4392-8170-6f5e4d3c2b1a";

const bubblesA = [
  {
    _v: 3,
    type: 1,
    bubbleId: "b1",
    text:
      "<user_query>Ships dock twice when the berth API retries. Make the booking idempotent.</user_query>",
    createdAt: new Date(T0).toISOString(),
    workspaceProjectDir: PROJECT,
  },
  {
    _v: 3,
    type: 2,
    bubbleId: "b2",
    text: "I'll check how bookings are stored.",
    createdAt: new Date(T0 + 4000).toISOString(),
    thinking: { text: "Probably no unique key on (ship, slot)." },
  },
  {
    _v: 3,
    type: 2,
    bubbleId: "b3",
    text: "",
    createdAt: new Date(T0 + 6000).toISOString(),
    toolFormerData: {
      tool: 5,
      name: "read_file",
      status: "completed",
      rawArgs: JSON.stringify({ target_file: "src/berth/book.ts" }),
      result: JSON.stringify({
        contents:
          "export async function book(ship, slot) { await db.insert(ship, slot); }",
      }),
    },
  },
  {
    _v: 3,
    type: 2,
    bubbleId: "b4",
    text: "",
    createdAt: new Date(T0 + 9000).toISOString(),
    toolFormerData: {
      tool: 38,
      name: "search_replace",
      status: "completed",
      params: JSON.stringify({
        file_path: "src/berth/book.ts",
        old_string: "await db.insert(ship, slot);",
        new_string: "await db.upsert(ship, slot);",
      }),
      result: JSON.stringify({}),
    },
  },
  {
    _v: 3,
    type: 2,
    bubbleId: "b5",
    text: "",
    createdAt: new Date(T0 + 12000).toISOString(),
    toolFormerData: {
      tool: 15,
      name: "run_terminal_cmd",
      status: "completed",
      rawArgs: JSON.stringify({
        command: "npm test -- berth",
        is_background: false,
      }),
      result: JSON.stringify({
        output: "1 failing: upsert is not a function",
        exitCode: 1,
      }),
    },
  },
  {
    _v: 3,
    type: 2,
    bubbleId: "b6",
    text:
      "The db client has no upsert; I used insertOrIgnore instead and the test passes.",
    createdAt: new Date(T0 + 20000).toISOString(),
  },
];

const composerA = {
  _v: 10,
  composerId: A,
  name: "Idempotent berth booking",
  createdAt: T0,
  lastUpdatedAt: T0 + 20000,
  fullConversationHeadersOnly: bubblesA.map((b) => ({
    bubbleId: b.bubbleId,
    type: b.type,
  })),
  status: "completed",
};

const composerB = {
  _v: 2,
  composerId: B,
  createdAt: T0 - 3_600_000,
  lastUpdatedAt: T0 - 3_500_000,
  conversation: [
    {
      type: 1,
      bubbleId: "x1",
      text: "What does the tide offset in config.yaml do?",
    },
    {
      type: 2,
      bubbleId: "x2",
      text: "It shifts every slot by the local tide delay, in minutes.",
    },
  ],
};

const composerEmpty = {
  _v: 10,
  composerId: EMPTY,
  createdAt: T0,
  fullConversationHeadersOnly: [],
};

/** Writes the fixture files. */
export async function generate(): Promise<void> {
  await writeFixtureDb(`${USER}globalStorage/state.vscdb`, SCHEMA, [
    {
      table: "ItemTable",
      rows: [{ key: "cursorAuth/cachedSignUpType", value: "Auth_0" }],
    },
    {
      table: "cursorDiskKV",
      rows: [
        {
          key: `composerData:${A}`,
          value: new TextEncoder().encode(JSON.stringify(composerA)),
        },
        ...bubblesA.map((b) => ({
          key: `bubbleId:${A}:${b.bubbleId}`,
          value: JSON.stringify(b),
        })),
        { key: `composerData:${B}`, value: JSON.stringify(composerB) },
        { key: `composerData:${EMPTY}`, value: JSON.stringify(composerEmpty) },
        { key: "checkpointId:abc", value: "{}" },
      ],
    },
  ]);

  const WS = `${USER}workspaceStorage/7c1d9e0f2a3b4c5d6e7f8091a2b3c4d5/`;
  await writeFixtureDb(`${WS}state.vscdb`, ITEMS_ONLY, [{
    table: "ItemTable",
    rows: [
      {
        key: "composer.composerData",
        value: JSON.stringify({
          allComposers: [
            {
              composerId: "f0e1d2c3-b4a5-4968-8776-655443322110",
              name: "Rename Dock to Berth",
              createdAt: T0 - 86_400_000,
              lastUpdatedAt: T0 - 86_300_000,
              conversation: [
                {
                  type: 1,
                  bubbleId: "y1",
                  text: "Rename the Dock class to Berth everywhere.",
                  relevantFiles: [],
                },
                {
                  type: 2,
                  bubbleId: "y2",
                  text: "Renamed Dock to Berth in 4 files.",
                  codeBlocks: [],
                },
              ],
            },
            { composerId: "header-only-in-workspace", createdAt: T0 },
          ],
          selectedComposerId: "f0e1d2c3-b4a5-4968-8776-655443322110",
          composerDataVersion: 1,
        }),
      },
      {
        key: "workbench.panel.aichat.view.aichat.chatdata",
        value: JSON.stringify({
          tabs: [{
            tabId: "a7b8c9d0-e1f2-4a3b-8c4d-5e6f7a8b9c0d",
            chatTitle: "Harbor map tiles",
            lastSendTime: T0 - 172_800_000,
            bubbles: [
              {
                type: "user",
                id: "z1",
                text: "Why are the harbor map tiles blurry on retina screens?",
              },
              {
                type: "ai",
                id: "z2",
                rawText:
                  "The tile layer requests 256px tiles; request @2x tiles when devicePixelRatio > 1.",
                text: "",
              },
              { type: "user", id: "z3", text: "" },
            ],
          }],
          chatDataVersion: 1,
        }),
      },
      {
        key: "aiService.prompts",
        value: JSON.stringify([{
          text: "Why are the harbor map tiles blurry on retina screens?",
          commandType: 4,
        }]),
      },
    ],
  }]);
  await Deno.writeTextFile(
    `${WS}workspace.json`,
    JSON.stringify({ folder: `file://${PROJECT}` }) + "\n",
  );

  const CLI = `${HOME}.cursor/projects/home-dev-code-harbor/agent-transcripts/`;
  const SID = "5b6c7d8e-9f0a-4b1c-8d2e-3f4a5b6c7d8e";
  const line = (v: unknown) => JSON.stringify(v);
  await Deno.mkdir(`${CLI}${SID}/subagents`, { recursive: true });
  await Deno.writeTextFile(
    `${CLI}${SID}/${SID}.jsonl`,
    [
      line({
        role: "user",
        message: {
          content: [{
            type: "text",
            text:
              "<timestamp>Tuesday, Mar 17, 2026</timestamp>\n<user_query>Add a /health endpoint to the harbor API.</user_query>",
          }],
        },
      }),
      line({
        role: "assistant",
        message: {
          content: [
            { type: "text", text: "I'll add the route next to the others." },
            {
              type: "tool_use",
              name: "Read",
              input: { path: `${PROJECT}/src/routes.ts` },
            },
            {
              type: "tool_use",
              name: "StrReplace",
              input: {
                path: `${PROJECT}/src/routes.ts`,
                old_string: "app.get('/slots', slots);",
                new_string:
                  "app.get('/slots', slots);\napp.get('/health', health);",
              },
            },
            {
              type: "tool_use",
              name: "Shell",
              input: { command: "npm test -- routes" },
            },
            {
              type: "tool_use",
              name: "Task",
              input: { description: "check docs" },
            },
          ],
        },
      }),
      line({ type: "turn_ended" }),
      line({
        role: "assistant",
        message: {
          content: [{
            type: "text",
            text: "Added GET /health returning {ok: true}.",
          }],
        },
      }),
    ].join("\n") + "\n",
  );
  await Deno.writeTextFile(
    `${CLI}${SID}/subagents/9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d.jsonl`,
    [
      line({
        role: "user",
        message: {
          content: [{
            type: "text",
            text: "Check whether the docs list every route.",
          }],
        },
      }),
      line({
        role: "assistant",
        message: {
          content: [{
            type: "text",
            text: "docs/api.md lists all routes except /health.",
          }],
        },
      }),
    ].join("\n") + "\n",
  );
}

if (import.meta.main) await generate();
