/**
 * Where deja keeps its two stores, from the environment.
 *
 * @module
 */

// node:path and node:url cost ~15 ms each to load, on every start of every
// hook and query; these few POSIX-style helpers are all the start-up path needs.

/**
 * Joins path segments with "/".
 *
 * @param parts Segments.
 * @returns The joined path without doubled slashes.
 * @example
 * ```ts
 * import { join } from "./paths.ts";
 * import { equal } from "node:assert/strict";
 * equal(join("/a/", "b", "c.db"), "/a/b/c.db");
 * ```
 */
export function join(...parts: string[]): string {
  return parts.join("/").replace(/\/{2,}/g, "/");
}

/**
 * The directory part of a path.
 *
 * @param path A file path ("/" or "\\" separated).
 * @returns Everything before the last separator ("." when there is none).
 * @example
 * ```ts
 * import { dirname } from "./paths.ts";
 * import { equal } from "node:assert/strict";
 * equal(dirname("/a/b/c.db"), "/a/b");
 * ```
 */
export function dirname(path: string): string {
  const trimmed = path.replace(/[\\/]+$/, "");
  const at = Math.max(trimmed.lastIndexOf("/"), trimmed.lastIndexOf("\\"));
  if (at < 0) return ".";
  return at === 0 ? trimmed[0] as string : trimmed.slice(0, at);
}

/**
 * The last segment of a path.
 *
 * @param path A file path.
 * @returns The name after the last separator.
 * @example
 * ```ts
 * import { basename } from "./paths.ts";
 * import { equal } from "node:assert/strict";
 * equal(basename("/a/b/c.db"), "c.db");
 * ```
 */
export function basename(path: string): string {
  const trimmed = path.replace(/[\\/]+$/, "");
  return trimmed.slice(
    Math.max(trimmed.lastIndexOf("/"), trimmed.lastIndexOf("\\")) + 1,
  );
}

/**
 * The file path of a `file:` URL.
 *
 * @param url A file URL (string or URL).
 * @returns The decoded path.
 * @example
 * ```ts
 * import { fromFileUrl } from "./paths.ts";
 * import { equal } from "node:assert/strict";
 * equal(fromFileUrl("file:///a/b%20c.ts"), "/a/b c.ts");
 * ```
 */
export function fromFileUrl(url: string | URL): string {
  const u = typeof url === "string" ? new URL(url) : url;
  const path = decodeURIComponent(u.pathname);
  return /^\/[A-Za-z]:/.test(path) ? path.slice(1) : path;
}

/**
 * The local path a `file://` URI names, or undefined for anything else (no
 * such URI, another scheme, a malformed one). A Windows drive path loses the
 * slash before its letter.
 *
 * @param uri The text that may be a file URI.
 * @returns The decoded path, or undefined.
 * @example
 * ```ts
 * import { pathOfFileUri } from "./paths.ts";
 * import { equal } from "node:assert/strict";
 * equal(pathOfFileUri("file:///C:/src/a%20b.ts"), "C:/src/a b.ts");
 * equal(pathOfFileUri("https://example.com/a"), undefined);
 * ```
 */
export function pathOfFileUri(uri: string | undefined): string | undefined {
  if (!uri?.startsWith("file:")) return undefined;
  try {
    return fromFileUrl(uri) || undefined;
  } catch {
    return undefined;
  }
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

/** An XDG base directory variable deja reads. */
export type XdgBase = "XDG_CACHE_HOME" | "XDG_DATA_HOME" | "XDG_CONFIG_HOME";

/**
 * An XDG base directory: the variable when it holds an absolute path, else
 * `fallback` (the XDG spec makes a relative one invalid, to be ignored: it
 * would name a different folder in every working directory).
 *
 * @param env The environment.
 * @param name The variable.
 * @param fallback The default folder.
 * @returns A folder.
 * @example
 * ```ts
 * import { xdgBase } from "./paths.ts";
 * import { equal } from "node:assert/strict";
 * equal(xdgBase({ XDG_DATA_HOME: "/x" }, "XDG_DATA_HOME", "/h/.local/share"), "/x");
 * equal(xdgBase({ XDG_DATA_HOME: "rel" }, "XDG_DATA_HOME", "/h/.local/share"), "/h/.local/share");
 * ```
 */
export function xdgBase(env: Env, name: XdgBase, fallback: string): string {
  const value = env[name];
  return value && /^(?:\/|[A-Za-z]:[\\/]|\\\\)/.test(value) ? value : fallback;
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
  const cache = xdgBase(env, "XDG_CACHE_HOME", join(homeDir(env), ".cache"));
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
  const data = xdgBase(
    env,
    "XDG_DATA_HOME",
    join(homeDir(env), ".local", "share"),
  );
  return join(data, "deja", "memory.db");
}
