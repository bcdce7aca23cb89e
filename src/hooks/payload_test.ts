import { equal, throws } from "node:assert/strict";
import { parsePayload } from "./payload.ts";

Deno.test("parsePayload() tells failed tool calls from successful ones across hosts", async (t) => {
  const cases: Array<[string, unknown, boolean]> = [
    ["Claude PostToolUseFailure", {
      hook_event_name: "PostToolUseFailure",
      error: "Exit code 1\nboom",
    }, true],
    ["Claude PostToolUse ok", {
      hook_event_name: "PostToolUse",
      tool_response: { stdout: "ok", stderr: "" },
    }, false],
    ["exit code field", { tool_response: { exit_code: 2, stdout: "" } }, true],
    ["Codex string result", { tool_response: "Exit code: 1\nError: x" }, true],
    ["Codex string result ok", { tool_response: "Exit code: 0\nfine" }, false],
    ["Gemini llmContent", {
      tool_response: { llmContent: "Output: x\nExit Code: 127" },
    }, true],
    ["Gemini error field", {
      tool_response: { llmContent: "", error: { message: "failed" } },
    }, true],
    ["Cursor failure", {
      hook_event_name: "postToolUseFailure",
      error_message: "exit 1",
    }, true],
    ["interrupted", { error: "Interrupted", is_interrupt: true }, false],
  ];
  for (const [name, payload, failed] of cases) {
    await t.step(
      name,
      () => equal(parsePayload(JSON.stringify(payload)).failed, failed),
    );
  }
});

Deno.test("parsePayload() reads cwd from Cursor's workspace roots and the command from tool_input", () => {
  const p = parsePayload(
    '{"conversation_id":"c1","workspace_roots":["/w/api"],"tool_input":{"command":"npm test"}}',
  );
  equal(p.sessionId, "c1");
  equal(p.cwd, "/w/api");
  equal(p.command, "npm test");
});

Deno.test("parsePayload() rejects what is not a JSON object", () => {
  throws(() => parsePayload("[1]"), SyntaxError);
  throws(() => parsePayload("nope"), SyntaxError);
});
