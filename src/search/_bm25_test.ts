import { deepEqual, equal, ok } from "node:assert/strict";
import {
  type Bm25Term,
  meanRecordLength,
  postingsOf,
  recordBm25,
  type RecordContributions,
  recordLengths,
  sessionBm25,
  termFrequencies,
} from "./_bm25.ts";
import { openIndex, recordRowid } from "../index/schema.ts";

/** The rowid of an assistant record: session, ordinal. */
const rec = (session: number, ordinal: number) =>
  recordRowid(session, ordinal, "assistant");

Deno.test("recordBm25() ranks three mentions in a short turn above one in a long turn", () => {
  const short = rec(1, 3);
  const long = rec(2, 5);
  const lengths = new Map([[short, 12], [long, 300]]);
  const term: Bm25Term = {
    weight: 1,
    idf: 2,
    rowids: [long, short],
    tf: new Map([[short, 3], [long, 1]]),
  };
  const out = recordBm25([term], {
    lengthOf: (id) => lengths.get(id),
    meanLength: 40,
  });
  ok(out.get(short)!.score > out.get(long)!.score);
});

Deno.test("recordBm25() scores by term frequency, length, IDF and role", async (t) => {
  const base = rec(1, 0);
  const score = (
    over: Partial<{ tf: number; len: number; idf: number; user: boolean }>,
  ) => {
    const id = base + (over.user ? 1 : 0);
    const out = recordBm25([{
      weight: 1,
      idf: over.idf ?? 1,
      rowids: [id],
      tf: new Map([[id, over.tf ?? 1]]),
    }], { lengthOf: () => over.len ?? 40, meanLength: 40 });
    return out.get(id)!.score;
  };
  const cases: Array<[string, number, number]> = [
    ["more occurrences score higher", score({ tf: 2 }), score({ tf: 1 })],
    ["a shorter record scores higher", score({ len: 10 }), score({ len: 80 })],
    ["a rarer term scores higher", score({ idf: 3 }), score({ idf: 1 })],
    ["a user turn scores higher", score({ user: true }), score({})],
  ];
  for (const [name, higher, lower] of cases) {
    await t.step(name, () => ok(higher > lower));
  }
  await t.step("term frequency saturates", () => {
    ok(score({ tf: 20 }) < 2.2 * score({ tf: 1 }));
  });
});

Deno.test("recordBm25() scores only the records asked for, and counts a posting without a frequency once", () => {
  const a = rec(1, 0);
  const b = rec(1, 1);
  const out = recordBm25([{ weight: 1, idf: 1, rowids: [b, a] }], {
    lengthOf: () => 40,
    meanLength: 40,
    only: new Set([a]),
  });
  deepEqual([...out.keys()], [a]);
  const once = recordBm25([{ weight: 1, idf: 1, rowids: [a] }], {
    lengthOf: () => 40,
    meanLength: 40,
  }).get(a)!.score;
  const tfOne = recordBm25([{
    weight: 1,
    idf: 1,
    rowids: [a],
    tf: new Map([[a, 1]]),
  }], { lengthOf: () => 40, meanLength: 40 }).get(a)!.score;
  equal(once, tfOne);
});

function contributions(
  rowid: number,
  parts: number[],
): [number, RecordContributions] {
  return [rowid, {
    rowid,
    parts: Float64Array.from(parts),
    score: parts.reduce((x, y) => x + y, 0),
  }];
}

Deno.test("sessionBm25() orders sessions by their best record, then damped next ones", async (t) => {
  // Session 1: one strong record. Session 2: two middling ones.
  const records = new Map([
    contributions(rec(1, 0), [3, 0]),
    contributions(rec(2, 0), [2, 0]),
    contributions(rec(2, 9), [2, 0]),
  ]);
  await t.step("best record only (the default)", () => {
    const out = sessionBm25(records, { neighbourGap: 0 });
    ok(out.get(1)!.score > out.get(2)!.score);
    equal(out.get(2)!.score, 2);
  });
  await t.step("with damping the runner-up adds its share", () => {
    const out = sessionBm25(records, { neighbourGap: 0, damping: [0.75] });
    equal(out.get(2)!.score, 3.5);
    ok(out.get(2)!.score > out.get(1)!.score);
  });
  await t.step("best records come best first, ties to the earlier", () => {
    const out = sessionBm25(records, { neighbourGap: 0 });
    deepEqual(out.get(2)!.records, [rec(2, 0), rec(2, 9)]);
  });
});

Deno.test("sessionBm25() lends a neighbour's term at a share, never twice", async (t) => {
  // Ordinal 4 asks (term 0), ordinal 5 answers (term 1); ordinal 9 is far.
  const records = new Map([
    contributions(rec(1, 4), [2, 0]),
    contributions(rec(1, 5), [0, 4]),
    contributions(rec(1, 9), [2, 0]),
  ]);
  const out = sessionBm25(records, { neighbourGap: 1, neighbourShare: 0.5 });
  await t.step("the answer counts half the question's term", () => {
    equal(out.get(1)!.score, 4 + 0.5 * 2);
    equal(out.get(1)!.records[0], rec(1, 5));
  });
  await t.step("a term the record holds is not lent again", () => {
    const same = sessionBm25(
      new Map([
        contributions(rec(3, 0), [1, 0]),
        contributions(rec(3, 1), [5, 0]),
      ]),
      { neighbourGap: 1, neighbourShare: 0.5 },
    );
    equal(same.get(3)!.score, 5);
  });
  await t.step("records past the gap lend nothing", () => {
    const far = sessionBm25(
      new Map([
        contributions(rec(4, 0), [2, 0]),
        contributions(rec(4, 3), [0, 1]),
      ]),
      { neighbourGap: 1, neighbourShare: 0.5 },
    );
    equal(far.get(4)!.score, 2);
  });
});

Deno.test("postingsOf() finds each session's range in descending postings", async (t) => {
  const rowids = [rec(9, 1), rec(7, 4), rec(7, 0), rec(3, 2), rec(1, 0)];
  const cases: Array<[string, number[], number[]]> = [
    ["one session", [7], [rec(7, 4), rec(7, 0)]],
    ["several, any order", [1, 9], [rec(9, 1), rec(1, 0)]],
    ["a session with no postings", [5], []],
    ["first and last", [9, 1, 3], [rec(9, 1), rec(3, 2), rec(1, 0)]],
  ];
  for (const [name, sessions, want] of cases) {
    await t.step(name, () => deepEqual(postingsOf(rowids, sessions), want));
  }
});

Deno.test("termFrequencies(), recordLengths() and meanRecordLength() read FTS5's own counts", async () => {
  const dir = await Deno.makeTempDir({ prefix: "deja-bm25-" });
  const db = openIndex(`${dir}/index.db`);
  try {
    const texts: Array<[number, string]> = [
      [rec(1, 0), "the parser drops a token, the parser retries"],
      [rec(1, 1), "parsers again: parsing fails"],
      [rec(2, 0), "nothing to see here"],
    ];
    const insert = db.prepare(
      "INSERT INTO fts_speech(rowid, text) VALUES (?, ?)",
    );
    for (const [id, text] of texts) insert.run(id, text);
    deepEqual(
      termFrequencies(db, "fts_speech", "parser", 100),
      new Map([[rec(1, 0), 2], [rec(1, 1), 1]]),
    );
    equal(termFrequencies(db, "fts_speech", "parser", 2), undefined);
    deepEqual(
      recordLengths(db, "fts_speech", [rec(1, 0), rec(2, 0), rec(5, 0)]),
      new Map([[rec(1, 0), 8], [rec(2, 0), 4]]),
    );
    equal(meanRecordLength(db, "fts_speech"), (8 + 4 + 4) / 3);
    equal(meanRecordLength(db, "fts_work"), 0);
  } finally {
    db.close();
    await Deno.remove(dir, { recursive: true });
  }
});
