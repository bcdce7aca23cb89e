/**
 * The memory file's interfaces: what analyzers read ({@linkcode MemoryReader})
 * and what hosts, the CLI and the run engine change ({@linkcode MemoryStore}).
 *
 * @module
 */
import type {
  AuditGrain,
  Grain,
  GrainType,
  RecommendationDraft,
  RecommendationGrain,
  Severity,
  StoredGrain,
} from "./types.ts";
import type { LoopPolicy } from "./policy.ts";
import type { GrainColumns } from "./_grain_columns.ts";

/** A grain's row as stored: its hash, its canonical body, its columns. */
export interface RawGrain extends GrainColumns {
  /** The content address. */
  hash: string;
  /** The canonical JSON the address is the sha256 of. */
  body: string;
}

/** Authority a caller holds. `admin` implies every other scope. */
export type Scope = "read" | "write" | "review" | "apply" | "admin";

/** Every scope, for the local root of trust (CLI, embedded callers). */
export const ALL_SCOPES: readonly Scope[] = [
  "read",
  "write",
  "review",
  "apply",
  "admin",
];

/** A recommendation's lifecycle status; `expired` is computed from valid_to. */
export type RecStatus =
  | "pending"
  | "approved"
  | "rejected"
  | "applied"
  | "rolled_back"
  | "expired";

/** A recommendation with its mutable status. */
export interface RecommendationView {
  /** The recommendation's content address. */
  hash: string;
  /** The immutable recommendation grain. */
  grain: RecommendationGrain;
  /** Effective status (`expired` when pending/approved past valid_to). */
  status: RecStatus;
  /** Status as stored, before expiry is computed. */
  stored_status: Exclude<RecStatus, "expired">;
  /** Compare-and-set version; bumps on every transition. */
  version: number;
  /** The actor that proposed it. */
  creator: string;
  /** The actor that triggered the run, for LLM/command drafts. */
  trigger_actor?: string;
  /** Contains a FORGET: needs approval, admin and allow-destructive. */
  destructive: boolean;
  /** Apply stores an inverse that rollback can run. */
  rollbackable: boolean;
  /** Latest audit grain of the chain. */
  audit_head?: string;
  /** When it was applied, epoch ms. */
  applied_at?: number;
  /** Grains the apply (or rollback) wrote. */
  results: string[];
  /** sha256 of the stored inverse plan, when an apply stored one. */
  inverse_digest?: string;
  /** Last transition time, epoch ms. */
  updated_at: number;
}

/** Options for {@linkcode MemoryReader.byType}. */
export interface ByTypeOptions {
  /** Only this namespace. */
  namespace?: string;
  /** Include forgotten grains. */
  includeTombstoned?: boolean;
  /** Only heads of their supersession chains. */
  currentOnly?: boolean;
}

/** One recorded recall. */
export interface TelemetryRow {
  /** The query text. */
  query: string;
  /** Tokens the answer used. */
  tokens: number;
  /** The token budget. */
  budget: number;
  /** When, epoch ms. */
  at: number;
  /** How many grains the answer held. */
  results: number;
}

/** Per-analyzer settings stored in the memory file. */
export interface AnalyzerConfig {
  /** On or off; absent = the manifest default. */
  enabled?: boolean;
  /** Parameter overrides. */
  params?: Record<string, unknown>;
  /** Drop drafts below this severity. */
  severity_floor?: Severity;
  /** Restrict to these namespaces. */
  namespaces?: string[];
}

/** A stored analyzer config row with its provenance stamp. */
export interface AnalyzerConfigRow extends AnalyzerConfig {
  /** Analyzer id. */
  analyzer: string;
  /** Who wrote it. */
  actor: string;
  /** How it arrived: `"local"`, `"import"`, `"init"`. */
  source: string;
  /** When, epoch ms. */
  updated_at: number;
}

/** The portable loop configuration (`loop config-export`). */
export interface LoopConfigExport {
  /** Format version. */
  deja_loop_config: 1;
  /** Per-analyzer settings. */
  analyzers: Record<string, AnalyzerConfig>;
  /** Saved definitions (queries, templates). */
  definitions: Record<string, unknown>;
}

/** Options for {@linkcode MemoryStore.propose}. */
export interface ProposeOptions {
  /** The creating actor, e.g. `"engine:deja.tool_failure/1"`. */
  actor: string;
  /** Clock override, epoch ms. */
  now?: number;
  /** Who triggered the run (CLI/MCP actor) for LLM and command drafts. */
  trigger?: string;
  /** Milliseconds until the recommendation expires (default 30 days). */
  validFor?: number;
}

/** What {@linkcode MemoryStore.propose} did. */
export interface ProposeResult {
  /** The new recommendation, or the one already holding the dedup key. */
  hash: string;
  /** True when nothing new was stored. */
  deduped: boolean;
  /** True when a rejection cooldown suppressed the draft. */
  cooldown?: boolean;
}

/** Options shared by every lifecycle transition. */
export interface TransitionOptions {
  /** Host-asserted actor label, e.g. `"human:alice"`. */
  actor: string;
  /** Mandatory reason, at most 500 characters. */
  because: string;
  /** Live scopes of the caller (default: all, the local root of trust). */
  scopes?: readonly Scope[];
  /** Observer type; derived from the actor when absent. */
  observer?: AuditGrain["observer"];
  /** Compare-and-set: fail with LOOP-E001 unless the version still matches. */
  expectedVersion?: number;
  /** Clock override, epoch ms. */
  now?: number;
}

/** Options for {@linkcode MemoryStore.apply}. */
export interface ApplyOptions extends TransitionOptions {
  /** Permit a destructive (FORGET) proposal; also needs admin. */
  allowDestructive?: boolean;
  /** Host policy; required for the `policy:auto` actor. */
  policy?: LoopPolicy;
}

/** What a transition did. */
export interface TransitionResult {
  /** The recommendation. */
  hash: string;
  /** Status after the transition. */
  status: RecStatus;
  /** Version after the transition. */
  version: number;
  /** The audit grain written. */
  audit: string;
  /** Grains written or forgotten by an apply or rollback. */
  results: string[];
}

/** Options for {@linkcode MemoryReader.recall}. */
export interface RecallOptions {
  /** Words that must all appear (case-insensitive); absent = everything. */
  text?: string;
  /** Grain types (default: every type but recommendation and audit). */
  types?: readonly GrainType[];
  /** Only this namespace. */
  namespace?: string;
  /** Keep grains past their valid_to. */
  includeExpired?: boolean;
  /** At most this many (default 50). */
  limit?: number;
  /** Clock override, epoch ms. */
  now?: number;
}

/** Options for {@linkcode MemoryStore.lock}. */
export interface LockOptions {
  /** A lock older than this is taken over (crashed holder). Default 15 min. */
  ttlMs?: number;
  /** Clock override, epoch ms. */
  now?: number;
}

/** A held lock. */
export interface Lock {
  /** The lock's name. */
  name: string;
  /** Random id of this holder. */
  holder: string;
  /** Releases the lock (idempotent). */
  release(): void;
}

/** What analyzers read. Never writes. */
export interface MemoryReader {
  /** Path of the memory file. */
  readonly path: string;
  /** The store's clock, epoch ms. */
  now(): number;
  /** Grains of one type, in insertion order. */
  byType<T extends GrainType>(
    type: T,
    options?: ByTypeOptions,
  ): StoredGrain<Extract<Grain, { type: T }>>[];
  /** One grain by full hash. */
  get(hash: string): StoredGrain | undefined;
  /** The event stored under an idempotency key (`source`), if any. */
  eventBySource(source: string): string | undefined;
  /** Current heads of the supersession chain containing `hash` (>1 = fork). */
  heads(hash: string): string[];
  /** Every grain of the chain containing `hash`, oldest first. */
  chain(hash: string): StoredGrain[];
  /** Chains with more than one current head: the fork point and its heads. */
  forks(
    options?: { namespace?: string },
  ): Array<{ parent: string; heads: string[] }>;
  /** Whether the grain is live and not superseded by a live grain. */
  isCurrent(hash: string): boolean;
  /** Recommendations with their status, newest first. */
  recommendations(
    filter?: { status?: string; now?: number },
  ): RecommendationView[];
  /** One recommendation with its status. */
  recommendation(hash: string, now?: number): RecommendationView | undefined;
  /** The audit chain of a recommendation, oldest first. */
  audit(recHash: string): StoredGrain<AuditGrain>[];
  /** Every stored audit grain naming this recommendation, on the chain or not. */
  auditGrains(recHash: string): StoredGrain<AuditGrain>[];
  /**
   * A grain's row as written: its canonical body and the columns that
   * repeat the body's fields (for verification).
   */
  raw(hash: string): RawGrain | undefined;
  /** Recall telemetry rows, oldest first. */
  telemetry(): TelemetryRow[];
  /** How often each grain was returned by a recorded recall. */
  recallCounts(): Map<string, number>;
  /** Grains and error events added after `watermark` (loop grains excluded). */
  countSince(watermark: number): { grains: number; error_events: number };
  /** Live grain counts by type. */
  counts(): Record<GrainType, number>;
  /** Current grains matching a text query (the path into an agent's context). */
  recall(options?: RecallOptions): StoredGrain[];
  /** Resolves a unique hash prefix (MEM-E003 when unknown or ambiguous). */
  resolve(prefix: string, options?: { type?: GrainType }): string;
  /** Analyzer settings stored in the file. */
  config(): Record<string, AnalyzerConfigRow>;
  /** Saved definitions (DEFINE targets). */
  definitions(): Record<string, unknown>;
  /** A loop_state value. */
  state(key: string): unknown;
  /** Time of the last completed loop run's watermark, epoch ms. */
  watermark(): number | undefined;
}

/** The writable memory file. */
export interface MemoryStore extends MemoryReader {
  /** Stores a grain; identical content → same hash, one row. */
  put(grain: Grain): string;
  /** Stores `grain` as the successor of `target`. */
  supersede(target: string, grain: Grain): string;
  /** Forgets a grain: out of recall, address kept. */
  forget(
    hash: string,
    options: { actor: string; reason?: string; now?: number },
  ): void;
  /** Records one recall for the telemetry-fed analyzers. */
  recordRecall(
    row: {
      query: string;
      tokens: number;
      budget: number;
      results: readonly string[];
      at?: number;
    },
  ): void;
  /** Queues an analyzer draft as a pending recommendation. */
  propose(draft: RecommendationDraft, options: ProposeOptions): ProposeResult;
  /** Approves or rejects a pending recommendation. */
  review(
    hash: string,
    decision: "approve" | "reject",
    options: TransitionOptions,
  ): TransitionResult;
  /** Applies an approved recommendation, storing its inverse. */
  apply(hash: string, options: ApplyOptions): TransitionResult;
  /** Auto-applies a pending recommendation if the host policy grants it. */
  autoApply(
    hash: string,
    options: { policy: LoopPolicy; now?: number },
  ): { applied: boolean; reason: string };
  /** Runs the stored inverse of an applied recommendation. */
  rollback(hash: string, options: TransitionOptions): TransitionResult;
  /** Records that the host applied a doc/host recommendation itself. */
  markApplied(hash: string, options: TransitionOptions): TransitionResult;
  /** Writes one analyzer's settings. */
  setConfig(
    analyzer: string,
    config: AnalyzerConfig,
    options: { actor: string; source?: string; now?: number },
  ): void;
  /** Exports the loop configuration as plain JSON. */
  exportConfig(): LoopConfigExport;
  /** Imports a configuration written by {@linkcode MemoryStore.exportConfig}. */
  importConfig(
    data: unknown,
    options: { actor: string; now?: number },
  ): { analyzers: number; definitions: number };
  /** Writes a loop_state value. */
  setState(key: string, value: unknown, now?: number): void;
  /** Advances the watermark (and last run time). */
  setWatermark(ms: number): void;
  /** Takes a named lock without blocking; undefined when another holder has it. */
  lock(name: string, options?: LockOptions): Lock | undefined;
  /** Closes the file. */
  close(): void;
}
