/**
 * Whether a name a question capitalises is a person's the chats are with:
 * LoCoMo-style memories of people talking, stored under one project, where
 * a question about Caroline is answered in the sessions that say her name.
 *
 * @module
 */
import type { Database } from "../core/_sqlite.ts";
import {
  FLAG,
  RECORD_SLOTS,
  roleOfRecord,
  sessionOfRecord,
} from "../index/schema.ts";
import { quote } from "./_retrieve.ts";
import { prepared } from "./_statements.ts";

/** Sessions a name must be said in, at least, to be read as a person's. */
const PERSON_SESSIONS = 3;

/**
 * Share of the sessions saying a name that must speak to or as that person
 * (a greeting or thanks to them, or one side's turns labelled with the
 * name) for the name to be a person's, not a thing both sides talk about
 * ("React", "Balance").
 */
const PERSON_SHARE = 0.8;

/** Words people greet or thank someone with, before the name. */
const VOCATIVES = [
  "hey",
  "hi",
  "hello",
  "thanks",
  "thank you",
  "congrats",
  "congratulations",
  "sorry",
  "bye",
  "morning",
];

/**
 * The people among the names a question capitalises: each a name said in
 * three sessions or more, most of which greet or thank that person by it
 * ("thanks, Caroline!") or label one side's turns with it ("Caroline: …",
 * two turns or more, the other side none).
 *
 * @param db The index.
 * @param names Words the question capitalised inside a sentence.
 * @returns Those names, lowercased, each once.
 */
export function peopleNamed(
  db: Database,
  names: readonly string[],
): string[] {
  const out: string[] = [];
  for (const name of new Set(names.map((n) => n.toLowerCase()))) {
    // The evidence first: most words are greeted by no one and label no
    // turns, and their sessions (a library's, thousands) need no count.
    const greeted = new Set(
      postings(db, VOCATIVES.map((w) => quote(`${w} ${name}`)).join(" OR "))
        .map(sessionOfRecord),
    ).size;
    const evidence = Math.max(
      greeted,
      labelledSessions(postings(db, `^${quote(name)}`)),
    );
    if (evidence < PERSON_SESSIONS) continue;
    if (evidence >= PERSON_SHARE * sessionsSaying(db, name)) out.push(name);
  }
  return out;
}

/**
 * Sessions where turns of one side only, two or more, open with the name.
 *
 * @param opening Speech records whose first word is the name.
 * @returns How many sessions.
 */
function labelledSessions(opening: readonly number[]): number {
  const sides = new Map<number, { user: number; assistant: number }>();
  for (const id of opening) {
    const role = roleOfRecord(id);
    if (role !== "user" && role !== "assistant") continue;
    const s = sessionOfRecord(id);
    const c = sides.get(s) ?? { user: 0, assistant: 0 };
    c[role]++;
    sides.set(s, c);
  }
  let n = 0;
  for (const c of sides.values()) {
    if (Math.min(c.user, c.assistant) === 0 && c.user + c.assistant >= 2) n++;
  }
  return n;
}

/** Sessions read for whom a person greets, at most. */
const PARTNER_SESSIONS = 60;

/** Share of a person's sessions that must greet the same other name. */
const PARTNER_SHARE = 0.3;

/** A greeting or thanks and the capitalised name after it. */
const GREETED =
  /\b(?:[Hh]ey|[Hh]i|[Hh]ello|[Tt]hanks|[Tt]hank you)[,!]?\s+([A-Z][a-z]+)\b/g;

/**
 * Whom a person's chats are with: the name greeted or thanked in the
 * opening turns of most sessions saying the person's name, when that name
 * is a person's too. Where one side's name is said only by the other side
 * ("Hey Andrew!" opens a chat in which no one says "Audrey"), a question
 * about either is answered in the sessions saying one of the two.
 *
 * @param db The index.
 * @param name A person's name, lowercased (from {@linkcode peopleNamed}).
 * @returns The other person's name, lowercased, or undefined.
 */
export function partnerOf(db: Database, name: string): string | undefined {
  const sessions = [...new Set(postings(db, quote(name)).map(sessionOfRecord))]
    .slice(0, PARTNER_SESSIONS);
  if (sessions.length < PERSON_SESSIONS) return undefined;
  const opening = prepared(
    db,
    `SELECT body FROM records WHERE rowid >= ? AND rowid < ? AND role IN ('user', 'assistant') AND (flags & ${FLAG.compressed}) = 0 ORDER BY rowid LIMIT 2`,
  );
  const greeted = new Map<string, number>();
  for (const session of sessions) {
    const said = new Set<string>();
    for (
      const { body } of opening.all(
        session * RECORD_SLOTS,
        (session + 1) * RECORD_SLOTS,
      ) as Array<{ body: string }>
    ) {
      for (const m of body.matchAll(GREETED)) said.add(m[1]!.toLowerCase());
    }
    said.delete(name);
    for (const other of said) greeted.set(other, (greeted.get(other) ?? 0) + 1);
  }
  const [best] = [...greeted].sort((a, b) =>
    b[1] - a[1] || (a[0] < b[0] ? -1 : 1)
  );
  if (!best || best[1] < PARTNER_SHARE * sessions.length) return undefined;
  return peopleNamed(db, [best[0]]).length ? best[0] : undefined;
}

/** How many sessions' speech says a word. */
function sessionsSaying(db: Database, word: string): number {
  return (prepared(
    db,
    `SELECT count(DISTINCT rowid / ${RECORD_SLOTS}) AS n FROM fts_speech WHERE fts_speech MATCH ?`,
  ).get(quote(word)) as { n: number }).n;
}

/** Speech records matching an FTS5 expression. */
function postings(db: Database, expression: string): number[] {
  const row = prepared(
    db,
    "SELECT json_group_array(rowid) AS ids FROM fts_speech WHERE fts_speech MATCH ?",
  ).get(expression) as { ids: string } | undefined;
  return JSON.parse(row?.ids ?? "[]") as number[];
}
