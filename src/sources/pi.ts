/**
 * Pi (pi-coding-agent): one JSONL file per session under
 * `${PI_CODING_AGENT_DIR:-~/.pi/agent}/sessions/--<encoded-cwd>--/<time>_<uuid>.jsonl`.
 * Version 3 files start with a `session` header and keep every branch: each
 * entry names its `parentId`, the last entry is the active leaf, and entries
 * on sibling branches are superseded.
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
import type { Locator } from "../core/types.ts";
import { SessionBuilder } from "./_builder.ts";
import { walkJsonLines } from "./_jsonl_walk.ts";
import { isObject, type Json, str, textBlocks } from "./_json.ts";
import { segments } from "./_paths.ts";
import { type ToolDialect, ToolRecorder } from "./_tool_records.ts";
import { MarkRuns, offChain, type TreeNode } from "./_tree_chain.ts";

const HARNESS_ID = "pi";

const DIALECT: ToolDialect = {
  shell: new Set(["bash"]),
  commandKeys: ["command"],
  pathTools: new Set(["read", "write"]),
  pathKeys: ["path", "file_path"],
  editTools: new Set(["edit"]),
  oldKeys: ["oldText", "old_text", "old_string"],
  editListKey: "edits",
};

/** `<time>_<uuid>.jsonl` → the uuid; else the stem. */
function idFromName(name: string): string {
  const stem = name.replace(/\.jsonl$/, "");
  const cut = stem.lastIndexOf("_");
  return cut >= 0 && cut < stem.length - 1 ? stem.slice(cut + 1) : stem;
}

/** Builds one Pi session entry by entry. */
class PiReader {
  readonly builder: SessionBuilder;
  readonly #tools: ToolRecorder;
  readonly #off: Set<number>;
  readonly #runs: MarkRuns;
  #index = 0;
  #headerSeen = false;
  skipped = 0;

  constructor(path: string, off: Set<number>) {
    this.#off = off;
    this.builder = new SessionBuilder({
      harness: HARNESS_ID,
      id: idFromName(segments(path).at(-1) ?? ""),
      path,
    });
    this.#tools = new ToolRecorder(this.builder, DIALECT);
    this.#runs = new MarkRuns((from, to) =>
      this.builder.mark("branch", from, to)
    );
  }

  line(entry: Json, base: Locator): void {
    const index = this.#index++;
    const type = entry.type;
    if (type === "session") {
      this.#header(entry);
      return;
    }
    const id = str(entry.id);
    const locator: Locator = id ? { ...base, recordId: id } : base;
    this.#runs.at(this.builder.nextSeq, this.#off.has(index));
    const time = parseTime(entry.timestamp);
    switch (type) {
      case "message":
        if (isObject(entry.message)) {
          this.#message(entry.message, locator, time);
        } else this.skipped++;
        break;
      case "compaction":
      case "branch_summary":
        this.builder.add("summary", str(entry.summary) ?? "", {
          locator,
          time,
        });
        break;
      case "session_info": {
        const name = str(entry.name);
        if (name) this.builder.setTitle(name);
        break;
      }
      case undefined:
        this.skipped++;
        break;
      default:
        // Model and thinking-level changes, labels, extension state.
        this.builder.touch(time);
    }
  }

  finish(): void {
    this.#runs.end(this.builder.nextSeq);
  }

  #header(entry: Json): void {
    if (this.#headerSeen) return;
    this.#headerSeen = true;
    const id = str(entry.id);
    if (id) this.builder.setId(id);
    const cwd = str(entry.cwd);
    if (cwd) this.builder.setCwd(cwd);
    const parent = str(entry.parentSession);
    if (parent) {
      this.builder.setParent(
        idFromName(segments(parent).at(-1) ?? parent),
        "fork",
      );
    }
    this.builder.touch(parseTime(entry.timestamp));
  }

  #message(message: Json, locator: Locator, entryTime: number | undefined) {
    const time = parseTime(message.timestamp) ?? entryTime;
    const at = { locator, time };
    switch (message.role) {
      case "user":
        this.builder.add(
          "user",
          cleanSpeech(textBlocks(message.content, "\n\n")),
          at,
        );
        break;
      case "assistant": {
        this.#tools.newMessage();
        const blocks = Array.isArray(message.content) ? message.content : [];
        let texts: string[] = typeof message.content === "string"
          ? [message.content]
          : [];
        const flush = (): void => {
          if (texts.length === 0) return;
          this.builder.add("assistant", cleanSpeech(texts.join("\n\n")), at);
          texts = [];
        };
        for (const block of blocks) {
          if (!isObject(block)) continue;
          if (block.type === "text" && typeof block.text === "string") {
            texts.push(block.text);
          } else if (block.type === "toolCall") {
            flush();
            const name = str(block.name);
            if (name) {
              this.#tools.call(str(block.id), name, block.arguments, at);
            }
          }
        }
        flush();
        break;
      }
      case "toolResult":
        this.#tools.result(
          str(message.toolCallId),
          textBlocks(message.content, "\n\n"),
          message.isError === true,
          at,
          undefined,
          str(message.toolName),
        );
        break;
      case "bashExecution": {
        // A command the person ran with `!`; its output is in the entry.
        const command = str(message.command);
        if (!command) break;
        const code = typeof message.exitCode === "number"
          ? message.exitCode
          : undefined;
        this.builder.add("command", command, {
          ...at,
          tool: "bash",
          exitCode: code,
        });
        const failed = code !== undefined && code !== 0;
        this.builder.add("tool-output", str(message.output) ?? "", {
          ...at,
          tool: "bash",
          ...(failed ? { flags: { isError: true } } : {}),
        });
        break;
      }
      case "branchSummary":
      case "compactionSummary":
        this.builder.add("summary", str(message.summary) ?? "", at);
        break;
      default:
        // Extension (custom/hook) messages are injected, not said.
        this.builder.touch(time);
    }
  }
}

/** Options for {@linkcode parsePiSession}. */
export interface PiParseOptions extends ParseOptions {
  /** Lines longer than this are skipped. Default 8 MiB. */
  maxLineBytes?: number;
}

/**
 * Parses one Pi session file. Entries off the active leaf's parent chain are
 * covered by `branch` marks; files without ids (version 1) are one chain.
 *
 * @param path The session file.
 * @param options Line cap.
 * @returns The session.
 * @example
 * ```ts
 * import { parsePiSession } from "./pi.ts";
 * import { equal } from "node:assert/strict";
 * const path = `${await Deno.makeTempDir()}/2026-01-01T00-00-00_abc.jsonl`;
 * await Deno.writeTextFile(path, [
 *   { type: "session", version: 3, id: "abc", timestamp: "2026-01-01T00:00:00Z", cwd: "/w/app" },
 *   { type: "message", id: "e1", parentId: null, timestamp: "2026-01-01T00:00:01Z",
 *     message: { role: "user", content: "lint the repo" } },
 * ].map((l) => JSON.stringify(l)).join("\n") + "\n");
 * const source = { home: "/h", env: {}, os: "linux" };
 * const { sessions } = await parsePiSession(path, { includeSubagents: true, source });
 * equal(sessions[0]?.project, "app");
 * ```
 */
export async function parsePiSession(
  path: string,
  options: PiParseOptions,
): Promise<ParseResult> {
  const walkOptions = options.maxLineBytes === undefined
    ? {}
    : { maxLineBytes: options.maxLineBytes };
  const nodes: TreeNode[] = [];
  const seen = new Set<string>();
  let index = 0;
  await walkJsonLines(path, walkOptions, (entry) => {
    const i = index++;
    const id = str(entry.id);
    if (entry.type === "session" || !id || seen.has(id)) return;
    seen.add(id);
    nodes.push({ id, parent: str(entry.parentId), index: i });
  });
  const reader = new PiReader(path, offChain(nodes));
  const walked = await walkJsonLines(
    path,
    walkOptions,
    (entry, locator) => reader.line(entry, locator),
  );
  reader.finish();
  const session = reader.builder.build();
  return {
    sessions: session.records.length > 0 ? [session] : [],
    skipped: walked.skipped + reader.skipped,
  };
}

/** The sessions directory: `DEJA_PI_ROOT`, else `$PI_CODING_AGENT_DIR/sessions`, else `~/.pi/agent/sessions`. */
function piRoots(source: SourceEnv): string[] {
  if (source.env.DEJA_PI_ROOT) return [source.env.DEJA_PI_ROOT];
  const agent = source.env.PI_CODING_AGENT_DIR || `${source.home}/.pi/agent`;
  return [`${agent.replace(/[\\/]+$/, "")}/sessions`];
}

const sessionKind: FileKind = {
  id: "session",
  appendOnly: false,
  match: (path) => path.endsWith(".jsonl"),
  parse: (path, options) => parsePiSession(path, options),
};

/**
 * The Pi harness.
 *
 * @example
 * ```ts
 * import { pi } from "./pi.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(pi.roots({ home: "/h", env: {}, os: "linux" }), ["/h/.pi/agent/sessions"]);
 * ```
 */
export const pi: Harness = {
  id: HARNESS_ID,
  name: "Pi",
  format:
    "JSONL session tree (v3: header + id/parentId entries) per session in sessions/--<cwd>--/",
  envOverrides: ["PI_CODING_AGENT_DIR", "DEJA_PI_ROOT"],
  roots: piRoots,
  discover(source: SourceEnv): Promise<string[]> {
    return Promise.resolve(
      piRoots(source).flatMap((root) =>
        walkFiles(root, sessionKind.match, { maxDepth: 2 })
      ),
    );
  },
  kinds: [sessionKind],
  docs: {
    store:
      "`${PI_CODING_AGENT_DIR:-~/.pi/agent}/sessions/--<encoded-cwd>--/<time>_<uuid>.jsonl` (same on every OS; `DEJA_PI_ROOT` names the sessions directory)",
    extracts:
      "user and assistant text, tool calls as commands (bash), files (read/write/edit) and edits (oldText), tool results with isError, `!` shell runs with their exit code and output, compaction and branch summaries, the session name as title, the header's cwd as project and `parentSession` as fork parent; entries on branches other than the active leaf's chain are kept under `branch` marks",
    omits:
      "thinking blocks, images, extension (custom/hook) messages and state entries, model and thinking-level changes, labels",
    verified:
      "fixture only: no real Pi sample; entry types and the leaf-chain rule from pi-mono's session-manager source (session version 3)",
  },
};
