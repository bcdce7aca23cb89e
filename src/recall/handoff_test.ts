import { ok } from "node:assert/strict";
import { START, withSessions } from "./_test_kit.ts";
import { handoffPacket } from "./handoff.ts";

Deno.test("handoffPacket() tells a command the person refused from one that failed", async () => {
  await withSessions({
    "server-run": [
      { role: "user", text: "start the phoenix server and check the logs" },
      { role: "command", text: "mix phx.server", tool: "Bash" },
      {
        role: "tool-output",
        tool: "Bash",
        flags: { isError: true },
        text:
          "The user doesn't want to proceed with this tool use. The tool use was rejected.",
      },
    ],
  }, async (db) => {
    const packet = await handoffPacket(db, {
      session: "server-run",
      now: START + 86_400_000,
    });
    ok(packet);
    ok(
      packet.markdown.includes("Ran `mix phx.server` → declined by the person"),
      packet.markdown,
    );
    ok(!packet.markdown.includes("The last command failed"), packet.markdown);
  });
});
