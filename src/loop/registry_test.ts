import { deepEqual, equal, ok } from "node:assert/strict";
import { openMemory } from "../memory/mod.ts";
import { ANALYZERS, findAnalyzer } from "./registry.ts";
import { isAnalyzerId, resolveParams } from "./manifest.ts";
import { TEMPLATES } from "./templates.ts";
import { FIXTURE_NOW, SCENARIOS, score } from "./_fixtures.ts";

Deno.test("ANALYZERS holds the twelve built-ins with valid manifests", async (t) => {
  equal(ANALYZERS.length, 12);
  equal(new Set(ANALYZERS.map((a) => a.manifest.id)).size, 12);
  for (const { manifest: m } of ANALYZERS) {
    await t.step(m.id, () => {
      ok(isAnalyzerId(m.id));
      ok(m.title && m.description);
      resolveParams(m);
      equal(new Set(m.params.map((p) => p.name)).size, m.params.length);
    });
  }
  deepEqual(
    ANALYZERS.filter((a) => !a.manifest.defaultOn).map((a) => a.manifest.id),
    ["deja.goal_stagnation/1", "deja.retention_sweep/1"],
  );
  deepEqual(
    ANALYZERS.filter((a) => a.manifest.autoApply === "structural").map((a) =>
      a.manifest.id
    ),
    [
      "deja.duplicate_sweep/1",
    ],
  );
});

Deno.test("findAnalyzer() accepts an id, an id without major, or a name", () => {
  for (
    const name of [
      "deja.fork_surfacing/1",
      "deja.fork_surfacing",
      "fork_surfacing",
      "FORK_SURFACING",
    ]
  ) {
    equal(findAnalyzer(name)?.manifest.id, "deja.fork_surfacing/1");
  }
  equal(findAnalyzer("nope"), undefined);
});

Deno.test("every built-in finds its planted findings and no decoy", async (t) => {
  for (const sc of SCENARIOS) {
    await t.step(`${sc.analyzer}: ${sc.name}`, () => {
      const store = openMemory(":memory:", { now: () => FIXTURE_NOW });
      try {
        const labels = sc.build(store, FIXTURE_NOW);
        const analyzer = findAnalyzer(sc.analyzer)!;
        const drafts = analyzer.analyze(
          store,
          resolveParams(analyzer.manifest, sc.params ?? {}),
          FIXTURE_NOW,
        );
        const s = score(drafts.map((d) => d.target_ref), labels);
        equal(
          s.fp,
          0,
          `false positives: ${drafts.map((d) => d.target_ref).join(", ")}`,
        );
        // The one known miss: a paraphrase that only an embedding tier could see.
        equal(s.fn, sc.analyzer === "deja.duplicate_sweep/1" ? 1 : 0);
        for (const d of drafts) {
          equal(d.analyzer, sc.analyzer);
          equal(d.origin, "analyzer");
          ok(TEMPLATES[d.template.id], `template ${d.template.id} is known`);
          ok(d.evidence.length <= 64);
        }
      } finally {
        store.close();
      }
    });
  }
});
