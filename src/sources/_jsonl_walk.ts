/**
 * One JSONL walk for the line-oriented stores (Gemini, Qwen, Kimi, Pi,
 * Copilot): complete lines only, malformed and oversized lines counted, the
 * safe resume point tracked.
 *
 * @module
 */
import {
  MAX_LINE_BYTES,
  type OversizedLine,
  readLines,
} from "../core/lines.ts";
import { parseJson } from "./_json.ts";

/** Where a line came from: path, 1-based line and byte offset. */
export interface LineLocator {
  /** The file. */
  path: string;
  /** 1-based line number. */
  line: number;
  /** Byte offset of the line's start. */
  offset: number;
}

/** Options for {@linkcode walkJsonLines}. */
export interface WalkJsonLinesOptions {
  /** Byte offset to resume at (a line start). */
  offset?: number;
  /** Line number at `offset`. */
  firstLine?: number;
  /** Lines longer than this are skipped and counted. Default 8 MiB. */
  maxLineBytes?: number;
}

/** What a walk consumed. */
export interface WalkJsonLinesResult {
  /** Byte offset just past the last consumed line. */
  safeOffset: number;
  /** Line number at `safeOffset`. */
  safeLine: number;
  /** Malformed, non-object and oversized lines. */
  skipped: number;
}

async function newlineAt(path: string, at: number): Promise<boolean> {
  try {
    using file = await Deno.open(path, { read: true });
    await file.seek(at, Deno.SeekMode.Start);
    const one = new Uint8Array(1);
    return (await file.read(one)) === 1 && one[0] === 10;
  } catch {
    return false;
  }
}

/**
 * Calls `visit` with every complete line that parses to a JSON object. A last
 * line without its newline is neither visited nor consumed (it may be half
 * written); blank lines are consumed silently; lines that do not parse, parse
 * to something other than an object, or exceed the cap are counted in
 * `skipped`.
 *
 * @param path The JSONL file.
 * @param options Resume point and line cap.
 * @param visit Receives each object and its locator.
 * @returns The safe resume point and the skip count.
 * @example
 * ```ts
 * import { walkJsonLines } from "./_jsonl_walk.ts";
 * import { equal } from "node:assert/strict";
 * const path = await Deno.makeTempFile();
 * await Deno.writeTextFile(path, '{"a":1}\nnot json\n{"b":');
 * let seen = 0;
 * const r = await walkJsonLines(path, {}, () => seen++);
 * equal(seen, 1);
 * equal(r.skipped, 1);
 * equal(r.safeOffset, 17);
 * ```
 */
export async function walkJsonLines(
  path: string,
  options: WalkJsonLinesOptions,
  visit: (value: Record<string, unknown>, locator: LineLocator) => void,
): Promise<WalkJsonLinesResult> {
  let safeOffset = options.offset ?? 0;
  let safeLine = options.firstLine ?? 1;
  let skipped = 0;
  let pending: OversizedLine | undefined;
  const settle = (): void => {
    if (pending === undefined) return;
    skipped++;
    safeOffset = pending.offset + pending.length + 1;
    safeLine = pending.number + 1;
    pending = undefined;
  };
  const lines = readLines(path, {
    offset: safeOffset,
    firstLine: safeLine,
    maxLineBytes: options.maxLineBytes ?? MAX_LINE_BYTES,
    onOversized: (line) => {
      // A second report means the first one had its newline.
      settle();
      pending = line;
    },
  });
  for await (const line of lines) {
    settle();
    if (!line.complete) break;
    safeOffset = line.end;
    safeLine = line.number + 1;
    const text = line.text.trim();
    if (text.length === 0) continue;
    // parseJson: also past the NUL bytes a power loss leaves before a line.
    const value = parseJson(text);
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      skipped++;
      continue;
    }
    visit(value as Record<string, unknown>, {
      path,
      line: line.number,
      offset: line.offset,
    });
  }
  if (pending !== undefined) {
    const last: OversizedLine = pending;
    if (await newlineAt(path, last.offset + last.length)) settle();
  }
  return { safeOffset, safeLine, skipped };
}
