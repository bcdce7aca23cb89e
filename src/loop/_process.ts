/**
 * Runs one external process with JSON lines on stdin and JSON on stdout,
 * under a timeout and an output cap. Used by command analyzers and the LLM
 * command. The argv is split on whitespace and never passed to a shell.
 *
 * @module
 */
import { messageOf } from "../core/errors.ts";

/** What a process run produced, or why it failed. */
export type ProcessResult =
  | { ok: true; stdout: string; stderr: string }
  | { ok: false; reason: string; stderr: string };

/** Options for {@linkcode runProcess}. */
export interface RunProcessOptions {
  /** Kill the process after this many milliseconds. */
  timeoutMs: number;
  /** Most stdout bytes accepted before the process is killed. */
  maxOutputBytes?: number;
  /** Working directory. */
  cwd?: string;
}

/**
 * Splits a command line on whitespace (no shell, no quoting).
 *
 * @param command The command line.
 * @returns The argv.
 */
export function splitArgv(command: string): string[] {
  return command.trim().split(/\s+/).filter(Boolean);
}

async function drain(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  max: number,
  onOverflow: () => void,
): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let r: ReadableStreamReadResult<Uint8Array>;
    try {
      r = await reader.read();
    } catch {
      break;
    }
    if (r.done) break;
    size += r.value.length;
    if (size > max) {
      onOverflow();
      break;
    }
    chunks.push(r.value);
  }
  const all = new Uint8Array(Math.min(size, max));
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.length;
  }
  return new TextDecoder().decode(all.subarray(0, at));
}

/**
 * Spawns `argv`, writes `input` lines to its stdin, and collects stdout.
 * A timeout, an oversized output, a spawn failure or a non-zero exit come
 * back as `{ ok: false, reason }`; nothing throws.
 *
 * @param argv Program and arguments.
 * @param input Lines to write (each gets a trailing newline).
 * @param options Timeout and output cap.
 * @returns The output or the reason it failed.
 */
export async function runProcess(
  argv: readonly string[],
  input: Iterable<string>,
  options: RunProcessOptions,
): Promise<ProcessResult> {
  const [program, ...args] = argv;
  if (!program) return { ok: false, reason: "empty command", stderr: "" };
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(program, {
      args,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
      ...(options.cwd ? { cwd: options.cwd } : {}),
    }).spawn();
  } catch (err) {
    return {
      ok: false,
      reason: `cannot start "${program}": ${messageOf(err)}`,
      stderr: "",
    };
  }
  let failure: string | undefined;
  const kill = (why: string) => {
    failure ??= why;
    try {
      child.kill("SIGKILL");
    } catch {
      // Already exited.
    }
  };
  const outReader = child.stdout.getReader();
  const errReader = child.stderr.getReader();
  const timer = setTimeout(() => {
    kill(`timeout after ${options.timeoutMs} ms`);
    // A grandchild may keep the pipes open; stop waiting for them.
    outReader.cancel().catch(() => {});
    errReader.cancel().catch(() => {});
  }, options.timeoutMs);
  const writing = (async () => {
    const w = child.stdin.getWriter();
    const enc = new TextEncoder();
    try {
      for (const line of input) await w.write(enc.encode(line + "\n"));
      await w.close();
    } catch {
      // The process closed stdin early or was killed; its output decides.
    }
  })();
  const max = options.maxOutputBytes ?? 8 * 1024 * 1024;
  const [stdout, stderr] = await Promise.all([
    drain(outReader, max, () => kill(`output larger than ${max} bytes`)),
    drain(errReader, 64 * 1024, () => {}),
  ]);
  const status = await child.status;
  clearTimeout(timer);
  await writing;
  if (failure) return { ok: false, reason: failure, stderr };
  if (!status.success) {
    const tail = stderr.trim().split("\n").pop() ?? "";
    return {
      ok: false,
      reason: `exited with code ${status.code}${
        tail ? `: ${tail.slice(0, 200)}` : ""
      }`,
      stderr,
    };
  }
  return { ok: true, stdout, stderr };
}

/**
 * Parses the JSON object a process printed (surrounding whitespace allowed;
 * with several lines, the last non-empty line).
 *
 * @param stdout The process output.
 * @returns The object, or a reason it is not one.
 */
export function parseJsonReply(
  stdout: string,
): { ok: true; value: Record<string, unknown> } | {
  ok: false;
  reason: string;
} {
  const text = stdout.trim();
  if (!text) return { ok: false, reason: "bad JSON: empty output" };
  const candidates = [
    text,
    text.split("\n").filter((l) => l.trim()).pop() ?? "",
  ];
  let last = "";
  for (const c of candidates) {
    try {
      const v = JSON.parse(c);
      if (typeof v === "object" && v !== null && !Array.isArray(v)) {
        return { ok: true, value: v as Record<string, unknown> };
      }
      last = "not a JSON object";
    } catch (err) {
      last = messageOf(err);
    }
  }
  return { ok: false, reason: `bad JSON: ${last.slice(0, 160)}` };
}
