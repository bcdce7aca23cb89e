/**
 * The CLI's side of naming a damaged file: where the index and the memory
 * file of this command are.
 *
 * @module
 */
import { isAbsolute, resolve } from "node:path";
import { damagedFileError } from "../src/core/damaged_file.ts";
import type { DejaError } from "../src/core/errors.ts";
import type { Io } from "../src/core/io.ts";
import { indexPath, memoryPath } from "../src/core/paths.ts";
import { type ParsedArgs, stringFlag } from "./_command.ts";

/**
 * The error to report for an SQLite corruption error a command met,
 * naming the damaged file (the index, or the memory file `--db` or the
 * environment names) and the way out; undefined for any other error.
 *
 * @param err What the command threw.
 * @param args The command's parsed arguments (for `--db`), when parsed.
 * @param io The io (environment and working directory).
 * @returns The error to report, or undefined.
 */
export function commandDamagedFile(
  err: unknown,
  args: ParsedArgs | undefined,
  io: Io,
): DejaError | undefined {
  const given = (args && stringFlag(args, "db")) ?? memoryPath(io.env);
  return damagedFileError(err, {
    index: indexPath(io.env),
    memory: isAbsolute(given) ? given : resolve(io.cwd, given),
  });
}
