/**
 * The memory file's tables and its schema version. The version lives in the
 * `meta` table; a newer file is refused, an older one is copied aside before
 * it is migrated.
 *
 * @module
 */
import type { Database } from "../core/_sqlite.ts";
import { DejaError } from "../core/errors.ts";

/** The schema version this build writes. */
export const SCHEMA_VERSION = 1;

/** Base tables (schema version 1). */
const BASE = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS grains (
  id INTEGER PRIMARY KEY,
  hash TEXT NOT NULL UNIQUE,
  type TEXT NOT NULL,
  namespace TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  added_at INTEGER NOT NULL,
  actor TEXT NOT NULL,
  supersedes TEXT,
  valid_to INTEGER,
  is_error INTEGER,
  source TEXT,
  body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS grains_type ON grains(type, namespace);
CREATE INDEX IF NOT EXISTS grains_supersedes ON grains(supersedes) WHERE supersedes IS NOT NULL;
CREATE UNIQUE INDEX IF NOT EXISTS grains_source ON grains(source) WHERE source IS NOT NULL;
CREATE INDEX IF NOT EXISTS grains_added ON grains(added_at);
CREATE TABLE IF NOT EXISTS tombstones (
  hash TEXT PRIMARY KEY, at INTEGER NOT NULL, actor TEXT NOT NULL, reason TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS rec_status (
  hash TEXT PRIMARY KEY,
  dedup_key TEXT NOT NULL,
  status TEXT NOT NULL,
  version INTEGER NOT NULL,
  creator TEXT NOT NULL,
  trigger_actor TEXT,
  destructive INTEGER NOT NULL,
  rollbackable INTEGER NOT NULL,
  audit_head TEXT,
  applied_at INTEGER,
  inverse TEXT,
  results TEXT,
  updated_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS rec_status_key ON rec_status(dedup_key);
CREATE INDEX IF NOT EXISTS rec_status_status ON rec_status(status);
CREATE TABLE IF NOT EXISTS cooldowns (
  dedup_key TEXT PRIMARY KEY, strikes INTEGER NOT NULL, until INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS loop_config (
  analyzer TEXT PRIMARY KEY,
  enabled INTEGER,
  params TEXT,
  severity_floor TEXT,
  namespaces TEXT,
  actor TEXT NOT NULL,
  source TEXT NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS loop_state (key TEXT PRIMARY KEY, value TEXT NOT NULL, updated_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS definitions (
  key TEXT PRIMARY KEY, body TEXT NOT NULL, actor TEXT NOT NULL, updated_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS recall_telemetry (
  id INTEGER PRIMARY KEY, query TEXT NOT NULL, tokens INTEGER NOT NULL,
  budget INTEGER NOT NULL, results INTEGER NOT NULL, at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS grain_recalls (hash TEXT PRIMARY KEY, count INTEGER NOT NULL, last_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS locks (
  name TEXT PRIMARY KEY, holder TEXT NOT NULL, acquired_at INTEGER NOT NULL, expires_at INTEGER NOT NULL
);
`;

/** One step from schema version `n - 1` to `n`, as SQL. */
export type Migration = string;

/**
 * Migrations by target version. Version 1 is the base; later entries run in
 * order on files written by an older deja.
 */
export const MIGRATIONS: Readonly<Record<number, Migration>> = {};

/** Options for {@linkcode ensureSchema}. */
export interface EnsureSchemaOptions {
  /** Target version (tests use a higher one with extra migrations). */
  version?: number;
  /** Migrations by target version. */
  migrations?: Readonly<Record<number, Migration>>;
  /** Clock for the backup file name. */
  now?: () => number;
}

/**
 * Reads the schema version stamped in the file, or 0 for a file deja never
 * initialised.
 *
 * @param db The open database.
 * @returns The version number.
 */
export function schemaVersion(db: Database): number {
  const table = db.prepare(
    "SELECT 1 AS ok FROM sqlite_master WHERE type = 'table' AND name = 'meta'",
  ).get();
  if (!table) return 0;
  const row = db.prepare("SELECT value FROM meta WHERE key = 'schema_version'")
    .get() as { value?: string } | undefined;
  return row?.value ? Number(row.value) : 0;
}

/**
 * Creates the tables of a fresh file, refuses a newer file, and migrates an
 * older one after writing a backup copy next to it.
 *
 * @param db The open, writable database.
 * @param path The file's path (for the backup and messages).
 * @param options Target version and migrations (tests).
 * @returns The backup path when a migration ran.
 */
export function ensureSchema(
  db: Database,
  path: string,
  options: EnsureSchemaOptions = {},
): string | undefined {
  const target = options.version ?? SCHEMA_VERSION;
  const migrations = options.migrations ?? MIGRATIONS;
  const found = schemaVersion(db);
  if (found > target) {
    throw new DejaError(
      "MEM-E002",
      `Cannot open memory file "${path}": it has schema version ${found} and this deja reads up to ${target}; upgrade deja`,
      { detail: { path, found, supported: target } },
    );
  }
  if (found === target) return undefined;
  if (found === 0) {
    const hasGrains = db.prepare(
      "SELECT 1 AS ok FROM sqlite_master WHERE type = 'table' AND name = 'grains'",
    ).get();
    if (hasGrains) {
      throw new DejaError(
        "MEM-E001",
        `Cannot open memory file "${path}": it has no schema version stamp`,
      );
    }
    db.exec("BEGIN IMMEDIATE");
    try {
      db.exec(BASE);
      for (let v = 2; v <= target; v++) {
        const step = migrations[v];
        if (step) db.exec(step);
      }
      stamp(db, target);
      db.exec("COMMIT");
    } catch (err) {
      db.exec("ROLLBACK");
      throw err;
    }
    return undefined;
  }
  const backup = path === ":memory:"
    ? undefined
    : `${path}.v${found}-${(options.now ?? Date.now)()}.bak`;
  if (backup) {
    db.prepare("VACUUM INTO ?").run(backup);
  }
  db.exec("BEGIN IMMEDIATE");
  try {
    for (let v = found + 1; v <= target; v++) {
      const step = migrations[v];
      if (step === undefined) {
        throw new DejaError(
          "MEM-E001",
          `Cannot migrate memory file "${path}" from version ${
            v - 1
          } to ${v}: no migration known`,
        );
      }
      db.exec(step);
    }
    stamp(db, target);
    db.exec("COMMIT");
  } catch (err) {
    db.exec("ROLLBACK");
    throw err;
  }
  return backup;
}

function stamp(db: Database, version: number): void {
  db.prepare(
    "INSERT INTO meta(key, value) VALUES ('schema_version', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
  ).run(String(version));
}
