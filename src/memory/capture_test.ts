import { deepEqual, equal, notEqual, ok } from "node:assert/strict";
import { join } from "node:path";
import { indexStores } from "../index/mod.ts";
import { HARNESSES } from "../sources/registry.ts";
import { openMemory } from "./open_memory.ts";
import { recordToolCall } from "./record_tool_call.ts";
import { classifyResult, importToolLog } from "./import_tool_log.ts";
import { importFromIndex } from "./import_from_index.ts";
import type { EventGrain } from "./types.ts";

const T0 = Date.UTC(2026, 5, 1);

function events(store: ReturnType<typeof openMemory>): EventGrain[] {
  return store.byType("event").map((e) => e.grain);
}

Deno.test("recordToolCall() stores repeated calls as distinct events and redacts secrets", () => {
  const store = openMemory(":memory:", { now: () => T0 });
  const a = recordToolCall(store, {
    tool: "deploy",
    isError: true,
    result:
      "Error: AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY rejected",
    thread: "s1",
  });
  const b = recordToolCall(store, {
    tool: "deploy",
    isError: true,
    result:
      "Error: AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY rejected",
    thread: "s1",
  });
  notEqual(a, b);
  const [first] = events(store);
  ok(!JSON.stringify(first).includes("wJalrXUtnFEMI"));
  equal(first?.thread, "s1");
  equal(first?.actor, "agent:local");
  store.close();
});

Deno.test("recordToolCall() redacts a secret held in a JSON field named for it, and keeps other fields", () => {
  const store = openMemory(":memory:", { now: () => T0 });
  recordToolCall(store, {
    tool: "login",
    isError: false,
    input: {
      user: "bob",
      password: "hunter2hunter2",
      nested: { api_key: "abc123def456ghi789" },
    },
    result: { session_token: "qwertyuiopasdfgh", message: "logged in" },
  });
  const [grain] = events(store);
  const stored = JSON.stringify(grain);
  for (
    const secret of ["hunter2hunter2", "abc123def456ghi789", "qwertyuiopasdfgh"]
  ) {
    ok(!stored.includes(secret), `${secret} in ${stored}`);
  }
  deepEqual((grain?.input as Record<string, unknown>).user, "bob");
  deepEqual(
    (grain?.result as Record<string, unknown>).message,
    "logged in",
  );
  store.close();
});

Deno.test("classifyResult() recognises failures liberally", async (t) => {
  const cases: Array<[unknown, boolean, number | undefined]> = [
    ['{"error":"rate_limited"}', true, undefined],
    [{ ok: true }, false, undefined],
    [{ exit_code: 2 }, true, 2],
    [{ exit_code: 0, stdout: "fine" }, false, 0],
    ["Error: ENOENT", true, undefined],
    ["Traceback (most recent call last):", true, undefined],
    ["done, exit code 3", true, 3],
    ["all good", false, undefined],
    [{ status: "failed" }, true, undefined],
  ];
  for (const [value, isError, exitCode] of cases) {
    await t.step(JSON.stringify(value), () => {
      const r = classifyResult(value);
      equal(r.isError, isError);
      equal(r.exitCode, exitCode);
    });
  }
});

Deno.test("importToolLog() reads OpenAI-style JSONL idempotently", async () => {
  const store = openMemory(":memory:", { now: () => T0 });
  const log = [
    JSON.stringify({
      role: "user",
      content: "refund order 7",
      conversation_id: "c-9",
    }),
    JSON.stringify({
      role: "assistant",
      conversation_id: "c-9",
      tool_calls: [
        {
          id: "call_1",
          type: "function",
          function: { name: "stripe_refund", arguments: '{"order":7}' },
        },
        {
          id: "call_2",
          type: "function",
          function: { name: "lookup_order", arguments: '{"order":7}' },
        },
      ],
    }),
    JSON.stringify({
      role: "tool",
      tool_call_id: "call_1",
      conversation_id: "c-9",
      content: '{"error":"rate_limited"}',
    }),
    JSON.stringify({
      role: "tool",
      tool_call_id: "call_2",
      conversation_id: "c-9",
      content: [{ type: "text", text: '{"status":"paid"}' }],
    }),
    JSON.stringify({
      choices: [{
        message: {
          role: "assistant",
          tool_calls: [{
            id: "call_3",
            function: { name: "stripe_refund", arguments: "{}" },
          }],
        },
      }],
    }),
    JSON.stringify({
      type: "function_call",
      call_id: "fc_1",
      name: "search_docs",
      arguments: '{"q":"refund"}',
    }),
    JSON.stringify({
      type: "function_call_output",
      call_id: "fc_1",
      output: "Error: index offline",
    }),
    JSON.stringify({
      tool: "bash",
      input: { command: "make" },
      result: "exit code 2",
      timestamp: "2026-05-30T10:00:00Z",
    }),
    JSON.stringify({
      tool: "bash",
      input: { command: "make" },
      result: "exit code 2",
      timestamp: "2026-05-30T10:00:00Z",
    }),
    "not json",
    "",
  ];
  const report = await importToolLog(store, log, { thread: "fallback" });
  deepEqual(report, {
    lines: 10,
    calls: 6,
    stored: 6,
    duplicates: 0,
    errors: 4,
    skipped: 2,
  });
  const byTool = events(store).map((e) => `${e.tool}:${e.is_error}:${e.thread}`)
    .sort();
  deepEqual(byTool, [
    "bash:true:fallback",
    "bash:true:fallback",
    "lookup_order:false:c-9",
    "search_docs:true:fallback",
    "stripe_refund:false:fallback",
    "stripe_refund:true:c-9",
  ]);
  const refund = events(store).find((e) =>
    e.tool === "stripe_refund" && e.is_error
  );
  deepEqual(refund?.input, { order: 7 });
  deepEqual(refund?.result, { error: "rate_limited" });
  equal(events(store).find((e) => e.tool === "bash")?.exit_code, 2);
  const again = await importToolLog(store, log, { thread: "fallback" });
  equal(again.stored, 0);
  equal(again.duplicates, 6);
  equal(store.counts().event, 6);
  store.close();
});

function claudeLine(obj: Record<string, unknown>): string {
  return JSON.stringify({
    sessionId: "5d1f7c2a-0b3e-4a9d-8e6f-2c4b7a9d1e30",
    cwd: "/home/dev/src/shop",
    ...obj,
  }) + "\n";
}

Deno.test("importFromIndex() turns indexed commands into events, once per transcript record", async () => {
  const home = await Deno.makeTempDir();
  const dir = join(home, ".claude", "projects", "-home-dev-src-shop");
  await Deno.mkdir(dir, { recursive: true });
  const lines = [
    claudeLine({
      type: "user",
      uuid: "u1",
      timestamp: "2026-05-30T09:00:00Z",
      message: { role: "user", content: "run the tests" },
    }),
    claudeLine({
      type: "assistant",
      uuid: "a1",
      timestamp: "2026-05-30T09:00:05Z",
      message: {
        role: "assistant",
        content: [{
          type: "tool_use",
          id: "tu1",
          name: "Bash",
          input: { command: "npm test" },
        }],
      },
    }),
    claudeLine({
      type: "user",
      uuid: "u2",
      timestamp: "2026-05-30T09:00:09Z",
      message: {
        role: "user",
        content: [{
          type: "tool_result",
          tool_use_id: "tu1",
          is_error: true,
          content: "Exit code 1\nError: Cannot find module 'jest'",
        }],
      },
    }),
    claudeLine({
      type: "assistant",
      uuid: "a2",
      timestamp: "2026-05-30T09:01:00Z",
      message: {
        role: "assistant",
        content: [{
          type: "tool_use",
          id: "tu2",
          name: "Bash",
          input: { command: "ls" },
        }],
      },
    }),
    claudeLine({
      type: "user",
      uuid: "u3",
      timestamp: "2026-05-30T09:01:02Z",
      message: {
        role: "user",
        content: [{
          type: "tool_result",
          tool_use_id: "tu2",
          content: "package.json",
        }],
      },
    }),
  ];
  await Deno.writeTextFile(
    join(dir, "5d1f7c2a-0b3e-4a9d-8e6f-2c4b7a9d1e30.jsonl"),
    lines.join(""),
  );
  const indexPath = join(home, "index.db");
  const claude = HARNESSES.filter((h) => h.id === "claude-code");
  await indexStores({
    indexPath,
    harnesses: claude,
    source: { home, env: {}, os: "linux" },
    now: () => T0,
  });
  const store = openMemory(join(home, "memory.db"), { now: () => T0 });
  const first = importFromIndex(store, indexPath);
  equal(first.stored, 2);
  equal(first.errors, 1);
  const failed = events(store).find((e) => e.is_error);
  ok(failed?.source?.startsWith("claude-code:"));
  deepEqual(failed?.input, { command: "npm test" });
  const second = importFromIndex(store, indexPath);
  equal(second.stored, 0);
  equal(second.duplicates, 2);
  equal(store.counts().event, 2);
  store.close();
});
