import { equal } from "node:assert/strict";
import { openMemory } from "../../memory/mod.ts";
import { resolveParams } from "../manifest.ts";
import { FIXTURE_NOW, putFact } from "../_fixtures.ts";
import { approveAndApply } from "../_test_util.ts";
import { forkSurfacing } from "./fork_surfacing.ts";

const now = FIXTURE_NOW;

Deno.test("forkSurfacing merges competing heads into the most recent one", () => {
  const store = openMemory(":memory:", { now: () => now });
  const root = putFact(store, "ops", ["acme", "on_call", "ana"], now - 3000);
  const g = (object: string, at: number) => ({
    type: "fact" as const,
    namespace: "ops",
    created_at: at,
    actor: "human:t",
    subject: "acme",
    relation: "on_call",
    object,
  });
  store.supersede(root, g("bo", now - 2000));
  const latest = store.supersede(root, g("cy", now - 1000));
  const params = resolveParams(forkSurfacing.manifest);
  const [d] = forkSurfacing.analyze(store, params, now);
  equal(d?.target_ref, `grain:${root}`);
  equal(d?.evidence.length, 2);
  approveAndApply(store, d!, now);
  equal(forkSurfacing.analyze(store, params, now).length, 0);
  const heads = store.heads(root).map((h) => store.get(h)!.grain);
  equal(heads.every((h) => h.type === "fact" && h.object === "cy"), true);
  equal(store.isCurrent(latest), true);
  store.close();
});
