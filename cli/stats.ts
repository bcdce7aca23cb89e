/**
 * `deja stats`: index-wide totals.
 *
 * @module
 */
import { boolFlag, type Command, EXIT, printJson } from "./_command.ts";
import { formatBytes, openIndexForQuery } from "./_context.ts";
import { indexPath } from "../src/core/paths.ts";
import { indexStats } from "../src/search/mod.ts";

/** The `stats` subcommand. */
export const statsCommand: Command = {
  name: "stats",
  summary: "Index totals: sessions, records, redactions, size",
  usage: "deja stats [--json]",
  help: `Totals over the whole index, and its size on disk.

Options:
  --json   Machine-readable output`,
  permissions: { read: true, env: true },
  maxPositionals: 0,
  options: { json: { type: "boolean" } },
  run(args, io) {
    const db = openIndexForQuery(io);
    if (!db) {
      // --json keeps its shape: a script reads zeros, not a sentence.
      if (boolFlag(args, "json")) {
        printJson(io, {
          index: indexPath(io.env),
          bytes: 0,
          indexedAt: null,
          sessions: 0,
          records: 0,
          redactions: 0,
          roles: {},
          harnesses: [],
        });
      } else io.stdout.write("No index yet: run deja index\n");
      return Promise.resolve(EXIT.ok);
    }
    try {
      const stats = indexStats(db);
      const roles = db.prepare(
        // The sessions the headline counts: a hidden prompt-history copy of
        // a session whose transcript is indexed is not counted twice.
        "SELECT r.role AS role, COUNT(*) AS n FROM records r JOIN sessions s ON s.rowid = r.session WHERE s.hidden = 0 GROUP BY r.role ORDER BY n DESC",
      )
        .all() as Array<{ role: string; n: number }>;
      let bytes = 0;
      for (const suffix of ["", "-wal"]) {
        try {
          bytes += Deno.statSync(indexPath(io.env) + suffix).size;
        } catch {
          // A missing -wal is normal.
        }
      }
      const totals = {
        index: indexPath(io.env),
        bytes,
        indexedAt: stats.indexedAt === null
          ? null
          : new Date(stats.indexedAt).toISOString(),
        sessions: stats.harnesses.reduce((a, h) => a + h.sessions, 0),
        records: stats.harnesses.reduce((a, h) => a + h.records, 0),
        redactions: stats.harnesses.reduce(
          (a, h) => a + Object.values(h.redactions).reduce((x, y) => x + y, 0),
          0,
        ),
        roles: Object.fromEntries(roles.map((r) => [r.role, r.n])),
        harnesses: stats.harnesses,
      };
      if (boolFlag(args, "json")) {
        printJson(io, totals);
      } else {
        io.stdout.write(
          `${totals.index} (${formatBytes(bytes)}), ${
            totals.indexedAt === null
              ? "no pass has finished yet"
              : `last changed ${totals.indexedAt}`
          }\n` +
            `${totals.sessions} session${
              totals.sessions === 1 ? "" : "s"
            }, ${totals.records} record${
              totals.records === 1 ? "" : "s"
            }, ${totals.redactions} redaction${
              totals.redactions === 1 ? "" : "s"
            }\n` +
            roles.map((r) => `  ${r.role.padEnd(12)} ${r.n}`).join("\n") + "\n",
        );
      }
      return Promise.resolve(EXIT.ok);
    } finally {
      db.close();
    }
  },
};
