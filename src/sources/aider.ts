/**
 * aider: one append-only markdown chat log per project,
 * `.aider.chat.history.md`, holding many sessions (each opened by
 * `# aider chat started at <local time>`), with `.aider.input.history` beside
 * it recording when each prompt was typed and, when the person turned it on
 * (`--llm-history-file .aider.llm.history`), the log of what aider sent the
 * model, the only place a shell command's output is kept.
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
import { sha256Hex } from "../core/hash.ts";
import { MAX_LINE_BYTES, readLines } from "../core/lines.ts";
import { cleanSpeech, findBlocks, withoutBlocks } from "../core/text.ts";
import type { Locator, SessionRecord } from "../core/types.ts";
import { SessionBuilder } from "./_builder.ts";
import { baseName, dirOf, isRegularFileSync } from "./_paths.ts";
import { projectDirs } from "./_project_dirs.ts";
import { pathList } from "./_roots.ts";

const HARNESS_ID = "aider";
const HISTORY_NAME = ".aider.chat.history.md";
const INPUT_NAME = ".aider.input.history";
/** The name aider's docs give the `--llm-history-file` log (off by default). */
const LLM_HISTORY_NAME = ".aider.llm.history";

/** The input history is read only up to this size (it is optional). */
const MAX_INPUT_HISTORY_BYTES = 64 * 1024 * 1024;
/**
 * Only the end of the LLM log is read: every request repeats the whole
 * context (files, repo map, chat), so the log grows fast, and a command's
 * output is in the first request after it ran.
 */
const MAX_LLM_HISTORY_BYTES = 32 * 1024 * 1024;
/** Command outputs kept from one LLM log. */
const MAX_RUN_OUTPUTS = 2000;
/** Lines of one `{` … `}` prompt typed a line at a time that are matched. */
const MAX_BRACED_LINES = 500;

/** Directories never worth descending into under a configured root. */
const SKIP_DIRS: ReadonlySet<string> = new Set([
  ".git",
  "node_modules",
  "vendor",
  "target",
  "venv",
  ".venv",
  "__pycache__",
  "site-packages",
]);

const HEADER = /^# aider chat started at\b\s*(.*?)\s*$/;
/**
 * A status line reporting a failure: an exception's name (`litellm.
 * APIConnectionError: …`), or an error, failure or refusal said in words.
 */
const ERROR_LINE =
  /\w(?:Error|Exception)\b|^(?:error|fatal)\b|\b(?:failed|refused|denied|unable to|can't|cannot)\b/i;
/** The status line echoing how aider was started (`/path/to/aider --model …`). */
const LAUNCH_LINE = /^(?:\S*[\\/])?aider(?:\.exe)?(?:\s|$)/;
/** The tool of the command record a launch line becomes. */
const LAUNCH_TOOL = "aider";
/**
 * A status line worth finding that is no error: the models aider runs with
 * (`Main model: vertex_ai/claude-sonnet-4@…`, `Model: ollama/…`) and a
 * warning (`Warning: … expects these environment variables`).
 */
const NOTICE_LINE = /^(?:(?:main |weak |editor )?model:|warning\b)/i;
/** The tool of the tool-output aider's errors and notices become. */
const STATUS_TOOL = "aider";
/** A line listing under a warning (`- OLLAMA_API_BASE: Not set`). */
const NOTICE_ITEM = /^- \S/;
/** Distinct error lines kept from one block of status lines. */
const MAX_ERROR_LINES = 20;
/**
 * What `/run`, `/test` and `!` log when the output went to the model: for
 * `/test` (and the auto-test after an edit) only when the exit code is not
 * 0, for `/run` when the person said yes (aider's `cmd_run`).
 */
const ADDED_OUTPUT = /^Added \d+ lines? of output to the chat\.?$/;
/** A commit aider made: `Commit <short hash> <message>` (aider/repo.py). */
const COMMIT_LINE = /^Commit ([0-9a-f]{7,40}) \S/;
/** The tool of the tool-output a commit message becomes. */
const COMMIT_TOOL = "commit";
/** aider commits the person's own changes to a file before editing it. */
const DIRTY_COMMIT = /^Committing .+ before applying edits\.?$/;
/** `/undo` reports the commit it removed and where HEAD is now. */
const UNDO_REMOVED = /^Removed: ([0-9a-f]{6,40})\b/;
const UNDO_NOW_AT = /^Now at:\s+[0-9a-f]{6,40}\b/;
/**
 * A shell command the model suggested, which the person let aider run
 * (`Run shell command? … y`, then `Running <command>`: `handle_shell_commands`).
 */
const SHELL_ASK = /^Run shell commands?\?/;
const SHELL_RUNNING = /^Running (\S.*)$/;
/** git's own failure prefixes, and aider's when it could not run `/git`. */
const GIT_ERROR = /^(?:error|fatal):|^Error running \/git command\b/;
/**
 * The text aider pre-fills the next prompt with after a `/run` whose output
 * was added and whose exit code was not 0 (`cmd_run`'s placeholder).
 */
const FAILED_RUN_PLACEHOLDER = "What's wrong? Fix";
/** The line opening a `{` (or `{tag`) multi-line prompt. */
const BRACE_OPEN = /^\{([\p{L}\p{N}]*)$/u;
const USER_PREFIX = /^####(?: |$)/;
const TOOL_PREFIX = /^>(?: |$)/;
/** A yes/no prompt aider echoes as if typed (`... (Y)es/(N)o [Yes]: all`). */
const CONFIRM_ECHO = /\(Y\)es\/\(N\)o[^\n]*\]:\s*\S*\s*$/;
/** Reasoning blocks aider writes into the reply. */
const REASONING: ReadonlyArray<readonly [RegExp, RegExp]> = [
  [/<thinking-content-[0-9a-f]+>/g, /<\/thinking-content-[0-9a-f]+>/g],
  [/<think>/g, /<\/think>/g],
  [/<reasoning>/g, /<\/reasoning>/g],
  // Tried only where a run of dashes starts: tried inside one too, a long
  // run was read again from each of its dashes.
  [
    /(?<!-)-{3,}\s*\n►\s*\*\*THINKING\*\*/g,
    /(?<!-)-{3,}\s*\n►\s*\*\*ANSWER\*\*/g,
  ],
];
/** The watch-files prompt aider writes around a person's `AI!`/`AI?` comments. */
const AI_COMMENT_PREAMBLE = [
  /^Find the "AI" comments below \(marked with █\)[^\n]*$/m,
  /^They contain my questions that I need you to answer and other instructions for you\.?$/m,
  /^The "AI" comments below[^\n]*$/m,
];

/** A quoted multi-line message longer than this is taken to have ended. */
const MAX_TOOL_MESSAGE_LINES = 5000;

/** Slash commands that run a shell command: their argument is the command. */
const SHELL_COMMANDS = new Set(["/run", "/test"]);
/** Slash commands whose argument is something the person said. */
const SPEECH_COMMANDS = new Set(["/ask", "/code", "/architect", "/context"]);

/** A prompt typed into aider, from `.aider.input.history`. */
interface InputEntry {
  time: number;
  text: string;
  /** The text inside a `{` … `}` entry (a multi-line prompt sent whole). */
  inner?: string;
  used: boolean;
}

/**
 * A shell command's output aider sent the model (`I ran this command:` …
 * `And got this output:` …), from the LLM log: when it was first sent.
 */
interface RunOutput {
  time: number;
  command: string;
  output: string;
  used: boolean;
}

/** The shell command of this turn, waiting for what aider says of its output. */
interface PendingRun {
  tool: string;
  text: string;
  time: number | undefined;
  locator: Locator;
  /** The command record (none yet for a bare `/test`). */
  record: SessionRecord | undefined;
  /** A command the model suggested (aider sets no placeholder after it). */
  suggested: boolean;
}

/** The records a reply's applied edits made, and the commit that holds them. */
interface AppliedRange {
  from: number;
  to: number;
  commit?: string;
}

/** A SEARCH/REPLACE (or unified diff) hunk proposed in a reply. */
interface ProposedEdit {
  path: string;
  removed: string;
}

/** Options for {@linkcode parseAiderHistory}. */
export interface AiderParseOptions extends ParseOptions {
  /** Lines longer than this many bytes are skipped. Default 8 MiB. */
  maxLineBytes?: number;
  /** Path of the input history; default `.aider.input.history` beside the log. */
  inputHistory?: string;
  /** Path of the LLM log; default `.aider.llm.history` beside the log. */
  llmHistory?: string;
}

/** Aider writes local wall-clock times without a zone. */
function parseLocal(text: string): number | undefined {
  const m =
    /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?$/
      .exec(text.trim());
  if (!m) return undefined;
  const ms = m[7] ? Math.floor(Number(`0.${m[7]}`) * 1000) : 0;
  const t = new Date(
    Number(m[1]),
    Number(m[2]) - 1,
    Number(m[3]),
    Number(m[4]),
    Number(m[5]),
    Number(m[6]),
    ms,
  ).getTime();
  return Number.isFinite(t) ? t : undefined;
}

function normalizePrompt(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** Reads `.aider.input.history`: `# <time>` then `+`-prefixed lines. */
async function readInputHistory(path: string): Promise<InputEntry[]> {
  const entries: InputEntry[] = [];
  try {
    const info = await Deno.stat(path);
    if (!info.isFile || info.size > MAX_INPUT_HISTORY_BYTES) return entries;
  } catch {
    return entries;
  }
  let current: { time: number; lines: string[] } | undefined;
  const flush = () => {
    if (current && current.lines.length > 0) {
      const entry: InputEntry = {
        time: current.time,
        text: normalizePrompt(current.lines.join("\n")),
        used: false,
      };
      const inner = bracedInner(current.lines);
      if (inner !== undefined) entry.inner = inner;
      entries.push(entry);
    }
    current = undefined;
  };
  try {
    for await (const line of readLines(path)) {
      const head = /^# (\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(?:\.\d+)?)\s*$/
        .exec(line.text);
      if (head) {
        flush();
        const time = parseLocal(head[1] as string);
        if (time !== undefined) current = { time, lines: [] };
      } else if (current && line.text.startsWith("+")) {
        current.lines.push(line.text.slice(1));
      }
    }
  } catch {
    return entries;
  }
  flush();
  return entries;
}

/**
 * The prompt inside an entry that is a whole `{` … `}` (or `{tag` … `tag}`)
 * block, the way a multi-line prompt pasted or typed with Alt-Enter is kept.
 */
function bracedInner(lines: readonly string[]): string | undefined {
  if (lines.length < 2) return undefined;
  const tag = BRACE_OPEN.exec((lines[0] as string).trim())?.[1];
  if (tag === undefined || (lines.at(-1) as string).trim() !== `${tag}}`) {
    return undefined;
  }
  return normalizePrompt(lines.slice(1, -1).join("\n"));
}

/**
 * Reads the shell command outputs in the end of aider's LLM log: requests
 * (`TO LLM <time>`) whose messages are `-------` then `ROLE text` lines.
 * Every request repeats the chat so far, so an output counts once, when a
 * request first holds it (as many times as it holds it: two runs with the
 * same output). aider follows the output it adds to the chat with an
 * `Ok.` from the assistant; the copy `/test` sends as the next prompt has
 * none and is not counted again.
 */
async function readRunOutputs(path: string): Promise<RunOutput[]> {
  let text: string;
  try {
    const info = await Deno.stat(path);
    if (!info.isFile || info.size === 0) return [];
    using file = await Deno.open(path, { read: true });
    const from = Math.max(0, info.size - MAX_LLM_HISTORY_BYTES);
    await file.seek(from, Deno.SeekMode.Start);
    const buf = new Uint8Array(info.size - from);
    let read = 0;
    while (read < buf.length) {
      const n = await file.read(buf.subarray(read));
      if (n === null) break;
      read += n;
    }
    text = new TextDecoder().decode(buf.subarray(0, read));
  } catch {
    return [];
  }
  if (text.includes("\r\n")) text = text.replaceAll("\r\n", "\n");
  return runOutputsIn(text);
}

/** Offsets of the lines of `text` that start with `prefix`. */
function lineStarts(text: string, prefix: string): number[] {
  const out: number[] = text.startsWith(prefix) ? [0] : [];
  const needle = `\n${prefix}`;
  for (
    let at = text.indexOf(needle);
    at >= 0;
    at = text.indexOf(needle, at + 1)
  ) {
    out.push(at + 1);
  }
  return out;
}

/** The end of the line starting at `at` (its newline, or the text's end). */
function lineEnd(text: string, at: number): number {
  const nl = text.indexOf("\n", at);
  return nl < 0 ? text.length : nl;
}

function runOutputsIn(text: string): RunOutput[] {
  // Where each request (a time) or response (no time) starts.
  const heads = [
    ...lineStarts(text, "TO LLM ").map((at) => {
      const stamp = text.slice(at + 7, lineEnd(text, at)).trim();
      return { at, time: parseLocal(stamp) };
    }),
    ...lineStarts(text, "LLM RESPONSE ").map((at) => ({
      at,
      time: undefined,
    })),
  ].sort((a, b) => a.at - b.at);
  const out: RunOutput[] = [];
  const held = new Map<string, number>();
  let head = -1;
  // Per output in the current request: how often it is followed by `Ok.`.
  let inRequest = new Map<string, { run: RunOutput; paired: number }>();
  const closeRequest = (time: number | undefined) => {
    for (const [key, { run, paired }] of inRequest) {
      const n = Math.max(paired, 1);
      const before = held.get(key) ?? 0;
      for (let i = before; i < n && out.length < MAX_RUN_OUTPUTS; i++) {
        out.push({ ...run, time: time as number });
      }
      if (n > before) held.set(key, n);
    }
    inRequest = new Map();
  };
  for (const at of lineStarts(text, "USER I ran this command:")) {
    // The request holding it: a new one closes the previous request's count.
    let next = head;
    while (next + 1 < heads.length && (heads[next + 1]?.at as number) < at) {
      next++;
    }
    if (next !== head) {
      closeRequest(heads[head]?.time);
      head = next;
    }
    const time = heads[head]?.time;
    if (time === undefined || !text.startsWith("-------\n", at - 8)) continue;
    // The message: its `USER` lines.
    const lines: string[] = [];
    let p = at;
    while (p < text.length) {
      const end = lineEnd(text, p);
      const line = text.slice(p, end);
      if (line !== "USER" && !line.startsWith("USER ")) break;
      lines.push(line.slice(5));
      p = end + 1;
    }
    const run = runMessage(lines);
    if (!run) continue;
    const key = `${run.command}\n\u0000${run.output}`;
    const paired = text.startsWith("-------\nASSISTANT Ok.\n", p) &&
      !text.startsWith("ASSISTANT", p + 22);
    const seen = inRequest.get(key);
    if (!seen) inRequest.set(key, { run, paired: paired ? 1 : 0 });
    else if (paired) seen.paired++;
    if (out.length >= MAX_RUN_OUTPUTS) break;
  }
  closeRequest(heads[head]?.time);
  return out;
}

/** The command and output of an `I ran this command:` message's lines. */
function runMessage(lines: readonly string[]): RunOutput | undefined {
  const split = lines.findIndex((l, i) =>
    i > 0 && /^(?:And got|Which produced) this output:$/.test(l)
  );
  if (split < 0) return undefined;
  const command = lines.slice(1, split).join("\n").trim();
  if (command.length === 0) return undefined;
  const output = lines.slice(split + 1).join("\n").trim();
  return { time: 0, command, output, used: false };
}

/** Strips aider's reasoning blocks and the markdown noise around a reply. */
function replyText(text: string): string {
  let out = text;
  // Each kind in turn, one pass each (an open with no close is not read
  // on to the end again at each later open).
  for (const [open, close] of REASONING) {
    out = withoutBlocks(out, findBlocks(out, open, close));
  }
  return cleanSpeech(out);
}

/** A reply's words with reasoning blocks and whitespace runs left out. */
function handoffKey(text: string): string {
  let out = text;
  for (const [open, close] of REASONING) {
    out = withoutBlocks(out, findBlocks(out, open, close));
  }
  return out.replace(/\s+/g, " ").trim();
}

function userSpeech(text: string): string {
  let out = text;
  if (out.includes('"AI" comments')) {
    for (const re of AI_COMMENT_PREAMBLE) out = out.replace(re, "");
  }
  return cleanSpeech(out);
}

function normPath(path: string): string {
  return path.trim().replace(/\\/g, "/").replace(/^\.\//, "");
}

/** A line that can name the file of a SEARCH block: not a fence, not blank. */
function pathCandidate(line: string): string | undefined {
  const t = line.trim();
  if (t.length === 0 || /^(`{3,}|~{3,})/.test(t)) return undefined;
  const cleaned = t.replace(/^[*`#\s]+|[*`:\s]+$/g, "");
  return cleaned.length > 0 && cleaned.length < 400 ? cleaned : undefined;
}

/**
 * The edits a reply proposes: SEARCH/REPLACE blocks (the file named on the
 * line before the block or before its fence) and unified-diff hunks.
 */
function proposedEdits(lines: readonly string[]): ProposedEdit[] {
  const edits: ProposedEdit[] = [];
  let diffPath: string | undefined;
  let diffRemoved: string[] = [];
  const flushDiff = () => {
    if (diffPath && diffRemoved.length > 0) {
      edits.push({ path: diffPath, removed: diffRemoved.join("\n") });
    }
    diffRemoved = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (/^<{5,9} SEARCH\s*$/.test(line)) {
      flushDiff();
      let path: string | undefined;
      for (let j = i - 1; j >= 0 && j >= i - 3; j--) {
        const prev = lines[j] as string;
        if (prev.trim().length === 0) continue;
        path = pathCandidate(prev);
        if (path) break;
      }
      const removed: string[] = [];
      let k = i + 1;
      while (k < lines.length && !/^={5,9}\s*$/.test(lines[k] as string)) {
        removed.push(lines[k] as string);
        k++;
      }
      if (path && k < lines.length) {
        edits.push({ path: normPath(path), removed: removed.join("\n") });
      }
      i = k;
      continue;
    }
    const minus = /^--- (?:a\/)?(\S.*)$/.exec(line);
    const plus = /^\+\+\+ (?:b\/)?(\S.*)$/.exec(line);
    if (minus && lines[i + 1]?.startsWith("+++ ")) {
      flushDiff();
      diffPath = normPath(minus[1] as string);
    } else if (plus) {
      if (diffPath === undefined || diffPath === "/dev/null") {
        diffPath = normPath(plus[1] as string);
      }
    } else if (diffPath && line.startsWith("-") && !line.startsWith("---")) {
      diffRemoved.push(line.slice(1));
    } else if (/^(`{3,}|~{3,})\s*$/.test(line)) {
      flushDiff();
      diffPath = undefined;
    }
  }
  flushDiff();
  return edits;
}

/** A piece of the log between markers. */
type BlockKind = "user" | "tool" | "reply";

interface Block {
  kind: BlockKind;
  lines: string[];
  locator: Locator;
}

/** Builds the sessions of one chat log as its blocks arrive. */
class HistoryReader {
  readonly sessions: SessionBuilder[] = [];
  #path: string;
  #cwd: string;
  #idBase: string;
  #inputs: InputEntry[];
  #runs: RunOutput[];
  #builder: SessionBuilder | undefined;
  #sessionStart: number | undefined;
  #nextSessionStart: number | undefined;
  #lastTime: number | undefined;
  /** Edits the last reply proposed, waiting for `Applied edit to`. */
  #proposed: ProposedEdit[] = [];
  /** Seq of the latest reply record (the one a commit belongs to). */
  #replySeq: number | undefined;
  /** Reply ranges whose edits aider applied, newest last. */
  #applied: AppliedRange[] = [];
  #undoPending = false;
  /** The `/run`, `/test` or `!` of this turn, until aider says of its output. */
  #pending: PendingRun | undefined;
  /** `/git` was typed: aider's next `> ` lines are what git printed. */
  #gitPending = false;
  /** A `/run` output added to the chat: the next prompt may say it failed. */
  #runOutput: SessionRecord | undefined;
  /** The line that started this session's aider (it names `--test-cmd`). */
  #launch: string | undefined;
  /** Seqs of commits of the person's own changes (an undo leaves them). */
  #dirtySeqs: number[] = [];
  /**
   * The latest reply's words (see {@linkcode handoffKey}), until the next
   * prompt: architect mode sends the reply to its editor model as a prompt,
   * and aider logs that prompt as if the person had typed it.
   */
  #lastReply: string | undefined;

  constructor(
    path: string,
    inputs: InputEntry[],
    runs: RunOutput[],
    home: string,
  ) {
    this.#path = path;
    this.#cwd = dirOf(path);
    // Named by the log's place under HOME, so ids survive a moved HOME.
    const sep = path[home.length];
    const under = home && path.startsWith(home) && (sep === "/" || sep === "\\")
      ? `~${path.slice(home.length).replaceAll("\\", "/")}`
      : path;
    this.#idBase = sha256Hex(under).slice(0, 12);
    this.#inputs = inputs;
    this.#runs = runs;
  }

  start(time: number | undefined, nextStart: number | undefined): void {
    const ordinal = this.sessions.length + 1;
    const builder = new SessionBuilder({
      harness: HARNESS_ID,
      id: `${this.#idBase}-${ordinal}`,
      path: this.#path,
      cwd: this.#cwd,
      project: baseName(this.#cwd),
    });
    builder.touch(time);
    this.sessions.push(builder);
    this.#builder = builder;
    this.#sessionStart = time;
    this.#nextSessionStart = nextStart;
    this.#lastTime = time;
    this.#proposed = [];
    this.#replySeq = undefined;
    this.#applied = [];
    this.#undoPending = false;
    this.#pending = undefined;
    this.#gitPending = false;
    this.#runOutput = undefined;
    this.#launch = undefined;
    this.#dirtySeqs = [];
    this.#lastReply = undefined;
  }

  #session(): SessionBuilder {
    if (!this.#builder) this.start(undefined, undefined);
    return this.#builder as SessionBuilder;
  }

  /** Whether an input-history entry was typed in this session. */
  #inSession(entry: InputEntry): boolean {
    const from = this.#sessionStart ?? -Infinity;
    const to = this.#nextSessionStart ?? Infinity;
    return entry.time >= from - 1000 && entry.time < to;
  }

  /** Whether an input-history entry is unused and within this session. */
  #open(entry: InputEntry): boolean {
    return !entry.used && this.#inSession(entry);
  }

  /** The time a prompt was typed, from the input history, within this session. */
  #promptTime(text: string): number | undefined {
    const want = normalizePrompt(text);
    if (want.length === 0) return undefined;
    for (const entry of this.#inputs) {
      if (!this.#open(entry)) continue;
      if (entry.text === want || entry.inner === want) {
        entry.used = true;
        return entry.time;
      }
    }
    return this.#bracedPromptTime(want);
  }

  /**
   * A `{` … `}` prompt typed a line at a time: the input history keeps each
   * line (the braces too) as an entry of its own, the log only the lines
   * between the braces. Its time is the closing brace's, when it was sent.
   */
  #bracedPromptTime(want: string): number | undefined {
    const inputs = this.#inputs;
    for (let i = 0; i < inputs.length; i++) {
      const open = inputs[i] as InputEntry;
      if (!this.#open(open)) continue;
      const tag = BRACE_OPEN.exec(open.text)?.[1];
      if (tag === undefined) continue;
      const lines: string[] = [];
      const last = Math.min(inputs.length - 1, i + MAX_BRACED_LINES);
      for (let j = i + 1; j <= last; j++) {
        const entry = inputs[j] as InputEntry;
        if (!this.#open(entry)) break;
        if (entry.text !== `${tag}}`) {
          lines.push(entry.text);
          continue;
        }
        if (normalizePrompt(lines.join(" ")) !== want) break;
        for (let k = i; k <= j; k++) (inputs[k] as InputEntry).used = true;
        return entry.time;
      }
    }
    return undefined;
  }

  /**
   * The first unused command output in the LLM log sent in this session no
   * earlier than `after`: of `command`, or, when that is unknown (the test
   * command aider runs by itself), of a command the person did not type in
   * this session and that the launch line's `--test-cmd`, if any, names.
   */
  #runOutputFor(
    command: string | undefined,
    after: number | undefined,
  ): RunOutput | undefined {
    const want = command === undefined ? undefined : normalizePrompt(command);
    // The log's times are whole seconds.
    const from = Math.max(after ?? -Infinity, this.#sessionStart ?? -Infinity) -
      1000;
    const to = this.#nextSessionStart ?? Infinity;
    const typed = want === undefined ? this.#typedCommands() : undefined;
    const launch = this.#launch?.includes("--test-cmd")
      ? normalizePrompt(this.#launch)
      : undefined;
    for (const run of this.#runs) {
      if (run.used || run.time < from || run.time >= to) continue;
      const ran = normalizePrompt(run.command);
      if (want !== undefined ? ran !== want : typed?.has(ran)) continue;
      if (want === undefined && launch !== undefined && !launch.includes(ran)) {
        continue;
      }
      run.used = true;
      return run;
    }
    return undefined;
  }

  /** The shell commands typed in this session (`/run`, `/test`, `!`). */
  #typedCommands(): Set<string> {
    const out = new Set<string>();
    for (const entry of this.#inputs) {
      if (this.#inSession(entry)) {
        const m = /^(?:\/(?:run|test)\s+|!)(.+)$/.exec(entry.text);
        if (m) out.add(normalizePrompt(m[1] as string));
      }
    }
    return out;
  }

  block(block: Block): void {
    if (block.kind === "user") this.#user(block);
    else if (block.kind === "tool") this.#tool(block);
    else this.#reply(block);
  }

  #user(block: Block): void {
    const builder = this.#session();
    const raw = block.lines
      .map((l) => (l === "<blank>" ? "" : l))
      .join("\n")
      .trim();
    if (raw.length === 0) return;
    if (!raw.includes("\n") && CONFIRM_ECHO.test(raw)) return;
    const reply = this.#lastReply;
    this.#lastReply = undefined;
    // The architect's reply handed to the editor model: aider's words,
    // already kept as the reply, not a prompt (and not in the input history).
    if (reply && handoffKey(raw) === reply) return;
    const typed = this.#promptTime(raw);
    if (typed !== undefined) this.#lastTime = typed;
    const time = this.#lastTime;
    this.#proposed = [];
    this.#replySeq = undefined;
    this.#pending = undefined;
    this.#gitPending = false;
    // aider pre-fills the prompt after a failed `/run` whose output the
    // person added; sending it as it stands says the command failed.
    const ran = this.#runOutput;
    this.#runOutput = undefined;
    if (ran && raw.startsWith(FAILED_RUN_PLACEHOLDER)) {
      ran.flags = { ...ran.flags, isError: true };
    }
    if (raw.startsWith("!")) {
      this.#command("/run", raw.slice(1).trim(), block.locator, time);
      return;
    }
    if (raw.startsWith("/")) {
      const m = /^(\/[\w-]+)\s*([\s\S]*)$/.exec(raw);
      const name = m?.[1] ?? raw;
      const rest = (m?.[2] ?? "").trim();
      if (SHELL_COMMANDS.has(name)) {
        this.#command(name, rest, block.locator, time);
      } else if (name === "/git") {
        builder.add("command", `git ${rest}`.trim(), {
          locator: block.locator,
          time,
          tool: name,
        });
        this.#gitPending = true;
      } else if (SPEECH_COMMANDS.has(name)) {
        builder.add("user", userSpeech(rest), { locator: block.locator, time });
      } else if (name === "/undo") {
        this.#undoPending = true;
      }
      return;
    }
    builder.add("user", userSpeech(raw), { locator: block.locator, time });
  }

  /**
   * A shell command of this turn: typed (`/run`, `/test`, `!`), or suggested
   * by the model and run.
   */
  #command(
    tool: string,
    text: string,
    locator: Locator,
    time: number | undefined,
    suggested = false,
  ): void {
    // A bare `/test` runs the configured test command, named only in the
    // LLM log: its record waits for that.
    const record = this.#session().add("command", text, {
      locator,
      time,
      tool,
    });
    this.#pending = { tool, text, time, locator, record, suggested };
  }

  /**
   * `Added N lines of output to the chat`: the output of this turn's shell
   * command went to the model. For `/test`, and for the auto-test aider runs
   * after applying an edit (no command waiting), that means it failed.
   * The output itself is in the LLM log when that is kept, else the record
   * holds aider's line.
   */
  #outputAdded(line: string, locator: Locator, time: number | undefined): void {
    const builder = this.#session();
    const pending = this.#pending;
    this.#pending = undefined;
    const tool = pending?.tool ?? "/test";
    const failed = tool === "/test";
    const named = pending?.text ? pending.text : undefined;
    const run = this.#runOutputFor(named, pending?.time ?? time);
    if (!pending?.record && run) {
      builder.add("command", run.command, {
        locator: pending?.locator ?? locator,
        time: pending?.time ?? time,
        tool,
      });
    }
    const record = builder.add("tool-output", run?.output || line, {
      locator,
      time,
      tool,
      ...(failed ? { flags: { isError: true } } : {}),
    });
    if (!failed && !pending?.suggested) this.#runOutput = record;
  }

  /** Supersedes what an undone reply did, but not a commit of the person's. */
  #markUndone(range: AppliedRange): void {
    const builder = this.#session();
    let from = range.from;
    for (const seq of this.#dirtySeqs) {
      if (seq < from || seq >= range.to) continue;
      builder.mark("undo", from, seq);
      from = seq + 1;
    }
    builder.mark("undo", from, range.to);
  }

  /** What `/git` printed (aider writes it to the log), as its output. */
  #gitOutput(block: Block): void {
    const failed = block.lines.some((l) => GIT_ERROR.test(l));
    this.#session().add("tool-output", block.lines.join("\n"), {
      locator: block.locator,
      time: this.#lastTime,
      tool: "/git",
      ...(failed ? { flags: { isError: true } } : {}),
    });
  }

  #reply(block: Block): void {
    const builder = this.#session();
    const record = builder.add("assistant", replyText(block.lines.join("\n")), {
      locator: block.locator,
      time: this.#lastTime,
    });
    if (record) {
      this.#replySeq = record.seq;
      this.#proposed = [];
    }
    const key = handoffKey(block.lines.join("\n"));
    this.#lastReply = key.length > 0 ? key : undefined;
    this.#proposed.push(...proposedEdits(block.lines));
  }

  #tool(block: Block): void {
    const builder = this.#session();
    const time = this.#lastTime;
    if (this.#gitPending) {
      this.#gitPending = false;
      this.#gitOutput(block);
      return;
    }
    // What went wrong on aider's side (the model's API refusing, a file it
    // could not write) is kept; its retries repeat a line many times.
    const errors = new Set<string>();
    const notices: string[] = [];
    let inWarning = false;
    let shellAsked = false;
    let dirty = false;
    for (const line of block.lines) {
      const afterDirty = dirty;
      dirty = DIRTY_COMMIT.test(line);
      if (SHELL_ASK.test(line)) shellAsked = true;
      const running = shellAsked ? SHELL_RUNNING.exec(line) : null;
      if (running) {
        // Its output is added (or not) below, as for `/run`.
        this.#command("/run", running[1] as string, block.locator, time, true);
        continue;
      }
      if (LAUNCH_LINE.test(line)) {
        this.#launch ??= line;
        // How aider was started: its model and flags, as the person ran it.
        builder.add("command", line, {
          locator: block.locator,
          time,
          tool: LAUNCH_TOOL,
        });
        continue;
      }
      if (ADDED_OUTPUT.test(line)) {
        this.#outputAdded(line, block.locator, time);
        continue;
      }
      const commit = COMMIT_LINE.exec(line);
      if (commit) {
        // The commit message: what the edit did, in a line.
        const record = builder.add("tool-output", line, {
          locator: block.locator,
          time,
          tool: COMMIT_TOOL,
        });
        if (record && afterDirty) this.#dirtySeqs.push(record.seq);
        // Committing the reply's edits: an undo of it supersedes it too.
        const last = this.#applied.at(-1);
        if (record && last && last.to === record.seq && !last.commit) {
          last.to = builder.nextSeq;
          last.commit = commit[1] as string;
        }
        continue;
      }
      const removed = UNDO_REMOVED.exec(line);
      if (removed || UNDO_NOW_AT.test(line)) {
        if (removed && this.#undoPending) {
          this.#undoPending = false;
          const hash = removed[1] as string;
          const at = this.#applied.findLastIndex((r) =>
            r.commit !== undefined &&
            (r.commit.startsWith(hash) || hash.startsWith(r.commit))
          );
          const [range] = this.#applied.splice(
            at >= 0 ? at : this.#applied.length - 1,
            1,
          );
          if (range) this.#markUndone(range);
        }
        continue;
      }
      if (ERROR_LINE.test(line) && errors.size < MAX_ERROR_LINES) {
        errors.add(line);
      } else if (
        NOTICE_LINE.test(line) || (inWarning && NOTICE_ITEM.test(line))
      ) {
        if (notices.length < MAX_ERROR_LINES) notices.push(line);
        inWarning ||= /^warning\b/i.test(line);
        continue;
      }
      inWarning = false;
      const applied = /^Applied edit to (.+?)\s*$/.exec(line);
      if (applied) {
        const path = applied[1] as string;
        const before = builder.nextSeq;
        builder.add("files", path, {
          locator: block.locator,
          time,
          tool: "edit",
        });
        const want = normPath(path);
        for (const edit of this.#proposed) {
          if (edit.path !== want && !want.endsWith(`/${edit.path}`)) continue;
          builder.addEdit(path, edit.removed, {
            locator: block.locator,
            time,
            tool: "edit",
          });
        }
        this.#proposed = this.#proposed.filter((e) =>
          e.path !== want && !want.endsWith(`/${e.path}`)
        );
        const from = this.#replySeq ?? before;
        const last = this.#applied.at(-1);
        if (last && last.from === from && !last.commit) {
          last.to = builder.nextSeq;
        } else this.#applied.push({ from, to: builder.nextSeq });
        continue;
      }
      const added = /^Added (.+?) to the chat(?: \(read-only\))?\.?\s*$/.exec(
        line,
      );
      if (added) {
        builder.add("files", added[1] as string, {
          locator: block.locator,
          time,
          tool: "add",
        });
      }
    }
    if (notices.length > 0) {
      builder.add("tool-output", notices.join("\n"), {
        locator: block.locator,
        time,
        tool: STATUS_TOOL,
      });
    }
    if (errors.size > 0) {
      builder.add("tool-output", [...errors].join("\n"), {
        locator: block.locator,
        time,
        tool: STATUS_TOOL,
        flags: { isError: true },
      });
    }
    this.#undoPending = false;
  }
}

/** Whether the log signs its marker lines with aider's two trailing spaces. */
async function usesSignature(
  path: string,
  maxLineBytes: number,
): Promise<boolean> {
  try {
    for await (const line of readLines(path, { maxLineBytes })) {
      if (
        (USER_PREFIX.test(line.text) || TOOL_PREFIX.test(line.text)) &&
        line.text.endsWith("  ")
      ) {
        return true;
      }
    }
  } catch {
    return false;
  }
  return false;
}

/** Session start times in file order (for matching prompts to sessions). */
async function headerTimes(
  path: string,
  maxLineBytes: number,
): Promise<Array<number | undefined>> {
  const times: Array<number | undefined> = [];
  for await (const line of readLines(path, { maxLineBytes })) {
    const m = HEADER.exec(line.text);
    if (m) times.push(parseLocal(m[1] as string));
  }
  return times;
}

/**
 * Parses one `.aider.chat.history.md` into its sessions.
 *
 * `#### ` lines are what the person typed (`/run`, `/test`, `!` and `/git`
 * become commands; other slash commands are not speech; `/undo` marks the
 * reply whose commit it removed); `> ` lines are aider's own output, read
 * for `Applied edit to` (a `files` record plus the reply's SEARCH text as
 * `edit`), `Added … to the chat`, `Commit <hash> <message>` (tool-output,
 * tool `commit`), what `/git` printed (its tool-output), a shell command
 * the model suggested (`Running …`) and `Added N lines of output to the
 * chat` (the command's tool-output: an error for `/test` and the auto-test,
 * which add it only on a non-zero exit); everything else is the model's
 * reply, without its reasoning block. The output itself comes from the
 * LLM log (`.aider.llm.history`) when there is one. Prompt times come from
 * `.aider.input.history` when it is there, else the session header.
 *
 * @param path The chat log.
 * @param options Parse options (the file is always read whole).
 * @returns One session per `# aider chat started at` header that has more
 * than a banner and the files it added.
 * @example
 * ```ts
 * import { parseAiderHistory } from "./aider.ts";
 * import { equal } from "node:assert/strict";
 * const dir = await Deno.makeTempDir();
 * const path = `${dir}/.aider.chat.history.md`;
 * await Deno.writeTextFile(path, [
 *   "", "# aider chat started at 2026-03-01 09:00:00", "",
 *   "> Aider v0.86.0  ", "", "#### rename the config loader  ", "",
 *   "Renamed it.", "",
 * ].join("\n"));
 * const source = { home: dir, env: {}, os: "linux" };
 * const { sessions } = await parseAiderHistory(path, { includeSubagents: true, source });
 * equal(sessions[0]?.records.map((r) => r.role).join(","), "user,assistant");
 * ```
 */
export async function parseAiderHistory(
  path: string,
  options: AiderParseOptions,
): Promise<ParseResult> {
  const maxLineBytes = options.maxLineBytes ?? MAX_LINE_BYTES;
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(path);
  } catch {
    return { sessions: [], skipped: 0 };
  }
  if (!info.isFile) return { sessions: [], skipped: 0 };
  const signed = await usesSignature(path, maxLineBytes);
  const starts = await headerTimes(path, maxLineBytes);
  const inputs = await readInputHistory(
    options.inputHistory ?? `${dirOf(path)}/${INPUT_NAME}`,
  );
  const runs = await readRunOutputs(
    options.llmHistory ?? llmHistoryPath(path, options.source),
  );
  const reader = new HistoryReader(
    path,
    inputs,
    runs,
    options.source.home.replace(/[\\/]+$/, ""),
  );
  let skipped = 0;
  let headers = 0;
  let block: Block | undefined;
  let fence: string | undefined;
  let toolMessage = false;
  let toolMessageLines = 0;
  const emit = () => {
    if (!block) return;
    if (block.kind === "reply") {
      while (block.lines.length > 0 && block.lines.at(-1)?.trim() === "") {
        block.lines.pop();
      }
    }
    if (block.lines.length > 0) reader.block(block);
    block = undefined;
  };
  const lines = readLines(path, {
    maxLineBytes,
    onOversized: () => skipped++,
  });
  for await (const line of lines) {
    const text = line.text;
    const locator: Locator = { path, line: line.number, offset: line.offset };
    const header = HEADER.exec(text);
    if (header) {
      emit();
      fence = undefined;
      toolMessage = false;
      reader.start(parseLocal(header[1] as string), starts[headers + 1]);
      headers++;
      continue;
    }
    const marker = signed ? text.endsWith("  ") : fence === undefined;
    if (toolMessage && block?.kind === "tool") {
      // A multi-line message aider quoted as one: its last line is signed.
      if (!(marker && (USER_PREFIX.test(text) || TOOL_PREFIX.test(text)))) {
        block.lines.push(text.trim());
        if (
          text.endsWith("  ") || ++toolMessageLines > MAX_TOOL_MESSAGE_LINES
        ) {
          toolMessage = false;
        }
        continue;
      }
    }
    toolMessage = false;
    if (
      signed && !marker && TOOL_PREFIX.test(text) &&
      (block?.kind === "tool" || block?.kind === "user")
    ) {
      // A multi-line message aider quoted as one (`tool_output` of text
      // with newlines: `/git`'s output): right after a prompt, it starts
      // aider's output; a reply is always set off by a blank line.
      if (block.kind !== "tool") {
        emit();
        block = { kind: "tool", lines: [], locator };
      }
      block.lines.push(text.slice(2).trim());
      toolMessage = true;
      toolMessageLines = 0;
      continue;
    }
    if (marker && USER_PREFIX.test(text)) {
      if (block?.kind !== "user") {
        emit();
        block = { kind: "user", lines: [], locator };
      }
      block.lines.push(text.slice(5).replace(/\s+$/, ""));
      fence = undefined;
      continue;
    }
    if (marker && TOOL_PREFIX.test(text)) {
      if (block?.kind !== "tool") {
        emit();
        block = { kind: "tool", lines: [], locator };
      }
      block.lines.push(text.slice(2).trim());
      fence = undefined;
      continue;
    }
    if (text.trim().length === 0) {
      if (block?.kind === "reply") block.lines.push("");
      else emit();
      continue;
    }
    if (block?.kind !== "reply") {
      emit();
      block = { kind: "reply", lines: [], locator };
    }
    const fenceMark = /^\s*(`{3,}|~{3,})/.exec(text)?.[1];
    if (fenceMark) {
      if (fence === undefined) fence = fenceMark;
      else if (
        fenceMark[0] === fence[0] && fenceMark.length >= fence.length &&
        text.trim() === fenceMark
      ) {
        fence = undefined;
      }
    }
    block.lines.push(text);
  }
  emit();
  // A chat with no prompt is kept when aider said what went wrong or warned
  // (a launch that failed is often the one a person looks for); one that
  // only started and quit — a banner, its launch line, its models and the
  // files it listed — is not.
  const sessions = reader.sessions.filter((b) =>
    b.records.some((r) =>
      r.role === "user" || r.role === "assistant" ||
      (r.role === "command" && r.tool !== LAUNCH_TOOL) || troubled(r)
    )
  ).map((b) => {
    b.fallbackTitle(promptlessTitle(b.records));
    return b.build();
  });
  return { sessions, skipped };
}

/** An error aider reported, or a notice holding a warning. */
function troubled(r: SessionRecord): boolean {
  return r.role === "tool-output" && r.tool === STATUS_TOOL &&
    (r.flags?.isError === true || /^warning\b/im.test(r.text));
}

/**
 * A chat no prompt titles: its first error line, else its first warning,
 * else how aider was started.
 */
function promptlessTitle(records: readonly SessionRecord[]): string {
  const error = records.find((r) =>
    r.role === "tool-output" && r.tool === STATUS_TOOL && r.flags?.isError
  );
  if (error) return error.text.split("\n", 1)[0] as string;
  const warning = records.filter(troubled).flatMap((r) => r.text.split("\n"))
    .find((line) => /^warning\b/i.test(line));
  if (warning) return warning;
  const launch = records.find((r) =>
    r.role === "command" && r.tool === LAUNCH_TOOL
  );
  return launch?.text ?? "";
}

/**
 * The LLM log beside a chat log: `AIDER_LLM_HISTORY_FILE` when it names a
 * file relative to the project (as aider's docs suggest), else the name the
 * docs give it.
 */
function llmHistoryPath(path: string, source: SourceEnv): string {
  const named = source.env.AIDER_LLM_HISTORY_FILE?.trim();
  const relative = named && !/^(?:[\\/]|[A-Za-z]:|~)/.test(named) &&
    !named.split(/[\\/]+/).includes("..");
  return `${dirOf(path)}/${relative ? named : LLM_HISTORY_NAME}`;
}

function aiderRoots(source: SourceEnv): string[] {
  return [source.home, ...pathList(source.env.DEJA_AIDER_ROOTS, source)];
}

function isHistoryFile(path: string): boolean {
  return baseName(path) === HISTORY_NAME;
}

const historyKind: FileKind = {
  id: "chat-history",
  appendOnly: false,
  match: isHistoryFile,
  parse: (path, options) => parseAiderHistory(path, options),
};

/**
 * The aider harness: `.aider.chat.history.md` in HOME, in the usual project
 * folders under HOME (found without configuration), at
 * `AIDER_CHAT_HISTORY_FILE`, and under each `DEJA_AIDER_ROOTS` entry.
 *
 * @example
 * ```ts
 * import { aider } from "./aider.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(aider.roots({ home: "/h", env: { DEJA_AIDER_ROOTS: "/w:/x" }, os: "linux" }), ["/h", "/w", "/x"]);
 * ```
 */
export const aider: Harness = {
  id: HARNESS_ID,
  name: "aider",
  format:
    "append-only markdown per project (.aider.chat.history.md, many sessions per file) plus .aider.input.history prompt times",
  envOverrides: ["DEJA_AIDER_ROOTS", "AIDER_CHAT_HISTORY_FILE"],
  // 2: session ids hash the log's path under HOME, not its absolute path.
  // 5: /git output, commit messages, failed /test and auto-test runs,
  // command output from the LLM log, `{` prompt times.
  // 6: architect mode's reply, logged again as the editor model's prompt, is
  // not a user turn.
  // 7: the models aider ran with and its warnings, as tool-output.
  // 8: a chat with no prompt is kept when aider reported an error or a
  // warning in it.
  revision: 8,
  roots: aiderRoots,
  discover(source: SourceEnv): Promise<string[]> {
    const seen = new Set<string>();
    const found: string[] = [];
    // A path is listed once; the probed candidates only when they are files.
    const offer = (path: string, probe: boolean): void => {
      if (seen.has(path) || (probe && !isRegularFileSync(path))) return;
      seen.add(path);
      found.push(path);
    };
    offer(`${source.home}/${HISTORY_NAME}`, true);
    const named = source.env.AIDER_CHAT_HISTORY_FILE;
    if (named) offer(named, true);
    for (const dir of projectDirs(source)) {
      offer(`${dir}/${HISTORY_NAME}`, true);
    }
    for (const root of pathList(source.env.DEJA_AIDER_ROOTS, source)) {
      const walk = walkFiles(root, isHistoryFile, {
        maxDepth: 3,
        skipDirs: SKIP_DIRS,
      });
      for (const path of walk) offer(path, false);
    }
    return Promise.resolve(found);
  },
  kinds: [historyKind],
  docs: {
    store:
      "`.aider.chat.history.md` (with `.aider.input.history` and, when aider was run with `--llm-history-file`, `.aider.llm.history` or the relative name in `AIDER_LLM_HISTORY_FILE` beside it) in each project folder: found in HOME, in HOME's `code`, `src`, `projects`, `work`, `dev`, `repos`, `git`, `workspace`, `workspaces`, `Developer`, `source`, `repositories`, `GitHub`, `IdeaProjects`, `PycharmProjects`, `WebstormProjects`, `GolandProjects`, `AndroidStudioProjects` and `Documents` folders (any case: `~/Projects`, `~/Code`) up to 3 levels deep (hidden and dependency folders skipped, at most 20,000 folders), at `AIDER_CHAT_HISTORY_FILE`, and under each `DEJA_AIDER_ROOTS` entry (path list, 3 levels); same on every OS",
    extracts:
      "one session per `# aider chat started at` header that has a prompt, a reply, a command other than aider's echo of how it was started, or an error or a warning aider reported (a chat with no prompt, such as a launch that failed, is titled by its first error line, else its first warning, else the launch line; its id is still the header's number in the log); user turns (`#### ` lines, multi-line prompts joined; not the architect's reply that architect mode logs again as `#### ` lines when it hands it to the editor model) with times from `.aider.input.history` (a `{` … `}` prompt by its own entry: the whole block, or its closing brace when typed a line at a time); assistant replies without reasoning blocks; `/run`, `/test`, `!` and `/git` as commands, a shell command the model suggested that the person let run (`Running …`) as a `/run` command, and the echoed line that started aider (its model and flags) as a command (tool `aider`); what `/git` printed (aider writes it to the log) as its tool-output (an error for git's `error:`/`fatal:`); `Added N lines of output to the chat` as the command's tool-output, an error for `/test` and for the auto-test after an edit (aider adds their output only on a non-zero exit; an auto-test becomes a `/test` command when the LLM log names it), and for a `/run` when the next prompt is aider's \"What's wrong? Fix\" placeholder (set only after a non-zero exit); the output itself from the LLM log's `I ran this command:` messages (each run once, though every later request repeats it), else aider's line; commit messages (`Commit <hash> <message>`) as tool-output (tool `commit`); `Applied edit to` as files plus the reply's SEARCH (or unified-diff `-`) text as edit; `Added … to the chat` as files; `/undo` that removed a commit marks that reply's records and its commit message superseded (the reply whose commit has the removed hash; not the commit aider made of the person's own changes before editing); `> ` status lines reporting an error (an exception's name, \"failed\", \"refused\", \"unable to\"…: the model's API failing, an edit that did not match) as one error tool-output per block, each distinct line once; the models it ran with (`Main model:`, `Model:`) and its warnings with the lines listed under them as one tool-output per block",
    omits:
      "other `> ` status lines (banners, token costs, retries: aider's own chatter), yes/no prompt echoes, other slash commands; a chat that only started and quit (a banner, the launch line, the models and the files it added); exit codes (never written: a failure is only known as above), the output of a command whose output was not added to the chat (never written), of a suggested shell command (sent as `Output from …`, not matched), and of any command without an LLM log; everything else in the LLM log (the conversation again, system prompts, file contents) and all of it but its last 32 MiB; an LLM log named elsewhere (an absolute `--llm-history-file`); assistant times are the prompt's time (the log has no reply times)",
    verified:
      "real samples from aider 0.84.0 (Windows) and 0.86.2 (Linux), fixtures/aider (fixtures/aider/Projects/otter-api: `/git`, commits, auto-test, `/test`, `/run`, suggested commands, a `{` prompt typed a line at a time and `.aider.llm.history`, written from Aider-AI/aider's io.py, commands.py, repo.py and base_coder.py, no real LLM log); the architect hand-off from architect_coder.py (`editor_coder.run(with_message=…)` logs the reply through io.user_input) in a unit test only, no real architect-mode sample",
  },
};
