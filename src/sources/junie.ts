/**
 * Junie CLI (JetBrains): one folder per session under
 * `${JUNIE_HOME:-~/.junie}/sessions/<sessionId>/` holding `events.jsonl`,
 * and `sessions/index.jsonl` listing each session's task name and times.
 * The log holds the person's prompts and the agent's UI blocks (terminal
 * runs, tool steps, viewed files, file changes, results); a block is written
 * again each time its step advances, so the last event of a step is the one
 * kept, at the place the step first appeared.
 *
 * @module
 */
import { basename, dirname, join } from "node:path";
import type {
  FileKind,
  Harness,
  ParseOptions,
  ParseResult,
  SourceEnv,
} from "../core/harness.ts";
import { cleanSpeech } from "../core/text.ts";
import { parseTime } from "../core/time.ts";
import type { Locator } from "../core/types.ts";
import { SessionBuilder } from "./_builder.ts";
import { walkJsonLines } from "./_jsonl_walk.ts";
import { isObject, type Json, list, str } from "./_json.ts";
import { walkRoots } from "./_roots.ts";
import { exitCodeIn, removedLines } from "./_work_records.ts";

const HARNESS_ID = "junie";

/** Block kinds that a step rewrites as it advances. */
const STEP_BLOCKS: ReadonlySet<string> = new Set([
  "TerminalBlockUpdatedEvent",
  "ToolBlockUpdatedEvent",
  "ViewFilesBlockUpdatedEvent",
  "FileChangesBlockUpdatedEvent",
  "ResultBlockUpdatedEvent",
]);

/** One event worth a record, with where it was read. */
interface Slot {
  event: Json;
  locator: Locator;
}

/** What `index.jsonl` says about one session. */
interface IndexEntry {
  title?: string;
  created?: number;
  updated?: number;
}

/** Reads the session's line of `index.jsonl` beside its folder. */
async function indexEntry(
  sessionsDir: string,
  id: string,
): Promise<IndexEntry> {
  let entry: IndexEntry = {};
  try {
    await walkJsonLines(join(sessionsDir, "index.jsonl"), {}, (line) => {
      if (line.sessionId !== id) return;
      // A later line for the same session is the newer one.
      entry = {};
      const title = str(line.taskName);
      if (title) entry.title = title;
      const created = parseTime(line.createdAt);
      if (created !== undefined) entry.created = created;
      const updated = parseTime(line.updatedAt);
      if (updated !== undefined) entry.updated = updated;
    });
  } catch {
    // No index: the session has no title or times beyond its records.
  }
  return entry;
}

function addBlock(b: SessionBuilder, event: Json, locator: Locator): void {
  const at = { locator };
  switch (event.kind) {
    case "TerminalBlockUpdatedEvent": {
      const command = str(event.command);
      const output = str(event.output) ?? str(event.presentableOutput) ?? "";
      if (command) {
        b.add("command", command, {
          ...at,
          tool: "terminal",
          exitCode: exitCodeIn(output),
        });
      }
      b.add("tool-output", output, { ...at, tool: "terminal" });
      break;
    }
    case "ToolBlockUpdatedEvent": {
      const text = [str(event.text), str(event.details)]
        .filter((t) => t !== undefined && t.trim() !== "").join("\n\n");
      b.add("tool-output", text, { ...at, tool: "tool" });
      break;
    }
    case "ViewFilesBlockUpdatedEvent": {
      const paths = list(event.files)
        .map((f) => isObject(f) ? str(f.relativePath) : undefined)
        .filter((p): p is string => p !== undefined);
      b.add("files", paths.join("\n"), { ...at, tool: "view" });
      break;
    }
    case "FileChangesBlockUpdatedEvent":
      for (const change of list(event.changes)) {
        if (!isObject(change)) continue;
        const path = str(change.afterRelativePath) ??
          str(change.beforeRelativePath);
        if (!path) continue;
        b.add("files", path, { ...at, tool: "edit" });
        const before = str(change.beforeContent) ?? "";
        const removed = removedLines(before, str(change.afterContent) ?? "");
        if (!removed.trim()) continue;
        b.addEdit(path, removed, { ...at, tool: "edit" });
      }
      break;
    case "ResultBlockUpdatedEvent": {
      const result = str(event.result);
      if (event.cancelled !== true && result && result !== "Empty") {
        b.add("assistant", cleanSpeech(result), at);
      }
      break;
    }
  }
}

/**
 * Parses one Junie CLI `events.jsonl`: prompts as user records, each step's
 * last block as commands, tool output, files, edits or the agent's result,
 * agent failures as error output; the title and times from `index.jsonl`.
 *
 * @param path The `events.jsonl` file.
 * @param _options Unused (the log is read whole).
 * @returns The session.
 * @example
 * ```ts
 * import { parseJunieEvents } from "./junie.ts";
 * import { equal } from "node:assert/strict";
 * const dir = `${await Deno.makeTempDir()}/sessions/session-260101-090000-ab12`;
 * await Deno.mkdir(dir, { recursive: true });
 * await Deno.writeTextFile(`${dir}/events.jsonl`, [
 *   { kind: "UserPromptEvent", prompt: "why is the build red?" },
 *   { kind: "SessionA2uxEvent", event: { state: "COMPLETED", agentEvent: {
 *     kind: "ResultBlockUpdatedEvent", stepId: "s1", result: "A missing import." } } },
 * ].map((l) => JSON.stringify(l)).join("\n") + "\n");
 * const source = { home: "/h", env: {}, os: "linux" };
 * const { sessions } = await parseJunieEvents(`${dir}/events.jsonl`, { includeSubagents: true, source });
 * equal(sessions[0]?.records[1]?.text, "A missing import.");
 * ```
 */
export async function parseJunieEvents(
  path: string,
  _options: ParseOptions,
): Promise<ParseResult> {
  const slots: Slot[] = [];
  const steps = new Map<string, number>();
  let skipped = 0;
  const walked = await walkJsonLines(path, {}, (line, where) => {
    const locator: Locator = {
      path,
      line: where.line,
      offset: where.offset,
    };
    if (line.kind === "UserPromptEvent") {
      slots.push({ event: line, locator });
      return;
    }
    if (line.kind !== "SessionA2uxEvent") {
      if (typeof line.kind !== "string") skipped++;
      return;
    }
    const event = isObject(line.event) ? line.event : undefined;
    const agent = event && isObject(event.agentEvent)
      ? event.agentEvent
      : undefined;
    if (!agent || typeof agent.kind !== "string") {
      skipped++;
      return;
    }
    const stepId = str(agent.stepId);
    if (STEP_BLOCKS.has(agent.kind) && stepId) {
      const at = steps.get(stepId);
      // The step's latest block replaces the earlier one in its place.
      if (at === undefined) {
        steps.set(stepId, slots.length);
        slots.push({ event: agent, locator: { ...locator, recordId: stepId } });
      } else {
        slots[at] = {
          event: agent,
          locator: { ...locator, recordId: stepId },
        };
      }
    } else if (agent.kind === "AgentFailureEvent") {
      slots.push({ event: agent, locator });
    }
    // Status, state snapshots and model usage carry nothing said.
  });
  const sessionDir = dirname(path);
  const id = basename(sessionDir);
  const index = await indexEntry(dirname(sessionDir), id);
  const b = new SessionBuilder({ harness: HARNESS_ID, id, path });
  for (const { event, locator } of slots) {
    if (event.kind === "UserPromptEvent") {
      b.add("user", cleanSpeech(str(event.prompt) ?? ""), { locator });
    } else if (event.kind === "AgentFailureEvent") {
      b.add("tool-output", str(event.message) ?? "", {
        locator,
        tool: "agent",
        flags: { isError: true },
      });
    } else addBlock(b, event, locator);
  }
  if (index.title) b.setTitle(index.title);
  b.touch(index.created);
  b.touch(index.updated);
  const session = b.build();
  return {
    sessions: session.records.length > 0 ? [session] : [],
    skipped: walked.skipped + skipped,
  };
}

/** The sessions folder: `DEJA_JUNIE_ROOT`, else `${JUNIE_HOME:-~/.junie}/sessions`. */
function junieRoots(source: SourceEnv): string[] {
  if (source.env.DEJA_JUNIE_ROOT) return [source.env.DEJA_JUNIE_ROOT];
  const home = source.env.JUNIE_HOME || join(source.home, ".junie");
  return [join(home, "sessions")];
}

const eventsKind: FileKind = {
  id: "events",
  appendOnly: false,
  match: (path) => basename(path) === "events.jsonl",
  parse: (path, options) => parseJunieEvents(path, options),
};

/**
 * The Junie CLI harness.
 *
 * @example
 * ```ts
 * import { junie } from "./junie.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(junie.roots({ home: "/h", env: {}, os: "linux" }), ["/h/.junie/sessions"]);
 * ```
 */
export const junie: Harness = {
  id: HARNESS_ID,
  name: "Junie",
  format:
    "JSONL event log (prompts + agent UI blocks folded by step) per session folder, index.jsonl beside them",
  envOverrides: ["JUNIE_HOME", "DEJA_JUNIE_ROOT"],
  roots: junieRoots,
  discover(source: SourceEnv): Promise<string[]> {
    return Promise.resolve(
      walkRoots(junieRoots(source), eventsKind.match, { maxDepth: 1 }),
    );
  },
  kinds: [eventsKind],
  docs: {
    store:
      "`${JUNIE_HOME:-~/.junie}/sessions/<sessionId>/events.jsonl` with `sessions/index.jsonl` (same on every OS; `DEJA_JUNIE_ROOT` names the sessions folder)",
    extracts:
      "prompts as user records; per step, its last block: terminal commands with their output (an exit code when the output states one), tool steps' text and details as tool output, viewed files, changed files with the lines a change removed as edits, the step result as the assistant's reply; agent failures as error output; index.jsonl's task name as title and its times",
    omits:
      "status lines, agent state snapshots, model usage and cost, patches; the working directory, which the log does not record (sessions have no project); the IDE plugin's own stores; line times (the log has none, so records carry none)",
    verified:
      "fixture only: no real Junie sample; event kinds and block fields from a public Junie CLI session reader built against live `~/.junie/sessions` logs",
  },
};
