/**
 * What to say when a query met a corrupt page: which of deja's own files is
 * damaged (the index or the memory file) and how to get a sound one back.
 *
 * @module
 */
import { databaseIsDamaged, isDamagedDatabase } from "./_sqlite.ts";
import { messageOf } from "./errors.ts";

/** deja's own database files, as the process in question names them. */
export interface OwnFiles {
  /** The transcript index (a cache). */
  index: string;
  /** The memory file (primary data). */
  memory: string;
}

/**
 * The message for an SQLite corruption error, naming the damaged file and
 * the way out, with its code; undefined when the error is another kind or
 * neither file fails SQLite's integrity check.
 *
 * @param err What was thrown.
 * @param files The index and memory file paths.
 * @returns The error's text, or undefined.
 * @example
 * ```ts
 * import { damagedFileMessage } from "./damaged_file.ts";
 * import { equal } from "node:assert/strict";
 * equal(damagedFileMessage(new Error("disk full"), { index: "/x", memory: "/y" }), undefined);
 * ```
 */
export function damagedFileMessage(
  err: unknown,
  files: OwnFiles,
): string | undefined {
  if (!isDamagedDatabase(err)) return undefined;
  if (databaseIsDamaged(files.index)) {
    return `The index "${files.index}" is damaged (${
      messageOf(err)
    }). It is a cache: delete it and run deja index to rebuild it from the transcripts [IDX-E001]`;
  }
  if (databaseIsDamaged(files.memory)) {
    return `The memory file "${files.memory}" is damaged (${
      messageOf(err)
    }). It is primary data deja never rebuilds: restore it from a backup, or save what is left with sqlite3 "${files.memory}" .recover [MEM-E001]`;
  }
  return undefined;
}
