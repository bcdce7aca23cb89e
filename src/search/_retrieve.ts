/**
 * Reading postings for search: each term's matching record rowids, filtered
 * by role and by the sessions a search may show, plus the vocabulary
 * lookups the stemmed and fuzzy tiers need. A record rowid names its session
 * and whether it is a user turn (see `RECORD_SLOTS` in the schema), so
 * nothing here joins the `records` table on the hot path.
 *
 * @module
 */
import type { Database } from "../core/_sqlite.ts";
import { type Role, WORK_ROLES } from "../core/types.ts";
import {
  FLAG,
  isUserRecord,
  RECORD_SLOTS,
  roleOfRecord,
  sessionOfRecord,
} from "../index/schema.ts";
import { isAscii } from "../index/tokens.ts";
import { hasVocabulary } from "../index/vocabulary.ts";
import { editDistance, fuzzyBudget, oneEditAway } from "./_fuzzy.ts";
import {
  indexVersion,
  prepared,
  type Statement,
  untilIndexChanges,
  type VersionedCache,
} from "./_statements.ts";
import { hiddenSessions, scopeTotals } from "./_corpus.ts";
import { idPrefix } from "./_rows.ts";
import { porterStem } from "./_stem.ts";
import type { QueryTerm } from "./understand_query.ts";

/** The full-text tables. */
export type FtsTable = "fts_speech" | "fts_work";

/** Session filters a search applies. */
export interface ScopeFilter {
  harnesses?: readonly string[];
  project?: string;
  since?: number;
  session?: string;
  /**
   * Only sessions whose speech says every one of these: a word, or words
   * any one of which will do.
   */
  saying?: readonly (string | readonly string[])[];
}

/** Most postings read per term; the commonest words say little anyway. */
export const POSTING_CAP = 40_000;

/**
 * Quotes one token or phrase for an FTS5 expression.
 *
 * @param text A word or phrase.
 * @returns The quoted string.
 */
export function quote(text: string): string {
  // A prefix form ("mongo*") stays a prefix query.
  if (PREFIX_FORM.test(text)) return `"${text.slice(0, -1)}"*`;
  return `"${text.replaceAll('"', '""')}"`;
}

/** A word searched as the start of longer words: "mongo*". */
const PREFIX_FORM = /^[a-z0-9]+\*$/;

/** The FTS5 expression for one term: its text or any alternative. */
export function termExpression(
  term: QueryTerm,
  variants: readonly string[] = [],
): string {
  const forms = [
    term.text,
    ...term.alternatives,
    ...(term.things ?? []),
    ...variants,
  ];
  return forms.length === 1
    ? quote(forms[0]!)
    : `(${forms.map(quote).join(" OR ")})`;
}

const probeCache: VersionedCache<Map<string, Set<number>>> = new WeakMap();

/**
 * Per connection and index version: whether any record of a table matches
 * an expression. A question asks it of every other form of each word (its
 * inflections, synonyms, parts) at every search it runs: ~200 times a
 * question on the bench's questions, most of them repeats.
 */
const anywhereKnown: VersionedCache<Map<string, boolean>> = new WeakMap();

/** Expressions a connection keeps known, at most. */
const ANYWHERE_KEPT = 8192;

/**
 * Per connection and index version: vocabulary ranges already listed. A
 * range's record counts walk every posting of its terms (fts5vocab), and
 * one question lists the same ranges for each never-seen word at every
 * search it runs (what was said, work records, every record): 115 listings
 * and ~180 ms of one question on the 240 MB bench index, most of them
 * repeats.
 */
const vocabRanges: VersionedCache<
  Map<string, Array<{ term: string; doc: number }>>
> = new WeakMap();

/** Vocabulary ranges a connection keeps listed, at most. */
const VOCAB_RANGES_KEPT = 512;

/**
 * Per connection and index version: whether the index holds a built
 * vocabulary table (src/index/vocabulary.ts), read instead of `fts5vocab`.
 */
const vocabularyBuilt: VersionedCache<{ built: boolean }> = new WeakMap();

/** A word of a title. */
const WORD = /[\p{L}\p{N}]+/gu;
/** {@linkcode WORD} for lower-cased ASCII text (see isAscii). */
const ASCII_WORD = /[a-z0-9]+/g;

/**
 * Per connection and index version: the title words looked for so far and
 * their sessions; the visible titles, lower-cased, once a search looks for
 * {@link TITLE_READ_FROM} words or more; and (from the
 * {@link TITLE_MAP_AFTER}th distinct word) a map of every title word.
 */
interface TitleLooks {
  titles?: Array<{ rowid: number; title: string; lower: string }>;
  looked: Map<string, number[]>;
  words?: Map<string, number[]>;
}
/** Each connection's {@link TitleLooks}. */
const titleLooks: VersionedCache<TitleLooks> = new WeakMap();
const newTitleLooks = (): TitleLooks => ({ looked: new Map() });

/**
 * Per connection and index version: each session's first speech record
 * (null: none), as titled sessions needed it. A title word names the same
 * sessions at every search that says it.
 */
const firstSpeech: VersionedCache<Map<number, number | null>> = new WeakMap();

/**
 * Words a search looks for in titles from which it reads every title once
 * rather than scan them in SQLite for each word: a scan returns only the
 * titles holding the word, and reading them all costs about three scans
 * (one word 2.6 ms by a scan, 6–8 ms by the read, on the bench's 1,304
 * sessions; 11–18 and 43–60 ms on 13,040); a question looks for ten words
 * (14–17 against 7–9 ms; 125–155 against 41–68 ms).
 */
const TITLE_READ_FROM = 4;

/**
 * Distinct title words a connection looks for, in the titles that hold each,
 * before it maps every title's words at once: a one-shot search looks for a
 * few (mapping them all costs more than its looks), a long-lived reader for
 * many.
 */
const TITLE_MAP_AFTER = 16;

/** Each word of the titles and the sessions whose title holds it. */
function titleWords(
  rows: ReadonlyArray<{ rowid: number; title: string }>,
): Map<string, number[]> {
  const words = new Map<string, number[]>();
  for (const row of rows) {
    const lower = row.title.toLowerCase();
    for (const w of new Set(lower.match(isAscii(lower) ? ASCII_WORD : WORD))) {
      const list = words.get(w);
      if (list) list.push(row.rowid);
      else words.set(w, [row.rowid]);
    }
  }
  return words;
}

/**
 * Whether any record of a full-text table matches, whatever the filters:
 * the first match only.
 *
 * @param db The index.
 * @param table The table.
 * @param expression An FTS5 expression.
 * @returns True when one record matches.
 */
export function matchesAny(
  db: Database,
  table: FtsTable,
  expression: string,
): boolean {
  return prepared(
    db,
    `SELECT rowid FROM ${table} WHERE ${table} MATCH ? LIMIT 1`,
  ).get(expression) !== undefined;
}

/** Reads postings within a search's roles and session filters. */
export class Retriever {
  #db: Database;
  #tables: FtsTable[];
  #userOnly: boolean;
  #assistantOnly: boolean;
  #workRoles: readonly Role[] | undefined;
  #hidden: ReadonlySet<number>;
  #allowed: Set<number> | undefined;
  #scope: { where: string; params: Array<string | number> };
  #cache = new Map<string, number[]>();
  /** The index's version, read once: a retriever serves one search. */
  #version: number | undefined;

  #vocab = new Set<FtsTable>();
  /** Sessions the filters removed from some posting (for "why no hit"). */
  filteredOut = new Set<number>();

  constructor(
    db: Database,
    roles: readonly Role[],
    filter: ScopeFilter,
  ) {
    this.#db = db;
    const speech = roles.filter((r) => r === "user" || r === "assistant");
    const work = roles.filter((r) => r !== "user" && r !== "assistant");
    this.#tables = [];
    if (speech.length) this.#tables.push("fts_speech");
    if (work.length) this.#tables.push("fts_work");
    this.#userOnly = speech.length === 1 && speech[0] === "user";
    this.#assistantOnly = speech.length === 1 && speech[0] === "assistant";
    this.#workRoles = work.length && work.length < WORK_ROLES.length
      ? work
      : undefined;
    this.#hidden = hiddenSessions(db);
    const { where, params } = sessionFilterSql(filter);
    this.#scope = { where, params };
    if (params.length) {
      this.#allowed = new Set(
        (db.prepare(`SELECT s.rowid AS rowid FROM sessions s WHERE ${where}`)
          .all(...params) as Array<{ rowid: number }>).map((r) => r.rowid),
      );
    }
  }

  /**
   * A value this connection keeps until the index changes. A search reads
   * one snapshot in one transaction, so the version is read once, not at
   * each of the hundreds of looks a question makes.
   */
  #kept<T>(cache: VersionedCache<T>, make: () => T): T {
    this.#version ??= indexVersion(this.#db);
    return untilIndexChanges(cache, this.#db, make, this.#version);
  }

  #prepare(sql: string): Statement {
    return prepared(this.#db, sql);
  }

  /** The tables searched. */
  get tables(): readonly FtsTable[] {
    return this.#tables;
  }

  /** How many sessions the filters leave (hidden ones not counted). */
  get scopeSize(): number {
    return scopeTotals(this.#db, this.#scope.where, this.#scope.params).n;
  }

  /** Whether the search has session filters. */
  get filtered(): boolean {
    return this.#allowed !== undefined;
  }

  /** Whether a session may be shown (not hidden, inside the filters). */
  visible(session: number): boolean {
    return !this.#hidden.has(session) &&
      (this.#allowed === undefined || this.#allowed.has(session));
  }

  /**
   * Matching record rowids for an FTS5 expression, in descending order
   * (newest sessions first), after role and session filters.
   */
  postings(expression: string): number[] {
    const cached = this.#cache.get(expression);
    if (cached) return cached;
    const parts: number[][] = [];
    for (const table of this.#tables) {
      // One JSON array instead of a row object per posting: 2–3× faster.
      // FTS5 reads a doclist forwards; asking for it newest first (ORDER BY
      // rowid DESC) buffers it and costs ~30% more than reversing here.
      const row = this.#prepare(
        `SELECT json_group_array(rowid) AS ids FROM ${table} WHERE ${table} MATCH ?`,
      ).get(expression) as { ids: string } | undefined;
      let rowids = JSON.parse(row?.ids ?? "[]") as number[];
      if (rowids.length > POSTING_CAP) rowids = rowids.slice(-POSTING_CAP);
      rowids.reverse();
      if (table === "fts_speech" && (this.#userOnly || this.#assistantOnly)) {
        rowids = rowids.filter((id) => isUserRecord(id) === this.#userOnly);
      }
      const roles = this.#workRoles;
      if (table === "fts_work" && roles) {
        rowids = rowids.filter((id) => roles.includes(roleOfRecord(id)));
      }
      parts.push(
        this.#hidden.size === 0 && !this.#allowed
          ? rowids
          : this.#onlyVisible(rowids),
      );
    }
    // Two tables: keep one descending order for the merge in ranking.
    const out = parts.length === 1
      ? parts[0]!
      : mergeDescending(parts[0]!, parts[1]!);
    this.#cache.set(expression, out);
    return out;
  }

  /**
   * The visible sessions holding a record that matches the expression,
   * descending: what `sessionsOf(postings(expression))` gives, without
   * reading every posting when no role filter needs the records.
   */
  sessions(expression: string): number[] {
    if (this.#userOnly || this.#assistantOnly || this.#workRoles) {
      return [...new Set(this.postings(expression).map(sessionOfRecord))];
    }
    const found = new Set<number>();
    for (const table of this.#tables) {
      const row = this.#prepare(
        `SELECT json_group_array(DISTINCT rowid / ${RECORD_SLOTS}) AS ids, count(*) AS n FROM ${table} WHERE ${table} MATCH ?`,
      ).get(expression) as { ids: string; n: number } | undefined;
      // Past the posting cap only the newest postings count, as in postings().
      if ((row?.n ?? 0) > POSTING_CAP) {
        return [...new Set(this.postings(expression).map(sessionOfRecord))];
      }
      for (const s of JSON.parse(row?.ids ?? "[]") as number[]) found.add(s);
    }
    const out: number[] = [];
    for (const s of found) {
      if (this.visible(s)) out.push(s);
      else if (!this.#hidden.has(s)) this.filteredOut.add(s);
    }
    return out.sort((a, b) => b - a);
  }

  /** Postings (descending, so grouped by session) of visible sessions. */
  #onlyVisible(rowids: readonly number[]): number[] {
    const out: number[] = [];
    // A session's postings are one rowid range: decide once per range.
    let floor = Infinity;
    let keep = false;
    for (const id of rowids) {
      if (id < floor) {
        const session = sessionOfRecord(id);
        floor = session * RECORD_SLOTS;
        keep = this.visible(session);
        if (!keep && !this.#hidden.has(session)) this.filteredOut.add(session);
      }
      if (keep) out.push(id);
    }
    return out;
  }

  /**
   * A word no record holds may be in a session's title — one the user or
   * the harness gave (a rename, a generated title, a thread name): the
   * first speech record of each visible session whose title holds the word
   * (or its plural), descending; none when speech is not searched.
   */
  titled(word: string): number[] {
    const bare = this.#titleWord(word);
    if (bare === undefined) return [];
    const sessions = this.#titledSessions(bare).filter((s) => this.visible(s));
    if (sessions.length === 0) return [];
    const first = this.#kept(firstSpeech, () => new Map());
    const unknown = sessions.filter((s) => !first.has(s));
    if (unknown.length) {
      // A session's records are one rowid range, in order: the first speech
      // record is found by the key, not by reading the session's records;
      // one statement for every session (a title word often names dozens).
      const rows = this.#prepare(
        `SELECT w.value AS session, (SELECT rowid FROM records WHERE rowid >= w.value * ${RECORD_SLOTS} AND rowid < (w.value + 1) * ${RECORD_SLOTS} AND role IN ('user', 'assistant') ORDER BY rowid LIMIT 1) AS id FROM json_each(?) AS w`,
      ).all(JSON.stringify(unknown)) as Array<
        { session: number; id: number | null }
      >;
      for (const r of rows) first.set(r.session, r.id);
    }
    const out: number[] = [];
    for (const s of sessions) {
      const id = first.get(s);
      if (id !== undefined && id !== null) out.push(id);
    }
    return out.sort((a, b) => b - a);
  }

  /**
   * What a title is searched for, of a word: the word itself or its
   * singular (a stem would let "assistant" find "assistance"); none for a
   * word under three letters, or when speech is not searched (a title is
   * what the conversation is about: searched with speech).
   */
  #titleWord(word: string): string | undefined {
    const bare = word.toLowerCase().replace(/s$/, "");
    return bare.length < 3 || !this.#tables.includes("fts_speech")
      ? undefined
      : bare;
  }

  /**
   * Readies a search that will look for these words in the titles: when
   * {@link TITLE_READ_FROM} of them or more are new to the connection, it
   * reads every visible title once (lower-cased) and
   * {@link Retriever.titled} looks in them instead of scanning the titles in
   * SQLite for each word.
   *
   * @param words The words the search will look for in titles.
   */
  expectTitleWords(words: readonly string[]): void {
    const seen = this.#kept(titleLooks, newTitleLooks);
    if (seen.titles || seen.words) return;
    const fresh = new Set(
      words.flatMap((w) => {
        const bare = this.#titleWord(w);
        return bare === undefined || seen.looked.has(bare) ? [] : [bare];
      }),
    );
    if (fresh.size < TITLE_READ_FROM) return;
    seen.titles = this.#titles().map((t) => ({
      ...t,
      lower: t.title.toLowerCase(),
    }));
  }

  /**
   * The sessions whose title holds the word or its plural. A connection
   * scans the titles in SQLite for each new word, or looks in the titles it
   * read ({@link Retriever.expectTitleWords}), splitting into words only
   * the titles holding the word as a string, and keeps each answer; after
   * {@link TITLE_MAP_AFTER} words, until the index changes, a map of every
   * title word answers (a long-lived reader looks on most searches).
   */
  #titledSessions(bare: string): number[] {
    const seen = this.#kept(titleLooks, newTitleLooks);
    if (!seen.words && seen.looked.size >= TITLE_MAP_AFTER) {
      seen.words = titleWords(this.#titles());
    }
    const forms = [bare, `${bare}s`, `${bare}es`];
    const holding = (words: Map<string, number[]>) => [
      ...new Set(forms.flatMap((f) => words.get(f) ?? [])),
    ];
    if (seen.words) return holding(seen.words);
    let sessions = seen.looked.get(bare);
    if (!sessions) {
      const titles = seen.titles?.filter((t) => t.lower.includes(bare)) ??
        this.#titles(bare);
      sessions = holding(titleWords(titles));
      seen.looked.set(bare, sessions);
    }
    return sessions;
  }

  /**
   * The visible sessions' titles; given a word, only those that may hold
   * it, narrowed by SQLite (the caller checks whole words). `lower()` folds
   * ASCII only, so titles with the two characters whose lower case is ASCII
   * (İ, the Kelvin sign) are kept too, and a word with other characters is
   * looked for in every title.
   */
  #titles(bare?: string): Array<{ rowid: number; title: string }> {
    // deno-lint-ignore no-control-regex
    return (bare !== undefined && /^[\x00-\x7f]*$/.test(bare)
      ? this.#prepare(
        "SELECT rowid, title FROM sessions WHERE hidden = 0 AND title IS NOT NULL AND (instr(lower(title), ?) > 0 OR instr(title, '\u0130') > 0 OR instr(title, '\u212a') > 0)",
      ).all(bare)
      : this.#prepare(
        "SELECT rowid, title FROM sessions WHERE hidden = 0 AND title IS NOT NULL",
      ).all()) as Array<{ rowid: number; title: string }>;
  }

  /** Whether any record (any role, any session) matches, per table. */
  anywhere(expression: string, table: FtsTable): boolean {
    const known = this.#kept(anywhereKnown, () => new Map());
    const key = `${table}\n${expression}`;
    let found = known.get(key);
    if (found === undefined) {
      found = matchesAny(this.#db, table, expression);
      if (known.size >= ANYWHERE_KEPT) known.clear();
      known.set(key, found);
    }
    return found;
  }

  /**
   * Sessions holding a speech record that matches the expression (the most
   * recent 20,000 matching records). Kept per connection until the index
   * changes (`PRAGMA data_version`), so a long-lived reader asks once.
   */
  sessionsWith(expression: string): ReadonlySet<number> {
    const sets = this.#kept(probeCache, () => new Map());
    let found = sets.get(expression);
    if (!found) {
      found = new Set(
        (this.#prepare(
          "SELECT rowid FROM fts_speech WHERE fts_speech MATCH ? ORDER BY rowid DESC LIMIT 20000",
        ).all(expression) as Array<{ rowid: number }>).map((r) =>
          sessionOfRecord(r.rowid)
        ),
      );
      sets.set(expression, found);
    }
    return found;
  }

  /**
   * A word as people wrote it for an indexed stem: the first word with that
   * stem in the first speech record that holds it ("ioredis" for "ioredi").
   */
  surfaceOf(stem: string, rowids: readonly number[]): string | undefined {
    for (const id of rowids.slice(0, 5)) {
      const row = this.#prepare(
        "SELECT body, flags FROM records WHERE rowid = ?",
      ).get(id) as { body: Uint8Array | string; flags: number } | undefined;
      if (!row || (row.flags & FLAG.compressed) !== 0) continue;
      const text = typeof row.body === "string"
        ? row.body
        : new TextDecoder().decode(row.body);
      for (const m of text.matchAll(/[\p{L}\p{N}]+/gu)) {
        const word = m[0].toLowerCase();
        if (porterStem(word) === stem) return word;
      }
    }
    return undefined;
  }

  #ensureVocab(table: FtsTable): string {
    const name = `deja_vocab_${table}`;
    if (!this.#vocab.has(table)) {
      // A temp table: works on a read-only index and writes nothing.
      this.#db.exec(
        `CREATE VIRTUAL TABLE IF NOT EXISTS temp.${name} USING fts5vocab(main, ${table}, row)`,
      );
      this.#vocab.add(table);
    }
    return `temp.${name}`;
  }

  /**
   * Indexed terms (stems) in [lo, hi), with their record counts, from the
   * tables given (default: those searched).
   */
  vocabRange(
    lo: string,
    hi: string,
    limit: number,
    tables: readonly FtsTable[] = this.#tables,
  ): Array<{ term: string; doc: number }> {
    const out: Array<{ term: string; doc: number }> = [];
    const ranges = this.#kept(vocabRanges, () => new Map());
    for (const table of tables) {
      const key = `${table}\n${lo}\n${hi}\n${limit}`;
      let rows = ranges.get(key);
      if (!rows) {
        const stored = this.#kept(vocabularyBuilt, () => ({
          built: hasVocabulary(this.#db),
        }));
        rows = (stored.built
          ? this.#prepare(
            `SELECT term, doc FROM vocab WHERE tbl = ? AND term >= ? AND term < ? LIMIT ${limit}`,
          ).all(table, lo, hi)
          : this.#prepare(
            `SELECT term, doc FROM ${
              this.#ensureVocab(table)
            } WHERE term >= ? AND term < ? LIMIT ${limit}`,
          ).all(lo, hi)) as Array<{ term: string; doc: number }>;
        if (ranges.size >= VOCAB_RANGES_KEPT) ranges.clear();
        ranges.set(key, rows);
      }
      out.push(...rows);
    }
    return out;
  }

  /**
   * Spellings of a word the index holds under another stem: inflections
   * Porter keeps apart (deploy/deployment), developer abbreviations, the
   * parts of a compound no record holds as one word (`unseen`). Only forms
   * that occur are returned.
   */
  variants(term: QueryTerm, unseen = false): string[] {
    const forms = new Set<string>();
    if (term.kind === "word") {
      for (const f of inflections(term.text)) forms.add(f);
      for (const f of SYNONYMS.get(term.text) ?? []) forms.add(f);
      if (unseen) { for (const f of compoundParts(term.text)) forms.add(f); }
      if (this.#shortName(term.text)) forms.add(`${term.text}*`);
    }
    const seen = new Set([term.stem, porterStem(term.text)]);
    const out: string[] = [];
    for (const form of forms) {
      const stem = form.includes(" ") ? form : porterStem(form);
      if (seen.has(stem)) continue;
      seen.add(stem);
      const expr = quote(form);
      if (this.#tables.some((t) => this.anywhere(expr, t))) out.push(form);
      if (out.length >= 6) break;
    }
    return out;
  }

  /**
   * A word that is mostly said as the start of longer words: "mongo" for
   * mongodb and mongoose. Its own stem must be held by fewer records than
   * the longer words (by at least two letters) that begin with it, so
   * "strict" is not widened to strictNullChecks, nor "sender" at all.
   */
  #shortName(word: string): boolean {
    if (!/^[a-z0-9]{5,}$/.test(word)) return false;
    const stem = porterStem(word);
    let own = 0;
    let longer = 0;
    for (const row of this.vocabRange(word, `${word}\uffff`, 200)) {
      if (row.term === stem || row.term === word) own += row.doc;
      else if (row.term.length >= word.length + 2) longer += row.doc;
    }
    if (stem !== word && !stem.startsWith(word)) {
      for (const row of this.vocabRange(stem, `${stem}\u0000`, 1)) {
        if (row.term === stem) own += row.doc;
      }
    }
    return longer > own;
  }

  /**
   * The closest indexed words to one never seen: edit distance 1, or 2 for
   * long words, against the vocabulary sharing its first two letters (or
   * them swapped), and against all words of its first letter when few share
   * them. Returns the best stem by distance, then by how many records hold
   * it.
   */
  suggest(word: string): { term: string; distance: number } | undefined {
    const budget = fuzzyBudget(word);
    if (budget === 0 || !/^[a-z]+$/.test(word)) return undefined;
    const stem = porterStem(word);
    // The stem is held to its own length's budget: "negative" stems to
    // "neg", one letter from "new", which is no reading of it.
    const stemBudget = Math.min(budget, fuzzyBudget(stem));
    const prefixes = new Set([word.slice(0, 2), word[1]! + word[0]!]);
    // The index holds stems, which an English word outgrows: "migratoins"
    // is two edits from the stem "migrati" (Dutch "migraties") but one
    // swap from "migrations", whose stem is "migrat". A stem one slip of
    // the word stems to is one edit away, unless stemming left too little
    // of it to be sure ("married" → "marred" → "mar"); a letter left out
    // ("loding" for "loading" → "load") leaves four.
    const slipStems = new Set(
      oneEditAway(word).flatMap((slip) => {
        const s = porterStem(slip);
        return s.length >= 5 || s.length >= word.length - 1 ||
            (slip.length > word.length && s.length >= 4)
          ? [s]
          : [];
      }),
    );
    let best: { term: string; distance: number; doc: number } | undefined;
    const consider = (rows: Array<{ term: string; doc: number }>) => {
      for (const { term, doc } of rows) {
        if (term === stem || term === word || !/^[a-z]+$/.test(term)) continue;
        const byStem = stemBudget > 0
          ? editDistance(stem, term, stemBudget)
          : budget + 1;
        const d = slipStems.has(term) ? 1 : Math.min(
          editDistance(word, term, budget),
          byStem <= stemBudget ? byStem : budget + 1,
        );
        if (d > budget) continue;
        if (
          !best || d < best.distance ||
          (d === best.distance && doc > best.doc)
        ) best = { term, distance: d, doc };
      }
    };
    // Listing terms walks each one's postings (fts5vocab counts them), so
    // the vocabulary people say is looked in first; what only tools printed
    // (far more terms) only when it holds no close word.
    for (const table of this.#tables) {
      let near = 0;
      for (const p of prefixes) {
        const rows = this.vocabRange(p, `${p}\uffff`, 5000, [table]);
        near += rows.length;
        consider(rows);
      }
      // A slip in the second letter makes a first pair the index seldom
      // starts a word with: only then scan every word of the first letter,
      // the costly part of a question's ladder (a hook pays it per prompt),
      // and only of what was said: the words tools printed are many times
      // more, and counting their records took ~60 ms of a question on the
      // 240 MB bench index.
      if (!best && near < 50 && table === "fts_speech") {
        const first = word[0]!;
        consider(this.vocabRange(first, `${first}\uffff`, 20000, [table]));
      }
      if (best) break;
    }
    return best ? { term: best.term, distance: best.distance } : undefined;
  }
}

/**
 * Two descending lists as one, in one pass: the speech and work postings
 * of a term (sorting them with a comparator cost ~6× more, 2.8 ms for 32,000).
 */
function mergeDescending(a: readonly number[], b: readonly number[]): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    out.push(a[i]! >= b[j]! ? a[i++]! : b[j++]!);
  }
  while (i < a.length) out.push(a[i++]!);
  while (j < b.length) out.push(b[j++]!);
  return out;
}

/** SQL for the session filters over `sessions s`. */
export function sessionFilterSql(
  filter: ScopeFilter,
): { where: string; params: Array<string | number> } {
  const clauses = ["s.hidden = 0"];
  const params: Array<string | number> = [];
  if (filter.harnesses?.length) {
    clauses.push(`s.harness IN (${filter.harnesses.map(() => "?").join(",")})`);
    params.push(...filter.harnesses);
  }
  if (filter.project) {
    clauses.push("lower(s.project) = lower(?)");
    params.push(filter.project);
  }
  if (filter.since !== undefined) {
    clauses.push("COALESCE(s.updated, 0) >= ?");
    params.push(filter.since);
  }
  if (filter.session) {
    const starts = idPrefix("s.id", filter.session);
    clauses.push(starts.sql);
    params.push(...starts.params);
  }
  for (const words of filter.saying ?? []) {
    clauses.push(
      `s.rowid IN (SELECT DISTINCT rowid / ${RECORD_SLOTS} FROM fts_speech WHERE fts_speech MATCH ?)`,
    );
    params.push(
      typeof words === "string"
        ? quote(words)
        : words.map((w) => quote(w)).join(" OR "),
    );
  }
  return { where: clauses.join(" AND "), params };
}

/** Two-letter words that may end a compound ("login" is "log in"). */
const SHORT_PARTS = new Set(["in", "on", "up"]);

/**
 * A compound read as the two words it joins, as a phrase: "scrollback" as
 * "scroll back", "codebase" as "code base". Each split leaves at least
 * three letters a side (or a short particle at the end); which of them the
 * index holds decides what is kept.
 */
function compoundParts(word: string): string[] {
  if (word.length < 6 || !/^[a-z]+$/.test(word)) return [];
  const out: string[] = [];
  for (let i = 3; i <= word.length - 2; i++) {
    const tail = word.slice(i);
    if (tail.length < 3 && !SHORT_PARTS.has(tail)) continue;
    out.push(`${word.slice(0, i)} ${tail}`);
  }
  return out;
}

/** Inflections Porter leaves under another stem, and the base forms. */
function inflections(word: string): string[] {
  const out = [
    `${word}s`,
    `${word}ed`,
    `${word}ing`,
    `${word}er`,
    `${word}ment`,
    `${word}ments`,
    `${word}ion`,
    `${word}ation`,
  ];
  if (word.endsWith("e")) {
    out.push(`${word.slice(0, -1)}ing`, `${word.slice(0, -1)}ation`);
  }
  if (word.endsWith("y")) {
    out.push(
      `${word.slice(0, -1)}ies`,
      `${word}ment`,
      `${word.slice(0, -1)}ily`,
    );
  } else out.push(`${word}ly`);
  // An adverb and its adjective stem apart (lazily/lazy, quickly/quick).
  if (word.length > 5 && word.endsWith("ily")) {
    out.push(`${word.slice(0, -3)}y`);
  } else if (word.length > 5 && word.endsWith("ly")) {
    out.push(word.slice(0, -2));
  }
  for (
    const suffix of [
      "ments",
      "ment",
      "ations",
      "ation",
      "ions",
      "ion",
      "ers",
      "er",
      "ing",
      "ed",
      "es",
      "s",
    ]
  ) {
    if (word.length > suffix.length + 3 && word.endsWith(suffix)) {
      const base = word.slice(0, -suffix.length);
      out.push(base, `${base}e`, `${base}y`);
    }
  }
  return out;
}

const SYNONYM_GROUPS = [
  ["auth", "authentication", "authorization", "login"],
  ["db", "database"],
  ["k8s", "kubernetes"],
  ["config", "configuration", "settings"],
  ["repo", "repository"],
  ["env", "environment"],
  ["deps", "dependencies", "dependency"],
  ["perf", "performance"],
  ["msg", "message"],
  ["err", "error"],
  ["pkg", "package"],
  ["impl", "implementation"],
  ["dir", "directory", "folder"],
  ["docs", "documentation"],
  ["pr", "pull request"],
  ["js", "javascript"],
  ["ts", "typescript"],
  ["py", "python"],
  ["fn", "function"],
  ["args", "arguments"],
  ["param", "parameter"],
  ["app", "application"],
  ["prod", "production"],
  ["dev", "development"],
  ["cert", "certificate"],
  ["mem", "memory"],
  ["ci", "pipeline"],
  ["bug", "issue"],
  ["crash", "crashed"],
  ["slow", "latency"],
  ["email", "mail", "e-mail"],
  ["image", "picture", "screenshot"],
  ["phone", "mobile", "iphone", "smartphone"],
  ["password", "passwd", "pwd"],
  ["website", "site"],
  ["wifi", "wi-fi", "wireless"],
  ["var", "vars", "variable"],
  ["tf", "terraform"],
  ["creds", "credentials"],
  ["infra", "infrastructure"],
  ["phx", "phoenix"],
  ["pg", "postgres", "postgresql"],
  ["gh", "github"],
  ["gql", "graphql"],
  ["tz", "timezone"],
  ["a11y", "accessibility"],
  ["i18n", "internationalization", "localization"],
  ["btn", "button"],
  ["nav", "navigation"],
  ["prefs", "preferences"],
  ["ctx", "context"],
  ["ext", "extension"],
  ["delete", "remove"],
  ["deleted", "removed"],
  ["deleting", "removing"],
  ["repair", "fix"],
  ["repaired", "fixed"],
];

const SYNONYMS = new Map<string, string[]>();
for (const group of SYNONYM_GROUPS) {
  for (const word of group) {
    SYNONYMS.set(word, group.filter((w) => w !== word));
  }
}
