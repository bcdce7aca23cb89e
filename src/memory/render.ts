/**
 * Plain-text renderings of grains, template summaries and proposals, so a
 * reviewer reads the literal change, not a paraphrase.
 *
 * @module
 */
import type { Grain, Op, Proposal } from "./types.ts";

/** Fields that are bookkeeping, left out of a grain's readable form. */
const BOOKKEEPING = new Set([
  "type",
  "created_at",
  "actor",
  "supersedes",
  "derived_from",
]);

/**
 * The searchable text of a grain: its content fields joined by spaces.
 *
 * @param grain Any grain.
 * @returns The text recall matches against.
 * @example
 * ```ts
 * import { grainText } from "./render.ts";
 * import { equal } from "node:assert/strict";
 * equal(grainText({ type: "fact", namespace: "n", created_at: 1, actor: "a", subject: "acme", relation: "tier", object: "gold" }), "acme tier gold");
 * ```
 */
export function grainText(grain: Grain): string {
  switch (grain.type) {
    case "fact":
      return `${grain.subject} ${grain.relation} ${grain.object}`;
    case "observation":
      return grain.subject ? `${grain.subject} ${grain.text}` : grain.text;
    case "event": {
      const result = typeof grain.result === "string"
        ? grain.result
        : JSON.stringify(grain.result ?? "");
      return `${grain.tool} ${grain.is_error ? "error" : "ok"} ${result}`;
    }
    case "skill":
      return grain.name;
    case "goal":
      return grain.title;
    case "note":
      return grain.project ? `${grain.project} ${grain.text}` : grain.text;
    case "recommendation":
      return `${grain.family} ${grain.target_ref} ${grain.action}`;
    case "audit":
      return `${grain.from} ${grain.to} ${grain.because}`;
  }
}

/**
 * A grain as one readable line: type then its content fields as JSON.
 *
 * @param grain Any grain.
 * @returns E.g. `fact {"namespace":"n","object":"gold","relation":"tier","subject":"acme"}`.
 * @example
 * ```ts
 * import { renderGrain } from "./render.ts";
 * import { equal } from "node:assert/strict";
 * equal(renderGrain({ type: "skill", namespace: "n", created_at: 1, actor: "a", name: "sql", proficiency: 0.2, practice_count: 6 }),
 *   'skill {"name":"sql","namespace":"n","practice_count":6,"proficiency":0.2}');
 * ```
 */
export function renderGrain(grain: Grain): string {
  const fields = Object.entries(grain as unknown as Record<string, unknown>)
    .filter(([k, v]) => !BOOKKEEPING.has(k) && v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return `${grain.type} ${JSON.stringify(Object.fromEntries(fields))}`;
}

/**
 * Renders a template summary without prose from the analyzer: the template
 * id followed by its arguments.
 *
 * @param template The `{id, args}` pair.
 * @returns E.g. `tool_failure.cluster (count=5, tool=stripe_refund)`.
 * @example
 * ```ts
 * import { renderTemplate } from "./render.ts";
 * import { equal } from "node:assert/strict";
 * equal(renderTemplate({ id: "x.y", args: { b: 2, a: "q" } }), 'x.y (a="q", b=2)');
 * ```
 */
export function renderTemplate(
  template: { id: string; args: Record<string, string | number> },
): string {
  const args = Object.entries(template.args)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, v]) => `${k}=${typeof v === "number" ? v : JSON.stringify(v)}`);
  return args.length ? `${template.id} (${args.join(", ")})` : template.id;
}

/**
 * Renders one operation as a literal line.
 *
 * @param op The operation.
 * @returns E.g. `FORGET 3f2a…  -- destructive, cannot be rolled back`.
 */
export function renderOp(op: Op): string {
  switch (op.op) {
    case "ADD":
      return `ADD ${renderGrain(op.grain)}`;
    case "SUPERSEDE":
      return `SUPERSEDE ${op.target} WITH ${renderGrain(op.grain)}`;
    case "FORGET":
      return `FORGET ${op.target}  -- destructive, cannot be rolled back`;
    case "DEFINE":
      return `DEFINE ${op.key} ${JSON.stringify(op.body)}`;
  }
}

/**
 * Renders a proposal as the literal text a reviewer approves.
 *
 * @param proposal The proposal.
 * @returns One or more lines.
 * @example
 * ```ts
 * import { renderProposal } from "./render.ts";
 * import { equal } from "node:assert/strict";
 * equal(renderProposal({ kind: "ops", ops: [{ op: "DEFINE", key: "query:q", body: "x" }] }), 'DEFINE query:q "x"');
 * ```
 */
export function renderProposal(proposal: Proposal): string {
  switch (proposal.kind) {
    case "ops":
      return proposal.ops.map(renderOp).join("\n");
    case "doc":
      return [
        `EDIT DOC ${proposal.path} (base sha256 ${
          proposal.base_digest.slice(0, 12)
        })`,
        proposal.patch.trimEnd(),
      ].join("\n");
    case "host":
      return `HOST DATA (applied outside deja, then mark-applied)\n${
        JSON.stringify(proposal.data, null, 2)
      }`;
  }
}
