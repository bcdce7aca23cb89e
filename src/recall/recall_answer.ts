/**
 * MCP `recall`: dense snippets for a question, within 4 KiB including the
 * trust frame — matching reviewed notes first, then the asker's project,
 * then the rest of the machine, from one ranked search each; proposed notes
 * (an agent's, not yet accepted by a person) are only counted, last.
 *
 * @module
 */
import type { Database } from "../core/_sqlite.ts";
import { shortSessionId } from "../core/text.ts";
import { formatAge } from "../core/time.ts";
import type { Note } from "../memory/mod.ts";
import {
  isStopWord,
  parseQuery,
  search,
  type SearchHit,
} from "../search/mod.ts";
import { clip, collapse } from "./_db.ts";
import {
  byteLength,
  cutBytes,
  frameOverhead,
  neutralizeFrameTags,
} from "./frame.ts";
import {
  noteLine,
  notesMatching,
  proposedMatching,
  proposedNotesLine,
} from "./project_notes.ts";

/** Default budget of a recall answer, frame included. */
export const RECALL_BUDGET = 4096;

/** Options for {@linkcode recallAnswer}. */
export interface RecallOptions {
  /** The asker's project; its sessions come first. */
  project?: string;
  /** Session ids to leave out (live sessions). */
  exclude?: ReadonlySet<string>;
  /** Notes to match (from the memory file). */
  notes?: readonly Note[];
  /** Byte budget of the answer body (default: 4 KiB minus the frame). */
  budget?: number;
  /** Sessions to quote at most (default 8). */
  limit?: number;
  /** The clock, epoch ms. */
  now: number;
}

/** A recall answer. */
export interface RecallAnswer {
  /** The dense text (not yet framed). */
  text: string;
  /** Sessions quoted, as `harness:id`. */
  sessions: string[];
  /** Notes quoted, by hash. */
  notes: string[];
  /** Proposed notes that matched and were counted, not quoted. */
  proposedNotes: number;
  /** Why nothing was found, when nothing was. */
  why?: string;
}

async function partialMatches(
  db: Database,
  words: readonly string[],
  now: number,
  limit: number,
): Promise<SearchHit[]> {
  const byKey = new Map<
    string,
    { hit: SearchHit; words: number; score: number }
  >();
  for (const word of words) {
    const found = await search(db, word, { now, limit: 20, snippets: 1 });
    for (const hit of found.results) {
      const key = `${hit.session.harness}:${hit.session.id}`;
      const entry = byKey.get(key);
      if (entry) {
        entry.words++;
        entry.score += hit.score;
        if (entry.hit.snippets.length < 2) {
          entry.hit.snippets.push(...hit.snippets.slice(0, 1));
        }
      } else {byKey.set(key, {
          hit: { ...hit, snippets: [...hit.snippets] },
          words: 1,
          score: hit.score,
        });}
    }
  }
  return [...byKey.values()].filter((e) => e.words > 1 || words.length === 1)
    .sort((a, b) => b.words - a.words || b.score - a.score).slice(0, limit).map(
      (e) => e.hit,
    );
}

function excluded(
  hit: SearchHit,
  exclude: ReadonlySet<string> | undefined,
): boolean {
  if (!exclude?.size) return false;
  return exclude.has(hit.session.id) ||
    (!!hit.session.parent && exclude.has(hit.session.parent));
}

function hitBlock(hit: SearchHit, now: number): string {
  const s = hit.session;
  const updated = s.updated ? Date.parse(s.updated) : undefined;
  const head = `${s.project || "-"} · ${s.harness}:${shortSessionId(s.id)} · ${
    updated ? formatAge(updated, now) : "undated"
  } · ${clip(collapse(s.title), 90)}`;
  const lines = [head];
  for (const snip of hit.snippets) {
    const tags = [
      snip.superseded ? "superseded" : "",
      snip.subagent ? "sub-agent" : "",
    ].filter(Boolean);
    lines.push(
      `  ${snip.role}${tags.length ? ` [${tags.join(", ")}]` : ""}: ${
        collapse(snip.text)
      }`,
    );
  }
  return lines.join("\n");
}

/**
 * The relevance-tier hits far below the best, when some hit holds every
 * word: they share a word or two of the question and nothing more.
 */
function looseHits(hits: readonly SearchHit[]): Set<SearchHit> {
  const best = Math.max(0, ...hits.map((h) => h.score));
  if (!hits.some((h) => h.tier !== "relevance")) return new Set();
  return new Set(
    hits.filter((h) => h.tier === "relevance" && h.score < LOOSE * best),
  );
}

/** The share of the best score a relevance-only hit needs to be quoted. */
const LOOSE = 0.6;

/**
 * Answers a recall question from the index and the notes.
 *
 * @param db The index.
 * @param query The question (words, "phrases").
 * @param options Project, exclusions, notes, budget, clock.
 * @returns The dense answer.
 */
export async function recallAnswer(
  db: Database,
  query: string,
  options: RecallOptions,
): Promise<RecallAnswer> {
  const budget = options.budget ??
    RECALL_BUDGET - frameOverhead("recall", "x".repeat(60));
  const limit = options.limit ?? 8;
  const { words, phrases } = parseQuery(query);
  // "what is the": every session says it, and 4 KiB of them helps no one.
  if (
    phrases.length === 0 && words.length > 0 &&
    words.every((w) => isStopWord(w))
  ) {
    return {
      text: `Nothing recalled for "${
        clip(query, 200)
      }": it has only common words; ask with one that names the thing (a file, an error, a command, a topic)`,
      sessions: [],
      notes: [],
      proposedNotes: 0,
      why: "The question has only common words",
    };
  }
  const notes = notesMatching(options.notes ?? [], words).slice(0, 4);
  const proposedNotes = proposedMatching(options.notes ?? [], words);
  const proposedLine = proposedNotesLine(proposedNotes);
  const slack = options.exclude?.size ?? 0;
  const project = options.project
    ? await search(db, query, {
      now: options.now,
      project: options.project,
      limit: limit + slack,
      snippets: 2,
    })
    : undefined;
  let machine = await search(db, query, {
    now: options.now,
    limit: limit * 2 + slack,
    snippets: 2,
  });
  let partial = false;
  if (
    machine.results.length === 0 && (project?.results.length ?? 0) === 0 &&
    words.length > 1
  ) {
    // No one record holds every word: rank sessions by how many words they hold.
    const merged = await partialMatches(
      db,
      words.slice(0, 5),
      options.now,
      limit + slack,
    );
    if (merged.length) {
      machine = { ...machine, results: merged };
      partial = true;
    }
  }
  const seen = new Set<string>();
  const ours: SearchHit[] = [];
  const elsewhere: SearchHit[] = [];
  for (const hit of project?.results ?? []) {
    const key = `${hit.session.harness}:${hit.session.id}`;
    if (excluded(hit, options.exclude) || seen.has(key)) continue;
    seen.add(key);
    ours.push(hit);
  }
  for (const hit of machine.results) {
    const key = `${hit.session.harness}:${hit.session.id}`;
    if (excluded(hit, options.exclude) || seen.has(key)) continue;
    seen.add(key);
    elsewhere.push(hit);
  }
  // One exact hit is the answer: sessions that only share a word or two
  // of the question would take the budget from it.
  const loose = looseHits([...ours, ...elsewhere]);
  const keep = (hits: SearchHit[]) => hits.filter((h) => !loose.has(h));
  const out: string[] = [];
  const quoted: string[] = [];
  const notesQuoted: string[] = [];
  // The proposed-notes line goes last but its room is kept from the start.
  let used = proposedLine ? byteLength(proposedLine) + 1 : 0;
  // Measured as the frame will print it: a defused tag is 2 bytes longer.
  const add = (text: string): boolean => {
    const block = neutralizeFrameTags(text);
    const size = byteLength(block) + 1;
    if (used + size > budget) return false;
    out.push(block);
    used += size;
    return true;
  };
  if (notes.length) {
    add("notes:");
    for (const n of notes) {
      if (add(`- ${noteLine(n, 240)}`)) notesQuoted.push(n.hash);
    }
  }
  let count = 0;
  const section = (title: string, hits: SearchHit[]) => {
    if (hits.length === 0 || count >= limit) return;
    if (!add(title)) return;
    for (const hit of hits) {
      if (count >= limit) break;
      const block = hitBlock(hit, options.now);
      if (!add(block)) {
        const room = budget - used - 1;
        if (room > 120) add(cutBytes(block, room));
        count = limit;
        break;
      }
      quoted.push(`${hit.session.harness}:${hit.session.id}`);
      count++;
    }
  };
  if (partial) {
    section("no single line holds every word; sessions holding most of them:", [
      ...ours,
      ...elsewhere,
    ]);
  } else {
    section(
      options.project ? `in ${options.project}:` : "sessions:",
      keep(options.project ? ours : elsewhere),
    );
    if (options.project) section("elsewhere on this machine:", keep(elsewhere));
  }
  const answer: RecallAnswer = {
    text: [...out, ...(proposedLine ? [proposedLine] : [])].join("\n"),
    sessions: quoted,
    notes: notesQuoted,
    proposedNotes,
  };
  if (quoted.length === 0 && notesQuoted.length === 0) {
    answer.why = machine.why ??
      (options.exclude?.size
        ? "Only live sessions matched, and they are left out of their own recall"
        : "No session matches");
    // Echo a pasted log's start, not all of it: the answer has a budget
    // (the reason may quote the query too).
    answer.text = `Nothing recalled for "${clip(query, 200)}": ${
      clip(answer.why, 400)
    }${proposedLine ? `\n${proposedLine}` : ""}`;
  }
  return answer;
}
