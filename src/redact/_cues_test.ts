import { equal } from "node:assert/strict";
import { ALL_CUES, hasCue } from "./_cues.ts";

/** A deterministic generator (a linear congruential one). */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

Deno.test("hasCue() answers as includes() does for every cue, on texts built from the cues' own pieces", () => {
  const next = random(11);
  // Pieces of cues, their neighbours and characters outside ASCII, so that
  // cues overlap, nest, stop one short and run across a wide character.
  const pieces = [
    ...ALL_CUES,
    ...ALL_CUES.map((c) => c.slice(0, -1)),
    ...ALL_CUES.map((c) => c.slice(1)),
    " ",
    "\n",
    "a",
    "│",
    "é",
    "密码",
    "\u{1f511}",
    "-----",
    "pas",
    "s",
  ];
  for (let t = 0; t < 4000; t++) {
    const parts: string[] = [];
    const n = 1 + Math.floor(next() * 60);
    for (let k = 0; k < n; k++) {
      parts.push(pieces[Math.floor(next() * pieces.length)]!);
    }
    const text = parts.join(next() < 0.5 ? "" : " ");
    for (const cue of ALL_CUES) {
      equal(hasCue(text, cue), text.includes(cue), `${cue} in ${text}`);
    }
  }
});

Deno.test("hasCue() reads a second text afresh, and a text equal to the last by value as that one", () => {
  const a = "x".repeat(80) + "requirepass hunter2";
  const b = "x".repeat(80) + "masterauth hunter2";
  equal(hasCue(a, "requirepass"), true);
  equal(hasCue(b, "requirepass"), false);
  equal(hasCue(b, "masterauth"), true);
  equal(hasCue("x".repeat(80) + "masterauth hunter2", "masterauth"), true);
  equal(hasCue(a, "masterauth"), false);
});
