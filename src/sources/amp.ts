/**
 * Amp (Sourcegraph): one JSON thread object per conversation at
 * `${XDG_DATA_HOME:-~/.local/share}/amp/threads/T-<uuid>.json`, rewritten as
 * the thread grows: `{id, created, title, env, messages:[{role, content[]}]}`
 * with Anthropic-style blocks (`text`, `thinking`, `tool_use`, and
 * `tool_result` blocks whose `run` holds the status and result).
 *
 * Since the spring 2026 CLI, threads live on ampcode.com and Amp writes no
 * new local thread files (`~/.cache/amp/logs/threads/T-<id>.log` is a
 * content-free operational log). The files already on disk stay readable,
 * and a thread saved with `amp threads export <id>` into `threads/` has the
 * same shape, with the 2026 tool set (`shell_command`, `apply_patch`, `Task`).
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
import { readJsonDocument } from "./_json_doc.ts";
import { isObject, type Json, str } from "./_json.ts";
import { segments } from "./_paths.ts";
import { pathOfFileUri } from "../core/paths.ts";
import { presentVscodeUserDirs } from "./_roots.ts";
import { type ToolDialect, ToolRecorder } from "./_tool_records.ts";

const HARNESS_ID = "amp";

const DIALECT: ToolDialect = {
  // `shell_command` is the shell of the GPT-backed modes (2026 builds).
  shell: new Set(["Bash", "bash", "shell_command"]),
  commandKeys: ["cmd", "command"],
  search: new Set(["Grep"]),
  pathTools: new Set(["Read", "read_file", "create_file", "format_file"]),
  pathKeys: ["path", "file_path"],
  editTools: new Set(["edit_file"]),
  oldKeys: ["old_str", "old_string"],
};

/** Run statuses that mean the tool did not succeed. */
const FAILED = new Set(["error", "cancelled", "rejected-by-user"]);

/** The VS Code extension whose globalStorage keeps its own thread copies. */
const EXTENSION_ID = "sourcegraph.amp";

/**
 * Thread folders: the CLI's `threads/`, and the VS Code extension's
 * `threads3/` (and `threads/`) under its globalStorage.
 */
const THREAD_DIRS = new Set(["threads", "threads3"]);

function isThreadPath(path: string): boolean {
  const parts = segments(path);
  return THREAD_DIRS.has(parts.at(-2) ?? "") &&
    /^T-[^/\\]+\.json$/.test(parts.at(-1) ?? "");
}

/** A folder from a `file://` URI, a VS Code URI object or a plain path. */
function folderOf(uri: unknown): string | undefined {
  if (isObject(uri)) return str(uri.fsPath) ?? str(uri.path);
  const text = str(uri);
  if (!text?.startsWith("file://")) {
    return text?.startsWith("/") ? text : undefined;
  }
  return pathOfFileUri(text);
}

/**
 * The workspace folder of a thread: its first tree's URI (a `file://` string
 * from the CLI, a URI object with `fsPath` from the VS Code extension), else
 * `env.initial.cwd`.
 */
function workspaceOf(thread: Json): string | undefined {
  const env = isObject(thread.env) ? thread.env : {};
  const initial = isObject(env.initial) ? env.initial : {};
  const trees = Array.isArray(initial.trees) ? initial.trees : [];
  for (const tree of trees) {
    const folder = isObject(tree) ? folderOf(tree.uri) : undefined;
    if (folder) return folder;
  }
  return str(initial.cwd) || undefined;
}

/**
 * Folder names a cloud editor gives every project (Replit's
 * `/home/runner/workspace`, a container's `/workspace`): they name no project.
 */
const GENERIC_FOLDERS = new Set(["workspace", "workspaces", "project", "repo"]);

/**
 * The project of a thread whose folder is a cloud editor's generic one: the
 * name of the git repository its first tree records
 * (`https://github.com/x/club-dashboard` → `club-dashboard`), else none.
 */
function repositoryProject(thread: Json): string | undefined {
  const folder = workspaceOf(thread);
  const base = folder ? segments(folder).at(-1)?.toLowerCase() : undefined;
  if (!base || !GENERIC_FOLDERS.has(base)) return undefined;
  const env = isObject(thread.env) ? thread.env : {};
  const initial = isObject(env.initial) ? env.initial : {};
  const tree = Array.isArray(initial.trees) ? initial.trees[0] : undefined;
  const repo = isObject(tree) && isObject(tree.repository)
    ? str(tree.repository.url)
    : undefined;
  const name = repo?.replace(/\.git$/, "").split(/[\/:]/).filter(Boolean)
    .at(-1);
  return name || undefined;
}

/** The text blocks of an MCP-shaped `content` list. */
function contentText(list: unknown[]): string {
  return list
    .map((c) => isObject(c) && typeof c.text === "string" ? c.text : "")
    .filter((t) => t.length > 0)
    .join("\n");
}

/**
 * A tool run's output text and explicit exit code. `run.result` is shaped by
 * the tool: a string (Task), `{output, exitCode}` (Bash, shell_command),
 * `{content: [...]}` (skill, MCP tools), `{files, summary}` (apply_patch).
 */
function runOutput(run: Json): { text: string; exitCode?: number } {
  // A run stopped before it finished (cancelled, interrupted) may hold only
  // what it printed so far, in `progress`.
  const result = run.result ?? run.error ?? run.progress;
  if (typeof result === "string") return { text: result };
  if (Array.isArray(result)) {
    return {
      text: result.filter((r) => typeof r === "string").join("\n"),
    };
  }
  if (isObject(result)) {
    let text = str(result.output) ?? str(result.content) ??
      str(result.message);
    if (text === undefined && Array.isArray(result.content)) {
      text = contentText(result.content);
    }
    if (text === undefined && Array.isArray(result.files)) {
      const parts = [str(result.summary) ?? ""];
      for (const file of result.files) {
        if (isObject(file)) parts.push(str(file.diff) ?? str(file.uri) ?? "");
      }
      text = parts.filter((p) => p.length > 0).join("\n");
    }
    const out: { text: string; exitCode?: number } = {
      text: text ?? JSON.stringify(result),
    };
    if (typeof result.exitCode === "number") out.exitCode = result.exitCode;
    return out;
  }
  return { text: "" };
}

/** The patch text of an `apply_patch` call (Codex-style envelope). */
function patchOf(input: unknown): string | undefined {
  if (typeof input === "string") return input;
  if (!isObject(input)) return undefined;
  return str(input.patchText) ?? str(input.patch) ?? str(input.input);
}

/**
 * When an assistant turn happened: Amp stamps only user turns (`meta.sentAt`);
 * 2026 builds also stamp `usage.timestamp` and each block's `startTime`.
 */
function messageTime(message: Json): number | undefined {
  const meta = isObject(message.meta) ? message.meta : {};
  const usage = isObject(message.usage) ? message.usage : {};
  const first = Array.isArray(message.content) ? message.content[0] : {};
  return parseTime(meta.sentAt) ?? parseTime(usage.timestamp) ??
    (isObject(first) ? parseTime(first.startTime) : undefined);
}

/** Options for {@linkcode parseAmpThread}. */
export interface AmpParseOptions extends ParseOptions {
  /** Largest thread file read. Default 256 MiB. */
  maxDocumentBytes?: number;
}

/**
 * Parses one Amp thread file.
 *
 * @param path The `T-<uuid>.json` file.
 * @param options Size cap.
 * @returns The session, if the thread held messages.
 * @example
 * ```ts
 * import { parseAmpThread } from "./amp.ts";
 * import { equal } from "node:assert/strict";
 * const dir = await Deno.makeTempDir();
 * await Deno.mkdir(`${dir}/threads`);
 * const path = `${dir}/threads/T-1.json`;
 * await Deno.writeTextFile(path, JSON.stringify({
 *   id: "T-1", created: 1767225600000, title: "Port check",
 *   messages: [{ role: "user", messageId: 0, content: [{ type: "text", text: "is 8080 free" }] }],
 * }));
 * const source = { home: dir, env: {}, os: "linux" };
 * const { sessions } = await parseAmpThread(path, { includeSubagents: true, source });
 * equal(sessions[0]?.title, "Port check");
 * ```
 */
export async function parseAmpThread(
  path: string,
  options: AmpParseOptions,
): Promise<ParseResult> {
  const doc = await readJsonDocument(path, options.maxDocumentBytes);
  if (!doc.ok) {
    return { sessions: [], skipped: doc.reason === "missing" ? 0 : 1 };
  }
  if (!isObject(doc.value)) return { sessions: [], skipped: 1 };
  const thread = doc.value;
  const stem = (segments(path).at(-1) ?? "").replace(/\.json$/, "");
  const builder = new SessionBuilder({
    harness: HARNESS_ID,
    id: str(thread.id) ?? stem,
    path,
    cwd: workspaceOf(thread),
    project: repositoryProject(thread),
  });
  const tools = new ToolRecorder(builder, DIALECT);
  const created = parseTime(thread.created);
  builder.touch(created);
  let skipped = 0;
  let time = created;
  const messages = Array.isArray(thread.messages) ? thread.messages : [];
  for (const [i, message] of messages.entries()) {
    if (!isObject(message) || !Array.isArray(message.content)) {
      skipped++;
      continue;
    }
    const mid = message.messageId;
    const locator: Locator = {
      path,
      recordId: typeof mid === "number" || (typeof mid === "string" && mid)
        ? String(mid)
        : str(message.protocolMessageID) ?? String(i),
    };
    // A turn with no time of its own takes the one before it.
    time = messageTime(message) ?? time;
    const at = { locator, time };
    if (message.role === "user") {
      const texts: string[] = [];
      for (const block of message.content) {
        if (!isObject(block)) continue;
        if (block.type === "text" && typeof block.text === "string") {
          texts.push(block.text);
        } else if (block.type === "tool_result") {
          const run = isObject(block.run) ? block.run : {};
          const { text, exitCode } = runOutput(run);
          const status = str(run.status) ?? "";
          tools.result(
            str(block.toolUseID) ?? str(block.tool_use_id),
            text,
            FAILED.has(status) ||
              (exitCode !== undefined && exitCode !== 0),
            at,
            exitCode,
          );
        }
      }
      builder.add("user", cleanSpeech(texts.join("\n\n")), at);
    } else if (message.role === "assistant") {
      tools.newMessage();
      let texts: string[] = [];
      const flush = (): void => {
        if (texts.length === 0) return;
        builder.add("assistant", cleanSpeech(texts.join("\n\n")), at);
        texts = [];
      };
      for (const block of message.content) {
        if (!isObject(block)) continue;
        if (block.type === "text" && typeof block.text === "string") {
          texts.push(block.text);
        } else if (block.type === "tool_use") {
          flush();
          const name = str(block.name);
          if (!name) continue;
          tools.call(str(block.id), name, block.input, at);
          if (name === "apply_patch") {
            tools.patch(patchOf(block.input) ?? "", name, at);
          }
        }
      }
      flush();
    } else if (message.role === "info") {
      // A compacted thread: Amp puts the summary that replaced the turns
      // before it in an `info` message (`summary.type` "message"); a
      // "thread" summary only names another thread.
      for (const block of message.content) {
        if (!isObject(block) || block.type !== "summary") continue;
        const summary = isObject(block.summary) ? block.summary : {};
        const text = summary.type === "message"
          ? str(summary.summary)
          : undefined;
        if (text?.trim()) builder.add("summary", cleanSpeech(text), at);
      }
    }
  }
  const title = str(thread.title);
  if (title) builder.setTitle(title);
  const session = builder.build();
  return { sessions: session.records.length > 0 ? [session] : [], skipped };
}

/**
 * The Amp data directories: `DEJA_AMP_ROOT` alone, else `$XDG_DATA_HOME/amp`
 * (or `~/.local/share/amp`) and the extension's globalStorage folder in every
 * VS Code host installed here.
 */
function ampRoots(source: SourceEnv): string[] {
  if (source.env.DEJA_AMP_ROOT) return [source.env.DEJA_AMP_ROOT];
  const data = source.env.XDG_DATA_HOME || `${source.home}/.local/share`;
  return [
    `${data.replace(/[\\/]+$/, "")}/amp`,
    ...presentVscodeUserDirs(source).map((user) =>
      `${user}/globalStorage/${EXTENSION_ID}`
    ),
  ];
}

/**
 * The thread files under the roots. The CLI's copy of a thread comes first;
 * an extension copy of the same thread (same `T-<id>.json` name, the thread
 * id) is left out.
 */
function threadFiles(source: SourceEnv): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const root of ampRoots(source)) {
    const dirs = segments(root).at(-1) === EXTENSION_ID
      ? [`${root}/threads3`, `${root}/threads`]
      : [`${root}/threads`];
    for (const dir of dirs) {
      for (const path of walkFiles(dir, isThreadPath, { maxDepth: 0 })) {
        const name = segments(path).at(-1) ?? path;
        if (seen.has(name)) continue;
        seen.add(name);
        out.push(path);
      }
    }
  }
  return out;
}

const threadKind: FileKind = {
  id: "thread",
  appendOnly: false,
  match: isThreadPath,
  parse: (path, options) => parseAmpThread(path, options),
};

/**
 * The Amp harness.
 *
 * @example
 * ```ts
 * import { amp } from "./amp.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(amp.roots({ home: "/h", env: {}, os: "linux" }), ["/h/.local/share/amp"]);
 * ```
 */
export const amp: Harness = {
  id: HARNESS_ID,
  name: "Amp",
  format: "one JSON thread object per conversation (threads/T-<uuid>.json)",
  // 3: the summary of a compacted thread (`info` message, `summary` block);
  // a stopped run's `progress` when it has no result.
  // 4: a command's output is an error when it exited non-zero, whatever
  // status the harness gave the result (shared ToolRecorder).
  // 5: the VS Code extension's thread copies (globalStorage `threads3/`),
  // workspace from a tree's URI object or `env.initial.cwd`.
  // 6: a Grep call's `pattern`, `path` and `glob` as a command (tool `grep`)
  // before its output.
  // 7: a cloud editor's generic folder (`/home/runner/workspace`) gives way
  // to the repository's name as the project.
  revision: 7,
  envOverrides: ["XDG_DATA_HOME", "DEJA_AMP_ROOT"],
  roots: ampRoots,
  discover(source: SourceEnv): Promise<string[]> {
    return Promise.resolve(threadFiles(source));
  },
  kinds: [threadKind],
  docs: {
    store:
      "`${XDG_DATA_HOME:-~/.local/share}/amp/threads/T-<uuid>.json` (the CLI uses this path on macOS and Linux too; `DEJA_AMP_ROOT` names the amp directory and replaces the others), and the VS Code extension's copies in `<User>/globalStorage/sourcegraph.amp/threads3/` (or `threads/`) of every VS Code host installed here, the same JSON thread shape; a thread in both is read once, from the CLI's folder. Amp CLI builds from about April 2026 keep threads on ampcode.com and write no new local thread files: only threads written before then, or saved there with `amp threads export <id>`, can be read",
    extracts:
      "user text, assistant text, tool calls as commands (Bash `cmd`, `shell_command` `command`, exit code from the run result), what a Grep call searched for (`pattern`, `path`, `glob`) as a command (tool `grep`: `grep <pattern> [<path>] [--glob <glob>]`, no exit code) before its output, files (Read, create_file, edit_file, format_file, every file of an `apply_patch` patch), edits (edit_file old_str, the removed lines of an apply_patch), tool results as tool output (isError for error/cancelled/rejected runs or a non-zero exit; `{output}`, `{content: [...]}`, `{files, summary}` and plain-string results; a run with no result, what its `progress` holds), the summary of a compacted thread (an `info` message's `summary` block of type `message`) as `summary`, the thread title, the first workspace tree as project (a `file://` URI or a URI object's `fsPath`, else `env.initial.cwd`; when that folder is a cloud editor's generic `workspace`, `workspaces`, `project` or `repo`, the name of the git repository the tree records); each turn's time from `meta.sentAt`, `usage.timestamp` or its first block's `startTime`, else the turn before it",
    omits:
      "thinking blocks, usage ledgers and debug state, `history.jsonl` (prompt lines with no session or time; every prompt of a local thread is also in it), `~/.cache/amp/logs/threads/*.log` (operational logs: frame metadata and tool inputs, no message text), thread relationships (handoff/fork links; shape unverified), the extension's copy of a thread the CLI folder also holds (same id)",
    verified:
      "3 real threads from the Amp CLI (thread versions 27–194, text/thinking/tool_use/tool_result blocks, an in-progress run, Grep calls with `pattern` and `glob`); the 2026 tool set, result shapes and the move to server-side threads from public first-hand format notes (empathic/toolpath docs/agents/formats/amp, July 2026) and user reports (no real sample of a 2026 thread); the `info` summary block and the extension's globalStorage `threads3/` copies (same thread JSON; `env.initial.cwd`, tree URI objects) from public Amp thread readers (jonathan-kellerai/cross_agent_session_resumer src/providers/amp.rs and another indexer's amp adapter, which also scans `threads/` there), no real extension sample, in src/sources/amp_test.ts",
  },
};
