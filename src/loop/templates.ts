/**
 * Summary templates. Analyzers emit `(template_id, args)`; only this table
 * turns them into text, so no analyzer can write free prose into a
 * recommendation's summary.
 *
 * @module
 */
import { ownValue } from "../core/lookup.ts";

/** Every template the built-in analyzers use, by id. */
export const TEMPLATES: Readonly<Record<string, string>> = {
  "tool_failure.cluster":
    'Tool "{tool}" failed {count} times ({rate}% of {calls} calls) with: {signature}',
  "duplicate.exact":
    'Consolidate {count} exact-duplicate facts for "{subject}" {relation} "{object}"',
  "duplicate.near":
    "Consolidate {count} near-duplicate observations in {namespace} (Jaccard ≥ {threshold})",
  "contradiction.functional":
    '"{subject}" holds {count} live values for single-valued relation "{relation}"',
  "staleness.expired":
    'Expire {type} "{label}": past its declared valid_to by {days_past} days',
  "fork.multi_head": '{type} "{label}" has {heads} competing current versions',
  "outcome.regression":
    "Applied recommendation {rec} regressed: {metric} rose from {baseline} to {current}",
  "skill.stall":
    'Skill "{skill}" practised {practice_count} times but proficiency is {proficiency}',
  "goal.stagnation": 'Goal "{goal}" is {progress}% done after {age_days} days',
  "cold.grain":
    'Fact "{subject}" {relation} never came up in {queries} recalls over {age_days} days',
  "coverage.gap":
    'Question "{query}" was asked {runs} times and found nothing {empty} times',
  "budget.pressure":
    "Recall overflowed its token budget in {overflow} of {samples} assemblies",
  "retention.overdue":
    "{count} grains in {namespace} are older than {max_age_days} days",
  "command.finding": "[{analyzer}] {text}",
  "llm.discover": "[model {model}, unverified] {text}",
  "llm.enrich": "[model {model}, unverified, on {for}] {text}",
};

/**
 * Renders a summary from its template. A missing argument renders as
 * `{name}`; an unknown template id renders as the id and its arguments.
 *
 * @param template The draft's template id and args.
 * @returns One line of text.
 * @example
 * ```ts
 * import { renderSummary } from "./templates.ts";
 * import { equal } from "node:assert/strict";
 * equal(renderSummary({ id: "budget.pressure", args: { overflow: 12, samples: 20 } }),
 *   "Recall overflowed its token budget in 12 of 20 assemblies");
 * ```
 */
export function renderSummary(
  template: { id: string; args: Record<string, string | number> },
): string {
  const text = ownValue(TEMPLATES, template.id);
  const line = text === undefined
    ? `${template.id}: ${JSON.stringify(template.args)}`
    : text.replace(/\{(\w+)\}/g, (whole, name: string) => {
      const v = template.args[name];
      return v === undefined ? whole : String(v);
    });
  return line.replace(/[\r\n\t]+/g, " ");
}
