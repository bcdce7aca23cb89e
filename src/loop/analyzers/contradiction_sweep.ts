/**
 * Contradiction sweep: a subject holding two or more live values under a
 * single-valued (functional) relation. Functional relations come from a
 * seeded list, a parameter, and — when enabled — the file itself: a relation
 * single-valued for most of its subjects is learned as functional.
 *
 * @module
 */
import type { MemoryReader } from "../../memory/mod.ts";
import type {
  FactGrain,
  RecommendationDraft,
  StoredGrain,
} from "../../memory/types.ts";
import { fold, foldValue } from "../_text.ts";
import { byAge, makeDraft, replacementOf } from "../_draft.ts";
import type { AnalyzerManifest, ResolvedParams } from "../manifest.ts";
import type { Analyzer } from "../types.ts";

/** Relations known to hold one value per subject. */
export const SEEDED_FUNCTIONAL: readonly string[] = [
  "uses_version",
  "located_in",
  "pinned_to",
  "owner",
  "deploy_target",
  "lives_in",
  "reports_to",
  "status",
  "tier",
  "region",
  "assigned_to",
  "primary_email",
  "current_plan",
  "default_branch",
];

const MANIFEST: AnalyzerManifest = {
  id: "deja.contradiction_sweep/1",
  title: "Contradiction sweep",
  description:
    "Subjects holding two or more live values under a single-valued relation (seeded, configured, or learned from the file).",
  tier: "light",
  requires: ["fact"],
  capabilities: [],
  targets: ["memory"],
  autoApply: "never",
  defaultOn: true,
  params: [
    {
      name: "extra_relations",
      description: "More single-valued relations, comma separated",
      kind: "str",
      default: "",
      maxLen: 2000,
    },
    {
      name: "learn",
      description: "Learn single-valued relations from the file",
      kind: "bool",
      default: true,
    },
    {
      name: "learn_min_subjects",
      description: "Subjects a relation needs before it can be learned",
      kind: "int",
      default: 5,
      min: 2,
      max: 100_000,
    },
    {
      name: "learn_ratio",
      description: "Share of subjects that must hold one value",
      kind: "float",
      default: 0.8,
      min: 0.5,
      max: 1,
    },
    {
      name: "learn_min_updates",
      description:
        "Times a value under the relation must have been replaced by supersession before it is learned",
      kind: "int",
      default: 2,
      min: 0,
      max: 100_000,
    },
  ],
};

interface Group {
  namespace: string;
  relation: string;
  facts: StoredGrain<FactGrain>[];
  values: Set<string>;
}

/**
 * The relations treated as functional for a set of live-fact groups. A
 * relation is learned when most of its subjects hold one value AND the file
 * shows values being replaced under it (supersession of the same subject
 * and relation): one fact per subject alone says nothing about whether a
 * second value would be a contradiction or simply a second value.
 *
 * @param groups Live facts grouped by (namespace, subject, relation).
 * @param updates Supersessions per folded relation.
 * @param params Resolved params.
 * @returns Folded relation names.
 */
function functionalRelations(
  groups: Iterable<Group>,
  updates: Map<string, number>,
  params: ResolvedParams,
): Set<string> {
  const out = new Set(SEEDED_FUNCTIONAL.map(fold));
  for (const r of String(params.extra_relations).split(",")) {
    if (r.trim()) out.add(fold(r));
  }
  if (!params.learn) return out;
  const stats = new Map<string, { subjects: number; single: number }>();
  for (const g of groups) {
    const s = stats.get(g.relation) ?? { subjects: 0, single: 0 };
    s.subjects++;
    if (g.values.size === 1) s.single++;
    stats.set(g.relation, s);
  }
  for (const [relation, s] of stats) {
    if (
      s.subjects >= (params.learn_min_subjects as number) &&
      s.single / s.subjects >= (params.learn_ratio as number) &&
      (updates.get(relation) ?? 0) >= (params.learn_min_updates as number)
    ) {
      out.add(relation);
    }
  }
  return out;
}

function analyze(
  store: MemoryReader,
  params: ResolvedParams,
): RecommendationDraft[] {
  const groups = new Map<string, Group>();
  const updates = new Map<string, number>();
  for (const f of store.byType("fact", { currentOnly: true })) {
    if (f.tombstoned) continue;
    const g = f.grain;
    if (g.supersedes && params.learn) {
      const prev = store.get(g.supersedes)?.grain;
      if (
        prev?.type === "fact" && fold(prev.subject) === fold(g.subject) &&
        fold(prev.relation) === fold(g.relation)
      ) {
        updates.set(fold(g.relation), (updates.get(fold(g.relation)) ?? 0) + 1);
      }
    }
    const relation = fold(g.relation);
    const key = [g.namespace, fold(g.subject), relation].join("\u0000");
    const group = groups.get(key) ??
      {
        namespace: g.namespace,
        relation,
        facts: [],
        values: new Set<string>(),
      };
    group.facts.push(f);
    group.values.add(foldValue(g.object));
    groups.set(key, group);
  }
  const functional = functionalRelations(groups.values(), updates, params);
  const drafts: RecommendationDraft[] = [];
  for (const group of groups.values()) {
    if (group.values.size < 2 || !functional.has(group.relation)) continue;
    const facts = group.facts.sort(byAge);
    const latest = facts[facts.length - 1]!;
    const latestValue = foldValue(latest.grain.object);
    const stale = facts.filter((f) =>
      foldValue(f.grain.object) !== latestValue
    );
    drafts.push(makeDraft(MANIFEST, params, {
      target_ref:
        `entity:${group.namespace}/${latest.grain.subject}/${latest.grain.relation}`,
      action: "resolve_contradiction",
      template: {
        id: "contradiction.functional",
        args: {
          subject: latest.grain.subject,
          relation: latest.grain.relation,
          count: group.values.size,
        },
      },
      evidence: facts.map((f) => f.hash),
      severity: "medium",
      proposal: {
        kind: "ops",
        ops: stale.map((f) => ({
          op: "SUPERSEDE" as const,
          target: f.hash,
          grain: {
            ...replacementOf(latest.grain),
            derived_from: [latest.hash, f.hash],
          },
        })),
      },
      metric: {
        name: "contradiction_recurrence",
        value: 0,
        horizon_days: [1, 7, 30],
      },
    }));
  }
  return drafts;
}

/** The contradiction sweep analyzer (`deja.contradiction_sweep/1`). */
export const contradictionSweep: Analyzer = { manifest: MANIFEST, analyze };

/**
 * Distinct live values minus one for a subject's relation: the
 * `contradiction_recurrence` metric outcome review re-measures.
 *
 * @param store The memory reader.
 * @param namespace Namespace of the facts.
 * @param subject Subject.
 * @param relation Relation.
 * @returns 0 when consistent.
 */
export function contradictionRecurrence(
  store: MemoryReader,
  namespace: string,
  subject: string,
  relation: string,
): { value: number; evidence: string[] } {
  const values = new Set<string>();
  const evidence: string[] = [];
  for (const f of store.byType("fact", { currentOnly: true, namespace })) {
    if (f.tombstoned) continue;
    if (
      fold(f.grain.subject) !== fold(subject) ||
      fold(f.grain.relation) !== fold(relation)
    ) continue;
    values.add(foldValue(f.grain.object));
    evidence.push(f.hash);
  }
  return { value: Math.max(0, values.size - 1), evidence };
}
