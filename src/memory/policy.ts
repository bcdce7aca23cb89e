/**
 * The host policy file (`loop-policy.json`): auto-apply grants, a deny-list
 * and severity floors. Every field defaults closed, unknown keys are refused,
 * and the trust floor has no field at all, so no file can weaken it.
 *
 * @module
 */
import { DejaError, messageOf } from "../core/errors.ts";
import type { AnalyzerConfig, MemoryReader } from "./memory_store.ts";
import { SEVERITIES, severityRank } from "./validate_grain.ts";
import type { Grain, RecommendationDraft, Severity } from "./types.ts";

/** Target classes a grant can name (prompt and host never auto-apply). */
export type TargetClass = "memory" | "query" | "prompt" | "host";

/** One auto-apply grant. */
export interface AutoApplyGrant {
  /** Analyzer id (`deja.duplicate_sweep/1`), id without major, or family. */
  analyzer: string;
  /** Target classes the grant covers: `memory`, `query`. */
  targets: Array<"memory" | "query">;
  /** Highest severity the grant covers. */
  max_severity: Severity;
}

/** The parsed, effective host policy. */
export interface LoopPolicy {
  /** Master switch for auto-apply (default off). */
  auto_apply_enabled: boolean;
  /** Grants (analyzer × target class × severity). */
  auto_apply: AutoApplyGrant[];
  /** Analyzers that never run (ids or families). */
  deny: string[];
  /** Per-analyzer severity floors (ids or families). */
  severity_floors: Record<string, Severity>;
  /** Recall telemetry mode. */
  telemetry: "off" | "aggregate" | "full";
}

/** The closed default: nothing granted, nothing denied. */
export const EMPTY_POLICY: LoopPolicy = Object.freeze({
  auto_apply_enabled: false,
  auto_apply: [],
  deny: [],
  severity_floors: {},
  telemetry: "aggregate",
}) as LoopPolicy;

const TOP_KEYS = [
  "auto_apply_enabled",
  "auto_apply",
  "deny",
  "severity_floors",
  "telemetry",
];
const GRANT_KEYS = ["analyzer", "targets", "max_severity"];

function bad(source: string, message: string): never {
  throw new DejaError(
    "LOOP-E006",
    `Invalid loop policy "${source}": ${message}`,
  );
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function severity(source: string, where: string, v: unknown): Severity {
  if (typeof v !== "string" || severityRank(v) < 0) {
    bad(source, `${where} must be one of ${SEVERITIES.join(", ")}`);
  }
  return v as Severity;
}

/**
 * Parses and validates a policy. Unknown keys at any level are refused.
 *
 * @param value Parsed JSON or its text.
 * @param source Name for messages (the file path).
 * @returns The policy with closed defaults filled in.
 * @throws {DejaError} LOOP-E006 on any problem.
 * @example
 * ```ts
 * import { parsePolicy } from "./policy.ts";
 * import { equal, throws } from "node:assert/strict";
 * equal(parsePolicy("{}").auto_apply_enabled, false);
 * throws(() => parsePolicy('{"allow_self_approval": true}'));
 * ```
 */
export function parsePolicy(value: unknown, source = "policy"): LoopPolicy {
  let data = value;
  if (typeof value === "string") {
    try {
      data = JSON.parse(value);
    } catch (err) {
      bad(source, `not JSON: ${messageOf(err)}`);
    }
  }
  if (!isObject(data)) bad(source, "the top level must be an object");
  for (const key of Object.keys(data)) {
    if (!TOP_KEYS.includes(key)) bad(source, `unknown key "${key}"`);
  }
  const policy: LoopPolicy = {
    auto_apply_enabled: false,
    auto_apply: [],
    deny: [],
    severity_floors: {},
    telemetry: "aggregate",
  };
  if (data.auto_apply_enabled !== undefined) {
    if (typeof data.auto_apply_enabled !== "boolean") {
      bad(source, `"auto_apply_enabled" must be true or false`);
    }
    policy.auto_apply_enabled = data.auto_apply_enabled;
  }
  if (data.auto_apply !== undefined) {
    if (!Array.isArray(data.auto_apply)) {
      bad(source, `"auto_apply" must be a list`);
    }
    data.auto_apply.forEach((g, i) => {
      const where = `auto_apply[${i}]`;
      if (!isObject(g)) bad(source, `${where} must be an object`);
      for (const key of Object.keys(g)) {
        if (!GRANT_KEYS.includes(key)) {
          bad(source, `unknown key "${key}" in ${where}`);
        }
      }
      if (typeof g.analyzer !== "string" || g.analyzer.trim() === "") {
        bad(source, `${where}.analyzer must be a non-empty string`);
      }
      if (
        !Array.isArray(g.targets) || g.targets.length === 0 ||
        g.targets.some((t) => t !== "memory" && t !== "query")
      ) {
        bad(
          source,
          `${where}.targets must list "memory" and/or "query" (prompt and host targets can never auto-apply)`,
        );
      }
      policy.auto_apply.push({
        analyzer: g.analyzer,
        targets: g.targets as Array<"memory" | "query">,
        max_severity: severity(source, `${where}.max_severity`, g.max_severity),
      });
    });
  }
  if (data.deny !== undefined) {
    if (
      !Array.isArray(data.deny) || data.deny.some((d) => typeof d !== "string")
    ) {
      bad(source, `"deny" must be a list of analyzer ids`);
    }
    policy.deny = [...data.deny as string[]];
  }
  if (data.severity_floors !== undefined) {
    if (!isObject(data.severity_floors)) {
      bad(source, `"severity_floors" must be an object`);
    }
    for (const [k, v] of Object.entries(data.severity_floors)) {
      policy.severity_floors[k] = severity(source, `severity_floors.${k}`, v);
    }
  }
  if (data.telemetry !== undefined) {
    if (!["off", "aggregate", "full"].includes(data.telemetry as string)) {
      bad(source, `"telemetry" must be off, aggregate or full`);
    }
    policy.telemetry = data.telemetry as LoopPolicy["telemetry"];
  }
  return policy;
}

/**
 * Loads the host policy from `--policy FILE`, else `$DEJA_LOOP_POLICY`, else
 * returns the closed default.
 *
 * @param flag The `--policy` value, if given.
 * @param env The environment.
 * @returns The policy and where it came from (`"none"` for the default).
 * @throws {DejaError} LOOP-E006 when the file is unreadable or invalid.
 */
export function loadPolicy(
  flag: string | undefined,
  env: Record<string, string | undefined>,
): { policy: LoopPolicy; source: string } {
  const path = flag ?? env.DEJA_LOOP_POLICY;
  if (!path) return { policy: EMPTY_POLICY, source: "none" };
  let text: string;
  try {
    text = Deno.readTextFileSync(path);
  } catch (err) {
    bad(path, `cannot read: ${messageOf(err)}`);
  }
  return { policy: parsePolicy(text, path), source: path };
}

/**
 * The target class a `target_ref` names: grain/entity → memory,
 * query/template → query, doc → prompt, host (and anything else) → host.
 *
 * @param targetRef A `scheme:opaque` reference.
 * @returns The class.
 * @example
 * ```ts
 * import { targetClass } from "./policy.ts";
 * import { equal } from "node:assert/strict";
 * equal(targetClass("entity:acme"), "memory");
 * equal(targetClass("doc:CLAUDE.md"), "prompt");
 * ```
 */
export function targetClass(targetRef: string): TargetClass {
  const ref = targetRef.trim().toLowerCase();
  const scheme = ref.slice(0, ref.indexOf(":"));
  if (scheme === "grain" || scheme === "entity") return "memory";
  if (scheme === "query" || scheme === "template") return "query";
  if (scheme === "doc") return "prompt";
  return "host";
}

/**
 * Whether a policy entry names this analyzer: its full id, its id without
 * `/major`, or its family.
 *
 * @param entry The policy's name for it.
 * @param analyzer The analyzer id, e.g. `deja.duplicate_sweep/1`.
 * @param family The family, e.g. `duplicate_sweep`.
 * @returns True on a match.
 */
export function analyzerMatches(
  entry: string,
  analyzer: string,
  family: string,
): boolean {
  const e = entry.trim().toLowerCase();
  const id = analyzer.toLowerCase();
  return e === id || e === id.replace(/\/\d+$/, "") ||
    e === family.toLowerCase();
}

const COMMON_KEYS = new Set([
  "type",
  "namespace",
  "created_at",
  "actor",
  "confidence",
  "importance",
  "derived_from",
  "supersedes",
]);

function fold(v: unknown): string {
  return typeof v === "string"
    ? v.normalize("NFC").trim().toLowerCase()
    : JSON.stringify(v);
}

/** Value-identical content (strings compared after case-fold and trim). */
function sameContent(a: Grain, b: Grain): boolean {
  if (a.type !== b.type || a.namespace !== b.namespace) return false;
  if ((a as { valid_to?: number }).valid_to !== undefined) return false;
  if ((b as { valid_to?: number }).valid_to !== undefined) return false;
  const keys = (g: Grain): string[] =>
    Object.keys(g).filter((k) =>
      !COMMON_KEYS.has(k) &&
      (g as unknown as Record<string, unknown>)[k] !== undefined
    ).sort();
  const ka = keys(a);
  const kb = keys(b);
  if (ka.join() !== kb.join()) return false;
  const ra = a as unknown as Record<string, unknown>;
  const rb = b as unknown as Record<string, unknown>;
  return ka.every((k) => fold(ra[k]) === fold(rb[k]));
}

/**
 * The auto-apply gate. All must hold: auto-apply enabled by the host; origin
 * `analyzer` (never `llm` or `command`); not denied; a memory/query target; an
 * ops proposal with no FORGET; a grant matching analyzer, target class and
 * severity; and every op a SUPERSEDE whose replacement is value-identical to
 * its target (structural curation: no new text enters memory). With `store`,
 * the engine re-verifies each SUPERSEDE against the stored target itself —
 * an analyzer's own claim is never trusted. Without it the result is
 * provisional; {@linkcode MemoryStore.autoApply} re-checks with the store.
 *
 * @param policy The host policy.
 * @param draft The draft or stored recommendation.
 * @param store The memory file, for re-verification.
 * @returns Whether auto-apply is allowed, and why (or why not).
 * @example
 * ```ts
 * import { checkAutoApply, EMPTY_POLICY } from "./policy.ts";
 * import { equal } from "node:assert/strict";
 * const draft = {
 *   analyzer: "deja.staleness/1", params: {}, family: "staleness", target_ref: "grain:ab",
 *   action: "expire", template: { id: "staleness.expired", args: {} }, evidence: [],
 *   severity: "low" as const, proposal: { kind: "ops" as const, ops: [{ op: "FORGET" as const, target: "ab" }] },
 * };
 * equal(checkAutoApply(EMPTY_POLICY, draft).allowed, false);
 * ```
 */
export function checkAutoApply(
  policy: LoopPolicy,
  draft: RecommendationDraft,
  store?: MemoryReader,
): { allowed: boolean; reason: string } {
  const no = (reason: string) => ({ allowed: false, reason });
  if (!policy.auto_apply_enabled) {
    return no("auto-apply is not enabled by host policy");
  }
  const origin = draft.origin ?? "analyzer";
  if (origin !== "analyzer") {
    return no(`${origin}-origin recommendations never auto-apply`);
  }
  if (
    policy.deny.some((d) => analyzerMatches(d, draft.analyzer, draft.family))
  ) {
    return no("analyzer denied by host policy");
  }
  const cls = targetClass(draft.target_ref);
  if (cls !== "memory" && cls !== "query") {
    return no(`${cls} targets never auto-apply`);
  }
  if (draft.proposal.kind !== "ops" || draft.proposal.ops.length === 0) {
    return no("only memory operations can auto-apply");
  }
  if (draft.proposal.ops.some((op) => op.op === "FORGET")) {
    return no("destructive proposals never auto-apply");
  }
  const grant = policy.auto_apply.find((g) =>
    analyzerMatches(g.analyzer, draft.analyzer, draft.family) &&
    (g.targets as string[]).includes(cls) &&
    severityRank(draft.severity) <= severityRank(g.max_severity)
  );
  if (!grant) {
    return no("no auto-apply grant covers this analyzer, target and severity");
  }
  if (draft.proposal.ops.some((op) => op.op !== "SUPERSEDE")) {
    return no(
      "only structural supersessions can auto-apply (ADD and DEFINE bring new content)",
    );
  }
  if (!store) {
    return {
      allowed: true,
      reason:
        `granted to "${grant.analyzer}" (provisional: re-verified against the memory file at apply)`,
    };
  }
  for (const op of draft.proposal.ops) {
    if (op.op !== "SUPERSEDE") continue;
    const target = store.get(op.target);
    if (!target) {
      return no(`target ${op.target.slice(0, 12)} is not in the memory file`);
    }
    if (!store.isCurrent(op.target)) {
      return no(`target ${op.target.slice(0, 12)} is no longer current`);
    }
    if (
      op.grain.supersedes !== undefined && op.grain.supersedes !== op.target
    ) {
      return no("replacement names a different predecessor");
    }
    if (!sameContent(target.grain, op.grain)) {
      return no(
        "replacement is not value-identical to its target (new content needs review)",
      );
    }
  }
  return {
    allowed: true,
    reason: `granted to "${grant.analyzer}"; structure re-verified`,
  };
}

/** Inputs for {@linkcode effectiveAnalyzer}. */
export interface EffectiveAnalyzerInput {
  /** The manifest's default. */
  defaultOn: boolean;
  /** Settings stored in the memory file. */
  file?: AnalyzerConfig;
  /** Host policy. */
  policy?: LoopPolicy;
  /** Host CLI flags. */
  cli?: { only?: readonly string[]; severityFloor?: Severity };
}

/**
 * Resolves whether an analyzer runs and at which severity floor, under the
 * one precedence rule: engine ceilings > CLI flags > policy file >
 * memory-file config. The file selects and restricts; only the host grants.
 *
 * @param analyzer Analyzer id.
 * @param family Its family.
 * @param input Default, file config, policy and CLI flags.
 * @returns Enabled or not with the reason, and the strictest severity floor.
 * @example
 * ```ts
 * import { effectiveAnalyzer, parsePolicy } from "./policy.ts";
 * import { equal } from "node:assert/strict";
 * const policy = parsePolicy({ deny: ["staleness"] });
 * const r = effectiveAnalyzer("deja.staleness/1", "staleness", { defaultOn: true, file: { enabled: true }, policy });
 * equal(r.enabled, false);
 * equal(r.reason, "denied by host policy");
 * ```
 */
export function effectiveAnalyzer(
  analyzer: string,
  family: string,
  input: EffectiveAnalyzerInput,
): { enabled: boolean; reason: string; severity_floor?: Severity } {
  const floors: Severity[] = [];
  if (input.cli?.severityFloor) floors.push(input.cli.severityFloor);
  for (const [k, v] of Object.entries(input.policy?.severity_floors ?? {})) {
    if (analyzerMatches(k, analyzer, family)) floors.push(v);
  }
  if (input.file?.severity_floor) floors.push(input.file.severity_floor);
  const floor = floors.sort((a, b) => severityRank(b) - severityRank(a))[0];
  const out = (enabled: boolean, reason: string) =>
    floor ? { enabled, reason, severity_floor: floor } : { enabled, reason };
  if (input.cli?.only && input.cli.only.length > 0) {
    const picked = input.cli.only.some((o) =>
      analyzerMatches(o, analyzer, family)
    );
    return picked
      ? out(true, "selected by --only")
      : out(false, "not selected by --only");
  }
  if (input.policy?.deny.some((d) => analyzerMatches(d, analyzer, family))) {
    return out(false, "denied by host policy");
  }
  if (input.file?.enabled === true) {
    return out(true, "enabled in the memory file");
  }
  if (input.file?.enabled === false) {
    return out(false, "disabled in the memory file");
  }
  return input.defaultOn
    ? out(true, "on by default")
    : out(false, "off by default (opt-in)");
}
