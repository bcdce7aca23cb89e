/**
 * Google Antigravity: each conversation keeps a step log at
 * `~/.gemini/antigravity*\/brain/<conversationId>/.system_generated/logs/transcript.jsonl`
 * (the IDE's `antigravity/` and the CLI's `antigravity-cli/`). Each line is
 * one step, `{source, type, created_at, content}`: the person's request
 * (`USER_EXPLICIT`) or a model step (`MODEL`) that is a reply
 * (`PLANNER_RESPONSE`) or a tool step whose text body names the command or
 * file it worked on.
 *
 * @module
 */
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type {
  FileKind,
  Harness,
  ParseOptions,
  ParseResult,
  SourceEnv,
} from "../core/harness.ts";
import { cleanSpeech, stripBlocks } from "../core/text.ts";
import { parseTime } from "../core/time.ts";
import type { Locator } from "../core/types.ts";
import { SessionBuilder } from "./_builder.ts";
import { walkJsonLines } from "./_jsonl_walk.ts";
import { isObject, type Json, list, obj, str } from "./_json.ts";
import { readJsonFile } from "./_json_doc.ts";
import { childDirs } from "./_paths.ts";
import { walkRoots } from "./_roots.ts";

const HARNESS_ID = "antigravity";

/** Model step types whose body is a command run. */
const COMMAND_STEPS: ReadonlySet<string> = new Set(["RUN_COMMAND", "GENERIC"]);
/** Model step types whose body names a file. */
const FILE_STEPS: ReadonlySet<string> = new Set([
  "VIEW_FILE",
  "CODE_ACTION",
  "LIST_DIRECTORY",
]);

/** The person's words: the request unwrapped, injected blocks removed. */
function requestText(content: string): string {
  const withoutMetadata = stripBlocks(content, [
    ["<ADDITIONAL_METADATA>", "</ADDITIONAL_METADATA>"],
  ]);
  return stripBlocks(withoutMetadata, [
    ["<USER_SETTINGS_CHANGE>", "</USER_SETTINGS_CHANGE>"],
  ])
    .replace(/<\/?USER_REQUEST>/g, "")
    .trim();
}

/** A step body without its bookkeeping lines. */
function stepBody(content: string): string {
  return content.split("\n")
    .filter((l) => !/^\s*(Created At|Completed At):/.test(l))
    .join("\n").trim();
}

/** The command a run step names: the text after its `Task Description:`. */
function commandOf(content: string): string | undefined {
  const lines = content.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const m = /^\s*Task Description:\s*(.*)$/.exec(lines[i] as string);
    if (!m) continue;
    const rest = (m[1] as string).trim();
    if (rest) return rest;
    const next = lines.slice(i + 1).find((l) => l.trim() !== "");
    return next?.trim();
  }
  return undefined;
}

/** Paths a file step names in `file://` URLs on its path lines. */
function pathsOf(content: string): string[] {
  const paths: string[] = [];
  for (const line of content.split("\n")) {
    if (!/^\s*(File Path:|Created file|Edited file)/.test(line)) continue;
    const url = /file:\/\/[^\s`'"<>]+/.exec(line)?.[0];
    if (!url) continue;
    try {
      const path = fileURLToPath(url.replace(/[),.;]+$/, ""));
      if (!paths.includes(path)) paths.push(path);
    } catch {
      // Not a file URL this OS can read.
    }
  }
  return paths;
}

/** The cwd the IDE's conversation metadata names for a conversation. */
async function workspaceOf(
  brainDir: string,
  id: string,
): Promise<string | undefined> {
  const doc = await readJsonFile(
    join(dirname(brainDir), "cache", "conversation_metadata.json"),
  );
  const entry = obj(obj(obj(doc).conversations)[id]);
  for (const uri of list(obj(entry.summary).WorkspaceURIs)) {
    if (typeof uri !== "string" || !uri.startsWith("file://")) continue;
    try {
      return fileURLToPath(uri);
    } catch {
      // Try the next one.
    }
  }
  return undefined;
}

/** Tool calls that write a file, by name. */
const FILE_WRITE_CALLS: ReadonlySet<string> = new Set([
  "replace_file_content",
  "multi_replace_file_content",
  "write_to_file",
]);

/**
 * A planner step's file-writing call: its `TargetFile` as files, the text it
 * replaced (`TargetContent`, each of `ReplacementChunks`) as edits.
 */
function addFileCall(
  b: SessionBuilder,
  call: Json,
  at: { locator: Locator; time: number | undefined },
): void {
  const tool = str(call.name);
  if (!tool || !FILE_WRITE_CALLS.has(tool)) return;
  const args = obj(call.args);
  const path = str(args.TargetFile);
  if (!path) return;
  b.add("files", path, { ...at, tool });
  const chunks = [args, ...list(args.ReplacementChunks).map(obj)];
  for (const chunk of chunks) {
    const old = str(chunk.TargetContent);
    if (old) b.addEdit(path, old, { ...at, tool });
  }
}

function addModelStep(
  b: SessionBuilder,
  step: Json,
  at: { locator: Locator; time: number | undefined },
): void {
  const type = str(step.type) ?? "";
  const content = str(step.content) ?? "";
  if (type === "" || type === "PLANNER_RESPONSE") {
    b.add("assistant", cleanSpeech(content), at);
    // Newer logs carry the step's tool calls as data.
    for (const call of list(step.tool_calls)) {
      if (isObject(call)) addFileCall(b, call, at);
    }
    return;
  }
  const tool = type.toLowerCase();
  if (COMMAND_STEPS.has(type)) {
    const command = commandOf(content);
    if (command) b.add("command", command, { ...at, tool });
  } else if (FILE_STEPS.has(type)) {
    for (const path of pathsOf(content)) b.add("files", path, { ...at, tool });
  }
  b.add("tool-output", stepBody(content), { ...at, tool });
}

/**
 * Parses one Antigravity `transcript.jsonl`: requests as user records,
 * planner responses as the assistant's, command and file steps as commands
 * and files, step bodies as tool output; the project from the IDE's
 * conversation metadata.
 *
 * @param path The `transcript.jsonl` file.
 * @param _options Unused (the log is read whole).
 * @returns The session.
 * @example
 * ```ts
 * import { parseAntigravityTranscript } from "./antigravity.ts";
 * import { equal } from "node:assert/strict";
 * const dir = `${await Deno.makeTempDir()}/brain/c1/.system_generated/logs`;
 * await Deno.mkdir(dir, { recursive: true });
 * await Deno.writeTextFile(`${dir}/transcript.jsonl`, [
 *   { source: "USER_EXPLICIT", created_at: "2026-01-01T00:00:00Z", content: "<USER_REQUEST>tidy the imports</USER_REQUEST>" },
 *   { source: "MODEL", type: "PLANNER_RESPONSE", created_at: "2026-01-01T00:00:05Z", content: "Imports sorted." },
 * ].map((l) => JSON.stringify(l)).join("\n") + "\n");
 * const source = { home: "/h", env: {}, os: "linux" };
 * const { sessions } = await parseAntigravityTranscript(`${dir}/transcript.jsonl`, { includeSubagents: true, source });
 * equal(sessions[0]?.records[0]?.text, "tidy the imports");
 * ```
 */
export async function parseAntigravityTranscript(
  path: string,
  _options: ParseOptions,
): Promise<ParseResult> {
  const conversationDir = dirname(dirname(dirname(path)));
  const id = basename(conversationDir);
  const cwd = await workspaceOf(dirname(conversationDir), id);
  const b = new SessionBuilder({ harness: HARNESS_ID, id, path, cwd });
  let skipped = 0;
  const walked = await walkJsonLines(path, {}, (step, where) => {
    const locator: Locator = { path, line: where.line, offset: where.offset };
    const time = parseTime(step.created_at);
    const at = { locator, time };
    switch (step.source) {
      case "USER_EXPLICIT":
        b.add("user", cleanSpeech(requestText(str(step.content) ?? "")), at);
        break;
      case "MODEL":
        addModelStep(b, step, at);
        break;
      default:
        if (typeof step.source !== "string") skipped++;
        else b.touch(time);
    }
  });
  const session = b.build();
  return {
    sessions: session.records.length > 0 ? [session] : [],
    skipped: walked.skipped + skipped,
  };
}

/** The brain folders: `DEJA_ANTIGRAVITY_ROOT`, else each `~/.gemini/antigravity*\/brain`. */
function antigravityRoots(source: SourceEnv): string[] {
  if (source.env.DEJA_ANTIGRAVITY_ROOT) {
    return [source.env.DEJA_ANTIGRAVITY_ROOT];
  }
  const gemini = join(source.home, ".gemini");
  return childDirs(gemini)
    .filter((name) => name.startsWith("antigravity"))
    .map((name) => join(gemini, name, "brain"));
}

const transcriptKind: FileKind = {
  id: "transcript",
  appendOnly: false,
  match: (path) =>
    basename(path) === "transcript.jsonl" &&
    basename(dirname(path)) === "logs" &&
    basename(dirname(dirname(path))) === ".system_generated",
  parse: (path, options) => parseAntigravityTranscript(path, options),
};

/**
 * The Antigravity harness.
 *
 * @example
 * ```ts
 * import { antigravity } from "./antigravity.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(antigravity.roots({ home: "/nohome", env: {}, os: "linux" }), []);
 * ```
 */
export const antigravity: Harness = {
  id: HARNESS_ID,
  name: "Antigravity",
  format:
    "JSONL step log (USER_EXPLICIT / MODEL steps) per conversation in brain/<id>/.system_generated/logs/",
  envOverrides: ["DEJA_ANTIGRAVITY_ROOT"],
  roots: antigravityRoots,
  discover(source: SourceEnv): Promise<string[]> {
    return Promise.resolve(
      walkRoots(antigravityRoots(source), transcriptKind.match, {
        maxDepth: 3,
      }),
    );
  },
  kinds: [transcriptKind],
  // 2: multi_replace_file_content and write_to_file calls as files and edits.
  revision: 2,
  docs: {
    store:
      "`~/.gemini/antigravity*/brain/<conversationId>/.system_generated/logs/transcript.jsonl` (the IDE's `antigravity/`, the CLI's `antigravity-cli/`; under the home folder on every OS; `DEJA_ANTIGRAVITY_ROOT` names one brain folder)",
    extracts:
      "requests (USER_EXPLICIT, the USER_REQUEST wrapper and metadata/settings blocks removed) as user records, planner responses as the assistant's, RUN_COMMAND/GENERIC steps' task description as commands, the `file://` paths VIEW_FILE/CODE_ACTION/LIST_DIRECTORY steps name as files, replace_file_content, multi_replace_file_content (each of its `ReplacementChunks`) and write_to_file calls as files and edits, step bodies as tool output; the workspace from `cache/conversation_metadata.json` beside the brain folder as project",
    omits:
      "system steps, step timestamps inside bodies, the `conversations/<id>.db` stores and `transcript_full.jsonl`; conversations the metadata does not list have no project (the earlier indexer's guess from file paths is not made)",
    verified:
      "fixture only: no real Antigravity sample; step sources, types and body lines from the reference survey of an earlier indexer, the tool-call shape from a public Antigravity adapter's test; the `multi_replace_file_content` (`TargetFile`, `ReplacementChunks[].TargetContent`) and `write_to_file` (`TargetFile`, `CodeContent`) calls from a public script that replays `brain/<id>/.system_generated/logs/transcript_full.jsonl` planner steps and a public multi-CLI bridge's Antigravity tool table (agy 1.2.9)",
  },
};
