/**
 * The two checks a blind audit's cases make of `redact()`, shared by the
 * `audit14_*_test.ts` tables: a secret is taken (and counted, and the
 * redacted text is left as it is by a second pass), a look-alike stays.
 *
 * @module
 */
import { equal, ok } from "node:assert/strict";
import { redact } from "./redact.ts";

/** What a text is, as `redact()` reads it. */
export type TextKind = "speech" | "command" | "output";

/**
 * Asserts that `redact()` takes `secret` from `text`, counts a rule for it,
 * keeps each of `keep`, and gives the same text when run on its output.
 *
 * @param text The text.
 * @param kind What it is.
 * @param secret What must go.
 * @param keep What must stay beside it.
 */
export function assertTaken(
  text: string,
  kind: TextKind,
  secret: string,
  keep: readonly string[] = [],
): void {
  const r = redact(text, { kind });
  ok(!r.text.includes(secret), `${secret} left in ${r.text}`);
  ok(Object.values(r.counts).some((n) => n >= 1), JSON.stringify(r.counts));
  for (const k of keep) ok(r.text.includes(k), `${k} lost in ${r.text}`);
  equal(redact(r.text, { kind }).text, r.text);
}

/**
 * Asserts that `redact()` keeps `keep` in `text`, or, without `keep`,
 * returns the text unchanged.
 *
 * @param text The text.
 * @param kind What it is.
 * @param keep What must stay.
 */
export function assertKept(text: string, kind: TextKind, keep?: string): void {
  const out = redact(text, { kind }).text;
  if (keep === undefined) equal(out, text);
  else ok(out.includes(keep), `${keep} lost in ${out}`);
}
