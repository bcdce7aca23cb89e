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
    names: ["index"],
    load: async () => [
      (await lazy<typeof import("./index.ts")>("./index.ts")).indexCommand,
    ],
  },
  {
    names: ["search"],
    load: async () => [
      (await lazy<typeof import("./search.ts")>("./search.ts")).searchCommand,
    ],
  },
  {
    names: ["show"],
    load: async () => [
      (await lazy<typeof import("./show.ts")>("./show.ts")).showCommand,
    ],
  },
  {
    names: ["sources"],
    load: async () => [
      (await lazy<typeof import("./sources.ts")>("./sources.ts"))
        .sourcesCommand,
    ],
  },
  {
    names: ["stats"],
    load: async () => [
      (await lazy<typeof import("./stats.ts")>("./stats.ts")).statsCommand,
    ],
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
    load: async () =>
      (await lazy<typeof import("./loop_run.ts")>("./loop_run.ts"))
        .LOOP_RUN_COMMANDS,
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
    load: async () =>
      (await lazy<typeof import("./loop.ts")>("./loop.ts")).LOOP_COMMANDS,
  },
  {
    names: ["init"],
    load: async () => [
      (await lazy<typeof import("./init.ts")>("./init.ts")).initCommand,
    ],
  },
  {
    names: ["capture tool-call"],
    load: async () => [
      (await lazy<typeof import("./capture.ts")>("./capture.ts"))
        .captureToolCallCommand,
    ],
  },
  {
    names: ["import"],
    load: async () => [
      (await lazy<typeof import("./import.ts")>("./import.ts")).importCommand,
    ],
  },
  {
    names: ["remember", "promote"],
    load: async () => [
      (await lazy<typeof import("./remember.ts")>("./remember.ts"))
        .rememberCommand,
      (await lazy<typeof import("./remember.ts")>("./remember.ts"))
        .promoteCommand,
    ],
  },
  {
    names: ["ui"],
    load:
      async () => [(await lazy<typeof import("./ui.ts")>("./ui.ts")).uiCommand],
  },
  {
    names: [
      "hook-context",
      "hook-prompt",
      "hook-tool-after",
      "hook-session-end",
    ],
    load: async () =>
      (await lazy<typeof import("./hooks.ts")>("./hooks.ts")).HOOK_COMMANDS,
  },
  {
    names: ["mcp"],
    load: async () => [
      (await lazy<typeof import("./mcp.ts")>("./mcp.ts")).mcpCommand,
    ],
  },
  {
    names: ["install", "uninstall"],
    load: async () => {
      const m = await lazy<typeof import("./install.ts")>("./install.ts");
      return [m.installCommand, m.uninstallCommand];
    },
  },
  {
    names: ["blame", "fix", "how", "files", "resume", "handoff", "last"],
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
