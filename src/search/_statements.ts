/**
 * Prepared statements kept per open database, so repeated searches on one
 * connection (the MCP server, the console, a bench) compile each query
 * once. Compiling an FTS5 query costs tens of microseconds.
 *
 * @module
 */
import type { Database } from "../core/_sqlite.ts";

/** A prepared statement. */
export type Statement = ReturnType<Database["prepare"]>;

const byDb = new WeakMap<Database, Map<string, Statement>>();

/**
 * The prepared statement for `sql` on `db`, compiled on first use.
 *
 * @param db The database.
 * @param sql The SQL.
 * @returns The statement.
 */
export function prepared(db: Database, sql: string): Statement {
  let cache = byDb.get(db);
  if (!cache) {
    cache = new Map();
    byDb.set(db, cache);
  }
  let stmt = cache.get(sql);
  if (!stmt) {
    stmt = db.prepare(sql);
    cache.set(sql, stmt);
  }
  return stmt;
}

/** What {@linkcode untilIndexChanges} keeps per connection. */
export type VersionedCache<T> = WeakMap<
  Database,
  { version: number; value: T }
>;

/**
 * The index's version as this connection sees it (`PRAGMA data_version`
 * moves when another connection commits).
 *
 * @param db The connection.
 * @returns The version.
 */
export function indexVersion(db: Database): number {
  return (prepared(db, "PRAGMA data_version").get() as {
    data_version: number;
  }).data_version;
}

/**
 * A value kept per open connection until the index changes: a long-lived
 * reader (the MCP server, the console) works it out once per index
 * version, a one-shot search once.
 *
 * @param cache Where the values are kept.
 * @param db The connection.
 * @param make Works the value out afresh.
 * @param version The index's version, when the caller read it already
 *   (once per search: its read transaction sees one version).
 * @returns The kept value, or a new one.
 */
export function untilIndexChanges<T>(
  cache: VersionedCache<T>,
  db: Database,
  make: () => T,
  version: number = indexVersion(db),
): T {
  let entry = cache.get(db);
  if (!entry || entry.version !== version) {
    entry = { version, value: make() };
    cache.set(db, entry);
  }
  return entry.value;
}
