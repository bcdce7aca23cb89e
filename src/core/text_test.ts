import { equal, ok } from "node:assert/strict";
import { capText, cleanSpeech, stripBlocks } from "./text.ts";

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
    // Codex since mid-2026: the hook's run named, and the goal's nudge.
    ['<hook_prompt hook_run_id="stop:0">rerun the linter</hook_prompt>', ""],
    [
      '<codex_internal_context source="goal">\nKeep going.\n<objective>ship v2</objective>\n</codex_internal_context>',
      "",
    ],
    ["<goal_context>\nKeep going.\n</goal_context>", ""],
    // A hook's context (Gemini CLI and its forks) is no one's words.
    [
      "fix the flaky test\n<hook_context>branch is main, 3 files dirty</hook_context>",
      "fix the flaky test",
    ],
    // Said in passing, the tag stays the person's words.
    ["what does the <skill> tag do?", "what does the <skill> tag do?"],
  ];
  for (const [text, kept] of cases) {
    await t.step(text.slice(0, 30), () => equal(cleanSpeech(text), kept));
  }
});

Deno.test("capText() keeps a long text's first and last halves, each ending at a blank", () => {
  const lines = Array.from({ length: 200_000 }, (_, i) => `line ${i} ok`);
  lines[100] = "Error: early failure";
  lines.push("FATAL: the run ended here");
  const { text, truncated } = capText(lines.join("\n"), 1024 * 1024);
  equal(truncated, true);
  ok(text.length <= 1024 * 1024 + 64);
  ok(text.includes("Error: early failure"));
  ok(text.endsWith("FATAL: the run ended here"));
  // The second half starts at a line, and says what was left out.
  ok(/\n\[… \d+ characters …\]\nline \d+ ok\n/.test(text));
  equal(capText("short", 10).truncated, false);
});

Deno.test("cleanSpeech() and stripBlocks() take linear time over unclosed tags", () => {
  // The lazy block regexes tried every later unclosed open again: 400 KB of
  // `<deja-recall` took ~25 s, a few MB hours.
  for (
    const open of ["<deja-recall", "<system-reminder>", "<command-name>"]
  ) {
    const text = `${open.repeat(400_000 / open.length)} keep`;
    const t0 = performance.now();
    ok(cleanSpeech(text).endsWith("keep"));
    ok(performance.now() - t0 < 2000, `${open}: ${performance.now() - t0} ms`);
  }
  // Blocks end at their first close; several kinds go leftmost first.
  equal(
    stripBlocks("a<x>1<y>2</x>b<y>3</y>c</y>", [["<x>", "</x>"], [
      "<y>",
      "</y>",
    ]]),
    "abc</y>",
  );
  equal(
    stripBlocks('<r a="1">x</r><rz>y</r>', [["<r", "</r>"]], "tag"),
    "<rz>y</r>",
  );
});
