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
import { parseCopilotEvents } from "./_copilot_events.ts";
import { segments } from "./_paths.ts";

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

/** The session-state directories: `DEJA_COPILOT_ROOT`, else `$COPILOT_HOME/session-state`, else `~/.copilot/session-state`. */
function copilotRoots(source: SourceEnv): string[] {
  if (source.env.DEJA_COPILOT_ROOT) return [source.env.DEJA_COPILOT_ROOT];
  const home = source.env.COPILOT_HOME || `${source.home}/.copilot`;
  return [`${home.replace(/[\\/]+$/, "")}/session-state`];
}

const eventsKind: FileKind = {
  id: "events",
  appendOnly: true,
  match: (path) => sessionIdOf(path) !== undefined,
  parse: (path, options) => parseCopilotCliSession(path, options),
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
    "append-only JSONL event log per session (session-state/<id>/events.jsonl) with workspace.yaml",
  envOverrides: ["COPILOT_HOME", "DEJA_COPILOT_ROOT"],
  roots: copilotRoots,
  discover(source: SourceEnv): Promise<string[]> {
    return Promise.resolve(
      copilotRoots(source).flatMap((root) =>
        walkFiles(root, eventsKind.match, { maxDepth: 1 })
      ),
    );
  },
  kinds: [eventsKind],
  docs: {
    store:
      "`${COPILOT_HOME:-~/.copilot}/session-state/<session>/events.jsonl` with `workspace.yaml`, legacy `session-state/<session>.jsonl` (`%USERPROFILE%\\.copilot` on Windows; `DEJA_COPILOT_ROOT` names the session-state directory)",
    extracts:
      "user messages (as typed, not the `transformedContent` with injected datetime/reminders), assistant text, tool calls as commands (bash/powershell, exit code from `<exited with exit code N>`), files (view/create/edit), edits (old_str), tool output with isError when `success` is false, compaction and task-complete summaries, sub-agent events stamped `agentId` as side chains, a `/fork` as a fork of the session its `session.info` note names; cwd and title from `session.start` and `workspace.yaml`",
    omits:
      "reasoning (`reasoningText`, encrypted content), report_intent calls and their results, turn/model/usage/hook events, checkpoints/*.md and session-store.db (not transcripts); on an incremental pass a result whose call was read in an earlier pass keeps no exit code for that call",
    verified:
      "real sample from Copilot CLI 1.0.10 (Windows, 7 user messages, 59 tool executions, 3 failures); sub-agent stamping and the fork note from public parsers' tests (no real sample of either)",
  },
};
