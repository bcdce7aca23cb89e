import { deepEqual, equal, ok } from "node:assert/strict";
import type { ParseResult, SourceEnv } from "../core/harness.ts";
import type { Session } from "../core/types.ts";
import { amp, type AmpParseOptions, parseAmpThread } from "./amp.ts";
import { hasSamples, sampleDir, tempFileAt } from "./_test_kit.ts";

const HOME = new URL("../../fixtures/amp", import.meta.url).pathname;
const THREAD =
  `${HOME}/.local/share/amp/threads/T-2c9e4b17-6a0d-4f83-b5e2-8d1c7a3f9e06.json`;
const THREAD_2026 =
  `${HOME}/.local/share/amp/threads/T-019f3c2a-7b1e-74d0-9a35-c61f0e8d2b47.json`;
const EXTENSION_THREADS =
  `${HOME}/.config/Code/User/globalStorage/sourcegraph.amp/threads3`;
const VSCODE_THREAD =
  `${EXTENSION_THREADS}/T-5e81d0c3-2f4a-4b9e-8c17-93a6f2d4e0b1.json`;
const SAMPLES = sampleDir("amp");
const source: SourceEnv = { home: HOME, env: {}, os: "linux" };

function parse(
  path: string,
  extra: Partial<AmpParseOptions> = {},
): Promise<ParseResult> {
  return parseAmpThread(path, { includeSubagents: true, source, ...extra });
}

function threadFile(text: string): Promise<string> {
  return tempFileAt("threads/T-test.json", text);
}

Deno.test("amp.roots() honours DEJA_AMP_ROOT, then XDG_DATA_HOME, then HOME", async (t) => {
  for (
    const [env, want] of [
      [{}, "/h/.local/share/amp"],
      [{ XDG_DATA_HOME: "/data" }, "/data/amp"],
      [{ DEJA_AMP_ROOT: "/a", XDG_DATA_HOME: "/data" }, "/a"],
    ] as const
  ) {
    await t.step(JSON.stringify(env), () => {
      deepEqual(amp.roots({ home: "/h", env, os: "linux" }), [want]);
    });
  }
});

Deno.test("amp.discover() finds thread files and not the prompt history", async () => {
  // The VS Code extension's copy of a thread the CLI also holds (same id)
  // is left out; its own threads are found.
  deepEqual(
    (await amp.discover(source)).sort(),
    [THREAD_2026, THREAD, VSCODE_THREAD].sort(),
  );
  ok(amp.roots(source).includes(EXTENSION_THREADS.replace(/\/threads3$/, "")));
});

Deno.test("parseAmpThread() reads a VS Code extension thread and its workspace URI object", async () => {
  const result = await parse(VSCODE_THREAD);
  equal(result.skipped, 0);
  const s = result.sessions[0] as Session;
  equal(s.id, "T-5e81d0c3-2f4a-4b9e-8c17-93a6f2d4e0b1");
  equal(s.project, "kettle");
  deepEqual(s.records.map((r) => [r.role, r.tool, r.exitCode]), [
    ["user", undefined, undefined],
    ["assistant", undefined, undefined],
    ["command", "Bash", 0],
    ["tool-output", "Bash", undefined],
  ]);
});

Deno.test("parseAmpThread() takes the project from env.initial.cwd when no tree names one", async () => {
  const path = await threadFile(JSON.stringify({
    id: "T-cwd",
    env: {
      initial: { cwd: "/home/dev/code/ferry", trees: [{ displayName: "x" }] },
    },
    messages: [{
      role: "user",
      content: [{ type: "text", text: "dock times" }],
    }],
  }));
  const s = (await parse(path)).sessions[0] as Session;
  equal(s.project, "ferry");
});

Deno.test("parseAmpThread() names a cloud editor's generic folder by its repository", async (t) => {
  const thread = (uri: string, url?: string) =>
    JSON.stringify({
      id: "T-repo",
      env: {
        initial: {
          trees: [{
            uri,
            ...(url ? { repository: { type: "git", url } } : {}),
          }],
        },
      },
      messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
    });
  const cases: Array<[string, string, string | undefined, string]> = [
    [
      "Replit's workspace folder",
      "file:///home/runner/workspace",
      "https://github.com/ada/heron-tracker.git",
      "heron-tracker",
    ],
    [
      "an ssh remote",
      "file:///workspace",
      "git@github.com:ada/otter-feed.git",
      "otter-feed",
    ],
    [
      "a named folder keeps its name",
      "file:///home/ada/code/kettle",
      "https://github.com/ada/kettle-web",
      "kettle",
    ],
    [
      "no repository recorded",
      "file:///home/runner/workspace",
      undefined,
      "workspace",
    ],
  ];
  for (const [name, uri, url, want] of cases) {
    await t.step(name, async () => {
      const s = (await parse(await threadFile(thread(uri, url))))
        .sessions[0] as Session;
      equal(s.project, want);
    });
  }
});

Deno.test("parseAmpThread() reads speech, tool calls, results and exit codes", async () => {
  const result = await parse(THREAD);
  equal(result.skipped, 0);
  const s = result.sessions[0] as Session;
  equal(s.id, "T-2c9e4b17-6a0d-4f83-b5e2-8d1c7a3f9e06");
  equal(s.title, "Quiet hours for the chime");
  equal(s.project, "chime");
  deepEqual(s.records.map((r) => [r.role, r.tool, r.exitCode, r.flags]), [
    ["user", undefined, undefined, undefined],
    ["assistant", undefined, undefined, undefined],
    ["files", "Read", undefined, undefined],
    ["command", "Bash", 101, undefined],
    ["tool-output", "Read", undefined, undefined],
    ["tool-output", "Bash", undefined, { isError: true }],
    ["files", "edit_file", undefined, undefined],
    ["edit", "edit_file", undefined, undefined],
    ["tool-output", "edit_file", undefined, { isError: true }],
    ["assistant", undefined, undefined, undefined],
  ]);
  equal(s.records[3]?.text, "cargo test quiet_hours");
  ok(!s.records.some((r) => r.text === "Find the scheduler."), "thinking");
  // Assistant turns take the time of the prompt they answer.
  equal(s.records[1]?.time, 1773500005000);
  equal(s.started, 1773500000000);
  equal(s.records[1]?.locator.recordId, "1");
});

Deno.test("parseAmpThread() keeps what a Grep call searched for as a command before its output", async () => {
  const tool = (id: string, name: string, input: unknown) => ({
    type: "tool_use",
    id,
    name,
    input,
  });
  const result = (id: string, output: string) => ({
    type: "tool_result",
    toolUseID: id,
    run: { status: "done", result: output },
  });
  const path = await threadFile(JSON.stringify({
    v: 3,
    id: "T-grep",
    created: 1773600000000,
    messages: [
      {
        role: "user",
        messageId: 0,
        content: [{ type: "text", text: "where do we sign people out?" }],
      },
      {
        role: "assistant",
        messageId: 1,
        content: [
          tool("t1", "Grep", { pattern: "sign_out", glob: "**/*.py" }),
          tool("t2", "Grep", { path: "app" }),
          tool("t3", "glob", { filePattern: "**/*.py" }),
        ],
      },
      {
        role: "user",
        messageId: 2,
        content: [
          result("t1", "app/auth.py:12:def sign_out():"),
          result("t2", "No results found."),
        ],
      },
    ],
  }));
  const s = (await parse(path)).sessions[0];
  deepEqual(s?.records.map((r) => [r.role, r.tool, r.text, r.exitCode]), [
    ["user", undefined, "where do we sign people out?", undefined],
    ["command", "grep", "grep sign_out --glob **/*.py", undefined],
    ["tool-output", "Grep", "app/auth.py:12:def sign_out():", undefined],
    // A call without a pattern names no search.
    ["tool-output", "Grep", "No results found.", undefined],
  ]);
});

Deno.test("parseAmpThread() counts a truncated or oversized thread as skipped", async () => {
  const whole = await Deno.readTextFile(THREAD);
  const cut = await threadFile(whole.slice(0, Math.floor(whole.length / 2)));
  deepEqual(await parse(cut), { sessions: [], skipped: 1 });
  deepEqual(await parse(THREAD, { maxDocumentBytes: 100 }), {
    sessions: [],
    skipped: 1,
  });
  deepEqual(await parse(`${cut}.missing`), { sessions: [], skipped: 0 });
});

Deno.test("parseAmpThread() survives hostile input", async (t) => {
  const cases: Array<[string, string]> = [
    ["garbage bytes", "\u0000\u00ff\ufffd"],
    ["not an object", "[1,2,3]"],
    [
      "wrong types",
      JSON.stringify({
        id: 5,
        title: ["x"],
        env: { initial: { trees: [{ uri: "file://%E0%A4%A" }, { uri: 3 }] } },
        messages: [
          null,
          { role: "user", content: "text" },
          {
            role: "user",
            content: [{ type: "tool_result", run: "done" }, {
              type: "text",
              text: 4,
            }],
          },
          {
            role: "assistant",
            content: [{
              type: "tool_use",
              name: "Bash",
              input: { cmd: ["ls"] },
            }, { type: "text" }],
          },
          {
            role: "user",
            meta: { sentAt: "never" },
            content: [{
              type: "tool_result",
              toolUseID: {},
              run: { status: 1, result: { exitCode: "1" } },
            }],
          },
        ],
      }),
    ],
    ["huge nesting", `${"[".repeat(200_000)}${"]".repeat(200_000)}`],
  ];
  for (const [name, text] of cases) {
    await t.step(name, async () => {
      const result = await parse(await threadFile(text));
      ok(result.skipped >= 0);
    });
  }
});

Deno.test("parseAmpThread() reads a 2026 thread: shell_command, apply_patch, Task and stamped times", async () => {
  const result = await parse(THREAD_2026);
  equal(result.skipped, 0);
  const s = result.sessions[0] as Session;
  equal(s.title, "Retry budget for the uploader");
  equal(s.project, "uploader");
  deepEqual(s.records.map((r) => [r.role, r.tool, r.exitCode, r.flags]), [
    ["user", undefined, undefined, undefined],
    ["assistant", undefined, undefined, undefined],
    ["command", "shell_command", 0, undefined],
    ["command", "shell_command", 1, undefined],
    ["tool-output", "shell_command", undefined, undefined],
    ["tool-output", "shell_command", undefined, { isError: true }],
    ["files", "apply_patch", undefined, undefined],
    ["edit", "apply_patch", undefined, undefined],
    ["tool-output", "apply_patch", undefined, undefined],
    ["tool-output", "Task", undefined, undefined],
    ["assistant", undefined, undefined, undefined],
  ]);
  equal(s.records[2]?.text, "grep -n retry src/upload.ts");
  equal(s.records[6]?.text, "src/upload.ts");
  ok(s.records[7]?.text.includes("while (true) { // retry"));
  ok(s.records[8]?.text.startsWith("Updated src/upload.ts"));
  ok(s.records[9]?.text.includes("downloader already caps at three"));
  ok(
    !s.records.some((r) => r.text.includes("retries are counted")),
    "thinking",
  );
  // Assistant turns carry their own usage time, the last one its block's start.
  equal(s.records[1]?.time, Date.parse("2026-07-27T18:34:17.000Z"));
  equal(s.records[10]?.time, 1785177290000);
  equal(s.records[10]?.locator.recordId, "6");
});

Deno.test("parseAmpThread() reads a torn or hostile 2026 thread without throwing", async (t) => {
  const whole = await Deno.readTextFile(THREAD_2026);
  await t.step("torn", async () => {
    const cut = await threadFile(whole.slice(0, whole.length - 40));
    deepEqual(await parse(cut), { sessions: [], skipped: 1 });
  });
  await t.step("hostile", async () => {
    const thread = JSON.parse(whole);
    thread.created = "not a time";
    thread.messages[1].usage = { timestamp: { at: 1 } };
    thread.messages[1].content[2].input = { command: 7 };
    thread.messages[2].content[0].run = {
      result: { files: "x", exitCode: "0" },
    };
    thread.messages[2].content[1].run = {
      result: { content: [null, 4, { text: 5 }] },
    };
    thread.messages[3].content[0].input = { patchText: "*** Update File: \n-" };
    thread.messages[3].messageId = { id: 1 };
    thread.messages[4].content[0].run = {
      result: { files: [null, { diff: 3 }] },
    };
    const result = await parse(await threadFile(JSON.stringify(thread)));
    equal(result.skipped, 0);
    const s = result.sessions[0] as Session;
    ok(s.records.length > 0);
    ok(!s.records.some((r) => r.role === "command" && r.text === "7"));
  });
});

/** User, assistant, tool-output and `grep` command records of each thread. */
const SAMPLE_COUNTS: Record<string, [number, number, number, number]> = {
  "T-16c2227a-e98f-4969-998b-aaa50a930b05.json": [3, 3, 2, 0],
  "T-1d0ef56c-0ecd-4bf7-af7b-5bc196dc8a6a.json": [1, 1, 3, 3],
  "T-6b45efa0-1bae-4277-9991-293950d0ab14.json": [1, 1, 0, 0],
};

Deno.test({
  name: "amp parses every real thread with the turns a reader counts",
  ignore: !hasSamples("amp"),
  fn: async () => {
    const seen: string[] = [];
    for await (const entry of Deno.readDir(SAMPLES)) {
      const env = { DEJA_AMP_ROOT: `${SAMPLES}/${entry.name}` };
      for (
        const path of await amp.discover({ home: "/nohome", env, os: "linux" })
      ) {
        const name = path.split("/").at(-1) as string;
        const want = SAMPLE_COUNTS[name];
        ok(want, name);
        seen.push(name);
        const result = await parse(path);
        equal(result.skipped, 0, name);
        equal(result.sessions.length, 1, name);
        const s = result.sessions[0] as Session;
        const count = (role: string) =>
          s.records.filter((r) => r.role === role).length;
        const greps = s.records.filter((r) =>
          r.role === "command" && r.tool === "grep"
        ).length;
        deepEqual(
          [count("user"), count("assistant"), count("tool-output"), greps],
          want,
          name,
        );
        // Replit's /home/runner/workspace: the repository each thread
        // records names the project.
        equal(s.project, "club-dashboard");
        ok(s.title && s.title.length > 0);
      }
    }
    equal(seen.length, 3);
  },
});

Deno.test("parseAmpThread() reads the summary of a compacted thread and what a stopped run printed", async () => {
  const path = await threadFile(JSON.stringify({
    id: "T-test",
    created: 1767225600000,
    messages: [
      {
        role: "info",
        messageId: 0,
        content: [{
          type: "summary",
          summary: {
            type: "message",
            summary: "Moved the cron parser to src/cron.ts; tests pass.",
          },
        }],
      },
      {
        role: "info",
        messageId: 1,
        content: [
          { type: "summary", summary: { type: "thread", thread: "T-other" } },
          { type: "summary", summary: 4 },
          { type: "summary", summary: { type: "message", summary: "  " } },
          "odd",
        ],
      },
      {
        role: "user",
        messageId: 2,
        meta: { sentAt: 1767225660000 },
        content: [{ type: "text", text: "now add a --dry-run flag" }],
      },
      {
        role: "assistant",
        messageId: 3,
        content: [{
          type: "tool_use",
          id: "toolu_1",
          name: "Bash",
          input: { cmd: "deno task test" },
        }],
      },
      {
        role: "user",
        messageId: 4,
        content: [{
          type: "tool_result",
          toolUseID: "toolu_1",
          run: {
            status: "cancelled",
            progress: { output: "running 12 tests" },
          },
        }],
      },
    ],
  }));
  const { sessions, skipped } = await parse(path);
  equal(skipped, 0);
  deepEqual(sessions[0]?.records.map((r) => [r.role, r.text]), [
    ["summary", "Moved the cron parser to src/cron.ts; tests pass."],
    ["user", "now add a --dry-run flag"],
    ["command", "deno task test"],
    ["tool-output", "running 12 tests"],
  ]);
  equal(sessions[0]?.records.at(-1)?.flags?.isError, true);
});
