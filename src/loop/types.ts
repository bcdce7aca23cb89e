/**
 * The analyzer contract and the run-outcome shape shared by the CLI, the
 * library and (later) the HTTP API.
 *
 * @module
 */
import type { MemoryReader } from "../memory/mod.ts";
import type { RecommendationDraft } from "../memory/types.ts";
import type { AnalyzerManifest, ResolvedParams } from "./manifest.ts";

/**
 * An analyzer: a manifest plus a pure function of (store state, params,
 * now). It reads through {@linkcode MemoryReader} only, so it cannot write,
 * and it never reads the wall clock.
 */
export interface Analyzer {
  /** The analyzer's description and parameter specs. */
  manifest: AnalyzerManifest;
  /**
   * Computes drafts.
   *
   * @param store Read-only view of the memory file.
   * @param params Validated parameters.
   * @param now The run's timestamp, epoch milliseconds.
   * @returns Drafts with template summaries only.
   */
  analyze(
    store: MemoryReader,
    params: ResolvedParams,
    now: number,
  ): RecommendationDraft[];
}

/** Why a run did nothing. */
export type SkipReason = "min_new_not_met" | "not_stale" | "lock_held";

/** One analyzer that did not run, with the reason. */
export interface SkippedAnalyzer {
  /** Manifest id. */
  id: string;
  /** `disabled`, `denied by host policy`, `needs event grains`, `timeout after 10000 ms`, ... */
  reason: string;
}

/** One recommendation a run stored (or, in a dry run, would store). */
export interface RunRecommendation {
  /** Stored hash; absent in a dry run. */
  hash?: string;
  /** Proposing analyzer id. */
  analyzer: string;
  /** Severity. */
  severity: RecommendationDraft["severity"];
  /** Target reference. */
  target_ref: string;
  /** Template id of the summary. */
  template: string;
  /** Rendered one-line summary (from the template, never free prose). */
  summary: string;
  /** Whether policy applied it during the run. */
  auto_applied?: boolean;
}

/**
 * The run-outcome contract: one shape for every surface. JSON output is
 * append-only — fields are added, never renamed or removed.
 */
export interface RunResult {
  /** Whether analyzers ran. */
  outcome: "ran" | "skipped";
  /** Why nothing ran, or null. */
  skip_reason: SkipReason | null;
  /** New activity since the last run's watermark. */
  new_since_watermark: { grains: number; error_events: number };
  /** Drafts the analyzers produced. */
  proposed: number;
  /** Drafts dropped because an equal recommendation is open or cooling down. */
  deduped: number;
  /** Recommendations newly stored. */
  stored: number;
  /** Recommendations policy applied during the run. */
  auto_applied: number;
  /** Ids of analyzers that ran. */
  analyzers_run: string[];
  /** Analyzers that did not run, each with its reason. */
  analyzers_skipped: SkippedAnalyzer[];
  /** Wall time of the run from the injected monotonic clock. */
  duration_ms: number;
  /** Whether nothing was stored on purpose (`--dry-run`). */
  dry_run: boolean;
  /** The recommendations stored (or, dry, that would be). */
  recommendations: RunRecommendation[];
}
