/**
 * Read routes over the memory file's grains: the browser (by type and
 * namespace) and one grain's inspector — its fields, its supersession
 * chain, the provenance walk over `derived_from`, and the recommendations
 * that cite it.
 *
 * @module
 */
import { DejaError } from "../core/errors.ts";
import {
  GRAIN_TYPES,
  grainText,
  type MemoryReader,
  type StoredGrain,
} from "../memory/mod.ts";
import type { GrainType } from "../memory/mod.ts";
import { renderSummary } from "../loop/mod.ts";
import type { Hono } from "./_hono.ts";
import { hashPrefix, intParam, json } from "./_http.ts";
import type { ServerState } from "./_state.ts";

const BROWSABLE: readonly GrainType[] = [
  "fact",
  "observation",
  "event",
  "skill",
  "goal",
  "note",
];

function label(grain: StoredGrain["grain"]): string {
  const text = grainText(grain);
  return text.length > 240 ? `${text.slice(0, 239)}…` : text;
}

function row(
  store: MemoryReader,
  g: StoredGrain,
  now: number,
): Record<string, unknown> {
  const validTo = g.grain.valid_to;
  return {
    hash: g.hash,
    type: g.grain.type,
    namespace: g.grain.namespace,
    created_at: g.grain.created_at,
    actor: g.grain.actor,
    label: label(g.grain),
    current: store.isCurrent(g.hash),
    tombstoned: g.tombstoned,
    expired: validTo !== undefined && validTo < now,
    supersedes: g.grain.supersedes ?? null,
  };
}

/** Recommendations whose evidence, target or operations name a grain. */
function citing(
  store: MemoryReader,
  hash: string,
  now: number,
): Array<Record<string, unknown>> {
  return store.recommendations({ now }).filter((r) => {
    const g = r.grain;
    if (g.evidence.includes(hash) || g.target_ref === `grain:${hash}`) {
      return true;
    }
    return g.proposal.kind === "ops" &&
      g.proposal.ops.some((op) =>
        (op.op === "SUPERSEDE" || op.op === "FORGET") && op.target === hash
      );
  }).map((r) => ({
    hash: r.hash,
    status: r.status,
    severity: r.grain.severity,
    analyzer: r.grain.analyzer,
    summary: renderSummary(r.grain.template),
  }));
}

/**
 * Registers the memory routes.
 *
 * @param app The app.
 * @param state Shared state.
 */
export function memoryRoutes(app: Hono, state: ServerState): void {
  app.get("/api/memory/grains", (c) => {
    const store = state.stores.memory();
    if (!store) {
      return json({
        exists: false,
        hint:
          `Run: deja init --db ${state.stores.options.memoryPath} --template coding-agent`,
        counts: {},
        namespaces: [],
        grains: [],
        total: 0,
      });
    }
    const type = c.req.query("type");
    if (
      type !== undefined && type !== "" &&
      !(GRAIN_TYPES as readonly string[]).includes(type)
    ) {
      throw new DejaError(
        "SRV-E006",
        `Unknown grain type "${type}"; one of ${GRAIN_TYPES.join(", ")}`,
      );
    }
    const namespace = c.req.query("namespace") || undefined;
    const include = c.req.query("include") ?? "current";
    if (!["current", "all"].includes(include)) {
      throw new DejaError("SRV-E006", '"include" must be current or all');
    }
    const words = (c.req.query("q") ?? "").toLowerCase().split(/\s+/).filter(
      Boolean,
    );
    const limit = intParam(c, "limit", 1, 500) ?? 100;
    const offset = intParam(c, "offset", 0, Number.MAX_SAFE_INTEGER) ?? 0;
    const now = state.now();
    const types = type ? [type as GrainType] : BROWSABLE;
    const namespaces = new Map<string, number>();
    let all: StoredGrain[] = [];
    for (const t of types) {
      for (
        const g of store.byType(t, {
          includeTombstoned: include === "all",
          currentOnly: include === "current",
        })
      ) {
        namespaces.set(
          g.grain.namespace,
          (namespaces.get(g.grain.namespace) ?? 0) + 1,
        );
        if (namespace !== undefined && g.grain.namespace !== namespace) {
          continue;
        }
        if (words.length) {
          const text = grainText(g.grain).toLowerCase();
          if (!words.every((w) => text.includes(w))) continue;
        }
        all.push(g);
      }
    }
    all = all.sort((a, b) =>
      b.grain.created_at - a.grain.created_at || (a.hash < b.hash ? -1 : 1)
    );
    return json({
      exists: true,
      counts: store.counts(),
      namespaces: [...namespaces].sort(([a], [b]) => a.localeCompare(b)).map((
        [name, count],
      ) => ({ name, count })),
      total: all.length,
      offset,
      limit,
      grains: all.slice(offset, offset + limit).map((g) => row(store, g, now)),
    });
  });

  app.get("/api/memory/grain/:hash", (c) => {
    const store = state.stores.requireMemory();
    const hash = store.resolve(hashPrefix(c.req.param("hash"), "grain"));
    const g = store.get(hash);
    if (!g) throw new DejaError("SRV-E005", `No grain "${hash}"`);
    const now = state.now();
    const chain = store.chain(hash).map((x) => row(store, x, now));
    // Provenance: walk derived_from breadth first, bounded.
    const provenance: Array<Record<string, unknown>> = [];
    const seen = new Set<string>([hash]);
    let frontier = [...(g.grain.derived_from ?? [])].map((h) => ({
      h,
      depth: 1,
    }));
    while (frontier.length && provenance.length < 64) {
      const next: typeof frontier = [];
      for (const { h, depth } of frontier) {
        if (seen.has(h) || provenance.length >= 64) continue;
        seen.add(h);
        const p = store.get(h);
        provenance.push(
          p
            ? { ...row(store, p, now), depth, found: true }
            : { hash: h, depth, found: false },
        );
        if (p && depth < 6) {
          for (const d of p.grain.derived_from ?? []) {
            next.push({ h: d, depth: depth + 1 });
          }
        }
      }
      frontier = next;
    }
    return json({
      ...row(store, g, now),
      grain: g.grain,
      heads: store.heads(hash),
      chain,
      provenance,
      cited_by: citing(store, hash, now),
    });
  });
}
