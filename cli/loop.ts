/**
 * The loop's review verbs: bare `loop` (health report), `loop list`,
 * `loop show`, `loop approve|reject|apply|rollback|mark-applied`,
 * `loop audit verify`, `loop config-export|config-import`. The engine's
 * verbs (`loop run`, `loop analyzers`, ...) live in `cli/loop_run.ts`.
 *
 * @module
 */
import { exists } from "../src/core/_sqlite.ts";
import { isAbsolute, resolve } from "node:path";
import { printsSafely } from "./_printable.ts";
import { DejaError, UsageError } from "../src/core/errors.ts";
import type { Io } from "../src/core/io.ts";
import { formatAge } from "../src/core/time.ts";
import {
  GRAIN_TYPES,
  loadPolicy,
  type MemoryStore,
  openMemory,
  type RecommendationView,
  renderGrain,
  renderProposal,
  SEVERITIES,
  severityRank,
  type TransitionOptions,
  type TransitionResult,
  verifyAuditChain,
} from "../src/memory/mod.ts";
import { activation, renderSummary } from "../src/loop/mod.ts";
import {
  boolFlag,
  type Command,
  EXIT,
  type ParsedArgs,
  printJson,
  stringFlag,
} from "./_command.ts";
import { plural } from "../src/core/plural.ts";
import {
  actorFlag,
  DB_OPTION,
  JSON_OPTIONS,
  memoryDbPath,
  scopesFlag,
  wantsJson,
} from "./_memory_args.ts";

const STATUSES = [
  "pending",
  "approved",
  "rejected",
  "applied",
  "rolled_back",
  "expired",
  "all",
];

/** Opens an existing memory file (read-only unless `write`). */
function openExisting(args: ParsedArgs, io: Io, write = false): MemoryStore {
  const path = memoryDbPath(args, io);
  if (!exists(path)) {
    throw new DejaError(
      "MEM-E001",
      `No memory file at "${path}": create one with deja init (try --template demo)`,
    );
  }
  return openMemory(path, { readOnly: !write, now: io.now });
}

function short(hash: string): string {
  return hash.slice(0, 12);
}

function shortAnalyzer(id: string): string {
  return id.replace(/^deja\./, "").replace(/\/\d+$/, "");
}

function iso(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

function oneLine(text: string, max = 110): string {
  const t = text.replace(/\s+/g, " ").trim();
  return t.length > max ? t.slice(0, max - 1) + "…" : t;
}

function resolveRec(store: MemoryStore, prefix: string | undefined): string {
  if (!prefix) {
    throw new UsageError("Give a recommendation hash (or a unique prefix)");
  }
  return store.resolve(prefix, { type: "recommendation" });
}

function summaryOf(view: RecommendationView): string {
  return renderSummary(view.grain.template);
}

function row(view: RecommendationView): Record<string, unknown> {
  return {
    hash: view.hash,
    short: short(view.hash),
    status: view.status,
    version: view.version,
    severity: view.grain.severity,
    analyzer: view.grain.analyzer,
    origin: view.grain.origin ?? "analyzer",
    target_ref: view.grain.target_ref,
    action: view.grain.action,
    summary: summaryOf(view),
    destructive: view.destructive,
    rollbackable: view.rollbackable,
    evidence: view.grain.evidence.length,
    created_at: view.grain.created_at,
    updated_at: view.updated_at,
  };
}

// ---- health ---------------------------------------------------------------

/** Bare `deja loop`: the memory health report. */
export const loopHealthCommand: Command = {
  name: "loop",
  summary:
    "The loop's health report: grains, analyzers, last run, pending recommendations",
  usage: "deja loop [--db FILE] [--policy FILE] [--json]",
  help: `Prints the Memory Health Report: live grains by type, each analyzer's
activation with its reason, the last run and what arrived since, the
recommendations by status with the pending ones first, and the host policy
in effect.

Loop verbs: run, list, show, approve, reject, apply, rollback, mark-applied,
audit verify, analyzers, enable, disable, set, schedule, config-export,
config-import (deja help loop <verb>).

Options:
  --db FILE        Memory file (default $DEJA_DB or ~/.local/share/deja/memory.db)
  --policy FILE    Host policy (default $DEJA_LOOP_POLICY)
  --json           The report as JSON`,
  permissions: { read: true, env: true },
  options: { ...DB_OPTION, policy: { type: "string" }, ...JSON_OPTIONS },
  run(args, io) {
    if (args.positionals.length) {
      throw new UsageError(
        `Unknown loop verb "${args.positionals[0]}": see deja help loop`,
      );
    }
    const { policy, source } = loadPolicy(stringFlag(args, "policy"), io.env);
    const path = memoryDbPath(args, io);
    if (!exists(path)) {
      if (wantsJson(args)) printJson(io, { db: path, exists: false });
      else {
        io.stdout.write(
          `No memory file at ${path} yet.\n  try the loop on a sandbox: deja init --db demo.db --template demo && deja loop run --db demo.db\n`,
        );
      }
      return Promise.resolve(EXIT.ok);
    }
    const store = openMemory(path, { readOnly: true, now: io.now });
    try {
      const now = io.now();
      const counts = store.counts();
      const recs = store.recommendations({ now });
      const byStatus: Record<string, number> = {};
      for (const s of STATUSES.slice(0, -1)) byStatus[s] = 0;
      for (const r of recs) byStatus[r.status] = (byStatus[r.status] ?? 0) + 1;
      const pending = recs.filter((r) => r.status === "pending")
        .sort((a, b) =>
          severityRank(b.grain.severity) - severityRank(a.grain.severity)
        );
      const lastRun = store.state("last_run");
      const watermark = store.watermark();
      const fresh = store.countSince(watermark ?? 0);
      const acts = activation(store, store.config(), { policy });
      const userGrains = GRAIN_TYPES.filter((t) =>
        t !== "recommendation" && t !== "audit"
      );
      const firstGrain = userGrains.flatMap((t) =>
        store.byType(t, { includeTombstoned: true }).slice(0, 1)
      )
        .map((g) =>
          g.grain.created_at
        ).sort((a, b) => a - b)[0];
      const firstRec = recs.map((r) =>
        r.grain.created_at
      ).sort((a, b) => a - b)[0];
      const report = {
        db: path,
        counts,
        recommendations: byStatus,
        pending: pending.map(row),
        last_run: typeof lastRun === "number" ? lastRun : null,
        watermark: watermark ?? null,
        new_since_watermark: fresh,
        analyzers: acts.map((a) => ({
          id: a.id,
          enabled: a.enabled,
          active: a.active,
          reason: a.reason,
        })),
        policy: {
          source,
          auto_apply_enabled: policy.auto_apply_enabled,
          grants: policy.auto_apply.length,
          deny: policy.deny,
        },
        first_recommendation_after_ms:
          firstGrain !== undefined && firstRec !== undefined
            ? Math.max(0, firstRec - firstGrain)
            : null,
      };
      if (wantsJson(args)) {
        printJson(io, report);
        return Promise.resolve(EXIT.ok);
      }
      const out: string[] = [];
      out.push(`Memory health — ${path}`);
      const live = userGrains.map((t) => `${t} ${counts[t]}`).join(", ");
      out.push(`  grains      ${live}`);
      out.push(
        `  last run    ${
          typeof lastRun === "number"
            ? `${iso(lastRun)} (${formatAge(lastRun, now)})`
            : "never"
        }; since then ${plural(fresh.grains, "new grain")}, ${
          plural(fresh.error_events, "new failed tool call")
        }`,
      );
      out.push(
        `  policy      ${
          source === "none" ? "none (nothing auto-applies)" : source
        }${
          policy.auto_apply_enabled
            ? `, auto-apply on with ${policy.auto_apply.length} grant(s)`
            : ""
        }${policy.deny.length ? `, denies ${policy.deny.join(", ")}` : ""}`,
      );
      if (report.first_recommendation_after_ms !== null) {
        const mins = Math.round(report.first_recommendation_after_ms / 60_000);
        const span = mins < 120
          ? `${mins} min`
          : mins < 2880
          ? `${Math.round(mins / 60)} h`
          : `${Math.round(mins / 1440)} days`;
        out.push(`  first recommendation ${span} after the oldest grain`);
      }
      out.push("");
      out.push("Analyzers");
      const width = Math.max(0, ...acts.map((a) => a.id.length));
      for (const a of acts) {
        const state = a.active ? "active " : a.enabled ? "waiting" : "off    ";
        out.push(`  ${a.id.padEnd(width)}  ${state}  ${a.reason}`);
      }
      out.push("");
      out.push(
        `Recommendations  ${
          STATUSES.slice(0, -1).map((s) =>
            `${s.replace("_", " ")} ${byStatus[s]}`
          ).join(", ")
        }`,
      );
      for (const p of pending.slice(0, 10)) {
        out.push(
          `  ${short(p.hash)}  ${p.grain.severity.padEnd(8)}  ${
            shortAnalyzer(p.grain.analyzer).padEnd(20)
          }  ${oneLine(summaryOf(p), 80)}`,
        );
      }
      if (pending.length > 10) {
        out.push(`  … and ${pending.length - 10} more: deja loop list`);
      }
      if (pending.length) {
        out.push(
          "next: deja loop show <hash>, then approve or reject it with --because",
        );
      } else if (typeof lastRun !== "number") out.push("next: deja loop run");
      io.stdout.write(out.join("\n") + "\n");
    } finally {
      store.close();
    }
    return Promise.resolve(EXIT.ok);
  },
};

// ---- list -----------------------------------------------------------------

/** `deja loop list`. */
export const loopListCommand: Command = {
  name: "loop list",
  summary: "List recommendations by status; --fail-on gates CI",
  usage:
    "deja loop list [--status S] [--fail-on SEVERITY] [--json] [--db FILE]",
  help:
    `Lists recommendations, newest first, with 12-character hashes (any unique
prefix works wherever a hash is asked for).

Options:
  --db FILE          Memory file (default $DEJA_DB or ~/.local/share/deja/memory.db)
  --status S         ${STATUSES.join(" | ")} (default pending)
  --fail-on SEV      Exit 2 when any listed recommendation has severity SEV or
                     higher (${SEVERITIES.join(", ")}): a CI gate
  --limit N          At most N rows (default all)
  --json             Rows as JSON (also --format json)

Exit codes: 0 none match the gate, 2 the gate matched, 1 error.

Example:
  deja loop list --status pending --fail-on high`,
  permissions: { read: true, env: true },
  maxPositionals: 0,
  options: {
    ...DB_OPTION,
    status: { type: "string" },
    "fail-on": { type: "string" },
    limit: { type: "string" },
    ...JSON_OPTIONS,
  },
  run(args, io) {
    const status = stringFlag(args, "status") ?? "pending";
    if (!STATUSES.includes(status)) {
      throw new UsageError(
        `Unknown --status "${status}": use ${STATUSES.join(", ")}`,
      );
    }
    const failOn = stringFlag(args, "fail-on");
    if (failOn !== undefined && severityRank(failOn) < 0) {
      throw new UsageError(
        `Unknown --fail-on severity "${failOn}": use ${SEVERITIES.join(", ")}`,
      );
    }
    const limitText = stringFlag(args, "limit");
    // At least one row: --limit 0 printed "No pending recommendations." over
    // a full queue, and gated nothing.
    if (limitText !== undefined && !/^0*[1-9]\d*$/.test(limitText)) {
      throw new UsageError(
        `--limit "${limitText}" is not a positive whole number`,
      );
    }
    const store = openExisting(args, io);
    let views: RecommendationView[];
    try {
      views = store.recommendations({ status, now: io.now() });
    } finally {
      store.close();
    }
    if (limitText !== undefined) views = views.slice(0, Number(limitText));
    const gate = failOn === undefined
      ? []
      : views.filter((v) =>
        severityRank(v.grain.severity) >= severityRank(failOn)
      );
    if (wantsJson(args)) {
      printJson(io, views.map(row));
    } else if (views.length === 0) {
      io.stdout.write(
        `No ${
          status === "all" ? "" : status.replace("_", " ") + " "
        }recommendations.\n`,
      );
    } else {
      for (const v of views) {
        const flags = `${v.destructive ? " [destructive]" : ""}${
          v.grain.origin && v.grain.origin !== "analyzer"
            ? ` [${v.grain.origin}]`
            : ""
        }`;
        io.stdout.write(
          `${short(v.hash)}  ${v.status.padEnd(11)}  ${
            v.grain.severity.padEnd(8)
          }  ${shortAnalyzer(v.grain.analyzer).padEnd(20)}  ${
            oneLine(summaryOf(v), 90)
          }${flags}\n`,
        );
      }
    }
    if (gate.length) {
      io.stderr.write(
        `loop list: ${gate.length} recommendation(s) at ${failOn} or above\n`,
      );
      return Promise.resolve(EXIT.gate);
    }
    return Promise.resolve(EXIT.ok);
  },
};

// ---- show -----------------------------------------------------------------

/** `deja loop show`. */
export const loopShowCommand: Command = {
  name: "loop show",
  summary:
    "Show one recommendation: evidence, the literal proposal, the audit chain",
  usage: "deja loop show <hash-prefix> [--json] [--db FILE]",
  help: `Prints everything a reviewer needs: what was found (template summary,
analyzer and params), the literal change it proposes, every evidence grain,
and the audit chain with its verification (chain_verified).

Options:
  --db FILE   Memory file (default $DEJA_DB or ~/.local/share/deja/memory.db)
  --json      Everything as JSON`,
  permissions: { read: true, env: true },
  options: { ...DB_OPTION, ...JSON_OPTIONS },
  run(args, io) {
    if (args.positionals.length > 1) {
      throw new UsageError("loop show takes one hash");
    }
    const store = openExisting(args, io);
    try {
      const hash = resolveRec(store, args.positionals[0]);
      const view = store.recommendation(hash, io.now()) as RecommendationView;
      const g = view.grain;
      const verdict = verifyAuditChain(store, hash);
      const evidence = g.evidence.map((h) => {
        const e = store.get(h);
        return e
          ? {
            hash: h,
            type: e.grain.type,
            text: renderGrain(e.grain),
            tombstoned: e.tombstoned,
            current: store.isCurrent(h),
          }
          : { hash: h, missing: true };
      });
      const audit = store.audit(hash).map((a) => ({
        hash: a.hash,
        at: a.grain.created_at,
        from: a.grain.from,
        to: a.grain.to,
        actor: a.grain.actor,
        observer: a.grain.observer,
        because: a.grain.because,
        results: a.grain.results ?? [],
      }));
      if (wantsJson(args)) {
        printJson(io, {
          ...row(view),
          creator: view.creator,
          trigger_actor: view.trigger_actor ?? null,
          dedup_key: g.dedup_key,
          params: g.params,
          template: g.template,
          metric: g.metric ?? null,
          valid_to: g.valid_to ?? null,
          proposal: g.proposal,
          proposal_text: renderProposal(g.proposal),
          evidence,
          audit,
          ...verdict,
        });
        return Promise.resolve(EXIT.ok);
      }
      const out: string[] = [];
      out.push(`recommendation ${hash}`);
      out.push(
        `  status     ${
          view.status.replace("_", " ")
        } (version ${view.version})${view.destructive ? "  DESTRUCTIVE" : ""}${
          view.rollbackable ? "" : "  not rollbackable"
        }`,
      );
      out.push(`  summary    ${summaryOf(view)}`);
      out.push(`  severity   ${g.severity}`);
      out.push(
        `  analyzer   ${g.analyzer}  params ${JSON.stringify(g.params)}`,
      );
      out.push(
        `  origin     ${g.origin ?? "analyzer"}${
          g.origin === "llm" || g.origin === "command"
            ? "  (external text: never auto-applied)"
            : ""
        }`,
      );
      out.push(`  target     ${g.target_ref}  action ${g.action}`);
      out.push(
        `  created    ${iso(g.created_at)} by ${view.creator}${
          view.trigger_actor ? ` (triggered by ${view.trigger_actor})` : ""
        }`,
      );
      if (g.valid_to !== undefined) out.push(`  expires    ${iso(g.valid_to)}`);
      if (g.metric) {
        out.push(
          `  metric     ${g.metric.name} = ${g.metric.value} (review after ${
            g.metric.horizon_days.join(", ")
          } days)`,
        );
      }
      out.push("");
      out.push("proposal (literal)");
      for (const line of renderProposal(g.proposal).split("\n")) {
        out.push(`  ${line}`);
      }
      if (view.destructive) {
        out.push(
          "  !! forgets grains: needs approval, the admin scope and --allow-destructive; cannot be rolled back",
        );
      }
      out.push("");
      out.push(`evidence (${evidence.length})`);
      for (const e of evidence) {
        if ("missing" in e) out.push(`  ${short(e.hash)}  (not in this file)`);
        else {out.push(
            `  ${short(e.hash)}  ${oneLine(e.text, 100)}${
              e.tombstoned ? "  [forgotten]" : e.current ? "" : "  [superseded]"
            }`,
          );}
      }
      out.push("");
      out.push(
        `audit chain — ${
          verdict.chain_verified
            ? "chain_verified: true"
            : `chain_verified: false (broken at ${
              short(verdict.broken_at ?? "")
            }: ${verdict.reason})`
        }`,
      );
      for (const a of audit) {
        out.push(
          `  ${iso(a.at)}  ${a.from} → ${a.to}  ${a.actor} (${a.observer})  "${
            oneLine(a.because, 80)
          }"`,
        );
        if (a.results.length) {
          const what = a.to === "rolled_back" ? "reverted" : "wrote";
          out.push(`      ${what} ${a.results.map(short).join(", ")}`);
        }
      }
      if (view.status === "pending") {
        out.push("");
        out.push(
          `next: deja loop approve ${short(hash)} --because "…"${
            dbHint(args)
          }  or  deja loop reject ${short(hash)} --because "…"${dbHint(args)}`,
        );
      } else if (view.status === "approved") {
        out.push("");
        out.push(
          g.proposal.kind === "ops"
            ? `next: deja loop apply ${short(hash)} --because "…"${
              view.destructive ? " --allow-destructive" : ""
            }${dbHint(args)}`
            : `next: make the change yourself, then deja loop mark-applied ${
              short(hash)
            } --because "…"${dbHint(args)}`,
        );
      }
      io.stdout.write(out.join("\n") + "\n");
    } finally {
      store.close();
    }
    return Promise.resolve(EXIT.ok);
  },
};

// ---- transitions ----------------------------------------------------------

type Verb = "approve" | "reject" | "apply" | "rollback" | "mark-applied";

const VERB_HELP: Record<
  Verb,
  { summary: string; help: string; next?: string }
> = {
  approve: {
    summary:
      "Approve a pending recommendation (needs the review scope, never its creator)",
    help:
      "Approves a pending recommendation. The creating actor and the actor that\ntriggered its run cannot approve it (self-approval is blocked).",
    next: 'next: deja loop apply {h} --because "…"',
  },
  reject: {
    summary: "Reject a pending recommendation (starts a doubling cooldown)",
    help:
      "Rejects a pending recommendation. The same finding is not proposed again\nfor 7 days, then 14, 28, ... up to 90 after repeated rejections.",
  },
  apply: {
    summary: "Apply an approved recommendation, storing its inverse",
    help:
      "Runs the literal proposal and stores the inverse rollback needs. Needs the\napply scope plus every scope the proposal's operations need (write; admin\nfor FORGET). Destructive proposals also need --allow-destructive.",
    next: 'undo with: deja loop rollback {h} --because "…"',
  },
  rollback: {
    summary: "Undo an applied recommendation by running its stored inverse",
    help:
      "Runs the inverse stored at apply time: a superseded grain becomes current\nagain, added grains are forgotten, definitions get their prior body back,\ndoc edits are superseded back. Destructive and host applies cannot be\nrolled back.",
  },
  "mark-applied": {
    summary: "Record that you applied a doc or host recommendation yourself",
    help:
      "For recommendations deja cannot apply itself (host data, docs that live\noutside the memory file): make the change, then record it here.",
  },
};

function transitionCommand(verb: Verb): Command {
  const { summary, help, next } = VERB_HELP[verb];
  const destructive = verb === "apply";
  return {
    name: `loop ${verb}`,
    summary,
    usage:
      `deja loop ${verb} <hash-prefix> --because "…" [--actor LABEL] [--scopes LIST]${
        destructive ? " [--allow-destructive]" : ""
      } [--db FILE]`,
    help: `${help}

Options:
  --because "…"        The reason, required, at most 500 characters (audited)
  --actor LABEL        Who decides (default user:local); "policy:" labels are reserved
  --scopes LIST        Live scopes, comma separated: read,write,review,apply,admin
                       (default all: the CLI is the file's local root of trust)
  --expect-version N   Compare-and-set: fail (LOOP-E001) if the recommendation
                       changed since you saw version N (loop show prints it)${
      destructive
        ? "\n  --allow-destructive  Permit a FORGET (also needs the admin scope)"
        : ""
    }
  --db FILE            Memory file (default $DEJA_DB or ~/.local/share/deja/memory.db)
  --json               The transition as JSON`,
    permissions: { read: true, write: true, env: true },
    options: {
      ...DB_OPTION,
      because: { type: "string" },
      actor: { type: "string" },
      scopes: { type: "string" },
      "expect-version": { type: "string" },
      ...(destructive ? { "allow-destructive": { type: "boolean" } } : {}),
      ...JSON_OPTIONS,
    },
    run(args, io) {
      if (args.positionals.length > 1) {
        throw new UsageError(`loop ${verb} takes one hash`);
      }
      // A missing or blank reason is a usage error (exit 64); the store
      // refuses it too (LOOP-E005), as on every other surface.
      if ((stringFlag(args, "because") ?? "").trim() === "") {
        throw new UsageError(
          `loop ${verb} needs --because "…": the reason is audited [LOOP-E005]`,
        );
      }
      const expect = stringFlag(args, "expect-version");
      if (expect !== undefined && !/^\d+$/.test(expect)) {
        throw new UsageError("--expect-version needs a whole number");
      }
      const options: TransitionOptions = {
        actor: actorFlag(args),
        because: stringFlag(args, "because") ?? "",
        scopes: scopesFlag(args),
        now: io.now(),
        ...(expect === undefined ? {} : { expectedVersion: Number(expect) }),
      };
      const store = openExisting(args, io, true);
      let result: TransitionResult;
      // An apply that cannot be undone gets no "undo with" line.
      let undoable = true;
      try {
        const hash = resolveRec(store, args.positionals[0]);
        switch (verb) {
          case "approve":
          case "reject":
            result = store.review(hash, verb, options);
            break;
          case "apply":
            result = store.apply(hash, {
              ...options,
              allowDestructive: boolFlag(args, "allow-destructive"),
            });
            undoable = store.recommendation(hash, options.now)?.rollbackable ??
              false;
            break;
          case "rollback":
            result = store.rollback(hash, options);
            break;
          case "mark-applied":
            result = store.markApplied(hash, options);
            break;
        }
      } finally {
        store.close();
      }
      if (wantsJson(args)) {
        printJson(io, result);
        return Promise.resolve(EXIT.ok);
      }
      io.stdout.write(
        `${short(result.hash)}  ${
          result.status.replace("_", " ")
        } (version ${result.version}) — audit ${short(result.audit)}\n`,
      );
      if (result.results.length) {
        const what = verb === "rollback" ? "reverted" : "wrote";
        io.stdout.write(`  ${what} ${result.results.map(short).join(", ")}\n`);
      }
      if (next && undoable) {
        io.stdout.write(
          next.replaceAll("{h}", short(result.hash)) + dbHint(args) + "\n",
        );
      } else if (verb === "apply") {
        io.stdout.write("  it cannot be rolled back\n");
      }
      return Promise.resolve(EXIT.ok);
    },
  };
}

/** `deja loop approve`. */
export const loopApproveCommand: Command = transitionCommand("approve");
/** `deja loop reject`. */
export const loopRejectCommand: Command = transitionCommand("reject");
/** `deja loop apply`. */
export const loopApplyCommand: Command = transitionCommand("apply");
/** `deja loop rollback`. */
export const loopRollbackCommand: Command = transitionCommand("rollback");
/** `deja loop mark-applied`. */
export const loopMarkAppliedCommand: Command = transitionCommand(
  "mark-applied",
);

// ---- audit ----------------------------------------------------------------

/**
 * The recommendation a prefix names; a prefix that names none (or more
 * than one) is bad input, not a broken chain.
 */
function namedRec(store: MemoryStore, prefix: string): string {
  try {
    return resolveRec(store, prefix);
  } catch (err) {
    if (err instanceof DejaError && err.code === "MEM-E003") {
      throw new UsageError(`${err.message} [MEM-E003]`);
    }
    throw err;
  }
}

/** `deja loop audit verify`. */
export const loopAuditCommand: Command = {
  name: "loop audit",
  summary: "Verify recommendations' hash-chained audit trails",
  usage: "deja loop audit verify [<hash-prefix>] [--json] [--db FILE]",
  help:
    `Re-hashes every audit grain, checks each names its predecessor, that the
transitions follow the lifecycle and that the stored status and version
match the chain. An edit to an audit grain or the recommendation (its body
or any column copied from it, such as actor) shows up here, and so does one
to the status row's status, version, creator, triggering actor, flags,
audit head or inverse; its times, results and dedup key are not checked.
Without a hash, every recommendation is checked.

Exit codes: 0 all verified, 1 a chain is broken (or another error), 64 a
hash prefix that names no recommendation (a CI gate tells it from a break).

Options:
  --db FILE   Memory file (default $DEJA_DB or ~/.local/share/deja/memory.db)
  --json      Verdicts as JSON`,
  permissions: { read: true, env: true },
  options: { ...DB_OPTION, ...JSON_OPTIONS },
  run(args, io) {
    const [sub, prefix, ...rest] = args.positionals;
    if (sub !== "verify" || rest.length) {
      throw new UsageError("Usage: deja loop audit verify [<hash-prefix>]");
    }
    const store = openExisting(args, io);
    let verdicts;
    try {
      const hashes = prefix
        ? [namedRec(store, prefix)]
        : store.recommendations({ status: "all" }).map((r) => r.hash).reverse();
      verdicts = hashes.map((h) => ({
        hash: h,
        ...verifyAuditChain(store, h),
      }));
    } finally {
      store.close();
    }
    const broken = verdicts.filter((v) => !v.chain_verified);
    if (wantsJson(args)) printJson(io, verdicts);
    else {
      for (const v of verdicts) {
        io.stdout.write(
          v.chain_verified
            ? `${short(v.hash)}  chain_verified (${v.length} audit grain${
              v.length === 1 ? "" : "s"
            })\n`
            : `${short(v.hash)}  BROKEN at ${
              short(v.broken_at ?? "")
            }: ${v.reason}\n`,
        );
      }
      if (verdicts.length === 0) {
        io.stdout.write("No recommendations to verify.\n");
      }
    }
    if (broken.length) {
      io.stderr.write(
        `error: ${broken.length} audit chain(s) do not verify [LOOP-E008]\n`,
      );
      return Promise.resolve(EXIT.error);
    }
    return Promise.resolve(EXIT.ok);
  },
};

// ---- config ---------------------------------------------------------------

/** `deja loop config-export`. */
export const loopConfigExportCommand: Command = {
  name: "loop config-export",
  summary: "Print the memory file's loop configuration as JSON",
  usage: "deja loop config-export [--db FILE] > loop-config.json",
  help:
    `Prints per-analyzer settings (enabled, params, severity floor, namespaces)
and saved definitions as plain JSON, for review or for config-import into
another memory file. Host policy is not part of it: it stays with the host.

Options:
  --db FILE   Memory file (default $DEJA_DB or ~/.local/share/deja/memory.db)`,
  permissions: { read: true, env: true },
  options: { ...DB_OPTION },
  run(args, io) {
    if (args.positionals.length) {
      throw new UsageError("config-export takes no arguments");
    }
    const store = openExisting(args, io);
    try {
      printJson(io, store.exportConfig());
    } finally {
      store.close();
    }
    return Promise.resolve(EXIT.ok);
  },
};

/** `deja loop config-import`. */
export const loopConfigImportCommand: Command = {
  name: "loop config-import",
  summary: "Load a loop configuration written by config-export",
  usage: "deja loop config-import FILE [--db FILE] [--actor LABEL]",
  help:
    `Reads JSON written by config-export and stores it, stamped with the actor
and source "import". Unknown keys are refused: a config file can select and
restrict analyzers, never grant anything.

Options:
  --db FILE       Memory file (default $DEJA_DB or ~/.local/share/deja/memory.db)
  --actor LABEL   Who made the change (default user:local)`,
  permissions: { read: true, write: true, env: true },
  options: { ...DB_OPTION, actor: { type: "string" } },
  async run(args, io) {
    const file = args.positionals[0];
    if (!file || args.positionals.length > 1) {
      throw new UsageError("Name one JSON file to import");
    }
    const path = isAbsolute(file) ? file : resolve(io.cwd, file);
    let data: unknown;
    try {
      data = JSON.parse(await Deno.readTextFile(path));
    } catch (err) {
      throw new UsageError(
        `Cannot read "${path}" as JSON: ${(err as Error).message}`,
      );
    }
    const store = openExisting(args, io, true);
    try {
      let r;
      try {
        r = store.importConfig(data, { actor: actorFlag(args), now: io.now() });
      } catch (err) {
        // A file that does not validate is a bad argument, as bad JSON is.
        if (!(err instanceof TypeError)) throw err;
        throw new UsageError(`${err.message} in "${path}" [LOOP-E010]`);
      }
      io.stdout.write(
        `imported ${r.analyzers} analyzer setting(s) and ${r.definitions} definition(s)\n`,
      );
    } finally {
      store.close();
    }
    return EXIT.ok;
  },
};

/** Every review verb, for `cli/commands.ts`. */
export const LOOP_COMMANDS: readonly Command[] = [
  loopHealthCommand,
  loopListCommand,
  loopShowCommand,
  loopApproveCommand,
  loopRejectCommand,
  loopApplyCommand,
  loopRollbackCommand,
  loopMarkAppliedCommand,
  loopAuditCommand,
  loopConfigExportCommand,
  loopConfigImportCommand,
].map(printsSafely);

/** ` --db FILE` when the command was given one, so a printed next step runs as is. */
function dbHint(args: ParsedArgs): string {
  const db = stringFlag(args, "db");
  return db === undefined
    ? ""
    : ` --db ${/^[\w.\/-]+$/.test(db) ? db : JSON.stringify(db)}`;
}
