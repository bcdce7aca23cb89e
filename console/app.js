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
  showSignInError("");
  dialog.showModal();
  input.focus();
}

function showSignInError(text) {
  const p = document.getElementById("signin-error");
  p.textContent = text;
  p.hidden = !text;
}

/** Why a token was not kept, in the words the user can act on. */
function signInRefusal(err) {
  if (err?.status === 401 && err.problem?.reason === "token_mismatch") {
    const env = config?.server?.token_env;
    return `That token does not open writes: it is not the ${
      env ? `one in $${env}` : "console's token"
    }`;
  }
  // A silent server, a read-only restart, another origin: the server's words.
  return String(err?.message ?? err);
}

/**
 * Sign in's submit: an empty token signs out; any other is kept only once
 * the server says it opens writes. The dialog stays open on a refusal, so
 * the message sits beside the token that earned it.
 */
function watchSignIn() {
  const dialog = document.getElementById("signin-dialog");
  const input = dialog.querySelector("input");
  const ok = dialog.querySelector('button[value="ok"]');
  // Bumped when the dialog closes: a check still in flight then decides
  // nothing (the user cancelled it).
  let attempt = 0;
  dialog.addEventListener("close", () => {
    attempt++;
    ok.disabled = false;
  });
  // Cancel is no submit button, so Enter in the field means Sign in.
  dialog.querySelector('button[value="cancel"]').addEventListener(
    "click",
    () => dialog.close(),
  );
  dialog.querySelector("form").addEventListener("submit", async (e) => {
    const value = input.value.trim();
    if (!value) {
      api.setToken("");
      header();
      toast("Signed out");
      return;
    }
    e.preventDefault();
    const mine = ++attempt;
    showSignInError("");
    ok.disabled = true;
    let answer;
    try {
      answer = await api.checkToken(value);
    } catch (err) {
      if (mine !== attempt) return;
      ok.disabled = false;
      showSignInError(signInRefusal(err));
      input.select();
      return;
    }
    if (mine !== attempt) return;
    api.setToken(value);
    dialog.close();
    header();
    toast(`Signed in: this tab may write (${answer?.mode ?? mode()} mode)`);
  });
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
  watchSignIn();
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
