/**
 * Session-level search over the transcript index, as a narrated ladder:
 *
 * 1. **exact** — every term somewhere in one session (FTS5's porter forms);
 * 2. **relaxed** — drop the rarest terms that cannot be satisfied, and say which;
 * 3. **stemmed** — other forms of the blocking terms (inflections Porter
 *    keeps apart, developer abbreviations, identifier parts);
 * 4. **fuzzy** — a never-seen word replaced by the closest indexed word
 *    (edit distance 1–2), with "did you mean";
 * 5. **relevance** — IDF-weighted overlap over sessions, fused with the
 *    strict ranking by reciprocal rank fusion.
 *
 * Each result says which tier found it. Ranking then applies bounded
 * signals (proximity, title match, exact form, decision lift, pasted-log and
 * gave-up damping, gentle freshness) that can break near-ties but never
 * outrank plain relevance; a time said in words ("last week") puts matching
 * sessions in that window first. An empty answer says why.
 *
 * @module
 */
import type { Database } from "../core/_sqlite.ts";
import { type Role, ROLES, SPEECH_ROLES, WORK_ROLES } from "../core/types.ts";
import { agentNamed } from "./_agents.ts";
import { projectNamed, projectOfName, saysName } from "./_projects.ts";
import { isStopWord } from "./_stop_words.ts";
import { ordinalAsked, ordinalOrder } from "./_ordinal.ts";
import {
  greetingAsked,
  greetingMisfit,
  greetingSessions,
} from "./_small_talk.ts";
import { failedSessions, failureAsked } from "./_agent_failures.ts";
import { type DescribedSession, orderByFit } from "./_described.ts";
import {
  FLAG,
  isUserRecord,
  RECORD_SLOTS,
  roleOfRecord,
  sessionOfRecord,
} from "../index/schema.ts";
import {
  readRecordText,
  readRecordTexts,
  recordOf,
  type RecordRow,
  type SessionInfo,
  sessionInfoOf,
  type SessionRow,
  sessionRowid,
  type StoredRecord,
} from "./_rows.ts";
import {
  type FtsTable,
  matchesAny,
  quote,
  Retriever,
  type ScopeFilter,
  sessionFilterSql,
  termExpression,
} from "./_retrieve.ts";
import {
  blendRecordRelevance,
  type CorpusStats,
  RANK,
  reciprocalRankFusion,
  type RecordTerm,
  sessionIdf,
  type SessionRelevance,
  sessionRelevance,
  sessionsOf,
} from "./_rank.ts";
import {
  cutSnippet,
  findMatches,
  type TermForm,
  termForm,
} from "./_snippet.ts";
import { prepared } from "./_statements.ts";
import { REGEX_BATCH, RegexScanner, type RegexSnippet } from "./_regex_scan.ts";
import { BM25, postingsOf } from "./_bm25.ts";
import { partnerOf, peopleNamed } from "./_speakers.ts";
import { scopeTotals, sessionFacts, sessionIdentities } from "./_corpus.ts";
import { porterStem, wordForStem } from "./_stem.ts";
import {
  type QueryTerm,
  type TimeWindow,
  understandQuery,
  type UnderstoodQuery,
  wordToken,
} from "./understand_query.ts";
import { type SessionMeta, type Signals, signalsOf } from "./_signals.ts";

/** A tier of the retrieval ladder. */
export type SearchTier =
  | "exact"
  | "relaxed"
  | "stemmed"
  | "fuzzy"
  | "relevance";

/** The ladder's tiers, in the order they are tried. */
export const SEARCH_TIERS: readonly SearchTier[] = [
  "exact",
  "relaxed",
  "stemmed",
  "fuzzy",
  "relevance",
];

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
  /**
   * Only sessions whose messages say every one of these: a word, or words
   * any one of which will do.
   */
  saying?: readonly (string | readonly string[])[];
  /** Sessions to return; default 10. */
  limit?: number;
  /** Return every matching session. */
  all?: boolean;
  /** Treat the query as a regular expression and scan records. */
  regex?: boolean;
  /**
   * With `regex`: how long (ms) one batch of records may take before the
   * scan is stopped with `QRY-E006`; default 5 s.
   */
  regexBudgetMs?: number;
  /** Snippets per session; default 3. */
  snippets?: number;
  /** Attach each score's parts to every hit. */
  explain?: boolean;
  /**
   * Look for the closest indexed word to a never-seen one ("did you
   * mean"); default true. It scans the index vocabulary, the costliest step
   * of a question on a large index: the prompt hook turns it off.
   */
  fuzzy?: boolean;
  /** The clock, for freshness and relative times. */
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

/** The parts of one hit's score, for `--explain`. */
export interface ScoreParts {
  /**
   * Relevance before signals: the blend of the three parts below, and for
   * a question half of that and half `turn`.
   */
  relevance: number;
  /** IDF-weighted share of the query's terms the session holds. */
  coverage: number;
  /** IDF-weighted share held by its best single record. */
  best: number;
  /** Saturated BM25 over record counts, scaled to [0, 1]. */
  bm25: number;
  /** Questions: record-level BM25 of the best turn, scaled to [0, 1]. */
  turn?: number;
  /** Multipliers applied to relevance (1 = no effect). */
  signals: Signals;
  /** Relevance after signals. */
  adjusted: number;
  /** Rank among sessions holding every (remaining) term, if it is one. */
  strictRank: number | null;
  /** Rank in the relevance ranking. */
  relevanceRank: number;
  /**
   * The score the order follows: for keyword queries the reciprocal rank
   * fusion of the two ranks; for questions adjusted relevance, lifted when
   * the session holds every (remaining) term.
   */
  fused: number;
  /** Inside the time window the query asked for (when it asked). */
  inWindow?: boolean;
}

/** One matching session. */
export interface SearchHit {
  /** The session. */
  session: SessionInfo;
  /** Its score (higher is better): adjusted relevance, rounded. */
  score: number;
  /** Up to three snippets, best first. */
  snippets: Snippet[];
  /** The ladder tier that found it. */
  tier: SearchTier;
  /**
   * "work" when only work records (tool output, commands, summaries) hold
   * the words: a search of what was said found no session holding them all.
   */
  foundIn?: "work";
  /**
   * The sub-agent whose hit put this (its parent) session here, with the
   * sub-agent's snippets.
   */
  viaSubagent?: string;
  /** Score parts, with `explain`. */
  explain?: ScoreParts;
}

/** One step of the ladder as it ran. */
export interface LadderStep {
  /** The tier. */
  tier: SearchTier;
  /** What it searched, e.g. `pin AND redis AND client`. */
  searched: string;
  /** Sessions it found. */
  sessions: number;
  /** What it changed: the words dropped, the forms added, the correction. */
  note?: string;
}

/** How the query was read. */
export interface QueryReading {
  /** The ask searched on first. */
  ask: string;
  /** Terms searched, in budget order. */
  terms: string[];
  /** Stop words dropped. */
  dropped: string[];
  /** Terms past the budget, the first 20 (a pasted log has thousands). */
  overBudget: string[];
  /** How many terms were past the budget, when more than are listed. */
  overBudgetCount?: number;
  /** A time window said in words. */
  time?: { from: string; to: string; phrase: string };
  /** A clause naming what is not meant (", not the long one"), not searched. */
  notMeant?: string;
}

/** A search answer. */
export interface SearchResult {
  /** The query as given. */
  query: string;
  /** Matching sessions, best first. */
  results: SearchHit[];
  /** How many sessions matched in all. */
  total: number;
  /**
   * True when `total` is only a floor: a regular expression is scanned
   * until the page is full, so sessions past it may match too.
   */
  totalAtLeast?: boolean;
  /** Why nothing matched, or what was loosened to find something. */
  why?: string;
  /** How the query was read (absent for regular expressions). */
  reading?: QueryReading;
  /** The ladder's steps as they ran. */
  ladder?: LadderStep[];
  /** Words the search ignored to find anything (relaxed tier). */
  ignored?: string[];
  /** The query with never-seen words corrected (fuzzy tier). */
  didYouMean?: string;
}

/**
 * Searches the index.
 *
 * @param db An open index.
 * @param query Words, a question, "quoted phrases", `code`, or a regular
 *   expression with `regex`.
 * @param options Filters, limit, explain and the clock.
 * @returns Sessions best first, with snippets, tiers and the ladder.
 */
export async function search(
  db: Database,
  query: string,
  options: SearchOptions,
): Promise<SearchResult> {
  // One read transaction for the search's few hundred statements: each
  // statement alone takes and drops SQLite's file locks (a thousand system
  // calls a question), and the answer reads one snapshot of the index. A
  // search already inside one (another on the same connection) joins it.
  const own = !db.isTransaction;
  if (own) db.exec("BEGIN");
  try {
    const found = await searchNamed(db, query, options);
    return withParents(
      db,
      inOrderAsked(query, await describedFirst(db, query, found, options)),
      options,
    );
  } finally {
    if (own && db.isTransaction) db.exec("COMMIT");
  }
}

/**
 * "The very first question I put to aider", "the latest attempt": the
 * closest matches ordered by when they ran, said in the ladder.
 */
function inOrderAsked(query: string, found: SearchResult): SearchResult {
  const asked = ordinalAsked(query);
  const ordered = asked && ordinalOrder(found.results, asked);
  if (!ordered) return found;
  return {
    ...found,
    results: ordered.order,
    ladder: [
      ...(found.ladder ?? []),
      {
        tier: ordered.order[0]!.tier,
        searched: `the closest matches, ${
          asked === "first" ? "oldest" : "newest"
        } first`,
        sessions: ordered.close,
        note: `the query asks for the ${asked} one`,
      },
    ],
  };
}

/** The search, with a named agent's or project's sessions first. */
async function searchNamed(
  db: Database,
  query: string,
  options: SearchOptions,
): Promise<SearchResult> {
  // "What did codex change in the parser?": that agent's sessions first,
  // and the agent's name is no word to search the others for.
  const named = options.harnesses?.length || options.regex
    ? undefined
    : agentNamed(query);
  const text = named ? named.rest : query;
  // "Where is logout handled in the club dashboard?": that project's
  // sessions first, searched for the rest (its name is a directory's, rarely
  // in what was said).
  const project = options.project || options.regex
    ? undefined
    : projectNamed(db, text);
  // "What did Caroline paint?" asked of every project: a name only one
  // project's sessions say, and most of them, stands for that project;
  // asked of one project holding many people's chats, the sessions saying
  // the people's names go first. (A query with no capital past its first
  // letter names no one: not read twice.)
  const names = options.project || options.regex || project ||
      text.slice(1) === text.slice(1).toLowerCase()
    ? []
    : understandQuery(text, { now: options.now }).terms
      .filter((t) => t.proper).map((t) => t.text);
  const owner = names.length ? projectOfName(db, names) : undefined;
  const people = owner || !names.length || options.saying?.length
    ? []
    : peopleNamed(db, names);
  let out = await searchSaidThenWork(db, text, options);
  // The question run again in a narrower scope, its hits first.
  const narrowedFirst = async (
    scope: Pick<SearchOptions, "project" | "saying">,
    step: { searched: string; note: string },
  ) => {
    const its = await searchSaidThenWork(db, text, {
      ...options,
      ...(named ? { harnesses: named.harnesses } : {}),
      ...scope,
    });
    if (its.results.length) {
      out = placeFirst(db, out, its, its.total, options, step);
    }
  };
  if (people.length) {
    // Each person, or whom their chats are with: one side's name may be said
    // only by the other side.
    const saying = people.map((p) => {
      const partner = partnerOf(db, p);
      return partner ? [p, partner] : p;
    });
    await narrowedFirst({ saying }, {
      searched: `${text} in the sessions saying ${
        saying.map((s) => typeof s === "string" ? s : s.join(" or ")).join(
          " and ",
        )
      }`,
      note:
        "the question names people these chats speak with: the sessions saying their names first",
    });
  }
  if (owner) {
    await narrowedFirst({ project: owner }, {
      searched: `${text} in project ${owner}`,
      note:
        "the question names someone or something only this project's sessions say: its sessions first",
    });
  }
  if (!named && !project) return out;
  out.query = query;
  if (named) {
    const theirs = await searchSaidThenWork(db, named.rest, {
      ...options,
      harnesses: named.harnesses,
    });
    const elsewhere = outranksNamed(
      db,
      () => understandQuery(named.rest, { now: options.now }),
      out,
      theirs,
      named.harnesses,
    );
    if (theirs.results.length) {
      out = placeFirst(db, out, theirs, theirs.total, options, {
        searched: `${named.rest} in ${named.harnesses.join(", ")} sessions`,
        note: "the query names an agent: its sessions first",
      });
    }
    if (elsewhere) {
      out = placeFirst(db, out, hitsOnly([elsewhere]), 1, options, {
        searched: `${named.rest} in every agent's sessions`,
        note:
          "another agent's session holds the words far better: the agent named may be misremembered",
      });
    }
  }
  if (project) {
    const its = await searchSaidThenWork(db, project.rest, {
      ...options,
      ...(named ? { harnesses: named.harnesses } : {}),
      project: project.project,
    });
    // Unless the rest's words only loosely meet in its sessions while the
    // whole question's best answer, in another project, says the name: a
    // project's name is also what others call the service ("the staging
    // shop-api health check", set in the infrastructure repository).
    const first = its.results[0];
    const top = out.results[0];
    const elsewhere = first?.tier === "relevance" && top &&
      top.session.project.toLowerCase() !== project.project.toLowerCase() &&
      saysName(db, sessionRowid(db, top.session), project);
    if (first && !elsewhere) {
      out = placeFirst(db, out, its, its.total, options, {
        searched: `${project.rest} in project ${project.project}`,
        note: "the query names a project: its sessions first",
      });
    }
  }
  return out;
}

/**
 * How much better another agent's session must match than the best of the
 * agent a query names to go before them: people misremember which agent
 * did the work ("was it claude code where I got the unsubscribe button…"
 * of a crush session), but a name said on purpose still decides a close
 * call.
 */
const NAMED_AGENT_DOUBT = 1.5;

/**
 * ... or, holding the words in a stricter tier than any of the named
 * agent's sessions, this share of the best one's score.
 */
const NAMED_AGENT_STRICT_SHARE = 0.9;

/**
 * ... or, scoring {@linkcode NAMED_AGENT_UNSAID_SHARE} as much or more,
 * this many of the question's words it holds that no session of the agent
 * named does ("supabase", "mongoose" of a zed thread asked of cursor).
 */
const NAMED_AGENT_UNSAID = 2;
/** See {@linkcode NAMED_AGENT_UNSAID}. */
const NAMED_AGENT_UNSAID_SHARE = 0.8;

/**
 * The best hit of every agent's sessions when it is another agent's and
 * matches the query far better than the best of the agent named: it holds
 * the words in a stricter tier at {@linkcode NAMED_AGENT_STRICT_SHARE} of
 * its score or more, scores {@linkcode NAMED_AGENT_DOUBT} times as much,
 * or holds {@linkcode NAMED_AGENT_UNSAID} words the agent named never
 * said.
 */
function outranksNamed(
  db: Database,
  understood: () => UnderstoodQuery,
  all: SearchResult,
  theirs: SearchResult,
  harnesses: readonly string[],
): SearchHit | undefined {
  const top = all.results[0];
  if (!top || harnesses.includes(top.session.harness)) return undefined;
  const mine = theirs.results[0];
  if (!mine) return top;
  const stricter = top.tier !== "relevance" && mine.tier === "relevance";
  return (stricter && top.score >= NAMED_AGENT_STRICT_SHARE * mine.score) ||
      top.score >= NAMED_AGENT_DOUBT * mine.score ||
      (top.score >= NAMED_AGENT_UNSAID_SHARE * mine.score &&
        unsaidByAgent(db, understood(), top, harnesses) >= NAMED_AGENT_UNSAID)
    ? top
    : undefined;
}

/**
 * How many of a question's words a hit's session holds (said or printed)
 * that no session of the given agents holds.
 */
function unsaidByAgent(
  db: Database,
  q: UnderstoodQuery,
  hit: SearchHit,
  harnesses: readonly string[],
): number {
  const rowid = sessionRowid(db, hit.session);
  if (rowid === undefined) return 0;
  const agents = harnesses.map(() => "?").join(",");
  const visible = scopeTotals(db, "s.hidden = 0", []).n;
  let unsaid = 0;
  for (
    const t of q.terms.filter((t) =>
      t.weight >= 1 && !t.optional && t.kind !== "cjk"
    ).slice(0, 12)
  ) {
    const expr = termExpression(t);
    if (!sessionHolds(db, rowid, expr)) continue;
    const theirs = FTS_TABLES.some((table) =>
      prepared(
        db,
        `SELECT 1 FROM ${table} WHERE ${table} MATCH ? AND rowid / ${RECORD_SLOTS} IN (SELECT rowid FROM sessions WHERE harness IN (${agents})) LIMIT 1`,
      ).get(expr, ...harnesses) !== undefined
    );
    if (theirs) continue;
    // A word many sessions hold ("question") says nothing of which agent
    // did the work.
    const holding = (prepared(
      db,
      `SELECT count(*) AS n FROM (SELECT rowid / ${RECORD_SLOTS} FROM fts_speech WHERE fts_speech MATCH ? UNION SELECT rowid / ${RECORD_SLOTS} FROM fts_work WHERE fts_work MATCH ?)`,
    ).get(expr, expr) as { n: number }).n;
    if (holding <= Math.max(UNSAID_FEW, UNSAID_SHARE * visible)) {
      unsaid++;
    }
  }
  return unsaid;
}

/** Both full-text tables: what was said and what tools printed. */
const FTS_TABLES = ["fts_speech", "fts_work"] as const;

/** Whether a session holds a term, said or printed (a first match each). */
function sessionHolds(db: Database, rowid: number, expr: string): boolean {
  const from = rowid * RECORD_SLOTS;
  return FTS_TABLES.some((table) =>
    prepared(
      db,
      `SELECT 1 FROM ${table} WHERE ${table} MATCH ? AND rowid >= ? AND rowid < ? LIMIT 1`,
    ).get(expr, from, from + RECORD_SLOTS) !== undefined
  );
}

/**
 * The share of all sessions a word may be held by to tell agents apart
 * (and any word this few sessions hold does).
 */
const UNSAID_SHARE = 0.1;
const UNSAID_FEW = 3;

/**
 * A question describing a session rather than naming its words: one that
 * was only a greeting ("the amp thread where I just said hi", "I asked it
 * how it was doing and never got a reply") or one word ("all I typed was
 * the word shell"), or one where the agent's model call failed ("every
 * message failed because my credit had run dry", "it told me to log in
 * again"). Its words are in no record, so the sessions it describes come
 * first, those that fit what it says (the agent, the greeting, its
 * language, a reply or none, the time) ahead. A search whose words some
 * session holds together keeps its order.
 */
async function describedFirst(
  db: Database,
  query: string,
  found: SearchResult,
  options: SearchOptions,
): Promise<SearchResult> {
  if (options.regex || options.roles?.length) return found;
  // "— not the one where I only said hi": the session set aside is not
  // the one described.
  let asked = query;
  for (const clause of found.reading?.notMeant?.split("; ") ?? []) {
    asked = asked.replace(clause, " ");
  }
  const greeting = greetingAsked(asked);
  const failure = greeting ? undefined : failureAsked(asked);
  if (!greeting && !failure) return found;
  const top = found.results[0];
  // Two words or more said together in one session answer it ("I just
  // said hi about the login page"); one word ("what I needed") does not.
  if (
    top?.tier === "exact" && !found.ignored?.length &&
    (found.reading?.terms.length ?? 0) >= 2
  ) return found;
  // A failure is described in the person's words, few of which the session
  // holds: a question some session holds in its own words (all of them, or
  // all but one) is about that session.
  if (
    failure && top &&
    (top.tier === "exact" ||
      (top.tier !== "relevance" && (found.ignored?.length ?? 0) <= 1))
  ) return found;
  const named = options.harnesses?.length ? undefined : agentNamed(query);
  const scope = {
    ...options,
    ...(named ? { harnesses: named.harnesses } : {}),
  };
  const rowids = found.results.map((h) => sessionRowid(db, h.session));
  const rankOf = (s: number) => {
    const at = rowids.indexOf(s);
    return at < 0 ? Infinity : at;
  };
  const understood = understandQuery(query, { now: options.now });
  const order = async <T extends DescribedSession>(
    candidates: readonly T[],
    misfit: (s: T) => number,
  ) => {
    const held = await wordsHeld(db, candidates, understood);
    return orderByFit(
      candidates,
      misfit,
      understood.time,
      rankOf,
      (s) => held.get(s) ?? 0,
    );
  };
  const described: DescribedSession[] = greeting
    ? await order(
      greetingSessions(db, scope, greeting.typed),
      greetingMisfit(greeting),
    )
    : await order(await failedSessions(db, scope, failure!), () => 0);
  if (described.length === 0) return found;
  // They rank first, and say so: a reader that drops hits far below the
  // best score (the recall answer's loose hits) keeps them.
  const score = Math.max(0, ...found.results.map((h) => h.score)) || 1;
  const shown = described.slice(
    0,
    options.all ? undefined : options.limit ?? 10,
  );
  const rows = loadSessions(db, shown.map((g) => g.session));
  const marks = loadMarks(db, shown.map((g) => g.session));
  const hits: SearchHit[] = [];
  for (const g of shown) {
    const row = rows.get(g.session);
    if (!row) continue;
    // A greeting's few records; a failure's prompt and error output.
    const records = prepared(
      db,
      greeting
        ? "SELECT * FROM records WHERE session = ? ORDER BY seq LIMIT ?"
        : `SELECT * FROM records WHERE session = ? AND (role = 'user' OR (role = 'tool-output' AND (flags & ${FLAG.isError}) != 0)) ORDER BY seq LIMIT ?`,
    ).all(g.session, options.snippets ?? 3) as unknown as RecordRow[];
    const snippets: Snippet[] = [];
    for (const r of records) {
      snippets.push(
        snippetOf(await recordOf(r), row, [], marks.get(g.session) ?? []),
      );
    }
    hits.push({
      session: sessionInfoOf(row),
      score,
      snippets,
      tier: "relevance",
    });
  }
  if (hits.length === 0) return found;
  return placeFirst(db, found, hitsOnly(hits), described.length, options, {
    searched: failure
      ? `sessions whose model calls failed (${failure})`
      : greeting!.typed === undefined
      ? "sessions whose every prompt is a greeting"
      : `sessions whose every prompt is "${greeting!.typed}"`,
    note: failure
      ? "the question describes a failed model call: sessions whose error output is of that kind first"
      : greeting!.typed === undefined
      ? "the question describes a session that was only a greeting: those sessions first"
      : "the question says what was all that was typed: those sessions first",
  });
}

/** Most candidates whose records are read for the words they hold. */
const HELD_CANDIDATES = 50;

/**
 * How many of a query's terms each of a few sessions holds in any of its
 * records (say, print or run): what tells two greeting-only twins apart
 * ("it told me to log in again" is the one that printed `/login`). The
 * sessions a description finds are small; 200 records each at most.
 */
async function wordsHeld(
  db: Database,
  candidates: readonly DescribedSession[],
  q: UnderstoodQuery,
): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  if (candidates.length > HELD_CANDIDATES || q.terms.length === 0) return out;
  const forms = q.terms.map((t, i) =>
    termForm(
      i,
      [t.text, ...t.alternatives, ...(t.things ?? [])],
      t.kind === "word" ? t.text : undefined,
    )
  );
  for (const c of candidates) {
    const rows = prepared(
      db,
      "SELECT * FROM records WHERE session = ? ORDER BY seq LIMIT 200",
    ).all(c.session) as unknown as RecordRow[];
    const terms = new Set<number>();
    for (const row of rows) {
      const rec = await recordOf(row);
      for (const m of findMatches(rec.text, forms)) terms.add(m.term);
    }
    out.set(c.session, terms.size);
  }
  return out;
}

/**
 * Every session a search matched (index rowid to its relevance before the
 * signals, which only the first few get, when the ranking gave one), past
 * the page it shows: what the count of matching sessions is taken from,
 * whatever the limit.
 */
const matchedOf = new WeakMap<
  SearchResult,
  ReadonlyMap<number, number | undefined>
>();

/** The sessions a result matched (those it shows, when it kept no set). */
function matchedSessions(
  db: Database,
  result: SearchResult,
): Map<number, number | undefined> {
  const known = matchedOf.get(result);
  if (known) return new Map(known);
  const out = new Map<number, number | undefined>();
  for (const hit of result.results) {
    const rowid = sessionRowid(db, hit.session);
    if (rowid !== undefined) out.set(rowid, undefined);
  }
  return out;
}

/** Keeps the union of two results' matched sessions with the merged one. */
function mergeMatched(
  db: Database,
  merged: SearchResult,
  ...from: SearchResult[]
): SearchResult {
  const all = new Map<number, number | undefined>();
  for (const r of from) {
    for (const [s, score] of matchedSessions(db, r)) {
      if (!all.has(s) || all.get(s) === undefined) all.set(s, score);
    }
  }
  matchedOf.set(merged, all);
  return merged;
}

/** Hits as a result of their own (their sessions are what it matched). */
function hitsOnly(results: SearchHit[]): SearchResult {
  return { query: "", results, total: results.length };
}

/** Past this many matched sessions the count is not folded by session. */
const COUNT_CAP = 5000;

/**
 * How many sessions a list of matches shows as, as the page lists them: a
 * session written to two files once, copies ({@linkcode copyKey}) once,
 * and a sub-agent's parent session beside it though the parent did not
 * match.
 */
function shownCount(
  db: Database,
  sessions: ReadonlyMap<number, number | undefined>,
): number {
  if (sessions.size > COUNT_CAP) return sessions.size;
  // A session a harness wrote to two files counts once; the sub-agents'
  // parents come with the count (kept per connection, as the index's
  // other facts about sessions are).
  const keys = new Set<string>();
  const parents = new Set<string>();
  for (const [key, parent] of sessionIdentities(db, sessions.keys()).values()) {
    keys.add(key);
    if (parent !== null) parents.add(parent);
  }
  let count = keys.size;
  // Copies: only sessions whose relevance another one shares can be one.
  const byScore = new Map<string, number[]>();
  for (const [rowid, score] of sessions) {
    if (score === undefined) continue;
    const key = score.toFixed(6);
    const list = byScore.get(key);
    if (list) list.push(rowid);
    else byScore.set(key, [rowid]);
  }
  const tied = [...byScore.values()].filter((l) => l.length > 1).flat();
  if (tied.length) {
    const rows = loadSessions(db, tied);
    const groups = new Map<string, Set<string>>();
    for (const rowid of tied) {
      const row = rows.get(rowid);
      if (!row) continue;
      const copy = copyKey(row, sessions.get(rowid)!);
      const group = groups.get(copy) ?? new Set<string>();
      group.add(`${row.harness}\n${row.id}`);
      groups.set(copy, group);
    }
    for (const group of groups.values()) count -= group.size - 1;
  }
  // A sub-agent's parent is shown beside it though it did not match.
  const roots = new Set<string>();
  for (const key of parents) {
    const [harness, parent] = key.split("\n", 2) as [string, string];
    const root = rootOf(db, harness, parent);
    if (root && !sessions.has(root.rowid)) {
      roots.add(`${root.harness}\n${root.id}`);
    }
  }
  return count + roots.size;
}

/**
 * Each session once (one written to two files keeps its best place), and a
 * sub-agent's hit followed by its parent session (unless the parent
 * ranks above it already): the parent is what a person resumes and knows
 * the work by, and the sub-agent ran inside it. The parent carries the
 * sub-agent's snippets and `viaSubagent`; the page stays `limit` long.
 */
function withParents(
  db: Database,
  result: SearchResult,
  options: SearchOptions,
): SearchResult {
  const limit = options.all ? Infinity : options.limit ?? 10;
  const key = (s: SessionInfo) => `${s.harness}\n${s.id}`;
  const out: SearchHit[] = [];
  // A session a harness wrote to two files (a chat and its transcript) is
  // shown once, where it ranks best.
  const placed = new Set<string>();
  for (const hit of result.results) {
    if (placed.has(key(hit.session))) continue;
    out.push(hit);
    placed.add(key(hit.session));
    const row = hit.session.lineage === "subagent" && hit.session.parent
      ? rootOf(db, hit.session.harness, hit.session.parent)
      : undefined;
    const parentId = row?.id;
    if (
      !row || !parentId || placed.has(`${hit.session.harness}\n${parentId}`)
    ) {
      continue;
    }
    // The parent matched on its own further down: moved up, its snippets
    // kept.
    const own = result.results.find((h) =>
      h.session.harness === hit.session.harness && h.session.id === parentId
    );
    if (own) {
      out.push({ ...own, viaSubagent: hit.session.id });
      placed.add(key(own.session));
      continue;
    }
    const parent: SearchHit = {
      session: sessionInfoOf(row),
      score: hit.score,
      snippets: hit.snippets,
      tier: hit.tier,
      viaSubagent: hit.session.id,
    };
    out.push(parent);
    placed.add(key(parent.session));
  }
  // A page shorter than the limit shows every match; a full one is counted
  // over every session matched, folded as the page folds them, so the
  // count does not change with --limit.
  const total = result.results.length < limit
    ? out.length
    : Math.max(out.length, shownCount(db, matchedSessions(db, result)));
  return { ...result, results: out.slice(0, limit), total };
}

/** Sub-agents started by sub-agents, followed up at most this far. */
const MAX_AGENT_DEPTH = 8;

/**
 * The session a sub-agent's chain of parents ends at (an agent an agent
 * started names that agent): the one a person resumes. Undefined when a
 * link is missing or hidden.
 */
function rootOf(
  db: Database,
  harness: string,
  parent: string,
): SessionRow | undefined {
  const find = prepared(
    db,
    "SELECT * FROM sessions WHERE harness = ? AND id = ? AND hidden = 0 ORDER BY updated DESC LIMIT 1",
  );
  let id: string | null = parent;
  for (let depth = 0; id && depth < MAX_AGENT_DEPTH; depth++) {
    const row = find.get(harness, id) as SessionRow | undefined;
    if (!row) return undefined;
    if (row.lineage !== "subagent") return row;
    id = row.parent;
  }
  return undefined;
}

/**
 * `base` with `first` put ahead of its own hits (each session once), and
 * the ladder step that found them; `why` goes, since something was found.
 */
function placeFirst(
  db: Database,
  base: SearchResult,
  first: SearchResult,
  found: number,
  options: SearchOptions,
  step: { searched: string; note: string },
): SearchResult {
  const limit = options.all ? Infinity : options.limit ?? 10;
  const key = (h: SearchHit) =>
    `${h.session.harness}\n${h.session.path}\n${h.session.id}`;
  const seen = new Set(first.results.map(key));
  const rest = base.results.filter((h) => !seen.has(key(h)));
  const out: SearchResult = {
    ...base,
    results: [...first.results, ...rest].slice(0, limit),
    total: first.results.length + rest.length,
    ladder: [
      ...(base.ladder ?? []),
      { tier: first.results[0]!.tier, sessions: found, ...step },
    ],
  };
  delete out.why;
  return mergeMatched(db, out, base, first);
}

/** Searches what was said, then (when that falls short) work records. */
async function searchSaidThenWork(
  db: Database,
  query: string,
  options: SearchOptions,
): Promise<SearchResult> {
  const chosen = options.roles?.length || options.regex;
  const understood = options.regex
    ? undefined
    : understandQuery(query, { now: options.now });
  // Why nothing was said waits until the work records are searched too.
  const said = await searchRoles(db, query, understood, options, !!chosen);
  if (chosen || !understood) return said;
  breakTiesByWordsHeld(db, said, understood);
  const nothing = async () =>
    said.results.length
      ? said
      : await searchRoles(db, query, understood, options, true);
  // Nothing said holds every word: an error message, a command or a
  // compaction summary may live only in work records. Sessions whose work
  // records hold them all come before what matched only in part.
  const wholeQuery = lookInWork(said, understood) &&
    workHoldsAll(db, understood);
  // A question (or a query no work record holds whole) naming something no
  // one ever said, only printed or run (an error code, a flag, a function):
  // sessions whose work records hold it come first.
  const onlyInWork = wholeQuery ? [] : termsOnlyInWork(db, understood);
  if (!wholeQuery && onlyInWork.length === 0) {
    // Keywords no message holds together: a session may say some and
    // print the rest. So may the answer to a question nothing said holds
    // whole (no exact tier): a few lines a tool printed ("which region was
    // vertex looking in when the model came back not found?").
    const question = asksAQuestion(understood);
    if (
      lookInWork(said, understood) ||
      (question && understood.time === undefined &&
        said.results[0]?.tier !== "exact")
    ) {
      const both = await searchRoles(db, query, understood, {
        ...options,
        roles: ROLES,
        limit: WORK_HITS,
        all: false,
      }, false);
      const seen = new Set(said.results.map((h) => h.session.id));
      const extra = both.results.filter((h) => !seen.has(h.session.id));
      if (!said.results.length && extra.length) {
        // Nothing said holds any of the words (or their corrections):
        // what was printed or run is the answer.
        for (const h of extra) h.foundIn = "work";
        return placeFirst(db, said, hitsOnly(extra), extra.length, options, {
          searched: `${both.ladder?.[0]?.searched ?? query} in all records`,
          note:
            "nothing said holds the words; tool output, commands or summaries do",
        });
      }
      // Nothing said holds them together either: sessions whose messages
      // and output hold the words more together, or clearly better, come
      // first ("ollama wanted 5.7 GiB and gave up after 600 seconds" is
      // what a run printed; "the agent taskkilled my exe" what it ran).
      // A question's answer in what a tool printed is a few lines holding
      // three of its words or more, not words scattered over a long log.
      const better = heldBetter(
        both.results,
        said.results,
        question ? 3 : 0,
        RANK.scatterLength *
          (scopeTotals(db, "s.hidden = 0", []).mean ?? Infinity),
      );
      if (said.results.length && (extra.length || better.length)) {
        const limit = options.all ? Infinity : options.limit ?? 10;
        // Nothing said falls in the time asked for: sessions of that time
        // whose records hold the words come before what was said.
        const then = understood.time === undefined
          ? []
          : extra.filter(saidInWindow(both));
        const ahead = better.filter((h) => !then.includes(h));
        // Put before what was said for what their output holds.
        for (const h of [...then, ...ahead]) h.foundIn = "work";
        const moved = new Set(ahead.map((h) => h.session.id));
        const rest = extra.filter((h) =>
          !then.includes(h) && !moved.has(h.session.id)
        );
        const kept = said.results.filter((h) => !moved.has(h.session.id));
        // What said far less than the best of it goes after them, and so
        // does all but the first few of what said more.
        const cut = (said.results[0]?.score ?? 0) * WEAK_SHARE;
        const weak = (h: SearchHit) => h.score < cut;
        const strong = kept.filter((h) => !weak(h));
        return mergeMatched(
          db,
          {
            ...said,
            results: [
              ...then,
              ...ahead,
              ...strong.slice(0, SAID_AHEAD),
              ...rest,
              ...strong.slice(SAID_AHEAD),
              ...kept.filter(weak),
            ].slice(0, limit),
            total: said.total + extra.length,
            ladder: [...(said.ladder ?? []), {
              tier: (then[0] ?? ahead[0] ?? extra[0])!.tier,
              searched: `${both.ladder?.[0]?.searched ?? query} in all records`,
              sessions: then.length + ahead.length + rest.length,
              note: then.length
                ? "before what was said: sessions from the time asked for whose messages and output hold the words"
                : ahead.length
                ? "before what was said: sessions whose messages and output hold the words best"
                : "after what was said: sessions that say some words and print the rest",
            }],
          },
          said,
          hitsOnly(extra),
        );
      }
    }
    return nothing();
  }
  const workQuery = wholeQuery ? understood : {
    ...understood,
    terms: understood.terms.map((t) =>
      onlyInWork.includes(t) ? t : { ...t, optional: true }
    ),
  };
  // The sessions holding the names may rank below others that only match
  // the question's other words: read further down for them.
  const work = await searchRoles(
    db,
    query,
    workQuery,
    {
      ...options,
      roles: WORK_ROLES,
      limit: wholeQuery ? WORK_HITS : WORK_HITS * 4,
      all: false,
    },
    false,
  );
  const found = work.results.filter((h) => h.tier !== "relevance")
    .slice(0, WORK_HITS);
  if (found.length === 0) return nothing();
  for (const h of found) h.foundIn = "work";
  return placeFirst(db, said, hitsOnly(found), found.length, options, {
    searched: `${work.ladder?.[0]?.searched ?? query} in work records`,
    note: wholeQuery
      ? "nothing said holds every word; tool output, commands or summaries do"
      : `only tool output, commands or summaries hold ${
        onlyInWork.map(label).join(", ")
      }`,
  });
}

/**
 * How much better, over messages and output together, a session that said
 * too little must match than the best of those that said more, to go
 * before them.
 */
const WORK_LEAD = 1.15;

/**
 * The same for a question none of the speech matches holds: what was said
 * answers most questions, so what tools printed must lead by more.
 */
const QUESTION_LEAD = 1.3;

/**
 * Of a search over every role, the sessions that match there clearly
 * better (`WORK_LEAD`) than the first of `said`, when that one holds not
 * every word in what was said, and match every word or in its tier (or,
 * when that one only matched in part, in any stricter tier, for a session
 * under `longAt` records: a long session's output holds most words
 * somewhere); or, when that one only matched in part, those none of
 * `said` holds that match clearly better than every one of `said`. Not a
 * sub-agent's: a compaction helper replays its parent's whole output. Only
 * a session showing `together` of the query's words in one window of what
 * a tool printed or ran (a question's).
 */
function heldBetter(
  all: readonly SearchHit[],
  said: readonly SearchHit[],
  together: number,
  longAt = Infinity,
): SearchHit[] {
  const first = said[0];
  if (!first) return [];
  const ids = new Set(said.map((h) => h.session.id));
  const scores = all.filter((h) => ids.has(h.session.id)).map((h) => h.score);
  const best = Math.max(0, ...scores);
  const firstScore =
    all.find((h) => h.session.id === first.session.id)?.score ?? 0;
  return all.filter((h) =>
    h.session.lineage !== "subagent" && h.session.id !== first.session.id &&
    printedTogether(h, together) &&
    (first.tier !== "exact" &&
        (h.tier === "exact" || h.tier === first.tier ||
          (first.tier === "relevance" && h.session.records < longAt)) &&
        h.score >= firstScore * WORK_LEAD ||
      first.tier === "relevance" && !ids.has(h.session.id) &&
        h.score >= best * (together > 0 ? QUESTION_LEAD : WORK_LEAD))
  );
}

/**
 * Whether a hit shows `n` or more of the query's words in one window of
 * what a tool printed or ran (always, for no words).
 */
function printedTogether(hit: SearchHit, n: number): boolean {
  return n === 0 ||
    hit.snippets.some((sn) =>
      sn.role !== "user" && sn.role !== "assistant" &&
      new Set(sn.ranges.map(([a, b]) => sn.text.slice(a, b).toLowerCase()))
          .size >= n
    );
}

/** Hits this close to the first one's score may be a tie speech cannot break. */
const NEAR_TIE = 0.02;

/**
 * The first hits what was said cannot tell apart (the same best snippet,
 * within 2% of the first one's score, at most five): those holding more of
 * the query's words anywhere — what was said or what tools printed — go
 * first. Two chats that said only the same greeting, one of which printed
 * the error asked about; two that pasted the same error, one of which went
 * on to say what the question adds.
 */
function breakTiesByWordsHeld(
  db: Database,
  result: SearchResult,
  q: UnderstoodQuery,
): void {
  const hits = result.results;
  const top = hits[0]?.score ?? 0;
  let tied = 1;
  const said = (h: SearchHit) => h.snippets[0]?.text;
  while (
    tied < Math.min(hits.length, 5) &&
    hits[tied]!.score >= top * (1 - NEAR_TIE) &&
    said(hits[tied]!) === said(hits[0]!)
  ) tied++;
  const terms = q.terms.slice(0, 12).filter((t) =>
    !t.optional && t.kind !== "cjk"
  );
  if (tied < 2 || top <= 0 || terms.length === 0) return;
  const held = hits.slice(0, tied).map((h) => {
    const rowid = sessionRowid(db, h.session);
    if (rowid === undefined) return 0;
    return terms.filter((t) => sessionHolds(db, rowid, termExpression(t)))
      .length;
  });
  if (held.every((n) => n === held[0])) return;
  const order = held.map((n, i) => ({ n, i })).sort((a, b) =>
    b.n - a.n || a.i - b.i
  );
  result.results = [...order.map((o) => hits[o.i]!), ...hits.slice(tied)];
}

/**
 * The names in a query (identifiers, quoted text, compounds — not plain
 * words or words joined by a hyphen or dot, such as "sub-agent" or
 * "next.js", which a tool's output may happen to hold) that no speech record
 * holds but some work record does: the whole index, whatever the filters,
 * a first-match probe each.
 */
function termsOnlyInWork(db: Database, q: UnderstoodQuery): QueryTerm[] {
  return q.terms.slice(0, 30).filter((t) => {
    if (t.optional || t.plain || (t.kind !== "code" && t.kind !== "phrase")) {
      return false;
    }
    const expression = termExpression(t);
    return !matchesAny(db, "fts_speech", expression) &&
      matchesAny(db, "fts_work", expression);
  });
}

/**
 * Whether one work record holds every word of the query: a cheap look (one
 * FTS5 intersection, first match only) before a whole search of them.
 */
function workHoldsAll(db: Database, q: UnderstoodQuery): boolean {
  const terms = q.terms.slice(0, 30);
  return terms.length > 0 &&
    matchesAny(
      db,
      "fts_work",
      terms.map((t) => termExpression(t)).join(" AND "),
    );
}

/**
 * A session whose speech scores under this share of the best one's goes
 * after the sessions that say some words and print the rest.
 */
const WEAK_SHARE = 0.5;

/**
 * Speech hits that stay before the sessions that say some words and print
 * the rest; the others, however close, go after them.
 */
const SAID_AHEAD = 3;

/** Most sessions a search of work records adds to what was said. */
const WORK_HITS = 5;

/**
 * Whether to look in work records too: nothing said matched at all, or a
 * query given as words to find (an error message, a command; not a question
 * or a time) found no session that said every one of them as typed.
 */
function lookInWork(result: SearchResult, q: UnderstoodQuery): boolean {
  if (result.results.length === 0) return true;
  // A time said in words that nothing said falls in: what happened then
  // may only have been printed ("last month claude said my api key was
  // invalid" is an error the agent showed, not a message).
  if (q.time !== undefined) return !result.results.some(saidInWindow(result));
  if (asksAQuestion(q)) return false;
  return !result.results.some((h) => h.tier === "exact");
}

/** Whether a hit's session overlaps the window the search ranked by. */
function saidInWindow(result: SearchResult): (h: SearchHit) => boolean {
  const time = result.reading?.time;
  const from = time ? Date.parse(time.from) : NaN;
  const to = time ? Date.parse(time.to) : NaN;
  return (h) => {
    const start = Date.parse(h.session.started ?? h.session.updated ?? "");
    const end = Date.parse(h.session.updated ?? h.session.started ?? "");
    return !(start >= to) && !(end < from);
  };
}

/**
 * The ladder and ranking over one set of roles. `explainEmpty` says why
 * nothing matched (a few more queries); a search that will look elsewhere
 * first leaves it out.
 */
async function searchRoles(
  db: Database,
  query: string,
  understood: UnderstoodQuery | undefined,
  options: SearchOptions,
  explainEmpty: boolean,
): Promise<SearchResult> {
  // A regular expression is a scan for text anywhere (an error line, a
  // port): every role unless some are named.
  const roles = options.roles?.length
    ? options.roles
    : options.regex
    ? ROLES
    : SPEECH_ROLES;
  if (options.regex || !understood) {
    return regexSearch(db, query, roles, options);
  }
  const reading = readingOf(understood);
  if (understood.terms.length === 0) {
    return {
      query,
      results: [],
      total: 0,
      why: "The query has no words to search for",
      reading,
      ladder: [],
    };
  }
  const retriever = new Retriever(db, roles, options);
  const questionLike = isQuestionLike(understood);
  const limit = options.all ? Infinity : options.limit ?? 10;
  const plan = (!questionLike && !options.all &&
    fastPlan(retriever, understood, Math.max(limit, 10))) ||
    climb(retriever, understood, options.fuzzy ?? true);
  const result: SearchResult = {
    query,
    results: [],
    total: 0,
    reading,
    ladder: plan.ladder,
  };
  if (plan.ignored.length) result.ignored = plan.ignored;
  if (plan.corrected) result.didYouMean = plan.corrected;
  const read = recordReader(db);
  const ranked = await rank(db, retriever, understood, plan, options, read);
  // Say the window the ranking used (a yearless month or "recently" may
  // have moved to where the sessions are).
  if (ranked.window && reading.time) {
    reading.time.from = new Date(ranked.window.from).toISOString();
    reading.time.to = new Date(ranked.window.to).toISOString();
  }
  result.ladder!.push(
    plan.fast
      ? {
        tier: "relevance",
        searched: "-",
        sessions: 0,
        note:
          `skipped: ${plan.strict.size} sessions hold every word in one message`,
      }
      : {
        tier: "relevance",
        searched: plan.terms.map(label).join(" OR "),
        sessions: ranked.relevanceCount,
        note: ranked.strictOnly
          ? "ranked only the sessions holding every word (enough of them)"
          : "IDF-weighted overlap, fused with the strict ranking (RRF)",
      },
  );
  if (ranked.order.length === 0) {
    if (explainEmpty) {
      result.why = whyNoHit(db, retriever, plan, roles, options);
    }
    return result;
  }
  result.total = ranked.order.length;
  matchedOf.set(
    result,
    new Map(ranked.order.map((h) => [h.session, h.rel.relevance])),
  );
  if (plan.ignored.length) {
    result.why = `No session holds every word: ignoring ${
      plan.ignored.map((w) => `"${w}"`).join(", ")
    }`;
  } else if (plan.strict.size === 0 && !questionLike) {
    result.why = `${neverTogether(plan)}: sessions holding some of them`;
  }
  const { top, rows, copies } = distinctTop(db, ranked.order, limit);
  // Copies passed over are no sessions of their own ("9 of 10" would
  // promise one more).
  result.total -= copies;
  const marks = loadMarks(db, top.map((h) => h.session));
  const count = options.snippets ?? 3;
  const shown = new Map(
    top.map((
      h,
    ) => [h.session, withRarest(h.rel.records, h.session, plan, count)]),
  );
  await read.prefetch([...shown.values()].flat());
  result.results = await Promise.all(top.map(async (hit) => {
    const row = rows.get(hit.session)!;
    const snippets: Snippet[] = [];
    for (const rowid of shown.get(hit.session) ?? []) {
      const rec = await read(rowid);
      if (!rec) continue;
      const snippet = snippetOf(
        rec,
        row,
        plan.forms,
        marks.get(hit.session) ?? [],
      );
      // The same command run twice says nothing new the second time.
      if (
        snippets.some((s) => s.role === snippet.role && s.text === snippet.text)
      ) {
        continue;
      }
      snippets.push(snippet);
    }
    const out: SearchHit = {
      session: sessionInfoOf(row),
      score: Math.round(hit.adjusted * 1000) / 1000,
      snippets,
      tier: hit.tier,
    };
    if (options.explain) out.explain = hit.parts();
    return out;
  }));
  return result;
}

/**
 * What makes two sessions copies: the same prompt sent again within the
 * hour makes a session with the same title and the same relevance.
 */
function copyKey(
  row: Pick<SessionRow, "harness" | "project" | "title" | "updated">,
  relevance: number,
): string {
  return `${row.harness}\n${row.project}\n${row.title ?? ""}\n${
    relevance.toFixed(6)
  }\n${Math.floor((row.updated ?? 0) / 3_600_000)}`;
}

/**
 * The best `limit` sessions, leaving out a copy of one already taken (see
 * {@linkcode copyKey}): four of them would fill the page with one answer.
 */
function distinctTop(
  db: Database,
  order: readonly Ranked[],
  limit: number,
): { top: Ranked[]; rows: Map<number, SessionRow>; copies: number } {
  const top: Ranked[] = [];
  const rows = new Map<number, SessionRow>();
  const taken = new Set<string>();
  let copies = 0;
  let from = 0;
  while (top.length < limit && from < order.length) {
    const batch = order.slice(from, from + Math.min(limit * 2, 1000));
    from += batch.length;
    const loaded = loadSessions(db, batch.map((h) => h.session));
    for (const hit of batch) {
      const row = loaded.get(hit.session);
      if (!row) continue;
      const copy = copyKey(row, hit.rel.relevance);
      if (taken.has(copy)) {
        copies++;
        continue;
      }
      taken.add(copy);
      top.push(hit);
      rows.set(hit.session, row);
      if (top.length === limit) break;
    }
  }
  return { top, rows, copies };
}

/** Over-budget terms a reading lists, at most. */
const OVER_BUDGET_SHOWN = 20;

/** Reads a record once per search, however many signals and snippets ask. */
export type RecordReader =
  & ((
    rowid: number,
  ) => Promise<StoredRecord | undefined>)
  & {
    /** Reads these records in one query ahead of their use. */
    prefetch(rowids: readonly number[]): Promise<void>;
  };

function recordReader(db: Database): RecordReader {
  const cache = new Map<number, Promise<StoredRecord | undefined>>();
  const read = (rowid: number) => {
    let found = cache.get(rowid);
    if (!found) {
      found = readRecordText(db, rowid);
      cache.set(rowid, found);
    }
    return found;
  };
  return Object.assign(read, {
    async prefetch(rowids: readonly number[]): Promise<void> {
      const missing = rowids.filter((id) => !cache.has(id));
      if (missing.length < 2) return;
      const found = await readRecordTexts(db, missing);
      for (const id of missing) cache.set(id, Promise.resolve(found.get(id)));
    },
  });
}

function readingOf(q: UnderstoodQuery): QueryReading {
  const out: QueryReading = {
    ask: q.ask,
    terms: q.terms.map((t) =>
      t.kind === "phrase"
        ? `"${t.text}"`
        : t.kind === "code"
        ? `\`${t.text}\``
        : t.text
    ),
    dropped: q.dropped,
    overBudget: q.overBudget.slice(0, OVER_BUDGET_SHOWN),
  };
  if (q.overBudget.length > OVER_BUDGET_SHOWN) {
    out.overBudgetCount = q.overBudget.length;
  }
  if (q.notMeant) out.notMeant = q.notMeant;
  if (q.time) {
    out.time = {
      from: new Date(q.time.from).toISOString(),
      to: new Date(q.time.to).toISOString(),
      phrase: q.time.phrase,
    };
  }
  return out;
}

/**
 * A question (stop words dropped, a "?", or four terms and more) gets the
 * relevance tier in full; a keyword query whose words all meet in enough
 * messages is answered from those messages alone.
 */
function isQuestionLike(q: UnderstoodQuery): boolean {
  return asksInWords(q) || q.terms.length >= 4 || q.time !== undefined;
}

/**
 * A name only code holds, typed in the query: an identifier, a dotted or
 * snake_case name, a backticked word (not a plain compound like
 * "sub-agent", not a phrase).
 */
function isCodeName(t: QueryTerm): boolean {
  return t.kind === "code" && !t.plain && t.weight >= 1;
}

/**
 * A question by its shape: it ends with "?" or opens with a question word.
 * Stop words alone do not make one: an error message says "please" and
 * "not" too.
 */
function asksAQuestion(q: UnderstoodQuery): boolean {
  return /\?\s*$/.test(q.ask) || QUESTION_OPENING.test(q.ask);
}

const QUESTION_OPENING =
  /^\W*(what|why|how|when|where|which|who|whom|whose|did|do|does|is|are|was|were|can|could|should|would|will|have|has|had)\b/i;

/** A question put in words (it dropped words, or ends with "?"). */
function asksInWords(q: UnderstoodQuery): boolean {
  return q.dropped.length > 0 || /\?\s*$/.test(q.ask);
}

/**
 * The fast exact tier: FTS5 intersects the terms inside each message; when
 * that already names enough sessions, nothing else is read.
 */
function fastPlan(
  r: Retriever,
  q: UnderstoodQuery,
  enough: number,
): Plan | undefined {
  const terms = q.terms.slice(0, 30);
  const rowids = r.postings(terms.map((t) => termExpression(t)).join(" AND "));
  // Postings descend, so a session's records are one run.
  const fast = new Map<number, number[]>();
  let list: number[] = [];
  let floor = Infinity;
  for (const id of rowids) {
    if (id < floor) {
      const s = sessionOfRecord(id);
      floor = s * RECORD_SLOTS;
      list = [];
      fast.set(s, list);
    }
    list.push(id);
  }
  if (fast.size < enough) return undefined;
  return {
    terms,
    postings: terms.map(() => []),
    forms: terms.map((t, i) =>
      termForm(
        i,
        [t.text, ...t.alternatives, ...(t.things ?? [])],
        t.kind === "word" ? t.text : undefined,
      )
    ),
    required: terms.map(() => true),
    strict: new Set(fast.keys()),
    tier: "exact",
    ladder: [{
      tier: "exact",
      searched: terms.map(label).join(" AND "),
      sessions: fast.size,
      note: "every word in one message",
    }],
    ignored: [],
    unseen: [],
    fast,
  };
}

/** What the ladder settled on. */
interface Plan {
  terms: QueryTerm[];
  /** Postings per term, with the forms the ladder added. */
  postings: number[][];
  /** Forms each term matched in text (for highlights and signals). */
  forms: TermForm[];
  /** Terms the strict ranking requires. */
  required: boolean[];
  /** Sessions holding every required term (or all but the ignored). */
  strict: Set<number>;
  /** The tier of the strict set. */
  tier: SearchTier;
  ladder: LadderStep[];
  ignored: string[];
  corrected?: string;
  /** Terms never seen in the searched records, and corrections tried. */
  unseen: Array<{ term: string; suggestion?: string }>;
  /** Fast tier: each session's records holding every term, descending. */
  fast?: Map<number, number[]>;
}

function covering(
  postings: readonly (readonly number[])[],
  use: readonly boolean[],
): Set<number> {
  return coveringSessions(postings.map((p) => sessionsOf(p)), use);
}

/** The sessions in every used list of sessions. */
function coveringSessions(
  sessions: readonly (readonly number[])[],
  use: readonly boolean[],
): Set<number> {
  const lists = sessions.filter((_, i) => use[i])
    .sort((a, b) => a.length - b.length);
  if (lists.length === 0) return new Set();
  let current = new Set<number>(lists[0]);
  for (const list of lists.slice(1)) {
    if (current.size === 0) break;
    const next = new Set<number>();
    for (const s of list) if (current.has(s)) next.add(s);
    current = next;
  }
  return current;
}

function label(t: QueryTerm): string {
  return t.kind === "phrase" || t.kind === "code" ? `"${t.text}"` : t.text;
}

function joined(terms: readonly QueryTerm[], use: readonly boolean[]): string {
  return terms.filter((_, i) => use[i]).map(label).join(" AND ");
}

/**
 * Runs the ladder's strict tiers: exact, then (when nothing holds every
 * term) relaxed, stemmed and fuzzy, keeping the result that satisfies the
 * most terms.
 */
function climb(
  r: Retriever,
  q: UnderstoodQuery,
  tryFuzzy: boolean,
): Plan {
  const terms = q.terms.slice(0, 30);
  const postings = terms.map((t) => r.postings(termExpression(t)));
  // A word of a title the session was given (a rename, a generated title,
  // a thread name) counts as said in it; a word no record holds is found
  // in titles only.
  const inTitles: string[] = [];
  r.expectTitleWords(
    terms.flatMap((t) => t.kind === "word" ? [t.text] : []),
  );
  terms.forEach((t, i) => {
    if (t.kind !== "word") return;
    const found = r.titled(t.text);
    if (found.length === 0) return;
    const held = postings[i]!;
    if (held.length === 0) {
      postings[i] = found;
      inTitles.push(t.text);
      return;
    }
    const more = found.filter((id) =>
      postingsOf(held, [sessionOfRecord(id)]).length === 0
    );
    if (more.length > 0) {
      postings[i] = [...held, ...more].sort((a, b) => b - a);
    }
  });
  const forms = terms.map((t, i) =>
    termForm(
      i,
      [t.text, ...t.alternatives, ...(t.things ?? [])],
      t.kind === "word" ? t.text : undefined,
    )
  );
  const askOnly = q.long && terms.some((t) => t.weight >= 1);
  const required = terms.map((t) => !t.optional && (!askOnly || t.weight >= 1));
  const need = required.filter(Boolean).length;
  const ladder: LadderStep[] = [];
  const plan: Plan = {
    terms,
    postings,
    forms,
    required,
    strict: covering(postings, required),
    tier: "exact",
    ladder,
    ignored: [],
    unseen: [],
  };
  ladder.push({
    tier: "exact",
    searched: joined(terms, required),
    sessions: plan.strict.size,
    ...(inTitles.length
      ? { note: `${inTitles.join(", ")} only in session titles` }
      : {}),
  });
  if (plan.strict.size > 0 || need === 0) return plan;

  // Relaxed: drop the rarest terms that cannot be satisfied (never seen
  // first), one and then two at a time.
  const relaxed = relax(postings, required, r.scopeSize, named(terms));
  ladder.push({
    tier: "relaxed",
    searched: relaxed
      ? joined(terms, required.map((u, i) => u && !relaxed.drop.includes(i)))
      : joined(terms, required),
    sessions: relaxed?.sessions.size ?? 0,
    note: relaxed
      ? `ignoring ${relaxed.drop.map((i) => label(terms[i]!)).join(", ")}`
      : "no way to drop one or two words finds anything",
  });

  // Stemmed: other forms of the blocking terms.
  const blocking = relaxed
    ? relaxed.drop
    : required.flatMap((u, i) => u ? [i] : []);
  const added: string[] = [];
  for (const i of blocking) {
    const t = terms[i]!;
    const variants = r.variants(t, postings[i]!.length === 0);
    if (variants.length === 0) continue;
    postings[i] = r.postings(termExpression(t, variants));
    forms[i] = termForm(
      i,
      [t.text, ...t.alternatives, ...(t.things ?? []), ...variants],
      t.kind === "word" ? t.text : undefined,
    );
    added.push(`${label(t)} → ${variants.join(" | ")}`);
  }
  const stemmed = added.length
    ? covering(postings, required)
    : new Set<number>();
  ladder.push({
    tier: "stemmed",
    searched: joined(terms, required),
    sessions: stemmed.size,
    note: added.length ? added.join("; ") : "no other forms in the index",
  });
  if (stemmed.size > 0) {
    plan.strict = stemmed;
    plan.tier = "stemmed";
    return plan;
  }

  // Fuzzy: a never-seen word becomes the closest indexed word. A word the
  // index holds outside the filters, or in records of other roles (an error
  // code only tool output printed), is no typo: it is only not said here.
  const fixes: string[] = [];
  const words = terms.map((t) => t.text);
  const elsewhere = FTS_TABLES.filter((
    table: FtsTable,
  ) => r.filtered || !r.tables.includes(table));
  for (const i of blocking) {
    if (postings[i]!.length > 0) continue;
    const t = terms[i]!;
    const expr = termExpression(t);
    if (elsewhere.some((table) => r.anywhere(expr, table))) continue;
    if (t.kind !== "word") {
      const parts = tryFuzzy ? rarestParts(r, t) : undefined;
      plan.unseen.push({
        term: t.text,
        ...(parts ? { suggestion: parts.words.join(" ") } : {}),
      });
      if (!parts) continue;
      postings[i] = parts.postings;
      forms[i] = termForm(i, parts.words, undefined);
      words[i] = parts.words.join(" ");
      fixes.push(`${t.text} → ${parts.words.join(" ")}`);
      continue;
    }
    const s = tryFuzzy ? r.suggest(t.text) : undefined;
    if (!s) {
      plan.unseen.push({ term: t.text });
      continue;
    }
    const found = r.postings(quote(wordForStem(s.term)));
    const surface = r.surfaceOf(s.term, found) ?? s.term;
    plan.unseen.push({ term: t.text, suggestion: surface });
    if (found.length === 0) continue;
    postings[i] = found;
    forms[i] = termForm(i, [s.term, surface], undefined);
    words[i] = surface;
    fixes.push(`${t.text} → ${surface}`);
  }
  const fuzzy = fixes.length ? covering(postings, required) : new Set<number>();
  if (fixes.length) plan.corrected = words.join(" ");
  ladder.push({
    tier: "fuzzy",
    searched: joined(terms, required),
    sessions: fuzzy.size,
    note: fixes.length
      ? `did you mean: ${fixes.join(", ")}`
      : tryFuzzy
      ? "no never-seen word has a close indexed word"
      : "not tried (fuzzy off)",
  });
  if (fuzzy.size > 0) {
    plan.strict = fuzzy;
    plan.tier = "fuzzy";
    return plan;
  }

  // Nothing holds every term in any form: settle for the relaxed set,
  // recomputed with the forms and corrections found on the way.
  const again = relax(postings, required, r.scopeSize, named(terms));
  if (again) {
    plan.strict = again.sessions;
    plan.tier = "relaxed";
    plan.ignored = again.drop.map((i) => terms[i]!.text);
  }
  return plan;
}

/**
 * How much more dropping a name or a quoted phrase costs than a word as
 * rare: a domain, file or identifier the person typed is what the query is
 * about ("haichu.io.vn fetch returned empty" keeps the site and lets two of
 * the words go).
 */
const NAME_DROP_COST = 1.5;

/** Which terms are typed as code or quoted. */
function named(terms: readonly QueryTerm[]): boolean[] {
  return terms.map((t) =>
    t.kind === "code" || t.kind === "phrase" || t.proper === true
  );
}

/**
 * A misremembered identifier by the parts it shares with what was said:
 * ERR_ANDROID_SDK_MISSING, never printed, as its two rarest parts the index
 * holds in one record ("android" and "sdk" of "ERR_SDK_NOT_FOUND: No valid
 * Android SDK root"). Names of three parts or more only; none when no
 * record holds the two.
 */
function rarestParts(
  r: Retriever,
  t: QueryTerm,
): { words: string[]; postings: number[] } | undefined {
  const all = t.text.match(/[\p{L}\p{N}]+/gu) ?? [];
  const parts = [...new Set(all)].filter((w) =>
    w.length >= 3 && !isStopWord(w)
  );
  if (all.length < 3 || parts.length < 2) return undefined;
  const seen = parts
    .map((w) => {
      const postings = r.postings(quote(w));
      return { w, postings, n: sessionsOf(postings).length };
    })
    .filter((p) => p.n > 0)
    .sort((a, b) => a.n - b.n)
    .slice(0, PARTS_TRIED);
  // The record holding the most of them (a misremembered word among them —
  // "insufficient funds" for "insufficient balance" — is passed by), and of
  // those the rarest set; at least two.
  // The records of the rarer parts are the candidates (a common word's
  // tens of thousands of records are only searched for them, by halves).
  const held = new Map<number, number>();
  const listed = seen.map((p, i) =>
    i === 0 || p.postings.length <= PART_POSTINGS_LISTED
  );
  seen.forEach((p, i) => {
    if (!listed[i]) return;
    for (const id of p.postings) held.set(id, (held.get(id) ?? 0) | (1 << i));
  });
  seen.forEach((p, i) => {
    if (listed[i]) return;
    for (const [id, mask] of held) {
      if (holdsDescending(p.postings, id)) held.set(id, mask | (1 << i));
    }
  });
  let best = 0;
  let bestCost = Infinity;
  for (const mask of new Set(held.values())) {
    const n = popcount(mask);
    if (n < 2) continue;
    const cost = seen.reduce((c, p, i) => c + (mask & (1 << i) ? p.n : 0), 0);
    if (
      n > popcount(best) || (n === popcount(best) && cost < bestCost)
    ) {
      best = mask;
      bestCost = cost;
    }
  }
  if (best === 0) return undefined;
  const words = seen.filter((_, i) => best & (1 << i)).map((p) => p.w);
  const postings = r.postings(words.map(quote).join(" AND "));
  return postings.length ? { words, postings } : undefined;
}

/** Parts of a misremembered name or phrase looked for, rarest first. */
const PARTS_TRIED = 8;
/** A part with more records than this is looked up, not listed. */
const PART_POSTINGS_LISTED = 2000;

/** Whether a descending list of rowids holds one (binary search). */
function holdsDescending(list: readonly number[], id: number): boolean {
  let lo = 0;
  let hi = list.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = list[mid]!;
    if (v === id) return true;
    if (v > id) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/**
 * The set of words (one or two) whose removal lets some session hold all
 * the others at the least loss. Words never seen go first (nothing can
 * satisfy them); then, among the drops that unblock the rest, the one that
 * keeps the most information: common words go before a rare one, since the
 * rare words are what the query is about.
 */
function relax(
  postings: readonly (readonly number[])[],
  required: readonly boolean[],
  sessions: number,
  names: readonly boolean[],
): { drop: number[]; sessions: Set<number> } | undefined {
  const idx = required.flatMap((u, i) => (u ? [i] : []));
  if (idx.length < 2) return undefined;
  const unseen = idx.filter((i) => postings[i]!.length === 0);
  const tryDrop = (drop: number[]) => {
    const use = required.map((u, i) => u && !drop.includes(i));
    if (!use.some(Boolean)) return undefined;
    const s = covering(postings, use);
    return s.size > 0 ? { drop, sessions: s } : undefined;
  };
  if (unseen.length > 2) return undefined;
  if (unseen.length > 0) {
    const hit = tryDrop(unseen);
    if (hit || unseen.length === 2) return hit;
  }
  // What the query is about weighs most: the drops tried cheapest first,
  // a word costing its IDF in sessions, so two words nearly every session
  // says go before the one rare name ("did we end up installing pinchtab
  // or skip it?" keeps "pinchtab"). A seen word is dropped only while two
  // words are left: "a b" never said together is an answer in itself
  // ("seen, but never together").
  const seen = idx.filter((i) => postings[i]!.length > 0);
  if (seen.length < 3) return undefined;
  const idf = new Map(seen.map((i) => {
    const df = sessionsOf(postings[i]!).length;
    const weight = names[i] ? NAME_DROP_COST : 1;
    return [
      i,
      weight * Math.log(1 + (Math.max(sessions, df) - df + 0.5) / (df + 0.5)),
    ];
  }));
  const drops: Array<{ drop: number[]; cost: number }> = seen.map((i) => ({
    drop: [...unseen, i],
    cost: idf.get(i)!,
  }));
  if (unseen.length === 0 && seen.length >= 4) {
    for (let a = 0; a < seen.length; a++) {
      for (let b = a + 1; b < seen.length; b++) {
        drops.push({
          drop: [seen[a]!, seen[b]!],
          cost: idf.get(seen[a]!)! + idf.get(seen[b]!)!,
        });
      }
    }
  }
  drops.sort((x, y) =>
    x.cost - y.cost || x.drop.length - y.drop.length ||
    x.drop[x.drop.length - 1]! - y.drop[y.drop.length - 1]!
  );
  for (const { drop } of drops) {
    const hit = tryDrop(drop);
    if (hit) return hit;
  }
  return undefined;
}

interface Ranked {
  session: number;
  rel: SessionRelevance;
  adjusted: number;
  tier: SearchTier;
  /** The score's parts, worked out only for `--explain`. */
  parts: () => ScoreParts;
}

async function rank(
  db: Database,
  r: Retriever,
  q: UnderstoodQuery,
  plan: Plan,
  options: SearchOptions,
  read: RecordReader,
): Promise<
  {
    order: Ranked[];
    relevanceCount: number;
    strictOnly?: boolean;
    window?: TimeWindow;
  }
> {
  const questionLike = isQuestionLike(q);
  const limit = options.all ? Infinity : options.limit ?? 10;
  // A keyword query with enough sessions holding every word: a session
  // missing one cannot outrank them (the strict list weighs as much as
  // relevance), so only those are scored.
  const strictOnly = !questionLike && !plan.fast && plan.tier === "exact" &&
    plan.strict.size >= limit;
  const candidates = new Set<number>(plan.fast?.keys() ?? []);
  if (strictOnly) { for (const s of plan.strict) candidates.add(s); }
  else {
    for (const p of plan.postings) {
      for (const s of sessionsOf(p)) candidates.add(s);
    }
  }
  if (candidates.size === 0) return { order: [], relevanceCount: 0 };
  const meta = sessionMeta(db, [...candidates]);
  // IDF and mean length over the sessions searched: scoped to a project, a
  // word every session of that project says tells nothing apart.
  const scope = sessionFilterSql(options);
  const totals = scopeTotals(db, scope.where, scope.params);
  const stats: CorpusStats = {
    sessions: totals.n,
    meanRecords: totals.mean ?? 1,
    lengthOf: (s: number) => meta.get(s)?.records ?? 0,
    userWeight: q.personal ? RANK.personalUserWeight : RANK.userWeight,
  };
  const terms = plan.terms.map((t, i) => ({
    weight: t.weight,
    rowids: plan.postings[i]!,
  }));
  const idf = sessionIdf(terms, totals.n);
  if (strictOnly) {
    for (const t of terms) t.rowids = onlySessions(t.rowids, plan.strict);
  }
  // Terms nobody said cannot tell sessions apart: leave them out of shares.
  const known = terms.map((t, i) =>
    t.rowids.length
      ? idf[i]! * (isCodeName(plan.terms[i]!) ? RANK.codeName : 1)
      : 0
  );
  const relevance = plan.fast
    ? fastRelevance(plan.fast, stats)
    : sessionRelevance(terms, known, stats);
  const knownTerms = terms.filter((t) => t.rowids.length > 0).length;
  const gate = (s: SessionRelevance): boolean => {
    if (plan.strict.has(s.session)) return true;
    const held = popcount(s.mask);
    // A question's words are rarely all in its answer: any overlap counts;
    // so do two words no session says together (each one's sessions).
    if (questionLike || (knownTerms <= 2 && plan.strict.size === 0)) {
      return held >= 1;
    }
    return knownTerms >= 3 && held >= Math.max(2, knownTerms - 1);
  };
  const pool = [...relevance.values()].filter(gate);
  // A question asked in words: term frequency and turn length decide among
  // the sessions that can reach the page (record-level BM25, blended in).
  // A long list of keywords (a hook's own queries) keeps plain relevance.
  if (questionLike && asksInWords(q) && !plan.fast) {
    blendRecordRelevance(
      db,
      pool,
      [
        ...terms.map((t, i) => ({
          ...t,
          idf: known[i]!,
          token: wordToken(plan.terms[i]!),
        })),
        ...nearPairs(r, plan, known, totals.n),
      ],
      {
        tables: r.tables,
        userWeight: stats.userWeight,
        asksWhen: q.asksWhen,
        asksWhenPast: q.asksWhenPast,
        personal: q.personal,
      },
    );
  }
  const byRelevance = (
    a: { relevance: number; session: number },
    b: { relevance: number; session: number },
  ) => b.relevance - a.relevance || tieBreak(meta, a.session, b.session);
  // Every session holding every word (the fast tier): the strict and the
  // relevance lists are one list, and fusing them keeps its order.
  const allStrict = pool.every((s) => plan.strict.has(s.session));
  // Signals need text: read them for the sessions that can reach the top.
  const prelim = allStrict
    ? [...pool].sort((a, b) => byRelevance(a, b))
    : fuse(pool, plan.strict, (s) => s.relevance, meta);
  // Signals move a session by 30% at most: the first few past the page by
  // plain relevance are the only ones they can bring onto it.
  const k = (options.all ? 40 : options.limit ?? 10) + 3;
  nameSessions(db, meta, prelim.slice(0, k).map((s) => s.session));
  const signals = new Map<number, Signals>();
  const signalQuery = {
    forms: plan.forms,
    weights: plan.terms.map((t) => t.weight),
    probe: questionLike,
    probeUpTo: RANK.scatterLength * (totals.mean ?? 1),
    ...(q.size ? { size: q.size } : {}),
  };
  await read.prefetch(
    prelim.slice(0, k).flatMap((s) => s.records.slice(0, 1)),
  );
  for (const s of prelim.slice(0, k)) {
    signals.set(
      s.session,
      await signalsOf(
        read,
        r,
        s,
        signalQuery,
        meta.get(s.session),
        options.now,
      ),
    );
  }
  const adjusted = (s: SessionRelevance) =>
    s.relevance * (signals.get(s.session)?.product ?? 1);
  // Sorting the preliminary order again is nearly free when it is one list.
  const relSorted = (allStrict ? prelim : pool).map((s) => ({
    session: s.session,
    relevance: adjusted(s),
    rel: s,
  }))
    .sort(byRelevance);
  const relList = relSorted.map((s) => s.session);
  // A log pasted into a prompt holds a relaxed query's words as any log
  // of that kind would: the session matched no better than by relevance.
  const pastedOnly = (s: SessionRelevance) =>
    plan.tier === "relaxed" && (signals.get(s.session)?.pastedLog ?? 1) < 1;
  const strictList = allStrict
    ? relList
    : pool.filter((s) => plan.strict.has(s.session) && !pastedOnly(s))
      .map((s) => ({ session: s.session, relevance: adjusted(s) }))
      .sort(byRelevance).map((s) => s.session);
  // A question's words are rarely all in its answer: holding them all lifts
  // a session's score by a share, so a clear relevance lead still counts
  // (fused by rank, a strict session outranked any lead up to ten places).
  // A long session holding them scattered is not lifted.
  const scattered = (s: SessionRelevance) =>
    s.best < RANK.scatterShare * s.coverage &&
    (meta.get(s.session)?.records ?? 0) >=
      RANK.scatterLength * (totals.mean ?? 1);
  const fused = once(() =>
    questionLike
      ? new Map(pool.map((s) => [
        s.session,
        adjusted(s) *
        (plan.strict.has(s.session) && !scattered(s) && !pastedOnly(s)
          ? RANK.questionStrictLift
          : 1),
      ]))
      : reciprocalRankFusion([strictList, relList], [
        plan.tier === "relaxed" ? 0.5 : 1,
        1,
      ])
  );
  const ranks = once(() => ({
    strict: new Map(strictList.map((s, i) => [s, i + 1])),
    relevance: new Map(relList.map((s, i) => [s, i + 1])),
  }));
  const within = (s: number, w: { from: number; to: number }): boolean => {
    const m = meta.get(s);
    if (!m) return false;
    const from = m.started ?? m.updated ?? 0;
    const to = m.updated ?? from;
    return from < w.to && to >= w.from;
  };
  // Sessions holding a name the question says ("what did Caroline paint
  // recently?"): whose time a relative phrase counts from, and what a
  // session from a named day must hold to go first for it.
  const named = namedSessions(plan);
  const window = q.time &&
    recentWindow(q.time, pool, within, (s) => {
      const m = meta.get(s);
      return m?.updated ?? m?.started ?? 0;
    }, named);
  const inWindow = (s: number): boolean => !!window && within(s, window);
  const rankedOf = (s: SessionRelevance, score: number): Ranked => ({
    session: s.session,
    rel: s,
    adjusted: score,
    tier: plan.strict.has(s.session) ? plan.tier : "relevance",
    parts: () => {
      const parts: ScoreParts = {
        relevance: round(s.relevance),
        coverage: round(s.coverage),
        best: round(s.best),
        bm25: round(s.bm25),
        signals: signals.get(s.session) ?? neutralSignals(),
        adjusted: round(score),
        strictRank: ranks().strict.get(s.session) ?? null,
        relevanceRank: ranks().relevance.get(s.session)!,
        fused: round(fused().get(s.session) ?? 0, 5),
      };
      if (s.turn !== undefined) parts.turn = round(s.turn);
      if (window) parts.inWindow = inWindow(s.session);
      return parts;
    },
  });
  // Every session holding every word and no time window: fusing the list
  // with itself keeps its order, so the relevance order is the answer.
  if (allStrict && !window) {
    return {
      order: relSorted.map((s) => rankedOf(s.rel, s.relevance)),
      relevanceCount: pool.length,
      strictOnly,
    };
  }
  let best = 0;
  for (const s of pool) best = Math.max(best, adjusted(s));
  // A time said in words puts relevant sessions from that window first; a
  // few named days, or a month or season named with its year ("in March
  // 2023", "summer 2021"), are said on purpose, so any session of them that
  // holds a word of the query goes first — one holding the name the
  // question says, when some session holds it: another person's or
  // project's day that shares only a plain word is not the answer.
  const narrow = !!window && onPurpose(window);
  const scores = fused();
  const keyed = pool.map((s) => {
    const score = adjusted(s);
    const band = inWindow(s.session) &&
        ((narrow && (named.size === 0 || named.has(s.session))) ||
          plan.strict.has(s.session) || score >= 0.4 * best)
      ? 0
      : 1;
    return {
      ranked: rankedOf(s, score),
      band,
      fused: scores.get(s.session) ?? 0,
    };
  });
  keyed.sort((a, b) =>
    a.band - b.band || b.fused - a.fused ||
    b.ranked.adjusted - a.ranked.adjusted ||
    tieBreak(meta, a.ranked.session, b.ranked.session)
  );
  const order = keyed.map((k) => k.ranked);
  return {
    order,
    relevanceCount: pool.length,
    strictOnly,
    ...(window ? { window } : {}),
  };
}

const DAY_MS = 86_400_000;
/** What "recently" spans, back from the latest activity searched. */
const RECENT_MS = 30 * DAY_MS;

/**
 * The records a hit's snippets come from: its best ones, but with one that
 * says the rarest query word the session holds — the word that tells this
 * session apart is the one a reader looks for.
 */
function withRarest(
  best: readonly number[],
  session: number,
  plan: Plan,
  count: number,
): number[] {
  const chosen = best.slice(0, count);
  let rarest: readonly number[] | undefined;
  let inSession: number[] = [];
  for (const postings of plan.postings) {
    if (rarest && postings.length >= rarest.length) continue;
    const here = postingsOf(postings, [session]);
    if (here.length > 0) {
      rarest = postings;
      inSession = here;
    }
  }
  if (inSession.length === 0 || chosen.some((id) => inSession.includes(id))) {
    return chosen;
  }
  const first = Math.min(...inSession);
  return chosen.length < count
    ? [...chosen, first]
    : [...chosen.slice(0, count - 1), first];
}

/**
 * A month, a holiday or a season named in a time phrase ("in june", "on may
 * 3", "last summer").
 */
const NAMED_DATE =
  /\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|christmas|new year'?s?|spring|summer|fall|autumn|winter)\b/i;

/**
 * Windows up to this wide (a named day, a week, a third of a month, with a
 * zone's slack) outrank relevance.
 */
const NARROW_WINDOW_MS = 12 * DAY_MS;

/** A month, with the slack of its zone. */
const MONTH_MS = 32 * DAY_MS;

/** A season, with the slack of its zone. */
const SEASON_MS = 93 * DAY_MS;

/** A season named in a time phrase ("summer 2021"). */
const SEASON = /\b(?:spring|summer|fall|autumn|winter)\b/i;

/**
 * Whether a window is said on purpose: a few days, or a month or a season
 * named with its year ("in March 2023", "summer 2021").
 */
function onPurpose(window: TimeWindow): boolean {
  const width = window.to - window.from;
  if (width <= NARROW_WINDOW_MS) return true;
  if (!/\b\d{4}\b/.test(window.phrase)) return false;
  return (width <= MONTH_MS && NAMED_DATE.test(window.phrase)) ||
    (width <= SEASON_MS && SEASON.test(window.phrase));
}

/**
 * The window a time phrase means here: as read, or — for a month or day
 * named without its year ("in june") when no candidate falls in it — the
 * same dates in the latest earlier year (up to five back) that has one.
 */
function recentWindow(
  window: TimeWindow,
  pool: readonly { session: number }[],
  within: (s: number, w: { from: number; to: number }) => boolean,
  lastActive: (s: number) => number,
  named: ReadonlySet<number>,
): TimeWindow {
  const holds = (w: { from: number; to: number }) =>
    pool.some((s) => within(s.session, w));
  if (holds(window)) return window;
  // "Recently" with nothing recent: the last month of what there is — of
  // the sessions holding the name the question says, when any does (one
  // person's or project's latest, not the latest of every history).
  if (/recent|lately|other day/i.test(window.phrase)) {
    const about = named.size ? pool.filter((s) => named.has(s.session)) : pool;
    const latest = Math.max(0, ...about.map((s) => lastActive(s.session)));
    if (latest > 0) {
      return { ...window, from: latest - RECENT_MS, to: latest + DAY_MS };
    }
  }
  if (!NAMED_DATE.test(window.phrase)) return window;
  // A named day or week nothing falls in: what happened then is told in the
  // days after it ("yesterday", "last Friday"), so the window reaches
  // forward to the first sessions up to a week later.
  if (
    window.to - window.from <= NARROW_WINDOW_MS &&
    !/\b(?:before|by|until|till|as of)\b/i.test(window.phrase)
  ) {
    for (let days = 1; days <= 7; days++) {
      const later = { ...window, to: window.to + days * DAY_MS };
      if (holds(later)) return later;
    }
  }
  // Only a month or a day named without its year moves to an earlier year:
  // "last week" and "yesterday" mean the dates they say.
  if (/\d{4}/.test(window.phrase)) return window;
  for (let back = 1; back <= 5; back++) {
    const shift = (t: number) => {
      const d = new Date(t);
      d.setUTCFullYear(d.getUTCFullYear() - back);
      return d.getTime();
    };
    const earlier = {
      ...window,
      from: shift(window.from),
      to: shift(window.to),
    };
    if (earlier.from <= 0) break;
    if (holds(earlier)) return earlier;
  }
  return window;
}

/**
 * The sessions holding a word the question capitalised inside a sentence
 * (a person, a product: {@link QueryTerm}.proper); none when it says none,
 * or when the plan did not read each word's postings (the fast tier).
 */
function namedSessions(plan: Plan): Set<number> {
  const out = new Set<number>();
  plan.terms.forEach((t, i) => {
    if (!t.proper) return;
    for (const s of sessionsOf(plan.postings[i] ?? [])) out.add(s);
  });
  return out;
}

/** The postings of the given sessions (postings descending). */
function onlySessions(
  rowids: readonly number[],
  sessions: ReadonlySet<number>,
): number[] {
  const out: number[] = [];
  // A session's postings are one rowid range: decide once per range.
  let floor = Infinity;
  let keep = false;
  for (const id of rowids) {
    if (id < floor) {
      const s = sessionOfRecord(id);
      floor = s * RECORD_SLOTS;
      keep = sessions.has(s);
    }
    if (keep) out.push(id);
  }
  return out;
}

/** Relevance for the fast tier: every term is in every record read. */
function fastRelevance(
  fast: Map<number, number[]>,
  stats: CorpusStats,
): Map<number, SessionRelevance> {
  const out = new Map<number, SessionRelevance>();
  const mean = stats.meanRecords || 1;
  for (const [session, ids] of fast) {
    // The records shown: user turns first, then the earliest (ids descend).
    let tf = 0;
    const user: number[] = [];
    for (let i = ids.length - 1; i >= 0; i--) {
      const id = ids[i]!;
      if (isUserRecord(id)) {
        tf += RANK.userWeight;
        if (user.length < 3) user.push(id);
      } else tf += 1;
    }
    const records = user;
    for (let i = ids.length - 1; i >= 0 && records.length < 3; i--) {
      if (!isUserRecord(ids[i]!)) records.push(ids[i]!);
    }
    const len = stats.lengthOf(session) || mean;
    const norm = RANK.k1 * (1 - RANK.b + RANK.b * len / mean);
    const bm25 = tf / (tf + norm);
    out.set(session, {
      session,
      mask: -1,
      coverage: 1,
      best: 1,
      bm25,
      relevance: RANK.coverage + RANK.best + RANK.bm25 * bm25,
      records,
    });
  }
  return out;
}

function fuse(
  pool: readonly SessionRelevance[],
  strict: ReadonlySet<number>,
  score: (s: SessionRelevance) => number,
  meta: Map<number, SessionMeta>,
): SessionRelevance[] {
  const sorted = [...pool].sort((a, b) =>
    score(b) - score(a) || tieBreak(meta, a.session, b.session)
  );
  const fused = reciprocalRankFusion([
    sorted.filter((s) => strict.has(s.session)).map((s) => s.session),
    sorted.map((s) => s.session),
  ]);
  return sorted.sort((a, b) =>
    (fused.get(b.session) ?? 0) - (fused.get(a.session) ?? 0) ||
    score(b) - score(a) || tieBreak(meta, a.session, b.session)
  );
}

/** A value worked out on first use only. */
function once<T>(make: () => T): () => T {
  let value: T | undefined;
  let made = false;
  return () => {
    if (!made) {
      value = make();
      made = true;
    }
    return value as T;
  };
}

function popcount(x: number): number {
  let n = 0;
  while (x) {
    x &= x - 1;
    n++;
  }
  return n;
}

function round(x: number, digits = 4): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

function neutralSignals(): Signals {
  return {
    proximity: 1,
    title: 1,
    exactForm: 1,
    decision: 1,
    pastedLog: 1,
    gaveUp: 1,
    freshness: 1,
    size: 1,
    product: 1,
  };
}

/**
 * Length and times of candidate sessions; ids and titles are filled in
 * later for the few that may be shown (`nameSessions`). Fresh objects per
 * search, so a tie never depends on what an earlier search named.
 */
function sessionMeta(db: Database, rowids: number[]): Map<number, SessionMeta> {
  const out = new Map<number, SessionMeta>();
  for (const [rowid, [records, started, updated]] of sessionFacts(db, rowids)) {
    out.set(rowid, { id: "", title: null, records, started, updated });
  }
  return out;
}

/** Fills in ids and titles for the sessions that may be shown. */
function nameSessions(
  db: Database,
  meta: Map<number, SessionMeta>,
  rowids: readonly number[],
): void {
  const rows = JSON.parse(
    (prepared(
      db,
      `SELECT json_group_array(json_array(s.rowid, s.id, s.title)) AS j
       FROM json_each(?) AS w JOIN sessions s ON s.rowid = w.value`,
    ).get(JSON.stringify(rowids)) as { j: string }).j,
  ) as Array<[number, string, string | null]>;
  for (const [rowid, id, title] of rows) {
    const m = meta.get(rowid);
    if (m) {
      m.id = id;
      m.title = title;
    }
  }
}

/** Deterministic order for equal scores: newer first, then id, then rowid. */
function tieBreak(
  meta: Map<number, SessionMeta>,
  a: number,
  b: number,
): number {
  const ma = meta.get(a);
  const mb = meta.get(b);
  const ua = ma?.updated ?? 0;
  const ub = mb?.updated ?? 0;
  if (ua !== ub) return ub - ua;
  const ia = ma?.id ?? "";
  const ib = mb?.id ?? "";
  if (ia !== ib) return ia < ib ? -1 : 1;
  return a - b;
}

function loadSessions(db: Database, rowids: number[]): Map<number, SessionRow> {
  const rows = prepared(
    db,
    // Walking the id list and looking each row up is ~4× faster than
    // `rowid IN (SELECT value FROM json_each(?))`; the ids are distinct.
    "SELECT s.* FROM json_each(?) AS w JOIN sessions s ON s.rowid = w.value",
  ).all(JSON.stringify(rowids)) as unknown as SessionRow[];
  return new Map(rows.map((r) => [r.rowid, r]));
}

function loadMarks(
  db: Database,
  rowids: number[],
): Map<number, Array<[number, number]>> {
  const out = new Map<number, Array<[number, number]>>();
  const rows = prepared(
    db,
    "SELECT m.session, m.from_seq, m.to_seq FROM json_each(?) AS w JOIN marks m ON m.session = w.value",
  ).all(JSON.stringify(rowids)) as Array<
    { session: number; from_seq: number; to_seq: number }
  >;
  for (const r of rows) {
    const list = out.get(r.session);
    if (list) list.push([r.from_seq, r.to_seq]);
    else out.set(r.session, [[r.from_seq, r.to_seq]]);
  }
  return out;
}

function snippetOf(
  rec: StoredRecord,
  session: SessionRow,
  forms: readonly TermForm[],
  marks: Array<[number, number]>,
): Snippet {
  const cut = cutSnippet(rec.text, forms);
  const snippet: Snippet = {
    role: rec.role as Role,
    text: cut.text,
    ranges: cut.ranges,
    locator: { path: session.path, seq: rec.seq },
    superseded: marks.some(([a, b]) => rec.seq >= a && rec.seq < b),
    subagent: rec.subagent,
  };
  if (rec.line != null) snippet.locator.line = rec.line;
  if (rec.offset != null) snippet.locator.offset = rec.offset;
  if (rec.recordId != null) snippet.locator.recordId = rec.recordId;
  if (rec.time != null) snippet.time = rec.time;
  return snippet;
}

/** Each filter that leaves out some of the sessions, and how many. */
function leftOutBy(
  db: Database,
  sessions: readonly number[],
  filter: SearchOptions,
): string[] {
  const parts: Array<[string, ScopeFilter]> = [];
  if (filter.harnesses?.length) {
    const { harnesses } = filter;
    parts.push([`harness ${harnesses.join(", ")}`, { harnesses }]);
  }
  if (filter.project) {
    parts.push([`project "${filter.project}"`, { project: filter.project }]);
  }
  // A --since far enough back (99999y) is no date; it leaves nothing out.
  if (filter.since !== undefined && filter.since >= 0) {
    const day = new Date(filter.since).toISOString().slice(0, 10);
    parts.push([`since ${day}`, { since: filter.since }]);
  }
  if (filter.session) {
    parts.push([`session "${filter.session}"`, { session: filter.session }]);
  }
  const ids = JSON.stringify(sessions);
  return parts.flatMap(([label, part]) => {
    const { where, params } = sessionFilterSql(part);
    const kept = (db.prepare(
      `SELECT count(*) AS n FROM sessions s WHERE s.rowid IN (SELECT value FROM json_each(?)) AND ${where}`,
    ).get(ids, ...params) as { n: number }).n;
    const out = sessions.length - kept;
    return out > 0 ? [`${label} left out ${out}`] : [];
  });
}

/** How many matching sessions the filters left out, where, and by which. */
function filtersExcluded(
  db: Database,
  sessions: ReadonlySet<number>,
  filter: SearchOptions,
): string {
  const n = sessions.size;
  // Name where they are: a --project given as "billing" for "billing-api".
  const rows = JSON.parse(
    (prepared(
      db,
      "SELECT json_group_array(DISTINCT s.project) AS j FROM json_each(?) AS w JOIN sessions s ON s.rowid = w.value",
    ).get(JSON.stringify([...sessions].slice(0, 500))) as { j: string }).j,
  ) as string[];
  const named = rows.filter(Boolean);
  const projects = named.slice(0, 5);
  const more = named.length - projects.length;
  const by = leftOutBy(db, [...sessions], filter);
  return `The filters excluded ${n} matching session${n === 1 ? "" : "s"}${
    projects.length
      ? ` (in project${named.length === 1 ? "" : "s"} ${projects.join(", ")}${
        more > 0 ? ` and ${more} more` : ""
      })`
      : ""
  }${by.length ? `: ${by.join(", ")}` : ""}`;
}

/** Why a search found nothing, most specific reason first. */
function whyNoHit(
  db: Database,
  r: Retriever,
  plan: Plan,
  roles: readonly Role[],
  filter: SearchOptions,
): string {
  const anySession = prepared(db, "SELECT 1 FROM sessions LIMIT 1").get();
  const indexed = prepared(db, "SELECT 1 FROM meta WHERE key = 'indexed_at'")
    .get();
  if (!anySession) {
    return indexed
      ? "Nothing is indexed yet: no transcripts were found; run deja sources to see where deja looks"
      : "Nothing is indexed yet: run deja index";
  }
  if (!indexed) {
    return "The index is building: the first pass has not finished, so some sessions are missing; try again when deja index is done";
  }
  if (r.filteredOut.size > 0) return filtersExcluded(db, r.filteredOut, filter);
  const all = plan.terms.map((t) => termExpression(t));
  const speechOnly = roles.every((x) => x === "user" || x === "assistant");
  if (speechOnly) {
    const work = new Retriever(
      db,
      ROLES.filter((x) => x !== "user" && x !== "assistant"),
      filter,
    );
    const inWork = coveringSessions(
      all.map((e) => work.sessions(e)),
      plan.required,
    );
    if (inWork.size > 0) {
      // Name the roles that hold the words, so the hint can be run as is.
      const held = rolesHolding(
        all.map((e) => work.postings(e)),
        plan.required,
      );
      const named = held.length ? held : WORK_ROLES;
      return `${inWork.size} session${
        inWork.size === 1 ? " matches" : "s match"
      } only in ${named.join(", ")} records: try ${
        named.map((r) => `--role ${r}`).join(" ")
      }`;
    }
    if (work.filteredOut.size > 0) {
      return filtersExcluded(db, work.filteredOut, filter);
    }
  }
  const unseen: Array<{ term: string; suggestion?: string }> =
    plan.unseen.length
      ? plan.unseen
      : plan.terms.flatMap((t, i) =>
        plan.postings[i]!.length === 0 ? [{ term: t.text }] : []
      );
  if (unseen.length > 0) {
    const suggestions = unseen.filter((u) => u.suggestion);
    return `No session matches: ${
      unseen.map((u) => `"${u.term}"`).join(", ")
    } ${unseen.length === 1 ? "was" : "were"} never seen${
      suggestions.length
        ? ` (did you mean ${
          suggestions.map((u) => `"${u.suggestion}"`).join(", ")
        }?)`
        : ""
    }`;
  }
  return `No session matches: ${neverTogether(plan)}`;
}

/**
 * The work roles whose records alone hold every required term in one
 * session: each posting's rowid says its role.
 */
function rolesHolding(
  postings: readonly (readonly number[])[],
  required: readonly boolean[],
): Role[] {
  return WORK_ROLES.filter((role) =>
    coveringSessions(
      postings.map((p) =>
        sessionsOf(p.filter((id) => roleOfRecord(id) === role))
      ),
      required,
    ).size > 0
  );
}

/** Each term with the sessions it is seen in, "but never together". */
function neverTogether(plan: Plan): string {
  const seen = plan.terms.map((t, i) => {
    const sessions = sessionsOf(plan.postings[i]!).length;
    return `"${t.text}" (${sessions} session${sessions === 1 ? "" : "s"})`;
  });
  return `${seen.join(", ")} are seen, but never together`;
}

/** Lowercased word stems used to highlight matches in snippets. */
export function highlightWords(terms: readonly string[]): string[] {
  const out = new Set<string>();
  for (const term of terms) {
    for (const word of term.toLowerCase().split(/[^\p{L}\p{N}_]+/u)) {
      if (word) out.add(porterStem(word));
    }
  }
  return [...out];
}

/**
 * Finds match ranges of the highlight words in text (whole words whose stem
 * is one of `words`).
 *
 * @param text The text.
 * @param words Lowercased stems.
 * @returns Sorted [start, end) ranges.
 */
export function matchRanges(
  text: string,
  words: readonly string[],
): Array<[number, number]> {
  const forms = [termForm(0, words)];
  return findMatches(text, forms, true).map((m) => [m.start, m.end]);
}

/** Records a regex scan reads per query (a page of one session's). */
const REGEX_PAGE = 256;

async function regexSearch(
  db: Database,
  pattern: string,
  roles: readonly Role[],
  options: SearchOptions,
): Promise<SearchResult> {
  try {
    new RegExp(pattern, "i");
  } catch (err) {
    throw new SyntaxError(
      `Invalid regular expression "${pattern}": ${(err as Error).message}`,
    );
  }
  const { where, params } = sessionFilterSql(options);
  const sessionsInOrder = prepared(
    db,
    `SELECT s.rowid AS rowid FROM sessions s WHERE ${where}
     ORDER BY s.updated DESC, s.rowid`,
  );
  // A page of a session's records at a time: one query per page, not per
  // record (223,000 lookups were most of a 7.5 s scan), and never a whole
  // long session in memory.
  const page = prepared(
    db,
    `SELECT * FROM records WHERE session = ? AND seq > ?
     AND role IN (${
      roles.map(() => "?").join(",")
    }) ORDER BY seq LIMIT ${REGEX_PAGE}`,
  );
  const limit = options.all ? Infinity : options.limit ?? 10;
  const perSession = options.snippets ?? 3;
  const hits = new Map<number, Array<[StoredRecord, RegexSnippet]>>();
  const wanted = (session: number): boolean => {
    const list = hits.get(session);
    return list ? list.length < perSession : hits.size < limit;
  };
  // The pattern runs on a worker, a batch of records at a time: one that
  // backtracks without end is stopped there (QRY-E006), not in this thread.
  const scanner = new RegexScanner(pattern, options.regexBudgetMs);
  let batch: Array<{ session: number; rec: StoredRecord }> = [];
  let chars = 0;
  // A session left unread once the page was full may match too.
  let unscanned = false;
  const scanBatch = async () => {
    const found = await scanner.scan(batch.map((b) => b.rec.text));
    // Applied in order, as one record at a time would have been: a batch
    // may hold more than a session, or the page, still needed.
    batch.forEach(({ session, rec }, i) => {
      const snippet = found[i];
      if (!snippet) return;
      if (!wanted(session)) {
        // A match past the full page: the count is a floor.
        if (!hits.has(session)) unscanned = true;
        return;
      }
      const list = hits.get(session);
      if (list) list.push([rec, snippet]);
      else hits.set(session, [[rec, snippet]]);
    });
    batch = [];
    chars = 0;
  };
  try {
    const order = sessionsInOrder.all(...params) as Array<{ rowid: number }>;
    for (const { rowid: session } of order) {
      if (!wanted(session)) {
        unscanned = true;
        continue;
      }
      let after = -1;
      while (wanted(session)) {
        const rows = page.all(
          session,
          after,
          ...roles,
        ) as unknown as RecordRow[];
        for (const row of rows) {
          const rec = await recordOf(row);
          batch.push({ session, rec });
          chars += rec.text.length;
          if (
            batch.length >= REGEX_BATCH.records || chars >= REGEX_BATCH.chars
          ) await scanBatch();
        }
        if (rows.length < REGEX_PAGE) break;
        after = rows.at(-1)!.seq;
      }
    }
    if (batch.length > 0) await scanBatch();
  } finally {
    scanner.close();
  }
  const sessions = loadSessions(db, [...hits.keys()]);
  const marks = loadMarks(db, [...hits.keys()]);
  const results: SearchHit[] = [];
  for (const [sid, recs] of hits) {
    const row = sessions.get(sid);
    if (!row) continue;
    results.push({
      session: sessionInfoOf(row),
      score: 0,
      tier: "exact",
      snippets: recs.map(([rec, found]) => ({
        ...snippetOf(rec, row, [], marks.get(sid) ?? []),
        ...found,
      })),
    });
  }
  const out: SearchResult = {
    query: pattern,
    results,
    total: results.length,
    ...(unscanned ? { totalAtLeast: true } : {}),
  };
  if (results.length === 0) {
    out.why = prepared(db, "SELECT 1 FROM sessions LIMIT 1").get()
      ? "No record matches the regular expression"
      : "Nothing is indexed yet: run deja index";
  }
  return out;
}

/**
 * Neighbouring words of the ask said within a few words of each other in
 * one record ("pottery class", "redis client"): extra terms for a
 * question's record-level BM25, so a turn that says them together outranks
 * one that says each apart. One FTS5 NEAR query per pair, and only over
 * words rare enough for their term frequency to be read (position lists
 * are read whole); words nearly every session says (a name in every chat)
 * make no pair.
 */
function nearPairs(
  r: Retriever,
  plan: Plan,
  idf: readonly number[],
  sessions: number,
): RecordTerm[] {
  if (RANK.near <= 0) return [];
  const words = plan.terms.flatMap((t, i) =>
    t.kind === "word" && t.weight >= 1 && t.alternatives.length === 0 &&
      idf[i]! >= RANK.nearMinIdf &&
      plan.postings[i]!.length <= BM25.frequencyCap
      ? [t]
      : []
  );
  const out: RecordTerm[] = [];
  for (let j = 0; j + 1 < words.length; j++) {
    const rowids = r.postings(
      `NEAR(${quote(words[j]!.text)} ${
        quote(words[j + 1]!.text)
      }, ${RANK.nearGap})`,
    );
    if (rowids.length === 0) continue;
    out.push({
      weight: RANK.near,
      idf: sessionIdf([{ weight: 1, rowids }], sessions)[0]!,
      rowids,
      token: undefined,
    });
  }
  return out;
}
