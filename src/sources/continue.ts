/**
 * Continue: one JSON document per chat session under
 * `${CONTINUE_GLOBAL_DIR:-~/.continue}/sessions/<sessionId>.json`, listed in
 * `sessions.json` beside them (title, creation date, workspace).
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
import { cleanSpeech } from "../core/text.ts";
import { parseTime } from "../core/time.ts";
import type { Locator } from "../core/types.ts";
import { SessionBuilder } from "./_builder.ts";
import { commandExitCode, removedBlocks } from "./_cline_family.ts";
import { readJsonDocument } from "./_json_doc.ts";
import { isObject, type Json, str, textBlocks } from "./_json.ts";
import { baseName, dirOf } from "./_paths.ts";
import { pathOfFileUri } from "../core/paths.ts";
import {
  footerExitCode,
  type ToolDialect,
  ToolRecorder,
} from "./_tool_records.ts";

const HARNESS_ID = "continue";
const LIST_NAME = "sessions.json";

/** Titles Continue shows until it names a chat (the IDE's, then the `cn` CLI's). */
const PLACEHOLDER_TITLES = new Set(["New Session", "Untitled Session"]);

/**
 * Continue's built-in tools and where their arguments keep paths and text:
 * the IDE extension's snake_case names and the `cn` CLI's (Bash, Read,
 * Write, Edit, MultiEdit, whose edits name `file_path`).
 */
const DIALECT: ToolDialect = {
  shell: new Set([
    "run_terminal_command",
    "builtin_run_terminal_command",
    "Bash",
  ]),
  commandKeys: ["command"],
  pathTools: new Set([
    "Read",
    "Write",
    "Edit",
    "MultiEdit",
    "read_file",
    "read_file_range",
    "edit_existing_file",
    "search_and_replace_in_file",
    "single_find_and_replace",
    "multi_edit",
    "create_new_file",
    "builtin_read_file",
    "builtin_edit_existing_file",
    "builtin_create_new_file",
  ]),
  pathKeys: ["filepath", "filePath", "file_path", "path"],
  editTools: new Set([
    "single_find_and_replace",
    "multi_edit",
    "Edit",
    "MultiEdit",
  ]),
  oldKeys: ["old_string", "oldString"],
  editListKey: "edits",
};

/** Tools whose `diffs` argument holds SEARCH/REPLACE blocks. */
const DIFF_TOOLS = new Set(["search_and_replace_in_file"]);

/** `file:///home/a/app` → `/home/a/app`; plain paths pass through. */
function pathFromUri(value: string | undefined): string | undefined {
  if (!value) return undefined;
  if (!value.startsWith("file://")) return value;
  return pathOfFileUri(value) ?? value.slice("file://".length);
}

function outputText(output: unknown): string {
  if (!Array.isArray(output)) return "";
  const parts: string[] = [];
  for (const item of output) {
    if (isObject(item) && typeof item.content === "string") {
      parts.push(item.content);
    }
  }
  return parts.join("\n");
}

/** How a Terminal item's `status` words a command that did not succeed. */
const FAILED_STATUS = /^\s*Command failed\b/;

/**
 * What the output items' `status` lines say about a command: the IDE's
 * run_terminal_command returns normally when the command exits non-zero (the
 * call is `done`, the content its stderr), and only the status — "Command
 * failed with: Command failed with exit code 2", or "Command completed" —
 * tells it failed.
 */
function outputStatus(output: unknown): { failed: boolean; code?: number } {
  if (!Array.isArray(output)) return { failed: false };
  for (const item of output) {
    if (!isObject(item) || typeof item.status !== "string") continue;
    if (!FAILED_STATUS.test(item.status)) continue;
    const code = commandExitCode(item.status);
    return code === undefined ? { failed: true } : { failed: true, code };
  }
  return { failed: false };
}

interface ListEntry {
  created?: number;
  title?: string;
  workspace?: string;
}

/** The `sessions.json` entry of one session, if the list has it. */
async function listEntry(
  dir: string,
  id: string,
): Promise<ListEntry> {
  const doc = await readJsonDocument(`${dir}/${LIST_NAME}`, 64 << 20);
  if (!doc.ok || !Array.isArray(doc.value)) return {};
  for (const item of doc.value) {
    // The Python server wrote the same list with snake_case keys.
    if (!isObject(item) || (item.sessionId ?? item.session_id) !== id) continue;
    const entry: ListEntry = {};
    const created = parseTime(item.dateCreated ?? item.date_created);
    if (created !== undefined) entry.created = created;
    const title = str(item.title);
    if (title) entry.title = title;
    const workspace = pathFromUri(
      str(item.workspaceDirectory) ?? str(item.workspace_directory),
    );
    if (workspace) entry.workspace = workspace;
    return entry;
  }
  return {};
}

/**
 * Parses one Continue session document: user messages, assistant text,
 * tool calls as command/files/edit records (built-in tool names), their
 * results (the tool-call state's output or the `tool` message) as
 * tool-output with `errored` as `isError`, and compaction summaries as
 * summary. Thinking messages, reasoning, system messages and context items
 * (file contents the IDE attached) are left out. Continue stores no time
 * per message: the session gets its creation date from `sessions.json` and
 * its last change from the file.
 *
 * @param path The session file.
 * @param options Parse options.
 * @returns The session, or none.
 * @example
 * ```ts
 * import { parseContinueSession } from "./continue.ts";
 * import { equal } from "node:assert/strict";
 * const dir = await Deno.makeTempDir();
 * const path = `${dir}/s1.json`;
 * await Deno.writeTextFile(path, JSON.stringify({ sessionId: "s1", title: "t", workspaceDirectory: "/w/app", history: [
 *   { message: { role: "user", content: "why is the test flaky?" }, contextItems: [] },
 *   { message: { role: "assistant", content: "It races the timer." }, contextItems: [] },
 * ] }));
 * const source = { home: dir, env: {}, os: "linux" };
 * const { sessions } = await parseContinueSession(path, { includeSubagents: true, source });
 * equal(sessions[0]?.project, "app");
 * ```
 */
export async function parseContinueSession(
  path: string,
  _options: ParseOptions,
): Promise<ParseResult> {
  const doc = await readJsonDocument(path);
  if (!doc.ok) {
    return { sessions: [], skipped: doc.reason === "missing" ? 0 : 1 };
  }
  const value = doc.value;
  if (isObject(value) && isObject(value.session_state)) {
    return await parseServerSession(path, value);
  }
  if (!isObject(value) || !Array.isArray(value.history)) {
    return { sessions: [], skipped: 1 };
  }
  const id = str(value.sessionId) ?? baseName(path).replace(/\.json$/, "");
  const entry = await listEntry(dirOf(path), id);
  const cwd = pathFromUri(str(value.workspaceDirectory)) ?? entry.workspace;
  const builder = new SessionBuilder({ harness: HARNESS_ID, id, path, cwd });
  const own = str(value.title);
  const title = own && !PLACEHOLDER_TITLES.has(own) ? own : entry.title;
  if (title && !PLACEHOLDER_TITLES.has(title)) builder.setTitle(title);
  builder.touch(entry.created);
  try {
    builder.touch((await Deno.stat(path)).mtime?.getTime());
  } catch {
    // The file vanished between reading and stat: keep what was read.
  }
  const tools = new ToolRecorder(builder, DIALECT);
  const answered = new Set<string>();
  let skipped = 0;
  value.history.forEach((item: unknown, index: number) => {
    if (!isObject(item) || !isObject(item.message)) {
      skipped++;
      return;
    }
    const message = item.message;
    const locator: Locator = {
      path,
      recordId: str(message.id) ?? String(index),
    };
    const at = { locator, time: undefined };
    const summary = str(item.conversationSummary);
    if (summary) {
      builder.add("summary", cleanSpeech(summary), { locator });
    }
    switch (message.role) {
      case "user":
        builder.add("user", cleanSpeech(textBlocks(message.content, "\n")), {
          locator,
        });
        return;
      case "assistant": {
        tools.newMessage();
        const text = cleanSpeech(textBlocks(message.content, "\n"));
        builder.add("assistant", text, { locator });
        const calls = Array.isArray(message.toolCalls) ? message.toolCalls : [];
        for (const call of calls) toolCall(tools, call, at);
        // Before parallel tool calls an item held one `toolCallState`.
        const states = Array.isArray(item.toolCallStates)
          ? item.toolCallStates
          : isObject(item.toolCallState)
          ? [item.toolCallState]
          : [];
        for (const state of states) {
          if (!isObject(state)) continue;
          const callId = str(state.toolCallId);
          if (calls.length === 0 && isObject(state.toolCall)) {
            toolCall(tools, state.toolCall, at);
          }
          if (state.output === undefined) continue;
          const text = outputText(state.output);
          const reported = outputStatus(state.output);
          // A call the person or Continue cancelled did not do its work.
          const errored = state.status === "errored" ||
            state.status === "canceled" || reported.failed;
          tools.result(
            callId,
            text,
            errored,
            at,
            reported.code ?? footerExitCode(text) ?? commandExitCode(text),
          );
          if (callId) answered.add(callId);
        }
        return;
      }
      case "tool": {
        const callId = str(message.toolCallId);
        if (callId && answered.has(callId)) return;
        const text = textBlocks(message.content, "\n");
        tools.result(
          callId,
          text,
          false,
          at,
          footerExitCode(text) ?? commandExitCode(text),
        );
        return;
      }
      case "thinking":
      case "system":
        return;
      default:
        skipped++;
    }
  });
  const session = builder.build();
  return {
    sessions: session.records.length > 0 ? [session] : [],
    skipped,
  };
}

/**
 * A session saved by the Python server Continue ran on until early 2024:
 * `{session_state: {history: [step]}, title, workspace_directory,
 * session_id}`, each step `{step_type, name, description, params, hide}`.
 * What the person typed is a `UserInputStep`; the other visible steps'
 * descriptions are what Continue answered or did.
 */
async function parseServerSession(
  path: string,
  value: Json,
): Promise<ParseResult> {
  const state = value.session_state as Json;
  if (!Array.isArray(state.history)) return { sessions: [], skipped: 1 };
  const id = str(value.session_id) ?? baseName(path).replace(/\.json$/, "");
  const entry = await listEntry(dirOf(path), id);
  const builder = new SessionBuilder({
    harness: HARNESS_ID,
    id,
    path,
    cwd: pathFromUri(str(value.workspace_directory)) ?? entry.workspace,
  });
  const title = str(value.title) ?? entry.title;
  if (title && !PLACEHOLDER_TITLES.has(title)) builder.setTitle(title);
  builder.touch(entry.created);
  try {
    builder.touch((await Deno.stat(path)).mtime?.getTime());
  } catch {
    // The file vanished between reading and stat: keep what was read.
  }
  let skipped = 0;
  state.history.forEach((step: unknown, index: number) => {
    if (!isObject(step)) {
      skipped++;
      return;
    }
    if (step.hide === true) return;
    const locator: Locator = { path, recordId: String(index) };
    const params = isObject(step.params) ? step.params : {};
    if (step.step_type === "UserInputStep") {
      const typed = str(params.user_input) ?? str(step.description) ?? "";
      builder.add("user", cleanSpeech(typed), { locator });
    } else {
      builder.add("assistant", cleanSpeech(str(step.description) ?? ""), {
        locator,
      });
    }
  });
  const session = builder.build();
  return { sessions: session.records.length > 0 ? [session] : [], skipped };
}

function toolCall(
  tools: ToolRecorder,
  call: unknown,
  at: { locator: Locator; time: undefined },
): void {
  if (!isObject(call)) return;
  const fn = isObject(call.function) ? call.function : {};
  const name = str(fn.name);
  if (!name) return;
  let args: Json = {};
  if (isObject(fn.arguments)) args = fn.arguments;
  else if (typeof fn.arguments === "string") {
    try {
      const parsed: unknown = JSON.parse(fn.arguments);
      if (isObject(parsed)) args = parsed;
    } catch {
      // Arguments still streaming or not JSON: no path or command in them.
    }
  }
  tools.call(str(call.id), name, args, at);
  if (DIFF_TOOLS.has(name)) {
    const path = str(args.filepath) ?? str(args.path);
    const diffs = Array.isArray(args.diffs)
      ? args.diffs
      : typeof args.diffs === "string"
      ? [args.diffs]
      : [];
    if (!path) return;
    for (const diff of diffs) {
      if (typeof diff !== "string") continue;
      for (const removed of removedBlocks(diff)) {
        tools.edit(path, removed, name, at);
      }
    }
  }
}

function continueDir(source: SourceEnv): string {
  return source.env.CONTINUE_GLOBAL_DIR || `${source.home}/.continue`;
}

function isSessionFile(path: string): boolean {
  const parts = path.split(/[\\/]+/);
  const name = parts.at(-1) ?? "";
  return parts.at(-2) === "sessions" && name.endsWith(".json") &&
    name !== LIST_NAME;
}

const sessionKind: FileKind = {
  id: "session",
  appendOnly: false,
  match: isSessionFile,
  parse: (path, options) => parseContinueSession(path, options),
};

/**
 * The Continue harness (VS Code / JetBrains extension and the `cn` CLI).
 *
 * @example
 * ```ts
 * import { continueDev } from "./continue.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(continueDev.roots({ home: "/h", env: {}, os: "linux" }), ["/h/.continue/sessions"]);
 * ```
 */
export const continueDev: Harness = {
  id: HARNESS_ID,
  name: "Continue",
  format:
    "one JSON document per session (sessions/<id>.json) with sessions.json as the list",
  envOverrides: ["CONTINUE_GLOBAL_DIR"],
  roots: (source) => [`${continueDir(source)}/sessions`],
  discover(source: SourceEnv): Promise<string[]> {
    return Promise.resolve(
      walkFiles(`${continueDir(source)}/sessions`, isSessionFile, {
        maxDepth: 0,
      }),
    );
  },
  kinds: [sessionKind],
  // 2: single `toolCallState` items and the Python server's session_state documents are read.
  // 3: the `cn` CLI's tools (Bash/Read/Write/Edit/MultiEdit), cancelled tool
  // calls as errors, its "Untitled Session" placeholder title.
  // 4: a command's output is an error when it exited non-zero, whatever
  // status the harness gave the result (shared ToolRecorder).
  // 5: a Terminal item's `status` ("Command failed with: … exit code N")
  // gives a command's exit code and flags its output an error.
  revision: 5,
  docs: {
    store:
      "`${CONTINUE_GLOBAL_DIR:-~/.continue}/sessions/<sessionId>.json` plus `sessions.json` (same on every OS: `%USERPROFILE%\\.continue` on Windows)",
    extracts:
      "user and assistant messages, built-in tool calls of the IDE extension and the `cn` CLI (run_terminal_command/Bash as command with the exit code its output or its Terminal item's `status` (`Command failed with: … exit code N`) reports, read/edit/create file tools and Read/Write/Edit/MultiEdit as files, single_find_and_replace/multi_edit/search_and_replace_in_file/Edit/MultiEdit removed text as edit), tool results as tool-output (`errored` or `canceled` → isError, also a command whose output reports a non-zero exit or whose Terminal item's status says `Command failed`; `toolCallStates`, or the older single `toolCallState`), conversation summaries as summary; title (not the `New Session`/`Untitled Session` placeholders) and creation date from the document and sessions.json, workspace (file URIs decoded) as project; sessions of the pre-2024 Python server (`session_state.history` steps): typed input as user, visible step descriptions as assistant",
    omits:
      "thinking messages and reasoning, system messages, context items (file and terminal contents the IDE attached: not something said), prompt logs; per-message times (Continue does not store them: records carry none)",
    verified:
      "built from Continue's published session types (core/index.d.ts: Session, ChatHistoryItem, ToolCallState with its six statuses), core/util/history.ts and the `cn` CLI's session.ts and tool definitions (extensions/cli/src/tools); no real sample, fixtures/continue",
  },
};
