import { equal } from "node:assert/strict";
import { openMemory } from "../../memory/mod.ts";
import { resolveParams } from "../manifest.ts";
import { FIXTURE_NOW, putEvent } from "../_fixtures.ts";
import { toolFailure } from "./tool_failure.ts";

const now = FIXTURE_NOW;
const DAY = 86_400_000;

Deno.test("toolFailure fires at n and rate thresholds, inside its window", async (t) => {
  const cases: Array<[string, number, number, number, number]> = [
    // name, errors, successes, age in days, expected drafts
    ["3 of 5 fails", 3, 2, 1, 1],
    ["2 of 2 is too few", 2, 0, 1, 0],
    ["3 of 10 is too rare", 3, 7, 1, 0],
    ["too old for the window", 5, 0, 31, 0],
    ["rare but 50 failures", 50, 200, 1, 1],
  ];
  for (const [name, errors, ok, age, want] of cases) {
    await t.step(name, () => {
      const store = openMemory(":memory:", { now: () => now });
      for (let i = 0; i < errors; i++) {
        putEvent(
          store,
          "tool",
          true,
          { error: `timeout ${i}` },
          now - age * DAY - i,
        );
      }
      for (let i = 0; i < ok; i++) {
        putEvent(store, "tool", false, { ok: i }, now - age * DAY - i - 0.5);
      }
      const drafts = toolFailure.analyze(
        store,
        resolveParams(toolFailure.manifest),
        now,
      );
      equal(drafts.length, want);
      store.close();
    });
  }
});

Deno.test("toolFailure grades severity and proposes a lesson fact", () => {
  const store = openMemory(":memory:", { now: () => now });
  for (let i = 0; i < 6; i++) {
    putEvent(
      store,
      "stripe_refund",
      true,
      { error: "rate_limited" },
      now - i * 1000,
    );
  }
  for (let i = 0; i < 2; i++) {
    putEvent(store, "stripe_refund", false, { ok: true }, now - i * 1000 - 1);
  }
  const [d] = toolFailure.analyze(
    store,
    resolveParams(toolFailure.manifest),
    now,
  );
  equal(d?.severity, "high");
  equal(d?.template.args.rate, 75);
  equal(d?.evidence.length, 6);
  const op = d?.proposal.kind === "ops" ? d.proposal.ops[0] : undefined;
  equal(
    op?.op === "ADD" && op.grain.type === "fact" && op.grain.object,
    "rate_limited",
  );
  store.close();
});
