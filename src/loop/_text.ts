/**
 * Text normalisation shared by the analyzers: folding for equality, token
 * sets for Jaccard similarity, and error signatures for failure clustering.
 *
 * @module
 */

/**
 * Folds text for equality: NFC, lower case, trimmed, inner whitespace
 * collapsed.
 *
 * @param text Any text.
 * @returns The folded text.
 */
export function fold(text: string): string {
  return text.normalize("NFC").toLowerCase().replace(/\s+/g, " ").trim();
}

/**
 * Folds a value to its word sequence: `us-east-1` and `US East 1` compare
 * equal, while `1.2` and `12` stay apart.
 *
 * @param text Any text.
 * @returns Tokens joined by single spaces.
 */
export function foldValue(text: string): string {
  return [...fold(text).matchAll(/[\p{L}\p{N}_]+/gu)].map((m) => m[0]).join(
    " ",
  );
}

/**
 * The set of word tokens in a text (letters and digits, folded).
 *
 * @param text Any text.
 * @returns Distinct tokens.
 */
export function tokenSet(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of fold(text).matchAll(/[\p{L}\p{N}_]+/gu)) out.add(m[0]);
  return out;
}

/**
 * Jaccard similarity of two token sets.
 *
 * @param a One set.
 * @param b The other.
 * @returns |a ∩ b| / |a ∪ b|, 1 for two empty sets.
 */
export function jaccard(
  a: ReadonlySet<string>,
  b: ReadonlySet<string>,
): number {
  if (a.size === 0 && b.size === 0) return 1;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let shared = 0;
  for (const t of small) if (large.has(t)) shared++;
  return shared / (a.size + b.size - shared);
}

/** Longest signature kept, in characters. */
export const SIGNATURE_CHARS = 80;

function errorText(result: unknown): string {
  if (result === undefined || result === null) return "";
  if (typeof result === "string") {
    const trimmed = result.trim();
    if (trimmed.startsWith("{")) {
      try {
        return errorText(JSON.parse(trimmed));
      } catch {
        return result;
      }
    }
    return result;
  }
  if (typeof result === "object" && !Array.isArray(result)) {
    const r = result as Record<string, unknown>;
    for (const key of ["error", "message", "stderr", "output"]) {
      const v = r[key];
      if (typeof v === "string" && v.trim() !== "") return v;
      if (v && typeof v === "object") {
        const inner = errorText(v);
        if (inner) return inner;
      }
    }
  }
  try {
    return JSON.stringify(result);
  } catch {
    return String(result);
  }
}

/**
 * The normalised error signature of a failed tool result: the error text
 * (from an `error`/`message`/`stderr` field when the result is structured),
 * lower-cased, with paths replaced by `<path>`, hex ids and digit runs by
 * `#`, whitespace collapsed, cut to 80 characters.
 *
 * @param result The tool result as captured.
 * @returns The signature; empty when there is no error text.
 * @example
 * ```ts
 * import { errorSignature } from "./_text.ts";
 * import { equal } from "node:assert/strict";
 * equal(errorSignature({ error: "ENOENT: /tmp/a1/x.txt missing (code 2)" }), "enoent: <path> missing (code #)");
 * ```
 */
export function errorSignature(result: unknown): string {
  let text = errorText(result).normalize("NFC").toLowerCase();
  text = text
    .replace(
      /(?<=^|[\s"'=(:,])(?:[a-z]:)?(?:[.~]{0,2}[\\/][^\s"'`,;:()<>[\]{}]+)+/g,
      "<path>",
    )
    .replace(/\b(?=[0-9a-f-]*\d)[0-9a-f]{6,}(?:-[0-9a-f]{2,})*\b/g, "#")
    .replace(/\d+/g, "#")
    .replace(/\s+/g, " ")
    .trim();
  return text.slice(0, SIGNATURE_CHARS).trim();
}

/**
 * Eight hex characters identifying a text, for stable target refs.
 *
 * @param text Any text.
 * @returns A short FNV-1a digest.
 */
export function shortDigest(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, "0");
}
