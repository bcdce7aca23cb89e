/**
 * `deja init`: create a memory file and seed it from a template.
 *
 * @module
 */
import { DejaError, UsageError } from "../src/core/errors.ts";
import {
  batchReport,
  runBatch,
  TEMPLATE_NAMES,
  templateBatch,
  type TemplateName,
} from "../src/memory/mod.ts";
import {
  boolFlag,
  type Command,
  EXIT,
  printJson,
  stringFlag,
} from "./_command.ts";
import { plural } from "../src/core/plural.ts";
import {
  DB_OPTION,
  JSON_OPTIONS,
  memoryDbPath,
  openStore,
  wantsJson,
} from "./_memory_args.ts";

const NEXT: Record<TemplateName, string> = {
  blank:
    'next: record tool calls with deja capture tool-call{db}, or notes with deja remember "…"{db}',
  "coding-agent":
    "next: wire your agent (deja install claude-code) or record calls with deja capture tool-call{db}",
  demo: "next: deja loop run{db}, then deja loop list{db}",
};

/** The `init` subcommand. */
export const initCommand: Command = {
  name: "init",
  summary: "Create a memory file and seed it from a template",
  usage:
    "deja init [--db FILE] [--template blank|coding-agent|demo] [--dry-run] [--force]",
  help: `Creates the memory file and runs the template's batch of statements.
Templates are literal batches: --dry-run prints exactly what would run.

Templates:
  blank          Nothing seeded (default)
  coding-agent   An instruction doc, starter saved queries, analyzer config
  demo           A planted corpus: duplicates, a contradiction, expired facts,
                 repeated tool failures, a fork and a stalled skill, so the
                 first deja loop run has findings from six analyzers

Options:
  --db FILE          Memory file (default $DEJA_DB or ~/.local/share/deja/memory.db)
  --template NAME    One of ${TEMPLATE_NAMES.join(", ")}
  --dry-run          Print the batch and write nothing
  --force            Seed even when the file already holds grains
  --json             Print what was written as JSON (with --dry-run: what
                     would be, and the batch)

Examples:
  deja init --db demo.db --template demo
  deja init --template coding-agent --dry-run`,
  permissions: { read: true, write: true, env: true },
  options: {
    ...DB_OPTION,
    template: { type: "string" },
    "dry-run": { type: "boolean" },
    force: { type: "boolean" },
    ...JSON_OPTIONS,
  },
  run(args, io) {
    if (args.positionals.length) {
      throw new UsageError(`init takes no positional arguments`);
    }
    const name = stringFlag(args, "template") ?? "blank";
    if (!(TEMPLATE_NAMES as readonly string[]).includes(name)) {
      throw new UsageError(
        `Unknown template "${name}": use ${TEMPLATE_NAMES.join(", ")}`,
      );
    }
    const batch = templateBatch(name as TemplateName, io.now());
    if (boolFlag(args, "dry-run")) {
      if (wantsJson(args)) {
        printJson(io, {
          db: memoryDbPath(args, io),
          template: name,
          dry_run: true,
          ...batchReport(batch),
          batch,
        });
      } else io.stdout.write(batch);
      return Promise.resolve(EXIT.ok);
    }
    const path = memoryDbPath(args, io);
    const store = openStore(args, io);
    try {
      const held = Object.values(store.counts()).reduce((a, b) => a + b, 0);
      if (held > 0 && name !== "blank" && !boolFlag(args, "force")) {
        throw new DejaError(
          "MEM-E005",
          `Memory file "${path}" already holds ${
            plural(held, "grain")
          }: seeding "${name}" would mix the template into it; pass --force to do it anyway`,
        );
      }
      const report = runBatch(store, batch, { actor: "system:init" });
      if (wantsJson(args)) {
        printJson(io, { db: path, template: name, ...report });
      } else {
        io.stdout.write(
          `${path}: template "${name}" — ${plural(report.grains, "grain")}, ${
            plural(report.definitions, "definition")
          }, ${plural(report.config, "analyzer setting")}\n`,
        );
        const db = stringFlag(args, "db");
        io.stdout.write(
          NEXT[name as TemplateName].replaceAll(
            "{db}",
            db ? ` --db ${db}` : "",
          ) + "\n",
        );
      }
    } finally {
      store.close();
    }
    return Promise.resolve(EXIT.ok);
  },
};
