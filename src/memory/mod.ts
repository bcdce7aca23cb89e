/**
 * The memory file: content-addressed grains with supersession and
 * tombstones, captured tool calls, notes, and the governed recommendation
 * lifecycle (propose → review → apply → rollback) with hash-chained audit
 * and a host policy.
 *
 * @example
 * ```ts
 * import { openMemory } from "./mod.ts";
 * import { equal } from "node:assert/strict";
 * const store = openMemory(":memory:", { now: () => 5_000 });
 * const a = store.put({ type: "fact", namespace: "d", created_at: 1, actor: "human:me", subject: "acme", relation: "region", object: "eu" });
 * const b = store.supersede(a, { type: "fact", namespace: "d", created_at: 2, actor: "human:me", subject: "acme", relation: "region", object: "us" });
 * equal(store.heads(a)[0], b);
 * store.close();
 * ```
 *
 * @module
 */
export type * from "./types.ts";
export {
  ALL_SCOPES,
  type AnalyzerConfig,
  type AnalyzerConfigRow,
  type ApplyOptions,
  type ByTypeOptions,
  type Lock,
  type LockOptions,
  type LoopConfigExport,
  type MemoryReader,
  type MemoryStore,
  type ProposeOptions,
  type ProposeResult,
  type RawGrain,
  type RecallOptions,
  type RecommendationView,
  type RecStatus,
  type Scope,
  type TelemetryRow,
  type TransitionOptions,
  type TransitionResult,
} from "./memory_store.ts";
export type { GrainColumns } from "./_grain_columns.ts";
export { openMemory, type OpenMemoryOptions } from "./open_memory.ts";
export { hashGrain } from "./hash_grain.ts";
export {
  GRAIN_TYPES,
  NOTE_STATES,
  SEVERITIES,
  severityRank,
  validateGrain,
} from "./validate_grain.ts";
export {
  analyzerMatches,
  type AutoApplyGrant,
  checkAutoApply,
  effectiveAnalyzer,
  type EffectiveAnalyzerInput,
  EMPTY_POLICY,
  loadPolicy,
  type LoopPolicy,
  parsePolicy,
  type TargetClass,
  targetClass,
} from "./policy.ts";
export { type AuditVerdict, verifyAuditChain } from "./verify_audit_chain.ts";
export {
  grainText,
  renderGrain,
  renderOp,
  renderProposal,
  renderTemplate,
} from "./render.ts";
export {
  COOLDOWN_BASE_MS,
  COOLDOWN_MAX_MS,
  dedupKey,
  DEFAULT_VALID_FOR_MS,
  isDestructive,
  MAX_BECAUSE,
  MAX_EVIDENCE,
  observerOf,
  opScopes,
  requireBecause,
  requireScopes,
  validateDraft,
} from "./recommendation_rules.ts";
export { LOOP_NAMESPACE } from "./_store.ts";
export { DOC_RELATION } from "./_apply.ts";
export {
  MAX_CAPTURE_CHARS,
  recordToolCall,
  type ToolCall,
} from "./record_tool_call.ts";
export {
  classifyResult,
  importToolLog,
  type ImportToolLogOptions,
  type ImportToolLogReport,
} from "./import_tool_log.ts";
export {
  importFromIndex,
  type ImportFromIndexOptions,
  type ImportFromIndexReport,
  importToolEvents,
} from "./import_from_index.ts";
export type { ToolEvent } from "../index/mod.ts";
export {
  groupNotes,
  listNotes,
  type Note,
  type NoteGroup,
  NOTES_NAMESPACE,
  type NoteState,
  promote,
  remember,
  type RememberOptions,
} from "./notes.ts";
export {
  type BatchReport,
  batchReport,
  type BatchStatement,
  parseBatch,
  runBatch,
  TEMPLATE_NAMES,
  templateBatch,
  type TemplateName,
} from "./init_templates.ts";
