/**
 * How rare a term is in what was said: its IDF counted in sessions over the
 * whole index, as ranking counts it. The prompt hook weighs another
 * project's quote by it: "npm" and "dev" are said in most projects, a
 * library's name in a handful of sessions.
 *
 * @module
 */
import type { Database } from "../core/_sqlite.ts";
import { RECORD_SLOTS } from "../index/schema.ts";
import { scopeTotals } from "./_corpus.ts";
import { quote, sessionFilterSql } from "./_retrieve.ts";
import { prepared } from "./_statements.ts";

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

/** Options for {@linkcode termIdf}. */
export interface TermIdfOptions {
  /**
   * Stop counting a term's sessions past this share of them (e.g. 0.05):
   * its IDF is then an upper bound, enough to tell a common word, and a
   * word every session says costs no full read of its postings.
   */
  atMostShare?: number;
}

/** Each term's IDF and the sessions counted. */
export interface TermIdf {
  /** Sessions searched (visible ones). */
  sessions: number;
  /** IDF per term, in order. */
  idf: number[];
}

/**
 * The IDF of each term in user and assistant turns ({@linkcode idfOf}). A
 * term of several words is read as a phrase. Sessions hidden from search
 * (a prompt history beside its transcript) count toward a term's sessions,
 * which only makes a word look less rare.
 *
 * @param db The index.
 * @param terms Words or phrases.
 * @param options Where counting may stop.
 * @returns IDF per term and the session count.
 */
export function termIdf(
  db: Database,
  terms: readonly string[],
  options: TermIdfOptions = {},
): TermIdf {
  const scope = sessionFilterSql({});
  const sessions = scopeTotals(db, scope.where, scope.params).n;
  // SQLite stops reading postings once the distinct sessions reach the cap.
  const cap = options.atMostShare === undefined
    ? -1
    : Math.max(1, Math.floor(sessions * options.atMostShare)) + 1;
  const count = prepared(
    db,
    `SELECT count(*) AS n FROM (SELECT DISTINCT rowid / ${RECORD_SLOTS} FROM fts_speech WHERE fts_speech MATCH ? LIMIT ?)`,
  );
  return {
    sessions,
    idf: terms.map((term) =>
      idfOf((count.get(quote(term), cap) as { n: number }).n, sessions)
    ),
  };
}
