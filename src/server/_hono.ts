/**
 * The one importer of `hono`: every other server file takes the few
 * symbols it needs from here, so a Hono upgrade touches one line.
 *
 * @module
 */
export { Hono } from "hono";
export type { Context, MiddlewareHandler, Next } from "hono";
