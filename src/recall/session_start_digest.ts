/**
 * The session-start digest: a few lines on the current project's recent
 * sessions, led by its accepted notes, within 2 KiB including the frame.
 *
 * @module
 */
import { shortSessionId } from "../core/text.ts";
import type { Database } from "../core/_sqlite.ts";
import { formatAge } from "../core/time.ts";
import { ownValue } from "../core/lookup.ts";
import type { Note } from "../memory/mod.ts";
import type { SessionRow } from "../search/mod.ts";
import {
  clip,
  CLOSING_TURNS,
  collapse,
  DECISION_LINE,
  decisionSentence,
  isExcluded,
  recordAt,
} from "./_db.ts";
import {
  byteLength,
  cutBytes,
  frameOverhead,
  neutralizeFrameTags,
} from "./frame.ts";
import { noteLine } from "./project_notes.ts";
import { AGENT_NAMES } from "./agent_names.ts";

/** Default budget of the session-start digest, frame included. */
export const SESSION_START_BUDGET = 2048;

/** Options for {@linkcode sessionStartDigest}. */
export interface SessionStartOptions {
  /** Notes of the project (accepted ones lead). */
  notes?: readonly Note[];
  /** Session ids to leave out (the new session, live ones). */
  exclude?: ReadonlySet<string>;
  /** Sessions to list at most (default 5). */
  sessions?: number;
  /** Byte budget of the body (default: 2 KiB minus the frame). */
  budget?: number;
  /** The clock, epoch ms. */
  now: number;
}

/** The digest and what it drew on. */
export interface SessionStartDigest {
  /** The digest text (not yet framed); "" when there is nothing to say. */
  text: string;
  /** Sessions listed, as `harness:id`. */
  sessions: string[];
  /** Accepted notes listed. */
  notes: number;
}

/**
 * How a session ended: the latest decision among its closing assistant
 * turns, else its last substantial one. A decision from earlier in the
 * session is not quoted, however marked: later turns may have undone it.
 */
async function closingLine(db: Database, row: SessionRow): Promise<string> {
  const closing = db.prepare(
    "SELECT rowid FROM records WHERE session = ? AND role = 'assistant' ORDER BY seq DESC LIMIT ?",
  ).all(row.rowid, CLOSING_TURNS) as Array<{ rowid: number }>;
  let last = "";
  for (const { rowid } of closing) {
    const text = (await recordAt(db, rowid))?.text.trim();
    if (!text) continue;
    if (DECISION_LINE.test(text)) return decisionSentence(text, 200);
    last ||= decisionSentence(text, 200);
  }
  return last;
}

/**
 * Builds the session-start digest for a project.
 *
 * @param db The index.
 * @param project The project name.
 * @param options Notes, exclusions, size, clock.
 * @returns The digest ("" when the project has neither notes nor sessions).
 */
export async function sessionStartDigest(
  db: Database,
  project: string,
  options: SessionStartOptions,
): Promise<SessionStartDigest> {
  const budget = options.budget ??
    SESSION_START_BUDGET - frameOverhead("session-start");
  const want = options.sessions ?? 5;
  const rows = db.prepare(
    `SELECT * FROM sessions WHERE lower(project) = lower(?) AND hidden = 0 ORDER BY updated DESC LIMIT ?`,
  ).all(
    project,
    want * 3 + (options.exclude?.size ?? 0),
  ) as unknown as SessionRow[];
  const kept = rows.filter((r) => !isExcluded(r, options.exclude));
  const primary = kept.filter((r) => r.lineage !== "subagent");
  const chosen = (primary.length ? primary : kept).slice(0, want);
  const accepted = (options.notes ?? []).filter((n) =>
    n.note.state === "accepted"
  );
  if (chosen.length === 0 && accepted.length === 0) {
    return { text: "", sessions: [], notes: 0 };
  }
  const lines: string[] = [
    `deja: what earlier sessions in ${project || "this directory"} left behind`,
  ];
  let used = byteLength(lines[0] as string) + 1;
  // Measured as the frame will print it: a defused tag is 2 bytes longer.
  const add = (text: string): boolean => {
    const line = neutralizeFrameTags(text);
    const size = byteLength(line) + 1;
    if (used + size > budget) return false;
    lines.push(line);
    used += size;
    return true;
  };
  let notes = 0;
  if (accepted.length) {
    add("Accepted notes (the project's standing decisions):");
    for (const n of accepted.slice(0, 5)) {
      if (add(`- ${noteLine(n, 220)}`)) notes++;
    }
  }
  const listed: string[] = [];
  if (chosen.length) {
    add(
      "Recent sessions (deja show <id> prints one; the deja MCP tool recalls more):",
    );
    for (const row of chosen) {
      const when = row.updated
        ? formatAge(row.updated, options.now)
        : "undated";
      const who = ownValue(AGENT_NAMES, row.harness) ?? row.harness;
      const closing = await closingLine(db, row);
      const line = `- ${when} · ${who} ${shortSessionId(row.id)} · ${
        clip(collapse(row.title ?? ""), 90)
      }${closing ? ` — ${closing}` : ""}`;
      if (!add(line)) {
        const room = budget - used - 1;
        if (room > 80 && add(cutBytes(line, room))) {
          listed.push(`${row.harness}:${row.id}`);
        }
        break;
      }
      listed.push(`${row.harness}:${row.id}`);
    }
  }
  return { text: lines.join("\n"), sessions: listed, notes };
}
