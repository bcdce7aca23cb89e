/**
 * The registered harness ids, for commands that validate `--harness` without
 * loading every parser (the registry costs start-up time a query should not
 * pay). `tests/commands_test.ts` keeps this list equal to the registry.
 *
 * @module
 */

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
