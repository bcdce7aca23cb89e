/**
 * Capture: one tool call an agent made, stored as an event grain.
 *
 * @module
 */
import { redact } from "../redact/mod.ts";
import { hashGrain } from "./hash_grain.ts";
import type { MemoryStore } from "./memory_store.ts";
import type { EventGrain } from "./types.ts";

/** Longest captured input or result text, in characters. */
export const MAX_CAPTURE_CHARS = 8192;

/** One tool call to capture. */
export interface ToolCall {
  /** The tool's name, e.g. `"stripe_refund"`. */
  tool: string;
  /** The call's arguments (JSON value or text). */
  input?: unknown;
  /** What the tool returned (JSON value or text). */
  result?: unknown;
  /** Whether the call failed. */
  isError: boolean;
  /** Conversation or session id grouping the calls. */
  thread?: string;
  /** Process exit code for command tools. */
  exitCode?: number;
  /** Who made the call (default `"agent:local"`). */
  actor?: string;
  /** Namespace (default `"default"`). */
  namespace?: string;
  /** When it happened, epoch ms (default: the store's clock). */
  time?: number;
  /** Idempotency key: the same key is stored once (importers). */
  source?: string;
  /** Redact secrets from input and result (default true). */
  redact?: boolean;
}

/**
 * Redacts a string value read under `key`. The key is context the rules
 * need: `hunter2hunter2` alone is a word, `"password": "hunter2hunter2"` a
 * credential, so the value is redacted alone (its own lines) and then as
 * the JSON member it is.
 */
function redactField(key: string | undefined, value: string): string {
  const alone = redact(value).text;
  if (key === undefined) return alone;
  const member = redact(
    `{${JSON.stringify(key)}: ${JSON.stringify(alone)}}`,
  ).text;
  try {
    const read = (JSON.parse(member) as Record<string, unknown>)[key];
    return typeof read === "string" ? read : alone;
  } catch {
    // A rule cut into the JSON itself: the value's own redaction stands.
    return alone;
  }
}

/** Redacts and caps every string inside a JSON-like value. */
function clean(value: unknown, redactOn: boolean, key?: string): unknown {
  if (typeof value === "string") {
    const text = redactOn ? redactField(key, value) : value;
    return text.length > MAX_CAPTURE_CHARS
      ? text.slice(0, MAX_CAPTURE_CHARS) + "…"
      : text;
  }
  if (Array.isArray(value)) {
    return value.slice(0, 200).map((v) => clean(v, redactOn));
  }
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).slice(0, 200).map((
        [k, v],
      ) => [k, clean(v, redactOn, k)]),
    );
  }
  if (typeof value === "number" && !Number.isFinite(value)) {
    return String(value);
  }
  return value;
}

/**
 * Records one tool call as an event grain. Secrets in the input and result
 * are redacted and long text is capped. A repeated identical call at the
 * same instant still counts as a second call: its time is set a millisecond
 * earlier (never into the future) rather than collapsing into the first grain. With `source`,
 * the same key is stored once (re-imports are idempotent).
 *
 * @param store The writable memory file.
 * @param call The call.
 * @returns The event grain's hash.
 * @example
 * ```ts
 * import { openMemory } from "./open_memory.ts";
 * import { recordToolCall } from "./record_tool_call.ts";
 * import { equal, notEqual } from "node:assert/strict";
 * const store = openMemory(":memory:", { now: () => 1_000 });
 * const a = recordToolCall(store, { tool: "stripe_refund", result: { error: "rate_limited" }, isError: true });
 * const b = recordToolCall(store, { tool: "stripe_refund", result: { error: "rate_limited" }, isError: true });
 * notEqual(a, b);
 * equal(store.countSince(0).error_events, 2);
 * store.close();
 * ```
 */
export function recordToolCall(store: MemoryStore, call: ToolCall): string {
  if (typeof call.tool !== "string" || call.tool.trim() === "") {
    throw new TypeError("A tool call needs a tool name");
  }
  const redactOn = call.redact ?? true;
  const grain: EventGrain = {
    type: "event",
    namespace: call.namespace ?? "default",
    created_at: Math.round(call.time ?? store.now()),
    actor: call.actor ?? "agent:local",
    tool: call.tool.trim(),
    is_error: call.isError,
  };
  if (call.thread !== undefined) grain.thread = call.thread;
  if (call.input !== undefined) grain.input = clean(call.input, redactOn);
  if (call.result !== undefined) grain.result = clean(call.result, redactOn);
  if (call.exitCode !== undefined) grain.exit_code = call.exitCode;
  if (call.source !== undefined) grain.source = call.source;
  else {
    while (store.raw(hashGrain(grain))) grain.created_at--;
  }
  return store.put(grain);
}
