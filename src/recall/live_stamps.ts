/**
 * The live-stamp file `index.db.live`: every hook stamps the session it
 * speaks for, and the MCP surfaces leave stamped sessions out of recall for
 * 20 minutes, so an agent is never answered with its own transcript. The
 * same file keeps each session's hook cooldowns (what it was already shown).
 * It is small JSON written whole and renamed into place; a lost race costs a
 * stamp, never a corrupt file.
 *
 * @module
 */
import { dirname } from "../core/paths.ts";

/** How long a stamp keeps its session out of recall. */
export const LIVE_WINDOW_MS = 20 * 60_000;

/** How long cooldown entries are kept. */
export const COOLDOWN_KEEP_MS = 2 * 60 * 60_000;

/** One stamped session and its hook cooldowns. */
export interface LiveEntry {
  /** Last stamp, epoch ms; 0 once the session ended (cooldowns kept). */
  at: number;
  /** Harness id, when the hook knew it. */
  harness?: string;
  /** Records already quoted to this one (the prompt digest's key), with the time. */
  shown?: Record<string, number>;
  /** Asks already answered (hash of the ask), with the time. */
  asked?: Record<string, number>;
  /** Remedies already offered (hash of the error), with the time. */
  fixes?: Record<string, number>;
}

/** The whole live file. */
export interface LiveFile {
  /** Format version. */
  v: 1;
  /** Entries by session id. */
  sessions: Record<string, LiveEntry>;
}

/**
 * The live-stamp path beside an index.
 *
 * @param indexPath The index database path.
 * @returns `<index>.live`.
 * @example
 * ```ts
 * import { livePath } from "./live_stamps.ts";
 * import { equal } from "node:assert/strict";
 * equal(livePath("/c/deja/index.db"), "/c/deja/index.db.live");
 * ```
 */
export function livePath(indexPath: string): string {
  return `${indexPath}.live`;
}

/**
 * Reads the live file; a missing or damaged file reads as empty.
 *
 * @param path The live file.
 * @returns Its content.
 * @example
 * ```ts
 * import { readLiveFile } from "./live_stamps.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(readLiveFile("/nonexistent/index.db.live"), { v: 1, sessions: {} });
 * ```
 */
export function readLiveFile(path: string): LiveFile {
  try {
    const data = JSON.parse(Deno.readTextFileSync(path));
    if (
      data && typeof data === "object" && data.sessions &&
      typeof data.sessions === "object"
    ) {
      return { v: 1, sessions: data.sessions as Record<string, LiveEntry> };
    }
  } catch {
    // Missing or torn: nothing is stamped.
  }
  return { v: 1, sessions: {} };
}

/**
 * Session ids stamped within the live window.
 *
 * @param path The live file.
 * @param now The clock, epoch ms.
 * @returns The ids to leave out of recall.
 * @example
 * ```ts
 * import { liveSessionIds } from "./live_stamps.ts";
 * import { equal } from "node:assert/strict";
 * equal(liveSessionIds("/nonexistent/x.live", 0).size, 0);
 * ```
 */
export function liveSessionIds(path: string, now: number): Set<string> {
  const out = new Set<string>();
  for (const [id, entry] of Object.entries(readLiveFile(path).sessions)) {
    if (entry.at > 0 && now - entry.at < LIVE_WINDOW_MS) out.add(id);
  }
  return out;
}

/** Options for {@linkcode stampLive}. */
export interface StampOptions {
  /** Harness id of the session. */
  harness?: string;
  /** The clock, epoch ms. */
  now: number;
  /** Changes the entry before it is written (cooldowns). */
  update?: (entry: LiveEntry) => void;
  /** Do not refresh the stamp itself (session end keeps cooldowns only). */
  unstamp?: boolean;
}

/**
 * Stamps a session live (and applies `update` to its entry), pruning
 * entries nobody has touched for two hours. Never throws: a stamp that
 * cannot be written is lost, which only means recall may quote the session.
 *
 * @param path The live file.
 * @param sessionId The session the hook speaks for.
 * @param options Harness, clock and an entry update.
 * @returns Whether the file was written.
 * @example
 * ```ts
 * import { liveSessionIds, stampLive } from "./live_stamps.ts";
 * import { ok } from "node:assert/strict";
 * const dir = Deno.makeTempDirSync();
 * stampLive(`${dir}/index.db.live`, "s1", { now: 1_000 });
 * ok(liveSessionIds(`${dir}/index.db.live`, 2_000).has("s1"));
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export function stampLive(
  path: string,
  sessionId: string,
  options: StampOptions,
): boolean {
  if (!sessionId) return false;
  const file = readLiveFile(path);
  const now = options.now;
  for (const [id, entry] of Object.entries(file.sessions)) {
    if (id !== sessionId && lastTouch(entry) < now - COOLDOWN_KEEP_MS) {
      delete file.sessions[id];
    }
  }
  const entry: LiveEntry = file.sessions[sessionId] ?? { at: 0 };
  entry.at = options.unstamp ? 0 : now;
  if (options.harness) entry.harness = options.harness;
  options.update?.(entry);
  for (const key of ["shown", "asked", "fixes"] as const) {
    const map = entry[key];
    if (!map) continue;
    for (const [k, t] of Object.entries(map)) {
      if (t < now - COOLDOWN_KEEP_MS) delete map[k];
    }
  }
  file.sessions[sessionId] = entry;
  return writeLiveFile(path, file);
}

/**
 * Drops a session's live stamp (the session ended: it is history now). Its
 * cooldowns stay until they age out.
 *
 * @param path The live file.
 * @param sessionId The session.
 * @param now The clock, epoch ms.
 * @returns Whether the file was written.
 * @example
 * ```ts
 * import { dropLive, liveSessionIds, stampLive } from "./live_stamps.ts";
 * import { equal } from "node:assert/strict";
 * const dir = Deno.makeTempDirSync();
 * const path = `${dir}/index.db.live`;
 * stampLive(path, "s1", { now: 1_000 });
 * dropLive(path, "s1", 2_000);
 * equal(liveSessionIds(path, 3_000).size, 0);
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export function dropLive(
  path: string,
  sessionId: string,
  now: number,
): boolean {
  if (!readLiveFile(path).sessions[sessionId]) return false;
  return stampLive(path, sessionId, { now, unstamp: true });
}

function lastTouch(entry: LiveEntry): number {
  let t = entry.at;
  for (const map of [entry.shown, entry.asked, entry.fixes]) {
    for (const v of Object.values(map ?? {})) if (v > t) t = v;
  }
  return t;
}

function writeLiveFile(path: string, file: LiveFile): boolean {
  const tmp = `${path}.${Deno.pid}.${
    Math.random().toString(36).slice(2, 8)
  }.tmp`;
  try {
    Deno.mkdirSync(dirname(path), { recursive: true });
    Deno.writeTextFileSync(tmp, JSON.stringify(file));
    Deno.renameSync(tmp, path);
    return true;
  } catch {
    try {
      Deno.removeSync(tmp);
    } catch {
      // Nothing was written.
    }
    return false;
  }
}
