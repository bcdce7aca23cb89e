/**
 * `deja install <harness>` and `deja uninstall <harness>`: wire the MCP
 * server and the hooks into a harness's config files by exact text edits
 * (JSON: only the members deja adds, changes or removes are rewritten, in
 * the style around them; TOML: exact byte ranges), after a backup of every
 * file it changes. Running install twice changes nothing; uninstall takes
 * out exactly what install added and, when nothing else changed, leaves each
 * file byte-identical to before.
 *
 * @module
 */
import { basename, dirname, join } from "node:path";
import { DejaError, messageOf } from "../core/errors.ts";
import { canonicalJson } from "../core/hash.ts";
import {
  addCodexToml,
  type CodexTomlRecord,
  removeCodexToml,
} from "./codex_toml.ts";
import {
  jsonComments,
  parseJsonWithComments,
  rewriteJson,
} from "./json_doc.ts";
import { tomlProblem } from "./toml_doc.ts";
import { dejaConfigDir, launcherPath, launcherScript } from "./launcher.ts";
import { lineDiff } from "./line_diff.ts";
import {
  type InstallHarness,
  type JsonObject,
  type Ours,
  type Target,
  targetsFor,
} from "./wiring.ts";

/** Options for {@linkcode installHarness} and {@linkcode uninstallHarness}. */
export interface InstallOptions {
  /** HOME (tests pass a temporary one). */
  home: string;
  /** The environment. */
  env: Record<string, string | undefined>;
  /** The command that runs this deja (recorded in the launcher). */
  self: readonly string[];
  /** Print what would change; write nothing. */
  dryRun?: boolean;
  /** The clock, epoch ms (backup names). */
  now: number;
}

/** One file install or uninstall changed (or would change). */
export interface FileChange {
  /** The file. */
  path: string;
  /** What it is for. */
  role: string;
  /** Created, changed, removed or unchanged. */
  action: "create" | "update" | "remove" | "unchanged";
  /** Unified diff ("" when unchanged). */
  diff: string;
  /** Where the previous content was saved. */
  backup?: string;
}

/** What an install or uninstall did. */
export interface InstallReport {
  /** The harness. */
  harness: InstallHarness;
  /** The launcher every entry calls. */
  launcher: string;
  /** Whether nothing was written. */
  dryRun: boolean;
  /** Per-file changes, launcher included. */
  changes: FileChange[];
  /** Things a person should know (flags needing a restart, leftovers). */
  notes: string[];
}

interface FileRecord {
  /** Whether the file existed before the first install. */
  existed: boolean;
  /** Backup of the file as it was before the first install. */
  pristine?: string;
  /** Codex TOML edits. */
  toml?: CodexTomlRecord;
  /** Folders install made to hold the file, outermost first. */
  madeDirs?: string[];
}

interface InstallRecord {
  harness: InstallHarness;
  launcher: string;
  files: Record<string, FileRecord>;
}

function recordPath(options: InstallOptions, harness: string): string {
  return join(
    dejaConfigDir(options.home, options.env),
    "install",
    `${harness}.json`,
  );
}

function readText(path: string): string | undefined {
  try {
    return Deno.readTextFileSync(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return undefined;
    throw err;
  }
}

function readRecord(path: string): InstallRecord | undefined {
  const text = readText(path);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as InstallRecord;
  } catch {
    return undefined;
  }
}

function oursFor(launcher: string): Ours {
  const quoted = `'${launcher.replaceAll("'", `'\\''`)}'`;
  return {
    launcher,
    isOurs(command: unknown): boolean {
      if (Array.isArray(command)) return command[0] === launcher;
      if (typeof command !== "string") return false;
      const c = command.trim();
      return c === launcher || c.startsWith(`${launcher} `) ||
        c.startsWith(`${quoted} `) || c === quoted;
    },
  };
}

/**
 * Runs one edit of a parsed config, naming the file when its shape is not
 * what the edit expects (an "mcpServers" that is a list).
 */
function editJson(path: string, edit: () => void): void {
  try {
    edit();
  } catch (err) {
    if (!(err instanceof TypeError)) throw err;
    throw new DejaError("INS-E001", `Cannot edit "${path}": ${err.message}`);
  }
}

function parseJson(path: string, text: string | undefined): JsonObject {
  if (text === undefined || text.trim() === "") return {};
  let data: unknown;
  try {
    data = parseJsonWithComments(text);
  } catch (err) {
    throw new DejaError(
      "INS-E001",
      `Cannot edit "${path}": it is not JSON (${
        messageOf(err)
      }); deja edits JSON structurally and will not rewrite it: fix it, or add the entries by hand (deja install --dry-run on a copy shows them)`,
      { cause: err },
    );
  }
  if (data === null || typeof data !== "object" || Array.isArray(data)) {
    throw new DejaError(
      "INS-E001",
      `Cannot edit "${path}": it does not hold a JSON object`,
    );
  }
  return data as JsonObject;
}

/**
 * Whether two JSON texts hold the same value and the same comments: a
 * comment written since install is the person's, and restoring the file's
 * old bytes would drop it.
 */
function sameJson(a: string, b: string): boolean {
  try {
    // An empty file reads as {} (parseJson), so it compares as one.
    const sameValue =
      canonicalJson(parseJson("", a)) === canonicalJson(parseJson("", b));
    return sameValue &&
      jsonComments(a).join("\n") === jsonComments(b).join("\n");
  } catch {
    return false;
  }
}

function isEmptyContainer(value: unknown): boolean {
  return value !== null && typeof value === "object" &&
    Object.keys(value).length === 0;
}

/**
 * Puts back the top-level containers the removal emptied and deleted when
 * the file held them, empty, before install: a person's `"mcp": {}` is
 * theirs, not install's.
 */
function keepEmptyContainers(
  doc: JsonObject,
  held: JsonObject,
  pristine: string | undefined,
): void {
  let before: JsonObject;
  try {
    before = parseJson("", pristine);
  } catch {
    return;
  }
  for (const [key, value] of Object.entries(before)) {
    if (key in doc || !(key in held) || !isEmptyContainer(value)) continue;
    doc[key] = Array.isArray(value) ? [] : {};
  }
}

function stamp(now: number): string {
  return new Date(now).toISOString().replace(/[-:]/g, "").replace(
    /\.\d+Z$/,
    "Z",
  );
}

function backupPath(
  options: InstallOptions,
  harness: string,
  path: string,
): string {
  const flat = path.replace(/^[\\/]+/, "").replace(/[\\/]/g, "__");
  const base = join(
    dejaConfigDir(options.home, options.env),
    "backups",
    harness,
    `${stamp(options.now)}-${flat}`,
  );
  // Never overwrite an earlier backup (install and uninstall in one second).
  for (let n = 0;; n++) {
    const candidate = n === 0 ? base : `${base}.${n}`;
    try {
      Deno.lstatSync(candidate);
    } catch {
      return candidate;
    }
  }
}

/**
 * Writes a backup readable by its owner only: an agent's config (such as
 * ~/.claude.json) can hold account data.
 */
function writeBackup(path: string, text: string): void {
  Deno.mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  Deno.writeTextFileSync(path, text, { mode: 0o600 });
  Deno.chmodSync(path, 0o600);
}

function writeFile(path: string, text: string): void {
  Deno.mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.deja-tmp`;
  Deno.writeTextFileSync(tmp, text);
  try {
    const mode = Deno.statSync(path).mode;
    if (mode !== null) Deno.chmodSync(tmp, mode & 0o7777);
  } catch {
    // A new file keeps the default mode.
  }
  Deno.renameSync(tmp, path);
}

function apply(
  target: Target,
  before: string | undefined,
  options: InstallOptions,
  harness: InstallHarness,
  change: Omit<FileChange, "diff" | "action">,
  after: string | undefined,
): FileChange {
  const action: FileChange["action"] = before === after
    ? "unchanged"
    : after === undefined
    ? "remove"
    : before === undefined
    ? "create"
    : "update";
  const out: FileChange = {
    ...change,
    action,
    diff: lineDiff(target.path, before ?? "", after ?? ""),
  };
  if (action === "unchanged" || options.dryRun) return out;
  if (before !== undefined) {
    const backup = backupPath(options, harness, target.path);
    writeBackup(backup, before);
    out.backup = backup;
  }
  if (after === undefined) Deno.removeSync(target.path);
  else writeFile(target.path, after);
  return out;
}

/**
 * Wires deja into a harness: the launcher, the MCP server entry and the
 * hooks.
 *
 * @param harness The harness.
 * @param options HOME, environment, the command that runs deja, dry run.
 * @returns What changed (or would).
 * @throws {DejaError} INS-E001 when a config file cannot be parsed.
 */
export function installHarness(
  harness: InstallHarness,
  options: InstallOptions,
): InstallReport {
  const launcher = launcherPath(options.home, options.env);
  const ours = oursFor(launcher);
  const report: InstallReport = {
    harness,
    launcher,
    dryRun: options.dryRun ?? false,
    changes: [],
    notes: [],
  };
  const recPath = recordPath(options, harness);
  const record: InstallRecord = readRecord(recPath) ??
    { harness, launcher, files: {} };
  const planned: Array<
    {
      target: Target;
      before: string | undefined;
      after: string;
      file: FileRecord;
    }
  > = [];
  for (const target of targetsFor(harness, options)) {
    const before = readText(target.path);
    const file: FileRecord = record.files[target.path] ??
      { existed: before !== undefined };
    if (before === undefined && file.madeDirs === undefined) {
      const made = missingDirs(target.path);
      if (made.length) file.madeDirs = made;
    }
    let after: string;
    if (target.kind === "toml") {
      const problem = tomlProblem(before ?? "");
      if (problem) {
        throw new DejaError(
          "INS-E001",
          `Cannot edit "${target.path}": it is not TOML deja can read (${problem}); deja will not append to it: fix it, or add the entries by hand (deja install --dry-run on a copy shows them)`,
        );
      }
      const added = addCodexToml(before ?? "", launcher);
      after = added.text;
      if (after !== (before ?? "")) {
        file.toml = mergeToml(file.toml, added.record);
      }
    } else {
      const doc = parseJson(target.path, before);
      const snapshot = canonicalJson(doc);
      editJson(target.path, () => target.add(doc, ours));
      after = canonicalJson(doc) === snapshot && before !== undefined
        ? before
        : rewriteJson(before, doc);
    }
    planned.push({ target, before, after, file });
  }
  const script = launcherScript(options.self);
  const oldScript = readText(launcher);
  const launcherChange: FileChange = {
    path: launcher,
    role: "launcher",
    action: oldScript === script
      ? "unchanged"
      : oldScript === undefined
      ? "create"
      : "update",
    diff: lineDiff(launcher, oldScript ?? "", script),
  };
  if (!report.dryRun && oldScript !== script) {
    // The folders above deja's own config folder that install makes (a
    // HOME without ~/.config) are noted there, for the last uninstall.
    const configDir = dejaConfigDir(options.home, options.env);
    const outside = missingDirs(launcher).filter((d) =>
      !`${d}/`.startsWith(`${configDir}/`)
    );
    writeFile(launcher, script);
    Deno.chmodSync(launcher, 0o755);
    if (outside.length) {
      writeFile(madeDirsPath(options), `${JSON.stringify(outside)}\n`);
    }
  }
  report.changes.push(launcherChange);
  for (const { target, before, after, file } of planned) {
    if (
      !report.dryRun && before !== after && file.existed &&
      file.pristine === undefined && before !== undefined
    ) {
      const pristine = backupPath(options, harness, `${target.path}.pristine`);
      writeBackup(pristine, before);
      file.pristine = pristine;
    }
    report.changes.push(
      apply(target, before, options, harness, {
        path: target.path,
        role: target.role,
      }, after),
    );
    record.files[target.path] = file;
  }
  if (!report.dryRun && report.changes.some((c) => c.action !== "unchanged")) {
    writeFile(recPath, `${JSON.stringify({ ...record, launcher }, null, 2)}\n`);
  }
  if (harness === "codex") {
    // Codex runs a user hook only once it is trusted: an untrusted one is
    // listed but skipped, so without this step the hooks stay silent.
    report.notes.push(
      "Codex runs a new hook only after you trust it: at its next start Codex says hooks need review; trust deja's there (or in /hooks). Until then they do not run, and codex exec never asks.",
      "install also sets [features] codex_hooks = true, the older name of the hooks feature current Codex has on by default.",
    );
  }
  if (harness === "gemini") {
    report.notes.push(
      'Gemini CLI releases from before hooks were on by default also need "hooksConfig": {"enabled": true} in settings (earlier still, tools.enableHooks); current ones read the hooks block as is.',
    );
  }
  if (harness === "opencode") {
    report.notes.push(
      "opencode has no command hooks (only JS plugins), so only the MCP server is wired.",
    );
  }
  if (report.changes.some((c) => c.action !== "unchanged")) {
    report.notes.push("Restart the agent to pick the change up.");
  }
  return report;
}

function mergeToml(
  old: CodexTomlRecord | undefined,
  added: CodexTomlRecord,
): CodexTomlRecord {
  if (!old) return added;
  const out: CodexTomlRecord = { ...old };
  if (added.appended) out.appended = (old.appended ?? "") + added.appended;
  if (added.flag && !old.flag) out.flag = added.flag;
  return out;
}

/**
 * Takes deja back out of a harness: removes exactly the entries install
 * added (recognised by the launcher path), restores what the hooks flag was,
 * and — when the result matches the file as it was before install — writes
 * those exact bytes back. The launcher goes when no harness uses it.
 *
 * @param harness The harness.
 * @param options HOME, environment, dry run.
 * @returns What changed (or would).
 * @throws {DejaError} INS-E001 when a JSON config file cannot be parsed.
 */
export function uninstallHarness(
  harness: InstallHarness,
  options: InstallOptions,
): InstallReport {
  const launcher = launcherPath(options.home, options.env);
  const ours = oursFor(launcher);
  const report: InstallReport = {
    harness,
    launcher,
    dryRun: options.dryRun ?? false,
    changes: [],
    notes: [],
  };
  const recPath = recordPath(options, harness);
  const record = readRecord(recPath);
  if (!record) {
    report.notes.push(
      "No install record: removing every entry that calls the launcher, restoring nothing else.",
    );
  }
  // Whether every file is back as it was before install (or gone, when
  // install created it): only then are the backups no longer needed.
  let restored = record !== undefined;
  for (const target of targetsFor(harness, options)) {
    const before = readText(target.path);
    const file = record?.files[target.path];
    if (before === undefined) {
      if (file?.existed) restored = false;
      continue;
    }
    let after: string | undefined;
    if (target.kind === "toml") {
      after = removeCodexToml(before, file?.toml, launcher);
    } else {
      const doc = parseJson(target.path, before);
      const snapshot = canonicalJson(doc);
      const held = { ...doc };
      editJson(target.path, () => target.remove(doc, ours));
      if (file?.pristine) {
        keepEmptyContainers(doc, held, readText(file.pristine));
      }
      after = canonicalJson(doc) === snapshot
        ? before
        : rewriteJson(before, doc);
    }
    if (file?.pristine) {
      const pristine = readText(file.pristine);
      if (
        pristine !== undefined &&
        (pristine === after ||
          (target.kind === "json" && sameJson(pristine, after)))
      ) {
        after = pristine;
      }
    }
    if (file && !file.existed && after !== before && isEmpty(target, after)) {
      after = undefined;
    }
    const pristine = file?.pristine ? readText(file.pristine) : before;
    if (!file || after !== (file.existed ? pristine : undefined)) {
      restored = false;
    }
    const change = apply(target, before, options, harness, {
      path: target.path,
      role: target.role,
    }, after);
    report.changes.push(change);
    // The folders install made for a file it created go with the file,
    // when nothing else was put in them since.
    if (change.action === "remove" && !report.dryRun) {
      for (const dir of [...file?.madeDirs ?? []].reverse()) {
        removeIfEmpty(dir);
      }
    }
  }
  if (!report.dryRun) {
    try {
      Deno.removeSync(recPath);
    } catch {
      // No record to remove.
    }
  }
  if (!report.dryRun && restored) {
    // Every file is as it was before install: its backups go too, and
    // the folders they leave empty.
    const backups = join(dejaConfigDir(options.home, options.env), "backups");
    try {
      Deno.removeSync(join(backups, harness), { recursive: true });
    } catch {
      // No backups.
    }
    removeIfEmpty(backups);
    for (const change of report.changes) delete change.backup;
  }
  const others = listRecords(options).filter((h) => h !== harness);
  if (others.length === 0 && readText(launcher) !== undefined) {
    report.changes.push({
      path: launcher,
      role: "launcher",
      action: "remove",
      diff: lineDiff(launcher, readText(launcher) ?? "", ""),
    });
    if (!report.dryRun) {
      Deno.removeSync(launcher);
      // The folders install made go too, when nothing else is in them.
      const made = readMadeDirs(options);
      removeIfEmpty(dirname(launcher));
      removeIfEmpty(dirname(recPath));
      removeIfEmpty(dejaConfigDir(options.home, options.env));
      for (const dir of made.reverse()) removeIfEmpty(dir);
    }
  } else if (others.length) {
    report.notes.push(
      `The launcher stays: ${others.join(", ")} still use${
        others.length === 1 ? "s" : ""
      } it.`,
    );
  }
  return report;
}

function madeDirsPath(options: InstallOptions): string {
  return join(dejaConfigDir(options.home, options.env), "made-dirs.json");
}

/** Reads and removes the note of folders made above deja's config folder. */
function readMadeDirs(options: InstallOptions): string[] {
  const path = madeDirsPath(options);
  try {
    const dirs = JSON.parse(Deno.readTextFileSync(path));
    Deno.removeSync(path);
    return Array.isArray(dirs)
      ? dirs.filter((d): d is string => typeof d === "string")
      : [];
  } catch {
    return [];
  }
}

/** The folders above a path that do not exist yet, outermost first. */
function missingDirs(path: string): string[] {
  const out: string[] = [];
  for (let dir = dirname(path); dir !== dirname(dir); dir = dirname(dir)) {
    try {
      Deno.statSync(dir);
      break;
    } catch {
      out.unshift(dir);
    }
  }
  return out;
}

function removeIfEmpty(dir: string): void {
  try {
    Deno.removeSync(dir);
  } catch {
    // Not empty (or gone): leave it.
  }
}

function isEmpty(target: Target, text: string | undefined): boolean {
  if (text === undefined) return true;
  if (target.kind === "toml") return text.trim() === "";
  try {
    // A comment is the person's: a file holding one is not empty.
    const data = parseJsonWithComments(text);
    return data !== null && typeof data === "object" &&
      Object.keys(data).length === 0 && jsonComments(text).length === 0;
  } catch {
    return false;
  }
}

function listRecords(options: InstallOptions): string[] {
  const dir = join(dejaConfigDir(options.home, options.env), "install");
  try {
    return [...Deno.readDirSync(dir)].filter((e) =>
      e.isFile && e.name.endsWith(".json")
    ).map((e) => basename(e.name, ".json"));
  } catch {
    return [];
  }
}
