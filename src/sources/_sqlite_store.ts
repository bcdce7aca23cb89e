/**
 * Reading other agents' SQLite stores (opencode, Cursor, Goose, Zed, Crush):
 * open read-only with a bounded wait, check the schema before trusting it,
 * stream rows, and turn SQLite failures into named read errors.
 *
 * @module
 */
import { type Database, openDatabase } from "../core/_sqlite.ts";
import { DejaError, messageOf } from "../core/errors.ts";

/** How long a read waits on a writer's lock before giving up. */
const BUSY_TIMEOUT_MS = 2000;

/** A row as `node:sqlite` hands it back. */
export type Row = Record<string, unknown>;

/** One open store plus what its schema holds. */
export interface Store {
  /** The open database. */
  db: Database;
  /** Path it was opened from (for messages). */
  path: string;
  /** Display name of the harness (for messages). */
  harness: string;
  /** Table names, as written in the schema. */
  tables: ReadonlySet<string>;
}

/**
 * Turns a SQLite failure into the error callers catch: a locked store is
 * SRC-E004; a file that is not a database, a damaged database (cut short,
 * overwritten) or anything else is an unreadable store (SRC-E001). An
 * unknown schema (SRC-E002) is only ever a database missing what the parser
 * needs.
 */
function storeError(harness: string, path: string, cause: unknown): DejaError {
  if (cause instanceof DejaError && cause.code !== "IDX-E001") return cause;
  const message = messageOf(cause);
  if (/locked|SQLITE_BUSY/i.test(message)) {
    return new DejaError(
      "SRC-E004",
      `The ${harness} store "${path}" stayed locked: ${message}`,
      { cause },
    );
  }
  if (/malformed|SQLITE_CORRUPT/i.test(message)) {
    return new DejaError(
      "SRC-E001",
      `Cannot read the ${harness} store "${path}": the database is damaged (${message})`,
      { cause },
    );
  }
  if (/not a database|SQLITE_NOTADB/i.test(message)) {
    return new DejaError(
      "SRC-E001",
      `Cannot read the ${harness} store "${path}": not a SQLite database (${message})`,
      { cause },
    );
  }
  return new DejaError(
    "SRC-E001",
    `Cannot read the ${harness} store "${path}": ${message}`,
    { cause },
  );
}

/**
 * Opens another agent's store read-only and lists its tables.
 *
 * @param path The database file.
 * @param harness Display name for error messages, e.g. "Crush".
 * @returns The open store; close it with {@linkcode closeStore}.
 */
export function openStore(path: string, harness: string): Store {
  let db: Database;
  try {
    db = openDatabase(path, { readOnly: true, busyTimeoutMs: BUSY_TIMEOUT_MS });
  } catch (cause) {
    throw storeError(harness, path, cause);
  }
  try {
    const tables = new Set<string>();
    for (
      const row of db.prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table'",
      ).iterate()
    ) {
      if (typeof row.name === "string") tables.add(row.name);
    }
    return { db, path, harness, tables };
  } catch (cause) {
    db.close();
    throw storeError(harness, path, cause);
  }
}

/** Closes a store, ignoring errors on close. */
export function closeStore(store: Store): void {
  try {
    store.db.close();
  } catch {
    // Closing a read-only handle cannot lose anything.
  }
}

/**
 * Opens a store, hands it to `read`, and closes it whatever happens. The read
 * runs on a later tick, so an open or schema error rejects the promise rather
 * than throwing at the call.
 *
 * @param path The database file.
 * @param harness Display name for error messages, e.g. "Crush".
 * @param read Reads what it needs from the open store.
 * @returns What `read` returns.
 * @example
 * ```ts
 * import { readStore } from "./_sqlite_store.ts";
 * import { rejects } from "node:assert/strict";
 * const path = await Deno.makeTempFile({ suffix: ".db" });
 * await Deno.writeTextFile(path, "not a database, just text");
 * await rejects(readStore(path, "X", (store) => store.tables.size), /not a SQLite database/);
 * ```
 */
export function readStore<T>(
  path: string,
  harness: string,
  read: (store: Store) => T,
): Promise<T> {
  return Promise.resolve().then(() => {
    const store = openStore(path, harness);
    try {
      return read(store);
    } finally {
      closeStore(store);
    }
  });
}

/**
 * The error for a store whose schema the parser does not know.
 *
 * @param store The store.
 * @param missing What is missing, e.g. `table "messages"`.
 * @returns A SRC-E002 error to throw.
 */
export function unknownSchema(store: Store, missing: string): DejaError {
  return new DejaError(
    "SRC-E002",
    `Unknown ${store.harness} schema in "${store.path}": missing ${missing}`,
  );
}

/** Throws SRC-E002 unless every table in `names` exists. */
export function requireTables(store: Store, names: readonly string[]): void {
  for (const name of names) {
    if (!store.tables.has(name)) throw unknownSchema(store, `table "${name}"`);
  }
}

/** The column names of a table (empty when it does not exist). */
export function columnsOf(store: Store, table: string): Set<string> {
  const columns = new Set<string>();
  try {
    for (
      const row of store.db.prepare(
        "SELECT name FROM pragma_table_info(?)",
      ).iterate(table)
    ) {
      if (typeof row.name === "string") columns.add(row.name);
    }
  } catch (cause) {
    throw storeError(store.harness, store.path, cause);
  }
  return columns;
}

/** Throws SRC-E002 unless the table has every column in `names`. */
export function requireColumns(
  store: Store,
  table: string,
  names: readonly string[],
): Set<string> {
  const columns = columnsOf(store, table);
  for (const name of names) {
    if (!columns.has(name)) {
      throw unknownSchema(store, `column "${name}" in table "${table}"`);
    }
  }
  return columns;
}

/**
 * Streams the rows of a query. `iterate()` is used rather than `all()` so a
 * store of any size is never held whole; select columns through
 * {@linkcode col} so a huge integer cannot end the iteration silently.
 *
 * @param store The store.
 * @param sql The query.
 * @param params Bound parameters.
 * @returns The rows.
 */
export function* rows(
  store: Store,
  sql: string,
  ...params: Array<string | number>
): Generator<Row> {
  let iterator: Iterator<Row>;
  try {
    iterator = store.db.prepare(sql).iterate(...params) as Iterator<Row>;
  } catch (cause) {
    throw storeError(store.harness, store.path, cause);
  }
  while (true) {
    let next: IteratorResult<Row>;
    try {
      next = iterator.next();
    } catch (cause) {
      throw storeError(store.harness, store.path, cause);
    }
    if (next.done) return;
    yield next.value;
  }
}

/**
 * A result column that reads safely: `node:sqlite` ends an `iterate()` early,
 * without an error, at an INTEGER past 2^53, so integers are read as REAL
 * (exact up to 2^53) and everything else as stored.
 *
 * @param expr A column or expression.
 * @param alias The result name (defaults to `expr`).
 * @returns SQL for the select list.
 */
export function col(expr: string, alias: string = expr): string {
  return `CASE typeof(${expr}) WHEN 'integer' THEN CAST(${expr} AS REAL) ELSE ${expr} END AS ${
    ident(alias)
  }`;
}

/** A column value as text: strings as they are, blobs decoded as UTF-8. */
export function textColumn(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (value instanceof Uint8Array) {
    return new TextDecoder().decode(value);
  }
  return undefined;
}

/** A column value as a finite number (numbers, bigints, numeric strings). */
export function numberColumn(value: unknown): number | undefined {
  if (typeof value === "number") {
    return Number.isFinite(value) ? value : undefined;
  }
  if (typeof value === "bigint") return Number(value);
  if (typeof value === "string" && /^-?\d+(\.\d+)?$/.test(value.trim())) {
    return Number(value);
  }
  return undefined;
}

/** Quotes an identifier for SQL (column names probed from the schema). */
export function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
