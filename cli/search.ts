/**
 * `deja search`: find the sessions where something was said or done.
 *
 * @module
 */
import {
  boolFlag,
  type Command,
  EXIT,
  filterFlag,
  printJson,
  rolesFlag,
  stringFlag,
} from "./_command.ts";
import { plural } from "../src/core/plural.ts";
import { openIndexForQuery } from "./_context.ts";
import { harnessesFlag } from "./_harness_ids.ts";
import { harnessId } from "../src/core/harness_ids.ts";
import { UsageError } from "../src/core/errors.ts";
import { formatAge, parseSince } from "../src/core/time.ts";
import {
  type ScoreParts,
  search,
  type SearchOptions,
  type SearchResult,
} from "../src/search/search.ts";
import { type Io, stylesOutput } from "../src/core/io.ts";
import { memoryPath } from "../src/core/paths.ts";
import { parseQuery } from "../src/search/query.ts";
import type { Note } from "../src/memory/mod.ts";

/** The `search` subcommand. */
export const searchCommand: Command = {
  name: "search",
  summary: "Search every indexed session",
  usage: 'deja search <words...> ["a phrase"] [options]',
  help:
    `Ask in words or in a question; "quoted phrases" and \`code\` stay whole.
Stop words are dropped, identifiers match in any spelling (getUserProfile,
get_user_profile, "user profile"), and a time said in words ("last week",
"in may") puts sessions from then first. The ladder: exact (every word in
one session) → relaxed (the fewest words dropped, named) → stemmed (other
forms) → fuzzy ("did you mean") → relevance (IDF-weighted overlap, fused
with the strict ranking). Each result names the tier that found it.
Sessions are ranked by relevance with small bounded lifts (user turns,
proximity, title, decisions, freshness) and damping (pasted logs, gave up).
What was said comes first. Work records (commands, files, edits, tool
output, summaries) are searched too when nothing said holds every word of a
query that is not a question (an error message, a command): up to five
sessions whose work records hold them all are shown, marked "in work
records". Accepted notes kept with deja remember that hold the query's words
come first (under "notes" in --json); proposed ones (an agent's, not yet
accepted) are only counted ("proposedNotes"). --role searches only the
roles named. A question naming an agent ("what did codex change in the
parser?") puts that agent's sessions first, and so does one naming a project
("…in the club dashboard?") or a name only one project's sessions say, in most
of them ("what did Caroline paint?"), for that project's sessions; a person's
name (greeted by name or labelling one side's turns, in most sessions saying
it) puts the sessions saying it (every person named, or the one their chats
open by greeting) first when no project is theirs. A query
holds at most 8192
characters, as over MCP.

Options:
  --harness ID     Only this harness (repeatable, or a,b)
  --project NAME   Only this project
  --since WHEN     30d, 12h, 2w, 3mo (m is minutes) or a date (2026-05-01)
  --role ROLE      user, assistant, tool-output, command, files, edit, summary (repeatable, or a,b)
  --session ID     Only sessions whose id starts with ID (harness:ID too)
  --limit N        Sessions to show (default 10)
  --all            Every matching session
  --re             Treat the query as a regular expression, case-insensitive (scans records of every role unless --role names some; a pattern still running after 5 s on one batch of records is stopped, QRY-E006)
  --explain        Print how the query was read, the ladder's steps and each
                   score's parts
  --json           Machine-readable output (with --explain, score parts too)

Examples:
  deja search docker compose port --project api --since 30d
  deja search "why did we pin the redis client?" --explain
  deja search "connection refused" --role tool-output --json`,
  permissions: { read: true, env: true },
  options: {
    harness: { type: "string", multiple: true },
    project: { type: "string" },
    since: { type: "string" },
    role: { type: "string", multiple: true },
    session: { type: "string" },
    limit: { type: "string" },
    all: { type: "boolean" },
    re: { type: "boolean" },
    explain: { type: "boolean" },
    json: { type: "boolean" },
  },
  async run(args, io) {
    const query = args.positionals.join(" ").trim();
    if (!query) throw new UsageError("search needs at least one word");
    // --json echoes the query in each ladder step: a pasted log came back
    // nine times over.
    if (query.length > MAX_QUERY_CHARS) {
      throw new UsageError(
        `The query is ${query.length} characters; the limit is ${MAX_QUERY_CHARS}: search for a distinctive line of it`,
      );
    }
    const options: SearchOptions = { now: io.now() };
    const harnesses = harnessesFlag(args);
    if (harnesses.length) options.harnesses = harnesses;
    const project = filterFlag(args, "project");
    if (project) options.project = project;
    const since = filterFlag(args, "since");
    if (since) {
      const at = parseSince(since, io.now());
      if (at === undefined) {
        throw new UsageError(
          `--since "${since}" is neither a duration (30d) nor a date`,
        );
      }
      options.since = at;
    }
    const roles = rolesFlag(args);
    if (roles.length) options.roles = roles;
    const session = filterFlag(args, "session");
    if (session) sessionFilter(session, options);
    const limit = stringFlag(args, "limit");
    if (limit) {
      const n = Number(limit);
      if (!Number.isInteger(n) || n < 1) {
        throw new UsageError(
          `--limit "${limit}" is not a positive whole number`,
        );
      }
      options.limit = n;
    }
    if (boolFlag(args, "all")) options.all = true;
    if (boolFlag(args, "re")) options.regex = true;
    const explain = boolFlag(args, "explain");
    if (explain) options.explain = true;
    const db = openIndexForQuery(io);
    let result: SearchResult;
    if (!db) {
      result = {
        query,
        results: [],
        total: 0,
        why: "Nothing is indexed yet: run deja index",
      };
    } else {
      try {
        result = await search(db, query, options);
      } finally {
        db.close();
      }
    }
    // "9m" is nine minutes here, as in every duration deja reads; a person
    // who meant months learns it when that window is what emptied the page.
    const minutes = since?.match(/^(\d+)m$/)?.[1];
    if (minutes && result.results.length === 0) {
      result.why = `${result.why ?? "No results."} (--since ${since} is ${
        plural(Number(minutes), "minute")
      }; months are ${minutes}mo)`;
    }
    // Notes kept with `deja remember` are about projects, not sessions: a
    // search narrowed to harnesses, roles, a session or a pattern skips them.
    const { notes, proposed } =
      options.regex || options.harnesses || options.roles || options.session
        ? { notes: [], proposed: 0 }
        : await matchingNotes(io, query, project);
    if (boolFlag(args, "json")) {
      printJson(io, {
        ...result,
        notes: notes.map((n) => ({
          hash: n.hash,
          state: n.note.state,
          project: n.note.project ?? null,
          created: new Date(n.note.created_at).toISOString(),
          text: n.note.text,
        })),
        proposedNotes: proposed,
      });
    } else {
      if (notes.length || proposed) await printNotes(io, notes, proposed);
      printResult(io, result, explain);
    }
    return EXIT.ok;
  },
};

/**
 * The notes module, loaded by a computed specifier: a literal one would
 * have Deno prepare it, and the memory and redaction modules it brings,
 * on every search, notes or not.
 */
function notesModule(): Promise<
  typeof import("../src/recall/project_notes.ts")
> {
  return import(
    new URL("../src/recall/project_notes.ts", import.meta.url).href
  );
}

/**
 * Reviewed notes in the memory file holding the query's words (none without
 * one), and how many proposed ones hold them too.
 */
async function matchingNotes(
  io: Io,
  query: string,
  project: string | undefined,
): Promise<{ notes: Note[]; proposed: number }> {
  const path = memoryPath(io.env);
  try {
    Deno.statSync(path);
  } catch {
    return { notes: [], proposed: 0 };
  }
  const { loadNotes, notesMatching, proposedMatching } = await notesModule();
  const notes = await loadNotes(path, project ? { project } : {});
  const words = parseQuery(query).words;
  return {
    notes: notesMatching(notes, words).slice(0, NOTES_SHOWN),
    proposed: proposedMatching(notes, words),
  };
}

/**
 * Sets the `--session` filter. `harness:id-prefix`, as show and resume take
 * it and print it, narrows to that harness too.
 */
function sessionFilter(value: string, options: SearchOptions): void {
  const colon = value.indexOf(":");
  const named = colon > 0 ? harnessId(value.slice(0, colon)) : undefined;
  if (!named) {
    options.session = value;
    return;
  }
  if (options.harnesses && !options.harnesses.includes(named)) {
    throw new UsageError(
      `--session "${value}" is a ${named} session, but --harness names ${
        options.harnesses.join(", ")
      }`,
    );
  }
  options.harnesses = [named];
  options.session = value.slice(colon + 1);
}

/** The longest query searched, the MCP tool's limit too. */
const MAX_QUERY_CHARS = 8192;

/** Notes shown above the sessions, at most. */
const NOTES_SHOWN = 5;

async function printNotes(
  io: Io,
  notes: readonly Note[],
  proposed: number,
): Promise<void> {
  const { noteLine, proposedNotesLine } = await notesModule();
  io.stdout.write("Notes (deja remember):\n");
  for (const n of notes) io.stdout.write(`- ${noteLine(n, 300)}\n`);
  const waiting = proposedNotesLine(proposed);
  if (waiting) io.stdout.write(`(${waiting})\n`);
  io.stdout.write("\n");
}

function printResult(io: Io, result: SearchResult, explain: boolean): void {
  const styled = stylesOutput(io);
  const bold = (s: string) => (styled ? `\x1b[1m${s}\x1b[22m` : s);
  const dim = (s: string) => (styled ? `\x1b[2m${s}\x1b[22m` : s);
  if (explain) printLadder(io, result);
  if (result.results.length === 0) {
    io.stdout.write(`No results. ${result.why ?? ""}\n`);
    return;
  }
  if (result.didYouMean) {
    io.stdout.write(`Did you mean: ${result.didYouMean}\n`);
  }
  if (result.why) io.stdout.write(`${dim(result.why)}\n`);
  result.results.forEach((hit, i) => {
    const s = hit.session;
    const when = s.updated
      ? `${s.updated.slice(0, 10)}, ${
        formatAge(Date.parse(s.updated), io.now())
      }`
      : "undated";
    const lineage = s.lineage
      ? ` (${s.lineage} of ${s.parent?.slice(0, 8)})`
      : "";
    io.stdout.write(
      `${i + 1}. ${bold(s.title || "(untitled)")}\n   ${
        dim(
          `${s.harness} · ${
            s.project || "-"
          } · ${when} · ${s.id}${lineage} · ${hit.tier}${
            hit.foundIn === "work" ? " (in work records)" : ""
          }${
            hit.viaSubagent
              ? ` (its sub-agent ${hit.viaSubagent.slice(0, 8)} matched)`
              : ""
          }`,
        )
      }\n`,
    );
    if (explain && hit.explain) printParts(io, hit.explain);
    for (const snip of hit.snippets) {
      const flags = [
        snip.superseded ? "superseded" : "",
        snip.subagent ? "sub-agent" : "",
      ]
        .filter(Boolean).join(", ");
      io.stdout.write(
        `   ${snip.role}${flags ? ` [${flags}]` : ""}: ${
          highlight(snip.text, snip.ranges, bold)
        }\n`,
      );
    }
  });
  io.stdout.write(
    dim(
      result.totalAtLeast
        ? `${result.results.length} of ${result.total}+ matching sessions (a regular expression is scanned until the page is full; --all scans every session)`
        : `${result.results.length} of ${result.total} matching session${
          result.total === 1 ? "" : "s"
        }`,
    ) + "\n",
  );
}

function printLadder(io: Io, result: SearchResult): void {
  const r = result.reading;
  if (r) {
    io.stdout.write(`ask: ${r.ask}\n`);
    io.stdout.write(`terms: ${r.terms.join(", ") || "-"}`);
    if (r.dropped.length) {
      io.stdout.write(`  (dropped: ${r.dropped.join(", ")})`);
    }
    if (r.overBudget.length) {
      const more = (r.overBudgetCount ?? 0) - r.overBudget.length;
      io.stdout.write(
        `  (over budget: ${r.overBudget.join(", ")}${
          more > 0 ? ` and ${more} more` : ""
        })`,
      );
    }
    io.stdout.write("\n");
    if (r.notMeant) {
      io.stdout.write(`not meant (not searched): ${r.notMeant}\n`);
    }
    if (r.time) {
      io.stdout.write(
        `time: "${r.time.phrase}" → ${r.time.from.slice(0, 10)} … ${
          r.time.to.slice(0, 10)
        } (sessions from then first)\n`,
      );
    }
  }
  result.ladder?.forEach((step, i) => {
    io.stdout.write(
      `${i + 1}. ${step.tier.padEnd(9)} ${
        String(step.sessions).padStart(5)
      } session${step.sessions === 1 ? " " : "s"}  ${step.searched}${
        step.note ? `  — ${step.note}` : ""
      }\n`,
    );
  });
  io.stdout.write("\n");
}

function printParts(io: Io, p: ScoreParts): void {
  const sig = Object.entries(p.signals)
    .filter(([k, v]) => k !== "product" && v !== 1)
    .map(([k, v]) => `${k} ×${v}`).join(", ");
  io.stdout.write(
    `   score: relevance ${p.relevance} = ${
      p.turn === undefined ? "" : `0.5·turn ${p.turn} + 0.5·(`
    }0.45·coverage ${p.coverage} + 0.35·best ${p.best} + 0.2·bm25 ${p.bm25}${
      p.turn === undefined ? "" : ")"
    }\n` +
      `          × signals ${p.signals.product}${
        sig ? ` (${sig})` : ""
      } = ${p.adjusted}; ` +
      `ranks strict ${
        p.strictRank ?? "-"
      }, relevance ${p.relevanceRank} → fused ${p.fused}` +
      (p.inWindow === undefined
        ? ""
        : p.inWindow
        ? "; in the time window"
        : "; outside the time window") +
      "\n",
  );
}

function highlight(
  text: string,
  ranges: Array<[number, number]>,
  mark: (s: string) => string,
): string {
  let out = "";
  let at = 0;
  for (const [a, b] of ranges) {
    if (a < at) continue;
    out += text.slice(at, a) + mark(text.slice(a, b));
    at = b;
  }
  return out + text.slice(at);
}
