/**
 * The shape every subcommand module exports: its arguments, help text and the
 * Deno permissions it needs. The dispatcher revokes every permission kind a
 * command does not declare before running it.
 *
 * @module
 */
import type { OptionSpec } from "./_args.ts";
import type { Io } from "../src/core/io.ts";
import { UsageError } from "../src/core/errors.ts";
import { isRole, type Role, ROLES } from "../src/core/types.ts";

/** Permission kinds a command may declare. Undeclared kinds are revoked. */
export interface Permissions {
  /** Reads files (transcripts, the index, config). */
  read?: boolean;
  /** Writes files (the index, the memory file, configs). */
  write?: boolean;
  /** Reads environment variables. */
  env?: boolean;
  /** Opens sockets (the HTTP server on loopback). */
  net?: boolean;
  /** Spawns processes (git, a detached index, command analyzers). */
  run?: boolean;
  /** Reads system information (hostname, os release). */
  sys?: boolean;
}

/** Parsed arguments. */
export interface ParsedArgs {
  /** Flag values by name. */
  values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  /** Positional arguments. */
  positionals: string[];
}

/** One subcommand. */
export interface Command {
  /** The word after `deja`, e.g. "search"; nested verbs use a space. */
  name: string;
  /** One line for the overview. */
  summary: string;
  /** Usage line(s), e.g. `deja search <words...> [options]`. */
  usage: string;
  /** Option descriptions and examples. */
  help: string;
  /** Hidden from `deja help` (hooks). */
  hidden?: boolean;
  /**
   * Fails open (hooks): a usage error exits 0 with no output, like any other
   * error of the command (DEJA_HOOK_DEBUG=1 writes it to stderr).
   */
  failOpen?: boolean;
  /** Permissions the command needs. */
  permissions: Permissions;
  /** Declared options (the node:util parseArgs shape). */
  options: Record<string, OptionSpec>;
  /**
   * The most positional arguments the command takes; the dispatcher refuses
   * more as a usage error. Unset: the command checks its own.
   */
  maxPositionals?: number;
  /** Runs the command; returns the exit code. */
  run(args: ParsedArgs, io: Io): Promise<number>;
}

/** The exit codes of BRIEF.md §4. */
export const EXIT = {
  ok: 0,
  error: 1,
  gate: 2,
  partial: 3,
  usage: 64,
} as const;

/**
 * Reads a string flag.
 *
 * @param args Parsed arguments.
 * @param name Flag name.
 * @returns The value, or undefined when absent.
 */
export function stringFlag(args: ParsedArgs, name: string): string | undefined {
  const v = args.values[name];
  return typeof v === "string" ? v : undefined;
}

/**
 * Reads a boolean flag.
 *
 * @param args Parsed arguments.
 * @param name Flag name.
 * @returns True when given.
 */
export function boolFlag(args: ParsedArgs, name: string): boolean {
  return args.values[name] === true;
}

/**
 * Reads a repeatable string flag.
 *
 * @param args Parsed arguments.
 * @param name Flag name.
 * @returns Every value given, in order.
 */
export function listFlag(args: ParsedArgs, name: string): string[] {
  const v = args.values[name];
  if (Array.isArray(v)) {
    return v.filter((x): x is string => typeof x === "string");
  }
  return typeof v === "string" ? [v] : [];
}

/**
 * The names a filter option gives, each value one name or a comma list
 * (`--role user,edit` is `--role user --role edit`), trimmed.
 *
 * @param args Parsed arguments.
 * @param name Flag name.
 * @returns Every name given, in order; empty when the option is absent.
 * @throws {UsageError} When a value names nothing (`--role ''`,
 * `--harness ,`) or has an empty name between commas: a filter given empty
 * is a slip, not "no filter".
 * @example
 * ```ts
 * import { namesFlag } from "./_command.ts";
 * import { deepEqual, throws } from "node:assert/strict";
 * deepEqual(namesFlag({ values: { role: ["user, edit", "files"] }, positionals: [] }, "role"), ["user", "edit", "files"]);
 * throws(() => namesFlag({ values: { role: [""] }, positionals: [] }, "role"));
 * ```
 */
export function namesFlag(args: ParsedArgs, name: string): string[] {
  return listFlag(args, name).flatMap((value) => {
    const names = value.split(",").map((n) => n.trim());
    if (names.every((n) => n === "")) {
      throw new UsageError(
        `--${name} "${value}" names nothing: give one or more, e.g. --${name} a,b`,
      );
    }
    if (names.includes("")) {
      throw new UsageError(`--${name} "${value}" has an empty name`);
    }
    return names;
  });
}

/**
 * Reads an option that narrows what a command reads (`--project`,
 * `--session`, `--since`).
 *
 * @param args Parsed arguments.
 * @param name Flag name.
 * @returns The value, or undefined when absent.
 * @throws {UsageError} When it is given empty (`--project "$UNSET"`): a
 * filter given empty is a slip, not "no filter".
 * @example
 * ```ts
 * import { filterFlag } from "./_command.ts";
 * import { equal, throws } from "node:assert/strict";
 * equal(filterFlag({ values: { project: "api" }, positionals: [] }, "project"), "api");
 * throws(() => filterFlag({ values: { project: " " }, positionals: [] }, "project"));
 * ```
 */
export function filterFlag(
  args: ParsedArgs,
  name: string,
): string | undefined {
  const value = stringFlag(args, name);
  if (value !== undefined && value.trim() === "") {
    throw new UsageError(
      `--${name} "${value}" names nothing: leave it out to search without it`,
    );
  }
  return value;
}

/**
 * The roles `--role` names.
 *
 * @param args Parsed arguments.
 * @returns The roles; empty when `--role` is absent.
 * @throws {UsageError} When a value is empty or names no role.
 */
export function rolesFlag(args: ParsedArgs): Role[] {
  return namesFlag(args, "role").map((r) => {
    if (!isRole(r)) {
      throw new UsageError(
        `Unknown role "${r}": use one of ${ROLES.join(", ")}`,
      );
    }
    return r;
  });
}

/**
 * Writes a JSON value to stdout followed by a newline.
 *
 * @param io The io.
 * @param value Any JSON value.
 */
export function printJson(io: Io, value: unknown): void {
  io.stdout.write(JSON.stringify(value, null, 2) + "\n");
}
