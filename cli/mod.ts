/**
 * The CLI dispatcher: finds the subcommand, revokes the permission kinds it
 * did not declare, parses its arguments and maps errors to exit codes.
 *
 * @module
 */
import { parseArgv } from "./_args.ts";
import type { Io } from "../src/core/io.ts";
import { DejaError, messageOf, UsageError } from "../src/core/errors.ts";
import { editDistance } from "../src/search/_fuzzy.ts";
import {
  type Command,
  EXIT,
  type ParsedArgs,
  type Permissions,
} from "./_command.ts";
import { COMMAND_MODULES } from "./commands.ts";

const KINDS = ["read", "write", "env", "net", "run", "sys", "ffi"] as const;

/**
 * Finds the command for an argument vector, preferring two-word names
 * (`loop run`) over one-word ones, and loads only its module.
 *
 * @param argv The arguments after the program name.
 * @returns The command and the remaining arguments, or undefined.
 */
export async function findCommand(
  argv: readonly string[],
): Promise<{ command: Command; rest: string[] } | undefined> {
  for (const words of [2, 1]) {
    if (argv.length < words) continue;
    const name = argv.slice(0, words).join(" ");
    const module = COMMAND_MODULES.find((m) => Object.hasOwn(m.commands, name));
    if (!module) continue;
    const command = (await module.load()).find((c) => c.name === name);
    if (command) return { command, rest: argv.slice(words) };
  }
  return undefined;
}

/**
 * Why no command matched: a group word without its verb ("capture" for
 * "capture tool-call") names the verbs; anything else is unknown.
 */
function unknownCommand(argv: readonly string[]): string {
  const word = argv[0] ?? "";
  const verbs = COMMAND_MODULES.flatMap((m) => Object.keys(m.commands))
    .filter((n) => n.startsWith(`${word} `));
  if (verbs.length) return `"${word}" needs one of: ${verbs.join(", ")}`;
  // A slip of the keyboard ("serach"): the nearest command word, if near.
  const words = [
    ...new Set(
      COMMAND_MODULES.flatMap((m) => Object.keys(m.commands))
        .map((n) => n.split(" ")[0]!),
    ),
  ];
  const near = words.map((w) => ({ w, d: editDistance(word, w, 2) }))
    .filter((c) => c.d <= 2 && c.d < word.length)
    .sort((a, b) => a.d - b.d)[0];
  return `unknown command "${argv.join(" ")}"${
    near ? `: did you mean "${near.w}"?` : ""
  }`;
}

/**
 * Revokes every permission kind the command does not declare, so a
 * read-only command cannot write, connect or spawn even under `-A`.
 *
 * @param permissions The command's declared permissions.
 */
export async function revokeUndeclared(
  permissions: Permissions,
): Promise<void> {
  for (const name of KINDS) {
    if (name !== "ffi" && permissions[name]) continue;
    await Deno.permissions.revoke({ name });
  }
}

/**
 * Refuses to run a command that declares env access without it: every
 * other missing permission fails loudly at its first use, but without env
 * the command would see no `HOME` or `DEJA_INDEX` and quietly answer from
 * the wrong index.
 *
 * @param command The command about to run.
 * @throws {DejaError} CLI-E002 when env access was not granted.
 */
function assertEnvGranted(command: Command): void {
  if (!command.permissions.env) return;
  if (Deno.permissions.querySync({ name: "env" }).state === "granted") return;
  const flags = KINDS.filter((k) =>
    k !== "ffi" && command.permissions[k as keyof Permissions]
  ).map((k) => `--allow-${k}`).join(" ");
  throw new DejaError(
    "CLI-E002",
    `deja ${command.name} needs env access to find HOME and DEJA_INDEX: run it with -A or ${flags}`,
  );
}

/**
 * Renders a command's help, including the permissions it runs with.
 *
 * @param command The command.
 * @returns The help text.
 */
export function commandHelp(command: Command): string {
  const perms = KINDS.filter((k) =>
    k !== "ffi" && command.permissions[k as keyof Permissions]
  );
  return [
    `deja ${command.name} — ${command.summary}`,
    "",
    `Usage: ${command.usage}`,
    "",
    command.help.trimEnd(),
    "",
    `Permissions: ${
      perms.length ? perms.join(", ") : "none"
    } (every other kind is revoked before it runs)`,
    "",
  ].join("\n");
}

/** The command list of `deja help`, from the registry (no module loads). */
function overview(): string {
  const visible = COMMAND_MODULES.flatMap((m) =>
    Object.entries(m.commands).flatMap(([name, summary]) =>
      summary === null ? [] : [{ name, summary }]
    )
  );
  const width = Math.max(...visible.map((c) => c.name.length));
  const lines = visible.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return [
    "deja — a memory coding agents can trust",
    "",
    "Usage: deja <command> [options]   (deja help <command> for details)",
    "",
    "Commands:",
    ...lines,
    "",
  ].join("\n");
}

/**
 * Refuses positional arguments past what the command declares, so a slip
 * such as `deja index codex` (for `--harness codex`) is not silently a
 * whole pass.
 */
function checkPositionals(command: Command, positionals: string[]): void {
  const max = command.maxPositionals;
  if (max === undefined || positionals.length <= max) return;
  const extra = positionals.slice(max).map((p) => `"${p}"`).join(", ");
  throw new UsageError(
    max === 0
      ? `${command.name} takes no arguments, got ${extra}`
      : `${command.name} takes at most ${max} argument${
        max === 1 ? "" : "s"
      }; ${extra} is one too many`,
  );
}

/**
 * Whether the words ask for help: `--help` or `-h` before any `--`, past
 * which every word is an argument (`deja search -- --help` searches it).
 */
function asksHelp(words: readonly string[]): boolean {
  const end = words.indexOf("--");
  const flags = end === -1 ? words : words.slice(0, end);
  return flags.includes("--help") || flags.includes("-h");
}

/** Options for {@linkcode run}. */
export interface RunOptions {
  /** Skip permission revocation (in-process tests that reuse the runtime). */
  keepPermissions?: boolean;
}

/**
 * Runs the CLI.
 *
 * @param argv Arguments after the program name.
 * @param io The world.
 * @param options In-process switches.
 * @returns The exit code.
 */
export async function run(
  argv: readonly string[],
  io: Io,
  options: RunOptions = {},
): Promise<number> {
  if (argv.length === 0 || argv[0] === "--help" || argv[0] === "-h") {
    io.stdout.write(overview());
    return EXIT.ok;
  }
  if (argv[0] === "--version" || argv[0] === "version") {
    io.stdout.write("deja 0.1.0\n");
    return EXIT.ok;
  }
  if (argv[0] === "help") {
    // `deja help help` and `deja help --help` ask for the overview too.
    if (argv.length === 1 || ["help", "--help", "-h"].includes(argv[1]!)) {
      io.stdout.write(overview());
      return EXIT.ok;
    }
    const found = await findCommand(argv.slice(1));
    if (!found && argv.length === 2) {
      // A group word without a command of its own ("help capture"): the
      // help of each of its commands.
      const verbs = COMMAND_MODULES.flatMap((m) => Object.keys(m.commands))
        .filter((n) => n.startsWith(`${argv[1]} `));
      const helps = [];
      for (const verb of verbs) {
        const command = (await findCommand(verb.split(" ")))?.command;
        if (command) helps.push(commandHelp(command));
      }
      if (helps.length) {
        io.stdout.write(helps.join("\n"));
        return EXIT.ok;
      }
    }
    if (!found) {
      io.stderr.write(
        `error: ${unknownCommand(argv.slice(1))}\n\n${overview()}`,
      );
      return EXIT.usage;
    }
    // Words past the command name no command ("help loop nope"): the help
    // of the command they follow, as an error.
    if (found.rest.length > 0) {
      io.stderr.write(
        `error: unknown command "${argv.slice(1).join(" ")}"\n\n${
          commandHelp(found.command)
        }`,
      );
      return EXIT.usage;
    }
    io.stdout.write(commandHelp(found.command));
    return EXIT.ok;
  }
  const found = await findCommand(argv);
  if (!found && asksHelp(argv)) {
    // "deja capture --help" is "deja help capture" (a group's verbs).
    return await run(
      [
        "help",
        ...argv.filter((a) => a !== "--help" && a !== "-h"),
      ],
      io,
      options,
    );
  }
  if (!found) {
    io.stderr.write(
      `error: ${unknownCommand(argv.slice(0, 1))}\n\n${overview()}`,
    );
    return EXIT.usage;
  }
  const { command, rest } = found;
  if (asksHelp(rest)) {
    io.stdout.write(commandHelp(command));
    return EXIT.ok;
  }
  let parsed: ParsedArgs | undefined;
  try {
    parsed = parseArgv(rest, command.options);
    checkPositionals(command, parsed.positionals);
    if (!options.keepPermissions) {
      assertEnvGranted(command);
      await revokeUndeclared(command.permissions);
    }
    return await command.run(
      parsed,
      io,
    );
  } catch (err) {
    if (command.failOpen) {
      if (io.env.DEJA_HOOK_DEBUG === "1") {
        io.stderr.write(`deja ${command.name}: ${messageOf(err)}\n`);
      }
      return EXIT.ok;
    }
    // A query that cannot be parsed (a bad --re pattern) is a usage error too.
    if (err instanceof UsageError || err instanceof SyntaxError) {
      io.stderr.write(`error: ${messageOf(err)}\n\n${commandHelp(command)}`);
      return EXIT.usage;
    }
    if (err instanceof DejaError) {
      io.stderr.write(`error: ${err.message} [${err.code}]\n`);
      return EXIT.error;
    }
    // A corrupt page past the ones opening reads: say which file it is
    // and how to get a sound one back (loaded here, by a computed specifier
    // Deno does not prepare at start-up: its node:path costs every command
    // ~15 ms).
    const damagedModule: Promise<typeof import("./_damaged.ts")> = import(
      new URL("./_damaged.ts", import.meta.url).href
    );
    const { commandDamagedFile } = await damagedModule;
    const damaged = commandDamagedFile(err, parsed, io);
    if (damaged) {
      io.stderr.write(`error: ${damaged.message} [${damaged.code}]\n`);
      return EXIT.error;
    }
    io.stderr.write(`error: ${messageOf(err)}\n`);
    return EXIT.error;
  }
}
