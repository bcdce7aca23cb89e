import { equal, ok } from "node:assert/strict";
import { readBounded } from "./read_bounded.ts";

Deno.test("readBounded() gives up on a stream that never ends", async () => {
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"partial":'));
    },
  });
  const started = performance.now();
  const got = await readBounded(stream, { timeoutMs: 50 });
  ok(performance.now() - started < 1000);
  equal(got.text, '{"partial":');
  equal(got.complete, false);
});

Deno.test("readBounded() reads a payload past the size cap as empty", async () => {
  const big = new Blob(["x".repeat(10_000)]).stream();
  const got = await readBounded(big, { maxBytes: 100 });
  equal(got.complete, false);
  equal(got.text, "");
});

Deno.test("readBounded() reads nothing from no stream", async () => {
  equal((await readBounded(undefined)).text, "");
});
