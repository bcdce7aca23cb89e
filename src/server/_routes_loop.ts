/**
 * The loop routes: the queue, one recommendation with its audit chain and
 * chain_verified, an advisory dry run, review / apply / rollback through
 * the store's compare-and-set lifecycle, an inline run of the light
 * built-in analyzers under a time budget, analyzer cards and their on/off
 * switch, outcome counts and loop health. The actor and the scopes always
 * come from the server's configuration.
 *
 * @module
 */
import { DejaError } from "../core/errors.ts";
import {
  activation,
  type Analyzer,
  ANALYZERS,
  findAnalyzer,
  renderSummary,
  runLoop,
  type SkippedAnalyzer,
} from "../loop/mod.ts";
import {
  grainText,
  hashGrain,
  MAX_BECAUSE,
  type MemoryReader,
  type MemoryStore,
  type Op,
  type RecommendationView,
  type RecStatus,
  renderOp,
  renderProposal,
  verifyAuditChain,
} from "../memory/mod.ts";
import { authorize, modeOf, scopesOf } from "./_guard.ts";
import type { Context, Hono } from "./_hono.ts";
import { hashPrefix, json, strictBody, stringField } from "./_http.ts";
import type { ServerState } from "./_state.ts";

const STATUSES = [
  "pending",
  "approved",
  "rejected",
  "applied",
  "rolled_back",
  "expired",
];
const DAY = 86_400_000;

/** A queue row. */
function recRow(r: RecommendationView, now: number): Record<string, unknown> {
  return {
    hash: r.hash,
    status: r.status,
    version: r.version,
    severity: r.grain.severity,
    analyzer: r.grain.analyzer,
    family: r.grain.family,
    origin: r.grain.origin ?? "analyzer",
    target_ref: r.grain.target_ref,
    action: r.grain.action,
    template: r.grain.template.id,
    summary: renderSummary(r.grain.template),
    destructive: r.destructive,
    rollbackable: r.rollbackable,
    evidence_count: r.grain.evidence.length,
    created_at: r.grain.created_at,
    updated_at: r.updated_at,
    age_ms: Math.max(0, now - r.grain.created_at),
    creator: r.creator,
  };
}

function resolveRec(
  store: MemoryReader,
  prefix: string,
  now: number,
): RecommendationView {
  const hash = store.resolve(hashPrefix(prefix, "recommendation"), {
    type: "recommendation",
  });
  const view = store.recommendation(hash, now);
  if (!view) throw new DejaError("SRV-E005", `No recommendation "${prefix}"`);
  return view;
}

function versionOf(body: Record<string, unknown>): number | undefined {
  const v = body.version;
  if (v === undefined) return undefined;
  // Past 2^53 a number is no exact version: it came back as a 409 "changed
  // since version 100000000000000000000".
  if (!Number.isSafeInteger(v) || (v as number) < 0) {
    throw new DejaError(
      "SRV-E006",
      `"version" must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER}`,
    );
  }
  return v as number;
}

/** Why no action is open on a recommendation whose status ends its lifecycle. */
const NO_TRANSITION_LEFT: Partial<Record<RecStatus, string>> = {
  rejected: "rejected: its status leaves no transition",
  rolled_back: "rolled back: its status leaves no transition",
  expired:
    "expired: past its valid_to, it can no longer be reviewed or applied",
};

/** What this server would allow on a recommendation right now. */
function actionsFor(
  state: ServerState,
  r: RecommendationView,
): Record<string, unknown> {
  const mode = modeOf(state.auth);
  const canReview = mode !== "read-only";
  const canApply = mode === "apply" || mode === "apply+destructive";
  const proposalKind = r.grain.proposal.kind;
  const review = canReview && r.status === "pending";
  // The store refuses the creator and the triggering actor; say so before
  // the click rather than after it.
  const norm = (a: string) => a.normalize("NFC").trim().toLowerCase();
  const actor = norm(state.auth.actor);
  const own = [r.creator, r.trigger_actor].some((a) =>
    a !== undefined && norm(a) === actor
  );
  return {
    review,
    approve: review && !own,
    apply: canApply && r.status === "approved" && proposalKind !== "host" &&
      (!r.destructive || mode === "apply+destructive"),
    rollback: canApply && r.status === "applied" && r.rollbackable,
    mode,
    why: NO_TRANSITION_LEFT[r.status] ??
      (r.status === "applied" && !r.rollbackable
        ? "applied, and not rollbackable: its status leaves no transition"
        : !canReview
        ? "read-only console: restart deja ui with --token-env VAR to review"
        : review && own
        ? `${state.auth.actor} proposed or triggered this: self-approval is blocked, so another actor approves it (rejecting is open)`
        : r.status === "approved" && !canApply
        ? "restart deja ui with --allow-apply to apply"
        : r.status === "applied" && !canApply
        ? "restart deja ui with --allow-apply to roll back"
        : r.status === "approved" && r.destructive &&
            mode !== "apply+destructive"
        ? "destructive: restart deja ui with --allow-apply --allow-destructive"
        : r.status === "approved" && proposalKind === "host"
        ? "host recommendation: apply it outside deja, then run deja loop mark-applied"
        : null),
  };
}

function evidenceRows(
  store: MemoryReader,
  r: RecommendationView,
): Array<Record<string, unknown>> {
  return r.grain.evidence.map((hash) => {
    const g = store.get(hash);
    if (!g) return { hash, found: false };
    const row: Record<string, unknown> = {
      hash,
      found: true,
      type: g.grain.type,
      namespace: g.grain.namespace,
      label: (() => {
        const t = grainText(g.grain);
        return t.length > 160 ? `${t.slice(0, 159)}…` : t;
      })(),
      current: store.isCurrent(hash),
      tombstoned: g.tombstoned,
    };
    if (g.grain.type === "event" && g.grain.source) row.source = g.grain.source;
    if (g.grain.type === "recommendation") {
      row.summary = renderSummary(g.grain.template);
    }
    return row;
  });
}

function opEffect(store: MemoryReader, op: Op): Record<string, unknown> {
  const target = (hash: string) => {
    const g = store.get(hash);
    return g
      ? {
        hash,
        exists: true,
        current: store.isCurrent(hash),
        tombstoned: g.tombstoned,
        label: grainText(g.grain),
      }
      : { hash, exists: false };
  };
  switch (op.op) {
    case "ADD": {
      const hash = hashGrain(op.grain);
      const present = store.get(hash);
      return {
        op: op.op,
        line: renderOp(op),
        creates: hash,
        ok: true,
        effect: present
          ? present.tombstoned
            ? "revives a forgotten grain with this exact content"
            : "already present: writes nothing new"
          : `adds a ${op.grain.type} grain`,
      };
    }
    case "SUPERSEDE": {
      const t = target(op.target);
      const hash = hashGrain({ ...op.grain, supersedes: op.target });
      const ok = t.exists && (t as { current?: boolean }).current === true;
      return {
        op: op.op,
        line: renderOp(op),
        target: t,
        creates: hash,
        ok,
        effect: !t.exists
          ? "would fail: the target is not in the memory file"
          : !ok
          ? "would fail: the target is no longer current"
          : `replaces the target with a new ${op.grain.type} grain; rollback makes the target current again`,
      };
    }
    case "FORGET": {
      const t = target(op.target);
      return {
        op: op.op,
        line: renderOp(op),
        target: t,
        ok: t.exists,
        effect: t.exists
          ? "forgets the target (out of recall; cannot be rolled back)"
          : "would fail: the target is not in the memory file",
      };
    }
    case "DEFINE":
      return {
        op: op.op,
        line: renderOp(op),
        ok: true,
        effect: `sets the definition "${op.key}"`,
      };
  }
}

function outcomeOf(
  store: MemoryReader,
  r: RecommendationView,
  now: number,
): Record<string, unknown> {
  const reverts = store.recommendations({ now })
    .filter((x) => x.hash !== r.hash && x.grain.evidence.includes(r.hash))
    .map((x) => ({
      hash: x.hash,
      status: x.status,
      summary: renderSummary(x.grain.template),
    }));
  const m = r.grain.metric;
  return {
    metric: m
      ? { name: m.name, baseline: m.value, horizons_days: m.horizon_days }
      : null,
    applied_at: r.applied_at ?? null,
    horizons: m && r.applied_at !== undefined
      ? m.horizon_days.map((d) => ({
        days: d,
        due_at: (r.applied_at as number) + d * DAY,
        due: now >= (r.applied_at as number) + d * DAY,
      }))
      : [],
    follow_ups: reverts,
    note: m
      ? "The loop re-measures the metric at each horizon during deja loop run; a regression proposes a revert (listed as a follow-up)"
      : "This recommendation declares no metric",
  };
}

function lightAnalyzers(state: ServerState, started: number): Analyzer[] {
  return ANALYZERS.filter((a) => a.manifest.tier === "light").map((a) => ({
    manifest: a.manifest,
    analyze: (store, params, now) => {
      if (state.clock() - started > state.runBudgetMs) {
        throw new Error(BUDGET_MARK);
      }
      return a.analyze(store, params, now);
    },
  }));
}

const BUDGET_MARK = "inline run budget spent";

async function inlineRun(
  state: ServerState,
  store: MemoryStore,
): Promise<Record<string, unknown>> {
  const started = state.clock();
  const policy = {
    ...state.policy,
    auto_apply_enabled: state.policy.auto_apply_enabled &&
      state.auth.allowApply,
  };
  const result = await runLoop(store, {
    policy,
    actor: state.auth.actor,
    analyzers: lightAnalyzers(state, started),
    clock: state.clock,
  }, state.now());
  const skipped: SkippedAnalyzer[] = result.analyzers_skipped.map((s) =>
    s.reason === `failed: ${BUDGET_MARK}` ? { id: s.id, reason: "budget" } : s
  );
  const statuses = activation(store, store.config(), { policy });
  for (const a of ANALYZERS) {
    if (a.manifest.tier === "light") continue;
    const st = statuses.find((s) => s.id === a.manifest.id);
    skipped.push({
      id: a.manifest.id,
      reason: st && !st.active ? st.reason : "tier",
    });
  }
  const completed = !skipped.some((s) =>
    s.reason === "budget" || s.reason === "tier"
  );
  return {
    ...result,
    analyzers_skipped: skipped,
    completed,
    hint: completed
      ? null
      : `deja loop run --db ${state.stores.options.memoryPath}`,
  };
}

function analyzerCards(
  state: ServerState,
  store: MemoryReader | undefined,
): Array<Record<string, unknown>> {
  const config = store?.config() ?? {};
  const statuses = store
    ? activation(store, config, { policy: state.policy })
    : [];
  return ANALYZERS.map((a) => {
    const m = a.manifest;
    const st = statuses.find((s) => s.id === m.id);
    const row = config[m.id];
    return {
      id: m.id,
      publisher: m.id.slice(0, m.id.indexOf(".")),
      title: m.title,
      description: m.description,
      tier: m.tier,
      trust_class: "builtin",
      default_on: m.defaultOn,
      enabled: st?.enabled ?? m.defaultOn,
      active: st?.active ?? false,
      reason: st?.reason ?? "no memory file yet",
      severity_floor: st?.severity_floor ?? null,
      requires: m.requires,
      capabilities: m.capabilities,
      targets: m.targets,
      auto_apply: m.autoApply,
      params: m.params.map((p) => ({
        name: p.name,
        kind: p.kind,
        description: p.description,
        default: p.default,
        value: st?.params?.[p.name] ?? null,
      })),
      config: row
        ? { actor: row.actor, source: row.source, updated_at: row.updated_at }
        : null,
    };
  });
}

function outcomes(store: MemoryReader, now: number): Record<string, unknown> {
  const by = new Map<string, Record<string, number>>();
  for (const r of store.recommendations({ now })) {
    let c = by.get(r.grain.analyzer);
    if (!c) {
      c = {
        proposed: 0,
        pending: 0,
        approved: 0,
        rejected: 0,
        applied: 0,
        auto_applied: 0,
        rolled_back: 0,
        expired: 0,
      };
      by.set(r.grain.analyzer, c);
    }
    c.proposed = (c.proposed ?? 0) + 1;
    if (r.status === "pending") c.pending = (c.pending ?? 0) + 1;
    if (r.status === "expired") c.expired = (c.expired ?? 0) + 1;
    for (const a of store.audit(r.hash)) {
      const to = a.grain.to;
      if (to === "approved" || to === "rejected" || to === "rolled_back") {
        c[to] = (c[to] ?? 0) + 1;
      }
      if (to === "applied") {
        c.applied = (c.applied ?? 0) + 1;
        if (a.grain.observer === "policy") {
          c.auto_applied = (c.auto_applied ?? 0) + 1;
        }
      }
    }
  }
  const rows = [...by].sort(([a], [b]) => a.localeCompare(b)).map((
    [analyzer, counts],
  ) => ({ analyzer, ...counts }));
  const totals: Record<string, number> = {};
  for (const r of rows) {
    for (const [k, v] of Object.entries(r)) {
      if (typeof v === "number") totals[k] = (totals[k] ?? 0) + v;
    }
  }
  return {
    caption: "Measured history from audit records",
    analyzers: rows,
    totals,
  };
}

function health(
  state: ServerState,
  store: MemoryReader,
): Record<string, unknown> {
  const now = state.now();
  const watermark = store.watermark();
  const fresh = store.countSince(watermark ?? 0);
  const recs = store.recommendations({ now });
  const count = (s: string) => recs.filter((r) => r.status === s).length;
  const reasons: string[] = [];
  if (watermark === undefined) reasons.push("the loop never ran");
  else if (now - watermark >= 7 * DAY) {
    reasons.push("the last run is 7 or more days old");
  }
  if (fresh.grains >= 100) {
    reasons.push(`${fresh.grains} grains arrived since the last run`);
  }
  return {
    exists: true,
    last_run_ms: watermark ?? null,
    grains_since_run: fresh.grains,
    error_events_since_run: fresh.error_events,
    pending: count("pending"),
    approved: count("approved"),
    applied: count("applied"),
    total: recs.length,
    stale: reasons.length > 0,
    stale_reasons: reasons,
  };
}

/**
 * Registers the loop routes.
 *
 * @param app The app.
 * @param state Shared state.
 */
export function loopRoutes(app: Hono, state: ServerState): void {
  const noMemory = () => ({
    exists: false,
    hint:
      `Run: deja init --db ${state.stores.options.memoryPath} --template coding-agent`,
  });
  const transitionOptions = (body: Record<string, unknown>) => {
    const version = versionOf(body);
    // Said here in the request's terms: the store's own message names the
    // CLI's --because.
    const because = typeof body.because === "string" ? body.because.trim() : "";
    if (!because) {
      throw new DejaError(
        "LOOP-E005",
        `The request needs a reason: send "because": "…" (at most ${MAX_BECAUSE} characters; it is audited)`,
      );
    }
    if (because.length > MAX_BECAUSE) {
      throw new DejaError(
        "LOOP-E005",
        `The reason ("because") is too long: ${because.length} characters; the limit is ${MAX_BECAUSE}`,
      );
    }
    return {
      actor: state.auth.actor,
      because,
      scopes: scopesOf(state.auth),
      ...(version === undefined ? {} : { expectedVersion: version }),
    };
  };

  app.get("/api/loop/recommendations", (c) => {
    const store = state.stores.memory();
    if (!store) return json({ ...noMemory(), recommendations: [], counts: {} });
    const status = c.req.query("status") || "all";
    if (status !== "all" && !STATUSES.includes(status)) {
      throw new DejaError(
        "SRV-E006",
        `Unknown status "${status}"; one of all, ${STATUSES.join(", ")}`,
      );
    }
    const now = state.now();
    const all = store.recommendations({ now });
    const counts: Record<string, number> = {};
    for (const r of all) counts[r.status] = (counts[r.status] ?? 0) + 1;
    return json({
      exists: true,
      recommendations: all.filter((r) =>
        status === "all" || r.status === status
      ).map((r) => recRow(r, now)),
      counts,
    });
  });

  app.get("/api/loop/recommendation/:hash", (c) => {
    const store = state.stores.requireMemory();
    const now = state.now();
    const r = resolveRec(store, c.req.param("hash"), now);
    const verdict = verifyAuditChain(store, r.hash);
    return json({
      ...recRow(r, now),
      grain: r.grain,
      proposal_text: renderProposal(r.grain.proposal),
      evidence: evidenceRows(store, r),
      audit: store.audit(r.hash).map((a) => ({
        hash: a.hash,
        from: a.grain.from,
        to: a.grain.to,
        actor: a.grain.actor,
        observer: a.grain.observer,
        because: a.grain.because,
        at: a.grain.created_at,
        prev: a.grain.prev ?? null,
        results: a.grain.results ?? [],
      })),
      chain_verified: verdict.chain_verified,
      chain: verdict,
      results: r.results,
      applied_at: r.applied_at ?? null,
      outcome: outcomeOf(store, r, now),
      actions: actionsFor(state, r),
    });
  });

  app.post("/api/loop/dryrun", async (c) => {
    const body = await strictBody(c, ["hash"]);
    const store = state.stores.requireMemory();
    const now = state.now();
    const r = resolveRec(store, stringField(body, "hash"), now);
    const p = r.grain.proposal;
    const effects = p.kind === "ops"
      ? p.ops.map((op) => opEffect(store, op))
      : p.kind === "doc"
      ? [{
        op: "EDIT",
        line: `EDIT DOC ${p.path}`,
        ok: true,
        effect: "patches the stored doc; apply re-checks its base digest",
      }]
      : [{
        op: "HOST",
        line: "HOST DATA",
        ok: false,
        effect: "applied by the host outside deja, then marked applied",
      }];
    const actions = actionsFor(state, r);
    const checks = [
      {
        check: "status",
        ok: r.status === "approved",
        detail: `it is ${r.status}; apply needs approved`,
      },
      {
        check: "server mode",
        ok: actions.mode === "apply" || actions.mode === "apply+destructive",
        detail: `this console runs in ${actions.mode} mode`,
      },
      {
        check: "destructive",
        ok: !r.destructive || actions.mode === "apply+destructive",
        detail: r.destructive
          ? "forgets grains: needs --allow-destructive and a confirmation"
          : "no FORGET",
      },
      {
        check: "rollback",
        ok: true,
        detail: r.rollbackable
          ? "rollback can undo it"
          : "cannot be rolled back",
      },
    ];
    return json({
      hash: r.hash,
      status: r.status,
      destructive: r.destructive,
      rollbackable: r.rollbackable,
      effects,
      checks,
      would_apply: effects.every((e) => e.ok) && checks.every((k) => k.ok),
      note:
        "Advisory: nothing was written and no preview state is kept; apply re-checks everything",
    });
  });

  app.post("/api/loop/review", async (c: Context) => {
    authorize(c.req.raw, state.auth, "review");
    const body = await strictBody(c, [
      "hash",
      "decision",
      "because",
      "version",
    ]);
    const decision = body.decision;
    if (decision !== "approve" && decision !== "reject") {
      throw new DejaError(
        "SRV-E006",
        '"decision" must be "approve" or "reject"',
      );
    }
    const store = state.stores.requireMemory();
    const r = resolveRec(store, stringField(body, "hash"), state.now());
    const result = store.review(r.hash, decision, transitionOptions(body));
    return json({ ok: true, ...result });
  });

  app.post("/api/loop/apply", async (c) => {
    authorize(c.req.raw, state.auth, "apply");
    const body = await strictBody(c, [
      "hash",
      "because",
      "version",
      "confirm_destructive",
    ]);
    const store = state.stores.requireMemory();
    const r = resolveRec(store, stringField(body, "hash"), state.now());
    if (r.destructive) {
      if (!state.auth.allowDestructive) {
        throw new DejaError(
          "SRV-E008",
          `Recommendation ${r.hash.slice(0, 12)} is destructive`,
          {
            detail: {
              hint:
                "Restart deja ui with --allow-apply --allow-destructive to apply destructive recommendations",
            },
          },
        );
      }
      if (body.confirm_destructive !== true) {
        throw new DejaError(
          "SRV-E006",
          `Recommendation ${
            r.hash.slice(0, 12)
          } forgets grains and cannot be rolled back: send "confirm_destructive": true`,
        );
      }
    }
    const result = store.apply(r.hash, {
      ...transitionOptions(body),
      allowDestructive: r.destructive && state.auth.allowDestructive &&
        body.confirm_destructive === true,
      policy: state.policy,
    });
    return json({ ok: true, ...result });
  });

  app.post("/api/loop/rollback", async (c) => {
    authorize(c.req.raw, state.auth, "apply");
    const body = await strictBody(c, ["hash", "because", "version"]);
    const store = state.stores.requireMemory();
    const r = resolveRec(store, stringField(body, "hash"), state.now());
    const result = store.rollback(r.hash, transitionOptions(body));
    return json({ ok: true, ...result });
  });

  app.post("/api/loop/run", async (c) => {
    authorize(c.req.raw, state.auth, "review");
    await strictBody(c, []);
    const store = state.stores.requireMemory();
    return json({ ok: true, run: await inlineRun(state, store) });
  });

  app.get("/api/loop/analyzers", () => {
    const store = state.stores.memory();
    return json({
      exists: store !== undefined,
      analyzers: analyzerCards(state, store),
    });
  });

  app.post("/api/loop/analyzers", async (c) => {
    authorize(c.req.raw, state.auth, "review");
    const body = await strictBody(c, ["analyzer", "enabled"]);
    if (typeof body.enabled !== "boolean") {
      throw new DejaError("SRV-E006", '"enabled" must be true or false');
    }
    const analyzer = findAnalyzer(stringField(body, "analyzer"));
    if (!analyzer) {
      throw new DejaError(
        "SRV-E005",
        `No built-in analyzer "${String(body.analyzer)}"`,
      );
    }
    const store = state.stores.requireMemory();
    const prior = store.config()[analyzer.manifest.id];
    const next: Record<string, unknown> = {};
    if (prior?.params) next.params = prior.params;
    if (prior?.severity_floor) next.severity_floor = prior.severity_floor;
    if (prior?.namespaces) next.namespaces = prior.namespaces;
    next.enabled = body.enabled;
    store.setConfig(analyzer.manifest.id, next, {
      actor: state.auth.actor,
      source: "console",
      now: state.now(),
    });
    const card = analyzerCards(state, store).find((a) =>
      a.id === analyzer.manifest.id
    );
    return json({ ok: true, analyzer: card });
  });

  app.get("/api/loop/outcomes", () => {
    const store = state.stores.memory();
    if (!store) {
      return json({
        ...noMemory(),
        caption: "Measured history from audit records",
        analyzers: [],
        totals: {},
      });
    }
    return json({ exists: true, ...outcomes(store, state.now()) });
  });

  app.get("/api/loop/health", () => {
    const store = state.stores.memory();
    if (!store) return json(noMemory());
    return json(health(state, store));
  });
}
