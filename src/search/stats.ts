/**
 * What the index holds, per harness: files, sessions, records, redactions
 * and the stores it could not read.
 *
 * @module
 */
import type { Database } from "../core/_sqlite.ts";

/** Per-harness counts. */
export interface HarnessStats {
  /** Harness id. */
  harness: string;
  /** Files (stores) indexed. */
  files: number;
  /** Sessions. */
  sessions: number;
  /** Records. */
  records: number;
  /** Redactions by rule. */
  redactions: Record<string, number>;
  /** Lines or entries skipped as malformed. */
  skipped: number;
  /** Stores that failed to read, with their errors. */
  errors: Array<{ path: string; message: string }>;
}

/** Index-wide figures. */
export interface IndexStats {
  /** Per harness, in id order. */
  harnesses: HarnessStats[];
  /**
   * When a pass last changed the index (ms), if one has finished: a pass
   * that found every file unchanged writes nothing, not even this.
   */
  indexedAt: number | null;
}

/**
 * Reads per-harness counts from the index.
 *
 * @param db The index.
 * @returns The stats.
 */
export function indexStats(db: Database): IndexStats {
  const by = new Map<string, HarnessStats>();
  const get = (harness: string): HarnessStats => {
    let s = by.get(harness);
    if (!s) {
      s = {
        harness,
        files: 0,
        sessions: 0,
        records: 0,
        redactions: {},
        skipped: 0,
        errors: [],
      };
      by.set(harness, s);
    }
    return s;
  };
  for (
    const row of db.prepare(
      "SELECT harness, path, skipped, redactions, error FROM files",
    ).all() as Array<
      {
        harness: string;
        path: string;
        skipped: number;
        redactions: string;
        error: string | null;
      }
    >
  ) {
    const s = get(row.harness);
    s.files++;
    s.skipped += row.skipped;
    for (
      const [rule, n] of Object.entries(
        JSON.parse(row.redactions || "{}") as Record<string, number>,
      )
    ) {
      s.redactions[rule] = (s.redactions[rule] ?? 0) + n;
    }
    if (row.error) s.errors.push({ path: row.path, message: row.error });
  }
  for (
    const row of db.prepare(
      "SELECT harness, COUNT(*) AS n, SUM(records) AS r FROM sessions WHERE hidden = 0 GROUP BY harness",
    ).all() as Array<{ harness: string; n: number; r: number }>
  ) {
    const s = get(row.harness);
    s.sessions = row.n;
    s.records = row.r ?? 0;
  }
  const at = db.prepare("SELECT value FROM meta WHERE key = 'indexed_at'")
    .get() as
      | { value: string }
      | undefined;
  return {
    harnesses: [...by.values()].sort((a, b) =>
      a.harness.localeCompare(b.harness)
    ),
    indexedAt: at ? Number(at.value) : null,
  };
}
