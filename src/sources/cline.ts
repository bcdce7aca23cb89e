/**
 * Cline: the VS Code extension's task folders
 * (`globalStorage/saoudrizwan.claude-dev/tasks/<id>/`, both store
 * generations: `ui_messages.json` and `api_conversation_history.json`), the
 * same folders the CLI keeps under `~/.cline/data`, and the CLI/SDK sessions
 * `~/.cline/data/sessions/<sid>/<sid>.messages.json`.
 *
 * @module
 */
import type { FileKind, Harness, SourceEnv } from "../core/harness.ts";
import { walkFiles } from "../core/harness.ts";
import {
  type ClineFamily,
  discoverTaskFiles,
  parseSdkMessages,
  storageRoots,
  taskKinds,
} from "./_cline_family.ts";
import { baseName } from "./_paths.ts";

const FAMILY: ClineFamily = {
  harness: "cline",
  extensionId: "saoudrizwan.claude-dev",
};

/** Paths that belong to Cline's forks, not to Cline. */
const OTHER_MARKERS = [
  "rooveterinaryinc.roo-cline",
  "kilocode.kilo-code",
  ".vscode-mock",
];

function ours(path: string): boolean {
  return !OTHER_MARKERS.some((m) => path.includes(m));
}

/** The CLI's data folder: `DEJA_CLINE_ROOT`, `CLINE_DATA_DIR`, else `${CLINE_DIR:-~/.cline}/data`. */
function cliDataDir(source: SourceEnv): string {
  const env = source.env;
  return env.DEJA_CLINE_ROOT || env.CLINE_DATA_DIR ||
    `${env.CLINE_DIR || `${source.home}/.cline`}/data`;
}

function sessionsDir(source: SourceEnv): string {
  return source.env.CLINE_SESSION_DATA_DIR || `${cliDataDir(source)}/sessions`;
}

function extensionRoots(source: SourceEnv): string[] {
  return storageRoots(source, FAMILY, "DEJA_CLINE_ROOTS");
}

function clineRoots(source: SourceEnv): string[] {
  const roots = [...extensionRoots(source), cliDataDir(source)];
  const sessions = sessionsDir(source);
  if (!roots.some((r) => sessions.startsWith(`${r}/`))) roots.push(sessions);
  return roots;
}

function isSdkMessages(path: string): boolean {
  return baseName(path).endsWith(".messages.json");
}

const sdkKind: FileKind = {
  id: "sdk-messages",
  appendOnly: false,
  match: (path) => isSdkMessages(path) && ours(path),
  parse: (path, options) => parseSdkMessages(path, options, FAMILY.harness),
};

/**
 * The Cline harness: task folders in every VS Code host's globalStorage (the
 * builds and forks `VSCODE_HOSTS` lists and the remote servers), the CLI's
 * task folders and its SDK sessions.
 *
 * @example
 * ```ts
 * import { cline } from "./cline.ts";
 * import { equal } from "node:assert/strict";
 * equal(cline.roots({ home: "/h", env: {}, os: "linux" })[0], "/h/.config/Code/User/globalStorage/saoudrizwan.claude-dev");
 * ```
 */
export const cline: Harness = {
  id: FAMILY.harness,
  name: "Cline",
  format:
    "JSON per task (ui_messages.json, api_conversation_history.json) under the extension's globalStorage; CLI/SDK <sid>.messages.json",
  envOverrides: [
    "DEJA_CLINE_ROOTS",
    "DEJA_CLINE_ROOT",
    "CLINE_DIR",
    "CLINE_DATA_DIR",
    "CLINE_SESSION_DATA_DIR",
    "XDG_CONFIG_HOME",
    "APPDATA",
  ],
  roots: clineRoots,
  discover(source: SourceEnv): Promise<string[]> {
    return Promise.resolve([
      ...discoverTaskFiles([...extensionRoots(source), cliDataDir(source)]),
      ...walkFiles(sessionsDir(source), isSdkMessages, { maxDepth: 2 }),
    ]);
  },
  // 2: Claude Dev's claude_messages.json is read; shadowGitConfigWorkTree gives the cwd when nothing else does.
  // 3: errors, failed API requests and hooks as error output; a failed
  //    command's output flagged; sub-agent prompts and results, new_task
  //    hand-offs and MCP requests (mcp__server__tool) kept; the VS Code forks'
  //    hosts; SDK run_commands/read_files JSON strings, apply_patch, and a
  //    sub-agent never its own parent.
  // 4: the auto-compaction summary (summarizeTask, summarize_task/condense
  //    calls) as summary, permission-refused commands and failed edits
  //    (diff_error) as error output, a command message's own exitCode.
  // 5: a request whose stream failed (streamingFailedMessage) as error
  //    output of the model.
  // 6: a failed condense (condense_context_error) and a path the ignore file
  //    refused (clineignore_error/rooignore_error) as error output.
  // 7: a command's output is an error when it exited non-zero, whatever
  // status the harness gave the result (shared ToolRecorder).
  // 8: the URL a web fetch read and the query a web search ran (webFetch/
  //    webSearch tool rows, web_fetch/web_search calls) as commands.
  // 9: task_progress checklists as the agent's plan (each item once), the
  //    text a read returned (`[read_file for '…'] Result:` in the next
  //    request) as tool-output, and a file search (searchFiles rows) as a
  //    command with its matches as tool-output.
  revision: 9,
  kinds: [...taskKinds(FAMILY, OTHER_MARKERS), sdkKind],
  docs: {
    store:
      "VS Code globalStorage `saoudrizwan.claude-dev/tasks/<id>/` for Code, Code - Insiders, Code - OSS, VSCodium, VSCodium - Insiders, Cursor, Windsurf, Antigravity, Kiro, Trae, Trae CN, Void and Positron (`~/.config/<Host>/User` on Linux plus `~/.vscode-server/data/User` and the other remote servers, `~/Library/Application Support/<Host>/User` on macOS, `%APPDATA%/<Host>/User` on Windows; `DEJA_CLINE_ROOTS` replaces them); the CLI's `${CLINE_DATA_DIR:-${CLINE_DIR:-~/.cline}/data}/tasks/<id>/` and `sessions/<sid>/<sid>.messages.json` (`DEJA_CLINE_ROOT`, `CLINE_SESSION_DATA_DIR`)",
    extracts:
      "ui_messages.json (preferred; Claude Dev's older name `claude_messages.json` next): the task and follow-up feedback as user, model text, questions and completion results as assistant, commands with exit codes (the command message's own `exitCode` in newer builds, else read from the next request's `[execute_command …] Result:` (`Exit Code: N`, `Command failed with exit code N.`, `(exit code N)`)), command output as tool-output (an error when the exit code is not 0), read/edited files as files, the text a read returned (the `[read_file for '…'] Result:` block of the next request, up to the next block; a failed read's error flagged) as tool-output (tool `read_file`), a file search (`searchFiles` tool row) as a command of its regex, path and file pattern and its matches as tool-output (tool `searchFiles`), `task_progress` checklists as assistant plan text (tool `task_progress`: each item once, box and bullet dropped, though the list is rewritten at every step), SEARCH text of edits as edit, an MCP request as a command named `mcp__server__tool` (server, tool and arguments) and its response as tool-output, the URL a web fetch read and the query a web search ran (`webFetch`/`webSearch` tool rows) as commands named `web_fetch`/`web_search`, sub-agent prompts (`use_subagents`, what the agent asked of them) as assistant records and each sub-agent's result or error (`subagent` status) as tool-output, a `new_task` hand-off's context and the auto-compaction summary (`summarizeTask` tool message; `summarize_task`/`condense` calls in the API history, their results not repeated) as summary, `say:error` (tool `cline`), a failed API request (`api_req_failed`, or a request whose stream broke off: `streamingFailedMessage` of `api_req_started`, unless the person cancelled it; tool `model`), a failed hook (`hook_status`, tool `hook`), a command the configured permissions refused (`command_permission_denied`, tool `execute_command`) an edit that did not apply (`diff_error`, tool `edit`), a path `.clineignore` kept from the agent (`clineignore_error`, tool `clineignore`) and a failed condense (`condense_context_error`, tool `model`) as error tool-output, cwd from `state/taskHistory.json` (`cwdOnTaskInitialization`, else the checkpoint work tree `shadowGitConfigWorkTree`), VS Code's globalState (`state.vscdb`, for tasks from before that file) or the first environment details; api_conversation_history.json when there is no ui_messages.json (envelopes unwrapped, XML and native tool calls as command/files/edit, MCP, web and sub-agent calls as above, results as tool-output, a failed command's flagged, synthetic times: task start + 1 s per message); SDK sessions with run_commands (one command each, the list also as a JSON string), read_files (paths also as a JSON string), editor and apply_patch (files and removed lines) tools, exit codes and is_error, sub-agent files as sub-agent sessions of the session their origin or manifest (`parent_session_id`) names, never of themselves; a side file that cannot be read (`taskHistory.json`, an SDK manifest) counts as skipped",
    omits:
      "reasoning and `<thinking>`, `<environment_details>` and other harness-injected context, checkpoints, API request bookkeeping and retry notices (`error_retry`), the rest of a request's text (echoes of the task, feedback and other tools' results, Cline's reminders), the whole file written by `newFileCreated` and the REPLACE halves of edits, hooks that ran or are running and their streamed output, sub-agent usage totals, partial (still-streaming) tool messages and sub-agent statuses, the SDK's `spawn_agent`/`team_*` inputs (their results are kept); Cline keeps no undo trail (a checkpoint restore deletes the later messages), so there are no supersession marks",
    verified:
      "ui_messages.json: two real tasks (Cline 3.x, Windows, claude-sonnet-4-5 / claude-opus-4-6); the sub-agent, hook, MCP, error and new_task payloads from cline/cline's ExtensionMessage.ts and tool handlers (no real sample), the web tools' rows from WebFetchToolHandler.ts and WebSearchToolHandler.ts (cline/cline at 0528db5e, ExtensionMessage.ts at 0014234a); api_conversation_history.json and SDK sessions: built from the documented format and public SDK readers' tests only (the SDK's sub-agent layout and `parent_session_id` unverified), fixtures/cline",
  },
};
