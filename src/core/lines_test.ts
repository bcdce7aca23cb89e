import { deepEqual, equal } from "node:assert/strict";
import { type OversizedLine, readLines } from "./lines.ts";

const texts = async (
  path: string,
  options: Parameters<typeof readLines>[1] = {},
) => (await Array.fromAsync(readLines(path, options))).map((l) => l.text);

Deno.test("readLines() reads lines across chunk edges, from an offset, with a cap", async () => {
  const path = await Deno.makeTempFile();
  try {
    const lines = Array.from(
      { length: 50 },
      (_, i) => `line ${i} ${"é".repeat(i)}`,
    );
    await Deno.writeTextFile(path, `\ufeff${lines.join("\r\n")}\n`);
    // Chunks of 7 bytes split lines and two-byte characters.
    deepEqual(await texts(path, { chunkBytes: 7 }), lines);
    const all = await Array.fromAsync(readLines(path, { chunkBytes: 7 }));
    const tenth = all[10]!;
    deepEqual(
      await texts(path, { offset: tenth.offset, firstLine: 11, chunkBytes: 5 }),
      lines.slice(10),
    );
    const skipped: OversizedLine[] = [];
    const capped = await texts(path, {
      maxLineBytes: 40,
      chunkBytes: 16,
      onOversized: (l) => skipped.push(l),
    });
    deepEqual(
      capped,
      lines.filter((l) => new TextEncoder().encode(l).length + 1 <= 40),
    );
    equal(skipped.length, lines.length - capped.length);
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("readLines() goes on reading what is written to the file while it reads", async () => {
  const path = await Deno.makeTempFile();
  try {
    await Deno.writeTextFile(path, "first\nsecond\n");
    const seen: string[] = [];
    for await (const line of readLines(path, { chunkBytes: 4 })) {
      seen.push(line.text);
      // Written after the reader sized its reads to what was there.
      if (line.text === "first") {
        await Deno.writeTextFile(path, `third ${"x".repeat(9000)}\nfourth`, {
          append: true,
        });
      }
    }
    deepEqual(seen, ["first", "second", `third ${"x".repeat(9000)}`, "fourth"]);
  } finally {
    await Deno.remove(path);
  }
});
