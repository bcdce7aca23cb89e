/**
 * Notes for recall: read from the memory file (never written here), matched
 * against a question, and rendered one line each. Notes outrank
 * transcripts: a curated decision is shown before the sessions it came from.
 * Only a note a person reviewed is quoted; a proposed one is only counted.
 *
 * @module
 */
import type { Note, NoteState } from "../memory/mod.ts";
import { isStopWord } from "../search/mod.ts";
import { clip, collapse } from "./_db.ts";

/**
 * Current notes from the memory file, read-only. A missing, locked or newer
 * file reads as no notes: recall never fails for want of them.
 *
 * @param path The memory file path.
 * @param filter Project and states.
 * @returns The notes, newest first.
 * @example
 * ```ts
 * import { loadNotes } from "./project_notes.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(await loadNotes("/nonexistent/memory.db"), []);
 * ```
 */
export async function loadNotes(
  path: string,
  filter: { project?: string; states?: readonly NoteState[] } = {},
): Promise<Note[]> {
  try {
    Deno.statSync(path);
  } catch {
    return [];
  }
  try {
    // Loaded on demand, by computed specifiers (Deno prepares a literal
    // one at start-up): most hook runs on a machine without notes never
    // pay for the memory store's modules.
    const open: Promise<typeof import("../memory/open_memory.ts")> = import(
      new URL("../memory/open_memory.ts", import.meta.url).href
    );
    const notes: Promise<typeof import("../memory/notes.ts")> = import(
      new URL("../memory/notes.ts", import.meta.url).href
    );
    const { openMemory } = await open;
    const { listNotes } = await notes;
    const store = openMemory(path, { readOnly: true, busyTimeoutMs: 200 });
    try {
      return listNotes(store, filter);
    } finally {
      store.close();
    }
  } catch {
    return [];
  }
}

/** Options for {@linkcode notesMatching}. */
export interface NotesMatchingOptions {
  /**
   * Match proposed notes too (default false). A proposed note is one an agent
   * wrote (MCP `remember`) that no person has accepted yet: recall never puts
   * it before the history, it only counts it.
   */
  proposed?: boolean;
}

/**
 * Notes that hold the question's words (its stop words aside, unless it is
 * nothing else): every word when there are at most two, else at least half
 * of them. Rejected and superseded notes never match; proposed ones only
 * when asked for.
 *
 * @param notes Candidate notes.
 * @param words Lowercased words of the question.
 * @param options Whether proposed notes match.
 * @returns Matching notes, accepted first, then newest.
 * @example
 * ```ts
 * import { notesMatching } from "./project_notes.ts";
 * import { equal } from "node:assert/strict";
 * const note = { hash: "h", note: { type: "note" as const, namespace: "notes", created_at: 1, actor: "human:me", text: "we pin redis to 7.2", state: "accepted" as const } };
 * equal(notesMatching([note], ["redis", "pin"]).length, 1);
 * const agents = { ...note, note: { ...note.note, state: "proposed" as const } };
 * equal(notesMatching([agents], ["redis"]).length, 0);
 * equal(notesMatching([agents], ["redis"], { proposed: true }).length, 1);
 * ```
 */
export function notesMatching(
  notes: readonly Note[],
  words: readonly string[],
  options: NotesMatchingOptions = {},
): Note[] {
  const content = words.filter((w) => !isStopWord(w));
  const asked = content.length ? content : words;
  if (asked.length === 0) return [];
  const need = asked.length <= 2 ? asked.length : Math.ceil(asked.length / 2);
  return notes.filter((n) => {
    if (n.note.state === "rejected" || n.note.state === "superseded") {
      return false;
    }
    if (n.note.state === "proposed" && !options.proposed) return false;
    const text = n.note.text.toLowerCase();
    return asked.filter((w) => text.includes(w.toLowerCase())).length >= need;
  }).sort((a, b) =>
    Number(b.note.state === "accepted") - Number(a.note.state === "accepted") ||
    b.note.created_at - a.note.created_at
  );
}

/**
 * The line that stands in for proposed notes that matched: how many wait for
 * a person, never their text (an agent wrote it and nobody vouched for it).
 *
 * @param count How many proposed notes matched.
 * @returns The line, or undefined for none.
 * @example
 * ```ts
 * import { proposedNotesLine } from "./project_notes.ts";
 * import { equal } from "node:assert/strict";
 * equal(proposedNotesLine(0), undefined);
 * equal(proposedNotesLine(2)?.startsWith("2 proposed notes match"), true);
 * ```
 */
export function proposedNotesLine(count: number): string | undefined {
  if (count <= 0) return undefined;
  const one = count === 1;
  return `${count} proposed note${one ? " matches" : "s match"} but ${
    one ? "is" : "are"
  } not shown until a person reviews ${
    one ? "it" : "them"
  }: deja remember --list --state proposed, then deja promote <hash> --state accepted`;
}

/**
 * How many proposed notes hold the question's words.
 *
 * @param notes Candidate notes.
 * @param words Lowercased words of the question.
 * @returns The count.
 * @example
 * ```ts
 * import { proposedMatching } from "./project_notes.ts";
 * import { equal } from "node:assert/strict";
 * const note = { hash: "h", note: { type: "note" as const, namespace: "notes", created_at: 1, actor: "agent:mcp", text: "we pin redis", state: "proposed" as const } };
 * equal(proposedMatching([note], ["redis"]), 1);
 * ```
 */
export function proposedMatching(
  notes: readonly Note[],
  words: readonly string[],
): number {
  return notesMatching(notes, words, { proposed: true })
    .filter((n) => n.note.state === "proposed").length;
}

/**
 * One line for a note: state, project, day, text.
 *
 * @param n The note.
 * @param max Character cap of the text.
 * @returns The line (without a leading dash).
 * @example
 * ```ts
 * import { noteLine } from "./project_notes.ts";
 * import { equal } from "node:assert/strict";
 * const note = { hash: "abcdef123456", note: { type: "note" as const, namespace: "notes", created_at: 0, actor: "human:me", text: "pin redis", project: "api", state: "accepted" as const } };
 * equal(noteLine(note), "[accepted note, api, 1970-01-01] pin redis");
 * ```
 */
export function noteLine(n: Note, max = 300): string {
  const text = collapse(n.note.text);
  const body = clip(text, max);
  const where = [
    n.note.project,
    new Date(n.note.created_at).toISOString().slice(0, 10),
  ].filter(Boolean).join(", ");
  return `[${n.note.state} note, ${where}] ${body}`;
}
