import { deepEqual, equal } from "node:assert/strict";
import type { Database } from "../core/_sqlite.ts";
import { openIndex, recordRowid } from "../index/schema.ts";
import { Retriever } from "./_retrieve.ts";
import { refreshVocabulary } from "../index/vocabulary.ts";

Deno.test("Retriever.titled() finds a title word by a scan, in the titles read for a long question, again from what it kept, and from the map of every title word once many words were looked for", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/index.db`;
  const write = openIndex(path);
  const session = write.prepare(
    "INSERT INTO sessions (rowid, harness, id, path, kind, title, hidden) VALUES (?, 'claude-code', ?, ?, 'jsonl', ?, ?)",
  );
  const record = write.prepare(
    "INSERT INTO records (rowid, session, seq, role, body) VALUES (?, ?, 0, 'user', 'hello')",
  );
  const titles: Array<[number, string, number]> = [
    [1, "Otter migration", 0],
    // U+212A KELVIN SIGN lower-cases to an ASCII "k"; SQLite's lower()
    // leaves it as it is.
    [2, "\u212Aangaroo pens", 0],
    [3, "Kangaroo feeding (hidden)", 1],
    // JavaScript lower-cases "İ" to "i" and a combining dot, which ends
    // the word "taksi"; SQLite leaves it as it is.
    [4, "TAKSİ kangaroos", 0],
  ];
  const ids = new Map<number, number>();
  for (const [rowid, title, hidden] of titles) {
    session.run(rowid, `s${rowid}`, `/p/s${rowid}.jsonl`, title, hidden);
    ids.set(rowid, recordRowid(rowid, 0, "user"));
    record.run(ids.get(rowid)!, rowid);
  }
  write.close();
  try {
    for (const word of ["kangaroo", "otters", "taksi", "wombat"]) {
      const read = openIndex(path, { readOnly: true });
      try {
        const r = new Retriever(read, ["user", "assistant"], {});
        const first = r.titled(word);
        const again = r.titled(word);
        // A search that will look for many words reads the titles once.
        const other = openIndex(path, { readOnly: true });
        const long = new Retriever(other, ["user", "assistant"], {});
        long.expectTitleWords(["a", "bb", word, ...["one", "two", "three"]]);
        const fromTitles = long.titled(word);
        other.close();
        // Enough other words that the connection maps every title word.
        for (let i = 0; i < 20; i++) r.titled(`filler${i}`);
        const mapped = r.titled(word);
        const expected = {
          kangaroo: [ids.get(4)!, ids.get(2)!],
          otters: [ids.get(1)!],
          taksi: [ids.get(4)!],
          wombat: [],
        }[word];
        deepEqual(first, expected, `${word}, first look`);
        deepEqual(again, expected, `${word}, later look`);
        deepEqual(mapped, expected, `${word}, from the map`);
        deepEqual(fromTitles, expected, `${word}, from the titles read`);
        // Another search on the connection, filtered to one session: what
        // the connection kept of the others is not shown.
        const only = new Retriever(read, ["user", "assistant"], {
          session: "s2",
        });
        deepEqual(
          only.titled(word),
          (expected ?? []).filter((id) => id === ids.get(2)),
          `${word}, filtered`,
        );
      } finally {
        read.close();
      }
    }
    // The index changes under an open connection: a new titled session is
    // found, with its first speech record.
    const read = openIndex(path, { readOnly: true });
    try {
      deepEqual(
        new Retriever(read, ["user", "assistant"], {}).titled("kangaroo"),
        [
          ids.get(4)!,
          ids.get(2)!,
        ],
      );
      const more = openIndex(path);
      more.prepare(
        "INSERT INTO sessions (rowid, harness, id, path, kind, title, hidden) VALUES (5, 'claude-code', 's5', '/p/s5.jsonl', 'jsonl', 'Kangaroo tales', 0)",
      ).run();
      more.prepare(
        "INSERT INTO records (rowid, session, seq, role, body) VALUES (?, 5, 0, 'assistant', 'hello')",
      ).run(recordRowid(5, 0, "assistant"));
      // Session 2 read again: its first speech record is another one now.
      more.prepare("DELETE FROM records WHERE session = 2").run();
      more.prepare(
        "INSERT INTO records (rowid, session, seq, role, body) VALUES (?, 2, 1, 'assistant', 'hello')",
      ).run(recordRowid(2, 1, "assistant"));
      more.close();
      deepEqual(
        new Retriever(read, ["user", "assistant"], {}).titled("kangaroo"),
        [
          recordRowid(5, 0, "assistant"),
          ids.get(4)!,
          recordRowid(2, 1, "assistant"),
        ],
      );
    } finally {
      read.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** An index holding the given postings, read through a fresh Retriever. */
async function withPostings(
  postings: Array<[role: "user" | "assistant" | "tool-output", text: string]>,
  fn: (r: Retriever) => void,
): Promise<void> {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/index.db`;
  const write = openIndex(path);
  postings.forEach(([role, text], i) => {
    const table = role === "tool-output" ? "fts_work" : "fts_speech";
    write.prepare(`INSERT INTO ${table} (rowid, text) VALUES (?, ?)`).run(
      recordRowid(1, i, role),
      text,
    );
  });
  write.close();
  const read = openIndex(path, { readOnly: true });
  try {
    fn(new Retriever(read, ["user", "assistant", "tool-output"], {}));
  } finally {
    read.close();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("Retriever.suggest() corrects a word people said, and one only a tool printed", async () => {
  await withPostings([
    ["user", "move the kangaroo enclosure"],
    ["tool-output", "zeppelin hangar doors jammed"],
  ], (r) => {
    deepEqual(r.suggest("kangarro"), { term: "kangaroo", distance: 1 });
    deepEqual(r.suggest("zepellin"), { term: "zeppelin", distance: 2 });
    deepEqual(r.suggest("wombats"), undefined);
  });
});

Deno.test("Retriever.variants() offers the spelled-out word for a developer abbreviation the index holds", async () => {
  await withPostings([
    [
      "assistant",
      "every variable is read once; the terraform state keeps no credentials",
    ],
  ], (r) => {
    const word = (text: string, stem: string) => ({
      text,
      kind: "word" as const,
      stem,
      weight: 1,
      alternatives: [],
    });
    deepEqual(r.variants(word("vars", "var")), ["variable"]);
    deepEqual(r.variants(word("tf", "tf")), ["terraform"]);
    deepEqual(r.variants(word("creds", "cred")), ["credentials"]);
    // Offered only where the index holds the other spelling.
    deepEqual(r.variants(word("infra", "infra")), []);
  });
});

/**
 * Counts how often a connection runs (`get` or `all`) the statements whose
 * SQL holds `part`, from now on.
 *
 * @returns The count so far.
 */
function countRuns(
  db: Database,
  part: string,
  method: "get" | "all",
): () => number {
  let runs = 0;
  const prepare = db.prepare.bind(db);
  db.prepare = (sql: string) => {
    const statement = prepare(sql);
    if (!sql.includes(part)) return statement;
    return new Proxy(statement, {
      get(target, key) {
        const value = Reflect.get(target, key);
        if (key !== method) {
          return typeof value === "function" ? value.bind(target) : value;
        }
        return (...args: unknown[]) => {
          runs++;
          return Reflect.apply(value, target, args);
        };
      },
    });
  };
  return () => runs;
}

/**
 * An index holding one speech record, read by a long-lived connection while
 * another adds records to it.
 */
async function withGrowingIndex(
  fn: (read: Database, add: (i: number, text: string) => void) => void,
): Promise<void> {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/index.db`;
  const write = openIndex(path);
  const add = (i: number, text: string) =>
    write.prepare("INSERT INTO fts_speech (rowid, text) VALUES (?, ?)").run(
      recordRowid(1, i, "user"),
      text,
    );
  add(0, "feed the wombat");
  const read = openIndex(path, { readOnly: true });
  try {
    fn(read, add);
  } finally {
    read.close();
    write.close();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("Retriever.suggest() on a long-lived connection sees words indexed after its first look", async () => {
  await withGrowingIndex((read, add) => {
    const r = () => new Retriever(read, ["user", "assistant"], {});
    deepEqual(r().suggest("kangarro"), undefined);
    // Another connection commits: the listed vocabulary is read again.
    add(1, "move the kangaroo enclosure");
    deepEqual(r().suggest("kangarro"), { term: "kangaroo", distance: 1 });
  });
});

Deno.test("Retriever reads the index's version once for all the looks of its search", async () => {
  await withGrowingIndex((read) => {
    const versions = countRuns(read, "PRAGMA data_version", "get");
    const r = new Retriever(read, ["user", "assistant"], {});
    r.anywhere('"wombat"', "fts_speech");
    const first = versions();
    for (const word of ["kangaroo", "emu", "koala"]) {
      r.anywhere(`"${word}"`, "fts_speech");
      r.titled(word);
    }
    equal(versions(), first);
  });
});

Deno.test("Retriever.anywhere() asks the index once for a repeated expression, again after another connection commits", async () => {
  await withGrowingIndex((read, add) => {
    // The looks for a match in the speech table.
    const looks = countRuns(read, "fts_speech MATCH ? LIMIT 1", "get");
    const r = () => new Retriever(read, ["user", "assistant"], {});
    equal(r().anywhere('"kangaroo"', "fts_speech"), false);
    equal(r().anywhere('"kangaroo"', "fts_speech"), false);
    equal(r().anywhere('"wombat"', "fts_speech"), true);
    equal(looks(), 2);
    add(1, "move the kangaroo enclosure");
    equal(r().anywhere('"kangaroo"', "fts_speech"), true);
    equal(looks(), 3);
  });
});

Deno.test("Retriever.expectTitleWords() reads the titles once for four new words or more, and scans for fewer", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/index.db`;
  const write = openIndex(path);
  write.prepare(
    "INSERT INTO sessions (rowid, harness, id, path, kind, title) VALUES (1, 'claude-code', 's1', '/p/s1.jsonl', 'jsonl', 'Otter migration plan')",
  ).run();
  write.prepare(
    "INSERT INTO records (rowid, session, seq, role, body) VALUES (?, 1, 0, 'user', 'hello')",
  ).run(recordRowid(1, 0, "user"));
  write.close();
  /** Title statements each word costs on a fresh connection. */
  const statements = (expected: string[], asked: string[]) => {
    const read = openIndex(path, { readOnly: true });
    const reads = countRuns(
      read,
      "FROM sessions WHERE hidden = 0 AND title",
      "all",
    );
    try {
      const r = new Retriever(read, ["user", "assistant"], {});
      r.expectTitleWords(expected);
      for (const w of asked) {
        deepEqual(
          r.titled(w),
          w === "beavers" ? [] : [recordRowid(1, 0, "user")],
        );
      }
      return reads();
    } finally {
      read.close();
    }
  };
  try {
    // Four new words: one read of every title, no scan per word.
    const many = ["otters", "migration", "plan", "beavers"];
    equal(statements(many, many), 1);
    // Two (short words and a word twice count once): a scan each.
    const few = ["otters", "Otters", "ok", "beavers"];
    equal(statements(few, ["otters", "beavers"]), 2);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("Retriever.suggest() reads the index's built vocabulary, not fts5vocab, and corrects the same way", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/index.db`;
  const write = openIndex(path);
  write.prepare("INSERT INTO fts_speech (rowid, text) VALUES (?, ?)").run(
    recordRowid(1, 0, "user"),
    "move the kangaroo enclosure",
  );
  write.prepare("INSERT INTO fts_work (rowid, text) VALUES (?, ?)").run(
    recordRowid(1, 1, "tool-output"),
    "zeppelin hangar doors jammed",
  );
  refreshVocabulary(write, 0);
  write.close();
  const read = openIndex(path, { readOnly: true });
  try {
    const stored = countRuns(read, "FROM vocab WHERE", "all");
    const listing = countRuns(read, "temp.deja_vocab_", "all");
    const r = new Retriever(read, ["user", "assistant", "tool-output"], {});
    deepEqual(r.suggest("kangarro"), { term: "kangaroo", distance: 1 });
    deepEqual(r.suggest("zepellin"), { term: "zeppelin", distance: 2 });
    equal(stored() > 0, true);
    equal(listing(), 0);
  } finally {
    read.close();
    await Deno.remove(dir, { recursive: true });
  }
});
