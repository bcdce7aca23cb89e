/**
 * Helpers shared by the loop's tests: a fixed clock and an approve+apply
 * shortcut through the real lifecycle.
 *
 * @module
 */
import type { MemoryStore } from "../memory/mod.ts";
import type { RecommendationDraft } from "../memory/types.ts";

/**
 * Proposes, approves and applies a draft as a human reviewer.
 *
 * @param store The store.
 * @param draft The draft.
 * @param now Time of all three transitions.
 * @returns The recommendation hash.
 */
export function approveAndApply(
  store: MemoryStore,
  draft: RecommendationDraft,
  now: number,
): string {
  const { hash } = store.propose(draft, {
    actor: `engine:${draft.analyzer}`,
    now,
  });
  store.review(hash, "approve", {
    actor: "human:reviewer",
    because: "checked the evidence",
    now,
  });
  store.apply(hash, {
    actor: "human:reviewer",
    because: "checked the evidence",
    now,
    allowDestructive: true,
  });
  return hash;
}
