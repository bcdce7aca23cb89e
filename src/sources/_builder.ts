/**
 * Accumulates one session's records the same way for every parser: seq
 * numbers, start/update times, the title from the first user turn, the text
 * cap, `edit` bodies, and de-duplication of identical consecutive records.
 *
 * @module
 */
import type {
  Lineage,
  Locator,
  Mark,
  RecordFlags,
  Role,
  Session,
  SessionRecord,
} from "../core/types.ts";
import {
  capText,
  MAX_OUTPUT_CHARS,
  MAX_RECORD_CHARS,
  projectFromCwd,
  titleFrom,
} from "../core/text.ts";
import { editBody } from "./_work_records.ts";

/** Extra fields for {@linkcode SessionBuilder.add}. */
export interface AddRecordOptions {
  /** Milliseconds since the epoch. */
  time?: number | undefined;
  /** Where the record came from. */
  locator: Locator;
  /** Flags. */
  flags?: RecordFlags;
  /** Exit code for commands. */
  exitCode?: number | undefined;
  /** Tool name. */
  tool?: string | undefined;
  /**
   * For a user turn: what titles the session if this turn does, in place of
   * its first line (the input a prompt template was expanded around, or its
   * heading's words). A slash command's rule does not apply to it.
   */
  title?: string | undefined;
  /**
   * A user record that never titles the session: words a person gave in
   * answer to the agent (a question tool's choices), not their request.
   */
  untitled?: boolean;
}

/** Identity of the session being built. */
export interface SessionBuilderInit {
  /** Harness id. */
  harness: string;
  /** Session id. */
  id: string;
  /** Source path. */
  path: string;
  /** Working directory, when known. */
  cwd?: string | undefined;
  /** Project; defaults to the cwd's basename. */
  project?: string | undefined;
  /** First seq to assign (when resuming). */
  nextSeq?: number;
  /** Parent session id. */
  parent?: string | undefined;
  /** Relation to the parent. */
  lineage?: Lineage | undefined;
}

/** Builds one {@linkcode Session}. */
export class SessionBuilder {
  #session: Session;
  #nextSeq: number;
  #last: SessionRecord | undefined;
  /** The title of a first prompt that was a slash command, in reserve. */
  #slashTitle: string | undefined;
  /** A title for a session no user turn titles, in reserve. */
  #fallbackTitle: string | undefined;

  /** @param init The session's identity. */
  constructor(init: SessionBuilderInit) {
    this.#nextSeq = init.nextSeq ?? 0;
    this.#session = {
      harness: init.harness,
      id: init.id,
      path: init.path,
      project: init.project ?? projectFromCwd(init.cwd),
      records: [],
      marks: [],
    };
    if (init.cwd) this.#session.cwd = init.cwd;
    if (init.parent) this.#session.parent = init.parent;
    if (init.lineage) this.#session.lineage = init.lineage;
  }

  /** The session id so far. */
  get id(): string {
    return this.#session.id;
  }

  /** The next seq that {@linkcode add} will assign. */
  get nextSeq(): number {
    return this.#nextSeq;
  }

  /** Records added so far. */
  get records(): readonly SessionRecord[] {
    return this.#session.records;
  }

  /** Sets the working directory and, unless set explicitly, the project. */
  setCwd(cwd: string, project?: string): void {
    this.#session.cwd = cwd;
    this.#session.project = project ?? projectFromCwd(cwd);
  }

  /** Sets the session id (when a later line names it). */
  setId(id: string): void {
    this.#session.id = id;
  }

  /**
   * Sets an explicit title (harnesses that store one): it beats a title cut
   * from a prompt, here and in the index.
   */
  setTitle(title: string): void {
    if (!title.trim()) return;
    this.#session.title = titleFrom(title);
    this.#session.titleGiven = true;
  }

  /**
   * Keeps a title in reserve for a session no user turn titles (a
   * sub-agent whose task came from another agent); the first one counts.
   */
  fallbackTitle(text: string): void {
    if (text.trim()) this.#fallbackTitle ??= titleFrom(text);
  }

  /** Sets parent lineage. */
  setParent(parent: string, lineage: Lineage): void {
    this.#session.parent = parent;
    this.#session.lineage = lineage;
  }

  /** Widens the session's time span without adding a record. */
  touch(time: number | undefined): void {
    if (time === undefined) return;
    const s = this.#session;
    if (s.started === undefined || time < s.started) s.started = time;
    if (s.updated === undefined || time > s.updated) s.updated = time;
  }

  /**
   * Adds a record unless its text is empty or repeats the previous record
   * (same role, time, text and tool: two tools can fail with the same words
   * in the same millisecond). Returns the record, or undefined if skipped.
   */
  add(
    role: Role,
    text: string,
    options: AddRecordOptions,
  ): SessionRecord | undefined {
    const body = text.trim();
    if (body.length === 0) return undefined;
    const last = this.#last;
    if (
      last && last.role === role && last.text === body &&
      last.time === options.time && last.tool === options.tool
    ) {
      return undefined;
    }
    const { text: capped, truncated } = capText(
      body,
      role === "tool-output" ? MAX_OUTPUT_CHARS : MAX_RECORD_CHARS,
    );
    const record: SessionRecord = {
      role,
      text: capped,
      seq: this.#nextSeq++,
      locator: options.locator,
    };
    if (options.time !== undefined) record.time = options.time;
    const flags: RecordFlags = { ...options.flags };
    if (truncated) flags.truncated = true;
    if (flags.subagent || flags.isError || flags.truncated) {
      record.flags = flags;
    }
    if (options.exitCode !== undefined) record.exitCode = options.exitCode;
    if (options.tool !== undefined) record.tool = options.tool;
    this.#session.records.push(record);
    this.#last = record;
    this.touch(options.time);
    if (
      role === "user" && !options.untitled && this.#session.title === undefined
    ) {
      // A slash command (/review …) names a tool, not the topic: the first
      // prompt after it titles the session, unless there is none.
      if (options.title?.trim()) this.#session.title = titleFrom(options.title);
      else if (capped.startsWith("/")) this.#slashTitle ??= titleFrom(capped);
      else this.#session.title = titleFrom(capped);
    }
    return record;
  }

  /**
   * Adds an `edit` record: the path, then the text the edit removed (cut as
   * {@linkcode editBody} cuts it, and then flagged `truncated`).
   *
   * @param path The edited file.
   * @param removed The text the edit removed or replaced.
   * @param options As for {@linkcode SessionBuilder.add}.
   * @returns The record, or undefined if skipped.
   */
  addEdit(
    path: string,
    removed: string,
    options: AddRecordOptions,
  ): SessionRecord | undefined {
    const body = editBody(path, removed);
    return this.add(
      "edit",
      body.text,
      body.truncated
        ? { ...options, flags: { ...options.flags, truncated: true } }
        : options,
    );
  }

  /** Adds a supersession mark over `[from, to)`. */
  mark(kind: string, from: number, to: number): void {
    if (to > from) this.#session.marks.push({ kind, from, to } satisfies Mark);
  }

  /** The session built so far. */
  build(): Session {
    if (this.#session.title === undefined) {
      const title = this.#slashTitle ?? this.#fallbackTitle;
      if (title !== undefined) this.#session.title = title;
    }
    return this.#session;
  }
}
