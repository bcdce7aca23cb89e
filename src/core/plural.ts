/**
 * Counts in words, shared by the CLI and the MCP tools so both print
 * `1 new grain`, never `1 new grains`.
 *
 * @module
 */

/**
 * A count with its noun, plural unless the count is one: `1 file`, `3 files`.
 *
 * @param n The count.
 * @param word The noun in the singular.
 * @returns The phrase.
 * @example
 * ```ts
 * import { plural } from "./plural.ts";
 * import { equal } from "node:assert/strict";
 * equal(plural(1, "tool call"), "1 tool call");
 * equal(plural(0, "line"), "0 lines");
 * ```
 */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}
