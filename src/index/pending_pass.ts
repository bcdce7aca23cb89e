/**
 * A pass asked for while another one runs. A session that ends while a pass
 * holds the index lock may have written its last turns after that pass read
 * its file; `hook-session-end` then marks `<index>.pending` instead of
 * starting a pass that would only wait for the lock, and the pass holding
 * the lock reads again once it is done ({@linkcode indexStores}).
 *
 * @module
 */
import { dirname } from "../core/paths.ts";

/**
 * The pending-pass mark beside an index.
 *
 * @param indexPath The index path.
 * @returns `<index>.pending`.
 * @example
 * ```ts
 * import { pendingPassPath } from "./pending_pass.ts";
 * import { equal } from "node:assert/strict";
 * equal(pendingPassPath("/c/deja/index.db"), "/c/deja/index.db.pending");
 * ```
 */
export function pendingPassPath(indexPath: string): string {
  return `${indexPath}.pending`;
}

/**
 * Marks that a pass is wanted from now on (the mark's mtime says when).
 * Never throws.
 *
 * @param indexPath The index path.
 * @returns Whether the mark was written.
 * @example
 * ```ts
 * import { markPendingPass, pendingPassSince } from "./pending_pass.ts";
 * import { equal } from "node:assert/strict";
 * const dir = await Deno.makeTempDir();
 * const before = Date.now() - 1000;
 * equal(markPendingPass(`${dir}/index.db`), true);
 * equal(pendingPassSince(`${dir}/index.db`, before), true);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export function markPendingPass(indexPath: string): boolean {
  try {
    Deno.mkdirSync(dirname(indexPath), { recursive: true });
    Deno.writeTextFileSync(pendingPassPath(indexPath), String(Date.now()));
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether a pass was asked for at or after `since` (wall clock, epoch ms):
 * a pass that took the lock before the mark did not cover it.
 *
 * @param indexPath The index path.
 * @param since When the pass in question took the lock.
 * @returns True when a later pass is owed.
 * @example
 * ```ts
 * import { pendingPassSince } from "./pending_pass.ts";
 * import { equal } from "node:assert/strict";
 * equal(pendingPassSince("/nonexistent/index.db", 0), false);
 * ```
 */
export function pendingPassSince(indexPath: string, since: number): boolean {
  try {
    const marked = Deno.statSync(pendingPassPath(indexPath)).mtime?.getTime();
    return marked !== undefined && marked >= since;
  } catch {
    return false;
  }
}
