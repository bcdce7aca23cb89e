/**
 * `deja mcp`: the stdio MCP server a harness launches.
 *
 * @module
 */
import { type Command, EXIT, stringFlag } from "./_command.ts";
import { UsageError } from "../src/core/errors.ts";
import { indexPath, memoryPath } from "../src/core/paths.ts";
import { ALL_SCOPES, type Scope } from "../src/memory/mod.ts";
import { DEFAULT_SCOPES, serveMcpStdio } from "../src/mcp/mod.ts";

/**
 * Parses `--scopes review,apply`.
 *
 * @param text The flag value.
 * @returns The scopes.
 * @throws {UsageError} On an unknown scope.
 */
export function parseScopes(text: string | undefined): Scope[] {
  if (text === undefined) return [...DEFAULT_SCOPES];
  const out: Scope[] = [];
  for (const raw of text.split(",")) {
    const s = raw.trim();
    if (!s) continue;
    if (!(ALL_SCOPES as readonly string[]).includes(s)) {
      throw new UsageError(
        `Unknown scope "${s}": use ${ALL_SCOPES.join(", ")}`,
      );
    }
    if (!out.includes(s as Scope)) out.push(s as Scope);
  }
  if (!out.includes("read")) out.unshift("read");
  return out;
}

/** The `mcp` subcommand. */
export const mcpCommand: Command = {
  name: "mcp",
  summary: "Serve recall and the loop to agents over MCP (stdio)",
  usage: "deja mcp [--scopes LIST] [--actor LABEL]",
  help: `Speaks the Model Context Protocol on stdin/stdout; logs go to stderr.
Tools: deja (mode: recall, context, blame, fix, how, orient, remember,
handoff), deja_loop (status, run), deja_recommendations (list, show,
approve, reject, apply). Resources: deja://session/<harness>:<id> for the
20 most recent sessions. Every answer is wrapped in <deja-recall>, marked
as untrusted history. Sessions a hook stamped live in the last 20 minutes
are left out of recall. The server answers from the index on disk and
starts \`deja index\` in the background when it is missing or old.

Options:
  --scopes LIST   What this process may do: read, write, review, apply, admin
                  (default read,write: a worker that stores notes and runs
                  analyzers). A reviewer gets --scopes review,apply.
  --actor LABEL   Who this process is in the audit chain (default agent:mcp;
                  engine:, policy: and system: are reserved). Nobody approves
                  what their own actor created or triggered.

Supervisor pattern: run a worker (deja mcp --actor agent:worker) and a
reviewer (deja mcp --scopes review,apply --actor agent:reviewer) as two
MCP servers.`,
  permissions: { read: true, write: true, env: true, run: true },
  maxPositionals: 0,
  options: { scopes: { type: "string" }, actor: { type: "string" } },
  async run(args, io) {
    const scopes = parseScopes(stringFlag(args, "scopes"));
    const given = stringFlag(args, "actor");
    if (given !== undefined && !given.trim()) {
      throw new UsageError(
        "--actor needs a label such as agent:worker (leave it out for agent:mcp)",
      );
    }
    const actor = given?.trim() || "agent:mcp";
    if (!/^[a-z]+:\S+$/i.test(actor)) {
      throw new UsageError(`--actor "${actor}" should look like agent:name`);
    }
    // A "policy:" actor may move pending straight to applied, and
    // "engine:"/"system:" name deja itself in the audit chain: an MCP
    // client never speaks as either.
    if (/^(engine|policy|system):/i.test(actor)) {
      throw new UsageError(
        `--actor "${actor}" is reserved (engine:, policy: and system: are deja's own); use agent:NAME`,
      );
    }
    await serveMcpStdio({
      indexPath: indexPath(io.env),
      memoryPath: memoryPath(io.env),
      env: io.env,
      cwd: io.cwd,
      now: io.now,
      scopes,
      actor,
      log: (line) => io.stderr.write(`${line}\n`),
    });
    return EXIT.ok;
  },
};
