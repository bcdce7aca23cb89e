/**
 * The loop precision bench: runs every built-in analyzer over the planted
 * scenarios in `src/loop/_fixtures.ts` and prints precision and recall per
 * analyzer, plus the time each took. The default-on set follows this table
 * (docs/benchmarks.md, "Loop analyzers").
 *
 * Run: deno task bench:loop
 *
 * @module
 */
import { openMemory } from "../../src/memory/mod.ts";
import { ANALYZERS, resolveParams } from "../../src/loop/mod.ts";
import {
  FIXTURE_NOW,
  SCENARIOS,
  type Score,
  score,
} from "../../src/loop/_fixtures.ts";

interface Row extends Score {
  id: string;
  scenarios: number;
  ms: number;
  defaultOn: boolean;
}

function pct(n: number, d: number): string {
  return d === 0 ? "n/a" : (n / d).toFixed(2);
}

/**
 * Runs the bench and returns the table rows.
 *
 * @returns One row per analyzer.
 */
export function runBench(): Row[] {
  const rows: Row[] = [];
  for (const analyzer of ANALYZERS) {
    const row: Row = {
      id: analyzer.manifest.id,
      scenarios: 0,
      tp: 0,
      fp: 0,
      fn: 0,
      ms: 0,
      defaultOn: analyzer.manifest.defaultOn,
    };
    for (
      const sc of SCENARIOS.filter((s) => s.analyzer === analyzer.manifest.id)
    ) {
      const store = openMemory(":memory:", { now: () => FIXTURE_NOW });
      try {
        const labels = sc.build(store, FIXTURE_NOW);
        const params = resolveParams(analyzer.manifest, sc.params ?? {});
        const t0 = performance.now();
        const drafts = analyzer.analyze(store, params, FIXTURE_NOW);
        row.ms += performance.now() - t0;
        const s = score(drafts.map((d) => d.target_ref), labels);
        row.tp += s.tp;
        row.fp += s.fp;
        row.fn += s.fn;
        row.scenarios++;
      } finally {
        store.close();
      }
    }
    rows.push(row);
  }
  return rows;
}

/**
 * Formats rows as a Markdown table.
 *
 * @param rows Bench rows.
 * @returns The table text.
 */
export function table(rows: Row[]): string {
  const lines = [
    "| analyzer | default | scenarios | TP | FP | FN | precision | recall | ms |",
    "|---|---|---|---|---|---|---|---|---|",
  ];
  for (const r of rows) {
    lines.push(
      `| ${r.id} | ${
        r.defaultOn ? "on" : "off"
      } | ${r.scenarios} | ${r.tp} | ${r.fp} | ${r.fn} | ${
        pct(r.tp, r.tp + r.fp)
      } | ${pct(r.tp, r.tp + r.fn)} | ${r.ms.toFixed(1)} |`,
    );
  }
  return lines.join("\n") + "\n";
}

if (import.meta.main) {
  const rows = runBench();
  const out = table(rows);
  await Deno.stdout.write(new TextEncoder().encode(out));
}
