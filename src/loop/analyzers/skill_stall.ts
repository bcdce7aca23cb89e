/**
 * Skill stall: a skill practised many times whose proficiency stays low,
 * read from the skill grain's own fields. Advisory only.
 *
 * @module
 */
import type { MemoryReader } from "../../memory/mod.ts";
import type { RecommendationDraft } from "../../memory/types.ts";
import { makeDraft } from "../_draft.ts";
import type { AnalyzerManifest, ResolvedParams } from "../manifest.ts";
import type { Analyzer } from "../types.ts";

const MANIFEST: AnalyzerManifest = {
  id: "deja.skill_stall/1",
  title: "Skill stall",
  description:
    "Skills practised at least min_practice times whose proficiency is still at or below max_proficiency.",
  tier: "light",
  requires: ["skill"],
  capabilities: [],
  targets: ["memory"],
  autoApply: "never",
  defaultOn: true,
  params: [
    {
      name: "min_practice",
      description: "Practice count that makes a low proficiency notable",
      kind: "int",
      default: 5,
      min: 1,
      max: 1_000_000,
    },
    {
      name: "max_proficiency",
      description: "Proficiency at or below which a skill has stalled",
      kind: "float",
      default: 0.4,
      min: 0,
      max: 1,
    },
  ],
};

function analyze(
  store: MemoryReader,
  params: ResolvedParams,
): RecommendationDraft[] {
  const drafts: RecommendationDraft[] = [];
  for (const s of store.byType("skill", { currentOnly: true })) {
    const g = s.grain;
    if (s.tombstoned || g.practice_count < (params.min_practice as number)) {
      continue;
    }
    const proficiency = Number.isFinite(g.proficiency)
      ? g.proficiency
      : g.confidence ?? 0;
    if (proficiency > (params.max_proficiency as number)) continue;
    drafts.push(makeDraft(MANIFEST, params, {
      target_ref: `entity:skills/${g.name}`,
      action: "flag",
      template: {
        id: "skill.stall",
        args: { skill: g.name, practice_count: g.practice_count, proficiency },
      },
      evidence: [s.hash],
      severity: "medium",
      proposal: {
        kind: "host",
        data: {
          advisory: "skill_stall",
          skill: g.name,
          proficiency,
          practice_count: g.practice_count,
        },
      },
    }));
  }
  return drafts;
}

/** The skill stall analyzer (`deja.skill_stall/1`). */
export const skillStall: Analyzer = { manifest: MANIFEST, analyze };
