import { equal } from "node:assert/strict";
import { cleanSpeech } from "./text.ts";

Deno.test("cleanSpeech() drops what a harness injected as a user message", async (t) => {
  const cases: Array<[string, string]> = [
    ["<skill>\n# deploy\nsteps…\n</skill>", ""],
    [
      "<subagent_notification>worker-1 finished: 3 files</subagent_notification>",
      "",
    ],
    [
      "<hook_prompt>check the linter</hook_prompt>\nwhy does ci fail?",
      "why does ci fail?",
    ],
    // Said in passing, the tag stays the person's words.
    ["what does the <skill> tag do?", "what does the <skill> tag do?"],
  ];
  for (const [text, kept] of cases) {
    await t.step(text.slice(0, 30), () => equal(cleanSpeech(text), kept));
  }
});
