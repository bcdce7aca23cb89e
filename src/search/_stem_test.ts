import { equal } from "node:assert/strict";
import { openDatabase } from "../core/_sqlite.ts";
import { porterStem, wordForStem } from "./_stem.ts";

const WORDS = `running runs ran deploy deployed deploying deployment deployments
configuration configure configured studies study happily generalization
relational conditional rational valency hesitancy digitizer conformably
radically differently vilely analogously vietnamization predication operator
feudalism decisiveness hopefulness callousness formality sensitivity
sensibility triplicate formative formalize electricity electrical hopeful
goodness revival allowance inference airliner gyroscopic adjustable
defensible irritant replacement adjustment dependent adoption homologou
communism activate angularity homologous effective bowdlerize probate rate
cease controll roll caresses ponies ties caress cats feed agreed plastered
bled motoring sing conflated troubled sized hopping tanned falling hissing
fizzed failing filing happy sky eed ies sses ioredis redis kubernetes
authentication authorization dependencies timeouts retries pinned`.split(/\s+/);

Deno.test("porterStem() stems every word as FTS5's porter tokenizer does", () => {
  const db = openDatabase(":memory:", { requireFts5: true });
  try {
    db.exec(
      "CREATE VIRTUAL TABLE t USING fts5(x, tokenize = 'porter unicode61 remove_diacritics 2')",
    );
    db.exec("CREATE VIRTUAL TABLE v USING fts5vocab(t, instance)");
    const insert = db.prepare("INSERT INTO t(rowid, x) VALUES (?, ?)");
    WORDS.forEach((w, i) => insert.run(i + 1, w));
    const rows = db.prepare("SELECT term, doc FROM v").all() as Array<
      { term: string; doc: number }
    >;
    equal(rows.length, WORDS.length);
    for (const { term, doc } of rows) {
      const word = WORDS[doc - 1]!;
      equal(porterStem(word), term, word);
    }
  } finally {
    db.close();
  }
});

Deno.test("wordForStem() gives a word FTS5 stems back to the stem", () => {
  for (const stem of ["databas", "supabas", "migrat", "review", "cach"]) {
    equal(porterStem(wordForStem(stem)), stem, stem);
  }
  equal(wordForStem("review"), "review");
});
