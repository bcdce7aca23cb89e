/**
 * `hook-prompt` (UserPromptSubmit, Gemini's BeforeAgent): a digest only when
 * the prompt names something the history holds; the same ask is answered
 * once an hour per session, and a session shown to an asker is not shown
 * again within the hour.
 *
 * @module
 */
import { frameRecall } from "../recall/frame.ts";
import { livePath, readLiveFile, stampLive } from "../recall/live_stamps.ts";
import { promptDigest } from "../recall/prompt_digest.ts";
import {
  excludeFor,
  type HookContext,
  openWarmIndex,
  projectOf,
  stamp,
} from "./_common.ts";
import type { HookAnswer } from "./envelope.ts";
import type { HookPayload } from "./payload.ts";

/** The same ask from the same session is answered once per this span. */
export const ASK_COOLDOWN_MS = 60 * 60_000;

/**
 * Answers a prompt hook.
 *
 * @param payload The host's payload (with `prompt`).
 * @param ctx The hook context.
 * @returns The framed digest, or nothing.
 */
export async function hookPrompt(
  payload: HookPayload,
  ctx: HookContext,
): Promise<HookAnswer> {
  stamp(payload, ctx);
  if (!payload.prompt) return {};
  const { db } = openWarmIndex(ctx);
  if (!db) return {};
  try {
    const live = livePath(ctx.indexPath);
    const entry = payload.sessionId
      ? readLiveFile(live).sessions[payload.sessionId]
      : undefined;
    const { project } = projectOf(payload, ctx);
    const digest = await promptDigest(db, payload.prompt, {
      project,
      exclude: excludeFor(payload, ctx),
      ...(entry?.shown ? { shown: entry.shown } : {}),
      now: ctx.now,
    });
    const askedAt = entry?.asked?.[digest.askHash];
    if (
      !digest.text ||
      (askedAt !== undefined && ctx.now - askedAt < ASK_COOLDOWN_MS)
    ) return {};
    if (payload.sessionId) {
      stampLive(live, payload.sessionId, {
        now: ctx.now,
        ...(ctx.harness ? { harness: ctx.harness } : {}),
        update: (e) => {
          e.asked = { ...e.asked, [digest.askHash]: ctx.now };
          e.shown = { ...e.shown };
          for (const key of digest.sessions) e.shown[key] = ctx.now;
        },
      });
    }
    return { context: frameRecall(digest.text, { kind: "prompt" }) };
  } finally {
    db.close();
  }
}
