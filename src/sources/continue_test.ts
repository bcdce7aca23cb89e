import { deepEqual, equal, ok } from "node:assert/strict";
import { fileURLToPath } from "node:url";
import type { ParseOptions, SourceEnv } from "../core/harness.ts";
import { continueDev, parseContinueSession } from "./continue.ts";
import { roles, tempFileAt } from "./_test_kit.ts";

const FIXTURE_HOME = fileURLToPath(
  new URL("../../fixtures/continue", import.meta.url),
);
const SESSIONS = `${FIXTURE_HOME}/.continue/sessions`;
const CSV = "6f0c7e52-2b7d-4d3e-9a51-0c8f4b2e7d19";
const SINCE = "1d2e3f40-5a6b-4c7d-8e9f-a0b1c2d3e4f5";
const CLI = "9a7b6c5d-4e3f-4a2b-8c1d-0e9f8a7b6c5d";

const source: SourceEnv = { home: FIXTURE_HOME, env: {}, os: "linux" };
const opts: ParseOptions = { includeSubagents: true, source };

function sessionFile(value: unknown): Promise<string> {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return tempFileAt("sessions/s.json", text);
}

Deno.test("continueDev.discover() lists session documents, not the list", async () => {
  deepEqual(await continueDev.discover(source), [
    `${SESSIONS}/${SINCE}.json`,
    `${SESSIONS}/${CSV}.json`,
    `${SESSIONS}/${CLI}.json`,
  ]);
  equal(continueDev.kinds[0]?.match(`${SESSIONS}/sessions.json`), false);
  deepEqual(
    continueDev.roots({
      home: "/h",
      env: { CONTINUE_GLOBAL_DIR: "/c" },
      os: "linux",
    }),
    ["/c/sessions"],
  );
});

Deno.test("parseContinueSession() reads messages, tool calls, results and errors", async () => {
  const { sessions, skipped } = await parseContinueSession(
    `${SESSIONS}/${CSV}.json`,
    opts,
  );
  equal(skipped, 0);
  const s = sessions[0];
  equal(s?.id, CSV);
  equal(s?.title, "Fix CSV export quoting");
  equal(s?.cwd, "/home/dev/projects/report-kit");
  equal(s?.project, "report-kit");
  equal(s?.started, 1769500000000);
  equal(
    roles(s),
    "user,assistant,files,edit,tool-output,command,tool-output,assistant,user,assistant",
  );
  const r = s?.records ?? [];
  equal(
    r[3]?.text,
    'src/export/csv.ts\n  return rows.map((r) => r.join(",")).join("\\n");',
  );
  equal(r[5]?.text, "npm test -- csv");
  equal(r[5]?.exitCode, 1);
  equal(r[6]?.flags?.isError, true);
  ok(!r.some((x) => x.text.includes("RFC 4180")), "thinking left out");
  ok(
    !r.some((x) => x.text.includes("export function toCsv")),
    "context items left out",
  );
  ok(r.every((x) => x.time === undefined));
});

Deno.test("parseContinueSession() takes the title from sessions.json for an unnamed chat", async () => {
  const { sessions } = await parseContinueSession(
    `${SESSIONS}/${SINCE}.json`,
    opts,
  );
  equal(sessions[0]?.title, "What --since accepts");
  equal(roles(sessions[0]), "user,assistant");
});

Deno.test("parseContinueSession() reads summaries, tool messages and diffs", async () => {
  const path = await sessionFile({
    sessionId: "s",
    workspaceDirectory: "file:///C:/work/app%20one",
    history: [
      {
        message: {
          role: "user",
          content: [{ type: "text", text: "go" }, {
            type: "imageUrl",
            imageUrl: { url: "data:" },
          }],
        },
      },
      {
        message: {
          role: "assistant",
          content: "",
          toolCalls: [{
            id: "c1",
            function: {
              name: "search_and_replace_in_file",
              arguments: JSON.stringify({
                filepath: "a.ts",
                diffs: ["<<<<<<< SEARCH\nold\n=======\nnew\n>>>>>>> REPLACE"],
              }),
            },
          }],
        },
      },
      { message: { role: "tool", toolCallId: "c1", content: "done" } },
      {
        message: { role: "assistant", content: "ok" },
        conversationSummary: "Replaced old with new in a.ts.",
      },
    ],
  });
  const { sessions } = await parseContinueSession(path, opts);
  equal(sessions[0]?.cwd, "C:/work/app one");
  equal(roles(sessions[0]), "user,files,edit,tool-output,summary,assistant");
  equal(sessions[0]?.records[2]?.text, "a.ts\nold");
});

Deno.test("parseContinueSession() survives broken and hostile documents", async (t) => {
  const cases: Array<[string, string, number]> = [
    [
      "truncated",
      '{"sessionId":"s","history":[{"message":{"role":"user","content":"hi',
      1,
    ],
    ["history not a list", '{"sessionId":"s","history":{}}', 1],
    [
      "garbage",
      String.fromCharCode(...crypto.getRandomValues(new Uint8Array(1024))),
      1,
    ],
    [
      "deep nesting",
      '{"history":' + "[".repeat(50_000) + "]".repeat(50_000) + "}",
      1,
    ],
    [
      "wrong types",
      JSON.stringify({
        sessionId: 5,
        title: [],
        workspaceDirectory: { a: 1 },
        history: [
          null,
          { message: "x" },
          { message: { role: "robot", content: "?" } },
          {
            message: { role: "assistant", content: 7, toolCalls: "x" },
            toolCallStates: [1, { toolCallId: 2, output: "o" }],
          },
          {
            message: {
              role: "assistant",
              content: "y",
              toolCalls: [{
                function: { name: "run_terminal_command", arguments: "{bad" },
              }],
            },
          },
        ],
      }),
      3,
    ],
  ];
  for (const [name, text, skipped] of cases) {
    await t.step(name, async () => {
      const result = await parseContinueSession(await sessionFile(text), opts);
      equal(result.skipped, skipped);
      for (const s of result.sessions) {
        for (const r of s.records) equal(typeof r.text, "string");
      }
    });
  }
  await t.step("oversized message is capped", async () => {
    const path = await sessionFile({
      history: [{ message: { role: "user", content: "w".repeat(100_000) } }],
    });
    const { sessions } = await parseContinueSession(path, opts);
    equal(sessions[0]?.records[0]?.flags?.truncated, true);
  });
});

Deno.test("parseContinueSession() reads an item's single toolCallState (before parallel tool calls)", async () => {
  const path = await sessionFile({
    sessionId: "s",
    title: "Lint",
    workspaceDirectory: "file:///home/dev/kiln",
    history: [
      {
        message: { role: "user", content: "run the linter" },
        contextItems: [],
      },
      {
        message: {
          role: "assistant",
          content: "",
          toolCalls: [{
            id: "call_1",
            type: "function",
            function: {
              name: "builtin_run_terminal_command",
              arguments: JSON.stringify({ command: "ruff check ." }),
            },
          }],
        },
        contextItems: [],
        toolCallState: {
          toolCallId: "call_1",
          status: "errored",
          parsedArgs: { command: "ruff check ." },
          toolCall: {
            id: "call_1",
            type: "function",
            function: { name: "builtin_run_terminal_command", arguments: "{}" },
          },
          output: [{
            name: "Terminal",
            description: "",
            content: "kiln/temp.py:3:1: F401 unused import",
          }],
        },
      },
    ],
  });
  const s = (await parseContinueSession(path, opts)).sessions[0];
  equal(roles(s), "user,command,tool-output");
  equal(s?.records[2]?.text, "kiln/temp.py:3:1: F401 unused import");
  equal(s?.records[2]?.flags?.isError, true);
});

Deno.test("parseContinueSession() reads a Python-server session_state document", async () => {
  const path = await sessionFile({
    session_state: {
      history: [
        {
          step_type: "UserInputStep",
          name: "User Input",
          description: "what does kiln.fire() return?",
          params: { user_input: "what does kiln.fire() return?" },
          hide: false,
          depth: 0,
          observations: [],
          logs: [],
        },
        {
          step_type: "ChatWithFunctions",
          name: "Chat",
          description: "",
          params: {},
          hide: true,
          depth: 0,
          observations: [],
          logs: [],
        },
        {
          step_type: "SimpleChatStep",
          name: "Answer",
          description: "It returns the final temperature in °C.",
          params: {},
          hide: false,
          depth: 1,
          observations: [],
          logs: [],
        },
      ],
      context_items: [],
    },
    title: "kiln.fire return value",
    workspace_directory: "/home/dev/kiln",
    session_id: "s",
  });
  await Deno.writeTextFile(
    path.replace(/s\.json$/, "sessions.json"),
    JSON.stringify([{
      session_id: "s",
      title: "kiln.fire return value",
      date_created: "1698000000.5",
      workspace_directory: "/home/dev/kiln",
    }]),
  );
  const s = (await parseContinueSession(path, opts)).sessions[0];
  deepEqual(s?.records.map((r) => [r.role, r.text]), [
    ["user", "what does kiln.fire() return?"],
    ["assistant", "It returns the final temperature in °C."],
  ]);
  equal(s?.project, "kiln");
  equal(s?.title, "kiln.fire return value");
  equal(s?.started, 1698000000500);
});

Deno.test("parseContinueSession() reads a cn CLI session: Bash/Read/Edit/MultiEdit, cancelled calls, placeholder title", async () => {
  const { sessions, skipped } = await parseContinueSession(
    `${SESSIONS}/${CLI}.json`,
    opts,
  );
  equal(skipped, 0);
  const s = sessions[0];
  ok(s);
  ok(s.title !== "Untitled Session", "Untitled Session is a placeholder");
  equal(s.project, "report-kit");
  equal(s.started, 1790100000000);
  deepEqual(
    s.records.map((r) => [r.role, r.text, r.exitCode, r.flags?.isError]),
    [
      ["user", "the CSV export breaks on quotes, fix it", undefined, undefined],
      ["assistant", "Running the report tests first.", undefined, undefined],
      ["command", "npm test -- report", 1, undefined],
      ["files", "src/report/csv.ts", undefined, undefined],
      [
        "tool-output",
        "1 failing: quotes are not doubled\nExit code: 1",
        undefined,
        true,
      ],
      [
        "tool-output",
        "export function cell(value: string) { return value.replace(/\"/g, '\"'); }",
        undefined,
        undefined,
      ],
      [
        "assistant",
        "Doubling the quotes and switching the separator.",
        undefined,
        undefined,
      ],
      ["files", "src/report/csv.ts", undefined, undefined],
      [
        "edit",
        "src/report/csv.ts\nvalue.replace(/\"/g, '\"')",
        undefined,
        undefined,
      ],
      ["files", "src/report/header.ts", undefined, undefined],
      ["edit", "src/report/header.ts\nconst SEP = ';'", undefined, undefined],
      ["tool-output", "Error: String not found in file", undefined, true],
      ["tool-output", "The user cancelled this tool call.", undefined, true],
      ["user", "skip the header change", undefined, undefined],
      ["assistant", "Understood, only csv.ts changes.", undefined, undefined],
    ],
  );
});

Deno.test("parseContinueSession() survives torn and hostile cn CLI sessions", async (t) => {
  await t.step("torn document", async () => {
    const text = await Deno.readTextFile(`${SESSIONS}/${CLI}.json`);
    const { sessions, skipped } = await parseContinueSession(
      await sessionFile(text.slice(0, text.length / 2)),
      opts,
    );
    deepEqual([sessions, skipped], [[], 1]);
  });
  await t.step("hostile tool states", async () => {
    const { sessions } = await parseContinueSession(
      await sessionFile({
        sessionId: "h",
        title: "Untitled Session",
        history: [{
          message: {
            role: "assistant",
            content: "x",
            toolCalls: [
              { function: { name: "Bash", arguments: '{"command":' } },
              { function: { name: "Edit", arguments: { file_path: 5 } } },
              { function: { name: "MultiEdit", arguments: "[1]" } },
            ],
          },
          toolCallStates: [
            { status: "canceled", output: "nope" },
            { toolCallId: 7, status: "canceled", output: [{ content: 3 }] },
          ],
        }],
      }),
      opts,
    );
    ok(sessions[0]?.title !== "Untitled Session");
    ok(sessions[0]?.records.every((r) => typeof r.text === "string"));
  });
});

Deno.test("parseContinueSession() reads a command's exit code and failure from the Terminal item's status", async () => {
  // The IDE's run_terminal_command returns normally when the command exits
  // non-zero: the call is `done`, its stderr is the content and only the
  // item's `status` says it failed.
  const call = (id: string, command: string) => ({
    id,
    type: "function",
    function: { name: "run_terminal_command", arguments: { command } },
  });
  const path = await sessionFile({
    sessionId: "s",
    title: "lint",
    workspaceDirectory: "file:///home/dev/quarry",
    history: [
      { message: { role: "user", content: "lint and build" } },
      {
        message: {
          role: "assistant",
          content: "",
          toolCalls: [call("t1", "npm run lint"), call("t2", "npm run build")],
        },
        toolCallStates: [
          {
            toolCallId: "t1",
            status: "done",
            output: [{
              name: "Terminal",
              description: "Terminal command output",
              content: "src/quarry.ts:4:1 no-unused-vars",
              status: "Command failed with: Command failed with exit code 2",
            }],
          },
          {
            toolCallId: "t2",
            status: "done",
            output: [{
              name: "Terminal",
              description: "Terminal command output",
              content: "built in 812 ms",
              status: "Command completed",
            }],
          },
        ],
      },
    ],
  });
  const s = (await parseContinueSession(path, opts)).sessions[0];
  deepEqual(
    s?.records.map((r) => [r.role, r.text, r.exitCode, r.flags?.isError]),
    [
      ["user", "lint and build", undefined, undefined],
      ["command", "npm run lint", 2, undefined],
      ["command", "npm run build", 0, undefined],
      ["tool-output", "src/quarry.ts:4:1 no-unused-vars", undefined, true],
      ["tool-output", "built in 812 ms", undefined, undefined],
    ],
  );
});
