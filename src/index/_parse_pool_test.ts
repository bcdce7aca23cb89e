import { deepEqual, equal, ok } from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { ParsePool, takeBackOrder } from "./_parse_pool.ts";
import { claudeCode } from "../sources/claude_code.ts";

const registry = new URL("../sources/registry.ts", import.meta.url).href;
const home = fileURLToPath(new URL("../../fixtures/home", import.meta.url));
const path =
  `${home}/.claude/projects/-home-dev-src-api/3f2b8c1e-7a4d-4e91-b6c2-1d9e0f5a7b34.jsonl`;

/** Parses one fixture transcript planned as a large pass; says where. */
async function parsedOnWorker(
  env: Record<string, string>,
  standalone: boolean,
  workerUrl?: URL,
): Promise<boolean> {
  const pool = await ParsePool.create({
    parserModule: registry,
    source: { env },
    standalone,
    ...(workerUrl ? { workerUrl } : {}),
  });
  const job = {
    path,
    harness: claudeCode,
    kind: claudeCode.kinds[0]!,
    // Planned bytes past the worker's threshold: a cold pass.
    size: 64 * 1024 * 1024,
    options: {
      includeSubagents: true,
      source: { home, env: {}, os: "linux" },
    },
  };
  try {
    // The first file parses here while a worker starts; once it has loaded
    // the parsers, files go to it.
    const first = await pool.parse(job, true);
    ok(!(first instanceof Error), String(first));
    const onWorker = await pool.settled();
    const parsed = await pool.parse(job, true);
    ok(!(parsed instanceof Error), String(parsed));
    ok(parsed.sessions.length > 0);
    deepEqual(parsed, first);
    return onWorker;
  } finally {
    pool.close();
  }
}

Deno.test("ParsePool parses on a worker in the compiled binary unless told not to", async (t) => {
  await t.step("compiled binary, nothing set: worker", async () => {
    equal(await parsedOnWorker({}, true), true);
  });
  await t.step("deno run, nothing set: this thread", async () => {
    equal(await parsedOnWorker({}, false), false);
  });
  await t.step(
    "compiled binary, DEJA_INDEX_WORKERS=0: this thread",
    async () => {
      equal(await parsedOnWorker({ DEJA_INDEX_WORKERS: "0" }, true), false);
    },
  );
  await t.step("deno run, DEJA_INDEX_WORKERS=1: worker", async () => {
    equal(await parsedOnWorker({ DEJA_INDEX_WORKERS: "1" }, false), true);
  });
});

Deno.test("ParsePool parses in this thread when the worker cannot run", async () => {
  const dir = await Deno.makeTempDir({ prefix: "deja-pool-" });
  try {
    const broken = `${dir}/broken_worker.ts`;
    await Deno.writeTextFile(broken, 'throw new Error("cannot start");\n');
    // The file still parses (asserted inside), and no worker is left running.
    equal(
      await parsedOnWorker(
        { DEJA_INDEX_WORKERS: "1" },
        false,
        new URL(`file://${broken}`),
      ),
      false,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("ParsePool.result parses here the files the worker has not started", async () => {
  const pool = await ParsePool.create({
    parserModule: registry,
    source: { env: { DEJA_INDEX_WORKERS: "force" } },
    standalone: false,
  });
  const job = {
    path,
    harness: claudeCode,
    kind: claudeCode.kinds[0]!,
    size: 1024,
    options: {
      includeSubagents: true,
      source: { home, env: {}, os: "linux" },
    },
  };
  try {
    // Sent while the worker still loads the parsers: waiting for the last
    // takes it back (and the one before it, should the worker not have
    // started that either); what the worker skips, it does not answer.
    const sent = [pool.parse(job, true), pool.parse(job, true)];
    const last = await pool.result(sent[1]!);
    const first = await pool.result(sent[0]!);
    ok(!(first instanceof Error), String(first));
    ok(first.sessions.length > 0);
    deepEqual(last, first);
    // The worker goes on with files sent after.
    deepEqual(await pool.result(pool.parse(job, true)), first);
    equal(await pool.settled(), true);
  } finally {
    pool.close();
  }
});

Deno.test("takeBackOrder tries the awaited file, then the others oldest first", () => {
  deepEqual(takeBackOrder([3, 4, 5, 6], 4), [4, 3, 5, 6]);
  deepEqual(takeBackOrder([7], 7), [7]);
  // The newest is tried last: taken first, its result waited in memory
  // until every file before it was written.
  equal(takeBackOrder([1, 2, 3, 4, 5], 2).at(-1), 5);
});
