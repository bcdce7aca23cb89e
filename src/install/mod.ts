/**
 * Wiring deja into harnesses: `install` / `uninstall` of the MCP server and
 * the session and tool hooks, through a launcher that finds deja at run
 * time, with backups, idempotence and an exact round trip.
 *
 * @example
 * ```ts
 * import { INSTALL_HARNESSES, launcherPath } from "./mod.ts";
 * import { ok } from "node:assert/strict";
 * ok(INSTALL_HARNESSES.includes("claude-code"));
 * ok(launcherPath("/h", {}).endsWith("/deja-hook"));
 * ```
 *
 * @module
 */
export {
  type FileChange,
  installHarness,
  type InstallOptions,
  type InstallReport,
  uninstallHarness,
} from "./install_harness.ts";
export {
  INSTALL_HARNESSES,
  type InstallHarness,
  type JsonObject,
  type JsonTarget,
  type Ours,
  type Target,
  type TargetOptions,
  targetsFor,
  type TomlTarget,
} from "./wiring.ts";
export { dejaConfigDir, launcherPath, launcherScript } from "./launcher.ts";
export {
  addCodexToml,
  type CodexTomlRecord,
  removeCodexToml,
} from "./codex_toml.ts";
export {
  jsonComments,
  parseJsonWithComments,
  rewriteJson,
} from "./json_doc.ts";
export {
  normalizeKey,
  readToml,
  type TomlKey,
  tomlString,
  type TomlTable,
} from "./toml_doc.ts";
export { lineDiff } from "./line_diff.ts";
