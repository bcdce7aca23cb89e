/**
 * Who may do what: the Host check (DNS rebinding), the exact own-origin
 * check on POST (CSRF from any other page or port), the token check, and
 * the server's mode — read-only without a token, review and config with
 * one, apply with `--allow-apply`, destructive applies with
 * `--allow-destructive` as well.
 *
 * @module
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { DejaError } from "../core/errors.ts";
import type { Scope } from "../memory/mod.ts";

/** The server's write configuration; never taken from a request. */
export interface AuthConfig {
  /** The shared secret; absent = read-only server. */
  token?: string;
  /** Name of the variable the token came from (for hints). */
  tokenEnv?: string;
  /** Apply and rollback are allowed (needs a token). */
  allowApply: boolean;
  /** Destructive applies are allowed (needs `allowApply`). */
  allowDestructive: boolean;
  /** The actor label written into audit records, e.g. `human:console`. */
  actor: string;
}

/** What a route needs beyond reading. */
export type Need = "review" | "apply";

/** The server's mode, for the console and the start notice. */
export type Mode = "read-only" | "review" | "apply" | "apply+destructive";

/**
 * The mode a configuration grants.
 *
 * @param auth The configuration.
 * @returns The mode.
 */
export function modeOf(auth: AuthConfig): Mode {
  if (!auth.token) return "read-only";
  if (!auth.allowApply) return "review";
  return auth.allowDestructive ? "apply+destructive" : "apply";
}

/**
 * The lifecycle scopes a configuration grants to an authenticated request.
 *
 * @param auth The configuration.
 * @returns Scopes for the memory store.
 */
export function scopesOf(auth: AuthConfig): Scope[] {
  const mode = modeOf(auth);
  if (mode === "read-only") return ["read"];
  if (mode === "review") return ["read", "review"];
  if (mode === "apply") return ["read", "review", "write", "apply"];
  return ["read", "review", "write", "apply", "admin"];
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

function hostnameOf(host: string): string {
  if (host.startsWith("[")) {
    const end = host.indexOf("]");
    return end < 0 ? host : host.slice(0, end + 1);
  }
  const colon = host.indexOf(":");
  return (colon < 0 ? host : host.slice(0, colon)).toLowerCase();
}

function portOf(host: string): string {
  const m = /:(\d+)$/.exec(host);
  return m ? (m[1] as string) : "";
}

/**
 * Refuses a request whose Host header is not a loopback name, or names
 * another port than the server's: a page that rebinds its DNS name to
 * 127.0.0.1 still sends its own name.
 *
 * @param req The request.
 * @param port The port the server listens on, when known.
 * @throws {DejaError} SRV-E007.
 */
export function checkHost(req: Request, port?: number): void {
  const host = req.headers.get("host") ?? new URL(req.url).host;
  if (!host) return;
  if (!LOOPBACK.has(hostnameOf(host))) {
    throw new DejaError(
      "SRV-E007",
      `Host "${host}" is not a loopback name; deja ui answers only 127.0.0.1 and localhost`,
    );
  }
  if (port !== undefined && portOf(host) !== String(port)) {
    throw new DejaError(
      "SRV-E007",
      `Host "${host}" does not name this server's port ${port}`,
    );
  }
}

/**
 * Refuses a POST from any origin but the server's own (scheme, host and
 * port exactly). A request without Origin (curl, scripts) passes: it is
 * not a browser acting for another page. `Sec-Fetch-Site: cross-site` or
 * `same-site` is refused either way.
 *
 * @param req The request.
 * @throws {DejaError} SRV-E002.
 */
export function checkOrigin(req: Request): void {
  const site = req.headers.get("sec-fetch-site");
  if (site === "cross-site" || site === "same-site") {
    throw new DejaError(
      "SRV-E002",
      `Cross-origin request refused (Sec-Fetch-Site: ${site})`,
    );
  }
  const origin = req.headers.get("origin");
  if (origin === null) return;
  const url = new URL(req.url);
  const own = `${url.protocol}//${req.headers.get("host") ?? url.host}`;
  if (origin !== own) {
    throw new DejaError(
      "SRV-E002",
      `Origin "${origin}" is not this console's origin "${own}"`,
    );
  }
}

/**
 * The token a request presents: `Authorization: Bearer <token>`, or Basic
 * with the token as the password (any user name).
 *
 * @param req The request.
 * @returns The token, or undefined.
 */
export function presentedToken(req: Request): string | undefined {
  const header = req.headers.get("authorization");
  if (!header) return undefined;
  const [scheme, value] = [
    header.slice(0, header.indexOf(" ")),
    header.slice(header.indexOf(" ") + 1).trim(),
  ];
  if (/^bearer$/i.test(scheme)) return value;
  if (/^basic$/i.test(scheme)) {
    try {
      const text = new TextDecoder().decode(
        Uint8Array.from(atob(value), (c) => c.charCodeAt(0)),
      );
      const colon = text.indexOf(":");
      return colon < 0 ? undefined : text.slice(colon + 1);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

function sameSecret(a: string, b: string): boolean {
  const da = createHash("sha256").update(a).digest();
  const db = createHash("sha256").update(b).digest();
  return timingSafeEqual(da, db);
}

/**
 * Whether a request carries the server's token.
 *
 * @param req The request.
 * @param auth The configuration.
 * @returns True with a token configured and presented.
 */
export function authenticated(req: Request, auth: AuthConfig): boolean {
  const given = presentedToken(req);
  return auth.token !== undefined && given !== undefined &&
    sameSecret(given, auth.token);
}

/**
 * Refuses a write the server's mode or the request's credentials do not
 * allow.
 *
 * @param req The request.
 * @param auth The configuration.
 * @param need `review` (review, config, run) or `apply` (apply, rollback).
 * @throws {DejaError} SRV-E001 (401) without a valid token, its problem's
 *   `reason` saying why (`read_only`, `token_missing`, `token_mismatch`);
 *   SRV-E008 (403) when the server was started without the permission.
 */
export function authorize(req: Request, auth: AuthConfig, need: Need): void {
  if (!auth.token) {
    throw new DejaError(
      "SRV-E001",
      "This console is read-only: it was started without a token",
      {
        detail: {
          reason: "read_only",
          hint:
            "Restart with --token-env VAR (the variable holding a secret) to enable review; add --allow-apply for apply",
        },
      },
    );
  }
  if (!authenticated(req, auth)) {
    // A token that was sent but is not the one: say so, or "Signed in"
    // looks right while every write fails.
    const missing = presentedToken(req) === undefined;
    const message = missing
      ? "This write needs the console's token"
      : "The token sent is not the console's token";
    // A client that sent a Bearer token (the console) is challenged as one:
    // a Basic challenge would make the browser hold the request for its own
    // login prompt instead of letting the page say what went wrong.
    const bearer = /^bearer\s/i.test(req.headers.get("authorization") ?? "");
    throw new DejaError("SRV-E001", message, {
      detail: {
        ...(bearer ? { challenge: "Bearer" } : {}),
        reason: missing ? "token_missing" : "token_mismatch",
        hint:
          `Send Authorization: Bearer <token>, or Basic with the token as password (the value of $${
            auth.tokenEnv ?? "the --token-env variable"
          })`,
      },
    });
  }
  if (need === "apply" && !auth.allowApply) {
    throw new DejaError("SRV-E008", "This console may review but not apply", {
      detail: {
        hint: "Restart deja ui with --allow-apply to apply and roll back",
      },
    });
  }
}
