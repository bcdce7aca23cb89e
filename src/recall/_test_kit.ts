/**
 * Test helper for recall: indexes sessions written as plain lists of records
 * (one JSON file each, read by a small harness of its own) into a temporary
 * index.
 *
 * @module
 */
import type { Harness } from "../core/harness.ts";
import { jsonDirHarness } from "../core/_test_harness.ts";
import type { Session, SessionRecord } from "../core/types.ts";
import { indexStores } from "../index/index_stores.ts";
import { openIndex } from "../index/schema.ts";

/** When every kit session starts; records follow 10 s apart. */
export const START: number = Date.UTC(2026, 9, 2, 14);

/** One record of a kit session, as the parser would give it. */
export type Step = Omit<SessionRecord, "seq" | "locator" | "time">;

/** A harness reading our own JSON files: each holds one session's steps. */
function stepsHarness(dir: string): Harness {
  return jsonDirHarness("steps", dir, (value, path): Session => {
    const steps = value as Step[];
    return {
      harness: "steps",
      id: path.slice(path.lastIndexOf("/") + 1, -".json".length),
      project: "shop-web",
      path,
      title: steps[0]?.text ?? "",
      started: START,
      updated: START + steps.length * 10_000,
      records: steps.map((s, seq): SessionRecord => ({
        ...s,
        seq,
        time: START + seq * 10_000,
        locator: { path, line: seq + 1 },
      })),
      marks: [],
    };
  });
}

/**
 * Indexes the sessions (by id) into a fresh index and hands it to `fn`.
 *
 * @param sessions Each session's records, by session id.
 * @param fn Runs against the open index.
 * @returns When `fn` is done and the temporary files are gone.
 */
export async function withSessions(
  sessions: Record<string, Step[]>,
  fn: (db: ReturnType<typeof openIndex>) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "deja-fix-" });
  try {
    await Deno.mkdir(`${dir}/store`);
    for (const [id, steps] of Object.entries(sessions)) {
      await Deno.writeTextFile(
        `${dir}/store/${id}.json`,
        JSON.stringify(steps),
      );
    }
    const path = `${dir}/index.db`;
    await indexStores({
      indexPath: path,
      harnesses: [stepsHarness(`${dir}/store`)],
      source: { home: dir, env: {}, os: "linux" },
      now: () => START + 86_400_000,
    });
    const db = openIndex(path, { readOnly: true });
    try {
      await fn(db);
    } finally {
      db.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
