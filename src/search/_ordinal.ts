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
 * What comes before an ordinal: a determiner, or the start of the question
 * ("very first aider run in the monorepo", "first attempt in cursor"); not
 * "on the first try" or "at the first go", a try within one session.
 */
const LEAD = "(?:(?<!\\b(?:on|at)\\s+)\\b(?:the|my|our)\\s+|^\\s*)";

/**
 * "The (very) first …", "my earliest …"; the noun within three words, so
 * "the first error in the log" (a line, not a session) is not read.
 */
const FIRST = new RegExp(
  `${LEAD}((?:very\\s+)?(?:first|earliest|initial|original))\\s+((?:[\\w/-]+\\s+){0,3}?)(${SESSION_NOUN})\\b`,
  "i",
);

/** "The latest …", "the most recent …", "the last time …". */
const LATEST = new RegExp(
  `${LEAD}((?:very\\s+)?(?:latest|newest|most\\s+recent|last|final|previous))\\s+((?:[\\w/-]+\\s+){0,3}?)(${SESSION_NOUN})\\b`,
  "i",
);

/**
 * Nouns that only name a session ("the first time I ran …", "the latest
 * attempt"); dropped with the ordinal from what is searched. "Version",
 * "question" or "prompt" may be the subject ("the first version of the
 * parser") and stay.
 */
const SESSION_ONLY =
  /^(?:session|sessions|chat|chats|conversation|thread|run|runs|attempt|attempts|try|tries|go|one)\b/i;

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
 * equal(ordinalAsked("first attempt in cursor at the settings screen"), "first");
 * equal(ordinalAsked("it kept failing on the first try"), undefined);
 * equal(ordinalAsked("the chat where my very first message failed"), undefined);
 * ```
 */
export function ordinalAsked(ask: string): OrdinalAsked | undefined {
  return ordinalRead(ask)?.asked;
}

/**
 * The question without its ordinal and the noun naming a session, for the
 * words searched: "the most recent time I fired off /butler-exec" searches
 * /butler-exec, not "recent" or "time", which any session may say.
 *
 * @param ask The question.
 * @returns The question to search, the same when it asks for neither end.
 * @example
 * ```ts
 * import { withoutOrdinal } from "./_ordinal.ts";
 * import { equal } from "node:assert/strict";
 * equal(withoutOrdinal("the most recent time I ran the export"), "the I ran the export");
 * equal(withoutOrdinal("the first version of the parser"), "the version of the parser");
 * ```
 */
export function withoutOrdinal(ask: string): string {
  const read = ordinalRead(ask);
  if (!read) return ask;
  const { match } = read;
  const [whole, ordinal, between, noun] = match;
  // "time I": the pronoun stays, as in "the I ran the export".
  const nounKept = /^times?\s/i.test(noun!)
    ? noun!.replace(/^times?\s+/i, "")
    : SESSION_ONLY.test(noun!)
    ? ""
    : noun!;
  const head = whole.slice(0, whole.length - noun!.length - between!.length);
  const kept = head.slice(0, head.lastIndexOf(ordinal!)) + between + nounKept;
  return (ask.slice(0, match.index) + kept +
    ask.slice(match.index + whole.length))
    .replace(/\s{2,}/g, " ").trim();
}

/** Which end a question asks for, and the words that say so. */
function ordinalRead(
  ask: string,
): { asked: OrdinalAsked; match: RegExpExecArray } | undefined {
  if (ask.length > 300 || !ORDINAL_WORD.test(ask)) return undefined;
  const first = FIRST.exec(ask);
  const latest = LATEST.exec(ask);
  if (first && latest) return undefined;
  const read = first
    ? { asked: "first" as const, match: first }
    : latest
    ? { asked: "latest" as const, match: latest }
    : undefined;
  // Inside what a session is told by ("the chat where my very first
  // message failed"), the ordinal is of something in that session.
  if (read && DESCRIBED.test(ask.slice(0, read.match.index))) return undefined;
  return read;
}

/** A session named, then what happened in it: "the chat where …". */
const DESCRIBED =
  /\b(?:session|chat|conversation|thread|run|one)\b[^.?!;]*\b(?:where|in which|during which|when|whose)\b/i;

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
