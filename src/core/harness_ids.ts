/**
 * The registered harness ids and the other names people type for them,
 * for code that names a harness without loading every parser (the registry
 * costs start-up time a query should not pay). `tests/commands_test.ts`
 * keeps this list equal to the registry.
 *
 * @module
 */
import { ownValue } from "./lookup.ts";

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
 * The harness id a name (a `--harness` value, the part before the colon of
 * `harness:id`) stands for, whatever its case (`Codex`), or a common other
 * name (`claude`); undefined when it names none.
 *
 * @param name What was typed.
 * @returns The registered id, if any.
 * @example
 * ```ts
 * import { harnessId } from "./harness_ids.ts";
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
