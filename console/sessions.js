// Sessions: message search over every indexed transcript, with filter words
// (codex:, in:<project>, today / week / month), server-anchored highlights,
// and a reader that opens at the hit. Deep links:
// ?tab=sessions&q=<query>  and  &open=<harness>:<id>&locate=<locator>.
import {
  add,
  age,
  badge,
  clear,
  emptyState,
  h,
  highlighted,
  shellQuote,
  visible,
  when,
} from "./dom.js";
import * as api from "./api.js";

const PAGE = 20;
const READER_PAGE = 200;

function hitBadges(x) {
  return [
    x.superseded ? badge("superseded", "warn") : null,
    x.subagent ? badge("sub-agent", "info") : null,
    x.truncated ? badge("truncated", "muted") : null,
  ];
}

export async function renderSessions(root, ctx) {
  const p = ctx.params();
  let query = p.get("q") ?? "";
  let seq = 0;
  let inflight = null;
  let debounce = 0;
  const hitRanges = new Map();

  root.appendChild(h("h1", {}, "Sessions"));
  const box = h("input", {
    id: "search",
    type: "search",
    value: query,
    placeholder:
      'Search what was said — e.g. "connection refused" codex: in:api week',
    "aria-label": "Search messages",
    autocomplete: "off",
    spellcheck: "false",
  });
  const help = h(
    "p",
    { class: "muted small" },
    "Filter words: ",
    h("code", {}, "codex:"),
    " (any harness id), ",
    h("code", {}, "in:<project>"),
    ", ",
    h("code", {}, "today"),
    " / ",
    h("code", {}, "week"),
    " / ",
    h("code", {}, "month"),
    '. Quote a filter word to search for it. Press "/" to focus.',
  );
  const status = h("div", { class: "status", role: "status" });
  const results = h("div", {
    class: "results",
    "aria-label": "Search results",
  });
  const reader = h("section", {
    class: "reader",
    hidden: true,
    "aria-label": "Session reader",
  });
  add(root, box, help, status, h("div", { class: "split" }, results, reader));

  function renderGroup(g) {
    const open = (hit) => {
      const params = { open: g.session_key };
      if (hit) {
        params.locate = hit.locate;
        hitRanges.set(hit.locate, hit.ranges);
      } else params.locate = "";
      ctx.setParams(params, { push: true });
      loadReader(g.session_key, hit?.locate ?? null, 0);
    };
    return h(
      "article",
      { class: "group", "data-key": g.session_key },
      h(
        "h3",
        {},
        h("a", {
          href: `?tab=sessions&open=${encodeURIComponent(g.session_key)}`,
          onClick: (e) => (e.preventDefault(), open(null)),
        }, visible(g.title || "(untitled)")),
      ),
      h(
        "p",
        { class: "meta" },
        badge(g.source),
        " ",
        g.project ? `${g.project} · ` : "",
        age(g.best_ts_ms),
        g.total_hits
          ? ` · ${g.total_hits} hit${g.total_hits === 1 ? "" : "s"}`
          : "",
        g.lineage ? " · " : "",
        g.lineage ? badge(`${g.lineage}`, "info") : null,
      ),
      g.hits.length
        ? h(
          "ul",
          { class: "hits" },
          g.hits.map((hit) =>
            h(
              "li",
              {},
              h(
                "button",
                {
                  type: "button",
                  class: "hit",
                  onClick: () => open(hit),
                  "data-seq": String(hit.seq),
                },
                h("span", { class: `role role-${hit.role}` }, hit.role),
                " ",
                h("span", { class: "muted" }, when(hit.ts_ms)),
                " ",
                ...hitBadges(hit),
                h(
                  "span",
                  { class: "snippet" },
                  highlighted(
                    hit.snippet,
                    hit.snippet_offset_bytes,
                    hit.ranges,
                  ),
                ),
              ),
            )
          ),
        )
        : null,
    );
  }

  /**
   * The CLI line that searches commands and tool output with the same
   * terms and the same filter words (harness, project, time window).
   */
  function cliSearch(q) {
    const words = ["deja", "search", ...q.terms.map(shellQuote)];
    for (const id of q.harnesses ?? []) words.push("--harness", shellQuote(id));
    if (q.project) words.push("--project", shellQuote(q.project));
    if (q.window === "week") words.push("--since", "7d");
    else if (q.window === "month") words.push("--since", "30d");
    else if (q.since_ms) {
      const hours = Math.max(1, Math.ceil((Date.now() - q.since_ms) / 3.6e6));
      words.push("--since", `${hours}h`);
    }
    words.push("--role", "tool-output");
    return words.join(" ");
  }

  async function search(cursor = null) {
    const my = ++seq;
    inflight?.abort();
    inflight = new AbortController();
    if (!cursor) {
      clear(results);
      clear(status).appendChild(h("span", { class: "muted" }, "Searching…"));
    }
    let res;
    try {
      res = await api.get("/api/sessions/message-search", {
        q: query,
        limit: PAGE,
        cursor,
      }, inflight.signal);
    } catch (err) {
      if (err?.name === "AbortError" || my !== seq) return;
      if (err?.status === 410) {
        ctx.toast("The index changed since this page: the search restarted");
        return search(null);
      }
      if (err?.status === 429) {
        clear(status).appendChild(
          h(
            "p",
            { class: "notice" },
            "Two searches are already running; retrying…",
          ),
        );
        setTimeout(() => my === seq && search(cursor), 400);
        return;
      }
      clear(status).appendChild(
        h(
          "p",
          { class: err?.status === 400 ? "muted" : "error" },
          err?.message ?? String(err),
        ),
      );
      return;
    }
    if (my !== seq) return;
    clear(status);
    results.querySelector(".more")?.remove();
    // "empty": no index and no pass running (the console starts none);
    // "building": a pass holds the index lock right now.
    if (res.state === "empty") {
      results.appendChild(
        emptyState(
          "Nothing is indexed yet",
          "Index the transcripts of every agent on this machine; secrets are redacted first.",
          "deja index",
        ),
      );
      return;
    }
    if (res.state === "building") {
      results.appendChild(
        emptyState(
          "The index is being built",
          "An index pass is running now. Search again in a moment.",
        ),
      );
      return;
    }
    if (res.state === "partial") {
      status.appendChild(
        h(
          "p",
          { class: "notice" },
          res.partial_reason === "timeout"
            ? "Partial answer: the 150 ms budget ran out. Narrow the search (a harness, in:<project>, week) or search again."
            : "Partial answer: the response budget was reached. Load more to continue.",
        ),
      );
    }
    // A search cut short found nothing yet: the notice says so, and "No
    // message matches" would be untrue.
    if (!cursor && res.sessions.length === 0 && res.state !== "partial") {
      results.appendChild(
        emptyState(
          res.mode === "browse"
            ? "No sessions match the filters"
            : "No message matches",
          res.mode === "browse"
            ? "Clear a filter word, or index more harnesses."
            : "Message search covers what users and assistants said. For commands and tool output use the CLI:",
          res.mode === "browse" ? "deja sources" : cliSearch(res.query),
        ),
      );
      return;
    }
    if (!cursor) {
      results.appendChild(
        h(
          "p",
          { class: "muted small" },
          res.mode === "browse"
            ? "Recent sessions"
            : `Sessions by most recent hit${
              res.query.include_superseded ? "" : " (active records only)"
            }`,
        ),
      );
    }
    for (const g of res.sessions) results.appendChild(renderGroup(g));
    if (res.cursor) {
      results.appendChild(
        h("button", {
          type: "button",
          class: "more",
          onClick: () => search(res.cursor),
        }, "More sessions"),
      );
    }
  }

  async function loadReader(key, locate, offset, focusSeq = null) {
    const colon = key.indexOf(":");
    const harness = key.slice(0, colon);
    const id = key.slice(colon + 1);
    reader.hidden = false;
    root.classList.add("reading");
    clear(reader).appendChild(h("p", { class: "muted" }, "Opening…"));
    let d;
    try {
      d = await api.get(
        `/api/session/${encodeURIComponent(harness)}/${encodeURIComponent(id)}`,
        {
          locate: locate ?? undefined,
          offset: locate ? undefined : offset,
          limit: READER_PAGE,
        },
      );
    } catch (err) {
      clear(reader).appendChild(
        emptyState("Cannot open this session", err.message),
      );
      return;
    }
    const s = d.session;
    const close = h("button", {
      type: "button",
      class: "close",
      "aria-label": "Close reader",
      onClick: () => {
        reader.hidden = true;
        root.classList.remove("reading");
        ctx.setParams({ open: "", locate: "" });
      },
    }, "×");
    const note = d.locate
      ? d.locate.state === "resolved"
        ? h(
          "p",
          { class: "ok small" },
          `Opened at the hit: record ${
            d.locate.total_index + 1
          } of ${d.total}.`,
        )
        : h(
          "p",
          { class: "notice" },
          `${
            d.locate.state === "stale"
              ? "The hit is stale"
              : "The hit is unavailable"
          }: ${d.locate.reason}. Showing the session from the start.`,
        )
      : null;
    const pager = h(
      "div",
      { class: "pager" },
      d.offset > 0
        ? h("button", {
          type: "button",
          onClick: () =>
            loadReader(key, null, Math.max(0, d.offset - READER_PAGE)),
        }, "Earlier")
        : null,
      h(
        "span",
        { class: "muted small" },
        `records ${d.total ? d.offset + 1 : 0}–${
          d.offset + d.entries.length
        } of ${d.total}`,
      ),
      d.offset + d.entries.length < d.total
        ? h("button", {
          type: "button",
          onClick: () => loadReader(key, null, d.offset + READER_PAGE),
        }, "Later")
        : null,
    );
    const located = d.locate?.state === "resolved"
      ? d.locate.entry_index
      : focusSeq !== null
      ? d.entries.findIndex((e) => e.seq === focusSeq)
      : -1;
    const ranges = locate ? hitRanges.get(locate) : undefined;
    const entries = h(
      "ol",
      { class: "entries" },
      d.entries.map((e, i) =>
        h(
          "li",
          {
            class: [
              "entry",
              `role-${e.role}`,
              e.superseded ? "superseded" : "",
              e.subagent ? "subagent" : "",
              i === located ? "located" : "",
            ].filter(Boolean).join(" "),
            "data-seq": String(e.seq),
            tabindex: i === located ? "-1" : undefined,
          },
          h(
            "div",
            { class: "entry-head" },
            h("span", { class: `role role-${e.role}` }, e.role),
            " ",
            h("span", { class: "muted" }, when(e.ts_ms)),
            " ",
            e.superseded
              ? badge(
                "superseded: a rollback, undo or rewind made this inactive",
                "warn",
              )
              : null,
            e.subagent ? badge("sub-agent", "info") : null,
            e.is_error ? badge("error", "bad") : null,
            e.exit_code !== null && e.exit_code !== 0
              ? badge(`exit ${e.exit_code}`, "bad")
              : null,
            e.tool ? badge(e.tool, "muted") : null,
            e.clipped ? badge("clipped for display", "muted") : null,
          ),
          h(
            "pre",
            { class: "text" },
            i === located && ranges && !e.clipped
              ? highlighted(e.text, 0, ranges)
              : visible(e.text),
          ),
        )
      ),
    );
    add(
      clear(reader),
      h(
        "div",
        { class: "reader-head" },
        h("h2", {}, visible(s.title || "(untitled)")),
        close,
      ),
      h(
        "p",
        { class: "meta" },
        badge(s.harness),
        " ",
        s.project ? `${s.project} · ` : "",
        h("code", {}, s.id),
        s.lineage ? ` · ${s.lineage} of ${s.parent}` : "",
      ),
      h("p", { class: "muted small path" }, visible(s.path)),
      note,
      pager,
      entries,
    );
    const target = entries.querySelector(".located");
    if (target) {
      // Scroll the reader, not the page: the search box stays in view.
      if (getComputedStyle(reader).overflowY === "auto") {
        const top = target.getBoundingClientRect().top -
          reader.getBoundingClientRect().top;
        reader.scrollTop += top - reader.clientHeight / 3;
      } else target.scrollIntoView({ block: "center" });
      target.focus({ preventScroll: true });
    }
  }

  box.addEventListener("input", () => {
    clearTimeout(debounce);
    debounce = setTimeout(() => {
      query = box.value;
      ctx.setParams({ q: query });
      search();
    }, 225);
  });
  box.addEventListener("keydown", (e) => {
    if (e.key === "Enter") {
      clearTimeout(debounce);
      query = box.value;
      ctx.setParams({ q: query });
      search();
    }
  });

  await search();
  const open = p.get("open");
  const seqParam = Number(p.get("seq"));
  if (open && open.includes(":")) {
    if (!p.get("locate") && Number.isInteger(seqParam) && p.get("seq")) {
      await loadReader(open, null, Math.max(0, seqParam - 100), seqParam);
    } else await loadReader(open, p.get("locate"), 0);
  }
  return () => {
    clearTimeout(debounce);
    inflight?.abort();
  };
}
