// DOM helpers. Every dynamic string reaches the page as a text node or an
// attribute value set through the DOM API; nothing here parses HTML.

const ENC = new TextEncoder();
const DEC = new TextDecoder();

/**
 * Builds an element. `props`: class, text, on<Event> handlers, booleans
 * (hidden, disabled, checked), data-* and aria-* and a few plain attributes.
 * Children: strings become text nodes; nodes are appended; null/false skipped.
 */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "text") el.textContent = String(value);
    else if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2).toLowerCase(), value);
    } else if (key === "href") el.setAttribute("href", safeHref(value));
    else if (key === "value") el.value = value;
    else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (child instanceof Node) el.appendChild(child);
    else el.appendChild(document.createTextNode(String(child)));
  }
}

/** Only in-console links: query strings and fragments. */
function safeHref(value) {
  const v = String(value);
  if (v.startsWith("?") || v.startsWith("#") || v === "/") return v;
  throw new Error("refusing a link that leaves the console");
}

/** Appends children like {@link h} does: null and false are skipped. */
export function add(el, ...children) {
  append(el, children);
  return el;
}

/** Removes every child. */
export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

// Characters that can hide or reorder text: C0/C1 controls (terminal
// escapes), bidi embeddings, overrides and isolates, zero-width marks.
const HIDDEN =
  // deno-lint-ignore no-control-regex
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;

function label(ch) {
  const code = ch.codePointAt(0);
  if (code < 0x20) return String.fromCodePoint(0x2400 + code);
  if (code === 0x7f) return "\u2421";
  return `\u27e8U+${code.toString(16).toUpperCase().padStart(4, "0")}\u27e9`;
}

/**
 * Text made visible: controls and bidi/zero-width characters are shown as
 * marked symbols (ESC as ␛, U+202E as ⟨U+202E⟩) instead of acting on the
 * page. Returns a fragment of text nodes and spans.
 */
export function visible(text) {
  const frag = document.createDocumentFragment();
  const s = String(text ?? "");
  let at = 0;
  for (const m of s.matchAll(HIDDEN)) {
    if (m.index > at) {
      frag.appendChild(document.createTextNode(s.slice(at, m.index)));
    }
    const code = m[0].codePointAt(0).toString(16).toUpperCase().padStart(
      4,
      "0",
    );
    frag.appendChild(
      h("span", { class: "ctl", title: `U+${code}` }, label(m[0])),
    );
    at = m.index + m[0].length;
  }
  if (at < s.length) frag.appendChild(document.createTextNode(s.slice(at)));
  return frag;
}

/**
 * A snippet with highlights. `ranges` are byte offsets into the original
 * text; `offset` is the snippet's byte offset in it. The server computed
 * both: the client only cuts bytes.
 */
export function highlighted(snippet, offset, ranges) {
  const bytes = ENC.encode(String(snippet ?? ""));
  const frag = document.createDocumentFragment();
  let at = 0;
  for (const [s0, e0] of ranges ?? []) {
    const s = Math.max(0, s0 - (offset ?? 0));
    const e = Math.min(bytes.length, e0 - (offset ?? 0));
    if (e <= s || s < at) continue;
    if (s > at) frag.appendChild(visible(DEC.decode(bytes.subarray(at, s))));
    frag.appendChild(h("mark", {}, visible(DEC.decode(bytes.subarray(s, e)))));
    at = e;
  }
  if (at < bytes.length) {
    frag.appendChild(visible(DEC.decode(bytes.subarray(at))));
  }
  return frag;
}

/**
 * One word for a POSIX shell, single-quoted unless it is plainly safe: a
 * command offered for copying must not run what a query or path holds.
 */
export function shellQuote(word) {
  const s = String(word);
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(s)) return s;
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

/** A command in a code block with a Copy button. */
export function copyable(command) {
  const code = h("code", {}, visible(command));
  const button = h("button", {
    class: "copy",
    type: "button",
    "aria-label": "Copy command",
    onClick: async () => {
      try {
        await navigator.clipboard.writeText(command);
        button.textContent = "Copied";
      } catch {
        const range = document.createRange();
        range.selectNodeContents(code);
        getSelection()?.removeAllRanges();
        getSelection()?.addRange(range);
        button.textContent = "Select + copy";
      }
      setTimeout(() => (button.textContent = "Copy"), 1500);
    },
  }, "Copy");
  return h("div", { class: "cmd" }, code, button);
}

/** "3 h ago" style ages. */
export function age(ms, now = Date.now()) {
  if (ms === null || ms === undefined) return "—";
  const d = Math.max(0, now - ms);
  if (d < 60_000) return "just now";
  if (d < 3_600_000) return `${Math.floor(d / 60_000)} min ago`;
  if (d < 86_400_000) return `${Math.floor(d / 3_600_000)} h ago`;
  return `${Math.floor(d / 86_400_000)} d ago`;
}

/** A local date-time. */
export function when(ms) {
  if (ms === null || ms === undefined) return "—";
  // Date and time both local: toISOString() is UTC, a day off at night.
  const d = new Date(ms);
  const two = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${
    two(d.getHours())
  }:${two(d.getMinutes())}`;
}

/** A short hash. */
export function short(hash) {
  return String(hash ?? "").slice(0, 12);
}

/** An empty state that names the next step. */
export function emptyState(title, text, command) {
  return h(
    "div",
    { class: "empty" },
    h("h3", {}, title),
    text ? h("p", {}, text) : null,
    command ? copyable(command) : null,
  );
}

/** A card. */
export function card(title, ...children) {
  return h(
    "section",
    { class: "card" },
    title ? h("h2", {}, title) : null,
    ...children,
  );
}

/** A small badge. */
export function badge(text, kind = "") {
  return h("span", { class: `badge ${kind}`.trim() }, text);
}
