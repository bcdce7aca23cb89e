// deno-lint-ignore-file no-console
/**
 * `deno run -A tests/bench/recall/cjk_bench.ts`: why CJK text is posted as
 * bigrams rather than in an FTS5 `trigram` table. Indexes the recall eval's
 * CJK sessions and their distractors both ways and ranks the eval's CJK
 * queries by IDF-weighted overlap of n-grams: hit@1, hit@5, queries a
 * table cannot even express (a two-character word has no trigram), and the
 * bytes each table adds.
 *
 * @module
 */
import { openDatabase } from "../../../src/core/_sqlite.ts";
import {
  cjkBigrams,
  cjkRuns,
  postingTokens,
} from "../../../src/index/tokens.ts";
import { CJK, CJK_DISTRACTORS } from "./_cjk_time.ts";
import type { Turn } from "./_coding.ts";

const texts = (turns: Turn[]) =>
  turns.map((t) => ("u" in t ? t.u : "a" in t ? t.a : "")).join("\n");
const docs = [
  ...CJK.map((e) => ({ key: e.key, text: texts(e.turns) })),
  ...CJK_DISTRACTORS.map((t, i) => ({
    key: `distractor-${i}`,
    text: texts(t),
  })),
];

function trigrams(run: string): string[] {
  const c = [...run];
  const out: string[] = [];
  for (let i = 0; i + 2 < c.length; i++) {
    out.push(c[i]! + c[i + 1]! + c[i + 2]!);
  }
  return out;
}

function measure(kind: "bigram" | "trigram"): void {
  const db = openDatabase(":memory:", { requireFts5: true });
  db.exec(
    kind === "bigram"
      ? "CREATE VIRTUAL TABLE t USING fts5(x, tokenize = 'porter unicode61 remove_diacritics 2')"
      : "CREATE VIRTUAL TABLE t USING fts5(x, tokenize = 'trigram')",
  );
  const insert = db.prepare("INSERT INTO t(rowid, x) VALUES (?, ?)");
  docs.forEach((d, i) =>
    insert.run(i + 1, kind === "bigram" ? postingTokens(d.text) : d.text)
  );
  const bytes =
    (db.prepare("SELECT sum(length(block)) AS n FROM t_data").get() as {
      n: number;
    }).n;
  let hit1 = 0;
  let hit5 = 0;
  let inexpressible = 0;
  let n = 0;
  for (const ep of CJK) {
    for (const q of ep.queries) {
      n++;
      const grams = cjkRuns(q).flatMap((r) =>
        kind === "bigram" ? cjkBigrams(r) : trigrams(r)
      );
      if (grams.length === 0) {
        inexpressible++;
        continue;
      }
      const score = new Map<number, number>();
      for (const g of new Set(grams)) {
        const rows = db.prepare("SELECT rowid FROM t WHERE t MATCH ?").all(
          `"${g}"`,
        ) as Array<{ rowid: number }>;
        const idf = Math.log(1 + docs.length / (rows.length + 0.5));
        for (const { rowid } of rows) {
          score.set(rowid, (score.get(rowid) ?? 0) + idf);
        }
      }
      const ranked = [...score.entries()].sort((a, b) =>
        b[1] - a[1] || a[0] - b[0]
      )
        .map(([id]) => docs[id - 1]!.key);
      const rank = ranked.indexOf(ep.key) + 1;
      if (rank === 1) hit1++;
      if (rank >= 1 && rank <= 5) hit5++;
    }
  }
  console.log(
    `| ${kind} | ${(hit1 / n).toFixed(3)} | ${
      (hit5 / n).toFixed(3)
    } | ${inexpressible} of ${n} | ${bytes} |`,
  );
  db.close();
}

console.log(
  `${docs.length} CJK sessions, ${
    CJK.reduce((a, e) => a + e.queries.length, 0)
  } queries\n`,
);
console.log("| posting | hit@1 | hit@5 | queries with no n-gram | FTS bytes |");
console.log("|---|---|---|---|---|");
measure("bigram");
measure("trigram");
