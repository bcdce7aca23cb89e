import { equal } from "node:assert/strict";
import { ALL_CUES, hasCue, hasWide } from "./_cues.ts";
import { redact } from "./redact.ts";

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

Deno.test("hasWide() says whether a text holds any non-ASCII code unit, as a fresh test would", () => {
  for (
    const text of [
      "",
      "plain ascii",
      "x".repeat(100),
      "caf\u00e9",
      "\u0080",
      "a\uff47b",
      "\u{1f511} key",
      "ends in \u00ad",
    ]
  ) {
    const wide = [...text].some((c) => c.charCodeAt(0) >= 128);
    equal(hasWide(text), wide, JSON.stringify(text));
  }
});

Deno.test("redact(): a token whose characters a NUL separates (UTF-16 read as bytes) in ASCII text is found", () => {
  const token = "ghp_" + "Q7mX2pL9vR4tK8wN3bY6cJ1dF5hS0gA2eZ7u";
  const spread = [...token].join("\0");
  const out = redact(`token in the dump: ${spread}\n`, { kind: "output" }).text;
  equal(out.includes(token), false);
  equal(out.includes("[redacted:"), true);
});
