/**
 * Roo Code: task folders under the extension's globalStorage
 * (`rooveterinaryinc.roo-cline/tasks/<id>/`), or under the
 * `roo-cline.customStoragePath` a host's settings name, plus the Roo CLI's
 * store under `~/.vscode-mock/global-storage`. Same shape as Cline's tasks,
 * with a `history_item.json` per task that names a sub-task's parent.
 *
 * @module
 */
import type { Harness, SourceEnv } from "../core/harness.ts";
import {
  type ClineFamily,
  discoverTaskFiles,
  storageRoots,
  taskKinds,
} from "./_cline_family.ts";
import { presentVscodeUserDirs } from "./_roots.ts";

const FAMILY: ClineFamily = {
  harness: "roo",
  extensionId: "rooveterinaryinc.roo-cline",
};

/** Paths that belong to Cline or Kilo, not to Roo. */
const OTHER_MARKERS = ["saoudrizwan.claude-dev", "kilocode.kilo-code"];

/**
 * Removes `//` and `/* *\/` comments and trailing commas from JSONC text,
 * leaving string contents alone.
 */
function stripJsonc(text: string): string {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      i = end < 0 ? text.length : end + 2;
    } else {
      out += c;
      i++;
    }
  }
  return out.replace(/,(\s*[}\]])/g, "$1");
}

/** The `roo-cline.customStoragePath` each host's settings.json names. */
async function customStorageDirs(source: SourceEnv): Promise<string[]> {
  const dirs: string[] = [];
  for (const user of presentVscodeUserDirs(source)) {
    let text: string;
    try {
      const info = await Deno.stat(`${user}/settings.json`);
      if (!info.isFile || info.size > 4 << 20) continue;
      text = await Deno.readTextFile(`${user}/settings.json`);
    } catch {
      continue;
    }
    try {
      const value: unknown = JSON.parse(stripJsonc(text));
      if (typeof value !== "object" || value === null) continue;
      const custom = (value as Record<string, unknown>)[
        "roo-cline.customStoragePath"
      ];
      if (typeof custom === "string" && custom.trim()) dirs.push(custom.trim());
    } catch {
      continue;
    }
  }
  return dirs;
}

function cliRoot(source: SourceEnv): string {
  return source.env.DEJA_ROO_CLI_ROOT ||
    `${source.home}/.vscode-mock/global-storage`;
}

function extensionRoots(source: SourceEnv): string[] {
  return storageRoots(source, FAMILY, "DEJA_ROO_ROOTS");
}

function rooRoots(source: SourceEnv): string[] {
  return [...extensionRoots(source), cliRoot(source)];
}

/**
 * The Roo Code harness.
 *
 * @example
 * ```ts
 * import { roo } from "./roo.ts";
 * import { equal } from "node:assert/strict";
 * equal(roo.roots({ home: "/h", env: {}, os: "linux" }).at(-1), "/h/.vscode-mock/global-storage");
 * ```
 */
export const roo: Harness = {
  id: FAMILY.harness,
  name: "Roo Code",
  format:
    "JSON per task (ui_messages.json, api_conversation_history.json — a legacy array or a {version: 2, messages} envelope — and history_item.json, indexed in tasks/_index.json) under the extension's globalStorage or custom storage path",
  envOverrides: [
    "DEJA_ROO_ROOTS",
    "DEJA_ROO_CLI_ROOT",
    "XDG_CONFIG_HOME",
    "APPDATA",
  ],
  roots: rooRoots,
  async discover(source: SourceEnv): Promise<string[]> {
    const custom = source.env.DEJA_ROO_ROOTS
      ? []
      : await customStorageDirs(source);
    return discoverTaskFiles([...rooRoots(source), ...custom]);
  },
  // 2: Claude Dev's claude_messages.json is read; shadowGitConfigWorkTree gives the cwd when nothing else does.
  // 3: exit codes and output from the v2 API history (requests no longer
  //    carry them), errors as error output, MCP requests, history titles,
  //    the `_index.json` and globalState fallbacks, the VS Code forks' hosts.
  // 4: failed edits (diff_error) as error output, a command message's own
  //    exitCode.
  // 5: a request whose stream failed (streamingFailedMessage) as error
  //    output of the model.
  // 6: a failed condense (condense_context_error) and a path the ignore file
  //    refused (clineignore_error/rooignore_error) as error output.
  // 7: a command's output is an error when it exited non-zero, whatever
  // status the harness gave the result (shared ToolRecorder).
  // 8: the API history's newer edit tools: every `edit_file` variant
  //    (`diff`, `edits`, `old_string`, an apply_patch `patch`),
  //    `search_replace` and `edit`.
  // 9: a file search (searchFiles rows) as a command with its matches as
  //    tool-output, and the text a read returned where a request still
  //    carries it (`[read_file for '…'] Result:`), shared with Cline's reader.
  revision: 9,
  kinds: taskKinds(FAMILY, OTHER_MARKERS),
  docs: {
    store:
      "VS Code globalStorage `rooveterinaryinc.roo-cline/tasks/<id>/` in every VS Code host Cline's are read from (per-OS folders as for Cline), any `roo-cline.customStoragePath` in a host's `User/settings.json`, and the Roo CLI's `~/.vscode-mock/global-storage` (`DEJA_ROO_CLI_ROOT`); `DEJA_ROO_ROOTS` replaces the extension folders",
    extracts:
      "as Cline: user task and feedback, assistant text/questions/completions, commands with exit codes (`Exit code: N` in the command result: in the request where older versions wrote it, else in the API history's result of the same command — `{version: 2, messages}` with `tool-call`/`tool-result` parts, or the legacy array), command output (the API history's when the panel shows none; an error when the exit code is not 0), a file search (`searchFiles` row: regex, path, file pattern) as a command and its matches as tool-output, the text a read returned where an older request still carries it (`[read_file for '…'] Result:`) as tool-output (tool `read_file`), files and edit (SEARCH blocks, unified diffs, batch diffs; in the API history also every `edit_file` variant — SEARCH blocks in `diff`, `edits` of `old_text`, `old_string`, an apply_patch `patch` — and `search_replace`/`edit` calls), MCP requests as commands named `mcp__server__tool` and their responses as tool-output, what a `newTask` asks of its sub-task as an assistant record and the sub-task's result as tool-output, `say:error` (tool `roo`), failed API requests (`api_req_failed`, or a stream that broke off: `streamingFailedMessage`; tool `model`) edits that did not apply (`diff_error`, tool `edit`), paths `.rooignore` kept from the agent (`rooignore_error`, tool `rooignore`) and a failed condense (`condense_context_error`, tool `model`) as error tool-output, condensed context as summary; `history_item.json` gives the title, the workspace and, for a `new_task` sub-task, its parent (a sub-agent session, skipped when sub-agents are off; never the task itself), else `tasks/_index.json` or VS Code's globalState (`state.vscdb`), else the cwd comes from the API history's environment details; a history file that cannot be read counts as skipped",
    omits:
      "reasoning, environment details, checkpoints, API bookkeeping, todo lists, codebase search results, partial tool messages; no supersession marks (a checkpoint restore deletes the later messages)",
    verified:
      "built from the documented format, Roo's message schema and its task-persistence source (apiMessages.ts, rooMessage.ts, TaskHistoryStore.ts), the edit tools' arguments from its native-tools definitions (RooCodeInc/Roo-Code src/core/prompts/tools/native-tools at 0126cb0b: edit_file_roo/anthropic/grok/gemini/codex, search_replace.ts and edit.ts at 342cc696); ui_messages.json is Cline-shaped and was checked against real Cline tasks; no real Roo sample, fixtures/roo",
  },
};
