/**
 * Propose, review and mark-applied: the recommendation lifecycle up to
 * apply, with compare-and-set transitions and one audit grain each.
 *
 * @module
 */
import { DejaError } from "../core/errors.ts";
import { sha256Hex } from "../core/hash.ts";
import type { Store } from "./_store.ts";
import { LOOP_NAMESPACE } from "./_store.ts";
import { verifyAuditChain } from "./verify_audit_chain.ts";
import type {
  ProposeOptions,
  ProposeResult,
  RecommendationView,
  RecStatus,
  TransitionOptions,
  TransitionResult,
} from "./memory_store.ts";
import {
  COOLDOWN_BASE_MS,
  COOLDOWN_MAX_MS,
  dedupKey,
  DEFAULT_VALID_FOR_MS,
  isDestructive,
  MAX_EVIDENCE,
  observerOf,
  requireBecause,
  requireScopes,
  validateDraft,
} from "./recommendation_rules.ts";
import type {
  AuditGrain,
  RecommendationDraft,
  RecommendationGrain,
} from "./types.ts";

function norm(s: string): string {
  return s.normalize("NFC").trim().toLowerCase();
}

/** Queues a draft (see {@linkcode Store.propose}). */
export function propose(
  store: Store,
  draft: RecommendationDraft,
  options: ProposeOptions,
): ProposeResult {
  validateDraft(draft);
  const now = options.now ?? store.now();
  const key = dedupKey(draft);
  const evidence = [...new Set(draft.evidence)].slice(0, MAX_EVIDENCE);
  const grain: RecommendationGrain = {
    ...draft,
    type: "recommendation",
    namespace: LOOP_NAMESPACE,
    created_at: now,
    actor: options.actor,
    dedup_key: key,
    evidence,
    valid_to: now + (options.validFor ?? DEFAULT_VALID_FOR_MS),
  };
  if (evidence.length) grain.derived_from = evidence;
  return store.write(() => {
    const holders = store.db.prepare(
      `SELECT r.*, g.body FROM rec_status r JOIN grains g ON g.hash = r.hash
        WHERE r.dedup_key = ? ORDER BY g.id DESC`,
    ).all(key) as unknown as Parameters<Store["view"]>[0][];
    for (const row of holders) {
      const v = store.view(row, now);
      if (
        v.status === "pending" || v.status === "approved" ||
        v.status === "applied"
      ) {
        return { hash: v.hash, deduped: true };
      }
    }
    const cd = store.db.prepare(
      "SELECT until FROM cooldowns WHERE dedup_key = ?",
    ).get(key) as
      | { until: number }
      | undefined;
    if (cd && cd.until > now) {
      return { hash: holders[0]?.hash ?? "", deduped: true, cooldown: true };
    }
    const { hash, created } = store.insert(grain, now);
    if (!created) return { hash, deduped: true };
    const audit = writeAudit(store, {
      rec: hash,
      from: "none",
      to: "pending",
      actor: options.actor,
      observer: observerOf(options.actor),
      because: `proposed by ${draft.analyzer}`,
      ...(options.trigger === undefined ? {} : { trigger: options.trigger }),
      now,
    });
    store.db.prepare(
      `INSERT INTO rec_status(hash, dedup_key, status, version, creator, trigger_actor, destructive, rollbackable,
                              audit_head, updated_at)
       VALUES (?, ?, 'pending', 1, ?, ?, ?, ?, ?, ?)`,
    ).run(
      hash,
      key,
      // As the hashed recommendation holds it (its body is NFC).
      options.actor.normalize("NFC"),
      options.trigger?.normalize("NFC") ?? null,
      isDestructive(draft.proposal) ? 1 : 0,
      draft.proposal.kind === "host" || isDestructive(draft.proposal) ? 0 : 1,
      audit,
      now,
    );
    return { hash, deduped: false };
  });
}

/** Writes one audit grain chained to the previous one; returns its hash. */
export function writeAudit(
  store: Store,
  a: {
    rec: string;
    from: string;
    to: string;
    actor: string;
    observer: AuditGrain["observer"];
    because: string;
    prev?: string;
    results?: string[];
    inverseDigest?: string;
    trigger?: string;
    now: number;
  },
): string {
  const grain: AuditGrain = {
    type: "audit",
    namespace: LOOP_NAMESPACE,
    created_at: a.now,
    actor: a.actor,
    rec: a.rec,
    from: a.from,
    to: a.to,
    observer: a.observer,
    because: a.because,
    derived_from: [a.rec, ...(a.prev ? [a.prev] : []), ...(a.results ?? [])],
  };
  if (a.prev) grain.prev = a.prev;
  if (a.results?.length) grain.results = a.results;
  if (a.inverseDigest) grain.inverse_digest = a.inverseDigest;
  if (a.trigger !== undefined) grain.trigger = a.trigger;
  return store.insert(grain, a.now).hash;
}

/** What a transition's work produced. */
export interface TransitionWork {
  /** Grains written or forgotten. */
  results?: string[];
  /** Inverse plan (apply only). */
  inverse?: unknown;
  /** Override the stored rollbackable flag. */
  rollbackable?: boolean;
}

/**
 * Runs one lifecycle transition in a write transaction: loads the row,
 * checks the expected version and the allowed source statuses, runs `work`,
 * writes the audit grain and compare-and-sets the status row.
 */
export function transition(
  store: Store,
  hash: string,
  spec: {
    from: readonly RecStatus[];
    to: Exclude<RecStatus, "expired">;
    verb: string;
    options: TransitionOptions;
    because: string;
    check?: (view: RecommendationView) => void;
    work?: (view: RecommendationView, now: number) => TransitionWork;
  },
): TransitionResult {
  const { options } = spec;
  return store.write(() => {
    const now = options.now ?? store.now();
    const row = store.recRow(hash);
    if (!row) {
      throw new DejaError("MEM-E003", `No recommendation has hash "${hash}"`);
    }
    const view = store.view(row, now);
    // A status row edited outside deja must not skip review: every
    // transition starts from a verified chain.
    const verdict = verifyAuditChain(store, hash);
    if (!verdict.chain_verified) {
      throw new DejaError(
        "LOOP-E008",
        `Cannot ${spec.verb} ${
          hash.slice(0, 12)
        }: its audit chain does not verify (${
          verdict.reason ?? "broken"
        }); see deja loop audit verify`,
      );
    }
    if (
      options.expectedVersion !== undefined &&
      view.version !== options.expectedVersion
    ) {
      throw new DejaError(
        "LOOP-E001",
        `Cannot ${spec.verb} ${
          hash.slice(0, 12)
        }: it changed since version ${options.expectedVersion} (now version ${view.version}, ${view.status})`,
        {
          detail: {
            expected: options.expectedVersion,
            actual: view.version,
            status: view.status,
          },
        },
      );
    }
    if (!spec.from.includes(view.status)) {
      throw new DejaError(
        "LOOP-E004",
        `Cannot ${spec.verb} ${hash.slice(0, 12)}: it is ${
          view.status.replace("_", " ")
        }${spec.from.length ? `, not ${spec.from.join(" or ")}` : ""}`,
        { detail: { status: view.status, allowed: [...spec.from] } },
      );
    }
    const body = store.raw(hash)?.body ?? "";
    if (sha256Hex(body) !== hash) {
      throw new DejaError(
        "LOOP-E008",
        `Cannot ${spec.verb} ${
          hash.slice(0, 12)
        }: the stored recommendation does not match its hash`,
      );
    }
    spec.check?.(view);
    const work = spec.work?.(view, now) ?? {};
    const results = work.results ?? [];
    const inverse = work.inverse === undefined
      ? null
      : JSON.stringify(work.inverse);
    const audit = writeAudit(store, {
      rec: hash,
      from: view.status,
      to: spec.to,
      actor: options.actor,
      observer: options.observer ?? observerOf(options.actor),
      because: spec.because,
      ...(view.audit_head ? { prev: view.audit_head } : {}),
      results,
      ...(inverse === null ? {} : { inverseDigest: sha256Hex(inverse) }),
      now,
    });
    const changed = store.db.prepare(
      `UPDATE rec_status SET status = ?, version = version + 1, audit_head = ?, updated_at = ?,
              applied_at = CASE WHEN ? = 'applied' THEN ? ELSE applied_at END,
              inverse = coalesce(?, inverse),
              results = CASE WHEN ? THEN ? ELSE results END,
              rollbackable = coalesce(?, rollbackable)
        WHERE hash = ? AND version = ?`,
    ).run(
      spec.to,
      audit,
      now,
      spec.to,
      now,
      inverse,
      results.length ? 1 : 0,
      JSON.stringify(results),
      work.rollbackable === undefined ? null : work.rollbackable ? 1 : 0,
      hash,
      view.version,
    );
    if (Number(changed.changes) === 0) {
      throw new DejaError(
        "LOOP-E001",
        `Cannot ${spec.verb} ${
          hash.slice(0, 12)
        }: another transition won the race`,
      );
    }
    return { hash, status: spec.to, version: view.version + 1, audit, results };
  });
}

function same(a: string | undefined, b: string): boolean {
  return a !== undefined && norm(a) === norm(b);
}

/** Approves or rejects a pending recommendation. */
export function review(
  store: Store,
  hash: string,
  decision: "approve" | "reject",
  options: TransitionOptions,
): TransitionResult {
  const because = requireBecause(options.because);
  const verb = decision === "approve" ? "approve" : "reject";
  requireScopes(options.scopes, ["review"], `${verb} recommendations`);
  if (options.actor.toLowerCase().startsWith("policy:")) {
    throw new DejaError(
      "LOOP-E002",
      `Cannot ${verb}: "policy:" actors only auto-apply`,
    );
  }
  return transition(store, hash, {
    from: ["pending"],
    to: decision === "approve" ? "approved" : "rejected",
    verb,
    options,
    because,
    check: (view) => {
      if (decision !== "approve") return;
      if (
        same(view.trigger_actor, options.actor) ||
        same(view.creator, options.actor)
      ) {
        throw new DejaError(
          "LOOP-E003",
          `Cannot approve ${hash.slice(0, 12)}: "${options.actor}" ${
            same(view.creator, options.actor) ? "created" : "triggered"
          } it, and self-approval is blocked`,
        );
      }
    },
    work: (view, now) => {
      if (decision === "reject") strike(store, view.grain.dedup_key, now);
      return {};
    },
  });
}

/**
 * Starts (or lengthens) the cooldown on a dedup key: a rejected or
 * rolled-back change is not proposed again for 7 days, then 14, 28, 56, up
 * to 90.
 *
 * @param store The memory store.
 * @param dedupKey The recommendation's dedup key.
 * @param now The clock.
 */
export function strike(store: Store, dedupKey: string, now: number): void {
  const row = store.db.prepare(
    "SELECT strikes FROM cooldowns WHERE dedup_key = ?",
  ).get(dedupKey) as { strikes: number } | undefined;
  const strikes = (row?.strikes ?? 0) + 1;
  const span = Math.min(COOLDOWN_BASE_MS * 2 ** (strikes - 1), COOLDOWN_MAX_MS);
  store.db.prepare(
    `INSERT INTO cooldowns(dedup_key, strikes, until) VALUES (?, ?, ?)
     ON CONFLICT(dedup_key) DO UPDATE SET strikes = excluded.strikes, until = excluded.until`,
  ).run(dedupKey, strikes, now + span);
}

/** Records that the host applied a doc or host recommendation itself. */
export function markApplied(
  store: Store,
  hash: string,
  options: TransitionOptions,
): TransitionResult {
  const because = requireBecause(options.because);
  requireScopes(options.scopes, ["apply"], "mark recommendations applied");
  return transition(store, hash, {
    from: ["approved"],
    to: "applied",
    verb: "mark applied",
    options,
    because,
    check: (view) => {
      if (view.grain.proposal.kind === "ops") {
        throw new DejaError(
          "LOOP-E004",
          `Cannot mark ${
            hash.slice(0, 12)
          } applied: it proposes memory operations; run loop apply`,
        );
      }
    },
    work: () => ({ rollbackable: false, inverse: [] }),
  });
}
