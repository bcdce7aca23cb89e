/**
 * The generic tool-log importer: OpenAI-style tool-call JSONL becomes event
 * grains, idempotently, so history that predates deja feeds the loop.
 *
 * @module
 */
import { sha256Hex } from "../core/hash.ts";
import { parseTime } from "../core/time.ts";
import type { MemoryStore } from "./memory_store.ts";
import { recordToolCall } from "./record_tool_call.ts";

/** Options for {@linkcode importToolLog}. */
export interface ImportToolLogOptions {
  /** Thread for lines that name none (default `"tool-log"`). */
  thread?: string;
  /** Actor stamped on the events (default `"agent:import"`). */
  actor?: string;
  /** Namespace (default `"default"`). */
  namespace?: string;
}

/** What {@linkcode importToolLog} did. */
export interface ImportToolLogReport {
  /** Lines read. */
  lines: number;
  /** Tool calls found (with or without a result). */
  calls: number;
  /** Event grains newly stored. */
  stored: number;
  /** Calls already stored by an earlier import. */
  duplicates: number;
  /** Of the calls, how many failed. */
  errors: number;
  /** Lines that were not JSON objects. */
  skipped: number;
}

interface Call {
  id: string;
  tool: string;
  input?: unknown;
  thread: string;
  time?: number;
}

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function parseMaybeJson(v: unknown): unknown {
  if (typeof v !== "string") return v;
  const t = v.trim();
  if (!/^[[{"]/.test(t)) return v;
  try {
    return JSON.parse(t);
  } catch {
    return v;
  }
}

/** Text of a message content: a string or a list of `{type:"text", text}` parts. */
function contentOf(v: unknown): unknown {
  if (Array.isArray(v)) {
    const parts = v.map((
      p,
    ) => (isObj(p) && typeof p.text === "string"
      ? p.text
      : typeof p === "string"
      ? p
      : "")
    );
    return parts.join("\n");
  }
  return v;
}

/**
 * Guesses whether a tool result reports a failure: an `error` or
 * `is_error` field, a failed status, a non-zero exit code, or text that
 * starts like an error.
 *
 * @param result The result value.
 * @returns `{ isError, exitCode? }`.
 */
export function classifyResult(
  result: unknown,
): { isError: boolean; exitCode?: number } {
  const v = parseMaybeJson(result);
  if (isObj(v)) {
    const code = v.exit_code ?? v.exitCode ?? v.returncode;
    const exitCode = typeof code === "number" ? code : undefined;
    const withCode = (
      isError: boolean,
    ) => (exitCode === undefined ? { isError } : { isError, exitCode });
    if (v.is_error === true || v.isError === true) return withCode(true);
    if (
      v.error !== undefined && v.error !== null && v.error !== false &&
      v.error !== ""
    ) return withCode(true);
    if (
      typeof v.status === "string" && /^(error|failed|failure)$/i.test(v.status)
    ) return withCode(true);
    if (exitCode !== undefined) return withCode(exitCode !== 0);
    return { isError: false };
  }
  if (typeof v === "string") {
    const m = /exit (?:code|status)[:= ]+(-?\d+)/i.exec(v);
    const exitCode = m ? Number(m[1]) : undefined;
    const isError = /^\s*(error|exception|traceback|fatal|failed)\b/i.test(v) ||
      (exitCode !== undefined && exitCode !== 0);
    return exitCode === undefined ? { isError } : { isError, exitCode };
  }
  return { isError: false };
}

/**
 * Imports tool calls from JSONL. Understood, liberally: chat messages with
 * `tool_calls[].function.{name, arguments}` (at the top level, under
 * `message`, or under `choices[].message`); `role: "tool"` results with
 * `tool_call_id`; Responses-style `function_call` / `function_call_output`
 * items; `{"messages": [...]}` lines; and flat `{tool|name, input|arguments,
 * result|output, is_error}` records. Re-importing the same log stores
 * nothing new.
 *
 * @param store The writable memory file.
 * @param lines The JSONL lines.
 * @param options Thread, actor and namespace defaults.
 * @returns Counts of what was read and stored.
 * @example
 * ```ts
 * import { openMemory } from "./open_memory.ts";
 * import { importToolLog } from "./import_tool_log.ts";
 * import { equal } from "node:assert/strict";
 * const store = openMemory(":memory:", { now: () => 1_000 });
 * const log = [
 *   '{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"stripe_refund","arguments":"{\\"id\\":7}"}}]}',
 *   '{"role":"tool","tool_call_id":"c1","content":"{\\"error\\":\\"rate_limited\\"}"}',
 * ];
 * const report = await importToolLog(store, log, { thread: "s1" });
 * equal(report.errors, 1);
 * equal((await importToolLog(store, log, { thread: "s1" })).stored, 0);
 * store.close();
 * ```
 */
export async function importToolLog(
  store: MemoryStore,
  lines: Iterable<string> | AsyncIterable<string>,
  options: ImportToolLogOptions = {},
): Promise<ImportToolLogReport> {
  const report: ImportToolLogReport = {
    lines: 0,
    calls: 0,
    stored: 0,
    duplicates: 0,
    errors: 0,
    skipped: 0,
  };
  const pending = new Map<string, Call>();
  const seenLines = new Map<string, number>();
  const actor = options.actor ?? "agent:import";
  const namespace = options.namespace ?? "default";

  const emit = (call: Call, result: unknown, explicitError?: boolean): void => {
    report.calls++;
    const cls = result === undefined
      ? { isError: false }
      : classifyResult(result);
    const isError = explicitError ?? cls.isError;
    if (isError) report.errors++;
    const source = `tool-log:${call.thread}:${call.id}`;
    if (store.eventBySource(source)) {
      report.duplicates++;
      return;
    }
    recordToolCall(store, {
      tool: call.tool,
      isError,
      thread: call.thread,
      actor,
      namespace,
      source,
      ...(call.input === undefined
        ? {}
        : { input: parseMaybeJson(call.input) }),
      ...(result === undefined ? {} : { result: parseMaybeJson(result) }),
      ...("exitCode" in cls && cls.exitCode !== undefined
        ? { exitCode: cls.exitCode }
        : {}),
      ...(call.time === undefined ? {} : { time: call.time }),
    });
    report.stored++;
  };

  const handle = (
    line: Obj,
    lineId: string,
    inherited: { thread: string; time?: number },
  ): void => {
    const thread = String(
      line.thread ?? line.thread_id ?? line.conversation_id ??
        line.session_id ?? inherited.thread,
    );
    const time = parseTime(
      line.timestamp ?? line.created_at ?? line.created ?? line.time,
    ) ?? inherited.time;
    const ctx = time === undefined ? { thread } : { thread, time };
    if (Array.isArray(line.messages)) {
      line.messages.forEach((m, i) =>
        isObj(m) && handle(m, `${lineId}:${i}`, ctx)
      );
      return;
    }
    const message = isObj(line.message) ? line.message : undefined;
    const choices = Array.isArray(line.choices) ? line.choices : [];
    const containers = [
      line,
      ...(message ? [message] : []),
      ...choices.flatMap((
        c,
      ) => (isObj(c) && isObj(c.message) ? [c.message] : [])),
    ];
    let handled = false;
    for (const c of containers) {
      if (!Array.isArray(c.tool_calls)) continue;
      handled = true;
      c.tool_calls.forEach((tc, i) => {
        if (!isObj(tc)) return;
        const fn = isObj(tc.function) ? tc.function : tc;
        const name = fn.name;
        if (typeof name !== "string" || !name) return;
        const id = typeof tc.id === "string" && tc.id
          ? tc.id
          : `${lineId}:${i}`;
        pending.set(id, {
          id,
          tool: name,
          input: fn.arguments ?? fn.input,
          ...ctx,
        });
      });
    }
    if (handled) return;
    const role = line.role ?? message?.role;
    const body = message && role === message.role ? message : line;
    if (role === "tool" || role === "function") {
      const id = String(body.tool_call_id ?? body.call_id ?? "");
      const call = pending.get(id);
      if (call) pending.delete(id);
      const tool = call?.tool ??
        (typeof body.name === "string" ? body.name : "unknown");
      const explicit = typeof body.is_error === "boolean"
        ? body.is_error
        : undefined;
      emit(
        call ?? { id: id || lineId, tool, ...ctx },
        contentOf(body.content),
        explicit,
      );
      return;
    }
    if (line.type === "function_call" && typeof line.name === "string") {
      const id = String(line.call_id ?? line.id ?? lineId);
      pending.set(id, { id, tool: line.name, input: line.arguments, ...ctx });
      return;
    }
    if (line.type === "function_call_output") {
      const id = String(line.call_id ?? "");
      const call = pending.get(id);
      if (call) pending.delete(id);
      emit(call ?? { id: id || lineId, tool: "unknown", ...ctx }, line.output);
      return;
    }
    const tool = line.tool ?? line.tool_name ?? line.name;
    if (
      typeof tool === "string" && tool &&
      ("result" in line || "output" in line || "is_error" in line ||
        "input" in line || "arguments" in line)
    ) {
      const explicit = typeof line.is_error === "boolean"
        ? line.is_error
        : typeof line.isError === "boolean"
        ? line.isError
        : undefined;
      const id = typeof line.id === "string"
        ? line.id
        : typeof line.call_id === "string"
        ? line.call_id
        : lineId;
      emit(
        { id, tool, input: line.input ?? line.arguments, ...ctx },
        line.result ?? line.output,
        explicit,
      );
      return;
    }
    report.skipped++;
  };

  for await (const raw of lines) {
    const text = raw.trim();
    if (!text) continue;
    report.lines++;
    let line: unknown;
    try {
      line = JSON.parse(text);
    } catch {
      report.skipped++;
      continue;
    }
    if (!isObj(line)) {
      report.skipped++;
      continue;
    }
    // Identical lines without ids stay distinct calls, numbered by occurrence.
    const digest = sha256Hex(text).slice(0, 16);
    const n = (seenLines.get(digest) ?? 0) + 1;
    seenLines.set(digest, n);
    handle(line, `${digest}.${n}`, { thread: options.thread ?? "tool-log" });
  }
  for (const call of pending.values()) emit(call, undefined);
  return report;
}
