/**
 * Learning from transcripts: every command an agent ran, as the transcript
 * index recorded it, becomes an event grain, keyed by its transcript record
 * so the same record always yields the same grain.
 *
 * @module
 */
import { type ToolEvent, toolEvents } from "../index/mod.ts";
import type { MemoryStore } from "./memory_store.ts";
import { recordToolCall } from "./record_tool_call.ts";

/** Options for {@linkcode importFromIndex}. */
export interface ImportFromIndexOptions {
  /** Only commands at or after this time (ms); default: a day before the last import's newest event. */
  since?: number;
  /** Namespace for events whose session has no project (default `"default"`). */
  namespace?: string;
}

/** What {@linkcode importFromIndex} did. */
export interface ImportFromIndexReport {
  /** Commands read from the index. */
  events: number;
  /** Event grains newly stored. */
  stored: number;
  /** Commands already stored by an earlier import. */
  duplicates: number;
  /** Of the stored ones, how many failed. */
  errors: number;
}

const STATE_KEY = "from_index.newest";
const OVERLAP_MS = 86_400_000;

/**
 * Imports tool events into the memory file. Idempotent: an event's
 * `source` is its transcript key (`harness:session:seq`).
 *
 * @param store The writable memory file.
 * @param events Tool events (from {@linkcode toolEvents}).
 * @param options Namespace default.
 * @returns Counts.
 */
export function importToolEvents(
  store: MemoryStore,
  events: Iterable<ToolEvent>,
  options: ImportFromIndexOptions = {},
): ImportFromIndexReport & { newest?: number } {
  const report: ImportFromIndexReport & { newest?: number } = {
    events: 0,
    stored: 0,
    duplicates: 0,
    errors: 0,
  };
  for (const ev of events) {
    report.events++;
    if (ev.time !== undefined) {
      report.newest = Math.max(report.newest ?? 0, ev.time);
    }
    if (store.eventBySource(ev.key)) {
      report.duplicates++;
      continue;
    }
    recordToolCall(store, {
      tool: ev.tool ?? "shell",
      input: { command: ev.command },
      isError: ev.isError,
      thread: `${ev.harness}:${ev.sessionId}`,
      actor: `agent:${ev.harness}`,
      namespace: ev.project || options.namespace || "default",
      source: ev.key,
      ...(ev.output === undefined ? {} : { result: ev.output }),
      ...(ev.exitCode === undefined ? {} : { exitCode: ev.exitCode }),
      ...(ev.time === undefined ? {} : { time: ev.time }),
    });
    report.stored++;
    if (ev.isError) report.errors++;
  }
  return report;
}

/**
 * Imports every command recorded in the transcript index since the last
 * import (with a day of overlap; re-reading is harmless because events are
 * keyed by their transcript record).
 *
 * @param store The writable memory file.
 * @param indexPath The transcript index (see `indexPath()` in src/core/paths.ts).
 * @param options Time filter and namespace default.
 * @returns Counts.
 */
export function importFromIndex(
  store: MemoryStore,
  indexPath: string,
  options: ImportFromIndexOptions = {},
): ImportFromIndexReport {
  const newest = store.state(STATE_KEY);
  const since = options.since ??
    (typeof newest === "number" ? newest - OVERLAP_MS : 0);
  const report = importToolEvents(
    store,
    toolEvents(indexPath, { since }),
    options,
  );
  if (
    report.newest !== undefined &&
    (typeof newest !== "number" || report.newest > newest)
  ) {
    store.setState(STATE_KEY, report.newest);
  }
  const { newest: _, ...counts } = report;
  return counts;
}
