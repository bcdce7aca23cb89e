/**
 * aider: one append-only markdown chat log per project,
 * `.aider.chat.history.md`, holding many sessions (each opened by
 * `# aider chat started at <local time>`), with `.aider.input.history` beside
 * it recording when each prompt was typed.
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
import { cleanSpeech } from "../core/text.ts";
import type { Locator } from "../core/types.ts";
import { SessionBuilder } from "./_builder.ts";
import { baseName, dirOf, isRegularFileSync } from "./_paths.ts";
import { projectDirs } from "./_project_dirs.ts";
import { pathList } from "./_roots.ts";

const HARNESS_ID = "aider";
const HISTORY_NAME = ".aider.chat.history.md";
const INPUT_NAME = ".aider.input.history";

/** The input history is read only up to this size (it is optional). */
const MAX_INPUT_HISTORY_BYTES = 64 * 1024 * 1024;

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
/** Distinct error lines kept from one block of status lines. */
const MAX_ERROR_LINES = 20;
const USER_PREFIX = /^####(?: |$)/;
const TOOL_PREFIX = /^>(?: |$)/;
/** A yes/no prompt aider echoes as if typed (`... (Y)es/(N)o [Yes]: all`). */
const CONFIRM_ECHO = /\(Y\)es\/\(N\)o[^\n]*\]:\s*\S*\s*$/;
/** Reasoning blocks aider writes into the reply. */
const REASONING = [
  /<thinking-content-[0-9a-f]+>[\s\S]*?<\/thinking-content-[0-9a-f]+>/g,
  /<think>[\s\S]*?<\/think>/g,
  /<reasoning>[\s\S]*?<\/reasoning>/g,
  /-{3,}\s*\n►\s*\*\*THINKING\*\*[\s\S]*?-{3,}\s*\n►\s*\*\*ANSWER\*\*/g,
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
  used: boolean;
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
      entries.push({
        time: current.time,
        text: normalizePrompt(current.lines.join("\n")),
        used: false,
      });
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

/** Strips aider's reasoning blocks and the markdown noise around a reply. */
function replyText(text: string): string {
  let out = text;
  for (const re of REASONING) out = out.replace(re, "");
  return cleanSpeech(out);
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
  #builder: SessionBuilder | undefined;
  #sessionStart: number | undefined;
  #nextSessionStart: number | undefined;
  #lastTime: number | undefined;
  /** Edits the last reply proposed, waiting for `Applied edit to`. */
  #proposed: ProposedEdit[] = [];
  /** Seq of the latest reply record (the one a commit belongs to). */
  #replySeq: number | undefined;
  /** Reply ranges whose edits aider committed, newest last. */
  #applied: Array<[number, number]> = [];
  #undoPending = false;

  constructor(path: string, inputs: InputEntry[], home: string) {
    this.#path = path;
    this.#cwd = dirOf(path);
    // Named by the log's place under HOME, so ids survive a moved HOME.
    const sep = path[home.length];
    const under = home && path.startsWith(home) && (sep === "/" || sep === "\\")
      ? `~${path.slice(home.length).replaceAll("\\", "/")}`
      : path;
    this.#idBase = sha256Hex(under).slice(0, 12);
    this.#inputs = inputs;
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
  }

  #session(): SessionBuilder {
    if (!this.#builder) this.start(undefined, undefined);
    return this.#builder as SessionBuilder;
  }

  /** The time a prompt was typed, from the input history, within this session. */
  #promptTime(text: string): number | undefined {
    const want = normalizePrompt(text);
    if (want.length === 0) return undefined;
    const from = this.#sessionStart ?? -Infinity;
    const to = this.#nextSessionStart ?? Infinity;
    for (const entry of this.#inputs) {
      if (entry.used || entry.time < from - 1000 || entry.time >= to) continue;
      if (entry.text === want) {
        entry.used = true;
        return entry.time;
      }
    }
    return undefined;
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
    const typed = this.#promptTime(raw);
    if (typed !== undefined) this.#lastTime = typed;
    const time = this.#lastTime;
    this.#proposed = [];
    this.#replySeq = undefined;
    if (raw.startsWith("!")) {
      builder.add("command", raw.slice(1).trim(), {
        locator: block.locator,
        time,
        tool: "/run",
      });
      return;
    }
    if (raw.startsWith("/")) {
      const m = /^(\/[\w-]+)\s*([\s\S]*)$/.exec(raw);
      const name = m?.[1] ?? raw;
      const rest = (m?.[2] ?? "").trim();
      if (SHELL_COMMANDS.has(name)) {
        builder.add("command", rest, {
          locator: block.locator,
          time,
          tool: name,
        });
      } else if (name === "/git") {
        builder.add("command", `git ${rest}`.trim(), {
          locator: block.locator,
          time,
          tool: name,
        });
      } else if (SPEECH_COMMANDS.has(name)) {
        builder.add("user", userSpeech(rest), { locator: block.locator, time });
      } else if (name === "/undo") {
        this.#undoPending = true;
      }
      return;
    }
    builder.add("user", userSpeech(raw), { locator: block.locator, time });
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
    this.#proposed.push(...proposedEdits(block.lines));
  }

  #tool(block: Block): void {
    const builder = this.#session();
    const time = this.#lastTime;
    // What went wrong on aider's side (the model's API refusing, a file it
    // could not write) is kept; its retries repeat a line many times.
    const errors = new Set<string>();
    for (const line of block.lines) {
      if (LAUNCH_LINE.test(line)) {
        // How aider was started: its model and flags, as the person ran it.
        builder.add("command", line, {
          locator: block.locator,
          time,
          tool: LAUNCH_TOOL,
        });
        continue;
      }
      if (ERROR_LINE.test(line) && errors.size < MAX_ERROR_LINES) {
        errors.add(line);
      }
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
        if (last && last[0] === from) last[1] = builder.nextSeq;
        else this.#applied.push([from, builder.nextSeq]);
        continue;
      }
      const added = /^Added (.+?) to the chat(?: \(read-only\))?\.?\s*$/.exec(
        line,
      );
      if (added && !/^\d+ lines? of output$/.test(added[1] as string)) {
        builder.add("files", added[1] as string, {
          locator: block.locator,
          time,
          tool: "add",
        });
        continue;
      }
      if (this.#undoPending && /^Removed: [0-9a-f]{6,40}\b/.test(line)) {
        this.#undoPending = false;
        const range = this.#applied.pop();
        if (range) builder.mark("undo", range[0], range[1]);
      }
    }
    if (errors.size > 0) {
      builder.add("tool-output", [...errors].join("\n"), {
        locator: block.locator,
        time,
        tool: "aider",
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
 * `edit`) and `Added … to the chat`; everything else is the model's reply,
 * without its reasoning block. Prompt times come from `.aider.input.history`
 * when it is there, else the session header.
 *
 * @param path The chat log.
 * @param options Parse options (the file is always read whole).
 * @returns One session per `# aider chat started at` header that has records.
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
  const reader = new HistoryReader(
    path,
    inputs,
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
      signed && !marker && TOOL_PREFIX.test(text) && block?.kind === "tool"
    ) {
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
  // A session where nothing was said or run (aider started and quit) is
  // only a banner, however many files it listed.
  const sessions = reader.sessions.map((b) => b.build()).filter((s) =>
    s.records.some((r) =>
      r.role === "user" || r.role === "assistant" ||
      (r.role === "command" && r.tool !== LAUNCH_TOOL)
    )
  );
  return { sessions, skipped };
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
  revision: 4,
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
      "`.aider.chat.history.md` (and `.aider.input.history`) in each project folder: found in HOME, in HOME's `code`, `src`, `projects`, `work`, `dev`, `repos`, `git`, `workspace`, `workspaces`, `Developer`, `source`, `repositories`, `GitHub`, `IdeaProjects`, `PycharmProjects`, `WebstormProjects`, `GolandProjects`, `AndroidStudioProjects` and `Documents` folders (any case: `~/Projects`, `~/Code`) up to 3 levels deep (hidden and dependency folders skipped, at most 20,000 folders), at `AIDER_CHAT_HISTORY_FILE`, and under each `DEJA_AIDER_ROOTS` entry (path list, 3 levels); same on every OS",
    extracts:
      'one session per `# aider chat started at` header; user turns (`#### ` lines, multi-line prompts joined) with times from `.aider.input.history`; assistant replies without reasoning blocks; `/run`, `/test`, `!` and `/git` as commands, and the echoed line that started aider (its model and flags) as a command (tool `aider`); `Applied edit to` as files plus the reply\'s SEARCH (or unified-diff `-`) text as edit; `Added … to the chat` as files; `/undo` that removed a commit marks that reply\'s records superseded; `> ` status lines reporting an error (an exception\'s name, "failed", "refused", "unable to"…: the model\'s API failing, an edit that did not match) as one error tool-output per block, each distinct line once',
    omits:
      "other `> ` status lines (banners, token costs, commits, warnings, retries: aider's own chatter), yes/no prompt echoes, other slash commands, command output and exit codes (aider does not write them to the log); assistant times are the prompt's time (the log has no reply times)",
    verified:
      "real samples from aider 0.84.0 (Windows) and 0.86.2 (Linux), fixtures/aider",
  },
};
