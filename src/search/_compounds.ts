/**
 * Names developers write both as one word and as two: "VS Code" and
 * `vscode`, "dev container" and `devcontainer`, "front end" and "frontend".
 * The index holds whichever the session typed, so each form is searched as
 * the other too. A closed list: splitting every word where the index holds
 * its halves as a phrase would search "setup" as "set up" and "output" as
 * "out put" (measured and dropped for verbs, docs/search.md).
 *
 * @module
 */

/** Two-word forms of names also written as one word. */
const PAIRS: ReadonlyArray<readonly [string, string]> = [
  ["vs", "code"],
  ["dev", "container"],
  ["front", "end"],
  ["back", "end"],
  ["code", "base"],
  ["sub", "agent"],
  ["screen", "shot"],
  ["web", "hook"],
  ["node", "js"],
  ["dev", "tools"],
  ["docker", "file"],
];

const SPLIT = new Map(PAIRS.map(([a, b]) => [`${a}${b}`, `${a} ${b}`]));
const JOINED = new Map(PAIRS.map(([a, b]) => [`${a} ${b}`, `${a}${b}`]));

/**
 * The two-word form of a name written as one ("devcontainers" → "dev
 * containers"), or undefined.
 *
 * @param word A lowercased word.
 * @returns The two words, as a phrase.
 * @example
 * ```ts
 * import { splitCompound } from "./_compounds.ts";
 * import { equal } from "node:assert/strict";
 * equal(splitCompound("vscode"), "vs code");
 * equal(splitCompound("devcontainers"), "dev containers");
 * equal(splitCompound("setup"), undefined);
 * ```
 */
export function splitCompound(word: string): string | undefined {
  const split = SPLIT.get(word);
  if (split) return split;
  return word.endsWith("s") ? plural(SPLIT.get(word.slice(0, -1))) : undefined;
}

/**
 * The one-word form of a name written as two ("dev" + "containers" →
 * "devcontainers"), or undefined.
 *
 * @param first A lowercased word.
 * @param second The lowercased word after it.
 * @returns The joined form.
 * @example
 * ```ts
 * import { joinedCompound } from "./_compounds.ts";
 * import { equal } from "node:assert/strict";
 * equal(joinedCompound("vs", "code"), "vscode");
 * equal(joinedCompound("sub", "agents"), "subagents");
 * equal(joinedCompound("source", "code"), undefined);
 * ```
 */
export function joinedCompound(
  first: string,
  second: string,
): string | undefined {
  const joined = JOINED.get(`${first} ${second}`);
  if (joined) return joined;
  return second.endsWith("s")
    ? plural(JOINED.get(`${first} ${second.slice(0, -1)}`))
    : undefined;
}

function plural(form: string | undefined): string | undefined {
  return form === undefined ? undefined : `${form}s`;
}
