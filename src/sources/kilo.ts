/**
 * Kilo Code: task folders under the extension's globalStorage
 * (`kilocode.kilo-code/tasks/<id>/`), shaped like Roo Code's (Kilo is a Roo
 * fork): `ui_messages.json`, `api_conversation_history.json` and, where the
 * version writes it, `history_item.json`; the task history (workspace,
 * parent) is otherwise in VS Code's globalState. The 0.x CLI kept the same
 * task folders under `~/.kilocode/cli/global/`.
 *
 * Kilo CLI 1.0 (and the extension rebuilt on it) is an opencode fork: its
 * sessions are in opencode's SQLite store, named `kilo.db`, under
 * `${XDG_DATA_HOME:-~/.local/share}/kilo/` (or wherever `KILO_DB` points),
 * read with the opencode parsers.
 *
 * @module
 */
import { isAbsolute, join } from "node:path";
import type {
  FileKind,
  Harness,
  ParseResult,
  SourceEnv,
} from "../core/harness.ts";
import { walkFiles } from "../core/harness.ts";
import {
  type ClineFamily,
  discoverTaskFiles,
  storageRoots,
  taskKinds,
} from "./_cline_family.ts";
import {
  isSessionInfo,
  OPENCODE_SKIP_DIRS,
  parseOpencodeDb,
  parseOpencodeStorageSession,
} from "./opencode.ts";
import { baseName, isRegularFileSync } from "./_paths.ts";
import { macAppSupport, roamingAppData, xdgDataHome } from "./_roots.ts";

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

function extensionRoots(source: SourceEnv): string[] {
  return storageRoots(source, FAMILY, "DEJA_KILO_ROOTS");
}

/** The 0.x CLI's task folders (`~/.kilocode/cli/global/tasks/<id>/`). */
function legacyCliRoot(source: SourceEnv): string {
  return `${source.home}/.kilocode/cli/global`;
}

/**
 * Kilo CLI 1.0's data folders: opencode's XDG layout under the name `kilo`
 * (the same on every OS), and the OS data folder its file-locations doc
 * names on macOS and where readers find it on Windows.
 */
function cliDataRoots(source: SourceEnv): string[] {
  if (source.env.DEJA_KILO_CLI_ROOT) return [source.env.DEJA_KILO_CLI_ROOT];
  const roots = [join(xdgDataHome(source), "kilo")];
  if (source.os === "darwin") roots.push(join(macAppSupport(source), "kilo"));
  if (source.os === "windows") roots.push(join(roamingAppData(source), "kilo"));
  return roots;
}

/** The store `KILO_DB` names (absolute, or relative to the data folder). */
function namedDb(source: SourceEnv): string | undefined {
  const named = source.env.KILO_DB;
  if (!named || named === ":memory:") return undefined;
  const root = cliDataRoots(source)[0] ?? join(xdgDataHome(source), "kilo");
  return isAbsolute(named) ? named : join(root, named);
}

function kiloRoots(source: SourceEnv): string[] {
  return [
    ...extensionRoots(source),
    legacyCliRoot(source),
    ...cliDataRoots(source),
  ];
}

/**
 * Folders under the CLI's data folder that hold no sessions: opencode's, and
 * `session_diff` (Kilo's diffs are not read).
 */
const CLI_SKIP_DIRS = new Set([...OPENCODE_SKIP_DIRS, "session_diff"]);

/** `kilo.db`, a channel's `kilo-<channel>.db` or the `opencode-<channel>.db` it falls back to. */
function isCliDb(path: string): boolean {
  return /^(kilo|opencode)(-[^\\/]+)?\.db$/.test(baseName(path));
}

function discoverCli(source: SourceEnv): string[] {
  const found = cliDataRoots(source).flatMap((root) =>
    walkFiles(root, (p) => isCliDb(p) || isSessionInfo(p), {
      maxDepth: 5,
      skipDirs: CLI_SKIP_DIRS,
    })
  );
  const named = namedDb(source);
  if (named && !found.includes(named) && isRegularFileSync(named)) {
    found.push(named);
  }
  return found;
}

/** Sessions the opencode parsers read, filed under Kilo. */
function asKilo(result: ParseResult): ParseResult {
  for (const session of result.sessions) session.harness = FAMILY.harness;
  return result;
}

const cliDbKind: FileKind = {
  id: "cli-db",
  appendOnly: false,
  // Only the CLI's data folder and `KILO_DB` are walked for stores.
  match: (path) => /\.db$/i.test(path),
  parse: async (path, options) => asKilo(await parseOpencodeDb(path, options)),
};

const cliStorageKind: FileKind = {
  id: "cli-storage",
  appendOnly: false,
  match: isSessionInfo,
  parse: async (path, options) =>
    asKilo(await parseOpencodeStorageSession(path, options)),
};

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
    "JSON per task (ui_messages.json, api_conversation_history.json) under the extension's globalStorage or the 0.x CLI's ~/.kilocode/cli/global; the task history in VS Code's globalState (state.vscdb); Kilo CLI 1.0 and the extension built on it: opencode's SQLite store as kilo.db",
  envOverrides: [
    "DEJA_KILO_ROOTS",
    "DEJA_KILO_CLI_ROOT",
    "KILO_DB",
    "XDG_CONFIG_HOME",
    "XDG_DATA_HOME",
    "APPDATA",
  ],
  roots: kiloRoots,
  discover(source: SourceEnv): Promise<string[]> {
    return Promise.resolve([
      ...discoverTaskFiles([...extensionRoots(source), legacyCliRoot(source)]),
      ...discoverCli(source),
    ]);
  },
  // 2: Claude Dev's claude_messages.json is read; shadowGitConfigWorkTree gives the cwd when nothing else does.
  // 3: project and parent from VS Code's globalState, exit codes from the
  //    API history, errors and MCP requests, the VS Code forks' hosts.
  // 4: failed edits (diff_error) as error output, a command message's own
  //    exitCode.
  // 5: Kilo CLI 1.0's kilo.db (and its storage/ JSON), as opencode's, and
  //    the 0.x CLI's task folders under ~/.kilocode/cli/global.
  // 6: Kilo CLI's data folder also under ~/Library/Application Support/kilo
  //    (macOS) and %APPDATA%/kilo (Windows).
  // 7: a request whose stream failed (streamingFailedMessage) as error
  //    output of the model.
  // 8: a failed condense (condense_context_error) and a path the ignore file
  //    refused (clineignore_error/rooignore_error) as error output.
  // 9: a command's output is an error when it exited non-zero, whatever
  // status the harness gave the result (shared ToolRecorder).
  // 10: the CLI's stores (read as opencode's) keep the files a person
  //    attached to a prompt (`file` parts) as files records.
  // 11: the API history's edit tools Roo added, shared with Roo's reader
  //    (`edit_file` variants, `search_replace`, `edit`).
  // 12: opencode's 10 for Kilo CLI 1.0 stores (a provider error's HTTP
  //    status beside its message).
  // 13: a file search (searchFiles rows) as a command with its matches as
  //    tool-output, and the text a read returned where a request still
  //    carries it, shared with Cline's reader.
  revision: 13,
  kinds: [...taskKinds(FAMILY, OTHER_MARKERS), cliDbKind, cliStorageKind],
  docs: {
    store:
      "VS Code globalStorage `kilocode.kilo-code/tasks/<id>/` in every VS Code host Cline's are read from (per-OS folders as for Cline), the task history in the host's `User/globalStorage/state.vscdb` (`ItemTable` row `kilocode.kilo-code`, its `taskHistory`) or a `task_history.json` beside the tasks; the 0.x CLI's `~/.kilocode/cli/global/tasks/<id>/`; Kilo CLI 1.0 and the extension rebuilt on it (an opencode fork): `${XDG_DATA_HOME:-~/.local/share}/kilo/kilo.db` (a channel's `kilo-<channel>.db`, or the `opencode-<channel>.db` it falls back to; `KILO_DB` names another, absolute or relative to that folder) and `storage/session/…` JSON there, on every OS, plus `~/Library/Application Support/kilo` on macOS (where Kilo's file-locations doc puts its data) and `%APPDATA%/kilo` on Windows (`DEJA_KILO_CLI_ROOT` replaces them); `DEJA_KILO_ROOTS` replaces the extension folders",
    extracts:
      "as Roo Code: user task and feedback, assistant text/questions/completions, commands with exit codes (from the API history's result when requests carry none), command output (an error when the exit code is not 0), files and edit, a file search (`searchFiles` row) as a command and its matches as tool-output, the text a read returned where an older request still carries it as tool-output, MCP requests as `mcp__server__tool` commands, what a `newTask` asks of its sub-task as an assistant record and the sub-task's result as tool-output, errors, failed API requests (and requests whose stream broke off), edits that did not apply (`diff_error`), paths the ignore file kept from the agent and a failed condense as error tool-output, condensed context as summary; title, workspace and parent from `history_item.json`, else `task_history.json`, else VS Code's globalState (`taskHistory`), else the cwd from the API history's environment details; sub-tasks as sub-agent sessions of their parent; a history that cannot be read counts as skipped; Kilo CLI 1.0 sessions as opencode's are read (text, commands with exit codes, files and edits, tool output, compaction summaries, child sessions as sub-agents), filed under kilo",
    omits:
      "the 0.x CLI's `global-state.json` task history (the cwd comes from the API history instead), Kilo CLI 1.0's `session_diff` files and its custom commands in `~/.config/kilo/` (a command's expanded template stays the user's text), bug reports (`report_bug`), reasoning, environment details, checkpoints, API bookkeeping, partial tool messages; no supersession marks",
    verified:
      "built from the documented format (Roo-shaped tasks) and Kilo-Org/kilocode's source (ContextProxy keeps `taskHistory` in VS Code's globalState; `task_history.json` in globalFileNames.ts); the `state.vscdb` row shape is VS Code's memento layout, not checked against a real Kilo store; no real Kilo sample, fixtures/kilo; Kilo CLI 1.0's store from Kilo-Org/kilocode's storage/db.ts (`kilo.db`, `kilo-<channel>.db`, `KILO_DB`) and its file-locations doc (XDG data folder `kilo`), its tables taken to be opencode's (the fork keeps them; a synthetic 1.x-shaped store in src/sources/kilo_test.ts, no real kilo.db); the 0.x CLI's `~/.kilocode/cli/global/tasks/` from public readers of it",
  },
};
