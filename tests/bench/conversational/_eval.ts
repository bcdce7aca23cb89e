/**
 * Runs the conversational-memory eval: converts LoCoMo-shaped samples into a
 * Claude Code store, indexes it with the real indexer (the code path of
 * `deja index`), asks every question with evidence through `search()`
 * scoped to its conversation's project, and scores the sessions returned.
 *
 * A hit is a returned session that holds any evidence turn.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { indexStores, openIndex } from "../../../src/index/mod.ts";
import { search, type SearchResult } from "../../../src/search/mod.ts";
import { claudeCode } from "../../../src/sources/claude_code.ts";
import {
  type ConvertedSample,
  convertLocomo,
  type LocomoSample,
  type SpeakerMap,
} from "./convert.ts";

/** LoCoMo's question categories. */
export const CATEGORY_NAMES: Readonly<Record<number, string>> = {
  1: "multi-hop",
  2: "temporal",
  3: "open-domain",
  4: "single-hop",
  5: "adversarial",
};

/** Scores for one category (or all). */
export interface CategoryScore {
  /**
   * Category number, "all" (categories 1–4) or "every" (1–5); for
   * LongMemEval, the question type.
   */
  category: number | string;
  /** Its name. */
  name: string;
  /** Questions asked. */
  n: number;
  /** Share with an evidence session first. */
  hit1: number;
  /** Share with an evidence session in the first five. */
  hit5: number;
  /** Mean reciprocal rank of the first evidence session (0 past 10). */
  mrr: number;
}

/** A question whose evidence was not first. */
export interface ConversationalMiss {
  /** Sample id. */
  sample: string;
  /** Category. */
  category: number;
  /** The question. */
  question: string;
  /** 1-based rank of the first evidence session, 0 when past ten. */
  rank: number;
  /** The evidence turns as written. */
  evidence: string[];
  /** The first three sessions: LoCoMo session number and best snippet. */
  top: string[];
}

/** What a CLI spot check found. */
export interface CliCheck {
  /** Questions run through `deja search --json`. */
  asked: number;
  /** Of those, how many returned the same sessions in the same order. */
  agreed: number;
  /** Questions that disagreed. */
  disagreements: string[];
}

/** One run's report. */
export interface ConversationalReport {
  /** Samples converted. */
  samples: number;
  /** Sessions written. */
  sessions: number;
  /** Turns written. */
  turns: number;
  /** Per category present, then "all" over categories 1–4. */
  scores: CategoryScore[];
  /** Category 5, scored the same way but reported apart. */
  adversarial?: CategoryScore;
  /**
   * Every question, category 5 too (how some published LoCoMo figures
   * count: 1,982 questions of ten conversations).
   */
  everything?: CategoryScore;
  /** Questions skipped: no evidence, or evidence naming no session. */
  skipped: number;
  /** In-process search latency, ms. */
  latency: { p50: number; p95: number; max: number };
  /** Questions not answered first (categories 1–4). */
  misses: ConversationalMiss[];
  /** The CLI spot check, when asked for. */
  cli?: CliCheck;
}

/** Options for {@linkcode runConversationalEval}. */
export interface ConversationalEvalOptions {
  /** Which speaker writes user turns (default speaker_a). */
  speakers?: SpeakerMap;
  /** Prefix turns with the speaker's name (default true). */
  names?: boolean;
  /** Keep shared photos' captions (default true). */
  captions?: boolean;
  /** Search every conversation at once instead of scoping to its project. */
  unscoped?: boolean;
  /**
   * Write every conversation under one cwd (one project): searched as
   * unscoped, whatever `unscoped` says.
   */
  oneProject?: boolean;
  /** Only questions containing this text. */
  only?: string;
  /** Also run this many questions through the CLI and compare. */
  cli?: number;
  /** The clock for search (default: now). */
  now?: number;
}

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * p))] ?? 0;
}

/**
 * The median, 95th percentile and maximum of some timings (nearest rank).
 *
 * @param times Timings, ms.
 * @returns p50, p95 and max (0 for none).
 */
export function latencyOf(
  times: number[],
): { p50: number; p95: number; max: number } {
  return {
    p50: percentile(times, 0.5),
    p95: percentile(times, 0.95),
    max: Math.max(0, ...times),
  };
}

interface Asked {
  sample: ConvertedSample;
  category: number;
  question: string;
  evidence: string[];
  relevant: Set<string>;
}

function score(
  ranks: Array<{ q: Asked; rank: number }>,
  category: number | "all" | "every",
): CategoryScore {
  const of = ranks.filter((r) =>
    category === "every"
      ? true
      : category === "all"
      ? r.q.category !== 5
      : r.q.category === category
  );
  return scoreRanks(
    category,
    category === "all"
      ? "all (1–4)"
      : category === "every"
      ? "every question (1–5)"
      : CATEGORY_NAMES[category] ?? "?",
    of.map((r) => r.rank),
  );
}

/**
 * hit@1, hit@5 and MRR of a set of questions.
 *
 * @param category What the set is (a category, a question type, "all").
 * @param name Its name in the table.
 * @param ranks Each question's 1-based rank of its first answer session, 0
 *   when it was not in the first ten.
 * @returns The scores.
 */
export function scoreRanks(
  category: number | string,
  name: string,
  ranks: readonly number[],
): CategoryScore {
  const n = ranks.length || 1;
  return {
    category,
    name,
    n: ranks.length,
    hit1: ranks.filter((r) => r === 1).length / n,
    hit5: ranks.filter((r) => r >= 1 && r <= 5).length / n,
    mrr: ranks.reduce((a, r) => a + (r > 0 ? 1 / r : 0), 0) / n,
  };
}

/**
 * Converts, indexes and questions the samples in a temp dir.
 *
 * @param samples LoCoMo-shaped samples.
 * @param options How turns are written, a question filter, a CLI check.
 * @returns Scores per category, latency, misses and the CLI check.
 */
export async function runConversationalEval(
  samples: readonly LocomoSample[],
  options: ConversationalEvalOptions = {},
): Promise<ConversationalReport> {
  const dir = await Deno.makeTempDir({ prefix: "deja-conversational-" });
  // One project for every conversation: no project tells them apart.
  const unscoped = options.unscoped === true || options.oneProject === true;
  try {
    const home = `${dir}/home`;
    const store = await convertLocomo(samples, {
      home,
      ...(options.speakers ? { speakers: options.speakers } : {}),
      ...(options.names === undefined ? {} : { names: options.names }),
      ...(options.captions === undefined ? {} : { captions: options.captions }),
      ...(options.oneProject ? { oneProject: true } : {}),
    });
    const now = options.now ?? Date.now();
    const indexPath = `${dir}/index.db`;
    await indexStores({
      indexPath,
      harnesses: [claudeCode],
      source: { home, env: {}, os: "linux" },
      now: () => now,
    });
    const asked: Asked[] = [];
    let skipped = 0;
    samples.forEach((sample, i) => {
      const converted = store.samples[i]!;
      for (const qa of sample.qa) {
        if (options.only && !qa.question.includes(options.only)) continue;
        const relevant = new Set(
          qa.evidence.flatMap((e) => converted.sessionOf(e) ?? []),
        );
        if (relevant.size === 0) {
          skipped++;
          continue;
        }
        asked.push({
          sample: converted,
          category: qa.category,
          question: qa.question,
          evidence: qa.evidence,
          relevant,
        });
      }
    });
    const numberOf = new Map<string, string>();
    for (const s of store.samples) {
      // Unscoped, a hit may come from another conversation: name it.
      const prefix = unscoped ? `${s.sampleId} ` : "";
      for (const sess of s.sessions) {
        numberOf.set(sess.sessionId, `${prefix}S${sess.number}`);
      }
    }
    const db = openIndex(indexPath, { readOnly: true });
    const ranks: Array<{ q: Asked; rank: number }> = [];
    const times: number[] = [];
    const misses: ConversationalMiss[] = [];
    const answers: SearchResult[] = [];
    try {
      await search(db, "warm up the cache", { now });
      for (const q of asked) {
        const t0 = performance.now();
        const result = await search(db, q.question, {
          now,
          limit: 10,
          ...(unscoped ? {} : { project: q.sample.project }),
        });
        times.push(performance.now() - t0);
        answers.push(result);
        const rank = result.results.findIndex((h) =>
          q.relevant.has(h.session.id)
        ) + 1;
        ranks.push({ q, rank });
        if (rank !== 1 && q.category !== 5) {
          misses.push({
            sample: q.sample.sampleId,
            category: q.category,
            question: q.question,
            rank,
            evidence: q.evidence.map((e) =>
              `${e}: ${q.sample.turnText(e) ?? "?"}`
            ),
            top: result.results.slice(0, 3).map((h) =>
              `${numberOf.get(h.session.id) ?? "?"} [${h.tier}] ${
                (h.snippets[0]?.text ?? "").replace(/\s+/g, " ").slice(0, 140)
              }`
            ),
          });
        }
      }
    } finally {
      db.close();
    }
    const categories = [...new Set(asked.map((q) => q.category))]
      .filter((c) => c !== 5).sort();
    const report: ConversationalReport = {
      samples: samples.length,
      sessions: store.samples.reduce((a, s) => a + s.sessions.length, 0),
      turns: store.turns,
      scores: [...categories.map((c) => score(ranks, c)), score(ranks, "all")],
      skipped,
      latency: latencyOf(times),
      misses,
    };
    if (asked.some((q) => q.category === 5)) {
      report.adversarial = score(ranks, 5);
      report.everything = score(ranks, "every");
    }
    if (options.cli && asked.length > 0) {
      report.cli = await cliCheck(
        asked,
        answers,
        options.cli,
        { index: indexPath, home },
        unscoped,
      );
    }
    return report;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * Runs an even spread of the questions through `deja search --json` and
 * checks the CLI returns the sessions the library did, in the same order.
 */
async function cliCheck(
  asked: readonly Asked[],
  answers: readonly SearchResult[],
  count: number,
  where: { index: string; home: string },
  unscoped: boolean,
): Promise<CliCheck> {
  const main = fileURLToPath(new URL("../../../main.ts", import.meta.url));
  const step = Math.max(1, Math.floor(asked.length / count));
  const out: CliCheck = { asked: 0, agreed: 0, disagreements: [] };
  for (let i = 0; i < asked.length && out.asked < count; i += step) {
    const q = asked[i]!;
    const run = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        main,
        "search",
        q.question,
        // Asked as the library asked it: of one conversation, or of all.
        ...(unscoped ? [] : ["--project", q.sample.project]),
        "--limit",
        "10",
        "--json",
      ],
      env: { DEJA_INDEX: where.index, HOME: where.home, NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    out.asked++;
    const ids = (() => {
      try {
        const parsed = JSON.parse(new TextDecoder().decode(run.stdout)) as {
          results: Array<{ session: { id: string } }>;
        };
        return parsed.results.map((r) => r.session.id);
      } catch {
        return [`(exit ${run.code}) ${new TextDecoder().decode(run.stderr)}`];
      }
    })();
    const lib = answers[i]!.results.map((r) => r.session.id);
    if (ids.join(",") === lib.join(",")) out.agreed++;
    else out.disagreements.push(q.question);
  }
  return out;
}
