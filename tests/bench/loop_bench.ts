/**
 * The loop precision bench: runs every built-in analyzer over the planted
 * scenarios in `src/loop/_fixtures.ts` and prints precision and recall per
 * analyzer, plus the time each took. The default-on set follows this table
 * (docs/benchmarks.md, "Loop analyzers").
 *
 * Run: deno task bench:loop [--grains N]   (N = size of the synthetic
 * timing file, default 20000; 0 skips it)
 *
 * @module
 */
import { parseArgs } from "node:util";
import { openMemory } from "../../src/memory/mod.ts";
import { ANALYZERS, resolveParams, runLoop } from "../../src/loop/mod.ts";
import {
  FIXTURE_NOW,
  prng,
  putEvent,
  putFact,
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

/**
 * Times every analyzer and a whole dry run on a synthetic file of `n`
 * grains (facts, observations, tool events, skills), to check the
 * "seconds on a large file" target.
 *
 * @param n Grains to generate.
 * @returns Markdown lines.
 */
export async function scaleBench(n: number): Promise<string> {
  const now = FIXTURE_NOW;
  const day = 86_400_000;
  const rand = prng(42);
  const dir = await Deno.makeTempDir();
  const store = openMemory(`${dir}/scale.db`, { now: () => now });
  const words =
    "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon phi chi psi omega"
      .split(" ");
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const text = (k: number) =>
    Array.from({ length: k }, () => `${pick(words)}${Math.floor(rand() * 50)}`)
      .join(" ");
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const at = now - Math.floor(rand() * 60) * day - i;
    const r = rand();
    if (r < 0.4) {
      putFact(store, `ns${i % 10}`, [
        `subject${Math.floor(rand() * n / 4)}`,
        `rel${i % 20}`,
        text(2),
      ], at);
    } else if (r < 0.7) {
      store.put({
        type: "observation",
        namespace: `ns${i % 10}`,
        created_at: at,
        actor: "human:bench",
        text: text(10),
      });
    } else if (r < 0.95) {
      const err = rand() < 0.1;
      putEvent(
        store,
        `tool${i % 50}`,
        err,
        err ? { error: `failure kind ${i % 30}` } : { ok: true },
        at,
      );
    } else {
      store.put({
        type: "skill",
        namespace: "skills",
        created_at: at,
        actor: "human:bench",
        name: `skill${i}`,
        proficiency: rand(),
        practice_count: Math.floor(rand() * 10),
      });
    }
  }
  const loadMs = performance.now() - t0;
  const lines = [
    `Synthetic file: ${n} grains (loaded in ${(loadMs / 1000).toFixed(1)} s).`,
    "",
    "| analyzer | drafts | ms |",
    "|---|---|---|",
  ];
  for (const a of ANALYZERS) {
    const t = performance.now();
    const drafts = a.analyze(store, resolveParams(a.manifest), now);
    lines.push(
      `| ${a.manifest.id} | ${drafts.length} | ${
        (performance.now() - t).toFixed(0)
      } |`,
    );
  }
  const run = await runLoop(store, { dryRun: true }, now);
  lines.push(
    "",
    `Whole \`loop run --dry-run\` (default-on analyzers): ${
      run.duration_ms.toFixed(0)
    } ms, ${run.proposed} drafts.`,
  );
  store.close();
  await Deno.remove(dir, { recursive: true });
  return lines.join("\n") + "\n";
}

if (import.meta.main) {
  const { values } = parseArgs({
    // `deno task … -- --flag` passes the `--` through.
    args: Deno.args.filter((a) => a !== "--"),
    options: { grains: { type: "string" } },
  });
  const out = table(runBench());
  await Deno.stdout.write(new TextEncoder().encode(out + "\n"));
  const n = Number(values.grains ?? 20_000);
  if (n > 0) {
    await Deno.stdout.write(new TextEncoder().encode(await scaleBench(n)));
  }
}
