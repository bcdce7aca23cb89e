/**
 * The run engine: one analysis pass over the memory file, under a lock,
 * gated by the watermark when asked, reporting what it did in the
 * run-outcome shape every surface shares.
 *
 * @module
 */
import type { LoopPolicy, MemoryStore } from "../memory/mod.ts";
import { dedupKey, severityRank } from "../memory/mod.ts";
import type { RecommendationDraft, Severity } from "../memory/types.ts";
import { messageOf } from "../core/errors.ts";
import { activation } from "./activation.ts";
import {
  type CommandAnalyzer,
  type CommandAnalyzerSpec,
  probeCommandAnalyzer,
  runCommandAnalyzer,
} from "./command_analyzer.ts";
import { probeLlmCommand, runLlmStages } from "./llm_command.ts";
import { ANALYZERS } from "./registry.ts";
import { scopedReader } from "./_scoped_reader.ts";
import { renderSummary } from "./templates.ts";
import type {
  Analyzer,
  RunRecommendation,
  RunResult,
  SkippedAnalyzer,
} from "./types.ts";

/** Name of the lock a run holds. */
export const RUN_LOCK = "loop-run";

/** Options for {@linkcode runLoop}. */
export interface RunLoopOptions {
  /**
   * The actor that triggered every recommendation this run stores (an agent
   * over MCP, `--actor` on the CLI); the self-approval block then holds
   * against it.
   */
  triggeredBy?: string;
  /** Run only when at least this many grains arrived since the watermark. */
  minNew?: number;
  /** Run only when at least this many new error events arrived. */
  minNewErrors?: number;
  /** Run only when the last run is at least this old (ms). */
  ifStaleMs?: number;
  /** Analyze and report, store nothing, leave the watermark. */
  dryRun?: boolean;
  /** Run only these analyzers (ids, ids without major, or families). */
  only?: readonly string[];
  /** Host policy: deny-list, severity floors, auto-apply grants. */
  policy?: LoopPolicy;
  /** Who triggered the run (co-creator of command/LLM drafts). */
  actor?: string;
  /** CLI severity floor (the strictest floor wins). */
  severityFloor?: Severity;
  /** Command analyzers from `--analyzer-cmd` (never persisted). */
  commandAnalyzers?: readonly CommandAnalyzerSpec[];
  /** Per-call timeout for command analyzers (default 10 s). */
  analyzerTimeoutMs?: number;
  /** `--llm-cmd` command line for DISCOVER/ENRICH. */
  llmCmd?: string;
  /** Per-call timeout for the LLM command (default 120 s). */
  llmTimeoutMs?: number;
  /** Capture step run under the lock before counting (e.g. `--from-index`). */
  importer?: (store: MemoryStore, now: number) => unknown;
  /** Monotonic clock for duration_ms (default `performance.now`). */
  clock?: () => number;
  /** Lock lifetime; a crashed holder's lock is taken over after it (default 15 min). */
  lockTtlMs?: number;
  /** Built-in analyzers to consider (tests; default {@linkcode ANALYZERS}). */
  analyzers?: readonly Analyzer[];
  /** Working directory for spawned processes. */
  cwd?: string;
}

function belowFloor(severity: Severity, floor: Severity | undefined): boolean {
  return floor !== undefined && severityRank(severity) < severityRank(floor);
}

/**
 * Runs the loop once: lock → optional import → watermark gate → analyzers
 * (built-in, then command) → optional LLM stages → severity floors →
 * propose (dedup and cooldowns are the store's) → policy auto-apply →
 * watermark. A bare call (no gate options) always runs. A run that finds
 * the lock held returns `skipped`/`lock_held` at once. Nothing here reads
 * the wall clock: `now` is the run's time and `options.clock` times it.
 *
 * @param store The writable memory file.
 * @param options Gates, selection, policy, external commands.
 * @param now The run's timestamp, epoch ms.
 * @returns The run outcome.
 * @example
 * ```ts
 * import { runLoop } from "./run_loop.ts";
 * import { openMemory } from "../memory/mod.ts";
 * import { equal } from "node:assert/strict";
 * const now = Date.UTC(2026, 0, 1);
 * const store = openMemory(":memory:", { now: () => now });
 * for (const object of ["us-east-1", "eu-west-1"]) {
 *   store.put({ type: "fact", namespace: "ops", created_at: now - 1000, actor: "human:me", subject: "acme", relation: "deploy_target", object });
 * }
 * const result = await runLoop(store, {}, now);
 * equal(result.outcome, "ran");
 * equal(result.stored, 1);
 * store.close();
 * ```
 */
export async function runLoop(
  store: MemoryStore,
  options: RunLoopOptions,
  now: number,
): Promise<RunResult> {
  const clock = options.clock ?? (() => performance.now());
  const started = clock();
  const result: RunResult = {
    outcome: "ran",
    skip_reason: null,
    new_since_watermark: { grains: 0, error_events: 0 },
    proposed: 0,
    deduped: 0,
    stored: 0,
    auto_applied: 0,
    analyzers_run: [],
    analyzers_skipped: [],
    duration_ms: 0,
    dry_run: options.dryRun ?? false,
    recommendations: [],
  };
  const finish = (): RunResult => {
    result.duration_ms = Math.max(
      0,
      Math.round((clock() - started) * 1000) / 1000,
    );
    return result;
  };

  const lock = store.lock(RUN_LOCK, {
    now,
    ...(options.lockTtlMs ? { ttlMs: options.lockTtlMs } : {}),
  });
  if (!lock) {
    result.outcome = "skipped";
    result.skip_reason = "lock_held";
    result.new_since_watermark = store.countSince(store.watermark() ?? 0);
    return finish();
  }
  try {
    if (options.importer) await options.importer(store, now);
    const watermark = store.watermark();
    result.new_since_watermark = store.countSince(watermark ?? 0);

    const gates = [options.minNew, options.minNewErrors, options.ifStaleMs]
      .filter((g) => g !== undefined);
    if (gates.length > 0) {
      const fresh = result.new_since_watermark;
      const pass =
        (options.minNew !== undefined && fresh.grains >= options.minNew) ||
        (options.minNewErrors !== undefined &&
          fresh.error_events >= options.minNewErrors) ||
        (options.ifStaleMs !== undefined &&
          (watermark === undefined || now - watermark >= options.ifStaleMs));
      if (!pass) {
        result.outcome = "skipped";
        result.skip_reason =
          options.ifStaleMs !== undefined && options.minNew === undefined &&
            options.minNewErrors === undefined
            ? "not_stale"
            : "min_new_not_met";
        return finish();
      }
    }

    const skipped: SkippedAnalyzer[] = result.analyzers_skipped;
    const drafts: RecommendationDraft[] = [];
    const floors = new Map<string, Severity | undefined>();
    const config = store.config();

    // Command analyzers are probed first so --only and policy apply to them too.
    const commands: CommandAnalyzer[] = [];
    const timeout = options.analyzerTimeoutMs === undefined
      ? {}
      : { timeoutMs: options.analyzerTimeoutMs };
    const cwd = options.cwd ? { cwd: options.cwd } : {};
    for (const spec of options.commandAnalyzers ?? []) {
      const probe = await probeCommandAnalyzer(spec, { ...timeout, ...cwd });
      if (probe.ok) commands.push(probe.analyzer);
      else skipped.push({ id: spec.id, reason: probe.reason });
    }

    const builtins = options.analyzers ?? ANALYZERS;
    const statuses = activation(store, config, {
      analyzers: [
        ...builtins,
        ...commands.map((c) => ({ manifest: c.manifest, analyze: () => [] })),
      ],
      ...(options.policy ? { policy: options.policy } : {}),
      ...(options.only ? { only: options.only } : {}),
    });
    for (const st of statuses) {
      const floor = [st.severity_floor, options.severityFloor]
        .filter((f): f is Severity => f !== undefined)
        .sort((a, b) => severityRank(b) - severityRank(a))[0];
      floors.set(st.id, floor);
      if (!st.active) {
        skipped.push({ id: st.id, reason: st.reason });
        continue;
      }
      const command = commands.find((c) => c.manifest.id === st.id);
      const reader = scopedReader(store, config[st.id]?.namespaces ?? []);
      if (command) {
        const r = await runCommandAnalyzer(command, reader, now, {
          ...timeout,
          ...cwd,
        });
        if (!r.ok) {
          skipped.push({ id: st.id, reason: r.reason });
          continue;
        }
        drafts.push(...r.drafts);
        result.analyzers_run.push(st.id);
        continue;
      }
      const analyzer = builtins.find((a) => a.manifest.id === st.id)!;
      try {
        drafts.push(...analyzer.analyze(reader, st.params ?? {}, now));
        result.analyzers_run.push(st.id);
      } catch (err) {
        skipped.push({ id: st.id, reason: `failed: ${messageOf(err)}` });
      }
    }

    if (options.llmCmd) {
      const probe = await probeLlmCommand(options.llmCmd, options.llmTimeoutMs);
      if (!probe.ok) skipped.push({ id: "deja.llm/1", reason: probe.reason });
      else {
        const llm = await runLlmStages(
          probe.llm,
          store,
          drafts,
          watermark ?? 0,
        );
        for (const f of llm.failures) {
          skipped.push({ id: `deja.llm/1#${f.stage}`, reason: f.reason });
        }
        if (llm.failures.length < 2) result.analyzers_run.push("deja.llm/1");
        drafts.push(...llm.drafts);
      }
    }

    result.proposed = drafts.length;
    const survivors = drafts.filter((d) =>
      !belowFloor(d.severity, floors.get(d.analyzer) ?? options.severityFloor)
    );
    result.deduped += drafts.length - survivors.length;

    if (options.dryRun) {
      const open = new Set(
        store.recommendations({ now })
          .filter((r) =>
            r.status === "pending" || r.status === "approved" ||
            r.status === "applied"
          )
          .map((r) => r.grain.dedup_key),
      );
      const seen = new Set<string>();
      for (const d of survivors) {
        const key = dedupKey(d);
        if (open.has(key) || seen.has(key)) {
          result.deduped++;
          continue;
        }
        seen.add(key);
        result.recommendations.push(describe(d));
      }
      return finish();
    }

    for (const d of survivors) {
      let proposed;
      try {
        proposed = store.propose(d, {
          actor: `engine:${d.analyzer}`,
          now,
          // A run started under a named actor (an agent over MCP, --actor on
          // the CLI) triggered every draft it stores, so that actor cannot
          // approve them; a plain local run triggers only the external
          // command drafts it hands to --analyzer-cmd/--llm-cmd.
          ...(options.triggeredBy !== undefined
            ? { trigger: options.triggeredBy }
            : d.origin === "command" || d.origin === "llm"
            ? { trigger: options.actor ?? "user:local" }
            : {}),
        });
      } catch (err) {
        skipped.push({
          id: d.analyzer,
          reason: `invalid draft for ${d.target_ref}: ${messageOf(err)}`,
        });
        continue;
      }
      if (proposed.deduped) {
        result.deduped++;
        continue;
      }
      result.stored++;
      const rec: RunRecommendation = { hash: proposed.hash, ...describe(d) };
      if (options.policy?.auto_apply_enabled) {
        const auto = store.autoApply(proposed.hash, {
          policy: options.policy,
          now,
        });
        if (auto.applied) {
          result.auto_applied++;
          rec.auto_applied = true;
        }
      }
      result.recommendations.push(rec);
    }
    // Grains this run imported were added after `now`: the watermark covers
    // them too, so the next run does not count them as new again.
    store.setWatermark(Math.max(now, store.now()));
    return finish();
  } finally {
    lock.release();
  }
}

function describe(d: RecommendationDraft): RunRecommendation {
  return {
    analyzer: d.analyzer,
    severity: d.severity,
    target_ref: d.target_ref,
    template: d.template.id,
    summary: renderSummary(d.template),
  };
}
