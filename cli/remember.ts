/**
 * `deja remember` and `deja promote`: notes in the memory file.
 *
 * @module
 */
import { UsageError } from "../src/core/errors.ts";
import type { Io } from "../src/core/io.ts";
import { projectFromCwd } from "../src/core/text.ts";
import {
  groupNotes,
  listNotes,
  type Note,
  NOTE_STATES,
  type NoteState,
  promote,
  remember,
} from "../src/memory/mod.ts";
import {
  boolFlag,
  type Command,
  EXIT,
  type ParsedArgs,
  printJson,
  stringFlag,
} from "./_command.ts";
import {
  actorFlag,
  DB_OPTION,
  JSON_OPTIONS,
  openStore,
  openStoreToRead,
  wantsJson,
} from "./_memory_args.ts";
import { printsSafely } from "./_printable.ts";

function stateFlag(value: string | undefined): NoteState | undefined {
  if (value === undefined) return undefined;
  if (!(NOTE_STATES as readonly string[]).includes(value)) {
    throw new UsageError(
      `Unknown state "${value}": use ${NOTE_STATES.join(", ")}`,
    );
  }
  return value as NoteState;
}

/**
 * What an empty `remember --list` says: with a filter, which one left the
 * notes out and how many there are; without one, how to keep the first.
 */
function noNotesLine(
  total: number,
  project: string | undefined,
  state: NoteState | undefined,
): string {
  if (total === 0) return 'No notes yet: deja remember "…" --project P';
  const which = `${state === undefined ? "" : `${state} `}notes${
    project === undefined ? "" : ` in project "${project}"`
  }`;
  return `No ${which}; the file holds ${total} current note${
    total === 1 ? "" : "s"
  } (deja remember --list shows them all)`;
}

/** The `remember` subcommand. */
export const rememberCommand: Command = printsSafely({
  name: "remember",
  summary: "Keep a note in the memory file (or list notes with --list)",
  usage:
    'deja remember "<text>" [--project P] [--state S] [--db FILE]\n       deja remember --list [--project P] [--state S]',
  help:
    `Stores a note: a decision, a convention, a fact worth keeping. Notes are
grouped per project and day, and accepted notes outrank transcripts in
recall. The project defaults to the current folder's name.

Options:
  --db FILE       Memory file (default $DEJA_DB or ~/.local/share/deja/memory.db)
  --project P     Project the note belongs to
  --state S       ${
      NOTE_STATES.join(" | ")
    } (default accepted; with --list, a filter)
  --actor LABEL   Who wrote it (default user:local)
  --list          List current notes instead, grouped per project and day
  --json          Machine-readable output

Examples:
  deja remember "we pin redis to 7.2 because 7.4 breaks the lua scripts" --project api
  deja remember --list --project api`,
  permissions: { read: true, write: true, env: true },
  options: {
    ...DB_OPTION,
    project: { type: "string" },
    state: { type: "string" },
    actor: { type: "string" },
    list: { type: "boolean" },
    ...JSON_OPTIONS,
  },
  run(args, io) {
    const state = stateFlag(stringFlag(args, "state"));
    const project = stringFlag(args, "project");
    if (boolFlag(args, "list")) {
      if (args.positionals.length) {
        throw new UsageError("--list takes no note text");
      }
      printNotes(args, io, project, state);
      return Promise.resolve(EXIT.ok);
    }
    const store = openStore(args, io);
    try {
      const text = args.positionals.join(" ").trim();
      if (!text) throw new UsageError('Give the note text: deja remember "…"');
      const hash = remember(store, text, {
        project: project ?? projectFromCwd(io.cwd),
        actor: actorFlag(args),
        ...(state === undefined ? {} : { state }),
      });
      if (wantsJson(args)) printJson(io, { hash });
      else io.stdout.write(`${hash.slice(0, 12)}  remembered\n`);
    } finally {
      store.close();
    }
    return Promise.resolve(EXIT.ok);
  },
});

/**
 * `remember --list`: the current notes the filters keep, grouped per project
 * and day. A memory file that is not there lists nothing and is not made.
 */
function printNotes(
  args: ParsedArgs,
  io: Io,
  project: string | undefined,
  state: NoteState | undefined,
): void {
  const store = openStoreToRead(args, io);
  let notes: Note[] = [];
  let total = 0;
  try {
    if (store) {
      notes = listNotes(store, {
        ...(project === undefined ? {} : { project }),
        ...(state === undefined ? {} : { states: [state] }),
      });
      total = notes.length || listNotes(store).length;
    }
  } finally {
    store?.close();
  }
  if (wantsJson(args)) {
    printJson(
      io,
      groupNotes(notes).map((g) => ({
        ...g,
        notes: g.notes.map((n) => ({ hash: n.hash, ...n.note })),
      })),
    );
    return;
  }
  if (notes.length === 0) {
    io.stdout.write(`${noNotesLine(total, project, state)}\n`);
  }
  let last = "\u0000";
  for (const g of groupNotes(notes)) {
    if (g.project !== last) {
      io.stdout.write(`${g.project || "(no project)"}\n`);
    }
    last = g.project;
    io.stdout.write(`  ${g.day}\n`);
    for (const n of g.notes) {
      io.stdout.write(
        `    ${n.hash.slice(0, 12)}  [${n.note.state}]  ${
          n.note.text.replace(/\s+/g, " ")
        }\n`,
      );
    }
  }
}

/** The `promote` subcommand. */
export const promoteCommand: Command = printsSafely({
  name: "promote",
  summary: "Change a note's state (accepted, rejected, superseded, stale)",
  usage:
    "deja promote <note-hash-prefix> --state accepted|rejected|superseded|stale [--db FILE]",
  help: `Records a new state for a note. The old version stays in the file's
history; the new one supersedes it.

Options:
  --db FILE       Memory file (default $DEJA_DB or ~/.local/share/deja/memory.db)
  --state S       The new state (required)
  --actor LABEL   Who decided (default user:local)
  --json          Print {"hash": …}`,
  permissions: { read: true, write: true, env: true },
  options: {
    ...DB_OPTION,
    state: { type: "string" },
    actor: { type: "string" },
    ...JSON_OPTIONS,
  },
  run(args, io) {
    const prefix = args.positionals[0];
    if (!prefix || args.positionals.length > 1) {
      throw new UsageError("Give one note hash (or a unique prefix)");
    }
    const state = stateFlag(stringFlag(args, "state"));
    if (!state) {
      throw new UsageError(`--state is required: ${NOTE_STATES.join(", ")}`);
    }
    const store = openStore(args, io);
    try {
      const hash = store.resolve(prefix, { type: "note" });
      const next = promote(store, hash, state, { actor: actorFlag(args) });
      if (wantsJson(args)) printJson(io, { hash: next, previous: hash });
      else {io.stdout.write(
          `${next.slice(0, 12)}  ${state}${
            next === hash ? " (unchanged)" : ` (was ${hash.slice(0, 12)})`
          }\n`,
        );}
    } finally {
      store.close();
    }
    return Promise.resolve(EXIT.ok);
  },
});
