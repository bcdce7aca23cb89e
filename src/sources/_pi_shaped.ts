/**
 * The session files Pi writes and the harnesses built on it (omp, OpenClaw)
 * share: JSONL with a `session` header, then entries that name their
 * `parentId`. The last entry is the active leaf; entries on sibling branches
 * are superseded.
 *
 * @module
 */
import type { ParseOptions, ParseResult } from "../core/harness.ts";
import { cleanSpeech } from "../core/text.ts";
import { parseTime } from "../core/time.ts";
import type { Locator } from "../core/types.ts";
import { SessionBuilder } from "./_builder.ts";
import { walkJsonLines } from "./_jsonl_walk.ts";
import { isObject, type Json, str, textBlocks } from "./_json.ts";
import { segments } from "./_paths.ts";
import {
  type ToolDialect,
  type ToolEventAt,
  ToolRecorder,
} from "./_tool_records.ts";
import { MarkRuns, offChain, type TreeNode } from "./_tree_chain.ts";

const DIALECT: ToolDialect = {
  // OpenClaw names its shell tool `exec`.
  shell: new Set(["bash", "exec"]),
  commandKeys: ["command"],
  pathTools: new Set(["read", "write"]),
  pathKeys: ["path", "file_path"],
  editTools: new Set(["edit"]),
  oldKeys: ["oldText", "old_text", "old_string"],
  editListKey: "edits",
};

/**
 * Pi's file naming: `<time>_<uuid>.jsonl` → the uuid; else the stem.
 *
 * @param name The file name.
 * @returns The session id it names.
 * @example
 * ```ts
 * import { piIdFromName } from "./_pi_shaped.ts";
 * import { equal } from "node:assert/strict";
 * equal(piIdFromName("2026-01-01T00-00-00-000Z_ab12.jsonl"), "ab12");
 * equal(piIdFromName("ab12.jsonl"), "ab12");
 * ```
 */
export function piIdFromName(name: string): string {
  const stem = name.replace(/\.jsonl$/, "");
  const cut = stem.lastIndexOf("_");
  return cut >= 0 && cut < stem.length - 1 ? stem.slice(cut + 1) : stem;
}

/** Builds one pi-shaped session entry by entry. */
class PiReader {
  readonly builder: SessionBuilder;
  readonly #tools: ToolRecorder;
  readonly #off: Set<number>;
  readonly #runs: MarkRuns;
  readonly #shape: PiShape;
  #index = 0;
  #headerSeen = false;
  /** omp's first-line title slot: the session's current title. */
  #slotTitle: string | undefined;
  skipped = 0;

  constructor(path: string, off: Set<number>, shape: PiShape, id?: string) {
    this.#off = off;
    this.#shape = shape;
    this.builder = new SessionBuilder({
      harness: shape.harness,
      id: id ?? shape.idFromName(segments(path).at(-1) ?? ""),
      path,
      project: shape.fallbackProject,
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
    if (type === "title") {
      // omp rewrites this fixed-width first line whenever the title changes.
      this.#slotTitle = str(entry.title) ?? this.#slotTitle;
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
      case "title_change": {
        // omp's record of a rename; the header keeps the first title.
        const title = str(entry.title);
        if (title) this.builder.setTitle(title);
        this.builder.touch(time);
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
    if (this.#slotTitle) this.builder.setTitle(this.#slotTitle);
  }

  #header(entry: Json): void {
    if (this.#headerSeen) return;
    this.#headerSeen = true;
    const id = str(entry.id);
    if (id) this.builder.setId(id);
    const cwd = str(entry.cwd);
    if (cwd) this.builder.setCwd(cwd);
    // omp writes the session's title into the header.
    const title = str(entry.title);
    if (title) this.builder.setTitle(title);
    const parent = str(entry.parentSession);
    if (parent) {
      this.builder.setParent(
        this.#shape.idFromName(segments(parent).at(-1) ?? parent),
        "fork",
      );
    }
    this.builder.touch(parseTime(entry.timestamp));
  }

  /** OpenClaw's `apply_patch`: each file of its `input` patch, and the lines it removes. */
  #patch(args: unknown, at: ToolEventAt): void {
    const patch = isObject(args) ? str(args.input) : undefined;
    if (patch) this.#tools.patch(patch, "apply_patch", at);
  }

  /** A run the person started themselves, with its exit code and output. */
  #personRun(
    tool: string,
    command: string | undefined,
    message: Json,
    at: { locator: Locator; time: number | undefined },
  ): void {
    if (!command) return;
    const code = typeof message.exitCode === "number"
      ? message.exitCode
      : undefined;
    this.builder.add("command", command, { ...at, tool, exitCode: code });
    const failed = code !== undefined && code !== 0;
    this.builder.add("tool-output", str(message.output) ?? "", {
      ...at,
      tool,
      ...(failed ? { flags: { isError: true } } : {}),
    });
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
              if (name === "apply_patch") this.#patch(block.arguments, at);
            }
          }
        }
        flush();
        // A turn the provider failed or the person aborted keeps the reason
        // (`stopReason` "error" / "aborted" with `errorMessage`).
        const error = str(message.errorMessage);
        if (
          error &&
          (message.stopReason === "error" || message.stopReason === "aborted")
        ) {
          this.builder.add("assistant", error, {
            ...at,
            flags: { isError: true },
          });
        }
        break;
      }
      case "toolResult": {
        // OpenClaw's exec reports a non-zero exit as a completed run, with
        // the code in `details.exitCode` and the result not marked an error.
        const details = isObject(message.details) ? message.details : {};
        const exitCode = typeof details.exitCode === "number"
          ? details.exitCode
          : undefined;
        this.#tools.result(
          str(message.toolCallId),
          textBlocks(message.content, "\n\n"),
          message.isError === true,
          at,
          exitCode,
          str(message.toolName),
        );
        break;
      }
      case "bashExecution":
        // A command the person ran with `!`; its output is in the entry.
        this.#personRun("bash", str(message.command), message, at);
        break;
      case "pythonExecution":
        // omp's Python cell the person ran; the code is the command.
        this.#personRun("python", str(message.code), message, at);
        break;
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

/** How one pi-shaped harness differs from Pi. */
export interface PiShape {
  /** Harness id the sessions carry. */
  harness: string;
  /** The session id a file name gives, used when the header names none. */
  idFromName(name: string): string;
  /** Project when the header has no cwd (else the cwd's basename). */
  fallbackProject?: string;
}

/** Options for {@linkcode parsePiShaped}. */
export interface PiShapedParseOptions extends ParseOptions {
  /** Lines longer than this are skipped. Default 8 MiB. */
  maxLineBytes?: number;
}

/**
 * Parses one pi-shaped session file (Pi, omp, OpenClaw). Entries off the
 * active leaf's parent chain are covered by `branch` marks; files without
 * ids (version 1) are one chain.
 *
 * @param path The session file.
 * @param options Line cap.
 * @param shape The harness and its file naming.
 * @returns The session.
 * @example
 * ```ts
 * import { parsePiShaped, piIdFromName } from "./_pi_shaped.ts";
 * import { equal } from "node:assert/strict";
 * const path = `${await Deno.makeTempDir()}/abc.jsonl`;
 * await Deno.writeTextFile(path, [
 *   { type: "session", version: 3, id: "abc", timestamp: "2026-01-01T00:00:00Z", cwd: "/w/app" },
 *   { type: "message", id: "e1", parentId: null, timestamp: "2026-01-01T00:00:01Z",
 *     message: { role: "user", content: "lint the repo" } },
 * ].map((l) => JSON.stringify(l)).join("\n") + "\n");
 * const source = { home: "/h", env: {}, os: "linux" };
 * const shape = { harness: "pi", idFromName: piIdFromName };
 * const { sessions } = await parsePiShaped(path, { includeSubagents: true, source }, shape);
 * equal(sessions[0]?.project, "app");
 * ```
 */
export async function parsePiShaped(
  path: string,
  options: PiShapedParseOptions,
  shape: PiShape,
): Promise<ParseResult> {
  const walkOptions = options.maxLineBytes === undefined
    ? {}
    : { maxLineBytes: options.maxLineBytes };
  const nodes: TreeNode[] = [];
  const seen = new Set<string>();
  let index = 0;
  await walkJsonLines(path, walkOptions, (entry) => {
    treeNode(entry, index++, nodes, seen);
  });
  const reader = new PiReader(path, offChain(nodes), shape);
  const walked = await walkJsonLines(
    path,
    walkOptions,
    (entry, locator) => reader.line(entry, locator),
  );
  return finish(reader, walked.skipped);
}

/** Adds an entry's place in the tree, once per id; the header has none. */
function treeNode(
  entry: Json,
  index: number,
  nodes: TreeNode[],
  seen: Set<string>,
): void {
  const id = str(entry.id);
  if (entry.type === "session" || !id || seen.has(id)) return;
  seen.add(id);
  nodes.push({ id, parent: str(entry.parentId), index });
}

function finish(reader: PiReader, skipped: number): ParseResult {
  reader.finish();
  const session = reader.builder.build();
  return {
    sessions: session.records.length > 0 ? [session] : [],
    skipped: skipped + reader.skipped,
  };
}

/** One pi-shaped entry already read, with where it was read. */
export interface PiEntry {
  /** The entry (one line of a session file). */
  entry: Json;
  /** Where it was read. */
  locator: Locator;
}

/**
 * Parses one pi-shaped session whose entries were read from somewhere other
 * than a JSONL file (OpenClaw's agent database keeps each line as a row),
 * exactly as {@linkcode parsePiShaped} reads a file.
 *
 * @param path The store the entries came from.
 * @param entries The session's entries, in order.
 * @param shape The harness, and the session id when no header names one.
 * @returns The session.
 * @example
 * ```ts
 * import { parsePiShapedEntries } from "./_pi_shaped.ts";
 * import { equal } from "node:assert/strict";
 * const locator = { path: "/s/agent.sqlite", recordId: "s1:0" };
 * const { sessions } = parsePiShapedEntries("/s/agent.sqlite", [
 *   { entry: { type: "message", id: "e1", message: { role: "user", content: "hi" } }, locator },
 * ], { harness: "openclaw", idFromName: (n) => n, id: "s1" });
 * equal(sessions[0]?.id, "s1");
 * ```
 */
export function parsePiShapedEntries(
  path: string,
  entries: readonly PiEntry[],
  shape: PiShape & { id?: string },
): ParseResult {
  const nodes: TreeNode[] = [];
  const seen = new Set<string>();
  entries.forEach(({ entry }, i) => treeNode(entry, i, nodes, seen));
  const reader = new PiReader(path, offChain(nodes), shape, shape.id);
  for (const { entry, locator } of entries) reader.line(entry, locator);
  return finish(reader, 0);
}
