/**
 * Reading stored bodies back on the query path. zlib is loaded only when a
 * deflated (work) body is read, so a speech search never pays for it.
 *
 * @module
 */

const decoder = new TextDecoder();
let inflate: ((bytes: Uint8Array) => Uint8Array) | undefined;

/**
 * Decodes a stored body, loading zlib on first need.
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
  inflate ??= (await import("node:zlib")).inflateRawSync;
  return decoder.decode(inflate(bytes));
}
