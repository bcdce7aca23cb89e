/**
 * What several subcommands derive from the environment: the harnesses to
 * read, the source environment, and the switches that shape indexing.
 *
 * @module
 */
import type { Harness, SourceEnv } from "../src/core/harness.ts";
import type { Io } from "../src/core/io.ts";
import { homeDir, indexPath } from "../src/core/paths.ts";
import type { Database } from "../src/core/_sqlite.ts";
import { openIndex } from "../src/index/mod.ts";
import { HARNESSES } from "../src/sources/registry.ts";

/**
 * The source environment for the current process.
 *
 * @param io The io.
 * @returns HOME, env and OS.
 */
export function sourceEnv(io: Io): SourceEnv {
  return { home: homeDir(io.env), env: io.env, os: Deno.build.os };
}

/**
 * The harnesses to read: the registry minus `DEJA_EXCLUDE_HARNESSES`,
 * optionally narrowed to `only`.
 *
 * @param io The io.
 * @param only Harness ids to keep (empty keeps all).
 * @returns The harnesses.
 */
export function selectedHarnesses(
  io: Io,
  only: readonly string[] = [],
): Harness[] {
  const excluded = new Set(
    (io.env.DEJA_EXCLUDE_HARNESSES ?? "").split(",").map((s) => s.trim())
      .filter(Boolean),
  );
  return HARNESSES.filter((h) =>
    !excluded.has(h.id) && (only.length === 0 || only.includes(h.id))
  );
}

/**
 * Whether sub-agent transcripts are read (`DEJA_INCLUDE_SUBAGENTS`, default 1).
 *
 * @param io The io.
 * @returns False only for "0".
 */
export function includeSubagents(io: Io): boolean {
  return io.env.DEJA_INCLUDE_SUBAGENTS !== "0";
}

/**
 * Formats a byte count for people.
 *
 * @param bytes The count.
 * @returns e.g. "12.3 MB".
 */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * Opens the index for a query, or says there is none yet.
 *
 * @param io The io.
 * @returns The open index, or undefined when no index exists.
 */
export function openIndexForQuery(io: Io): Database | undefined {
  const path = indexPath(io.env);
  try {
    Deno.statSync(path);
  } catch {
    return undefined;
  }
  return openIndex(path, { readOnly: true });
}
