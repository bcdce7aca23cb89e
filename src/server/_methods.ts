/**
 * The methods each route takes, so a request with another method is
 * answered 405 with an `Allow` header rather than 404 (Hono itself has no
 * such answer: a path with no handler for the method is simply not found).
 *
 * @module
 */

/** A registered route: its method and Hono path pattern. */
export interface RouteEntry {
  /** The HTTP method, upper case. */
  method: string;
  /** The path pattern, e.g. `/api/session/:harness/:id`. */
  path: string;
}

/**
 * A lookup from a request path to the methods the routes matching it take.
 * Patterns are Hono's: literal segments, `:name` for one segment, `*` for
 * the rest. A route taking GET takes HEAD too (Hono answers HEAD with GET).
 *
 * @param routes The routes, each method and pattern once or more.
 * @returns For a path, its methods in a stable order (empty: no route).
 * @example
 * ```ts
 * import { routeMethods } from "./_methods.ts";
 * import { deepEqual } from "node:assert/strict";
 * const methodsAt = routeMethods([
 *   { method: "POST", path: "/api/loop/run" },
 *   { method: "GET", path: "/api/session/:harness/:id" },
 * ]);
 * deepEqual(methodsAt("/api/loop/run"), ["POST"]);
 * deepEqual(methodsAt("/api/session/codex/abc"), ["GET", "HEAD"]);
 * deepEqual(methodsAt("/api/nope"), []);
 * ```
 */
export function routeMethods(
  routes: readonly RouteEntry[],
): (path: string) => string[] {
  const patterns = new Map<string, { pattern: RegExp; methods: Set<string> }>();
  for (const { method, path } of routes) {
    const entry = patterns.get(path) ??
      { pattern: patternOf(path), methods: new Set<string>() };
    entry.methods.add(method.toUpperCase());
    if (method.toUpperCase() === "GET") entry.methods.add("HEAD");
    patterns.set(path, entry);
  }
  return (path) => {
    const methods = new Set<string>();
    for (const entry of patterns.values()) {
      if (entry.pattern.test(path)) {
        for (const m of entry.methods) methods.add(m);
      }
    }
    return METHOD_ORDER.filter((m) => methods.has(m));
  };
}

/** The order `Allow` lists methods in. */
const METHOD_ORDER = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"];

/** A Hono path pattern as an anchored regular expression. */
function patternOf(path: string): RegExp {
  const source = path.split("/").map((segment) =>
    segment === "*"
      ? ".*"
      : segment.startsWith(":")
      ? "[^/]+"
      : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
  ).join("/");
  return new RegExp(`^${source}$`);
}
