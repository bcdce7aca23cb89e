/**
 * The SQLite-backed memory store. Lifecycle transitions live in
 * `_lifecycle.ts` and `_apply.ts`; this file holds the grain primitives.
 *
 * @module
 */
import { type Database, transaction } from "../core/_sqlite.ts";
import { DejaError, messageOf } from "../core/errors.ts";
import { canonicalJson, sha256Hex } from "../core/hash.ts";
import { grainColumns } from "./_grain_columns.ts";
import { hashGrain } from "./hash_grain.ts";
import { GRAIN_TYPES, severityRank, validateGrain } from "./validate_grain.ts";
import type {
  AnalyzerConfig,
  AnalyzerConfigRow,
  ApplyOptions,
  ByTypeOptions,
  Lock,
  LockOptions,
  LoopConfigExport,
  MemoryStore,
  ProposeOptions,
  ProposeResult,
  RawGrain,
  RecallOptions,
  RecommendationView,
  RecStatus,
  TelemetryRow,
  TransitionOptions,
  TransitionResult,
} from "./memory_store.ts";
import type {
  AuditGrain,
  Grain,
  GrainType,
  RecommendationDraft,
  RecommendationGrain,
  StoredGrain,
} from "./types.ts";
import type { LoopPolicy } from "./policy.ts";
import { markApplied, propose, review } from "./_lifecycle.ts";
import { apply, autoApply, rollback } from "./_apply.ts";
import { grainText } from "./render.ts";

/** Namespace of recommendation and audit grains. */
export const LOOP_NAMESPACE = "deja-loop";

interface GrainRow {
  hash: string;
  body: string;
  tombstoned: number;
}

interface RecRow {
  hash: string;
  dedup_key: string;
  status: string;
  version: number;
  creator: string;
  trigger_actor: string | null;
  destructive: number;
  rollbackable: number;
  audit_head: string | null;
  applied_at: number | null;
  inverse: string | null;
  results: string | null;
  updated_at: number;
  body: string;
}

const GRAIN_COLS =
  "g.hash, g.body, EXISTS(SELECT 1 FROM tombstones t WHERE t.hash = g.hash) AS tombstoned";

function isBusy(err: unknown): boolean {
  return /database is locked|SQLITE_BUSY/i.test(messageOf(err));
}

/** The concrete store behind {@linkcode MemoryStore}. */
export class Store implements MemoryStore {
  /** The open database (internal to src/memory). */
  readonly db: Database;
  readonly path: string;
  readonly readOnly: boolean;
  #now: () => number;

  constructor(
    db: Database,
    path: string,
    readOnly: boolean,
    now: () => number,
  ) {
    this.db = db;
    this.path = path;
    this.readOnly = readOnly;
    this.#now = now;
  }

  now(): number {
    return this.#now();
  }

  /** Runs `fn` in a write transaction, mapping a held lock to MEM-E004. */
  write<T>(fn: () => T): T {
    if (this.readOnly) {
      throw new DejaError(
        "MEM-E001",
        `Cannot write memory file "${this.path}": it was opened read-only`,
      );
    }
    try {
      return transaction(this.db, fn);
    } catch (err) {
      if (isBusy(err)) {
        throw new DejaError(
          "MEM-E004",
          `Cannot write memory file "${this.path}": another process holds the write lock`,
          { cause: err },
        );
      }
      throw err;
    }
  }

  #row(row: GrainRow): StoredGrain {
    return {
      hash: row.hash,
      grain: JSON.parse(row.body) as Grain,
      tombstoned: row.tombstoned === 1,
    };
  }

  // ---- grains ------------------------------------------------------------

  /** Inserts a validated grain; returns its hash and whether it was new. */
  insert(grain: Grain, now = this.now()): { hash: string; created: boolean } {
    validateGrain(grain);
    const body = canonicalJson(grain);
    const hash = hashGrain(grain);
    const columns = grainColumns(grain);
    if (columns.source !== null) {
      const bySource = this.db.prepare(
        "SELECT hash FROM grains WHERE source = ?",
      )
        .get(columns.source) as { hash: string } | undefined;
      if (bySource) return { hash: bySource.hash, created: false };
    }
    const result = this.db.prepare(
      `INSERT OR IGNORE INTO grains(hash, type, namespace, created_at, added_at, actor, supersedes, valid_to, is_error, source, body)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      hash,
      columns.type,
      columns.namespace,
      columns.created_at,
      now,
      columns.actor,
      columns.supersedes,
      columns.valid_to,
      columns.is_error,
      columns.source,
      body,
    );
    return { hash, created: Number(result.changes) > 0 };
  }

  put(grain: Grain): string {
    if (grain.type === "recommendation" || grain.type === "audit") {
      throw new TypeError(
        `Invalid grain: ${grain.type} grains are written only by the loop lifecycle (propose, review, apply)`,
      );
    }
    return this.write(() => this.insert(grain).hash);
  }

  supersede(target: string, grain: Grain): string {
    if (grain.supersedes !== undefined && grain.supersedes !== target) {
      throw new TypeError(
        `Invalid grain: it supersedes "${grain.supersedes}", not "${target}"`,
      );
    }
    return this.put({ ...grain, supersedes: target });
  }

  get(hash: string): StoredGrain | undefined {
    const row = this.db.prepare(
      `SELECT ${GRAIN_COLS} FROM grains g WHERE g.hash = ?`,
    )
      .get(hash) as GrainRow | undefined;
    return row ? this.#row(row) : undefined;
  }

  eventBySource(source: string): string | undefined {
    const row = this.db.prepare("SELECT hash FROM grains WHERE source = ?").get(
      source,
    ) as
      | { hash: string }
      | undefined;
    return row?.hash;
  }

  raw(hash: string): RawGrain | undefined {
    return this.db.prepare(
      `SELECT hash, body, type, namespace, created_at, actor, supersedes, valid_to, is_error, source
         FROM grains WHERE hash = ?`,
    ).get(hash) as RawGrain | undefined;
  }

  isTombstoned(hash: string): boolean {
    return !!this.db.prepare("SELECT 1 AS ok FROM tombstones WHERE hash = ?")
      .get(hash);
  }

  tombstone(
    hash: string,
    actor: string,
    reason: string,
    now = this.now(),
  ): boolean {
    const r = this.db.prepare(
      "INSERT OR IGNORE INTO tombstones(hash, at, actor, reason) VALUES (?, ?, ?, ?)",
    ).run(hash, now, actor, reason);
    return Number(r.changes) > 0;
  }

  untombstone(hash: string): boolean {
    const r = this.db.prepare("DELETE FROM tombstones WHERE hash = ?").run(
      hash,
    );
    return Number(r.changes) > 0;
  }

  forget(
    hash: string,
    options: { actor: string; reason?: string; now?: number },
  ): void {
    this.write(() => {
      if (!this.raw(hash)) {
        throw new DejaError("MEM-E003", `No grain has hash "${hash}"`);
      }
      this.tombstone(
        hash,
        options.actor,
        options.reason ?? "forgotten",
        options.now,
      );
    });
  }

  /** Direct successors of a grain (any liveness). */
  children(hash: string): string[] {
    return (this.db.prepare(
      "SELECT hash FROM grains WHERE supersedes = ? ORDER BY id",
    )
      .all(hash) as Array<{ hash: string }>).map((r) => r.hash);
  }

  /** Hashes that are ancestors of some live grain: the superseded set. */
  supersededSet(): Set<string> {
    const rows = this.db.prepare(
      `WITH RECURSIVE anc(h) AS (
         SELECT g.supersedes FROM grains g
          WHERE g.supersedes IS NOT NULL
            AND NOT EXISTS (SELECT 1 FROM tombstones t WHERE t.hash = g.hash)
         UNION
         SELECT g.supersedes FROM grains g JOIN anc ON g.hash = anc.h
          WHERE g.supersedes IS NOT NULL
       ) SELECT h FROM anc`,
    ).all() as Array<{ h: string }>;
    return new Set(rows.map((r) => r.h));
  }

  /** Whether any live grain descends from `hash`. */
  hasLiveDescendant(hash: string): boolean {
    const row = this.db.prepare(
      `WITH RECURSIVE d(h) AS (
         SELECT hash FROM grains WHERE supersedes = ?
         UNION SELECT g.hash FROM grains g JOIN d ON g.supersedes = d.h
       ) SELECT 1 AS ok FROM d WHERE NOT EXISTS (SELECT 1 FROM tombstones t WHERE t.hash = d.h) LIMIT 1`,
    ).get(hash);
    return !!row;
  }

  isCurrent(hash: string): boolean {
    if (!this.raw(hash) || this.isTombstoned(hash)) return false;
    return !this.hasLiveDescendant(hash);
  }

  #root(hash: string): string {
    const seen = new Set<string>();
    let cur = hash;
    while (!seen.has(cur)) {
      seen.add(cur);
      const row = this.db.prepare(
        "SELECT supersedes FROM grains WHERE hash = ?",
      ).get(cur) as
        | { supersedes: string | null }
        | undefined;
      if (!row?.supersedes || !this.raw(row.supersedes)) return cur;
      cur = row.supersedes;
    }
    return cur;
  }

  #component(hash: string): string[] {
    const root = this.#root(hash);
    const out: string[] = [];
    const queue = [root];
    const seen = new Set<string>();
    while (queue.length) {
      const h = queue.shift() as string;
      if (seen.has(h)) continue;
      seen.add(h);
      out.push(h);
      queue.push(...this.children(h));
    }
    return out;
  }

  heads(hash: string): string[] {
    if (!this.raw(hash)) return [];
    return this.#component(hash).filter((h) => this.isCurrent(h));
  }

  chain(hash: string): StoredGrain[] {
    if (!this.raw(hash)) return [];
    const members = new Set(this.#component(hash));
    const rows = this.db.prepare(
      `SELECT ${GRAIN_COLS} FROM grains g WHERE g.hash IN (SELECT value FROM json_each(?)) ORDER BY g.id`,
    ).all(JSON.stringify([...members])) as unknown as GrainRow[];
    return rows.map((r) => this.#row(r));
  }

  forks(
    options: { namespace?: string } = {},
  ): Array<{ parent: string; heads: string[] }> {
    const rows = this.db.prepare(
      `SELECT g.supersedes AS parent FROM grains g
        WHERE g.supersedes IS NOT NULL
          AND g.type NOT IN ('recommendation', 'audit')
          AND (? IS NULL OR g.namespace = ?)
          AND NOT EXISTS (SELECT 1 FROM tombstones t WHERE t.hash = g.hash)
        GROUP BY g.supersedes HAVING count(*) > 1`,
    ).all(options.namespace ?? null, options.namespace ?? null) as Array<
      { parent: string }
    >;
    const out: Array<{ parent: string; heads: string[] }> = [];
    for (const { parent } of rows) {
      const heads = this.heads(parent);
      if (heads.length > 1) out.push({ parent, heads });
    }
    return out;
  }

  byType<T extends GrainType>(
    type: T,
    options: ByTypeOptions = {},
  ): StoredGrain<Extract<Grain, { type: T }>>[] {
    const rows = this.db.prepare(
      `SELECT ${GRAIN_COLS} FROM grains g WHERE g.type = ? AND (? IS NULL OR g.namespace = ?) ORDER BY g.id`,
    ).all(
      type,
      options.namespace ?? null,
      options.namespace ?? null,
    ) as unknown as GrainRow[];
    const superseded = options.currentOnly ? this.supersededSet() : undefined;
    const out: StoredGrain<Extract<Grain, { type: T }>>[] = [];
    for (const row of rows) {
      if (!options.includeTombstoned && row.tombstoned === 1) continue;
      if (superseded && (superseded.has(row.hash) || row.tombstoned === 1)) {
        continue;
      }
      out.push(this.#row(row) as StoredGrain<Extract<Grain, { type: T }>>);
    }
    return out;
  }

  counts(): Record<GrainType, number> {
    const out = Object.fromEntries(GRAIN_TYPES.map((t) => [t, 0])) as Record<
      GrainType,
      number
    >;
    const rows = this.db.prepare(
      `SELECT type, count(*) AS n FROM grains g
        WHERE NOT EXISTS (SELECT 1 FROM tombstones t WHERE t.hash = g.hash) GROUP BY type`,
    ).all() as Array<{ type: GrainType; n: number }>;
    for (const r of rows) out[r.type] = r.n;
    return out;
  }

  countSince(watermark: number): { grains: number; error_events: number } {
    const row = this.db.prepare(
      `SELECT count(*) AS grains, coalesce(sum(CASE WHEN type = 'event' AND is_error = 1 THEN 1 ELSE 0 END), 0) AS errors
         FROM grains WHERE added_at > ? AND type NOT IN ('recommendation', 'audit') AND namespace <> ?`,
    ).get(watermark, LOOP_NAMESPACE) as { grains: number; errors: number };
    return { grains: row.grains, error_events: row.errors };
  }

  recall(options: RecallOptions = {}): StoredGrain[] {
    const now = options.now ?? this.now();
    const types = options.types ??
      GRAIN_TYPES.filter((t) => t !== "recommendation" && t !== "audit");
    const words = (options.text ?? "").toLowerCase().split(/\s+/).filter(
      Boolean,
    );
    const superseded = this.supersededSet();
    const rows = this.db.prepare(
      `SELECT ${GRAIN_COLS} FROM grains g
        WHERE g.type IN (SELECT value FROM json_each(?)) AND (? IS NULL OR g.namespace = ?)
          AND NOT EXISTS (SELECT 1 FROM tombstones t WHERE t.hash = g.hash)
        ORDER BY g.id`,
    ).all(
      JSON.stringify(types),
      options.namespace ?? null,
      options.namespace ?? null,
    ) as unknown as GrainRow[];
    const out: StoredGrain[] = [];
    for (const row of rows) {
      if (superseded.has(row.hash)) continue;
      const sg = this.#row(row);
      if (
        !options.includeExpired && sg.grain.valid_to !== undefined &&
        sg.grain.valid_to <= now
      ) continue;
      if (words.length) {
        const text = grainText(sg.grain).toLowerCase();
        if (!words.every((w) => text.includes(w))) continue;
      }
      out.push(sg);
    }
    out.sort((a, b) =>
      (b.grain.importance ?? 0) - (a.grain.importance ?? 0) ||
      b.grain.created_at - a.grain.created_at || (a.hash < b.hash ? -1 : 1)
    );
    return out.slice(0, options.limit ?? 50);
  }

  recordRecall(
    row: {
      query: string;
      tokens: number;
      budget: number;
      results: readonly string[];
      at?: number;
    },
  ): void {
    const at = row.at ?? this.now();
    this.write(() => {
      this.db.prepare(
        "INSERT INTO recall_telemetry(query, tokens, budget, results, at) VALUES (?, ?, ?, ?, ?)",
      ).run(row.query, row.tokens, row.budget, row.results.length, at);
      const bump = this.db.prepare(
        `INSERT INTO grain_recalls(hash, count, last_at) VALUES (?, 1, ?)
         ON CONFLICT(hash) DO UPDATE SET count = count + 1, last_at = excluded.last_at`,
      );
      for (const h of row.results) bump.run(h, at);
    });
  }

  telemetry(): TelemetryRow[] {
    return this.db.prepare(
      "SELECT query, tokens, budget, at, results FROM recall_telemetry ORDER BY id",
    ).all() as unknown as TelemetryRow[];
  }

  recallCounts(): Map<string, number> {
    const rows = this.db.prepare("SELECT hash, count FROM grain_recalls")
      .all() as Array<
        { hash: string; count: number }
      >;
    return new Map(rows.map((r) => [r.hash, r.count]));
  }

  resolve(prefix: string, options: { type?: GrainType } = {}): string {
    const p = prefix.trim().toLowerCase().replace(/^(grain:)?(sha256:)?/, "");
    if (!/^[0-9a-f]{2,64}$/.test(p)) {
      throw new DejaError(
        "MEM-E003",
        `Hash prefix "${prefix}" is not valid: give 2 to 64 hex characters (0-9, a-f)`,
      );
    }
    const rows = this.db.prepare(
      "SELECT hash FROM grains WHERE hash >= ? AND hash < ? AND (? IS NULL OR type = ?) ORDER BY hash LIMIT 11",
    ).all(p, p + "g", options.type ?? null, options.type ?? null) as Array<
      { hash: string }
    >;
    const what = options.type ?? "grain";
    if (rows.length === 0) {
      throw new DejaError("MEM-E003", `No ${what} hash starts with "${p}"`, {
        detail: { prefix: p, matches: [] },
      });
    }
    if (rows.length > 1) {
      const matches = rows.slice(0, 10).map((r) => r.hash.slice(0, 16));
      throw new DejaError(
        "MEM-E003",
        `Hash prefix "${p}" is ambiguous: it matches ${matches.join(", ")}${
          rows.length > 10 ? ", …" : ""
        }`,
        { detail: { prefix: p, matches: rows.map((r) => r.hash) } },
      );
    }
    return (rows[0] as { hash: string }).hash;
  }

  // ---- recommendations ---------------------------------------------------

  /** The raw status row of a recommendation. */
  recRow(hash: string): RecRow | undefined {
    return this.db.prepare(
      `SELECT r.*, g.body FROM rec_status r JOIN grains g ON g.hash = r.hash WHERE r.hash = ?`,
    ).get(hash) as RecRow | undefined;
  }

  /** Builds the view of a status row, computing expiry. */
  view(row: RecRow, now = this.now()): RecommendationView {
    const grain = JSON.parse(row.body) as RecommendationGrain;
    const stored = row.status as Exclude<RecStatus, "expired">;
    const expired = (stored === "pending" || stored === "approved") &&
      grain.valid_to !== undefined && grain.valid_to <= now;
    const v: RecommendationView = {
      hash: row.hash,
      grain,
      status: expired ? "expired" : stored,
      stored_status: stored,
      version: row.version,
      creator: row.creator,
      destructive: row.destructive === 1,
      rollbackable: row.rollbackable === 1,
      results: row.results ? JSON.parse(row.results) as string[] : [],
      updated_at: row.updated_at,
    };
    if (row.trigger_actor) v.trigger_actor = row.trigger_actor;
    if (row.audit_head) v.audit_head = row.audit_head;
    if (row.applied_at !== null) v.applied_at = row.applied_at;
    if (row.inverse !== null) v.inverse_digest = sha256Hex(row.inverse);
    return v;
  }

  recommendations(
    filter: { status?: string; now?: number } = {},
  ): RecommendationView[] {
    const now = filter.now ?? this.now();
    const rows = this.db.prepare(
      `SELECT r.*, g.body FROM rec_status r JOIN grains g ON g.hash = r.hash ORDER BY g.id DESC`,
    ).all() as unknown as RecRow[];
    const views = rows.map((r) => this.view(r, now));
    const status = filter.status;
    if (!status || status === "all") return views;
    return views.filter((v) => v.status === status);
  }

  recommendation(hash: string, now?: number): RecommendationView | undefined {
    const row = this.recRow(hash);
    return row ? this.view(row, now ?? this.now()) : undefined;
  }

  audit(recHash: string): StoredGrain<AuditGrain>[] {
    const row = this.db.prepare(
      "SELECT audit_head FROM rec_status WHERE hash = ?",
    ).get(recHash) as
      | { audit_head: string | null }
      | undefined;
    const out: StoredGrain<AuditGrain>[] = [];
    const seen = new Set<string>();
    let cur = row?.audit_head ?? undefined;
    while (cur && !seen.has(cur)) {
      seen.add(cur);
      const g = this.get(cur);
      if (!g || g.grain.type !== "audit") break;
      out.unshift(g as StoredGrain<AuditGrain>);
      cur = g.grain.prev;
    }
    return out;
  }

  auditGrains(recHash: string): StoredGrain<AuditGrain>[] {
    const rows = this.db.prepare(
      `SELECT ${GRAIN_COLS} FROM grains g
        WHERE g.type = 'audit' AND json_extract(g.body, '$.rec') = ? ORDER BY g.id`,
    ).all(recHash) as unknown as GrainRow[];
    return rows.map((r) => this.#row(r) as StoredGrain<AuditGrain>);
  }

  propose(draft: RecommendationDraft, options: ProposeOptions): ProposeResult {
    return propose(this, draft, options);
  }

  review(
    hash: string,
    decision: "approve" | "reject",
    options: TransitionOptions,
  ): TransitionResult {
    return review(this, hash, decision, options);
  }

  apply(hash: string, options: ApplyOptions): TransitionResult {
    return apply(this, hash, options);
  }

  autoApply(
    hash: string,
    options: { policy: LoopPolicy; now?: number },
  ): { applied: boolean; reason: string } {
    return autoApply(this, hash, options);
  }

  rollback(hash: string, options: TransitionOptions): TransitionResult {
    return rollback(this, hash, options);
  }

  markApplied(hash: string, options: TransitionOptions): TransitionResult {
    return markApplied(this, hash, options);
  }

  // ---- config, state, definitions, locks ---------------------------------

  config(): Record<string, AnalyzerConfigRow> {
    const rows = this.db.prepare("SELECT * FROM loop_config ORDER BY analyzer")
      .all() as Array<{
        analyzer: string;
        enabled: number | null;
        params: string | null;
        severity_floor: string | null;
        namespaces: string | null;
        actor: string;
        source: string;
        updated_at: number;
      }>;
    const out: Record<string, AnalyzerConfigRow> = {};
    for (const r of rows) {
      const c: AnalyzerConfigRow = {
        analyzer: r.analyzer,
        actor: r.actor,
        source: r.source,
        updated_at: r.updated_at,
      };
      if (r.enabled !== null) c.enabled = r.enabled === 1;
      if (r.params) c.params = JSON.parse(r.params);
      if (r.severity_floor) {
        c.severity_floor = r.severity_floor as
          & AnalyzerConfig["severity_floor"]
          & string;
      }
      if (r.namespaces) c.namespaces = JSON.parse(r.namespaces);
      out[r.analyzer] = c;
    }
    return out;
  }

  setConfig(
    analyzer: string,
    config: AnalyzerConfig,
    options: { actor: string; source?: string; now?: number },
  ): void {
    const c = checkAnalyzerConfig(analyzer, config);
    this.write(() => {
      this.db.prepare(
        `INSERT INTO loop_config(analyzer, enabled, params, severity_floor, namespaces, actor, source, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(analyzer) DO UPDATE SET enabled = excluded.enabled, params = excluded.params,
           severity_floor = excluded.severity_floor, namespaces = excluded.namespaces,
           actor = excluded.actor, source = excluded.source, updated_at = excluded.updated_at`,
      ).run(
        analyzer,
        c.enabled === undefined ? null : c.enabled ? 1 : 0,
        c.params ? JSON.stringify(c.params) : null,
        c.severity_floor ?? null,
        c.namespaces ? JSON.stringify(c.namespaces) : null,
        options.actor,
        options.source ?? "local",
        options.now ?? this.now(),
      );
    });
  }

  definitions(): Record<string, unknown> {
    const rows = this.db.prepare(
      "SELECT key, body FROM definitions ORDER BY key",
    ).all() as Array<
      { key: string; body: string }
    >;
    return Object.fromEntries(rows.map((r) => [r.key, JSON.parse(r.body)]));
  }

  /** Writes or deletes (body undefined) a definition; returns the prior body. */
  define(key: string, body: unknown, actor: string, now = this.now()): unknown {
    const prior = this.db.prepare("SELECT body FROM definitions WHERE key = ?")
      .get(key) as
        | { body: string }
        | undefined;
    if (body === undefined) {
      this.db.prepare("DELETE FROM definitions WHERE key = ?").run(key);
    } else {
      this.db.prepare(
        `INSERT INTO definitions(key, body, actor, updated_at) VALUES (?, ?, ?, ?)
         ON CONFLICT(key) DO UPDATE SET body = excluded.body, actor = excluded.actor, updated_at = excluded.updated_at`,
      ).run(key, canonicalJson(body), actor, now);
    }
    return prior ? JSON.parse(prior.body) : undefined;
  }

  exportConfig(): LoopConfigExport {
    const analyzers: Record<string, AnalyzerConfig> = {};
    for (const [id, row] of Object.entries(this.config())) {
      const c: AnalyzerConfig = {};
      if (row.enabled !== undefined) c.enabled = row.enabled;
      if (row.params) c.params = row.params;
      if (row.severity_floor) c.severity_floor = row.severity_floor;
      if (row.namespaces) c.namespaces = row.namespaces;
      analyzers[id] = c;
    }
    return { deja_loop_config: 1, analyzers, definitions: this.definitions() };
  }

  importConfig(
    data: unknown,
    options: { actor: string; now?: number },
  ): { analyzers: number; definitions: number } {
    if (typeof data !== "object" || data === null || Array.isArray(data)) {
      throw new TypeError(
        "Invalid loop config: the top level must be an object",
      );
    }
    const d = data as Record<string, unknown>;
    for (const k of Object.keys(d)) {
      if (!["deja_loop_config", "analyzers", "definitions"].includes(k)) {
        throw new TypeError(`Invalid loop config: unknown key "${k}"`);
      }
    }
    if (d.deja_loop_config !== 1) {
      throw new TypeError(`Invalid loop config: "deja_loop_config" must be 1`);
    }
    const analyzers = (d.analyzers ?? {}) as Record<string, unknown>;
    const defs = (d.definitions ?? {}) as Record<string, unknown>;
    if (typeof analyzers !== "object" || Array.isArray(analyzers)) {
      throw new TypeError(`Invalid loop config: "analyzers" must be an object`);
    }
    if (typeof defs !== "object" || Array.isArray(defs)) {
      throw new TypeError(
        `Invalid loop config: "definitions" must be an object`,
      );
    }
    const checked = Object.entries(analyzers).map(([id, c]) =>
      [id, checkAnalyzerConfig(id, c)] as const
    );
    const now = options.now ?? this.now();
    this.write(() => {
      for (const [id, c] of checked) {
        this.db.prepare(
          `INSERT INTO loop_config(analyzer, enabled, params, severity_floor, namespaces, actor, source, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, 'import', ?)
           ON CONFLICT(analyzer) DO UPDATE SET enabled = excluded.enabled, params = excluded.params,
             severity_floor = excluded.severity_floor, namespaces = excluded.namespaces,
             actor = excluded.actor, source = excluded.source, updated_at = excluded.updated_at`,
        ).run(
          id,
          c.enabled === undefined ? null : c.enabled ? 1 : 0,
          c.params ? JSON.stringify(c.params) : null,
          c.severity_floor ?? null,
          c.namespaces ? JSON.stringify(c.namespaces) : null,
          options.actor,
          now,
        );
      }
      for (const [key, body] of Object.entries(defs)) {
        this.define(key, body, options.actor, now);
      }
    });
    return { analyzers: checked.length, definitions: Object.keys(defs).length };
  }

  state(key: string): unknown {
    const row = this.db.prepare("SELECT value FROM loop_state WHERE key = ?")
      .get(key) as
        | { value: string }
        | undefined;
    return row ? JSON.parse(row.value) : undefined;
  }

  /** Writes a loop_state value inside the current transaction. */
  putState(key: string, value: unknown, now = this.now()): void {
    this.db.prepare(
      `INSERT INTO loop_state(key, value, updated_at) VALUES (?, ?, ?)
       ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
    ).run(key, JSON.stringify(value ?? null), now);
  }

  setState(key: string, value: unknown, now?: number): void {
    this.write(() => this.putState(key, value, now));
  }

  watermark(): number | undefined {
    const v = this.state("watermark");
    return typeof v === "number" ? v : undefined;
  }

  setWatermark(ms: number): void {
    this.write(() => {
      this.putState("watermark", ms, ms);
      this.putState("last_run", ms, ms);
    });
  }

  lock(name: string, options: LockOptions = {}): Lock | undefined {
    const now = options.now ?? this.now();
    const ttl = options.ttlMs ?? 15 * 60_000;
    const holder = crypto.randomUUID();
    let got = false;
    try {
      this.write(() => {
        const row = this.db.prepare(
          "SELECT holder, expires_at FROM locks WHERE name = ?",
        ).get(name) as
          | { holder: string; expires_at: number }
          | undefined;
        if (row && row.expires_at > now) return;
        this.db.prepare(
          `INSERT INTO locks(name, holder, acquired_at, expires_at) VALUES (?, ?, ?, ?)
           ON CONFLICT(name) DO UPDATE SET holder = excluded.holder, acquired_at = excluded.acquired_at,
             expires_at = excluded.expires_at`,
        ).run(name, holder, now, now + ttl);
        got = true;
      });
    } catch (err) {
      if (err instanceof DejaError && err.code === "MEM-E004") return undefined;
      throw err;
    }
    if (!got) return undefined;
    let released = false;
    return {
      name,
      holder,
      release: () => {
        if (released) return;
        released = true;
        try {
          this.write(() =>
            this.db.prepare("DELETE FROM locks WHERE name = ? AND holder = ?")
              .run(name, holder)
          );
        } catch {
          // A closed or busy file leaves the lock to expire by its TTL.
        }
      },
    };
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }
}

/** Validates one analyzer config record (unknown keys refused). */
export function checkAnalyzerConfig(
  analyzer: string,
  value: unknown,
): AnalyzerConfig {
  const where = `Invalid loop config for "${analyzer}"`;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new TypeError(`${where}: must be an object`);
  }
  const v = value as Record<string, unknown>;
  for (const k of Object.keys(v)) {
    if (!["enabled", "params", "severity_floor", "namespaces"].includes(k)) {
      throw new TypeError(`${where}: unknown key "${k}"`);
    }
  }
  const out: AnalyzerConfig = {};
  if (v.enabled !== undefined) {
    if (typeof v.enabled !== "boolean") {
      throw new TypeError(`${where}: "enabled" must be a boolean`);
    }
    out.enabled = v.enabled;
  }
  if (v.params !== undefined) {
    if (
      typeof v.params !== "object" || v.params === null ||
      Array.isArray(v.params)
    ) {
      throw new TypeError(`${where}: "params" must be an object`);
    }
    out.params = v.params as Record<string, unknown>;
  }
  if (v.severity_floor !== undefined) {
    if (
      typeof v.severity_floor !== "string" || severityRank(v.severity_floor) < 0
    ) {
      throw new TypeError(`${where}: "severity_floor" is not a severity`);
    }
    out.severity_floor = v.severity_floor as
      & AnalyzerConfig["severity_floor"]
      & string;
  }
  if (v.namespaces !== undefined) {
    if (
      !Array.isArray(v.namespaces) ||
      v.namespaces.some((n) => typeof n !== "string")
    ) {
      throw new TypeError(`${where}: "namespaces" must be a list of strings`);
    }
    out.namespaces = v.namespaces as string[];
  }
  return out;
}
