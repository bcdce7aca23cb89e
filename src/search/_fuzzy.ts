/**
 * Edit distance for the fuzzy tier: optimal string alignment (Damerau-
 * Levenshtein with adjacent transpositions), cut off early past a bound.
 *
 * @module
 */

/**
 * Distance between two strings, or `max + 1` once it must exceed `max`.
 *
 * @param a One string.
 * @param b The other.
 * @param max The largest distance worth computing.
 * @returns The distance, capped at `max + 1`.
 */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (a === b) return 0;
  const n = b.length;
  let prev2 = new Array<number>(n + 1).fill(0);
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  let cur = new Array<number>(n + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = cur[0];
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (
        i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]
      ) v = Math.min(v, prev2[j - 2]! + 1);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return Math.min(prev[n]!, max + 1);
}

/**
 * Every lowercase word one edit from `word` (a letter dropped, added,
 * changed, or two neighbours swapped): what a single slip could have made
 * of the word meant.
 *
 * @param word A lowercase word.
 * @returns The words one edit away (with repeats).
 */
export function oneEditAway(word: string): string[] {
  const out: string[] = [];
  const letters = "abcdefghijklmnopqrstuvwxyz";
  for (let i = 0; i <= word.length; i++) {
    const head = word.slice(0, i);
    const tail = word.slice(i);
    if (tail) out.push(head + tail.slice(1));
    if (tail.length > 1) out.push(head + tail[1] + tail[0] + tail.slice(2));
    for (const c of letters) {
      out.push(head + c + tail);
      if (tail && c !== tail[0]) out.push(head + c + tail.slice(1));
    }
  }
  return out;
}

/** Longest word the fuzzy tier corrects: past it, a pasted blob, no typo. */
export const FUZZY_MAX_LENGTH = 40;

/**
 * How far a word may be from a suggestion: none under five letters (too
 * many real words sit one letter apart), 1 up to seven, 2 from eight (a
 * long word with two slips is still recognisable), none past
 * {@linkcode FUZZY_MAX_LENGTH} (every slip of a pasted 8,000-letter run
 * would be made and stemmed: half a minute per query).
 *
 * @param word The word typed.
 * @returns The largest edit distance accepted.
 */
export function fuzzyBudget(word: string): number {
  if (word.length > FUZZY_MAX_LENGTH) return 0;
  return word.length >= 8 ? 2 : word.length >= 5 ? 1 : 0;
}
