/**
 * What every route handler shares: the resolved dependencies, the stores,
 * the search arena and the concurrent-search counter.
 *
 * @module
 */
import type { SourceEnv } from "../core/harness.ts";
import type { LoopPolicy } from "../memory/mod.ts";
import type { AuthConfig } from "./_guard.ts";
import type { Stores } from "./_stores.ts";
import type { FoldArena, SearchBudgets } from "./message_search.ts";

/** Dependencies after defaults are filled in. */
export interface ServerState {
  /** Write configuration. */
  auth: AuthConfig;
  /** The effective host policy. */
  policy: LoopPolicy;
  /** Where the policy came from, or undefined for the closed default. */
  policySource: string | undefined;
  /** Lazily opened stores. */
  stores: Stores;
  /** Wall clock, epoch ms. */
  now: () => number;
  /** Monotonic clock, ms. */
  clock: () => number;
  /** Search budgets. */
  budgets: SearchBudgets;
  /** Resident folded records. */
  arena: FoldArena;
  /** Searches running now. */
  searches: { active: number; max: number };
  /** Test hook awaited inside a search slot. */
  searchHook: (() => Promise<void>) | undefined;
  /** Inline loop run budget, ms. */
  runBudgetMs: number;
  /** For `/api/sources` roots. */
  sourceEnv: SourceEnv | undefined;
  /** The listening port, when known. */
  port: number | undefined;
}
