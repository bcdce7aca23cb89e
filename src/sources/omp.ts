/**
 * omp (Oh My Pi), a fork of Pi that writes the same session files under
 * `~/${PI_CONFIG_DIR:-.omp}/agent/sessions/--<encoded-cwd>--/<time>_<id>.jsonl`,
 * one such tree per profile (`~/.omp/profiles/<name>/agent/sessions`), and,
 * after `omp config migrate` on Linux or macOS, under
 * `$XDG_DATA_HOME/omp/sessions` (and `.../omp/profiles/<name>/sessions`).
 * The header may carry the session's first title; newer files keep the
 * current one in a fixed-width `title` line ahead of the header.
 *
 * @module
 */
import { join } from "node:path";
import type {
  FileKind,
  Harness,
  ParseResult,
  SourceEnv,
} from "../core/harness.ts";
import { childDirs } from "./_paths.ts";
import {
  parsePiShaped,
  piIdFromName,
  type PiShape,
  type PiShapedParseOptions,
} from "./_pi_shaped.ts";
import { walkRoots } from "./_roots.ts";

const HARNESS_ID = "omp";

const SHAPE: PiShape = { harness: HARNESS_ID, idFromName: piIdFromName };

/**
 * Parses one omp session file the way Pi's are read: branches under
 * `branch` marks, the header's title and cwd.
 *
 * @param path The session file.
 * @param options Line cap.
 * @returns The session.
 * @example
 * ```ts
 * import { parseOmpSession } from "./omp.ts";
 * import { equal } from "node:assert/strict";
 * const path = `${await Deno.makeTempDir()}/2026-01-01T00-00-00-000Z_ab12.jsonl`;
 * await Deno.writeTextFile(path, [
 *   { type: "session", version: 3, id: "ab12", timestamp: "2026-01-01T00:00:00Z", cwd: "/w/app", title: "Lint pass" },
 *   { type: "message", id: "e1", parentId: null, timestamp: "2026-01-01T00:00:01Z",
 *     message: { role: "user", content: "lint the repo" } },
 * ].map((l) => JSON.stringify(l)).join("\n") + "\n");
 * const source = { home: "/h", env: {}, os: "linux" };
 * const { sessions } = await parseOmpSession(path, { includeSubagents: true, source });
 * equal(sessions[0]?.title, "Lint pass");
 * ```
 */
export function parseOmpSession(
  path: string,
  options: PiShapedParseOptions,
): Promise<ParseResult> {
  return parsePiShaped(path, options, SHAPE);
}

/**
 * The sessions folders: `DEJA_OMP_ROOT` alone when set; else the default
 * agent's and each profile's under `~/${PI_CONFIG_DIR:-.omp}`, then the XDG
 * ones when `$XDG_DATA_HOME/omp` exists (omp reads XDG only when the
 * variable is set).
 */
function ompRoots(source: SourceEnv): string[] {
  if (source.env.DEJA_OMP_ROOT) return [source.env.DEJA_OMP_ROOT];
  const config = join(source.home, source.env.PI_CONFIG_DIR || ".omp");
  const roots = [join(config, "agent", "sessions")];
  for (const name of childDirs(join(config, "profiles"))) {
    roots.push(join(config, "profiles", name, "agent", "sessions"));
  }
  const xdg = source.env.XDG_DATA_HOME;
  if (xdg) {
    const data = join(xdg, "omp");
    if (childDirs(xdg).includes("omp")) {
      roots.push(join(data, "sessions"));
      for (const name of childDirs(join(data, "profiles"))) {
        roots.push(join(data, "profiles", name, "sessions"));
      }
    }
  }
  return roots;
}

const sessionKind: FileKind = {
  id: "session",
  appendOnly: false,
  match: (path) => path.endsWith(".jsonl"),
  parse: (path, options) => parseOmpSession(path, options),
};

/**
 * The omp (Oh My Pi) harness.
 *
 * @example
 * ```ts
 * import { omp } from "./omp.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(omp.roots({ home: "/nohome", env: {}, os: "linux" }), ["/nohome/.omp/agent/sessions"]);
 * ```
 */
export const omp: Harness = {
  id: HARNESS_ID,
  name: "omp (Oh My Pi)",
  format:
    "pi-shaped JSONL session tree (v3 header with title + id/parentId entries) per session in sessions/--<cwd>--/",
  envOverrides: ["PI_CONFIG_DIR", "XDG_DATA_HOME", "DEJA_OMP_ROOT"],
  roots: ompRoots,
  discover(source: SourceEnv): Promise<string[]> {
    return Promise.resolve(
      walkRoots(ompRoots(source), sessionKind.match, { maxDepth: 3 }),
    );
  },
  kinds: [sessionKind],
  // 4: the current title from the first-line title slot and title_change
  // entries; Python runs the person started (pythonExecution) as commands.
  revision: 4,
  docs: {
    store:
      "`~/${PI_CONFIG_DIR:-.omp}/agent/sessions/--<encoded-cwd>--/<time>_<id>.jsonl`, each profile's `~/.omp/profiles/<name>/agent/sessions/`, and after `omp config migrate` `$XDG_DATA_HOME/omp/sessions/` and `$XDG_DATA_HOME/omp/profiles/<name>/sessions/` (read when `$XDG_DATA_HOME/omp` exists); `DEJA_OMP_ROOT` replaces them all",
    extracts:
      "as Pi: user and assistant text, tool calls as commands (bash), files (read/write/edit) and edits (oldText), tool results with isError, `!` shell runs and Python runs the person started (`pythonExecution`: the code as a `python` command with its exit code and output), compaction and branch summaries, the current title from the first-line title slot (a `title` line, rewritten on every rename) or the last `title_change` entry (else the header's title, else the session name, else the first prompt), cwd as project and `parentSession` as fork parent; entries off the active leaf's chain under `branch` marks",
    omits:
      "thinking blocks, images (and the blob store they point into), extension (custom) messages and state, session_init system prompts, TTSR rule injections, mode/model/thinking-level changes, labels; `history.db` (prompt recall, not sessions); `PI_CODING_AGENT_DIR`, which omp also honours, is left to the Pi harness",
    verified:
      "fixture only: no real omp sample; the entry taxonomy and header from omp's session documentation, the folders from its path helpers (`PI_CONFIG_DIR`, XDG after migration); the title slot, `title_change` entries and the `pythonExecution` message from packages/coding-agent/src/session/session-entries.ts and messages.ts of can1357/oh-my-pi (session version 3, as indexed in 2026)",
  },
};
