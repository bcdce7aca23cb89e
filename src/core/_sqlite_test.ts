import { equal, throws } from "node:assert/strict";
import { openDatabase } from "./_sqlite.ts";
import { DejaError } from "./errors.ts";

Deno.test("a database path that is a folder is named as one, read-only or not", () => {
  const dir = Deno.makeTempDirSync();
  try {
    for (const readOnly of [false, true]) {
      throws(
        () => openDatabase(dir, { readOnly }),
        (err: unknown) => {
          equal(err instanceof DejaError && err.code, "IDX-E001");
          equal(
            (err as Error).message,
            `Cannot open database "${dir}": it is a folder, not a database file`,
          );
          return true;
        },
      );
    }
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("a missing parent folder keeps SQLite's own words", () => {
  const dir = Deno.makeTempDirSync();
  try {
    throws(
      () => openDatabase(`${dir}/no/such/x.db`),
      /Cannot open database ".*x\.db": unable to open database file/,
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
