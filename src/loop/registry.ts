/**
 * The built-in analyzers, in the order a run executes them.
 *
 * @module
 */
import type { Analyzer } from "./types.ts";
import { toolFailure } from "./analyzers/tool_failure.ts";
import { duplicateSweep } from "./analyzers/duplicate_sweep.ts";
import { contradictionSweep } from "./analyzers/contradiction_sweep.ts";
import { staleness } from "./analyzers/staleness.ts";
import { forkSurfacing } from "./analyzers/fork_surfacing.ts";
import { outcomeReview } from "./analyzers/outcome_review.ts";
import { skillStall } from "./analyzers/skill_stall.ts";
import { goalStagnation } from "./analyzers/goal_stagnation.ts";
import { coldGrains } from "./analyzers/cold_grains.ts";
import { coverageGap } from "./analyzers/coverage_gap.ts";
import { budgetPressure } from "./analyzers/budget_pressure.ts";
import { retentionSweep } from "./analyzers/retention_sweep.ts";

/**
 * Every built-in analyzer. The count is pinned by a test; the default-on
 * set follows the precision bench (`deno task bench:loop`).
 *
 * @example
 * ```ts
 * import { ANALYZERS } from "./registry.ts";
 * import { equal } from "node:assert/strict";
 * equal(ANALYZERS.length, 12);
 * ```
 */
export const ANALYZERS: readonly Analyzer[] = [
  toolFailure,
  duplicateSweep,
  contradictionSweep,
  staleness,
  forkSurfacing,
  outcomeReview,
  skillStall,
  goalStagnation,
  coldGrains,
  coverageGap,
  budgetPressure,
  retentionSweep,
];

/**
 * Finds a built-in analyzer by id, id without `/major`, or family.
 *
 * @param name `deja.staleness/1`, `deja.staleness` or `staleness`.
 * @param analyzers Where to look (defaults to the built-ins).
 * @returns The analyzer, or undefined.
 * @example
 * ```ts
 * import { findAnalyzer } from "./registry.ts";
 * import { equal } from "node:assert/strict";
 * equal(findAnalyzer("staleness")?.manifest.id, "deja.staleness/1");
 * ```
 */
export function findAnalyzer(
  name: string,
  analyzers: readonly Analyzer[] = ANALYZERS,
): Analyzer | undefined {
  const n = name.trim().toLowerCase();
  return analyzers.find((a) => {
    const id = a.manifest.id.toLowerCase();
    const bare = id.replace(/\/\d+$/, "");
    return n === id || n === bare || n === bare.slice(bare.indexOf(".") + 1);
  });
}
