/**
 * What the indexing commands derive from the environment: the harnesses to
 * read, the source environment, and the sub-agent switch. Kept apart from
 * `_context.ts` so query commands never load the parsers.
 *
 * @module
 */
import type { Harness, SourceEnv } from "../src/core/harness.ts";
import type { Io } from "../src/core/io.ts";
import { homeDir } from "../src/core/paths.ts";
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
  const excluded = new Set(excludedHarnessIds(io));
  return HARNESSES.filter((h) =>
    !excluded.has(h.id) && (only.length === 0 || only.includes(h.id))
  );
}

/**
 * The harness ids `DEJA_EXCLUDE_HARNESSES` names: not read, and what the
 * index holds of them is dropped.
 *
 * @param io The io.
 * @returns The ids.
 */
export function excludedHarnessIds(io: Io): string[] {
  return (io.env.DEJA_EXCLUDE_HARNESSES ?? "").split(",").map((s) => s.trim())
    .filter(Boolean);
}

/**
 * Warns on stderr, without failing, when `DEJA_EXCLUDE_HARNESSES` names an
 * id no harness has: a typo would otherwise read the harness the person
 * meant to leave out.
 *
 * @param io The io.
 * @param known The registered harness ids.
 */
export function warnUnknownExcluded(io: Io, known: readonly string[]): void {
  const unknown = excludedHarnessIds(io).filter((h) => !known.includes(h));
  if (!unknown.length) return;
  io.stderr.write(
    `warning: DEJA_EXCLUDE_HARNESSES names no harness called ${
      unknown.map((h) => `"${h}"`).join(", ")
    } (known: ${known.join(", ")})\n`,
  );
}

/**
 * Whether sub-agent transcripts are read (`DEJA_INCLUDE_SUBAGENTS`, default 1).
 * "0", "false", "no" and "off" turn them off; a value that is neither that
 * nor "1", "true", "yes" or "on" is warned about and keeps the default.
 *
 * @param io The io.
 * @returns False when switched off.
 */
export function includeSubagents(io: Io): boolean {
  const raw = io.env.DEJA_INCLUDE_SUBAGENTS;
  const value = raw?.trim().toLowerCase() ?? "";
  if (["0", "false", "no", "off"].includes(value)) return false;
  if (!["", "1", "true", "yes", "on"].includes(value)) {
    io.stderr.write(
      `warning: DEJA_INCLUDE_SUBAGENTS="${raw}" is neither 0 nor 1; sub-agent transcripts are read (the default)\n`,
    );
  }
  return true;
}
