import { deepEqual, equal, ok } from "node:assert/strict";
import { fileURLToPath } from "node:url";
import type { ParseOptions, ParseResult, SourceEnv } from "../core/harness.ts";
import type { Session } from "../core/types.ts";
import {
  commandExitCode,
  discoverTaskFiles,
  extensionStorageDirs,
  parseApiHistory,
  parseSdkMessages,
  parseUiMessages,
  removedBlocks,
} from "./_cline_family.ts";
import { vscodeUserDirs } from "./_roots.ts";
import { cline } from "./cline.ts";
import { hasSamples, sampleDir, tempFileAt } from "./_test_kit.ts";
import type { SessionRecord } from "../core/types.ts";

const FIXTURE_HOME = fileURLToPath(
  new URL("../../fixtures/cline", import.meta.url),
);
const STORAGE =
  `${FIXTURE_HOME}/.config/Code/User/globalStorage/saoudrizwan.claude-dev`;
const UI_TASK = `${STORAGE}/tasks/1769001000000/ui_messages.json`;
const API_TASK = `${STORAGE}/tasks/1769002000000/api_conversation_history.json`;
const SDK =
  `${FIXTURE_HOME}/.cline/data/sessions/sess_01JQ8ZK4/sess_01JQ8ZK4.messages.json`;
const SAMPLES = sampleDir("cline");
const FAMILY = { harness: "cline", extensionId: "saoudrizwan.claude-dev" };

const source: SourceEnv = { home: FIXTURE_HOME, env: {}, os: "linux" };
const opts: ParseOptions = { includeSubagents: true, source };

function only(result: ParseResult): Session {
  equal(result.sessions.length, 1);
  return result.sessions[0] as Session;
}

function roles(session: Session): string {
  return session.records.map((r) => r.role).join(",");
}

function taskFile(name: string, value: unknown): Promise<string> {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return tempFileAt(`tasks/t1/${name}`, text);
}

Deno.test("cline.discover() yields one file per task plus the SDK sessions", async () => {
  const found = await cline.discover(source);
  deepEqual(found, [UI_TASK, API_TASK, SDK]);
  deepEqual(found.map((p) => cline.kinds.find((k) => k.match(p))?.id), [
    "ui-messages",
    "api-history",
    "sdk-messages",
  ]);
});

Deno.test("cline roots follow the OS, the host list and the overrides", async (t) => {
  await t.step("per OS", () => {
    equal(
      vscodeUserDirs({ home: "/h", env: {}, os: "darwin" })[3],
      "/h/Library/Application Support/Cursor/User",
    );
    equal(
      vscodeUserDirs({
        home: "C:/Users/a",
        env: { APPDATA: "C:/R" },
        os: "windows",
      })[4],
      "C:/R/Windsurf/User",
    );
    ok(
      vscodeUserDirs({ home: "/h", env: {}, os: "linux" }).includes(
        "/h/.vscode-server/data/User",
      ),
    );
  });
  await t.step("the VS Code forks", async () => {
    for (
      const host of [
        "Code - OSS",
        "Antigravity",
        "Kiro",
        "Trae",
        "Trae CN",
        "Void",
        "Positron",
      ]
    ) {
      ok(
        vscodeUserDirs({ home: "/h", env: {}, os: "linux" }).includes(
          `/h/.config/${host}/User`,
        ),
        host,
      );
      ok(
        vscodeUserDirs({ home: "/h", env: {}, os: "darwin" }).includes(
          `/h/Library/Application Support/${host}/User`,
        ),
        host,
      );
      ok(
        vscodeUserDirs({ home: "/h", env: { APPDATA: "/r" }, os: "windows" })
          .includes(`/r/${host}/User`),
        host,
      );
    }
    const home = await Deno.makeTempDir();
    const task =
      `${home}/.config/Antigravity/User/globalStorage/saoudrizwan.claude-dev/tasks/1/ui_messages.json`;
    await Deno.mkdir(task.replace("/ui_messages.json", ""), {
      recursive: true,
    });
    await Deno.writeTextFile(task, "[]");
    deepEqual(await cline.discover({ home, env: {}, os: "linux" }), [task]);
    equal(
      extensionStorageDirs({
        home: "/h",
        env: { XDG_CONFIG_HOME: "/x" },
        os: "linux",
      }, "e")[1],
      "/x/Code - Insiders/User/globalStorage/e",
    );
  });
  await t.step("overrides", () => {
    deepEqual(
      cline.roots({
        home: "/h",
        env: { DEJA_CLINE_ROOTS: "/a:/b", CLINE_DIR: "/c" },
        os: "linux",
      }),
      ["/a", "/b", "/c/data"],
    );
    deepEqual(
      cline.roots({
        home: "/h",
        env: { DEJA_CLINE_ROOTS: "/a", CLINE_SESSION_DATA_DIR: "/s" },
        os: "linux",
      }),
      ["/a", "/h/.cline/data", "/s"],
    );
  });
  await t.step("forks' paths are not Cline's", () => {
    const kind = cline.kinds[0];
    equal(
      kind?.match("/x/rooveterinaryinc.roo-cline/tasks/t/ui_messages.json"),
      false,
    );
    equal(kind?.match("/x/kilocode.kilo-code/tasks/t/ui_messages.json"), false);
    equal(
      kind?.match("/x/saoudrizwan.claude-dev/tasks/t/ui_messages.json"),
      true,
    );
  });
});

Deno.test("parseUiMessages() reads the fixture task", async () => {
  const s = only(await parseUiMessages(UI_TASK, opts, FAMILY));
  equal(s.id, "1769001000000");
  equal(s.cwd, "/home/dev/projects/ledger-api");
  equal(s.project, "ledger-api");
  ok(s.title?.startsWith("The /health endpoint returns 500"));
  equal(
    roles(s),
    "user,assistant,files,tool-output,assistant,files,edit,assistant,command,tool-output,assistant,assistant,user,assistant,assistant",
  );
  const command = s.records.find((r) => r.role === "command");
  equal(command?.text, "npm test -- health.test.ts");
  equal(command?.exitCode, 1);
  const output = s.records.find((r) =>
    r.tool === "execute_command" && r.role === "tool-output"
  );
  ok(output?.text.startsWith("> ledger-api@1.4.0 test"));
  ok(output?.text.includes("AssertionError"));
  equal(
    s.records.find((r) => r.tool === "read_file")?.text,
    "export async function health(req, res) {\n  await db.ping();\n  res.json({ ok: true });\n}",
  );
  equal(
    s.records.find((r) => r.role === "edit")?.text,
    "src/routes/health.ts\n  await db.ping();\n  res.json({ ok: true });",
  );
  equal(s.records.at(-1)?.text, "Catch ping errors\nLog at warn");
  const completion = s.records[11];
  ok(completion?.text.endsWith("when the database ping fails."));
  ok(
    !s.records.some((r) => r.text.includes("pool error")),
    "reasoning left out",
  );
  equal(s.records[0]?.time, 1769001000000);
  equal(s.records[0]?.locator.recordId, "0");
});

Deno.test("parseApiHistory() reads a legacy task and defers to ui_messages.json", async (t) => {
  await t.step("legacy task", async () => {
    const s = only(await parseApiHistory(API_TASK, opts, FAMILY));
    equal(
      roles(s),
      "user,assistant,tool-output,assistant,files,edit,tool-output,command,tool-output,assistant,user,assistant",
    );
    equal(
      s.records[0]?.text,
      "Rename the `fmtMoney` helper to `formatMoney` everywhere.",
    );
    equal(s.cwd, "/home/dev/projects/ledger-api");
    equal(
      s.records[2]?.text,
      "Found 2 results.\n\nsrc/money.ts\nsrc/invoice.ts",
    );
    equal(s.records[7]?.text, "npx tsc --noEmit");
    equal(s.records[7]?.exitCode, 2);
    equal(s.records[10]?.text, "fix invoice.ts as well");
    ok(!s.records.some((r) => r.text.includes("<thinking>")));
    ok(!s.records.some((r) => r.text.includes("environment_details")));
    // No per-message ts: the task start plus a second per message.
    equal(s.records[0]?.time, 1769002000000);
    equal(s.records[1]?.time, 1769002001000);
  });
  await t.step("a task with ui_messages.json is read from there", async () => {
    const sibling = UI_TASK.replace(
      "ui_messages.json",
      "api_conversation_history.json",
    );
    deepEqual(await parseApiHistory(sibling, opts, FAMILY), {
      sessions: [],
      skipped: 0,
    });
  });
  await t.step("native tool_use blocks", async () => {
    const path = await taskFile("api_conversation_history.json", [
      {
        role: "user",
        ts: 1,
        content: [{ type: "text", text: "<task>\nbump deps\n</task>" }],
      },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Running the update." },
          {
            type: "tool_use",
            id: "t1",
            name: "execute_command",
            input: { command: "npm update" },
          },
        ],
      },
      {
        role: "user",
        content: [{
          type: "tool_result",
          tool_use_id: "t1",
          is_error: true,
          content: [{ type: "text", text: "npm ERR! code E404\nExit code: 1" }],
        }],
      },
    ]);
    const s = only(await parseApiHistory(path, opts, FAMILY));
    equal(roles(s), "user,assistant,command,tool-output");
    equal(s.records[2]?.exitCode, 1);
    equal(s.records[3]?.flags?.isError, true);
  });
});

Deno.test("parseSdkMessages() reads a CLI session and its manifest", async (t) => {
  await t.step("fixture", async () => {
    const s = only(await parseSdkMessages(SDK, opts, "cline"));
    equal(s.id, "sess_01JQ8ZK4");
    equal(s.title, "Migration script hangs");
    equal(s.project, "ledger-api");
    equal(
      roles(s),
      "user,assistant,command,tool-output,files,assistant,files,edit,tool-output,user",
    );
    equal(s.records[0]?.text, "why does the migration script hang?");
    equal(s.records[2]?.exitCode, 124);
    equal(s.records[3]?.flags?.isError, true);
    equal(s.records[7]?.text, "scripts/migrate.js\nawait migrate(pool);");
    equal(s.started, Date.parse("2026-01-22T14:02:11.000Z"));
  });
  await t.step("sub-agent file", async () => {
    const dir = await Deno.makeTempDir();
    const path = `${dir}/s2.messages.json`;
    await Deno.writeTextFile(
      path,
      JSON.stringify({
        sessionId: "s2",
        agent: "explorer",
        origin: { sessionId: "s1" },
        messages: [{
          role: "user",
          content: [{ type: "text", text: "map the repo" }],
        }],
      }),
    );
    equal(
      (await parseSdkMessages(
        path,
        { ...opts, includeSubagents: false },
        "cline",
      )).sessions.length,
      0,
    );
    const s = only(await parseSdkMessages(path, opts, "cline"));
    equal(s.parent, "s1");
    equal(s.lineage, "subagent");
    equal(s.records[0]?.flags?.subagent, true);
  });
});

Deno.test("removedBlocks() and commandExitCode() read the family's diff and result wordings", async (t) => {
  const cases: Array<[string, string, string[]]> = [
    [
      "Cline markers",
      "------- SEARCH\na\n=======\nb\n+++++++ REPLACE\n------- SEARCH\nc\n=======\nd\n+++++++ REPLACE",
      ["a", "c"],
    ],
    ["classic markers", "<<<<<<< SEARCH\nold\n=======\nnew\n>>>>>>> REPLACE", [
      "old",
    ]],
    [
      "Roo line header",
      "<<<<<<< SEARCH\n:start_line:4\n-------\nx\n=======\ny\n>>>>>>> REPLACE",
      ["x"],
    ],
    [
      "unified diff",
      "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n-gone\n+new\n ctx\n@@ -9 +9 @@\n-also",
      ["gone", "also"],
    ],
    ["whole content", "just the new file", []],
  ];
  for (const [name, diff, want] of cases) {
    await t.step(name, () => deepEqual(removedBlocks(diff), want));
  }
  equal(commandExitCode("Command executed.\nExit Code: 3\nOutput:"), 3);
  equal(commandExitCode("Command executed.\nOutput:\nok"), undefined);
});

Deno.test("parseUiMessages() and parseApiHistory() survive broken and hostile files", async (t) => {
  const cases: Array<[string, string, number]> = [
    ["truncated document", '[{"ts":1,"type":"say","say":"task","text":"hel', 1],
    ["not an array", '{"ts":1}', 1],
    [
      "garbage bytes",
      String.fromCharCode(...crypto.getRandomValues(new Uint8Array(2048))),
      1,
    ],
    ["deep nesting", "[".repeat(100_000) + "]".repeat(100_000), 1],
    [
      "wrong types",
      JSON.stringify([
        1,
        null,
        "s",
        { type: "say" },
        { type: 5, say: "text" },
        { ts: "x", type: "say", say: "text", text: 12 },
        { ts: 2, type: "say", say: "tool", text: "{not json" },
        {
          ts: 3,
          type: "ask",
          ask: "tool",
          text: JSON.stringify({
            tool: "editedExistingFile",
            path: 9,
            batchDiffs: "x",
          }),
        },
        {
          ts: 4,
          type: "say",
          say: "api_req_started",
          text: JSON.stringify({ request: 7 }),
        },
        {
          ts: 5,
          type: "ask",
          ask: "followup",
          text: JSON.stringify({ question: ["q"] }),
        },
        { ts: 6, type: "say", say: "condense_context", contextCondense: "no" },
        { role: "user", content: 5 },
        {
          role: "assistant",
          content: [{ type: "tool_use", name: 3, input: "x" }, {
            type: "text",
            text: ["t"],
          }],
        },
        {
          role: "user",
          content: [{ type: "tool_result", tool_use_id: 4, content: { a: 1 } }],
        },
      ]),
      -1,
    ],
  ];
  for (const [name, text, skipped] of cases) {
    await t.step(name, async () => {
      for (
        const file of ["ui_messages.json", "api_conversation_history.json"]
      ) {
        const path = await taskFile(file, text);
        const result = file === "ui_messages.json"
          ? await parseUiMessages(path, opts, FAMILY)
          : await parseApiHistory(path, opts, FAMILY);
        if (skipped >= 0) equal(result.skipped, skipped, `${file}`);
        else ok(result.skipped > 0);
        for (const s of result.sessions) {
          for (const r of s.records) equal(typeof r.text, "string");
        }
      }
    });
  }
  await t.step("oversized record is capped", async () => {
    const path = await taskFile("ui_messages.json", [
      { ts: 1, type: "say", say: "task", text: "q".repeat(200_000) },
    ]);
    const s = only(await parseUiMessages(path, opts, FAMILY));
    equal(s.records[0]?.flags?.truncated, true);
  });
});

Deno.test({
  name:
    "parseUiMessages() reads the real Cline samples with the counts a reader gets",
  ignore: !hasSamples("cline"),
  fn: async (t) => {
    // Counted by reading the files: user turns are the task plus each
    // user_feedback; assistant turns are say:text after the first request
    // (a message the panel repeated verbatim counts once) and each
    // completion_result; plans are the task_progress lists that add an item
    // (2 of 4 and 12 of 78); reads are the `[read_file for …] Result:`
    // blocks of the requests (26, one per readFile row); searches the
    // searchFiles rows.
    const expected: Array<
      [string, number, number, number, number, number, number]
    > = [
      ["cline-xray/ui_messages.json", 2, 3, 2, 1, 0, 0],
      ["cline-xray/task_sample/ui_messages.json", 7, 57, 12, 6, 26, 2],
    ];
    for (
      const [file, users, replies, plans, commands, reads, searches] of expected
    ) {
      await t.step(file, async () => {
        const path = `${SAMPLES}/${file}`;
        equal(cline.kinds[0]?.match(path), true);
        const result = await parseUiMessages(path, opts, FAMILY);
        equal(result.skipped, 0);
        const s = only(result);
        const n = (role: string) =>
          s.records.filter((r) => r.role === role).length;
        const tool = (name: string) =>
          s.records.filter((r) => r.tool === name).length;
        equal(n("user"), users);
        equal(n("assistant") - tool("task_progress"), replies);
        equal(tool("task_progress"), plans);
        equal(n("command") - tool("searchFiles") / 2, commands);
        equal(tool("read_file"), reads);
        equal(tool("searchFiles"), searches * 2);
        ok(s.cwd && s.project.length > 0);
        // Files the agent read (SUBTASK_FIX.md, a task's API history) quote
        // environment details themselves.
        ok(
          !s.records.some((r) =>
            r.tool !== "read_file" &&
            /<environment_details>|# Current Mode/.test(r.text)
          ),
        );
        ok(!s.records.some((r) => r.text.endsWith("REQ_APP")));
        ok(!s.records.some((r) => r.text.endsWith("HAS_CHANGES")));
      });
    }
  },
});

Deno.test("discoverTaskFiles() prefers ui_messages.json and skips missing roots", async () => {
  const root = await Deno.makeTempDir();
  await Deno.mkdir(`${root}/tasks/a`, { recursive: true });
  await Deno.mkdir(`${root}/tasks/b`, { recursive: true });
  await Deno.writeTextFile(
    `${root}/tasks/a/api_conversation_history.json`,
    "[]",
  );
  await Deno.writeTextFile(`${root}/tasks/a/ui_messages.json`, "[]");
  await Deno.writeTextFile(
    `${root}/tasks/b/api_conversation_history.json`,
    "[]",
  );
  deepEqual(discoverTaskFiles(["/nope", root]), [
    `${root}/tasks/a/ui_messages.json`,
    `${root}/tasks/b/api_conversation_history.json`,
  ]);
});

Deno.test("Claude Dev's claude_messages.json is read as the task's panel messages", async (t) => {
  const root = await Deno.makeTempDir();
  const dir = `${root}/saoudrizwan.claude-dev/tasks/1725000000000`;
  await Deno.mkdir(dir, { recursive: true });
  await Deno.mkdir(`${root}/saoudrizwan.claude-dev/state`);
  await Deno.writeTextFile(
    `${root}/saoudrizwan.claude-dev/state/taskHistory.json`,
    JSON.stringify([{
      id: "1725000000000",
      ts: 1725000000000,
      task: "make the fan curve quieter",
      shadowGitConfigWorkTree: "/home/dev/fanctl",
    }]),
  );
  await Deno.writeTextFile(
    `${dir}/api_conversation_history.json`,
    JSON.stringify([{
      role: "user",
      content: "<task>\nmake it quieter\n</task>",
    }]),
  );
  const legacy = `${dir}/claude_messages.json`;
  await Deno.writeTextFile(
    legacy,
    JSON.stringify([
      {
        ts: 1725000000000,
        type: "say",
        say: "text",
        text: "make the fan curve quieter",
      },
      { ts: 1725000001000, type: "say", say: "api_req_started", text: "{}" },
      {
        ts: 1725000002000,
        type: "say",
        say: "text",
        text: "Lowering the 60 °C point.",
      },
      {
        ts: 1725000003000,
        type: "ask",
        ask: "tool",
        text: JSON.stringify({
          tool: "editedExistingFile",
          path: "curve.toml",
          diff: "@@ -1 +1 @@\n-t60 = 80\n+t60 = 55",
        }),
      },
      {
        ts: 1725000004000,
        type: "say",
        say: "completion_result",
        text: "Done.",
      },
    ]),
  );
  await t.step("discovery picks it over the API history", () => {
    deepEqual(discoverTaskFiles([`${root}/saoudrizwan.claude-dev`]), [legacy]);
    ok(cline.kinds.some((k) => k.id === "ui-messages" && k.match(legacy)));
  });
  await t.step(
    "it parses like ui_messages.json, with the work tree as cwd",
    async () => {
      const s = only(await parseUiMessages(legacy, opts, FAMILY));
      equal(roles(s), "user,assistant,files,edit,assistant");
      equal(s.cwd, "/home/dev/fanctl");
      equal(s.records[0]?.time, 1725000000000);
      equal(
        (await parseApiHistory(
          `${dir}/api_conversation_history.json`,
          opts,
          FAMILY,
        ))
          .sessions.length,
        0,
      );
    },
  );
  await t.step("ui_messages.json, when both exist, wins", async () => {
    await Deno.writeTextFile(`${dir}/ui_messages.json`, "[]");
    equal((await parseUiMessages(legacy, opts, FAMILY)).sessions.length, 0);
    deepEqual(discoverTaskFiles([`${root}/saoudrizwan.claude-dev`]), [
      `${dir}/ui_messages.json`,
    ]);
  });
});

/** A record's role, tool, text and error flag, for comparing at a glance. */
function brief(r: SessionRecord | undefined): string {
  return `${r?.role} ${r?.tool ?? "-"}${
    r?.flags?.isError ? " !" : ""
  }: ${r?.text}`;
}

Deno.test("parseUiMessages() keeps errors, failed API requests and failed hooks as error output", async () => {
  const path = await taskFile("ui_messages.json", [
    { ts: 1, type: "say", say: "task", text: "archive the stale invoices" },
    {
      ts: 2,
      type: "say",
      say: "error",
      text: "Failed to connect to MCP server ledger: ENOSPC",
    },
    {
      ts: 3,
      type: "ask",
      ask: "api_req_failed",
      text: '429 {"error":{"message":"rate limited"}}',
    },
    {
      ts: 4,
      type: "ask",
      ask: "api_req_failed",
      text: '429 {"error":{"message":"rate limited"}}',
    },
    {
      ts: 5,
      type: "say",
      say: "hook_status",
      text: JSON.stringify({
        hookName: "PostToolUse",
        toolName: "execute_command",
        status: "failed",
        exitCode: 2,
        error: {
          type: "execution",
          message: "lint-guard.sh rejected the command",
          details: "exit 2",
        },
      }),
    },
    {
      ts: 6,
      type: "say",
      say: "hook_status",
      text: JSON.stringify({ hookName: "PreToolUse", status: "completed" }),
    },
  ]);
  const s = only(await parseUiMessages(path, opts, FAMILY));
  deepEqual(s.records.map(brief), [
    "user -: archive the stale invoices",
    "tool-output cline !: Failed to connect to MCP server ledger: ENOSPC",
    'tool-output model !: 429 {"error":{"message":"rate limited"}}',
    "tool-output hook !: PostToolUse hook on execute_command failed\nlint-guard.sh rejected the command\nexit 2",
  ]);
});

Deno.test("parseUiMessages() keeps sub-agent prompts and results, hand-offs and MCP calls", async () => {
  const path = await taskFile("ui_messages.json", [
    { ts: 1, type: "say", say: "task", text: "harden the retry policy" },
    {
      ts: 2,
      type: "ask",
      ask: "use_subagents",
      text: JSON.stringify({
        prompts: ["audit the retry budget", "list callers"],
      }),
    },
    {
      ts: 3,
      type: "say",
      say: "subagent",
      partial: true,
      text: JSON.stringify({ status: "running", items: [] }),
    },
    {
      ts: 4,
      type: "say",
      say: "subagent",
      partial: false,
      text: JSON.stringify({
        status: "failed",
        total: 3,
        items: [
          {
            index: 1,
            prompt: "audit the retry budget",
            status: "completed",
            result: "unbounded: cap it at 4",
          },
          {
            index: 2,
            prompt: "list callers",
            status: "failed",
            error: "Subagent run cancelled.",
          },
          {
            index: 3,
            prompt: "check the backoff",
            status: "completed",
            result: "no jitter",
          },
        ],
      }),
    },
    {
      ts: 5,
      type: "ask",
      ask: "use_mcp_server",
      text: JSON.stringify({
        serverName: "ledger",
        type: "use_mcp_tool",
        toolName: "query_invoices",
        arguments: '{\n  "olderThanDays": 90\n}',
      }),
    },
    {
      ts: 6,
      type: "say",
      say: "mcp_server_response",
      text: "3 stale invoices",
    },
    {
      ts: 7,
      type: "say",
      say: "use_mcp_server",
      text: JSON.stringify({
        serverName: "docs",
        type: "access_mcp_resource",
        uri: "docs://retry",
      }),
    },
    {
      ts: 8,
      type: "ask",
      ask: "new_task",
      text: "Context: retries are capped; next, migrate the pump.",
    },
  ]);
  const s = only(await parseUiMessages(path, opts, FAMILY));
  deepEqual(s.records.map(brief), [
    "user -: harden the retry policy",
    "assistant -: audit the retry budget",
    "assistant -: list callers",
    "assistant -: check the backoff",
    "tool-output use_subagents: unbounded: cap it at 4",
    "tool-output use_subagents !: Subagent run cancelled.",
    "tool-output use_subagents: no jitter",
    'command mcp__ledger__query_invoices: ledger query_invoices {"olderThanDays":90}',
    "tool-output mcp__ledger__query_invoices: 3 stale invoices",
    "command mcp__docs: docs docs://retry",
    "summary -: Context: retries are capped; next, migrate the pump.",
  ]);
});

Deno.test("parseUiMessages() flags a failed command's output and reads Cline's exit-code wordings", async () => {
  const path = await taskFile("ui_messages.json", [
    { ts: 1, type: "say", say: "task", text: "fix the eviction" },
    { ts: 2, type: "ask", ask: "command", text: "pnpm vitest run marmot" },
    { ts: 3, type: "ask", ask: "command_output", text: "FAIL marmot.spec.ts" },
    {
      ts: 4,
      type: "say",
      say: "api_req_started",
      text: JSON.stringify({
        request:
          "[execute_command for 'pnpm vitest run marmot'] Result:\nCommand failed with exit code 3.\nOutput:\nFAIL marmot.spec.ts",
      }),
    },
    { ts: 5, type: "say", say: "command", text: "pnpm lint" },
    { ts: 6, type: "say", say: "command_output", text: "0 problems" },
    {
      ts: 7,
      type: "say",
      say: "api_req_started",
      text: JSON.stringify({
        request:
          "[execute_command for 'pnpm lint'] Result:\nCommand executed successfully (exit code 0).\nOutput:\n0 problems",
      }),
    },
  ]);
  const s = only(await parseUiMessages(path, opts, FAMILY));
  deepEqual(s.records.map((r) => [r.role, r.exitCode, r.flags?.isError]), [
    ["user", undefined, undefined],
    ["command", 3, undefined],
    ["tool-output", undefined, true],
    ["command", 0, undefined],
    ["tool-output", undefined, undefined],
  ]);
});

Deno.test("parseApiHistory() flags failed commands, names MCP calls, keeps sub-agent prompts and hand-offs", async () => {
  const path = await taskFile("api_conversation_history.json", [
    {
      role: "user",
      content: [{ type: "text", text: "<task>\nmake lint pass\n</task>" }],
    },
    {
      role: "assistant",
      content: [{
        type: "tool_use",
        id: "t1",
        name: "execute_command",
        input: { command: "make lint" },
      }],
    },
    {
      role: "user",
      content: [{
        type: "tool_result",
        tool_use_id: "t1",
        content: [{
          type: "text",
          text: "Command failed with exit code 2.\nOutput:\nunused import",
        }],
      }],
    },
    {
      role: "assistant",
      content: [{
        type: "text",
        text:
          '<use_mcp_tool>\n<server_name>github</server_name>\n<tool_name>create_issue</tool_name>\n<arguments>{"title": "lint"}</arguments>\n</use_mcp_tool>',
      }, {
        type: "tool_use",
        id: "t2",
        name: "use_subagents",
        input: { prompt_1: "find the unused imports", prompt_2: "check CI" },
      }],
    },
    {
      role: "user",
      content: [{
        type: "tool_result",
        tool_use_id: "t2",
        content: "Subagent results:\nTotal: 2",
      }],
    },
    {
      role: "assistant",
      content: [{
        type: "text",
        text:
          "<new_task>\n<context>Lint is clean; next, the CI cache.</context>\n</new_task>",
      }, {
        type: "tool_use",
        id: "t3",
        name: "new_task",
        input: { mode: "code", message: "Cache the Go modules in CI" },
      }],
    },
  ]);
  const s = only(await parseApiHistory(path, opts, FAMILY));
  deepEqual(s.records.map(brief), [
    "user -: make lint pass",
    "command execute_command: make lint",
    "tool-output execute_command !: Command failed with exit code 2.\nOutput:\nunused import",
    'command mcp__github__create_issue: github create_issue {"title":"lint"}',
    "assistant -: find the unused imports",
    "assistant -: check CI",
    "tool-output use_subagents: Subagent results:\nTotal: 2",
    "summary -: Lint is clean; next, the CI cache.",
    "assistant -: Cache the Go modules in CI",
  ]);
  equal(s.records[1]?.exitCode, 2);
});

Deno.test("parseSdkMessages() reads run_commands, read_files and apply_patch as the CLI writes them", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/s1.messages.json`;
  await Deno.writeTextFile(
    path,
    JSON.stringify({
      sessionId: "s1",
      agent: "lead",
      messages: [
        {
          role: "user",
          content: [{ type: "text", text: "fix the signature check" }],
        },
        {
          role: "assistant",
          content: [{
            type: "tool_use",
            id: "c1",
            name: "run_commands",
            input: {
              commands: JSON.stringify(["go vet ./...", "go test ./webhook"]),
            },
          }, {
            type: "tool_use",
            id: "c2",
            name: "read_files",
            input: { file_paths: JSON.stringify(["webhook/fixtures.json"]) },
          }, {
            type: "tool_use",
            id: "c4",
            name: "run_commands",
            input: { commands: ["make build"] },
          }, {
            type: "tool_use",
            id: "c3",
            name: "apply_patch",
            input: {
              input:
                "*** Begin Patch\n*** Update File: webhook/sig.go\n@@\n-\treturn legacyDigest(p)\n+\treturn sha256Digest(p)\n*** Add File: webhook/new.go\n+package webhook\n*** End Patch",
            },
          }],
        },
        {
          role: "user",
          content: [{
            type: "tool_result",
            tool_use_id: "c1",
            content: [{ query: "go vet ./...", result: "", success: true }, {
              query: "go test ./webhook",
              result: "FAIL",
              error: "Command failed with exit code 1.",
              success: false,
            }],
          }, {
            type: "tool_result",
            tool_use_id: "c4",
            is_error: true,
            content: "Command failed with exit code 2.",
          }, { type: "tool_result", tool_use_id: "c3", content: "Done" }],
        },
      ],
    }),
  );
  const s = only(await parseSdkMessages(path, opts, "cline"));
  deepEqual(
    s.records.map(brief),
    [
      "user -: fix the signature check",
      "command run_commands: go vet ./...",
      "command run_commands: go test ./webhook",
      "files read_files: webhook/fixtures.json",
      "command run_commands: make build",
      "files apply_patch: webhook/sig.go",
      "edit apply_patch: webhook/sig.go\n\treturn legacyDigest(p)",
      "files apply_patch: webhook/new.go",
      "tool-output run_commands !: FAIL\nCommand failed with exit code 1.",
      "tool-output run_commands !: Command failed with exit code 2.",
      "tool-output apply_patch: Done",
    ],
  );
  deepEqual(
    s.records.filter((r) => r.role === "command").map((r) => r.exitCode),
    [0, 1, 2],
  );
});

Deno.test("parseSdkMessages() links a sub-agent to the session that spawned it, never to itself", async (t) => {
  const dir = await Deno.makeTempDir();
  const write = async (
    stem: string,
    messages: Record<string, unknown>,
    manifest?: string,
  ) => {
    await Deno.mkdir(`${dir}/${stem}`, { recursive: true });
    const path = `${dir}/${stem}/${stem}.messages.json`;
    await Deno.writeTextFile(
      path,
      JSON.stringify({
        ...messages,
        messages: [{
          role: "user",
          content: [{ type: "text", text: "find the callers" }],
        }],
      }),
    );
    if (manifest !== undefined) {
      await Deno.writeTextFile(`${dir}/${stem}/${stem}.json`, manifest);
    }
    return path;
  };
  await t.step("the manifest names the parent", async () => {
    const path = await write(
      "sub1",
      { sessionId: "sub1", agent: "subagent" },
      JSON.stringify({
        session_id: "sub1",
        parent_session_id: "lead1",
        cwd: "/w/kestrel",
      }),
    );
    const s = only(await parseSdkMessages(path, opts, "cline"));
    deepEqual([s.id, s.parent, s.lineage, s.project], [
      "sub1",
      "lead1",
      "subagent",
      "kestrel",
    ]);
  });
  await t.step("nothing names a parent", async () => {
    const path = await write("sub2", { sessionId: "sub2", agent: "subagent" });
    const s = only(await parseSdkMessages(path, opts, "cline"));
    deepEqual([s.id, s.parent, s.lineage], ["sub2", undefined, undefined]);
    equal(s.records[0]?.flags?.subagent, true);
  });
  await t.step("a file beside its lead's, with the lead's id", async () => {
    const path = `${dir}/sub1/sub1.explorer.messages.json`;
    await Deno.writeTextFile(
      path,
      JSON.stringify({
        sessionId: "sub1",
        agent: "explorer",
        messages: [{ role: "user", content: "map the repo" }],
      }),
    );
    const s = only(await parseSdkMessages(path, opts, "cline"));
    deepEqual([s.id, s.parent], ["sub1:explorer", "sub1"]);
  });
  await t.step("a manifest that cannot be read is counted", async () => {
    const path = await write(
      "lead2",
      { sessionId: "lead2", agent: "lead" },
      "{torn",
    );
    const result = await parseSdkMessages(path, opts, "cline");
    equal(result.skipped, 1);
    equal(only(result).project, "");
  });
});

Deno.test("a corrupt state/taskHistory.json is counted as skipped", async () => {
  const root = await Deno.makeTempDir();
  const dir = `${root}/saoudrizwan.claude-dev/tasks/1773738000000`;
  await Deno.mkdir(dir, { recursive: true });
  await Deno.mkdir(`${root}/saoudrizwan.claude-dev/state`);
  await Deno.writeTextFile(
    `${root}/saoudrizwan.claude-dev/state/taskHistory.json`,
    '[{"id": "1773738000000", "cwdOnTaskInit',
  );
  await Deno.writeTextFile(
    `${dir}/ui_messages.json`,
    JSON.stringify([{
      ts: 1,
      type: "say",
      say: "task",
      text: "rename the bean",
    }]),
  );
  const result = await parseUiMessages(`${dir}/ui_messages.json`, opts, FAMILY);
  equal(result.skipped, 1);
  equal(only(result).cwd, undefined);
});

Deno.test("parseApiHistory() reads a long text of unclosed tags in one pass", async () => {
  // Each of these lazy regexes read on to the end of the text from every
  // open tag with no close after it: minutes for these 500 KB texts.
  const unclosed = (tag: string) =>
    `${tag} `.repeat(500_000 / (tag.length + 1));
  const path = await taskFile("api_conversation_history.json", [
    {
      role: "user",
      content: [{
        type: "text",
        text: `<task>\nread the log\n</task>${unclosed("<user_input")}`,
      }],
    },
    {
      role: "assistant",
      content: [{
        type: "text",
        text: `the log is clean ${unclosed("<think>")}${
          unclosed("<read_file>")
        }`,
      }, { type: "tool_use", id: "t1", name: "read_file", input: {} }],
    },
    {
      role: "user",
      content: [{
        type: "tool_result",
        tool_use_id: "t1",
        content: [{ type: "text", text: `${unclosed("<feedback>")}done` }],
      }],
    },
  ]);
  const s = only(await parseApiHistory(path, opts, FAMILY));
  deepEqual(s.records.map((r) => r.role), ["user", "assistant", "tool-output"]);
  equal(s.records[0]?.text, "read the log");
  ok(s.records[1]?.text.startsWith("the log is clean <think>"));
  ok(s.records[2]?.text.endsWith("done"));
});

Deno.test("parseUiMessages() reads Cline's compaction summary, permission refusals, failed edits and a command's own exit code", async () => {
  const path = await taskFile("ui_messages.json", [
    { ts: 1, type: "say", say: "task", text: "tidy the heron importer" },
    {
      ts: 2,
      type: "say",
      say: "tool",
      partial: true,
      text: JSON.stringify({ tool: "summarizeTask", content: "So far: the" }),
    },
    {
      ts: 3,
      type: "say",
      say: "tool",
      text: JSON.stringify({
        tool: "summarizeTask",
        content: "So far: the heron importer skips blank rows.",
      }),
    },
    {
      ts: 4,
      type: "say",
      say: "command_permission_denied",
      text: 'Command "rm -rf build" was denied by CLINE_COMMAND_PERMISSIONS.',
    },
    { ts: 5, type: "say", say: "diff_error", text: "src/heron.ts" },
    {
      ts: 6,
      type: "ask",
      ask: "command",
      text: "deno test heron",
      commandStatus: "failed",
      exitCode: 4,
    },
    { ts: 7, type: "ask", ask: "command_output", text: "1 failed" },
    { ts: 8, type: "say", say: "command", text: "deno fmt" },
    { ts: 9, type: "say", say: "command_output", text: "ok", exitCode: 0 },
  ]);
  const s = only(await parseUiMessages(path, opts, FAMILY));
  deepEqual(s.records.map(brief), [
    "user -: tidy the heron importer",
    "summary -: So far: the heron importer skips blank rows.",
    'tool-output execute_command !: Command "rm -rf build" was denied by CLINE_COMMAND_PERMISSIONS.',
    "tool-output edit !: src/heron.ts",
    "command execute_command: deno test heron",
    "tool-output execute_command !: 1 failed",
    "command execute_command: deno fmt",
    "tool-output execute_command: ok",
  ]);
  deepEqual(
    s.records.filter((r) => r.role === "command").map((r) => r.exitCode),
    [4, 0],
  );
});

Deno.test("parseApiHistory() keeps a summarize_task or condense context as a summary, not its result", async () => {
  const path = await taskFile("api_conversation_history.json", [
    {
      role: "user",
      content: [{
        type: "text",
        text: "<task>\nport the kiln scheduler\n</task>",
      }],
    },
    {
      role: "assistant",
      content: [{
        type: "tool_use",
        id: "s1",
        name: "summarize_task",
        input: { context: "Kiln scheduler ported up to the cron parser." },
      }],
    },
    {
      role: "user",
      content: [{
        type: "tool_result",
        tool_use_id: "s1",
        content: "Kiln scheduler ported up to the cron parser.\n\nContinue.",
      }],
    },
    {
      role: "assistant",
      content: [{
        type: "text",
        text:
          "<condense>\n<context>The cron parser is done too.</context>\n</condense>",
      }],
    },
    {
      role: "user",
      content: [{
        type: "text",
        text: "[condense] Result:\nThe cron parser is done too.",
      }],
    },
  ]);
  const s = only(await parseApiHistory(path, opts, FAMILY));
  deepEqual(s.records.map(brief), [
    "user -: port the kiln scheduler",
    "summary -: Kiln scheduler ported up to the cron parser.",
    "summary -: The cron parser is done too.",
  ]);
});

Deno.test("parseUiMessages() keeps a request whose stream failed as error output of the model, not one the person cancelled", async () => {
  const path = await taskFile("ui_messages.json", [
    { ts: 1, type: "say", say: "task", text: "split the tapir service" },
    {
      ts: 2,
      type: "say",
      say: "api_req_started",
      text: JSON.stringify({
        request: "<task>split the tapir service</task>",
        cancelReason: "streaming_failed",
        streamingFailedMessage:
          '{"message":"socket hang up","code":"ECONNRESET"}',
      }),
    },
    {
      ts: 3,
      type: "say",
      say: "error_retry",
      text: JSON.stringify({ attempt: 1, maxAttempts: 3, delaySeconds: 2 }),
    },
    {
      ts: 4,
      type: "say",
      say: "api_req_started",
      text: JSON.stringify({
        request: "retry",
        cancelReason: "user_cancelled",
        streamingFailedMessage: "Request cancelled by user",
      }),
    },
    { ts: 5, type: "say", say: "text", text: "Splitting it in two." },
  ]);
  const s = only(await parseUiMessages(path, opts, FAMILY));
  deepEqual(s.records.map(brief), [
    "user -: split the tapir service",
    'tool-output model !: {"message":"socket hang up","code":"ECONNRESET"}',
    "assistant -: Splitting it in two.",
  ]);
});

Deno.test("parseUiMessages() keeps a failed condense and a path the ignore file refused as error output", async () => {
  const path = await taskFile("ui_messages.json", [
    { ts: 1, type: "say", say: "task", text: "audit the puffin secrets" },
    { ts: 2, type: "say", say: "clineignore_error", text: ".env.production" },
    { ts: 3, type: "say", say: "rooignore_error", text: "secrets/puffin.key" },
    {
      ts: 4,
      type: "say",
      say: "condense_context_error",
      text: "Failed to condense context: 500 upstream error",
    },
  ]);
  const s = only(await parseUiMessages(path, opts, FAMILY));
  deepEqual(s.records.map(brief), [
    "user -: audit the puffin secrets",
    "tool-output clineignore !: .env.production",
    "tool-output rooignore !: secrets/puffin.key",
    "tool-output model !: Failed to condense context: 500 upstream error",
  ]);
});

Deno.test("parseUiMessages() and parseApiHistory() keep a web fetch's URL and a web search's query as commands", async (t) => {
  await t.step(
    "ui_messages.json webFetch and webSearch tool rows",
    async () => {
      const path = await taskFile("ui_messages.json", [
        { ts: 1, type: "say", say: "task", text: "find the kestrel changelog" },
        {
          ts: 2,
          type: "ask",
          ask: "tool",
          partial: true,
          text: JSON.stringify({ tool: "webSearch", path: "kestrel chang" }),
        },
        {
          ts: 3,
          type: "say",
          say: "tool",
          text: JSON.stringify({
            tool: "webSearch",
            path: "kestrel changelog 4.2",
            content: "Searching for: kestrel changelog 4.2",
            operationIsLocatedInWorkspace: false,
          }),
        },
        {
          ts: 4,
          type: "ask",
          ask: "tool",
          text: JSON.stringify({
            tool: "webFetch",
            path: "https://kestrel.example/changelog",
            content: "Fetching URL: https://kestrel.example/changelog",
            operationIsLocatedInWorkspace: false,
          }),
        },
      ]);
      const s = only(await parseUiMessages(path, opts, FAMILY));
      deepEqual(s.records.map(brief), [
        "user -: find the kestrel changelog",
        "command web_search: kestrel changelog 4.2",
        "command web_fetch: https://kestrel.example/changelog",
      ]);
    },
  );
  await t.step(
    "api_conversation_history.json web_fetch and web_search calls",
    async () => {
      const path = await taskFile("api_conversation_history.json", [
        {
          role: "user",
          content: [{
            type: "text",
            text: "<task>\nfind the kestrel changelog\n</task>",
          }],
        },
        {
          role: "assistant",
          content: [
            {
              type: "tool_use",
              id: "s1",
              name: "web_search",
              input: { query: "kestrel changelog 4.2" },
            },
            {
              type: "tool_use",
              id: "f1",
              name: "web_fetch",
              input: { url: "https://kestrel.example/changelog" },
            },
          ],
        },
        {
          role: "user",
          content: [
            {
              type: "tool_result",
              tool_use_id: "s1",
              content: "Search completed (1 results found)",
            },
            {
              type: "tool_result",
              tool_use_id: "f1",
              content: "Fetched Markdown for https://kestrel.example/changelog",
            },
          ],
        },
      ]);
      const s = only(await parseApiHistory(path, opts, FAMILY));
      deepEqual(s.records.map(brief), [
        "user -: find the kestrel changelog",
        "command web_search: kestrel changelog 4.2",
        "command web_fetch: https://kestrel.example/changelog",
        "tool-output web_search: Search completed (1 results found)",
        "tool-output web_fetch: Fetched Markdown for https://kestrel.example/changelog",
      ]);
    },
  );
});

Deno.test("parseUiMessages() keeps task_progress items as the agent's plan, each once", async () => {
  const progress = (ts: number, text: string) => ({
    ts,
    type: "say",
    say: "task_progress",
    text,
  });
  const path = await taskFile("ui_messages.json", [
    { ts: 1, type: "say", say: "task", text: "migrate the walrus schema" },
    progress(2, "- [ ] Dump walrus tables\n- [ ] Write walrus migration"),
    // The same list again, then with an item ticked and one added.
    progress(3, "- [ ] Dump walrus tables\n- [ ] Write walrus migration"),
    progress(
      4,
      "- [x] Dump walrus tables\n- [ ] Write walrus migration\n\n- [ ] Run walrus tests",
    ),
    // Nothing new, and an empty list: no record.
    progress(5, "- [x] Run walrus tests"),
    progress(6, ""),
    { ts: 7, type: "say", say: "text", text: "Dumped the walrus tables." },
  ]);
  const s = only(await parseUiMessages(path, opts, FAMILY));
  deepEqual(s.records.map(brief), [
    "user -: migrate the walrus schema",
    "assistant task_progress: Dump walrus tables\nWrite walrus migration",
    "assistant task_progress: Run walrus tests",
    "assistant -: Dumped the walrus tables.",
  ]);
  equal(s.records[1]?.locator.recordId, "1");
});

Deno.test("parseUiMessages() keeps the text a read returned from the next request", async (t) => {
  const request = (ts: number, text: string) => ({
    ts,
    type: "say",
    say: "api_req_started",
    text: JSON.stringify({ request: text }),
  });
  const env =
    "<environment_details>\n# Current Working Directory (/w/yak) Files\nyak.py\n</environment_details>";
  await t.step("each read's text, up to the next block", async () => {
    const path = await taskFile("ui_messages.json", [
      { ts: 1, type: "say", say: "task", text: "why does the yak shaver hang" },
      request(2, `<task>\nwhy does the yak shaver hang\n</task>\n\n${env}`),
      {
        ts: 3,
        type: "say",
        say: "tool",
        text: JSON.stringify({ tool: "readFile", path: "yak.py" }),
      },
      request(
        4,
        [
          "[read_file for 'yak.py'] Result:\ndef shave(yak):\n\n    while yak.hair:\n        pass",
          "[read_file for 'docs/yak notes.md'] Result:\n# Yak notes\n\nA line that names [read_file for 'x'] Result: mid-text.",
          "[replace_in_file for 'yak.py'] Result:\nThe content was successfully saved to yak.py.",
          "[read_file for 'gone.py'] Result:\nThe tool execution failed with the following error:\n<error>\nError reading file: ENOENT\n</error>",
          "[read_file for 'empty.py'] Result:",
          "[read_file for 'last.py'] Result:\nLAST = 1",
          "The user has provided feedback on the results.",
          "<feedback>\nlook at the loop\n</feedback>",
          env,
        ].join("\n\n"),
      ),
    ]);
    const s = only(await parseUiMessages(path, opts, FAMILY));
    deepEqual(s.records.map(brief), [
      "user -: why does the yak shaver hang",
      "files readFile: yak.py",
      "tool-output read_file: def shave(yak):\n\n    while yak.hair:\n        pass",
      "tool-output read_file: # Yak notes\n\nA line that names [read_file for 'x'] Result: mid-text.",
      "tool-output read_file !: The tool execution failed with the following error:\n<error>\nError reading file: ENOENT\n</error>",
      "tool-output read_file: LAST = 1",
    ]);
    equal(s.records[2]?.locator.recordId, "3");
  });
  await t.step("a request with no read adds nothing", async () => {
    const path = await taskFile("ui_messages.json", [
      { ts: 1, type: "say", say: "task", text: "tidy the yak pen" },
      request(
        2,
        `[execute_command for 'ls'] Result:\nCommand executed.\nOutput:\npen.txt\n\n<file_content path="a.json">\n[{"text":"[read_file for 'x'] Result:\\nnot a read"}]\n</file_content>\n\n${env}`,
      ),
    ]);
    deepEqual(
      only(await parseUiMessages(path, opts, FAMILY)).records.map(brief),
      [
        "user -: tidy the yak pen",
      ],
    );
  });
});

Deno.test("parseUiMessages() keeps a file search as a command and its matches as output", async () => {
  const search = (
    ts: number,
    fields: Record<string, unknown>,
    partial?: boolean,
  ) => ({
    ts,
    type: "say",
    say: "tool",
    text: JSON.stringify({ tool: "searchFiles", ...fields }),
    ...(partial === undefined ? {} : { partial }),
  });
  const path = await taskFile("ui_messages.json", [
    { ts: 1, type: "say", say: "task", text: "where is the gnu router" },
    search(2, { path: "src", regex: "gnu_rout" }, true),
    search(3, {
      path: "src",
      regex: "gnu_router|GnuRoute",
      filePattern: "*.rs",
      content:
        'Found 1 result.\n\nsrc/server.rs\n│----\n│    .route("/gnu", gnu_router)\n│----',
      operationIsLocatedInWorkspace: true,
    }),
    search(4, { path: "src", regex: "wildebeest" }),
    // No regex: nothing to keep.
    search(5, { path: "src", content: "Found 0 results." }),
  ]);
  const s = only(await parseUiMessages(path, opts, FAMILY));
  deepEqual(s.records.map(brief), [
    "user -: where is the gnu router",
    "command searchFiles: gnu_router|GnuRoute src *.rs",
    'tool-output searchFiles: Found 1 result.\n\nsrc/server.rs\n│----\n│    .route("/gnu", gnu_router)\n│----',
    "command searchFiles: wildebeest src",
  ]);
  // Roo Code and Kilo Code write the same rows, read by the same code.
  const roo = only(
    await parseUiMessages(path, opts, {
      harness: "roo",
      extensionId: "rooveterinaryinc.roo-cline",
    }),
  );
  deepEqual(roo.records.map(brief), s.records.map(brief));
});
