/**
 * Coverage gap: a question asked again and again that recall keeps
 * answering with nothing — memory the agent needs and does not have.
 *
 * @module
 */
import type { MemoryReader } from "../../memory/mod.ts";
import type { RecommendationDraft } from "../../memory/types.ts";
import { fold } from "../_text.ts";
import { makeDraft } from "../_draft.ts";
import type { AnalyzerManifest, ResolvedParams } from "../manifest.ts";
import type { Analyzer } from "../types.ts";

const MANIFEST: AnalyzerManifest = {
  id: "deja.coverage_gap/1",
  title: "Coverage gap",
  description:
    "Recurring recall questions (same folded text) that returned nothing in most of their runs.",
  tier: "light",
  requires: [],
  capabilities: ["telemetry"],
  targets: ["memory"],
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
      name: "min_runs",
      description: "Times a question must be asked",
      kind: "int",
      default: 3,
      min: 1,
      max: 1_000_000,
    },
    {
      name: "min_empty_ratio",
      description: "Share of its runs that returned nothing",
      kind: "float",
      default: 0.8,
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
  const groups = new Map<
    string,
    { query: string; runs: number; empty: number }
  >();
  for (const row of store.telemetry()) {
    if (row.at < since || row.at > now) continue;
    const key = fold(row.query);
    if (!key) continue;
    const g = groups.get(key) ?? { query: row.query.trim(), runs: 0, empty: 0 };
    g.runs++;
    if (row.results === 0) g.empty++;
    groups.set(key, g);
  }
  const drafts: RecommendationDraft[] = [];
  for (const [key, g] of groups) {
    if (
      g.runs < (params.min_runs as number) ||
      g.empty / g.runs < (params.min_empty_ratio as number)
    ) continue;
    const query = g.query.length > 120 ? `${g.query.slice(0, 119)}…` : g.query;
    drafts.push(makeDraft(MANIFEST, params, {
      target_ref: `entity:coverage/${key.slice(0, 200)}`,
      action: "flag_gap",
      template: {
        id: "coverage.gap",
        args: { query, runs: g.runs, empty: g.empty },
      },
      evidence: [],
      severity: "medium",
      proposal: {
        kind: "host",
        data: { advisory: "coverage_gap", query, runs: g.runs, empty: g.empty },
      },
    }));
  }
  return drafts;
}

/** The coverage gap analyzer (`deja.coverage_gap/1`). */
export const coverageGap: Analyzer = { manifest: MANIFEST, analyze };
