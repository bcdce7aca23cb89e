// deno-lint-ignore-file no-console
/**
 * `deno run -A tests/bench/fts_tokenizers.ts <home> [files]`: how long FTS5
 * takes to post the same text under each tokenizer and detail setting. It
 * parses the first `files` (default 300) Claude Code transcripts under
 * `<home>/.claude/projects` the way the index does (redaction on), then
 * inserts their posting text into a fresh contentless table per setting, in
 * 8 MB transactions like a cold pass: three rounds, settings alternated.
 * Prints each setting's median time and its table size.
 *
 * @module
 */
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { parseFile } from "../../src/index/_prepare.ts";
import { claudeCode } from "../../src/sources/claude_code.ts";

const [home, count] = Deno.args;
if (!home) throw new Error("usage: fts_tokenizers.ts <home> [files]");
const projects = join(home, ".claude", "projects");
const files: string[] = [];
for (const dir of Deno.readDirSync(projects)) {
  if (!dir.isDirectory) continue;
  for (const f of Deno.readDirSync(join(projects, dir.name))) {
    if (f.name.endsWith(".jsonl")) files.push(join(projects, dir.name, f.name));
  }
}
files.sort();
const chosen = files.slice(0, Number(count ?? 300));
const kind = claudeCode.kinds[0]!;
const postings: string[] = [];
let bytes = 0;
for (const path of chosen) {
  const parsed = await parseFile(kind, path, {
    includeSubagents: true,
    source: { home, env: {}, os: Deno.build.os },
  }, true);
  bytes += Deno.statSync(path).size;
  for (const s of parsed.sessions) {
    for (const r of s.records) postings.push(r.posting);
  }
}
const postedMb = postings.reduce((a, p) => a + p.length, 0) / 1048576;
console.log(
  `${chosen.length} transcripts, ${
    (bytes / 1048576).toFixed(1)
  } MB; ${postings.length} records, ${postedMb.toFixed(1)} MB of posting text`,
);

const SETTINGS: Record<string, string> = {
  "porter unicode61 (the index's)":
    "tokenize = 'porter unicode61 remove_diacritics 2'",
  "unicode61, no porter": "tokenize = 'unicode61 remove_diacritics 2'",
  "ascii": "tokenize = 'ascii'",
  "porter ascii": "tokenize = 'porter ascii'",
  "porter unicode61, detail=column":
    "tokenize = 'porter unicode61 remove_diacritics 2', detail = column",
  "porter unicode61, detail=none":
    "tokenize = 'porter unicode61 remove_diacritics 2', detail = none",
};
const dir = await Deno.makeTempDir({ prefix: "deja-fts-tokenizers-" });
const times = new Map<string, number[]>();
const sizes = new Map<string, number>();
try {
  for (let round = 0; round < 3; round++) {
    for (const [i, [name, options]] of Object.entries(SETTINGS).entries()) {
      const path = join(dir, `${round}-${i}.db`);
      const t0 = performance.now();
      postAll(path, options);
      times.set(name, [...times.get(name) ?? [], performance.now() - t0]);
      sizes.set(name, Deno.statSync(path).size);
    }
  }
} finally {
  await Deno.remove(dir, { recursive: true });
}
for (const [name, ms] of times) {
  const median = ms.sort((a, b) => a - b)[1]!;
  console.log(
    `${name.padEnd(34)} ${median.toFixed(0).padStart(6)} ms  ${
      (sizes.get(name)! / 1048576).toFixed(1)
    } MB`,
  );
}

/** Posts every text into a new table with the given options. */
function postAll(path: string, options: string): void {
  const db = new DatabaseSync(path);
  db.exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL");
  db.exec(
    `CREATE VIRTUAL TABLE f USING fts5(text, content = '', contentless_delete = 1, ${options})`,
  );
  const insert = db.prepare("INSERT INTO f(rowid, text) VALUES (?, ?)");
  db.exec("BEGIN");
  let pending = 0;
  postings.forEach((text, i) => {
    insert.run(i + 1, text);
    pending += text.length;
    if (pending > 8e6) {
      db.exec("COMMIT; BEGIN");
      pending = 0;
    }
  });
  db.exec("COMMIT");
  db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  db.close();
}
