/**
 * `hook-session-end` (SessionEnd, Cursor's sessionEnd): the session is
 * history now — drop its live stamp, start an index pass for what it wrote
 * (never rate-limited; when a pass is running, that pass reads again once
 * done), and start a gated loop run, both detached.
 *
 * @module
 */
import { dropLive, livePath } from "../recall/live_stamps.ts";
import { requestSessionPass, spawnSelf } from "../recall/refresh.ts";
import type { HookContext } from "./_common.ts";
import type { HookAnswer } from "./envelope.ts";
import type { HookPayload } from "./payload.ts";

/**
 * The loop run a session end starts (gated: a cheap no-op most of the time).
 * The hooks capture nothing themselves, so the run first learns the
 * commands the index holds (incrementally, keyed by transcript record);
 * without `--from-index` the loop never saw a hooked session's tool calls.
 */
export const SESSION_END_LOOP = [
  "loop",
  "run",
  "--from-index",
  "--min-new",
  "20",
  "--min-new-errors",
  "3",
  "--quiet",
] as const;

/**
 * Answers a session-end hook. Prints nothing.
 *
 * @param payload The host's payload.
 * @param ctx The hook context.
 * @returns Always empty.
 */
export function hookSessionEnd(
  payload: HookPayload,
  ctx: HookContext,
): Promise<HookAnswer> {
  if (payload.sessionId) {
    dropLive(livePath(ctx.indexPath), payload.sessionId, ctx.now);
  }
  const spawn = ctx.spawn ? { spawn: ctx.spawn } : {};
  // Always, unlike the stale-index refresh: the session's last turns are
  // known complete only now.
  requestSessionPass(ctx.indexPath, { env: ctx.env, now: ctx.now, ...spawn });
  if (ctx.env.DEJA_NO_AUTO_LOOP !== "1") {
    spawnSelf(SESSION_END_LOOP, { env: ctx.env, ...spawn });
  }
  return Promise.resolve({});
}
