/**
 * Activation: for each analyzer, whether a run would execute it and, when
 * not, why — disabled and by which layer, missing grain types, a missing
 * capability, or bad stored params. The CLI twin of the console's analyzer
 * cards and the answer to "why didn't analyzer X fire".
 *
 * @module
 */
import type {
  AnalyzerConfig,
  LoopPolicy,
  MemoryReader,
} from "../memory/mod.ts";
import { effectiveAnalyzer } from "../memory/mod.ts";
import type { Severity } from "../memory/types.ts";
import { messageOf } from "../core/errors.ts";
import { familyOf, type ResolvedParams, resolveParams } from "./manifest.ts";
import { ANALYZERS } from "./registry.ts";
import type { Analyzer } from "./types.ts";

/** One analyzer's activation status. */
export interface AnalyzerActivation {
  /** Manifest id. */
  id: string;
  /** Manifest title. */
  title: string;
  /** Manifest default. */
  default_on: boolean;
  /** Whether config, policy and flags leave it switched on. */
  enabled: boolean;
  /** Whether a run would execute it now (enabled and its inputs exist). */
  active: boolean;
  /** Why it is (in)active, e.g. `disabled in the memory file`, `needs event grains; the file has none`. */
  reason: string;
  /** The strictest severity floor of CLI, policy and file. */
  severity_floor?: Severity;
  /** Resolved params when they validate. */
  params?: ResolvedParams;
}

/** Options for {@linkcode activation}. */
export interface ActivationOptions {
  /** Host policy (deny-list, severity floors). */
  policy?: LoopPolicy;
  /** `--only` selection: ids, ids without major, or families. */
  only?: readonly string[];
  /** Analyzers to report on (defaults to the built-ins). */
  analyzers?: readonly Analyzer[];
}

/**
 * Reports, for each analyzer, whether it is active and why not.
 *
 * @param store The memory reader.
 * @param config Analyzer settings stored in the file (`store.config()`).
 * @param options Policy, `--only` and the analyzer list.
 * @returns One status per analyzer, in registry order.
 * @example
 * ```ts
 * import { activation } from "./activation.ts";
 * import { openMemory } from "../memory/mod.ts";
 * import { equal } from "node:assert/strict";
 * const store = openMemory(":memory:");
 * const tf = activation(store, {}).find((a) => a.id === "deja.tool_failure/1")!;
 * equal(tf.active, false);
 * equal(tf.reason, "needs event grains; the file has none");
 * store.close();
 * ```
 */
export function activation(
  store: MemoryReader,
  config: Record<string, AnalyzerConfig>,
  options: ActivationOptions = {},
): AnalyzerActivation[] {
  const counts = store.counts();
  let telemetry: boolean | undefined;
  const hasTelemetry = () => (telemetry ??= store.telemetry().length > 0);
  const cli = options.only && options.only.length > 0
    ? { only: options.only }
    : undefined;
  return (options.analyzers ?? ANALYZERS).map((a) => {
    const m = a.manifest;
    const eff = effectiveAnalyzer(m.id, familyOf(m.id), {
      defaultOn: m.defaultOn,
      ...(config[m.id] ? { file: config[m.id] } : {}),
      ...(options.policy ? { policy: options.policy } : {}),
      ...(cli ? { cli } : {}),
    });
    const base = {
      id: m.id,
      title: m.title,
      default_on: m.defaultOn,
      enabled: eff.enabled,
      ...(eff.severity_floor ? { severity_floor: eff.severity_floor } : {}),
    };
    if (!eff.enabled) return { ...base, active: false, reason: eff.reason };
    let params: ResolvedParams;
    try {
      params = resolveParams(m, config[m.id]?.params ?? {});
    } catch (err) {
      return {
        ...base,
        active: false,
        reason: `bad params in the memory file: ${messageOf(err)}`,
      };
    }
    if (
      m.requires.length > 0 && !m.requires.some((t) => (counts[t] ?? 0) > 0)
    ) {
      const names = m.requires.length === 1
        ? m.requires[0]
        : `${m.requires.slice(0, -1).join(", ")} or ${
          m.requires[m.requires.length - 1]
        }`;
      return {
        ...base,
        params,
        active: false,
        reason: `needs ${names} grains; the file has none`,
      };
    }
    if (m.capabilities.includes("telemetry") && !hasTelemetry()) {
      return {
        ...base,
        params,
        active: false,
        reason: "needs recall telemetry; none recorded yet",
      };
    }
    return { ...base, params, active: true, reason: eff.reason };
  });
}
