import { ok } from "node:assert/strict";
import { byteLength, neutralizeFrameTags } from "./frame.ts";
import { START, type Step, withSessions } from "./_test_kit.ts";
import { promptDigest } from "./prompt_digest.ts";

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
