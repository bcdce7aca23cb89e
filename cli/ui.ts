/**
 * `deja ui`: the local console and its HTTP API on 127.0.0.1.
 *
 * @module
 */
import { existsSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { UsageError } from "../src/core/errors.ts";
import type { Io } from "../src/core/io.ts";
import { homeDir, indexPath } from "../src/core/paths.ts";
import { loadPolicy } from "../src/memory/mod.ts";
import {
  type AuthConfig,
  createApp,
  modeOf,
  serveConsole,
} from "../src/server/mod.ts";
import { boolFlag, type Command, EXIT, stringFlag } from "./_command.ts";
import { memoryDbPath } from "./_memory_args.ts";

const DEFAULT_ACTOR = "human:console";

function absolute(io: Io, path: string): string {
  return isAbsolute(path) ? path : resolve(io.cwd, path);
}

/**
 * The one-time notice `deja ui` prints on stderr at start.
 *
 * @param url Where the console listens.
 * @param auth The write configuration.
 * @param paths Memory file and index.
 * @returns The notice text.
 */
export function startNotice(
  url: string,
  auth: AuthConfig,
  paths: { memory: string; index: string },
): string {
  const mode = modeOf(auth);
  const lines = [
    `deja ui: ${url}`,
    `  memory file: ${paths.memory}${
      !existsSync(paths.memory)
        ? " (none yet: deja init creates it)"
        : mode === "read-only"
        ? " (opened read-only)"
        : ""
    }`,
    `  transcript index: ${paths.index}`,
  ];
  if (mode === "read-only") {
    lines.push(
      "  mode: read-only. Searching, reading and dry runs work; every write answers 401.",
      "  To review recommendations, restart with --token-env VAR (VAR holds a secret); add --allow-apply to apply.",
    );
  } else {
    lines.push(
      `  mode: ${mode}. Writes need the token from $${auth.tokenEnv} (Bearer, or the Basic password with any user name).`,
      mode === "review"
        ? "  Apply and rollback are off: restart with --allow-apply to enable them."
        : mode === "apply"
        ? "  Destructive applies (FORGET) are off: add --allow-destructive to enable them."
        : "  Destructive applies are on: each still needs an explicit confirmation.",
      `  actor: ${auth.actor} (written into every audit record; requests cannot change it)`,
    );
  }
  lines.push(
    "  Reads are open to this machine only: the server binds 127.0.0.1 and refuses other Host names.",
  );
  return lines.join("\n") + "\n";
}

/** The `ui` subcommand. */
export const uiCommand: Command = {
  name: "ui",
  summary: "Open the local console (browser UI + HTTP API) on 127.0.0.1",
  usage:
    "deja ui [--db FILE] [--port 7777] [--token-env VAR] [--allow-apply] [--allow-destructive] [--actor LABEL] [--policy FILE]",
  help: `Serves the console and its JSON API on http://127.0.0.1:PORT. No build
step, no CDN: the page is embedded in deja and works offline.

Without a token the console is read-only: search, sessions, memories, the
queue, details, dry runs and setup all work, and every write answers 401.
A token unlocks review (approve / reject with a reason), analyzer on/off and
inline loop runs; --allow-apply adds apply and rollback; destructive applies
also need --allow-destructive. POSTs must come from the console's own origin.

Options:
  --db FILE             Memory file (default $DEJA_DB or ~/.local/share/deja/memory.db)
  --port N              Port on 127.0.0.1 (default 7777; 0 picks a free one)
  --token-env VAR       Read the write token from this environment variable
  --allow-apply         Allow apply and rollback (needs --token-env)
  --allow-destructive   Allow applies that forget grains (needs --allow-apply)
  --actor LABEL         Audit actor for console decisions (default ${DEFAULT_ACTOR})
  --policy FILE         Host loop policy (default $DEJA_LOOP_POLICY)

The transcript index is $DEJA_INDEX (default ~/.cache/deja/index.db).

Examples:
  deja ui --db demo.db
  DEJA_TOKEN=s3cret deja ui --db demo.db --token-env DEJA_TOKEN --allow-apply`,
  permissions: { read: true, write: true, env: true, net: true },
  maxPositionals: 0,
  options: {
    db: { type: "string" },
    port: { type: "string" },
    "token-env": { type: "string" },
    "allow-apply": { type: "boolean" },
    "allow-destructive": { type: "boolean" },
    actor: { type: "string" },
    policy: { type: "string" },
  },
  async run(args, io) {
    const portText = stringFlag(args, "port") ?? "7777";
    const port = Number(portText);
    if (!/^\d+$/.test(portText) || port > 65535) {
      throw new UsageError(`--port "${portText}" is not a port number`);
    }
    const tokenEnv = stringFlag(args, "token-env");
    let token: string | undefined;
    if (tokenEnv !== undefined) {
      token = io.env[tokenEnv];
      if (!token) {
        throw new UsageError(
          `--token-env ${tokenEnv}: the variable is unset or empty`,
        );
      }
      if (token.length < 8) {
        io.stderr.write(
          `warning: the token in $${tokenEnv} is shorter than 8 characters\n`,
        );
      }
    }
    const allowApply = boolFlag(args, "allow-apply");
    const allowDestructive = boolFlag(args, "allow-destructive");
    if (allowApply && !token) {
      throw new UsageError("--allow-apply needs --token-env VAR");
    }
    if (allowDestructive && !allowApply) {
      throw new UsageError("--allow-destructive needs --allow-apply");
    }
    const actor = stringFlag(args, "actor") ?? DEFAULT_ACTOR;
    if (
      !/^[a-z]+:[^\s]{1,120}$/i.test(actor) ||
      /^(engine|policy|system)[:]/i.test(actor)
    ) {
      throw new UsageError(
        `--actor "${actor}" must look like human:NAME (engine:, policy: and system: are reserved)`,
      );
    }
    const { policy, source } = loadPolicy(stringFlag(args, "policy"), io.env);
    const auth: AuthConfig = { allowApply, allowDestructive, actor };
    if (token !== undefined) {
      auth.token = token;
      auth.tokenEnv = tokenEnv as string;
    }
    const paths = {
      memory: memoryDbPath(args, io),
      index: absolute(io, indexPath(io.env)),
    };
    const controller = new AbortController();
    const app = createApp({
      memoryPath: paths.memory,
      indexPath: paths.index,
      auth,
      policy,
      ...(source !== "none" ? { policySource: source } : {}),
      now: io.now,
      sourceEnv: { home: homeDir(io.env), env: io.env, os: Deno.build.os },
      log: (line) => io.stderr.write(line),
    });
    const server = await serveConsole(app, { port, signal: controller.signal });
    io.stderr.write(startNotice(server.url, auth, paths));
    const stop = () => controller.abort();
    try {
      Deno.addSignalListener("SIGINT", stop);
      Deno.addSignalListener("SIGTERM", stop);
    } catch {
      // Signals are unavailable on some platforms; the process still exits on interrupt.
    }
    try {
      await server.finished;
    } finally {
      try {
        Deno.removeSignalListener("SIGINT", stop);
        Deno.removeSignalListener("SIGTERM", stop);
      } catch {
        // See above.
      }
      app.close();
    }
    return EXIT.ok;
  },
};
