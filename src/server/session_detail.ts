/**
 * The session read behind the console's reader: one session's records in
 * pages, each marked superseded / sub-agent / error, and jump-to-hit — a
 * search hit's locator resolves to the record it names (`resolved`), to a
 * record whose text changed (`stale`), or to nothing (`unavailable`), and
 * the page is centered on the record when it resolves.
 *
 * @module
 */
import type { Database } from "../core/_sqlite.ts";
import { DejaError } from "../core/errors.ts";
import { HARNESS_IDS, harnessId } from "../core/harness_ids.ts";
import { sha256Hex } from "../core/hash.ts";
import { readSessionRecords, type StoredRecord } from "../search/mod.ts";
import { fromBase64Url } from "./_b64url.ts";
import { findSessions, sessionMarks } from "./_index_reads.ts";
import type { HitLocator } from "./message_search.ts";

/** Entries per page by default. */
export const DEFAULT_PAGE = 200;
/** Text per entry, in UTF-16 units, before the entry is clipped. */
export const ENTRY_TEXT_CAP = 64 * 1024;

/** One record as the reader shows it. */
export interface SessionEntry {
  /** Position in the full list of the session's records. */
  index: number;
  /** Record position in the session (parser order). */
  seq: number;
  /** Role. */
  role: string;
  /** Record time, epoch ms. */
  ts_ms: number | null;
  /** The text (clipped at 64 Ki characters; see `clipped`). */
  text: string;
  /** The reader cut the text. */
  clipped: boolean;
  /** A rollback, undo, rewind or branch switch made the record inactive. */
  superseded: boolean;
  /** Written by a sub-agent. */
  subagent: boolean;
  /** The index stored a cut text. */
  truncated: boolean;
  /** Tool output the harness marked as an error. */
  is_error: boolean;
  /** A command's exit code. */
  exit_code: number | null;
  /** Tool name. */
  tool: string | null;
}

/** How a `locate` request resolved. */
export type LocateResult =
  | {
    state: "resolved";
    entry_index: number;
    total_index: number;
    anchor: "exact";
  }
  | { state: "stale"; reason: string }
  | { state: "unavailable"; reason: string };

/** The answer of the session read. */
export interface SessionDetail {
  /** The session. */
  session: {
    key: string;
    harness: string;
    id: string;
    project: string;
    path: string;
    title: string;
    started: number | null;
    updated: number | null;
    parent: string | null;
    lineage: string | null;
  };
  /** Records in the session. */
  total: number;
  /** First entry's index. */
  offset: number;
  /** Page size asked. */
  limit: number;
  /** The page. */
  entries: SessionEntry[];
  /** Supersession marks. */
  marks: Array<{ kind: string; from: number; to: number }>;
  /** Present when `locate` was given. */
  locate?: LocateResult;
}

/** Options for {@linkcode sessionDetail}. */
export interface SessionDetailOptions {
  /** Locator JSON (URL-decoded) or base64url of it. */
  locate?: string;
  /** First entry (ignored when the locator resolves). */
  offset?: number;
  /** Page size (default 200, at most 1000). */
  limit?: number;
}

/**
 * Parses a `locate` parameter: the locator JSON itself or base64url of it.
 *
 * @param value The parameter.
 * @returns The locator.
 * @throws {DejaError} SRV-E006 when it is not a well-formed locator.
 */
export function parseLocator(value: string): HitLocator {
  const text = value.trimStart().startsWith("{")
    ? value
    : fromBase64Url(value.trim());
  let data: unknown;
  try {
    data = text === undefined ? undefined : JSON.parse(text);
  } catch {
    data = undefined;
  }
  const l = data as Partial<HitLocator> | undefined;
  const okOptional = (v: unknown, t: string) =>
    v === undefined || typeof v === t;
  if (
    !l || typeof l !== "object" || l.v !== 1 || l.kind !== "index_record" ||
    typeof l.harness !== "string" || typeof l.session_id !== "string" ||
    typeof l.path !== "string" || !Number.isInteger(l.seq) ||
    typeof l.hash !== "string" ||
    !/^[0-9a-f]{16}$/.test(l.hash) || !okOptional(l.line, "number") ||
    !okOptional(l.offset, "number") || !okOptional(l.record_id, "string")
  ) {
    throw new DejaError(
      "SRV-E006",
      "The locate parameter is not a locator this server issued",
    );
  }
  return l as HitLocator;
}

function resolveLocator(
  locator: HitLocator,
  harness: string,
  id: string,
  records: StoredRecord[],
): { result: LocateResult; index?: number } {
  if (locator.harness !== harness || locator.session_id !== id) {
    return {
      result: {
        state: "unavailable",
        reason: "the locator names another session",
      },
    };
  }
  const index = locator.record_id !== undefined
    ? records.findIndex((r) => r.recordId === locator.record_id)
    : records.findIndex((r) => r.seq === locator.seq);
  if (index < 0) {
    return {
      result: {
        state: locator.record_id !== undefined && records.some((r) =>
            r.seq === locator.seq
          )
          ? "stale"
          : "unavailable",
        reason: locator.record_id !== undefined && records.some((r) =>
            r.seq === locator.seq
          )
          ? "the source was rewritten: the record id is gone"
          : "the record is no longer in the index",
      } as LocateResult,
    };
  }
  const rec = records[index] as StoredRecord;
  if (sha256Hex(rec.text).slice(0, 16) !== locator.hash) {
    return {
      result: {
        state: "stale",
        reason: "the record's text changed since the hit was found",
      },
    };
  }
  return {
    result: {
      state: "resolved",
      entry_index: 0,
      total_index: index,
      anchor: "exact",
    },
    index,
  };
}

/**
 * Reads one session page, optionally centered on a located record.
 *
 * @param db The index.
 * @param harness Harness id, in any case, or an alias the CLI takes (`claude`).
 * @param id Exact session id.
 * @param options Locator and paging.
 * @returns The page with the locate outcome.
 * @throws {DejaError} QRY-E002 when no such session is indexed; SRV-E006 for an
 * unknown harness or bad parameters.
 */
export async function sessionDetail(
  db: Database,
  harness: string,
  id: string,
  options: SessionDetailOptions = {},
): Promise<SessionDetail> {
  const limit = options.limit ?? DEFAULT_PAGE;
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
    throw new DejaError(
      "SRV-E006",
      "limit must be a whole number from 1 to 1000",
    );
  }
  let offset = options.offset ?? 0;
  if (!Number.isInteger(offset) || offset < 0) {
    throw new DejaError("SRV-E006", "offset must be a whole number from 0");
  }
  const locator = options.locate === undefined
    ? undefined
    : parseLocator(options.locate);
  const known = harnessId(harness);
  if (!known) {
    throw new DejaError(
      "SRV-E006",
      `Unknown harness "${harness}": use one of ${HARNESS_IDS.join(", ")}`,
    );
  }
  const row = findSessions(db, known, id)[0];
  if (!row) {
    throw new DejaError(
      "QRY-E002",
      `No session "${known}:${id}" is indexed (this route takes the whole id, as search results give it)`,
    );
  }
  const records = await readSessionRecords(db, row.rowid);
  const marks = sessionMarks(db, row.rowid);
  let locate: LocateResult | undefined;
  if (locator) {
    const found = resolveLocator(locator, harness, id, records);
    locate = found.result;
    if (found.index !== undefined && locate.state === "resolved") {
      offset = Math.max(
        0,
        Math.min(found.index - Math.floor(limit / 2), records.length - limit),
      );
      locate.entry_index = found.index - offset;
    }
  }
  const entries = records.slice(offset, offset + limit).map((
    r,
    i,
  ): SessionEntry => ({
    index: offset + i,
    seq: r.seq,
    role: r.role,
    ts_ms: r.time,
    text: r.text.length > ENTRY_TEXT_CAP
      ? r.text.slice(0, ENTRY_TEXT_CAP)
      : r.text,
    clipped: r.text.length > ENTRY_TEXT_CAP,
    superseded: marks.some((m) => r.seq >= m.from && r.seq < m.to),
    subagent: r.subagent,
    truncated: r.truncated,
    is_error: r.isError,
    exit_code: r.exitCode,
    tool: r.tool,
  }));
  const detail: SessionDetail = {
    session: {
      key: `${row.harness}:${row.id}`,
      harness: row.harness,
      id: row.id,
      project: row.project,
      path: row.path,
      title: row.title ?? "",
      started: row.started,
      updated: row.updated,
      parent: row.parent,
      lineage: row.lineage,
    },
    total: records.length,
    offset,
    limit,
    entries,
    marks,
  };
  if (locate) detail.locate = locate;
  return detail;
}
