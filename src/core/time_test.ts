import { equal } from "node:assert/strict";
import { parseDuration, parseSince, parseTime } from "./time.ts";

Deno.test("parseDuration() reads every unit; m is minutes and mo months", async (t) => {
  const cases: Array<[string, number | undefined]> = [
    ["45s", 45_000],
    ["90m", 90 * 60_000],
    ["6h", 6 * 3_600_000],
    ["30d", 30 * 86_400_000],
    ["2w", 14 * 86_400_000],
    ["3mo", 90 * 86_400_000],
    ["1y", 365 * 86_400_000],
    ["10mo", 300 * 86_400_000],
    ["3 months", undefined],
    ["soon", undefined],
  ];
  for (const [text, ms] of cases) {
    await t.step(text, () => equal(parseDuration(text), ms));
  }
});

Deno.test("parseTime() reads RFC 3339 on its fast path and refuses impossible dates", () => {
  equal(
    parseTime("2025-01-02T03:04:05.678Z"),
    Date.UTC(2025, 0, 2, 3, 4, 5, 678),
  );
  equal(parseTime("2025-13-45T99:00:00Z"), undefined);
  equal(parseTime("2025-01-02 03:04"), Date.UTC(2025, 0, 2, 3, 4));
});

Deno.test("parseTime() refuses a number past what a Date can hold (a corrupt line's 1e308)", () => {
  equal(parseTime(1e308), undefined);
  equal(parseTime(8.64e15 + 1), undefined);
  equal(parseTime("9".repeat(30)), undefined);
  equal(parseTime(8.64e15), 8.64e15);
});

Deno.test("parseSince() refuses a day the month lacks rather than rolling it over", async (t) => {
  const cases: Array<[string, number | undefined]> = [
    ["2026-02-28", Date.UTC(2026, 1, 28)],
    ["2028-02-29", Date.UTC(2028, 1, 29)],
    ["2026-02-29", undefined],
    ["2026-02-30", undefined],
    ["2026-04-31", undefined],
    ["2026-04-31T10:00", undefined],
    ["2026-13-01", undefined],
  ];
  for (const [text, want] of cases) {
    await t.step(text, () => equal(parseSince(text, 0), want));
  }
});
