import { deepEqual, equal, match, ok } from "node:assert/strict";
import { captureIo } from "../src/core/io.ts";
import { findCommand, run } from "../cli/mod.ts";
import { openMemory, runBatch, templateBatch } from "../src/memory/mod.ts";
import type { RunResult } from "../src/loop/mod.ts";

const NOW = Date.UTC(2026, 2, 1, 12);
const examples = new URL("../examples/analyzers/", import.meta.url).pathname;

function hasNode(): boolean {
  try {
    return new Deno.Command("node", {
      args: ["--version"],
      stdout: "null",
      stderr: "null",
    }).outputSync().success;
  } catch {
    return false;
  }
}

async function deja(argv: string[], now = NOW) {
  const io = captureIo({ now, cwd: "/", env: {} });
  const code = await run(argv, io, { keepPermissions: true });
  return { code, out: io.out(), err: io.err() };
}

/** A memory file seeded with the demo template (through `deja init` when it is registered). */
async function demoDb(): Promise<{ dir: string; db: string }> {
  const dir = await Deno.makeTempDir();
  const db = `${dir}/demo.db`;
  if (await findCommand(["init"])) {
    const r = await deja(["init", "--db", db, "--template", "demo"]);
    equal(r.code, 0, r.err);
  } else {
    const store = openMemory(db, { now: () => NOW });
    runBatch(store, templateBatch("demo", NOW));
    store.close();
  }
  return { dir, db };
}

Deno.test("deja loop run --format json on the demo yields recommendations from five analyzers", async () => {
  const { dir, db } = await demoDb();
  const r = await deja(["loop", "run", "--db", db, "--format", "json"]);
  equal(r.code, 0, r.err);
  const result = JSON.parse(r.out) as RunResult;
  equal(result.outcome, "ran");
  ok(result.stored >= 5, `stored ${result.stored}`);
  const analyzers = new Set(result.recommendations.map((x) => x.analyzer));
  ok(analyzers.size >= 5, [...analyzers].join(", "));
  for (
    const id of [
      "deja.duplicate_sweep/1",
      "deja.contradiction_sweep/1",
      "deja.staleness/1",
      "deja.tool_failure/1",
    ]
  ) {
    ok(analyzers.has(id), `${id} fired`);
  }
  ok(
    analyzers.has("deja.fork_surfacing/1") ||
      analyzers.has("deja.skill_stall/1"),
  );
  equal(typeof result.duration_ms, "number");
  const again = JSON.parse(
    (await deja(["loop", "run", "--db", db, "--format", "json"])).out,
  ) as RunResult;
  deepEqual([again.stored, again.deduped], [0, result.stored]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("deja loop run gates, and --quiet prints only the new-recommendations notice", async () => {
  const { dir, db } = await demoDb();
  const skipped = await deja([
    "loop",
    "run",
    "--db",
    db,
    "--min-new",
    "500",
    "--format",
    "json",
  ]);
  equal(skipped.code, 0);
  const s = JSON.parse(skipped.out) as RunResult;
  deepEqual([s.outcome, s.skip_reason], ["skipped", "min_new_not_met"]);
  const quiet = await deja([
    "loop",
    "run",
    "--db",
    db,
    "--min-new",
    "5",
    "--quiet",
  ]);
  equal(quiet.code, 0);
  equal(quiet.out, "");
  match(quiet.err, /^deja loop: \d+ new \(\d+ high\) — deja loop list\n$/);
  const silent = await deja(
    ["loop", "run", "--db", db, "--quiet"],
    NOW + 60_000,
  );
  deepEqual([silent.out, silent.err], ["", ""]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("deja loop run skips with lock_held while another run holds the lock", async () => {
  const { dir, db } = await demoDb();
  const holder = openMemory(db, { now: () => NOW });
  const lock = holder.lock("loop-run", { now: NOW });
  ok(lock);
  const r = await deja(["loop", "run", "--db", db, "--format", "json"]);
  equal(r.code, 0);
  const result = JSON.parse(r.out) as RunResult;
  deepEqual([result.outcome, result.skip_reason], ["skipped", "lock_held"]);
  lock.release();
  holder.close();
  await Deno.remove(dir, { recursive: true });
});

Deno.test("two concurrent deja loop run processes: one runs, the other skips with lock_held", async () => {
  const { dir, db } = await demoDb();
  const spawn = () =>
    new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        new URL("../main.ts", import.meta.url).pathname,
        "loop",
        "run",
        "--db",
        db,
        "--format",
        "json",
      ],
      stdout: "piped",
      stderr: "piped",
      env: { DEJA_DB: db },
    }).output();
  // A slow command analyzer keeps the first run inside its lock.
  const slow = `${dir}/slow.mjs`;
  await Deno.writeTextFile(
    slow,
    `let i = ""; process.stdin.on("data", (c) => (i += c)); process.stdin.on("end", () => {
      const req = JSON.parse(i.split("\\n")[0]);
      const reply = req.op === "manifest" ? { id: "t.slow/1", evidence: { types: ["fact"] } } : { drafts: [] };
      setTimeout(() => console.log(JSON.stringify(reply)), req.op === "manifest" ? 0 : 3000);
    });`,
  );
  if (!hasNode()) return;
  const first = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      new URL("../main.ts", import.meta.url).pathname,
      "loop",
      "run",
      "--db",
      db,
      "--format",
      "json",
      "--analyzer-cmd",
      `t.slow/1=node ${slow}`,
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  await new Promise((r) => setTimeout(r, 1500));
  const second = await spawn();
  const a = await first;
  equal(a.code, 0, new TextDecoder().decode(a.stderr));
  equal(second.code, 0, new TextDecoder().decode(second.stderr));
  const ra = JSON.parse(new TextDecoder().decode(a.stdout)) as RunResult;
  const rb = JSON.parse(new TextDecoder().decode(second.stdout)) as RunResult;
  equal(ra.outcome, "ran");
  deepEqual([rb.outcome, rb.skip_reason], ["skipped", "lock_held"]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test({
  name:
    "deja loop run reports a command analyzer's timeout and bad JSON and still runs the rest",
  ignore: !hasNode(),
  async fn() {
    const { dir, db } = await demoDb();
    const hang = `${dir}/hang.mjs`;
    await Deno.writeTextFile(
      hang,
      `let i = ""; process.stdin.on("data", (c) => (i += c)); process.stdin.on("end", () => {
        const req = JSON.parse(i.split("\\n")[0]);
        if (req.op === "manifest") console.log(JSON.stringify({ id: "t.hang/1", evidence: { types: ["fact"] } }));
        else setTimeout(() => {}, 60000);
      });`,
    );
    const bad = `${dir}/bad.mjs`;
    await Deno.writeTextFile(
      bad,
      `let i = ""; process.stdin.on("data", (c) => (i += c)); process.stdin.on("end", () => {
        const req = JSON.parse(i.split("\\n")[0]);
        console.log(req.op === "manifest" ? JSON.stringify({ id: "t.bad/1" }) : "not json at all");
      });`,
    );
    const r = await deja([
      "loop",
      "run",
      "--db",
      db,
      "--format",
      "json",
      "--analyzer-timeout",
      // Long enough for node to answer the manifest probes on a loaded
      // machine; the hang still runs into it.
      "3",
      "--analyzer-cmd",
      `t.hang/1=node ${hang}`,
      "--analyzer-cmd",
      `t.bad/1=node ${bad}`,
      "--analyzer-cmd",
      `example.hello/1=node ${examples}hello.mjs`,
    ]);
    equal(r.code, 0, r.err);
    const result = JSON.parse(r.out) as RunResult;
    // The hang is reported as a timeout (of its probe, on a very slow machine).
    match(
      result.analyzers_skipped.find((s) => s.id === "t.hang/1")?.reason ?? "",
      /^(manifest probe failed: )?timeout after 3000 ms$/,
    );
    match(
      result.analyzers_skipped.find((s) => s.id === "t.bad/1")?.reason ?? "",
      /^bad JSON/,
    );
    ok(result.analyzers_run.includes("example.hello/1"));
    ok(result.stored >= 5);
    await Deno.remove(dir, { recursive: true });
  },
});

Deno.test("deja loop analyzers, enable, disable and set change what runs", async () => {
  const { dir, db } = await demoDb();
  let r = await deja(["loop", "analyzers", "--db", db]);
  equal(r.code, 0, r.err);
  match(
    r.out,
    /deja\.goal_stagnation\/1\s+off\s+Goal stagnation — off by default \(opt-in\)/,
  );
  match(
    r.out,
    /deja\.cold_grains\/1\s+waiting\s+Cold grains — needs recall telemetry/,
  );
  equal(
    (await deja(["loop", "enable", "goal_stagnation", "--db", db])).code,
    0,
  );
  equal(
    (await deja(["loop", "disable", "deja.staleness/1", "--db", db])).code,
    0,
  );
  r = await deja([
    "loop",
    "set",
    "tool_failure.min_count=7",
    "staleness.grace=2d",
    "--db",
    db,
  ]);
  equal(r.code, 0, r.err);
  equal(
    r.out,
    'deja.tool_failure/1.min_count = 7\ndeja.staleness/1.grace = "2d"\n',
  );
  r = await deja(["loop", "analyzers", "--db", db, "--format", "json"]);
  const acts = JSON.parse(r.out) as Array<
    {
      id: string;
      active: boolean;
      reason: string;
      params?: Record<string, unknown>;
    }
  >;
  const by = Object.fromEntries(acts.map((a) => [a.id, a]));
  equal(by["deja.goal_stagnation/1"]?.reason, "enabled in the memory file");
  equal(by["deja.staleness/1"]?.reason, "disabled in the memory file");
  equal(by["deja.tool_failure/1"]?.params?.min_count, 7);
  const run1 = JSON.parse(
    (await deja(["loop", "run", "--db", db, "--format", "json"])).out,
  ) as RunResult;
  const fired = new Set(run1.recommendations.map((x) => x.analyzer));
  ok(fired.has("deja.goal_stagnation/1"));
  ok(!fired.has("deja.staleness/1"));
  ok(!fired.has("deja.tool_failure/1"), "6 failures < min_count 7");
  equal(
    (await deja(["loop", "set", "tool_failure.min_count=0", "--db", db])).code,
    64,
  );
  equal(
    (await deja(["loop", "set", "tool_failure.nope=1", "--db", db])).code,
    64,
  );
  equal(
    (await deja(["loop", "enable", "no_such_analyzer", "--db", db])).code,
    64,
  );
  await Deno.remove(dir, { recursive: true });
});

Deno.test("deja loop run --dry-run --only prints drafts and stores nothing", async () => {
  const { dir, db } = await demoDb();
  const r = await deja([
    "loop",
    "run",
    "--db",
    db,
    "--dry-run",
    "--only",
    "contradiction_sweep",
  ]);
  equal(r.code, 0, r.err);
  match(
    r.out,
    /\(dry run\)\s+medium\s+contradiction_sweep\s+"acme" holds 2 live values for single-valued relation "deploy_target"/,
  );
  const store = openMemory(db, { now: () => NOW });
  equal(store.recommendations().length, 0);
  equal(store.watermark(), undefined);
  store.close();
  await Deno.remove(dir, { recursive: true });
});

Deno.test("deja loop run --dry-run with no memory file yet makes none", async () => {
  const dir = await Deno.makeTempDir();
  const db = `${dir}/memory.db`;
  const r = await deja(["loop", "run", "--db", db, "--dry-run", "--json"]);
  equal(r.code, 0, r.err);
  equal((JSON.parse(r.out) as RunResult).outcome, "ran");
  deepEqual([...Deno.readDirSync(dir)], []);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("deja loop schedule --print emits a snippet for each scheduler", async (t) => {
  for (const os of ["cron", "systemd", "launchd", "windows"]) {
    await t.step(os, async () => {
      const r = await deja([
        "loop",
        "schedule",
        "--print",
        "--every",
        "6h",
        "--os",
        os,
        "--db",
        "/srv/agent.db",
        "--deja",
        "/usr/local/bin/deja",
      ]);
      equal(r.code, 0, r.err);
      ok(
        r.out.includes("loop run --db /srv/agent.db --min-new 20 --quiet") ||
          r.out.includes("<string>--quiet</string>"),
        r.out,
      );
    });
  }
  const cron = await deja([
    "loop",
    "schedule",
    "--print",
    "--os",
    "cron",
    "--db",
    "/srv/agent.db",
    "--deja",
    "/usr/local/bin/deja",
  ]);
  equal(
    cron.out,
    "0 */6 * * * /usr/local/bin/deja loop run --db /srv/agent.db --min-new 20 --quiet\n",
  );
  // Printing is all it does: --print may be left out.
  const bare = await deja(["loop", "schedule", "--os", "cron"]);
  equal(bare.code, 0, bare.err);
  ok(bare.out.includes("loop run"), bare.out);
  equal(
    (await deja(["loop", "schedule", "--print", "--os", "amiga"])).code,
    64,
  );
});

Deno.test("deja loop run --from-index learns failing commands from the transcript index", async () => {
  const { indexStores } = await import("../src/index/mod.ts");
  const { HARNESSES } = await import("../src/sources/registry.ts");
  const home = await Deno.makeTempDir();
  const project = `${home}/.claude/projects/-home-dev-src-shop`;
  await Deno.mkdir(project, { recursive: true });
  const session = "7c1e9a40-2b3d-4e5f-8a6b-1c2d3e4f5a6b";
  const line = (obj: Record<string, unknown>) =>
    JSON.stringify({ sessionId: session, cwd: "/home/dev/src/shop", ...obj }) +
    "\n";
  const lines: string[] = [
    line({
      type: "user",
      uuid: "u0",
      timestamp: "2026-02-27T09:00:00Z",
      message: { role: "user", content: "run the tests" },
    }),
  ];
  for (let i = 0; i < 4; i++) {
    const at = (s: number) =>
      new Date(Date.UTC(2026, 1, 27, 9, 1 + i, s)).toISOString();
    const failed = i < 3;
    lines.push(
      line({
        type: "assistant",
        uuid: `a${i}`,
        timestamp: at(0),
        message: {
          role: "assistant",
          content: [{
            type: "tool_use",
            id: `tu${i}`,
            name: "Bash",
            input: { command: failed ? "npm test" : "ls" },
          }],
        },
      }),
      line({
        type: "user",
        uuid: `r${i}`,
        timestamp: at(5),
        message: {
          role: "user",
          content: [{
            type: "tool_result",
            tool_use_id: `tu${i}`,
            ...(failed ? { is_error: true } : {}),
            content: failed
              ? `Exit code 1\nError: Cannot find module 'jest' (attempt ${i})`
              : "package.json",
          }],
        },
      }),
    );
  }
  await Deno.writeTextFile(`${project}/${session}.jsonl`, lines.join(""));
  const index = `${home}/index.db`;
  await indexStores({
    indexPath: index,
    harnesses: HARNESSES.filter((h) => h.id === "claude-code"),
    source: { home, env: {}, os: "linux" },
    now: () => NOW,
  });
  const db = `${home}/memory.db`;
  // A clock that moves, as a real one does: grains the import adds land
  // after the run's own start time.
  let tick = NOW;
  const io = captureIo({
    now: () => tick++,
    cwd: "/",
    env: { DEJA_INDEX: index },
  });
  const code = await run(
    [
      "loop",
      "run",
      "--db",
      db,
      "--from-index",
      "--min-new-errors",
      "3",
      "--format",
      "json",
    ],
    io,
    {
      keepPermissions: true,
    },
  );
  equal(code, 0, io.err());
  const result = JSON.parse(io.out()) as RunResult;
  equal(result.outcome, "ran");
  equal(result.new_since_watermark.error_events, 3);
  const failure = result.recommendations.find((r) =>
    r.analyzer === "deja.tool_failure/1"
  );
  ok(failure, JSON.stringify(result.recommendations));
  match(failure.summary, /^Tool "Bash" failed 3 times \(75% of 4 calls\)/);
  // A second run imports nothing new, so its gate sees nothing new either.
  const again = captureIo({
    now: NOW + 60_000,
    cwd: "/",
    env: { DEJA_INDEX: index },
  });
  equal(
    await run(
      [
        "loop",
        "run",
        "--db",
        db,
        "--from-index",
        "--min-new-errors",
        "3",
        "--format",
        "json",
      ],
      again,
      {
        keepPermissions: true,
      },
    ),
    0,
    again.err(),
  );
  const second = JSON.parse(again.out()) as RunResult;
  equal(second.new_since_watermark.error_events, 0);
  equal(second.outcome, "skipped");
  await Deno.remove(home, { recursive: true });
});

Deno.test("loop run and loop analyzers take --json like every other loop verb", async () => {
  const { db } = await demoDb();
  const ran = await deja(["loop", "run", "--db", db, "--json"]);
  equal(ran.code, 0, ran.err);
  equal((JSON.parse(ran.out) as RunResult).outcome, "ran");
  const acts = await deja(["loop", "analyzers", "--db", db, "--json"]);
  equal(acts.code, 0, acts.err);
  ok(Array.isArray(JSON.parse(acts.out)));
});

Deno.test("deja loop run --from-index with no index yet still runs the analyzers and says why nothing was learned", async () => {
  const { dir, db } = await demoDb();
  const io = captureIo({
    now: NOW,
    cwd: "/",
    env: { DEJA_INDEX: `${dir}/no-such/index.db` },
  });
  const code = await run(
    ["loop", "run", "--db", db, "--from-index", "--json"],
    io,
    { keepPermissions: true },
  );
  equal(code, 0, io.err());
  equal((JSON.parse(io.out()) as RunResult).outcome, "ran");
  match(io.err(), /no transcript index/i);
});
