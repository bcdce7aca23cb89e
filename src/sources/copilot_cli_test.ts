import { deepEqual, equal, ok } from "node:assert/strict";
import type { ParseResult, SourceEnv } from "../core/harness.ts";
import type { Session } from "../core/types.ts";
import {
  copilotCli,
  type CopilotCliParseOptions,
  parseCopilotCliSession,
} from "./copilot_cli.ts";
import {
  hasSamples,
  resumeOptions,
  sampleDir,
  tempFileAt,
} from "./_test_kit.ts";

const HOME = new URL("../../fixtures/copilot-cli", import.meta.url).pathname;
const SAMPLES = sampleDir("copilot");
const MAIN = "3e7a9c15-2b4d-4f60-8a1e-9d5c0b7f2e48";
const FORK = "8a4f2c61-0d3e-4b9a-b7c5-1e6d2f8a9c03";
const CURRENT = "c41d7e90-5a2b-4c8f-9e13-7f0a6b2d8e55";
const STATE = `${HOME}/.copilot/session-state`;

const source: SourceEnv = { home: HOME, env: {}, os: "linux" };

function parse(
  path: string,
  extra: Partial<CopilotCliParseOptions> = {},
): Promise<ParseResult> {
  return parseCopilotCliSession(path, {
    includeSubagents: true,
    source,
    ...extra,
  });
}

function eventsFile(text: string): Promise<string> {
  return tempFileAt("session-state/s1/events.jsonl", text);
}

function ev(type: string, data: unknown, id: string): string {
  return JSON.stringify({
    type,
    data,
    id,
    timestamp: "2026-01-01T00:00:00Z",
    parentId: null,
  });
}

Deno.test("copilotCli.roots() honours DEJA_COPILOT_ROOT, then COPILOT_HOME, then HOME", async (t) => {
  for (
    const [env, want] of [
      [{}, "/h/.copilot/session-state"],
      [{ COPILOT_HOME: "/c" }, "/c/session-state"],
      [{ DEJA_COPILOT_ROOT: "/s", COPILOT_HOME: "/c" }, "/s"],
      [{ XDG_STATE_HOME: "/x/" }, [
        "/h/.copilot/session-state",
        "/x/.copilot/session-state",
      ]],
      [{ XDG_STATE_HOME: "/x", COPILOT_HOME: "/c" }, "/c/session-state"],
    ] as const
  ) {
    await t.step(JSON.stringify(env), () => {
      deepEqual(
        copilotCli.roots({ home: "/h", env, os: "linux" }),
        typeof want === "string" ? [want] : want,
      );
    });
  }
});

Deno.test("copilotCli.discover() finds sessions 0.0.4xx builds kept under $XDG_STATE_HOME/.copilot", async () => {
  const path = await tempFileAt(
    "state/.copilot/session-state/5d2c8e41-7a3b-4f19-9c60-2e8b1d4f7a93/events.jsonl",
    ev("user.message", { content: "tidy the makefile" }, "x1") + "\n",
  );
  const state = path.slice(0, path.indexOf("/.copilot/"));
  const found = await copilotCli.discover({
    home: HOME,
    env: { XDG_STATE_HOME: state },
    os: "linux",
  });
  ok(found.includes(path));
  ok(found.includes(`${STATE}/${MAIN}/events.jsonl`));
});

Deno.test("copilotCli.discover() finds events.jsonl and legacy flat logs", async () => {
  deepEqual(
    (await copilotCli.discover(source)).sort(),
    [
      `${STATE}/${MAIN}/events.jsonl`,
      `${STATE}/${FORK}/events.jsonl`,
      `${STATE}/${CURRENT}/events.jsonl`,
    ].sort(),
  );
  const kind = copilotCli.kinds[0];
  ok(kind?.match("/x/session-state/abc.jsonl"));
  ok(!kind?.match("/x/session-state/abc/checkpoints/index.md"));
  equal(kind?.appendOnly, true);
});

Deno.test("parseCopilotCliSession() reads messages, tools, exit codes and a sub-agent side chain", async () => {
  const result = await parse(`${STATE}/${MAIN}/events.jsonl`);
  equal(result.skipped, 0);
  const [s, side] = result.sessions as [Session, Session];
  equal(s.id, MAIN);
  equal(s.project, "ledger");
  equal(s.title, "Fix Trailing Comma Import");
  deepEqual(s.records.map((r) => [r.role, r.tool, r.exitCode, r.flags]), [
    ["user", undefined, undefined, undefined],
    ["assistant", undefined, undefined, undefined],
    ["command", "bash", 3, undefined],
    ["files", "view", undefined, undefined],
    ["tool-output", "bash", undefined, { isError: true }],
    ["tool-output", "view", undefined, undefined],
    ["tool-output", "task", undefined, undefined],
    ["files", "edit", undefined, undefined],
    ["edit", "edit", undefined, undefined],
    ["tool-output", "edit", undefined, { isError: true }],
    ["assistant", undefined, undefined, undefined],
  ]);
  // The typed words, not the transformed prompt with its injected blocks.
  equal(
    s.records[0]?.text,
    "the ledger import skips rows with a trailing comma, fix it",
  );
  ok(!s.records.some((r) => r.text === "Intent logged"), "report_intent");
  equal(s.records[0]?.locator.recordId, "ev03");
  equal(side.id, `${MAIN}:explore-1`);
  deepEqual([side.parent, side.lineage], [MAIN, "sidechain"]);
  ok(side.records.every((r) => r.flags?.subagent));
  equal(
    (await parse(`${STATE}/${MAIN}/events.jsonl`, { includeSubagents: false }))
      .sessions.length,
    1,
  );
});

Deno.test("parseCopilotCliSession() reads a 2026 log: shell_exit codes, contents, title changes, injected turns", async () => {
  const result = await parse(`${STATE}/${CURRENT}/events.jsonl`);
  equal(result.skipped, 0);
  const [main, side] = result.sessions;
  equal(main?.id, CURRENT);
  equal(main?.title, "Invoice rounding drift");
  equal(main?.cwd, "/home/dev/src/billing");
  deepEqual(main?.records.map((r) => [r.role, r.tool, r.exitCode, r.flags]), [
    ["user", undefined, undefined, undefined],
    ["files", "mention", undefined, undefined],
    ["assistant", undefined, undefined, undefined],
    ["command", "bash", 1, undefined],
    ["tool-output", "bash", undefined, { isError: true }],
    ["tool-output", "github-mcp-server-search_issues", undefined, undefined],
    ["assistant", undefined, undefined, undefined],
    ["user", undefined, undefined, undefined],
  ]);
  equal(main?.records[0]?.text, "Why does the invoice total drift by a cent?");
  equal(main?.records[1]?.text, "/home/dev/src/billing/src/total.ts");
  equal(main?.records[5]?.text, "#412 Invoice totals off by one cent (open)");
  ok(!main?.records.some((r) => r.text.includes("integer cents for all")));
  ok(!main?.records.some((r) => r.text.includes("Continue working")));
  ok(!main?.records.some((r) => r.text.includes("float summation")));
  equal(side?.id, `${CURRENT}:explore-1`);
  deepEqual(side?.records.map((r) => r.role), ["user", "assistant"]);
  deepEqual(side?.records[1]?.flags, { subagent: true });
});

Deno.test("parseCopilotCliSession() leaves out user turns another agent, autopilot or a schedule sent, and keeps the prompt a person scheduled", async () => {
  const [main, side] = (await parse(`${STATE}/${CURRENT}/events.jsonl`))
    .sessions;
  // The schedule's prompt is the person's once, when `/every` took it.
  deepEqual(
    main?.records.filter((r) => r.role === "user").map((r) => [
      r.text,
      r.locator.recordId,
    ]),
    [
      ["Why does the invoice total drift by a cent?", "e02"],
      ["Re-run the rounding tests and report.", "e18c2"],
    ],
  );
  for (const text of ["Objective:", "Reviewer note", "CI went green"]) {
    ok(!main?.records.some((r) => r.text.includes(text)), text);
  }
  // The spawning agent's prompt stays the sub-agent's task in its side chain.
  equal(side?.records[0]?.text, "Find every place invoice totals are summed.");
  equal(main?.updated, Date.parse("2026-09-14T08:01:00.000Z"));
});

Deno.test("parseCopilotCliSession() files a detached run under the session that spawned it, across passes", async () => {
  const path = await eventsFile(
    ev("session.start", {
      sessionId: "s1",
      copilotVersion: "1.6.0",
      producer: "copilot-agent",
      startTime: "2026-01-01T00:00:00Z",
      version: 1,
      context: { cwd: "/w" },
      detachedFromSpawningParentSessionId: "p0",
    }, "d1") + "\n" +
      ev("user.message", { content: "note what the session learned" }, "d2") +
      "\n",
  );
  const first = await parse(path);
  const s = first.sessions[0] as Session;
  deepEqual([s.parent, s.lineage], ["p0", "subagent"]);
  await Deno.writeTextFile(
    path,
    ev("assistant.message", { content: "Noted." }, "d3") + "\n",
    { append: true },
  );
  const next = (await parse(path, resumeOptions(first))).sessions[0];
  deepEqual([next?.parent, next?.lineage], ["p0", "subagent"]);
});

Deno.test("parseCopilotCliSession() keeps the summary a handoff brings from the session it came from", async () => {
  const path = await eventsFile(
    [
      ev("session.start", { sessionId: "s1", context: { cwd: "/w" } }, "h1"),
      ev("session.handoff", {
        handoffTime: "2026-01-01T00:00:00Z",
        sourceType: "remote",
        host: "https://github.com",
        remoteSessionId: "r-42",
        repository: { owner: "dev", name: "relay", branch: "copilot/jitter" },
        summary:
          "Added jittered backoff to Retry; the seeded test still flakes.",
      }, "h2"),
      ev("user.message", { content: "pick up where it left off" }, "h3"),
    ].join("\n") + "\n",
  );
  const s = (await parse(path)).sessions[0] as Session;
  deepEqual(s.records.map((r) => [r.role, r.text]), [
    [
      "summary",
      "Added jittered backoff to Retry; the seeded test still flakes.",
    ],
    ["user", "pick up where it left off"],
  ]);
});

Deno.test("parseCopilotCliSession() files events stamped only with the older parentToolCallId as a side chain", async () => {
  const path = await eventsFile(
    [
      ev("session.start", { sessionId: "s1", context: { cwd: "/w" } }, "a1"),
      ev("user.message", { content: "audit the retries" }, "a2"),
      ev("assistant.message", {
        content: "Delegating.",
        toolRequests: [{
          toolCallId: "call_task",
          name: "task",
          arguments: {},
        }],
      }, "a3"),
      ev("assistant.message", {
        content: "Found two retry loops.",
        parentToolCallId: "call_task",
      }, "a4"),
      ev("tool.execution_start", {
        toolCallId: "call_sub",
        toolName: "bash",
        arguments: { command: "grep -rn retry" },
        parentToolCallId: "call_task",
      }, "a5"),
      ev("tool.execution_complete", {
        toolCallId: "call_sub",
        success: true,
        result: { content: "src/a.ts:3: retry" },
        parentToolCallId: "call_task",
      }, "a6"),
    ].join("\n") + "\n",
  );
  const result = await parse(path);
  const [main, side] = result.sessions;
  deepEqual(main?.records.map((r) => r.text), [
    "audit the retries",
    "Delegating.",
  ]);
  equal(side?.id, "s1:call_task");
  deepEqual(side?.records.map((r) => [r.role, r.exitCode]), [
    ["assistant", undefined],
    ["command", 0],
    ["tool-output", undefined],
  ]);
  const off = await parse(path, { includeSubagents: false });
  equal(off.sessions.length, 1);
});

Deno.test("parseCopilotCliSession() keeps a changed title across an incremental pass", async () => {
  const first = ev("user.message", { content: "hello" }, "b1") + "\n" +
    ev("session.title_changed", { title: "Greeting" }, "b2") + "\n";
  const path = await eventsFile(first);
  const r1 = await parse(path);
  equal(r1.sessions[0]?.title, "Greeting");
  await Deno.writeTextFile(
    path,
    ev("assistant.message", { content: "hi" }, "b3") + "\n",
    { append: true },
  );
  const r2 = await parse(path, resumeOptions(r1));
  equal(r2.sessions[0]?.title, "Greeting");
});

Deno.test("parseCopilotCliSession() survives hostile 2026-shaped results", async () => {
  const path = await eventsFile([
    ev("session.title_changed", { title: 5 }, "h1"),
    ev("user.message", {
      content: "x",
      source: 3,
      isAutopilotContinuation: "yes",
    }, "h2"),
    ev("tool.execution_start", {
      toolCallId: "t1",
      toolName: "bash",
      arguments: { command: "ls" },
    }, "h3"),
    ev("tool.execution_complete", {
      toolCallId: "t1",
      success: false,
      result: {
        content: 4,
        contents: [null, { type: "shell_exit", exitCode: 1.5 }, {
          type: "terminal",
          exitCode: "2",
          text: 9,
        }],
      },
      parentToolCallId: {},
    }, "h4"),
    '{"type":"tool.execution_complete","data":{"toolCallId":"t1","result":{"contents":"',
  ].join("\n"));
  const result = await parse(path);
  const s = result.sessions[0];
  equal(s?.records[0]?.text, "x");
  deepEqual(s?.records.map((r) => [r.role, r.exitCode]), [
    ["user", undefined],
    ["command", undefined],
  ]);
});

Deno.test("parseCopilotCliSession() files a /fork under the session its note names", async () => {
  const s = (await parse(`${STATE}/${FORK}/events.jsonl`))
    .sessions[0] as Session;
  deepEqual([s.id, s.parent, s.lineage], [FORK, MAIN, "fork"]);
  equal(s.title, "Trailing Comma Regression Test");
});

Deno.test("parseCopilotCliSession() resumes at a line boundary with the same records", async () => {
  const path = `${STATE}/${MAIN}/events.jsonl`;
  const whole = await parse(path);
  const text = await Deno.readTextFile(path);
  const cut = text.indexOf("\n", Math.floor(text.length / 2)) + 1;
  const firstLine = text.slice(0, cut).split("\n").length;
  const temp = await eventsFile(text.slice(0, cut));
  const first = await parse(temp);
  equal(first.safeOffset, cut);
  await Deno.writeTextFile(temp, text.slice(cut), { append: true });
  const second = await parse(temp, {
    offset: first.safeOffset as number,
    firstLine,
    state: JSON.parse(JSON.stringify(first.state)),
  });
  const texts = (r: ParseResult) =>
    r.sessions.filter((s) => s.id === MAIN).flatMap((s) =>
      s.records.map((x) => `${x.seq}:${x.role}:${x.text}`)
    );
  deepEqual([...texts(first), ...texts(second)], texts(whole));
  ok(texts(second).length > 0);
  equal(second.safeOffset, text.length);
});

Deno.test("parseCopilotCliSession() leaves a torn last line and counts malformed and oversized ones", async () => {
  const text = [
    ev("user.message", { content: "kept" }, "a"),
    "{nope",
    "null",
    ev("user.message", { content: "z".repeat(3000) }, "b"),
    JSON.stringify({ data: {} }),
  ].join("\n") + '\n{"type":"user.message","data":{"content":"tor';
  const result = await parse(await eventsFile(text), { maxLineBytes: 1000 });
  equal(result.skipped, 4);
  deepEqual(result.sessions[0]?.records.map((r) => r.text), ["kept"]);
  equal(result.safeOffset, text.lastIndexOf("\n") + 1);
});

Deno.test("parseCopilotCliSession() survives hostile input and hostile resume state", async (t) => {
  const cases: Array<[string, string]> = [
    ["garbage bytes", "\u0000\u00ff\ufffd\n\r\n\t\n"],
    [
      "wrong types",
      [
        ev("session.start", { sessionId: 9, context: "x" }, "1"),
        ev("user.message", { content: ["a"] }, "2"),
        ev("assistant.message", {
          content: null,
          toolRequests: [1, { name: 2 }, {
            toolCallId: "__proto__",
            name: "bash",
            arguments: "{",
          }],
        }, "3"),
        ev("tool.execution_complete", {
          toolCallId: "__proto__",
          success: "no",
          result: { content: [{ text: 5 }] },
        }, "4"),
        ev("session.info", { infoType: "fork", message: 42 }, "5"),
        JSON.stringify({ type: "user.message", data: "str", agentId: {} }),
      ].join("\n") + "\n",
    ],
    ["huge nesting", `${"[".repeat(120_000)}\n`],
  ];
  for (const [name, text] of cases) {
    await t.step(name, async () => {
      const path = await eventsFile(text);
      const result = await parse(path);
      ok(result.skipped >= 0);
      await parse(path, {
        state: { nextSeq: "x", sides: { __proto__: 5, a: -1 }, sessionId: 3 },
      });
    });
  }
  equal(({} as Record<string, unknown>).polluted, undefined);
});

Deno.test({
  name: "copilot-cli parses the real sample with the turns a reader counts",
  ignore: !hasSamples("copilot"),
  fn: async () => {
    let sessions = 0;
    for await (const entry of Deno.readDir(SAMPLES)) {
      const env = { COPILOT_HOME: `${SAMPLES}/${entry.name}` };
      for (
        const path of await copilotCli.discover({
          home: "/nohome",
          env,
          os: "linux",
        })
      ) {
        const result = await parse(path);
        equal(result.skipped, 0, path);
        for (const s of result.sessions) {
          sessions++;
          const count = (role: string) =>
            s.records.filter((r) => r.role === role).length;
          // 7 prompts; 60 assistant messages of which 7 say something.
          deepEqual([count("user"), count("assistant")], [7, 7]);
          // 59 executions less 20 report_intent bookkeeping calls.
          equal(count("tool-output"), 39);
          // Three failed calls, and a script that exited 255 though Copilot
          // marked its run a success.
          equal(s.records.filter((r) => r.flags?.isError).length, 4);
          // 8 shell commands and 3 grep searches.
          equal(count("command"), 11);
          equal(
            s.records.filter((r) => r.role === "command" && r.tool === "grep")
              .length,
            3,
          );
          ok(s.records.some((r) => r.role === "command" && r.exitCode === 255));
          equal(s.project, "poule_v2");
          equal(s.title, "Create Database Migrations And Seeder");
        }
      }
    }
    equal(sessions, 1);
  },
});

Deno.test("parseCopilotCliSession() keeps what a grep call searched for as a command before its output", async () => {
  const grep = {
    toolCallId: "g1",
    name: "grep",
    arguments: {
      pattern: "CREATE TABLE `(\\w+)`",
      path: "/srv/kestrel/db/schema.sql",
      output_mode: "content",
    },
  };
  const path = await eventsFile(
    [
      ev("user.message", { content: "which tables does kestrel make?" }, "e1"),
      ev("assistant.message", {
        content: "",
        toolRequests: [grep, {
          toolCallId: "g2",
          name: "grep",
          arguments: { path: "/srv/kestrel", glob: "*.sql" },
        }],
      }, "e2"),
      // The same call again as it starts: one command, not two.
      ev("tool.execution_start", {
        toolCallId: "g1",
        toolName: "grep",
        arguments: grep.arguments,
      }, "e3"),
      ev("tool.execution_complete", {
        toolCallId: "g1",
        success: true,
        result: { content: "schema.sql:4:CREATE TABLE `perch` (" },
      }, "e4"),
      ev("tool.execution_start", {
        toolCallId: "g3",
        toolName: "glob",
        arguments: { pattern: "**/*.sql" },
      }, "e5"),
      ev("tool.execution_complete", {
        toolCallId: "g2",
        success: true,
        result: { content: "No matches found." },
      }, "e6"),
    ].join("\n") + "\n",
  );
  const s = (await parse(path)).sessions[0];
  deepEqual(s?.records.map((r) => [r.role, r.tool, r.text, r.exitCode]), [
    ["user", undefined, "which tables does kestrel make?", undefined],
    [
      "command",
      "grep",
      "grep 'CREATE TABLE `(\\w+)`' /srv/kestrel/db/schema.sql",
      undefined,
    ],
    ["tool-output", "grep", "schema.sql:4:CREATE TABLE `perch` (", undefined],
    // A call without a pattern, and the glob tool, name no search.
    ["tool-output", "grep", "No matches found.", undefined],
  ]);
});

Deno.test("parseCopilotCliSession() keeps a side chain named __proto__ in order", async () => {
  const text = [
    JSON.stringify({
      type: "user.message",
      data: { content: "one" },
      agentId: "__proto__",
    }),
    JSON.stringify({
      type: "user.message",
      data: { content: "two" },
      agentId: "__proto__",
    }),
  ].join("\n") + "\n";
  const path = await eventsFile(text);
  const first = await parse(path);
  const side = first.sessions.find((s) => s.id.endsWith(":__proto__"));
  deepEqual(side?.records.map((r) => r.seq), [0, 1]);
  const state = JSON.parse(JSON.stringify(first.state));
  await Deno.writeTextFile(
    path,
    JSON.stringify({
      type: "user.message",
      data: { content: "three" },
      agentId: "__proto__",
    }) + "\n",
    { append: true },
  );
  const next = await parse(path, { offset: first.safeOffset as number, state });
  deepEqual(next.sessions[0]?.records.map((r) => r.seq), [2]);
});

Deno.test("copilot CLI: the pre-1.0 history-session-state JSON dumps are found and read", async () => {
  const home = await Deno.makeTempDir();
  const id = "0f6b2d84-3c1e-4a97-b5d0-7e2a9c4f1b63";
  const legacy = `${home}/.copilot/history-session-state/${id}.json`;
  await Deno.mkdir(`${home}/.copilot/history-session-state`, {
    recursive: true,
  });
  await Deno.writeTextFile(
    legacy,
    JSON.stringify(
      {
        sessionId: id,
        startTime: "2025-10-08T21:10:16.398Z",
        chatMessages: [
          { role: "system", content: "You are the GitHub Copilot CLI." },
          { role: "user", content: "bump the lodash pin" },
          {
            role: "assistant",
            content: "Checking the lockfile first.",
            tool_calls: [{
              id: "call_1",
              type: "function",
              function: {
                name: "bash",
                arguments: JSON.stringify({
                  command: "npm ls lodash",
                  description: "see version",
                }),
              },
            }, {
              id: "call_2",
              type: "function",
              function: {
                name: "str_replace_editor",
                arguments: JSON.stringify({
                  command: "str_replace",
                  path: "/home/u/shop/package.json",
                  old_str: '"lodash": "4.17.20"',
                  new_str: '"lodash": "4.17.21"',
                }),
              },
            }],
          },
          {
            role: "tool",
            tool_call_id: "call_1",
            content: "lodash@4.17.20\n<exited with exit code 0>",
          },
          { role: "tool", tool_call_id: "call_2", content: "File edited." },
          { role: "assistant", content: "Pinned to 4.17.21." },
        ],
        timeline: [],
      },
      null,
      2,
    ),
  );
  const env: SourceEnv = { home, env: {}, os: "linux" };
  deepEqual(await copilotCli.discover(env), [legacy]);
  const kind = copilotCli.kinds.find((k) => k.match(legacy));
  ok(kind);
  equal(kind.appendOnly, false);
  const result = await kind.parse(legacy, {
    includeSubagents: true,
    source: env,
  });
  equal(result.sessions.length, 1);
  const s = result.sessions[0] as Session;
  equal(s.id, id);
  equal(s.title, "bump the lodash pin");
  equal(s.started, Date.parse("2025-10-08T21:10:16.398Z"));
  deepEqual(s.records.map((r) => [r.role, r.text, r.exitCode]), [
    ["user", "bump the lodash pin", undefined],
    ["assistant", "Checking the lockfile first.", undefined],
    ["command", "npm ls lodash", 0],
    ["files", "/home/u/shop/package.json", undefined],
    ["edit", '/home/u/shop/package.json\n"lodash": "4.17.20"', undefined],
    ["tool-output", "lodash@4.17.20\n<exited with exit code 0>", undefined],
    ["tool-output", "File edited.", undefined],
    ["assistant", "Pinned to 4.17.21.", undefined],
  ]);
});

Deno.test("parseCopilotCliSession() keeps a model call's error, the files a prompt attached, and leaves out input from another session", async () => {
  const path = await eventsFile(
    [
      ev("session.start", {
        sessionId: "s1",
        context: { cwd: "/work/ledger" },
      }, "a1"),
      ev("user.message", {
        content: "Why does @src/round.ts drop half cents?",
        attachments: [
          {
            type: "file",
            path: "/work/ledger/src/round.ts",
            displayName: "round.ts",
          },
          { type: "directory", path: "/work/ledger/test", displayName: "test" },
          {
            type: "selection",
            filePath: "/work/ledger/src/sum.ts",
            displayName: "sum.ts:3-9",
            text: "total += x",
            selection: {
              start: { line: 2, character: 0 },
              end: { line: 8, character: 1 },
            },
          },
          { type: "blob", mimeType: "image/png", data: "iVBORw0KGgo=" },
          { type: "github_reference", number: 7, url: "https://example.com/7" },
          "not an attachment",
        ],
      }, "a2"),
      ev("session.error", {
        errorType: "rate_limit",
        message: "You have exceeded your rate limit. Try again in 42 seconds.",
        statusCode: 429,
      }, "a3"),
      ev("user.message", {
        content: "Status from the release session: tag v2.4.1 is cut.",
        crossSession: {
          integrity: "untrusted",
          origin: "authenticated-cross-session",
          version: 1,
        },
      }, "a4"),
      ev("session.error", { errorType: "query" }, "a5"),
      ev("assistant.message", { content: "Rounding uses Math.floor." }, "a6"),
    ].join("\n") + "\n",
  );
  const result = await parse(path);
  equal(result.skipped, 0);
  const [main] = result.sessions;
  deepEqual(main?.records.map((r) => [r.role, r.tool, r.text, r.flags]), [
    ["user", undefined, "Why does @src/round.ts drop half cents?", undefined],
    ["files", "mention", "/work/ledger/src/round.ts", undefined],
    ["files", "mention", "/work/ledger/src/sum.ts", undefined],
    [
      "tool-output",
      "model",
      "You have exceeded your rate limit. Try again in 42 seconds.",
      { isError: true },
    ],
    ["assistant", undefined, "Rounding uses Math.floor.", undefined],
  ]);
});
