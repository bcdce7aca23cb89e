/**
 * `hook-tool-after` (PostToolUse / PostToolUseFailure, Gemini's AfterTool,
 * Cursor's postToolUse): on a failed command, the remedy that followed
 * the same error before — two lines at most, never an irreversible command,
 * once per error per session.
 *
 * @module
 */
import { frameRecall } from "../recall/frame.ts";
import { livePath, readLiveFile, stampLive } from "../recall/live_stamps.ts";
import { remedyFor } from "../recall/remedy.ts";
import {
  excludeFor,
  type HookContext,
  openWarmIndex,
  projectOf,
  stamp,
} from "./_common.ts";
import type { HookAnswer } from "./envelope.ts";
import { type HookPayload, SHELL_TOOLS } from "./payload.ts";

/**
 * Answers a tool-after hook.
 *
 * @param payload The host's payload (tool, command, result).
 * @param ctx The hook context.
 * @returns The framed remedy, or nothing.
 */
export async function hookToolAfter(
  payload: HookPayload,
  ctx: HookContext,
): Promise<HookAnswer> {
  stamp(payload, ctx);
  const shell = payload.command !== undefined ||
    SHELL_TOOLS.test(payload.toolName ?? "");
  if (!shell || !payload.failed || !payload.output) return {};
  const { db } = openWarmIndex(ctx);
  if (!db) return {};
  try {
    const live = livePath(ctx.indexPath);
    const entry = payload.sessionId
      ? readLiveFile(live).sessions[payload.sessionId]
      : undefined;
    const { project } = projectOf(payload, ctx);
    const remedy = await remedyFor(db, payload.output, {
      ...(payload.command ? { command: payload.command } : {}),
      project,
      exclude: excludeFor(payload, ctx),
      ...(entry?.fixes ? { answered: entry.fixes } : {}),
      now: ctx.now,
    });
    if (!remedy.text) return {};
    if (payload.sessionId) {
      stampLive(live, payload.sessionId, {
        now: ctx.now,
        ...(ctx.harness ? { harness: ctx.harness } : {}),
        update: (e) =>
          void (e.fixes = { ...e.fixes, [remedy.errorHash]: ctx.now }),
      });
    }
    return { context: frameRecall(remedy.text, { kind: "fix" }) };
  } finally {
    db.close();
  }
}
