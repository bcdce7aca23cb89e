/**
 * Record bodies: stored deflated from 256 bytes up, plain below (where
 * deflate rarely saves anything).
 *
 * @module
 */
import { deflateRawSync, inflateRawSync } from "node:zlib";
import { postingTokens } from "./tokens.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Bodies at least this long are deflated (level 4: on generated tool output
 * 0.39 of the raw size against 0.55 at level 1, for twice the time). Each
 * deflate call costs ~30 µs whatever its size, so small bodies stay plain:
 * most bytes sit in the long ones (docs/benchmarks.md).
 */
const COMPRESS_FROM = 1024;

/**
 * Encodes a record's text for storage. Speech stays plain so that an
 * ordinary search never loads zlib; long work records are deflated.
 *
 * @param role The record's role.
 * @param text The (redacted) text.
 * @returns The bytes and whether they are deflated.
 */
export function encodeBody(
  role: string,
  text: string,
): { bytes: Uint8Array; compressed: boolean } {
  const raw = encoder.encode(text);
  if (raw.length < COMPRESS_FROM || role === "user" || role === "assistant") {
    return { bytes: raw, compressed: false };
  }
  const packed = deflateRawSync(raw, { level: 4 });
  return packed.length < raw.length
    ? { bytes: packed, compressed: true }
    : { bytes: raw, compressed: false };
}

/**
 * Decodes a stored body synchronously (index-side readers that load zlib
 * anyway; search uses the lazy {@linkcode readBody}).
 *
 * @param bytes The stored bytes.
 * @param compressed Whether they are deflated.
 * @returns The text.
 */
export function decodeBodySync(bytes: Uint8Array, compressed: boolean): string {
  return decoder.decode(compressed ? inflateRawSync(bytes) : bytes);
}

const SIGNAL =
  /error|fail|fatal|exception|panic|denied|refused|not found|warn|traceback|exit code|cannot|could not|unable|invalid|timeout|timed out/i;

/** Tool output longer than this is indexed on its signal lines only. */
const SIGNAL_FROM = 2048;

/**
 * The text a record contributes to the full-text index: an edit's path
 * only, a long tool output's first and last lines plus every line that
 * signals trouble, everything else whole; then CJK runs as bigrams and
 * camelCase identifiers with their parts ({@linkcode postingTokens}).
 *
 * @param role The record's role.
 * @param text The stored text.
 * @returns The text to tokenize.
 */
export function postingText(role: string, text: string): string {
  return postingTokens(signalText(role, text));
}

function signalText(role: string, text: string): string {
  if (role === "edit") return text.split("\n", 1)[0] ?? "";
  if (role !== "tool-output" || text.length <= SIGNAL_FROM) return text;
  const lines = text.split("\n");
  if (lines.length <= 40) return text.slice(0, SIGNAL_FROM);
  const keep = [...lines.slice(0, 15), ...lines.slice(-15)];
  for (let i = 15; i < lines.length - 15 && keep.length < 200; i++) {
    const line = lines[i] as string;
    if (SIGNAL.test(line)) keep.push(line);
  }
  return keep.join("\n");
}

/** Speech that states a decision (stored as {@linkcode FLAG}.decision). */
export const DECISION_PATTERN =
  /\b(decided|decision|we(?:'ll| will) (?:use|go with|keep)|going with|settled on|chose|conclusion|root cause|the fix (?:is|was)|fixed (?:it )?by|because)\b/i;
