import { equal, ok, throws } from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { DejaError } from "../core/errors.ts";
import { ROLES } from "../core/types.ts";
import {
  FILES_CHECK_SQL,
  isUserRecord,
  openIndex,
  ordinalOfRecord,
  PROJECTS_SQL,
  RECORD_SLOTS,
  recordRowid,
  roleOfRecord,
  sessionOfRecord,
} from "./schema.ts";

Deno.test("openIndex() tells how to recover from a file that is no database", async () => {
  const dir = await Deno.makeTempDir({ prefix: "deja-schema-" });
  try {
    const path = `${dir}/index.db`;
    await Deno.writeTextFile(
      path,
      "these are not the pages you are looking for\n".repeat(200),
    );
    for (const readOnly of [true, false]) {
      throws(() => openIndex(path, { readOnly }), (err) => {
        ok(err instanceof DejaError);
        equal(err.code, "IDX-E001");
        ok(err.message.includes(path), err.message);
        ok(err.message.includes("run deja index"), err.message);
        ok(err.message.includes("moves the damaged file aside"), err.message);
        return true;
      });
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("openIndex() on an index a newer deja wrote gives the same advice to readers and writers", async () => {
  const dir = await Deno.makeTempDir({ prefix: "deja-schema-" });
  try {
    const path = `${dir}/index.db`;
    openIndex(path).close();
    const db = new DatabaseSync(path);
    db.exec("UPDATE meta SET value = '99' WHERE key = 'format'");
    db.close();
    // `deja index` will not overwrite a newer index, so a search must not
    // send the person there.
    for (const readOnly of [true, false]) {
      throws(() => openIndex(path, { readOnly }), (err) => {
        ok(err instanceof DejaError);
        equal(err.code, "IDX-E003");
        ok(err.message.includes("upgrade deja"), err.message);
        ok(!err.message.includes("run deja index"), err.message);
        return true;
      });
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a record rowid says its session, ordinal and role, in record order", () => {
  // Rowids below and past 2^31 and 2^32 (read with bit masks), up to the
  // last session whose rowids stay exact.
  for (const session of [0, 1, 31, 33, 64, 2 ** 26, 2 ** 27 - 1]) {
    rowidsOfOneSession(session);
  }
  throws(() => recordRowid(1, RECORD_SLOTS / 8, "user"), RangeError);
  throws(() => recordRowid(1, 0, "note"), /Unknown record role "note"/);
});

function rowidsOfOneSession(session: number): void {
  let last = -1;
  for (const ordinal of [0, 1, 2, 1000, RECORD_SLOTS / 8 - 1]) {
    for (const role of ROLES) {
      const rowid = recordRowid(session, ordinal, role);
      ok(Number.isSafeInteger(rowid));
      equal(sessionOfRecord(rowid), session);
      equal(ordinalOfRecord(rowid), ordinal);
      equal(roleOfRecord(rowid), role);
      equal(isUserRecord(rowid), role === "user");
    }
    // Every role of a later record sorts after every role of an earlier one.
    const lowest = Math.min(
      ...ROLES.map((r) => recordRowid(session, ordinal, r)),
    );
    ok(lowest > last);
    last = Math.max(...ROLES.map((r) => recordRowid(session, ordinal, r)));
  }
}

/**
 * A statement an index within format 5 serves: a fresh index reads it from
 * that index, one written before the index existed does not, and the next
 * writer makes it.
 */
async function madeByWriters(index: string, sql: string): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "deja-schema-" });
  try {
    const path = `${dir}/index.db`;
    const plan = (db: ReturnType<typeof openIndex>) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as Array<
        { detail: string }
      >).map((r) => r.detail).join("\n");
    const fresh = openIndex(path);
    ok(plan(fresh).includes(`COVERING INDEX ${index}`), plan(fresh));
    fresh.exec(`DROP INDEX ${index}`);
    fresh.close();
    const reader = openIndex(path, { readOnly: true });
    ok(!plan(reader).includes(index));
    reader.close();
    const writer = openIndex(path);
    ok(plan(writer).includes(`COVERING INDEX ${index}`), plan(writer));
    writer.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("an unchanged pass reads the files it compares from an index, made where a format-5 index lacks it", async () => {
  await madeByWriters("files_check2", FILES_CHECK_SQL);
});

Deno.test("search lists the projects from an index, made where a format-5 index lacks it", async () => {
  await madeByWriters("sessions_project", PROJECTS_SQL);
});
