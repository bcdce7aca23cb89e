/**
 * Kilo Code: task folders under the extension's globalStorage
 * (`kilocode.kilo-code/tasks/<id>/`), shaped like Roo Code's (Kilo is a Roo
 * fork): `ui_messages.json`, `api_conversation_history.json` and, where the
 * version writes it, `history_item.json`; the task history (workspace,
 * parent) is otherwise in VS Code's globalState.
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

const FAMILY: ClineFamily = {
  harness: "kilo",
  extensionId: "kilocode.kilo-code",
};

/** Paths that belong to Cline or Roo, not to Kilo. */
const OTHER_MARKERS = [
  "saoudrizwan.claude-dev",
  "rooveterinaryinc.roo-cline",
  ".vscode-mock",
];

function kiloRoots(source: SourceEnv): string[] {
  return storageRoots(source, FAMILY, "DEJA_KILO_ROOTS");
}

/**
 * The Kilo Code harness.
 *
 * @example
 * ```ts
 * import { kilo } from "./kilo.ts";
 * import { equal } from "node:assert/strict";
 * equal(kilo.roots({ home: "/h", env: {}, os: "linux" })[0], "/h/.config/Code/User/globalStorage/kilocode.kilo-code");
 * ```
 */
export const kilo: Harness = {
  id: FAMILY.harness,
  name: "Kilo Code",
  format:
    "JSON per task (ui_messages.json, api_conversation_history.json) under the extension's globalStorage; the task history in VS Code's globalState (state.vscdb)",
  envOverrides: ["DEJA_KILO_ROOTS", "XDG_CONFIG_HOME", "APPDATA"],
  roots: kiloRoots,
  discover(source: SourceEnv): Promise<string[]> {
    return Promise.resolve(discoverTaskFiles(kiloRoots(source)));
  },
  // 2: Claude Dev's claude_messages.json is read; shadowGitConfigWorkTree gives the cwd when nothing else does.
  // 3: project and parent from VS Code's globalState, exit codes from the
  //    API history, errors and MCP requests, the VS Code forks' hosts.
  // 4: failed edits (diff_error) as error output, a command message's own
  //    exitCode.
  revision: 4,
  kinds: taskKinds(FAMILY, OTHER_MARKERS),
  docs: {
    store:
      "VS Code globalStorage `kilocode.kilo-code/tasks/<id>/` in every VS Code host Cline's are read from (per-OS folders as for Cline), the task history in the host's `User/globalStorage/state.vscdb` (`ItemTable` row `kilocode.kilo-code`, its `taskHistory`) or a `task_history.json` beside the tasks; `DEJA_KILO_ROOTS` replaces the folders",
    extracts:
      "as Roo Code: user task and feedback, assistant text/questions/completions, commands with exit codes (from the API history's result when requests carry none), command output (an error when the exit code is not 0), files and edit, MCP requests as `mcp__server__tool` commands, what a `newTask` asks of its sub-task as an assistant record and the sub-task's result as tool-output, errors, failed API requests and edits that did not apply (`diff_error`) as error tool-output, condensed context as summary; title, workspace and parent from `history_item.json`, else `task_history.json`, else VS Code's globalState (`taskHistory`), else the cwd from the API history's environment details; sub-tasks as sub-agent sessions of their parent; a history that cannot be read counts as skipped",
    omits:
      "the Kilo CLI's `kilo.db` (an opencode-derived SQLite store whose schema we have not seen), bug reports (`report_bug`), reasoning, environment details, checkpoints, API bookkeeping, partial tool messages; no supersession marks",
    verified:
      "built from the documented format (Roo-shaped tasks) and Kilo-Org/kilocode's source (ContextProxy keeps `taskHistory` in VS Code's globalState; `task_history.json` in globalFileNames.ts); the `state.vscdb` row shape is VS Code's memento layout, not checked against a real Kilo store; no real Kilo sample, fixtures/kilo",
  },
};
