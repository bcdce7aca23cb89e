/**
 * The bounded ranking signals. Each multiplies a session's relevance by a
 * little: enough to break a near-tie, never enough to outrank plain
 * relevance. Their product is clamped to [0.75, 1.3], so a session more than
 * 1.3 / 0.75 ≈ 1.73 times as relevant as another always ranks above it
 * whatever the signals say, and within the same list a 10% relevance lead
 * survives any single signal.
 *
 * @module
 */
import type { StoredRecord } from "./_rows.ts";
import type { SessionRelevance } from "./_rank.ts";
import type { Retriever } from "./_retrieve.ts";
import { findMatches, type TermForm, tightestSpan } from "./_snippet.ts";

/** Multipliers applied to one session's relevance (1 = no effect). */
export interface Signals {
  /** Up to +10% when the query's terms sit close together in one record. */
  proximity: number;
  /** Up to +10% when the title holds the query's terms. */
  title: number;
  /** Up to +5% when words appear as typed, not only as another inflection. */
  exactForm: number;
  /** +8% when the session reached a conclusion. */
  decision: number;
  /** −12% when the best match is a log pasted into a user turn. */
  pastedLog: number;
  /** −10% when the session reverted or gave up and decided nothing. */
  gaveUp: number;
  /** −0% to −10% with age (half of it gone at one month). */
  freshness: number;
  /** +10% when the query says the session was short or long and it was. */
  size: number;
  /** Their product, clamped to [0.75, 1.3]. */
  product: number;
}

/** What ranking reads of a session row. */
export interface SessionMeta {
  id: string;
  title: string | null;
  records: number;
  started: number | null;
  updated: number | null;
}

/** Terms and forms the signals look for. */
export interface SignalQuery {
  /** Each term's forms in text. */
  forms: readonly TermForm[];
  /** Each term's query weight. */
  weights: readonly number[];
  /**
   * Probe the whole session for decisions and backing out (questions);
   * otherwise only the records read for the answer are looked at.
   */
  probe?: boolean;
  /** Sessions with more records than this are not probed. */
  probeUpTo?: number;
  /** "The short chat", "a long session": the size asked for. */
  size?: "short" | "long";
}

/** Most records a short session holds, fewest a long one does. */
const SHORT_RECORDS = 12;
const LONG_RECORDS = 200;

/**
 * How a session's length fits the size asked for: a session of that size
 * lifts; asked for a short one, a session over twice a short one's length
 * damps (a long thread on the same topic is what the person tells apart).
 */
function sizeFit(
  asked: "short" | "long" | undefined,
  records: number,
): number {
  if (!asked || records === 0) return 1;
  if (asked === "long") return records >= LONG_RECORDS ? 1.1 : 1;
  return records <= SHORT_RECORDS ? 1.1 : records > 2 * SHORT_RECORDS ? 0.9 : 1;
}

const DAY = 86_400_000;

/**
 * Words that state a conclusion. Single words and rare pairs only: a phrase
 * with a common word ("the fix") makes FTS5 walk that word's whole list.
 */
const DECISION = [
  "decided",
  "decision",
  "settled",
  "agreed",
  "conclusion",
  "concluded",
  "chose",
  "root cause",
  "pinned",
].map((p) => `"${p}"`).join(" OR ");

/** Words that report backing out of an approach. */
const GAVE_UP = [
  "reverted",
  "revert",
  "rolled back",
  "gave up",
  "giving up",
  "abandon",
  "abandoned",
  "backed out",
].map((p) => `"${p}"`).join(" OR ");

const BACKED_OUT =
  /\b(reverted|rolled back|gave up|giving up|abandon(ed)?|backed out)\b/i;

const LOG_LINE =
  /^\s*(at\s|\d{4}-\d\d-\d\d|\d\d:\d\d:\d\d|\[?(INFO|WARN|WARNING|ERROR|DEBUG|TRACE|FATAL)\b|[A-Za-z]*(Error|Exception)\b|Traceback|File "|\s{2,}\S|[#>$]\s|npm (ERR|WARN)|\S+:\d+:\d+)/;

/**
 * Whether a text looks like a pasted log: many lines, mostly log-shaped or
 * mostly repeated.
 *
 * @param text A record's text.
 * @returns True for a pasted log.
 */
export function looksPasted(text: string): boolean {
  const lines = text.split("\n").filter((l) => l.trim());
  if (lines.length < 12) return false;
  const logLike = lines.filter((l) => LOG_LINE.test(l)).length;
  const distinct = new Set(lines.map((l) => l.trim())).size;
  return logLike / lines.length >= 0.6 || distinct / lines.length < 0.35;
}

/**
 * Computes one session's signals from its best matching record, its title,
 * its age and two probes of its own records (decision, gave up).
 *
 * @param read Reads a record (cached per search).
 * @param r The retriever (for the session probes).
 * @param s The session's relevance.
 * @param q The query's forms and weights.
 * @param meta The session row.
 * @param now The clock.
 * @returns The signals.
 */
export async function signalsOf(
  read: (rowid: number) => Promise<StoredRecord | undefined>,
  r: Retriever,
  s: SessionRelevance,
  q: SignalQuery,
  meta: SessionMeta | undefined,
  now: number,
): Promise<Signals> {
  const bestId = s.records[0];
  const rec = bestId === undefined ? undefined : await read(bestId);
  const text = rec?.text ?? "";
  const matches = text ? findMatches(text, q.forms) : [];
  const span = tightestSpan(matches);
  const proximity = span === undefined ? 1 : 1 + 0.1 * 200 / (200 + span);

  const total = q.weights.reduce((a, b) => a + b, 0) || 1;
  // Exact form: the word as typed, not only another inflection of it.
  const surfaces = q.forms.filter((f) => f.surface);
  const typed = new Set<number>();
  for (const m of matches) {
    const f = q.forms[m.term];
    if (f?.surface && text.slice(m.start, m.end).toLowerCase() === f.surface) {
      typed.add(m.term);
    }
  }
  const exactForm = surfaces.length
    ? 1 + 0.05 * typed.size / surfaces.length
    : 1;

  let titleShare = 0;
  if (meta?.title) {
    const inTitle = new Set(
      findMatches(meta.title, q.forms).map((m) => m.term),
    );
    for (const t of inTitle) titleShare += q.weights[t] ?? 0;
  }
  const title = 1 + 0.1 * titleShare / total;

  const probe = q.probe === true &&
    (meta?.records ?? 0) <= (q.probeUpTo ?? Infinity);
  const decided = rec?.decision === true ||
    (probe && r.sessionsWith(DECISION).has(s.session));
  const decision = decided ? 1.08 : 1;
  const backedOut = probe
    ? r.sessionsWith(GAVE_UP).has(s.session)
    : BACKED_OUT.test(text);
  const gaveUp = !decided && backedOut ? 0.9 : 1;
  const pastedLog = rec?.role === "user" && looksPasted(text) ? 0.88 : 1;
  const age = Math.max(0, (now - (meta?.updated ?? now)) / DAY);
  const freshness = 0.9 + 0.1 / (1 + age / 30);
  const records = meta?.records ?? 0;
  const size = sizeFit(q.size, records);
  const product = Math.min(
    1.3,
    Math.max(
      0.75,
      proximity * title * exactForm * decision * gaveUp * pastedLog *
        freshness * size,
    ),
  );
  const r4 = (x: number) => Math.round(x * 10000) / 10000;
  return {
    proximity: r4(proximity),
    title: r4(title),
    exactForm: r4(exactForm),
    decision,
    pastedLog,
    gaveUp,
    freshness: r4(freshness),
    size,
    product: r4(product),
  };
}
