/**
 * DeepSeek Harness (dsh): one append-only event log per session,
 * `${DSH_HOME:-~/.dsh}/sessions/<workspace-slug>/session-<uuid>/session.vN.jsonl`
 * (consecutive zstd frames, `.zstd`, by default; raw lines by
 * configuration). Opening an older session rewrites its history into a new
 * generation beside the old file, so only the newest generation of each
 * session directory is read.
 *
 * @module
 */
import type {
  FileKind,
  Harness,
  ParseOptions,
  ParseResult,
  SourceEnv,
} from "../core/harness.ts";
import { walkFiles } from "../core/harness.ts";
import { cleanSpeech } from "../core/text.ts";
import { parseTime } from "../core/time.ts";
import type { Locator, RecordFlags } from "../core/types.ts";
import { SessionBuilder } from "./_builder.ts";
import { MAX_DOCUMENT_BYTES } from "./_json_doc.ts";
import { isObject, type Json, str } from "./_json.ts";
import { baseName, dirOf } from "./_paths.ts";
import { type ToolDialect, ToolRecorder } from "./_tool_records.ts";
import { decodeZstdFrames } from "../core/_zstd_frames.ts";

const HARNESS_ID = "deepseek";

/** `session.jsonl`, `session.v4.jsonl.zstd`, … */
const LOG_NAME = /^session(?:\.v(\d+))?\.jsonl(\.zstd?)?$/;

/** Lines longer than this are skipped (8 MiB). */
const MAX_LINE_CHARS = 8 * 1024 * 1024;

/** dsh's built-in tools and where their arguments keep paths and text. */
const DIALECT: ToolDialect = {
  shell: new Set(["bash", "pwsh", "shell"]),
  commandKeys: ["command", "cmd"],
  pathTools: new Set([
    "read",
    "write",
    "edit",
    "str_replace_editor",
    "read_file",
    "write_file",
    "edit_file",
  ]),
  pathKeys: ["path", "file_path", "filePath"],
  editTools: new Set(["edit", "str_replace_editor", "edit_file"]),
  oldKeys: ["old_str", "old_string", "oldText", "old_text", "oldString"],
  editListKey: "edits",
};

/** What dsh's shell tools append to their output. */
const EXIT_FOOTER = /\[exit code: (-?\d+)\]\s*$/;
const SIGNAL_FOOTER = /\[killed by signal: [^\]]+\]\s*$/;

/** The format generation a log file name carries (`session.jsonl` is 1). */
function generationOf(name: string): number | undefined {
  const m = LOG_NAME.exec(name);
  if (!m) return undefined;
  return m[1] ? Number(m[1]) : 1;
}

/** Block types may be namespaced from v4 on (`core/text`). */
function isType(type: unknown, want: string): boolean {
  return typeof type === "string" &&
    (type === want || type.endsWith(`/${want}`) || type.endsWith(`:${want}`));
}

function textBlocks(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  for (const block of content) {
    if (typeof block === "string") parts.push(block);
    else if (
      isObject(block) && isType(block.type, "text") &&
      typeof block.text === "string"
    ) {
      parts.push(block.text);
    }
  }
  return parts.join("\n");
}

/** Text of a tool result: v3 nests a `tool-result` block, v4 is the message. */
function resultText(data: Json): { text: string; isError: boolean } {
  // Current logs mark a failed call with `error: { name, code }`.
  let isError = data.isError === true || isObject(data.error);
  const parts: string[] = [];
  const message = isObject(data.message) ? data.message : undefined;
  if (message) {
    if (message.isError === true) isError = true;
    parts.push(textBlocks(message.content));
  }
  if (Array.isArray(data.content)) {
    for (const block of data.content) {
      if (!isObject(block)) continue;
      if (isType(block.type, "tool-result")) {
        if (block.isError === true) isError = true;
        parts.push(textBlocks(block.content));
      } else if (isType(block.type, "text") && typeof block.text === "string") {
        parts.push(block.text);
      }
    }
  } else if (typeof data.content === "string") parts.push(data.content);
  if (typeof data.output === "string") parts.push(data.output);
  return { text: parts.filter((p) => p.length > 0).join("\n"), isError };
}

function callIdOf(data: Json): string | undefined {
  const direct = str(data.callId) ?? str(data.toolCallId) ?? str(data.id);
  if (direct) return direct;
  if (Array.isArray(data.content)) {
    for (const block of data.content) {
      if (isObject(block)) {
        const id = str(block.toolCallId) ?? str(block.callId);
        if (id) return id;
      }
    }
  }
  const message = isObject(data.message) ? data.message : undefined;
  return message ? str(message.toolCallId) ?? str(message.callId) : undefined;
}

/** Reads the log's text: zstd frames decoded, a torn tail reported. */
async function readLog(
  path: string,
): Promise<{ text: string; skipped: number } | undefined> {
  let bytes: Uint8Array;
  try {
    const info = await Deno.stat(path);
    if (!info.isFile || info.size > MAX_DOCUMENT_BYTES) return undefined;
    bytes = await Deno.readFile(path);
  } catch {
    return undefined;
  }
  let skipped = 0;
  if (/\.zstd?$/.test(path)) {
    const decoded = decodeZstdFrames(bytes);
    bytes = decoded.bytes;
    skipped += decoded.bad;
  }
  let text = new TextDecoder().decode(bytes);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return { text, skipped };
}

/** Builds one session from its events. */
class EventReader {
  builder: SessionBuilder | undefined;
  skipped = 0;
  dropped = false;
  #path: string;
  #options: ParseOptions;
  #flags: RecordFlags | undefined;
  #tools: ToolRecorder | undefined;
  /** Streamed answer text waiting for its complete message. */
  #deltas: string[] = [];
  #deltaAt: { locator: Locator; time?: number } | undefined;
  /** Text flushed from deltas, so a late complete message is not doubled. */
  #flushed: string | undefined;
  /** Leading events a child inherited from its parent, still to pass over. */
  #seedLeft = 0;

  constructor(path: string, options: ParseOptions) {
    this.#path = path;
    this.#options = options;
  }

  #session(): SessionBuilder {
    if (!this.builder) {
      const dir = baseName(dirOf(this.#path));
      this.builder = new SessionBuilder({
        harness: HARNESS_ID,
        id: dir.replace(/^session-/, ""),
        path: this.#path,
        project: baseName(dirOf(dirOf(this.#path))),
      });
      this.#tools = new ToolRecorder(this.builder, DIALECT);
    }
    return this.builder;
  }

  #header(obj: Json): void {
    const dir = baseName(dirOf(this.#path));
    const id = (str(obj.id) ?? dir).replace(/^session-/, "");
    const depth = typeof obj.delegationDepth === "number"
      ? obj.delegationDepth
      : 0;
    const sub = depth > 0 || obj.origin === "subagent";
    if (sub && !this.#options.includeSubagents) {
      this.dropped = true;
      return;
    }
    // Current headers name the parent `parentSession`; older ones differed.
    const parent = (str(obj.parentSession) ?? str(obj.parentSessionId) ??
      str(obj.parentId) ?? str(obj.parent))?.replace(/^session-/, "");
    // A child seeded from its parent starts with that parent's events, which
    // the parent's own log already holds.
    if (
      parent && typeof obj.seedLength === "number" &&
      Number.isSafeInteger(obj.seedLength) && obj.seedLength > 0
    ) this.#seedLeft = obj.seedLength;
    const cwd = str(obj.cwd);
    this.builder = new SessionBuilder({
      harness: HARNESS_ID,
      id,
      path: this.#path,
      cwd,
      project: cwd ? undefined : baseName(dirOf(dirOf(this.#path))),
      parent,
      lineage: parent ? (sub ? "subagent" : "fork") : undefined,
    });
    this.builder.touch(parseTime(obj.createdAt));
    this.#tools = new ToolRecorder(this.builder, DIALECT);
    if (sub) this.#flags = { subagent: true };
  }

  #flushDeltas(): void {
    const at = this.#deltaAt;
    if (at && this.#deltas.length > 0) {
      const text = cleanSpeech(this.#deltas.join(""));
      this.#session().add("assistant", text, {
        locator: at.locator,
        time: at.time,
        ...(this.#flags ? { flags: this.#flags } : {}),
      });
      this.#flushed = text;
    }
    this.#deltas = [];
    this.#deltaAt = undefined;
  }

  event(obj: Json, locator: Locator): void {
    if (this.dropped) return;
    const type = obj.type;
    if (type === "session") {
      if (!this.builder) this.#header(obj);
      return;
    }
    if (typeof type !== "string") {
      this.skipped++;
      return;
    }
    if (this.#seedLeft > 0) {
      this.#seedLeft--;
      return;
    }
    const builder = this.#session();
    const tools = this.#tools as ToolRecorder;
    const data = isObject(obj.data) ? obj.data : {};
    const time = parseTime(obj.time);
    const seq = obj.seq;
    const at: Locator = typeof seq === "number" || typeof seq === "string"
      ? { ...locator, recordId: String(seq) }
      : locator;
    const extra = this.#flags ? { flags: this.#flags } : {};
    switch (type) {
      case "session/title": {
        const title = str(data.title);
        if (title) builder.setTitle(title);
        return;
      }
      case "user/message": {
        const source = isObject(data.source) ? data.source : undefined;
        // Plugins splice their own text in as user messages of other kinds.
        if (source && source.kind !== "user") return;
        const message = isObject(data.message) ? data.message : undefined;
        const text = message
          ? textBlocks(message.content)
          : textBlocks(data.content) || (str(data.text) ?? "");
        this.#flushDeltas();
        this.#flushed = undefined;
        builder.add("user", cleanSpeech(text), { locator: at, time, ...extra });
        return;
      }
      case "assistant/message": {
        const message = isObject(data.message) ? data.message : data;
        this.#deltas = [];
        this.#deltaAt = undefined;
        tools.newMessage();
        const text = cleanSpeech(textBlocks(message.content));
        if (text === this.#flushed) return;
        this.#flushed = undefined;
        builder.add("assistant", text, { locator: at, time, ...extra });
        return;
      }
      case "assistant/chunk": {
        const chunk = isObject(data.chunk) ? data.chunk : {};
        if (chunk.type !== "text-delta") return;
        const piece = str(chunk.text) ?? str(chunk.delta) ??
          str(chunk.textDelta);
        if (piece) {
          this.#deltaAt ??= time === undefined
            ? { locator: at }
            : { locator: at, time };
          this.#deltas.push(piece);
        }
        return;
      }
      case "text-chunks": {
        if (!Array.isArray(data.texts)) return;
        const first = parseTime(data.time0) ?? time;
        this.#deltaAt ??= first === undefined
          ? { locator: at }
          : { locator: at, time: first };
        for (const piece of data.texts) {
          if (typeof piece === "string") this.#deltas.push(piece);
        }
        return;
      }
      case "compaction/summary": {
        // What compaction replaced the shadowed history with; the user
        // message carrying it into the next request is not the person's.
        this.#flushDeltas();
        builder.add("summary", textBlocks(data.summary), {
          locator: at,
          time,
          ...extra,
        });
        return;
      }
      case "step/end":
      case "turn/end":
        this.#flushDeltas();
        return;
      case "tool/call": {
        // Text streamed before a tool ran belongs before it.
        this.#flushDeltas();
        const name = str(data.name) ?? str(data.toolName);
        if (!name) return;
        tools.call(
          str(data.id) ?? str(data.callId) ?? str(data.toolCallId),
          name,
          data.arguments ?? data.input ?? data.args,
          { locator: at, time, flags: this.#flags },
        );
        return;
      }
      case "tool/result": {
        const { text, isError } = resultText(data);
        const exit = EXIT_FOOTER.exec(text);
        const killed = SIGNAL_FOOTER.test(text);
        tools.result(
          callIdOf(data),
          text,
          isError || killed || (exit !== null && exit[1] !== "0"),
          { locator: at, time, flags: this.#flags },
          exit ? Number(exit[1]) : undefined,
          str(data.name) ?? str(data.toolName),
        );
        return;
      }
      default:
        return;
    }
  }

  finish(): void {
    this.#flushDeltas();
  }
}

/** Other generations in the same session directory, newest first. */
async function newerGeneration(path: string): Promise<boolean> {
  const own = generationOf(baseName(path));
  if (own === undefined) return false;
  try {
    for await (const entry of Deno.readDir(dirOf(path))) {
      if (!entry.isFile) continue;
      const g = generationOf(entry.name);
      if (g !== undefined && g > own) return true;
    }
  } catch {
    return false;
  }
  return false;
}

/**
 * Parses one dsh session log (raw or zstd-framed): `user/message` whose
 * source kind is `user` as user records, `assistant/message` text blocks as
 * assistant records (streamed `assistant/chunk` text-deltas and packed
 * `text-chunks` only when no complete message landed before the step or
 * turn ended), `tool/call` as command/files/edit records and `tool/result`
 * as tool-output with the `[exit code: N]` footer as the command's exit
 * code. A log with a newer generation beside it yields nothing.
 *
 * @param path The log file.
 * @param options Parse options (sub-agent switch).
 * @returns The session, or none.
 * @example
 * ```ts
 * import { parseDeepseekLog } from "./deepseek.ts";
 * import { equal } from "node:assert/strict";
 * const dir = await Deno.makeTempDir();
 * await Deno.mkdir(`${dir}/ws/session-abc`, { recursive: true });
 * const path = `${dir}/ws/session-abc/session.v4.jsonl`;
 * await Deno.writeTextFile(path, [
 *   { type: "session", id: "session-abc", createdAt: 1790000000000, cwd: "/w/app" },
 *   { type: "user/message", seq: 1, time: 1790000001000, data: { source: { kind: "user" }, message: { content: [{ type: "text", text: "run the linter" }] } } },
 * ].map((e) => JSON.stringify(e)).join("\n") + "\n");
 * const source = { home: dir, env: {}, os: "linux" };
 * const { sessions } = await parseDeepseekLog(path, { includeSubagents: true, source });
 * equal(sessions[0]?.id, "abc");
 * ```
 */
export async function parseDeepseekLog(
  path: string,
  options: ParseOptions,
): Promise<ParseResult> {
  if (await newerGeneration(path)) return { sessions: [], skipped: 0 };
  const log = await readLog(path);
  if (!log) return { sessions: [], skipped: 0 };
  const reader = new EventReader(path, options);
  let skipped = log.skipped;
  const lines = log.text.split("\n");
  // The last piece has no newline: a line still being written, left alone.
  lines.pop();
  let offset = 0;
  lines.forEach((raw, i) => {
    const start = offset;
    offset += new TextEncoder().encode(raw).length + 1;
    const text = raw.trim();
    if (text.length === 0) return;
    if (text.length > MAX_LINE_CHARS) {
      skipped++;
      return;
    }
    let obj: unknown;
    try {
      obj = JSON.parse(text);
    } catch {
      skipped++;
      return;
    }
    if (!isObject(obj)) {
      skipped++;
      return;
    }
    reader.event(obj, { path, line: i + 1, offset: start });
  });
  reader.finish();
  const session = reader.builder?.build();
  return {
    sessions: session && !reader.dropped && session.records.length > 0
      ? [session]
      : [],
    skipped: skipped + reader.skipped,
  };
}

function sessionsRoot(source: SourceEnv): string {
  return source.env.DEJA_DEEPSEEK_ROOT ||
    `${source.env.DSH_HOME || `${source.home}/.dsh`}/sessions`;
}

function isLog(path: string): boolean {
  return generationOf(baseName(path)) !== undefined &&
    baseName(dirOf(path)).startsWith("session-");
}

const logKind: FileKind = {
  id: "session-log",
  appendOnly: false,
  match: isLog,
  parse: (path, options) => parseDeepseekLog(path, options),
};

/**
 * The DeepSeek Harness (dsh) harness.
 *
 * @example
 * ```ts
 * import { deepseek } from "./deepseek.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(deepseek.roots({ home: "/h", env: { DSH_HOME: "/d" }, os: "linux" }), ["/d/sessions"]);
 * ```
 */
export const deepseek: Harness = {
  id: HARNESS_ID,
  // 2: parentSession, seedLength, origin and tool/result error identities.
  // 3: a command's output is an error when it exited non-zero, whatever
  // status the harness gave the result (shared ToolRecorder).
  // 4: compaction/summary events as summary records.
  revision: 4,
  name: "DeepSeek Harness",
  format:
    "JSONL event log per session (session.vN.jsonl, zstd-framed .zstd by default), newest generation per session",
  envOverrides: ["DEJA_DEEPSEEK_ROOT", "DSH_HOME"],
  roots: (source) => [sessionsRoot(source)],
  discover(source: SourceEnv): Promise<string[]> {
    // Keep the newest generation of each session directory.
    const best = new Map<
      string,
      { path: string; gen: number; mtime: number }
    >();
    const order: string[] = [];
    for (
      const path of walkFiles(sessionsRoot(source), isLog, { maxDepth: 3 })
    ) {
      const dir = dirOf(path);
      const gen = generationOf(baseName(path)) as number;
      let mtime = 0;
      try {
        mtime = Deno.statSync(path).mtime?.getTime() ?? 0;
      } catch {
        continue;
      }
      const current = best.get(dir);
      if (!current) order.push(dir);
      if (
        !current || gen > current.gen ||
        (gen === current.gen && mtime > current.mtime)
      ) {
        best.set(dir, { path, gen, mtime });
      }
    }
    const found: string[] = [];
    for (const dir of order) {
      const chosen = best.get(dir);
      if (chosen) found.push(chosen.path);
    }
    return Promise.resolve(found);
  },
  kinds: [logKind],
  docs: {
    store:
      "`${DSH_HOME:-~/.dsh}/sessions/<workspace-slug>/session-<uuid>/session.vN.jsonl[.zstd]` (older `session.jsonl[.zstd]`), same on every OS; `DEJA_DEEPSEEK_ROOT` names the sessions folder",
    extracts:
      "the newest generation per session directory; user/message with source kind `user` as user, assistant/message text blocks as assistant (streamed text-delta chunks and packed text-chunks only for an answer that never completed), tool/call as command (bash/pwsh) and files/edit (read/write/edit/str_replace_editor), tool/result (v3 nested and v4 message shapes) as tool-output with isError (or an `error: { name, code }` identity) and the `[exit code: N]` footer as exit code, session/title as title, compaction/summary text blocks as summary, header cwd as project; sessions with delegationDepth > 0 or `origin: \"subagent\"` as sub-agents of the header's `parentSession` (older `parentSessionId`), other sessions naming a `parentSession` as its forks; a seeded child's first `seedLength` events (its parent's history) left to the parent",
    omits:
      "reasoning blocks, plugin-spliced user messages (sandbox policy, skill catalogue, the compaction summary's own copy), slash-command runs (`command/run`/`command/done`), todo lists, approvals, hooks, team and sub-agent descriptor events, older generations of a rewritten session, step/turn bookkeeping, request headers and context, identity and end-seed markers; zstd frames are decoded in-process (no zstd CLI needed)",
    verified:
      "built from the documented format (dsh 0.1.1-rc.2 log, v4 changes from dsh-base 0.1.7-rc.2) and the header and event types in dsh's packages/core/session/src/types.ts (`parentSession`, `seedLength`, `origin`, `delegationDepth`; `tool/result.error`) and its generated known-event-types.ts (`compaction/start`/`summary`/`end`; the summary's content blocks and shadowed range as public readers of the log fold them), read from a public fork (Tyler-Hardin/deepseek-harness @238433de); no real sample, fixtures/deepseek (generated by tests/fixtures_gen/deepseek.ts)",
  },
};
