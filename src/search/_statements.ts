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
