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
  vscodeUserDirs,
} from "./_cline_family.ts";
import { cline } from "./cline.ts";
import { hasSamples, sampleDir, tempFileAt } from "./_test_kit.ts";

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
    "user,assistant,files,assistant,files,edit,assistant,command,tool-output,assistant,assistant,user,assistant",
  );
  const command = s.records.find((r) => r.role === "command");
  equal(command?.text, "npm test -- health.test.ts");
  equal(command?.exitCode, 1);
  const output = s.records.find((r) => r.role === "tool-output");
  ok(output?.text.startsWith("> ledger-api@1.4.0 test"));
  ok(output?.text.includes("AssertionError"));
  equal(
    s.records.find((r) => r.role === "edit")?.text,
    "src/routes/health.ts\n  await db.ping();\n  res.json({ ok: true });",
  );
  const completion = s.records[10];
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
    // completion_result.
    const expected: Array<[string, number, number, number]> = [
      ["cline-xray/ui_messages.json", 2, 3, 1],
      ["cline-xray/task_sample/ui_messages.json", 7, 57, 6],
    ];
    for (const [file, users, replies, commands] of expected) {
      await t.step(file, async () => {
        const path = `${SAMPLES}/${file}`;
        equal(cline.kinds[0]?.match(path), true);
        const result = await parseUiMessages(path, opts, FAMILY);
        equal(result.skipped, 0);
        const s = only(result);
        const n = (role: string) =>
          s.records.filter((r) => r.role === role).length;
        equal(n("user"), users);
        equal(n("assistant"), replies);
        equal(n("command"), commands);
        ok(s.cwd && s.project.length > 0);
        ok(!s.records.some((r) => r.text.includes("<environment_details>")));
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
