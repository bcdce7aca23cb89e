import { deepEqual, equal, ok } from "node:assert/strict";
import type { ParseResult, SourceEnv } from "../core/harness.ts";
import type { Session } from "../core/types.ts";
import { junie, parseJunieEvents } from "./junie.ts";
import { jsonLines, tempFileAt } from "./_test_kit.ts";

const HOME = new URL("../../fixtures/junie", import.meta.url).pathname;
const FIXTURE =
  `${HOME}/.junie/sessions/session-260412-101502-q7zk/events.jsonl`;
/** A late-2026 log: timed lines, request ids, MCP and markdown blocks. */
const CURRENT =
  `${HOME}/.junie/sessions/session-261118-143005-m2tx/events.jsonl`;

const source: SourceEnv = { home: HOME, env: {}, os: "linux" };

function parse(path: string): Promise<ParseResult> {
  return parseJunieEvents(path, { includeSubagents: true, source });
}

function eventsFile(text: string): Promise<string> {
  return tempFileAt("sessions/session-1/events.jsonl", text);
}

function block(kind: string, fields: Record<string, unknown>): unknown {
  return {
    kind: "SessionA2uxEvent",
    event: { state: "COMPLETED", agentEvent: { kind, ...fields } },
  };
}

Deno.test("junie.roots() honours DEJA_JUNIE_ROOT, then JUNIE_HOME, then HOME", async (t) => {
  for (
    const [env, want] of [
      [{}, "/h/.junie/sessions"],
      [{ JUNIE_HOME: "/j" }, "/j/sessions"],
      [{ DEJA_JUNIE_ROOT: "/s", JUNIE_HOME: "/j" }, "/s"],
    ] as const
  ) {
    await t.step(JSON.stringify(env), () => {
      deepEqual(junie.roots({ home: "/h", env, os: "linux" }), [want]);
    });
  }
});

Deno.test("junie.discover() finds the fixture logs, not index.jsonl or task folders", async () => {
  deepEqual((await junie.discover(source)).sort(), [FIXTURE, CURRENT]);
});

Deno.test("parseJunieEvents() keeps each step's last block in its first place", async () => {
  const result = await parse(FIXTURE);
  equal(result.skipped, 0);
  const s = result.sessions[0] as Session;
  deepEqual([s.id, s.title, s.started, s.updated], [
    "session-260412-101502-q7zk",
    "Fix invoice total rounding",
    1775988902000,
    1775989240000,
  ]);
  deepEqual(
    s.records.map((r) => [r.role, r.tool, r.exitCode, r.text.split("\n")[0]]),
    [
      [
        "user",
        undefined,
        undefined,
        "The invoice PDF shows totals with three decimals. Fix the rounding in the renderer.",
      ],
      ["files", "view", undefined, "src/invoice/render.py"],
      [
        "command",
        "terminal",
        1,
        "python -m pytest tests/test_render.py -q",
      ],
      ["tool-output", "terminal", undefined, "F."],
      ["files", "edit", undefined, "src/invoice/render.py"],
      ["edit", "edit", undefined, "src/invoice/render.py"],
      ["tool-output", "tool", undefined, "Search for usages of total("],
      [
        "command",
        "terminal",
        undefined,
        "python -m pytest tests/test_render.py -q",
      ],
      ["tool-output", "terminal", undefined, ".."],
      [
        "assistant",
        undefined,
        undefined,
        "Totals now go through money.quantize (ROUND_HALF_UP to cents); the renderer tests pass.",
      ],
    ],
  );
  equal(s.records[1]?.text, "src/invoice/render.py\nsrc/invoice/money.py");
  equal(s.records[5]?.text, 'src/invoice/render.py\n    return f"{x:.3f}"');
  equal(s.records[1]?.locator.recordId, "step-1");
  equal(s.records[1]?.locator.line, 6);
  equal(s.project, "");
});

Deno.test("parseJunieEvents() reads the current log shape", async () => {
  const result = await parse(CURRENT);
  equal(result.skipped, 0);
  const s = result.sessions[0] as Session;
  const t0 = Date.UTC(2026, 10, 18, 14, 30, 5);
  deepEqual([s.id, s.title, s.cwd, s.project, s.started, s.updated], [
    "session-261118-143005-m2tx",
    "Keep quoted names in CSV export",
    "/home/dev/shop",
    "shop",
    t0,
    t0 + 62_000,
  ]);
  deepEqual(
    s.records.map((r) => [
      r.role,
      r.tool,
      r.time === undefined ? undefined : r.time - t0,
      r.exitCode,
      r.flags?.isError,
      r.text.split("\n")[0],
    ]),
    [
      [
        "user",
        undefined,
        0,
        undefined,
        undefined,
        "The CSV export drops rows with a quote in the name. Fix it.",
      ],
      [
        "assistant",
        undefined,
        5300,
        undefined,
        undefined,
        "Let me read the CSV writer and its test first.",
      ],
      [
        "command",
        "terminal",
        6000,
        1,
        undefined,
        "cd /home/dev/shop && npx vitest run src/export",
      ],
      [
        "tool-output",
        "terminal",
        6000,
        undefined,
        true,
        "FAIL src/export/csv.test.ts > keeps quoted names",
      ],
      [
        "tool-output",
        "search_project",
        9300,
        undefined,
        undefined,
        "src/export/csv.ts:14 function escapeCell(v: string)",
      ],
      ["files", "edit", 10_000, undefined, undefined, "src/export/csv.ts"],
      ["edit", "edit", 10_000, undefined, undefined, "src/export/csv.ts"],
      [
        "tool-output",
        "apply_patch",
        10_100,
        undefined,
        true,
        "Patch did not apply: context mismatch in src/export/index.ts",
      ],
      [
        "command",
        "terminal",
        12_000,
        undefined,
        undefined,
        "npx vitest run src/export",
      ],
      [
        "tool-output",
        "terminal",
        12_000,
        undefined,
        undefined,
        "✓ src/export/csv.test.ts (3 tests)",
      ],
      [
        "assistant",
        undefined,
        13_000,
        undefined,
        undefined,
        "Cells with a quote are now quoted and escaped instead of emptied; the export tests pass.",
      ],
    ],
  );
  equal(
    s.records[6]?.text,
    "src/export/csv.ts\n  return v.includes('\"') ? '' : v;",
  );
  // The sent prompt's IDE context and the environment never reach a record.
  ok(
    !s.records.some((r) => /ide-context|API_TOKEN|never-indexed/.test(r.text)),
  );
});

Deno.test("parseJunieEvents() takes the directory and title from wherever they are stated", async (t) => {
  const prompt = { kind: "UserPromptEvent", prompt: "go" };
  const named = block("AgentTaskNameUpdatedEvent", { name: "From the agent" });
  const where = block("CurrentDirectoryUpdatedEvent", {
    currentDirectory: "/w/api",
  });
  const index = JSON.stringify({
    sessionId: "session-1",
    taskName: "From the index",
    projectDir: "/w/from-index",
  });
  const cases: Array<[string, unknown[], string | undefined, string[]]> = [
    ["log only", [prompt, named, where], undefined, ["From the agent", "api"]],
    ["index beats the agent's name", [prompt, named], index, [
      "From the index",
      "from-index",
    ]],
    ["the log's directory beats the index", [prompt, where], index, [
      "From the index",
      "api",
    ]],
    [
      "a title set in the log beats all",
      [prompt, named, { kind: "SessionTitleSetEvent", name: "Renamed" }],
      index,
      ["Renamed", "from-index"],
    ],
  ];
  for (const [name, lines, indexLine, want] of cases) {
    await t.step(name, async () => {
      const path = await eventsFile(jsonLines(lines));
      if (indexLine) {
        await Deno.writeTextFile(
          path.replace("session-1/events.jsonl", "index.jsonl"),
          indexLine + "\n",
        );
      }
      const s = (await parse(path)).sessions[0] as Session;
      deepEqual([s.title, s.project], want);
    });
  }
});

Deno.test("parseJunieEvents() keeps a prompt restated under its request id once, and drops undelivered ones", async () => {
  const path = await eventsFile(jsonLines([
    { kind: "UserPromptEvent", requestId: "a", prompt: "draft" },
    {
      kind: "UserPromptEvent",
      requestId: "a",
      presentablePrompt: "final words",
      prompt: "final words + context",
    },
    { kind: "UserPromptEvent", requestId: "b", prompt: "queued" },
    { kind: "UserMessagesDroppedFromHistory", userMessageIds: ["b", 3] },
    {
      kind: "UserPromptEvent",
      requestId: "c",
      prompt: "x",
      delivery: "Failed",
    },
    { kind: "UserResponseEvent", prompt: "yes, go on" },
    {
      kind: "UserAsyncResponseEvent",
      entries: [{ question: "Which DB?", answer: "Postgres" }, null],
    },
    { kind: "AgentTaskFailedEvent" },
  ]));
  const s = (await parse(path)).sessions[0] as Session;
  deepEqual(s.records.map((r) => [r.role, r.text, r.flags?.isError]), [
    ["user", "final words", undefined],
    ["user", "yes, go on", undefined],
    ["user", "Which DB?\nPostgres", undefined],
    ["tool-output", "Agent task failed", true],
  ]);
});

Deno.test("parseJunieEvents() keeps a specialised block when a generic tool label shares its step", async () => {
  const path = await eventsFile(jsonLines([
    block("TerminalBlockUpdatedEvent", {
      stepId: "s",
      command: "ls",
      output: "a.ts",
    }),
    block("ToolBlockUpdatedEvent", { stepId: "s", text: "Running command" }),
  ]));
  const s = (await parse(path)).sessions[0] as Session;
  deepEqual(s.records.map((r) => r.text), ["ls", "a.ts"]);
});

Deno.test("parseJunieEvents() keeps a tool block's output beside its label and details", async () => {
  const path = await eventsFile(jsonLines([
    block("ToolBlockUpdatedEvent", {
      stepId: "g",
      text: 'Found "**/Invoice*.kt"',
      details: "2 files",
      output: "src/Invoice.kt\nsrc/InvoiceTest.kt",
      toolType: "FIND",
    }),
    block("ToolBlockUpdatedEvent", {
      stepId: "h",
      text: "Searched",
      details: "no match",
      output: "no match",
    }),
  ]));
  const s = (await parse(path)).sessions[0] as Session;
  deepEqual(s.records.map((r) => [r.role, r.tool, r.text]), [
    [
      "tool-output",
      "tool",
      'Found "**/Invoice*.kt"\n\n2 files\n\nsrc/Invoice.kt\nsrc/InvoiceTest.kt',
    ],
    ["tool-output", "tool", "Searched\n\nno match"],
  ]);
});

Deno.test("parseJunieEvents() reads an IDE test run as the run it names, with its result", async () => {
  const path = await eventsFile(jsonLines([
    block("TestRunBlockUpdatedEvent", {
      stepId: "t",
      status: "IN_PROGRESS",
      name: "Run test InvoiceTest",
    }),
    block("TestRunBlockUpdatedEvent", {
      stepId: "t",
      status: "FAILED",
      name: "Run test InvoiceTest",
      result: "1 of 4 failed: totalRoundsHalfUp",
    }),
    block("TestRunBlockUpdatedEvent", {
      stepId: "u",
      status: "COMPLETED",
      name: "jvmTest",
      result: "4 passed",
      resultEx: { passed: 4 },
    }),
    block("TestRunBlockUpdatedEvent", { stepId: "v", name: 7, result: [] }),
  ]));
  const s = (await parse(path)).sessions[0] as Session;
  deepEqual(
    s.records.map((r) => [r.role, r.tool, r.text, r.flags?.isError]),
    [
      ["command", "test-run", "Run test InvoiceTest", undefined],
      ["tool-output", "test-run", "1 of 4 failed: totalRoundsHalfUp", true],
      ["command", "test-run", "jvmTest", undefined],
      ["tool-output", "test-run", "4 passed", undefined],
    ],
  );
});

Deno.test("parseJunieEvents() reads failures and skips cancelled or empty results", async () => {
  const path = await eventsFile(jsonLines([
    { kind: "UserPromptEvent", prompt: "deploy it" },
    block("ResultBlockUpdatedEvent", { stepId: "r", result: "Empty" }),
    block("ResultBlockUpdatedEvent", {
      stepId: "q",
      cancelled: true,
      result: "never said",
    }),
    block("AgentFailureEvent", { message: "LLM quota exceeded" }),
  ]));
  const s = (await parse(path)).sessions[0] as Session;
  deepEqual(s.records.map((r) => [r.role, r.text, r.flags?.isError]), [
    ["user", "deploy it", undefined],
    ["tool-output", "LLM quota exceeded", true],
  ]);
  equal(s.title, "deploy it");
});

Deno.test("parseJunieEvents() leaves a torn last line and counts malformed ones", async () => {
  const text = jsonLines([{ kind: "UserPromptEvent", prompt: "kept" }]) +
    "{bad\n[]\n" + JSON.stringify({ kind: "SessionA2uxEvent", event: 3 }) +
    '\n{"kind":"UserPromptEvent","timestampMs":1795012205000,"prompt":"to';
  const result = await parse(await eventsFile(text));
  equal(result.skipped, 3);
  deepEqual(result.sessions[0]?.records.map((r) => r.text), ["kept"]);
});

Deno.test("parseJunieEvents() survives hostile input", async (t) => {
  const cases: Array<[string, string]> = [
    ["garbage bytes", "\u0000\u00ff\ufffd\n\u202e\n"],
    [
      "wrong types",
      jsonLines([
        { kind: 5 },
        { kind: "UserPromptEvent", prompt: ["x"] },
        block("TerminalBlockUpdatedEvent", { stepId: 4, command: {} }),
        block("TerminalBlockUpdatedEvent", { stepId: "t", output: 9 }),
        block("ViewFilesBlockUpdatedEvent", { stepId: "v", files: "a.ts" }),
        block("FileChangesBlockUpdatedEvent", {
          stepId: "f",
          changes: [null, { afterRelativePath: 1 }, {
            beforeRelativePath: "a",
          }],
        }),
        block("ResultBlockUpdatedEvent", { stepId: "r", result: {} }),
        { kind: "SessionA2uxEvent", event: { agentEvent: { kind: [] } } },
        { kind: "UserPromptEvent", timestampMs: "soon", requestId: 7 },
        { kind: "UserMessagesDroppedFromHistory", userMessageIds: "b" },
        { kind: "UserAsyncResponseEvent", entries: [{ question: 1 }] },
        { kind: "SessionTitleSetEvent", name: ["t"] },
        block("McpBlockUpdatedEvent", { stepId: "m", toolName: 3, input: {} }),
        block("MarkdownBlockUpdatedEvent", { stepId: "k", text: null }),
        block("FileChangesBlockUpdatedEvent", {
          stepId: "g",
          status: "FAILED",
          changes: [{
            afterRelativePath: "b",
            beforeContent: { text: 5 },
            afterContent: [],
          }],
        }),
        block("CurrentDirectoryUpdatedEvent", { currentDirectory: 42 }),
        block("AgentTaskNameUpdatedEvent", { name: {} }),
      ]),
    ],
    ["huge nesting", `${'{"kind":'.repeat(100_000)}\n`],
  ];
  for (const [name, text] of cases) {
    await t.step(name, async () => {
      ok((await parse(await eventsFile(text))).skipped >= 0);
    });
  }
  await t.step("an index.jsonl of the wrong shape", async () => {
    const path = await eventsFile(
      jsonLines([{ kind: "UserPromptEvent", prompt: "q" }]),
    );
    await Deno.writeTextFile(
      path.replace("session-1/events.jsonl", "index.jsonl"),
      '{"sessionId":"session-1","taskName":7,"createdAt":"x"}\n[\n',
    );
    equal((await parse(path)).sessions[0]?.title, "q");
  });
});
