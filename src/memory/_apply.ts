/**
 * Apply, auto-apply and rollback. Apply runs the literal proposal and stores
 * the inverse it will need; rollback runs that inverse, so a rolled-back
 * SUPERSEDE leaves the prior grain current again.
 *
 * @module
 */
import { DejaError, messageOf } from "../core/errors.ts";
import { sha256Hex } from "../core/hash.ts";
import type { Store } from "./_store.ts";
import { applyUnifiedDiff } from "./_diff.ts";
import { hashGrain } from "./hash_grain.ts";
import { strike, transition, type TransitionWork } from "./_lifecycle.ts";
import {
  opScopes,
  requireBecause,
  requireScopes,
} from "./recommendation_rules.ts";
import type {
  ApplyOptions,
  RecommendationView,
  TransitionOptions,
  TransitionResult,
} from "./memory_store.ts";
import { checkAutoApply, type LoopPolicy } from "./policy.ts";
import type { FactGrain, Grain, Op } from "./types.ts";

/** One step of a stored inverse plan. */
export type InverseStep =
  | { step: "tombstone"; hash: string }
  | { step: "untombstone"; hash: string }
  | { step: "define"; key: string; body?: unknown }
  | { step: "doc"; path: string; head: string; body: string };

/** Relation marking a fact as one version of an instruction doc. */
export const DOC_RELATION = "doc";

function stale(hash: string, message: string): never {
  throw new DejaError(
    "LOOP-E009",
    `Cannot apply ${hash.slice(0, 12)}: ${message}`,
  );
}

/** The current head of an in-memory instruction doc, if any. */
export function docHead(
  store: Store,
  path: string,
): { hash: string; grain: FactGrain } | undefined {
  const row = store.db.prepare(
    `SELECT g.hash FROM grains g
      WHERE g.type = 'fact' AND json_extract(g.body, '$.relation') = ? AND json_extract(g.body, '$.subject') = ?
      ORDER BY g.id DESC`,
  ).all(DOC_RELATION, path) as Array<{ hash: string }>;
  for (const { hash } of row) {
    if (store.isCurrent(hash)) {
      return { hash, grain: (store.get(hash) as { grain: FactGrain }).grain };
    }
  }
  return undefined;
}

/** Writes a grain for an op, recording how to undo it. */
function writeGrain(
  store: Store,
  grain: Grain,
  now: number,
  inverse: InverseStep[],
): string {
  const hash = hashGrain(grain);
  if (!store.raw(hash)) {
    store.insert(grain, now);
    inverse.push({ step: "tombstone", hash });
  } else if (store.isTombstoned(hash)) {
    store.untombstone(hash);
    inverse.push({ step: "tombstone", hash });
  }
  return hash;
}

function runOp(
  store: Store,
  rec: string,
  op: Op,
  options: ApplyOptions,
  now: number,
  inverse: InverseStep[],
): string | undefined {
  switch (op.op) {
    case "ADD":
      return writeGrain(store, op.grain, now, inverse);
    case "SUPERSEDE": {
      if (!store.raw(op.target)) {
        stale(
          rec,
          `target ${op.target.slice(0, 12)} is not in the memory file`,
        );
      }
      if (!store.isCurrent(op.target)) {
        stale(rec, `target ${op.target.slice(0, 12)} is no longer current`);
      }
      return writeGrain(
        store,
        { ...op.grain, supersedes: op.target } as Grain,
        now,
        inverse,
      );
    }
    case "FORGET":
      if (!store.raw(op.target)) {
        stale(
          rec,
          `target ${op.target.slice(0, 12)} is not in the memory file`,
        );
      }
      store.tombstone(
        op.target,
        options.actor,
        `forgotten by recommendation ${rec}`,
        now,
      );
      return op.target;
    case "DEFINE": {
      const prior = store.define(op.key, op.body, options.actor, now);
      inverse.push(
        prior === undefined
          ? { step: "define", key: op.key }
          : { step: "define", key: op.key, body: prior },
      );
      return undefined;
    }
  }
}

function applyWork(
  store: Store,
  view: RecommendationView,
  options: ApplyOptions,
  now: number,
): TransitionWork {
  const proposal = view.grain.proposal;
  const inverse: InverseStep[] = [];
  const results: string[] = [];
  if (proposal.kind === "ops") {
    for (const op of proposal.ops) {
      const h = runOp(store, view.hash, op, options, now, inverse);
      if (h) results.push(h);
    }
    return { results, inverse, rollbackable: !view.destructive };
  }
  if (proposal.kind === "doc") {
    const head = docHead(store, proposal.path);
    if (!head) {
      throw new DejaError(
        "LOOP-E004",
        `Cannot apply ${
          view.hash.slice(0, 12)
        }: doc "${proposal.path}" is not stored in this memory file; edit it yourself, then run loop mark-applied`,
      );
    }
    if (sha256Hex(head.grain.object) !== proposal.base_digest) {
      stale(
        view.hash,
        `doc "${proposal.path}" changed since the edit was proposed (base digest differs)`,
      );
    }
    let body: string;
    try {
      body = applyUnifiedDiff(head.grain.object, proposal.patch);
    } catch (err) {
      stale(view.hash, messageOf(err));
    }
    const grain: FactGrain = {
      type: "fact",
      namespace: head.grain.namespace,
      created_at: now,
      actor: options.actor,
      subject: proposal.path,
      relation: DOC_RELATION,
      object: body,
      supersedes: head.hash,
      derived_from: [view.hash],
    };
    const h = store.insert(grain, now).hash;
    inverse.push({
      step: "doc",
      path: proposal.path,
      head: h,
      body: head.grain.object,
    });
    return { results: [h], inverse, rollbackable: true };
  }
  throw new DejaError(
    "LOOP-E004",
    `Cannot apply ${
      view.hash.slice(0, 12)
    }: host recommendations are applied by the host; run loop mark-applied`,
  );
}

/** Applies a recommendation (see {@linkcode Store.apply}). */
export function apply(
  store: Store,
  hash: string,
  options: ApplyOptions,
): TransitionResult {
  const because = requireBecause(options.because);
  const auto = options.actor.toLowerCase().startsWith("policy:");
  requireScopes(options.scopes, ["apply"], "apply recommendations");
  return transition(store, hash, {
    from: auto ? ["pending", "approved"] : ["approved"],
    to: "applied",
    verb: "apply",
    options: auto ? { ...options, observer: "policy" } : options,
    because,
    check: (view) => {
      requireScopes(
        options.scopes,
        opScopes(view.grain.proposal),
        `apply ${hash.slice(0, 12)}`,
      );
      if (view.destructive) {
        if (auto) {
          throw new DejaError(
            "LOOP-E002",
            `Cannot auto-apply ${
              hash.slice(0, 12)
            }: destructive proposals need a human`,
          );
        }
        requireScopes(
          options.scopes,
          ["admin"],
          `apply destructive ${hash.slice(0, 12)}`,
        );
        if (!options.allowDestructive) {
          throw new DejaError(
            "LOOP-E002",
            `Cannot apply ${
              hash.slice(0, 12)
            }: it forgets grains and cannot be rolled back; pass --allow-destructive (needs admin)`,
          );
        }
      }
      if (auto) {
        if (!options.policy) {
          throw new DejaError(
            "LOOP-E002",
            `Cannot auto-apply ${hash.slice(0, 12)}: no host policy was given`,
          );
        }
        const gate = checkAutoApply(options.policy, view.grain, store);
        if (!gate.allowed) {
          throw new DejaError(
            "LOOP-E002",
            `Cannot auto-apply ${hash.slice(0, 12)}: ${gate.reason}`,
          );
        }
      }
    },
    work: (view, now) => applyWork(store, view, options, now),
  });
}

/** Applies a pending recommendation when the policy grants it; never throws on refusal. */
export function autoApply(
  store: Store,
  hash: string,
  options: { policy: LoopPolicy; now?: number },
): { applied: boolean; reason: string } {
  const view = store.recommendation(hash, options.now);
  if (!view) return { applied: false, reason: "unknown recommendation" };
  if (view.status !== "pending") {
    return { applied: false, reason: `it is ${view.status}` };
  }
  const gate = checkAutoApply(options.policy, view.grain, store);
  if (!gate.allowed) return { applied: false, reason: gate.reason };
  try {
    apply(store, hash, {
      actor: "policy:auto",
      because: `auto-applied under host policy: ${gate.reason}`.slice(0, 500),
      policy: options.policy,
      observer: "policy",
      ...(options.now === undefined ? {} : { now: options.now }),
    });
    return { applied: true, reason: gate.reason };
  } catch (err) {
    return { applied: false, reason: messageOf(err) };
  }
}

/** Runs the stored inverse of an applied recommendation. */
export function rollback(
  store: Store,
  hash: string,
  options: TransitionOptions,
): TransitionResult {
  const because = requireBecause(options.because);
  requireScopes(options.scopes, ["apply"], "roll back recommendations");
  return transition(store, hash, {
    from: ["applied"],
    to: "rolled_back",
    verb: "roll back",
    options,
    because,
    check: (view) => {
      requireScopes(
        options.scopes,
        opScopes(view.grain.proposal),
        `roll back ${hash.slice(0, 12)}`,
      );
      if (!view.rollbackable) {
        throw new DejaError(
          "LOOP-E004",
          `Cannot roll back ${
            hash.slice(0, 12)
          }: it was marked non-rollbackable when proposed${
            view.destructive
              ? " (it forgets grains)"
              : " (applied outside deja)"
          }`,
        );
      }
    },
    work: (view, now) => {
      // Undone for a reason: the same change is not proposed again at once.
      strike(store, view.grain.dedup_key, now);
      const row = store.db.prepare(
        "SELECT inverse FROM rec_status WHERE hash = ?",
      ).get(hash) as {
        inverse: string | null;
      };
      const steps = JSON.parse(row.inverse ?? "[]") as InverseStep[];
      const results: string[] = [];
      for (const s of [...steps].reverse()) {
        switch (s.step) {
          case "tombstone":
            if (store.hasLiveDescendant(s.hash)) {
              throw new DejaError(
                "LOOP-E009",
                `Cannot roll back ${hash.slice(0, 12)}: grain ${
                  s.hash.slice(0, 12)
                } was superseded since the apply`,
              );
            }
            store.tombstone(
              s.hash,
              options.actor,
              `rolled back recommendation ${hash}`,
              now,
            );
            results.push(s.hash);
            break;
          case "untombstone":
            store.untombstone(s.hash);
            results.push(s.hash);
            break;
          case "define":
            store.define(s.key, s.body, options.actor, now);
            break;
          case "doc": {
            const head = docHead(store, s.path);
            if (!head || head.hash !== s.head) {
              throw new DejaError(
                "LOOP-E009",
                `Cannot roll back ${
                  hash.slice(0, 12)
                }: doc "${s.path}" was edited since the apply`,
              );
            }
            const back: FactGrain = {
              type: "fact",
              namespace: head.grain.namespace,
              created_at: now,
              actor: options.actor,
              subject: s.path,
              relation: DOC_RELATION,
              object: s.body,
              supersedes: head.hash,
              derived_from: [view.hash],
            };
            results.push(store.insert(back, now).hash);
            break;
          }
        }
      }
      return { results };
    },
  });
}
