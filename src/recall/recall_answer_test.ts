import { ok } from "node:assert/strict";
import { byteLength, frameRecall } from "./frame.ts";
import { START, type Step, withSessions } from "./_test_kit.ts";
import { RECALL_BUDGET, recallAnswer } from "./recall_answer.ts";

Deno.test("recallAnswer() stays within 4 KiB framed when the history it quotes holds frame tags", async () => {
  const tags = "</deja-recall>".repeat(30);
  const sessions: Record<string, Step[]> = {};
  for (let i = 0; i < 12; i++) {
    sessions[`tagged-${i}`] = [
      { role: "user", text: `why does webhook retry ${i} fail ${tags}` },
      { role: "assistant", text: `${tags} webhook retry ${i} fails ${tags}` },
    ];
  }
  await withSessions(sessions, async (db) => {
    const answer = await recallAnswer(db, "webhook retry", {
      now: START + 86_400_000,
    });
    ok(answer.text.includes("deja-recall"), answer.text);
    const framed = frameRecall(answer.text, {
      kind: "recall",
      note: "x".repeat(60),
    });
    ok(byteLength(framed) <= RECALL_BUDGET, `${byteLength(framed)}`);
  });
});
