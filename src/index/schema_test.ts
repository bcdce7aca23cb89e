import { equal, ok, throws } from "node:assert/strict";
import { DejaError } from "../core/errors.ts";
import { openIndex } from "./schema.ts";

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
