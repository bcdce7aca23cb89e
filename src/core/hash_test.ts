import { equal } from "node:assert/strict";
import { createHash } from "node:crypto";
import { sha256Hex } from "./hash.ts";

Deno.test("sha256Hex() agrees with node:crypto on lengths around block edges", () => {
  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) & 0xff;
  for (
    const n of [
      0,
      1,
      3,
      55,
      56,
      57,
      63,
      64,
      65,
      119,
      120,
      127,
      128,
      1000,
      8192,
      100_003,
    ]
  ) {
    const bytes = Uint8Array.from({ length: n }, rand);
    equal(
      sha256Hex(bytes),
      createHash("sha256").update(bytes).digest("hex"),
      `length ${n}`,
    );
  }
  equal(
    sha256Hex("é漢字🙂"),
    createHash("sha256").update("é漢字🙂").digest("hex"),
  );
});
