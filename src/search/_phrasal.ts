/**
 * Verbs with a particle that developers also write as one word: "log in"
 * and "login", "set up" and "setup", "roll back" and "rollback". The
 * particle is a stop word, so "it told me to log in again" searched "log"
 * alone and missed a session that printed "Please run /login": a verb
 * followed by its particle is also searched as the one word and as the two.
 * (The other way round, "setup" searched as "set up" too, was measured and
 * dropped: docs/search.md.)
 *
 * @module
 */
import { porterStem } from "./_stem.ts";

/** [verb, particle]: each pair is written as one word as well. */
const PAIRS: ReadonlyArray<readonly [string, string]> = [
  ["log", "in"],
  ["log", "out"],
  ["log", "on"],
  ["sign", "in"],
  ["sign", "out"],
  ["sign", "up"],
  ["sign", "off"],
  ["set", "up"],
  ["clean", "up"],
  ["back", "up"],
  ["pop", "up"],
  ["pick", "up"],
  ["warm", "up"],
  ["start", "up"],
  ["roll", "back"],
  ["fall", "back"],
  ["call", "back"],
  ["roll", "out"],
  ["time", "out"],
  ["check", "out"],
  ["lock", "out"],
  ["lay", "out"],
  ["shut", "down"],
  ["tear", "down"],
  ["break", "down"],
  ["drop", "down"],
  ["plug", "in"],
  ["check", "in"],
  ["work", "around"],
  ["fail", "over"],
  ["cut", "over"],
  ["roll", "over"],
  ["take", "over"],
  ["hand", "off"],
  ["kick", "off"],
  ["walk", "through"],
];

/** The particles of {@linkcode PAIRS}. */
const PARTICLES = new Set(PAIRS.map(([, particle]) => particle));

/**
 * The one-word form of each pair, by the verb's stem and the particle:
 * made when a query first holds a particle (stemming every verb costs a
 * fresh process ~0.4 ms, and most queries hold none).
 */
let joined: Map<string, string> | undefined;

/**
 * The one word a verb and the particle after it are also written as
 * ("logged" + "in" → "login"), or undefined.
 *
 * @param verb A lowercased word.
 * @param particle The lowercased word after it.
 * @returns The joined form.
 * @example
 * ```ts
 * import { joinedForm } from "./_phrasal.ts";
 * import { equal } from "node:assert/strict";
 * equal(joinedForm("logged", "in"), "login");
 * equal(joinedForm("log", "file"), undefined);
 * ```
 */
export function joinedForm(verb: string, particle: string): string | undefined {
  if (!PARTICLES.has(particle)) return undefined;
  joined ??= new Map(
    PAIRS.map(([v, p]) => [`${porterStem(v)} ${p}`, `${v}${p}`]),
  );
  return joined.get(`${porterStem(verb)} ${particle}`);
}

/** Joined forms naming one action: signing out is logging out. */
const SAME_ACTION: ReadonlyArray<readonly [string, string]> = [
  ["login", "signin"],
  ["logout", "signout"],
];

/**
 * The other spellings of an action that apps name two ways: "sign out" is
 * written `logout` as often as `signout`, "sign in" `login`. Each form also
 * as its two words.
 *
 * @param word A joined form or a word as typed.
 * @returns The other forms, or none.
 * @example
 * ```ts
 * import { sameActionForms } from "./_phrasal.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(sameActionForms("signout"), ["logout", "log out"]);
 * deepEqual(sameActionForms("logout"), ["signout", "sign out"]);
 * deepEqual(sameActionForms("output"), []);
 * ```
 */
export function sameActionForms(word: string): string[] {
  for (const pair of SAME_ACTION) {
    const at = pair.indexOf(word);
    if (at < 0) continue;
    const other = pair[1 - at]!;
    const split = PAIRS.find(([verb, particle]) =>
      `${verb}${particle}` === other
    );
    return split ? [other, `${split[0]} ${split[1]}`] : [other];
  }
  return [];
}
