/**
 * The parser core shared by Cline, Roo Code and Kilo Code: VS Code extensions
 * that keep one directory per task under their globalStorage,
 * `tasks/<taskId>/`, holding `ui_messages.json` (what the panel showed, with
 * times) and `api_conversation_history.json` (what the model was sent, in
 * Anthropic message shape). The Cline CLI/SDK's `<sid>.messages.json` uses the
 * same content blocks and is parsed here too.
 *
 * @module
 */
import type {
  FileKind,
  ParseOptions,
  ParseResult,
  SourceEnv,
} from "../core/harness.ts";
import { walkFiles } from "../core/harness.ts";
import { DejaError } from "../core/errors.ts";
import {
  cleanSpeech,
  findBlocks,
  firstBlock,
  stripBlocks,
  withoutBlocks,
} from "../core/text.ts";
import { parseTime } from "../core/time.ts";
import type { Locator, RecordFlags, SessionRecord } from "../core/types.ts";
import { SessionBuilder } from "./_builder.ts";
import { readJsonDocument } from "./_json_doc.ts";
import { isObject, type Json, list, parseJson, str } from "./_json.ts";
import { baseName, dirOf, isRegularFile, isRegularFileSync } from "./_paths.ts";
import { pathList, presentVscodeUserDirs, vscodeUserDirs } from "./_roots.ts";
import { col, readStore, rows, textColumn } from "./_sqlite_store.ts";
import { type ToolEventAt, ToolRecorder } from "./_tool_records.ts";
import { editBody } from "./_work_records.ts";

/** What distinguishes one member of the family. */
export interface ClineFamily {
  /** Registry harness id ("cline", "roo", "kilo"). */
  harness: string;
  /** The VS Code extension id whose globalStorage holds the tasks. */
  extensionId: string;
}

/** File names of a task directory. */
const UI_MESSAGES = "ui_messages.json";
/** The model-facing conversation of a task. */
const API_HISTORY = "api_conversation_history.json";
/** What `ui_messages.json` was called before Cline 2 (Claude Dev); same shape. */
const LEGACY_UI_MESSAGES = "claude_messages.json";
/** A task folder's files, most preferred first. */
const TASK_FILES = [UI_MESSAGES, LEGACY_UI_MESSAGES, API_HISTORY];

/** Task histories larger than this are not read for metadata. */
const MAX_METADATA_BYTES = 64 * 1024 * 1024;

/** Cline appends this to a command that needs approval. */
const REQ_APP = /REQ_APP\s*$/;
/** Cline appends this to a completion that changed files. */
const HAS_CHANGES = /\s*HAS_CHANGES\s*$/;

const ENV_DETAILS =
  /<environment_details>[\s\S]*?(?:<\/environment_details>|$)/g;
/** What a person typed back with a tool's result. */
const FEEDBACK: [string, string] = ["<feedback>", "</feedback>"];
/** The envelopes around what a person typed (`<user_input>` with attributes). */
const ENVELOPE_OPEN = /<(task|feedback|answer|user_message)>|<(user_input)\b/g;
const ENVELOPE_CLOSE = /<\/(task|feedback|answer|user_message|user_input)>/g;

/** Reasoning blocks, removed in one pass ({@linkcode stripBlocks}). */
const THINKING: ReadonlyArray<[string, string]> = [
  ["<thinking>", "</thinking>"],
  ["<think>", "</think>"],
];
const CWD_LINE = /# Current (?:Working|Workspace) Directory \(([^)\n]+)\)/;

/** Exit codes as the family's command results word them. */
const EXIT_PATTERNS = [
  /\bExit code: (-?\d+)/i,
  /\bCommand failed with exit code:? (-?\d+)/i,
  /\bexited with (?:exit )?code (-?\d+)/i,
  /\(exit code (-?\d+)\)/i,
];

/**
 * The exit code a command result reports, for the wordings Cline ("Exit
 * Code: 1"), Roo/Kilo ("… Exit code: 0") and shells ("exited with code 2")
 * use.
 *
 * @param text A command's result.
 * @returns The code, or undefined.
 * @example
 * ```ts
 * import { commandExitCode } from "./_cline_family.ts";
 * import { equal } from "node:assert/strict";
 * equal(commandExitCode("Command executed in terminal within working directory '/w'. Exit code: 2"), 2);
 * ```
 */
export function commandExitCode(text: string): number | undefined {
  for (const re of EXIT_PATTERNS) {
    const m = re.exec(text);
    if (m) return Number(m[1]);
  }
  return undefined;
}

/**
 * The text an edit replaced, one entry per block: SEARCH/REPLACE blocks in
 * both marker styles (`<<<<<<< SEARCH` and Cline's `------- SEARCH`, Roo's
 * `:start_line:` headers dropped) or, for a unified diff, its `-` lines per
 * hunk.
 *
 * @param diff The diff text a tool carried.
 * @returns The removed texts (empty when the diff removes nothing).
 * @example
 * ```ts
 * import { removedBlocks } from "./_cline_family.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(removedBlocks("------- SEARCH\nold\n=======\nnew\n+++++++ REPLACE"), ["old"]);
 * ```
 */
export function removedBlocks(diff: string): string[] {
  const lines = diff.split(/\r?\n/);
  const out: string[] = [];
  if (lines.some((l) => /^(<{5,}|-{5,}) SEARCH\s*$/.test(l))) {
    let inSearch = false;
    let current: string[] = [];
    for (const line of lines) {
      if (/^(<{5,}|-{5,}) SEARCH\s*$/.test(line)) {
        inSearch = true;
        current = [];
      } else if (inSearch && /^={5,}\s*$/.test(line)) {
        inSearch = false;
        while (
          current.length > 0 &&
          (/^:(start|end)_line:\s*\d+\s*$/.test(current[0] as string) ||
            /^-{3,}\s*$/.test(current[0] as string))
        ) {
          current.shift();
        }
        out.push(current.join("\n"));
      } else if (inSearch) {
        current.push(line);
      }
    }
    return out.filter((t) => t.trim().length > 0);
  }
  if (lines.some((l) => l.startsWith("@@"))) {
    let current: string[] = [];
    const flush = () => {
      if (current.length > 0) out.push(current.join("\n"));
      current = [];
    };
    for (const line of lines) {
      if (line.startsWith("@@")) flush();
      else if (line.startsWith("-") && !line.startsWith("---")) {
        current.push(line.slice(1));
      }
    }
    flush();
  }
  return out;
}

/**
 * The globalStorage folder of one extension in every VS Code host.
 *
 * @param source The environment.
 * @param extensionId e.g. `saoudrizwan.claude-dev`.
 * @returns Absolute folder paths (existing or not).
 * @example
 * ```ts
 * import { extensionStorageDirs } from "./_cline_family.ts";
 * import { equal } from "node:assert/strict";
 * equal(
 *   extensionStorageDirs({ home: "/h", env: {}, os: "darwin" }, "x.y")[0],
 *   "/h/Library/Application Support/Code/User/globalStorage/x.y",
 * );
 * ```
 */
export function extensionStorageDirs(
  source: SourceEnv,
  extensionId: string,
): string[] {
  return vscodeUserDirs(source).map((user) =>
    `${user}/globalStorage/${extensionId}`
  );
}

/**
 * A family member's task folders: the path-list variable `variable` when it
 * names any, else the extension's globalStorage folder in every VS Code host
 * installed here (else in the first host, Code).
 *
 * @param source The environment.
 * @param family The member.
 * @param variable The override variable, e.g. `DEJA_ROO_ROOTS`.
 * @returns Absolute folder paths (existing or not).
 * @example
 * ```ts
 * import { storageRoots } from "./_cline_family.ts";
 * import { deepEqual } from "node:assert/strict";
 * const family = { harness: "x", extensionId: "x.y" };
 * const source = { home: "/h", env: { X_ROOTS: "/a:/b" }, os: "linux" };
 * deepEqual(storageRoots(source, family, "X_ROOTS"), ["/a", "/b"]);
 * ```
 */
export function storageRoots(
  source: SourceEnv,
  family: ClineFamily,
  variable: string,
): string[] {
  const configured = pathList(source.env[variable], source);
  if (configured.length > 0) return configured;
  // The hosts installed here (a machine has two or three of them); with
  // none, where the first would keep its tasks, to show where deja looks.
  const present = presentVscodeUserDirs(source).map((user) =>
    `${user}/globalStorage/${family.extensionId}`
  );
  return present.length > 0
    ? present
    : extensionStorageDirs(source, family.extensionId).slice(0, 1);
}

/**
 * The `ui-messages` and `api-history` kinds of one family member. Every
 * member writes the same file names, so a path holding one of `others` (a
 * folder name of another member) is left to that member.
 *
 * @param family The member.
 * @param others Path fragments that mark another member's folders.
 * @returns The two kinds.
 * @example
 * ```ts
 * import { taskKinds } from "./_cline_family.ts";
 * import { equal } from "node:assert/strict";
 * const [ui] = taskKinds({ harness: "x", extensionId: "x.y" }, ["other.ext"]);
 * equal(ui?.match("/s/x.y/tasks/1/ui_messages.json"), true);
 * equal(ui?.match("/s/other.ext/tasks/1/ui_messages.json"), false);
 * ```
 */
export function taskKinds(
  family: ClineFamily,
  others: readonly string[],
): FileKind[] {
  const ours = (path: string) => !others.some((m) => path.includes(m));
  return [
    {
      id: "ui-messages",
      appendOnly: false,
      match: (path) =>
        (baseName(path) === UI_MESSAGES ||
          baseName(path) === LEGACY_UI_MESSAGES) && ours(path),
      parse: (path, options) => parseUiMessages(path, options, family),
    },
    {
      id: "api-history",
      appendOnly: false,
      match: (path) => baseName(path) === API_HISTORY && ours(path),
      parse: (path, options) => parseApiHistory(path, options, family),
    },
  ];
}

function isTaskFile(path: string): boolean {
  return TASK_FILES.includes(baseName(path));
}

/** Whether a task folder holds a file preferred over `name`. */
async function hasBetterFile(dir: string, name: string): Promise<boolean> {
  for (const better of TASK_FILES) {
    if (better === name) return false;
    if (await isRegularFile(`${dir}/${better}`)) return true;
  }
  return false;
}

/**
 * Lists the one file to read per task directory under the given storage
 * roots: `ui_messages.json` when the task has it, else the older
 * `claude_messages.json`, else `api_conversation_history.json`.
 *
 * @param roots Extension storage folders (or folders holding `tasks/`).
 * @returns Task file paths in sorted order.
 * @example
 * ```ts
 * import { discoverTaskFiles } from "./_cline_family.ts";
 * import { equal } from "node:assert/strict";
 * const root = await Deno.makeTempDir();
 * await Deno.mkdir(`${root}/tasks/t1`, { recursive: true });
 * await Deno.writeTextFile(`${root}/tasks/t1/ui_messages.json`, "[]");
 * await Deno.writeTextFile(`${root}/tasks/t1/api_conversation_history.json`, "[]");
 * equal(discoverTaskFiles([root]).length, 1);
 * ```
 */
export function discoverTaskFiles(roots: readonly string[]): string[] {
  const seen = new Set<string>();
  const found: string[] = [];
  for (const root of roots) {
    for (const path of walkFiles(root, isTaskFile, { maxDepth: 3 })) {
      const dir = dirOf(path);
      if (seen.has(dir)) continue;
      seen.add(dir);
      const name = TASK_FILES.find((n) => isRegularFileSync(`${dir}/${n}`));
      found.push(name ? `${dir}/${name}` : path);
    }
  }
  return found;
}

/** Facts about a task kept outside its message files. */
export interface TaskMetadata {
  /** Task start, ms. */
  ts?: number;
  /** The task's first prompt (the title when the harness stores none). */
  task?: string;
  /** A title the harness stored (Roo's `title`). */
  title?: string;
  /** Working directory at the start. */
  cwd?: string;
  /** Parent task of a sub-task (Roo/Kilo `new_task`). */
  parentTaskId?: string;
  /** Side files that exist but could not be read. */
  skipped: number;
}

/** A history of tasks read from one side file. */
interface History {
  /** Task id → its history item. */
  items: Map<string, Json>;
  /** The file exists but its content is not a task history. */
  malformed: boolean;
}

interface HistoryCache {
  key: string;
  history: History;
}

const historyCache = new Map<string, HistoryCache>();

const NO_HISTORY: History = { items: new Map(), malformed: false };

/** A file's identity for the caches: mtime and size, "" when it is missing. */
async function fileKey(path: string): Promise<string> {
  try {
    const info = await Deno.stat(path);
    return info.isFile ? `${info.mtime?.getTime() ?? 0}:${info.size}` : "";
  } catch {
    return "";
  }
}

/**
 * The items of a task history: a bare array (Cline's `taskHistory.json`,
 * Kilo's `task_history.json`), Roo's `_index.json` (`{entries}`) or an
 * extension's globalState (`{taskHistory}`).
 */
function historyFrom(value: unknown): History {
  const list = Array.isArray(value)
    ? value
    : isObject(value) && Array.isArray(value.entries)
    ? value.entries
    : isObject(value) && Array.isArray(value.taskHistory)
    ? value.taskHistory
    : isObject(value)
    ? []
    : undefined;
  if (list === undefined) return { items: new Map(), malformed: true };
  const items = new Map<string, Json>();
  for (const item of list) {
    if (isObject(item) && typeof item.id === "string") items.set(item.id, item);
  }
  return { items, malformed: false };
}

/** Reads a task history file, cached by mtime and size. */
async function historyFile(path: string): Promise<History> {
  const key = await fileKey(path);
  if (!key) return NO_HISTORY;
  const cached = historyCache.get(path);
  if (cached && cached.key === key) return cached.history;
  const doc = await readJsonDocument(path, MAX_METADATA_BYTES);
  const history = doc.ok
    ? historyFrom(doc.value)
    : { items: new Map(), malformed: doc.reason !== "missing" };
  remember(path, key, history);
  return history;
}

function remember(path: string, key: string, history: History): void {
  if (historyCache.size > 16) historyCache.clear();
  historyCache.set(path, { key, history });
}

/**
 * The `taskHistory` an extension keeps in VS Code's globalState: the
 * `ItemTable` row of `User/globalStorage/state.vscdb` named by the extension
 * id, a JSON object of the extension's keys. Kilo Code keeps its history
 * only there; Cline and Roo Code did before their history files. Cached by
 * the database's and its write-ahead log's mtime and size; a store that
 * stays locked is passed over, not counted as malformed.
 */
async function globalStateHistory(
  db: string,
  extensionId: string,
): Promise<History> {
  const key = await fileKey(db);
  if (!key) return NO_HISTORY;
  const cacheKey = `${key}/${await fileKey(`${db}-wal`)}`;
  const id = `${db}#${extensionId}`;
  const cached = historyCache.get(id);
  if (cached && cached.key === cacheKey) return cached.history;
  let history: History;
  try {
    const text = await readStore(db, "VS Code", (store) => {
      if (!store.tables.has("ItemTable")) return undefined;
      for (
        const row of rows(
          store,
          `SELECT ${col("value")} FROM ItemTable WHERE key = ? COLLATE NOCASE`,
          extensionId,
        )
      ) return textColumn(row.value);
      return undefined;
    });
    history = text === undefined ? NO_HISTORY : historyFrom(parseJson(text));
  } catch (error) {
    if (error instanceof DejaError && error.code === "SRC-E004") {
      return NO_HISTORY;
    }
    history = { items: new Map(), malformed: true };
  }
  remember(id, cacheKey, history);
  return history;
}

function metadataFrom(item: Json, skipped: number): TaskMetadata {
  const meta: TaskMetadata = { skipped };
  const ts = parseTime(item.ts);
  if (ts !== undefined) meta.ts = ts;
  const task = str(item.task);
  if (task) meta.task = task;
  const title = str(item.title);
  if (title) meta.title = title;
  // Tasks from before Cline recorded the cwd name only the checkpoint work tree.
  const cwd = str(item.cwdOnTaskInitialization) ??
    str(item.workspaceRootOnTaskInitialization) ?? str(item.workspace) ??
    str(item.cwd) ?? str(item.shadowGitConfigWorkTree);
  if (cwd) meta.cwd = cwd;
  const parent = str(item.parentTaskId);
  if (parent) meta.parentTaskId = parent;
  return meta;
}

/**
 * A task's metadata: its own `history_item.json` (Roo), else its entry in the
 * storage's history — Roo's `tasks/_index.json`, Cline's
 * `state/taskHistory.json`, the Cline CLI's `taskHistory.json`, Kilo's
 * `task_history.json` — else, for a task under a VS Code host's
 * globalStorage, the extension's globalState in `state.vscdb`. A side file
 * that exists but cannot be read counts as skipped.
 *
 * @param taskDir The task directory.
 * @param extensionId The extension whose globalState to consult.
 * @returns What was found (possibly nothing).
 * @example
 * ```ts
 * import { taskMetadata } from "./_cline_family.ts";
 * import { equal } from "node:assert/strict";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/history_item.json`, JSON.stringify({ id: "t", ts: 1790000000000, workspace: "/w/app" }));
 * equal((await taskMetadata(dir)).cwd, "/w/app");
 * ```
 */
export async function taskMetadata(
  taskDir: string,
  extensionId?: string,
): Promise<TaskMetadata> {
  let skipped = 0;
  const own = await readJsonDocument(`${taskDir}/history_item.json`, 1 << 20);
  if (own.ok && isObject(own.value)) return metadataFrom(own.value, 0);
  if (own.ok || own.reason !== "missing") skipped++;
  const id = baseName(taskDir);
  const storage = dirOf(dirOf(taskDir));
  for (
    const candidate of [
      `${dirOf(taskDir)}/_index.json`,
      `${storage}/state/taskHistory.json`,
      `${storage}/taskHistory.json`,
      `${storage}/task_history.json`,
    ]
  ) {
    const history = await historyFile(candidate);
    if (history.malformed) skipped++;
    const item = history.items.get(id);
    if (item) return metadataFrom(item, skipped);
  }
  if (
    extensionId && baseName(storage).toLowerCase() === extensionId.toLowerCase()
  ) {
    const history = await globalStateHistory(
      `${dirOf(storage)}/state.vscdb`,
      extensionId,
    );
    if (history.malformed) skipped++;
    const item = history.items.get(id);
    if (item) return metadataFrom(item, skipped);
  }
  return { skipped };
}

/** Unwraps the envelopes the family puts around what a person typed. */
function unwrapUser(text: string): string {
  const out = text.replace(/<\/?(task|feedback|answer|user_message)>/g, "");
  // No open tag ends after the last `>`: the regex is not tried from each
  // `<user_input` there (each read on to the end of the text).
  const lastGt = out.lastIndexOf(">") + 1;
  return out.slice(0, lastGt)
    .replace(/<user_input\b[^>]*>|<\/user_input>/g, "") + out.slice(lastGt);
}

function speech(text: string): string {
  return cleanSpeech(
    stripBlocks(text.replace(ENV_DETAILS, ""), THINKING),
  );
}

function parseJsonObject(text: unknown): Json | undefined {
  if (typeof text !== "string" || !text.startsWith("{")) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function emptyResult(skipped = 0): ParseResult {
  return { sessions: [], skipped };
}

/** Per-parse state common to both task files. */
interface TaskContext {
  builder: SessionBuilder;
  flags: RecordFlags | undefined;
  /** Which extension wrote the task. */
  family: ClineFamily;
  /** Side files that could not be read. */
  skipped: number;
}

/** Sets up the session of a task: id, cwd, title, lineage. */
async function openTask(
  path: string,
  options: ParseOptions,
  family: ClineFamily,
): Promise<TaskContext | undefined> {
  const taskDir = dirOf(path);
  const id = baseName(taskDir);
  const meta = await taskMetadata(taskDir, family.extensionId);
  // A task is never its own parent, whatever a history item says.
  const parent = meta.parentTaskId !== id ? meta.parentTaskId : undefined;
  const sub = parent !== undefined;
  if (sub && !options.includeSubagents) return undefined;
  const builder = new SessionBuilder({
    harness: family.harness,
    id,
    path,
    cwd: meta.cwd,
    parent,
    lineage: sub ? "subagent" : undefined,
  });
  const title = meta.title ?? meta.task;
  if (title) builder.setTitle(title);
  builder.touch(meta.ts);
  return {
    builder,
    flags: sub ? { subagent: true } : undefined,
    family,
    skipped: meta.skipped,
  };
}

function withFlags(
  flags: RecordFlags | undefined,
  extra?: RecordFlags,
): { flags?: RecordFlags } {
  const merged: RecordFlags = { ...flags, ...extra };
  return merged.subagent || merged.isError || merged.truncated
    ? { flags: merged }
    : {};
}

/** Marks a record as error output. */
function flagError(record: SessionRecord): void {
  record.flags = { ...record.flags, isError: true };
}

/** The messages of an API history: a bare array, or Roo's `{version: 2, messages}`. */
function apiMessages(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  return isObject(value) && Array.isArray(value.messages)
    ? value.messages
    : undefined;
}

/**
 * The text of a tool result in any of the family's shapes: Anthropic
 * `content` (a string or text blocks) or an AI SDK `output` (`{type: "text"
 * | "error-text", value}`, `{type: "json", value}`, `{type: "content",
 * value: [parts]}`).
 */
function resultText(block: Json): string {
  if (block.type !== "tool-result") return blockText(block.content);
  const output = block.output;
  if (typeof output === "string") return output;
  if (!isObject(output)) return "";
  const value = output.value;
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return blockText(value);
  return value === undefined ? "" : JSON.stringify(value);
}

/** Whether an AI SDK tool result says it failed (`error-*` output, `[ERROR]`). */
function resultFailed(block: Json, text: string): boolean {
  if (block.is_error === true) return true;
  const output = block.output;
  return (isObject(output) && typeof output.type === "string" &&
    output.type.startsWith("error")) || text.trimStart().startsWith("[ERROR]");
}

/** A shell command's result as the model was sent it. */
interface CommandResult {
  /** The command as the call wrote it. */
  command: string;
  /** The result text, environment details removed. */
  text: string;
}

/** What a task's API history adds to its panel messages. */
interface ApiSide {
  /** Shell command results, in order. */
  commands: CommandResult[];
  /** The working directory its environment details name. */
  cwd?: string;
}

/**
 * Reads the shell command results and the working directory from a task's
 * API history (the legacy array or Roo's v2 envelope): results paired with
 * their `execute_command` call by id (`tool_use`/`tool_result`,
 * `tool-call`/`tool-result`), or named in an `[execute_command for '…']
 * Result:` text.
 */
async function apiSide(taskDir: string): Promise<ApiSide> {
  const doc = await readJsonDocument(`${taskDir}/${API_HISTORY}`);
  const messages = doc.ok ? apiMessages(doc.value) : undefined;
  const side: ApiSide = { commands: [] };
  if (!messages) return side;
  const calls = new Map<string, string>();
  const texts = (m: Json): unknown[] =>
    Array.isArray(m.content) ? m.content : [{ type: "text", text: m.content }];
  for (const m of messages) {
    if (!isObject(m)) continue;
    // Older versions put `[tool] Result:` and the result in separate blocks.
    let headless: CommandResult | undefined;
    for (const block of texts(m)) {
      if (!isObject(block)) continue;
      if (headless && block.type === "text" && typeof block.text === "string") {
        headless.text = block.text.replace(ENV_DETAILS, "").trim();
        headless = undefined;
        continue;
      }
      headless = undefined;
      if (block.type === "tool_use" || block.type === "tool-call") {
        const id = str(block.id) ?? str(block.toolCallId);
        const name = str(block.name) ?? str(block.toolName);
        const input = isObject(block.input)
          ? block.input
          : parseJsonObject(block.input) ?? {};
        const command = str(input.command);
        if (id && command && name && DIALECT.shell.has(name)) {
          calls.set(id, command);
        }
      } else if (block.type === "tool_result" || block.type === "tool-result") {
        const id = str(block.tool_use_id) ?? str(block.toolCallId);
        const command = id ? calls.get(id) : undefined;
        if (command) {
          const text = resultText(block).replace(ENV_DETAILS, "").trim();
          side.commands.push({ command, text });
        }
      } else if (block.type === "text" && typeof block.text === "string") {
        if (side.cwd === undefined) {
          const cwd = CWD_LINE.exec(block.text);
          if (cwd) side.cwd = (cwd[1] as string).trim();
        }
        const head = RESULT_HEAD.exec(block.text);
        if (head && head[1] === "execute_command" && head[2]) {
          const result: CommandResult = {
            command: head[2].replace(/^'([\s\S]*)'$/, "$1"),
            text: block.text.slice(head[0].length).replace(ENV_DETAILS, "")
              .trim(),
          };
          side.commands.push(result);
          if (!result.text) headless = result;
        }
      }
    }
  }
  return side;
}

/** What a command result printed: the text after its `Output:` line. */
function commandOutput(result: string): string {
  const at = /(?:^|\n)Output:\n/.exec(result);
  return at ? result.slice(at.index + at[0].length).trim() : "";
}

/** Tools (as the panel names them) that change a file. */
const EDIT_TOOLS = new Set([
  "editedExistingFile",
  "appliedDiff",
  "newFileCreated",
  "fileDeleted",
  "searchAndReplace",
  "insertContent",
  "writeToFile",
  "multiApplyDiff",
]);

/** Tools (as the panel names them) that read a file. */
const READ_TOOLS = new Set(["readFile", "fetchInstructions"]);

/**
 * Web tools (as the panel names them) and their model-facing names: the URL
 * or query they were given becomes a command of that name.
 */
const WEB_TOOLS: ReadonlyMap<string, string> = new Map([
  ["webFetch", "web_fetch"],
  ["webSearch", "web_search"],
]);

/** Web tools (model-facing names) and the argument naming what they read. */
const WEB_ARGS: ReadonlyMap<string, string> = new Map([
  ["web_fetch", "url"],
  ["web_search", "query"],
]);

/**
 * The items of a `task_progress` checklist (`- [ ] item`, `- [x] item`), the
 * bullet and box dropped; a line without a bullet is kept as written.
 */
function checklistItems(text: string): string[] {
  const items: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const item = line
      .replace(/^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX~-]?\]\s*)?/, "")
      .trim();
    if (item) items.push(item);
  }
  return items;
}

/**
 * A `[read_file for '…'] Result:` head in a request's text, where one of
 * its blocks starts (blocks are joined by a blank line).
 */
const READ_HEAD = /(?:^|\n\n)\[read_file for '([^\n]*?)'\] Result:/g;

/**
 * Where the block after a tool's result starts in a request's text: the
 * next result, or the context Cline adds after the results.
 */
const RESULT_END =
  /\n\n(?=\[[\w-]+(?: for [^\n]*?)?\] Result:|<environment_details>|# task_progress|# TODO LIST|<feedback>|The user has provided feedback|\[TASK RESUMPTION\])/g;

/** How Cline words a tool's failure in its result. */
const TOOL_ERROR = /^The tool execution failed\b/;

/**
 * The files a request returns to the model (`[read_file for 'path']
 * Result:` and the text read), in order.
 */
function readResults(request: string): Array<{ path: string; text: string }> {
  const out: Array<{ path: string; text: string }> = [];
  for (const head of request.matchAll(READ_HEAD)) {
    const start = head.index + head[0].length;
    RESULT_END.lastIndex = start;
    const end = RESULT_END.exec(request)?.index ?? request.length;
    // Not ENV_DETAILS: a file that mentions the tag would lose its rest.
    const text = request.slice(start, end).trim();
    if (text) out.push({ path: head[1] as string, text });
  }
  return out;
}

/**
 * Messages that report a failure, and the tool each failure is of: a
 * command the configured permissions refused (it never ran), a context
 * condensing that failed (the model's request for a summary), a file the
 * ignore file keeps from the agent (the path it was refused), an edit whose
 * SEARCH text did not match (Cline names the file, Roo and Kilo the
 * reason), a model request that failed.
 */
const FAILURE_TOOLS: ReadonlyMap<string, string> = new Map([
  ["command_permission_denied", "execute_command"],
  ["condense_context_error", "model"],
  ["clineignore_error", "clineignore"],
  ["rooignore_error", "rooignore"],
  ["diff_error", "edit"],
  ["api_req_failed", "model"],
]);

class UiReader {
  #ctx: TaskContext;
  #path: string;
  #output: { parts: string[]; locator: Locator; time?: number } | undefined;
  /** The last command still waiting for the exit code a request reports. */
  #command: SessionRecord | undefined;
  /** The latest command and its output record. */
  #run: { command: SessionRecord; output?: SessionRecord } | undefined;
  /** What the API history says the latest command printed, until its output is due. */
  #apiOutput: { parts: string[]; locator: Locator; time?: number } | undefined;
  /** Command results from the API history, not yet paired with a command. */
  #results: CommandResult[];
  /** The MCP tool the latest request named (`mcp__server__tool`). */
  #mcpTool: string | undefined;
  /** Sub-agent prompts recorded since the last status report. */
  #prompts = new Set<string>();
  #sawRequest = false;
  #sawUser = false;
  #cwdFound = false;
  #filesSeen = new Set<string>();
  /** The `task_progress` items already kept (each list is written whole). */
  #planItems = new Set<string>();
  skipped = 0;

  constructor(
    ctx: TaskContext,
    path: string,
    cwdKnown: boolean,
    results: CommandResult[],
  ) {
    this.#ctx = ctx;
    this.#path = path;
    this.#cwdFound = cwdKnown;
    this.#results = results;
  }

  get #b(): SessionBuilder {
    return this.#ctx.builder;
  }

  #add(
    role: SessionRecord["role"],
    text: string,
    locator: Locator,
    time: number | undefined,
    extra?: { tool?: string; flags?: RecordFlags },
  ): SessionRecord | undefined {
    const body = text.trim();
    const last = this.#b.records.at(-1);
    // The panel sometimes repeats a message verbatim a moment later, and a
    // retried request fails the same way again.
    if (
      last && last.role === role && last.text === body &&
      (role === "user" || role === "assistant" || role === "command" ||
        (extra?.flags?.isError && last.tool === extra.tool))
    ) {
      return undefined;
    }
    return this.#b.add(role, body, {
      locator,
      time,
      tool: extra?.tool,
      ...withFlags(this.#ctx.flags, extra?.flags),
    });
  }

  /**
   * Ends a command's output: the streamed chunks as one record, else what
   * the API history says it printed; flagged an error when the command's
   * exit code is not 0.
   */
  #flushOutput(): void {
    const streamed = this.#output;
    const out = streamed && streamed.parts.length > 0
      ? streamed
      : this.#apiOutput ?? streamed;
    this.#output = undefined;
    this.#apiOutput = undefined;
    if (!out) return;
    const record = this.#add(
      "tool-output",
      out.parts.join("\n"),
      out.locator,
      out.time,
      { tool: "execute_command" },
    );
    const run = this.#run;
    if (!record || !run || run.output) return;
    run.output = record;
    const code = run.command.exitCode;
    if (code !== undefined && code !== 0) flagError(record);
  }

  /** Sets a command's exit code, flagging its output when it failed. */
  #settle(command: SessionRecord, code: number): void {
    command.exitCode = code;
    const output = this.#run?.command === command
      ? this.#run.output
      : undefined;
    if (output && code !== 0) flagError(output);
  }

  message(m: unknown, index: number): void {
    if (!isObject(m)) {
      this.skipped++;
      return;
    }
    const kind = m.type === "ask"
      ? m.ask
      : m.type === "say"
      ? m.say
      : undefined;
    if (typeof kind !== "string") {
      this.skipped++;
      return;
    }
    const time = parseTime(m.ts);
    const locator: Locator = { path: this.#path, recordId: String(index) };
    const text = typeof m.text === "string" ? m.text : "";
    if (kind === "command_output") {
      this.#ownExitCode(m.exitCode);
      if (!this.#output) this.#output = { parts: [], locator };
      if (time !== undefined && this.#output.time === undefined) {
        this.#output.time = time;
      }
      if (text.length > 0) this.#output.parts.push(text);
      return;
    }
    this.#flushOutput();
    const failed = FAILURE_TOOLS.get(kind);
    if (failed) {
      this.#add("tool-output", text, locator, time, {
        tool: failed,
        flags: { isError: true },
      });
      return;
    }
    switch (kind) {
      case "task":
        this.#user(text, locator, time);
        return;
      case "text":
        if (m.type === "say" && !this.#sawUser && !this.#sawRequest) {
          this.#user(text, locator, time);
        } else {
          this.#add("assistant", speech(text), locator, time);
        }
        return;
      case "user_feedback":
        this.#user(text, locator, time);
        return;
      case "completion_result":
        this.#add(
          "assistant",
          speech(text.replace(HAS_CHANGES, "")),
          locator,
          time,
        );
        return;
      case "followup": {
        const obj = parseJsonObject(text);
        const question = obj ? str(obj.question) ?? "" : text;
        this.#add("assistant", speech(question), locator, time);
        return;
      }
      case "plan_mode_respond":
      case "act_mode_respond": {
        const obj = parseJsonObject(text);
        const response = obj ? str(obj.response) ?? "" : text;
        this.#add("assistant", speech(response), locator, time);
        return;
      }
      case "command":
        this.#commandMessage(text.replace(REQ_APP, ""), locator, time);
        this.#ownExitCode(m.exitCode);
        return;
      case "tool":
        this.#tool(text, m.partial === true, locator, time);
        return;
      case "api_req_started":
        this.#request(text, locator, time);
        return;
      case "task_progress":
        this.#plan(text, locator, time);
        return;
      case "use_mcp_server":
        this.#mcpRequest(text, locator, time);
        return;
      case "mcp_server_response":
        this.#add("tool-output", text, locator, time, {
          tool: this.#mcpTool ?? "mcp",
        });
        return;
      case "use_subagents":
        this.#subagentPrompts(
          list(parseJsonObject(text)?.prompts),
          locator,
          time,
        );
        return;
      case "subagent":
        // A partial status is one the panel was still updating.
        if (m.partial !== true) this.#subagentResults(text, locator, time);
        return;
      case "new_task":
        // Cline's hand-off: the context the next task starts from.
        this.#add("summary", speech(text), locator, time);
        return;
      case "subtask_result":
        this.#add("tool-output", text, locator, time, { tool: "new_task" });
        return;
      case "error":
        this.#add("tool-output", text, locator, time, {
          tool: this.#ctx.family.harness,
          flags: { isError: true },
        });
        return;
      case "hook_status":
        this.#hook(text, locator, time);
        return;
      case "condense_context": {
        const condense = isObject(m.contextCondense) ? m.contextCondense : {};
        this.#add(
          "summary",
          speech(str(condense.summary) ?? ""),
          locator,
          time,
        );
        return;
      }
      case "condense":
        this.#add("summary", speech(text), locator, time);
        return;
      default:
        return;
    }
  }

  /**
   * The exit code newer Cline builds keep on the command message itself (or
   * on its output), which wins over what a later request reports.
   */
  #ownExitCode(code: unknown): void {
    const command = this.#run?.command;
    if (typeof code !== "number" || !Number.isInteger(code) || !command) return;
    this.#settle(command, code);
    if (this.#command === command) this.#command = undefined;
  }

  #user(text: string, locator: Locator, time: number | undefined): void {
    const record = this.#add("user", speech(unwrapUser(text)), locator, time);
    if (record) this.#sawUser = true;
  }

  /**
   * A command, with the exit code and output of the first API-history result
   * of the same command not yet taken.
   */
  #commandMessage(
    text: string,
    locator: Locator,
    time: number | undefined,
  ): void {
    const record = this.#add("command", text, locator, time, {
      tool: "execute_command",
    });
    if (!record) return;
    this.#command = record;
    this.#run = { command: record };
    const at = this.#results.findIndex((r) => r.command.trim() === record.text);
    if (at < 0) return;
    const result = this.#results.splice(at, 1)[0] as CommandResult;
    const code = commandExitCode(result.text);
    if (code !== undefined) {
      record.exitCode = code;
      this.#command = undefined;
    }
    const printed = commandOutput(result.text);
    if (printed) {
      this.#apiOutput = { parts: [printed], locator };
      if (time !== undefined) this.#apiOutput.time = time;
    }
  }

  #request(text: string, locator: Locator, time: number | undefined): void {
    this.#sawRequest = true;
    const info = parseJsonObject(text);
    // A request whose stream broke off (a reset connection, a provider
    // error mid-answer) keeps the failure only here; the retry notice that
    // follows is left out.
    const broke = info ? str(info.streamingFailedMessage) : undefined;
    if (broke && info?.cancelReason !== "user_cancelled") {
      this.#add("tool-output", broke, locator, time, {
        tool: "model",
        flags: { isError: true },
      });
    }
    const request = info ? str(info.request) : undefined;
    if (!request) return;
    this.#filesSeen.clear();
    // What the agent read: the panel shows only the path.
    for (const read of readResults(request)) {
      this.#add("tool-output", read.text, locator, time, {
        tool: "read_file",
        ...(TOOL_ERROR.test(read.text) ? { flags: { isError: true } } : {}),
      });
    }
    if (!this.#cwdFound) {
      const m = CWD_LINE.exec(request);
      if (m) {
        this.#cwdFound = true;
        this.#b.setCwd((m[1] as string).trim());
      }
    }
    const command = this.#command;
    if (command && command.exitCode === undefined) {
      const at = request.indexOf("[execute_command for ");
      if (at >= 0) {
        const result = request.slice(at, at + 4000).replace(ENV_DETAILS, "");
        const code = commandExitCode(result);
        if (code !== undefined) this.#settle(command, code);
        this.#command = undefined;
      }
    }
  }

  /**
   * A `task_progress` checklist: the agent's plan, in its words. Cline
   * writes the whole list again with each step, so only items not kept
   * before are added.
   */
  #plan(text: string, locator: Locator, time: number | undefined): void {
    const added: string[] = [];
    for (const item of checklistItems(text)) {
      if (this.#planItems.has(item)) continue;
      this.#planItems.add(item);
      added.push(item);
    }
    if (added.length === 0) return;
    this.#add("assistant", added.join("\n"), locator, time, {
      tool: "task_progress",
    });
  }

  /**
   * An MCP request (`{serverName, toolName, arguments}` or a resource's
   * `uri`) as a command named `mcp__server__tool`, its response to follow.
   */
  #mcpRequest(text: string, locator: Locator, time: number | undefined): void {
    const req = parseJsonObject(text);
    const server = req ? str(req.serverName) : undefined;
    if (!req || !server) return;
    const tool = str(req.toolName);
    this.#mcpTool = tool ? `mcp__${server}__${tool}` : `mcp__${server}`;
    const call = tool
      ? [server, tool, compactJson(str(req.arguments) ?? "")]
      : [server, str(req.uri) ?? ""];
    this.#add("command", call.join(" "), locator, time, {
      tool: this.#mcpTool,
    });
  }

  /**
   * The prompts given to sub-agents, each once: what the agent asked of
   * them, so assistant speech.
   */
  #subagentPrompts(
    prompts: unknown[],
    locator: Locator,
    time: number | undefined,
  ): void {
    for (const prompt of prompts) {
      if (typeof prompt !== "string" || this.#prompts.has(prompt)) continue;
      this.#prompts.add(prompt);
      this.#add("assistant", speech(prompt), locator, time);
    }
  }

  /**
   * A sub-agent run's final status (`{items: [{prompt, status, result,
   * error}]}`): each result, or error, as tool-output.
   */
  #subagentResults(
    text: string,
    locator: Locator,
    time: number | undefined,
  ): void {
    const items = list(parseJsonObject(text)?.items).filter(isObject);
    this.#subagentPrompts(items.map((i) => i.prompt), locator, time);
    this.#prompts.clear();
    for (const item of items) {
      const failed = item.status === "failed" || !str(item.result);
      this.#add(
        "tool-output",
        (failed ? str(item.error) : str(item.result)) ?? "",
        locator,
        time,
        {
          tool: "use_subagents",
          ...(failed ? { flags: { isError: true } } : {}),
        },
      );
    }
  }

  /** A hook that failed (`{hookName, toolName, status, error}`) as error output. */
  #hook(text: string, locator: Locator, time: number | undefined): void {
    const hook = parseJsonObject(text);
    if (!hook || hook.status !== "failed") return;
    const error = isObject(hook.error) ? hook.error : {};
    const name = str(hook.hookName) ?? "hook";
    const on = str(hook.toolName);
    const lines = [
      `${name} hook${on ? ` on ${on}` : ""} failed`,
      str(error.message),
      str(error.details),
    ];
    this.#add("tool-output", lines.filter(Boolean).join("\n"), locator, time, {
      tool: "hook",
      flags: { isError: true },
    });
  }

  #tool(
    text: string,
    partial: boolean,
    locator: Locator,
    time: number | undefined,
  ): void {
    // A partial tool message is one the panel was still streaming.
    if (partial) return;
    const tool = parseJsonObject(text);
    if (!tool) return;
    const name = str(tool.tool) ?? "tool";
    if (name === "summarizeTask") {
      // Cline's auto-compaction: the summary the task continues from.
      const content = str(tool.content);
      if (content) this.#add("summary", speech(content), locator, time);
      return;
    }
    if (name === "newTask") {
      // What the agent asked of the sub-task it delegates to.
      const message = str(tool.content) ?? str(tool.message) ?? "";
      this.#add("assistant", speech(message), locator, time);
      return;
    }
    const web = WEB_TOOLS.get(name);
    if (web) {
      // Cline names the URL fetched or the query searched in `path`.
      const target = str(tool.path);
      if (target) this.#add("command", target, locator, time, { tool: web });
      return;
    }
    if (name === "searchFiles") {
      // The search (regex, where, which files) as a command, the matches as
      // its output.
      const regex = str(tool.regex);
      if (!regex) return;
      const where = [str(tool.path), str(tool.filePattern)]
        .filter((s): s is string => s !== undefined && s.trim().length > 0);
      const command = this.#add(
        "command",
        [regex, ...where].join(" "),
        locator,
        time,
        { tool: name },
      );
      const content = str(tool.content);
      if (command && content?.trim()) {
        this.#add("tool-output", content, locator, time, { tool: name });
      }
      return;
    }
    const entries: Json[] = [];
    if (Array.isArray(tool.batchDiffs)) {
      for (const d of tool.batchDiffs) if (isObject(d)) entries.push(d);
    } else if (Array.isArray(tool.batchFiles)) {
      for (const f of tool.batchFiles) if (isObject(f)) entries.push(f);
    } else entries.push(tool);
    const edits = EDIT_TOOLS.has(name);
    if (!edits && !READ_TOOLS.has(name)) return;
    for (const entry of entries) {
      const path = str(entry.path);
      if (!path) continue;
      const key = `${edits ? "write" : "read"}:${path}`;
      if (!this.#filesSeen.has(key)) {
        this.#filesSeen.add(key);
        this.#add("files", path, locator, time, { tool: name });
      }
      if (!edits || name === "newFileCreated") continue;
      const texts: string[] = [];
      for (const key of ["diff", "content"]) {
        const v = entry[key];
        if (typeof v === "string") texts.push(v);
      }
      if (Array.isArray(entry.diffs)) {
        for (const d of entry.diffs) {
          if (isObject(d) && typeof d.content === "string") {
            texts.push(d.content);
          }
        }
      }
      const removed = new Set<string>();
      for (const t of texts) for (const r of removedBlocks(t)) removed.add(r);
      for (const r of removed) addEdit(this.#ctx, path, r, name, locator, time);
    }
  }

  finish(): void {
    this.#flushOutput();
  }
}

/** JSON text made compact (one line), other text trimmed. */
function compactJson(text: string): string {
  const value = parseJson(text);
  return value === undefined ? text.trim() : JSON.stringify(value);
}

function addEdit(
  ctx: TaskContext,
  path: string,
  removed: string,
  tool: string,
  locator: Locator,
  time: number | undefined,
): void {
  const body = editBody(path, removed);
  ctx.builder.add("edit", body.text, {
    locator,
    time,
    tool,
    ...withFlags(ctx.flags, body.truncated ? { truncated: true } : undefined),
  });
}

/**
 * Parses a task's `ui_messages.json` (or Claude Dev's `claude_messages.json`,
 * when there is no `ui_messages.json`): the task and follow-ups as user
 * records, the model's text, questions and completion results as assistant
 * records, Cline's `task_progress` checklists as assistant plan text (each
 * item once), commands (with the exit code the next request reports, or,
 * where requests no longer carry it — Roo and Kilo — the API history's
 * result of the same command), their streamed output as one tool-output
 * record (flagged an error when the exit code is not 0; the API history's
 * output when the panel shows none), file reads and edits as files and edit
 * records, the text a read returned (`[read_file for '…'] Result:` in the
 * next request) and a file search's matches as tool-output, the search
 * itself (`searchFiles`: regex, path, file pattern) as a command, MCP requests as commands named `mcp__server__tool` and their
 * responses as tool-output, web fetches and searches as commands, what the agent asked of sub-agents and sub-tasks
 * as assistant records and their results as tool-output, errors, failed API
 * requests (tool `model`) and failed hooks as error tool-output, condensed
 * context and Cline's `new_task` hand-off as summary. Reasoning, checkpoints
 * and API bookkeeping are left out.
 *
 * @param path The `ui_messages.json` file.
 * @param options Parse options (sub-agent switch).
 * @param family Which extension wrote it.
 * @returns The task's session (none for an empty or unreadable file).
 * @example
 * ```ts
 * import { parseUiMessages } from "./_cline_family.ts";
 * import { equal } from "node:assert/strict";
 * const dir = await Deno.makeTempDir();
 * await Deno.mkdir(`${dir}/tasks/t1`, { recursive: true });
 * const path = `${dir}/tasks/t1/ui_messages.json`;
 * await Deno.writeTextFile(path, JSON.stringify([
 *   { ts: 1790000000000, type: "say", say: "task", text: "add a README" },
 *   { ts: 1790000005000, type: "say", say: "completion_result", text: "Added it." },
 * ]));
 * const source = { home: dir, env: {}, os: "linux" };
 * const { sessions } = await parseUiMessages(path, { includeSubagents: true, source }, { harness: "cline", extensionId: "x" });
 * equal(sessions[0]?.records.map((r) => r.role).join(","), "user,assistant");
 * ```
 */
export async function parseUiMessages(
  path: string,
  options: ParseOptions,
  family: ClineFamily,
): Promise<ParseResult> {
  if (await hasBetterFile(dirOf(path), baseName(path))) return emptyResult();
  const doc = await readJsonDocument(path);
  if (!doc.ok) return emptyResult(doc.reason === "missing" ? 0 : 1);
  if (!Array.isArray(doc.value)) return emptyResult(1);
  const ctx = await openTask(path, options, family);
  if (!ctx) return emptyResult();
  const messages = doc.value;
  const cwdKnown = ctx.builder.build().cwd !== undefined;
  // Roo and Kilo requests no longer carry what the model was sent: command
  // results and the working directory are in the API history instead.
  const bare = !messages.some((m) =>
    isObject(m) && m.say === "api_req_started" &&
    str(parseJsonObject(m.text)?.request) !== undefined
  );
  const needsApi = bare &&
    (!cwdKnown ||
      messages.some((m) =>
        isObject(m) && (m.ask === "command" || m.say === "command")
      ));
  const side: ApiSide = needsApi
    ? await apiSide(dirOf(path))
    : { commands: [] };
  const reader = new UiReader(ctx, path, cwdKnown, side.commands);
  messages.forEach((m, i) => reader.message(m, i));
  reader.finish();
  if (side.cwd && ctx.builder.build().cwd === undefined) {
    ctx.builder.setCwd(side.cwd);
  }
  const session = ctx.builder.build();
  return {
    sessions: session.records.length > 0 ? [session] : [],
    skipped: reader.skipped + ctx.skipped,
  };
}

/** Tools (model-facing names) and how their arguments map to records. */
const DIALECT = {
  shell: new Set(["execute_command"]),
  commandKeys: ["command"],
  pathTools: new Set([
    "read_file",
    "write_to_file",
    "replace_in_file",
    "apply_diff",
    "insert_content",
    "search_and_replace",
    "edit_file",
    "read_files",
    "editor",
    "new_rule",
  ]),
  pathKeys: ["path", "file_path", "absolutePath"],
  pathListKeys: ["files", "paths", "file_paths"],
  // Roo's edit tools: `edit_file` (a variant by model), `search_replace`,
  // `search_and_replace` (`edits` of `old_text`) and `edit`.
  editTools: new Set([
    "editor",
    "search_and_replace",
    "search_replace",
    "edit_file",
    "edit",
  ]),
  oldKeys: ["old_text", "old_str", "old_string", "search"],
  editListKey: "edits",
};

/** `[tool for 'x'] Result:`: how the legacy format returns a tool's result. */
const RESULT_HEAD = /^\s*\[([\w-]+)(?: for ([\s\S]*?))?\] Result:/;

/** Tools whose result is the person's answer, not tool output. */
const ANSWER_TOOLS = new Set([
  "attempt_completion",
  "ask_followup_question",
  "plan_mode_respond",
]);

/**
 * Compaction tools: their call holds the summary; their result only repeats
 * it with instructions to continue.
 */
const SUMMARY_TOOLS = new Set(["summarize_task", "condense"]);

/** Tools whose `diff` argument holds SEARCH blocks or a unified diff. */
const DIFF_TOOLS = new Set(["replace_in_file", "apply_diff", "edit_file"]);

/** The XML tool calls older Cline/Roo models wrote into their text. */
const XML_TOOL_NAMES =
  /(execute_command|write_to_file|replace_in_file|apply_diff|read_file|insert_content|search_and_replace|attempt_completion|ask_followup_question|plan_mode_respond|new_task|list_files|search_files|list_code_definition_names|browser_action|use_mcp_tool|access_mcp_resource|switch_mode|update_todo_list|fetch_instructions|codebase_search|new_rule|condense|summarize_task|web_fetch|web_search|load_mcp_documentation|focus_chain|attempt_completion_result)/
    .source;
const XML_TOOL_OPEN = new RegExp(`<${XML_TOOL_NAMES}>`, "g");
const XML_TOOL_CLOSE = new RegExp(`</${XML_TOOL_NAMES}>`, "g");

/** A tool call's `<name>value</name>` parameters (the first of each name). */
function xmlParams(body: string): Json {
  const params: Json = {};
  for (const b of findBlocks(body, /<(\w+)>/g, /<\/(\w+)>/g, SAME_NAME)) {
    if (params[b.name] === undefined) params[b.name] = b.body.trim();
  }
  return params;
}

const SAME_NAME = { sameName: true };

function blockText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  for (const block of content) {
    if (typeof block === "string") parts.push(block);
    else if (isObject(block) && typeof block.text === "string") {
      parts.push(block.text);
    }
  }
  return parts.join("\n");
}

/** How a message file's plain user text is to be read. */
interface ConversationMode {
  /** Plain user text after the first message is a person's (SDK). */
  plainUserTextIsSpeech: boolean;
  /** Synthetic time base for messages without `ts`. */
  baseTime: number | undefined;
}

/** Where and when a message was written. */
type At = { locator: Locator; time: number | undefined };

/** The prompts a `use_subagents` call carries (`prompt`, `prompt_1`…`prompt_5`). */
function promptsOf(args: Json): string[] {
  return ["prompt", "prompt_1", "prompt_2", "prompt_3", "prompt_4", "prompt_5"]
    .map((key) => str(args[key])?.trim())
    .filter((p): p is string => !!p);
}

/** A list argument that may arrive as a JSON-encoded string (the SDK's). */
function stringList(value: unknown): string[] | undefined {
  const parsed = typeof value === "string" && value.trimStart().startsWith("[")
    ? parseJson(value)
    : value;
  return Array.isArray(parsed)
    ? parsed.filter((v): v is string => typeof v === "string")
    : undefined;
}

/**
 * An MCP call's record name and text: `use_mcp_tool`/`access_mcp_resource`
 * (`server_name`, `tool_name`, `arguments`, `uri`) and Roo's native
 * `mcp--server--tool`, named `mcp__server__tool`.
 */
function mcpCall(
  name: string,
  args: Json,
): { tool: string; text: string } | undefined {
  const native = /^mcp--(.+?)--(.+)$/.exec(name);
  if (native) {
    const [, server, tool] = native as unknown as [string, string, string];
    return {
      tool: `mcp__${server}__${tool}`,
      text: `${server} ${tool} ${JSON.stringify(args)}`,
    };
  }
  const server = str(args.server_name);
  if (!server) return undefined;
  if (name === "use_mcp_tool") {
    const tool = str(args.tool_name) ?? "";
    const input = args.arguments;
    const text = typeof input === "string"
      ? compactJson(input)
      : JSON.stringify(input ?? {});
    return {
      tool: `mcp__${server}__${tool}`,
      text: `${server} ${tool} ${text}`,
    };
  }
  return name === "access_mcp_resource"
    ? { tool: `mcp__${server}`, text: `${server} ${str(args.uri) ?? ""}` }
    : undefined;
}

/**
 * Reads model-facing messages — the legacy API history and the SDK file
 * (Anthropic blocks), Roo's v2 envelope (AI SDK `tool-call`/`tool-result`
 * parts, results in `role: "tool"` messages).
 */
class ConversationReader {
  #ctx: TaskContext;
  #path: string;
  #mode: ConversationMode;
  #tools: ToolRecorder;
  #lastCommand: SessionRecord | undefined;
  /** run_commands calls: id → their command records, in order. */
  #batches = new Map<string, SessionRecord[]>();
  #cwdFound: boolean;
  #sawUser = false;
  skipped = 0;

  constructor(ctx: TaskContext, path: string, mode: ConversationMode) {
    this.#ctx = ctx;
    this.#path = path;
    this.#mode = mode;
    this.#tools = new ToolRecorder(ctx.builder, DIALECT);
    this.#cwdFound = ctx.builder.build().cwd !== undefined;
  }

  message(m: unknown, index: number): void {
    if (
      !isObject(m) ||
      (m.role !== "user" && m.role !== "assistant" && m.role !== "tool")
    ) {
      this.skipped++;
      return;
    }
    const locator: Locator = {
      path: this.#path,
      recordId: str(m.id) ?? String(index),
    };
    const time = parseTime(m.ts) ??
      (this.#mode.baseTime === undefined
        ? undefined
        : this.#mode.baseTime + index * 1000);
    const at = { locator, time, flags: this.#ctx.flags };
    const blocks: unknown[] = Array.isArray(m.content) ? m.content : [{
      type: "text",
      text: typeof m.content === "string" ? m.content : "",
    }];
    if (m.role === "assistant") this.#assistant(blocks, at);
    else this.#user(blocks, at, index);
  }

  #speak(role: "user" | "assistant", text: string, at: At): void {
    const record = this.#ctx.builder.add(role, text, {
      locator: at.locator,
      time: at.time,
      ...withFlags(this.#ctx.flags),
    });
    if (record && role === "user") this.#sawUser = true;
  }

  #assistant(blocks: unknown[], at: At): void {
    this.#tools.newMessage();
    for (const block of blocks) {
      if (!isObject(block)) continue;
      if (block.type === "text" && typeof block.text === "string") {
        this.#assistantText(block.text, at);
      } else if (block.type === "tool_use") {
        const name = str(block.name);
        if (name) this.#toolCall(str(block.id), name, block.input, at);
      } else if (block.type === "tool-call") {
        const name = str(block.toolName);
        if (name) this.#toolCall(str(block.toolCallId), name, block.input, at);
      }
    }
  }

  #assistantText(text: string, at: At): void {
    const blocks = findBlocks(text, XML_TOOL_OPEN, XML_TOOL_CLOSE, SAME_NAME);
    const calls = blocks.map((
      b,
    ): [string, Json] => [b.name, xmlParams(b.body)]);
    const prose = withoutBlocks(text, blocks, "\n");
    this.#speak("assistant", speech(prose), at);
    for (const [name, params] of calls) {
      this.#toolCall(undefined, name, params, at);
    }
  }

  #summary(text: string, at: At): void {
    this.#ctx.builder.add("summary", speech(text), {
      locator: at.locator,
      time: at.time,
      ...withFlags(this.#ctx.flags),
    });
  }

  /** A command record of the session, flagged as its records are. */
  #command(text: string, tool: string, at: At): SessionRecord | undefined {
    return this.#ctx.builder.add("command", text, {
      locator: at.locator,
      time: at.time,
      tool,
      ...withFlags(this.#ctx.flags),
    });
  }

  /** An apply_patch-style patch: each file it touches and the lines it removes. */
  #patch(
    id: string | undefined,
    name: string,
    patch: string,
    at: ToolEventAt,
  ): void {
    this.#tools.call(id, name, {}, at);
    this.#tools.patch(patch, name, at);
  }

  #toolCall(
    id: string | undefined,
    name: string,
    input: unknown,
    at: At,
  ): void {
    let args: Json = isObject(input) ? input : {};
    if (typeof input === "string") args = parseJsonObject(input) ?? {};
    const flagged = { ...at, flags: this.#ctx.flags };
    switch (name) {
      case "attempt_completion":
        this.#speak("assistant", speech(str(args.result) ?? ""), at);
        return;
      case "ask_followup_question":
        this.#speak("assistant", speech(str(args.question) ?? ""), at);
        return;
      case "plan_mode_respond":
        this.#speak("assistant", speech(str(args.response) ?? ""), at);
        return;
      case "run_commands": {
        const list = stringList(args.commands) ??
          (typeof args.commands === "string" ? [args.commands] : []);
        const records: SessionRecord[] = [];
        for (const cmd of list) {
          const record = this.#command(cmd, name, at);
          if (record) records.push(record);
        }
        if (id && records.length > 0) this.#batches.set(id, records);
        return;
      }
      case "apply_patch": {
        // The patch is the whole input, or its `input` (or `patch`) field.
        const patch = typeof input === "string" && !input.startsWith("{")
          ? input
          : str(args.input) ?? str(args.patch) ?? "";
        this.#patch(id, name, patch, flagged);
        return;
      }
      case "use_subagents":
        this.#tools.call(id, name, {}, flagged);
        for (const prompt of promptsOf(args)) {
          this.#speak("assistant", speech(prompt), at);
        }
        return;
      case "summarize_task":
      case "condense": {
        // Cline's compaction (automatic, or /smol): the context it keeps.
        this.#tools.call(id, name, {}, flagged);
        const context = str(args.context);
        if (context) this.#summary(context, at);
        return;
      }
      case "new_task": {
        // Cline hands its context to a new task; Roo delegates a message.
        this.#tools.call(id, name, {}, flagged);
        const context = str(args.context);
        if (context) this.#summary(context, at);
        else this.#speak("assistant", speech(str(args.message) ?? ""), at);
        return;
      }
    }
    const webArg = WEB_ARGS.get(name);
    if (webArg) {
      this.#tools.call(id, name, {}, flagged);
      const target = str(args[webArg]);
      if (target) this.#command(target, name, at);
      return;
    }
    // Roo's `edit_file` for Codex models takes an apply_patch `patch`.
    const patch = name === "edit_file" ? str(args.patch) : undefined;
    if (patch) {
      this.#patch(id, name, patch, flagged);
      return;
    }
    const mcp = mcpCall(name, args);
    if (mcp) {
      this.#tools.call(id, mcp.tool, {}, flagged);
      this.#command(mcp.text, mcp.tool, at);
      return;
    }
    for (const key of DIALECT.pathListKeys) {
      const paths = typeof args[key] === "string"
        ? stringList(args[key])
        : undefined;
      if (paths) args = { ...args, [key]: paths };
    }
    const before = this.#ctx.builder.nextSeq;
    this.#tools.call(id, name, args, flagged);
    if (DIALECT.shell.has(name)) {
      const last = this.#ctx.builder.records.at(-1);
      if (last && last.seq >= before && last.role === "command") {
        this.#lastCommand = last;
      }
      return;
    }
    if (DIFF_TOOLS.has(name) && typeof args.diff === "string") {
      const path = str(args.path);
      if (path) {
        for (const removed of removedBlocks(args.diff)) {
          addEdit(this.#ctx, path, removed, name, at.locator, at.time);
        }
      }
    }
  }

  #user(blocks: unknown[], at: At, index: number): void {
    // Older versions put `[tool] Result:` and the result in separate blocks.
    const texts: string[] = [];
    const flush = () => {
      if (texts.length > 0) this.#userText(texts.join("\n"), at, index);
      texts.length = 0;
    };
    for (const block of blocks) {
      if (!isObject(block)) continue;
      if (block.type === "text" && typeof block.text === "string") {
        if (RESULT_HEAD.test(block.text)) flush();
        texts.push(block.text);
      } else if (block.type === "tool_result" || block.type === "tool-result") {
        flush();
        this.#toolResult(block, at);
      }
    }
    flush();
  }

  #userText(text: string, at: At, index: number): void {
    if (!this.#cwdFound) {
      const m = CWD_LINE.exec(text);
      if (m) {
        this.#cwdFound = true;
        this.#ctx.builder.setCwd((m[1] as string).trim());
      }
    }
    const said = findBlocks(text, ENVELOPE_OPEN, ENVELOPE_CLOSE, {
      sameName: true,
      withAttributes: "user_input",
    }).map((b) => b.body);
    const result = RESULT_HEAD.exec(text);
    if (result && ANSWER_TOOLS.has(result[1] as string)) {
      // The "result" of a question or completion is the person's reply.
    } else if (result && SUMMARY_TOOLS.has(result[1] as string)) {
      // The summary again, already kept from the call.
    } else if (result) {
      const body = stripBlocks(
        text.slice(result[0].length).replace(ENV_DETAILS, ""),
        [FEEDBACK],
      ).trim();
      const name = result[1] as string;
      const code = name === "execute_command"
        ? commandExitCode(body)
        : undefined;
      const isError = /^\s*(The tool execution failed|Error)/i.test(body) ||
        (code !== undefined && code !== 0);
      this.#ctx.builder.add("tool-output", body, {
        locator: at.locator,
        time: at.time,
        tool: name,
        ...withFlags(this.#ctx.flags, isError ? { isError: true } : undefined),
      });
      if (name === "execute_command" && this.#lastCommand) {
        if (code !== undefined) this.#lastCommand.exitCode = code;
        this.#lastCommand = undefined;
      }
    } else if (
      said.length === 0 &&
      (this.#mode.plainUserTextIsSpeech || (index === 0 && !this.#sawUser))
    ) {
      said.push(text);
    }
    for (const s of said) this.#speak("user", speech(s), at);
  }

  #toolResult(block: Json, at: At): void {
    const id = str(block.tool_use_id) ?? str(block.toolCallId);
    const batch = id ? this.#batches.get(id) : undefined;
    if (batch && Array.isArray(block.content)) {
      this.#batches.delete(id as string);
      block.content.forEach((item, i) => {
        if (!isObject(item)) return;
        const failed = item.success === false || typeof item.error === "string";
        const out = [str(item.result), str(item.error)].filter(Boolean).join(
          "\n",
        );
        const command = batch[i];
        const code = commandExitCode(out) ?? (failed ? undefined : 0);
        if (command && command.exitCode === undefined && code !== undefined) {
          command.exitCode = code;
        }
        const isError = failed || block.is_error === true ||
          (code !== undefined && code !== 0);
        this.#ctx.builder.add("tool-output", out, {
          locator: at.locator,
          time: at.time,
          tool: "run_commands",
          ...withFlags(
            this.#ctx.flags,
            isError ? { isError: true } : undefined,
          ),
        });
      });
      return;
    }
    let text = resultText(block);
    const feedback = firstBlock(text, FEEDBACK)?.body;
    if (SUMMARY_TOOLS.has(this.#tools.toolOf(id) ?? "")) {
      if (feedback !== undefined) this.#speak("user", speech(feedback), at);
      return;
    }
    text = stripBlocks(text.replace(ENV_DETAILS, ""), [FEEDBACK]).trim();
    const code = commandExitCode(text);
    const shell = DIALECT.shell.has(this.#tools.toolOf(id) ?? "") ||
      (batch !== undefined);
    const isError = resultFailed(block, text) ||
      (shell && code !== undefined && code !== 0);
    if (batch) {
      // A batch answered in one text: its commands share the exit code.
      this.#batches.delete(id as string);
      for (const command of batch) {
        if (command.exitCode === undefined && code !== undefined) {
          command.exitCode = code;
        }
      }
    }
    this.#tools.result(
      id,
      text,
      isError,
      {
        ...at,
        flags: this.#ctx.flags,
      },
      code,
      batch ? "run_commands" : undefined,
    );
    if (feedback !== undefined) this.#speak("user", speech(feedback), at);
  }
}

/**
 * Parses a task's `api_conversation_history.json` (used when the task has no
 * `ui_messages.json`) — the legacy array of Anthropic messages or Roo's v2
 * envelope `{version: 2, messages}` of AI SDK messages: `<task>`,
 * `<feedback>`, `<answer>` and `<user_message>` envelopes as user records,
 * the model's prose (XML tool calls and thinking removed) and completion
 * results as assistant records, tool calls as command/files/edit records (MCP
 * calls as commands named `mcp__server__tool`; sub-agent prompts as assistant
 * records, a `new_task` hand-off's context as summary) and `[tool] Result:` texts,
 * `tool_result` blocks or `tool-result` parts as tool-output, flagged an
 * error when a command's exit code is not 0. Messages without `ts` get the
 * task's start time plus one second per message.
 *
 * @param path The `api_conversation_history.json` file.
 * @param options Parse options.
 * @param family Which extension wrote it.
 * @returns The task's session; none when `ui_messages.json` (or the older
 *   `claude_messages.json`) sits beside it.
 * @example
 * ```ts
 * import { parseApiHistory } from "./_cline_family.ts";
 * import { equal } from "node:assert/strict";
 * const dir = await Deno.makeTempDir();
 * const path = `${dir}/api_conversation_history.json`;
 * await Deno.writeTextFile(path, JSON.stringify([
 *   { role: "user", content: [{ type: "text", text: "<task>\nlist the todos\n</task>" }] },
 *   { role: "assistant", content: [{ type: "text", text: "There are two." }] },
 * ]));
 * const source = { home: dir, env: {}, os: "linux" };
 * const { sessions } = await parseApiHistory(path, { includeSubagents: true, source }, { harness: "cline", extensionId: "x" });
 * equal(sessions[0]?.records[0]?.text, "list the todos");
 * ```
 */
export async function parseApiHistory(
  path: string,
  options: ParseOptions,
  family: ClineFamily,
): Promise<ParseResult> {
  if (await hasBetterFile(dirOf(path), API_HISTORY)) return emptyResult();
  const doc = await readJsonDocument(path);
  if (!doc.ok) return emptyResult(doc.reason === "missing" ? 0 : 1);
  const messages = apiMessages(doc.value);
  if (!messages) return emptyResult(1);
  const ctx = await openTask(path, options, family);
  if (!ctx) return emptyResult();
  let baseTime = ctx.builder.build().started;
  if (baseTime === undefined) {
    try {
      baseTime = (await Deno.stat(path)).mtime?.getTime();
    } catch {
      baseTime = undefined;
    }
  }
  const reader = new ConversationReader(ctx, path, {
    plainUserTextIsSpeech: false,
    baseTime,
  });
  messages.forEach((m, i) => reader.message(m, i));
  const session = ctx.builder.build();
  return {
    sessions: session.records.length > 0 ? [session] : [],
    skipped: reader.skipped + ctx.skipped,
  };
}

/**
 * Parses a Cline CLI/SDK session, `<sid>/<sid>.messages.json`
 * (`{sessionId, agent, messages: [{id, role, content, ts}]}`), with the
 * manifest `<sid>.json` beside it for cwd, title, times and a parent
 * (`parent_session_id`). Files written by an agent other than the lead, or
 * whose manifest names a parent, are sub-agent sessions: of the session their
 * `origin` or manifest names, else — a file beside its lead's that carries
 * the lead's session id — of that session. A session is never its own
 * parent.
 *
 * @param path The `.messages.json` file.
 * @param options Parse options (sub-agent switch).
 * @param harness The harness id to file the session under.
 * @returns The session, or none.
 * @example
 * ```ts
 * import { parseSdkMessages } from "./_cline_family.ts";
 * import { equal } from "node:assert/strict";
 * const dir = await Deno.makeTempDir();
 * const path = `${dir}/s1.messages.json`;
 * await Deno.writeTextFile(path, JSON.stringify({ version: 1, sessionId: "s1", agent: "lead", messages: [
 *   { id: "m1", role: "user", ts: 1790000000000, content: [{ type: "text", text: "bump the version" }] },
 *   { id: "m2", role: "assistant", ts: 1790000002000, content: [{ type: "text", text: "Bumped." }] },
 * ] }));
 * const source = { home: dir, env: {}, os: "linux" };
 * const { sessions } = await parseSdkMessages(path, { includeSubagents: true, source }, "cline");
 * equal(sessions[0]?.records.length, 2);
 * ```
 */
export async function parseSdkMessages(
  path: string,
  options: ParseOptions,
  harness: string,
): Promise<ParseResult> {
  const doc = await readJsonDocument(path);
  if (!doc.ok) return emptyResult(doc.reason === "missing" ? 0 : 1);
  const value = doc.value;
  if (!isObject(value) || !Array.isArray(value.messages)) return emptyResult(1);
  const stem = baseName(path).replace(/\.messages\.json$/, "");
  const id = str(value.sessionId) ?? stem;
  const manifestDoc = await readJsonDocument(
    `${dirOf(path)}/${stem}.json`,
    1 << 22,
  );
  const manifest = manifestDoc.ok && isObject(manifestDoc.value)
    ? manifestDoc.value
    : {};
  // A manifest that exists but cannot be read costs the cwd and title.
  const skipped = manifestDoc.ok
    ? isObject(manifestDoc.value) ? 0 : 1
    : manifestDoc.reason === "missing"
    ? 0
    : 1;
  const agent = str(value.agent);
  const origin = isObject(value.origin) ? value.origin : {};
  const named = str(origin.sessionId) ?? str(manifest.parent_session_id) ??
    str(manifest.parentSessionId);
  const sub = (agent !== undefined && agent !== "lead") ||
    (named !== undefined && named !== id);
  if (sub && !options.includeSubagents) return emptyResult(skipped);
  // A sub-agent's file that carries its lead's session id — naming it as its
  // origin, or lying beside the lead's under another name — is told apart by
  // the agent's name.
  const shared = sub && (named === id || (named === undefined && stem !== id));
  const parent = shared ? id : named !== id ? named : undefined;
  const metadata = isObject(manifest.metadata) ? manifest.metadata : {};
  const builder = new SessionBuilder({
    harness,
    id: shared ? `${id}:${agent ?? "subagent"}` : id,
    path,
    cwd: str(manifest.cwd) ?? str(manifest.workspace_root),
    parent,
    lineage: sub && parent !== undefined ? "subagent" : undefined,
  });
  const title = str(metadata.title) ?? str(manifest.title) ??
    str(manifest.prompt);
  if (title) builder.setTitle(title);
  for (const key of ["created_at", "started_at", "updated_at", "ended_at"]) {
    builder.touch(parseTime(manifest[key]));
  }
  const ctx: TaskContext = {
    builder,
    flags: sub ? { subagent: true } : undefined,
    family: { harness, extensionId: "" },
    skipped,
  };
  const reader = new ConversationReader(ctx, path, {
    plainUserTextIsSpeech: true,
    baseTime: undefined,
  });
  value.messages.forEach((m, i) => reader.message(m, i));
  const session = builder.build();
  return {
    sessions: session.records.length > 0 ? [session] : [],
    skipped: reader.skipped + skipped,
  };
}
