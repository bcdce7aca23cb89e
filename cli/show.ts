/**
 * `deja show`: print one session's records in order.
 *
 * @module
 */
import {
  boolFlag,
  type Command,
  EXIT,
  printJson,
  rolesFlag,
} from "./_command.ts";
import { openIndexForQuery } from "./_context.ts";
import { DejaError, UsageError } from "../src/core/errors.ts";
import { showSession } from "../src/search/mod.ts";

/** The `show` subcommand. */
export const showCommand: Command = {
  name: "show",
  summary: "Print one session's records in order",
  usage: "deja show <id-prefix | harness:id-prefix> [--role ROLE]... [--json]",
  help:
    `Prints every stored record of a session: speech, commands with exit codes,
files, edits, tool output and summaries. Records a rollback, undo or rewind
made inactive are marked [superseded]; sub-agent records [sub-agent].

Options:
  --role ROLE   Only these roles (repeatable, or a,b)
  --json        Machine-readable output`,
  permissions: { read: true, env: true },
  maxPositionals: 1,
  options: {
    role: { type: "string", multiple: true },
    json: { type: "boolean" },
  },
  async run(args, io) {
    const prefix = args.positionals[0];
    if (!prefix) throw new UsageError("show needs a session id or prefix");
    const roles = rolesFlag(args);
    const db = openIndexForQuery(io);
    if (!db) {
      throw new DejaError("IDX-E005", "Nothing is indexed yet: run deja index");
    }
    try {
      const shown = await showSession(
        db,
        prefix,
        roles.length ? { roles } : {},
      );
      if (boolFlag(args, "json")) {
        printJson(io, shown);
        return EXIT.ok;
      }
      const s = shown.session;
      io.stdout.write(
        `${s.title || "(untitled)"}\n${s.harness} · ${
          s.project || "-"
        } · ${s.id}\n${s.path}\n`,
      );
      if (s.parent) io.stdout.write(`${s.lineage} of ${s.parent}\n`);
      io.stdout.write("\n");
      for (const r of shown.records) {
        const tags = [
          r.superseded ? "superseded" : "",
          r.subagent ? "sub-agent" : "",
          r.isError ? "error" : "",
          r.truncated ? "truncated" : "",
          r.exitCode != null && r.exitCode !== 0 ? `exit ${r.exitCode}` : "",
        ].filter(Boolean);
        // A time no Date can hold (an older index's) prints as none.
        const date = new Date(r.time || Number.NaN);
        const when = Number.isNaN(date.getTime())
          ? ""
          : date.toISOString().slice(0, 19).replace("T", " ");
        // An edit record keeps the path, then the text the edit replaced.
        const role = r.role === "edit"
          ? "edit (path, then the text replaced)"
          : r.role;
        io.stdout.write(
          `── ${role}${
            tags.length ? ` [${tags.join(", ")}]` : ""
          } ${when}\n${r.text}\n\n`,
        );
      }
      return EXIT.ok;
    } finally {
      db.close();
    }
  },
};
