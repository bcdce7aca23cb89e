import { deepEqual, equal, ok } from "node:assert/strict";
import { openMemory, parsePolicy } from "../memory/mod.ts";
import { runLoop } from "./run_loop.ts";
import { FIXTURE_NOW, putEvent, putFact } from "./_fixtures.ts";
import type { Analyzer } from "./types.ts";
import { ANALYZERS } from "./registry.ts";

const now = FIXTURE_NOW;
const HOUR = 3_600_000;

function seeded() {
  const store = openMemory(":memory:", { now: () => now });
  putFact(store, "ops", ["acme", "deploy_target", "us-east-1"], now - 5000);
  putFact(store, "ops", ["acme", "deploy_target", "eu-west-1"], now - 4000);
  putFact(store, "crm", ["acme", "tier", "Gold"], now - 3000);
  putFact(store, "crm", ["acme", "tier", "gold"], now - 2000);
  for (let i = 0; i < 4; i++) {
    putEvent(
      store,
      "stripe_refund",
      true,
      { error: "rate_limited" },
      now - i * 1000,
    );
  }
  return store;
}

Deno.test("runLoop() stores drafts once, then dedupes, and advances the watermark", async () => {
  const store = seeded();
  const first = await runLoop(store, {}, now);
  equal(first.outcome, "ran");
  equal(first.skip_reason, null);
  equal(first.stored, 3);
  equal(first.proposed, 3);
  deepEqual(first.new_since_watermark, { grains: 8, error_events: 4 });
  equal(store.watermark(), now);
  equal(first.recommendations.every((r) => r.hash && r.summary), true);
  const second = await runLoop(store, {}, now + 1);
  deepEqual([second.proposed, second.deduped, second.stored], [3, 3, 0]);
  deepEqual(second.new_since_watermark, { grains: 0, error_events: 0 });
  store.close();
});

Deno.test("runLoop() gates OR-compose; a skip keeps the watermark", async (t) => {
  const cases: Array<[string, Record<string, number>, string | null]> = [
    ["min-new not met", { minNew: 100 }, "min_new_not_met"],
    ["min-new met", { minNew: 8 }, null],
    [
      "errors met though grains are not",
      { minNew: 100, minNewErrors: 4 },
      null,
    ],
    ["errors not met", { minNewErrors: 5 }, "min_new_not_met"],
    ["never ran counts as stale", { ifStaleMs: 6 * HOUR }, null],
  ];
  for (const [name, gates, reason] of cases) {
    await t.step(name, async () => {
      const store = seeded();
      const r = await runLoop(store, gates, now);
      equal(r.skip_reason, reason);
      equal(r.outcome, reason ? "skipped" : "ran");
      equal(store.watermark(), reason ? undefined : now);
      store.close();
    });
  }
  await t.step("not stale after a recent run", async () => {
    const store = seeded();
    await runLoop(store, {}, now);
    const r = await runLoop(store, { ifStaleMs: 6 * HOUR }, now + HOUR);
    equal(r.skip_reason, "not_stale");
    equal(
      (await runLoop(store, { ifStaleMs: 6 * HOUR }, now + 7 * HOUR)).outcome,
      "ran",
    );
    store.close();
  });
});

Deno.test("runLoop() skips with lock_held while another run holds the lock", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/m.db`;
  const a = openMemory(path, { now: () => now });
  putFact(a, "ops", ["x", "owner", "y"], now);
  const held = a.lock("loop-run", { now })!;
  const b = openMemory(path, { now: () => now });
  const r = await runLoop(b, {}, now);
  equal(r.outcome, "skipped");
  equal(r.skip_reason, "lock_held");
  equal(r.new_since_watermark.grains, 1);
  held.release();
  equal((await runLoop(b, {}, now)).outcome, "ran");
  a.close();
  b.close();
  await Deno.remove(dir, { recursive: true });
});

Deno.test("runLoop() measures duration with the injected clock", async () => {
  const store = seeded();
  let t = 100;
  const r = await runLoop(store, { clock: () => (t += 7) }, now);
  equal(r.duration_ms, 7);
  store.close();
});

Deno.test("runLoop() dry run stores nothing and keeps the watermark", async () => {
  const store = seeded();
  const r = await runLoop(store, { dryRun: true }, now);
  equal(r.dry_run, true);
  equal(r.stored, 0);
  equal(r.recommendations.length, 3);
  equal(r.recommendations.every((x) => x.hash === undefined), true);
  equal(store.recommendations().length, 0);
  equal(store.watermark(), undefined);
  store.close();
});

Deno.test("runLoop() --only runs the named analyzers, even opt-in ones", async () => {
  const store = seeded();
  store.put({
    type: "goal",
    namespace: "g",
    created_at: now - 90 * 86_400_000,
    actor: "human:t",
    title: "ship v2",
    state: "active",
    progress: 0,
  });
  const r = await runLoop(store, { only: ["goal_stagnation"] }, now);
  deepEqual(r.analyzers_run, ["deja.goal_stagnation/1"]);
  equal(r.stored, 1);
  equal(
    r.analyzers_skipped.find((s) => s.id === "deja.tool_failure/1")?.reason,
    "not selected by --only",
  );
  store.close();
});

Deno.test("runLoop() honours policy deny-lists and severity floors", async () => {
  const store = seeded();
  const policy = parsePolicy({
    deny: ["contradiction_sweep"],
    severity_floors: { duplicate_sweep: "medium" },
  });
  const r = await runLoop(store, { policy }, now);
  equal(
    r.analyzers_skipped.find((s) => s.id === "deja.contradiction_sweep/1")
      ?.reason,
    "denied by host policy",
  );
  equal(r.stored, 1);
  equal(r.recommendations[0]?.analyzer, "deja.tool_failure/1");
  equal(r.deduped, 1);
  store.close();
});

Deno.test("runLoop() auto-applies only what policy grants and the store re-verifies", async () => {
  const store = seeded();
  const policy = parsePolicy({
    auto_apply_enabled: true,
    auto_apply: [
      {
        analyzer: "duplicate_sweep",
        targets: ["memory"],
        max_severity: "high",
      },
      {
        analyzer: "contradiction_sweep",
        targets: ["memory"],
        max_severity: "high",
      },
      { analyzer: "tool_failure", targets: ["memory"], max_severity: "high" },
    ],
  });
  const r = await runLoop(store, { policy }, now);
  equal(r.auto_applied, 1);
  deepEqual(
    r.recommendations.filter((x) => x.auto_applied).map((x) => x.analyzer),
    ["deja.duplicate_sweep/1"],
  );
  const applied = store.recommendations({ status: "applied" });
  equal(applied.length, 1);
  equal(store.recommendations({ status: "pending" }).length, 2);
  store.close();
});

Deno.test("runLoop() isolates a failing analyzer", async () => {
  const store = seeded();
  const boom: Analyzer = {
    manifest: { ...ANALYZERS[0]!.manifest, id: "test.boom/1", requires: [] },
    analyze: () => {
      throw new Error("kaput");
    },
  };
  const r = await runLoop(store, { analyzers: [boom, ...ANALYZERS] }, now);
  deepEqual(r.analyzers_skipped.find((s) => s.id === "test.boom/1"), {
    id: "test.boom/1",
    reason: "failed: kaput",
  });
  equal(r.stored, 3);
  store.close();
});

Deno.test("runLoop() narrows an analyzer to its configured namespaces", async () => {
  const store = seeded();
  store.setConfig("deja.contradiction_sweep/1", { namespaces: ["crm"] }, {
    actor: "human:t",
    now,
  });
  const r = await runLoop(store, {}, now);
  equal(
    r.recommendations.some((x) => x.analyzer === "deja.contradiction_sweep/1"),
    false,
  );
  store.close();
});

Deno.test("runLoop() runs the importer under the lock before counting", async () => {
  const store = openMemory(":memory:", { now: () => now });
  let sawLock = false;
  const r = await runLoop(store, {
    minNewErrors: 3,
    importer: (s) => {
      sawLock = s.lock("loop-run", { now }) === undefined;
      for (let i = 0; i < 3; i++) {
        putEvent(s, "bash", true, "exit 1: command not found", now - i);
      }
    },
  }, now);
  ok(sawLock);
  equal(r.outcome, "ran");
  equal(r.new_since_watermark.error_events, 3);
  store.close();
});
