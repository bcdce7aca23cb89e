import { equal } from "node:assert/strict";
import { openMemory, parsePolicy } from "../memory/mod.ts";
import { activation } from "./activation.ts";
import { FIXTURE_NOW, putFact } from "./_fixtures.ts";

const now = FIXTURE_NOW;

Deno.test("activation() names why each analyzer is inactive", async (t) => {
  const store = openMemory(":memory:", { now: () => now });
  putFact(store, "ops", ["a", "b", "c"], now);
  store.setConfig("deja.staleness/1", { enabled: false }, {
    actor: "human:t",
    now,
  });
  store.setConfig("deja.skill_stall/1", { params: { min_practice: "lots" } }, {
    actor: "human:t",
    now,
  });
  store.setConfig("deja.retention_sweep/1", { enabled: true }, {
    actor: "human:t",
    now,
  });
  const byId = (policy = parsePolicy({})) =>
    Object.fromEntries(
      activation(store, store.config(), { policy }).map((a) => [a.id, a]),
    );
  const acts = byId();
  const cases: Array<[string, boolean, RegExp]> = [
    ["deja.contradiction_sweep/1", true, /^on by default$/],
    ["deja.tool_failure/1", false, /^needs event grains; the file has none$/],
    ["deja.duplicate_sweep/1", true, /^on by default$/],
    ["deja.staleness/1", false, /^disabled in the memory file$/],
    [
      "deja.skill_stall/1",
      false,
      /^bad params in the memory file: .*min_practice/,
    ],
    ["deja.goal_stagnation/1", false, /^off by default \(opt-in\)$/],
    ["deja.retention_sweep/1", true, /^enabled in the memory file$/],
    [
      "deja.cold_grains/1",
      false,
      /^needs recall telemetry; none recorded yet$/,
    ],
    ["deja.coverage_gap/1", false, /^needs recall telemetry/],
  ];
  for (const [id, active, reason] of cases) {
    await t.step(id, () => {
      equal(acts[id]?.active, active);
      equal(reason.test(acts[id]!.reason), true, acts[id]!.reason);
    });
  }
  await t.step("host policy beats the file", () => {
    const denied = byId(
      parsePolicy({
        deny: ["retention_sweep"],
        severity_floors: { duplicate_sweep: "low" },
      }),
    );
    equal(denied["deja.retention_sweep/1"]?.reason, "denied by host policy");
    equal(denied["deja.duplicate_sweep/1"]?.severity_floor, "low");
  });
  await t.step("telemetry makes the telemetry analyzers active", () => {
    store.recordRecall({
      query: "q",
      tokens: 1,
      budget: 2,
      results: [],
      at: now,
    });
    equal(byId()["deja.coverage_gap/1"]?.active, true);
  });
  store.close();
});
