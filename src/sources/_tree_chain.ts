/**
 * Tree-shaped logs (Pi v3 sessions, Qwen Code chats): every entry names its
 * parent, and the conversation is the chain from the last entry back to the
 * root. Entries left on other branches are superseded, not deleted.
 *
 * @module
 */

/** One entry of a tree log, in file order. */
export interface TreeNode {
  /** The entry's id. */
  id: string;
  /** The parent's id; undefined for a root. */
  parent: string | undefined;
  /** Position in the file (any increasing number). */
  index: number;
}

/**
 * The positions of entries that are off the active chain. The active chain
 * ends at the last entry and follows parents back; an entry is off it when it
 * is not on the chain and comes after the chain's earliest entry. Entries
 * before that point are history the chain lost track of (a parent that is
 * missing from the file), so they stay active.
 *
 * @param nodes The entries in file order (ids unique).
 * @returns The `index` of every superseded entry.
 * @example
 * ```ts
 * import { offChain } from "./_tree_chain.ts";
 * import { deepEqual } from "node:assert/strict";
 * const off = offChain([
 *   { id: "a", parent: undefined, index: 0 },
 *   { id: "b", parent: "a", index: 1 },
 *   { id: "c", parent: "a", index: 2 },
 * ]);
 * deepEqual([...off], [1]);
 * ```
 */
export function offChain(nodes: readonly TreeNode[]): Set<number> {
  const byId = new Map<string, TreeNode>();
  for (const n of nodes) byId.set(n.id, n);
  const chain = new Set<string>();
  let earliest = Infinity;
  let cur = nodes.at(-1);
  while (cur && !chain.has(cur.id)) {
    chain.add(cur.id);
    earliest = Math.min(earliest, cur.index);
    cur = cur.parent === undefined ? undefined : byId.get(cur.parent);
  }
  const off = new Set<number>();
  for (const n of nodes) {
    if (n.index > earliest && !chain.has(n.id)) off.add(n.index);
  }
  return off;
}

/**
 * Turns per-record "superseded" decisions, made in emission order, into
 * `[from, to)` seq ranges: call {@linkcode MarkRuns.at} before each entry's
 * records are added and {@linkcode MarkRuns.end} after the last.
 */
export class MarkRuns {
  #from: number | undefined;
  readonly #mark: (from: number, to: number) => void;

  /** @param mark Receives each finished range. */
  constructor(mark: (from: number, to: number) => void) {
    this.#mark = mark;
  }

  /**
   * Notes that the next records (from `seq`) are superseded or not.
   *
   * @param seq The seq the entry's first record will get.
   * @param superseded Whether the entry is superseded.
   */
  at(seq: number, superseded: boolean): void {
    if (superseded && this.#from === undefined) this.#from = seq;
    else if (!superseded && this.#from !== undefined) {
      this.#mark(this.#from, seq);
      this.#from = undefined;
    }
  }

  /**
   * Closes an open range at `seq`.
   *
   * @param seq The seq after the last record.
   */
  end(seq: number): void {
    if (this.#from !== undefined) this.#mark(this.#from, seq);
    this.#from = undefined;
  }
}
