/**
 * Time parsing and relative durations shared by parsers, search and the loop.
 *
 * @module
 */

/**
 * Parses the many ways harnesses write a time: RFC 3339 with or without zone
 * or seconds, a space instead of `T`, epoch seconds or milliseconds (numbers
 * or strings, fractions allowed).
 *
 * @param value A string, number or anything else.
 * @returns Milliseconds since the epoch, or undefined when unreadable.
 * @example
 * ```ts
 * import { parseTime } from "./time.ts";
 * import { equal } from "node:assert/strict";
 * equal(parseTime("2025-01-02T03:04:05Z"), Date.UTC(2025, 0, 2, 3, 4, 5));
 * equal(parseTime(1735787045), 1735787045000);
 * equal(parseTime(1735787045123), 1735787045123);
 * ```
 */
export function parseTime(value: unknown): number | undefined {
  if (typeof value === "number") {
    if (!Number.isFinite(value) || value <= 0) return undefined;
    const ms = value > 1e12 ? Math.round(value) : Math.round(value * 1000);
    // Past what a Date can hold (1e308 in a corrupt line): no time at all,
    // or every reader of the index would fail to print it.
    return ms <= MAX_DATE_MS ? ms : undefined;
  }
  if (typeof value !== "string" || value.length === 0) return undefined;
  // The common shape first (`2025-01-02T03:04:05.678Z`, every JSONL line of
  // some harnesses): Date.parse reads it as is.
  if (ISO_UTC.test(value)) {
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? undefined : ms;
  }
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return parseTime(Number(trimmed));
  let text = trimmed.replace(" ", "T");
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(text)) text += ":00";
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?$/.test(text)) text += "Z";
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}

/** The latest time a Date can hold (ECMAScript: 8.64e15 ms past the epoch). */
const MAX_DATE_MS = 8.64e15;

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;

const UNIT_MS: Record<string, number> = {
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 7 * 86_400_000,
  y: 365 * 86_400_000,
  // Months as ages print them ("9mo ago"): `m` stays minutes.
  mo: 30 * 86_400_000,
};

/**
 * Parses a duration like `30d`, `6h`, `90m` (minutes), `2w`, `3mo`, `45s` or
 * `1y`.
 *
 * @param text The duration.
 * @returns Milliseconds, or undefined when it is not a duration.
 * @example
 * ```ts
 * import { parseDuration } from "./time.ts";
 * import { equal } from "node:assert/strict";
 * equal(parseDuration("2h"), 7_200_000);
 * ```
 */
export function parseDuration(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)\s*(mo|[smhdwy])$/.exec(text.trim());
  if (!m) return undefined;
  return Number(m[1]) * (UNIT_MS[m[2] as string] as number);
}

/**
 * Parses a `--since` value: a duration back from `now` or a date.
 *
 * @param text `30d`, `2025-05-01`, or an RFC 3339 time.
 * @param now The clock's current time in ms.
 * @returns The lower bound in ms, or undefined when unreadable.
 * @example
 * ```ts
 * import { parseSince } from "./time.ts";
 * import { equal } from "node:assert/strict";
 * equal(parseSince("1d", 86_400_000 * 2), 86_400_000);
 * ```
 */
export function parseSince(text: string, now: number): number | undefined {
  const d = parseDuration(text);
  if (d !== undefined) return now - d;
  // Date.parse rolls a day the month lacks over: 2026-02-30 would be 2 March.
  const date = /^(\d{4})-(\d{2})-(\d{2})/.exec(text.trim());
  if (date) {
    const [year, month, day] = date.slice(1).map(Number) as [
      number,
      number,
      number,
    ];
    const real = new Date(Date.UTC(year, month - 1, day));
    if (real.getUTCMonth() !== month - 1 || real.getUTCDate() !== day) {
      return undefined;
    }
  }
  return parseTime(text);
}

/**
 * Formats an age like `3d ago` for people.
 *
 * @param ms The time.
 * @param now The clock's current time.
 * @returns A short relative age.
 * @example
 * ```ts
 * import { formatAge } from "./time.ts";
 * import { equal } from "node:assert/strict";
 * equal(formatAge(0, 3 * 86_400_000), "3d ago");
 * ```
 */
export function formatAge(ms: number, now: number): string {
  const s = Math.max(0, Math.round((now - ms) / 1000));
  if (s < 60) return `${s}s ago`;
  if (s < 3600) return `${Math.floor(s / 60)}m ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h ago`;
  if (s < 86_400 * 60) return `${Math.floor(s / 86_400)}d ago`;
  if (s < 86_400 * 730) return `${Math.floor(s / (86_400 * 30))}mo ago`;
  return `${Math.floor(s / (86_400 * 365))}y ago`;
}
