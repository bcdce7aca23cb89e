/**
 * Case- and accent-form folding for message search. Needle and haystack are
 * folded the same way — per character, lowercase then canonical
 * decomposition (NFD) — and every match maps back to byte offsets in the
 * ORIGINAL UTF-8 text, so clients never re-derive highlight positions.
 *
 * @module
 */

const ENCODER = new TextEncoder();
const DECODER = new TextDecoder();
// deno-lint-ignore no-control-regex
const ASCII = /^[\x00-\x7f]*$/;

/**
 * Folds text: per character lowercase, then NFD.
 *
 * @param text Original text.
 * @returns The folded text.
 */
export function foldText(text: string): string {
  if (ASCII.test(text)) return text.toLowerCase();
  let out = "";
  for (const ch of text) out += ch.toLowerCase().normalize("NFD");
  return out;
}

function utf8Length(cp: number): number {
  return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}

/** The folded form of a text with a map back to original byte offsets. */
interface FoldMap {
  folded: string;
  /** Original byte start of the character each folded UTF-16 unit came from. */
  start: Int32Array;
  /** Original byte end of that character. */
  end: Int32Array;
  /** 1 when the unit begins its original character's folded form. */
  first: Uint8Array;
  /** 1 when the unit ends its original character's folded form. */
  last: Uint8Array;
}

function foldMap(text: string): FoldMap {
  const parts: string[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  const firsts: number[] = [];
  const lasts: number[] = [];
  let byte = 0;
  for (const ch of text) {
    const len = utf8Length(ch.codePointAt(0) as number);
    const f = ch.toLowerCase().normalize("NFD");
    for (let k = 0; k < f.length; k++) {
      starts.push(byte);
      ends.push(byte + len);
      firsts.push(k === 0 ? 1 : 0);
      lasts.push(k === f.length - 1 ? 1 : 0);
    }
    parts.push(f);
    byte += len;
  }
  return {
    folded: parts.join(""),
    start: Int32Array.from(starts),
    end: Int32Array.from(ends),
    first: Uint8Array.from(firsts),
    last: Uint8Array.from(lasts),
  };
}

/**
 * Finds every folded occurrence of the (already folded) needles in a text
 * and returns byte ranges into the original text, merged and sorted. A
 * match must start and end on whole original characters, so "e" does not
 * match inside "é" (the same pairs NFC plus case folding would match).
 *
 * @param text The original text.
 * @param needles Folded needles (see {@linkcode foldText}).
 * @param cap At most this many ranges.
 * @returns `[start, end)` byte offsets into the UTF-8 encoding of `text`.
 */
export function matchBytes(
  text: string,
  needles: readonly string[],
  cap = 64,
): Array<[number, number]> {
  const map = foldMap(text);
  const ranges: Array<[number, number]> = [];
  for (const needle of needles) {
    if (!needle) continue;
    let at = map.folded.indexOf(needle);
    while (at !== -1 && ranges.length < cap * 4) {
      const last = at + needle.length - 1;
      if (map.first[at] === 1 && map.last[last] === 1) {
        ranges.push([map.start[at] as number, map.end[last] as number]);
        at = map.folded.indexOf(needle, at + needle.length);
      } else {
        at = map.folded.indexOf(needle, at + 1);
      }
    }
  }
  ranges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const merged: Array<[number, number]> = [];
  for (const r of ranges) {
    const prev = merged[merged.length - 1];
    if (prev && r[0] <= prev[1]) prev[1] = Math.max(prev[1], r[1]);
    else merged.push([r[0], r[1]]);
  }
  return merged.slice(0, cap);
}

/**
 * Whether every folded needle occurs in the folded haystack on whole
 * characters. A cheap substring test first; the exact check only for texts
 * that pass it.
 *
 * @param text The original text.
 * @param folded `foldText(text)`.
 * @param needles Folded needles.
 * @returns True when all needles match.
 */
export function matchesAll(
  text: string,
  folded: string,
  needles: readonly string[],
): boolean {
  for (const n of needles) if (!folded.includes(n)) return false;
  for (const n of needles) {
    if (matchBytes(text, [n], 1).length === 0) return false;
  }
  return true;
}

/**
 * A window of at most `max` bytes of the original text around a byte
 * position, cut on character boundaries.
 *
 * @param text The original text.
 * @param at Byte offset to show (the earliest highlight).
 * @param max Window size in bytes.
 * @returns The snippet and its byte offset in the original text.
 */
export function snippetAround(
  text: string,
  at: number,
  max: number,
): { snippet: string; offset: number } {
  const bytes = ENCODER.encode(text);
  if (bytes.length <= max) return { snippet: text, offset: 0 };
  let start = Math.max(0, Math.min(at - 80, bytes.length - max));
  // A space shortly before the cut makes the snippet start on a word.
  for (let i = start; i < Math.min(start + 24, at); i++) {
    if (bytes[i] === 0x20 || bytes[i] === 0x0a) {
      start = i + 1;
      break;
    }
  }
  while (start > 0 && ((bytes[start] as number) & 0xc0) === 0x80) start--;
  let end = Math.min(bytes.length, start + max);
  while (end < bytes.length && ((bytes[end] as number) & 0xc0) === 0x80) end--;
  return { snippet: DECODER.decode(bytes.subarray(start, end)), offset: start };
}
