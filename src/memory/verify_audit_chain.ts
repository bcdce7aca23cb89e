/**
 * Tamper evidence for the recommendation lifecycle: re-hashes every audit
 * grain of a recommendation and checks that the chain links, the transition
 * sequence and the stored status all agree.
 *
 * @module
 */
import { sha256Hex } from "../core/hash.ts";
import type { MemoryReader } from "./memory_store.ts";
import { isDestructive } from "./recommendation_rules.ts";
import { columnOffBody } from "./_grain_columns.ts";
import type { AuditGrain, Grain, RecommendationGrain } from "./types.ts";

/** The verdict of {@linkcode verifyAuditChain}. */
export interface AuditVerdict {
  /** True when every check passed. */
  chain_verified: boolean;
  /** Hash of the first grain that failed (the recommendation or an audit grain). */
  broken_at?: string;
  /** What failed, in words. */
  reason?: string;
  /** Audit grains on the chain. */
  length: number;
}

const LEGAL: Record<string, string[]> = {
  none: ["pending"],
  pending: ["approved", "rejected", "applied"],
  approved: ["applied"],
  applied: ["rolled_back"],
};

/**
 * What the status row claims that the hashed recommendation contradicts:
 * its creator, and the destructive and rollbackable flags its proposal
 * implies (a cleared flag would skip --allow-destructive and admin).
 */
function rowAgainstGrain(
  grain: RecommendationGrain,
  row: { creator: string; destructive: boolean; rollbackable: boolean },
): string | undefined {
  // Stores written before creators were kept NFC hold them as given.
  if (row.creator.normalize("NFC") !== grain.actor) {
    return "the stored creator does not match the recommendation";
  }
  const destructive = isDestructive(grain.proposal);
  if (row.destructive !== destructive) {
    return `the stored destructive flag does not match the proposal (it ${
      destructive ? "forgets" : "forgets no"
    } grains)`;
  }
  if (row.rollbackable && (destructive || grain.proposal.kind === "host")) {
    return "the stored rollbackable flag does not match the proposal";
  }
  return undefined;
}

/**
 * Verifies a recommendation's audit chain: the recommendation and every
 * audit grain re-hash to their addresses and their rows' columns (actor,
 * type, namespace, times) match their bodies, each grain names the previous
 * one, the transitions follow the lifecycle from `none → pending`, no stored
 * audit grain of the recommendation is left off the chain, and the last
 * transition and the count of transitions match the stored status and
 * version.
 *
 * @param store The memory file.
 * @param recHash Full hash of the recommendation.
 * @returns `{ chain_verified, broken_at?, reason?, length }`.
 */
export function verifyAuditChain(
  store: MemoryReader,
  recHash: string,
): AuditVerdict {
  const fail = (at: string, reason: string, length: number): AuditVerdict => ({
    chain_verified: false,
    broken_at: at,
    reason,
    length,
  });
  const recRaw = store.raw(recHash);
  if (!recRaw) return fail(recHash, "the recommendation is missing", 0);
  if (sha256Hex(recRaw.body) !== recHash) {
    return fail(
      recHash,
      "the recommendation's content does not match its hash",
      0,
    );
  }
  const recColumn = columnOffBody(recRaw, JSON.parse(recRaw.body) as Grain);
  if (recColumn) {
    return fail(
      recHash,
      `the recommendation's stored ${recColumn} column does not match its content`,
      0,
    );
  }
  const view = store.recommendation(recHash);
  if (!view) return fail(recHash, "the recommendation has no status row", 0);
  const flags = rowAgainstGrain(view.grain, view);
  if (flags) return fail(recHash, flags, 0);
  // Walk back from the head, then check oldest first.
  const chain: Array<{ hash: string; grain?: AuditGrain; problem?: string }> =
    [];
  const seen = new Set<string>();
  let cur = view.audit_head;
  if (!cur) return fail(recHash, "the recommendation has no audit head", 0);
  while (cur) {
    if (seen.has(cur)) {
      chain.unshift({ hash: cur, problem: "the chain loops" });
      break;
    }
    seen.add(cur);
    const raw = store.raw(cur);
    if (!raw) {
      chain.unshift({
        hash: cur,
        problem: "an audit grain on the chain is missing",
      });
      break;
    }
    if (sha256Hex(raw.body) !== cur) {
      chain.unshift({
        hash: cur,
        problem: "an audit grain's content does not match its hash",
      });
      break;
    }
    const grain = JSON.parse(raw.body) as AuditGrain;
    if (grain.type !== "audit" || grain.rec !== recHash) {
      chain.unshift({
        hash: cur,
        problem: "a chain link is not an audit grain of this recommendation",
      });
      break;
    }
    const column = columnOffBody(raw, grain);
    if (column) {
      chain.unshift({
        hash: cur,
        problem:
          `an audit grain's stored ${column} column does not match its content`,
      });
      break;
    }
    chain.unshift({ hash: cur, grain });
    cur = grain.prev;
  }
  let prevTo = "none";
  let prevHash: string | undefined;
  let inverseAt: { hash: string; digest: string } | undefined;
  for (const [i, link] of chain.entries()) {
    if (link.problem || !link.grain) {
      return fail(link.hash, link.problem ?? "broken link", chain.length);
    }
    const g = link.grain;
    if (g.from !== prevTo) {
      return fail(
        link.hash,
        `transition starts at "${g.from}" but the previous one ended at "${prevTo}"`,
        chain.length,
      );
    }
    if (!(LEGAL[g.from] ?? []).includes(g.to)) {
      return fail(
        link.hash,
        `"${g.from}" → "${g.to}" is not a lifecycle transition`,
        chain.length,
      );
    }
    if (g.to === "applied" && g.from === "pending" && g.observer !== "policy") {
      return fail(
        link.hash,
        "pending → applied without a policy observer",
        chain.length,
      );
    }
    const df = g.derived_from ?? [];
    if (
      df[0] !== recHash || (prevHash !== undefined && df[1] !== prevHash) ||
      g.prev !== prevHash
    ) {
      return fail(
        link.hash,
        "derived_from does not name the recommendation and the previous audit grain",
        chain.length,
      );
    }
    if (i === 0 && g.prev !== undefined) {
      return fail(
        link.hash,
        "the first audit grain names a predecessor",
        chain.length,
      );
    }
    // Chains written before the field existed leave the row's trigger
    // unvouched; a newer one names it on its first grain.
    if (
      i === 0 && g.trigger !== undefined && g.trigger !== view.trigger_actor
    ) {
      return fail(
        link.hash,
        "the stored triggering actor does not match the audit chain",
        chain.length,
      );
    }
    if (g.inverse_digest !== undefined) {
      inverseAt = { hash: link.hash, digest: g.inverse_digest };
    }
    prevTo = g.to;
    prevHash = link.hash;
  }
  const all = store.auditGrains(recHash);
  const off = all.find((a) => !seen.has(a.hash));
  if (off) {
    return fail(
      off.hash,
      "an audit grain of this recommendation is not on the chain",
      chain.length,
    );
  }
  // Chains written before the digest existed vouch for no inverse; from
  // then on rollback runs only the plan the apply's audit grain names.
  if (inverseAt && inverseAt.digest !== view.inverse_digest) {
    return fail(
      inverseAt.hash,
      "the stored inverse plan is not the one recorded when it was applied",
      chain.length,
    );
  }
  if (prevTo !== view.stored_status) {
    return fail(
      view.audit_head ?? recHash,
      `the stored status "${view.stored_status}" does not match the audit chain ("${prevTo}")`,
      chain.length,
    );
  }
  // Proposing writes version 1 with the first audit grain, and each
  // transition adds one to both.
  if (view.version !== chain.length) {
    return fail(
      view.audit_head ?? recHash,
      `the stored version ${view.version} does not match the audit chain's ${chain.length} transitions`,
      chain.length,
    );
  }
  return { chain_verified: true, length: chain.length };
}
