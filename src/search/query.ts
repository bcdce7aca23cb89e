/**
 * Query parsing: words, "quoted phrases" and `backticked code`, and the FTS5
 * expression they become. Every user token is quoted, so FTS5 syntax in a
 * query is searched for, never interpreted.
 *
 * @module
 */

/** A parsed query. */
export interface ParsedQuery {
  /** Bare words, lowercased, in order, without duplicates. */
  words: string[];
  /** Quoted phrases and backticked code, kept whole. */
  phrases: string[];
}

/**
 * Splits a query into words and phrases.
 *
 * @param text The query as typed.
 * @returns Words and phrases.
 * @example
 * ```ts
 * import { parseQuery } from "./query.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(parseQuery('docker "compose port" api'), { words: ["docker", "api"], phrases: ["compose port"] });
 * ```
 */
export function parseQuery(text: string): ParsedQuery {
  const phrases: string[] = [];
  const rest = text.replace(
    /"([^"]+)"|`([^`]+)`/g,
    (_m, a?: string, b?: string) => {
      const phrase = (a ?? b ?? "").trim();
      if (phrase) phrases.push(phrase);
      return " ";
    },
  );
  const words: string[] = [];
  for (const raw of rest.split(/\s+/)) {
    const word = raw.replace(/^[^\p{L}\p{N}_]+|[^\p{L}\p{N}_]+$/gu, "")
      .toLowerCase();
    if (word && !words.includes(word)) words.push(word);
  }
  return { words, phrases };
}

/**
 * Quotes one token or phrase for an FTS5 expression.
 *
 * @param text A word or phrase.
 * @returns The quoted string.
 * @example
 * ```ts
 * import { ftsQuote } from "./query.ts";
 * import { equal } from "node:assert/strict";
 * equal(ftsQuote('say "hi"'), '"say ""hi"""');
 * ```
 */
export function ftsQuote(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}

/**
 * The FTS5 expression for a set of terms: all of them (AND) or any (OR).
 *
 * @param terms Words and phrases.
 * @param joiner "AND" or "OR".
 * @returns The MATCH expression, or "" when there is nothing to match.
 * @example
 * ```ts
 * import { ftsExpression } from "./query.ts";
 * import { equal } from "node:assert/strict";
 * equal(ftsExpression(["a", "b c"]), '"a" AND "b c"');
 * ```
 */
export function ftsExpression(
  terms: readonly string[],
  joiner: "AND" | "OR" = "AND",
): string {
  return terms.map(ftsQuote).join(` ${joiner} `);
}
