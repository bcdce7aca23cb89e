/**
 * Finding query terms in record text (for highlights, snippet windows,
 * proximity and exact-form checks) and cutting the snippet window.
 *
 * @module
 */
import { hasCjk, isAscii } from "../index/tokens.ts";
import { porterStem } from "./_stem.ts";

/** One way a term can appear in text. */
export interface TermForm {
  /** Index of the term in the query. */
  term: number;
  /** Word stems that count (matched word by word). */
  stems?: ReadonlySet<string>;
  /** A phrase (words separated by any non-word run), or CJK text. */
  pattern?: RegExp;
  /** The surface form typed, for the exact-form check. */
  surface?: string;
}

/** A match: [start, end) in UTF-16 units, and which term. */
export interface Match {
  start: number;
  end: number;
  term: number;
}

const WORD = /[\p{L}\p{N}]+/gu;
const ASCII_WORD = /[a-z0-9]+/g;

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * The forms a term takes in text: stems for single words, a pattern for
 * phrases (whatever separates the words: space, `_`, `-`, `.`, or a camel
 * hump) and for CJK.
 *
 * @param index The term's index.
 * @param forms The term's text and its alternatives and variants.
 * @param surface The word as typed (single words only).
 * @returns The form matcher.
 */
export function termForm(
  index: number,
  forms: readonly string[],
  surface?: string,
): TermForm {
  const stems = new Set<string>();
  const patterns: string[] = [];
  for (const form of forms) {
    const lower = form.toLowerCase();
    const words = lower.match(isAscii(lower) ? ASCII_WORD : WORD) ?? [];
    if (words.length === 1 && lower.endsWith("*")) {
      // A prefix form: any word that starts with it.
      patterns.push(`\\b${escape(words[0]!)}\\w*`);
    } else if (words.length === 1 && !hasCjk(form)) {
      stems.add(porterStem(words[0]!));
    } else if (words.length > 0) {
      patterns.push(
        hasCjk(form)
          ? escape(form)
          : words.map(escape).join("[\\s_\\-./:]*") + "\\w*",
      );
    }
  }
  const out: TermForm = { term: index };
  if (stems.size) out.stems = stems;
  if (patterns.length) out.pattern = new RegExp(patterns.join("|"), "giu");
  if (surface) out.surface = surface;
  return out;
}

/**
 * Every match of the terms in a text, sorted by position.
 *
 * @param text The text.
 * @param forms The terms' forms.
 * @param humps Also a word that is one hump of an identifier ("force" in
 * forceConsistentCasing): what a reader is shown, not what ranking counts.
 * @returns Matches, sorted.
 */
export function findMatches(
  text: string,
  forms: readonly TermForm[],
  humps = false,
): Match[] {
  const out: Match[] = [];
  const byStem = new Map<string, number>();
  const heads = new Set<string>();
  for (const f of forms) {
    for (const s of f.stems ?? []) {
      byStem.set(s, f.term);
      heads.add(s.slice(0, 3));
    }
  }
  if (byStem.size) {
    const lower = text.toLowerCase();
    if (lower.length === text.length) {
      // Porter only rewrites endings, so a matching word starts with its
      // stem's first letters: look only where those occur.
      for (const head of heads) {
        let at = lower.indexOf(head);
        while (at !== -1 && out.length < 400) {
          const wordStart = at === 0 || !isWordChar(lower, at - 1);
          if (wordStart || (humps && humpStart(text, at))) {
            let end = at + head.length;
            // Inline ASCII test: this loop runs before the JIT has warmed
            // up in a one-shot `deja search`.
            while (end < lower.length) {
              const c = lower.charCodeAt(end);
              if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) end++;
              else if (c >= 128 && isWordChar(lower, end)) end++;
              else break;
            }
            const word = lower.slice(at, end);
            let term = wordStart
              ? byStem.get(porterStem(word)) ?? byStem.get(word)
              : undefined;
            if (term === undefined && humps) {
              // One hump of an identifier: "force" in forceConsistentCasing,
              // "Error" in APICallError.
              const hump = humpEnd(text, at, end);
              if (hump < end || !wordStart) {
                const part = lower.slice(at, hump);
                term = byStem.get(porterStem(part)) ?? byStem.get(part);
                if (term !== undefined) end = hump;
              }
            }
            if (term !== undefined) out.push({ start: at, end, term });
          }
          at = lower.indexOf(head, at + 1);
        }
      }
    } else {
      // Lowercasing changed lengths (İ): walk words to keep offsets right.
      for (const m of text.matchAll(WORD)) {
        const word = m[0].toLowerCase();
        if (!heads.has(word.slice(0, 3))) continue;
        const term = byStem.get(porterStem(word)) ?? byStem.get(word);
        if (term !== undefined) {
          out.push({ start: m.index, end: m.index + m[0].length, term });
        }
        if (out.length > 400) break;
      }
    }
  }
  for (const f of forms) {
    if (!f.pattern) continue;
    for (const m of text.matchAll(f.pattern)) {
      if (m[0].length === 0) continue;
      out.push({ start: m.index, end: m.index + m[0].length, term: f.term });
      if (out.length > 800) break;
    }
  }
  return out.sort((a, b) => a.start - b.start || b.end - a.end);
}

/** Whether an identifier's hump starts at `i`: "Error" in "APICallError". */
function humpStart(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  const before = text.charCodeAt(i - 1);
  return c >= 65 && c <= 90 && before >= 97 && before <= 122;
}

/** Where the hump starting at `from` ends: at the next capital, in `end`. */
function humpEnd(text: string, from: number, end: number): number {
  let i = from + 1;
  while (i < end) {
    const c = text.charCodeAt(i);
    if (c >= 65 && c <= 90) break;
    i++;
  }
  return i;
}

function isWordChar(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c < 128) {
    return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) ||
      (c >= 65 && c <= 90);
  }
  return /[\p{L}\p{N}]/u.test(text[i]!);
}

/**
 * The narrowest span (in characters) that holds one match of every
 * distinct term matched, or undefined with fewer than two terms.
 *
 * @param matches Sorted matches.
 * @returns The span width.
 */
export function tightestSpan(matches: readonly Match[]): number | undefined {
  const distinct = new Set(matches.map((m) => m.term)).size;
  if (distinct < 2) return undefined;
  const count = new Map<number, number>();
  let have = 0;
  let best = Infinity;
  let lo = 0;
  for (let hi = 0; hi < matches.length; hi++) {
    const t = matches[hi]!.term;
    count.set(t, (count.get(t) ?? 0) + 1);
    if (count.get(t) === 1) have++;
    while (have === distinct) {
      best = Math.min(best, matches[hi]!.end - matches[lo]!.start);
      const u = matches[lo]!.term;
      count.set(u, count.get(u)! - 1);
      if (count.get(u) === 0) have--;
      lo++;
    }
  }
  return best === Infinity ? undefined : best;
}

const WINDOW = 240;
const LEAD = 70;

/**
 * Cuts a window of a record around its densest cluster of matches, with
 * `…` where text was left out, and the match ranges inside the window.
 *
 * @param text The record text.
 * @param forms The terms' forms.
 * @returns The window and its ranges.
 */
export function cutSnippet(
  text: string,
  forms: readonly TermForm[],
): { text: string; ranges: Array<[number, number]> } {
  const matches = findMatches(text, forms, true);
  let center = 0;
  let bestDistinct = -1;
  let bestCount = -1;
  for (let i = 0; i < matches.length; i++) {
    const seen = new Set<number>();
    let n = 0;
    for (let j = i; j < matches.length; j++) {
      if (matches[j]!.start - matches[i]!.start > 200) break;
      seen.add(matches[j]!.term);
      n++;
    }
    if (
      seen.size > bestDistinct || (seen.size === bestDistinct && n > bestCount)
    ) {
      bestDistinct = seen.size;
      bestCount = n;
      center = matches[i]!.start;
    }
  }
  let start = Math.max(0, center - LEAD);
  if (start > 0) {
    const space = text.lastIndexOf(" ", start);
    if (space > center - LEAD - 30) start = space + 1;
  }
  let end = Math.min(text.length, start + WINDOW);
  if (end === text.length) start = Math.max(0, end - WINDOW);
  if (end < text.length) {
    const space = text.lastIndexOf(" ", end);
    if (space > start + WINDOW - 40) end = space;
  }
  const body = text.slice(start, end).replace(/\s+/g, " ");
  const window = (start > 0 ? "…" : "") + body + (end < text.length ? "…" : "");
  const ranges: Array<[number, number]> = [];
  for (const m of findMatches(window, forms, true)) {
    const prev = ranges.at(-1);
    // Touching or overlapping matches (a CJK word's bigrams) are one range.
    if (prev && m.start <= prev[1]) prev[1] = Math.max(prev[1], m.end);
    else ranges.push([m.start, m.end]);
  }
  return { text: window, ranges };
}
