import { equal, ok } from "node:assert/strict";
import { editDistance, fuzzyBudget, oneEditAway } from "./_fuzzy.ts";

Deno.test("editDistance() counts edits, a transposition as one", async (t) => {
  const cases: Array<[string, string, number, number]> = [
    ["redis", "redis", 2, 0],
    ["redsi", "redis", 2, 1],
    ["rdis", "redis", 2, 1],
    ["reddis", "redis", 2, 1],
    ["kubernetse", "kubernetes", 2, 1],
    ["kubrnetse", "kubernetes", 2, 2],
    ["cat", "dog", 1, 2],
    ["abcdefgh", "a", 2, 3],
  ];
  for (const [a, b, max, want] of cases) {
    await t.step(`${a} → ${b}`, () => equal(editDistance(a, b, max), want));
  }
});

Deno.test("fuzzyBudget() allows no edit under five letters, two from eight", () => {
  equal(fuzzyBudget("mine"), 0);
  equal(fuzzyBudget("redis"), 1);
  equal(fuzzyBudget("kubernetes"), 2);
  equal(fuzzyBudget(`zqxw${"v".repeat(8000)}`), 0, "a pasted run is no typo");
});

Deno.test("oneEditAway() makes every single slip of a word", () => {
  const near = new Set(oneEditAway("redsi"));
  for (const w of ["redis", "reds", "redsis", "resdi", "rexsi"]) {
    ok(near.has(w), w);
  }
  ok(!near.has("redsi"), "the word itself is no edit");
  ok(!near.has("rdsie"), "two edits away");
});
