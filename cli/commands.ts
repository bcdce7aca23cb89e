/**
 * Every subcommand module, in the order `deja help` lists them. Modules load
 * lazily: `deja search` evaluates only the search module's graph, which keeps
 * a whole-process search close to Deno's own start-up time.
 *
 * To add commands, add one entry: the names it serves and how to load it.
 * `tests/commands_test.ts` checks the names against the loaded commands.
 *
 * @module
 */
import type { Command } from "./_command.ts";

/** One lazily loaded module of subcommands. */
export interface CommandModule {
  /** The command names the module exports, e.g. ["loop run", "loop analyzers"]. */
  names: readonly string[];
  /** Loads the module's commands. */
  load(): Promise<readonly Command[]>;
}

/** The registered command modules. */
export const COMMAND_MODULES: readonly CommandModule[] = [
  {
    names: ["index"],
    load: async () => [(await import("./index.ts")).indexCommand],
  },
  {
    names: ["search"],
    load: async () => [(await import("./search.ts")).searchCommand],
  },
  {
    names: ["show"],
    load: async () => [(await import("./show.ts")).showCommand],
  },
  {
    names: ["sources"],
    load: async () => [(await import("./sources.ts")).sourcesCommand],
  },
  {
    names: ["stats"],
    load: async () => [(await import("./stats.ts")).statsCommand],
  },
  {
    names: [
      "loop run",
      "loop analyzers",
      "loop enable",
      "loop disable",
      "loop set",
      "loop schedule",
    ],
    load: async () => (await import("./loop_run.ts")).LOOP_RUN_COMMANDS,
  },
  {
    names: [
      "loop",
      "loop list",
      "loop show",
      "loop approve",
      "loop reject",
      "loop apply",
      "loop rollback",
      "loop mark-applied",
      "loop audit",
      "loop config-export",
      "loop config-import",
    ],
    load: async () => (await import("./loop.ts")).LOOP_COMMANDS,
  },
  {
    names: ["init"],
    load: async () => [(await import("./init.ts")).initCommand],
  },
  {
    names: ["capture tool-call"],
    load: async () => [(await import("./capture.ts")).captureToolCallCommand],
  },
  {
    names: ["import"],
    load: async () => [(await import("./import.ts")).importCommand],
  },
  {
    names: ["remember", "promote"],
    load: async () => [
      (await import("./remember.ts")).rememberCommand,
      (await import("./remember.ts")).promoteCommand,
    ],
  },
  {
    names: [
      "hook-context",
      "hook-prompt",
      "hook-tool-after",
      "hook-session-end",
    ],
    load: async () => (await import("./hooks.ts")).HOOK_COMMANDS,
  },
  { names: ["mcp"], load: async () => [(await import("./mcp.ts")).mcpCommand] },
  {
    names: ["install", "uninstall"],
    load: async () => {
      const m = await import("./install.ts");
      return [m.installCommand, m.uninstallCommand];
    },
  },
  {
    names: ["blame", "fix", "how", "files", "resume", "handoff", "last"],
    load: async () => (await import("./work.ts")).WORK_COMMANDS,
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
