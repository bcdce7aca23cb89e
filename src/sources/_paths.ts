/**
 * Splitting the paths harness stores hold, and checking that one names a
 * file. Stored paths may come from any OS, so `/` and `\` both separate,
 * whatever OS deja runs on.
 *
 * @module
 */

/**
 * The non-empty segments of a POSIX or Windows path.
 *
 * @param path A path.
 * @returns Its segments, separators and empty parts dropped.
 * @example
 * ```ts
 * import { segments } from "./_paths.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(segments("C:\\a//b/"), ["C:", "a", "b"]);
 * ```
 */
export function segments(path: string): string[] {
  return path.split(/[\\/]+/).filter((s) => s.length > 0);
}

/**
 * The last segment of a POSIX or Windows path.
 *
 * @param path A path.
 * @returns The last non-empty segment ("" for none).
 * @example
 * ```ts
 * import { baseName } from "./_paths.ts";
 * import { equal } from "node:assert/strict";
 * equal(baseName("/a/b.json/"), "b.json");
 * ```
 */
export function baseName(path: string): string {
  // Searched rather than split: discovery asks this of every file it walks.
  let end = path.length;
  while (end > 0 && isSeparator(path[end - 1])) end--;
  const start = Math.max(
    path.lastIndexOf("/", end - 1),
    path.lastIndexOf("\\", end - 1),
  ) + 1;
  return path.slice(start, end);
}

function isSeparator(char: string | undefined): boolean {
  return char === "/" || char === "\\";
}

/**
 * The folder part of a path, as `dirname` answers it: "/" for a file at the
 * root, "." when there is no folder part.
 *
 * @param path A path.
 * @returns Everything before the last separator.
 * @example
 * ```ts
 * import { dirName } from "./_paths.ts";
 * import { equal } from "node:assert/strict";
 * equal(dirName("/a/b"), "/a");
 * equal(dirName("/b"), "/");
 * ```
 */
export function dirName(path: string): string {
  const i = lastSeparator(path);
  return i <= 0 ? (i === 0 ? "/" : ".") : path.slice(0, i);
}

/**
 * The folder part of a path, or "." when it has none worth naming (no
 * separator, or only the root one). Parsers use it where a folder stands for
 * a project or a session and the root stands for neither.
 *
 * @param path A path.
 * @returns Everything before the last separator, else ".".
 * @example
 * ```ts
 * import { dirOf } from "./_paths.ts";
 * import { equal } from "node:assert/strict";
 * equal(dirOf("/a/b"), "/a");
 * equal(dirOf("/b"), ".");
 * ```
 */
export function dirOf(path: string): string {
  const i = lastSeparator(path);
  return i > 0 ? path.slice(0, i) : ".";
}

function lastSeparator(path: string): number {
  return Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
}

/**
 * Whether a path is a regular file (following links); a missing or
 * unreadable path is not.
 *
 * @param path A path.
 * @returns True for a regular file.
 * @example
 * ```ts
 * import { isRegularFile } from "./_paths.ts";
 * import { equal } from "node:assert/strict";
 * equal(await isRegularFile(await Deno.makeTempDir()), false);
 * ```
 */
export async function isRegularFile(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch {
    return false;
  }
}

/**
 * The synchronous twin of {@linkcode isRegularFile}, for discovery loops that
 * check many paths: whether a path is a regular file (following links).
 *
 * @param path A path.
 * @returns True for a regular file; false when missing or unreadable.
 * @example
 * ```ts
 * import { isRegularFileSync } from "./_paths.ts";
 * import { equal } from "node:assert/strict";
 * const dir = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${dir}/a`, "");
 * equal(isRegularFileSync(`${dir}/a`), true);
 * equal(isRegularFileSync(dir), false);
 * ```
 */
export function isRegularFileSync(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/**
 * The names of the folders directly inside a folder, sorted, for roots that
 * fan out over profiles or variants. Links to folders are not followed.
 *
 * @param dir A folder.
 * @returns Child folder names in sorted order; none when `dir` cannot be read.
 * @example
 * ```ts
 * import { childDirs } from "./_paths.ts";
 * import { deepEqual } from "node:assert/strict";
 * const dir = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${dir}/b`);
 * Deno.mkdirSync(`${dir}/a`);
 * Deno.writeTextFileSync(`${dir}/c`, "");
 * deepEqual(childDirs(dir), ["a", "b"]);
 * deepEqual(childDirs(`${dir}/missing`), []);
 * ```
 */
export function childDirs(dir: string): string[] {
  try {
    return [...Deno.readDirSync(dir)]
      .filter((e) => e.isDirectory)
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}
