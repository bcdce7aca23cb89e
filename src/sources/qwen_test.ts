import { deepEqual, equal, ok } from "node:assert/strict";
import type { ParseResult, SourceEnv } from "../core/harness.ts";
import { isSuperseded, type Session } from "../core/types.ts";
import { parseQwenChat, qwen, type QwenParseOptions } from "./qwen.ts";
import { hasSamples, jsonLines, sampleDir, tempFileAt } from "./_test_kit.ts";

const HOME = new URL("../../fixtures/qwen", import.meta.url).pathname;
const SAMPLES = sampleDir("qwen");
const FIXTURE =
  `${HOME}/.qwen/projects/-home-dev-code-orchard/chats/6d0e4c2b-91a7-4f3e-8b5c-2a9f1e7d3c40.jsonl`;

const SUBAGENT =
  `${HOME}/.qwen/projects/-home-dev-code-orchard/subagents/6d0e4c2b-91a7-4f3e-8b5c-2a9f1e7d3c40/agent-explore-7f3c.jsonl`;

const source: SourceEnv = { home: HOME, env: {}, os: "linux" };

function parse(
  path: string,
  extra: Partial<QwenParseOptions> = {},
): Promise<ParseResult> {
  return parseQwenChat(path, { includeSubagents: true, source, ...extra });
}

let serial = 0;
function rec(
  type: string,
  parent: string | null,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  serial++;
  return {
    uuid: `r${serial}`,
    parentUuid: parent,
    sessionId: "s1",
    timestamp: `2026-01-01T00:00:${String(serial % 60).padStart(2, "0")}Z`,
    type,
    cwd: "/w/app",
    ...extra,
  };
}

function chatFile(text: string): Promise<string> {
  return tempFileAt("projects/p/chats/s1.jsonl", text);
}

Deno.test("qwen.roots() honours DEJA_QWEN_ROOT, QWEN_RUNTIME_DIR and QWEN_HOME", async (t) => {
  for (
    const [env, want] of [
      [{}, ["/h/.qwen"]],
      [{ QWEN_HOME: "/q" }, ["/q"]],
      [{ QWEN_RUNTIME_DIR: "/rt", QWEN_HOME: "/q" }, ["/rt", "/q"]],
      [{ DEJA_QWEN_ROOT: "/d", QWEN_HOME: "/q" }, ["/d"]],
    ] as const
  ) {
    await t.step(JSON.stringify(env), () => {
      deepEqual(qwen.roots({ home: "/h", env, os: "linux" }), want);
    });
  }
});

Deno.test("qwen.discover() finds the fixture chat and the background sub-agent transcript", async () => {
  deepEqual(await qwen.discover(source), [FIXTURE, SUBAGENT]);
  deepEqual(
    qwen.kinds.map((k) => [k.id, k.match(FIXTURE), k.match(SUBAGENT)]),
    [["chat", true, false], ["subagent", false, true], [
      "legacy-chat",
      false,
      false,
    ]],
  );
});

Deno.test("parseQwenChat() reads a background sub-agent transcript as a titled side session", async () => {
  const result = await parse(SUBAGENT);
  equal(result.skipped, 0);
  equal(result.sessions.length, 1);
  const s = result.sessions[0] as Session;
  equal(s.id, "6d0e4c2b-91a7-4f3e-8b5c-2a9f1e7d3c40:explore-7f3c");
  deepEqual([s.parent, s.lineage], [
    "6d0e4c2b-91a7-4f3e-8b5c-2a9f1e7d3c40",
    "sidechain",
  ]);
  equal(s.title, "Locate varieties.csv readers");
  equal(s.project, "orchard");
  deepEqual(s.records.map((r) => [r.role, r.text, r.flags?.isError ?? false]), [
    ["user", "Find every place the seeder reads varieties.csv", false],
    ["tool-output", "seed/load.ts:12: readCsv('varieties.csv')", false],
    ["files", "/home/dev/code/orchard/seed/missing.ts", false],
    ["tool-output", "File not found: seed/missing.ts", true],
    ["assistant", "Only seed/load.ts reads varieties.csv, at line 12.", false],
  ]);
  ok(s.records.every((r) => r.flags?.subagent === true));
  deepEqual(
    (await parse(SUBAGENT, { includeSubagents: false })).sessions,
    [],
  );
});

Deno.test("parseQwenChat() reads what the person typed from displayText, not hook context", async () => {
  serial = 0;
  const records = [
    rec("user", null, {
      provenance: "real_user",
      message: {
        role: "user",
        parts: [
          { text: "fix the flaky test" },
          {
            text: "<hook_context>branch is main, 3 files dirty</hook_context>",
          },
        ],
      },
      systemPayload: {
        displayText: "fix the flaky test",
        hookContext: "branch is main, 3 files dirty",
      },
    }),
    rec("assistant", "r1", {
      message: { role: "model", parts: [{ text: "Looking." }] },
    }),
    rec("user", "r2", {
      subtype: "mid_turn_user_message",
      message: {
        role: "user",
        parts: [{
          text: "\n[User message received during tool execution]: skip lint",
        }],
      },
      systemPayload: { displayText: "skip lint" },
    }),
    // Another workspace agent's message names its author but stays on the chain.
    rec("user", "r3", {
      subtype: "agent_message",
      provenance: "external_agent",
      agentId: "reviewer-2",
      agentName: "Reviewer",
      message: { role: "user", parts: [{ text: "[Reviewer]: looks fine" }] },
      systemPayload: { author: { agentId: "reviewer-2", name: "Reviewer" } },
    }),
    rec("assistant", "r4", {
      message: { role: "model", parts: [{ text: "Done." }] },
    }),
  ];
  const result = await parse(await chatFile(jsonLines(records)));
  equal(result.sessions.length, 1);
  const s = result.sessions[0] as Session;
  deepEqual(s.records.map((r) => [r.role, r.text]), [
    ["user", "fix the flaky test"],
    ["assistant", "Looking."],
    ["user", "skip lint"],
    ["assistant", "Done."],
  ]);
  deepEqual(s.marks, []);
});

Deno.test("parseQwenChat() survives torn and hostile sub-agent transcripts", async (t) => {
  const path = "projects/p/subagents/s1/agent-x.jsonl";
  const good = {
    uuid: "a1",
    parentUuid: null,
    sessionId: "s1",
    type: "assistant",
    isSidechain: true,
    agentId: "x",
    message: { role: "model", parts: [{ text: "found it" }] },
  };
  await t.step("torn last line and a broken meta sidecar", async () => {
    const file = await tempFileAt(
      path,
      `${JSON.stringify(good)}\n{"uuid":"a2","isSidechain":true,"type":"assi`,
    );
    await Deno.writeTextFile(file.replace(/\.jsonl$/, ".meta.json"), "{nope");
    const result = await parse(file);
    equal(result.sessions.length, 1);
    equal(result.sessions[0]?.title, undefined);
    deepEqual(result.sessions[0]?.records.map((r) => r.text), ["found it"]);
  });
  await t.step("hostile meta and records", async () => {
    const file = await tempFileAt(
      path,
      jsonLines([
        { ...good, agentId: ["x"], sessionId: 7 },
        { ...good, uuid: "a3", systemPayload: { displayText: 5 } },
        { uuid: "a4", type: "user", isSidechain: true, message: null },
      ]),
    );
    await Deno.writeTextFile(
      file.replace(/\.jsonl$/, ".meta.json"),
      JSON.stringify({ description: { x: 1 }, agentType: 3 }),
    );
    const result = await parse(file);
    ok(result.sessions.every((s) => s.title === undefined));
  });
});

Deno.test("parseQwenChat() reads turns, tools and exit codes, and marks the abandoned branch", async () => {
  const result = await parse(FIXTURE);
  equal(result.skipped, 0);
  const [s, side] = result.sessions as [Session, Session];
  equal(s.id, "6d0e4c2b-91a7-4f3e-8b5c-2a9f1e7d3c40");
  equal(s.project, "orchard");
  equal(s.title, "Orchard varieties");
  deepEqual(s.records.map((r) => r.role), [
    "user",
    "assistant",
    "files",
    "command",
    "tool-output",
    "tool-output",
    "assistant",
    "user",
    "files",
    "edit",
    "tool-output",
    "assistant",
    "user",
    "assistant",
  ]);
  equal(s.records[3]?.exitCode, 0);
  deepEqual(s.records[10]?.flags, { isError: true });
  equal(s.records[9]?.text, "/home/dev/code/orchard/db/seed.ts\n'braeburn'");
  deepEqual(s.marks, [{ kind: "branch", from: 7, to: 12 }]);
  deepEqual(
    s.records.filter((r) => !isSuperseded(r.seq, s.marks) && r.role === "user")
      .map((r) => r.text),
    [
      "list the apple varieties the seeder knows about",
      "add honeycrisp as a fourth variety instead",
    ],
  );
  ok(!s.records.some((r) => r.text.includes("I'll check the seed file")));
  equal(side.id, `${s.id}:explore-7f3c`);
  equal(side.parent, s.id);
  equal(side.lineage, "sidechain");
  deepEqual(side.records.map((r) => [r.role, r.flags]), [
    ["assistant", { subagent: true }],
  ]);
  equal((await parse(FIXTURE, { includeSubagents: false })).sessions.length, 1);
});

Deno.test("parseQwenChat() drops injected user records and file contents of at-commands", async () => {
  serial = 0;
  const a = rec("user", null, {
    message: {
      role: "user",
      parts: [
        { text: "@src/a.ts explain this" },
        { text: "\n--- Content from referenced files ---" },
        { text: "\nContent from src/a.ts:\nconst a = 1;" },
      ],
    },
  });
  const b = rec("user", "r1", {
    subtype: "notification",
    message: { role: "user", parts: [{ text: "background task done" }] },
  });
  const c = rec("user", "r2", {
    provenance: "goal_runtime",
    message: { role: "user", parts: [{ text: "continue the goal" }] },
  });
  const d = rec("system", "r3", {
    subtype: "chat_compression",
    systemPayload: {
      compressedHistory: [
        { role: "user", parts: [{ text: "summary of earlier work" }] },
      ],
    },
  });
  const e = rec("assistant", "r4", {
    message: { role: "model", parts: [{ text: "ok" }] },
    forkedFrom: { sessionId: "s0", messageUuid: "r5" },
  });
  const s = (await parse(await chatFile(jsonLines([a, b, c, d, e]))))
    .sessions[0] as Session;
  deepEqual(s.records.map((r) => [r.role, r.text]), [
    ["user", "@src/a.ts explain this"],
    ["summary", "summary of earlier work"],
    ["assistant", "ok"],
  ]);
  deepEqual([s.parent, s.lineage], ["s0", "fork"]);
});

Deno.test("parseQwenChat() keeps history before a chain gap active", async () => {
  serial = 0;
  const records = [
    rec("user", null, { message: { parts: [{ text: "one" }] } }),
    rec("assistant", "r1", { message: { parts: [{ text: "two" }] } }),
    // The chain restarts from a record no longer in the file.
    rec("user", "gone", { message: { parts: [{ text: "three" }] } }),
    rec("assistant", "r3", { message: { parts: [{ text: "four" }] } }),
  ];
  const s = (await parse(await chatFile(jsonLines(records))))
    .sessions[0] as Session;
  deepEqual(s.marks, []);
  equal(s.records.length, 4);
});

Deno.test("parseQwenChat() leaves a torn last line, counts malformed and oversized ones", async () => {
  serial = 0;
  const ok1 = rec("user", null, { message: { parts: [{ text: "kept" }] } });
  const big = rec("user", "r1", {
    message: { parts: [{ text: "x".repeat(4000) }] },
  });
  const text =
    `${JSON.stringify(ok1)}\n{oops\n"str"\n${JSON.stringify(big)}\n` +
    `{"uuid":"r9","type":"user","message":{"parts":[{"text":"torn`;
  const result = await parse(await chatFile(text), { maxLineBytes: 1000 });
  equal(result.skipped, 3);
  deepEqual(result.sessions[0]?.records.map((r) => r.text), ["kept"]);
});

Deno.test("parseQwenChat() survives hostile input", async (t) => {
  const cases: Array<[string, string]> = [
    ["garbage bytes", "\u0000\u00ff\ufffd\n\x1b[2J{]\n"],
    [
      "wrong types",
      jsonLines([
        { uuid: 5, parentUuid: {}, type: "user", message: "hi" },
        {
          uuid: "a",
          parentUuid: "a",
          type: "assistant",
          message: { parts: "x" },
        },
        {
          uuid: "b",
          parentUuid: "c",
          type: "tool_result",
          message: { parts: [{ functionResponse: { id: 3, response: [] } }] },
        },
        {
          uuid: "c",
          parentUuid: "b",
          type: "system",
          subtype: "custom_title",
          systemPayload: { customTitle: 9 },
        },
        {
          uuid: "d",
          type: "assistant",
          isSidechain: true,
          agentId: { x: 1 },
          message: {
            parts: [{
              functionCall: {
                name: "run_shell_command",
                args: { command: ["ls"] },
              },
            }],
          },
        },
        {
          uuid: "__proto__",
          parentUuid: "__proto__",
          type: "user",
          message: { parts: [{ text: "proto" }] },
        },
      ]),
    ],
    ["huge nesting", `${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}\n`],
  ];
  for (const [name, text] of cases) {
    await t.step(name, async () => {
      const result = await parse(await chatFile(text));
      ok(result.skipped >= 0);
    });
  }
});

const SAMPLE_COUNTS: Record<string, [number, number]> = {
  "41135fab-6533-40b1-af92-0d7d50df9774.jsonl": [1, 1],
  "7ff68fe9-497f-441a-b527-a47cae5b6d42.jsonl": [1, 3],
  "1ee2dcce-94ce-47a3-bf6f-d804490ef247.jsonl": [1, 2],
  "7e4a45d5-d379-4300-8528-fe2bb00564df.jsonl": [20, 32],
  "853b5a66-c477-4eae-a829-1f938fb52c46.jsonl": [0, 0],
  "80a2d37c-ef84-45fc-b7d1-a34a27b3a3d8.jsonl": [3, 5],
};

Deno.test({
  name: "qwen parses every real sample with the turns a reader counts",
  ignore: !hasSamples("qwen"),
  fn: async () => {
    const seen = new Set<string>();
    for await (const entry of Deno.readDir(SAMPLES)) {
      const env = { DEJA_QWEN_ROOT: `${SAMPLES}/${entry.name}` };
      for (
        const path of await qwen.discover({ home: "/nohome", env, os: "linux" })
      ) {
        const name = path.split("/").at(-1) as string;
        const want = SAMPLE_COUNTS[name];
        ok(want, name);
        seen.add(name);
        const result = await parse(path);
        equal(result.skipped, 0, name);
        // A chat of slash commands only holds no conversation.
        equal(result.sessions.length, want[0] > 0 ? 1 : 0, name);
        const s = result.sessions[0];
        const count = (role: string) =>
          s?.records.filter((r) => r.role === role).length ?? 0;
        deepEqual([count("user"), count("assistant")], want, name);
        deepEqual(s?.marks ?? [], [], name);
        ok(s === undefined || s.project.length > 0, name);
      }
    }
    equal(seen.size, Object.keys(SAMPLE_COUNTS).length);
  },
});

Deno.test("parseQwenChat() reads a slash command that sent a prompt as the command, not its template", async () => {
  serial = 0;
  const records = [
    rec("system", null, {
      subtype: "slash_command",
      systemPayload: {
        phase: "invocation",
        rawCommand: "/review src/otter.ts ",
        sentToModel: true,
      },
    }),
    rec("system", "r1", {
      subtype: "slash_command",
      systemPayload: { phase: "result", rawCommand: "/review src/otter.ts" },
    }),
    rec("user", "r2", {
      message: {
        role: "user",
        parts: [{ text: "You are a strict reviewer. Review src/otter.ts for" }],
      },
    }),
    rec("assistant", "r3", {
      message: { role: "model", parts: [{ text: "Two issues." }] },
    }),
    // A command handled in the UI (sentToModel absent): the next prompt is typed.
    rec("system", "r4", {
      subtype: "slash_command",
      systemPayload: { phase: "invocation", rawCommand: "/stats" },
    }),
    rec("user", "r5", {
      message: { role: "user", parts: [{ text: "fix the first one" }] },
    }),
    // Sent to the model, but the answer came before any prompt: nothing waits.
    rec("system", "r6", {
      subtype: "slash_command",
      systemPayload: {
        phase: "invocation",
        rawCommand: "/init",
        sentToModel: true,
      },
    }),
    rec("assistant", "r7", {
      message: { role: "model", parts: [{ text: "Wrote QWEN.md." }] },
    }),
    rec("user", "r8", {
      message: { role: "user", parts: [{ text: "thanks" }] },
    }),
  ];
  const s = (await parse(await chatFile(jsonLines(records))))
    .sessions[0] as Session;
  deepEqual(s.records.map((r) => [r.role, r.text]), [
    ["user", "/review src/otter.ts"],
    ["assistant", "Two issues."],
    ["user", "fix the first one"],
    ["assistant", "Wrote QWEN.md."],
    ["user", "thanks"],
  ]);
});

Deno.test("parseQwenChat() keeps a failed model request as error output of the model, once while retried", async () => {
  serial = 0;
  const apiError = (parent: string, extra: Record<string, unknown>) =>
    rec("system", parent, {
      subtype: "ui_telemetry",
      systemPayload: {
        uiEvent: { "event.name": "qwen-code.api_error", ...extra },
      },
    });
  const records = [
    rec("user", null, {
      message: { role: "user", parts: [{ text: "profile the otter cache" }] },
    }),
    apiError("r1", {
      error_message: "429 Too many requests",
      status_code: 429,
    }),
    apiError("r2", {
      error_message: "429 Too many requests",
      status_code: 429,
    }),
    rec("system", "r3", {
      subtype: "ui_telemetry",
      systemPayload: { uiEvent: { "event.name": "qwen-code.api_response" } },
    }),
    rec("assistant", "r4", {
      message: { role: "model", parts: [{ text: "Profiled." }] },
    }),
    rec("user", "r5", {
      message: { role: "user", parts: [{ text: "again" }] },
    }),
    apiError("r6", {
      error_type: "APIUserAbortError",
      error_message: "Request was aborted.",
    }),
    rec("user", "r7", {
      message: { role: "user", parts: [{ text: "and once more" }] },
    }),
    apiError("r8", { error: "Insufficient balance", status_code: 402 }),
    rec("system", "r9", {
      subtype: "turn_result",
      systemPayload: {
        promptId: "p3",
        state: "error",
        endedAt: 1,
        error: { message: "Insufficient balance" },
      },
    }),
    rec("system", "r10", {
      subtype: "turn_result",
      systemPayload: {
        promptId: "p4",
        state: "error",
        endedAt: 2,
        error: { message: "Model stream ended without a finish reason" },
      },
    }),
  ];
  const s = (await parse(await chatFile(jsonLines(records))))
    .sessions[0] as Session;
  deepEqual(s.records.map((r) => [r.role, r.tool, r.text, r.flags?.isError]), [
    ["user", undefined, "profile the otter cache", undefined],
    ["tool-output", "model", "429 Too many requests", true],
    ["assistant", undefined, "Profiled.", undefined],
    ["user", undefined, "again", undefined],
    ["user", undefined, "and once more", undefined],
    ["tool-output", "model", "Insufficient balance", true],
    [
      "tool-output",
      "model",
      "Model stream ended without a finish reason",
      true,
    ],
  ]);
});

Deno.test("parseQwenChat() keeps what a built-in slash command printed, an error when it failed", async () => {
  serial = 0;
  const slash = (
    parent: string | null,
    phase: string,
    items?: Array<{ type: string; text: string }>,
  ) =>
    rec("system", parent, {
      subtype: "slash_command",
      systemPayload: {
        phase,
        rawCommand: "/ide install",
        ...(items ? { outputHistoryItems: items } : {}),
      },
    });
  const records = [
    slash(null, "invocation"),
    slash("r1", "result", [
      { type: "info", text: "Installing IDE companion..." },
      { type: "error", text: "Failed to install the editor companion." },
    ]),
    rec("user", "r2", {
      message: { role: "user", parts: [{ text: "list my badger agents" }] },
    }),
    rec("system", "r3", {
      subtype: "slash_command",
      systemPayload: { phase: "result", rawCommand: "/stats" },
    }),
  ];
  const s = (await parse(await chatFile(jsonLines(records))))
    .sessions[0] as Session;
  deepEqual(s.records.map((r) => [r.role, r.tool, r.text, r.flags?.isError]), [
    [
      "tool-output",
      "/ide",
      "/ide install\nInstalling IDE companion...\nFailed to install the editor companion.",
      true,
    ],
    ["user", undefined, "list my badger agents", undefined],
  ]);
});

Deno.test("parseQwenChat() flags a shell command's output as an error when its exit code is not 0", async () => {
  serial = 0;
  const call = (parent: string | null, id: string, command: string) =>
    rec("assistant", parent, {
      message: {
        role: "model",
        parts: [{
          functionCall: { id, name: "run_shell_command", args: { command } },
        }],
      },
    });
  const result = (parent: string, id: string, output: string) =>
    rec("tool_result", parent, {
      message: {
        role: "user",
        parts: [{
          functionResponse: {
            id,
            name: "run_shell_command",
            response: { output },
          },
        }],
      },
      toolCallResult: { callId: id, status: "success" },
    });
  const records = [
    rec("user", null, {
      message: { role: "user", parts: [{ text: "run the heron tests" }] },
    }),
    call("r1", "c1", "pytest heron"),
    result(
      "r2",
      "c1",
      "Output: 2 failed\nExit Code: 1\nProcess Group PGID: 41",
    ),
    call("r3", "c2", "ls heron"),
    result("r4", "c2", "Output: test_heron.py\nProcess Group PGID: 42"),
  ];
  const s = (await parse(await chatFile(jsonLines(records))))
    .sessions[0] as Session;
  deepEqual(
    s.records.filter((r) => r.role !== "user").map((r) => [
      r.role,
      r.exitCode,
      r.flags?.isError,
    ]),
    [
      ["command", 1, undefined],
      ["tool-output", undefined, true],
      ["command", 0, undefined],
      ["tool-output", undefined, undefined],
    ],
  );
});

Deno.test("qwen reads the JSON chats of builds before the record tree (tmp/<hash>/chats/session-*.json)", async () => {
  const home = await Deno.makeTempDir();
  const chats =
    `${home}/.qwen/tmp/3c1f0a9d5b7e2468ace013579bdf2468ace013579bdf2468ace013579bdf2468/chats`;
  await Deno.mkdir(chats, { recursive: true });
  const path = `${chats}/session-2025-11-26T14-57-7c3e9a10.json`;
  await Deno.writeTextFile(
    path,
    JSON.stringify({
      sessionId: "7c3e9a10-2b4d-4e6f-8a1c-3e5d7f9b1c2d",
      projectHash:
        "3c1f0a9d5b7e2468ace013579bdf2468ace013579bdf2468ace013579bdf2468",
      startTime: "2025-11-26T14:57:00.000Z",
      lastUpdated: "2025-11-26T14:58:30.000Z",
      messages: [
        {
          id: "m1",
          timestamp: "2025-11-26T14:57:00.000Z",
          type: "user",
          content: "why is the ibis cache cold after deploys?",
        },
        {
          id: "m2",
          timestamp: "2025-11-26T14:58:00.000Z",
          type: "gemini",
          content: "",
          toolCalls: [{
            id: "sh-1",
            name: "run_shell_command",
            args: { command: "grep -rn warmup deploy/" },
            result: [{
              functionResponse: {
                id: "sh-1",
                name: "run_shell_command",
                response: { output: "Output: (empty)\nExit Code: 1" },
              },
            }],
            status: "success",
            timestamp: "2025-11-26T14:58:00.000Z",
          }],
        },
        {
          id: "m3",
          timestamp: "2025-11-26T14:58:30.000Z",
          type: "gemini",
          content: "Nothing warms it: the deploy script has no warmup step.",
        },
      ],
    }),
  );
  const env: SourceEnv = { home, env: {}, os: "linux" };
  deepEqual(await qwen.discover(env), [path]);
  const kind = qwen.kinds.find((k) => k.match(path));
  equal(kind?.id, "legacy-chat");
  const result = await kind?.parse(path, {
    includeSubagents: true,
    source: env,
  });
  const s = result?.sessions[0] as Session;
  equal(s.harness, "qwen");
  equal(s.id, "7c3e9a10-2b4d-4e6f-8a1c-3e5d7f9b1c2d");
  deepEqual(s.records.map((r) => [r.role, r.exitCode]), [
    ["user", undefined],
    ["command", 1],
    ["tool-output", undefined],
    ["assistant", undefined],
  ]);
});

Deno.test("parseQwenChat() leaves out a UserPromptSubmit hook's tagged context part when no displayText is recorded", async () => {
  serial = 0;
  const hook =
    "<qwen:user-prompt-submit-context>\nbranch is main, 3 files dirty\n</qwen:user-prompt-submit-context>";
  const records = [
    rec("user", null, {
      message: {
        role: "user",
        parts: [{ text: "why is the walrus job slow" }, { text: hook }],
      },
    }),
    rec("assistant", "r1", {
      message: { role: "model", parts: [{ text: "Checking." }] },
    }),
    // Realtime (voice) dialogue is recorded as user and assistant records.
    rec("user", "r2", {
      subtype: "realtime_message",
      provenance: "real_user",
      message: { role: "user", parts: [{ text: "and the seal job?" }] },
    }),
    rec("assistant", "r3", {
      subtype: "realtime_message",
      provenance: "assistant_output",
      message: { role: "model", parts: [{ text: "That one is fine." }] },
    }),
  ];
  const s = (await parse(await chatFile(jsonLines(records))))
    .sessions[0] as Session;
  deepEqual(s.records.map((r) => [r.role, r.text]), [
    ["user", "why is the walrus job slow"],
    ["assistant", "Checking."],
    ["user", "and the seal job?"],
    ["assistant", "That one is fine."],
  ]);
});
