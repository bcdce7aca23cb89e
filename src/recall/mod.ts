/**
 * Recall over the index for agents and people: the work verbs (blame, fix,
 * how, files, orient, last, resume, handoff), one session read back as a
 * digest, the dense recall answer, the hook digests, the `<deja-recall>`
 * trust frame, the live-stamp file and background refresh.
 *
 * @example
 * ```ts
 * import { frameRecall, isIrreversible } from "./mod.ts";
 * import { ok } from "node:assert/strict";
 * ok(frameRecall("npm test passed").includes("untrusted"));
 * ok(isIrreversible("git reset --hard HEAD~1"));
 * ```
 *
 * @module
 */
export {
  byteLength,
  cutBytes,
  FRAME_TAG,
  type FrameOptions,
  frameOverhead,
  frameRecall,
  neutralizeFrameTags,
  TRUST_LINE,
} from "./frame.ts";
export {
  COOLDOWN_KEEP_MS,
  dropLive,
  LIVE_WINDOW_MS,
  type LiveEntry,
  type LiveFile,
  livePath,
  liveSessionIds,
  readLiveFile,
  stampLive,
  type StampOptions,
} from "./live_stamps.ts";
export {
  indexBuilding,
  type IndexState,
  indexState,
  REFRESH_EVERY_MS,
  type RefreshOptions,
  requestRefresh,
  requestSessionPass,
  selfCommand,
  spawnSelf,
  type SpawnSelfOptions,
  STALE_AFTER_MS,
} from "./refresh.ts";
export { isIrreversible } from "./irreversible.ts";
export {
  errorLine,
  errorTerms,
  fixFor,
  type FixOptions,
  type FixPair,
  type FixResult,
} from "./fix.ts";
export {
  type HowOptions,
  type HowResult,
  howTerms,
  howTo,
  type Invocation,
} from "./how.ts";
export {
  filesForTopic,
  type FilesOptions,
  type FileUse,
  projectFiles,
} from "./files.ts";
export {
  orient,
  type Orientation,
  type OrientOptions,
  type RecurringCommand,
} from "./orient.ts";
export {
  basenamePattern,
  blame,
  type BlameEntry,
  blameLine,
  type BlameLineOptions,
  type BlameOptions,
  type BlameResult,
  type BlameTarget,
  type GitRunner,
  type LineAttribution,
  MIN_SPAN,
  parseBlameTarget,
} from "./blame.ts";
export {
  type Change,
  type ContextDigest,
  contextDigest,
  type ContextOptions,
  sessionChanges,
} from "./context_digest.ts";
export { type LastOptions, lastSessions } from "./last_sessions.ts";
export {
  RESUMABLE,
  type ResumeCommand,
  resumeCommand,
  shellQuote,
} from "./resume_command.ts";
export { AGENT_NAMES } from "./agent_names.ts";
export {
  type HandoffOptions,
  type HandoffPacket,
  handoffPacket,
} from "./handoff.ts";
export {
  loadNotes,
  noteLine,
  notesMatching,
  type NotesMatchingOptions,
  proposedMatching,
  proposedNotesLine,
} from "./project_notes.ts";
export {
  RECALL_BUDGET,
  type RecallAnswer,
  recallAnswer,
  type RecallOptions,
} from "./recall_answer.ts";
export {
  SESSION_START_BUDGET,
  type SessionStartDigest,
  sessionStartDigest,
  type SessionStartOptions,
} from "./session_start_digest.ts";
export {
  askOf,
  askTerms,
  namesThing,
  OTHER_PROJECT_RARE_WORDS,
  PROMPT_BUDGET,
  type PromptDigest,
  promptDigest,
  type PromptDigestOptions,
  quotedKey,
  RARE_WORD_SHARE,
  SHOWN_COOLDOWN_MS,
} from "./prompt_digest.ts";
export {
  type Remedy,
  REMEDY_MAX_BYTES,
  remedyFor,
  type RemedyOptions,
} from "./remedy.ts";
export {
  renderAttribution,
  renderBlame,
  renderFiles,
  renderFix,
  renderHow,
  renderOrient,
  renderSessions,
} from "./render_answers.ts";
