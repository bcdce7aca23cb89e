/**
 * `deja how`: the real invocation for something, from what agents actually
 * ran — commands grouped by their normalised text and ranked by how many
 * distinct sessions ran them, this project's first.
 *
 * @module
 */
import type { Database } from "../core/_sqlite.ts";
import { parseQuery, search } from "../search/mod.ts";
import {
  commandFailed,
  isExcluded,
  isShellCommand,
  matchRecords,
  normalizeCommand,
  readsOnly,
  recordAt,
  sessionRows,
} from "./_db.ts";

/** Options for {@linkcode howTo}. */
export interface HowOptions {
  /** The asker's project; its invocations rank first. */
  project?: string;
  /** Session ids to leave out. */
  exclude?: ReadonlySet<string>;
  /** Invocations to return (default 5). */
  limit?: number;
  /** The clock, epoch ms. */
  now: number;
}

/** One invocation and the evidence for it. */
export interface Invocation {
  /** The command as agents ran it. */
  command: string;
  /** Distinct sessions that ran it exactly. */
  sessions: number;
  /** Distinct sessions that ran it, alone or with more arguments. */
  family: number;
  /** Of those, sessions in the asker's project. */
  projectSessions: number;
  /** Runs that succeeded. */
  ok: number;
  /** Runs in all. */
  runs: number;
  /** Last run, epoch ms, when known. */
  last?: number;
  /** Projects it ran in. */
  projects: string[];
  /** `harness:id` of the most recent session that ran it. */
  example: string;
}

/** What {@linkcode howTo} found. */
export interface HowResult {
  /** The question. */
  what: string;
  /** Words searched for. */
  terms: string[];
  /** Invocations, best first. */
  invocations: Invocation[];
  /** Why there are none, when there are none. */
  why?: string;
  /**
   * No command names the words: these ran in the sessions that talked
   * about them (a lead, not an answer).
   */
  fromTalk?: boolean;
}

const FILLER = new Set([
  "how",
  "do",
  "does",
  "i",
  "we",
  "you",
  "to",
  "the",
  "a",
  "an",
  "run",
  "running",
  "use",
  "using",
  "invoke",
  "command",
  "commands",
  "invocation",
  "here",
  "this",
  "project",
  "repo",
  "our",
  "my",
  "is",
  "what",
  "with",
  "for",
  "of",
  "in",
  "on",
  "and",
  "please",
  "can",
  "should",
  "way",
  "right",
  "real",
]);

/** Whether a word of the question is in the command outside its quotes. */
function namesOutsideQuotes(
  command: string,
  terms: readonly string[],
): boolean {
  // A quote left open (a command cut at its first line) runs to the end.
  // A folder a path passes through names nothing it runs: "server" in
  // `git add server/src/index.ts` (the file's own name still counts).
  const bare = command.replace(/"(?:[^"\\]|\\.)*(?:"|$)|'[^']*(?:'|$)/g, " ")
    .replace(/[^\s/\\]+[/\\](?=\S)/g, "/")
    // A message handed to the program (aider's --message, unquoted in its
    // argv) is text, not what runs.
    .replace(/\s(?:--message|--msg|-m)\s+.*?(?=\s--?[a-z]|$)/gi, " ")
    .toLowerCase();
  return terms.some((t) =>
    bare.includes(t.slice(0, Math.max(4, t.length - 2)))
  );
}

/**
 * The content words of a how-question.
 *
 * @param what The question, e.g. "run the tests".
 * @returns Words worth matching against commands.
 * @example
 * ```ts
 * import { howTerms } from "./how.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(howTerms("how do I run the tests"), ["tests"]);
 * ```
 */
export function howTerms(what: string): string[] {
  const { words, phrases } = parseQuery(what);
  const kept = words.filter((w) => !FILLER.has(w));
  // A command is asked for in a few words; a pasted page keeps its first.
  return [...new Set([...phrases, ...(kept.length ? kept : words)])]
    .slice(0, MAX_HOW_TERMS);
}

/** Most words a `how` question is searched by. */
const MAX_HOW_TERMS = 12;

/**
 * Finds the invocations agents used for something.
 *
 * @param db The index.
 * @param what The question, e.g. "run the tests" or "migrate".
 * @param options Project, exclusions, limit and clock.
 * @returns Invocations ranked by distinct sessions.
 */
export async function howTo(
  db: Database,
  what: string,
  options: HowOptions,
): Promise<HowResult> {
  const terms = howTerms(what);
  if (terms.length === 0) {
    return {
      what,
      terms,
      invocations: [],
      why: "The question has no words to look for",
    };
  }
  const matched = (joiner: "AND" | "OR") =>
    matchRecords(db, { terms, roles: ["command"], joiner, limit: 2000 })
      .map((h) => h.rowid);
  let rowids = matched("AND");
  let ranked = await rankInvocations(db, rowids, terms, options);
  // Every word in one command but only inside its quotes (an issue's
  // --description="…"): look for commands that run any of the words.
  if (!ranked.strong && terms.length > 1) {
    const any = matched("OR");
    const wider = await rankInvocations(db, any, terms, options);
    if (wider.strong || rowids.length === 0) {
      rowids = any;
      ranked = wider;
    }
  }
  let talkedAbout = 0;
  if (rowids.length === 0) {
    // Nothing ran under those words: take the commands of sessions that talked about it.
    const talked = await search(db, terms.join(" "), {
      now: options.now,
      limit: 20,
    });
    for (const hit of talked.results) {
      const row = db.prepare(
        "SELECT rowid FROM sessions WHERE harness = ? AND id = ? AND hidden = 0",
      ).get(
        hit.session.harness,
        hit.session.id,
      ) as { rowid: number } | undefined;
      if (!row) continue;
      const cmds = db.prepare(
        "SELECT rowid FROM records WHERE session = ? AND role = 'command' ORDER BY seq",
      )
        .all(row.rowid) as Array<{ rowid: number }>;
      rowids.push(...cmds.map((c) => c.rowid));
    }
    rowids = [...new Set(rowids)];
    talkedAbout = talked.results.length;
    ranked = await rankInvocations(db, rowids, terms, options, true);
  }
  const result: HowResult = { what, terms, invocations: ranked.invocations };
  if (ranked.fromTalk && ranked.invocations.length) result.fromTalk = true;
  if (ranked.invocations.length === 0) {
    const words = terms.map((t) => `"${t}"`).join(", ");
    result.why = rowids.length
      ? "Commands matched, but none that changes something ever succeeded (commands that only read or list are not offered)"
      : talkedAbout
      ? `${
        talkedAbout === 1 ? "A session talks" : `${talkedAbout} sessions talk`
      } about ${words}, but no command ran for it`
      : `No recorded command or conversation mentions ${words}`;
  }
  return result;
}

/**
 * Groups matched command records into invocations and ranks them. `strong`
 * says whether any runs what was asked (outside quotes, not a mere read).
 */
async function rankInvocations(
  db: Database,
  rowids: readonly number[],
  terms: readonly string[],
  options: HowOptions,
  fromTalk = false,
): Promise<{ invocations: Invocation[]; strong: boolean; fromTalk: boolean }> {
  const groups = new Map<
    string,
    Invocation & {
      seen: Set<string>;
      projSeen: Set<string>;
      projectSet: Set<string>;
    }
  >();
  const sessionOf = new Map<number, number>();
  for (const rowid of rowids) {
    const s = db.prepare("SELECT session FROM records WHERE rowid = ?").get(
      rowid,
    ) as { session: number } | undefined;
    if (s) sessionOf.set(rowid, s.session);
  }
  const rows = sessionRows(db, sessionOf.values());
  for (const rowid of rowids) {
    const sid = sessionOf.get(rowid);
    const row = sid === undefined ? undefined : rows.get(sid);
    if (!row || sid === undefined || isExcluded(row, options.exclude)) continue;
    const rec = await recordAt(db, rowid);
    if (!rec) continue;
    const command = normalizeCommand(rec.text);
    if (
      !command || command.length > 300 || !isShellCommand(rec.tool, command)
    ) continue;
    const key = command;
    let g = groups.get(key);
    if (!g) {
      g = {
        command,
        sessions: 0,
        family: 0,
        projectSessions: 0,
        ok: 0,
        runs: 0,
        projects: [],
        example: `${row.harness}:${row.id}`,
        seen: new Set(),
        projSeen: new Set(),
        projectSet: new Set(),
      };
      groups.set(key, g);
    }
    g.runs++;
    if (!commandFailed(db, { session: sid, command: rec })) g.ok++;
    const sk = `${row.harness}:${row.id}`;
    g.seen.add(sk);
    if (
      options.project &&
      row.project.toLowerCase() === options.project.toLowerCase()
    ) g.projSeen.add(sk);
    if (row.project) g.projectSet.add(row.project);
    const t = rec.time ?? row.updated ?? undefined;
    if (t !== undefined && t !== null && (g.last === undefined || t > g.last)) {
      g.last = t;
      g.example = sk;
    }
  }
  const all = [...groups.values()];
  const invocations = all.map(({ seen, projSeen, projectSet, ...inv }) => {
    const family = new Set(seen);
    for (const other of all) {
      if (other.command.startsWith(`${inv.command} `)) {
        for (const k of other.seen) {
          family.add(k);
        }
      }
    }
    return {
      ...inv,
      sessions: seen.size,
      family: family.size,
      projectSessions: projSeen.size,
      projects: [...projectSet].sort(),
    };
  }).filter((inv) => inv.ok > 0);
  // A command that only reads or lists (sed -n … tests/x.spec.ts, cat, ls)
  // names the words without being the invocation asked about; so does one
  // that says them only inside a quoted argument (a commit message, an
  // issue's --description="…").
  // Commands of sessions that only talked about it name nothing: of those,
  // the ones that change something.
  const real = invocations.filter((inv) =>
    !readsOnly(inv.command) &&
    (fromTalk || namesOutsideQuotes(inv.command, terms))
  );
  // The more of the question a command names, the more it is the answer
  // ("docker build" before "npm run build" for "build the docker image").
  const named = new Map(
    invocations.map((inv) => [
      inv,
      terms.filter((t) => namesOutsideQuotes(inv.command, [t])).length,
    ]),
  );
  // Else the ones that run the words only inside quotes — never one that
  // only reads.
  const best =
    (real.length > 0
      ? real
      : invocations.filter((inv) => !readsOnly(inv.command)))
      .sort((a, b) =>
        named.get(b)! - named.get(a)! ||
        Number(b.projectSessions > 0) - Number(a.projectSessions > 0) ||
        b.family - a.family ||
        b.sessions - a.sessions ||
        b.ok / b.runs - a.ok / a.runs ||
        a.command.length - b.command.length ||
        (b.last ?? 0) - (a.last ?? 0)
      ).slice(0, options.limit ?? 5);
  return { invocations: best, strong: real.length > 0, fromTalk };
}
