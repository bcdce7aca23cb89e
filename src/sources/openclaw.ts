/**
 * OpenClaw: pi-shaped session entries. Releases since the 2026 move to
 * SQLite keep them in one database per agent,
 * `${OPENCLAW_STATE_DIR:-~/.openclaw}/agents/<agentId>/agent/openclaw-agent.sqlite`:
 * `transcript_events` holds each session's entries as rows (`event_json`,
 * ordered by `seq`), `session_nodes` maps session keys (`agent:<id>:<slug>`)
 * to the current session id and its entry (label, `spawnedBy`), and
 * `session_windows` names the session a window continued from and why.
 * Earlier releases wrote one JSONL file per session under
 * `agents/<agentId>/sessions/<sessionId>.jsonl` with `sessions.json` beside
 * them holding the same entries; both are read, and a file whose session the
 * database already holds is left to the database.
 *
 * @module
 */
import { basename, dirname, join } from "node:path";
import type {
  FileKind,
  Harness,
  ParseResult,
  SourceEnv,
} from "../core/harness.ts";
import { titleFrom } from "../core/text.ts";
import type { Session } from "../core/types.ts";
import { isObject, type Json, str } from "./_json.ts";
import { readJsonFile } from "./_json_doc.ts";
import {
  parsePiShaped,
  parsePiShapedEntries,
  type PiEntry,
  type PiShapedParseOptions,
} from "./_pi_shaped.ts";
import { walkRoots } from "./_roots.ts";
import {
  columnsOf,
  readStore,
  requireColumns,
  requireTables,
  rows,
  type Store,
  textColumn,
} from "./_sqlite_store.ts";

const HARNESS_ID = "openclaw";
const NAME = "OpenClaw";
/** The per-agent database's file name, in `agents/<agentId>/agent/`. */
const AGENT_DB = "openclaw-agent.sqlite";
/** Rows longer than this are skipped, as over-long JSONL lines are. */
const MAX_EVENT_CHARS = 8 * 1024 * 1024;

/** `<sessionId>.jsonl` (or `<sessionId>-topic-<thread>.jsonl`) → its stem. */
function stem(name: string): string {
  return name.replace(/\.jsonl$/, "");
}

/** What `sessions.json` says about one session. */
interface KeyEntry {
  key: string;
  label?: string;
  parent?: string;
  subagent: boolean;
}

/**
 * What one session entry (a `sessions.json` value or a `session_nodes` row's
 * `entry_json`) says, given its key and how to find the session another key
 * names.
 */
function entryFacts(
  key: string,
  value: Json,
  sessionOfKey: (key: string) => string | undefined,
): KeyEntry {
  const spawnedBy = str(value.spawnedBy);
  const entry: KeyEntry = {
    key,
    subagent: key.includes(":subagent:") || spawnedBy !== undefined,
  };
  const label = str(value.label) ?? str(value.displayName);
  if (label?.trim()) entry.label = label;
  const parentId = spawnedBy ? sessionOfKey(spawnedBy) : undefined;
  if (parentId) entry.parent = parentId;
  return entry;
}

/** Finds a session's entry (by id or file) in the `sessions.json` beside it. */
async function keyEntry(
  path: string,
  sessionId: string,
): Promise<KeyEntry | undefined> {
  const doc = await readJsonFile(join(dirname(path), "sessions.json"));
  if (!isObject(doc)) return undefined;
  const name = basename(path);
  const entries = Object.entries(doc).filter((e): e is [string, Json] =>
    isObject(e[1])
  );
  const found = entries.find(([, v]) =>
    str(v.sessionId) === sessionId ||
    (str(v.sessionFile) !== undefined &&
      basename(str(v.sessionFile) as string) === name)
  );
  if (!found) return undefined;
  return entryFacts(found[0], found[1], (key) => {
    const parent = doc[key];
    return isObject(parent) ? str(parent.sessionId) : undefined;
  });
}

/** Applies a session entry's label, parent and sub-agent flag; false drops it. */
function applyEntry(
  session: Session,
  entry: KeyEntry | undefined,
  options: PiShapedParseOptions,
): boolean {
  if (entry?.subagent && !options.includeSubagents) return false;
  if (entry?.label) session.title = titleFrom(entry.label);
  if (entry?.parent && entry.parent !== session.id) {
    session.parent = entry.parent;
    session.lineage = "subagent";
  }
  return true;
}

/** The agent database a session file's agent keeps beside its `sessions/`. */
function agentDbBeside(path: string): string {
  return join(dirname(dirname(path)), "agent", AGENT_DB);
}

/** Whether the agent's database holds this session (then it is read there). */
async function heldByDatabase(path: string, id: string): Promise<boolean> {
  const db = agentDbBeside(path);
  try {
    await Deno.stat(db);
  } catch {
    return false;
  }
  try {
    return await readStore(db, NAME, (store) => {
      if (!store.tables.has("transcript_events")) return false;
      for (
        const _ of rows(
          store,
          "SELECT 1 FROM transcript_events WHERE session_id = ? LIMIT 1",
          id,
        )
      ) return true;
      return false;
    });
  } catch {
    // An unreadable database leaves the file as the session's only copy.
    return false;
  }
}

/**
 * Parses one OpenClaw session file the way Pi's are read (branches under
 * `branch` marks), then takes its label and spawning parent from
 * `sessions.json` beside it. The project is the header's cwd, else
 * `openclaw-<agentId>`.
 *
 * @param path The session file.
 * @param options Line cap and whether sub-agent sessions are read.
 * @returns The session (none for a sub-agent when sub-agents are off).
 * @example
 * ```ts
 * import { parseOpenClawSession } from "./openclaw.ts";
 * import { equal } from "node:assert/strict";
 * const dir = `${await Deno.makeTempDir()}/agents/main/sessions`;
 * await Deno.mkdir(dir, { recursive: true });
 * await Deno.writeTextFile(`${dir}/s1.jsonl`, [
 *   { type: "session", version: 3, id: "s1", timestamp: "2026-01-01T00:00:00Z" },
 *   { type: "message", id: "e1", parentId: null, timestamp: "2026-01-01T00:00:01Z",
 *     message: { role: "user", content: [{ type: "text", text: "check the backups" }] } },
 * ].map((l) => JSON.stringify(l)).join("\n") + "\n");
 * const source = { home: "/h", env: {}, os: "linux" };
 * const { sessions } = await parseOpenClawSession(`${dir}/s1.jsonl`, { includeSubagents: true, source });
 * equal(sessions[0]?.project, "openclaw-main");
 * ```
 */
export async function parseOpenClawSession(
  path: string,
  options: PiShapedParseOptions,
): Promise<ParseResult> {
  const agentId = basename(dirname(dirname(path)));
  const result = await parsePiShaped(path, options, {
    harness: HARNESS_ID,
    idFromName: stem,
    fallbackProject: `openclaw-${agentId}`,
  });
  const session: Session | undefined = result.sessions[0];
  if (!session) return result;
  if (await heldByDatabase(path, session.id)) {
    return { sessions: [], skipped: result.skipped };
  }
  const entry = await keyEntry(path, session.id);
  if (!applyEntry(session, entry, options)) {
    return { sessions: [], skipped: result.skipped };
  }
  return result;
}

/** What `session_nodes` and `session_windows` say, by session id. */
interface DbIndex {
  entries: Map<string, KeyEntry>;
  /** Fork windows: the session each one was forked from. */
  forkedFrom: Map<string, string>;
}

/** Reads the session keys, entries and fork windows of an agent database. */
function dbIndex(store: Store): DbIndex {
  const index: DbIndex = { entries: new Map(), forkedFrom: new Map() };
  const nodes = columnsOf(store, "session_nodes");
  if (
    !["session_key", "current_session_id", "entry_json"].every((c) =>
      nodes.has(c)
    )
  ) {
    return index;
  }
  const byKey = new Map<string, { id: string; value: Json }>();
  for (
    const row of rows(
      store,
      "SELECT session_key, current_session_id, entry_json FROM session_nodes",
    )
  ) {
    const key = textColumn(row.session_key);
    const id = textColumn(row.current_session_id);
    if (!key || !id) continue;
    byKey.set(key, { id, value: jsonObject(textColumn(row.entry_json)) });
  }
  const sessionOfKey = (key: string) => byKey.get(key)?.id;
  const windows = columnsOf(store, "session_windows");
  const windowKey = new Map<string, string>();
  if (["session_id", "session_key"].every((c) => windows.has(c))) {
    const extra = ["previous_session_id", "reason"].every((c) => windows.has(c))
      ? ", previous_session_id, reason"
      : "";
    for (
      const row of rows(
        store,
        `SELECT session_id, session_key${extra} FROM session_windows`,
      )
    ) {
      const id = textColumn(row.session_id);
      const key = textColumn(row.session_key);
      if (!id || !key) continue;
      windowKey.set(id, key);
      const previous = textColumn(row.previous_session_id);
      if (row.reason === "fork" && previous) index.forkedFrom.set(id, previous);
    }
  }
  for (const [key, { id, value }] of byKey) {
    index.entries.set(id, entryFacts(key, value, sessionOfKey));
  }
  // An earlier window of a key (before a reset or rollover) keeps its label.
  for (const [id, key] of windowKey) {
    const node = byKey.get(key);
    if (node && !index.entries.has(id)) {
      index.entries.set(id, entryFacts(key, node.value, sessionOfKey));
    }
  }
  return index;
}

/** A column's JSON text as an object (an empty one when it is not). */
function jsonObject(text: string | undefined): Json {
  if (text === undefined) return {};
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : {};
  } catch {
    return {};
  }
}

/**
 * Parses an OpenClaw agent database: each session's `transcript_events`
 * rows, in `seq` order, read as the lines of a Pi session file; its label
 * and spawning parent from `session_nodes`, a forked window's origin from
 * `session_windows`.
 *
 * @param path The `openclaw-agent.sqlite` file.
 * @param options Whether sub-agent sessions are read.
 * @returns The sessions.
 * @example
 * ```ts
 * import { parseOpenClawAgentDb } from "./openclaw.ts";
 * import { rejects } from "node:assert/strict";
 * const path = await Deno.makeTempFile({ suffix: ".sqlite" });
 * const source = { home: "/h", env: {}, os: "linux" };
 * await rejects(parseOpenClawAgentDb(path, { includeSubagents: true, source }), /transcript_events/);
 * ```
 */
export function parseOpenClawAgentDb(
  path: string,
  options: PiShapedParseOptions,
): Promise<ParseResult> {
  const agentId = basename(dirname(dirname(path)));
  const maxChars = options.maxLineBytes ?? MAX_EVENT_CHARS;
  return readStore(path, NAME, (store) => {
    requireTables(store, ["transcript_events"]);
    requireColumns(store, "transcript_events", [
      "session_id",
      "seq",
      "event_json",
    ]);
    const index = dbIndex(store);
    const result: ParseResult = { sessions: [], skipped: 0 };
    let current: string | undefined;
    let entries: PiEntry[] = [];
    const flush = (): void => {
      if (current === undefined) return;
      const parsed = parsePiShapedEntries(path, entries, {
        harness: HARNESS_ID,
        idFromName: (name) => name,
        fallbackProject: `openclaw-${agentId}`,
        id: current,
      });
      result.skipped += parsed.skipped;
      const session = parsed.sessions[0];
      if (!session) return;
      if (!applyEntry(session, index.entries.get(current), options)) return;
      const origin = index.forkedFrom.get(current);
      if (session.parent === undefined && origin && origin !== session.id) {
        session.parent = origin;
        session.lineage = "fork";
      }
      result.sessions.push(session);
    };
    for (
      const row of rows(
        store,
        "SELECT session_id, CAST(seq AS TEXT) AS seq_text, event_json FROM transcript_events ORDER BY session_id, seq",
      )
    ) {
      const id = textColumn(row.session_id);
      if (!id) {
        result.skipped++;
        continue;
      }
      if (id !== current) {
        flush();
        current = id;
        entries = [];
      }
      const text = textColumn(row.event_json);
      const entry = text !== undefined && text.length <= maxChars
        ? jsonObject(text)
        : undefined;
      if (!entry || Object.keys(entry).length === 0) {
        result.skipped++;
        continue;
      }
      const seq = textColumn(row.seq_text) ?? "";
      entries.push({ entry, locator: { path, recordId: `${id}/${seq}` } });
    }
    flush();
    return result;
  });
}

/** The agents folder: `DEJA_OPENCLAW_ROOT`, else `${OPENCLAW_STATE_DIR:-~/.openclaw}/agents`. */
function openclawRoots(source: SourceEnv): string[] {
  if (source.env.DEJA_OPENCLAW_ROOT) return [source.env.DEJA_OPENCLAW_ROOT];
  const state = source.env.OPENCLAW_STATE_DIR || join(source.home, ".openclaw");
  return [join(state, "agents")];
}

/**
 * A session transcript: `<agent>/sessions/<id>.jsonl`, not a compaction
 * checkpoint (`<id>.checkpoint.<uuid>.jsonl`); archives (`.deleted`,
 * `.reset`, `.bak`) do not end in `.jsonl`.
 */
function isTranscript(path: string): boolean {
  const name = basename(path);
  return name.endsWith(".jsonl") && !name.includes(".checkpoint.") &&
    basename(dirname(path)) === "sessions";
}

/** The per-agent database: `<agentId>/agent/openclaw-agent.sqlite`. */
function isAgentDb(path: string): boolean {
  return basename(path) === AGENT_DB && basename(dirname(path)) === "agent";
}

const sessionKind: FileKind = {
  id: "session",
  appendOnly: false,
  match: isTranscript,
  parse: (path, options) => parseOpenClawSession(path, options),
};

const agentDbKind: FileKind = {
  id: "agent-db",
  appendOnly: false,
  match: isAgentDb,
  parse: (path, options) => parseOpenClawAgentDb(path, options),
};

/**
 * The OpenClaw harness.
 *
 * @example
 * ```ts
 * import { openclaw } from "./openclaw.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(openclaw.roots({ home: "/h", env: {}, os: "linux" }), ["/h/.openclaw/agents"]);
 * ```
 */
export const openclaw: Harness = {
  id: HARNESS_ID,
  name: NAME,
  format:
    "pi-shaped session entries: rows of a per-agent SQLite database (agents/<agentId>/agent/openclaw-agent.sqlite), or older JSONL files in agents/<agentId>/sessions/ keyed by sessions.json",
  envOverrides: ["OPENCLAW_STATE_DIR", "DEJA_OPENCLAW_ROOT"],
  roots: openclawRoots,
  discover(source: SourceEnv): Promise<string[]> {
    return Promise.resolve(
      walkRoots(
        openclawRoots(source),
        (path) => isTranscript(path) || isAgentDb(path),
        { maxDepth: 2 },
      ),
    );
  },
  kinds: [agentDbKind, sessionKind],
  // 3: the per-agent SQLite database (transcript_events, session_nodes).
  // 4: a command's output is an error when it exited non-zero, whatever
  // status the harness gave the result (shared ToolRecorder).
  // 5: exec's `details.exitCode` (a non-zero exit is a completed, unflagged
  // result) and the files and removed lines of `apply_patch` calls.
  revision: 5,
  docs: {
    store:
      "`${OPENCLAW_STATE_DIR:-~/.openclaw}/agents/<agentId>/agent/openclaw-agent.sqlite` (releases since the 2026 move to SQLite: tables `transcript_events`, `session_nodes`, `session_windows`), and the older `agents/<agentId>/sessions/<sessionId>.jsonl` with `sessions.json` beside it (same on every OS; `DEJA_OPENCLAW_ROOT` names the agents folder)",
    extracts:
      "as Pi, from each session's `transcript_events` rows in `seq` order or from its JSONL file: user and assistant text, tool calls as commands (`exec`, `bash`) with the exit code exec's result gives in `details.exitCode` (a non-zero exit flags its output as an error), files (read/write/edit, every file of an `apply_patch` patch) and edits (oldText, the removed lines of an apply_patch), tool results with isError, compaction and branch summaries, the header's cwd as project (else `openclaw-<agentId>`), entries off the active leaf's chain under `branch` marks; from `session_nodes.entry_json` (or sessions.json) the session's label as title and the session that spawned a sub-agent as its parent; a `fork` window's previous session as its fork parent",
    omits:
      "a JSONL file whose session the agent database holds (read once, from the database); the incognito sentinel database, compaction checkpoints (`<id>.checkpoint.<uuid>.jsonl`), deleted/reset/backup archives, thinking blocks, images, custom (extension) entries, model and thinking-level changes; the database's other tables (goals, deliveries, leases, FTS index) and the entries' token counts and delivery routing; links between a key's windows across resets and rollovers",
    verified:
      "fixture only: no real OpenClaw sample; the database path (src/state/openclaw-agent-db.paths.ts), the `transcript_events`/`session_windows`/`session_nodes` columns (src/state/openclaw-agent-schema.sql as quoted by public readers; src/config/sessions/session-accessor.sqlite-*.ts) and the JSONL layout (src/config/sessions/paths.ts) from openclaw/openclaw; sessions.json keys (`sessionId`, `spawnedBy`, `label`) and the `exec` tool from public OpenClaw docs; exec's result (`details.status`/`exitCode`, the `(Command exited with code N)` footer of a completed run: src/agents/bash-tools.exec-runtime.ts and bash-tools.exec.ts) and the `apply_patch` tool (`input` patch: src/agents/apply-patch.ts) from openclaw/openclaw as indexed in 2026; the line shapes shared with Pi",
  },
};
