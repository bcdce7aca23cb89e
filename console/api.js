// The API client. Reads are plain GETs; writes send the token as a Bearer
// header when the user signed in (the token lives in this tab's
// sessionStorage only). Errors arrive as problem JSON.

const TOKEN_KEY = "deja-token";
// Set when a write succeeded without a kept token: the browser's own Basic
// prompt supplied it (and keeps sending it until the browser closes).
const BROWSER_KEY = "deja-browser-auth";

/** A failed API call with the server's problem body. */
export class ApiError extends Error {
  constructor(status, problem) {
    super(problem?.detail ?? `HTTP ${status}`);
    this.status = status;
    this.problem = problem ?? {};
  }
}

export function token() {
  try {
    return sessionStorage.getItem(TOKEN_KEY) ?? "";
  } catch {
    return "";
  }
}

export function setToken(value) {
  try {
    if (value) sessionStorage.setItem(TOKEN_KEY, value);
    else sessionStorage.removeItem(TOKEN_KEY);
  } catch {
    // Storage disabled: the token cannot be kept.
  }
}

/** Whether the browser's Basic prompt opened a write in this tab. */
export function browserSignedIn() {
  try {
    return sessionStorage.getItem(BROWSER_KEY) === "1";
  } catch {
    return false;
  }
}

function setBrowserSignedIn(on) {
  try {
    if (on) sessionStorage.setItem(BROWSER_KEY, "1");
    else sessionStorage.removeItem(BROWSER_KEY);
  } catch {
    // Not kept.
  }
}

function query(params) {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(params ?? {})) {
    if (v === undefined || v === null || v === "") continue;
    if (Array.isArray(v)) { for (const x of v) qs.append(k, String(x)); }
    else qs.set(k, String(v));
  }
  const s = qs.toString();
  return s ? `?${s}` : "";
}

// fetch() rejects with a bare "Failed to fetch" when nothing answers: say
// what that means here. An abort passes through untouched.
async function send(path, init) {
  try {
    return await fetch(path, init);
  } catch (err) {
    if (err?.name === "AbortError") throw err;
    throw new ApiError(0, {
      detail:
        `The deja server at ${location.host} does not answer: is deja ui still running? Start it again, then reload`,
    });
  }
}

async function handle(res) {
  const text = await res.text();
  let body = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = { detail: text.slice(0, 200) };
  }
  if (!res.ok) throw new ApiError(res.status, body);
  return body;
}

/** GET a JSON route. */
export async function get(path, params, signal) {
  const res = await send(path + query(params), {
    headers: { accept: "application/json" },
    credentials: "same-origin",
    ...(signal ? { signal } : {}),
  });
  return handle(res);
}

/**
 * Asks the server whether a token opens writes (`POST /api/auth/check`,
 * which writes nothing), before Sign in keeps it. The token is sent as
 * given; the kept token and the browser's sign-in are left alone. Resolves
 * to `{ok, mode}`; a refusal rejects with the ApiError of any write (401
 * with `problem.reason`), a silent server with the "does not answer" one.
 */
export async function checkToken(value) {
  // fetch() refuses such a header outright: say so, not "does not answer".
  if (!/^[\x20-\x7e]+$/.test(value)) {
    throw new ApiError(400, {
      detail:
        "That token cannot be sent: it holds characters other than printable ASCII",
    });
  }
  const res = await send("/api/auth/check", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json",
      authorization: `Bearer ${value}`,
    },
    body: "{}",
    credentials: "same-origin",
  });
  return handle(res);
}

/**
 * POST a JSON body. A write (every POST but a dry run) also tracks who is
 * signed in: a success without a kept token means the browser's Basic prompt
 * answered; a 401 means no credentials opened it, so the kept token is
 * forgotten. Either change fires `deja-auth` on window for the header.
 */
export async function post(path, body, { write = true } = {}) {
  const headers = {
    "content-type": "application/json",
    accept: "application/json",
  };
  const t = token();
  if (t) headers.authorization = `Bearer ${t}`;
  const res = await send(path, {
    method: "POST",
    headers,
    body: JSON.stringify(body ?? {}),
    credentials: "same-origin",
  });
  if (write) {
    const before = `${t}|${browserSignedIn()}`;
    if (res.ok && !t) setBrowserSignedIn(true);
    if (res.status === 401) {
      setToken("");
      setBrowserSignedIn(false);
    }
    if (`${token()}|${browserSignedIn()}` !== before) {
      dispatchEvent(new Event("deja-auth"));
    }
  }
  return handle(res);
}
