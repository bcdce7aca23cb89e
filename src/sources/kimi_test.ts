import { deepEqual, equal, ok } from "node:assert/strict";
import type { ParseResult, SourceEnv } from "../core/harness.ts";
import { isSuperseded, type Session } from "../core/types.ts";
import {
  kimi,
  type KimiParseOptions,
  parseKimiCliSession,
  parseKimiCodeWire,
} from "./kimi.ts";
import { hasSamples, jsonLines, sampleDir, tempFileAt } from "./_test_kit.ts";

const HOME = new URL("../../fixtures/kimi", import.meta.url).pathname;
const SAMPLES = sampleDir("kimi");
const SESSION =
  `${HOME}/.kimi-code/sessions/wd_orchard_5e1d0c/session_019a7c55-3d2e-7b41-9f06-4c8e2a1b9d73`;
const CLI_DIR =
  `${HOME}/.kimi/sessions/784d5ca626cb1b737d8819ab41e5d391/7c1e9a20-5b3d-4e8f-a6c2-0d9b4f1e3a57`;

const CLI_NEW =
  `${HOME}/.kimi/sessions/784d5ca626cb1b737d8819ab41e5d391/3f9b1c2e-6a4d-4b7e-9c1f-8e2d5a7b0c64`;

const source: SourceEnv = { home: HOME, env: {}, os: "linux" };

function code(
  path: string,
  extra: Partial<KimiParseOptions> = {},
): Promise<ParseResult> {
  return parseKimiCodeWire(path, { includeSubagents: true, source, ...extra });
}

function cli(
  path: string,
  extra: Partial<KimiParseOptions> = {},
): Promise<ParseResult> {
  return parseKimiCliSession(path, {
    includeSubagents: true,
    source,
    ...extra,
  });
}

function wireFile(text: string): Promise<string> {
  return tempFileAt("sessions/wd/s1/agents/main/wire.jsonl", text);
}

function user(text: string, time: number, origin?: unknown): unknown {
  return {
    type: "context.append_message",
    time,
    message: {
      role: "user",
      content: [{ type: "text", text }],
      ...(origin === undefined ? {} : { origin }),
    },
  };
}

function say(text: string, time: number): unknown[] {
  return [
    { type: "context.append_loop_event", time, event: { type: "step.begin" } },
    {
      type: "context.append_loop_event",
      time,
      event: { type: "content.part", part: { type: "text", text } },
    },
    { type: "context.append_loop_event", time, event: { type: "step.end" } },
  ];
}

Deno.test("kimi.roots() covers both generations and their overrides", async (t) => {
  for (
    const [env, want] of [
      [{}, ["/h/.kimi-code", "/h/.kimi"]],
      [{ KIMI_CODE_HOME: "/kc", KIMI_SHARE_DIR: "/ks" }, ["/kc", "/ks"]],
      [{
        DEJA_KIMI_ROOT: "/a",
        DEJA_KIMI_CLI_ROOT: "/b",
        KIMI_CODE_HOME: "/kc",
      }, [
        "/a",
        "/b",
      ]],
    ] as const
  ) {
    await t.step(JSON.stringify(env), () => {
      deepEqual(kimi.roots({ home: "/h", env, os: "linux" }), want);
    });
  }
});

Deno.test("kimi.discover() finds agent wires and Kimi CLI session files", async () => {
  const found = (await kimi.discover(source)).map((p) => p.slice(HOME.length))
    .sort();
  deepEqual(found, [
    "/.kimi-code/sessions/wd_orchard_5e1d0c/session_019a7c55-3d2e-7b41-9f06-4c8e2a1b9d73/agents/agent-explore-1/wire.jsonl",
    "/.kimi-code/sessions/wd_orchard_5e1d0c/session_019a7c55-3d2e-7b41-9f06-4c8e2a1b9d73/agents/main/wire.jsonl",
    "/.kimi/imported_sessions/b7c8d9e0-1f2a-4b3c-8d4e-5f6a7b8c9d0e/wire.jsonl",
    "/.kimi/sessions/784d5ca626cb1b737d8819ab41e5d391/0e4d2c1b-9a8f-4e7d-b6c5-a4b3c2d1e0f9.jsonl",
    "/.kimi/sessions/784d5ca626cb1b737d8819ab41e5d391/3f9b1c2e-6a4d-4b7e-9c1f-8e2d5a7b0c64/context.jsonl",
    "/.kimi/sessions/784d5ca626cb1b737d8819ab41e5d391/3f9b1c2e-6a4d-4b7e-9c1f-8e2d5a7b0c64/subagents/a1b2c3d4/context.jsonl",
    "/.kimi/sessions/784d5ca626cb1b737d8819ab41e5d391/3f9b1c2e-6a4d-4b7e-9c1f-8e2d5a7b0c64/subagents/a1b2c3d4/wire.jsonl",
    "/.kimi/sessions/784d5ca626cb1b737d8819ab41e5d391/3f9b1c2e-6a4d-4b7e-9c1f-8e2d5a7b0c64/wire.jsonl",
    "/.kimi/sessions/784d5ca626cb1b737d8819ab41e5d391/7c1e9a20-5b3d-4e8f-a6c2-0d9b4f1e3a57/context.jsonl",
    "/.kimi/sessions/784d5ca626cb1b737d8819ab41e5d391/7c1e9a20-5b3d-4e8f-a6c2-0d9b4f1e3a57/wire.jsonl",
  ]);
});

Deno.test("parseKimiCliSession() reads a wire 1.9 log: renamed SubagentEvent, steer input, /btw (a failed one as error output), state.json title", async () => {
  const result = await cli(`${CLI_NEW}/wire.jsonl`);
  equal(result.skipped, 0);
  const [s, side, extra] = result.sessions as [Session, Session, undefined];
  equal(extra, undefined);
  equal(s.id, "3f9b1c2e-6a4d-4b7e-9c1f-8e2d5a7b0c64");
  equal(s.title, "Night humidity alerts");
  equal(s.project, "greenhouse");
  deepEqual(s.records.map((r) => [r.role, r.text]), [
    ["user", "why do humidity alerts fire at night?"],
    [
      "tool-output",
      "agent_id: a1b2c3d4\nstatus: completed\n\n[summary]\nalerts/rules.py sets night_max = 70.",
    ],
    [
      "assistant",
      "The night threshold in alerts/rules.py is 70%, below the usual night humidity.",
    ],
    ["user", "also check the sensor calibration"],
    ["assistant", "Calibration looks right; raise night_max to 85."],
    ["user", "which sensor model is it?"],
    ["assistant", "A DHT22 on every bench."],
    ["user", "and the firmware?"],
    ["tool-output", "request timed out"],
  ]);
  equal(s.records.at(-1)?.tool, "model");
  equal(s.records.at(-1)?.flags?.isError, true);
  // a1b2c3d4 keeps its own wire log (read on its own); a9e8d7c6 does not.
  equal(side.id, "3f9b1c2e-6a4d-4b7e-9c1f-8e2d5a7b0c64:a9e8d7c6");
  deepEqual([side.parent, side.lineage], [s.id, "subagent"]);
  deepEqual(side.records.map((r) => r.text), [
    "Calibration offsets live in sensors.toml.",
  ]);
  deepEqual((await cli(`${CLI_NEW}/context.jsonl`)).sessions, []);
});

Deno.test("parseKimiCliSession() keeps a sub-agent's events when its own wire log is still empty", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.mkdir(`${dir}/sessions/h/s1/subagents/a1`, { recursive: true });
  await Deno.writeTextFile(`${dir}/sessions/h/s1/subagents/a1/wire.jsonl`, "");
  const path = `${dir}/sessions/h/s1/wire.jsonl`;
  await Deno.writeTextFile(
    path,
    jsonLines([{
      timestamp: 1,
      message: {
        type: "SubagentEvent",
        payload: {
          parent_tool_call_id: "t1",
          agent_id: "a1",
          event: {
            type: "ContentPart",
            payload: { type: "text", text: "side work" },
          },
        },
      },
    }]),
  );
  const result = await cli(path);
  deepEqual(result.sessions.map((s) => [s.id, s.records[0]?.text]), [
    ["s1:a1", "side work"],
  ]);
});

Deno.test("parseKimiCliSession() reads a sub-agent instance's own wire as a child session", async () => {
  const path = `${CLI_NEW}/subagents/a1b2c3d4/wire.jsonl`;
  equal(kimi.kinds.find((k) => k.match(path))?.id, "cli-session");
  const result = await cli(path);
  equal(result.skipped, 0);
  const s = result.sessions[0] as Session;
  equal(s.id, "3f9b1c2e-6a4d-4b7e-9c1f-8e2d5a7b0c64:a1b2c3d4");
  deepEqual([s.parent, s.lineage, s.title, s.project], [
    "3f9b1c2e-6a4d-4b7e-9c1f-8e2d5a7b0c64",
    "subagent",
    "Trace alert thresholds",
    "greenhouse",
  ]);
  deepEqual(s.records.map((r) => [r.role, r.text, r.exitCode]), [
    ["user", "Find where humidity alert thresholds are set", undefined],
    ["command", "grep -rn night_max alerts/", 0],
    ["tool-output", "alerts/rules.py:14:night_max = 70", undefined],
    ["assistant", "alerts/rules.py sets night_max = 70.", undefined],
  ]);
  ok(s.records.every((r) => r.flags?.subagent === true));
  deepEqual((await cli(path, { includeSubagents: false })).sessions, []);
  deepEqual(
    (await cli(`${CLI_NEW}/subagents/a1b2c3d4/context.jsonl`)).sessions,
    [],
  );
});

Deno.test("parseKimiCliSession() reads imported sessions and pre-directory context files", async () => {
  const imported = await cli(
    `${HOME}/.kimi/imported_sessions/b7c8d9e0-1f2a-4b3c-8d4e-5f6a7b8c9d0e/wire.jsonl`,
  );
  const i = imported.sessions[0] as Session;
  equal(i.id, "b7c8d9e0-1f2a-4b3c-8d4e-5f6a7b8c9d0e");
  deepEqual(i.records.map((r) => r.role), ["user", "assistant"]);
  const legacyPath =
    `${HOME}/.kimi/sessions/784d5ca626cb1b737d8819ab41e5d391/0e4d2c1b-9a8f-4e7d-b6c5-a4b3c2d1e0f9.jsonl`;
  const legacy = await cli(legacyPath);
  equal(legacy.skipped, 0);
  const l = legacy.sessions[0] as Session;
  deepEqual([l.id, l.project], [
    "0e4d2c1b-9a8f-4e7d-b6c5-a4b3c2d1e0f9",
    "greenhouse",
  ]);
  deepEqual(l.records.map((r) => [r.role, r.text]), [
    ["user", "list the greenhouse zones"],
    ["assistant", "Zones: north, south, propagation."],
  ]);
  // Once the CLI has moved it into `<session>/`, the old file is a leftover.
  const dir = await Deno.makeTempDir();
  await Deno.mkdir(`${dir}/sessions/h/s9`, { recursive: true });
  const text = jsonLines([{ role: "user", content: "hello" }]);
  await Deno.writeTextFile(`${dir}/sessions/h/s9.jsonl`, text);
  await Deno.writeTextFile(`${dir}/sessions/h/s9/context.jsonl`, text);
  deepEqual((await cli(`${dir}/sessions/h/s9.jsonl`)).sessions, []);
  equal((await cli(`${dir}/sessions/h/s9/context.jsonl`)).sessions.length, 1);
});

Deno.test("parseKimiCliSession() survives torn and hostile new-shape sub-agent files", async (t) => {
  const dir = await Deno.makeTempDir();
  const agentDir = `${dir}/sessions/h/s1/subagents/a1`;
  await Deno.mkdir(agentDir, { recursive: true });
  const line = (type: string, payload: unknown) =>
    JSON.stringify({ timestamp: 1, message: { type, payload } });
  await t.step("torn last line, broken meta.json", async () => {
    await Deno.writeTextFile(
      `${agentDir}/wire.jsonl`,
      `${line("TurnBegin", { user_input: "task" })}\n${
        line("ContentPart", { type: "text", text: "partial" })
      }\n{"timestamp":2,"message":{"type":"ContentPart","payl`,
    );
    await Deno.writeTextFile(`${agentDir}/meta.json`, "{nope");
    const result = await cli(`${agentDir}/wire.jsonl`);
    equal(result.skipped, 0);
    deepEqual(result.sessions[0]?.records.map((r) => r.text), [
      "task",
      "partial",
    ]);
  });
  await t.step("hostile payloads", async () => {
    await Deno.writeTextFile(
      `${agentDir}/meta.json`,
      JSON.stringify({ description: [1], launch_spec: "x" }),
    );
    await Deno.writeTextFile(
      `${agentDir}/wire.jsonl`,
      [
        line("SubagentEvent", {
          agent_id: 5,
          parent_tool_call_id: { x: 1 },
          event: { type: "TurnBegin", payload: { user_input: "deep" } },
        }),
        line("SubagentEvent", {
          agent_id: "__proto__",
          event: { type: "SteerInput", payload: { user_input: null } },
        }),
        line("SteerInput", { user_input: 42 }),
        line("BtwBegin", { question: ["q"] }),
        line("BtwEnd", { response: { text: "r" } }),
      ].join("\n") + "\n",
    );
    await Deno.writeTextFile(
      `${dir}/sessions/h/s1/state.json`,
      JSON.stringify({ custom_title: 9, title: ["x"] }),
    );
    const result = await cli(`${agentDir}/wire.jsonl`);
    ok(result.sessions.every((s) => s.title === undefined));
  });
});

Deno.test("parseKimiCodeWire() joins streamed text, keeps tools and marks the undone turn", async () => {
  const result = await code(`${SESSION}/agents/main/wire.jsonl`);
  equal(result.skipped, 0);
  const s = result.sessions[0] as Session;
  equal(s.id, "session_019a7c55-3d2e-7b41-9f06-4c8e2a1b9d73");
  equal(s.title, "Flaky greenhouse sensor test");
  equal(s.project, "greenhouse");
  deepEqual(s.records.map((r) => [r.role, r.text.slice(0, 30)]), [
    ["user", "the humidity sensor test is fl"],
    ["assistant", "Running the sensor tests a few"],
    ["command", "pytest tests/test_humidity.py "],
    ["tool-output", "1 failed, 4 passed\nCommand fai"],
    ["files", "/home/dev/code/greenhouse/sens"],
    ["tool-output", "def read(): return bus.poll(ti"],
    ["assistant", "The poll timeout of 10 ms is s"],
    ["user", "raise it to 50 ms"],
    ["files", "/home/dev/code/greenhouse/sens"],
    ["edit", "/home/dev/code/greenhouse/sens"],
    ["tool-output", "edited 1 occurrence"],
    ["assistant", "Raised the timeout to 50 ms."],
    ["user", "make the timeout configurable "],
    ["assistant", "Added HUMIDITY_POLL_TIMEOUT wi"],
  ]);
  equal(s.records[1]?.text, "Running the sensor tests a few times.");
  equal(s.records[2]?.exitCode, 1);
  deepEqual(s.records[3]?.flags, { isError: true });
  deepEqual(s.marks, [{ kind: "undo", from: 7, to: 12 }]);
  ok(!s.records.some((r) => r.text.includes("Auto permission mode")));
  ok(!s.records.some((r) => r.text.includes("Probably timing")));
});

Deno.test("parseKimiCodeWire() reads a sub-agent wire as a child session, or skips it", async () => {
  const path = `${SESSION}/agents/agent-explore-1/wire.jsonl`;
  const s = (await code(path)).sessions[0] as Session;
  equal(s.id, "session_019a7c55-3d2e-7b41-9f06-4c8e2a1b9d73:agent-explore-1");
  deepEqual([s.parent, s.lineage], [
    "session_019a7c55-3d2e-7b41-9f06-4c8e2a1b9d73",
    "subagent",
  ]);
  ok(s.records.every((r) => r.flags?.subagent));
  equal(s.records[0]?.role, "user");
  deepEqual((await code(path, { includeSubagents: false })).sessions, []);
});

Deno.test("context.undo counts prompts back, and never crosses a compaction", async (t) => {
  await t.step("undo 2 removes two prompts and what followed", async () => {
    const s = (await code(
      await wireFile(jsonLines([
        user("one", 1),
        ...say("a1", 2),
        user("two", 3),
        ...say("a2", 4),
        user("<hook_result>x</hook_result>", 5, {
          kind: "hook_result",
          event: "UserPromptSubmit",
        }),
        user("three", 6),
        ...say("a3", 7),
        { type: "context.undo", count: 2, time: 8 },
        user("four", 9),
      ])),
    )).sessions[0] as Session;
    deepEqual(
      s.records.filter((r) => !isSuperseded(r.seq, s.marks)).map((r) => r.text),
      ["one", "a1", "four"],
    );
  });
  await t.step("a compaction is a boundary", async () => {
    const s = (await code(
      await wireFile(jsonLines([
        user("one", 1),
        {
          type: "context.apply_compaction",
          summary: "did one",
          compactedCount: 1,
        },
        user("two", 3),
        { type: "context.undo", count: 2, time: 8 },
        { type: "context.undo", count: "x", time: 9 },
      ])),
    )).sessions[0] as Session;
    deepEqual(s.marks, []);
    deepEqual(s.records.map((r) => r.role), ["user", "summary", "user"]);
  });
});

Deno.test("parseKimiCliSession() reads wire events, argument chunks and sub-agent events", async () => {
  const result = await cli(`${CLI_DIR}/wire.jsonl`);
  const [s, side] = result.sessions as [Session, Session];
  equal(s.project, "greenhouse");
  deepEqual(s.records.map((r) => [r.role, r.text, r.exitCode]), [
    ["user", "what does the watering cron do at 5am?", undefined],
    ["command", "crontab -l", 0],
    ["tool-output", "0 5 * * * /opt/greenhouse/water.sh --zone all", undefined],
    ["assistant", "At 05:00 it runs water.sh for every zone.", undefined],
  ]);
  equal(s.started, 1772590000100);
  equal(side.parent, s.id);
  deepEqual(side.records.map((r) => r.text), [
    "water.sh reads zones from zones.yaml.",
  ]);
  // The context file repeats the wire, so it yields nothing while one exists.
  deepEqual((await cli(`${CLI_DIR}/context.jsonl`)).sessions, []);
  equal(
    (await cli(`${CLI_DIR}/wire.jsonl`, { includeSubagents: false }))
      .sessions.length,
    1,
  );
});

Deno.test("parseKimiCliSession() falls back to context.jsonl", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.mkdir(`${dir}/sessions/h/s`, { recursive: true });
  const path = `${dir}/sessions/h/s/context.jsonl`;
  await Deno.writeTextFile(
    path,
    jsonLines([
      { role: "user", content: "check disk" },
      {
        role: "assistant",
        content: [{ type: "think", think: "df" }],
        tool_calls: [{
          type: "function",
          id: "t1",
          function: { name: "Shell", arguments: '{"command":"df -h"}' },
        }],
      },
      {
        role: "tool",
        tool_call_id: "t1",
        content: [
          {
            type: "text",
            text: "<system>ERROR: Command failed with exit code: 2.</system>",
          },
          { type: "text", text: "df: /mnt: No such file" },
        ],
      },
      { role: "_usage", token_count: 5 },
      { role: "_system_prompt", content: "You are Kimi." },
      { role: "weird" },
    ]),
  );
  const result = await cli(path);
  equal(result.skipped, 1);
  const s = result.sessions[0] as Session;
  deepEqual(s.records.map((r) => [r.role, r.text, r.exitCode, r.flags]), [
    ["user", "check disk", undefined, undefined],
    ["command", "df -h", 2, undefined],
    ["tool-output", "df: /mnt: No such file", undefined, { isError: true }],
  ]);
});

Deno.test("kimi parsers leave a torn last line and count malformed and oversized ones", async () => {
  const text = jsonLines([user("kept", 1), ...say("also kept", 2)]) +
    `not json\n${JSON.stringify(user("x".repeat(3000), 3))}\n` +
    `{"type":"context.append_message","message":{"role":"user","content":"to`;
  const result = await code(await wireFile(text), { maxLineBytes: 1000 });
  equal(result.skipped, 2);
  deepEqual(result.sessions[0]?.records.map((r) => r.text), [
    "kept",
    "also kept",
  ]);
});

Deno.test("kimi parsers survive hostile input", async (t) => {
  const cases: Array<[string, string]> = [
    ["garbage bytes", "\u0000\u00ff\ufffd\n\x07\x1b]0;x\x07\n"],
    [
      "wrong types",
      jsonLines([
        { type: "context.append_message", message: "hi" },
        {
          type: "context.append_message",
          message: { role: "user", content: 5, origin: [] },
        },
        {
          type: "context.append_loop_event",
          event: { type: "tool.call", name: 3, args: null },
        },
        {
          type: "context.append_loop_event",
          event: { type: "tool.result", toolCallId: {}, result: "x" },
        },
        { type: "context.undo", count: 1e300 },
        {
          timestamp: "x",
          message: {
            type: "SubagentEvent",
            payload: {
              task_tool_call_id: "t",
              event: {
                type: "SubagentEvent",
                payload: { task_tool_call_id: "t", event: "x" },
              },
            },
          },
        },
        {
          timestamp: 1,
          message: { type: "ToolCallPart", payload: { arguments_part: 5 } },
        },
        {
          timestamp: 1,
          message: {
            type: "TurnBegin",
            payload: { user_input: [{ type: "text", text: 1 }] },
          },
        },
      ]),
    ],
    ["huge nesting", `${"[".repeat(150_000)}\n`],
  ];
  for (const [name, text] of cases) {
    await t.step(name, async () => {
      const path = await wireFile(text);
      await code(path);
      const dir = await Deno.makeTempDir();
      await Deno.mkdir(`${dir}/sessions/h/s`, { recursive: true });
      await Deno.writeTextFile(`${dir}/sessions/h/s/wire.jsonl`, text);
      await cli(`${dir}/sessions/h/s/wire.jsonl`);
      await Deno.writeTextFile(`${dir}/sessions/h/s/context.jsonl`, text);
      await Deno.remove(`${dir}/sessions/h/s/wire.jsonl`);
      await cli(`${dir}/sessions/h/s/context.jsonl`);
    });
  }
});

Deno.test({
  name: "kimi parses every real sample with the turns a reader counts",
  ignore: !hasSamples("kimi"),
  fn: async () => {
    let sessions = 0;
    for await (const entry of Deno.readDir(SAMPLES)) {
      const env = { DEJA_KIMI_CLI_ROOT: `${SAMPLES}/${entry.name}` };
      for (
        const path of await kimi.discover({ home: "/nohome", env, os: "linux" })
      ) {
        const kind = kimi.kinds.find((k) => k.match(path));
        ok(kind, path);
        const result = await kind.parse(path, {
          includeSubagents: true,
          source: { home: "/nohome", env, os: "linux" },
        });
        equal(result.skipped, 0, path);
        for (const s of result.sessions) {
          sessions++;
          const count = (role: string) =>
            s.records.filter((r) => r.role === role).length;
          // Five prompts (one typed, four retries after interrupted steps),
          // one answer and one SetTodoList plan; the log opens mid-turn with
          // a Shell call's result, the call itself in context.jsonl.
          deepEqual([count("user"), count("assistant")], [5, 2]);
          equal(count("tool-output"), 2);
          const command = s.records.find((r) => r.role === "command");
          ok(command?.text.includes("git checkout -f work"));
          equal(s.records[1]?.tool, "Shell");
          equal(command?.exitCode, 0);
          equal(s.project, "teacherchris37");
        }
      }
    }
    equal(sessions, 1);
  },
});

Deno.test("parseKimiCliSession() reads a tool output of unclosed <system> tags in one pass", async () => {
  // The lazy regex read on to the end from every `<system>` with no close
  // after it: minutes for this 1.2 MB output.
  const dir = await Deno.makeTempDir();
  await Deno.mkdir(`${dir}/sessions/h/s`, { recursive: true });
  const path = `${dir}/sessions/h/s/context.jsonl`;
  const output = `${"<system> ".repeat(140_000)}done`;
  await Deno.writeTextFile(
    path,
    jsonLines([
      { role: "user", content: "print the notes" },
      {
        role: "assistant",
        content: [{ type: "think", think: "cat" }],
        tool_calls: [{
          type: "function",
          id: "t1",
          function: { name: "Shell", arguments: '{"command":"cat notes"}' },
        }],
      },
      { role: "tool", tool_call_id: "t1", content: output },
    ]),
  );
  const s = (await cli(path)).sessions[0] as Session;
  const out = s.records.find((r) => r.role === "tool-output");
  ok(out?.text.startsWith("<system> <system>"));
  ok(out?.text.endsWith("done"));
  equal(out?.flags?.isError, undefined);
});

Deno.test("parseKimiCliSession() reads a failed Shell call's exit code from its result message, beside the output", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.mkdir(`${dir}/sessions/h/s`, { recursive: true });
  const path = `${dir}/sessions/h/s/wire.jsonl`;
  const event = (type: string, payload: unknown, t: number) => ({
    timestamp: t,
    message: { type, payload },
  });
  await Deno.writeTextFile(
    path,
    jsonLines([
      event("TurnBegin", { user_input: "run the ferret tests" }, 1),
      event("StepBegin", { n: 1 }, 2),
      event("ToolCall", {
        type: "function",
        id: "c1",
        function: { name: "Shell", arguments: '{"command":"pytest ferret"}' },
      }, 3),
      event("ToolResult", {
        tool_call_id: "c1",
        return_value: {
          is_error: true,
          output: "2 failed, 9 passed",
          message: "Command failed with exit code: 1.",
          brief: "Failed with exit code: 1",
        },
      }, 4),
      event("ToolCall", {
        type: "function",
        id: "c2",
        function: { name: "Shell", arguments: '{"command":"ls ferret"}' },
      }, 5),
      event("ToolResult", {
        tool_call_id: "c2",
        return_value: {
          is_error: false,
          output: "test_ferret.py",
          message: "Command executed successfully.",
        },
      }, 6),
      event("ToolCall", {
        type: "function",
        id: "c3",
        function: { name: "Shell", arguments: '{"command":"false"}' },
      }, 7),
      event("ToolResult", {
        tool_call_id: "c3",
        return_value: {
          is_error: true,
          output: "",
          message: "Command failed with exit code: 1.",
        },
      }, 8),
      event("TurnEnd", {}, 9),
    ]),
  );
  const s = (await cli(path)).sessions[0] as Session;
  deepEqual(s.records.map((r) => [r.role, r.text, r.exitCode, r.flags]), [
    ["user", "run the ferret tests", undefined, undefined],
    ["command", "pytest ferret", 1, undefined],
    ["tool-output", "2 failed, 9 passed", undefined, { isError: true }],
    ["command", "ls ferret", 0, undefined],
    ["tool-output", "test_ferret.py", undefined, undefined],
    ["command", "false", 1, undefined],
    [
      "tool-output",
      "Command failed with exit code: 1.",
      undefined,
      { isError: true },
    ],
  ]);
});

Deno.test("parseKimiCodeWire() takes the work folder from a v2 state.json's cwd, else the workspace key", async (t) => {
  const home = await Deno.makeTempDir();
  const lines = jsonLines([
    { type: "metadata", protocol_version: "1.5", time: 1791000000000 },
    user("tidy the wombat importer", 1791000001000),
    ...say("Tidied.", 1791000002000),
  ]);
  const agentDir = (wd: string, session: string) =>
    `${home}/.kimi-code/sessions/${wd}/${session}/agents/main`;
  await t.step("state.json v2", async () => {
    const dir = agentDir("wd_wombat_3fa9c21b7d04", "session_a1");
    await Deno.mkdir(dir, { recursive: true });
    await Deno.writeTextFile(`${dir}/wire.jsonl`, lines);
    await Deno.writeTextFile(
      `${dir}/../../state.json`,
      JSON.stringify({
        id: "session_a1",
        version: 2,
        cwd: "/home/dev/code/wombat",
        createdAt: 1791000000000,
        updatedAt: 1791000003000,
        lastTurnReason: "completed",
      }),
    );
    const s = (await code(`${dir}/wire.jsonl`)).sessions[0] as Session;
    deepEqual([s.cwd, s.project], ["/home/dev/code/wombat", "wombat"]);
    equal(s.updated, 1791000003000);
  });
  await t.step("no state.json", async () => {
    const dir = agentDir("wd_quokka-api_0b1c2d3e4f5a", "session_b2");
    await Deno.mkdir(dir, { recursive: true });
    await Deno.writeTextFile(`${dir}/wire.jsonl`, lines);
    const s = (await code(`${dir}/wire.jsonl`)).sessions[0] as Session;
    deepEqual([s.cwd, s.project], [undefined, "quokka-api"]);
  });
});

Deno.test("parseKimiCodeWire() keeps a failed turn's error as error output of the model, once", async () => {
  const path = await wireFile(jsonLines([
    user("summarise the badger log", 1791000001000),
    {
      type: "context.append_loop_event",
      time: 1791000002000,
      event: { type: "step.begin", uuid: "s1", turnId: 0, step: 1 },
    },
    {
      type: "turn.step.retrying",
      time: 1791000003000,
      turnId: 0,
      step: 1,
      message: "429 rate limited",
    },
    {
      type: "turn.step.interrupted",
      time: 1791000004000,
      turnId: 0,
      step: 1,
      reason: "error",
      message: "429 rate limited after 10 attempts",
    },
    {
      type: "turn.ended",
      time: 1791000004100,
      turnId: 0,
      reason: "failed",
      error: {
        code: "rate_limit",
        message: "429 rate limited after 10 attempts",
      },
    },
    user("try again", 1791000060000),
    {
      type: "turn.step.interrupted",
      time: 1791000061000,
      turnId: 1,
      step: 1,
      reason: "cancelled",
      message: "Interrupted by the user",
    },
    { type: "turn.ended", time: 1791000061100, turnId: 1, reason: "cancelled" },
    user("once more", 1791000090000),
    { type: "turn.ended", time: 1791000091000, turnId: 2, reason: "failed" },
  ]));
  const s = (await code(path)).sessions[0] as Session;
  deepEqual(s.records.map((r) => [r.role, r.tool, r.text, r.flags?.isError]), [
    ["user", undefined, "summarise the badger log", undefined],
    ["tool-output", "model", "429 rate limited after 10 attempts", true],
    ["user", undefined, "try again", undefined],
    ["user", undefined, "once more", undefined],
    ["tool-output", "model", "turn failed", true],
  ]);
});

Deno.test("parseKimiCliSession() reads a compacted context.jsonl's summary as a summary, not a prompt", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.mkdir(`${dir}/sessions/h/s`, { recursive: true });
  const path = `${dir}/sessions/h/s/context.jsonl`;
  await Deno.writeTextFile(
    path,
    jsonLines([
      { role: "_checkpoint", id: 0 },
      {
        role: "user",
        content: [
          {
            type: "text",
            text:
              "<system>Previous context has been compacted. Here is the compaction output:</system>",
          },
          {
            type: "text",
            text: "The puffin importer was moved to src/puffin/import.py.",
          },
        ],
      },
      { role: "user", content: "now add a test for it" },
      { role: "assistant", content: "Added tests/test_import.py." },
    ]),
  );
  const s = (await cli(path)).sessions[0] as Session;
  deepEqual(s.records.map((r) => [r.role, r.text]), [
    ["summary", "The puffin importer was moved to src/puffin/import.py."],
    ["user", "now add a test for it"],
    ["assistant", "Added tests/test_import.py."],
  ]);
});

/** A Kimi CLI wire event line. */
function cliEvent(type: string, payload: unknown, t: number): unknown {
  return { timestamp: t, message: { type, payload } };
}

function shellCall(id: string, command: string, t: number): unknown {
  return cliEvent("ToolCall", {
    type: "function",
    id,
    function: { name: "Shell", arguments: JSON.stringify({ command }) },
  }, t);
}

function shellResult(id: string, output: string, t: number): unknown {
  return cliEvent("ToolResult", {
    tool_call_id: id,
    return_value: {
      is_error: false,
      output,
      message: "Command executed successfully.",
    },
  }, t);
}

Deno.test("parseKimiCliSession() keeps SetTodoList titles as the agent's plan, each once", async (t) => {
  const todos = (...titles: string[]) =>
    JSON.stringify({
      todos: titles.map((title, i) => ({
        title,
        status: i === 0 ? "done" : "pending",
      })),
    });
  await t.step("wire.jsonl", async () => {
    const dir = await Deno.makeTempDir();
    await Deno.mkdir(`${dir}/sessions/h/s`, { recursive: true });
    const path = `${dir}/sessions/h/s/wire.jsonl`;
    const setTodos = (id: string, args: string, at: number) => [
      cliEvent("ToolCall", {
        type: "function",
        id,
        function: { name: "SetTodoList", arguments: args },
      }, at),
      cliEvent("ToolResult", {
        tool_call_id: id,
        return_value: {
          is_error: false,
          output: "",
          message: "Todo list updated",
        },
      }, at + 1),
    ];
    await Deno.writeTextFile(
      path,
      jsonLines([
        cliEvent("TurnBegin", { user_input: "ship the otter signup" }, 1),
        ...setTodos("t1", todos("Draft otter form", "Wire otter API"), 2),
        ...setTodos(
          "t2",
          todos("Draft otter form", "Wire otter API", "Test otter emails"),
          4,
        ),
        // Nothing new, and a list with no todos: no plan.
        ...setTodos("t3", todos("Wire otter API"), 6),
        ...setTodos("t4", '{"todos": []}', 8),
        cliEvent("TurnEnd", {}, 10),
      ]),
    );
    const s = (await cli(path)).sessions[0] as Session;
    deepEqual(s.records.map((r) => [r.role, r.tool, r.text]), [
      ["user", undefined, "ship the otter signup"],
      ["assistant", "SetTodoList", "Draft otter form\nWire otter API"],
      ["tool-output", "SetTodoList", "Todo list updated"],
      ["assistant", "SetTodoList", "Test otter emails"],
      ["tool-output", "SetTodoList", "Todo list updated"],
      ["tool-output", "SetTodoList", "Todo list updated"],
      ["tool-output", "SetTodoList", "Todo list updated"],
    ]);
  });
  await t.step(
    "context.jsonl, and no plan from another tool's todos",
    async () => {
      const path = await tempFileAt(
        "sessions/h/s/context.jsonl",
        jsonLines([
          { role: "user", content: "plan the heron import" },
          {
            role: "assistant",
            content: "",
            tool_calls: [
              {
                type: "function",
                id: "a",
                function: {
                  name: "SetTodoList",
                  arguments: todos("Map heron CSV"),
                },
              },
              {
                type: "function",
                id: "b",
                function: {
                  name: "Other",
                  arguments: todos("Not a heron plan"),
                },
              },
            ],
          },
        ]),
      );
      const s = (await cli(path)).sessions[0] as Session;
      deepEqual(
        s.records.filter((r) => r.role === "assistant").map((r) => r.text),
        ["Map heron CSV"],
      );
    },
  );
});

Deno.test("parseKimiCliSession() takes the call of a wire that starts mid-turn from context.jsonl", async (t) => {
  const session = async (wire: unknown[], context?: unknown[]) => {
    const dir = await Deno.makeTempDir();
    await Deno.mkdir(`${dir}/sessions/h/s`, { recursive: true });
    await Deno.writeTextFile(`${dir}/sessions/h/s/wire.jsonl`, jsonLines(wire));
    if (context) {
      await Deno.writeTextFile(
        `${dir}/sessions/h/s/context.jsonl`,
        jsonLines(context),
      );
    }
    const result = await cli(`${dir}/sessions/h/s/wire.jsonl`);
    equal(result.skipped, 0);
    return result.sessions[0] as Session;
  };
  const context = [
    {
      role: "assistant",
      content: [{ type: "think", think: "list the badger branch" }],
      tool_calls: [{
        type: "function",
        id: "early",
        function: {
          name: "Shell",
          arguments: JSON.stringify({ command: "git ls-tree badger docs/" }),
        },
      }],
    },
    {
      role: "tool",
      content: "<system>Command executed successfully.</system>badger.md",
      tool_call_id: "early",
    },
    {
      role: "assistant",
      content: "",
      tool_calls: [{
        type: "function",
        id: "later",
        function: {
          name: "Shell",
          arguments: JSON.stringify({ command: "git status" }),
        },
      }],
    },
  ];
  const midTurn = [
    { type: "metadata", protocol_version: "1.3" },
    shellResult("early", "badger.md", 1),
    cliEvent("StepBegin", { n: 2 }, 2),
    cliEvent("TurnBegin", { user_input: "and the status?" }, 3),
    shellCall("later", "git status", 4),
    shellResult("later", "clean", 5),
  ];
  await t.step("the call recovered, once, before its output", async () => {
    const s = await session(midTurn, context);
    deepEqual(s.records.map((r) => [r.role, r.tool, r.text, r.exitCode]), [
      ["command", "Shell", "git ls-tree badger docs/", 0],
      ["tool-output", "Shell", "badger.md", undefined],
      ["user", undefined, "and the status?", undefined],
      ["command", "Shell", "git status", 0],
      ["tool-output", "Shell", "clean", undefined],
    ]);
  });
  await t.step(
    "without context.jsonl, or without the call there, as before",
    async () => {
      for (
        const s of [
          await session(midTurn),
          await session(midTurn, context.slice(2)),
        ]
      ) {
        deepEqual(s.records.map((r) => [r.role, r.tool, r.text]), [
          ["tool-output", undefined, "badger.md"],
          ["user", undefined, "and the status?"],
          ["command", "Shell", "git status"],
          ["tool-output", "Shell", "clean"],
        ]);
      }
    },
  );
  await t.step("a result after the turn began is not looked up", async () => {
    const s = await session([
      cliEvent("TurnBegin", { user_input: "and the status?" }, 1),
      shellResult("early", "badger.md", 2),
    ], context);
    deepEqual(s.records.map((r) => [r.role, r.tool]), [
      ["user", undefined],
      ["tool-output", undefined],
    ]);
  });
});
