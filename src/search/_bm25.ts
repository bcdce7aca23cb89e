/**
 * Record-level BM25 for question-like queries: term frequency and record
 * length from the FTS5 index itself, scored per record, widened to a
 * record's neighbours, and gathered into one score per session.
 *
 * Postings say only which records hold a term. A question's answer is
 * usually one turn that says the rare words several times, or a short turn
 * that says little else; a long turn that mentions a word once in passing
 * says less. FTS5 keeps both facts: `fts5vocab` in `instance` mode lists
 * every occurrence of a token (so the count per record is its term
 * frequency), and the `_docsize` table holds each record's length in
 * tokens. Both are read only for what ranking asks: the tokens of a rare
 * enough term, the lengths of the candidate records.
 *
 * A record's score is plain BM25 (k1 1.2, b 0.75) over its own terms. A
 * term said only next to it (the question in one turn, the answer in the
 * next; a request and its reply) counts at a share of its neighbour's
 * contribution, never twice. A session scores its best record (damped
 * shares of its next best ones are an option, off by default).
 *
 * @module
 */
import type { Database } from "../core/_sqlite.ts";
import {
  isUserRecord,
  ordinalOfRecord,
  RECORD_SLOTS,
  sessionOfRecord,
} from "../index/schema.ts";
import { prepared } from "./_statements.ts";

/** Constants of the record-level BM25. */
export const BM25 = {
  k1: 1.2,
  b: 0.75,
  /** A user turn's contribution is multiplied by this. */
  userWeight: 1.3,
  /** Records this many positions apart are neighbours. */
  neighbourGap: 1,
  /** A term said only in a neighbour counts at this share. */
  neighbourShare: 0.5,
  /**
   * The next best records of a session count at these shares. None by
   * default: on both evals a sum favoured sessions that repeat a rare word
   * in turn after turn over the one turn that answers.
   */
  damping: [] as readonly number[],
  /** Terms with more postings than this count presence only (tf 1). */
  frequencyCap: 2_000,
  /** Most occurrences read for one term's frequencies. */
  instanceCap: 8_000,
} as const;

/** One query term, as record-level BM25 sees it. */
export interface Bm25Term {
  /** Query weight (1 for the ask). */
  weight: number;
  /** Inverse document frequency. */
  idf: number;
  /** Matching record rowids, descending. */
  rowids: readonly number[];
  /** Occurrences per record; a posting absent here counts once. */
  tf?: ReadonlyMap<number, number>;
}

/** Options for {@linkcode recordBm25}. */
export interface RecordBm25Options {
  /** A record's length in tokens (undefined: the mean). */
  lengthOf(rowid: number): number | undefined;
  /** Mean record length in tokens. */
  meanLength: number;
  /** Only these records are scored (all postings when absent). */
  only?: ReadonlySet<number>;
  /** A user turn's weight (default {@linkcode BM25}.userWeight). */
  userWeight?: number;
}

/** A record's per-term contributions. */
export interface RecordContributions {
  /** Record rowid. */
  rowid: number;
  /** Contribution of each term (0 when absent). */
  parts: Float64Array;
  /** Their sum. */
  score: number;
}

/**
 * Scores records by BM25: for each term, weight × IDF × saturated term
 * frequency normalised by record length; user turns weighted up.
 *
 * @param terms The query's terms with postings and frequencies.
 * @param options Lengths, the sessions to score, the user weight.
 * @returns Each scored record's contributions, by rowid.
 * @example
 * ```ts
 * import { recordBm25 } from "./_bm25.ts";
 * import { ok } from "node:assert/strict";
 * const scores = recordBm25(
 *   [{ weight: 1, idf: 2, rowids: [4, 2], tf: new Map([[4, 3]]) }],
 *   { lengthOf: (r) => (r === 4 ? 10 : 200), meanLength: 50 },
 * );
 * ok(scores.get(4)!.score > scores.get(2)!.score);
 * ```
 */
export function recordBm25(
  terms: readonly Bm25Term[],
  options: RecordBm25Options,
): Map<number, RecordContributions> {
  const out = new Map<number, RecordContributions>();
  const k = terms.length;
  const mean = options.meanLength > 0 ? options.meanLength : 1;
  const userWeight = options.userWeight ?? BM25.userWeight;
  terms.forEach((term, i) => {
    const w = term.weight * term.idf;
    if (w <= 0) return;
    for (const id of term.rowids) {
      if (options.only && !options.only.has(id)) continue;
      let rec = out.get(id);
      if (!rec) {
        rec = { rowid: id, parts: new Float64Array(k), score: 0 };
        out.set(id, rec);
      }
      const tf = term.tf?.get(id) ?? 1;
      const len = options.lengthOf(id) ?? mean;
      const norm = BM25.k1 * (1 - BM25.b + BM25.b * len / mean);
      let c = w * tf * (BM25.k1 + 1) / (tf + norm);
      if (isUserRecord(id)) c *= userWeight;
      rec.parts[i] = c;
      rec.score += c;
    }
  });
  return out;
}

/** A session's record-level BM25. */
export interface SessionBm25 {
  /** Session rowid. */
  session: number;
  /** Best window score plus damped shares of the next ones. */
  score: number;
  /** Its best records (rowids), best first, at most three. */
  records: number[];
}

/** Options for {@linkcode sessionBm25}. */
export interface SessionBm25Options {
  /** Records this many positions apart are neighbours (0: none). */
  neighbourGap?: number;
  /** A term said only in a neighbour counts at this share. */
  neighbourShare?: number;
  /** Shares of the second, third, ... best records. */
  damping?: readonly number[];
}

/**
 * Gathers record scores into session scores: each record's score widened
 * to its neighbours (a term it lacks counts at a share of the neighbour's
 * contribution), then the best record plus damped shares of the next.
 *
 * @param records Per-record contributions (from {@linkcode recordBm25}).
 * @param options Neighbourhood and damping.
 * @returns Score per session.
 * @example
 * ```ts
 * import { sessionBm25 } from "./_bm25.ts";
 * import { equal } from "node:assert/strict";
 * const rec = (rowid: number, score: number) => ({
 *   rowid,
 *   parts: Float64Array.of(score),
 *   score,
 * });
 * const out = sessionBm25(new Map([[0, rec(0, 2)], [2, rec(2, 1)]]), {
 *   neighbourGap: 0,
 *   damping: [0.5],
 * });
 * equal(out.get(0)!.score, 2.5);
 * ```
 */
export function sessionBm25(
  records: ReadonlyMap<number, RecordContributions>,
  options: SessionBm25Options = {},
): Map<number, SessionBm25> {
  const gap = options.neighbourGap ?? BM25.neighbourGap;
  const share = options.neighbourShare ?? BM25.neighbourShare;
  const damping = options.damping ?? BM25.damping;
  const bySession = new Map<number, RecordContributions[]>();
  for (const rec of records.values()) {
    const s = sessionOfRecord(rec.rowid);
    const list = bySession.get(s);
    if (list) list.push(rec);
    else bySession.set(s, [rec]);
  }
  const out = new Map<number, SessionBm25>();
  for (const [session, list] of bySession) {
    list.sort((a, b) => a.rowid - b.rowid);
    const scored: Array<{ rowid: number; score: number }> = [];
    for (let i = 0; i < list.length; i++) {
      const rec = list[i]!;
      let score = rec.score;
      if (gap > 0 && share > 0) {
        const at = ordinalOfRecord(rec.rowid);
        const k = rec.parts.length;
        const lent = new Float64Array(k);
        for (const dir of [-1, 1]) {
          for (let j = i + dir; j >= 0 && j < list.length; j += dir) {
            const other = list[j]!;
            if (Math.abs(ordinalOfRecord(other.rowid) - at) > gap) break;
            for (let t = 0; t < k; t++) {
              if (rec.parts[t]! > 0) continue;
              const c = share * other.parts[t]!;
              if (c > lent[t]!) lent[t] = c;
            }
          }
        }
        for (let t = 0; t < k; t++) score += lent[t]!;
      }
      scored.push({ rowid: rec.rowid, score });
    }
    // Ties go to the earlier record.
    scored.sort((a, b) => b.score - a.score || a.rowid - b.rowid);
    let total = scored[0]?.score ?? 0;
    for (let i = 0; i < damping.length && i + 1 < scored.length; i++) {
      total += damping[i]! * scored[i + 1]!.score;
    }
    out.set(session, {
      session,
      score: total,
      records: scored.slice(0, 3).map((r) => r.rowid),
    });
  }
  return out;
}

/**
 * Occurrences per record of one indexed token (a Porter stem), read from
 * FTS5's instance vocabulary. Returns undefined when the token has more
 * than `cap` occurrences: a word that common says little per mention.
 *
 * @param db The index.
 * @param table The full-text table.
 * @param token The token as indexed.
 * @param cap Most occurrences read.
 * @returns Occurrences per record rowid.
 */
export function termFrequencies(
  db: Database,
  table: "fts_speech" | "fts_work",
  token: string,
  cap: number,
): Map<number, number> | undefined {
  const vocab = instanceVocab(db, table);
  const row = prepared(
    db,
    `SELECT json_group_array(doc) AS ids FROM (SELECT doc FROM ${vocab} WHERE term = ? LIMIT ?)`,
  ).get(token, cap + 1) as { ids: string } | undefined;
  const ids = JSON.parse(row?.ids ?? "[]") as number[];
  if (ids.length > cap) return undefined;
  const out = new Map<number, number>();
  for (const id of ids) out.set(id, (out.get(id) ?? 0) + 1);
  return out;
}

const vocabReady = new WeakMap<Database, Set<string>>();

function instanceVocab(db: Database, table: string): string {
  const name = `deja_instances_${table}`;
  let ready = vocabReady.get(db);
  if (!ready) {
    ready = new Set();
    vocabReady.set(db, ready);
  }
  if (!ready.has(table)) {
    // A temp table: works on a read-only index and writes nothing to it.
    db.exec(
      `CREATE VIRTUAL TABLE IF NOT EXISTS temp.${name} USING fts5vocab(main, ${table}, instance)`,
    );
    ready.add(table);
  }
  return `temp.${name}`;
}

/**
 * Lengths in tokens of the given records, from FTS5's `_docsize` table.
 *
 * @param db The index.
 * @param table The full-text table.
 * @param rowids Record rowids.
 * @returns Length per rowid found.
 */
export function recordLengths(
  db: Database,
  table: "fts_speech" | "fts_work",
  rowids: readonly number[],
): Map<number, number> {
  const out = new Map<number, number>();
  if (rowids.length === 0) return out;
  const rows = prepared(
    db,
    // Walking the id list and looking each up beats IN (json_each) ~4×.
    `SELECT d.id AS id, d.sz AS sz FROM json_each(?) AS w JOIN ${table}_docsize d ON d.id = w.value`,
  ).all(JSON.stringify(rowids)) as Array<{ id: number; sz: Uint8Array }>;
  for (const r of rows) out.set(r.id, varint(r.sz, 0).value);
  return out;
}

/**
 * Mean record length in tokens over a full-text table, from the averages
 * FTS5 keeps (its record 1: row count, then tokens per column).
 *
 * @param db The index.
 * @param table The full-text table.
 * @returns The mean, or 0 when the table is empty.
 */
export function meanRecordLength(
  db: Database,
  table: "fts_speech" | "fts_work",
): number {
  const row = prepared(db, `SELECT block FROM ${table}_data WHERE id = 1`)
    .get() as { block: Uint8Array } | undefined;
  if (!row || row.block.length === 0) return 0;
  const rows = varint(row.block, 0);
  const tokens = varint(row.block, rows.next);
  return rows.value > 0 ? tokens.value / rows.value : 0;
}

/** SQLite's varint: big-endian 7-bit groups, the ninth byte whole. */
function varint(
  bytes: Uint8Array,
  at: number,
): { value: number; next: number } {
  let value = 0;
  for (let i = 0; i < 9 && at + i < bytes.length; i++) {
    const b = bytes[at + i]!;
    if (i === 8) return { value: value * 256 + b, next: at + 9 };
    value = value * 128 + (b & 0x7f);
    if ((b & 0x80) === 0) return { value, next: at + i + 1 };
  }
  return { value, next: bytes.length };
}

/**
 * The postings of the given sessions, found by binary search: postings
 * are descending and a session's records are one rowid range.
 *
 * @param rowids Descending record rowids.
 * @param sessions Session rowids.
 * @returns Their postings, descending.
 * @example
 * ```ts
 * import { postingsOf } from "./_bm25.ts";
 * import { RECORD_SLOTS as slot } from "../index/schema.ts";
 * import { deepEqual } from "node:assert/strict";
 * const rowids = [3 * slot + 4, 2 * slot + 9, 2 * slot + 1, slot + 2];
 * deepEqual(postingsOf(rowids, [2]), [2 * slot + 9, 2 * slot + 1]);
 * ```
 */
export function postingsOf(
  rowids: readonly number[],
  sessions: Iterable<number>,
): number[] {
  const out: number[] = [];
  const sorted = [...sessions].sort((a, b) => b - a);
  for (const s of sorted) {
    // First index whose rowid is below the session's end.
    let at = firstBelow(rowids, (s + 1) * RECORD_SLOTS);
    const start = s * RECORD_SLOTS;
    while (at < rowids.length && rowids[at]! >= start) out.push(rowids[at++]!);
  }
  return out;
}

function firstBelow(rowids: readonly number[], bound: number): number {
  let lo = 0;
  let hi = rowids.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (rowids[mid]! >= bound) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
