/**
 * Nouns that, said right after "what" or "which", name the kind of answer
 * a question wants: "what hobby did he take up", "which city was she in",
 * "what type of car". The turn that answers names the thing — photography,
 * Seattle, a Mustang — and rarely the kind, so such a noun is searched but
 * not required, at half weight. Words a developer's question says and its
 * session says too ("which file", "what error") are not on the list: they
 * were measured and moved nothing (docs/decisions.md, session 23).
 *
 * @module
 */

const KINDS = new Set(
  `type types sort sorts thing things item items activity activities event
  events hobby hobbies place places city cities country countries state states
  sport sports game games book books food foods dish dishes recipe recipes
  animal animals pet pets instrument instruments color colors colour colours
  job jobs project projects movie movies song songs band bands show shows
  restaurant restaurants car cars music art gift gifts
  course courses class classes`.split(/\s+/),
);

/** What a kind of answer weighs against the question's other words. */
export const ANSWER_KIND_WEIGHT = 0.5;

/**
 * The nouns of a question that name the kind of answer it wants.
 *
 * @param ask The question, as asked.
 * @returns The lowercased nouns said right after "what" or "which".
 * @example
 * ```ts
 * import { answerKinds } from "./_answer_kinds.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual([...answerKinds("Which city was Calvin visiting in August?")], [
 *   "city",
 * ]);
 * deepEqual([...answerKinds("why did the city map break?")], []);
 * ```
 */
export function answerKinds(ask: string): Set<string> {
  const out = new Set<string>();
  for (const m of ask.toLowerCase().matchAll(/\b(?:what|which)\s+([a-z]+)/g)) {
    if (KINDS.has(m[1]!)) out.add(m[1]!);
  }
  return out;
}
