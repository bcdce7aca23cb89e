/**
 * Session-level search over the transcript index: FTS5 BM25 on records,
 * grouped to sessions with bounded signals (user turns, decisions, gentle
 * freshness), snippets with match ranges, and a reason when nothing matched.
 *
 * @module
 */
import type { Database } from "../core/_sqlite.ts";
import { type Role, ROLES, SPEECH_ROLES } from "../core/types.ts";
import { FLAG, ftsTableFor } from "../index/schema.ts";
import { ftsExpression, parseQuery } from "./query.ts";
import {
  readRecordText,
  type SessionInfo,
  sessionInfoOf,
  type SessionRow,
} from "./_rows.ts";

/** Options for {@linkcode search}. */
export interface SearchOptions {
  /** Only these harness ids. */
  harnesses?: readonly string[];
  /** Only sessions whose project equals this (case-insensitive). */
  project?: string;
  /** Only sessions updated at or after this time (ms). */
  since?: number;
  /** Record roles to search; default speech (user, assistant). */
  roles?: readonly Role[];
  /** Only sessions whose id starts with this. */
  session?: string;
  /** Sessions to return; default 10. */
  limit?: number;
  /** Return every matching session. */
  all?: boolean;
  /** Treat the query as a regular expression and scan records. */
  regex?: boolean;
  /** Snippets per session; default 3. */
  snippets?: number;
  /** The clock, for freshness. */
  now: number;
}

/** One quoted piece of a matching record. */
export interface Snippet {
  /** The record's role. */
  role: Role;
  /** A window of the record's text around the match. */
  text: string;
  /** [start, end) UTF-16 offsets of matches inside `text`. */
  ranges: Array<[number, number]>;
  /** Where the record is: source file, line/offset or record id, seq. */
  locator: {
    path: string;
    seq: number;
    line?: number;
    offset?: number;
    recordId?: string;
  };
  /** When the record was written. */
  time?: number;
  /** A rollback, undo or branch switch made this record inactive. */
  superseded: boolean;
  /** Written by a sub-agent. */
  subagent: boolean;
}

/** One matching session. */
export interface SearchHit {
  /** The session. */
  session: SessionInfo;
  /** Its score (higher is better). */
  score: number;
  /** Up to three snippets, best first. */
  snippets: Snippet[];
}

/** A search answer. */
export interface SearchResult {
  /** The query as given. */
  query: string;
  /** Matching sessions, best first. */
  results: SearchHit[];
  /** How many sessions matched in all. */
  total: number;
  /** Why nothing matched, when nothing did. */
  why?: string;
}

interface Candidate {
  rowid: number;
  score: number;
  session: number;
  role: Role;
  seq: number;
  flags: number;
}

const CANDIDATE_CAP = 1000;
const DAY = 86_400_000;

/**
 * Searches the index.
 *
 * @param db An open index.
 * @param query Words (ANDed), "quoted phrases", or a regex with `regex`.
 * @param options Filters, limit and the clock.
 * @returns Sessions best first, with snippets and the total.
 */
export async function search(
  db: Database,
  query: string,
  options: SearchOptions,
): Promise<SearchResult> {
  const roles = options.roles?.length ? options.roles : SPEECH_ROLES;
  if (options.regex) return regexSearch(db, query, roles, options);
  const parsed = parseQuery(query);
  const terms = [...parsed.words, ...parsed.phrases];
  if (terms.length === 0) {
    return {
      query,
      results: [],
      total: 0,
      why: "The query has no words to search for",
    };
  }
  const rows = candidates(db, ftsExpression(terms), roles, options);
  if (rows.length === 0) {
    return {
      query,
      results: [],
      total: 0,
      why: explainEmpty(db, terms, roles),
    };
  }
  const bySession = new Map<number, Candidate[]>();
  for (const row of rows) {
    const list = bySession.get(row.session);
    if (list) list.push(row);
    else bySession.set(row.session, [row]);
  }
  const sessions = loadSessions(db, [...bySession.keys()]);
  const scored: Array<{ row: SessionRow; score: number; hits: Candidate[] }> =
    [];
  for (const [sid, hits] of bySession) {
    const row = sessions.get(sid);
    if (!row) continue;
    for (const hit of hits) if (hit.role === "user") hit.score *= 1.3;
    hits.sort((a, b) => b.score - a.score || a.seq - b.seq);
    const [first, second, third] = hits;
    let score = (first?.score ?? 0) +
      0.25 * ((second?.score ?? 0) + (third?.score ?? 0));
    const ageDays = Math.max(
      0,
      (options.now - (row.updated ?? options.now)) / DAY,
    );
    score *= 0.5 + 0.5 / (1 + ageDays);
    // Decision lift: a session whose best hit states a decision scores 10% more.
    if (first && (first.flags & FLAG.decision) !== 0) score *= 1.1;
    scored.push({ row, score, hits });
  }
  scored.sort((a, b) =>
    b.score - a.score || (b.row.updated ?? 0) - (a.row.updated ?? 0) ||
    (a.row.id < b.row.id ? -1 : a.row.id > b.row.id ? 1 : 0)
  );
  const limit = options.all ? scored.length : options.limit ?? 10;
  const marks = loadMarks(db, scored.slice(0, limit).map((s) => s.row.rowid));
  const words = highlightWords(terms);
  const find: RangeFinder = (text) => matchRanges(text, words);
  const results = await Promise.all(
    scored.slice(0, limit).map(async ({ row, score, hits }) => ({
      session: sessionInfoOf(row),
      score: Math.round(score * 1000) / 1000,
      snippets: await Promise.all(
        hits.slice(0, options.snippets ?? 3).map((hit) =>
          snippetOf(db, hit.rowid, row, find, marks.get(row.rowid) ?? [])
        ),
      ),
    })),
  );
  return { query, results, total: scored.length };
}

function sessionFilter(
  options: SearchOptions,
): { where: string; params: Array<string | number> } {
  const clauses = ["s.hidden = 0"];
  const params: Array<string | number> = [];
  if (options.harnesses?.length) {
    clauses.push(
      `s.harness IN (${options.harnesses.map(() => "?").join(",")})`,
    );
    params.push(...options.harnesses);
  }
  if (options.project) {
    clauses.push("lower(s.project) = lower(?)");
    params.push(options.project);
  }
  if (options.since !== undefined) {
    clauses.push("COALESCE(s.updated, 0) >= ?");
    params.push(options.since);
  }
  if (options.session) {
    clauses.push("s.id LIKE ? ESCAPE '\\'");
    params.push(`${options.session.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  }
  return { where: clauses.join(" AND "), params };
}

function explainEmpty(
  db: Database,
  terms: string[],
  roles: readonly Role[],
): string {
  const anyIndexed = db.prepare("SELECT 1 FROM sessions LIMIT 1").get();
  if (!anyIndexed) return "Nothing is indexed yet: run deja index";
  const sessions = (expression: string, within: readonly Role[]) =>
    new Set(
      candidates(db, expression, within, { now: 0 }).map((c) => c.session),
    ).size;
  const unfiltered = sessions(ftsExpression(terms), roles);
  if (unfiltered > 0) {
    return `The filters excluded ${unfiltered} matching session${
      unfiltered === 1 ? "" : "s"
    }`;
  }
  const work = sessions(ftsExpression(terms), ROLES);
  if (work > 0) {
    return `${work} session${
      work === 1 ? " matches" : "s match"
    } only in work records (commands, files, tool output): try --role`;
  }
  if (terms.length > 1) {
    const alone = terms.filter((t) => sessions(ftsExpression([t]), ROLES) > 0);
    if (alone.length > 0) {
      return `No session holds all the words together; found alone: ${
        alone.map((t) => `"${t}"`).join(", ")
      }`;
    }
  }
  return "No session matches";
}

function hasSessionFilter(options: SearchOptions): boolean {
  return Boolean(
    options.harnesses?.length || options.project ||
      options.since !== undefined ||
      options.session,
  );
}

/**
 * Matching records, best first. Without session filters the FTS table is
 * ranked alone and the few best rows are looked up; with filters the join
 * lets SQLite drop other sessions before ranking.
 */
function candidates(
  db: Database,
  expression: string,
  roles: readonly Role[],
  options: SearchOptions,
): Candidate[] {
  const tables = [...new Set(roles.map(ftsTableFor))];
  const roleList = roles.map(() => "?").join(",");
  const out: Candidate[] = [];
  for (const table of tables) {
    if (hasSessionFilter(options)) {
      const { where, params } = sessionFilter(options);
      out.push(
        ...db.prepare(
          `SELECT f.rowid AS rowid, -bm25(${table}) AS score, r.session AS session, r.role AS role, r.seq AS seq, r.flags AS flags
           FROM ${table} f JOIN records r ON r.rowid = f.rowid JOIN sessions s ON s.rowid = r.session
           WHERE ${table} MATCH ? AND ${where} AND r.role IN (${roleList})
           ORDER BY rank LIMIT ${CANDIDATE_CAP}`,
        ).all(expression, ...params, ...roles) as unknown as Candidate[],
      );
      continue;
    }
    const ranked = db.prepare(
      `SELECT rowid, -bm25(${table}) AS score FROM ${table} WHERE ${table} MATCH ? ORDER BY rank LIMIT ${CANDIDATE_CAP}`,
    ).all(expression) as Array<{ rowid: number; score: number }>;
    if (ranked.length === 0) continue;
    const scores = new Map(ranked.map((r) => [r.rowid, r.score]));
    const rows = db.prepare(
      `SELECT r.rowid AS rowid, r.session AS session, r.role AS role, r.seq AS seq, r.flags AS flags
       FROM records r JOIN sessions s ON s.rowid = r.session
       WHERE r.rowid IN (SELECT value FROM json_each(?)) AND s.hidden = 0 AND r.role IN (${roleList})`,
    ).all(
      JSON.stringify(ranked.map((r) => r.rowid)),
      ...roles,
    ) as unknown as Candidate[];
    for (const row of rows) row.score = scores.get(row.rowid) ?? 0;
    out.push(...rows);
  }
  return out.sort((a, b) => b.score - a.score);
}

function loadSessions(db: Database, rowids: number[]): Map<number, SessionRow> {
  const out = new Map<number, SessionRow>();
  const stmt = db.prepare("SELECT * FROM sessions WHERE rowid = ?");
  for (const id of rowids) {
    const row = stmt.get(id) as unknown as SessionRow | undefined;
    if (row) out.set(id, row);
  }
  return out;
}

function loadMarks(
  db: Database,
  rowids: number[],
): Map<number, Array<[number, number]>> {
  const out = new Map<number, Array<[number, number]>>();
  const stmt = db.prepare(
    "SELECT from_seq, to_seq FROM marks WHERE session = ?",
  );
  for (const id of rowids) {
    const rows = stmt.all(id) as Array<{ from_seq: number; to_seq: number }>;
    if (rows.length) out.set(id, rows.map((r) => [r.from_seq, r.to_seq]));
  }
  return out;
}

/** Lowercased word stems used to highlight matches in snippets. */
export function highlightWords(terms: readonly string[]): string[] {
  const out = new Set<string>();
  for (const term of terms) {
    for (const word of term.toLowerCase().split(/[^\p{L}\p{N}_]+/u)) {
      if (!word) continue;
      out.add(word.length > 4 ? word.replace(/(ing|ed|es|s|ly)$/, "") : word);
    }
  }
  return [...out];
}

const SNIPPET_CHARS = 240;

/**
 * Finds match ranges of the highlight words in text (word starts only).
 *
 * @param text The text.
 * @param words Lowercased stems.
 * @returns Sorted [start, end) ranges.
 */
export function matchRanges(
  text: string,
  words: readonly string[],
): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  const lower = text.toLowerCase();
  for (const word of words) {
    let at = lower.indexOf(word);
    while (at !== -1 && ranges.length < 200) {
      const before = at === 0 ? "" : lower[at - 1] as string;
      if (!/[\p{L}\p{N}_]/u.test(before)) {
        let end = at + word.length;
        while (
          end < lower.length && /[\p{L}\p{N}_]/u.test(lower[end] as string)
        ) end++;
        ranges.push([at, end]);
      }
      at = lower.indexOf(word, at + word.length);
    }
  }
  ranges.sort((a, b) => a[0] - b[0]);
  return ranges;
}

/** Finds match ranges in a text (word stems or a regular expression). */
type RangeFinder = (text: string) => Array<[number, number]>;

/**
 * Cuts a snippet window around the first match of a record and says where
 * the record is and whether it is superseded.
 */
async function snippetOf(
  db: Database,
  rowid: number,
  session: SessionRow,
  find: RangeFinder,
  marks: Array<[number, number]>,
): Promise<Snippet> {
  const rec = await readRecordText(db, rowid);
  const text = rec?.text ?? "";
  const first = find(text)[0]?.[0] ?? 0;
  let start = Math.max(0, first - 60);
  if (start > 0) {
    const space = text.lastIndexOf(" ", start);
    if (space > first - 90) start = space + 1;
  }
  const end = Math.min(text.length, start + SNIPPET_CHARS);
  const window = (start > 0 ? "…" : "") +
    text.slice(start, end).replace(/\s+/g, " ") +
    (end < text.length ? "…" : "");
  const seq = rec?.seq ?? -1;
  const snippet: Snippet = {
    role: (rec?.role ?? "user") as Role,
    text: window,
    ranges: find(window),
    locator: { path: session.path, seq: rec?.seq ?? 0 },
    superseded: marks.some(([a, b]) => seq >= a && seq < b),
    subagent: rec?.subagent ?? false,
  };
  if (rec?.line != null) snippet.locator.line = rec.line;
  if (rec?.offset != null) snippet.locator.offset = rec.offset;
  if (rec?.recordId != null) snippet.locator.recordId = rec.recordId;
  if (rec?.time != null) snippet.time = rec.time;
  return snippet;
}

function regexRanges(re: RegExp): RangeFinder {
  return (text) => {
    const ranges: Array<[number, number]> = [];
    for (const hit of text.matchAll(new RegExp(re.source, "gi"))) {
      if (hit[0].length === 0 || ranges.length >= 200) break;
      ranges.push([hit.index, hit.index + hit[0].length]);
    }
    return ranges;
  };
}

async function regexSearch(
  db: Database,
  pattern: string,
  roles: readonly Role[],
  options: SearchOptions,
): Promise<SearchResult> {
  let re: RegExp;
  try {
    re = new RegExp(pattern, "i");
  } catch (err) {
    throw new SyntaxError(
      `Invalid regular expression "${pattern}": ${(err as Error).message}`,
    );
  }
  const { where, params } = sessionFilter(options);
  const stmt = db.prepare(
    `SELECT r.rowid AS rowid, r.session AS session FROM records r JOIN sessions s ON s.rowid = r.session
     WHERE ${where} AND r.role IN (${roles.map(() => "?").join(",")})
     ORDER BY s.updated DESC, r.session, r.seq`,
  );
  const limit = options.all ? Infinity : options.limit ?? 10;
  const hits = new Map<number, number[]>();
  for (
    const row of stmt.all(...params, ...roles) as Array<
      { rowid: number; session: number }
    >
  ) {
    const list = hits.get(row.session);
    if (!list && hits.size >= limit) continue;
    if (list && list.length >= (options.snippets ?? 3)) continue;
    const text = (await readRecordText(db, row.rowid))?.text ?? "";
    if (!re.test(text)) continue;
    if (list) list.push(row.rowid);
    else hits.set(row.session, [row.rowid]);
  }
  const sessions = loadSessions(db, [...hits.keys()]);
  const marks = loadMarks(db, [...hits.keys()]);
  const results: SearchHit[] = [];
  for (const [sid, rowids] of hits) {
    const row = sessions.get(sid);
    if (!row) continue;
    results.push({
      session: sessionInfoOf(row),
      score: 0,
      snippets: await Promise.all(
        rowids.map((rowid) =>
          snippetOf(db, rowid, row, regexRanges(re), marks.get(sid) ?? [])
        ),
      ),
    });
  }
  const out: SearchResult = { query: pattern, results, total: results.length };
  if (results.length === 0) {
    out.why = db.prepare("SELECT 1 FROM sessions LIMIT 1").get()
      ? "No record matches the regular expression"
      : "Nothing is indexed yet: run deja index";
  }
  return out;
}
