import { deepEqual, equal, ok, rejects } from "node:assert/strict";
import { dirname, join } from "node:path";
import { DejaError } from "../core/errors.ts";
import { MAX_OUTPUT_CHARS } from "../core/text.ts";
import { isSuperseded } from "../core/types.ts";
import {
  opencode,
  parseOpencodeDb,
  parseOpencodeSessionDiff,
  parseOpencodeStorageSession,
} from "./opencode.ts";
import {
  copyTree,
  linuxHome,
  parseHome,
  roleCounts,
  total,
  writeFixtureDb,
} from "./_store_test_kit.ts";
import { hasSamples, SAMPLES } from "./_test_kit.ts";
import { builtinCommand } from "./_opencode_commands.ts";

const FIXTURE = new URL("../../fixtures/opencode", import.meta.url).pathname;
const SOURCE = linuxHome("/nonexistent");
const OPTIONS = { includeSubagents: true, source: SOURCE };
const V1_SCHEMA = `
CREATE TABLE session (id text PRIMARY KEY, parent_id text, directory text NOT NULL, title text NOT NULL, revert text, time_created integer, time_updated integer);
CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL, time_created integer NOT NULL, data text NOT NULL);
CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL, session_id text NOT NULL, data text NOT NULL);
`;

/** The 1.x tables as opencode 1.18.5 writes them (its other tables left out). */
const CURRENT_SCHEMA = `
CREATE TABLE session (id text PRIMARY KEY, project_id text NOT NULL, workspace_id text, parent_id text, slug text NOT NULL, directory text NOT NULL, path text, title text NOT NULL, version text NOT NULL, share_url text, summary_additions integer, summary_deletions integer, summary_files integer, summary_diffs text, metadata text, cost real DEFAULT 0 NOT NULL, tokens_input integer DEFAULT 0 NOT NULL, tokens_output integer DEFAULT 0 NOT NULL, tokens_reasoning integer DEFAULT 0 NOT NULL, tokens_cache_read integer DEFAULT 0 NOT NULL, tokens_cache_write integer DEFAULT 0 NOT NULL, revert text, permission text, agent text, model text, time_created integer NOT NULL, time_updated integer NOT NULL, time_compacting integer, time_archived integer);
CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL, session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
`;

/** 2026-09-12T10:00:00Z, when the current-shape session's first message was written. */
const T0 = Date.UTC(2026, 8, 12, 10);

/**
 * Writes `<dataDir>/opencode.db` in the 1.18.5 shape: one session, a user
 * message, then an assistant message (written a second later) holding
 * `parts` in order. Returns the store's path.
 */
async function currentStore(
  dataDir: string,
  parts: readonly Record<string, unknown>[],
  userParts: readonly Record<string, unknown>[] = [],
): Promise<string> {
  const path = join(dataDir, "opencode.db");
  const assistant = {
    role: "assistant",
    time: { created: T0 + 1000, completed: T0 + 400_000 },
    path: { cwd: "/home/dev/vole-api", root: "/home/dev/vole-api" },
    finish: "tool-calls",
  };
  await writeFixtureDb(path, CURRENT_SCHEMA, [
    {
      table: "session",
      rows: [{
        id: "ses_c",
        project_id: "prj",
        slug: "amber-vole",
        directory: "/home/dev/vole-api",
        title: "Vole rollout",
        version: "1.18.5",
        time_created: T0,
        time_updated: T0 + 400_000,
      }],
    },
    {
      table: "message",
      rows: [
        {
          id: "msg_1",
          session_id: "ses_c",
          time_created: T0,
          time_updated: T0,
          data: JSON.stringify({ role: "user", time: { created: T0 } }),
        },
        {
          id: "msg_2",
          session_id: "ses_c",
          time_created: T0 + 1000,
          time_updated: T0 + 400_000,
          data: JSON.stringify(assistant),
        },
      ],
    },
    {
      table: "part",
      rows: [
        {
          id: "prt_1",
          message_id: "msg_1",
          session_id: "ses_c",
          time_created: T0,
          time_updated: T0,
          data: JSON.stringify({ type: "text", text: "run the vole suite" }),
        },
        ...userParts.map((part, i) => ({
          id: `prt_1${String(i).padStart(2, "0")}`,
          message_id: "msg_1",
          session_id: "ses_c",
          time_created: T0,
          time_updated: T0,
          data: JSON.stringify(part),
        })),
        ...parts.map((part, i) => ({
          id: `prt_2${String(i).padStart(2, "0")}`,
          message_id: "msg_2",
          session_id: "ses_c",
          time_created: T0 + 1000,
          time_updated: T0 + 1000,
          data: JSON.stringify(part),
        })),
      ],
    },
  ]);
  return path;
}

/** Writes a JSON tree under `root`: each file's text, or its value as JSON. */
async function writeTree(
  root: string,
  files: Record<string, unknown>,
): Promise<void> {
  for (const [relPath, content] of Object.entries(files)) {
    const path = join(root, relPath);
    await Deno.mkdir(dirname(path), { recursive: true });
    await Deno.writeTextFile(
      path,
      typeof content === "string" ? content : JSON.stringify(content),
    );
  }
}

Deno.test("opencode parses every store shape in the fixture", async () => {
  const { files, sessions, skipped } = await parseHome(
    opencode,
    linuxHome(FIXTURE),
  );
  equal(files.length, 5, "db, two JSON-tree sessions, two session diffs");
  equal(skipped, 0);
  const byTitle = (t: string) => sessions.find((s) => s.title === t);

  const main = byTitle("Kettle countdown off-by-one");
  ok(main);
  deepEqual(roleCounts(main), {
    user: 2,
    assistant: 3,
    // 6 the tools touched, 1 the person attached (src/timer.ts).
    files: 7,
    "tool-output": 6,
    command: 2,
    edit: 3,
    summary: 1,
  });
  equal(main.project, "kettle");
  ok(
    !main.records.some((r) => r.text.includes("Called the Read tool")),
    "synthetic parts are not speech",
  );
  ok(
    !main.records.some((r) => r.text.includes("probably >")),
    "reasoning is dropped",
  );
  deepEqual(
    main.records.filter((r) => r.role === "command").map((r) => r.exitCode),
    [1, 0],
  );
  deepEqual(
    main.records.filter((r) => r.role === "edit").map((r) => r.text),
    [
      "/home/dev/projects/kettle/src/timer.ts\nwhile (left > 0)",
      "test/timer.test.ts\nexpect(ticks).toBe(9);",
      "src/timer.ts\nwhile (left > 0) { tick(); left--; }",
    ],
    "edit oldString, apply_patch `-` lines, then the session_diff's removed line",
  );
  equal(
    main.records.find((r) => r.role === "summary")?.text.startsWith("Summary:"),
    true,
  );
  equal(main.records.filter((r) => r.flags?.isError).length, 1);
  deepEqual(main.marks, [{ kind: "revert", from: 18, to: 22 }]);
  const reverted = main.records.filter((r) => isSuperseded(r.seq, main.marks));
  equal(reverted[0]?.text, "Also make the beep louder.");
  equal(reverted.length, 4);

  const child = sessions.find((s) => s.parent === main.id);
  equal(child?.lineage, "subagent");
  ok(child?.records.every((r) => r.flags?.subagent));

  const v2 = sessions.find((s) => s.id === "ses_1a2b3c4d5e6fKettleV2x003");
  ok(v2);
  deepEqual(roleCounts(v2), {
    user: 1,
    assistant: 2,
    command: 1,
    "tool-output": 2,
    files: 1,
    summary: 1,
  });
  ok(
    !sessions.some((s) =>
      s.records.some((r) => r.text.includes("LEGACY COPY"))
    ),
    "2.0 wins over its 1.x copy",
  );
  ok(
    !v2.records.some((r) => r.text.includes("Plan mode")),
    "synthetic rows are dropped",
  );
  equal(
    v2.title,
    "Rename the brew setting to steep.",
    "default titles fall back to the first prompt",
  );
  const fork = sessions.find((s) => s.lineage === "fork");
  equal(fork?.parent, v2.id);

  const tree = byTitle("Descale reminder");
  deepEqual(tree && roleCounts(tree), {
    user: 1,
    assistant: 1,
    command: 1,
    "tool-output": 1,
  });
  const old = sessions.find((s) => s.id === "ses_0f1e2d3c4b5aOldLayout06");
  deepEqual(old && roleCounts(old), { user: 1, assistant: 1 });
  equal(
    old?.project,
    "kettle",
    "project from the assistant message's path.cwd",
  );

  const orphan = sessions.find((s) => s.id === "ses_0rphanDiffNoSession9");
  deepEqual(orphan?.records.map((r) => r.text), [
    "docs/brewing.md",
    "docs/brewing.md\nBrew for four minutes.",
  ]);
  equal(sessions.length, 7);
});

Deno.test("opencode leaves sub-agent sessions out when asked to", async () => {
  const { sessions } = await parseHome(opencode, linuxHome(FIXTURE), false);
  ok(!sessions.some((s) => s.lineage === "subagent"));
  equal(sessions.length, 6);
});

Deno.test("opencode roots follow XDG_DATA_HOME", () => {
  deepEqual(opencode.roots(linuxHome("/h", { XDG_DATA_HOME: "/x" })), [
    "/x/opencode",
  ]);
  deepEqual(opencode.roots(linuxHome("/h", { DEJA_OPENCODE_ROOT: "/r" })), [
    "/r",
  ]);
});

Deno.test("opencode names an unknown schema", async (t) => {
  const dir = await Deno.makeTempDir();
  await t.step("empty file", async () => {
    const path = join(dir, "opencode.db");
    await Deno.writeFile(path, new Uint8Array());
    await rejects(
      parseOpencodeDb(path, OPTIONS),
      (e: unknown) =>
        e instanceof DejaError && e.code === "SRC-E002" &&
        /Unknown opencode schema in ".*opencode\.db": missing table "session"/
          .test(e.message),
    );
  });
  await t.step("1.x without part", async () => {
    const path = join(dir, "opencode-half.db");
    await writeFixtureDb(
      path,
      "CREATE TABLE session (id text); CREATE TABLE message (id text, session_id text, data text);",
      [],
    );
    await rejects(parseOpencodeDb(path, OPTIONS), /missing table "part"/);
  });
  await t.step("2.0 without data", async () => {
    const path = join(dir, "opencode-v2.db");
    await writeFixtureDb(
      path,
      "CREATE TABLE session_v2 (id text); CREATE TABLE session_message (id text, session_id text, type text);",
      [],
    );
    await rejects(
      parseOpencodeDb(path, OPTIONS),
      /missing column "data" in table "session_message"/,
    );
  });
});

Deno.test("opencode reports a file that is not SQLite as unreadable (SRC-E001), not as an unknown schema", async (t) => {
  const dir = await Deno.makeTempDir();
  for (
    const [name, bytes] of [
      ["garbage bytes", crypto.getRandomValues(new Uint8Array(6000))],
      [
        "a text file",
        new TextEncoder().encode("just some notes\n".repeat(300)),
      ],
    ] as const
  ) {
    await t.step(name, async () => {
      const path = join(dir, `${name.replaceAll(" ", "-")}.db`);
      await Deno.writeFile(path, bytes);
      await rejects(
        parseOpencodeDb(path, OPTIONS),
        (e: unknown) =>
          e instanceof DejaError && e.code === "SRC-E001" &&
          e.message.includes(path) &&
          e.message.includes("not a SQLite database"),
      );
    });
  }
});

Deno.test("opencode survives hostile rows", async () => {
  const path = join(await Deno.makeTempDir(), "opencode.db");
  const deep = "[".repeat(100_000) + "]".repeat(100_000);
  await writeFixtureDb(path, V1_SCHEMA, [
    {
      table: "session",
      rows: [{
        id: "s",
        directory: "/w/p",
        title: "t",
        revert: "{not json",
        time_created: 1,
        time_updated: 9e18,
      }],
    },
    {
      table: "message",
      rows: [
        {
          id: "m1",
          session_id: "s",
          time_created: 1772359200000,
          data: '{"role":"user"}',
        },
        { id: "m2", session_id: "s", time_created: 1772359201000, data: deep },
        { id: "m3", session_id: "s", time_created: 9e18, data: "[1,2]" },
        {
          id: "m4",
          session_id: "orphan",
          time_created: 3,
          data: '{"role":"assistant"}',
        },
      ],
    },
    {
      table: "part",
      rows: [
        {
          id: "p1",
          message_id: "m1",
          session_id: "s",
          data: '{"type":"text","text":"keep me"}',
        },
        { id: "p2", message_id: "m1", session_id: "s", data: "nope" },
        {
          id: "p3",
          message_id: "m1",
          session_id: "s",
          data: '{"type":"tool","tool":"bash","state":"x"}',
        },
        {
          id: "p4",
          message_id: "m2",
          session_id: "s",
          data: '{"type":"text","text":7}',
        },
        {
          id: "p5",
          message_id: "m3",
          session_id: "s",
          data: JSON.stringify({
            type: "tool",
            tool: "edit",
            state: {
              status: "completed",
              input: { filePath: 5, oldString: [] },
            },
          }),
        },
        {
          id: "p6",
          message_id: "m4",
          session_id: "orphan",
          data: JSON.stringify({ type: "text", text: "z".repeat(100_000) }),
        },
      ],
    },
  ]);
  const { sessions, skipped } = await parseOpencodeDb(path, OPTIONS);
  ok(skipped >= 1);
  equal(sessions.find((s) => s.id === "s")?.records[0]?.text, "keep me");
  equal(
    sessions.find((s) => s.id === "orphan")?.records[0]?.flags?.truncated,
    true,
  );
});

Deno.test("opencode JSON tree: truncated documents are skipped, not fatal", async () => {
  const root = await Deno.makeTempDir();
  const s = join(root, "storage", "session");
  await writeTree(s, {
    "info/ses_bad.json": '{"id":"ses_bad","tit',
    "info/ses_t.json": { id: "ses_t", title: "t", time: { created: 1 } },
    "message/ses_t/msg_1.json": {
      id: "msg_1",
      role: "user",
      time: { created: 1760000000000 },
    },
    "message/ses_t/msg_2.json": '{"id":"msg_2","ro',
    "part/ses_t/msg_1/prt_1.json": { id: "prt_1", type: "text", text: "fine" },
    "part/ses_t/msg_1/prt_2.json": '{"id":"prt_2","type":"te',
  });
  const bad = await parseOpencodeStorageSession(
    join(s, "info", "ses_bad.json"),
    OPTIONS,
  );
  equal(bad.sessions.length, 0);
  const good = await parseOpencodeStorageSession(
    join(s, "info", "ses_t.json"),
    OPTIONS,
  );
  equal(good.skipped, 2);
  deepEqual(good.sessions[0]?.records.map((r) => r.text), ["fine"]);
  await Deno.mkdir(join(root, "storage", "session_diff"));
  const diff = join(root, "storage", "session_diff", "ses_x.json");
  await Deno.writeTextFile(diff, '[{"file":"a","before":"x');
  equal((await parseOpencodeSessionDiff(diff, OPTIONS)).skipped, 1);
  await Deno.writeTextFile(
    diff,
    '[5, {"file": 3}, {"file": "b.ts", "before": 1}]',
  );
  const typed = await parseOpencodeSessionDiff(diff, OPTIONS);
  equal(typed.skipped, 2);
  deepEqual(typed.sessions[0]?.records.map((r) => r.role), ["files"]);
});

Deno.test("opencode JSON tree: a message or part opening with a BOM is read", async () => {
  const root = await Deno.makeTempDir();
  const s = join(root, "storage", "session");
  const bom = (value: unknown) => "\ufeff" + JSON.stringify(value);
  await writeTree(s, {
    "info/ses_b.json": bom({ id: "ses_b", title: "t", time: { created: 1 } }),
    "message/ses_b/msg_1.json": bom({
      id: "msg_1",
      role: "user",
      time: { created: 1760000000000 },
    }),
    "part/ses_b/msg_1/prt_1.json": bom({
      id: "prt_1",
      type: "text",
      text: "kept despite the mark",
    }),
  });
  const r = await parseOpencodeStorageSession(
    join(s, "info", "ses_b.json"),
    OPTIONS,
  );
  equal(r.skipped, 0);
  deepEqual(r.sessions[0]?.records.map((x) => [x.role, x.text]), [
    ["user", "kept despite the mark"],
  ]);
});

Deno.test("opencode parses the real samples", {
  ignore: !hasSamples("opencode"),
}, async () => {
  const from = join(SAMPLES, "opencode/saintcyberwarrior-dotfiles");
  const root = await copyTree(from, [
    "opencode-stable.db",
    "storage/session_diff/ses_2c01b767bffeLXd7d6ewFC78It.json",
  ]);
  // The 1.2.25 store: one session, a "hello" text part, an assistant reply
  // that failed with an API error (no parts) — one user turn, no answer.
  const db = await parseOpencodeDb(join(root, "opencode-stable.db"), OPTIONS);
  equal(db.skipped, 0);
  equal(db.sessions.length, 1);
  equal(total(db.sessions, "user"), 1);
  equal(total(db.sessions, "assistant"), 0);
  equal(db.sessions[0]?.project, "Week_11");
  // Its session_diff is an empty list, and the session is in the store anyway.
  const diff = await parseOpencodeSessionDiff(
    join(root, "storage/session_diff/ses_2c01b767bffeLXd7d6ewFC78It.json"),
    OPTIONS,
  );
  equal(diff.sessions.length, 0);
  // The 0.5.28 JSON tree: two sessions, one user question each, and two
  // assistant messages that errored with no parts on disk.
  const info = join(from, "project/global/storage/session/info");
  let users = 0;
  let assistants = 0;
  let count = 0;
  for (
    const name of [
      "ses_4343439b2ffe8vCbtGr04gHePJ.json",
      "ses_44234b4aeffe6EUGUjiyzSIEZV.json",
    ]
  ) {
    const r = await parseOpencodeStorageSession(join(info, name), OPTIONS);
    equal(r.skipped, 0);
    count += r.sessions.length;
    users += total(r.sessions, "user");
    assistants += total(r.sessions, "assistant");
  }
  equal(count, 2);
  equal(users, 2);
  equal(assistants, 0);
});

/**
 * The records of a 1.x store with one prompt and an assistant message that
 * ended with `error`.
 */
async function endedWith(error: unknown, prompt: string) {
  const path = join(await Deno.makeTempDir(), "opencode.db");
  await writeFixtureDb(path, V1_SCHEMA, [
    {
      table: "session",
      rows: [{ id: "s", directory: "/w/shop", title: "t", time_created: 1 }],
    },
    {
      table: "message",
      rows: [
        {
          id: "m1",
          session_id: "s",
          time_created: 1772359200000,
          data: '{"role":"user"}',
        },
        {
          id: "m2",
          session_id: "s",
          time_created: 1772359201000,
          data: JSON.stringify({ role: "assistant", error }),
        },
      ],
    },
    {
      table: "part",
      rows: [{
        id: "p1",
        message_id: "m1",
        session_id: "s",
        data: JSON.stringify({ type: "text", text: prompt }),
      }],
    },
  ]);
  const { sessions } = await parseOpencodeDb(path, OPTIONS);
  return sessions[0]?.records ?? [];
}

Deno.test("opencode keeps the error an assistant message ended with", async (t) => {
  const error = {
    name: "UnknownError",
    data: { message: "AI_APICallError: Insufficient Balance" },
  };
  await t.step(
    "1.x SQLite store: the error follows the message's parts",
    async () => {
      const records = await endedWith(error, "add the cart badge");
      deepEqual(records.map((r) => [r.role, r.text]), [
        ["user", "add the cart badge"],
        ["tool-output", "AI_APICallError: Insufficient Balance"],
      ]);
      equal(records[1]?.flags?.isError, true);
      equal(records[1]?.locator.recordId, "m2");
    },
  );
  await t.step(
    "JSON tree: a message with no parts still says its error",
    async () => {
      const root = await Deno.makeTempDir();
      const s = join(root, "storage", "session");
      await writeTree(s, {
        "info/ses_e.json": { id: "ses_e", title: "t", time: { created: 1 } },
        "message/ses_e/msg_1.json": {
          id: "msg_1",
          role: "assistant",
          time: { created: 1760000000000 },
          error: { name: "ProviderAuthError", message: "missing API key" },
        },
      });
      const { sessions } = await parseOpencodeStorageSession(
        join(s, "info", "ses_e.json"),
        OPTIONS,
      );
      deepEqual(sessions[0]?.records.map((r) => [r.role, r.text]), [
        ["tool-output", "missing API key"],
      ]);
    },
  );
});

Deno.test("opencode keeps a provider error's HTTP status beside its message", async () => {
  const records = await endedWith({
    name: "APIError",
    data: { message: "Insufficient Balance", statusCode: 402 },
  }, "explain the QAOA circuit");
  deepEqual(records.map((r) => [r.role, r.text]), [
    ["user", "explain the QAOA circuit"],
    ["tool-output", "Insufficient Balance (APIError, HTTP 402)"],
  ]);
});

Deno.test("opencode dates a tool's records by the tool's own start and end", async () => {
  const path = await currentStore(await Deno.makeTempDir(), [
    {
      type: "tool",
      callID: "toolu_1",
      tool: "bash",
      state: {
        status: "completed",
        input: { command: "cargo test -p vole" },
        output: "test result: ok",
        metadata: { exit: 0 },
        time: { start: T0 + 62_000, end: T0 + 64_500 },
      },
    },
    {
      type: "tool",
      callID: "toolu_2",
      tool: "read",
      state: {
        status: "completed",
        input: { filePath: "/home/dev/vole-api/Cargo.toml" },
        output: "[package]",
      },
    },
  ]);
  const { sessions } = await parseOpencodeDb(path, OPTIONS);
  deepEqual(
    sessions[0]?.records.map((r) => [r.role, r.time]),
    [
      ["user", T0],
      ["command", T0 + 62_000],
      ["tool-output", T0 + 64_500],
      ["files", T0 + 1000],
      ["tool-output", T0 + 1000],
    ],
    "a tool with no times of its own keeps its message's",
  );
});

Deno.test("opencode keeps what an interrupted tool printed before it stopped", async () => {
  const path = await currentStore(await Deno.makeTempDir(), [{
    type: "tool",
    callID: "toolu_1",
    tool: "bash",
    state: {
      status: "error",
      input: { command: "./scripts/flush_wren.sh" },
      error: "Tool execution aborted",
      metadata: {
        interrupted: true,
        output:
          "flushing...\npartial output: wren flush pending for 12 shards\n",
      },
      time: { start: T0 + 300_000, end: T0 + 330_000 },
    },
  }]);
  const { sessions } = await parseOpencodeDb(path, OPTIONS);
  const out = sessions[0]?.records.find((r) => r.role === "tool-output");
  equal(
    out?.text,
    "flushing...\npartial output: wren flush pending for 12 shards\nTool execution aborted",
  );
  equal(out?.flags?.isError, true);
});

Deno.test("opencode reads a truncated tool output whole from tool-output/", async (t) => {
  const dataDir = await Deno.makeTempDir();
  await Deno.mkdir(join(dataDir, "tool-output"));
  const lines = Array.from(
    { length: 3000 },
    (_, i) => `test migrate::case_${String(i).padStart(4, "0")} ... ok`,
  );
  const full = [
    ...lines,
    "thread 'migrate::axolotl_replay' panicked at 'axolotl checksum mismatch at row 991'",
    "test result: FAILED. 2999 passed; 1 failed",
  ].join("\n");
  const preview = lines.slice(0, 40).join("\n");
  /** A bash part whose output opencode cut, saving the whole as `name`. */
  const truncatedBash = (name: string) => {
    // Where opencode wrote it: another machine's data dir, as in a copied store.
    const saved = `/home/dev/.local/share/opencode/tool-output/${name}`;
    return {
      type: "tool",
      callID: "toolu_1",
      tool: "bash",
      state: {
        status: "completed",
        input: { command: "cargo test -p migrate" },
        output:
          `${preview}\n\n...2962 lines truncated...\n\nThe tool call succeeded but the output was truncated. Full output saved to: ${saved}\nUse the Task tool to have explore agent process this file with Grep and Read (with offset/limit). Do NOT read the full file yourself - delegate to save context.`,
        metadata: { exit: 101, truncated: true, outputPath: saved },
        time: { start: T0 + 62_000, end: T0 + 390_000 },
      },
    };
  };
  const outputOf = async (name: string) => {
    const path = await currentStore(dataDir, [truncatedBash(name)]);
    const { sessions } = await parseOpencodeDb(path, OPTIONS);
    return sessions[0]?.records.find((r) => r.role === "tool-output");
  };

  await t.step("the saved file's text replaces the preview", async () => {
    await Deno.writeTextFile(
      join(dataDir, "tool-output", "tool_fa11c0ffee001AbCdEf"),
      full,
    );
    const out = await outputOf("tool_fa11c0ffee001AbCdEf");
    equal(out?.text, full);
    equal(out?.flags, undefined);
  });
  await t.step("a file past the output cap gives its two ends", async () => {
    const big = [
      "BEGIN vole log",
      "x ".repeat(MAX_OUTPUT_CHARS),
      "END axolotl checksum mismatch",
    ].join("\n");
    await Deno.writeTextFile(
      join(dataDir, "tool-output", "tool_b16b16b16AbCdEf"),
      big,
    );
    const out = await outputOf("tool_b16b16b16AbCdEf");
    ok(out && out.text.length <= MAX_OUTPUT_CHARS);
    ok(out?.text.startsWith("BEGIN vole log\n"));
    ok(out?.text.endsWith("\nEND axolotl checksum mismatch"));
    ok(/\n\[… \d+ bytes …\]\n/.test(out?.text ?? ""));
    equal(out?.flags?.truncated, true);
  });
  await t.step("the preview stands in once the file is gone", async () => {
    const out = await outputOf("tool_90ne0000000AbCdEf");
    ok(out?.text.startsWith(preview));
    ok(!out?.text.includes("axolotl"));
    equal(out?.flags?.truncated, true);
  });
  await t.step("only a tool_* file under tool-output/ is read", async () => {
    await Deno.writeTextFile(join(dataDir, "opencode.json"), "{}");
    const out = await outputOf("../opencode.json");
    ok(out?.text.startsWith(preview));
  });
});

Deno.test("opencode keeps a person's answers to the question tool as theirs", async () => {
  const path = await currentStore(await Deno.makeTempDir(), [{
    type: "tool",
    callID: "toolu_1",
    tool: "question",
    state: {
      status: "completed",
      input: {
        questions: [
          {
            question: "Which database should the backfill use?",
            header: "Backfill DB",
            options: [{ label: "prod", description: "prod" }, {
              label: "staging",
              description: "staging",
            }],
          },
          {
            question: "Which regions?",
            header: "Regions",
            options: [],
            multiple: true,
          },
          { question: "Notify the team?", header: "Notify", options: [] },
        ],
      },
      output:
        'User has answered your questions: "Which database should the backfill use?"="the caracal staging replica, refreshed nightly", "Which regions?"="eu-west, us-east", "Notify the team?"="Unanswered". You can now continue with the user\'s answers in mind.',
      title: "Asked 3 questions",
      metadata: {
        answers: [
          ["the caracal staging replica, refreshed nightly"],
          ["eu-west", "us-east"],
          [],
        ],
        truncated: false,
      },
      time: { start: T0 + 200_000, end: T0 + 260_000 },
    },
  }]);
  const { sessions } = await parseOpencodeDb(path, OPTIONS);
  const records = sessions[0]?.records ?? [];
  deepEqual(records.slice(1).map((r) => [r.role, r.time]), [
    ["tool-output", T0 + 260_000],
    ["user", T0 + 260_000],
  ]);
  equal(
    records[2]?.text,
    "Which database should the backfill use? → the caracal staging replica, refreshed nightly\nWhich regions? → eu-west, us-east",
  );
});

Deno.test("opencode keeps what a web tool fetched or searched as a command", async () => {
  const web = (tool: string, input: Record<string, unknown>) => ({
    type: "tool",
    callID: `toolu_${tool}`,
    tool,
    state: {
      status: "completed",
      input,
      output: "# Condor spec",
      metadata: { truncated: false },
      time: { start: T0 + 45_000, end: T0 + 46_000 },
    },
  });
  const path = await currentStore(await Deno.makeTempDir(), [
    web("webfetch", {
      url: "https://example.org/condor-spec",
      format: "markdown",
    }),
    web("websearch", { query: "condor idempotency keys", numResults: 8 }),
    web("webfetch", { format: "markdown" }),
  ]);
  const { sessions } = await parseOpencodeDb(path, OPTIONS);
  deepEqual(
    sessions[0]?.records.filter((r) => r.role === "command").map((r) => [
      r.tool,
      r.text,
      r.time,
    ]),
    [
      ["webfetch", "https://example.org/condor-spec", T0 + 45_000],
      ["websearch", "condor idempotency keys", T0 + 45_000],
    ],
  );
});

Deno.test("opencode reads the first releases' inline messages: tool invocations, errors, summaries", async () => {
  // v0.1–0.3 wrote `storage/session/message/<session>/<message>.json` with
  // its parts inline, tool calls as `tool-invocation` parts and the rest
  // (times, error, summary flag, cwd, per-call metadata) under `metadata`.
  const root = await Deno.makeTempDir();
  const s = join(root, "storage", "session");
  const t = 1750000000000;
  const tool = (id: string, name: string, args: unknown, result: string) => ({
    type: "tool-invocation",
    toolInvocation: {
      state: "result",
      toolCallId: id,
      toolName: name,
      args,
      result,
    },
  });
  await writeTree(s, {
    "info/ses_first.json": {
      id: "ses_first",
      title: "Tidy the ferry timetable",
      time: { created: t, updated: t + 9000 },
    },
    "message/ses_first/msg_0.json": {
      id: "msg_0",
      role: "system",
      parts: [{
        type: "text",
        text: "You are opencode, an agent SYSTEMPROMPT",
      }],
      metadata: { sessionID: "ses_first", time: { created: t }, tool: {} },
    },
    "message/ses_first/msg_1.json": {
      id: "msg_1",
      role: "user",
      parts: [{ type: "text", text: "why does the ferry test fail?" }],
      metadata: {
        sessionID: "ses_first",
        time: { created: t + 1000 },
        tool: {},
      },
    },
    "message/ses_first/msg_2.json": {
      id: "msg_2",
      role: "assistant",
      parts: [
        { type: "step-start" },
        { type: "text", text: "Running the tests." },
        tool("c1", "opencode_bash", { command: "bun test ferry" }, "1 fail"),
        tool("c2", "opencode_edit", {
          filePath: "/w/ferry/src/timetable.ts",
          oldString: "const LAST_SAILING = 22",
          newString: "const LAST_SAILING = 23",
        }, ""),
        tool(
          "c3",
          "opencode_read",
          { filePath: "/w/ferry/nope.ts" },
          "Error: ENOENT",
        ),
        {
          type: "tool-invocation",
          toolInvocation: {
            state: "call",
            toolCallId: "c4",
            toolName: "opencode_bash",
            args: { command: "bun test" },
          },
        },
      ],
      metadata: {
        sessionID: "ses_first",
        time: { created: t + 2000, completed: t + 5000 },
        assistant: {
          modelID: "claude-sonnet-4",
          providerID: "anthropic",
          path: { cwd: "/w/ferry", root: "/w/ferry" },
        },
        tool: {
          c1: {
            exit: 1,
            title: "bun test ferry",
            time: { start: t + 2100, end: t + 2900 },
          },
          c2: {
            title: "timetable.ts",
            time: { start: t + 3000, end: t + 3100 },
          },
          c3: {
            error: true,
            message: "Error: ENOENT: no such file /w/ferry/nope.ts",
            title: "Error",
            time: { start: t + 3200, end: t + 3300 },
          },
        },
      },
    },
    "message/ses_first/msg_3.json": {
      id: "msg_3",
      role: "assistant",
      parts: [],
      metadata: {
        sessionID: "ses_first",
        time: { created: t + 6000 },
        error: {
          name: "ProviderAuthError",
          data: { message: "invalid x-api-key" },
        },
        tool: {},
      },
    },
    "message/ses_first/msg_4.json": {
      id: "msg_4",
      role: "assistant",
      parts: [{ type: "text", text: "We fixed the last sailing time." }],
      metadata: {
        sessionID: "ses_first",
        time: { created: t + 7000 },
        assistant: {
          summary: true,
          path: { cwd: "/w/ferry", root: "/w/ferry" },
        },
        tool: {},
      },
    },
  });
  const { sessions, skipped } = await parseOpencodeStorageSession(
    join(s, "info", "ses_first.json"),
    OPTIONS,
  );
  equal(skipped, 0);
  const session = sessions[0];
  equal(session?.cwd, "/w/ferry");
  const records = session?.records ?? [];
  deepEqual(
    records.map((r) => [r.role, r.tool ?? null, r.text, r.exitCode ?? null]),
    [
      ["user", null, "why does the ferry test fail?", null],
      ["assistant", null, "Running the tests.", null],
      ["command", "bash", "bun test ferry", 1],
      ["tool-output", "bash", "1 fail", null],
      ["files", "edit", "/w/ferry/src/timetable.ts", null],
      [
        "edit",
        "edit",
        "/w/ferry/src/timetable.ts\nconst LAST_SAILING = 22",
        null,
      ],
      ["files", "read", "/w/ferry/nope.ts", null],
      [
        "tool-output",
        "read",
        "Error: ENOENT: no such file /w/ferry/nope.ts",
        null,
      ],
      ["command", "bash", "bun test", null],
      ["tool-output", "model", "invalid x-api-key", null],
      ["summary", null, "We fixed the last sailing time.", null],
    ],
  );
  deepEqual(records.map((r) => r.flags?.isError === true), [
    false,
    false,
    false,
    false,
    false,
    false,
    false,
    true,
    false,
    true,
    false,
  ]);
  // The call's own times, from its metadata.
  equal(records[2]?.time, t + 2100);
  equal(records[3]?.time, t + 2900);
});

Deno.test("opencode keeps the slash command a person ran, not its template", async () => {
  const root = await Deno.makeTempDir();
  const project = join(root, "work", "vole-api");
  const home = join(root, "home");
  await writeTree(root, {
    "work/vole-api/.opencode/command/triage.md":
      "---\ndescription: Triage an issue\nagent: build\n---\nRead issue $ARGUMENTS in the tracker.\nCurrent branch: !`git branch --show-current`\nList the failing specs and propose the smallest fix.\n",
    "home/.config/opencode/commands/release/notes.md":
      "Draft release notes from $1 to $2, grouped by area.",
    "home/.config/opencode/command/standup.md":
      "Summarise yesterday's commits for the standup.",
    // Too short to tell from a prompt a person types.
    "home/.config/opencode/command/fix.md": "Fix $ARGUMENTS",
  });
  const triage =
    "Read issue VOLE-212 flaky burrow spec in the tracker.\nCurrent branch: main\nList the failing specs and propose the smallest fix.";
  const user = (id: string, at: number, parts: unknown[]) => ({
    message: {
      id,
      session_id: "ses_cmd",
      time_created: at,
      time_updated: at,
      data: JSON.stringify({
        role: "user",
        time: { created: at },
        agent: "build",
        model: { providerID: "anthropic", modelID: "claude-sonnet-4-5" },
      }),
    },
    parts: parts.map((part, i) => ({
      id: `prt_${id}_${i}`,
      message_id: id,
      session_id: "ses_cmd",
      time_created: at,
      time_updated: at,
      data: JSON.stringify(part),
    })),
  });
  const turns = [
    user("msg_1", T0, [
      { type: "text", text: triage },
      {
        type: "file",
        mime: "text/plain",
        filename: "spec/burrow_spec.ts",
        url: "file:///work/vole-api/spec/burrow_spec.ts",
      },
    ]),
    user("msg_2", T0 + 1000, [{
      type: "text",
      text: "Draft release notes from v1.4.0 to v1.5.0, grouped by area.",
    }]),
    user("msg_3", T0 + 2000, [{
      type: "text",
      text:
        "Summarise yesterday's commits for the standup.\n\nonly the api repo",
    }]),
    user("msg_4", T0 + 3000, [{
      type: "subtask",
      agent: "general",
      description: "Triage an issue",
      command: "triage",
      model: { providerID: "anthropic", modelID: "claude-sonnet-4-5" },
      prompt:
        "Read issue VOLE-230 in the tracker.\nCurrent branch: main\nList the failing specs and propose the smallest fix.",
    }]),
    user("msg_5", T0 + 4000, [{
      type: "text",
      text: "Read issue VOLE-212 first, then fix it",
    }]),
    user("msg_6", T0 + 5000, [{ type: "text", text: "Fix the burrow spec" }]),
  ];
  const path = join(root, "opencode.db");
  await writeFixtureDb(path, CURRENT_SCHEMA, [
    {
      table: "session",
      rows: [{
        id: "ses_cmd",
        project_id: "prj",
        slug: "amber-vole",
        directory: project,
        title: "Vole triage",
        version: "1.18.5",
        time_created: T0,
        time_updated: T0 + 4000,
      }],
    },
    { table: "message", rows: turns.map((t) => t.message) },
    { table: "part", rows: turns.flatMap((t) => t.parts) },
  ]);
  const { sessions } = await parseOpencodeDb(path, {
    includeSubagents: true,
    source: linuxHome(home),
  });
  deepEqual(sessions[0]?.records.map((r) => [r.role, r.text]), [
    ["user", "/triage VOLE-212 flaky burrow spec"],
    // The file the person attached with the command's argument.
    ["files", "/work/vole-api/spec/burrow_spec.ts"],
    ["user", "/release/notes v1.4.0 v1.5.0"],
    ["user", "/standup only the api repo"],
    ["user", "/triage VOLE-230"],
    ["user", "Read issue VOLE-212 first, then fix it"],
    ["user", "Fix the burrow spec"],
  ]);
});

Deno.test("opencode 2.0: a command the person ran with ! and a failed step are kept", async () => {
  const path = join(await Deno.makeTempDir(), "opencode.db");
  const row = (id: string, seq: number, type: string, data: unknown) => ({
    id,
    session_id: "ses_v2_shell",
    type,
    seq,
    time_created: T0 + seq * 1000,
    time_updated: T0 + seq * 1000,
    data: JSON.stringify(data),
  });
  await writeFixtureDb(
    path,
    `CREATE TABLE session_v2 (id text PRIMARY KEY, project_id text NOT NULL, workspace_id text, parent_id text, fork_session_id text, fork_boundary text, slug text NOT NULL, directory text NOT NULL, path text, title text, version text NOT NULL, revert text, agent text, model text, time_created integer NOT NULL, time_updated integer NOT NULL, time_idle integer, idle_outcome text);
CREATE TABLE session_message (id text PRIMARY KEY, session_id text NOT NULL, type text NOT NULL, seq integer NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);`,
    [
      {
        table: "session_v2",
        rows: [{
          id: "ses_v2_shell",
          project_id: "prj",
          slug: "amber-vole",
          directory: "/home/dev/vole-api",
          title: "Vole migrations",
          version: "2.0.26",
          time_created: T0,
          time_updated: T0 + 5000,
        }],
      },
      {
        table: "session_message",
        rows: [
          row("msg_1", 1, "shell", {
            callID: "call_sh1",
            command: "deno task migrate --dry-run",
            output: 'error: relation "burrows" does not exist\n',
            time: { created: T0 + 1000, completed: T0 + 1800 },
          }),
          row("msg_2", 2, "user", {
            text: "why does the migration fail?",
            files: [],
            time: { created: T0 + 2000 },
          }),
          row("msg_3", 3, "assistant", {
            agent: "build",
            model: { providerID: "anthropic", id: "claude-sonnet-4-5" },
            content: [{ type: "text", text: "Checking the schema" }],
            finish: "error",
            error: {
              type: "unknown",
              message: "Provider returned 529: overloaded",
            },
            time: { created: T0 + 3000, completed: T0 + 3500 },
          }),
        ],
      },
    ],
  );
  const { sessions } = await parseOpencodeDb(path, OPTIONS);
  deepEqual(
    sessions[0]?.records.map((r) => [
      r.role,
      r.text,
      r.tool,
      r.flags?.isError ?? false,
      r.time,
    ]),
    [
      ["command", "deno task migrate --dry-run", "shell", false, T0 + 1000],
      [
        "tool-output",
        'error: relation "burrows" does not exist',
        "shell",
        false,
        T0 + 1800,
      ],
      ["user", "why does the migration fail?", undefined, false, T0 + 2000],
      ["assistant", "Checking the schema", undefined, false, T0 + 3000],
      [
        "tool-output",
        "Provider returned 529: overloaded",
        "model",
        true,
        T0 + 3000,
      ],
    ],
  );
});

Deno.test("opencode keeps a provider error opencode retried, once per run of it", async () => {
  const overloaded = (attempt: number, at: number) => ({
    type: "retry",
    attempt,
    error: {
      name: "APIError",
      data: {
        message: "Overloaded",
        statusCode: 529,
        isRetryable: true,
        responseBody: '{"type":"error","error":{"type":"overloaded_error"}}',
      },
    },
    time: { created: at },
  });
  const path = await currentStore(await Deno.makeTempDir(), [
    { type: "step-start", snapshot: "4b825dc6" },
    overloaded(1, T0 + 2000),
    overloaded(2, T0 + 4000),
    {
      type: "retry",
      attempt: 3,
      error: {
        name: "APIError",
        data: { message: "Rate limited", statusCode: 429, isRetryable: true },
      },
      time: { created: T0 + 8000 },
    },
    { type: "text", text: "The vole suite passes." },
  ]);
  const { sessions } = await parseOpencodeDb(path, OPTIONS);
  deepEqual(
    sessions[0]?.records.slice(1).map((r) => [
      r.role,
      r.text,
      r.tool,
      r.flags?.isError ?? false,
      r.time,
    ]),
    [
      [
        "tool-output",
        "Overloaded (APIError, HTTP 529)",
        "model",
        true,
        T0 + 2000,
      ],
      [
        "tool-output",
        "Rate limited (APIError, HTTP 429)",
        "model",
        true,
        T0 + 8000,
      ],
      ["assistant", "The vole suite passes.", undefined, false, T0 + 1000],
    ],
  );
});

Deno.test("opencode reads a built-in command's template back as /init or /review and its arguments", async (t) => {
  // Synthetic text around each template's fingerprints: its opening line and
  // the text either side of its arguments.
  const init2026 = (args: string) =>
    `Create or update \`AGENTS.md\` for this repository.\n\nKeep it to what an agent would get wrong.\n\nUser-provided focus or constraints (honor these):\n${args}\n\n## How to investigate\n\nRead the manifests first.`;
  const init2025 = (args: string) =>
    `Please analyze this codebase and create an AGENTS.md file containing:\n1. How to run one test\n\nIf there's already an AGENTS.md, improve it if it's located in /work/vole-api${
      args ? `\n\n${args}` : "\n\n"
    }`;
  const review = (args: string) =>
    `You are a code reviewer. Your job is to review code changes and provide actionable feedback.\n\n---\n\nInput: ${args}\n\n---\n\n## Determining What to Review\n\nRun \`git show ${args}\` for a commit.`;
  await t.step("builtinCommand() on each version", () => {
    const cases: Array<[string, string | undefined]> = [
      [
        init2026("the test runner and the release flow"),
        "/init the test runner and the release flow",
      ],
      [init2026(""), "/init"],
      [init2025("keep it short"), "/init keep it short"],
      [init2025(""), "/init"],
      [review("HEAD~2"), "/review HEAD~2"],
      [review(""), "/review"],
      // The opening alone, or another text, is what a person typed.
      ["Create or update `AGENTS.md` for this repository.", undefined],
      [
        "You are a code reviewer. Your job is to review code changes and provide actionable feedback.\n\nInput: my diff",
        undefined,
      ],
      [
        "Please analyze this codebase and create an AGENTS.md file containing: the commands",
        undefined,
      ],
      ["review HEAD~2 please", undefined],
    ];
    for (const [text, want] of cases) equal(builtinCommand(text), want, text);
  });
  await t.step("a user text part and a review subtask in a store", async () => {
    const root = await Deno.makeTempDir();
    const user = (id: string, at: number, part: unknown) => ({
      message: {
        id,
        session_id: "ses_builtin",
        time_created: at,
        time_updated: at,
        data: JSON.stringify({ role: "user", time: { created: at } }),
      },
      part: {
        id: `prt_${id}`,
        message_id: id,
        session_id: "ses_builtin",
        time_created: at,
        time_updated: at,
        data: JSON.stringify(part),
      },
    });
    const turns = [
      user("msg_1", T0, { type: "text", text: init2026("monorepo layout") }),
      user("msg_2", T0 + 1000, {
        type: "subtask",
        agent: "general",
        description:
          "review changes [commit|branch|pr], defaults to uncommitted",
        command: "review",
        prompt: review("feature/burrow"),
      }),
      user("msg_3", T0 + 2000, { type: "text", text: init2025("") }),
    ];
    const path = join(root, "opencode.db");
    await writeFixtureDb(path, CURRENT_SCHEMA, [
      {
        table: "session",
        rows: [{
          id: "ses_builtin",
          project_id: "prj",
          slug: "amber-vole",
          directory: join(root, "work"),
          title: "AGENTS.md",
          version: "1.18.5",
          time_created: T0,
          time_updated: T0 + 2000,
        }],
      },
      { table: "message", rows: turns.map((t) => t.message) },
      { table: "part", rows: turns.map((t) => t.part) },
    ]);
    const { sessions } = await parseOpencodeDb(path, {
      includeSubagents: true,
      source: linuxHome(join(root, "home")),
    });
    deepEqual(sessions[0]?.records.map((r) => [r.role, r.text]), [
      ["user", "/init monorepo layout"],
      ["user", "/review feature/burrow"],
      ["user", "/init"],
    ]);
  });
});

Deno.test("opencode keeps the files a person attached to a prompt (@file) as files", async () => {
  const attached = (extra: Record<string, unknown>) => ({
    type: "file",
    mime: "text/plain",
    ...extra,
  });
  const path = await currentStore(await Deno.makeTempDir(), [], [
    attached({
      filename: "vole.ts",
      url: "file:///home/dev/vole-api/src/vole%20core.ts",
      source: {
        type: "file",
        path: "src/vole core.ts",
        text: { value: "@src/vole core.ts", start: 4, end: 21 },
      },
    }),
    attached({
      filename: "burrow",
      url: "file:///home/dev/vole-api/src/burrow.ts?start=3&end=9",
      source: {
        type: "symbol",
        path: "/home/dev/vole-api/src/burrow.ts",
        name: "burrow",
        kind: 12,
        range: {},
        text: { value: "@burrow", start: 0, end: 7 },
      },
    }),
    attached({ url: "", source: { type: "file", path: "src/den.ts" } }),
    attached({
      mime: "application/x-directory",
      url: "file:///home/dev/vole-api/src",
    }),
    attached({
      mime: "image/png",
      filename: "shot.png",
      url: "data:image/png;base64,iVBORw0KGgo=",
    }),
    attached({ url: "file://" }),
    attached({ url: "file:///bad%ZZescape" }),
    attached({ source: "not a source" }),
    {
      type: "text",
      synthetic: true,
      text: "Called the Read tool with the following input",
    },
  ]);
  const { sessions } = await parseOpencodeDb(path, OPTIONS);
  deepEqual(
    sessions[0]?.records.filter((r) => r.role !== "assistant").map((r) => [
      r.role,
      r.tool,
      r.text,
      r.time,
    ]),
    [
      ["user", undefined, "run the vole suite", T0],
      ["files", "mention", "/home/dev/vole-api/src/vole core.ts", T0],
      ["files", "mention", "/home/dev/vole-api/src/burrow.ts", T0],
      ["files", "mention", "src/den.ts", T0],
    ],
  );
});
