/**
 * The Copilot event log (`{type, data, id, timestamp, parentId}` per line),
 * written by Copilot CLI as `session-state/<id>/events.jsonl` and by the VS
 * Code Copilot Chat extension as its `transcripts/<id>.jsonl`. Both harnesses
 * read it through here.
 *
 * @module
 */
import type { ParseOptions, ParseResult } from "../core/harness.ts";
import { cleanSpeech } from "../core/text.ts";
import { parseTime } from "../core/time.ts";
import type { Lineage, Locator, RecordFlags } from "../core/types.ts";
import { SessionBuilder } from "./_builder.ts";
import { walkJsonLines } from "./_jsonl_walk.ts";
import { isObject, type Json, str } from "./_json.ts";
import { type ToolDialect, ToolRecorder } from "./_tool_records.ts";

const DIALECT: ToolDialect = {
  shell: new Set(["bash", "powershell", "shell", "run_in_terminal"]),
  commandKeys: ["command", "cmd"],
  // Copilot CLI's search tool (`pattern`, `path`, `glob`).
  search: new Set(["grep"]),
  pathTools: new Set([
    "view",
    "read",
    "read_file",
    "create",
    "write",
    "create_file",
  ]),
  pathKeys: ["path", "filePath", "file_path"],
  editTools: new Set([
    "edit",
    "str_replace",
    "str_replace_editor",
    "replace_string_in_file",
  ]),
  oldKeys: ["old_str", "oldString", "old_string"],
};

/** Tools whose calls and results are the agent's own bookkeeping. */
const QUIET_TOOLS = new Set(["report_intent"]);

/** `Forked from <source> before event <event> as <fork>.` */
const FORKED_FROM = /^Forked from (\S+?) before event/;

/** What a parse hands back to resume an append-only log. */
export interface CopilotEventsState {
  /** Seq of the next main-session record. */
  nextSeq: number;
  /** Session id once `session.start` named it. */
  sessionId?: string;
  /** Working directory, once known. */
  cwd?: string;
  /** Parent session of a fork, or the session that spawned this one. */
  parent?: string;
  /** How the parent relates: a fork of it (default) or spawned by it. */
  lineage?: "fork" | "subagent";
  /** Title from the last `session.title_changed`. */
  title?: string;
  /** Next seq of each sub-agent side chain. */
  sides?: Record<string, number>;
}

/** Options for {@linkcode parseCopilotEvents}. */
export interface CopilotEventsOptions extends ParseOptions {
  /** Harness id the sessions are filed under. */
  harness: string;
  /** Session id until `session.start` names one. */
  fallbackId: string;
  /** Working directory known from a side file (workspace.yaml). */
  cwd?: string | undefined;
  /** Title known from a side file. */
  title?: string | undefined;
  /** Lines longer than this are skipped. Default 8 MiB. */
  maxLineBytes?: number;
}

function readState(value: unknown): CopilotEventsState {
  const state: CopilotEventsState = { nextSeq: 0 };
  if (!isObject(value)) return state;
  if (typeof value.nextSeq === "number" && Number.isInteger(value.nextSeq)) {
    state.nextSeq = Math.max(0, value.nextSeq);
  }
  for (const key of ["sessionId", "cwd", "parent", "title"] as const) {
    const v = str(value[key]);
    if (v) state[key] = v;
  }
  if (value.lineage === "fork" || value.lineage === "subagent") {
    state.lineage = value.lineage;
  }
  if (isObject(value.sides)) {
    const sides: Record<string, number> = Object.create(null);
    for (const [k, v] of Object.entries(value.sides)) {
      if (typeof v === "number" && Number.isInteger(v) && v >= 0) sides[k] = v;
    }
    state.sides = sides;
  }
  return state;
}

/**
 * The agent a sub-agent's event is stamped with, if any: `agentId` on the
 * event (current builds), else the deprecated `parentToolCallId` in its data
 * (the builds before `agentId`), the call that spawned the sub-agent.
 */
function agentOf(event: Json, data: Json): string | undefined {
  return str(event.agentId) ?? str(data.agentId) ?? str(data.parentToolCallId);
}

/** `source`s of user turns nobody typed: skills, autopilot, schedules. */
const INJECTED_SOURCE = /^(?:skill-|autopilot|schedule)/;

/**
 * A user turn nobody typed: a skill's hidden injection (`source:
 * "skill-<name>"`), autopilot's continuation or objective prompt, a
 * schedule firing, input another session sent (`crossSession`, labelled
 * `authenticated-cross-session`), or, in the main session, another agent's
 * prompt (`agent-<id>`; in a side chain that prompt is the sub-agent's task).
 */
function isInjected(data: Json, main: boolean): boolean {
  const source = str(data.source) ?? "";
  return data.isAutopilotContinuation === true ||
    isObject(data.crossSession) ||
    INJECTED_SOURCE.test(source) || (main && source.startsWith("agent-"));
}

/**
 * The files a person attached to a prompt (`@path`, an editor selection):
 * `file` attachments by `path`, `selection` ones by `filePath`. Directories,
 * blobs and GitHub references name no file of the working tree.
 */
function attachedFiles(data: Json): string[] {
  const out: string[] = [];
  for (const a of Array.isArray(data.attachments) ? data.attachments : []) {
    if (!isObject(a)) continue;
    const path = a.type === "file"
      ? str(a.path)
      : a.type === "selection"
      ? str(a.filePath)
      : undefined;
    if (path && !out.includes(path)) out.push(path);
  }
  return out;
}

/** Text blocks of a result's `contents` (text, terminal, shell_exit). */
function contentsText(contents: unknown[]): string {
  return contents
    .map((c) => {
      if (!isObject(c)) return "";
      if (typeof c.text === "string") return c.text;
      return c.type === "shell_exit" ? str(c.outputPreview) ?? "" : "";
    })
    .filter((t) => t.length > 0)
    .join("\n");
}

function resultText(data: Json): string {
  const result = data.result;
  if (isObject(result)) {
    const content = result.content ?? result.detailedContent;
    if (typeof content === "string" && content.length > 0) return content;
    if (Array.isArray(content)) return contentsText(content);
    if (Array.isArray(result.contents)) {
      const text = contentsText(result.contents);
      if (text) return text;
    }
    if (typeof result.detailedContent === "string") {
      return result.detailedContent;
    }
    if (typeof content === "string") return content;
  } else if (typeof result === "string") return result;
  if (isObject(data.error)) return str(data.error.message) ?? "";
  return typeof data.error === "string" ? data.error : "";
}

/** The exit code a shell result states in its `shell_exit`/`terminal` block. */
function resultExitCode(data: Json): number | undefined {
  const result = isObject(data.result) ? data.result : {};
  const contents = Array.isArray(result.contents) ? result.contents : [];
  for (const c of contents) {
    if (
      isObject(c) && (c.type === "shell_exit" || c.type === "terminal") &&
      typeof c.exitCode === "number" && Number.isInteger(c.exitCode)
    ) {
      return c.exitCode;
    }
  }
  return undefined;
}

class EventsReader {
  readonly main: SessionBuilder;
  readonly state: CopilotEventsState;
  readonly #options: CopilotEventsOptions;
  readonly #path: string;
  readonly #mainTools: ToolRecorder;
  readonly #sides = new Map<
    string,
    { builder: SessionBuilder; tools: ToolRecorder }
  >();
  readonly #called = new Set<string>();
  readonly #quiet = new Set<string>();
  skipped = 0;

  constructor(path: string, options: CopilotEventsOptions) {
    this.#options = options;
    this.#path = path;
    this.state = readState(options.state);
    const cwd = this.state.cwd ?? options.cwd;
    if (cwd) this.state.cwd = cwd;
    this.main = new SessionBuilder({
      harness: options.harness,
      id: this.state.sessionId ?? options.fallbackId,
      path,
      cwd,
      nextSeq: this.state.nextSeq,
      parent: this.state.parent,
      lineage: this.state.parent ? this.state.lineage ?? "fork" : undefined,
    });
    const title = this.state.title ?? options.title;
    if (title) this.main.setTitle(title);
    this.#mainTools = new ToolRecorder(this.main, DIALECT);
  }

  line(event: Json, base: Locator): void {
    const type = str(event.type);
    const data = isObject(event.data) ? event.data : {};
    if (!type) {
      this.skipped++;
      return;
    }
    const eventId = str(event.id);
    const locator: Locator = eventId ? { ...base, recordId: eventId } : base;
    const time = parseTime(event.timestamp);
    if (type === "session.start" || type === "session.resume") {
      this.#start(data, time);
      return;
    }
    if (type === "session.title_changed") {
      const title = str(data.title)?.trim();
      if (title) {
        this.state.title = title;
        this.main.setTitle(title);
      }
      this.main.touch(time);
      return;
    }
    if (type === "session.info") {
      const m = data.infoType === "fork"
        ? FORKED_FROM.exec(str(data.message) ?? "")
        : null;
      if (m?.[1] && m[1] !== this.state.sessionId) {
        this.state.parent = m[1];
        this.state.lineage = "fork";
        this.main.setParent(m[1], "fork");
      }
      return;
    }
    const agent = agentOf(event, data);
    let builder = this.main;
    let tools = this.#mainTools;
    let flags: RecordFlags | undefined;
    if (agent) {
      if (!this.#options.includeSubagents) return;
      const side = this.#side(agent);
      builder = side.builder;
      tools = side.tools;
      flags = { subagent: true };
    }
    const extra = flags ? { flags } : {};
    const at = { locator, time, flags };
    switch (type) {
      case "user.message":
        if (isInjected(data, agent === undefined)) {
          builder.touch(time);
          break;
        }
        builder.add("user", cleanSpeech(str(data.content) ?? ""), {
          locator,
          time,
          ...extra,
        });
        tools.newMessage();
        for (const file of attachedFiles(data)) tools.file(file, "mention", at);
        break;
      case "assistant.message": {
        builder.add("assistant", cleanSpeech(str(data.content) ?? ""), {
          locator,
          time,
          ...extra,
        });
        tools.newMessage();
        const requests = Array.isArray(data.toolRequests)
          ? data.toolRequests
          : [];
        for (const request of requests) {
          if (!isObject(request)) continue;
          this.#call(
            tools,
            str(request.toolCallId),
            str(request.name),
            request.arguments,
            at,
          );
        }
        break;
      }
      case "tool.execution_start":
        this.#call(
          tools,
          str(data.toolCallId),
          str(data.toolName),
          data.arguments,
          at,
        );
        break;
      case "tool.execution_complete": {
        const id = str(data.toolCallId);
        if (id && this.#quiet.has(id)) {
          this.#quiet.delete(id);
          break;
        }
        tools.result(
          id,
          resultText(data),
          data.success === false,
          at,
          resultExitCode(data),
        );
        break;
      }
      case "session.schedule_created":
        // `/every` and `/after` take the person's prompt (the label they typed
        // when it expands a skill); its firings (`schedule-…`) are left out.
        if (data.origin === "model") {
          builder.touch(time);
          break;
        }
        builder.add(
          "user",
          cleanSpeech(str(data.displayPrompt) ?? str(data.prompt) ?? ""),
          { locator, time, ...extra },
        );
        break;
      case "session.error": {
        // A model call that failed (rate limit, quota, context limit): no one
        // spoke, but it is why the turn stopped. Kept as the model's error.
        const message = str(data.message)?.trim();
        if (!message) {
          builder.touch(time);
          break;
        }
        builder.add("tool-output", message, {
          locator,
          time,
          tool: "model",
          flags: { ...flags, isError: true },
        });
        break;
      }
      case "session.compaction_complete":
      case "session.task_complete":
      case "session.handoff": {
        const summary = str(data.summaryContent) ?? str(data.summary);
        builder.add("summary", summary ?? "", { locator, time, ...extra });
        break;
      }
      default:
        // Turn markers, model changes, hooks, usage: bookkeeping.
        builder.touch(time);
    }
  }

  #start(data: Json, time: number | undefined): void {
    const id = str(data.sessionId);
    if (id && this.state.sessionId === undefined) {
      this.state.sessionId = id;
      this.main.setId(id);
    }
    // A detached run (a headless agent launched as its session shut down)
    // continues the session that spawned it.
    const spawner = str(data.detachedFromSpawningParentSessionId);
    if (
      spawner && this.state.parent === undefined &&
      spawner !== this.state.sessionId
    ) {
      this.state.parent = spawner;
      this.state.lineage = "subagent";
      this.main.setParent(spawner, "subagent");
    }
    const context = isObject(data.context) ? data.context : {};
    const cwd = str(context.cwd);
    if (cwd && this.state.cwd === undefined) {
      this.state.cwd = cwd;
      this.main.setCwd(cwd);
    }
    this.main.touch(parseTime(data.startTime) ?? time);
  }

  #call(
    tools: ToolRecorder,
    id: string | undefined,
    name: string | undefined,
    input: unknown,
    at: {
      locator: Locator;
      time: number | undefined;
      flags?: RecordFlags | undefined;
    },
  ): void {
    if (!name) return;
    if (id) {
      if (this.#called.has(id)) return;
      this.#called.add(id);
    }
    if (QUIET_TOOLS.has(name)) {
      if (id) this.#quiet.add(id);
      return;
    }
    tools.call(id, name, input, at);
  }

  #side(agent: string): { builder: SessionBuilder; tools: ToolRecorder } {
    let side = this.#sides.get(agent);
    if (side) return side;
    const parent = this.state.sessionId ?? this.#options.fallbackId;
    const lineage: Lineage = "sidechain";
    const builder = new SessionBuilder({
      harness: this.#options.harness,
      id: `${parent}:${agent}`,
      path: this.#path,
      cwd: this.state.cwd,
      nextSeq: this.state.sides && Object.hasOwn(this.state.sides, agent)
        ? this.state.sides[agent] ?? 0
        : 0,
      parent,
      lineage,
    });
    side = { builder, tools: new ToolRecorder(builder, DIALECT) };
    this.#sides.set(agent, side);
    return side;
  }

  sessions(): SessionBuilder[] {
    return [this.main, ...[...this.#sides.values()].map((s) => s.builder)];
  }

  resumeState(): CopilotEventsState {
    const state: CopilotEventsState = {
      ...this.state,
      nextSeq: this.main.nextSeq,
    };
    if (this.#sides.size > 0 || this.state.sides) {
      const sides = { ...this.state.sides };
      for (const [agent, side] of this.#sides) {
        sides[agent] = side.builder.nextSeq;
      }
      state.sides = sides;
    }
    return state;
  }
}

/**
 * Parses a Copilot event log (from `options.offset` when resuming): user and
 * assistant messages, tool calls as command/files/edit records, results as
 * tool-output (isError when `success` is false or a command exited
 * non-zero; a shell result's `<exited with exit code N>` footer becomes the
 * command's exit code),
 * compaction, task and handoff summaries, sub-agent events (stamped `agentId`, or
 * `parentToolCallId` in older builds) as side chains, a detached run under
 * the session that spawned it, the latest
 * `session.title_changed` title, and a `/fork`'s source from its
 * `session.info` note. User turns nobody typed (skill injections, autopilot
 * prompts, schedule firings, another agent's prompt to the main session) are
 * left out.
 *
 * @param path The events file.
 * @param options Harness id, fallback id, resume point and side-file facts.
 * @returns The sessions and the resume point.
 * @example
 * ```ts
 * import { parseCopilotEvents } from "./_copilot_events.ts";
 * import { equal } from "node:assert/strict";
 * const path = await Deno.makeTempFile();
 * await Deno.writeTextFile(path, JSON.stringify({
 *   type: "user.message", data: { content: "run the tests" },
 *   id: "e1", timestamp: "2026-01-01T00:00:00Z", parentId: null,
 * }) + "\n");
 * const { sessions } = await parseCopilotEvents(path, {
 *   harness: "copilot-cli", fallbackId: "s1", includeSubagents: true,
 *   source: { home: "/h", env: {}, os: "linux" },
 * });
 * equal(sessions[0]?.records[0]?.text, "run the tests");
 * ```
 */
export async function parseCopilotEvents(
  path: string,
  options: CopilotEventsOptions,
): Promise<ParseResult> {
  const reader = new EventsReader(path, options);
  const walkOptions: {
    offset?: number;
    firstLine?: number;
    maxLineBytes?: number;
  } = {};
  if (options.offset !== undefined) walkOptions.offset = options.offset;
  if (options.firstLine !== undefined) {
    walkOptions.firstLine = options.firstLine;
  }
  if (options.maxLineBytes !== undefined) {
    walkOptions.maxLineBytes = options.maxLineBytes;
  }
  const walked = await walkJsonLines(
    path,
    walkOptions,
    (event, locator) => reader.line(event, locator),
  );
  return {
    sessions: reader.sessions().map((b) => b.build()).filter((s) =>
      s.records.length > 0
    ),
    safeOffset: walked.safeOffset,
    safeLine: walked.safeLine,
    state: reader.resumeState(),
    skipped: walked.skipped + reader.skipped,
  };
}
