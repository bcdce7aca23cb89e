import { deepEqual, equal } from "node:assert/strict";
import type { Database } from "../core/_sqlite.ts";
import { openIndex, recordRowid, resetIndexData } from "./schema.ts";
import {
  hasVocabulary,
  refreshVocabulary,
  STALE_SHARE,
  VOCABULARY_TABLES,
} from "./vocabulary.ts";

/** An index of `n` speech and `n` work records, each with its own word. */
async function withIndex(
  n: number,
  fn: (db: Database, add: (from: number, count: number) => void) => void,
): Promise<void> {
  const dir = await Deno.makeTempDir();
  const db = openIndex(`${dir}/index.db`);
  const add = (from: number, count: number) => {
    for (let i = from; i < from + count; i++) {
      for (const role of ["user", "tool-output"] as const) {
        const rowid = recordRowid(1, i, role);
        db.prepare(
          "INSERT INTO records (rowid, session, seq, role, body) VALUES (?, 1, ?, ?, '')",
        ).run(rowid, i, role);
        const table = role === "user" ? "fts_speech" : "fts_work";
        db.prepare(`INSERT INTO ${table} (rowid, text) VALUES (?, ?)`).run(
          rowid,
          `shared word${i} ${role === "user" ? "spoken" : "printed"}`,
        );
      }
    }
  };
  add(0, n);
  try {
    fn(db, add);
  } finally {
    db.close();
    await Deno.remove(dir, { recursive: true });
  }
}

const listed = (db: Database, table: string) =>
  db.prepare("SELECT term, doc FROM vocab WHERE tbl = ? ORDER BY term").all(
    table,
  ).map((r) => ({ ...r }));

Deno.test("refreshVocabulary() lists each full-text table's terms with their record counts, as fts5vocab does", async () => {
  await withIndex(12, (db) => {
    equal(hasVocabulary(db), false);
    equal(refreshVocabulary(db, 0), true);
    equal(hasVocabulary(db), true);
    for (const table of VOCABULARY_TABLES) {
      db.exec(
        `CREATE VIRTUAL TABLE IF NOT EXISTS temp.t_${table} USING fts5vocab(main, ${table}, row)`,
      );
      const expected = db.prepare(
        `SELECT term, doc FROM temp.t_${table} ORDER BY term`,
      ).all().map((r) => ({ ...r }));
      deepEqual(listed(db, table), expected);
    }
    deepEqual(
      listed(db, "fts_speech").find((r) => r.term === "share"),
      { term: "share", doc: 12 },
    );
    equal(listed(db, "fts_work").some((r) => r.term === "spoken"), false);
  });
});

Deno.test("refreshVocabulary() rebuilds only once the records written since reach a tenth of those it was built with", async () => {
  await withIndex(50, (db, add) => {
    refreshVocabulary(db, 0);
    const built = 100; // 50 speech and 50 work records
    const small = Math.floor(built * STALE_SHARE) - 1;
    add(50, 1);
    equal(refreshVocabulary(db, small), false);
    // Not rebuilt: the word written since is not listed yet.
    equal(listed(db, "fts_speech").some((r) => r.term === "word50"), false);
    equal(refreshVocabulary(db, 1), true);
    equal(listed(db, "fts_speech").some((r) => r.term === "word50"), true);
    // Counting starts again from the rebuild.
    equal(refreshVocabulary(db, 2), false);
  });
});

Deno.test("resetIndexData() drops the vocabulary with the rest, and the next pass builds it again", async () => {
  await withIndex(3, (db) => {
    refreshVocabulary(db, 0);
    resetIndexData(db);
    equal(hasVocabulary(db), false);
    equal(listed(db, "fts_speech").length, 0);
    equal(refreshVocabulary(db, 0), true);
  });
});
