/**
 * `deja resume`: the harness's own command that reopens a session.
 *
 * @module
 */
import type { SessionInfo } from "../search/mod.ts";

/** A native resume command. */
export interface ResumeCommand {
  /** Program and arguments. */
  argv: string[];
  /** Directory to run it in (the session's working directory). */
  cwd?: string;
  /** The command as a person would type it. */
  display: string;
}

/** Harnesses with a native resume command. */
export const RESUMABLE = [
  "claude-code",
  "codex",
  "opencode",
  "gemini",
  "qwen",
  "pi",
  "copilot-cli",
  "kimi",
] as const;

/**
 * Quotes one word for a POSIX shell.
 *
 * @param word Any text.
 * @returns The word, single-quoted when it needs to be.
 * @example
 * ```ts
 * import { shellQuote } from "./resume_command.ts";
 * import { equal } from "node:assert/strict";
 * equal(shellQuote("a b"), "'a b'");
 * equal(shellQuote("abc"), "abc");
 * ```
 */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * The native command that resumes a session (a sub-agent's parent, which is
 * what can be reopened), or undefined for a harness without one.
 *
 * @param session The session.
 * @returns The command.
 * @example
 * ```ts
 * import { resumeCommand } from "./resume_command.ts";
 * import { equal } from "node:assert/strict";
 * const cmd = resumeCommand({ harness: "codex", id: "019a", project: "api", path: "/x", title: "", started: null, updated: null, records: 1 });
 * equal(cmd?.display, "codex resume 019a");
 * const sub = resumeCommand({ harness: "claude-code", id: "a1", parent: "4d56", lineage: "subagent", project: "api", path: "/x", title: "", started: null, updated: null, records: 1 });
 * equal(sub?.display, "claude --resume 4d56");
 * ```
 */
export function resumeCommand(session: SessionInfo): ResumeCommand | undefined {
  // Prompts from a history file whose transcript is gone: nothing to reopen.
  if (/(?:^|[\/])history\.jsonl$/.test(session.path)) return undefined;
  // A sub-agent cannot be reopened on its own: its parent session can.
  const id = session.lineage === "subagent" && session.parent
    ? session.parent
    : session.id;
  let argv: string[];
  switch (session.harness) {
    case "claude-code":
      argv = ["claude", "--resume", id];
      break;
    case "codex":
      argv = ["codex", "resume", id];
      break;
    case "opencode":
      argv = ["opencode", "--session", id];
      break;
    case "gemini":
      argv = ["gemini", "--resume", id];
      break;
    case "qwen":
      argv = ["qwen", "--resume", id];
      break;
    case "pi":
      argv = ["pi", "--session", session.path];
      break;
    case "copilot-cli":
      argv = ["copilot", "--resume", id];
      break;
    case "kimi":
      // Kimi Code CLI and the older Kimi CLI both take --session <id>.
      argv = ["kimi", "--session", id];
      break;
    default:
      return undefined;
  }
  const typed = argv.map(shellQuote).join(" ");
  const out: ResumeCommand = { argv, display: typed };
  if (session.cwd) {
    // A Windows session is resumed in PowerShell, which quotes with '' and
    // chains with ";" (Windows PowerShell has no "&&").
    out.display = /^[A-Za-z]:[\\/]/.test(session.cwd)
      ? `cd '${session.cwd.replaceAll("'", "''")}'; ${typed}`
      : `cd ${shellQuote(session.cwd)} && ${typed}`;
  }
  if (session.cwd) out.cwd = session.cwd;
  return out;
}
