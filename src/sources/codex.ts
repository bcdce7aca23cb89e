/**
 * Codex CLI: rollout transcripts under `${CODEX_HOME:-~/.codex}/sessions`
 * (plain `.jsonl`, or `.jsonl.zst` once Codex compresses old ones), archived
 * rollouts, the prompt log `history.jsonl`, and the thread names in
 * `session_index.jsonl`.
 *
 * A rollout line is `{timestamp, type, payload}`. Each user turn is written
 * twice (a `response_item` and an `event_msg`), and so is each assistant
 * reply; the parser keeps one copy of each, preferring the `event_msg` for
 * user text and the `response_item` for assistant text.
 *
 * @module
 */
import { posix, win32 } from "node:path";
import type {
  FileKind,
  Harness,
  ParseOptions,
  ParseResult,
  SourceEnv,
} from "../core/harness.ts";
import { walkFiles } from "../core/harness.ts";
import { fingerprint } from "../core/hash.ts";
import { isZstdPath, type OversizedLine, readLines } from "../core/lines.ts";
import { cleanSpeech, tagBody } from "../core/text.ts";
import { parseTime } from "../core/time.ts";
import type {
  Locator,
  RecordFlags,
  Role,
  SessionRecord,
} from "../core/types.ts";
import { type AddRecordOptions, SessionBuilder } from "./_builder.ts";
import { isObject, type Json, parseJson, str } from "./_json.ts";
import { readJsonDocument } from "./_json_doc.ts";
import { baseName, isRegularFileSync } from "./_paths.ts";
import { editBody } from "./_work_records.ts";

const HARNESS_ID = "codex";

/** Bounds on what the resume state carries, so it stays small. */
const MAX_STATE_TURNS = 2000;
const MAX_STATE_CALLS = 256;
const MAX_STATE_TWINS = 64;
const MAX_STATE_SAID = 256;

/** A tool call whose output has not been seen yet (part of the resume state). */
export interface CodexPendingCall {
  /** Tool name as Codex wrote it. */
  tool: string;
  /**
   * How its output is treated; `empty` is a shell call with no command
   * (nothing was recorded for it to answer).
   */
  kind: "shell" | "patch" | "plan" | "stdin" | "other" | "empty";
  /** For `write_stdin`: the unified-exec session it polls. */
  execSession?: string;
  /**
   * Codex reported the call failed in an event written before its output
   * (an MCP call's `mcp_tool_call_end`, a `patch_apply_end`, a dynamic
   * tool's response): the output is an error, though its text may not say so.
   */
  failed?: boolean;
}

/**
 * What a rollout parse returns as `state`, to resume at `safeOffset`.
 * Everything is JSON; unknown or malformed state makes the parser re-read
 * the file from its start and return only the records past the offset.
 */
export interface CodexRolloutState {
  /** Next seq to assign. */
  nextSeq: number;
  /** Session id (from the first `session_meta`, else the file name). */
  id: string;
  /** Session working directory. */
  cwd?: string;
  /** Working directory of the latest turn (patch paths resolve against it). */
  turnCwd?: string;
  /** Fork source (`forked_from_id`) or spawning thread of a sub-agent. */
  parent?: string;
  /** Set for a sub-agent thread; a parent without it is a fork. */
  subagent?: boolean;
  /** Whether the first `session_meta` was read (later ones are copies). */
  metaSeen: boolean;
  /** Seq at which each live user turn started (for `thread_rolled_back`). */
  userTurnSeqs: number[];
  /** Calls whose output has not arrived yet, by `call_id`. */
  pendingCalls: Record<string, CodexPendingCall>;
  /** An `event_msg` user message was seen: `response_item` user echoes are dropped. */
  userCanonical: boolean;
  /** An assistant `response_item` was seen: `agent_message` echoes are dropped. */
  assistantCanonical: boolean;
  /** `role:sha256` of the last speech record, to drop an echo written right after it. */
  lastSpeech?: string;
  /** Records a response item and its `event_msg` twin both report, waiting for the twin. */
  twins?: string[];
  /** Hash of the model error just recorded, to record a run of it once. */
  lastError?: string;
  /** Inside a `/review` (between `entered_review_mode` and its exit), or a review sub-agent. */
  reviewing?: boolean;
  /**
   * Fingerprints of the plan steps, plan explanations and call
   * justifications already recorded: each is said once a session.
   */
  said?: string[];
}

/** What a `history.jsonl` parse returns as `state`: next seq per session. */
export interface CodexHistoryState {
  /** Next seq per session id. */
  seqs: Record<string, number>;
}

// ---------------------------------------------------------------------------
// Small JSON helpers for untrusted input.

function int(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isInteger(value)) return value;
  if (typeof value === "string" && /^-?\d{1,10}$/.test(value.trim())) {
    return Number(value.trim());
  }
  return undefined;
}

/**
 * Text of a message `content`: a string, or an array of `{text}` parts (an
 * MCP resource's text too; images and other binary parts have none).
 */
function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  for (const item of content) {
    if (typeof item === "string") parts.push(item);
    else if (isObject(item) && typeof item.text === "string") {
      parts.push(item.text);
    } else if (isObject(item) && isObject(item.resource)) {
      const text = str(item.resource.text);
      if (text) parts.push(text);
    }
  }
  return parts.join("\n");
}

/** Whether a value is an MCP tool's content blocks: objects with a `type`. */
function isContentBlocks(value: unknown): value is Json[] {
  return Array.isArray(value) && value.length > 0 &&
    value.every((b) => isObject(b) && typeof b.type === "string");
}

// ---------------------------------------------------------------------------
// Tool calls: commands, outputs and patches.

const SHELL_ARGV_TOOLS = new Set(["shell", "container.exec", "local_shell"]);
const SHELL_WRAPPERS = /^(ba|z|da|k|fi)?sh$/;
const SAFE_ARG = /^[\w@%+=:,./-]+$/;

/** Quotes one argv word the way a POSIX shell would read it back. */
function quoteArg(arg: string): string {
  if (arg.length > 0 && SAFE_ARG.test(arg)) return arg;
  return `'${arg.replaceAll("'", `'\\''`)}'`;
}

/** A command line from an argv, unwrapping `bash -lc "<script>"`. */
function argvText(argv: readonly string[]): string {
  const [head, flag, script] = argv;
  if (
    argv.length === 3 && head !== undefined && flag !== undefined &&
    script !== undefined && SHELL_WRAPPERS.test(baseName(head)) &&
    /^-[a-z]*c$/.test(flag)
  ) {
    return script;
  }
  if (
    head !== undefined && /^(pwsh|powershell)(\.exe)?$/i.test(baseName(head))
  ) {
    const at = argv.findIndex((a) => /^-(c|command)$/i.test(a));
    if (at > 0 && at < argv.length - 1) return argv.slice(at + 1).join(" ");
  }
  return argv.map(quoteArg).join(" ");
}

/**
 * A tool's full name: a namespaced tool (an MCP server's, `mcp__linear__`)
 * keeps its namespace in front of its name; the default `functions` space
 * adds nothing.
 */
function toolName(payload: Json): string {
  const name = str(payload.name) ?? "";
  const space = str(payload.namespace);
  if (!name || !space || space === "functions" || name.startsWith(space)) {
    return name;
  }
  return space.endsWith("__") ? `${space}${name}` : `${space}__${name}`;
}

function stringArray(value: unknown): string[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  return value.every((v) => typeof v === "string") ? value : undefined;
}

/**
 * What a `tool_search_call` looked for: its `query` (or `queries`), from
 * `arguments` as an object or a JSON string.
 */
function toolSearchQuery(args: unknown): string | undefined {
  const a = typeof args === "string" ? parseJson(args) : args;
  if (!isObject(a)) return undefined;
  const queries = stringArray(a.queries) ?? [str(a.query) ?? ""];
  const text = queries.map((q) => q.trim()).filter((q) => q).join("\n");
  return text || undefined;
}

/**
 * The tools a `tool_search_output` found, one a line: the name (inside a
 * namespace, with it in front, as calls name them) and the description.
 */
function toolSearchFound(tools: unknown): string {
  const lines: string[] = [];
  const add = (tool: Json, space?: string) => {
    const name = toolName(space ? { ...tool, namespace: space } : tool);
    if (!name) return;
    const about = str(tool.description)?.trim();
    lines.push(about ? `${name}: ${about}` : name);
  };
  for (const tool of Array.isArray(tools) ? tools : []) {
    if (!isObject(tool)) continue;
    if (tool.type === "namespace" && Array.isArray(tool.tools)) {
      const space = str(tool.name);
      for (const inner of tool.tools) if (isObject(inner)) add(inner, space);
    } else add(tool);
  }
  return lines.join("\n");
}

/**
 * What a web search action looked for: its queries (`search`), the page it
 * opened (`open_page`), or the text it sought in one (`find_in_page`).
 */
function webSearchText(action: unknown): string | undefined {
  if (!isObject(action)) return undefined;
  const parts = action.type === "search"
    ? [str(action.query), ...(stringArray(action.queries) ?? [])]
    : action.type === "open_page"
    ? [str(action.url)]
    : action.type === "find_in_page"
    ? [str(action.pattern), str(action.url)]
    : [];
  const kept = parts.map((p) => p?.trim()).filter((p): p is string => !!p);
  return kept.length > 0 ? [...new Set(kept)].join("\n") : undefined;
}

/**
 * A shell command a code-mode `exec` script runs: the string literal it
 * passes as `cmd` or `command` to `tools.exec_command` or
 * `tools.shell_command`. The search for the key stops at a brace: past one
 * it retried every later unclosed call (`tools.exec_command({` over and over
 * in a 200 KB script took 2 s, a few MB minutes).
 */
const NESTED_COMMAND =
  /\btools\.(?:exec_command|shell_command)\s*\(\s*\{[^{}]*?["']?\b(?:cmd|command)["']?\s*:\s*("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\$]|\\[\s\S]|\$(?!\{))*`)/g;

const JS_ESCAPES: Record<string, string> = {
  n: "\n",
  t: "\t",
  r: "\r",
  b: "\b",
  f: "\f",
  v: "\v",
  "0": "\0",
};

/** The value of a JavaScript string literal without `${}` (quotes included). */
function jsString(literal: string): string {
  return literal.slice(1, -1).replace(
    /\\(?:u\{([0-9a-fA-F]{1,6})\}|u([0-9a-fA-F]{4})|x([0-9a-fA-F]{2})|(\r\n|[\s\S]))/g,
    (_, braced?: string, u4?: string, x2?: string, other?: string) => {
      const hex = braced ?? u4 ?? x2;
      if (hex !== undefined) {
        const code = Number.parseInt(hex, 16);
        return code <= 0x10ffff ? String.fromCodePoint(code) : "";
      }
      const char = other ?? "";
      // A backslash before a line break continues the line.
      if (/^[\r\n]/.test(char)) return "";
      return JS_ESCAPES[char] ?? char;
    },
  );
}

/** The shell commands in a code-mode script, in order. */
function nestedCommands(script: string): string[] {
  return [...script.matchAll(NESTED_COMMAND)]
    .map((m) => jsString(m[1] as string).trim())
    .filter((c) => c.length > 0);
}

/** The patch inside an `apply_patch` argv or heredoc script, if any. */
function embeddedPatch(
  argv: readonly string[] | undefined,
  script: string,
): string | undefined {
  if (argv && argv.length === 2 && /^apply_?patch$/.test(argv[0] ?? "")) {
    return argv[1];
  }
  if (!/^\s*(cd\s+\S+\s*&&\s*)?apply_?patch\b/.test(script)) return undefined;
  const start = script.indexOf("*** Begin Patch");
  if (start === -1) return undefined;
  const end = script.indexOf("*** End Patch", start);
  return end === -1
    ? script.slice(start)
    : script.slice(start, end + "*** End Patch".length);
}

/** One file a patch touches, with the lines it removes. */
interface PatchFile {
  path: string;
  removed: string[];
}

/** Reads `*** Update|Add|Delete File:` sections and their `-` lines. */
function parsePatch(patch: string): PatchFile[] {
  const files: PatchFile[] = [];
  let current: PatchFile | undefined;
  for (const raw of patch.split("\n")) {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    const header = /^\*\*\* (Update|Add|Delete) File: (.+)$/.exec(line);
    if (header) {
      current = { path: (header[2] as string).trim(), removed: [] };
      files.push(current);
      continue;
    }
    const move = /^\*\*\* Move to: (.+)$/.exec(line);
    if (move) {
      files.push({ path: (move[1] as string).trim(), removed: [] });
      continue;
    }
    if (line.startsWith("***")) continue;
    if (current && line.startsWith("-")) current.removed.push(line.slice(1));
  }
  return files.filter((f) => f.path.length > 0);
}

function isAbsolutePath(path: string): boolean {
  return path.startsWith("/") || /^[A-Za-z]:[\\/]/.test(path) ||
    path.startsWith("\\\\");
}

/** Resolves a patch path against the working directory it ran in. */
function resolvePath(path: string, cwd: string | undefined): string {
  if (!cwd || isAbsolutePath(path)) return path;
  const windows = /^[A-Za-z]:[\\/]/.test(cwd) ||
    (cwd.includes("\\") && !cwd.includes("/"));
  return windows ? win32.join(cwd, path) : posix.join(cwd, path);
}

/** A tool's output as deja keeps it. */
interface ToolOutput {
  text: string;
  exitCode?: number;
  isError?: boolean;
  /** Unified exec: the process is still running under this session id. */
  running?: string;
}

const EXIT_LINE = /^(?:Exit code:|Process exited with code)\s*(-?\d+)/m;
const RUNNING_LINE = /^Process running with session ID\s+(\d+)/m;

const OUTPUT_MARKER = /(?:^|\n)Output:(?:\n|$)/;
/** The status code mode puts in front of a script's output. */
const SCRIPT_STATUS =
  /^Script (completed|failed|terminated|running with cell ID \S+)\nWall time:? [\d.]+ seconds$/;
/** Codex's note in front of output it shortened. */
const TRUNCATION_NOTE = /^Total output lines: \d+\n\n?/;

/** Reads `Exit code: N` / `Process exited with code N` headers and the body after `Output:`. */
function plainOutput(text: string): ToolOutput {
  const marker = OUTPUT_MARKER.exec(text);
  // Without an `Output:` header block only the first lines may carry a status.
  const head = marker
    ? text.slice(0, marker.index)
    : text.split("\n", 3).join("\n");
  const body = marker ? text.slice(marker.index + marker[0].length) : text;
  const script = marker ? SCRIPT_STATUS.exec(head) : null;
  if (script) {
    // A code-mode script's output: what it printed may be a command's
    // output with its own status lines.
    const inner = plainOutput(body.replace(/^\n+/, ""));
    if (script[1] === "failed" || script[1] === "terminated") {
      inner.isError = true;
    }
    return inner;
  }
  const out: ToolOutput = { text: body };
  const exit = EXIT_LINE.exec(head);
  if (exit) {
    out.exitCode = Number(exit[1]);
    if (!marker) out.text = text.replace(EXIT_LINE, "").trim();
  }
  const running = RUNNING_LINE.exec(head);
  if (running) out.running = running[1] as string;
  // Codex's own failures, said in words: a patch it could not apply, an MCP
  // call that errored.
  if (FAILED_CALL.test(text)) out.isError = true;
  return out;
}

/**
 * How Codex opens the text of a tool call that failed or never ran: a patch
 * it could not apply, a call it could not parse, one the person or the
 * approval reviewer declined, one the sandbox stopped, a tool that does not
 * exist.
 */
const FAILED_CALL =
  /^\s*(?:apply_patch verification failed|tool call error|error: failed to|Failed to (?:apply|parse|find)|(?:exec command|patch) rejected by user|This action was rejected|failed in sandbox|unsupported (?:custom tool )?call)/i;

/** How Codex words an MCP call that failed before the server answered. */
const MCP_CALL_ERROR = /^err: /;

/**
 * Whether a tool call's end event says it failed: an MCP call's `result`
 * is `{Err: message}` or an `{Ok: result}` whose `isError` is set; a patch
 * or a dynamic tool says `success: false`.
 */
function callFailed(payload: Json): boolean {
  if (payload.type !== "mcp_tool_call_end") return payload.success === false;
  const result = payload.result;
  if (!isObject(result)) return false;
  if ("Err" in result) return true;
  const ok = isObject(result.Ok) ? result.Ok : undefined;
  return ok?.isError === true || ok?.is_error === true;
}

/** The tool a tool call's end event names, as its call would. */
function endedTool(payload: Json): string {
  if (payload.type === "patch_apply_end") return "apply_patch";
  const invocation = isObject(payload.invocation) ? payload.invocation : {};
  const server = str(invocation.server);
  const tool = str(invocation.tool) ?? str(payload.tool) ?? "";
  const space = server ? `mcp__${server}__` : str(payload.namespace);
  return toolName({ name: tool, namespace: space });
}

/** Parses a `function_call_output` / `custom_tool_call_output` `output`. */
function toolOutput(output: unknown, depth = 0): ToolOutput {
  if (typeof output === "string") {
    if (depth === 0 && output.trimStart().startsWith("{")) {
      // Codex 0.55 wraps shell output as {output, metadata: {exit_code}};
      // other JSON is the tool's own text.
      const parsed = parseJson(output);
      if (isObject(parsed) && ("output" in parsed || "content" in parsed)) {
        return toolOutput(parsed, depth + 1);
      }
    }
    if (depth === 0 && output.trimStart().startsWith("[")) {
      // Older versions wrote an MCP result's content blocks as a JSON
      // string: their text is kept, not an image's base64 data.
      const parsed = parseJson(output);
      if (isContentBlocks(parsed)) return plainOutput(contentText(parsed));
    }
    return plainOutput(output);
  }
  if (Array.isArray(output)) return plainOutput(contentText(output));
  if (!isObject(output)) return { text: "" };
  const inner = typeof output.output === "string"
    ? output.output
    : output.content;
  const text = typeof inner === "string" ? inner : contentText(inner);
  const meta = isObject(output.metadata) ? output.metadata : undefined;
  const exit = int(meta?.exit_code) ?? int(output.exit_code);
  // With the status in metadata the text is the command's own output.
  const out: ToolOutput = exit === undefined
    ? plainOutput(text)
    : { text: text.replace(TRUNCATION_NOTE, ""), exitCode: exit };
  if (output.isError === true || output.success === false) out.isError = true;
  return out;
}

// ---------------------------------------------------------------------------
// The rollout parser.

/**
 * Where to resume if a command is still waiting for its output when the
 * file ends: the command's line is read again next time, so its record gets
 * the exit code instead of going out without one.
 */
interface Checkpoint {
  offset: number;
  line: number;
  seq: number;
  marks: number;
  state: CodexRolloutState;
}

/** Which copy of a twice-written record: the response item or its `event_msg`. */
type Side = "item" | "event";

/**
 * A speech echo held back until we know whether its canonical copy follows,
 * or a plan until we know whether the message after it says it.
 */
interface Held {
  role: "user" | "assistant";
  text: string;
  time: number | undefined;
  locator: Locator;
  plan?: boolean;
  /** A review's findings, which the assistant message after them renders. */
  review?: boolean;
}

/** The resume point of a held plan or review. */
const PLAN_CHECKPOINT = "plan:held";

const RESPONSE_ITEM_TYPES = new Set([
  "message",
  "function_call",
  "function_call_output",
  "custom_tool_call",
  "custom_tool_call_output",
  "local_shell_call",
  "reasoning",
  "web_search_call",
  "image_generation_call",
]);

const ENVELOPE_TYPES = new Set([
  "session_meta",
  "response_item",
  "event_msg",
  "turn_context",
  "compacted",
  "inter_agent_communication",
]);

/**
 * The cwd inside the `<environment_context>` block Codex puts in a user
 * turn: the `<cwd>` after the first `<environment_context>`, found by search
 * (a lazy regex from each `<environment_context>` retried every later one
 * when no `<cwd>` followed: a few MB of them, minutes).
 */
function environmentCwd(text: string): string | undefined {
  const at = text.indexOf("<environment_context>");
  if (at === -1) return undefined;
  return /<cwd>([^<]+)<\/cwd>/.exec(text.slice(at))?.[1]?.trim();
}

const UUID_TAIL =
  /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl?(\.zst)?$/i;

/** `thread_source` values Codex gives a thread another one started. */
const SUBAGENT_THREAD_SOURCES = new Set(["subagent", "guardian_review"]);

/**
 * The thread that started a sub-agent rollout, from its `session_meta`:
 * `source.subagent.thread_spawn.parent_thread_id` for a spawned agent; for
 * any sub-agent (a review, a compaction, `other`) or a `thread_source` of
 * `subagent`/`guardian_review`, the top-level `parent_thread_id` newer
 * versions write. Older review and compaction rollouts name no parent.
 */
function spawnedBy(payload: Json): string | undefined {
  const source = payload.source;
  const sub = isObject(source) ? source.subagent : undefined;
  const spawn = isObject(sub) ? sub.thread_spawn : undefined;
  const fromSource = isObject(spawn) ? str(spawn.parent_thread_id) : undefined;
  if (fromSource) return fromSource;
  const subagent = sub !== undefined && sub !== null ||
    SUBAGENT_THREAD_SOURCES.has(str(payload.thread_source) ?? "");
  return subagent ? str(payload.parent_thread_id) : undefined;
}

/**
 * The rollout a thread with paginated history (0.146+) took its history
 * from without copying it (`history_base.thread_id`), when that is another
 * thread's: a fork. A base of the thread's own is its earlier file, which a
 * revert left behind.
 */
function inheritedFrom(
  payload: Json,
  id: string | undefined,
): string | undefined {
  const base = isObject(payload.history_base)
    ? str(payload.history_base.thread_id)
    : undefined;
  return base && base !== id ? base : undefined;
}

/** A message between agents: who wrote it, to whom, and what it says. */
interface AgentMessage {
  author: string | undefined;
  recipient: string | undefined;
  content: string;
}

/**
 * A message between agents that Codex wrote as an assistant message whose
 * one text part is the serialized message (`InterAgentCommunication`:
 * `author`, `recipient`, `content`, `trigger_turn`), else undefined. An
 * encrypted one has no readable content (""), and is read as nothing.
 */
function serializedAgentMessage(content: unknown): AgentMessage | undefined {
  if (!Array.isArray(content) || content.length !== 1) return undefined;
  const part = content[0];
  const text = isObject(part) ? str(part.text)?.trim() : undefined;
  if (!text?.startsWith("{") || !text.includes('"recipient"')) return undefined;
  const value = parseJson(text);
  if (
    !isObject(value) || typeof value.author !== "string" ||
    typeof value.recipient !== "string" || typeof value.content !== "string" ||
    typeof value.trigger_turn !== "boolean"
  ) return undefined;
  return {
    author: value.author,
    recipient: value.recipient,
    content: value.content,
  };
}

/** The session id a rollout's file name implies. */
function idFromFileName(path: string): string {
  const name = baseName(path);
  const uuid = UUID_TAIL.exec(name);
  if (uuid) return (uuid[1] as string).toLowerCase();
  return name.replace(/^rollout-/, "").replace(/\.jsonl?(\.zst)?$/, "");
}

function speechKey(role: string, text: string): string {
  return `${role}:${fingerprint(text)}`;
}

/** Tools the model sets a thread's goal with. */
const GOAL_TOOLS = new Set(["create_goal", "update_goal"]);

/**
 * Blocks Codex writes as user messages that nobody typed, besides those
 * `cleanSpeech` knows: the note that a turn was interrupted, a review's
 * findings handed back (`<user_action>`), the list of running sub-agents
 * and of installed plugins.
 */
const CODEX_USER_FRAGMENTS = [
  "turn_aborted",
  "user_action",
  "subagents",
  "plugins",
];

/** Text without the Codex fragments it starts with (each closed). */
function withoutCodexFragments(text: string): string {
  let out = text.trimStart();
  for (;;) {
    const tag = CODEX_USER_FRAGMENTS.find((t) => out.startsWith(`<${t}>`));
    const close = tag === undefined ? -1 : out.indexOf(`</${tag}>`);
    if (tag === undefined || close === -1) return out;
    out = out.slice(close + tag.length + 3).trimStart();
  }
}

/** Text of a user message without harness-injected preambles. */
function userText(raw: string): string {
  let text = raw;
  // IDE extensions put context first; the person's words follow this header.
  const ask = text.lastIndexOf("## My request for Codex:");
  if (ask !== -1) text = text.slice(ask + "## My request for Codex:".length);
  const cleaned = cleanSpeech(text);
  const rest = withoutCodexFragments(cleaned);
  return rest === cleaned ? cleaned : cleanSpeech(rest);
}

/** A markdown heading line: its words, without the `#` marks. */
const HEADING = /^#{1,6}[ \t]+(.*?)[ \t#]*$/;
/**
 * The heading of the section a prompt template shows the person's input in
 * (spec-kit's `## User Input`, an `## Arguments` section).
 */
const INPUT_HEADING =
  /^#{1,6}[ \t]+(?:user[ \t]+(?:input|request)|arguments|\$ARGUMENTS)[ \t]*:?[ \t#]*$/i;
/** A fence line: three or more backticks or tildes, then an info string. */
const FENCE = /^[ \t]*(`{3,}|~{3,})/;

/**
 * The body of a template's input section starting at `from`: a fenced
 * block's content, else the paragraph under the heading. A placeholder left
 * unexpanded (`$ARGUMENTS`) is no input.
 */
function sectionInput(lines: readonly string[], from: number): string {
  let at = from;
  while (at < lines.length && (lines[at] as string).trim() === "") at++;
  const fence = FENCE.exec(lines[at] ?? "")?.[1];
  const body: string[] = [];
  if (fence) {
    for (at++; at < lines.length; at++) {
      const line = lines[at] as string;
      if (line.trim().startsWith(fence)) break;
      body.push(line);
    }
  } else {
    for (; at < lines.length; at++) {
      const line = lines[at] as string;
      if (line.trim() === "" || HEADING.test(line)) break;
      body.push(line);
    }
  }
  const text = body.join("\n").trim();
  return /^\$[A-Z][A-Z0-9_]*$/.test(text) ? "" : text;
}

/**
 * The title of a user message Codex expanded from a prompt template (one
 * that opens with a markdown heading, as `~/.codex/prompts/*.md` and
 * spec-kit's commands do): the input the person typed, where the template
 * shows it in a section of its own, else the heading's words. Undefined for
 * any other message, which its first line titles.
 */
function templateTitle(text: string): string | undefined {
  const start = text.trimStart();
  if (!start.startsWith("#")) return undefined;
  const lines = start.split("\n").map((l) => l.replace(/\r$/, ""));
  const heading = HEADING.exec(lines[0] as string)?.[1]?.trim();
  if (!heading) return undefined;
  let inFence = "";
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    // A heading inside a fenced block is an example, not a section.
    const fence = FENCE.exec(line)?.[1];
    if (fence && (!inFence || line.trim().startsWith(inFence))) {
      inFence = inFence ? "" : fence;
      continue;
    }
    if (inFence || !INPUT_HEADING.test(line)) continue;
    const input = sectionInput(lines, i + 1);
    if (input) return input;
  }
  return heading;
}

/**
 * The plan text of an `update_plan` call: its explanation and the steps it
 * adds. The plan is written whole on each call, so a step (or explanation)
 * whose fingerprint is in `said` is not repeated; `said` grows, oldest
 * dropped past its cap.
 */
function planWords(
  args: Json,
  said: Set<string>,
): { explanation: string; steps: string } {
  const fresh = (text: string | undefined): string | undefined => {
    const body = text?.trim();
    return body && remember(said, body) ? body : undefined;
  };
  const explanation = fresh(str(args.explanation)) ?? "";
  const steps: string[] = [];
  for (const item of Array.isArray(args.plan) ? args.plan : []) {
    const step = fresh(isObject(item) ? str(item.step) : undefined);
    if (step) steps.push(step);
  }
  return { explanation, steps: steps.join("\n") };
}

/**
 * Adds a text's fingerprint to `said`, oldest dropped past the cap; returns
 * false when it was there already.
 */
function remember(said: Set<string>, text: string): boolean {
  const key = fingerprint(text);
  if (said.has(key)) return false;
  said.add(key);
  if (said.size > MAX_STATE_SAID) said.delete(said.values().next().value ?? "");
  return true;
}

/** How Codex's review rubric (`REVIEW_PROMPT`) starts. */
const REVIEW_RUBRIC = "# Review guidelines:";
/** What joins the rubric to the request when both are in one message. */
const REVIEW_TASK = "Now, here's your task:";
/** The requests Codex writes for `/review`'s presets (`review_prompts.rs`). */
const REVIEW_PRESET =
  /^Review the (?:current code changes \(staged, unstaged, and untracked files\)|code changes (?:against the base branch|introduced by commit) )/;

/**
 * What a review request message says that the person wrote: nothing for
 * the rubric or a preset request Codex wrote, the instructions of a custom
 * review.
 */
function reviewRequestText(text: string): string {
  let rest = text.trim();
  if (rest.startsWith(REVIEW_RUBRIC)) {
    const task = rest.indexOf(REVIEW_TASK);
    rest = task === -1 ? "" : rest.slice(task + REVIEW_TASK.length).trim();
  }
  return REVIEW_PRESET.test(rest) ? "" : rest;
}

/**
 * The person's own words in an `entered_review_mode` event: a custom
 * review's instructions (`target.type: "custom"`; before late 2025, a
 * `prompt` the same as its `user_facing_hint`). A preset review has none.
 */
function reviewInstructions(payload: Json): string | undefined {
  const target = payload.target;
  if (isObject(target)) {
    return target.type === "custom" ? str(target.instructions) : undefined;
  }
  const prompt = str(payload.prompt)?.trim();
  return prompt && prompt === str(payload.user_facing_hint)?.trim()
    ? prompt
    : undefined;
}

/**
 * A review's result (`exited_review_mode`'s `review_output`) as text: the
 * overall explanation, then each finding's title, place and body.
 */
function reviewOutputText(output: unknown): string {
  if (!isObject(output)) return "";
  const parts: string[] = [];
  const overall = str(output.overall_explanation)?.trim();
  if (overall) parts.push(overall);
  for (const finding of Array.isArray(output.findings) ? output.findings : []) {
    if (!isObject(finding)) continue;
    const title = str(finding.title)?.trim() ?? "";
    const location = isObject(finding.code_location)
      ? finding.code_location
      : {};
    const path = str(location.absolute_file_path);
    const range = isObject(location.line_range) ? location.line_range : {};
    const start = int(range.start);
    const end = int(range.end);
    const place = path
      ? ` — ${path}${start === undefined ? "" : `:${start}`}${
        end === undefined || end === start ? "" : `-${end}`
      }`
      : "";
    const body = str(finding.body)?.trim();
    parts.push(`- ${title}${place}${body ? `\n  ${body}` : ""}`);
  }
  return parts.join("\n");
}

class RolloutParser {
  readonly builder: SessionBuilder;
  #cwd: string | undefined;
  #turnCwd: string | undefined;
  #parent: string | undefined;
  #subagent = false;
  #metaSeen: boolean;
  #turns: number[];
  #pending: Map<string, CodexPendingCall>;
  #userCanonical: boolean;
  #assistantCanonical: boolean;
  #lastSpeech: string | undefined;
  #twins: string[];
  #lastError: string | undefined;
  #reviewing: boolean;
  #lastSummary: string | undefined;
  #held: Held | undefined;
  #named = false;
  /** Fingerprints of the plan steps and call reasons already recorded. */
  #said: Set<string>;
  /** Command records of this pass, by call id, to attach exit codes. */
  #commands = new Map<string, SessionRecord>();
  /** Command records whose process still runs, by unified-exec session id. */
  #running = new Map<string, SessionRecord>();
  /** Resume points of commands still waiting for output, by call or exec id. */
  #checkpoints = new Map<string, Checkpoint>();
  /** Tool-output records of this pass, by call id, for a late failure report. */
  #outputs = new Map<string, SessionRecord>();

  constructor(path: string, state: CodexRolloutState | undefined) {
    this.#cwd = state?.cwd;
    this.#turnCwd = state?.turnCwd ?? state?.cwd;
    this.#parent = state?.parent;
    this.#subagent = state?.subagent ?? false;
    this.#metaSeen = state?.metaSeen ?? false;
    this.#turns = [...(state?.userTurnSeqs ?? [])];
    this.#pending = new Map(Object.entries(state?.pendingCalls ?? {}));
    this.#userCanonical = state?.userCanonical ?? false;
    this.#assistantCanonical = state?.assistantCanonical ?? false;
    this.#lastSpeech = state?.lastSpeech;
    this.#twins = [...(state?.twins ?? [])];
    this.#lastError = state?.lastError;
    this.#reviewing = state?.reviewing ?? false;
    this.#said = new Set(state?.said);
    this.builder = new SessionBuilder({
      harness: HARNESS_ID,
      id: state?.id ?? idFromFileName(path),
      path,
      cwd: state?.cwd,
      nextSeq: state?.nextSeq ?? 0,
      parent: state?.parent,
      lineage: state?.parent ? state.subagent ? "subagent" : "fork" : undefined,
    });
  }

  /** Whether this pass read a name given to the thread. */
  get named(): boolean {
    return this.#named;
  }

  /** Handles one parsed line; returns false when the line is malformed. */
  line(value: unknown, locator: Locator, first: boolean): boolean {
    if (!isObject(value)) return false;
    const time = parseTime(value.timestamp);
    this.builder.touch(time);
    const type = value.type;
    const payload = value.payload;
    if (payload === undefined) {
      // Rollouts before late 2025 have no envelope: a bare header, then bare items.
      if (typeof type === "string" && RESPONSE_ITEM_TYPES.has(type)) {
        this.#item(value, time, locator);
      } else if (type === undefined && first && str(value.id)) {
        this.#meta(value);
      }
      return true;
    }
    if (!isObject(payload)) return !ENVELOPE_TYPES.has(String(type));
    switch (type) {
      case "session_meta":
        this.#meta(payload);
        break;
      case "response_item":
        this.#item(payload, time, locator);
        break;
      case "event_msg":
        this.#event(payload, time, locator);
        break;
      case "turn_context":
        this.#turnContext(payload);
        break;
      case "compacted":
        this.#summary(str(payload.message), time, locator);
        break;
      case "inter_agent_communication":
        this.#interAgent(payload, time, locator);
        break;
    }
    return true;
  }

  /** Emits any held echo or plan; called at the end of a pass. */
  finish(): void {
    // A plan the file ends on may yet be said by the message after it: the
    // next pass reads it again, so what waited for output still waits.
    const held = this.#held;
    const waiting = held?.plan || held?.review
      ? new Map(this.#checkpoints)
      : undefined;
    this.#flush();
    if (waiting) this.#checkpoints = waiting;
  }

  /**
   * The earliest command still waiting for its output with nothing but tool
   * traffic after it, if any: the pass should stop before it.
   */
  tail(): Checkpoint | undefined {
    let first: Checkpoint | undefined;
    for (const cp of this.#checkpoints.values()) {
      if (!first || cp.seq < first.seq) first = cp;
    }
    return first;
  }

  /** State to resume after the last consumed line. */
  state(): CodexRolloutState {
    const session = this.builder.build();
    const state: CodexRolloutState = {
      nextSeq: this.builder.nextSeq,
      id: session.id,
      metaSeen: this.#metaSeen,
      userTurnSeqs: this.#turns.slice(-MAX_STATE_TURNS),
      pendingCalls: Object.fromEntries(
        [...this.#pending].slice(-MAX_STATE_CALLS),
      ),
      userCanonical: this.#userCanonical,
      assistantCanonical: this.#assistantCanonical,
    };
    if (this.#cwd) state.cwd = this.#cwd;
    if (this.#turnCwd) state.turnCwd = this.#turnCwd;
    if (this.#parent) state.parent = this.#parent;
    if (this.#subagent) state.subagent = true;
    if (this.#lastSpeech) state.lastSpeech = this.#lastSpeech;
    if (this.#twins.length > 0) state.twins = [...this.#twins];
    if (this.#lastError) state.lastError = this.#lastError;
    if (this.#reviewing) state.reviewing = true;
    if (this.#said.size > 0) state.said = [...this.#said];
    return state;
  }

  #meta(payload: Json): void {
    // A fork or resumed thread repeats its source's session_meta later in
    // the file; only the first one names this session.
    if (this.#metaSeen) return;
    this.#metaSeen = true;
    const id = str(payload.id) ?? str(payload.session_id);
    if (id) this.builder.setId(id);
    const cwd = str(payload.cwd);
    if (cwd) {
      this.#cwd = cwd;
      this.#turnCwd ??= cwd;
      this.builder.setCwd(cwd);
    }
    // A review sub-agent's user message is the request Codex wrote for it.
    if (isObject(payload.source) && payload.source.subagent === "review") {
      this.#reviewing = true;
    }
    const parent = str(payload.forked_from_id) ?? inheritedFrom(payload, id);
    // A thread another started (a spawned agent, a review, a compaction)
    // is its sub-agent.
    const spawner = spawnedBy(payload);
    if (spawner) {
      this.#parent = spawner;
      this.#subagent = true;
      this.builder.setParent(spawner, "subagent");
    } else if (parent) {
      this.#parent = parent;
      this.builder.setParent(parent, "fork");
    }
  }

  /**
   * Adopts a working directory when no `session_meta` or `turn_context`
   * named one (headers before mid-2025 carry no cwd; the TypeScript CLI's
   * documents only name it as a shell call's `workdir`).
   */
  #fallbackCwd(cwd: string | undefined): void {
    if (!cwd || this.#cwd) return;
    this.#cwd = cwd;
    this.#turnCwd ??= cwd;
    this.builder.setCwd(cwd);
  }

  #turnContext(payload: Json): void {
    const cwd = str(payload.cwd);
    if (!cwd) return;
    this.#turnCwd = cwd;
    if (!this.#cwd) {
      this.#cwd = cwd;
      this.builder.setCwd(cwd);
    }
  }

  #add(
    role: Role,
    text: string,
    time: number | undefined,
    locator: Locator,
    extra: { tool?: string | undefined; flags?: RecordFlags } = {},
  ): SessionRecord | undefined {
    this.#flush();
    return this.#addNow(role, text, time, locator, extra);
  }

  #addNow(
    role: Role,
    text: string,
    time: number | undefined,
    locator: Locator,
    extra: { tool?: string | undefined; flags?: RecordFlags } = {},
  ): SessionRecord | undefined {
    const options: AddRecordOptions = { time, locator, tool: extra.tool };
    if (extra.flags) options.flags = extra.flags;
    if (role === "user") options.title = templateTitle(text);
    const record = this.builder.add(role, text, options);
    if (record) {
      // The conversation moved on: a command still without output will not
      // get one, so it is no reason to hold the tail back. The words of a
      // tool call (a plan, a justification) come amid its batch.
      const speech = role === "user" || role === "assistant" ||
        role === "summary";
      if (speech && extra.tool === undefined) this.#checkpoints.clear();
      this.#lastSpeech = role === "user" || role === "assistant"
        ? speechKey(role, record.text)
        : undefined;
      this.#lastError = extra.tool === "model"
        ? fingerprint(record.text)
        : undefined;
      if (role !== "summary") this.#lastSummary = undefined;
    }
    return record;
  }

  #flush(): void {
    const held = this.#held;
    if (!held) return;
    this.#held = undefined;
    if (held.role === "user") this.#turns.push(this.builder.nextSeq);
    this.#addNow(held.role, held.text, held.time, held.locator);
  }

  #hold(held: Held): void {
    this.#flush();
    this.#held = held;
  }

  /**
   * A command the person ran in the TUI (`!ls`): Codex hands it to the model
   * as a `<user_shell_command>` turn holding the command and its result. It
   * becomes a command (with the exit code the result states) and its
   * output, not speech. Returns whether the text was one.
   */
  #userShell(raw: string, time: number | undefined, locator: Locator): boolean {
    const text = raw.trimStart();
    if (!text.startsWith("<user_shell_command>")) return false;
    const command = tagBody(text, "command")?.trim();
    const result = tagBody(text, "result")?.trim() ?? "";
    if (!command) return true;
    this.#flush();
    const exit = /^Exit code:\s*(-?\d+)/m.exec(result);
    const exitCode = exit ? Number(exit[1]) : undefined;
    const record = this.#addNow("command", command, time, locator, {
      tool: "user_shell",
    });
    if (record && exitCode !== undefined) record.exitCode = exitCode;
    const output = result.replace(/^(?:Exit code|Duration):.*\n?/gm, "")
      .replace(/^Output:\s*\n?/m, "");
    this.#addNow("tool-output", output, time, locator, {
      tool: "user_shell",
      ...(exitCode ? { flags: { isError: true } } : {}),
    });
    return true;
  }

  /** The canonical user text (`event_msg user_message` and its successors). */
  #userTurn(raw: string, time: number | undefined, locator: Locator): void {
    if (this.#userShell(raw, time, locator)) return;
    this.#userCanonical = true;
    if (this.#held?.role === "user") this.#held = undefined;
    this.#flush();
    const text = this.#userWords(raw);
    if (text.length === 0) return;
    const key = speechKey("user", text);
    // The same turn reported twice in a row (an echo flushed at the end of
    // the previous pass, or a second event shape) counts once.
    if (key === this.#lastSpeech) return;
    this.#turns.push(this.builder.nextSeq);
    this.#addNow("user", text, time, locator);
    this.#lastSpeech = key;
  }

  /**
   * A thread's goal set or changed (`thread_goal_updated`, mid-2026): the
   * objective a person gave with `/goal` is their prompt (a thread started
   * that way has no other), kept once though each status change repeats
   * it; one the model set with a goal tool is not their words.
   */
  #goalUpdated(payload: Json, time: number | undefined, locator: Locator) {
    const goal = isObject(payload.goal) ? payload.goal : {};
    const objective = str(goal.objective)?.trim();
    if (!objective) return;
    const key = speechKey("goal", objective);
    if (this.#said.has(key)) return;
    this.#said.add(key);
    const setByModel = [...this.#pending.values()].some((call) =>
      GOAL_TOOLS.has(call.tool)
    );
    if (!setByModel) this.#userTurn(objective, time, locator);
  }

  /**
   * What the person said in a user message: during a review (and in a
   * review sub-agent's rollout) the message is the request Codex sent the
   * reviewer, which holds the person's words only for a custom review.
   */
  #userWords(raw: string): string {
    const text = userText(raw);
    return this.#reviewing || text.startsWith(REVIEW_RUBRIC)
      ? reviewRequestText(text)
      : text;
  }

  /**
   * `/review` starts (`entered_review_mode`): a custom review's instructions
   * are what the person asked; the request the reviewer gets next is not.
   */
  #reviewStarted(payload: Json, time: number | undefined, locator: Locator) {
    this.#reviewing = true;
    const asked = reviewInstructions(payload);
    if (asked) this.#userTurn(asked, time, locator);
  }

  /**
   * `/review` ends (`exited_review_mode`): its findings are assistant
   * speech, held until the message after them shows whether it renders them
   * (Codex writes one since late 2025).
   */
  #reviewEnded(payload: Json, time: number | undefined, locator: Locator) {
    this.#reviewing = false;
    const text = reviewOutputText(payload.review_output);
    if (text.length === 0) return;
    this.#flush();
    this.#checkpoints.set(PLAN_CHECKPOINT, this.#checkpoint(locator));
    this.#held = { role: "assistant", text, time, locator, review: true };
  }

  /** The canonical assistant text (`response_item` role assistant). */
  #assistantTurn(raw: string, time: number | undefined, locator: Locator) {
    this.#assistantCanonical = true;
    const text = cleanSpeech(raw);
    const held = this.#held;
    if (held?.role === "assistant" && !held.plan) {
      this.#held = undefined;
      if (held.review) this.#checkpoints.delete(PLAN_CHECKPOINT);
    }
    this.#dropPlanSaidBy(text);
    this.#flush();
    if (speechKey("assistant", text) === this.#lastSpeech) return;
    this.#addNow("assistant", text, time, locator);
  }

  #echo(
    role: "user" | "assistant",
    raw: string,
    time: number | undefined,
    locator: Locator,
  ): void {
    if (role === "user" ? this.#userCanonical : this.#assistantCanonical) {
      return;
    }
    const text = role === "user" ? this.#userWords(raw) : cleanSpeech(raw);
    if (text.length === 0) return;
    if (speechKey(role, text) === this.#lastSpeech) return;
    if (role === "assistant") this.#dropPlanSaidBy(text);
    this.#hold({ role, text, time, locator });
  }

  /**
   * A plan the agent proposed (a completed `Plan` item): assistant speech,
   * held until the message after it shows whether it says the plan already
   * (plan mode writes it there in a `<proposed_plan>` block too).
   */
  #plan(raw: string, time: number | undefined, locator: Locator): void {
    const text = cleanSpeech(raw);
    if (text.length === 0) return;
    this.#flush();
    this.#checkpoints.set(PLAN_CHECKPOINT, this.#checkpoint(locator));
    this.#held = { role: "assistant", text, time, locator, plan: true };
  }

  /** Forgets a held plan that `text` says in full. */
  #dropPlanSaidBy(text: string): void {
    const held = this.#held;
    if (!held?.plan || !text.includes(held.text)) return;
    this.#held = undefined;
    this.#checkpoints.delete(PLAN_CHECKPOINT);
  }

  /**
   * A message one agent sent another (an `inter_agent_communication`
   * line): what an agent said, so assistant speech, flagged `subagent` when
   * one of this thread's sub-agents wrote it. Codex starts a turn with it
   * as with a user message, so a rollback counts it; a sub-agent whose task
   * came this way is titled by it.
   */
  #interAgent(payload: Json, time: number | undefined, locator: Locator) {
    const text = cleanSpeech(str(payload.content) ?? "");
    if (text.length === 0) return;
    this.#flush();
    const author = str(payload.author);
    const recipient = str(payload.recipient)?.replace(/\/+$/, "");
    const fromSubagent = author !== undefined && recipient !== undefined &&
      author.startsWith(`${recipient}/`);
    this.#turns.push(this.builder.nextSeq);
    this.builder.fallbackTitle(text);
    this.#addNow(
      "assistant",
      text,
      time,
      locator,
      fromSubagent ? { flags: { subagent: true } } : {},
    );
  }

  /**
   * A message between agents written as a response item (`agent_message`,
   * or an assistant message holding the serialized message): read as an
   * `inter_agent_communication` line is, unless it repeats the message just
   * read (both forms of one message).
   */
  #agentMessage(
    message: AgentMessage,
    time: number | undefined,
    locator: Locator,
  ) {
    const text = cleanSpeech(message.content);
    if (text.length === 0) return;
    if (speechKey("assistant", text) === this.#lastSpeech) return;
    const payload: Json = { content: message.content };
    if (message.author !== undefined) payload.author = message.author;
    if (message.recipient !== undefined) payload.recipient = message.recipient;
    this.#interAgent(payload, time, locator);
  }

  #summary(text: string | undefined, time: number | undefined, loc: Locator) {
    if (!text) return;
    const key = fingerprint(text);
    if (key === this.#lastSummary) return;
    this.#add("summary", text, time, loc);
    this.#lastSummary = key;
  }

  #item(payload: Json, time: number | undefined, locator: Locator): void {
    switch (payload.type) {
      case "message": {
        const text = contentText(payload.content) ||
          (typeof payload.message === "string" ? payload.message : "");
        if (payload.role === "assistant") {
          const between = serializedAgentMessage(payload.content);
          if (between) this.#agentMessage(between, time, locator);
          else this.#assistantTurn(text, time, locator);
        } else if (payload.role === "user") {
          if (!this.#cwd) this.#fallbackCwd(environmentCwd(text));
          if (!this.#userShell(text, time, locator)) {
            this.#echo("user", text, time, locator);
          }
        }
        // developer and system messages are the harness's own preamble.
        break;
      }
      case "agent_message": {
        // A message between agents as newer versions write it: readable
        // only when none of its parts is encrypted.
        const parts = Array.isArray(payload.content) ? payload.content : [];
        if (parts.some((p) => isObject(p) && p.type === "encrypted_content")) {
          break;
        }
        this.#agentMessage(
          {
            author: str(payload.author),
            recipient: str(payload.recipient),
            content: contentText(parts),
          },
          time,
          locator,
        );
        break;
      }
      case "function_call":
        this.#functionCall(payload, time, locator);
        break;
      case "custom_tool_call":
        this.#customCall(payload, time, locator);
        break;
      case "local_shell_call": {
        const action = isObject(payload.action) ? payload.action : {};
        const argv = stringArray(action.command);
        const callId = str(payload.call_id) ?? str(payload.id);
        this.#shell(
          "local_shell",
          callId,
          argv,
          argv ? argvText(argv) : "",
          time,
          locator,
          {
            workdir: str(action.working_directory) ?? str(action.workdir),
            reason: undefined,
          },
        );
        break;
      }
      case "function_call_output":
      case "custom_tool_call_output":
        this.#output(payload, time, locator);
        break;
      case "tool_search_call": {
        // The model looking for tools it has not loaded yet (deferred MCP
        // and app tools): what it asked for, then what it found.
        const query = toolSearchQuery(payload.arguments);
        if (query) {
          this.#add("command", query, time, locator, { tool: "tool_search" });
        }
        break;
      }
      case "tool_search_output": {
        const found = toolSearchFound(payload.tools);
        if (found) {
          this.#add("tool-output", found, time, locator, {
            tool: "tool_search",
          });
        }
        break;
      }
      case "web_search_call":
        this.#twinCommand(
          "item",
          "web_search",
          webSearchText(payload.action),
          time,
          locator,
        );
        break;
      case "image_generation_call":
        this.#twinCommand(
          "item",
          "image_generation",
          str(payload.revised_prompt),
          time,
          locator,
        );
        break;
    }
  }

  #event(payload: Json, time: number | undefined, locator: Locator): void {
    switch (payload.type) {
      case "user_message":
        if (typeof payload.message === "string") {
          this.#userTurn(payload.message, time, locator);
        }
        break;
      case "agent_message":
        if (typeof payload.message === "string") {
          this.#echo("assistant", payload.message, time, locator);
        }
        break;
      case "item_completed": {
        // Paginated history writes turns as completed items.
        const item = isObject(payload.item) ? payload.item : {};
        if (item.type === "UserMessage") {
          this.#userTurn(contentText(item.content), time, locator);
        } else if (item.type === "AgentMessage") {
          this.#echo("assistant", contentText(item.content), time, locator);
        } else if (item.type === "Plan") {
          this.#plan(str(item.text) ?? "", time, locator);
        } else {
          this.#twinEvent(item, time, locator);
        }
        break;
      }
      case "web_search_end":
      case "image_generation_end":
      case "view_image_tool_call":
        this.#twinEvent(payload, time, locator);
        break;
      case "entered_review_mode":
        this.#reviewStarted(payload, time, locator);
        break;
      case "exited_review_mode":
        this.#reviewEnded(payload, time, locator);
        break;
      case "mcp_tool_call_end":
      case "patch_apply_end":
      case "dynamic_tool_call_response":
        this.#callEnded(payload);
        break;
      case "thread_rolled_back":
        this.#rollback(int(payload.num_turns));
        break;
      case "thread_goal_updated":
        this.#goalUpdated(payload, time, locator);
        break;
      case "thread_name_updated": {
        // A fork's copy of its source's events names the source.
        const name = str(payload.thread_name) ?? str(payload.name);
        const thread = str(payload.thread_id);
        if (name && (!thread || thread === this.builder.id)) {
          this.builder.setTitle(name);
          this.#named = true;
        }
        break;
      }
      case "error":
      case "stream_error":
        this.#modelError(payload, time, locator);
        break;
      case "turn_aborted":
      case "task_started":
      case "task_complete":
      // The names Codex also reads these two by.
      case "turn_started":
      case "turn_complete":
        // A turn boundary: the same words sent again are a new turn.
        this.#lastSpeech = undefined;
        this.#checkpoints.clear();
        break;
      default:
        if (
          typeof payload.type === "string" && payload.type.includes("compact")
        ) {
          this.#summary(
            str(payload.summary) ?? str(payload.message),
            time,
            locator,
          );
        }
    }
  }

  /**
   * The `event_msg` twin of a web search, a generated image or a viewed
   * image (or the completed item paginated history writes instead).
   */
  #twinEvent(payload: Json, time: number | undefined, locator: Locator) {
    switch (payload.type) {
      case "web_search_end":
      case "WebSearch":
        this.#twinCommand(
          "event",
          "web_search",
          webSearchText(payload.action) ?? str(payload.query)?.trim(),
          time,
          locator,
        );
        break;
      case "image_generation_end":
      case "ImageGeneration":
        this.#twinCommand(
          "event",
          "image_generation",
          str(payload.revised_prompt),
          time,
          locator,
        );
        break;
      case "view_image_tool_call":
      case "ImageView":
        this.#viewImage("event", str(payload.path), time, locator);
    }
  }

  /**
   * A tool call's end event: the one place an MCP tool's error, a patch that
   * did not apply or a dynamic tool's failure is said, since the output item
   * does not carry the call's success. Flags the output an error, the one
   * already read or the one to come (Codex writes the event first).
   */
  #callEnded(payload: Json): void {
    const callId = str(payload.call_id);
    if (!callId || !callFailed(payload)) return;
    const output = this.#outputs.get(callId);
    if (output) {
      output.flags = { ...output.flags, isError: true };
      return;
    }
    const call = this.#pending.get(callId) ??
      { tool: endedTool(payload), kind: "other" };
    this.#remember(callId, { ...call, failed: true });
  }

  /**
   * Whether this copy of a record written twice (a response item and its
   * event) is the first: each copy waits for its twin, which it consumes.
   */
  #firstOfTwins(side: Side, key: string): boolean {
    const twin = this.#twins.indexOf(
      `${side === "item" ? "event" : "item"}:${key}`,
    );
    if (twin !== -1) {
      this.#twins.splice(twin, 1);
      return false;
    }
    this.#twins.push(`${side}:${key}`);
    if (this.#twins.length > MAX_STATE_TWINS) this.#twins.shift();
    return true;
  }

  /**
   * A hosted tool's call kept as a command: a web search (its queries) or
   * an image generation (its revised prompt), once for both copies.
   */
  #twinCommand(
    side: Side,
    tool: string,
    text: string | undefined,
    time: number | undefined,
    locator: Locator,
  ): void {
    if (!text || !this.#firstOfTwins(side, `${tool}:${fingerprint(text)}`)) {
      return;
    }
    this.#add("command", text, time, locator, { tool });
  }

  /** An image the agent looked at (`view_image`): a files record. */
  #viewImage(
    side: Side,
    path: string | undefined,
    time: number | undefined,
    locator: Locator,
  ): void {
    if (!path) return;
    const file = resolvePath(path, this.#turnCwd ?? this.#cwd);
    if (!this.#firstOfTwins(side, `view_image:${fingerprint(file)}`)) return;
    this.#add("files", file, time, locator, { tool: "view_image" });
  }

  /**
   * A turn the model could not finish (`error`) or a response stream that
   * broke (`stream_error`, whose details say why; its message only counts
   * the retries): error output of the model call, once for a run of the
   * same failure.
   */
  #modelError(payload: Json, time: number | undefined, locator: Locator) {
    const details = payload.type === "stream_error"
      ? str(payload.additional_details)
      : undefined;
    const text = (details ?? str(payload.message))?.trim();
    if (!text || fingerprint(text) === this.#lastError) return;
    this.#add("tool-output", text, time, locator, {
      tool: "model",
      flags: { isError: true },
    });
  }

  /** Supersedes the last `turns` user turns, up to this point. */
  #rollback(turns: number | undefined): void {
    this.#flush();
    if (turns === undefined || turns <= 0 || this.#turns.length === 0) return;
    const count = Math.min(turns, this.#turns.length);
    const from = this.#turns[this.#turns.length - count] as number;
    this.builder.mark("rollback", from, this.builder.nextSeq);
    this.#turns.length -= count;
    this.#checkpoints.clear();
    this.#lastSpeech = undefined;
  }

  #functionCall(payload: Json, time: number | undefined, locator: Locator) {
    const name = toolName(payload);
    const callId = str(payload.call_id) ?? str(payload.id);
    const rawArgs = payload.arguments;
    const args = typeof rawArgs === "string" ? parseJson(rawArgs) : rawArgs;
    const a: Json = isObject(args) ? args : {};
    // Why the model asks to run a command (outside the sandbox, say): its
    // own words to the person.
    const reason = str(a.justification);
    if (SHELL_ARGV_TOOLS.has(name)) {
      const argv = stringArray(a.command);
      const text = argv ? argvText(argv) : str(a.command) ?? "";
      this.#shell(name, callId, argv, text, time, locator, {
        workdir: str(a.workdir),
        reason,
      });
      return;
    }
    switch (name) {
      case "shell_command":
      case "exec_command": {
        const text = str(a.cmd) ?? str(a.command) ?? "";
        this.#shell(name, callId, undefined, text, time, locator, {
          workdir: str(a.workdir),
          reason,
        });
        return;
      }
      case "apply_patch": {
        const patch = str(a.input) ?? str(a.patch) ??
          (typeof rawArgs === "string" && rawArgs.includes("*** Begin Patch")
            ? rawArgs
            : undefined);
        if (patch) this.#patch(name, callId, patch, undefined, time, locator);
        return;
      }
      case "update_plan": {
        this.#remember(callId, { tool: name, kind: "plan" });
        // The agent's plan, in its words, as Claude Code's todos are kept:
        // each step once, though every call writes the whole plan again.
        const plan = planWords(a, this.#said);
        for (const text of [plan.explanation, plan.steps]) {
          if (text) this.#add("assistant", text, time, locator, { tool: name });
        }
        return;
      }
      case "view_image":
        this.#remember(callId, { tool: name, kind: "other" });
        this.#viewImage("item", str(a.path), time, locator);
        return;
      case "write_stdin": {
        const session = int(a.session_id);
        const call: CodexPendingCall = { tool: name, kind: "stdin" };
        if (session !== undefined) call.execSession = String(session);
        this.#remember(callId, call);
        return;
      }
      default:
        if (name) this.#remember(callId, { tool: name, kind: "other" });
    }
  }

  #customCall(payload: Json, time: number | undefined, locator: Locator) {
    const name = toolName(payload);
    const callId = str(payload.call_id) ?? str(payload.id);
    const input = typeof payload.input === "string" ? payload.input : "";
    if (name === "apply_patch") {
      this.#patch(name, callId, input, undefined, time, locator);
    } else if (name === "exec") {
      this.#codeMode(callId, input, time, locator);
    } else if (name) {
      this.#remember(callId, { tool: name, kind: "other" });
    }
  }

  /**
   * A code-mode `exec` call (JavaScript that calls Codex's tools): the shell
   * commands it runs are commands; a lone one gets the script's output and
   * the exit code that output reports, as an exec call does.
   */
  #codeMode(
    callId: string | undefined,
    script: string,
    time: number | undefined,
    locator: Locator,
  ): void {
    const commands = nestedCommands(script);
    const [only] = commands;
    if (commands.length === 1 && only !== undefined) {
      this.#shell("exec", callId, undefined, only, time, locator, {
        workdir: undefined,
        reason: undefined,
      });
      return;
    }
    for (const command of commands) {
      this.#add("command", command, time, locator, { tool: "exec" });
    }
    this.#remember(callId, { tool: "exec", kind: "other" });
  }

  #remember(callId: string | undefined, call: CodexPendingCall): void {
    if (!callId) return;
    this.#pending.delete(callId);
    this.#pending.set(callId, call);
  }

  #shell(
    tool: string,
    callId: string | undefined,
    argv: string[] | undefined,
    text: string,
    time: number | undefined,
    locator: Locator,
    options: { workdir: string | undefined; reason: string | undefined },
  ): void {
    // A call with no command (an empty argv or command line) records none:
    // its output must not answer, and close, another command's batch.
    if (text.trim() === "") {
      this.#remember(callId, { tool, kind: "empty" });
      return;
    }
    this.#fallbackCwd(options.workdir);
    const patch = embeddedPatch(argv, text);
    if (patch !== undefined) {
      this.#reason(tool, options.reason, time, locator);
      this.#patch("apply_patch", callId, patch, options.workdir, time, locator);
      return;
    }
    this.#flush();
    // The resume point comes before the reason: a pass that stops before
    // this command reads both again.
    const checkpoint = this.#checkpoint(locator);
    this.#reason(tool, options.reason, time, locator);
    const record = this.#add("command", text, time, locator, { tool });
    this.#remember(callId, { tool, kind: "shell" });
    if (record && callId) {
      this.#commands.set(callId, record);
      this.#checkpoints.set(callId, checkpoint);
    }
  }

  /**
   * A call's justification (why the model asks to run it): assistant
   * speech, right before what the call records, each distinct text once.
   */
  #reason(
    tool: string,
    reason: string | undefined,
    time: number | undefined,
    locator: Locator,
  ): void {
    const text = reason?.trim();
    if (!text || !remember(this.#said, text)) return;
    this.#add("assistant", text, time, locator, { tool });
  }

  /** A point to resume at: this line, read again with the state before it. */
  #checkpoint(locator: Locator): Checkpoint {
    return {
      offset: locator.offset ?? 0,
      line: locator.line ?? 1,
      seq: this.builder.nextSeq,
      marks: this.builder.build().marks.length,
      state: this.state(),
    };
  }

  #patch(
    tool: string,
    callId: string | undefined,
    patch: string,
    workdir: string | undefined,
    time: number | undefined,
    locator: Locator,
  ): void {
    this.#remember(callId, { tool, kind: "patch" });
    const cwd = workdir ?? this.#turnCwd ?? this.#cwd;
    const files = parsePatch(patch);
    const paths = [...new Set(files.map((f) => resolvePath(f.path, cwd)))];
    if (paths.length === 0) return;
    this.#add("files", paths.join("\n"), time, locator, { tool });
    for (const file of files) {
      if (file.removed.length === 0) continue;
      const path = resolvePath(file.path, cwd);
      const body = editBody(path, file.removed.join("\n"));
      this.#add("edit", body.text, time, locator, { tool });
    }
  }

  #output(payload: Json, time: number | undefined, locator: Locator): void {
    const callId = str(payload.call_id) ?? str(payload.id);
    const call = callId ? this.#pending.get(callId) : undefined;
    if (callId) this.#pending.delete(callId);
    if (call?.kind === "plan") return;
    const out = toolOutput(payload.output);
    const command = callId ? this.#commands.get(callId) : undefined;
    if (callId) this.#commands.delete(callId);
    const checkpoint = callId ? this.#checkpoints.get(callId) : undefined;
    if (callId) this.#checkpoints.delete(callId);
    if (command) {
      if (out.exitCode !== undefined) command.exitCode = out.exitCode;
      else if (out.running) {
        // Still running: the exit code comes with a later write_stdin poll.
        this.#running.set(out.running, command);
        if (checkpoint) {
          this.#checkpoints.set(`exec:${out.running}`, checkpoint);
        }
      }
    }
    if (call?.kind === "stdin" && call.execSession !== undefined) {
      const polled = this.#running.get(call.execSession);
      if (polled && out.exitCode !== undefined) {
        polled.exitCode = out.exitCode;
        this.#running.delete(call.execSession);
        this.#checkpoints.delete(`exec:${call.execSession}`);
      }
    }
    const isError = out.isError === true || call?.failed === true ||
      (out.exitCode !== undefined && out.exitCode !== 0) ||
      (call?.kind === "other" && MCP_CALL_ERROR.test(out.text));
    const extra: { tool?: string; flags?: RecordFlags } = {};
    // Redaction pairs an output with the batch of commands of its tool (a
    // nameless one with the latest batch): Codex's answer to an empty
    // command is its own, and answers none.
    if (call) extra.tool = call.kind === "empty" ? "codex" : call.tool;
    if (isError) extra.flags = { isError: true };
    const record = this.#add("tool-output", out.text, time, locator, extra);
    if (record && callId) this.#outputs.set(callId, record);
  }
}

function readRolloutState(value: unknown): CodexRolloutState | undefined {
  if (!isObject(value)) return undefined;
  const { nextSeq, id, userTurnSeqs, pendingCalls } = value;
  if (
    typeof nextSeq !== "number" || !Number.isInteger(nextSeq) || nextSeq < 0
  ) {
    return undefined;
  }
  if (typeof id !== "string" || id.length === 0) return undefined;
  const turns = Array.isArray(userTurnSeqs)
    ? userTurnSeqs.filter((n): n is number =>
      typeof n === "number" && Number.isInteger(n) && n >= 0 && n <= nextSeq
    )
    : [];
  const calls: Array<[string, CodexPendingCall]> = [];
  if (isObject(pendingCalls)) {
    for (const [key, call] of Object.entries(pendingCalls)) {
      if (!isObject(call) || typeof call.tool !== "string") continue;
      const kind = call.kind;
      if (
        kind !== "shell" && kind !== "patch" && kind !== "plan" &&
        kind !== "stdin" && kind !== "other" && kind !== "empty"
      ) continue;
      const entry: CodexPendingCall = { tool: call.tool, kind };
      if (typeof call.execSession === "string") {
        entry.execSession = call.execSession;
      }
      if (call.failed === true) entry.failed = true;
      calls.push([key, entry]);
    }
  }
  const state: CodexRolloutState = {
    nextSeq,
    id,
    metaSeen: value.metaSeen === true,
    userTurnSeqs: turns,
    pendingCalls: Object.fromEntries(calls),
    userCanonical: value.userCanonical === true,
    assistantCanonical: value.assistantCanonical === true,
  };
  const cwd = str(value.cwd);
  if (cwd) state.cwd = cwd;
  const turnCwd = str(value.turnCwd);
  if (turnCwd) state.turnCwd = turnCwd;
  const parent = str(value.parent);
  if (parent) state.parent = parent;
  if (value.subagent === true) state.subagent = true;
  const lastSpeech = str(value.lastSpeech);
  if (lastSpeech) state.lastSpeech = lastSpeech;
  if (Array.isArray(value.twins)) {
    const twins = value.twins.filter((t): t is string => typeof t === "string")
      .slice(-MAX_STATE_TWINS);
    if (twins.length > 0) state.twins = twins;
  }
  const lastError = str(value.lastError);
  if (lastError) state.lastError = lastError;
  if (value.reviewing === true) state.reviewing = true;
  if (Array.isArray(value.said)) {
    const said = value.said.filter((k): k is string => typeof k === "string")
      .slice(-MAX_STATE_SAID);
    if (said.length > 0) state.said = said;
  }
  return state;
}

/** Shared line loop: torn tails, oversized lines and the resume window. */
interface LoopResult {
  safeOffset: number;
  safeLine: number;
  skipped: number;
}

async function eachLine(
  path: string,
  options: ParseOptions,
  replay: boolean,
  onLine: (value: unknown, locator: Locator, lineNo: number) => boolean,
): Promise<LoopResult> {
  const start = replay ? 0 : options.offset ?? 0;
  const compressed = isZstdPath(path);
  let safeOffset = start;
  let safeLine = replay ? 1 : options.firstLine ?? 1;
  let skipped = 0;
  let size = Number.POSITIVE_INFINITY;
  if (!compressed) size = Deno.statSync(path).size;
  const oversized: OversizedLine[] = [];
  const settle = (atEnd: boolean): void => {
    for (const o of oversized) {
      // A too-long last line with no newline may still be being written.
      if (atEnd && !compressed && o.offset + o.length >= size) break;
      skipped++;
      safeOffset = o.offset + o.length + 1;
      safeLine = o.number + 1;
    }
    oversized.length = 0;
  };
  for await (
    const line of readLines(path, {
      offset: start,
      firstLine: safeLine,
      // A replay reads from the start to rebuild state: it reads it all.
      ...(options.limitBytes && !replay
        ? { limitBytes: options.limitBytes }
        : {}),
      onOversized: (o) => oversized.push(o),
    })
  ) {
    settle(false);
    // A last line without its newline is being written: read it next time.
    // A compressed file is finished, so its last line counts if it parses.
    if (!line.complete && !compressed) break;
    if (line.text.trim().length > 0) {
      const value = parseJson(line.text);
      if (value === undefined && !line.complete) break;
      const locator: Locator = { path, line: line.number, offset: line.offset };
      if (value === undefined || !onLine(value, locator, line.number)) {
        skipped++;
      }
    }
    safeOffset = line.end;
    safeLine = line.number + 1;
  }
  settle(true);
  return { safeOffset, safeLine, skipped };
}

/** Thread names by id from `session_index.jsonl`, by file, with its size and mtime. */
const threadNameCache = new Map<
  string,
  { stamp: string; names: Map<string, string> }
>();

/**
 * The names the person gave threads, by thread id, from the
 * `session_index.jsonl` of the Codex home a rollout lives in (appended to
 * on each rename: the last line for an id wins). Read again only when the
 * file changes.
 */
async function threadNames(rollout: string): Promise<Map<string, string>> {
  const home = /^(.*)[\\/](?:sessions|archived_sessions)[\\/]/.exec(rollout)
    ?.[1];
  if (home === undefined) return new Map();
  const path = `${home}/session_index.jsonl`;
  try {
    // Synchronous, as the reads of the rollouts it is asked for (one stat a
    // rollout, most of them finding no index).
    const info = Deno.statSync(path);
    if (!info.isFile) return new Map();
    const stamp = `${info.size}:${info.mtime?.getTime() ?? 0}`;
    const cached = threadNameCache.get(path);
    if (cached?.stamp === stamp) return cached.names;
    const names = new Map<string, string>();
    for await (const line of readLines(path)) {
      const entry = line.complete ? parseJson(line.text) : undefined;
      const id = isObject(entry) ? str(entry.id) : undefined;
      if (!isObject(entry) || !id) continue;
      const name = str(entry.thread_name)?.trim();
      if (name) names.set(id, name);
      else names.delete(id);
    }
    threadNameCache.set(path, { stamp, names });
    return names;
  } catch {
    // No index, or one that cannot be read: the rollouts still title.
    return new Map();
  }
}

async function parseRollout(
  path: string,
  options: ParseOptions,
): Promise<ParseResult> {
  const resumeAt = options.offset ?? 0;
  const state = resumeAt > 0 ? readRolloutState(options.state) : undefined;
  // Resuming without usable state: re-read from the start to rebuild it and
  // return only what lies past the offset.
  const replay = resumeAt > 0 && state === undefined;
  const parser = new RolloutParser(path, state);
  let marksBefore = 0;
  let seqBefore = replay ? -1 : 0;
  const loop = await eachLine(path, options, replay, (value, locator, no) => {
    if (replay && seqBefore === -1 && (locator.offset ?? 0) >= resumeAt) {
      parser.finish();
      seqBefore = parser.builder.nextSeq;
      marksBefore = parser.builder.build().marks.length;
    }
    return parser.line(value, locator, no === 1);
  });
  parser.finish();
  // The name Codex lists the thread under, the latest one given.
  const name = (await threadNames(path)).get(parser.builder.id);
  if (name) parser.builder.setTitle(name);
  const session = parser.builder.build();
  let { safeOffset, safeLine } = loop;
  let next = parser.state();
  // A plain rollout may still grow: stop before a command that has not
  // reported yet, so the next pass reads it again together with its output.
  // One that has settled will not: a command Codex never answered (it
  // crashed, or was closed, while the command ran) holds nothing back.
  const tail = isZstdPath(path) || options.settled ? undefined : parser.tail();
  if (tail && tail.offset >= resumeAt) {
    session.records = session.records.filter((r) => r.seq < tail.seq);
    session.marks = session.marks.slice(0, tail.marks);
    safeOffset = tail.offset;
    safeLine = tail.line;
    next = tail.state;
  }
  if (replay) {
    const from = seqBefore === -1 ? parser.builder.nextSeq : seqBefore;
    session.records = session.records.filter((r) => r.seq >= from);
    session.marks = seqBefore === -1 ? [] : session.marks.slice(marksBefore);
  }
  // A file with nothing to index (a header alone, a rename alone) is no
  // session yet; a later pass that only renamed one still carries its title.
  const found = session.records.length > 0 || session.marks.length > 0 ||
    (resumeAt > 0 && parser.named);
  return {
    sessions: found ? [session] : [],
    safeOffset,
    safeLine,
    state: next,
    skipped: loop.skipped,
  };
}

/**
 * Parses a rollout the TypeScript Codex CLI (spring 2025) wrote as one JSON
 * document, `{session: {timestamp, id, instructions}, items: [...]}`, with
 * the same bare items as the first Rust rollouts but no timestamps on them.
 */
async function parseRolloutDocument(path: string): Promise<ParseResult> {
  const doc = await readJsonDocument(path);
  if (!doc.ok || !isObject(doc.value)) {
    return {
      sessions: [],
      skipped: doc.ok || doc.reason !== "missing" ? 1 : 0,
    };
  }
  const parser = new RolloutParser(path, undefined);
  const { session, items } = doc.value;
  let skipped = 0;
  if (isObject(session)) {
    const id = str(session.id) ?? str(session.session_id);
    parser.line(id ? { ...session, id } : session, {
      path,
      recordId: "session",
    }, true);
  }
  if (Array.isArray(items)) {
    items.forEach((item, i) => {
      if (!parser.line(item, { path, recordId: `item:${i}` }, false)) {
        skipped++;
      }
    });
  }
  parser.finish();
  const built = parser.builder.build();
  return {
    sessions: built.records.length > 0 ? [built] : [],
    skipped,
  };
}

// ---------------------------------------------------------------------------
// history.jsonl

function readHistoryState(value: unknown): CodexHistoryState | undefined {
  if (!isObject(value) || !isObject(value.seqs)) return undefined;
  const seqs = Object.entries(value.seqs).filter((entry) => {
    const seq = entry[1];
    return typeof seq === "number" && Number.isInteger(seq) && seq >= 0;
  }) as Array<[string, number]>;
  return { seqs: Object.fromEntries(seqs) };
}

async function parseHistory(
  path: string,
  options: ParseOptions,
): Promise<ParseResult> {
  const resumeAt = options.offset ?? 0;
  const state = resumeAt > 0 ? readHistoryState(options.state) : undefined;
  const replay = resumeAt > 0 && state === undefined;
  const seqs = new Map(Object.entries(state?.seqs ?? {}));
  const builders = new Map<string, SessionBuilder>();
  const loop = await eachLine(path, options, replay, (value, locator) => {
    if (!isObject(value)) return false;
    const id = str(value.session_id);
    if (!id || typeof value.text !== "string") return false;
    let builder = builders.get(id);
    if (!builder) {
      builder = new SessionBuilder({
        harness: HARNESS_ID,
        id,
        path,
        project: "",
        nextSeq: seqs.get(id) ?? 0,
      });
      builders.set(id, builder);
    }
    const text = userText(value.text);
    builder.add("user", text, {
      time: parseTime(value.ts),
      locator,
      title: templateTitle(text),
    });
    seqs.set(id, builder.nextSeq);
    return true;
  });
  const sessions = [];
  for (const builder of builders.values()) {
    const session = builder.build();
    if (replay) {
      session.records = session.records.filter((r) =>
        (r.locator.offset ?? 0) >= resumeAt
      );
    }
    if (session.records.length > 0) sessions.push(session);
  }
  const out: CodexHistoryState = { seqs: Object.fromEntries(seqs) };
  return {
    sessions,
    safeOffset: loop.safeOffset,
    safeLine: loop.safeLine,
    state: out,
    skipped: loop.skipped,
  };
}

// ---------------------------------------------------------------------------
// Discovery and the registry entry.

/** Any rollout's file name: JSONL, zstd-compressed JSONL or JSON. */
const ROLLOUT_NAME = /^rollout-.*\.(?:jsonl|jsonl\.zst|json)$/;

function isRolloutPath(path: string): boolean {
  return /^rollout-.*\.jsonl$/.test(baseName(path));
}

function isRolloutZstPath(path: string): boolean {
  return /^rollout-.*\.jsonl\.zst$/.test(baseName(path));
}

function isRolloutJsonPath(path: string): boolean {
  return /^rollout-.*\.json$/.test(baseName(path));
}

function isHistoryPath(path: string): boolean {
  return baseName(path) === "history.jsonl";
}

function expandHome(path: string, home: string): string {
  if (path === "~") return home;
  if (path.startsWith("~/")) return `${home}${path.slice(1)}`;
  return path;
}

/** The Codex home: `DEJA_CODEX_ROOT`, else `CODEX_HOME`, else `~/.codex`. */
function codexRoots(source: SourceEnv): string[] {
  const override = str(source.env.DEJA_CODEX_ROOT) ??
    str(source.env.CODEX_HOME);
  return [
    override ? expandHome(override, source.home) : `${source.home}/.codex`,
  ];
}

function discoverCodex(source: SourceEnv): Promise<string[]> {
  // One test per file: an unchanged pass walks every rollout there is.
  const match = (p: string) => ROLLOUT_NAME.test(baseName(p));
  const found: string[] = [];
  for (const root of codexRoots(source)) {
    for (const dir of ["sessions", "archived_sessions"]) {
      for (const path of walkFiles(`${root}/${dir}`, match, { maxDepth: 4 })) {
        // Mid-compression both copies exist for a moment; the plain one wins.
        if (isRolloutZstPath(path) && isRegularFileSync(path.slice(0, -4))) {
          continue;
        }
        found.push(path);
      }
    }
    const history = `${root}/history.jsonl`;
    if (isRegularFileSync(history)) found.push(history);
  }
  return Promise.resolve(found);
}

const rolloutKind: FileKind = {
  id: "rollout",
  appendOnly: true,
  match: isRolloutPath,
  parse: parseRollout,
};

const rolloutZstKind: FileKind = {
  id: "rollout-zst",
  appendOnly: false,
  match: isRolloutZstPath,
  parse: parseRollout,
};

const rolloutJsonKind: FileKind = {
  id: "rollout-json",
  appendOnly: false,
  match: isRolloutJsonPath,
  parse: (path) => parseRolloutDocument(path),
};

const historyKind: FileKind = {
  id: "history",
  appendOnly: true,
  match: isHistoryPath,
  parse: parseHistory,
};

/**
 * The Codex CLI harness: rollouts (plain and zstd), archived rollouts and
 * `history.jsonl`, with user/assistant speech (plans, update_plan steps,
 * call justifications and messages between agents too), shell commands with
 * exit codes (code-mode scripts' too), web searches and image prompts, tool
 * output (failed when Codex or the call's end event says so) and model
 * errors, `apply_patch` files and edits, viewed images, compaction
 * summaries, titles (thread names, a prompt template's input) and
 * `thread_rolled_back` supersession marks.
 *
 * @example
 * ```ts
 * import { codex } from "./codex.ts";
 * import { deepEqual } from "node:assert/strict";
 * const roots = codex.roots({ home: "/home/a", env: {}, os: "linux" });
 * deepEqual(roots, ["/home/a/.codex"]);
 * ```
 */
export const codex: Harness = {
  id: HARNESS_ID,
  name: "Codex CLI",
  format:
    "JSONL rollouts {timestamp, type, payload} (plain or .jsonl.zst), the TypeScript CLI's rollout-*.json documents, history.jsonl {session_id, ts, text}, and session_index.jsonl {id, thread_name, updated_at}",
  envOverrides: ["CODEX_HOME", "DEJA_CODEX_ROOT"],
  // 2: pre-envelope rollouts take their cwd from <environment_context> or a shell workdir.
  // 6: the newest record kinds (model errors, MCP namespaces, web searches, viewed and generated images, code-mode commands, plans, messages between agents) and thread names are read.
  // 7: a .jsonl.zst of several frames is read whole (only its first was).
  // 8: a tool call's failure is read from its end event (mcp_tool_call_end, patch_apply_end, dynamic_tool_call_response) and from the words Codex uses for a declined, sandbox-stopped or unknown call or a failed MCP call (err: …); the user messages Codex writes itself (<turn_aborted>, <user_action>, <subagents>, <plugins>) are not speech; an MCP result written as a JSON string of content blocks is their text.
  // 9: a /review's findings (exited_review_mode) are assistant speech and a custom review's instructions user speech; the request Codex writes for the reviewer is not.
  // 10: a review, compaction or other delegated sub-agent names its parent (session_meta parent_thread_id).
  // 11: tool_search calls (the query) and their output (the tools found) are read.
  // 12: the output of a shell call with no command is Codex's own (tool `codex`), answering no command's batch.
  // 13: a message between agents written as an `agent_message` response item, or as an assistant message holding the serialized message, is read as one (it was lost, or kept as JSON speech); turn_started/turn_complete end a turn as task_started/task_complete do.
  // 14: update_plan's steps (each once a session) and explanation, and a shell or exec call's justification, are assistant speech; a prompt expanded from a template (opening with a markdown heading) is titled by the input it shows (a User Input or Arguments section), else by its heading's words.
  // 15: a rollout with nothing to index (a session_meta header alone, or a rename) is no session; it was one of 0 records.
  // 16: the objective a person sets with /goal (thread_goal_updated) is a user turn, once; the nudge resuming a goal (<codex_internal_context>) and a hook's prompt named by its run (<hook_prompt hook_run_id=…>) are not speech.
  // 17: a paginated thread whose history_base names another thread's rollout is its fork.
  revision: 17,
  roots: codexRoots,
  discover: discoverCodex,
  kinds: [rolloutKind, rolloutZstKind, rolloutJsonKind, historyKind],
  docs: {
    store:
      "${CODEX_HOME:-~/.codex}/sessions/YYYY/MM/DD/rollout-*.jsonl[.zst], sessions/rollout-*.json (TypeScript CLI, spring 2025), archived_sessions/, history.jsonl, thread names in session_index.jsonl (all OSes; DEJA_CODEX_ROOT overrides)",
    extracts:
      "user (event_msg user_message; the objective a person set with /goal, thread_goal_updated's, once though each status change repeats it — not one the model set with create_goal/update_goal), assistant (response_item output_text), a proposed plan (item_completed Plan) as assistant speech unless the message after it says it (its <proposed_plan> block), a message between agents (inter_agent_communication; newer versions' agent_message response item, its input_text parts; an assistant message whose only text is the serialized message, its content — once when two of these forms follow each other) as assistant speech — what an agent said — flagged sub-agent when one of the thread's sub-agents wrote it, counted as a turn by thread_rolled_back, and titling a sub-agent whose task came that way, command (shell argv with bash -lc unwrapped, shell_command, exec_command, local_shell_call) with exit code, tool-output with is_error (and Codex's own failures said in words: apply_patch verification failed, tool call error, a call declined by the person or the approval reviewer, stopped by the sandbox or naming no tool, a shell call with no command (its output as tool `codex`: it answers no command), an MCP call that never reached its server (err: …); the failure a call's end event reports — mcp_tool_call_end's Err or isError result, patch_apply_end or dynamic_tool_call_response success false — since the output item does not carry it; an MCP tool named with its server, mcp__server__tool, from the call's namespace, its result's text without image data, also where older versions wrote its content blocks as a JSON string), a failed turn (event_msg error) and a broken response stream (stream_error, its additional_details) as error tool-output (tool `model`), the shell commands a code-mode `exec` script passes to tools.exec_command/shell_command as commands (a lone one with the script's output and the exit code that output reports), a `!` command run in the TUI (<user_shell_command>) as a command with its exit code and its output, files and edit from apply_patch, a web search (web_search_call's action: its queries, the page opened or the text sought in it; web_search_end when the item has none) as a command (tool `web_search`), an image generation's revised prompt as a command (tool `image_generation`), the agent's plan (update_plan's explanation, and its steps each once a session though every call writes the whole plan) as assistant speech (tool update_plan), a shell or exec call's justification (why it asks to run the command, e.g. outside the sandbox) as assistant speech right before the command, each distinct text once, a search for deferred tools (tool_search_call's query) as a command and the tools it found (tool_search_output: each name, with its namespace, and description) as its output (tool `tool_search`), an image the agent viewed (view_image) as files, each once though Codex writes it as an item and an event, a /review's findings (exited_review_mode's review_output: the explanation, each finding's title, place and body) as assistant speech unless the message after them renders them, a custom review's instructions (entered_review_mode target custom) as user speech, summary from compacted items, rollback marks from thread_rolled_back, the title from the name given to the thread (its last line in session_index.jsonl, else thread_name_updated) over the first prompt — for a prompt Codex expanded from a template (one opening with a markdown heading: a custom prompt, a spec-kit command), the input the person typed where it shows it (a User Input or Arguments section, its fenced block), else the heading's words without # marks, the whole message kept as the user turn — fork parent from forked_from_id, else from history_base.thread_id when a thread with paginated history (0.146+) took it from another thread's rollout (one naming the thread itself is its earlier file, left by a revert), a sub-agent thread's parent from session_meta source.subagent.thread_spawn.parent_thread_id, or for a review, compaction or other delegated sub-agent (source.subagent review/compact/other, thread_source subagent or guardian_review) from its top-level parent_thread_id (review and compaction rollouts older than that field name no parent); the cwd of rollouts whose header has none from the first <environment_context> or shell workdir; history.jsonl prompts as user-only sessions",
    omits:
      "developer/system messages, encrypted messages between agents (an agent_message with an encrypted_content part, a serialized one with empty content), a code-mode script's nested calls other than shell commands given as string literals (apply_patch, MCP tools), injected <environment_context>/AGENTS.md/<user_instructions> blocks, the nudge Codex writes to resume a goal (<codex_internal_context>, earlier <goal_context>), a hook's <hook_prompt> and the user messages Codex writes itself (<turn_aborted>, a review's <user_action>, <subagents>, <plugins>) and the request Codex writes for a /review's reviewer (its rubric, a preset's request; also in the review sub-agent's own rollout), reasoning, ghost snapshots, token counts, update_plan output, the schemas of the tools a tool_search found, undo events, exec_command_end (its function_call_output twin is read); compacted replacement_history (repeats earlier items); later session_meta lines (a fork's copy of its source)",
    verified:
      "samples from Codex CLI 0.55 (shell argv, JSON outputs) and 0.63 (shell_command, plain outputs); fixtures for exec_command and thread_rolled_back, and for the newest shapes (code mode, MCP namespaces, web search, plans, messages between agents, thread names, tool calls' end events, declined and sandbox-stopped calls) written from openai/codex's protocol and rollout policy source",
  },
};
