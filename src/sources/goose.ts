/**
 * Block's Goose: the SQLite session store `sessions/sessions.db` (goose
 * 1.10 and later) and the legacy one-JSONL-per-session files beside it.
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
import { readLines } from "../core/lines.ts";
import { cleanSpeech } from "../core/text.ts";
import { parseTime } from "../core/time.ts";
import type {
  Lineage,
  Locator,
  RecordFlags,
  Session,
  SessionRecord,
} from "../core/types.ts";
import { SessionBuilder } from "./_builder.ts";
import { baseName } from "./_paths.ts";
import { roamingAppData, xdgDataHome } from "./_roots.ts";
import {
  col,
  columnsOf,
  ident,
  numberColumn,
  readStore,
  requireColumns,
  requireTables,
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
import { editBody, exitCodeIn } from "./_work_records.ts";

const HARNESS_ID = "goose";
const NAME = "Goose";

/** Session types that are not a conversation anyone had. */
const HIDDEN_TYPES = new Set(["hidden"]);

/** Session types of sub-agent runs. */
const SUBAGENT_TYPES = new Set(["sub_agent", "subagent"]);

/** Placeholder names Goose gives a session before anyone names it. */
const PLACEHOLDER_NAMES = new Set([
  "",
  "CLI Session",
  "ACP Session",
  "New session",
  "New Chat",
]);

/** Goose's data directories: `$GOOSE_PATH_ROOT/data`, else per OS; plus the legacy `~/.goose`. */
function gooseRoots(source: SourceEnv): string[] {
  const env = source.env;
  if (env.DEJA_GOOSE_ROOT) return [env.DEJA_GOOSE_ROOT];
  const roots: string[] = [];
  if (env.GOOSE_PATH_ROOT) {
    roots.push(join(env.GOOSE_PATH_ROOT, "data"));
  } else if (source.os === "windows") {
    roots.push(join(roamingAppData(source), "Block", "goose", "data"));
  } else {
    roots.push(join(xdgDataHome(source), "goose"));
  }
  roots.push(join(source.home, ".goose"));
  return roots;
}

function isSessionsDb(path: string): boolean {
  return baseName(path) === "sessions.db";
}

function isLegacyJsonl(path: string): boolean {
  const parts = path.split(/[\\/]+/);
  return parts.at(-2) === "sessions" && (parts.at(-1) ?? "").endsWith(".jsonl");
}

function discoverGoose(source: SourceEnv): Promise<string[]> {
  return Promise.resolve(
    gooseRoots(source).flatMap((root) =>
      walkFiles(
        join(root, "sessions"),
        (p) => isSessionsDb(p) || isLegacyJsonl(p),
        { maxDepth: 0 },
      )
    ),
  );
}

/** Options for the Goose parsers. */
export interface GooseParseOptions extends ParseOptions {
  /** Legacy JSONL lines longer than this many bytes are skipped. Default 8 MiB. */
  maxLineBytes?: number;
}

/**
 * The roles an MCP content item is meant for (`annotations.audience`), or
 * undefined when it names none (everyone).
 */
function audienceOf(item: Json): string[] | undefined {
  const audience = obj(item.annotations).audience;
  if (!Array.isArray(audience)) return undefined;
  return audience.filter((r): r is string => typeof r === "string");
}

/**
 * Text parts of a tool result: an MCP `CallToolResult` or a bare content
 * list. Goose's own tools answer twice, the full output for the model
 * (`audience: ["assistant"]`) and a copy or short summary for the person
 * (`audience: ["user"]`); the model's text is the output, and the person's
 * copy is read only when nothing else was written.
 */
function resultText(value: unknown): string {
  const content = Array.isArray(value) ? value : list(obj(value).content);
  const forModel: string[] = [];
  const forPerson: string[] = [];
  for (const item of content) {
    if (
      isObject(item) && item.type === "text" && typeof item.text === "string"
    ) {
      const audience = audienceOf(item);
      if (audience === undefined || audience.includes("assistant")) {
        forModel.push(item.text);
      } else {
        forPerson.push(item.text);
      }
    }
  }
  return (forModel.length > 0 ? forModel : forPerson).join("\n");
}

/**
 * The fixed text Goose writes after a compaction summary, telling the model
 * what the message before it is; its wording changed across releases.
 */
const CONTINUATION =
  /^(?:Your context was compacted\. )?The previous message (?:contains a summary|is a structured summary)/;

function isShell(name: string): boolean {
  const n = name.toLowerCase();
  return n === "bash" || n === "shell" || n.endsWith("__shell");
}

function isFileTool(name: string): boolean {
  return /text_editor|(^|__)(read|write|edit|view|str_replace|create_file)$/i
    .test(name);
}

/** Builds one Goose session from its messages. */
class GooseSession {
  readonly builder: SessionBuilder;
  #flags: RecordFlags | undefined;
  #commands = new Map<string, SessionRecord>();
  #tools = new Map<string, string>();

  constructor(init: {
    id: string;
    path: string;
    cwd?: string | undefined;
    title?: string | undefined;
    parent?: string | undefined;
    lineage?: Lineage | undefined;
    created?: number | undefined;
    updated?: number | undefined;
  }) {
    this.builder = new SessionBuilder({
      harness: HARNESS_ID,
      id: init.id,
      path: init.path,
      cwd: init.cwd,
      project: init.cwd ? undefined : "goose",
      parent: init.parent,
      lineage: init.lineage,
    });
    if (init.lineage === "subagent") this.#flags = { subagent: true };
    if (init.title) this.builder.setTitle(init.title);
    this.builder.touch(init.created);
    this.builder.touch(init.updated);
  }

  #opts(locator: Locator, time: number | undefined, extra: {
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

  /** The text of the last message only the model saw: a compaction summary when the continuation note follows it. */
  #hidden:
    | { text: string; locator: Locator; time: number | undefined }
    | undefined;
  /** The last prompt read, and whether a compaction was read since. */
  #lastPrompt: string | undefined;
  #compacted = false;

  /** One message; returns the number of unreadable content items. */
  message(
    role: unknown,
    content: unknown,
    metadata: Json,
    time: number | undefined,
    locator: Locator,
  ): number {
    // A JSON-encoded string is how some versions stored the content list.
    const items = typeof content === "string" ? parseJson(content) : content;
    if (!Array.isArray(items)) return 1;
    // userVisible:false marks what only the model saw: injected context,
    // compaction summaries and prompts. It is not something anyone said.
    const hiddenFromUser = metadata.userVisible === false;
    let skipped = 0;
    let texts: string[] = [];
    const unseen: string[] = [];
    const flush = () => {
      if (texts.length === 0) return;
      if (hiddenFromUser) unseen.push(...texts);
      else if (role === "user" || role === "assistant") {
        this.#speech(role, texts, locator, time);
      }
      texts = [];
    };
    for (const item of items) {
      if (!isObject(item)) {
        skipped++;
        continue;
      }
      switch (item.type) {
        case "text":
          if (typeof item.text !== "string") break;
          // Text annotated for the model alone is not shown to the person.
          if (audienceOf(item)?.includes("user") === false) {
            unseen.push(item.text);
          } else texts.push(item.text);
          break;
        case "toolRequest":
        // A tool the desktop app runs itself: the same `{id, toolCall}`
        // shape, answered by a `toolResponse` of the same id.
        case "frontendToolRequest":
          flush();
          this.#request(item, locator, time);
          break;
        case "toolResponse":
          flush();
          this.#response(item, locator, time);
          break;
        default:
          // thinking, redactedThinking, reasoning, image, notifications,
          // confirmations (the request they ask about is read), elicitations.
          break;
      }
    }
    flush();
    this.#compaction(hiddenFromUser, unseen.join("\n\n").trim(), locator, time);
    return skipped;
  }

  #speech(
    role: "user" | "assistant",
    texts: string[],
    locator: Locator,
    time: number | undefined,
  ): void {
    const text = cleanSpeech(texts.join("\n\n"));
    if (role === "user") {
      // After a compaction Goose sends the last prompt again as a new
      // message; the person typed it once.
      const repeat = this.#compacted && text === this.#lastPrompt;
      this.#compacted = false;
      this.#lastPrompt = text;
      if (repeat) return;
    }
    this.builder.add(role, text, this.#opts(locator, time));
  }

  /**
   * A compaction: Goose writes the summary as a message only the model sees,
   * then a fixed note (also unseen) saying the message before it is a
   * summary. The summary is kept once that note is read.
   */
  #compaction(
    hidden: boolean,
    text: string,
    locator: Locator,
    time: number | undefined,
  ): void {
    if (!hidden) {
      this.#hidden = undefined;
      return;
    }
    if (CONTINUATION.test(text)) {
      const summary = this.#hidden;
      this.#hidden = undefined;
      if (!summary) return;
      this.builder.add(
        "summary",
        cleanSpeech(summary.text),
        this.#opts(summary.locator, summary.time),
      );
      this.#compacted = true;
      return;
    }
    this.#hidden = text ? { text, locator, time } : undefined;
  }

  #request(item: Json, locator: Locator, time: number | undefined): void {
    const call = obj(item.toolCall);
    const value = obj(call.value);
    const name = str(value.name);
    if (!name) return;
    const id = str(item.id);
    if (id) this.#tools.set(id, name);
    const args = objectOf(value.arguments);
    if (isShell(name)) {
      const command = str(args.command);
      if (!command) return;
      const record = this.builder.add(
        "command",
        command,
        this.#opts(locator, time, { tool: name }),
      );
      if (record && id) this.#commands.set(id, record);
      return;
    }
    if (!isFileTool(name)) return;
    const path = str(args.path) ?? str(args.file_path);
    if (!path) return;
    this.builder.add("files", path, this.#opts(locator, time, { tool: name }));
    const old = str(args.old_str) ?? str(args.old_string) ?? str(args.before);
    if (old) {
      const body = editBody(path, old);
      this.builder.add(
        "edit",
        body.text,
        this.#opts(locator, time, { tool: name, truncated: body.truncated }),
      );
    }
  }

  #response(item: Json, locator: Locator, time: number | undefined): void {
    const id = str(item.id);
    const result = obj(item.toolResult);
    const value = result.value;
    const isError = result.status === "error" || obj(value).isError === true;
    const text = result.status === "error" && typeof result.error === "string"
      ? result.error
      : resultText(value);
    const tool = id ? this.#tools.get(id) : undefined;
    if (id) {
      const command = this.#commands.get(id);
      if (command) {
        this.#commands.delete(id);
        const code = exitCodeIn(text);
        if (code !== undefined) command.exitCode = code;
        else if (!isError) command.exitCode = 0;
      }
    }
    this.builder.add(
      "tool-output",
      text,
      this.#opts(locator, time, { tool, isError }),
    );
  }
}

interface SessionRow {
  id: string;
  thread?: string;
  cwd?: string;
  title?: string;
  type?: string;
  parent?: string;
  created?: number;
  updated?: number;
}

function titleOf(row: Record<string, unknown>): string | undefined {
  const description = textColumn(row.description)?.trim();
  if (description) return description;
  const name = textColumn(row.name)?.trim() ?? "";
  if (numberColumn(row.user_set_name) === 1 || !PLACEHOLDER_NAMES.has(name)) {
    return name || undefined;
  }
  return undefined;
}

/**
 * Names ACP sessions after their thread. Goose schemas 10 and 11 (spring
 * 2026) kept an ACP conversation's name and folder in a `threads` row, the
 * session itself being an internal "ACP Session" that points at it through
 * `thread_id`; schema 12 folded threads back into sessions and dropped the
 * table.
 */
function applyThreads(store: Store, sessions: SessionRow[]): void {
  if (!store.tables.has("threads")) return;
  if (!sessions.some((s) => s.thread !== undefined)) return;
  const columns = columnsOf(store, "threads");
  if (!columns.has("id")) return;
  const pick = (name: string) =>
    columns.has(name) ? col(ident(name), name) : `NULL AS ${ident(name)}`;
  const threads = new Map<string, { title?: string; cwd?: string }>();
  for (
    const row of rows(
      store,
      `SELECT ${col("id")}, ${pick("name")}, ${pick("user_set_name")}, ${
        pick("working_dir")
      } FROM threads`,
    )
  ) {
    const id = textColumn(row.id);
    if (!id) continue;
    const info: { title?: string; cwd?: string } = {};
    const title = titleOf(row);
    if (title) info.title = title;
    const cwd = textColumn(row.working_dir);
    if (cwd) info.cwd = cwd;
    threads.set(id, info);
  }
  for (const session of sessions) {
    const thread = session.thread ? threads.get(session.thread) : undefined;
    if (!thread) continue;
    if (thread.title) session.title ??= thread.title;
    if (thread.cwd) session.cwd ??= thread.cwd;
  }
}

/**
 * Parses Goose's `sessions.db`. Text content is speech (messages marked
 * `userVisible: false` are what only the model saw and are skipped), shell
 * tool requests are commands (exit code from the output when written, else
 * 0 unless the tool failed), text-editor requests give files and edits, and
 * tool responses are `tool-output` with their error flag. `hidden` sessions
 * are skipped; `sub_agent` sessions (or rows with `parent_session_id`) are
 * children of their parent. A session that starts by repeating another
 * session's message ids is a fork: it is read as the fork of that session,
 * holding only its own turns.
 *
 * @param path The database.
 * @param options Sub-agent switch.
 * @returns The sessions; a store without Goose's tables throws SRC-E002.
 * @example
 * ```ts
 * import { parseGooseDb } from "./goose.ts";
 * import { rejects } from "node:assert/strict";
 * const path = await Deno.makeTempFile({ suffix: ".db" });
 * const source = { home: "/h", env: {}, os: "linux" };
 * await rejects(parseGooseDb(path, { includeSubagents: true, source }), /missing table "sessions"/);
 * ```
 */
export function parseGooseDb(
  path: string,
  options: GooseParseOptions,
): Promise<ParseResult> {
  return readStore(path, NAME, (store) => {
    requireTables(store, ["sessions", "messages"]);
    const sessionColumns = requireColumns(store, "sessions", [
      "id",
      "working_dir",
    ]);
    const messageColumns = requireColumns(store, "messages", [
      "session_id",
      "role",
      "content_json",
      "created_timestamp",
    ]);
    const pick = (columns: Set<string>, name: string) =>
      columns.has(name) ? col(ident(name), name) : `NULL AS ${ident(name)}`;
    const sessionRows: SessionRow[] = [];
    for (
      const row of rows(
        store,
        `SELECT ${col("id")}, ${col("working_dir")}, ${
          [
            "description",
            "name",
            "user_set_name",
            "session_type",
            "parent_session_id",
            "created_at",
            "updated_at",
            "thread_id",
          ]
            .map((c) => pick(sessionColumns, c)).join(", ")
        } FROM sessions ORDER BY ${
          sessionColumns.has("created_at") ? "created_at, " : ""
        }rowid`,
      )
    ) {
      const id = textColumn(row.id);
      if (!id) continue;
      const session: SessionRow = { id };
      const cwd = textColumn(row.working_dir);
      if (cwd) session.cwd = cwd;
      const title = titleOf(row);
      if (title) session.title = title;
      const type = textColumn(row.session_type);
      if (type) session.type = type;
      const thread = textColumn(row.thread_id);
      if (thread) session.thread = thread;
      const parent = textColumn(row.parent_session_id);
      if (parent) session.parent = parent;
      const created = parseTime(textColumn(row.created_at));
      if (created !== undefined) session.created = created;
      const updated = parseTime(textColumn(row.updated_at));
      if (updated !== undefined) session.updated = updated;
      sessionRows.push(session);
    }
    applyThreads(store, sessionRows);
    const hasMessageId = messageColumns.has("message_id");
    // Message ids → the first session that holds them, to tell forks.
    const owner = new Map<string, string>();
    const builders = new Map<string, GooseSession>();
    const copiedFrom = new Map<string, string>();
    const order = new Map(sessionRows.map((s, i) => [s.id, i]));
    let skipped = 0;
    const messages = rows(
      store,
      `SELECT ${col("session_id")}, ${col("role")}, ${col("content_json")}, ${
        col("created_timestamp")
      }, ${pick(messageColumns, "metadata_json")}, ${
        pick(messageColumns, "message_id")
      }, ${messageColumns.has("id") ? col("id") : "rowid AS id"}
        FROM messages ORDER BY session_id, created_timestamp, rowid`,
    );
    const byId = new Map(sessionRows.map((s) => [s.id, s]));
    // Sessions are read in creation order so a fork's source is seen first.
    const pending = new Map<string, Array<Record<string, unknown>>>();
    for (const row of messages) {
      const sid = textColumn(row.session_id) ?? "";
      if (!byId.has(sid)) continue;
      let bucket = pending.get(sid);
      if (!bucket) pending.set(sid, bucket = []);
      bucket.push(row);
    }
    const ids = [...pending.keys()].sort((a, b) =>
      (order.get(a) ?? 0) - (order.get(b) ?? 0)
    );
    for (const sid of ids) {
      const info = byId.get(sid) as SessionRow;
      const msgs = pending.get(sid) ?? [];
      pending.delete(sid);
      if (info.type && HIDDEN_TYPES.has(info.type)) continue;
      let lineage: Lineage | undefined;
      let parent = info.parent;
      if (info.type && SUBAGENT_TYPES.has(info.type)) lineage = "subagent";
      else if (parent) lineage = "fork";
      let copied = 0;
      if (hasMessageId && lineage === undefined) {
        for (const row of msgs) {
          const mid = textColumn(row.message_id);
          const from = mid ? owner.get(mid) : undefined;
          if (!from) break;
          copied++;
          parent = from;
        }
        if (copied > 0) {
          lineage = "fork";
          copiedFrom.set(sid, parent as string);
        }
      }
      if (lineage === "subagent" && !options.includeSubagents) continue;
      const session = new GooseSession({
        id: sid,
        path,
        cwd: info.cwd,
        title: info.title,
        parent,
        lineage,
        created: info.created,
        updated: info.updated,
      });
      builders.set(sid, session);
      msgs.forEach((row, index) => {
        const mid = textColumn(row.message_id);
        if (mid && !owner.has(mid)) owner.set(mid, sid);
        if (index < copied) return;
        const locator: Locator = {
          path,
          recordId: mid ?? `${sid}:${textColumn(row.id) ?? index}`,
        };
        skipped += session.message(
          textColumn(row.role),
          parseJson(textColumn(row.content_json)),
          objectOf(textColumn(row.metadata_json)),
          parseTime(numberColumn(row.created_timestamp)),
          locator,
        );
      });
    }
    const sessions: Session[] = [...builders.values()]
      .map((s) => s.builder.build())
      .filter((s) => s.records.length > 0);
    return { sessions, skipped };
  });
}

/**
 * Parses a legacy Goose session file (`sessions/<id>.jsonl`, before goose
 * 1.10): a metadata first line (`working_dir`, `description`, …) followed by
 * one message per line (`role`, `created` in seconds, `content` list or
 * JSON-encoded string). Goose rewrote these files whole, so they are read
 * whole; a torn last line is left out and malformed lines are counted.
 *
 * @param path The `.jsonl` file.
 * @param options Parse options.
 * @returns One session (none when it holds no records).
 * @example
 * ```ts
 * import { parseGooseJsonl } from "./goose.ts";
 * import { equal } from "node:assert/strict";
 * const dir = await Deno.makeTempDir();
 * const path = `${dir}/20250101_1.jsonl`;
 * await Deno.writeTextFile(path, [
 *   JSON.stringify({ working_dir: "/home/a/api", description: "Health check" }),
 *   JSON.stringify({ role: "user", created: 1735725600, content: [{ type: "text", text: "add /health" }] }),
 * ].join("\n") + "\n");
 * const { sessions } = await parseGooseJsonl(path, { includeSubagents: true, source: { home: dir, env: {}, os: "linux" } });
 * equal(sessions[0]?.project, "api");
 * ```
 */
export async function parseGooseJsonl(
  path: string,
  options: GooseParseOptions,
): Promise<ParseResult> {
  let skipped = 0;
  let session: GooseSession | undefined;
  const id = baseName(path).replace(/\.jsonl$/, "");
  const start = (meta: Json) => {
    const cwd = str(meta.working_dir);
    session = new GooseSession({
      id,
      path,
      cwd,
      title: str(meta.description),
      created: parseTime(meta.created_at),
      updated: parseTime(meta.updated_at),
    });
  };
  for await (
    const line of readLines(path, {
      ...(options.maxLineBytes ? { maxLineBytes: options.maxLineBytes } : {}),
      onOversized: () => skipped++,
    })
  ) {
    if (!line.complete) break;
    if (line.text.trim().length === 0) continue;
    const value = parseJson(line.text);
    if (!isObject(value)) {
      skipped++;
      continue;
    }
    if (!("role" in value)) {
      if (!session) start(value);
      else skipped++;
      continue;
    }
    if (!session) start({});
    const locator: Locator = { path, line: line.number, offset: line.offset };
    const mid = str(value.id);
    if (mid) locator.recordId = mid;
    skipped += (session as GooseSession).message(
      value.role,
      value.content,
      obj(value.metadata),
      parseTime(value.created),
      locator,
    );
  }
  const built = (session as GooseSession | undefined)?.builder.build();
  return {
    sessions: built && built.records.length > 0 ? [built] : [],
    skipped,
  };
}

const dbKind: FileKind = {
  id: "sessions-db",
  appendOnly: false,
  match: isSessionsDb,
  parse: (path, options) => parseGooseDb(path, options),
};

const jsonlKind: FileKind = {
  id: "legacy-jsonl",
  appendOnly: false,
  match: isLegacyJsonl,
  parse: (path, options) => parseGooseJsonl(path, options),
};

/**
 * The Goose harness: `sessions/sessions.db` and legacy `sessions/*.jsonl`
 * under `$GOOSE_PATH_ROOT/data`, else `%APPDATA%\Block\goose\data`
 * (Windows) or `$XDG_DATA_HOME/goose` / `~/.local/share/goose`; plus the
 * legacy `~/.goose/sessions`.
 *
 * @example
 * ```ts
 * import { goose } from "./goose.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(goose.roots({ home: "/h", env: {}, os: "linux" }), ["/h/.local/share/goose", "/h/.goose"]);
 * ```
 */
export const goose: Harness = {
  id: HARNESS_ID,
  name: NAME,
  format:
    "SQLite sessions.db (sessions, messages with JSON content); legacy JSONL per session",
  // 2: ACP sessions of schemas 10-11 take their thread's name and folder.
  // 3: a tool's output once (the model's copy, not also the person's), the
  // compaction summary, no re-sent prompt after it, no model-only text.
  // 4: a frontend tool's request (`frontendToolRequest`) like any tool's.
  revision: 4,
  envOverrides: [
    "GOOSE_PATH_ROOT",
    "XDG_DATA_HOME",
    "APPDATA",
    "DEJA_GOOSE_ROOT",
  ],
  roots: gooseRoots,
  discover: discoverGoose,
  kinds: [dbKind, jsonlKind],
  docs: {
    store:
      "`sessions/sessions.db` (goose 1.10+) and legacy `sessions/<id>.jsonl` under `$GOOSE_PATH_ROOT/data`, else `%APPDATA%\\Block\\goose\\data` (Windows), else `$XDG_DATA_HOME/goose` or `~/.local/share/goose` (Linux, macOS); also the legacy `~/.goose/sessions`; `DEJA_GOOSE_ROOT` redirects",
    extracts:
      'user/assistant text, shell tool requests (`toolRequest`, and `frontendToolRequest` for the tools the desktop app runs itself) as commands (exit code when the output writes one, else 0 unless the tool failed), text-editor/read/write/edit requests as files and edits (`old_str`), tool responses as tool-output with the error flag (the text meant for the model, `audience` assistant, once: the tools Goose ships also write a copy or short summary for the person, read only when nothing else is written), the compaction summary (the message only the model sees that the continuation note Goose writes — `The previous message contains a summary…`, `Your context was compacted…`, `…is a structured summary…` — names) as `summary`, sub-agent sessions (`sub_agent`, `parent_session_id`) as children, forks (a session starting with another session\'s message ids) with only their own turns; title from the description or a user-set name, and for an ACP (goose2) session of schemas 10–11, whose own name is the placeholder "ACP Session", the name and folder of the `threads` row its `thread_id` names',
    omits:
      "thinking and redacted-thinking parts, images, tool confirmations (`toolConfirmationRequest`, `actionRequired`: the request they ask about is read) and system notifications, text marked `userVisible: false` or annotated for the model alone (what only the model saw: injected context, the continuation note), the last prompt Goose sends again after a compaction (the person typed it once), `hidden` sessions, the `thread_messages` table of schemas 10–11 (copies of the ACP session's own messages), token/cost/provider columns",
    verified:
      "real sample: a goose sessions.db at schema version 5 (one session, no messages: nothing to index); message shapes, forks and sub-agent columns from goose's schema (crates/goose/src/session/migrations.rs, migrations to v13; the repository is now aaif-goose/goose), the ACP threads layer from goose-acp's server and aaif-goose/goose#9078 (which dropped it), fixtures/goose and fixtures/goose-acp; the `frontendToolRequest`/`toolConfirmationRequest`/`actionRequired` part shapes from `MessageContent` in crates/goose/src/conversation/message.rs, the audience-annotated tool results, the compaction summary and its continuation notes (three wordings) from crates/goose/src/context_mgmt/mod.rs and the developer tools (schema 17), in src/sources/goose_test.ts",
  },
};
