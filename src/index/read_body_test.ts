import { deflateRawSync } from "node:zlib";
import { equal, rejects } from "node:assert/strict";
import { readBodiesOnce, readBody } from "./read_body.ts";

// Big enough that the stream hands the text back in several chunks.
const LONG = Array.from(
  { length: 40_000 },
  (_, i) => `line ${i}: ünïcode ✓ ${i * 7919}`,
).join("\n");

Deno.test("readBody() gives back plain, stored-as-bytes and deflated bodies, in both modes", async () => {
  const bytes = new TextEncoder().encode(LONG);
  const packed = deflateRawSync(bytes);
  equal(await readBody("as stored", false), "as stored");
  equal(await readBody(bytes, false), LONG);
  equal(await readBody(packed, true), LONG);
  readBodiesOnce();
  equal(await readBody(packed, true), LONG);
  equal(await readBody(deflateRawSync(new Uint8Array()), true), "");
  equal(await readBody(deflateRawSync(bytes.subarray(0, 8)), true), "line 0: ");
});

Deno.test("readBody() rejects bytes that are no deflate stream instead of hanging", async () => {
  readBodiesOnce();
  await rejects(readBody(new Uint8Array([0xff, 0xff, 0xff, 0xff]), true));
});
