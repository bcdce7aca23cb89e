/**
 * Writes the DeepSeek Harness fixture under fixtures/deepseek: a session
 * whose older generation (`session.jsonl.zstd`) was rewritten into
 * `session.v4.jsonl.zstd` (one zstd frame per append, as dsh writes them),
 * an interrupted session kept as raw `session.v3.jsonl` (its answer only in
 * streamed chunks), and a delegated sub-agent session. Run once:
 * `deno run -A tests/fixtures_gen/deepseek.ts`.
 *
 * @module
 */
import { zstdCompressSync } from "node:zlib";

const root = new URL("../../fixtures/deepseek/.dsh/sessions/", import.meta.url);
const slug = "home-dev-projects-inventory";
const cwd = "/home/dev/projects/inventory";

type Event = Record<string, unknown>;

function framed(events: Event[], perFrame: number): Uint8Array {
  const parts: Uint8Array[] = [];
  for (let i = 0; i < events.length; i += perFrame) {
    const text = events.slice(i, i + perFrame).map((e) => JSON.stringify(e))
      .join("\n") + "\n";
    parts.push(
      new Uint8Array(zstdCompressSync(new TextEncoder().encode(text))),
    );
  }
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

async function write(dir: string, name: string, bytes: Uint8Array | string) {
  const url = new URL(`${slug}/${dir}/`, root);
  await Deno.mkdir(url, { recursive: true });
  const target = new URL(name, url);
  if (typeof bytes === "string") await Deno.writeTextFile(target, bytes);
  else await Deno.writeFile(target, bytes);
}

const t0 = Date.UTC(2026, 1, 14, 9, 30, 0);
const main = "0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0";

// The first generation, before dsh rewrote the session: one short exchange.
await write(
  `session-${main}`,
  "session.jsonl.zstd",
  framed([
    {
      type: "session",
      version: 1,
      id: `session-${main}`,
      createdAt: t0,
      cwd,
      delegationDepth: 0,
    },
    {
      type: "user/message",
      seq: 1,
      time: t0 + 1000,
      data: {
        source: { kind: "user" },
        message: {
          role: "user",
          content: [{
            type: "text",
            text: "old generation prompt that must not be read",
          }],
        },
      },
    },
  ], 1),
);

// The current generation (v4): namespaced plugin sources, tool results as messages.
await write(
  `session-${main}`,
  "session.v4.jsonl.zstd",
  framed([
    {
      type: "session",
      version: 4,
      id: `session-${main}`,
      createdAt: t0,
      cwd,
      delegationDepth: 0,
    },
    {
      type: "user/message",
      seq: 1,
      time: t0 + 500,
      data: {
        source: { kind: "@deepseek-ai/dsh-sandbox/policy" },
        message: {
          role: "user",
          content: [{ type: "text", text: "Sandbox policy: workspace-write" }],
        },
      },
    },
    {
      type: "user/message",
      seq: 2,
      time: t0 + 1000,
      data: {
        source: { kind: "user" },
        message: {
          role: "user",
          content: [{
            type: "text",
            text:
              "Why does `stock sync` report negative quantities for returned items?",
          }],
        },
      },
    },
    {
      type: "assistant/message",
      seq: 3,
      time: t0 + 4000,
      data: {
        message: {
          role: "assistant",
          content: [{
            type: "reasoning",
            text: "Returns probably subtract twice.",
          }, {
            type: "text",
            text: "I will look at how returns are applied during sync.",
          }],
        },
      },
    },
    {
      type: "tool/call",
      seq: 4,
      time: t0 + 4100,
      data: {
        id: "call_a",
        name: "read",
        arguments: JSON.stringify({ path: "src/sync/returns.ts" }),
      },
    },
    {
      type: "tool/result",
      seq: 5,
      time: t0 + 4300,
      data: {
        callId: "call_a",
        message: {
          role: "tool",
          content: [{
            type: "text",
            text:
              "export function applyReturn(item, qty) {\n  item.qty -= qty;\n}",
          }],
          isError: false,
        },
      },
    },
    {
      type: "assistant/message",
      seq: 6,
      time: t0 + 8000,
      data: {
        message: {
          role: "assistant",
          content: [{
            type: "text",
            text:
              "`applyReturn` subtracts the returned quantity; it should add it back.",
          }],
        },
      },
    },
    {
      type: "tool/call",
      seq: 7,
      time: t0 + 8100,
      data: {
        id: "call_b",
        name: "str_replace_editor",
        arguments: JSON.stringify({
          command: "str_replace",
          path: "src/sync/returns.ts",
          old_str: "  item.qty -= qty;",
          new_str: "  item.qty += qty;",
        }),
      },
    },
    {
      type: "tool/result",
      seq: 8,
      time: t0 + 8200,
      data: {
        callId: "call_b",
        message: {
          role: "tool",
          content: [{ type: "text", text: "Edited src/sync/returns.ts" }],
          isError: false,
        },
      },
    },
    {
      type: "tool/call",
      seq: 9,
      time: t0 + 9000,
      data: {
        id: "call_c",
        name: "bash",
        arguments: JSON.stringify({ command: "npm test -- returns" }),
      },
    },
    {
      type: "tool/result",
      seq: 10,
      time: t0 + 15000,
      data: {
        callId: "call_c",
        message: {
          role: "tool",
          content: [{
            type: "text",
            text: "PASS test/returns.test.ts\n[exit code: 0]",
          }],
          isError: false,
        },
      },
    },
    { type: "step/end", seq: 11, time: t0 + 15100, data: {} },
    {
      type: "session/title",
      seq: 12,
      time: t0 + 15200,
      data: { title: "Negative stock after returns" },
    },
    { type: "turn/end", seq: 13, time: t0 + 15300, data: {} },
  ], 3),
);

// An interrupted run kept raw: the answer exists only as streamed chunks.
const t1 = t0 + 3_600_000;
const cut = "7a6b5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c2d";
await write(
  `session-${cut}`,
  "session.v3.jsonl",
  [
    {
      type: "session",
      version: 3,
      id: `session-${cut}`,
      createdAt: t1,
      cwd,
      delegationDepth: 0,
    },
    {
      type: "user/message",
      seq: 1,
      time: t1 + 1000,
      data: {
        source: { kind: "user" },
        message: {
          content: [{
            type: "text",
            text: "summarise the open TODOs in src/sync",
          }],
        },
      },
    },
    {
      type: "assistant/chunk",
      seq: 2,
      time: t1 + 2000,
      data: { chunk: { type: "text-delta", text: "There are " } },
    },
    {
      type: "text-chunks",
      seq: 3,
      time: t1 + 2100,
      data: {
        texts: ["three ", "TODOs: ", "retry backoff, "],
        time0: t1 + 2050,
        seq0: 3,
        dt: [10, 10, 10],
      },
    },
    {
      type: "assistant/chunk",
      seq: 6,
      time: t1 + 2300,
      data: {
        chunk: { type: "text-delta", text: "batch size and the dry-run flag." },
      },
    },
    {
      type: "tool/call",
      seq: 7,
      time: t1 + 2400,
      data: {
        id: "call_z",
        name: "bash",
        arguments: JSON.stringify({ command: "grep -rn TODO src/sync" }),
      },
    },
    {
      type: "tool/result",
      seq: 8,
      time: t1 + 2600,
      data: {
        callId: "call_z",
        content: [{
          type: "tool-result",
          content: [{
            type: "text",
            text: "grep: src/sync/x: Permission denied\n[exit code: 2]",
          }],
        }],
      },
    },
  ].map((e) => JSON.stringify(e)).join("\n") + "\n" +
    '{"type":"assistant/chunk","seq":9,"time":', // torn: the run was killed mid-write
);

// A delegated sub-agent.
const sub = "3c2b1a09-8f7e-4d6c-b5a4-938271605f4e";
await write(
  `session-${sub}`,
  "session.v4.jsonl.zstd",
  framed([
    {
      type: "session",
      version: 4,
      id: `session-${sub}`,
      createdAt: t0 + 20_000,
      cwd,
      delegationDepth: 1,
      parentSessionId: `session-${main}`,
    },
    {
      type: "user/message",
      seq: 1,
      time: t0 + 20_500,
      data: {
        source: { kind: "user" },
        message: {
          content: [{
            type: "text",
            text: "List every caller of applyReturn.",
          }],
        },
      },
    },
    {
      type: "assistant/message",
      seq: 2,
      time: t0 + 24_000,
      data: {
        message: {
          content: [{
            type: "text",
            text: "Two callers: sync/run.ts and api/returns.ts.",
          }],
        },
      },
    },
  ], 2),
);
