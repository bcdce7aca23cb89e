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
  ParseResult,
  SourceEnv,
} from "../core/harness.ts";
import {
  parsePiShaped,
  piIdFromName,
  type PiShape,
  type PiShapedParseOptions,
} from "./_pi_shaped.ts";
import { walkRoots } from "./_roots.ts";

const HARNESS_ID = "pi";

const SHAPE: PiShape = { harness: HARNESS_ID, idFromName: piIdFromName };

/** Options for {@linkcode parsePiSession}. */
export type PiParseOptions = PiShapedParseOptions;

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
export function parsePiSession(
  path: string,
  options: PiParseOptions,
): Promise<ParseResult> {
  return parsePiShaped(path, options, SHAPE);
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
      walkRoots(piRoots(source), sessionKind.match, { maxDepth: 2 }),
    );
  },
  kinds: [sessionKind],
  revision: 3,
  docs: {
    store:
      "`${PI_CODING_AGENT_DIR:-~/.pi/agent}/sessions/--<encoded-cwd>--/<time>_<uuid>.jsonl` (same on every OS; `DEJA_PI_ROOT` names the sessions directory)",
    extracts:
      "user and assistant text, tool calls as commands (bash), files (read/write/edit) and edits (oldText), tool results with isError, the `errorMessage` of a turn that stopped with `error` or `aborted` (flagged as an error), `!` shell runs with their exit code and output, compaction and branch summaries, the session name as title, the header's cwd as project and `parentSession` as fork parent; entries on branches other than the active leaf's chain are kept under `branch` marks",
    omits:
      "thinking blocks, images, extension (custom/hook) messages and state entries, model and thinking-level changes, labels",
    verified:
      "fixture only: no real Pi sample; entry types, the v1-v3 migrations and the leaf-chain rule from the session-manager source of badlogic/pi-mono and its successor earendil-works/pi (session version 3, still current), `stopReason`/`errorMessage` from pi-ai's assistant message",
  },
};
