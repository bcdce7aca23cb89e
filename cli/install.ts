/**
 * `deja install <harness>` and `deja uninstall <harness>`.
 *
 * @module
 */
import { boolFlag, type Command, EXIT, printJson } from "./_command.ts";
import { UsageError } from "../src/core/errors.ts";
import type { Io } from "../src/core/io.ts";
import { homeDir } from "../src/core/paths.ts";
import {
  INSTALL_HARNESSES,
  type InstallHarness,
  installHarness,
  type InstallReport,
  uninstallHarness,
} from "../src/install/mod.ts";
import { selfCommand } from "../src/recall/mod.ts";

function harnessArg(positionals: readonly string[]): InstallHarness {
  const name = positionals[0];
  if (!name) {
    throw new UsageError(`Name a harness: ${INSTALL_HARNESSES.join(", ")}`);
  }
  if (positionals.length > 1) {
    throw new UsageError("Name one harness at a time");
  }
  const id = name === "claude" ? "claude-code" : name;
  if (!(INSTALL_HARNESSES as readonly string[]).includes(id)) {
    throw new UsageError(
      `Cannot wire "${name}": deja installs into ${
        INSTALL_HARNESSES.join(", ")
      }`,
    );
  }
  return id as InstallHarness;
}

function print(io: Io, report: InstallReport, verb: string): void {
  const word = {
    create: "created",
    update: "updated",
    remove: "removed",
    unchanged: "unchanged",
  } as const;
  const would = {
    create: "would create",
    update: "would update",
    remove: "would remove",
    unchanged: "unchanged",
  } as const;
  for (const c of report.changes) {
    const said = report.dryRun ? would[c.action] : word[c.action];
    io.stdout.write(
      `${said.padEnd(13)} ${c.path}  (${c.role})${
        c.backup ? `\n${"".padEnd(14)}backup: ${c.backup}` : ""
      }\n`,
    );
    if (report.dryRun && c.diff) io.stdout.write(c.diff);
  }
  const changed = report.changes.filter((c) => c.action !== "unchanged").length;
  if (changed === 0) {
    io.stdout.write(
      `Nothing to ${verb}: ${report.harness} is already ${
        verb === "install" ? "wired" : "clean"
      }.\n`,
    );
  }
  for (const note of report.notes) io.stdout.write(`note: ${note}\n`);
}

const COMMON_HELP = `Harnesses: ${INSTALL_HARNESSES.join(", ")}.

Options:
  --dry-run   Print the diff of every file; write nothing
  --json      The report as JSON`;

/** The `install` subcommand. */
export const installCommand: Command = {
  name: "install",
  summary:
    "Wire deja's MCP server and hooks into a harness (backs configs up first)",
  usage: "deja install <harness> [--dry-run] [--json]",
  help:
    `Adds the deja MCP server and the session/tool hooks to the harness's own
config files (claude-code: ~/.claude/settings.json and ~/.claude.json;
codex: ~/.codex/config.toml and hooks.json; gemini and qwen: settings.json;
cursor: ~/.cursor/mcp.json and hooks.json; opencode: opencode.json, MCP
only). Only the text of deja's own entries is written: the rest of each
file (key order, compact arrays, spacing, line endings, // and /* */
comments, trailing commas) keeps its exact bytes, and new JSON entries
follow the style around them, trailing comma included. Every changed
file is backed up first under ~/.config/deja/backups. Entries call
~/.config/deja/bin/deja-hook, a launcher that finds deja when it runs.
Running install twice changes nothing; deja uninstall takes out exactly
what it added.

${COMMON_HELP}`,
  permissions: { read: true, write: true, env: true },
  options: { "dry-run": { type: "boolean" }, json: { type: "boolean" } },
  run(args, io) {
    const harness = harnessArg(args.positionals);
    const report = installHarness(harness, {
      home: homeDir(io.env),
      env: io.env,
      self: selfCommand(io.env),
      dryRun: boolFlag(args, "dry-run"),
      now: io.now(),
    });
    if (boolFlag(args, "json")) printJson(io, report);
    else print(io, report, "install");
    return Promise.resolve(EXIT.ok);
  },
};

/** The `uninstall` subcommand. */
export const uninstallCommand: Command = {
  name: "uninstall",
  summary: "Take deja's MCP server and hooks back out of a harness",
  usage: "deja uninstall <harness> [--dry-run] [--json]",
  help: `Removes exactly the entries deja install added (those calling the
launcher), puts back the hooks flag as it was, and — when nothing else in
the file changed since — leaves each file byte-identical to before install.
Files install created are removed again; the launcher goes when no harness
uses it any more. Every changed file is backed up first.

${COMMON_HELP}`,
  permissions: { read: true, write: true, env: true },
  options: { "dry-run": { type: "boolean" }, json: { type: "boolean" } },
  run(args, io) {
    const harness = harnessArg(args.positionals);
    const report = uninstallHarness(harness, {
      home: homeDir(io.env),
      env: io.env,
      self: selfCommand(io.env),
      dryRun: boolFlag(args, "dry-run"),
      now: io.now(),
    });
    if (boolFlag(args, "json")) printJson(io, report);
    else print(io, report, "uninstall");
    return Promise.resolve(EXIT.ok);
  },
};
