/**
 * A question asking for the first or the latest of several sessions on one
 * thing ("the very first question I put to aider", "the latest
 * /butler-exec attempt", "the last time we touched the parser"). The
 * sessions that answer it equally well — re-runs of one prompt, attempts at
 * one task — differ only in when they ran: among the closest matches, time
 * decides.
 *
 * @module
 */

/** Which end of the sessions the question asks for. */
export type OrdinalAsked = "first" | "latest";

/**
 * Words a session is named by, after an ordinal; "time" only before whoever
 * did it ("the first time we saw it"), since "it got aborted the first time"
 * is a try within one session.
 */
const SESSION_NOUN =
  "(?:session|sessions|chat|chats|conversation|thread|run|runs|attempt|attempts|try|tries|go|question|prompt|message|request|pass|version|one|times?\\s+(?:we|i|you|they|that|when|my|our)\\b)";

/**
 * "The (very) first …", "my earliest …"; the noun within three words, so
 * "the first error in the log" (a line, not a session) is not read.
 */
const FIRST = new RegExp(
  `\\b(?:the|my|our)\\s+(?:very\\s+)?(?:first|earliest|initial|original)\\s+(?:[\\w/-]+\\s+){0,3}?${SESSION_NOUN}\\b`,
  "i",
);

/** "The latest …", "the most recent …", "the last time …". */
const LATEST = new RegExp(
  `\\b(?:the|my|our)\\s+(?:very\\s+)?(?:latest|newest|most\\s+recent|last|final|previous)\\s+(?:[\\w/-]+\\s+){0,3}?${SESSION_NOUN}\\b`,
  "i",
);

/** A word either pattern needs: most questions have none. */
const ORDINAL_WORD =
  /\b(?:first|earliest|initial|original|latest|newest|recent|last|final|previous)\b/i;

/**
 * Whether a question asks for the first or the latest session on its
 * subject. A long prompt (a pasted log) asks for neither.
 *
 * @param ask The question.
 * @returns Which end, or undefined.
 * @example
 * ```ts
 * import { ordinalAsked } from "./_ordinal.ts";
 * import { equal } from "node:assert/strict";
 * equal(ordinalAsked("the latest /butler-exec attempt in code_butler"), "latest");
 * equal(ordinalAsked("the very first question I put to aider"), "first");
 * equal(ordinalAsked("what was the first error in the log?"), undefined);
 * equal(ordinalAsked("the run that got aborted the first time before it did anything"), undefined);
 * equal(ordinalAsked("the last time we touched the parser"), "latest");
 * ```
 */
export function ordinalAsked(ask: string): OrdinalAsked | undefined {
  if (ask.length > 300 || !ORDINAL_WORD.test(ask)) return undefined;
  const first = FIRST.exec(ask);
  const latest = LATEST.exec(ask);
  if (first && latest) return undefined;
  return first ? "first" : latest ? "latest" : undefined;
}

/** What {@linkcode ordinalOrder} needs of a hit. */
export interface Timed {
  /** Its score. */
  score: number;
  /** When the session started and was last written (ISO), if known. */
  session: { started: string | null; updated: string | null };
}

/** Share of the best score a hit needs to count among the closest matches. */
const CLOSE_SHARE = 0.85;

/**
 * The hits with the closest matches — those within
 * 85% of the best score (`CLOSE_SHARE`), contiguous from the top —
 * ordered by time (oldest first for "first", newest first for "latest"),
 * the rest after them as they were.
 *
 * @param hits Hits, best first.
 * @param asked Which end.
 * @returns The new order and how many were the closest matches, or
 *   undefined when the order would not change.
 */
export function ordinalOrder<T extends Timed>(
  hits: readonly T[],
  asked: OrdinalAsked,
): { order: T[]; close: number } | undefined {
  const top = hits[0]?.score ?? 0;
  if (top <= 0) return undefined;
  let n = 0;
  while (n < hits.length && hits[n]!.score >= top * CLOSE_SHARE) n++;
  if (n < 2) return undefined;
  const when = (h: T) =>
    Date.parse(
      (asked === "first"
        ? h.session.started ?? h.session.updated
        : h.session.updated ?? h.session.started) ?? "",
    );
  const close = hits.slice(0, n).map((h, i) => ({ h, i, t: when(h) }));
  const sorted = [...close].sort((a, b) => {
    const ta = Number.isNaN(a.t) ? null : a.t;
    const tb = Number.isNaN(b.t) ? null : b.t;
    if (ta === null || tb === null) {
      return (ta === null ? 1 : 0) - (tb === null ? 1 : 0) || a.i - b.i;
    }
    return (asked === "first" ? ta - tb : tb - ta) || a.i - b.i;
  });
  if (sorted.every((c, i) => c.i === i)) return undefined;
  return { order: [...sorted.map((c) => c.h), ...hits.slice(n)], close: n };
}
