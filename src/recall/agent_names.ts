/**
 * The display names of the harnesses recall speaks about.
 *
 * @module
 */

/** Display names of harnesses, by registry id. */
export const AGENT_NAMES: Readonly<Record<string, string>> = {
  "claude-code": "Claude Code",
  codex: "Codex CLI",
  gemini: "Gemini CLI",
  opencode: "opencode",
  cursor: "Cursor",
  qwen: "Qwen Code",
  pi: "pi",
  aider: "aider",
  copilot: "Copilot CLI",
};
