/**
 * OpenClaw: pi-shaped JSONL, one file per session under
 * `${OPENCLAW_STATE_DIR:-~/.openclaw}/agents/<agentId>/sessions/<sessionId>.jsonl`.
 * `sessions.json` beside them maps session keys (`agent:<id>:<slug>`) to
 * session ids; a sub-agent's entry names the key that spawned it.
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
import { parsePiShaped, type PiShapedParseOptions } from "./_pi_shaped.ts";
import { walkRoots } from "./_roots.ts";

const HARNESS_ID = "openclaw";

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
  const [key, value] = found;
  const entry: KeyEntry = {
    key,
    subagent: key.includes(":subagent:") || str(value.spawnedBy) !== undefined,
  };
  const label = str(value.label);
  if (label) entry.label = label;
  const spawnedBy = str(value.spawnedBy);
  const parent = spawnedBy ? doc[spawnedBy] : undefined;
  const parentId = isObject(parent) ? str(parent.sessionId) : undefined;
  if (parentId) entry.parent = parentId;
  return entry;
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
  const entry = await keyEntry(path, session.id);
  if (entry?.subagent && !options.includeSubagents) {
    return { sessions: [], skipped: result.skipped };
  }
  if (entry?.label) session.title = titleFrom(entry.label);
  if (entry?.parent && entry.parent !== session.id) {
    session.parent = entry.parent;
    session.lineage = "subagent";
  }
  return result;
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

const sessionKind: FileKind = {
  id: "session",
  appendOnly: false,
  match: isTranscript,
  parse: (path, options) => parseOpenClawSession(path, options),
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
  name: "OpenClaw",
  format:
    "pi-shaped JSONL session tree per session in agents/<agentId>/sessions/, keyed by sessions.json",
  envOverrides: ["OPENCLAW_STATE_DIR", "DEJA_OPENCLAW_ROOT"],
  roots: openclawRoots,
  discover(source: SourceEnv): Promise<string[]> {
    return Promise.resolve(
      walkRoots(openclawRoots(source), isTranscript, { maxDepth: 2 }),
    );
  },
  kinds: [sessionKind],
  revision: 2,
  docs: {
    store:
      "`${OPENCLAW_STATE_DIR:-~/.openclaw}/agents/<agentId>/sessions/<sessionId>.jsonl` with `sessions.json` beside it (same on every OS; `DEJA_OPENCLAW_ROOT` names the agents folder)",
    extracts:
      "as Pi: user and assistant text, tool calls as commands (`exec`, `bash`), files (read/write/edit) and edits (oldText), tool results with isError, compaction and branch summaries, the header's cwd as project (else `openclaw-<agentId>`), entries off the active leaf's chain under `branch` marks; from sessions.json the session's label as title and the session that spawned a sub-agent as its parent",
    omits:
      "compaction checkpoints (`<id>.checkpoint.<uuid>.jsonl`), deleted/reset/backup archives, thinking blocks, images, custom (extension) entries, model and thinking-level changes; sessions.json's token counts and delivery routing",
    verified:
      "fixture only: no real OpenClaw sample; the layout, sessions.json keys (`sessionId`, `spawnedBy`, `label`) and `exec` tool from public OpenClaw docs and parsers, the line shapes shared with Pi",
  },
};
