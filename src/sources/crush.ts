/**
 * Charm Crush: one SQLite `crush.db` per project data directory (by default
 * `<project>/.crush/crush.db`). The global `projects.json` names the data
 * directories Crush has used; project folders under HOME are searched too.
 *
 * @module
 */
import { join } from "node:path";
import type {
  FileKind,
  Harness,
  ParseOptions,
  ParseResult,
  SourceEnv,
} from "../core/harness.ts";
import { cleanSpeech } from "../core/text.ts";
import { parseTime } from "../core/time.ts";
import type { RecordFlags, SessionRecord } from "../core/types.ts";
import { SessionBuilder } from "./_builder.ts";
import { baseName, dirName, isRegularFileSync } from "./_paths.ts";
import { PROJECT_FOLDERS, projectDirs } from "./_project_dirs.ts";
import { localAppData, xdgDataHome } from "./_roots.ts";
import {
  col,
  ident,
  numberColumn,
  readStore,
  requireColumns,
  requireTables,
  type Row,
  rows,
  type Store,
  textColumn,
} from "./_sqlite_store.ts";
import {
  isObject,
  type Json,
  list,
  obj,
  objectOf,
  parseJson,
  str,
} from "./_json.ts";
import { readJsonFile } from "./_json_doc.ts";
import { editBody, exitCodeIn } from "./_work_records.ts";
import { decodeZstdFrames } from "../core/_zstd_frames.ts";

const HARNESS_ID = "crush";
const NAME = "Crush";

/** The tool name given to a command the person ran with `!`. */
const SHELL_TOOL = "shell";

/** Terminal escape sequences (colour, cursor, titles) in captured output. */
// deno-lint-ignore no-control-regex -- matching escape bytes is the point
const ANSI = /\x1b(?:\[[0-9;?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\))/g;

/** Tools whose `file_path` becomes a `files` record. */
const PATH_TOOLS = new Set(["view", "edit", "multiedit", "write"]);

/** Where Crush keeps `projects.json`, per OS. */
function globalDataDir(source: SourceEnv): string {
  const env = source.env;
  if (env.CRUSH_GLOBAL_DATA) return env.CRUSH_GLOBAL_DATA;
  if (source.os === "windows" && !env.XDG_DATA_HOME) {
    return join(localAppData(source), "crush");
  }
  return join(xdgDataHome(source), "crush");
}

function crushRoots(source: SourceEnv): string[] {
  return [
    globalDataDir(source),
    join(source.home, ".crush"),
    ...PROJECT_FOLDERS.map((f) => join(source.home, f)),
  ];
}

/** Data directories listed in `projects.json` (missing or bad file: none). */
async function listedDataDirs(source: SourceEnv): Promise<string[]> {
  const doc = await readJsonFile(join(globalDataDir(source), "projects.json"));
  const out: string[] = [];
  for (const project of list(obj(doc).projects)) {
    if (!isObject(project)) continue;
    const dataDir = str(project.data_dir);
    const path = str(project.path);
    if (dataDir) {
      out.push(
        /^([\\/]|[A-Za-z]:)/.test(dataDir) || !path
          ? dataDir
          : join(path, dataDir),
      );
    } else if (path) out.push(join(path, ".crush"));
  }
  return out;
}

/** Every `crush.db` Crush may have written, each path once. */
async function discoverCrush(source: SourceEnv): Promise<string[]> {
  const candidates = [
    ...(await listedDataDirs(source)).map((dir) => join(dir, "crush.db")),
    join(source.home, ".crush", "crush.db"),
    ...projectDirs(source).map((dir) => join(dir, ".crush", "crush.db")),
  ];
  const seen = new Set<string>();
  const found: string[] = [];
  for (const path of candidates) {
    if (seen.has(path)) continue;
    seen.add(path);
    if (isRegularFileSync(path)) found.push(path);
  }
  return found;
}

/** The first four bytes of a zstd frame (magic 0xFD2FB528, little-endian). */
const ZSTD_MAGIC = [0x28, 0xb5, 0x2f, 0xfd];

/**
 * The `parts` column as JSON text. Crush stores JSON text; the zstd
 * compression proposed upstream (charmbracelet/crush#3581) writes a BLOB that
 * starts with the zstd magic, and rows written before it stay JSON, so each
 * row is sniffed on its own.
 */
function partsText(value: unknown): string | undefined {
  if (
    value instanceof Uint8Array &&
    ZSTD_MAGIC.every((b, i) => value[i] === b)
  ) {
    const decoded = decodeZstdFrames(value);
    if (decoded.bad > 0 || !decoded.complete) return undefined;
    return new TextDecoder().decode(decoded.bytes);
  }
  return textColumn(value);
}

/** Options for {@linkcode parseCrushDb}. */
export type CrushParseOptions = ParseOptions;

interface SessionRow {
  id: string;
  parent?: string;
  title?: string;
  created?: number;
  updated?: number;
  summaryMessage?: string;
}

/** Builds one Crush session from its message rows. */
class CrushSession {
  readonly builder: SessionBuilder;
  #path: string;
  #flags: RecordFlags | undefined;
  /** Ids of summary messages: the session's pointer, `is_summary_message` rows. */
  #summaries = new Set<string>();
  /** Command records waiting for their exit code: tool call id → record. */
  #commands = new Map<string, SessionRecord>();
  /** Tool names by call id, so each output knows its tool. */
  #tools = new Map<string, string>();
  #cwdSet = false;

  constructor(path: string, row: SessionRow, project: { cwd?: string }) {
    const subagent = row.parent !== undefined;
    this.#path = path;
    this.builder = new SessionBuilder({
      harness: HARNESS_ID,
      id: row.id,
      path,
      cwd: project.cwd,
      parent: row.parent,
      lineage: subagent ? "subagent" : undefined,
    });
    this.#cwdSet = project.cwd !== undefined;
    if (subagent) this.#flags = { subagent: true };
    if (row.title) this.builder.setTitle(row.title);
    this.builder.touch(row.created);
    if (row.summaryMessage) this.#summaries.add(row.summaryMessage);
  }

  #opts(recordId: string, time: number | undefined, extra: Partial<{
    tool: string;
    isError: boolean;
    truncated: boolean;
  }> = {}) {
    const flags: RecordFlags = { ...this.#flags };
    if (extra.isError) flags.isError = true;
    if (extra.truncated) flags.truncated = true;
    return {
      locator: { path: this.#path, recordId },
      time,
      ...(extra.tool ? { tool: extra.tool } : {}),
      ...(Object.keys(flags).length > 0 ? { flags } : {}),
    };
  }

  message(row: Row): number {
    const id = textColumn(row.id) ?? "";
    const role = textColumn(row.role);
    const time = parseTime(numberColumn(row.created_at));
    if (numberColumn(row.is_summary) === 1) this.#summaries.add(id);
    const parts = parseJson(partsText(row.parts));
    if (!Array.isArray(parts)) return 1;
    let skipped = 0;
    const texts: string[] = [];
    for (const part of parts) {
      if (!isObject(part)) {
        skipped++;
        continue;
      }
      const data = obj(part.data);
      switch (part.type) {
        case "text":
          // `hidden` marks a continuation Crush generated, not a turn typed.
          if (typeof data.text === "string" && data.hidden !== true) {
            texts.push(data.text);
          }
          break;
        case "tool_call":
          this.#flushText(role, texts, id, time);
          this.#toolCall(data, id, time);
          break;
        case "tool_result":
          this.#toolResult(data, id, time);
          break;
        case "shell_command":
          this.#flushText(role, texts, id, time);
          this.#shellCommand(data, id, time);
          break;
        case "finish":
          this.#flushText(role, texts, id, time);
          this.#finish(data, id, time);
          break;
        default:
          // reasoning, image_url, binary: not conversation text.
          break;
      }
    }
    this.#flushText(role, texts, id, time);
    return skipped;
  }

  #flushText(
    role: string | undefined,
    texts: string[],
    id: string,
    time: number | undefined,
  ): void {
    if (texts.length === 0) return;
    const text = cleanSpeech(texts.join("\n\n"));
    texts.length = 0;
    if (role === "user") {
      this.builder.add("user", text, this.#opts(id, time));
    } else if (role === "assistant") {
      const kind = this.#summaries.has(id) ? "summary" : "assistant";
      this.builder.add(kind, text, this.#opts(id, time));
    }
  }

  /**
   * A command the person ran with `!` (bang mode): Crush keeps it, its
   * output and exit code in the user message, where the model reads them.
   */
  #shellCommand(data: Json, messageId: string, time: number | undefined): void {
    const command = str(data.command)?.trim();
    if (!command) return;
    const record = this.builder.add(
      "command",
      command,
      this.#opts(messageId, time, { tool: SHELL_TOOL }),
    );
    const code = typeof data.exit_code === "number" ? data.exit_code : 0;
    if (record && typeof data.exit_code === "number") record.exitCode = code;
    const output = typeof data.output === "string"
      ? data.output.replace(ANSI, "").trim()
      : "";
    this.builder.add(
      "tool-output",
      output,
      this.#opts(messageId, time, { tool: SHELL_TOOL, isError: code !== 0 }),
    );
  }

  /**
   * How a turn ended: a provider failure (`error`) or a refusal
   * (`content_filter`) is kept as error output of the model call, with the
   * message and details Crush shows in its banner.
   */
  #finish(data: Json, messageId: string, time: number | undefined): void {
    const reason = str(data.reason);
    if (reason !== "error" && reason !== "content_filter") return;
    const text = [str(data.message), str(data.details)]
      .filter((t): t is string => t !== undefined && t.trim().length > 0)
      .join("\n");
    this.builder.add(
      "tool-output",
      text || (reason === "error" ? "error" : "refused (content_filter)"),
      this.#opts(messageId, time, { tool: "model", isError: true }),
    );
  }

  #toolCall(data: Json, messageId: string, time: number | undefined): void {
    const name = str(data.name);
    if (!name) return;
    const callId = str(data.id);
    if (callId) this.#tools.set(callId, name);
    const input = objectOf(data.input);
    if (name === "bash") {
      const command = str(input.command);
      if (!command) return;
      const record = this.builder.add(
        "command",
        command,
        this.#opts(messageId, time, { tool: name }),
      );
      if (record && callId) this.#commands.set(callId, record);
      return;
    }
    if (!PATH_TOOLS.has(name)) return;
    const path = str(input.file_path) ?? str(input.path);
    if (!path) return;
    this.builder.add(
      "files",
      path,
      this.#opts(messageId, time, { tool: name }),
    );
    const removed: string[] = [];
    if (name === "edit" && typeof input.old_string === "string") {
      removed.push(input.old_string);
    } else if (name === "multiedit") {
      for (const edit of list(input.edits)) {
        if (isObject(edit) && typeof edit.old_string === "string") {
          removed.push(edit.old_string);
        }
      }
    }
    for (const old of removed) {
      if (old.length === 0) continue;
      const body = editBody(path, old);
      this.builder.add(
        "edit",
        body.text,
        this.#opts(messageId, time, { tool: name, truncated: body.truncated }),
      );
    }
  }

  #toolResult(data: Json, messageId: string, time: number | undefined): void {
    const callId = str(data.tool_call_id);
    const tool = (callId && this.#tools.get(callId)) || str(data.name);
    let isError = data.is_error === true;
    const content = typeof data.content === "string" ? data.content : "";
    if (callId) {
      const command = this.#commands.get(callId);
      if (command) {
        this.#commands.delete(callId);
        // Crush answers a command that exited non-zero with a plain result
        // ending in `Exit code N`: the code says it failed.
        const code = exitCodeIn(content);
        if (code !== undefined) command.exitCode = code;
        else if (!isError) command.exitCode = 0;
        if (code !== undefined && code !== 0) isError = true;
      }
    }
    if (!this.#cwdSet && tool === "bash") {
      const cwd = str(objectOf(data.metadata).working_directory);
      if (cwd) {
        this.builder.setCwd(cwd);
        this.#cwdSet = true;
      }
    }
    this.builder.add(
      "tool-output",
      content.replace(/\n*<cwd>[^<]*<\/cwd>\s*$/, "").trim(),
      this.#opts(messageId, time, { ...(tool ? { tool } : {}), isError }),
    );
  }
}

/** The project directory of a `<project>/.crush/crush.db` store. */
function projectOfDb(path: string): { cwd?: string } {
  const dataDir = dirName(path);
  if (baseName(dataDir) === ".crush") return { cwd: dirName(dataDir) };
  return {};
}

function readSessions(store: Store): SessionRow[] {
  const columns = requireColumns(store, "sessions", ["id", "title"]);
  const pick = (name: string, alias: string) =>
    columns.has(name) ? col(ident(name), alias) : `NULL AS ${alias}`;
  const order = columns.has("created_at") ? "created_at, rowid" : "rowid";
  const out: SessionRow[] = [];
  for (
    const row of rows(
      store,
      `SELECT ${col("id")}, ${col("title")}, ${
        pick("parent_session_id", "parent")
      }, ${pick("created_at", "created")}, ${pick("updated_at", "updated")}, ${
        pick("summary_message_id", "summary")
      } FROM sessions ORDER BY ${order}`,
    )
  ) {
    const id = textColumn(row.id);
    if (!id) continue;
    const session: SessionRow = { id };
    const parent = textColumn(row.parent);
    if (parent) session.parent = parent;
    const title = textColumn(row.title);
    if (title) session.title = title;
    const created = parseTime(numberColumn(row.created));
    if (created !== undefined) session.created = created;
    const updated = parseTime(numberColumn(row.updated));
    if (updated !== undefined) session.updated = updated;
    const summary = textColumn(row.summary);
    if (summary) session.summaryMessage = summary;
    out.push(session);
  }
  return out;
}

/**
 * Parses one Crush `crush.db`: every session with its messages. Text parts
 * are speech, except those marked `hidden` (the session's summary message,
 * or a message flagged `is_summary_message`, becomes a `summary`), `bash`
 * calls become commands whose exit code comes from the `Exit code N` line of
 * their result, `view`/`edit`/`multiedit`/`write` give files and edits, and
 * tool results are `tool-output` with `is_error`. Sub-agent (task) sessions
 * carry their parent; Crush's own title-generation sessions are skipped.
 *
 * @param path The database.
 * @param options Sub-agent switch.
 * @returns The sessions; a store without Crush's tables throws SRC-E002.
 * @example
 * ```ts
 * import { parseCrushDb } from "./crush.ts";
 * import { rejects } from "node:assert/strict";
 * const path = await Deno.makeTempFile({ suffix: ".db" });
 * const source = { home: "/h", env: {}, os: "linux" };
 * await rejects(parseCrushDb(path, { includeSubagents: true, source }), /missing table/);
 * ```
 */
export function parseCrushDb(
  path: string,
  options: CrushParseOptions,
): Promise<ParseResult> {
  return readStore(path, NAME, (store) => {
    requireTables(store, ["sessions", "messages"]);
    const messageColumns = requireColumns(store, "messages", [
      "id",
      "session_id",
      "role",
      "parts",
      "created_at",
    ]);
    const project = projectOfDb(path);
    const builders = new Map<string, CrushSession>();
    for (const row of readSessions(store)) {
      // Crush names a session with a throwaway "title-<id>" session.
      if (row.id.startsWith("title-")) continue;
      if (row.parent !== undefined && !options.includeSubagents) continue;
      builders.set(row.id, new CrushSession(path, row, project));
    }
    let skipped = 0;
    for (
      const row of rows(
        store,
        `SELECT ${col("id")}, ${col("session_id")}, ${col("role")}, ${
          col("parts")
        }, ${col("created_at")}, ${
          messageColumns.has("is_summary_message")
            ? col(ident("is_summary_message"), "is_summary")
            : "NULL AS is_summary"
        } FROM messages ORDER BY session_id, created_at, rowid`,
      )
    ) {
      const session = builders.get(textColumn(row.session_id) ?? "");
      if (!session) continue;
      skipped += session.message(row);
    }
    const sessions = [...builders.values()]
      .map((s) => s.builder.build())
      .filter((s) => s.records.length > 0);
    return { sessions, skipped };
  });
}

const dbKind: FileKind = {
  id: "db",
  appendOnly: false,
  match: (path) => baseName(path) === "crush.db",
  parse: (path, options) => parseCrushDb(path, options),
};

/**
 * The Crush harness: `crush.db` stores named by Crush's `projects.json`,
 * `~/.crush/crush.db`, and `.crush/crush.db` in the project folders under
 * HOME (`code`, `src`, `projects`, `work`, `dev`, `repos`, `git`,
 * `Documents`, three levels deep).
 *
 * @example
 * ```ts
 * import { crush } from "./crush.ts";
 * import { equal } from "node:assert/strict";
 * equal(crush.roots({ home: "/h", env: {}, os: "linux" })[0], "/h/.local/share/crush");
 * ```
 */
export const crush: Harness = {
  id: HARNESS_ID,
  name: NAME,
  format: "SQLite crush.db per project (sessions, messages with JSON parts)",
  // 2: `messages.is_summary_message`, hidden continuation text, zstd-compressed parts.
  // 3: bang-mode `shell_command` parts; turns that ended in an error or refusal.
  // 4: a command's output is an error when it exited non-zero (Crush does
  // not mark such a result `is_error`).
  revision: 4,
  envOverrides: ["CRUSH_GLOBAL_DATA", "XDG_DATA_HOME", "LOCALAPPDATA"],
  roots: crushRoots,
  discover: discoverCrush,
  kinds: [dbKind],
  docs: {
    store:
      "`<project>/.crush/crush.db` (the data directory each project uses); the list of projects is `projects.json` in `$CRUSH_GLOBAL_DATA`, else `$XDG_DATA_HOME/crush`, else `%LOCALAPPDATA%\\crush` (Windows) or `~/.local/share/crush` (Linux, macOS); also `~/.crush/crush.db` and `.crush/crush.db` found in HOME's `code`, `src`, `projects`, `work`, `dev`, `repos`, `git`, `workspace`, `workspaces`, `Developer`, `source`, `repositories`, `GitHub`, `IdeaProjects`, `PycharmProjects`, `WebstormProjects`, `GolandProjects`, `AndroidStudioProjects` and `Documents` folders (any case) three levels deep",
    extracts:
      "user/assistant text parts (the `parts` column as JSON text or, per row, a zstd-compressed BLOB as proposed in charmbracelet/crush#3581), the summary message (`sessions.summary_message_id`, or `messages.is_summary_message` since 2025-08) as `summary`, `bash` commands with exit codes (the `Exit code N` line of the result, else 0 when not an error), files for view/edit/multiedit/write, edit (path + `old_string`, each multiedit edit), tool-output with `is_error` (also a command's output whose exit code is not 0: Crush answers a failed command with a plain result), cwd from the first bash result's `working_directory` (else the folder holding `.crush`), sub-agent (task) sessions with their parent, a command the person ran with `!` (a `shell_command` part of their message) as a `shell` command with its exit code and output (an error when the code is not 0), a turn that ended in a provider error or a refusal (finish reason `error` or `content_filter`, with its message and details) as error tool-output (tool `model`)",
    omits:
      "reasoning parts, text parts marked `hidden` (continuations Crush generated, not typed), images and binary attachments (and the base64 `data` of media tool results), other finish markers (end of turn, tool use, canceled), `read_files`/todos and the other bookkeeping tables and columns of newer schemas, the `files` version table (full file snapshots, not conversation), Crush's `title-*` title-generation sessions (harness bookkeeping)",
    verified:
      "real sample: a Crush store of September 2025 (goose migrations up to 20250627, 1 session, 158 messages, bash/multiedit/view/write tools) and fixtures/crush; the later columns and part fields (`is_summary_message`, text `hidden`, tool-result `data`/`mime_type`) from charmbracelet/crush's migrations and internal/message/content.go; zstd parts from the upstream proposal (PR #3581; internal/message/parts_codec.go since), fixture only; the `shell_command` part and the finish `message`/`details` and `content_filter` reason from internal/message/content.go and message.go, in src/sources/crush_test.ts; bash's result wording (`Exit code N` appended by formatOutput, the result not an error response) from internal/agent/tools/bash.go as indexed in 2026",
  },
};
