/**
 * The nouns every deja module shares: sessions, their records, where each
 * record came from, and the marks that supersede records without deleting them.
 *
 * @module
 */

/** Conversation roles: what a person or the model said. */
export const SPEECH_ROLES = ["user", "assistant"] as const;

/** Work roles: what the agent did. Searched only when asked for by role. */
export const WORK_ROLES = [
  "tool-output",
  "command",
  "files",
  "edit",
  "summary",
] as const;

/** Every role a record can carry. */
export const ROLES = [...SPEECH_ROLES, ...WORK_ROLES] as const;

/** The role of one record. */
export type Role = typeof ROLES[number];

/**
 * Tells whether a string names a known role.
 *
 * @param value The candidate role name.
 * @returns True for one of {@linkcode ROLES}.
 * @example
 * ```ts
 * import { isRole } from "./types.ts";
 * import { ok } from "node:assert/strict";
 * ok(isRole("edit"));
 * ```
 */
export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

/**
 * Where a record came from, enough to jump back to it: the source file and
 * either a line and byte offset (line formats) or a record id (documents and
 * databases), plus a short hash of the record's source bytes to notice drift.
 */
export interface Locator {
  /** Absolute path of the source file or database. */
  path: string;
  /** 1-based line number for line-oriented formats. */
  line?: number;
  /** Byte offset of the line's start for line-oriented formats. */
  offset?: number;
  /** Record id inside a document or database (message id, row id, index). */
  recordId?: string;
}

/** Boolean facts about one record. */
export interface RecordFlags {
  /** Written by a sub-agent (side chain) of the session. */
  subagent?: boolean;
  /** Text was cut to the stored size cap. */
  truncated?: boolean;
  /** Tool output that the harness marked as an error. */
  isError?: boolean;
}

/** One thing said or done in a session. */
export interface SessionRecord {
  /** What kind of record this is. */
  role: Role;
  /** The text, already cleaned of harness boilerplate (not yet redacted). */
  text: string;
  /** Milliseconds since the epoch, when the harness wrote one. */
  time?: number;
  /** Position in the session, assigned by the parser, strictly increasing. */
  seq: number;
  /** Where it came from. */
  locator: Locator;
  /** Flags; absent means all false. */
  flags?: RecordFlags;
  /** Exit code of a command record, when the harness reported one. */
  exitCode?: number;
  /** Tool name for command/tool-output/files/edit records. */
  tool?: string;
}

/**
 * A supersession mark: a rollback, undo, rewind or branch switch that makes
 * the records with `seq` in `[from, to)` inactive. Records are never deleted;
 * whether one is superseded is derived from the marks when it is read.
 */
export interface Mark {
  /** What superseded them, e.g. "rollback", "undo", "branch", "rewind", "not-applied". */
  kind: string;
  /** First superseded seq (inclusive). */
  from: number;
  /** End of the superseded range (exclusive). */
  to: number;
}

/** How a session relates to another one. */
export type Lineage = "subagent" | "fork" | "sidechain";

/** One conversation of one harness. */
export interface Session {
  /** Registry id of the harness, e.g. "claude-code". */
  harness: string;
  /** The harness's own session id. */
  id: string;
  /** Project name, usually the basename of the working directory. */
  project: string;
  /** Working directory when known. */
  cwd?: string;
  /** Source file (or database) the session was read from. */
  path: string;
  /** First user-facing line, when the harness or the parser derived one. */
  title?: string;
  /**
   * The title is one the harness stored (a rename, a generated title), not
   * the first prompt's: it replaces the title an earlier pass kept.
   */
  titleGiven?: boolean;
  /** Milliseconds since the epoch of the first record. */
  started?: number;
  /** Milliseconds since the epoch of the last record. */
  updated?: number;
  /** Parent session id for sub-agents and forks. */
  parent?: string;
  /** How this session relates to its parent. */
  lineage?: Lineage;
  /** Records in order. */
  records: SessionRecord[];
  /** Supersession marks over this session's records. */
  marks: Mark[];
}

/**
 * Derives whether a record is superseded from a session's marks.
 *
 * @param seq The record's position.
 * @param marks The session's marks.
 * @returns True when any mark covers the record.
 * @example
 * ```ts
 * import { isSuperseded } from "./types.ts";
 * import { ok } from "node:assert/strict";
 * ok(isSuperseded(3, [{ kind: "rollback", from: 2, to: 5 }]));
 * ```
 */
export function isSuperseded(seq: number, marks: readonly Mark[]): boolean {
  return marks.some((m) => seq >= m.from && seq < m.to);
}
