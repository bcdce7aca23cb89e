/**
 * The folders under HOME where people usually keep their checkouts. Harnesses
 * that write per-project stores (Crush's `.crush/crush.db`, aider's
 * `.aider.chat.history.md`) look for them in these folders.
 *
 * @module
 */
import { join } from "node:path";
import type { SourceEnv } from "../core/harness.ts";

/** Folder names under HOME that commonly hold projects. */
export const PROJECT_FOLDERS: readonly string[] = [
  "code",
  "src",
  "projects",
  "work",
  "dev",
  "repos",
  "git",
  "Documents",
];

/** Directory names never worth descending into when looking for projects. */
const SKIP_DIRS: ReadonlySet<string> = new Set([
  "node_modules",
  "vendor",
  "target",
  "venv",
  "__pycache__",
  "site-packages",
]);

/** Options for {@linkcode projectDirs}. */
export interface ProjectDirsOptions {
  /** Levels below each project folder to yield (the folder itself is 0). */
  maxDepth?: number;
  /** Stop after this many directories, so a huge Documents stays cheap. */
  maxDirs?: number;
}

/**
 * Lists candidate project directories: each existing folder of
 * {@linkcode PROJECT_FOLDERS} under `source.home`, and the directories below
 * it up to `maxDepth` levels (default 3), in sorted order. Hidden directories
 * (`.git`, `.crush`, ...) and build/dependency folders are not descended into
 * nor yielded; symlinked directories are not followed; unreadable directories
 * are skipped silently.
 *
 * @param source The environment (only `home` is used).
 * @param options Depth and size limits.
 * @returns Absolute directory paths; callers probe each for their own store.
 * @example
 * ```ts
 * import { projectDirs } from "./_project_dirs.ts";
 * import { deepEqual } from "node:assert/strict";
 * const home = await Deno.makeTempDir();
 * await Deno.mkdir(`${home}/code/app/.crush`, { recursive: true });
 * const dirs = projectDirs({ home, env: {}, os: "linux" });
 * deepEqual(dirs, [`${home}/code`, `${home}/code/app`]);
 * ```
 */
export function projectDirs(
  source: SourceEnv,
  options: ProjectDirsOptions = {},
): string[] {
  const found: string[] = [];
  const maxDepth = options.maxDepth ?? 3;
  let budget = options.maxDirs ?? 20_000;
  for (const folder of PROJECT_FOLDERS) {
    const root = join(source.home, folder);
    if (!isRealDir(root)) continue;
    // Depth-first, children visited in sorted order.
    const stack: Array<[string, number]> = [[root, 0]];
    while (stack.length > 0 && budget > 0) {
      const [dir, depth] = stack.pop() as [string, number];
      budget--;
      found.push(dir);
      if (depth >= maxDepth) continue;
      const children = childDirs(dir);
      for (let i = children.length - 1; i >= 0; i--) {
        stack.push([join(dir, children[i] as string), depth + 1]);
      }
    }
  }
  return found;
}

/** Whether `path` is a directory reached without following a symlink. */
function isRealDir(path: string): boolean {
  try {
    return Deno.lstatSync(path).isDirectory;
  } catch {
    return false;
  }
}

/** Sorted names of the descendable sub-directories of `dir`. */
function childDirs(dir: string): string[] {
  const names: string[] = [];
  try {
    for (const entry of Deno.readDirSync(dir)) {
      if (!entry.isDirectory) continue;
      if (entry.name.startsWith(".") || SKIP_DIRS.has(entry.name)) continue;
      names.push(entry.name);
    }
  } catch {
    return [];
  }
  return names.sort();
}
