import { deepEqual, equal } from "node:assert/strict";
import { agentNamed } from "./_agents.ts";

Deno.test("agentNamed() finds the agent a query names", async (t) => {
  const cases: Array<[string, string[] | undefined, string?]> = [
    [
      "what did codex change in the parser?",
      ["codex"],
      "what did change in the parser?",
    ],
    [
      "did opencode ever answer the quantum question",
      ["opencode"],
      "did ever answer the quantum question",
    ],
    [
      "Claude Code's fix for the flaky test",
      ["claude-code"],
      "fix for the flaky test",
    ],
    [
      "what did copilot suggest",
      ["copilot-cli", "copilot-chat"],
      "what did suggest",
    ],
    [
      "what did we do in cursor about the login page",
      ["cursor"],
      "what did we do in about the login page",
    ],
    ["cursor said to pin the version", ["cursor"], "said to pin the version"],
    [
      // A model named beside the agent that ran it: the agent is the one
      // spoken of as such.
      "what status code did deepseek return in the opencode session",
      ["opencode"],
      "what status code did deepseek return in the session",
    ],
    [
      // A maker's name before a model's ("Claude Sonnet 4") names the
      // model; the agent asked is the other one.
      "did I get an answer from Claude Sonnet 4 when asking aider about the repo",
      ["aider"],
      "did I get an answer from Claude Sonnet 4 when asking about the repo",
    ],
    ["which runs used gemini 2.5 pro for the refactor", undefined],
    ["the database cursor pagination bug", undefined],
    ["convert the claude style agent files to the qwen format", undefined],
    ["codex and codex again", ["codex"], "and codex again"],
    ["continue the migration after the backup", undefined],
    ["redis timeout in production", undefined],
    ["E2F0FF background in the copilot chat page", undefined],
    ["src/app/copilot/copilot.page.html:13:10 - error NG8002", undefined],
    ["load codex_config.toml in the wizard", undefined],
    ["what did gemini-cli say about the quota", ["gemini"]],
    [
      "the aider run that hit the quota",
      ["aider"],
      "the run that hit the quota",
    ],
    ["Claude Code's fix.", ["claude-code"], "fix."],
    ["rotate our claude api key", undefined],
    [
      "what did the codex session change",
      ["codex"],
      "what did the session change",
    ],
    ["the copilot chat about the login page", ["copilot-cli", "copilot-chat"]],
    ["cursor chat where we fixed the login", ["cursor"]],
    ["which cursor chat was just a question about a web server", ["cursor"]],
    ["opencode errors on every single prompt with deepseek", ["opencode"]],
    ["convert the claude agents to the qwen format", undefined],
    [
      "copilot chat page in the ionic app: angular can't bind to ngClass",
      undefined,
    ],
    ["where did we add gemini api calls to the importer", undefined],
    ["dark theme for the copilot messages too", undefined],
    ["copilot bubbles in E2F0FF with a user icon", undefined],
    ["what did claude's messages say about the port", ["claude-code"]],
    ["with claude sdk client retries", undefined],
    ["codex cli run that hit the quota", ["codex"]],
    ["what did claude code change in the page", ["claude-code"]],
    ["vertex ai per-minute token quota hit for claude", undefined],
    ["the quota error for claude on vertex in aider", ["aider"]],
    ["gemini through openrouter kept failing", undefined],
    [
      "subagents written in Claude Code's format with tools as a list",
      undefined,
    ],
  ];
  for (const [query, ids, rest] of cases) {
    await t.step(query, () => {
      const found = agentNamed(query);
      deepEqual(found?.harnesses, ids);
      if (rest !== undefined) equal(found?.rest, rest);
    });
  }
});

Deno.test("agentNamed() names no agent for a word every object inherits", () => {
  for (
    const query of [
      "constructor fails in init",
      "toString of the error",
      "why does valueOf return NaN",
      "hasOwnProperty check",
    ]
  ) {
    equal(agentNamed(query), undefined, query);
  }
});

Deno.test("agentNamed() keeps a prompt's lines, so its ask is still found by them", () => {
  const prompt =
    "our style doc says:\n\n- const  by default\n- sort imports\n\n" +
    "Which aider chat proposed the import rule?";
  equal(
    agentNamed(prompt)?.rest,
    "our style doc says:\n\n- const by default\n- sort imports\n\nWhich chat proposed the import rule?",
  );
});
