/**
 * Terminal safety for commands that print text the memory file holds (tool
 * names, error signatures, review reasons, actor labels). Any of it may come
 * from tool output or an agent, so a control character must not reach the
 * terminal as one: ESC could clear the screen, retitle the window or forge
 * a hyperlink, CR could overwrite a line.
 *
 * @module
 */
import type { Io, Writer } from "../src/core/io.ts";
import type { Command } from "./_command.ts";

// C0 controls but tab and newline, DEL, C1 controls, and the bidi
// embeddings, overrides and isolates that reorder what a line seems to say.
// deno-lint-ignore no-control-regex
const UNPRINTABLE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Replaces control characters with visible stand-ins: C0 controls with
 * their Unicode control pictures (ESC → ␛, CR → ␍), DEL with ␡, the rest
 * with U+FFFD. Tab and newline stay.
 *
 * @param text Any text.
 * @returns The text, safe to print on a terminal.
 * @example
 * ```ts
 * import { printable } from "./_printable.ts";
 * import { equal } from "node:assert/strict";
 * equal(printable("a\x1b[2Jb\n"), "a␛[2Jb\n");
 * ```
 */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (c) => {
    const code = c.charCodeAt(0);
    if (code < 0x20) return String.fromCharCode(0x2400 + code);
    if (code === 0x7f) return "\u2421";
    return "\uFFFD";
  });
}

function safeWriter(w: Writer): Writer {
  return { write: (text) => w.write(printable(text)) };
}

/**
 * Wraps a command so everything it prints passes through
 * {@linkcode printable}. JSON is unchanged: its strings escape controls.
 *
 * @param command The command.
 * @returns The same command, printing safely.
 */
export function printsSafely(command: Command): Command {
  return {
    ...command,
    run: (args, io: Io) =>
      command.run(args, {
        ...io,
        stdout: safeWriter(io.stdout),
        stderr: safeWriter(io.stderr),
      }),
  };
}
