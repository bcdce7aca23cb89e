/**
 * The console's HTTP app: the embedded page and its JSON API on one Hono
 * app. Every request passes the Host check; every POST the exact
 * own-origin check; writes pass the token and mode checks in their routes.
 * One `onError` turns DejaError codes into status + problem JSON. Nothing
 * logs requests, so a search query never reaches a log.
 *
 * @module
 */
import type { SourceEnv } from "../core/harness.ts";
import { damagedFileError } from "../core/damaged_file.ts";
import { messageOf } from "../core/errors.ts";
import { EMPTY_POLICY, type LoopPolicy } from "../memory/mod.ts";
import { ASSETS } from "./_assets.ts";
import {
  type AuthConfig,
  checkHost,
  checkOrigin,
  type Mode,
  modeOf,
} from "./_guard.ts";
import { Hono } from "./_hono.ts";
import { routeMethods } from "./_methods.ts";
import { problemOf } from "./_problem.ts";
import { authRoutes } from "./_routes_auth.ts";
import { indexRoutes } from "./_routes_index.ts";
import { loopRoutes } from "./_routes_loop.ts";
import { memoryRoutes } from "./_routes_memory.ts";
import { setupRoutes } from "./_routes_setup.ts";
import type { ServerState } from "./_state.ts";
import { Stores } from "./_stores.ts";
import {
  DEFAULT_SEARCH_BUDGETS,
  FoldArena,
  type SearchBudgets,
} from "./message_search.ts";
import { DejaError } from "../core/errors.ts";

/** Everything the app needs; only paths and auth are required. */
export interface AppDeps {
  /** Memory file path. */
  memoryPath: string;
  /** Transcript index path. */
  indexPath: string;
  /** Token, apply permissions and the actor label. */
  auth: AuthConfig;
  /** Effective host policy (default: closed). */
  policy?: LoopPolicy;
  /** Where the policy was loaded from. */
  policySource?: string;
  /** Wall clock, epoch ms. */
  now?: () => number;
  /** Monotonic clock, ms (default `performance.now`). */
  clock?: () => number;
  /** The listening port; when set, Host headers must name it. */
  port?: number;
  /** Search budget overrides. */
  searchBudgets?: Partial<SearchBudgets>;
  /** Concurrent message searches (default 2). */
  maxConcurrentSearches?: number;
  /** Inline loop run budget, ms (default 5000). */
  runBudgetMs?: number;
  /** HOME and environment, for the roots `/api/sources` shows. */
  sourceEnv?: SourceEnv;
  /** Where unexpected server errors are reported (default: dropped). */
  log?: (line: string) => void;
  /** Test hook awaited while a search holds its slot. */
  searchHook?: () => Promise<void>;
}

/** The app with its lifecycle. */
export interface ConsoleApp {
  /** The fetch handler for `Deno.serve`. */
  fetch(req: Request): Response | Promise<Response>;
  /** Sends a request in process (tests): no socket. */
  request(input: string | Request | URL, init?: RequestInit): Promise<Response>;
  /** The server's mode. */
  readonly mode: Mode;
  /** Tells the app its bound port: from then on Host headers must name it. */
  listening(port: number): void;
  /** Closes the stores. */
  close(): void;
}

const SECURITY_HEADERS: Record<string, string> = {
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
};

/**
 * The 405 for a path that routes take with other methods than the
 * request's; undefined when no route takes the path (a 404).
 */
function methodNotAllowed(
  method: string,
  path: string,
  allowed: readonly string[],
): DejaError | undefined {
  if (allowed.length === 0) return undefined;
  return new DejaError(
    "SRV-E009",
    `${method} is not allowed on "${path}": it takes ${allowed.join(", ")}`,
    { detail: { allow: allowed.join(", ") } },
  );
}

/**
 * Builds the console app.
 *
 * @param deps Paths, auth, policy and overrides.
 * @returns The app; call `close()` when done.
 * @example
 * ```ts
 * import { createApp } from "./create_app.ts";
 * import { equal } from "node:assert/strict";
 * const app = createApp({
 *   memoryPath: "/nonexistent/memory.db",
 *   indexPath: "/nonexistent/index.db",
 *   auth: { allowApply: false, allowDestructive: false, actor: "human:console" },
 * });
 * const res = await app.request("http://127.0.0.1/api/loop/review", { method: "POST", body: "{}" });
 * equal(res.status, 401);
 * app.close();
 * ```
 */
export function createApp(deps: AppDeps): ConsoleApp {
  if (deps.auth.allowApply && !deps.auth.token) {
    throw new DejaError(
      "CLI-E001",
      "--allow-apply needs a token: add --token-env VAR",
    );
  }
  if (deps.auth.allowDestructive && !deps.auth.allowApply) {
    throw new DejaError("CLI-E001", "--allow-destructive needs --allow-apply");
  }
  const now = deps.now ?? (() => Date.now());
  const state: ServerState = {
    auth: deps.auth,
    policy: deps.policy ?? EMPTY_POLICY,
    policySource: deps.policySource,
    stores: new Stores({
      indexPath: deps.indexPath,
      memoryPath: deps.memoryPath,
      writable: deps.auth.token !== undefined,
      now,
    }),
    now,
    clock: deps.clock ?? (() => performance.now()),
    budgets: { ...DEFAULT_SEARCH_BUDGETS, ...deps.searchBudgets },
    arena: new FoldArena(),
    searches: { active: 0, max: deps.maxConcurrentSearches ?? 2 },
    searchHook: deps.searchHook,
    runBudgetMs: deps.runBudgetMs ?? 5000,
    sourceEnv: deps.sourceEnv,
    port: deps.port,
  };
  const app = new Hono();

  app.use("*", async (c, next) => {
    checkHost(c.req.raw, state.port);
    if (c.req.method !== "GET" && c.req.method !== "HEAD") {
      checkOrigin(c.req.raw);
    }
    await next();
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) {
      c.res.headers.set(k, v);
    }
  });

  app.onError((err, c) => {
    // A corrupt page of the index or the memory file: a store that cannot
    // be read (503), named, rather than an internal error.
    const damaged = damagedFileError(err, {
      index: deps.indexPath,
      memory: deps.memoryPath,
    });
    const { response, unexpected } = problemOf(damaged ?? err);
    if (unexpected && deps.log) {
      // The path only: query strings (search text) are never logged.
      deps.log(
        `deja ui: ${c.req.method} ${new URL(c.req.url).pathname}: ${
          messageOf(err)
        }\n`,
      );
    }
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) {
      response.headers.set(k, v);
    }
    return response;
  });

  indexRoutes(app, state);
  memoryRoutes(app, state);
  loopRoutes(app, state);
  setupRoutes(app, state);
  authRoutes(app, state);

  // Every route registered so far, and the embedded page's files (GET
  // only): a path one of them takes with another method is a 405.
  const routesAt = routeMethods(
    app.routes.filter((r) => r.method !== "ALL" && r.path !== "*"),
  );
  const methodsAt = (path: string): string[] =>
    ASSETS.has(path) || path === "/index.html"
      ? ["GET", "HEAD"]
      : routesAt(path);

  app.get("*", (c) => {
    const path = c.req.path === "/index.html" ? "/" : c.req.path;
    const a = ASSETS.get(path);
    if (!a || path.startsWith("/api/")) {
      throw methodNotAllowed(c.req.method, c.req.path, methodsAt(c.req.path)) ??
        new DejaError("SRV-E005", `Nothing at "${c.req.path}"`);
    }
    const headers = { "etag": a.etag, "cache-control": "no-cache" };
    const match = c.req.header("if-none-match");
    if (
      match &&
      match.split(",").map((s) => s.trim().replace(/^W\//, "")).includes(a.etag)
    ) {
      return c.body(null, 304, headers);
    }
    return c.body(a.body as Uint8Array<ArrayBuffer>, 200, {
      ...headers,
      "content-type": a.type,
    });
  });

  app.notFound((c) => {
    const { response } = problemOf(
      methodNotAllowed(c.req.method, c.req.path, methodsAt(c.req.path)) ??
        new DejaError("SRV-E005", `Nothing at "${c.req.path}"`),
    );
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) {
      response.headers.set(k, v);
    }
    return response;
  });

  return {
    fetch: (req) => app.fetch(req),
    request: async (input, init) => await app.request(input, init),
    mode: modeOf(deps.auth),
    listening: (port) => {
      state.port = port;
    },
    close: () => state.stores.close(),
  };
}
