/**
 * Reading sessions and records back out of the index.
 *
 * @module
 */
import type { Database } from "../core/_sqlite.ts";
// Imported from the files, not index/mod.ts: the query path must not load
// the indexer's graph (redaction, zlib, crypto) at start-up.
import { FLAG } from "../index/schema.ts";
import { readBody } from "../index/read_body.ts";
import { prepared } from "./_statements.ts";

/** A `sessions` row as stored. */
export interface SessionRow {
  rowid: number;
  harness: string;
  id: string;
  path: string;
  kind: string;
  project: string;
  cwd: string | null;
  title: string | null;
  started: number | null;
  updated: number | null;
  parent: string | null;
  lineage: string | null;
  records: number;
  user_turns: number;
}

/** A session as search results and `show` describe it. */
export interface SessionInfo {
  /** Harness id. */
  harness: string;
  /** Session id. */
  id: string;
  /** Project name. */
  project: string;
  /** Source file. */
  path: string;
  /** Title (first user line). */
  title: string;
  /** First record time (ISO 8601), when known. */
  started: string | null;
  /** Last record time (ISO 8601), when known. */
  updated: string | null;
  /** Parent session for sub-agents and forks. */
  parent?: string;
  /** Relation to the parent. */
  lineage?: string;
  /** Working directory. */
  cwd?: string;
  /** Record count. */
  records: number;
}

/**
 * A clause matching ids that start with `prefix`, ASCII case folded as LIKE
 * folds it, but with no LIKE pattern: SQLite refuses one over 50,000 bytes,
 * and a corrupt transcript can give a session an id that long.
 *
 * @param column The id column, e.g. `s.id`.
 * @param prefix The typed prefix.
 * @returns The SQL and its two parameters.
 */
export function idPrefix(
  column: string,
  prefix: string,
): { sql: string; params: [number, string] } {
  return {
    sql: `lower(substr(${column}, 1, ?)) = lower(?)`,
    // substr counts characters (code points), as the spread does.
    params: [[...prefix].length, prefix],
  };
}

/**
 * A stored time as ISO text; null for none, and for one no Date can hold
 * (an index written before parseTime refused them).
 */
function isoTime(ms: number | null): string | null {
  if (ms == null) return null;
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/**
 * Converts a stored row to the public shape.
 *
 * @param row The row.
 * @returns The session info.
 */
export function sessionInfoOf(row: SessionRow): SessionInfo {
  const info: SessionInfo = {
    harness: row.harness,
    id: row.id,
    project: row.project,
    path: row.path,
    title: row.title ?? "",
    started: isoTime(row.started),
    updated: isoTime(row.updated),
    records: row.records,
  };
  if (row.parent) info.parent = row.parent;
  if (row.lineage) info.lineage = row.lineage;
  if (row.cwd) info.cwd = row.cwd;
  return info;
}

/**
 * The rowid of the session a result names (harness, id and file), or
 * undefined when it is no longer indexed.
 *
 * @param db The index.
 * @param session The session as a result shows it.
 * @returns Its rowid.
 */
export function sessionRowid(
  db: Database,
  session: Pick<SessionInfo, "harness" | "id" | "path">,
): number | undefined {
  const row = prepared(
    db,
    "SELECT rowid FROM sessions WHERE harness = ? AND id = ? AND path = ?",
  ).get(session.harness, session.id, session.path) as
    | { rowid: number }
    | undefined;
  return row?.rowid;
}

/** A record read back with its text. */
export interface StoredRecord {
  /** Row id in the index. */
  rowid: number;
  /** Position in the session. */
  seq: number;
  /** Role. */
  role: string;
  /** Text (redacted). */
  text: string;
  /** Time (ms), if known. */
  time: number | null;
  /** Exit code of a command. */
  exitCode: number | null;
  /** Tool name. */
  tool: string | null;
  /** Source line. */
  line: number | null;
  /** Source byte offset. */
  offset: number | null;
  /** Source record id. */
  recordId: string | null;
  /** Written by a sub-agent. */
  subagent: boolean;
  /** Tool output flagged as an error. */
  isError: boolean;
  /** Text was cut to the stored cap. */
  truncated: boolean;
  /** Speech that states a decision (flagged at index time). */
  decision?: boolean;
}

/** A `records` row as stored. */
export interface RecordRow {
  rowid: number;
  seq: number;
  role: string;
  time: number | null;
  flags: number;
  exit_code: number | null;
  tool: string | null;
  line: number | null;
  offset: number | null;
  record_id: string | null;
  /** Text, or deflated UTF-8 bytes (flagged compressed). */
  body: Uint8Array | string;
}

/**
 * Decodes a stored record row.
 *
 * @param row The row.
 * @returns The record with its text.
 */
export async function recordOf(row: RecordRow): Promise<StoredRecord> {
  return {
    rowid: row.rowid,
    seq: row.seq,
    role: row.role,
    text: await readBody(row.body, (row.flags & FLAG.compressed) !== 0),
    time: row.time,
    exitCode: row.exit_code,
    tool: row.tool,
    line: row.line,
    offset: row.offset,
    recordId: row.record_id,
    subagent: (row.flags & FLAG.subagent) !== 0,
    isError: (row.flags & FLAG.isError) !== 0,
    truncated: (row.flags & FLAG.truncated) !== 0,
    decision: (row.flags & FLAG.decision) !== 0,
  };
}

/**
 * Several records in one query (a search's snippets and signals).
 *
 * @param db The index.
 * @param rowids Record rowids.
 * @returns The records found, by rowid.
 */
export async function readRecordTexts(
  db: Database,
  rowids: readonly number[],
): Promise<Map<number, StoredRecord>> {
  const rows = prepared(
    db,
    "SELECT r.* FROM json_each(?) AS w JOIN records r ON r.rowid = w.value",
  ).all(JSON.stringify(rowids)) as unknown as RecordRow[];
  const out = new Map<number, StoredRecord>();
  for (const row of rows) out.set(row.rowid, await recordOf(row));
  return out;
}

/**
 * Reads one record by rowid.
 *
 * @param db The index.
 * @param rowid The record's rowid.
 * @returns The record, or undefined.
 */
export function readRecordText(
  db: Database,
  rowid: number,
): Promise<StoredRecord | undefined> {
  const row = prepared(db, "SELECT * FROM records WHERE rowid = ?").get(
    rowid,
  ) as unknown as RecordRow | undefined;
  return row ? recordOf(row) : Promise.resolve(undefined);
}

/**
 * Reads every record of a session in order.
 *
 * @param db The index.
 * @param session The session rowid.
 * @returns The records.
 */
export function readSessionRecords(
  db: Database,
  session: number,
): Promise<StoredRecord[]> {
  const rows = prepared(
    db,
    "SELECT * FROM records WHERE session = ? ORDER BY seq",
  )
    .all(session) as unknown as RecordRow[];
  return Promise.all(rows.map(recordOf));
}
