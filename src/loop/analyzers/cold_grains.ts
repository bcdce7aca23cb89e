/**
 * Cold grains: live facts that recorded recalls never returned, over a
 * period the telemetry actually covers. A fact is only called cold when
 * both it and the telemetry are older than `min_age`, so a fresh telemetry
 * table cannot make the whole file look unused.
 *
 * @module
 */
import type { MemoryReader } from "../../memory/mod.ts";
import type { RecommendationDraft } from "../../memory/types.ts";
import { byAge, DAY_MS, makeDraft } from "../_draft.ts";
import type { AnalyzerManifest, ResolvedParams } from "../manifest.ts";
import type { Analyzer } from "../types.ts";

const MANIFEST: AnalyzerManifest = {
  id: "deja.cold_grains/1",
  title: "Cold grains",
  description:
    "Live facts never returned by a recorded recall during at least min_age of telemetry coverage.",
  tier: "light",
  requires: ["fact"],
  capabilities: ["telemetry"],
  targets: ["memory"],
  autoApply: "never",
  defaultOn: true,
  params: [
    {
      name: "min_age",
      description:
        "Observed time (fact age within telemetry coverage) before a fact can be cold",
      kind: "duration",
      default: "30d",
    },
    {
      name: "max_recalls",
      description: "Recall count at or below which a fact is cold",
      kind: "int",
      default: 0,
      min: 0,
      max: 1_000_000,
    },
    {
      name: "min_queries",
      description: "Recorded recalls needed before judging",
      kind: "int",
      default: 20,
      min: 1,
      max: 1_000_000,
    },
    {
      name: "max_report",
      description: "Most cold facts reported per run (oldest first)",
      kind: "int",
      default: 50,
      min: 1,
      max: 10_000,
    },
  ],
};

function analyze(
  store: MemoryReader,
  params: ResolvedParams,
  now: number,
): RecommendationDraft[] {
  const rows = store.telemetry();
  if (rows.length < (params.min_queries as number)) return [];
  const firstAt = Math.min(...rows.map((r) => r.at));
  const counts = store.recallCounts();
  const minAge = params.min_age as number;
  const cold = store.byType("fact", { currentOnly: true }).filter((f) => {
    if (f.tombstoned) return false;
    const observedFrom = Math.max(f.grain.created_at, firstAt);
    return now - observedFrom >= minAge &&
      (counts.get(f.hash) ?? 0) <= (params.max_recalls as number);
  }).sort(byAge).slice(0, params.max_report as number);
  return cold.map((f) => {
    const from = Math.max(f.grain.created_at, firstAt);
    const queries = rows.filter((r) => r.at >= from && r.at <= now).length;
    return makeDraft(MANIFEST, params, {
      target_ref: `grain:${f.hash}`,
      action: "flag_cold",
      template: {
        id: "cold.grain",
        args: {
          subject: f.grain.subject,
          relation: f.grain.relation,
          queries,
          age_days: Math.floor((now - from) / DAY_MS),
        },
      },
      evidence: [f.hash],
      severity: "low",
      proposal: {
        kind: "host",
        data: {
          advisory: "cold_grain",
          hash: f.hash,
          recalls: counts.get(f.hash) ?? 0,
        },
      },
    });
  });
}

/** The cold grains analyzer (`deja.cold_grains/1`). */
export const coldGrains: Analyzer = { manifest: MANIFEST, analyze };
