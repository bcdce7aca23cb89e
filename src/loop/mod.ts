/**
 * The loop engine: analyzer manifests, the built-in analyzers, activation
 * reporting, the run engine, command analyzers, the optional LLM stages and
 * scheduler snippets. Storage, lifecycle and policy live in `src/memory`.
 *
 * @example
 * ```ts
 * import { ANALYZERS, runLoop } from "./mod.ts";
 * import { openMemory } from "../memory/mod.ts";
 * import { equal } from "node:assert/strict";
 * const store = openMemory(":memory:");
 * const result = await runLoop(store, { dryRun: true }, Date.UTC(2026, 0, 1));
 * equal(result.outcome, "ran");
 * equal(ANALYZERS.length, 12);
 * store.close();
 * ```
 *
 * @module
 */
export {
  type AnalyzerManifest,
  type AutoApplyClass,
  type Capability,
  familyOf,
  isAnalyzerId,
  type ParamSpec,
  type ParamValue,
  parseParam,
  type ResolvedParams,
  resolveParams,
  type Tier,
} from "./manifest.ts";
export type {
  Analyzer,
  RunRecommendation,
  RunResult,
  SkippedAnalyzer,
  SkipReason,
} from "./types.ts";
export { ANALYZERS, findAnalyzer } from "./registry.ts";
export {
  activation,
  type ActivationOptions,
  type AnalyzerActivation,
} from "./activation.ts";
export { RUN_LOCK, runLoop, type RunLoopOptions } from "./run_loop.ts";
export { renderSummary, TEMPLATES } from "./templates.ts";
export {
  type CommandAnalyzer,
  type CommandAnalyzerSpec,
  type CommandOptions,
  DEFAULT_ANALYZER_TIMEOUT_MS,
  ENVELOPE_VERSION,
  parseAnalyzerCmd,
  probeCommandAnalyzer,
  runCommandAnalyzer,
} from "./command_analyzer.ts";
export {
  DEFAULT_LLM_TIMEOUT_MS,
  LLM_ANALYZER_ID,
  type LlmCommand,
  type LlmStageResult,
  probeLlmCommand,
  runLlmStages,
} from "./llm_command.ts";
export {
  type ScheduleOptions,
  SCHEDULER_OSES,
  type SchedulerOs,
  scheduleSnippet,
} from "./schedule.ts";
export { SEEDED_FUNCTIONAL } from "./analyzers/contradiction_sweep.ts";
