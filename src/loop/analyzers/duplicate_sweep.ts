/**
 * Duplicate sweep: exact duplicate facts (same namespace, subject, relation
 * and object after folding) and near-duplicate observations (token-set
 * Jaccard at or above a threshold within one namespace). Candidates are
 * blocked — facts by their folded triple, observations by prefix filtering
 * on rare tokens — so the file is never compared all-pairs.
 *
 * @module
 */
import type { MemoryReader } from "../../memory/mod.ts";
import type {
  FactGrain,
  ObservationGrain,
  Op,
  RecommendationDraft,
  StoredGrain,
} from "../../memory/types.ts";
import { fold, jaccard, tokenSet } from "../_text.ts";
import { byAge, makeDraft, replacementOf } from "../_draft.ts";
import type { AnalyzerManifest, ResolvedParams } from "../manifest.ts";
import type { Analyzer } from "../types.ts";

const MANIFEST: AnalyzerManifest = {
  id: "deja.duplicate_sweep/1",
  title: "Duplicate sweep",
  description:
    "Exact duplicate facts and near-duplicate observations (token-set Jaccard), proposed for consolidation into the earliest copy.",
  tier: "light",
  requires: ["fact", "observation"],
  capabilities: [],
  targets: ["memory"],
  autoApply: "structural",
  defaultOn: true,
  params: [
    {
      name: "jaccard",
      description: "Token-set similarity for near duplicates",
      kind: "float",
      default: 0.9,
      min: 0.5,
      max: 1,
    },
    {
      name: "min_tokens",
      description: "Observations with fewer tokens are never near duplicates",
      kind: "int",
      default: 3,
      min: 1,
      max: 1000,
    },
    {
      name: "near",
      description: "Also sweep observations for near duplicates",
      kind: "bool",
      default: true,
    },
  ],
};

/**
 * A grain that an earlier consolidation produced: it supersedes a copy and
 * cites a live member of the same group. Counting it again would re-propose
 * an applied consolidation forever.
 */
function isConsolidationOf(member: StoredGrain, others: Set<string>): boolean {
  return member.grain.supersedes !== undefined &&
    (member.grain.derived_from ?? []).some((h) =>
      h !== member.hash && others.has(h)
    );
}

function consolidationOps(
  members: StoredGrain[],
  canonical: StoredGrain,
): Op[] {
  return members.filter((m) => m.hash !== canonical.hash).map((m) => ({
    op: "SUPERSEDE",
    target: m.hash,
    grain: {
      ...replacementOf(canonical.grain),
      derived_from: [canonical.hash, m.hash],
    },
  }));
}

function exactFacts(
  store: MemoryReader,
  params: ResolvedParams,
): RecommendationDraft[] {
  const groups = new Map<string, StoredGrain<FactGrain>[]>();
  for (const f of store.byType("fact", { currentOnly: true })) {
    if (f.tombstoned) continue;
    const g = f.grain;
    const key = [g.namespace, fold(g.subject), fold(g.relation), fold(g.object)]
      .join("\u0000");
    const list = groups.get(key);
    if (list) list.push(f);
    else groups.set(key, [f]);
  }
  const drafts: RecommendationDraft[] = [];
  for (const list of groups.values()) {
    if (list.length < 2) continue;
    const hashes = new Set(list.map((m) => m.hash));
    const members = list.filter((m) => !isConsolidationOf(m, hashes)).sort(
      byAge,
    );
    const canonical = members[0];
    if (!canonical || members.length < 2) continue;
    const g = canonical.grain;
    drafts.push(makeDraft(MANIFEST, params, {
      target_ref: `grain:${canonical.hash}`,
      action: "consolidate",
      template: {
        id: "duplicate.exact",
        args: {
          count: members.length,
          subject: g.subject,
          relation: g.relation,
          object: g.object,
        },
      },
      evidence: members.map((m) => m.hash),
      severity: "low",
      proposal: { kind: "ops", ops: consolidationOps(members, canonical) },
    }));
  }
  return drafts;
}

/**
 * Whether two token sets differ in a token holding a digit: "build 1234
 * passed" and "build 1235 passed" are two events, not one said twice.
 */
function differsInNumbers(
  a: ReadonlySet<string>,
  b: ReadonlySet<string>,
): boolean {
  for (const t of a) if (!b.has(t) && /\d/.test(t)) return true;
  for (const t of b) if (!a.has(t) && /\d/.test(t)) return true;
  return false;
}

interface Doc {
  obs: StoredGrain<ObservationGrain>;
  tokens: Set<string>;
  prefix: string[];
}

function nearObservations(
  store: MemoryReader,
  params: ResolvedParams,
): RecommendationDraft[] {
  const threshold = params.jaccard as number;
  const minTokens = params.min_tokens as number;
  const byNs = new Map<string, StoredGrain<ObservationGrain>[]>();
  for (const o of store.byType("observation", { currentOnly: true })) {
    if (o.tombstoned) continue;
    const list = byNs.get(o.grain.namespace);
    if (list) list.push(o);
    else byNs.set(o.grain.namespace, [o]);
  }
  const drafts: RecommendationDraft[] = [];
  for (
    const [namespace, list] of [...byNs].sort(([a], [b]) => (a < b ? -1 : 1))
  ) {
    const docs: Doc[] = [];
    const df = new Map<string, number>();
    for (const obs of list.sort(byAge)) {
      const tokens = tokenSet(obs.grain.text);
      if (tokens.size < minTokens) continue;
      for (const t of tokens) df.set(t, (df.get(t) ?? 0) + 1);
      docs.push({ obs, tokens, prefix: [] });
    }
    // Prefix filtering: under one global token order (rarest first), two
    // sets with Jaccard >= t must share a token among their first
    // |x| - ceil(t*|x|) + 1 tokens. Only those tokens are indexed.
    for (const d of docs) {
      const ordered = [...d.tokens].sort((a, b) =>
        (df.get(a)! - df.get(b)!) || (a < b ? -1 : 1)
      );
      d.prefix = ordered.slice(
        0,
        d.tokens.size - Math.ceil(threshold * d.tokens.size) + 1,
      );
    }
    const index = new Map<string, number[]>();
    const clusters: Doc[][] = [];
    for (const d of docs) {
      const seen = new Set<number>();
      let joined = -1;
      for (const t of d.prefix) {
        for (const c of index.get(t) ?? []) {
          if (seen.has(c)) continue;
          seen.add(c);
          const head = clusters[c]![0]!;
          const small = Math.min(head.tokens.size, d.tokens.size);
          const large = Math.max(head.tokens.size, d.tokens.size);
          if (small < threshold * large) continue;
          if (
            jaccard(head.tokens, d.tokens) < threshold ||
            differsInNumbers(head.tokens, d.tokens)
          ) continue;
          if (joined < 0 || c < joined) joined = c;
        }
      }
      if (joined >= 0) {
        clusters[joined]!.push(d);
        continue;
      }
      clusters.push([d]);
      for (const t of d.prefix) {
        const list = index.get(t);
        if (list) list.push(clusters.length - 1);
        else index.set(t, [clusters.length - 1]);
      }
    }
    for (const cluster of clusters) {
      if (cluster.length < 2) continue;
      const all = cluster.map((d) => d.obs as StoredGrain);
      const hashes = new Set(all.map((m) => m.hash));
      const members = all.filter((m) => !isConsolidationOf(m, hashes));
      const canonical = members[0];
      if (!canonical || members.length < 2) continue;
      drafts.push(makeDraft(MANIFEST, params, {
        target_ref: `grain:${canonical.hash}`,
        action: "consolidate",
        template: {
          id: "duplicate.near",
          args: { count: members.length, namespace, threshold },
        },
        evidence: members.map((m) => m.hash),
        severity: "info",
        proposal: { kind: "ops", ops: consolidationOps(members, canonical) },
      }));
    }
  }
  return drafts;
}

function analyze(
  store: MemoryReader,
  params: ResolvedParams,
): RecommendationDraft[] {
  const drafts = exactFacts(store, params);
  if (params.near) drafts.push(...nearObservations(store, params));
  return drafts;
}

/** The duplicate sweep analyzer (`deja.duplicate_sweep/1`). */
export const duplicateSweep: Analyzer = { manifest: MANIFEST, analyze };
