/**
 * `deja search`: find the sessions where something was said or done.
 *
 * @module
 */
import {
  boolFlag,
  type Command,
  EXIT,
  listFlag,
  printJson,
  stringFlag,
} from "./_command.ts";
import { openIndexForQuery } from "./_context.ts";
import { UsageError } from "../src/core/errors.ts";
import { formatAge, parseSince } from "../src/core/time.ts";
import { isRole, type Role } from "../src/core/types.ts";
import {
  search,
  type SearchOptions,
  type SearchResult,
} from "../src/search/mod.ts";
import type { Io } from "../src/core/io.ts";

/** The `search` subcommand. */
export const searchCommand: Command = {
  name: "search",
  summary: "Search every indexed session",
  usage: 'deja search <words...> ["a phrase"] [options]',
  help:
    `Words are ANDed; "quoted phrases" match in order. Sessions are ranked by
BM25 over their records, with user turns and decisions weighted up and age
weighted gently down. Work records (commands, files, edits, tool output,
summaries) are searched only when asked for with --role.

Options:
  --harness ID     Only this harness (repeatable)
  --project NAME   Only this project
  --since WHEN     30d, 12h, 2w or a date (2026-05-01)
  --role ROLE      user, assistant, tool-output, command, files, edit, summary (repeatable)
  --session ID     Only sessions whose id starts with ID
  --limit N        Sessions to show (default 10)
  --all            Every matching session
  --re             Treat the query as a regular expression (scans records)
  --json           Machine-readable output

Examples:
  deja search docker compose port --project api --since 30d
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
    json: { type: "boolean" },
  },
  async run(args, io) {
    const query = args.positionals.join(" ").trim();
    if (!query) throw new UsageError("search needs at least one word");
    const options: SearchOptions = { now: io.now() };
    const harnesses = listFlag(args, "harness");
    if (harnesses.length) options.harnesses = harnesses;
    const project = stringFlag(args, "project");
    if (project) options.project = project;
    const since = stringFlag(args, "since");
    if (since) {
      const at = parseSince(since, io.now());
      if (at === undefined) {
        throw new UsageError(
          `--since "${since}" is neither a duration (30d) nor a date`,
        );
      }
      options.since = at;
    }
    const roles = listFlag(args, "role");
    for (const r of roles) {
      if (!isRole(r)) throw new UsageError(`Unknown role "${r}"`);
    }
    if (roles.length) options.roles = roles as Role[];
    const session = stringFlag(args, "session");
    if (session) options.session = session;
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
    if (boolFlag(args, "json")) printJson(io, result);
    else printResult(io, result);
    return EXIT.ok;
  },
};

function printResult(io: Io, result: SearchResult): void {
  if (result.results.length === 0) {
    io.stdout.write(`No results. ${result.why ?? ""}\n`);
    return;
  }
  const bold = (s: string) => (io.isTerminal ? `\x1b[1m${s}\x1b[22m` : s);
  const dim = (s: string) => (io.isTerminal ? `\x1b[2m${s}\x1b[22m` : s);
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
        dim(`${s.harness} · ${s.project || "-"} · ${when} · ${s.id}${lineage}`)
      }\n`,
    );
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
      `${result.results.length} of ${result.total} matching session${
        result.total === 1 ? "" : "s"
      }`,
    ) + "\n",
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
