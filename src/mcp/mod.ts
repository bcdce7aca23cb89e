/**
 * The MCP server: the `deja` tool (recall, context, blame, fix, how,
 * orient, remember, handoff), the loop tools `deja_loop` and
 * `deja_recommendations`, session resources and prompts, over stdio.
 *
 * @example
 * ```ts
 * import { DEJA_MODES } from "./mod.ts";
 * import { ok } from "node:assert/strict";
 * ok(DEJA_MODES.includes("recall"));
 * ```
 *
 * @module
 */
export {
  DEFAULT_SCOPES,
  holds,
  liveExclusions,
  type McpContext,
  noIndexText,
  type OpenedIndex,
  openForCall,
  projectFor,
} from "./mcp_context.ts";
export {
  answerDeja,
  DEJA_MODES,
  type DejaArgs,
  type DejaMode,
  type ToolAnswer,
} from "./deja_tool.ts";
export {
  answerLoop,
  answerRecommendations,
  LIGHT_ANALYZERS,
  type LoopArgs,
  type RecommendationArgs,
} from "./loop_tools.ts";
export {
  createMcpServer,
  RESOURCE_SESSIONS,
  SERVER_INFO,
  serverInstructions,
} from "./create_mcp_server.ts";
export { serveMcpStdio } from "./serve_mcp_stdio.ts";
