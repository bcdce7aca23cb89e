/**
 * What every hook does first: know its world, stamp its session live, and
 * open the index it has (starting a background refresh when that index is
 * missing or old) — never building it on the hook path.
 *
 * @module
 */
import type { Database } from "../core/_sqlite.ts";
import { projectFromCwd } from "../core/text.ts";
// Individual files rather than the mod.ts doors: a hook pays process start-up
// for every module it loads, and the indexer and the work verbs are not needed.
import { openIndex } from "../index/schema.ts";
import { livePath, liveSessionIds, stampLive } from "../recall/live_stamps.ts";
import {
  type IndexState,
  indexState,
  requestRefresh,
} from "../recall/refresh.ts";
import type { HookPayload } from "./payload.ts";

/** The world a hook runs in. */
export interface HookContext {
  /** The index path. */
  indexPath: string;
  /** The memory file path (notes). */
  memoryPath: string;
  /** The environment. */
  env: Record<string, string | undefined>;
  /** The process working directory (last fallback for the project). */
  cwd: string;
  /** The clock, epoch ms. */
  now: number;
  /** Monotonic clock for time budgets, ms (default `performance.now`). */
  clock?: () => number;
  /** Harness id the install wired this hook for. */
  harness?: string;
  /** Starts detached processes (tests replace it). */
  spawn?: (argv: readonly string[], env: Record<string, string>) => void;
}

/**
 * The project a payload speaks for: its cwd, else `CLAUDE_PROJECT_DIR`, else
 * the hook's own directory.
 *
 * @param payload The payload.
 * @param ctx The hook context.
 * @returns The project name and directory.
 */
export function projectOf(
  payload: HookPayload,
  ctx: HookContext,
): { project: string; dir: string } {
  const dir = payload.cwd ?? ctx.env.CLAUDE_PROJECT_DIR ?? ctx.cwd;
  return { project: projectFromCwd(dir), dir };
}

/**
 * Stamps the payload's session live (best effort).
 *
 * @param payload The payload.
 * @param ctx The hook context.
 */
export function stamp(payload: HookPayload, ctx: HookContext): void {
  if (!payload.sessionId) return;
  stampLive(livePath(ctx.indexPath), payload.sessionId, {
    now: ctx.now,
    ...(ctx.harness ? { harness: ctx.harness } : {}),
  });
}

/**
 * Opens the index the hook has, read-only. A missing, old or unreadable
 * index starts `deja index` in the background; the hook never waits for it.
 *
 * @param ctx The hook context.
 * @returns The index (or undefined) and its state.
 */
export function openWarmIndex(
  ctx: HookContext,
): { db?: Database; state: IndexState } {
  const state = indexState(ctx.indexPath, ctx.now);
  const refresh = () =>
    requestRefresh(ctx.indexPath, {
      env: ctx.env,
      now: ctx.now,
      ...(ctx.spawn ? { spawn: ctx.spawn } : {}),
    });
  if (state === "missing") {
    refresh();
    return { state };
  }
  if (state === "stale") refresh();
  try {
    return { db: openIndex(ctx.indexPath, { readOnly: true }), state };
  } catch {
    if (state !== "building") refresh();
    return { state };
  }
}

/**
 * The sessions a hook's answer leaves out: the live ones and its own.
 *
 * @param payload The payload.
 * @param ctx The hook context.
 * @returns Session ids.
 */
export function excludeFor(
  payload: HookPayload,
  ctx: HookContext,
): Set<string> {
  const out = liveSessionIds(livePath(ctx.indexPath), ctx.now);
  if (payload.sessionId) out.add(payload.sessionId);
  return out;
}
