/**
 * Tolerant access to untrusted JSON: every harness parser reads values whose
 * shape it cannot trust, so these readers answer a default instead of
 * throwing.
 *
 * @module
 */

/** A JSON object. */
export type Json = Record<string, unknown>;

/**
 * Tells whether a value is a plain JSON object.
 *
 * @param value Anything.
 * @returns True for non-null, non-array objects.
 * @example
 * ```ts
 * import { isObject } from "./_json.ts";
 * import { ok } from "node:assert/strict";
 * ok(isObject({}) && !isObject([]) && !isObject(null));
 * ```
 */
export function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A non-empty string, else undefined.
 *
 * @param value Anything.
 * @returns The string when it has at least one character.
 * @example
 * ```ts
 * import { str } from "./_json.ts";
 * import { equal } from "node:assert/strict";
 * equal(str(""), undefined);
 * equal(str("a"), "a");
 * ```
 */
export function str(value: unknown): string | undefined {
  return typeof value === "string" && value.length > 0 ? value : undefined;
}

/**
 * An array, else an empty one.
 *
 * @param value Anything.
 * @returns The value when it is an array, else `[]`.
 * @example
 * ```ts
 * import { list } from "./_json.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(list("x"), []);
 * ```
 */
export function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/**
 * An object, else an empty one.
 *
 * @param value Anything.
 * @returns The value when it is a plain object, else `{}`.
 * @example
 * ```ts
 * import { obj } from "./_json.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(obj([1]), {});
 * ```
 */
export function obj(value: unknown): Json {
  return isObject(value) ? value : {};
}

/**
 * A finite number, else undefined.
 *
 * @param value Anything.
 * @returns The number unless it is NaN, infinite or not a number.
 * @example
 * ```ts
 * import { finite } from "./_json.ts";
 * import { equal } from "node:assert/strict";
 * equal(finite(Number.NaN), undefined);
 * equal(finite(3), 3);
 * ```
 */
export function finite(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value)
    ? value
    : undefined;
}

/**
 * Parses JSON text without throwing. A non-string comes back as it is, so a
 * field a store sometimes double-encodes reads the same either way. A UTF-8
 * BOM before the text is ignored (a file a Windows editor or tool wrote),
 * as `readJsonDocument` and the line reader ignore it.
 *
 * @param text JSON text, or an already parsed value.
 * @returns The parsed value, or undefined when the text is not JSON.
 * @example
 * ```ts
 * import { parseJson } from "./_json.ts";
 * import { deepEqual, equal } from "node:assert/strict";
 * deepEqual(parseJson('{"a":1}'), { a: 1 });
 * deepEqual(parseJson('\ufeff{"a":1}'), { a: 1 });
 * deepEqual(parseJson('\0\0\0{"a":1}'), { a: 1 });
 * equal(parseJson("{torn"), undefined);
 * ```
 */
export function parseJson(text: unknown): unknown {
  if (typeof text !== "string") return text;
  try {
    return JSON.parse(text);
  } catch {
    // JSON.parse refuses a BOM, and the NUL bytes a power loss leaves
    // before the next line written: only then are they looked for, so the
    // common case costs nothing more.
    const first = text.charCodeAt(0);
    if (first !== 0xfeff && first !== 0) return undefined;
    try {
      return JSON.parse(first === 0 ? text.replace(/^\0+/, "") : text.slice(1));
    } catch {
      return undefined;
    }
  }
}

/**
 * An object that may arrive as an object or as JSON text.
 *
 * @param value An object, JSON text, or anything else.
 * @returns The object, or `{}` when there is none.
 * @example
 * ```ts
 * import { objectOf } from "./_json.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(objectOf('{"a":1}'), { a: 1 });
 * deepEqual(objectOf("[1]"), {});
 * ```
 */
export function objectOf(value: unknown): Json {
  if (isObject(value)) return value;
  const parsed = parseJson(value);
  return isObject(parsed) ? parsed : {};
}

/**
 * The text of a message `content` in the Anthropic shape: a string as it is,
 * else the `text` of each `{ type: "text" }` block, joined.
 *
 * @param content A string, a block array, or anything else ("" then).
 * @param separator What goes between blocks.
 * @returns The text ("" when there is none).
 * @example
 * ```ts
 * import { textBlocks } from "./_json.ts";
 * import { equal } from "node:assert/strict";
 * const content = [{ type: "text", text: "a" }, { type: "image" }, { type: "text", text: "b" }];
 * equal(textBlocks(content, "\n"), "a\nb");
 * ```
 */
export function textBlocks(content: unknown, separator: string): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  for (const block of content) {
    if (
      isObject(block) && block.type === "text" && typeof block.text === "string"
    ) {
      parts.push(block.text);
    }
  }
  return parts.join(separator);
}
