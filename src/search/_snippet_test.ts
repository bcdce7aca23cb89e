import { deepEqual } from "node:assert/strict";
import { findMatches, termForm } from "./_snippet.ts";

Deno.test("findMatches() marks a word that is one hump of an identifier", () => {
  const marked = (text: string, word: string) =>
    findMatches(text, [termForm(0, [word], word)], true).map((m) =>
      text.slice(m.start, m.end)
    );
  deepEqual(
    marked("set forceConsistentCasingInFileNames, then force it", "force"),
    ["force", "force"],
  );
  deepEqual(marked("AI_APICallError: Insufficient Balance", "error"), [
    "Error",
  ]);
  // A word that only starts like the term is still no match.
  deepEqual(marked("the forces were forcefield-like", "force"), ["forces"]);
});
