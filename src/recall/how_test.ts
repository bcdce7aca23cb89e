import { deepEqual } from "node:assert/strict";
import { START, withSessions } from "./_test_kit.ts";
import { howTo } from "./how.ts";

Deno.test("howTo() names no command whose only match is a folder or a message it was handed", async () => {
  await withSessions({
    "serve": [
      { role: "user", text: "get the api up locally" },
      { role: "command", text: "npm run server", tool: "Bash", exitCode: 0 },
      { role: "tool-output", tool: "Bash", text: "listening on :3000" },
    ],
    "commit": [
      { role: "user", text: "stage the entry point" },
      {
        role: "command",
        text: "git add server/src/index.ts",
        tool: "Bash",
        exitCode: 0,
      },
      {
        role: "command",
        text:
          "aider --model local --message how to fix the server it is not loading --yes app.py",
        tool: "Bash",
        exitCode: 0,
      },
    ],
  }, async (db) => {
    const result = await howTo(db, "start the server", {
      now: START + 86_400_000,
    });
    deepEqual(result.invocations.map((i) => i.command), ["npm run server"]);
  });
});
