/**
 * Test helper: a harness over a folder of our own JSON files, one session
 * each, so index and search tests can describe sessions as plain data.
 *
 * @module
 */
import type { Harness } from "./harness.ts";
import type { Session } from "./types.ts";

/**
 * A harness whose store is every `.json` file directly in `dir`, each read
 * by `read` into one session.
 *
 * @param id The harness id (also the file kind's).
 * @param dir The folder of JSON files.
 * @param read Turns one file's parsed JSON into its session.
 * @returns The harness.
 */
export function jsonDirHarness(
  id: string,
  dir: string,
  read: (value: unknown, path: string) => Session,
): Harness {
  return {
    id,
    name: id,
    format: "json",
    envOverrides: [],
    roots: () => [dir],
    async discover() {
      const files: string[] = [];
      for await (const e of Deno.readDir(dir)) {
        if (e.isFile && e.name.endsWith(".json")) {
          files.push(`${dir}/${e.name}`);
        }
      }
      return files.sort();
    },
    kinds: [{
      id,
      appendOnly: false,
      match: (p) => p.endsWith(".json"),
      async parse(path) {
        const value = JSON.parse(await Deno.readTextFile(path));
        return { sessions: [read(value, path)], skipped: 0 };
      },
    }],
    docs: { store: "", extracts: "", omits: "", verified: "" },
  };
}
