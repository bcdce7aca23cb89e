/**
 * Routes over the transcript index and the server itself: health, stats,
 * sources, recent sessions, message search and the session read.
 *
 * @module
 */
import { DejaError } from "../core/errors.ts";
import { indexBuilding } from "../recall/mod.ts";
import { indexStats } from "../search/mod.ts";
import { HARNESSES } from "../sources/registry.ts";
import { modeOf } from "./_guard.ts";
import type { Hono } from "./_hono.ts";
import { boolParam, intParam, json } from "./_http.ts";
import { coverage, indexedHarnesses } from "./_index_reads.ts";
import type { ServerState } from "./_state.ts";
import { messageSearch, type MessageSearchRequest } from "./message_search.ts";
import { sessionDetail } from "./session_detail.ts";

/** The version the API reports. */
export const SERVER_VERSION = "0.1.0";

function memorySummary(state: ServerState): Record<string, unknown> {
  const path = state.stores.options.memoryPath;
  const store = state.stores.memory();
  if (!store) {
    return {
      exists: false,
      path,
      hint: `Run: deja init --db ${path} --template coding-agent`,
    };
  }
  const now = state.now();
  const counts = store.counts();
  let expired = 0;
  for (
    const type of ["fact", "observation", "note", "skill", "goal"] as const
  ) {
    for (const g of store.byType(type, { currentOnly: true })) {
      const validTo = g.grain.valid_to;
      if (validTo !== undefined && validTo < now) expired++;
    }
  }
  const recs = store.recommendations({ now });
  const byStatus: Record<string, number> = {};
  for (const r of recs) byStatus[r.status] = (byStatus[r.status] ?? 0) + 1;
  return {
    exists: true,
    path,
    writable: state.stores.options.writable,
    counts,
    grains: Object.entries(counts).filter(([t]) =>
      t !== "recommendation" && t !== "audit"
    )
      .reduce((a, [, n]) => a + n, 0),
    forks: store.forks().length,
    expired,
    recommendations: byStatus,
    watermark: store.watermark() ?? null,
  };
}

/**
 * Registers the index routes.
 *
 * @param app The app.
 * @param state Shared state.
 */
export function indexRoutes(app: Hono, state: ServerState): void {
  app.get("/api/health", () => {
    const db = state.stores.index();
    const memory = state.stores.memory();
    return json({
      ok: true,
      version: SERVER_VERSION,
      mode: modeOf(state.auth),
      index: { exists: db !== undefined, path: state.stores.options.indexPath },
      memory: {
        exists: memory !== undefined,
        path: state.stores.options.memoryPath,
      },
    });
  });

  app.get("/api/stats", () => {
    const db = state.stores.index();
    const index = db
      ? (() => {
        const stats = indexStats(db);
        return {
          exists: true,
          path: state.stores.options.indexPath,
          indexed_at: stats.indexedAt,
          sessions: stats.harnesses.reduce((a, h) => a + h.sessions, 0),
          records: stats.harnesses.reduce((a, h) => a + h.records, 0),
          harnesses: stats.harnesses,
          coverage: coverage(db),
        };
      })()
      : {
        exists: false,
        path: state.stores.options.indexPath,
        hint: "Run: deja index",
      };
    return json({ index, memory: memorySummary(state) });
  });

  app.get("/api/sources", () => {
    const db = state.stores.index();
    const stats = new Map(
      (db ? indexStats(db).harnesses : []).map((h) => [h.harness, h]),
    );
    return json({
      indexed: db !== undefined,
      sources: HARNESSES.map((h) => {
        const s = stats.get(h.id);
        return {
          id: h.id,
          name: h.name,
          format: h.format,
          env: [...h.envOverrides],
          roots: state.sourceEnv ? h.roots(state.sourceEnv) : [],
          files: s?.files ?? 0,
          sessions: s?.sessions ?? 0,
          records: s?.records ?? 0,
          skipped: s?.skipped ?? 0,
          errors: s?.errors ?? [],
        };
      }),
    });
  });

  app.get("/api/sessions/message-search", async (c) => {
    const db = state.stores.index();
    const includeSuperseded = boolParam(c, "include_superseded");
    const limit = intParam(c, "limit", 1, 100);
    const since = intParam(c, "since_ms", 0, Number.MAX_SAFE_INTEGER);
    // An unknown id is a typo, refused as the CLI's --harness refuses it,
    // not an empty answer.
    const harness = c.req.queries("harness")?.map((h) => {
      const id = h.trim().toLowerCase();
      if (!HARNESSES.some((x) => x.id === id)) {
        throw new DejaError(
          "SRV-E006",
          `Unknown harness "${h}": use one of ${
            HARNESSES.map((x) => x.id).join(", ")
          }`,
        );
      }
      return id;
    });
    if (!db) {
      // The console starts no index pass: "building" only while one runs.
      const building = indexBuilding(state.stores.options.indexPath);
      return json({
        state: building ? "building" : "empty",
        mode: "search",
        sessions: [],
        cursor: null,
        coverage: { sources: [] },
        hint: building
          ? "An index pass is running: search again in a moment"
          : "Nothing is indexed yet: run deja index",
      });
    }
    if (state.searches.active >= state.searches.max) {
      throw new DejaError(
        "SRV-E003",
        `${state.searches.max} searches are already running: retry in a moment`,
        {
          detail: { reason: "busy" },
        },
      );
    }
    const req: MessageSearchRequest = { q: c.req.query("q") ?? "" };
    if (harness?.length) req.harnesses = harness;
    const project = c.req.query("project");
    if (project) req.project = project;
    if (since !== undefined) req.sinceMs = since;
    if (includeSuperseded !== undefined) {
      req.includeSuperseded = includeSuperseded;
    }
    if (limit !== undefined) req.limit = limit;
    const cursor = c.req.query("cursor");
    if (cursor) req.cursor = cursor;
    state.searches.active++;
    try {
      await state.searchHook?.();
      const answer = await messageSearch({
        db,
        now: state.now(),
        clock: state.clock,
        budgets: state.budgets,
        arena: state.arena,
        harnesses: new Set(indexedHarnesses(db)),
      }, req);
      return json(answer);
    } finally {
      state.searches.active--;
    }
  });

  app.get("/api/session/:harness/:id", async (c) => {
    const db = state.stores.requireIndex();
    const opts: Parameters<typeof sessionDetail>[3] = {};
    const locate = c.req.query("locate");
    if (locate !== undefined) opts.locate = locate;
    const offset = intParam(c, "offset", 0, Number.MAX_SAFE_INTEGER);
    if (offset !== undefined) opts.offset = offset;
    const limit = intParam(c, "limit", 1, 1000);
    if (limit !== undefined) opts.limit = limit;
    return json(
      await sessionDetail(db, c.req.param("harness"), c.req.param("id"), opts),
    );
  });
}
