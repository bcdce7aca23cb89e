import { equal } from "node:assert/strict";
import { openMemory } from "../../memory/mod.ts";
import { resolveParams } from "../manifest.ts";
import { FIXTURE_NOW, putFact } from "../_fixtures.ts";
import { approveAndApply } from "../_test_util.ts";
import { contradictionSweep } from "./contradiction_sweep.ts";
import { duplicateSweep } from "./duplicate_sweep.ts";

const now = FIXTURE_NOW;

Deno.test("contradictionSweep resolves to the latest value and the result is clean", () => {
  const store = openMemory(":memory:", { now: () => now });
  putFact(store, "ops", ["acme", "pinned_to", "v1"], now - 3000);
  putFact(store, "ops", ["acme", "pinned_to", "v2"], now - 2000);
  const params = resolveParams(contradictionSweep.manifest);
  const [d] = contradictionSweep.analyze(store, params, now);
  equal(d?.target_ref, "entity:ops/acme/pinned_to");
  equal(d?.metric?.name, "contradiction_recurrence");
  approveAndApply(store, d!, now);
  equal(contradictionSweep.analyze(store, params, now).length, 0);
  equal(
    duplicateSweep.analyze(store, resolveParams(duplicateSweep.manifest), now)
      .length,
    0,
  );
  const live = store.byType("fact", { currentOnly: true }).map((f) =>
    f.grain.object
  );
  equal(live.every((o) => o === "v2"), true);
  store.close();
});

Deno.test("contradictionSweep takes extra relations from its params", () => {
  const store = openMemory(":memory:", { now: () => now });
  putFact(store, "ops", ["acme", "favourite_editor", "vim"], now - 3000);
  putFact(store, "ops", ["acme", "favourite_editor", "emacs"], now - 2000);
  equal(
    contradictionSweep.analyze(
      store,
      resolveParams(contradictionSweep.manifest),
      now,
    ).length,
    0,
  );
  const params = resolveParams(contradictionSweep.manifest, {
    extra_relations: "favourite_editor, other",
  });
  equal(contradictionSweep.analyze(store, params, now).length, 1);
  store.close();
});
