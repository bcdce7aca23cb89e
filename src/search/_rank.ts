/**
 * Session-level relevance from postings alone, and the fusion of the strict
 * (every term) ranking with the relevance ranking.
 *
 * Relevance is computed over sessions, not records: a question's words are
 * often said across several turns of the session that answers it. Per term,
 * IDF is counted in sessions; a session's relevance blends
 *
 * - coverage: the IDF-weighted share of the query's terms it holds,
 * - best record: the IDF-weighted share held by its single best record
 *   (terms said together), and
 * - BM25: term frequency as the number of records holding the term, user
 *   turns counting 1.3, saturated (k1 = 1.2, b = 0.75, length in records).
 *
 * Postings arrive in descending rowid order and a session's records share a
 * rowid range, so one merge pass over the lists sees each session's records
 * together: no per-record maps.
 *
 * @module
 */
import type { Database } from "../core/_sqlite.ts";
import { FLAG, isUserRecord, sessionOfRecord } from "../index/schema.ts";
import { prepared } from "./_statements.ts";
import {
  BM25,
  type Bm25Term,
  meanRecordLength,
  postingsOf,
  recordBm25,
  recordLengths,
  sessionBm25,
  termFrequencies,
} from "./_bm25.ts";

/** Weights and constants of the relevance score. */
export const RANK = {
  /** A user turn's record counts this much (assistant and work: 1). */
  userWeight: 1.3,
  /**
   * ... and this much when the question is about the asker ("did I", "my"):
   * what a person said about themselves is in their own turns, while the
   * assistant's advice repeats the same words in every chat on the topic.
   */
  personalUserWeight: 1.5,
  k1: 1.2,
  b: 0.75,
  coverage: 0.45,
  best: 0.35,
  bm25: 0.2,
  /**
   * IDF multiplier of a code name the query typed (`getUserProfile`,
   * `max.poll.records`, a backticked name): the most deliberate word of a
   * question, so a plain word it shares the question with ("touched")
   * cannot outweigh it.
   */
  codeName: 1.5,
  /** Reciprocal rank fusion constant. */
  rrfK: 60,
  /**
   * For question-like queries, a session holding every (remaining) term has
   * its adjusted relevance multiplied by this (in place of rank fusion with
   * the strict list, which keyword queries keep).
   */
  questionStrictLift: 1.2,
  /**
   * ... unless it is a long session ({@linkcode RANK}.scatterLength times
   * the mean in records or more) whose best record holds under this share
   * of what the whole session covers: a long session holds every word of a
   * question scattered over its records by chance.
   */
  scatterShare: 0.5,
  /** See {@linkcode RANK}.scatterShare. */
  scatterLength: 3,
  /** Share of record-level BM25 in a question's relevance. */
  record: 0.5,
  /**
   * Weight of a pair of neighbouring ask words said within
   * {@linkcode RANK}.nearGap words of each other, as an extra term of the
   * record-level BM25.
   */
  near: 1,
  /** Most words between the two words of a pair (FTS5 NEAR). */
  nearGap: 4,
  /**
   * Words with a lower session IDF make no pair, and a sentence saying
   * only such words does not name the question (see `echo`): said in
   * nearly every session (a name in every chat, the project's own name).
   */
  nearMinIdf: 0.1,
  /**
   * A turn whose sentences naming the question's words all speak to the
   * listener ("glad you had a good time at the park!") reacts to their
   * news; the account is the listener's own turn ("I took my kids to a
   * park yesterday"). Its own score counts this much, for a question not
   * about the asker: LoCoMo 1,150 → 1,154 first places of 1,535
   * (docs/search.md).
   */
  toListener: 0.8,
  /** Sessions a question scores with record-level BM25. */
  recordSessions: 20,
  /** Most records it scores (each costs a length lookup). */
  recordCap: 200,
  /**
   * A turn whose sentences naming the question's words are all questions
   * counts this much of its own score: on the conversational eval it lifted
   * two first places of our own eval and one of LoCoMo's (docs/search.md).
   */
  echo: 0.5,
  /**
   * A turn that says when ("yesterday", "last week", "in 2019") counts this
   * much more of its own score when the question asks when.
   */
  dated: 1.75,
  /**
   * A turn that only plans or expects something ("we fly out in May", "I
   * might", "next week") counts this much of its own score when the
   * question asks when it happened: the turn telling it done is the answer
   * (three LoCoMo-shaped sets +4 first places of 278, none lost).
   */
  planned: 0.6,
} as const;

/** One term's postings and weight. */
export interface TermPostings {
  /** Query weight (1 for the ask). */
  weight: number;
  /** Matching record rowids, descending. */
  rowids: readonly number[];
}

/** A session's relevance and its parts. */
export interface SessionRelevance {
  /** Session rowid. */
  session: number;
  /** Bit i set when term i occurs in the session. */
  mask: number;
  /** IDF-weighted share of the terms the session holds. */
  coverage: number;
  /** IDF-weighted share held by one record. */
  best: number;
  /** Saturated BM25 over record counts, scaled to [0, 1]. */
  bm25: number;
  /** The blend. */
  relevance: number;
  /**
   * Record-level BM25 of its best turn and neighbours, scaled to the best
   * session's (questions only, once blended into `relevance`).
   */
  turn?: number;
  /** Its best matching records (rowids), best first, at most three. */
  records: number[];
}

/** Corpus figures relevance needs. */
export interface CorpusStats {
  /** Visible sessions. */
  sessions: number;
  /** Weight of a user turn's record (default {@linkcode RANK}.userWeight). */
  userWeight?: number;
  /** Mean records per session. */
  meanRecords: number;
  /** Records per candidate session. */
  lengthOf(session: number): number;
}

const sessionLists = new WeakMap<readonly number[], number[]>();

/**
 * The distinct sessions of descending postings, descending (computed once
 * per postings array).
 *
 * @param rowids Descending record rowids.
 * @returns Their sessions, each once.
 */
export function sessionsOf(rowids: readonly number[]): number[] {
  let out = sessionLists.get(rowids);
  if (!out) {
    out = [];
    let prev = -1;
    for (const id of rowids) {
      const s = sessionOfRecord(id);
      if (s !== prev) {
        out.push(s);
        prev = s;
      }
    }
    sessionLists.set(rowids, out);
  }
  return out;
}

/**
 * The sessions each term occurs in, as a bit mask per session.
 *
 * @param postings Descending rowids per term (at most 30 terms).
 * @returns Mask per session.
 */
export function sessionMasks(
  postings: readonly (readonly number[])[],
): Map<number, number> {
  const out = new Map<number, number>();
  postings.forEach((list, i) => {
    const bit = 1 << i;
    for (const s of sessionsOf(list)) out.set(s, (out.get(s) ?? 0) | bit);
  });
  return out;
}

/**
 * Inverse document frequency of each term, counted in sessions.
 *
 * @param terms Postings per term, descending.
 * @param sessions Visible sessions.
 * @returns IDF per term.
 */
export function sessionIdf(
  terms: readonly TermPostings[],
  sessions: number,
): number[] {
  return terms.map((t) => {
    const df = sessionsOf(t.rowids).length;
    return Math.log(1 + (Math.max(sessions, df) - df + 0.5) / (df + 0.5));
  });
}

/**
 * Scores every session any term occurs in, in one merge pass.
 *
 * @param terms Postings per term, descending (at most 30 terms).
 * @param idf IDF per term (0 leaves a term out of every share).
 * @param stats Corpus figures.
 * @returns Relevance per session.
 */
export function sessionRelevance(
  terms: readonly TermPostings[],
  idf: readonly number[],
  stats: CorpusStats,
): Map<number, SessionRelevance> {
  const k = terms.length;
  const userWeight = stats.userWeight ?? RANK.userWeight;
  const weights = terms.map((t, i) => t.weight * (idf[i] ?? 0));
  const total = weights.reduce((a, b) => a + b, 0) || 1;
  const lists = terms.map((t) => t.rowids);
  const lengths = Int32Array.from(lists, (l) => l.length);
  const at = new Int32Array(k);
  const counts = new Float64Array(k);
  const out = new Map<number, SessionRelevance>();
  const mean = stats.meanRecords || 1;
  let session = -1;
  // The three best records of the current session, best first.
  const topId = [0, 0, 0];
  const topScore = [0, 0, 0];
  let topN = 0;
  const finish = () => {
    if (session < 0) return;
    const len = stats.lengthOf(session) || mean;
    const norm = RANK.k1 * (1 - RANK.b + RANK.b * len / mean);
    let mask = 0;
    let covered = 0;
    let bm25 = 0;
    for (let i = 0; i < k; i++) {
      const c = counts[i]!;
      if (c <= 0) continue;
      mask |= 1 << i;
      covered += weights[i]!;
      bm25 += weights[i]! * c * (RANK.k1 + 1) / (c + norm);
      counts[i] = 0;
    }
    const coverage = covered / total;
    const best = Math.min(
      1,
      (topN ? topScore[0]! : 0) / total / userWeight,
    );
    const bm = bm25 / total / (RANK.k1 + 1);
    out.set(session, {
      session,
      mask,
      coverage,
      best,
      bm25: bm,
      relevance: RANK.coverage * coverage + RANK.best * best + RANK.bm25 * bm,
      records: topId.slice(0, topN),
    });
    topN = 0;
  };
  for (;;) {
    let id = -1;
    for (let i = 0; i < k; i++) {
      if (at[i]! < lengths[i]!) {
        const v = lists[i]![at[i]!]!;
        if (v > id) id = v;
      }
    }
    if (id < 0) break;
    const s = sessionOfRecord(id);
    if (s !== session) {
      finish();
      session = s;
    }
    let score = 0;
    const user = isUserRecord(id);
    for (let i = 0; i < k; i++) {
      if (at[i]! >= lengths[i]! || lists[i]![at[i]!] !== id) continue;
      at[i]!++;
      score += weights[i]!;
      counts[i]! += user ? userWeight : 1;
    }
    if (user) score *= userWeight;
    // Records arrive latest first, so an equal score moves up: ties go to
    // the earlier record.
    if (topN < 3 || score >= topScore[2]!) {
      let j = Math.min(topN, 2);
      while (j > 0 && score >= topScore[j - 1]!) {
        topScore[j] = topScore[j - 1]!;
        topId[j] = topId[j - 1]!;
        j--;
      }
      topScore[j] = score;
      topId[j] = id;
      if (topN < 3) topN++;
    }
  }
  finish();
  return out;
}

/**
 * Reciprocal rank fusion of rankings (each best first).
 *
 * @param rankings Session rowids in rank order, per list.
 * @param weights Weight per list (default 1 each).
 * @returns Fused score per session.
 */
export function reciprocalRankFusion(
  rankings: ReadonlyArray<readonly number[]>,
  weights: readonly number[] = [],
): Map<number, number> {
  const out = new Map<number, number>();
  rankings.forEach((list, l) => {
    const w = weights[l] ?? 1;
    list.forEach((s, i) => {
      out.set(s, (out.get(s) ?? 0) + w / (RANK.rrfK + i + 1));
    });
  });
  return out;
}

/** What {@linkcode blendRecordRelevance} needs of one query term. */
export interface RecordTerm {
  /** Query weight (1 for the ask). */
  weight: number;
  /** IDF (0 leaves the term out). */
  idf: number;
  /** Matching record rowids, descending, after filters. */
  rowids: readonly number[];
  /** The indexed token of a single-word term (for term frequency). */
  token: string | undefined;
}

/** Options for {@linkcode blendRecordRelevance}. */
export interface BlendOptions {
  /** The full-text tables searched. */
  tables: readonly ("fts_speech" | "fts_work")[];
  /** A user turn's weight. */
  userWeight?: number | undefined;
  /** The question asks when: turns saying when count more. */
  asksWhen?: boolean;
  /** It asks when something already happened: turns only planning it count less. */
  asksWhenPast?: boolean;
  /** The question is about the asker: a turn said to them may answer it. */
  personal?: boolean;
}

/**
 * Blends record-level BM25 into the relevance of the sessions that can
 * reach the page: term frequency and record length read from the index
 * (see `_bm25.ts`), each record widened to its neighbours, the best record
 * per session, scaled to the best session. The sessions' best records
 * become the BM25 ones (snippets and signals read them).
 *
 * Bounded work: only the {@linkcode RANK}.recordSessions most relevant
 * sessions are scored, term frequency is read only for rare single words,
 * record lengths only for those sessions' matching records.
 *
 * @param db The index.
 * @param pool The candidate sessions (changed in place).
 * @param terms The query's terms.
 * @param options Tables and the user weight.
 */
export function blendRecordRelevance(
  db: Database,
  pool: SessionRelevance[],
  terms: readonly RecordTerm[],
  options: BlendOptions,
): void {
  if (pool.length === 0 || options.tables.length === 0) return;
  const top = [...pool].sort((a, b) =>
    b.relevance - a.relevance || a.session - b.session
  ).slice(0, RANK.recordSessions);
  const table = options.tables.includes("fts_speech")
    ? "fts_speech"
    : "fts_work";
  const sessions = top.map((s) => s.session);
  const inputs: Bm25Term[] = terms.map((t) => ({
    weight: t.weight,
    idf: t.idf,
    rowids: t.idf > 0 ? postingsOf(t.rowids, sessions) : [],
  }));
  // The records scored: rare terms' first, up to the cap, so a common word
  // cannot crowd out the records that hold what the question is about.
  const only = new Set<number>();
  const rareFirst = inputs.map((_, i) => i)
    .sort((a, b) => terms[b]!.idf - terms[a]!.idf || a - b);
  for (const i of rareFirst) {
    for (const id of inputs[i]!.rowids) {
      if (only.size >= RANK.recordCap) break;
      only.add(id);
    }
  }
  terms.forEach((t, i) => {
    if (t.token && t.idf > 0 && t.rowids.length <= BM25.frequencyCap) {
      const tf = termFrequencies(db, table, t.token, BM25.instanceCap);
      if (tf) inputs[i]!.tf = tf;
    }
  });
  const lengths = recordLengths(db, table, [...only]);
  const records = recordBm25(inputs, {
    lengthOf: (id) => lengths.get(id),
    meanLength: meanRecordLength(db, table),
    only,
    ...(options.userWeight ? { userWeight: options.userWeight } : {}),
  });
  // A turn that only asks the question back ("what pet do you have?") is
  // no answer to it: its own score counts less (what it lends the turn
  // after it, where the answer usually is, stays). Only the turns that
  // could lead a session are read for it. A word nearly every session says
  // names nothing: "Mia, that's so nice! What pet do you have?" still only
  // asks back, though its first sentence says the name the question does.
  // A question asking when someone did something lifts the turns that say
  // when, over a session's first four, unless it asks about the past and
  // the turn only speaks of the future.
  let scored = sessionBm25(records);
  const leading = [...scored.values()].flatMap((b) =>
    b.records.slice(0, options.asksWhen ? 4 : 2)
  );
  const stems = terms.flatMap((t) =>
    t.token && t.idf >= RANK.nearMinIdf ? [t.token] : []
  );
  const bodies = prepared(
    db,
    `SELECT r.rowid AS rowid, r.body AS body FROM json_each(?) AS w JOIN records r ON r.rowid = w.value WHERE (r.flags & ${FLAG.compressed}) = 0`,
  ).all(JSON.stringify(leading)) as Array<{ rowid: number; body: string }>;
  let reweighed = false;
  for (const { rowid, body } of bodies) {
    const rec = records.get(rowid);
    if (!rec) continue;
    if (asksBack(body, stems)) {
      rec.score *= RANK.echo;
      reweighed = true;
    } else if (!options.personal && saidToListener(body, stems)) {
      rec.score *= RANK.toListener;
      reweighed = true;
    } else if (
      options.asksWhenPast && PLANNED.test(body) && !REPORTED.test(body)
    ) {
      rec.score *= RANK.planned;
      reweighed = true;
    } else if (options.asksWhen && SAYS_WHEN.test(body)) {
      rec.score *= RANK.dated;
      reweighed = true;
    }
  }
  if (reweighed) scored = sessionBm25(records);
  let max = 0;
  for (const b of scored.values()) max = Math.max(max, b.score);
  if (max <= 0) return;
  for (const s of pool) {
    const b = scored.get(s.session);
    const share = b ? b.score / max : 0;
    s.relevance = (1 - RANK.record) * s.relevance + RANK.record * share;
    s.turn = share;
    if (b) s.records = b.records;
  }
}

/** A turn saying when something happened (relative or calendar time). */
const SAYS_WHEN = new RegExp(
  [
    "\\b(yesterday|today|tonight|tomorrow|recently|earlier this)\\b",
    "\\b(last|next|this|past|coming) (night|week|weekend|month|year|summer|winter|spring|fall|autumn|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\\b",
    "\\b(\\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|few|couple of) (days?|weeks?|months?|years?) (ago|back)\\b",
    "\\b(on|last|this|next) (mon|tues|wednes|thurs|fri|satur|sun)day\\b",
    "\\b(january|february|march|april|june|july|august|september|october|november|december)\\b",
    "\\b(19|20)\\d\\d\\b",
    "\\bthe \\d+(st|nd|rd|th)\\b",
  ].join("|"),
  "i",
);

/** A turn speaking of what is still to come. */
const PLANNED =
  /\b(will|going to|gonna|plan(ning)? (to|on)|hop(e|ing) to|wants? to|thinking (about|of)|signed up|booked|can['’]t wait|tomorrow|next (week|weekend|month|year|summer|winter|spring|fall|autumn|(mon|tues|wednes|thurs|fri|satur|sun)day)|coming up|aiming|might|(i|we|you|he|she|they)['’]ll|we (fly|leave|move|start)|it['’]s (in|on))\b/i;
/** A turn saying something happened a while before it. */
const REPORTED =
  /\b(yesterday|last (night|week|weekend|month|year|(mon|tues|wednes|thurs|fri|satur|sun)day)|ago|this morning|earlier today)\b/i;

/** "You", "your", "you're", …: said to the listener. */
const SECOND_PERSON = /\byou(r|rs|'re|'ve|'d|'ll)?\b/;
/**
 * "I'm so glad", "I bet", "I hope that you…": the speaker reacting to the
 * listener, no account of their own (LoCoMo 1,154 → 1,155, nothing lost).
 */
const REACTION =
  /\b(i['’]m|i am|i was|i['’]d be) (so |really |super |very |just )?(glad|happy|proud|sorry|thrilled|stoked|excited|impressed|amazed)\b|\bi (bet|hope|love that|love how|can tell|think|guess|wish)\b/g;
/** "I", "my", "we", "our", …: the speaker's own account. */
const FIRST_PERSON =
  /\b(i|i'm|i've|i'd|i'll|my|me|mine|we|we're|we've|our|us)\b/;

/**
 * Whether every sentence of a turn that names a query word (by its stem, a
 * prefix of its forms) asks a question.
 */
function asksBack(text: string, stems: readonly string[]): boolean {
  return everyNaming(text, stems, (s) => s.trimEnd().endsWith("?"));
}

/**
 * Whether every sentence of a turn that names a query word speaks to the
 * listener and not of the speaker (see {@linkcode RANK}.toListener).
 */
function saidToListener(text: string, stems: readonly string[]): boolean {
  return everyNaming(
    text,
    stems,
    (s) =>
      SECOND_PERSON.test(s) && !FIRST_PERSON.test(s.replace(REACTION, " ")),
  );
}

/** Whether a turn has sentences naming a stem, and all of them hold. */
function everyNaming(
  text: string,
  stems: readonly string[],
  holds: (sentence: string) => boolean,
): boolean {
  let named = false;
  for (const sentence of text.toLowerCase().split(/(?<=[.!?])\s+/)) {
    if (!stems.some((s) => sentence.includes(s))) continue;
    named = true;
    if (!holds(sentence)) return false;
  }
  return named;
}
