// Memories: a grain browser by type and namespace, and an inspector drawer
// with the grain's fields, its supersession chain, the provenance walk and
// the recommendations that cite it. Deep link: ?tab=memories&grain=<hash>.
import {
  add,
  age,
  badge,
  clear,
  emptyState,
  h,
  shellQuote,
  short,
  visible,
  when,
} from "./dom.js";
import * as api from "./api.js";

const TYPES = ["", "fact", "observation", "event", "skill", "goal", "note"];

function chips(g) {
  return [
    g.current === false && !g.tombstoned ? badge("superseded", "muted") : null,
    g.tombstoned ? badge("forgotten", "warn") : null,
    g.expired ? badge("past valid_to", "warn") : null,
  ];
}

function fields(grain) {
  const rows = Object.entries(grain).map(([k, v]) =>
    h(
      "tr",
      {},
      h("th", { scope: "row" }, k),
      h(
        "td",
        {},
        h(
          "pre",
          {},
          visible(typeof v === "string" ? v : JSON.stringify(v, null, 2)),
        ),
      ),
    )
  );
  return h("table", { class: "fields" }, h("tbody", {}, rows));
}

async function openDrawer(drawer, hash, ctx) {
  clear(drawer).appendChild(h("p", { class: "muted" }, "Loading…"));
  drawer.hidden = false;
  let g;
  try {
    g = await api.get(`/api/memory/grain/${encodeURIComponent(hash)}`);
  } catch (err) {
    clear(drawer).appendChild(
      emptyState("Cannot open this grain", err.message),
    );
    return;
  }
  const link = (h2, text) =>
    h("a", {
      href: `?tab=memories&grain=${encodeURIComponent(h2)}`,
      onClick: (e) => {
        e.preventDefault();
        ctx.setParams({ grain: h2 });
        openDrawer(drawer, h2, ctx);
      },
    }, text);
  add(
    clear(drawer),
    h(
      "div",
      { class: "drawer-head" },
      h("h2", {}, `${g.type} `, h("code", {}, short(g.hash))),
      h("button", {
        type: "button",
        class: "close",
        "aria-label": "Close inspector",
        onClick: () => {
          drawer.hidden = true;
          ctx.setParams({ grain: "" });
        },
      }, "×"),
    ),
    h("p", {}, visible(g.label), " ", ...chips(g)),
    h(
      "p",
      { class: "muted" },
      `${g.namespace} · ${g.actor} · ${when(g.created_at)}`,
    ),
    h("h3", {}, "Fields"),
    fields(g.grain),
    h("h3", {}, `Supersession chain (${g.chain.length})`),
    h(
      "ol",
      { class: "chain" },
      g.chain.map((c) =>
        h(
          "li",
          { class: c.hash === g.hash ? "self" : "" },
          link(c.hash, short(c.hash)),
          " ",
          visible(c.label),
          " ",
          ...chips(c),
        )
      ),
    ),
    h("h3", {}, "Provenance"),
    g.provenance.length
      ? h(
        "ul",
        {},
        g.provenance.map((p) =>
          h(
            "li",
            {},
            "↑".repeat(p.depth),
            " ",
            p.found
              ? link(p.hash, short(p.hash))
              : h("code", {}, short(p.hash)),
            " ",
            p.found ? visible(p.label) : "(not in this file)",
          )
        ),
      )
      : h("p", { class: "muted" }, "No derived_from links."),
    h("h3", {}, "Recommendations citing this grain"),
    g.cited_by.length
      ? h(
        "ul",
        {},
        g.cited_by.map((r) =>
          h(
            "li",
            {},
            h("a", {
              href: `?tab=loop&rec=${r.hash}`,
              onClick: (
                e,
              ) => (e.preventDefault(),
                ctx.navigate({ tab: "loop", rec: r.hash })),
            }, short(r.hash)),
            " ",
            badge(r.status),
            " ",
            visible(r.summary),
          )
        ),
      )
      : h("p", { class: "muted" }, "None."),
  );
}

export async function renderMemories(root, ctx) {
  const p = ctx.params();
  const state = {
    type: p.get("type") ?? "",
    namespace: p.get("ns") ?? "",
    q: p.get("mq") ?? "",
    include: p.get("include") ?? "current",
    offset: 0,
  };
  root.appendChild(h("h1", {}, "Memories"));
  const filters = h("div", { class: "filters" });
  const list = h("div", { class: "list" });
  const drawer = h("aside", {
    class: "drawer",
    hidden: true,
    "aria-label": "Grain inspector",
  });
  add(root, filters, h("div", { class: "split" }, list, drawer));

  async function load() {
    ctx.setParams({
      type: state.type,
      ns: state.namespace,
      mq: state.q,
      include: state.include === "current" ? "" : state.include,
    });
    const res = await api.get("/api/memory/grains", {
      type: state.type,
      namespace: state.namespace,
      q: state.q,
      include: state.include,
      limit: 100,
      offset: state.offset,
    });
    clear(filters);
    clear(list);
    if (!res.exists) {
      list.appendChild(
        emptyState(
          "No memory file yet",
          "The console browses the memory file given with --db.",
          `deja init --db ${
            shellQuote(ctx.config?.paths?.memory ?? "memory.db")
          } --template coding-agent`,
        ),
      );
      return;
    }
    const typeSel = h(
      "select",
      {
        "aria-label": "Grain type",
        onChange: (
          e,
        ) => ((state.type = e.target.value), (state.offset = 0), load()),
      },
      TYPES.map((t) =>
        h(
          "option",
          { value: t, selected: t === state.type },
          t ? `${t} (${res.counts[t] ?? 0})` : "all types",
        )
      ),
    );
    const nsSel = h(
      "select",
      {
        "aria-label": "Namespace",
        onChange: (
          e,
        ) => ((state.namespace = e.target.value), (state.offset = 0), load()),
      },
      h("option", { value: "" }, "all namespaces"),
      res.namespaces.map((n) =>
        h(
          "option",
          { value: n.name, selected: n.name === state.namespace },
          `${n.name} (${n.count})`,
        )
      ),
    );
    const text = h("input", {
      type: "search",
      placeholder: "Filter words",
      "aria-label": "Filter grains",
      value: state.q,
    });
    text.addEventListener(
      "change",
      () => ((state.q = text.value), (state.offset = 0), load()),
    );
    const all = h(
      "label",
      {},
      h("input", {
        type: "checkbox",
        checked: state.include === "all",
        onChange: (
          e,
        ) => ((state.include = e.target.checked ? "all" : "current"), load()),
      }),
      " include superseded and forgotten",
    );
    add(filters, typeSel, nsSel, text, all);
    if (res.total === 0) {
      list.appendChild(
        emptyState(
          "No grains match",
          state.q || state.type || state.namespace
            ? "Clear the filters."
            : "Remember something or capture tool calls.",
          `deja remember "what to keep" --db ${
            shellQuote(ctx.config?.paths?.memory ?? "memory.db")
          }`,
        ),
      );
      return;
    }
    const rows = res.grains.map((g) =>
      h(
        "tr",
        {
          tabindex: "0",
          class: "clickable",
          "data-hash": g.hash,
          onClick:
            () => (ctx.setParams({ grain: g.hash }),
              openDrawer(drawer, g.hash, ctx)),
          onKeydown: (e) =>
            e.key === "Enter" &&
            (ctx.setParams({ grain: g.hash }), openDrawer(drawer, g.hash, ctx)),
        },
        h("td", {}, badge(g.type)),
        h("td", { class: "label" }, visible(g.label), " ", ...chips(g)),
        h("td", {}, g.namespace),
        h("td", { class: "muted" }, age(g.created_at)),
      )
    );
    add(
      list,
      h("p", { class: "muted" }, `${res.total} grains`),
      h(
        "table",
        { class: "grains" },
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            ["type", "content", "namespace", "age"].map((x) =>
              h("th", { scope: "col" }, x)
            ),
          ),
        ),
        h("tbody", {}, rows),
      ),
      res.total > state.offset + res.grains.length
        ? h("button", {
          type: "button",
          onClick: () => ((state.offset += 100), load()),
        }, "Next 100")
        : null,
      state.offset > 0
        ? h("button", {
          type: "button",
          onClick:
            () => ((state.offset = Math.max(0, state.offset - 100)), load()),
        }, "Previous")
        : null,
    );
  }

  await load();
  const grain = p.get("grain");
  if (grain) await openDrawer(drawer, grain, ctx);
}
