/**
 * What the full-text tables see beyond FTS5's own `unicode61` words, shared
 * by the indexer (posting text) and the query side (search terms), so both
 * cut text the same way:
 *
 * - CJK runs (Han, kana, Hangul) carry no spaces, so `unicode61` would read
 *   a whole sentence as one token; each run is posted as overlapping
 *   bigrams instead, and a query's CJK run becomes the same bigrams.
 * - camelCase identifiers are posted whole and also as their parts, so
 *   `user profile` finds `getUserProfile`. snake_case and kebab-case need
 *   nothing: `unicode61` already splits on `_` and `-`.
 *
 * Pure string work: no I/O and no imports, so the query path loads it for
 * free.
 *
 * @module
 */

const CJK_CLASS =
  "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af\uff66-\uff9f";
const CJK_TEST = new RegExp(`[${CJK_CLASS}]`);
const CJK_RUNS = new RegExp(`[${CJK_CLASS}]+`, "g");

const NON_ASCII = /[\u0080-\uffff]/;

/**
 * Whether text is all ASCII. Unicode property classes (`\p{L}`) cost a
 * fresh process ~0.2-1 ms each to compile on first use; ASCII text, most
 * queries and titles, can take the plain classes that mean the same there.
 *
 * @param text The text.
 * @returns True when no character is past U+007F.
 * @example
 * ```ts
 * import { isAscii } from "./tokens.ts";
 * import { equal } from "node:assert/strict";
 * equal(isAscii("redis cache"), true);
 * equal(isAscii("café"), false);
 * ```
 */
export function isAscii(text: string): boolean {
  return !NON_ASCII.test(text);
}

/**
 * Whether text holds any CJK character (Han, kana or Hangul).
 *
 * @param text The text.
 * @returns True when a CJK character occurs.
 * @example
 * ```ts
 * import { hasCjk } from "./tokens.ts";
 * import { equal } from "node:assert/strict";
 * equal(hasCjk("修复连接池"), true);
 * equal(hasCjk("connection pool"), false);
 * ```
 */
export function hasCjk(text: string): boolean {
  return CJK_TEST.test(text);
}

/**
 * The CJK runs of a text, in order.
 *
 * @param text The text.
 * @returns Each maximal run of CJK characters.
 */
export function cjkRuns(text: string): string[] {
  return text.match(CJK_RUNS) ?? [];
}

/**
 * Overlapping bigrams of one CJK run; a one-character run stays whole.
 *
 * @param run A run of CJK characters.
 * @returns The bigrams in order.
 * @example
 * ```ts
 * import { cjkBigrams } from "./tokens.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(cjkBigrams("连接池"), ["连接", "接池"]);
 * deepEqual(cjkBigrams("池"), ["池"]);
 * ```
 */
export function cjkBigrams(run: string): string[] {
  const chars = [...run];
  if (chars.length < 2) return chars;
  const out: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) {
    out.push(chars[i]! + chars[i + 1]!);
  }
  return out;
}

const HUMP = /[a-z0-9][A-Z]|[A-Z][A-Z][a-z]/;
const HUMPS = /[a-z0-9][A-Z]|[A-Z][A-Z][a-z]/g;

function isAlnum(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/**
 * The parts of a camelCase or PascalCase identifier, lowercased; undefined
 * when the word has no hump (or is shorter than six characters).
 *
 * @param word One word.
 * @returns The parts, or undefined.
 * @example
 * ```ts
 * import { identifierParts } from "./tokens.ts";
 * import { deepEqual, equal } from "node:assert/strict";
 * deepEqual(identifierParts("getUserProfile"), ["get", "user", "profile"]);
 * deepEqual(identifierParts("parseHTTPResponse"), ["parse", "http", "response"]);
 * equal(identifierParts("profile"), undefined);
 * ```
 */
export function identifierParts(word: string): string[] | undefined {
  if (word.length < 6 || !HUMP.test(word)) return undefined;
  const parts = word
    .split(/(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/)
    .map((p) => p.toLowerCase())
    .filter((p) => p.length > 1);
  return parts.length > 1 ? parts : undefined;
}

/**
 * Rewrites text for posting: CJK runs become space-separated bigrams (in
 * place, so phrases of bigrams stay contiguous) and the parts of each
 * distinct camelCase identifier are appended at the end (after the text,
 * so a phrase across the identifier still matches).
 *
 * @param text The text to post.
 * @returns The text FTS5 should tokenize.
 * @example
 * ```ts
 * import { postingTokens } from "./tokens.ts";
 * import { equal } from "node:assert/strict";
 * equal(postingTokens("call getUserProfile"), "call getUserProfile\nget user profile");
 * equal(postingTokens("用redis缓存"), "用 redis 缓存");
 * ```
 */
export function postingTokens(text: string): string {
  let out = text;
  if (hasCjk(out)) {
    out = out.replace(CJK_RUNS, (run) => ` ${cjkBigrams(run).join(" ")} `)
      .replace(/ {2,}/g, " ").trim();
  }
  // Find the humps, then the words around them: text without a hump (most
  // prose) costs one native scan.
  let extra: string[] | undefined;
  let seen: Set<string> | undefined;
  let after = -1;
  for (const m of text.matchAll(HUMPS)) {
    if (m.index < after) continue;
    let start = m.index;
    while (start > 0 && isAlnum(text.charCodeAt(start - 1))) start--;
    let end = m.index + 1;
    while (end < text.length && isAlnum(text.charCodeAt(end))) end++;
    after = end;
    const word = text.slice(start, end);
    if (seen?.has(word)) continue;
    const parts = identifierParts(word);
    if (!parts || !/^[A-Za-z]/.test(word)) continue;
    (seen ??= new Set()).add(word);
    (extra ??= []).push(parts.join(" "));
  }
  return extra ? `${out}\n${extra.join("\n")}` : out;
}
