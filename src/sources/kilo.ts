/**
 * Kilo Code: task folders under the extension's globalStorage
 * (`kilocode.kilo-code/tasks/<id>/`), shaped like Roo Code's (Kilo is a Roo
 * fork): `ui_messages.json`, `api_conversation_history.json` and, where the
 * version writes it, `history_item.json`.
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
    "JSON per task (ui_messages.json, api_conversation_history.json) under the extension's globalStorage",
  envOverrides: ["DEJA_KILO_ROOTS", "XDG_CONFIG_HOME", "APPDATA"],
  roots: kiloRoots,
  discover(source: SourceEnv): Promise<string[]> {
    return Promise.resolve(discoverTaskFiles(kiloRoots(source)));
  },
  // 2: Claude Dev's claude_messages.json is read; shadowGitConfigWorkTree gives the cwd when nothing else does.
  revision: 2,
  kinds: taskKinds(FAMILY, OTHER_MARKERS),
  docs: {
    store:
      "VS Code globalStorage `kilocode.kilo-code/tasks/<id>/` for Code, Code - Insiders, VSCodium, Cursor and Windsurf (per-OS folders as for Cline); `DEJA_KILO_ROOTS` replaces them",
    extracts:
      "as Roo Code: user task and feedback, assistant text/questions/completions, commands with exit codes, command output, files and edit, MCP and sub-task results as tool-output, condensed context as summary, sub-tasks (parent from `history_item.json`) as sub-agent sessions",
    omits:
      "the Kilo CLI's `kilo.db` (an opencode-derived SQLite store whose schema we have not seen), reasoning, environment details, checkpoints, API bookkeeping, partial tool messages; no supersession marks",
    verified:
      "built from the documented format (Roo-shaped tasks); no real Kilo sample, fixtures/kilo",
  },
};
