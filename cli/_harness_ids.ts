/**
 * The registered harness ids, for commands that validate `--harness` without
 * loading every parser (the registry costs start-up time a query should not
 * pay). `tests/commands_test.ts` keeps this list equal to the registry.
 *
 * @module
 */
import { namesFlag, type ParsedArgs } from "./_command.ts";
import { UsageError } from "../src/core/errors.ts";
import { ownValue } from "../src/core/lookup.ts";

/** Every harness id in registry order. */
export const HARNESS_IDS: readonly string[] = [
  "claude-code",
  "codex",
  "gemini",
  "opencode",
  "cursor",
  "aider",
  "copilot-cli",
  "copilot-chat",
  "cline",
  "roo",
  "kilo",
  "continue",
  "kimi",
  "pi",
  "qwen",
  "goose",
  "amp",
  "zed",
  "crush",
  "deepseek",
  "intendant",
  "grok",
  "openclaw",
  "omp",
  "junie",
  "kiro",
  "windsurf",
  "hermes",
  "antigravity",
];

/** Names people type for a harness that are not its id. */
const ALIASES: Readonly<Record<string, string>> = {
  claude: "claude-code",
  "claude code": "claude-code",
  copilot: "copilot-cli",
  "gemini-cli": "gemini",
  "codex-cli": "codex",
};

/**
 * The harness id a `--harness` value names, whatever its case (`Codex`),
 * or a common other name (`claude`); undefined when it names none.
 *
 * @param name What was typed.
 * @returns The registered id, if any.
 * @example
 * ```ts
 * import { harnessId } from "./_harness_ids.ts";
 * import { equal } from "node:assert/strict";
 * equal(harnessId("Codex"), "codex");
 * equal(harnessId("claude"), "claude-code");
 * equal(harnessId("clod"), undefined);
 * ```
 */
export function harnessId(name: string): string | undefined {
  const key = name.trim().toLowerCase();
  const id = ownValue(ALIASES, key) ?? key;
  return HARNESS_IDS.includes(id) ? id : undefined;
}

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
