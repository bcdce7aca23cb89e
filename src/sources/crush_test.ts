import { deepEqual, equal, ok, rejects } from "node:assert/strict";
import { join } from "node:path";
import { zstdCompressSync } from "node:zlib";
import { DejaError } from "../core/errors.ts";
import { crush, parseCrushDb } from "./crush.ts";
import {
  copyFile,
  linuxHome,
  parseHome,
  roleCounts,
  total,
  writeFixtureDb,
} from "./_store_test_kit.ts";
import { hasSamples, SAMPLES } from "./_test_kit.ts";

const FIXTURE = new URL("../../fixtures/crush", import.meta.url).pathname;
const SCHEMA = `
CREATE TABLE sessions (id TEXT PRIMARY KEY, parent_session_id TEXT, title TEXT NOT NULL, updated_at INTEGER NOT NULL, created_at INTEGER NOT NULL, summary_message_id TEXT);
CREATE TABLE messages (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, role TEXT NOT NULL, parts TEXT NOT NULL default '[]', model TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, finished_at INTEGER, provider TEXT);
`;

async function tempDb(
  messages: Array<Record<string, string | number | null>>,
  sessions: Array<Record<string, string | number | null>> = [
    { id: "s1", title: "t", created_at: 1767261600, updated_at: 1767261600 },
  ],
): Promise<string> {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "proj", ".crush", "crush.db");
  await writeFixtureDb(path, SCHEMA, [
    { table: "sessions", rows: sessions },
    { table: "messages", rows: messages },
  ]);
  return path;
}

function message(
  id: string,
  role: string,
  parts: unknown,
  at = 1767261600,
): Record<string, string | number | null> {
  return {
    id,
    session_id: "s1",
    role,
    parts: typeof parts === "string" ? parts : JSON.stringify(parts),
    created_at: at,
    updated_at: at,
  };
}

const SOURCE = linuxHome("/nonexistent");

Deno.test("crush discovers the fixture store in a project folder and parses it", async () => {
  const { files, sessions, skipped } = await parseHome(
    crush,
    linuxHome(FIXTURE),
  );
  deepEqual(
    files.map((f) => f.split("/").slice(-4).join("/")).sort(),
    ["code/tidepool/.crush/crush.db", "work/reefline/.crush/crush.db"],
  );
  equal(skipped, 0);
  const tidepool = sessions.filter((s) => s.project === "tidepool");
  equal(
    tidepool.length,
    2,
    "main + task sub-agent; the title- session is skipped",
  );
  const main = tidepool.find((s) => s.parent === undefined);
  const task = tidepool.find((s) => s.parent !== undefined);
  ok(main && task);
  deepEqual(roleCounts(main), {
    user: 1,
    assistant: 2,
    files: 3,
    "tool-output": 6,
    edit: 3,
    command: 2,
    summary: 1,
  });
  equal(main.project, "tidepool");
  equal(main.title, "Tide chart cache expiry");
  deepEqual(
    main.records.filter((r) => r.role === "command").map((r) => r.exitCode),
    [1, 0],
  );
  const failed = main.records.find((r) => r.flags?.isError);
  ok(failed?.text.startsWith("FAIL"));
  ok(!failed?.text.includes("<cwd>"), "the trailing <cwd> note is dropped");
  equal(
    main.records.find((r) => r.role === "edit")?.text,
    "/home/dev/code/tidepool/src/cache.ts\nexport const TTL_MS = 3_600_000;",
  );
  equal(main.records.at(-1)?.role, "summary");
  equal(main.started, 1767261600000);
  equal(task.lineage, "subagent");
  equal(task.parent, main.id);
  ok(task.records.every((r) => r.flags?.subagent));
  ok(
    !main.records.some((r) =>
      /reasoning|cache module first/.test(r.text) && r.role !== "assistant"
    ),
  );
});

const STORE_2026 = join(FIXTURE, "work/reefline/.crush/crush.db");
const SCHEMA_2026 = `
CREATE TABLE sessions (id TEXT PRIMARY KEY, parent_session_id TEXT, title TEXT NOT NULL, updated_at INTEGER NOT NULL, created_at INTEGER NOT NULL, todos TEXT);
CREATE TABLE messages (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, role TEXT NOT NULL, parts TEXT NOT NULL default '[]', created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, is_summary_message INTEGER DEFAULT 0 NOT NULL);
`;

function zstd(value: unknown): Uint8Array {
  return new Uint8Array(
    zstdCompressSync(new TextEncoder().encode(JSON.stringify(value))),
  );
}

Deno.test("crush reads the 2026 store: zstd parts, is_summary_message, hidden continuations", async () => {
  const { sessions, skipped } = await parseCrushDb(STORE_2026, {
    includeSubagents: true,
    source: SOURCE,
  });
  equal(skipped, 0);
  equal(sessions.length, 1);
  const s = sessions[0];
  ok(s);
  equal(s.title, "Negative depth readings");
  equal(s.project, "reefline");
  deepEqual(s.records.map((r) => [r.role, r.tool, r.exitCode, r.flags]), [
    ["user", undefined, undefined, undefined],
    ["assistant", undefined, undefined, undefined],
    ["command", "bash", 0, undefined],
    ["tool-output", "bash", undefined, undefined],
    ["files", "edit", undefined, undefined],
    ["edit", "edit", undefined, undefined],
    ["tool-output", "edit", undefined, undefined],
    ["tool-output", "mcp_sensors_list_stations", undefined, { isError: true }],
    ["assistant", undefined, undefined, undefined],
    ["summary", undefined, undefined, undefined],
  ]);
  equal(s.records[2]?.text, "rg -n 'depth <' src");
  ok(!s.records.some((r) => r.text.includes("remaining steps")), "hidden");
  ok(!s.records.some((r) => r.text.includes("Find the depth filter")));
  equal(s.started, 1789200000000);
});

Deno.test("crush counts a torn or hostile compressed row and reads the rest", async () => {
  const good = zstd([{ type: "text", data: { text: "keep me" } }]);
  const path = join(await Deno.makeTempDir(), "p", ".crush", "crush.db");
  const row = (id: string, parts: string | Uint8Array, summary = 0) => ({
    id,
    session_id: "s1",
    role: "user",
    parts,
    created_at: 1789200000,
    updated_at: 1789200000,
    is_summary_message: summary,
  });
  await writeFixtureDb(path, SCHEMA_2026, [
    {
      table: "sessions",
      rows: [{ id: "s1", title: "t", created_at: 1789200000, updated_at: 1 }],
    },
    {
      table: "messages",
      rows: [
        row("a", good.subarray(0, good.length - 3)),
        row("b", new Uint8Array([0x28, 0xb5, 0x2f, 0xfd, 1, 2, 3, 4, 5])),
        row("c", zstd({ not: "a list" })),
        row(
          "d",
          new Uint8Array(zstdCompressSync(new Uint8Array([0xff, 0xfe]))),
        ),
        row("e", good, 7),
        row("f", "[]", 1),
      ],
    },
  ]);
  const { sessions, skipped } = await parseCrushDb(path, {
    includeSubagents: true,
    source: SOURCE,
  });
  equal(skipped, 4);
  deepEqual(sessions[0]?.records.map((r) => [r.role, r.text]), [
    ["user", "keep me"],
  ]);
});

Deno.test("crush leaves sub-agent sessions out when asked to", async () => {
  const { sessions } = await parseHome(crush, linuxHome(FIXTURE), false);
  equal(sessions.length, 2);
  ok(sessions.every((s) => s.parent === undefined));
});

Deno.test("crush finds stores named by projects.json and under project folders", async () => {
  const home = await Deno.makeTempDir();
  const listed = join(home, "elsewhere", "api");
  await writeFixtureDb(join(listed, ".crush", "crush.db"), SCHEMA, []);
  await writeFixtureDb(
    join(home, "repos", "a", "b", ".crush", "crush.db"),
    SCHEMA,
    [],
  );
  await writeFixtureDb(
    join(home, "repos", "a", "b", "c", "d", ".crush", "crush.db"),
    SCHEMA,
    [],
  );
  await Deno.mkdir(join(home, "data", "crush"), { recursive: true });
  await Deno.writeTextFile(
    join(home, "data", "crush", "projects.json"),
    JSON.stringify({
      projects: [
        {
          path: listed,
          data_dir: join(listed, ".crush"),
          last_accessed: "2026-01-01T00:00:00Z",
        },
        { path: "/gone", data_dir: "/gone/.crush" },
        "junk",
      ],
    }),
  );
  const found = await crush.discover(
    linuxHome(home, { XDG_DATA_HOME: join(home, "data") }),
  );
  deepEqual(found, [
    join(listed, ".crush", "crush.db"),
    join(home, "repos", "a", "b", ".crush", "crush.db"),
  ]);
});

Deno.test("crush names an unknown schema and never reads it as empty", async (t) => {
  const dir = await Deno.makeTempDir();
  await t.step("empty file", async () => {
    const path = join(dir, "empty.db");
    await Deno.writeFile(path, new Uint8Array());
    await rejects(
      parseCrushDb(path, { includeSubagents: true, source: SOURCE }),
      (e: unknown) =>
        e instanceof DejaError && e.code === "SRC-E002" &&
        /Unknown Crush schema in ".*empty\.db": missing table "sessions"/.test(
          e.message,
        ),
    );
  });
  await t.step("missing messages table", async () => {
    const path = join(dir, "half.db");
    await writeFixtureDb(
      path,
      "CREATE TABLE sessions (id TEXT, title TEXT);",
      [],
    );
    await rejects(
      parseCrushDb(path, { includeSubagents: true, source: SOURCE }),
      /missing table "messages"/,
    );
  });
  await t.step("garbage bytes", async () => {
    const path = join(dir, "garbage.db");
    await Deno.writeFile(path, crypto.getRandomValues(new Uint8Array(8192)));
    await rejects(
      parseCrushDb(path, { includeSubagents: true, source: SOURCE }),
      (e: unknown) => e instanceof DejaError && e.code === "SRC-E001",
    );
  });
  await t.step("truncated database", async () => {
    const copy = await copyFile(join(FIXTURE, "code/tidepool/.crush/crush.db"));
    const bytes = await Deno.readFile(copy);
    await Deno.writeFile(copy, bytes.subarray(0, 4096 + 100));
    await parseCrushDb(copy, { includeSubagents: true, source: SOURCE }).then(
      () => {},
      (e: unknown) => {
        ok(e instanceof DejaError && e.code === "SRC-E001", String(e));
        ok(/damaged/.test(String(e)), String(e));
      },
    );
  });
});

Deno.test("crush survives hostile rows", async () => {
  const deep = "[".repeat(100_000) + "]".repeat(100_000);
  const path = await tempDb([
    message("a", "user", "not json"),
    message("b", "user", '{"type":"text"}'),
    message("c", "user", [1, "x", null, { type: "text", data: 5 }, {
      type: "text",
      data: { text: ["no"] },
    }]),
    message("d", "assistant", deep),
    message("e", "assistant", [{
      type: "tool_call",
      data: { name: "bash", input: "{bad" },
    }]),
    message("f", "tool", [{
      type: "tool_result",
      data: { tool_call_id: 7, content: { x: 1 } },
    }]),
    message(
      "g",
      "user",
      [{ type: "text", data: { text: "still here" } }],
      9e18,
    ),
    message("h", "assistant", [{
      type: "text",
      data: { text: "x".repeat(200_000) },
    }]),
  ]);
  const { sessions, skipped } = await parseCrushDb(path, {
    includeSubagents: true,
    source: SOURCE,
  });
  ok(skipped >= 3);
  equal(sessions.length, 1);
  equal(total(sessions, "user"), 1);
  const long = sessions[0]?.records.find((r) => r.role === "assistant");
  equal(long?.flags?.truncated, true, "an oversized text is cut and flagged");
});

Deno.test("crush parses the real sample store", {
  ignore: !hasSamples("crush"),
}, async () => {
  const copy = await copyFile(
    join(SAMPLES, "crush/chex-mix-timer/.crush/crush.db"),
  );
  const { sessions, skipped } = await parseCrushDb(copy, {
    includeSubagents: true,
    source: SOURCE,
  });
  equal(skipped, 0);
  equal(sessions.length, 1);
  // Counted by reading the messages table: 23 user and 24 assistant
  // messages carry a text part; 242 bash calls among 324 tool calls.
  equal(total(sessions, "user"), 23);
  equal(total(sessions, "assistant"), 24);
  equal(total(sessions, "command"), 242);
  equal(sessions[0]?.title, "Unsubscribe Push Notifications Button");
});

Deno.test("crush reads bang-mode shell commands and failed or refused turns", async () => {
  const path = await tempDb([
    message("u1", "user", [
      { type: "text", data: { text: "why is the build red" } },
      {
        type: "shell_command",
        data: {
          command: "make lint",
          output: "\u001b[31mlint.go:3: unused import\u001b[0m\n",
          exit_code: 2,
        },
      },
      { type: "finish", data: { reason: "stop", time: 1767261600 } },
    ], 1767261600),
    message("a1", "assistant", [
      { type: "reasoning", data: { thinking: "look at the import" } },
      {
        type: "finish",
        data: {
          reason: "error",
          time: 1767261601,
          message: "Provider error",
          details: "429 rate limited",
        },
      },
    ], 1767261601),
    message("u2", "user", [{
      type: "shell_command",
      data: { command: "  ", output: "", exit_code: 0 },
    }, { type: "shell_command", data: { command: "git status" } }], 1767261602),
    message("a2", "assistant", [
      { type: "text", data: { text: "I can't help with that." } },
      { type: "finish", data: { reason: "content_filter", time: 1767261603 } },
    ], 1767261603),
    message("a3", "assistant", [
      { type: "text", data: { text: "Stopped." } },
      { type: "finish", data: { reason: "canceled", time: 1767261604 } },
    ], 1767261604),
  ]);
  const { sessions, skipped } = await parseCrushDb(path, {
    includeSubagents: true,
    source: SOURCE,
  });
  equal(skipped, 0);
  deepEqual(
    sessions[0]?.records.map((r) => [
      r.role,
      r.text,
      r.tool,
      r.exitCode,
      r.flags?.isError,
    ]),
    [
      ["user", "why is the build red", undefined, undefined, undefined],
      ["command", "make lint", "shell", 2, undefined],
      ["tool-output", "lint.go:3: unused import", "shell", undefined, true],
      [
        "tool-output",
        "Provider error\n429 rate limited",
        "model",
        undefined,
        true,
      ],
      ["command", "git status", "shell", undefined, undefined],
      ["assistant", "I can't help with that.", undefined, undefined, undefined],
      ["tool-output", "refused (content_filter)", "model", undefined, true],
      ["assistant", "Stopped.", undefined, undefined, undefined],
    ],
  );
});

Deno.test("crush flags a command's output as an error when it exited non-zero", async () => {
  // Crush's bash tool answers a failed command with a plain (not is_error)
  // result ending in `Exit code N`; a `!` command keeps its exit_code.
  const path = await tempDb([
    message("a1", "assistant", [
      {
        type: "tool_call",
        data: {
          id: "call_1",
          name: "bash",
          input: JSON.stringify({ command: "go test ./...", description: "t" }),
          finished: true,
        },
      },
    ], 1767261600),
    message("t1", "tool", [
      {
        type: "tool_result",
        data: {
          tool_call_id: "call_1",
          name: "bash",
          content:
            "--- FAIL: TestTide (0.00s)\nFAIL\nExit code 1\n\n<cwd>/home/dev/code/tidepool</cwd>",
          metadata: JSON.stringify({
            working_directory: "/home/dev/code/tidepool",
          }),
          is_error: false,
        },
      },
    ], 1767261601),
    message("u1", "user", [
      {
        type: "shell_command",
        data: { command: "make lint", output: "unused import\n", exit_code: 2 },
      },
    ], 1767261602),
  ]);
  const { sessions } = await parseCrushDb(path, {
    includeSubagents: true,
    source: SOURCE,
  });
  deepEqual(
    sessions[0]?.records.map((r) => [r.role, r.exitCode, r.flags?.isError]),
    [
      ["command", 1, undefined],
      ["tool-output", undefined, true],
      ["command", 2, undefined],
      ["tool-output", undefined, true],
    ],
  );
});
