import { deepEqual, equal, ok } from "node:assert/strict";
import { withSessions } from "./_test_kit.ts";
import { errorLine, errorTerms, fixFor } from "./fix.ts";

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
    const result = await fixFor(
      db,
      "ReferenceError: __filename is not defined in ES module scope",
    );
    const pair = result.pairs[0];
    ok(pair, result.why);
    equal(
      pair.error,
      "ReferenceError: __filename is not defined in ES module scope",
    );
    equal(pair.verified, e2e);
    // Another error whose words the output holds only here and there is
    // not this one.
    const other = await fixFor(db, "Cannot find module '@playwright/test'");
    deepEqual(other.pairs, []);
  });
});

Deno.test("fixFor() reads a pasted test run by the error it names, not its timings", async () => {
  await withSessions({
    "db-down": [
      { role: "command", text: "npm test", tool: "Bash", exitCode: 1 },
      {
        role: "tool-output",
        tool: "Bash",
        flags: { isError: true },
        text: [
          " ❯ test/orders.int.test.ts (12 tests | 12 failed) 31ms",
          "Error: connect ECONNREFUSED 127.0.0.1:5432",
        ].join("\n"),
      },
      { role: "command", text: "docker compose up -d db", tool: "Bash" },
      { role: "command", text: "npm test", tool: "Bash", exitCode: 0 },
      { role: "tool-output", tool: "Bash", text: "Tests 48 passed (48)" },
    ],
  }, async (db) => {
    // Another run of the same failure: other timings, the summary first.
    const pasted = [
      "> vitest run",
      " ❯ test/orders.int.test.ts (12 tests | 12 failed) 40ms",
      "   × creates an order 7ms",
      "Error: connect ECONNREFUSED 127.0.0.1:5432",
      " Test Files  1 failed | 6 passed (7)",
    ].join("\n");
    equal(errorLine(pasted), "Error: connect ECONNREFUSED 127.0.0.1:5432");
    const result = await fixFor(db, pasted);
    equal(result.pairs[0]?.verified, "npm test", result.why);
    // Only the runner's summary line: its timing is no word to look for.
    deepEqual(
      errorTerms(" ❯ test/orders.int.test.ts (12 tests | 12 failed) 40ms"),
      ["test/orders.int.test.ts", "tests"],
    );
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
      "ModuleNotFoundError: No module named 'yaml'",
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

Deno.test("fixFor() reads a failure only in a failed step's output, not in a file read", async () => {
  await withSessions({
    "dev-server": [
      { role: "user", text: "start the dev server" },
      { role: "files", tool: "Read", text: "/app/.env.json" },
      {
        role: "tool-output",
        tool: "Read",
        text:
          '10→ "VITE_FIREBASE_API_KEY": {\n11→ "found": true,\n12→ "value": ""',
      },
      { role: "command", text: "docker ps", tool: "Bash", exitCode: 1 },
      {
        role: "tool-output",
        tool: "Bash",
        flags: { isError: true },
        text: "Cannot connect to the Docker daemon",
      },
      { role: "command", text: "npm run dev", tool: "Bash", exitCode: 127 },
      {
        role: "tool-output",
        tool: "Bash",
        flags: { isError: true },
        text: "> web@1.0.0 dev\n> vite\n\nsh: 1: vite: not found",
      },
      { role: "command", text: "npm install", tool: "Bash", exitCode: 0 },
      { role: "tool-output", tool: "Bash", text: "added 212 packages" },
      { role: "command", text: "npm run dev", tool: "Bash", exitCode: 0 },
      { role: "tool-output", tool: "Bash", text: "VITE v7 ready in 300 ms" },
    ],
  }, async (db) => {
    const result = await fixFor(db, "sh: 1: vite: not found");
    equal(result.pairs.length, 1, result.why);
    const pair = result.pairs[0]!;
    equal(pair.error, "sh: 1: vite: not found");
    equal(pair.failed, "npm run dev");
    deepEqual(pair.remedy, ["npm install"]);
    equal(pair.verified, "npm run dev");
  });
});
