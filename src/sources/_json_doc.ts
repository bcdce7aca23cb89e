/**
 * Whole-document JSON stores (Gemini `.json` chats, Amp threads, VS Code chat
 * sessions): read with a size cap, and a document that is cut short or not
 * JSON becomes a counted skip instead of an exception.
 *
 * @module
 */
import { parseJson } from "./_json.ts";

/** Documents larger than this are skipped (256 MiB). */
export const MAX_DOCUMENT_BYTES = 256 * 1024 * 1024;

/** The outcome of {@linkcode readJsonDocument}. */
export type JsonDocument =
  | { ok: true; value: unknown; bytes: number }
  | { ok: false; reason: "missing" | "too-large" | "malformed" };

/**
 * Reads and parses one JSON document. A UTF-8 BOM is ignored.
 *
 * @param path The file.
 * @param maxBytes Larger files are not read.
 * @returns The parsed value, or why there is none.
 * @example
 * ```ts
 * import { readJsonDocument } from "./_json_doc.ts";
 * import { equal } from "node:assert/strict";
 * const path = await Deno.makeTempFile();
 * await Deno.writeTextFile(path, '{"messages": [');
 * const doc = await readJsonDocument(path);
 * equal(doc.ok, false);
 * ```
 */
export async function readJsonDocument(
  path: string,
  maxBytes: number = MAX_DOCUMENT_BYTES,
): Promise<JsonDocument> {
  let size: number;
  try {
    const info = await Deno.stat(path);
    if (!info.isFile) return { ok: false, reason: "missing" };
    size = info.size;
  } catch {
    return { ok: false, reason: "missing" };
  }
  if (size > maxBytes) return { ok: false, reason: "too-large" };
  let text: string;
  try {
    const bytes = await Deno.readFile(path);
    text = new TextDecoder().decode(bytes);
  } catch {
    return { ok: false, reason: "missing" };
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  try {
    return { ok: true, value: JSON.parse(text), bytes: size };
  } catch {
    return { ok: false, reason: "malformed" };
  }
}

/**
 * Reads a small JSON file that sits beside a store's logs (session metadata,
 * a project list), where a missing or broken file only means less is known.
 *
 * @param path The file.
 * @returns The parsed value; undefined when the file is missing, unreadable
 * or not JSON.
 * @example
 * ```ts
 * import { readJsonFile } from "./_json_doc.ts";
 * import { deepEqual, equal } from "node:assert/strict";
 * const path = await Deno.makeTempFile();
 * await Deno.writeTextFile(path, '{"title": "t"}');
 * deepEqual(await readJsonFile(path), { title: "t" });
 * equal(await readJsonFile(`${path}.missing`), undefined);
 * ```
 */
export async function readJsonFile(path: string): Promise<unknown> {
  try {
    return parseJson(await Deno.readTextFile(path));
  } catch {
    return undefined;
  }
}
