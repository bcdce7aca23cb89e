/**
 * Files from history: `deja files <topic>` (the files the sessions about a
 * topic opened and edited) and the most-opened files of a project, for
 * `orient`.
 *
 * @module
 */
import { relative } from "node:path";
import type { Database } from "../core/_sqlite.ts";
import { FLAG } from "../index/schema.ts";
import { readBody } from "../index/read_body.ts";
import { search } from "../search/mod.ts";
import { isExcluded, sessionRows } from "./_db.ts";

/** Tools whose `files` records mean the file was changed. */
const EDIT_TOOLS =
  /^(edit|multiedit|write|apply_patch|write_file|replace|str_replace|create_file|edit_file|patch|notebookedit)$/i;

/** One file and how the sessions used it. */
export interface FileUse {
  /** The path as recorded (absolute when the harness gave one). */
  path: string;
  /** The path relative to the session's working directory, when inside it. */
  display: string;
  /** Distinct sessions that opened or edited it. */
  sessions: number;
  /** Sessions that changed it. */
  edits: number;
  /** Last touch, epoch ms. */
  last?: number;
  /** Relevance (topic score summed over sessions). */
  score: number;
}

/** Options shared by {@linkcode filesForTopic} and {@linkcode projectFiles}. */
export interface FilesOptions {
  /** Only this project. */
  project?: string;
  /** Session ids to leave out. */
  exclude?: ReadonlySet<string>;
  /** Files to return (default 10). */
  limit?: number;
  /** The clock, epoch ms. */
  now: number;
}

interface FileRow {
  session: number;
  text: Uint8Array | string;
  tool: string | null;
  time: number | null;
  role: string;
  flags: number;
}

async function pathsOf(
  db: Database,
  session: number,
): Promise<Array<{ path: string; edited: boolean; time: number | null }>> {
  const rows = db.prepare(
    "SELECT session, body AS text, tool, time, role, flags FROM records WHERE session = ? AND role IN ('files', 'edit') ORDER BY seq",
  ).all(session) as unknown as FileRow[];
  const out: Array<{ path: string; edited: boolean; time: number | null }> = [];
  for (const row of rows) {
    const text = await decodeText(row);
    const lines = row.role === "edit"
      ? [text.split("\n", 1)[0] ?? ""]
      : text.split("\n");
    for (const line of lines) {
      const path = line.trim();
      if (!path || path.length > 400 || /\s{2,}/.test(path)) continue;
      out.push({
        path,
        edited: row.role === "edit" || EDIT_TOOLS.test(row.tool ?? ""),
        time: row.time,
      });
    }
  }
  return out;
}

function decodeText(row: FileRow): Promise<string> {
  if (typeof row.text === "string") return Promise.resolve(row.text);
  return readBody(row.text, (row.flags & FLAG.compressed) !== 0);
}

function display(path: string, cwd: string | null): string {
  if (cwd && path.startsWith(cwd.endsWith("/") ? cwd : `${cwd}/`)) {
    return relative(cwd, path);
  }
  return path;
}

/** A file only read counts this share of one edited. */
const READ_WEIGHT = 0.6;
/** Files inside dependencies and build output count this share. */
const DEPENDENCY_WEIGHT = 0.3;
const DEPENDENCY_DIR =
  /(?:^|[\\/])(?:node_modules|vendor|\.git|dist|build|target|site-packages|__pycache__|\.venv|venv)[\\/]/;

async function tally(
  db: Database,
  sessions: Array<{ rowid: number; score: number; cwd: string | null }>,
  limit: number,
): Promise<FileUse[]> {
  const uses = new Map<
    string,
    FileUse & { seen: Set<number>; edited: Set<number> }
  >();
  for (const s of sessions) {
    // Per file, what this session gave it: an edit counts for more than a
    // read.
    const given = new Map<string, number>();
    for (const p of await pathsOf(db, s.rowid)) {
      const key = fileKey(p.path);
      let u = uses.get(key);
      if (!u) {
        u = {
          path: p.path,
          display: display(p.path, s.cwd),
          sessions: 0,
          edits: 0,
          score: 0,
          seen: new Set(),
          edited: new Set(),
        };
        uses.set(key, u);
      }
      u.seen.add(s.rowid);
      const weight = s.score * (p.edited ? 1 : READ_WEIGHT) *
        (DEPENDENCY_DIR.test(p.path) ? DEPENDENCY_WEIGHT : 1);
      const before = given.get(key) ?? 0;
      if (weight > before) {
        u.score += weight - before;
        given.set(key, weight);
      }
      if (p.edited) u.edited.add(s.rowid);
      if (p.time !== null && (u.last === undefined || p.time > u.last)) {
        u.last = p.time;
      }
    }
  }
  return [...uses.values()].map(({ seen, edited, ...u }) => ({
    ...u,
    sessions: seen.size,
    edits: edited.size,
  }))
    .sort((a, b) =>
      b.score - a.score || b.sessions - a.sessions || b.edits - a.edits ||
      (b.last ?? 0) - (a.last ?? 0)
    )
    .slice(0, limit);
}

/**
 * One file however its path was spelled: a Windows drive letter in either
 * case, either slash (`C:\\a\\b` and `c:/a/b` are one file).
 */
function fileKey(path: string): string {
  return /^[A-Za-z]:[\\/]/.test(path)
    ? path.replaceAll("\\", "/").toLowerCase()
    : path;
}

/**
 * The files the sessions about a topic opened and edited.
 *
 * @param db The index.
 * @param topic Words, as for search.
 * @param options Project, exclusions, limit, clock.
 * @returns Files, most relevant first.
 */
export async function filesForTopic(
  db: Database,
  topic: string,
  options: FilesOptions,
): Promise<FileUse[]> {
  const found = await search(db, topic, {
    now: options.now,
    limit: 30,
    ...(options.project ? { project: options.project } : {}),
  });
  const sessions: Array<{ rowid: number; score: number; cwd: string | null }> =
    [];
  for (const hit of found.results) {
    const row = db.prepare(
      "SELECT rowid, cwd, parent, id FROM sessions WHERE harness = ? AND id = ? AND path = ?",
    )
      .get(hit.session.harness, hit.session.id, hit.session.path) as
        | {
          rowid: number;
          cwd: string | null;
          parent: string | null;
          id: string;
        }
        | undefined;
    if (!row) continue;
    if (
      options.exclude?.has(row.id) ||
      (row.parent && options.exclude?.has(row.parent))
    ) continue;
    sessions.push({
      rowid: row.rowid,
      score: Math.max(hit.score, 0.01),
      cwd: row.cwd,
    });
  }
  return tally(db, sessions, options.limit ?? 10);
}

/**
 * A project's most-opened files over its recent sessions.
 *
 * @param db The index.
 * @param project The project name.
 * @param options Exclusions, limit, clock.
 * @returns Files, most sessions first.
 */
export function projectFiles(
  db: Database,
  project: string,
  options: FilesOptions,
): Promise<FileUse[]> {
  const ids = db.prepare(
    "SELECT rowid FROM sessions WHERE lower(project) = lower(?) AND hidden = 0 ORDER BY updated DESC LIMIT 200",
  ).all(project) as Array<{ rowid: number }>;
  const rows = sessionRows(db, ids.map((r) => r.rowid));
  const sessions = [...rows.values()].filter((r) =>
    !isExcluded(r, options.exclude)
  )
    .map((r) => ({ rowid: r.rowid, score: 1, cwd: r.cwd }));
  return tally(db, sessions, options.limit ?? 10);
}
