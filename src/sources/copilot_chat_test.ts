import { deepEqual, equal, ok } from "node:assert/strict";
import type { ParseResult, SourceEnv } from "../core/harness.ts";
import { isSuperseded, type Session } from "../core/types.ts";
import {
  copilotChat,
  type CopilotChatParseOptions,
  parseCopilotChatSession,
  parseCopilotChatTranscript,
} from "./copilot_chat.ts";
import { hasSamples, jsonLines, sampleDir, tempFileAt } from "./_test_kit.ts";

const HOME = new URL("../../fixtures/copilot-chat", import.meta.url).pathname;
const USER = `${HOME}/.config/Code/User`;
const WS = `${USER}/workspaceStorage/a3f9c1e07b2d4c58e6f10a9b8c7d6e5f`;
const LOG = `${WS}/chatSessions/e2b7d4a1-9c3f-4e08-b6a5-7f1d0c2e9b34.jsonl`;
const DOC = `${WS}/chatSessions/0c4d2e19-8a7b-4f3c-9e61-5b2a7d0f8c13.json`;
const TRANSCRIPT =
  `${USER}/globalStorage/github.copilot-chat/transcripts/f5c2a8e1-3d7b-4a09-8c6e-2b1f9d0e7a35.jsonl`;
/** A 1.109+ workspace: a log, the stale `.json` an older build left, a transcript in the extension's workspace storage. */
const WS2 = `${USER}/workspaceStorage/7d1e4b2a9c0f3e5d6b8a1c2e4f6a8b0d`;
const WS2_ID = "c7a1e3f5-2b4d-4c6e-8a0f-1d3b5c7e9a02";
const WS2_LOG = `${WS2}/chatSessions/${WS2_ID}.jsonl`;
const WS2_STALE = `${WS2}/chatSessions/${WS2_ID}.json`;
const WS2_TRANSCRIPT = `${WS2}/GitHub.copilot-chat/transcripts/${WS2_ID}.jsonl`;
/** A chat from a window with no folder open, with MCP and built-in tool results. */
const EMPTY =
  `${USER}/globalStorage/emptyWindowChatSessions/9b3e5d71-4c2a-4f86-a0d9-6e1c8b7f2a54.json`;
/** When the WS2 session's first request was sent. */
const T = 1774100000000;
const SAMPLES = sampleDir("copilot-chat");
const source: SourceEnv = { home: HOME, env: {}, os: "linux" };

function parse(
  path: string,
  extra: Partial<CopilotChatParseOptions> = {},
): Promise<ParseResult> {
  return parseCopilotChatSession(path, {
    includeSubagents: true,
    source,
    ...extra,
  });
}

function sessionFile(text: string, ext = "jsonl"): Promise<string> {
  return tempFileAt(`chatSessions/s1.${ext}`, text);
}

function request(id: string, text: string, answer: string): unknown {
  return {
    requestId: id,
    timestamp: 1767225600000,
    message: { text },
    response: [{ value: answer }],
  };
}

Deno.test("copilotChat.roots() lists every host per OS and honours the override", async (t) => {
  const cases: Array<[SourceEnv, string]> = [
    [{ home: "/h", env: {}, os: "linux" }, "/h/.config/Code/User"],
    [
      { home: "/h", env: { XDG_CONFIG_HOME: "/x" }, os: "linux" },
      "/x/Code - Insiders/User",
    ],
    [
      { home: "/Users/a", env: {}, os: "darwin" },
      "/Users/a/Library/Application Support/VSCodium/User",
    ],
    [
      {
        home: "C:/Users/a",
        env: { APPDATA: "C:/Users/a/AppData/Roaming" },
        os: "windows",
      },
      "C:/Users/a/AppData/Roaming/Cursor/User",
    ],
  ];
  for (const [env, want] of cases) {
    await t.step(`${env.os} ${want}`, () => {
      ok(copilotChat.roots(env).includes(want), copilotChat.roots(env).join());
    });
  }
  deepEqual(
    copilotChat.roots({
      home: "/h",
      env: { DEJA_COPILOT_CHAT_ROOTS: "/a/User:/b/User" },
      os: "linux",
    }),
    ["/a/User", "/b/User"],
  );
});

Deno.test("copilotChat.discover() finds chat sessions and transcripts", async () => {
  const found = (await copilotChat.discover(source)).sort();
  deepEqual(
    found,
    [DOC, LOG, TRANSCRIPT, WS2_LOG, WS2_TRANSCRIPT, EMPTY].sort(),
  );
  equal(copilotChat.kinds.find((k) => k.match(TRANSCRIPT))?.appendOnly, true);
  equal(
    copilotChat.kinds.find((k) => k.match(WS2_TRANSCRIPT))?.appendOnly,
    true,
  );
  equal(copilotChat.kinds.find((k) => k.match(LOG))?.appendOnly, false);
});

Deno.test("copilotChat.discover() leaves out a .json whose .jsonl log is there (VS Code reads the log)", async () => {
  const found = await copilotChat.discover(source);
  ok(found.includes(WS2_LOG));
  ok(!found.includes(WS2_STALE));
  // The stale copy alone still parses: only discovery passes it over.
  equal((await parse(WS2_STALE)).sessions.length, 1);
});

Deno.test("parseCopilotChatTranscript() gives a transcript in workspace storage the workspace folder", async () => {
  const result = await parseCopilotChatTranscript(WS2_TRANSCRIPT, {
    includeSubagents: true,
    source,
  });
  const s = result.sessions[0] as Session;
  equal(s.id, WS2_ID);
  equal(s.cwd, "/home/dev/code/lantern");
  equal(s.project, "lantern");
  deepEqual(
    s.records.map((r) => [r.role, r.exitCode, r.flags?.isError]),
    [
      ["user", undefined, undefined],
      ["assistant", undefined, undefined],
      ["command", 2, undefined],
      ["tool-output", undefined, true],
    ],
  );
  equal(s.records[2]?.text, "make flash");
});

Deno.test("parseCopilotChatSession() keeps a sub-agent run's task and answer", async () => {
  const s = (await parse(WS2_LOG)).sessions[0] as Session;
  deepEqual(
    s.records.filter((r) => r.tool === "runSubagent").map((r) => [
      r.role,
      r.text,
    ]),
    [
      ["command", "List every exported symbol in src/lantern/ with its file."],
      [
        "tool-output",
        "lantern_init and lantern_tick (src/lantern/core.c) and LANTERN_MAX_LUX (src/lantern/config.h) are exported.",
      ],
    ],
  );
});

Deno.test("parseCopilotChatSession() keeps a tool's result and failure from its invocation", async () => {
  const s = (await parse(EMPTY)).sessions[0] as Session;
  equal(s.title, "Flaky issues triage");
  deepEqual(
    s.records.filter((r) =>
      ["request_f1", "request_f2"].includes(r.locator.recordId ?? "")
    ).map((r) => [r.role, r.tool, r.text, r.flags?.isError]),
    [
      ["user", undefined, "which open issues are labelled flaky?", undefined],
      ["assistant", undefined, "Let me look them up.", undefined],
      [
        "tool-output",
        "mcp_github_list_issues",
        "#88 retry loop hangs when the upstream times out (open)",
        undefined,
      ],
      [
        "assistant",
        undefined,
        "One open issue is labelled flaky: #88, a retry loop that hangs on upstream timeouts.",
        undefined,
      ],
      ["user", undefined, "and in dev/ghost?", undefined],
      [
        "tool-output",
        "mcp_github_list_issues",
        "MCP error -32603: repository dev/ghost not found",
        true,
      ],
      [
        "tool-output",
        "vscode_fetchWebPage_internal",
        "Failed to fetch https://github.com/dev/ghost: 404 Not Found",
        true,
      ],
      [
        "assistant",
        undefined,
        "The dev/ghost repository does not exist, so it has no issues.",
        undefined,
      ],
    ],
  );
});

Deno.test("parseCopilotChatSession() flags a sub-agent's own tool runs as the sub-agent's", async () => {
  const records = async (includeSubagents: boolean) =>
    ((await parse(EMPTY, { includeSubagents })).sessions[0] as Session)
      .records.filter((r) => r.locator.recordId === "request_f3")
      .map((r) => [r.role, r.tool, r.exitCode, r.flags]);
  deepEqual(await records(true), [
    ["user", undefined, undefined, undefined],
    ["command", "runSubagent", undefined, undefined],
    ["tool-output", "runSubagent", undefined, undefined],
    ["command", "run_in_terminal", 0, { subagent: true }],
    ["tool-output", "run_in_terminal", undefined, { subagent: true }],
    ["tool-output", "mcp_github_get_file_contents", undefined, {
      subagent: true,
    }],
    ["assistant", undefined, undefined, undefined],
  ]);
  // Without sub-agents the main agent's call and the answer it got remain.
  deepEqual(await records(false), [
    ["user", undefined, undefined, undefined],
    ["command", "runSubagent", undefined, undefined],
    ["tool-output", "runSubagent", undefined, undefined],
    ["assistant", undefined, undefined, undefined],
  ]);
});

Deno.test("parseCopilotChatSession() reads a tool call saved more than once from its last copy", async () => {
  const s = (await parse(EMPTY)).sessions[0] as Session;
  const commands = s.records.filter((r) =>
    r.locator.recordId === "request_f3" && r.role === "command"
  );
  deepEqual(commands.map((r) => [r.tool, r.exitCode]), [
    ["runSubagent", undefined],
    ["run_in_terminal", 0],
  ]);
});

Deno.test("parseCopilotChatSession() names the notebook an edit changed", async () => {
  const s = (await parse(EMPTY)).sessions[0] as Session;
  deepEqual(
    s.records.filter((r) => r.locator.recordId === "request_f5").map((r) => [
      r.role,
      r.tool,
    ]),
    [
      ["user", undefined],
      ["assistant", undefined],
      ["files", "notebookEditGroup"],
      ["assistant", undefined],
    ],
  );
  equal(
    s.records.find((r) => r.tool === "notebookEditGroup")?.text,
    "/home/dev/relay/notebooks/retries.ipynb",
  );
});

Deno.test("parseCopilotChatSession() keeps the answers the person gave to the agent's questions", async () => {
  const s = (await parse(EMPTY)).sessions[0] as Session;
  deepEqual(
    s.records.filter((r) => r.locator.recordId === "request_f4").map((r) => [
      r.role,
      r.text,
    ]),
    [
      ["user", "make the retry timeout configurable"],
      ["assistant", "Two choices before I change `Retry`."],
      [
        "assistant",
        "Where should the timeout come from?\nWhat default timeout should it keep?\nWhich tests should I update?",
      ],
      [
        "user",
        "An environment variable, named RELAY_RETRY_TIMEOUT\n45s\nUnit tests, End-to-end tests",
      ],
      [
        "assistant",
        "`Retry` now reads RELAY_RETRY_TIMEOUT, defaulting to 45s; unit and end-to-end tests updated.",
      ],
    ],
  );
});

Deno.test("parseCopilotChatSession() keeps a plan the person reviewed and their feedback on it", async () => {
  const s = (await parse(EMPTY)).sessions[0] as Session;
  deepEqual(
    s.records.filter((r) => r.locator.recordId === "request_f6").map((r) => [
      r.role,
      r.text.split("\n")[0],
    ]),
    [
      ["user", "plan a jittered backoff for Retry"],
      [
        "assistant",
        "1. Add `backoff(attempt)` returning base * 2^attempt plus random jitter.",
      ],
      ["user", "Cap the delay at 10s and keep the jitter under 20%."],
      ["assistant", "Planned with a 10s cap and jitter under 20%."],
    ],
  );
});

Deno.test("parseCopilotChatSession() reads older and simple tool results", async () => {
  const path = await sessionFile(
    JSON.stringify({
      sessionId: "s1",
      requests: [{
        requestId: "r1",
        timestamp: 1767225600000,
        message: { text: "count the TODOs" },
        response: [{
          kind: "toolInvocationSerialized",
          toolCallId: "c1",
          toolId: "mcp_todo_count",
          isComplete: true,
          resultDetails: { input: "{}", output: "12 TODOs" },
        }, {
          kind: "toolInvocationSerialized",
          toolCallId: "c2",
          toolId: "grep",
          isComplete: true,
          toolSpecificData: {
            kind: "simpleToolInvocation",
            input: "grep -c TODO src",
            output: "src/a.ts:12",
          },
        }],
      }],
    }),
    "json",
  );
  const s = (await parse(path)).sessions[0] as Session;
  deepEqual(s.records.slice(1).map((r) => [r.tool, r.text]), [
    ["mcp_todo_count", "12 TODOs"],
    ["grep", "src/a.ts:12"],
  ]);
});

Deno.test("parseCopilotChatSession() times terminal runs by the terminal, and a cut request does not move `updated`", async () => {
  const s = (await parse(WS2_LOG)).sessions[0] as Session;
  deepEqual(s.records.map((r) => [r.role, r.tool, r.time]), [
    ["user", undefined, T],
    ["assistant", undefined, T],
    ["command", "runSubagent", T],
    ["tool-output", "runSubagent", T],
    ["command", "run_in_terminal", T + 4000],
    ["tool-output", "run_in_terminal", T + 5500],
    ["assistant", undefined, T],
    ["user", undefined, T + 60000],
    ["assistant", undefined, T + 60000],
  ]);
  equal(s.records[4]?.exitCode, 2);
  deepEqual(s.marks, [{ kind: "undo", from: 7, to: 9 }]);
  equal(s.started, T - 5000);
  // The live request's response ended at `modelState.completedAt`.
  equal(s.updated, T + 9000);
});

Deno.test("parseCopilotChatSession() replays a mutation log and marks the requests it cut", async () => {
  const result = await parse(LOG);
  equal(result.skipped, 0);
  const s = result.sessions[0] as Session;
  equal(s.id, "e2b7d4a1-9c3f-4e08-b6a5-7f1d0c2e9b34");
  equal(s.project, "beacon");
  equal(s.title, "Beacon boot blink");
  deepEqual(s.records.map((r) => [r.role, r.tool, r.exitCode]), [
    ["user", undefined, undefined],
    ["assistant", undefined, undefined],
    ["command", "run_in_terminal", 0],
    ["tool-output", "run_in_terminal", undefined],
    ["assistant", undefined, undefined],
    ["files", "read_file", undefined],
    ["user", undefined, undefined],
    ["files", "textEditGroup", undefined],
    ["assistant", undefined, undefined],
    ["edit", "replace_string_in_file", undefined],
    ["user", undefined, undefined],
    ["assistant", undefined, undefined],
  ]);
  equal(
    s.records[4]?.text,
    "`led_blink(2)` in `boot.c` is hard-coded to two blinks.",
  );
  ok(!s.records.some((r) => r.text.includes("Twice is hard-coded")));
  deepEqual(s.marks, [{ kind: "undo", from: 6, to: 10 }]);
  deepEqual(
    s.records.filter((r) => !isSuperseded(r.seq, s.marks) && r.role === "user")
      .map((r) => r.text),
    [
      "why does the beacon blink twice on boot?",
      "make the blink count a config option",
    ],
  );
  equal(s.updated, 1774000210000);
});

Deno.test("parseCopilotChatSession() reads a version 3 JSON document", async () => {
  const s = (await parse(DOC)).sessions[0] as Session;
  deepEqual(s.records.map((r) => [r.role, r.text]), [
    ["user", "what is the PWM frequency of the beacon LED?"],
    ["assistant", "The LED is driven at 1 kHz, set in `pwm_init()`."],
  ]);
  equal(s.records[0]?.locator.recordId, "request_a");
});

Deno.test("parseCopilotChatTranscript() reads the extension's event log", async () => {
  const result = await parseCopilotChatTranscript(TRANSCRIPT, {
    includeSubagents: true,
    source,
  });
  const s = result.sessions[0] as Session;
  equal(s.harness, "copilot-chat");
  equal(s.project, "beacon");
  deepEqual(s.records.map((r) => [r.role, r.exitCode]), [
    ["user", undefined],
    ["assistant", undefined],
    ["command", 0],
    ["tool-output", undefined],
    ["assistant", undefined],
  ]);
  equal(result.safeOffset, (await Deno.stat(TRANSCRIPT)).size);
});

Deno.test("mutation log replay: whole-list sets, replaced items, deletes", async () => {
  const path = await sessionFile(jsonLines([
    { kind: 0, v: { sessionId: "s1", requests: [request("a", "one", "1")] } },
    { kind: 1, k: ["requests"], v: [request("b", "two", "2")] },
    { kind: 1, k: ["requests", 0], v: request("c", "three", "3") },
    { kind: 3, k: ["customTitle"] },
    { kind: 1, k: ["requests", 0, "message", "text"], v: "three, edited" },
  ]));
  const s = (await parse(path)).sessions[0] as Session;
  deepEqual(s.records.map((r) => r.text), [
    "one",
    "1",
    "two",
    "2",
    "three, edited",
    "3",
  ]);
  deepEqual(s.marks, [{ kind: "undo", from: 0, to: 4 }]);
});

Deno.test("parseCopilotChatSession() leaves a torn last line and skips oversized, truncated and malformed input", async () => {
  const head = jsonLines([
    {
      kind: 0,
      v: { sessionId: "s1", requests: [request("a", "kept", "yes")] },
    },
    { kind: 9, k: ["x"] },
    { kind: 1, k: ["requests", 5, "nope", "deeper"], v: 1 },
  ]);
  const torn =
    `${head}{"kind":2,"k":["requests"],"v":[{"requestId":"b","message":{"text":"torn`;
  const result = await parse(await sessionFile(torn));
  equal(result.skipped, 2);
  deepEqual(result.sessions[0]?.records.map((r) => r.text), ["kept", "yes"]);
  const big = jsonLines([{
    kind: 0,
    v: { requests: [request("a", "x".repeat(3000), "y")] },
  }]);
  deepEqual(await parse(await sessionFile(big), { maxLineBytes: 1000 }), {
    sessions: [],
    skipped: 1,
  });
  const doc = await sessionFile(
    '{"requests": [{"requestId": "a", "mess',
    "json",
  );
  deepEqual(await parse(doc), { sessions: [], skipped: 1 });
  const large = await sessionFile(
    JSON.stringify({ requests: [request("a", "z".repeat(3000), "y")] }),
    "json",
  );
  deepEqual(await parse(large, { maxDocumentBytes: 1000 }), {
    sessions: [],
    skipped: 1,
  });
});

Deno.test("parseCopilotChatSession() survives hostile input", async (t) => {
  const cases: Array<[string, string]> = [
    ["garbage bytes", "\u0000\u00ff\ufffd\n\x1b[0m\n"],
    [
      "prototype paths",
      jsonLines([
        { kind: 0, v: { requests: [] } },
        { kind: 1, k: ["__proto__", "polluted"], v: true },
        { kind: 1, k: ["constructor", "prototype", "polluted"], v: true },
        { kind: 2, k: ["requests"], v: "not a list", i: -3 },
        {
          kind: 2,
          k: ["requests"],
          v: [null, 5, { message: 3, response: "x" }],
        },
        { kind: 1, k: Array.from({ length: 500 }, () => "a"), v: 1 },
      ]),
    ],
    [
      "wrong types",
      jsonLines([
        { kind: 0, v: [] },
        {
          kind: 0,
          v: { requests: { a: 1 }, customTitle: 4, creationDate: "soon" },
        },
        {
          kind: 2,
          k: ["requests"],
          v: [{
            requestId: 1,
            response: [
              {
                kind: "toolInvocationSerialized",
                toolSpecificData: { kind: "terminal", commandLine: 7 },
              },
              { kind: "textEditGroup", uri: "http://x" },
              { kind: "inlineReference", inlineReference: 3 },
            ],
            result: {
              metadata: {
                toolCallRounds: [{
                  toolCalls: [{
                    name: "replace_string_in_file",
                    arguments: "{oops",
                  }],
                }],
              },
            },
          }],
        },
      ]),
    ],
    ["huge nesting", `${'{"kind":0,"v":'.repeat(80_000)}1\n`],
  ];
  for (const [name, text] of cases) {
    await t.step(name, async () => {
      await parse(await sessionFile(text));
      await parse(await sessionFile(text, "json"));
    });
  }
  equal(({} as Record<string, unknown>).polluted, undefined);
});

Deno.test({
  name:
    "copilot-chat parses every real sample without errors (none stored yet)",
  ignore: !hasSamples("copilot-chat"),
  fn: async () => {
    for await (const entry of Deno.readDir(SAMPLES)) {
      const env = { DEJA_COPILOT_CHAT_ROOTS: `${SAMPLES}/${entry.name}` };
      const src: SourceEnv = { home: "/nohome", env, os: "linux" };
      for (const path of await copilotChat.discover(src)) {
        const kind = copilotChat.kinds.find((k) => k.match(path));
        ok(kind, path);
        const result = await kind.parse(path, {
          includeSubagents: true,
          source: src,
        });
        equal(result.skipped, 0, path);
      }
    }
  },
});

Deno.test("parseCopilotChatSession() reads older documents: string messages, computedTitle, hidden requests", async (t) => {
  await t.step("version 1: the message is the typed text", async () => {
    const path = await sessionFile(
      JSON.stringify({
        sessionId: "v1",
        creationDate: 1700000000000,
        isImported: false,
        requesterUsername: "dev",
        responderUsername: "GitHub Copilot",
        requests: [{
          requestId: "request_1",
          message: "how do I debounce the button input?",
          variableData: { variables: [] },
          response: [{ value: "Sample the pin every 5 ms and require" }, {
            value: " three equal reads.",
          }],
        }],
      }),
      "json",
    );
    const s = (await parse(path)).sessions[0] as Session;
    deepEqual(s.records.map((r) => [r.role, r.text]), [
      ["user", "how do I debounce the button input?"],
      ["assistant", "Sample the pin every 5 ms and require three equal reads."],
    ]);
    equal(s.started, 1700000000000);
  });
  await t.step("version 2: computedTitle names the session", async () => {
    const path = await sessionFile(
      JSON.stringify({
        version: 2,
        sessionId: "v2",
        creationDate: 1710000000000,
        lastMessageDate: 1710000060000,
        computedTitle: "Button debounce",
        requests: [request("request_1", "debounce?", "Use a timer.")],
      }),
      "json",
    );
    const s = (await parse(path)).sessions[0] as Session;
    equal(s.title, "Button debounce");
    equal(s.started, 1710000000000);
  });
  await t.step("requests the user undid are marked", async () => {
    const undone = {
      ...request("request_2", "drop the timer", "Done.") as object,
      shouldBeRemovedOnSend: { requestId: "request_2" },
    };
    const old = {
      ...request("request_3", "and the LED?", "Off.") as object,
      isHidden: true,
    };
    const path = await sessionFile(
      JSON.stringify({
        version: 3,
        sessionId: "v3",
        requests: [
          request("request_1", "debounce?", "Use a timer."),
          undone,
          old,
        ],
      }),
      "json",
    );
    const s = (await parse(path)).sessions[0] as Session;
    deepEqual(s.marks, [{ kind: "undo", from: 2, to: 6 }]);
  });
});

Deno.test("copilotChat.roots() includes Windsurf and Code - OSS", () => {
  const roots = copilotChat.roots({ home: "/h", env: {}, os: "linux" });
  ok(roots.includes("/h/.config/Windsurf/User"));
  ok(roots.includes("/h/.config/Code - OSS/User"));
});
