/**
 * Cursor: the IDE's chats in the VS Code-style `state.vscdb` stores (global
 * and per workspace) — composer data and bubbles in `cursorDiskKV`, older
 * composers and chat tabs in `ItemTable` — and the `cursor-agent` CLI's
 * JSONL transcripts under `~/.cursor/projects/<encoded>/agent-transcripts/`.
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
  Locator,
  RecordFlags,
  Session,
  SessionRecord,
} from "../core/types.ts";
import { SessionBuilder } from "./_builder.ts";
import { baseName, dirName } from "./_paths.ts";
import { macAppSupport, roamingAppData } from "./_roots.ts";
import {
  closeStore,
  col,
  openStore,
  readStore,
  rows,
  type Store,
  textColumn,
  unknownSchema,
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
import { editBody, exitCodeIn } from "./_work_records.ts";

const HARNESS_ID = "cursor";
const NAME = "Cursor";

/** ItemTable keys of the pre-cursorDiskKV chat stores. */
const LEGACY_COMPOSERS = "composer.composerData";
const LEGACY_CHAT = "workbench.panel.aichat.view.aichat.chatdata";

/** The IDE's `User` directories, per OS. */
function ideRoots(source: SourceEnv): string[] {
  const env = source.env;
  if (env.DEJA_CURSOR_ROOT) return [env.DEJA_CURSOR_ROOT];
  if (source.os === "darwin") {
    return [join(macAppSupport(source), "Cursor", "User")];
  }
  if (source.os === "windows") {
    return [join(roamingAppData(source), "Cursor", "User")];
  }
  const fallback = join(source.home, ".config", "Cursor", "User");
  const xdg = env.XDG_CONFIG_HOME
    ? join(env.XDG_CONFIG_HOME, "Cursor", "User")
    : undefined;
  return xdg && xdg !== fallback ? [xdg, fallback] : [fallback];
}

/** The CLI's config directory. */
function cliRoot(source: SourceEnv): string {
  const env = source.env;
  return env.DEJA_CURSOR_CLI_ROOT || env.CURSOR_CONFIG_DIR ||
    join(source.home, ".cursor");
}

function cursorRoots(source: SourceEnv): string[] {
  return [...ideRoots(source), cliRoot(source)];
}

function isStateDb(path: string): boolean {
  return baseName(path) === "state.vscdb";
}

function isTranscript(path: string): boolean {
  return path.endsWith(".jsonl") && /[\\/]agent-transcripts[\\/]/.test(path);
}

function discoverCursor(source: SourceEnv): Promise<string[]> {
  const found: string[] = [];
  for (const root of ideRoots(source)) {
    found.push(
      ...walkFiles(join(root, "globalStorage"), isStateDb, { maxDepth: 0 }),
      ...walkFiles(join(root, "workspaceStorage"), isStateDb, {
        maxDepth: 1,
      }),
    );
  }
  found.push(
    ...walkFiles(join(cliRoot(source), "projects"), isTranscript, {
      maxDepth: 5,
    }),
  );
  return Promise.resolve(found);
}

/** Options for the Cursor parsers. */
export type CursorParseOptions = ParseOptions;

/** The local path of a `file://` URI (Windows drive paths without the lead slash). */
function uriPath(uri: string | undefined): string | undefined {
  if (!uri) return undefined;
  try {
    const url = new URL(uri);
    if (url.protocol !== "file:") return undefined;
    const path = decodeURIComponent(url.pathname);
    return /^\/[A-Za-z]:\//.test(path) ? path.slice(1) : path;
  } catch {
    return undefined;
  }
}

/** The folder a workspace store belongs to, from `workspace.json` beside it. */
function workspaceFolder(dbPath: string): string | undefined {
  let doc: Json;
  try {
    doc = objectOf(
      Deno.readTextFileSync(join(dirName(dbPath), "workspace.json")),
    );
  } catch {
    return undefined;
  }
  return uriPath(str(doc.folder) ?? str(doc.workspace));
}

/**
 * Since late 2024 the composers live in the global store while each
 * workspace store keeps only their headers (`composer.composerData`
 * `allComposers[].composerId`): this maps composer id → workspace folder
 * from every workspace store beside a global one.
 */
function composerFolders(globalDb: string): Map<string, string> {
  const folders = new Map<string, string>();
  const storage = dirName(dirName(globalDb));
  if (baseName(dirName(globalDb)) !== "globalStorage") return folders;
  for (
    const db of walkFiles(join(storage, "workspaceStorage"), isStateDb, {
      maxDepth: 1,
    })
  ) {
    const folder = workspaceFolder(db);
    if (!folder) continue;
    let store: Store | undefined;
    try {
      store = openStore(db, NAME);
      if (!store.tables.has("ItemTable")) continue;
      const data = obj(parseJson(itemValue(store, LEGACY_COMPOSERS)));
      for (const header of list(data.allComposers)) {
        const id = str(obj(header).composerId);
        if (id && !folders.has(id)) folders.set(id, folder);
      }
    } catch {
      // A locked or damaged workspace store only costs its composers' project.
    } finally {
      if (store) closeStore(store);
    }
  }
  return folders;
}

/** An epoch time in ms; Cursor's `clientStartTime` is a monotonic clock and is not one. */
function epochMs(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value >= 1e12
    ? value
    : undefined;
}

/** Paths a Cursor tool call names, by the keys its versions have used. */
function toolPath(args: Json): string | undefined {
  return str(args.relativeWorkspacePath) ?? str(args.targetFile) ??
    str(args.target_file) ??
    str(args.file_path) ?? str(args.filePath) ?? str(args.path);
}

/** Builds one IDE conversation (composer or chat tab). */
class Conversation {
  readonly builder: SessionBuilder;
  #path: string;
  #id: string;
  #cwdSet: boolean;

  constructor(path: string, id: string, cwd: string | undefined) {
    this.#path = path;
    this.#id = id;
    this.builder = new SessionBuilder({
      harness: HARNESS_ID,
      id,
      path,
      cwd,
      project: cwd ? undefined : "",
    });
    this.#cwdSet = cwd !== undefined;
  }

  #opts(recordId: string, time: number | undefined, extra: {
    tool?: string | undefined;
    isError?: boolean;
    truncated?: boolean;
  } = {}) {
    const flags: RecordFlags = {};
    if (extra.isError) flags.isError = true;
    if (extra.truncated) flags.truncated = true;
    return {
      locator: {
        path: this.#path,
        recordId: `${this.#id}:${recordId}`,
      } satisfies Locator,
      time,
      ...(extra.tool ? { tool: extra.tool } : {}),
      ...(Object.keys(flags).length > 0 ? { flags } : {}),
    };
  }

  /** One bubble: `type` 1/"user" is the person, anything else the model. */
  bubble(bubble: Json, index: number, fallbackTime?: number): void {
    const id = str(bubble.bubbleId) ?? str(bubble.id) ?? String(index);
    const timing = obj(bubble.timingInfo);
    const time = parseTime(bubble.createdAt) ??
      epochMs(timing.clientRpcSendTime) ??
      epochMs(timing.clientStartTime) ??
      epochMs(timing.clientEndTime) ??
      fallbackTime;
    if (!this.#cwdSet) {
      const dir = str(bubble.workspaceProjectDir) ??
        uriPath(str(list(bubble.workspaceUris)[0]));
      if (dir) {
        this.builder.setCwd(dir);
        this.#cwdSet = true;
      }
    }
    const user = bubble.type === 1 || bubble.type === "user";
    const text = str(bubble.text) ?? str(bubble.rawText) ?? "";
    this.builder.add(
      user ? "user" : "assistant",
      cleanSpeech(text),
      this.#opts(id, time),
    );
    if (!user && isObject(bubble.toolFormerData)) {
      this.#tool(bubble.toolFormerData, id, time);
    }
  }

  #tool(data: Json, id: string, time: number | undefined): void {
    const name = str(data.name);
    if (!name) return;
    const args = { ...objectOf(data.params), ...objectOf(data.rawArgs) };
    const result = objectOf(data.result);
    let command: SessionRecord | undefined;
    if (/terminal/.test(name)) {
      const cmd = str(args.command);
      if (cmd) {
        command = this.builder.add(
          "command",
          cmd,
          this.#opts(id, time, { tool: name }),
        );
      }
    } else if (/file|replace|write|patch|edit/.test(name)) {
      const path = toolPath(args);
      if (path) {
        this.builder.add("files", path, this.#opts(id, time, { tool: name }));
        const old = str(args.old_string) ?? str(args.oldString);
        if (old) {
          const body = editBody(path, old);
          this.builder.add(
            "edit",
            body.text,
            this.#opts(id, time, { tool: name, truncated: body.truncated }),
          );
        }
      }
    }
    const output = str(result.output) ?? str(result.contents) ?? "";
    const isError = data.status === "error" ||
      (str(result.error) !== undefined);
    if (command) {
      const code = finite(result.exitCode) ?? finite(result.exitCodeV2) ??
        exitCodeIn(output);
      if (code !== undefined) command.exitCode = code;
    }
    if (command || output || isError) {
      this.builder.add(
        "tool-output",
        output || str(result.error) || "",
        this.#opts(id, time, { tool: name, isError }),
      );
    }
  }
}

function kvValue(store: Store, key: string): string | undefined {
  for (
    const row of rows(
      store,
      `SELECT ${col("value")} FROM cursorDiskKV WHERE key = ?`,
      key,
    )
  ) {
    return textColumn(row.value);
  }
  return undefined;
}

function itemValue(store: Store, key: string): string | undefined {
  for (
    const row of rows(
      store,
      `SELECT ${col("value")} FROM ItemTable WHERE key = ?`,
      key,
    )
  ) {
    return textColumn(row.value);
  }
  return undefined;
}

/** The bubbles of a composer stored in `cursorDiskKV`, in conversation order. */
function* diskBubbles(
  store: Store,
  composer: Json,
  id: string,
): Generator<Json> {
  const inline = list(composer.conversation);
  if (inline.length > 0) {
    for (const b of inline) if (isObject(b)) yield b;
    return;
  }
  const headers = list(composer.fullConversationHeadersOnly);
  if (headers.length > 0) {
    for (const header of headers) {
      const bubbleId = str(obj(header).bubbleId);
      if (!bubbleId) continue;
      const value = objectOf(kvValue(store, `bubbleId:${id}:${bubbleId}`));
      if (Object.keys(value).length > 0) yield { bubbleId, ...value };
    }
    return;
  }
  const prefix = `bubbleId:${id}:`;
  for (
    const row of rows(
      store,
      `SELECT ${col("key")}, ${
        col("value")
      } FROM cursorDiskKV WHERE key >= ? AND key < ? ORDER BY rowid`,
      prefix,
      `bubbleId:${id};`,
    )
  ) {
    const value = objectOf(textColumn(row.value));
    const key = textColumn(row.key) ?? "";
    if (Object.keys(value).length > 0) {
      yield { bubbleId: key.slice(prefix.length), ...value };
    }
  }
}

function composerSession(
  path: string,
  composer: Json,
  id: string,
  cwd: string | undefined,
  bubbles: Iterable<Json>,
): Session {
  const conversation = new Conversation(path, id, cwd);
  const created = parseTime(composer.createdAt);
  conversation.builder.touch(created);
  conversation.builder.touch(parseTime(composer.lastUpdatedAt));
  let index = 0;
  for (const bubble of bubbles) conversation.bubble(bubble, index++);
  const name = str(composer.name);
  if (name) conversation.builder.setTitle(name);
  return conversation.builder.build();
}

/**
 * Parses a Cursor `state.vscdb`: composers (`composerData:<id>` with their
 * `bubbleId:<id>:<bubble>` rows, or an inline `conversation`) from
 * `cursorDiskKV`, and from `ItemTable` the older `composer.composerData`
 * list and the chat-panel tabs. Bubble type 1 is the person, 2 the model;
 * a bubble's `toolFormerData` gives commands, files, edits and output when
 * it carries them. A store without either table throws SRC-E002; a store
 * with no chats gives no sessions.
 *
 * @param path The `state.vscdb` file.
 * @param _options Parse options.
 * @returns The conversations held by the store.
 * @example
 * ```ts
 * import { parseCursorStateDb } from "./cursor.ts";
 * import { rejects } from "node:assert/strict";
 * const path = await Deno.makeTempFile({ suffix: ".vscdb" });
 * const source = { home: "/h", env: {}, os: "linux" };
 * await rejects(parseCursorStateDb(path, { includeSubagents: true, source }), /missing table "ItemTable"/);
 * ```
 */
export function parseCursorStateDb(
  path: string,
  _options: CursorParseOptions,
): Promise<ParseResult> {
  return readStore(path, NAME, (store) => {
    const hasKv = store.tables.has("cursorDiskKV");
    const hasItems = store.tables.has("ItemTable");
    if (!hasKv && !hasItems) throw unknownSchema(store, 'table "ItemTable"');
    const cwd = workspaceFolder(path);
    const folders = hasKv ? composerFolders(path) : new Map<string, string>();
    const sessions: Session[] = [];
    const seen = new Set<string>();
    let skipped = 0;
    if (hasKv) {
      for (
        const row of rows(
          store,
          `SELECT ${col("key")}, ${
            col("value")
          } FROM cursorDiskKV WHERE key >= 'composerData:' AND key < 'composerData;' ORDER BY rowid`,
        )
      ) {
        const key = textColumn(row.key) ?? "";
        const composer = objectOf(textColumn(row.value));
        if (Object.keys(composer).length === 0) {
          skipped++;
          continue;
        }
        const id = str(composer.composerId) ??
          key.slice("composerData:".length);
        seen.add(id);
        sessions.push(
          composerSession(
            path,
            composer,
            id,
            folders.get(id) ?? cwd,
            diskBubbles(store, composer, id),
          ),
        );
      }
    }
    if (hasItems) {
      const legacy = parseJson(itemValue(store, LEGACY_COMPOSERS));
      for (const composer of list(obj(legacy).allComposers)) {
        if (!isObject(composer)) {
          skipped++;
          continue;
        }
        const id = str(composer.composerId);
        if (!id || seen.has(id)) continue;
        seen.add(id);
        const bubbles = list(composer.conversation).filter(isObject);
        sessions.push(composerSession(path, composer, id, cwd, bubbles));
      }
      const chat = parseJson(itemValue(store, LEGACY_CHAT));
      for (const tab of list(obj(chat).tabs)) {
        if (!isObject(tab)) {
          skipped++;
          continue;
        }
        const id = str(tab.tabId);
        if (!id || seen.has(id)) continue;
        seen.add(id);
        const conversation = new Conversation(path, id, cwd);
        conversation.builder.touch(parseTime(tab.lastSendTime));
        list(tab.bubbles).forEach((b, i) => {
          if (isObject(b)) conversation.bubble(b, i);
          else skipped++;
        });
        const title = str(tab.chatTitle);
        if (title) conversation.builder.setTitle(title);
        sessions.push(conversation.builder.build());
      }
    }
    return {
      sessions: sessions.filter((s) => s.records.length > 0),
      skipped,
    };
  });
}

/** `<enc>/agent-transcripts/[<sid>/]<sid>.jsonl`, sub-agents under `<sid>/subagents/`. */
function transcriptIdentity(
  path: string,
): { id: string; parent?: string; encoded?: string } {
  const parts = path.split(/[\\/]+/);
  const id = (parts.at(-1) ?? "").replace(/\.jsonl$/, "");
  const at = parts.lastIndexOf("agent-transcripts");
  const encoded = at > 0 ? parts[at - 1] : undefined;
  const identity: { id: string; parent?: string; encoded?: string } = { id };
  if (encoded) identity.encoded = encoded;
  if (parts.at(-2) === "subagents") {
    const parent = parts.at(-3);
    if (parent && parent !== "agent-transcripts") identity.parent = parent;
  }
  return identity;
}

/**
 * Parses one `cursor-agent` transcript: `{role, message: {content}}` lines,
 * text blocks as speech (`<user_query>` unwrapped, `<timestamp>` dropped),
 * `Shell` calls as commands, `Read`/`Write`/`StrReplace`/`Delete` paths as
 * files and `StrReplace` `old_string` as edits. The CLI writes no times and
 * no tool results here, so every record carries the file's mtime.
 * Transcripts under `subagents/` are sub-agent sessions of their parent.
 *
 * @param path The transcript.
 * @param options Sub-agent switch.
 * @returns The session (none when nothing was said).
 * @example
 * ```ts
 * import { parseCursorTranscript } from "./cursor.ts";
 * import { equal } from "node:assert/strict";
 * const dir = await Deno.makeTempDir();
 * const path = `${dir}/home-a-api/agent-transcripts/c1.jsonl`;
 * await Deno.mkdir(`${dir}/home-a-api/agent-transcripts`, { recursive: true });
 * await Deno.writeTextFile(path, JSON.stringify({ role: "user", message: { content: [{ type: "text", text: "<user_query>add tests</user_query>" }] } }) + "\n");
 * const { sessions } = await parseCursorTranscript(path, { includeSubagents: true, source: { home: dir, env: {}, os: "linux" } });
 * equal(sessions[0]?.records[0]?.text, "add tests");
 * ```
 */
export async function parseCursorTranscript(
  path: string,
  options: CursorParseOptions,
): Promise<ParseResult> {
  const identity = transcriptIdentity(path);
  if (identity.parent && !options.includeSubagents) {
    return { sessions: [], skipped: 0 };
  }
  let mtime: number | undefined;
  try {
    mtime = (await Deno.stat(path)).mtime?.getTime();
  } catch {
    mtime = undefined;
  }
  const encoded = identity.encoded ?? "";
  const builder = new SessionBuilder({
    harness: HARNESS_ID,
    id: identity.id,
    path,
    // `-` stands for both `/` and a literal hyphen: only the last part is sure.
    project: encoded.split("-").filter((p) => p.length > 0).at(-1) ?? "",
    parent: identity.parent,
    lineage: identity.parent ? "subagent" : undefined,
  });
  const flags: RecordFlags | undefined = identity.parent
    ? { subagent: true }
    : undefined;
  const opts = (locator: Locator, tool?: string) => ({
    locator,
    time: mtime,
    ...(tool ? { tool } : {}),
    ...(flags ? { flags } : {}),
  });
  let skipped = 0;
  for await (const line of readLines(path, { onOversized: () => skipped++ })) {
    if (!line.complete) break;
    if (line.text.trim().length === 0) continue;
    const value = parseJson(line.text);
    if (!isObject(value)) {
      skipped++;
      continue;
    }
    const role = value.role;
    // Lines without a role are turn markers (`{"type":"turn_ended"}`).
    if (role !== "user" && role !== "assistant") continue;
    const locator: Locator = { path, line: line.number, offset: line.offset };
    const content = obj(value.message).content;
    const blocks = typeof content === "string"
      ? [{ type: "text", text: content }]
      : list(content);
    let texts: string[] = [];
    const flush = () => {
      if (texts.length > 0) {
        builder.add(role, cleanSpeech(texts.join("\n\n")), opts(locator));
      }
      texts = [];
    };
    for (const block of blocks) {
      if (!isObject(block)) continue;
      if (block.type === "text" && typeof block.text === "string") {
        texts.push(block.text);
      } else if (block.type === "tool_use") {
        flush();
        const name = str(block.name);
        const input = objectOf(block.input);
        if (name === "Shell") {
          const command = str(input.command);
          if (command) builder.add("command", command, opts(locator, name));
        } else if (
          name && ["Read", "Write", "StrReplace", "Delete"].includes(name)
        ) {
          const file = str(input.path) ?? str(input.file_path);
          if (!file) continue;
          builder.add("files", file, opts(locator, name));
          const old = name === "StrReplace" ? str(input.old_string) : undefined;
          if (old) {
            builder.addEdit(file, old, opts(locator, name));
          }
        }
      }
    }
    flush();
  }
  const session = builder.build();
  return { sessions: session.records.length > 0 ? [session] : [], skipped };
}

const stateKind: FileKind = {
  id: "state-db",
  appendOnly: false,
  match: isStateDb,
  parse: (path, options) => parseCursorStateDb(path, options),
};

const transcriptKind: FileKind = {
  id: "agent-transcript",
  appendOnly: false,
  match: isTranscript,
  parse: (path, options) => parseCursorTranscript(path, options),
};

/**
 * The Cursor harness: IDE `state.vscdb` stores (global and per workspace)
 * and `cursor-agent` transcripts.
 *
 * @example
 * ```ts
 * import { cursor } from "./cursor.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(cursor.roots({ home: "/h", env: {}, os: "linux" }), ["/h/.config/Cursor/User", "/h/.cursor"]);
 * ```
 */
export const cursor: Harness = {
  id: HARNESS_ID,
  name: NAME,
  format:
    "SQLite state.vscdb (cursorDiskKV composer/bubble JSON, ItemTable chat data); CLI agent-transcripts JSONL",
  envOverrides: [
    "DEJA_CURSOR_ROOT",
    "XDG_CONFIG_HOME",
    "APPDATA",
    "CURSOR_CONFIG_DIR",
    "DEJA_CURSOR_CLI_ROOT",
  ],
  // 2: global composers get their workspace's project; clientStartTime is not a time.
  revision: 2,
  roots: cursorRoots,
  discover: discoverCursor,
  kinds: [stateKind, transcriptKind],
  docs: {
    store:
      "IDE: `globalStorage/state.vscdb` and `workspaceStorage/<hash>/state.vscdb` under `~/Library/Application Support/Cursor/User` (macOS), `%APPDATA%\\Cursor\\User` (Windows), `$XDG_CONFIG_HOME/Cursor/User` or `~/.config/Cursor/User` (Linux), `DEJA_CURSOR_ROOT` redirects; CLI: `${CURSOR_CONFIG_DIR:-~/.cursor}/projects/<encoded-path>/agent-transcripts/**/*.jsonl` (`DEJA_CURSOR_CLI_ROOT` redirects)",
    extracts:
      "IDE: composers (`composerData:<id>` + `bubbleId:<id>:<bubble>` in cursorDiskKV, or an inline `conversation`), the older `composer.composerData` list and chat-panel tabs in ItemTable; user/assistant bubble text, titles, bubble times when written, project from the workspace's `workspace.json` (for a global composer, the workspace store whose `composer.composerData` lists it) or a bubble's `workspaceUris`/`workspaceProjectDir`; bubble times from `createdAt` or the epoch `timingInfo` fields (`clientStartTime` is a monotonic clock); commands, files, edits (`old_string`) and output from a bubble's `toolFormerData` when present. CLI: user/assistant text, Shell commands, Read/Write/StrReplace/Delete files, StrReplace edits, sub-agent transcripts with their parent",
    omits:
      "rich-text and code-block duplicates of the text, thinking, context attachments, the prompt history (`aiService.prompts`, a copy of the user bubbles); the CLI writes neither times (records carry the file's mtime) nor tool results, and its `store.db` chats are not read; exit codes only when a tool result writes one",
    verified:
      "real sample: a workspace state.vscdb from Cursor of November 2024 (26 composers with inline conversations, 5 chat-panel tabs, no cursorDiskKV); the cursorDiskKV bubble layout, `toolFormerData` and the CLI transcript shape from the documented format only (fixtures/cursor)",
  },
};
