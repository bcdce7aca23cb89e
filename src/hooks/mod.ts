/**
 * The session and tool hooks: fail-open handlers a harness runs at session
 * start, on each prompt, after a failed command and at session end. They
 * answer from the index on disk within a few milliseconds and start any
 * slow work (indexing, the loop) in detached processes.
 *
 * @example
 * ```ts
 * import { parsePayload, renderHookAnswer } from "./mod.ts";
 * import { equal } from "node:assert/strict";
 * const p = parsePayload('{"session_id":"s","hook_event_name":"SessionStart","cwd":"/x/api"}');
 * equal(renderHookAnswer({}, { format: "json", event: p.event ?? "SessionStart" }), "");
 * ```
 *
 * @module
 */
export {
  excludeFor,
  type HookContext,
  openWarmIndex,
  projectOf,
} from "./_common.ts";
export {
  type HookAnswer,
  type HookFormat,
  renderHookAnswer,
} from "./envelope.ts";
export { type HookPayload, parsePayload, SHELL_TOOLS } from "./payload.ts";
export {
  readBounded,
  type ReadBoundedOptions,
  STDIN_DEADLINE_MS,
  STDIN_MAX_BYTES,
} from "./read_bounded.ts";
export { BUILDING_MESSAGE, hookContext } from "./hook_context.ts";
export {
  ASK_COOLDOWN_MS,
  HOOK_BUDGET_MS,
  hookBudgetMs,
  hookPrompt,
} from "./hook_prompt.ts";
export { hookToolAfter } from "./hook_tool_after.ts";
export { hookSessionEnd, SESSION_END_LOOP } from "./hook_session_end.ts";
