/**
 * What to say when a query met a corrupt page: which of deja's own files is
 * damaged (the index or the memory file) and how to get a sound one back.
 *
 * @module
 */
import { databaseIsDamaged, isDamagedDatabase } from "./_sqlite.ts";
import { DejaError, messageOf } from "./errors.ts";

/** deja's own database files, as the process in question names them. */
export interface OwnFiles {
  /** The transcript index (a cache). */
  index: string;
  /** The memory file (primary data). */
  memory: string;
}

/**
 * The error to report for an SQLite corruption error: IDX-E001 or MEM-E001,
 * naming the damaged file and the way out; undefined when the error is
 * another kind or neither file fails SQLite's integrity check.
 *
 * @param err What was thrown.
 * @param files The index and memory file paths.
 * @returns The error to report, or undefined.
 * @example
 * ```ts
 * import { damagedFileError } from "./damaged_file.ts";
 * import { equal } from "node:assert/strict";
 * equal(damagedFileError(new Error("disk full"), { index: "/x", memory: "/y" }), undefined);
 * ```
 */
export function damagedFileError(
  err: unknown,
  files: OwnFiles,
): DejaError | undefined {
  if (!isDamagedDatabase(err)) return undefined;
  if (databaseIsDamaged(files.index)) {
    return new DejaError(
      "IDX-E001",
      `The index "${files.index}" is damaged (${
        messageOf(err)
      }). It is a cache: delete it and run deja index to rebuild it from the transcripts`,
      { cause: err },
    );
  }
  if (databaseIsDamaged(files.memory)) {
    return new DejaError(
      "MEM-E001",
      `The memory file "${files.memory}" is damaged (${
        messageOf(err)
      }). It is primary data deja never rebuilds: restore it from a backup, or save what is left with sqlite3 "${files.memory}" .recover`,
      { cause: err },
    );
  }
  return undefined;
}
