import { deepEqual, equal, ok } from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { zstdCompressSync } from "node:zlib";
import type { ParseOptions, SourceEnv } from "../core/harness.ts";
import { decodeZstdFrames } from "../core/_zstd_frames.ts";
import { deepseek, parseDeepseekLog } from "./deepseek.ts";
import { jsonLines, roles, tempFileAt } from "./_test_kit.ts";

const FIXTURE_HOME = fileURLToPath(
  new URL("../../fixtures/deepseek", import.meta.url),
);
const WS = `${FIXTURE_HOME}/.dsh/sessions/home-dev-projects-inventory`;
const MAIN = "0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0";
const CUT = "7a6b5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c2d";
const SUB = "3c2b1a09-8f7e-4d6c-b5a4-938271605f4e";

const source: SourceEnv = { home: FIXTURE_HOME, env: {}, os: "linux" };
const opts: ParseOptions = { includeSubagents: true, source };

function zstd(text: string): Uint8Array {
  return new Uint8Array(zstdCompressSync(new TextEncoder().encode(text)));
}

function logFile(
  content: string | Uint8Array,
  name = "session.v4.jsonl",
): Promise<string> {
  return tempFileAt(`ws/session-s1/${name}`, content);
}

Deno.test("deepseek.discover() keeps the newest generation of each session", async () => {
  deepEqual(await deepseek.discover(source), [
    `${WS}/session-${MAIN}/session.v4.jsonl.zstd`,
    `${WS}/session-${SUB}/session.v4.jsonl.zstd`,
    `${WS}/session-${CUT}/session.v3.jsonl`,
  ]);
  deepEqual(
    deepseek.roots({
      home: "/h",
      env: { DEJA_DEEPSEEK_ROOT: "/r" },
      os: "linux",
    }),
    ["/r"],
  );
  deepEqual(deepseek.roots({ home: "/h", env: {}, os: "linux" }), [
    "/h/.dsh/sessions",
  ]);
});

Deno.test("parseDeepseekLog() reads a zstd-framed v4 session", async () => {
  const { sessions, skipped } = await parseDeepseekLog(
    `${WS}/session-${MAIN}/session.v4.jsonl.zstd`,
    opts,
  );
  equal(skipped, 0);
  const s = sessions[0];
  equal(s?.id, MAIN);
  equal(s?.title, "Negative stock after returns");
  equal(s?.project, "inventory");
  equal(
    roles(s),
    "user,assistant,files,tool-output,assistant,files,edit,tool-output,command,tool-output",
  );
  const r = s?.records ?? [];
  ok(
    !r.some((x) => x.text.includes("Sandbox policy")),
    "plugin splice left out",
  );
  ok(!r.some((x) => x.text.includes("subtract twice")), "reasoning left out");
  equal(r[6]?.text, "src/sync/returns.ts\n  item.qty -= qty;");
  equal(r[8]?.text, "npm test -- returns");
  equal(r[8]?.exitCode, 0);
  equal(r[0]?.locator.recordId, "2");
});

Deno.test("parseDeepseekLog() falls back to streamed chunks and leaves a torn line", async () => {
  const { sessions, skipped } = await parseDeepseekLog(
    `${WS}/session-${CUT}/session.v3.jsonl`,
    opts,
  );
  equal(skipped, 0);
  const s = sessions[0];
  equal(roles(s), "user,assistant,command,tool-output");
  equal(
    s?.records[1]?.text,
    "There are three TODOs: retry backoff, batch size and the dry-run flag.",
  );
  equal(s?.records[2]?.exitCode, 2);
  equal(s?.records[3]?.flags?.isError, true);
});

Deno.test("parseDeepseekLog() reads a delegated session as a sub-agent", async (t) => {
  const path = `${WS}/session-${SUB}/session.v4.jsonl.zstd`;
  await t.step("on", async () => {
    const s = (await parseDeepseekLog(path, opts)).sessions[0];
    equal(s?.parent, MAIN);
    equal(s?.lineage, "subagent");
    ok(s?.records.every((r) => r.flags?.subagent));
  });
  await t.step("off", async () => {
    const r = await parseDeepseekLog(path, {
      ...opts,
      includeSubagents: false,
    });
    deepEqual(r.sessions, []);
  });
});

Deno.test("parseDeepseekLog() ignores an older generation when a newer one exists", async () => {
  const r = await parseDeepseekLog(
    `${WS}/session-${MAIN}/session.jsonl.zstd`,
    opts,
  );
  deepEqual(r, { sessions: [], skipped: 0 });
});

Deno.test("parseDeepseekLog() drops deltas a complete message supersedes", async () => {
  const path = await logFile(jsonLines([
    { type: "session", id: "session-s1", createdAt: 1, cwd: "/w/a" },
    {
      type: "user/message",
      seq: 1,
      data: {
        source: { kind: "user" },
        message: { content: [{ type: "core/text", text: "hi" }] },
      },
    },
    {
      type: "assistant/chunk",
      seq: 2,
      data: { chunk: { type: "text-delta", text: "Hel" } },
    },
    {
      type: "assistant/chunk",
      seq: 3,
      data: { chunk: { type: "text-delta", text: "lo" } },
    },
    {
      type: "assistant/message",
      seq: 4,
      data: { message: { content: [{ type: "text", text: "Hello" }] } },
    },
    { type: "turn/end", seq: 5, data: {} },
  ]));
  const s = (await parseDeepseekLog(path, opts)).sessions[0];
  equal(roles(s), "user,assistant");
  equal(s?.records[1]?.text, "Hello");
});

Deno.test("parseDeepseekLog() survives torn frames, garbage and wrong types", async (t) => {
  const good = jsonLines([
    { type: "session", id: "session-s1" },
    {
      type: "user/message",
      seq: 1,
      data: { source: { kind: "user" }, text: "ok" },
    },
  ]);
  const framed = new Uint8Array([
    ...zstd(good),
    ...zstd(jsonLines([{ type: "turn/end" }])),
  ]);
  const cases: Array<[string, string | Uint8Array, string, number]> = [
    [
      "torn zstd frame",
      framed.subarray(0, framed.length - 3),
      "session.v4.jsonl.zstd",
      0,
    ],
    [
      "garbage zstd",
      crypto.getRandomValues(new Uint8Array(4096)),
      "session.v4.jsonl.zstd",
      0,
    ],
    [
      "garbage raw",
      String.fromCharCode(...crypto.getRandomValues(new Uint8Array(2048))) +
      "\n",
      "session.v4.jsonl",
      -1,
    ],
    [
      "deep nesting",
      "[".repeat(100_000) + "]".repeat(100_000) + "\n",
      "session.v4.jsonl",
      1,
    ],
    [
      "wrong types",
      jsonLines([
        { type: "session", id: 5, cwd: [], delegationDepth: "x" },
        { type: 7 },
        [1, 2],
        {
          type: "user/message",
          data: { source: "user", message: { content: 5 } },
        },
        { type: "compaction/summary", data: { summary: 5 } },
        { type: "compaction/summary", data: { summary: [null, { type: 3 }] } },
        {
          type: "assistant/message",
          data: { message: { content: [null, { type: "text", text: 9 }] } },
        },
        { type: "text-chunks", data: { texts: "abc" } },
        { type: "tool/call", data: { name: "bash", arguments: "{not json" } },
        { type: "tool/result", data: { content: { a: 1 }, message: "m" } },
      ]),
      "session.v4.jsonl",
      2,
    ],
  ];
  for (const [name, content, file, skipped] of cases) {
    await t.step(name, async () => {
      const r = await parseDeepseekLog(await logFile(content, file), opts);
      if (skipped >= 0) equal(r.skipped, skipped);
      else ok(r.skipped >= 1);
      for (const s of r.sessions) {
        for (const x of s.records) equal(typeof x.text, "string");
      }
    });
  }
  await t.step("a torn frame keeps the complete ones", async () => {
    const r = await parseDeepseekLog(
      await logFile(
        framed.subarray(0, framed.length - 3),
        "session.v4.jsonl.zstd",
      ),
      opts,
    );
    equal(r.sessions[0]?.records[0]?.text, "ok");
  });
  await t.step("oversized message is capped", async () => {
    const r = await parseDeepseekLog(
      await logFile(
        jsonLines([{
          type: "user/message",
          data: { text: "z".repeat(90_000) },
        }]),
      ),
      opts,
    );
    equal(r.sessions[0]?.records[0]?.flags?.truncated, true);
  });
});

Deno.test("decodeZstdFrames() decodes every frame and reports a torn tail", () => {
  const a = zstd("one\n");
  const big = zstd("x".repeat(500_000) + "\n");
  const skippable = new Uint8Array([0x50, 0x2a, 0x4d, 0x18, 2, 0, 0, 0, 9, 9]);
  const all = new Uint8Array([...a, ...skippable, ...big]);
  const out = decodeZstdFrames(all);
  equal(out.complete, true);
  equal(out.bytes.length, 4 + 500_001);
  const torn = decodeZstdFrames(all.subarray(0, all.length - 1));
  equal(torn.complete, false);
  equal(new TextDecoder().decode(torn.bytes), "one\n");
});

Deno.test("parseDeepseekLog() reads a current header: parentSession, seedLength, origin, and failed results", async (t) => {
  const seeded = (header: Record<string, unknown>) =>
    jsonLines([
      {
        type: "session",
        version: 4,
        id: "session-c1",
        createdAt: 1795500000000,
        cwd: "/home/dev/shop",
        parentSession: "session-p1",
        seedLength: 2,
        ...header,
      },
      // The two events the child inherited from its parent.
      {
        type: "user/message",
        seq: 0,
        time: 1795400000000,
        data: {
          source: { kind: "user" },
          message: { content: [{ type: "text", text: "parent's question" }] },
        },
      },
      {
        type: "assistant/message",
        seq: 1,
        time: 1795400001000,
        data: {
          turn: 0,
          step: 0,
          message: { content: [{ type: "text", text: "parent's answer" }] },
        },
      },
      { type: "session/end-seed", seq: 2, time: 1795500000100, data: {} },
      {
        type: "user/message",
        seq: 3,
        time: 1795500001000,
        data: {
          source: { kind: "user" },
          message: {
            content: [{ type: "text", text: "now try it on staging" }],
          },
        },
      },
      {
        type: "tool/call",
        seq: 4,
        time: 1795500002000,
        data: {
          turn: 1,
          step: 0,
          callId: "c1",
          name: "bash",
          arguments: '{"command":"make deploy-staging"}',
        },
      },
      {
        type: "tool/result",
        seq: 5,
        time: 1795500003000,
        data: {
          turn: 1,
          step: 0,
          message: {
            toolCallId: "c1",
            content: [{ type: "text", text: "permission denied" }],
          },
          error: { name: "ToolExecutionError", code: "EXEC_FAILED" },
        },
      },
    ]);
  await t.step("a fork", async () => {
    const s = (await parseDeepseekLog(await logFile(seeded({})), opts))
      .sessions[0];
    deepEqual([s?.id, s?.parent, s?.lineage], ["c1", "p1", "fork"]);
    deepEqual(
      s?.records.map((r) => [r.role, r.text, r.flags?.isError]),
      [
        ["user", "now try it on staging", undefined],
        ["command", "make deploy-staging", undefined],
        ["tool-output", "permission denied", true],
      ],
    );
  });
  await t.step("a sub-agent by origin", async () => {
    const path = await logFile(seeded({ origin: "subagent" }));
    const s = (await parseDeepseekLog(path, opts)).sessions[0];
    deepEqual([s?.parent, s?.lineage], ["p1", "subagent"]);
    deepEqual(
      (await parseDeepseekLog(path, { ...opts, includeSubagents: false }))
        .sessions,
      [],
    );
  });
  await t.step("a seed length of the wrong type is ignored", async () => {
    for (const seedLength of ["2", -1, 1.5, 1e300]) {
      const s = (await parseDeepseekLog(
        await logFile(seeded({ seedLength })),
        opts,
      )).sessions[0];
      equal(s?.records[0]?.text, "parent's question");
    }
  });
  await t.step("a seed longer than the log leaves nothing", async () => {
    const r = await parseDeepseekLog(
      await logFile(seeded({ seedLength: 99 })),
      opts,
    );
    deepEqual(r.sessions, []);
  });
});

Deno.test("parseDeepseekLog() reads a compaction/summary as the summary of the history it shadows", async () => {
  const path = await logFile(jsonLines([
    {
      type: "session",
      version: 4,
      id: "session-s1",
      createdAt: 1795500000000,
      cwd: "/home/dev/shop",
    },
    {
      type: "user/message",
      seq: 0,
      time: 1795500001000,
      data: {
        source: { kind: "user" },
        message: {
          content: [{ type: "text", text: "fix the refund rounding" }],
        },
      },
    },
    {
      type: "compaction/start",
      seq: 1,
      time: 1795500002000,
      data: { compactionId: "k1" },
      ignorable: true,
    },
    {
      type: "compaction/summary",
      seq: 2,
      time: 1795500003000,
      data: {
        compactionId: "k1",
        summary: [
          { type: "text", text: "Refunds round half-up in refund.ts" },
          { type: "text", text: "Tests in refund.spec.ts still fail" },
        ],
        shadowedRange: { start: 0, end: 0 },
        shadowedSeqs: [0],
        shadowedTokenCount: 5120,
      },
    },
    {
      type: "compaction/end",
      seq: 3,
      time: 1795500003100,
      data: { compactionId: "k1" },
    },
  ]));
  const s = (await parseDeepseekLog(path, opts)).sessions[0];
  deepEqual(s?.records.map((r) => [r.role, r.text, r.time]), [
    ["user", "fix the refund rounding", 1795500001000],
    [
      "summary",
      "Refunds round half-up in refund.ts\nTests in refund.spec.ts still fail",
      1795500003000,
    ],
  ]);
});
