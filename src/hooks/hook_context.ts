/**
 * `hook-context` (SessionStart): a digest of the current project's recent
 * sessions, led by its accepted notes, at most 2 KiB with its trust frame.
 *
 * @module
 */
import { frameRecall } from "../recall/frame.ts";
import { loadNotes } from "../recall/project_notes.ts";
import { sessionStartDigest } from "../recall/session_start_digest.ts";
import {
  excludeFor,
  type HookContext,
  openWarmIndex,
  projectOf,
  stamp,
} from "./_common.ts";
import type { HookAnswer } from "./envelope.ts";
import type { HookPayload } from "./payload.ts";

/** Shown to the person while the first index is being built. */
export const BUILDING_MESSAGE =
  "deja is indexing this machine's agent history in the background; recall starts once it is done.";

/** Shown when there is no index and automatic indexing is off. */
export const NO_INDEX_MESSAGE =
  "deja has no index yet and automatic indexing is off (DEJA_NO_AUTO_INDEX=1): run deja index to start recall.";

/**
 * Answers a SessionStart hook.
 *
 * @param payload The host's payload.
 * @param ctx The hook context.
 * @returns The framed digest, or a note for the person while the index is built.
 */
export async function hookContext(
  payload: HookPayload,
  ctx: HookContext,
): Promise<HookAnswer> {
  stamp(payload, ctx);
  const { db, state } = openWarmIndex(ctx);
  if (!db) {
    if (state === "missing" && ctx.env.DEJA_NO_AUTO_INDEX === "1") {
      return { systemMessage: NO_INDEX_MESSAGE };
    }
    return state === "missing" || state === "building"
      ? { systemMessage: BUILDING_MESSAGE }
      : {};
  }
  try {
    const { project } = projectOf(payload, ctx);
    // A session started in "/" has no project to recall.
    if (!project) return {};
    const notes = await loadNotes(ctx.memoryPath, {
      project,
      states: ["accepted"],
    });
    const digest = await sessionStartDigest(db, project, {
      notes,
      exclude: excludeFor(payload, ctx),
      now: ctx.now,
    });
    return digest.text
      ? { context: frameRecall(digest.text, { kind: "session-start" }) }
      : {};
  } finally {
    db.close();
  }
}
