import { equal } from "node:assert/strict";
import { openMemory } from "../../memory/mod.ts";
import { resolveParams } from "../manifest.ts";
import { FIXTURE_NOW, putFact } from "../_fixtures.ts";
import { approveAndApply } from "../_test_util.ts";
import { duplicateSweep } from "./duplicate_sweep.ts";
import { contradictionSweep } from "./contradiction_sweep.ts";

const now = FIXTURE_NOW;
const params = resolveParams(duplicateSweep.manifest);

Deno.test("duplicateSweep proposes superseding extras with the earliest copy", () => {
  const store = openMemory(":memory:", { now: () => now });
  const a = putFact(store, "crm", ["acme", "tier", "Gold"], now - 3000);
  const b = putFact(store, "crm", ["ACME", "tier", " gold"], now - 2000);
  const [d] = duplicateSweep.analyze(store, params, now);
  equal(d?.target_ref, `grain:${a}`);
  equal(d?.proposal.kind, "ops");
  if (d?.proposal.kind !== "ops") throw new Error("unreachable");
  equal(d.proposal.ops.length, 1);
  equal(d.proposal.ops[0]?.op, "SUPERSEDE");
  equal(d.proposal.ops[0]?.op === "SUPERSEDE" && d.proposal.ops[0].target, b);
  store.close();
});

Deno.test("duplicateSweep stays quiet once its consolidation is applied", () => {
  const store = openMemory(":memory:", { now: () => now });
  putFact(store, "crm", ["acme", "tier", "Gold"], now - 3000);
  putFact(store, "crm", ["acme", "tier", "gold"], now - 2000);
  putFact(store, "crm", ["acme", "tier", "GOLD"], now - 1000);
  const [d] = duplicateSweep.analyze(store, params, now);
  approveAndApply(store, d!, now);
  equal(duplicateSweep.analyze(store, params, now).length, 0);
  equal(
    contradictionSweep.analyze(
      store,
      resolveParams(contradictionSweep.manifest),
      now,
    ).length,
    0,
  );
  store.close();
});

Deno.test("duplicateSweep blocks near duplicates by namespace and ignores id-only differences", () => {
  const store = openMemory(":memory:", { now: () => now });
  const text =
    "the nightly job rebuilds the search index from the primary replica";
  store.put({
    type: "observation",
    namespace: "a",
    created_at: now - 10,
    actor: "human:t",
    text,
  });
  store.put({
    type: "observation",
    namespace: "b",
    created_at: now - 9,
    actor: "human:t",
    text,
  });
  for (const id of ["101", "102"]) {
    store.put({
      type: "observation",
      namespace: "a",
      created_at: now - Number(id),
      actor: "human:t",
      text:
        `job ${id} rebuilt the search index from the primary replica in the nightly window without errors today`,
    });
  }
  equal(duplicateSweep.analyze(store, params, now).length, 0);
  store.put({
    type: "observation",
    namespace: "a",
    created_at: now - 8,
    actor: "human:t",
    text: text + ".",
  });
  equal(duplicateSweep.analyze(store, params, now).length, 1);
  store.close();
});
