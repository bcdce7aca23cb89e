/**
 * The folders under HOME where people usually keep their checkouts. Harnesses
 * that write per-project stores (Crush's `.crush/crush.db`, aider's
 * `.aider.chat.history.md`) look for them in these folders.
 *
 * @module
 */
import { join } from "node:path";
import type { SourceEnv } from "../core/harness.ts";

/**
 * Folder names under HOME that commonly hold projects, matched without
 * regard to case (`~/Projects`, `~/Code`, `~/Dev`). Besides the usual
 * names: `workspace` (Eclipse's default and a common habit), `Developer`
 * (macOS), `source` (Visual Studio's `source/repos`), the folders IDEs
 * create (`IdeaProjects`, `PycharmProjects`, …, `AndroidStudioProjects`)
 * and `GitHub`; `Documents` (GitHub Desktop's `Documents/GitHub`) comes last
 * because it is the largest and the least likely.
 */
export const PROJECT_FOLDERS: readonly string[] = [
  "code",
  "src",
  "projects",
  "work",
  "dev",
  "repos",
  "git",
  "workspace",
  "workspaces",
  "Developer",
  "source",
  "repositories",
  "GitHub",
  "IdeaProjects",
  "PycharmProjects",
  "WebstormProjects",
  "GolandProjects",
  "AndroidStudioProjects",
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
 * Lists candidate project directories: each folder of HOME named as one of
 * {@linkcode PROJECT_FOLDERS} (in any case, each folder once: on a
 * case-insensitive disk `projects` and `Projects` are one folder), and the
 * directories below it up to `maxDepth` levels (default 3), in sorted order.
 * The whole walk reads at most `maxDirs` directories. Hidden directories
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
  for (const root of projectRoots(source.home)) {
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

/**
 * The folders of HOME that {@linkcode PROJECT_FOLDERS} names, whatever their
 * case, in that list's order (names differing only in case sorted), read
 * from one listing of HOME so each folder is named as it is on disk and
 * comes once. Symlinks are not followed.
 */
function projectRoots(home: string): string[] {
  const byName = new Map<string, string[]>();
  try {
    for (const entry of Deno.readDirSync(home)) {
      if (!entry.isDirectory) continue;
      const key = entry.name.toLowerCase();
      const names = byName.get(key);
      if (names) names.push(entry.name);
      else byName.set(key, [entry.name]);
    }
  } catch {
    return [];
  }
  const roots: string[] = [];
  for (const folder of PROJECT_FOLDERS) {
    const names = byName.get(folder.toLowerCase()) ?? [];
    for (const name of names.sort()) roots.push(join(home, name));
  }
  return roots;
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
