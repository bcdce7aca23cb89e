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

/**
 * Opens the index for one call. Starts a background refresh when it is
 * missing or old; never waits for one.
 *
 * @param ctx The context.
 * @returns The open index (or undefined) and the state it was in.
 */
export function openForCall(
  ctx: McpContext,
): { db?: Database; state: IndexState; refreshing: boolean } {
  const now = ctx.now();
  const state = indexState(ctx.indexPath, now);
  let refreshing = state === "building";
  if (state === "missing" || state === "stale") {
    const started = requestRefresh(ctx.indexPath, {
      env: ctx.env,
      now,
      ...(ctx.spawn ? { spawn: ctx.spawn } : {}),
    });
    if (started) {
      ctx.log(`deja mcp: index ${state}; started a background index pass`);
    }
    refreshing ||= started;
  }
  if (state === "missing") return { state, refreshing };
  try {
    return {
      db: openIndex(ctx.indexPath, { readOnly: true }),
      state,
      refreshing,
    };
  } catch (err) {
    ctx.log(
      `deja mcp: cannot open the index: ${
        err instanceof Error ? err.message : String(err)
      }`,
    );
    return { state, refreshing };
  }
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
