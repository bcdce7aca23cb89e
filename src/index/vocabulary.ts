/**
 * The index's vocabulary: every term of each full-text table with how many
 * records hold it, kept as a plain table for the search's fuzzy tier ("did
 * you mean"). FTS5 lists its terms only through `fts5vocab`, which counts a
 * term's records by walking every posting of it: a one-shot question paid
 * that for each never-seen word, about half of its time on the 240 MB bench
 * index (docs/decisions.md, "Thirty-third session"). The pass that writes
 * records rebuilds the table once enough has changed since it was built
 * ({@linkcode STALE_SHARE}); in between it lags a little: a term written
 * since is found exactly, only not offered as a correction, and a term
 * gone is offered and then found in no record.
 *
 * @module
 */
import type { Database } from "../core/_sqlite.ts";

/** The full-text tables whose terms the vocabulary lists. */
export const VOCABULARY_TABLES = ["fts_speech", "fts_work"] as const;

/** The vocabulary table (made with the index, or once for an older one). */
export const VOCABULARY_SCHEMA =
  "CREATE TABLE IF NOT EXISTS vocab (tbl TEXT NOT NULL, term TEXT NOT NULL, doc INTEGER NOT NULL, PRIMARY KEY (tbl, term)) WITHOUT ROWID;";

/**
 * The share of the records counted at the last build that passes may write
 * before the next one rebuilds the vocabulary.
 */
export const STALE_SHARE = 0.1;

/** Meta key: how many records the index held when the vocabulary was built. */
const BUILT_WITH = "vocab_records";
/** Meta key: how many records passes have written since. */
const WRITTEN_SINCE = "vocab_written";

function metaNumber(db: Database, key: string): number | undefined {
  const row = db.prepare("SELECT value FROM meta WHERE key = ?").get(key) as
    | { value: string }
    | undefined;
  return row === undefined ? undefined : Number(row.value);
}

function setMeta(db: Database, key: string, value: number): void {
  db.prepare("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)").run(
    key,
    String(value),
  );
}

/**
 * Whether the vocabulary was ever built: readers use it then, else they
 * list terms through `fts5vocab`.
 *
 * @param db An open index.
 * @returns Whether the table holds a build.
 */
export function hasVocabulary(db: Database): boolean {
  return metaNumber(db, BUILT_WITH) !== undefined;
}

/**
 * Forgets the build (the table was emptied with the rest of the index):
 * the next pass that writes rebuilds it.
 *
 * @param db The index, open for writing.
 */
export function forgetVocabulary(db: Database): void {
  db.prepare("DELETE FROM meta WHERE key IN (?, ?)").run(
    BUILT_WITH,
    WRITTEN_SINCE,
  );
}

/**
 * Rebuilds the vocabulary when it was never built or when the records
 * written since its build reach {@linkcode STALE_SHARE} of the records it
 * was built with; otherwise adds `written` to that count. Runs inside the
 * writer's transaction.
 *
 * @param db The index, open for writing.
 * @param written Records this pass wrote.
 * @returns Whether the vocabulary was rebuilt.
 */
export function refreshVocabulary(db: Database, written: number): boolean {
  const builtWith = metaNumber(db, BUILT_WITH);
  const since = (metaNumber(db, WRITTEN_SINCE) ?? 0) + written;
  if (builtWith !== undefined && since < builtWith * STALE_SHARE) {
    if (written > 0) setMeta(db, WRITTEN_SINCE, since);
    return false;
  }
  db.exec("DELETE FROM vocab");
  for (const table of VOCABULARY_TABLES) {
    const listing = `temp.deja_build_vocab_${table}`;
    db.exec(
      `CREATE VIRTUAL TABLE IF NOT EXISTS ${listing} USING fts5vocab(main, ${table}, row)`,
    );
    db.prepare(
      `INSERT INTO vocab (tbl, term, doc) SELECT ?, term, doc FROM ${listing}`,
    ).run(table);
  }
  const records = db.prepare("SELECT count(*) AS n FROM records").get() as {
    n: number;
  };
  setMeta(db, BUILT_WITH, records.n);
  setMeta(db, WRITTEN_SINCE, 0);
  return true;
}
