/**
 * Retention sweep (opt-in): live facts and observations older than a
 * maximum age, batched per namespace and proposed for forgetting. Off by
 * default: age alone says nothing about truth, so only an operator who
 * wants a retention limit should turn it on.
 *
 * @module
 */
import type { MemoryReader } from "../../memory/mod.ts";
import type { RecommendationDraft, StoredGrain } from "../../memory/types.ts";
import { byAge, DAY_MS, makeDraft } from "../_draft.ts";
import type { AnalyzerManifest, ResolvedParams } from "../manifest.ts";
import type { Analyzer } from "../types.ts";

const MANIFEST: AnalyzerManifest = {
  id: "deja.retention_sweep/1",
  title: "Retention sweep",
  description:
    "Live facts and observations older than max_age, batched per namespace for forgetting.",
  tier: "heavy",
  requires: ["fact", "observation"],
  capabilities: [],
  targets: ["memory"],
  autoApply: "never",
  defaultOn: false,
  params: [
    {
      name: "max_age",
      description: "Grains older than this are over retention",
      kind: "duration",
      default: "365d",
      minMs: DAY_MS,
    },
    {
      name: "grain_type",
      description: "Which grains to sweep",
      kind: "enum",
      default: "both",
      choices: ["fact", "observation", "both"],
    },
    {
      name: "max_grains",
      description: "Most grains per namespace batch (oldest first)",
      kind: "int",
      default: 500,
      min: 1,
      max: 100_000,
    },
  ],
};

function analyze(
  store: MemoryReader,
  params: ResolvedParams,
  now: number,
): RecommendationDraft[] {
  const cutoff = now - (params.max_age as number);
  const which = params.grain_type as string;
  const old: StoredGrain[] = [];
  if (which !== "observation") {
    old.push(...store.byType("fact", { currentOnly: true }));
  }
  if (which !== "fact") {
    old.push(...store.byType("observation", { currentOnly: true }));
  }
  const byNs = new Map<string, StoredGrain[]>();
  for (const s of old) {
    if (
      s.tombstoned || s.grain.created_at <= 0 || s.grain.created_at >= cutoff
    ) continue;
    const list = byNs.get(s.grain.namespace);
    if (list) list.push(s);
    else byNs.set(s.grain.namespace, [s]);
  }
  const drafts: RecommendationDraft[] = [];
  for (
    const [namespace, list] of [...byNs].sort(([a], [b]) => (a < b ? -1 : 1))
  ) {
    const batch = list.sort(byAge).slice(0, params.max_grains as number);
    drafts.push(makeDraft(MANIFEST, params, {
      target_ref: `entity:retention/${namespace}`,
      action: "expire",
      template: {
        id: "retention.overdue",
        args: {
          count: list.length,
          namespace,
          max_age_days: Math.round((params.max_age as number) / DAY_MS),
        },
      },
      evidence: batch.map((s) => s.hash),
      severity: "low",
      proposal: {
        kind: "ops",
        ops: batch.map((s) => ({ op: "FORGET" as const, target: s.hash })),
      },
    }));
  }
  return drafts;
}

/** The retention sweep analyzer (`deja.retention_sweep/1`). */
export const retentionSweep: Analyzer = { manifest: MANIFEST, analyze };
