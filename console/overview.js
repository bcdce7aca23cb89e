// Overview: the memory health report, the activation ladder, loop status,
// the transcript index and the effective (read-only) policy.
import {
  age,
  badge,
  card,
  copyable,
  emptyState,
  h,
  shellQuote,
  when,
} from "./dom.js";
import * as api from "./api.js";

function table(rows, head) {
  return h(
    "table",
    {},
    head
      ? h(
        "thead",
        {},
        h("tr", {}, head.map((x) => h("th", { scope: "col" }, x))),
      )
      : null,
    h(
      "tbody",
      {},
      rows.map((r) =>
        h(
          "tr",
          {},
          r.map((
            x,
            i,
          ) => (i === 0 ? h("th", { scope: "row" }, x) : h("td", {}, x))),
        )
      ),
    ),
  );
}

export async function renderOverview(root, ctx) {
  const [stats, health, analyzers, config] = await Promise.all([
    api.get("/api/stats"),
    api.get("/api/loop/health"),
    api.get("/api/loop/analyzers"),
    ctx.config ? Promise.resolve(ctx.config) : api.get("/api/config"),
  ]);
  const memPath = shellQuote(config?.paths?.memory ?? "memory.db");
  root.appendChild(h("h1", {}, "Overview"));
  const grid = h("div", { class: "grid" });
  root.appendChild(grid);

  // Memory health report.
  const mem = stats.memory;
  if (!mem.exists) {
    grid.appendChild(
      card(
        "Memory health",
        emptyState(
          "No memory file yet",
          "Create one with the demo template to see the loop work on planted data, or with blank for your own.",
          `deja init --db ${memPath} --template coding-agent`,
        ),
      ),
    );
  } else {
    const counts = Object.entries(mem.counts ?? {}).filter(([t]) =>
      t !== "recommendation" && t !== "audit"
    );
    grid.appendChild(
      card(
        "Memory health",
        table([
          ...counts.map(([t, n]) => [t, String(n)]),
          ["open forks", String(mem.forks)],
          ["past valid_to", String(mem.expired)],
        ], ["grains", "live"]),
        mem.grains === 0
          ? emptyState(
            "The file holds no grains",
            "Remember something, or capture tool calls.",
            `deja remember "we deploy with blue-green" --db ${memPath}`,
          )
          : null,
      ),
    );
  }

  // Loop status.
  if (health.exists) {
    grid.appendChild(
      card(
        "Loop",
        h(
          "p",
          { class: "big" },
          h("a", {
            href: "?tab=loop&status=pending",
            onClick: (
              e,
            ) => (e.preventDefault(),
              ctx.navigate({ tab: "loop", status: "pending" })),
          }, `${health.pending} pending`),
          ` · ${health.approved} approved · ${health.applied} applied · ${health.total} total`,
        ),
        table([
          [
            "last run",
            health.last_run_ms
              ? `${when(health.last_run_ms)} (${age(health.last_run_ms)})`
              : "never",
          ],
          ["grains since", String(health.grains_since_run)],
          ["errors since", String(health.error_events_since_run)],
        ]),
        health.stale
          ? h(
            "div",
            { class: "notice" },
            h("p", {}, `Stale: ${health.stale_reasons.join("; ")}.`),
            copyable(`deja loop run --db ${memPath}`),
          )
          : null,
      ),
    );
  }

  // Activation ladder.
  const ladder = h("ol", { class: "ladder" });
  for (const a of analyzers.analyzers) {
    ladder.appendChild(
      h(
        "li",
        { class: a.active ? "on" : "off" },
        h(
          "span",
          { class: "dot", "aria-hidden": "true" },
          a.active ? "●" : "○",
        ),
        h("strong", {}, a.title),
        " ",
        h("span", { class: "muted" }, a.active ? "active" : a.reason),
      ),
    );
  }
  grid.appendChild(
    card(
      "Activation ladder",
      analyzers.exists ? ladder : emptyState(
        "Analyzers wait for a memory file",
        null,
        `deja init --db ${memPath} --template coding-agent`,
      ),
    ),
  );

  // Transcript index.
  const idx = stats.index;
  grid.appendChild(
    card(
      "Transcript index",
      idx.exists
        ? h(
          "div",
          {},
          h(
            "p",
            { class: "big" },
            `${idx.sessions} sessions · ${idx.records} records`,
          ),
          table(
            idx.harnesses.map((
              x,
            ) => [
              x.harness,
              String(x.sessions),
              String(x.records),
              String(x.errors.length),
            ]),
            [
              "harness",
              "sessions",
              "records",
              "errors",
            ],
          ),
          h(
            "p",
            { class: "muted" },
            `indexed ${idx.indexed_at ? age(idx.indexed_at) : "—"}`,
          ),
        )
        : emptyState(
          "Nothing indexed yet",
          "Index every agent transcript on this machine (secrets are redacted).",
          "deja index",
        ),
    ),
  );

  // Effective policy.
  const pol = config?.policy;
  grid.appendChild(
    card(
      "Effective policy",
      h(
        "p",
        {},
        "Source: ",
        badge(pol?.source ?? "closed default"),
        pol?.auto_apply_from_console
          ? badge("auto-apply from console runs", "warn")
          : null,
      ),
      h(
        "pre",
        { class: "json" },
        JSON.stringify(pol?.effective ?? {}, null, 2),
      ),
      h("h3", {}, "Trust floor (no setting changes it)"),
      h("ul", {}, (pol?.trust_floor ?? []).map((t) => h("li", {}, t))),
    ),
  );
}
