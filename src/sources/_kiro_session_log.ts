/**
 * The session log Kiro writes since the IDE's 1.0 release (late June 2026),
 * which kiro-cli 3 shares: one folder per session,
 * `${KIRO_HOME:-~/.kiro}/sessions/<first 16 hex of the workspace path's
 * SHA-256>/<sessionId>/`, holding `messages.jsonl` and `session.json`
 * (`id`, `title`, `workspacePaths`, `createdAt`, `lastModifiedAt`). Each
 * line is `{id, timestamp, payload: {type, …}}`: `user` and `assistant`
 * carry `content` text, `tool_call` carries `toolCallId`, `toolName`, `args`
 * and `status`, `tool_result` carries `toolCallId`, `content` (a string,
 * often a JSON `{"response": …}`) and `success`. Session, turn, usage,
 * steering and sub-agent bookkeeping lines say nothing anyone said.
 *
 * @module
 */
import { basename, dirname, join } from "node:path";
import type { ParseOptions, ParseResult } from "../core/harness.ts";
import { cleanSpeech } from "../core/text.ts";
import { parseTime } from "../core/time.ts";
import type { Locator } from "../core/types.ts";
import { SessionBuilder } from "./_builder.ts";
import { isObject, list, obj, str } from "./_json.ts";
import { readJsonFile } from "./_json_doc.ts";
import { walkJsonLines } from "./_jsonl_walk.ts";
import { KIRO_DIALECT, KIRO_ID } from "./_kiro_common.ts";
import { ToolRecorder } from "./_tool_records.ts";

/** The name of the log in a session folder. */
const LOG_NAME = "messages.jsonl";

/** A workspace folder's name: the first 16 hex digits of its path's SHA-256. */
const WORKSPACE_HASH = /^[0-9a-f]{16}$/;

/** Tool-call statuses that mean the call never ran. */
const REFUSED = new Set(["denied", "rejected", "cancelled"]);

/**
 * Whether a path is a Kiro 1.0 session log:
 * `<workspace hash>/<sessionId>/messages.jsonl`.
 *
 * @param path A discovered file.
 * @returns True for a session log.
 * @example
 * ```ts
 * import { isKiroSessionLog } from "./_kiro_session_log.ts";
 * import { equal } from "node:assert/strict";
 * equal(isKiroSessionLog("/h/.kiro/sessions/072933c72e09bbbd/sess_1/messages.jsonl"), true);
 * equal(isKiroSessionLog("/h/.kiro/sessions/cli/s1.jsonl"), false);
 * ```
 */
export function isKiroSessionLog(path: string): boolean {
  return basename(path) === LOG_NAME &&
    WORKSPACE_HASH.test(basename(dirname(dirname(path))));
}

/** A message's text: a string, or the text of a list of parts. */
function messageText(content: unknown): string {
  if (typeof content === "string") return content;
  return list(content)
    .map((p) => typeof p === "string" ? p : str(obj(p).text) ?? "")
    .filter((t) => t.trim() !== "")
    .join("\n\n");
}

/**
 * A tool result's text: the `response` of a JSON-wrapped result, nothing for
 * an empty JSON object, else the content as written.
 */
function resultText(content: unknown): string {
  const text = messageText(content);
  if (!text.startsWith("{")) return text;
  try {
    const parsed: unknown = JSON.parse(text);
    if (!isObject(parsed)) return text;
    const response = parsed.response;
    if (typeof response === "string") return response;
    if (response !== undefined) return JSON.stringify(response);
    return Object.keys(parsed).length === 0 ? "" : text;
  } catch {
    return text;
  }
}

/**
 * Parses one Kiro 1.0 session log: prompts and replies, tool calls as
 * commands, files and edits, and their results (failed when `success` is
 * false or the person denied the call); the title, workspace and times from
 * `session.json` beside it.
 *
 * @param path The `messages.jsonl` file.
 * @param _options Unused (the log is read whole).
 * @returns The session, when the log holds any record.
 * @example
 * ```ts
 * import { parseKiroSessionLog } from "./_kiro_session_log.ts";
 * import { equal } from "node:assert/strict";
 * const dir = `${await Deno.makeTempDir()}/0123456789abcdef/sess_1`;
 * await Deno.mkdir(dir, { recursive: true });
 * await Deno.writeTextFile(`${dir}/session.json`, JSON.stringify({ id: "sess_1", workspacePaths: ["/w/app"] }));
 * await Deno.writeTextFile(`${dir}/messages.jsonl`, [
 *   { id: "a", timestamp: "2026-07-01T00:00:00Z", payload: { type: "user", content: "hi" } },
 *   { id: "b", timestamp: "2026-07-01T00:00:01Z", payload: { type: "assistant", content: "Hello." } },
 * ].map((l) => JSON.stringify(l)).join("\n") + "\n");
 * const source = { home: "/h", env: {}, os: "linux" };
 * const { sessions } = await parseKiroSessionLog(`${dir}/messages.jsonl`, { includeSubagents: true, source });
 * equal(sessions[0]?.project, "app");
 * ```
 */
export async function parseKiroSessionLog(
  path: string,
  _options: ParseOptions,
): Promise<ParseResult> {
  const meta = obj(await readJsonFile(join(dirname(path), "session.json")));
  const b = new SessionBuilder({
    harness: KIRO_ID,
    id: str(meta.id) ?? basename(dirname(path)),
    path,
    cwd: str(list(meta.workspacePaths)[0]) ?? str(list(meta.rootPaths)[0]),
  });
  const tools = new ToolRecorder(b, KIRO_DIALECT);
  const refused = new Set<string>();
  let skipped = 0;
  const walked = await walkJsonLines(path, {}, (line, where) => {
    const payload = line.payload;
    if (!isObject(payload) || typeof payload.type !== "string") {
      skipped++;
      return;
    }
    const id = str(line.id);
    const base: Locator = { path, line: where.line, offset: where.offset };
    const at = {
      locator: id ? { ...base, recordId: id } : base,
      time: parseTime(line.timestamp),
    };
    switch (payload.type) {
      case "user":
        b.add("user", cleanSpeech(messageText(payload.content)), at);
        break;
      case "assistant":
        tools.newMessage();
        b.add("assistant", cleanSpeech(messageText(payload.content)), at);
        break;
      case "tool_call": {
        const name = str(payload.toolName);
        if (!name) {
          skipped++;
          break;
        }
        const callId = str(payload.toolCallId);
        if (callId && REFUSED.has(str(payload.status) ?? "")) {
          refused.add(callId);
        }
        tools.call(callId, name, payload.args, at);
        break;
      }
      case "tool_result": {
        const callId = str(payload.toolCallId);
        const denied = callId !== undefined && refused.has(callId);
        const text = resultText(payload.content);
        tools.result(
          callId,
          text || (denied ? "(denied by the user)" : ""),
          payload.success === false || denied,
          at,
        );
        break;
      }
      default:
        // Session, turn, usage, steering, interaction and sub-agent
        // bookkeeping: nothing said.
        b.touch(at.time);
    }
  });
  const title = str(meta.title);
  if (title) b.setTitle(title);
  b.touch(parseTime(meta.createdAt));
  b.touch(parseTime(meta.lastModifiedAt));
  const session = b.build();
  return {
    sessions: session.records.length > 0 ? [session] : [],
    skipped: walked.skipped + skipped,
  };
}
