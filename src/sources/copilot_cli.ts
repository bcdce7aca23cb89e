/**
 * GitHub Copilot CLI: one append-only event log per session at
 * `${COPILOT_HOME:-~/.copilot}/session-state/<session>/events.jsonl`, with
 * `workspace.yaml` beside it (cwd, generated summary). Older builds wrote the
 * same events to `session-state/<session>.jsonl`.
 *
 * @module
 */
import type {
  FileKind,
  Harness,
  ParseOptions,
  ParseResult,
  SourceEnv,
} from "../core/harness.ts";
import { walkFiles } from "../core/harness.ts";
import { cleanSpeech } from "../core/text.ts";
import { parseTime } from "../core/time.ts";
import { SessionBuilder } from "./_builder.ts";
import { parseCopilotEvents } from "./_copilot_events.ts";
import { isObject, str, textBlocks } from "./_json.ts";
import { readJsonDocument } from "./_json_doc.ts";
import { dirName, segments } from "./_paths.ts";
import { type ToolDialect, ToolRecorder } from "./_tool_records.ts";

const HARNESS_ID = "copilot-cli";

/** `session-state/<id>/events.jsonl` or `session-state/<id>.jsonl` → the id. */
function sessionIdOf(path: string): string | undefined {
  const parts = segments(path);
  const name = parts.at(-1) ?? "";
  if (name === "events.jsonl" && parts.at(-3) === "session-state") {
    return parts.at(-2);
  }
  if (name.endsWith(".jsonl") && parts.at(-2) === "session-state") {
    return name.slice(0, -".jsonl".length);
  }
  return undefined;
}

/** `history-session-state/<id>.json`, the whole-session dumps of pre-1.0 builds. */
function isLegacyDump(path: string): boolean {
  const parts = segments(path);
  return parts.at(-2) === "history-session-state" &&
    (parts.at(-1) ?? "").endsWith(".json");
}

/** The tools of the pre-1.0 builds (`str_replace_editor` did view/create/edit). */
const LEGACY_DIALECT: ToolDialect = {
  shell: new Set(["bash", "powershell", "shell"]),
  commandKeys: ["command"],
  pathTools: new Set(["view", "create", "read_file"]),
  pathKeys: ["path", "file_path"],
  editTools: new Set(["str_replace_editor", "str_replace", "edit"]),
  oldKeys: ["old_str", "old_string"],
};

/**
 * Parses a pre-1.0 session dump: `{sessionId, startTime, chatMessages}` with
 * OpenAI-shaped messages (`tool_calls` on assistant turns, `role: "tool"`
 * results). The dump has no per-message times; the session start is kept.
 *
 * @param path The dump.
 * @returns The session, if it held any turn.
 */
async function parseLegacyDump(path: string): Promise<ParseResult> {
  const doc = await readJsonDocument(path);
  if (!doc.ok) {
    return { sessions: [], skipped: doc.reason === "missing" ? 0 : 1 };
  }
  if (!isObject(doc.value)) return { sessions: [], skipped: 1 };
  const dump = doc.value;
  const builder = new SessionBuilder({
    harness: HARNESS_ID,
    id: str(dump.sessionId) ??
      (segments(path).at(-1) ?? "").replace(/\.json$/, ""),
    path,
  });
  builder.touch(parseTime(dump.startTime));
  const tools = new ToolRecorder(builder, LEGACY_DIALECT);
  const messages = Array.isArray(dump.chatMessages) ? dump.chatMessages : [];
  let skipped = 0;
  messages.forEach((m, i) => {
    if (!isObject(m)) {
      skipped++;
      return;
    }
    const at = { locator: { path, recordId: `chatMessages:${i}` } };
    const text = textBlocks(m.content, "\n");
    if (m.role === "user") {
      builder.add("user", cleanSpeech(text), at);
    } else if (m.role === "assistant") {
      builder.add("assistant", cleanSpeech(text), at);
      tools.newMessage();
      for (const call of Array.isArray(m.tool_calls) ? m.tool_calls : []) {
        const fn = isObject(call) && isObject(call.function)
          ? call.function
          : undefined;
        const name = str(fn?.name);
        if (fn && name) tools.call(str(call.id), name, fn.arguments, at);
      }
    } else if (m.role === "tool") {
      tools.result(str(m.tool_call_id), text, false, at);
    }
  });
  const session = builder.build();
  return {
    sessions: session.records.length > 0 ? [session] : [],
    skipped,
  };
}

/** The scalar `key: value` lines of a small YAML file. */
async function yamlScalars(path: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  let text: string;
  try {
    const info = await Deno.stat(path);
    if (!info.isFile || info.size > 1 << 20) return out;
    text = await Deno.readTextFile(path);
  } catch {
    return out;
  }
  for (const line of text.split(/\r?\n/)) {
    const m = /^([A-Za-z_][\w-]*):[ \t]*(.*)$/.exec(line);
    if (!m?.[1] || m[2] === undefined) continue;
    let value = m[2].trim();
    if (
      value.length >= 2 &&
      ((value.startsWith('"') && value.endsWith('"')) ||
        (value.startsWith("'") && value.endsWith("'")))
    ) {
      const quote = value[0];
      value = value.slice(1, -1);
      if (quote === '"') value = value.replace(/\\(["\\])/g, "$1");
    }
    // Block scalars (`|`, `>-`) and anchors are not single-line values.
    if (value.length > 0 && !/^[|>&*!]/.test(value)) out.set(m[1], value);
  }
  return out;
}

/** Options for {@linkcode parseCopilotCliSession}. */
export interface CopilotCliParseOptions extends ParseOptions {
  /** Lines longer than this are skipped. Default 8 MiB. */
  maxLineBytes?: number;
}

/**
 * Parses one Copilot CLI event log, from `options.offset` when resuming.
 * The cwd and title come from `workspace.yaml` when `session.start` names no
 * cwd.
 *
 * @param path The `events.jsonl` (or legacy `<id>.jsonl`) file.
 * @param options Resume point, state and sub-agent switch.
 * @returns The session, its sub-agent side chains and the resume point.
 * @example
 * ```ts
 * import { parseCopilotCliSession } from "./copilot_cli.ts";
 * import { equal } from "node:assert/strict";
 * const dir = await Deno.makeTempDir();
 * await Deno.mkdir(`${dir}/session-state/s1`, { recursive: true });
 * const path = `${dir}/session-state/s1/events.jsonl`;
 * await Deno.writeTextFile(path, JSON.stringify({
 *   type: "assistant.message", data: { content: "All tests pass." },
 *   id: "e1", timestamp: "2026-01-01T00:00:00Z", parentId: null,
 * }) + "\n");
 * const source = { home: dir, env: {}, os: "linux" };
 * const { sessions } = await parseCopilotCliSession(path, { includeSubagents: true, source });
 * equal(sessions[0]?.id, "s1");
 * ```
 */
export async function parseCopilotCliSession(
  path: string,
  options: CopilotCliParseOptions,
): Promise<ParseResult> {
  const id = sessionIdOf(path) ??
    (segments(path).at(-1) ?? "").replace(/\.jsonl$/, "");
  const workspace = segments(path).at(-1) === "events.jsonl"
    ? await yamlScalars(path.replace(/events\.jsonl$/, "workspace.yaml"))
    : new Map<string, string>();
  return await parseCopilotEvents(path, {
    ...options,
    harness: HARNESS_ID,
    fallbackId: workspace.get("id") ?? id,
    cwd: workspace.get("cwd"),
    title: workspace.get("summary"),
  });
}

/**
 * The session-state directories: `DEJA_COPILOT_ROOT`, else
 * `$COPILOT_HOME/session-state`, else `~/.copilot/session-state` and, when
 * `XDG_STATE_HOME` is set, `$XDG_STATE_HOME/.copilot/session-state`, where
 * 0.0.4xx builds kept it (later ones ignore the variable and move what is
 * there to `~/.copilot`).
 */
function copilotRoots(source: SourceEnv): string[] {
  const env = source.env;
  if (env.DEJA_COPILOT_ROOT) return [env.DEJA_COPILOT_ROOT];
  const homes = env.COPILOT_HOME
    ? [env.COPILOT_HOME]
    : [`${source.home}/.copilot`];
  if (!env.COPILOT_HOME && env.XDG_STATE_HOME) {
    homes.push(`${env.XDG_STATE_HOME.replace(/[\\/]+$/, "")}/.copilot`);
  }
  return homes.map((home) => `${home.replace(/[\\/]+$/, "")}/session-state`);
}

const eventsKind: FileKind = {
  id: "events",
  appendOnly: true,
  match: (path) => sessionIdOf(path) !== undefined,
  parse: (path, options) => parseCopilotCliSession(path, options),
};

const legacyKind: FileKind = {
  id: "legacy",
  appendOnly: false,
  match: isLegacyDump,
  parse: (path) => parseLegacyDump(path),
};

/**
 * The GitHub Copilot CLI harness.
 *
 * @example
 * ```ts
 * import { copilotCli } from "./copilot_cli.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(copilotCli.roots({ home: "/h", env: {}, os: "linux" }), ["/h/.copilot/session-state"]);
 * ```
 */
export const copilotCli: Harness = {
  id: HARNESS_ID,
  name: "GitHub Copilot CLI",
  format:
    "append-only JSONL event log per session (session-state/<id>/events.jsonl) with workspace.yaml; pre-1.0 JSON dumps (history-session-state/<id>.json)",
  // 2: parentToolCallId side chains, injected user turns left out, shell_exit exit codes,
  // `result.contents` text, `session.title_changed` titles.
  // 3: user turns from another agent (`agent-…` in the main session), autopilot objectives and schedules left out.
  // 4: sessions under `$XDG_STATE_HOME/.copilot/session-state` (0.0.4xx builds) found.
  // 5: the prompt a person scheduled (`session.schedule_created`) is their speech.
  // 6: a handoff's summary of the work done in the session it came from.
  // 7: a detached run (`detachedFromSpawningParentSessionId`) is a sub-agent session of its spawner.
  // 8: a command's output is an error when it exited non-zero, whatever
  // status the harness gave the result (shared ToolRecorder).
  // 9: a failed model call (`session.error`: rate limit, quota, context limit) is error output of the model, the files a prompt attached are files records, input another session sent (`crossSession`) is no one's speech.
  // 10: a grep call's `pattern`, `path` and `glob` as a command (tool `grep`) before its output.
  revision: 10,
  envOverrides: ["COPILOT_HOME", "XDG_STATE_HOME", "DEJA_COPILOT_ROOT"],
  roots: copilotRoots,
  discover(source: SourceEnv): Promise<string[]> {
    return Promise.resolve(
      copilotRoots(source).flatMap((root) => [
        ...walkFiles(root, eventsKind.match, { maxDepth: 1 }),
        ...walkFiles(
          `${dirName(root)}/history-session-state`,
          isLegacyDump,
          { maxDepth: 0 },
        ),
      ]),
    );
  },
  kinds: [eventsKind, legacyKind],
  docs: {
    store:
      "`${COPILOT_HOME:-~/.copilot}/session-state/<session>/events.jsonl` with `workspace.yaml`, legacy `session-state/<session>.jsonl`, pre-1.0 dumps in `history-session-state/<session>.json` (`%USERPROFILE%\\.copilot` on Windows), and without `COPILOT_HOME` also `$XDG_STATE_HOME/.copilot/session-state` when `XDG_STATE_HOME` is set (0.0.4xx builds kept sessions there; later ones move them to `~/.copilot`); `DEJA_COPILOT_ROOT` names the session-state directory",
    extracts:
      "user messages (as typed, not the `transformedContent` with injected datetime/reminders), assistant text, tool calls as commands (bash/powershell, exit code from the result's `shell_exit`/`terminal` block, else `<exited with exit code N>`), what a `grep` call searched for (`pattern`, `path`, `glob`) as a command (tool `grep`: `grep <pattern> [<path>] [--glob <glob>]`, no exit code) before its output, files (view/create/edit), edits (old_str), tool output (`result.content`, else the text of `result.contents` blocks, else `detailedContent`; MCP tools too) with isError when `success` is false or a command exited non-zero (Copilot marks such a run a success), a model call that failed (`session.error` with a `message`: rate limit, quota, context limit) as error tool-output (tool `model`), the files a person attached to a prompt (`@path`: `file` attachments by `path`, editor `selection`s by `filePath`) as files records (tool `mention`), compaction and task-complete summaries, the summary a `session.handoff` brings of the work done in the (remote) session it came from, the prompt a person scheduled with `/every` or `/after` (`session.schedule_created`, its `displayPrompt` else `prompt`; not one the model scheduled) as their speech, once, sub-agent events stamped `agentId` (or, in older builds, `parentToolCallId`) as side chains, a `/fork` as a fork of the session its `session.info` note names, a detached run (`session.start` `detachedFromSpawningParentSessionId`, a headless agent launched as a session shut down) as a sub-agent session of the session that spawned it; cwd from `session.start` and `workspace.yaml`, title from the last `session.title_changed`, else `workspace.yaml`; pre-1.0 dumps: user/assistant turns, `tool_calls` (bash, str_replace_editor) as commands/files/edits and `tool` results as tool-output",
    omits:
      'reasoning (`reasoningText`, `assistant.reasoning`, encrypted content), user turns nobody typed (`source: "skill-…"` skill injections, `isAutopilotContinuation` and `source: "autopilot…"` prompts, input another session sent (`crossSession`, `authenticated-cross-session`), each firing of a schedule, `schedule…`, and in the main session a prompt from another agent, `agent-…`, kept in a side chain as the task the sub-agent was given), report_intent calls and their results, directory, blob and GitHub attachments, binary assets, turn/model/usage/hook/permission events, checkpoints/*.md and session-store.db (not transcripts); on an incremental pass a result whose call was read in an earlier pass keeps no footer-derived exit code for that call',
    verified:
      "real sample from Copilot CLI 1.0.10 (Windows, 7 user messages, 59 tool executions, 3 failures, 3 grep calls); the 2026 event fields (`agentId`, deprecated `parentToolCallId`, `user.message` `source` (`skill-<name>`, `agent-<id>`)/`isAutopilotContinuation`, `result.contents` with `shell_exit`, `session.title_changed`, `session.schedule_created` with `origin`/`displayPrompt`, `session.error`, `user.message` `attachments` and `crossSession`) from the generated event schema in github/copilot-sdk (nodejs/src/generated/session-events.ts); the `autopilot…`/`schedule…` sources and the fork note from public parsers' tests; the `$XDG_STATE_HOME/.copilot` location from github/copilot-cli issues #1750 and #1954 and microsoft/vscode PR #314917 (no real sample of a 2026 log, a sub-agent or a fork)",
  },
};
