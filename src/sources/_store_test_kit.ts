/**
 * Helpers shared by the SQLite-store harness tests (opencode, Cursor, Goose,
 * Zed, Crush): discover-and-parse a fixture HOME, count roles, copy a real
 * sample into a temp dir so no reader ever touches the shared folder, and
 * write small SQLite fixtures (used by tests/fixtures_gen too). What every
 * parser test shares is in `_test_kit.ts`.
 *
 * @module
 */
import { basename, dirname, join } from "node:path";
import { openDatabase } from "../core/_sqlite.ts";
import type { Harness, ParseResult, SourceEnv } from "../core/harness.ts";
import type { Role, Session } from "../core/types.ts";

/** A Linux source env rooted at `home`. */
export function linuxHome(
  home: string,
  env: Record<string, string> = {},
): SourceEnv {
  return { home, env, os: "linux" };
}

/** Discovers and parses every file of a harness under a HOME. */
export async function parseHome(
  harness: Harness,
  source: SourceEnv,
  includeSubagents = true,
): Promise<{ files: string[]; sessions: Session[]; skipped: number }> {
  const files: string[] = [];
  const sessions: Session[] = [];
  let skipped = 0;
  for (const path of await harness.discover(source)) {
    files.push(path);
    const kind = harness.kinds.find((k) => k.match(path));
    if (!kind) throw new Error(`no kind matches ${path}`);
    const result: ParseResult = await kind.parse(path, {
      includeSubagents,
      source,
    });
    sessions.push(...result.sessions);
    skipped += result.skipped;
  }
  return { files, sessions, skipped };
}

/** Record counts per role. */
export function roleCounts(session: Session): Partial<Record<Role, number>> {
  const counts: Partial<Record<Role, number>> = {};
  for (const r of session.records) counts[r.role] = (counts[r.role] ?? 0) + 1;
  return counts;
}

/** Sum of one role's records over sessions. */
export function total(sessions: readonly Session[], role: Role): number {
  return sessions.reduce(
    (n, s) => n + s.records.filter((r) => r.role === role).length,
    0,
  );
}

/**
 * Copies files into a fresh temp dir (keeping the given relative layout) and
 * returns the new root, so SQLite readers never write `-shm` files into the
 * shared sample folder.
 */
export async function copyTree(
  from: string,
  relPaths: readonly string[],
): Promise<string> {
  const root = await Deno.makeTempDir();
  for (const rel of relPaths) {
    const target = join(root, rel);
    await Deno.mkdir(join(target, ".."), { recursive: true });
    await Deno.copyFile(join(from, rel), target);
    await Deno.chmod(target, 0o644);
  }
  return root;
}

/** Copies one file into a temp dir and returns the copy's path. */
export async function copyFile(path: string): Promise<string> {
  const root = await Deno.makeTempDir();
  const target = join(root, basename(path));
  await Deno.copyFile(path, target);
  await Deno.chmod(target, 0o644);
  return target;
}

/** One table's rows, as column → value objects. */
export interface FixtureTable {
  /** Table name. */
  table: string;
  /** Rows to insert. */
  rows: Array<Record<string, string | number | null | Uint8Array>>;
}

/**
 * Creates (or replaces) a SQLite file holding `schema` and `tables`.
 *
 * @param path Where to write it.
 * @param schema DDL statements.
 * @param tables Rows per table, inserted in order.
 */
export async function writeFixtureDb(
  path: string,
  schema: string,
  tables: readonly FixtureTable[],
): Promise<void> {
  await Deno.mkdir(dirname(path), { recursive: true });
  for (const suffix of ["", "-wal", "-shm", "-journal"]) {
    await Deno.remove(path + suffix).catch(() => {});
  }
  const db = openDatabase(path);
  try {
    db.exec(schema);
    for (const { table, rows } of tables) {
      for (const row of rows) {
        const columns = Object.keys(row);
        const sql = `INSERT INTO "${table}" (${
          columns.map((c) => `"${c}"`).join(", ")
        }) VALUES (${columns.map(() => "?").join(", ")})`;
        db.prepare(sql).run(...columns.map((c) => row[c] ?? null));
      }
    }
    db.exec("PRAGMA journal_mode = DELETE");
    db.exec("VACUUM");
  } finally {
    db.close();
  }
}
