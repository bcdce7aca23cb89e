/**
 * Reading one session back: resolve an id prefix, then every record in
 * order with its superseded and sub-agent flags.
 *
 * @module
 */
import type { Database } from "../core/_sqlite.ts";
import { DejaError } from "../core/errors.ts";
import { HARNESS_IDS, harnessId } from "../core/harness_ids.ts";
import type { Role } from "../core/types.ts";
import {
  idPrefix,
  readSessionRecords,
  type SessionInfo,
  sessionInfoOf,
  type SessionRow,
  type StoredRecord,
} from "./_rows.ts";

/** A record as `show` prints it. */
export interface ShownRecord extends Omit<StoredRecord, "rowid"> {
  /** A rollback, undo, rewind or branch switch made this record inactive. */
  superseded: boolean;
}

/** One session with its records. */
export interface ShownSession {
  /** The session. */
  session: SessionInfo;
  /** Records in order. */
  records: ShownRecord[];
  /** Supersession marks. */
  marks: Array<{ kind: string; from: number; to: number }>;
}

/**
 * Resolves a session id prefix (optionally `harness:prefix`, the harness
 * by id, any case or common other name) to one session.
 *
 * @param db The index.
 * @param prefix The id or a unique prefix of it.
 * @returns The session row.
 * @throws DejaError QRY-E002 when none matches (naming an unknown harness
 * before the colon), QRY-E003 when several do.
 */
export function resolveSession(db: Database, prefix: string): SessionRow {
  const colon = prefix.indexOf(":");
  if (colon <= 0) return resolveIn(db, undefined, prefix, prefix);
  const named = prefix.slice(0, colon);
  const harness = harnessId(named);
  if (harness) return resolveIn(db, harness, prefix.slice(colon + 1), prefix);
  // Not a harness: an id with a colon in it, else a harness mistyped.
  try {
    return resolveIn(db, undefined, prefix, prefix);
  } catch (err) {
    if (!(err instanceof DejaError) || err.code !== "QRY-E002") throw err;
    throw new DejaError(
      "QRY-E002",
      `Unknown harness "${named}" in "${prefix}": a session is <harness>:<id>, the harness one of ${
        HARNESS_IDS.join(", ")
      }`,
    );
  }
}

/**
 * The one session `idPart` starts the id of, in `harness` when given;
 * errors quote `prefix`, the reference as typed.
 */
function resolveIn(
  db: Database,
  harness: string | undefined,
  idPart: string,
  prefix: string,
): SessionRow {
  // A prefix compared as LIKE does (ASCII case folded), but with no pattern:
  // SQLite refuses a LIKE pattern over 50,000 bytes, and a corrupt
  // transcript can give a session an id that long.
  const starts = idPrefix("id", idPart);
  const rows = (harness
    ? db.prepare(
      `SELECT * FROM sessions WHERE harness = ? AND ${starts.sql} ORDER BY hidden, updated DESC LIMIT 20`,
    ).all(harness, ...starts.params)
    : db.prepare(
      `SELECT * FROM sessions WHERE ${starts.sql} ORDER BY hidden, updated DESC LIMIT 20`,
    ).all(...starts.params)) as unknown as SessionRow[];
  const exact = rows.filter((r) => r.id === idPart);
  const pool = exact.length > 0 ? exact : rows;
  const visible = pool.filter((r) =>
    !(r as SessionRow & { hidden?: number }).hidden
  );
  const candidates = visible.length > 0 ? visible : pool;
  const ids = new Set(candidates.map((r) => `${r.harness}:${r.id}`));
  if (candidates.length === 0) {
    throw new DejaError("QRY-E002", `No session id starts with "${prefix}"`);
  }
  if (ids.size > 1) {
    // The list is read 20 rows at most: past that, say there are more.
    const more = ids.size > 8 || rows.length === 20
      ? `, and ${ids.size > 8 ? `${ids.size - 8} ` : ""}more${
        rows.length === 20 ? " (at least)" : ""
      }: type more of the id`
      : "";
    throw new DejaError(
      "QRY-E003",
      `Session prefix "${prefix}" is ambiguous: ${
        [...ids].slice(0, 8).join(", ")
      }${more}`,
      { detail: { matches: [...ids] } },
    );
  }
  return candidates[0] as SessionRow;
}

/** Options for {@linkcode showSession}. */
export interface ShowOptions {
  /** Only these roles. */
  roles?: readonly Role[];
}

/**
 * Reads a session and its records.
 *
 * @param db The index.
 * @param prefix Session id or unique prefix.
 * @param options Role filter.
 * @returns The session, records in order, and marks.
 */
export async function showSession(
  db: Database,
  prefix: string,
  options: ShowOptions = {},
): Promise<ShownSession> {
  const row = resolveSession(db, prefix);
  const marks =
    (db.prepare("SELECT kind, from_seq, to_seq FROM marks WHERE session = ?")
      .all(row.rowid) as Array<
        { kind: string; from_seq: number; to_seq: number }
      >)
      .map((m) => ({ kind: m.kind, from: m.from_seq, to: m.to_seq }));
  const records = (await readSessionRecords(db, row.rowid))
    .filter((r) =>
      !options.roles?.length || options.roles.includes(r.role as Role)
    )
    .map(({ rowid: _rowid, ...rest }) => ({
      ...rest,
      superseded: marks.some((m) => rest.seq >= m.from && rest.seq < m.to),
    }));
  return { session: sessionInfoOf(row), records, marks };
}
