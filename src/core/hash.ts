/**
 * Hashing and canonical JSON, shared by the index (file prefixes) and the
 * memory file (content addresses).
 *
 * @module
 */
import { createHash } from "node:crypto";

/**
 * Hex sha256 of a string or bytes.
 *
 * @param data Text (UTF-8) or bytes.
 * @returns 64 hex characters.
 * @example
 * ```ts
 * import { sha256Hex } from "./hash.ts";
 * import { equal } from "node:assert/strict";
 * equal(sha256Hex("").slice(0, 8), "e3b0c442");
 * ```
 */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/**
 * Canonical JSON: object keys sorted, strings NFC-normalised, no spaces, so
 * equal content always hashes alike.
 *
 * @param value Any JSON-compatible value.
 * @returns The canonical text.
 * @example
 * ```ts
 * import { canonicalJson } from "./hash.ts";
 * import { equal } from "node:assert/strict";
 * equal(canonicalJson({ b: 1, a: [true, "x"] }), '{"a":[true,"x"],"b":1}');
 * ```
 */
export function canonicalJson(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "string") return JSON.stringify(value.normalize("NFC"));
  if (typeof value === "number" || typeof value === "boolean") {
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${
      entries.map(([k, v]) =>
        `${JSON.stringify(k.normalize("NFC"))}:${canonicalJson(v)}`
      ).join(",")
    }}`;
  }
  throw new TypeError(`Cannot canonicalise a ${typeof value}`);
}
