/**
 * Gemini CLI: one chat per session under
 * `${GEMINI_CLI_HOME:-~}/.gemini/tmp/<project>/chats/`, either a whole JSON
 * document (`session-*.json`, older builds) or an append log
 * (`session-*.jsonl`) of a header line, message lines (a message id written
 * again replaces the earlier version), `{"$set":{…}}` metadata patches (a
 * `messages` list replaces the whole state) and `{"$rewindTo":"<id>"}` cuts.
 * A tool output the CLI later masks to save context keeps its original.
 * Sub-agent chats sit one directory deeper, named by the parent session id.
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
import { sha256Hex } from "../core/hash.ts";
import { cleanSpeech } from "../core/text.ts";
import { parseTime } from "../core/time.ts";
import type { Locator, RecordFlags } from "../core/types.ts";
import { SessionBuilder } from "./_builder.ts";
import { readJsonDocument } from "./_json_doc.ts";
import { walkJsonLines } from "./_jsonl_walk.ts";
import { isRegularFile, segments } from "./_paths.ts";
import { MarkRuns } from "./_tree_chain.ts";
import { isObject, type Json, str } from "./_json.ts";
import {
  type ToolDialect,
  type ToolEventAt,
  ToolRecorder,
} from "./_tool_records.ts";

const HARNESS_ID = "gemini";

const DIALECT: ToolDialect = {
  shell: new Set(["run_shell_command"]),
  commandKeys: ["command"],
  pathTools: new Set(["read_file", "write_file", "read_many_files"]),
  pathKeys: ["file_path", "absolute_path", "path"],
  // `read_many_files` took `paths` (plus optional `include` globs); current
  // builds take only `include` (tools/definitions/coreTools.ts).
  pathListKeys: ["paths", "include"],
  editTools: new Set(["replace", "edit"]),
  oldKeys: ["old_string"],
};

/** At-command file contents Gemini appends to the typed prompt. */
const REFERENCED_FILES = "\n--- Content from referenced files ---";

/**
 * Context the CLI adds to a user turn, not typed by anyone: the IDE
 * companion's editor state (client.ts `getIdeContextParts`, a history turn of
 * its own: the full state, then deltas; the JSON never starts a line with
 * three backticks, so the first such line closes it). A hook's
 * `additionalContext` (core/client.ts appends a BeforeAgent hook's as a
 * `<hook_context>…</hook_context>` part; a SessionStart hook's is its own
 * history turn, or prefixed to a non-interactive prompt) goes in
 * `cleanSpeech`, for every harness.
 */
const INJECTED_CONTEXT =
  /Here is (?:the user's editor context as a JSON object|a summary of changes in the user's editor context, in JSON format)\. This is for your information only\.\n```json\n[\s\S]*?\n```/g;

/** What the person typed of a user turn: without at-command file contents or injected context. */
function typedText(raw: string): string {
  const cut = raw.indexOf(REFERENCED_FILES);
  return (cut === -1 ? raw : raw.slice(0, cut)).replace(INJECTED_CONTEXT, "")
    .trim();
}

/**
 * The prompt gemini-cli sends by itself after an invalid model stream
 * (core/client.ts, `continueOnFailedApiCall`), recorded as a user message.
 */
const RETRY_PROMPT = "System: Please continue.";

/**
 * The warning the interactive CLI records when a hook blocks the agent
 * (packages/cli ui/hooks/useGeminiStream.ts,
 * `handleAgentExecutionBlockedEvent`: the hook's `systemMessage`, else its
 * reason). After an AfterAgent hook's block, core/client.ts sends the
 * reason as a new user turn at once, recorded with the prompt's own
 * `displayContent` by builds that pass it on.
 */
const AGENT_BLOCKED = "Agent execution blocked: ";

/**
 * Whether a user message right after an `Agent execution blocked:` warning
 * is the reason the CLI sent for an AfterAgent hook, not a prompt: its text
 * is the reason the warning quotes, or it carries the previous prompt's
 * display text over other content than that prompt's. (A BeforeAgent block
 * ends the turn: the person's next prompt follows the same warning, and is
 * kept, also when it is the previous prompt again.)
 */
function isHookContinuation(
  m: Json,
  blocked: string,
  last: EmitState["lastPrompt"],
): boolean {
  const content = cleanSpeech(typedText(partsText(m.content)));
  if (content === blocked) return true;
  if (m.displayContent === undefined || last === undefined) return false;
  const shown = cleanSpeech(typedText(partsText(m.displayContent)));
  return shown === last.shown && shown !== content && content !== last.sent;
}

/**
 * What shell mode (`!command`) puts in history as a user turn: the command
 * the person ran and what it printed (packages/cli ui/hooks/shellCommandProcessor.ts,
 * `addShellCommandToGeminiHistory`; fenced since early builds).
 */
const SHELL_MODE =
  /^I ran the following shell command:\n(?:```sh\n)?([\s\S]*?)(?:\n```)?\n\nThis produced the following result:\n(?:```\n)?([\s\S]*?)(?:\n```)?\s*$/;

/**
 * Records a shell-mode turn as the command the person ran and its output.
 * The turn says no exit code, so none is claimed.
 */
function shellModeTurn(
  tools: ToolRecorder,
  text: string,
  at: ToolEventAt,
): boolean {
  const m = SHELL_MODE.exec(text);
  if (!m) return false;
  tools.newMessage();
  tools.call(undefined, "run_shell_command", { command: m[1] }, at);
  tools.result(
    undefined,
    m[2] ?? "",
    false,
    at,
    undefined,
    "run_shell_command",
  );
  return true;
}

/**
 * A compression summary: the `<state_snapshot>` the model wrote, which it
 * may precede by the `<scratchpad>` reasoning the compression prompt asks
 * for first (services/chatCompressionService.ts, core/prompts.ts).
 */
const STATE_SNAPSHOT =
  /^\s*(?:<scratchpad>[\s\S]*?<\/scratchpad>\s*)?(<state_snapshot>[\s\S]*)$/;

/** The model's stock reply to a compression summary; not something it said. */
const COMPRESSION_ACK = "Got it. Thanks for the additional context!";

/**
 * The context block every chat's history opens with (not typed by anyone):
 * in `/chat save` checkpoints, and in chats since gemini-cli syncs its
 * bootstrapped history into the recording (a `$set` message list).
 */
const SETUP_CONTEXT =
  /^\s*(?:<session_context>\s*)?This is the Gemini CLI\. We are setting up the context/;
/** The model's stock reply to the setup context in older builds. */
const SETUP_ACK = "Got it. Thanks for the context!";
/** The working directory the setup context names. */
const SETUP_CWD =
  /I'm currently working in the directory: ([^\n]+)|\*\*Workspace Directories:\*\*\s*\n\s*- ([^\n]+)/;

/**
 * The model turn gemini-cli puts in history when a stream failed after a
 * tool response (geminiChat.ts `INTERRUPTED_RESPONSE_PLACEHOLDER`), synced
 * into the chat as a `gemini` message: nothing the model said.
 */
const INTERRUPTED_PLACEHOLDER =
  "[The previous response was interrupted before it completed.]";

/** What {@linkcode emitMessage} carries from one message to the next. */
interface EmitState {
  /** The last message was a compression summary. */
  lastSummary: boolean;
  /** The last message was the setup context. */
  afterSetup: boolean;
  /** The working directory a setup context named. */
  setupCwd?: string;
  /**
   * What the CLI's `Agent execution blocked: …` warning said, when it is
   * the last message (info lines aside).
   */
  blocked?: string;
  /** The last user turn kept as typed: its text, and what the CLI sent. */
  lastPrompt?: { shown: string; sent: string };
}

/**
 * A tool output gemini-cli replaced to save context, synced back into the
 * chat by a `$set` message list or a re-written message. The shapes, from
 * gemini-cli's packages/core/src: `<tool_output_masked>…` (services/
 * toolOutputMaskingService.ts, `MASKING_INDICATOR_TAG`), its earlier
 * `[Tool Output Masked]\n<tool_output_masked_guidance …>` (that service's
 * test snapshot), `[Observation Masked]\n<observation_masked_guidance …>`
 * (services/observationMaskingService.ts), and compression's
 * `Output too large. … For full output see: <file>` (utils/fileUtils.ts
 * formatTruncatedToolOutput, called by chatCompressionService.ts).
 */
const MASKED_OUTPUT =
  /^\s*(?:\[(?:Tool Output|Observation) Masked\]|<(?:tool_output_masked|observation_masked_guidance)[\s>]|Output too large\.[^\n]*For full output see: )/;

/**
 * The exit footer that ends a `run_shell_command` output: `Exit Code: N`
 * followed only by the other footer lines. gemini-cli's tools/shell.ts
 * writes `Output: …`, `Error: …`, `Exit Code: N` (only when non-zero),
 * `Signal: …`, `Background PIDs: …`, `Process Group PGID: …`; older builds
 * began with `Command:`/`Directory:` and wrote every line. An `Exit Code:`
 * line the command itself printed is not the footer.
 */
const SHELL_EXIT =
  /^Exit Code: (-?\d+)[ \t]*(?:\r?\n(?:Signal|Background PIDs|Process Group PGID): [^\n]*)*\s*(?![\s\S])/m;

/** One message as it stood when last written, and whether a rewind removed it. */
interface Entry {
  message: Json;
  locator: Locator;
  removed: boolean;
}

/** Session metadata gathered from the header, `$set` patches or the document. */
interface Meta {
  sessionId?: string;
  startTime?: unknown;
  lastUpdated?: unknown;
  summary?: string;
  kind?: string;
}

/** `…/tmp/<project>/chats/[<parent>/]<file>` → project id and parent, or undefined. */
function chatPlace(
  path: string,
): { project: string; parent?: string; dir: string } | undefined {
  const parts = segments(path);
  const chats = parts.lastIndexOf("chats");
  if (chats < 2 || parts[chats - 2] !== "tmp") return undefined;
  const depth = parts.length - chats - 1;
  if (depth !== 1 && depth !== 2) return undefined;
  const project = parts[chats - 1] as string;
  const lead = path.startsWith("/") ? "/" : "";
  const dir = lead + parts.slice(0, chats).join("/");
  if (depth === 2) return { project, parent: parts[chats + 1] as string, dir };
  return { project, dir };
}

function isChatPath(path: string): boolean {
  return (path.endsWith(".json") || path.endsWith(".jsonl")) &&
    chatPlace(path) !== undefined;
}

/** Text of a Gemini `PartListUnion`: a string, one part or a list of parts. */
function partsText(content: unknown): string {
  if (typeof content === "string") return content;
  const parts = Array.isArray(content) ? content : [content];
  const texts: string[] = [];
  for (const part of parts) {
    if (typeof part === "string") texts.push(part);
    else if (
      isObject(part) && part.thought !== true && typeof part.text === "string"
    ) {
      texts.push(part.text);
    }
  }
  return texts.join("");
}

/** Whether a message's content is a tool-response turn (holds a `functionResponse`). */
function isToolResponseTurn(content: unknown): boolean {
  return Array.isArray(content) &&
    content.some((part) => isObject(part) && isObject(part.functionResponse));
}

/**
 * A tool-response turn's function responses, each with its output: the
 * response's `output` (else `error`) and the text parts after it up to the
 * next response, which older builds sent beside the response for a
 * multi-part tool output (`read_many_files`).
 */
function responseGroups(
  parts: unknown[],
): Array<{ response: Json; text: string }> {
  const groups: Array<{ response: Json; texts: string[] }> = [];
  for (const part of parts) {
    if (!isObject(part)) continue;
    if (isObject(part.functionResponse)) {
      const inner = part.functionResponse.response;
      const out = isObject(inner) ? inner.output ?? inner.error : undefined;
      const texts = typeof out === "string"
        ? [out]
        : out === undefined
        ? []
        : [JSON.stringify(out)];
      groups.push({ response: part.functionResponse, texts });
    } else if (typeof part.text === "string" && part.thought !== true) {
      groups.at(-1)?.texts.push(part.text);
    }
  }
  return groups.map((g) => ({
    response: g.response,
    text: g.texts.join("\n"),
  }));
}

/** The call id a `functionResponse` part answers. */
function responseId(part: unknown): string | undefined {
  return isObject(part) && isObject(part.functionResponse)
    ? str(part.functionResponse.id)
    : undefined;
}

/**
 * A call's own `result` parts. The masking sync writes a tool-response turn's
 * whole part list into each call it answers, so when the list holds this
 * call's function response, only it and the parts up to the next response.
 */
function ownParts(call: Json): unknown[] {
  const parts = Array.isArray(call.result) ? call.result : [call.result];
  const id = str(call.id);
  const start = id === undefined
    ? -1
    : parts.findIndex((p) => responseId(p) === id);
  if (start === -1) return parts;
  let end = start + 1;
  while (end < parts.length && responseId(parts[end]) === undefined) end++;
  return parts.slice(start, end);
}

/** Output of a tool call's `result` (function responses), else its display. */
function resultText(call: Json): string {
  const parts = ownParts(call);
  const texts: string[] = [];
  for (const part of parts) {
    if (!isObject(part)) continue;
    const fr = part.functionResponse;
    if (isObject(fr) && isObject(fr.response)) {
      const out = fr.response.output ?? fr.response.error;
      if (typeof out === "string") texts.push(out);
      else if (out !== undefined) texts.push(JSON.stringify(out));
    } else if (typeof part.text === "string") {
      texts.push(part.text);
    }
  }
  if (texts.length > 0) return texts.join("\n");
  return typeof call.resultDisplay === "string" ? call.resultDisplay : "";
}

/** The project's working directory: `.project_root`, else `projects.json`. */
async function projectRoot(
  tmpDir: string,
  geminiDir: string,
  id: string,
): Promise<string | undefined> {
  try {
    const text = (await Deno.readTextFile(`${tmpDir}/.project_root`)).trim();
    if (text && text.length < 4096) return text;
  } catch {
    // Older builds do not write it.
  }
  const doc = await readJsonDocument(`${geminiDir}/projects.json`, 4 << 20);
  if (doc.ok && isObject(doc.value) && isObject(doc.value.projects)) {
    for (const [root, pid] of Object.entries(doc.value.projects)) {
      if (pid === id) return root;
    }
  }
  return undefined;
}

const HASH_DIR = /^[0-9a-f]{64}$/;
const ABSOLUTE_PATH = /(?:\/|[A-Za-z]:\\)[^\s"'`<>|*?]+/g;

/**
 * The project root behind a hashed tmp folder (Gemini names it by the
 * SHA-256 of the root path) when no file says it: the ancestor of a path the
 * chat mentions whose hash is the folder's name — verified, never guessed.
 */
function rootByHash(dirName: string, messages: unknown[]): string | undefined {
  if (!HASH_DIR.test(dirName)) return undefined;
  const tried = new Set<string>();
  const text = JSON.stringify(messages).replaceAll("\\\\", "\\");
  for (const m of text.matchAll(ABSOLUTE_PATH)) {
    const path = m[0];
    const sep = path.startsWith("/") ? "/" : "\\";
    const parts = path.split(sep);
    for (let i = parts.length - 1; i >= 1; i--) {
      const candidate = parts.slice(0, i + 1).join(sep);
      if (tried.has(candidate)) break;
      tried.add(candidate);
      if (sha256Hex(candidate) === dirName) return candidate;
    }
    if (tried.size > 2000) break;
  }
  return undefined;
}

function mergeMeta(meta: Meta, obj: Json): void {
  const id = str(obj.sessionId);
  if (id) meta.sessionId = id;
  if (obj.startTime !== undefined) meta.startTime = obj.startTime;
  if (obj.lastUpdated !== undefined) meta.lastUpdated = obj.lastUpdated;
  const summary = str(obj.summary);
  if (summary) meta.summary = summary;
  const kind = str(obj.kind);
  if (kind) meta.kind = kind;
}

/**
 * `next`, a later version of the message `prev`, with each tool result that
 * only masks the output `prev` held put back: the CLI hid it from the model
 * to save context, but the tool did print it.
 */
function unmasked(prev: Json, next: Json): Json {
  if (!Array.isArray(prev.toolCalls) || !Array.isArray(next.toolCalls)) {
    return next;
  }
  const before = new Map<string, Json>();
  for (const call of prev.toolCalls) {
    if (!isObject(call)) continue;
    const id = str(call.id);
    if (id !== undefined) before.set(id, call);
  }
  let changed = false;
  const calls = next.toolCalls.map((call) => {
    if (!isObject(call) || !MASKED_OUTPUT.test(resultText(call))) return call;
    const old = before.get(str(call.id) ?? "");
    if (!old) return call;
    const original = resultText(old);
    if (!original.trim() || MASKED_OUTPUT.test(original)) return call;
    changed = true;
    return { ...call, result: old.result };
  });
  return changed ? { ...next, toolCalls: calls } : next;
}

/** Replays a `.jsonl` chat log into its messages, rewound ones kept and flagged. */
class LogReplay {
  readonly meta: Meta = {};
  readonly entries: Entry[] = [];
  skipped = 0;
  /** Entries currently in the conversation, in order, and by message id. */
  #live: Entry[] = [];
  #byId = new Map<string, Entry>();

  line(obj: Json, locator: Locator): void {
    if (typeof obj.$rewindTo === "string") {
      const target = this.#byId.get(obj.$rewindTo);
      const cut = target ? this.#live.indexOf(target) : 0;
      for (const entry of this.#live.slice(cut)) {
        entry.removed = true;
        this.#byId.delete(entry.message.id as string);
      }
      this.#live.length = cut;
    } else if (isObject(obj.$set)) {
      mergeMeta(this.meta, obj.$set);
      if (Array.isArray(obj.$set.messages)) {
        // A history sync replaces the state; dropped turns were still said.
        const next: Entry[] = [];
        const byId = new Map<string, Entry>();
        for (const message of obj.$set.messages) {
          if (!isObject(message) || typeof message.id !== "string") continue;
          const entry = this.#upsert(message, locator);
          if (byId.has(message.id)) continue;
          byId.set(message.id, entry);
          next.push(entry);
        }
        this.#live = next;
        this.#byId = byId;
      }
    } else if (typeof obj.id === "string") {
      if (!this.#byId.has(obj.id)) {
        const entry = this.#upsert(obj, locator);
        this.#byId.set(obj.id, entry);
        this.#live.push(entry);
      } else {
        this.#upsert(obj, locator);
      }
    } else if (typeof obj.sessionId === "string") {
      mergeMeta(this.meta, obj);
    } else {
      this.skipped++;
    }
  }

  #upsert(message: Json, locator: Locator): Entry {
    const at = { ...locator, recordId: message.id as string };
    const known = this.#byId.get(message.id as string);
    if (known) {
      known.message = unmasked(known.message, message);
      known.locator = at;
      return known;
    }
    const entry: Entry = { message, locator: at, removed: false };
    this.entries.push(entry);
    return entry;
  }
}

/** Emits one message's records. */
function emitMessage(
  builder: SessionBuilder,
  tools: ToolRecorder,
  entry: Entry,
  flags: RecordFlags | undefined,
  state: EmitState,
): void {
  const m = entry.message;
  const time = parseTime(m.timestamp);
  const at = { locator: entry.locator, time, flags };
  const extra = flags ? { flags } : {};
  // Info lines (the CLI's notices) may stand between a block's warning and
  // the continuation it sends.
  if (m.type === "info") return;
  const blocked = state.blocked;
  delete state.blocked;
  if (m.type === "warning") {
    const warning = partsText(m.content).trim();
    if (warning.startsWith(AGENT_BLOCKED)) {
      state.blocked = warning.slice(AGENT_BLOCKED.length).trim();
    }
    return;
  }
  if (m.type === "user") {
    // Newer builds record each tool-response turn as a `user` message; what
    // it holds is the tools' output (each call's `result` has it), not words.
    if (isToolResponseTurn(m.content)) return;
    if (partsText(m.content).trim() === RETRY_PROMPT) return;
    if (
      blocked !== undefined && isHookContinuation(m, blocked, state.lastPrompt)
    ) {
      // The hook's words, kept as its output (as Claude Code's Stop hook
      // feedback is), not as the person's.
      builder.add(
        "tool-output",
        cleanSpeech(typedText(partsText(m.content))),
        { locator: entry.locator, time, tool: "hook", ...extra },
      );
      return;
    }
    const text = typedText(partsText(m.displayContent ?? m.content));
    if (shellModeTurn(tools, text, at)) return;
    if (SETUP_CONTEXT.test(text)) {
      const m = SETUP_CWD.exec(text);
      const cwd = (m?.[1] ?? m?.[2])?.trim();
      if (cwd) state.setupCwd ??= cwd;
      state.afterSetup = true;
      state.lastSummary = false;
      return;
    }
    state.afterSetup = false;
    const snapshot = STATE_SNAPSHOT.exec(text)?.[1];
    if (snapshot !== undefined) {
      builder.add("summary", snapshot, {
        locator: entry.locator,
        time,
        ...extra,
      });
      state.lastSummary = true;
      return;
    }
    const shown = cleanSpeech(text);
    state.lastPrompt = {
      shown,
      sent: cleanSpeech(typedText(partsText(m.content))),
    };
    builder.add("user", shown, {
      locator: entry.locator,
      time,
      ...extra,
    });
    state.lastSummary = false;
    return;
  }
  if (m.type === "error") {
    // The CLI's error line (an API failure, a command that could not run):
    // nothing was said, but it is why the turn failed. Kept as error output,
    // of the model call when it is an `[API Error: …]`.
    const text = partsText(m.content).trim();
    builder.add("tool-output", text, {
      locator: entry.locator,
      time,
      tool: text.startsWith("[API Error") ? "model" : "gemini-cli",
      flags: { ...flags, isError: true },
    });
    return;
  }
  if (m.type !== "gemini" && m.type !== "model") return;
  const text = cleanSpeech(partsText(m.content));
  const stock = (state.lastSummary && text === COMPRESSION_ACK) ||
    (state.afterSetup && text === SETUP_ACK) ||
    text === INTERRUPTED_PLACEHOLDER;
  state.lastSummary = false;
  state.afterSetup = false;
  if (!stock) {
    builder.add("assistant", text, { locator: entry.locator, time, ...extra });
  }
  if (!Array.isArray(m.toolCalls)) return;
  tools.newMessage();
  for (const call of m.toolCalls) {
    if (!isObject(call)) continue;
    const name = str(call.name);
    if (!name) continue;
    const id = str(call.id);
    const callAt = { ...at, time: parseTime(call.timestamp) ?? time };
    tools.call(id, name, call.args, callAt);
    if (call.result === undefined && call.resultDisplay === undefined) continue;
    toolResult(
      tools,
      { id, name },
      resultText(call),
      call.status === "error" || call.status === "cancelled",
      callAt,
    );
  }
}

/**
 * Records a tool result. A shell run's footer, not an `Exit Code:` line the
 * command printed, settles its exit code, and a non-zero one fails it.
 */
function toolResult(
  tools: ToolRecorder,
  call: { id: string | undefined; name: string | undefined },
  text: string,
  failed: boolean,
  at: ToolEventAt,
): void {
  const name = call.name ?? tools.toolOf(call.id);
  if (name === undefined || !DIALECT.shell.has(name)) {
    tools.result(call.id, text, failed, at, undefined, call.name);
    return;
  }
  const exit = SHELL_EXIT.exec(text);
  const code = exit ? Number(exit[1]) : failed ? undefined : 0;
  tools.result(call.id, text, failed || (code ?? 0) !== 0, at, code, name);
}

/** Options for {@linkcode parseGeminiChat}. */
export interface GeminiParseOptions extends ParseOptions {
  /** Lines longer than this are skipped (`.jsonl`). Default 8 MiB. */
  maxLineBytes?: number;
  /** Documents larger than this are skipped (`.json`). Default 256 MiB. */
  maxDocumentBytes?: number;
}

/**
 * Parses one Gemini CLI chat file, `.json` or `.jsonl`. A `.json` whose
 * `.jsonl` twin exists yields nothing (the twin supersedes it). Messages a
 * `$rewindTo` removed stay, covered by a `rewind` mark.
 *
 * @param path The chat file.
 * @param options Sub-agent switch and size caps.
 * @returns The session, if the file held one.
 * @example
 * ```ts
 * import { parseGeminiChat } from "./gemini.ts";
 * import { equal } from "node:assert/strict";
 * const dir = await Deno.makeTempDir();
 * await Deno.mkdir(`${dir}/tmp/p1/chats`, { recursive: true });
 * const path = `${dir}/tmp/p1/chats/session-1.jsonl`;
 * await Deno.writeTextFile(path, [
 *   { sessionId: "s1", projectHash: "p1", startTime: "2026-01-01T00:00:00Z" },
 *   { id: "m1", type: "user", content: "fix the test", timestamp: "2026-01-01T00:00:01Z" },
 *   { id: "m2", type: "gemini", content: "Done.", timestamp: "2026-01-01T00:00:02Z" },
 * ].map((l) => JSON.stringify(l)).join("\n") + "\n");
 * const source = { home: dir, env: {}, os: "linux" };
 * const { sessions } = await parseGeminiChat(path, { includeSubagents: true, source });
 * equal(sessions[0]?.records.length, 2);
 * ```
 */
export async function parseGeminiChat(
  path: string,
  options: GeminiParseOptions,
): Promise<ParseResult> {
  const place = chatPlace(path);
  if (place?.parent !== undefined && !options.includeSubagents) {
    return { sessions: [], skipped: 0 };
  }
  let meta: Meta = {};
  let entries: Entry[] = [];
  let skipped = 0;
  if (path.endsWith(".jsonl")) {
    const replay = new LogReplay();
    const walked = await walkJsonLines(
      path,
      options.maxLineBytes === undefined
        ? {}
        : { maxLineBytes: options.maxLineBytes },
      (obj, locator) => replay.line(obj, locator),
    );
    meta = replay.meta;
    entries = replay.entries;
    skipped = walked.skipped + replay.skipped;
  } else {
    if (await isRegularFile(`${path}l`)) return { sessions: [], skipped: 0 };
    const doc = await readJsonDocument(path, options.maxDocumentBytes);
    if (!doc.ok) {
      return { sessions: [], skipped: doc.reason === "missing" ? 0 : 1 };
    }
    if (!isObject(doc.value)) return { sessions: [], skipped: 1 };
    mergeMeta(meta, doc.value);
    const messages = Array.isArray(doc.value.messages)
      ? doc.value.messages
      : [];
    for (const [i, message] of messages.entries()) {
      if (!isObject(message)) {
        skipped++;
        continue;
      }
      const recordId = str(message.id) ?? `#${i}`;
      entries.push({ message, locator: { path, recordId }, removed: false });
    }
  }
  if (meta.sessionId === undefined && entries.length === 0) {
    return { sessions: [], skipped };
  }
  const subagent = place?.parent !== undefined || meta.kind === "subagent";
  if (subagent && !options.includeSubagents) return { sessions: [], skipped };
  const stem = (segments(path).at(-1) ?? "").replace(/\.jsonl?$/, "");
  const builder = new SessionBuilder({
    harness: HARNESS_ID,
    id: meta.sessionId ?? stem,
    path,
    project: place?.project,
    parent: subagent ? place?.parent : undefined,
    lineage: subagent && place?.parent ? "subagent" : undefined,
  });
  const flags: RecordFlags | undefined = subagent
    ? { subagent: true }
    : undefined;
  const tools = new ToolRecorder(builder, DIALECT);
  const state: EmitState = { lastSummary: false, afterSetup: false };
  const runs = new MarkRuns((from, to) => builder.mark("rewind", from, to));
  for (const entry of entries) {
    runs.at(builder.nextSeq, entry.removed);
    emitMessage(builder, tools, entry, flags, state);
  }
  runs.end(builder.nextSeq);
  if (place) {
    const root = await projectRoot(
      place.dir,
      dirname(dirname(place.dir)),
      place.project,
    ) ?? state.setupCwd ??
      rootByHash(place.project, entries.map((e) => e.message));
    if (root) builder.setCwd(root);
  }
  builder.touch(parseTime(meta.startTime));
  builder.touch(parseTime(meta.lastUpdated));
  if (meta.summary) builder.setTitle(meta.summary);
  const session = builder.build();
  return {
    sessions: session.records.length > 0 ? [session] : [],
    skipped,
  };
}

/** `…/tmp/<project>/logs.json`, the prompt log every build keeps beside chats/. */
function isPromptLogPath(path: string): boolean {
  const parts = segments(path);
  return parts.at(-1) === "logs.json" && parts.at(-3) === "tmp";
}

/**
 * Parses `tmp/<project>/logs.json`, the array of typed prompts
 * (`{sessionId, messageId, type:"user", message, timestamp}`) Gemini CLI
 * keeps per project. Builds before chat recording (mid-2025) left nothing
 * else, so each session id becomes a user-only session; the index shows it
 * only while no chat of that id exists.
 *
 * @param path The logs.json file.
 * @returns One session per session id with a prompt.
 */
async function parsePromptLog(path: string): Promise<ParseResult> {
  const doc = await readJsonDocument(path);
  if (!doc.ok) {
    return { sessions: [], skipped: doc.reason === "missing" ? 0 : 1 };
  }
  if (!Array.isArray(doc.value)) return { sessions: [], skipped: 1 };
  const parts = segments(path);
  const project = parts.at(-2) as string;
  const tmpDir = dirname(path);
  const root = await projectRoot(tmpDir, dirname(dirname(tmpDir)), project);
  const builders = new Map<string, SessionBuilder>();
  let skipped = 0;
  for (const [i, entry] of doc.value.entries()) {
    const id = isObject(entry) ? str(entry.sessionId) : undefined;
    if (!isObject(entry) || !id || typeof entry.message !== "string") {
      skipped++;
      continue;
    }
    if (entry.type !== "user") continue;
    const text = typedText(entry.message);
    // A bare slash command (`/quit`, `/stats`) drives the CLI; nobody said it.
    if (/^\/[\w:.-]+$/.test(text)) continue;
    let builder = builders.get(id);
    if (!builder) {
      builder = new SessionBuilder({ harness: HARNESS_ID, id, path, project });
      if (root) builder.setCwd(root);
      builders.set(id, builder);
    }
    const messageId = entry.messageId;
    builder.add("user", cleanSpeech(text), {
      time: parseTime(entry.timestamp),
      locator: {
        path,
        recordId: typeof messageId === "number" || typeof messageId === "string"
          ? `${id}:${messageId}`
          : `#${i}`,
      },
    });
  }
  return {
    sessions: [...builders.values()].map((b) => b.build()).filter((s) =>
      s.records.length > 0
    ),
    skipped,
  };
}

/** `…/tmp/<project>/checkpoint-<tag>.json`, what `/chat save <tag>` writes. */
function isCheckpointPath(path: string): boolean {
  const parts = segments(path);
  const name = parts.at(-1) ?? "";
  return parts.at(-3) === "tmp" && name.startsWith("checkpoint-") &&
    name.endsWith(".json");
}

/** Whether a chat file of the project already holds `text` (JSON-escaped). */
async function chatsHold(chatsDir: string, text: string): Promise<boolean> {
  const needle = JSON.stringify(text).slice(1, -1);
  for (const path of walkFiles(chatsDir, isChatPath, { maxDepth: 1 })) {
    try {
      if ((await Deno.stat(path)).size > 256 << 20) continue;
      if ((await Deno.readTextFile(path)).includes(needle)) return true;
    } catch {
      continue;
    }
  }
  return false;
}

/**
 * Parses a `/chat save` checkpoint, `tmp/<project>/checkpoint-<tag>.json`:
 * the model-facing history (`Content[]`, bare in older builds, else under
 * `history`). Since chat recording began the chat file holds the same turns,
 * so a checkpoint whose first typed prompt some chat of its project holds
 * yields nothing; the rest (builds before chat recording, deleted chats) are
 * sessions of their own, titled by the tag, timed by the file.
 *
 * @param path The checkpoint file.
 * @returns The session, unless a chat already has it.
 */
async function parseCheckpoint(path: string): Promise<ParseResult> {
  const doc = await readJsonDocument(path);
  if (!doc.ok) {
    return { sessions: [], skipped: doc.reason === "missing" ? 0 : 1 };
  }
  const history = Array.isArray(doc.value)
    ? doc.value
    : isObject(doc.value) && Array.isArray(doc.value.history)
    ? doc.value.history
    : undefined;
  if (!history) return { sessions: [], skipped: 1 };
  const parts = segments(path);
  const project = parts.at(-2) as string;
  const tag = (parts.at(-1) as string).replace(/^checkpoint-|\.json$/g, "");
  const tmpDir = dirname(path);
  const builder = new SessionBuilder({
    harness: HARNESS_ID,
    id: `${project}/checkpoint-${tag}`,
    path,
    project,
  });
  let cwd = await projectRoot(tmpDir, dirname(dirname(tmpDir)), project);
  const tools = new ToolRecorder(builder, DIALECT);
  let firstPrompt: string | undefined;
  let afterSetup = false;
  let wasSummary = false;
  let skipped = 0;
  for (const [i, content] of history.entries()) {
    const afterSummary = wasSummary;
    wasSummary = false;
    if (!isObject(content) || !Array.isArray(content.parts)) {
      skipped++;
      continue;
    }
    const locator: Locator = { path, recordId: `#${i}` };
    const text = partsText(content.parts).trim();
    if (content.role === "user" && SETUP_CONTEXT.test(text)) {
      const m = SETUP_CWD.exec(text);
      cwd ??= (m?.[1] ?? m?.[2])?.trim();
      afterSetup = true;
      continue;
    }
    if (content.role === "user" && text === RETRY_PROMPT) continue;
    if (
      content.role === "user" &&
      shellModeTurn(tools, text, { locator, time: undefined })
    ) {
      afterSetup = false;
      continue;
    }
    if (content.role === "model") {
      tools.newMessage();
      const stock = (afterSetup && text === SETUP_ACK) ||
        (afterSummary && text === COMPRESSION_ACK);
      if (!stock) {
        builder.add("assistant", cleanSpeech(text), { locator });
      }
      for (const part of content.parts) {
        const call = isObject(part) ? part.functionCall : undefined;
        if (!isObject(call) || !str(call.name)) continue;
        tools.call(str(call.id), str(call.name) as string, call.args, {
          locator,
          time: undefined,
        });
      }
    } else if (content.role === "user" && isToolResponseTurn(content.parts)) {
      for (const answer of responseGroups(content.parts)) {
        const { response, text: output } = answer;
        toolResult(
          tools,
          { id: str(response.id), name: str(response.name) },
          output,
          isObject(response.response) && response.response.error !== undefined,
          { locator, time: undefined },
        );
      }
    } else if (content.role === "user") {
      const typed = cleanSpeech(typedText(text));
      if (typed && firstPrompt === undefined) firstPrompt = typed;
      const snapshot = STATE_SNAPSHOT.exec(typed)?.[1];
      if (snapshot !== undefined) {
        builder.add("summary", snapshot, { locator });
        wasSummary = true;
      } else builder.add("user", typed, { locator });
    } else skipped++;
    afterSetup = false;
  }
  if (firstPrompt && await chatsHold(`${tmpDir}/chats`, firstPrompt)) {
    return { sessions: [], skipped };
  }
  if (cwd) builder.setCwd(cwd);
  let title = tag;
  try {
    title = decodeURIComponent(tag);
  } catch {
    // An old raw tag with a stray `%`: keep it as written.
  }
  builder.setTitle(title);
  try {
    builder.touch((await Deno.stat(path)).mtime?.getTime());
  } catch {
    // The file vanished after reading: keep what was read.
  }
  const session = builder.build();
  return { sessions: session.records.length > 0 ? [session] : [], skipped };
}

/** The `.gemini` directories: `DEJA_GEMINI_ROOT`, else `$GEMINI_CLI_HOME/.gemini`, else `~/.gemini`. */
function geminiRoots(source: SourceEnv): string[] {
  if (source.env.DEJA_GEMINI_ROOT) return [source.env.DEJA_GEMINI_ROOT];
  const home = source.env.GEMINI_CLI_HOME || source.home;
  return [`${home.replace(/[\\/]+$/, "")}/.gemini`];
}

const promptLogKind: FileKind = {
  id: "history",
  appendOnly: false,
  match: isPromptLogPath,
  parse: (path) => parsePromptLog(path),
};

const checkpointKind: FileKind = {
  id: "checkpoint",
  appendOnly: false,
  match: isCheckpointPath,
  parse: (path) => parseCheckpoint(path),
};

const chatKind: FileKind = {
  id: "chat",
  appendOnly: false,
  match: isChatPath,
  parse: (path, options) => parseGeminiChat(path, options),
};

/**
 * The Gemini CLI harness: JSON and JSONL chats under `<root>/tmp/<project>/chats`.
 *
 * @example
 * ```ts
 * import { gemini } from "./gemini.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(gemini.roots({ home: "/h", env: {}, os: "linux" }), ["/h/.gemini"]);
 * ```
 */
export const gemini: Harness = {
  id: HARNESS_ID,
  name: "Gemini CLI",
  format:
    "JSON document or JSONL append log per chat in tmp/<project>/chats/ ($set patches, $rewindTo cuts); the prompt log tmp/<project>/logs.json; /chat save checkpoints (Content[] history)",
  envOverrides: ["GEMINI_CLI_HOME", "DEJA_GEMINI_ROOT"],
  roots: geminiRoots,
  discover(source: SourceEnv): Promise<string[]> {
    return Promise.resolve(
      geminiRoots(source).flatMap((root) =>
        walkFiles(
          `${root}/tmp`,
          (p) => isChatPath(p) || isPromptLogPath(p) || isCheckpointPath(p),
          { maxDepth: 4 },
        )
      ),
    );
  },
  kinds: [chatKind, promptLogKind, checkpointKind],
  // 2: `/chat save` checkpoints no chat holds are read.
  // 3: output a masking sync replaced keeps its original; error lines are
  // error output; a non-zero shell exit footer fails the output.
  // 4: the setup context a history sync writes into a chat, its stock
  // acknowledgement, tool-response turns recorded as user messages and the
  // interrupted-stream placeholder are not speech; a checkpoint's text
  // sent beside a function response is that tool's output;
  // the setup context's workspace folder is the working directory.
  // 5: hook context (`<hook_context>`) and the IDE companion's editor
  // context are not what the person typed.
  // 6: the CLI's own `System: Please continue.` after an invalid stream is
  // not speech.
  // 7: `read_many_files` calls of current builds (`include`) name their files.
  // 8: a shell-mode (`!command`) turn is the command the person ran and its
  // output, not speech.
  // 9: a compression summary the model opened with its scratchpad is a
  // summary (the snapshot alone), not a user turn.
  // 10: a checkpoint's stock acknowledgement of a compression summary is not
  // speech.
  // 11: the reason an AfterAgent hook's block sends as a new turn (after the
  // CLI's `Agent execution blocked:` warning) is the hook's output, not a prompt.
  // 12: a command's output is an error when it exited non-zero, whatever
  // status the harness gave the result (shared ToolRecorder).
  revision: 12,
  docs: {
    store:
      "`${GEMINI_CLI_HOME:-~}/.gemini/tmp/<project-hash-or-slug>/chats/session-*.json|.jsonl`, sub-agents in `chats/<parent-session>/<id>.jsonl`, typed prompts in `tmp/<project>/logs.json`, `/chat save` checkpoints `tmp/<project>/checkpoint-<tag>.json` (same layout on macOS, Linux and Windows; `DEJA_GEMINI_ROOT` names the `.gemini` directory)",
    extracts:
      "`/chat save` checkpoints whose first prompt no chat of the project holds (builds before chat recording, deleted chats) as sessions titled by the tag (setup context and the stock acknowledgements of it and of a compression summary dropped, its working directory kept, tool calls and responses as for chats, text sent beside a function response as that tool's output, no per-turn times); prompts from logs.json as user-only sessions, shown while no chat of that session exists (builds before chat recording kept nothing else); user turns (the typed `displayContent`, without at-command file contents or hook context), assistant text, tool calls as commands (`run_shell_command`, exit code from its `Exit Code:` footer), files (`read_file`, `write_file`, `read_many_files` `paths` or `include`, `replace`), edits (`replace` old_string), tool output (each call's own function response) with isError for error/cancelled calls and for shell runs whose `Exit Code:` footer is non-zero, the original output where a later `$set` message list or re-written message holds only the CLI's masking or compression placeholder for it (`<tool_output_masked>`, `[Tool Output Masked]`, `[Observation Masked]`, `Output too large. … For full output see:`), shell-mode turns (`I ran the following shell command: …`, what `!command` puts in history) as a `run_shell_command` command (no exit code: the turn names none) and its tool-output, the reason a blocking AfterAgent hook makes the CLI send as a new user turn as tool-output (tool `hook`) — told by the interactive CLI's `Agent execution blocked: …` warning just before it (info lines aside) and either the turn holding the reason the warning quotes or its carrying the previous prompt's `displayContent` over other text (a BeforeAgent block's warning is followed by the person's own next prompt, kept) —, error lines (API failures, commands the CLI could not run) as error tool-output (tool `model` for `[API Error: …]`, else `gemini-cli`), compression snapshots as summaries (the `<state_snapshot>` alone, without the `<scratchpad>` reasoning the model may write before it), sub-agent chats with their parent, `$rewindTo` cuts as `rewind` marks; the stored session summary becomes the title; the project from `.project_root` or `projects.json`, else the workspace folder the setup context names, else the path the chat mentions whose SHA-256 names the tmp folder, else the folder's name",
    omits:
      "thoughts (model reasoning), info/warning lines (the CLI's own notices: model fallback, cancellations, compression figures; a failure comes as an error line), token counts, the stock acknowledgement after a compression summary; the setup context (`<session_context>This is the Gemini CLI…`) newer builds sync into a chat as a user message, with its stock acknowledgement, the tool-response turns they record as user messages (function responses and the text beside them; each call's `result` holds the output), and the `[The previous response was interrupted before it completed.]` turn the CLI writes for a failed stream; hook context (`<hook_context>…</hook_context>`, a BeforeAgent hook's after a prompt, a SessionStart hook's as its own turn or before a non-interactive prompt) and the IDE companion's editor-context turns (`Here is the user's editor context as a JSON object…`, `Here is a summary of changes in the user's editor context…`), the `System: Please continue.` turn the CLI sends after an invalid stream (a plain `Please continue.`, the next-speaker check's, is recorded exactly as the same typed prompt would be, and an AfterAgent hook's reason with no warning before it — non-interactive runs, checkpoints — likewise: both stay user turns); a `.json` chat whose `.jsonl` twin exists (the twin is its continuation); `/chat save` checkpoints a chat already holds (copies of its history), `--checkpointing` restore points under `checkpoints/`, bare slash commands in logs.json",
    verified:
      "real sample from Gemini CLI (session-2026-01-30 `.json`, 1 user turn, 62 tool calls with error/success statuses); the `.jsonl` log, `$set`, `$rewindTo` and sub-agent layout from gemini-cli's chatRecordingService source, the masking placeholders from its toolOutputMaskingService/observationMaskingService and compression truncation, the shell footer from tools/shell.ts, the bootstrapped setup context and interrupted-stream placeholder from geminiChat.ts and utils/environmentContext.ts, hook and editor context from core/client.ts, an AfterAgent hook's continuation from core/client.ts and geminiChat.ts (`displayContent` recorded when it differs) and its warning from cli ui/hooks/useGeminiStream.ts and useHistoryManager.ts (warnings recorded in the chat) (no real `.jsonl` sample)",
  },
};
