/**
 * The one error family callers catch. Every code is listed in docs/errors.md.
 *
 * @module
 */

/** Stable error codes, grouped by area. */
export const ERROR_CODES = {
  "IDX-E001": "The index database cannot be opened",
  "IDX-E002": "Another process holds the index write lock",
  "IDX-E003": "The index was written by a newer deja",
  "IDX-E004": "SQLite lacks FTS5",
  "IDX-E005":
    "Nothing is indexed yet (a command that needs sessions to answer from)",
  "SRC-E001": "A transcript store could not be read",
  "SRC-E002": "A store has a schema the parser does not know",
  "SRC-E003": "A line exceeds the per-line size cap",
  "SRC-E004": "A store did not answer in time",
  "QRY-E001": "The query cannot be parsed",
  "QRY-E002": "No session matches the id prefix",
  "QRY-E003": "The id prefix matches more than one session",
  "QRY-E004": "The harness's own program is not there to resume a session",
  "QRY-E005": "The session's harness has no resume command deja knows",
  "QRY-E006": "A regular expression ran too long and was stopped",
  "QRY-E007": "The session's folder is gone, so it cannot be resumed there",
  "CLI-E001": "Usage error",
  "CLI-E002": "The command was started without a permission it declares",
  "INS-E001":
    "A harness config file cannot be parsed, or a key deja adds to holds another shape, so install will not edit it",
  "MEM-E001": "The memory file cannot be opened",
  "MEM-E002": "The memory file was written by a newer deja",
  "MEM-E003": "A hash prefix is unknown or ambiguous",
  "MEM-E004": "Another process holds the memory file write lock",
  "MEM-E005": "The memory file already holds grains",
  "LOOP-E001": "A transition lost a race (compare-and-set conflict)",
  "LOOP-E002": "The actor lacks a scope the action needs",
  "LOOP-E003": "Self-approval is blocked",
  "LOOP-E004": "The transition is not allowed from the current status",
  "LOOP-E005": "A reason is missing or too long",
  "LOOP-E006": "The loop policy file is invalid",
  "LOOP-E007": "A command analyzer failed",
  "LOOP-E008": "The audit chain does not verify",
  "LOOP-E009": "The proposal no longer matches the memory file",
  "LOOP-E010": "The loop config file to import is invalid",
  "SRV-E001": "A write needs a token",
  "SRV-E002": "The request origin is not allowed",
  "SRV-E003": "Too many concurrent searches",
  "SRV-E004": "The search cursor has expired",
  "SRV-E005": "Not found",
  "SRV-E006": "The request is malformed",
  "SRV-E007": "The Host header is not a loopback name",
  "SRV-E008":
    "The server was not started with the permission this action needs",
  "SRV-E009": "The route does not take the request's method",
  "SRV-E010": "The port to listen on is in use",
} as const;

/** One of the stable codes in {@linkcode ERROR_CODES}. */
export type ErrorCode = keyof typeof ERROR_CODES;

/**
 * A failure deja reports to people and programs, carrying a stable code.
 *
 * @example
 * ```ts
 * import { DejaError } from "./errors.ts";
 * import { equal } from "node:assert/strict";
 * const err = new DejaError("QRY-E002", 'No session starts with "ab"');
 * equal(err.code, "QRY-E002");
 * ```
 */
export class DejaError extends Error {
  /** The stable code, e.g. `IDX-E001`. */
  readonly code: ErrorCode;
  /** Extra machine-readable detail (matches, paths). */
  readonly detail: Record<string, unknown> | undefined;

  /**
   * Creates a DejaError.
   *
   * @param code The stable code.
   * @param message Sentence case, no trailing period, values quoted.
   * @param options `cause` and optional `detail`.
   */
  constructor(
    code: ErrorCode,
    message: string,
    options: { cause?: unknown; detail?: Record<string, unknown> } = {},
  ) {
    super(message, options.cause === undefined ? {} : { cause: options.cause });
    this.name = "DejaError";
    this.code = code;
    this.detail = options.detail;
  }
}

/**
 * A usage error: the CLI prints the command's help and exits 64.
 *
 * @example
 * ```ts
 * import { UsageError } from "./errors.ts";
 * import { equal } from "node:assert/strict";
 * equal(new UsageError("missing query").code, "CLI-E001");
 * ```
 */
export class UsageError extends DejaError {
  /**
   * Creates a usage error.
   *
   * @param message What was wrong with the arguments.
   */
  constructor(message: string) {
    super("CLI-E001", message);
    this.name = "UsageError";
  }
}

/**
 * The message of an unknown thrown value.
 *
 * @param err Anything thrown.
 * @returns A one-line message.
 * @example
 * ```ts
 * import { messageOf } from "./errors.ts";
 * import { equal } from "node:assert/strict";
 * equal(messageOf(new Error("boom")), "boom");
 * ```
 */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
