/**
 * The project a question names ("where is logout handled in the club
 * dashboard", "poule_v2 seeder"): its sessions first, searched for the
 * rest of the question. A project's name is the last segment of the
 * directory its sessions ran in, so its words are rarely in the
 * transcripts' text and cannot be searched for there.
 *
 * @module
 */
import type { Database } from "../core/_sqlite.ts";
import { RECORD_SLOTS } from "../index/schema.ts";
import { prepared } from "./_statements.ts";
import { projectNames, scopeTotals } from "./_corpus.ts";

/** What {@linkcode projectNamed} found. */
export interface ProjectMention {
  /** The project as the index holds it. */
  project: string;
  /** The query with the name taken out. */
  rest: string;
  /** The name's words, as a full-text phrase. */
  phrase: string;
}

/** Sessions read to tell a name's own sessions from others'. */
const SAID_SESSIONS = 2000;

/**
 * Share of the sessions saying a one-word name that may lie outside its
 * project for the word to stand for it: "bin", "desktop" or a user name
 * said in many projects' paths is a word, not that project.
 */
const OUTSIDE_SHARE = 0.25;

/**
 * The words of a project name: split at separators, case changes and
 * between letters and digits (`chex-mix-timer`, `VirtualGfriend`,
 * `poule_v2`, `Lotto645`), lower-cased.
 */
function nameWords(name: string): string[] {
  // Most names are ASCII: Unicode classes cost milliseconds to build in a
  // fresh process.
  if (/^[\x20-\x7e]*$/.test(name)) {
    return name
      .replace(/([a-z])([A-Z])/g, "$1 $2")
      .replace(/([A-Za-z])(\d)|(\d)([A-Za-z])/g, "$1$3 $2$4")
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter(Boolean);
  }
  return name
    .replace(/(\p{Ll})(\p{Lu})/gu, "$1 $2")
    .replace(/(\p{L})(\p{N})|(\p{N})(\p{L})/gu, "$1$3 $2$4")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/**
 * A name nobody would type as words: a UUID, a hash, a number, or letters
 * too few to mean anything.
 */
function unnameable(words: readonly string[]): boolean {
  const joined = words.join("");
  return joined.length < 3 || /^\d+$/.test(joined) ||
    (words.length >= 3 && words.filter((w) => /\d/.test(w)).length >= 2);
}

/** A project name's words and their letters run together, once per name. */
const names = new Map<string, { words: string[]; key: string } | undefined>();

function nameOf(project: string): { words: string[]; key: string } | undefined {
  if (!names.has(project)) {
    const words = nameWords(project);
    names.set(
      project,
      unnameable(words) ? undefined : { words, key: words.join("") },
    );
  }
  return names.get(project);
}

/** A word of the query and where it stands. */
interface QueryWord {
  text: string;
  at: number;
  end: number;
}

/**
 * Whether the query's words from the `i`-th spell a name, written together
 * or apart ("club dashboard", "club-dashboard", "poule_v2", "Lotto645"):
 * words joined by one space, hyphen, underscore or dot, not inside a path
 * or an identifier (`src/club/dashboard.ts`).
 */
function spelledAt(
  query: string,
  words: readonly QueryWord[],
  i: number,
  key: string,
): { at: number; end: number } | undefined {
  let joined = "";
  for (let j = i; j < words.length; j++) {
    if (
      j > i && !/^[\s_.-]$/.test(query.slice(words[j - 1]!.end, words[j]!.at))
    ) return undefined;
    joined += words[j]!.text;
    if (!key.startsWith(joined)) return undefined;
    if (joined.length < key.length) continue;
    const at = words[i]!.at;
    const end = words[j]!.end;
    const before = query.slice(Math.max(0, at - 1), at);
    const after = query.slice(end, end + 2);
    if (/[_./\\-]/.test(before) || /^(?:[_/\\]|-[A-Za-z])/.test(after)) {
      return undefined;
    }
    return { at, end };
  }
  return undefined;
}

/**
 * Finds the one project a query names. A name of two words or more
 * ("club dashboard") stands for its project; a one-word name only where
 * most sessions saying it are that project's (a word like "master" or a
 * user's name in every path stands for nothing). None when the query
 * names two projects, or when the caller already chose one.
 *
 * @param db The index.
 * @param query The query as typed.
 * @returns The project and the query without its name, or undefined.
 */
export function projectNamed(
  db: Database,
  query: string,
): ProjectMention | undefined {
  const projects = projectNames(db);
  if (projects.length === 0) return undefined;
  const said: QueryWord[] = [];
  const word = /^[\x20-\x7e]*$/.test(query)
    ? /[A-Za-z0-9]+/g
    : /[\p{L}\p{N}]+/gu;
  for (const m of query.matchAll(word)) {
    said.push({
      text: m[0].toLowerCase(),
      at: m.index,
      end: m.index + m[0].length,
    });
  }
  // Each project under its name's first word and its letters run together:
  // a query word starting neither is passed over (a pasted log has
  // thousands of words, an index hundreds of projects).
  const starts = new Map<string, string[]>();
  for (const project of projects) {
    const name = nameOf(project);
    if (!name) continue;
    for (const head of new Set([name.words[0]!, name.key])) {
      const list = starts.get(head);
      if (list) list.push(project);
      else starts.set(head, [project]);
    }
  }
  let found: { project: string; at: number; end: number; words: string[] }[] =
    [];
  const seen = new Set<string>();
  said.forEach((w, i) => {
    for (const project of starts.get(w.text) ?? []) {
      if (seen.has(project)) continue;
      const name = nameOf(project)!;
      const place = spelledAt(query, said, i, name.key);
      if (!place) continue;
      seen.add(project);
      found.push({ project, ...place, words: name.words });
    }
  });
  // A longer name holds a shorter one ("spotter-dov", "spotter"): the
  // longer one is meant.
  found = found.filter((f) =>
    !found.some((g) =>
      g !== f && g.at <= f.at && g.end >= f.end && g.end - g.at > f.end - f.at
    )
  );
  if (found.length !== 1) return undefined;
  const { project, at, end, words } = found[0]!;
  if (words.length === 1 && !ownWord(db, project, words[0]!)) return undefined;
  // A one-word name is a word of the question too ("the image worker"):
  // kept. A name of several words is rarely said as such: taken out.
  // The words that led to the name go with it ("… in the club dashboard").
  const before = query.slice(0, at).replace(
    /\b(?:in|for|on|of|from|at|to)(?:\s+(?:the|my|our))?\s+$|\b(?:the|my|our)\s+$/i,
    "",
  );
  const rest = words.length === 1
    ? query
    : `${before}${query.slice(end).replace(/^'s\b/i, "")}`.replace(
      /[^\S\n]+/g,
      " ",
    ).trim();
  return { project, rest, phrase: words.join(" ") };
}

/**
 * Whether a session says a project's name in any record: there the name is
 * a thing the session worked on (a service another repository deploys).
 *
 * @param db The index.
 * @param session The session's rowid (none: no longer indexed).
 * @param mention The project named.
 */
export function saysName(
  db: Database,
  session: number | undefined,
  mention: ProjectMention,
): boolean {
  if (session === undefined) return false;
  return ["fts_speech", "fts_work"].some((table) =>
    prepared(
      db,
      `SELECT 1 FROM ${table} WHERE ${table} MATCH ? AND rowid >= ? AND rowid < ? LIMIT 1`,
    ).get(
      `"${mention.phrase}"`,
      session * RECORD_SLOTS,
      (session + 1) * RECORD_SLOTS,
    ) !== undefined
  );
}

/** Whether most of the sessions saying `word` are `project`'s. */
function ownWord(db: Database, project: string, word: string): boolean {
  const sessions = new Set<number>();
  for (const table of ["fts_speech", "fts_work"]) {
    const rows = prepared(
      db,
      `SELECT DISTINCT rowid / ${RECORD_SLOTS} AS s FROM ${table} WHERE ${table} MATCH ? LIMIT ${SAID_SESSIONS}`,
    ).all(`"${word}"`) as Array<{ s: number }>;
    for (const r of rows) sessions.add(Math.floor(r.s));
  }
  if (sessions.size === 0) return true;
  const own = prepared(
    db,
    "SELECT count(*) AS n FROM json_each(?) AS w JOIN sessions s ON s.rowid = w.value WHERE lower(s.project) = lower(?)",
  ).get(JSON.stringify([...sessions]), project) as { n: number };
  return (sessions.size - own.n) / sessions.size <= OUTSIDE_SHARE;
}

/** Sessions a name must be said in, at least, to stand for its project. */
const NAME_SESSIONS = 3;

/** Share of its project's sessions a name must be said in. */
const NAME_COVER = 0.5;

/**
 * The one project a name the question capitalises belongs to: said in no
 * other project's sessions, and in at least half of this one's (three or
 * more) — the person a conversation is with, the product a repository
 * builds. Asked across every project, "what did Caroline paint?" is then
 * asked of Caroline's sessions, where her name is in every one and tells
 * none apart. Undefined when no name is, or two names are, one project's.
 *
 * @param db The index.
 * @param names Words the question capitalised inside a sentence.
 * @returns The project, as the index holds it.
 */
export function projectOfName(
  db: Database,
  names: readonly string[],
): string | undefined {
  let found: string | undefined;
  for (const name of names) {
    const rows = prepared(
      db,
      `SELECT s.project AS project, count(*) AS n FROM sessions s WHERE s.hidden = 0 AND s.rowid IN (SELECT DISTINCT rowid / ${RECORD_SLOTS} FROM fts_speech WHERE fts_speech MATCH ?) GROUP BY lower(s.project)`,
    ).all(`"${name.replaceAll('"', '""')}"`) as Array<
      { project: string; n: number }
    >;
    if (rows.length !== 1) continue;
    const { project, n } = rows[0]!;
    const total = (prepared(
      db,
      "SELECT count(*) AS n FROM sessions WHERE hidden = 0 AND lower(project) = lower(?)",
    ).get(project) as { n: number }).n;
    if (project === "" || n < NAME_SESSIONS || n < NAME_COVER * total) continue;
    // The project of every session narrows nothing.
    if (total === scopeTotals(db, "s.hidden = 0", []).n) continue;
    if (found !== undefined && found.toLowerCase() !== project.toLowerCase()) {
      return undefined;
    }
    found = project;
  }
  return found;
}
