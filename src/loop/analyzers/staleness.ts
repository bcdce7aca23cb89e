/**
 * Staleness: live grains whose declared `valid_to` has passed. Only expiry
 * someone declared counts; age alone is retention's business.
 *
 * @module
 */
import type { MemoryReader } from "../../memory/mod.ts";
import type { RecommendationDraft, StoredGrain } from "../../memory/types.ts";
import { DAY_MS, makeDraft } from "../_draft.ts";
import type { AnalyzerManifest, ResolvedParams } from "../manifest.ts";
import type { Analyzer } from "../types.ts";

const MANIFEST: AnalyzerManifest = {
  id: "deja.staleness/1",
  title: "Staleness",
  description:
    "Live facts, observations and notes whose declared valid_to has passed, proposed for forgetting.",
  tier: "light",
  requires: ["fact", "observation", "note"],
  capabilities: [],
  targets: ["memory"],
  autoApply: "never",
  defaultOn: true,
  params: [
    {
      name: "grace",
      description: "How long past valid_to before it is flagged",
      kind: "duration",
      default: "0d",
    },
  ],
};

/**
 * A short label for a grain in a summary.
 *
 * @param s A stored grain.
 * @returns Subject, name, title or the first words of its text.
 */
export function labelOf(s: StoredGrain): string {
  const g = s.grain;
  switch (g.type) {
    case "fact":
      return `${g.subject} ${g.relation}`;
    case "observation":
    case "note":
      return g.text.length > 48 ? `${g.text.slice(0, 47)}…` : g.text;
    case "skill":
      return g.name;
    case "goal":
      return g.title;
    case "event":
      return g.tool;
    default:
      return s.hash.slice(0, 12);
  }
}

function analyze(
  store: MemoryReader,
  params: ResolvedParams,
  now: number,
): RecommendationDraft[] {
  const cutoff = now - (params.grace as number);
  const drafts: RecommendationDraft[] = [];
  const live: StoredGrain[] = [
    ...store.byType("fact", { currentOnly: true }),
    ...store.byType("observation", { currentOnly: true }),
    ...store.byType("note", { currentOnly: true }),
  ];
  for (const s of live) {
    const validTo = s.grain.valid_to;
    if (s.tombstoned || validTo === undefined || validTo >= cutoff) continue;
    const daysPast = Math.floor((now - validTo) / DAY_MS);
    drafts.push(makeDraft(MANIFEST, params, {
      target_ref: `grain:${s.hash}`,
      action: "expire",
      template: {
        id: "staleness.expired",
        args: { type: s.grain.type, label: labelOf(s), days_past: daysPast },
      },
      evidence: [s.hash],
      severity: daysPast > 90 ? "medium" : "low",
      proposal: { kind: "ops", ops: [{ op: "FORGET", target: s.hash }] },
    }));
  }
  return drafts;
}

/** The staleness analyzer (`deja.staleness/1`). */
export const staleness: Analyzer = { manifest: MANIFEST, analyze };
