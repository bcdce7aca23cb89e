/**
 * VS Code Copilot Chat: the editor's own chat sessions under
 * `<host>/User/workspaceStorage/<hash>/chatSessions/` (a whole JSON document
 * per session, or since 2025 a JSONL mutation log: `{kind:0,v}` the initial
 * state, then `kind` 1 set, 2 push/truncate, 3 delete at a key path), plus
 * the Copilot extension's own event transcripts under
 * `<host>/User/workspaceStorage/<hash>/GitHub.copilot-chat/transcripts/` (the
 * extension's workspace storage) and
 * `<host>/User/globalStorage/github.copilot-chat/transcripts/`.
 *
 * @module
 */
import { dirname } from "node:path";
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
import { parseCopilotEvents } from "./_copilot_events.ts";
import { readJsonDocument } from "./_json_doc.ts";
import { walkJsonLines } from "./_jsonl_walk.ts";
import { childDirs, segments } from "./_paths.ts";
import { pathOfFileUri } from "../core/paths.ts";
import { MarkRuns } from "./_tree_chain.ts";
import { isObject, type Json, str } from "./_json.ts";
import { type ToolDialect, ToolRecorder } from "./_tool_records.ts";
import { pathList, presentVscodeUserDirs, vscodeUserDirs } from "./_roots.ts";

const HARNESS_ID = "copilot-chat";

/**
 * The Copilot extension's storage folder, lower-cased: VS Code names it by
 * the extension id, `GitHub.copilot-chat` in workspace storage and
 * `github.copilot-chat` in global storage.
 */
const EXTENSION_DIR = "github.copilot-chat";

/** Tool calls recorded in `result.metadata.toolCallRounds`. */
const DIALECT: ToolDialect = {
  shell: new Set(),
  commandKeys: [],
  pathTools: new Set(["read_file", "copilot_readFile", "create_file"]),
  pathKeys: ["filePath", "path"],
  editTools: new Set([
    "replace_string_in_file",
    "copilot_replaceString",
    "multi_replace_string_in_file",
    "copilot_multiReplaceString",
  ]),
  oldKeys: ["oldString", "old_string"],
  editListKey: "replacements",
};

/** The mutation log's first line can hold a large session; allow it. */
const MAX_LOG_LINE_BYTES = 64 * 1024 * 1024;

/** Object keys never walked into while replaying a mutation log. */
const UNSAFE_KEYS = new Set(["__proto__", "prototype", "constructor"]);

function isSessionPath(path: string): boolean {
  const dir = segments(path).at(-2);
  return (dir === "chatSessions" || dir === "emptyWindowChatSessions") &&
    (path.endsWith(".json") || path.endsWith(".jsonl"));
}

function isTranscriptPath(path: string): boolean {
  const parts = segments(path);
  return path.endsWith(".jsonl") && parts.at(-2) === "transcripts" &&
    parts.at(-3)?.toLowerCase() === EXTENSION_DIR;
}

/**
 * The extension's transcripts in each workspace's storage folder (the walk
 * for chat sessions names a storage folder it cannot read).
 */
function workspaceTranscripts(storage: string): string[] {
  return childDirs(storage).flatMap((hash) =>
    childDirs(`${storage}/${hash}`)
      .filter((name) => name.toLowerCase() === EXTENSION_DIR)
      .flatMap((name) =>
        walkFiles(`${storage}/${hash}/${name}/transcripts`, isTranscriptPath, {
          maxDepth: 0,
        })
      )
  );
}

/**
 * Leaves out a `.json` session whose `.jsonl` log is also there: VS Code
 * 1.109+ reads the log, and the document is the copy an older build left.
 */
function withoutStaleCopies(paths: string[]): string[] {
  const found = new Set(paths);
  return paths.filter((p) => !(p.endsWith(".json") && found.has(`${p}l`)));
}

/** A `file://` URI or a serialized `UriComponents` → a filesystem path. */
function uriPath(value: unknown): string | undefined {
  if (typeof value === "string") {
    return value.startsWith("file://") ? pathOfFileUri(value) : undefined;
  }
  if (!isObject(value)) return undefined;
  const fsPath = str(value.fsPath);
  if (fsPath) return fsPath;
  if (value.scheme !== undefined && value.scheme !== "file") return undefined;
  let p = str(value.path);
  if (p && /^\/[A-Za-z]:\//.test(p)) p = p.slice(1);
  return p;
}

/** The folder a workspace storage directory belongs to (`workspace.json`). */
async function workspaceFolder(dir: string): Promise<string | undefined> {
  const doc = await readJsonDocument(`${dir}/workspace.json`, 1 << 20);
  if (!doc.ok || !isObject(doc.value)) return undefined;
  return uriPath(doc.value.folder) ?? uriPath(doc.value.workspace);
}

function safeKey(key: unknown): key is string | number {
  return (typeof key === "number" && Number.isInteger(key) && key >= 0) ||
    (typeof key === "string" && !UNSAFE_KEYS.has(key));
}

/** The container a key path ends in, and its last key; undefined when broken. */
function walkTo(
  root: unknown,
  path: unknown[],
): { at: Json | unknown[]; key: string | number } | undefined {
  if (path.length === 0 || path.length > 64) return undefined;
  let node: unknown = root;
  for (let i = 0; i < path.length - 1; i++) {
    const key = path[i];
    if (!safeKey(key) || typeof node !== "object" || node === null) {
      return undefined;
    }
    node = (node as Record<string | number, unknown>)[key];
  }
  const last = path.at(-1);
  if (!safeKey(last) || typeof node !== "object" || node === null) {
    return undefined;
  }
  return { at: node as Json | unknown[], key: last };
}

/** One request as it stood when last seen, and whether it was cut from the log. */
interface Turn {
  request: Json;
  removed: boolean;
}

/** Replays a chat session mutation log, keeping requests it cut away. */
class MutationReplay {
  state: Json | undefined;
  readonly turns: Turn[] = [];
  readonly #known = new Map<Json, Turn>();
  skipped = 0;

  entry(obj: Json): void {
    const kind = obj.kind;
    if (kind === 0) {
      if (!isObject(obj.v)) {
        this.skipped++;
        return;
      }
      const before = this.#requests();
      this.state = obj.v;
      this.#settle(before);
      return;
    }
    if (this.state === undefined || !Array.isArray(obj.k)) {
      this.skipped++;
      return;
    }
    const path = obj.k;
    const touchesList = path[0] === "requests" && path.length <= 2;
    const before = touchesList ? this.#requests() : [];
    const target = walkTo(this.state, path);
    if (!target) {
      this.skipped++;
      return;
    }
    const container = target.at as Record<string | number, unknown>;
    if (kind === 1) {
      container[target.key] = obj.v;
    } else if (kind === 3) {
      delete container[target.key];
    } else if (kind === 2) {
      const current = container[target.key];
      const list = Array.isArray(current) ? current : [];
      if (typeof obj.i === "number" && Number.isInteger(obj.i) && obj.i >= 0) {
        list.length = Math.min(list.length, obj.i);
      }
      if (Array.isArray(obj.v)) list.push(...obj.v);
      container[target.key] = list;
    } else {
      this.skipped++;
      return;
    }
    if (touchesList) this.#settle(before);
  }

  #requests(): unknown[] {
    const list = this.state?.requests;
    return Array.isArray(list) ? [...list] : [];
  }

  /** Requests that left the list are cut; new ones join the timeline. */
  #settle(before: unknown[]): void {
    const now = new Set(this.#requests());
    for (const old of before) {
      if (isObject(old) && !now.has(old)) {
        const turn = this.#known.get(old);
        if (turn) turn.removed = true;
      }
    }
    for (const request of now) {
      if (!isObject(request) || this.#known.has(request)) continue;
      const turn: Turn = { request, removed: false };
      this.#known.set(request, turn);
      this.turns.push(turn);
    }
  }
}

/**
 * Whether the user undid a request: it stays in the file, hidden, until the
 * next send drops it (`isHidden` is the older name).
 */
function hidden(request: Json): boolean {
  return request.isHidden === true || isObject(request.shouldBeRemovedOnSend);
}

/** Markdown text of a response part, when it is one. */
function markdownOf(part: Json): string | undefined {
  const kind = part.kind;
  if (kind === undefined || kind === null) {
    return typeof part.value === "string" ? part.value : undefined;
  }
  if (kind === "markdownContent" || kind === "markdownVuln") {
    const content = part.content;
    if (isObject(content) && typeof content.value === "string") {
      return content.value;
    }
  }
  if (kind === "inlineReference") {
    const ref = part.inlineReference;
    const name = str(part.name) ?? (isObject(ref) ? str(ref.name) : undefined);
    const path = name ?? uriPath(isObject(ref) && ref.uri ? ref.uri : ref);
    return path ? `\`${segments(path).at(-1) ?? path}\`` : undefined;
  }
  return undefined;
}

/**
 * Emits one request (a user turn and the response to it); a sub-agent's own
 * tool runs only with `includeSubagents`.
 */
function emitTurn(
  builder: SessionBuilder,
  tools: ToolRecorder,
  request: Json,
  locator: Locator,
  includeSubagents: boolean,
): void {
  const time = parseTime(request.timestamp);
  // Sessions saved before the parsed-request form hold the typed text as a string.
  const text = typeof request.message === "string"
    ? request.message
    : isObject(request.message)
    ? str(request.message.text)
    : undefined;
  builder.add("user", cleanSpeech(text ?? ""), { locator, time });
  tools.newMessage();
  const at = { locator, time };
  let texts: string[] = [];
  const flush = (): void => {
    if (texts.length === 0) return;
    builder.add("assistant", cleanSpeech(texts.join("")), { locator, time });
    texts = [];
  };
  const response = Array.isArray(request.response) ? request.response : [];
  // A tool call is saved again as it runs (a sub-agent's card as its answer
  // comes in): its last copy is the finished one.
  const lastCopy = new Map<string, Json>();
  for (const part of response) {
    const id = isObject(part) && part.kind === "toolInvocationSerialized"
      ? str(part.toolCallId)
      : undefined;
    if (id && isObject(part)) lastCopy.set(id, part);
  }
  for (const part of response) {
    if (!isObject(part)) continue;
    const text = markdownOf(part);
    if (text !== undefined) {
      texts.push(text);
      continue;
    }
    if (
      part.kind === "textEditGroup" || part.kind === "notebookEditGroup" ||
      part.kind === "codeblockUri"
    ) {
      flush();
      const path = uriPath(part.uri);
      if (path) tools.file(path, String(part.kind), at);
    } else if (part.kind === "toolInvocationSerialized") {
      const id = str(part.toolCallId);
      if (id && lastCopy.get(id) !== part) continue;
      if (str(part.subAgentInvocationId) && !includeSubagents) continue;
      flush();
      toolInvocation(builder, part, locator, time);
    } else if (part.kind === "questionCarousel") {
      flush();
      questions(builder, part, at);
    } else if (part.kind === "planReview") {
      flush();
      builder.add("assistant", cleanSpeech(str(part.content) ?? ""), at);
      // What the person wrote back on the plan (`feedback` joins the overall
      // comment and the inline ones).
      const review = isObject(part.data) ? part.data : {};
      const feedback = str(review.feedback) ?? str(review.feedbackOverall);
      builder.add("user", cleanSpeech(feedback ?? ""), at);
    }
  }
  flush();
  const result = isObject(request.result) ? request.result : {};
  const metadata = isObject(result.metadata) ? result.metadata : {};
  const rounds = Array.isArray(metadata.toolCallRounds)
    ? metadata.toolCallRounds
    : [];
  for (const round of rounds) {
    if (!isObject(round) || !Array.isArray(round.toolCalls)) continue;
    for (const call of round.toolCalls) {
      if (!isObject(call)) continue;
      const name = str(call.name);
      if (name) tools.call(str(call.id), name, call.arguments, at);
    }
  }
}

/**
 * A tool invocation the response shows: a terminal run (its command, exit
 * code and output, at the times the terminal took them), a sub-agent run
 * (the task it was given as a command, its answer as tool output), or any
 * other tool's result as the response kept it. A run a sub-agent made (it
 * names the sub-agent's `subAgentInvocationId`) is flagged as the
 * sub-agent's.
 */
function toolInvocation(
  builder: SessionBuilder,
  part: Json,
  locator: Locator,
  time: number | undefined,
): void {
  const data = isObject(part.toolSpecificData) ? part.toolSpecificData : {};
  const sub = str(part.subAgentInvocationId) !== undefined;
  if (data.kind === "terminal") {
    terminalCall(builder, part, data, { locator, time, sub });
  } else if (data.kind === "subagent") {
    const at = { locator, time, tool: str(part.toolId) ?? "runSubagent" };
    const task = str(data.prompt) ?? str(data.description);
    if (task) builder.add("command", task, { ...at, ...flagged(sub, false) });
    const answer = str(data.result);
    if (answer) {
      builder.add("tool-output", answer, { ...at, ...flagged(sub, false) });
    }
  } else {
    toolResult(builder, part, data, { locator, time, sub });
  }
}

/** The flags of a record a tool invocation gave: a sub-agent's, failed. */
function flagged(sub: boolean, isError: boolean): { flags?: RecordFlags } {
  if (!sub && !isError) return {};
  const flags: RecordFlags = {};
  if (sub) flags.subagent = true;
  if (isError) flags.isError = true;
  return { flags };
}

/**
 * A question carousel the person answered: the questions it asked as the
 * assistant's, the answers (typed, or the options picked) as the person's.
 */
function questions(
  builder: SessionBuilder,
  part: Json,
  at: { locator: Locator; time: number | undefined },
): void {
  const answers = isObject(part.data) ? part.data : {};
  const asked: string[] = [];
  const said: string[] = [];
  for (const question of Array.isArray(part.questions) ? part.questions : []) {
    const id = isObject(question) ? str(question.id) : undefined;
    if (!isObject(question) || !id || !Object.hasOwn(answers, id)) continue;
    const answer = answerText(answers[id], question);
    if (!answer) continue;
    const title = messageText(question.title) ?? messageText(question.message);
    if (title) asked.push(title);
    said.push(answer);
  }
  builder.add("assistant", cleanSpeech(asked.join("\n")), at);
  builder.add("user", cleanSpeech(said.join("\n")), at);
}

/**
 * An answer as the person gave it: free text, or the labels of the options
 * picked (`selectedValue`, `selectedValues`) with any text typed beside them.
 */
function answerText(value: unknown, question: Json): string | undefined {
  const options = Array.isArray(question.options) ? question.options : [];
  const label = (picked: unknown): string | undefined => {
    const option = options.find((o) =>
      isObject(o) && (o.value === picked || o.id === picked)
    );
    return (isObject(option) ? str(option.label) : undefined) ?? str(picked);
  };
  if (typeof value === "string") return label(value);
  if (!isObject(value)) return undefined;
  const picked = Array.isArray(value.selectedValues)
    ? value.selectedValues.map(label)
    : [label(value.selectedValue)];
  const parts = [...picked, str(value.freeformValue)].filter((t) => t);
  return parts.length > 0 ? parts.join(", ") : undefined;
}

/** Text of a message that is a string or a serialized `IMarkdownString`. */
function messageText(value: unknown): string | undefined {
  return str(value) ?? (isObject(value) ? str(value.value) : undefined);
}

/**
 * A tool's result (MCP and extension tools, agent-host tools): the text parts
 * of its `resultDetails` output (a plain string in older sessions), else a
 * simple invocation's output, with its `resultError`; failed when the details
 * say `isError` or an error was kept.
 */
function toolResult(
  builder: SessionBuilder,
  part: Json,
  data: Json,
  at: { locator: Locator; time: number | undefined; sub: boolean },
): void {
  const details = isObject(part.resultDetails) ? part.resultDetails : {};
  const output = details.output;
  const texts =
    (typeof output === "string"
      ? [output]
      : Array.isArray(output)
      ? output.map((o) =>
        isObject(o) && o.isText === true && typeof o.value === "string"
          ? o.value
          : ""
      )
      : []).filter((t) => t.length > 0);
  const simple = data.kind === "simpleToolInvocation"
    ? str(data.output)
    : undefined;
  if (texts.length === 0 && simple) texts.push(simple);
  const error = messageText(part.resultError);
  if (error) texts.push(error);
  const text = texts.join("\n");
  const failed = details.isError === true || error !== undefined;
  builder.add("tool-output", text, {
    locator: at.locator,
    time: at.time,
    tool: str(part.toolId),
    ...flagged(at.sub, failed),
  });
}

/**
 * A terminal run: the command at the time it started
 * (`terminalCommandState.timestamp`), its output when it ended (plus
 * `duration`), else both at the request's time.
 */
function terminalCall(
  builder: SessionBuilder,
  part: Json,
  data: Json,
  at: { locator: Locator; time: number | undefined; sub: boolean },
): void {
  const { locator, sub } = at;
  const line = data.commandLine;
  const command = isObject(line)
    ? str(line.userEdited) ?? str(line.toolEdited) ?? str(line.original)
    : str(data.command) ?? str(line);
  if (!command) return;
  const tool = str(part.toolId) ?? "run_in_terminal";
  const state = isObject(data.terminalCommandState)
    ? data.terminalCommandState
    : {};
  const exitCode = typeof state.exitCode === "number"
    ? state.exitCode
    : undefined;
  const started = parseTime(state.timestamp);
  const time = started ?? at.time;
  const ended = started !== undefined && typeof state.duration === "number" &&
      state.duration >= 0
    ? started + Math.round(state.duration)
    : time;
  builder.add("command", command, {
    locator,
    time,
    tool,
    exitCode,
    ...flagged(sub, false),
  });
  const output = isObject(data.terminalCommandOutput)
    ? str(data.terminalCommandOutput.text)
    : undefined;
  if (output) {
    const failed = exitCode !== undefined && exitCode !== 0;
    builder.add("tool-output", output, {
      locator,
      time: ended,
      tool,
      ...flagged(sub, failed),
    });
  }
}

/** Options for {@linkcode parseCopilotChatSession}. */
export interface CopilotChatParseOptions extends ParseOptions {
  /** Largest `.json` document read. Default 256 MiB. */
  maxDocumentBytes?: number;
  /** Largest mutation-log line read. Default 64 MiB. */
  maxLineBytes?: number;
}

/**
 * Parses one VS Code chat session (`.json` document or `.jsonl` mutation
 * log). Requests a log later cut from the session (an undo or a resend from
 * an earlier turn) stay, covered by an `undo` mark.
 *
 * @param path The session file.
 * @param options Size caps.
 * @returns The session, if it held any turn.
 * @example
 * ```ts
 * import { parseCopilotChatSession } from "./copilot_chat.ts";
 * import { equal } from "node:assert/strict";
 * const dir = await Deno.makeTempDir();
 * await Deno.mkdir(`${dir}/chatSessions`);
 * const path = `${dir}/chatSessions/s1.jsonl`;
 * await Deno.writeTextFile(path, JSON.stringify({ kind: 0, v: {
 *   sessionId: "s1", creationDate: 1767225600000,
 *   requests: [{ requestId: "r1", timestamp: 1767225601000,
 *     message: { text: "explain this regex" }, response: [{ value: "It matches digits." }] }],
 * } }) + "\n");
 * const source = { home: dir, env: {}, os: "linux" };
 * const { sessions } = await parseCopilotChatSession(path, { includeSubagents: true, source });
 * equal(sessions[0]?.records.length, 2);
 * ```
 */
export async function parseCopilotChatSession(
  path: string,
  options: CopilotChatParseOptions,
): Promise<ParseResult> {
  let state: Json | undefined;
  let turns: Turn[] = [];
  let skipped = 0;
  if (path.endsWith(".jsonl")) {
    const replay = new MutationReplay();
    const walked = await walkJsonLines(path, {
      maxLineBytes: options.maxLineBytes ?? MAX_LOG_LINE_BYTES,
    }, (obj) => replay.entry(obj));
    state = replay.state;
    turns = replay.turns;
    skipped = walked.skipped + replay.skipped;
  } else {
    const doc = await readJsonDocument(path, options.maxDocumentBytes);
    if (!doc.ok) {
      return { sessions: [], skipped: doc.reason === "missing" ? 0 : 1 };
    }
    if (!isObject(doc.value)) return { sessions: [], skipped: 1 };
    state = doc.value;
    const requests = Array.isArray(state.requests) ? state.requests : [];
    for (const request of requests) {
      if (isObject(request)) turns.push({ request, removed: false });
      else skipped++;
    }
  }
  if (state === undefined) return { sessions: [], skipped };
  const parts = segments(path);
  const stem = (parts.at(-1) ?? "").replace(/\.jsonl?$/, "");
  const builder = new SessionBuilder({
    harness: HARNESS_ID,
    id: str(state.sessionId) ?? stem,
    path,
  });
  if (parts.at(-2) === "chatSessions") {
    const folder = await workspaceFolder(dirname(dirname(path)));
    if (folder) builder.setCwd(folder);
  }
  const tools = new ToolRecorder(builder, DIALECT);
  const runs = new MarkRuns((from, to) => builder.mark("undo", from, to));
  const created = parseTime(state.creationDate);
  const lastMessage = parseTime(state.lastMessageDate);
  // A request cut away or undone keeps its records, but the session was last
  // active at its live requests (their records, their response's end) and
  // its stored dates.
  const dates = [created, lastMessage];
  for (const [i, turn] of turns.entries()) {
    const cut = turn.removed || hidden(turn.request);
    runs.at(builder.nextSeq, cut);
    const recordId = str(turn.request.requestId) ?? `#${i}`;
    const first = builder.records.length;
    emitTurn(
      builder,
      tools,
      turn.request,
      { path, recordId },
      options.includeSubagents,
    );
    if (cut) continue;
    for (const record of builder.records.slice(first)) dates.push(record.time);
    const model = turn.request.modelState;
    if (isObject(model)) dates.push(parseTime(model.completedAt));
  }
  runs.end(builder.nextSeq);
  builder.touch(created);
  builder.touch(lastMessage);
  // Version 2 documents named the title `computedTitle`.
  const title = str(state.customTitle) ?? str(state.computedTitle);
  if (title) builder.setTitle(title);
  const session = builder.build();
  const active = dates.reduce<number | undefined>(
    (last, t) => t !== undefined && (last === undefined || t > last) ? t : last,
    undefined,
  );
  if (active !== undefined) session.updated = active;
  return { sessions: session.records.length > 0 ? [session] : [], skipped };
}

/** Options for {@linkcode parseCopilotChatTranscript}. */
export interface CopilotChatTranscriptOptions extends ParseOptions {
  /** Lines longer than this are skipped. Default 8 MiB. */
  maxLineBytes?: number;
}

/**
 * Parses one of the Copilot extension's event transcripts (the same event
 * log Copilot CLI writes), from `options.offset` when resuming. A transcript
 * in a workspace's storage gets the workspace folder (`workspace.json`) as
 * its working directory: VS Code's transcripts name none.
 *
 * @param path The transcript.
 * @param options Resume point, state and sub-agent switch.
 * @returns The session and the resume point.
 * @example
 * ```ts
 * import { parseCopilotChatTranscript } from "./copilot_chat.ts";
 * import { equal } from "node:assert/strict";
 * const path = `${await Deno.makeTempDir()}/t1.jsonl`;
 * await Deno.writeTextFile(path, JSON.stringify({
 *   type: "user.message", data: { content: "rename the helper" },
 *   id: "e1", timestamp: "2026-01-01T00:00:00Z", parentId: null,
 * }) + "\n");
 * const source = { home: "/h", env: {}, os: "linux" };
 * const { sessions } = await parseCopilotChatTranscript(path, { includeSubagents: true, source });
 * equal(sessions[0]?.id, "t1");
 * ```
 */
export async function parseCopilotChatTranscript(
  path: string,
  options: CopilotChatTranscriptOptions,
): Promise<ParseResult> {
  const parts = segments(path);
  const stem = (parts.at(-1) ?? "").replace(/\.jsonl$/, "");
  // `workspaceStorage/<hash>/GitHub.copilot-chat/transcripts/<id>.jsonl`
  const cwd = parts.at(-5) === "workspaceStorage"
    ? await workspaceFolder(dirname(dirname(dirname(path))))
    : undefined;
  return await parseCopilotEvents(path, {
    ...options,
    harness: HARNESS_ID,
    fallbackId: stem,
    cwd,
  });
}

/**
 * The `User` directories of every VS Code host (those installed here when
 * `present`), or `DEJA_COPILOT_CHAT_ROOTS` (path list).
 */
function userDirs(source: SourceEnv, present = false): string[] {
  const override = pathList(source.env.DEJA_COPILOT_CHAT_ROOTS, source);
  if (override.length) return override;
  return present ? presentVscodeUserDirs(source) : vscodeUserDirs(source);
}

const sessionKind: FileKind = {
  id: "chat-session",
  appendOnly: false,
  match: isSessionPath,
  parse: (path, options) => parseCopilotChatSession(path, options),
};

const transcriptKind: FileKind = {
  id: "transcript",
  appendOnly: true,
  match: isTranscriptPath,
  parse: (path, options) => parseCopilotChatTranscript(path, options),
};

/**
 * The VS Code Copilot Chat harness (chat sessions and extension transcripts).
 *
 * @example
 * ```ts
 * import { copilotChat } from "./copilot_chat.ts";
 * import { equal } from "node:assert/strict";
 * equal(copilotChat.roots({ home: "/h", env: {}, os: "linux" })[0], "/h/.config/Code/User");
 * ```
 */
export const copilotChat: Harness = {
  id: HARNESS_ID,
  name: "VS Code Copilot Chat",
  format:
    "JSON document or JSONL mutation log per chat session (workspaceStorage/*/chatSessions), plus the extension's JSONL event transcripts",
  envOverrides: ["APPDATA", "XDG_CONFIG_HOME", "DEJA_COPILOT_CHAT_ROOTS"],
  roots: (source) => userDirs(source),
  discover(source: SourceEnv): Promise<string[]> {
    return Promise.resolve(
      userDirs(source, true).flatMap((user) =>
        withoutStaleCopies([
          ...walkFiles(`${user}/workspaceStorage`, isSessionPath, {
            maxDepth: 2,
          }),
          ...workspaceTranscripts(`${user}/workspaceStorage`),
          ...walkFiles(
            `${user}/globalStorage`,
            (p) => isSessionPath(p) || isTranscriptPath(p),
            { maxDepth: 2 },
          ),
        ])
      ),
    );
  },
  kinds: [sessionKind, transcriptKind],
  // 2: string messages of old sessions, v2 `computedTitle`, hidden (undone) requests as undo marks.
  // 3: transcripts in workspace storage (workspace folder as project), no stale `.json` beside a `.jsonl`,
  // sub-agent runs, terminal runs at their own times, cut requests not in `updated`.
  // 4: transcripts read through the shared Copilot event reader's 2026 fields (parentToolCallId
  // side chains, skill/autopilot turns left out, shell_exit codes, contents text, title changes).
  // 5: transcripts leave out user turns from another agent, autopilot objectives and schedules.
  // 6: other tools' results (`resultDetails` text, simple invocation output, `resultError`) with isError.
  // 7: a sub-agent's own tool runs (`subAgentInvocationId`) flagged as the sub-agent's.
  // 8: question carousels: the questions as assistant text, the person's answers as user text.
  // 9: a tool call saved more than once in a response is read from its last copy.
  // 10: notebook edit groups name the notebook they changed.
  // 11: transcripts keep the prompt a person scheduled (`session.schedule_created`).
  // 12: plan reviews: the plan as assistant text, the person's feedback on it as user text.
  // 13: transcripts keep a handoff's summary.
  // 14: a detached transcript is a sub-agent session of the one that spawned it.
  // 15: a command's output is an error when it exited non-zero, whatever
  // status the harness gave the result (shared ToolRecorder).
  // 16: transcripts keep a failed model call (`session.error`) as error output and the files a prompt attached, and leave out input from another session (`crossSession`).
  revision: 16,
  docs: {
    store:
      "`<User>/workspaceStorage/<hash>/chatSessions/<session>.json|.jsonl`, `<User>/globalStorage/emptyWindowChatSessions/`, and the Copilot extension's transcripts in its workspace storage, `<User>/workspaceStorage/<hash>/GitHub.copilot-chat/transcripts/<session>.jsonl` (the folder named by the extension id, any case), and in `<User>/globalStorage/github.copilot-chat/transcripts/`, where `<User>` is `~/Library/Application Support/<host>/User` (macOS), `%APPDATA%\\<host>\\User` (Windows), `${XDG_CONFIG_HOME:-~/.config}/<host>/User` (Linux, plus the remote-server folders such as `~/.vscode-server/data/User`) for every VS Code host deja knows (Code, Code - Insiders, VSCodium, VSCodium - Insiders, Cursor, Windsurf, Code - OSS, Antigravity, Kiro, Trae, Trae CN, Void, Positron), those installed here; `DEJA_COPILOT_CHAT_ROOTS` (path list of User dirs) overrides",
    extracts:
      "chat sessions: the typed request text, the response's markdown (inline references as file names), answered question carousels (`questionCarousel`: the questions as the assistant's text, the answers in `data` as the person's, an option picked by its label, typed text beside it), plan reviews (`planReview`: the plan as the assistant's text, the person's `feedback` on it as theirs), terminal tool calls as commands with exit code and output (a call saved more than once as it ran, such as a sub-agent card updated with its answer, read from its last copy) (isError for a non-zero exit), timed by the terminal (`terminalCommandState`: the command at its `timestamp`, the output at `timestamp` + `duration`), sub-agent runs (tool data kind `subagent`, `runSubagent`) as a command holding the task the sub-agent was given and tool output holding its answer, other tools' results (MCP and extension tools) as tool output: the text parts of the invocation's `resultDetails` output (a string in older sessions), else a `simpleToolInvocation` output, plus its `resultError`, isError when the details say `isError` or an error was kept, a sub-agent's own tool runs (parts naming its `subAgentInvocationId`) flagged as the sub-agent's (left out without sub-agents), edited files (text and notebook edit groups, code block URIs), files and edits (oldString) from the tool-call rounds in the result metadata, custom titles (`computedTitle` in version 2), the workspace folder as project, requests a mutation log cut away or the user undid (`shouldBeRemovedOnSend`, older `isHidden`) as `undo` marks (they do not move the session's last activity, which comes from the live requests and their response's end, `modelState.completedAt`); transcripts: the same records as Copilot CLI's event log, with the workspace folder (`workspace.json`) as project for a transcript in workspace storage (VS Code writes no cwd in it)",
    omits:
      "thinking parts, progress/confirmation/undo-stop parts, follow-ups, votes, variable payloads (attached file contents), binary tool output (images, `data` results) and result details that only list files; a `.json` session whose `.jsonl` log sits beside it (VS Code 1.109+ reads the log; the document is the copy an older build left); a per-record time other than a terminal run's (the rest of a request carries the request's time); a session written to both stores (a chat session and the extension's transcript of it) is indexed from both files under the same id, and search shows it once (where it ranks best)",
    verified:
      "fixture only: no real chat session or transcript sample; shapes from VS Code's chat model serializer (`IChatToolInvocationSerialized` with `resultDetails`/`resultError`/`subAgentInvocationId`, `IToolResultInputOutputDetails`, `ChatQuestionCarouselData.toJSON`, `IChatPlanReview`, `IChatNotebookEditGroup`), ObjectMutationLog and ChatSessionStore source (which reads a session's `.jsonl` before its `.json`), the Copilot extension's SessionTranscriptService (transcripts in its workspace `storageUri`) and public parsers (version 1 to 3 documents; repeated tool-call copies from Arithmomaniac/copilot-session-tools)",
  },
};
