/**
 * The local console and its HTTP API: a Hono app over the transcript index
 * and the memory file, the embedded zero-install UI, and a token-gated
 * write model (read-only without a token; review with one; apply and
 * destructive applies only when the server was started allowing them).
 *
 * @example
 * ```ts
 * import { createApp } from "./mod.ts";
 * import { equal } from "node:assert/strict";
 * const app = createApp({
 *   memoryPath: "/nonexistent/memory.db",
 *   indexPath: "/nonexistent/index.db",
 *   auth: { allowApply: false, allowDestructive: false, actor: "human:console" },
 * });
 * const res = await app.request("http://127.0.0.1/api/health");
 * equal((await res.json()).mode, "read-only");
 * app.close();
 * ```
 *
 * @module
 */
export { type AppDeps, type ConsoleApp, createApp } from "./create_app.ts";
export {
  type RunningServer,
  serveConsole,
  type ServeOptions,
} from "./serve.ts";
export { type AuthConfig, type Mode, modeOf } from "./_guard.ts";
export { consoleBytes } from "./_assets.ts";
export {
  DEFAULT_SEARCH_BUDGETS,
  type HitLocator,
  type MessageGroup,
  type MessageHit,
  type MessageSearchResponse,
  type SearchBudgets,
} from "./message_search.ts";
export type {
  LocateResult,
  SessionDetail,
  SessionEntry,
} from "./session_detail.ts";
export type { CoverageRow } from "./_index_reads.ts";
export type { Problem } from "./_problem.ts";
export type { AutoApplyGrant, LoopPolicy, Severity } from "../memory/mod.ts";
export type { SourceEnv } from "../core/harness.ts";
