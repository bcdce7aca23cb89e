/**
 * What the MCP server's handlers share: where the two stores are, the
 * process grant (scopes and actor), the clock, and the index it answers
 * from — opened per call from the file on disk, refreshed in the background
 * when old, never built inside a call.
 *
 * @module
 */
import type { Database } from "../core/_sqlite.ts";
import { projectFromCwd } from "../core/text.ts";
import { openIndex } from "../index/mod.ts";
import type { Scope } from "../memory/mod.ts";
import {
  type IndexState,
  indexState,
  livePath,
  liveSessionIds,
  requestRefresh,
} from "../recall/mod.ts";

/** The server's world. */
export interface McpContext {
  /** The index path. */
  indexPath: string;
  /** The memory file path. */
  memoryPath: string;
  /** The environment (refresh children inherit it). */
  env: Record<string, string | undefined>;
  /** The directory the harness started the server in (the project). */
  cwd: string;
  /** The clock, epoch ms. */
  now: () => number;
  /** Scopes this process was granted (`--scopes`). */
  scopes: readonly Scope[];
  /** The actor label of this process (`--actor`). */
  actor: string;
  /** Writes a log line (stderr; never stdout). */
  log: (line: string) => void;
  /** Starts detached processes (tests replace it). */
  spawn?: (argv: readonly string[], env: Record<string, string>) => void;
}

/** The default grant of an MCP process: a worker that reads and writes notes. */
export const DEFAULT_SCOPES: readonly Scope[] = ["read", "write"];

/**
 * The project the server speaks for: an explicit one, else its cwd's.
 *
 * @param ctx The context.
 * @param explicit A project named in the call.
 * @returns The project name.
 */
export function projectFor(ctx: McpContext, explicit?: string): string {
  return explicit?.trim() || projectFromCwd(ctx.cwd);
}

/** What {@linkcode openForCall} found. */
export interface OpenedIndex {
  /** The open index, when it could be read. */
  db?: Database;
  /** The state it was in. */
  state: IndexState;
  /** Whether an index pass runs now or was just started. */
  refreshing: boolean;
  /** Why an index on disk could not be opened (it is left to `deja index`). */
  unreadable?: string;
  /** Whether this call started the pass that repairs an unreadable index. */
  repairStarted?: boolean;
}

/**
 * Opens the index for one call. Starts a background refresh when it is
 * missing or old, or when it cannot be read: `deja index` is what moves a
 * damaged file aside and rebuilds it. Never waits for one.
 *
 * @param ctx The context.
 * @returns The open index (or undefined) and the state it was in.
 */
export function openForCall(ctx: McpContext): OpenedIndex {
  const now = ctx.now();
  const state = indexState(ctx.indexPath, now);
  let refreshing = state === "building";
  const refresh = (why: string): boolean => {
    const started = requestRefresh(ctx.indexPath, {
      env: ctx.env,
      now,
      ...(ctx.spawn ? { spawn: ctx.spawn } : {}),
    });
    if (started) {
      ctx.log(`deja mcp: index ${why}; started a background index pass`);
    }
    refreshing ||= started;
    return started;
  };
  if (state === "missing" || state === "stale") refresh(state);
  if (state === "missing") return { state, refreshing };
  try {
    return {
      db: openIndex(ctx.indexPath, { readOnly: true }),
      state,
      refreshing,
    };
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    ctx.log(`deja mcp: cannot open the index: ${why}`);
    // The stale refresh above repairs it too; a fresh mtime is no reason
    // to wait (the file was just damaged).
    const repairStarted = state !== "building" &&
      (refreshing || refresh("unreadable"));
    return { state, refreshing, unreadable: why, repairStarted };
  }
}

/**
 * What a call answers when {@linkcode openForCall} found no index it could
 * read: the truth about what runs now and what the person can do.
 *
 * @param opened What openForCall returned.
 * @param ctx The context.
 * @returns One or two sentences.
 */
export function noIndexText(opened: OpenedIndex, ctx: McpContext): string {
  const off = ctx.env.DEJA_NO_AUTO_INDEX === "1";
  if (opened.unreadable === undefined) {
    return off && !opened.refreshing
      ? "Nothing is indexed yet and automatic indexing is off (DEJA_NO_AUTO_INDEX=1): run deja index, then ask again."
      : "The index is still being built in the background; nothing can be recalled yet. Ask again in a minute.";
  }
  const damaged = /not a database|malformed|corrupt/i.test(opened.unreadable)
    ? "it is damaged"
    : opened.unreadable.replace(/\.?$/, "");
  const repair =
    "deja index moves a damaged index aside (as index.db.damaged-<time>) and rebuilds it";
  if (opened.repairStarted) {
    return `The index cannot be read (${damaged}). A background deja index pass was started to repair it: ${repair}. Ask again in a minute.`;
  }
  if (opened.state === "building") {
    return `The index cannot be read right now (${damaged}); an index pass is running. Ask again in a minute.`;
  }
  return off
    ? `The index cannot be read (${damaged}) and automatic indexing is off (DEJA_NO_AUTO_INDEX=1): run deja index; ${repair}.`
    : `The index cannot be read (${damaged}). An index pass was started less than a minute ago; if this answer repeats, run deja index: ${repair}.`;
}

/**
 * Sessions left out of recall right now: those stamped live by a hook in
 * the last 20 minutes.
 *
 * @param ctx The context.
 * @returns Session ids.
 */
export function liveExclusions(ctx: McpContext): Set<string> {
  return liveSessionIds(livePath(ctx.indexPath), ctx.now());
}

/**
 * Whether the process holds a scope (`admin` holds all).
 *
 * @param ctx The context.
 * @param scope The scope.
 * @returns True when granted.
 */
export function holds(ctx: McpContext, scope: Scope): boolean {
  return ctx.scopes.includes(scope) || ctx.scopes.includes("admin");
}
