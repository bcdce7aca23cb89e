/**
 * Whether a quoted line holds what an ask says: its terms from the start of
 * a word, the things it names whole. ASCII text (most lines) is searched
 * without a regular expression: each term's case-insensitive Unicode
 * pattern cost a fresh hook process about a millisecond to compile.
 *
 * @module
 */
import { isAscii } from "../index/tokens.ts";

/**
 * The terms a text holds, each matched from the start of a word and
 * without case; a term longer than five letters by all but its last two
 * (so "migrate" holds for "migration").
 *
 * @param text A line.
 * @param terms The ask's terms.
 * @returns The terms held, in order.
 * @example
 * ```ts
 * import { heldTerms } from "./_held.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(heldTerms("Migrations failed on prod", ["migrate", "prod", "rod"]), ["migrate", "prod"]);
 * ```
 */
export function heldTerms(text: string, terms: readonly string[]): string[] {
  const lower = alignedLower(text);
  return terms.filter((t) => {
    const l = t.toLowerCase();
    const stem = l.length > 5 ? l.slice(0, l.length - 2) : l;
    if (lower === undefined || !isAscii(stem)) {
      return pattern(`(?<![\\p{L}\\p{N}])${escapeRegExp(stem)}`).test(text);
    }
    for (let i = lower.indexOf(stem); i >= 0; i = lower.indexOf(stem, i + 1)) {
      if (!isWordChar(codePointBefore(text, i), false)) return true;
    }
    return false;
  });
}

/**
 * Whether a line holds a thing the ask names where it stands whole, without
 * case: not inside a longer name or number (`7.2` is not held by `4.7.2`,
 * nor `api.ts` by `api.tsx`).
 *
 * @param text A line.
 * @param thing A name, path or version the ask names.
 * @returns Whether the line holds it whole.
 * @example
 * ```ts
 * import { holdsThing } from "./_held.ts";
 * import { equal } from "node:assert/strict";
 * equal(holdsThing("bumped to 4.7.2", "7.2"), false);
 * equal(holdsThing("see API.ts, line 3", "api.ts"), true);
 * ```
 */
export function holdsThing(text: string, thing: string): boolean {
  const lower = alignedLower(text);
  const name = thing.toLowerCase();
  if (lower === undefined || !isAscii(name)) {
    return pattern(
      `(?<![\\p{L}\\p{N}_]|[\\p{L}\\p{N}_]\\.)${
        escapeRegExp(thing)
      }(?![\\p{L}\\p{N}_])`,
    ).test(text);
  }
  for (let i = lower.indexOf(name); i >= 0; i = lower.indexOf(name, i + 1)) {
    const before = codePointBefore(text, i);
    if (isWordChar(before, true)) continue;
    if (before === DOT && isWordChar(codePointBefore(text, i - 1), true)) {
      continue;
    }
    if (isWordChar(text.codePointAt(i + name.length) ?? -1, true)) continue;
    return true;
  }
  return false;
}

/**
 * The text lower-cased, when an ASCII word found in it is found at the same
 * place, without case, as a Unicode pattern finds it: every character kept
 * in place (no "İ", which lower-cases to two), and no long s ("ſ", which
 * such a pattern reads as "s" and lower-casing does not). Else undefined.
 */
function alignedLower(text: string): string | undefined {
  if (isAscii(text)) return text.toLowerCase();
  if (text.includes("\u017f")) return undefined;
  const lower = text.toLowerCase();
  return lower.length === text.length ? lower : undefined;
}

const DOT = 0x2e;

/** A letter or digit of any script, not ASCII (compiled on first use). */
let otherLetter: RegExp | undefined;

/** Whether a code point is a letter or digit, or `_` when `underscore`. */
function isWordChar(cp: number, underscore: boolean): boolean {
  if (cp < 0) return false;
  if (cp < 0x80) {
    return (cp >= 0x61 && cp <= 0x7a) || (cp >= 0x41 && cp <= 0x5a) ||
      (cp >= 0x30 && cp <= 0x39) || (underscore && cp === 0x5f);
  }
  otherLetter ??= /^[\p{L}\p{N}]$/u;
  return otherLetter.test(String.fromCodePoint(cp));
}

/** The code point ending just before index `i` (-1 at the start). */
function codePointBefore(text: string, i: number): number {
  if (i <= 0) return -1;
  const low = text.charCodeAt(i - 1);
  if (low >= 0xdc00 && low <= 0xdfff && i >= 2) {
    const high = text.charCodeAt(i - 2);
    if (high >= 0xd800 && high <= 0xdbff) return text.codePointAt(i - 2)!;
  }
  return low;
}

/** Case-insensitive Unicode patterns by source, compiled once a process. */
const patterns = new Map<string, RegExp>();

function pattern(source: string): RegExp {
  let re = patterns.get(source);
  if (!re) {
    if (patterns.size >= 256) patterns.clear();
    re = new RegExp(source, "iu");
    patterns.set(source, re);
  }
  return re;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
