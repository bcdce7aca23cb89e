/**
 * The contract between a harness parser and the index: where a harness keeps
 * its transcripts, which files are which kind, and how each kind parses.
 *
 * @module
 */
import type { Session } from "./types.ts";
import { messageOf } from "./errors.ts";

/** What a harness may consult to find its stores. */
export interface SourceEnv {
  /** The user's home directory (a fixture HOME in tests). */
  home: string;
  /** Environment variables (CLAUDE_CONFIG_DIR, CODEX_HOME, XDG_*, ...). */
  env: Record<string, string | undefined>;
  /** `Deno.build.os`. */
  os: string;
}

/** Options a parser receives for one file. */
export interface ParseOptions {
  /** Resume from this byte offset (append-only kinds only). */
  offset?: number;
  /** Line number at `offset`. */
  firstLine?: number;
  /** State the parser returned when it last stopped at `offset`. */
  state?: unknown;
  /**
   * Read about this many bytes past `offset`, then stop at a line boundary
   * and return `safeOffset` and `state` there (append-only kinds; a parser
   * may ignore it and read to the end). The index reads a huge log this
   * way, a part at a time, so memory stays bounded.
   */
  limitBytes?: number;
  /**
   * The file has not changed for an hour (`SETTLED_AFTER_MS` in
   * src/index/schema.ts): nothing more is coming, so a parser keeps nothing
   * back for records still to arrive (a command's output). Absent: it may
   * still grow.
   */
  settled?: boolean;
  /** Read sub-agent transcripts (DEJA_INCLUDE_SUBAGENTS, default on). */
  includeSubagents: boolean;
  /** The environment the harness was discovered in. */
  source: SourceEnv;
}

/** What a parser returns for one file. */
export interface ParseResult {
  /** Sessions (or, when resuming, only the new records of each session). */
  sessions: Session[];
  /** Byte offset up to which the file was fully consumed (append-only). */
  safeOffset?: number;
  /** Line number at `safeOffset`. */
  safeLine?: number;
  /** JSON-serialisable state needed to resume at `safeOffset`. */
  state?: unknown;
  /** Lines or entries skipped as malformed, oversized or unknown. */
  skipped: number;
  /**
   * Exit codes learned in this pass for commands an earlier pass already
   * wrote (the command ran while the file was being indexed): the session
   * id, the command record's seq and its exit code.
   */
  lateExitCodes?: Array<{ session: string; seq: number; exitCode: number }>;
}

/** One shape of file a harness writes. */
export interface FileKind {
  /** Kind id, unique within the harness, e.g. "rollout". */
  id: string;
  /** Appended to only: the index may resume from the last safe offset. */
  appendOnly: boolean;
  /** Whether a discovered path is this kind. */
  match(path: string): boolean;
  /** Parses the file (from `options.offset` when resuming). */
  parse(path: string, options: ParseOptions): Promise<ParseResult>;
}

/** One registered harness. */
export interface Harness {
  /** Stable id, e.g. "claude-code". */
  id: string;
  /** Display name, e.g. "Claude Code". */
  name: string;
  /** The store's format in a few words (for docs and `sources`). */
  format: string;
  /** Environment variables that move the roots. */
  envOverrides: readonly string[];
  /** Root directories to search, derived from HOME and the environment. */
  roots(source: SourceEnv): string[];
  /**
   * The store files: every candidate file under the roots (regular files
   * only), in a deterministic order.
   */
  discover(source: SourceEnv): Promise<string[]>;
  /** The file kinds; `discover` lists only paths one of them matches. */
  kinds: readonly FileKind[];
  /** What docs/harnesses.md says about this harness. */
  docs: HarnessDocs;
  /**
   * The parser's revision (1 when absent). Bump it when the parser reads an
   * unchanged file differently: the next `deja index` reads every file of
   * this harness again instead of keeping what the older parser stored.
   */
  revision?: number;
  /**
   * Set when the store cannot be read (encrypted, say): why. `discover`
   * still lists the files, so `deja sources` shows they exist, and every
   * kind parses them to no sessions.
   */
  sealed?: string;
}

/** The facts docs/harnesses.md lists for a harness (generated from here). */
export interface HarnessDocs {
  /** Default store locations, per OS where they differ. */
  store: string;
  /** What deja extracts (roles, exit codes, sub-agents, marks). */
  extracts: string;
  /** What deja leaves out, and why. */
  omits: string;
  /** What the parser was last verified against (sample or fixture, version). */
  verified: string;
}

/** Options for {@linkcode walkFiles}. */
export interface WalkFilesOptions {
  /** Maximum directory depth below the root (root is depth 0). */
  maxDepth?: number;
  /** Directory names to skip. */
  skipDirs?: ReadonlySet<string>;
}

/**
 * Folders a walk found but could not read, with why: the indexer names them
 * and keeps what it holds from under them. Cleared by {@linkcode takeUnreadableDirs}.
 */
const UNREADABLE_DIRS = new Map<string, string>();

/**
 * The folders {@linkcode walkFiles} could not read since the last call, and
 * why; the list is emptied.
 *
 * @returns Folder → error message.
 */
export function takeUnreadableDirs(): Map<string, string> {
  const out = new Map(UNREADABLE_DIRS);
  UNREADABLE_DIRS.clear();
  return out;
}

/**
 * Decides which links one walk follows: those whose real target lies outside
 * every tree walked so far (the root's, and each followed folder's) and
 * holds none of them. Real paths are asked only when a link is met.
 */
class LinkGuard {
  #root: string;
  #trees: string[] | undefined;
  #files = new Set<string>();

  constructor(root: string) {
    this.#root = root;
  }

  /** What a link leads to, when the walk should follow it; else undefined. */
  follow(path: string): { isDirectory: boolean; isFile: boolean } | undefined {
    let info: Deno.FileInfo;
    let real: string;
    try {
      info = Deno.statSync(path);
      real = Deno.realPathSync(path);
      this.#trees ??= [Deno.realPathSync(this.#root)];
    } catch {
      // Dangling, or out of reach: there is nothing to list.
      return undefined;
    }
    const within = (a: string, b: string) => a === b || a.startsWith(`${b}/`);
    if (this.#trees.some((t) => within(real, t))) return undefined;
    if (info.isDirectory) {
      if (this.#trees.some((t) => within(t, real))) return undefined;
      this.#trees.push(real);
    } else if (info.isFile) {
      if (this.#files.has(real)) return undefined;
      this.#files.add(real);
    }
    return info;
  }
}

/**
 * Lists the regular files under a directory tree that satisfy `match`, in
 * sorted order so index writes are deterministic. A missing root lists
 * nothing. A link (to a folder or a file) is followed when it leads out of
 * everything walked so far, such as a project folder kept on another disk;
 * one that leads back into the tree, or to a place already walked, is not,
 * so a file is never listed twice and a loop ends.
 *
 * Synchronous on purpose: a walk is many small reads, and an unchanged index
 * pass is little more than this walk.
 *
 * @param root The directory to walk.
 * @param match Accepts a file path.
 * @param options Depth limit and skipped names.
 * @returns Matching file paths, depth-first, each directory's entries sorted.
 * @example
 * ```ts
 * import { walkFiles } from "./harness.ts";
 * import { deepEqual } from "node:assert/strict";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/a.jsonl`, "{}");
 * await Deno.writeTextFile(`${dir}/b.txt`, "");
 * deepEqual(walkFiles(dir, (p) => p.endsWith(".jsonl")), [`${dir}/a.jsonl`]);
 * ```
 */
export function walkFiles(
  root: string,
  match: (path: string) => boolean,
  options: WalkFilesOptions = {},
): string[] {
  const maxDepth = options.maxDepth ?? 8;
  const found: string[] = [];
  const stack: Array<[string, number]> = [[root, 0]];
  const links = new LinkGuard(root);
  while (stack.length > 0) {
    const [dir, depth] = stack.pop() as [string, number];
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(dir)];
    } catch (err) {
      // A folder that is there but cannot be read is named (its files are
      // not gone, only out of reach); one that is not there is no store.
      if (!(err instanceof Deno.errors.NotFound)) {
        UNREADABLE_DIRS.set(dir, messageOf(err));
      }
      continue;
    }
    // Ascending, so of two links to one place the first name is followed.
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const dirs: string[] = [];
    for (const entry of entries) {
      const path = `${dir}/${entry.name}`;
      const kind = entry.isSymlink ? links.follow(path) : entry;
      if (kind?.isDirectory) {
        if (depth < maxDepth && !options.skipDirs?.has(entry.name)) {
          dirs.push(path);
        }
      } else if (kind?.isFile && match(path)) {
        found.push(path);
      }
    }
    // Pushed in reverse, so the stack pops subdirectories in ascending order.
    for (let i = dirs.length - 1; i >= 0; i--) {
      stack.push([dirs[i] as string, depth + 1]);
    }
  }
  return found;
}
