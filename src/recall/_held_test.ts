import { deepEqual, equal } from "node:assert/strict";
import { heldTerms, holdsThing } from "./_held.ts";

// What both tests read, written as Unicode patterns (the way the prompt
// hook tested lines before): the ASCII path must agree with them.
const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
function heldByPattern(text: string, terms: readonly string[]): string[] {
  return terms.filter((t) => {
    const lower = t.toLowerCase();
    const stem = lower.length > 5 ? lower.slice(0, lower.length - 2) : lower;
    return new RegExp(`(?<![\\p{L}\\p{N}])${escaped(stem)}`, "iu").test(text);
  });
}
function holdsByPattern(text: string, thing: string): boolean {
  return new RegExp(
    `(?<![\\p{L}\\p{N}_]|[\\p{L}\\p{N}_]\\.)${
      escaped(thing)
    }(?![\\p{L}\\p{N}_])`,
    "iu",
  ).test(text);
}

/** A small deterministic generator of lines and terms around the edges. */
function* cases(n: number): Generator<{ text: string; word: string }> {
  let seed = 42;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
  const pieces = [
    "api",
    "API",
    "ts",
    "tsx",
    ".",
    "_",
    "-",
    " ",
    "4",
    "7",
    "2",
    "Migr",
    "ation",
    "é",
    "Ünï",
    "/",
    "v",
    "x",
    // Past ASCII: a snippet's ellipsis, the Kelvin sign and the long s
    // (which a case-insensitive Unicode pattern reads as k and s), a
    // capital that lower-cases to two characters, a letter and a digit
    // outside the Basic Multilingual Plane or Latin, an eszett.
    "…",
    "\u212a",
    "\u017f",
    "\u0130",
    "\u{1d400}",
    "\u0661",
    "ß",
    "k",
    "s",
  ];
  const pick = () => pieces[next() % pieces.length]!;
  for (let i = 0; i < n; i++) {
    const text = Array.from({ length: 1 + next() % 12 }, pick).join("");
    const word = Array.from({ length: 1 + next() % 4 }, pick).join("");
    yield { text, word };
  }
}

Deno.test("heldTerms() agrees with the word-start pattern, ASCII or not", () => {
  deepEqual(heldTerms("Migrations failed", ["migrate"]), ["migrate"]);
  deepEqual(heldTerms("remigrations failed", ["migrate"]), []);
  deepEqual(heldTerms("_migrations", ["migrate"]), ["migrate"]);
  deepEqual(heldTerms("Ünïcode", ["ünï"]), ["ünï"]);
  deepEqual(heldTerms("…the migrations…", ["migrate"]), ["migrate"]);
  deepEqual(heldTerms("\u{1d400}migrations", ["migrate"]), []);
  for (const { text, word } of cases(20000)) {
    deepEqual(
      heldTerms(text, [word, word.trim()]),
      heldByPattern(text, [word, word.trim()]),
      JSON.stringify({ text, word }),
    );
  }
});

Deno.test("holdsThing() agrees with the whole-name pattern, ASCII or not", () => {
  equal(holdsThing("bumped to 4.7.2", "7.2"), false);
  equal(holdsThing("bumped to 7.2.", "7.2"), true);
  equal(holdsThing("edit api.tsx", "api.ts"), false);
  equal(holdsThing("a_api.ts", "api.ts"), false);
  equal(holdsThing("x.api.ts", "api.ts"), false);
  equal(holdsThing("-api.ts", "API.TS"), true);
  equal(holdsThing("…in api.ts…", "api.ts"), true);
  equal(holdsThing("é.api.ts", "api.ts"), false);
  for (const { text, word } of cases(20000)) {
    equal(
      holdsThing(text, word),
      holdsByPattern(text, word),
      JSON.stringify({ text, word }),
    );
  }
});
