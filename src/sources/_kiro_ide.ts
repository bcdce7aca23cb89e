/**
 * The Kiro IDE (a VS Code fork) keeps each chat session as one JSON file
 * in its agent extension's global storage:
 * `<User>/globalStorage/kiro.kiroagent/workspace-sessions/<base64 of the
 * workspace path>/<sessionId>.json`, with `sessions.json` in the same
 * folder listing the workspace's sessions. A session holds `sessionId`,
 * `title`, `workspaceDirectory` and `history`, a list of
 * `{message: {role, content, id}}` whose content is a string or a list of
 * `{type: "text", text}` parts. The file is rewritten in place.
 *
 * @module
 */
import { basename, dirname, join } from "node:path";
import type { ParseOptions, ParseResult } from "../core/harness.ts";
import { cleanSpeech } from "../core/text.ts";
import { parseTime } from "../core/time.ts";
import { SessionBuilder } from "./_builder.ts";
import { isObject, type Json, list, obj, str } from "./_json.ts";
import { readJsonFile } from "./_json_doc.ts";
import { KIRO_ID } from "./_kiro_common.ts";

/** The text parts of a message's content, joined. */
function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  return list(content)
    .map((p) =>
      typeof p === "string"
        ? p
        : isObject(p) && (p.type === "text" || p.type === undefined)
        ? str(p.text) ?? ""
        : ""
    )
    .filter((t) => t.trim() !== "")
    .join("\n\n");
}

/**
 * The workspace path a folder name encodes (base64, URL-safe or not,
 * padding dropped), when it decodes to an absolute path.
 */
function decodeWorkspace(name: string): string | undefined {
  const b64 = name.replaceAll("-", "+").replaceAll("_", "/");
  try {
    const bytes = Uint8Array.from(
      atob(b64.padEnd(Math.ceil(b64.length / 4) * 4, "=")),
      (c) => c.charCodeAt(0),
    );
    const path = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return /^(\/|[A-Za-z]:[\\/]|file:)/.test(path) ? path : undefined;
  } catch {
    return undefined;
  }
}

/** The `sessions.json` entry for a session, when the index lists it. */
async function indexEntry(path: string, id: string): Promise<Json> {
  const index = await readJsonFile(join(dirname(path), "sessions.json"))
    .catch(() => undefined);
  const entries = isObject(index) ? list(index.sessions) : list(index);
  for (const e of entries) {
    if (isObject(e) && e.sessionId === id) return e;
  }
  return {};
}

/**
 * Parses one Kiro IDE session file: user and assistant text, with the
 * title and workspace it names.
 *
 * @param path The `<sessionId>.json` file.
 * @param _options Unused (the file is read whole).
 * @returns The session, when it holds any text.
 * @example
 * ```ts
 * import { parseKiroIdeSession } from "./_kiro_ide.ts";
 * import { equal } from "node:assert/strict";
 * const path = `${await Deno.makeTempDir()}/s1.json`;
 * await Deno.writeTextFile(path, JSON.stringify({
 *   sessionId: "s1", title: "Fix", workspaceDirectory: "/w/app",
 *   history: [{ message: { role: "user", content: "hi" } }],
 * }));
 * const source = { home: "/h", env: {}, os: "linux" };
 * const { sessions } = await parseKiroIdeSession(path, { includeSubagents: true, source });
 * equal(sessions[0]?.project, "app");
 * ```
 */
export async function parseKiroIdeSession(
  path: string,
  _options: ParseOptions,
): Promise<ParseResult> {
  const doc = await readJsonFile(path);
  if (!isObject(doc) || !Array.isArray(doc.history)) {
    return { sessions: [], skipped: 1 };
  }
  const id = str(doc.sessionId) ?? basename(path).replace(/\.json$/, "");
  const entry = await indexEntry(path, id);
  const cwd = str(doc.workspaceDirectory) ?? str(entry.workspaceDirectory) ??
    decodeWorkspace(basename(dirname(path)));
  const b = new SessionBuilder({ harness: KIRO_ID, id, path, cwd });
  let skipped = 0;
  doc.history.forEach((item, index) => {
    const message = obj(obj(item).message);
    const role = message.role;
    if (role !== "user" && role !== "assistant") {
      if (!isObject(item)) skipped++;
      return;
    }
    const messageId = str(message.id);
    b.add(role, cleanSpeech(contentText(message.content)), {
      locator: { path, recordId: messageId ?? `${id}:${index}` },
      time: parseTime(message.timestamp ?? obj(item).timestamp),
    });
  });
  const title = str(doc.title) ?? str(entry.title);
  if (title && title !== "New Session") b.setTitle(title);
  b.touch(parseTime(doc.dateCreated ?? entry.dateCreated));
  b.touch(parseTime(doc.dateUpdated ?? entry.dateUpdated));
  const session = b.build();
  return { sessions: session.records.length > 0 ? [session] : [], skipped };
}
