/**
 * Ordering for sessions a question finds by what it describes of them
 * rather than by its words (a greeting-only chat, a failed model call):
 * the ones that fit it best first.
 *
 * @module
 */

/** A session found by a description. */
export interface DescribedSession {
  /** The session's rowid. */
  session: number;
  /** First and last activity (ms), when known. */
  started: number | null;
  updated: number | null;
}

/**
 * Sessions in order: fewest things the question says that a session
 * contradicts (`misfit`), then nearness to the time asked for, then most of
 * the question's words held in any of its records (`held`), then the order
 * the words' search gave, then newer.
 *
 * @param found The sessions.
 * @param misfit How many things the question says that a session contradicts.
 * @param window The time the question names, if any.
 * @param rankOf A session's place in the words' search (Infinity if none).
 * @param held How many of the question's words a session's records hold.
 * @returns The sessions in order.
 * @example
 * ```ts
 * import { orderByFit } from "./_described.ts";
 * import { deepEqual } from "node:assert/strict";
 * const found = [
 *   { session: 1, started: 0, updated: 10 },
 *   { session: 2, started: 100, updated: 110 },
 * ];
 * const order = orderByFit(found, () => 0, { from: 0, to: 50 }, () => Infinity);
 * deepEqual(order.map((s) => s.session), [1, 2]);
 * ```
 */
export function orderByFit<T extends DescribedSession>(
  found: readonly T[],
  misfit: (s: T) => number,
  window: { from: number; to: number } | undefined,
  rankOf: (session: number) => number,
  held: (session: number) => number = () => 0,
): T[] {
  const distance = (s: T) => {
    if (!window) return 0;
    const start = s.started ?? s.updated ?? 0;
    const end = s.updated ?? start;
    if (end < window.from) return window.from - end;
    if (start >= window.to) return start - window.to;
    return 0;
  };
  return [...found].sort((a, b) =>
    misfit(a) - misfit(b) || distance(a) - distance(b) ||
    held(b.session) - held(a.session) ||
    rankOf(a.session) - rankOf(b.session) ||
    (b.updated ?? 0) - (a.updated ?? 0) || a.session - b.session
  );
}
