// deno-lint-ignore-file no-console
/**
 * `deno task bench:conversational --data <file> [--json] [--misses]
 * [--speakers a-user|b-user] [--no-names] [--no-captions] [--unscoped]
 * [--one-project] [--only TEXT] [--cli N]`: the conversational-memory eval on a LoCoMo- or
 * LongMemEval-shaped file (not in the repository; see docs/search.md), told
 * apart by its shape. Prints hit@1, hit@5 and MRR per question category or
 * type and overall (LoCoMo: categories 1–4, 5 apart, then all five;
 * LongMemEval: abstention questions apart), and the in-process search
 * latency; `--cli N` (LoCoMo) also asks N questions through
 * `deja search --json` and checks the CLI agrees with the library. The
 * speaker and caption options are LoCoMo's (LongMemEval's turns already say
 * user or assistant).
 *
 * @module
 */
import { parseArgs } from "node:util";
import type { LocomoSample } from "./convert.ts";
import { type CategoryScore, runConversationalEval } from "./_eval.ts";
import { runLongMemEval } from "./_longmemeval_eval.ts";
import { isLongMemEval } from "./longmemeval.ts";

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
    "one-project": { type: "boolean" },
    only: { type: "string" },
    cli: { type: "string" },
  },
});
if (!values.data) {
  console.error(
    "usage: deno task bench:conversational --data <locomo.json or longmemeval.json> [--json] [--misses] [--speakers a-user|b-user] [--no-names] [--no-captions] [--unscoped] [--one-project] [--only TEXT] [--cli N]",
  );
  Deno.exit(64);
}
const data = JSON.parse(await Deno.readTextFile(values.data)) as unknown;
const f = (x: number) => x.toFixed(3);
const table = (rows: readonly CategoryScore[]) => {
  console.log("| category | questions | hit@1 | hit@5 | MRR |");
  console.log("|---|---|---|---|---|");
  for (const s of rows) {
    console.log(
      `| ${
        typeof s.category === "number" ? `${s.category} ` : ""
      }${s.name} | ${s.n} | ${f(s.hit1)} | ${f(s.hit5)} | ${f(s.mrr)} |`,
    );
  }
};
const latency = (l: { p50: number; p95: number; max: number }) =>
  console.log(
    `\nsearch latency in process: p50 ${l.p50.toFixed(2)} ms, p95 ${
      l.p95.toFixed(2)
    } ms, max ${l.max.toFixed(2)} ms`,
  );
if (isLongMemEval(data)) {
  const report = await runLongMemEval(
    data,
    values.only ? { only: values.only } : {},
  );
  if (values.json) {
    console.log(JSON.stringify(report, null, 2));
  } else {
    console.log(
      `LongMemEval-shaped eval: ${report.questions} questions, ${report.sessions} sessions, ${report.turns} turns\n`,
    );
    table([
      ...report.scores,
      ...(report.abstention ? [report.abstention] : []),
    ]);
    if (report.skipped) {
      console.log(
        `\n${report.skipped} questions skipped (no answer session in the haystack)`,
      );
    }
    latency(report.latency);
    if (values.misses) {
      console.log("\nmisses:");
      for (const m of report.misses) {
        console.log(
          `- [${m.id} ${m.type}] rank ${m.rank || ">10"}: ${m.question}`,
        );
        for (const e of m.evidence) console.log(`    evidence ${e}`);
        for (const t of m.top) console.log(`    got ${t}`);
      }
    }
  }
  Deno.exit(0);
}
if (!Array.isArray(data)) {
  console.error(
    `bench:conversational: "${values.data}" is neither LoCoMo- nor LongMemEval-shaped (an array of samples or of questions)`,
  );
  Deno.exit(65);
}
const samples = data as LocomoSample[];
const report = await runConversationalEval(samples, {
  speakers: values.speakers === "b-user" ? "b-user" : "a-user",
  names: !values["no-names"],
  captions: !values["no-captions"],
  ...(values.unscoped ? { unscoped: true } : {}),
  ...(values["one-project"] ? { oneProject: true } : {}),
  ...(values.only ? { only: values.only } : {}),
  ...(values.cli ? { cli: Number(values.cli) } : {}),
});
if (values.json) {
  console.log(JSON.stringify(report, null, 2));
} else {
  console.log(
    `conversational eval: ${report.samples} conversations, ${report.sessions} sessions, ${report.turns} turns (${values.speakers}, names ${
      values["no-names"] ? "off" : "on"
    }, captions ${values["no-captions"] ? "off" : "on"}${
      values.unscoped ? ", unscoped" : ""
    }${values["one-project"] ? ", one project" : ""})\n`,
  );
  table([
    ...report.scores,
    ...(report.adversarial ? [report.adversarial] : []),
    ...(report.everything ? [report.everything] : []),
  ]);
  if (report.skipped) {
    console.log(`\n${report.skipped} questions skipped (no evidence turn)`);
  }
  latency(report.latency);
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
