/**
 * Intendant session logs: one directory per session under
 * `${INTENDANT_HOME:-~/.intendant}/logs/<uuid>/`, whose `session.jsonl` event
 * stream carries the canonical message lane (`conversation_message`, with
 * assistant text kept in `turns/*_model.txt` sidecar spans) and its
 * `conversation_rewound` cuts. Logs written before the lane existed are read
 * the legacy way: the task, delivered steers and `Round N follow-up:` lines
 * as user text, `model_response` sidecars as assistant text.
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
import { sha256Hex } from "../core/hash.ts";
import { cleanSpeech } from "../core/text.ts";
import { parseTime } from "../core/time.ts";
import type { Locator, RecordFlags, Role } from "../core/types.ts";
import { SessionBuilder } from "./_builder.ts";
import { readJsonDocument } from "./_json_doc.ts";
import { type LineLocator, walkJsonLines } from "./_jsonl_walk.ts";
import { finite, isObject, type Json, str } from "./_json.ts";
import { baseName, dirOf } from "./_paths.ts";

const HARNESS_ID = "intendant";
const LOG_NAME = "session.jsonl";

/** A sidecar span larger than this is cut (the record cap is far smaller). */
const MAX_SPAN_BYTES = 4 * 1024 * 1024;
const DAY_MS = 86_400_000;

/** Provenances of the user side of the lane. */
const USER_PROVENANCE = new Set([
  "task",
  "resume_task",
  "follow_up",
  "steer",
  "ask_human_answer",
  "unknown",
]);

/** Milliseconds since local midnight of `HH:MM:SS[.fff]`, if that is what it is. */
function timeOfDay(text: string): number | undefined {
  const m = /(?:^|[ T])(\d{1,2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?$/.exec(
    text.trim(),
  );
  if (!m) return undefined;
  const frac = m[4] ? Math.floor(Number(`0.${m[4]}`) * 1000) : 0;
  return ((Number(m[1]) * 60 + Number(m[2])) * 60 + Number(m[3])) * 1000 +
    frac;
}

/** A zone-less `YYYY-MM-DDTHH:MM:SS` as the local time Intendant wrote it in. */
function localTime(text: string | undefined): number | undefined {
  const m = text
    ? /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})/.exec(text)
    : null;
  if (!m) return parseTime(text);
  return new Date(
    Number(m[1]),
    Number(m[2]) - 1,
    Number(m[3]),
    Number(m[4]),
    Number(m[5]),
    Number(m[6]),
  ).getTime();
}

/**
 * Turns legacy time-of-day stamps into epoch times: the date comes from the
 * session's `created_at`, and a stamp earlier than the one before it has
 * crossed midnight.
 */
class LegacyClock {
  #midnight: number | undefined;
  #day = 0;
  #last: number | undefined;

  constructor(meta: Json) {
    const createdMs = parseTime(meta.created_at_ms);
    const created = str(meta.created_at);
    const tod = created ? timeOfDay(created) : undefined;
    if (createdMs !== undefined && tod !== undefined) {
      this.#midnight = createdMs - tod;
    } else if (created) {
      const d = /^(\d{4})-(\d{2})-(\d{2})/.exec(created);
      if (d) {
        this.#midnight = new Date(
          Number(d[1]),
          Number(d[2]) - 1,
          Number(d[3]),
        ).getTime();
      }
    }
  }

  at(ts: unknown): number | undefined {
    if (typeof ts !== "string" || this.#midnight === undefined) {
      return undefined;
    }
    const tod = timeOfDay(ts);
    if (tod === undefined) return undefined;
    // A minute of slack: stamps are written by several threads.
    if (this.#last !== undefined && tod + 60_000 < this.#last) this.#day++;
    this.#last = tod;
    return this.#midnight + this.#day * DAY_MS + tod;
  }
}

/** Reads `[offset, offset+bytes)` of a sidecar inside the session directory. */
async function readSpan(
  dir: string,
  file: string,
  offset: number | undefined,
  bytes: number | undefined,
): Promise<string | undefined> {
  if (file.startsWith("/") || /^[A-Za-z]:/.test(file)) return undefined;
  if (file.split(/[\\/]+/).some((part) => part === "..")) return undefined;
  const path = `${dir}/${file}`;
  try {
    using handle = await Deno.open(path, { read: true });
    const size = (await handle.stat()).size;
    const from = Math.max(0, Math.min(offset ?? 0, size));
    const length = Math.min(
      bytes ?? size - from,
      size - from,
      MAX_SPAN_BYTES,
    );
    if (length <= 0) return "";
    await handle.seek(from, Deno.SeekMode.Start);
    const buf = new Uint8Array(length);
    let read = 0;
    while (read < length) {
      const n = await handle.read(buf.subarray(read));
      if (n === null) break;
      read += n;
    }
    return new TextDecoder().decode(buf.subarray(0, read));
  } catch {
    return undefined;
  }
}

/** Events the extraction reads; everything else is diagnostics. */
const READ_EVENTS = new Set([
  "conversation_message",
  "conversation_rewound",
  "conversation_message_epoch",
  "session_started",
  "steer_requested",
  "steer_delivered",
  "model_response",
]);

function relevant(obj: Json): boolean {
  if (typeof obj.event === "string" && READ_EVENTS.has(obj.event)) return true;
  return typeof obj.message === "string" &&
    /^Round \d+ follow-up:/.test(obj.message);
}

/** What the first pass learns about a log. */
interface Survey {
  wrapper: boolean;
  epochLine: number | undefined;
  epochMap: Array<{ seq: number; role: string; hash: string }>;
  canonical: boolean;
  parent: string | undefined;
  /** A legacy `session_started` event carried the task. */
  startedTask: boolean;
}

async function survey(path: string, ownId: string): Promise<Survey> {
  const result: Survey = {
    wrapper: false,
    epochLine: undefined,
    epochMap: [],
    canonical: false,
    parent: undefined,
    startedTask: false,
  };
  await walkJsonLines(path, {}, (obj, locator) => {
    const event = obj.event;
    const data = isObject(obj.data) ? obj.data : {};
    if (event === "session_identity") result.wrapper = true;
    else if (
      event === "session_started" && (str(data.task) ?? str(data.prompt))
    ) {
      result.startedTask = true;
    } else if (event === "conversation_message") result.canonical = true;
    else if (
      event === "conversation_message_epoch" && result.epochLine === undefined
    ) {
      result.epochLine = locator.line;
      const mapping = Array.isArray(data.mapping)
        ? data.mapping
        : Array.isArray(data.messages)
        ? data.messages
        : [];
      for (const entry of mapping) {
        if (!Array.isArray(entry)) continue;
        const [seq, role, hash] = entry;
        if (typeof seq === "number" && typeof role === "string") {
          result.epochMap.push({
            seq,
            role,
            hash: typeof hash === "string" ? hash : "",
          });
        }
      }
    } else if (event === "session_relationship" && !result.parent) {
      const child = str(data.child_session_id) ?? str(data.child_id) ??
        str(data.child);
      const parent = str(data.parent_session_id) ?? str(data.parent_id) ??
        str(data.parent);
      if (parent && parent !== ownId && (!child || child === ownId)) {
        result.parent = parent;
      }
    }
  });
  return result;
}

/** Builds the session from the log's events. */
class LogReader {
  readonly builder: SessionBuilder;
  #dir: string;
  #flags: RecordFlags | undefined;
  #survey: Survey;
  #clock: LegacyClock;
  /** Lane records in order: builder seq → message seq. */
  #lane: Array<{ seq: number; messageSeq: number }> = [];
  /** Legacy records waiting for the epoch map to give them a message seq. */
  #legacy: Array<{ seq: number; role: Role; text: string }> = [];
  #steers = new Map<string, string>();
  #readSidecars = new Set<string>();

  constructor(
    builder: SessionBuilder,
    dir: string,
    meta: Json,
    surveyed: Survey,
    flags: RecordFlags | undefined,
  ) {
    this.builder = builder;
    this.#dir = dir;
    this.#survey = surveyed;
    this.#clock = new LegacyClock(meta);
    this.#flags = flags;
  }

  #legacyEra(line: number): boolean {
    const s = this.#survey;
    if (s.epochLine !== undefined) return line < s.epochLine;
    return !s.canonical;
  }

  #add(
    role: Role,
    text: string,
    locator: Locator,
    time: number | undefined,
  ): number | undefined {
    const record = this.builder.add(role, cleanSpeech(text), {
      locator,
      time,
      ...(this.#flags ? { flags: this.#flags } : {}),
    });
    return record?.seq;
  }

  async event(obj: Json, at: LineLocator): Promise<void> {
    const event = obj.event;
    if (typeof event !== "string") return;
    const data = isObject(obj.data) ? obj.data : {};
    const legacy = this.#legacyEra(at.line);
    const time = parseTime(obj.ts_ms) ??
      (legacy ? this.#clock.at(obj.ts) : undefined) ?? parseTime(obj.ts);
    const locator: Locator = { ...at };
    if (event === "conversation_message_epoch") {
      this.#applyEpoch();
      return;
    }
    if (!legacy) {
      if (event === "conversation_message") {
        await this.#laneMessage(obj, data, locator, time);
      } else if (event === "conversation_rewound") {
        this.#rewind(data);
      }
      return;
    }
    await this.#legacyEvent(event, obj, data, locator, time);
  }

  async #laneMessage(
    obj: Json,
    data: Json,
    locator: Locator,
    time: number | undefined,
  ): Promise<void> {
    const provenance = str(data.provenance) ?? "unknown";
    const role: Role | undefined = provenance === "assistant" ||
        data.role === "assistant"
      ? "assistant"
      : USER_PROVENANCE.has(provenance)
      ? "user"
      : undefined;
    if (!role) return;
    let text = typeof data.text === "string" ? data.text : undefined;
    const file = str(obj.file) ?? str(data.file);
    if (text === undefined && file) {
      text = await readSpan(
        this.#dir,
        file,
        finite(data.model_offset),
        finite(data.model_bytes),
      );
    }
    const id = str(data.id) ?? str(data.message_id);
    const seq = this.#add(
      role,
      text ?? "",
      id ? { ...locator, recordId: id } : locator,
      time,
    );
    const messageSeq = finite(data.message_seq);
    if (seq !== undefined && messageSeq !== undefined) {
      this.#lane.push({ seq, messageSeq });
    }
  }

  #rewind(data: Json): void {
    const cut = finite(data.cut_after_seq);
    if (cut === undefined) return;
    const first = this.#lane.find((r) => r.messageSeq > cut);
    if (first) this.builder.mark("rewind", first.seq, this.builder.nextSeq);
  }

  /** Gives the legacy records the message seqs the epoch map assigned them. */
  #applyEpoch(): void {
    const used = new Set<number>();
    for (const record of this.#legacy) {
      const hash16 = sha256Hex(record.text).slice(0, 16);
      const match = this.#survey.epochMap.find((e) =>
        !used.has(e.seq) && e.role === record.role && e.hash === hash16
      );
      if (match) {
        used.add(match.seq);
        this.#lane.push({ seq: record.seq, messageSeq: match.seq });
      }
    }
    this.#lane.sort((a, b) => a.seq - b.seq);
    this.#legacy = [];
  }

  async #legacyEvent(
    event: string,
    obj: Json,
    data: Json,
    locator: Locator,
    time: number | undefined,
  ): Promise<void> {
    let role: Role | undefined;
    let text: string | undefined;
    if (event === "session_started") {
      text = str(data.task) ?? str(data.prompt);
      role = "user";
    } else if (event === "steer_requested") {
      const id = str(data.id) ?? str(data.steer_id);
      const steer = str(data.text) ?? str(data.message) ?? str(obj.message);
      if (id && steer) this.#steers.set(id, steer);
      return;
    } else if (event === "steer_delivered") {
      const id = str(data.id) ?? str(data.steer_id);
      text = id ? this.#steers.get(id) : undefined;
      if (id) this.#steers.delete(id);
      role = "user";
    } else if (event === "model_response") {
      const file = str(obj.file) ?? str(data.file);
      if (!file) return;
      const offset = finite(data.model_offset) ?? finite(data.offset);
      const bytes = finite(data.model_bytes) ?? finite(data.len) ??
        finite(data.bytes);
      if (offset === undefined && this.#readSidecars.has(file)) return;
      if (offset === undefined) this.#readSidecars.add(file);
      text = await readSpan(this.#dir, file, offset, bytes);
      role = "assistant";
    } else {
      const message = str(obj.message);
      const m = message
        ? /^Round \d+ follow-up:\s*([\s\S]+)$/.exec(message)
        : null;
      if (!m) return;
      text = m[1];
      role = "user";
    }
    if (!role || !text) return;
    const seq = this.#add(role, text, locator, time);
    if (seq !== undefined) {
      const kept = this.builder.records.at(-1);
      this.#legacy.push({ seq, role, text: kept?.text ?? text });
    }
  }

  /** Falls back to the meta's task when no legacy event carried one. */
  legacyTaskFallback(meta: Json, locator: Locator): void {
    const s = this.#survey;
    if (s.startedTask || (s.canonical && s.epochLine === undefined)) return;
    const task = str(meta.task);
    if (!task) return;
    const time = parseTime(meta.created_at_ms) ??
      localTime(str(meta.created_at));
    this.#add("user", task, locator, time);
  }
}

/**
 * Parses one Intendant session log directory (through its `session.jsonl`).
 * New-era logs give the `conversation_message` lane: user provenances (task,
 * resume, follow-up, steer, askHuman answer) as user records, assistant
 * records from their sidecar spans, and each `conversation_rewound` cut as
 * a `rewind` mark over the later messages. Legacy logs (or the part of a
 * resumed log before its `conversation_message_epoch` marker) are
 * reconstructed from `session_started` (else `session_meta.json`'s task),
 * delivered steers, `Round N follow-up:` lines and `model_response`
 * sidecars, with times rebuilt from the meta's date and the events'
 * time-of-day. Wrapper sessions (a `session_identity` event: an external
 * backend's mirror) yield nothing.
 *
 * @param path The `session.jsonl` file.
 * @param options Parse options (sub-agent switch).
 * @returns The session, or none.
 * @example
 * ```ts
 * import { parseIntendantLog } from "./intendant.ts";
 * import { equal } from "node:assert/strict";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/session.jsonl`, JSON.stringify({
 *   ts: "10:00:00", ts_ms: 1790000000000, event: "conversation_message",
 *   data: { message_seq: 1, provenance: "task", text: "tidy the imports" },
 * }) + "\n");
 * const source = { home: dir, env: {}, os: "linux" };
 * const { sessions } = await parseIntendantLog(`${dir}/session.jsonl`, { includeSubagents: true, source });
 * equal(sessions[0]?.records[0]?.text, "tidy the imports");
 * ```
 */
export async function parseIntendantLog(
  path: string,
  options: ParseOptions,
): Promise<ParseResult> {
  const dir = dirOf(path);
  const metaDoc = await readJsonDocument(`${dir}/session_meta.json`, 2 << 20);
  const meta: Json = metaDoc.ok && isObject(metaDoc.value) ? metaDoc.value : {};
  const id = str(meta.session_id) ?? baseName(dir);
  let surveyed: Survey;
  try {
    surveyed = await survey(path, id);
  } catch {
    return { sessions: [], skipped: 0 };
  }
  if (surveyed.wrapper) return { sessions: [], skipped: 0 };
  const sub = str(meta.role) !== undefined;
  if (sub && !options.includeSubagents) return { sessions: [], skipped: 0 };
  const parent = str(meta.parent_session_id) ?? str(meta.parent_id) ??
    surveyed.parent;
  const builder = new SessionBuilder({
    harness: HARNESS_ID,
    id,
    path,
    cwd: str(meta.project_root),
    parent: sub ? parent : undefined,
    lineage: sub && parent ? "subagent" : undefined,
  });
  const title = str(meta.name) ?? str(meta.task);
  if (title) builder.setTitle(title);
  const reader = new LogReader(
    builder,
    dir,
    meta,
    surveyed,
    sub ? { subagent: true } : undefined,
  );
  reader.legacyTaskFallback(meta, {
    path: `${dir}/session_meta.json`,
    recordId: "task",
  });
  // Sidecar reads are async and the walk is not: keep only what is read.
  const events: Array<[Json, LineLocator]> = [];
  const walked = await walkJsonLines(path, {}, (obj, locator) => {
    if (relevant(obj)) events.push([obj, locator]);
  });
  for (const [obj, locator] of events) await reader.event(obj, locator);
  const session = builder.build();
  return {
    sessions: session.records.length > 0 ? [session] : [],
    safeOffset: walked.safeOffset,
    safeLine: walked.safeLine,
    skipped: walked.skipped,
  };
}

function logsRoot(source: SourceEnv): string {
  return source.env.DEJA_INTENDANT_ROOT ||
    `${source.env.INTENDANT_HOME || `${source.home}/.intendant`}/logs`;
}

function isLog(path: string): boolean {
  return baseName(path) === LOG_NAME;
}

const logKind: FileKind = {
  id: "session-log",
  appendOnly: false,
  match: isLog,
  parse: (path, options) => parseIntendantLog(path, options),
};

/**
 * The Intendant harness.
 *
 * @example
 * ```ts
 * import { intendant } from "./intendant.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(intendant.roots({ home: "/h", env: {}, os: "linux" }), ["/h/.intendant/logs"]);
 * ```
 */
export const intendant: Harness = {
  id: HARNESS_ID,
  name: "Intendant",
  format:
    "session log directory per session: session.jsonl event stream (conversation_message lane) plus turns/ sidecars and session_meta.json",
  envOverrides: ["DEJA_INTENDANT_ROOT", "INTENDANT_HOME"],
  roots: (source) => [logsRoot(source)],
  discover(source: SourceEnv): Promise<string[]> {
    return Promise.resolve(
      walkFiles(logsRoot(source), isLog, { maxDepth: 1 }),
    );
  },
  kinds: [logKind],
  docs: {
    store:
      "`${INTENDANT_HOME:-~/.intendant}/logs/<uuid>/session.jsonl` with `session_meta.json` and `turns/turn_NNN_model.txt` beside it (same on every OS); `DEJA_INTENDANT_ROOT` names the logs folder",
    extracts:
      "new era: `conversation_message` records (task, resume, follow-up, steer and askHuman answers as user; assistant text read from its `turns/*_model.txt` span), each `conversation_rewound` cut as a `rewind` mark over the messages after `cut_after_seq`; legacy era (pre-lane logs, or before a `conversation_message_epoch` marker): `session_started` task (else the meta's), delivered steers, `Round N follow-up:` lines, `model_response` sidecars, times rebuilt from the meta date and time-of-day (midnight wrap); meta name/task as title, project_root as project, sessions with a meta `role` as sub-agents",
    omits:
      "wrapper sessions (a `session_identity` event: their messages are canonical in the external backend's own log), system injections, tool output and context summaries (the lane never carries them), reasoning files, runtime stdout/stderr, frames; askHuman answers of legacy logs (never persisted)",
    verified:
      "built from the documented session-log format (seed 001, Session Logging and Message Search); no real sample, fixtures/intendant",
  },
};
