import { equal } from "node:assert/strict";
import { clip, isShellCommand, readsOnly } from "./_db.ts";

Deno.test("clip() cuts on a word boundary and marks the cut", async (t) => {
  const cases: Array<[string, string, number, string]> = [
    ["short text stays whole", "add credo", 20, "add credo"],
    [
      "a long line ends on a whole word",
      "add credo and mix_audit to CI",
      20,
      "add credo and…",
    ],
    [
      "trailing punctuation before the cut is dropped",
      "first, second, third, fourth",
      16,
      "first, second…",
    ],
    [
      "one long word is cut inside it",
      "supercalifragilistic",
      10,
      "supercali…",
    ],
  ];
  for (const [name, text, max, want] of cases) {
    await t.step(name, () => {
      equal(clip(text, max), want);
      equal(clip(text, max).length <= max, true);
    });
  }
});

Deno.test("readsOnly() holds only when every part of a pipeline or chain reads", async (t) => {
  const cases: Array<[string, boolean]> = [
    ["cat package.json", true],
    ["nl -ba src/app.css | sed -n '1,200p'", true],
    ["cd api && git status", true],
    ['rg "retry|backoff" src', true],
    ["grep -r 'a;b' .", true],
    ["ls dist || echo none", true],
    ["cat seed.sql | psql shop", false],
    ["cat old.txt && rm old.txt", false],
    ["npm test; cat out.log", false],
    ["sed -i 's/a|b/c/' conf.ini", false],
    ["docker compose up -d", false],
  ];
  for (const [command, want] of cases) {
    await t.step(command, () => equal(readsOnly(command), want));
  }
});

Deno.test("isShellCommand() leaves out pages fetched and web searches", async (t) => {
  const cases: Array<[string | null, string, boolean]> = [
    ["Bash", "npm run build", true],
    [null, "make test", true],
    ["WebFetch", "https://github.com/xtermjs/xterm.js/issues/1343", false],
    ["web_search", "tokio select cancel safety", false],
    [null, "https://example.com/guide", false],
  ];
  for (const [tool, command, want] of cases) {
    await t.step(
      `${tool}: ${command}`,
      () => equal(isShellCommand(tool, command), want),
    );
  }
});
