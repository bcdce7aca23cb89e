/**
 * The rules every recommendation follows, whoever stores it: the dedup key,
 * the limits, the scopes an action needs, and what a valid draft looks like.
 *
 * @module
 */
import { DejaError } from "../core/errors.ts";
import { ALL_SCOPES, type Scope } from "./memory_store.ts";
import { severityRank, validateGrain } from "./validate_grain.ts";
import type { AuditGrain, Op, Proposal, RecommendationDraft } from "./types.ts";

/** Evidence hashes kept per recommendation. */
export const MAX_EVIDENCE = 64;
/** Longest BECAUSE accepted. */
export const MAX_BECAUSE = 500;
/** First rejection cooldown; doubles per strike. */
export const COOLDOWN_BASE_MS = 7 * 86_400_000;
/** Cooldown ceiling. */
export const COOLDOWN_MAX_MS = 90 * 86_400_000;
/** Default recommendation lifetime before it expires. */
export const DEFAULT_VALID_FOR_MS = 30 * 86_400_000;

const SCHEMES = ["grain", "entity", "query", "template", "doc", "host"];

function norm(s: string): string {
  return s.normalize("NFC").trim().toLowerCase();
}

/**
 * The one dedup key algorithm: family ␟ target_ref ␟ action, each
 * NFC-normalised, trimmed and lower-cased; a `/major` suffix on the family
 * is dropped so analyzer upgrades do not re-propose.
 *
 * @param draft Family, target and action.
 * @returns The key.
 * @example
 * ```ts
 * import { dedupKey } from "./recommendation_rules.ts";
 * import { equal } from "node:assert/strict";
 * equal(dedupKey({ family: "Dup/2", target_ref: " entity:A ", action: "merge" }), "dup\u241fentity:a\u241fmerge");
 * ```
 */
export function dedupKey(
  draft: Pick<RecommendationDraft, "family" | "target_ref" | "action">,
): string {
  return [
    norm(draft.family).replace(/\/\d+$/, ""),
    norm(draft.target_ref),
    norm(draft.action),
  ]
    .join("\u241f");
}

/**
 * Whether a proposal is destructive (contains a FORGET).
 *
 * @param proposal The proposal.
 * @returns True when applying it forgets grains.
 */
export function isDestructive(proposal: Proposal): boolean {
  return proposal.kind === "ops" && proposal.ops.some((o) => o.op === "FORGET");
}

/**
 * The observer type an actor label implies: `policy:` → policy; `engine:`,
 * `system` → system; `agent:`, `bot:`, `job:` → agent; anything else human.
 *
 * @param actor The actor label.
 * @returns The observer type.
 */
export function observerOf(actor: string): AuditGrain["observer"] {
  const a = actor.toLowerCase();
  if (a.startsWith("policy:")) return "policy";
  if (a === "system" || a.startsWith("engine:") || a.startsWith("system:")) {
    return "system";
  }
  if (/^(agent|bot|job):/.test(a)) return "agent";
  return "human";
}

/**
 * Checks a BECAUSE: non-empty after trimming and at most 500 characters.
 *
 * @param because The reason.
 * @returns The trimmed reason.
 * @throws {DejaError} LOOP-E005 when missing or too long.
 */
export function requireBecause(because: string | undefined): string {
  const text = (because ?? "").trim();
  if (!text) {
    throw new DejaError(
      "LOOP-E005",
      'A reason is required: pass --because "…"',
    );
  }
  if (text.length > MAX_BECAUSE) {
    throw new DejaError(
      "LOOP-E005",
      `The reason is ${text.length} characters; the limit is ${MAX_BECAUSE}`,
    );
  }
  return text;
}

/**
 * Refuses unless the caller holds every needed scope (admin implies all).
 *
 * @param have The caller's scopes (absent: all, the local root of trust).
 * @param need The scopes the action needs.
 * @param what The action, for the message.
 * @throws {DejaError} LOOP-E002 naming the missing scopes.
 */
export function requireScopes(
  have: readonly Scope[] | undefined,
  need: readonly Scope[],
  what: string,
): void {
  const held = have ?? ALL_SCOPES;
  if (held.includes("admin")) return;
  const missing = need.filter((s) => !held.includes(s));
  if (missing.length) {
    throw new DejaError(
      "LOOP-E002",
      `Cannot ${what}: the actor lacks the ${
        missing.map((s) => `"${s}"`).join(", ")
      } scope${missing.length > 1 ? "s" : ""}`,
      { detail: { missing, held: [...held] } },
    );
  }
}

/**
 * Scopes a proposal's own operations need, beyond `apply`: `write` for
 * memory operations and doc edits, `admin` too for FORGET.
 *
 * @param proposal The proposal.
 * @returns The scopes.
 */
export function opScopes(proposal: Proposal): Scope[] {
  if (proposal.kind === "host") return [];
  if (proposal.kind === "doc") return ["write"];
  const need = new Set<Scope>();
  for (const op of proposal.ops) {
    need.add("write");
    if (op.op === "FORGET") need.add("admin");
  }
  return [...need];
}

function isHash(s: unknown): s is string {
  return typeof s === "string" && /^[0-9a-f]{64}$/.test(s);
}

function checkOp(op: Op, i: number): void {
  const where = `proposal op ${i + 1}`;
  switch (op?.op) {
    case "ADD":
    case "SUPERSEDE": {
      const g = validateGrain(op.grain);
      if (g.type === "recommendation" || g.type === "audit") {
        throw new TypeError(`Invalid draft: ${where} writes a ${g.type} grain`);
      }
      if (op.op === "SUPERSEDE" && !isHash(op.target)) {
        throw new TypeError(`Invalid draft: ${where} needs a full target hash`);
      }
      return;
    }
    case "FORGET":
      if (!isHash(op.target)) {
        throw new TypeError(`Invalid draft: ${where} needs a full target hash`);
      }
      return;
    case "DEFINE":
      if (
        typeof op.key !== "string" || !/^(query|template):\S+$/.test(op.key)
      ) {
        throw new TypeError(
          `Invalid draft: ${where} must DEFINE a "query:" or "template:" key`,
        );
      }
      if (op.body === undefined) {
        throw new TypeError(`Invalid draft: ${where} has no body`);
      }
      return;
    default:
      throw new TypeError(`Invalid draft: ${where} has an unknown op`);
  }
}

/**
 * Validates a draft's shape: required strings, a known target scheme,
 * template args without prose objects, a known severity, and a proposal
 * whose grains are valid and never recommendations or audits.
 *
 * @param draft The draft.
 * @throws {TypeError} naming the first problem.
 */
export function validateDraft(draft: RecommendationDraft): void {
  const d = draft as unknown as Record<string, unknown>;
  for (const k of ["analyzer", "family", "target_ref", "action"]) {
    if (typeof d[k] !== "string" || (d[k] as string).trim() === "") {
      throw new TypeError(`Invalid draft: "${k}" must be a non-empty string`);
    }
  }
  const ref = draft.target_ref.trim().toLowerCase();
  const scheme = ref.slice(0, ref.indexOf(":"));
  if (!SCHEMES.includes(scheme)) {
    throw new TypeError(
      `Invalid draft: target_ref "${draft.target_ref}" must start with ${
        SCHEMES.map((s) => s + ":").join(", ")
      }`,
    );
  }
  if (
    typeof draft.template?.id !== "string" ||
    typeof draft.template.args !== "object"
  ) {
    throw new TypeError(`Invalid draft: "template" needs an id and args`);
  }
  for (const v of Object.values(draft.template.args)) {
    if (typeof v !== "string" && typeof v !== "number") {
      throw new TypeError(
        `Invalid draft: template args must be strings or numbers`,
      );
    }
  }
  if (severityRank(draft.severity) < 0) {
    throw new TypeError(`Invalid draft: unknown severity "${draft.severity}"`);
  }
  if (
    !Array.isArray(draft.evidence) ||
    draft.evidence.some((e) => typeof e !== "string")
  ) {
    throw new TypeError(`Invalid draft: "evidence" must be a list of hashes`);
  }
  const p = draft.proposal;
  if (p?.kind === "ops") {
    if (!Array.isArray(p.ops)) {
      throw new TypeError(`Invalid draft: "ops" must be a list`);
    }
    p.ops.forEach(checkOp);
  } else if (p?.kind === "doc") {
    if (
      typeof p.path !== "string" || typeof p.base_digest !== "string" ||
      typeof p.patch !== "string"
    ) {
      throw new TypeError(
        `Invalid draft: a doc proposal needs path, base_digest and patch`,
      );
    }
  } else if (p?.kind !== "host") {
    throw new TypeError(`Invalid draft: unknown proposal kind`);
  }
}
