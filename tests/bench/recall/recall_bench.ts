// deno-lint-ignore-file no-console
/**
 * `deno task bench:recall [--scale full|small] [--seed N] [--misses]
 * [--only ID]`: the recall eval. Prints hit@1, hit@5 and MRR per query kind
 * and the in-process search latency; `--misses` lists every query whose
 * answer was not first.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { runRecallEval } from "./_eval.ts";

const { values } = parseArgs({
  // `deno task … -- --flag` passes the `--` through.
  args: Deno.args.filter((a) => a !== "--"),
  options: {
    scale: { type: "string", default: "full" },
    seed: { type: "string" },
    misses: { type: "boolean" },
    only: { type: "string" },
  },
});
const scale = values.scale === "small" ? "small" : "full";
const report = await runRecallEval({
  scale,
  ...(values.seed ? { seed: Number(values.seed) } : {}),
  ...(values.only ? { only: values.only } : {}),
});
const f = (x: number) => x.toFixed(3);
console.log(`recall eval: ${scale} corpus, ${report.sessions} sessions\n`);
console.log("| kind | queries | hit@1 | hit@5 | MRR |");
console.log("|---|---|---|---|---|");
for (const s of report.scores) {
  console.log(
    `| ${s.kind} | ${s.n} | ${f(s.hit1)} | ${f(s.hit5)} | ${f(s.mrr)} |`,
  );
}
console.log(
  `\nsearch latency in process: p50 ${report.latency.p50.toFixed(2)} ms, p95 ${
    report.latency.p95.toFixed(2)
  } ms, max ${report.latency.max.toFixed(2)} ms`,
);
if (values.misses) {
  console.log("\nmisses:");
  for (const m of report.misses) {
    console.log(`- [${m.query.id}] rank ${m.rank || ">10"}: ${m.query.text}`);
    for (const t of m.top) console.log(`    ${t}`);
  }
}
