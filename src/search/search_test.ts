import { deepEqual, equal, ok, rejects } from "node:assert/strict";
import { DejaError } from "../core/errors.ts";
import type { Harness } from "../core/harness.ts";
import { jsonDirHarness } from "../core/_test_harness.ts";
import type { Role, Session } from "../core/types.ts";
import { indexStores } from "../index/index_stores.ts";
import { openIndex } from "../index/schema.ts";
import { search, type SearchResult } from "./search.ts";
import { projectOfName } from "./_projects.ts";
import { partnerOf, peopleNamed } from "./_speakers.ts";

const NOW = Date.UTC(2026, 10, 30, 12);
const DAY = 86_400_000;

/** A role and its text; a third element marks an error output of that tool. */
type Turn = [Role, string] | [Role, string, string];

interface Fixture {
  id: string;
  project?: string;
  /** Days before NOW. */
  age: number;
  turns: Turn[];
}

/** A harness that reads our own JSON fixture files: one session per file. */
function fixtureHarness(dir: string, id = "fixture"): Harness {
  return jsonDirHarness(id, dir, (value, path): Session => {
    const f = value as Fixture;
    const start = NOW - f.age * DAY;
    return {
      harness: id,
      id: f.id,
      project: f.project ?? "demo",
      path,
      title: f.turns.find((t) => t[0] === "user")?.[1].slice(0, 80) ?? "",
      started: start,
      updated: start + f.turns.length * 60_000,
      records: f.turns.map(([role, text, failedTool], seq) => ({
        role,
        text,
        seq,
        time: start + seq * 60_000,
        locator: { path, line: seq + 1 },
        ...(failedTool ? { tool: failedTool, flags: { isError: true } } : {}),
      })),
      marks: [],
    };
  });
}

const SESSIONS: Fixture[] = [
  {
    id: "redis-pin",
    project: "api",
    age: 40,
    turns: [
      ["user", "ioredis keeps dropping connections in cluster mode"],
      ["assistant", "The createRedisClient helper disables the offline queue."],
      [
        "assistant",
        "We pinned ioredis to 5.3.2 until upstream fixes cluster mode.",
      ],
    ],
  },
  {
    id: "redis-ttl",
    project: "api",
    age: 10,
    turns: [
      ["user", "what TTL should the redis cache use for sessions"],
      ["assistant", "Ten minutes for hot keys, an hour for cold ones."],
    ],
  },
  {
    id: "deploy-eu",
    project: "infra",
    age: 20,
    turns: [
      ["user", "the deployment to eu-west-1 broke with a certificate error"],
      [
        "assistant",
        "Root cause: CloudFront wants the certificate in us-east-1.",
      ],
    ],
  },
  {
    id: "tool-only",
    project: "infra",
    age: 5,
    turns: [
      ["user", "run the integration suite"],
      ["tool-output", "Error: connect ECONNREFUSED 127.0.0.1:5432"],
    ],
  },
  {
    id: "user-says",
    project: "web",
    age: 30,
    turns: [
      ["user", "the quokka widget renders twice"],
      ["assistant", "I will look at the render path."],
    ],
  },
  {
    id: "assistant-says",
    project: "web",
    age: 30,
    turns: [
      ["user", "check the layout"],
      ["assistant", "the quokka widget renders twice in the layout"],
    ],
  },
  {
    id: "cjk-pool",
    project: "api",
    age: 12,
    turns: [
      ["user", "数据库连接池耗尽了，订单接口一直超时"],
      ["assistant", "我们把连接池大小从10调到50。"],
    ],
  },
  {
    id: "node-recent",
    project: "api",
    age: 5,
    turns: [
      ["user", "upgrade node for the api service"],
      ["assistant", "We upgraded the api service to Node 22."],
    ],
  },
  {
    id: "node-old",
    project: "api",
    age: 195,
    turns: [
      ["user", "upgrade node for the api service"],
      ["assistant", "We upgraded the api service to Node 20."],
    ],
  },
  {
    id: "pasted-log",
    project: "web",
    age: 3,
    turns: [
      [
        "user",
        Array.from(
          { length: 20 },
          (_, i) =>
            `2026-11-2${i % 10} 10:00:0${
              i % 10
            } ERROR zebrafish pipeline stalled at step ${i}`,
        ).join("\n"),
      ],
      ["assistant", "That log is from the nightly job."],
    ],
  },
  {
    id: "zebrafish-talk",
    project: "web",
    age: 3,
    turns: [
      ["user", "why does the zebrafish pipeline stall at night?"],
      ["assistant", "The zebrafish pipeline stalls because the disk fills up."],
    ],
  },
  {
    id: "snake-case",
    project: "worker",
    age: 15,
    turns: [
      ["user", "rename retry_backoff_ms in the worker config"],
      ["assistant", "Renamed it; the old key still works."],
    ],
  },
];

async function indexFixtures(
  fixtures: readonly Fixture[],
): Promise<{ path: string; dir: string }> {
  const dir = await Deno.makeTempDir({ prefix: "deja-search-" });
  await Deno.mkdir(`${dir}/store`);
  for (const f of fixtures) {
    await Deno.writeTextFile(`${dir}/store/${f.id}.json`, JSON.stringify(f));
  }
  const path = `${dir}/index.db`;
  await indexStores({
    indexPath: path,
    harnesses: [fixtureHarness(`${dir}/store`)],
    source: { home: dir, env: {}, os: "linux" },
    now: () => NOW,
  });
  return { path, dir };
}

/** Indexes fixtures into a fresh store and hands its open index to `fn`. */
async function withFixtures(
  fixtures: readonly Fixture[],
  fn: (db: ReturnType<typeof openIndex>) => Promise<void>,
): Promise<void> {
  const store = await indexFixtures(fixtures);
  const db = openIndex(store.path, { readOnly: true });
  try {
    await fn(db);
  } finally {
    db.close();
  }
}

const shared = indexFixtures(SESSIONS);

async function ask(
  query: string,
  options: Partial<Parameters<typeof search>[2]> = {},
): Promise<SearchResult> {
  const db = openIndex((await shared).path, { readOnly: true });
  try {
    return await search(db, query, { now: NOW, ...options });
  } finally {
    db.close();
  }
}

function ids(result: SearchResult): string[] {
  return result.results.map((h) => h.session.id);
}

/** Six unrelated sessions, so a word's IDF means something. */
function gardenFiller(): Fixture[] {
  return Array.from({ length: 6 }, (_, i) => ({
    id: `filler-${i}`,
    age: 10 + i,
    turns: [
      ["user", `notes about the garden, week ${i}`],
      ["assistant", "Water the tomatoes twice a week."],
    ],
  }));
}

/** What a query finds among the fixtures and the six garden sessions. */
async function foundAmong(
  fixtures: readonly Fixture[],
  query: string,
): Promise<SearchResult> {
  let found: SearchResult | undefined;
  await withFixtures([...fixtures, ...gardenFiller()], async (db) => {
    found = await search(db, query, { now: NOW });
  });
  return found!;
}

Deno.test("search() walks the ladder and names each result's tier", async (t) => {
  const cases: Array<{
    name: string;
    query: string;
    first: string;
    tier: string;
    check?: (r: SearchResult) => void;
  }> = [
    {
      name: "exact: every word in one session",
      query: "ioredis pinned cluster",
      first: "redis-pin",
      tier: "exact",
    },
    {
      name:
        "relaxed: a word no session holds with the rest is ignored and named",
      query: "ioredis cluster kubernetes",
      first: "redis-pin",
      tier: "relaxed",
      check: (r) => {
        deepEqual(r.ignored, ["kubernetes"]);
        ok(r.why?.includes('"kubernetes"'));
      },
    },
    {
      name: "stemmed: deploy finds deployment (Porter keeps them apart)",
      query: "deploy certificate",
      first: "deploy-eu",
      tier: "stemmed",
    },
    {
      name: "fuzzy: a typo is corrected with did-you-mean",
      query: "ioredsi cluster",
      first: "redis-pin",
      tier: "fuzzy",
      check: (r) => ok(r.didYouMean?.includes("ioredis"), r.didYouMean),
    },
    {
      name: "relevance: a question whose words are not all in one session",
      query: "how much did the cluster outage cost in refunds and invoices?",
      first: "redis-pin",
      tier: "relevance",
    },
  ];
  for (const c of cases) {
    await t.step(c.name, async () => {
      const r = await ask(c.query);
      equal(ids(r)[0], c.first, JSON.stringify(r.ladder));
      equal(r.results[0]?.tier, c.tier);
      ok(r.ladder && r.ladder.length >= 1);
      c.check?.(r);
    });
  }
});

Deno.test("search() matches identifiers in every spelling", async (t) => {
  for (
    const [query, first] of [
      ["create redis client", "redis-pin"],
      ["create_redis_client", "redis-pin"],
      ["retryBackoffMs", "snake-case"],
      ["`retry_backoff_ms`", "snake-case"],
    ]
  ) {
    await t.step(query!, async () => {
      equal(ids(await ask(query!))[0], first);
    });
  }
});

Deno.test("search() finds CJK text by bigrams and marks the whole run", async () => {
  const r = await ask("连接池大小");
  equal(ids(r)[0], "cjk-pool");
  equal(ids(await ask("数据库连接池为什么耗尽"))[0], "cjk-pool");
  // The bigrams of one run meet: one range covers them.
  const marked = r.results[0]!.snippets.flatMap((s) =>
    s.ranges.map(([a, b]) => s.text.slice(a, b))
  );
  ok(marked.includes("连接池大小"), JSON.stringify(marked));
});

Deno.test("search() puts sessions from a time said in words first", async (t) => {
  await t.step("last week", async () => {
    const r = await ask("node upgrade for the api last week", {
      explain: true,
    });
    equal(ids(r)[0], "node-recent");
    equal(r.results[0]?.explain?.inWindow, true);
    ok(r.reading?.time?.phrase === "last week");
  });
  await t.step("in may", async () => {
    equal(ids(await ask("node upgrade for the api in may"))[0], "node-old");
  });
});

Deno.test("search() keeps a relative time where it is, even when nothing falls in it", async () => {
  await withFixtures([
    {
      id: "a-year-ago",
      age: 366,
      turns: [["user", "the node upgrade broke the build"]],
    },
  ], async (db) => {
    const r = await search(db, "what broke in the node upgrade last week?", {
      now: NOW,
    });
    const from = Date.parse(r.reading?.time?.from ?? "");
    ok(NOW - from <= 15 * DAY, r.reading?.time?.from);
    // A month named without its year still moves to the year that has it.
    const june = new Date(NOW - 366 * DAY).toLocaleString("en", {
      month: "long",
      timeZone: "UTC",
    });
    const named = await search(
      db,
      `what broke in the node upgrade in ${june}?`,
      {
        now: NOW,
      },
    );
    equal(ids(named)[0], "a-year-ago");
    ok(
      NOW - Date.parse(named.reading?.time?.from ?? "") > 300 * DAY,
      named.reading?.time?.from,
    );
  });
});

Deno.test("search() ranks a user turn above an assistant turn saying the same", async () => {
  const r = await ask("quokka widget renders twice");
  deepEqual(ids(r).slice(0, 2), ["user-says", "assistant-says"]);
});

Deno.test("search() damps a session whose match is a pasted log", async () => {
  const r = await ask("zebrafish pipeline", { explain: true });
  equal(ids(r)[0], "zebrafish-talk");
  const pasted = r.results.find((h) => h.session.id === "pasted-log");
  equal(pasted?.explain?.signals.pastedLog, 0.88);
});

Deno.test("search() bounds signals so they never outrank plain relevance", async () => {
  const r = await ask("redis", { explain: true, limit: 20 });
  for (const hit of r.results) {
    const p = hit.explain!;
    ok(p.signals.product >= 0.75 && p.signals.product <= 1.3);
    equal(
      Math.round(p.relevance * p.signals.product * 1000) / 1000,
      Math.round(p.adjusted * 1000) / 1000,
    );
  }
});

Deno.test("search() orders equal scores deterministically", async () => {
  const a = await ask("api service upgrade");
  const b = await ask("api service upgrade");
  deepEqual(ids(a), ids(b));
});

Deno.test("search() says why nothing matched", async (t) => {
  await t.step("filters removed sessions", async () => {
    const r = await ask("ioredis", { project: "web" });
    equal(r.total, 0);
    equal(
      r.why,
      'The filters excluded 1 matching session (in project api): project "web" left out 1',
    );
  });
  await t.step(
    "each filter that left sessions out, with how many",
    async () => {
      const r = await ask("ioredis", { project: "api", harnesses: ["codex"] });
      equal(r.total, 0);
      ok(r.why?.endsWith(": harness codex left out 1"), r.why);
      // A since before any date leaves nothing out and is not named.
      const far = await ask("ioredis", { project: "web", since: -1e20 });
      ok(far.why?.endsWith(': project "web" left out 1'), far.why);
    },
  );
  await t.step("only in work records, which the filters left out", async () => {
    const r = await ask("ECONNREFUSED", {
      roles: ["user", "assistant"],
      session: "0000",
    });
    equal(r.total, 0);
    ok(r.why?.startsWith("The filters excluded"), r.why);
    ok(r.why?.endsWith('session "0000" left out 1'), r.why);
  });
  await t.step("only in work records, when asked for speech", async () => {
    const r = await ask("ECONNREFUSED", { roles: ["user", "assistant"] });
    equal(r.total, 0);
    ok(r.why?.includes("only in tool-output records"), r.why);
    ok(r.why?.includes("--role tool-output"), r.why);
    equal((await ask("ECONNREFUSED", { roles: ["tool-output"] })).total, 1);
  });
  await t.step("found in work records when nothing said holds it", async () => {
    const r = await ask("ECONNREFUSED");
    equal(r.total, 1);
    equal(r.results[0]?.foundIn, "work");
    equal(r.results[0]?.snippets[0]?.role, "tool-output");
    ok(r.ladder?.some((s) => s.searched.endsWith("in work records")));
  });
  await t.step("never seen, with a suggestion", async () => {
    const r = await ask("kubernetse");
    equal(r.total, 0);
    ok(
      r.why?.startsWith('No session matches: "kubernetse" was never seen'),
      r.why,
    );
  });
  await t.step("a typo, fuzzy off: no correction looked for", async () => {
    // The same typo corrects to "ioredis" with fuzzy on (the ladder above).
    const r = await ask("ioredsi cluster", { fuzzy: false });
    equal(r.didYouMean, undefined);
    ok(!r.results.some((h) => h.tier === "fuzzy"));
  });
  await t.step("seen but never together: each word's sessions", async () => {
    const r = await ask("quokka ioredis");
    ok(r.total >= 2, `${r.total}`);
    ok(r.results.every((h) => h.tier === "relevance"));
    ok(
      r.why?.endsWith(
        "are seen, but never together: sessions holding some of them",
      ),
      r.why,
    );
  });
  await t.step("nothing indexed yet", async () => {
    const dir = await Deno.makeTempDir({ prefix: "deja-search-empty-" });
    const db = openIndex(`${dir}/index.db`);
    const r = await search(db, "anything", { now: NOW });
    db.close();
    ok(r.why?.includes("run deja index"), r.why);
  });
});

Deno.test("search() reads a named day or a month without its year against the sessions there are", async (t) => {
  const ageOf = (iso: string) => (NOW - Date.parse(`${iso}T09:00:00Z`)) / DAY;
  await withFixtures([
    {
      id: "may-third",
      age: ageOf("2025-05-03"),
      turns: [
        ["user", "my mom and I made some dinner together last night"],
        ["assistant", "That sounds lovely."],
      ],
    },
    {
      id: "june-garden",
      age: ageOf("2025-06-12"),
      turns: [
        ["user", "we planted tomatoes in the garden and ate dinner outside"],
        ["assistant", "Tomatoes like the sun."],
      ],
    },
    {
      id: "dinner-party",
      age: 3,
      turns: [
        ["user", "Maria wants a dinner party: plan the dinner menu with Maria"],
        ["assistant", "Dinner menu for Maria's dinner party: soup, then fish."],
      ],
    },
  ], async (db) => {
    await t.step("a named day puts its sessions first", async () => {
      const r = await search(
        db,
        "who did I have dinner with on May 3, 2025?",
        {
          now: NOW,
          explain: true,
        },
      );
      equal(ids(r)[0], "may-third");
      equal(r.results[0]?.explain?.inWindow, true);
    });
    await t.step(
      "a month without its year means the latest one with sessions",
      async () => {
        const r = await search(db, "where did we eat dinner in june?", {
          now: NOW,
        });
        equal(ids(r)[0], "june-garden");
        // The reading says the window the ranking used.
        equal(r.reading?.time?.from.slice(0, 7), "2025-06");
      },
    );
    await t.step(
      "a month or season named with its year puts its sessions first, weak as their match is",
      async () => {
        const r = await search(
          db,
          "who did I have dinner with in June 2025?",
          { now: NOW, explain: true },
        );
        equal(ids(r)[0], "june-garden");
        equal(r.results[0]?.explain?.inWindow, true);
        const summer = await search(
          db,
          "who did I have dinner with in summer 2025?",
          { now: NOW },
        );
        equal(ids(summer)[0], "june-garden");
      },
    );
    await t.step("without the date the strongest match leads", async () => {
      const r = await search(db, "who did Maria have dinner with?", {
        now: NOW,
      });
      equal(ids(r)[0], "dinner-party");
    });
    await t.step(
      "a day nothing falls on reaches forward to the days it was told in",
      async () => {
        // Nothing on May 1 (or within the zones' slack of it): the
        // session two days on is the first that can tell of it.
        const r = await search(db, "who made dinner on May 1, 2025?", {
          now: NOW,
          explain: true,
        });
        equal(ids(r)[0], "may-third");
        equal(r.results[0]?.explain?.inWindow, true);
        equal(r.reading?.time?.to.slice(0, 10), "2025-05-03");
      },
    );
  });
});

Deno.test("search() corrects only words the index never saw, and never by a short stem", async (t) => {
  await withFixtures([
    {
      id: "chapter",
      project: "home",
      age: 2,
      turns: [
        ["user", "I am starting a new chapter: a new job and a new city"],
        ["assistant", "Congratulations on the new job."],
      ],
    },
    {
      id: "review",
      project: "shop",
      age: 3,
      turns: [
        ["user", "the customer left a negative review about the checkout"],
        ["assistant", "Reply to the negative review politely."],
      ],
    },
    {
      id: "schema",
      project: "shop",
      age: 4,
      turns: [
        ["user", "de migraties van het schema zijn klaar (3 Mar)"],
        ["assistant", "The migrations ran; the database schema is current."],
      ],
    },
    {
      id: "spinner",
      project: "shop",
      age: 5,
      turns: [
        ["user", "the checkout page is stuck loading forever"],
        ["assistant", "The spinner waits on a request that never returns."],
      ],
    },
  ], async (db) => {
    await t.step("a word said in another project is no typo", async () => {
      const r = await search(db, "negative job", { now: NOW, project: "home" });
      equal(r.didYouMean, undefined);
      ok(!r.ladder?.some((s) => s.tier === "fuzzy" && s.sessions > 0));
    });
    await t.step(
      "a long word is not read as its stem's neighbour",
      async () => {
        const r = await search(db, "negativity job", {
          now: NOW,
          project: "home",
        });
        ok(!(r.didYouMean ?? "").includes("new"), r.didYouMean);
      },
    );
    await t.step("a typo of an indexed word is still corrected", async () => {
      const r = await search(db, "negative reveiw", { now: NOW });
      ok(r.didYouMean?.includes("review"), r.didYouMean);
      // A slip in the second letter: the first pair starts no word.
      const second = await search(db, "negative rwview", { now: NOW });
      ok(second.didYouMean?.includes("review"), second.didYouMean);
    });
    await t.step(
      "a swapped pair is read as the English word, not a nearer stem",
      async () => {
        // "migratoins" is two edits from the stem of Dutch "migraties" and
        // from nothing nearer but one swap from "migrations".
        const r = await search(db, "migratoins", { now: NOW });
        ok(r.didYouMean?.includes("migrations"), r.didYouMean);
        // "database" stems to "databas", which FTS5 would stem again to
        // "databa" if asked for as it is.
        const db2 = await search(db, "databse schema", { now: NOW });
        ok(db2.didYouMean?.includes("database"), db2.didYouMean);
        equal(db2.results[0]?.tier, "fuzzy");
        // One slip of "married" is "marred", whose stem "mar" is too
        // little of the word to offer.
        const married = await search(db, "married", { now: NOW });
        ok(!(married.didYouMean ?? "").includes("mar"), married.didYouMean);
        // A letter left out leaves a stem of four: "loding" is "loading".
        const loding = await search(db, "checkout loding", { now: NOW });
        equal(ids(loding)[0], "spinner");
        ok(loding.didYouMean?.includes("load"), loding.didYouMean);
        // A pasted run of letters is no typo: nothing is made of its slips.
        const blob = await search(db, `zqxw${"v".repeat(8000)}`, { now: NOW });
        equal(blob.didYouMean, undefined);
      },
    );
  });
});

Deno.test("search() reads a named day and 'recently' for the person or thing the question names", async (t) => {
  const ageOf = (iso: string) => (NOW - Date.parse(`${iso}T09:00:00Z`)) / DAY;
  await withFixtures([
    {
      id: "tom-talk",
      project: "letters-b",
      age: ageOf("2025-05-23"),
      turns: [
        ["user", "my talk was accepted at the conference"],
        ["assistant", "Congratulations on the accepted talk."],
      ],
    },
    {
      id: "maria-internship",
      project: "letters-a",
      age: ageOf("2025-05-27"),
      turns: [
        ["user", "Maria got accepted for a fashion internship last week"],
        ["assistant", "Great news for Maria."],
      ],
    },
    {
      id: "maria-party",
      project: "letters-a",
      age: 3,
      turns: [
        ["user", "Maria wants a dinner party next month"],
        ["assistant", "Noted."],
      ],
    },
    {
      id: "ana-older",
      project: "letters-c",
      age: 400,
      turns: [
        ["user", "Ana painted the fence and then painted the shed"],
        ["assistant", "Two coats on the fence and the shed."],
      ],
    },
    {
      id: "ana-latest",
      project: "letters-c",
      age: 300,
      turns: [
        ["user", "Ana painted a sunset"],
        ["assistant", "Nice."],
      ],
    },
    {
      id: "bo-garage",
      project: "letters-d",
      age: 100,
      turns: [
        ["user", "Bo painted the garage door and painted the gate"],
        ["assistant", "The garage door took two coats of paint."],
      ],
    },
  ], async (db) => {
    await t.step(
      "a named day's session goes first for holding the name, not for a plain word another person's day shares",
      async () => {
        const r = await search(
          db,
          "what did Maria get accepted for on May 23, 2025?",
          { now: NOW },
        );
        equal(ids(r)[0], "maria-internship");
        ok(ids(r).includes("tom-talk"));
      },
    );
    await t.step(
      "'recently' counts back from the named person's latest session",
      async () => {
        const r = await search(db, "what did Ana paint recently?", {
          now: NOW,
          explain: true,
        });
        equal(ids(r)[0], "ana-latest");
        equal(r.results[0]?.explain?.inWindow, true);
      },
    );
  });
});

Deno.test("search() asks a name only one project's sessions say of that project first", async () => {
  const said = (id: string, age: number, text: string): Fixture => ({
    id,
    project: "letters-a",
    age,
    turns: [["user", text], ["assistant", "Caroline, that sounds good."]],
  });
  await withFixtures([
    said("a-lake", 40, "Caroline here: I painted a sunrise by the lake"),
    said("a-group", 30, "Caroline again, back from the support group"),
    said("a-agency", 20, "Caroline: the adoption agency called back today"),
    said("a-chat", 10, "Caroline: thanks for the long chat"),
    {
      id: "b-river",
      project: "letters-b",
      age: 15,
      turns: [
        ["user", "we painted the boathouse by the river, then the river dock"],
        ["assistant", "Two coats of paint by the river."],
      ],
    },
    {
      id: "b-other",
      project: "letters-b",
      age: 5,
      turns: [["user", "the river was high this spring"], ["assistant", "Ok."]],
    },
  ], async (db) => {
    const r = await search(db, "What did Caroline paint by the river?", {
      now: NOW,
    });
    equal(ids(r)[0], "a-lake");
    ok(
      r.ladder?.some((s) => s.searched.endsWith("in project letters-a")),
      JSON.stringify(r.ladder),
    );
    equal(projectOfName(db, ["Caroline"]), "letters-a");
    // Said in two projects' sessions, or in too few of one's: no project.
    equal(projectOfName(db, ["painted"]), undefined);
    equal(projectOfName(db, ["boathouse"]), undefined);
    equal(projectOfName(db, ["Caroline", "boathouse"]), "letters-a");
  });
});

Deno.test("search() asks a person's name of the sessions that say it first when one project holds every chat", async () => {
  const chat = (id: string, age: number, turns: Turn[]): Fixture => ({
    id,
    project: "chats",
    age,
    turns,
  });
  await withFixtures([
    chat("c-lake", 40, [
      ["user", "I painted a sunrise by the lake"],
      ["assistant", "Hey Caroline, that sunrise sounds lovely."],
    ]),
    chat("c-group", 30, [
      ["user", "back from the support group"],
      ["assistant", "Thanks Caroline, glad it went well."],
    ]),
    chat("c-agency", 20, [
      ["user", "the adoption agency called back today"],
      ["assistant", "Congrats, Caroline!"],
    ]),
    chat("j-river", 15, [
      ["user", "we painted the boathouse by the river, then the river dock"],
      ["assistant", "Two coats of paint by the river."],
    ]),
    chat("j-other", 5, [
      ["user", "the river was high this spring"],
      ["assistant", "Hey Jon, that sounds cold."],
    ]),
  ], async (db) => {
    const r = await search(db, "What did Caroline paint by the river?", {
      now: NOW,
    });
    equal(ids(r)[0], "c-lake");
    ok(ids(r).includes("j-river"));
    ok(
      r.ladder?.some((s) =>
        s.searched.endsWith("in the sessions saying caroline")
      ),
      JSON.stringify(r.ladder),
    );
    deepEqual(peopleNamed(db, ["Caroline"]), ["caroline"]);
    // Said in most sessions of the only project there is: that project
    // narrows nothing, so it is no owner of the name.
    equal(projectOfName(db, ["Caroline"]), undefined);
    // Greeted in one session only, or never greeted: no person.
    deepEqual(peopleNamed(db, ["Jon"]), []);
    deepEqual(peopleNamed(db, ["river"]), []);
    deepEqual(peopleNamed(db, ["Caroline", "Jon"]), ["caroline"]);
    // The filter itself: only sessions whose messages say the word.
    deepEqual(
      ids(await search(db, "river", { now: NOW, saying: ["Jon"] })),
      ["j-other"],
    );
  });
});

Deno.test("search() also asks a person's name of the sessions saying whom their chats are with", async () => {
  const chat = (id: string, age: number, turns: Turn[]): Fixture => ({
    id,
    project: "chats",
    age,
    turns,
  });
  await withFixtures([
    ...["the new job", "a long hike", "the weekend"].map((topic, i) =>
      chat(`pair-${i}`, 40 - i, [
        ["user", `Hi Audrey! How was ${topic}?`],
        ["assistant", `Hey Andrew! It went well, thanks.`],
      ])
    ),
    chat("asks-adopt", 20, [
      ["user", "Hi Audrey! Did you ever adopt that kitten?"],
      ["assistant", "Hey Andrew, not yet."],
    ]),
    // Audrey's own news, in a chat where only Andrew's name is said.
    chat("pixie", 10, [
      ["user", "Hey Andrew, we adopted another puppy called Pixie!"],
      ["assistant", "She is so cute, congrats."],
    ]),
    ...["the garden", "a new recipe"].map((topic, i) =>
      chat(`other-${i}`, 30 - i, [
        ["user", `Hi Caroline, what about ${topic}?`],
        ["assistant", "Thanks Mel, let me think."],
      ])
    ),
  ], async (db) => {
    equal(partnerOf(db, "audrey"), "andrew");
    equal(partnerOf(db, "caroline"), undefined, "greeted in too few chats");
    const r = await search(db, "When did Audrey adopt Pixie?", { now: NOW });
    equal(ids(r)[0], "pixie");
    ok(
      r.ladder?.some((s) =>
        s.searched.endsWith("in the sessions saying audrey or andrew")
      ),
      JSON.stringify(r.ladder),
    );
  });
});

Deno.test("search() reads a name one side's turns are labelled with as a person's", async () => {
  const chat = (id: string, age: number, text: string): Fixture => ({
    id,
    project: "chats",
    age,
    turns: [
      ["user", `Caroline: ${text}`],
      ["assistant", "Melanie: nice"],
      ["user", "Caroline: and you?"],
    ],
  });
  await withFixtures([
    chat("l-1", 30, "I painted a sunrise"),
    chat("l-2", 20, "back from the group"),
    chat("l-3", 10, "the agency called"),
  ], (db) => {
    deepEqual(peopleNamed(db, ["Caroline"]), ["caroline"]);
    // One labelled turn a session is too few.
    deepEqual(peopleNamed(db, ["Melanie"]), []);
    return Promise.resolve();
  });
});

Deno.test("search() reads 'recently' as the last month of activity when nothing is recent", async () => {
  await withFixtures([
    {
      id: "older",
      age: 400,
      turns: [
        ["user", "we painted the fence blue and then painted the shed blue"],
        ["assistant", "Two coats of blue paint on the fence and the shed."],
      ],
    },
    {
      id: "latest",
      age: 300,
      turns: [
        ["user", "I painted a sunset this weekend"],
        ["assistant", "Nice."],
      ],
    },
  ], async (db) => {
    const r = await search(db, "what did I paint recently?", {
      now: NOW,
      explain: true,
    });
    equal(ids(r)[0], "latest");
    equal(r.results[0]?.explain?.inWindow, true);
    equal(ids(await search(db, "what did I paint?", { now: NOW }))[0], "older");
  });
});

Deno.test("search() shows a text once per hit, however often it was said", async () => {
  await withFixtures([
    {
      id: "twice",
      age: 2,
      turns: [
        ["user", "add cross-env so the scripts run on windows"],
        ["command", "npm install --save-dev cross-env"],
        ["tool-output", "npm ERR! network timeout"],
        ["command", "npm install --save-dev cross-env"],
        ["tool-output", "added 1 package"],
      ],
    },
  ], async (db) => {
    const r = await search(db, "cross-env install", {
      now: NOW,
      roles: ["command"],
    });
    const texts = r.results[0]?.snippets.map((s) => s.text) ?? [];
    equal(texts.length, 1);
    equal(new Set(texts).size, texts.length);
  });
});

Deno.test("search() looks in work records for a message typed with its stop words", async () => {
  await withFixtures([
    {
      // Speech holds every word, "login" only as a variant (stemmed tier).
      id: "talked-about-it",
      age: 2,
      turns: [
        ["user", "the api key is invalid when I run the auth step"],
        ["assistant", "Rotating the key."],
      ],
    },
    {
      id: "printed-it",
      age: 9,
      turns: [
        ["user", "start the deploy"],
        ["tool-output", "Invalid API key · Please run /login"],
      ],
    },
  ], async (db) => {
    // "please" is a stop word: the query is not a question for all that.
    const r = await search(db, "Invalid API key · Please run /login", {
      now: NOW,
    });
    equal(ids(r)[0], "printed-it");
    equal(r.results[0]?.foundIn, "work");
    // A question that what was said answers exactly stays with it.
    const asked = await search(
      db,
      "why was the api key invalid at the auth step?",
      { now: NOW },
    );
    equal(ids(asked)[0], "talked-about-it");
    equal(asked.results.some((h) => h.foundIn === "work"), false);
    // One that only another form of a word answers ("login" as "auth")
    // goes to what output printed word for word.
    const login = await search(db, "why was the api key invalid at login?", {
      now: NOW,
    });
    equal(ids(login)[0], "printed-it");
    equal(login.results[0]?.foundIn, "work");
  });
});

Deno.test("search() weighs a code name a question types over its plain words", async () => {
  const plain = (i: number) => ({
    id: `touched-${i}`,
    age: 1 + i,
    turns: [
      ["user", `I only touched one file in module ${i} and CI rebuilt it all`],
      ["assistant", "Touching one file now rebuilds only its module."],
    ] as Array<[Role, string]>,
  });
  await withFixtures([
    // Six recent sessions say the plain word in their user turns: twice
    // as many as say the name, not enough for its IDF alone to decide.
    ...Array.from({ length: 6 }, (_, i) => plain(i)),
    // Three long sessions say the name once each, among much else.
    ...[0, 1, 2].map((i) => ({
      id: `refactored-${i}`,
      age: 90 + i,
      turns: [
        ["user", "fix the lint comments in the iterables package"],
        ...Array.from({ length: 12 }, (_, j): [Role, string] => [
          "assistant",
          `Step ${j}: formatted the overloads of helper number ${j}.`,
        ]),
        [
          "assistant",
          "Refactored `unionIterablesAsyncGen` so no await sits in a loop.",
        ],
      ] as Array<[Role, string]>,
    })),
    ...Array.from({ length: 40 }, (_, i) => i + 10).map((i) => ({
      id: `other-${i}`,
      age: 2 + i,
      turns: [[
        "user",
        `unrelated chat number ${i} about the release notes`,
      ]] as Array<
        [Role, string]
      >,
    })),
  ], async (db) => {
    const r = await search(
      db,
      "which sessions touched unionIterablesAsyncGen?",
      {
        now: NOW,
      },
    );
    ok(ids(r)[0]?.startsWith("refactored-"), ids(r).join(" "));
  });
});

Deno.test("search() finds the one word a verb and its particle are written as", async () => {
  await withFixtures([
    {
      id: "asked-to-login",
      age: 4,
      turns: [
        ["user", "hello there"],
        ["assistant", "Invalid API key · Please run /login"],
      ],
    },
    {
      id: "log-file",
      age: 2,
      turns: [["user", "the log file of the worker is huge again"]],
    },
  ], async (db) => {
    const r = await search(db, "it just told me to log in again", {
      now: NOW,
    });
    equal(ids(r)[0], "asked-to-login");
  });
});

Deno.test("search() finds a name written as one word where it was said as two, and back", async () => {
  await withFixtures([
    {
      id: "said-two-words",
      age: 4,
      turns: [
        ["user", "are we inside the dev container or only on WSL?"],
        ["assistant", "VS Code is attached to WSL; there is no container."],
      ],
    },
    {
      id: "code-and-wsl",
      age: 2,
      turns: [
        ["user", "the code under WSL builds, the container image does not"],
        ["assistant", "The image lacks the dev headers; inside it gcc fails."],
      ],
    },
    {
      id: "typed-one-word",
      age: 3,
      turns: [["user", "open the devcontainer.json and the vscode settings"]],
    },
  ], async (db) => {
    const joined = await search(
      db,
      "did vscode say WSL or inside a devcontainer?",
      {
        now: NOW,
      },
    );
    equal(ids(joined)[0], "said-two-words");
    const split = await search(
      db,
      "the VS Code settings for the dev container",
      {
        now: NOW,
      },
    );
    equal(ids(split)[0], "typed-one-word");
  });
});

Deno.test("search() does not require the kind of answer a question names", async () => {
  await withFixtures([
    {
      id: "took-up-photography",
      age: 30,
      turns: [
        ["user", "Calvin: guess what, I took up photography this spring"],
        ["assistant", "Dave: Calvin, that is great! What made you take it up?"],
        ["user", "Calvin: I wanted to take up something that gets me outside"],
      ],
    },
    ...["the garden", "a new recipe", "the weather"].map((topic, i) => ({
      id: `small-talk-${i}`,
      age: 10 + i,
      turns: [["user", `Dave: what do you think of ${topic}?`] as Turn],
    })),
    {
      id: "hobby-shop",
      age: 20,
      turns: [
        ["user", "Calvin: the hobby shop downtown closed last month"],
        ["assistant", "Dave: They had the best model kits in town, sad."],
      ],
    },
  ], async (db) => {
    const r = await search(db, "What hobby did Calvin take up?", { now: NOW });
    equal(ids(r)[0], "took-up-photography");
  });
});

Deno.test("search() finds what a person owns by the things they name, not the kind's verb", async () => {
  await withFixtures([
    {
      id: "neighbour-note",
      age: 30,
      turns: [
        [
          "user",
          "My neighbour left a note about noise. I practise my cello and the ukulele most evenings; how do I soundproof a rented flat?",
        ],
        ["assistant", "Rugs, door sweeps and a practice mute help most."],
      ],
    },
    ...["chess openings", "board games for four", "a video game on sale"].map((
      topic,
      i,
    ) => ({
      id: `play-${i}`,
      age: 10 + i,
      turns: [
        ["user", `what should we play tonight? thinking of ${topic}`] as Turn,
      ],
    })),
  ], async (db) => {
    const r = await search(db, "What instruments do I play?", { now: NOW });
    equal(ids(r)[0], "neighbour-note");
  });
});

Deno.test("search() reads a compound nothing said as the two words it joins", async () => {
  await withFixtures([
    {
      id: "scrolling-back",
      age: 4,
      turns: [
        ["user", "scrolling back in xterm.js still does not work in the page"],
        [
          "assistant",
          "The page captures the wheel events before the terminal.",
        ],
      ],
    },
    {
      id: "xterm-theme",
      age: 2,
      turns: [["user", "give xterm.js a dark theme in the page"]],
    },
  ], async (db) => {
    const r = await search(db, "xterm scrollback", { now: NOW });
    deepEqual(ids(r), ["scrolling-back"]);
    equal(r.results[0]?.tier, "stemmed");
    // A word the index holds is never split: "theme" stays one word.
    const held = await search(db, "xterm theme", { now: NOW });
    deepEqual(ids(held), ["xterm-theme"]);
  });
});

Deno.test("search() reads a short name as the start of the longer words said", async () => {
  await withFixtures([
    {
      id: "off-mongodb",
      age: 4,
      turns: [
        ["user", "move the library app's database from mongodb to postgres"],
        ["assistant", "Replaced the mongoose models with SQL tables."],
      ],
    },
    {
      id: "library-ui",
      age: 2,
      turns: [["user", "the library app's database page needs a search box"]],
    },
  ], async (db) => {
    const r = await search(db, "library app database off mongo", {
      now: NOW,
      explain: true,
    });
    equal(ids(r)[0], "off-mongodb");
    equal(r.results[0]?.tier, "stemmed");
    ok(
      r.ladder?.some((s) => s.note?.includes("mongo → mongo*")),
      JSON.stringify(r.ladder),
    );
    // The longer word is what the snippet marks.
    const marked = r.results[0]!.snippets.flatMap((sn) =>
      sn.ranges.map(([from, to]) => sn.text.slice(from, to).toLowerCase())
    );
    ok(marked.includes("mongodb"), marked.join(", "));
  });
});

Deno.test("search() breaks a tie of what was said by what was printed", async () => {
  await withFixtures([
    {
      id: "greeted-then-refused",
      age: 5,
      turns: [
        ["user", "bonjour"],
        ["tool-output", "Invalid API key · Please run /login"],
      ],
    },
    {
      id: "greeted-and-answered",
      age: 4.9,
      turns: [["user", "bonjour"]],
    },
  ], async (db) => {
    // Both said only "bonjour": the one whose output holds the key
    // error goes first, though the other is newer.
    const r = await search(db, "said bonjour and the api key was invalid", {
      now: NOW,
    });
    deepEqual(ids(r).slice(0, 2), [
      "greeted-then-refused",
      "greeted-and-answered",
    ]);
    // With nothing printed to tell them apart, the newer leads.
    const plain = await search(db, "bonjour", { now: NOW });
    equal(ids(plain)[0], "greeted-and-answered");
  });
});

Deno.test("search() answers from work records a typo of words nothing said holds", async () => {
  await withFixtures([
    {
      id: "rolled-back",
      age: 3,
      turns: [
        ["user", "the checkout deploy returns 502s, put the old one back"],
        ["command", "kubectl -n shop rollout undo deploy/checkout-api"],
        ["tool-output", "deployment.apps/checkout-api rolled back"],
      ],
    },
    {
      id: "elsewhere",
      age: 5,
      turns: [["user", "which context is prod?"]],
    },
  ], async (db) => {
    // Nothing said holds the words or the correction ("kubectl", from the
    // commands' vocabulary): the first session's command holds them all.
    const r = await search(db, "kubctl rollout undo", { now: NOW });
    deepEqual(ids(r), ["rolled-back"]);
    equal(r.results[0]?.foundIn, "work");
    equal(r.results[0]?.tier, "fuzzy");
  });
});

Deno.test("search() puts first the sessions whose work records hold a name a question quotes", async () => {
  await withFixtures([
    {
      // Says the question's ordinary words, never the error's name.
      id: "talks-export",
      age: 1,
      turns: [
        ["user", "which provider sessions failed the nightly billing export?"],
        [
          "assistant",
          "The provider sessions of the nightly export mostly ran.",
        ],
      ],
    },
    {
      id: "printed-error",
      age: 6,
      turns: [
        ["user", "continue the refactor"],
        ["tool-output", "AI_APICallError: Insufficient Balance"],
      ],
    },
    // Work records saying every other word of the question: they outrank
    // the one holding only the name, which must still be found.
    ...Array.from({ length: 8 }, (_, i): Fixture => ({
      id: `export-log-${i}`,
      age: 2 + i,
      turns: [
        ["user", "check the export"],
        [
          "tool-output",
          "nightly billing export run: provider sessions hit 200, provider sessions done",
        ],
      ],
    })),
  ], async (db) => {
    const r = await search(
      db,
      "which provider sessions hit AI_APICallError during the nightly billing export run?",
      { now: NOW },
    );
    equal(ids(r)[0], "printed-error");
    equal(r.results[0]?.foundIn, "work");
    ok(
      r.ladder?.at(-1)?.note?.includes("ai_apicallerror"),
      r.ladder?.at(-1)?.note,
    );
    ok(!r.results.slice(1).some((h) => h.foundIn === "work"));
  });
});

Deno.test("search() does not take a turn that asks the question back for its answer", async () => {
  await withFixtures([
    {
      id: "asks",
      age: 4,
      turns: [
        ["user", "That's so nice! What pet do you have?"],
        ["assistant", "Sounds lovely, tell me more."],
      ],
    },
    {
      id: "answers",
      age: 5,
      turns: [
        [
          "user",
          "Parenting is a big responsibility. And yes, I do - Oscar, my pet guinea pig, keeps me company while I write and he loves carrots.",
        ],
        ["assistant", "Oscar sounds like great company."],
      ],
    },
    ...gardenFiller(),
  ], async (db) => {
    const r = await search(db, "what pet does she have?", { now: NOW });
    equal(ids(r)[0], "answers");
  });
});

Deno.test("search() reads a turn as asking back even when it names someone every session names", async () => {
  // Every session says "Mia" (a word of no weight: a speaker's name, the
  // project's own name). The sentence that names her is no answer to the
  // question, so the turn below still only asks it back.
  await withFixtures([
    {
      id: "asks",
      age: 4,
      turns: [
        ["user", "Mia, that's so nice! What pet do you have?"],
        ["assistant", "Sounds lovely, Mia, tell me more."],
      ],
    },
    {
      id: "answers",
      age: 5,
      turns: [
        [
          "user",
          "Mia here. Parenting is a big responsibility. And yes, I do - Oscar, my pet guinea pig, keeps me company while I write and he loves carrots.",
        ],
        ["assistant", "Oscar sounds like great company, Mia."],
      ],
    },
    ...gardenFiller().map((f) => ({
      ...f,
      turns: f.turns.map(([role, text]): Turn => [role, `Mia: ${text}`]),
    })),
  ], async (db) => {
    const r = await search(db, "what pet does Mia have?", { now: NOW });
    equal(ids(r)[0], "answers");
  });
});

Deno.test("search() lets a clear relevance lead outrank a question's strict set", async () => {
  await withFixtures([
    {
      // Every word of the question, each said once in passing.
      id: "in-passing",
      age: 4,
      turns: [
        ["user", "the job queue is slow today"],
        ["assistant", "Check the nightly schedule."],
        ["user", "the backup disk looks fine"],
        [
          "assistant",
          "Then the replica is not the problem; nothing should fail.",
        ],
      ],
    },
    {
      // The answer: the rare words said together, twice, but not "job".
      id: "answers",
      age: 5,
      turns: [
        [
          "user",
          "The nightly backup failed on the replica again: the nightly backup ran out of disk on the replica.",
        ],
        [
          "assistant",
          "Grow the replica's disk before the next nightly backup.",
        ],
      ],
    },
    ...Array.from({ length: 8 }, (_, i): Fixture => ({
      id: `filler-${i}`,
      age: 10 + i,
      turns: [
        ["user", `the ${i} job ran in the queue`] as Turn,
        ["assistant", "The job finished."] as Turn,
      ],
    })),
  ], async (db) => {
    const r = await search(
      db,
      "why did the nightly backup job fail on the replica?",
      { now: NOW, explain: true },
    );
    const [first, second] = r.results;
    equal(first?.session.id, "answers");
    equal(first?.explain?.strictRank, null);
    equal(second?.session.id, "in-passing");
    equal(second?.explain?.strictRank, 1);
  });
});

Deno.test("search() ranks a turn saying a question's words together above one saying them apart", async () => {
  await withFixtures([
    {
      id: "apart",
      age: 4,
      turns: [
        [
          "user",
          "The pottery on the shelf broke, and my class on Tuesday was cancelled.",
        ],
        ["assistant", "Sorry to hear that."],
      ],
    },
    {
      id: "together",
      age: 5,
      turns: [
        [
          "user",
          "Yesterday I finally signed up for a pottery class at the community centre down the road from our old flat, with a teacher my sister recommended to me last spring.",
        ],
        ["assistant", "That sounds lovely."],
      ],
    },
    ...gardenFiller(),
  ], async (db) => {
    const r = await search(db, "when did she start the pottery class?", {
      now: NOW,
    });
    equal(ids(r)[0], "together");
  });
});

Deno.test("search() answers when something happened with the turn telling it done, not the one planning it", async () => {
  await withFixtures([
    {
      id: "planned",
      age: 5,
      turns: [
        [
          "user",
          "Big news: I signed up for the half marathon in May.",
        ],
        ["assistant", "That is exciting, good luck with the training."],
      ],
    },
    {
      id: "done",
      age: 5,
      turns: [
        [
          "user",
          "I finished the half marathon on Sunday! Two hours and four minutes, no knee pain at all, and the physio was right about the foam rolling every evening.",
        ],
        ["assistant", "Congratulations, what a time."],
      ],
    },
    ...gardenFiller(),
  ], async (db) => {
    const asked = await search(
      db,
      "When did Marisol run the half marathon?",
      { now: NOW },
    );
    equal(ids(asked)[0], "done");
  });
});

Deno.test("search() shows where a hit says the rarest word of the query", async () => {
  await withFixtures([
    {
      id: "devbox",
      age: 2,
      turns: [
        ["user", "the build shows an error again, which command do I run?"],
        [
          "assistant",
          "The error is in the config; run this command to fix it.",
        ],
        ["user", "still an error after that command"],
        ["assistant", "Then the fix is another command: clear the cache."],
        ["user", "which command fixed that error? the same error is back"],
        ["assistant", "The command that fixed the error: clear the cache."],
        ["user", "error again: which fix, which command?"],
        [
          "assistant",
          `The dev server is up on port 9000 and serving the app. ${
            "It rebuilt every page and reloaded the browser tab. ".repeat(12)
          }Quasar printed its banner.`,
        ],
      ],
    },
    ...Array.from({ length: 20 }, (_, i) => ({
      id: `garden-${i}`,
      age: 30 + i,
      turns: [
        ["user", `plant the tomatoes in bed ${i}`] as Turn,
        ["assistant", "Water them twice a week."] as Turn,
      ],
    })),
    ...Array.from({ length: 5 }, (_, i) => ({
      id: `other-${i}`,
      age: 10 + i,
      turns: [
        ["user", `an error in module ${i}, which command fixes it?`] as Turn,
        ["assistant", "Run the fix command."] as Turn,
        [
          "assistant",
          i === 0 ? "Quasar is one option for the UI." : "Done.",
        ] as Turn,
      ],
    })),
  ], async (db) => {
    const r = await search(db, "which command fixed the quasar error?", {
      now: NOW,
    });
    const hit = r.results.find((h) => h.session.id === "devbox");
    ok(hit, "the session is found");
    ok(
      hit.snippets.some((s) => /quasar/i.test(s.text)),
      JSON.stringify(hit.snippets.map((s) => s.text)),
    );
  });
});

Deno.test("search() finds an adjective when asked with its adverb", async () => {
  await withFixtures([
    {
      id: "lazy-settings",
      age: 3,
      turns: [
        ["user", "the settings page should load its panels lazy"],
        ["assistant", "Done: each settings panel is a lazy import now."],
      ],
    },
    ...gardenFiller(),
  ], async (db) => {
    const r = await search(db, "settings loaded lazily", { now: NOW });
    equal(ids(r)[0], "lazy-settings", JSON.stringify(r.ladder));
    equal(r.results[0]?.tier, "stemmed");
  });
});

Deno.test("search() relaxes a query by the words it can best spare, not its rare name", async () => {
  const chatter = (id: string, text: string) => ({
    id,
    project: "bot",
    age: 3,
    turns: [["user", text], ["assistant", "ok"]] as Array<[
      "user" | "assistant",
      string,
    ]>,
  });
  await withFixtures([
    chatter("common", "in the end we skip installing anything for the agent"),
    chatter(
      "rare",
      "pinchtab is not worth it: do not install it for the agent",
    ),
    chatter("a", "at the end of the day skip the flaky test"),
    chatter("b", "skip the end to end suite for now"),
    chatter("c", "the agent will skip the cache in the end"),
  ], async (db) => {
    const r = await search(
      db,
      "did we end up installing pinchtab for the agent or skip it?",
      { now: NOW },
    );
    const relaxed = r.ladder?.find((s) => s.tier === "relaxed");
    equal(relaxed?.note, "ignoring end, skip");
    equal(r.results[0]?.session.id, "rare");
  });
});

Deno.test("search() tells apart sessions with the same best match by every word they hold", async () => {
  // Three paste the same error: one holds every word (first), one also
  // says "water", one only prints the error's words again. What was said
  // counts as much as what was printed.
  const paste = "main.js:23 ChunkLoadError: Loading chunk 179 failed.";
  const r = await foundAmong([
    {
      id: "every-word",
      age: 400,
      turns: [
        ["user", "the page is blank"],
        ["assistant", paste],
        ["assistant", "Reverted it; water the plants, feed the zebra."],
      ],
    },
    {
      id: "said-water",
      age: 2,
      turns: [["user", paste], ["assistant", "Reload; water them."]],
    },
    {
      id: "printed-again",
      age: 1,
      turns: [
        ["user", paste],
        ["tool-output", "chunk 179 failed again"],
        ["assistant", "Clear the cache and reload."],
      ],
    },
  ], "ChunkLoadError loading chunk 179 water zebra");
  deepEqual(ids(r).slice(0, 3), ["every-word", "said-water", "printed-again"]);
});

Deno.test("search() puts a far better match of another agent before the agent a question names", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "deja-agents-" });
  const sessions: Record<string, Fixture[]> = {
    codex: [
      {
        id: "layout",
        age: 2,
        turns: [["user", "the settings screen layout is off on small phones"]],
      },
      { id: "loader", age: 3, turns: [["user", "rename the config loader"]] },
    ],
    "claude-code": [{
      id: "unsubscribe",
      age: 4,
      turns: [[
        "user",
        "add an unsubscribe button for push notifications to the settings screen",
      ]],
    }],
  };
  for (const [id, list] of Object.entries(sessions)) {
    await Deno.mkdir(`${dir}/${id}`);
    for (const f of list) {
      await Deno.writeTextFile(`${dir}/${id}/${f.id}.json`, JSON.stringify(f));
    }
  }
  await indexStores({
    indexPath: `${dir}/index.db`,
    harnesses: ["codex", "claude-code"].map((id) =>
      fixtureHarness(`${dir}/${id}`, id)
    ),
    source: { home: dir, env: {}, os: "linux" },
    now: () => NOW,
  });
  const db = openIndex(`${dir}/index.db`, { readOnly: true });
  try {
    await t.step("the agent misremembered", async () => {
      const r = await search(
        db,
        "was it codex where I got an unsubscribe button for push notifications on the settings screen?",
        { now: NOW },
      );
      deepEqual(ids(r).slice(0, 2), ["unsubscribe", "layout"]);
      ok(r.ladder?.some((s) => /misremembered/.test(s.note ?? "")));
    });
    await t.step(
      "another agent's session says words the agent named never did",
      async () => {
        const r = await search(
          db,
          "was it codex where push notifications got an unsubscribe switch on small phones?",
          { now: NOW },
        );
        equal(ids(r)[0], "unsubscribe");
      },
    );
    await t.step("the agent named holds the words", async () => {
      const r = await search(
        db,
        "what did codex say about the settings screen",
        {
          now: NOW,
        },
      );
      equal(ids(r)[0], "layout");
    });
  } finally {
    db.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("search() does not lift a long session holding a question's words scattered", async () => {
  const said: Record<number, string> = {
    5: "we fix it later",
    10: "a fix for it",
    15: "flaky login again",
    20: "the flaky login",
    25: "timeout on staging",
    30: "staging timeout",
  };
  const chatter = Array.from(
    { length: 40 },
    (_, i) =>
      ["assistant", said[i] ?? `unrelated step ${i}`] as [
        "assistant",
        string,
      ],
  );
  const r = await foundAmong([
    { id: "long", age: 2, turns: [["user", "misc work"], ...chatter] },
    {
      id: "answer",
      age: 3,
      turns: [
        ["user", "fix the flaky login test"],
        ["assistant", "Raised the timeout of the login test."],
      ],
    },
  ], "where did we fix the flaky login timeout on staging?");
  equal(ids(r)[0], "answer");
});

Deno.test("search() keeps a capitalized name when it relaxes a question", async () => {
  const said = (id: string, text: string) => ({
    id,
    age: 3,
    turns: [["user", text], ["assistant", "noted"]] as Array<[
      "user" | "assistant",
      string,
    ]>,
  });
  const r = await foundAmong([
    said("name", "Zoltan looked at the cache yesterday"),
    said("word", "the cache timeout is too short"),
  ], "what did Zoltan say about the cache timeout?");
  const relaxed = r.ladder?.find((s) => s.tier === "relaxed");
  equal(relaxed?.note, "ignoring timeout");
  equal(r.results[0]?.session.id, "name");
});

Deno.test("search() looks in work records when nothing said falls in the time asked for", async () => {
  await withFixtures([
    {
      id: "pasted",
      age: 200,
      turns: [
        ["user", "the log says: workspace config invalid, api key missing"],
        ["assistant", "Set the api key in the workspace settings."],
      ],
    },
    {
      id: "failed",
      age: 40,
      turns: [
        ["user", "hello there"],
        ["tool-output", "Invalid API key · Please run /login"],
      ],
    },
  ], async (db) => {
    const r = await search(
      db,
      "last month the agent told me my api key was invalid, which session?",
      { now: NOW },
    );
    deepEqual(ids(r).slice(0, 2), ["failed", "pasted"]);
    ok(r.ladder?.some((s) => s.note?.startsWith("before what was said")));
  });
});

Deno.test("search() puts a short session whose output holds most of a question's words before one that said only a few", async () => {
  const question =
    "why did the uvicorn worker crash with exit code 137 in the nightly import on the staging box?";
  const chatty: Fixture = {
    id: "chatty",
    age: 3,
    turns: [
      ["user", "the nightly import is slow again"],
      ["assistant", "Give the import worker pool more memory."],
    ],
  };
  const crashed = (id: string, more: Turn[]): Fixture => ({
    id,
    age: 4,
    turns: [
      ["user", "the nightly job died, why?"],
      [
        "tool-output",
        "uvicorn worker crash: exit code 137 (out of memory) in the import step",
      ],
      ...more,
    ],
  });
  await withFixtures(
    [...gardenFiller(), chatty, crashed("crashed", [])],
    async (db) => {
      const r = await search(db, question, { now: NOW });
      equal(ids(r)[0], "crashed");
      equal(r.results[0]?.foundIn, "work");
    },
  );
  // A long session's output holds most words somewhere: it does not jump.
  const chatter: Turn[] = Array.from(
    { length: 40 },
    (_, i): Turn => [i % 2 ? "assistant" : "user", `step ${i} of the sweep`],
  );
  await withFixtures(
    [...gardenFiller(), chatty, crashed("crashed-long", chatter)],
    async (db) => {
      equal(ids(await search(db, question, { now: NOW }))[0], "chatty");
    },
  );
});

Deno.test("search() does not lift a session for a pasted log holding a relaxed query's words", async () => {
  const log = [
    "ChunkLoadError: Loading chunk 179 failed.",
    ...Array.from(
      { length: 12 },
      (_, i) => `    at load (webpack/runtime/chunk ${i}.js:1:${i})`,
    ),
    "    at settings.page.ts:12:3 (route /settings)",
  ].join("\n");
  await withFixtures([
    ...gardenFiller(),
    {
      id: "pasted",
      age: 3,
      turns: [["user", log], ["assistant", "Rebuild and clear the cache."]],
    },
    {
      id: "told",
      age: 4,
      turns: [
        ["user", "the settings page is blank"],
        ["assistant", "Chunk 179 would not load: its route is gone."],
      ],
    },
    // "Removed" is said often: the cheapest word to drop.
    ...["the old banner", "an unused import", "the dead flag"].map((
      what,
      i,
    ) => ({
      id: `removed-${i}`,
      age: 10 + i,
      turns: [["user", `we removed ${what}`]] as Turn[],
    })),
  ], async (db) => {
    const r = await search(
      db,
      "chunk 179 failed to load once the settings page route was removed",
      { now: NOW, explain: true },
    );
    equal(
      r.ladder?.find((s) => s.tier === "relaxed")?.note,
      "ignoring removed",
    );
    equal(ids(r)[0], "told");
  });
});

Deno.test("search() reads words joined by a hyphen or dot as words, not a name only output holds", async () => {
  await withFixtures([
    {
      id: "migration",
      age: 5,
      turns: [
        ["user", "help me move the atlas library from mongoose to supabase"],
        [
          "assistant",
          "Plan: replace each mongoose model with a supabase table.",
        ],
      ],
    },
    {
      id: "gitignore",
      age: 2,
      turns: [
        ["user", "write a frontend"],
        ["tool-output", "# Next.js build output\n.next\nout\n"],
      ],
    },
  ], async (db) => {
    const r = await search(
      db,
      "mongoose to supabase move for the atlas library next.js frontend",
      { now: NOW },
    );
    equal(ids(r)[0], "migration");
  });
});

Deno.test("search() takes words every object inherits (constructor, toString) as plain words", async () => {
  await withFixtures([
    {
      id: "object-print",
      age: 2,
      turns: [
        ["user", "why does toString print [object Object] in the constructor"],
        ["assistant", "The constructor never sets a name; override toString."],
      ],
    },
    ...gardenFiller(),
  ], async (db) => {
    for (
      const query of [
        "constructor throws",
        "toString constructor",
        "hasOwnProperty valueOf __proto__ toString",
        "what did constructor say about toString",
      ]
    ) {
      const result = await search(db, query, { now: NOW });
      equal(result.results[0]?.session.id, "object-print", query);
    }
  });
});

Deno.test("search() with regex stops a pattern that backtracks without end, naming it and the records scanned", async () => {
  await withFixtures([
    {
      id: "plain",
      age: 1,
      turns: [["user", "the aaa batteries are flat"]],
    },
    {
      id: "runaway",
      age: 2,
      turns: [["tool-output", `${"a".repeat(48)}b`]],
    },
  ], async (db) => {
    const started = performance.now();
    await rejects(
      search(db, "(a+)+$", { now: NOW, regex: true, regexBudgetMs: 300 }),
      (err: unknown) => {
        ok(err instanceof DejaError);
        equal(err.code, "QRY-E006");
        ok(err.message.includes('"(a+)+$"'), err.message);
        ok(
          err.message.includes("(0 scanned in full before them)"),
          err.message,
        );
        return true;
      },
    );
    // Unstopped, the pattern takes some 2^48 steps on that record; the bound
    // leaves room for a loaded machine.
    ok(performance.now() - started < 20_000, "stopped near its budget");
    // The same index answers an ordinary pattern straight after.
    const r = await search(db, "aa+ batter", { now: NOW, regex: true });
    deepEqual(ids(r), ["plain"]);
    deepEqual(r.results[0]!.snippets[0]!.ranges, [[4, 14]]);
  });
});

Deno.test("search() with regex keeps its page and snippet limits across batches", async () => {
  const many = Array.from({ length: 12 }, (_, i): Fixture => ({
    id: `s${String(i).padStart(2, "0")}`,
    age: i + 1,
    turns: Array.from(
      { length: 5 },
      (_, j): Turn => ["assistant", `port ${8000 + i * 10 + j} is open`],
    ),
  }));
  await withFixtures(many, async (db) => {
    const r = await search(db, "port 80\\d\\d", {
      now: NOW,
      regex: true,
      limit: 4,
    });
    deepEqual(ids(r), ["s00", "s01", "s02", "s03"]);
    deepEqual(
      r.results.map((h) => h.snippets.map((s) => s.text)),
      [0, 1, 2, 3].map((i) =>
        [0, 1, 2].map((j) => `port ${8000 + i * 10 + j} is open`)
      ),
    );
  });
});

Deno.test("search() with regex reads a long session past its first page of records", async () => {
  const turns = Array.from(
    { length: 600 },
    (_, j): Turn => ["assistant", `step ${j} went fine`],
  );
  turns[550] = ["assistant", "step 550 hit the quokka barrier"];
  turns[580] = ["user", "and the quokka barrier again"];
  await withFixtures([{ id: "long", age: 1, turns }], async (db) => {
    const r = await search(db, "quokka barrier", { now: NOW, regex: true });
    deepEqual(ids(r), ["long"]);
    deepEqual(r.results[0]!.snippets.map((s) => s.text), [
      "step 550 hit the quokka barrier",
      "and the quokka barrier again",
    ]);
    const said = await search(db, "quokka barrier", {
      now: NOW,
      regex: true,
      roles: ["user"],
    });
    deepEqual(said.results[0]!.snippets.map((s) => s.text), [
      "and the quokka barrier again",
    ]);
  });
});

Deno.test("a long query's reading lists 20 over-budget terms and counts the rest", async () => {
  const home = await Deno.makeTempDir();
  const db = openIndex(`${home}/index.db`);
  try {
    const log = Array.from({ length: 300 }, (_, i) => `worker${i} batch${i}`)
      .join("\n");
    const found = await search(db, `${log}\nwhy did the deploy fail?`, {
      now: 0,
      explain: true,
    });
    equal(found.reading?.ask, "why did the deploy fail?");
    equal(found.reading?.overBudget.length, 20);
    ok((found.reading?.overBudgetCount ?? 0) > 500);
  } finally {
    db.close();
  }
});

Deno.test("search() finds a session that was only a greeting by what the question says of it", async (t) => {
  const fixtures: Fixture[] = [
    ...gardenFiller(),
    {
      id: "said-hi",
      age: 40,
      turns: [["user", "hi"], [
        "assistant",
        "Hi! How can I help you today? Tell me what you needed.",
      ]],
    },
    { id: "said-hello-late", age: 2, turns: [["user", "hello"]] },
    {
      id: "typed-shell",
      age: 30,
      turns: [["user", "shell"], ["assistant", "What should I run?"]],
    },
    {
      id: "shell-talk",
      age: 3,
      turns: [
        ["user", "which shell does the chat window start?"],
        ["assistant", "The chat window starts your login shell."],
      ],
    },
    { id: "asked-how", age: 20, turns: [["user", "How are you"]] },
    {
      id: "japanese",
      age: 9,
      turns: [["user", "こんにちは"], ["assistant", "こんにちは！ Hello!"]],
    },
    {
      id: "hi-and-work",
      age: 1,
      turns: [
        ["user", "hi, can you fix the login page?"],
        ["assistant", "Fixed the login page."],
      ],
    },
    {
      id: "hello-world",
      age: 5,
      turns: [
        ["user", "print hello world from the cli"],
        ["assistant", "The cli prints hello world now, as you needed."],
      ],
    },
  ];
  await withFixtures(fixtures, async (db) => {
    const first = async (query: string) =>
      (await search(db, query, { now: NOW })).results[0]?.session.id;
    await t.step("the greeting and a reply", async () => {
      equal(
        await first("the chat where I just said hi and it asked what I needed"),
        "said-hi",
      );
    });
    await t.step("a question of one other word", async () => {
      equal(
        await first("tiny thread, I just said hi and it asked what I needed"),
        "said-hi",
      );
    });
    await t.step("another greeting, no reply", async () => {
      equal(
        await first("I asked the bot how it was doing and never got a reply"),
        "asked-how",
      );
    });
    await t.step("its language", async () => {
      equal(await first("the one where I greeted it in japanese"), "japanese");
    });
    await t.step("the time it was said", async () => {
      equal(await first("last month I just said hello"), "said-hi");
      equal(await first("yesterday I just said hello"), "said-hello-late");
    });
    await t.step("as high a score as any other hit", async () => {
      const result = await search(
        db,
        "the chat where I just said hi and it asked what I needed",
        { now: NOW },
      );
      equal(result.results[0]?.session.id, "said-hi");
      ok(result.results.every((h) => h.score <= result.results[0]!.score));
    });
    await t.step("the one word typed", async () => {
      equal(
        await first("the chat where all I typed was the word shell"),
        "typed-shell",
      );
    });
    await t.step("a greeting set aside is not the one described", async () => {
      equal(
        await first(
          "the chat where I asked which shell the chat window opens, not the one where I only said hi",
        ),
        "shell-talk",
      );
    });
    await t.step("words said together keep their order", async () => {
      equal(await first("where did we print hello world"), "hello-world");
      const result = await search(db, "I just said hi about the login page", {
        now: NOW,
      });
      equal(result.results[0]?.session.id, "hi-and-work");
    });
  });
});

Deno.test("search() lifts a session of the size the query gives it", async () => {
  const chatter: Turn[] = Array.from(
    { length: 240 },
    (_, i): Turn => [i % 2 ? "assistant" : "user", `step ${i} of the sweep`],
  );
  await withFixtures([
    ...gardenFiller(),
    {
      id: "kestrel-short",
      age: 20,
      turns: [["user", "why does the kestrel importer skip rows?"], [
        "assistant",
        "The kestrel importer skips rows without an id.",
      ]],
    },
    {
      id: "heron-short",
      age: 20,
      turns: [["user", "the heron exporter dropped columns"], [
        "assistant",
        "It wrote empty files too.",
      ]],
    },
    {
      id: "heron-thread",
      age: 20,
      turns: [
        ["user", "the heron exporter dropped columns and wrote empty files"],
        ...chatter.slice(0, 30),
      ],
    },
    {
      id: "kestrel-long",
      age: 20,
      turns: [
        ["user", "why does the kestrel importer skip rows?"],
        ["assistant", "The kestrel importer skips rows without an id."],
        ...chatter,
      ],
    },
  ], async (db) => {
    const first = async (query: string) =>
      (await search(db, query, { now: NOW })).results[0]?.session.id;
    equal(
      await first("the short chat where the kestrel importer skipped rows"),
      "kestrel-short",
    );
    equal(
      await first("the long session where the kestrel importer skipped rows"),
      "kestrel-long",
    );
    // Asked for a short one, a thread over twice a short one's length on
    // the same topic, holding more of the words, comes after it.
    equal(
      await first(
        "that quick one where the heron exporter dropped columns and wrote empty files",
      ),
      "heron-short",
    );
    equal(
      await first(
        "where the heron exporter dropped columns and wrote empty files",
      ),
      "heron-thread",
    );
  });
});

Deno.test("search() finds the sessions whose model calls failed the way a question describes", async () => {
  await withFixtures([
    ...gardenFiller(),
    {
      id: "no-credit",
      age: 30,
      turns: [
        ["user", "explain the surface code"],
        ["tool-output", "AI_APICallError: Insufficient Balance", "model"],
      ],
    },
    {
      id: "key-refused",
      age: 20,
      turns: [
        ["user", "hello there"],
        ["tool-output", "Invalid API key · Please run /login", "model"],
      ],
    },
    {
      id: "figma-limit",
      age: 10,
      turns: [
        ["user", "convert the dashboard from figma"],
        ["tool-output", "Figma API error: 429 rate limit exceeded", "figma"],
        ["assistant", "The figma call hit its rate limit; retrying later."],
      ],
    },
    {
      id: "npm-login",
      age: 8,
      turns: [
        ["user", "how do I publish the package to npm"],
        ["assistant", "Log in to npm first (npm login), then run npm publish."],
      ],
    },
    {
      id: "credit-card",
      age: 5,
      turns: [
        ["user", "the credit card form failed validation for every account"],
        ["assistant", "The card number check rejected spaces."],
      ],
    },
  ], async (db) => {
    const first = async (query: string) =>
      (await search(db, query, { now: NOW })).results[0]?.session.id;
    equal(
      await first(
        "the chat where every message failed because my credit ran out",
      ),
      "no-credit",
    );
    equal(
      await first("the time the agent told me to log in again"),
      "key-refused",
    );
    equal(
      await first("the agent told me to log in to npm before publishing"),
      "npm-login",
    );
    equal(
      await first("which figma call came back with a 429 rate limit?"),
      "figma-limit",
    );
    equal(
      await first("the credit card form failed validation for every account"),
      "credit-card",
    );
  });
});

Deno.test("search() puts the sessions of a project the question names first", async (t) => {
  const fixtures: Fixture[] = [
    {
      id: "club-hello",
      project: "club-dashboard",
      age: 1,
      turns: [
        ["user", "hi"],
        ["assistant", "Hi! Ready to help with your club dashboard project."],
      ],
    },
    {
      id: "club-logout",
      project: "club-dashboard",
      age: 2,
      turns: [
        ["user", "logout"],
        ["assistant", "The logout route is handled in routes/auth.py."],
      ],
    },
    {
      id: "infra-grace",
      project: "platform-infra",
      age: 3,
      turns: [
        ["user", "why is the staging shop-api health check grace period 180s?"],
        [
          "assistant",
          "Migrations take two minutes, so the grace period is 180s.",
        ],
      ],
    },
    {
      id: "shop-checkout",
      project: "shop-api",
      age: 4,
      turns: [
        ["user", "checkout timed out during the staging deploy"],
        ["assistant", "The health check passed but checkout timed out."],
      ],
    },
    ...gardenFiller(),
  ];
  await withFixtures(fixtures, async (db) => {
    await t.step(
      "a name of two words, taken out of the words searched",
      async () => {
        const r = await search(db, "where is logout handled club dashboard", {
          now: NOW,
        });
        equal(ids(r)[0], "club-logout");
        ok(r.ladder?.some((s) => s.note?.includes("names a project")));
      },
    );
    await t.step("the words leading to the name go with it", async () => {
      const r = await search(
        db,
        "where is logout handled in the club dashboard",
        { now: NOW },
      );
      equal(ids(r)[0], "club-logout");
      ok(
        r.ladder?.some((s) =>
          s.searched === "where is logout handled in project club-dashboard"
        ),
        JSON.stringify(r.ladder),
      );
    });
    await t.step(
      "not where another project's answer says the name",
      async () => {
        const r = await search(
          db,
          "why is the staging shop-api health check grace period three minutes?",
          { now: NOW },
        );
        equal(ids(r)[0], "infra-grace");
      },
    );
    await t.step("not a name inside a path", async () => {
      const r = await search(
        db,
        "where is logout handled in /srv/club-dashboard/app.py",
        { now: NOW },
      );
      ok(!r.ladder?.some((s) => s.note?.includes("names a project")));
    });
    await t.step("not when a project is chosen already", async () => {
      const r = await search(db, "where is logout handled club dashboard", {
        now: NOW,
        project: "platform-infra",
      });
      ok(!r.ladder?.some((s) => s.note?.includes("names a project")));
    });
  });
});

Deno.test("search() prefers the turn saying when, for a question asking when someone did something", async () => {
  const fixtures: Fixture[] = [
    {
      id: "pottery-talk",
      age: 2,
      turns: [
        [
          "user",
          "Maria went to the pottery class and loved the pottery class.",
        ],
        ["assistant", "That sounds lovely."],
      ],
    },
    {
      id: "pottery-when",
      age: 3,
      turns: [
        [
          "user",
          "Maria went to a pottery class last weekend with her sister.",
        ],
        ["assistant", "Nice!"],
      ],
    },
    ...gardenFiller(),
  ];
  await withFixtures(fixtures, async (db) => {
    const r = await search(db, "When did Maria go to the pottery class?", {
      now: NOW,
    });
    equal(ids(r)[0], "pottery-when");
  });
});

Deno.test("search() prefers someone's own account over a reply to it, for a question about them", async (t) => {
  // The reply says the words in fewer others; the account answers.
  for (
    const reply of [
      "Glad you had fun at the lake park with the kids, Melanie!",
      "I bet you and the kids loved the lake park, Melanie!",
    ]
  ) {
    await t.step(reply, async () => {
      const fixtures: Fixture[] = [
        {
          id: "park-reply",
          age: 2,
          turns: [["user", "How was your weekend?"], ["assistant", reply]],
        },
        {
          id: "park-account",
          age: 3,
          turns: [
            ["user", "How was your weekend?"],
            [
              "assistant",
              "Melanie: I took the kids to the lake park and we fed the ducks.",
            ],
          ],
        },
        ...gardenFiller(),
      ];
      await withFixtures(fixtures, async (db) => {
        const r = await search(
          db,
          "What did Melanie and the kids do at the lake park?",
          { now: NOW },
        );
        equal(ids(r)[0], "park-account");
      });
    });
  }
});

Deno.test("search() orders the closest matches by time when the question asks for the first or the latest", async (t) => {
  const run = (id: string, age: number, reply: string): Fixture => ({
    id,
    age,
    turns: [
      ["user", "run the nightly spec export for the butler"],
      ["assistant", reply],
    ],
  });
  // The middle run says the words most: first without the ordinal.
  const fixtures = [
    run("export-middle", 5, "Exported the nightly spec; the export ran."),
    run("export-newest", 2, "Done."),
    run("export-oldest", 9, "Done."),
    ...gardenFiller(),
  ];
  await withFixtures(fixtures, async (db) => {
    await t.step("the latest", async () => {
      const r = await search(db, "the latest nightly spec export attempt", {
        now: NOW,
      });
      equal(ids(r)[0], "export-newest");
      ok(r.ladder?.some((s) => s.note === "the query asks for the latest one"));
    });
    await t.step("neither", async () => {
      const r = await search(db, "the nightly spec export run", { now: NOW });
      equal(ids(r)[0], "export-middle");
    });
    await t.step("the very first", async () => {
      const r = await search(db, "the very first nightly spec export run", {
        now: NOW,
      });
      equal(ids(r)[0], "export-oldest");
    });
  });
});

/** A five-day-old session of one prompt and one reply. */
function exchange(id: string, user: string, assistant: string): Fixture {
  return { id, age: 5, turns: [["user", user], ["assistant", assistant]] };
}

Deno.test("search() does not lift a long session for a decision said somewhere in it", async () => {
  // Both hold the question's words in one message alike; the long one also
  // says "decided" about something else, forty records in.
  const turns: Turn[] = [
    ["user", "the cache warmup job stalls after the deploy"],
    ["assistant", "Looking at the warmup job logs now."],
  ];
  const long: Fixture = {
    id: "long",
    age: 5,
    turns: [
      ...turns,
      ...Array.from(
        { length: 36 },
        (_, i): Turn =>
          i % 2 ? ["assistant", `step ${i} looks fine`] : ["user", `next ${i}`],
      ),
      ["assistant", "We decided to keep the tabs layout for the sidebar."],
    ],
  };
  await withFixtures(
    [long, { id: "short", age: 5, turns }, ...gardenFiller()],
    async (db) => {
      const r = await search(
        db,
        "why did the cache warmup job stall after the deploy?",
        { now: NOW, explain: true },
      );
      deepEqual(ids(r).slice(0, 2), ["short", "long"]);
      equal(r.results[1]?.explain?.signals.decision, 1);
    },
  );
});

Deno.test("search() drops two words before a name the person typed", async () => {
  await withFixtures([
    exchange(
      "site",
      "can you open haichu.io.vn and tell me what is on it",
      "The site at haichu.io.vn is not returning any content right now.",
    ),
    exchange(
      "fetch-a",
      "the fetch returned an empty body",
      "check the headers",
    ),
    exchange(
      "fetch-b",
      "why is the json empty",
      "the fetch call returned early",
    ),
    exchange("other-a", "rename the build script", "done"),
    exchange("other-b", "add a readme section", "done"),
    exchange("other-c", "the cache returned stale rows", "cleared it"),
  ], async (db) => {
    const r = await search(db, "haichu.io.vn fetch returned empty", {
      now: NOW,
    });
    const relaxed = r.ladder?.find((s) => s.tier === "relaxed");
    equal(relaxed?.note, "ignoring fetch, empty");
    ok(r.results.some((h) => h.session.id === "site" && h.tier === "relaxed"));
  });
});

Deno.test("search() finds a misremembered identifier by the rarest parts it shares", async () => {
  await withFixtures([
    exchange(
      "sdk",
      "native-run failed with ERR_SDK_NOT_FOUND: No valid Android SDK root found",
      "Install Android Studio and set ANDROID_HOME, then fix the PATH.",
    ),
    exchange("missing", "the icon is missing on android", "fix the asset path"),
    exchange("other", "a config key is missing", "added it"),
  ], async (db) => {
    const r = await search(db, "ERR_ANDROID_SDK_MISSING fix", { now: NOW });
    const fuzzy = r.ladder?.find((s) => s.tier === "fuzzy");
    ok(fuzzy?.note?.includes("→"), fuzzy?.note);
    equal(r.results[0]?.session.id, "sdk");
    equal(r.results[0]?.tier, "fuzzy");
  });
});

Deno.test("search() finds a misquoted phrase by the most of its words one record holds", async () => {
  await withFixtures([
    exchange("balance", "hello", "APIError 402: Insufficient Balance"),
    exchange("funds", "move the funds page to http", "moved"),
    exchange("proxy", "the http proxy is down", "restarted it"),
  ], async (db) => {
    const r = await search(db, '"Insufficient funds (HTTP 402)"', {
      now: NOW,
    });
    equal(r.results[0]?.session.id, "balance");
    equal(r.results[0]?.tier, "fuzzy");
  });
});

Deno.test("search() puts first a session whose output holds more of a keyword query than any message does", async () => {
  const r = await foundAmong([
    {
      id: "printed",
      age: 5,
      turns: [
        ["user", "what is this folder for?"],
        [
          "tool-output",
          'OpenrouterException: {"message": "qwen3-235b is not a valid model ID"}',
        ],
      ],
    },
    // Said two of the words, printed none of the rest.
    exchange(
      "talked",
      "which qwen3 model should I try first on this laptop?",
      "Start with the 8B model; it fits in memory.",
    ),
    exchange("other", "the model page is slow", "Cache the list."),
  ], "openrouter qwen3 invalid model");
  equal(ids(r)[0], "printed", JSON.stringify(r.ladder));
  ok(
    r.ladder?.some((s) =>
      s.note?.startsWith("before what was said: sessions whose messages")
    ),
    JSON.stringify(r.ladder),
  );
});

Deno.test("search() puts first a session whose output holds a keyword query's words together where speech holds them scattered", async () => {
  const r = await foundAmong([
    {
      id: "greeted",
      age: 5,
      turns: [
        ["user", "こんにちは"],
        ["tool-output", "Invalid API key · Please run /login"],
      ],
    },
    // Says the same words, one or two per message.
    {
      id: "talked",
      age: 5,
      turns: [
        ["user", "the api docs are long"],
        ["assistant", "That key looks invalid."],
        ["user", "then I will login again tomorrow"],
        ["assistant", "Fine."],
      ],
    },
  ], "konnichiwa invalid api key login");
  equal(ids(r)[0], "greeted", JSON.stringify(r.ladder));
});

Deno.test("search() looks in work records for a question no message answers whole", async () => {
  const r = await foundAmong([
    {
      id: "printed",
      age: 5,
      turns: [
        ["user", "upload the backup please"],
        [
          "tool-output",
          "Error: disk quota exceeded while uploading backup.tar",
        ],
      ],
    },
    // Says most of the words, printed nothing.
    exchange(
      "talked",
      "the backup upload stopped again, is the disk full?",
      "The disk has room; retry it.",
    ),
  ], "where did the backup upload stop with the disk quota exceeded?");
  equal(ids(r)[0], "printed", JSON.stringify(r.ladder));
});

Deno.test("search() shows what output found after the first three speech hits", async () => {
  const spoke = (i: number): Fixture =>
    exchange(
      `spoke-${i}`,
      `the capacitor warning light blinked on rig ${i}`,
      "Replace the fuse.",
    );
  const r = await foundAmong([
    spoke(1),
    spoke(2),
    spoke(3),
    spoke(4),
    {
      id: "printed",
      age: 5,
      turns: [
        ["user", "run the diagnostics"],
        ["tool-output", "capacitor bank B overheated"],
      ],
    },
  ], "why did the capacitor warning say overheated?");
  deepEqual(ids(r).indexOf("printed"), 3, JSON.stringify(ids(r)));
});

Deno.test("search() puts first a session whose output holds what its messages do not say", async () => {
  const r = await foundAmong([
    {
      id: "ran-out",
      age: 5,
      turns: [
        ["user", "why is the server not up"],
        [
          "tool-output",
          "OllamaException: model requires more system memory (5.7 GiB) than is available",
        ],
        [
          "tool-output",
          "litellm.Timeout: Connection timed out after 600 seconds",
        ],
      ],
    },
    // Said some of the words, printed none of the rest.
    exchange(
      "talk",
      "which ollama model fits in RAM on this laptop?",
      "A 7B model at 4-bit is a 5.7 GiB download.",
    ),
    exchange("wait", "the page waits for a few seconds", "Add a spinner."),
  ], "ollama wanted 5.7 GiB and gave up after 600 seconds");
  equal(ids(r)[0], "ran-out");
  ok(
    r.ladder?.some((s) =>
      s.note?.startsWith("before what was said: sessions whose messages")
    ),
    JSON.stringify(r.ladder),
  );
  // Every word in what one session said and ran, against most of them said.
  const killed = await foundAmong([
    {
      id: "killed",
      age: 5,
      turns: [
        ["user", "the viewer hangs, restart it"],
        ["assistant", "The agent will stop the process first."],
        ["command", "taskkill /IM viewer.exe /F"],
        ["tool-output", "SUCCESS: the running process viewer.exe was ended"],
      ],
    },
    {
      id: "agents",
      age: 5,
      turns: [
        ["user", "which agent is running right now?"],
        ["assistant", "The build agent, for the last hour."],
        ["user", "and where does the installer exe end up?"],
        ["assistant", "In the dist folder."],
      ],
    },
  ], "the agent taskkilled my running exe");
  equal(ids(killed)[0], "killed");
});

Deno.test("search() reads a framework's short name for its full one", async () => {
  const r = await foundAmong([
    exchange(
      "phx",
      "mix phx.server does not start",
      "The port is taken; stop the other server.",
    ),
    exchange("rails", "the rails server does not start", "Run bundle first."),
  ], "phoenix server does not start");
  equal(ids(r)[0], "phx");
  ok(
    r.ladder?.some((s) => s.note?.includes("phoenix → phx")),
    JSON.stringify(r.ladder),
  );
});

Deno.test("search() reads deleted as removed and repair as fix", async () => {
  const r = await foundAmong([
    exchange(
      "route",
      "the settings page is missing and the build fails",
      "I removed the settings route from app.routes.ts.",
    ),
    exchange("page", "make the settings page", "Created the page."),
  ], "settings page missing so it deleted the route");
  equal(ids(r)[0], "route");
  ok(
    r.ladder?.some((s) => s.note?.includes("deleted → removed")),
    JSON.stringify(r.ladder),
  );
});

Deno.test("search() puts what said far less after sessions that say some words and print the rest", async () => {
  const order = ids(
    await foundAmong([
      exchange(
        "said",
        "the nightly export cron job stopped",
        "The export job needs its cron entry back.",
      ),
      {
        id: "printed",
        age: 5,
        turns: [
          ["user", "check the batch runner"],
          ["command", "systemctl status nightly-export"],
          ["tool-output", "the export job was killed by the kernel"],
        ],
      },
      exchange("mention", "what is a cron expression?", "Five fields."),
    ], "nightly export cron job killed"),
  );
  ok(
    order.indexOf("printed") >= 0 &&
      order.indexOf("printed") < order.indexOf("mention"),
    order.join(", "),
  );
});

Deno.test("search() answers a question nothing said holds from what a tool printed", async () => {
  const question =
    "which region was vertex looking in when the sonnet model came back not found?";
  const regions = exchange(
    "regions",
    "which cloud region is cheapest?",
    "Often us-east.",
  );
  const answered = ids(
    await foundAmong([
      {
        id: "vertex",
        age: 5,
        turns: [
          ["user", "what is this repo doing?"],
          [
            "tool-output",
            "VertexAIException NotFoundError: publisher model claude-sonnet-4 not found in region europe-west4",
          ],
        ],
      },
      regions,
      exchange("empty", "the model came back with nothing", "Retry later."),
    ], question),
  );
  equal(answered[0], "vertex", answered.join(", "));
  // The words scattered over a long log answer no question.
  const filler = (from: number) =>
    Array.from({ length: 40 }, (_, i) => `step ${from + i} fine`);
  const scattered = ids(
    await foundAmong([
      {
        id: "scattered",
        age: 5,
        turns: [
          ["user", "tidy the logs please"],
          [
            "tool-output",
            [
              "region list loaded",
              ...filler(0),
              "vertex client ready",
              ...filler(40),
              "sonnet weights warm",
              ...filler(80),
              "model checks passed",
              ...filler(120),
              "found no stale files",
              ...filler(160),
              "the worker came up again",
            ].join("\n"),
          ],
        ],
      },
      regions,
    ], question),
  );
  equal(scattered[0], "regions", scattered.join(", "));
});

Deno.test("search() still looks for the names a long question gives past its budget", async () => {
  // Words of the first sentences many sessions say.
  const chatter = Array.from(
    { length: 4 },
    (_, i) =>
      exchange(
        `chatter-${i}`,
        `thinking about the library app, week ${i}`,
        "Noted.",
      ),
  );
  const r = await foundAmong(
    [
      ...chatter,
      // Only the names said last, past the budget, are its.
      exchange(
        "migrate",
        "swap mongoose for supabase in the books service",
        "Done: the models now use supabase clients.",
      ),
    ],
    "So we are thinking about ditching the database for the library management app next quarter, because the team keeps complaining about hosting costs and slow queries. I once asked an agent to look over the project and help move it from mongoose to supabase. Did it ever get to an actual migration plan?",
  );
  equal(ids(r)[0], "migrate", ids(r).join(", "));
});
