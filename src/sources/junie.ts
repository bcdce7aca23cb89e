/**
 * Junie CLI (JetBrains): one folder per session under
 * `${JUNIE_HOME:-~/.junie}/sessions/<sessionId>/` holding `events.jsonl`,
 * and `sessions/index.jsonl` listing each session's task name, project
 * folder and times. The log holds the person's prompts and the agent's UI
 * blocks (terminal runs, IDE test runs, tool and MCP steps, markdown, viewed
 * files, file changes, results); a block is written again each time its
 * step advances, so the last event of a step is the one kept, at the place
 * and time the step first appeared. Newer logs time every line (`timestampMs`), key
 * prompts by `requestId` (and may drop them from the history later), state
 * the working directory, wrap file contents as `{ kind, text }` and mark a
 * failed step with `status: "FAILED"`; older logs have none of these.
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
  "McpBlockUpdatedEvent",
  "MarkdownBlockUpdatedEvent",
  "ViewFilesBlockUpdatedEvent",
  "FileChangesBlockUpdatedEvent",
  "ResultBlockUpdatedEvent",
  "TestRunBlockUpdatedEvent",
]);

/** The prefix newer logs put before the agent's final answer. */
const ANSWER_MARK = "<!-- ANSWER -->";

/** One event worth a record, with where and when it was read. */
interface Slot {
  event: Json;
  locator: Locator;
  time: number | undefined;
  /** A prompt that was never delivered, or was dropped from the history. */
  dropped?: boolean;
}

/** What `index.jsonl` says about one session. */
interface IndexEntry {
  title?: string;
  created?: number;
  updated?: number;
  projectDir?: string;
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
      const projectDir = str(line.projectDir);
      if (projectDir?.trim()) entry.projectDir = projectDir;
    });
  } catch {
    // No index: the session has no title or times beyond its records.
  }
  return entry;
}

/** A file change's content: a string in older logs, `{ kind, text }` now. */
function contentText(value: unknown): string | undefined {
  return str(value) ?? (isObject(value) ? str(value.text) : undefined);
}

/** Whether a block's own status says its step failed. */
function failed(event: Json): boolean {
  return event.status === "FAILED";
}

function addBlock(
  b: SessionBuilder,
  event: Json,
  at: { locator: Locator; time?: number },
): void {
  const error = failed(event) ? { flags: { isError: true } } : {};
  switch (event.kind) {
    case "TerminalBlockUpdatedEvent": {
      const command = str(event.command);
      let output = str(event.output) ?? str(event.presentableOutput) ?? "";
      if (!output.trim() && failed(event)) output = str(event.details) ?? "";
      if (command) {
        b.add("command", command, {
          ...at,
          tool: "terminal",
          exitCode: exitCodeIn(output),
        });
      }
      b.add("tool-output", output, { ...at, ...error, tool: "terminal" });
      break;
    }
    case "ToolBlockUpdatedEvent": {
      // Newer logs add the tool's `output`, which may repeat `details`.
      const parts = [str(event.text), str(event.details), str(event.output)]
        .filter((t): t is string => t !== undefined && t.trim() !== "");
      const text = [...new Set(parts)].join("\n\n");
      b.add("tool-output", text, { ...at, ...error, tool: "tool" });
      break;
    }
    case "TestRunBlockUpdatedEvent": {
      // The IDE's test runner: the run's name, then what it reported.
      const name = str(event.name);
      if (name) b.add("command", name, { ...at, tool: "test-run" });
      b.add("tool-output", str(event.result) ?? "", {
        ...at,
        ...error,
        tool: "test-run",
      });
      break;
    }
    case "McpBlockUpdatedEvent": {
      // `details` mirrors `input` while the call runs and becomes its
      // outcome once the step is done.
      const tool = str(event.toolName)?.trim() || "mcp";
      const text = str(event.details) ?? str(event.input) ?? "";
      b.add("tool-output", text, { ...at, ...error, tool });
      break;
    }
    case "MarkdownBlockUpdatedEvent":
      b.add("assistant", cleanSpeech(str(event.text) ?? ""), at);
      break;
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
        const before = contentText(change.beforeContent) ?? "";
        const after = contentText(change.afterContent) ?? "";
        const removed = removedLines(before, after);
        if (!removed.trim()) continue;
        b.addEdit(path, removed, { ...at, tool: "edit" });
      }
      if (failed(event)) {
        b.add("tool-output", str(event.details) ?? "", {
          ...at,
          ...error,
          tool: "edit",
        });
      }
      break;
    case "ResultBlockUpdatedEvent": {
      let result = str(event.result)?.trim();
      if (result?.startsWith(ANSWER_MARK)) {
        result = result.slice(ANSWER_MARK.length);
      }
      if (event.cancelled !== true && result && result !== "Empty") {
        b.add("assistant", cleanSpeech(result), at);
      }
      break;
    }
  }
}

/** A user prompt's text: what the person typed before what was sent. */
function promptText(event: Json): string {
  const typed = str(event.presentablePrompt);
  return typed?.trim() ? typed : str(event.prompt) ?? "";
}

/** The answers of a `UserAsyncResponseEvent`, question then answer. */
function asyncAnswers(event: Json): string {
  return list(event.entries)
    .filter(isObject)
    .map((e) =>
      [str(e.question), str(e.answer)].filter((t) => t?.trim()).join("\n")
    )
    .filter((t) => t.trim())
    .join("\n\n");
}

/** What a log says about its session besides its records. */
interface LogFacts {
  cwd?: string;
  title?: string;
  taskName?: string;
}

/**
 * Parses one Junie CLI `events.jsonl`: prompts (and answers to the agent's
 * questions) as user records, each step's last block as commands, tool or
 * MCP output, files, edits, the agent's markdown or its result; failed steps
 * and agent failures as error output; line times from `timestampMs`; the
 * working directory from the log (else `index.jsonl`); the title from the
 * log's own title event, else `index.jsonl`'s task name, else the agent's
 * task-name event.
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
  const prompts = new Map<string, number>();
  const facts: LogFacts = {};
  let skipped = 0;
  const walked = await walkJsonLines(path, {}, (line, where) => {
    const locator: Locator = {
      path,
      line: where.line,
      offset: where.offset,
    };
    const time = parseTime(line.timestampMs);
    switch (line.kind) {
      case "UserPromptEvent": {
        const requestId = str(line.requestId);
        const slot: Slot = { event: line, locator, time };
        if (line.delivery === "Failed") slot.dropped = true;
        const at = requestId === undefined ? undefined : prompts.get(requestId);
        // A prompt restated under its request id replaces the first one.
        if (at === undefined) {
          if (requestId !== undefined) prompts.set(requestId, slots.length);
          slots.push(slot);
        } else slots[at] = slot;
        return;
      }
      case "UserResponseEvent":
      case "UserAsyncResponseEvent":
      case "AgentTaskFailedEvent":
        slots.push({ event: line, locator, time });
        return;
      case "UserMessagesCommittedToHistory":
      case "UserMessagesDroppedFromHistory":
      case "UserMessagesFailedInHistory":
        for (const id of list(line.userMessageIds)) {
          const at = typeof id === "string" ? prompts.get(id) : undefined;
          const slot = at === undefined ? undefined : slots[at];
          if (slot) {
            slot.dropped = line.kind !== "UserMessagesCommittedToHistory";
          }
        }
        return;
      case "SessionTitleSetEvent": {
        const title = str(line.name);
        if (title?.trim()) facts.title = title;
        return;
      }
      case "SessionA2uxEvent":
        break;
      default:
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
      const stepLocator = { ...locator, recordId: stepId };
      if (at === undefined) {
        steps.set(stepId, slots.length);
        slots.push({ event: agent, locator: stepLocator, time });
        return;
      }
      const earlier = slots[at] as Slot;
      // A generic tool label shares its step with the specialised block
      // (terminal, MCP, file changes) and never replaces it.
      if (
        agent.kind === "ToolBlockUpdatedEvent" &&
        earlier.event.kind !== "ToolBlockUpdatedEvent"
      ) return;
      // The step's latest block replaces the earlier one in its place and
      // keeps the time the step started.
      slots[at] = { event: agent, locator: stepLocator, time: earlier.time };
    } else if (agent.kind === "AgentFailureEvent") {
      slots.push({ event: agent, locator, time });
    } else if (agent.kind === "CurrentDirectoryUpdatedEvent") {
      const dir = str(agent.currentDirectory);
      // Early events state an empty directory; the first real one counts.
      if (dir?.trim() && facts.cwd === undefined) facts.cwd = dir;
    } else if (agent.kind === "AgentTaskNameUpdatedEvent") {
      const name = str(agent.name);
      if (name?.trim()) facts.taskName = name;
    }
    // Status, state snapshots, environment variables, thoughts, plans and
    // model usage carry nothing said.
  });
  const sessionDir = dirname(path);
  const id = basename(sessionDir);
  const index = await indexEntry(dirname(sessionDir), id);
  const b = new SessionBuilder({ harness: HARNESS_ID, id, path });
  const cwd = facts.cwd ?? index.projectDir;
  if (cwd) b.setCwd(cwd);
  for (const { event, locator, time, dropped } of slots) {
    const at = time === undefined ? { locator } : { locator, time };
    switch (event.kind) {
      case "UserPromptEvent":
        if (!dropped) b.add("user", cleanSpeech(promptText(event)), at);
        break;
      case "UserResponseEvent":
        b.add("user", cleanSpeech(str(event.prompt) ?? ""), at);
        break;
      case "UserAsyncResponseEvent":
        b.add("user", cleanSpeech(asyncAnswers(event)), at);
        break;
      case "AgentTaskFailedEvent":
        b.add(
          "tool-output",
          str(event.message) ?? str(event.error) ?? "Agent task failed",
          { ...at, tool: "agent", flags: { isError: true } },
        );
        break;
      case "AgentFailureEvent":
        b.add("tool-output", str(event.message) ?? "", {
          ...at,
          tool: "agent",
          flags: { isError: true },
        });
        break;
      default:
        addBlock(b, event, at);
    }
  }
  const title = facts.title ?? index.title ?? facts.taskName;
  if (title) b.setTitle(title);
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
  // 3: a tool block's `output`, and IDE test runs (`TestRunBlockUpdatedEvent`)
  // as the run they name with its result.
  revision: 3,
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
      "prompts (what the person typed, `presentablePrompt`, before what was sent; undelivered or dropped ones left out) and answers to the agent's questions as user records; per step, its last block: terminal commands with their output (an exit code when the output states one), tool steps' text, details and `output` and MCP calls' outcome as tool output (error-flagged when the step failed), IDE test runs (`TestRunBlockUpdatedEvent`) as a command named by the run with its `result` text as output, the agent's markdown and the step result as its reply, viewed files, changed files with the lines a change removed as edits (contents as strings or `{ kind, text }`); agent and task failures as error output; line times from `timestampMs`; the working directory from `CurrentDirectoryUpdatedEvent`, else index.jsonl's `projectDir`; the title from `SessionTitleSetEvent`, else index.jsonl's task name, else the agent's task-name event; index.jsonl's times",
    omits:
      "status lines, agent thoughts, plans, tips and prompt suggestions, agent state snapshots (sub-agent runs inside them included), custom sub-agent start/finish blocks and spawn events (`CustomAgentBlockUpdatedEvent`, `SubagentSpawnedEvent`: a name and status, no transcript), a test run's structured `resultEx`, environment-variable events (never read), model usage, context-window reports and cost, patches; the IDE plugin's own stores and the `task-*/.matterhorn` scratch folders",
    verified:
      "fixture only: no real Junie sample; event kinds and fields (as of late 2026: `timestampMs`, `requestId`/`presentablePrompt`/`delivery`, history drop events, MCP and markdown blocks, block `status`, `{ kind, text }` file contents, `CurrentDirectoryUpdatedEvent`, index `projectDir`) from public Junie session readers built against live `~/.junie/sessions` logs; a tool block's `output` and the `TestRunBlockUpdatedEvent` kind (`name`, `status`, `result`, `resultEx`) from a field audit of 245 real logs (July 2026) published with a public Junie session viewer, the test-run fields' values from that viewer's parser tests only",
  },
};
