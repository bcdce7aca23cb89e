/**
 * Tool failure clustering: failed tool calls grouped by tool and normalised
 * error signature. A cluster that is frequent both in count and as a share
 * of the tool's calls becomes a lesson to record.
 *
 * @module
 */
import type { MemoryReader } from "../../memory/mod.ts";
import type {
  EventGrain,
  RecommendationDraft,
  Severity,
  StoredGrain,
} from "../../memory/types.ts";
import { errorSignature, shortDigest } from "../_text.ts";
import { makeDraft } from "../_draft.ts";
import type { AnalyzerManifest, ResolvedParams } from "../manifest.ts";
import type { Analyzer } from "../types.ts";

const MANIFEST: AnalyzerManifest = {
  id: "deja.tool_failure/1",
  title: "Tool failure clustering",
  description:
    "Failed tool calls grouped by tool and normalised error signature; fires when a signature recurs often and makes up a large share of the tool's calls.",
  tier: "light",
  requires: ["event"],
  capabilities: [],
  targets: ["memory"],
  autoApply: "never",
  defaultOn: true,
  params: [
    {
      name: "window",
      description: "Only calls this recent count",
      kind: "duration",
      default: "30d",
    },
    {
      name: "min_count",
      description: "Failures with one signature needed",
      kind: "int",
      default: 3,
      min: 1,
      max: 100_000,
    },
    {
      name: "min_rate",
      description: "Share of the tool's calls those failures must reach",
      kind: "float",
      default: 0.4,
      min: 0,
      max: 1,
    },
    {
      name: "min_abs",
      description: "A count this large fires whatever the rate",
      kind: "int",
      default: 50,
      min: 1,
      max: 1_000_000,
    },
  ],
};

function signatureOf(event: EventGrain): string {
  const sig = errorSignature(event.result);
  if (sig) return sig;
  return event.exit_code === undefined ? "" : "exit code #";
}

function severityOf(rate: number, count: number): Severity {
  if (rate >= 0.7 && count >= 5) return "high";
  if (rate >= 0.5) return "medium";
  return "low";
}

function dominantNamespace(events: StoredGrain<EventGrain>[]): string {
  const counts = new Map<string, number>();
  for (const e of events) {
    counts.set(e.grain.namespace, (counts.get(e.grain.namespace) ?? 0) + 1);
  }
  let best = "default";
  let bestCount = 0;
  for (const [ns, n] of [...counts].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (n > bestCount) [best, bestCount] = [ns, n];
  }
  return best;
}

function analyze(
  store: MemoryReader,
  params: ResolvedParams,
  now: number,
): RecommendationDraft[] {
  const since = now - (params.window as number);
  const calls = new Map<string, number>();
  const clusters = new Map<
    string,
    { tool: string; signature: string; events: StoredGrain<EventGrain>[] }
  >();
  for (const e of store.byType("event")) {
    const g = e.grain;
    if (e.tombstoned || g.created_at < since || g.created_at > now) continue;
    calls.set(g.tool, (calls.get(g.tool) ?? 0) + 1);
    if (!g.is_error) continue;
    const signature = signatureOf(g);
    if (!signature) continue;
    const key = `${g.tool}\u0000${signature}`;
    const cluster = clusters.get(key) ??
      { tool: g.tool, signature, events: [] };
    cluster.events.push(e);
    clusters.set(key, cluster);
  }
  const drafts: RecommendationDraft[] = [];
  for (const { tool, signature, events } of clusters.values()) {
    const count = events.length;
    const total = calls.get(tool) ?? count;
    const rate = count / total;
    if (count < (params.min_count as number)) continue;
    if (
      rate < (params.min_rate as number) && count < (params.min_abs as number)
    ) continue;
    events.sort((a, b) =>
      b.grain.created_at - a.grain.created_at || (a.hash < b.hash ? -1 : 1)
    );
    const evidence = events.map((e) => e.hash);
    drafts.push(makeDraft(MANIFEST, params, {
      target_ref: `entity:lessons/${tool}/${shortDigest(signature)}`,
      action: "record_failure",
      template: {
        id: "tool_failure.cluster",
        args: {
          tool,
          count,
          calls: total,
          rate: Math.round(rate * 100),
          signature,
        },
      },
      evidence,
      severity: severityOf(rate, count),
      proposal: {
        kind: "ops",
        ops: [{
          op: "ADD",
          grain: {
            type: "fact",
            namespace: dominantNamespace(events),
            created_at: now,
            actor: `engine:${MANIFEST.id}`,
            subject: tool,
            relation: "fails_with",
            object: signature,
            confidence: Math.round(rate * 100) / 100,
            derived_from: evidence.slice(0, 64),
          },
        }],
      },
      metric: {
        name: "tool_error_recurrence",
        value: 0,
        horizon_days: [1, 7, 30],
      },
    }));
  }
  return drafts;
}

/** The tool failure clustering analyzer (`deja.tool_failure/1`). */
export const toolFailure: Analyzer = { manifest: MANIFEST, analyze };

/**
 * Counts failures of a tool whose signature matches, created after a time:
 * the `tool_error_recurrence` metric outcome review re-measures.
 *
 * @param store The memory reader.
 * @param tool Tool name.
 * @param signature Normalised error signature.
 * @param after Epoch ms; only later events count.
 * @param now Upper bound, epoch ms.
 * @returns Matching event hashes.
 */
export function failureRecurrence(
  store: MemoryReader,
  tool: string,
  signature: string,
  after: number,
  now: number,
): string[] {
  const out: string[] = [];
  for (const e of store.byType("event")) {
    const g = e.grain;
    if (e.tombstoned || !g.is_error || g.tool !== tool) continue;
    if (g.created_at <= after || g.created_at > now) continue;
    if (signatureOf(g) === signature) out.push(e.hash);
  }
  return out;
}
