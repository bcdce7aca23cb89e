/**
 * Windsurf (Codeium's VS Code fork): each Cascade conversation is one
 * `<uuid>.pb` under `~/.codeium/windsurf/cascade/`, a CortexTrajectory
 * protobuf sealed with AES-GCM. deja lists these files and reads none of
 * them: decrypting needs a key Windsurf keeps to itself, and deja does not
 * go looking for it.
 *
 * @module
 */
import { basename, join } from "node:path";
import type {
  FileKind,
  Harness,
  ParseOptions,
  ParseResult,
  SourceEnv,
} from "../core/harness.ts";
import { walkRoots } from "./_roots.ts";

const HARNESS_ID = "windsurf";

const SEALED =
  "Cascade conversations are AES-GCM-encrypted protobufs; deja lists them and does not decrypt them";

/**
 * Reads nothing from a sealed Cascade file: it yields no session, and is not
 * even opened.
 *
 * @param _path The `.pb` file.
 * @param _options Unused.
 * @returns No sessions, nothing skipped.
 * @example
 * ```ts
 * import { parseWindsurfSealed } from "./windsurf.ts";
 * import { deepEqual } from "node:assert/strict";
 * const source = { home: "/h", env: {}, os: "linux" };
 * deepEqual(await parseWindsurfSealed("/x.pb", { includeSubagents: true, source }), { sessions: [], skipped: 0 });
 * ```
 */
export function parseWindsurfSealed(
  _path: string,
  _options: ParseOptions,
): Promise<ParseResult> {
  return Promise.resolve({ sessions: [], skipped: 0 });
}

/** The Cascade folder: `DEJA_WINDSURF_ROOT`, else `~/.codeium/windsurf/cascade`. */
function windsurfRoots(source: SourceEnv): string[] {
  if (source.env.DEJA_WINDSURF_ROOT) return [source.env.DEJA_WINDSURF_ROOT];
  return [join(source.home, ".codeium", "windsurf", "cascade")];
}

const UUID_PB =
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.pb$/i;

const sealedKind: FileKind = {
  id: "sealed-trajectory",
  appendOnly: false,
  match: (path) => UUID_PB.test(basename(path)),
  parse: parseWindsurfSealed,
};

/**
 * The Windsurf harness (sealed: listed, not read).
 *
 * @example
 * ```ts
 * import { windsurf } from "./windsurf.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(windsurf.roots({ home: "/h", env: {}, os: "linux" }), ["/h/.codeium/windsurf/cascade"]);
 * ```
 */
export const windsurf: Harness = {
  id: HARNESS_ID,
  name: "Windsurf",
  format:
    "sealed: one AES-GCM-encrypted CortexTrajectory protobuf per Cascade conversation (listed, not read)",
  envOverrides: ["DEJA_WINDSURF_ROOT"],
  roots: windsurfRoots,
  discover(source: SourceEnv): Promise<string[]> {
    return Promise.resolve(
      walkRoots(windsurfRoots(source), sealedKind.match, { maxDepth: 0 }),
    );
  },
  kinds: [sealedKind],
  sealed: SEALED,
  docs: {
    store:
      "`~/.codeium/windsurf/cascade/<uuid>.pb` (under the home folder on every OS; `DEJA_WINDSURF_ROOT` names the folder)",
    extracts:
      "nothing: the files are listed so `deja sources` counts the conversations that exist",
    omits:
      "every conversation: each file is sealed with AES-GCM and deja does not decrypt it (the key is Windsurf's; the running language server's local API is out of scope, since deja reads files only). `user_settings.pb` and other stores beside the folder are not listed",
    verified:
      "fixture only: no real Windsurf sample; the folder and the sealing from public notes on Windsurf's storage",
  },
};
