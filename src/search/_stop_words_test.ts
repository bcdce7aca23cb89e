import { deepEqual, ok } from "node:assert/strict";
import { isStopWord, queryLanguages } from "./_stop_words.ts";

Deno.test("queryLanguages() finds the language a query's glue words are in", () => {
  ok(queryLanguages("¿en qué chat pusimos un botón de logout?").includes("es"));
  deepEqual(queryLanguages("the de facto default"), []);
  deepEqual(
    queryLanguages("where did I leave an AI comment in the index file"),
    [],
  );
});

Deno.test("queryLanguages() leaves names of code out of the count", () => {
  // Five code names and four Dutch words: the Dutch still make the share.
  deepEqual(
    queryLanguages(
      "butler-exec spec die een docstring toevoegt aan collect_advanced_cleanup_ideas in advanced.py",
    ),
    ["nl"],
  );
  deepEqual(queryLanguages("fix getUserProfile in de app.ts voor v2"), ["nl"]);
  // Text past ASCII: the same names of code, by Unicode classes.
  deepEqual(queryLanguages("fix getÜserProfile in de app.ts voor v2 — snel"), [
    "nl",
  ]);
});

Deno.test("isStopWord() drops a language's glue words only when the query is in it", () => {
  deepEqual([isStopWord("een"), isStopWord("een", ["nl"])], [false, true]);
  deepEqual([isStopWord("the"), isStopWord("сервер")], [true, false]);
});
