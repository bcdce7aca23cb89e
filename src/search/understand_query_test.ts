import { deepEqual, equal, ok } from "node:assert/strict";
import { extractAsk, understandQuery } from "./understand_query.ts";

const NOW = Date.UTC(2026, 10, 30, 12);
const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`);

function terms(query: string): string[] {
  return understandQuery(query, { now: NOW }).terms.map((t) =>
    t.alternatives.length ? `${t.text}|${t.alternatives.join("|")}` : t.text
  );
}

Deno.test("extractAsk() takes the last question line, then its last question clause", async (t) => {
  const cases: Array<[string, string]> = [
    ["docker compose port", "docker compose port"],
    [
      "TypeError: x is undefined\n    at a (b.js:1:2)\n    at c (d.js:3:4)\nwhy does the build fail?",
      "why does the build fail?",
    ],
    [
      "Look at the failing test and fix it. Why does the parser drop the last line? Thanks",
      "Why does the parser drop the last line?",
    ],
    ['fix "a. b? c" now', 'fix "a. b? c" now'],
    [
      "first line\nsecond line without a question",
      "second line without a question",
    ],
    [
      "Error: chunk failed\n  at x.js:1\nionic serve shows this after adding the page. how was it solved?",
      "ionic serve shows this after adding the page. how was it solved?",
    ],
  ];
  for (const [prompt, ask] of cases) {
    await t.step(ask, () => equal(extractAsk(prompt).ask, ask));
  }
});

Deno.test("extractAsk() puts the ask's own line before the pasted lines", () => {
  const { rest } = extractAsk(
    "Error: chunk failed\n  at x.js:1\nThe sidebar broke. Why does the route fail?",
  );
  equal(rest, "The sidebar broke.\nError: chunk failed\nat x.js:1");
});

Deno.test("understandQuery() drops stop words unless nothing else is left", () => {
  deepEqual(terms("why did we pin the redis client?"), [
    "pin",
    "redis",
    "client",
  ]);
  deepEqual(terms("what is it"), ["what", "is", "it"]);
  deepEqual(terms("remind me what we discussed about kafka"), ["kafka"]);
  deepEqual(terms("как мы чинили кэш"), ["чинили", "кэш"]);
  // When it happened in the asker's memory: no topic, no window.
  deepEqual(terms("what did we change last time the build job failed?"), [
    "change",
    "build|built",
    "job",
    "failed",
  ]);
  // Filler a person says around the subject (measured: docs/search.md).
  deepEqual(
    terms("how do we make sure the hooks are from the sender, maybe later?"),
    ["make|made", "hooks", "sender"],
  );
});

Deno.test("understandQuery() drops the words that ask for a session, not a session as a subject", () => {
  const terms = (q: string) =>
    understandQuery(q, { now: NOW }).terms.map((t) => t.text);
  deepEqual(terms("which session touched the cache client?"), [
    "touched",
    "cache",
    "client",
  ]);
  deepEqual(terms("find the session where we split the Containerfile"), [
    "split",
    "containerfile",
  ]);
  deepEqual(terms("what session timeout did we set?"), [
    "session",
    "timeout",
    "set",
  ]);
  deepEqual(terms("login cookie session"), ["login", "cookie", "session"]);
  deepEqual(terms("which session replaced the date library?"), [
    "replaced",
    "date",
    "library",
  ]);
  deepEqual(terms("the session cookie expired"), [
    "session",
    "cookie",
    "expired",
  ]);
});

Deno.test("understandQuery() keeps phrases and code whole and splits identifiers", () => {
  deepEqual(terms('"connection pool" exhausted'), [
    "connection pool",
    "exhausted",
  ]);
  deepEqual(terms("`npm run build` hangs"), ["npm run build", "hangs"]);
  deepEqual(terms("getUserProfile"), ["getuserprofile|get user profile"]);
  deepEqual(terms("user_profile eu-west-1"), ["user profile", "eu west 1"]);
});

Deno.test("understandQuery() takes words in single quotes as a phrase, never an apostrophe", () => {
  const kinds = (q: string) =>
    understandQuery(q, { now: 0 }).terms.map((t) => `${t.kind}:${t.text}`);
  deepEqual(
    kinds("what was broken in 'model requires more memory (5.7 GiB)'?"),
    ["word:broken", "phrase:model requires more memory (5.7 gib)"],
  );
  deepEqual(kinds("the ‘error page’ broke"), [
    "phrase:error page",
    "word:broke",
  ]);
  // Apostrophes open no quote, and one quoted word stays a word.
  deepEqual(kinds("why don't we use Jon's 'fast' script?"), [
    "word:jon",
    "word:fast",
    "word:script",
  ]);
});

Deno.test("understandQuery() keeps a phrase's or a compound's first 32 words", () => {
  const blob = "a🎉".repeat(2700);
  const [compound] = understandQuery(blob, { now: NOW }).terms;
  equal(compound?.text, Array(32).fill("a").join(" "));
  const words = Array.from({ length: 50 }, (_, i) => `w${i}`);
  const [phrase] = understandQuery(`"${words.join(", ")}"`, { now: NOW })
    .terms;
  equal(phrase?.text, words.slice(0, 32).join(", "));
});

Deno.test("understandQuery() gives an irregular verb its other forms", async (t) => {
  const cases: Array<[string, string[]]> = [
    ["when did she go to the conference?", ["go|went|gone", "conference"]],
    ["what has he taken", ["taken|take|took"]],
    ["why did we choose postgres", ["choose|chose|chosen", "postgres"]],
    // Regular verbs are Porter's: no alternatives.
    ["when did we deploy", ["deploy"]],
  ];
  for (const [query, expected] of cases) {
    await t.step(query, () => deepEqual(terms(query), expected));
  }
});

Deno.test("understandQuery() searches a verb and its particle as one word too", async (t) => {
  const cases: Array<[string, string[]]> = [
    ["it told me to log in again", ["login|log in|signin|sign in"]],
    ["who logged out the admin", [
      "logout|logged out|signout|sign out",
      "admin",
    ]],
    ["when did we roll back the deploy?", [
      "rollback|roll back",
      "deploy",
    ]],
    // A particle that is no part of a compound, or a quoted one: nothing.
    ["log of the deploy", ["log", "deploy"]],
    ['set "up" the runner', ["set", "up", "runner"]],
  ];
  for (const [query, expected] of cases) {
    await t.step(query, () => deepEqual(terms(query), expected));
  }
});

Deno.test("understandQuery() turns CJK runs into bigrams without function pairs", () => {
  deepEqual(terms("连接池大小调到多少"), [
    "连接",
    "接池",
    "池大",
    "大小",
    "小调",
    "调到",
  ]);
});

Deno.test("understandQuery() spends the budget on the ask first", () => {
  const log = Array.from({ length: 30 }, (_, i) => `ERROR worker${i} crashed`)
    .join("\n");
  const q = understandQuery(`${log}\nwhy does the nightly export time out?`, {
    now: NOW,
  });
  ok(q.long);
  deepEqual(q.terms.slice(0, 3).map((t) => t.text), [
    "nightly",
    "export",
    "timeout",
  ]);
  equal(q.terms[0]!.weight, 1);
  ok(q.terms.slice(3).every((t) => t.weight < 1));
  // Past the budget of ten, twenty more words said around the ask are
  // looked for but not required; the rest are left out.
  ok(q.terms.filter((t) => !t.optional).length <= 10);
  ok(q.terms.slice(10).every((t) => t.optional && t.weight < 1));
  ok(q.terms.length <= 30 && q.overBudget.length > 0);
});

Deno.test("understandQuery() weighs what was pasted as the ask when the ask points at it", async (t) => {
  const paste = "litellm.NotFoundError: VertexAIException\n  code 404";
  const weights = (query: string) =>
    Object.fromEntries(
      understandQuery(query, { now: NOW }).terms.map((x) => [x.text, x.weight]),
    );
  await t.step("an ask with under two words of its own", () => {
    const w = weights(
      `${paste}\n\nwhich run was this, and what was I asking it at the time?`,
    );
    equal(w["vertexaiexception"], 1);
    equal(w["run"], undefined);
    equal(w["time"], undefined);
  });
  await t.step("an ask that says 'like this'", () => {
    const w = weights(`${paste}\n\nfind the runs where the bot died like this`);
    equal(w["died"], 1);
    equal(w["vertexaiexception"], 1);
  });
  await t.step("the pasted lines nearest the ask come first", () => {
    const frames = Array.from(
      { length: 12 },
      (_, i) => `  File "worker${i}.py", line ${i + 10}, in step${i}`,
    ).join("\n");
    const w = weights(
      `${frames}\nTypeError: can't multiply sequence by float\nwhich config was it running when it crashed like this?`,
    );
    equal(w["multiply"], 1);
    equal(w["like"], undefined);
    equal(w["worker0.py"], undefined);
  });
  await t.step("an ask of its own keeps the paste below it", () => {
    const w = weights(`${paste}\n\nwhy does the nightly export time out?`);
    equal(w["nightly"], 1);
    ok(w["vertexaiexception"]! < 1);
  });
  await t.step("'which chat' asks for a session", () => {
    deepEqual(terms("Which chat proposed the import rule?"), [
      "proposed",
      "import",
      "rule",
    ]);
  });
});

Deno.test("understandQuery() reads the size of the session asked for, not as a word", () => {
  const q = understandQuery("the short spotter chat about the phoenix server", {
    now: NOW,
  });
  equal(q.size, "short");
  deepEqual(q.terms.map((t) => t.text), ["spotter", "phoenix", "server"]);
  equal(understandQuery("a long session on redis", { now: NOW }).size, "long");
  equal(understandQuery("the short-lived token", { now: NOW }).size, undefined);
  // A run or "one" is a session too, up to two words may come between,
  // and the size may be said before the ask.
  const quick = understandQuery("that quick one where the sidebar broke", {
    now: NOW,
  });
  equal(quick.size, "short");
  deepEqual(quick.terms.map((t) => t.text), ["sidebar", "broke"]);
  equal(
    understandQuery("a tiny aider run on the folder", { now: NOW }).size,
    "short",
  );
  equal(
    understandQuery("the short ionic sidebar chat for the app", { now: NOW })
      .size,
    "short",
  );
  equal(
    understandQuery("Short one. Why wouldn't my phoenix app boot?", {
      now: NOW,
    }).size,
    "short",
  );
  equal(understandQuery("the big refactor session", { now: NOW }).size, "long");
  equal(
    understandQuery("in the long run should we cache it?", { now: NOW }).size,
    undefined,
  );
  // Any case, the comparatives, and words of any script between.
  equal(
    understandQuery("the LONGER chat about redis", { now: NOW }).size,
    "long",
  );
  equal(understandQuery("a Shorter session", { now: NOW }).size, "short");
  const cafe = understandQuery("the short café chat", { now: NOW });
  equal(cafe.size, "short");
  deepEqual(cafe.terms.map((t) => t.text), ["café"]);
});

Deno.test("understandQuery() searches signing out as logging out, and in as in", () => {
  deepEqual(terms("where does the app sign out members"), [
    "app",
    "signout|sign out|logout|log out",
    "members",
  ]);
  deepEqual(terms("logout route"), ["logout|signout|sign out", "route"]);
  deepEqual(terms("the signin page"), ["signin|login|log in", "page"]);
  deepEqual(terms("the sign-out link"), [
    "sign out|logout|log out|signout",
    "link",
  ]);
});

Deno.test("understandQuery() searches two hyphenated words also written as one", () => {
  deepEqual(terms("feature work through spec-kit"), [
    "feature",
    "work",
    "spec kit|speckit",
  ]);
  // Not a part with digits, nor words joined by dots.
  deepEqual(terms("eu-west-1 next.js"), ["eu west 1", "next js"]);
});

Deno.test("understandQuery() keeps 14 terms of a question typed whole", () => {
  const q = understandQuery(
    "what aider command line with which flags was used to fire one non-interactive question at the local qwen2.5 ollama model about the trading bot server?",
    { now: NOW },
  );
  ok(!q.long);
  equal(q.terms.length, 14);
  ok(
    q.terms.some((t) => t.text === "ollama"),
    q.terms.map((t) => t.text).join(),
  );
});

Deno.test("understandQuery() reads times said in words as a window", async (t) => {
  const cases: Array<[string, string, string]> = [
    ["node upgrade last week", "2026-11-23", "2026-11-30"],
    ["backup yesterday", "2026-11-29", "2026-11-30"],
    ["pricing page in september", "2026-09-01", "2026-10-01"],
    ["pricing page in december", "2025-12-01", "2026-01-01"],
    ["incidents in 2025", "2025-01-01", "2026-01-01"],
    ["release on 2026-05-01", "2026-05-01", "2026-05-02"],
    ["handoff two weeks ago", "2026-11-09", "2026-11-24"],
    ["the chats from january 2026", "2026-01-01", "2026-02-01"],
    ["release from 2026-05-01", "2026-05-01", "2026-05-02"],
  ];
  for (const [query, from, to] of cases) {
    await t.step(query, () => {
      const q = understandQuery(query, { now: NOW });
      equal(
        q.time?.from,
        day(from) + (query.includes("ago") ? 12 * 3_600_000 : 0),
      );
      equal(q.time?.to, day(to) + (query.includes("ago") ? 12 * 3_600_000 : 0));
      ok(
        !q.terms.some((x) =>
          ["last", "week", "yesterday", "ago"].includes(x.text)
        ),
      );
      // A month or year stays searchable, never required.
      for (
        const term of q.terms.filter((x) =>
          /^(september|december|2025)$/.test(x.text)
        )
      ) equal(term.optional, true);
    });
  }
  await t.step(
    "a vague count spans more: a few weeks ago is two to five",
    () => {
      const q = understandQuery("what broke a few weeks ago", { now: NOW });
      equal(q.time?.from, NOW - 35 * 86_400_000);
      equal(q.time?.to, NOW - 14 * 86_400_000 + 86_400_000);
      ok(understandQuery("a couple of days ago", { now: NOW }).time);
    },
  );
  await t.step(
    "from a month on opens the range; from a month alone is it",
    () => {
      const NEXT = NOW + 86_400_000;
      equal(
        understandQuery("fixes from march on", { now: NOW }).time?.to,
        NEXT,
      );
      equal(
        understandQuery("fixes from march to may", { now: NOW }).time?.from,
        day("2026-03-01"),
      );
      equal(
        understandQuery("fixes from march", { now: NOW }).time?.to,
        day("2026-04-01"),
      );
      equal(understandQuery("since march", { now: NOW }).time?.to, NEXT);
    },
  );
  await t.step("may as a verb is not a month", () => {
    equal(understandQuery("we may need a cache", { now: NOW }).time, undefined);
  });
  await t.step(
    "a month of last year or this year, a season, a month's session",
    () => {
      const H = 3_600_000;
      const cases: Array<[string, string, string, number]> = [
        [
          "in June last year the api quota ran out",
          "2025-06-01",
          "2025-07-01",
          0,
        ],
        ["June of last year", "2025-06-01", "2025-07-01", 0],
        ["the migration in March this year", "2026-03-01", "2026-04-01", 0],
        // A third of that month, with a time zone's slack.
        ["early June last year", "2025-06-01", "2025-06-11", 14 * H],
        // Now is the end of November: this summer has ended, this autumn
        // has not, this winter has not begun.
        ["our camping trip last summer", "2026-06-01", "2026-09-01", 0],
        ["last autumn", "2025-09-01", "2025-12-01", 0],
        ["over the winter", "2025-12-01", "2026-03-01", 0],
        ["this spring", "2026-03-01", "2026-06-01", 0],
        [
          "the February session where the server hung",
          "2026-02-01",
          "2026-03-01",
          0,
        ],
        ["that November chat", "2026-11-01", "2026-12-01", 0],
      ];
      for (const [query, from, to, slack] of cases) {
        const q = understandQuery(query, { now: NOW });
        equal(q.time?.from, day(from) - slack, query);
        equal(q.time?.to, day(to) + slack, query);
        ok(!q.terms.some((x) => ["last", "year", "this"].includes(x.text)));
      }
      // The season stays searchable, never required.
      const trip = understandQuery("our camping trip last summer", {
        now: NOW,
      });
      equal(trip.terms.find((x) => x.text === "summer")?.optional, true);
      // "May" is a verb as often: no month's session.
      equal(understandQuery("the May session", { now: NOW }).time, undefined);
    },
  );
});

Deno.test("understandQuery() reads named calendar days, with a day of slack for time zones", async (t) => {
  const H = 3_600_000;
  /** Each query's window: [from, to) days, widened by `slack` hours. */
  const expectWindows = (
    cases: ReadonlyArray<readonly [string, string, string]>,
    slack: number,
  ) => {
    for (const [query, from, to] of cases) {
      const q = understandQuery(query, { now: NOW });
      equal(q.time?.from, day(from) - slack * H, query);
      equal(q.time?.to, day(to) + slack * H, query);
    }
  };
  const cases: Array<[string, string, string]> = [
    [
      "who did Maria have dinner with on May 3, 2023?",
      "2023-05-03",
      "2023-05-04",
    ],
    ["the outage on 3 June, 2023", "2023-06-03", "2023-06-04"],
    ["what broke on the 2nd of March", "2026-03-02", "2026-03-03"],
    ["the release on December 24", "2025-12-24", "2025-12-25"],
  ];
  for (const [query, from, to] of cases) {
    await t.step(query, () => {
      const q = understandQuery(query, { now: NOW });
      equal(q.time?.from, day(from) - 14 * H);
      equal(q.time?.to, day(to) + 14 * H);
    });
  }
  await t.step("the week before a day reaches back seven days", () => {
    const q = understandQuery(
      "what did John do the week before August 3, 2023",
      {
        now: NOW,
      },
    );
    equal(q.time?.from, day("2023-07-27") - 14 * H);
    equal(q.time?.to, day("2023-08-04") + 14 * H);
  });
  // A named week reaches three days past its end: what happened in it is
  // often told just after ("last Friday").
  await t.step("a week or weekend of a month by its place", () => {
    const cases: Array<[string, string, string]> = [
      // October 2023 begins on a Sunday: its first weekend is the 7th.
      [
        "what did Dave do the first weekend of October 2023",
        "2023-10-07",
        "2023-10-12",
      ],
      ["the last weekend of September 2023", "2023-09-30", "2023-10-05"],
      [
        "which deploys ran the second week of March 2026",
        "2026-03-08",
        "2026-03-18",
      ],
      ["the last week of May 2025 outage", "2025-05-25", "2025-06-04"],
    ];
    expectWindows(cases, 14);
  });
  await t.step("the first or last days or weeks of a month", () => {
    const cases: Array<[string, string, string]> = [
      [
        "Where was Dave in the last two weeks of August 2023?",
        "2023-08-18",
        "2023-09-04",
      ],
      [
        "the first three days of March 2026 deploys",
        "2026-03-01",
        "2026-03-07",
      ],
    ];
    expectWindows(cases, 14);
  });
  await t.step("a date said with 'recently' is the one meant", () => {
    const q = understandQuery(
      "what filling was in the cake she made recently in May 2022",
      { now: NOW },
    );
    equal(q.time?.phrase, "in May 2022");
    equal(q.time?.from, day("2022-05-01"));
  });
  await t.step("a part of a year: its thirds", () => {
    const cases: Array<[string, string, string]> = [
      [
        "what was he building at the start of 2022?",
        "2022-01-01",
        "2022-05-01",
      ],
      ["the deploys of mid-2024", "2024-05-01", "2024-09-01"],
      ["late 2023 outage", "2023-09-01", "2024-01-01"],
    ];
    expectWindows(cases, 0);
  });
  await t.step("a season of a year", () => {
    const q = understandQuery("which state did she visit in summer 2021", {
      now: NOW,
    });
    equal(q.time?.from, day("2021-06-01"));
    equal(q.time?.to, day("2021-09-01"));
  });
  await t.step("as of a month means everything up to its end", () => {
    const q = understandQuery(
      "how many pets does he have as of December 2023",
      {
        now: NOW,
      },
    );
    equal(q.time?.from, 0);
    equal(q.time?.to, day("2024-01-01"));
  });
  await t.step(
    "a third of a month: late May, mid-June, the beginning of April, early December",
    () => {
      const cases: Array<[string, string, string]> = [
        ["which deploy failed in late May?", "2026-05-21", "2026-06-01"],
        ["the mid-june migration", "2026-06-11", "2026-06-21"],
        ["at the beginning of April", "2026-04-01", "2026-04-11"],
        // The first days of a month not reached yet this year: last year's.
        ["early december outage", "2025-12-01", "2025-12-11"],
        ["the end of may 2024", "2024-05-21", "2024-06-01"],
      ];
      for (const [query, from, to] of cases) {
        const q = understandQuery(query, { now: NOW });
        equal(q.time?.from, day(from) - 14 * H, query);
        equal(q.time?.to, day(to) + 14 * H, query);
        ok(
          !q.terms.some((x) => /^(late|mid|beginning|early|end)/.test(x.text)),
        );
      }
    },
  );
  await t.step("a day that does not exist is no window", () => {
    equal(
      understandQuery("tickets on February 30, 2025", { now: NOW }).time,
      undefined,
    );
  });
});

Deno.test("understandQuery() searches a noun as its verb and back where Porter keeps them apart", () => {
  const alts = (q: string) =>
    understandQuery(q, { now: NOW }).terms.map((t) => [
      t.text,
      t.alternatives,
    ]);
  deepEqual(alts("reconciliation verify fail table"), [
    ["reconciliation", ["reconcile"]],
    ["verify", ["verification"]],
    ["fail", ["failure"]],
    ["table", []],
  ]);
  // Porter already joins these: no second spelling.
  deepEqual(alts("deployment"), [["deployment", []]]);
});

Deno.test("understandQuery() marks words joined by hyphens or dots as plain", () => {
  const terms = understandQuery(
    "sub-agent next.js logout_user eu-west-1 AI-generated JSON.parse",
    { now: NOW },
  ).terms;
  deepEqual(
    terms.map((t) => [t.text, t.plain ?? false]),
    [
      ["sub agent", true],
      ["next js", true],
      ["logout user", false],
      ["eu west 1", false],
      ["ai generated", true],
      ["json parse", false],
    ],
  );
});

Deno.test("understandQuery() leaves out a clause naming what is not meant", () => {
  const q = understandQuery(
    "the aider run that failed on the quota, not the openrouter invalid model one",
    { now: NOW },
  );
  deepEqual(q.terms.map((t) => t.text), ["aider", "run", "failed", "quota"]);
  equal(q.notMeant, "not the openrouter invalid model one");
  // The choice itself stays: no article after "not".
  const choice = understandQuery("why did we pick redis, not memcached", {
    now: NOW,
  });
  ok(choice.terms.some((t) => t.text === "memcached"));
  equal(choice.notMeant, undefined);
  // "the short chat" says how big a session was, not what it was about.
  const size = understandQuery("the short chat about the container", {
    now: NOW,
  });
  deepEqual(size.terms.map((t) => t.text), ["container"]);
});

Deno.test("understandQuery() tells a question asking when someone else did something", () => {
  for (
    const ask of [
      "When did Maria go to the beach?",
      "when was Nate's first tournament",
      "what day did the release ship?",
    ]
  ) equal(understandQuery(ask, { now: NOW }).asksWhen, true, ask);
  for (
    const ask of [
      "when did we pin the redis client?",
      "When did I last rotate the key?",
      "why did the deploy fail?",
      "what time zone does the scheduler use",
    ]
  ) equal(understandQuery(ask, { now: NOW }).asksWhen, false, ask);
});

Deno.test("understandQuery() tells a question asking when something already happened", () => {
  const past = (ask: string) => understandQuery(ask, { now: NOW }).asksWhenPast;
  equal(past("When did Maria go to the beach?"), true);
  equal(past("when was Nate born"), true);
  equal(past("what day did the release ship?"), true);
  equal(past("When is Maria going to the beach?"), false);
  equal(past("when will the release ship?"), false);
  equal(past("when did we pin the redis client?"), false);
  // Asked when a plan was made, a turn making it answers.
  equal(past("When did Melanie sign up for a pottery class?"), false);
  equal(past("when did she book the flights to Tokyo?"), false);
});

Deno.test("understandQuery() drops the glue words of the language a query is written in", () => {
  deepEqual(
    understandQuery(
      "¿En qué chat pusimos un botón en la página de ajustes?",
      { now: NOW },
    ).terms.map((t) => t.text),
    ["pusimos", "botón", "página", "ajustes"],
  );
  const vi = understandQuery(
    "cái lần tôi chỉ gõ mỗi chữ logout rồi nó đi grep logout",
    { now: NOW },
  ).terms.map((t) => t.text);
  deepEqual(vi, ["gõ", "logout", "grep"]);
  // One Dutch-looking word, or two that are most of nothing, are English.
  ok(terms("the de facto default for retries").includes("de"));
  const english = terms(
    "the session where I left an AI comment asking what my fp library lacks",
  );
  ok(english.includes("ai") && english.includes("comment"), `${english}`);
});

Deno.test("understandQuery() reads words hyphenated into a description as words", () => {
  const t = terms("the not-in-the-TS-compilation error again");
  ok(t.some((x) => x.startsWith("compilation")), `${t}`);
  ok(!t.some((x) => x.includes("not in the")), `${t}`);
  // A short compound is a term of its own.
  ok(terms("the end-to-end suite").some((x) => x.startsWith("end to end")));
});

Deno.test("understandQuery() leaves out the ordinal that says which session", () => {
  const latest = terms(
    "The most recent time I fired off the nightly export it said there were no spec files",
  );
  ok(!latest.includes("recent") && !latest.includes("time"), `${latest}`);
  ok(latest.includes("export") && latest.includes("spec"), `${latest}`);
  // At the start of the question, and in a clause before the ask.
  const first = terms(
    "first attempt in the settings screen with the key input; what broke after the rename?",
  );
  ok(!first.includes("first") && !first.includes("attempt"), `${first}`);
  ok(first.includes("settings") && first.includes("rename"), `${first}`);
  // "On the first try" is a try within one session: its words stay.
  ok(terms("the upload failed on the first try").includes("first"));
});

Deno.test("understandQuery() marks a word capitalized inside a sentence as a name", () => {
  const proper = (q: string) =>
    understandQuery(q, { now: NOW }).terms.filter((t) => t.proper).map((t) =>
      t.text
    );
  deepEqual(proper("What does Caroline's necklace symbolize?"), ["caroline"]);
  deepEqual(proper("Caroline said the Figma export broke. Melanie agreed"), [
    "figma",
  ]);
  deepEqual(proper("the API key and the README"), []);
  // Names past ASCII, and a curly possessive.
  deepEqual(proper("What did Zoë’s sister say about Lyon?"), ["zoë", "lyon"]);
  deepEqual(proper("Where did Émile and Melanie go after the talk?"), [
    "émile",
    "melanie",
  ]);
});

Deno.test("understandQuery() reads a commit hash or a long number as typed on purpose", () => {
  const kinds = new Map(
    understandQuery("commit 0288653 made port 54321 listen, cafe 2023", {
      now: NOW,
    }).terms.map((t) => [t.text, t.kind]),
  );
  equal(kinds.get("0288653"), "code");
  equal(kinds.get("54321"), "code");
  equal(kinds.get("cafe"), "word");
  equal(kinds.get("commit"), "word");
  ok(kinds.get("2023") !== "code");
});

Deno.test("understandQuery() searches a kind by the things of that kind, and its verb as loosely", () => {
  const q = understandQuery("What car do I drive?", { now: NOW });
  const car = q.terms.find((t) => t.text === "car");
  ok(car?.things?.includes("civic"), "a Civic answers what car");
  equal(car?.optional, undefined);
  const drive = q.terms.find((t) => t.text === "drive");
  equal(drive?.optional, true);
  equal(drive?.weight, 0.5);
  // Beside other words the verb is one of the words the answer says.
  const hurt = understandQuery("Which sport was I playing when I got hurt?", {
    now: NOW,
  });
  equal(hurt.terms.find((t) => t.text === "playing")?.optional, undefined);
  // "drive" is no car's verb beside another kind.
  const book = understandQuery("Which book did I drive to the library for?", {
    now: NOW,
  });
  equal(book.terms.find((t) => t.text === "drive")?.optional, undefined);
});

Deno.test("understandQuery() searches counted things by their names, still required", () => {
  const q = understandQuery("How many musical instruments do I own?", {
    now: NOW,
  });
  const counted = q.terms.find((t) => t.text === "instruments");
  ok(counted?.things?.includes("cello"));
  equal(counted?.optional, undefined);
});

Deno.test("understandQuery() does not require the kind of answer asked for", () => {
  const q = understandQuery("Which city was Calvin visiting in August?", {
    now: NOW,
  });
  const city = q.terms.find((t) => t.text === "city");
  equal(city?.optional, true);
  equal(city?.weight, 0.5);
  // Alone, the kind is what is searched.
  equal(
    understandQuery("which games?", { now: NOW }).terms[0]?.optional,
    undefined,
  );
});
