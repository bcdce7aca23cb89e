/**
 * What the index keeps of a record: its stored body and its posting text.
 * Speech, commands and edits are kept whole; a long tool output is kept as
 * an excerpt (its first and last lines and every line that signals
 * trouble, in order), because that is what search can find in it and the
 * transcript still holds the rest. Long work bodies are deflated.
 *
 * @module
 */
import { deflateRawSync, inflateRawSync } from "node:zlib";
import { postingTokens } from "./tokens.ts";
import { withoutInvisible } from "../redact/mod.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Work bodies at least this long are deflated, at level 1: long tool output
 * is already cut to an excerpt, and level 4 saved 7 MB more on the 240 MB
 * bench for about a second of a cold pass. Each deflate call costs ~30 µs
 * whatever its size, so small bodies stay plain (docs/decisions.md).
 */
const COMPRESS_FROM = 1024;

/** A stored body: text as it is, or deflated UTF-8 bytes. */
export type StoredBody = string | Uint8Array;

/**
 * Encodes a record's text for storage. Speech and short work records are
 * stored as text (no encoding on write, none on read), so an ordinary
 * search never loads zlib; long work records are deflated (index format 4;
 * format 3 kept plain bodies as bytes and is rebuilt).
 *
 * @param role The record's role.
 * @param text The (redacted) text to store.
 * @returns The body and whether it is deflated.
 */
export function encodeBody(
  role: string,
  text: string,
): { bytes: StoredBody; compressed: boolean } {
  // UTF-16 length is at most the UTF-8 length: a cheap first test.
  if (
    text.length < COMPRESS_FROM / 3 || role === "user" || role === "assistant"
  ) {
    return { bytes: text, compressed: false };
  }
  const raw = encoder.encode(text);
  if (raw.length < COMPRESS_FROM) return { bytes: text, compressed: false };
  const packed = deflateRawSync(raw, { level: 1 });
  if (packed.length >= raw.length) return { bytes: text, compressed: false };
  // zlib hands back a view on its 16 KiB output chunk: copied out, the body
  // holds (and a worker's message carries) its own bytes, not the chunk.
  return {
    bytes: packed.byteLength === packed.buffer.byteLength
      ? packed
      : new Uint8Array(packed),
    compressed: true,
  };
}

/**
 * Decodes a stored body synchronously (index-side readers that load zlib
 * anyway; search uses the lazy `readBody`).
 *
 * @param bytes The stored bytes.
 * @param compressed Whether they are deflated.
 * @returns The text.
 */
export function decodeBodySync(bytes: StoredBody, compressed: boolean): string {
  if (typeof bytes === "string") return bytes;
  return decoder.decode(compressed ? inflateRawSync(bytes) : bytes);
}

const SIGNAL =
  /error|fail|fatal|exception|panic|denied|refused|not found|warn|traceback|exit code|cannot|could not|unable|invalid|timeout|timed out/gi;

/** Tool output longer than this (UTF-16 units) is kept as an excerpt. */
export const EXCERPT_FROM = 2048;
/** Lines an excerpt keeps from each end of the output. */
const EDGE_LINES = 15;
/** Lines an excerpt keeps in all. */
const EXCERPT_LINES = 200;
/** Characters an excerpt keeps of one line. */
const LINE_CHARS = 400;

/** What the index keeps of one record. */
export interface KeptText {
  /** The text stored as the record's body. */
  stored: string;
  /** The text handed to the full-text tables. */
  posting: string;
  /** Whether `stored` is an excerpt of a longer text. */
  excerpted: boolean;
}

/**
 * Decides what the index keeps of a record's (redacted) text: an edit is
 * stored whole but posted as its path line and the distinct words it
 * removed; a tool output longer than
 * {@linkcode EXCERPT_FROM} is stored and posted as an excerpt, with a
 * `[… N lines …]` line where lines were left out (the marker itself is not
 * posted); everything else is stored and posted whole. Posting text then
 * gets CJK bigrams and camelCase parts (`postingTokens`).
 *
 * @param role The record's role.
 * @param text The redacted text.
 * @returns The stored body text, the posting text and whether it was cut.
 * @example
 * ```ts
 * import { keptText } from "./_body.ts";
 * import { equal } from "node:assert/strict";
 * const out = Array.from({ length: 500 }, (_, i) => `line ${i}`);
 * out[250] = "Error: disk full";
 * const kept = keptText("tool-output", out.join("\n"));
 * equal(kept.excerpted, true);
 * equal(kept.stored.includes("Error: disk full"), true);
 * equal(kept.stored.includes("line 100"), false);
 * ```
 */
export function keptText(role: string, text: string): KeptText {
  if (role === "edit") {
    const cut = text.indexOf("\n");
    const path = cut < 0 ? text : text.slice(0, cut);
    const removed = cut < 0 ? "" : distinctWords(text.slice(cut + 1));
    return {
      stored: text,
      posting: postingTokens(removed ? `${path}\n${removed}` : path),
      excerpted: false,
    };
  }
  if (role !== "tool-output" || text.length <= EXCERPT_FROM) {
    return { stored: text, posting: postingTokens(text), excerpted: false };
  }
  const { stored, posting } = excerpt(text);
  return { stored, posting: postingTokens(posting), excerpted: true };
}

/** Distinct words an edit's removed text posts, at most. */
const EDIT_WORDS = 200;

/**
 * The distinct words of a text, first seen first, at most
 * {@linkcode EDIT_WORDS}: what an edit removed is found by its names (a
 * function deleted, a flag renamed) without posting every line of code a
 * read already posted.
 */
function distinctWords(text: string): string {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const w of text.split(/[^\p{L}\p{N}_]+/u)) {
    if (!w) continue;
    const key = w.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(w);
    if (out.length === EDIT_WORDS) break;
  }
  return out.join(" ");
}

/** Keeps the edges and the signal lines of a long output, in order. */
function excerpt(text: string): { stored: string; posting: string } {
  const lines = text.split("\n");
  const keep = keptLines(text, lines.length);
  return rendered(keep.map((i) => lines[i]!), keep);
}

/** The lines (from 0, ascending) an excerpt of `text`, of `n` lines, keeps. */
function keptLines(text: string, n: number): number[] {
  const keep: number[] = [];
  // One scan of the whole text finds the trouble lines; testing each line
  // on its own cost a regex call per line.
  const signals = signalLines(text, EXCERPT_LINES);
  let s = 0;
  for (let i = 0; i < n; i++) {
    while (s < signals.length && signals[s]! < i) s++;
    const edge = i < EDGE_LINES || i >= n - EDGE_LINES;
    if (edge || (keep.length < EXCERPT_LINES && signals[s] === i)) {
      keep.push(i);
    }
  }
  return keep;
}

/**
 * The kept lines (`kept[k]` is line `keep[k]`), each cut to
 * {@linkcode LINE_CHARS}, with markers where lines were left out.
 */
function rendered(
  kept: readonly string[],
  keep: readonly number[],
): { stored: string; posting: string } {
  const stored: string[] = [];
  const posted: string[] = [];
  let next = 0;
  for (const [k, i] of keep.entries()) {
    if (i > next) stored.push(`[… ${i - next} lines …]`);
    const line = kept[k]!;
    const cut = line.length > LINE_CHARS
      ? `${line.slice(0, LINE_CHARS)}…`
      : line;
    stored.push(cut);
    posted.push(cut);
    next = i + 1;
  }
  return { stored: stored.join("\n"), posting: posted.join("\n") };
}

/**
 * Lines of context cleaned with each kept line of a long output, before and
 * after it: a secret's label or header a line or a few above its value is
 * read with it.
 */
const CONTEXT_LINES = 3;

/**
 * What the index keeps of a record, with `clean` (redaction) run only on
 * what is kept: a long tool output's excerpt is chosen from the raw text,
 * and its lines, each with {@linkcode CONTEXT_LINES} lines around it, are
 * cleaned together; the rest of the output is never stored, so it is not
 * cleaned either. Lines are chosen once invisible characters are dropped (a
 * NUL between the letters of UTF-16 output hides "error"). When `readWhole`
 * says the output needs reading whole (it may hold a private key block,
 * dozens of lines long), or cleaning changes how many lines the context has
 * (a terminal escape that held a line break), the whole text is cleaned and
 * cut as {@linkcode keptText} does. Anything else goes through `clean`
 * whole.
 *
 * @param role The record's role.
 * @param raw The text as read.
 * @param clean Redacts a text (with invisible characters dropped); called
 * once, or twice when the context's lines changed (its first answer is then
 * dropped).
 * @param readWhole Whether a long output must be cleaned whole.
 * @returns What to store and post.
 * @example
 * ```ts
 * import { keptCleanText } from "./_body.ts";
 * import { equal } from "node:assert/strict";
 * const out = Array.from({ length: 500 }, (_, i) => `line ${i}`);
 * out[250] = "Error: token=abc123";
 * const kept = keptCleanText("tool-output", out.join("\n"), (t) =>
 *   t.replaceAll("abc123", "[redacted]"));
 * equal(kept.stored.includes("Error: token=[redacted]"), true);
 * ```
 */
export function keptCleanText(
  role: string,
  raw: string,
  clean: (text: string) => string,
  readWhole?: (text: string) => boolean,
): KeptText {
  if (role !== "tool-output" || raw.length <= EXCERPT_FROM) {
    return keptText(role, clean(raw));
  }
  const visible = withoutInvisible(raw);
  if (readWhole?.(visible)) return keptText(role, clean(visible));
  // Where each line starts: only the lines kept and their context are cut
  // out of the text (splitting a long output made a string of every line).
  const starts = lineStarts(visible);
  const lineCount = starts.length;
  const line = (j: number) =>
    visible.slice(
      starts[j]!,
      j + 1 < lineCount ? starts[j + 1]! - 1 : visible.length,
    );
  const keep = keptLines(visible, lineCount);
  // The kept lines with their context, runs apart joined by an empty line
  // (a gap no rule reads across).
  const context: string[] = [];
  const at = new Map<number, number>();
  let end = 0;
  for (const i of keep) {
    const from = Math.max(end, i - CONTEXT_LINES);
    if (from > end && context.length > 0) context.push("");
    const to = Math.min(lineCount, i + CONTEXT_LINES + 1);
    for (let j = from; j < to; j++) {
      at.set(j, context.length);
      context.push(line(j));
    }
    end = Math.max(end, to);
  }
  const cleaned = clean(context.join("\n")).split("\n");
  if (cleaned.length !== context.length) {
    return keptText(role, clean(visible));
  }
  const { stored, posting } = rendered(
    keep.map((i) => cleaned[at.get(i)!]!),
    keep,
  );
  return { stored, posting: postingTokens(posting), excerpted: true };
}

/** The offset each line of `text` starts at (the first is 0). */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (
    let nl = text.indexOf("\n");
    nl !== -1;
    nl = text.indexOf("\n", nl + 1)
  ) {
    starts.push(nl + 1);
  }
  return starts;
}

/** Indexes of the lines (from 0, ascending) holding a signal word. */
function signalLines(text: string, max: number): number[] {
  const found: number[] = [];
  let line = 0;
  let lineStart = 0;
  SIGNAL.lastIndex = 0;
  for (let m = SIGNAL.exec(text); m; m = SIGNAL.exec(text)) {
    while (true) {
      const nl = text.indexOf("\n", lineStart);
      if (nl === -1 || nl >= m.index) break;
      lineStart = nl + 1;
      line++;
    }
    found.push(line);
    if (found.length >= max) break;
    // Go on from the next line: one hit is enough for a line.
    const nl = text.indexOf("\n", m.index);
    if (nl === -1) break;
    SIGNAL.lastIndex = nl + 1;
  }
  return found;
}

/** Speech that states a decision (stored as `FLAG.decision`). */
export const DECISION_PATTERN =
  /\b(decided|decision|we(?:'ll| will) (?:use|go with|keep)|going with|settled on|chose|conclusion|root cause|the fix (?:is|was)|fixed (?:it )?by|because)\b/i;
