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
 * How far a word may be from a suggestion: none under five letters (too
 * many real words sit one letter apart), 1 up to seven, 2 from eight (a
 * long word with two slips is still recognisable).
 *
 * @param word The word typed.
 * @returns The largest edit distance accepted.
 */
export function fuzzyBudget(word: string): number {
  return word.length >= 8 ? 2 : word.length >= 5 ? 1 : 0;
}
