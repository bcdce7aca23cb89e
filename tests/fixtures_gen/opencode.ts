/**
 * Writes fixtures/opencode: a HOME whose `.local/share/opencode` holds an
 * `opencode.db` with both table generations (1.x session/message/part and
 * 2.0 session_v2/session_message), a session_diff beside it, an orphan
 * session_diff, and the older JSON tree in both layouts.
 * Run: `deno run -A tests/fixtures_gen/opencode.ts`.
 *
 * @module
 */
import { writeFixtureDb } from "../../src/sources/_store_test_kit.ts";

const ROOT =
  new URL("../../fixtures/opencode/.local/share/opencode/", import.meta.url)
    .pathname;
const DIR = "/home/dev/projects/kettle";
const T0 = 1772359200000; // 2026-03-01T10:00:00Z

const SCHEMA = `
CREATE TABLE project (id text PRIMARY KEY, worktree text NOT NULL, vcs text, name text, time_created integer NOT NULL, time_updated integer NOT NULL, sandboxes text NOT NULL);
CREATE TABLE session (id text PRIMARY KEY, project_id text NOT NULL, parent_id text, slug text NOT NULL, directory text NOT NULL, title text NOT NULL, version text NOT NULL, share_url text, summary_additions integer, summary_deletions integer, summary_files integer, summary_diffs text, revert text, permission text, time_created integer NOT NULL, time_updated integer NOT NULL, time_compacting integer, time_archived integer, workspace_id text);
CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL, session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
CREATE TABLE session_v2 (id text PRIMARY KEY, project_id text NOT NULL, workspace_id text, parent_id text, fork_session_id text, fork_boundary text, slug text NOT NULL, directory text NOT NULL, path text, title text, version text NOT NULL, revert text, agent text, model text, time_created integer NOT NULL, time_updated integer NOT NULL, time_idle integer, idle_outcome text);
CREATE TABLE session_message (id text PRIMARY KEY, session_id text NOT NULL, type text NOT NULL, seq integer NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
`;

const MAIN = "ses_1a2b3c4d5e6fKettleMain001";
const CHILD = "ses_1a2b3c4d5e6fKettleTask002";
const V2 = "ses_1a2b3c4d5e6fKettleV2x003";
const FORK = "ses_1a2b3c4d5e6fKettleFork04";

let clock = 0;
const messages: Array<Record<string, string | number>> = [];
const parts: Array<Record<string, string | number>> = [];

function message(
  session: string,
  id: string,
  data: Record<string, unknown>,
  partsData: unknown[],
) {
  clock += 1000;
  const at = T0 + clock;
  messages.push({
    id,
    session_id: session,
    time_created: at,
    time_updated: at,
    data: JSON.stringify({ ...data, time: { created: at } }),
  });
  partsData.forEach((p, i) => {
    parts.push({
      id: `prt_${id.slice(4)}_${String(i).padStart(2, "0")}`,
      message_id: id,
      session_id: session,
      time_created: at,
      time_updated: at,
      data: JSON.stringify(p),
    });
  });
}

const tool = (
  name: string,
  input: unknown,
  state: Record<string, unknown>,
) => ({
  type: "tool",
  callID: `call_${name}_${clock}`,
  tool: name,
  state: { input, ...state },
});

message(MAIN, "msg_0001main", { role: "user", agent: "build" }, [
  {
    type: "text",
    text:
      "The kettle timer skips the last second. Fix the off-by-one in countdown().",
  },
  {
    type: "text",
    text:
      'Called the Read tool with the following input: {"filePath":"src/timer.ts"}',
    synthetic: true,
  },
  {
    type: "file",
    mime: "text/plain",
    filename: "timer.ts",
    url: `file://${DIR}/src/timer.ts`,
  },
]);
message(MAIN, "msg_0002main", {
  role: "assistant",
  mode: "build",
  path: { cwd: DIR, root: DIR },
}, [
  { type: "step-start" },
  {
    type: "reasoning",
    text: "The loop condition is probably > instead of >=.",
  },
  { type: "text", text: "Let me read the timer and run its test." },
  tool("read", { filePath: `${DIR}/src/timer.ts` }, {
    status: "completed",
    output: "while (left > 0) { tick(); left--; }",
    title: "src/timer.ts",
  }),
  tool("bash", { command: "npm test -- timer" }, {
    status: "completed",
    output: "expected 0, got 1\n",
    metadata: { exit: 1, output: "expected 0, got 1\n" },
  }),
  { type: "step-finish", reason: "tool-calls" },
]);
message(MAIN, "msg_0003main", { role: "assistant", mode: "build" }, [
  tool("edit", {
    filePath: `${DIR}/src/timer.ts`,
    oldString: "while (left > 0)",
    newString: "while (left >= 0)",
  }, { status: "completed", output: "" }),
  tool("apply_patch", {
    patchText:
      "*** Begin Patch\n*** Update File: test/timer.test.ts\n@@\n-expect(ticks).toBe(9);\n+expect(ticks).toBe(10);\n*** End Patch",
  }, {
    status: "completed",
    output: "Success. Updated the following files:\nM test/timer.test.ts",
  }),
  tool("bash", { command: "npm test -- timer" }, {
    status: "completed",
    output: "1 passed\n",
    metadata: { exit: 0 },
  }),
  tool("task", {
    description: "Check other loops",
    prompt: "Look for other > 0 loops",
  }, { status: "completed", output: "None found." }),
  {
    type: "patch",
    hash: "4b825dc",
    files: [`${DIR}/src/timer.ts`, `${DIR}/test/timer.test.ts`],
  },
  {
    type: "text",
    text:
      "Fixed: the loop now runs while left >= 0, and the test expects ten ticks.",
  },
]);
message(MAIN, "msg_0004main", {
  role: "assistant",
  mode: "build",
  summary: true,
}, [
  {
    type: "text",
    text: "Summary: fixed countdown() off-by-one in src/timer.ts; tests pass.",
  },
]);
message(MAIN, "msg_0005main", { role: "user" }, [
  { type: "text", text: "Also make the beep louder." },
]);
message(MAIN, "msg_0006main", { role: "assistant", mode: "build" }, [
  tool("write", {
    filePath: `${DIR}/src/beep.ts`,
    content: "export const VOLUME = 11;",
  }, { status: "error", error: "Permission denied" }),
  { type: "text", text: "I could not write src/beep.ts: permission denied." },
]);
message(CHILD, "msg_0007child", { role: "user" }, [{
  type: "text",
  text: "Look for other > 0 loops",
}]);
message(CHILD, "msg_0008child", { role: "assistant" }, [
  tool("grep", { pattern: "> 0" }, {
    status: "completed",
    output: "src/timer.ts:3",
  }),
  { type: "text", text: "None found." },
]);
// opencode 2.x keeps a 1.x copy of a migrated session under the same id.
message(V2, "msg_0009legacy", { role: "user" }, [{
  type: "text",
  text: "LEGACY COPY: must not be read",
}]);

const v2rows: Array<Record<string, string | number>> = [];
function v2(
  session: string,
  seq: number,
  type: string,
  data: Record<string, unknown>,
) {
  const at = T0 + 100_000 + seq * 1000;
  v2rows.push({
    id: `msg_v2_${session.slice(-4)}_${String(seq).padStart(2, "0")}`,
    session_id: session,
    type,
    seq,
    time_created: at,
    time_updated: at,
    data: JSON.stringify({ time: { created: at }, ...data }),
  });
}
v2(V2, 1, "user", { text: "Rename the brew setting to steep.", files: [] });
v2(V2, 2, "synthetic", {
  text: "<system-reminder>Plan mode is off.</system-reminder>",
});
v2(V2, 3, "assistant", {
  content: [
    { type: "reasoning", text: "grep first" },
    { type: "text", text: "Searching for the brew setting." },
    {
      type: "tool",
      id: "call_1",
      name: "shell",
      state: {
        status: "completed",
        input: { command: "git grep -n brew" },
        content: [{ type: "text", text: "src/config.ts:7: brew: 4" }],
        metadata: { exit: 0 },
      },
    },
    {
      type: "tool",
      id: "call_2",
      name: "read",
      state: {
        status: "error",
        input: { path: "src/missing.ts" },
        error: {
          type: "tool.execution",
          message: "File not found: src/missing.ts",
        },
      },
    },
  ],
});
v2(V2, 4, "assistant", {
  content: [{ type: "text", text: "Renamed brew to steep in src/config.ts." }],
  finish: "stop",
});
v2(V2, 5, "compaction", { summary: "Renamed the brew setting to steep." });
v2(V2, 6, "idle", { outcome: "succeeded" });
v2(FORK, 1, "user", { text: "Instead keep brew as an alias." });
v2(FORK, 2, "assistant", {
  content: [{ type: "text", text: "brew now aliases steep." }],
});

const session = (
  id: string,
  title: string,
  extra: Record<string, string | number | null> = {},
) => ({
  id,
  project_id: "prj_kettle",
  slug: id.slice(-6),
  directory: DIR,
  title,
  version: "1.2.20",
  time_created: T0,
  time_updated: T0 + 60_000,
  ...extra,
});

/** Writes the fixture files. */
export async function generate(): Promise<void> {
  await writeFixtureDb(`${ROOT}opencode.db`, SCHEMA, [
    {
      table: "project",
      rows: [{
        id: "prj_kettle",
        worktree: DIR,
        vcs: "git",
        time_created: T0,
        time_updated: T0,
        sandboxes: "[]",
      }],
    },
    {
      table: "session",
      rows: [
        session(MAIN, "Kettle countdown off-by-one", {
          revert: JSON.stringify({
            messageID: "msg_0005main",
            snapshot: "abc",
          }),
        }),
        session(CHILD, "Check other loops (@general subagent)", {
          parent_id: MAIN,
        }),
        session(V2, "legacy copy"),
      ],
    },
    { table: "message", rows: messages },
    { table: "part", rows: parts },
    {
      table: "session_v2",
      rows: [
        {
          id: V2,
          project_id: "prj_kettle",
          slug: "v2",
          directory: DIR,
          title: "New session - 2026-03-01T10:01:40.000Z",
          version: "2.0.26",
          time_created: T0 + 100_000,
          time_updated: T0 + 106_000,
        },
        {
          id: FORK,
          project_id: "prj_kettle",
          slug: "fork",
          directory: DIR,
          fork_session_id: V2,
          title: "Keep brew alias",
          version: "2.0.26",
          time_created: T0 + 200_000,
          time_updated: T0 + 202_000,
        },
      ],
    },
    { table: "session_message", rows: v2rows },
  ]);

  async function json(rel: string, value: unknown): Promise<void> {
    const path = ROOT + rel;
    await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(path, JSON.stringify(value, null, 2) + "\n");
  }

  await json(`storage/session_diff/${MAIN}.json`, [
    {
      file: "src/timer.ts",
      before: "let left = 10;\nwhile (left > 0) { tick(); left--; }\n",
      after: "let left = 10;\nwhile (left >= 0) { tick(); left--; }\n",
      additions: 1,
      deletions: 1,
    },
  ]);
  await json("storage/session_diff/ses_0rphanDiffNoSession9.json", [
    {
      file: "docs/brewing.md",
      patch:
        "--- a/docs/brewing.md\n+++ b/docs/brewing.md\n@@ -1 +1 @@\n-Brew for four minutes.\n+Steep for four minutes.\n",
      additions: 1,
      deletions: 1,
    },
  ]);

  // The 0.6+ JSON layout: storage/session/<project>/<id>.json, message/<id>/, part/<message>/.
  const J = "ses_0a9b8c7d6e5fJsonTree0005";
  await json(`storage/session/prj_kettle/${J}.json`, {
    id: J,
    version: "0.9.1",
    projectID: "prj_kettle",
    directory: DIR,
    title: "Descale reminder",
    time: { created: T0 - 86_400_000, updated: T0 - 86_390_000 },
  });
  await json(`storage/message/${J}/msg_j1.json`, {
    id: "msg_j1",
    sessionID: J,
    role: "user",
    time: { created: T0 - 86_400_000 },
  });
  await json(`storage/part/msg_j1/prt_j1a.json`, {
    id: "prt_j1a",
    sessionID: J,
    messageID: "msg_j1",
    type: "text",
    text: "Add a descale reminder every 30 brews.",
  });
  await json(`storage/message/${J}/msg_j2.json`, {
    id: "msg_j2",
    sessionID: J,
    role: "assistant",
    time: { created: T0 - 86_395_000 },
    path: { cwd: DIR, root: DIR },
  });
  await json(`storage/part/msg_j2/prt_j2a.json`, {
    id: "prt_j2a",
    sessionID: J,
    messageID: "msg_j2",
    type: "text",
    text: "Added a counter that reminds you after 30 brews.",
    time: { start: T0 - 86_394_000 },
  });
  await json(`storage/part/msg_j2/prt_j2b.json`, {
    id: "prt_j2b",
    sessionID: J,
    messageID: "msg_j2",
    type: "tool",
    tool: "bash",
    callID: "c",
    state: {
      status: "completed",
      input: { command: "npm run lint" },
      output: "ok",
      metadata: { exit: 0 },
    },
  });

  // The ≤0.5 layout under project/<name>/storage/session/{info,message,part}.
  const O = "ses_0f1e2d3c4b5aOldLayout06";
  const P = "project/global/storage/session";
  await json(`${P}/info/${O}.json`, {
    id: O,
    version: "0.5.28",
    title: "New session - 2025-11-02T08:00:00.000Z",
    time: { created: 1762070400000, updated: 1762070460000 },
  });
  await json(`${P}/message/${O}/msg_o1.json`, {
    id: "msg_o1",
    role: "user",
    sessionID: O,
    time: { created: 1762070400100 },
  });
  await json(`${P}/part/${O}/msg_o1/prt_o1.json`, {
    id: "prt_o1",
    type: "text",
    text: "What voltage does the heating element need?",
    messageID: "msg_o1",
    sessionID: O,
  });
  await json(`${P}/message/${O}/msg_o2.json`, {
    id: "msg_o2",
    role: "assistant",
    sessionID: O,
    system: ["You are opencode, an interactive CLI tool."],
    mode: "build",
    path: { cwd: DIR, root: DIR },
    time: { created: 1762070401000 },
  });
  await json(`${P}/part/${O}/msg_o2/prt_o2.json`, {
    id: "prt_o2",
    type: "text",
    text: "The element is rated for 230 V.",
    messageID: "msg_o2",
    sessionID: O,
  });
}

if (import.meta.main) await generate();
