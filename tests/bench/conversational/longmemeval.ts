/**
 * Turns a LongMemEval-shaped file (an array of questions, each with its own
 * haystack of dated user/assistant chat sessions) into a Claude Code store:
 * every question's haystack under a cwd (so a project) of its own, one
 * transcript per haystack session. The same chat in two haystacks is written
 * twice, once per question, as the benchmark asks each question against its
 * own haystack.
 *
 * @module
 */
import { join } from "node:path";
import { encodeCwd, uuidOf, writeTranscript } from "./convert.ts";

/** One turn of a haystack session. */
export interface LongMemEvalTurn {
  /** "user" or "assistant". */
  role: string;
  /** What was said. */
  content: string;
  /** Set on the turns that hold the answer. */
  has_answer?: boolean;
}

/** One LongMemEval question and its haystack. */
export interface LongMemEvalItem {
  /** E.g. "e47becba"; abstention questions end in "_abs". */
  question_id: string;
  /** single-session-user, multi-session, knowledge-update, … */
  question_type: string;
  /** The question. */
  question: string;
  /** The reference answer. */
  answer: unknown;
  /** When the question is asked: "2023/05/30 (Tue) 23:40". */
  question_date: string;
  /** One date per haystack session. */
  haystack_dates: string[];
  /** One id per haystack session. */
  haystack_session_ids: string[];
  /** The sessions, each a list of turns. */
  haystack_sessions: LongMemEvalTurn[][];
  /** The haystack sessions that hold the answer. */
  answer_session_ids: string[];
}

/** One converted question. */
export interface ConvertedQuestion {
  /** The question as given. */
  item: LongMemEvalItem;
  /** The project its haystack is indexed under. */
  project: string;
  /** When it is asked (ms): relative times in it are read from here. */
  now: number;
  /** Claude Code session id per haystack session id. */
  sessionIdOf: ReadonlyMap<string, string>;
  /** Haystack session id per Claude Code session id (for reports). */
  haystackIdOf: ReadonlyMap<string, string>;
}

/** What {@linkcode convertLongMemEval} wrote. */
export interface ConvertedHaystacks {
  /** Per question, in order. */
  questions: ConvertedQuestion[];
  /** Sessions written. */
  sessions: number;
  /** Turns written. */
  turns: number;
}

/**
 * Parses LongMemEval's dates ("2023/05/30 (Tue) 23:40", also without the
 * weekday or the time) as UTC.
 *
 * @param text A `question_date` or `haystack_dates` value.
 * @returns Milliseconds since the epoch.
 * @example
 * ```ts
 * import { parseLongMemEvalDate } from "./longmemeval.ts";
 * import { equal } from "node:assert/strict";
 * equal(parseLongMemEvalDate("2023/05/30 (Tue) 23:40"), Date.UTC(2023, 4, 30, 23, 40));
 * ```
 */
export function parseLongMemEvalDate(text: string): number {
  const m =
    /^\s*(\d{4})[/-](\d{1,2})[/-](\d{1,2})(?:\s*\([A-Za-z]+\))?(?:\s+(\d{1,2}):(\d{2}))?/
      .exec(text);
  if (!m) throw new SyntaxError(`Cannot read the date "${text}"`);
  return Date.UTC(
    Number(m[1]),
    Number(m[2]) - 1,
    Number(m[3]),
    Number(m[4] ?? 0),
    Number(m[5] ?? 0),
  );
}

/**
 * Whether parsed JSON is LongMemEval-shaped (questions with haystacks) rather
 * than LoCoMo-shaped (conversations with questions).
 *
 * @param data Parsed JSON.
 * @returns True for an array of LongMemEval questions.
 */
export function isLongMemEval(data: unknown): data is LongMemEvalItem[] {
  if (!Array.isArray(data) || data.length === 0) return false;
  const first = data[0] as Record<string, unknown> | null;
  return typeof first === "object" && first !== null &&
    Array.isArray(first.haystack_sessions) && "question" in first;
}

/**
 * Writes each question's haystack as Claude Code transcripts under `home`:
 * a user turn as a user line, an assistant turn as an assistant line, a
 * minute apart from the session's date.
 *
 * @param items LongMemEval questions.
 * @param home The temp HOME.
 * @returns Where each question's sessions went.
 */
export async function convertLongMemEval(
  items: readonly LongMemEvalItem[],
  home: string,
): Promise<ConvertedHaystacks> {
  const out: ConvertedHaystacks = { questions: [], sessions: 0, turns: 0 };
  for (const item of items) {
    const cwd = `/home/u/longmemeval/${item.question_id}`;
    const dir = join(home, ".claude", "projects", encodeCwd(cwd));
    await Deno.mkdir(dir, { recursive: true });
    const sessionIdOf = new Map<string, string>();
    const haystackIdOf = new Map<string, string>();
    for (let s = 0; s < item.haystack_sessions.length; s++) {
      const haystackId = item.haystack_session_ids[s] ?? `session_${s}`;
      const date = item.haystack_dates[s];
      const start = date ? parseLongMemEvalDate(date) : Date.UTC(2023, 0, 1);
      const sessionId = uuidOf(`${item.question_id}/${haystackId}/${s}`);
      const turns = item.haystack_sessions[s]!.filter((t) =>
        typeof t.content === "string" && t.content.trim() !== ""
      ).map((t, i) => ({
        user: t.role === "user",
        text: t.content,
        time: start + i * 60_000,
        seed: `${item.question_id}/${haystackId}/${s}/${i}`,
      }));
      if (turns.length === 0) continue;
      await writeTranscript(join(dir, `${sessionId}.jsonl`), {
        cwd,
        sessionId,
        turns,
      });
      sessionIdOf.set(haystackId, sessionId);
      haystackIdOf.set(sessionId, haystackId);
      out.sessions++;
      out.turns += turns.length;
    }
    out.questions.push({
      item,
      project: item.question_id,
      now: parseLongMemEvalDate(item.question_date),
      sessionIdOf,
      haystackIdOf,
    });
  }
  return out;
}
