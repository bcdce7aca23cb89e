// deno-lint-ignore-file no-console
/**
 * `deno run -A tests/bench/deflate_levels.ts <index.db>`: how small and how
 * slow each deflate level makes an index's long tool-output bodies (the
 * measurement behind the level in src/index/_body.ts).
 *
 * @module
 */
import { deflateRawSync, inflateRawSync } from "node:zlib";
import { openDatabase } from "../../src/core/_sqlite.ts";

const path = Deno.args[0];
if (!path) throw new Error("usage: deflate_levels.ts <index.db>");
const db = openDatabase(path, { readOnly: true });
const rows = db.prepare(
  "SELECT body FROM records WHERE role = 'tool-output' AND (flags & 8) != 0 LIMIT 4000",
).all() as Array<{ body: Uint8Array }>;
db.close();
const raws = rows.map((r) => inflateRawSync(r.body));
const total = raws.reduce((a, b) => a + b.length, 0);
for (const level of [1, 4, 6, 9]) {
  const t0 = performance.now();
  let out = 0;
  for (const raw of raws) out += deflateRawSync(raw, { level }).length;
  console.log(
    `level ${level}: ${(out / total).toFixed(3)} of raw, ${
      (performance.now() - t0).toFixed(0)
    } ms for ${(total / 1048576).toFixed(1)} MB`,
  );
}
