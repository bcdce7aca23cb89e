/**
 * Work records from tool calls, shared by the harnesses whose tools follow a
 * "dialect": which tool names run shell commands, which touch files, which
 * key holds the path, and which key holds the text an edit replaced.
 *
 * @module
 */
import type { Locator, RecordFlags, SessionRecord } from "../core/types.ts";
import type { SessionBuilder } from "./_builder.ts";
import { isObject, type Json, str } from "./_json.ts";
import { editBody, filesOfApplyPatch } from "./_work_records.ts";

const EXIT_FOOTERS = [
  /^Exit Code: (-?\d+)\s*$/gm,
  /<exited with exit code (-?\d+)>/g,
  /Command failed with exit code: (-?\d+)/g,
  /^Command exited with code (-?\d+)\s*$/gm,
  /^Process exited with code (-?\d+)/gm,
  /^Exit code: (-?\d+)/gm,
];

/**
 * The exit code a shell tool's output reports in its footer, for the footers
 * Gemini/Qwen (`Exit Code: N`), Copilot (`<exited with exit code N>`), Kimi
 * (`Command failed with exit code: N.`), Pi (`Command exited with code N`) and
 * Codex-style tools write.
 *
 * @param text Tool output.
 * @returns The code, or undefined when no footer names one.
 * @example
 * ```ts
 * import { footerExitCode } from "./_tool_records.ts";
 * import { equal } from "node:assert/strict";
 * equal(footerExitCode("ok\n<exited with exit code 2>"), 2);
 * equal(footerExitCode("$ cat run.log\nExit Code: 0\nboom\nExit Code: 1"), 1);
 * ```
 */
export function footerExitCode(text: string): number | undefined {
  for (const re of EXIT_FOOTERS) {
    // The footer is the last one: an earlier line of the same shape is
    // output the command printed (a log it showed, a nested run).
    let last: string | undefined;
    for (const m of text.matchAll(re)) last = m[1];
    if (last !== undefined) return Number(last);
  }
  return undefined;
}

/** The tool of the command record a text search becomes, in every harness. */
export const GREP_TOOL = "grep";

/** A word of a command line, quoted when it holds a space or a quote. */
function commandWord(text: string): string {
  return /[\s'"]/.test(text) ? `'${text.replaceAll("'", `'\\''`)}'` : text;
}

/**
 * The command line a text-search tool call stands for (`grep <pattern>
 * [<path>] [--glob <glob>]`): what the agent searched for, and where, so its
 * output does not stand alone. The pattern is `pattern`, else `regex`
 * (Zed), else `query`; the glob `glob`, else `include_pattern` (Zed), else
 * `include`.
 *
 * @param args The call's arguments.
 * @returns The command line, or undefined when no pattern is named.
 * @example
 * ```ts
 * import { grepCommand } from "./_tool_records.ts";
 * import { equal } from "node:assert/strict";
 * equal(grepCommand({ pattern: "logout", glob: "**\/*.py" }), "grep logout --glob **\/*.py");
 * equal(grepCommand({ regex: "fn main", path: "src" }), "grep 'fn main' src");
 * equal(grepCommand({ path: "src" }), undefined);
 * ```
 */
export function grepCommand(args: Json): string | undefined {
  const pattern = firstString(args, ["pattern", "regex", "query"]);
  if (!pattern) return undefined;
  const path = str(args.path);
  const glob = firstString(args, ["glob", "include_pattern", "include"]);
  return [
    "grep",
    commandWord(pattern),
    ...(path ? [commandWord(path)] : []),
    ...(glob ? ["--glob", commandWord(glob)] : []),
  ].join(" ");
}

/** Which tools do what, for one harness. */
export interface ToolDialect {
  /** Tools that run a shell command. */
  shell: ReadonlySet<string>;
  /**
   * Tools that search file text: their pattern, path and glob become a
   * command (tool `grep`; see {@linkcode grepCommand}).
   */
  search?: ReadonlySet<string>;
  /** Keys that may hold the command, in order of preference. */
  commandKeys: readonly string[];
  /** Tools whose path argument becomes a `files` record. */
  pathTools: ReadonlySet<string>;
  /** Keys that may hold a path, in order of preference. */
  pathKeys: readonly string[];
  /** Keys that may hold a list of paths. */
  pathListKeys?: readonly string[];
  /** Tools whose replaced text becomes an `edit` record. */
  editTools: ReadonlySet<string>;
  /** Keys that may hold the replaced text. */
  oldKeys: readonly string[];
  /** Key of a list of `{old…}` edits inside one call (MultiEdit style). */
  editListKey?: string;
}

/** Where and when a tool event happened. */
export interface ToolEventAt {
  /** Source position. */
  locator: Locator;
  /** Milliseconds since the epoch. */
  time?: number | undefined;
  /** Record flags (sub-agent). */
  flags?: RecordFlags | undefined;
}

interface Pending {
  name: string;
  command?: SessionRecord;
}

/** Caps how many unanswered calls are remembered. */
const MAX_PENDING = 1024;

function firstString(input: Json, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const v = str(input[key]);
    if (v) return v;
  }
  return undefined;
}

function withFlags(
  at: ToolEventAt,
  extra?: RecordFlags,
): { flags?: RecordFlags } {
  const flags: RecordFlags = { ...at.flags, ...extra };
  return flags.subagent || flags.isError || flags.truncated ? { flags } : {};
}

/**
 * Turns tool calls and results into `command`, `files`, `edit` and
 * `tool-output` records for one session, pairing each result with its call
 * so a command gets the exit code its result reports.
 */
export class ToolRecorder {
  readonly #builder: SessionBuilder;
  readonly #dialect: ToolDialect;
  readonly #pending = new Map<string, Pending>();
  readonly #filesSeen = new Set<string>();

  /**
   * @param builder The session the records go to.
   * @param dialect The harness's tool names and keys.
   */
  constructor(builder: SessionBuilder, dialect: ToolDialect) {
    this.#builder = builder;
    this.#dialect = dialect;
  }

  /** Starts a new assistant message: paths are listed once per message. */
  newMessage(): void {
    this.#filesSeen.clear();
  }

  /** The tool name a call id was issued under, when known. */
  toolOf(id: string | undefined): string | undefined {
    return id === undefined ? undefined : this.#pending.get(id)?.name;
  }

  /**
   * Records one tool call.
   *
   * @param id The call id (pairs the result), when the format has one.
   * @param name The tool name.
   * @param input The call's arguments (an object, or a JSON string of one).
   * @param at Locator, time and flags.
   */
  call(
    id: string | undefined,
    name: string,
    input: unknown,
    at: ToolEventAt,
  ): void {
    let args: Json = {};
    if (isObject(input)) args = input;
    else if (typeof input === "string" && input.startsWith("{")) {
      try {
        const parsed: unknown = JSON.parse(input);
        if (isObject(parsed)) args = parsed;
      } catch {
        // Arguments that are not JSON carry no path or command.
      }
    }
    const pending: Pending = { name };
    if (id !== undefined) {
      if (this.#pending.size >= MAX_PENDING) {
        const oldest = this.#pending.keys().next().value;
        if (oldest !== undefined) this.#pending.delete(oldest);
      }
      this.#pending.set(id, pending);
    }
    const d = this.#dialect;
    const base = { locator: at.locator, time: at.time, tool: name };
    if (d.search?.has(name)) {
      // No exit code: a search that matched nothing did not fail.
      const text = grepCommand(args);
      if (text) {
        this.#builder.add("command", text, {
          ...base,
          tool: GREP_TOOL,
          ...withFlags(at),
        });
      }
      return;
    }
    if (d.shell.has(name)) {
      const cmd = firstString(args, d.commandKeys) ??
        (Array.isArray(args.command)
          ? args.command.filter((c) => typeof c === "string").join(" ")
          : undefined);
      if (cmd) {
        const record = this.#builder.add("command", cmd, {
          ...base,
          ...withFlags(at),
        });
        if (record) pending.command = record;
      }
      return;
    }
    const paths: string[] = [];
    if (d.pathTools.has(name) || d.editTools.has(name)) {
      const one = firstString(args, d.pathKeys);
      if (one) paths.push(one);
      for (const key of d.pathListKeys ?? []) {
        const list = args[key];
        if (!Array.isArray(list)) continue;
        for (const p of list) if (typeof p === "string" && p) paths.push(p);
      }
    }
    for (const path of paths) this.file(path, name, at);
    if (!d.editTools.has(name) || paths.length === 0) return;
    const removed: string[] = [];
    const old = firstString(args, d.oldKeys);
    if (old) removed.push(old);
    const list = d.editListKey ? args[d.editListKey] : undefined;
    if (Array.isArray(list)) {
      for (const item of list) {
        if (isObject(item)) {
          const text = firstString(item, d.oldKeys);
          if (text) removed.push(text);
        }
      }
    }
    for (const text of removed) this.edit(paths[0] as string, text, name, at);
  }

  /**
   * Records a path the current message touched, once per message.
   *
   * @param path The file.
   * @param tool The tool (or response part) that touched it.
   * @param at Locator, time and flags.
   */
  file(path: string, tool: string, at: ToolEventAt): void {
    if (this.#filesSeen.has(path)) return;
    this.#filesSeen.add(path);
    this.#builder.add("files", path, {
      locator: at.locator,
      time: at.time,
      tool,
      ...withFlags(at),
    });
  }

  /**
   * Records the text an edit removed from a file.
   *
   * @param path The file.
   * @param removed The replaced text.
   * @param tool The tool name.
   * @param at Locator, time and flags.
   */
  edit(path: string, removed: string, tool: string, at: ToolEventAt): void {
    const body = editBody(path, removed);
    this.#builder.add("edit", body.text, {
      locator: at.locator,
      time: at.time,
      tool,
      ...withFlags(at, body.truncated ? { truncated: true } : undefined),
    });
  }

  /**
   * Records each file an apply_patch-style patch touches, and the lines it
   * removes from each as an edit.
   *
   * @param patch The patch (`*** Begin Patch` … `*** End Patch`).
   * @param tool The tool name.
   * @param at Locator, time and flags.
   */
  patch(patch: string, tool: string, at: ToolEventAt): void {
    for (const file of filesOfApplyPatch(patch)) {
      this.file(file.path, tool, at);
      if (file.removed.trim()) this.edit(file.path, file.removed, tool, at);
    }
  }

  /**
   * Records a tool result as `tool-output` and settles the exit code of the
   * command it answers: the explicit code, else the output's footer, else 0
   * for a result not marked as an error. A command's result with a non-zero
   * code is an error, whatever status the harness gave it.
   *
   * @param id The call id, when the format pairs results with calls.
   * @param text The output.
   * @param isError Whether the harness marked the result as failed.
   * @param at Locator, time and flags.
   * @param exitCode An exit code the harness recorded explicitly.
   * @param name The tool name when the result names it itself.
   */
  result(
    id: string | undefined,
    text: string,
    isError: boolean,
    at: ToolEventAt,
    exitCode?: number,
    name?: string,
  ): void {
    const pending = id === undefined ? undefined : this.#pending.get(id);
    if (id !== undefined) this.#pending.delete(id);
    const tool = name ?? pending?.name;
    let failed = isError;
    if (pending?.command) {
      const stated = exitCode ?? footerExitCode(text);
      if (pending.command.exitCode === undefined) {
        const code = stated ?? (isError ? undefined : 0);
        if (code !== undefined && Number.isFinite(code)) {
          pending.command.exitCode = code;
        }
      }
      // A command that exited non-zero failed, whatever status the harness
      // gave its result.
      if (stated !== undefined && stated !== 0 && Number.isFinite(stated)) {
        failed = true;
      }
    }
    this.#builder.add("tool-output", text, {
      locator: at.locator,
      time: at.time,
      tool,
      ...withFlags(at, failed ? { isError: true } : undefined),
    });
  }
}
