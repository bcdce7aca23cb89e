/**
 * Analyzer manifests: the one description of an analyzer that drives the CLI
 * listing, parameter validation and activation reporting.
 *
 * @module
 */
import { parseDuration } from "../core/time.ts";
import type { GrainType } from "../memory/types.ts";
import type { TargetClass } from "../memory/policy.ts";

/** How expensive an analyzer is: light ones suit inline runs. */
export type Tier = "light" | "heavy";

/**
 * Whether an analyzer's output may ever be applied by policy. Only
 * `structural` analyzers qualify, and even then the engine re-verifies every
 * draft's shape before auto-apply.
 */
export type AutoApplyClass = "never" | "structural";

/** Store features an analyzer may need beyond grains. */
export type Capability = "telemetry" | "forks";

/** One declared parameter. Six kinds, each with its own constraints. */
export type ParamSpec =
  & {
    /** Parameter name, snake_case. */
    name: string;
    /** One line for listings. */
    description: string;
  }
  & (
    | { kind: "bool"; default: boolean }
    | { kind: "int"; default: number; min: number; max: number }
    | { kind: "float"; default: number; min: number; max: number }
    | { kind: "str"; default: string; maxLen: number }
    | { kind: "enum"; default: string; choices: readonly string[] }
    | { kind: "duration"; default: string; minMs?: number; maxMs?: number }
  );

/** A parameter value after validation; durations become milliseconds. */
export type ParamValue = boolean | number | string;

/** Validated parameters, every declared name present. */
export type ResolvedParams = Record<string, ParamValue>;

/** Everything the engine and the CLI know about an analyzer. */
export interface AnalyzerManifest {
  /** `publisher.name/major`, e.g. `deja.tool_failure/1`. */
  id: string;
  /** Short human title. */
  title: string;
  /** What the analyzer looks for, one or two sentences. */
  description: string;
  /** Cost class. */
  tier: Tier;
  /** Grain types the analyzer reads; with none present it is inactive. */
  requires: GrainType[];
  /** Store capabilities it needs (e.g. the recall telemetry table). */
  capabilities: Capability[];
  /** Target classes its recommendations touch. */
  targets: TargetClass[];
  /** Whether policy may ever auto-apply its output. */
  autoApply: AutoApplyClass;
  /** Declared parameters. */
  params: ParamSpec[];
  /** Whether it runs when no config says otherwise. */
  defaultOn: boolean;
}

const ID_RE = /^[a-z][a-z0-9_-]*\.[a-z][a-z0-9_]*\/[1-9][0-9]*$/;

/**
 * Checks a manifest id has the `publisher.name/major` shape.
 *
 * @param id The id.
 * @returns True when well formed.
 * @example
 * ```ts
 * import { isAnalyzerId } from "./manifest.ts";
 * import { equal } from "node:assert/strict";
 * equal(isAnalyzerId("deja.tool_failure/1"), true);
 * equal(isAnalyzerId("tool_failure"), false);
 * ```
 */
export function isAnalyzerId(id: string): boolean {
  return ID_RE.test(id);
}

/**
 * The family of an analyzer id: its name without publisher and `/major`, so
 * a version bump does not re-propose the queue and host policy can name it
 * plainly (`"deny": ["staleness"]`).
 *
 * @param id A manifest id.
 * @returns The family, e.g. `tool_failure`.
 * @example
 * ```ts
 * import { familyOf } from "./manifest.ts";
 * import { equal } from "node:assert/strict";
 * equal(familyOf("deja.staleness/2"), "staleness");
 * ```
 */
export function familyOf(id: string): string {
  const slash = id.lastIndexOf("/");
  const bare = slash < 0 ? id : id.slice(0, slash);
  return bare.slice(bare.indexOf(".") + 1);
}

/**
 * Parses one parameter value given as text (CLI `set`) or as JSON (config),
 * enforcing the spec's kind and bounds.
 *
 * @param spec The declared parameter.
 * @param raw The value.
 * @returns The validated value (durations in milliseconds).
 * @throws {RangeError} When the value does not fit the spec.
 * @example
 * ```ts
 * import { parseParam } from "./manifest.ts";
 * import { equal } from "node:assert/strict";
 * const spec = { name: "window", description: "", kind: "duration", default: "30d" } as const;
 * equal(parseParam(spec, "1d"), 86_400_000);
 * ```
 */
export function parseParam(spec: ParamSpec, raw: unknown): ParamValue {
  const bad = (why: string): never => {
    throw new RangeError(`Bad value for param "${spec.name}": ${why}`);
  };
  switch (spec.kind) {
    case "bool": {
      if (typeof raw === "boolean") return raw;
      if (raw === "true" || raw === "on" || raw === "1") return true;
      if (raw === "false" || raw === "off" || raw === "0") return false;
      return bad(`expected true or false, got ${JSON.stringify(raw)}`);
    }
    case "int":
    case "float": {
      const n = typeof raw === "number"
        ? raw
        : typeof raw === "string" && raw.trim() !== ""
        ? Number(raw)
        : NaN;
      if (!Number.isFinite(n)) {
        return bad(`expected a number, got ${JSON.stringify(raw)}`);
      }
      if (spec.kind === "int" && !Number.isInteger(n)) {
        return bad(`expected an integer, got ${n}`);
      }
      if (n < spec.min || n > spec.max) {
        return bad(`${n} is outside ${spec.min}..${spec.max}`);
      }
      return n;
    }
    case "str": {
      if (typeof raw !== "string") {
        return bad(`expected text, got ${JSON.stringify(raw)}`);
      }
      if (raw.length > spec.maxLen) {
        return bad(`longer than ${spec.maxLen} characters`);
      }
      return raw;
    }
    case "enum": {
      if (typeof raw !== "string" || !spec.choices.includes(raw)) {
        return bad(
          `expected one of ${spec.choices.join(", ")}, got ${
            JSON.stringify(raw)
          }`,
        );
      }
      return raw;
    }
    case "duration": {
      let ms: number | undefined;
      if (typeof raw === "number" && Number.isFinite(raw) && raw >= 0) ms = raw;
      else if (typeof raw === "string") {
        ms = /^\d+$/.test(raw.trim()) ? Number(raw) : parseDuration(raw);
      }
      if (ms === undefined) {
        return bad(
          `expected a duration like 30d or 6h, got ${JSON.stringify(raw)}`,
        );
      }
      if (spec.minMs !== undefined && ms < spec.minMs) {
        return bad(`shorter than ${spec.minMs} ms`);
      }
      if (spec.maxMs !== undefined && ms > spec.maxMs) {
        return bad(`longer than ${spec.maxMs} ms`);
      }
      return ms;
    }
  }
}

/**
 * Resolves an analyzer's parameters: declared defaults, overridden by the
 * given values. Unknown names are rejected so a typo never silently runs
 * with defaults.
 *
 * @param manifest The analyzer's manifest.
 * @param overrides Values from config or the CLI.
 * @returns Every declared parameter, validated.
 * @throws {RangeError} On an unknown name or a bad value.
 * @example
 * ```ts
 * import { resolveParams } from "./manifest.ts";
 * import { ANALYZERS } from "./registry.ts";
 * import { equal } from "node:assert/strict";
 * const tf = ANALYZERS.find((a) => a.manifest.id === "deja.tool_failure/1")!;
 * equal(resolveParams(tf.manifest, { min_count: "4" }).min_count, 4);
 * ```
 */
export function resolveParams(
  manifest: AnalyzerManifest,
  overrides: Record<string, unknown> = {},
): ResolvedParams {
  const out: ResolvedParams = {};
  for (const spec of manifest.params) {
    out[spec.name] = parseParam(spec, spec.default);
  }
  for (const [name, raw] of Object.entries(overrides)) {
    const spec = manifest.params.find((p) => p.name === name);
    if (!spec) {
      throw new RangeError(
        `Unknown param "${name}" for analyzer "${manifest.id}"`,
      );
    }
    out[name] = parseParam(spec, raw);
  }
  return out;
}
