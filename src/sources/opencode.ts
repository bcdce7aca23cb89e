/**
 * opencode: the SQLite store `opencode.db` (and channel stores such as
 * `opencode-stable.db`) with the 1.x `session`/`message`/`part` tables and
 * the 2.0 `session_v2`/`session_message` tables; the older JSON tree under
 * `storage/` (and `project/<name>/storage/`); and the per-session file
 * diffs in `storage/session_diff/`.
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
import { walkFiles } from "../core/harness.ts";
import { cleanSpeech, MAX_OUTPUT_CHARS } from "../core/text.ts";
import { parseTime } from "../core/time.ts";
import type { Lineage, Locator, RecordFlags, Session } from "../core/types.ts";
import { SessionBuilder } from "./_builder.ts";
import { readFileEdges } from "./_saved_output.ts";
import {
  builtinCommand,
  type OpencodeCommand,
  opencodeCommands,
  typedCommand,
} from "./_opencode_commands.ts";
import { baseName, dirName, segments } from "./_paths.ts";
import { pathOfFileUri } from "../core/paths.ts";
import { xdgDataHome } from "./_roots.ts";
import {
  closeStore,
  col,
  columnsOf,
  ident,
  openStore,
  readStore,
  requireColumns,
  requireTables,
  rows,
  type Store,
  textColumn,
} from "./_sqlite_store.ts";
import {
  finite,
  isObject,
  type Json,
  list,
  obj,
  objectOf,
  parseJson,
  str,
} from "./_json.ts";
import {
  editBody,
  filesOfApplyPatch,
  removedFromUnifiedDiff,
  removedLines,
} from "./_work_records.ts";

const HARNESS_ID = "opencode";
const NAME = "opencode";

/** The titles opencode gives a session before it names it. */
const DEFAULT_TITLE = /^(New session|Child session) - \d{4}-/;

/** Directories under the data root that never hold session files. */
export const OPENCODE_SKIP_DIRS: ReadonlySet<string> = new Set([
  "message",
  "part",
  "snapshot",
  "bin",
  "log",
  "node_modules",
  "tool-output",
]);

/** opencode's data directory: `$XDG_DATA_HOME/opencode`, else `~/.local/share/opencode`. */
function opencodeRoots(source: SourceEnv): string[] {
  const env = source.env;
  if (env.DEJA_OPENCODE_ROOT) return [env.DEJA_OPENCODE_ROOT];
  return [join(xdgDataHome(source), "opencode")];
}

function isDb(path: string): boolean {
  return /^opencode(-[^\\/]+)?\.db$/.test(baseName(path));
}

/**
 * `storage/session/info/<id>.json` (≤0.5) or `storage/session/<project>/<id>.json` (0.6+).
 *
 * @param path A file under a store's root.
 * @returns Whether it is a session's info file.
 * @example
 * ```ts
 * import { isSessionInfo } from "./opencode.ts";
 * import { equal } from "node:assert/strict";
 * equal(isSessionInfo("/d/storage/session/global/ses_1.json"), true);
 * equal(isSessionInfo("/d/storage/message/ses_1/msg_1.json"), false);
 * ```
 */
export function isSessionInfo(path: string): boolean {
  const parts = segments(path);
  const name = parts.at(-1) ?? "";
  if (!name.endsWith(".json")) return false;
  if (parts.at(-3) === "session" && parts.at(-4) === "storage") {
    const dir = parts.at(-2);
    return dir === "info" || (dir !== "message" && dir !== "part");
  }
  return false;
}

function isSessionDiff(path: string): boolean {
  const parts = segments(path);
  return parts.at(-2) === "session_diff" && parts.at(-3) === "storage" &&
    (parts.at(-1) ?? "").endsWith(".json");
}

function discoverOpencode(source: SourceEnv): Promise<string[]> {
  return Promise.resolve(
    opencodeRoots(source).flatMap((root) =>
      walkFiles(
        root,
        (p) => isDb(p) || isSessionInfo(p) || isSessionDiff(p),
        { maxDepth: 6, skipDirs: OPENCODE_SKIP_DIRS },
      )
    ),
  );
}

/** Options for the opencode parsers. */
export type OpencodeParseOptions = ParseOptions;

/** What a session row (1.x, 2.0 or JSON tree) says about a session. */
interface SessionMeta {
  id: string;
  parent?: string;
  fork?: string;
  directory?: string;
  title?: string;
  created?: number;
  updated?: number;
  revert?: { messageID?: string; partID?: string };
}

function revertOf(value: unknown): SessionMeta["revert"] {
  const revert = objectOf(value);
  const messageID = str(revert.messageID);
  if (!messageID) return undefined;
  const partID = str(revert.partID);
  return partID ? { messageID, partID } : { messageID };
}

/** Where a truncated output's preview says the whole of it went. */
const SAVED_TO = /Full output saved to: (\S+)/;

/** The names opencode gives the files under `tool-output/`. */
const SAVED_NAME = /^tool_[0-9A-Za-z]+$/;

/**
 * A tool output opencode saved whole under `tool-output/` (named by the
 * part's `metadata.outputPath`, else by its preview, and looked for in
 * `dir` only), read up to {@linkcode MAX_OUTPUT_CHARS} ({@linkcode
 * readFileEdges}). Undefined when the file is gone (opencode deletes them
 * after a week) or empty.
 */
function savedOutput(
  dir: string | undefined,
  path: string | undefined,
): { text: string; truncated: boolean } | undefined {
  const name = path === undefined ? "" : baseName(path);
  if (dir === undefined || !SAVED_NAME.test(name)) return undefined;
  return readFileEdges(join(dir, name), MAX_OUTPUT_CHARS);
}

/**
 * Text of a tool's output: 1.x `output` string or 2.0 `content` parts. A
 * failed tool gives its error, after what it printed before it failed
 * (`metadata.output`: an interrupted call's partial output). An output
 * opencode truncated (`metadata.truncated`) is read whole from the file it
 * saved in `savedDir`; its preview stands in, flagged truncated, once the
 * file is gone.
 */
function toolOutput(
  state: Json,
  savedDir: string | undefined,
): { text: string; isError: boolean; truncated?: boolean } {
  if (state.status === "error") {
    const error = state.error;
    const text = typeof error === "string"
      ? error
      : isObject(error) && typeof error.message === "string"
      ? error.message
      : "";
    const partial = str(obj(state.metadata).output)?.trim();
    return {
      text: partial && !text.includes(partial) ? `${partial}\n${text}` : text,
      isError: true,
    };
  }
  let text: string;
  if (typeof state.output === "string") text = state.output;
  else {
    const parts: string[] = [];
    for (const item of list(state.content)) {
      if (
        isObject(item) && item.type === "text" && typeof item.text === "string"
      ) {
        parts.push(item.text);
      }
    }
    text = parts.join("\n");
  }
  const metadata = obj(state.metadata);
  if (metadata.truncated !== true) return { text, isError: false };
  const saved = savedOutput(
    savedDir,
    str(metadata.outputPath) ?? SAVED_TO.exec(text)?.[1],
  );
  return saved
    ? { ...saved, isError: false }
    : { text, isError: false, truncated: true };
}

/**
 * The file a user `file` part attached: the path of its `file://` URL (a
 * symbol's URL carries its line range as a query), else its source's path.
 * Directories, pasted images (`data:` URLs) and MCP resources name none.
 */
function attachedPath(part: Json): string | undefined {
  if (part.mime === "application/x-directory") return undefined;
  const url = str(part.url) ?? "";
  // A malformed URL names nothing: the source may still name the file.
  const path = url.startsWith("file://") ? pathOfFileUri(url) : undefined;
  if (path && path !== "/") return path;
  const source = obj(part.source);
  return source.type === "file" || source.type === "symbol"
    ? str(source.path)
    : undefined;
}

/**
 * A person's answers to the `question` tool: one `question → answer` line
 * per question answered (`metadata.answers`, the options chosen or the
 * words typed, beside `input.questions`).
 */
function questionAnswers(input: Json, metadata: Json): string {
  const questions = list(input.questions);
  const lines: string[] = [];
  list(metadata.answers).forEach((answer, i) => {
    const chosen = list(answer).filter((a): a is string =>
      typeof a === "string" && a.trim().length > 0
    ).join(", ");
    if (!chosen) return;
    const question = str(obj(questions[i]).question)?.trim();
    lines.push(question ? `${question} → ${chosen}` : chosen);
  });
  return lines.join("\n");
}

/** The web tools and the input key that says what each fetched or searched. */
const WEB_TOOLS: ReadonlyMap<string, string> = new Map([
  ["webfetch", "url"],
  ["websearch", "query"],
  ["codesearch", "query"],
]);

/** Builds one opencode session the same way from every store shape. */
class OpencodeSession {
  readonly builder: SessionBuilder;
  #flags: RecordFlags | undefined;
  #revert: SessionMeta["revert"];
  #revertFrom: number | undefined;
  #filesSeen = new Set<string>();
  #filesMessage = "";
  #savedDir: string | undefined;
  #commands: readonly OpencodeCommand[];
  #lastModelError: string | undefined;

  /**
   * @param path The store or session file.
   * @param meta The session row.
   * @param dataDir opencode's data directory, whose `tool-output/` holds
   * whole outputs the store keeps only a preview of.
   * @param commands The custom slash commands the session could have run.
   */
  constructor(
    path: string,
    meta: SessionMeta,
    dataDir?: string,
    commands: readonly OpencodeCommand[] = [],
  ) {
    if (dataDir !== undefined) this.#savedDir = join(dataDir, "tool-output");
    this.#commands = commands;
    let lineage: Lineage | undefined;
    let parent: string | undefined;
    if (meta.parent) {
      lineage = "subagent";
      parent = meta.parent;
    } else if (meta.fork) {
      lineage = "fork";
      parent = meta.fork;
    }
    this.builder = new SessionBuilder({
      harness: HARNESS_ID,
      id: meta.id,
      path,
      cwd: meta.directory,
      parent,
      lineage,
    });
    if (lineage === "subagent") this.#flags = { subagent: true };
    if (meta.title && !DEFAULT_TITLE.test(meta.title)) {
      this.builder.setTitle(meta.title);
    }
    this.builder.touch(meta.created);
    this.builder.touch(meta.updated);
    this.#revert = meta.revert;
  }

  /** Notes where a reverted (undone) tail begins: at this message or part. */
  startOf(messageId: string, partId?: string): void {
    if (this.#revertFrom !== undefined || !this.#revert) return;
    if (messageId !== this.#revert.messageID) return;
    if (
      this.#revert.partID && partId !== undefined &&
      partId !== this.#revert.partID
    ) return;
    this.#revertFrom = this.builder.nextSeq;
  }

  /** Marks the reverted tail once every message is read. */
  finish(): void {
    if (this.#revertFrom !== undefined) {
      this.builder.mark("revert", this.#revertFrom, this.builder.nextSeq);
    }
  }

  opts(locator: Locator, time: number | undefined, extra: {
    tool?: string | undefined;
    isError?: boolean;
    truncated?: boolean;
  } = {}) {
    const flags: RecordFlags = { ...this.#flags };
    if (extra.isError) flags.isError = true;
    if (extra.truncated) flags.truncated = true;
    return {
      locator,
      time,
      ...(extra.tool ? { tool: extra.tool } : {}),
      ...(Object.keys(flags).length > 0 ? { flags } : {}),
    };
  }

  speech(
    role: "user" | "assistant" | "summary",
    text: string,
    locator: Locator,
    time: number | undefined,
  ): void {
    this.#lastModelError = undefined;
    this.builder.add(role, cleanSpeech(text), this.opts(locator, time));
  }

  /**
   * A user text: what the person typed, or `/name args` when it is the
   * expanded template of a custom or built-in command they ran (a custom
   * command of the same name overrides the built-in one).
   */
  userText(text: string, locator: Locator, time: number | undefined): void {
    const typed = this.#commands.length > 0
      ? typedCommand(text, this.#commands)
      : undefined;
    this.speech("user", typed ?? builtinCommand(text) ?? text, locator, time);
  }

  /**
   * The error an assistant message ended with (the provider refused, the
   * balance ran out): nothing was said, but it is why the turn failed, so
   * it is kept as error output of the model call.
   */
  messageError(info: Json, locator: Locator, time: number | undefined): void {
    if (info.role !== "assistant") return;
    this.modelError(info.error, locator, time);
  }

  /**
   * A model call's error (`APIError` and the like: the message under
   * `data`), as error output of the model call, once for a run of the same
   * failure (a retried call, then the error it ended with).
   */
  modelError(error: unknown, locator: Locator, time: number | undefined) {
    if (!isObject(error)) return;
    const data = obj(error.data);
    const message = str(data.message) ?? str(error.message) ?? str(error.name);
    // A provider's HTTP status is what a person searches for later ("the
    // 402 from deepseek"): it follows the message, with the error's kind.
    const status = typeof data.statusCode === "number"
      ? [str(error.name), `HTTP ${data.statusCode}`].filter(Boolean).join(", ")
      : undefined;
    const text = message && status ? `${message} (${status})` : message;
    if (!text || text === this.#lastModelError) return;
    this.#lastModelError = text;
    this.builder.add(
      "tool-output",
      text,
      this.opts(locator, time, { tool: "model", isError: true }),
    );
  }

  file(
    path: string,
    messageId: string,
    locator: Locator,
    time: number | undefined,
    tool?: string,
  ): void {
    if (this.#filesMessage !== messageId) {
      this.#filesMessage = messageId;
      this.#filesSeen.clear();
    }
    if (this.#filesSeen.has(path)) return;
    this.#filesSeen.add(path);
    this.builder.add("files", path, this.opts(locator, time, { tool }));
  }

  edit(
    path: string,
    removed: string,
    locator: Locator,
    time: number | undefined,
    tool?: string,
  ): void {
    if (removed.length === 0) return;
    const body = editBody(path, removed);
    this.builder.add(
      "edit",
      body.text,
      this.opts(locator, time, { tool, truncated: body.truncated }),
    );
  }

  /**
   * A tool call with its state (1.x `part` of type tool, 2.0 content item).
   * The call's records take the tool's own start (`state.time.start`) and
   * its output the end; `time` (the message's) stands in for either.
   */
  tool(
    name: string,
    state: Json,
    messageId: string,
    locator: Locator,
    time: number | undefined,
  ): void {
    const input = objectOf(state.input);
    const metadata = obj(state.metadata);
    const span = obj(state.time);
    const started = parseTime(span.start) ?? time;
    const ended = parseTime(span.end) ?? started;
    const tool = name;
    const webKey = WEB_TOOLS.get(name);
    if (name === "bash" || name === "shell") {
      const command = str(input.command);
      if (command) {
        const record = this.builder.add(
          "command",
          command,
          this.opts(locator, started, { tool }),
        );
        const exit = finite(metadata.exit);
        if (record && exit !== undefined) record.exitCode = exit;
      }
    } else if (webKey) {
      const target = str(input[webKey]);
      if (target) {
        this.builder.add(
          "command",
          target,
          this.opts(locator, started, { tool }),
        );
      }
    } else if (name === "apply_patch" || name === "patch") {
      const patch = str(input.patchText) ?? str(input.patch) ?? "";
      for (const f of filesOfApplyPatch(patch)) {
        this.file(f.path, messageId, locator, started, tool);
        this.edit(f.path, f.removed, locator, started, tool);
      }
    } else if (["read", "view", "write", "edit", "multiedit"].includes(name)) {
      const path = str(input.filePath) ?? str(input.path) ??
        str(input.file_path);
      if (path) {
        this.file(path, messageId, locator, started, tool);
        if (name === "edit") {
          this.edit(
            path,
            str(input.oldString) ?? str(input.old_string) ?? "",
            locator,
            started,
            tool,
          );
        } else if (name === "multiedit") {
          for (const e of list(input.edits)) {
            if (isObject(e)) {
              this.edit(
                path,
                str(e.oldString) ?? str(e.old_string) ?? "",
                locator,
                started,
                tool,
              );
            }
          }
        }
      }
    }
    if (state.status === "completed" || state.status === "error") {
      const out = toolOutput(state, this.#savedDir);
      this.builder.add(
        "tool-output",
        out.text,
        this.opts(locator, ended, {
          tool,
          isError: out.isError,
          truncated: out.truncated === true,
        }),
      );
      if (name === "question" && state.status === "completed") {
        this.speech("user", questionAnswers(input, metadata), locator, ended);
      }
    }
  }

  /** One 1.x / JSON-tree part of a message. */
  part(
    part: Json,
    role: unknown,
    summary: boolean,
    messageId: string,
    locator: Locator,
    fallbackTime: number | undefined,
  ): void {
    const time = parseTime(obj(part.time).start) ?? fallbackTime;
    switch (part.type) {
      case "text": {
        // Synthetic parts are what opencode injects (file bodies, reminders).
        if (part.synthetic === true || part.ignored === true) return;
        const text = typeof part.text === "string" ? part.text : "";
        if (role === "user") this.userText(text, locator, time);
        else if (role === "assistant") {
          this.speech(summary ? "summary" : "assistant", text, locator, time);
        }
        return;
      }
      case "tool": {
        const name = str(part.tool);
        if (name) this.tool(name, obj(part.state), messageId, locator, time);
        return;
      }
      case "patch":
        for (const f of list(part.files)) {
          if (typeof f === "string" && f) {
            this.file(f, messageId, locator, time);
          }
        }
        return;
      case "file": {
        // A file the person attached to their prompt (`@path`, an LSP
        // symbol): its `file://` URL, else the path its source names.
        if (role !== "user") return;
        const path = attachedPath(part);
        if (path) this.file(path, messageId, locator, time, "mention");
        return;
      }
      case "retry":
        // A model call opencode retried after a provider error.
        this.modelError(
          part.error,
          locator,
          parseTime(obj(part.time).created) ?? time,
        );
        return;
      case "subtask": {
        // A command run as a sub-agent task: its only part, the template in
        // `prompt`; what the person typed is `/command` and its arguments.
        const command = str(part.command);
        if (role !== "user" || !command) return;
        const own = this.#commands.filter((c) => c.name === command);
        const prompt = str(part.prompt) ?? "";
        const builtin = builtinCommand(prompt);
        const typed = typedCommand(prompt, own) ??
          (builtin?.split(" ", 1)[0] === `/${command}` ? builtin : undefined);
        this.speech("user", typed ?? `/${command}`, locator, time);
        return;
      }
      default:
        // reasoning, file attachments, step markers, snapshots, agent parts.
        return;
    }
  }

  /** Records of a `session_diff` file: each changed file and its removed lines. */
  diff(entries: unknown[], locator: Locator): number {
    let skipped = 0;
    for (const entry of entries) {
      if (!isObject(entry)) {
        skipped++;
        continue;
      }
      const path = str(entry.file);
      if (!path) {
        skipped++;
        continue;
      }
      this.file(path, "session_diff", locator, undefined);
      const removed = typeof entry.patch === "string"
        ? removedFromUnifiedDiff(entry.patch)
        : typeof entry.before === "string" && typeof entry.after === "string"
        ? removedLines(entry.before, entry.after)
        : "";
      this.edit(path, removed, locator, undefined);
    }
    return skipped;
  }
}

/** Reads `storage/session_diff/<id>.json` beside a store; undefined when absent. */
function readDiff(
  storageDir: string,
  sessionId: string,
): { path: string; entries: unknown[] } | undefined {
  const path = join(storageDir, "session_diff", `${sessionId}.json`);
  let text: string;
  try {
    text = Deno.readTextFileSync(path);
  } catch {
    return undefined;
  }
  const value = parseJson(text);
  return Array.isArray(value) ? { path, entries: value } : undefined;
}

function addDiff(
  session: OpencodeSession,
  storageDir: string,
  id: string,
): number {
  const diff = readDiff(storageDir, id);
  if (!diff) return 0;
  return session.diff(diff.entries, { path: diff.path, recordId: id });
}

function built(sessions: OpencodeSession[]): Session[] {
  return sessions.map((s) => s.builder.build()).filter((s) =>
    s.records.length > 0
  );
}

/** Session rows of the 1.x `session` or 2.0 `session_v2` table. */
function readSessionTable(
  store: Store,
  table: string,
): Map<string, SessionMeta> {
  const columns = columnsOf(store, table);
  const out = new Map<string, SessionMeta>();
  if (!columns.has("id")) return out;
  const pick = (name: string) =>
    columns.has(name) ? col(ident(name), name) : `NULL AS ${ident(name)}`;
  for (
    const row of rows(
      store,
      `SELECT ${col("id")}, ${
        [
          "parent_id",
          "fork_session_id",
          "directory",
          "title",
          "time_created",
          "time_updated",
          "revert",
        ]
          .map(pick).join(", ")
      } FROM ${ident(table)}`,
    )
  ) {
    const id = textColumn(row.id);
    if (!id) continue;
    const meta: SessionMeta = { id };
    const parent = textColumn(row.parent_id);
    if (parent) meta.parent = parent;
    const fork = textColumn(row.fork_session_id);
    if (fork) meta.fork = fork;
    const directory = textColumn(row.directory);
    if (directory) meta.directory = directory;
    const title = textColumn(row.title);
    if (title) meta.title = title;
    const created = parseTime(row.time_created);
    if (created !== undefined) meta.created = created;
    const updated = parseTime(row.time_updated);
    if (updated !== undefined) meta.updated = updated;
    const revert = revertOf(textColumn(row.revert));
    if (revert) meta.revert = revert;
    out.set(id, meta);
  }
  return out;
}

/** The 2.0 `session_message` rows of every session. */
function readV2(
  store: Store,
  path: string,
  metas: Map<string, SessionMeta>,
  options: OpencodeParseOptions,
): { sessions: Map<string, OpencodeSession>; skipped: number } {
  const columns = requireColumns(store, "session_message", [
    "id",
    "session_id",
    "type",
    "data",
  ]);
  const order = [
    columns.has("seq") ? "seq" : "",
    columns.has("time_created") ? "time_created" : "",
    "id",
  ]
    .filter((s) => s).join(", ");
  const sessions = new Map<string, OpencodeSession>();
  const commandsOf = commandCache();
  const dropped = new Set<string>();
  let skipped = 0;
  for (
    const row of rows(
      store,
      `SELECT ${col("id")}, ${col("session_id")}, ${col("type")}, ${
        col("data")
      }, ${
        columns.has("time_created")
          ? col("time_created")
          : "NULL AS time_created"
      } FROM session_message ORDER BY session_id, ${order}`,
    )
  ) {
    const sid = textColumn(row.session_id);
    const id = textColumn(row.id) ?? "";
    if (!sid || dropped.has(sid)) continue;
    let session = sessions.get(sid);
    if (!session) {
      const meta = metas.get(sid) ?? { id: sid };
      if (meta.parent && !options.includeSubagents) {
        dropped.add(sid);
        continue;
      }
      session = new OpencodeSession(
        path,
        meta,
        dirName(path),
        commandsOf(meta.directory, options.source),
      );
      sessions.set(sid, session);
    }
    const data = objectOf(textColumn(row.data));
    const time = parseTime(obj(data.time).created) ??
      parseTime(row.time_created);
    const locator: Locator = { path, recordId: id };
    session.startOf(id);
    switch (textColumn(row.type)) {
      case "user":
        session.userText(
          typeof data.text === "string" ? data.text : "",
          locator,
          time,
        );
        break;
      case "assistant":
        for (const item of list(data.content)) {
          if (!isObject(item)) {
            skipped++;
            continue;
          }
          if (item.type === "text" && typeof item.text === "string") {
            session.speech("assistant", item.text, locator, time);
          } else if (item.type === "tool") {
            const name = str(item.name);
            if (name) session.tool(name, obj(item.state), id, locator, time);
          }
        }
        // A failed step (`finish: "error"`) keeps why it failed.
        session.messageError(
          { role: "assistant", error: data.error },
          locator,
          time,
        );
        break;
      case "shell": {
        // A command the person ran with `!`: its line, then what it printed.
        const command = str(data.command);
        if (!command) break;
        const ended = parseTime(obj(data.time).completed);
        session.tool(
          "shell",
          {
            status: ended === undefined ? "running" : "completed",
            input: { command },
            output: typeof data.output === "string" ? data.output : "",
            time: { start: time, end: ended },
          },
          id,
          locator,
          time,
        );
        break;
      }
      case "compaction":
        session.speech(
          "summary",
          typeof data.summary === "string" ? data.summary : "",
          locator,
          time,
        );
        break;
      default:
        // synthetic and system rows are harness-authored; idle marks the end
        // of a turn; agent/model switches are settings.
        break;
    }
  }
  return { sessions, skipped };
}

/** `opencodeCommands`, read once per working directory of a store. */
function commandCache(): (
  directory: string | undefined,
  source: OpencodeParseOptions["source"],
) => OpencodeCommand[] {
  const seen = new Map<string, OpencodeCommand[]>();
  return (directory, source) => {
    const key = directory ?? "";
    let commands = seen.get(key);
    if (!commands) {
      commands = opencodeCommands(directory, source);
      seen.set(key, commands);
    }
    return commands;
  };
}

/** The 1.x `message` + `part` rows of every session not already read from 2.0. */
function readV1(
  store: Store,
  path: string,
  metas: Map<string, SessionMeta>,
  skip: ReadonlySet<string>,
  options: OpencodeParseOptions,
): { sessions: Map<string, OpencodeSession>; skipped: number } {
  const message = requireColumns(store, "message", [
    "id",
    "session_id",
    "data",
  ]);
  requireColumns(store, "part", ["id", "message_id", "data"]);
  const sessions = new Map<string, OpencodeSession>();
  const commandsOf = commandCache();
  const dropped = new Set<string>();
  let skipped = 0;
  let lastMessage = "";
  let messageInfo: Json = {};
  let pendingError: (() => void) | undefined;
  const flushError = () => {
    pendingError?.();
    pendingError = undefined;
  };
  const created = message.has("time_created") ? "m.time_created" : "NULL";
  for (
    const row of rows(
      store,
      `SELECT ${col("m.id", "mid")}, ${col("m.session_id", "sid")}, ${
        col(created, "mtime")
      }, ${col("m.data", "mdata")}, ${col("p.id", "pid")}, ${
        col("p.data", "pdata")
      }
       FROM message m LEFT JOIN part p ON p.message_id = m.id
       ORDER BY m.session_id, ${
        message.has("time_created") ? "m.time_created, " : ""
      }m.id, p.id`,
    )
  ) {
    const sid = textColumn(row.sid);
    const mid = textColumn(row.mid) ?? "";
    if (!sid || skip.has(sid) || dropped.has(sid)) continue;
    let session = sessions.get(sid);
    if (!session) {
      const meta = metas.get(sid) ?? { id: sid };
      if (meta.parent && !options.includeSubagents) {
        dropped.add(sid);
        continue;
      }
      session = new OpencodeSession(
        path,
        meta,
        dirName(path),
        commandsOf(meta.directory, options.source),
      );
      sessions.set(sid, session);
    }
    if (mid !== lastMessage) {
      // A message's error follows its parts, as in the JSON tree.
      flushError();
      lastMessage = mid;
      messageInfo = objectOf(textColumn(row.mdata));
      const at = session;
      const info = messageInfo;
      const time = parseTime(obj(info.time).created) ?? parseTime(row.mtime);
      pendingError = () => at.messageError(info, { path, recordId: mid }, time);
    }
    const pid = textColumn(row.pid);
    if (pid === undefined) continue;
    const part = objectOf(textColumn(row.pdata));
    if (Object.keys(part).length === 0) {
      skipped++;
      continue;
    }
    session.startOf(mid, pid);
    const time = parseTime(obj(messageInfo.time).created) ??
      parseTime(row.mtime);
    session.part(
      part,
      messageInfo.role,
      messageInfo.summary === true,
      mid,
      { path, recordId: pid },
      time,
    );
  }
  flushError();
  return { sessions, skipped };
}

/**
 * Parses an opencode SQLite store. Sessions in the 2.0 tables
 * (`session_v2`/`session_message`) win over the 1.x copy opencode keeps
 * under the same id. Text parts are speech (synthetic parts are not), the
 * compaction summary is a `summary`, `bash`/`shell` calls are commands with
 * `metadata.exit` (a web tool's URL or query is a command too),
 * read/write/edit/multiedit/apply_patch give files and edits, tool results
 * are `tool-output` (`error` status flagged; a truncated one read whole from
 * `tool-output/` beside the store), each timed by the tool's own start and
 * end, answers to the `question` tool are the user's, patch parts list
 * changed files, child sessions (`parent_id`) are sub-agents and
 * `fork_session_id` forks. A session's `revert` (an undo not yet cleaned up)
 * marks the reverted tail superseded. The `storage/session_diff/<id>.json`
 * beside the store adds each session's changed files and removed lines.
 *
 * @param path The database.
 * @param options Sub-agent switch.
 * @returns The sessions; a store with neither table generation throws SRC-E002.
 * @example
 * ```ts
 * import { parseOpencodeDb } from "./opencode.ts";
 * import { rejects } from "node:assert/strict";
 * const path = await Deno.makeTempFile({ suffix: ".db" });
 * const source = { home: "/h", env: {}, os: "linux" };
 * await rejects(parseOpencodeDb(path, { includeSubagents: true, source }), /missing table "session"/);
 * ```
 */
export function parseOpencodeDb(
  path: string,
  options: OpencodeParseOptions,
): Promise<ParseResult> {
  return readStore(path, NAME, (store) => {
    const hasV2 = store.tables.has("session_message");
    const hasV1 = store.tables.has("message") || store.tables.has("part") ||
      !hasV2;
    if (hasV1) requireTables(store, ["session", "message", "part"]);
    const metas = store.tables.has("session")
      ? readSessionTable(store, "session")
      : new Map();
    if (store.tables.has("session_v2")) {
      for (const [id, meta] of readSessionTable(store, "session_v2")) {
        metas.set(id, meta);
      }
    }
    let skipped = 0;
    const all: OpencodeSession[] = [];
    const v2Ids = new Set<string>();
    if (hasV2) {
      const v2 = readV2(store, path, metas, options);
      skipped += v2.skipped;
      for (const [id, s] of v2.sessions) {
        v2Ids.add(id);
        all.push(s);
      }
      if (store.tables.has("session_v2")) {
        for (const id of readSessionTable(store, "session_v2").keys()) {
          v2Ids.add(id);
        }
      }
    }
    if (hasV1) {
      const v1 = readV1(store, path, metas, v2Ids, options);
      skipped += v1.skipped;
      all.push(...v1.sessions.values());
    }
    const storageDir = join(dirName(path), "storage");
    for (const s of all) {
      s.finish();
      skipped += addDiff(s, storageDir, s.builder.build().id);
    }
    return { sessions: built(all), skipped };
  });
}

/**
 * A part of a message from opencode's first releases (v0.1–0.3), which kept
 * its parts inline, as the `tool` part later releases write: a
 * `tool-invocation` part (`toolInvocation`: `toolName`, `toolCallId`,
 * `args`, `state` call/partial-call/result, `result`) whose metadata, times
 * and failure (`error: true`) sit in the message's `metadata.tool[<call>]`.
 * Tool names then carried an `opencode_` prefix (`opencode_bash`). Any other
 * part is returned as it is.
 */
function inlinePart(part: Json, toolMeta: Json): Json {
  if (part.type !== "tool-invocation") return part;
  const call = obj(part.toolInvocation);
  const name = str(call.toolName)?.replace(/^opencode_/, "");
  const id = str(call.toolCallId);
  const metadata = id === undefined ? {} : obj(toolMeta[id]);
  const result = typeof call.result === "string" ? call.result : "";
  const failed = metadata.error === true;
  const status = call.state !== "result"
    ? "running"
    : failed
    ? "error"
    : "completed";
  return {
    type: "tool",
    ...(id === undefined ? {} : { id }),
    ...(name === undefined ? {} : { tool: name }),
    state: {
      status,
      input: objectOf(call.args),
      ...(failed
        ? { error: str(metadata.message) ?? result }
        : { output: result }),
      metadata,
      time: obj(metadata.time),
    },
  };
}

/** Reads every JSON file directly inside a directory, sorted by name. */
function jsonFiles(dir: string): Array<{ path: string; value: unknown }> {
  let names: string[];
  try {
    names = [...Deno.readDirSync(dir)].filter((e) =>
      e.isFile && e.name.endsWith(".json")
    )
      .map((e) => e.name).sort();
  } catch {
    return [];
  }
  return names.map((name) => {
    const path = join(dir, name);
    let value: unknown;
    try {
      value = parseJson(Deno.readTextFileSync(path));
    } catch {
      value = undefined;
    }
    return { path, value };
  });
}

/** The storage directory and layout of a session info file. */
function storageOf(path: string): { storage: string; legacy: boolean } {
  const sessionDir = dirName(dirName(path));
  const storage = dirName(sessionDir);
  return { storage, legacy: baseName(dirName(path)) === "info" };
}

/**
 * Parses one session of opencode's JSON tree (before the SQLite store): the
 * session info file, its messages and their parts. Layout ≤0.5:
 * `storage/session/{info,message,part}/…`; 0.6 and later:
 * `storage/session/<project>/<id>.json`, `storage/message/<id>/`,
 * `storage/part/<message>/`. Parts are read like the 1.x table's; very old
 * messages that carry their parts inline are read too.
 *
 * @param path The session info file.
 * @param options Sub-agent switch.
 * @returns The session (none when nothing was said, or unreadable info).
 * @example
 * ```ts
 * import { parseOpencodeStorageSession } from "./opencode.ts";
 * import { equal } from "node:assert/strict";
 * const root = await Deno.makeTempDir();
 * const s = `${root}/storage/session`;
 * await Deno.mkdir(`${s}/info`, { recursive: true });
 * await Deno.mkdir(`${s}/message/ses_1`, { recursive: true });
 * await Deno.mkdir(`${s}/part/ses_1/msg_1`, { recursive: true });
 * await Deno.writeTextFile(`${s}/info/ses_1.json`, JSON.stringify({ id: "ses_1", title: "t", time: { created: 1 } }));
 * await Deno.writeTextFile(`${s}/message/ses_1/msg_1.json`, JSON.stringify({ id: "msg_1", role: "user", time: { created: 1760000000000 } }));
 * await Deno.writeTextFile(`${s}/part/ses_1/msg_1/prt_1.json`, JSON.stringify({ id: "prt_1", type: "text", text: "hello" }));
 * const { sessions } = await parseOpencodeStorageSession(`${s}/info/ses_1.json`, { includeSubagents: true, source: { home: root, env: {}, os: "linux" } });
 * equal(sessions[0]?.records[0]?.text, "hello");
 * ```
 */
export function parseOpencodeStorageSession(
  path: string,
  options: OpencodeParseOptions,
): Promise<ParseResult> {
  return Promise.resolve().then(() => {
    let info: Json;
    try {
      info = objectOf(Deno.readTextFileSync(path));
    } catch {
      return { sessions: [], skipped: 1 };
    }
    const id = str(info.id) ?? baseName(path).replace(/\.json$/, "");
    const time = obj(info.time);
    const meta: SessionMeta = { id };
    const parent = str(info.parentID);
    if (parent) meta.parent = parent;
    const directory = str(info.directory);
    if (directory) meta.directory = directory;
    const title = str(info.title);
    if (title) meta.title = title;
    const created = parseTime(time.created);
    if (created !== undefined) meta.created = created;
    const updated = parseTime(time.updated);
    if (updated !== undefined) meta.updated = updated;
    const revert = revertOf(info.revert);
    if (revert) meta.revert = revert;
    if (meta.parent && !options.includeSubagents) {
      return { sessions: [], skipped: 0 };
    }
    const { storage, legacy } = storageOf(path);
    const session = new OpencodeSession(
      path,
      meta,
      dirName(storage),
      opencodeCommands(meta.directory, options.source),
    );
    const messageDir = legacy
      ? join(storage, "session", "message", id)
      : join(storage, "message", id);
    const messages = jsonFiles(messageDir)
      .map((m) => ({ path: m.path, info: objectOf(m.value) }))
      .sort((a, b) =>
        (parseTime(obj(a.info.time).created) ?? 0) -
          (parseTime(obj(b.info.time).created) ?? 0) ||
        (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)
      );
    let skipped = 0;
    let cwdSet = directory !== undefined;
    for (const message of messages) {
      const m = message.info;
      const mid = str(m.id) ?? baseName(message.path).replace(/\.json$/, "");
      if (Object.keys(m).length === 0) {
        skipped++;
        continue;
      }
      // v0.1–0.3 kept times, the error, the summary flag, the working
      // directory and tool metadata under `metadata`.
      const early = obj(m.metadata);
      const assistant = obj(early.assistant);
      const fallback = parseTime(obj(m.time).created) ??
        parseTime(obj(early.time).created);
      if (!cwdSet) {
        const cwd = str(obj(m.path).cwd) ?? str(obj(assistant.path).cwd);
        if (cwd) {
          session.builder.setCwd(cwd);
          cwdSet = true;
        }
      }
      const partDir = legacy
        ? join(storage, "session", "part", id, mid)
        : join(storage, "part", mid);
      const toolMeta = obj(early.tool);
      const parts = Array.isArray(m.parts)
        ? m.parts.map((p, i) => ({
          path: `${message.path}#${i}`,
          value: isObject(p) ? inlinePart(p, toolMeta) : p as unknown,
        }))
        : jsonFiles(partDir);
      const summary = m.summary === true || assistant.summary === true;
      for (const p of parts) {
        if (!isObject(p.value)) {
          skipped++;
          continue;
        }
        const pid = str(p.value.id) ?? baseName(p.path);
        session.startOf(mid, pid);
        session.part(p.value, m.role, summary, mid, {
          path: p.path,
          recordId: pid,
        }, fallback);
      }
      session.messageError(
        m.error === undefined && early.error !== undefined
          ? { ...m, error: early.error }
          : m,
        { path: message.path, recordId: mid },
        fallback,
      );
    }
    session.finish();
    skipped += addDiff(session, storage, id);
    return { sessions: built([session]), skipped };
  });
}

/** Whether a store or JSON tree beside a diff file already holds the session. */
function heldElsewhere(diffPath: string, sessionId: string): boolean {
  const storage = dirName(dirName(diffPath));
  const root = dirName(storage);
  try {
    if (
      Deno.statSync(join(storage, "session", "info", `${sessionId}.json`))
        .isFile
    ) return true;
  } catch {
    // Not in the ≤0.5 layout.
  }
  try {
    for (const entry of Deno.readDirSync(join(storage, "session"))) {
      if (!entry.isDirectory) continue;
      try {
        if (
          Deno.statSync(
            join(storage, "session", entry.name, `${sessionId}.json`),
          ).isFile
        ) return true;
      } catch {
        // Not under this project.
      }
    }
  } catch {
    // No JSON tree.
  }
  let dbs: string[] = [];
  try {
    dbs = [...Deno.readDirSync(root)].filter((e) => e.isFile && isDb(e.name))
      .map((e) => join(root, e.name));
  } catch {
    return false;
  }
  for (const db of dbs) {
    let store: Store | undefined;
    try {
      store = openStore(db, NAME);
      for (
        const [table, column] of [["session", "id"], ["session_v2", "id"], [
          "session_message",
          "session_id",
        ]]
      ) {
        if (!store.tables.has(table as string)) continue;
        for (
          const _ of rows(
            store,
            `SELECT 1 AS x FROM ${
              ident(table as string)
            } WHERE ${column} = ? LIMIT 1`,
            sessionId,
          )
        ) {
          return true;
        }
      }
    } catch {
      // An unreadable store holds nothing we can rely on.
    } finally {
      if (store) closeStore(store);
    }
  }
  return false;
}

/**
 * Parses a `storage/session_diff/<id>.json` file: the files a session
 * changed (`file`) and the lines it removed (from `before`/`after`, or a
 * unified `patch`). The store or JSON tree beside it already adds these to
 * the session, so this yields a session only for a diff whose session is
 * held nowhere else (the store was deleted, say).
 *
 * @param path The diff file.
 * @param options Parse options.
 * @returns The orphan session's work records, or nothing.
 * @example
 * ```ts
 * import { parseOpencodeSessionDiff } from "./opencode.ts";
 * import { equal } from "node:assert/strict";
 * const root = await Deno.makeTempDir();
 * await Deno.mkdir(`${root}/storage/session_diff`, { recursive: true });
 * const path = `${root}/storage/session_diff/ses_9.json`;
 * await Deno.writeTextFile(path, JSON.stringify([{ file: "src/a.ts", before: "x\ny", after: "x" }]));
 * const { sessions } = await parseOpencodeSessionDiff(path, { includeSubagents: true, source: { home: root, env: {}, os: "linux" } });
 * equal(sessions[0]?.records[1]?.text, "src/a.ts\ny");
 * ```
 */
export function parseOpencodeSessionDiff(
  path: string,
  _options: OpencodeParseOptions,
): Promise<ParseResult> {
  return Promise.resolve().then(() => {
    const id = baseName(path).replace(/\.json$/, "");
    let value: unknown;
    try {
      value = parseJson(Deno.readTextFileSync(path));
    } catch {
      return { sessions: [], skipped: 1 };
    }
    if (!Array.isArray(value)) return { sessions: [], skipped: 1 };
    if (value.length === 0 || heldElsewhere(path, id)) {
      return { sessions: [], skipped: 0 };
    }
    const session = new OpencodeSession(path, { id });
    const skipped = session.diff(value, { path, recordId: id });
    return { sessions: built([session]), skipped };
  });
}

const dbKind: FileKind = {
  id: "db",
  appendOnly: false,
  match: isDb,
  parse: (path, options) => parseOpencodeDb(path, options),
};

const storageKind: FileKind = {
  id: "storage-session",
  appendOnly: false,
  match: isSessionInfo,
  parse: (path, options) => parseOpencodeStorageSession(path, options),
};

const diffKind: FileKind = {
  id: "session-diff",
  appendOnly: false,
  match: isSessionDiff,
  parse: (path, options) => parseOpencodeSessionDiff(path, options),
};

/**
 * The opencode harness: `opencode*.db`, the `storage/` JSON tree (also under
 * `project/<name>/storage/`) and `storage/session_diff/` under
 * `$XDG_DATA_HOME/opencode` or `~/.local/share/opencode`.
 *
 * @example
 * ```ts
 * import { opencode } from "./opencode.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(opencode.roots({ home: "/h", env: {}, os: "linux" }), ["/h/.local/share/opencode"]);
 * ```
 */
export const opencode: Harness = {
  id: HARNESS_ID,
  name: NAME,
  format:
    "SQLite opencode.db (1.x session/message/part, 2.0 session_v2/session_message); older storage/ JSON tree; session_diff JSON",
  envOverrides: ["XDG_DATA_HOME", "DEJA_OPENCODE_ROOT"],
  // 2: an assistant message's error is kept as error tool-output.
  // 3: a tool's records are timed by its own start and end; an interrupted
  // tool keeps its partial output; a truncated output is read whole from
  // tool-output/; answers to the question tool are the user's; a web
  // tool's URL or query is a command.
  // 4: the first releases' inline messages give their tool invocations,
  // error, summary flag and working directory (`metadata`).
  // 5: a custom slash command's expanded template (a user text part, or a
  // command subtask's prompt) is read back as `/name args`.
  // 6: 2.0 `shell` rows (a command the person ran with `!`) give the command
  // and its output; a 2.0 step's error is kept as error tool-output.
  // 7: a provider error opencode retried (`retry` part) is kept as error
  // tool-output of the model call, once per run of the same failure.
  // 8: a built-in command's expanded template (`/init`, `/review`) is read
  // back as `/init args` or `/review args`.
  // 9: a file the person attached to a prompt (a user `file` part: `@path`,
  // an LSP symbol) is a files record (tool `mention`).
  // 10: a provider error keeps its HTTP status and kind beside its message
  // ("Insufficient Balance (APIError, HTTP 402)").
  // 11: a JSON-tree file (session, message, part, session_diff) opening
  // with a UTF-8 BOM is read (it was skipped as malformed).
  revision: 11,
  roots: opencodeRoots,
  discover: discoverOpencode,
  kinds: [dbKind, storageKind, diffKind],
  docs: {
    store:
      "`$XDG_DATA_HOME/opencode` or `~/.local/share/opencode` on every OS (opencode uses the XDG layout everywhere): `opencode.db` and channel stores `opencode-<channel>.db`; before the SQLite store, `storage/session/info/<id>.json` + `storage/session/{message,part}/…` (≤0.5, also under `project/<name>/storage/`) or `storage/session/<project>/<id>.json` + `storage/message/<id>/` + `storage/part/<message>/` (0.6+); `storage/session_diff/<id>.json`; `DEJA_OPENCODE_ROOT` redirects",
    extracts:
      "user/assistant text parts (v0.1–0.3 messages with their parts inline: text and `tool-invocation` parts, the call's metadata, failure, error, summary flag and cwd under `metadata`), compaction summaries (`summary: true` messages, 2.0 `compaction` rows) as `summary`, bash/shell commands with `metadata.exit`, the URL a `webfetch` fetched and the query of a `websearch`/`codesearch` as commands (tool named), files and edits for read/write/edit/multiedit/apply_patch (oldString, patch `-` lines) and patch parts, tool output (error status flagged; an output opencode truncated read whole, up to the output cap, from `tool-output/tool_*` beside the store, the stored preview flagged truncated once that file is gone; with what a failed or interrupted tool printed first, `metadata.output`), each timed by the tool's own `state.time` start (the call) and end (the output), a custom slash command the person ran as user `/name args` (opencode stores the command's expanded template as their text, unmarked: a user text part or a command `subtask` part's prompt that is the expansion of a template in the project's `.opencode/command(s)/` or `${XDG_CONFIG_HOME:-~/.config}/opencode/command(s)/`, `~/.opencode/command(s)/` is read back as the command), a built-in command the person ran (`/init`, `/review`: their templates live in the opencode program) as user `/init args` or `/review args`, told by the template's opening line and the text either side of its arguments in every version (`/init`: `Create or update `AGENTS.md` for this repository.` … `User-provided focus or constraints (honor these):`, before 2026 `Please analyze this codebase and create an AGENTS.md file containing:` … `improve it if it's located in <path>`; `/review`: `You are a code reviewer. …` … `Input: <args>`), a file the person attached to a prompt (a user `file` part, `@path` or an LSP symbol: the path of its `file://` URL, else its `source.path`) as a files record (tool `mention`), a person's answers to the `question` tool as user (`question → answer`, from `metadata.answers`), the error an assistant message ended with (an API or provider failure, with its HTTP status and kind when it has one: `Insufficient Balance (APIError, HTTP 402)`; a 2.0 assistant row's `error` when its step failed) and a provider error opencode retried (`retry` parts) as error tool-output of the model call, once per run of the same failure, a 2.0 `shell` row (a command the person ran with `!`) as a `shell` command and its output, child sessions (`parent_id`) as sub-agents, `fork_session_id` as forks, a pending `revert` as a supersession mark over the reverted tail, session_diff files and removed lines; 2.0 sessions win over their 1.x copy",
    omits:
      "reasoning parts, synthetic/ignored text parts (injected file bodies and reminders), the contents of attached files, attached directories, pasted images and MCP resources, agent parts and non-command subtask parts (the user's text part holds the same prompt), the template of an `opencode.json` command, of a command file since removed and of one under 24 characters besides its placeholders (too short to tell from a typed prompt), kept as the user's text, the inputs of other tools (todowrite, task, grep, MCP tools…: their output is kept), step/snapshot markers, 2.0 `synthetic`/`system`/`idle`/`agent-switched`/`model-switched` rows, the system prompt stored in ≤0.5 messages, the duplicate `summary_diffs` column",
    verified:
      "real samples: opencode-stable.db from opencode 1.2.25 (one session, a user text part, an assistant error), the ≤0.5 JSON tree of opencode 0.5.28 (two sessions), an empty session_diff; opencode 1.18.5's `session`/`message`/`part` columns with synthetic rows in the shapes its source writes (truncated output and `tool-output/` file, interrupted tool, question answers, webfetch, `state.time`, a custom command's expanded template as the user text part and as a command `subtask` part), in src/sources/opencode_test.ts; the built-in `/init` and `/review` templates' openings and argument places from opencode's `command/template/initialize.txt` (2025 and 2026 versions) and `review.txt`, tested on synthetic text around them; the 2.0 tables from a public capture of opencode 2.0.26's schema (no 2.0 sample on disk); the v0.1–0.3 inline message shape (`tool-invocation` parts, `metadata.tool`, `opencode_`-prefixed tool names) from opencode's early session and message source, in src/sources/opencode_test.ts; fixtures/opencode",
  },
};
