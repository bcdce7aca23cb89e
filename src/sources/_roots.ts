/**
 * Where harness stores live and how their files are found: the per-OS base
 * folders desktop apps keep their data under (built with `node:path`
 * `join`), the path-list variables that name roots instead, and the walk
 * over a harness's roots. Each harness adds its own env overrides and folder
 * names on top.
 *
 * @module
 */
import { basename, dirname, join } from "node:path";
import type { SourceEnv, WalkFilesOptions } from "../core/harness.ts";
import { walkFiles } from "../core/harness.ts";

/**
 * The XDG data folder: `$XDG_DATA_HOME`, else `~/.local/share`.
 *
 * @param source The environment.
 * @returns An absolute folder path (existing or not).
 * @example
 * ```ts
 * import { xdgDataHome } from "./_roots.ts";
 * import { equal } from "node:assert/strict";
 * equal(xdgDataHome({ home: "/h", env: {}, os: "linux" }), "/h/.local/share");
 * ```
 */
export function xdgDataHome(source: SourceEnv): string {
  return source.env.XDG_DATA_HOME || join(source.home, ".local", "share");
}

/**
 * The Windows roaming app-data folder: `%APPDATA%`, else
 * `<%USERPROFILE% or home>/AppData/Roaming`.
 *
 * @param source The environment.
 * @returns An absolute folder path (existing or not).
 * @example
 * ```ts
 * import { roamingAppData } from "./_roots.ts";
 * import { equal } from "node:assert/strict";
 * equal(
 *   roamingAppData({ home: "/h", env: {}, os: "windows" }),
 *   "/h/AppData/Roaming",
 * );
 * ```
 */
export function roamingAppData(source: SourceEnv): string {
  const env = source.env;
  return env.APPDATA ||
    join(env.USERPROFILE || source.home, "AppData", "Roaming");
}

/**
 * The Windows local app-data folder: `%LOCALAPPDATA%`, else
 * `<%USERPROFILE% or home>/AppData/Local`.
 *
 * @param source The environment.
 * @returns An absolute folder path (existing or not).
 * @example
 * ```ts
 * import { localAppData } from "./_roots.ts";
 * import { equal } from "node:assert/strict";
 * equal(
 *   localAppData({ home: "/h", env: { LOCALAPPDATA: "/l" }, os: "windows" }),
 *   "/l",
 * );
 * ```
 */
export function localAppData(source: SourceEnv): string {
  const env = source.env;
  return env.LOCALAPPDATA ||
    join(env.USERPROFILE || source.home, "AppData", "Local");
}

/**
 * The macOS app-support folder: `~/Library/Application Support`.
 *
 * @param source The environment.
 * @returns An absolute folder path (existing or not).
 * @example
 * ```ts
 * import { macAppSupport } from "./_roots.ts";
 * import { equal } from "node:assert/strict";
 * equal(
 *   macAppSupport({ home: "/h", env: {}, os: "darwin" }),
 *   "/h/Library/Application Support",
 * );
 * ```
 */
export function macAppSupport(source: SourceEnv): string {
  return join(source.home, "Library", "Application Support");
}

/**
 * Splits a path-list variable (`:` separated, `;` on Windows).
 *
 * @param value The variable's value.
 * @param source The environment (for the OS).
 * @returns Non-empty entries.
 * @example
 * ```ts
 * import { pathList } from "./_roots.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(pathList("/a::/b", { home: "/h", env: {}, os: "linux" }), ["/a", "/b"]);
 * ```
 */
export function pathList(
  value: string | undefined,
  source: SourceEnv,
): string[] {
  if (!value) return [];
  return value.split(source.os === "windows" ? ";" : ":")
    .map((p) => p.trim()).filter((p) => p.length > 0);
}

/**
 * The files under each of a harness's roots that `match`, root by root in
 * the order given (each root walked as `walkFiles` walks it).
 *
 * @param roots The folders to walk (missing ones yield nothing).
 * @param match Which files count.
 * @param options Depth and folders to skip, for every root.
 * @returns Absolute file paths.
 * @example
 * ```ts
 * import { walkRoots } from "./_roots.ts";
 * import { deepEqual } from "node:assert/strict";
 * const a = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${a}/s.jsonl`, "");
 * Deno.writeTextFileSync(`${a}/s.json`, "");
 * deepEqual(
 *   walkRoots([`${a}/missing`, a], (p) => p.endsWith(".jsonl"), { maxDepth: 0 }),
 *   [`${a}/s.jsonl`],
 * );
 * ```
 */
export function walkRoots(
  roots: readonly string[],
  match: (path: string) => boolean,
  options: WalkFilesOptions = {},
): string[] {
  return roots.flatMap((root) => walkFiles(root, match, options));
}

/**
 * The VS Code builds and forks whose `User` folder an extension's
 * globalStorage lives under, by their user-data folder name (the same name
 * on every OS): VS Code, its Insiders and OSS builds, VSCodium, and the forks
 * Cursor, Windsurf, Antigravity, Kiro, Trae (and its Chinese build), Void and
 * Positron.
 */
export const VSCODE_HOSTS: readonly string[] = [
  "Code",
  "Code - Insiders",
  "VSCodium",
  "Cursor",
  "Windsurf",
  "Code - OSS",
  "Antigravity",
  "Kiro",
  "Trae",
  "Trae CN",
  "Void",
  "Positron",
  "VSCodium - Insiders",
];

/** The remote-server data folders (SSH, WSL, dev containers) on Linux. */
const VSCODE_SERVER_DIRS: readonly string[] = [
  ".vscode-server",
  ".vscode-server-insiders",
  ".vscodium-server",
  ".cursor-server",
  ".windsurf-server",
];

/**
 * {@linkcode vscodeUserDirs} whose host folder exists (what discovery
 * walks).
 *
 * @param source The environment.
 * @returns The present ones, in the same order.
 */
export function presentVscodeUserDirs(source: SourceEnv): string[] {
  return vscodeUserDirs(source).filter(present);
}

/**
 * Whether a `<base>/<Host>/User` (or `~/<server>/data/User`) folder's host
 * folder exists, from one listing of its base per call site: a machine has
 * two or three of the dozen-odd hosts, and a walk of each missing one costs
 * a thrown error.
 */
function present(userDir: string): boolean {
  const host = dirname(userDir);
  const server = basename(host) === "data";
  const owner = server ? dirname(host) : host;
  const base = dirname(owner);
  let names = listings.get(base);
  if (!names) {
    names = new Set<string>();
    try {
      for (const e of Deno.readDirSync(base)) names.add(e.name);
    } catch {
      // A missing or unreadable base holds no host.
    }
    listings.set(base, names);
    // Listings are kept for one turn of the event loop: a later pass lists
    // again, so a host installed since is found.
    queueMicrotask(() => listings.delete(base));
  }
  return names.has(basename(owner));
}

/** Base folder listings, kept while one discovery runs. */
const listings = new Map<string, Set<string>>();

/**
 * The `User` folders of every VS Code host on this OS: `~/Library/Application
 * Support/<Host>/User` on macOS, `%APPDATA%/<Host>/User` on Windows, else
 * `${XDG_CONFIG_HOME:-~/.config}/<Host>/User` plus the remote-server folders.
 *
 * @param source The environment.
 * @returns Absolute folder paths (existing or not), in {@linkcode VSCODE_HOSTS} order.
 * @example
 * ```ts
 * import { vscodeUserDirs } from "./_roots.ts";
 * import { equal } from "node:assert/strict";
 * equal(vscodeUserDirs({ home: "/h", env: {}, os: "linux" })[0], "/h/.config/Code/User");
 * ```
 */
export function vscodeUserDirs(source: SourceEnv): string[] {
  const home = source.home;
  let base: string;
  if (source.os === "darwin") base = macAppSupport(source);
  else if (source.os === "windows") base = roamingAppData(source);
  else base = source.env.XDG_CONFIG_HOME || join(home, ".config");
  const dirs = VSCODE_HOSTS.map((host) => join(base, host, "User"));
  if (source.os !== "darwin" && source.os !== "windows") {
    for (const server of VSCODE_SERVER_DIRS) {
      dirs.push(join(home, server, "data", "User"));
    }
  }
  return dirs;
}
