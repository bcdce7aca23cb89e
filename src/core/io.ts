/**
 * The world a command sees, injected so tests never touch the real HOME,
 * clock or terminal.
 *
 * @module
 */

/** A sink for text. */
export interface Writer {
  /** Writes the text as is. */
  write(text: string): void;
}

/** Everything outside the process a command may consult. */
export interface Io {
  /** Program output. */
  stdout: Writer;
  /** Progress, notices and errors. */
  stderr: Writer;
  /** Environment variables (a snapshot or a live view). */
  env: Record<string, string | undefined>;
  /** The working directory. */
  cwd: string;
  /** The clock, in milliseconds since the epoch. */
  now: () => number;
  /** Whether stdout is a terminal. */
  isTerminal: boolean;
  /** Standard input, when the command reads it. */
  stdin?: ReadableStream<Uint8Array>;
}

/**
 * Whether output may carry ANSI styling (bold, dim): stdout is a terminal
 * and `NO_COLOR` is unset or empty, as no-color.org asks.
 *
 * @param io The world.
 * @returns True when styling escapes may be written.
 */
export function stylesOutput(io: Io): boolean {
  return io.isTerminal && !io.env.NO_COLOR;
}

/**
 * Builds the real {@linkcode Io} for a process.
 *
 * @returns An Io wired to Deno's stdio, environment and clock.
 * @example
 * ```ts
 * import { processIo } from "./io.ts";
 * import { equal } from "node:assert/strict";
 * equal(typeof processIo().now(), "number");
 * ```
 */
export function processIo(): Io {
  const encoder = new TextEncoder();
  const sink = (fd: typeof Deno.stdout): Writer => {
    let closed = false;
    return {
      write(text: string) {
        if (closed) return;
        const bytes = encoder.encode(text);
        let written = 0;
        try {
          while (written < bytes.length) {
            written += fd.writeSync(bytes.subarray(written));
          }
        } catch (err) {
          // `deja show x | head` closes the pipe early: stop writing, quietly.
          if (!(err instanceof Deno.errors.BrokenPipe)) throw err;
          closed = true;
        }
      },
    };
  };
  let env: Record<string, string | undefined> = {};
  try {
    env = Deno.env.toObject();
  } catch {
    // Without env permission the command sees an empty environment.
  }
  return {
    stdout: sink(Deno.stdout),
    stderr: sink(Deno.stderr),
    env,
    cwd: Deno.cwd(),
    now: () => Date.now(),
    isTerminal: Deno.stdout.isTerminal(),
    // A getter: creating the stream loads Deno's web streams (~10 ms of a
    // whole process), which only the commands that read stdin should pay.
    get stdin() {
      return Deno.stdin.readable;
    },
  };
}

/** An Io that records what was written, for tests and embedding. */
export interface CapturedIo extends Io {
  /** Everything written to stdout. */
  out(): string;
  /** Everything written to stderr. */
  err(): string;
}

/** Options for {@linkcode captureIo}. */
export interface CaptureIoOptions {
  /** Environment; defaults to empty. */
  env?: Record<string, string | undefined>;
  /** Working directory; defaults to "/". */
  cwd?: string;
  /** Fixed clock value or function. */
  now?: number | (() => number);
  /** Text fed to stdin. */
  stdin?: string;
}

/**
 * Builds an Io that captures output in memory.
 *
 * @param options Environment, cwd, clock and stdin.
 * @returns A {@linkcode CapturedIo}.
 * @example
 * ```ts
 * import { captureIo } from "./io.ts";
 * import { equal } from "node:assert/strict";
 * const io = captureIo();
 * io.stdout.write("hi");
 * equal(io.out(), "hi");
 * ```
 */
export function captureIo(options: CaptureIoOptions = {}): CapturedIo {
  let out = "";
  let err = "";
  const now = options.now;
  const io: CapturedIo = {
    stdout: { write: (t) => void (out += t) },
    stderr: { write: (t) => void (err += t) },
    env: options.env ?? {},
    cwd: options.cwd ?? "/",
    now: typeof now === "function" ? now : () => now ?? Date.now(),
    isTerminal: false,
    out: () => out,
    err: () => err,
  };
  if (options.stdin !== undefined) {
    io.stdin = new Blob([options.stdin]).stream();
  }
  return io;
}
