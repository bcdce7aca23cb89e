import { deepEqual, equal, ok, throws } from "node:assert/strict";
import { join } from "node:path";
import {
  convertLongMemEval,
  isLongMemEval,
  type LongMemEvalItem,
  parseLongMemEvalDate,
} from "./longmemeval.ts";
import { runLongMemEval } from "./_longmemeval_eval.ts";
import { assertHit5Floor } from "./_floor.ts";

const filler = (topic: string) => [
  { role: "user", content: `Can you help me plan ${topic} for next month?` },
  {
    role: "assistant",
    content:
      `Of course. For ${topic}, start with a budget, list what matters most, and book early: prices rise in the last weeks.`,
  },
];

/** Two invented questions over small haystacks, and one abstention. */
const ITEMS: LongMemEvalItem[] = [
  {
    question_id: "q1",
    question_type: "single-session-user",
    question: "Which city did I move to for my new job?",
    answer: "Rotterdam",
    question_date: "2023/06/10 (Sat) 18:00",
    haystack_dates: [
      "2023/05/01 (Mon) 09:00",
      "2023/05/14 (Sun) 20:30",
      "2023/06/02 (Fri) 07:45",
    ],
    haystack_session_ids: ["sharegpt_a_0", "answer_q1_1", "ultrachat_9"],
    haystack_sessions: [
      filler("a garden party"),
      [
        {
          role: "user",
          content:
            "I need quick lunch ideas. I just moved to Rotterdam for a new job at a shipping company, so my mornings are short.",
          has_answer: true,
        },
        {
          role: "assistant",
          content:
            "Congratulations on the move! Overnight oats, wraps and grain bowls all keep well for busy mornings.",
        },
      ],
      filler("a cycling holiday"),
    ],
    answer_session_ids: ["answer_q1_1"],
  },
  {
    question_id: "q2",
    question_type: "knowledge-update",
    question: "How many chess lessons do I take each week now?",
    answer: "three",
    question_date: "2023/07/01 (Sat) 10:00",
    haystack_dates: ["2023/05/03 (Wed) 12:00", "2023/06/20 (Tue) 19:10"],
    haystack_session_ids: ["answer_q2_1", "answer_q2_2"],
    haystack_sessions: [
      [
        {
          role: "user",
          content: "I take one chess lesson a week and want opening books.",
          has_answer: true,
        },
        { role: "assistant", content: "Try a repertoire book for beginners." },
      ],
      [
        {
          role: "user",
          content:
            "Update: I now take three chess lessons each week, any tips for endgames?",
          has_answer: true,
        },
        { role: "assistant", content: "Study king and pawn endings first." },
      ],
    ],
    answer_session_ids: ["answer_q2_2", "answer_q2_1"],
  },
  {
    question_id: "q1_abs",
    question_type: "single-session-user",
    question: "Which city did I move to for my new school?",
    answer: "You did not mention this information.",
    question_date: "2023/06/10 (Sat) 18:00",
    haystack_dates: ["2023/05/14 (Sun) 20:30"],
    haystack_session_ids: ["answer_q1_1"],
    haystack_sessions: [[{
      role: "user",
      content: "I just moved to Rotterdam for a new job.",
    }]],
    answer_session_ids: ["answer_q1_1"],
  },
];

Deno.test("parseLongMemEvalDate reads the benchmark's dates, with or without weekday and time", () => {
  equal(
    parseLongMemEvalDate("2023/05/30 (Tue) 23:40"),
    Date.UTC(2023, 4, 30, 23, 40),
  );
  equal(parseLongMemEvalDate("2024-01-05"), Date.UTC(2024, 0, 5));
  throws(() => parseLongMemEvalDate("yesterday"), /Cannot read the date/);
});

Deno.test("isLongMemEval tells a haystack file from a LoCoMo one", () => {
  ok(isLongMemEval(ITEMS));
  ok(!isLongMemEval([{ sample_id: "conv-1", qa: [], conversation: {} }]));
  ok(!isLongMemEval({}));
});

Deno.test("convertLongMemEval writes each haystack as a project of its own", async () => {
  const home = await Deno.makeTempDir();
  try {
    const store = await convertLongMemEval(ITEMS, home);
    equal(store.questions.length, 3);
    equal(store.sessions, 6);
    equal(store.turns, 11);
    const q1 = store.questions[0]!;
    equal(q1.project, "q1");
    equal(q1.now, Date.UTC(2023, 5, 10, 18));
    const id = q1.sessionIdOf.get("answer_q1_1")!;
    equal(q1.haystackIdOf.get(id), "answer_q1_1");
    // The abstention question's copy of the same chat is a session of its own.
    ok(store.questions[2]!.sessionIdOf.get("answer_q1_1") !== id);
    const lines = (await Deno.readTextFile(
      join(home, ".claude/projects/-home-u-longmemeval-q1", `${id}.jsonl`),
    )).trim().split("\n").map((l) => JSON.parse(l));
    deepEqual(lines.map((l) => l.type), ["user", "assistant"]);
    equal(lines[0].timestamp, "2023-05-14T20:30:00.000Z");
    equal(lines[1].parentUuid, lines[0].uuid);
    equal(lines[0].cwd, "/home/u/longmemeval/q1");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("runLongMemEval indexes the haystacks and scores each question against its own", async () => {
  const report = await runLongMemEval(ITEMS);
  equal(report.questions, 3);
  equal(report.skipped, 0);
  const all = report.scores.find((s) => s.category === "all")!;
  equal(all.n, 2);
  equal(all.hit1, 1, JSON.stringify(report.misses));
  deepEqual(
    report.scores.map((s) => s.name),
    ["knowledge-update", "single-session-user", "all"],
  );
  equal(report.abstention?.n, 1);
  const only = await runLongMemEval(ITEMS, { only: "chess" });
  equal(only.questions, 1);
});

/**
 * The LongMemEval-shaped set written blind for this repository
 * (`longmemeval_synth.json`: 40 questions, 102 invented chats, facts said in
 * passing, most questions sharing 0–2 content words with the answer):
 * hit@5 0.833 on first sight, 0.861 since the things of a kind are searched
 * as the kind (session 27), held a little under.
 */
const SYNTH_HIT5_FLOOR = 0.83;

Deno.test("the blind LongMemEval-shaped set keeps its hit@5", async () => {
  const items = JSON.parse(
    await Deno.readTextFile(
      new URL("./longmemeval_synth.json", import.meta.url),
    ),
  ) as LongMemEvalItem[];
  assertHit5Floor(await runLongMemEval(items), 36, SYNTH_HIT5_FLOOR);
});
