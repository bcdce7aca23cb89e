/**
 * Helpers the harness parser tests share: the real-sample folder beside the
 * repo (read when present, skipped when not), temp files laid out the way a
 * harness expects, JSONL text, a session's roles at a glance, and the options
 * that resume a parse where an earlier one stopped.
 *
 * @module
 */
import { dirname, join } from "node:path";
import type { ParseResult } from "../core/harness.ts";
import type { Session } from "../core/types.ts";

/**
 * The shared real-sample folder, when it exists: `$DEJA_SAMPLES` when set (a
 * worktree or a clone elsewhere), else `shared/samples` beside the repo.
 */
export const SAMPLES: string = Deno.env.get("DEJA_SAMPLES") ??
  new URL("../../../shared/samples", import.meta.url).pathname;

/**
 * The real-sample folder of one harness (existing or not).
 *
 * @param harness The folder under the samples, e.g. `claude-code`.
 * @returns `SAMPLES/<harness>`.
 * @example
 * ```ts
 * import { SAMPLES, sampleDir } from "./_test_kit.ts";
 * import { equal } from "node:assert/strict";
 * equal(sampleDir("pi"), `${SAMPLES}/pi`);
 * ```
 */
export function sampleDir(harness: string): string {
  return join(SAMPLES, harness);
}

/**
 * Whether the real samples of one harness exist, so a test can skip cleanly
 * (`ignore: !hasSamples("codex")`) where they are absent.
 *
 * @param harness The folder under the samples, e.g. `claude-code`.
 * @returns True when `SAMPLES/<harness>` is a folder.
 * @example
 * ```ts
 * import { hasSamples } from "./_test_kit.ts";
 * import { equal } from "node:assert/strict";
 * equal(hasSamples("no-such-harness"), false);
 * ```
 */
export function hasSamples(harness: string): boolean {
  try {
    return Deno.statSync(sampleDir(harness)).isDirectory;
  } catch {
    return false;
  }
}

/**
 * Writes a file at `relPath` under a fresh temp folder, creating the folders
 * between, so a parser sees the layout it reads identity from.
 *
 * @param relPath Where under the temp folder, e.g. `threads/T-1.json`.
 * @param content Text, or bytes for non-UTF-8 input.
 * @returns The file's absolute path.
 * @example
 * ```ts
 * import { tempFileAt } from "./_test_kit.ts";
 * import { equal } from "node:assert/strict";
 * const path = await tempFileAt("a/b.txt", "x");
 * equal(await Deno.readTextFile(path), "x");
 * ```
 */
export async function tempFileAt(
  relPath: string,
  content: string | Uint8Array,
): Promise<string> {
  const path = join(await Deno.makeTempDir(), relPath);
  await Deno.mkdir(dirname(path), { recursive: true });
  if (typeof content === "string") await Deno.writeTextFile(path, content);
  else await Deno.writeFile(path, content);
  return path;
}

/**
 * JSONL text: one JSON value a line, newline-terminated.
 *
 * @param values The lines' values.
 * @returns The text.
 * @example
 * ```ts
 * import { jsonLines } from "./_test_kit.ts";
 * import { equal } from "node:assert/strict";
 * equal(jsonLines([{ a: 1 }, 2]), '{"a":1}\n2\n');
 * ```
 */
export function jsonLines(values: readonly unknown[]): string {
  return values.map((v) => JSON.stringify(v)).join("\n") + "\n";
}

/**
 * A session's record roles in order, comma-joined, for one-line asserts.
 *
 * @param session A session (or none, which reads as "").
 * @returns e.g. `user,assistant,command`.
 * @example
 * ```ts
 * import { roles } from "./_test_kit.ts";
 * import { equal } from "node:assert/strict";
 * equal(roles(undefined), "");
 * ```
 */
export function roles(session: Session | undefined): string {
  return (session?.records ?? []).map((r) => r.role).join(",");
}

/** The options {@linkcode resumeOptions} answers. */
export interface ResumeOptions {
  /** The earlier parse's safe offset. */
  offset: number;
  /** The line number at that offset. */
  firstLine: number;
  /** The earlier parse's state, after a trip through JSON. */
  state: unknown;
}

/**
 * The parse options that resume where an earlier parse stopped, its state
 * sent through JSON as the index stores it (so a parser that kept a `Map` or
 * `undefined` in its state is caught).
 *
 * @param first The earlier parse's result.
 * @returns `offset`, `firstLine` and `state` for the next parse.
 * @example
 * ```ts
 * import { resumeOptions } from "./_test_kit.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(
 *   resumeOptions({ sessions: [], skipped: 0, safeOffset: 9, safeLine: 2, state: { a: undefined } }),
 *   { offset: 9, firstLine: 2, state: {} },
 * );
 * ```
 */
export function resumeOptions(first: ParseResult): ResumeOptions {
  return {
    offset: first.safeOffset as number,
    firstLine: first.safeLine as number,
    state: JSON.parse(JSON.stringify(first.state)),
  };
}
