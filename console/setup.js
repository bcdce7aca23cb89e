// Setup: the live readiness checklist against the open files, each row with
// the command that satisfies it, and the harness sources deja reads.
import { badge, card, copyable, emptyState, h } from "./dom.js";
import * as api from "./api.js";

export async function renderSetup(root, ctx) {
  const [setup, sources] = await Promise.all([
    api.get("/api/setup"),
    api.get("/api/sources"),
  ]);
  root.appendChild(h("h1", {}, "Setup"));
  const memory = setup.items.find((i) => i.id === "memory");
  if (memory && !memory.ok) {
    root.appendChild(
      card(
        "Try it on planted data first",
        h(
          "p",
          {},
          "The demo template seeds a small memory file the analyzers flag, so the queue, review and apply work without touching your own data.",
        ),
        copyable(
          `deja init --db demo.db --template demo && deja loop run --db demo.db && deja ui --db demo.db`,
        ),
      ),
    );
  }
  root.appendChild(
    card(
      `Checklist (${setup.done} of ${setup.total})`,
      h(
        "ol",
        { class: "checklist" },
        setup.items.map((i) =>
          h(
            "li",
            { class: i.ok ? "ok" : "todo", "data-id": i.id },
            h(
              "span",
              { class: "mark", "aria-label": i.ok ? "done" : "to do" },
              i.ok ? "✓" : "○",
            ),
            h("strong", {}, i.label),
            " ",
            h("span", { class: "muted" }, i.detail),
            i.ok && i.id !== "schedule" ? null : copyable(i.command),
          )
        ),
      ),
    ),
  );
  const rows = sources.sources.filter((s) => s.sessions > 0 || s.roots.length);
  root.appendChild(
    card(
      "Sources",
      sources.indexed ? null : emptyState(
        "No index yet",
        "deja reads these harnesses' transcripts when you index.",
        "deja index",
      ),
      h(
        "table",
        {},
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            ["harness", "sessions", "records", "roots", "errors"].map((x) =>
              h("th", { scope: "col" }, x)
            ),
          ),
        ),
        h(
          "tbody",
          {},
          rows.map((s) =>
            h(
              "tr",
              {},
              h("th", { scope: "row" }, s.name, " ", badge(s.id, "muted")),
              h("td", {}, String(s.sessions)),
              h("td", {}, String(s.records)),
              h("td", { class: "small" }, s.roots.join(", ") || "—"),
              h("td", {}, String(s.errors.length)),
            )
          ),
        ),
      ),
    ),
  );
  void ctx;
}
