/**
 * Small shared pieces for turning an agent's tool calls into work records:
 * `edit` bodies, removed lines from patches and before/after pairs, and exit
 * codes written into tool output. Tolerant JSON access is in `_json.ts`.
 *
 * @module
 */

import { cutAtWordEdge } from "../core/text.ts";

/** Removed text of an `edit` record is cut here (the path is what is searched). */
const MAX_EDIT_CHARS = 32 * 1024;

/**
 * The body of an `edit` record: `path\n<removed text>`, the removed text cut
 * at 32 KiB.
 *
 * @param path The edited file.
 * @param removed The text the edit removed or replaced.
 * @returns The record text, and whether the removed text was cut.
 * @example
 * ```ts
 * import { editBody } from "./_work_records.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(editBody("a.ts", "old"), { text: "a.ts\nold", truncated: false });
 * ```
 */
export function editBody(
  path: string,
  removed: string,
): { text: string; truncated: boolean } {
  const cut = removed.length > MAX_EDIT_CHARS;
  return {
    text: `${path}\n${cut ? cutAtWordEdge(removed, MAX_EDIT_CHARS) : removed}`,
    truncated: cut,
  };
}

/**
 * The lines a unified diff removes (`-` lines, not the `---` header).
 *
 * @param patch Unified diff text.
 * @returns The removed lines joined with newlines ("" for none).
 */
export function removedFromUnifiedDiff(patch: string): string {
  const out: string[] = [];
  for (const line of patch.split("\n")) {
    if (line.startsWith("-") && !line.startsWith("---")) {
      out.push(line.slice(1));
    }
  }
  return out.join("\n");
}

/** One file an `apply_patch` envelope touches, with the lines it removes. */
export interface PatchFile {
  /** The file path as written in the patch. */
  path: string;
  /** Removed lines joined with newlines. */
  removed: string;
}

/**
 * Reads the `*** Begin Patch` envelope Codex-style tools write: the files
 * it adds, updates or deletes, and the `-` lines of each update.
 *
 * @param patch The patch text.
 * @returns One entry per file, in order.
 */
export function filesOfApplyPatch(patch: string): PatchFile[] {
  const files: PatchFile[] = [];
  let current: { path: string; removed: string[] } | undefined;
  const flush = () => {
    if (current) {
      files.push({ path: current.path, removed: current.removed.join("\n") });
    }
    current = undefined;
  };
  for (const line of patch.split("\n")) {
    const header = /^\*\*\* (Add|Update|Delete) File: (.+)$/.exec(line);
    if (header) {
      flush();
      current = { path: (header[2] as string).trim(), removed: [] };
      continue;
    }
    if (!current) continue;
    if (line.startsWith("*** ")) continue;
    if (line.startsWith("-")) current.removed.push(line.slice(1));
  }
  flush();
  return files;
}

/**
 * The lines of `before` that `after` no longer has, counting repeats, in
 * their original order. Cheap (no alignment), which is enough to make the
 * removed text searchable.
 *
 * @param before The old content.
 * @param after The new content.
 * @returns Removed lines joined with newlines.
 */
export function removedLines(before: string, after: string): string {
  const remaining = new Map<string, number>();
  for (const line of after.split("\n")) {
    remaining.set(line, (remaining.get(line) ?? 0) + 1);
  }
  const out: string[] = [];
  for (const line of before.split("\n")) {
    const n = remaining.get(line) ?? 0;
    if (n > 0) remaining.set(line, n - 1);
    else out.push(line);
  }
  return out.join("\n");
}

/**
 * An exit code written into a command's output (`Exit code 2`, `exit code:
 * 1`, `failed with exit code 127`), taking the last mention.
 *
 * @param output The tool output.
 * @returns The code, or undefined when none is written.
 */
export function exitCodeIn(output: string): number | undefined {
  let code: number | undefined;
  for (const m of output.matchAll(/exit (?:code|status)[:\s]+(-?\d+)/gi)) {
    code = Number(m[1]);
  }
  return code;
}
