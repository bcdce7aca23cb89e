/**
 * The work verbs: `blame`, `fix`, `how`, `files`, `resume`, `handoff`,
 * `last` — questions about past work answered from the index.
 *
 * @module
 */
import {
  boolFlag,
  type Command,
  EXIT,
  filterFlag,
  type ParsedArgs,
  printJson,
  stringFlag,
} from "./_command.ts";
import { openIndexForQuery } from "./_context.ts";
import { harnessesFlag, knownHarness } from "./_harness_ids.ts";
import { DejaError, UsageError } from "../src/core/errors.ts";
import type { Io } from "../src/core/io.ts";
import type { Database } from "../src/core/_sqlite.ts";
import { projectFromCwd } from "../src/core/text.ts";
import { ownValue } from "../src/core/lookup.ts";
import { resolveSession, sessionInfoOf } from "../src/search/mod.ts";
import {
  AGENT_NAMES,
  blame,
  blameLine,
  filesForTopic,
  fixFor,
  handoffPacket,
  howTo,
  lastSessions,
  parseBlameTarget,
  renderAttribution,
  renderBlame,
  renderFiles,
  renderFix,
  renderHow,
  renderSessions,
  RESUMABLE,
  resumeCommand,
  shellQuote,
} from "../src/recall/mod.ts";

const JSON_OPTION = { json: { type: "boolean" } } as const;
const PROJECT_OPTION = { project: { type: "string" } } as const;

function withIndex<T>(io: Io, fn: (db: Database) => Promise<T>): Promise<T> {
  const db = openIndexForQuery(io);
  if (!db) {
    throw new DejaError("IDX-E005", "Nothing is indexed yet: run deja index");
  }
  return fn(db).finally(() => db.close());
}

function projectOf(args: ParsedArgs, io: Io): string {
  return filterFlag(args, "project") ?? projectFromCwd(io.cwd);
}

function text(args: ParsedArgs, what: string): string {
  const t = args.positionals.join(" ").trim();
  if (!t) throw new UsageError(`Give ${what}`);
  return t;
}

/** `deja blame <path>[:line]`. */
export const blameCommand: Command = {
  name: "blame",
  summary: "Sessions that discussed or edited a file, and what they decided",
  usage: "deja blame <path>[:line] [--json]",
  help:
    `Finds the sessions whose records name the file (as a path component or a
word of its own), ranks them by how directly they touched it (edits over
reads over talk, full paths over bare names, recent over old, the file's own
project first) and prints what each decided about it.

With :line (a :column after it, as compilers print, is ignored), git names
the commit that last changed the line, and deja names the session whose
edit record replaced the same text that commit removed (spans of 24+
characters, whitespace collapsed). Without a match it says which silence it
is: not committed, no git, past the end of the file, or no recorded edit.

A directory (a path ending in /, . or ..) or a one-character file name is a
usage error: blame finds a file by its name, and those would match any path.

Options:
  --json   Machine-readable output`,
  permissions: { read: true, env: true, run: true },
  options: { ...JSON_OPTION },
  run(args, io) {
    const { file, line: lineNumber } = parseBlameTarget(
      text(args, "a file path"),
    );
    return withIndex(io, async (db) => {
      const now = io.now();
      const line = lineNumber === undefined
        ? undefined
        : await blameLine(db, file, { line: lineNumber, cwd: io.cwd });
      const result = await blame(db, file, { cwd: io.cwd, now });
      if (boolFlag(args, "json")) {
        printJson(io, { ...(line ? { line } : {}), ...result });
      } else {
        if (line) io.stdout.write(`${renderAttribution(line, now)}\n\n`);
        io.stdout.write(`${renderBlame(result, now)}\n`);
      }
      return EXIT.ok;
    });
  },
};

/** `deja fix "<error>"`. */
export const fixCommand: Command = {
  name: "fix",
  summary: "What ran after this error last time, without the error coming back",
  usage: 'deja fix "<error text>" [--project NAME] [--json]',
  help: `Looks up the error's distinctive words on one line of a failed step's
output (its command exited non-zero, or the output is flagged as an error;
a file read is no failure), dropping the least distinctive until one does,
then reads what followed each occurrence: the commands that ran and succeeded
before the error stopped appearing, and the failed command passing on a
re-run. This project's sessions come first (--project, default: the
current directory's). Irreversible commands (force pushes, hard resets,
recursive rm, kubectl/helm, anything naming prod, ...) are never offered.

Options:
  --project NAME   Rank this project first
  --json           Machine-readable output`,
  permissions: { read: true, env: true },
  options: { ...PROJECT_OPTION, ...JSON_OPTION },
  run(args, io) {
    const error = text(args, "the error text");
    const project = projectOf(args, io);
    return withIndex(io, async (db) => {
      const result = await fixFor(db, error, { project });
      if (boolFlag(args, "json")) printJson(io, result);
      else io.stdout.write(`${renderFix(result, io.now())}\n`);
      return EXIT.ok;
    });
  },
};

/** `deja how <what>`. */
export const howCommand: Command = {
  name: "how",
  summary: "The real invocation agents used for something here",
  usage: "deja how <what...> [--project NAME] [--json]",
  help: `Finds recorded commands matching the words ("run the tests" → test) and
ranks each distinct invocation by how many of the words it runs, then this
project's first, then by how many sessions ran it and how often it
succeeded. Only invocations that succeeded at least once are shown, and
never one that only reads or shows (cat, git status, docker ps). When no
command names the words, the commands of the sessions that talked about
them are offered, and the answer says so.

Options:
  --project NAME   Rank this project first (default: the current directory's)
  --json           Machine-readable output`,
  permissions: { read: true, env: true },
  options: { ...PROJECT_OPTION, ...JSON_OPTION },
  run(args, io) {
    const what = text(args, "what to do");
    const project = projectOf(args, io);
    return withIndex(io, async (db) => {
      const now = io.now();
      const result = await howTo(db, what, { project, now });
      if (boolFlag(args, "json")) printJson(io, result);
      else io.stdout.write(`${renderHow(result, now)}\n`);
      return EXIT.ok;
    });
  },
};

/** `deja files <topic>`. */
export const filesCommand: Command = {
  name: "files",
  summary: "Files the sessions about a topic opened and edited",
  usage: "deja files <topic...> [--project NAME] [--limit N] [--json]",
  help:
    `Searches the sessions about the topic and lists the files they opened and
edited, most relevant first: each session adds its relevance to the files it
touched, a file only read counting 0.6 of one edited, and files inside
dependencies or build output (node_modules, vendor, dist, .git, …) 0.3.

Options:
  --project NAME   Only this project
  --limit N        Files to list (default 10)
  --json           Machine-readable output`,
  permissions: { read: true, env: true },
  options: { ...PROJECT_OPTION, ...JSON_OPTION, limit: { type: "string" } },
  run(args, io) {
    const topic = text(args, "a topic");
    const project = filterFlag(args, "project");
    const raw = stringFlag(args, "limit");
    const limit = raw === undefined ? 10 : Number(raw);
    if (!Number.isInteger(limit) || limit < 1) {
      throw new UsageError(`--limit "${raw}" is not a positive whole number`);
    }
    return withIndex(io, async (db) => {
      const now = io.now();
      const files = await filesForTopic(db, topic, {
        now,
        limit,
        ...(project ? { project } : {}),
      });
      if (boolFlag(args, "json")) printJson(io, files);
      else if (files.length === 0 && project && !hasProject(db, project)) {
        io.stdout.write(`${noSessionsOf(db, { project })}\n`);
      } else io.stdout.write(`${renderFiles(files, now)}\n`);
      return EXIT.ok;
    });
  },
};

/** `deja resume <id> [--exec]`. */
export const resumeCommandCli: Command = {
  name: "resume",
  summary: "The harness's own command that reopens a session",
  usage: "deja resume <id-prefix | harness:id-prefix> [--exec] [--json]",
  help: `Prints the native resume command: claude --resume <id> (Claude Code),
codex resume <id>, opencode --session <id>, gemini --resume <id>,
qwen --resume <id>, pi --session <file>, copilot --resume <id> (GitHub
Copilot CLI), kimi --session <id> (Kimi Code), run in the session's
directory.
With --exec, runs it (the terminal is handed to the agent); when that
directory is gone it says so (QRY-E007) rather than run it elsewhere.

Options:
  --exec   Run the command instead of printing it
  --json   Machine-readable output`,
  permissions: { read: true, env: true, run: true },
  maxPositionals: 1,
  options: { exec: { type: "boolean" }, ...JSON_OPTION },
  run(args, io) {
    const ref = text(args, "a session id");
    return withIndex(io, async (db) => {
      const session = sessionInfoOf(resolveSession(db, ref));
      const cmd = resumeCommand(session);
      if (!cmd) {
        throw new DejaError(
          "QRY-E005",
          `${
            ownValue(AGENT_NAMES, session.harness) ?? session.harness
          } has no resume command deja knows (it knows ${
            RESUMABLE.join(", ")
          }): deja show ${session.harness}:${session.id} prints the session`,
        );
      }
      if (boolFlag(args, "json")) {
        printJson(io, { session, ...cmd });
        return EXIT.ok;
      }
      if (!boolFlag(args, "exec")) {
        io.stdout.write(`${cmd.display}\n`);
        return EXIT.ok;
      }
      if (cmd.cwd && !existsDir(cmd.cwd)) {
        throw new DejaError(
          "QRY-E007",
          `Cannot resume: the session's folder ${cmd.cwd} is gone (moved or deleted). Restore it, or run ${
            cmd.argv.map(shellQuote).join(" ")
          } from where the project is now`,
        );
      }
      const [program, ...rest] = cmd.argv;
      try {
        const status = await new Deno.Command(program as string, {
          args: rest,
          ...(cmd.cwd ? { cwd: cmd.cwd } : {}),
          stdin: "inherit",
          stdout: "inherit",
          stderr: "inherit",
        }).spawn().status;
        return status.code;
      } catch (err) {
        if (err instanceof Deno.errors.NotFound) {
          throw new DejaError(
            "QRY-E004",
            `Cannot resume: "${program}" is not installed or not on PATH. Run it yourself: ${cmd.display}`,
          );
        }
        throw err;
      }
    });
  },
};

/** `deja handoff [--to agent]`. */
export const handoffCommand: Command = {
  name: "handoff",
  summary:
    "A packet another agent can continue this project's latest work from",
  usage: "deja handoff [<session>] [--to AGENT] [--project NAME] [--json]",
  help:
    `Prints the goal, the latest ask, what changed and ran (with outcomes), the
decisions, what is still open and how to continue, for the current
project's most recent session (or the one named).

Options:
  --to AGENT       Address it to another agent (claude-code, codex, gemini, ...)
  --project NAME   Whose latest session (default: the current directory's)
  --json           Machine-readable output`,
  permissions: { read: true, env: true },
  maxPositionals: 1,
  options: { to: { type: "string" }, ...PROJECT_OPTION, ...JSON_OPTION },
  run(args, io) {
    const session = args.positionals[0];
    const named = stringFlag(args, "to");
    // `--to "$UNSET"` is a forgotten value, not a harness named "".
    if (named !== undefined && named.trim() === "") {
      throw new UsageError(
        `--to "${named}" names no agent: leave it out, or name one (claude-code, codex, gemini, ...)`,
      );
    }
    // An alias ("claude") is read as its harness; a name deja does not know
    // is a usage error naming the ones it does (knownHarness).
    const to = named === undefined ? undefined : knownHarness(named);
    const project = projectOf(args, io);
    return withIndex(io, async (db) => {
      const packet = await handoffPacket(db, {
        ...(session ? { session } : { project }),
        ...(to ? { to } : {}),
        now: io.now(),
      });
      if (!packet) {
        throw new DejaError(
          "QRY-E002",
          `No session of "${project}" to hand off: name one with --project or give a session id (deja last lists recent sessions)`,
        );
      }
      if (boolFlag(args, "json")) printJson(io, packet);
      else io.stdout.write(`${packet.markdown}\n`);
      return EXIT.ok;
    });
  },
};

/** `deja last [n]`. */
export const lastCommand: Command = {
  name: "last",
  summary: "The most recent sessions, with their resume commands",
  usage:
    "deja last [n | --limit N] [--project NAME] [--harness ID]... [--json]",
  help: `Lists the n most recent sessions (default 10), newest first, sub-agent
runs left out, each with its native resume command when there is one.

Options:
  --limit N        The same as n (given both, they must agree)
  --project NAME   Only this project
  --harness ID     Only this harness (repeatable, or a,b)
  --json           Machine-readable output`,
  permissions: { read: true, env: true },
  maxPositionals: 1,
  options: {
    ...PROJECT_OPTION,
    harness: { type: "string", multiple: true },
    limit: { type: "string" },
    ...JSON_OPTION,
  },
  run(args, io) {
    const n = lastCount(args);
    const harnesses = harnessesFlag(args);
    const project = filterFlag(args, "project");
    return withIndex(io, (db) => {
      const sessions = lastSessions(db, n, {
        ...(project ? { project } : {}),
        ...(harnesses.length ? { harnesses } : {}),
      });
      if (boolFlag(args, "json")) {
        printJson(
          io,
          sessions.map((s) => ({
            ...s,
            resume: resumeCommand(s)?.display ?? null,
          })),
        );
      } else if (sessions.length === 0 && (project || harnesses.length)) {
        io.stdout.write(`${noSessionsOf(db, { project, harnesses })}\n`);
      } else io.stdout.write(`${renderSessions(sessions, io.now())}\n`);
      return Promise.resolve(EXIT.ok);
    });
  },
};

/**
 * The n of `deja last`, from the positional or `--limit`: a usage error when
 * it is no positive whole number, or when both are given and disagree.
 */
function lastCount(args: ParsedArgs): number {
  const positional = args.positionals[0];
  const limit = stringFlag(args, "limit");
  const [n, m] = [positional, limit].map((raw, i) => {
    if (raw === undefined) return undefined;
    const count = Number(raw);
    if (!Number.isInteger(count) || count < 1) {
      throw new UsageError(
        `${
          i ? "--limit" : "The count"
        } "${raw}" is not a positive whole number`,
      );
    }
    return count;
  });
  if (n !== undefined && m !== undefined && n !== m) {
    throw new UsageError(
      `Give the count once: ${positional} and --limit ${limit} disagree`,
    );
  }
  return n ?? m ?? 10;
}

/** Every work verb. */
export const WORK_COMMANDS: readonly Command[] = [
  blameCommand,
  fixCommand,
  howCommand,
  filesCommand,
  resumeCommandCli,
  handoffCommand,
  lastCommand,
];

/**
 * Says the filters matched no session, and names the projects or harnesses
 * there are for the filter that matched nothing on its own (for each filter
 * given when only their combination did).
 */
function noSessionsOf(
  db: Database,
  filters: { project?: string | undefined; harnesses?: readonly string[] },
): string {
  const { project, harnesses = [] } = filters;
  const given: Array<
    { what: string; column: "project" | "harness"; matches: boolean }
  > = [];
  if (project) {
    given.push({
      what: `project "${project}"`,
      column: "project",
      matches: hasProject(db, project),
    });
  }
  if (harnesses.length) {
    given.push({
      what: `harness ${harnesses.join(" or ")}`,
      column: "harness",
      matches: hasHarness(db, harnesses),
    });
  }
  const missing = given.filter((f) => !f.matches);
  const lists = (missing.length ? missing : given).flatMap((f) => {
    const values = onFile(db, f.column);
    return values.length
      ? [
        `${f.column === "harness" ? "harnesses" : "projects"} on file: ${
          values.join(", ")
        }`,
      ]
      : [];
  });
  return [`No sessions of ${given.map((f) => f.what).join(" and ")}`, ...lists]
    .join("; ");
}

/** The projects or harnesses of shown sessions, most recent first (up to 8). */
function onFile(db: Database, column: "project" | "harness"): string[] {
  const values = (db.prepare(
    `SELECT ${column} AS value FROM sessions WHERE hidden = 0 AND ${column} != '' GROUP BY ${column} ORDER BY MAX(updated) DESC`,
  ).all() as Array<{ value: string }>).map((r) => r.value);
  // The latest eight, and how many more there are.
  return values.length > 8
    ? [...values.slice(0, 8), `and ${values.length - 8} more`]
    : values;
}

/** Whether any shown session belongs to one of the harnesses. */
function hasHarness(db: Database, harnesses: readonly string[]): boolean {
  return db.prepare(
    `SELECT 1 FROM sessions WHERE hidden = 0 AND harness IN (${
      harnesses.map(() => "?").join(",")
    }) LIMIT 1`,
  ).get(...harnesses) !== undefined;
}

/** Whether any shown session belongs to the project (any case). */
function hasProject(db: Database, project: string): boolean {
  return db.prepare(
    "SELECT 1 FROM sessions WHERE hidden = 0 AND lower(project) = lower(?) LIMIT 1",
  ).get(project) !== undefined;
}

/** Whether a folder is there. */
function existsDir(path: string): boolean {
  try {
    return Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}
