import { equal, ok } from "node:assert/strict";
import { withSessions } from "./_test_kit.ts";
import { errorLine, fixFor } from "./fix.ts";

Deno.test("fixFor() quotes the line that errs, not the npm script echo that shares its words", async () => {
  const e2e = "npm run test:e2e";
  await withSessions({
    "e2e-config": [
      { role: "user", text: "the end to end run is broken again" },
      { role: "command", text: e2e, tool: "Bash", exitCode: 1 },
      {
        role: "tool-output",
        tool: "Bash",
        flags: { isError: true },
        text: [
          "> shop-web@2.1.0 test:e2e",
          "> cross-env NODE_PATH=./node_modules playwright test",
          "",
          "ReferenceError: __filename is not defined in ES module scope",
          "    at file:///srv/shop-web/e2e/config.ts:3:9",
        ].join("\n"),
      },
      {
        role: "edit",
        tool: "Edit",
        text: "/srv/shop-web/e2e/config.ts\nconst here = __filename;",
      },
      { role: "command", text: e2e, tool: "Bash", exitCode: 0 },
      { role: "tool-output", tool: "Bash", text: "12 passed (9.1s)" },
      {
        role: "assistant",
        text:
          "The config used __filename, which ES modules lack; it now reads import.meta.url and the suite passes now.",
      },
    ],
  }, async (db) => {
    const result = await fixFor(db, "Cannot find module '@playwright/test'");
    const pair = result.pairs[0];
    ok(pair, result.why);
    equal(
      pair.error,
      "ReferenceError: __filename is not defined in ES module scope",
    );
    equal(pair.verified, e2e);
  });
});

Deno.test("fixFor() blames no command for a model call's error", async () => {
  await withSessions({
    "model-error": [
      { role: "user", text: "draw the rack and then summarise the suite" },
      {
        role: "command",
        text: "a heron guarding a rack",
        tool: "image_generation",
      },
      {
        role: "tool-output",
        tool: "model",
        flags: { isError: true },
        text: "unexpected status 400 Bad Request: EGRET_CONTEXT_OVERFLOW",
      },
      { role: "user", text: "try again with less context" },
      {
        role: "command",
        text: "cargo test -p egret",
        tool: "exec_command",
        exitCode: 0,
      },
      { role: "tool-output", tool: "exec_command", text: "ok" },
    ],
  }, async (db) => {
    const result = await fixFor(db, "EGRET_CONTEXT_OVERFLOW");
    const pair = result.pairs[0];
    ok(pair, result.why);
    equal(pair.failed, undefined);
    equal(
      pair.error,
      "unexpected status 400 Bad Request: EGRET_CONTEXT_OVERFLOW",
    );
  });
});

Deno.test("errorLine() finds an error named by its class", async (t) => {
  const cases: Array<[string, string, string]> = [
    [
      "ReferenceError",
      "> web@1.0.0 build\n> vite build\n\nReferenceError: window is not defined",
      "ReferenceError: window is not defined",
    ],
    [
      "ModuleNotFoundError",
      "Traceback (most recent call last):\nModuleNotFoundError: No module named 'yaml'",
      "Traceback (most recent call last):",
    ],
    [
      "IOException",
      "BUILD started\njava.io.IOException: Stream closed",
      "java.io.IOException: Stream closed",
    ],
  ];
  for (const [name, text, want] of cases) {
    await t.step(name, () => equal(errorLine(text), want));
  }
});
