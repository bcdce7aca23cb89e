/**
 * `hook-prompt` (UserPromptSubmit, Gemini's BeforeAgent): a digest only when
 * the prompt names something the history holds; the same ask is answered
 * once an hour per session, a line quoted to an asker is not quoted again
 * within the hour, and a search that outruns the time budget answers
 * nothing.
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
 * Wall time the prompt hook's searches may take before it answers nothing
 * (`DEJA_HOOK_BUDGET_MS` overrides it): the hook runs before every prompt.
 */
export const HOOK_BUDGET_MS = 300;

/**
 * The prompt hook's time budget: `DEJA_HOOK_BUDGET_MS` when it is a positive
 * number, else {@linkcode HOOK_BUDGET_MS}.
 *
 * @param env The environment.
 * @returns Milliseconds.
 * @example
 * ```ts
 * import { hookBudgetMs } from "./hook_prompt.ts";
 * import { equal } from "node:assert/strict";
 * equal(hookBudgetMs({ DEJA_HOOK_BUDGET_MS: "800" }), 800);
 * equal(hookBudgetMs({ DEJA_HOOK_BUDGET_MS: "soon" }), 300);
 * ```
 */
export function hookBudgetMs(env: Record<string, string | undefined>): number {
  const ms = Number(env.DEJA_HOOK_BUDGET_MS);
  return Number.isFinite(ms) && ms > 0 ? ms : HOOK_BUDGET_MS;
}

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
      timeBudgetMs: hookBudgetMs(ctx.env),
      ...(ctx.clock ? { clock: ctx.clock } : {}),
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
          for (const key of digest.quoted) e.shown[key] = ctx.now;
        },
      });
    }
    return { context: frameRecall(digest.text, { kind: "prompt" }) };
  } finally {
    db.close();
  }
}
