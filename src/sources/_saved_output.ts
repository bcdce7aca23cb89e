/**
 * Tool output a harness saved to a file of its own and left a preview of in
 * the transcript (Claude Code's `tool-results/`, opencode's `tool-output/`):
 * read bounded, like any tool output, never past a cap.
 *
 * @module
 */
import { cutAtWordEdge } from "../core/text.ts";

/** How far into a half a line end is looked for before a blank will do. */
const LINE_WINDOW = 4096;

/**
 * A regular file's text (a link is not followed), or, past `max` bytes, its
 * first and last halves around a `[… N bytes …]` line, each cut at a line
 * end near the middle (else at a blank, so redaction never sees half a
 * token). Undefined when the file cannot be read or holds only blanks.
 *
 * @param path The file.
 * @param max The most bytes kept.
 * @returns The text, and whether it was cut.
 * @example
 * ```ts
 * import { readFileEdges } from "./_saved_output.ts";
 * import { equal } from "node:assert/strict";
 * const path = Deno.makeTempFileSync();
 * Deno.writeTextFileSync(path, "first line\n" + "x ".repeat(5000) + "\nlast line\n");
 * const read = readFileEdges(path, 1000)!;
 * equal(read.truncated, true);
 * equal(read.text.startsWith("first line\n"), true);
 * equal(read.text.endsWith("last line\n"), true);
 * ```
 */
export function readFileEdges(
  path: string,
  max: number,
): { text: string; truncated: boolean } | undefined {
  try {
    if (!Deno.lstatSync(path).isFile) return undefined;
    using file = Deno.openSync(path, { read: true });
    const size = file.statSync().size;
    const decoder = new TextDecoder();
    if (size <= max) {
      const text = decoder.decode(readAt(file, 0, size));
      return text.trim() ? { text, truncated: false } : undefined;
    }
    // Room for the line between the halves: the whole stays under the cap.
    const half = Math.floor(max / 2) - 64;
    const first = decoder.decode(readAt(file, 0, half));
    const last = decoder.decode(readAt(file, size - half, half));
    const lineEnd = first.lastIndexOf("\n");
    const head = lineEnd >= 0 && lineEnd >= first.length - LINE_WINDOW
      ? first.slice(0, lineEnd + 1)
      : cutAtWordEdge(first, first.length - 1);
    const newline = last.indexOf("\n");
    const blank = last.search(/\s/);
    const from = newline >= 0 && newline < LINE_WINDOW
      ? newline + 1
      : blank >= 0
      ? blank + 1
      : last.length;
    const tail = last.slice(from);
    const encoder = new TextEncoder();
    const left = size - encoder.encode(head).length -
      encoder.encode(tail).length;
    const sep = head.endsWith("\n") ? "" : "\n";
    return {
      text: `${head}${sep}[… ${left} bytes …]\n${tail}`,
      truncated: true,
    };
  } catch {
    return undefined;
  }
}

/** Up to `length` bytes of an open file from `offset`. */
function readAt(file: Deno.FsFile, offset: number, length: number): Uint8Array {
  const buf = new Uint8Array(length);
  file.seekSync(offset, Deno.SeekMode.Start);
  let read = 0;
  while (read < length) {
    const n = file.readSync(buf.subarray(read));
    if (n === null || n === 0) break;
    read += n;
  }
  return buf.subarray(0, read);
}
