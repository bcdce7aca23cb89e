/**
 * The Porter stemmer as SQLite's FTS5 `porter` tokenizer applies it, so the
 * query side can name the very terms the index holds (vocabulary lookups,
 * fuzzy matching, highlighting) without a round trip to SQLite. Checked
 * against FTS5 itself in `_stem_test.ts`.
 *
 * @module
 */

const MAX_TOKEN = 64;

function isConsonant(w: string, i: number): boolean {
  const c = w[i];
  if (c === "a" || c === "e" || c === "i" || c === "o" || c === "u") {
    return false;
  }
  if (c === "y") return i === 0 ? true : !isConsonant(w, i - 1);
  return true;
}

/** Porter's m: the number of vowel-consonant sequences in w[0, end). */
function measure(w: string, end: number): number {
  let m = 0;
  let i = 0;
  while (i < end && isConsonant(w, i)) i++;
  while (i < end) {
    while (i < end && !isConsonant(w, i)) i++;
    if (i >= end) break;
    while (i < end && isConsonant(w, i)) i++;
    m++;
  }
  return m;
}

function hasVowel(w: string, end: number): boolean {
  for (let i = 0; i < end; i++) if (!isConsonant(w, i)) return true;
  return false;
}

/** Ends consonant-vowel-consonant, the last not w, x or y. */
function cvc(w: string, end: number): boolean {
  if (end < 3) return false;
  if (
    !isConsonant(w, end - 1) || isConsonant(w, end - 2) ||
    !isConsonant(w, end - 3)
  ) return false;
  const c = w[end - 1];
  return c !== "w" && c !== "x" && c !== "y";
}

function doubleConsonant(w: string, end: number): boolean {
  return end >= 2 && w[end - 1] === w[end - 2] && isConsonant(w, end - 1);
}

type Rule = readonly [suffix: string, replacement: string];

/** Replaces the first matching suffix when the stem before it has m > min. */
function replaceWhen(
  w: string,
  rules: readonly Rule[],
  ok: (w: string, stemEnd: number) => boolean,
): string {
  for (const [suffix, replacement] of rules) {
    if (w.endsWith(suffix)) {
      const stemEnd = w.length - suffix.length;
      return ok(w, stemEnd) ? w.slice(0, stemEnd) + replacement : w;
    }
  }
  return w;
}

const STEP2: readonly Rule[] = [
  ["ational", "ate"],
  ["tional", "tion"],
  ["enci", "ence"],
  ["anci", "ance"],
  ["izer", "ize"],
  ["bli", "ble"],
  ["alli", "al"],
  ["entli", "ent"],
  ["eli", "e"],
  ["ousli", "ous"],
  ["ization", "ize"],
  ["ation", "ate"],
  ["ator", "ate"],
  ["alism", "al"],
  ["iveness", "ive"],
  ["fulness", "ful"],
  ["ousness", "ous"],
  ["aliti", "al"],
  ["iviti", "ive"],
  ["biliti", "ble"],
  ["logi", "log"],
];

const STEP3: readonly Rule[] = [
  ["icate", "ic"],
  ["ative", ""],
  ["alize", "al"],
  ["iciti", "ic"],
  ["ical", "ic"],
  ["ful", ""],
  ["ness", ""],
];

const STEP4 = [
  "al",
  "ance",
  "ence",
  "er",
  "ic",
  "able",
  "ible",
  "ant",
  "ement",
  "ment",
  "ent",
  "ion",
  "ou",
  "ism",
  "ate",
  "iti",
  "ous",
  "ive",
  "ize",
];

/** Rules are tried longest suffix first within a step, as Porter's tables. */
function byLength<T extends Rule | string>(rules: readonly T[]): T[] {
  const len = (r: T) => (typeof r === "string" ? r.length : r[0].length);
  return [...rules].sort((a, b) => len(b) - len(a));
}

const STEP2_SORTED = byLength(STEP2);
const STEP3_SORTED = byLength(STEP3);
const STEP4_SORTED = byLength(STEP4);

function step1a(w: string): string {
  // Like FTS5, a rule needs something left in front of its suffix.
  if (w.length > 4 && w.endsWith("sses")) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith("ies")) return w.slice(0, -2);
  if (w.endsWith("ss")) return w;
  if (w.endsWith("s")) return w.slice(0, -1);
  return w;
}

function step1b(w: string): string {
  if (w.length > 3 && w.endsWith("eed")) {
    return measure(w, w.length - 3) > 0 ? w.slice(0, -1) : w;
  }
  let stem: string | undefined;
  if (w.endsWith("ed") && hasVowel(w, w.length - 2)) stem = w.slice(0, -2);
  else if (w.endsWith("ing") && hasVowel(w, w.length - 3)) {
    stem = w.slice(0, -3);
  }
  if (stem === undefined) return w;
  if (stem.endsWith("at") || stem.endsWith("bl") || stem.endsWith("iz")) {
    return stem + "e";
  }
  if (doubleConsonant(stem, stem.length)) {
    const last = stem[stem.length - 1];
    return last === "l" || last === "s" || last === "z"
      ? stem
      : stem.slice(0, -1);
  }
  if (measure(stem, stem.length) === 1 && cvc(stem, stem.length)) {
    return stem + "e";
  }
  return stem;
}

function step1c(w: string): string {
  return w.endsWith("y") && hasVowel(w, w.length - 1)
    ? w.slice(0, -1) + "i"
    : w;
}

function step4(w: string): string {
  for (const suffix of STEP4_SORTED) {
    if (!w.endsWith(suffix)) continue;
    const stemEnd = w.length - suffix.length;
    if (measure(w, stemEnd) <= 1) return w;
    if (suffix === "ion") {
      const c = w[stemEnd - 1];
      return c === "s" || c === "t" ? w.slice(0, stemEnd) : w;
    }
    return w.slice(0, stemEnd);
  }
  return w;
}

function step5(w: string): string {
  if (w.endsWith("e")) {
    const m = measure(w, w.length - 1);
    if (m > 1 || (m === 1 && !cvc(w, w.length - 1))) w = w.slice(0, -1);
  }
  if (
    w.endsWith("ll") && measure(w, w.length) > 1
  ) w = w.slice(0, -1);
  return w;
}

/**
 * Stems one lowercased token the way FTS5's porter tokenizer does: tokens
 * shorter than three or longer than 64 characters pass through unchanged.
 *
 * @param token A lowercased token.
 * @returns Its Porter stem.
 */
export function porterStem(token: string): string {
  if (token.length < 3 || token.length > MAX_TOKEN) return token;
  let stem = STEMS.get(token);
  if (stem === undefined) {
    // Snippets stem the same words of a text again and again.
    if (STEMS.size >= STEM_CACHE) STEMS.clear();
    let w = step1a(token);
    w = step1b(w);
    w = step1c(w);
    w = replaceWhen(w, STEP2_SORTED, (s, e) => measure(s, e) > 0);
    w = replaceWhen(w, STEP3_SORTED, (s, e) => measure(s, e) > 0);
    w = step4(w);
    stem = step5(w);
    STEMS.set(token, stem);
  }
  return stem;
}

/**
 * A word that stems to `stem`, to ask FTS5 for it: its porter tokenizer
 * stems the query again, and Porter does not always leave a stem as it is
 * ("databas" → "databa"). The stem itself when it does, else the stem with
 * a common ending put back ("databas" + "e").
 *
 * @param stem A Porter stem from the index's vocabulary.
 * @returns A word whose stem is `stem` (the stem when none is found).
 */
export function wordForStem(stem: string): string {
  for (const ending of ["", "e", "es", "ed", "ing", "y", "ion", "er", "al"]) {
    const word = stem + ending;
    if (porterStem(word) === stem) return word;
  }
  return stem;
}

/** Stems already worked out, up to {@linkcode STEM_CACHE} of them. */
const STEMS = new Map<string, string>();
const STEM_CACHE = 20_000;
