/**
 * Every subcommand, in the order `deja help` lists them.
 *
 * @module
 */
import type { Command } from "./_command.ts";
import { indexCommand } from "./index.ts";
import { searchCommand } from "./search.ts";
import { showCommand } from "./show.ts";
import { sourcesCommand } from "./sources.ts";
import { statsCommand } from "./stats.ts";

/** The registered subcommands. */
export const COMMANDS: readonly Command[] = [
  indexCommand,
  searchCommand,
  showCommand,
  sourcesCommand,
  statsCommand,
];
