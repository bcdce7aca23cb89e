/**
 * Where deja keeps its two stores, from the environment.
 *
 * @module
 */

/** Joins path segments with "/" (node:path costs ~15 ms to load; this sits on every start). */
function join(...parts: string[]): string {
  return parts.join("/").replace(/\/{2,}/g, "/");
}

/** Environment variables as a plain record. */
export type Env = Record<string, string | undefined>;

/**
 * The user's home directory.
 *
 * @param env The environment.
 * @returns HOME (or USERPROFILE on Windows), else "/".
 * @example
 * ```ts
 * import { homeDir } from "./paths.ts";
 * import { equal } from "node:assert/strict";
 * equal(homeDir({ HOME: "/h" }), "/h");
 * ```
 */
export function homeDir(env: Env): string {
  return env.HOME ?? env.USERPROFILE ?? "/";
}

/**
 * The transcript index path: `DEJA_INDEX`, else
 * `$XDG_CACHE_HOME/deja/index.db`, else `~/.cache/deja/index.db`.
 *
 * @param env The environment.
 * @returns An absolute path.
 * @example
 * ```ts
 * import { indexPath } from "./paths.ts";
 * import { equal } from "node:assert/strict";
 * equal(indexPath({ HOME: "/h" }), "/h/.cache/deja/index.db");
 * ```
 */
export function indexPath(env: Env): string {
  if (env.DEJA_INDEX) return env.DEJA_INDEX;
  const cache = env.XDG_CACHE_HOME || join(homeDir(env), ".cache");
  return join(cache, "deja", "index.db");
}

/**
 * The memory file path: `DEJA_DB`, else `$XDG_DATA_HOME/deja/memory.db`,
 * else `~/.local/share/deja/memory.db`.
 *
 * @param env The environment.
 * @returns An absolute path.
 * @example
 * ```ts
 * import { memoryPath } from "./paths.ts";
 * import { equal } from "node:assert/strict";
 * equal(memoryPath({ HOME: "/h" }), "/h/.local/share/deja/memory.db");
 * ```
 */
export function memoryPath(env: Env): string {
  if (env.DEJA_DB) return env.DEJA_DB;
  const data = env.XDG_DATA_HOME || join(homeDir(env), ".local", "share");
  return join(data, "deja", "memory.db");
}
