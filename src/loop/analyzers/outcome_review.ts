/**
 * Outcome review: re-measures applied recommendations whose metric horizon
 * has passed and proposes a revert when the metric regressed. This is what
 * makes approve and auto-apply accountable to what happened afterwards.
 *
 * @module
 */
import type { MemoryReader, RecommendationView } from "../../memory/mod.ts";
import type { FactGrain, RecommendationDraft } from "../../memory/types.ts";
import { DAY_MS, makeDraft } from "../_draft.ts";
import type { AnalyzerManifest, ResolvedParams } from "../manifest.ts";
import type { Analyzer } from "../types.ts";
import { contradictionRecurrence } from "./contradiction_sweep.ts";
import { failureRecurrence } from "./tool_failure.ts";

const MANIFEST: AnalyzerManifest = {
  id: "deja.outcome_review/1",
  title: "Outcome review",
  description:
    "Applied recommendations past a metric horizon are re-measured; a regression proposes a revert.",
  tier: "light",
  requires: ["recommendation"],
  capabilities: [],
  targets: ["memory"],
  autoApply: "never",
  defaultOn: true,
  params: [
    {
      name: "tolerance",
      description: "How far above baseline counts as a regression",
      kind: "float",
      default: 0,
      min: 0,
      max: 1_000_000,
    },
  ],
};

/** A re-measured metric. */
export interface Measurement {
  /** Metric name. */
  metric: string;
  /** Value when applied. */
  baseline: number;
  /** Value now. */
  current: number;
  /** Grains behind the current value. */
  evidence: string[];
}

/**
 * Re-measures the metric of an applied recommendation, for the metrics the
 * built-in analyzers declare.
 *
 * @param store The memory reader.
 * @param rec The applied recommendation.
 * @param now The run's timestamp.
 * @returns The measurement, or undefined for metrics it cannot re-run.
 */
export function remeasure(
  store: MemoryReader,
  rec: RecommendationView,
  now: number,
): Measurement | undefined {
  const metric = rec.grain.metric;
  if (!metric || rec.applied_at === undefined) return undefined;
  if (metric.name === "tool_error_recurrence") {
    const { tool, signature } = rec.grain.template.args;
    if (typeof tool !== "string" || typeof signature !== "string") {
      return undefined;
    }
    const evidence = failureRecurrence(
      store,
      tool,
      signature,
      rec.applied_at,
      now,
    );
    return {
      metric: metric.name,
      baseline: metric.value,
      current: evidence.length,
      evidence,
    };
  }
  if (metric.name === "contradiction_recurrence") {
    const proposal = rec.grain.proposal;
    if (proposal.kind !== "ops") return undefined;
    const fact = proposal.ops.map((
      op,
    ) => ("grain" in op ? op.grain : undefined))
      .find((g): g is FactGrain => g?.type === "fact");
    if (!fact) return undefined;
    const m = contradictionRecurrence(
      store,
      fact.namespace,
      fact.subject,
      fact.relation,
    );
    return {
      metric: metric.name,
      baseline: metric.value,
      current: m.value,
      evidence: m.evidence,
    };
  }
  return undefined;
}

function analyze(
  store: MemoryReader,
  params: ResolvedParams,
  now: number,
): RecommendationDraft[] {
  const drafts: RecommendationDraft[] = [];
  for (const rec of store.recommendations({ status: "applied", now })) {
    const metric = rec.grain.metric;
    if (!metric || rec.applied_at === undefined) continue;
    const due = metric.horizon_days.filter((d) =>
      rec.applied_at! + d * DAY_MS <= now
    );
    if (due.length === 0) continue;
    const m = remeasure(store, rec, now);
    if (!m || m.current <= m.baseline + (params.tolerance as number)) continue;
    drafts.push(makeDraft(MANIFEST, params, {
      target_ref: rec.grain.target_ref,
      action: "revert",
      template: {
        id: "outcome.regression",
        args: {
          rec: rec.hash.slice(0, 12),
          metric: m.metric,
          baseline: m.baseline,
          current: m.current,
        },
      },
      evidence: [rec.hash, ...m.evidence],
      severity: "high",
      proposal: {
        kind: "host",
        data: {
          revert_of: rec.hash,
          metric: m.metric,
          baseline: m.baseline,
          current: m.current,
          horizon_days: Math.max(...due),
        },
      },
    }));
  }
  return drafts;
}

/** The outcome review analyzer (`deja.outcome_review/1`). */
export const outcomeReview: Analyzer = { manifest: MANIFEST, analyze };
