import { deepEqual, equal, ok, throws } from "node:assert/strict";
import { openMemory } from "./open_memory.ts";
import {
  parseBatch,
  runBatch,
  TEMPLATE_NAMES,
  templateBatch,
} from "./init_templates.ts";

const NOW = Date.UTC(2026, 6, 1);

Deno.test("templateBatch() output parses and runs for every template", async (t) => {
  for (const name of TEMPLATE_NAMES) {
    await t.step(name, () => {
      const store = openMemory(":memory:", { now: () => NOW });
      const text = templateBatch(name, NOW);
      const report = runBatch(store, text);
      equal(
        report.grains + report.definitions + report.config,
        parseBatch(text).length,
      );
      store.close();
    });
  }
});

Deno.test("runBatch() plants the demo corpus, fork included", () => {
  const store = openMemory(":memory:", { now: () => NOW });
  runBatch(store, templateBatch("demo", NOW));
  const counts = store.counts();
  equal(counts.event, 8);
  equal(counts.skill, 1);
  equal(store.forks().length, 1);
  equal(store.forks()[0]?.heads.length, 2);
  ok(store.byType("fact").every((f) => f.grain.actor === "system:init"));
  deepEqual(Object.keys(store.definitions()), ["query:demo/refund-failures"]);
  store.close();
});

Deno.test("parseBatch() refuses malformed statements with the line number", async (t) => {
  const cases: Array<[string, RegExp]> = [
    ['ADD recommendation {"namespace":"x"}', /not a grain type/],
    ['ADD fact {"type":"fact"}', /come from the statement/],
    ["ADD fact {oops}", /does not parse/],
    ["DROP everything", /unknown statement/],
    ['CONFIG x/1 {"allow_destructive":true}', /unknown key/],
  ];
  for (const [text, pattern] of cases) {
    await t.step(
      text,
      () =>
        throws(
          () => parseBatch(`-- header\n${text}`),
          (e: unknown) =>
            e instanceof SyntaxError && /line 2/.test(e.message) &&
            pattern.test(e.message),
        ),
    );
  }
});

Deno.test("runBatch() validates everything before writing", () => {
  const store = openMemory(":memory:", { now: () => NOW });
  const text = [
    'ADD fact {"namespace":"n","created_at":1,"subject":"a","relation":"b","object":"c"}',
    'SUPERSEDE @nope WITH fact {"namespace":"n","created_at":2,"subject":"a","relation":"b","object":"d"}',
  ].join("\n");
  throws(() => runBatch(store, text), SyntaxError);
  equal(store.counts().fact, 0);
  throws(
    () => runBatch(store, 'ADD fact {"namespace":"n","created_at":1}'),
    SyntaxError,
  );
  equal(store.counts().fact, 0);
  store.close();
});
