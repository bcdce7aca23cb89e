/**
 * `--harness` values checked against the registered harness ids
 * (src/core/harness_ids.ts), as usage errors.
 *
 * @module
 */
import { namesFlag, type ParsedArgs } from "./_command.ts";
import { UsageError } from "../src/core/errors.ts";
import { HARNESS_IDS, harnessId } from "../src/core/harness_ids.ts";

/**
 * The registered id a `--harness` value names, or a usage error listing
 * the ids.
 *
 * @param name What was typed.
 * @returns The registered id.
 * @throws {UsageError} When no harness goes by that name.
 */
export function knownHarness(name: string): string {
  const id = harnessId(name);
  if (!id) {
    throw new UsageError(
      `Unknown harness "${name}": use one of ${HARNESS_IDS.join(", ")}`,
    );
  }
  return id;
}

/**
 * The registered ids `--harness` names, each value one id or a comma list
 * (`--harness codex,gemini`), as `--role` takes them.
 *
 * @param args Parsed arguments.
 * @returns The registered ids; empty when `--harness` is absent.
 * @throws {UsageError} When a value is empty or a name is no harness's.
 * @example
 * ```ts
 * import { harnessesFlag } from "./_harness_ids.ts";
 * import { deepEqual } from "node:assert/strict";
 * const args = { values: { harness: ["codex,Gemini", "claude"] }, positionals: [] };
 * deepEqual(harnessesFlag(args), ["codex", "gemini", "claude-code"]);
 * ```
 */
export function harnessesFlag(args: ParsedArgs): string[] {
  return namesFlag(args, "harness").map(knownHarness);
}
