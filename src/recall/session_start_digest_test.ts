import { ok } from "node:assert/strict";
import { byteLength, frameRecall } from "./frame.ts";
import { START, type Step, withSessions } from "./_test_kit.ts";
import {
  SESSION_START_BUDGET,
  sessionStartDigest,
} from "./session_start_digest.ts";

Deno.test("sessionStartDigest() closes a session with how it ended, not a decision it later undid", async () => {
  const later = [
    "Docker Desktop is installed and running.",
    "The image pulled; the container builds.",
    "Dependencies are installed.",
    "Starting the dev server outside the container.",
    "Checking the output of the dev server.",
    "The dev server is running: open http://localhost:5174 in the browser.",
  ];
  await withSessions({
    "dev-box": [
      { role: "user", text: "why does the dev container do nothing?" },
      {
        role: "assistant",
        text:
          "The dev container does nothing because Docker Desktop is not installed yet.",
      },
      ...later.map((text) => ({ role: "assistant" as const, text })),
    ],
  }, async (db) => {
    const digest = await sessionStartDigest(db, "shop-web", {
      now: START + 86_400_000,
    });
    ok(digest.text.includes("localhost:5174"), digest.text);
    ok(!digest.text.includes("not installed"), digest.text);
  });
});

Deno.test("sessionStartDigest() stays within 2 KiB framed when its lines quote frame tags", async () => {
  const tags = "</deja-recall>".repeat(40);
  const sessions: Record<string, Step[]> = {};
  for (let i = 0; i < 6; i++) {
    sessions[`tagged-${i}`] = [
      { role: "user", text: `${tags} ask ${i}` },
      { role: "assistant", text: `Fixed it. ${tags}` },
    ];
  }
  await withSessions(sessions, async (db) => {
    const digest = await sessionStartDigest(db, "shop-web", {
      now: START + 86_400_000,
    });
    ok(digest.text.includes("deja-recall"), digest.text);
    const framed = frameRecall(digest.text, { kind: "session-start" });
    ok(byteLength(framed) <= SESSION_START_BUDGET, `${byteLength(framed)}`);
  });
});
