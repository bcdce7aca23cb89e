import { equal } from "node:assert/strict";
import { filesForTopic } from "./files.ts";
import { START, withSessions } from "./_test_kit.ts";

Deno.test("filesForTopic() puts a file edited on the topic above dependencies only read", async () => {
  await withSessions({
    // The better match for the topic, which only read files in node_modules.
    "read-deps": [
      {
        role: "user",
        text: "why does docker compose ignore the port mapping?",
      },
      {
        role: "assistant",
        text: "docker compose reads the port mapping here.",
      },
      {
        role: "files",
        text: "node_modules/recast/.devcontainer/docker-compose.yml",
        tool: "Read",
      },
      {
        role: "files",
        text: "node_modules/recast/.devcontainer/Dockerfile",
        tool: "Read",
      },
    ],
    "edited-it": [
      { role: "user", text: "change the docker compose port" },
      { role: "files", text: "docker-compose.yml", tool: "Edit" },
      {
        role: "edit",
        text: 'docker-compose.yml\n    ports: ["8080:80"]',
        tool: "Edit",
      },
    ],
  }, async (db) => {
    const files = await filesForTopic(db, "docker compose port", {
      now: START + 2 * 86_400_000,
    });
    equal(files[0]?.path, "docker-compose.yml", JSON.stringify(files));
  });
});
