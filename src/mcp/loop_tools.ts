/**
 * The loop over MCP: `deja_loop` (status, or a run of the light analyzers)
 * and `deja_recommendations` (list and show; approve, reject and apply only
 * with the scopes this process was granted). Separation of duties is the
 * supervisor pattern: a worker process holds write, a reviewer process
 * holds review and apply, and no actor may approve what it created or
 * triggered.
 *
 * @module
 */
import { exists } from "../core/_sqlite.ts";
import { damagedFileError } from "../core/damaged_file.ts";
import { DejaError, messageOf } from "../core/errors.ts";
import { plural } from "../core/plural.ts";
import { formatAge } from "../core/time.ts";
import {
  loadPolicy,
  type MemoryStore,
  openMemory,
  type RecommendationView,
  renderGrain,
  renderProposal,
  severityRank,
  verifyAuditChain,
} from "../memory/mod.ts";
import { activation, ANALYZERS, renderSummary, runLoop } from "../loop/mod.ts";
import { frameRecall } from "../recall/mod.ts";
import type { ToolAnswer } from "./deja_tool.ts";
import { holds, type McpContext } from "./mcp_context.ts";

/** Arguments of `deja_loop`. */
export interface LoopArgs {
  /** `status` (default) or `run` (the light analyzers, once). */
  action?: "status" | "run";
}

/** Arguments of `deja_recommendations`. */
export interface RecommendationArgs {
  /** What to do. */
  action: "list" | "show" | "approve" | "reject" | "apply";
  /** A recommendation hash or unique prefix (show, approve, reject, apply). */
  hash?: string;
  /** The reason, required to approve, reject or apply (audited). */
  because?: string;
  /** list: only this status (default pending). */
  status?: string;
}

function frame(body: string, kind: string): ToolAnswer {
  return { text: frameRecall(body, { kind }) };
}

function failure(err: unknown, ctx: McpContext): ToolAnswer {
  const damaged = damagedFileError(err, {
    index: ctx.indexPath,
    memory: ctx.memoryPath,
  });
  const code = err instanceof DejaError ? ` [${err.code}]` : "";
  return {
    text: frameRecall(
      damaged
        ? `error: ${damaged.message} [${damaged.code}]`
        : `error: ${messageOf(err)}${code}`,
      {
        kind: "error",
      },
    ),
    isError: true,
  };
}

function withStore<T>(
  ctx: McpContext,
  write: boolean,
  fn: (store: MemoryStore) => T,
): T | undefined {
  if (!write && !exists(ctx.memoryPath)) return undefined;
  const store = openMemory(ctx.memoryPath, { readOnly: !write, now: ctx.now });
  try {
    return fn(store);
  } finally {
    store.close();
  }
}

/** Ids of the analyzers light enough to run inside a call. */
export const LIGHT_ANALYZERS: readonly string[] = ANALYZERS.filter((a) =>
  a.manifest.tier === "light"
).map((a) => a.manifest.id);

function summaryOf(view: RecommendationView): string {
  return renderSummary(view.grain.template);
}

function line(view: RecommendationView): string {
  return `${view.hash.slice(0, 12)}  ${view.grain.severity.padEnd(8)} ${
    view.status.padEnd(8)
  } ${summaryOf(view)}  (${view.grain.analyzer}, by ${view.creator})`;
}

/**
 * Answers a `deja_loop` call.
 *
 * @param args Status or run.
 * @param ctx The server context.
 * @returns The framed answer.
 */
export async function answerLoop(
  args: LoopArgs,
  ctx: McpContext,
): Promise<ToolAnswer> {
  try {
    const now = ctx.now();
    if ((args.action ?? "status") === "run") {
      if (!holds(ctx, "write")) {
        throw new DejaError(
          "LOOP-E002",
          `"${ctx.actor}" lacks the write scope a loop run needs (deja mcp --scopes)`,
        );
      }
      const store = openMemory(ctx.memoryPath, { now: ctx.now });
      try {
        const { policy } = loadPolicy(undefined, ctx.env);
        // Light analyzers this memory file has switched on (opt-in ones stay
        // off unless enabled, exactly as for `deja loop run`).
        const light = new Set(LIGHT_ANALYZERS);
        const only = activation(store, store.config(), { policy })
          .filter((a) => a.enabled && light.has(a.id)).map((a) => a.id);
        const result = await runLoop(store, {
          only,
          policy,
          actor: ctx.actor,
          triggeredBy: ctx.actor,
        }, now);
        const lines = [
          `loop run: ${result.outcome}${
            result.skip_reason ? ` (${result.skip_reason})` : ""
          }; ${result.stored} new recommendation${
            result.stored === 1 ? "" : "s"
          }, ${result.deduped} already open, ${result.analyzers_run.length} analyzers ran`,
          ...result.recommendations.map((r) =>
            `- ${r.hash?.slice(0, 12) ?? "(dry)"} ${r.severity} ${r.summary}`
          ),
        ];
        if (result.stored > 0) {
          lines.push(
            "Review with deja_recommendations (show, then approve or reject with a reason).",
          );
        }
        return frame(lines.join("\n"), "loop");
      } finally {
        store.close();
      }
    }
    const report = withStore(ctx, false, (store) => {
      const recs = store.recommendations({ now });
      const pending = recs.filter((r) => r.status === "pending")
        .sort((a, b) =>
          severityRank(b.grain.severity) - severityRank(a.grain.severity)
        );
      const last = store.state("last_run");
      const fresh = store.countSince(store.watermark() ?? 0);
      const acts = activation(store, store.config(), {
        policy: loadPolicy(undefined, ctx.env).policy,
      });
      return [
        `memory file: ${ctx.memoryPath}`,
        `last run: ${
          typeof last === "number" ? formatAge(last, now) : "never"
        }; since then ${plural(fresh.grains, "new grain")}, ${
          plural(fresh.error_events, "new failed tool call")
        }`,
        `analyzers: ${
          acts.filter((a) => a.active).length
        } active of ${acts.length}`,
        `pending recommendations: ${pending.length}`,
        ...pending.slice(0, 10).map((r) => `- ${line(r)}`),
        `this process: actor ${ctx.actor}, scopes ${ctx.scopes.join(",")}`,
      ].join("\n");
    });
    return frame(
      report ?? `No memory file at ${ctx.memoryPath} yet: nothing to review.`,
      "loop",
    );
  } catch (err) {
    return failure(err, ctx);
  }
}

/** The statuses `list` filters on, as `deja loop list --status` takes them. */
const LIST_STATUSES: readonly string[] = [
  "pending",
  "approved",
  "rejected",
  "applied",
  "rolled_back",
  "expired",
  "all",
];

/**
 * Answers a `deja_recommendations` call.
 *
 * @param args Action, hash, reason, status filter.
 * @param ctx The server context.
 * @returns The framed answer.
 */
export function answerRecommendations(
  args: RecommendationArgs,
  ctx: McpContext,
): Promise<ToolAnswer> {
  try {
    const now = ctx.now();
    if (args.action === "list") {
      const text = withStore(ctx, false, (store) => {
        const status = args.status ?? "pending";
        if (!LIST_STATUSES.includes(status)) {
          throw new TypeError(
            `Unknown status "${status}": use ${LIST_STATUSES.join(", ")}`,
          );
        }
        const recs = store.recommendations({
          ...(status === "all" ? {} : { status }),
          now,
        });
        return recs.length
          ? recs.slice(0, 50).map(line).join("\n")
          : status === "all"
          ? "No recommendations."
          : `No ${status.replace("_", " ")} recommendations.`;
      });
      return Promise.resolve(
        frame(
          text ?? "No memory file yet: no recommendations.",
          "recommendations",
        ),
      );
    }
    const prefix = args.hash?.trim();
    if (!prefix) throw new TypeError(`action "${args.action}" needs a hash`);
    if (args.action === "show") {
      const text = withStore(ctx, false, (store) => {
        const hash = store.resolve(prefix, { type: "recommendation" });
        const view = store.recommendation(hash, now);
        if (!view) {
          throw new DejaError(
            "MEM-E003",
            `No recommendation has hash "${prefix}"`,
          );
        }
        const g = view.grain;
        const verdict = verifyAuditChain(store, hash);
        const evidence = g.evidence.slice(0, 12).map((h) => {
          const e = store.get(h);
          return `  - ${h.slice(0, 12)} ${
            e ? renderGrain(e.grain).slice(0, 200) : "(missing)"
          }`;
        });
        return [
          `recommendation ${hash}`,
          `status: ${view.status} (version ${view.version})${
            view.destructive ? ", destructive" : ""
          }`,
          `summary: ${summaryOf(view)}`,
          `severity: ${g.severity}; analyzer ${g.analyzer}; origin ${
            g.origin ?? "analyzer"
          }`,
          `created by ${view.creator}${
            view.trigger_actor ? `, triggered by ${view.trigger_actor}` : ""
          }`,
          "proposal:",
          ...renderProposal(g.proposal).split("\n").map((l) => `  ${l}`),
          `evidence (${g.evidence.length}):`,
          ...evidence,
          `audit: ${verdict.length} transition(s), chain ${
            verdict.chain_verified
              ? "verified"
              : `does NOT verify (${verdict.reason ?? "broken"})`
          }`,
        ].join("\n");
      });
      return Promise.resolve(
        frame(text ?? "No memory file yet.", "recommendations"),
      );
    }
    const because = args.because?.trim();
    if (!because) {
      throw new DejaError(
        "LOOP-E005",
        `action "${args.action}" needs a reason (because)`,
      );
    }
    const text = withStore(ctx, true, (store) => {
      const hash = store.resolve(prefix, { type: "recommendation" });
      if (
        args.action === "apply" && store.recommendation(hash, now)?.destructive
      ) {
        // Whatever this process's scopes: a change that forgets grains and
        // cannot be undone is a person's call, made where a person is.
        throw new DejaError(
          "LOOP-E002",
          `Cannot apply ${
            hash.slice(0, 12)
          } over MCP: it forgets grains and cannot be rolled back, so a person applies it from the deja CLI or the console, never an agent`,
        );
      }
      const options = { actor: ctx.actor, because, scopes: ctx.scopes, now };
      const result = args.action === "apply"
        ? store.apply(hash, {
          ...options,
          policy: loadPolicy(undefined, ctx.env).policy,
        })
        : store.review(
          hash,
          args.action === "approve" ? "approve" : "reject",
          options,
        );
      return `${args.action}: ${
        hash.slice(0, 12)
      } is now ${result.status} (audit ${
        result.audit.slice(0, 12)
      }, by ${ctx.actor})`;
    });
    return Promise.resolve(frame(text ?? "", "recommendations"));
  } catch (err) {
    return Promise.resolve(failure(err, ctx));
  }
}
