/**
 * The two checks a blind audit's cases make of `redact()`, shared by the
 * `audit14_*_test.ts` and `audit15_*_test.ts` tables: a secret is taken
 * (and counted, and the redacted text is left as it is by a second pass), a
 * look-alike stays; and a long text of one rule's anchors is redacted in
 * linear time.
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

/**
 * Asserts that `redact()` reads `text` (a long run of one rule's anchor) as
 * each of `kinds` within `limitMs` milliseconds: a rule that read the rest
 * of the text again at each anchor would take minutes.
 *
 * @param text The text, some 200 KB.
 * @param kinds What it is read as.
 * @param limitMs The time allowed for each kind.
 */
export function assertLinear(
  text: string,
  kinds: readonly TextKind[],
  limitMs = 1000,
): void {
  for (const kind of kinds) {
    const started = performance.now();
    redact(text, { kind });
    const ms = performance.now() - started;
    ok(ms < limitMs, `${text.slice(0, 40)}… as ${kind}: ${Math.round(ms)} ms`);
  }
}

/**
 * `unit` repeated to `size` characters.
 *
 * @param unit The anchor and what follows it.
 * @param size The length wanted.
 * @returns The text.
 */
export function repeated(unit: string, size = 200_000): string {
  return unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
}

/** A leak row: [text, kind, secret, what must stay beside it]. */
export type LeakRow = readonly [
  text: string,
  kind: TextKind,
  secret: string,
  keep?: readonly string[],
];

/** A look-alike row: [text, kind, what must stay] (all of it, without one). */
export type KeptRow = readonly [text: string, kind: TextKind, keep?: string];

/** A step's name: the kind, and the start of the text on one line. */
function stepName(text: string, kind: TextKind): string {
  return `${kind}: ${text.slice(0, 60).replaceAll("\n", "⏎")}`;
}

/**
 * Runs {@linkcode assertTaken} on each row, a test step each.
 *
 * @param t The test.
 * @param rows The leaks.
 */
export async function takenSteps(
  t: Deno.TestContext,
  rows: ReadonlyArray<LeakRow>,
): Promise<void> {
  for (const [text, kind, secret, keep] of rows) {
    await t.step(
      stepName(text, kind),
      () => assertTaken(text, kind, secret, keep),
    );
  }
}

/**
 * Runs {@linkcode assertKept} on each row, a test step each.
 *
 * @param t The test.
 * @param rows The look-alikes.
 */
export async function keptSteps(
  t: Deno.TestContext,
  rows: ReadonlyArray<KeptRow>,
): Promise<void> {
  for (const [text, kind, keep] of rows) {
    await t.step(stepName(text, kind), () => assertKept(text, kind, keep));
  }
}
