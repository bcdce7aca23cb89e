/**
 * Grok Build (xAI's coding agent). Each session is a folder
 * `${GROK_HOME:-~/.grok}/sessions/<url-encoded-cwd>/<sessionId>/` holding
 * `updates.jsonl`, an append-only log of Agent Client Protocol session
 * updates (streamed message chunks, tool calls and their updates, turn ends,
 * rewind markers), and `summary.json` with the title, cwd and spawn edge.
 * The grok CLI also keeps a SQLite store, `grok.db`, of sessions and messages.
 *
 * A rewind never truncates the log: it appends a marker naming the first
 * rewound turn, so the turns from there on are kept under a `rewind` mark.
 *
 * @module
 */
import { basename, dirname, join } from "node:path";
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
import type { Lineage, Locator, Session } from "../core/types.ts";
import { SessionBuilder } from "./_builder.ts";
import { type LineLocator, walkJsonLines } from "./_jsonl_walk.ts";
import { finite, isObject, type Json, list, obj, str } from "./_json.ts";
import { readJsonFile } from "./_json_doc.ts";
import { isRegularFileSync } from "./_paths.ts";
import {
  numberColumn,
  readStore,
  requireColumns,
  requireTables,
  rows,
  type Store,
  textColumn,
} from "./_sqlite_store.ts";
import {
  footerExitCode,
  type ToolDialect,
  ToolRecorder,
} from "./_tool_records.ts";

const HARNESS_ID = "grok";

/** Bounds on what the resume state carries, so it stays small. */
const MAX_TURNS = 4096;
const MAX_PENDING = 256;

/** A tool call whose final update has not arrived yet. */
interface PendingCall {
  /** ACP tool kind (`execute`, `read`, `edit`, ...) or the title. */
  tool: string;
  /** Whether the call ran a shell command. */
  command?: boolean;
}

/**
 * What an `updates.jsonl` parse returns as `state`, to resume at
 * `safeOffset`. Unknown or malformed state makes the parser read the file
 * from its start instead.
 */
export interface GrokUpdatesState {
  /** The next record's seq. */
  nextSeq: number;
  /** The current turn's prompt index (-1 before the first). */
  turn: number;
  /** `[promptIndex, first seq]` of each turn still active, oldest first. */
  turns: Array<[number, number]>;
  /** Whether the current turn has assistant text yet. */
  turnHasText: boolean;
  /** Tool calls waiting for their final update, by call id. */
  pending: Record<string, PendingCall>;
  /** The newest line time seen (ms). */
  lastTime?: number;
  /**
   * Whether a prompt carrying a `promptIndex` was seen: from then on a user
   * chunk without one is no prompt of its own.
   */
  indexed?: boolean;
}

function isState(value: unknown): value is GrokUpdatesState {
  if (!isObject(value)) return false;
  return typeof value.nextSeq === "number" && Number.isInteger(value.nextSeq) &&
    value.nextSeq >= 0 && typeof value.turn === "number" &&
    Array.isArray(value.turns) &&
    value.turns.every((t) =>
      Array.isArray(t) && t.length === 2 && t.every((n) => Number.isFinite(n))
    ) &&
    typeof value.turnHasText === "boolean" && isObject(value.pending);
}

/** The text of a chunk's content: one block, or a list of them. */
function chunkText(content: unknown): string {
  const blocks = Array.isArray(content) ? content : [content];
  let text = "";
  for (const block of blocks) {
    if (isObject(block) && block.type === "text") text += str(block.text) ?? "";
  }
  return text;
}

/** A tool call's content: text (plain or ACP-wrapped) and diff blocks. */
function toolContent(
  content: unknown,
): { text: string; diffs: Array<{ path: string; oldText: string }> } {
  const texts: string[] = [];
  const diffs: Array<{ path: string; oldText: string }> = [];
  for (const block of Array.isArray(content) ? content : [content]) {
    if (!isObject(block)) continue;
    if (block.type === "text") {
      const text = str(block.text);
      if (text) texts.push(text);
    } else if (block.type === "content" && isObject(block.content)) {
      const inner = block.content;
      const text = inner.type === "text" ? str(inner.text) : undefined;
      if (text) texts.push(text);
    } else if (block.type === "diff") {
      const path = str(block.path);
      if (path) diffs.push({ path, oldText: str(block.oldText) ?? "" });
    }
  }
  return { text: texts.join("\n"), diffs };
}

/**
 * A tool call's input: ACP `rawInput`, else the input Grok Build keeps in
 * the call's `_meta["x.ai/tool"]`.
 */
function toolInput(update: Json): unknown {
  return update.rawInput ?? obj(obj(update._meta)["x.ai/tool"]).input;
}

/** Paths an ACP tool call names: `locations[].path`, else its input's path. */
function toolPaths(update: Json): string[] {
  const paths: string[] = [];
  for (const loc of list(update.locations)) {
    const path = isObject(loc) ? str(loc.path) : undefined;
    if (path && !paths.includes(path)) paths.push(path);
  }
  if (paths.length > 0) return paths;
  const input = obj(toolInput(update));
  const one = str(input.path) ?? str(input.file_path) ?? str(input.filePath);
  return one ? [one] : [];
}

/**
 * Whether an update is a sub-agent's, mirrored into its parent's log: its
 * `_meta` (the line's or the update's) marks it `isSidechain` or names a
 * `parentSessionId` or `subagentId`.
 */
function isSidechain(params: Json, update: Json): boolean {
  return [obj(params._meta), obj(update._meta)].some((meta) =>
    meta.isSidechain === true || str(meta.parentSessionId) !== undefined ||
    str(meta.subagentId) !== undefined
  );
}

/** The shell command of an `execute` call's input. */
function commandOf(input: unknown): string | undefined {
  const args = obj(input);
  const command = args.command ?? args.cmd;
  if (typeof command === "string") return command.trim() || undefined;
  if (Array.isArray(command)) {
    const words = command.filter((w) => typeof w === "string");
    return words.length > 0 ? words.join(" ") : undefined;
  }
  return undefined;
}

/** A run of streamed chunks of one message, not yet written. */
interface OpenMessage {
  role: "user" | "assistant";
  /** A sub-agent's words, mirrored into the parent's log. */
  subagent: boolean;
  text: string;
  locator: Locator;
  time: number | undefined;
}

/** Reads one session's update log, line by line. */
class GrokUpdatesReader {
  readonly builder: SessionBuilder;
  readonly #path: string;
  readonly #includeSubagents: boolean;
  #turn: number;
  #indexed: boolean;
  #turns: Array<[number, number]>;
  #turnHasText: boolean;
  #pending: Map<string, PendingCall>;
  #commands = new Map<string, number>();
  #filesSeen = new Set<string>();
  #lastTime: number | undefined;
  #open: OpenMessage | undefined;
  skipped = 0;

  constructor(
    path: string,
    init: {
      id: string;
      cwd?: string | undefined;
      includeSubagents: boolean;
    },
    state: GrokUpdatesState | undefined,
  ) {
    this.#path = path;
    this.#includeSubagents = init.includeSubagents;
    this.builder = new SessionBuilder({
      harness: HARNESS_ID,
      id: init.id,
      path,
      cwd: init.cwd,
      nextSeq: state?.nextSeq ?? 0,
    });
    this.#turn = state?.turn ?? -1;
    this.#indexed = state?.indexed === true;
    this.#turns = state ? state.turns.map(([a, b]) => [a, b]) : [];
    this.#turnHasText = state?.turnHasText ?? false;
    this.#pending = new Map(Object.entries(state?.pending ?? {}));
    this.#lastTime = state?.lastTime;
  }

  line(entry: Json, at: LineLocator): void {
    // Wrapped lines carry the update in params; legacy ones at the top.
    const params = isObject(entry.params) ? entry.params : entry;
    const update = params.update;
    if (!isObject(update) || typeof update.sessionUpdate !== "string") {
      this.skipped++;
      return;
    }
    const time = parseTime(obj(params._meta).agentTimestampMs) ??
      parseTime(entry.timestamp) ?? this.#lastTime;
    if (time !== undefined) this.#lastTime = time;
    const locator: Locator = {
      path: at.path,
      line: at.line,
      offset: at.offset,
    };
    switch (update.sessionUpdate) {
      case "user_message_chunk":
        this.#userChunk(update, locator, time);
        break;
      case "agent_message_chunk": {
        const subagent = isSidechain(params, update);
        if (subagent && !this.#includeSubagents) {
          // Still the end of the parent's message it interrupts.
          this.#flush();
          this.builder.touch(time);
          break;
        }
        this.#chunk(
          "assistant",
          chunkText(update.content),
          locator,
          time,
          subagent,
        );
        break;
      }
      case "tool_call":
        this.#flush();
        this.#toolCall(update, locator, time);
        break;
      case "tool_call_update":
        this.#toolUpdate(update, locator, time);
        break;
      case "turn_completed":
        this.#flush();
        this.#turnCompleted(update, locator, time);
        break;
      case "rewind_marker":
        this.#flush();
        this.#rewind(update);
        break;
      default:
        // Thoughts, plans, mode and model changes, commands lists: not said.
        this.builder.touch(time);
    }
  }

  /** Writes the message still collecting chunks. */
  finish(): void {
    this.#flush();
  }

  state(): GrokUpdatesState {
    const state: GrokUpdatesState = {
      nextSeq: this.builder.nextSeq,
      turn: this.#turn,
      turns: this.#turns.slice(-MAX_TURNS),
      turnHasText: this.#turnHasText,
      pending: Object.fromEntries([...this.#pending].slice(-MAX_PENDING)),
    };
    if (this.#lastTime !== undefined) state.lastTime = this.#lastTime;
    if (this.#indexed) state.indexed = true;
    return state;
  }

  #userChunk(update: Json, locator: Locator, time: number | undefined): void {
    const index = finite(obj(update._meta).promptIndex);
    if (index !== undefined) this.#indexed = true;
    const newMessage = this.#open?.role !== "user" ||
      (index !== undefined && index !== this.#turn);
    // Once prompts carry an index, an unmarked user chunk is said mid-turn:
    // kept, but no turn a rewind could target.
    if (newMessage && (index !== undefined || !this.#indexed)) {
      this.#flush();
      this.#turn = index ?? this.#turn + 1;
      this.#turnHasText = false;
      this.#turns.push([this.#turn, this.builder.nextSeq]);
      if (this.#turns.length > MAX_TURNS) this.#turns.shift();
    }
    this.#chunk("user", chunkText(update.content), locator, time);
  }

  #chunk(
    role: "user" | "assistant",
    text: string,
    locator: Locator,
    time: number | undefined,
    subagent = false,
  ): void {
    if (this.#open?.role !== role || this.#open.subagent !== subagent) {
      this.#flush();
      this.#open = { role, subagent, text: "", locator, time };
      // Paths are listed once per message, as the other parsers do.
      this.#filesSeen.clear();
    }
    this.#open.text += text;
    if (role === "assistant" && !subagent && text.trim()) {
      this.#turnHasText = true;
    }
  }

  #flush(): void {
    const open = this.#open;
    if (!open) return;
    this.#open = undefined;
    this.builder.add(open.role, cleanSpeech(open.text), {
      locator: open.locator,
      time: open.time,
      ...(open.subagent ? { flags: { subagent: true } } : {}),
    });
  }

  #toolCall(update: Json, base: Locator, time: number | undefined): void {
    const id = str(update.toolCallId);
    const kind = str(update.kind) ?? "other";
    const locator: Locator = id ? { ...base, recordId: id } : base;
    const at = { locator, time, tool: kind };
    const call: PendingCall = { tool: kind };
    if (kind === "execute") {
      const command = commandOf(toolInput(update));
      if (command) {
        const record = this.builder.add("command", command, at);
        if (record && id) this.#commands.set(id, record.seq);
        call.command = true;
      }
    } else {
      for (const path of toolPaths(update)) this.#file(path, at);
    }
    this.#diffs(toolContent(update.content).diffs, at);
    if (id) {
      this.#pending.delete(id);
      this.#pending.set(id, call);
      if (this.#pending.size > MAX_PENDING) {
        const oldest = this.#pending.keys().next().value;
        if (oldest !== undefined) this.#pending.delete(oldest);
      }
    }
  }

  #toolUpdate(update: Json, base: Locator, time: number | undefined): void {
    const id = str(update.toolCallId);
    const status = update.status;
    const final = status === "completed" || status === "failed";
    const call = id ? this.#pending.get(id) : undefined;
    if (!id || !call) {
      // An update of a call this log never opened (or already closed).
      this.builder.touch(time);
      return;
    }
    const locator: Locator = { ...base, recordId: id };
    const { text, diffs } = toolContent(update.content);
    if (diffs.length > 0) {
      this.#flush();
      this.#diffs(diffs, { locator, time, tool: call.tool });
    }
    if (!final) {
      this.builder.touch(time);
      return;
    }
    this.#flush();
    this.#pending.delete(id);
    const failed = status === "failed";
    const seq = this.#commands.get(id);
    if (seq !== undefined) {
      // The command record is in this part: give it an exit code.
      const record = this.builder.records.find((r) => r.seq === seq);
      const code = footerExitCode(text) ?? (failed ? undefined : 0);
      if (record && code !== undefined) record.exitCode = code;
    }
    this.builder.add("tool-output", text, {
      locator,
      time,
      tool: call.tool,
      ...(failed ? { flags: { isError: true } } : {}),
    });
  }

  #diffs(
    diffs: ReadonlyArray<{ path: string; oldText: string }>,
    at: { locator: Locator; time: number | undefined; tool: string },
  ): void {
    for (const diff of diffs) {
      this.#file(diff.path, at);
      if (!diff.oldText) continue;
      this.builder.addEdit(diff.path, diff.oldText, at);
    }
  }

  /** Lists a path once per message. */
  #file(
    path: string,
    at: { locator: Locator; time: number | undefined; tool: string },
  ): void {
    if (this.#filesSeen.has(path)) return;
    this.#filesSeen.add(path);
    this.builder.add("files", path, at);
  }

  #turnCompleted(update: Json, locator: Locator, time: number | undefined) {
    // A turn whose reply was never streamed keeps it in agent_result.
    const result = str(update.agent_result);
    if (!this.#turnHasText && result) {
      this.builder.add("assistant", cleanSpeech(result), { locator, time });
    } else this.builder.touch(time);
    this.#pending.clear();
    this.#turnHasText = false;
  }

  #rewind(update: Json): void {
    const target = finite(update.target_prompt_index);
    if (target === undefined) return;
    const gone = this.#turns.filter(([index]) => index >= target);
    const from = Math.min(...gone.map(([, seq]) => seq));
    if (gone.length > 0) {
      this.builder.mark("rewind", from, this.builder.nextSeq);
    }
    this.#turns = this.#turns.filter(([index]) => index < target);
    this.#turn = Math.min(this.#turn, target - 1);
    this.#pending.clear();
    this.#turnHasText = false;
  }
}

/** What `summary.json` beside a log says about its session. */
interface GrokSummary {
  id?: string;
  cwd?: string;
  title?: string;
  created?: number;
  updated?: number;
  parent?: string;
  lineage?: Lineage;
}

async function readSummary(dir: string): Promise<GrokSummary> {
  const doc = await readJsonFile(join(dir, "summary.json"));
  if (!isObject(doc)) return {};
  const info = obj(doc.info);
  const summary: GrokSummary = {};
  const id = str(info.id);
  if (id) summary.id = id;
  const cwd = str(info.cwd);
  if (cwd) summary.cwd = cwd;
  const title = str(doc.generated_title) ?? str(doc.session_summary);
  if (title) summary.title = title;
  const created = parseTime(doc.created_at);
  if (created !== undefined) summary.created = created;
  const updated = parseTime(doc.updated_at);
  if (updated !== undefined) summary.updated = updated;
  const parent = str(doc.parent_session_id);
  const kind = str(doc.session_kind);
  if (parent && kind !== undefined && kind.startsWith("subagent")) {
    summary.parent = parent;
    summary.lineage = "subagent";
  } else if (parent) {
    summary.parent = parent;
    summary.lineage = "fork";
  }
  return summary;
}

/** The cwd a group folder stands for: its `.cwd` file, else its decoded name. */
async function groupCwd(groupDir: string): Promise<string | undefined> {
  try {
    const text = (await Deno.readTextFile(join(groupDir, ".cwd"))).trim();
    if (text && !text.includes("\n")) return text;
  } catch {
    // No .cwd file: the folder name encodes the cwd.
  }
  try {
    const decoded = decodeURIComponent(basename(groupDir));
    return decoded.startsWith("/") || /^[A-Za-z]:[\\/]/.test(decoded)
      ? decoded
      : undefined;
  } catch {
    return undefined;
  }
}

/** Options for {@linkcode parseGrokUpdates}. */
export interface GrokParseOptions extends ParseOptions {
  /** Lines longer than this are skipped. Default 8 MiB. */
  maxLineBytes?: number;
}

/**
 * Parses one Grok Build `updates.jsonl` (from `options.offset` when
 * resuming, with the state the last parse returned). Streamed chunks join
 * into one record per message; the title, cwd and parent come from
 * `summary.json` beside the log.
 *
 * @param path The `updates.jsonl` file.
 * @param options Resume point, state and line cap.
 * @returns The session (only its new records when resuming), the safe
 *   offset and the state to resume with.
 * @example
 * ```ts
 * import { parseGrokUpdates } from "./grok.ts";
 * import { equal } from "node:assert/strict";
 * const dir = `${await Deno.makeTempDir()}/sessions/%2Fw%2Fapp/s1`;
 * await Deno.mkdir(dir, { recursive: true });
 * const line = (update: unknown) =>
 *   JSON.stringify({ timestamp: 1767225600, method: "session/update", params: { sessionId: "s1", update } });
 * await Deno.writeTextFile(`${dir}/updates.jsonl`, [
 *   line({ sessionUpdate: "user_message_chunk", content: { type: "text", text: "run the linter" }, _meta: { promptIndex: 0 } }),
 *   line({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Lint is clean." } }),
 * ].join("\n") + "\n");
 * const source = { home: "/h", env: {}, os: "linux" };
 * const { sessions } = await parseGrokUpdates(`${dir}/updates.jsonl`, { includeSubagents: true, source });
 * equal(sessions[0]?.project, "app");
 * equal(sessions[0]?.records[1]?.text, "Lint is clean.");
 * ```
 */
export async function parseGrokUpdates(
  path: string,
  options: GrokParseOptions,
): Promise<ParseResult> {
  const dir = dirname(path);
  const summary = await readSummary(dir);
  if (summary.lineage === "subagent" && !options.includeSubagents) {
    return { sessions: [], skipped: 0, safeOffset: 0 };
  }
  const resume = options.offset !== undefined && options.offset > 0 &&
    isState(options.state);
  const state = resume ? options.state as GrokUpdatesState : undefined;
  const cwd = summary.cwd ?? await groupCwd(dirname(dir));
  const reader = new GrokUpdatesReader(
    path,
    {
      id: summary.id ?? basename(dir),
      cwd,
      includeSubagents: options.includeSubagents,
    },
    state,
  );
  const walked = await walkJsonLines(
    path,
    {
      ...(resume
        ? { offset: options.offset, firstLine: options.firstLine }
        : {}),
      ...(options.maxLineBytes === undefined
        ? {}
        : { maxLineBytes: options.maxLineBytes }),
    },
    (entry, at) => reader.line(entry, at),
  );
  reader.finish();
  const b = reader.builder;
  if (summary.title) b.setTitle(summary.title);
  if (summary.parent && summary.lineage) {
    b.setParent(summary.parent, summary.lineage);
  }
  if (!resume) b.touch(summary.created);
  b.touch(summary.updated);
  const session = b.build();
  return {
    sessions: session.records.length > 0 || resume ? [session] : [],
    safeOffset: walked.safeOffset,
    safeLine: walked.safeLine,
    state: reader.state(),
    skipped: walked.skipped + reader.skipped,
  };
}

const DB_DIALECT: ToolDialect = {
  shell: new Set(["bash", "shell", "run_command", "execute"]),
  commandKeys: ["command", "cmd"],
  pathTools: new Set(["read", "read_file", "view", "write", "write_file"]),
  pathKeys: ["path", "file_path", "filePath"],
  editTools: new Set(["edit", "edit_file", "str_replace", "search_replace"]),
  oldKeys: ["old_string", "oldText", "old_str", "old_text", "search"],
};

/** A tool result's text: a JSON string as it is, anything else as JSON. */
function outputText(value: unknown): string {
  const text = textColumn(value);
  if (text === undefined) return "";
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === "string") return parsed;
    if (isObject(parsed)) {
      // grok-cli stores a `ToolResult` ({ success, output, error, diff }),
      // else the SDK's output part ({ type: "text" | "error-text", value }).
      const inner = str(parsed.output) ?? str(parsed.error) ??
        str(parsed.text) ?? str(parsed.content) ??
        (typeof parsed.type === "string" ? str(parsed.value) : undefined);
      if (inner !== undefined) return inner;
    }
    return JSON.stringify(parsed);
  } catch {
    return text;
  }
}

interface DbResult {
  id: string;
  name: string | undefined;
  text: string;
  ok: boolean;
  time: number | undefined;
}

/** Tool results by session and message seq, when the store has them. */
function dbResults(store: Store): Map<string, DbResult[]> {
  const out = new Map<string, DbResult[]>();
  if (!store.tables.has("tool_calls") || !store.tables.has("tool_results")) {
    return out;
  }
  const calls = requireColumns(store, "tool_calls", [
    "id",
    "session_id",
    "message_seq",
  ]);
  const results = requireColumns(store, "tool_results", ["tool_call_row_id"]);
  const pick = (cols: Set<string>, table: string, name: string) =>
    cols.has(name) ? `${table}.${name}` : "NULL";
  const sql =
    `SELECT tool_calls.session_id AS session, tool_calls.message_seq AS seq,
      ${pick(calls, "tool_calls", "tool_call_id")} AS call_id,
      ${pick(calls, "tool_calls", "tool_name")} AS name,
      ${pick(results, "tool_results", "output_json")} AS output,
      ${pick(results, "tool_results", "success")} AS success,
      ${pick(results, "tool_results", "created_at")} AS created
    FROM tool_results JOIN tool_calls ON tool_results.tool_call_row_id = tool_calls.id
    ORDER BY tool_results.id`;
  for (const row of rows(store, sql)) {
    const session = textColumn(row.session);
    const seq = numberColumn(row.seq);
    if (session === undefined || seq === undefined) continue;
    const key = `${session}\u0000${seq}`;
    const result: DbResult = {
      id: textColumn(row.call_id) ?? "",
      name: textColumn(row.name),
      text: outputText(row.output),
      ok: numberColumn(row.success) !== 0,
      time: parseTime(textColumn(row.created)),
    };
    const bucket = out.get(key);
    if (bucket) bucket.push(result);
    else out.set(key, [result]);
  }
  return out;
}

/** A context compaction: its summary and when it was written. */
interface DbCompaction {
  summary: string;
  time: number | undefined;
  id: string;
}

/** Compaction summaries by session, oldest first, when the store has them. */
function dbCompactions(store: Store): Map<string, DbCompaction[]> {
  const out = new Map<string, DbCompaction[]>();
  if (!store.tables.has("compactions")) return out;
  const cols = requireColumns(store, "compactions", ["session_id", "summary"]);
  const created = cols.has("created_at") ? "created_at" : "NULL";
  const order = cols.has("id") ? "id" : "rowid";
  for (
    const row of rows(
      store,
      `SELECT session_id, summary, ${created} AS created,
        CAST(${order} AS TEXT) AS row_id FROM compactions ORDER BY ${order}`,
    )
  ) {
    const session = textColumn(row.session_id);
    const summary = textColumn(row.summary);
    if (!session || !summary?.trim()) continue;
    const compaction = {
      summary,
      time: parseTime(textColumn(row.created)),
      id: textColumn(row.row_id) ?? "",
    };
    const bucket = out.get(session);
    if (bucket) bucket.push(compaction);
    else out.set(session, [compaction]);
  }
  return out;
}

function readGrokDb(store: Store, path: string): ParseResult {
  requireTables(store, ["sessions", "messages"]);
  const sessionCols = requireColumns(store, "sessions", ["id"]);
  requireColumns(store, "messages", [
    "session_id",
    "seq",
    "role",
    "message_json",
  ]);
  const meta = new Map<string, Json>();
  const pick = (name: string) => sessionCols.has(name) ? name : "NULL";
  for (
    const row of rows(
      store,
      `SELECT id, ${pick("title")} AS title, ${pick("cwd_last")} AS cwd_last,
        ${pick("cwd_at_start")} AS cwd_start, ${pick("created_at")} AS created,
        ${pick("updated_at")} AS updated FROM sessions`,
    )
  ) {
    const id = textColumn(row.id);
    if (id) meta.set(id, row);
  }
  const results = dbResults(store);
  const compactions = dbCompactions(store);
  const sessions: Session[] = [];
  let skipped = 0;
  interface Open {
    id: string;
    b: SessionBuilder;
    tools: ToolRecorder;
    /** Compaction summaries not yet placed. */
    summaries: DbCompaction[];
  }
  let current: Open | undefined;
  /** Places the summaries written before `time` (all of them at the end). */
  const summarise = (open: Open, time: number | undefined): void => {
    while (open.summaries.length > 0) {
      const next = open.summaries[0] as DbCompaction;
      if (time !== undefined && (next.time === undefined || next.time > time)) {
        return;
      }
      open.summaries.shift();
      open.b.add("summary", next.summary, {
        locator: { path, recordId: `${open.id}:compaction:${next.id}` },
        time: next.time,
      });
    }
  };
  const close = (): void => {
    if (current) summarise(current, undefined);
    if (current && current.b.records.length > 0) {
      sessions.push(current.b.build());
    }
    current = undefined;
  };
  const messageCols = requireColumns(store, "messages", ["session_id"]);
  const created = messageCols.has("created_at") ? "created_at" : "NULL";
  for (
    const row of rows(
      store,
      `SELECT session_id, seq, role, message_json, ${created} AS created
        FROM messages ORDER BY session_id, seq`,
    )
  ) {
    const sessionId = textColumn(row.session_id);
    const seq = numberColumn(row.seq);
    if (!sessionId || seq === undefined) {
      skipped++;
      continue;
    }
    if (current === undefined || current.id !== sessionId) {
      close();
      const m = meta.get(sessionId) ?? {};
      const b: SessionBuilder = new SessionBuilder({
        harness: HARNESS_ID,
        id: sessionId,
        path,
        cwd: textColumn(m.cwd_last) ?? textColumn(m.cwd_start),
      });
      const title = textColumn(m.title);
      if (title) b.setTitle(title);
      b.touch(parseTime(textColumn(m.created)));
      b.touch(parseTime(textColumn(m.updated)));
      current = {
        id: sessionId,
        b,
        tools: new ToolRecorder(b, DB_DIALECT),
        summaries: [...(compactions.get(sessionId) ?? [])],
      };
    }
    const { b, tools }: Open = current;
    let message: unknown;
    try {
      message = JSON.parse(textColumn(row.message_json) ?? "");
    } catch {
      skipped++;
      continue;
    }
    if (!isObject(message)) {
      skipped++;
      continue;
    }
    const locator: Locator = { path, recordId: `${sessionId}:${seq}` };
    const time = parseTime(textColumn(row.created));
    const at = { locator, time };
    // A compaction's summary goes before the first message written after it.
    summarise(current, time ?? Number.NEGATIVE_INFINITY);
    const role = textColumn(row.role) ?? str(message.role);
    const content = message.content;
    if (role === "user") {
      const text = typeof content === "string"
        ? content
        : list(content).map((c) =>
          isObject(c) && c.type === "text" ? str(c.text) ?? "" : ""
        ).join("\n\n");
      b.add("user", cleanSpeech(text), at);
    } else if (role === "assistant") {
      tools.newMessage();
      let texts: string[] = typeof content === "string" ? [content] : [];
      const flush = (): void => {
        if (texts.length > 0) {
          b.add("assistant", cleanSpeech(texts.join("\n\n")), at);
        }
        texts = [];
      };
      for (const block of list(content)) {
        if (!isObject(block)) continue;
        if (block.type === "text") {
          const text = str(block.text);
          if (text) texts.push(text);
        } else if (block.type === "tool-call" || block.type === "tool_call") {
          flush();
          const name = str(block.toolName) ?? str(block.name);
          if (name) {
            tools.call(
              str(block.toolCallId) ?? str(block.id),
              name,
              block.input ?? block.args,
              at,
            );
          }
        }
      }
      flush();
    } else {
      // System prompts and tool messages (results come from tool_results).
      b.touch(time);
    }
    for (const result of results.get(`${sessionId}\u0000${seq}`) ?? []) {
      tools.result(
        result.id || undefined,
        result.text,
        !result.ok,
        {
          locator: { path, recordId: `${sessionId}:${seq}:${result.id}` },
          time: result.time ?? time,
        },
        undefined,
        result.name,
      );
    }
  }
  close();
  return { sessions, skipped };
}

/**
 * Reads every session in a grok CLI `grok.db` (opened read-only): user and
 * assistant text from `messages.message_json`, tool calls from its
 * `tool-call` blocks, and their outputs from `tool_results`.
 *
 * @param path The `grok.db` file.
 * @param _options Unused (the store is read whole).
 * @returns The sessions.
 * @example
 * ```ts
 * import { parseGrokDb } from "./grok.ts";
 * import { rejects } from "node:assert/strict";
 * const source = { home: "/h", env: {}, os: "linux" };
 * await rejects(parseGrokDb("/no/such/grok.db", { includeSubagents: true, source }));
 * ```
 */
export function parseGrokDb(
  path: string,
  _options: ParseOptions,
): Promise<ParseResult> {
  return readStore(path, "Grok", (store) => readGrokDb(store, path));
}

/** `$GROK_HOME`, else `~/.grok`. */
function grokHome(source: SourceEnv): string {
  return (source.env.GROK_HOME || join(source.home, ".grok")).replace(
    /[\\/]+$/,
    "",
  );
}

/** The sessions folder: `DEJA_GROK_ROOT`, else `<grok home>/sessions`. */
function sessionsRoot(source: SourceEnv): string {
  return source.env.DEJA_GROK_ROOT || join(grokHome(source), "sessions");
}

/** The SQLite store: `DEJA_GROK_DB`, else `<grok home>/grok.db`. */
function dbPath(source: SourceEnv): string {
  return source.env.DEJA_GROK_DB || join(grokHome(source), "grok.db");
}

function grokRoots(source: SourceEnv): string[] {
  return [sessionsRoot(source), dbPath(source)];
}

const updatesKind: FileKind = {
  id: "updates",
  appendOnly: true,
  match: (path) => basename(path) === "updates.jsonl",
  parse: (path, options) => parseGrokUpdates(path, options),
};

const dbKind: FileKind = {
  id: "db",
  appendOnly: false,
  match: (path) => basename(path) === "grok.db",
  parse: (path, options) => parseGrokDb(path, options),
};

/**
 * The Grok Build harness.
 *
 * @example
 * ```ts
 * import { grok } from "./grok.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(grok.roots({ home: "/h", env: {}, os: "linux" }), ["/h/.grok/sessions", "/h/.grok/grok.db"]);
 * ```
 */
export const grok: Harness = {
  id: HARNESS_ID,
  // 2: grok.db compaction summaries, failed results' error text.
  // 3: a command's output is an error when it exited non-zero, whatever
  // status the harness gave the result (shared ToolRecorder).
  // 4: a sub-agent's chunks mirrored into the parent's log are the
  // sub-agent's; an unmarked user chunk among indexed prompts opens no turn;
  // a tool call's input from `_meta["x.ai/tool"]` when `rawInput` is absent.
  revision: 4,
  name: "Grok Build",
  format:
    "ACP session-update JSONL (updates.jsonl) + summary.json per session folder; SQLite grok.db",
  envOverrides: ["GROK_HOME", "DEJA_GROK_ROOT", "DEJA_GROK_DB"],
  roots: grokRoots,
  discover(source: SourceEnv): Promise<string[]> {
    const found = walkFiles(sessionsRoot(source), updatesKind.match, {
      maxDepth: 2,
    });
    const db = dbPath(source);
    if (dbKind.match(db) && isRegularFileSync(db)) found.push(db);
    return Promise.resolve(found);
  },
  kinds: [updatesKind, dbKind],
  docs: {
    store:
      "`${GROK_HOME:-~/.grok}/sessions/<url-encoded-cwd>/<sessionId>/updates.jsonl` with `summary.json` beside it, and `${GROK_HOME:-~/.grok}/grok.db` (same on every OS; `DEJA_GROK_ROOT` names the sessions folder, `DEJA_GROK_DB` the store)",
    extracts:
      "user and assistant text (streamed chunks joined into one record per message; a turn's `agent_result` when nothing was streamed), `execute` tool calls as commands with an exit code from their final update, paths of read/edit tool calls as files (a call's input from `rawInput`, else its `_meta[\"x.ai/tool\"].input`), diff blocks as edits, tool output with `failed` as an error; summary.json's generated title (else session summary), cwd and parent (`subagent` for a sub-agent session kind, else `fork`); turns a rewind marker took back are kept under `rewind` marks (a user chunk without a `promptIndex`, once prompts carry one, is kept as said mid-turn and opens no turn); a sub-agent's message chunks mirrored into the parent's log (`_meta` `isSidechain`, `parentSessionId` or `subagentId`) as sub-agent records, not the parent's reply. From grok.db: message text, tool-call blocks and `tool_results` outputs (a `ToolResult`'s output, else its error, flagged by `success`), `compactions` summaries as summary records placed where they were written",
    omits:
      "thought chunks, plans, mode/model/command-list updates, images; `chat_history.jsonl` (a context cache compaction rewrites); in grok.db, system and tool-role messages (outputs come from `tool_results`), usage events, workspaces. A message still streaming while deja reads the log may be split into two records",
    verified:
      'fixture only: no real Grok sample; the update envelope, chunk kinds, rewind markers and summary.json fields from public parsers of Grok Build sessions (the `_x.ai/session/update` method, sidechain `_meta` marks and unmarked mid-turn user chunks from a Rust Grok Build transcript folder and Casein\'s `Casein.Agents.Transcripts.Grok`, whose `_meta["x.ai/tool"]` input fallback is also read), the grok.db tables (`sessions`, `messages`, `tool_calls`, `tool_results`, `compactions`, user_version 2) and the `ToolResult` output shape from superagent-ai/grok-cli (src/storage/migrations.ts, transcript.ts, db.ts)',
  },
};
