/**
 * deja: one memory for every coding agent. Index every agent's transcripts
 * into one SQLite index (secrets redacted), search it, and run a governed
 * self-improvement loop over what the agents did.
 *
 * @example
 * ```ts
 * import { HARNESSES, indexStores, openIndex, search } from "./mod.ts";
 * import { equal } from "node:assert/strict";
 *
 * const home = await Deno.makeTempDir();
 * const indexPath = `${home}/index.db`;
 * const report = await indexStores({
 *   indexPath,
 *   harnesses: HARNESSES,
 *   source: { home, env: {}, os: Deno.build.os },
 * });
 * equal(report.failures.length, 0);
 * const db = openIndex(indexPath, { readOnly: true });
 * const result = await search(db, "docker compose", { now: Date.now() });
 * equal(result.total, 0);
 * db.close();
 * ```
 *
 * @module
 */
export {
  isRole,
  isSuperseded,
  type Lineage,
  type Locator,
  type Mark,
  type RecordFlags,
  type Role,
  ROLES,
  type Session,
  type SessionRecord,
  SPEECH_ROLES,
  WORK_ROLES,
} from "./src/core/types.ts";
export {
  DejaError,
  ERROR_CODES,
  type ErrorCode,
  UsageError,
} from "./src/core/errors.ts";
export type {
  FileKind,
  Harness,
  HarnessDocs,
  ParseOptions,
  ParseResult,
  SourceEnv,
} from "./src/core/harness.ts";
export { type Env, indexPath, memoryPath } from "./src/core/paths.ts";
export type { Database } from "./src/core/_sqlite.ts";
export { HARNESSES } from "./src/sources/registry.ts";
export {
  redact,
  redactionEnabled,
  type RedactionResult,
  type RedactOptions,
} from "./src/redact/mod.ts";
export {
  type HarnessTotals,
  type IndexFailure,
  type IndexOptions,
  type IndexProgress,
  type IndexReport,
  indexStores,
  openIndex,
  type OpenIndexOptions,
  type ToolEvent,
  toolEvents,
  type ToolEventsOptions,
} from "./src/index/mod.ts";
export {
  extractAsk,
  type HarnessStats,
  type IndexStats,
  indexStats,
  type LadderStep,
  type QueryReading,
  type QueryTerm,
  type ScoreParts,
  search,
  type SearchHit,
  type SearchOptions,
  type SearchResult,
  type SearchTier,
  type SessionInfo,
  type ShownRecord,
  type ShownSession,
  type ShowOptions,
  showSession,
  type Signals,
  type Snippet,
  type StoredRecord,
  type TermKind,
  type TimeWindow,
  type UnderstandOptions,
  understandQuery,
  type UnderstoodQuery,
} from "./src/search/mod.ts";
export type {
  AuditGrain,
  EventGrain,
  FactGrain,
  GoalGrain,
  Grain,
  GrainCommon,
  GrainType,
  NoteGrain,
  ObservationGrain,
  Op,
  Proposal,
  RecommendationDraft,
  RecommendationGrain,
  Severity,
  SkillGrain,
  StoredGrain,
} from "./src/memory/types.ts";
export {
  type AnalyzerConfig,
  type AnalyzerConfigRow,
  type ApplyOptions,
  type AuditVerdict,
  type AutoApplyGrant,
  type ByTypeOptions,
  checkAutoApply,
  type GrainColumns,
  hashGrain,
  importFromIndex,
  type ImportFromIndexOptions,
  type ImportFromIndexReport,
  importToolLog,
  type ImportToolLogOptions,
  type ImportToolLogReport,
  listNotes,
  loadPolicy,
  type Lock,
  type LockOptions,
  type LoopConfigExport,
  type LoopPolicy,
  type MemoryReader,
  type MemoryStore,
  type Note,
  type NoteState,
  openMemory,
  type OpenMemoryOptions,
  parsePolicy,
  promote,
  type ProposeOptions,
  type ProposeResult,
  type RawGrain,
  type RecallOptions,
  type RecommendationView,
  recordToolCall,
  type RecStatus,
  remember,
  type RememberOptions,
  renderProposal,
  type Scope,
  type TargetClass,
  type TelemetryRow,
  type ToolCall,
  type TransitionOptions,
  type TransitionResult,
  verifyAuditChain,
} from "./src/memory/mod.ts";
export {
  activation,
  type ActivationOptions,
  type Analyzer,
  type AnalyzerActivation,
  type AnalyzerManifest,
  ANALYZERS,
  type AutoApplyClass,
  type Capability,
  type CommandAnalyzerSpec,
  type ParamSpec,
  type ParamValue,
  type ResolvedParams,
  runLoop,
  type RunLoopOptions,
  type RunRecommendation,
  type RunResult,
  type SkippedAnalyzer,
  type SkipReason,
  type Tier,
} from "./src/loop/mod.ts";
export {
  blame,
  type BlameEntry,
  blameLine,
  type BlameLineOptions,
  type BlameOptions,
  type BlameResult,
  type Change,
  type ContextDigest,
  contextDigest,
  type ContextOptions,
  filesForTopic,
  type FilesOptions,
  type FileUse,
  fixFor,
  type FixOptions,
  type FixPair,
  type FixResult,
  type FrameOptions,
  frameRecall,
  type GitRunner,
  type HowOptions,
  type HowResult,
  howTo,
  type Invocation,
  isIrreversible,
  type LastOptions,
  lastSessions,
  type LineAttribution,
  neutralizeFrameTags,
  orient,
  type Orientation,
  type OrientOptions,
  type RecurringCommand,
  type ResumeCommand,
  resumeCommand,
} from "./src/recall/mod.ts";
export {
  createMcpServer,
  type McpContext,
  serveMcpStdio,
} from "./src/mcp/mod.ts";
export {
  type FileChange,
  INSTALL_HARNESSES,
  type InstallHarness,
  installHarness,
  type InstallOptions,
  type InstallReport,
  uninstallHarness,
} from "./src/install/mod.ts";
export {
  type AppDeps,
  type AuthConfig,
  type ConsoleApp,
  createApp,
  type Mode,
  modeOf,
  type RunningServer,
  type SearchBudgets,
  serveConsole,
  type ServeOptions,
} from "./src/server/mod.ts";
