/**
 * Kimi Code, two store generations:
 *
 * - Kimi Code (`${KIMI_CODE_HOME:-~/.kimi-code}/sessions/<workdir-key>/<session>/`):
 *   `state.json` plus one `agents/<agent>/wire.jsonl` per agent (`main`, and
 *   one per sub-agent). Lines are `{type, time, …}` records:
 *   `context.append_message`, `context.append_loop_event` (streamed steps,
 *   content parts, tool calls and results), `context.undo` (drops the last
 *   `count` prompts and what followed them), `context.clear`,
 *   `context.apply_compaction`.
 * - Kimi CLI (`${KIMI_SHARE_DIR:-~/.kimi}/sessions/<md5(workdir)>/<session>/`):
 *   `wire.jsonl` of `{timestamp, message:{type, payload}}` UI events
 *   (TurnBegin, SteerInput, ContentPart, ToolCall, ToolResult,
 *   SubagentEvent, BtwBegin/BtwEnd…), and `context.jsonl` of chat messages,
 *   read only where no wire log exists; `state.json` holds the title and
 *   `kimi.json` maps the hashed directories back to work directories. Each
 *   sub-agent instance keeps the same files in `<session>/subagents/<id>/`
 *   (with `meta.json`); `imported_sessions/<session>/` holds imported ones;
 *   builds before session directories wrote `sessions/<md5>/<session>.jsonl`.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { dirname } from "node:path";
import type {
  FileKind,
  Harness,
  ParseOptions,
  ParseResult,
  SourceEnv,
} from "../core/harness.ts";
import { walkFiles } from "../core/harness.ts";
import { cleanSpeech, findBlocks, withoutBlocks } from "../core/text.ts";
import { readLines } from "../core/lines.ts";
import { parseTime } from "../core/time.ts";
import type { Locator, RecordFlags } from "../core/types.ts";
import { SessionBuilder } from "./_builder.ts";
import { readJsonDocument } from "./_json_doc.ts";
import { type LineLocator, walkJsonLines } from "./_jsonl_walk.ts";
import { isObject, type Json, str } from "./_json.ts";
import { childDirs, isRegularFile, segments } from "./_paths.ts";
import {
  footerExitCode,
  type ToolDialect,
  ToolRecorder,
} from "./_tool_records.ts";

const HARNESS_ID = "kimi";

const DIALECT: ToolDialect = {
  shell: new Set(["Bash", "Shell", "bash", "shell"]),
  commandKeys: ["command"],
  pathTools: new Set([
    "Read",
    "Write",
    "ReadFile",
    "WriteFile",
    "ReadMediaFile",
  ]),
  pathKeys: ["path", "file_path"],
  editTools: new Set(["Edit", "StrReplaceFile", "StrReplace"]),
  oldKeys: ["old_string", "old", "old_str"],
  editListKey: "edit",
};

/** `…/sessions/<wd>/<session>/agents/<agent>/wire.jsonl` (Kimi Code). */
function codePlace(
  path: string,
):
  | { session: string; agent: string; sessionDir: string; workspace: string }
  | undefined {
  const parts = segments(path);
  if (
    parts.at(-1) !== "wire.jsonl" || parts.at(-3) !== "agents" ||
    parts.at(-6) !== "sessions"
  ) {
    return undefined;
  }
  return {
    session: parts.at(-4) as string,
    agent: parts.at(-2) as string,
    sessionDir: dirname(dirname(dirname(path))),
    workspace: parts.at(-5) as string,
  };
}

/**
 * The project a Kimi Code workspace key names: `wd_<folder name>_<12 hex of
 * the path's SHA-256>`.
 */
function workspaceProject(key: string): string | undefined {
  const m = /^wd_(.+)_[0-9a-f]{6,}$/.exec(key);
  return m?.[1];
}

/** Where a Kimi CLI session file sits, for each layout the CLI has written. */
interface CliPlace {
  /** The session id (the parent's, for a sub-agent instance). */
  session: string;
  /** `wire.jsonl`, `context.jsonl`, or `legacy` (`sessions/<md5>/<session>.jsonl`). */
  file: "wire.jsonl" | "context.jsonl" | "legacy";
  /** The directory holding `state.json` (and `subagents/`). */
  sessionDir: string;
  /** The share directory (`~/.kimi`), where `kimi.json` lives. */
  shareDir: string;
  /** The md5 of the work directory, when the layout has one. */
  workHash?: string;
  /** The sub-agent instance id (`subagents/<agent_id>/`). */
  agent?: string;
}

function up(path: string, levels: number): string {
  let out = path;
  for (let i = 0; i < levels; i++) out = dirname(out);
  return out;
}

/**
 * Kimi CLI session files: `sessions/<md5>/<session>/(wire|context).jsonl`,
 * a sub-agent instance's `sessions/<md5>/<session>/subagents/<agent>/…`,
 * an imported `imported_sessions/<session>/…`, and the pre-directory
 * `sessions/<md5>/<session>.jsonl` context file.
 */
function cliPlace(path: string): CliPlace | undefined {
  const parts = segments(path);
  const file = parts.at(-1) ?? "";
  if (file === "wire.jsonl" || file === "context.jsonl") {
    if (parts.at(-3) === "subagents" && parts.at(-6) === "sessions") {
      return {
        session: parts.at(-4) as string,
        agent: parts.at(-2) as string,
        workHash: parts.at(-5) as string,
        file,
        sessionDir: up(path, 3),
        shareDir: up(path, 6),
      };
    }
    if (parts.at(-3) === "imported_sessions") {
      return {
        session: parts.at(-2) as string,
        file,
        sessionDir: up(path, 1),
        shareDir: up(path, 3),
      };
    }
    if (
      parts.at(-4) !== "sessions" || parts.length < 4 ||
      parts.at(-3) === "agents"
    ) {
      return undefined;
    }
    return {
      session: parts.at(-2) as string,
      workHash: parts.at(-3) as string,
      file,
      sessionDir: up(path, 1),
      shareDir: up(path, 4),
    };
  }
  if (
    file.endsWith(".jsonl") && file.length > ".jsonl".length &&
    parts.at(-3) === "sessions" && parts.length >= 3
  ) {
    const session = file.slice(0, -".jsonl".length);
    return {
      session,
      workHash: parts.at(-2) as string,
      file: "legacy",
      sessionDir: `${up(path, 1)}/${session}`,
      shareDir: up(path, 3),
    };
  }
  return undefined;
}

/** Text of a content value: a string or `[{type:"text", text}]` parts. */
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  for (const part of content) {
    if (typeof part === "string") parts.push(part);
    else if (
      isObject(part) && part.type === "text" && typeof part.text === "string"
    ) {
      parts.push(part.text);
    }
  }
  return parts.join("\n");
}

/** Tool output without Kimi's `<system>` status notes; an `ERROR` note fails it. */
function toolText(
  content: unknown,
): { text: string; error: boolean; code?: number } {
  const raw = textOf(content);
  const notes = findBlocks(raw, /<system>/g, /<\/system>/g);
  const error = notes.some((note) => /^\s*ERROR\b/.test(note.body));
  const text = withoutBlocks(raw, notes).trim();
  // The shell tool's note (`Command failed with exit code: N.`) carries
  // the exit code; the output beside it does not.
  for (const note of notes) {
    const code = footerExitCode(note.body);
    if (code !== undefined) return { text, error, code };
  }
  return { text, error };
}

/** A tool call's name and arguments in either generation's shape. */
function callOf(
  call: Json,
): { id?: string; name: string; args: unknown } | undefined {
  const fn = isObject(call.function) ? call.function : call;
  const name = str(fn.name);
  if (!name) return undefined;
  const out: { id?: string; name: string; args: unknown } = {
    name,
    args: fn.arguments ?? call.args ?? call.input,
  };
  const id = str(call.id) ?? str(call.toolCallId);
  if (id) out.id = id;
  return out;
}

/**
 * One session's records for either generation: the assistant text a stream
 * builds up, tool calls that may still be receiving argument chunks, and the
 * prompts a later undo can cut back to.
 */
class KimiSession {
  readonly builder: SessionBuilder;
  readonly tools: ToolRecorder;
  readonly flags: RecordFlags | undefined;
  #text: string[] = [];
  #textAt: { locator: Locator; time: number | undefined } | undefined;
  #call: { id?: string; name: string; args: string; at: ToolAt } | undefined;
  /** Seq at which each undoable prompt's records start; null is a compaction. */
  #anchors: Array<number | null> = [];
  /** The failure already kept for the current turn (one record a turn). */
  #failure: string | undefined;
  /** The SetTodoList titles already kept (each list is written whole). */
  #todos = new Set<string>();
  /**
   * Calls the log lacks, by id: a Kimi CLI wire that starts mid-turn has a
   * result whose call only context.jsonl holds.
   */
  recovered = new Map<string, { name: string; args: unknown }>();

  constructor(builder: SessionBuilder, flags: RecordFlags | undefined) {
    this.builder = builder;
    this.tools = new ToolRecorder(builder, DIALECT);
    this.flags = flags;
  }

  #extra(): { flags?: RecordFlags } {
    return this.flags ? { flags: this.flags } : {};
  }

  /** Adds a prompt; `anchor` when an undo counts it. */
  user(text: string, at: ToolAt, anchor: boolean): void {
    this.flush();
    this.#failure = undefined;
    if (anchor) this.#anchors.push(this.builder.nextSeq);
    this.builder.add("user", cleanSpeech(text), {
      locator: at.locator,
      time: at.time,
      ...this.#extra(),
    });
  }

  /** Streams assistant text into the pending message. */
  text(text: string, at: ToolAt): void {
    this.#flushCall();
    if (this.#text.length === 0) this.#textAt = at;
    this.#text.push(text);
  }

  /** Adds a whole assistant message. */
  assistant(text: string, at: ToolAt): void {
    this.flush();
    this.builder.add("assistant", cleanSpeech(text), {
      locator: at.locator,
      time: at.time,
      ...this.#extra(),
    });
  }

  /** A turn the model's request ended with an error (once a turn). */
  failure(text: string, at: ToolAt): void {
    this.flush();
    if (this.#failure !== undefined) return;
    this.#failure = text;
    this.builder.add("tool-output", text, {
      locator: at.locator,
      time: at.time,
      tool: "model",
      flags: { ...this.flags, isError: true },
    });
  }

  summary(text: string, at: ToolAt): void {
    this.flush();
    this.builder.add("summary", text, {
      locator: at.locator,
      time: at.time,
      ...this.#extra(),
    });
    // A compaction is a boundary no undo crosses.
    this.#anchors.push(null);
  }

  /** Starts a tool call whose arguments may still arrive in parts. */
  call(id: string | undefined, name: string, args: unknown, at: ToolAt): void {
    this.#flushText();
    this.#flushCall();
    if (typeof args === "string") {
      this.#call = { name, args, at };
      if (id) this.#call.id = id;
    } else this.#record(id, name, args, at);
  }

  /** A whole call: the plan a SetTodoList call sets, then the call itself. */
  #record(
    id: string | undefined,
    name: string,
    args: unknown,
    at: ToolAt,
  ): void {
    const plan = name === "SetTodoList" ? this.#newTodos(args) : "";
    if (plan) {
      // The agent's own plan, in its words.
      this.builder.add("assistant", plan, {
        locator: at.locator,
        time: at.time,
        tool: name,
        ...this.#extra(),
      });
    }
    this.tools.call(id, name, args, { ...at, flags: this.flags });
  }

  /** The titles of a SetTodoList call's `todos` not kept before, one a line. */
  #newTodos(args: unknown): string {
    let input: unknown = args;
    if (typeof args === "string") {
      try {
        input = JSON.parse(args);
      } catch {
        return "";
      }
    }
    const todos = isObject(input) && Array.isArray(input.todos)
      ? input.todos
      : [];
    const added: string[] = [];
    for (const todo of todos) {
      const title = isObject(todo) ? str(todo.title)?.trim() : undefined;
      if (!title || this.#todos.has(title)) continue;
      this.#todos.add(title);
      added.push(title);
    }
    return added.join("\n");
  }

  callPart(part: string): void {
    if (this.#call) this.#call.args += part;
  }

  result(
    id: string | undefined,
    text: string,
    isError: boolean,
    at: ToolAt,
    exitCode?: number,
  ): void {
    this.flush();
    this.tools.result(
      id,
      text,
      isError,
      { ...at, flags: this.flags },
      exitCode,
    );
  }

  /** Drops the last `count` prompts and all that followed, as a `undo` mark. */
  undo(count: number): void {
    this.flush();
    if (!Number.isSafeInteger(count) || count <= 0) return;
    let remaining = count;
    let cut = -1;
    for (let i = this.#anchors.length - 1; i >= 0 && remaining > 0; i--) {
      if (this.#anchors[i] === null) return;
      remaining--;
      cut = i;
    }
    if (remaining > 0 || cut < 0) return;
    const from = this.#anchors[cut] as number;
    this.builder.mark("undo", from, this.builder.nextSeq);
    this.#anchors.length = cut;
  }

  clear(): void {
    this.flush();
    this.#anchors = [];
  }

  flush(): void {
    this.#flushText();
    this.#flushCall();
  }

  #flushText(): void {
    if (this.#text.length === 0 || !this.#textAt) return;
    const at = this.#textAt;
    this.builder.add("assistant", cleanSpeech(this.#text.join("")), {
      locator: at.locator,
      time: at.time,
      ...this.#extra(),
    });
    this.#text = [];
    this.#textAt = undefined;
    this.tools.newMessage();
  }

  #flushCall(): void {
    const call = this.#call;
    if (!call) return;
    this.#call = undefined;
    this.#record(call.id, call.name, call.args, call.at);
  }
}

interface ToolAt {
  locator: Locator;
  time: number | undefined;
}

/** Is this prompt one an undo counts (the person's own, or a slash command)? */
function isAnchorOrigin(origin: unknown): boolean {
  if (!isObject(origin)) return true;
  const kind = origin.kind;
  if (kind === undefined || kind === "user") return true;
  return (kind === "skill_activation" || kind === "plugin_command") &&
    origin.trigger === "user-slash";
}

/** Handles one Kimi Code wire record. */
function codeRecord(s: KimiSession, obj: Json, base: LineLocator): number {
  const time = parseTime(obj.time);
  const at: ToolAt = { locator: base, time };
  switch (obj.type) {
    case "context.append_message": {
      const m = isObject(obj.message) ? obj.message : undefined;
      if (!m) return 1;
      const id = str(m.id);
      const mAt: ToolAt = id
        ? { locator: { ...base, recordId: id }, time }
        : at;
      codeMessage(s, m, mAt);
      return 0;
    }
    case "context.append_loop_event": {
      const e = isObject(obj.event) ? obj.event : undefined;
      if (!e) return 1;
      codeLoopEvent(s, e, at);
      return 0;
    }
    case "context.undo":
      // A missing count means one prompt; a count of the wrong type, none.
      s.undo(
        obj.count === undefined
          ? 1
          : typeof obj.count === "number"
          ? obj.count
          : 0,
      );
      return 0;
    case "context.clear":
      s.clear();
      return 0;
    case "turn.step.interrupted": {
      // A turn the model's request ended with an error: the error text,
      // else nothing (a cancel is not a failure).
      const message = str(obj.message);
      const reason = str(obj.reason) ?? "";
      if (message && !/cancel|abort|user/i.test(reason)) {
        s.failure(message, at);
      }
      s.flush();
      return 0;
    }
    case "turn.ended": {
      if (obj.reason === "failed") {
        const error = obj.error;
        const message = isObject(error)
          ? str(error.message) ?? str(error.code)
          : str(error);
        s.failure(message ?? "turn failed", at);
      }
      s.flush();
      return 0;
    }
    case "context.apply_compaction": {
      const summary = str(obj.contextSummary) ?? str(obj.summary) ??
        (isObject(obj.summary) ? textOf(obj.summary.content) : "");
      s.summary(summary, at);
      return 0;
    }
    default:
      s.builder.touch(time);
      return 0;
  }
}

function codeMessage(s: KimiSession, m: Json, at: ToolAt): void {
  const origin = isObject(m.origin) ? m.origin : undefined;
  const kind = origin?.kind;
  switch (m.role) {
    case "user": {
      const anchor = isAnchorOrigin(origin);
      if (kind === "compaction_summary") {
        s.summary(textOf(m.content), at);
      } else if (kind === "shell_command" && origin) {
        // A command the person ran from the prompt, and its output.
        if (origin.phase === "output") {
          s.result(undefined, textOf(m.content), origin.isError === true, at);
        } else {
          s.flush();
          s.builder.add("command", textOf(m.content), {
            locator: at.locator,
            time: at.time,
            tool: "shell",
            ...(s.flags ? { flags: s.flags } : {}),
          });
        }
      } else if (kind === undefined || kind === "user") {
        s.user(textOf(m.content), at, anchor);
      } else if (
        kind === "system_trigger" && origin?.name === "subagent" && s.flags
      ) {
        // A sub-agent's task, as its parent agent wrote it.
        s.user(textOf(m.content), at, false);
      } else if (anchor) {
        // A slash-invoked skill: undoable, but its text is the skill's.
        s.user("", at, true);
      }
      break;
    }
    case "assistant": {
      s.assistant(textOf(m.content), at);
      s.tools.newMessage();
      const calls = Array.isArray(m.toolCalls)
        ? m.toolCalls
        : Array.isArray(m.tool_calls)
        ? m.tool_calls
        : [];
      for (const c of calls) {
        const call = isObject(c) ? callOf(c) : undefined;
        if (call) s.call(call.id, call.name, call.args, at);
      }
      s.flush();
      break;
    }
    case "tool": {
      const { text, error, code } = toolText(m.content);
      s.result(
        str(m.toolCallId) ?? str(m.tool_call_id),
        text,
        error || m.isError === true,
        at,
        code,
      );
      break;
    }
    default:
      s.builder.touch(at.time);
  }
}

function codeLoopEvent(s: KimiSession, e: Json, at: ToolAt): void {
  switch (e.type) {
    case "step.begin":
    case "step.end":
      s.flush();
      break;
    case "content.part": {
      const part = isObject(e.part) ? e.part : {};
      if (part.type === "text" && typeof part.text === "string") {
        s.text(part.text, at);
      }
      break;
    }
    case "tool.call": {
      const call = callOf(e);
      if (call) s.call(call.id, call.name, call.args, at);
      break;
    }
    case "tool.result": {
      const result = isObject(e.result) ? e.result : {};
      const { text, error, code } = toolText(result.output ?? result.content);
      const message = str(result.message);
      s.result(
        str(e.toolCallId),
        text || message || "",
        error || result.isError === true || result.is_error === true,
        at,
        code ?? (message ? footerExitCode(message) : undefined),
      );
      break;
    }
    default:
      s.builder.touch(at.time);
  }
}

/** Handles one Kimi CLI wire event (also the events a sub-agent wraps). */
function cliEvent(
  s: KimiSession,
  type: unknown,
  payload: Json,
  at: ToolAt,
  side: (taskId: string) => KimiSession | undefined,
  depth: number,
): void {
  switch (type) {
    case "TurnBegin":
      s.user(textOf(payload.user_input), at, true);
      break;
    case "SteerInput":
      // Input the person added while the turn was running (wire 1.5).
      s.user(textOf(payload.user_input), at, true);
      break;
    case "BtwBegin": {
      // A `/btw` side question (wire 1.9) and, in BtwEnd, its answer.
      const question = str(payload.question);
      if (question) s.user(question, at, false);
      break;
    }
    case "BtwEnd": {
      const response = str(payload.response);
      if (response) s.assistant(response, at);
      // A side question whose request failed has `error` instead.
      const error = str(payload.error);
      if (!response && error) s.failure(error, at);
      break;
    }
    case "StepBegin":
    case "StepInterrupted":
    case "TurnEnd":
      s.flush();
      break;
    case "ContentPart":
      if (payload.type === "text" && typeof payload.text === "string") {
        s.text(payload.text, at);
      }
      break;
    case "ToolCall": {
      const call = callOf(payload);
      if (call) s.call(call.id, call.name, call.args ?? "", at);
      break;
    }
    case "ToolCallPart":
      if (typeof payload.arguments_part === "string") {
        s.callPart(payload.arguments_part);
      }
      break;
    case "ToolResult": {
      const id = str(payload.tool_call_id);
      const early = id === undefined ? undefined : s.recovered.get(id);
      if (id !== undefined && early && s.tools.toolOf(id) === undefined) {
        // A wire that starts mid-turn: the call is in context.jsonl only.
        s.recovered.delete(id);
        s.call(id, early.name, early.args, at);
      }
      const rv = isObject(payload.return_value) ? payload.return_value : {};
      const out = toolText(rv.output);
      const message = str(rv.message);
      const text = out.text || message || "";
      // A failed shell command's output is what it printed; its message
      // (`Command failed with exit code: N.`) holds the exit code.
      s.result(
        id,
        text,
        rv.is_error === true || out.error,
        at,
        out.code ?? (message ? footerExitCode(message) : undefined),
      );
      break;
    }
    case "CompactionEnd": {
      const summary = str(payload.full_summary) ?? str(payload.summary);
      if (summary) s.summary(summary, at);
      break;
    }
    case "SubagentEvent": {
      // Wire 1.6 renamed `task_tool_call_id` and added the instance id.
      const key = str(payload.agent_id) ?? str(payload.parent_tool_call_id) ??
        str(payload.task_tool_call_id);
      const inner = isObject(payload.event) ? payload.event : undefined;
      if (!key || !inner || depth > 8) break;
      const target = side(key);
      if (target) {
        cliEvent(
          target,
          inner.type,
          isObject(inner.payload) ? inner.payload : {},
          at,
          side,
          depth + 1,
        );
      }
      break;
    }
    default:
      s.builder.touch(at.time);
  }
}

/** Options for the Kimi parsers. */
export interface KimiParseOptions extends ParseOptions {
  /** Lines longer than this are skipped. Default 8 MiB. */
  maxLineBytes?: number;
}

function walkOptions(options: KimiParseOptions): { maxLineBytes?: number } {
  return options.maxLineBytes === undefined
    ? {}
    : { maxLineBytes: options.maxLineBytes };
}

/**
 * Parses one Kimi Code agent wire (`agents/<agent>/wire.jsonl`). The main
 * agent's wire is the session; another agent's wire is a sub-agent session
 * (skipped unless sub-agents are included). A `context.undo` keeps what it
 * removed under an `undo` mark.
 *
 * @param path The wire file.
 * @param options Sub-agent switch and line cap.
 * @returns The session.
 * @example
 * ```ts
 * import { parseKimiCodeWire } from "./kimi.ts";
 * import { equal } from "node:assert/strict";
 * const dir = await Deno.makeTempDir();
 * const agent = `${dir}/sessions/wd_x/s1/agents/main`;
 * await Deno.mkdir(agent, { recursive: true });
 * await Deno.writeTextFile(`${agent}/wire.jsonl`, [
 *   { type: "context.append_message", time: 1767225600000,
 *     message: { role: "user", content: [{ type: "text", text: "why is CI red" }] } },
 *   { type: "context.undo", count: 1, time: 1767225601000 },
 * ].map((l) => JSON.stringify(l)).join("\n") + "\n");
 * const source = { home: dir, env: {}, os: "linux" };
 * const { sessions } = await parseKimiCodeWire(`${agent}/wire.jsonl`, { includeSubagents: true, source });
 * equal(sessions[0]?.marks[0]?.kind, "undo");
 * ```
 */
export async function parseKimiCodeWire(
  path: string,
  options: KimiParseOptions,
): Promise<ParseResult> {
  const place = codePlace(path);
  const agent = place?.agent ?? "main";
  const sub = agent !== "main";
  if (sub && !options.includeSubagents) return { sessions: [], skipped: 0 };
  const sessionId = place?.session ?? segments(path).at(-2) ?? "kimi";
  const doc = place
    ? await readJsonDocument(`${place.sessionDir}/state.json`, 2 << 20)
    : undefined;
  const state = doc?.ok && isObject(doc.value) ? doc.value : undefined;
  // state.json v1 names the work folder `workDir`; v2 (Kimi Code 2.x) `cwd`.
  const workDir = state ? str(state.workDir) ?? str(state.cwd) : undefined;
  const builder = new SessionBuilder({
    harness: HARNESS_ID,
    id: sub ? `${sessionId}:${agent}` : sessionId,
    path,
    parent: sub ? sessionId : undefined,
    lineage: sub ? "subagent" : undefined,
    // Without either, the workspace key still names the folder.
    project: workDir || !place ? undefined : workspaceProject(place.workspace),
  });
  if (workDir) builder.setCwd(workDir);
  if (state) {
    builder.touch(parseTime(state.createdAt));
    builder.touch(parseTime(state.updatedAt));
    const title = str(state.title);
    if (title && !sub) builder.setTitle(title);
  }
  const s = new KimiSession(builder, sub ? { subagent: true } : undefined);
  let skipped = 0;
  const walked = await walkJsonLines(path, walkOptions(options), (obj, at) => {
    skipped += codeRecord(s, obj, at);
  });
  s.flush();
  const session = builder.build();
  return {
    sessions: session.records.length > 0 ? [session] : [],
    skipped: walked.skipped + skipped,
  };
}

/** The work directory a Kimi CLI session directory hash stands for (`kimi.json`). */
async function cliWorkDir(
  shareDir: string,
  hash: string,
): Promise<string | undefined> {
  const doc = await readJsonDocument(`${shareDir}/kimi.json`, 4 << 20);
  if (!doc.ok || !isObject(doc.value) || !Array.isArray(doc.value.work_dirs)) {
    return undefined;
  }
  for (const wd of doc.value.work_dirs) {
    const p = isObject(wd) ? str(wd.path) : undefined;
    if (p && createHash("md5").update(p).digest("hex") === hash) return p;
  }
  return undefined;
}

/**
 * Sub-agent instances of a session that keep their own wire log. The CLI
 * creates an empty one with the instance, so only a log with content counts.
 */
function instancesWithWire(sessionDir: string): Set<string> {
  const out = new Set<string>();
  for (const agent of childDirs(`${sessionDir}/subagents`)) {
    try {
      const info = Deno.statSync(`${sessionDir}/subagents/${agent}/wire.jsonl`);
      if (info.isFile && info.size > 0) out.add(agent);
    } catch {
      // No log of its own: its events are read from the parent's wire.
    }
  }
  return out;
}

/** A JSON object file's fields, or an empty object. */
async function jsonObject(path: string): Promise<Json> {
  const doc = await readJsonDocument(path, 2 << 20);
  return doc.ok && isObject(doc.value) ? doc.value : {};
}

/** How far into a wire log a mid-turn start is looked for. */
const MAX_HEAD_LINES = 4096;

/** A line's JSON object, or undefined. */
function lineObject(text: string): Json | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The ids of the results a Kimi CLI wire log holds before its first turn
 * begins without their call: the log starts mid-turn.
 */
async function orphanResults(
  path: string,
  maxLineBytes: number | undefined,
): Promise<Set<string>> {
  const calls = new Set<string>();
  const orphans = new Set<string>();
  try {
    for await (
      const line of readLines(path, maxLineBytes ? { maxLineBytes } : {})
    ) {
      if (!line.complete || line.number > MAX_HEAD_LINES) break;
      const message = lineObject(line.text)?.message;
      if (!isObject(message) || !isObject(message.payload)) continue;
      const type = message.type;
      if (type === "TurnBegin" || type === "SteerInput") break;
      const payload = message.payload;
      if (type === "ToolCall" && str(payload.id)) {
        calls.add(payload.id as string);
      }
      const id = type === "ToolResult" ? str(payload.tool_call_id) : undefined;
      if (id && !calls.has(id)) orphans.add(id);
    }
  } catch {
    // An unreadable log is the main walk's to report.
  }
  return orphans;
}

/** The calls `context.jsonl` holds for the given ids (its assistant `tool_calls`). */
async function contextCalls(
  path: string,
  ids: Set<string>,
  maxLineBytes: number | undefined,
): Promise<Map<string, { name: string; args: unknown }>> {
  const found = new Map<string, { name: string; args: unknown }>();
  try {
    for await (
      const line of readLines(path, maxLineBytes ? { maxLineBytes } : {})
    ) {
      if (!line.complete) break;
      if (![...ids].some((id) => line.text.includes(id))) continue;
      const obj = lineObject(line.text);
      if (obj?.role !== "assistant" || !Array.isArray(obj.tool_calls)) continue;
      for (const c of obj.tool_calls) {
        const call = isObject(c) ? callOf(c) : undefined;
        if (call?.id && ids.has(call.id) && !found.has(call.id)) {
          found.set(call.id, { name: call.name, args: call.args });
        }
      }
      if (found.size === ids.size) break;
    }
  } catch {
    // No context log (or an unreadable one): the results stay without a call.
  }
  return found;
}

/**
 * Parses one Kimi CLI session file: `wire.jsonl` (UI events, with
 * timestamps and sub-agent events), or `context.jsonl` when the session has
 * no wire log (older builds, and the pre-directory `<session>.jsonl`). A
 * sub-agent instance's own files (`subagents/<agent_id>/`) are a sub-agent
 * session of their parent; the parent's wire leaves out the events of an
 * instance that has its own wire log. A wire log that starts mid-turn (a
 * result before any turn, its call missing) takes that call from the
 * `context.jsonl` beside it, matched by the call's id.
 *
 * @param path `wire.jsonl`, `context.jsonl` or a legacy `<session>.jsonl`.
 * @param options Sub-agent switch and line cap.
 * @returns The session and its sub-agent sessions.
 * @example
 * ```ts
 * import { parseKimiCliSession } from "./kimi.ts";
 * import { equal } from "node:assert/strict";
 * const dir = await Deno.makeTempDir();
 * await Deno.mkdir(`${dir}/sessions/h/s1`, { recursive: true });
 * const path = `${dir}/sessions/h/s1/context.jsonl`;
 * await Deno.writeTextFile(path, [
 *   { role: "user", content: "tidy the imports" },
 *   { role: "assistant", content: [{ type: "text", text: "Done." }] },
 * ].map((l) => JSON.stringify(l)).join("\n") + "\n");
 * const source = { home: dir, env: {}, os: "linux" };
 * const { sessions } = await parseKimiCliSession(path, { includeSubagents: true, source });
 * equal(sessions[0]?.records.length, 2);
 * ```
 */
export async function parseKimiCliSession(
  path: string,
  options: KimiParseOptions,
): Promise<ParseResult> {
  const none: ParseResult = { sessions: [], skipped: 0 };
  const place = cliPlace(path);
  const name = segments(path).at(-1);
  const isContext = name !== "wire.jsonl";
  if (place?.agent !== undefined && !options.includeSubagents) return none;
  if (place?.file === "legacy") {
    // The CLI moves this file into `<session>/` when it next opens it.
    const dir = place.sessionDir;
    if (
      await isRegularFile(`${dir}/context.jsonl`) ||
      await isRegularFile(`${dir}/wire.jsonl`)
    ) {
      return none;
    }
  } else if (isContext && await isRegularFile(`${dirname(path)}/wire.jsonl`)) {
    return none;
  }
  const sessionId = place?.session ?? segments(path).at(-2) ?? "kimi";
  const sub = place?.agent;
  const builder = new SessionBuilder({
    harness: HARNESS_ID,
    id: sub ? `${sessionId}:${sub}` : sessionId,
    path,
    parent: sub ? sessionId : undefined,
    lineage: sub ? "subagent" : undefined,
  });
  if (place) {
    const workDir = place.workHash
      ? await cliWorkDir(place.shareDir, place.workHash)
      : undefined;
    if (workDir) builder.setCwd(workDir);
    if (sub) {
      const meta = await jsonObject(dirname(path) + "/meta.json");
      const title = str(meta.description) ?? str(meta.subagent_type);
      if (title) builder.setTitle(title);
      const spec = isObject(meta.launch_spec) ? meta.launch_spec : {};
      const specDir = str(spec.work_dir);
      if (!workDir && specDir) builder.setCwd(specDir);
    } else {
      const state = await jsonObject(`${place.sessionDir}/state.json`);
      const title = str(state.custom_title) ?? str(state.title);
      if (title) builder.setTitle(title);
    }
  }
  const main = new KimiSession(builder, sub ? { subagent: true } : undefined);
  const sides = new Map<string, KimiSession>();
  const ownWire = place && !sub
    ? instancesWithWire(place.sessionDir)
    : new Set<string>();
  const side = (key: string): KimiSession | undefined => {
    if (!options.includeSubagents || ownWire.has(key)) return undefined;
    let s = sides.get(key);
    if (!s) {
      s = new KimiSession(
        new SessionBuilder({
          harness: HARNESS_ID,
          id: `${sessionId}:${key}`,
          path,
          cwd: builder.build().cwd,
          parent: sessionId,
          lineage: "subagent",
        }),
        { subagent: true },
      );
      sides.set(key, s);
    }
    return s;
  };
  if (!isContext) {
    const orphans = await orphanResults(path, options.maxLineBytes);
    if (orphans.size > 0) {
      main.recovered = await contextCalls(
        `${dirname(path)}/context.jsonl`,
        orphans,
        options.maxLineBytes,
      );
    }
  }
  let skipped = 0;
  const walked = await walkJsonLines(
    path,
    walkOptions(options),
    (obj, base) => {
      if (isContext) {
        skipped += contextLine(main, obj, base);
        return;
      }
      const message = isObject(obj.message) ? obj.message : undefined;
      if (!message) {
        if (obj.type !== "metadata") skipped++;
        return;
      }
      cliEvent(
        main,
        message.type,
        isObject(message.payload) ? message.payload : {},
        { locator: base, time: parseTime(obj.timestamp) },
        side,
        0,
      );
    },
  );
  main.flush();
  for (const s of sides.values()) s.flush();
  const sessions = [builder, ...[...sides.values()].map((s) => s.builder)]
    .map((b) => b.build())
    .filter((s) => s.records.length > 0);
  return { sessions, skipped: walked.skipped + skipped };
}

/**
 * How the Kimi CLI opens the user message a compaction leaves in place of
 * the context it replaced (soul/compaction.py), the summary following it.
 */
const COMPACTION_PREFIX =
  "<system>Previous context has been compacted. Here is the compaction output:</system>";

/** One `context.jsonl` message (no timestamps in this file). */
function contextLine(s: KimiSession, obj: Json, locator: LineLocator): number {
  const at: ToolAt = { locator, time: undefined };
  switch (obj.role) {
    case "user": {
      const text = textOf(obj.content);
      const trimmed = text.trimStart();
      if (trimmed.startsWith(COMPACTION_PREFIX)) {
        s.summary(trimmed.slice(COMPACTION_PREFIX.length).trim(), at);
      } else s.user(text, at, true);
      return 0;
    }
    case "assistant": {
      s.assistant(textOf(obj.content), at);
      s.tools.newMessage();
      const calls = Array.isArray(obj.tool_calls) ? obj.tool_calls : [];
      for (const c of calls) {
        const call = isObject(c) ? callOf(c) : undefined;
        if (call) s.call(call.id, call.name, call.args, at);
      }
      s.flush();
      return 0;
    }
    case "tool": {
      const { text, error, code } = toolText(obj.content);
      s.result(str(obj.tool_call_id), text, error, at, code);
      return 0;
    }
    case "system":
      return 0;
    default:
      // `_system_prompt`, `_checkpoint`, `_usage`: the CLI's own bookkeeping.
      return typeof obj.role === "string" && obj.role.startsWith("_") ? 0 : 1;
  }
}

/** Kimi Code homes: `DEJA_KIMI_ROOT`, else `KIMI_CODE_HOME`, else `~/.kimi-code`. */
function codeRoots(source: SourceEnv): string[] {
  if (source.env.DEJA_KIMI_ROOT) return [source.env.DEJA_KIMI_ROOT];
  return [source.env.KIMI_CODE_HOME || `${source.home}/.kimi-code`];
}

/** Kimi CLI share dirs: `DEJA_KIMI_CLI_ROOT`, else `KIMI_SHARE_DIR`, else `~/.kimi`. */
function cliRoots(source: SourceEnv): string[] {
  if (source.env.DEJA_KIMI_CLI_ROOT) return [source.env.DEJA_KIMI_CLI_ROOT];
  return [source.env.KIMI_SHARE_DIR || `${source.home}/.kimi`];
}

const wireKind: FileKind = {
  id: "wire",
  appendOnly: false,
  match: (path) => codePlace(path) !== undefined,
  parse: (path, options) => parseKimiCodeWire(path, options),
};

const cliKind: FileKind = {
  id: "cli-session",
  appendOnly: false,
  match: (path) => cliPlace(path) !== undefined,
  parse: (path, options) => parseKimiCliSession(path, options),
};

/**
 * The Kimi Code harness (Kimi Code wires and the older Kimi CLI sessions).
 *
 * @example
 * ```ts
 * import { kimi } from "./kimi.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(kimi.roots({ home: "/h", env: {}, os: "linux" }), ["/h/.kimi-code", "/h/.kimi"]);
 * ```
 */
export const kimi: Harness = {
  id: HARNESS_ID,
  name: "Kimi Code",
  format:
    "JSONL wire log per agent (sessions/<wd>/<session>/agents/<agent>/wire.jsonl) with state.json; Kimi CLI wire.jsonl/context.jsonl per session and per sub-agent instance",
  envOverrides: [
    "KIMI_CODE_HOME",
    "KIMI_SHARE_DIR",
    "DEJA_KIMI_ROOT",
    "DEJA_KIMI_CLI_ROOT",
  ],
  roots: (source) => [...codeRoots(source), ...cliRoots(source)],
  discover(source: SourceEnv): Promise<string[]> {
    return Promise.resolve([
      ...codeRoots(source).flatMap((root) =>
        walkFiles(`${root}/sessions`, wireKind.match, { maxDepth: 5 })
      ),
      ...cliRoots(source).flatMap((root) => [
        ...walkFiles(`${root}/sessions`, cliKind.match, { maxDepth: 4 }),
        ...walkFiles(`${root}/imported_sessions`, cliKind.match, {
          maxDepth: 1,
        }),
      ]),
    ]);
  },
  kinds: [wireKind, cliKind],
  // 2: Kimi CLI wire 1.5-1.9 (renamed SubagentEvent fields, SteerInput, /btw),
  // sub-agent instance files, imported and pre-directory sessions, state.json
  // titles.
  // 3: a failed Shell call's exit code from its result message (wire) or its
  // <system> note (context.jsonl), not only from the output text.
  // 4: Kimi Code's state.json v2 names the work folder `cwd`; without it the
  // workspace key (`wd_<name>_<hash>`) names the project.
  // 5: a Kimi Code turn that failed (turn.step.interrupted, turn.ended
  // failed) keeps its error as error tool-output of the model.
  // 6: a command's output is an error when it exited non-zero, whatever
  // status the harness gave the result (shared ToolRecorder).
  // 7: a Kimi CLI /btw side question that failed (BtwEnd `error`) as error
  // output of the model.
  // 8: a compacted context.jsonl's summary (the user message the compaction
  // opens with `Previous context has been compacted`) as a summary, not a
  // prompt.
  // 9: SetTodoList titles as the agent's plan (each once); a Kimi CLI wire
  // that starts mid-turn takes the call of its first results from
  // context.jsonl, so a Shell command's output keeps its command.
  revision: 9,
  docs: {
    store:
      "Kimi Code: `${KIMI_CODE_HOME:-~/.kimi-code}/sessions/<workdir-key>/<session>/agents/<agent>/wire.jsonl` with `state.json`; Kimi CLI: `${KIMI_SHARE_DIR:-~/.kimi}/sessions/<md5(workdir)>/<session>/wire.jsonl` (or `context.jsonl`) with `state.json`, sub-agent instances in `<session>/subagents/<agent_id>/` with `meta.json`, `imported_sessions/<session>/`, and the older `sessions/<md5(workdir)>/<session>.jsonl`, with `kimi.json` naming the work directories (same on every OS; `DEJA_KIMI_ROOT` / `DEJA_KIMI_CLI_ROOT` redirect)",
    extracts:
      "the person's prompts (origin `user`), streamed and whole assistant text, tool calls as commands (Bash/Shell, exit code from `Command failed with exit code: N` — in the output, the Kimi CLI result's `message` beside the printed output, or context.jsonl's `<system>` note — else 0 when not an error), files (Read/Write/ReadMediaFile/Edit/StrReplaceFile), edits (old text), SetTodoList todos' titles as assistant plan text (each once), tool output with isError, `!` shell commands and their output, compaction summaries (Kimi Code's `compaction_summary` origin; in a Kimi CLI context.jsonl the user message that opens `<system>Previous context has been compacted…</system>`), Kimi CLI steer input (typed mid-turn) and `/btw` side questions with their answers (a failed one's `error` as error tool-output of tool `model`), sub-agent wires, Kimi CLI sub-agent instance logs and SubagentEvents (`parent_tool_call_id`/`agent_id` since wire 1.6, `task_tool_call_id` before; events of an instance with its own log are read from that log only) as sub-agent sessions titled from meta.json, `context.undo` as `undo` marks over the undone prompts and everything after them, a Kimi Code turn that failed (the error of `turn.step.interrupted`, else of `turn.ended` with reason `failed`) as error tool-output of tool `model`, once a turn; title (`custom_title`) and work directory from state.json (`workDir`, or `cwd` in Kimi Code's v2 state.json; without either, the project from the `wd_<name>_<hash>` workspace key) or kimi.json",
    omits:
      "think parts, injected reminders, hook results, task/cron notifications and skill bodies written under the user role, usage/status/approval/hook/plan-display/config/llm.request records, Kimi Code's retried requests (`turn.step.retrying`), cancelled turns and its end-of-turn `agent.message.appended` copies, the `_system_prompt`/`_checkpoint`/`_usage` lines of context.jsonl; Kimi CLI `context.jsonl` where a wire log exists (it repeats the wire; only the calls of results a wire that starts mid-turn holds before its first turn are taken from it, by id; so such a session shows no compaction summary, which the wire's CompactionEnd does not carry) and its rotated `context_N.jsonl` backups (a D-Mail revert is not marked)",
    verified:
      "real Kimi CLI sample (wire protocol 1.3 with context.jsonl and kimi.json: 5 prompts, interrupted steps, tool results); Kimi Code wire records, origins and the undo cut from the kimi-code agent-core source and public parsers' tests (no real Kimi Code sample); Kimi Code 2.1.1's v2 state.json (`id`, `version`, `cwd`, ms times) and workspace key from a public capture's format notes; wire 1.5-1.9 events (BtwEnd's `error` from src/kimi_cli/wire/types.py of MoonshotAI/kimi-cli, the version with StepRetry and BtwBegin/BtwEnd; its CompactionEnd carries no summary, so a wire log has none), the compacted context.jsonl's opening message from soul/compaction.py (COMPACTION_OUTPUT_PREFIX) and soul/message.py, sub-agent instance directories, imported and pre-directory sessions from kimi-cli's wire-mode and data-locations docs, session.py and subagents/store.py (no real sample of them)",
  },
};
