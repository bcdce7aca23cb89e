/**
 * Shape checks for grains before they are stored.
 *
 * @module
 */
import type { Grain, GrainType, Severity } from "./types.ts";

/** Every grain type, in a fixed order. */
export const GRAIN_TYPES: readonly GrainType[] = [
  "fact",
  "observation",
  "event",
  "skill",
  "goal",
  "note",
  "recommendation",
  "audit",
];

/** Severities, lowest first. */
export const SEVERITIES: readonly Severity[] = [
  "info",
  "low",
  "medium",
  "high",
  "critical",
];

/** Note review states. */
export const NOTE_STATES = [
  "proposed",
  "accepted",
  "rejected",
  "superseded",
  "stale",
] as const;

/**
 * Ranks a severity (info = 0 … critical = 4).
 *
 * @param severity The severity.
 * @returns Its rank, or -1 when unknown.
 * @example
 * ```ts
 * import { severityRank } from "./validate_grain.ts";
 * import { equal } from "node:assert/strict";
 * equal(severityRank("high") > severityRank("low"), true);
 * ```
 */
export function severityRank(severity: string): number {
  return (SEVERITIES as readonly string[]).indexOf(severity);
}

function fail(message: string): never {
  throw new TypeError(`Invalid grain: ${message}`);
}

function str(g: Record<string, unknown>, key: string, optional = false): void {
  const v = g[key];
  if (v === undefined && optional) return;
  if (typeof v !== "string") fail(`"${key}" must be a string`);
}

function num(g: Record<string, unknown>, key: string, optional = false): void {
  const v = g[key];
  if (v === undefined && optional) return;
  if (typeof v !== "number" || !Number.isFinite(v)) {
    fail(`"${key}" must be a finite number`);
  }
}

function unit(g: Record<string, unknown>, key: string, optional = true): void {
  num(g, key, optional);
  const v = g[key];
  if (typeof v === "number" && (v < 0 || v > 1)) {
    fail(`"${key}" must be between 0 and 1`);
  }
}

/**
 * Checks that a value is a well-formed grain of a known type, with the
 * fields its type requires.
 *
 * @param value Anything.
 * @returns The value, typed as a grain.
 * @throws {TypeError} naming the first problem found.
 * @example
 * ```ts
 * import { validateGrain } from "./validate_grain.ts";
 * import { throws } from "node:assert/strict";
 * throws(() => validateGrain({ type: "fact", namespace: "n", created_at: 1, actor: "a" }));
 * ```
 */
export function validateGrain(value: unknown): Grain {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    fail("not an object");
  }
  const g = value as Record<string, unknown>;
  if (!(GRAIN_TYPES as readonly unknown[]).includes(g.type)) {
    fail(`unknown type ${JSON.stringify(g.type)}`);
  }
  str(g, "namespace");
  if ((g.namespace as string).length === 0) fail(`"namespace" is empty`);
  num(g, "created_at");
  str(g, "actor");
  unit(g, "confidence");
  unit(g, "importance");
  num(g, "valid_to", true);
  str(g, "supersedes", true);
  if (g.derived_from !== undefined) {
    if (
      !Array.isArray(g.derived_from) ||
      g.derived_from.some((h) => typeof h !== "string")
    ) {
      fail(`"derived_from" must be a list of hashes`);
    }
  }
  switch (g.type) {
    case "fact":
      str(g, "subject");
      str(g, "relation");
      str(g, "object");
      break;
    case "observation":
      str(g, "text");
      str(g, "subject", true);
      break;
    case "event":
      str(g, "tool");
      str(g, "thread", true);
      str(g, "source", true);
      num(g, "exit_code", true);
      if (typeof g.is_error !== "boolean") fail(`"is_error" must be a boolean`);
      break;
    case "skill":
      str(g, "name");
      unit(g, "proficiency", false);
      num(g, "practice_count");
      break;
    case "goal":
      str(g, "title");
      unit(g, "progress", false);
      if (!["active", "done", "abandoned"].includes(g.state as string)) {
        fail(`"state" must be active, done or abandoned`);
      }
      break;
    case "note":
      str(g, "text");
      str(g, "project", true);
      if (!(NOTE_STATES as readonly unknown[]).includes(g.state)) {
        fail(`"state" must be one of ${NOTE_STATES.join(", ")}`);
      }
      break;
    case "recommendation":
      for (
        const k of ["analyzer", "family", "target_ref", "action", "dedup_key"]
      ) str(g, k);
      if (severityRank(g.severity as string) < 0) fail(`unknown severity`);
      if (!Array.isArray(g.evidence)) fail(`"evidence" must be a list`);
      if (typeof g.proposal !== "object" || g.proposal === null) {
        fail(`"proposal" is missing`);
      }
      if (typeof g.template !== "object" || g.template === null) {
        fail(`"template" is missing`);
      }
      break;
    case "audit":
      for (const k of ["rec", "from", "to", "observer", "because"]) str(g, k);
      break;
  }
  return g as unknown as Grain;
}
