// deno-lint-ignore-file no-console
/**
 * `deno task bench [-- --mb 240]`: generates a deterministic Claude Code +
 * Codex store, then measures cold index, unchanged re-check, append to 10
 * files, search latency in process and as a whole process, peak RSS and
 * index size. Prints medians and ratios; asserts nothing.
 *
 * `--reuse DIR` keeps the store and index in DIR: the first run builds them
 * there, later runs measure search only against them (rebuild by deleting
 * DIR, e.g. after the index format changes).
 *
 * @module
 */
import { parseArgs } from "node:util";
import { fileURLToPath as fromFileUrl } from "node:url";
import { appendExchange, generateStore } from "./generate_store.ts";

const { values } = parseArgs({
  // `deno task bench -- --mb 240` passes the `--` through.
  args: Deno.args.filter((a) => a !== "--"),
  options: {
    mb: { type: "string", default: "240" },
    keep: { type: "boolean" },
    reuse: { type: "string" },
  },
});
const root = fromFileUrl(new URL("../..", import.meta.url));
const work = values.reuse ??
  await Deno.makeTempDir({ prefix: "deja-bench-" });
const home = `${work}/home`;
const indexPath = `${work}/index.db`;
const real = Deno.env.toObject();
const env = {
  HOME: home,
  DEJA_INDEX: indexPath,
  // `DEJA_INDEX_WORKERS=1 deno task bench` measures the parse worker.
  DEJA_INDEX_WORKERS: real.DEJA_INDEX_WORKERS ?? "0",
  PATH: real.PATH ?? "",
  // A HOME override would move Deno's own cache; keep it where it is.
  DENO_DIR: real.DENO_DIR ??
    `${real.XDG_CACHE_HOME ?? `${real.HOME}/.cache`}/deno`,
};
const say = (s: string) => console.log(s);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
};
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * p))] as number;
};

async function timed(args: string[], extraEnv: Record<string, string> = {}) {
  const t0 = performance.now();
  const out = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: root,
    env: { ...env, ...extraEnv },
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const ms = performance.now() - t0;
  if (out.code !== 0 && out.code !== 3) {
    throw new Error(
      `${args.join(" ")} exited ${out.code}: ${
        new TextDecoder().decode(out.stderr)
      }`,
    );
  }
  return { ms, stdout: new TextDecoder().decode(out.stdout) };
}

const reusing = values.reuse !== undefined &&
  (await Deno.stat(indexPath).then(() => true, () => false));
const rows: string[][] = [];
let redactions = "";
if (!reusing) await buildAndIndex();
else say(`reusing ${indexPath} (search only)`);

async function buildAndIndex(): Promise<void> {
  say(`generating ${values.mb} MB store in ${home} ...`);
  const gen = await generateStore(home, {
    bytes: Number(values.mb) * 1024 * 1024,
  });
  const mb = gen.bytes / 1024 / 1024;
  say(
    `  ${gen.sessions} sessions, ${gen.files.length} files, ${
      mb.toFixed(1)
    } MB`,
  );

  const child = ["run", "-A", "tests/bench/_index_child.ts"];
  const cold = await timed(child);
  const coldReport = JSON.parse(cold.stdout);
  const indexBytes = Deno.statSync(indexPath).size;

  const recheck: number[] = [];
  for (let i = 0; i < 5; i++) {
    recheck.push(JSON.parse((await timed(child)).stdout).report.durationMs);
  }

  const appendMs: number[] = [];
  for (let round = 0; round < 3; round++) {
    for (let i = 0; i < 10; i++) {
      await appendExchange(
        gen.files[(i * 37 + round) % gen.files.length] as string,
        round * 100 + i,
      );
    }
    appendMs.push(JSON.parse((await timed(child)).stdout).report.durationMs);
  }
  const long = await longTranscript(gen.files);
  const small = await smallFiles(mb);
  // The compiled binary's settings (and `deno task deja`'s): files parsed on
  // a worker, both V8 heaps with the small young generation of deno.json.
  const v8Flags = compileV8Flags();
  const worker = JSON.parse(
    (await timed(["run", "-A", v8Flags, "tests/bench/_index_child.ts"], {
      DEJA_INDEX: `${work}/worker.db`,
      DEJA_INDEX_WORKERS: "1",
    })).stdout,
  );
  rows.push(
    ["transcripts", `${mb.toFixed(1)} MB, ${gen.sessions} sessions`],
    [
      "cold index (wall, whole process)",
      `${(cold.ms / 1000).toFixed(2)} s → ${
        (mb / (cold.ms / 1000)).toFixed(1)
      } MB/s`,
    ],
    [
      "cold index (in-process pass), CPU time",
      `${(coldReport.report.durationMs / 1000).toFixed(2)} s → ${
        (mb / (coldReport.report.durationMs / 1000)).toFixed(1)
      } MB/s, ${(coldReport.cpuMs / 1000).toFixed(2)} s`,
    ],
    [
      "peak RSS during cold index",
      `${(coldReport.peakRssKb / 1024).toFixed(0)} MB`,
    ],
    [
      "index size",
      `${(indexBytes / 1024 / 1024).toFixed(1)} MB = ${
        (indexBytes / gen.bytes).toFixed(2)
      } × transcripts`,
    ],
    ["unchanged re-check (median of 5)", `${median(recheck)} ms`],
    ["append to 10 files (median of 3)", `${median(appendMs)} ms`],
    [
      `cold index, parse worker and ${v8Flags}: pass, peak RSS, CPU time`,
      `${(worker.report.durationMs / 1000).toFixed(2)} s → ${
        (mb / (worker.report.durationMs / 1000)).toFixed(1)
      } MB/s, ${(worker.peakRssKb / 1024).toFixed(0)} MB, ${
        (worker.cpuMs / 1000).toFixed(2)
      } s`,
    ],
    [
      `${small.files} small transcripts (${
        small.mb.toFixed(0)
      } MB): one thread, parse worker`,
      `${(small.oneMs / 1000).toFixed(2)} s → ${
        (small.mb / (small.oneMs / 1000)).toFixed(1)
      } MB/s, ${(small.workerMs / 1000).toFixed(2)} s → ${
        (small.mb / (small.workerMs / 1000)).toFixed(1)
      } MB/s`,
    ],
    [
      `one ${long.mb.toFixed(0)} MB transcript: peak RSS, pass`,
      `${Math.round(long.peakRssKb / 1024)} MB, ${
        (long.ms / 1000).toFixed(2)
      } s`,
    ],
  );
  redactions = JSON.stringify(coldReport.report.redactions);
}

/** The compile task's V8 flags (`--v8-flags=…`), as deno.json sets them. */
function compileV8Flags(): string {
  const flags = (JSON.parse(Deno.readTextFileSync(`${root}deno.json`)).tasks
    .compile as string).match(/--v8-flags=\S+/)?.[0];
  if (!flags) throw new Error("deno.json: the compile task sets no --v8-flags");
  return flags;
}

/**
 * A store of a sixth of the main one's bytes in transcripts of 2–12 KB
 * (thousands of files, as months of short sessions and sub-agents leave),
 * indexed cold in one thread and with the parse worker: what a pass pays a
 * file, besides its bytes.
 */
async function smallFiles(
  mainMb: number,
): Promise<{ files: number; mb: number; oneMs: number; workerMs: number }> {
  const smallHome = `${work}/small`;
  const gen = await generateStore(smallHome, {
    bytes: (mainMb / 6) * 1024 * 1024,
    seed: 5,
    fileBytes: { min: 2_000, max: 12_000 },
  });
  const pass = async (name: string, workers: string, flags: string[]) =>
    JSON.parse(
      (await timed(["run", "-A", ...flags, "tests/bench/_index_child.ts"], {
        HOME: smallHome,
        DEJA_INDEX: `${work}/${name}.db`,
        DEJA_INDEX_WORKERS: workers,
      })).stdout,
    ).report.durationMs as number;
  return {
    files: gen.files.length,
    mb: gen.bytes / 1024 / 1024,
    oneMs: await pass("small", "0", []),
    workerMs: await pass("small-worker", "1", [compileV8Flags()]),
  };
}

/**
 * Every generated Claude Code session written into one transcript (one
 * session id, one cwd) in a home of its own, indexed cold: the peak memory
 * of a store whose size is one file.
 */
async function longTranscript(
  files: readonly string[],
): Promise<{ mb: number; peakRssKb: number; ms: number }> {
  const id = "0b0b0b0b-1111-4222-8333-444455556666";
  const longHome = `${work}/long`;
  const dir = `${longHome}/.claude/projects/-home-dev-long`;
  await Deno.mkdir(dir, { recursive: true });
  const path = `${dir}/${id}.jsonl`;
  const out = await Deno.open(path, { write: true, create: true });
  const encoder = new TextEncoder();
  for (const file of files.filter((f) => f.includes("/.claude/"))) {
    const lines: string[] = [];
    for (const line of (await Deno.readTextFile(file)).split("\n")) {
      if (!line) continue;
      const value = JSON.parse(line);
      value.sessionId = id;
      value.cwd = "/home/dev/long";
      lines.push(JSON.stringify(value));
    }
    await out.write(encoder.encode(lines.join("\n") + "\n"));
  }
  out.close();
  const mb = (await Deno.stat(path)).size / 1024 / 1024;
  const run = await timed(["run", "-A", "tests/bench/_index_child.ts"], {
    HOME: longHome,
    DEJA_INDEX: `${work}/long.db`,
  });
  const child = JSON.parse(run.stdout);
  return { mb, peakRssKb: child.peakRssKb, ms: child.report.durationMs };
}

const queries = [
  "docker compose",
  "ECONNREFUSED",
  "redis cache timeout",
  "terraform bucket region",
  "flaky test retry",
  '"memory leak"',
  "kafka consumer batch",
  "migration schema index",
  "webpack bundle slow",
  "login cookie session",
];
/**
 * Each query's times (ms) from `_search_child.ts`: `rounds` rounds, the
 * first not counted, on one connection or (`fresh`) one per query.
 */
async function searchTimes(
  asked: readonly string[],
  rounds: number,
  fresh = false,
): Promise<Record<string, number[]>> {
  return JSON.parse(
    (await timed([
      "run",
      "-A",
      "tests/bench/_search_child.ts",
      indexPath,
      JSON.stringify(asked),
      String(rounds),
      ...(fresh ? ["fresh"] : []),
    ])).stdout,
  ) as Record<string, number[]>;
}

// In process: one open connection, 21 rounds of the queries, in a child
// that only opens the index, as a long-lived reader (the MCP server, `deja
// serve`) does; the first round warms SQLite's page cache and the JIT and is
// not counted (a cold search is what the whole-process figure measures).
const perQuery = new Map<string, number[]>(
  Object.entries(await searchTimes(queries, 21)),
);
const inProcess = [...perQuery.values()].flat();

// Questions as people and agents ask them (two blind sets: prompts that
// start new work, context told at length), each on a connection of its own
// as a one-shot search or hook asks it; two rounds, the first not counted.
const questionSets = ["heldout29.json", "heldout34.json"];
const questions = (await Promise.all(
  questionSets.map(async (f) =>
    JSON.parse(
      await Deno.readTextFile(`${root}/tests/bench/real/${f}`),
    ) as Array<{ text: string }>
  ),
)).flat().map((q) => q.text);
const askedTimes = Object.values(await searchTimes(questions, 2, true))
  .flat();

// Whole process: `deno task deja search <q> --json` as a user runs it,
// with the deja task's own flags (read from deno.json), Deno's cache warm.
const config = JSON.parse(await Deno.readTextFile(`${root}/deno.json`));
// The task is `[VAR=value ...] deno <args>`: the variables go in the env.
const dejaTask = (config.tasks.deja as string).split(/\s+/);
const dejaEnv = Object.fromEntries(
  dejaTask.filter((w) => /^[A-Z_]+=/.test(w)).map((w) => w.split("=", 2)),
);
const dejaArgs = dejaTask.slice(dejaTask.indexOf("deno") + 1);
const whole: number[] = [];
const wholeRuns = 21;
await timed([...dejaArgs, "search", "warm", "--json"], dejaEnv);
for (let i = 0; i < wholeRuns; i++) {
  whole.push(
    (await timed([
      ...dejaArgs,
      "search",
      queries[i % queries.length] as string,
      "--json",
    ], dejaEnv)).ms,
  );
}

rows.push(
  [
    `search in-process p50 / p95 (${inProcess.length} queries)`,
    `${median(inProcess).toFixed(2)} / ${pct(inProcess, 0.95).toFixed(2)} ms`,
  ],
  [
    `questions in process, a connection each, p50 / p95 (${askedTimes.length}: ${
      questionSets.join(", ")
    })`,
    `${median(askedTimes).toFixed(1)} / ${pct(askedTimes, 0.95).toFixed(1)} ms`,
  ],
  [
    `search whole process p50 / p90 (${wholeRuns} runs)`,
    `${median(whole).toFixed(0)} / ${pct(whole, 0.9).toFixed(0)} ms`,
  ],
);
say("");
say("| measure | result |");
say("|---|---|");
for (const [k, v] of rows) say(`| ${k} | ${v} |`);
say("\nslowest queries in process (median / max of 20, ms):");
for (
  const [q, xs] of [...perQuery].sort((a, b) => median(b[1]) - median(a[1]))
) {
  say(
    `  ${median(xs).toFixed(2).padStart(6)} / ${
      pct(xs, 1).toFixed(2).padStart(6)
    }  ${q}`,
  );
}
say(`whole process: \`deno ${dejaArgs.join(" ")} search <q> --json\``);
if (redactions) {
  say(`\nredactions in cold pass: ${redactions}`);
  // The store plants only AWS secret keys; any other rule is an over-redaction.
  const others = Object.keys(JSON.parse(redactions)).filter((id) =>
    id !== "aws-secret"
  );
  if (others.length) {
    say(`over-redaction: the store plants no ${others.join(", ")}`);
  }
}
if (values.reuse) say(`kept ${work}`);
else if (!values.keep) await Deno.remove(work, { recursive: true });
else say(`kept ${work}`);
