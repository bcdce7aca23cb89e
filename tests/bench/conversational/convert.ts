/**
 * Turns a LoCoMo-shaped conversational-memory file (an array of samples,
 * each with `qa` and a `conversation` of dated sessions) into a Claude Code
 * store: one `~/.claude/projects/<encoded-cwd>/<uuid>.jsonl` transcript per
 * conversation session, one cwd (so one project) per sample.
 *
 * The lines are shaped like the ones Claude Code writes: a `user` line with
 * string content, an `assistant` line with a text block, `sessionId`, `cwd`,
 * `uuid`/`parentUuid` chaining and an ISO `timestamp` (the session's date
 * plus a minute per turn). Which speaker becomes the user, whether a turn
 * carries its speaker's name and whether a shared photo's caption is kept
 * are options: the conversion a benchmark author used is not known, so the
 * eval can be run under each.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { join } from "node:path";

/** One turn of a LoCoMo session. */
export interface LocomoTurn {
  /** The speaker's name (speaker_a or speaker_b). */
  speaker: string;
  /** "D<session>:<turn>". */
  dia_id: string;
  /** What was said. */
  text: string;
  /** A machine caption of a photo shared with the turn. */
  blip_caption?: string;
}

/** One question of a LoCoMo sample. */
export interface LocomoQa {
  /** The question. */
  question: string;
  /** The reference answer (categories 1–4). */
  answer?: string | number;
  /** The trap answer (category 5, unanswerable). */
  adversarial_answer?: string;
  /** Turns that hold the answer, as dia ids. */
  evidence: string[];
  /** 1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop, 5 adversarial. */
  category: number;
}

/** One LoCoMo sample: a conversation and its questions. */
export interface LocomoSample {
  /** E.g. "conv-26". */
  sample_id: string;
  /** Questions. */
  qa: LocomoQa[];
  /** speaker_a, speaker_b, session_N_date_time and session_N turns. */
  conversation: Record<string, unknown>;
}

/** Which speaker writes the user turns. */
export type SpeakerMap = "a-user" | "b-user";

/** Options for {@linkcode convertLocomo}. */
export interface ConvertOptions {
  /** The temp HOME the store is written under. */
  home: string;
  /** speaker_a as the user (default) or speaker_b. */
  speakers?: SpeakerMap;
  /** Prefix each turn with "Name: " (default true). */
  names?: boolean;
  /** Append a shared photo's caption (default true). */
  captions?: boolean;
  /**
   * Every conversation under one cwd, so in one project (default: a cwd
   * and project per conversation).
   */
  oneProject?: boolean;
}

/** The project of every conversation written with `oneProject`. */
export const ONE_PROJECT = "conversations";

/** One converted conversation session. */
export interface ConvertedSession {
  /** LoCoMo session number. */
  number: number;
  /** The Claude Code session id (a UUID derived from sample and number). */
  sessionId: string;
  /** The transcript written. */
  path: string;
}

/** One converted sample. */
export interface ConvertedSample {
  /** The sample id. */
  sampleId: string;
  /** The project deja derives from the cwd (the cwd's last segment). */
  project: string;
  /** The cwd every line carries. */
  cwd: string;
  /** Its sessions, in LoCoMo order. */
  sessions: ConvertedSession[];
  /** Session id of each dia id's session ("D3:13" → session 3's id). */
  sessionOf(diaId: string): string | undefined;
  /** The text of a turn, as written (for reports). */
  turnText(diaId: string): string | undefined;
}

/** What {@linkcode convertLocomo} wrote. */
export interface ConvertedStore {
  /** Per sample. */
  samples: ConvertedSample[];
  /** The latest timestamp written (ms). */
  latest: number;
  /** Turns written. */
  turns: number;
}

const MONTHS: Record<string, number> = {
  january: 0,
  february: 1,
  march: 2,
  april: 3,
  may: 4,
  june: 5,
  july: 6,
  august: 7,
  september: 8,
  october: 9,
  november: 10,
  december: 11,
};

/**
 * Parses LoCoMo's session times ("1:56 pm on 8 May, 2023") as UTC.
 *
 * @param text A `session_N_date_time` value.
 * @returns Milliseconds since the epoch.
 * @example
 * ```ts
 * import { parseLocomoDate } from "./convert.ts";
 * import { equal } from "node:assert/strict";
 * equal(parseLocomoDate("1:56 pm on 8 May, 2023"), Date.UTC(2023, 4, 8, 13, 56));
 * ```
 */
export function parseLocomoDate(text: string): number {
  const m =
    /(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([a-z]+),?\s+(\d{4})/i
      .exec(text);
  const month = m ? MONTHS[m[5]!.toLowerCase()] : undefined;
  if (!m || month === undefined) {
    throw new SyntaxError(`Cannot read the session time "${text}"`);
  }
  const hour = Number(m[1]) % 12 + (m[3]!.toLowerCase() === "pm" ? 12 : 0);
  return Date.UTC(Number(m[6]), month, Number(m[4]), hour, Number(m[2]));
}

/** A UUID-shaped id derived from a seed, so reruns write the same ids. */
export function uuidOf(seed: string): string {
  const h = createHash("sha256").update(seed).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${
    h.slice(17, 20)
  }-${h.slice(20, 32)}`;
}

/** Claude Code's folder name for a cwd: every "/" and "." becomes "-". */
export function encodeCwd(cwd: string): string {
  return cwd.replace(/[/.]/g, "-");
}

/** One turn to write: who said it, what, when, and a seed for its uuid. */
export interface TranscriptTurn {
  /** The user said it (else the assistant). */
  user: boolean;
  /** What was said. */
  text: string;
  /** When (ms). */
  time: number;
  /** Seed of the line's uuid (stable across reruns). */
  seed: string;
}

/**
 * Writes turns as one Claude Code transcript: a `user` line with string
 * content or an `assistant` line with a text block, `uuid`/`parentUuid`
 * chained, `sessionId`, `cwd` and an ISO `timestamp` on each.
 *
 * @param path The `.jsonl` file.
 * @param session The cwd and session id every line carries, and the turns.
 * @returns The latest time written (ms), 0 for no turns.
 */
export async function writeTranscript(
  path: string,
  session: { cwd: string; sessionId: string; turns: readonly TranscriptTurn[] },
): Promise<number> {
  const lines: string[] = [];
  let parent: string | null = null;
  let latest = 0;
  for (const turn of session.turns) {
    const uuid = uuidOf(turn.seed);
    latest = Math.max(latest, turn.time);
    const base = {
      parentUuid: parent,
      isSidechain: false,
      userType: "external",
      cwd: session.cwd,
      sessionId: session.sessionId,
      version: "2.1.38",
      gitBranch: "main",
    };
    lines.push(JSON.stringify(
      turn.user
        ? {
          ...base,
          type: "user",
          message: { role: "user", content: turn.text },
          uuid,
          timestamp: new Date(turn.time).toISOString(),
        }
        : {
          ...base,
          message: {
            model: "claude-sonnet-4-5",
            id: `msg_${uuid.replaceAll("-", "").slice(0, 24)}`,
            type: "message",
            role: "assistant",
            content: [{ type: "text", text: turn.text }],
            stop_reason: "end_turn",
          },
          type: "assistant",
          uuid,
          timestamp: new Date(turn.time).toISOString(),
        },
    ));
    parent = uuid;
  }
  await Deno.writeTextFile(path, lines.join("\n") + "\n");
  return latest;
}

/** The session numbers of a conversation, ascending. */
function sessionNumbers(conversation: Record<string, unknown>): number[] {
  return Object.keys(conversation)
    .flatMap((k) => {
      const m = /^session_(\d+)$/.exec(k);
      return m && Array.isArray(conversation[k]) ? [Number(m[1])] : [];
    })
    .sort((a, b) => a - b);
}

function turnBody(
  turn: LocomoTurn,
  options: ConvertOptions,
): string {
  let text = turn.text;
  if (options.captions !== false && turn.blip_caption) {
    text += ` [shared a photo: ${turn.blip_caption}]`;
  }
  return options.names === false ? text : `${turn.speaker}: ${text}`;
}

/**
 * Writes each sample's sessions as Claude Code transcripts under
 * `options.home`.
 *
 * @param samples LoCoMo samples.
 * @param options Where, and how turns are written.
 * @returns The sessions written and how to find a turn's session.
 */
export async function convertLocomo(
  samples: readonly LocomoSample[],
  options: ConvertOptions,
): Promise<ConvertedStore> {
  const out: ConvertedStore = { samples: [], latest: 0, turns: 0 };
  for (const sample of samples) {
    const conv = sample.conversation;
    const a = String(conv.speaker_a ?? "");
    const userName = options.speakers === "b-user"
      ? String(conv.speaker_b ?? "")
      : a;
    const cwd = `/home/u/locomo/${
      options.oneProject ? ONE_PROJECT : sample.sample_id
    }`;
    const dir = join(options.home, ".claude", "projects", encodeCwd(cwd));
    await Deno.mkdir(dir, { recursive: true });
    const sessions: ConvertedSession[] = [];
    const bySession = new Map<number, string>();
    const texts = new Map<string, string>();
    for (const n of sessionNumbers(conv)) {
      const turns = conv[`session_${n}`] as LocomoTurn[];
      const when = conv[`session_${n}_date_time`];
      const start = typeof when === "string"
        ? parseLocomoDate(when)
        : Date.UTC(2023, 0, n);
      const sessionId = uuidOf(`${sample.sample_id}/${n}`);
      const path = join(dir, `${sessionId}.jsonl`);
      const written = turns.map((turn, i) => {
        const body = turnBody(turn, options);
        texts.set(turn.dia_id, body);
        return {
          user: turn.speaker === userName,
          text: body,
          time: start + i * 60_000,
          seed: `${sample.sample_id}/${turn.dia_id}/${i}`,
        };
      });
      out.latest = Math.max(
        out.latest,
        await writeTranscript(path, {
          cwd,
          sessionId,
          turns: written,
        }),
      );
      out.turns += written.length;
      sessions.push({ number: n, sessionId, path });
      bySession.set(n, sessionId);
    }
    out.samples.push({
      sampleId: sample.sample_id,
      project: options.oneProject ? ONE_PROJECT : sample.sample_id,
      cwd,
      sessions,
      sessionOf(diaId) {
        const m = /^D(\d+):\d+/.exec(diaId.trim());
        return m ? bySession.get(Number(m[1])) : undefined;
      },
      turnText: (diaId) => texts.get(diaId.trim()),
    });
  }
  return out;
}
