/**
 * A deterministic recall corpus: Claude Code transcripts (coding sessions,
 * conversational-memory chats, CJK sessions, time pairs) with look-alike
 * distractors, and graded queries with relevance judgements. Same seed and
 * scale → byte-identical files and queries.
 *
 * @module
 */
import { CODING, type CodingEpisode, type Turn } from "./_coding.ts";
import { MEMORY, TOPICS } from "./_memory.ts";
import { CJK, CJK_DISTRACTORS, TIME } from "./_cjk_time.ts";

/** The kinds of query the eval grades separately. */
export const QUERY_KINDS = [
  "exact",
  "rephrased",
  "typo",
  "phrase",
  "identifier",
  "cjk",
  "time",
  "conversational",
] as const;

/** One kind of query. */
export type QueryKind = typeof QUERY_KINDS[number];

/** A query with its relevance judgements. */
export interface RecallQuery {
  /** Stable id, e.g. `redis-pin/rephrased/0`. */
  id: string;
  /** What kind of recall it tests. */
  kind: QueryKind;
  /** The query as a person would type it. */
  text: string;
  /** Session id → grade (2 the answer, 1 related). */
  relevant: Record<string, number>;
}

/** Options for {@linkcode generateRecallCorpus}. */
export interface RecallCorpusOptions {
  /** "full" for the bench, "small" for the CI floor. */
  scale: "full" | "small";
  /** PRNG seed; default 7. */
  seed?: number;
}

/** What was generated. */
export interface RecallCorpus {
  /** Sessions written. */
  sessions: number;
  /** Queries with judgements. */
  queries: RecallQuery[];
  /** The clock the time-scoped queries are relative to. */
  now: number;
}

/** The eval's clock: Monday 2026-11-30 12:00 UTC. */
export const RECALL_NOW = Date.UTC(2026, 10, 30, 12);
const DAY = 86_400_000;

function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Session {
  id: string;
  project: string;
  start: number;
  turns: Turn[];
}

const CODING_ASKS = [
  "can you add logging around the {0} {1} code so we can see what happens",
  "write a test for the {0} handling, it has no coverage",
  "the dashboard for {0} shows odd numbers for {1}, can you check the query",
  "refactor the {0} module, it's getting long and the {1} part is confusing",
  "document how {0} and {1} interact in the README",
  "rename the {0} config options to match the {1} naming",
  "review this diff touching {0} and {1} before I merge it",
  "what does the {0} setting do, and is it related to {1}?",
  "bump the {0} dependency and check nothing else changes for {1}",
  "there's a TODO about {0} next to the {1} code, can you resolve it",
];

const CODING_REPLIES = [
  "I read through the {0} code. The {1} values are loaded once at startup, so a restart is needed after changing them. I left the behavior as it is and added a comment.",
  "Added structured logging with the request id around the {0} calls; {1} errors now log at warn with the upstream status.",
  "The {0} tests now cover the empty case, the error path and a large {1} input. All green locally.",
  "Split the {0} module into smaller files; the {1} helpers moved to their own file with no behavior change.",
  "The numbers were off because the {0} query counted {1} rows twice after a join. Switched to a distinct count.",
  "Renamed the options and kept the old {0} names as deprecated aliases so existing {1} configs keep working.",
  "The diff looks fine. One nit: the {0} error message should mention which {1} failed.",
  "That setting controls how long {0} waits before giving up; it only affects {1} indirectly through retries.",
  "Bumped it; the changelog lists nothing that touches {1}, and the {0} tests pass.",
  "Resolved the TODO by moving the {0} check before the {1} call, which is what the comment asked for.",
];

const CODING_WRAPUPS: Turn[][] = [
  [{ u: "great, commit this" }, {
    $: "git commit -am 'wip'\n[main 3c1f0aa] wip\n 2 files changed, 31 insertions(+), 4 deletions(-)",
  }],
  [{ u: "run the tests" }, {
    $: "npm test\nTest Files  14 passed (14)\n     Tests  212 passed (212)",
  }, { a: "All tests pass." }],
  [{ u: "thanks, that's it for now" }],
  [],
];

const GENERIC_NOUNS = [
  "config",
  "handler",
  "endpoint",
  "schema",
  "queue",
  "logger",
  "session",
  "middleware",
  "template",
  "parser",
  "scheduler",
  "metrics",
  "dashboard",
  "service",
  "client",
  "cache",
  "test",
  "deploy",
];

const CHAT_QUESTIONS = [
  "Can you explain how compound interest works?",
  "What were the main causes of the French Revolution?",
  "How do vaccines train the immune system?",
  "Write a short poem about autumn leaves.",
  "What is the difference between weather and climate?",
  "How do I convert a recipe from cups to grams?",
  "Summarize the plot of a classic mystery novel in a paragraph.",
  "What are some tips for public speaking?",
  "How does a bill become a law?",
  "Explain photosynthesis in simple terms.",
  "What are good habits for a productive morning?",
  "How do noise cancelling headphones work?",
];

const GENERIC_OPENINGS = [
  "That's a great question, and there are a few things worth considering.",
  "Here are some suggestions that many people find helpful.",
  "It depends on your situation, but here is a general overview.",
  "Good thinking to plan this ahead of time.",
  "Absolutely, I can help with that.",
];

const GENERIC_MIDDLES = [
  "Everyone's situation is different, so adjust this to what works for you.",
  "It can take a few weeks before you notice a real difference.",
  "Try to be patient with yourself while you build the habit.",
  "Small, consistent steps usually work better than big changes.",
  "If you are unsure, a professional can give advice for your specific case.",
  "Keeping notes along the way makes it easier to see what is working.",
  "Budget and time are often the deciding factors here.",
  "Many people find it useful to set a simple reminder.",
];

const GENERIC_CLOSINGS = [
  "I hope this helps, and let me know if you have any other questions!",
  "Feel free to ask if you want more detail on any of these points.",
  "Good luck, and enjoy the process!",
  "Let me know how it goes.",
];

function fill(template: string, nouns: readonly string[]): string {
  return template.replace(/\{(\d)\}/g, (_, i) => nouns[Number(i)] ?? "it");
}

/**
 * Writes the corpus as Claude Code transcripts under `home` and returns the
 * queries with their judgements.
 *
 * @param home The HOME to write `.claude/projects/...` under.
 * @param options Scale and seed.
 * @returns The session count, the queries and the clock.
 */
export async function generateRecallCorpus(
  home: string,
  options: RecallCorpusOptions,
): Promise<RecallCorpus> {
  const rand = prng(options.seed ?? 7);
  const pick = <T>(xs: readonly T[]): T =>
    xs[Math.floor(rand() * xs.length)] as T;
  const full = options.scale === "full";
  const sessions: Session[] = [];
  const queries: RecallQuery[] = [];
  const newId = (): string => {
    const hex = Array.from(
      { length: 32 },
      () => Math.floor(rand() * 16).toString(16),
    ).join("");
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${
      hex.slice(17, 20)
    }-${hex.slice(20, 32)}`;
  };
  const randomStart = (): number =>
    RECALL_NOW - Math.floor((20 + rand() * 280) * DAY);
  const add = (project: string, turns: Turn[], start = randomStart()) => {
    const s: Session = { id: newId(), project, start, turns };
    sessions.push(s);
    return s;
  };
  const codingSession = (project: string, nouns: readonly string[]): Turn[] => {
    const turns: Turn[] = [];
    const rounds = 2 + Math.floor(rand() * 2);
    for (let i = 0; i < rounds; i++) {
      const ns = [pick(nouns), pick(nouns)];
      const k = Math.floor(rand() * CODING_ASKS.length);
      turns.push({ u: fill(CODING_ASKS[k]!, ns) });
      if (rand() < 0.4) {
        turns.push({
          $: `rg -n ${ns[0]} src/${project}\nsrc/${project}/${
            ns[0]
          }.ts:42:  // ${ns[1]} handling`,
        });
      }
      turns.push({ a: fill(CODING_REPLIES[k]!, ns) });
    }
    return turns;
  };

  // Coding episodes, their look-alikes, and queries.
  const siblings = full ? 2 : 1;
  for (const ep of CODING) {
    const target = add(ep.project, [...ep.turns, ...pick(CODING_WRAPUPS)]);
    for (let i = 0; i < siblings; i++) {
      add(ep.project, codingSession(ep.project, ep.nouns));
    }
    codingQueries(ep, target.id, queries, rand);
  }
  const fillers = full ? 220 : 20;
  const allNouns = [
    ...new Set([...CODING.flatMap((e) => e.nouns), ...GENERIC_NOUNS]),
  ];
  for (let i = 0; i < fillers; i++) {
    const project = pick(CODING).project;
    const nouns = [
      pick(allNouns),
      pick(allNouns),
      pick(allNouns),
      pick(GENERIC_NOUNS),
    ];
    add(project, codingSession(project, nouns));
  }

  // Conversational memory: a fact said in passing among long replies.
  // Replies read like a chat assistant's: topic advice wrapped in the
  // generic sentences every long answer shares.
  const advice = (topic: keyof typeof TOPICS, n: number): string => {
    const pool = TOPICS[topic].advice;
    const out: string[] = [pick(GENERIC_OPENINGS)];
    for (let i = 0; i < n; i++) out.push(pick(pool));
    for (let i = 0; i < 2; i++) out.push(pick(GENERIC_MIDDLES));
    out.push(pick(GENERIC_CLOSINGS));
    return [...new Set(out)].join(" ");
  };
  const chat = (
    topic: keyof typeof TOPICS,
    opener: string,
    fact: string | undefined,
  ): Turn[] => {
    const turns: Turn[] = [{ u: opener }, { a: advice(topic, 6) }];
    const follow = [
      "That's helpful, thanks.",
      "Good to know.",
      "Makes sense.",
      "Okay, I'll try that.",
    ];
    const rounds = 2 + Math.floor(rand() * 3);
    const factAt = Math.floor(rand() * rounds);
    for (let i = 0; i < rounds; i++) {
      const other = pick(TOPICS[topic].openers);
      const text = i === factAt && fact
        ? `${pick(follow)} ${fact} ${other}`
        : `${pick(follow)} ${other}`;
      turns.push({ u: text }, { a: advice(topic, 5) });
    }
    return turns;
  };
  const topics = Object.keys(TOPICS) as Array<keyof typeof TOPICS>;
  for (const ep of MEMORY) {
    const target = add("notes", chat(ep.topic, ep.opener, ep.fact));
    ep.questions.forEach((text, i) =>
      queries.push({
        id: `${ep.key}/conversational/${i}`,
        kind: "conversational",
        text,
        relevant: { [target.id]: 2 },
      })
    );
  }
  const perTopic = full ? 8 : 3;
  for (const topic of topics) {
    for (let i = 0; i < perTopic; i++) {
      const t = TOPICS[topic];
      add("notes", chat(topic, pick(t.openers), pick(t.facts)));
    }
  }
  const chats = full ? 120 : 10;
  for (let i = 0; i < chats; i++) {
    const topic = pick(topics);
    add("notes", [
      { u: pick(CHAT_QUESTIONS) },
      { a: advice(topic, 7) },
      { u: pick(TOPICS[topic].openers) },
      { a: advice(topic, 6) },
    ]);
  }

  // CJK sessions and look-alikes.
  for (const ep of CJK) {
    const target = add(ep.project, ep.turns);
    ep.queries.forEach((text, i) =>
      queries.push({
        id: `${ep.key}/cjk/${i}`,
        kind: "cjk",
        text,
        relevant: { [target.id]: 2 },
      })
    );
  }
  for (const turns of CJK_DISTRACTORS) add("api", turns);

  // Time pairs: same topic, two dates.
  for (const ep of TIME) {
    const pair = ep.turns.map((turns, i) =>
      add(ep.project, turns, RECALL_NOW - Math.round(ep.ages[i]! * DAY))
    );
    ep.queries.forEach(([text, which], i) =>
      queries.push({
        id: `${ep.key}/time/${i}`,
        kind: "time",
        text,
        relevant: {
          [pair[which]!.id]: 2,
          [pair[1 - which]!.id]: 1,
        },
      })
    );
  }

  for (const s of sessions) await writeSession(home, s, rand);
  return { sessions: sessions.length, queries, now: RECALL_NOW };
}

function codingQueries(
  ep: CodingEpisode,
  target: string,
  queries: RecallQuery[],
  rand: () => number,
): void {
  const relevant = { [target]: 2 };
  const q = (kind: QueryKind, text: string, i = 0) =>
    queries.push({ id: `${ep.key}/${kind}/${i}`, kind, text, relevant });
  q("exact", ep.exact);
  ep.rephrased.forEach((text, i) => q("rephrased", text, i));
  q("typo", typo(ep.exact, rand));
  q("phrase", `"${ep.phrase}"`);
  if (ep.identifier) q("identifier", ep.identifier);
}

/** One deterministic typo in the longest plain word of a query. */
export function typo(text: string, rand: () => number): string {
  const words = text.split(" ");
  let at = 0;
  let best = -1;
  words.forEach((w, i) => {
    const score = (/^[a-z]+$/i.test(w) ? 100 : 0) + w.length;
    if (score > best) [at, best] = [i, score];
  });
  const w = words[at]!;
  const i = 1 + Math.floor(rand() * (w.length - 3));
  const kind = Math.floor(rand() * 3);
  const wrong = kind === 0
    ? w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2)
    : kind === 1
    ? w.slice(0, i) + w.slice(i + 1)
    : w.slice(0, i) + w[i] + w.slice(i);
  words[at] = wrong === w ? w.slice(0, i) + w.slice(i + 1) : wrong;
  return words.join(" ");
}

async function writeSession(
  home: string,
  s: Session,
  rand: () => number,
): Promise<void> {
  const cwd = `/home/dev/src/${s.project}`;
  const dir = `${home}/.claude/projects/${cwd.replaceAll("/", "-")}`;
  await Deno.mkdir(dir, { recursive: true });
  let t = s.start;
  let parent: string | null = null;
  let n = 0;
  const lines: string[] = [];
  const uuid = () =>
    `${s.id.slice(0, 24)}${(n++).toString(16).padStart(12, "0")}`;
  const line = (type: "user" | "assistant", message: unknown) => {
    const id = uuid();
    t += Math.floor((20 + rand() * 160) * 1000);
    lines.push(JSON.stringify({
      parentUuid: parent,
      isSidechain: false,
      userType: "external",
      cwd,
      sessionId: s.id,
      version: "2.1.52",
      gitBranch: "main",
      type,
      message,
      uuid: id,
      timestamp: new Date(t).toISOString(),
    }));
    parent = id;
  };
  for (const turn of s.turns) {
    if ("u" in turn) line("user", { role: "user", content: turn.u });
    else if ("a" in turn) {
      line("assistant", {
        role: "assistant",
        model: "claude-opus-4-6",
        content: [{ type: "text", text: turn.a }],
      });
    } else {
      const nl = turn.$.indexOf("\n");
      const command = nl < 0 ? turn.$ : turn.$.slice(0, nl);
      const output = nl < 0 ? "" : turn.$.slice(nl + 1);
      const toolId = `toolu_${s.id.slice(0, 8)}${n}`;
      line("assistant", {
        role: "assistant",
        model: "claude-opus-4-6",
        content: [{
          type: "tool_use",
          id: toolId,
          name: "Bash",
          input: { command },
        }],
      });
      line("user", {
        role: "user",
        content: [{
          type: "tool_result",
          tool_use_id: toolId,
          content: output,
          is_error: /error|fail/i.test(output),
        }],
      });
    }
  }
  await Deno.writeTextFile(`${dir}/${s.id}.jsonl`, lines.join("\n") + "\n");
}
