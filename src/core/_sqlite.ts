/**
 * The only importer of `node:sqlite`. Every database deja opens, its own or
 * another agent's, goes through here.
 *
 * @module
 */
import { DatabaseSync } from "node:sqlite";
import { DejaError, type ErrorCode, messageOf } from "./errors.ts";

/** An open SQLite database. */
export type Database = DatabaseSync;

/** Options for {@linkcode openDatabase}. */
export interface OpenDatabaseOptions {
  /** Open without write access (other agents' stores). */
  readOnly?: boolean;
  /** Milliseconds to wait on a lock before SQLITE_BUSY. */
  busyTimeoutMs?: number;
  /** Require FTS5 and fail with an actionable error when missing. */
  requireFts5?: boolean;
  /** Open a frozen copy without touching -wal/-shm (fixtures, copies). */
  immutable?: boolean;
}

/**
 * Opens a SQLite database. Writable databases use WAL and a busy timeout.
 *
 * @param path File path or ":memory:".
 * @param options Read-only, busy timeout and FTS5 requirement.
 * @returns The open database.
 * @example
 * ```ts
 * import { openDatabase } from "./_sqlite.ts";
 * import { equal } from "node:assert/strict";
 * const db = openDatabase(":memory:", { requireFts5: true });
 * equal(db.prepare("select 1 as one").get()?.one, 1);
 * db.close();
 * ```
 */
export function openDatabase(
  path: string,
  options: OpenDatabaseOptions = {},
): Database {
  let db: DatabaseSync;
  try {
    if (options.immutable) {
      const url = new URL("file://");
      url.pathname = path;
      url.searchParams.set("immutable", "1");
      db = new DatabaseSync(url, { readOnly: true });
    } else {
      db = new DatabaseSync(path, { readOnly: options.readOnly ?? false });
    }
  } catch (cause) {
    throw new DejaError(
      "IDX-E001",
      `Cannot open database "${path}": ${whyNot(path, cause)}`,
      { cause },
    );
  }
  try {
    db.exec(`PRAGMA busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
    if (!options.readOnly && !options.immutable && path !== ":memory:") {
      db.exec("PRAGMA journal_mode = WAL");
      db.exec("PRAGMA synchronous = NORMAL");
    }
    if (options.requireFts5) probeFts5(db);
  } catch (cause) {
    db.close();
    if (cause instanceof DejaError) throw cause;
    throw new DejaError(
      "IDX-E001",
      `Cannot open database "${path}": ${whyNot(path, cause)}`,
      { cause },
    );
  }
  return db;
}

/**
 * Why SQLite could not open a path, in words: a folder is named as one
 * (SQLite says only "unable to open database file" or "disk I/O error").
 */
function whyNot(path: string, cause: unknown): string {
  try {
    if (path === ":memory:") return messageOf(cause);
    const stat = Deno.statSync(path);
    if (stat.isDirectory) return "it is a folder, not a database file";
    const code = (cause as { errcode?: unknown }).errcode;
    if (
      typeof code === "number" && NO_SHM_CODES.has(code & 0xff) &&
      !exists(`${path}-shm`)
    ) {
      return `${
        messageOf(cause)
      } (is its folder read-only? A reader of a WAL database makes "${path}-shm" beside it: copy the file to a writable folder and open the copy)`;
    }
  } catch {
    // Missing or unreadable: SQLite's own words say which.
  }
  return messageOf(cause);
}

/**
 * What a WAL reader gets when it cannot make `-shm`: SQLITE_READONLY (a
 * folder it may not write) or SQLITE_CANTOPEN (a read-only file system).
 */
const NO_SHM_CODES = new Set([8, 14]);

/**
 * Whether a path names something on disk (a stat that succeeds).
 *
 * @param path The path.
 * @returns True when it exists.
 */
export function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** SQLite's result codes for a damaged file: SQLITE_CORRUPT, SQLITE_NOTADB. */
const DAMAGED_CODES = new Set([11, 26]);

/**
 * Whether an error (or the error it wraps) is SQLite finding the file
 * damaged: a corrupt page met in a query, or a file that is no database.
 *
 * @param err What was thrown.
 * @returns True for SQLITE_CORRUPT and SQLITE_NOTADB.
 * @example
 * ```ts
 * import { isDamagedDatabase } from "./_sqlite.ts";
 * import { equal } from "node:assert/strict";
 * equal(isDamagedDatabase(new Error("disk full")), false);
 * ```
 */
export function isDamagedDatabase(err: unknown): boolean {
  for (let e = err, depth = 0; e instanceof Error && depth < 4; depth++) {
    const code = (e as { errcode?: unknown }).errcode;
    if (typeof code === "number" && DAMAGED_CODES.has(code & 0xff)) return true;
    e = e.cause;
  }
  return false;
}

/**
 * Whether SQLite's integrity check finds a database file damaged: run once
 * a query met a corrupt page, to tell which file it was.
 *
 * @param path The database path.
 * @returns True when the file exists and fails the check.
 */
export function databaseIsDamaged(path: string): boolean {
  let db: Database;
  try {
    db = openDatabase(path, { readOnly: true });
  } catch (err) {
    return isDamagedDatabase(err);
  }
  try {
    const row = db.prepare("PRAGMA quick_check(1)").get() as
      | { quick_check: string }
      | undefined;
    return row?.quick_check !== "ok";
  } catch (err) {
    return isDamagedDatabase(err);
  } finally {
    db.close();
  }
}

function probeFts5(db: DatabaseSync): void {
  // Compiled in (as in Deno's node:sqlite): a cheap check instead of
  // creating and dropping a table (~1 ms of every search process).
  const built = db.prepare(
    "SELECT sqlite_compileoption_used('ENABLE_FTS5') AS yes",
  ).get() as { yes: number } | undefined;
  if (built?.yes === 1) return;
  try {
    db.exec(
      "CREATE VIRTUAL TABLE temp._fts5_probe USING fts5(x); DROP TABLE temp._fts5_probe",
    );
  } catch (cause) {
    throw new DejaError(
      "IDX-E004",
      "This SQLite build lacks FTS5: run deja with Deno 2.9 or newer, whose node:sqlite ships it",
      { cause },
    );
  }
}

/**
 * Runs `fn` inside a transaction, committing on success and rolling back on
 * any error.
 *
 * @param db The database.
 * @param fn The work.
 * @returns What `fn` returns.
 * @example
 * ```ts
 * import { openDatabase, transaction } from "./_sqlite.ts";
 * import { equal } from "node:assert/strict";
 * const db = openDatabase(":memory:");
 * db.exec("create table t(x)");
 * transaction(db, () => db.exec("insert into t values (1)"));
 * equal(db.prepare("select count(*) as n from t").get()?.n, 1);
 * ```
 */
export function transaction<T>(db: Database, fn: () => T): T {
  db.exec("BEGIN IMMEDIATE");
  try {
    const result = fn();
    db.exec("COMMIT");
    return result;
  } catch (err) {
    db.exec("ROLLBACK");
    throw err;
  }
}

/**
 * Refuses a database file this process may not write, by name: SQLite
 * opens one anyway and fails at the first write with only "attempt to write
 * a readonly database". A missing file (created next) or anything else (a
 * folder, say) is left for the open to name.
 *
 * @param path The database file.
 * @param code The error code to throw.
 * @param what What the file is ("the index", "memory file").
 * @param way What to do instead ("point DEJA_INDEX at a writable file").
 * @throws {DejaError} When the file exists and cannot be written.
 */
export function assertWritable(
  path: string,
  code: ErrorCode,
  what: string,
  way: string,
): void {
  try {
    Deno.openSync(path, { write: true }).close();
  } catch (err) {
    if (
      err instanceof Deno.errors.PermissionDenied ||
      /read-only|os error (13|30)/i.test(String(err))
    ) {
      throw new DejaError(
        code,
        `Cannot write ${what} "${path}" (${
          messageOf(err)
        }): make it writable, or ${way}`,
        { cause: err },
      );
    }
  }
}
