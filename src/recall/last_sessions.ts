/**
 * `deja last`: the most recent sessions, newest first.
 *
 * @module
 */
import type { Database } from "../core/_sqlite.ts";
import {
  type SessionInfo,
  sessionInfoOf,
  type SessionRow,
} from "../search/mod.ts";
import { isExcluded } from "./_db.ts";

/** Options for {@linkcode lastSessions}. */
export interface LastOptions {
  /** Only this project. */
  project?: string;
  /** Only these harnesses. */
  harnesses?: readonly string[];
  /** Keep sub-agent runs (default: left out). */
  subagents?: boolean;
  /** Session ids to leave out. */
  exclude?: ReadonlySet<string>;
}

/**
 * The `n` most recent sessions.
 *
 * @param db The index.
 * @param n How many.
 * @param options Project, harness and sub-agent filters, exclusions.
 * @returns Sessions, newest first.
 */
export function lastSessions(
  db: Database,
  n: number,
  options: LastOptions = {},
): SessionInfo[] {
  const clauses = ["hidden = 0"];
  const params: Array<string | number> = [];
  if (options.project) {
    clauses.push("lower(project) = lower(?)");
    params.push(options.project);
  }
  if (options.harnesses?.length) {
    clauses.push(`harness IN (${options.harnesses.map(() => "?").join(",")})`);
    params.push(...options.harnesses);
  }
  if (!options.subagents) clauses.push("COALESCE(lineage, '') != 'subagent'");
  const rows = db.prepare(
    `SELECT * FROM sessions WHERE ${
      clauses.join(" AND ")
    } ORDER BY updated DESC, id LIMIT ?`,
  ).all(
    ...params,
    // SQLite binds a number past 2^53 as a REAL, which LIMIT refuses
    // ("datatype mismatch"): `deja last 99999999999999999999` means "all".
    Math.min(
      Number.MAX_SAFE_INTEGER,
      Math.max(0, Math.floor(n)) + (options.exclude?.size ?? 0),
    ),
  ) as unknown as SessionRow[];
  return rows.filter((r) => !isExcluded(r, options.exclude)).slice(0, n).map(
    sessionInfoOf,
  );
}
