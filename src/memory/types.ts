/**
 * The nouns of the memory file: grains (content-addressed, immutable units of
 * memory), recommendations and their audit trail, and the operations a
 * recommendation may propose. Shared by the store (`src/memory`) and the
 * analyzers and run engine (`src/loop`).
 *
 * @module
 */

/** Every kind of grain the memory file holds. */
export type GrainType =
  | "fact"
  | "observation"
  | "event"
  | "skill"
  | "goal"
  | "note"
  | "recommendation"
  | "audit";

/** Fields every grain carries, whatever its type. */
export interface GrainCommon {
  /** The grain's kind; decides which other fields exist. */
  type: GrainType;
  /** Logical partition, e.g. a project name or `"default"`. */
  namespace: string;
  /** Creation time, epoch milliseconds. Part of the content hash. */
  created_at: number;
  /** Who wrote it: `"human:<name>"`, `"agent:<name>"`, `"policy:auto"`, `"system"`. */
  actor: string;
  /** Belief in the grain, 0..1. */
  confidence?: number;
  /** How much the grain matters, 0..1. */
  importance?: number;
  /** Hashes of the grains this one was derived from. */
  derived_from?: string[];
  /** Epoch milliseconds after which the grain is expired (no longer true). */
  valid_to?: number;
  /** Hash of the grain this one replaces (supersession chain). */
  supersedes?: string;
}

/** A subject–relation–object statement. */
export interface FactGrain extends GrainCommon {
  /** Always `"fact"`. */
  type: "fact";
  /** What the fact is about. */
  subject: string;
  /** The relation, e.g. `"uses"`, `"lives_in"`. */
  relation: string;
  /** The value of the relation. */
  object: string;
}

/** A free-text observation, optionally about a subject. */
export interface ObservationGrain extends GrainCommon {
  /** Always `"observation"`. */
  type: "observation";
  /** What was observed. */
  text: string;
  /** What the observation is about. */
  subject?: string;
}

/** One tool call an agent made, with its outcome. */
export interface EventGrain extends GrainCommon {
  /** Always `"event"`. */
  type: "event";
  /** The tool's name, e.g. `"bash"`. */
  tool: string;
  /** Conversation or session the call belongs to. */
  thread?: string;
  /** The call's arguments. */
  input?: unknown;
  /** What the tool returned. */
  result?: unknown;
  /** Whether the call failed. */
  is_error: boolean;
  /** Process exit code for command tools. */
  exit_code?: number;
  /** `"harness:session:seq"` when learned from the transcript index. */
  source?: string;
}

/** A skill and how well it is practised. */
export interface SkillGrain extends GrainCommon {
  /** Always `"skill"`. */
  type: "skill";
  /** The skill's name. */
  name: string;
  /** Proficiency, 0..1. */
  proficiency: number;
  /** How many times it was practised. */
  practice_count: number;
}

/** A goal and its progress. */
export interface GoalGrain extends GrainCommon {
  /** Always `"goal"`. */
  type: "goal";
  /** What the goal is. */
  title: string;
  /** Where the goal stands. */
  state: "active" | "done" | "abandoned";
  /** Progress, 0..1. */
  progress: number;
}

/** A note a person or agent chose to remember, with a review state. */
export interface NoteGrain extends GrainCommon {
  /** Always `"note"`. */
  type: "note";
  /** The note's text. */
  text: string;
  /** Project the note belongs to. */
  project?: string;
  /** Review state of the note. */
  state: "proposed" | "accepted" | "rejected" | "superseded" | "stale";
}

/** How serious a finding is, lowest first. */
export type Severity = "info" | "low" | "medium" | "high" | "critical";

/** One change to the memory file that a recommendation proposes. */
export type Op =
  | { op: "ADD"; grain: Grain }
  | { op: "SUPERSEDE"; target: string; grain: Grain }
  | { op: "FORGET"; target: string }
  | { op: "DEFINE"; key: string; body: unknown };

/**
 * What a recommendation would change: memory operations, a patch to a
 * document, or data for a host (applied outside and then marked applied).
 */
export type Proposal =
  | { kind: "ops"; ops: Op[] }
  | { kind: "doc"; path: string; base_digest: string; patch: string }
  | { kind: "host"; data: unknown };

/** What an analyzer emits; the store turns it into a recommendation grain. */
export interface RecommendationDraft {
  /** Manifest id, e.g. `"deja.tool_failure/1"`. */
  analyzer: string;
  /** Snapshot of the analyzer's params. */
  params: Record<string, unknown>;
  /** Finding family, e.g. `"tool_failure"`. */
  family: string;
  /**
   * What it is about: `"grain:<hash>"`, `"entity:<name>"`, `"query:<text>"`,
   * `"template:<id>"`, `"doc:<path>"` or `"host:<name>"`.
   */
  target_ref: string;
  /** What to do, e.g. `"supersede"`, `"forget"`, `"add_guard"`. */
  action: string;
  /** Fixed text template and its arguments; never free prose. */
  template: { id: string; args: Record<string, string | number> };
  /** At most 64 grain hashes supporting the finding. */
  evidence: string[];
  /** How serious the finding is. */
  severity: Severity;
  /** The literal change. */
  proposal: Proposal;
  /** Metric to measure after apply. */
  metric?: { name: string; value: number; horizon_days: number[] };
  /** Where the draft came from; only `"analyzer"` may ever auto-apply. */
  origin?: "analyzer" | "command" | "llm";
}

/**
 * A stored recommendation: the draft, its dedup key
 * (family ␟ target_ref ␟ action, computed by the store) and the common
 * fields. Its mutable status lives beside it, not in the grain.
 */
export interface RecommendationGrain extends GrainCommon, RecommendationDraft {
  /** Always `"recommendation"`. */
  type: "recommendation";
  /** `family + "\u241f" + target_ref + "\u241f" + action`. */
  dedup_key: string;
}

/** One immutable record of a recommendation's status transition. */
export interface AuditGrain extends GrainCommon {
  /** Always `"audit"`. */
  type: "audit";
  /** Hash of the recommendation. */
  rec: string;
  /** Status before the transition. */
  from: string;
  /** Status after the transition. */
  to: string;
  /** What kind of party made the transition. */
  observer: "human" | "agent" | "policy" | "system";
  /** Mandatory reason, at most 500 characters. */
  because: string;
  /** Hash of the previous audit grain of the same recommendation. */
  prev?: string;
  /** Hashes of grains the transition wrote. */
  results?: string[];
  /**
   * sha256 of the inverse plan an apply stored, so rollback runs only the
   * plan the chain vouches for.
   */
  inverse_digest?: string;
  /**
   * On the first grain of a chain: the actor that triggered the run which
   * proposed it (who may never approve it).
   */
  trigger?: string;
}

/** Any grain. */
export type Grain =
  | FactGrain
  | ObservationGrain
  | EventGrain
  | SkillGrain
  | GoalGrain
  | NoteGrain
  | RecommendationGrain
  | AuditGrain;

/** A grain as read back from the store, with its address. */
export interface StoredGrain<G extends Grain = Grain> {
  /** Content address: sha256 of the grain's canonical JSON. */
  hash: string;
  /** The grain itself. */
  grain: G;
  /** Forgotten: excluded from recall, address kept. */
  tombstoned: boolean;
}
