/**
 * Every subcommand module, in the order `deja help` lists them. Modules load
 * lazily: `deja search` evaluates only the search module's graph, which keeps
 * a whole-process search close to Deno's own start-up time.
 *
 * To add commands, add one entry: the names it serves with their one-line
 * summaries (so `deja help` lists them without loading a module) and how to
 * load it. `tests/commands_test.ts` checks both against the loaded commands.
 *
 * @module
 */
import type { Command } from "./_command.ts";

/** One lazily loaded module of subcommands. */
export interface CommandModule {
  /**
   * The commands the module exports, by name ("loop run"), each with its
   * summary as `deja help` lists it; null for a hidden command.
   */
  commands: Readonly<Record<string, string | null>>;
  /** Loads the module's commands. */
  load(): Promise<readonly Command[]>;
}

/**
 * Imports a command module by a computed specifier. A literal `import("./x.ts")`
 * makes Deno load every command's module graph (the MCP SDK, Hono, ...) at
 * start-up; a computed one loads only the module asked for. `deno compile`
 * therefore needs `--include cli` (the compile task has it).
 */
function lazy<T>(file: string): Promise<T> {
  return import(new URL(file, import.meta.url).href);
}

/** The registered command modules. */
export const COMMAND_MODULES: readonly CommandModule[] = [
  {
    commands: {
      "index":
        "Index every agent's transcripts (incremental, secrets redacted)",
    },
    load: async () => [
      (await lazy<typeof import("./index.ts")>("./index.ts")).indexCommand,
    ],
  },
  {
    commands: {
      "search": "Search every indexed session",
    },
    load: async () => [
      (await lazy<typeof import("./search.ts")>("./search.ts")).searchCommand,
    ],
  },
  {
    commands: {
      "show": "Print one session's records in order",
    },
    load: async () => [
      (await lazy<typeof import("./show.ts")>("./show.ts")).showCommand,
    ],
  },
  {
    commands: {
      "sources":
        "List each harness with its roots and what the index holds from it",
    },
    load: async () => [
      (await lazy<typeof import("./sources.ts")>("./sources.ts"))
        .sourcesCommand,
    ],
  },
  {
    commands: {
      "stats": "Index totals: sessions, records, redactions, size",
    },
    load: async () => [
      (await lazy<typeof import("./stats.ts")>("./stats.ts")).statsCommand,
    ],
  },
  {
    commands: {
      "loop run": "Run the loop's analyzers and queue new recommendations",
      "loop analyzers":
        "List the loop's analyzers, whether each is active, and why not",
      "loop enable": "Turn on an analyzer in this memory file",
      "loop disable": "Turn off an analyzer in this memory file",
      "loop set": "Set an analyzer parameter in this memory file",
      "loop schedule":
        "Print a cron / systemd / launchd / Windows snippet that runs the loop",
    },
    load: async () =>
      (await lazy<typeof import("./loop_run.ts")>("./loop_run.ts"))
        .LOOP_RUN_COMMANDS,
  },
  {
    commands: {
      "loop":
        "The loop's health report: grains, analyzers, last run, pending recommendations",
      "loop list": "List recommendations by status; --fail-on gates CI",
      "loop show":
        "Show one recommendation: evidence, the literal proposal, the audit chain",
      "loop approve":
        "Approve a pending recommendation (needs the review scope, never its creator)",
      "loop reject":
        "Reject a pending recommendation (starts a doubling cooldown)",
      "loop apply": "Apply an approved recommendation, storing its inverse",
      "loop rollback":
        "Undo an applied recommendation by running its stored inverse",
      "loop mark-applied":
        "Record that you applied a doc or host recommendation yourself",
      "loop audit": "Verify recommendations' hash-chained audit trails",
      "loop config-export":
        "Print the memory file's loop configuration as JSON",
      "loop config-import":
        "Load a loop configuration written by config-export",
    },
    load: async () =>
      (await lazy<typeof import("./loop.ts")>("./loop.ts")).LOOP_COMMANDS,
  },
  {
    commands: {
      "init": "Create a memory file and seed it from a template",
    },
    load: async () => [
      (await lazy<typeof import("./init.ts")>("./init.ts")).initCommand,
    ],
  },
  {
    commands: {
      "capture tool-call":
        "Record one tool call (and whether it failed) in the memory file",
    },
    load: async () => [
      (await lazy<typeof import("./capture.ts")>("./capture.ts"))
        .captureToolCallCommand,
    ],
  },
  {
    commands: {
      "import":
        "Import tool-call history (OpenAI-style JSONL) into the memory file",
    },
    load: async () => [
      (await lazy<typeof import("./import.ts")>("./import.ts")).importCommand,
    ],
  },
  {
    commands: {
      "remember": "Keep a note in the memory file (or list notes with --list)",
      "promote":
        "Change a note's state (accepted, rejected, superseded, stale)",
    },
    load: async () => [
      (await lazy<typeof import("./remember.ts")>("./remember.ts"))
        .rememberCommand,
      (await lazy<typeof import("./remember.ts")>("./remember.ts"))
        .promoteCommand,
    ],
  },
  {
    commands: {
      "ui": "Open the local console (browser UI + HTTP API) on 127.0.0.1",
    },
    load:
      async () => [(await lazy<typeof import("./ui.ts")>("./ui.ts")).uiCommand],
  },
  {
    commands: {
      "hook-context": null,
      "hook-prompt": null,
      "hook-tool-after": null,
      "hook-session-end": null,
    },
    load: async () =>
      (await lazy<typeof import("./hooks.ts")>("./hooks.ts")).HOOK_COMMANDS,
  },
  {
    commands: {
      "mcp": "Serve recall and the loop to agents over MCP (stdio)",
    },
    load: async () => [
      (await lazy<typeof import("./mcp.ts")>("./mcp.ts")).mcpCommand,
    ],
  },
  {
    commands: {
      "install":
        "Wire deja's MCP server and hooks into a harness (backs configs up first)",
      "uninstall": "Take deja's MCP server and hooks back out of a harness",
    },
    load: async () => {
      const m = await lazy<typeof import("./install.ts")>("./install.ts");
      return [m.installCommand, m.uninstallCommand];
    },
  },
  {
    commands: {
      "blame":
        "Sessions that discussed or edited a file, and what they decided",
      "fix":
        "What ran after this error last time, without the error coming back",
      "how": "The real invocation agents used for something here",
      "files": "Files the sessions about a topic opened and edited",
      "resume": "The harness's own command that reopens a session",
      "handoff":
        "A packet another agent can continue this project's latest work from",
      "last": "The most recent sessions, with their resume commands",
    },
    load: async () =>
      (await lazy<typeof import("./work.ts")>("./work.ts")).WORK_COMMANDS,
  },
];

/**
 * Loads every command (for help and docs).
 *
 * @returns All commands in registry order.
 */
export async function allCommands(): Promise<Command[]> {
  const out: Command[] = [];
  for (const m of COMMAND_MODULES) out.push(...await m.load());
  return out;
}
