/**
 * Opens the memory file: the primary store of grains, notes, captured
 * events, recommendations, audit chains and loop config.
 *
 * @module
 */
import { dirname } from "../core/paths.ts";
import {
  assertWritable,
  type Database,
  openDatabase,
} from "../core/_sqlite.ts";
import { DejaError, messageOf } from "../core/errors.ts";
import { Store } from "./_store.ts";
import { ensureSchema, SCHEMA_VERSION, schemaVersion } from "./_schema.ts";
import type { MemoryStore } from "./memory_store.ts";

/** Options for {@linkcode openMemory}. */
export interface OpenMemoryOptions {
  /** Open without write access; the file must exist and be current. */
  readOnly?: boolean;
  /** The clock, epoch ms (tests and reproducible runs). */
  now?: () => number;
  /** Milliseconds to wait for another writer before MEM-E004 (default 5000). */
  busyTimeoutMs?: number;
  /** Schema target version and SQL migrations by version (tests only). */
  schema?: { version?: number; migrations?: Readonly<Record<number, string>> };
}

/**
 * Opens (creating when needed) a memory file. A file written by a newer deja
 * is refused with MEM-E002; an older one is backed up, then migrated.
 *
 * @param path The file path (see `memoryPath()` in src/core/paths.ts).
 * @param options Read-only, clock, busy timeout.
 * @returns The store; close it when done.
 * @throws {DejaError} MEM-E001 when the file cannot be opened, MEM-E002 when it is newer.
 * @example
 * ```ts
 * import { openMemory } from "./open_memory.ts";
 * import { equal } from "node:assert/strict";
 * const store = openMemory(":memory:", { now: () => 1_000 });
 * const h = store.put({ type: "fact", namespace: "demo", created_at: 1_000, actor: "human:me", subject: "acme", relation: "tier", object: "gold" });
 * equal(store.put({ type: "fact", namespace: "demo", created_at: 1_000, actor: "human:me", subject: "acme", relation: "tier", object: "gold" }), h);
 * equal(store.counts().fact, 1);
 * store.close();
 * ```
 */
export function openMemory(
  path: string,
  options: OpenMemoryOptions = {},
): MemoryStore {
  const readOnly = options.readOnly ?? false;
  if (!readOnly && path !== ":memory:") {
    try {
      Deno.mkdirSync(dirname(path), { recursive: true });
    } catch (err) {
      throw new DejaError(
        "MEM-E001",
        `Cannot open memory file "${path}": ${messageOf(err)}`,
        { cause: err },
      );
    }
    assertWritable(path, "MEM-E001", "memory file", "name another with --db");
  }
  if (readOnly) {
    try {
      Deno.statSync(path);
    } catch (err) {
      throw new DejaError(
        "MEM-E001",
        `Cannot open memory file "${path}": ${messageOf(err)}`,
        { cause: err },
      );
    }
  }
  let db;
  try {
    db = openDatabase(path, {
      readOnly,
      busyTimeoutMs: options.busyTimeoutMs ?? 5000,
    });
  } catch (err) {
    throw new DejaError(
      "MEM-E001",
      `Cannot open memory file "${path}": ${messageOf(err)}`,
      { cause: err },
    );
  }
  try {
    // Memory tables written into another database would mix with its data;
    // in the index (a cache deja deletes and rebuilds) they would go with it.
    const other = schemaVersion(db) === 0 ? otherDatabase(db) : undefined;
    if (other) {
      throw new DejaError(
        "MEM-E001",
        `Cannot open memory file "${path}": it is ${other}; give --db (or DEJA_DB) a file of its own`,
      );
    }
    if (readOnly) {
      const found = schemaVersion(db);
      const supported = options.schema?.version ?? SCHEMA_VERSION;
      if (found > supported) {
        throw new DejaError(
          "MEM-E002",
          `Cannot open memory file "${path}": it has schema version ${found} and this deja reads up to ${supported}; upgrade deja`,
        );
      }
      if (found < supported) {
        throw new DejaError(
          "MEM-E001",
          `Cannot open memory file "${path}" read-only: it has schema version ${found} and needs a migration; open it writable once`,
        );
      }
    } else {
      ensureSchema(db, path, {
        ...options.schema,
        ...(options.now ? { now: options.now } : {}),
      });
    }
  } catch (err) {
    db.close();
    if (err instanceof DejaError) throw err;
    throw new DejaError(
      "MEM-E001",
      `Cannot open memory file "${path}": ${messageOf(err)}`,
      { cause: err },
    );
  }
  return new Store(db, path, readOnly, options.now ?? (() => Date.now()));
}

/**
 * What an unstamped database holds when it is no memory file: deja's
 * transcript index (its `meta` names a format) or another program's tables;
 * undefined for an empty file or one with grains (an unstamped memory file).
 */
function otherDatabase(db: Database): string | undefined {
  const tables = (db.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%'",
  ).all() as Array<{ name: string }>).map((r) => r.name);
  if (tables.length === 0 || tables.includes("grains")) return undefined;
  const index = tables.includes("meta") &&
    db.prepare("SELECT 1 FROM meta WHERE key = 'format'").get() !== undefined;
  return index
    ? "deja's transcript index"
    : `another database (it holds tables ${tables.slice(0, 5).join(", ")})`;
}
