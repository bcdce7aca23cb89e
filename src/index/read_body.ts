/**
 * Reading stored bodies back on the query path. `node:zlib` costs ~30 ms to
 * load, more than a one-shot `deja search` spends on anything else; such a
 * command calls {@linkcode readBodiesOnce} and its bodies are inflated by the
 * built-in `DecompressionStream` (~0.2 ms each, nothing to load). Long-lived
 * readers (the MCP server, the console, library use) load zlib on the first
 * deflated body and inflate synchronously (~0.03 ms).
 *
 * @module
 */

const decoder = new TextDecoder();
let inflate: ((bytes: Uint8Array) => Uint8Array) | undefined;
/** Whether this process reads a few bodies and exits (a CLI command). */
let oneShot = false;

/**
 * Says this process is a one-shot command: deflated bodies are inflated
 * without loading `node:zlib`.
 */
export function readBodiesOnce(): void {
  oneShot = true;
}

/**
 * Decodes a stored body.
 *
 * @param bytes The stored body: text, or (deflated) UTF-8 bytes.
 * @param compressed Whether they are deflated.
 * @returns The text.
 */
export async function readBody(
  bytes: Uint8Array | string,
  compressed: boolean,
): Promise<string> {
  if (typeof bytes === "string") return bytes;
  if (!compressed) return decoder.decode(bytes);
  if (oneShot) return decoder.decode(await inflateByStream(bytes));
  inflate ??= (await import("node:zlib")).inflateRawSync;
  return decoder.decode(inflate(bytes));
}

/**
 * Inflates through a `DecompressionStream`'s own writer and reader: going
 * by `Blob` and `Response` cost a fresh process ~4 ms more, loading the
 * fetch machinery for one body.
 */
async function inflateByStream(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new DecompressionStream("deflate-raw");
  const writer = stream.writable.getWriter();
  // The writes settle as the reader drains the stream; errors reach the
  // reader, which rejects.
  writer.write(bytes as Uint8Array<ArrayBuffer>).catch(() => {});
  writer.close().catch(() => {});
  const parts: Uint8Array[] = [];
  let length = 0;
  const reader = stream.readable.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    length += value.length;
  }
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
