/**
 * Multi-frame zstd. Harnesses that append to a compressed log write one zstd
 * frame per append (DeepSeek Harness), parallel compressors (pzstd) write
 * several, and `node:zlib`'s decoder in Deno stops after the first frame and
 * says nothing of one cut short, so the frames are found here by walking the
 * frame and block headers and each is decoded on its own.
 *
 * @module
 */
import { zstdDecompressSync } from "node:zlib";

const MAGIC = 0xfd2fb528;

/** What {@linkcode decodeZstdFrames} recovered. */
export interface DecodedFrames {
  /** The decoded bytes of every complete frame, concatenated. */
  bytes: Uint8Array;
  /** False when the input ended inside a frame (a torn append). */
  complete: boolean;
  /** Frames that could not be decoded (corrupt) and were skipped. */
  bad: number;
}

function u32(bytes: Uint8Array, at: number): number {
  return ((bytes[at] as number) | ((bytes[at + 1] as number) << 8) |
    ((bytes[at + 2] as number) << 16) | ((bytes[at + 3] as number) << 24)) >>>
    0;
}

/**
 * The length of the frame starting at `at`, or undefined when the bytes end
 * before it does or it is not a frame.
 */
function frameLength(bytes: Uint8Array, at: number): number | undefined {
  if (at + 4 > bytes.length) return undefined;
  const magic = u32(bytes, at);
  if ((magic & 0xfffffff0) === 0x184d2a50) {
    // A skippable frame: magic, 4-byte size, payload.
    if (at + 8 > bytes.length) return undefined;
    const size = 8 + u32(bytes, at + 4);
    return at + size <= bytes.length ? size : undefined;
  }
  if (magic !== MAGIC) return undefined;
  let pos = at + 4;
  if (pos >= bytes.length) return undefined;
  const descriptor = bytes[pos] as number;
  pos++;
  const fcsFlag = descriptor >> 6;
  const singleSegment = (descriptor >> 5) & 1;
  const checksum = (descriptor >> 2) & 1;
  const dictFlag = descriptor & 3;
  if (!singleSegment) pos++;
  pos += [0, 1, 2, 4][dictFlag] as number;
  pos += fcsFlag === 0 ? singleSegment : ([0, 2, 4, 8][fcsFlag] as number);
  while (true) {
    if (pos + 3 > bytes.length) return undefined;
    const header = (bytes[pos] as number) | ((bytes[pos + 1] as number) << 8) |
      ((bytes[pos + 2] as number) << 16);
    pos += 3;
    const last = header & 1;
    const type = (header >> 1) & 3;
    const size = header >> 3;
    if (type === 3) return undefined;
    pos += type === 1 ? 1 : size;
    if (pos > bytes.length) return undefined;
    if (last) break;
  }
  if (checksum) pos += 4;
  return pos <= bytes.length ? pos - at : undefined;
}

/** What {@linkcode splitZstdFrames} found. */
export interface ZstdFrames {
  /** Each complete zstd frame, in order (skippable frames left out). */
  frames: Uint8Array[];
  /** False when the input ended inside a frame or held bytes of no frame. */
  complete: boolean;
}

/**
 * Splits a zstd file into its frames by walking the frame and block headers
 * (nothing is decoded). A frame cut short, or bytes that are no frame, end
 * the walk with `complete` false.
 *
 * @param bytes A file of concatenated zstd frames.
 * @returns The complete frames and whether the input ended on a frame boundary.
 * @example
 * ```ts
 * import { splitZstdFrames } from "./_zstd_frames.ts";
 * import { zstdCompressSync } from "node:zlib";
 * import { equal } from "node:assert/strict";
 * const a = new Uint8Array(zstdCompressSync(new TextEncoder().encode("one\n")));
 * equal(splitZstdFrames(new Uint8Array([...a, ...a])).frames.length, 2);
 * equal(splitZstdFrames(a.subarray(0, a.length - 1)).complete, false);
 * ```
 */
export function splitZstdFrames(bytes: Uint8Array): ZstdFrames {
  const frames: Uint8Array[] = [];
  let at = 0;
  while (at < bytes.length) {
    const length = frameLength(bytes, at);
    if (length === undefined) return { frames, complete: false };
    const frame = bytes.subarray(at, at + length);
    at += length;
    if (u32(frame, 0) === MAGIC) frames.push(frame);
  }
  return { frames, complete: true };
}

/**
 * Decodes every complete zstd frame in `bytes`, in order. A frame cut short
 * at the end is reported through `complete`; bytes that are not a frame
 * stop the walk the same way.
 *
 * @param bytes A file of concatenated zstd frames.
 * @returns The decoded bytes and whether the input ended on a frame boundary.
 * @example
 * ```ts
 * import { decodeZstdFrames } from "./_zstd_frames.ts";
 * import { zstdCompressSync } from "node:zlib";
 * import { equal } from "node:assert/strict";
 * const a = zstdCompressSync(new TextEncoder().encode("one\n"));
 * const b = zstdCompressSync(new TextEncoder().encode("two\n"));
 * const both = new Uint8Array([...a, ...b]);
 * equal(new TextDecoder().decode(decodeZstdFrames(both).bytes), "one\ntwo\n");
 * ```
 */
export function decodeZstdFrames(bytes: Uint8Array): DecodedFrames {
  const parts: Uint8Array[] = [];
  let total = 0;
  let bad = 0;
  const { frames, complete } = splitZstdFrames(bytes);
  for (const frame of frames) {
    try {
      const out = new Uint8Array(zstdDecompressSync(frame));
      parts.push(out);
      total += out.length;
    } catch {
      bad++;
    }
  }
  const joined = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return { bytes: joined, complete, bad };
}
