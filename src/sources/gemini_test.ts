import { deepEqual, equal, ok } from "node:assert/strict";
import type { ParseResult, SourceEnv } from "../core/harness.ts";
import { isSuperseded, type Session } from "../core/types.ts";
import { gemini, type GeminiParseOptions, parseGeminiChat } from "./gemini.ts";
import { hasSamples, jsonLines, sampleDir, tempFileAt } from "./_test_kit.ts";

const HOME = new URL("../../fixtures/gemini", import.meta.url).pathname;
const SAMPLES = sampleDir("gemini");
const source: SourceEnv = { home: HOME, env: {}, os: "linux" };

function parse(
  path: string,
  extra: Partial<GeminiParseOptions> = {},
): Promise<ParseResult> {
  return parseGeminiChat(path, { includeSubagents: true, source, ...extra });
}

function chatFile(lines: unknown[] | string): Promise<string> {
  const text = typeof lines === "string" ? lines : jsonLines(lines);
  return tempFileAt("tmp/proj/chats/session-x.jsonl", text);
}

Deno.test("gemini.roots() honours DEJA_GEMINI_ROOT, then GEMINI_CLI_HOME, then HOME", async (t) => {
  for (
    const [env, want] of [
      [{}, "/h/.gemini"],
      [{ GEMINI_CLI_HOME: "/alt" }, "/alt/.gemini"],
      [
        { DEJA_GEMINI_ROOT: "/r/.gemini", GEMINI_CLI_HOME: "/alt" },
        "/r/.gemini",
      ],
    ] as const
  ) {
    await t.step(JSON.stringify(env), () => {
      deepEqual(gemini.roots({ home: "/h", env, os: "linux" }), [want]);
    });
  }
});

Deno.test("gemini.discover() finds JSON, JSONL and sub-agent chats in the fixture", async () => {
  const found = await gemini.discover(source);
  deepEqual(found.map((p) => p.slice(HOME.length)).sort(), [
    "/.gemini/tmp/b6b6d2f8ef9f581b8de412b5febe694b099fde86c1797d534ae369257ed8ebcd/chats/session-2025-11-20T08-30-9b2d4e11.json",
    "/.gemini/tmp/harbor/chats/4f1c2a9e-6b0d-4e8a-9c31-7d52e0a4b6f8/c0ffee01-2a3b-4c5d-8e9f-0a1b2c3d4e5f.jsonl",
    "/.gemini/tmp/harbor/chats/session-2026-02-03T10-15-4f1c2a9e.jsonl",
    "/.gemini/tmp/harbor/chats/session-2026-02-06T14-20-8d2b6f30.jsonl",
  ]);
  ok(found.every((p) => gemini.kinds.some((k) => k.match(p))));
});

Deno.test("parseGeminiChat() replays a JSONL log: upserts, tools, rewind marks, summary title", async () => {
  const path =
    `${HOME}/.gemini/tmp/harbor/chats/session-2026-02-03T10-15-4f1c2a9e.jsonl`;
  const result = await parse(path);
  equal(result.skipped, 0);
  const s = result.sessions[0] as Session;
  equal(s.id, "4f1c2a9e-6b0d-4e8a-9c31-7d52e0a4b6f8");
  equal(s.project, "harbor");
  equal(s.cwd, "/home/dev/code/harbor");
  equal(s.title, "Fix berth count off-by-one in dock");
  deepEqual(s.records.map((r) => r.role), [
    "user",
    "command",
    "tool-output",
    "files",
    "tool-output",
    "edit",
    "tool-output",
    "assistant",
    "user",
    "assistant",
    "files",
    "tool-output",
    "user",
    "assistant",
  ]);
  // The typed prompt, not the file contents the at-command appended.
  equal(
    s.records[0]?.text,
    "the dock test fails on berth count, can you fix it? @src/dock.ts",
  );
  equal(s.records[1]?.exitCode, 1);
  // The older `…Exit Code: 1\nSignal: 0\n…` footer fails the output too.
  deepEqual(s.records[2]?.flags, { isError: true });
  equal(s.records[5]?.text, "/home/dev/code/harbor/src/dock.ts\nreturn n - 1;");
  deepEqual(s.records[11]?.flags, { isError: true });
  deepEqual(s.marks, [{ kind: "rewind", from: 8, to: 12 }]);
  deepEqual(
    s.records.filter((r) => isSuperseded(r.seq, s.marks)).map((r) => r.text)
      .slice(0, 2),
    [
      "also document the berth rule in docs/berths.md",
      "I could not find docs/berths.md; shall I create it?",
    ],
  );
  ok(s.records.every((r) => !r.text.includes("Reproducing")), "thoughts");
  equal(s.started, Date.parse("2026-02-03T10:15:40.000Z"));
  equal(s.records[0]?.locator.recordId, "m1");
});

Deno.test("parseGeminiChat() keeps output the CLI later masked, records its error lines and failed shell exits", async () => {
  const path =
    `${HOME}/.gemini/tmp/harbor/chats/session-2026-02-06T14-20-8d2b6f30.jsonl`;
  const result = await parse(path);
  equal(result.skipped, 0);
  const s = result.sessions[0] as Session;
  deepEqual(
    s.records.map((r) => [r.role, r.tool ?? null, r.exitCode ?? null]),
    [
      ["user", null, null],
      ["command", "run_shell_command", 0],
      ["tool-output", "run_shell_command", null],
      ["files", "read_file", null],
      ["tool-output", "read_file", null],
      ["assistant", null, null],
      ["command", "run_shell_command", 2],
      ["tool-output", "run_shell_command", null],
      ["command", "run_shell_command", 0],
      ["tool-output", "run_shell_command", null],
      ["tool-output", "model", null],
      ["summary", null, null],
      ["user", null, null],
    ],
  );
  const text = (seq: number) => s.records[seq]?.text ?? "";
  // A masking sync (`<tool_output_masked>`) and a compression truncation
  // (`Output too large. …`) replaced these; the printed output stays.
  ok(text(2).includes("hot path: allocateBerths 4.2s"), text(2));
  ok(text(7).includes("BERTH_COLLISION_17"), text(7));
  ok(
    s.records.every((r) => !/tool_output_masked|Output too large/.test(r.text)),
  );
  // The sync wrote both responses of the turn into each call: each keeps its own.
  equal(
    text(4),
    "export function allocateBerths(ships: Ship[]) { /* SLIPWAY_SCAN linear */ }",
  );
  // `Exit Code: 2` ends the output: failed. `Exit Code: 3` the command
  // printed mid-output is not the footer: it exited 0.
  deepEqual(s.records[7]?.flags, { isError: true });
  equal(s.records[9]?.flags, undefined);
  // The API error line is error output of the model call; info and warning
  // lines stay out.
  equal(
    text(10),
    "[API Error: You exceeded your current quota (RESOURCE_EXHAUSTED_HARBOR). Please retry in 20s.]",
  );
  deepEqual(s.records[10]?.flags, { isError: true });
  equal(s.records[10]?.locator.recordId, "a4");
  ok(s.records.every((r) => !/fallback model|context window/.test(r.text)));
});

Deno.test("parseGeminiChat() puts back output each masking shape replaced, and only then", async (t) => {
  const original = "Output: SEAL_TALLY 42\nProcess Group PGID: 9";
  const call = (output: string) => ({
    id: "c1",
    name: "run_shell_command",
    args: { command: "make tally" },
    status: "success",
    result: [{
      functionResponse: {
        id: "c1",
        name: "run_shell_command",
        response: { output },
      },
    }],
  });
  const message = (output: string) => ({
    id: "g1",
    type: "gemini",
    content: "",
    toolCalls: [call(output)],
  });
  const outputs = async (lines: unknown[]) =>
    ((await parse(await chatFile(lines))).sessions[0] as Session).records
      .filter((r) => r.role === "tool-output").map((r) => r.text);
  const head = { sessionId: "s", projectHash: "p" };
  const user = { id: "u1", type: "user", content: "tally the seals" };
  for (
    const placeholder of [
      "<tool_output_masked>\nOutput: SEAL…\n\nOutput too large. Full output available at: /t/o.txt\n</tool_output_masked>",
      '[Tool Output Masked]\n<tool_output_masked_guidance \n  tool_name="run_shell_command" \n>\n... [Full output available at /t/o.txt.]\n</tool_output_masked_guidance>',
      '[Observation Masked]\n<observation_masked_guidance tool_name="run_shell_command">\n  <preview>Output: SEAL</preview>\n</observation_masked_guidance>',
      "Output too large. Showing first 8 and last 32 characters. For full output see: /t/o.txt\nOutput: \n\n... [3 characters omitted] ...\n\n9",
    ]
  ) {
    await t.step(placeholder.slice(0, 24), async () => {
      // Synced by a `$set` message list, and by the message written again.
      deepEqual(
        await outputs([head, user, message(original), {
          $set: { messages: [user, message(placeholder)] },
        }]),
        [original],
      );
      deepEqual(
        await outputs([head, user, message(original), message(placeholder)]),
        [original],
      );
    });
  }
  await t.step(
    "a rewrite that masks nothing, or no original, stands",
    async () => {
      deepEqual(
        await outputs([head, user, message(original), {
          $set: { messages: [user, message("Output: SEAL_TALLY 43")] },
        }]),
        ["Output: SEAL_TALLY 43"],
      );
      const masked =
        "<tool_output_masked>\nOutput: SEAL\n</tool_output_masked>";
      deepEqual(await outputs([head, user, message(masked)]), [masked]);
    },
  );
});

Deno.test("parseGeminiChat() reads a legacy JSON document and its .project_root", async () => {
  const hash =
    "b6b6d2f8ef9f581b8de412b5febe694b099fde86c1797d534ae369257ed8ebcd";
  const path =
    `${HOME}/.gemini/tmp/${hash}/chats/session-2025-11-20T08-30-9b2d4e11.json`;
  const s = (await parse(path)).sessions[0] as Session;
  equal(s.project, "lighthouse");
  deepEqual(s.records.map((r) => [r.role, r.tool]), [
    ["user", undefined],
    ["tool-output", "search_file_content"],
    ["assistant", undefined],
  ]);
});

Deno.test("parseGeminiChat() files sub-agent chats under their parent, or skips them", async () => {
  const path =
    `${HOME}/.gemini/tmp/harbor/chats/4f1c2a9e-6b0d-4e8a-9c31-7d52e0a4b6f8/c0ffee01-2a3b-4c5d-8e9f-0a1b2c3d4e5f.jsonl`;
  const s = (await parse(path)).sessions[0] as Session;
  equal(s.parent, "4f1c2a9e-6b0d-4e8a-9c31-7d52e0a4b6f8");
  equal(s.lineage, "subagent");
  ok(s.records.every((r) => r.flags?.subagent === true));
  deepEqual((await parse(path, { includeSubagents: false })).sessions, []);
});

Deno.test("parseGeminiChat() lets a .jsonl twin supersede its .json", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.mkdir(`${dir}/tmp/p/chats`, { recursive: true });
  const base = `${dir}/tmp/p/chats/session-1`;
  const doc = {
    sessionId: "s",
    messages: [{ id: "a", type: "user", content: "old copy" }],
  };
  await Deno.writeTextFile(`${base}.json`, JSON.stringify(doc));
  equal((await parse(`${base}.json`)).sessions.length, 1);
  await Deno.writeTextFile(
    `${base}.jsonl`,
    `${JSON.stringify({ sessionId: "s", projectHash: "p" })}\n`,
  );
  deepEqual((await parse(`${base}.json`)).sessions, []);
});

Deno.test("parseGeminiChat() applies $set message lists and compression summaries", async () => {
  const path = await chatFile([
    { sessionId: "s", projectHash: "p", startTime: "2026-01-01T00:00:00Z" },
    { id: "u1", type: "user", content: "first ask" },
    { id: "g1", type: "gemini", content: "first answer" },
    {
      $set: {
        messages: [
          {
            id: "c1",
            type: "user",
            content: [{ text: "<state_snapshot>goal: ship</state_snapshot>" }],
          },
          {
            id: "c2",
            type: "gemini",
            content: [{ text: "Got it. Thanks for the additional context!" }],
          },
        ],
      },
    },
    { id: "u2", type: "user", content: "next ask" },
    { $rewindTo: "missing-id" },
    { id: "u3", type: "user", content: "after a rewind to nowhere" },
  ]);
  const s = (await parse(path)).sessions[0] as Session;
  deepEqual(s.records.map((r) => [r.role, r.text]), [
    ["user", "first ask"],
    ["assistant", "first answer"],
    ["summary", "<state_snapshot>goal: ship</state_snapshot>"],
    ["user", "next ask"],
    ["user", "after a rewind to nowhere"],
  ]);
  // A rewind to an unknown id clears what was live; the summary sync did not.
  deepEqual(s.marks, [{ kind: "rewind", from: 2, to: 4 }]);
});

Deno.test("parseGeminiChat() leaves a torn last line and counts malformed ones", async () => {
  const head = [
    { sessionId: "s", projectHash: "p" },
    { id: "u1", type: "user", content: "kept" },
  ].map((l) => JSON.stringify(l)).join("\n");
  const path = await chatFile(
    `${head}\nnot json\n[1]\n{"id":"u2","type":"user","content":"torn`,
  );
  const result = await parse(path);
  equal(result.skipped, 2);
  deepEqual(result.sessions[0]?.records.map((r) => r.text), ["kept"]);
});

Deno.test("parseGeminiChat() skips oversized lines and documents", async () => {
  const path = await chatFile([
    { sessionId: "s", projectHash: "p" },
    { id: "u1", type: "user", content: "x".repeat(5000) },
    { id: "u2", type: "user", content: "small" },
  ]);
  const result = await parse(path, { maxLineBytes: 1000 });
  equal(result.skipped, 1);
  deepEqual(result.sessions[0]?.records.map((r) => r.text), ["small"]);
  const json = path.replace(/\.jsonl$/, "-doc.json");
  await Deno.writeTextFile(
    json,
    JSON.stringify({
      sessionId: "d",
      messages: [{ id: "a", type: "user", content: "x".repeat(5000) }],
    }),
  );
  deepEqual(await parse(json, { maxDocumentBytes: 1000 }), {
    sessions: [],
    skipped: 1,
  });
});

Deno.test("parseGeminiChat() survives hostile input", async (t) => {
  const cases: Array<[string, string]> = [
    ["garbage bytes", "\u0000\u00ff\ufffd{{{\n\x1b[31m\n"],
    [
      "wrong types",
      [
        { sessionId: 7, projectHash: [] },
        { id: "a", type: "user", content: { text: 5 } },
        {
          id: "b",
          type: "gemini",
          content: [null, 3, { text: ["x"] }],
          toolCalls: "nope",
        },
        {
          id: "c",
          type: "gemini",
          toolCalls: [null, { name: 1 }, {
            name: "run_shell_command",
            args: "{",
            result: [{ functionResponse: null }],
          }],
        },
        { $set: { messages: [1, null, { id: 2 }] } },
        { $rewindTo: 42 },
        {
          __proto__: { polluted: true },
          id: "d",
          type: "user",
          content: "proto",
        },
      ].map((l) => JSON.stringify(l)).join("\n") + "\n",
    ],
    [
      "huge nesting",
      `${"[".repeat(200_000)}\n{"sessionId":"s","projectHash":"p"}\n`,
    ],
  ];
  for (const [name, text] of cases) {
    await t.step(name, async () => {
      const path = await chatFile(text);
      const result = await parse(path);
      ok(result.skipped >= 0);
      const json = path.replace(/\.jsonl$/, ".json");
      await Deno.writeTextFile(json, text);
      await parse(json);
    });
  }
  equal(({} as Record<string, unknown>).polluted, undefined);
});

Deno.test({
  name: "gemini parses every real sample with the turns a reader counts",
  ignore: !hasSamples("gemini"),
  fn: async () => {
    const files: string[] = [];
    for await (
      const entry of Deno.readDir(SAMPLES)
    ) {
      const env = { DEJA_GEMINI_ROOT: `${SAMPLES}/${entry.name}` };
      files.push(
        ...await gemini.discover({ home: "/nohome", env, os: "linux" }),
      );
    }
    equal(files.length, 1);
    const result = await parse(files[0] as string);
    equal(result.skipped, 0);
    equal(result.sessions.length, 1);
    const s = result.sessions[0] as Session;
    const count = (role: string) =>
      s.records.filter((r) => r.role === role).length;
    // One prompt; 31 model turns of which only the last says anything.
    deepEqual([count("user"), count("assistant")], [1, 1]);
    // 62 tool calls, each with its result; 14 shell runs, 2 failed calls.
    equal(count("tool-output"), 62);
    equal(count("command"), 14);
    equal(s.records.filter((r) => r.flags?.isError).length, 2);
    ok(
      s.records.filter((r) => r.role === "command").every((r) =>
        r.exitCode === 0
      ),
    );
  },
});

Deno.test("parseGeminiChat() finds the project root behind a hashed folder from the paths the chat names", async () => {
  const { sha256Hex } = await import("../core/hash.ts");
  const root = "/home/dev/src/kiwi";
  const doc = {
    sessionId: "5e1d0c2b-1111-4222-8333-944455556666",
    startTime: "2026-03-01T10:00:00.000Z",
    lastUpdated: "2026-03-01T10:05:00.000Z",
    messages: [
      {
        id: "m1",
        type: "user",
        timestamp: "2026-03-01T10:00:00.000Z",
        content: "why does the kiwi build fail?",
      },
      {
        id: "m2",
        type: "gemini",
        timestamp: "2026-03-01T10:01:00.000Z",
        content: "Reading the config.",
        toolCalls: [{
          id: "read_file-1",
          name: "read_file",
          args: { absolute_path: `${root}/src/build/config.ts` },
          status: "success",
          result: [{ functionResponse: { response: { output: "ok" } } }],
        }],
      },
    ],
  };
  const path = await tempFileAt(
    `.gemini/tmp/${
      sha256Hex(root)
    }/chats/session-2026-03-01T10-00-5e1d0c2b.json`,
    JSON.stringify(doc),
  );
  const s = (await parse(path)).sessions[0] as Session;
  equal(s.cwd, root);
  equal(s.project, "kiwi");
  // A folder whose hash matches no mentioned path keeps its name.
  const other = await tempFileAt(
    `.gemini/tmp/${
      "0".repeat(64)
    }/chats/session-2026-03-01T10-00-5e1d0c2b.json`,
    JSON.stringify(doc),
  );
  const t = (await parse(other)).sessions[0] as Session;
  equal(t.cwd, undefined);
  equal(t.project, "0".repeat(64));
});

Deno.test("gemini logs.json: the prompts of chats older builds never recorded are a history kind", async () => {
  const path = await tempFileAt(
    ".gemini/tmp/ledger/logs.json",
    JSON.stringify([
      {
        sessionId: "7d0e5b2c-1f4a-4c39-8e62-b5a9d03c7f14",
        messageId: 0,
        type: "user",
        message: "why is the balance negative?",
        timestamp: "2025-07-03T09:15:02.118Z",
      },
      {
        sessionId: "7d0e5b2c-1f4a-4c39-8e62-b5a9d03c7f14",
        messageId: 1,
        type: "user",
        message: "/quit",
        timestamp: "2025-07-03T09:20:40.001Z",
      },
      {
        sessionId: "c81f9a44-60b2-4d1e-9a7f-2e3d5c6b7a80",
        messageId: 0,
        type: "user",
        message: "round the totals to cents",
        timestamp: "2025-07-04T11:00:00.000Z",
      },
      { sessionId: "c81f9a44-60b2-4d1e-9a7f-2e3d5c6b7a80", type: "user" },
      "junk",
    ]),
  );
  const root = path.slice(0, -"/tmp/ledger/logs.json".length);
  await Deno.writeTextFile(`${root}/tmp/ledger/.project_root`, "/srv/ledger");
  const env: SourceEnv = {
    home: "/none",
    env: { DEJA_GEMINI_ROOT: root },
    os: "linux",
  };
  deepEqual(await gemini.discover(env), [path]);
  const kind = gemini.kinds.find((k) => k.match(path));
  equal(kind?.id, "history");
  const result = await kind!.parse(path, {
    includeSubagents: true,
    source: env,
  });
  equal(result.skipped, 2);
  deepEqual(
    result.sessions.map((
      s,
    ) => [s.id, s.cwd, s.project, s.records.map((r) => [r.role, r.text])]),
    [
      ["7d0e5b2c-1f4a-4c39-8e62-b5a9d03c7f14", "/srv/ledger", "ledger", [[
        "user",
        "why is the balance negative?",
      ]]],
      ["c81f9a44-60b2-4d1e-9a7f-2e3d5c6b7a80", "/srv/ledger", "ledger", [[
        "user",
        "round the totals to cents",
      ]]],
    ],
  );
  equal(result.sessions[0]?.started, Date.parse("2025-07-03T09:15:02.118Z"));
});

Deno.test("gemini reads a /chat save checkpoint only when no chat of its project holds it", async (t) => {
  const home = await Deno.makeTempDir();
  const tmp = `${home}/.gemini/tmp/orchard`;
  await Deno.mkdir(`${tmp}/chats`, { recursive: true });
  const setup = {
    role: "user",
    parts: [{
      text:
        "<session_context>\nThis is the Gemini CLI. We are setting up the context for our chat.\nToday's date is Monday, June 2, 2025.\nMy operating system is: linux\nI'm currently working in the directory: /home/dev/orchard\n</session_context>",
    }],
  };
  const history = [
    setup,
    { role: "model", parts: [{ text: "Got it. Thanks for the context!" }] },
    { role: "user", parts: [{ text: "why do the pear trees bloom late?" }] },
    {
      role: "model",
      parts: [{ text: "Checking the frost table." }, {
        functionCall: {
          id: "c1",
          name: "read_file",
          args: { absolute_path: "/home/dev/orchard/frost.csv" },
        },
      }],
    },
    {
      role: "user",
      parts: [{
        functionResponse: {
          id: "c1",
          name: "read_file",
          response: { output: "pear,late" },
        },
      }],
    },
    { role: "model", parts: [{ text: "The frost table delays pears." }] },
  ];
  const legacy = `${tmp}/checkpoint-pears.json`;
  await Deno.writeTextFile(legacy, JSON.stringify(history));
  const current = `${tmp}/checkpoint-bloom%20notes.json`;
  await Deno.writeTextFile(
    current,
    JSON.stringify({ history, authType: "oauth-personal" }),
  );
  const kind = (p: string) => gemini.kinds.find((k) => k.match(p));
  const env = { home, env: {}, os: "linux" };
  await t.step("discovered as checkpoints", async () => {
    const found = await gemini.discover(env);
    ok(found.includes(legacy) && found.includes(current), found.join());
    equal(kind(legacy)?.id, "checkpoint");
  });
  await t.step("both shapes parse, setup context dropped", async () => {
    for (const path of [legacy, current]) {
      const r = await kind(path)!.parse(path, {
        includeSubagents: true,
        source: env,
      });
      const s = r.sessions[0] as Session;
      deepEqual(s.records.map((x) => x.role), [
        "user",
        "assistant",
        "files",
        "tool-output",
        "assistant",
      ]);
      equal(s.records[0]?.text, "why do the pear trees bloom late?");
      equal(s.cwd, "/home/dev/orchard");
    }
    const s = (await kind(current)!.parse(current, {
      includeSubagents: true,
      source: env,
    })).sessions[0];
    equal(s?.title, "bloom notes");
    equal(s?.id, "orchard/checkpoint-bloom%20notes");
  });
  await t.step("a chat that holds the same prompt wins", async () => {
    await Deno.writeTextFile(
      `${tmp}/chats/session-2025-06-02T10-00-abcd1234.json`,
      JSON.stringify({
        sessionId: "abcd1234",
        messages: [{
          id: "m1",
          type: "user",
          content: [{ text: "why do the pear trees bloom late?" }],
        }],
      }),
    );
    const r = await kind(legacy)!.parse(legacy, {
      includeSubagents: true,
      source: env,
    });
    equal(r.sessions.length, 0);
  });
});

Deno.test("gemini checkpoint: a shell run's non-zero exit footer fails its output", async () => {
  const path = await tempFileAt(
    ".gemini/tmp/quay/checkpoint-crane.json",
    JSON.stringify([
      { role: "user", parts: [{ text: "why does the crane test hang?" }] },
      {
        role: "model",
        parts: [{
          functionCall: {
            id: "s1",
            name: "run_shell_command",
            args: { command: "npm test -- crane" },
          },
        }],
      },
      {
        role: "user",
        parts: [{
          functionResponse: {
            id: "s1",
            name: "run_shell_command",
            response: {
              output:
                "Output: crane.spec.ts timed out (JIB_LOCK)\nExit Code: 5\nProcess Group PGID: 31",
            },
          },
        }],
      },
    ]),
  );
  const kind = gemini.kinds.find((k) => k.match(path));
  const s = (await kind!.parse(path, { includeSubagents: true, source }))
    .sessions[0] as Session;
  deepEqual(
    s.records.map((r) => [r.role, r.exitCode ?? null, r.flags ?? null]),
    [
      ["user", null, null],
      ["command", 5, null],
      ["tool-output", null, { isError: true }],
    ],
  );
});

Deno.test("gemini checkpoint: text sent beside a function response is the tool's output, not the user's", async () => {
  // Mid-2025 builds answered a multi-part tool output (read_many_files) with
  // the function response followed by the parts' text in the same turn.
  const path = await tempFileAt(
    ".gemini/tmp/wharf/checkpoint-tides.json",
    JSON.stringify([
      { role: "user", parts: [{ text: "compare the two tide tables" }] },
      {
        role: "model",
        parts: [{
          functionCall: {
            name: "read_many_files",
            args: { paths: ["tides/a.csv", "tides/b.csv"] },
          },
        }],
      },
      {
        role: "user",
        parts: [
          {
            functionResponse: {
              name: "read_many_files",
              response: { output: "Tool execution succeeded." },
            },
          },
          { text: "--- tides/a.csv ---\nHIGH_WATER_0612" },
          { text: "--- tides/b.csv ---\nHIGH_WATER_0630" },
        ],
      },
      { role: "model", parts: [{ text: "B is 18 minutes later." }] },
    ]),
  );
  const kind = gemini.kinds.find((k) => k.match(path));
  const s = (await kind!.parse(path, { includeSubagents: true, source }))
    .sessions[0] as Session;
  deepEqual(s.records.map((r) => [r.role, r.text]), [
    ["user", "compare the two tide tables"],
    ["files", "tides/a.csv"],
    ["files", "tides/b.csv"],
    [
      "tool-output",
      "Tool execution succeeded.\n--- tides/a.csv ---\nHIGH_WATER_0612\n--- tides/b.csv ---\nHIGH_WATER_0630",
    ],
    ["assistant", "B is 18 minutes later."],
  ]);
});

Deno.test("parseGeminiChat() keeps the setup context and the interrupted-stream placeholder out of speech", async () => {
  // Newer builds sync their bootstrapped history into the recording: the
  // setup context arrives as a `user` message in a `$set` list, a tool
  // response (and text sent beside it) as a `user` message, and a stream
  // that failed after a tool response leaves a placeholder turn.
  const setup = [
    "<session_context>",
    "This is the Gemini CLI. We are setting up the context for our chat.",
    "Today's date is Monday, March 2, 2026 (formatted according to the user's locale).",
    "My operating system is: linux",
    "- **Workspace Directories:**",
    "  - /home/dev/code/quayside",
    "</session_context>",
  ].join("\n");
  const path = await chatFile([
    { sessionId: "s", projectHash: "p", startTime: "2026-03-02T09:00:00Z" },
    {
      $set: {
        messages: [{ id: "ctx", type: "user", content: [{ text: setup }] }],
      },
    },
    { id: "u1", type: "user", content: [{ text: "why is the crane idle?" }] },
    {
      id: "g1",
      type: "gemini",
      content: "",
      toolCalls: [{
        id: "c1",
        name: "read_file",
        args: { file_path: "/home/dev/code/quayside/crane.ts" },
        status: "success",
        result: [{
          functionResponse: {
            id: "c1",
            name: "read_file",
            response: { output: "export const idle = true;" },
          },
        }],
      }],
    },
    {
      id: "r1",
      type: "user",
      content: [{
        functionResponse: {
          id: "c1",
          name: "read_file",
          response: { output: "export const idle = true;" },
        },
      }, { text: "Attached: crane-diagram.png (image/png)" }],
    },
    {
      id: "p1",
      type: "gemini",
      content: [{
        text: "[The previous response was interrupted before it completed.]",
      }],
    },
    { id: "u2", type: "user", content: "try again" },
    { id: "g2", type: "gemini", content: "The crane waits on `idle`." },
  ]);
  const s = (await parse(path)).sessions[0] as Session;
  deepEqual(s.records.map((r) => [r.role, r.text]), [
    ["user", "why is the crane idle?"],
    ["files", "/home/dev/code/quayside/crane.ts"],
    ["tool-output", "export const idle = true;"],
    ["user", "try again"],
    ["assistant", "The crane waits on `idle`."],
  ]);
  // The folder the setup context names is the working directory.
  equal(s.cwd, "/home/dev/code/quayside");
});

Deno.test("parseGeminiChat() keeps hook and editor context out of what the person typed", async () => {
  // Shapes from gemini-cli core/client.ts: a BeforeAgent hook's context is a
  // `<hook_context>` part after the prompt, a SessionStart hook's and the IDE
  // companion's editor state are history turns of their own (synced into the
  // chat as user messages), and a non-interactive prompt may carry the
  // SessionStart context in front of it.
  const ide = [
    "Here is the user's editor context as a JSON object. This is for your information only.",
    "```json",
    JSON.stringify(
      {
        activeFile: {
          path: "/home/dev/kiln/src/temp.ts",
          cursor: { line: 12, character: 4 },
          selectedText: "const max = 1280;",
        },
        otherOpenFiles: ["/home/dev/kiln/README.md"],
      },
      null,
      2,
    ),
    "```",
  ].join("\n");
  const delta = [
    "Here is a summary of changes in the user's editor context, in JSON format. This is for your information only.",
    "```json",
    JSON.stringify(
      {
        changes: {
          cursorMoved: {
            path: "/home/dev/kiln/src/temp.ts",
            cursor: { line: 30, character: 1 },
          },
        },
      },
      null,
      2,
    ),
    "```",
  ].join("\n");
  const path = await chatFile([
    { sessionId: "s", projectHash: "p", startTime: "2026-03-04T09:00:00Z" },
    {
      $set: {
        messages: [
          {
            id: "h0",
            type: "user",
            content: [{
              text: "<hook_context>branch main, 2 files dirty</hook_context>",
            }],
          },
          { id: "e0", type: "user", content: [{ text: ide }] },
        ],
      },
    },
    {
      id: "u1",
      type: "user",
      content: [{ text: "why does the kiln overheat?" }, {
        text: "<hook_context>ticket KILN-7 is open</hook_context>",
      }],
    },
    { id: "g1", type: "gemini", content: "The limit is 1280." },
    { id: "e1", type: "user", content: [{ text: delta }] },
    {
      id: "u2",
      type: "user",
      content: [{
        text:
          "<hook_context>branch main</hook_context>\n\nlower it to 1200\n--- Content from referenced files ---\nContent from @src/temp.ts:\nconst max = 1280;",
      }],
      displayContent: [{
        text: "<hook_context>branch main</hook_context>\n\nlower it to 1200",
      }],
    },
  ]);
  const s = (await parse(path)).sessions[0] as Session;
  deepEqual(s.records.map((r) => [r.role, r.text]), [
    ["user", "why does the kiln overheat?"],
    ["assistant", "The limit is 1280."],
    ["user", "lower it to 1200"],
  ]);
});

Deno.test("gemini checkpoint: editor context in the history is not a prompt", async () => {
  const path = await tempFileAt(
    ".gemini/tmp/kiln/checkpoint-heat.json",
    JSON.stringify([
      {
        role: "user",
        parts: [{
          text:
            'Here is the user\'s editor context as a JSON object. This is for your information only.\n```json\n{\n  "activeFile": {\n    "path": "/home/dev/kiln/src/temp.ts"\n  }\n}\n```',
        }],
      },
      { role: "user", parts: [{ text: "why does the kiln overheat?" }] },
      { role: "model", parts: [{ text: "The limit is 1280." }] },
    ]),
  );
  const kind = gemini.kinds.find((k) => k.match(path))!;
  const r = await kind.parse(path, { includeSubagents: true, source });
  deepEqual(r.sessions[0]?.records.map((x) => [x.role, x.text]), [
    ["user", "why does the kiln overheat?"],
    ["assistant", "The limit is 1280."],
  ]);
});

Deno.test("gemini: the CLI's own retry prompt after an invalid stream is not speech", async () => {
  // core/client.ts sends `System: Please continue.` itself when the model's
  // stream ended invalid; the chat records it as a user message, and a
  // `/chat save` checkpoint holds it as a user turn.
  const path = await chatFile([
    { sessionId: "s", projectHash: "p", startTime: "2026-03-05T09:00:00Z" },
    { id: "u1", type: "user", content: [{ text: "tidy the flue notes" }] },
    { id: "g1", type: "gemini", content: "" },
    { id: "u2", type: "user", content: [{ text: "System: Please continue." }] },
    { id: "g2", type: "gemini", content: "Tidied the flue notes." },
  ]);
  const s = (await parse(path)).sessions[0] as Session;
  deepEqual(s.records.map((r) => [r.role, r.text]), [
    ["user", "tidy the flue notes"],
    ["assistant", "Tidied the flue notes."],
  ]);
  const saved = await tempFileAt(
    ".gemini/tmp/flue/checkpoint-notes.json",
    JSON.stringify([
      { role: "user", parts: [{ text: "tidy the flue notes" }] },
      { role: "model", parts: [{ text: "" }] },
      { role: "user", parts: [{ text: "System: Please continue." }] },
      { role: "model", parts: [{ text: "Tidied the flue notes." }] },
    ]),
  );
  const kind = gemini.kinds.find((k) => k.match(saved))!;
  const r = await kind.parse(saved, { includeSubagents: true, source });
  deepEqual(r.sessions[0]?.records.map((x) => [x.role, x.text]), [
    ["user", "tidy the flue notes"],
    ["assistant", "Tidied the flue notes."],
  ]);
});

Deno.test("parseGeminiChat() records the files a current read_many_files call names under include", async () => {
  // tools/definitions/coreTools.ts: `read_many_files` takes `include` (glob
  // patterns or paths) where older builds took `paths`.
  const path = await chatFile([
    { sessionId: "s", projectHash: "p", startTime: "2026-03-06T09:00:00Z" },
    { id: "u1", type: "user", content: [{ text: "compare the kiln docs" }] },
    {
      id: "g1",
      type: "gemini",
      content: "",
      toolCalls: [{
        id: "c1",
        name: "read_many_files",
        args: { include: ["docs/kiln.md", "src/kiln/*.ts"] },
        status: "success",
        timestamp: "2026-03-06T09:00:02Z",
        result: [{
          functionResponse: {
            id: "c1",
            name: "read_many_files",
            response: { output: "--- docs/kiln.md ---\nFire at 1200." },
          },
        }],
      }],
    },
  ]);
  const s = (await parse(path)).sessions[0] as Session;
  deepEqual(
    s.records.filter((r) => r.role === "files").map((r) => r.text),
    ["docs/kiln.md", "src/kiln/*.ts"],
  );
});

Deno.test("gemini: a shell-mode turn is the command the person ran and its output", async () => {
  // `!git status` puts this user turn in history (cli ui/hooks/
  // shellCommandProcessor.ts); a history sync writes it into the chat.
  const ran = [
    "I ran the following shell command:",
    "```sh",
    "git status --short",
    "```",
    "",
    "This produced the following result:",
    "```",
    " M src/kiln.ts",
    "?? notes.md",
    "```",
  ].join("\n");
  const path = await chatFile([
    { sessionId: "s", projectHash: "p", startTime: "2026-03-07T09:00:00Z" },
    {
      $set: {
        messages: [{
          id: "sh1",
          type: "user",
          timestamp: "2026-03-07T09:00:05Z",
          content: [{ text: ran }],
        }],
      },
    },
    { id: "u1", type: "user", content: [{ text: "commit the kiln change" }] },
  ]);
  const s = (await parse(path)).sessions[0] as Session;
  deepEqual(s.records.map((r) => [r.role, r.text, r.tool]), [
    ["command", "git status --short", "run_shell_command"],
    ["tool-output", "M src/kiln.ts\n?? notes.md", "run_shell_command"],
    ["user", "commit the kiln change", undefined],
  ]);
  equal(s.records[0]?.exitCode, undefined);
  const saved = await tempFileAt(
    ".gemini/tmp/kiln/checkpoint-status.json",
    JSON.stringify([
      { role: "user", parts: [{ text: ran }] },
      { role: "user", parts: [{ text: "commit the kiln change" }] },
    ]),
  );
  const kind = gemini.kinds.find((k) => k.match(saved))!;
  const r = await kind.parse(saved, { includeSubagents: true, source });
  deepEqual(r.sessions[0]?.records.map((x) => [x.role, x.text]), [
    ["command", "git status --short"],
    ["tool-output", "M src/kiln.ts\n?? notes.md"],
    ["user", "commit the kiln change"],
  ]);
});

Deno.test("gemini: a compression summary opened with the model's scratchpad is a summary", async () => {
  // The compression prompt asks for a private <scratchpad> first, then the
  // <state_snapshot>; the summary turn holds the model's whole answer.
  const answer = [
    "<scratchpad>",
    "The user is tuning the kiln limit; 1200 was agreed.",
    "</scratchpad>",
    "",
    "<state_snapshot>",
    "    <overall_goal>Lower the kiln limit to 1200.</overall_goal>",
    "</state_snapshot>",
  ].join("\n");
  const snapshot = answer.slice(answer.indexOf("<state_snapshot>"));
  const path = await chatFile([
    { sessionId: "s", projectHash: "p", startTime: "2026-03-08T09:00:00Z" },
    {
      $set: {
        messages: [
          { id: "sum", type: "user", content: [{ text: answer }] },
          {
            id: "ack",
            type: "gemini",
            content: [{ text: "Got it. Thanks for the additional context!" }],
          },
        ],
      },
    },
    { id: "u1", type: "user", content: [{ text: "now the door seal" }] },
  ]);
  const s = (await parse(path)).sessions[0] as Session;
  deepEqual(s.records.map((r) => [r.role, r.text]), [
    ["summary", snapshot],
    ["user", "now the door seal"],
  ]);
  const saved = await tempFileAt(
    ".gemini/tmp/kiln/checkpoint-seal.json",
    JSON.stringify([
      { role: "user", parts: [{ text: answer }] },
      { role: "user", parts: [{ text: "now the door seal" }] },
    ]),
  );
  const kind = gemini.kinds.find((k) => k.match(saved))!;
  const r = await kind.parse(saved, { includeSubagents: true, source });
  deepEqual(r.sessions[0]?.records.map((x) => [x.role, x.text]), [
    ["summary", snapshot],
    ["user", "now the door seal"],
  ]);
});

Deno.test("gemini checkpoint: the stock acknowledgement of a compression summary is not speech", async () => {
  // chatCompressionService.ts follows the summary with a model turn
  // `Got it. Thanks for the additional context!`; `/chat save` keeps both.
  const path = await tempFileAt(
    ".gemini/tmp/kiln/checkpoint-after-compress.json",
    JSON.stringify({
      history: [
        {
          role: "user",
          parts: [{
            text:
              "<state_snapshot>\n<overall_goal>Seal the kiln door.</overall_goal>\n</state_snapshot>",
          }],
        },
        {
          role: "model",
          parts: [{ text: "Got it. Thanks for the additional context!" }],
        },
        { role: "user", parts: [{ text: "which gasket fits?" }] },
        { role: "model", parts: [{ text: "The 12 mm rope gasket." }] },
      ],
    }),
  );
  const kind = gemini.kinds.find((k) => k.match(path))!;
  const r = await kind.parse(path, { includeSubagents: true, source });
  deepEqual(r.sessions[0]?.records.map((x) => x.role), [
    "summary",
    "user",
    "assistant",
  ]);
});

Deno.test("gemini: the reason an AfterAgent hook's block sends as a new turn is the hook's output, not a prompt", async (t) => {
  // core/client.ts sends a blocking AfterAgent hook's reason as a user turn
  // at once; the interactive CLI first records an `Agent execution blocked:`
  // warning (the hook's systemMessage, else the reason), and builds that
  // pass the prompt's displayContent on record it with the new turn.
  const head = [
    { sessionId: "s", projectHash: "p", startTime: "2026-03-05T09:00:00Z" },
    { id: "u1", type: "user", content: [{ text: "make the kiln tests pass" }] },
    { id: "g1", type: "gemini", content: "The kiln tests pass now." },
  ];
  const records = async (lines: unknown[]) =>
    ((await parse(await chatFile([...head, ...lines]))).sessions[0] as Session)
      .records.map((r) => [r.role, r.tool ?? null, r.text]);
  const reason = "Two kiln specs are still skipped: run them before stopping.";
  await t.step("the warning quotes the reason the turn holds", async () => {
    deepEqual(
      await records([
        {
          id: "w1",
          type: "warning",
          content: `Agent execution blocked: ${reason}`,
        },
        { id: "u2", type: "user", content: [{ text: reason }] },
        { id: "g2", type: "gemini", content: "Ran the skipped specs too." },
      ]),
      [
        ["user", null, "make the kiln tests pass"],
        ["assistant", null, "The kiln tests pass now."],
        ["tool-output", "hook", reason],
        ["assistant", null, "Ran the skipped specs too."],
      ],
    );
  });
  await t.step(
    "a system message instead, the prompt's display text carried on",
    async () => {
      deepEqual(
        await records([
          {
            id: "w1",
            type: "warning",
            content: "Agent execution blocked: iteration 2 of 5",
          },
          {
            id: "i1",
            type: "info",
            content: "Context compressed from 61% to 12%.",
          },
          {
            id: "u2",
            type: "user",
            content: [{ text: reason }],
            displayContent: [{ text: "make the kiln tests pass" }],
          },
        ]),
        [
          ["user", null, "make the kiln tests pass"],
          ["assistant", null, "The kiln tests pass now."],
          ["tool-output", "hook", reason],
        ],
      );
    },
  );
  await t.step(
    "after a BeforeAgent block the person's next prompt is theirs",
    async () => {
      // That block ends the turn: what follows its warning is typed.
      deepEqual(
        await records([
          {
            id: "w1",
            type: "warning",
            content: "Agent execution blocked: prompts may not name prod hosts",
          },
          {
            id: "u2",
            type: "user",
            content: [{ text: "deploy to staging instead" }],
          },
          {
            id: "u3",
            type: "user",
            content: [{ text: "make the kiln tests pass" }],
          },
        ]),
        [
          ["user", null, "make the kiln tests pass"],
          ["assistant", null, "The kiln tests pass now."],
          ["user", null, "deploy to staging instead"],
          ["user", null, "make the kiln tests pass"],
        ],
      );
    },
  );
  await t.step(
    "after a BeforeAgent block a custom command run again is the person's",
    async () => {
      const fix = "Run the kiln suite, then fix what fails.";
      const lines = [
        { sessionId: "s", projectHash: "p", startTime: "2026-03-05T09:00:00Z" },
        {
          id: "u1",
          type: "user",
          content: [{ text: fix }],
          displayContent: [{ text: "/fix-kiln" }],
        },
        { id: "g1", type: "gemini", content: "Fixed two specs." },
        {
          id: "w1",
          type: "warning",
          content: "Agent execution blocked: not now",
        },
        {
          id: "u2",
          type: "user",
          content: [{ text: fix }],
          displayContent: [{ text: "/fix-kiln" }],
        },
      ];
      const s = (await parse(await chatFile(lines))).sessions[0] as Session;
      deepEqual(s.records.map((r) => [r.role, r.text]), [
        ["user", "/fix-kiln"],
        ["assistant", "Fixed two specs."],
        ["user", "/fix-kiln"],
      ]);
    },
  );
  await t.step(
    "a plain Please continue. is kept: nothing tells the CLI's from a person's",
    async () => {
      deepEqual(
        await records([
          { id: "u2", type: "user", content: [{ text: "Please continue." }] },
        ]),
        [
          ["user", null, "make the kiln tests pass"],
          ["assistant", null, "The kiln tests pass now."],
          ["user", null, "Please continue."],
        ],
      );
    },
  );
});
