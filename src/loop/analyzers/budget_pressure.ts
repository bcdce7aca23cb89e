/**
 * Budget pressure: recalls whose answers keep overflowing their token
 * budget, read from the recall telemetry table.
 *
 * @module
 */
import type { MemoryReader } from "../../memory/mod.ts";
import type { RecommendationDraft } from "../../memory/types.ts";
import { makeDraft } from "../_draft.ts";
import type { AnalyzerManifest, ResolvedParams } from "../manifest.ts";
import type { Analyzer } from "../types.ts";

const MANIFEST: AnalyzerManifest = {
  id: "deja.budget_pressure/1",
  title: "Budget pressure",
  description:
    "Recorded recalls that needed more tokens than their budget in most recent assemblies.",
  tier: "light",
  requires: [],
  capabilities: ["telemetry"],
  targets: ["query"],
  autoApply: "never",
  defaultOn: true,
  params: [
    {
      name: "window",
      description: "Only recalls this recent count",
      kind: "duration",
      default: "30d",
    },
    {
      name: "min_samples",
      description: "Recalls needed before judging",
      kind: "int",
      default: 20,
      min: 1,
      max: 1_000_000,
    },
    {
      name: "min_overflow_ratio",
      description: "Share of recalls over budget",
      kind: "float",
      default: 0.5,
      min: 0,
      max: 1,
    },
  ],
};

function analyze(
  store: MemoryReader,
  params: ResolvedParams,
  now: number,
): RecommendationDraft[] {
  const since = now - (params.window as number);
  let samples = 0;
  let overflow = 0;
  let tokens = 0;
  let budget = 0;
  for (const row of store.telemetry()) {
    if (row.at < since || row.at > now || row.budget <= 0) continue;
    samples++;
    tokens += row.tokens;
    budget += row.budget;
    if (row.tokens > row.budget) overflow++;
  }
  if (
    samples < (params.min_samples as number) ||
    overflow / samples < (params.min_overflow_ratio as number)
  ) return [];
  return [makeDraft(MANIFEST, params, {
    target_ref: "entity:budget/assembly",
    action: "flag",
    template: { id: "budget.pressure", args: { overflow, samples } },
    evidence: [],
    severity: "medium",
    proposal: {
      kind: "host",
      data: {
        advisory: "budget_pressure",
        samples,
        overflow,
        mean_tokens: Math.round(tokens / samples),
        mean_budget: Math.round(budget / samples),
      },
    },
  })];
}

/** The budget pressure analyzer (`deja.budget_pressure/1`). */
export const budgetPressure: Analyzer = { manifest: MANIFEST, analyze };
