/**
 * The check the blind conversational sets share: every question asked, and
 * overall hit@5 at or above a floor, naming the questions that fell out of
 * the first five when it is not.
 *
 * @module
 */
import { equal, ok } from "node:assert/strict";
import type { CategoryScore } from "./_eval.ts";

/** What a conversational eval reports, as far as the floor reads it. */
export interface FloorReport {
  /** Scores per category, with an "all" row. */
  scores: readonly CategoryScore[];
  /** Questions skipped. */
  skipped: number;
  /** Questions not answered first, with the rank of their answer. */
  misses: ReadonlyArray<{ question: string; rank: number }>;
}

/**
 * Asserts a report asked all its questions and holds hit@5 at the floor.
 *
 * @param report The eval's report.
 * @param questions How many questions the set has.
 * @param floor The lowest overall hit@5 allowed.
 */
export function assertHit5Floor(
  report: FloorReport,
  questions: number,
  floor: number,
): void {
  equal(report.skipped, 0);
  const all = report.scores.find((s) => s.category === "all")!;
  equal(all.n, questions);
  ok(
    all.hit5 >= floor,
    `hit@5 ${all.hit5.toFixed(3)} < ${floor}: ${
      report.misses.filter((m) => m.rank === 0 || m.rank > 5).map((m) =>
        m.question
      ).join(" | ")
    }`,
  );
}
