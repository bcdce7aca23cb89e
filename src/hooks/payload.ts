/**
 * Hook payloads from every host, read into one shape: Claude Code, Codex,
 * Gemini CLI and Qwen Code send snake_case JSON with `session_id`, `cwd` and
 * `hook_event_name`; Cursor sends `conversation_id` and `workspace_roots`.
 * Tool results differ per host (`tool_response` object or string, Gemini's
 * `llmContent`, Claude's `error` on PostToolUseFailure, Cursor's
 * `tool_output` JSON string with `exitCode`).
 *
 * @module
 */

/** A hook payload in the shape the hooks use. */
export interface HookPayload {
  /** The host's event name, e.g. "SessionStart", "AfterTool", "sessionStart". */
  event?: string;
  /** The session the hook speaks for. */
  sessionId?: string;
  /** Working directory of the session. */
  cwd?: string;
  /** The host's transcript file. */
  transcriptPath?: string;
  /** SessionStart source: startup, resume, clear, compact. */
  source?: string;
  /** The prompt (UserPromptSubmit / BeforeAgent / beforeSubmitPrompt). */
  prompt?: string;
  /** Tool name of a tool event. */
  toolName?: string;
  /** The command line of a shell tool. */
  command?: string;
  /** Whether the tool call failed. */
  failed: boolean;
  /** What the tool printed (error first), for a tool event. */
  output?: string;
}

type Json = Record<string, unknown>;

function str(value: unknown): string | undefined {
  return typeof value === "string" && value.length > 0 ? value : undefined;
}

function obj(value: unknown): Json | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? value as Json
    : undefined;
}

function exitOf(value: Json): number | undefined {
  for (
    const key of [
      "exit_code",
      "exitCode",
      "returncode",
      "return_code",
      "status",
    ]
  ) {
    const v = value[key];
    if (typeof v === "number" && Number.isFinite(v)) return v;
  }
  return undefined;
}

/** Cursor's postToolUse sends `tool_output` as a JSON string, `{"output":…,"exitCode":1}`. */
function jsonText(value: unknown): unknown {
  if (typeof value !== "string" || !/^\s*\{/.test(value)) return value;
  try {
    return obj(JSON.parse(value)) ?? value;
  } catch {
    return value;
  }
}

const EXIT_TEXT = /(?:^|\n)\s*exit(?:ed with)?\s*code:?\s*(-?\d+)/i;

function textOfResponse(response: unknown): string | undefined {
  if (typeof response === "string") return response;
  const r = obj(response);
  if (!r) return undefined;
  const parts: string[] = [];
  for (
    const key of [
      "error",
      "stderr",
      "stdout",
      "output",
      "llmContent",
      "returnDisplay",
      "content",
      "result",
    ]
  ) {
    const v = r[key];
    if (typeof v === "string" && v.trim()) parts.push(v);
    else if (obj(v) && typeof (v as Json).message === "string") {
      parts.push((v as Json).message as string);
    } else if (Array.isArray(v)) {
      for (const item of v) {
        const t = typeof item === "string" ? item : str(obj(item)?.text);
        if (t) parts.push(t);
      }
    }
  }
  return parts.length ? parts.join("\n") : undefined;
}

/**
 * Parses a hook payload. Throws on anything that is not a JSON object (the
 * caller fails open on the throw).
 *
 * @param text The raw stdin.
 * @returns The payload.
 * @throws {SyntaxError} When the text is not a JSON object.
 * @example
 * ```ts
 * import { parsePayload } from "./payload.ts";
 * import { equal } from "node:assert/strict";
 * const p = parsePayload('{"session_id":"s1","cwd":"/home/a/api","hook_event_name":"PostToolUseFailure","tool_name":"Bash","tool_input":{"command":"npm test"},"error":"Exit code 1\\nboom"}');
 * equal(p.failed, true);
 * equal(p.command, "npm test");
 * ```
 */
export function parsePayload(text: string): HookPayload {
  const data = obj(JSON.parse(text));
  if (!data) throw new SyntaxError("The hook payload is not a JSON object");
  const roots = Array.isArray(data.workspace_roots) ? data.workspace_roots : [];
  const input = obj(data.tool_input) ?? obj(data.toolInput) ??
    obj(data.tool_args);
  const payload: HookPayload = { failed: false };
  const event = str(data.hook_event_name) ?? str(data.hookEventName);
  if (event) payload.event = event;
  const session = str(data.session_id) ?? str(data.sessionId) ??
    str(data.conversation_id) ?? str(data.thread_id);
  if (session) payload.sessionId = session;
  const cwd = str(data.cwd) ?? str(roots[0]);
  if (cwd) payload.cwd = cwd;
  const transcript = str(data.transcript_path) ?? str(data.transcriptPath);
  if (transcript) payload.transcriptPath = transcript;
  const source = str(data.source) ?? str(data.trigger);
  if (source) payload.source = source;
  const prompt = str(data.prompt) ?? str(data.user_prompt) ?? str(data.message);
  if (prompt) payload.prompt = prompt;
  const tool = str(data.tool_name) ?? str(data.toolName);
  if (tool) payload.toolName = tool;
  const command = str(input?.command) ?? str(input?.cmd) ?? str(data.command) ??
    (Array.isArray(input?.command)
      ? (input?.command as unknown[]).filter((x) => typeof x === "string").join(
        " ",
      )
      : undefined);
  if (command) payload.command = command;
  const response = jsonText(
    data.tool_response ?? data.toolResponse ?? data.tool_output ??
      data.output ?? data.result,
  );
  const error = str(data.error) ?? str(data.error_message) ??
    str(obj(data.error)?.message);
  const output = [error, textOfResponse(response)].filter(Boolean).join("\n");
  if (output) payload.output = output;
  const r = obj(response);
  const code = r ? exitOf(r) : exitOf(data);
  const textCode = output.match(EXIT_TEXT);
  payload.failed = /failure/i.test(event ?? "") ||
    (code !== undefined && code !== 0) ||
    (textCode !== null && Number(textCode[1]) !== 0) ||
    r?.is_error === true || r?.isError === true || data.is_error === true ||
    (!!r && (str(r.error) !== undefined || obj(r.error) !== undefined)) ||
    (error !== undefined && data.is_interrupt !== true);
  return payload;
}

/** Tool names of the hosts' shell tools. */
export const SHELL_TOOLS =
  /^(bash|shell|shell_command|local_shell|exec_command|run_shell_command|run_terminal_cmd|terminal|execute_command|command|Shell)$/i;
