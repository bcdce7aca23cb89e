/**
 * Flags the memory-file commands share: where the file is, who acts, with
 * which scopes, and for what reason.
 *
 * @module
 */
import { dirname, isAbsolute, resolve } from "node:path";
import { DejaError, messageOf, UsageError } from "../src/core/errors.ts";
import type { Io } from "../src/core/io.ts";
import { memoryPath } from "../src/core/paths.ts";
import { exists } from "../src/core/_sqlite.ts";
import {
  ALL_SCOPES,
  type MemoryStore,
  openMemory,
  type Scope,
} from "../src/memory/mod.ts";
import { type ParsedArgs, stringFlag } from "./_command.ts";

/** Actor recorded when `--actor` is absent: the local root of trust. */
export const DEFAULT_ACTOR = "user:local";

/** The `--db` option, shared by every memory command. */
export const DB_OPTION = { db: { type: "string" } } as const;

/**
 * The memory file path: `--db`, else `$DEJA_DB`, else the XDG default,
 * resolved against the working directory. A `--db` in a folder that does
 * not exist is a usage error (a mistyped path would otherwise start a new,
 * empty memory file there); the default's folder is made when needed.
 *
 * @param args Parsed arguments.
 * @param io The io.
 * @returns An absolute path.
 * @throws {UsageError} When `--db` is empty or names a file in a missing
 * folder.
 */
export function memoryDbPath(args: ParsedArgs, io: Io): string {
  const flag = stringFlag(args, "db");
  // `--db "$DB"` with DB unset would otherwise name the working directory.
  if (flag !== undefined && !flag.trim()) {
    throw new UsageError("--db needs a file path, got an empty value");
  }
  const p = flag ?? memoryPath(io.env);
  const path = isAbsolute(p) ? p : resolve(io.cwd, p);
  if (flag !== undefined && path !== resolve(memoryPath(io.env))) {
    const folder = dirname(path);
    const kind = kindOf(folder);
    if (kind !== "folder") {
      throw new UsageError(
        `--db "${flag}": ${
          kind === "other"
            ? `"${folder}" is a file, not a folder`
            : `the folder "${folder}" does not exist`
        }`,
      );
    }
  }
  return path;
}

function kindOf(path: string): "folder" | "other" | "missing" {
  try {
    return Deno.statSync(path).isDirectory ? "folder" : "other";
  } catch {
    return "missing";
  }
}

/**
 * Opens the memory file named by the flags.
 *
 * @param args Parsed arguments.
 * @param io The io (its clock becomes the store's).
 * @returns The writable store.
 */
export function openStore(args: ParsedArgs, io: Io): MemoryStore {
  return openMemory(memoryDbPath(args, io), { now: io.now });
}

/**
 * Opens the memory file for a command that only reads: read-only when it
 * is there and current (so a file this process may not write still reads),
 * else as {@linkcode openStore} does (migrating it). A file that is not
 * there is not made: reading one creates nothing.
 *
 * @param args Parsed arguments.
 * @param io The io (its clock becomes the store's).
 * @returns The store, or undefined when there is no memory file yet.
 */
export function openStoreToRead(
  args: ParsedArgs,
  io: Io,
): MemoryStore | undefined {
  const path = memoryDbPath(args, io);
  if (!exists(path)) return undefined;
  try {
    return openMemory(path, { readOnly: true, now: io.now });
  } catch (err) {
    if (!(err instanceof DejaError) || err.code !== "MEM-E001") throw err;
    // Falling back to a writable open would blame the write of a file that
    // cannot even be read.
    try {
      Deno.openSync(path, { read: true }).close();
    } catch (cause) {
      throw new DejaError(
        "MEM-E001",
        `Cannot read memory file "${path}" (${
          messageOf(cause)
        }): make it readable, or name another with --db`,
        { cause },
      );
    }
    return openStore(args, io);
  }
}

/**
 * The acting label. `policy:` labels are reserved for host auto-apply, so
 * no command line can claim them.
 *
 * @param args Parsed arguments.
 * @returns The actor.
 */
export function actorFlag(args: ParsedArgs): string {
  const actor = (stringFlag(args, "actor") ?? DEFAULT_ACTOR).trim();
  if (!actor) throw new UsageError("--actor needs a label, e.g. human:alice");
  if (actor.toLowerCase().startsWith("policy:")) {
    throw new UsageError(
      `--actor "${actor}" is reserved for host policy auto-apply`,
    );
  }
  return actor;
}

/**
 * `--scopes read,review,...`: the caller's live scopes. Absent means every
 * scope (whoever runs deja against the file is its local root of trust).
 *
 * @param args Parsed arguments.
 * @returns The scopes.
 */
export function scopesFlag(args: ParsedArgs): Scope[] {
  const raw = stringFlag(args, "scopes");
  if (raw === undefined) return [...ALL_SCOPES];
  const scopes = raw.split(",").map((s) => s.trim()).filter(Boolean);
  for (const s of scopes) {
    if (!(ALL_SCOPES as readonly string[]).includes(s)) {
      throw new UsageError(
        `Unknown scope "${s}": use ${ALL_SCOPES.join(", ")}`,
      );
    }
  }
  return scopes as Scope[];
}

/**
 * Parses a value given on the command line as JSON, keeping it as text
 * when it is not JSON.
 *
 * @param text The flag value.
 * @returns The parsed value or the text.
 */
export function jsonOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Whether output should be JSON (`--json` or `--format json`).
 *
 * @param args Parsed arguments.
 * @returns True for JSON.
 */
export function wantsJson(args: ParsedArgs): boolean {
  const format = stringFlag(args, "format");
  if (format !== undefined && format !== "json" && format !== "text") {
    throw new UsageError(`--format must be text or json, got "${format}"`);
  }
  return args.values.json === true || format === "json";
}

/** `--json` and `--format`, for commands that print JSON on request. */
export const JSON_OPTIONS = {
  json: { type: "boolean" },
  format: { type: "string" },
} as const;
