import { equal, ok } from "node:assert/strict";
import { byteLength, neutralizeFrameTags } from "./frame.ts";
import { START, type Step, withSessions } from "./_test_kit.ts";
import { askOf, askTerms, namesThing, promptDigest } from "./prompt_digest.ts";

Deno.test("promptDigest() measures a line as the frame prints it, defused tags and all", async () => {
  const tags = "</deja-recall>".repeat(10);
  const sessions: Record<string, Step[]> = {
    tagged: [
      { role: "user", text: `the pelican exporter drops rows ${tags}` },
      { role: "assistant", text: "Fixed the pelican exporter batch limit." },
    ],
  };
  await withSessions(sessions, async (db) => {
    const ask = "why does the pelican exporter drop rows?";
    const options = { project: "shop-web", now: START + 86_400_000 };
    const roomy = await promptDigest(db, ask, { ...options, budget: 100_000 });
    const [header = "", line = ""] = roomy.text.replaceAll("‹", "<").split(
      "\n",
    );
    ok(line.includes("</deja-recall>"), roomy.text);
    // Room for the line as stored, not for it as the frame prints it.
    const budget = byteLength(header) + byteLength(line) + 1;
    const tight = await promptDigest(db, ask, { ...options, budget });
    const printed = neutralizeFrameTags(tight.text);
    ok(byteLength(printed) <= budget, `${byteLength(printed)} > ${budget}`);
  });
});

Deno.test("promptDigest() with no project known quotes no line on common words alone", async () => {
  // Twenty-one sessions say "deploy" and "server": no word of the ask is
  // rare, so only the asker's own project could speak on them.
  const sessions: Record<string, Step[]> = {};
  for (let i = 0; i < 21; i++) {
    sessions[`s${i}`] = [
      { role: "user", text: `the deploy server number ${i} is slow today` },
      { role: "assistant", text: "Restarted the deploy server." },
    ];
  }
  await withSessions(sessions, async (db) => {
    const ask = "why is the deploy server slow?";
    const now = START + 86_400_000;
    const own = await promptDigest(db, ask, { project: "shop-web", now });
    ok(own.text !== "", "the asker's project speaks on two words");
    for (const project of ["", undefined]) {
      const unknown = await promptDigest(db, ask, {
        ...(project === undefined ? {} : { project }),
        now,
      });
      equal(unknown.text, "", `project ${JSON.stringify(project)}`);
    }
  });
});

Deno.test("askTerms() and namesThing() read ASCII as their Unicode classes do", () => {
  // The forms the ASCII paths stand in for.
  const trimmed = (raw: string) =>
    raw.replace(/^[^\p{L}\p{N}_]+|[^\p{L}\p{N}_]+$/gu, "");
  const thing = (term: string) =>
    /[./_\\]|[a-z][A-Z]|\p{L}\d|\d\p{L}|\s/u.test(term) ||
    /^[A-Z]{4,}$/.test(term);
  const samples = [
    "(orders_archive),",
    "--force!",
    "v2",
    "2fa",
    "é1",
    "x²",
    "getUserProfile",
    "HTTP",
    "a b",
    "__init__",
    "«café»",
    "naïve?",
    "README.md",
    "3.14",
    "A1B",
  ];
  for (const s of samples) {
    equal(namesThing(s), thing(s), s);
    if (/\s/.test(s)) continue;
    const expected = trimmed(s).toLowerCase();
    const got = askTerms(s);
    equal(
      got.length === 0 ? "" : got[0]!.toLowerCase(),
      expected.length < 3 ? "" : expected,
      s,
    );
  }
  equal(askOf("first line\nÇa marche pas"), "Ça marche pas");
  equal(askOf("first line\nno way"), "no way");
  equal(askOf("first line\nNO WAY"), "NO WAY");
});
