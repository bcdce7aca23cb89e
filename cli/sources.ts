/**
 * `deja sources`: every harness deja reads, where it looks, and what the
 * index holds from it.
 *
 * @module
 */
import { boolFlag, type Command, EXIT, printJson } from "./_command.ts";
import { openIndexForQuery } from "./_context.ts";
import {
  selectedHarnesses,
  sourceEnv,
  warnUnknownExcluded,
} from "./_harnesses.ts";
import { HARNESSES } from "../src/sources/registry.ts";
import { takeUnreadableDirs } from "../src/core/harness.ts";
import { type HarnessStats, indexStats } from "../src/search/mod.ts";

/** The `sources` subcommand. */
export const sourcesCommand: Command = {
  name: "sources",
  summary: "List each harness with its roots and what the index holds from it",
  usage: "deja sources [--json]",
  help:
    `For every registered harness: whether it is enabled (DEJA_EXCLUDE_HARNESSES),
the roots it searches (and the variables that move them), the transcript
files found there now ("on disk", indexed or not) and the folders there it
cannot read, and the files, sessions, records, redactions and read errors
the index holds for it.

Options:
  --json   Machine-readable output`,
  permissions: { read: true, env: true },
  maxPositionals: 0,
  options: { json: { type: "boolean" } },
  async run(args, io) {
    const source = sourceEnv(io);
    warnUnknownExcluded(io, HARNESSES.map((h) => h.id));
    const enabled = new Set(selectedHarnesses(io).map((h) => h.id));
    const db = openIndexForQuery(io);
    const stats = new Map<string, HarnessStats>();
    if (db) {
      try {
        for (const s of indexStats(db).harnesses) stats.set(s.harness, s);
      } finally {
        db.close();
      }
    }
    // What is on disk now, indexed or not: before a first pass (or for a
    // harness left out) this is what there is to read.
    const onDisk = new Map<string, number>();
    // A folder the walk could not read hides what is under it: named, as
    // deja index names it (the index keeps no row for a folder).
    const unreadable = new Map<
      string,
      Array<{ path: string; message: string }>
    >();
    for (const h of HARNESSES) {
      takeUnreadableDirs();
      try {
        onDisk.set(h.id, (await h.discover(source)).length);
      } catch {
        onDisk.set(h.id, 0);
      }
      unreadable.set(
        h.id,
        [...takeUnreadableDirs()].map(([path, message]) => ({ path, message })),
      );
    }
    const rows = HARNESSES.map((h) => {
      const s = stats.get(h.id);
      return {
        id: h.id,
        name: h.name,
        enabled: enabled.has(h.id),
        format: h.format,
        ...(h.sealed === undefined ? {} : { sealed: h.sealed }),
        roots: h.roots(source),
        env: [...h.envOverrides],
        onDisk: onDisk.get(h.id) ?? 0,
        unreadable: unreadable.get(h.id) ?? [],
        files: s?.files ?? 0,
        sessions: s?.sessions ?? 0,
        records: s?.records ?? 0,
        redactions: s?.redactions ?? {},
        skipped: s?.skipped ?? 0,
        errors: s?.errors ?? [],
      };
    });
    if (boolFlag(args, "json")) {
      printJson(io, { indexed: db !== undefined, sources: rows });
      return EXIT.ok;
    }
    if (!db) {
      io.stdout.write("No index yet: run deja index. Roots searched:\n\n");
    }
    for (const r of rows) {
      const redacted = Object.values(r.redactions).reduce((a, b) => a + b, 0);
      io.stdout.write(
        `${r.name} (${r.id})${r.enabled ? "" : " — excluded"}\n  roots: ${
          r.roots.join(", ") || "-"
        }${
          r.env.length ? ` (moved by ${r.env.join(", ")})` : ""
        }\n  on disk=${r.onDisk} files=${r.files} sessions=${r.sessions} records=${r.records} redacted=${redacted} skipped=${r.skipped} errors=${r.errors.length}\n`,
      );
      if (r.sealed) io.stdout.write(`  not read: ${r.sealed}\n`);
      for (const u of r.unreadable) {
        io.stdout.write(`  cannot read folder: ${u.path}: ${u.message}\n`);
      }
      for (const e of r.errors) {
        io.stdout.write(`  error: ${e.path}: ${e.message}\n`);
      }
    }
    return EXIT.ok;
  },
};
