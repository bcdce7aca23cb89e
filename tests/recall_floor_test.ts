import { ok } from "node:assert/strict";
import { runRecallEval } from "./bench/recall/_eval.ts";

/**
 * hit@5 per query kind on the small recall corpus, as recorded when the
 * ranking last changed on purpose (`deno task bench:recall --scale small`).
 * Lower a value only with a reason in docs/search.md.
 */
const RECORDED_HIT5: Record<string, number> = {
  exact: 1.0,
  rephrased: 0.967,
  typo: 1.0,
  phrase: 1.0,
  identifier: 1.0,
  cjk: 1.0,
  time: 1.0,
  conversational: 1.0,
  all: 0.992,
};
const RECORDED_HIT1_ALL = 0.953;
/** How far below the record a kind may fall before the build fails. */
const SLACK = 0.03;

Deno.test("search() keeps recall within a few points of the recorded figures", async (t) => {
  const report = await runRecallEval({ scale: "small" });
  for (const score of report.scores) {
    await t.step(`${score.kind}: hit@5 ${score.hit5.toFixed(3)}`, () => {
      const floor = (RECORDED_HIT5[score.kind] ?? 0.9) - SLACK;
      ok(
        score.hit5 >= floor,
        `${score.kind} hit@5 ${score.hit5.toFixed(3)} fell below ${
          floor.toFixed(3)
        }; misses:\n${
          report.misses.filter((m) =>
            score.kind === "all" || m.query.kind === score.kind
          )
            .map((m) =>
              `  [${m.query.id}] rank ${m.rank || ">10"}: ${m.query.text}`
            ).join("\n")
        }`,
      );
    });
  }
  await t.step("all: hit@1", () => {
    const all = report.scores.find((s) => s.kind === "all")!;
    ok(all.hit1 >= RECORDED_HIT1_ALL - SLACK, `hit@1 ${all.hit1.toFixed(3)}`);
  });
});
