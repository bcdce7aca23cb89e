import { equal } from "node:assert/strict";
import { clip } from "./_db.ts";

Deno.test("clip() cuts on a word boundary and marks the cut", async (t) => {
  const cases: Array<[string, string, number, string]> = [
    ["short text stays whole", "add credo", 20, "add credo"],
    [
      "a long line ends on a whole word",
      "add credo and mix_audit to CI",
      20,
      "add credo and…",
    ],
    [
      "trailing punctuation before the cut is dropped",
      "first, second, third, fourth",
      16,
      "first, second…",
    ],
    [
      "one long word is cut inside it",
      "supercalifragilistic",
      10,
      "supercali…",
    ],
  ];
  for (const [name, text, max, want] of cases) {
    await t.step(name, () => {
      equal(clip(text, max), want);
      equal(clip(text, max).length <= max, true);
    });
  }
});
