/**
 * `POST /api/auth/check`: whether the request's credentials open writes on
 * this server, asked before a token is kept. It passes exactly the guard
 * every write passes (Host and own-origin in the app's middleware, then
 * `authorize`) and then stops: it reads no store and writes nothing, so a
 * wrong token costs no audit record and a right one changes no memory.
 *
 * @module
 */
import { authorize, modeOf } from "./_guard.ts";
import type { Hono } from "./_hono.ts";
import { json, strictBody } from "./_http.ts";
import type { ServerState } from "./_state.ts";

/**
 * Registers the credentials check.
 *
 * @param app The app.
 * @param state Shared state.
 */
export function authRoutes(app: Hono, state: ServerState): void {
  app.post("/api/auth/check", async (c) => {
    // "review" is what any token opens; apply is the mode's, reported below.
    authorize(c.req.raw, state.auth, "review");
    await strictBody(c, []);
    return json({ ok: true, mode: modeOf(state.auth) });
  });
}
