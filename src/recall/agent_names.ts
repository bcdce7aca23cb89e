/**
 * The display names of the harnesses recall speaks about: the registry's
 * names, kept here so a hook does not load every parser to print one
 * (a test holds the two together).
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
  aider: "aider",
  "copilot-cli": "GitHub Copilot CLI",
  "copilot-chat": "VS Code Copilot Chat",
  cline: "Cline",
  roo: "Roo Code",
  kilo: "Kilo Code",
  continue: "Continue",
  kimi: "Kimi Code",
  pi: "Pi",
  qwen: "Qwen Code",
  goose: "Goose",
  amp: "Amp",
  zed: "Zed",
  crush: "Crush",
  deepseek: "DeepSeek Harness",
  intendant: "Intendant",
  grok: "Grok Build",
  openclaw: "OpenClaw",
  omp: "omp (Oh My Pi)",
  junie: "Junie",
  kiro: "Kiro",
  windsurf: "Windsurf",
  hermes: "Hermes Agent",
  antigravity: "Antigravity",
};
