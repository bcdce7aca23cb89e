/**
 * What to say when a query met a corrupt page: which of deja's own files is
 * damaged (the index or the memory file) and how to get a sound one back.
 *
 * @module
 */
import { isAbsolute, resolve } from "node:path";
import { databaseIsDamaged, isDamagedDatabase } from "../src/core/_sqlite.ts";
import { messageOf } from "../src/core/errors.ts";
import type { Io } from "../src/core/io.ts";
import { indexPath, memoryPath } from "../src/core/paths.ts";
import { type ParsedArgs, stringFlag } from "./_command.ts";

/**
 * The message for an SQLite corruption error, naming the damaged file and
 * the way out, with its code; undefined when the error is another kind or
 * neither file fails SQLite's integrity check.
 *
 * @param err What the command threw.
 * @param args The command's parsed arguments (for `--db`), when parsed.
 * @param io The io (environment and working directory).
 * @returns The error line's text, or undefined.
 */
export function damagedFileMessage(
  err: unknown,
  args: ParsedArgs | undefined,
  io: Io,
): string | undefined {
  if (!isDamagedDatabase(err)) return undefined;
  const index = indexPath(io.env);
  if (databaseIsDamaged(index)) {
    return `The index "${index}" is damaged (${
      messageOf(err)
    }). It is a cache: delete it and run deja index to rebuild it from the transcripts [IDX-E001]`;
  }
  const flag = args ? stringFlag(args, "db") : undefined;
  const given = flag ?? memoryPath(io.env);
  const memory = isAbsolute(given) ? given : resolve(io.cwd, given);
  if (databaseIsDamaged(memory)) {
    return `The memory file "${memory}" is damaged (${
      messageOf(err)
    }). It is primary data deja never rebuilds: restore it from a backup, or save what is left with sqlite3 "${memory}" .recover [MEM-E001]`;
  }
  return undefined;
}
