import { deepEqual, ok } from "node:assert/strict";
import { fileURLToPath as fromFileUrl } from "node:url";
import { samplesDir } from "./bench/real/_layout.ts";
import { runRealEval } from "./bench/real/_eval.ts";
import { indexStores, openIndex } from "../src/index/mod.ts";
import { search } from "../src/search/mod.ts";
import { claudeCode } from "../src/sources/claude_code.ts";
import { codex } from "../src/sources/codex.ts";

/**
 * Overall hit@5 on the real-samples questions (`deno task bench:real`): 0.926
 * (75 of 81) when they were written, 0.963 (78 of 81) after the work-record
 * and agent-name looks. The floor sits a few points under so a ranking change
 * that loses real questions fails here.
 */
const HIT5_FLOOR = 0.95;

/**
 * The sets written blind (`heldout.json`: 0.975 after the fixes it
 * prompted; `heldout2.json`: 0.950 on first sight; `heldout3.json`: 0.950 on
 * first sight, 0.975 after its fixes; `heldout4.json`: 0.975 on first sight;
 * `heldout5.json`: 0.950 on first sight; `heldout6.json`: 1.000 on first
 * sight; `heldout7.json`, with paraphrased and half-remembered questions:
 * 0.875 on first sight; `heldout8.json`, asked as agents ask: 1.000 on
 * first sight; `heldout9.json`, with answers only a tool printed, follow-ups
 * and paraphrases: 0.900 on first sight; `heldout10.json`, symptoms, exact
 * commands, outcomes and pasted errors: 0.900 on first sight;
 * `heldout11.json`, decisions, values, terse agent asks, follow-ups and
 * questions in the session's language: 0.875 on first sight, 0.950 after its
 * fixes; `heldout12.json`, answers only a tool printed, files by their role,
 * what came next, what failed, vague memories: 0.825 on first sight, 0.850
 * after the parser fixes it prompted; `heldout13.json`, memories put as
 * statements, an agent's keyword calls, prompts with pasted material, outcomes,
 * times in words, which agent, values, rarely asked sessions: 0.825 on first
 * sight, 0.900 once sessions that were only a greeting were found;
 * `heldout14.json`, a developer back after weeks: how something was fixed,
 * what was decided, which file, which command, why it failed, what was
 * suggested, a project's recap, hurried typos: 0.975 on first sight;
 * `heldout15.json`, a project's own auth, tool errors, trouble with the
 * agent, small sessions, where code lives, decisions, pasted material,
 * other languages: 0.900 on first sight, 0.925 after; `heldout16.json`,
 * short and hurried asks, an agent's own, decisions, errors by their
 * symptom, files and values by their role, other languages: 0.875 on first
 * sight, 0.925 once a question naming a project searched its sessions
 * first and a local model short of memory was a failed model call;
 * `heldout17.json`, a teammate picking up the work: outcomes, times and
 * order, projects by name, commands and settings by purpose, which tool,
 * other languages and typos: 0.925 on first sight; `heldout18.json`, what the
 * agent said and wrote: explanations, code it wrote, what it asked back or
 * refused, plans, warnings: 0.975 on first sight, 1.000 once "Claude Code's
 * format" named a format, not the agent; `heldout19.json`, several
 * constraints at once and what is not meant: 0.975 on first sight, 1.000
 * once a language's greeting and "which cursor chat was" were read;
 * `heldout20.json`, the next prompt a person types, as a hook searches it:
 * 0.950 on first sight, 0.975 once "with deepseek" beside opencode named the
 * model; `heldout21.json` to `heldout25.json`, docs/search.md "Five more
 * blind sets"; `heldout26.json`, numbers half-remembered (ports, codes,
 * counts, versions): 0.975 on first sight, 1.000 once a session whose
 * output held a description went before weaker speech matches;
 * `heldout27.json`, the agent's behaviour: 0.925, then 0.975;
 * `heldout28.json`, a teammate or new agent who never saw the sessions:
 * 0.975, then 1.000; `heldout29.json`, the prompt that starts new work
 * on what a session did: 1.000; `heldout30.json`, one of near-twin
 * sessions picked by a contrast: 0.975; `heldout31.json`, one detail asked
 * back: 0.925, then 0.950 once a bad key was a refused call;
 * `heldout32.json`, typed in a hurry on a phone: 1.000; `heldout33.json`,
 * files and paths half-remembered: 1.000; `heldout34.json`, context told
 * at length before the ask: 0.875, then 0.975 once the words past the term
 * budget were still looked for); `heldout35.json`, commands and code
 * told by what they did: 0.950; `heldout36.json`, errors misremembered:
 * 1.000; `heldout37.json`, two details of one session together: 0.975;
 * `heldout38.json`, one detail misremembered: 0.775, then 0.900 once a far
 * better match of another agent went before the agent named;
 * `heldout39.json`, what the person told the agent: 0.975;
 * `heldout40.json`, from the code back to the conversation: 1.000;
 * `heldout41.json`, quoted but not quite: 0.975, then 1.000 once a
 * misquoted phrase was found by the most of its words one record holds;
 * `heldout42.json`, asked in another language: 0.950; `heldout43.json`,
 * what did not work: 0.975; `heldout44.json`, the machine and its setup:
 * 1.000; `heldout45.json`, choices among options: 1.000; `heldout46.json`,
 * vague and short: 1.000; `heldout47.json`, the order of two events in
 * one session: 0.975; `heldout48.json`, typed in a hurry with misspelled
 * words and names: 0.975; `heldout49.json`, numbers, sizes and versions
 * remembered roughly: 0.950; `heldout50.json`, what came out of the work:
 * 1.000; `heldout51.json`, told apart from similar sessions by what it did
 * not do: 0.975; `heldout52.json`, the agent or model named loosely, or
 * what the agent got wrong: 1.000; `heldout53.json`, a thing asked for by
 * its kind ("which library", "what command"): 0.950; `heldout54.json`, what
 * the agent told, advised or warned the person: 0.975; `heldout55.json`,
 * what an agent asks a recall tool before a task: 1.000; `heldout56.json`,
 * sessions told apart by roughly when they ran: 0.975 on first sight),
 * held a little under.
 */
const BLIND_SETS: Array<[string, number]> = [
  ["heldout.json", 0.925],
  ["heldout2.json", 0.9],
  ["heldout3.json", 0.925],
  ["heldout4.json", 0.925],
  ["heldout5.json", 0.9],
  ["heldout6.json", 0.95],
  ["heldout7.json", 0.85],
  ["heldout8.json", 0.95],
  ["heldout9.json", 0.875],
  ["heldout10.json", 0.875],
  ["heldout11.json", 0.9],
  ["heldout12.json", 0.8],
  ["heldout13.json", 0.875],
  ["heldout14.json", 0.95],
  ["heldout15.json", 0.875],
  ["heldout16.json", 0.85],
  ["heldout17.json", 0.875],
  ["heldout18.json", 0.95],
  ["heldout19.json", 0.925],
  ["heldout20.json", 0.925],
  ["heldout21.json", 0.95],
  ["heldout22.json", 0.875],
  ["heldout23.json", 0.925],
  ["heldout24.json", 0.925],
  ["heldout25.json", 0.9],
  ["heldout26.json", 0.95],
  ["heldout27.json", 0.925],
  ["heldout28.json", 0.95],
  ["heldout29.json", 0.95],
  ["heldout30.json", 0.925],
  ["heldout31.json", 0.9],
  ["heldout32.json", 0.95],
  ["heldout33.json", 0.95],
  ["heldout34.json", 0.925],
  ["heldout35.json", 0.925],
  ["heldout36.json", 0.95],
  ["heldout37.json", 0.95],
  ["heldout38.json", 0.875],
  ["heldout39.json", 0.95],
  ["heldout40.json", 0.95],
  ["heldout41.json", 0.95],
  ["heldout42.json", 0.925],
  ["heldout43.json", 0.95],
  ["heldout44.json", 0.95],
  ["heldout45.json", 0.95],
  ["heldout46.json", 0.95],
  ["heldout47.json", 0.95],
  ["heldout48.json", 0.95],
  ["heldout49.json", 0.925],
  ["heldout50.json", 0.95],
  ["heldout51.json", 0.925],
  ["heldout52.json", 0.95],
  ["heldout53.json", 0.925],
  ["heldout54.json", 0.925],
  ["heldout55.json", 0.95],
  ["heldout56.json", 0.9],
];

const samples = samplesDir();

Deno.test({
  name:
    "search() answers the real-samples questions with hit@5 above the floor",
  ignore: samples === undefined,
  async fn(t) {
    const report = await runRealEval({ samples: samples as string });
    await t.step("every answer session is indexed", () => {
      deepEqual(report.missingAnswers, []);
    });
    await t.step("overall hit@5", () => {
      const all = report.scores.find((s) => s.kind === "all");
      ok(all, "no overall score");
      ok(
        all.hit5 >= HIT5_FLOOR,
        `hit@5 ${all.hit5.toFixed(3)} fell below ${HIT5_FLOOR}; misses:\n${
          report.outcomes.filter((o) => o.rank === 0 || o.rank > 5).map((o) =>
            `  [${o.question.kind}/${o.question.id}] rank ${o.rank || ">10"}: ${
              o.question.text.split("\n").at(-1)
            }`
          ).join("\n")
        }`,
      );
    });
  },
});

for (const [file, floor] of BLIND_SETS) {
  Deno.test({
    name: `search() answers the blind ${file} questions with hit@5 ≥ ${floor}`,
    ignore: samples === undefined,
    async fn() {
      const questions = JSON.parse(
        await Deno.readTextFile(
          new URL(`./bench/real/${file}`, import.meta.url),
        ),
      );
      const report = await runRealEval({ samples: samples as string }, {
        questions,
      });
      deepEqual(report.missingAnswers, []);
      const all = report.scores.find((s) => s.kind === "all");
      ok(all && all.hit5 >= floor, `hit@5 ${all?.hit5.toFixed(3)} < ${floor}`);
    },
  });
}

/**
 * The blind sets that ship in the repo (so they run everywhere): near-
 * duplicate sessions (0.900 / 0.980 on first sight, 0.960 / 1.000 after the
 * fixes it prompted), paraphrased questions (0.660 / 0.880 on first
 * sight, 0.680 / 0.900 after) and search-box keyword queries (0.850 / 0.950
 * on first sight, 0.850 / 0.975 after). Floors a little under: [set, hit@1, hit@5].
 */
const SHIPPED_SETS: Array<[string, number, number]> = [
  ["neardup", 0.9, 0.96],
  ["paraphrase", 0.62, 0.86],
  ["keywords", 0.8, 0.95],
];

for (const [set, hit1, hit5] of SHIPPED_SETS) {
  Deno.test(`search() answers the blind ${set} set above its floors`, async () => {
    const dir = new URL(`./bench/${set}/`, import.meta.url);
    const questions = JSON.parse(
      await Deno.readTextFile(new URL("questions.json", dir)),
    );
    const report = await runRealEval(
      { home: fromFileUrl(new URL("home", dir)) },
      { questions },
    );
    deepEqual(report.missingAnswers, []);
    const all = report.scores.find((s) => s.kind === "all");
    ok(all, "no overall score");
    ok(all.hit1 >= hit1, `hit@1 ${all.hit1.toFixed(3)} < ${hit1}`);
    ok(all.hit5 >= hit5, `hit@5 ${all.hit5.toFixed(3)} < ${hit5}`);
  });
}

Deno.test("search() finds a session that says some keywords and prints the rest", async () => {
  const dir = await Deno.makeTempDir({ prefix: "deja-kw-" });
  const home = fromFileUrl(new URL("./bench/keywords/home", import.meta.url));
  try {
    await indexStores({
      indexPath: `${dir}/index.db`,
      harnesses: [claudeCode, codex],
      source: { home, env: {}, os: "linux" },
    });
    const db = openIndex(`${dir}/index.db`, { readOnly: true });
    try {
      // The answer never says "flaky" and prints "timezone" only in tool
      // output: no message holds the words together.
      const r = await search(db, "flaky test timezone", { now: Date.now() });
      const at = r.results.findIndex((h) =>
        h.session.id === "9e4c24dd-b864-447b-a434-47fb01829782"
      );
      ok(at >= 0 && at < 5, `rank ${at + 1}`);
    } finally {
      db.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
