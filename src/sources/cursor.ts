/**
 * Cursor: the IDE's chats in the VS Code-style `state.vscdb` stores (global
 * and per workspace) — composer data and bubbles in `cursorDiskKV`, older
 * composers and chat tabs in `ItemTable` — and the `cursor-agent` CLI's
 * chat stores (`~/.cursor/chats/<md5 of cwd>/<id>/store.db`, content-addressed
 * blobs) and its transcripts under
 * `~/.cursor/projects/<encoded>/agent-transcripts/` (JSONL, and plain text in
 * older builds).
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
import { cleanSpeech, MAX_OUTPUT_CHARS } from "../core/text.ts";
import { parseTime } from "../core/time.ts";
import type {
  Locator,
  RecordFlags,
  Session,
  SessionRecord,
} from "../core/types.ts";
import { type AddRecordOptions, SessionBuilder } from "./_builder.ts";
import { baseName, dirName, isRegularFileSync } from "./_paths.ts";
import { pathOfFileUri } from "../core/paths.ts";
import { macAppSupport, roamingAppData } from "./_roots.ts";
import {
  closeStore,
  col,
  columnsOf,
  numberColumn,
  openStore,
  readStore,
  requireTables,
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
import { readFileEdges } from "./_saved_output.ts";
import { exitCodeIn, removedLines } from "./_work_records.ts";

const HARNESS_ID = "cursor";
const NAME = "Cursor";

/** ItemTable keys of the pre-cursorDiskKV chat stores. */
const LEGACY_COMPOSERS = "composer.composerData";
const LEGACY_CHAT = "workbench.panel.aichat.view.aichat.chatdata";
/** The global ItemTable key of Cursor 3.0+'s composer list. */
const COMPOSER_HEADERS = "composer.composerHeaders";
/** The prefix of the rows `edit_file_v2` results point at. */
const CONTENT_KEY = "composer.content.";

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

const IN_TRANSCRIPTS = /[\\/]agent-transcripts[\\/]/;

function isTranscript(path: string): boolean {
  return path.endsWith(".jsonl") && IN_TRANSCRIPTS.test(path);
}

/** The older CLI's plain-text transcripts (`<id>.txt`). */
function isTextTranscript(path: string): boolean {
  return path.endsWith(".txt") && IN_TRANSCRIPTS.test(path);
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
    ...walkFiles(join(cliRoot(source), "chats"), isChatStore, { maxDepth: 2 }),
    ...walkFiles(join(cliRoot(source), "acp-sessions"), isChatStore, {
      maxDepth: 1,
    }),
    ...walkFiles(
      join(cliRoot(source), "projects"),
      (path) => isTranscript(path) || isTextTranscript(path),
      { maxDepth: 5 },
    ),
  );
  return Promise.resolve(found);
}

/** Options for the Cursor parsers. */
export type CursorParseOptions = ParseOptions;

/** The folder a workspace storage directory belongs to, from its `workspace.json`. */
function workspaceFolder(dir: string): string | undefined {
  let doc: Json;
  try {
    doc = objectOf(Deno.readTextFileSync(join(dir, "workspace.json")));
  } catch {
    return undefined;
  }
  return pathOfFileUri(str(doc.folder) ?? str(doc.workspace));
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
    const folder = workspaceFolder(dirName(db));
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

/** What Cursor 3.0+'s composer headers say about one composer. */
interface ComposerLink {
  /** The folder of the workspace it ran in. */
  folder?: string | undefined;
  /** The composer that started it, for a sub-agent. */
  parent?: string | undefined;
}

/** A workspace storage id names a folder beside the others, nothing more. */
const WORKSPACE_ID = /^[A-Za-z0-9_-]+$/;

/**
 * Since Cursor 3.0 the global store keeps each composer's workspace and,
 * for a sub-agent, its parent: `ItemTable['composer.composerHeaders']
 * .allComposers[]` (`workspaceIdentifier {id, uri}`,
 * `subagentInfo.parentComposerId`) and, in 2026 builds, a `composerHeaders`
 * table (`workspaceId`, and the same header as JSON in `value`). This maps
 * composer id → what they say. A workspace named only by its id is looked up
 * in the `workspaceStorage/<id>/workspace.json` beside the global store.
 */
function composerLinks(
  store: Store,
  dbPath: string,
): Map<string, ComposerLink> {
  const links = new Map<string, ComposerLink>();
  const user = baseName(dirName(dbPath)) === "globalStorage"
    ? dirName(dirName(dbPath))
    : undefined;
  const folderOf = (identifier: unknown, workspaceId: string | undefined) => {
    const ident = obj(identifier);
    const uri = ident.uri;
    const path = typeof uri === "string"
      ? pathOfFileUri(uri)
      : str(obj(uri).fsPath) ?? str(obj(uri).path) ??
        pathOfFileUri(str(obj(uri).external));
    if (path) return path;
    const id = str(ident.id) ?? workspaceId;
    return user && id && WORKSPACE_ID.test(id)
      ? workspaceFolder(join(user, "workspaceStorage", id))
      : undefined;
  };
  const add = (header: Json, workspaceId?: string) => {
    const id = str(header.composerId);
    if (!id) return;
    const link = links.get(id) ?? {};
    link.folder ??= folderOf(header.workspaceIdentifier, workspaceId);
    link.parent ??= str(obj(header.subagentInfo).parentComposerId);
    links.set(id, link);
  };
  if (store.tables.has("ItemTable")) {
    const headers = obj(parseJson(itemValue(store, COMPOSER_HEADERS)));
    for (const header of list(headers.allComposers)) {
      if (isObject(header)) add(header);
    }
  }
  if (store.tables.has("composerHeaders")) {
    const columns = columnsOf(store, "composerHeaders");
    if (columns.has("composerId")) {
      const workspace = columns.has("workspaceId") ? "workspaceId" : "NULL";
      const value = columns.has("value") ? "value" : "NULL";
      for (
        const row of rows(
          store,
          `SELECT ${col("composerId", "id")}, ${col(workspace, "ws")}, ${
            col(value, "value")
          } FROM composerHeaders`,
        )
      ) {
        const header = objectOf(textColumn(row.value));
        add(
          { ...header, composerId: textColumn(row.id) ?? header.composerId },
          textColumn(row.ws),
        );
      }
    }
  }
  return links;
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

/** Text read up to a cap, and whether the cap cut it. */
interface BoundedText {
  text: string;
  cut: boolean;
}

/** How an IDE conversation sits among the others. */
interface ConversationInit {
  /** The workspace folder, when known. */
  cwd?: string | undefined;
  /** The composer that started it, for a sub-agent. */
  parent?: string | undefined;
  /** Reads a `composer.content.<sha256>` row (a store's composers only). */
  content?: ((key: string) => BoundedText | undefined) | undefined;
}

/** Cursor names an MCP server's tool `mcp_<server>_<tool>`. */
const MCP_TOOL = /^mcp[_-]/;

/** An MCP tool call as a command: the tool and its arguments. */
function mcpCall(name: string, args: Json): string {
  return Object.keys(args).length > 0
    ? `${name} ${JSON.stringify(args)}`
    : name;
}

/** The text of an MCP tool's result: `result`, else its content blocks, else the whole. */
function mcpOutput(result: Json): string {
  const inner = str(result.result);
  if (inner) return inner;
  const blocks = list(result.content).map((b) => {
    const block = obj(b);
    return str(block.text) ?? str(obj(block.text).text) ?? "";
  }).filter((t) => t.length > 0);
  if (blocks.length > 0) return blocks.join("\n");
  return Object.keys(result).length > 0 ? JSON.stringify(result) : "";
}

/** The path of a context selection's `uri`: a VS Code URI object or a URI string. */
function selectionPath(uri: unknown): string | undefined {
  return isObject(uri)
    ? str(uri.fsPath) ?? pathOfFileUri(str(uri.external)) ?? str(uri.path)
    : pathOfFileUri(str(uri)) ?? str(uri);
}

/** Builds one IDE conversation (composer or chat tab). */
class Conversation {
  readonly builder: SessionBuilder;
  #path: string;
  #id: string;
  #cwdSet: boolean;
  #subagent: boolean;
  #content: ConversationInit["content"];
  /** The files code blocks were written for so far (each kept once). */
  #codeFiles = new Set<string>();

  constructor(path: string, id: string, init: ConversationInit = {}) {
    this.#path = path;
    this.#id = id;
    this.builder = new SessionBuilder({
      harness: HARNESS_ID,
      id,
      path,
      cwd: init.cwd,
      project: init.cwd ? undefined : "",
      parent: init.parent,
      lineage: init.parent ? "subagent" : undefined,
    });
    this.#cwdSet = init.cwd !== undefined;
    this.#subagent = init.parent !== undefined;
    this.#content = init.content;
  }

  #opts(recordId: string, time: number | undefined, extra: {
    tool?: string | undefined;
    isError?: boolean;
    truncated?: boolean;
  } = {}) {
    const flags: RecordFlags = {};
    if (this.#subagent) flags.subagent = true;
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
        pathOfFileUri(str(list(bubble.workspaceUris)[0]));
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
    if (user) this.#attached(bubble, id, time);
    else this.#codeBlocks(list(bubble.codeBlocks), id, time);
    if (!user && isObject(bubble.toolFormerData)) {
      this.#tool(bubble.toolFormerData, id, time);
    }
  }

  /**
   * The files and folders the person attached to a prompt: the user
   * bubble's `context.fileSelections` (`@`-mentioned files or the current
   * file chip) and `context.selections` (code selections), each carrying a
   * `uri`, a VS Code URI `{fsPath, path, external, scheme}` or a URI string;
   * and `context.folderSelections`, each a workspace-relative `relativePath`
   * (what Cursor's selected-context service reads back). A chat-panel
   * bubble keeps the same lists on the bubble itself.
   */
  #attached(bubble: Json, id: string, time: number | undefined): void {
    const seen = new Set<string>();
    const selections = [bubble, obj(bubble.context)].flatMap((at) => [
      ...list(at.fileSelections),
      ...list(at.folderSelections),
      ...list(at.selections),
    ]);
    for (const selection of selections) {
      const path = isObject(selection)
        ? selectionPath(selection.uri) ?? str(selection.relativePath)
        : undefined;
      if (!path || seen.has(path)) continue;
      seen.add(path);
      this.builder.add(
        "files",
        path,
        this.#opts(id, time, { tool: "mention" }),
      );
    }
  }

  /**
   * The files a reply's code blocks were written for (`codeBlocks[].uri`,
   * Cursor's inline conversations of 2024), each once a conversation.
   */
  #codeBlocks(
    blocks: readonly unknown[],
    id: string,
    time: number | undefined,
  ): void {
    for (const block of blocks) {
      const path = isObject(block) ? selectionPath(block.uri) : undefined;
      if (path) this.codeFile(path, id, time);
    }
  }

  /**
   * A file code was written for, unless already kept: `c:\a` and the
   * `file:///c%3A/a` it is keyed by elsewhere count as one.
   */
  codeFile(path: string, id: string, time: number | undefined): void {
    const key = path.replaceAll("\\", "/").replace(
      /^[A-Z]:/,
      (drive) => drive.toLowerCase(),
    );
    if (this.#codeFiles.has(key)) return;
    this.#codeFiles.add(key);
    this.builder.add(
      "files",
      path,
      this.#opts(id, time, { tool: "codeblock" }),
    );
  }

  #tool(data: Json, id: string, time: number | undefined): void {
    const name = str(data.name);
    if (!name) return;
    const args = { ...objectOf(data.params), ...objectOf(data.rawArgs) };
    const result = objectOf(data.result);
    let command: SessionRecord | undefined;
    let output = str(result.output) ?? str(result.contents) ?? "";
    if (MCP_TOOL.test(name)) {
      command = this.builder.add(
        "command",
        mcpCall(name, objectOf(data.rawArgs)),
        this.#opts(id, time, { tool: name }),
      );
      output ||= mcpOutput(result);
    } else if (/terminal/.test(name)) {
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
        const removed = old
          ? { text: old, cut: false }
          : this.#replaced(result);
        if (removed?.text) {
          this.builder.addEdit(
            path,
            removed.text,
            this.#opts(id, time, { tool: name, truncated: removed.cut }),
          );
        }
      }
    }
    const code = command
      ? finite(result.exitCode) ?? finite(result.exitCodeV2) ??
        exitCodeIn(output)
      : undefined;
    if (command && code !== undefined) command.exitCode = code;
    // `status` can say "completed" for a run that failed: the exit code and
    // `additionalData.status` tell. A call the person rejected or stopped
    // never ran (or never finished): it failed too.
    const refused = result.rejected === true ||
      data.userDecision === "rejected";
    const stopped = data.status === "cancelled";
    const isError = data.status === "error" || refused || stopped ||
      obj(data.additionalData).status === "error" ||
      result.isError === true || str(result.error) !== undefined ||
      (code !== undefined && code !== 0);
    if (command || output || isError) {
      this.builder.add(
        "tool-output",
        output || str(result.error) ||
          (refused
            ? "(rejected by the user)"
            : stopped
            ? "(cancelled by the user)"
            : ""),
        this.#opts(id, time, { tool: name, isError }),
      );
    }
  }

  /**
   * What an `edit_file_v2` call replaced. Since April 2026 its result points
   * at `composer.content.<sha256>` rows (`beforeContentId`,
   * `afterContentId`) instead of carrying the text: the lines of the before
   * row the after row no longer has.
   */
  #replaced(result: Json): BoundedText | undefined {
    const before = str(result.beforeContentId);
    const after = str(result.afterContentId);
    if (!this.#content || !before || !after) return undefined;
    const old = this.#content(before);
    const now = old && this.#content(after);
    if (!old || !now) return undefined;
    return { text: removedLines(old.text, now.text), cut: old.cut || now.cut };
  }
}

/**
 * A `composer.content.<sha256>` row, its first {@linkcode MAX_OUTPUT_CHARS}
 * characters (bytes for a blob) only: a file's whole text before or after an
 * edit.
 */
function contentRow(store: Store, key: string): BoundedText | undefined {
  if (!key.startsWith(CONTENT_KEY)) return undefined;
  for (
    const row of rows(
      store,
      `SELECT substr(value, 1, ${MAX_OUTPUT_CHARS}) AS head, ${
        col("length(value)", "size")
      } FROM cursorDiskKV WHERE key = ?`,
      key,
    )
  ) {
    const text = textColumn(row.head);
    if (text === undefined) return undefined;
    return { text, cut: (numberColumn(row.size) ?? 0) > MAX_OUTPUT_CHARS };
  }
  return undefined;
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
  init: ConversationInit,
  bubbles: Iterable<Json>,
): Session {
  const conversation = new Conversation(path, id, init);
  const created = parseTime(composer.createdAt);
  conversation.builder.touch(created);
  conversation.builder.touch(parseTime(composer.lastUpdatedAt));
  let index = 0;
  for (const bubble of bubbles) conversation.bubble(bubble, index++);
  // The composer's own list of the files its code blocks were for, keyed by
  // URI: the ones no bubble named.
  for (const [uri, blocks] of Object.entries(obj(composer.codeBlockData))) {
    const path = selectionPath(obj(list(blocks)[0]).uri) ??
      pathOfFileUri(uri);
    if (path) conversation.codeFile(path, "codeBlockData", undefined);
  }
  const name = str(composer.name);
  if (name) conversation.builder.setTitle(name);
  return conversation.builder.build();
}

/**
 * A sub-agent composer whose own records name no workspace ran in its
 * parent's: it takes the project of the nearest ancestor that has one.
 */
function inheritProjects(sessions: Session[]): void {
  const byId = new Map(sessions.map((s) => [s.id, s]));
  for (const session of sessions) {
    if (session.cwd || !session.parent) continue;
    let ancestor = byId.get(session.parent);
    for (let hops = 0; ancestor && !ancestor.cwd && hops < 8; hops++) {
      ancestor = ancestor.parent ? byId.get(ancestor.parent) : undefined;
    }
    if (ancestor?.cwd) {
      session.cwd = ancestor.cwd;
      session.project = ancestor.project;
    }
  }
}

/**
 * Parses a Cursor `state.vscdb`: composers (`composerData:<id>` with their
 * `bubbleId:<id>:<bubble>` rows, or an inline `conversation`) from
 * `cursorDiskKV`, and from `ItemTable` the older `composer.composerData`
 * list and the chat-panel tabs. Bubble type 1 is the person, 2 the model;
 * a bubble's `toolFormerData` gives commands (MCP calls too), files, edits
 * (an `edit_file_v2` edit's from its `composer.content.<sha256>` rows) and
 * output when it carries them. A composer's project comes from Cursor 3.x's
 * composer headers, else the workspace store that lists it, else its
 * bubbles; a sub-agent composer (`subagentInfo.parentComposerId`) is a
 * sub-agent session of its parent, in the parent's project when it names
 * none. A store without either table throws SRC-E002; a store with no chats
 * gives no sessions.
 *
 * @param path The `state.vscdb` file.
 * @param options Sub-agent switch.
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
  options: CursorParseOptions,
): Promise<ParseResult> {
  return readStore(path, NAME, (store) => {
    const hasKv = store.tables.has("cursorDiskKV");
    const hasItems = store.tables.has("ItemTable");
    if (!hasKv && !hasItems) throw unknownSchema(store, 'table "ItemTable"');
    const cwd = workspaceFolder(dirName(path));
    const folders = hasKv ? composerFolders(path) : new Map<string, string>();
    const links = hasKv
      ? composerLinks(store, path)
      : new Map<string, ComposerLink>();
    const content = (key: string) => contentRow(store, key);
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
        const link = links.get(id);
        const parent = str(obj(composer.subagentInfo).parentComposerId) ??
          link?.parent;
        if (parent && !options.includeSubagents) continue;
        sessions.push(
          composerSession(
            path,
            composer,
            id,
            { cwd: link?.folder ?? folders.get(id) ?? cwd, parent, content },
            diskBubbles(store, composer, id),
          ),
        );
      }
      inheritProjects(sessions);
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
        sessions.push(composerSession(path, composer, id, { cwd }, bubbles));
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
        const conversation = new Conversation(path, id, { cwd });
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

/** Where a transcript sits: `<enc>/agent-transcripts/[<sid>/]<sid>.jsonl` (or `.txt`), sub-agents under `<sid>/subagents/`. */
interface TranscriptIdentity {
  id: string;
  parent?: string;
  encoded?: string;
  /** The `<enc>` directory. */
  projectDir?: string;
}

function transcriptIdentity(path: string): TranscriptIdentity {
  const parts = path.split(/[\\/]+/);
  const id = (parts.at(-1) ?? "").replace(/\.(jsonl|txt)$/, "");
  const at = parts.lastIndexOf("agent-transcripts");
  const encoded = at > 0 ? parts[at - 1] : undefined;
  const identity: TranscriptIdentity = { id };
  if (encoded) identity.encoded = encoded;
  const projectDir = /^(.*)[\\/]agent-transcripts[\\/]/.exec(path)?.[1];
  if (projectDir) identity.projectDir = projectDir;
  if (parts.at(-2) === "subagents") {
    const parent = parts.at(-3);
    if (parent && parent !== "agent-transcripts") identity.parent = parent;
  }
  return identity;
}

/** `.workspace-trusted` is a few fields of JSON; a larger file is not it. */
const MAX_TRUST_BYTES = 64 * 1024;

/**
 * The folder the CLI ran in, from `.workspace-trusted` in its project
 * directory (`{trustedAt, workspacePath, trustMethod}`): exact, where the
 * directory's name is not (each run of other characters than letters and
 * digits became one `-`, and a long name is cut short).
 */
function trustedWorkspace(projectDir: string): string | undefined {
  const read = readFileEdges(
    join(projectDir, ".workspace-trusted"),
    MAX_TRUST_BYTES,
  );
  if (!read || read.truncated) return undefined;
  return str(obj(parseJson(read.text)).workspacePath);
}

/**
 * Whether the IDE's global store holds this conversation (its composer and
 * at least one bubble). The IDE panel also writes
 * `agent-transcripts/<composerId>/<composerId>.jsonl` — mostly a
 * `turn_ended` stub, sometimes the whole body — and its store's copy, with
 * times, tool results, the title and the workspace, is the one kept. A
 * store that cannot be read holds nothing: the transcript is kept then.
 */
function ideHolds(id: string, source: SourceEnv): boolean {
  for (const root of ideRoots(source)) {
    const db = join(root, "globalStorage", "state.vscdb");
    if (!isRegularFileSync(db)) continue;
    let store: Store | undefined;
    try {
      store = openStore(db, NAME);
      if (!store.tables.has("cursorDiskKV")) continue;
      for (
        const _ of rows(
          store,
          `SELECT 1 AS hit FROM cursorDiskKV WHERE key = ? AND EXISTS (
             SELECT 1 FROM cursorDiskKV WHERE key >= ? AND key < ?)`,
          `composerData:${id}`,
          `bubbleId:${id}:`,
          `bubbleId:${id};`,
        )
      ) return true;
    } catch {
      // Locked or damaged: the transcript stands in for it.
    } finally {
      if (store) closeStore(store);
    }
  }
  return false;
}

/** The CLI's file tools, which name their file in `path` (or `file_path`). */
const FILE_TOOLS = new Set([
  "Read",
  "ReadFile",
  "Write",
  "StrReplace",
  "Delete",
]);

/**
 * The records of one CLI tool call: `Shell` as a command, an MCP tool
 * (`mcp_*`) as a command of its name and arguments, the file tools' paths as
 * files and `StrReplace`'s `old_string` as an edit. Returns the command
 * record.
 */
function cliTool(
  builder: SessionBuilder,
  name: string,
  input: Json,
  opts: () => AddRecordOptions,
): SessionRecord | undefined {
  if (name === "Shell") {
    const command = str(input.command);
    return command ? builder.add("command", command, opts()) : undefined;
  }
  if (MCP_TOOL.test(name)) {
    return builder.add("command", mcpCall(name, input), opts());
  }
  if (!FILE_TOOLS.has(name)) return undefined;
  const file = str(input.path) ?? str(input.file_path);
  if (!file) return undefined;
  builder.add("files", file, opts());
  const old = name === "StrReplace" ? str(input.old_string) : undefined;
  if (old) builder.addEdit(file, old, opts());
  return undefined;
}

/** One CLI transcript being read: its builder and what every record shares. */
class Transcript {
  readonly builder: SessionBuilder;
  #time: number | undefined;
  #subagent: boolean;

  constructor(
    path: string,
    identity: TranscriptIdentity,
    time: number | undefined,
  ) {
    const cwd = identity.projectDir
      ? trustedWorkspace(identity.projectDir)
      : undefined;
    this.builder = new SessionBuilder({
      harness: HARNESS_ID,
      id: identity.id,
      path,
      cwd,
      // Without `.workspace-trusted`, the directory name is all there is;
      // `-` stands for both `/` and a literal hyphen: only the last part is sure.
      project: cwd
        ? undefined
        : (identity.encoded ?? "").split("-").filter((p) => p.length > 0)
          .at(-1) ?? "",
      parent: identity.parent,
      lineage: identity.parent ? "subagent" : undefined,
    });
    this.#time = time;
    this.#subagent = identity.parent !== undefined;
  }

  #opts(locator: Locator, tool?: string, extra: RecordFlags = {}) {
    const flags: RecordFlags = { ...extra };
    if (this.#subagent) flags.subagent = true;
    return {
      locator,
      time: this.#time,
      ...(tool ? { tool } : {}),
      ...(Object.keys(flags).length > 0 ? { flags } : {}),
    };
  }

  /** What the person or the model said (`<user_query>` unwrapped). */
  say(
    role: "user" | "assistant",
    text: string,
    locator: Locator,
    cut = false,
  ): void {
    this.builder.add(
      role,
      cleanSpeech(text),
      this.#opts(locator, undefined, cut ? { truncated: true } : {}),
    );
  }

  /** A tool call, read as {@linkcode cliTool} reads it. */
  tool(name: string, input: Json, locator: Locator): SessionRecord | undefined {
    return cliTool(this.builder, name, input, () => this.#opts(locator, name));
  }

  /** A tool's result; a command's takes the exit code it reports. */
  output(
    name: string,
    text: string,
    locator: Locator,
    command: SessionRecord | undefined,
    cut: boolean,
  ): void {
    const code = command ? exitCodeIn(text) : undefined;
    if (command && code !== undefined) command.exitCode = code;
    const flags: RecordFlags = {};
    if (code !== undefined && code !== 0) flags.isError = true;
    if (cut) flags.truncated = true;
    this.builder.add("tool-output", text, this.#opts(locator, name, flags));
  }

  /** The session, unless nothing was said. */
  result(skipped: number): ParseResult {
    const session = this.builder.build();
    return { sessions: session.records.length > 0 ? [session] : [], skipped };
  }
}

/**
 * Starts reading a transcript, or says to skip it: a sub-agent's when
 * sub-agents are off, and one whose conversation the IDE store or a chat
 * store of the CLI holds.
 */
async function openTranscript(
  path: string,
  options: CursorParseOptions,
): Promise<Transcript | undefined> {
  const identity = transcriptIdentity(path);
  if (identity.parent && !options.includeSubagents) return undefined;
  if (ideHolds(identity.id, options.source)) return undefined;
  if (await chatHolds(identity.id, options.source)) return undefined;
  let mtime: number | undefined;
  try {
    mtime = (await Deno.stat(path)).mtime?.getTime();
  } catch {
    mtime = undefined;
  }
  return new Transcript(path, identity, mtime);
}

/**
 * Parses one `cursor-agent` transcript: `{role, message: {content}}` lines,
 * text blocks as speech (`<user_query>` unwrapped, `<timestamp>` dropped),
 * `Shell` calls and MCP tool calls (`mcp_*`) as commands,
 * `Read`/`ReadFile`/`Write`/`StrReplace`/`Delete` paths as files and
 * `StrReplace` `old_string` as edits. The CLI writes no times and no tool
 * results here, so every record carries the file's mtime. The project is the
 * `workspacePath` of `.workspace-trusted` in the project directory, else the
 * last part of the directory's name. Transcripts under `subagents/` are
 * sub-agent sessions of their parent; a transcript whose conversation the
 * IDE store or a CLI chat store (`store.db`, same id) also holds gives no
 * session (the store's copy is read).
 *
 * @param path The transcript.
 * @param options Sub-agent switch, and the environment the IDE store is found in.
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
  const transcript = await openTranscript(path, options);
  if (!transcript) return { sessions: [], skipped: 0 };
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
      if (texts.length > 0) transcript.say(role, texts.join("\n\n"), locator);
      texts = [];
    };
    for (const block of blocks) {
      if (!isObject(block)) continue;
      if (block.type === "text" && typeof block.text === "string") {
        texts.push(block.text);
      } else if (block.type === "tool_use") {
        flush();
        const name = str(block.name);
        if (name) transcript.tool(name, objectOf(block.input), locator);
      }
    }
    flush();
  }
  return transcript.result(skipped);
}

/** A role line of a text transcript. */
const TEXT_ROLE = /^(user|assistant):$/;
/** `[Tool call] Name` and `[Tool result] Name`. */
const TEXT_TOOL = /^\[Tool (call|result)\]\s+(\S+)/;
/** An argument under `[Tool call]`: two spaces, its name, a colon. */
const TEXT_ARG = /^ {2}([A-Za-z_][\w-]*):(?: (.*))?$/;

/** The lines of one record, kept up to a cap (a `Write` writes the whole file inline). */
class Gathered {
  readonly lines: string[] = [];
  cut = false;
  #size = 0;

  push(line: string): void {
    if (this.#size + line.length > MAX_OUTPUT_CHARS) {
      this.cut = true;
      return;
    }
    this.lines.push(line);
    this.#size += line.length + 1;
  }

  text(): string {
    return this.lines.join("\n");
  }
}

/** The arguments under a `[Tool call]` line; a value runs on over the lines that are not another argument. */
function textArgs(lines: readonly string[]): Json {
  const args = new Map<string, string>();
  let key: string | undefined;
  for (const line of lines) {
    const arg = TEXT_ARG.exec(line);
    if (arg) {
      key = arg[1] as string;
      args.set(key, arg[2] ?? "");
    } else if (key !== undefined) {
      args.set(key, `${args.get(key)}\n${line}`);
    }
  }
  return Object.fromEntries([...args].map(([k, v]) => [k, v.trimEnd()]));
}

/**
 * Parses one older `cursor-agent` transcript, `<id>.txt`: `user:` and
 * `assistant:` blocks (`<user_query>` unwrapped), `[Tool call] Name` with
 * its `  name: value` arguments (read as in the JSONL form) and `[Tool
 * result] Name` with what follows as the output of the oldest call of that
 * name not yet answered. A `[Thinking]` line is left out (the thinking that
 * runs on past it cannot be told from the answer). Project, times, sub-agents
 * and IDE twins as in {@linkcode parseCursorTranscript}.
 *
 * @param path The transcript.
 * @param options Sub-agent switch, and the environment the IDE store is found in.
 * @returns The session (none when nothing was said).
 * @example
 * ```ts
 * import { parseCursorTextTranscript } from "./cursor.ts";
 * import { equal } from "node:assert/strict";
 * const dir = await Deno.makeTempDir();
 * const path = `${dir}/home-a-api/agent-transcripts/c1.txt`;
 * await Deno.mkdir(`${dir}/home-a-api/agent-transcripts`, { recursive: true });
 * await Deno.writeTextFile(path, "user:\n<user_query>\nadd tests\n</user_query>\n\nassistant:\n[Tool call] Shell\n  command: deno test\n");
 * const { sessions } = await parseCursorTextTranscript(path, { includeSubagents: true, source: { home: dir, env: {}, os: "linux" } });
 * equal(sessions[0]?.records[1]?.text, "deno test");
 * ```
 */
export async function parseCursorTextTranscript(
  path: string,
  options: CursorParseOptions,
): Promise<ParseResult> {
  const transcript = await openTranscript(path, options);
  if (!transcript) return { sessions: [], skipped: 0 };
  let skipped = 0;
  let role: "user" | "assistant" | undefined;
  // Speech is a block of its role's kind.
  type Block = {
    kind: "user" | "assistant" | "call" | "result";
    name: string;
    locator: Locator;
    lines: Gathered;
  };
  let block: Block | undefined;
  const calls: Array<{ name: string; command: SessionRecord | undefined }> = [];
  const finish = () => {
    const done = block;
    block = undefined;
    if (!done) return;
    const { kind, name, locator, lines } = done;
    if (kind === "user" || kind === "assistant") {
      transcript.say(kind, lines.text(), locator, lines.cut);
    } else if (kind === "call") {
      const command = transcript.tool(name, textArgs(lines.lines), locator);
      calls.push({ name, command });
    } else {
      const at = calls.findIndex((c) => c.name === name);
      const call = at >= 0 ? calls.splice(at, 1)[0] : undefined;
      transcript.output(name, lines.text(), locator, call?.command, lines.cut);
    }
  };
  const start = (kind: Block["kind"], name: string, locator: Locator) => {
    finish();
    block = { kind, name, locator, lines: new Gathered() };
  };
  for await (const line of readLines(path, { onOversized: () => skipped++ })) {
    const locator: Locator = { path, line: line.number, offset: line.offset };
    const said = TEXT_ROLE.exec(line.text.trim());
    if (said) {
      role = said[1] as "user" | "assistant";
      start(role, "", locator);
      continue;
    }
    if (!role) continue;
    const tool = TEXT_TOOL.exec(line.text);
    if (tool) {
      start(tool[1] === "call" ? "call" : "result", tool[2] as string, locator);
    } else if (line.text.startsWith("[Thinking]")) {
      if (block?.kind !== role) start(role, "", locator);
    } else {
      block?.lines.push(line.text);
    }
  }
  finish();
  return transcript.result(skipped);
}

/**
 * The CLI's chat stores: `chats/<md5 of the cwd>/<chat id>/store.db`, and
 * `acp-sessions/<chat id>/store.db` for a chat run over ACP.
 */
const CHAT_STORE =
  /[\\/](?:chats[\\/][^\\/]+|acp-sessions)[\\/][^\\/]+[\\/]store\.db$/;

function isChatStore(path: string): boolean {
  return CHAT_STORE.test(path);
}

/** A blob larger than this is not read: a message is a few KB, a file read into a tool result a few MB. */
const MAX_BLOB_BYTES = 32 * 1024 * 1024;
/** How deep the tree nodes of a chat store are followed. */
const MAX_TREE_DEPTH = 16;
/** A chat store's `meta.json` is a few fields; a larger file is not it. */
const MAX_CHAT_META_BYTES = 64 * 1024;
/** The name a chat has until the CLI names it. */
const UNNAMED_CHAT = "New Agent";

const UTF8 = new TextDecoder("utf-8", { fatal: true });

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** UTF-8 text, or undefined when the bytes are not. */
function utf8(bytes: Uint8Array | undefined): string | undefined {
  if (!bytes) return undefined;
  try {
    return UTF8.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * The length-delimited fields of a protobuf message, in order, as
 * `[field number, bytes]`; undefined when the bytes are not a message.
 */
function protoFields(
  bytes: Uint8Array,
): Array<[number, Uint8Array]> | undefined {
  const out: Array<[number, Uint8Array]> = [];
  let at = 0;
  const varint = (): number | undefined => {
    let value = 0;
    for (let shift = 0; shift < 64; shift += 7) {
      const byte = bytes[at++];
      if (byte === undefined) return undefined;
      value += (byte & 0x7f) * 2 ** shift;
      if ((byte & 0x80) === 0) return value;
    }
    return undefined;
  };
  while (at < bytes.length) {
    const key = varint();
    if (key === undefined || key < 8) return undefined;
    const wire = key % 8;
    if (wire === 0) {
      if (varint() === undefined) return undefined;
    } else if (wire === 1) {
      at += 8;
    } else if (wire === 5) {
      at += 4;
    } else if (wire === 2) {
      const length = varint();
      if (length === undefined || at + length > bytes.length) return undefined;
      out.push([Math.floor(key / 8), bytes.subarray(at, at + length)]);
      at += length;
    } else {
      return undefined;
    }
  }
  return at === bytes.length ? out : undefined;
}

/** The first payload of a field. */
function protoField(
  fields: ReadonlyArray<[number, Uint8Array]> | undefined,
  field: number,
): Uint8Array | undefined {
  return fields?.find(([f]) => f === field)?.[1];
}

/** A blob of a chat store, unless it is missing or too large. */
function chatBlob(store: Store, id: Uint8Array): Uint8Array | undefined {
  if (id.length !== 32) return undefined;
  for (
    const row of rows(
      store,
      `SELECT CASE WHEN length(data) <= ${MAX_BLOB_BYTES} THEN data END AS data FROM blobs WHERE id = ?`,
      hex(id),
    )
  ) {
    const data = row.data;
    if (data instanceof Uint8Array) return data;
    return typeof data === "string"
      ? new TextEncoder().encode(data)
      : undefined;
  }
  return undefined;
}

/** A message blob: JSON with a `role`. */
function chatMessage(data: Uint8Array): Json | undefined {
  if (data[0] !== 0x7b) return undefined;
  const value = parseJson(utf8(data));
  return isObject(value) && typeof value.role === "string" ? value : undefined;
}

/** Bytes from hex digits (an even number of them). */
function unhex(text: string): Uint8Array {
  return Uint8Array.from(
    text.match(/../g) ?? [],
    (pair) => parseInt(pair, 16),
  );
}

/**
 * The metadata row `0`: hex-encoded JSON (plain JSON in older builds).
 * Undefined when there is no row (a chat not started), null when the row is
 * not JSON.
 */
function chatMeta(store: Store): Json | null | undefined {
  for (
    const row of rows(store, `SELECT ${col("value")} FROM meta WHERE key = '0'`)
  ) {
    const value = textColumn(row.value)?.trim() ?? "";
    const json = /^(?:[0-9a-fA-F]{2})+$/.test(value)
      ? parseJson(utf8(unhex(value)))
      : parseJson(value);
    return isObject(json) ? json : null;
  }
  return undefined;
}

/** Hands one message of a chat, and the id of the blob holding it, to a reader. */
type MessageVisitor = (message: Json, blob: string) => void;

/**
 * Visits the messages under a root, in order: its repeated field 1
 * (`root_prompt_messages_json`) lists message blob ids; the oldest stores
 * nest tree nodes, listed in fields 1 and 2, that list them in turn. Returns
 * how many messages were visited and how many listed blobs are missing.
 */
function visitTree(
  store: Store,
  fields: ReadonlyArray<[number, Uint8Array]>,
  visit: MessageVisitor,
): { visited: number; missing: number } {
  const expanded = new Set<string>();
  let visited = 0;
  let missing = 0;
  const walk = (node: ReadonlyArray<[number, Uint8Array]>, depth: number) => {
    for (const [field, id] of node) {
      if ((field !== 1 && field !== 2) || id.length !== 32) continue;
      const data = chatBlob(store, id);
      if (!data) {
        missing++;
        continue;
      }
      const key = hex(id);
      const message = chatMessage(data);
      if (message) {
        visited++;
        visit(message, key);
        continue;
      }
      // Content-addressed nodes cannot loop, but a damaged store can.
      const inner = depth < MAX_TREE_DEPTH && !expanded.has(key)
        ? protoFields(data)
        : undefined;
      expanded.add(key);
      if (inner) walk(inner, depth + 1);
    }
  };
  walk(fields, 0);
  return { visited, missing };
}

/**
 * Visits the turn graph some stores hold instead (`turns`, field 8): a
 * turn's agent turn (field 1) names its user message blob (field 1, text in
 * its field 1) and its step blobs (field 2); a step's assistant message
 * (field 1) has its text in field 1. Other steps (tool calls, thinking) are
 * not decoded.
 */
function visitTurns(
  store: Store,
  fields: ReadonlyArray<[number, Uint8Array]>,
  visit: MessageVisitor,
): void {
  const textOf = (id: Uint8Array, path: number[]): string | undefined => {
    let bytes = chatBlob(store, id);
    for (const field of path) {
      bytes = bytes && protoField(protoFields(bytes), field);
    }
    return utf8(bytes);
  };
  for (const [field, turnId] of fields) {
    if (field !== 8) continue;
    const turn = chatBlob(store, turnId);
    const agent = protoField(turn && protoFields(turn), 1);
    for (const [part, id] of (agent && protoFields(agent)) ?? []) {
      const role = part === 1 ? "user" : part === 2 ? "assistant" : undefined;
      const text = role && textOf(id, role === "user" ? [1] : [1, 1]);
      if (role && text) visit({ role, content: text }, hex(id));
    }
  }
}

/** The first `file://` workspace a root names (`previous_workspace_uris`). */
function rootWorkspace(
  fields: ReadonlyArray<[number, Uint8Array]>,
): string | undefined {
  for (const [field, value] of fields) {
    if (field === 1 || field === 2 || value[0] !== 0x66) continue;
    const path = pathOfFileUri(utf8(value));
    if (path) return path;
  }
  return undefined;
}

/** `Workspace Path:` in the `<user_info>` preamble of the first prompt. */
const WORKSPACE_LINE = /^Workspace Path:[ \t]*(\S[^\r\n]*?)[ \t]*$/m;

/** What a user message says: its `<user_query>` parts, else its text unless it is only the `<user_info>` preamble. */
function userSpeech(text: string): string {
  const queries = [...text.matchAll(/<user_query>([\s\S]*?)<\/user_query>/g)]
    .map((m) => m[1]?.trim() ?? "").filter((q) => q.length > 0);
  if (queries.length > 0) return cleanSpeech(queries.join("\n\n"));
  if (/^\s*<user_info>/.test(text)) return "";
  return cleanSpeech(text);
}

/** The text of a tool result: `result` (AI SDK v4) or `output.value` (v5), a string or text parts as they are, anything else as JSON. */
function resultText(block: Json): string {
  const output = obj(block.output);
  const raw = block.result !== undefined
    ? block.result
    : "value" in output
    ? output.value
    : block.output;
  if (typeof raw === "string") return raw;
  const texts = list(raw).map((p) => str(obj(p).text)).filter((t) =>
    t !== undefined
  );
  if (texts.length > 0) return texts.join("\n");
  return raw === undefined || raw === null ? "" : JSON.stringify(raw);
}

/** Whether a tool result says it failed, in the block or in Cursor's own record of it. */
function resultFailed(block: Json, message: Json): boolean {
  const cursorResult = (owner: Json) =>
    obj(obj(obj(owner.providerOptions).cursor).highLevelToolCallResult);
  return block.isError === true ||
    /^error/.test(str(obj(block.output).type) ?? "") ||
    cursorResult(block).isError === true ||
    cursorResult(message).isError === true;
}

/** One chat store being read into a session. */
class Chat {
  readonly builder: SessionBuilder;
  #path: string;
  #id: string;
  #subagent: boolean;
  #cwdSet: boolean;
  /** Command records by tool call id, for their results' exit codes. */
  #calls = new Map<string, SessionRecord | undefined>();

  constructor(
    path: string,
    id: string,
    cwd: string | undefined,
    parent: string | undefined,
  ) {
    this.#path = path;
    this.#id = id;
    this.#subagent = parent !== undefined;
    this.#cwdSet = cwd !== undefined;
    this.builder = new SessionBuilder({
      harness: HARNESS_ID,
      id,
      path,
      cwd,
      project: cwd ? undefined : "",
      parent,
      lineage: parent ? "subagent" : undefined,
    });
  }

  #opts(at: string, tool?: string, extra: RecordFlags = {}): AddRecordOptions {
    const flags: RecordFlags = { ...extra };
    if (this.#subagent) flags.subagent = true;
    return {
      locator: { path: this.#path, recordId: `${this.#id}:${at}` },
      ...(tool ? { tool } : {}),
      ...(Object.keys(flags).length > 0 ? { flags } : {}),
    };
  }

  /** One message: user text, assistant text and tool calls, tool results; system prompts and thinking left out. */
  message(message: Json, at: string): void {
    const content = message.content;
    const blocks = typeof content === "string"
      ? [{ type: "text", text: content }]
      : list(content).filter(isObject);
    const texts = blocks.filter((b) => b.type === "text")
      .map((b) => str(b.text)).filter((t) => t !== undefined);
    if (message.role === "user") {
      const text = texts.join("\n\n");
      if (!this.#cwdSet && text.includes("<user_info>")) {
        const dir = WORKSPACE_LINE.exec(text)?.[1];
        if (dir) {
          this.builder.setCwd(dir);
          this.#cwdSet = true;
        }
      }
      this.builder.add("user", userSpeech(text), this.#opts(at));
    } else if (message.role === "assistant") {
      this.builder.add(
        "assistant",
        cleanSpeech(texts.join("\n\n")),
        this.#opts(at),
      );
      for (const block of blocks) {
        if (block.type === "tool-call") {
          this.#call(
            str(block.toolCallId),
            str(block.toolName),
            objectOf(block.args ?? block.input),
            at,
          );
        }
      }
      // The OpenAI shape some models' messages take.
      for (const call of list(message.tool_calls).filter(isObject)) {
        const fn = obj(call.function);
        this.#call(str(call.id), str(fn.name), objectOf(fn.arguments), at);
      }
    } else if (message.role === "tool") {
      for (const block of blocks) {
        if (block.type === "tool-result") {
          this.#result(
            str(block.toolCallId),
            str(block.toolName),
            resultText(block),
            resultFailed(block, message),
            at,
          );
        }
      }
      if (typeof content === "string") {
        this.#result(
          str(message.tool_call_id),
          str(message.name),
          content,
          false,
          at,
        );
      }
    }
  }

  #call(
    id: string | undefined,
    name: string | undefined,
    input: Json,
    at: string,
  ): void {
    if (!name) return;
    const command = cliTool(
      this.builder,
      name,
      input,
      () => this.#opts(at, name),
    );
    if (id) this.#calls.set(id, command);
  }

  #result(
    id: string | undefined,
    name: string | undefined,
    text: string,
    failed: boolean,
    at: string,
  ): void {
    const command = id ? this.#calls.get(id) : undefined;
    const code = command ? exitCodeIn(text) : undefined;
    if (command && code !== undefined) command.exitCode = code;
    const isError = failed || (code !== undefined && code !== 0);
    this.builder.add(
      "tool-output",
      text,
      this.#opts(at, name, isError ? { isError: true } : {}),
    );
  }
}

/** The newest modification time of a store and its `-wal`. */
function storeMtime(path: string): number | undefined {
  let latest: number | undefined;
  for (const file of [path, `${path}-wal`]) {
    try {
      const mtime = Deno.statSync(file).mtime?.getTime();
      if (mtime !== undefined && (latest === undefined || mtime > latest)) {
        latest = mtime;
      }
    } catch {
      // No -wal: nothing pending.
    }
  }
  return latest;
}

/**
 * Parses one `cursor-agent` chat store, `store.db` (SQLite `meta` and
 * `blobs`): the `meta` row `0` is hex-encoded JSON (`agentId`, `name`,
 * `createdAt`, `latestRootBlobId`, `subagentInfo`); the root blob it names is
 * a protobuf whose field 1 lists, in order, the blob ids of the messages,
 * each JSON in the Vercel AI SDK shape (`{role, content}` with `text`,
 * `reasoning`, `tool-call` and `tool-result` parts). User text
 * (`<user_query>` unwrapped; the `<user_info>` preamble left out), assistant
 * text, `Shell` and MCP calls as commands, file tools as files and edits (as
 * in the transcripts) and tool results as output, failed when they say so or
 * exit non-zero. A store holding only the turn graph gives its user and
 * assistant text. The project is `cwd` of the `meta.json` beside the store,
 * else the root's `file://` workspace, else the `Workspace Path:` of the
 * preamble; the title `meta.json`'s `title`, else the store's `name`. No
 * message has a time: the session spans `createdAt` to the last write.
 *
 * @param path The `store.db` file.
 * @param options Sub-agent switch.
 * @returns The chat (none when nothing was said, or a sub-agent's when sub-agents are off).
 * @example
 * ```ts
 * import { parseCursorChatStore } from "./cursor.ts";
 * import { rejects } from "node:assert/strict";
 * const path = await Deno.makeTempFile({ suffix: ".db" });
 * const source = { home: "/h", env: {}, os: "linux" };
 * await rejects(parseCursorChatStore(path, { includeSubagents: true, source }), /missing table "meta"/);
 * ```
 */
export function parseCursorChatStore(
  path: string,
  options: CursorParseOptions,
): Promise<ParseResult> {
  return readStore(path, NAME, (store) => {
    requireTables(store, ["meta", "blobs"]);
    const meta = chatMeta(store);
    if (!meta) return { sessions: [], skipped: meta === null ? 1 : 0 };
    const parent = str(obj(meta.subagentInfo).parentAgentId);
    if (parent && !options.includeSubagents) {
      return { sessions: [], skipped: 0 };
    }
    const rootId = str(meta.latestRootBlobId) ?? "";
    const root = /^[0-9a-f]{64}$/i.test(rootId)
      ? chatBlob(store, unhex(rootId))
      : undefined;
    const fields = root && protoFields(root);
    // No root yet is a chat not started; a root that is missing or not a
    // protobuf is damage.
    if (!fields) return { sessions: [], skipped: rootId ? 1 : 0 };
    const dir = dirName(path);
    const sidecar = readFileEdges(join(dir, "meta.json"), MAX_CHAT_META_BYTES);
    const side = sidecar && !sidecar.truncated
      ? obj(parseJson(sidecar.text))
      : {};
    const cwd = str(side.cwd) ?? rootWorkspace(fields);
    const id = str(meta.agentId) ?? baseName(dir);
    const chat = new Chat(path, id, cwd, parent);
    let index = 0;
    const visit = (message: Json, blob: string) =>
      chat.message(message, `${index++}:${blob}`);
    const tree = visitTree(store, fields, visit);
    if (tree.visited === 0) visitTurns(store, fields, visit);
    chat.builder.touch(
      parseTime(meta.createdAt) ?? parseTime(side.createdAtMs),
    );
    chat.builder.touch(parseTime(side.updatedAtMs) ?? storeMtime(path));
    const name = str(meta.name);
    const title = str(side.title) ?? (name !== UNNAMED_CHAT ? name : undefined);
    if (title) chat.builder.setTitle(title);
    const session = chat.builder.build();
    return {
      sessions: session.records.length > 0 ? [session] : [],
      skipped: tree.missing,
    };
  });
}

/**
 * Whether a chat store of the CLI holds this conversation: the CLI writes
 * its transcript under the chat's id too, without tool results, times or
 * title, and the store's copy is the one kept. A store that cannot be read
 * holds nothing: the transcript is kept then.
 */
async function chatHolds(id: string, source: SourceEnv): Promise<boolean> {
  if (!WORKSPACE_ID.test(id)) return false;
  const root = cliRoot(source);
  const stores = [join(root, "acp-sessions", id, "store.db")];
  try {
    for (const entry of Deno.readDirSync(join(root, "chats"))) {
      stores.push(join(root, "chats", entry.name, id, "store.db"));
    }
  } catch {
    // No chats folder: no store.
  }
  for (const path of stores) {
    if (!isRegularFileSync(path)) continue;
    try {
      const { sessions } = await parseCursorChatStore(path, {
        includeSubagents: true,
        source,
      });
      if (sessions.length > 0) return true;
    } catch {
      // Locked or damaged: the transcript stands in for it.
    }
  }
  return false;
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

const chatStoreKind: FileKind = {
  id: "chat-store",
  appendOnly: false,
  match: isChatStore,
  parse: (path, options) => parseCursorChatStore(path, options),
};

const textTranscriptKind: FileKind = {
  id: "agent-transcript-text",
  appendOnly: false,
  match: isTextTranscript,
  parse: (path, options) => parseCursorTextTranscript(path, options),
};

/**
 * The Cursor harness: IDE `state.vscdb` stores (global and per workspace),
 * `cursor-agent` chat stores and transcripts.
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
    "SQLite state.vscdb (cursorDiskKV composer/bubble JSON, ItemTable chat data); CLI chat stores: SQLite store.db (content-addressed blobs: a protobuf root listing JSON messages); CLI agent-transcripts JSONL (plain text in older builds)",
  envOverrides: [
    "DEJA_CURSOR_ROOT",
    "XDG_CONFIG_HOME",
    "APPDATA",
    "CURSOR_CONFIG_DIR",
    "DEJA_CURSOR_CLI_ROOT",
  ],
  // 2: global composers get their workspace's project; clientStartTime is not a time.
  // 3: edit_file_v2 removed text, composer headers' workspaces and sub-agents, MCP calls, failed runs flagged, `.workspace-trusted` projects, `.txt` transcripts, IDE twins left to the IDE store.
  // 4: a tool call the person rejected (`result.rejected`, `userDecision`) or cancelled fails its output.
  // 5: the CLI's chat stores (`chats/*/*/store.db`, `acp-sessions/*/store.db`) read; their transcripts left to them.
  // 6: the files a person attached to a prompt (user bubble `context.fileSelections`) as `files` (tool `mention`).
  // 7: attached folders (`context.folderSelections` `relativePath`) and code selections (`context.selections` `uri`) as mentions too.
  // 8: the files a composer's code blocks were for (`conversation[].codeBlocks[].uri`, `codeBlockData` keys) as `files` (tool `codeblock`), and a chat-panel prompt's `fileSelections`/`selections` kept on the bubble itself as mentions.
  revision: 8,
  roots: cursorRoots,
  discover: discoverCursor,
  kinds: [stateKind, transcriptKind, textTranscriptKind, chatStoreKind],
  docs: {
    store:
      "IDE: `globalStorage/state.vscdb` and `workspaceStorage/<hash>/state.vscdb` under `~/Library/Application Support/Cursor/User` (macOS), `%APPDATA%\\Cursor\\User` (Windows), `$XDG_CONFIG_HOME/Cursor/User` or `~/.config/Cursor/User` (Linux), `DEJA_CURSOR_ROOT` redirects; CLI: `${CURSOR_CONFIG_DIR:-~/.cursor}/chats/<md5 of cwd>/<chat id>/store.db` (with `meta.json`) and `acp-sessions/<chat id>/store.db`, `projects/<encoded-path>/agent-transcripts/**/*.jsonl` and the older `*.txt` (`DEJA_CURSOR_CLI_ROOT` redirects all three)",
    extracts:
      "IDE: composers (`composerData:<id>` + `bubbleId:<id>:<bubble>` in cursorDiskKV, or an inline `conversation`), the older `composer.composerData` list and chat-panel tabs in ItemTable; user/assistant bubble text, the files and folders a person attached to a prompt (a user bubble's `context.fileSelections` and code `selections`, each a VS Code URI's `fsPath` or a `file://` URI, and `folderSelections`' workspace-relative `relativePath`; a chat-panel bubble's own `fileSelections`, `selections` and `folderSelections`) as `files` with tool `mention`, the files a reply's code blocks were written for (`codeBlocks[].uri`, and the composer's `codeBlockData` keys no bubble named) as `files` with tool `codeblock`, each once a conversation, titles, bubble times when written, project from Cursor 3.x's composer headers (global ItemTable `composer.composerHeaders` or the `composerHeaders` table: `workspaceIdentifier` uri, else the `workspace.json` of its id), the workspace's `workspace.json` (for a global composer, the workspace store whose `composer.composerData` lists it) or a bubble's `workspaceUris`/`workspaceProjectDir`; bubble times from `createdAt` or the epoch `timingInfo` fields (`clientStartTime` is a monotonic clock); commands, files, edits (`old_string`; for `edit_file_v2`, the lines of its `beforeContentId` row its `afterContentId` row no longer has, each row read up to 1 MiB) and output from a bubble's `toolFormerData` when present, MCP calls (`mcp_*`) as commands with their results, output flagged an error for a non-zero exit, `additionalData.status` error, or a call the person rejected (`result.rejected`, `userDecision` rejected) or cancelled (`status` cancelled); sub-agent composers (`subagentInfo.parentComposerId`, in the composer or its header) as sub-agent sessions of their parent, in its project when they name none. CLI: user/assistant text, Shell and MCP (`mcp_*`) commands, Read/ReadFile/Write/StrReplace/Delete files, StrReplace edits, sub-agent transcripts with their parent, project from the project folder's `.workspace-trusted` `workspacePath` (else the last part of the folder's lossy name); the older `.txt` form's `user:`/`assistant:` blocks, `[Tool call]` arguments and `[Tool result]` output (exit code from an `Exit code:` line). CLI chat stores (`store.db`: `meta` row `0` hex-encoded JSON naming `latestRootBlobId`; the root blob a protobuf whose repeated field 1 lists the message blobs' sha256 ids in conversation order, older stores nesting tree nodes in fields 1 and 2): the JSON messages (`{role, content}`, Vercel AI SDK parts) in that order — user text (`<user_query>` unwrapped), assistant text, `tool-call`s read as in the transcripts (plus OpenAI-shaped `tool_calls`), `tool-result`s as output with their tool, failed when `isError` (or Cursor's `highLevelToolCallResult.isError`) says so or the command's written exit code is non-zero; a store with only the turn graph (`turns`, field 8) gives its user and assistant text; title from `meta.json` `title`, else the store's `name` (not the default `New Agent`), else the first prompt; project from `meta.json` `cwd`, else the root's `file://` workspace URI, else the `Workspace Path:` of the `<user_info>` preamble; session span from `createdAt` (else `createdAtMs`) to `updatedAtMs` (else the store's and its `-wal`'s mtime); sub-agent stores (`subagentInfo.parentAgentId`) as sub-agent sessions of their parent",
    omits:
      "rich-text and code-block duplicates of the text (a code block's code itself: only the file it was for is kept, and not for a code block in a prompt), thinking (in `.txt` transcripts only the `[Thinking]` line: what runs on past it reads as the answer), context attachments other than attached files, folders and code selections (terminal, docs, image and commit chips, and the files Cursor chose itself, `relevantFiles`), and the selected code's text itself, the prompt history (`aiService.prompts`, a copy of the user bubbles); an agent transcript whose conversation the IDE store also holds (the IDE writes it under the composer's id; its store copy has the times, results, title and workspace); a sub-agent composer's parent named only by the parent's `subagentComposerIds`; the CLI's transcripts carry neither times (records carry the file's mtime) nor, in JSONL, tool results; a transcript whose chat store holds its conversation (same id; the store has the results, title and workspace); in chat stores: no per-message times (records carry none), system prompts, the `<user_info>` preamble and other context blocks around `<user_query>`, reasoning, the turn graph's tool and thinking steps, todos, summaries, token counts, subagent states kept inside a parent's root, blobs over 32 MiB, blobs encrypted with the store's `blobEncryptionKey` (not JSON: read as nothing), and stores moved by `XDG_CONFIG_HOME`/`CURSOR_DATA_DIR`; exit codes only when a tool result writes one",
    verified:
      "real sample: a workspace state.vscdb from Cursor of November 2024 (26 composers with inline conversations whose replies' `codeBlocks` name 94 files, 5 chat-panel tabs whose prompts keep `fileSelections`/`selections` on the bubble, no cursorDiskKV; one prompt with a `context.fileSelections` entry, also listed by michaeldhood/chatrxiv docs/cursor/storage-reference.md); the `folderSelections` (`relativePath`) and code `selections` (`uri`, `range`, `rawText`) shapes from Cursor's own workbench code as deminified in public copies (its selected-context service's `getCodeChunksFromFolder` and `getCodeChunksFromCodeSelection`), not from a sample; the cursorDiskKV bubble layout, `toolFormerData`, Cursor 3.x composer headers, `edit_file_v2` content rows, sub-agent composers, `.workspace-trusted` and the CLI transcript shapes (JSONL and `.txt`) from their documented and observed formats only (fixtures/cursor); the CLI chat store from public parsers and reports only, no real sample (tests build stores of that shape): the `blobs`/`meta` DDL and the metadata serde from cursor-agent's shipped `sqlite-blob-store` and `agent-kv` code, the root's field 1 message list and the JSON messages from independent readers (vshulcz/deja-vu#3821, which decoded 19 real stores of cursor-agent 2026.09.02; inference-sh/agentprotocol's Go codec; S2thend/cursor-history's notes on a WSL capture), `meta.json` (`cwd`, `createdAtMs`, `updatedAtMs`, `title`) from S2thend/cursor-history and tiann/hapi#824, the field 9 workspace URI from two readers' tests only, the turn graph from one (jazzyalex/agent-sessions#74)",
  },
};
