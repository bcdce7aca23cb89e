/**
 * Content addresses for grains.
 *
 * @module
 */
import { canonicalJson, sha256Hex } from "../core/hash.ts";
import type { Grain } from "./types.ts";

/**
 * The content address of a grain: sha256 of its canonical JSON (sorted keys,
 * NFC strings, absent fields omitted), so equal content always has one hash.
 *
 * @param grain The grain.
 * @returns 64 hex characters.
 * @example
 * ```ts
 * import { hashGrain } from "./hash_grain.ts";
 * import { equal } from "node:assert/strict";
 * const a = hashGrain({ type: "fact", namespace: "n", created_at: 1, actor: "me", subject: "a", relation: "r", object: "b" });
 * const b = hashGrain({ object: "b", relation: "r", subject: "a", actor: "me", created_at: 1, namespace: "n", type: "fact" });
 * equal(a, b);
 * equal(a.length, 64);
 * ```
 */
export function hashGrain(grain: Grain): string {
  return sha256Hex(canonicalJson(grain));
}
