/**
 * `deja index`: read every harness's transcripts into the index.
 *
 * @module
 */
import { boolFlag, type Command, EXIT, printJson } from "./_command.ts";
import { plural } from "../src/core/plural.ts";
import { formatBytes } from "./_context.ts";
import { harnessesFlag } from "./_harness_ids.ts";
import { HARNESS_IDS } from "../src/core/harness_ids.ts";
import {
  excludedHarnessIds,
  includeSubagents,
  selectedHarnesses,
  sourceEnv,
  warnUnknownExcluded,
} from "./_harnesses.ts";
import { type IndexOptions, indexStores, openIndex } from "../src/index/mod.ts";
import { isDamagedDatabase } from "../src/core/_sqlite.ts";
import { indexStats } from "../src/search/mod.ts";
import { indexPath } from "../src/core/paths.ts";
import type { Io } from "../src/core/io.ts";
import { redactionEnabled } from "../src/redact/mod.ts";

/** Files with skipped lines named after a pass (the rest are counted). */
const SKIPPED_SHOWN = 5;

/** The `index` subcommand. */
export const indexCommand: Command = {
  name: "index",
  summary: "Index every agent's transcripts (incremental, secrets redacted)",
  usage: "deja index [--harness ID]... [--json] [--quiet]",
  help: `Reads the transcripts of every known harness under HOME into the index
($DEJA_INDEX, else $XDG_CACHE_HOME/deja/index.db). Unchanged files cost one
stat; files that only grew are read from where the last pass stopped.

Options:
  --harness ID   Only this harness (repeatable, or a,b; the others'
                 sessions stay as they are); see deja sources
  --json         Print the pass report as JSON on stdout (what this pass
                 read; "held": the sessions and records the index holds)
  --quiet        No progress and no summary on stderr (errors and the
                 DEJA_NO_REDACT warning still print)

Environment: DEJA_INDEX, DEJA_EXCLUDE_HARNESSES=a,b (not read; what the index
holds of them is dropped), DEJA_INCLUDE_SUBAGENTS=0|1,
DEJA_INDEX_WORKERS=0|1 (parse on a worker thread: a cold pass ~1.25x faster on
two cores; on by default in the compiled binary and \`deno task deja\`, whose
small V8 young generation keeps both threads under 300 MB; docs/benchmarks.md),
DEJA_NO_REDACT=1 (unsafe: writes credentials in clear), plus each harness's
root overrides (CLAUDE_CONFIG_DIR, CODEX_HOME, ...).

Ctrl-C stops a pass: what it had committed (every 32 MB read) stays, and the
next pass reads only the rest.

Exit: 0 done, 3 some stores could not be read (each is named; the rest was
indexed), 130 stopped by Ctrl-C.`,
  permissions: { read: true, write: true, env: true, sys: true },
  maxPositionals: 0,
  options: {
    harness: { type: "string", multiple: true },
    json: { type: "boolean" },
    quiet: { type: "boolean" },
  },
  async run(args, io) {
    const quiet = boolFlag(args, "quiet");
    const only = harnessesFlag(args);
    warnUnknownExcluded(io, HARNESS_IDS);
    const shut = excludedHarnessIds(io).filter((h) => only.includes(h));
    if (shut.length) {
      io.stderr.write(
        `warning: --harness ${
          shut.join(",")
        } is not read: DEJA_EXCLUDE_HARNESSES excludes it\n`,
      );
    }
    warnUnknownWorkers(io);
    const path = indexPath(io.env);
    // A pass that takes under a second prints no progress, only its summary.
    let lastPrint = io.now();
    // Ctrl-C: the batches a pass committed stay, and the next pass reads
    // only the rest. Say so rather than vanish.
    const interrupted = () => {
      io.stderr.write(
        "\ndeja: stopped; what the pass had committed (it commits every 32 MB read) stays in the index and is not read again: run deja index to finish\n",
      );
      Deno.exit(130); // what a shell reports for a Ctrl-C (128 + SIGINT)
    };
    Deno.addSignalListener("SIGINT", interrupted);
    const options: IndexOptions = {
      indexPath: path,
      harnesses: selectedHarnesses(io, only),
      forget: excludedHarnessIds(io),
      source: sourceEnv(io),
      includeSubagents: includeSubagents(io),
      redact: redactionEnabled(io.env),
      now: io.now,
      parserModule: new URL("../src/sources/registry.ts", import.meta.url).href,
      onWait: () =>
        io.stderr.write(
          "deja: another index pass holds the lock; waiting for it\n",
        ),
      onReset: (movedTo) =>
        io.stderr.write(
          `deja: the index was damaged (no SQLite database, or a corrupt one); moved it to ${movedTo} and rebuilding it from the transcripts\n`,
        ),
      onProgress: (p) => {
        if (quiet || io.now() - lastPrint < 1000) return;
        lastPrint = io.now();
        // The counts are the whole pass's, not this harness's.
        io.stderr.write(
          `indexing ${p.harness}; all harnesses so far: ${
            plural(p.files, "file")
          } seen, ${p.parsed} read (${formatBytes(p.bytes)}), ${
            plural(p.sessions, "session")
          }\n`,
        );
      },
    };
    let report = await indexStores(options)
      .finally(() => Deno.removeSignalListener("SIGINT", interrupted));
    // A pass compares files through an index and reads few of the index's
    // pages; a damaged one met now, counting what it holds, is dealt with
    // as one met during the pass: moved aside, and everything read again.
    let held: ReturnType<typeof indexHolds>;
    try {
      held = indexHolds(path);
    } catch (err) {
      if (!isDamagedDatabase(err)) throw err;
      report = await indexStores({ ...options, damaged: true });
      held = indexHolds(path);
    }
    // Only a pass that read something wrote credentials in clear.
    if (!redactionEnabled(io.env) && report.replaced + report.appended > 0) {
      io.stderr.write(
        "warning: DEJA_NO_REDACT=1 — credentials were written to the index unredacted\n",
      );
    }
    if (boolFlag(args, "json")) {
      // The pass's own counts, then what the index holds after it (as
      // `deja stats` counts them).
      printJson(io, {
        index: path,
        ...report,
        held: { sessions: held.sessions, records: held.records },
      });
    } else if (!quiet) {
      // What the index now holds (`held`), counted as `deja stats` counts it
      // (a prompt-history entry whose transcript exists is not a session).
      for (const [id, t] of Object.entries(report.harnesses)) {
        if (t.files === 0) continue;
        const has = held.harnesses.get(id) ?? { sessions: 0, records: 0 };
        io.stderr.write(
          `  ${id.padEnd(14)} ${plural(t.files, "file")}, ${t.parsed} read (${
            formatBytes(t.bytes)
          }); holds ${plural(has.sessions, "session")}, ${
            plural(has.records, "record")
          }\n`,
        );
      }
      const redacted = Object.values(report.redactions).reduce(
        (a, b) => a + b,
        0,
      );
      io.stderr.write(
        `indexed ${
          plural(report.files, "file")
        } in ${report.durationMs} ms: ${report.replaced} read whole, ${report.appended} appended, ${report.unchanged} unchanged, ${report.removed} removed${
          report.failures.length
            ? `, ${report.failures.length} unreadable (below)`
            : ""
        }; ${plural(redacted, "secret")} redacted; the index holds ${
          plural(held.sessions, "session")
        }, ${plural(held.records, "record")} → ${path}\n`,
      );
    }
    if (
      !quiet && !boolFlag(args, "json") && report.files === 0 &&
      options.harnesses.length > 0
    ) {
      io.stderr.write(
        "note: no agent's transcripts were found in the usual places; deja sources lists where deja looks (and the variables that point it elsewhere)\n",
      );
    }
    if (!quiet && !boolFlag(args, "json")) {
      // Named so a damaged transcript can be looked at; the rest of each
      // file was read.
      const shown = report.skippedIn.slice(0, SKIPPED_SHOWN);
      for (const f of shown) {
        io.stderr.write(
          `note: skipped ${
            plural(f.skipped, "line")
          } (malformed, of an unknown kind, or over 8 MiB) in ${f.harness} file "${f.path}" (the rest was read)\n`,
        );
      }
      const more = report.skippedIn.length - shown.length;
      if (more > 0) {
        io.stderr.write(
          `note: and ${
            plural(more, "more file")
          } with skipped lines (deja index --json lists them under skippedIn)\n`,
        );
      }
    }
    for (const f of report.failures) {
      io.stderr.write(
        `error: cannot read ${f.harness} store "${f.path}": ${f.message} [${f.code}]\n`,
      );
    }
    return report.failures.length > 0 ? EXIT.partial : EXIT.ok;
  },
};

/** Sessions and records of the index as `deja stats` counts them. */
function indexHolds(path: string): {
  sessions: number;
  records: number;
  harnesses: Map<string, { sessions: number; records: number }>;
} {
  const db = openIndex(path, { readOnly: true });
  try {
    const stats = indexStats(db);
    return {
      sessions: stats.harnesses.reduce((a, h) => a + h.sessions, 0),
      records: stats.harnesses.reduce((a, h) => a + h.records, 0),
      harnesses: new Map(stats.harnesses.map((h) => [h.harness, h])),
    };
  } finally {
    db.close();
  }
}

/** Says so when `DEJA_INDEX_WORKERS` is set to neither 0 nor 1 (it is ignored). */
function warnUnknownWorkers(io: Io): void {
  const raw = io.env.DEJA_INDEX_WORKERS;
  if (raw === undefined || ["0", "1", "force"].includes(raw)) return;
  io.stderr.write(
    `warning: DEJA_INDEX_WORKERS="${raw}" is neither 0 nor 1; the default is used (a worker thread only in the compiled binary)\n`,
  );
}
