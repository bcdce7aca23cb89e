// Loop: Queue (j/k/Enter, no bulk approve), Detail (literal proposal,
// destructive banner, evidence chips, dry run, review with a mandatory
// reason, apply / rollback, audit timeline with chain_verified, outcome),
// Analyzers and Outcomes. Deep links: ?tab=loop&rec=<hash>,
// ?tab=loop&view=analyzers|outcomes, ?tab=loop&status=<status>.
import {
  add,
  age,
  badge,
  card,
  clear,
  copyable,
  emptyState,
  h,
  shellQuote,
  short,
  visible,
  when,
} from "./dom.js";
import * as api from "./api.js";

const STATUSES = [
  "pending",
  "approved",
  "applied",
  "rejected",
  "rolled_back",
  "expired",
  "all",
];
const SEV_ORDER = { critical: 4, high: 3, medium: 2, low: 1, info: 0 };

function sevDot(sev) {
  return h("span", { class: `sev sev-${sev}`, title: `severity ${sev}` }, sev);
}

function originBadge(origin) {
  if (origin === "llm") return badge("model-written", "llm");
  if (origin === "command") return badge("command", "cmd");
  return badge("built-in", "muted");
}

function paramText(p) {
  const v = p.value ?? p.default;
  if (p.kind !== "duration" || typeof v !== "number") return String(v);
  for (
    const [unit, ms] of [["d", 86_400_000], ["h", 3_600_000], ["m", 60_000], [
      "s",
      1000,
    ]]
  ) {
    if (v >= ms && v % ms === 0) return `${v / ms}${unit}`;
  }
  return `${v} ms`;
}

function memPath(ctx) {
  return shellQuote(ctx.config?.paths?.memory ?? "memory.db");
}

function problemText(err) {
  const p = err?.problem ?? {};
  return [p.detail ?? err?.message ?? String(err), p.hint].filter(Boolean).join(
    " — ",
  );
}

function subnav(ctx, current) {
  const item = (view, text) =>
    h("button", {
      type: "button",
      "aria-current": current === view ? "page" : "false",
      onClick: () =>
        ctx.navigate({ tab: "loop", view: view === "queue" ? "" : view }),
    }, text);
  return h(
    "nav",
    { class: "subnav", "aria-label": "Loop views" },
    item("queue", "Queue"),
    item("analyzers", "Analyzers"),
    item("outcomes", "Outcomes"),
  );
}

async function runNow(ctx, out, after) {
  clear(out).appendChild(
    h("p", { class: "muted" }, "Running the light analyzers (5 s budget)…"),
  );
  try {
    const { run } = await api.post("/api/loop/run", {});
    const skipped = run.analyzers_skipped.filter((s) =>
      s.reason === "budget" || s.reason === "tier"
    );
    add(
      clear(out),
      h(
        "p",
        { class: "ok" },
        `Ran ${run.analyzers_run.length} analyzers: ${run.stored} new, ${run.deduped} deduplicated, ${run.auto_applied} auto-applied.`,
      ),
      run.completed ? null : h(
        "div",
        { class: "notice" },
        h(
          "p",
          {},
          `Partial run: skipped ${
            skipped.map((s) => `${s.id} (${s.reason})`).join(", ")
          }. Run the rest from the CLI:`,
        ),
        copyable(run.hint ?? `deja loop run --db ${memPath(ctx)}`),
      ),
    );
    ctx.refreshPending();
    after?.();
  } catch (err) {
    clear(out).appendChild(h("p", { class: "error" }, problemText(err)));
  }
}

async function renderQueue(root, ctx) {
  const p = ctx.params();
  const status = STATUSES.includes(p.get("status"))
    ? p.get("status")
    : "pending";
  const [res, health] = await Promise.all([
    api.get("/api/loop/recommendations", { status }),
    api.get("/api/loop/health"),
  ]);
  const filters = h(
    "div",
    { class: "filters chips", role: "group", "aria-label": "Status filter" },
    STATUSES.map((s) =>
      h(
        "button",
        {
          type: "button",
          class: "chip",
          "aria-pressed": s === status ? "true" : "false",
          onClick: () =>
            ctx.navigate({ tab: "loop", status: s === "pending" ? "" : s }),
        },
        s === "all"
          ? "all"
          : `${s.replace("_", " ")} (${res.counts?.[s] ?? 0})`,
      )
    ),
  );
  const runOut = h("div", { class: "run-out", role: "status" });
  const runButton = h("button", {
    type: "button",
    disabled: !ctx.canReview(),
    title: ctx.canReview()
      ? "Runs the light built-in analyzers inline"
      : "Read-only console: restart with --token-env VAR",
    onClick: () =>
      runNow(
        ctx,
        runOut,
        () =>
          ctx.navigate({ tab: "loop", status: p.get("status") ?? "" }, {
            replace: true,
          }),
      ),
  }, "Run analysis now");
  add(root, h("div", { class: "toolbar" }, filters, runButton), runOut);
  if (!res.exists) {
    root.appendChild(
      emptyState(
        "No memory file yet",
        "The loop reads the memory file given with --db. To try it first, the demo template plants data the analyzers flag in a file of its own: deja init --db demo.db --template demo.",
        `deja init --db ${
          memPath(ctx)
        } --template coding-agent && deja loop run --db ${memPath(ctx)}`,
      ),
    );
    return null;
  }
  const recs = [...res.recommendations].sort((a, b) =>
    (SEV_ORDER[b.severity] ?? 0) - (SEV_ORDER[a.severity] ?? 0) ||
    a.age_ms - b.age_ms
  );
  if (recs.length === 0) {
    const why = health.last_run_ms
      ? `Last run ${
        age(health.last_run_ms)
      }; ${health.grains_since_run} grains and ${health.error_events_since_run} failed tool calls arrived since.`
      : "The loop has never run on this file.";
    root.appendChild(
      emptyState(
        status === "pending"
          ? "Nothing waits for review"
          : `No ${status.replace("_", " ")} recommendations`,
        `${why} Structural duplicates that pile up can be handled by a host auto-apply policy instead of clicking.`,
        `deja loop run --db ${memPath(ctx)}`,
      ),
    );
    return null;
  }
  const rows = recs.map((r) =>
    h(
      "tr",
      {
        tabindex: "-1",
        class: "clickable",
        "data-hash": r.hash,
        "aria-selected": "false",
        onClick: () => ctx.navigate({ tab: "loop", rec: r.hash }),
      },
      h("td", {}, sevDot(r.severity)),
      h("td", {}, badge(r.analyzer.replace(/^deja\./, ""))),
      h("td", {}, originBadge(r.origin)),
      h(
        "td",
        { class: "label" },
        h("div", {}, visible(r.summary)),
        h("code", { class: "small" }, visible(r.target_ref)),
      ),
      h("td", { class: "muted" }, age(r.created_at)),
      h("td", { title: "evidence grains" }, String(r.evidence_count)),
      h(
        "td",
        {},
        badge(r.status.replace("_", " ")),
        r.destructive ? badge("destructive", "bad") : null,
      ),
    )
  );
  const table = h(
    "table",
    {
      class: "queue",
      "aria-label": "Recommendations; j and k move, Enter opens",
    },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        [
          "sev",
          "analyzer",
          "origin",
          "summary / target",
          "age",
          "ev.",
          "status",
        ].map((x) => h("th", { scope: "col" }, x)),
      ),
    ),
    h("tbody", {}, rows),
  );
  add(
    root,
    table,
    h(
      "p",
      { class: "muted small" },
      "Keys: j / k move, Enter opens. There is no bulk approve: each decision carries its own reason.",
    ),
  );
  let at = 0;
  const select = (i) => {
    at = Math.max(0, Math.min(rows.length - 1, i));
    rows.forEach((r, k) =>
      r.setAttribute("aria-selected", k === at ? "true" : "false")
    );
    rows[at].focus();
  };
  select(0);
  const onKey = (e) => {
    if (
      e.target instanceof HTMLInputElement ||
      e.target instanceof HTMLTextAreaElement
    ) return;
    if (e.key === "j" || e.key === "ArrowDown") {
      (e.preventDefault(), select(at + 1));
    } else if (e.key === "k" || e.key === "ArrowUp") {
      (e.preventDefault(), select(at - 1));
    } else if (e.key === "Enter") {
      (e.preventDefault(), ctx.navigate({ tab: "loop", rec: recs[at].hash }));
    }
  };
  document.addEventListener("keydown", onKey);
  return () => document.removeEventListener("keydown", onKey);
}

function auditTimeline(d) {
  return h(
    "div",
    {},
    h(
      "p",
      {},
      d.chain_verified ? badge("chain verified", "ok") : badge(
        `chain broken at ${short(d.chain.broken_at)}: ${d.chain.reason}`,
        "bad",
      ),
      ` ${d.chain.length} audit record${
        d.chain.length === 1 ? "" : "s"
      }, hash-linked`,
    ),
    h(
      "ol",
      { class: "timeline" },
      d.audit.map((a) =>
        h(
          "li",
          { "data-to": a.to },
          h("strong", {}, `${a.from} → ${a.to}`),
          " ",
          h(
            "span",
            { class: "muted" },
            `${when(a.at)} · ${a.actor} (${a.observer})`,
          ),
          h("blockquote", {}, visible(a.because)),
          a.results.length
            ? h(
              "p",
              { class: "small muted" },
              `${a.to === "rolled_back" ? "reverted" : "wrote"}: ${
                a.results.map(short).join(", ")
              }`,
            )
            : null,
          h(
            "p",
            { class: "small muted" },
            h("code", {}, short(a.hash)),
            a.prev ? ` ← ${short(a.prev)}` : " (first)",
          ),
        )
      ),
    ),
  );
}

function evidenceChips(ctx, d) {
  if (d.evidence.length === 0) {
    return h(
      "p",
      { class: "muted" },
      "No evidence grains (the finding is about the file as a whole).",
    );
  }
  return h(
    "div",
    { class: "chips" },
    d.evidence.map((e) => {
      if (!e.found) {
        return badge(`${short(e.hash)} (not in this file)`, "muted");
      }
      const chip = h(
        "a",
        {
          class: "chip",
          href: `?tab=memories&grain=${e.hash}`,
          title: e.label,
          onClick: (
            ev,
          ) => (ev.preventDefault(),
            ctx.navigate({ tab: "memories", grain: e.hash })),
        },
        `${e.type} ${short(e.hash)}`,
        e.tombstoned ? " (forgotten)" : e.current ? "" : " (superseded)",
      );
      const parts = [chip];
      if (e.source) {
        // "harness:session:seq" from the transcript index: open the reader there.
        const bits = String(e.source).split(":");
        if (bits.length >= 3) {
          const seq = bits.pop();
          const key = bits.join(":");
          parts.push(
            h("a", {
              class: "chip transcript",
              href: `?tab=sessions&open=${encodeURIComponent(key)}&seq=${
                encodeURIComponent(seq)
              }`,
              onClick: (
                ev,
              ) => (ev.preventDefault(),
                ctx.navigate({ tab: "sessions", open: key, seq })),
            }, `transcript ${seq}`),
          );
        }
      }
      return h("span", { class: "chip-group" }, parts);
    }),
  );
}

async function renderDetail(root, ctx, hash) {
  let d;
  try {
    d = await api.get(`/api/loop/recommendation/${encodeURIComponent(hash)}`);
  } catch (err) {
    root.appendChild(
      emptyState("Cannot open this recommendation", problemText(err)),
    );
    return;
  }
  const reload = () =>
    ctx.navigate({ tab: "loop", rec: d.hash }, { replace: true });
  const out = h("div", { class: "action-out", role: "status" });
  const reason = h("textarea", {
    id: "because",
    rows: "3",
    maxlength: "500",
    placeholder: "Because… (required: what you checked and why)",
    "aria-label": "Reason for the decision",
  });
  const act = async (path, body, done) => {
    const because = reason.value.trim();
    if (!because) {
      clear(out).appendChild(
        h("p", { class: "error" }, "A reason is required."),
      );
      reason.focus();
      return;
    }
    try {
      await api.post(path, {
        hash: d.hash,
        because,
        version: d.version,
        ...body,
      });
      ctx.toast(done);
      ctx.refreshPending();
      reload();
    } catch (err) {
      if (err.status === 409) {
        ctx.toast(
          "Someone else changed this recommendation first (409); reloaded",
          "bad",
        );
        reload();
        return;
      }
      clear(out).appendChild(
        h("p", { class: "error" }, `${err.status}: ${problemText(err)}`),
      );
      if (err.status === 401 && ctx.mode !== "read-only") {
        // api.post forgot a token that did not open the write.
        out.appendChild(
          h("button", { type: "button", onClick: ctx.signIn }, "Sign in"),
        );
      }
    }
  };
  const a = d.actions;
  const confirm = h("input", { type: "checkbox", id: "confirm-destructive" });
  const buttons = h(
    "div",
    { class: "row actions" },
    h("button", {
      type: "button",
      id: "approve",
      class: "primary",
      disabled: !(a.approve ?? a.review),
      onClick: () =>
        act("/api/loop/review", { decision: "approve" }, "Approved"),
    }, "Approve"),
    h("button", {
      type: "button",
      id: "reject",
      disabled: !a.review,
      onClick: () =>
        act("/api/loop/review", { decision: "reject" }, "Rejected"),
    }, "Reject"),
    h("button", {
      type: "button",
      id: "apply",
      class: d.destructive ? "danger" : "primary",
      disabled: !a.apply,
      onClick: () => {
        if (d.destructive && !confirm.checked) {
          clear(out).appendChild(
            h(
              "p",
              { class: "error" },
              "Tick the confirmation: this forgets grains and cannot be rolled back.",
            ),
          );
          return;
        }
        act(
          "/api/loop/apply",
          d.destructive ? { confirm_destructive: true } : {},
          "Applied",
        );
      },
    }, "Apply"),
    h("button", {
      type: "button",
      id: "rollback",
      disabled: !a.rollback,
      onClick: () => act("/api/loop/rollback", {}, "Rolled back"),
    }, "Roll back"),
  );
  const dryOut = h("div", { class: "dry-out" });
  const dryRun = async () => {
    clear(dryOut).appendChild(h("p", { class: "muted" }, "Dry run…"));
    try {
      const r = await api.post("/api/loop/dryrun", { hash: d.hash }, {
        write: false,
      });
      add(
        clear(dryOut),
        h(
          "table",
          { class: "effects" },
          h(
            "tbody",
            {},
            r.effects.map((e) =>
              h(
                "tr",
                { class: e.ok ? "" : "fail" },
                h("td", {}, e.ok ? "✓" : "✗"),
                h("td", {}, h("code", {}, visible(e.line))),
                h("td", {}, visible(e.effect)),
              )
            ),
          ),
        ),
        h(
          "ul",
          { class: "checks" },
          r.checks.map((c) =>
            h(
              "li",
              { class: c.ok ? "ok" : "fail" },
              `${c.ok ? "✓" : "✗"} ${c.check}: `,
              visible(c.detail),
            )
          ),
        ),
        h("p", { class: "muted small" }, r.note),
      );
    } catch (err) {
      clear(dryOut).appendChild(h("p", { class: "error" }, problemText(err)));
    }
  };
  const g = d.grain;
  add(
    root,
    h(
      "p",
      {},
      h("a", {
        href: "?tab=loop",
        onClick: (e) => (e.preventDefault(), ctx.navigate({ tab: "loop" })),
      }, "← Queue"),
    ),
    h(
      "header",
      { class: "fact-head" },
      h("h2", {}, sevDot(d.severity), " ", visible(d.summary)),
      h(
        "p",
        { class: "meta" },
        badge(d.status.replace("_", " ")),
        " ",
        badge(d.analyzer),
        " ",
        originBadge(d.origin),
        ` v${d.version} · proposed ${when(d.created_at)} by ${d.creator} · `,
        h("code", {}, d.hash),
      ),
      h(
        "p",
        {},
        "Target ",
        h("code", {}, visible(d.target_ref)),
        ` · action ${d.action} · template ${d.template}`,
      ),
    ),
    d.destructive
      ? h(
        "div",
        { class: "banner bad", role: "alert" },
        "Destructive: applying this forgets grains. It cannot be rolled back and needs --allow-destructive plus a confirmation.",
      )
      : null,
    d.origin === "llm" || d.origin === "command"
      ? h(
        "details",
        { class: "fence llm" },
        h(
          "summary",
          {},
          d.origin === "llm"
            ? "Model-written — unverified"
            : "Written by a command analyzer — unverified",
        ),
        h("p", {}, visible(d.summary)),
      )
      : null,
    card(
      "Proposal (literal)",
      h("pre", { class: "proposal" }, visible(d.proposal_text)),
      h("button", { type: "button", id: "dryrun", onClick: dryRun }, "Dry run"),
      dryOut,
    ),
    card("Evidence", evidenceChips(ctx, d)),
    card(
      "Decision",
      a.why ? h("p", { class: "notice" }, a.why) : null,
      reason,
      d.destructive
        ? h(
          "label",
          { class: "confirm" },
          confirm,
          " I understand this forgets grains and cannot be rolled back",
        )
        : null,
      buttons,
      out,
    ),
    card("Audit timeline", auditTimeline(d)),
    card(
      "Outcome",
      d.outcome.metric
        ? h(
          "div",
          {},
          h(
            "p",
            {},
            `Metric ${d.outcome.metric.name}: baseline ${d.outcome.metric.baseline} when proposed.`,
          ),
          d.outcome.applied_at
            ? h("p", {}, `Applied ${when(d.outcome.applied_at)}.`)
            : h("p", { class: "muted" }, "Not applied."),
          d.outcome.horizons.length
            ? h(
              "ul",
              {},
              d.outcome.horizons.map((x) =>
                h(
                  "li",
                  {},
                  `${x.days} d horizon: ${x.due ? "due since" : "due"} ${
                    when(x.due_at)
                  }`,
                )
              ),
            )
            : null,
        )
        : null,
      h("p", { class: "muted small" }, d.outcome.note),
      d.outcome.follow_ups.length
        ? h(
          "ul",
          {},
          d.outcome.follow_ups.map((f) =>
            h(
              "li",
              {},
              h("a", {
                href: `?tab=loop&rec=${f.hash}`,
                onClick: (
                  e,
                ) => (e.preventDefault(),
                  ctx.navigate({ tab: "loop", rec: f.hash })),
              }, short(f.hash)),
              " ",
              badge(f.status),
              " ",
              visible(f.summary),
            )
          ),
        )
        : null,
    ),
    card(
      "Parameters when proposed",
      h("pre", { class: "json" }, JSON.stringify(g.params ?? {}, null, 2)),
    ),
  );
}

async function renderAnalyzers(root, ctx) {
  const res = await api.get("/api/loop/analyzers");
  if (!res.exists) {
    root.appendChild(
      emptyState(
        "Analyzers wait for a memory file",
        null,
        `deja init --db ${memPath(ctx)} --template demo`,
      ),
    );
  }
  const grid = h("div", { class: "grid" });
  for (const a of res.analyzers) {
    const toggle = h("button", {
      type: "button",
      class: "toggle",
      "aria-pressed": a.enabled ? "true" : "false",
      disabled: !ctx.canReview() || !res.exists,
      title: ctx.canReview()
        ? ""
        : "Read-only console: restart with --token-env VAR",
      onClick: async () => {
        try {
          await api.post("/api/loop/analyzers", {
            analyzer: a.id,
            enabled: !a.enabled,
          });
          ctx.toast(`${a.title} ${a.enabled ? "disabled" : "enabled"}`);
          ctx.navigate({ tab: "loop", view: "analyzers" }, { replace: true });
        } catch (err) {
          ctx.toast(problemText(err), "bad");
        }
      },
    }, a.enabled ? "On" : "Off");
    grid.appendChild(
      h(
        "section",
        { class: `card analyzer ${a.active ? "active" : ""}`, "data-id": a.id },
        h("div", { class: "row spread" }, h("h2", {}, a.title), toggle),
        h(
          "p",
          {},
          badge(a.publisher),
          " ",
          badge(a.tier),
          " ",
          badge(`trust: ${a.trust_class}`),
          " ",
          a.auto_apply === "structural"
            ? badge("may auto-apply (structural)", "info")
            : null,
        ),
        h(
          "p",
          { class: "muted small" },
          h("code", {}, a.id),
          ` · default ${a.default_on ? "on" : "off"}`,
        ),
        h("p", {}, a.description),
        h(
          "p",
          { class: a.active ? "ok small" : "muted small" },
          a.active ? "Active: runs on the next pass" : `Inactive: ${a.reason}`,
        ),
        a.params.length
          ? h(
            "table",
            { class: "params" },
            h("caption", {}, "Parameters (read-only here; deja loop set)"),
            h(
              "tbody",
              {},
              a.params.map((p) =>
                h(
                  "tr",
                  {},
                  h("th", { scope: "row" }, p.name),
                  h("td", {}, paramText(p)),
                  h("td", { class: "muted small" }, p.description),
                )
              ),
            ),
          )
          : null,
        a.config
          ? h(
            "p",
            { class: "muted small" },
            `Set by ${a.config.actor} via ${a.config.source}, ${
              age(a.config.updated_at)
            }`,
          )
          : null,
      ),
    );
  }
  root.appendChild(grid);
}

async function renderOutcomes(root) {
  const res = await api.get("/api/loop/outcomes");
  const cols = [
    "proposed",
    "pending",
    "approved",
    "rejected",
    "applied",
    "auto_applied",
    "rolled_back",
    "expired",
  ];
  root.appendChild(h("p", { class: "muted" }, res.caption));
  if (!res.analyzers.length) {
    root.appendChild(
      emptyState(
        "No history yet",
        "Counts appear once analyzers propose and people decide.",
        res.exists === false
          ? res.hint?.replace(/^Run: /, "")
          : "deja loop run",
      ),
    );
    return;
  }
  root.appendChild(
    h(
      "table",
      { class: "outcomes" },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", { scope: "col" }, "analyzer"),
          cols.map((c) => h("th", { scope: "col" }, c.replace("_", " "))),
        ),
      ),
      h(
        "tbody",
        {},
        res.analyzers.map((r) =>
          h(
            "tr",
            {},
            h("th", { scope: "row" }, r.analyzer),
            cols.map((c) => h("td", {}, String(r[c] ?? 0))),
          )
        ),
        h(
          "tr",
          { class: "total" },
          h("th", { scope: "row" }, "total"),
          cols.map((c) => h("td", {}, String(res.totals[c] ?? 0))),
        ),
      ),
    ),
  );
}

export async function renderLoop(root, ctx) {
  const p = ctx.params();
  const rec = p.get("rec");
  const view = rec ? "detail" : p.get("view") ?? "queue";
  root.appendChild(h("h1", {}, "Loop"));
  root.appendChild(subnav(ctx, view === "detail" ? "queue" : view));
  if (rec) return await renderDetail(root, ctx, rec);
  if (view === "analyzers") return await renderAnalyzers(root, ctx);
  if (view === "outcomes") return await renderOutcomes(root, ctx);
  return await renderQueue(root, ctx);
}
