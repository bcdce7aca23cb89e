/**
 * `deja capture tool-call`: record one tool call in the memory file.
 *
 * @module
 */
import { UsageError } from "../src/core/errors.ts";
import { recordToolCall, type ToolCall } from "../src/memory/mod.ts";
import {
  boolFlag,
  type Command,
  EXIT,
  printJson,
  stringFlag,
} from "./_command.ts";
import {
  DB_OPTION,
  JSON_OPTIONS,
  jsonOrText,
  openStore,
  wantsJson,
} from "./_memory_args.ts";

/** The `capture tool-call` subcommand. */
export const captureToolCallCommand: Command = {
  name: "capture tool-call",
  summary: "Record one tool call (and whether it failed) in the memory file",
  usage:
    "deja capture tool-call --tool NAME [--error] [--result JSON] [--input JSON] [--thread ID] [--db FILE]",
  help: `Stores an event grain for one tool call, the raw material of the loop's
tool-failure analyzer. Values that are not JSON are kept as text. Secrets in
input and result are redacted before they are written.

Options:
  --db FILE          Memory file (default $DEJA_DB or ~/.local/share/deja/memory.db)
  --tool NAME        The tool's name (required)
  --error            The call failed
  --result JSON      What the tool returned
  --input JSON       The call's arguments
  --thread ID        Session or conversation the call belongs to
  --exit-code N      Exit code for command tools (non-zero implies --error)
  --namespace NS     Namespace (default "default")
  --actor LABEL      Who made the call (default agent:local)
  --json             Print {"hash": …}

Example:
  deja capture tool-call --db agent.db --tool stripe_refund --error --result '{"error":"rate_limited"}' --thread s1`,
  permissions: { read: true, write: true, env: true },
  options: {
    ...DB_OPTION,
    tool: { type: "string" },
    error: { type: "boolean" },
    result: { type: "string" },
    input: { type: "string" },
    thread: { type: "string" },
    "exit-code": { type: "string" },
    namespace: { type: "string" },
    actor: { type: "string" },
    ...JSON_OPTIONS,
  },
  run(args, io) {
    const tool = stringFlag(args, "tool");
    if (!tool?.trim()) throw new UsageError("--tool is required");
    if (args.positionals.length) {
      throw new UsageError("capture tool-call takes no positional arguments");
    }
    const call: ToolCall = { tool, isError: boolFlag(args, "error") };
    const exit = stringFlag(args, "exit-code");
    if (exit !== undefined) {
      if (!/^-?\d+$/.test(exit)) {
        throw new UsageError(`--exit-code needs a whole number, got "${exit}"`);
      }
      call.exitCode = Number(exit);
      if (call.exitCode !== 0) call.isError = true;
    }
    const result = stringFlag(args, "result");
    if (result !== undefined) call.result = jsonOrText(result);
    const input = stringFlag(args, "input");
    if (input !== undefined) call.input = jsonOrText(input);
    const thread = stringFlag(args, "thread");
    if (thread !== undefined) call.thread = thread;
    const ns = stringFlag(args, "namespace");
    if (ns !== undefined) call.namespace = ns;
    const actor = stringFlag(args, "actor");
    if (actor !== undefined) call.actor = actor;
    const store = openStore(args, io);
    let hash: string;
    try {
      hash = recordToolCall(store, call);
    } finally {
      store.close();
    }
    if (wantsJson(args)) printJson(io, { hash, is_error: call.isError });
    else {io.stdout.write(
        `${hash.slice(0, 12)}  ${tool}${call.isError ? " (error)" : ""}\n`,
      );}
    return Promise.resolve(EXIT.ok);
  },
};
