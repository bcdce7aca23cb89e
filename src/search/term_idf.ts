/**
 * How rare a term is in what was said: its IDF counted in sessions over the
 * whole index, as ranking counts it. The prompt hook weighs another
 * project's quote by it: "npm" and "dev" are said in most projects, a
 * library's name in a handful of sessions.
 *
 * @module
 */
import type { Database } from "../core/_sqlite.ts";
import { SPEECH_ROLES } from "../core/types.ts";
import { quote, Retriever } from "./_retrieve.ts";

/**
 * The IDF of a term said in `df` of `sessions` sessions, as ranking counts
 * it: `ln(1 + (N - df + 0.5) / (df + 0.5))`.
 *
 * @param df Sessions that say the term.
 * @param sessions Sessions in all.
 * @returns The IDF.
 * @example
 * ```ts
 * import { idfOf } from "./term_idf.ts";
 * import { ok } from "node:assert/strict";
 * ok(idfOf(1, 1000) > idfOf(50, 1000));
 * ```
 */
export function idfOf(df: number, sessions: number): number {
  return Math.log(1 + (Math.max(sessions, df) - df + 0.5) / (df + 0.5));
}

/** Each term's IDF and the sessions counted. */
export interface TermIdf {
  /** Visible sessions of the index. */
  sessions: number;
  /** IDF per term, in order. */
  idf: number[];
}

/**
 * The IDF of each term in user and assistant turns, counted in visible
 * sessions ({@linkcode idfOf}). A term of several words is read as a
 * phrase.
 *
 * @param db The index.
 * @param terms Words or phrases.
 * @returns IDF per term and the session count.
 */
export function termIdf(db: Database, terms: readonly string[]): TermIdf {
  const retriever = new Retriever(db, SPEECH_ROLES, {});
  const sessions = retriever.scopeSize;
  return {
    sessions,
    idf: terms.map((term) =>
      idfOf(retriever.sessions(quote(term)).length, sessions)
    ),
  };
}
