/**
 * Qwen Code: one JSONL chat per session under
 * `${QWEN_HOME:-~/.qwen}/projects/<sanitized-cwd>/chats/<session>.jsonl`.
 * Every line is a record of a `uuid`/`parentUuid` tree: the conversation is
 * the chain from the last record back to the root, so records a rewind or a
 * branch left behind are off that chain and superseded. Background
 * sub-agents write their own transcript of the same records beside it, in
 * `projects/<sanitized-cwd>/subagents/<session>/agent-<id>.jsonl`, with an
 * `agent-<id>.meta.json` sidecar (type and description).
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
import { parseGeminiChat } from "./gemini.ts";
import { cleanSpeech } from "../core/text.ts";
import { parseTime } from "../core/time.ts";
import type { Lineage, Locator, RecordFlags } from "../core/types.ts";
import { SessionBuilder } from "./_builder.ts";
import { walkJsonLines } from "./_jsonl_walk.ts";
import { readJsonDocument } from "./_json_doc.ts";
import { segments } from "./_paths.ts";
import { MarkRuns, offChain, type TreeNode } from "./_tree_chain.ts";
import { isObject, type Json, str } from "./_json.ts";
import { type ToolDialect, ToolRecorder } from "./_tool_records.ts";

const HARNESS_ID = "qwen";

const DIALECT: ToolDialect = {
  shell: new Set(["run_shell_command"]),
  commandKeys: ["command"],
  pathTools: new Set(["read_file", "write_file", "read_many_files"]),
  pathKeys: ["file_path", "absolute_path", "path"],
  pathListKeys: ["paths"],
  editTools: new Set(["edit", "replace"]),
  oldKeys: ["old_string"],
};

/** At-command file contents Qwen appends to the typed prompt. */
const REFERENCED_FILES = "\n--- Content from referenced files ---";

/** User-typed records that are not what a person typed. */
const NOT_TYPED_SUBTYPES = new Set([
  "notification",
  "cron",
  "background_task_completed",
  "agent_launch_prompt",
  "agent_bootstrap",
  "goal_runtime",
  // Another workspace agent's message, written under the user role.
  "agent_message",
]);

/** Multi-agent records that carry the author's `agentId` yet sit on the main chain. */
const MAIN_CHAIN_AGENT_SUBTYPES = new Set(["agent_mention", "agent_message"]);

/** User records whose payload holds what the person typed (`displayText`). */
const DISPLAY_TEXT_SUBTYPES = new Set([undefined, "mid_turn_user_message"]);

/** Provenances of records a person wrote (or unlabelled ones). */
const PERSON_PROVENANCE = new Set(["real_user"]);

function isChatPath(path: string): boolean {
  const parts = segments(path);
  const chats = parts.lastIndexOf("chats");
  return path.endsWith(".jsonl") && chats >= 2 &&
    parts[chats - 2] === "projects";
}

/** `projects/<cwd>/subagents/<session>/agent-<id>.jsonl` (a background sub-agent). */
function isSubagentPath(path: string): boolean {
  const parts = segments(path);
  const name = parts.at(-1) ?? "";
  return /^agent-.+\.jsonl$/.test(name) && parts.at(-3) === "subagents" &&
    parts.at(-5) === "projects";
}

function isSide(obj: Json): boolean {
  if (obj.isSidechain === true) return true;
  // `agent_message` names its author agent but is a main-chain record.
  const subtype = str(obj.subtype);
  return str(obj.agentId) !== undefined &&
    !(subtype && MAIN_CHAIN_AGENT_SUBTYPES.has(subtype));
}

/** What a user record's person typed: the payload's `displayText`, else the parts. */
function typedText(obj: Json, message: Json): string {
  const payload = isObject(obj.systemPayload) ? obj.systemPayload : undefined;
  const display = payload ? str(payload.displayText) : undefined;
  // Newer builds send hook context and expanded files to the model in the
  // parts and keep the person's own words in the payload.
  if (display !== undefined && DISPLAY_TEXT_SUBTYPES.has(str(obj.subtype))) {
    return display;
  }
  const raw = partsText(message.parts, isHookContext);
  const cut = raw.indexOf(REFERENCED_FILES);
  return cut === -1 ? raw : raw.slice(0, cut);
}

/**
 * A part holding only what a UserPromptSubmit hook added: Qwen wraps it in
 * its own tag and sends it as a separate part of the user's message.
 */
function isHookContext(text: string): boolean {
  const trimmed = text.trim();
  return trimmed.startsWith("<qwen:user-prompt-submit-context>") &&
    trimmed.endsWith("</qwen:user-prompt-submit-context>");
}

/**
 * Text parts of a Gemini-style `Content`, thoughts (and the parts `skip`
 * picks) left out.
 */
function partsText(
  parts: unknown,
  skip: (text: string) => boolean = () => false,
): string {
  if (!Array.isArray(parts)) return "";
  const texts: string[] = [];
  for (const part of parts) {
    if (
      isObject(part) && part.thought !== true &&
      typeof part.text === "string" && !skip(part.text)
    ) {
      texts.push(part.text);
    }
  }
  return texts.join("");
}

function responseText(response: unknown): { text: string; error: boolean } {
  if (!isObject(response)) return { text: "", error: false };
  const value = response.output ?? response.error ?? response.content;
  const error = response.error !== undefined && response.output === undefined;
  if (typeof value === "string") return { text: value, error };
  if (value === undefined) return { text: "", error };
  return { text: JSON.stringify(value), error };
}

/** Builds the main session and any side chains of one chat file. */
class ChatReader {
  readonly #path: string;
  readonly #includeSubagents: boolean;
  readonly #off: Set<number>;
  readonly main: SessionBuilder;
  readonly #mainTools: ToolRecorder;
  readonly #sides = new Map<
    string,
    { builder: SessionBuilder; tools: ToolRecorder }
  >();
  #sessionId: string | undefined;
  #cwdSet = false;
  #seenUuids = new Set<string>();
  /**
   * A slash command whose prompt went to the model (`sentToModel`): the next
   * user record is its expanded template, not what the person typed.
   */
  #submitted: string | undefined;
  /** The model failure each session kept last this turn (retries repeat it). */
  #failures = new WeakMap<SessionBuilder, string>();
  readonly #runs: MarkRuns;
  #index = 0;
  skipped = 0;

  constructor(path: string, includeSubagents: boolean, off: Set<number>) {
    this.#path = path;
    this.#includeSubagents = includeSubagents;
    this.#off = off;
    const stem = (segments(path).at(-1) ?? "").replace(/\.jsonl$/, "");
    this.main = new SessionBuilder({ harness: HARNESS_ID, id: stem, path });
    this.#mainTools = new ToolRecorder(this.main, DIALECT);
    this.#runs = new MarkRuns((from, to) => this.main.mark("branch", from, to));
  }

  line(obj: Json, base: Locator): void {
    const index = this.#index++;
    const uuid = str(obj.uuid);
    if (uuid) {
      // A record written twice (a resume re-appends) counts once.
      if (this.#seenUuids.has(uuid)) return;
      this.#seenUuids.add(uuid);
    }
    const sessionId = str(obj.sessionId);
    if (sessionId && this.#sessionId === undefined) {
      this.#sessionId = sessionId;
      this.main.setId(sessionId);
    }
    const cwd = str(obj.cwd);
    if (cwd && !this.#cwdSet) {
      this.#cwdSet = true;
      this.main.setCwd(cwd);
    }
    if (isObject(obj.forkedFrom)) {
      const from = str(obj.forkedFrom.sessionId);
      if (from && from !== this.#sessionId) this.main.setParent(from, "fork");
    }
    const locator: Locator = uuid ? { ...base, recordId: uuid } : base;
    if (isSide(obj)) {
      if (this.#includeSubagents) this.#side(obj, locator);
      return;
    }
    this.#runs.at(this.main.nextSeq, this.#off.has(index));
    this.#record(obj, locator, this.main, this.#mainTools, undefined);
  }

  finish(): void {
    this.#runs.end(this.main.nextSeq);
  }

  sides(): SessionBuilder[] {
    return [...this.#sides.values()].map((s) => s.builder);
  }

  #side(obj: Json, locator: Locator): void {
    const agent = str(obj.agentId) ?? "sidechain";
    let side = this.#sides.get(agent);
    if (!side) {
      const parent = this.#sessionId ?? str(obj.sessionId);
      const lineage: Lineage = "sidechain";
      const builder = new SessionBuilder({
        harness: HARNESS_ID,
        id: `${parent ?? "qwen"}:${agent}`,
        path: this.#path,
        cwd: str(obj.cwd),
        parent,
        lineage: parent ? lineage : undefined,
      });
      side = { builder, tools: new ToolRecorder(builder, DIALECT) };
      this.#sides.set(agent, side);
    }
    this.#record(obj, locator, side.builder, side.tools, { subagent: true });
  }

  #record(
    obj: Json,
    locator: Locator,
    builder: SessionBuilder,
    tools: ToolRecorder,
    flags: RecordFlags | undefined,
  ): void {
    const time = parseTime(obj.timestamp);
    const extra = flags ? { flags } : {};
    const message = isObject(obj.message) ? obj.message : {};
    const type = obj.type;
    if (type === "user") {
      const subtype = str(obj.subtype);
      const provenance = str(obj.provenance);
      if (subtype && NOT_TYPED_SUBTYPES.has(subtype)) return;
      if (provenance && !PERSON_PROVENANCE.has(provenance)) return;
      const command = builder === this.main && subtype === undefined
        ? this.#submitted
        : undefined;
      if (builder === this.main) this.#submitted = undefined;
      this.#failures.delete(builder);
      // The person typed the command (`/init`, a custom command), not the
      // template it expanded to.
      const text = command ?? cleanSpeech(typedText(obj, message));
      builder.add("user", text, {
        locator,
        time,
        ...extra,
      });
    } else if (type === "assistant") {
      if (builder === this.main) this.#submitted = undefined;
      builder.add("assistant", cleanSpeech(partsText(message.parts)), {
        locator,
        time,
        ...extra,
      });
      tools.newMessage();
      for (const part of Array.isArray(message.parts) ? message.parts : []) {
        if (!isObject(part) || !isObject(part.functionCall)) continue;
        const call = part.functionCall;
        const name = str(call.name);
        if (name) {
          tools.call(str(call.id), name, call.args, { locator, time, flags });
        }
      }
    } else if (type === "tool_result") {
      const status = isObject(obj.toolCallResult)
        ? obj.toolCallResult.status
        : undefined;
      for (const part of Array.isArray(message.parts) ? message.parts : []) {
        if (!isObject(part) || !isObject(part.functionResponse)) continue;
        const fr = part.functionResponse;
        const { text, error } = responseText(fr.response);
        // A shell command that exited non-zero is a success to the tool
        // (status and response say so); the recorder reads its `Exit Code:`
        // footer and calls it a failure.
        tools.result(
          str(fr.id),
          text,
          error || status === "error" || status === "cancelled",
          { locator, time, flags },
          undefined,
          str(fr.name),
        );
      }
    } else if (type === "system") {
      this.#system(obj, locator, time, builder, extra);
    } else {
      this.skipped++;
    }
  }

  /** A failed model request as error output, once while it repeats. */
  #failure(
    builder: SessionBuilder,
    message: string,
    locator: Locator,
    time: number | undefined,
    extra: { flags?: RecordFlags },
  ): void {
    if (this.#failures.get(builder) === message) return;
    this.#failures.set(builder, message);
    builder.add("tool-output", message, {
      locator,
      time,
      tool: "model",
      flags: { ...extra.flags, isError: true },
    });
  }

  #system(
    obj: Json,
    locator: Locator,
    time: number | undefined,
    builder: SessionBuilder,
    extra: { flags?: RecordFlags },
  ): void {
    const payload = isObject(obj.systemPayload) ? obj.systemPayload : {};
    switch (obj.subtype) {
      case "chat_compression": {
        const history = Array.isArray(payload.compressedHistory)
          ? payload.compressedHistory
          : [];
        const first = history.find((c) => isObject(c) && c.role === "user");
        const text = isObject(first) ? partsText(first.parts) : "";
        builder.add("summary", text, { locator, time, ...extra });
        break;
      }
      case "custom_title": {
        const title = str(payload.customTitle);
        if (title) builder.setTitle(title);
        break;
      }
      case "ui_telemetry": {
        // A model request that failed (rate limit, quota, a broken stream);
        // the person stopping it is no failure.
        const event = isObject(payload.uiEvent) ? payload.uiEvent : {};
        const name = str(event["event.name"]) ?? "";
        if (
          name.endsWith(".api_error") &&
          !/Abort/i.test(str(event.error_type) ?? "")
        ) {
          const message = str(event.error_message) ?? str(event.error);
          this.#failure(builder, message ?? "API error", locator, time, extra);
        } else builder.touch(time);
        break;
      }
      case "turn_result": {
        // A turn that ended with an error (newer builds).
        const error = isObject(payload.error) ? payload.error : {};
        const message = str(error.message);
        if (payload.state === "error" && message) {
          this.#failure(builder, message, locator, time, extra);
        } else builder.touch(time);
        break;
      }
      case "slash_command": {
        if (builder !== this.main) break;
        const raw = str(payload.rawCommand);
        if (payload.phase === "invocation") {
          this.#submitted = payload.sentToModel === true && raw
            ? raw.trim()
            : undefined;
        }
        // What a built-in command printed (`/ide install` failing to set up
        // the editor companion): the tool's output, an error when it said so.
        const items = payload.phase === "result" &&
            Array.isArray(payload.outputHistoryItems)
          ? payload.outputHistoryItems.filter(isObject)
          : [];
        const printed = items.map((i) => str(i.text)?.trim() ?? "")
          .filter((t) => t !== "");
        if (raw && printed.length) {
          builder.add("tool-output", `${raw.trim()}\n${printed.join("\n")}`, {
            locator,
            time,
            tool: raw.trim().split(/\s+/, 1)[0],
            flags: {
              ...extra.flags,
              ...(items.some((i) => i.type === "error")
                ? { isError: true }
                : {}),
            },
          });
        } else builder.touch(time);
        break;
      }
      case "parent_session": {
        const parent = str(payload.parentSessionId);
        if (parent) builder.setParent(parent, "subagent");
        break;
      }
      default:
        // Telemetry, slash commands, snapshots: the tool's own bookkeeping.
        builder.touch(time);
    }
  }
}

/** Options for {@linkcode parseQwenChat}. */
export interface QwenParseOptions extends ParseOptions {
  /** Lines longer than this are skipped. Default 8 MiB. */
  maxLineBytes?: number;
}

/**
 * Parses one Qwen Code chat. Records off the active `parentUuid` chain are
 * covered by `branch` marks; sub-agent records (`isSidechain`/`agentId`)
 * become side sessions when sub-agents are included.
 *
 * @param path The chat file.
 * @param options Sub-agent switch and line cap.
 * @returns The session and its side chains.
 * @example
 * ```ts
 * import { parseQwenChat } from "./qwen.ts";
 * import { equal } from "node:assert/strict";
 * const dir = await Deno.makeTempDir();
 * await Deno.mkdir(`${dir}/projects/p/chats`, { recursive: true });
 * const path = `${dir}/projects/p/chats/s1.jsonl`;
 * await Deno.writeTextFile(path, JSON.stringify({
 *   uuid: "u1", parentUuid: null, sessionId: "s1", type: "user",
 *   timestamp: "2026-01-01T00:00:00Z", cwd: "/home/a/web",
 *   message: { role: "user", parts: [{ text: "add a test" }] },
 * }) + "\n");
 * const source = { home: dir, env: {}, os: "linux" };
 * const { sessions } = await parseQwenChat(path, { includeSubagents: true, source });
 * equal(sessions[0]?.project, "web");
 * ```
 */
export async function parseQwenChat(
  path: string,
  options: QwenParseOptions,
): Promise<ParseResult> {
  const walkOptions = options.maxLineBytes === undefined
    ? {}
    : { maxLineBytes: options.maxLineBytes };
  const nodes: TreeNode[] = [];
  let index = 0;
  const seen = new Set<string>();
  await walkJsonLines(path, walkOptions, (obj) => {
    const i = index++;
    const uuid = str(obj.uuid);
    // Side chains hang off the tree; the conversation is the main chain.
    if (!uuid || seen.has(uuid) || isSide(obj)) return;
    seen.add(uuid);
    nodes.push({ id: uuid, parent: str(obj.parentUuid), index: i });
  });
  const reader = new ChatReader(
    path,
    options.includeSubagents,
    offChain(nodes),
  );
  const walked = await walkJsonLines(
    path,
    walkOptions,
    (obj, locator) => reader.line(obj, locator),
  );
  reader.finish();
  if (isSubagentPath(path)) await nameFromMeta(path, reader.sides());
  const sessions = [reader.main, ...reader.sides()]
    .map((b) => b.build())
    .filter((s) => s.records.length > 0);
  return { sessions, skipped: walked.skipped + reader.skipped };
}

/** Titles a background sub-agent's session from its `agent-<id>.meta.json`. */
async function nameFromMeta(
  path: string,
  sides: readonly SessionBuilder[],
): Promise<void> {
  const meta = await readJsonDocument(
    path.replace(/\.jsonl$/, ".meta.json"),
    1 << 20,
  );
  if (!meta.ok || !isObject(meta.value)) return;
  const title = str(meta.value.description) ?? str(meta.value.agentType);
  if (title) { for (const side of sides) side.setTitle(title); }
}

/** The Qwen homes: `DEJA_QWEN_ROOT`, else `QWEN_RUNTIME_DIR` and `QWEN_HOME` (else `~/.qwen`). */
function qwenRoots(source: SourceEnv): string[] {
  if (source.env.DEJA_QWEN_ROOT) return [source.env.DEJA_QWEN_ROOT];
  const roots = [
    source.env.QWEN_RUNTIME_DIR,
    source.env.QWEN_HOME || `${source.home}/.qwen`,
  ].filter((r): r is string => !!r).map((r) => r.replace(/[\\/]+$/, "") || r);
  return [...new Set(roots)];
}

const chatKind: FileKind = {
  id: "chat",
  appendOnly: false,
  match: isChatPath,
  parse: (path, options) => parseQwenChat(path, options),
};

const subagentKind: FileKind = {
  id: "subagent",
  appendOnly: false,
  match: isSubagentPath,
  parse: (path, options) => parseQwenChat(path, options),
};

/**
 * `tmp/<sha256 of the project>/chats/session-<time>-<id>.json`: the Gemini
 * CLI chat document builds before the JSONL record tree (late 2025) wrote.
 */
function isLegacyChatPath(path: string): boolean {
  const parts = segments(path);
  return /^session-.+\.json$/.test(parts.at(-1) ?? "") &&
    parts.at(-2) === "chats" && parts.at(-4) === "tmp";
}

/** The older builds' chat documents, read as the Gemini CLI's and filed under Qwen. */
async function parseLegacyChat(
  path: string,
  options: ParseOptions,
): Promise<ParseResult> {
  const result = await parseGeminiChat(path, options);
  for (const session of result.sessions) session.harness = HARNESS_ID;
  return result;
}

const legacyKind: FileKind = {
  id: "legacy-chat",
  appendOnly: false,
  match: isLegacyChatPath,
  parse: parseLegacyChat,
};

function isQwenPath(path: string): boolean {
  return isChatPath(path) || isSubagentPath(path);
}

/**
 * The Qwen Code harness: JSONL chats under `<root>/projects/<cwd>/chats`.
 *
 * @example
 * ```ts
 * import { qwen } from "./qwen.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(qwen.roots({ home: "/h", env: {}, os: "linux" }), ["/h/.qwen"]);
 * ```
 */
export const qwen: Harness = {
  id: HARNESS_ID,
  name: "Qwen Code",
  format:
    "JSONL record tree (uuid/parentUuid) per session in projects/<cwd>/chats/; before it, Gemini CLI-shaped JSON chats in tmp/<hash>/chats/",
  envOverrides: ["QWEN_HOME", "QWEN_RUNTIME_DIR", "DEJA_QWEN_ROOT"],
  roots: qwenRoots,
  discover(source: SourceEnv): Promise<string[]> {
    return Promise.resolve(
      qwenRoots(source).flatMap((root) => [
        ...walkFiles(`${root}/projects`, isQwenPath, { maxDepth: 4 }),
        ...walkFiles(`${root}/tmp`, isLegacyChatPath, { maxDepth: 2 }),
      ]),
    );
  },
  kinds: [chatKind, subagentKind, legacyKind],
  // 2: background sub-agent transcripts (subagents/<session>/agent-<id>.jsonl),
  // the typed `displayText` of prompts, and agent_message records kept on the
  // main chain.
  // 3: a slash command that sent its prompt to the model (`sentToModel`:
  // /init, custom commands) is read as the command typed, not the template.
  // 4: a failed model request (ui_telemetry api_error, turn_result error) is
  // kept as error tool-output of the model.
  // 5: a shell command's output is flagged an error when its `Exit Code:`
  // footer is not 0 (the tool reports such a run as a success).
  // 6: the JSON chats of builds before the record tree
  // (tmp/<hash>/chats/session-*.json), read as the Gemini CLI's.
  // 7: a command's output is an error when it exited non-zero, whatever
  // status the harness gave the result (shared ToolRecorder).
  // 8: a UserPromptSubmit hook's tagged context part
  // (`<qwen:user-prompt-submit-context>`) is left out of a user record that
  // carries no `displayText`.
  // 9: what a built-in slash command printed (its `result` record's
  // outputHistoryItems) as tool-output, an error when an item is one.
  revision: 9,
  docs: {
    store:
      "`${QWEN_HOME:-~/.qwen}/projects/<sanitized-cwd>/chats/<session>.jsonl`, background sub-agents in `projects/<sanitized-cwd>/subagents/<session>/agent-<id>.jsonl` with `agent-<id>.meta.json`, and the Gemini CLI-shaped JSON chats builds before the record tree (late 2025) wrote to `tmp/<sha256 of the project>/chats/session-<time>-<id>.json` (runtime files move with `QWEN_RUNTIME_DIR`; same layout on every OS, `%USERPROFILE%\\.qwen` on Windows; `DEJA_QWEN_ROOT` redirects)",
    extracts:
      "user turns (the payload's `displayText` when there is one, so hook context and at-command file contents stay out; without one, the parts less a UserPromptSubmit hook's `<qwen:user-prompt-submit-context>` part; realtime (voice) dialogue too; mid-turn messages too; a slash command whose prompt went to the model — `/init`, a custom command, `sentToModel` on its `slash_command` record — as the command typed, not its expanded template), assistant text, run_shell_command commands with the exit code from the `Exit Code:` footer (0 when newer builds leave it out; their output flagged an error when it is not 0), files (read_file, write_file, read_many_files, edit), edits (old_string), tool output with isError for error/cancelled results, a model request that failed (a `ui_telemetry` `api_error` event's `error_message`/`error`, not the person's abort; a `turn_result` in state `error`) as error tool-output of tool `model`, once while a retry repeats it, compression summaries, what a built-in slash command printed (`/ide install` failing: its `slash_command` result's `outputHistoryItems`, the command line first) as tool-output of that command, an error when an item is an `error`, custom titles, fork and sub-session parents, sub-agent side chains (`isSidechain`/`agentId`, inline or in a background sub-agent's own transcript, titled from its meta.json description), records off the active uuid chain as `branch` marks; project from the records' cwd; the older JSON chats as the Gemini CLI's are read (user and model text, tool calls, results, the project from the hashed folder)",
    omits:
      "thought parts (reasoning), ui_telemetry other than API errors, slash-command and at-command echoes, the older builds' `tmp/<hash>/logs.json` prompt log, file-history, attribution and branch-checkpoint snapshots, goal/turn-result bookkeeping, notification/cron/background/goal-runtime prompts and other workspace agents' `agent_message` records the tool wrote under the user role",
    verified:
      "6 real chats from Qwen Code 0.14.0–0.14.2 (Windows paths, slash/at commands, MCP tools, a cancelled agent call; none with a command that sent a prompt, so builds before `sentToModel` still show such a template as typed); branch marks and side chains from qwen-code's chatRecordingService source (no sample has a rewind or sub-agent records); the older `tmp/<hash>/chats/session-*.json` layout from public readers' notes (Qwen 2025 builds; Qwen's #1100 dropped those JSON sessions), no sample; background sub-agent transcripts, `displayText` payloads, mid-turn and multi-agent records from qwen-code's agent-transcript.ts and chatRecordingService.ts (2026); the hook context tag and `realtime_message` records from QwenLM/qwen-code's chatRecordingService.ts (015346f1) and its transcript-replay and resume tests",
  },
};
