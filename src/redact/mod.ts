/**
 * Secret redaction: replaces secret values in transcript text with
 * `[redacted:<rule-id>]` before anything is written, keeping keys and prose
 * searchable, and counts replacements per rule and per source file.
 *
 * @example
 * ```ts
 * import { redact, redactionEnabled, RedactionTally } from "./mod.ts";
 * import { equal } from "node:assert/strict";
 * const tally = new RedactionTally();
 * if (redactionEnabled({})) {
 *   const r = redact("psql postgres://app:s3cret@db:5432/shop");
 *   equal(r.text, "psql postgres://app:[redacted:url-credentials]@db:5432/shop");
 *   tally.add(r.counts, "/transcripts/a.jsonl");
 * }
 * equal(tally.total, 1);
 * ```
 *
 * @module
 */
export { printsSecret, redactPrintedSecret } from "./command_output.ts";
export { mayHoldKeyBlock } from "./_private_key.ts";
export {
  isPlainKey,
  redact,
  REDACTION_REVISION,
  REDACTION_RULES,
  redactionEnabled,
  type RedactionResult,
  RedactionTally,
  type RedactionTallyJson,
  type RedactOptions,
  withoutInvisible,
} from "./redact.ts";
