/**
 * `orient`: what an agent new to a project would otherwise find by reading —
 * the commands its sessions keep running (and that work) and the files they
 * keep opening.
 *
 * @module
 */
import type { Database } from "../core/_sqlite.ts";
import {
  commandFailed,
  isExcluded,
  isShellCommand,
  normalizeCommand,
  readsOnly,
  recordAt,
  sessionRows,
} from "./_db.ts";
import { type FileUse, projectFiles } from "./files.ts";
import { isIrreversible } from "./irreversible.ts";

/** A recurring command of a project. */
export interface RecurringCommand {
  /** The command as agents ran it. */
  command: string;
  /** Distinct sessions that ran it. */
  sessions: number;
  /** Runs that succeeded. */
  ok: number;
  /** Runs in all. */
  runs: number;
  /** Last run, epoch ms. */
  last?: number;
}

/** What {@linkcode orient} found. */
export interface Orientation {
  /** The project. */
  project: string;
  /** Sessions looked at. */
  sessions: number;
  /** Recurring commands, most sessions first. */
  commands: RecurringCommand[];
  /** Most-opened files. */
  files: FileUse[];
}

/** Options for {@linkcode orient}. */
export interface OrientOptions {
  /** Session ids to leave out. */
  exclude?: ReadonlySet<string>;
  /** Commands and files to return (default 8 each). */
  limit?: number;
  /** The clock, epoch ms. */
  now: number;
}

/**
 * The project's recurring commands and most-opened files.
 *
 * @param db The index.
 * @param project The project name.
 * @param options Exclusions, limit, clock.
 * @returns The orientation.
 */
export async function orient(
  db: Database,
  project: string,
  options: OrientOptions,
): Promise<Orientation> {
  const limit = options.limit ?? 8;
  const ids = db.prepare(
    "SELECT rowid FROM sessions WHERE lower(project) = lower(?) AND hidden = 0 ORDER BY updated DESC LIMIT 200",
  ).all(project) as Array<{ rowid: number }>;
  const rows = sessionRows(db, ids.map((r) => r.rowid));
  const kept = [...rows.values()].filter((r) =>
    !isExcluded(r, options.exclude)
  );
  const groups = new Map<string, RecurringCommand & { seen: Set<number> }>();
  for (const row of kept) {
    const cmds = db.prepare(
      "SELECT rowid FROM records WHERE session = ? AND role = 'command' ORDER BY seq",
    )
      .all(row.rowid) as Array<{ rowid: number }>;
    for (const { rowid } of cmds) {
      const rec = await recordAt(db, rowid);
      if (!rec) continue;
      const command = normalizeCommand(rec.text);
      if (
        !command || command.length > 200 || readsOnly(command) ||
        !isShellCommand(rec.tool, command) || isIrreversible(command)
      ) {
        continue;
      }
      const g = groups.get(command) ??
        { command, sessions: 0, ok: 0, runs: 0, seen: new Set<number>() };
      g.runs++;
      if (!commandFailed(db, { session: row.rowid, command: rec })) g.ok++;
      g.seen.add(row.rowid);
      const t = rec.time ?? row.updated;
      if (
        t !== null && t !== undefined && (g.last === undefined || t > g.last)
      ) g.last = t;
      groups.set(command, g);
    }
  }
  const commands = [...groups.values()].map(({ seen, ...g }) => ({
    ...g,
    sessions: seen.size,
  }))
    .filter((g) => g.ok > 0)
    .sort((a, b) =>
      b.sessions - a.sessions || b.ok - a.ok || (b.last ?? 0) - (a.last ?? 0)
    )
    .slice(0, limit);
  const files = await projectFiles(db, project, { ...options, limit });
  return { project, sessions: kept.length, commands, files };
}
