/**
 * Runs the real-samples eval: lays the samples out in a temp HOME, indexes
 * them with every registered harness, asks each question through
 * `search()` and scores where its answer came.
 *
 * @module
 */
import {
  type Database,
  HARNESSES,
  indexStores,
  openIndex,
  ROLES,
  search,
  type SearchHit,
} from "../../../mod.ts";
import { layOutHome, layOutSamples } from "./_layout.ts";
import {
  DEFAULT_NOW,
  QUESTION_KINDS,
  type QuestionKind,
  QUESTIONS,
  type RealQuestion,
} from "./questions.ts";

/** Scores for one kind of question (or all of them). */
export interface KindScore {
  /** The kind, or "all". */
  kind: QuestionKind | "all";
  /** Questions of that kind. */
  n: number;
  /** Share with an answer first. */
  hit1: number;
  /** Share with an answer in the first five. */
  hit5: number;
  /** Mean reciprocal rank of the first answer (0 past ten). */
  mrr: number;
}

/** One question's outcome. */
export interface Outcome {
  /** The question. */
  question: RealQuestion;
  /** 1-based rank of the first answer, 0 when not in the first ten. */
  rank: number;
  /** The first three results: `harness:id title (tier)`. */
  top: string[];
  /** The best snippet of the best-placed answer, searched within it. */
  answerSnippet?: string;
  /** How the query was read: the terms searched and the ladder. */
  reading?: string;
  /** Milliseconds the search took. */
  ms: number;
}

/** What one run measured. */
export interface RealReport {
  /** Sessions indexed. */
  sessions: number;
  /** Per kind, then "all". */
  scores: KindScore[];
  /** In-process search latency, ms. */
  latency: { p50: number; p95: number; max: number };
  /** Every question's outcome. */
  outcomes: Outcome[];
  /** Answers named by a question that no indexed session carries. */
  missingAnswers: string[];
}

/** Options for {@linkcode runRealEval}. */
export interface RealEvalOptions {
  /** Only questions whose id contains this. */
  only?: string;
  /** Look up each miss's answer snippet (slower). */
  detail?: boolean;
  /** Questions to ask instead of the bundled ones (a held-out set). */
  questions?: readonly RealQuestion[];
  /**
   * Ready HOMEs indexed beside the source (other evals' homes): their
   * sessions compete with the answers, as a longer history would.
   */
  distractors?: readonly string[];
}

/** What to index: the samples folder (laid out in a temp HOME), or a ready HOME. */
export type RealSource = { samples: string } | { home: string };

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * p))] ?? 0;
}

/**
 * The names a hit answers to: `harness:id`, and for aider, whose ids hash
 * the history file's absolute path (so they change with the temp HOME),
 * also `aider:<project>/<n>` (the n-th chat of that project's history).
 */
function keys(hit: SearchHit): string[] {
  const { harness, id, project } = hit.session;
  const aider = harness === "aider" ? /^[0-9a-f]{12}-(\d+)$/.exec(id) : null;
  return [
    `${harness}:${id}`,
    ...(aider ? [`aider:${project}/${aider[1]}`] : []),
  ];
}

function answers(question: RealQuestion, hit: SearchHit): boolean {
  return keys(hit).some((k) => question.answers.includes(k));
}

function key(hit: SearchHit): string {
  return keys(hit).at(-1) as string;
}

function clip(text: string, n: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > n ? `${flat.slice(0, n - 1)}…` : flat;
}

/**
 * Scores ranks per kind.
 *
 * @param outcomes The outcomes.
 * @returns One score per kind present, then "all".
 */
export function scoreOutcomes(outcomes: readonly Outcome[]): KindScore[] {
  const score = (kind: QuestionKind | "all"): KindScore => {
    const of = outcomes.filter((o) =>
      kind === "all" || o.question.kind === kind
    );
    const n = of.length || 1;
    return {
      kind,
      n: of.length,
      hit1: of.filter((o) => o.rank === 1).length / n,
      hit5: of.filter((o) => o.rank >= 1 && o.rank <= 5).length / n,
      mrr: of.reduce((a, o) => a + (o.rank > 0 ? 1 / o.rank : 0), 0) / n,
    };
  };
  // A question file may name kinds of its own: they follow the known ones.
  const kinds = new Set<QuestionKind>([
    ...QUESTION_KINDS,
    ...outcomes.map((o) => o.question.kind),
  ]);
  return [...[...kinds].map(score).filter((s) => s.n > 0), score("all")];
}

/**
 * Indexes the samples in a temp dir and asks every question.
 *
 * @param samples The samples folder (`../shared/samples`).
 * @param options A question filter and whether to fetch miss details.
 * @returns Scores, latency and every outcome.
 */
export async function runRealEval(
  source: RealSource,
  options: RealEvalOptions = {},
): Promise<RealReport> {
  const dir = await Deno.makeTempDir({ prefix: "deja-real-" });
  try {
    const distractors = options.distractors ?? [];
    let home: string;
    if ("home" in source && !distractors.length) home = source.home;
    else {
      home = `${dir}/home`;
      await Deno.mkdir(home);
      if ("home" in source) layOutHome(source.home, home);
      else layOutSamples(source.samples, home);
      for (const other of distractors) layOutHome(other, home);
    }
    const indexPath = `${dir}/index.db`;
    const report = await indexStores({
      indexPath,
      harnesses: HARNESSES,
      source: { home, env: {}, os: "linux" },
      now: () => Date.parse(DEFAULT_NOW),
    });
    const sessions = report.sessions;
    const db = openIndex(indexPath, { readOnly: true });
    const outcomes: Outcome[] = [];
    let missingAnswers: string[] = [];
    const questions = options.questions ?? QUESTIONS;
    try {
      const indexed = new Set(
        (db.prepare("SELECT harness, id, project FROM sessions").all() as Array<
          { harness: string; id: string; project: string }
        >).flatMap((session) => keys({ session } as SearchHit)),
      );
      missingAnswers = [
        ...new Set(questions.flatMap((q) => q.answers)),
      ].filter((a) => !indexed.has(a));
      // One untimed query warms SQLite's page cache and the JIT.
      await search(db, "warm up the cache", { now: Date.parse(DEFAULT_NOW) });
      for (
        const question of questions.filter((q) =>
          !options.only || q.id.includes(options.only)
        )
      ) {
        const now = Date.parse(question.now ?? DEFAULT_NOW);
        const t0 = performance.now();
        const result = await search(db, question.text, { now, limit: 10 });
        const ms = performance.now() - t0;
        const rank = result.results.findIndex((h) => answers(question, h)) +
          1;
        const outcome: Outcome = {
          question,
          rank,
          ms,
          top: result.results.slice(0, 3).map((h) =>
            `${answers(question, h) ? "*" : " "} ${key(h)} ${
              clip(h.session.title, 50)
            } (${h.tier}) :: ${clip(h.snippets[0]?.text ?? "", 90)}`
          ),
          ...(result.reading
            ? {
              reading: `terms [${result.reading.terms.join(", ")}]; ladder ${
                (result.ladder ?? []).map((s) => `${s.tier}:${s.sessions}`)
                  .join(" > ")
              }${result.ignored?.length ? `; ignored ${result.ignored}` : ""}`,
            }
            : {}),
        };
        if (rank !== 1 && options.detail) {
          outcome.answerSnippet = await answerSnippet(db, question, now);
        }
        outcomes.push(outcome);
      }
    } finally {
      db.close();
    }
    const times = outcomes.map((o) => o.ms);
    return {
      sessions,
      scores: scoreOutcomes(outcomes),
      latency: {
        p50: percentile(times, 0.5),
        p95: percentile(times, 0.95),
        max: Math.max(0, ...times),
      },
      outcomes,
      missingAnswers,
    };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * The question searched over every role (work included) of the answer
 * sessions' harnesses; the best snippet of the first answer it finds.
 */
async function answerSnippet(
  db: Database,
  question: RealQuestion,
  now: number,
): Promise<string> {
  const harnesses = [...new Set(question.answers.map((a) => a.split(":")[0]))]
    .filter((h): h is string => !!h);
  const result = await search(db, question.text, {
    now,
    harnesses,
    roles: ROLES,
    all: true,
  });
  const hit = result.results.find((h) => answers(question, h));
  const snip = hit?.snippets[0];
  return hit && snip
    ? `${key(hit)} [${snip.role}] ${clip(snip.text, 160)}`
    : "(no record of any answer session matches the question's words)";
}
