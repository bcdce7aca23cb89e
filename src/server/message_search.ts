/**
 * Message search: "where did we say X" over the user and assistant records
 * of the transcript index. Needle and text are folded alike (lowercase +
 * NFD); highlight ranges are byte offsets into the original text. Sessions
 * are ordered by their most recent hit, at most three hits each, walked
 * newest first with an early exit once the page cannot improve. A cursor
 * pins the query and the index revision it was minted against; a moved
 * index answers 410 `cursor_expired`. A time budget and a response budget
 * turn a long answer into an honest `partial` one.
 *
 * @module
 */
import type { Database } from "../core/_sqlite.ts";
import { DejaError } from "../core/errors.ts";
import { sha256Hex } from "../core/hash.ts";
import { fromBase64Url, toBase64Url } from "./_b64url.ts";
import { foldText, matchBytes, matchesAll, snippetAround } from "./_fold.ts";
import {
  coverage,
  type CoverageRow,
  indexRevision,
  listSessions,
  type SessionListRow,
  sessionMarks,
  type SpeechRecord,
  speechRecords,
} from "./_index_reads.ts";

/** Limits on one search. */
export interface SearchBudgets {
  /** Wall time per query, ms (default 150). */
  timeMs: number;
  /** Serialized response size, bytes (default 256 KiB). */
  responseBytes: number;
  /** Record text loaded from the index (not the arena) per query, bytes (default 48 MiB). */
  freshLoadBytes: number;
}

/** The defaults of seed 001. */
export const DEFAULT_SEARCH_BUDGETS: SearchBudgets = Object.freeze({
  timeMs: 150,
  responseBytes: 256 * 1024,
  freshLoadBytes: 48 * 1024 * 1024,
});

/** Snippet size cap, bytes. */
export const SNIPPET_BYTES = 280;
/** Hits shown per session. */
export const HITS_PER_SESSION = 3;

const DAY = 86_400_000;

interface ArenaRecord extends SpeechRecord {
  folded: string;
}

/**
 * Parsed and folded session records kept resident between queries, bounded
 * by bytes and dropped whole when the index revision moves.
 */
export class FoldArena {
  #max: number;
  #bytes = 0;
  #rev = "";
  #entries = new Map<number, { records: ArenaRecord[]; bytes: number }>();

  /** @param maxBytes Approximate memory bound (default 192 MiB). */
  constructor(maxBytes = 192 * 1024 * 1024) {
    this.#max = maxBytes;
  }

  /**
   * The folded speech records of a session, loading them on a miss.
   *
   * @param db The index.
   * @param rev The current index revision.
   * @param session Session rowid.
   * @returns The records and how many bytes were freshly loaded.
   */
  async get(
    db: Database,
    rev: string,
    session: number,
  ): Promise<{ records: ArenaRecord[]; fresh: number }> {
    if (rev !== this.#rev) {
      this.#entries.clear();
      this.#bytes = 0;
      this.#rev = rev;
    }
    const hit = this.#entries.get(session);
    if (hit) {
      this.#entries.delete(session);
      this.#entries.set(session, hit);
      return { records: hit.records, fresh: 0 };
    }
    let bytes = 64;
    const records = (await speechRecords(db, session)).map((r) => {
      const folded = foldText(r.text);
      bytes += (r.text.length + folded.length) * 2 + 96;
      return { ...r, folded };
    });
    this.#entries.set(session, { records, bytes });
    this.#bytes += bytes;
    for (const [key, entry] of this.#entries) {
      if (this.#bytes <= this.#max || key === session) break;
      this.#entries.delete(key);
      this.#bytes -= entry.bytes;
    }
    return { records, fresh: bytes };
  }
}

/** The query after filter words are taken out. */
export interface ParsedSearch {
  /** Search terms as typed (quoted phrases kept whole). */
  terms: string[];
  /** Folded terms. */
  needles: string[];
  /** Harness filters (`codex:`). */
  harnesses: string[];
  /** Project filter (`in:api`). */
  project?: string;
  /** Time filter word (`today`, `week`, `month`). */
  window?: "today" | "week" | "month";
}

/**
 * Splits a query into terms and filter words: `<harness>:` (only for
 * harness ids the index knows), `in:<project>`, and `today` / `week` /
 * `month`. Quote a filter word to search for it.
 *
 * @param q The query text.
 * @param known Harness ids that count as filters.
 * @returns Terms, folded needles and filters.
 */
export function parseSearchQuery(
  q: string,
  known: ReadonlySet<string>,
): ParsedSearch {
  const out: ParsedSearch = { terms: [], needles: [], harnesses: [] };
  for (const m of q.matchAll(/"([^"]*)"?|(\S+)/g)) {
    if (m[1] !== undefined) {
      if (m[1].trim()) out.terms.push(m[1]);
      continue;
    }
    const token = m[2] as string;
    const lower = token.toLowerCase();
    if (lower === "today" || lower === "week" || lower === "month") {
      out.window = lower;
      continue;
    }
    if (lower.startsWith("in:") && token.length > 3) {
      out.project = token.slice(3);
      continue;
    }
    const colon = token.indexOf(":");
    if (colon > 0 && known.has(lower.slice(0, colon))) {
      if (!out.harnesses.includes(lower.slice(0, colon))) {
        out.harnesses.push(lower.slice(0, colon));
      }
      const rest = token.slice(colon + 1);
      if (rest) out.terms.push(rest);
      continue;
    }
    out.terms.push(token);
  }
  out.needles = out.terms.map(foldText);
  return out;
}

/**
 * The start of a time window word, in the server's local time.
 *
 * @param window `today`, `week` or `month`.
 * @param now The clock, epoch ms.
 * @returns Epoch ms.
 */
export function windowStart(
  window: "today" | "week" | "month",
  now: number,
): number {
  if (window === "week") return now - 7 * DAY;
  if (window === "month") return now - 30 * DAY;
  const d = new Date(now);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

/** What a client asks. */
export interface MessageSearchRequest {
  /** Query text with optional filter words. */
  q: string;
  /** Harness filters besides `<harness>:` words. */
  harnesses?: string[];
  /** Project filter besides `in:` words. */
  project?: string;
  /** Only sessions updated at or after this time. */
  sinceMs?: number;
  /** Show superseded records (default true). */
  includeSuperseded?: boolean;
  /** Sessions per page (default 20, at most 100). */
  limit?: number;
  /** A continuation cursor from an earlier page. */
  cursor?: string;
}

/** What the search runs against. */
export interface MessageSearchContext {
  /** The index. */
  db: Database;
  /** Wall clock, epoch ms (for `today`). */
  now: number;
  /** Monotonic clock, ms (for the time budget). */
  clock: () => number;
  /** Budgets. */
  budgets: SearchBudgets;
  /** The resident arena. */
  arena: FoldArena;
  /** Harness ids that count as filter words. */
  harnesses: ReadonlySet<string>;
}

/** Where a hit lives: enough for the session read to jump back to it. */
export interface HitLocator {
  /** Locator format version. */
  v: 1;
  /** Always `index_record`. */
  kind: "index_record";
  /** Harness id. */
  harness: string;
  /** Session id. */
  session_id: string;
  /** Source file of the session. */
  path: string;
  /** Record position in the session. */
  seq: number;
  /** Source line, for line formats. */
  line?: number;
  /** Source byte offset, for line formats. */
  offset?: number;
  /** Record id inside the source, when it has one. */
  record_id?: string;
  /** First 16 hex digits of sha256 of the record's text. */
  hash: string;
}

/** One matching record. */
export interface MessageHit {
  /** `user` or `assistant`. */
  role: string;
  /** Record time, epoch ms. */
  ts_ms: number | null;
  /** Record position. */
  seq: number;
  /** A rollback, undo or rewind made the record inactive. */
  superseded: boolean;
  /** The stored text was cut at the size cap. */
  truncated: boolean;
  /** Written by a sub-agent. */
  subagent: boolean;
  /** At most 280 bytes of the original text around the earliest highlight. */
  snippet: string;
  /** Byte offset of the snippet in the original text. */
  snippet_offset_bytes: number;
  /** `[start, end)` byte offsets of matches in the original text. */
  ranges: Array<[number, number]>;
  /** Where the record lives. */
  locator: HitLocator;
  /** base64url of the locator JSON, for `?locate=`. */
  locate: string;
}

/** One session with hits. */
export interface MessageGroup {
  /** `harness:id`. */
  session_key: string;
  /** Harness id. */
  source: string;
  /** Session id. */
  session_id: string;
  /** Session title. */
  title: string;
  /** Project. */
  project: string;
  /** Sub-agent or fork relation to a parent session. */
  lineage: string | null;
  /** Parent session id. */
  parent: string | null;
  /** Time of the most recent hit (browse mode: of the session), epoch ms. */
  best_ts_ms: number;
  /** Matching records in the session. */
  total_hits: number;
  /** The source file is gone (the index forgets such sessions, so false). */
  source_gone: boolean;
  /** The most recent hits, at most three. */
  hits: MessageHit[];
}

/** The answer. */
export interface MessageSearchResponse {
  /** `ready`, or `partial` when a budget cut the answer. */
  state: "ready" | "partial";
  /** Why the answer is partial. */
  partial_reason?: "timeout" | "budget";
  /** `search` with terms, `browse` when only filter words were given. */
  mode: "search" | "browse";
  /** The query as understood. */
  query: {
    terms: string[];
    harnesses: string[];
    project: string | null;
    since_ms: number | null;
    window: string | null;
    include_superseded: boolean;
  };
  /** The index keeps everything it indexed: no rolling window. */
  window_days: null;
  /** The index revision the answer was read at. */
  revision: string;
  /** Sessions, best hit first. */
  sessions: MessageGroup[];
  /** Continuation cursor, or null at the end (and after a timeout). */
  cursor: string | null;
  /** Sessions examined. */
  scanned_sessions: number;
  /** Per-source coverage. */
  coverage: { sources: CoverageRow[] };
}

interface CursorBody {
  v: 1;
  rev: string;
  fp: string;
  since: number | null;
  after: { ts: number; key: string; rowid: number } | null;
}

interface Found extends MessageGroup {
  rowid: number;
}

function order(
  a: { best_ts_ms: number; session_key: string; rowid: number },
  b: typeof a,
): number {
  return b.best_ts_ms - a.best_ts_ms ||
    (a.session_key < b.session_key
      ? -1
      : a.session_key > b.session_key
      ? 1
      : 0) ||
    a.rowid - b.rowid;
}

function isAfter(g: Found, after: NonNullable<CursorBody["after"]>): boolean {
  return order(g, {
    best_ts_ms: after.ts,
    session_key: after.key,
    rowid: after.rowid,
  }) > 0;
}

function bad(message: string): never {
  throw new DejaError("SRV-E006", message);
}

function decodeCursor(cursor: string): CursorBody {
  const text = fromBase64Url(cursor);
  let body: unknown;
  try {
    body = text === undefined ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  const c = body as Partial<CursorBody> | undefined;
  if (
    !c || c.v !== 1 || typeof c.rev !== "string" || typeof c.fp !== "string" ||
    !(c.since === null || typeof c.since === "number") ||
    !(c.after === null ||
      (typeof c.after === "object" && typeof c.after?.ts === "number" &&
        typeof c.after?.key === "string" && typeof c.after?.rowid === "number"))
  ) bad("The cursor is not one this server issued");
  return c as CursorBody;
}

function encodeCursor(c: CursorBody): string {
  return toBase64Url(JSON.stringify(c));
}

async function tick(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Runs one message search page.
 *
 * @param ctx The index, clocks, budgets and arena.
 * @param req The query, filters, page size and cursor.
 * @returns The page.
 * @throws {DejaError} SRV-E006 for a malformed query or cursor, SRV-E004 when the cursor expired.
 */
export async function messageSearch(
  ctx: MessageSearchContext,
  req: MessageSearchRequest,
): Promise<MessageSearchResponse> {
  const started = ctx.clock();
  const parsed = parseSearchQuery(req.q, ctx.harnesses);
  const foldedLength = parsed.needles.join("").length;
  if (parsed.terms.length > 0 && foldedLength < 2) {
    bad("Search needs at least 2 characters");
  }
  if (parsed.terms.length > 16) bad("Search takes at most 16 terms");
  const limit = req.limit ?? 20;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    bad("limit must be a whole number from 1 to 100");
  }
  const includeSuperseded = req.includeSuperseded ?? true;
  const harnesses = [
    ...new Set([...(req.harnesses ?? []), ...parsed.harnesses]),
  ].sort();
  const project = parsed.project ?? req.project;
  const fp = sha256Hex(JSON.stringify({
    needles: parsed.needles,
    harnesses,
    project: project?.toLowerCase() ?? null,
    since: req.sinceMs ?? null,
    window: parsed.window ?? null,
    includeSuperseded,
  })).slice(0, 16);
  const rev = indexRevision(ctx.db);
  let after: CursorBody["after"] = null;
  let windowSince: number | null = parsed.window
    ? windowStart(parsed.window, ctx.now)
    : null;
  if (req.cursor) {
    const c = decodeCursor(req.cursor);
    if (c.fp !== fp) bad("The cursor belongs to a different query");
    if (c.rev !== rev) {
      throw new DejaError(
        "SRV-E004",
        "The index changed since this cursor was issued: run the search again",
        { detail: { reason: "cursor_expired" } },
      );
    }
    after = c.after;
    windowSince = c.since;
  }
  const since = [req.sinceMs, windowSince ?? undefined].filter((
    x,
  ): x is number => x !== undefined);
  const sinceMs = since.length ? Math.max(...since) : undefined;
  const rows = listSessions(ctx.db, {
    ...(harnesses.length ? { harnesses } : {}),
    ...(project ? { project } : {}),
    ...(sinceMs !== undefined ? { since: sinceMs } : {}),
  });
  const browse = parsed.terms.length === 0;
  const found: Found[] = [];
  let stop: "complete" | "early" | "timeout" | "budget" = "complete";
  let nextBound = -Infinity;
  let fresh = 0;
  let scanned = 0;
  let lastYield = ctx.clock();
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i] as SessionListRow;
    const bound = row.updated ?? 0;
    if (found.length >= limit) {
      found.sort(order);
      if (bound < (found[limit - 1] as Found).best_ts_ms) {
        stop = "early";
        nextBound = bound;
        break;
      }
    }
    if (!browse && ctx.clock() - started > ctx.budgets.timeMs) {
      stop = "timeout";
      nextBound = bound;
      break;
    }
    if (!browse && fresh > ctx.budgets.freshLoadBytes) {
      stop = "budget";
      nextBound = bound;
      break;
    }
    scanned++;
    const group = browse ? browseGroup(row) : await searchSession(
      ctx,
      rev,
      row,
      parsed.needles,
      includeSuperseded,
      (n) => (fresh += n),
    );
    if (group && (!after || isAfter(group, after))) found.push(group);
    if (ctx.clock() - lastYield > 8) {
      await tick();
      lastYield = ctx.clock();
    }
  }
  found.sort(order);
  const certain = stop === "timeout" || stop === "budget"
    ? found.filter((g) => g.best_ts_ms > nextBound)
    : found;
  let page = certain.slice(0, limit);
  const more = stop === "early" || certain.length > limit;
  const response: MessageSearchResponse = {
    state: "ready",
    mode: browse ? "browse" : "search",
    query: {
      terms: parsed.terms,
      harnesses,
      project: project ?? null,
      since_ms: sinceMs ?? null,
      window: parsed.window ?? null,
      include_superseded: includeSuperseded,
    },
    window_days: null,
    revision: rev,
    sessions: [],
    cursor: null,
    scanned_sessions: scanned,
    coverage: { sources: coverage(ctx.db) },
  };
  const cursorAfter = (g: Found | undefined): string =>
    encodeCursor({
      v: 1,
      rev,
      fp,
      since: windowSince,
      after: g
        ? { ts: g.best_ts_ms, key: g.session_key, rowid: g.rowid }
        : after,
    });
  // The response budget: stop adding sessions before the answer outgrows it.
  const encoder = new TextEncoder();
  let size = encoder.encode(JSON.stringify(response)).length + 512;
  let cut = page.length;
  for (let i = 0; i < page.length; i++) {
    size +=
      encoder.encode(JSON.stringify(publicGroup(page[i] as Found))).length + 1;
    if (size > ctx.budgets.responseBytes && i > 0) {
      cut = i;
      break;
    }
  }
  if (cut < page.length) {
    page = page.slice(0, cut);
    response.state = "partial";
    response.partial_reason = "budget";
    response.cursor = cursorAfter(page[page.length - 1]);
  } else if (stop === "timeout") {
    response.state = "partial";
    response.partial_reason = "timeout";
  } else if (stop === "budget") {
    response.state = "partial";
    response.partial_reason = "budget";
    // Nothing certain yet: the same position again, with a warmer arena.
    response.cursor = cursorAfter(page[page.length - 1]);
  } else if (more) {
    response.cursor = cursorAfter(page[page.length - 1]);
  }
  response.sessions = page.map(publicGroup);
  return response;
}

function publicGroup(g: Found): MessageGroup {
  const { rowid: _rowid, ...rest } = g;
  return rest;
}

/** A session's group with the given hits (none when browsing). */
function groupOf(
  row: SessionListRow,
  best: number,
  total: number,
  hits: MessageGroup["hits"],
): Found {
  return {
    rowid: row.rowid,
    session_key: `${row.harness}:${row.id}`,
    source: row.harness,
    session_id: row.id,
    title: row.title ?? "",
    project: row.project,
    lineage: row.lineage,
    parent: row.parent,
    best_ts_ms: best,
    total_hits: total,
    source_gone: false,
    hits,
  };
}

function browseGroup(row: SessionListRow): Found {
  return groupOf(row, row.updated ?? 0, 0, []);
}

async function searchSession(
  ctx: MessageSearchContext,
  rev: string,
  row: SessionListRow,
  needles: readonly string[],
  includeSuperseded: boolean,
  loaded: (bytes: number) => void,
): Promise<Found | undefined> {
  const { records, fresh } = await ctx.arena.get(ctx.db, rev, row.rowid);
  loaded(fresh);
  let marks: Array<{ from: number; to: number }> | undefined;
  const superseded = (seq: number): boolean => {
    marks ??= sessionMarks(ctx.db, row.rowid);
    return marks.some((m) => seq >= m.from && seq < m.to);
  };
  const hits: ArenaRecord[] = [];
  for (const rec of records) {
    if (!matchesAll(rec.text, rec.folded, needles)) continue;
    if (!includeSuperseded && superseded(rec.seq)) continue;
    hits.push(rec);
  }
  if (hits.length === 0) return undefined;
  const when = (r: ArenaRecord): number => r.time ?? row.updated ?? 0;
  hits.sort((a, b) => when(b) - when(a) || b.seq - a.seq);
  const shown = hits.slice(0, HITS_PER_SESSION).map((rec) =>
    hitOf(row, rec, needles, superseded(rec.seq))
  );
  return groupOf(row, when(hits[0] as ArenaRecord), hits.length, shown);
}

function hitOf(
  row: SessionListRow,
  rec: ArenaRecord,
  needles: readonly string[],
  superseded: boolean,
): MessageHit {
  const ranges = matchBytes(rec.text, needles, 32);
  const { snippet, offset } = snippetAround(
    rec.text,
    ranges[0]?.[0] ?? 0,
    SNIPPET_BYTES,
  );
  const locator: HitLocator = {
    v: 1,
    kind: "index_record",
    harness: row.harness,
    session_id: row.id,
    path: row.path,
    seq: rec.seq,
    hash: sha256Hex(rec.text).slice(0, 16),
  };
  if (rec.line != null) locator.line = rec.line;
  if (rec.offset != null) locator.offset = rec.offset;
  if (rec.recordId != null) locator.record_id = rec.recordId;
  return {
    role: rec.role,
    ts_ms: rec.time,
    seq: rec.seq,
    superseded,
    truncated: rec.truncated,
    subagent: rec.subagent,
    snippet,
    snippet_offset_bytes: offset,
    ranges,
    locator,
    locate: toBase64Url(JSON.stringify(locator)),
  };
}
