/**
 * Fork surfacing: supersession chains with more than one current head (two
 * writers replaced the same grain independently). Only grains superseded
 * twice are examined, so the cost follows the number of fork points, not
 * the size of the file.
 *
 * @module
 */
import type { MemoryReader } from "../../memory/mod.ts";
import type {
  GrainType,
  RecommendationDraft,
  StoredGrain,
} from "../../memory/types.ts";
import { byAge, makeDraft, replacementOf } from "../_draft.ts";
import type { AnalyzerManifest, ResolvedParams } from "../manifest.ts";
import type { Analyzer } from "../types.ts";
import { labelOf } from "./staleness.ts";

const CHAIN_TYPES: GrainType[] = [
  "fact",
  "observation",
  "note",
  "skill",
  "goal",
];

const MANIFEST: AnalyzerManifest = {
  id: "deja.fork_surfacing/1",
  title: "Fork surfacing",
  description:
    "Supersession chains with more than one current head, proposed for merging into the most recent head.",
  tier: "light",
  requires: CHAIN_TYPES,
  capabilities: ["forks"],
  targets: ["memory"],
  autoApply: "never",
  defaultOn: true,
  params: [
    {
      name: "max_forks",
      description: "Most forks reported per run (most heads first)",
      kind: "int",
      default: 100,
      min: 1,
      max: 10_000,
    },
  ],
};

function analyze(
  store: MemoryReader,
  params: ResolvedParams,
): RecommendationDraft[] {
  const forks = new Map<string, { root: string; heads: StoredGrain[] }>();
  const seen = new Set<string>();
  for (const { parent, heads: headHashes } of store.forks()) {
    if (forks.has(parent)) continue;
    const all = headHashes
      .map((h) => store.get(h))
      .filter((s): s is StoredGrain =>
        s !== undefined && !s.tombstoned && CHAIN_TYPES.includes(s.grain.type)
      );
    const ids = new Set(all.map((s) => s.hash));
    // A head produced by an earlier merge cites another head; it is not a rival.
    const heads = all.filter((s) =>
      !(s.grain.derived_from ?? []).some((d) => d !== s.hash && ids.has(d))
    );
    const key = heads.map((h) => h.hash).sort().join(",");
    if (heads.length > 1 && !seen.has(key)) {
      seen.add(key);
      forks.set(parent, { root: parent, heads: heads.sort(byAge) });
    }
  }
  const ranked = [...forks.values()]
    .sort((a, b) =>
      b.heads.length - a.heads.length || (a.root < b.root ? -1 : 1)
    )
    .slice(0, params.max_forks as number);
  return ranked.map(({ root, heads }) => {
    const primary = heads[heads.length - 1]!;
    return makeDraft(MANIFEST, params, {
      target_ref: `grain:${root}`,
      action: "merge_heads",
      template: {
        id: "fork.multi_head",
        args: {
          type: primary.grain.type,
          label: labelOf(primary),
          heads: heads.length,
        },
      },
      evidence: heads.map((h) => h.hash),
      severity: "medium",
      proposal: {
        kind: "ops",
        ops: heads.slice(0, -1).map((h) => ({
          op: "SUPERSEDE" as const,
          target: h.hash,
          grain: {
            ...replacementOf(primary.grain),
            derived_from: [primary.hash, h.hash],
          },
        })),
      },
    });
  });
}

/** The fork surfacing analyzer (`deja.fork_surfacing/1`). */
export const forkSurfacing: Analyzer = { manifest: MANIFEST, analyze };
