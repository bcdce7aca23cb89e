/**
 * What query commands share: opening the index if there is one, and
 * formatting. Loads nothing of the indexer or the parsers.
 *
 * @module
 */
import type { Io } from "../src/core/io.ts";
import { indexPath } from "../src/core/paths.ts";
import type { Database } from "../src/core/_sqlite.ts";
import { openIndex } from "../src/index/schema.ts";
import { readBodiesOnce } from "../src/index/read_body.ts";

/**
 * Formats a byte count for people.
 *
 * @param bytes The count.
 * @returns e.g. "12.3 MB".
 */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * Opens the index for a one-shot query (search, show, stats, …), or says
 * there is none yet. The command reads a few bodies and exits: they are
 * inflated without loading `node:zlib` (`readBodiesOnce`).
 *
 * @param io The io.
 * @returns The open index, or undefined when no index exists.
 */
export function openIndexForQuery(io: Io): Database | undefined {
  readBodiesOnce();
  const path = indexPath(io.env);
  try {
    Deno.statSync(path);
  } catch {
    return undefined;
  }
  return openIndex(path, { readOnly: true });
}
