/**
 * Hermes Agent (Nous Research): every session of a profile in one SQLite
 * store, `${HERMES_HOME:-~/.hermes}/state.db`, and one per named profile
 * under `profiles/<name>/state.db`. `sessions` holds the title, cwd, source
 * (cli, telegram, ...) and the parent a compression, branch or delegated
 * run split from; `messages` holds OpenAI-style rows (user, assistant with
 * `tool_calls` JSON, tool results naming their call) with epoch-second
 * timestamps, and an `active` flag a rewind clears.
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
import type { Locator, Session } from "../core/types.ts";
import { SessionBuilder } from "./_builder.ts";
import { isObject, list, obj, parseJson, str } from "./_json.ts";
import { childDirs, isRegularFileSync } from "./_paths.ts";
import {
  columnsOf,
  numberColumn,
  readStore,
  requireColumns,
  requireTables,
  rows,
  type Store,
  textColumn,
} from "./_sqlite_store.ts";
import { type ToolDialect, ToolRecorder } from "./_tool_records.ts";
import { MarkRuns } from "./_tree_chain.ts";

const HARNESS_ID = "hermes";

const DIALECT: ToolDialect = {
  shell: new Set(["terminal"]),
  commandKeys: ["command"],
  pathTools: new Set(["read_file", "write_file"]),
  pathKeys: ["path", "file_path"],
  editTools: new Set(["patch"]),
  oldKeys: ["old_string", "old_text"],
};

/** The profile a store belongs to: `profiles/<name>/state.db`, else none. */
function profileOf(path: string): string | undefined {
  const dir = dirname(path);
  return basename(dirname(dir)) === "profiles" ? basename(dir) : undefined;
}

/** A session row's identity and lineage. */
interface SessionRow {
  title?: string;
  cwd?: string;
  parent?: string;
  delegated: boolean;
  started?: number;
  updated?: number;
}

function sessionRows(store: Store): Map<string, SessionRow> {
  const out = new Map<string, SessionRow>();
  const cols = requireColumns(store, "sessions", ["id"]);
  const pick = (name: string) => cols.has(name) ? `"${name}"` : "NULL";
  for (
    const row of rows(
      store,
      `SELECT id, ${pick("title")} AS title, ${pick("cwd")} AS cwd,
        ${pick("parent_session_id")} AS parent, ${
        pick("model_config")
      } AS config,
        ${pick("started_at")} AS started, ${pick("last_activity_at")} AS active,
        ${pick("ended_at")} AS ended FROM sessions`,
    )
  ) {
    const id = textColumn(row.id);
    if (!id) continue;
    // A delegated run names the session that delegated it in its config.
    const config = obj(parseJson(textColumn(row.config)));
    const s: SessionRow = { delegated: config._delegate_from !== undefined };
    const title = textColumn(row.title);
    if (title) s.title = title;
    const cwd = textColumn(row.cwd);
    if (cwd) s.cwd = cwd;
    const parent = textColumn(row.parent);
    if (parent && parent !== id) s.parent = parent;
    const started = parseTime(numberColumn(row.started));
    if (started !== undefined) s.started = started;
    const updated = parseTime(numberColumn(row.active)) ??
      parseTime(numberColumn(row.ended));
    if (updated !== undefined) s.updated = updated;
    out.set(id, s);
  }
  return out;
}

/** A shell run's result as the terminal tool words it. */
interface TerminalResult {
  text: string;
  code?: number;
  failed: boolean;
}

/**
 * The terminal tool's answer, `{"output", "exit_code", "error"}` as JSON:
 * what the command printed (then the error, when the run failed to start or
 * timed out), its exit code, and whether it failed. Other content is none.
 */
function terminalResult(content: string): TerminalResult | undefined {
  if (!content.startsWith("{") || !content.includes('"exit_code"')) {
    return undefined;
  }
  const value = obj(parseJson(content));
  const code = value.exit_code;
  if (typeof code !== "number" || !Number.isInteger(code)) return undefined;
  if (value.output !== undefined && typeof value.output !== "string") {
    return undefined;
  }
  const error = str(value.error);
  const text = [str(value.output), error].filter(Boolean).join("\n");
  return { text, code, failed: error !== undefined || code !== 0 };
}

/** One session being built, with its tools and rewind runs. */
interface Open {
  id: string;
  b: SessionBuilder;
  tools: ToolRecorder;
  runs: MarkRuns;
}

function readHermes(
  store: Store,
  path: string,
  options: ParseOptions,
): ParseResult {
  requireTables(store, ["sessions", "messages"]);
  requireColumns(store, "messages", [
    "session_id",
    "role",
    "content",
    "timestamp",
  ]);
  const cols = columnsOf(store, "messages");
  const pick = (name: string) => cols.has(name) ? `"${name}"` : "NULL";
  const meta = sessionRows(store);
  const profile = profileOf(path);
  const sessions: Session[] = [];
  let skipped = 0;
  let current: Open | undefined;
  const close = (): void => {
    if (!current) return;
    current.runs.end(current.b.nextSeq);
    if (current.b.records.length > 0) sessions.push(current.b.build());
    current = undefined;
  };
  const order = cols.has("id") ? "timestamp, id" : "timestamp";
  for (
    const row of rows(
      store,
      `SELECT ${pick("id")} AS row_id, session_id, role, content, timestamp,
        ${pick("tool_calls")} AS tool_calls, ${pick("tool_call_id")} AS call_id,
        ${pick("tool_name")} AS tool_name, ${pick("active")} AS active
        FROM messages ORDER BY session_id, ${order}`,
    )
  ) {
    const sessionId = textColumn(row.session_id);
    if (!sessionId) {
      skipped++;
      continue;
    }
    if (!options.includeSubagents && meta.get(sessionId)?.delegated) continue;
    if (current?.id !== sessionId) {
      close();
      const m = meta.get(sessionId) ?? { delegated: false };
      const b = new SessionBuilder({
        harness: HARNESS_ID,
        id: sessionId,
        path,
        cwd: m.cwd,
        project: m.cwd ? undefined : profile ?? "hermes",
      });
      if (m.parent) b.setParent(m.parent, m.delegated ? "subagent" : "fork");
      if (m.title) b.setTitle(m.title);
      b.touch(m.started);
      b.touch(m.updated);
      current = {
        id: sessionId,
        b,
        tools: new ToolRecorder(b, DIALECT),
        runs: new MarkRuns((from, to) => b.mark("rewind", from, to)),
      };
    }
    const { b, tools, runs } = current as Open;
    const rowId = numberColumn(row.row_id);
    const locator: Locator = rowId === undefined
      ? { path }
      : { path, recordId: String(rowId) };
    const time = parseTime(numberColumn(row.timestamp));
    const at = { locator, time };
    const content = textColumn(row.content) ?? "";
    runs.at(b.nextSeq, numberColumn(row.active) === 0);
    switch (textColumn(row.role)) {
      case "user":
        b.add("user", cleanSpeech(content), at);
        break;
      case "assistant": {
        tools.newMessage();
        b.add("assistant", cleanSpeech(content), at);
        for (const call of list(parseJson(textColumn(row.tool_calls)))) {
          const fn = isObject(call) ? obj(call.function) : {};
          const name = str(fn.name);
          if (name) {
            tools.call(
              isObject(call) ? str(call.id) : undefined,
              name,
              fn.arguments,
              at,
            );
          }
        }
        break;
      }
      case "tool": {
        const run = terminalResult(content);
        tools.result(
          textColumn(row.call_id),
          run?.text ?? content,
          run?.failed ?? false,
          at,
          run?.code,
          textColumn(row.tool_name),
        );
        break;
      }
      default:
        // System prompts are the harness's words.
        b.touch(time);
    }
  }
  close();
  return { sessions, skipped };
}

/**
 * Reads every session in one Hermes `state.db` (opened read-only): user and
 * assistant text, tool calls from `tool_calls` JSON and tool rows as their
 * output; rows a rewind made inactive are kept under `rewind` marks.
 *
 * @param path The `state.db` file.
 * @param options Whether delegated sub-agent runs are read.
 * @returns The sessions.
 * @example
 * ```ts
 * import { parseHermesStore } from "./hermes.ts";
 * import { rejects } from "node:assert/strict";
 * const source = { home: "/h", env: {}, os: "linux" };
 * await rejects(parseHermesStore("/no/such/state.db", { includeSubagents: true, source }));
 * ```
 */
export function parseHermesStore(
  path: string,
  options: ParseOptions,
): Promise<ParseResult> {
  return readStore(path, "Hermes", (store) => readHermes(store, path, options));
}

/** `$HERMES_HOME`, else `~/.hermes`. */
function hermesHome(source: SourceEnv): string {
  return source.env.HERMES_HOME || join(source.home, ".hermes");
}

/** The stores: `DEJA_HERMES_DB` alone, else the home's and each profile's `state.db`. */
function hermesStores(source: SourceEnv): string[] {
  if (source.env.DEJA_HERMES_DB) return [source.env.DEJA_HERMES_DB];
  const home = hermesHome(source);
  const stores = [join(home, "state.db")];
  for (const name of childDirs(join(home, "profiles"))) {
    stores.push(join(home, "profiles", name, "state.db"));
  }
  return stores;
}

const storeKind: FileKind = {
  id: "state-db",
  appendOnly: false,
  match: (path) => basename(path) === "state.db",
  parse: parseHermesStore,
};

/**
 * The Hermes Agent harness.
 *
 * @example
 * ```ts
 * import { hermes } from "./hermes.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(hermes.roots({ home: "/nohome", env: {}, os: "linux" }), ["/nohome/.hermes/state.db"]);
 * ```
 */
export const hermes: Harness = {
  id: HARNESS_ID,
  name: "Hermes Agent",
  // 3: the terminal tool's JSON result gives the command's exit code, its
  // printed output and error text, and flags a failed run as an error.
  revision: 3,
  format: "SQLite state.db (sessions + OpenAI-style messages) per profile",
  envOverrides: ["HERMES_HOME", "DEJA_HERMES_DB"],
  roots: hermesStores,
  discover(source: SourceEnv): Promise<string[]> {
    return Promise.resolve(
      hermesStores(source).filter((p) =>
        storeKind.match(p) && isRegularFileSync(p)
      ),
    );
  },
  kinds: [storeKind],
  docs: {
    store:
      "`${HERMES_HOME:-~/.hermes}/state.db` and `${HERMES_HOME:-~/.hermes}/profiles/<name>/state.db` (same on every OS; `DEJA_HERMES_DB` names one store instead)",
    extracts:
      "user and assistant text, tool calls from `tool_calls` JSON as commands (`terminal`), files (read_file/write_file) and edits (`patch` old_string), tool rows as output (the terminal tool's `{output, exit_code, error}` JSON read into its output and error text, the command's exit code, and isError when it exited non-zero or failed to run); the session's title, cwd as project (else the profile name, else `hermes`), and `parent_session_id` as parent (`subagent` for a delegated run, else `fork`); rows a rewind made inactive are kept under `rewind` marks",
    omits:
      "system prompts, reasoning, display metadata, model and token usage; the Postgres backend (deja reads files only)",
    verified:
      "fixture only: no real Hermes sample; tables and columns from a public reader's fixture and Hermes' own state-store source (HERMES_HOME, profiles, lineage markers), tool names from its tool set",
  },
};
