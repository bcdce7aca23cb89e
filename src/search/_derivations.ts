/**
 * Nouns made from verbs that Porter stems apart from their verbs:
 * "reconciliation" (reconcili) and "reconcile" (reconcil), "verification"
 * and "verify", "decision" and "decide", "failure" and "fail". A question
 * says one where the session said the other, so each is searched as the
 * other too (only where the stems differ; Porter already joins
 * "deployment" and "deploy").
 *
 * @module
 */
import { porterStem } from "./_stem.ts";

/** [noun suffix, verb suffix]: "-ication" nouns from "-ify" verbs, … */
const PAIRS: ReadonlyArray<readonly [string, string]> = [
  ["fication", "fy"],
  ["iliation", "ile"],
  ["iation", "iate"],
  ["olution", "olve"],
  ["ision", "ide"],
  ["usion", "ude"],
  ["ension", "end"],
  ["ission", "it"],
  ["ription", "ribe"],
  ["anation", "ain"],
  ["ysis", "yze"],
  ["arison", "are"],
];

/** Pairs no suffix rule makes without making nonsense of other words. */
const WORDS: ReadonlyMap<string, string> = new Map([
  ["failure", "fail"],
  ["fail", "failure"],
  ["failures", "fails"],
  ["fails", "failures"],
]);

/** Shortest stem a suffix may be taken from ("cure" is no "c" + "ure"). */
const MIN_BASE = 3;

/**
 * The other forms of a word across a noun/verb derivation Porter does not
 * join: "verify" for "verification" and back.
 *
 * @param word A lowercased word.
 * @returns Up to two forms, none with the word's own stem.
 * @example
 * ```ts
 * import { derivedForms } from "./_derivations.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(derivedForms("reconciliation"), ["reconcile"]);
 * deepEqual(derivedForms("decide"), ["decision"]);
 * deepEqual(derivedForms("table"), []);
 * ```
 */
export function derivedForms(word: string): string[] {
  const paired = WORDS.get(word);
  if (paired) return [paired];
  if (word.length < 5 || !/^[a-z]+$/.test(word)) return [];
  const stem = porterStem(word);
  const out: string[] = [];
  for (const [noun, verb] of PAIRS) {
    let form: string | undefined;
    if (word.endsWith(noun) && word.length - noun.length >= MIN_BASE) {
      form = word.slice(0, word.length - noun.length) + verb;
    } else if (
      verb && word.endsWith(verb) && word.length - verb.length >= MIN_BASE
    ) {
      form = word.slice(0, word.length - verb.length) + noun;
    }
    if (form && porterStem(form) !== stem && !out.includes(form)) {
      out.push(form);
      if (out.length === 2) break;
    }
  }
  return out;
}
