/**
 * Claude Code: one JSONL transcript per session under
 * `${CLAUDE_CONFIG_DIR:-~/.claude}/projects/<encoded-cwd>/<session>.jsonl`,
 * sub-agent transcripts under `<session>/subagents/` (`agent-<id>.jsonl`, and
 * 2.1's workflow agents in `workflows/<run>/`), large tool results in
 * `<session>/tool-results/`, and the typed prompts of every session in
 * `history.jsonl`. 1.0.x wrote a Task agent's conversation into the
 * session's own file (`isSidechain` lines): each such chain is read as a
 * sub-agent session of it.
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
import { ownValue } from "../core/lookup.ts";
import {
  MAX_LINE_BYTES,
  type OversizedLine,
  readLines,
} from "../core/lines.ts";
import {
  cleanSpeech,
  firstBlock,
  MAX_OUTPUT_CHARS,
  projectFromCwd,
  stripBlocks,
  tagBody,
} from "../core/text.ts";
import { parseTime } from "../core/time.ts";
import type {
  Locator,
  RecordFlags,
  Session,
  SessionRecord,
} from "../core/types.ts";
import { SessionBuilder } from "./_builder.ts";
import { isObject, type Json, parseJson, str, textBlocks } from "./_json.ts";
import { baseName, dirName, isRegularFileSync, segments } from "./_paths.ts";
import { readFileEdges } from "./_saved_output.ts";
import { editBody } from "./_work_records.ts";

const HARNESS_ID = "claude-code";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Unresolved tool calls carried across a resume, so outputs keep their tool. */
const MAX_PENDING_TOOLS = 256;

/** Tools whose `file_path` (or `notebook_path`) becomes a `files` record. */
const PATH_TOOLS = new Set([
  "Read",
  "Edit",
  "Write",
  "MultiEdit",
  "NotebookEdit",
]);

/** Line types Claude Code writes that carry no conversation text. */
const QUIET_TYPES = new Set([
  "system",
  "progress",
  "file-history-snapshot",
  "file-history-delta",
  "pr-link",
  "mode",
  "permission-mode",
  "agent-name",
  "agent-setting",
  "last-prompt",
  "cost-state",
]);

/** Why a `queue-operation` `remove` took a prompt: the turn absorbed it. */
const ABSORBED = new Set(["absorbed_mid_turn", "delivered_to_agent"]);

/** Queued prompts awaiting their second copy, at most. */
const MAX_QUEUED = 32;

/** Todos remembered across passes, so a rewritten list adds only new ones. */
const MAX_TODOS = 256;

/** Step labels remembered across passes, so a repeated one is kept once. */
const MAX_DESCRIPTIONS = 256;

/**
 * Tools whose `description` input is the model's plain-language label for
 * the step (Claude Code shows it in place of the call): a Bash command's,
 * a sub-agent's task (`Task`, 2.1's `Agent`).
 */
const STEP_LABEL_TOOLS = new Set(["Bash", "Task", "Agent"]);

/** Message line keys remembered across passes, to skip replayed copies. */
const MAX_LINE_KEYS = 1024;

/** Summary lines awaiting the message they name, at most. */
const MAX_PENDING_SUMMARIES = 16;

/** A summary line awaiting the message it names, and where it was read. */
interface PendingSummary {
  /** The summary, cleaned. */
  text: string;
  /** The summary line's own place in the file. */
  at: { line: number; offset: number };
}

/** Main-chain lines whose place is remembered, for a rewind to point back at. */
const MAX_CHAIN_LINES = 2048;

/** Assistant messages whose content blocks are remembered within a pass. */
const MAX_STREAMED_MESSAGES = 16;

/**
 * The key a message line is known by when Claude Code writes it again: its
 * `uuid`'s last 12 hex digits (random in a v4 uuid), else undefined.
 */
function lineKey(uuid: string | undefined): string | undefined {
  const hex = uuid?.replace(/-/g, "");
  return hex && hex.length >= 12 ? hex.slice(-12) : undefined;
}

/**
 * A short key for a text (a queued prompt, a todo) to know its other copies
 * by, and to carry across passes in the state instead of the text itself.
 */
function fingerprint(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  }
  return `${text.length}:${(hash >>> 0).toString(36)}`;
}

/** Blocks the IDE extensions inject into a user turn. */
const IDE_BLOCKS = ["ide_opened_file", "ide_selection", "ide_diagnostics"].map(
  (tag) => [`<${tag}>`, `</${tag}>`] as const,
);

/** Options for {@linkcode parseClaudeTranscript} and {@linkcode parseClaudeHistory}. */
export interface ClaudeParseOptions extends ParseOptions {
  /** Lines longer than this many bytes are skipped. Default 8 MiB. */
  maxLineBytes?: number;
}

/** What a transcript parse hands back to resume at `safeOffset`. */
export interface ClaudeTranscriptState {
  /** The seq the next record gets. */
  nextSeq: number;
  /** The session id, once a line named it. */
  sessionId?: string;
  /** Parent session id of a sub-agent transcript, once a line named it. */
  parent?: string;
  /** Working directory from the first line that had one. */
  cwd?: string;
  /** Project name in use. */
  project?: string;
  /** Tool calls still waiting for their result: tool_use id → tool name. */
  tools?: Record<string, string>;
  /** Bash calls written without an exit code yet: tool_use id → record seq. */
  commands?: Record<string, number>;
  /** Edit calls awaiting their result: tool_use id → their edit records' `[from, to)` seqs. */
  edits?: Record<string, [number, number]>;
  /** Sub-agent conversations written into this main transcript: session id → next seq. */
  sidechains?: Record<string, number>;
  /** The latest side-chain lines: line key → the sub-agent session they belong to. */
  sideLines?: Record<string, string>;
  /** The message whose file paths were listed last, and those paths. */
  files?: { message: string; paths: string[] };
  /** Where the title came from, once a title or summary line set it. */
  titleFrom?: "custom" | "ai" | "summary";
  /** Queued prompts recorded from one of their copies: text fingerprints. */
  queued?: string[];
  /** Todos already recorded from TodoWrite calls: text fingerprints. */
  todos?: string[];
  /** Step labels already recorded (a tool call's `description`): fingerprints. */
  descriptions?: string[];
  /** Background Bash commands awaiting their exit code: task id → seq. */
  background?: Record<string, number>;
  /** Keys of the latest message lines read, to know a replayed copy by. */
  lines?: string[];
  /** Summary lines awaiting the message they name: its line key → them. */
  summaries?: Record<string, PendingSummary>;
  /** Blocks read of the latest assistant messages: message id → block keys. */
  streamed?: Record<string, string[]>;
  /**
   * The latest main-chain lines, oldest first, as runs of line keys that
   * share the seq the next record got after each of them.
   */
  chain?: Array<[number, string[]]>;
}

/** Transcripts are named by uuid, so only the prompt history is `history.jsonl`. */
function isHistoryPath(path: string): boolean {
  return baseName(path) === "history.jsonl";
}

/** Where `subagents` sits in a path's segments (below `projects`), or -1. */
function subagentsIndex(parts: readonly string[]): number {
  return parts.indexOf("subagents", parts.lastIndexOf("projects") + 1);
}

/**
 * A sub-agent transcript: `agent-<id>.jsonl` anywhere under
 * `<parent>/subagents/` (2.1's workflow agents one level deeper, in
 * `workflows/<run>/`; the parent session id from the folder), or — as Claude
 * Code 1.x–2.0 wrote them — `projects/<dir>/agent-<id>.jsonl` beside the
 * sessions, whose lines name the parent (`sessionId`). `up` is how many
 * folders above the file the parent session's own folder is.
 */
function subagentOf(
  path: string,
):
  | {
    parent?: string;
    agent: string;
    encodedDir: string | undefined;
    up?: number;
  }
  | undefined {
  const parts = segments(path);
  const name = parts.at(-1) ?? "";
  if (!/^agent-.+\.jsonl$/.test(name)) return undefined;
  const agent = name.slice("agent-".length, -".jsonl".length);
  const at = subagentsIndex(parts);
  if (at >= 0) {
    const parent = parts[at - 1];
    return parent
      ? { parent, agent, encodedDir: parts[at - 2], up: parts.length - at }
      : undefined;
  }
  return parts.at(-3) === "projects"
    ? { agent, encodedDir: parts.at(-2) }
    : undefined;
}

/** The most a sub-agent's meta file is read of. */
const META_BYTES = 64 * 1024;

/**
 * The agent that started a sub-agent, from the `agent-<id>.meta.json` beside
 * its transcript (`parentAgentId`, written for agents that agents start);
 * undefined for one the session started, or when there is no such file.
 */
function parentAgentOf(path: string, agent: string): string | undefined {
  const meta = path.replace(/\.jsonl$/, ".meta.json");
  try {
    if (!isRegularFileSync(meta) || Deno.statSync(meta).size > META_BYTES) {
      return undefined;
    }
    const obj = JSON.parse(Deno.readTextFileSync(meta)) as unknown;
    const parent = isObject(obj) ? str(obj.parentAgentId) : undefined;
    return parent && parent !== agent && /^[\w-]+$/.test(parent)
      ? parent
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A transcript: any `.jsonl` but the prompt history, and under a session's
 * `subagents/` folder only the agents' own files (a workflow run's
 * `journal.jsonl` beside them is its bookkeeping).
 */
function isTranscriptPath(path: string): boolean {
  if (!path.endsWith(".jsonl") || isHistoryPath(path)) return false;
  // Nearly every file is a session beside its peers: no split needed.
  if (!path.includes("subagents")) return true;
  return subagentsIndex(segments(path)) < 0 ||
    /^agent-.+\.jsonl$/.test(baseName(path));
}

/**
 * The project from a Claude-encoded directory name (`-home-a-proj`,
 * `C--Users-x-proj`). `-` stands for both `/` and a literal hyphen, so only
 * the last segment is certain enough to use; a line's `cwd` overrides it.
 */
function projectFromEncoded(dir: string): string {
  const parts = dir.split("-").filter((p) => p.length > 0);
  return parts.at(-1) ?? dir;
}

function readState(value: unknown): ClaudeTranscriptState {
  const state: ClaudeTranscriptState = { nextSeq: 0 };
  if (!isObject(value)) return state;
  if (typeof value.nextSeq === "number" && Number.isInteger(value.nextSeq)) {
    state.nextSeq = Math.max(0, value.nextSeq);
  }
  for (const key of ["sessionId", "parent", "cwd", "project"] as const) {
    const v = str(value[key]);
    if (v !== undefined) state[key] = v;
  }
  if (
    value.titleFrom === "custom" || value.titleFrom === "ai" ||
    value.titleFrom === "summary"
  ) state.titleFrom = value.titleFrom;
  for (const key of ["queued", "todos", "descriptions", "lines"] as const) {
    const list = value[key];
    if (Array.isArray(list)) {
      state[key] = list.filter((v): v is string => typeof v === "string");
    }
  }
  if (isObject(value.tools)) {
    const tools: Record<string, string> = {};
    for (const [id, name] of Object.entries(value.tools)) {
      if (typeof name === "string") tools[id] = name;
    }
    state.tools = tools;
  }
  for (const key of ["commands", "background"] as const) {
    const map = value[key];
    if (!isObject(map)) continue;
    const seqs: Record<string, number> = {};
    for (const [id, seq] of Object.entries(map)) {
      if (typeof seq === "number" && Number.isInteger(seq)) seqs[id] = seq;
    }
    state[key] = seqs;
  }
  if (isObject(value.sidechains)) {
    const seqs: Record<string, number> = {};
    for (const [id, seq] of Object.entries(value.sidechains)) {
      if (typeof seq === "number" && Number.isInteger(seq) && seq >= 0) {
        seqs[id] = seq;
      }
    }
    state.sidechains = seqs;
  }
  if (isObject(value.sideLines)) {
    const lines: Record<string, string> = {};
    for (const [key, id] of Object.entries(value.sideLines)) {
      if (typeof id === "string") lines[key] = id;
    }
    state.sideLines = lines;
  }
  if (isObject(value.edits)) {
    const edits: Record<string, [number, number]> = {};
    for (const [id, range] of Object.entries(value.edits)) {
      if (
        Array.isArray(range) && range.length === 2 &&
        range.every((n) => typeof n === "number" && Number.isInteger(n))
      ) edits[id] = [range[0], range[1]];
    }
    state.edits = edits;
  }
  if (isObject(value.summaries)) {
    const summaries: Record<string, PendingSummary> = {};
    for (const [leaf, pending] of Object.entries(value.summaries)) {
      if (
        isObject(pending) && typeof pending.text === "string" &&
        isObject(pending.at) && Number.isInteger(pending.at.line) &&
        Number.isInteger(pending.at.offset)
      ) {
        summaries[leaf] = {
          text: pending.text,
          at: {
            line: Number(pending.at.line),
            offset: Number(pending.at.offset),
          },
        };
      }
    }
    state.summaries = summaries;
  }
  if (isObject(value.streamed)) {
    const streamed: Record<string, string[]> = {};
    for (const [id, keys] of Object.entries(value.streamed)) {
      if (Array.isArray(keys)) {
        streamed[id] = keys.filter((k): k is string => typeof k === "string");
      }
    }
    state.streamed = streamed;
  }
  if (Array.isArray(value.chain)) {
    state.chain = value.chain.filter((run): run is [number, string[]] =>
      Array.isArray(run) && Number.isInteger(run[0]) &&
      Array.isArray(run[1]) &&
      run[1].every((key: unknown) => typeof key === "string")
    );
  }
  if (isObject(value.files) && typeof value.files.message === "string") {
    const paths = Array.isArray(value.files.paths)
      ? value.files.paths.filter((p): p is string => typeof p === "string")
      : [];
    state.files = { message: value.files.message, paths };
  }
  return state;
}

/** Text of a tool result's `content`: a string or an array of text blocks. */
function toolResultText(content: unknown): string {
  let text = rawResultText(content);
  if (text.includes("<")) {
    text = stripBlocks(text, [["<system-reminder>", "</system-reminder>"]])
      .replace(/<\/?tool_use_error>/g, "");
  }
  return text.trim();
}

/**
 * A tool result's `content` as it is, reminders and all: text, a list of
 * blocks, or one block.
 */
function rawResultText(content: unknown): string {
  let text = "";
  if (typeof content === "string") {
    text = content;
  } else if (Array.isArray(content)) {
    const parts: string[] = [];
    for (const block of content) {
      if (isObject(block) && typeof block.text === "string") {
        parts.push(block.text);
      } else if (typeof block === "string") parts.push(block);
    }
    text = parts.join("\n");
  } else if (isObject(content) && typeof content.text === "string") {
    // One block on its own, not in a list (a converter's shape).
    text = content.text;
  }
  return text;
}

const REMINDER: readonly [string, string] = [
  "<system-reminder>",
  "</system-reminder>",
];

/**
 * How Claude Code words a hook's feedback on the agent's work when it hands
 * it on in a `<system-reminder>`: the event (a tool event with its tool,
 * `PostToolUse:Edit`), then what the hook said. A hook adding context to a
 * prompt or a session's start (UserPromptSubmit, SessionStart) says nothing
 * of the work, and is left out with the other reminders.
 */
const HOOK_REMINDER =
  /^(?:PreToolUse|PostToolUse|PostToolUseFailure|Stop|SubagentStop)(?::\S*)? hook (additional context|blocking error from command|stopped continuation)\b:?/;

/**
 * A line of hook feedback that reports an error: `[COMPILE ERROR]`,
 * `error: …`, `** (CompileError) …`.
 */
const HOOK_ERROR_LINE = /^[\s[*(]*[\w ]*error\b[\]):[]/im;

/**
 * The hook feedback in a text's `<system-reminder>` blocks (a PostToolUse
 * hook's compiler errors after an edit), each with whether it reports an
 * error: a blocking error always does, other feedback when a line of it
 * names one. Ordinary reminders are not feedback.
 */
function hookReminders(
  text: string,
): Array<{ text: string; isError: boolean }> {
  const found: Array<{ text: string; isError: boolean }> = [];
  let at = text.indexOf(REMINDER[0]);
  while (at !== -1) {
    const start = at + REMINDER[0].length;
    const end = text.indexOf(REMINDER[1], start);
    if (end === -1) break;
    const body = text.slice(start, end).trim();
    const m = HOOK_REMINDER.exec(body);
    if (m) {
      found.push({
        text: body,
        isError: m[1] === "blocking error from command" ||
          HOOK_ERROR_LINE.test(body.slice(m[0].length)),
      });
    }
    at = text.indexOf(REMINDER[0], end + REMINDER[1].length);
  }
  return found;
}

/**
 * The task id of a Bash command Claude Code left running in the background
 * (`backgroundTaskId`, or the id its result names), else undefined.
 */
function backgroundTask(text: string, bash: unknown): string | undefined {
  if (isObject(bash) && typeof bash.backgroundTaskId === "string") {
    return bash.backgroundTaskId;
  }
  return /^Command running in background with ID: ([\w-]+)/.exec(text)?.[1];
}

/**
 * A background task a later check found finished, with its exit code: a
 * TaskOutput result's `task` (2.1), or a BashOutput result (2.0, `shellId`).
 */
function finishedTask(
  bash: unknown,
): { task: string; exitCode: number } | undefined {
  if (!isObject(bash)) return undefined;
  const task = isObject(bash.task) ? bash.task : bash;
  const id = str(task.task_id) ?? str(task.shellId);
  const exitCode = task.exitCode;
  return id && typeof exitCode === "number" && Number.isInteger(exitCode)
    ? { task: id, exitCode }
    : undefined;
}

/** A refused tool call's `toolUseResult`. */
const REJECTED_RESULT = "User rejected tool use";

/** How Claude Code hands a person's typed reason for a refused tool call on. */
const REJECTION_REASON =
  /^The user doesn't want to proceed with this tool use\b[^]*?(?:The user provided the following reason for the rejection:|To tell you how to proceed, the user said:)\s*([^]*)$/;

/**
 * The words a person typed when refusing a tool call, else "" (no reason, or
 * the question tool's own note that they want to clarify).
 */
function rejectionReason(text: string): string {
  const m = REJECTION_REASON.exec(text);
  if (!m) return "";
  const said = (m[1] ?? "")
    .replace(/\n\nNote: The user's next message may contain[^]*$/, "")
    .trim();
  return said.startsWith("The user wants to clarify these questions")
    ? ""
    : speech(said);
}

/** The question tool's result: `"question"="answer"` pairs a person chose. */
const ANSWERED =
  /^User has answered your questions?: ([^]*?)\.? You can now continue\b/;

/**
 * A person's answers to the question tool (AskUserQuestion), one
 * `question → answer` line each, else "".
 */
function questionAnswers(text: string): string {
  const body = ANSWERED.exec(text)?.[1];
  if (!body) return "";
  const lines: string[] = [];
  for (const [question, said] of answerPairs(body)) {
    const answer = said.trim();
    if (answer) lines.push(`${question.trim()} → ${answer}`);
  }
  return lines.join("\n");
}

/**
 * The `"question"="answer"` pairs of an answer, as the regex
 * `/"([^]+?)"="([^]*?)"(?=, "|$)/g` finds them, in one pass: a question
 * runs to the first `"="`, its answer to the first `"` that `, "` or the
 * end follows. When a quote has no such pair after it, no later one has:
 * the regex looked again from each (quadratic in a text of quotes).
 */
function answerPairs(body: string): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  let open = body.indexOf('"');
  while (open >= 0) {
    const equals = body.indexOf('"="', open + 2);
    if (equals < 0) break;
    let close = body.indexOf('"', equals + 3);
    while (
      close >= 0 && close !== body.length - 1 &&
      !body.startsWith(', "', close + 1)
    ) close = body.indexOf('"', close + 1);
    if (close < 0) break;
    pairs.push([body.slice(open + 1, equals), body.slice(equals + 3, close)]);
    open = body.indexOf('"', close + 1);
  }
  return pairs;
}

/**
 * The plan text of a call to the to-do tools: the todos a TodoWrite call
 * adds (each list is written whole, so a todo whose fingerprint is in `seen`
 * is not repeated; `seen` grows, oldest dropped past its cap), or a
 * TaskCreate task's subject and description. "" for any other call.
 */
function planText(name: string, input: Json, seen: Set<string>): string {
  if (name === "TaskCreate") {
    return [str(input.subject), str(input.description)]
      .filter((s): s is string => s !== undefined && s.trim().length > 0)
      .join("\n");
  }
  if (name !== "TodoWrite" || !Array.isArray(input.todos)) return "";
  const added: string[] = [];
  for (const todo of input.todos) {
    const content = isObject(todo) ? str(todo.content)?.trim() : undefined;
    const key = content && fingerprint(content);
    if (!content || !key || seen.has(key)) continue;
    seen.add(key);
    if (seen.size > MAX_TODOS) seen.delete(seen.values().next().value ?? "");
    added.push(content);
  }
  return added.join("\n");
}

/** The last word of a saved result's preview, before its closing `...`. */
// Tried only where a word starts: tried inside one too, a long word was read
// again from each of its characters.
const CUT_PREVIEW_END = /(?<!\S)\S+(\n\.\.\.\n<\/persisted-output>)/;

/** A tool result Claude Code moved to a file: the preview, and the file named. */
const PERSISTED: readonly [string, string] = [
  "<persisted-output>",
  "</persisted-output>",
];
const SAVED_TO = /Full output saved to: ([^\n]+)/;

/**
 * The whole of a tool result Claude Code (2.0.60+) saved to
 * `<session>/tool-results/` and replaced by a `<persisted-output>` preview:
 * the text with the preview swapped for the file, read from this session's
 * own folder by the file's name alone (a path written in a result is not
 * followed) and bounded like any tool output ({@linkcode readFileEdges}).
 * Undefined when there is no such file, so the preview stays.
 */
function persistedOutput(
  sessionDir: string,
  text: string,
): { text: string; truncated: boolean } | undefined {
  const found = firstBlock(text, PERSISTED);
  const block = found && text.slice(found.start, found.end);
  const named = block && SAVED_TO.exec(block)?.[1]?.trim();
  if (!block || !named) return undefined;
  const name = baseName(named);
  if (!name || name === "." || name === "..") return undefined;
  const full = readFileEdges(
    `${sessionDir}/tool-results/${name}`,
    MAX_OUTPUT_CHARS,
  );
  if (full === undefined) return undefined;
  return {
    text: text.replace(block, () => full.text),
    truncated: full.truncated,
  };
}

/**
 * The body of the first `<tag>…</tag>` that is closed, as a lazy regex finds
 * it, by search (the regex tried every later unclosed `<tag>` again).
 */
function closedTagBody(text: string, tag: string): string | undefined {
  const open = text.indexOf(`<${tag}>`);
  const close = open === -1 ? -1 : text.indexOf(`</${tag}>`, open);
  return close === -1 ? undefined : text.slice(open + tag.length + 2, close);
}

/**
 * A slash command line keeps what the person typed after the command
 * (`/review the auth module`); a bare command is dropped with the rest of the
 * command boilerplate by {@linkcode cleanSpeech}.
 */
function slashCommand(text: string): string {
  const args = closedTagBody(text, "command-args")?.trim();
  if (!args) return text;
  const name = closedTagBody(text, "command-name")?.trim() ?? "";
  const rest = stripBlocks(
    text,
    ["name", "message", "args"].map((
      t,
    ) => [`<command-${t}>`, `</command-${t}>`]),
  ).trim();
  // A setting (/model opus, /add-dir ../api) is no one speaking.
  const said = SETTING_COMMANDS.has(name.replace(/^\//, ""))
    ? ""
    : `${name} ${args}`.trim();
  return [said, rest].filter((s) => s.length > 0).join("\n\n");
}

/** Built-in commands whose arguments set something rather than ask. */
const SETTING_COMMANDS = new Set([
  "model",
  "output-style",
  "config",
  "permissions",
  "add-dir",
  "login",
  "logout",
  "mcp",
  "resume",
  "agents",
  "hooks",
  "ide",
  "status",
  "doctor",
  "export",
  "cost",
  "clear",
  "exit",
  "vim",
  "theme",
  "terminal-setup",
  "statusline",
  "privacy-settings",
  "upgrade",
  "usage",
  "rewind",
  "bashes",
  "todos",
  "context",
  "plugin",
  "sandbox",
]);

/** How a compaction summary opens (all of it is the summary). */
const CONTINUED =
  "This session is being continued from a previous conversation";

/**
 * Blocks Claude Code itself puts in a user turn: a local command's error
 * output, and what a UserPromptSubmit hook printed (1.x wrote it into the
 * prompt it ran for).
 */
const HARNESS_BLOCKS = ["local-command-stderr", "user-prompt-submit-hook"].map(
  (tag) => [`<${tag}>`, `</${tag}>`] as const,
);

/** Speech text with Claude Code's and the IDE's injected blocks removed. */
function speech(text: string): string {
  if (text.includes("<command-args>")) text = slashCommand(text);
  if (text.includes("<ide_")) text = stripBlocks(text, IDE_BLOCKS);
  if (text.includes("<local-command-stderr>") || text.includes("-hook>")) {
    text = stripBlocks(text, HARNESS_BLOCKS);
  }
  return cleanSpeech(text);
}

/** How Claude Code introduces what a Stop hook printed when it blocked. */
const STOP_HOOK_FEEDBACK = "Stop hook feedback:";

/**
 * Attachments (2.1) of a file the person @-mentioned in a prompt, by the
 * `filename` (its full path) they name: its text read in, its text already
 * read, or a large PDF referred to.
 */
const MENTION_ATTACHMENTS = new Set([
  "file",
  "already_read_file",
  "pdf_reference",
]);

/** How a message from another agent of the team is introduced. */
const PEER_MESSAGE = "Another Claude session sent a message:";

/**
 * The bodies of a turn's `<teammate-message teammate_id="…">` blocks (one
 * unclosed at the end runs to the end), found by search.
 */
function teammateText(text: string): string {
  const bodies: string[] = [];
  let at = 0;
  for (;;) {
    const open = text.indexOf("<teammate-message", at);
    const start = open === -1 ? -1 : text.indexOf(">", open);
    if (start === -1) break;
    const close = text.indexOf("</teammate-message>", start);
    bodies.push(text.slice(start + 1, close === -1 ? undefined : close).trim());
    if (close === -1) break;
    at = close;
  }
  return bodies.join("\n\n");
}

/**
 * A user turn Claude Code wrote for the harness rather than the person: the
 * `!` shell passthrough (`<bash-input>` is the command typed, `<bash-stdout>`
 * and `<bash-stderr>` what it printed), what a built-in slash command
 * printed (`<local-command-stdout>`), and the notices that a background task
 * or command finished (`<task-notification>`, `<bash-notification>`), and
 * the feedback of a Stop hook that sent the agent back to work, and a
 * message from another agent of the team (`<teammate-message>`).
 * Undefined for anything else.
 */
function harnessTurn(
  text: string,
): { role: "command" | "tool-output"; text: string; tool: string } | undefined {
  const head = text.trimStart();
  if (head.startsWith("<bash-input>")) {
    return {
      role: "command",
      text: tagBody(head, "bash-input") ?? "",
      tool: "Bash",
    };
  }
  if (head.startsWith("<bash-stdout>") || head.startsWith("<bash-stderr>")) {
    const out = [tagBody(head, "bash-stdout"), tagBody(head, "bash-stderr")]
      .filter((s): s is string => s !== undefined && s.length > 0);
    return { role: "tool-output", text: out.join("\n"), tool: "Bash" };
  }
  if (head.startsWith("<local-command-stdout>")) {
    // What a built-in slash command printed (`/mcp` "Reconnected to
    // tidewave.", `/login`, `/cost`): the harness's output, not speech.
    return {
      role: "tool-output",
      text: tagBody(head, "local-command-stdout") ?? "",
      tool: "slash-command",
    };
  }
  if (head.startsWith("<bash-notification>")) {
    // A background `!` command finished (2.0): what it says, not speech.
    return {
      role: "tool-output",
      text: tagBody(head, "summary") ?? "",
      tool: "Bash",
    };
  }
  if (
    head.startsWith("<teammate-message") || head.startsWith(PEER_MESSAGE)
  ) {
    // Another agent of the team (2.1's agent teams) wrote it.
    return {
      role: "tool-output",
      text: teammateText(head),
      tool: "teammate-message",
    };
  }
  if (head.startsWith(STOP_HOOK_FEEDBACK)) {
    // A Stop hook sent the agent back to work: what it printed, not speech.
    return {
      role: "tool-output",
      text: head.slice(STOP_HOOK_FEEDBACK.length),
      tool: "hook",
    };
  }
  if (head.startsWith("<task-notification>")) {
    const said = [tagBody(head, "summary"), tagBody(head, "result")]
      .filter((s): s is string => s !== undefined && s.length > 0);
    return {
      role: "tool-output",
      text: said.join("\n"),
      tool: "task-notification",
    };
  }
  return undefined;
}

/**
 * Whether a line can open the branch a rewind starts: a `user` line a person's
 * act wrote (a prompt, a slash command's lines). A tool result points at the
 * line of its own call (parallel calls' results at their own calls), and a
 * compaction summary at its boundary, so neither says anything of a rewind.
 */
function mayOpenBranch(obj: Json): boolean {
  if (obj.type !== "user" || obj.isCompactSummary === true) return false;
  const content = isObject(obj.message) ? obj.message.content : undefined;
  if (typeof content === "string") return !content.startsWith(CONTINUED);
  return !Array.isArray(content) ||
    !content.some((block) => isObject(block) && block.type === "tool_result");
}

/** Finds a trailing oversized line's fate: consumed only if a newline ends it. */
async function endsWithNewline(path: string, at: number): Promise<boolean> {
  try {
    using file = await Deno.open(path, { read: true });
    await file.seek(at, Deno.SeekMode.Start);
    const buf = new Uint8Array(1);
    const n = await file.read(buf);
    return n === 1 && buf[0] === 10;
  } catch {
    return false;
  }
}

/**
 * Walks a file's complete lines, tracking the safe resume point, counting
 * oversized and torn lines the same way for both kinds.
 */
async function eachLine(
  path: string,
  options: ClaudeParseOptions,
  visit: (
    text: string,
    locator: Locator & { line: number; offset: number },
  ) => void,
  quiet: () => boolean = () => true,
): Promise<{ safeOffset: number; safeLine: number; skipped: number }> {
  let safeOffset = options.offset ?? 0;
  let safeLine = options.firstLine ?? 1;
  let skipped = 0;
  let trailing: OversizedLine | undefined;
  const stopAt = options.limitBytes ? safeOffset + options.limitBytes : 0;
  const lines = readLines(path, {
    offset: safeOffset,
    firstLine: safeLine,
    maxLineBytes: options.maxLineBytes ?? MAX_LINE_BYTES,
    onOversized: (line) => {
      // An earlier oversized line followed by another line had its newline.
      settleOversized();
      trailing = line;
    },
  });
  function settleOversized(): void {
    if (trailing === undefined) return;
    skipped++;
    safeOffset = trailing.offset + trailing.length + 1;
    safeLine = trailing.number + 1;
    trailing = undefined;
  }
  for await (const line of lines) {
    // An oversized line reported before this one had its newline.
    settleOversized();
    // A last line with no newline may still be being written: leave it.
    if (!line.complete) break;
    safeOffset = line.end;
    safeLine = line.number + 1;
    if (line.text.trim().length > 0) {
      visit(line.text, { path, line: line.number, offset: line.offset });
    }
    // Read in parts: stop past the limit once no command awaits its exit
    // code (a written record cannot take it later).
    if (stopAt && safeOffset >= stopAt && quiet()) break;
  }
  if (trailing !== undefined) {
    const t: OversizedLine = trailing;
    if (await endsWithNewline(path, t.offset + t.length)) settleOversized();
  }
  return { safeOffset, safeLine, skipped };
}

/** Side-chain lines remembered across passes, to place the lines after them. */
const MAX_SIDE_LINES = 512;

/** Builds one transcript's session (and the side chains in it) line by line. */
class TranscriptReader {
  /** The transcript's own session. */
  readonly main: SessionBuilder;
  /** The session the line being read adds to: the main one or a side chain's. */
  #active: SessionBuilder;
  /** Sub-agent sessions of the side chains read this pass: id → builder. */
  #sides = new Map<string, SessionBuilder>();
  /** Side-chain lines: line key → their sub-agent session id. */
  #sideLines: Map<string, string>;
  /**
   * Tool calls made in a side chain this pass: the state does not carry
   * them, since a seq it keeps is read as one of the main session's.
   */
  #sideTools = new Set<string>();
  readonly state: ClaudeTranscriptState;
  skipped = 0;
  #includeSubagents: boolean;
  #subagentFile: boolean;
  #compactAgent: boolean;
  #fallbackProject: string;
  /** Tool calls awaiting results: id → name. */
  #tools: Map<string, string>;
  /** Bash command records awaiting their exit code: tool_use id → record. */
  #commands = new Map<string, SessionRecord>();
  /** Commands an earlier pass wrote before their result came: id → seq. */
  #written: Map<string, number>;
  /** Edit calls awaiting their result: tool_use id → their edit records' seqs. */
  #edits: Map<string, [number, number]>;
  /**
   * Bash commands left running in the background, awaiting their exit
   * code: task id → this pass's record, or an earlier pass's seq.
   */
  #background: Map<string, SessionRecord | number>;
  /** Exit codes found this pass for those commands. */
  readonly lateExitCodes: Array<{ seq: number; exitCode: number }> = [];
  #filesMessage: string | undefined;
  #filesSeen = new Set<string>();
  #namedByFile: boolean;
  /** The session's own folder (`tool-results/` lives there), when known. */
  #sessionDir: string | undefined;
  /** Fingerprints of queued prompts recorded from one of their copies. */
  #queued: string[];
  /** Fingerprints of the todos already recorded. */
  #todos: Set<string>;
  /** Fingerprints of the step labels already recorded, with their session. */
  #descriptions: Set<string>;
  /** Keys of the message lines read ({@linkcode lineKey}). */
  #lines: Set<string>;
  /** Content blocks read of the latest assistant messages: id → block keys. */
  #streamed = new Map<string, Set<string>>();
  /** Summary lines awaiting the message they name: its line key → them. */
  #summaries: Map<string, PendingSummary>;
  /** Main-chain lines read, oldest first: line key → seq of the next record. */
  #chain = new Map<string, number>();
  #path: string;

  constructor(path: string, options: ClaudeParseOptions) {
    this.#path = path;
    this.#includeSubagents = options.includeSubagents;
    this.state = readState(options.state);
    const sub = subagentOf(path);
    this.#subagentFile = sub !== undefined;
    if (sub && this.state.parent === undefined) {
      // An agent another agent started names it in its meta file.
      const parentAgent = parentAgentOf(path, sub.agent);
      if (parentAgent) this.state.parent = parentAgent;
    }
    const encodedDir = sub ? sub.encodedDir : segments(path).at(-2);
    this.#fallbackProject = encodedDir ? projectFromEncoded(encodedDir) : "";
    if (sub === undefined) this.#sessionDir = path.replace(/\.jsonl$/, "");
    else if (sub.up !== undefined) {
      let dir = path;
      for (let i = 0; i < sub.up; i++) dir = dirName(dir);
      this.#sessionDir = dir;
    }
    const stem = baseName(path).replace(/\.jsonl$/, "");
    // A transcript named by a session uuid is that session, even when it
    // opens with turns copied from the one it resumed (1.0.x wrote those
    // with the old session's id).
    this.#namedByFile = sub === undefined && UUID.test(stem);
    const id = this.state.sessionId ?? sub?.agent ?? stem;
    this.#compactAgent = sub !== undefined && id.startsWith("acompact");
    this.#tools = new Map(Object.entries(this.state.tools ?? {}));
    this.#written = new Map(Object.entries(this.state.commands ?? {}));
    this.#edits = new Map(Object.entries(this.state.edits ?? {}));
    this.#background = new Map(Object.entries(this.state.background ?? {}));
    this.#filesMessage = this.state.files?.message;
    this.#filesSeen = new Set(this.state.files?.paths);
    this.#queued = this.state.queued ?? [];
    this.#todos = new Set(this.state.todos);
    this.#descriptions = new Set(this.state.descriptions);
    this.#lines = new Set(this.state.lines);
    this.#summaries = new Map(Object.entries(this.state.summaries ?? {}));
    for (const [id, keys] of Object.entries(this.state.streamed ?? {})) {
      this.#streamed.set(id, new Set(keys));
    }
    for (const [seq, keys] of this.state.chain ?? []) {
      for (const key of keys) this.#chain.set(key, seq);
    }
    this.#sideLines = new Map(Object.entries(this.state.sideLines ?? {}));
    const parent = this.state.parent ?? sub?.parent;
    this.main = new SessionBuilder({
      harness: HARNESS_ID,
      id,
      path,
      cwd: this.state.cwd,
      project: this.state.project ?? this.#fallbackProject,
      nextSeq: this.state.nextSeq,
      parent,
      lineage: parent ? sub ? "subagent" : "fork" : undefined,
    });
    this.#active = this.main;
  }

  /** The session records go to now. */
  get builder(): SessionBuilder {
    return this.#active;
  }

  /** The sub-agent sessions of the side chains read this pass. */
  sides(): Session[] {
    return [...this.#sides.values()].map((b) => b.build())
      .filter((s) => s.records.length > 0);
  }

  /**
   * The sub-agent session a side-chain line of a main transcript belongs
   * to (Claude Code 1.0.x wrote a Task's conversation into the session's
   * own file): its `agentId`'s, else that of the line its `parentUuid`
   * names, else a new one named by its own uuid (a chain's first line has
   * no parent).
   */
  #side(obj: Json): SessionBuilder {
    const key = lineKey(str(obj.uuid));
    const id = str(obj.agentId) ??
      this.#sideLines.get(lineKey(str(obj.parentUuid)) ?? "") ??
      str(obj.uuid) ?? `${this.main.id}-sidechain`;
    if (key !== undefined) {
      this.#sideLines.delete(key);
      this.#sideLines.set(key, id);
      if (this.#sideLines.size > MAX_SIDE_LINES) {
        this.#sideLines.delete(this.#sideLines.keys().next().value ?? "");
      }
    }
    let side = this.#sides.get(id);
    if (side === undefined) {
      side = new SessionBuilder({
        harness: HARNESS_ID,
        id,
        path: this.#path,
        cwd: this.state.cwd,
        project: this.state.project ?? this.#fallbackProject,
        nextSeq: ownValue(this.state.sidechains ?? {}, id) ?? 0,
        parent: this.main.id,
        lineage: "subagent",
      });
      this.#sides.set(id, side);
    }
    return side;
  }

  /** Handles one complete, non-blank line. */
  line(
    text: string,
    locator: Locator & { line: number; offset: number },
  ): void {
    // parseJson: also past the NUL bytes a power loss leaves before a line.
    const obj = parseJson(text);
    if (!isObject(obj)) {
      this.skipped++;
      return;
    }
    const key = this.#subagentFile || obj.isSidechain === true
      ? undefined
      : lineKey(str(obj.uuid));
    if (key !== undefined) this.#rewound(obj, key);
    this.#dispatch(obj, locator);
    if (key !== undefined) {
      // A line written again keeps its first place.
      if (!this.#chain.has(key)) this.#chain.set(key, this.builder.nextSeq);
      if (this.#chain.size > MAX_CHAIN_LINES) {
        this.#chain.delete(this.#chain.keys().next().value ?? "");
      }
    }
  }

  /**
   * A rewind (Esc Esc, `/rewind`, an earlier prompt edited and sent again):
   * Claude Code leaves the abandoned turns in the file and writes the new
   * prompt with `parentUuid` naming a line before them (null when it goes
   * back to the very start). Every record read since that line is then off
   * the conversation: superseded, up to here. A line continuing the last
   * one read has nothing since; a parent this file never had (a resumed
   * session's history) or no longer remembers marks nothing.
   */
  #rewound(obj: Json, key: string): void {
    if (!mayOpenBranch(obj)) return;
    // A line written again (an IDE reopening the session) is no new branch.
    if (this.#chain.has(key) || this.#lines.has(key)) return;
    const parent = obj.parentUuid;
    const from = parent === null
      ? 0
      : this.#chain.get(lineKey(str(parent)) ?? "");
    if (from !== undefined) {
      this.builder.mark("rewind", from, this.builder.nextSeq);
    }
  }

  /** Reads one parsed line by its type. */
  #dispatch(
    obj: Json,
    locator: Locator & { line: number; offset: number },
  ): void {
    const type = obj.type;
    if (isObject(obj.forkedFrom)) {
      this.#copied(obj);
    } else if (type === "user" || type === "assistant") {
      this.#message(obj, type, locator);
    } else if (type === "summary") {
      this.#summary(obj, locator);
    } else if (type === "custom-title") {
      // The name a person gave the session (`/rename`) beats any other.
      const title = str(obj.customTitle) ?? str(obj.title);
      if (title) {
        this.builder.setTitle(title);
        this.state.titleFrom = "custom";
      }
    } else if (type === "ai-title") {
      // Claude Code's own title for the session beats the first prompt.
      const title = str(obj.aiTitle);
      if (title && this.state.titleFrom !== "custom") {
        this.builder.setTitle(title);
        this.state.titleFrom = "ai";
      }
    } else if (type === "queue-operation") {
      this.#queueOperation(obj, locator);
    } else if (type === "attachment") {
      this.#attachment(obj, locator);
    } else if (
      typeof type !== "string" ||
      (!QUIET_TYPES.has(type) && isObject(obj.message))
    ) {
      // A line of a type this deja does not know is bookkeeping unless it
      // carries a message: only those are counted (and named) as skipped.
      this.skipped++;
    }
  }

  /**
   * A line `/branch` copied from the session it forked (`forkedFrom`): the
   * fork's parent, whose own transcript holds the turn, so only the link and
   * the working directory are taken from it.
   */
  #copied(obj: Json): void {
    this.#identify(obj);
    const from = isObject(obj.forkedFrom) ? str(obj.forkedFrom.sessionId) : "";
    if (from && !this.#subagentFile && this.state.parent === undefined) {
      this.state.parent = from;
      this.builder.setParent(from, "fork");
    }
  }

  /**
   * A prompt queued while the agent worked leaves the queue by `dequeue`
   * (it then opens the next turn as a `user` line), by `popAll` (taken back
   * into the input box: not sent), or by `remove`, which holds its text when
   * the running turn absorbed it (`absorbed_mid_turn`, no reason before
   * 2.1.246). Only that last one is a prompt no `user` line will carry.
   */
  #queueOperation(obj: Json, locator: Locator): void {
    if (obj.operation !== "remove" || typeof obj.content !== "string") return;
    const reason = obj.reason;
    if (reason != null && !ABSORBED.has(String(reason))) return;
    this.#queuedPrompt(
      obj.content,
      locator,
      parseTime(obj.timestamp),
      this.#flags(false),
    );
  }

  /**
   * A `queued_command` attachment: a prompt (or a background task's
   * notification) the running turn absorbed, written instead of a `user`
   * line. A queued `!` shell command is not a prompt and is left out.
   */
  #attachment(obj: Json, base: Locator): void {
    const attachment = obj.attachment;
    if (!isObject(attachment)) return;
    const mentioned = MENTION_ATTACHMENTS.has(String(attachment.type))
      ? str(attachment.filename)
      : undefined;
    if (!mentioned && attachment.type !== "queued_command") return;
    const mode = attachment.commandMode ?? "prompt";
    if (!mentioned && mode !== "prompt" && mode !== "task-notification") {
      return;
    }
    const sidechain = obj.isSidechain === true;
    if (sidechain && !this.#subagentFile && !this.#includeSubagents) return;
    this.#identify(obj);
    const uuid = str(obj.uuid);
    if (this.#replayed(uuid)) return;
    const locator = uuid ? { ...base, recordId: uuid } : base;
    const time = parseTime(obj.timestamp);
    if (mentioned) {
      // A file the person @-mentioned, read for the agent with their prompt.
      this.builder.add("files", mentioned, {
        locator,
        time,
        tool: "mention",
        ...this.#flags(sidechain),
      });
      return;
    }
    this.#queuedPrompt(
      textBlocks(attachment.prompt, "\n\n"),
      locator,
      time,
      this.#flags(sidechain),
      // One the harness queued itself (`isMeta`) is no one's words.
      attachment.isMeta !== true,
    );
  }

  /**
   * Records an absorbed prompt once: its `remove` and its attachment both
   * carry it, in either order, so the first records it and the second only
   * clears its fingerprint. A bare slash command is no one's words.
   */
  #queuedPrompt(
    text: string,
    locator: Locator,
    time: number | undefined,
    flags: { flags?: RecordFlags },
    spoken = true,
  ): void {
    const said = text.trim();
    if (!said || /^\/[\w:.-]+$/.test(said)) return;
    const key = fingerprint(said);
    const at = this.#queued.indexOf(key);
    if (at >= 0) {
      this.#queued.splice(at, 1);
      return;
    }
    // A prompt no one spoke still waits for its other copy, to drop it too.
    this.#queued.push(key);
    if (this.#queued.length > MAX_QUEUED) this.#queued.shift();
    if (spoken) this.#said(said, locator, time, flags);
  }

  /**
   * Whether a line with this uuid was read before: Claude Code writes a
   * session's lines again, same uuid and all, when an IDE reopens it or a
   * stream-json client sends its next turn. Notes the uuid otherwise.
   */
  #replayed(uuid: string | undefined): boolean {
    const key = lineKey(uuid);
    if (key === undefined) return false;
    if (this.#lines.has(key)) return true;
    this.#lines.add(key);
    const summary = this.#summaries.get(key);
    if (summary !== undefined) {
      // The conversation a summary line named is this one after all.
      this.#summaries.delete(key);
      this.#summaryRecord(summary.text, { path: this.#path, ...summary.at });
    }
    return false;
  }

  /**
   * A `summary` line sums up the conversation that ends at its `leafUuid`,
   * which 1.x–2.0 often wrote into whichever session was open when they made
   * it: kept only once that message is read in this file (before or after
   * it); one without a leaf is kept as it is.
   */
  #summary(obj: Json, locator: Locator & { line: number; offset: number }) {
    const text = typeof obj.summary === "string" ? speech(obj.summary) : "";
    const leaf = lineKey(str(obj.leafUuid));
    if (!text) return;
    if (leaf === undefined || this.#lines.has(leaf)) {
      this.#summaryRecord(text, locator);
      return;
    }
    this.#summaries.set(leaf, {
      text,
      at: { line: locator.line, offset: locator.offset },
    });
    if (this.#summaries.size > MAX_PENDING_SUMMARIES) {
      this.#summaries.delete(this.#summaries.keys().next().value ?? "");
    }
  }

  /**
   * Keeps a summary line of this session. It is also the title 1.x–2.0
   * show for the session in `claude --resume` (the latest one), below a
   * name the person gave it and 2.1's `ai-title`, above the first prompt.
   */
  #summaryRecord(text: string, locator: Locator) {
    this.builder.add("summary", text, { locator, ...this.#flags(false) });
    if (this.state.titleFrom === "custom" || this.state.titleFrom === "ai") {
      return;
    }
    this.builder.setTitle(text);
    this.state.titleFrom = "summary";
  }

  #flags(sidechain: boolean): { flags?: RecordFlags } {
    return this.#subagentFile || sidechain ? { flags: { subagent: true } } : {};
  }

  #identify(obj: Json): void {
    const sessionId = str(obj.sessionId);
    const agentId = str(obj.agentId);
    if (this.#subagentFile) {
      if (agentId && this.state.sessionId === undefined) {
        this.state.sessionId = agentId;
        this.builder.setId(agentId);
      }
      if (sessionId && this.state.parent === undefined) {
        this.state.parent = sessionId;
        this.builder.setParent(sessionId, "subagent");
      }
    } else if (
      sessionId && this.state.sessionId === undefined && !this.#namedByFile
    ) {
      this.state.sessionId = sessionId;
      this.builder.setId(sessionId);
    }
    const cwd = str(obj.cwd);
    if (cwd && this.state.cwd === undefined) {
      this.state.cwd = cwd;
      this.state.project = projectFromCwd(cwd) || this.#fallbackProject;
      this.builder.setCwd(cwd, this.state.project);
    }
  }

  #message(
    obj: Json,
    type: "user" | "assistant",
    base: Locator & { line: number; offset: number },
  ): void {
    const sidechain = obj.isSidechain === true;
    if (sidechain && !this.#subagentFile && !this.#includeSubagents) return;
    this.#identify(obj);
    if (!sidechain || this.#subagentFile) {
      this.#messageBody(obj, type, base, sidechain);
      return;
    }
    this.#active = this.#side(obj);
    try {
      this.#messageBody(obj, type, base, sidechain);
    } finally {
      this.#active = this.main;
    }
  }

  #messageBody(
    obj: Json,
    type: "user" | "assistant",
    base: Locator & { line: number; offset: number },
    sidechain: boolean,
  ): void {
    const uuid = str(obj.uuid);
    if (this.#replayed(uuid)) return;
    const locator: Locator = uuid ? { ...base, recordId: uuid } : base;
    const time = parseTime(obj.timestamp);
    const flags = this.#flags(sidechain);
    const message = isObject(obj.message) ? obj.message : {};
    const content = message.content;
    if (type === "user") {
      // Text the harness wrote in the person's voice (`isSynthetic` in
      // some 2.x builds).
      if (obj.isMeta === true || obj.isSynthetic === true) {
        // 2.1 flags a Stop hook's feedback too: still what the hook printed.
        const text = textBlocks(content, "\n\n");
        if (text.trimStart().startsWith(STOP_HOOK_FEEDBACK)) {
          this.#said(text, locator, time, flags);
        }
        this.#hookFeedback(text, locator, time, flags);
        return;
      }
      if (obj.isCompactSummary === true) {
        this.builder.add("summary", speech(textBlocks(content, "\n\n")), {
          locator,
          time,
          ...flags,
        });
        return;
      }
      this.#user(content, locator, time, flags, {
        // A tool's injected text (a skill's body) names that tool call.
        typed: obj.sourceToolUseID === undefined,
        bash: obj.toolUseResult,
      });
      return;
    }
    if (obj.isApiErrorMessage === true) {
      // Nothing was said, but it is why the turn failed: kept as error
      // output of the model call, out of speech.
      const text = textBlocks(content, "\n");
      if (text.trim()) {
        this.builder.add("tool-output", text, {
          locator,
          time,
          tool: "model",
          flags: { ...flags.flags, isError: true },
        });
      }
      return;
    }
    if (message.model === "<synthetic>") return;
    this.#assistant(
      content,
      str(message.id) ?? `line:${base.line}`,
      locator,
      time,
      flags,
    );
  }

  #user(
    content: unknown,
    locator: Locator,
    time: number | undefined,
    flags: { flags?: RecordFlags },
    line: { typed: boolean; bash: unknown },
  ): void {
    // The compaction agent's prompt is harness-authored, not a person's words.
    const typed = line.typed && !this.#compactAgent;
    if (!Array.isArray(content)) {
      const text = textBlocks(content, "\n\n");
      if (typed) this.#typed(text, locator, time, flags);
      this.#hookFeedback(text, locator, time, flags);
      return;
    }
    const texts: string[] = [];
    for (const block of content) {
      if (!isObject(block)) continue;
      if (block.type === "text" && typeof block.text === "string") {
        texts.push(block.text);
      } else if (block.type === "tool_result") {
        this.#toolResult(block, locator, time, flags, line.bash);
      }
    }
    if (texts.length > 0 && typed) {
      this.#typed(texts.join("\n\n"), locator, time, flags);
    }
    for (const text of texts) this.#hookFeedback(text, locator, time, flags);
  }

  /**
   * Keeps what a hook fed back on the agent's work (a PostToolUse hook's
   * compiler errors), found in a text's `<system-reminder>` blocks, as the
   * hook's output; the text's other reminders stay out.
   */
  #hookFeedback(
    text: string,
    locator: Locator,
    time: number | undefined,
    flags: { flags?: RecordFlags },
  ): void {
    if (!text.includes(REMINDER[0])) return;
    for (const hook of hookReminders(text)) {
      this.builder.add("tool-output", hook.text, {
        locator,
        time,
        tool: "hook",
        ...(hook.isError
          ? { flags: { ...flags.flags, isError: true } }
          : flags),
      });
    }
  }

  /**
   * A user line's text, unless it repeats a queued prompt already recorded
   * from the queue (the prompt turned into a turn of its own after all).
   */
  #typed(
    text: string,
    locator: Locator,
    time: number | undefined,
    flags: { flags?: RecordFlags },
  ): void {
    if (this.#queued.length > 0) {
      const at = this.#queued.indexOf(fingerprint(text.trim()));
      if (at >= 0) {
        this.#queued.splice(at, 1);
        return;
      }
    }
    // Both copies of an absorbed prompt are written within its turn: a
    // person's next words end the wait for a missing one.
    if (this.#said(text, locator, time, flags)?.role === "user") {
      this.#queued = [];
    }
  }

  /**
   * A user turn's text: the person's words, or the harness's own work.
   * Returns the record added, if any.
   */
  #said(
    text: string,
    locator: Locator,
    time: number | undefined,
    flags: { flags?: RecordFlags },
  ): SessionRecord | undefined {
    const head = text.trimStart();
    // A skill's instructions, loaded for the agent (flagged `isMeta` since 2.0).
    if (head.startsWith("Base directory for this skill:")) return undefined;
    if (head.startsWith(CONTINUED)) {
      // A compaction summary from before `isCompactSummary` marked them.
      return this.builder.add("summary", speech(head), {
        locator,
        time,
        ...flags,
      });
    }
    const work = harnessTurn(text);
    if (work?.tool === "task-notification") {
      const failed = this.#taskNotification(text);
      return this.builder.add(work.role, work.text, {
        locator,
        time,
        tool: work.tool,
        ...(failed ? { flags: { ...flags.flags, isError: true } } : flags),
      });
    }
    if (work) {
      return this.builder.add(work.role, work.text, {
        locator,
        time,
        tool: work.tool,
        ...flags,
      });
    }
    return this.builder.add("user", speech(text), {
      locator,
      time,
      ...flags,
    });
  }

  /**
   * A tool call's result; `bash` is its line's `toolUseResult`, which says
   * when a Bash command was left running in the background or interrupted
   * (no exit code then).
   */
  #toolResult(
    block: Json,
    locator: Locator,
    time: number | undefined,
    flags: { flags?: RecordFlags },
    bash: unknown,
  ): void {
    const id = str(block.tool_use_id);
    const tool = id ? this.#tools.get(id) : undefined;
    if (id) this.#tools.delete(id);
    // A refusal is an error, also where only `toolUseResult` says so.
    // Some writers (a stream-json client, a converter) give the flag as text.
    const isError = block.is_error === true || block.is_error === "true" ||
      bash === REJECTED_RESULT;
    let text = toolResultText(block.content);
    const edits = id ? this.#edits.get(id) : undefined;
    if (edits) {
      this.#edits.delete(id as string);
      // A refused or failed Edit changed nothing: its edit records (this
      // pass's or an earlier one's) no longer say it did.
      if (isError) {
        this.builder.mark("not-applied", edits[0], edits[1]);
      }
    }
    const command = id ? this.#commands.get(id) : undefined;
    const m = /^Exit code (-?\d+)\b/.exec(text);
    const task = backgroundTask(text, bash);
    const unfinished = task !== undefined ||
      (isObject(bash) && bash.interrupted === true);
    const exitCode = m ? Number(m[1]) : isError || unfinished ? undefined : 0;
    // Its command, this pass's record or (written by an earlier pass, which
    // the index updates) its seq.
    let target: SessionRecord | number | undefined;
    if (command) {
      this.#commands.delete(id as string);
      if (exitCode !== undefined) command.exitCode = exitCode;
      target = command;
    } else if (id && this.#written.has(id)) {
      target = this.#written.get(id) as number;
      this.#written.delete(id);
      if (exitCode !== undefined) {
        this.lateExitCodes.push({ seq: target, exitCode });
      }
    }
    if (
      task !== undefined && target !== undefined &&
      !(id && this.#sideTools.has(id))
    ) {
      // Left running: its exit code comes with a later check on it.
      this.#background.set(task, target);
      if (this.#background.size > MAX_PENDING_TOOLS) {
        this.#background.delete(this.#background.keys().next().value ?? "");
      }
    }
    const finished = finishedTask(bash);
    if (finished) this.#settleBackground(finished.task, finished.exitCode);
    const recordFlags: RecordFlags = { ...flags.flags };
    if (isError) recordFlags.isError = true;
    const saved = text.includes("<persisted-output>") && this.#sessionDir
      ? persistedOutput(this.#sessionDir, text)
      : undefined;
    if (saved) {
      text = saved.text;
      if (saved.truncated) recordFlags.truncated = true;
    } else if (text.includes("<persisted-output>")) {
      // The preview stands in: Claude Code cut it at a byte count, so its
      // last word may be the head of a token no rule can tell any more.
      text = text.replace(CUT_PREVIEW_END, "$1");
      recordFlags.truncated = true;
    }
    this.builder.add("tool-output", text, {
      locator,
      time,
      tool,
      ...(recordFlags.subagent || recordFlags.isError || recordFlags.truncated
        ? { flags: recordFlags }
        : {}),
    });
    this.#hookFeedback(rawResultText(block.content), locator, time, flags);
    const said = isError ? rejectionReason(text) : questionAnswers(text);
    if (said && !this.#compactAgent) {
      // An answer to the agent's question is not what the session is about.
      this.builder.add("user", said, {
        locator,
        time,
        ...flags,
        ...(isError ? {} : { untitled: true }),
      });
    }
  }

  #assistant(
    content: unknown,
    messageId: string,
    locator: Locator,
    time: number | undefined,
    flags: { flags?: RecordFlags },
  ): void {
    // The compaction agent's answer is the digest of the turns it replaced.
    const role = this.#compactAgent ? "summary" : "assistant";
    if (!Array.isArray(content)) {
      this.builder.add(role, speech(textBlocks(content, "\n\n")), {
        locator,
        time,
        ...flags,
      });
      return;
    }
    let texts: string[] = [];
    const flush = () => {
      if (texts.length === 0) return;
      this.builder.add(role, speech(texts.join("\n\n")), {
        locator,
        time,
        ...flags,
      });
      texts = [];
    };
    const streamed = this.#streamedBlocks(messageId);
    for (const block of content) {
      if (!isObject(block)) continue;
      if (block.type === "text" && typeof block.text === "string") {
        if (!streamed?.repeats(`text:${fingerprint(block.text)}`)) {
          texts.push(block.text);
        }
      } else if (block.type === "tool_use") {
        const id = str(block.id);
        // Fingerprinted: the state is redacted, and an id can look random.
        if (id && streamed?.repeats(`tool:${fingerprint(id)}`)) continue;
        flush();
        this.#toolUse(block, messageId, locator, time, flags);
      } else if (block.type === "advisor_tool_result") {
        const id = str(block.tool_use_id) ?? "";
        if (streamed?.repeats(`advisor:${fingerprint(id)}`)) continue;
        flush();
        this.#advisorResult(block.content, locator, time, flags);
      }
    }
    flush();
  }

  /**
   * What the advisor (a server tool the model consults, 2.1) answered, in
   * the assistant's own line: its advice, or the error it failed with, as
   * its output. A redacted answer says nothing readable.
   */
  #advisorResult(
    content: unknown,
    locator: Locator,
    time: number | undefined,
    flags: { flags?: RecordFlags },
  ): void {
    if (!isObject(content)) return;
    const advice = content.type === "advisor_result"
      ? str(content.text)
      : undefined;
    const error = content.type === "advisor_tool_result_error" ||
        content.type === "advisor_error"
      ? str(content.error_code) ?? "error"
      : undefined;
    const text = advice ?? error;
    if (!text?.trim()) return;
    this.builder.add("tool-output", text, {
      locator,
      time,
      tool: "advisor",
      ...(error === undefined
        ? flags
        : { flags: { ...flags.flags, isError: true } }),
    });
  }

  /**
   * The blocks already read of an assistant message: Claude Code writes one
   * message over several lines (a block each, sharing `message.id`), and a
   * line that repeats a block read before (a snapshot of the message so
   * far) must not add it again. Undefined for a line with no message id.
   */
  #streamedBlocks(
    messageId: string,
  ): { repeats(key: string): boolean } | undefined {
    if (messageId.startsWith("line:")) return undefined;
    let seen = this.#streamed.get(messageId);
    if (seen === undefined) {
      seen = new Set();
      this.#streamed.set(messageId, seen);
      if (this.#streamed.size > MAX_STREAMED_MESSAGES) {
        this.#streamed.delete(this.#streamed.keys().next().value ?? "");
      }
    }
    const blocks = seen;
    return {
      repeats(key: string): boolean {
        if (blocks.has(key)) return true;
        blocks.add(key);
        return false;
      },
    };
  }

  #toolUse(
    block: Json,
    messageId: string,
    locator: Locator,
    time: number | undefined,
    flags: { flags?: RecordFlags },
  ): void {
    const name = str(block.name);
    const id = str(block.id);
    if (!name) return;
    if (id && this.#active !== this.main) this.#sideTools.add(id);
    if (id) {
      // Calls that never got a result must not grow the map without bound.
      if (this.#tools.size >= MAX_PENDING_TOOLS * 4) {
        const oldest = this.#tools.keys().next().value;
        if (oldest !== undefined) this.#tools.delete(oldest);
      }
      this.#tools.set(id, name);
    }
    const input = isObject(block.input) ? block.input : {};
    const plan = planText(name, input, this.#todos);
    if (plan) {
      // The agent's own plan, in its words.
      this.builder.add("assistant", plan, {
        locator,
        time,
        tool: name,
        ...flags,
      });
      return;
    }
    if (STEP_LABEL_TOOLS.has(name)) {
      this.#stepLabel(str(input.description), name, locator, time, flags);
    }
    if (name === "WebFetch") {
      // The page fetched, as the command the tool ran: its result is only
      // the model's digest of the page. (A WebSearch result repeats its
      // query, so that call adds nothing.)
      const url = str(input.url);
      if (url) {
        this.builder.add("command", url, {
          locator,
          time,
          tool: name,
          ...flags,
        });
      }
      return;
    }
    if (name === "Bash") {
      const cmd = str(input.command);
      if (!cmd) return;
      const record = this.builder.add("command", cmd, {
        locator,
        time,
        tool: name,
        ...flags,
      });
      if (record && id) this.#commands.set(id, record);
      return;
    }
    if (!PATH_TOOLS.has(name)) return;
    const path = str(input.file_path) ?? str(input.notebook_path) ??
      str(input.path);
    if (!path) return;
    if (this.#filesMessage !== messageId) {
      this.#filesMessage = messageId;
      this.#filesSeen.clear();
    }
    if (!this.#filesSeen.has(path)) {
      this.#filesSeen.add(path);
      this.builder.add("files", path, { locator, time, tool: name, ...flags });
    }
    const removed: string[] = [];
    if (name === "Edit" && typeof input.old_string === "string") {
      removed.push(input.old_string);
    } else if (name === "MultiEdit" && Array.isArray(input.edits)) {
      for (const edit of input.edits) {
        if (isObject(edit) && typeof edit.old_string === "string") {
          removed.push(edit.old_string);
        }
      }
    }
    const from = this.builder.nextSeq;
    for (const old of removed) {
      const body = editBody(path, old);
      const editFlags: RecordFlags = { ...flags.flags };
      if (body.truncated) editFlags.truncated = true;
      this.builder.add("edit", body.text, {
        locator,
        time,
        tool: name,
        ...(editFlags.subagent || editFlags.truncated
          ? { flags: editFlags }
          : {}),
      });
    }
    if (id && this.builder.nextSeq > from) {
      this.#edits.set(id, [from, this.builder.nextSeq]);
      if (this.#edits.size > MAX_PENDING_TOOLS) {
        this.#edits.delete(this.#edits.keys().next().value ?? "");
      }
    }
  }

  /**
   * The label the model gave a step (a Bash call's `description`, "Add the
   * user to the docker-users group"), kept as its words right before the
   * step's own record: each distinct label once per session, as the same
   * step retried carries it again.
   */
  #stepLabel(
    label: string | undefined,
    tool: string,
    locator: Locator,
    time: number | undefined,
    flags: { flags?: RecordFlags },
  ): void {
    const text = label?.trim();
    if (!text) return;
    // Side chains are sessions of their own: the key names the session.
    const key = fingerprint(`${this.builder.id}\n${text}`);
    if (this.#descriptions.has(key)) return;
    this.#descriptions.add(key);
    if (this.#descriptions.size > MAX_DESCRIPTIONS) {
      this.#descriptions.delete(this.#descriptions.values().next().value ?? "");
    }
    this.builder.add("assistant", text, { locator, time, tool, ...flags });
  }

  /** The state to resume from after the last consumed line. */
  resumeState(): ClaudeTranscriptState {
    const state: ClaudeTranscriptState = {
      ...this.state,
      nextSeq: this.builder.nextSeq,
    };
    delete state.tools;
    delete state.files;
    delete state.commands;
    delete state.edits;
    delete state.background;
    if (this.#background.size > 0) {
      state.background = Object.fromEntries(
        [...this.#background].map((
          [task, command],
        ) => [task, typeof command === "number" ? command : command.seq]),
      );
    }
    delete state.queued;
    delete state.todos;
    delete state.descriptions;
    delete state.lines;
    delete state.summaries;
    if (this.#summaries.size > 0) {
      state.summaries = Object.fromEntries(this.#summaries);
    }
    delete state.streamed;
    if (this.#streamed.size > 0) {
      state.streamed = Object.fromEntries(
        [...this.#streamed].map(([id, keys]) => [id, [...keys]]),
      );
    }
    if (this.#lines.size > 0) {
      state.lines = [...this.#lines].slice(-MAX_LINE_KEYS);
    }
    delete state.chain;
    const runs: Array<[number, string[]]> = [];
    for (const [key, seq] of this.#chain) {
      const last = runs.at(-1);
      if (last?.[0] === seq) last[1].push(key);
      else runs.push([seq, [key]]);
    }
    if (runs.length > 0) state.chain = runs;
    if (this.#queued.length > 0) state.queued = [...this.#queued];
    if (this.#todos.size > 0) state.todos = [...this.#todos];
    if (this.#descriptions.size > 0) {
      state.descriptions = [...this.#descriptions];
    }
    const waiting = [
      ...this.#written,
      ...[...this.#commands].filter(([id]) => !this.#sideTools.has(id))
        .map(([id, r]) => [id, r.seq] as const),
    ].slice(-MAX_PENDING_TOOLS);
    if (waiting.length > 0) state.commands = Object.fromEntries(waiting);
    const edits = [...this.#edits].filter(([id]) => !this.#sideTools.has(id));
    if (edits.length > 0) {
      state.edits = Object.fromEntries(edits.slice(-MAX_PENDING_TOOLS));
    }
    const sides = {
      ...this.state.sidechains,
      ...Object.fromEntries(
        [...this.#sides].map(([id, b]) => [id, b.nextSeq]),
      ),
    };
    if (Object.keys(sides).length > 0) {
      state.sidechains = Object.fromEntries(
        Object.entries(sides).slice(-MAX_PENDING_TOOLS),
      );
    }
    if (this.#sideLines.size > 0) {
      state.sideLines = Object.fromEntries(this.#sideLines);
    }
    if (this.#tools.size > 0) {
      const pending = [...this.#tools].slice(-MAX_PENDING_TOOLS);
      state.tools = Object.fromEntries(pending);
    }
    if (this.#filesMessage !== undefined) {
      state.files = {
        message: this.#filesMessage,
        paths: [...this.#filesSeen],
      };
    }
    return state;
  }

  /**
   * A background task's notification: the exit code it reports
   * (`(exit code N)` in its summary) goes to the command that started it.
   * Returns whether the task failed.
   */
  #taskNotification(text: string): boolean {
    const task = closedTagBody(text, "task-id")?.trim();
    const summary = closedTagBody(text, "summary") ?? "";
    const code = /\(exit code (-?\d+)\)/.exec(summary)?.[1];
    if (task && code !== undefined) this.#settleBackground(task, Number(code));
    return closedTagBody(text, "status")?.trim() === "failed";
  }

  /** Sets a background command's exit code, once its task is known done. */
  #settleBackground(task: string, exitCode: number): void {
    const command = this.#background.get(task);
    if (command === undefined) return;
    this.#background.delete(task);
    if (typeof command === "number") {
      this.lateExitCodes.push({ seq: command, exitCode });
    } else command.exitCode = exitCode;
  }

  /** No Bash command awaits its exit code: a part may end here. */
  get quiet(): boolean {
    return this.#commands.size === 0;
  }
}

/**
 * Parses one Claude Code transcript (a main session or a sub-agent file),
 * from `options.offset` when resuming.
 *
 * Speech comes from `user`/`assistant` lines and from prompts the running
 * turn absorbed from the queue; tool calls become `command`, `files` and
 * `edit` records, tool results `tool-output` records (with `isError`; a
 * result saved to `<session>/tool-results/` is read from there), and Bash
 * exit codes are read from the matching result. The title is the session's
 * custom title, else Claude Code's own, else the first prompt (a slash
 * command with a request only when no other prompt comes; an answer to the
 * agent's question never); a `/branch` fork keeps only its own turns, linked
 * to its source. The turns a rewind abandoned (a prompt written with an
 * earlier line as its parent) are marked superseded, also when an earlier
 * pass read them. A torn last line is left for the next pass.
 *
 * @param path The transcript path.
 * @param options Resume point, state and sub-agent switch.
 * @returns The session (only the new records when resuming) and the resume point.
 * @example
 * ```ts
 * import { parseClaudeTranscript } from "./claude_code.ts";
 * import { equal } from "node:assert/strict";
 * const dir = await Deno.makeTempDir();
 * const path = `${dir}/s1.jsonl`;
 * await Deno.writeTextFile(path, JSON.stringify({
 *   type: "user", sessionId: "s1", cwd: "/home/a/api",
 *   timestamp: "2026-10-01T10:00:00Z", message: { role: "user", content: "fix the build" },
 * }) + "\n");
 * const source = { home: dir, env: {}, os: "linux" };
 * const { sessions } = await parseClaudeTranscript(path, { includeSubagents: true, source });
 * equal(sessions[0]?.project, "api");
 * equal(sessions[0]?.records[0]?.text, "fix the build");
 * ```
 */
export async function parseClaudeTranscript(
  path: string,
  options: ClaudeParseOptions,
): Promise<ParseResult> {
  if (!options.includeSubagents && subagentOf(path) !== undefined) {
    return { sessions: [], safeOffset: options.offset ?? 0, skipped: 0 };
  }
  const reader = new TranscriptReader(path, options);
  const walked = await eachLine(
    path,
    options,
    (text, locator) => reader.line(text, locator),
    () => reader.quiet,
  );
  const session = reader.main.build();
  return {
    // A later pass that only renamed the session, or only rewound it,
    // still carries its title or its marks.
    sessions: session.records.length > 0 || session.marks.length > 0 ||
        ((options.offset ?? 0) > 0 && session.titleGiven)
      ? [session, ...reader.sides()]
      : reader.sides(),
    safeOffset: walked.safeOffset,
    safeLine: walked.safeLine,
    state: reader.resumeState(),
    skipped: walked.skipped + reader.skipped,
    ...(reader.lateExitCodes.length
      ? {
        lateExitCodes: reader.lateExitCodes.map((c) => ({
          session: session.id,
          ...c,
        })),
      }
      : {}),
  };
}

/** `[Pasted text #2 +14 lines]` placeholders, filled from `pastedContents`. */
function expandPastes(display: string, pasted: unknown): string {
  if (!isObject(pasted) || !display.includes("[Pasted text #")) return display;
  return display.replace(
    /\[Pasted text #(\d+)[^\]]*\]/g,
    (whole, n: string) => {
      const entry = pasted[n];
      return isObject(entry) && typeof entry.content === "string"
        ? entry.content
        : whole;
    },
  );
}

/**
 * Parses `~/.claude/history.jsonl`, the prompts typed into every session,
 * into one user-record session per session id (per project and UTC day for
 * old lines without one). The index shows these only for sessions whose
 * transcript is gone. Each record's seq is its line number, so resuming
 * needs no per-session state.
 *
 * @param path The history file.
 * @param options Resume point.
 * @returns Sessions holding the prompts read (only new ones when resuming).
 * @example
 * ```ts
 * import { parseClaudeHistory } from "./claude_code.ts";
 * import { equal } from "node:assert/strict";
 * const dir = await Deno.makeTempDir();
 * const path = `${dir}/history.jsonl`;
 * await Deno.writeTextFile(path, JSON.stringify({
 *   display: "add a health check", pastedContents: {},
 *   timestamp: 1790000000000, project: "/home/a/api", sessionId: "s9",
 * }) + "\n");
 * const source = { home: dir, env: {}, os: "linux" };
 * const { sessions } = await parseClaudeHistory(path, { includeSubagents: true, source });
 * equal(sessions[0]?.id, "s9");
 * equal(sessions[0]?.title, "add a health check");
 * ```
 */
export async function parseClaudeHistory(
  path: string,
  options: ClaudeParseOptions,
): Promise<ParseResult> {
  const builders = new Map<string, SessionBuilder>();
  let skipped = 0;
  const walked = await eachLine(path, options, (text, locator) => {
    let obj: unknown;
    try {
      obj = JSON.parse(text);
    } catch {
      skipped++;
      return;
    }
    if (!isObject(obj) || typeof obj.display !== "string") {
      skipped++;
      return;
    }
    const display = obj.display.trim();
    // A bare slash command (`/clear`, `/model`) drives the tool; nobody said it.
    if (/^\/[\w:.-]+$/.test(display)) return;
    const time = parseTime(obj.timestamp);
    const cwd = str(obj.project);
    let id = str(obj.sessionId);
    if (!id) {
      const day = time === undefined
        ? "undated"
        : new Date(time).toISOString().slice(0, 10);
      id = `history:${day}:${cwd ?? ""}`;
    }
    let builder = builders.get(id);
    if (!builder) {
      builder = new SessionBuilder({ harness: HARNESS_ID, id, path, cwd });
      builders.set(id, builder);
    }
    const record = builder.add(
      "user",
      speech(expandPastes(display, obj.pastedContents)),
      {
        locator,
        time,
      },
    );
    if (record) record.seq = locator.line;
  });
  return {
    sessions: [...builders.values()].map((b) => b.build()).filter((s) =>
      s.records.length > 0
    ),
    safeOffset: walked.safeOffset,
    safeLine: walked.safeLine,
    skipped: walked.skipped + skipped,
  };
}

/** The real path of a directory, or undefined when it does not exist. */
function realDir(path: string): string | undefined {
  try {
    return Deno.realPathSync(path);
  } catch {
    return undefined;
  }
}

/**
 * The Claude config directories: `DEJA_CLAUDE_ROOT`, else
 * `CLAUDE_CONFIG_DIR`, else `~/.claude` plus, where it holds transcripts and
 * is not the same folder, `${XDG_CONFIG_HOME:-~/.config}/claude` (Claude Code
 * 1.0.30 and a few builds after it wrote there).
 */
function claudeRoots(source: SourceEnv): string[] {
  const chosen = source.env.DEJA_CLAUDE_ROOT || source.env.CLAUDE_CONFIG_DIR;
  if (chosen) return [chosen.replace(/[\\/]+$/, "") || chosen];
  const home = `${source.home}/.claude`;
  if (source.os === "windows") return [home];
  const config = (source.env.XDG_CONFIG_HOME || `${source.home}/.config`)
    .replace(/[\\/]+$/, "");
  const xdg = `${config}/claude`;
  const real = realDir(`${xdg}/projects`);
  if (real === undefined || real === realDir(`${home}/projects`)) return [home];
  return [home, xdg];
}

/** Folders of a session that hold no transcripts. */
const SIDECAR_DIRS = new Set(["tool-results"]);

const transcriptKind: FileKind = {
  id: "transcript",
  appendOnly: true,
  match: isTranscriptPath,
  parse: (path, options) => parseClaudeTranscript(path, options),
};

const historyKind: FileKind = {
  id: "history",
  appendOnly: true,
  match: isHistoryPath,
  parse: (path, options) => parseClaudeHistory(path, options),
};

/**
 * The Claude Code harness: transcripts under `<root>/projects` (sub-agents
 * included) and the prompt history in `<root>/history.jsonl`, where root is
 * `DEJA_CLAUDE_ROOT`, else `CLAUDE_CONFIG_DIR`, else `~/.claude`.
 *
 * @example
 * ```ts
 * import { claudeCode } from "./claude_code.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(claudeCode.roots({ home: "/h", env: {}, os: "linux" }), ["/h/.claude"]);
 * ```
 */
export const claudeCode: Harness = {
  id: HARNESS_ID,
  name: "Claude Code",
  format:
    "JSONL per session in projects/<encoded-cwd>/ (sub-agents under <session>/subagents/, large tool results in <session>/tool-results/), prompts in history.jsonl",
  envOverrides: ["CLAUDE_CONFIG_DIR", "DEJA_CLAUDE_ROOT", "XDG_CONFIG_HOME"],
  // 3: `!` shell turns and task notifications are command/tool-output, not user turns.
  // 4: an API error turn is kept as error tool-output (it was dropped).
  // 8: 2.1's absorbed queued prompts, workflow agents, saved tool results,
  //    ai-title, /branch forks, to-dos and WebFetch URLs.
  // 9: an agent started by an agent has that agent as its parent.
  // 10: a saved result's preview, when its file is gone, loses its cut word.
  // 11: replayed lines and repeated streamed blocks read once; hook output,
  //     skill bodies and pre-flag compaction summaries out of speech; a
  //     background command's exit code from its task, none when
  //     interrupted; another session's summary lines left out.
  // 12: turns a rewind or an edited prompt abandoned are superseded.
  // 13: a refused or failed Edit/MultiEdit's edit records are superseded.
  // 14: side chains in a main transcript (1.0.x Task agents) are sub-agent sessions.
  // 15: a session's summary line (1.x–2.0's title in `claude --resume`) titles it.
  // 16: 2.1's `isMeta` Stop hook feedback is kept as hook output (it was dropped), a prompt the harness queued itself (`queued_command` with `isMeta`) is no one's words, and @-mentioned files (`file`, `already_read_file`, `pdf_reference` attachments) are files records.
  // 17: the advisor's answer (`advisor_tool_result` in an assistant line) is tool-output (tool `advisor`; an error flagged), it was dropped.
  // 18: a step's label (a Bash, Task or Agent call's `description`) is the agent's words, once per session; a hook's feedback inside a `<system-reminder>` (`PostToolUse:Edit hook additional context: …`) is tool-output (tool `hook`, an error flagged), it was dropped; an AskUserQuestion answer no longer titles a session.
  // 19: a line after the NUL bytes a power loss leaves is read (it was skipped), `is_error: "true"` as text flags the output, and a tool result's content given as one block is read (it was dropped).
  revision: 19,
  roots: claudeRoots,
  discover(source: SourceEnv): Promise<string[]> {
    const found: string[] = [];
    for (const root of claudeRoots(source)) {
      // Sub-agents sit at any depth under `<session>/subagents/` (2.1's
      // workflow agents in `workflows/<run>/`); saved tool results are read
      // with the result that names them, not walked.
      found.push(
        ...walkFiles(`${root}/projects`, transcriptKind.match, {
          maxDepth: 8,
          skipDirs: SIDECAR_DIRS,
        }),
      );
      const history = `${root}/history.jsonl`;
      if (isRegularFileSync(history)) found.push(history);
    }
    return Promise.resolve(found);
  },
  kinds: [transcriptKind, historyKind],
  docs: {
    store:
      "`${CLAUDE_CONFIG_DIR:-~/.claude}/projects/<encoded-cwd>/<session>.jsonl`, sub-agents as `agent-<id>.jsonl` at any depth under `<session>/subagents/` (2.1 workflow agents in `subagents/workflows/<run>/`; 1.x–2.0: `agent-<id>.jsonl` beside the sessions), large tool results in `<session>/tool-results/`, prompts in `history.jsonl` (same layout on every OS; `DEJA_CLAUDE_ROOT` redirects); without either variable also `${XDG_CONFIG_HOME:-~/.config}/claude` on Linux and macOS, where 1.0.30-era builds wrote",
    extracts:
      "user/assistant speech (with the reason a person typed when refusing a tool call and their answers to AskUserQuestion), prompts typed while the agent worked and absorbed into its turn (2.1's `queued_command` attachment or the `queue-operation` `remove` that carries them, recorded once), the label the model gave a step (the `description` of a Bash, Task or Agent call, shown in place of the call: each distinct one once per session) as assistant speech right before the step's own records (a Bash call's command), tool-output (isError from `is_error`; a result saved to `tool-results/` read from that file, its two ends past 1 MiB, else the inline preview less its last, cut word, flagged truncated), Bash commands with exit codes from `Exit code N` results (a command left running in the background: the code its task notification, 2.0's BashOutput or 2.1's TaskOutput reports; an interrupted one: none), WebFetch URLs as commands, TodoWrite todos (each once) and TaskCreate tasks as assistant plan text, files for Read/Edit/Write/MultiEdit/NotebookEdit and for the files a person @-mentioned in a prompt (2.1's `file`, `already_read_file` and `pdf_reference` attachments, by their `filename`; tool `mention`), edit (path + removed text; superseded, mark `not-applied`, when the call's result is an error — the person refused it, `is_error` or `toolUseResult` \"User rejected tool use\", or it failed — since the file did not change; the refusal itself is error tool-output), summaries (`summary` lines once the message their `leafUuid` names is read in the same file, compact summaries, also 1.0.x ones without `isCompactSummary`, the compaction agent's answer), `!` shell turns (`<bash-input>` as a Bash command, `<bash-stdout>`/`<bash-stderr>` as its tool-output), what a built-in slash command printed (`<local-command-stdout>`, `/mcp`'s \"Reconnected to tidewave.\", `/login`, `/cost`; tool `slash-command`) as tool-output, background task and command notifications (<task-notification>, a failed one as an error, <bash-notification>, also when absorbed from the queue), a Stop hook's feedback (tool `hook`, also where 2.1 flags it `isMeta`), a tool or Stop hook's feedback handed on in a `<system-reminder>` (`PostToolUse:Edit hook additional context: …`, `… hook blocking error from command: …`, `… hook stopped continuation: …`; tool `hook`, isError for a blocking error or a line naming an error, e.g. `[COMPILE ERROR]`) and another agent's `<teammate-message>` as tool-output, API error turns as error tool-output (tool `model`), the advisor's answer (2.1's `advisor_tool_result` block in an assistant line: its advice, or its error code flagged isError) as tool-output (tool `advisor`), sub-agent sessions with their parent (for an agent another agent started, that agent: `parentAgentId` in its `agent-<id>.meta.json`; search follows a sub-agent's hit with the session at the chain's top), the side chains 1.0.x wrote into the session's own file (`isSidechain` lines: a Task agent's conversation) as sub-agent sessions of it, one per chain — its `agentId`, else the chain its `parentUuid` continues, else a new one named by the uuid of its first line — so the prompt the agent got is that session's user turn, not the person's, a `/branch` fork (`forkedFrom`) as a fork of its source, rewind marks: the turns a rewind (Esc Esc, `/rewind`, an earlier prompt edited and sent again) abandoned are superseded — a `user` line whose `parentUuid` names a line before the last one read supersedes every record read since that line (null: since the start), also records an earlier pass indexed; tool results (which name their own call's line), compaction summaries, side-chain lines and sub-agent files open no branch, and a parent outside the file (a resumed session) or beyond the last 2,048 lines marks nothing, the title from `custom-title`, else `ai-title`, else the latest of its `summary` lines (1.x–2.0's title in `claude --resume`), else the first prompt (never an answer to AskUserQuestion), else the first slash command with a request as typed (`/review the auth module`), history prompts of sessions whose transcript is gone",
    omits:
      "thinking and image blocks, a redacted advisor answer and the advisor call itself (`server_tool_use`, no input), `isMeta` and `isSynthetic` lines (but a hook's feedback), a skill's injected body (`Base directory for this skill:`, or text naming the tool call that injected it, `sourceToolUseID`), `<local-command-stderr>` and `<user-prompt-submit-hook>` blocks inside a prompt, a line written again with a uuid already read (an IDE reopening the session, a stream-json client) and a block a later line of the same message repeats, a `summary` line naming another session's message (1.x–2.0 wrote those into whichever session was open), slash-command and caveat lines (a built-in setting command such as `/model opus` whole; a command with a request, `/review the auth module`, stays as the user's words and titles the session only when no other prompt does), `<system-reminder>` blocks (todo nags, file-modified notices, a UserPromptSubmit or SessionStart hook's added context; but a tool or Stop hook's feedback)/IDE blocks, synthetic assistant lines, the turns a fork copied from its source (its source holds them), queued prompts that never reached the agent (still queued, or taken back with `popAll`), queued `!` commands and prompts the harness queued itself (a `queued_command` flagged `isMeta`), other tools' inputs (a Task's or Agent's prompt is its sub-agent session's first turn; a WebSearch query is in its result's first line), progress/snapshot/system lines and 2.1's pr-link, mode, permission-mode, agent-name, agent-setting, last-prompt, file-history-delta, other attachment lines and a workflow run's `journal.jsonl` (harness bookkeeping, not conversation)",
    verified:
      "real samples from Claude Code 2.0.14 to 2.1.68 (Linux, Windows, devcontainer), fixtures/home/.claude, fixtures/claude-2.1 (synthetic 2.1.29x shapes from public parsers' tests and format notes: queued prompts, workflow agents, saved tool results, titles, forks), fixtures/claude-rewind (a synthetic 2.1.7x session with an edited prompt, a `/rewind` after a compaction, parallel tool calls and a side chain; shapes from the real samples' parallel-call and compaction lines and public notes on rewinds) and fixtures/claude-1.0 (a synthetic session resumed from 1.0.43 to 2.1.30: replayed lines, streamed snapshots, hook output, an unflagged compaction summary, background commands; shapes from public issues and parsers' tests)",
  },
};
