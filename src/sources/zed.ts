/**
 * Zed's agent panel: every thread is one row of `threads/threads.db` under
 * Zed's data directory, its document zstd-compressed (or plain) JSON. Text
 * threads (the older assistant panel's conversations) are one JSON file
 * each, `conversations/<summary> - <n>.zed.json`.
 *
 * @module
 */
import { join } from "node:path";
import { zstdDecompressSync } from "node:zlib";
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
import { baseName, isRegularFileSync } from "./_paths.ts";
import {
  localAppData,
  macAppSupport,
  walkRoots,
  xdgDataHome,
} from "./_roots.ts";
import { readJsonDocument } from "./_json_doc.ts";
import {
  col,
  columnsOf,
  ident,
  readStore,
  requireColumns,
  requireTables,
  rows,
  textColumn,
} from "./_sqlite_store.ts";
import { isObject, type Json, list, obj, objectOf, str } from "./_json.ts";
import { editBody, exitCodeIn } from "./_work_records.ts";
import { GREP_TOOL, grepCommand } from "./_tool_records.ts";

const HARNESS_ID = "zed";
const NAME = "Zed";

/** The tool of output a slash command inserted into a text thread. */
const SLASH_TOOL = "slash-command";

/** How a text thread's file name ends. */
const TEXT_THREAD_SUFFIX = ".zed.json";

/** A thread document larger than this once decompressed is skipped. */
const MAX_DOCUMENT_BYTES = 256 * 1024 * 1024;

/** Tools whose `path` input names one file or directory. */
const PATH_TOOLS = new Set([
  "read_file",
  "write_file",
  "edit_file",
  "streaming_edit_file",
  "create_directory",
  "delete_path",
  "open",
  "diagnostics",
]);

/** Tools with `source_path` and `destination_path`. */
const MOVE_TOOLS = new Set(["move_path", "copy_path"]);

/** Tools with a `paths` list. */
const PATHS_TOOLS = new Set(["save_file", "restore_file_from_disk"]);

/** Zed's data directories, per OS, where `threads/threads.db` lives. */
function zedDataRoots(source: SourceEnv): string[] {
  const env = source.env;
  if (env.DEJA_ZED_ROOT) return [env.DEJA_ZED_ROOT];
  if (source.os === "darwin") return [join(macAppSupport(source), "Zed")];
  if (source.os === "windows") return [join(localAppData(source), "Zed")];
  const data = env.FLATPAK_XDG_DATA_HOME || xdgDataHome(source);
  return [join(data, "zed")];
}

/**
 * The folders of text threads (`*.zed.json`). Zed's `contexts_dir` is
 * `conversations` under the config folder `~/.config/zed` on macOS and under
 * the data folder elsewhere; builds from before Linux had its own folders
 * (early 2024) wrote `~/.config/zed/conversations` on macOS and Linux.
 */
function textThreadDirs(source: SourceEnv): string[] {
  const dirs = zedDataRoots(source).map((root) => join(root, "conversations"));
  if (!source.env.DEJA_ZED_ROOT && source.os !== "windows") {
    dirs.push(join(source.home, ".config", "zed", "conversations"));
  }
  return dirs;
}

/** The data roots, then the text-thread folders outside them. */
function zedRoots(source: SourceEnv): string[] {
  const data = zedDataRoots(source);
  const inside = new Set(data.map((root) => join(root, "conversations")));
  return [...data, ...textThreadDirs(source).filter((d) => !inside.has(d))];
}

/** A text thread's file: `<summary> - <n>.zed.json`. */
function isTextThread(path: string): boolean {
  return baseName(path).endsWith(TEXT_THREAD_SUFFIX);
}

function discoverZed(source: SourceEnv): Promise<string[]> {
  const dbs = zedDataRoots(source)
    .map((root) => join(root, "threads", "threads.db"))
    .filter(isRegularFileSync);
  const texts = walkRoots(textThreadDirs(source), isTextThread, {
    maxDepth: 0,
  });
  return Promise.resolve([...new Set([...dbs, ...texts])]);
}

/** Options for {@linkcode parseZedThreads}. */
export type ZedParseOptions = ParseOptions;

/** The JSON document of one thread row, or undefined when unreadable. */
function decodeDocument(dataType: string, data: unknown): Json | undefined {
  let bytes: Uint8Array | undefined;
  if (data instanceof Uint8Array) bytes = data;
  else if (typeof data === "string") bytes = new TextEncoder().encode(data);
  if (!bytes) return undefined;
  let text: string;
  try {
    if (dataType === "zstd") {
      text = new TextDecoder().decode(
        zstdDecompressSync(bytes, { maxOutputLength: MAX_DOCUMENT_BYTES }),
      );
    } else if (dataType === "json") {
      text = new TextDecoder().decode(bytes);
    } else {
      return undefined;
    }
  } catch {
    return undefined;
  }
  const doc = objectOf(text);
  return Object.keys(doc).length > 0 ? doc : undefined;
}

/**
 * A tool call's input. Zed now writes it tagged, `{"type":"json","value":{…}}`
 * (or `"text"` for free-form input); earlier builds wrote the object itself.
 * A free-form or missing input falls back to `raw_input`, the JSON the model
 * streamed.
 */
function toolInput(use: Json): Json {
  const input = use.input;
  if (
    isObject(input) && Object.keys(input).length === 2 &&
    typeof input.type === "string" && "value" in input
  ) {
    if (input.type === "json") return objectOf(input.value);
    if (input.type === "text") return objectOf(use.raw_input);
    return input;
  }
  return isObject(input) ? input : objectOf(use.raw_input);
}

/** Text of a tool result's content: `{"Text": ...}`, a string, or parts. */
function resultText(result: Json): string {
  const content = result.content;
  if (typeof content === "string") return content;
  if (isObject(content) && typeof content.Text === "string") {
    return content.Text;
  }
  if (Array.isArray(content)) {
    return content.map((c) =>
      typeof c === "string"
        ? c
        : isObject(c) && typeof c.text === "string"
        ? c.text
        : isObject(c) && typeof c.Text === "string"
        ? c.Text
        : ""
    ).filter((s) => s.length > 0).join("\n");
  }
  return typeof result.output === "string" ? result.output : "";
}

/**
 * How the message editor showed a mention (`@name`): Zed stores it as a
 * `Mention` part between the typed text, its `uri` a tagged object
 * (`{"File": {"abs_path": …}}`, `{"Symbol": {…, "name": …}}`,
 * `{"Fetch": {"url": …}}`, …). The mentioned contents are not read.
 */
function mentionName(uri: unknown): string | undefined {
  if (typeof uri === "string") return uri || undefined;
  if (!isObject(uri)) return undefined;
  const kind = Object.keys(uri)[0];
  if (!kind) return undefined;
  const value = uri[kind];
  if (typeof value === "string") return baseName(value) || undefined;
  const fields = obj(value);
  const path = str(fields.abs_path) ?? str(fields.path) ??
    str(fields.file_path);
  const name = str(fields.name) ?? str(fields.url) ?? str(fields.base_ref);
  if (kind === "Selection" || kind === "Symbol") {
    const range = obj(fields.line_range);
    const start = range.start, end = range.end;
    const lines = typeof start === "number" && typeof end === "number"
      ? `:${start + 1}-${end + 1}`
      : "";
    if (kind === "Symbol" && name) return name;
    if (path) return `${baseName(path)}${lines}`;
  }
  if (name) return name;
  if (path) return baseName(path) || path;
  return kind;
}

/**
 * The thread's detailed summary (what Zed hands another thread that
 * mentions this one): `detailed_summary` in 0.3.0 documents,
 * `detailed_summary_state: {"Generated": {"text"}}` in legacy ones.
 */
function detailedSummary(doc: Json): string | undefined {
  const text = str(doc.detailed_summary) ??
    str(obj(obj(doc.detailed_summary_state).Generated).text);
  return text?.trim() ? text : undefined;
}

/** Marks a mention among a user message's pieces until they are joined. */
const MENTION = "\u0000@";

/** A user message's pieces as one text, each mention set off by spaces. */
function joinMentions(pieces: string[]): string {
  let out = "";
  for (const [i, piece] of pieces.entries()) {
    if (!piece.startsWith(MENTION)) {
      const after = i > 0 && pieces[i - 1]?.startsWith(MENTION);
      out += after && /^[\p{L}\p{N}]/u.test(piece) ? ` ${piece}` : piece;
      continue;
    }
    const name = piece.slice(1);
    out += out.length > 0 && /\S$/.test(out) ? ` ${name}` : name;
  }
  return out;
}

/** Builds one thread's session. */
class ThreadReader {
  readonly builder: SessionBuilder;
  skipped = 0;
  #path: string;
  #threadId: string;
  #time: number | undefined;
  #flags: RecordFlags | undefined;

  constructor(
    path: string,
    threadId: string,
    time: number | undefined,
    parent: string | undefined,
  ) {
    this.#path = path;
    this.#threadId = threadId;
    this.#time = time;
    this.builder = new SessionBuilder({
      harness: HARNESS_ID,
      id: threadId,
      path,
      parent,
      lineage: parent ? "subagent" : undefined,
    });
    if (parent) this.#flags = { subagent: true };
    this.builder.touch(time);
  }

  #opts(
    index: number,
    extra: { tool?: string; isError?: boolean; truncated?: boolean } = {},
  ) {
    const flags: RecordFlags = { ...this.#flags };
    if (extra.isError) flags.isError = true;
    if (extra.truncated) flags.truncated = true;
    return {
      locator: { path: this.#path, recordId: `${this.#threadId}#${index}` },
      time: this.#time,
      ...(extra.tool ? { tool: extra.tool } : {}),
      ...(Object.keys(flags).length > 0 ? { flags } : {}),
    };
  }

  /** The summary Zed wrote of the whole thread, after its messages. */
  summary(text: string | undefined, index: number): void {
    if (text) this.builder.add("summary", cleanSpeech(text), this.#opts(index));
  }

  /** A 0.3.0 message: `{"User": …}`, `{"Agent": …}` or the string "Resume". */
  current(message: unknown, index: number): void {
    if (typeof message === "string") return;
    if (!isObject(message)) {
      this.skipped++;
      return;
    }
    if (isObject(message.User)) {
      const texts: string[] = [];
      for (const part of list(message.User.content)) {
        if (isObject(part) && typeof part.Text === "string") {
          texts.push(part.Text);
        } else if (isObject(part) && isObject(part.Mention)) {
          // The typed text stops where a mention was inserted; the model
          // saw the mention there as a link, the person as `@name`.
          const name = mentionName(part.Mention.uri);
          if (name) texts.push(MENTION + name);
        }
      }
      this.builder.add(
        "user",
        cleanSpeech(joinMentions(texts)),
        this.#opts(index),
      );
    } else if (isObject(message.Agent)) {
      this.#agent(message.Agent, index);
    } else {
      this.skipped++;
    }
  }

  #agent(agent: Json, index: number): void {
    const results = obj(agent.tool_results);
    let texts: string[] = [];
    const flush = () => {
      if (texts.length === 0) return;
      this.builder.add(
        "assistant",
        cleanSpeech(texts.join("")),
        this.#opts(index),
      );
      texts = [];
    };
    for (const part of list(agent.content)) {
      if (!isObject(part)) continue;
      if (typeof part.Text === "string") {
        texts.push(part.Text);
      } else if (isObject(part.ToolUse)) {
        flush();
        const use = part.ToolUse;
        const id = str(use.id);
        const result = id && isObject(results[id]) ? results[id] : undefined;
        this.#toolUse(str(use.name), toolInput(use), result, index);
      }
      // Thinking and RedactedThinking are the model's reasoning, not speech.
    }
    flush();
  }

  /** A legacy (0.1/0.2) message: `{role, segments, tool_uses, tool_results}`. */
  legacy(message: unknown, index: number): void {
    if (!isObject(message)) {
      this.skipped++;
      return;
    }
    const role = message.role;
    if (role !== "user" && role !== "assistant") return;
    const texts: string[] = [];
    for (const segment of list(message.segments)) {
      if (
        isObject(segment) && segment.type === "text" &&
        typeof segment.text === "string"
      ) {
        texts.push(segment.text);
      }
    }
    this.builder.add(role, cleanSpeech(texts.join("")), this.#opts(index));
    const results = new Map<string, Json>();
    for (const r of list(message.tool_results)) {
      if (isObject(r) && typeof r.tool_use_id === "string") {
        results.set(r.tool_use_id, r);
      }
    }
    for (const use of list(message.tool_uses)) {
      if (!isObject(use)) continue;
      const id = str(use.id);
      this.#toolUse(
        str(use.name),
        objectOf(use.input),
        id ? results.get(id) : undefined,
        index,
      );
    }
  }

  #toolUse(
    name: string | undefined,
    input: Json,
    result: Json | undefined,
    index: number,
  ): void {
    if (!name) return;
    let command: SessionRecord | undefined;
    if (name === "grep") {
      // What was searched for (`regex`, `include_pattern`), before its
      // output; no exit code: a search that matched nothing did not fail.
      const text = grepCommand(input);
      if (text) {
        this.builder.add(
          "command",
          text,
          this.#opts(index, { tool: GREP_TOOL }),
        );
      }
    } else if (name === "terminal") {
      const cmd = str(input.command);
      if (cmd) {
        command = this.builder.add(
          "command",
          cmd,
          this.#opts(index, { tool: name }),
        );
      }
    } else {
      const paths: string[] = [];
      if (PATH_TOOLS.has(name)) {
        const p = str(input.path);
        if (p) paths.push(p);
      } else if (MOVE_TOOLS.has(name)) {
        for (const key of ["source_path", "destination_path"]) {
          const p = str(input[key]);
          if (p) paths.push(p);
        }
      } else if (PATHS_TOOLS.has(name)) {
        for (const p of list(input.paths)) {
          if (typeof p === "string" && p) paths.push(p);
        }
      }
      for (const p of paths) {
        this.builder.add("files", p, this.#opts(index, { tool: name }));
      }
      const path = paths[0];
      if (path && (name === "edit_file" || name === "streaming_edit_file")) {
        for (const edit of list(input.edits)) {
          if (!isObject(edit)) continue;
          const old = typeof edit.old_text === "string"
            ? edit.old_text
            : undefined;
          if (!old) continue;
          const body = editBody(path, old);
          this.builder.add(
            "edit",
            body.text,
            this.#opts(index, { tool: name, truncated: body.truncated }),
          );
        }
      }
    }
    if (!result) return;
    const isError = result.is_error === true;
    const text = resultText(result);
    if (command) {
      const code = exitCodeIn(text);
      if (code !== undefined) command.exitCode = code;
      else if (!isError) command.exitCode = 0;
    }
    this.builder.add(
      "tool-output",
      text,
      this.#opts(index, { tool: name, isError }),
    );
  }
}

/**
 * The project folder of a thread: the folder the person opened first, else
 * the first worktree of the initial snapshot. Zed stores `folder_paths`
 * sorted, one per line, and `folder_paths_order` as the comma-separated
 * original position of each sorted path.
 */
function cwdOf(
  folderPaths: string | undefined,
  order: string | undefined,
  doc: Json,
): string | undefined {
  const paths = (folderPaths ?? "").split("\n").map((s) => s.trim());
  const positions = (order ?? "").split(",").map((s) => Number(s.trim()));
  const opened = positions.indexOf(0);
  const first = positions.length === paths.length && opened >= 0
    ? paths[opened]
    : undefined;
  if (first) return first;
  const any = paths.find((s) => s.length > 0);
  if (any) return any;
  const snapshot = obj(doc.initial_project_snapshot);
  const worktree = list(snapshot.worktree_snapshots)[0];
  return isObject(worktree) ? str(worktree.worktree_path) : undefined;
}

/**
 * Parses Zed's `threads.db`: one session per thread. User `Text` parts and
 * agent `Text` parts are speech (thinking and mentioned file contents are
 * not); `terminal` calls are commands (exit code from the result text),
 * path tools give files, `edit_file` edits with `old_text` give edits, and
 * each tool result is `tool-output` with `is_error`. Threads with a
 * `parent_id` are sub-agent sessions. Zed stores no per-message times, so
 * every record carries the thread's start (`created_at`, else `updated_at`).
 *
 * @param path The `threads.db` file.
 * @param options Sub-agent switch.
 * @returns The sessions; a store without the `threads` table throws SRC-E002.
 * @example
 * ```ts
 * import { parseZedThreads } from "./zed.ts";
 * import { rejects } from "node:assert/strict";
 * const path = await Deno.makeTempFile({ suffix: ".db" });
 * const source = { home: "/h", env: {}, os: "linux" };
 * await rejects(parseZedThreads(path, { includeSubagents: true, source }), /missing table "threads"/);
 * ```
 */
export function parseZedThreads(
  path: string,
  options: ZedParseOptions,
): Promise<ParseResult> {
  return readStore(path, NAME, (store) => {
    requireTables(store, ["threads"]);
    requireColumns(store, "threads", [
      "id",
      "summary",
      "updated_at",
      "data_type",
      "data",
    ]);
    const columns = columnsOf(store, "threads");
    const optional = (name: string) =>
      columns.has(name) ? col(ident(name), name) : `NULL AS ${name}`;
    const sessions = [];
    let skipped = 0;
    for (
      const row of rows(
        store,
        `SELECT ${col("id")}, ${col("summary")}, ${col("updated_at")}, ${
          col("data_type")
        }, data, ${optional("parent_id")}, ${optional("folder_paths")}, ${
          optional("folder_paths_order")
        }, ${optional("created_at")} FROM threads ORDER BY ${
          columns.has("created_at") ? "created_at, " : ""
        }updated_at, id`,
      )
    ) {
      const id = textColumn(row.id);
      const parent = textColumn(row.parent_id) || undefined;
      if (!id) {
        skipped++;
        continue;
      }
      if (parent && !options.includeSubagents) continue;
      const doc = decodeDocument(textColumn(row.data_type) ?? "", row.data);
      if (!doc) {
        skipped++;
        continue;
      }
      const time = parseTime(textColumn(row.created_at)) ??
        parseTime(textColumn(row.updated_at)) ?? parseTime(doc.updated_at);
      const reader = new ThreadReader(path, id, time, parent);
      reader.builder.touch(parseTime(textColumn(row.updated_at)));
      const cwd = cwdOf(
        textColumn(row.folder_paths),
        textColumn(row.folder_paths_order),
        doc,
      );
      if (cwd) reader.builder.setCwd(cwd);
      const messages = list(doc.messages);
      const legacy = messages.some((m) => isObject(m) && "role" in m);
      messages.forEach((message, index) => {
        if (legacy) reader.legacy(message, index);
        else reader.current(message, index);
      });
      reader.summary(detailedSummary(doc), messages.length);
      const title = str(doc.title) ?? str(doc.summary) ??
        textColumn(row.summary);
      if (title) reader.builder.setTitle(title);
      skipped += reader.skipped;
      const session = reader.builder.build();
      if (session.records.length > 0) sessions.push(session);
    }
    return { sessions, skipped };
  });
}

/** A byte range `{start, end}` into a text thread's `text`. */
interface ByteRange {
  start: number;
  end: number;
}

/** One message of a text thread: where it starts and who wrote it. */
interface TextThreadMessage {
  start: number;
  role: string;
  error: boolean;
  index: number;
}

/** A non-negative integer offset, else undefined. */
function offsetOf(value: unknown): number | undefined {
  return typeof value === "number" && Number.isInteger(value) && value >= 0
    ? value
    : undefined;
}

/** A section's `range`, clamped to the text; undefined when unusable. */
function rangeOf(section: unknown, size: number): ByteRange | undefined {
  const range = obj(obj(section).range);
  const start = offsetOf(range.start), end = offsetOf(range.end);
  if (start === undefined || end === undefined) return undefined;
  const from = Math.min(start, size), to = Math.min(end, size);
  return to > from ? { start: from, end: to } : undefined;
}

/**
 * The messages of a text thread in text order. 0.4.0 messages carry their
 * `metadata` (`role`, `status`, a Lamport `timestamp`); 0.1.0–0.3.0 ones
 * are `{id, start}` with the metadata in `message_metadata` keyed by that
 * numeric id. A message without metadata is dropped, as Zed drops it when it
 * loads the file, so its text stays with the message before it.
 */
function textThreadMessages(doc: Json): TextThreadMessage[] {
  const legacy = obj(doc.message_metadata);
  const out: TextThreadMessage[] = [];
  list(doc.messages).forEach((message, index) => {
    if (!isObject(message)) return;
    const start = offsetOf(message.start);
    if (start === undefined) return;
    const id = message.id;
    const metadata = isObject(message.metadata)
      ? message.metadata
      : typeof id === "number" || typeof id === "string"
      ? obj(legacy[String(id)])
      : {};
    const role = str(metadata.role);
    if (!role) return;
    const status = metadata.status;
    const error = isObject(status) && "Error" in status;
    out.push({ start, role, error, index });
  });
  return out.sort((a, b) => a.start - b.start || a.index - b.index);
}

/**
 * Ranges sorted by start with the ones inside an earlier range dropped
 * (nested output sections) and overlapping ones merged.
 */
function outermost(ranges: ByteRange[]): ByteRange[] {
  const sorted = [...ranges].sort((a, b) => a.start - b.start || b.end - a.end);
  const out: ByteRange[] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && r.start < last.end) last.end = Math.max(last.end, r.end);
    else out.push({ ...r });
  }
  return out;
}

/** A slash command's output section and the file a /file section names. */
interface SlashOutput extends ByteRange {
  path: string | undefined;
}

/**
 * Parses one Zed text thread (`conversations/<summary> - <n>.zed.json`,
 * the assistant panel's conversations): one session. The file holds the
 * whole thread as one `text` and its `messages` as UTF-8 byte offsets into
 * it; each message runs to the next one's start. `user` and `assistant`
 * messages are speech; `system` ones (the prompt) are not. Output a slash
 * command inserted (`slash_command_output_sections`: /file, /diagnostics,
 * /terminal, /fetch, …) is not the person's words: it becomes `tool-output`
 * with tool `slash-command` (Zed deletes the `/name args` line once the
 * output is in, so the file never names the command), plus a `files` record
 * for a /file section's `metadata.path`. Reasoning the model streamed
 * (`thought_process_output_sections`) is left out. Message timestamps are
 * Lamport clocks, not times, so the session's time is the file's mtime. The
 * summary titles the session, else the file name.
 *
 * @param path The `.zed.json` file.
 * @param _options Unused.
 * @returns One session; a file that is not a text thread is one skip.
 * @example
 * ```ts
 * import { parseZedTextThread } from "./zed.ts";
 * import { equal } from "node:assert/strict";
 * const path = `${await Deno.makeTempDir()}/Pick a lock - 1.zed.json`;
 * await Deno.writeTextFile(path, JSON.stringify({
 *   id: "c1", zed: "context", version: "0.4.0", summary: "Pick a lock",
 *   text: "Which mutex?\nA RwLock.",
 *   messages: [
 *     { id: { replica_id: 0, value: 0 }, start: 0, metadata: { role: "user", status: "Done" } },
 *     { id: { replica_id: 0, value: 1 }, start: 13, metadata: { role: "assistant", status: "Done" } },
 *   ],
 *   slash_command_output_sections: [],
 * }));
 * const source = { home: "/h", env: {}, os: "linux" };
 * const { sessions } = await parseZedTextThread(path, { includeSubagents: true, source });
 * equal(sessions[0]?.records[1]?.text, "A RwLock.");
 * ```
 */
export async function parseZedTextThread(
  path: string,
  _options: ParseOptions,
): Promise<ParseResult> {
  const read = await readJsonDocument(path);
  if (!read.ok) {
    return { sessions: [], skipped: read.reason === "missing" ? 0 : 1 };
  }
  const doc = read.value;
  if (!isObject(doc) || typeof doc.text !== "string") {
    return { sessions: [], skipped: 1 };
  }
  const bytes = new TextEncoder().encode(doc.text);
  const size = bytes.length;
  const decoder = new TextDecoder();
  const slice = (from: number, to: number) =>
    decoder.decode(bytes.subarray(from, to));
  const name = baseName(path).slice(0, -TEXT_THREAD_SUFFIX.length);
  const builder = new SessionBuilder({
    harness: HARNESS_ID,
    id: str(doc.id) ?? name,
    path,
  });
  const title = str(doc.summary)?.trim() ||
    name.replace(/ - \d+$/, "").trim();
  if (title) builder.setTitle(title);
  try {
    builder.touch((await Deno.stat(path)).mtime?.getTime());
  } catch {
    // The file vanished after it was read: keep what was read.
  }
  const outputs: SlashOutput[] = [];
  for (const section of list(doc.slash_command_output_sections)) {
    const range = rangeOf(section, size);
    if (!range) continue;
    const meta = obj(obj(section).metadata);
    outputs.push({ ...range, path: str(meta.path) });
  }
  const slash = outermost(outputs);
  const thoughts = list(doc.thought_process_output_sections)
    .map((s) => rangeOf(s, size))
    .filter((r): r is ByteRange => r !== undefined);
  const cuts = outermost([...slash, ...thoughts]);
  const messages = textThreadMessages(doc);
  let skipped = list(doc.messages).length > 0 && messages.length === 0 ? 1 : 0;
  for (const [i, message] of messages.entries()) {
    if (message.role !== "user" && message.role !== "assistant") continue;
    const start = Math.min(message.start, size);
    const end = Math.min(messages[i + 1]?.start ?? size, size);
    if (end <= start) continue;
    const locator = { path, recordId: String(message.index) };
    // The text around inserted output, each piece on its own line so words
    // on either side of a cut do not run together.
    const pieces: string[] = [];
    let at = start;
    for (const cut of cuts) {
      if (cut.end <= start || cut.start >= end) continue;
      const from = Math.max(cut.start, start);
      if (from > at) pieces.push(slice(at, from));
      at = Math.max(at, Math.min(cut.end, end));
    }
    if (at < end) pieces.push(slice(at, end));
    const speech = pieces.map((p) => p.trim()).filter((p) => p).join("\n");
    const role = message.role;
    builder.add(role, cleanSpeech(speech), {
      locator,
      time: undefined,
      ...(message.error && role === "assistant"
        ? { flags: { isError: true } }
        : {}),
    });
    for (const output of outputs) {
      if (output.end <= start || output.start >= end) continue;
      if (output.path) {
        builder.add("files", output.path, {
          locator,
          time: undefined,
          tool: SLASH_TOOL,
        });
      }
    }
    for (const output of slash) {
      if (output.end <= start || output.start >= end) continue;
      const text = slice(
        Math.max(output.start, start),
        Math.min(output.end, end),
      );
      builder.add("tool-output", text, {
        locator,
        time: undefined,
        tool: SLASH_TOOL,
      });
    }
  }
  if (!Array.isArray(doc.messages)) skipped = 1;
  const session = builder.build();
  return { sessions: session.records.length > 0 ? [session] : [], skipped };
}

const textThreadKind: FileKind = {
  id: "text-thread",
  appendOnly: false,
  match: isTextThread,
  parse: (path, options) => parseZedTextThread(path, options),
};

const threadsKind: FileKind = {
  id: "threads-db",
  appendOnly: false,
  match: (path) => baseName(path) === "threads.db",
  parse: (path, options) => parseZedThreads(path, options),
};

/**
 * The Zed harness: `threads/threads.db` under Zed's data directory and the
 * text threads in `conversations/`.
 *
 * @example
 * ```ts
 * import { zed } from "./zed.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(zed.roots({ home: "/h", env: {}, os: "darwin" }), [
 *   "/h/Library/Application Support/Zed",
 *   "/h/.config/zed/conversations",
 * ]);
 * ```
 */
export const zed: Harness = {
  id: HARNESS_ID,
  name: NAME,
  format:
    "SQLite threads.db, one zstd-compressed JSON document per agent thread; one JSON file per text thread",
  envOverrides: [
    "DEJA_ZED_ROOT",
    "FLATPAK_XDG_DATA_HOME",
    "XDG_DATA_HOME",
    "LOCALAPPDATA",
  ],
  roots: zedRoots,
  discover: discoverZed,
  kinds: [threadsKind, textThreadKind],
  // 2: tagged tool inputs (`{"type":"json","value":…}`, else `raw_input`) and
  // the first-opened folder from `folder_paths_order`.
  // 3: mentions as `@name` where they were typed; the detailed summary.
  // 4: text threads (`conversations/*.zed.json`) as sessions.
  // 5: the file a `write_file` call created or overwrote.
  // 6: a grep call's `regex` and `include_pattern` as a command (tool
  // `grep`) before its output.
  revision: 6,
  docs: {
    store:
      "agent threads in `threads/threads.db` under Zed's data directory: `~/Library/Application Support/Zed` (macOS), `$FLATPAK_XDG_DATA_HOME/zed`, else `$XDG_DATA_HOME/zed`, else `~/.local/share/zed` (Linux), `%LOCALAPPDATA%\\Zed` (Windows); text threads (the older assistant panel's conversations) as `conversations/<summary> - <n>.zed.json` under the config folder `~/.config/zed` on macOS and under the data directory on Linux and Windows, plus `~/.config/zed/conversations` where builds before mid-2024 left them (macOS and Linux); `DEJA_ZED_ROOT` redirects both (`<root>/threads/threads.db`, `<root>/conversations`)",
    extracts:
      "text threads (saved-context versions 0.1.0 to 0.4.0): each `user` and `assistant` message sliced from the thread's `text` by its byte offset (to the next message's start), the output a slash command inserted (`slash_command_output_sections`) as `tool-output` with tool `slash-command` and a /file section's `metadata.path` as files, a message with an `Error` status flagged, the summary (else the file name) as title; agent threads: user and agent `Text` parts (0.3.0 documents) or text segments (legacy 0.2.0), each `Mention` in a user message as `@name` where it was typed (file or folder name, symbol, `file:lines` selection, URL, thread or rule name), the thread's detailed summary (`detailed_summary`, legacy `detailed_summary_state.Generated.text`) as `summary`, `terminal` commands with the exit code written in their result (else 0 when not an error), what a `grep` call searched for (`regex`, `include_pattern`) as a command (tool `grep`: `grep <regex> [--glob <include_pattern>]`, no exit code) before its output, files for read_file/write_file/edit_file/create_directory/delete_path/open/diagnostics/move_path/copy_path/save_file/restore_file_from_disk, edit for `edit_file` inputs that carry `edits[].old_text`, tool-output with `is_error`, sub-agent threads (`parent_id`) with their parent; tool inputs in either shape (the object itself, or the tagged `{type: json, value}` of newer builds, falling back to `raw_input`); tool results whose content is one `{Text}` or a list of them; title from the document, else the row summary; project from the folder opened first (`folder_paths` reordered by `folder_paths_order`), else the first worktree of the initial snapshot",
    omits:
      "text threads: `system` messages (the prompt), `thought_process_output_sections` (reasoning), the command name of slash output (Zed deletes the `/name args` line once the output is in, so the file does not hold it), per-message times (their `timestamp` is a Lamport clock, so the session carries the file's mtime), any project (a text thread names none); agent threads: Thinking and RedactedThinking parts (reasoning), mentioned file contents and images (attachments, not speech), the `Resume` marker, legacy `system` messages; Zed writes no per-message times, so every record carries the thread's start",
    verified:
      "text threads from zed's assistant_context.rs (SavedContext 0.4.0 and the SavedContextV0_1_0/V0_2_0/V0_3_0 shapes it still migrates, the save path `<summary> - <n>.zed.json`, slash output inserted then the command line deleted) and paths.rs (`contexts_dir`), synthetic fixtures only (fixtures/zed, src/sources/zed_test.ts); real sample: a Zed threads.db with one 0.3.0 thread of February 2026 (zstd, tool uses with one failed result, a grep call with `regex` and `include_pattern`); legacy 0.2.0 documents and `edits[].old_text` from the documented shape only (fixtures/zed); tagged tool inputs, list-shaped tool results and `folder_paths_order` from zed's language_model (LanguageModelToolUseInput), agent db.rs and util PathList source (fixtures/zed, no real sample of them); the `Mention` uri shapes from acp_thread's mention.rs (MentionUri) and `detailed_summary` from agent db.rs (DbThread), in src/sources/zed_test.ts; `write_file` (`path`, `content`) from zed's crates/agent/src/tools/write_file_tool.rs (015419a2), in src/sources/zed_test.ts",
  },
};
