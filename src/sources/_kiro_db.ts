/**
 * kiro-cli 1.x (the Amazon Q Developer CLI's successor) keeps each
 * conversation as one JSON `ConversationState` in its SQLite store,
 * `data.sqlite3`: table `conversations_v2` (key = working directory,
 * `conversation_id`, `value`, `created_at` and `updated_at` in ms), or the
 * older `conversations` (key, value) from before several conversations per
 * folder. The store is rewritten in place, so it is read whole.
 *
 * @module
 */
import type { ParseOptions, ParseResult } from "../core/harness.ts";
import { cleanSpeech } from "../core/text.ts";
import { parseTime } from "../core/time.ts";
import type { Locator, Session } from "../core/types.ts";
import { SessionBuilder } from "./_builder.ts";
import { isObject, type Json, list, obj, str } from "./_json.ts";
import { KIRO_DIALECT, KIRO_ID, kiroResultText } from "./_kiro_common.ts";
import {
  col,
  numberColumn,
  readStore,
  rows,
  type Store,
  textColumn,
  unknownSchema,
} from "./_sqlite_store.ts";
import { ToolRecorder } from "./_tool_records.ts";

/** One history entry: `{user, assistant}`, or `[user, assistant]` in early builds. */
function entryParts(entry: unknown): { user: Json; assistant: Json } {
  if (Array.isArray(entry)) {
    return { user: obj(entry[0]), assistant: obj(entry[1]) };
  }
  const e = obj(entry);
  return { user: obj(e.user), assistant: obj(e.assistant) };
}

/** A `latest_summary`: a string, or `[summary, request metadata]`. */
function summaryOf(value: unknown): string | undefined {
  return str(value) ?? (Array.isArray(value) ? str(value[0]) : undefined);
}

/**
 * Builds one session from a `ConversationState` value; undefined when the
 * value is not one.
 */
function readConversation(
  value: unknown,
  row: {
    path: string;
    id?: string;
    key?: string;
    created?: number;
    updated?: number;
  },
): { session?: Session; bad: number } {
  if (!isObject(value)) return { bad: 1 };
  const id = str(value.conversation_id) ?? row.id;
  if (!id) return { bad: 1 };
  const history = list(value.history);
  let cwd: string | undefined;
  for (const entry of history) {
    const env = obj(obj(entryParts(entry).user.env_context).env_state);
    cwd = str(env.current_working_directory);
    if (cwd) break;
  }
  const b = new SessionBuilder({
    harness: KIRO_ID,
    id,
    path: row.path,
    cwd: cwd ?? row.key,
  });
  const tools = new ToolRecorder(b, KIRO_DIALECT);
  let bad = 0;
  const summary = summaryOf(value.latest_summary);
  if (summary) {
    b.add("summary", summary, {
      locator: { path: row.path, recordId: `${id}:summary` },
    });
  }
  let time: number | undefined;
  history.forEach((entry, index) => {
    const { user, assistant } = entryParts(entry);
    if (Object.keys(user).length === 0 && Object.keys(assistant).length === 0) {
      bad++;
      return;
    }
    time = parseTime(user.timestamp) ?? time;
    const locator: Locator = { path: row.path, recordId: `${id}:${index}` };
    const at = { locator, time };
    const content = obj(user.content);
    const prompt = str(obj(content.Prompt).prompt) ??
      str(obj(content.CancelledToolUses).prompt);
    const results = list(obj(content.ToolUseResults).tool_use_results)
      .concat(list(obj(content.CancelledToolUses).tool_use_results));
    for (const r of results) {
      if (!isObject(r)) continue;
      const { text, code } = kiroResultText(r.content);
      tools.result(
        str(r.tool_use_id),
        text,
        r.status === "Error" || (code !== undefined && code !== 0),
        at,
        code,
      );
    }
    if (prompt) b.add("user", cleanSpeech(prompt), at);
    const reply = obj(assistant.ToolUse ?? assistant.Response);
    if (Object.keys(reply).length === 0) return;
    tools.newMessage();
    const replyAt = {
      locator: {
        ...locator,
        recordId: str(reply.message_id) ?? `${id}:${index}`,
      },
      time,
    };
    b.add("assistant", cleanSpeech(str(reply.content) ?? ""), replyAt);
    for (const use of list(reply.tool_uses)) {
      if (!isObject(use)) continue;
      const name = str(use.name) ?? str(use.orig_name);
      if (!name) continue;
      const args = use.args ?? use.orig_args;
      tools.call(str(use.id), name, args, replyAt);
      // fs_read lists what it read under `operations` in later builds.
      for (const op of list(obj(args).operations)) {
        const path = str(obj(op).path);
        if (path) tools.file(path, name, replyAt);
      }
    }
  });
  b.touch(row.created);
  b.touch(row.updated);
  const session = b.build();
  return session.records.length > 0 ? { session, bad } : { bad };
}

function readDb(store: Store, path: string): ParseResult {
  const sessions: Session[] = [];
  let skipped = 0;
  const v2 = store.tables.has("conversations_v2");
  if (!v2 && !store.tables.has("conversations")) {
    throw unknownSchema(store, 'table "conversations_v2" or "conversations"');
  }
  const sql = v2
    ? `SELECT key, conversation_id, value, ${col("created_at")}, ${
      col("updated_at")
    } FROM conversations_v2 ORDER BY updated_at, conversation_id`
    : "SELECT key, value FROM conversations ORDER BY rowid";
  for (const row of rows(store, sql)) {
    let value: unknown;
    try {
      value = JSON.parse(textColumn(row.value) ?? "");
    } catch {
      skipped++;
      continue;
    }
    const meta: Parameters<typeof readConversation>[1] = { path };
    const id = textColumn(row.conversation_id);
    if (id) meta.id = id;
    const key = textColumn(row.key);
    if (key) meta.key = key;
    const created = numberColumn(row.created_at);
    if (created !== undefined) meta.created = created;
    const updated = numberColumn(row.updated_at);
    if (updated !== undefined) meta.updated = updated;
    const { session, bad } = readConversation(value, meta);
    skipped += bad;
    if (session) sessions.push(session);
  }
  return { sessions, skipped };
}

/**
 * Reads every conversation in a kiro-cli `data.sqlite3` (opened read-only):
 * prompts, replies, tool calls and their results, and the summary a
 * compaction left.
 *
 * @param path The `data.sqlite3` file.
 * @param _options Unused (the store is read whole).
 * @returns One session per conversation.
 * @example
 * ```ts
 * import { parseKiroCliDb } from "./_kiro_db.ts";
 * import { rejects } from "node:assert/strict";
 * const source = { home: "/h", env: {}, os: "linux" };
 * await rejects(parseKiroCliDb("/no/such/data.sqlite3", { includeSubagents: true, source }));
 * ```
 */
export function parseKiroCliDb(
  path: string,
  _options: ParseOptions,
): Promise<ParseResult> {
  return readStore(path, "Kiro CLI", (store) => readDb(store, path));
}
