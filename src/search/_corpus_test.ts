import { deepEqual, equal } from "node:assert/strict";
import { openIndex } from "../index/schema.ts";
import { hiddenSessions, scopeTotals, sessionFacts } from "./_corpus.ts";

async function withIndex(
  fn: (
    write: ReturnType<typeof openIndex>,
    read: ReturnType<typeof openIndex>,
  ) => void,
): Promise<void> {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/index.db`;
  const write = openIndex(path);
  const insert = write.prepare(
    "INSERT INTO sessions (rowid, harness, id, path, kind, records, started, updated, hidden) VALUES (?, 'claude-code', ?, ?, 'jsonl', ?, ?, ?, ?)",
  );
  insert.run(1, "aaa", "/p/a.jsonl", 10, 1000, 2000, 0);
  insert.run(2, "bbb", "/p/b.jsonl", 30, 3000, 4000, 0);
  insert.run(3, "ccc", "/p/c.jsonl", 5, null, null, 1);
  const read = openIndex(path, { readOnly: true });
  try {
    fn(write, read);
  } finally {
    read.close();
    write.close();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("sessionFacts() returns records and times of the sessions asked for", async () => {
  await withIndex((_, read) => {
    const facts = sessionFacts(read, [2, 1, 99]);
    deepEqual([...facts.keys()], [2, 1]);
    deepEqual(facts.get(1), [10, 1000, 2000]);
    deepEqual(facts.get(2), [30, 3000, 4000]);
    deepEqual(sessionFacts(read, [3]).get(3), [5, null, null]);
  });
});

Deno.test("hiddenSessions() and scopeTotals() read the sessions table", async () => {
  await withIndex((_, read) => {
    deepEqual([...hiddenSessions(read)], [3]);
    deepEqual(scopeTotals(read, "s.hidden = 0", []), { n: 2, mean: 20 });
    deepEqual(
      scopeTotals(read, "s.hidden = 0 AND s.id = ?", ["bbb"]),
      { n: 1, mean: 30 },
    );
  });
});

Deno.test("corpus facts are read again after another connection writes", async () => {
  await withIndex((write, read) => {
    equal(sessionFacts(read, [1]).get(1)?.[0], 10);
    equal(hiddenSessions(read).size, 1);
    equal(scopeTotals(read, "s.hidden = 0", []).n, 2);
    write.exec("UPDATE sessions SET records = 11, hidden = 1 WHERE rowid = 1");
    equal(sessionFacts(read, [1]).get(1)?.[0], 11);
    deepEqual([...hiddenSessions(read)].sort(), [1, 3]);
    equal(scopeTotals(read, "s.hidden = 0", []).n, 1);
  });
});
