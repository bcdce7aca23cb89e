/**
 * Search over the transcript index, reading sessions back, and index stats.
 *
 * @module
 */
export {
  highlightWords,
  matchRanges,
  search,
  type SearchHit,
  type SearchOptions,
  type SearchResult,
  type Snippet,
} from "./search.ts";
export {
  ftsExpression,
  ftsQuote,
  type ParsedQuery,
  parseQuery,
} from "./query.ts";
export {
  resolveSession,
  type ShownRecord,
  type ShownSession,
  type ShowOptions,
  showSession,
} from "./show.ts";
export { type HarnessStats, type IndexStats, indexStats } from "./stats.ts";
export {
  readSessionRecords,
  type SessionInfo,
  sessionInfoOf,
  type SessionRow,
  type StoredRecord,
} from "./_rows.ts";
