/**
 * Writes fixtures/cursor: a Linux HOME with Cursor's global `state.vscdb`
 * (cursorDiskKV composers: one with bubble rows and tool calls, one with an
 * inline conversation, one empty; Cursor 3.x composers linked to their
 * workspace by `composer.composerHeaders` and the `composerHeaders` table,
 * with an `edit_file_v2` edit whose text is in `composer.content.<sha256>`
 * rows, an MCP call, a failed terminal run and a sub-agent composer), a
 * workspace `state.vscdb` in the older ItemTable layout (composer list and a
 * chat-panel tab) with its `workspace.json`, two 3.x workspaces, and
 * cursor-agent CLI transcripts: a main one and a sub-agent, the IDE's twin
 * of a composer, and an older `.txt` one in a project whose
 * `.workspace-trusted` names the folder. Run:
 * `deno run -A tests/fixtures_gen/cursor.ts`.
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
/** The 2026 `composerHeaders` table (not every column). */
const HEADERS = `
CREATE TABLE composerHeaders (composerId TEXT PRIMARY KEY, workspaceId TEXT, isSubagent INTEGER, value TEXT);
`;
const ITEMS_ONLY =
  "CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);";
const PROJECT = "/home/dev/code/harbor";
const LIGHTHOUSE = "/home/dev/code/lighthouse";
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

/** Cursor 3.x workspaces: one named by its header's uri, one by its id only. */
const WS_TIDES = "2b4d6f8a0c1e3a5b7d9f1b3d5f7a9c0e";
const WS_LIGHT = "8e6c4a2f0d1b3c5e7a9b1d3f5a7c9e0b";
const TIDES = "/home/dev/code/tides";
const C = "a3c5e7f9-1b2d-4f60-8a1c-3e5f7a9b1c2d"; // tides, via composer.composerHeaders
const S = "b4d6f8a0-2c3e-4a71-9b2d-4f6a8b0c2d3e"; // sub-agent of C
const D = "c5e7a9b1-3d4f-4b82-8c3e-5a7b9c1d3e4f"; // lighthouse, via the composerHeaders table
const T1 = Date.parse("2026-05-12T08:00:00Z");

const BEFORE =
  "const alertAt = 0.5; // metres\nexport const gauge = read(port);\n";
const AFTER =
  "const alertAt = 0.8; // metres\nexport const gauge = read(port);\n";

/** A `composer.content.<sha256>` key, as Cursor names the rows. */
async function contentKey(text: string): Promise<string> {
  const digest = await crypto.subtle.digest(
    "SHA-256",
    new TextEncoder().encode(text),
  );
  const hex = [...new Uint8Array(digest)].map((b) =>
    b.toString(16).padStart(2, "0")
  ).join("");
  return `composer.content.${hex}`;
}

/** The Cursor 3.x composers' rows and headers. */
async function cursor3(): Promise<{
  kv: Array<{ key: string; value: string | null }>;
  headers: unknown;
  table: Array<Record<string, string | number | null>>;
}> {
  const before = await contentKey(BEFORE);
  const after = await contentKey(AFTER);
  const at = (s: number) => new Date(T1 + s * 1000).toISOString();
  const bubblesC = [
    {
      _v: 3,
      type: 1,
      bubbleId: "c1",
      createdAt: at(0),
      text:
        "Tide alerts fire too late at the north gauge; raise the threshold.",
    },
    {
      _v: 3,
      type: 2,
      bubbleId: "c2",
      createdAt: at(10),
      text: "",
      capabilityType: 15,
      toolFormerData: {
        tool: 38,
        name: "edit_file_v2",
        status: "completed",
        rawArgs: JSON.stringify({ target_file: "src/gauge.ts" }),
        params: JSON.stringify({
          relativeWorkspacePath: `${TIDES}/src/gauge.ts`,
          noCodeblock: true,
        }),
        result: JSON.stringify({
          beforeContentId: before,
          afterContentId: after,
        }),
        additionalData: { status: "success" },
      },
    },
    {
      _v: 3,
      type: 2,
      bubbleId: "c3",
      createdAt: at(20),
      text: "",
      capabilityType: 15,
      toolFormerData: {
        tool: 19,
        name: "mcp_tidesdb_query_levels",
        status: "completed",
        rawArgs: JSON.stringify({ station: "north-7" }),
        params: JSON.stringify({
          tools: [{
            name: "query_levels",
            serverName: "tidesdb",
            parameters: JSON.stringify({ station: "north-7" }),
          }],
        }),
        result: JSON.stringify({
          result: JSON.stringify({ station: "north-7", peak: "0.74 m" }),
        }),
      },
    },
    {
      _v: 3,
      type: 2,
      bubbleId: "c4",
      createdAt: at(30),
      text: "",
      capabilityType: 15,
      toolFormerData: {
        tool: 15,
        name: "run_terminal_command_v2",
        // Cursor says "completed" for a run that failed.
        status: "completed",
        rawArgs: JSON.stringify({ command: "npm test -- gauge" }),
        params: JSON.stringify({ command: "npm test -- gauge" }),
        result: JSON.stringify({
          output: "FAIL gauge.spec.ts: expected alert at 0.8",
          rejected: false,
          exitCodeV2: 2,
        }),
        additionalData: { status: "error" },
      },
    },
    {
      _v: 3,
      type: 2,
      bubbleId: "c5",
      createdAt: at(40),
      text:
        "Raised the north gauge threshold to 0.8 m; the spec still expects 0.5.",
    },
  ];
  const bubblesS = [
    {
      _v: 3,
      type: 1,
      bubbleId: "s1",
      createdAt: at(12),
      text: "List every caller of read(port).",
    },
    {
      _v: 3,
      type: 2,
      bubbleId: "s2",
      createdAt: at(18),
      text: "read(port) is called from gauge.ts and harbour_feed.ts.",
    },
  ];
  const bubblesD = [
    {
      _v: 3,
      type: 1,
      bubbleId: "d1",
      createdAt: at(3600),
      text: "Why does the lighthouse lamp schedule skip leap days?",
    },
    {
      _v: 3,
      type: 2,
      bubbleId: "d2",
      createdAt: at(3610),
      text: "The schedule table has 365 rows; day 366 has none.",
    },
  ];
  const composer = (
    id: string,
    name: string,
    bubbles: Array<{ bubbleId: string; type: number; createdAt: string }>,
    extra: Record<string, unknown> = {},
  ) => ({
    key: `composerData:${id}`,
    value: JSON.stringify({
      _v: 17,
      composerId: id,
      name,
      createdAt: Date.parse(bubbles[0]!.createdAt),
      lastUpdatedAt: Date.parse(bubbles.at(-1)!.createdAt),
      fullConversationHeadersOnly: bubbles.map((b) => ({
        bubbleId: b.bubbleId,
        type: b.type,
        createdAt: b.createdAt,
      })),
      conversationMap: {},
      conversationState: "~CiA=",
      ...extra,
    }),
  });
  const rowsOf = (id: string, bubbles: Array<{ bubbleId: string }>) =>
    bubbles.map((b) => ({
      key: `bubbleId:${id}:${b.bubbleId}`,
      value: JSON.stringify(b),
    }));
  const subagentInfo = {
    subagentType: 3,
    parentComposerId: C,
    subagentTypeName: "explore",
  };
  return {
    kv: [
      composer(C, "Tide alert threshold", bubblesC, {
        subagentComposerIds: [S],
      }),
      ...rowsOf(C, bubblesC),
      composer(S, "Callers of read(port)", bubblesS, { subagentInfo }),
      ...rowsOf(S, bubblesS),
      composer(D, "Lighthouse leap days", bubblesD),
      ...rowsOf(D, bubblesD),
      { key: before, value: BEFORE },
      { key: after, value: AFTER },
    ],
    headers: {
      allComposers: [
        {
          type: "head",
          composerId: C,
          name: "Tide alert threshold",
          workspaceIdentifier: {
            id: WS_TIDES,
            uri: {
              $mid: 1,
              fsPath: TIDES,
              external: `file://${TIDES}`,
              path: TIDES,
              scheme: "file",
            },
          },
        },
        { type: "head", composerId: S, subagentInfo },
      ],
    },
    table: [
      {
        composerId: S,
        workspaceId: null,
        isSubagent: 1,
        value: JSON.stringify({ composerId: S, subagentInfo }),
      },
      {
        composerId: D,
        workspaceId: WS_LIGHT,
        isSubagent: 0,
        value: JSON.stringify({ composerId: D, name: "Lighthouse leap days" }),
      },
    ],
  };
}

/** Writes the fixture files. */
export async function generate(): Promise<void> {
  const v3 = await cursor3();
  await writeFixtureDb(`${USER}globalStorage/state.vscdb`, SCHEMA + HEADERS, [
    {
      table: "ItemTable",
      rows: [
        { key: "cursorAuth/cachedSignUpType", value: "Auth_0" },
        { key: "composer.composerHeaders", value: JSON.stringify(v3.headers) },
      ],
    },
    { table: "composerHeaders", rows: v3.table },
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
        ...v3.kv,
      ],
    },
  ]);

  // Cursor 3.x workspace stores keep no composer list.
  for (const [id, folder] of [[WS_TIDES, TIDES], [WS_LIGHT, LIGHTHOUSE]]) {
    const dir = `${USER}workspaceStorage/${id}/`;
    await writeFixtureDb(`${dir}state.vscdb`, SCHEMA, [{
      table: "ItemTable",
      rows: [{
        key: "composer.composerData",
        value: JSON.stringify({
          selectedComposerIds: [],
          hasMigratedComposerData: true,
        }),
      }],
    }]);
    await Deno.writeTextFile(
      `${dir}workspace.json`,
      JSON.stringify({ folder: `file://${folder}` }) + "\n",
    );
  }

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
            {
              type: "tool_use",
              name: "mcp_linear_create_issue",
              input: { title: "Document /health" },
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

  // The IDE panel's copy of composer A, under the composer's own id.
  await Deno.mkdir(`${CLI}${A}`, { recursive: true });
  await Deno.writeTextFile(
    `${CLI}${A}/${A}.jsonl`,
    [
      line({
        role: "user",
        message: {
          content: [{
            type: "text",
            text:
              "<user_query>\nShips dock twice when the berth API retries. Make the booking idempotent.\n</user_query>",
          }],
        },
      }),
      line({
        role: "assistant",
        message: {
          content: [{
            type: "text",
            text:
              "The db client has no upsert; I used insertOrIgnore instead and the test passes.",
          }],
        },
      }),
      line({ type: "turn_ended", status: "success" }),
    ].join("\n") + "\n",
  );

  // The older CLI's plain-text transcript, in a project whose folder name
  // is lossy (`.` and `-` both became `-`); `.workspace-trusted` is exact.
  const PORT = `${HOME}.cursor/projects/home-dev-sea-port-v2/`;
  await Deno.mkdir(`${PORT}agent-transcripts`, { recursive: true });
  await Deno.writeTextFile(
    `${PORT}.workspace-trusted`,
    JSON.stringify({
      trustedAt: "2026-01-20T09:00:00.000Z",
      workspacePath: "/home/dev/sea.port-v2",
      trustMethod: "cli-flag",
    }),
  );
  await Deno.writeTextFile(
    `${PORT}agent-transcripts/d6f8a0b2-4e5a-4c93-9d4f-6b8c0d2e4f5a.txt`,
    [
      "user:",
      "<user_query>",
      "Why does the ferry timetable import drop the last row?",
      "</user_query>",
      "",
      "assistant:",
      "[Thinking] **Checking the importer loop**",
      "Let me look at the importer.",
      "[Tool call] ReadFile",
      "  path: /home/dev/sea.port-v2/src/import.ts",
      "[Tool call] Shell",
      "  command: npm run import -- --dry-run",
      "  description: Dry-run the import",
      "",
      "[Tool result] ReadFile",
      "",
      "[Tool result] Shell",
      "Imported 41 of 42 rows",
      "Exit code: 1",
      "",
      "assistant:",
      "The loop stops one short. Fixing the bound:",
      "[Tool call] StrReplace",
      "  path: /home/dev/sea.port-v2/src/import.ts",
      "  old_string: for (let i = 0; i < rows.length - 1; i++) {",
      "  const row = rows[i];",
      "  new_string: for (let i = 0; i < rows.length; i++) {",
      "  const row = rows[i];",
      "",
      "[Tool result] StrReplace",
      "",
      "assistant:",
      "The import now keeps the last row.",
      "",
    ].join("\n"),
  );
}

if (import.meta.main) await generate();
