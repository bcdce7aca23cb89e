// deno-lint-ignore-file no-console
/**
 * `deno task bench:conversational --data <file> [--json] [--misses]
 * [--speakers a-user|b-user] [--no-names] [--no-captions] [--unscoped]
 * [--only TEXT] [--cli N]`: the conversational-memory eval on a LoCoMo-shaped file (not in
 * the repository; see docs/search.md). Prints hit@1, hit@5 and MRR per
 * question category and overall (categories 1–4; 5 apart), and the
 * in-process search latency; `--cli N` also asks N questions through
 * `deja search --json` and checks the CLI agrees with the library.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { readLocomo } from "./convert.ts";
import { runConversationalEval } from "./_eval.ts";

const { values } = parseArgs({
  // `deno task … -- --flag` passes the `--` through.
  args: Deno.args.filter((a) => a !== "--"),
  options: {
    data: { type: "string" },
    json: { type: "boolean" },
    misses: { type: "boolean" },
    speakers: { type: "string", default: "a-user" },
    "no-names": { type: "boolean" },
    "no-captions": { type: "boolean" },
    unscoped: { type: "boolean" },
    only: { type: "string" },
    cli: { type: "string" },
  },
});
if (!values.data) {
  console.error(
    "usage: deno task bench:conversational --data <locomo.json> [--json] [--misses] [--speakers a-user|b-user] [--no-names] [--no-captions] [--unscoped] [--only TEXT] [--cli N]",
  );
  Deno.exit(64);
}
const samples = await readLocomo(values.data);
const report = await runConversationalEval(samples, {
  speakers: values.speakers === "b-user" ? "b-user" : "a-user",
  names: !values["no-names"],
  captions: !values["no-captions"],
  ...(values.unscoped ? { unscoped: true } : {}),
  ...(values.only ? { only: values.only } : {}),
  ...(values.cli ? { cli: Number(values.cli) } : {}),
});
if (values.json) {
  console.log(JSON.stringify(report, null, 2));
} else {
  const f = (x: number) => x.toFixed(3);
  console.log(
    `conversational eval: ${report.samples} conversations, ${report.sessions} sessions, ${report.turns} turns (${values.speakers}, names ${
      values["no-names"] ? "off" : "on"
    }, captions ${values["no-captions"] ? "off" : "on"}${
      values.unscoped ? ", unscoped" : ""
    })\n`,
  );
  console.log("| category | questions | hit@1 | hit@5 | MRR |");
  console.log("|---|---|---|---|---|");
  const rows = [
    ...report.scores,
    ...(report.adversarial ? [report.adversarial] : []),
    ...(report.everything ? [report.everything] : []),
  ];
  for (const s of rows) {
    console.log(
      `| ${
        typeof s.category === "number" ? `${s.category} ` : ""
      }${s.name} | ${s.n} | ${f(s.hit1)} | ${f(s.hit5)} | ${f(s.mrr)} |`,
    );
  }
  if (report.skipped) {
    console.log(`\n${report.skipped} questions skipped (no evidence turn)`);
  }
  console.log(
    `\nsearch latency in process: p50 ${
      report.latency.p50.toFixed(2)
    } ms, p95 ${report.latency.p95.toFixed(2)} ms, max ${
      report.latency.max.toFixed(2)
    } ms`,
  );
  if (report.cli) {
    console.log(
      `CLI check: ${report.cli.agreed}/${report.cli.asked} questions return the same sessions in the same order through \`deja search --json\``,
    );
    for (const q of report.cli.disagreements) console.log(`  differs: ${q}`);
  }
  if (values.misses) {
    console.log("\nmisses:");
    for (const m of report.misses) {
      console.log(
        `- [${m.sample} c${m.category}] rank ${m.rank || ">10"}: ${m.question}`,
      );
      for (const e of m.evidence) {
        console.log(`    evidence ${e.slice(0, 160)}`);
      }
      for (const t of m.top) console.log(`    got ${t}`);
    }
  }
}
