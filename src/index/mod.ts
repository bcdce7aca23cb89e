/**
 * The transcript index: incremental indexing and the stored layout.
 *
 * @module
 */
export {
  type HarnessTotals,
  type IndexFailure,
  type IndexOptions,
  type IndexProgress,
  type IndexReport,
  indexStores,
} from "./index_stores.ts";
export {
  markPendingPass,
  pendingPassPath,
  pendingPassSince,
} from "./pending_pass.ts";
export {
  FLAG,
  ftsTableFor,
  INDEX_FORMAT,
  openIndex,
  type OpenIndexOptions,
} from "./schema.ts";
export { readBody } from "./read_body.ts";
export {
  type ToolEvent,
  toolEvents,
  type ToolEventsOptions,
} from "./tool_events.ts";
