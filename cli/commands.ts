/**
 * Every subcommand, in the order `deja help` lists them.
 *
 * @module
 */
import type { Command } from "./_command.ts";

/** The registered subcommands. */
export const COMMANDS: readonly Command[] = [];
