/**
 * Goal stagnation (opt-in): an active goal with little progress that has
 * been open a long time. Off by default because long-running work looks the
 * same as stalled work.
 *
 * @module
 */
import type { MemoryReader } from "../../memory/mod.ts";
import type { RecommendationDraft } from "../../memory/types.ts";
import { DAY_MS, makeDraft } from "../_draft.ts";
import type { AnalyzerManifest, ResolvedParams } from "../manifest.ts";
import type { Analyzer } from "../types.ts";

const MANIFEST: AnalyzerManifest = {
  id: "deja.goal_stagnation/1",
  title: "Goal stagnation",
  description:
    "Active goals at or below max_progress that were created at least min_age ago.",
  tier: "light",
  requires: ["goal"],
  capabilities: [],
  targets: ["memory"],
  autoApply: "never",
  defaultOn: false,
  params: [
    {
      name: "max_progress",
      description: "Progress at or below which a goal counts as stalled",
      kind: "float",
      default: 0.1,
      min: 0,
      max: 1,
    },
    {
      name: "min_age",
      description: "How long a goal must have been open",
      kind: "duration",
      default: "30d",
    },
  ],
};

function analyze(
  store: MemoryReader,
  params: ResolvedParams,
  now: number,
): RecommendationDraft[] {
  const drafts: RecommendationDraft[] = [];
  for (const s of store.byType("goal", { currentOnly: true })) {
    const g = s.grain;
    if (
      s.tombstoned || g.state !== "active" ||
      g.progress > (params.max_progress as number)
    ) continue;
    const age = now - g.created_at;
    if (age < (params.min_age as number)) continue;
    drafts.push(makeDraft(MANIFEST, params, {
      target_ref: `entity:goals/${g.title}`,
      action: "flag",
      template: {
        id: "goal.stagnation",
        args: {
          goal: g.title,
          progress: Math.round(g.progress * 100),
          age_days: Math.floor(age / DAY_MS),
        },
      },
      evidence: [s.hash],
      severity: "low",
      proposal: {
        kind: "host",
        data: {
          advisory: "goal_stagnation",
          goal: g.title,
          progress: g.progress,
        },
      },
    }));
  }
  return drafts;
}

/** The goal stagnation analyzer (`deja.goal_stagnation/1`). */
export const goalStagnation: Analyzer = { manifest: MANIFEST, analyze };
