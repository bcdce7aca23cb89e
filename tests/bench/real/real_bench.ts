// deno-lint-ignore-file no-console
/**
 * `deno task bench:real [--misses] [--only ID] [--questions FILE] [--home DIR]
 * [--with DIR ...]`:
 * how well search answers questions about the real transcript samples in
 * `../shared/samples`. `--questions` asks the questions of a JSON file
 * instead of the bundled ones (an array of `{id, kind, text, answers, now?}`
 * as in `questions.ts`): a held-out set written by someone else. `--home`
 * indexes a ready HOME instead of the samples (`tests/bench/neardup/home`,
 * with its `questions.json`). `--with` (repeatable) indexes another ready
 * HOME beside it, whose sessions compete with the answers as a longer
 * history's would.
 * Prints hit@1, hit@5 and MRR per question kind and overall, and the
 * in-process search latency; `--misses` lists every question whose answer
 * was not first, with the first three results, how the query was read and
 * the answer's best snippet.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { samplesDir } from "./_layout.ts";
import { runRealEval } from "./_eval.ts";
import { QUESTION_KINDS, type RealQuestion } from "./questions.ts";

const { values } = parseArgs({
  // `deno task … -- --flag` passes the `--` through.
  args: Deno.args.filter((a) => a !== "--"),
  options: {
    misses: { type: "boolean" },
    only: { type: "string" },
    questions: { type: "string" },
    home: { type: "string" },
    with: { type: "string", multiple: true },
  },
});
const samples = samplesDir();
const source = values.home
  ? { home: values.home }
  : samples
  ? { samples }
  : undefined;
if (!source) {
  console.log("bench:real: ../shared/samples is absent; nothing to measure");
} else {
  const report = await runRealEval(source, {
    detail: values.misses === true,
    ...(values.only ? { only: values.only } : {}),
    ...(values.questions
      ? { questions: await readQuestions(values.questions) }
      : {}),
    ...(values.with ? { distractors: values.with } : {}),
  });
  const f = (x: number) => x.toFixed(3);
  console.log(
    `real-samples eval: ${report.sessions} sessions, ${report.outcomes.length} questions\n`,
  );
  if (report.missingAnswers.length) {
    console.log(
      `answers not in the index (check the keys): ${
        report.missingAnswers.join(", ")
      }\n`,
    );
  }
  console.log("| kind | questions | hit@1 | hit@5 | MRR |");
  console.log("|---|---|---|---|---|");
  for (const s of report.scores) {
    console.log(
      `| ${s.kind} | ${s.n} | ${f(s.hit1)} | ${f(s.hit5)} | ${f(s.mrr)} |`,
    );
  }
  console.log(
    `\nsearch latency in process: p50 ${
      report.latency.p50.toFixed(1)
    } ms, p95 ${report.latency.p95.toFixed(1)} ms, max ${
      report.latency.max.toFixed(1)
    } ms`,
  );
  if (values.misses) {
    console.log("\nmisses (answer not first):");
    for (const o of report.outcomes.filter((o) => o.rank !== 1)) {
      console.log(
        `\n- [${o.question.kind}/${o.question.id}] rank ${o.rank || ">10"}: ${
          o.question.text.replace(/\n/g, " ⏎ ").slice(0, 160)
        }`,
      );
      console.log(`    expected ${o.question.answers.join(", ")}`);
      if (o.reading) console.log(`    read as ${o.reading}`);
      for (const t of o.top) console.log(`    ${t}`);
      if (o.answerSnippet) console.log(`    answer: ${o.answerSnippet}`);
    }
  }
}

/** Reads a question file, naming what is wrong with it. */
async function readQuestions(path: string): Promise<RealQuestion[]> {
  const data = JSON.parse(await Deno.readTextFile(path)) as unknown;
  if (!Array.isArray(data)) throw new Error(`${path}: not a JSON array`);
  return data.map((q, i) => {
    // A kind of the file's own is scored apart, after the known ones.
    const ok = q && typeof q.id === "string" && typeof q.text === "string" &&
      Array.isArray(q.answers) && typeof q.kind === "string" && q.kind !== "";
    if (!ok) {
      throw new Error(
        `${path}: question ${i} needs id, text, answers and a kind (such as ${
          QUESTION_KINDS.join(", ")
        })`,
      );
    }
    return q as RealQuestion;
  });
}
