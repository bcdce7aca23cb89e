/**
 * The transcript index's SQLite schema. The index is a rebuildable cache:
 * an unknown older format is dropped and rebuilt, a newer one refused.
 *
 * @module
 */
import { type Database, openDatabase } from "../core/_sqlite.ts";
import { DejaError } from "../core/errors.ts";
import type { Role } from "../core/types.ts";
import { forgetVocabulary, VOCABULARY_SCHEMA } from "./vocabulary.ts";

/**
 * The on-disk format version; bump when an older layout would be misread.
 * 4: plain bodies stored as text (an older reader expects bytes), long tool
 * output kept as its excerpt. 5: a record's rowid also says its role.
 */
export const INDEX_FORMAT = 5;

/**
 * Rowids per session in `records` (and the FTS tables, which share them):
 * a record's rowid is its session's rowid × 2^26 plus 8 × its ordinal in
 * the session plus its role's code ({@linkcode roleOfRecord}). A posting
 * thus names its session and its role without a lookup, which is what lets
 * search group thousands of postings by session and keep only the roles
 * asked for in microseconds, and a session's postings are one rowid range. Room: 2^27 sessions of 2^23 records each
 * inside a double's exact integers.
 */
export const RECORD_SLOTS = 2 ** 26;

/**
 * Rowids per record ordinal: room for the role's code. The low bits of a
 * rowid are read with masks (`rowid & 7`), not `%`: rowids pass 2^31, where
 * `%` is a floating-point remainder about 3× slower per posting, while a
 * bitwise operator takes a double's low 32 bits exactly.
 */
const ROLE_SLOTS = 8;

/** Each role's code in a rowid. */
const ROLE_CODE: Readonly<Record<Role, number>> = {
  assistant: 0,
  user: 1,
  command: 2,
  "tool-output": 3,
  files: 4,
  edit: 5,
  summary: 6,
};

const ROLE_OF_CODE: ReadonlyArray<Role | undefined> = (() => {
  const out: Array<Role | undefined> = new Array(ROLE_SLOTS).fill(undefined);
  for (const [role, code] of Object.entries(ROLE_CODE)) {
    out[code] = role as Role;
  }
  return out;
})();

/**
 * The rowid of a session's `ordinal`-th record.
 *
 * @param session The session's rowid.
 * @param ordinal The record's position among the session's records (from 0).
 * @param role The record's role.
 * @returns The record's rowid.
 * @example
 * ```ts
 * import { recordRowid, roleOfRecord, sessionOfRecord } from "./schema.ts";
 * import { equal } from "node:assert/strict";
 * equal(sessionOfRecord(recordRowid(7, 3, "user")), 7);
 * equal(roleOfRecord(recordRowid(7, 3, "command")), "command");
 * ```
 */
export function recordRowid(
  session: number,
  ordinal: number,
  role: string,
): number {
  const code = ROLE_CODE[role as Role];
  if (code === undefined) throw new RangeError(`Unknown record role "${role}"`);
  if ((ordinal + 1) * ROLE_SLOTS > RECORD_SLOTS) {
    throw new RangeError(
      `Session ${session} has more than ${RECORD_SLOTS / ROLE_SLOTS} records`,
    );
  }
  return session * RECORD_SLOTS + ordinal * ROLE_SLOTS + code;
}

/**
 * The session rowid a record rowid belongs to.
 *
 * @param rowid A record rowid.
 * @returns The session's rowid.
 */
export function sessionOfRecord(rowid: number): number {
  return Math.floor(rowid / RECORD_SLOTS);
}

/**
 * A record's position among its session's records, from its rowid.
 *
 * @param rowid A record rowid.
 * @returns The ordinal (from 0).
 */
export function ordinalOfRecord(rowid: number): number {
  return Math.floor((rowid & (RECORD_SLOTS - 1)) / ROLE_SLOTS);
}

/**
 * A record's role, from its rowid.
 *
 * @param rowid A record rowid.
 * @returns The role (assistant for a code no role has, which no writer makes).
 */
export function roleOfRecord(rowid: number): Role {
  return ROLE_OF_CODE[rowid & (ROLE_SLOTS - 1)] ?? "assistant";
}

/**
 * Whether a record rowid is a user turn.
 *
 * @param rowid A record rowid.
 * @returns True for a user turn.
 */
export function isUserRecord(rowid: number): boolean {
  return (rowid & (ROLE_SLOTS - 1)) === ROLE_CODE.user;
}

/**
 * The full-text table a role's records are posted to: speech (user and
 * assistant turns) and work records live apart, so an ordinary search never
 * walks the postings of tool output.
 *
 * @param role A record role.
 * @returns "fts_speech" or "fts_work".
 */
export function ftsTableFor(role: string): "fts_speech" | "fts_work" {
  return role === "user" || role === "assistant" ? "fts_speech" : "fts_work";
}

/** Record flag bits stored in `records.flags`. */
export const FLAG = {
  subagent: 1,
  truncated: 2,
  isError: 4,
  compressed: 8,
  decision: 16,
} as const;

/**
 * How long a transcript must sit unchanged before its parser reads it as
 * finished (`ParseOptions.settled`): an agent that crashed, or was closed,
 * while a command ran writes no output for it, and what came after that
 * command must not wait for one forever.
 */
export const SETTLED_AFTER_MS = 60 * 60_000;

/**
 * Whether a file's last read kept a tail back for records still to come
 * (its safe offset short of its size) while the file might still grow (read
 * within {@linkcode SETTLED_AFTER_MS} of its last change).
 */
const TAIL_WAITS =
  `(safe_offset < size AND indexed_at - mtime < ${SETTLED_AFTER_MS})`;

/**
 * What an unchanged pass compares every file by, readable without the rows:
 * a row's parser state (kilobytes each, stored before `error`) made reading
 * them from a fresh process cost ~15 ms of a ~57 ms pass on 1,304 files,
 * against ~4 ms from this index. Added within format 5: a writer makes it
 * when it is missing (`openIndex`), in place of `files_check`, the same
 * index before {@linkcode TAIL_WAITS} was read with it.
 */
const FILES_CHECK =
  `CREATE INDEX IF NOT EXISTS files_check2 ON files(path, size, mtime, harness, (error IS NOT NULL), ${TAIL_WAITS});`;

/**
 * Every file's path, size, mtime, whether its last read failed, harness and
 * {@linkcode TAIL_WAITS}, as one JSON array (read from `files_check2`).
 */
export const FILES_CHECK_SQL =
  `SELECT json_group_array(json_array(path, size, mtime, error IS NOT NULL, harness, ${TAIL_WAITS})) AS rows FROM files`;

/**
 * The projects a question may name, which search lists once a connection
 * (`src/search/_corpus.ts`): a scan of every session, grouped in a
 * temporary tree, cost a one-shot search 1.2–1.9 ms on the bench's 1,304
 * sessions and 9.3 ms on 13,040, against 0.3–0.7 and 1.4 ms read from this
 * index.
 * Added within format 5: a writer makes it when it is missing (`openIndex`).
 */
const SESSIONS_PROJECT =
  "CREATE INDEX IF NOT EXISTS sessions_project ON sessions(lower(project), project) WHERE project != '' AND hidden = 0;";

/**
 * The projects of the visible sessions, one spelling each (compared without
 * case): the statement the `sessions_project` index serves.
 */
export const PROJECTS_SQL =
  "SELECT project FROM sessions WHERE project != '' AND hidden = 0 GROUP BY lower(project)";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS files (
  path TEXT PRIMARY KEY,
  harness TEXT NOT NULL,
  kind TEXT NOT NULL,
  size INTEGER NOT NULL,
  mtime INTEGER NOT NULL,
  safe_offset INTEGER NOT NULL DEFAULT 0,
  safe_line INTEGER NOT NULL DEFAULT 1,
  prefix_hash TEXT NOT NULL DEFAULT '',
  state TEXT,
  skipped INTEGER NOT NULL DEFAULT 0,
  redactions TEXT NOT NULL DEFAULT '{}',
  error TEXT,
  indexed_at INTEGER NOT NULL
);
${FILES_CHECK}
CREATE TABLE IF NOT EXISTS sessions (
  rowid INTEGER PRIMARY KEY,
  harness TEXT NOT NULL,
  id TEXT NOT NULL,
  path TEXT NOT NULL,
  kind TEXT NOT NULL,
  project TEXT NOT NULL DEFAULT '',
  cwd TEXT,
  title TEXT,
  started INTEGER,
  updated INTEGER,
  parent TEXT,
  lineage TEXT,
  records INTEGER NOT NULL DEFAULT 0,
  user_turns INTEGER NOT NULL DEFAULT 0,
  hidden INTEGER NOT NULL DEFAULT 0,
  UNIQUE (harness, id, path)
);
CREATE INDEX IF NOT EXISTS sessions_path ON sessions(path);
CREATE INDEX IF NOT EXISTS sessions_id ON sessions(id);
CREATE INDEX IF NOT EXISTS sessions_updated ON sessions(updated);
${SESSIONS_PROJECT}
CREATE TABLE IF NOT EXISTS records (
  rowid INTEGER PRIMARY KEY,
  session INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  role TEXT NOT NULL,
  time INTEGER,
  flags INTEGER NOT NULL DEFAULT 0,
  exit_code INTEGER,
  tool TEXT,
  line INTEGER,
  offset INTEGER,
  record_id TEXT,
  body BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS records_session ON records(session, seq);
CREATE INDEX IF NOT EXISTS records_role ON records(role) WHERE role != 'user' AND role != 'assistant';
CREATE TABLE IF NOT EXISTS marks (
  session INTEGER NOT NULL,
  kind TEXT NOT NULL,
  from_seq INTEGER NOT NULL,
  to_seq INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS marks_session ON marks(session);
CREATE VIRTUAL TABLE IF NOT EXISTS fts_speech USING fts5(
  text, content = '', contentless_delete = 1,
  tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE VIRTUAL TABLE IF NOT EXISTS fts_work USING fts5(
  text, content = '', contentless_delete = 1,
  tokenize = 'porter unicode61 remove_diacritics 2'
);
${VOCABULARY_SCHEMA}
`;

/** The tables that hold what was read (all but `meta`), dropped on a reset. */
const DATA_TABLES = [
  "fts",
  "fts_speech",
  "fts_work",
  "marks",
  "records",
  "sessions",
  "files",
  "vocab",
] as const;

/**
 * Empties an index written under other redaction rules so that what they
 * let through is overwritten, not only unlinked: with `secure_delete` on,
 * the pages already free are filled with zeros (a zero blob takes them,
 * then goes), the tables that hold what was read are dropped (their pages
 * zeroed) and made again. `meta` stays; every file is then read afresh.
 * The write-ahead log is emptied after.
 *
 * @param db An index opened for writing.
 */
export function resetIndexData(db: Database): void {
  db.exec("PRAGMA secure_delete = ON");
  try {
    db.exec("BEGIN IMMEDIATE");
    try {
      const free = (db.prepare("PRAGMA freelist_count").get() as {
        freelist_count: number;
      }).freelist_count;
      const size = (db.prepare("PRAGMA page_size").get() as {
        page_size: number;
      }).page_size;
      if (free > 0) {
        db.exec("CREATE TABLE deja_scrub (b BLOB)");
        const fill = db.prepare("INSERT INTO deja_scrub VALUES (zeroblob(?))");
        // 64 MiB a row: a blob's pages come from the free list first.
        for (let left = free * size; left > 0; left -= 1 << 26) {
          fill.run(Math.min(left, 1 << 26));
        }
        db.exec("DROP TABLE deja_scrub");
      }
      for (const t of DATA_TABLES) db.exec(`DROP TABLE IF EXISTS ${t}`);
      db.exec(SCHEMA);
      forgetVocabulary(db);
      db.exec("COMMIT");
    } catch (err) {
      db.exec("ROLLBACK");
      throw err;
    }
  } finally {
    db.exec("PRAGMA secure_delete = OFF");
  }
  db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
}

/** Options for {@linkcode openIndex}. */
export interface OpenIndexOptions {
  /** Open for reading only (search, show). */
  readOnly?: boolean;
}

/**
 * Opens (and for writers, creates or upgrades) the index database.
 *
 * @param path The index path.
 * @param options Read-only for queries.
 * @returns The open database.
 */
export function openIndex(
  path: string,
  options: OpenIndexOptions = {},
): Database {
  const db = openIndexFile(path, options.readOnly ?? false);
  if (options.readOnly) {
    checkFormat(db, path);
    return db;
  }
  const version = readFormat(db);
  if (version !== undefined && version > INDEX_FORMAT) {
    db.close();
    throw newerIndex(path, version);
  }
  // A current index has every table (they are made before the format is
  // written): an unchanged pass then writes nothing. A schema change bumps
  // INDEX_FORMAT, but for an index added within it, made here once.
  if (version === INDEX_FORMAT) {
    if (!has(db, "index", "files_check2")) {
      db.exec("DROP INDEX IF EXISTS files_check");
      db.exec(FILES_CHECK);
    }
    if (!has(db, "index", "sessions_project")) db.exec(SESSIONS_PROJECT);
    if (!has(db, "table", "vocab")) db.exec(VOCABULARY_SCHEMA);
    return db;
  }
  const foreign = version === undefined ? notAnIndex(db, path) : undefined;
  if (foreign) {
    db.close();
    throw foreign;
  }
  try {
    if (version !== undefined && version < INDEX_FORMAT) {
      for (const t of [...DATA_TABLES, "meta"]) {
        db.exec(`DROP TABLE IF EXISTS ${t}`);
      }
    }
    db.exec(SCHEMA);
    db.prepare("INSERT OR REPLACE INTO meta(key, value) VALUES ('format', ?)")
      .run(String(INDEX_FORMAT));
  } catch (err) {
    // A damaged file fails here; the caller moves it aside.
    db.close();
    throw err;
  }
  return db;
}

function has(db: Database, type: "index" | "table", name: string): boolean {
  return db.prepare(
    "SELECT 1 FROM sqlite_master WHERE type = ? AND name = ?",
  ).get(type, name) !== undefined;
}

/** Opens the file; a file that is no database gets the way out in its message. */
function openIndexFile(path: string, readOnly: boolean): Database {
  // Said before SQLite is asked: its words for a folder ("not a database")
  // would read as a damaged index, which deja index moves aside.
  if (isFolder(path)) {
    throw new DejaError(
      "IDX-E001",
      `The index path "${path}" is a folder: point DEJA_INDEX at a file (e.g. "${path}/index.db")`,
    );
  }
  try {
    return openDatabase(path, { readOnly, requireFts5: true });
  } catch (err) {
    if (
      err instanceof DejaError && /not a database|malformed/i.test(err.message)
    ) {
      throw new DejaError(
        "IDX-E001",
        `${err.message}. The index is a cache deja rebuilds: run deja index (it moves the damaged file aside and reads the transcripts again)`,
        { cause: err },
      );
    }
    throw err;
  }
}

function isFolder(path: string): boolean {
  try {
    return Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}

function readFormat(db: Database): number | undefined {
  try {
    const row = db.prepare("SELECT value FROM meta WHERE key = 'format'").get();
    return row ? Number(row.value) : undefined;
  } catch {
    return undefined;
  }
}

function checkFormat(db: Database, path: string): void {
  const version = readFormat(db);
  if (version !== INDEX_FORMAT) {
    const foreign = version === undefined ? notAnIndex(db, path) : undefined;
    db.close();
    if (foreign) throw foreign;
    // `deja index` leaves a newer index alone: send nobody there.
    if (version !== undefined && version > INDEX_FORMAT) {
      throw newerIndex(path, version);
    }
    throw new DejaError(
      "IDX-E001",
      version === undefined
        ? `Index "${path}" is empty or unreadable: run deja index`
        : `Index "${path}" has format ${version}, expected ${INDEX_FORMAT}: run deja index to rebuild it`,
    );
  }
}

function newerIndex(path: string, version: number): DejaError {
  return new DejaError(
    "IDX-E003",
    `Index "${path}" has format ${version}; this deja reads format ${INDEX_FORMAT}: upgrade deja or delete the index to rebuild it`,
  );
}

/**
 * The error for a database of something else (a memory file, another
 * program's store) given as the index: writing the index's tables into it
 * would mix them with its data, and moving it aside as damaged would take
 * it from its owner.
 */
function notAnIndex(db: Database, path: string): DejaError | undefined {
  let names: string[];
  try {
    names = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
      .all() as Array<{ name: string }>).map((r) => r.name);
  } catch {
    return undefined; // a damaged file: the caller's own error says so
  }
  const tables = names.filter((t) =>
    t !== "meta" && !t.startsWith("sqlite_") && !t.startsWith("fts") &&
    !(DATA_TABLES as readonly string[]).includes(t)
  );
  if (tables.length === 0) return undefined;
  const memory = tables.includes("grains")
    ? "a deja memory file"
    : "another database";
  return new DejaError(
    "IDX-E001",
    `"${path}" is ${memory}, not a deja index (it holds tables ${
      tables.slice(0, 5).join(", ")
    }): point DEJA_INDEX at a file of its own`,
  );
}
