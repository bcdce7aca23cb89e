/**
 * Argument parsing with the option shape of node:util `parseArgs` (strict,
 * positionals allowed). node:util costs ~12 ms to load, on the start of every
 * command and hook; this is the subset deja uses.
 *
 * @module
 */
import { UsageError } from "../src/core/errors.ts";
import { ownValue } from "../src/core/lookup.ts";

/** One option's declaration. */
export interface OptionSpec {
  /** "string" takes a value; "boolean" does not. */
  type: "string" | "boolean";
  /** Repeatable: values collect in an array. */
  multiple?: boolean;
  /** A one-letter alias. */
  short?: string;
  /** Value when the option is absent. */
  default?: string | boolean | string[] | boolean[];
}

/** Parsed values and positionals. */
export interface ParsedArgv {
  /** Values by option name. */
  values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  /** Everything that is not an option. */
  positionals: string[];
}

/**
 * Parses arguments strictly: an unknown option, a missing value or a value
 * given to a boolean is a {@linkcode UsageError}. `--` ends options.
 *
 * @param args The arguments.
 * @param options The declared options.
 * @returns Values and positionals.
 * @example
 * ```ts
 * import { parseArgv } from "./_args.ts";
 * import { deepEqual } from "node:assert/strict";
 * const parsed = parseArgv(["a", "--limit", "3", "--role=user", "--role", "edit", "-j"], {
 *   limit: { type: "string" },
 *   role: { type: "string", multiple: true },
 *   json: { type: "boolean", short: "j" },
 * });
 * deepEqual(parsed.values, { limit: "3", role: ["user", "edit"], json: true });
 * deepEqual(parsed.positionals, ["a"]);
 * ```
 */
export function parseArgv(
  args: readonly string[],
  options: Record<string, OptionSpec>,
): ParsedArgv {
  const values: ParsedArgv["values"] = {};
  const positionals: string[] = [];
  const byShort = new Map(
    Object.entries(options).filter(([, o]) => o.short).map((
      [name, o],
    ) => [o.short as string, name]),
  );
  const set = (name: string, value: string | boolean) => {
    const spec = options[name] as OptionSpec;
    if (spec.multiple) {
      const list = (values[name] as (string | boolean)[] | undefined) ?? [];
      list.push(value);
      values[name] = list;
    } else {
      values[name] = value;
    }
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--") {
      positionals.push(...args.slice(i + 1));
      break;
    }
    let name: string | undefined;
    let inline: string | undefined;
    if (arg.startsWith("--") && arg.length > 2) {
      const eq = arg.indexOf("=");
      name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
      if (eq !== -1) inline = arg.slice(eq + 1);
    } else if (arg.startsWith("-") && arg.length === 2 && arg !== "-") {
      name = byShort.get(arg.slice(1));
      if (name === undefined) throw new UsageError(`Unknown option "${arg}"`);
    } else {
      positionals.push(arg);
      continue;
    }
    const spec = ownValue(options, name);
    if (!spec) throw new UsageError(`Unknown option "--${name}"`);
    if (spec.type === "boolean") {
      if (inline !== undefined) {
        throw new UsageError(`Option "--${name}" takes no value`);
      }
      set(name, true);
      continue;
    }
    const value = inline ?? args[++i];
    if (value === undefined) {
      throw new UsageError(`Option "--${name}" needs a value`);
    }
    set(name, value);
  }
  for (const [name, spec] of Object.entries(options)) {
    if (values[name] === undefined && spec.default !== undefined) {
      values[name] = spec.default as string | boolean | (string | boolean)[];
    }
  }
  return { values, positionals };
}
