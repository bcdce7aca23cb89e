/**
 * Keeping the index fresh without paying for it inside a call: the hooks and
 * the MCP server answer from the index they have and, when it is missing or
 * old, start `deja index` in a detached process and return at once.
 *
 * @module
 */
import { basename, dirname, fromFileUrl, join } from "../core/paths.ts";
import { markPendingPass } from "../index/pending_pass.ts";

/** The index has not been written for this long: start a refresh. */
export const STALE_AFTER_MS = 2 * 60_000;

/** At most one refresh is started per this interval. */
export const REFRESH_EVERY_MS = 60_000;

/** What a caller can expect of the index. */
export type IndexState = "missing" | "building" | "stale" | "fresh";

function mtimeOf(path: string): number | undefined {
  try {
    return Deno.statSync(path).mtime?.getTime();
  } catch {
    return undefined;
  }
}

/**
 * Whether another process holds the index write lock (a pass is running).
 *
 * @param indexPath The index path.
 * @returns True while `deja index` runs.
 * @example
 * ```ts
 * import { indexBuilding } from "./refresh.ts";
 * import { equal } from "node:assert/strict";
 * equal(indexBuilding("/nonexistent/index.db"), false);
 * ```
 */
export function indexBuilding(indexPath: string): boolean {
  let file: Deno.FsFile | undefined;
  try {
    file = Deno.openSync(`${indexPath}.lock`, { read: true });
    const free = file.tryLockSync(false);
    if (free) file.unlockSync();
    return !free;
  } catch {
    return false;
  } finally {
    file?.close();
  }
}

/**
 * The state of the index: missing, being built, stale (not written for
 * {@linkcode STALE_AFTER_MS} and no refresh asked for since) or fresh.
 *
 * @param indexPath The index path.
 * @param now The clock, epoch ms.
 * @returns The state.
 * @example
 * ```ts
 * import { indexState } from "./refresh.ts";
 * import { equal } from "node:assert/strict";
 * equal(indexState("/nonexistent/index.db", 0), "missing");
 * ```
 */
export function indexState(indexPath: string, now: number): IndexState {
  const db = mtimeOf(indexPath);
  if (indexBuilding(indexPath)) return "building";
  if (db === undefined) return "missing";
  const last = Math.max(
    db,
    mtimeOf(`${indexPath}-wal`) ?? 0,
    mtimeOf(`${indexPath}.refresh`) ?? 0,
  );
  return now - last > STALE_AFTER_MS ? "stale" : "fresh";
}

/** Options for {@linkcode requestRefresh}. */
export interface RefreshOptions {
  /** The environment (DEJA_BIN, DEJA_NO_AUTO_INDEX, and what `index` reads). */
  env: Record<string, string | undefined>;
  /** The clock, epoch ms. */
  now: number;
  /** Starts the process; the default spawns it detached. */
  spawn?: (argv: readonly string[], env: Record<string, string>) => void;
  /** Extra arguments after `index` (default `--quiet`). */
  args?: readonly string[];
}

/**
 * Starts `deja index` in the background unless one was started in the last
 * minute, automatic indexing is off (`DEJA_NO_AUTO_INDEX=1`), or a pass is
 * already running. Never waits and never throws.
 *
 * @param indexPath The index path.
 * @param options Environment, clock and spawner.
 * @returns Whether a process was started.
 * @example
 * ```ts
 * import { requestRefresh } from "./refresh.ts";
 * import { equal } from "node:assert/strict";
 * equal(requestRefresh("/nonexistent/i.db", { env: { DEJA_NO_AUTO_INDEX: "1" }, now: 0 }), false);
 * ```
 */
export function requestRefresh(
  indexPath: string,
  options: RefreshOptions,
): boolean {
  if (options.env.DEJA_NO_AUTO_INDEX === "1") return false;
  const marker = `${indexPath}.refresh`;
  const last = mtimeOf(marker);
  if (
    last !== undefined && options.now - last < REFRESH_EVERY_MS &&
    last <= options.now
  ) return false;
  if (indexBuilding(indexPath)) return false;
  try {
    Deno.mkdirSync(dirname(indexPath), { recursive: true });
    Deno.writeTextFileSync(marker, String(options.now));
  } catch {
    return false;
  }
  return spawnSelf(["index", ...(options.args ?? ["--quiet"])], options);
}

/**
 * Starts `deja index --quiet` for a session that just ended, with no rate
 * limit: its last turns are complete only now. When a pass already holds the
 * lock nothing is started; the mark `<index>.pending` (written first) makes
 * that pass read again once it is done. Off with `DEJA_NO_AUTO_INDEX=1`.
 * Never waits and never throws.
 *
 * @param indexPath The index path.
 * @param options Environment, clock and spawner.
 * @returns Whether a process was started.
 * @example
 * ```ts
 * import { requestSessionPass } from "./refresh.ts";
 * import { equal } from "node:assert/strict";
 * equal(requestSessionPass("/nonexistent/i.db", { env: { DEJA_NO_AUTO_INDEX: "1" }, now: 0 }), false);
 * ```
 */
export function requestSessionPass(
  indexPath: string,
  options: RefreshOptions,
): boolean {
  if (options.env.DEJA_NO_AUTO_INDEX === "1") return false;
  // Marked before the lock is looked at: a pass that holds it now finds the
  // mark when it finishes, whatever the order of the two.
  if (!markPendingPass(indexPath) || indexBuilding(indexPath)) return false;
  try {
    // Counts as the minute's refresh: the other hooks need not start one.
    Deno.writeTextFileSync(`${indexPath}.refresh`, String(options.now));
  } catch {
    // The mark beside it was written: this one only spares a refresh.
  }
  return spawnSelf(["index", ...(options.args ?? ["--quiet"])], options);
}

/** Options for {@linkcode spawnSelf}. */
export interface SpawnSelfOptions {
  /** The environment passed on to the child. */
  env: Record<string, string | undefined>;
  /** Starts the process; the default spawns it detached. */
  spawn?: (argv: readonly string[], env: Record<string, string>) => void;
}

/**
 * Starts deja itself with the given arguments, detached, its output
 * discarded. Never throws.
 *
 * @param args Arguments after the program, e.g. `["index", "--quiet"]`.
 * @param options Environment and spawner.
 * @returns Whether the process was started.
 * @example
 * ```ts
 * import { spawnSelf } from "./refresh.ts";
 * import { deepEqual } from "node:assert/strict";
 * let seen: readonly string[] = [];
 * spawnSelf(["index"], { env: { DEJA_BIN: "/bin/deja" }, spawn: (argv) => void (seen = argv) });
 * deepEqual(seen, ["/bin/deja", "index"]);
 * ```
 */
export function spawnSelf(
  args: readonly string[],
  options: SpawnSelfOptions,
): boolean {
  try {
    const argv = [...selfCommand(options.env), ...args];
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(options.env)) {
      if (v !== undefined) env[k] = v;
    }
    (options.spawn ?? spawnDetached)(argv, env);
    return true;
  } catch {
    return false;
  }
}

/**
 * The V8 flags deno.json's `deja` and `compile` tasks run deja with: a small
 * young generation (the parse worker's memory), at its full size from the
 * start (a one-shot command does not collect garbage while its modules load),
 * and every function compiled when its module loads (kept by Deno's code
 * cache: a one-shot command does not compile as it goes).
 */
export const V8_FLAGS =
  "--max-semi-space-size=4,--min-semi-space-size=4,--no-lazy";

/**
 * The command line that runs this deja: `DEJA_BIN` when set, the compiled
 * binary itself, or `deno run -A --v8-flags=… --config <deno.json> <main.ts>`
 * from a checkout.
 *
 * @param env The environment.
 * @returns The argv prefix.
 * @example
 * ```ts
 * import { selfCommand } from "./refresh.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(selfCommand({ DEJA_BIN: "/usr/local/bin/deja" }), ["/usr/local/bin/deja"]);
 * ```
 */
export function selfCommand(env: Record<string, string | undefined>): string[] {
  if (env.DEJA_BIN) return [env.DEJA_BIN];
  const exe = Deno.execPath();
  if (!/^deno(\.exe)?$/i.test(basename(exe))) return [exe];
  const root = dirname(dirname(dirname(fromFileUrl(import.meta.url))));
  return [
    exe,
    "run",
    "-A",
    `--v8-flags=${V8_FLAGS}`,
    "--config",
    join(root, "deno.json"),
    join(root, "main.ts"),
  ];
}

function spawnDetached(
  argv: readonly string[],
  env: Record<string, string>,
): void {
  const [cmd, ...rest] = argv;
  if (!cmd) return;
  const child = new Deno.Command(cmd, {
    args: rest,
    env,
    clearEnv: true,
    stdin: "null",
    stdout: "null",
    stderr: "null",
    detached: true,
  }).spawn();
  child.unref();
}
