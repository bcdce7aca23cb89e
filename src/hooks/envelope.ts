/**
 * How a hook's answer reaches the host: the JSON envelope Claude Code,
 * Codex, Gemini CLI and Qwen Code read (`hookSpecificOutput.additionalContext`,
 * plus `systemMessage` for the person), Cursor's `additional_context`, or the
 * bare text with `--plain` for hosts that take a string back.
 *
 * @module
 */

/** The output shapes a hook can print. */
export type HookFormat = "json" | "cursor" | "plain";

/** What a hook has to say. */
export interface HookAnswer {
  /** Context for the model (already framed). */
  context?: string;
  /** A note for the person (JSON hosts that show one). */
  systemMessage?: string;
}

/**
 * Renders a hook's answer for its host; "" when there is nothing to print.
 *
 * @param answer Context and/or system message.
 * @param options The host's shape and the event name to echo back (`hookEventName`).
 * @returns What to write to stdout.
 * @example
 * ```ts
 * import { renderHookAnswer } from "./envelope.ts";
 * import { equal } from "node:assert/strict";
 * equal(renderHookAnswer({ context: "x" }, { format: "json", event: "SessionStart" }), '{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"x"}}\n');
 * equal(renderHookAnswer({}, { format: "json", event: "SessionStart" }), "");
 * ```
 */
export function renderHookAnswer(
  answer: HookAnswer,
  options: { format: HookFormat; event: string },
): string {
  const { format, event } = options;
  if (format === "plain") return answer.context ? `${answer.context}\n` : "";
  if (format === "cursor") {
    return answer.context
      ? `${JSON.stringify({ additional_context: answer.context })}\n`
      : "";
  }
  if (!answer.context && !answer.systemMessage) return "";
  const out: Record<string, unknown> = {};
  if (answer.context) {
    out.hookSpecificOutput = {
      hookEventName: event,
      additionalContext: answer.context,
    };
  }
  if (answer.systemMessage) out.systemMessage = answer.systemMessage;
  return `${JSON.stringify(out)}\n`;
}
