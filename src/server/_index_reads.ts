/**
 * The few reads of the transcript index the HTTP API needs beyond the
 * search module's exports: session listing with filters, speech records of
 * one session, marks, coverage and the index revision. Kept in one file so
 * the server's coupling to the index layout is visible in one place.
 *
 * @module
 */
import type { Database } from "../core/_sqlite.ts";
import { sha256Hex } from "../core/hash.ts";
import { FLAG, readBody } from "../index/mod.ts";

/** A session row as the API reads it. */
export interface SessionListRow {
  rowid: number;
  harness: string;
  id: string;
  path: string;
  project: string;
  title: string | null;
  started: number | null;
  updated: number | null;
  parent: string | null;
  lineage: string | null;
  records: number;
}

/** Filters for {@linkcode listSessions}. */
export interface SessionFilter {
  harnesses?: readonly string[];
  project?: string;
  since?: number;
}

/**
 * Visible sessions, newest first (`updated` descending, then key).
 *
 * @param db The index.
 * @param filter Harnesses, project, since.
 * @returns Rows.
 */
export function listSessions(
  db: Database,
  filter: SessionFilter,
): SessionListRow[] {
  const clauses = ["hidden = 0"];
  const params: Array<string | number> = [];
  if (filter.harnesses?.length) {
    clauses.push(`harness IN (${filter.harnesses.map(() => "?").join(",")})`);
    params.push(...filter.harnesses);
  }
  if (filter.project) {
    clauses.push("lower(project) = lower(?)");
    params.push(filter.project);
  }
  if (filter.since !== undefined) {
    clauses.push("COALESCE(updated, 0) >= ?");
    params.push(filter.since);
  }
  return db.prepare(
    `SELECT rowid, harness, id, path, project, title, started, updated, parent, lineage, records
       FROM sessions WHERE ${clauses.join(" AND ")}
      ORDER BY COALESCE(updated, 0) DESC, harness, id, rowid`,
  ).all(...params) as unknown as SessionListRow[];
}

/**
 * The session rows for a harness and exact id, best first (visible, then
 * most records).
 *
 * @param db The index.
 * @param harness Harness id.
 * @param id Session id.
 * @returns Rows.
 */
export function findSessions(
  db: Database,
  harness: string,
  id: string,
): SessionListRow[] {
  return db.prepare(
    `SELECT rowid, harness, id, path, project, title, started, updated, parent, lineage, records
       FROM sessions WHERE harness = ? AND id = ? ORDER BY hidden, records DESC, rowid`,
  ).all(harness, id) as unknown as SessionListRow[];
}

/** One speech record held for matching. */
export interface SpeechRecord {
  rowid: number;
  seq: number;
  role: string;
  time: number | null;
  subagent: boolean;
  truncated: boolean;
  line: number | null;
  offset: number | null;
  recordId: string | null;
  text: string;
}

/**
 * The user and assistant records of one session, in order.
 *
 * @param db The index.
 * @param session Session rowid.
 * @returns Records with decoded text.
 */
export function speechRecords(
  db: Database,
  session: number,
): Promise<SpeechRecord[]> {
  const rows = db.prepare(
    `SELECT rowid, seq, role, time, flags, line, offset, record_id, body FROM records
      WHERE session = ? AND role IN ('user', 'assistant') ORDER BY seq`,
  ).all(session) as Array<{
    rowid: number;
    seq: number;
    role: string;
    time: number | null;
    flags: number;
    line: number | null;
    offset: number | null;
    record_id: string | null;
    body: Uint8Array | string;
  }>;
  return Promise.all(rows.map(async (r) => ({
    rowid: r.rowid,
    seq: r.seq,
    role: r.role,
    time: r.time,
    subagent: (r.flags & FLAG.subagent) !== 0,
    truncated: (r.flags & FLAG.truncated) !== 0,
    line: r.line,
    offset: r.offset,
    recordId: r.record_id,
    text: await readBody(r.body, (r.flags & FLAG.compressed) !== 0),
  })));
}

/**
 * Supersession ranges of a session: records with `from <= seq < to` are
 * inactive.
 *
 * @param db The index.
 * @param session Session rowid.
 * @returns Marks.
 */
export function sessionMarks(
  db: Database,
  session: number,
): Array<{ kind: string; from: number; to: number }> {
  return (db.prepare(
    "SELECT kind, from_seq, to_seq FROM marks WHERE session = ?",
  )
    .all(session) as Array<{ kind: string; from_seq: number; to_seq: number }>)
    .map((m) => ({ kind: m.kind, from: m.from_seq, to: m.to_seq }));
}

/** Per-harness coverage of the index. */
export interface CoverageRow {
  /** Harness id. */
  source: string;
  /** Visible sessions. */
  sessions: number;
  /** Oldest session start, epoch ms. */
  oldest_ts_ms: number | null;
  /** Newest session update, epoch ms. */
  newest_ts_ms: number | null;
  /** Sessions whose source file is gone (the index forgets them, so 0). */
  source_gone: number;
}

/**
 * Coverage per harness.
 *
 * @param db The index.
 * @returns One row per harness with visible sessions.
 */
export function coverage(db: Database): CoverageRow[] {
  return (db.prepare(
    `SELECT harness, COUNT(*) AS n, MIN(COALESCE(started, updated)) AS oldest, MAX(updated) AS newest
       FROM sessions WHERE hidden = 0 GROUP BY harness ORDER BY harness`,
  ).all() as Array<
    { harness: string; n: number; oldest: number | null; newest: number | null }
  >)
    .map((r) => ({
      source: r.harness,
      sessions: r.n,
      oldest_ts_ms: r.oldest,
      newest_ts_ms: r.newest,
      source_gone: 0,
    }));
}

/**
 * A fingerprint of the index contents: changes whenever an index pass adds,
 * rewrites or removes sessions, records or marks. Search cursors pin it.
 *
 * @param db The index.
 * @returns 16 hex digits.
 */
export function indexRevision(db: Database): string {
  const row = db.prepare(
    `SELECT (SELECT COALESCE(MAX(rowid), 0) FROM records) AS r,
            (SELECT COUNT(*) FROM sessions) AS s,
            (SELECT COALESCE(MAX(rowid), 0) FROM sessions) AS sr,
            (SELECT COALESCE(SUM(records), 0) FROM sessions) AS sn,
            (SELECT COALESCE(MAX(updated), 0) FROM sessions) AS su,
            (SELECT COUNT(*) FROM marks) AS m,
            (SELECT COUNT(*) FROM sessions WHERE hidden = 1) AS h`,
  ).get() as Record<string, number>;
  return sha256Hex(JSON.stringify(row)).slice(0, 16);
}

/**
 * Distinct harness ids in the index.
 *
 * @param db The index.
 * @returns Ids.
 */
export function indexedHarnesses(db: Database): string[] {
  return (db.prepare("SELECT DISTINCT harness FROM sessions ORDER BY harness")
    .all() as Array<
      { harness: string }
    >).map((r) => r.harness);
}
