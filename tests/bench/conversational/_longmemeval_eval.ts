/**
 * Runs the LongMemEval-shaped eval: writes every question's haystack as
 * Claude Code transcripts in a project of its own, indexes them with the
 * real indexer, asks each question through `search()` scoped to its project
 * at the question's own date, and scores the sessions returned.
 *
 * A hit is a returned session among the question's `answer_session_ids`.
 * Abstention questions (`_abs`: the haystack never says the answer) are
 * scored apart, against the sessions the benchmark names beside them.
 *
 * @module
 */
import { indexStores, openIndex } from "../../../src/index/mod.ts";
import { search } from "../../../src/search/mod.ts";
import { claudeCode } from "../../../src/sources/claude_code.ts";
import { type CategoryScore, latencyOf, scoreRanks } from "./_eval.ts";
import {
  type ConvertedQuestion,
  convertLongMemEval,
  type LongMemEvalItem,
} from "./longmemeval.ts";

/** A question whose answer session was not first. */
export interface LongMemEvalMiss {
  /** Question id. */
  id: string;
  /** Question type. */
  type: string;
  /** The question. */
  question: string;
  /** 1-based rank of the first answer session, 0 when past ten. */
  rank: number;
  /** The answer sessions' turns marked `has_answer`, shortened. */
  evidence: string[];
  /** The first three sessions: haystack id, tier and best snippet. */
  top: string[];
}

/** One run's report. */
export interface LongMemEvalReport {
  /** Questions asked (abstention ones included). */
  questions: number;
  /** Sessions written. */
  sessions: number;
  /** Turns written. */
  turns: number;
  /** Per question type, then "all" (abstention questions apart). */
  scores: CategoryScore[];
  /** Abstention questions, scored the same way. */
  abstention?: CategoryScore;
  /** Questions skipped: no answer session in the haystack. */
  skipped: number;
  /** In-process search latency, ms. */
  latency: { p50: number; p95: number; max: number };
  /** Questions (not abstention) whose answer session was not first. */
  misses: LongMemEvalMiss[];
}

/** Options for {@linkcode runLongMemEval}. */
export interface LongMemEvalOptions {
  /** Only questions containing this text. */
  only?: string;
}

const isAbstention = (q: LongMemEvalItem) => q.question_id.endsWith("_abs");

/**
 * Converts, indexes and questions the haystacks in a temp dir.
 *
 * @param items LongMemEval questions.
 * @param options A question filter.
 * @returns Scores per question type, latency and misses.
 */
export async function runLongMemEval(
  items: readonly LongMemEvalItem[],
  options: LongMemEvalOptions = {},
): Promise<LongMemEvalReport> {
  const chosen = options.only
    ? items.filter((q) => q.question.includes(options.only!))
    : items;
  const dir = await Deno.makeTempDir({ prefix: "deja-longmemeval-" });
  try {
    const home = `${dir}/home`;
    const store = await convertLongMemEval(chosen, home);
    const indexPath = `${dir}/index.db`;
    const latest = Math.max(0, ...store.questions.map((q) => q.now));
    await indexStores({
      indexPath,
      harnesses: [claudeCode],
      source: { home, env: {}, os: "linux" },
      now: () => latest,
    });
    const db = openIndex(indexPath, { readOnly: true });
    const ranks: Array<{ q: ConvertedQuestion; rank: number }> = [];
    const times: number[] = [];
    const misses: LongMemEvalMiss[] = [];
    let skipped = 0;
    try {
      await search(db, "warm up the cache", { now: latest });
      for (const q of store.questions) {
        const relevant = new Set(
          q.item.answer_session_ids.flatMap((id) =>
            q.sessionIdOf.get(id) ?? []
          ),
        );
        if (relevant.size === 0) {
          skipped++;
          continue;
        }
        const t0 = performance.now();
        const result = await search(db, q.item.question, {
          now: q.now,
          limit: 10,
          project: q.project,
        });
        times.push(performance.now() - t0);
        const rank = result.results.findIndex((h) =>
          relevant.has(h.session.id)
        ) + 1;
        ranks.push({ q, rank });
        if (rank === 1 || isAbstention(q.item)) continue;
        misses.push({
          id: q.item.question_id,
          type: q.item.question_type,
          question: q.item.question,
          rank,
          evidence: evidenceOf(q.item),
          top: result.results.slice(0, 3).map((h) =>
            `${q.haystackIdOf.get(h.session.id) ?? "?"} [${h.tier}] ${
              (h.snippets[0]?.text ?? "").replace(/\s+/g, " ").slice(0, 140)
            }`
          ),
        });
      }
    } finally {
      db.close();
    }
    const answered = ranks.filter((r) => !isAbstention(r.q.item));
    const types = [...new Set(answered.map((r) => r.q.item.question_type))]
      .sort();
    const report: LongMemEvalReport = {
      questions: store.questions.length,
      sessions: store.sessions,
      turns: store.turns,
      scores: [
        ...types.map((t) =>
          scoreRanks(
            t,
            t,
            answered.filter((r) => r.q.item.question_type === t).map((r) =>
              r.rank
            ),
          )
        ),
        scoreRanks("all", "all", answered.map((r) => r.rank)),
      ],
      skipped,
      latency: latencyOf(times),
      misses,
    };
    const abstaining = ranks.filter((r) => isAbstention(r.q.item));
    if (abstaining.length) {
      report.abstention = scoreRanks(
        "abstention",
        "abstention",
        abstaining.map((r) => r.rank),
      );
    }
    return report;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The turns of the answer sessions that hold the answer, shortened. */
function evidenceOf(item: LongMemEvalItem): string[] {
  const out: string[] = [];
  item.haystack_sessions.forEach((turns, s) => {
    const id = item.haystack_session_ids[s] ?? "";
    if (!item.answer_session_ids.includes(id)) return;
    for (const t of turns) {
      if (t.has_answer) {
        out.push(
          `${id} ${t.role}: ${t.content.replace(/\s+/g, " ").slice(0, 150)}`,
        );
      }
    }
  });
  return out;
}
