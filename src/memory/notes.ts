/**
 * Notes: what a person or agent chose to remember, per project, with a
 * review state. A state change is a superseding note, so history stays.
 *
 * @module
 */
import { DejaError } from "../core/errors.ts";
import { redact } from "../redact/mod.ts";
import type { MemoryReader, MemoryStore } from "./memory_store.ts";
import { NOTE_STATES } from "./validate_grain.ts";
import type { NoteGrain } from "./types.ts";

/** A note's review state. */
export type NoteState = NoteGrain["state"];

/** Namespace notes are stored in. */
export const NOTES_NAMESPACE = "notes";

/** A current note with its address. */
export interface Note {
  /** The note grain's hash. */
  hash: string;
  /** The note. */
  note: NoteGrain;
}

/** Options for {@linkcode remember}. */
export interface RememberOptions {
  /** Project the note belongs to. */
  project?: string;
  /** Who wrote it (default `"human:local"`). */
  actor?: string;
  /** Initial state (default `"accepted"`: a person said so). */
  state?: NoteState;
  /** Clock override, epoch ms. */
  now?: number;
}

/**
 * Stores a note, with any credential in it redacted.
 *
 * @param store The writable memory file.
 * @param text The note's text.
 * @param options Project, actor, state.
 * @returns The note's hash.
 * @example
 * ```ts
 * import { openMemory } from "./open_memory.ts";
 * import { listNotes, remember } from "./notes.ts";
 * import { equal } from "node:assert/strict";
 * const store = openMemory(":memory:", { now: () => 1_000 });
 * remember(store, "we pin redis to 7.2 because of the lua bug", { project: "api" });
 * equal(listNotes(store, { project: "api" })[0]?.note.state, "accepted");
 * store.close();
 * ```
 */
export function remember(
  store: MemoryStore,
  text: string,
  options: RememberOptions = {},
): string {
  // Notes are handed to every agent: a credential in one is redacted as it
  // is in the index. A note without one keeps its exact text.
  const typed = text.trim();
  const cleaned = redact(typed);
  const body = Object.keys(cleaned.counts).length > 0 ? cleaned.text : typed;
  if (!body) throw new TypeError("A note needs text");
  const state = options.state ?? "accepted";
  checkState(state);
  const note: NoteGrain = {
    type: "note",
    namespace: NOTES_NAMESPACE,
    created_at: options.now ?? store.now(),
    actor: options.actor ?? "human:local",
    text: body,
    state,
  };
  if (options.project) note.project = options.project;
  // The same words for the same project are one note: a second remember
  // returns the current note instead of a twin that differs only in time.
  const twin = store.byType("note", {
    namespace: NOTES_NAMESPACE,
    currentOnly: true,
  })
    .find((n) =>
      n.grain.text === body &&
      (n.grain.project ?? "") === (options.project ?? "")
    );
  if (twin) return twin.hash;
  return store.put(note);
}

function checkState(state: string): asserts state is NoteState {
  if (!(NOTE_STATES as readonly string[]).includes(state)) {
    throw new TypeError(
      `Unknown note state "${state}": use one of ${NOTE_STATES.join(", ")}`,
    );
  }
}

/**
 * Changes a note's state by storing a superseding note (same text and
 * project, new state).
 *
 * @param store The writable memory file.
 * @param hash Full hash of the current note.
 * @param state The new state.
 * @param options Actor and clock.
 * @returns The new note's hash.
 * @throws {DejaError} MEM-E003 when the hash is not a current note.
 */
export function promote(
  store: MemoryStore,
  hash: string,
  state: NoteState,
  options: { actor?: string; now?: number } = {},
): string {
  checkState(state);
  const found = store.get(hash);
  if (!found || found.grain.type !== "note") {
    throw new DejaError("MEM-E003", `No note has hash "${hash}"`);
  }
  if (!store.isCurrent(hash)) {
    const heads = store.heads(hash).map((h) => h.slice(0, 12));
    throw new DejaError(
      "MEM-E003",
      `Note ${hash.slice(0, 12)} is not current${
        heads.length ? `: its current version is ${heads.join(", ")}` : ""
      }`,
    );
  }
  const old = found.grain;
  if (old.state === state) return hash;
  const next: NoteGrain = {
    type: "note",
    namespace: old.namespace,
    created_at: options.now ?? store.now(),
    actor: options.actor ?? "human:local",
    text: old.text,
    state,
  };
  if (old.project) next.project = old.project;
  return store.supersede(hash, next);
}

/**
 * Current notes, newest first.
 *
 * @param store The memory file.
 * @param filter Project and states (default: every state).
 * @returns The notes.
 */
export function listNotes(
  store: MemoryReader,
  filter: { project?: string; states?: readonly NoteState[] } = {},
): Note[] {
  return store.byType("note", { currentOnly: true })
    .filter((n) =>
      filter.project === undefined || n.grain.project === filter.project
    )
    .filter((n) => !filter.states || filter.states.includes(n.grain.state))
    .map((n) => ({ hash: n.hash, note: n.grain }))
    .sort((a, b) =>
      b.note.created_at - a.note.created_at || (a.hash < b.hash ? -1 : 1)
    );
}

/** Notes of one project and one UTC day. */
export interface NoteGroup {
  /** Project, or `""` for notes without one. */
  project: string;
  /** `YYYY-MM-DD` (UTC). */
  day: string;
  /** The notes, newest first. */
  notes: Note[];
}

/**
 * Groups notes per project, then per day (newest day first).
 *
 * @param notes Notes as {@linkcode listNotes} returns them.
 * @returns The groups, projects in name order.
 */
export function groupNotes(notes: readonly Note[]): NoteGroup[] {
  const groups = new Map<string, NoteGroup>();
  for (const n of notes) {
    const project = n.note.project ?? "";
    const day = new Date(n.note.created_at).toISOString().slice(0, 10);
    const key = `${project}\u0000${day}`;
    const g = groups.get(key) ?? { project, day, notes: [] };
    g.notes.push(n);
    groups.set(key, g);
  }
  return [...groups.values()].sort((a, b) =>
    a.project === b.project
      ? (a.day < b.day ? 1 : -1)
      : a.project < b.project
      ? -1
      : 1
  );
}
