/**
 * Kiro CLI (kiro-cli 2.x): one append-only JSONL log per session under
 * `${KIRO_HOME:-~/.kiro}/sessions/cli/<sessionId>.jsonl`, with
 * `<sessionId>.json` beside it holding the title, cwd, times and, for a
 * sub-agent, its parent. Each line is `{version, kind, data}`: a `Prompt`,
 * an `AssistantMessage` (text and `toolUse` blocks), `ToolResults`, or a
 * `Clear` that wipes the conversation so far.
 *
 * @module
 */
import { basename, join } from "node:path";
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
import { walkRoots } from "./_roots.ts";
import { type ToolDialect, ToolRecorder } from "./_tool_records.ts";

const HARNESS_ID = "kiro";

const DIALECT: ToolDialect = {
  shell: new Set(["shell", "execute_bash", "execute_cmd"]),
  commandKeys: ["command"],
  pathTools: new Set(["read", "write", "fs_read", "fs_write"]),
  pathKeys: ["path", "file_path"],
  editTools: new Set(["write", "fs_write"]),
  oldKeys: ["old_str", "oldStr", "old_string"],
};

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

/** A tool result's text and exit code (shell results carry `exit_status`). */
function resultText(content: unknown): { text: string; code?: number } {
  const parts: string[] = [];
  let code: number | undefined;
  for (const block of list(content)) {
    if (!isObject(block)) continue;
    if (block.kind === "text") {
      const text = str(block.data);
      if (text) parts.push(text);
    } else if (block.kind === "json") {
      const data = block.data;
      if (isObject(data) && ("stdout" in data || "exit_status" in data)) {
        const m = /(-?\d+)\s*$/.exec(str(data.exit_status) ?? "");
        if (m) code = Number(m[1]);
        for (const key of ["stdout", "stderr"]) {
          const text = str(data[key]);
          if (text?.trim()) parts.push(text);
        }
      } else if (data !== undefined) parts.push(JSON.stringify(data));
    }
  }
  return code === undefined
    ? { text: parts.join("\n") }
    : { text: parts.join("\n"), code };
}

/** What `<sessionId>.json` beside a log says. */
interface KiroMeta {
  title?: string;
  cwd?: string;
  parent?: string;
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
  const created = parseTime(doc.created_at);
  if (created !== undefined) meta.created = created;
  const updated = parseTime(doc.updated_at);
  if (updated !== undefined) meta.updated = updated;
  return meta;
}

/**
 * Parses one kiro-cli session log (from `options.offset` when resuming):
 * prompts, replies, tool calls and results; a `Clear` puts everything
 * before it under a `clear` mark.
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
  if (meta.parent && !options.includeSubagents) {
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
    lineage: meta.parent ? "subagent" : undefined,
  });
  const tools = new ToolRecorder(b, DIALECT);
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
            const { text, code } = resultText(result.content);
            tools.result(
              str(result.toolUseId),
              text,
              result.status === "error" || (code !== undefined && code !== 0),
              { locator, time },
              code,
            );
          }
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

/** The CLI sessions folder: `DEJA_KIRO_ROOT`, else `${KIRO_HOME:-~/.kiro}/sessions/cli`. */
function kiroRoots(source: SourceEnv): string[] {
  if (source.env.DEJA_KIRO_ROOT) return [source.env.DEJA_KIRO_ROOT];
  const home = source.env.KIRO_HOME || join(source.home, ".kiro");
  return [join(home, "sessions", "cli")];
}

const logKind: FileKind = {
  id: "cli-log",
  appendOnly: true,
  match: (path) => path.endsWith(".jsonl"),
  parse: (path, options) => parseKiroLog(path, options),
};

/**
 * The Kiro CLI harness.
 *
 * @example
 * ```ts
 * import { kiro } from "./kiro.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(kiro.roots({ home: "/h", env: {}, os: "linux" }), ["/h/.kiro/sessions/cli"]);
 * ```
 */
export const kiro: Harness = {
  id: HARNESS_ID,
  name: "Kiro",
  format:
    "append-only JSONL (Prompt / AssistantMessage / ToolResults / Clear) per CLI session, metadata JSON beside it",
  envOverrides: ["KIRO_HOME", "DEJA_KIRO_ROOT"],
  roots: kiroRoots,
  discover(source: SourceEnv): Promise<string[]> {
    return Promise.resolve(
      walkRoots(kiroRoots(source), logKind.match, { maxDepth: 0 }),
    );
  },
  kinds: [logKind],
  docs: {
    store:
      "`${KIRO_HOME:-~/.kiro}/sessions/cli/<sessionId>.jsonl` with `<sessionId>.json` beside it (same on every OS; `DEJA_KIRO_ROOT` names the folder)",
    extracts:
      "prompts and replies (text blocks), tool calls as commands (`shell`) with the exit status of their result, files (read/write) and edits (old_str), tool results (stdout and stderr) with error status; the metadata's title, cwd as project and `parent_session_id` as sub-agent parent; a `Clear` puts what came before under a `clear` mark",
    omits:
      "thinking and image blocks, tool-use purposes, model and credit metadata; the Kiro IDE's chat stores and the CLI's older SQLite conversation tables (their on-disk shape was not verified); replies carry their prompt's time (the log stamps prompts only)",
    verified:
      "fixture only: no real Kiro sample; the line shapes, `Clear`, the metadata fields and `KIRO_HOME` from public kiro-cli 2.x session readers",
  },
};
