/**
 * Runs the recall eval: generates the corpus, indexes it with the real
 * indexer, asks every query through `search()` and scores the answers.
 *
 * @module
 */
import { indexStores, openIndex } from "../../../src/index/mod.ts";
import { search } from "../../../src/search/mod.ts";
import { claudeCode } from "../../../src/sources/claude_code.ts";
import {
  generateRecallCorpus,
  QUERY_KINDS,
  type QueryKind,
  type RecallQuery,
} from "./corpus.ts";

/** Scores for one kind of query (or all of them). */
export interface KindScore {
  /** The kind, or "all". */
  kind: QueryKind | "all";
  /** Queries of that kind. */
  n: number;
  /** Share answered with a grade-2 session first. */
  hit1: number;
  /** Share with a grade-2 session in the first five. */
  hit5: number;
  /** Mean reciprocal rank of the first grade-2 session (0 past 10). */
  mrr: number;
}

/** A query whose answer was not first. */
export interface Miss {
  /** The query. */
  query: RecallQuery;
  /** 1-based rank of the answer, or 0 when not in the first ten. */
  rank: number;
  /** Titles of the first three results, with their tiers. */
  top: string[];
}

/** What one run measured. */
export interface RecallReport {
  /** Sessions in the corpus. */
  sessions: number;
  /** Per kind, then "all". */
  scores: KindScore[];
  /** In-process search latency, ms. */
  latency: { p50: number; p95: number; max: number };
  /** Queries not answered first. */
  misses: Miss[];
}

/** Options for {@linkcode runRecallEval}. */
export interface RecallEvalOptions {
  /** Corpus scale. */
  scale: "full" | "small";
  /** PRNG seed. */
  seed?: number;
  /** Only queries whose id contains this. */
  only?: string;
}

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * p))] ?? 0;
}

/**
 * Generates, indexes and queries the recall corpus in a temp dir.
 *
 * @param options Scale, seed and a query filter.
 * @returns Scores per kind, latency and misses.
 */
export async function runRecallEval(
  options: RecallEvalOptions,
): Promise<RecallReport> {
  const dir = await Deno.makeTempDir({ prefix: "deja-recall-" });
  try {
    const home = `${dir}/home`;
    const corpus = await generateRecallCorpus(home, {
      scale: options.scale,
      ...(options.seed === undefined ? {} : { seed: options.seed }),
    });
    const indexPath = `${dir}/index.db`;
    await indexStores({
      indexPath,
      harnesses: [claudeCode],
      source: { home, env: {}, os: "linux" },
      now: () => corpus.now,
    });
    const db = openIndex(indexPath, { readOnly: true });
    const ranks: Array<{ query: RecallQuery; rank: number }> = [];
    const times: number[] = [];
    const misses: Miss[] = [];
    try {
      const queries = corpus.queries.filter((q) =>
        !options.only || q.id.includes(options.only)
      );
      // One untimed query warms SQLite's page cache and the JIT.
      await search(db, "warm up the cache", { now: corpus.now });
      for (const query of queries) {
        const t0 = performance.now();
        const result = await search(db, query.text, {
          now: corpus.now,
          limit: 10,
        });
        times.push(performance.now() - t0);
        const index = result.results.findIndex((hit) =>
          query.relevant[hit.session.id] === 2
        );
        const rank = index + 1;
        ranks.push({ query, rank });
        if (rank !== 1) {
          misses.push({
            query,
            rank,
            top: result.results.slice(0, 3).map((h) =>
              `${(h as { tier?: string }).tier ?? "?"} ${
                query.relevant[h.session.id] ?? 0
              } ${h.session.title.slice(0, 70)}`
            ),
          });
        }
      }
    } finally {
      db.close();
    }
    const score = (kind: QueryKind | "all"): KindScore => {
      const of = ranks.filter((r) => kind === "all" || r.query.kind === kind);
      const n = of.length || 1;
      return {
        kind,
        n: of.length,
        hit1: of.filter((r) => r.rank === 1).length / n,
        hit5: of.filter((r) => r.rank >= 1 && r.rank <= 5).length / n,
        mrr: of.reduce((a, r) => a + (r.rank > 0 ? 1 / r.rank : 0), 0) / n,
      };
    };
    return {
      sessions: corpus.sessions,
      scores: [...QUERY_KINDS.map(score).filter((s) => s.n > 0), score("all")],
      latency: {
        p50: percentile(times, 0.5),
        p95: percentile(times, 0.95),
        max: Math.max(0, ...times),
      },
      misses,
    };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
