/**
 * Kiro, AWS's agentic IDE and its CLI, in the three places they keep chats:
 *
 * - kiro-cli 2.x: one append-only JSONL log per session under
 *   `${KIRO_HOME:-~/.kiro}/sessions/cli/<sessionId>.jsonl`, with
 *   `<sessionId>.json` beside it holding the title, cwd, times and, for a
 *   sub-agent, its parent. Each line is `{version, kind, data}`: a `Prompt`,
 *   an `AssistantMessage` (text and `toolUse` blocks), `ToolResults`, a
 *   `Compaction` (a `/compact` summary) or a `Clear` that wipes the
 *   conversation so far.
 * - the Kiro IDE since 1.0, and kiro-cli 3: one `messages.jsonl` per
 *   session under `${KIRO_HOME:-~/.kiro}/sessions/<workspace hash>/<sessionId>/`
 *   (`_kiro_session_log.ts`).
 * - kiro-cli 1.x: the SQLite store `data.sqlite3` in its data folder
 *   (`_kiro_db.ts`); users who upgraded still have it on disk.
 * - the Kiro IDE before 1.0: one JSON file per chat in its agent extension's
 *   global storage (`_kiro_ide.ts`).
 *
 * @module
 */
import { basename, dirname, join } from "node:path";
import type {
  FileKind,
  Harness,
  ParseOptions,
  ParseResult,
  SourceEnv,
} from "../core/harness.ts";
import { cleanSpeech } from "../core/text.ts";
import { parseTime } from "../core/time.ts";
import type { Locator } from "../core/types.ts";
import { SessionBuilder } from "./_builder.ts";
import { walkJsonLines, type WalkJsonLinesOptions } from "./_jsonl_walk.ts";
import { isObject, list, obj, str } from "./_json.ts";
import { readJsonFile } from "./_json_doc.ts";
import { parseKiroCliDb } from "./_kiro_db.ts";
import { parseKiroIdeSession } from "./_kiro_ide.ts";
import { isKiroSessionLog, parseKiroSessionLog } from "./_kiro_session_log.ts";
import { KIRO_DIALECT, KIRO_ID, kiroResultText } from "./_kiro_common.ts";
import {
  localAppData,
  macAppSupport,
  roamingAppData,
  walkRoots,
  xdgDataHome,
} from "./_roots.ts";
import { isRegularFileSync } from "./_paths.ts";
import { ToolRecorder } from "./_tool_records.ts";

const HARNESS_ID = KIRO_ID;

/**
 * What a log parse returns as `state`, to resume at `safeOffset`. Malformed
 * state makes the parser read the file from its start.
 */
export interface KiroState {
  /** The next record's seq. */
  nextSeq: number;
  /** First seq not yet wiped by a `Clear`. */
  activeFrom: number;
}

function isState(value: unknown): value is KiroState {
  return isObject(value) && Number.isInteger(value.nextSeq) &&
    Number.isInteger(value.activeFrom) &&
    (value.activeFrom as number) <= (value.nextSeq as number) &&
    (value.activeFrom as number) >= 0;
}

/** The text blocks of a message, joined. */
function texts(content: unknown): string {
  return list(content)
    .map((b) => isObject(b) && b.kind === "text" ? str(b.data) ?? "" : "")
    .filter((t) => t.trim() !== "")
    .join("\n\n");
}

/** What `<sessionId>.json` beside a log says. */
interface KiroMeta {
  title?: string;
  cwd?: string;
  parent?: string;
  /** The session was created for a sub-agent (`session_created_reason`). */
  subagent?: boolean;
  created?: number;
  updated?: number;
}

async function readMeta(path: string): Promise<KiroMeta> {
  const doc = await readJsonFile(path.replace(/\.jsonl$/, ".json"));
  if (!isObject(doc)) return {};
  const meta: KiroMeta = {};
  const title = str(doc.title);
  if (title) meta.title = title;
  const cwd = str(doc.cwd);
  if (cwd) meta.cwd = cwd;
  const parent = str(doc.parent_session_id);
  if (parent) meta.parent = parent;
  if (parent || doc.session_created_reason === "subagent") {
    meta.subagent = true;
  }
  const created = parseTime(doc.created_at);
  if (created !== undefined) meta.created = created;
  const updated = parseTime(doc.updated_at);
  if (updated !== undefined) meta.updated = updated;
  return meta;
}

/**
 * Parses one kiro-cli session log (from `options.offset` when resuming):
 * prompts, replies, tool calls and results, `/compact` summaries; a `Clear`
 * puts everything before it under a `clear` mark.
 *
 * @param path The `<sessionId>.jsonl` file.
 * @param options Resume point and state.
 * @returns The session (only its new records when resuming), the safe
 *   offset and the state to resume with.
 * @example
 * ```ts
 * import { parseKiroLog } from "./kiro.ts";
 * import { equal } from "node:assert/strict";
 * const path = `${await Deno.makeTempDir()}/s1.jsonl`;
 * await Deno.writeTextFile(path, [
 *   { version: "v1", kind: "Prompt", data: { message_id: "a", content: [{ kind: "text", data: "hi" }], meta: { timestamp: 1767225600 } } },
 *   { version: "v1", kind: "AssistantMessage", data: { message_id: "b", content: [{ kind: "text", data: "Hello." }] } },
 * ].map((l) => JSON.stringify(l)).join("\n") + "\n");
 * const source = { home: "/h", env: {}, os: "linux" };
 * const { sessions } = await parseKiroLog(path, { includeSubagents: true, source });
 * equal(sessions[0]?.records[1]?.text, "Hello.");
 * ```
 */
export async function parseKiroLog(
  path: string,
  options: ParseOptions,
): Promise<ParseResult> {
  const meta = await readMeta(path);
  if (meta.subagent && !options.includeSubagents) {
    return { sessions: [], skipped: 0, safeOffset: 0 };
  }
  const resume = options.offset !== undefined && options.offset > 0 &&
    isState(options.state);
  const state = resume ? options.state as KiroState : undefined;
  const b = new SessionBuilder({
    harness: HARNESS_ID,
    id: basename(path).replace(/\.jsonl$/, ""),
    path,
    cwd: meta.cwd,
    nextSeq: state?.nextSeq ?? 0,
    parent: meta.parent,
    lineage: meta.subagent ? "subagent" : undefined,
  });
  const tools = new ToolRecorder(b, KIRO_DIALECT);
  let activeFrom = state?.activeFrom ?? 0;
  let time: number | undefined;
  let skipped = 0;
  const walkOptions: WalkJsonLinesOptions = {};
  if (resume) {
    walkOptions.offset = options.offset as number;
    if (options.firstLine !== undefined) {
      walkOptions.firstLine = options.firstLine;
    }
  }
  const walked = await walkJsonLines(
    path,
    walkOptions,
    (line, where) => {
      const data = obj(line.data);
      const id = str(data.message_id);
      const base: Locator = { path, line: where.line, offset: where.offset };
      const locator: Locator = id ? { ...base, recordId: id } : base;
      switch (line.kind) {
        case "Prompt":
          time = parseTime(obj(data.meta).timestamp) ?? time;
          b.add("user", cleanSpeech(texts(data.content)), { locator, time });
          break;
        case "AssistantMessage": {
          tools.newMessage();
          b.add("assistant", cleanSpeech(texts(data.content)), {
            locator,
            time,
          });
          for (const block of list(data.content)) {
            if (!isObject(block) || block.kind !== "toolUse") continue;
            const use = obj(block.data);
            const name = str(use.name);
            if (name) {
              tools.call(str(use.toolUseId), name, use.input, {
                locator,
                time,
              });
            }
          }
          break;
        }
        case "ToolResults":
          for (const block of list(data.content)) {
            if (!isObject(block) || block.kind !== "toolResult") continue;
            const result = obj(block.data);
            const { text, code } = kiroResultText(result.content);
            tools.result(
              str(result.toolUseId),
              text,
              result.status === "error" || (code !== undefined && code !== 0),
              { locator, time },
              code,
            );
          }
          break;
        case "Compaction":
          // `/compact`: what the conversation carries on with; the records
          // it summarised stay in the log.
          b.add("summary", str(data.summary) ?? "", { locator, time });
          break;
        case "Clear":
          b.mark("clear", activeFrom, b.nextSeq);
          activeFrom = b.nextSeq;
          break;
        default:
          if (typeof line.kind !== "string") skipped++;
      }
    },
  );
  if (meta.title) b.setTitle(meta.title);
  if (!resume) b.touch(meta.created);
  b.touch(meta.updated);
  const session = b.build();
  const next: KiroState = { nextSeq: b.nextSeq, activeFrom };
  return {
    sessions: session.records.length > 0 || session.marks.length > 0 ||
        resume
      ? [session]
      : [],
    safeOffset: walked.safeOffset,
    safeLine: walked.safeLine,
    state: next,
    skipped: walked.skipped + skipped,
  };
}

/** `${KIRO_HOME:-~/.kiro}/sessions`, where both CLI 2.x and 1.0 session logs live. */
function kiroSessions(source: SourceEnv): string {
  const home = source.env.KIRO_HOME || join(source.home, ".kiro");
  return join(home, "sessions");
}

/** The 2.x CLI sessions folder: `DEJA_KIRO_ROOT`, else `<sessions>/cli`. */
function cliLogRoot(source: SourceEnv): string {
  return source.env.DEJA_KIRO_ROOT || join(kiroSessions(source), "cli");
}

/**
 * The folder of 1.0 session logs (one folder per workspace hash):
 * `DEJA_KIRO_SESSIONS_ROOT`, else `${KIRO_HOME:-~/.kiro}/sessions`.
 */
function sessionLogRoot(source: SourceEnv): string {
  return source.env.DEJA_KIRO_SESSIONS_ROOT || kiroSessions(source);
}

/**
 * The 1.x CLI store: `DEJA_KIRO_DB`, else `data.sqlite3` in kiro-cli's data
 * folder (`${XDG_DATA_HOME:-~/.local/share}/kiro-cli` on Linux,
 * `~/Library/Application Support/kiro-cli` on macOS, `%LOCALAPPDATA%\kiro-cli`
 * on Windows).
 */
function cliDbPath(source: SourceEnv): string {
  if (source.env.DEJA_KIRO_DB) return source.env.DEJA_KIRO_DB;
  const base = source.os === "darwin"
    ? macAppSupport(source)
    : source.os === "windows"
    ? localAppData(source)
    : xdgDataHome(source);
  return join(base, "kiro-cli", "data.sqlite3");
}

/**
 * The IDE's sessions folder: `DEJA_KIRO_IDE_ROOT`, else
 * `<Kiro User>/globalStorage/kiro.kiroagent/workspace-sessions`.
 */
function ideRoot(source: SourceEnv): string {
  if (source.env.DEJA_KIRO_IDE_ROOT) return source.env.DEJA_KIRO_IDE_ROOT;
  const base = source.os === "darwin"
    ? macAppSupport(source)
    : source.os === "windows"
    ? roamingAppData(source)
    : source.env.XDG_CONFIG_HOME || join(source.home, ".config");
  return join(
    base,
    "Kiro",
    "User",
    "globalStorage",
    "kiro.kiroagent",
    "workspace-sessions",
  );
}

function kiroRoots(source: SourceEnv): string[] {
  return [
    cliLogRoot(source),
    sessionLogRoot(source),
    cliDbPath(source),
    ideRoot(source),
  ];
}

const logKind: FileKind = {
  id: "cli-log",
  appendOnly: true,
  match: (path) => path.endsWith(".jsonl") && !isKiroSessionLog(path),
  parse: (path, options) => parseKiroLog(path, options),
};

const sessionLogKind: FileKind = {
  id: "session-log",
  appendOnly: false,
  match: isKiroSessionLog,
  parse: (path, options) => parseKiroSessionLog(path, options),
};

const dbKind: FileKind = {
  id: "cli-db",
  appendOnly: false,
  match: (path) => basename(path) === "data.sqlite3",
  parse: (path, options) => parseKiroCliDb(path, options),
};

const ideKind: FileKind = {
  id: "ide-session",
  appendOnly: false,
  match: (path) => path.endsWith(".json") && basename(path) !== "sessions.json",
  parse: (path, options) => parseKiroIdeSession(path, options),
};

/**
 * The Kiro harness: kiro-cli 2.x session logs, the session logs of the IDE
 * since 1.0 and kiro-cli 3, the 1.x CLI's SQLite store and the older IDE's
 * chat sessions.
 *
 * @example
 * ```ts
 * import { kiro } from "./kiro.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(kiro.roots({ home: "/h", env: {}, os: "linux" }), [
 *   "/h/.kiro/sessions/cli",
 *   "/h/.kiro/sessions",
 *   "/h/.local/share/kiro-cli/data.sqlite3",
 *   "/h/.config/Kiro/User/globalStorage/kiro.kiroagent/workspace-sessions",
 * ]);
 * ```
 */
export const kiro: Harness = {
  id: HARNESS_ID,
  name: "Kiro",
  format:
    "append-only JSONL (Prompt / AssistantMessage / ToolResults / Clear) per kiro-cli 2.x session, metadata JSON beside it; Kiro 1.0 / kiro-cli 3 `messages.jsonl` (`{id, timestamp, payload}` lines) with `session.json` per session folder; kiro-cli 1.x SQLite `data.sqlite3` (ConversationState JSON per row); Kiro IDE session JSON per chat",
  envOverrides: [
    "KIRO_HOME",
    "DEJA_KIRO_ROOT",
    "DEJA_KIRO_SESSIONS_ROOT",
    "DEJA_KIRO_DB",
    "DEJA_KIRO_IDE_ROOT",
    "XDG_DATA_HOME",
    "XDG_CONFIG_HOME",
    "APPDATA",
    "LOCALAPPDATA",
  ],
  roots: kiroRoots,
  discover(source: SourceEnv): Promise<string[]> {
    const found = walkRoots([cliLogRoot(source)], logKind.match, {
      maxDepth: 0,
    });
    found.push(
      ...walkRoots([sessionLogRoot(source)], sessionLogKind.match, {
        maxDepth: 2,
      }),
    );
    const db = cliDbPath(source);
    if (dbKind.match(db) && isRegularFileSync(db)) found.push(db);
    // Sessions sit one folder down, in their workspace's folder.
    const ide = ideRoot(source);
    found.push(
      ...walkRoots([ide], ideKind.match, { maxDepth: 1 })
        .filter((p) => dirname(p) !== ide),
    );
    return Promise.resolve(found);
  },
  kinds: [logKind, sessionLogKind, dbKind, ideKind],
  // 4: the 1.0 session logs (`<workspace hash>/<id>/messages.jsonl`) read;
  // Kiro 1.0 tool names (readFile, str_replace, runCommand, …) understood;
  // 2.x `Compaction` summaries read, and a session created for a sub-agent
  // (`session_created_reason`) is one.
  // 5: an IDE chat or metadata file opening with a UTF-8 BOM is read (it
  // was skipped as malformed).
  revision: 5,
  docs: {
    store:
      "kiro-cli 2.x: `${KIRO_HOME:-~/.kiro}/sessions/cli/<sessionId>.jsonl` with `<sessionId>.json` beside it (same on every OS; `DEJA_KIRO_ROOT` names the folder). Kiro IDE since 1.0 and kiro-cli 3: `${KIRO_HOME:-~/.kiro}/sessions/<first 16 hex of the workspace path's SHA-256>/<sessionId>/messages.jsonl` with `session.json` beside it (`DEJA_KIRO_SESSIONS_ROOT` names the sessions folder). kiro-cli 1.x: `data.sqlite3` in `${XDG_DATA_HOME:-~/.local/share}/kiro-cli` (Linux), `~/Library/Application Support/kiro-cli` (macOS), `%LOCALAPPDATA%\\kiro-cli` (Windows); `DEJA_KIRO_DB` names the file. Kiro IDE before 1.0: `<User>/globalStorage/kiro.kiroagent/workspace-sessions/<base64 workspace>/<sessionId>.json`, `<User>` being `~/.config/Kiro/User`, `~/Library/Application Support/Kiro/User` or `%APPDATA%\\Kiro\\User` (`DEJA_KIRO_IDE_ROOT` names the workspace-sessions folder)",
    extracts:
      "2.x logs: prompts and replies (text blocks), tool calls as commands (`shell`) with the exit status of their result, files (read/write) and edits (old_str), tool results (stdout and stderr) with error status; `Compaction` lines' `/compact` summary as a summary record; the metadata's title, cwd as project, `parent_session_id` as sub-agent parent (a `session_created_reason` of `subagent` also makes the session a sub-agent's); a `Clear` puts what came before under a `clear` mark. 1.0 session logs: `user` and `assistant` lines with their times, `tool_call`s as commands (`execute_bash`, `execute_pwsh`, `runCommand`), files (`readFile`, `readFiles` `paths`, `fs_write`, `fs_append`, `writeFile`, `str_replace` by `path` or `targetFile`) and edits (`str_replace` `oldStr`), `tool_result`s as output (a JSON result's `response`) failed when `success` is false or the call was denied; session.json's `id`, `title`, first `workspacePaths` entry as the working directory, `createdAt` and `lastModifiedAt`. 1.x store (`conversations_v2`, else `conversations`): one session per conversation with prompts, replies, tool uses (`execute_bash` as commands, `fs_read`/`fs_write` paths and `old_str` edits), `ToolUseResults` and cancelled tool uses with `Error` status and shell exit codes, the compaction summary, the prompt's cwd (else the row's folder key) and the row times. Older IDE sessions: user and assistant text, title, workspace folder (from `workspaceDirectory` or the base64 folder name), `sessions.json` dates",
    omits:
      "thinking and image blocks, tool-use purposes, model and credit metadata; in the 1.x store, the `transcript` copy, tool specs and context files; in 1.0 session logs, the session-start system prompt, steering inclusions, turn, usage, interaction and tombstone lines, and sub-agent start/complete lines (their shape and any child session are unverified); in older IDE sessions, tool traffic and prompt logs (their shape was not verified), and per-message times (the file stamps none that were verified); replies carry their prompt's time (the 2.x log and 1.x store stamp prompts only)",
    verified:
      'fixtures only: no real Kiro sample; the 2.x line shapes, `Clear`, the metadata fields and `KIRO_HOME` from public kiro-cli 2.x session readers, `Compaction` (`data.summary`) and `session_created_reason` from records a public reader captured from a real `kiro-cli acp` 2.24.1 session (the `ResetTo` and `CancelledPrompt` kinds unread: `/rewind` forks a new session, and a cancel was never observed); the 1.x table (`conversations_v2` migration) and ConversationState/UserMessage/AssistantMessage serde shapes from aws/amazon-q-developer-cli `crates/chat-cli` (kiro-cli\'s predecessor), its data-folder names from public kiro-cli readers; the IDE folder and session fields from public Kiro IDE readers; the 1.0 session log (folder layout, `session.json` fields, line and payload shapes, tool names) from two public readers built against real logs, DevOps-Nirvana/Kiro-Ception 1.0.9 (`src/kiro_ception/ide_loader.py`, "Kiro 1.0 new session format", July 2026) and IronDeploy/IronBrake\'s watcher tests ("Kiro v3"), no real sample',
  },
};
