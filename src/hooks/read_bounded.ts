/**
 * Reading a hook's stdin without ever hanging the agent: the read gives up
 * after a deadline (300 ms by default) and past a size cap.
 *
 * @module
 */

/** How long a hook waits for its payload. */
export const STDIN_DEADLINE_MS = 300;

/** The largest payload a hook reads. */
export const STDIN_MAX_BYTES = 4 * 1024 * 1024;

/** Options for {@linkcode readBounded}. */
export interface ReadBoundedOptions {
  /** Give up after this long (default {@linkcode STDIN_DEADLINE_MS}). */
  timeoutMs?: number;
  /** Give up past this many bytes (default {@linkcode STDIN_MAX_BYTES}). */
  maxBytes?: number;
}

/**
 * Reads a stream to its end, or until the deadline or the size cap, then
 * releases it. A payload past the cap reads as empty. A stream that never ends (a terminal, a host that keeps the
 * pipe open) costs the deadline, not a hang.
 *
 * @param stream The stream (stdin), or undefined.
 * @param options Deadline and size cap.
 * @returns The text read, and whether it was complete.
 * @example
 * ```ts
 * import { readBounded } from "./read_bounded.ts";
 * import { equal } from "node:assert/strict";
 * const got = await readBounded(new Blob(['{"a":1}']).stream());
 * equal(got.text, '{"a":1}');
 * equal(got.complete, true);
 * ```
 */
export async function readBounded(
  stream: ReadableStream<Uint8Array> | undefined,
  options: ReadBoundedOptions = {},
): Promise<{ text: string; complete: boolean }> {
  if (!stream) return { text: "", complete: false };
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let complete = false;
  let tooLarge = false;
  // An abort signal's timer, not setTimeout: a process's first setTimeout
  // loads Deno's Node-compatible timers, ~14 ms of every hook here. It
  // does not hold the process open once the read is done.
  const signal = AbortSignal.timeout(options.timeoutMs ?? STDIN_DEADLINE_MS);
  const deadline = new Promise<"timeout">((resolve) => {
    signal.addEventListener("abort", () => resolve("timeout"), { once: true });
  });
  try {
    while (true) {
      const next = await Promise.race([reader.read(), deadline]);
      if (next === "timeout") break;
      if (next.done) {
        complete = true;
        break;
      }
      chunks.push(next.value);
      size += next.value.length;
      if (size > (options.maxBytes ?? STDIN_MAX_BYTES)) {
        tooLarge = true;
        break;
      }
    }
  } catch {
    // A broken pipe reads as what arrived so far.
  } finally {
    reader.cancel().catch(() => {});
    try {
      reader.releaseLock();
    } catch {
      // Already released by the cancel.
    }
  }
  // A payload past the cap is not read at all: half a JSON object is no payload.
  if (tooLarge) return { text: "", complete: false };
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.length;
  }
  return { text: new TextDecoder().decode(all), complete };
}
