/**
 * The hidden hook subcommands a harness runs: `hook-context`, `hook-prompt`,
 * `hook-tool-after`, `hook-session-end`. Fail-open: malformed input or any
 * error exits 0 with no output, so an agent is never blocked by deja.
 *
 * @module
 */
import { boolFlag, type Command, EXIT, stringFlag } from "./_command.ts";
import { indexPath, memoryPath } from "../src/core/paths.ts";
import { messageOf } from "../src/core/errors.ts";
import type { Io } from "../src/core/io.ts";
import type { HookContext } from "../src/hooks/_common.ts";
import {
  type HookAnswer,
  type HookFormat,
  renderHookAnswer,
} from "../src/hooks/envelope.ts";
import { type HookPayload, parsePayload } from "../src/hooks/payload.ts";
import { readBounded } from "../src/hooks/read_bounded.ts";

type Handler = (payload: HookPayload, ctx: HookContext) => Promise<HookAnswer>;

/**
 * A hook's handler, loaded when that hook runs and by a computed specifier
 * (which Deno does not prepare at start-up): the session-end hook never
 * loads search, and no hook loads the others' modules.
 */
function lazyHandler<M>(file: string, pick: (m: M) => Handler): Handler {
  return async (payload, ctx) => {
    const loaded: M = await import(new URL(file, import.meta.url).href);
    return pick(loaded)(payload, ctx);
  };
}

const HOOK_HELP =
  `Reads the host's JSON payload on stdin (at most 300 ms) and prints the
host's JSON envelope (hookSpecificOutput.additionalContext), Cursor's
{"additional_context": ...} with --cursor, or the bare text with --plain.
Fail-open: malformed input or any error prints nothing and exits 0. The
index is never built here: a missing or old one starts \`deja index\` in a
detached process. DEJA_HOOK_DEBUG=1 writes errors to stderr;
DEJA_HOOK_BUDGET_MS (default 300) is the wall time hook-prompt's searches
may take before it answers nothing.

Options:
  --plain          Print the text without the JSON envelope
  --cursor         Print Cursor's hook output shape
  --harness ID     The harness this hook is wired for (install sets it)`;

function hookCommand(
  name: string,
  summary: string,
  event: string,
  handler: Handler,
  allowEmpty: boolean,
): Command {
  return {
    name,
    summary,
    hidden: true,
    failOpen: true,
    usage: `deja ${name} [--plain | --cursor] [--harness ID] < payload.json`,
    help: HOOK_HELP,
    permissions: { read: true, write: true, env: true, run: true },
    options: {
      plain: { type: "boolean" },
      cursor: { type: "boolean" },
      harness: { type: "string" },
    },
    async run(args, io) {
      try {
        const { text } = await readBounded(io.stdin);
        let payload: HookPayload;
        if (text.trim()) payload = parsePayload(text);
        else if (allowEmpty) payload = { failed: false };
        else return EXIT.ok;
        const harness = stringFlag(args, "harness");
        const ctx: HookContext = {
          indexPath: indexPath(io.env),
          memoryPath: memoryPath(io.env),
          env: io.env,
          cwd: io.cwd,
          now: io.now(),
          ...(harness ? { harness } : {}),
        };
        const answer = await handler(payload, ctx);
        const format: HookFormat = boolFlag(args, "plain")
          ? "plain"
          : boolFlag(args, "cursor")
          ? "cursor"
          : "json";
        io.stdout.write(
          renderHookAnswer(answer, { format, event: payload.event ?? event }),
        );
      } catch (err) {
        debug(io, name, err);
      }
      return EXIT.ok;
    },
  };
}

function debug(io: Io, name: string, err: unknown): void {
  if (io.env.DEJA_HOOK_DEBUG === "1") {
    io.stderr.write(`deja ${name}: ${messageOf(err)}\n`);
  }
}

/** SessionStart: a digest of the project's recent sessions, led by its accepted notes. */
export const hookContextCommand: Command = hookCommand(
  "hook-context",
  "SessionStart hook: the project's recent sessions and accepted notes",
  "SessionStart",
  lazyHandler<typeof import("../src/hooks/hook_context.ts")>(
    "../src/hooks/hook_context.ts",
    (m) => m.hookContext,
  ),
  true,
);

/** UserPromptSubmit: a digest when the prompt names something the history holds. */
export const hookPromptCommand: Command = hookCommand(
  "hook-prompt",
  "UserPromptSubmit hook: earlier sessions about the ask",
  "UserPromptSubmit",
  lazyHandler<typeof import("../src/hooks/hook_prompt.ts")>(
    "../src/hooks/hook_prompt.ts",
    (m) => m.hookPrompt,
  ),
  false,
);

/** PostToolUse / PostToolUseFailure: the remedy for a failed command. */
export const hookToolAfterCommand: Command = hookCommand(
  "hook-tool-after",
  "PostToolUse hook: what fixed the same error before",
  "PostToolUse",
  lazyHandler<typeof import("../src/hooks/hook_tool_after.ts")>(
    "../src/hooks/hook_tool_after.ts",
    (m) => m.hookToolAfter,
  ),
  false,
);

/** SessionEnd: drop the live stamp, refresh the index, run the gated loop. */
export const hookSessionEndCommand: Command = hookCommand(
  "hook-session-end",
  "SessionEnd hook: drop the live stamp, start index and loop passes",
  "SessionEnd",
  lazyHandler<typeof import("../src/hooks/hook_session_end.ts")>(
    "../src/hooks/hook_session_end.ts",
    (m) => m.hookSessionEnd,
  ),
  true,
);

/** Every hook subcommand. */
export const HOOK_COMMANDS: readonly Command[] = [
  hookContextCommand,
  hookPromptCommand,
  hookToolAfterCommand,
  hookSessionEndCommand,
];
