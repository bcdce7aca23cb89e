/**
 * Lookups in constant tables keyed by what people type or files hold.
 *
 * @module
 */

/**
 * The value a table holds under `key` itself, never one every object
 * inherits: a query word, a flag value or a field read from a file can be
 * `constructor`, `toString` or `__proto__`, and a plain `table[key]` would
 * answer with `Object.prototype`'s member.
 *
 * @param table A constant lookup table.
 * @param key What to look up.
 * @returns The table's own value, or undefined.
 * @example
 * ```ts
 * import { ownValue } from "./lookup.ts";
 * import { equal } from "node:assert/strict";
 * const names = { codex: "Codex" };
 * equal(ownValue(names, "codex"), "Codex");
 * equal(ownValue(names, "constructor"), undefined);
 * ```
 */
export function ownValue<T>(
  table: Readonly<Record<string, T>>,
  key: string,
): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/**
 * An empty table to fill with keys read from files (session ids, tool call
 * ids): it inherits nothing, so a key such as `__proto__` is stored as
 * itself and `constructor` is absent until set.
 *
 * @returns A table with no prototype.
 * @example
 * ```ts
 * import { ownTable } from "./lookup.ts";
 * import { deepEqual } from "node:assert/strict";
 * const t = ownTable<number>();
 * t["__proto__"] = 1;
 * deepEqual(Object.keys(t), ["__proto__"]);
 * ```
 */
export function ownTable<T>(): Record<string, T> {
  return Object.create(null);
}
