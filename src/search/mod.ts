/**
 * Search over the transcript index, reading sessions back, and index stats.
 *
 * @module
 */
export {
  highlightWords,
  type LadderStep,
  matchRanges,
  type QueryReading,
  type ScoreParts,
  search,
  SEARCH_TIERS,
  type SearchHit,
  type SearchOptions,
  type SearchResult,
  type SearchTier,
  type Snippet,
} from "./search.ts";
export type { Signals } from "./_signals.ts";
export {
  extractAsk,
  type QueryTerm,
  type TermKind,
  type TimeWindow,
  type UnderstandOptions,
  understandQuery,
  type UnderstoodQuery,
} from "./understand_query.ts";
export { isStopWord } from "./_stop_words.ts";
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
  idfOf,
  type TermIdf,
  termIdf,
  type TermIdfOptions,
} from "./term_idf.ts";
export {
  readRecordText,
  readSessionRecords,
  recordOf,
  type RecordRow,
  type SessionInfo,
  sessionInfoOf,
  type SessionRow,
  sessionRowid,
  type StoredRecord,
} from "./_rows.ts";
