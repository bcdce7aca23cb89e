// The console shell: tabs, deep links (?tab=…), theme, mode badge, sign-in,
// toasts. Each tab lives in its own module and renders into <main>.
import { clear, h } from "./dom.js";
import * as api from "./api.js";
import { renderOverview } from "./overview.js";
import { renderMemories } from "./memories.js";
import { renderSessions } from "./sessions.js";
import { renderLoop } from "./loop.js";
import { renderSetup } from "./setup.js";

const VIEWS = {
  overview: renderOverview,
  memories: renderMemories,
  sessions: renderSessions,
  loop: renderLoop,
  setup: renderSetup,
};

const main = document.getElementById("view");
let cleanup = null;
let config = null;
let renderSeq = 0;

function applyTheme(theme) {
  document.documentElement.dataset.theme = theme;
  try {
    localStorage.setItem("deja-theme", theme);
  } catch {
    // Not persisted.
  }
}

function initialTheme() {
  try {
    const saved = localStorage.getItem("deja-theme");
    if (saved === "light" || saved === "dark") return saved;
  } catch {
    // Fall through.
  }
  return matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}

function toast(text, kind = "") {
  const box = document.getElementById("toast");
  const item = h("div", { class: `toast ${kind}`.trim() }, text);
  box.appendChild(item);
  setTimeout(() => item.remove(), 5000);
}

function params() {
  return new URLSearchParams(location.search);
}

function navigate(next, { replace = false } = {}) {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(next)) {
    if (v !== undefined && v !== null && v !== "") qs.set(k, String(v));
  }
  const url = `?${qs.toString()}`;
  if (replace) history.replaceState(null, "", url);
  else history.pushState(null, "", url);
  render();
}

/**
 * Changes the query string without re-rendering: in place for search box
 * typing, as a history entry with `push` (opening a session, so Back
 * closes it).
 */
function setParams(next, { push = false } = {}) {
  const qs = params();
  for (const [k, v] of Object.entries(next)) {
    if (v === undefined || v === null || v === "") qs.delete(k);
    else qs.set(k, String(v));
  }
  if (push) history.pushState(null, "", `?${qs.toString()}`);
  else history.replaceState(null, "", `?${qs.toString()}`);
}

function mode() {
  return config?.server?.mode ?? "read-only";
}

function canReview() {
  return mode() !== "read-only";
}

function canApply() {
  return mode() === "apply" || mode() === "apply+destructive";
}

function signIn() {
  const dialog = document.getElementById("signin-dialog");
  const input = dialog.querySelector("input");
  input.value = "";
  dialog.showModal();
  input.focus();
}

async function refreshPending() {
  const pill = document.getElementById("pending-pill");
  try {
    const res = await api.get("/api/loop/recommendations", {
      status: "pending",
    });
    const n = res.recommendations.length;
    pill.textContent = String(n);
    pill.hidden = n === 0;
  } catch {
    pill.hidden = true;
  }
}

function header() {
  const badge = document.getElementById("mode-badge");
  const m = mode();
  badge.textContent = m === "read-only" ? "read-only" : m;
  badge.className = `badge mode-${m.replace("+", "-")}`;
  badge.title = m === "read-only"
    ? "Restart deja ui with --token-env VAR to review"
    : `Writes need the token from $${config?.server?.token_env ?? "VAR"}`;
  document.getElementById("db-label").textContent = config?.paths?.memory ?? "";
  const signin = document.getElementById("signin");
  signin.hidden = m === "read-only";
  const viaBrowser = !api.token() && api.browserSignedIn();
  signin.textContent = api.token() || viaBrowser ? "Signed in" : "Sign in";
  signin.title = viaBrowser
    ? "Signed in through the browser's login prompt; it lasts until the browser closes"
    : "";
  const banner = clear(document.getElementById("banner"));
  if (m === "read-only") {
    banner.appendChild(
      h(
        "p",
        { class: "notice" },
        "Read-only console: searching, reading and dry runs work. To review, restart with ",
        h("code", {}, "--token-env VAR"),
        "; add ",
        h("code", {}, "--allow-apply"),
        " to apply.",
      ),
    );
  }
}

const ctx = {
  get config() {
    return config;
  },
  get mode() {
    return mode();
  },
  params,
  navigate,
  setParams,
  toast,
  canReview,
  canApply,
  signIn,
  refreshPending,
};

async function render() {
  const seq = ++renderSeq;
  if (typeof cleanup === "function") cleanup();
  cleanup = null;
  const p = params();
  const tab = VIEWS[p.get("tab")] ? p.get("tab") : "overview";
  for (const b of document.querySelectorAll("#tabs button")) {
    b.setAttribute("aria-current", b.dataset.tab === tab ? "page" : "false");
  }
  clear(main);
  try {
    const result = await VIEWS[tab](main, ctx);
    if (seq === renderSeq) cleanup = result ?? null;
    else if (typeof result === "function") result();
  } catch (err) {
    if (seq !== renderSeq) return;
    clear(main).appendChild(
      h(
        "div",
        { class: "empty error" },
        h("h3", {}, "Could not load this view"),
        h("p", {}, String(err?.message ?? err)),
      ),
    );
  }
}

async function start() {
  applyTheme(initialTheme());
  document.getElementById("theme").addEventListener("click", () => {
    applyTheme(
      document.documentElement.dataset.theme === "dark" ? "light" : "dark",
    );
  });
  for (const b of document.querySelectorAll("#tabs button")) {
    b.addEventListener("click", () => navigate({ tab: b.dataset.tab }));
  }
  document.getElementById("signin").addEventListener("click", signIn);
  const dialog = document.getElementById("signin-dialog");
  dialog.querySelector("form").addEventListener("submit", (e) => {
    const value = dialog.querySelector("input").value.trim();
    if (e.submitter?.value === "cancel") return;
    api.setToken(value);
    header();
    toast(value ? "Token kept for this tab" : "Signed out");
  });
  document.addEventListener("keydown", (e) => {
    const typing = e.target instanceof HTMLInputElement ||
      e.target instanceof HTMLTextAreaElement ||
      e.target instanceof HTMLSelectElement;
    if (e.key === "/" && !typing) {
      const box = document.getElementById("search");
      if (box) {
        e.preventDefault();
        box.focus();
      }
    }
  });
  addEventListener("popstate", render);
  addEventListener("deja-auth", header);
  try {
    config = await api.get("/api/config");
  } catch {
    config = null;
  }
  header();
  refreshPending();
  await render();
  document.body.dataset.ready = "1";
}

start();
