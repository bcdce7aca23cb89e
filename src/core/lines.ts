/**
 * A streaming line reader with byte offsets and a per-line size cap, for
 * JSONL transcripts (plain or zstd-compressed). It never holds more than one
 * chunk plus one line in memory, besides a compressed file's own bytes.
 *
 * @module
 */
import { createZstdDecompress } from "node:zlib";
import { splitZstdFrames } from "./_zstd_frames.ts";

/** One line of a file. */
export interface Line {
  /** The line's text without its newline (and without a BOM on line 1). */
  text: string;
  /** 1-based line number, counted from the start of the file. */
  number: number;
  /** Byte offset of the line's first byte in the (decompressed) stream. */
  offset: number;
  /** Byte offset just past the line's newline. */
  end: number;
  /** False for a last line with no newline (possibly torn mid-write). */
  complete: boolean;
}

/** A line longer than the cap, reported instead of its text. */
export interface OversizedLine {
  /** 1-based line number. */
  number: number;
  /** Byte offset of the line's start. */
  offset: number;
  /** Length in bytes. */
  length: number;
}

/** Options for {@linkcode readLines}. */
export interface ReadLinesOptions {
  /** Byte offset to start at (must be a line start). Default 0. */
  offset?: number;
  /** Line number of the line at `offset`. Default 1. */
  firstLine?: number;
  /** Lines longer than this many bytes are skipped. Default 8 MiB. */
  maxLineBytes?: number;
  /** Called for each skipped oversized line. */
  onOversized?: (line: OversizedLine) => void;
  /** Read size. Default 1 MiB. */
  chunkBytes?: number;
  /**
   * Stop after the first line that ends at least this many bytes past
   * `offset`, so a huge log can be read a part at a time. Ignored for a
   * compressed file, whose offsets can only be reached from its start.
   */
  limitBytes?: number;
}

/** Default per-line cap. */
export const MAX_LINE_BYTES = 8 * 1024 * 1024;

/**
 * Tells whether a path names a zstd-compressed file.
 *
 * @param path The file path.
 * @returns True for `.zst` and `.zstd` endings.
 * @example
 * ```ts
 * import { isZstdPath } from "./lines.ts";
 * import { ok } from "node:assert/strict";
 * ok(isZstdPath("rollout-1.jsonl.zst"));
 * ```
 */
export function isZstdPath(path: string): boolean {
  return path.endsWith(".zst") || path.endsWith(".zstd");
}

/** Reads of at most this many bytes may be synchronous calls. */
const SYNC_READ_BYTES = 64 * 1024;

/** This thread hands files to a parse worker (see {@linkcode feedingWorker}). */
let feeding = false;

/**
 * Says whether this thread hands files to a parse worker. While it does,
 * every read of a file is an asynchronous call: the turn each gives the
 * event loop is when the next files are sent to the worker, and a thread
 * that parsed small files without one left the worker idle (a pass over
 * thousands of small files took a fifth longer).
 *
 * @param on Whether a worker is being fed.
 * @example
 * ```ts
 * import { feedingWorker } from "./lines.ts";
 * feedingWorker(true);
 * feedingWorker(false);
 * ```
 */
export function feedingWorker(on: boolean): void {
  feeding = on;
}

/** The first bytes of a zstd frame. */
const ZSTD_MAGIC = [0x28, 0xb5, 0x2f, 0xfd];

async function* chunksOf(
  path: string,
  offset: number,
  chunkBytes: number,
): AsyncGenerator<Uint8Array> {
  if (isZstdPath(path)) {
    // Offsets count decompressed bytes; a compressed file is always read from
    // its start and the bytes before `offset` are dropped. Its frames are
    // decoded one at a time: the decoder stops after the first and says
    // nothing of one cut short, so a truncated file read as empty.
    const bytes = await Deno.readFile(path);
    const { frames, complete } = splitZstdFrames(bytes);
    let skip = offset;
    for (const frame of frames) {
      const stream = createZstdDecompress();
      stream.end(frame);
      for await (const chunk of stream as AsyncIterable<Uint8Array>) {
        if (skip >= chunk.length) {
          skip -= chunk.length;
          continue;
        }
        yield skip > 0 ? chunk.subarray(skip) : chunk;
        skip = 0;
      }
    }
    if (!complete) {
      throw new Error(
        ZSTD_MAGIC.every((b, i) => bytes[i] === b)
          ? "The zstd data is cut short or damaged (a truncated file?)"
          : "Not zstd data (no zstd frame at its start)",
      );
    }
    return;
  }
  // Opening, sizing and seeking are synchronous (microseconds on a file the
  // page cache holds; each asynchronous call cost ~50 µs of scheduling, a
  // second over a few thousand small files), the reads not: each read lets
  // this thread's other work run (the writer feeds the parse worker).
  using file = Deno.openSync(path, { read: true });
  if (offset > 0) file.seekSync(offset, Deno.SeekMode.Start);
  // Buffers are sized to what is left: an append pass reads a few KB of
  // each grown file, and a zeroed 1 MiB buffer per read (and one more for
  // the read that finds the end) cost it ~20 MB of allocation.
  let left = Math.max(0, file.statSync().size - offset);
  while (true) {
    const buf = new Uint8Array(Math.min(chunkBytes, Math.max(left, 4096)));
    // Past the size it had when opened (the end, or what was appended
    // since), and the last 64 KiB (all of a small file) unless this thread
    // feeds a parse worker, a read is a synchronous call, without a round
    // trip; otherwise each read lets this thread's other work run.
    const n = left <= 0 || (left <= SYNC_READ_BYTES && !feeding)
      ? file.readSync(buf)
      : await file.read(buf);
    if (n === null) return;
    left -= n;
    yield buf.subarray(0, n);
  }
}

/**
 * Reads a file line by line with byte offsets, skipping lines over the cap.
 *
 * @param path File path; `.zst`/`.zstd` files are decompressed on the fly.
 * @param options Start offset, cap and chunk size.
 * @returns An async iterator of lines.
 * @example
 * ```ts
 * import { readLines } from "./lines.ts";
 * import { equal } from "node:assert/strict";
 * const path = await Deno.makeTempFile();
 * await Deno.writeTextFile(path, "a\nbb\nc");
 * const lines = await Array.fromAsync(readLines(path));
 * equal(lines.map((l) => l.text).join(","), "a,bb,c");
 * equal(lines[2]?.complete, false);
 * ```
 */
export async function* readLines(
  path: string,
  options: ReadLinesOptions = {},
): AsyncGenerator<Line> {
  const decoder = new TextDecoder();
  const cap = options.maxLineBytes ?? MAX_LINE_BYTES;
  let pos = options.offset ?? 0;
  let number = options.firstLine ?? 1;
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let overflow = false;
  const stopAt = options.limitBytes === undefined || isZstdPath(path)
    ? Infinity
    : pos + options.limitBytes;
  const take = (tail: Uint8Array): Uint8Array => {
    if (pending.length === 0) return tail;
    const out = new Uint8Array(pendingBytes + tail.length);
    let at = 0;
    for (const part of pending) {
      out.set(part, at);
      at += part.length;
    }
    out.set(tail, at);
    pending = [];
    pendingBytes = 0;
    return out;
  };
  const emit = (bytes: Uint8Array, length: number, complete: boolean) => {
    const start = pos;
    pos += length + (complete ? 1 : 0);
    const lineNo = number++;
    let text = decoder.decode(bytes);
    if (text.endsWith("\r")) text = text.slice(0, -1);
    if (start === 0 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    return { text, number: lineNo, offset: start, end: pos, complete };
  };
  for await (
    const chunk of chunksOf(path, pos, options.chunkBytes ?? 1 << 20)
  ) {
    let from = 0;
    while (from < chunk.length) {
      const nl = chunk.indexOf(10, from);
      if (nl === -1) {
        const rest = chunk.subarray(from);
        if (!overflow && pendingBytes + rest.length <= cap) {
          pending.push(rest.slice());
        } else {
          overflow = true;
          pending = [];
        }
        pendingBytes += rest.length;
        break;
      }
      const piece = chunk.subarray(from, nl);
      const length = pendingBytes + piece.length;
      if (overflow || length > cap) {
        options.onOversized?.({ number, offset: pos, length });
        pending = [];
        pendingBytes = 0;
        overflow = false;
        pos += length + 1;
        number++;
      } else {
        yield emit(take(piece), length, true);
      }
      if (pos >= stopAt) return;
      from = nl + 1;
    }
  }
  if (pendingBytes > 0) {
    if (overflow) {
      options.onOversized?.({ number, offset: pos, length: pendingBytes });
    } else {
      const length = pendingBytes;
      yield emit(take(new Uint8Array()), length, false);
    }
  }
}
