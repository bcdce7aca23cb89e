/**
 * Facts about the indexed corpus that do not depend on the query — hidden
 * sessions, session lengths and times, scoped totals — kept per open
 * connection until the index changes (`PRAGMA data_version` moves when
 * another connection commits). A long-lived reader (the MCP server, the
 * console, a bench) then stops re-reading them on every search; a one-shot
 * `deja search` reads only what its own query needs, as before.
 *
 * @module
 */
import type { Database } from "../core/_sqlite.ts";
import { PROJECTS_SQL } from "../index/schema.ts";
import {
  prepared,
  untilIndexChanges,
  type VersionedCache,
} from "./_statements.ts";

/** Length and times of one session: records, started, updated. */
export type SessionFacts = readonly [number, number | null, number | null];

/**
 * Who a session is as a page shows it: its harness and id (a session a
 * harness wrote to two files is one), and for a sub-agent the harness and
 * id of the parent it names (null for any other session).
 */
export type SessionIdentity = readonly [key: string, parent: string | null];

interface Cache {
  hidden?: Set<number>;
  projects?: string[];
  facts: Map<number, SessionFacts>;
  identities: Map<number, SessionIdentity>;
  totals: Map<string, { n: number; mean: number | null }>;
}

const byDb: VersionedCache<Cache> = new WeakMap();

function cacheOf(db: Database): Cache {
  return untilIndexChanges(
    byDb,
    db,
    () => ({ facts: new Map(), identities: new Map(), totals: new Map() }),
  );
}

/**
 * The rowids of sessions hidden from search.
 *
 * @param db The index.
 * @returns The set (shared: do not change it).
 */
export function hiddenSessions(db: Database): ReadonlySet<number> {
  const cache = cacheOf(db);
  cache.hidden ??= new Set(
    (prepared(db, "SELECT rowid FROM sessions WHERE hidden = 1").all() as Array<
      { rowid: number }
    >).map((r) => r.rowid),
  );
  return cache.hidden;
}

/**
 * The projects of the sessions search shows, one spelling each (compared
 * without case).
 *
 * @param db The index.
 * @returns The names (shared: do not change them).
 */
export function projectNames(db: Database): readonly string[] {
  const cache = cacheOf(db);
  cache.projects ??= (prepared(db, PROJECTS_SQL).all() as Array<
    { project: string }
  >).map((r) => r.project);
  return cache.projects;
}

/**
 * Records, started and updated of the given sessions; a session the index
 * does not hold is absent. Reads only the sessions not already known.
 *
 * @param db The index.
 * @param rowids Session rowids.
 * @returns Facts per session rowid.
 */
export function sessionFacts(
  db: Database,
  rowids: readonly number[],
): Map<number, SessionFacts> {
  const cache = cacheOf(db);
  const missing = rowids.filter((s) => !cache.facts.has(s));
  if (missing.length) {
    // One JSON array per query: a row object per session costs more than
    // the rest of ranking.
    const rows = JSON.parse(
      (prepared(
        db,
        `SELECT json_group_array(json_array(s.rowid, s.records, s.started, s.updated)) AS j
         FROM json_each(?) AS w JOIN sessions s ON s.rowid = w.value`,
      ).get(JSON.stringify(missing)) as { j: string }).j,
    ) as Array<[number, number, number | null, number | null]>;
    for (const [rowid, records, started, updated] of rows) {
      cache.facts.set(rowid, [records, started, updated]);
    }
  }
  const out = new Map<number, SessionFacts>();
  for (const s of rowids) {
    const f = cache.facts.get(s);
    if (f) out.set(s, f);
  }
  return out;
}

/**
 * The identities of the given sessions ({@linkcode SessionIdentity}); a
 * session the index does not hold is absent. Reads only the sessions not
 * already known.
 *
 * @param db The index.
 * @param rowids Session rowids.
 * @returns Identity per session rowid.
 */
export function sessionIdentities(
  db: Database,
  rowids: Iterable<number>,
): Map<number, SessionIdentity> {
  const cache = cacheOf(db);
  const wanted = [...rowids];
  const missing = wanted.filter((s) => !cache.identities.has(s));
  if (missing.length) {
    const rows = JSON.parse(
      (prepared(
        db,
        `SELECT json_group_array(json_array(s.rowid, s.harness || char(10) || s.id,
           CASE WHEN s.lineage = 'subagent' AND s.parent IS NOT NULL
             THEN s.harness || char(10) || s.parent END)) AS j
         FROM json_each(?) AS w JOIN sessions s ON s.rowid = w.value`,
      ).get(JSON.stringify(missing)) as { j: string }).j,
    ) as Array<[number, string, string | null]>;
    for (const [rowid, key, parent] of rows) {
      cache.identities.set(rowid, [key, parent]);
    }
  }
  const out = new Map<number, SessionIdentity>();
  for (const s of wanted) {
    const found = cache.identities.get(s);
    if (found) out.set(s, found);
  }
  return out;
}

/**
 * How many sessions a scope holds and their mean length in records.
 *
 * @param db The index.
 * @param where SQL over `sessions s` (from `sessionFilterSql`).
 * @param params Its parameters.
 * @returns The count and mean (null when there are none).
 */
export function scopeTotals(
  db: Database,
  where: string,
  params: readonly (string | number)[],
): { n: number; mean: number | null } {
  const cache = cacheOf(db);
  const key = JSON.stringify([where, params]);
  let totals = cache.totals.get(key);
  if (!totals) {
    totals = prepared(
      db,
      `SELECT count(*) AS n, avg(records) AS mean FROM sessions s WHERE ${where}`,
    ).get(...params) as { n: number; mean: number | null };
    cache.totals.set(key, { n: totals.n, mean: totals.mean });
  }
  return totals;
}
