// deno-lint-ignore-file no-console
/**
 * `deno task bench [-- --mb 240]`: generates a deterministic Claude Code +
 * Codex store, then measures cold index, unchanged re-check, append to 10
 * files, search latency in process and as a whole process, peak RSS and
 * index size. Prints medians and ratios; asserts nothing.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { fileURLToPath as fromFileUrl } from "node:url";
import { appendExchange, generateStore } from "./generate_store.ts";
import { openIndex } from "../../src/index/mod.ts";
import { search } from "../../src/search/mod.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    mb: { type: "string", default: "240" },
    keep: { type: "boolean" },
  },
});
const root = fromFileUrl(new URL("../..", import.meta.url));
const work = await Deno.makeTempDir({ prefix: "deja-bench-" });
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

say(`generating ${values.mb} MB store in ${home} ...`);
const gen = await generateStore(home, {
  bytes: Number(values.mb) * 1024 * 1024,
});
const mb = gen.bytes / 1024 / 1024;
say(
  `  ${gen.sessions} sessions, ${gen.files.length} files, ${mb.toFixed(1)} MB`,
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
const db = openIndex(indexPath, { readOnly: true });
const inProcess: number[] = [];
for (let round = 0; round < 20; round++) {
  for (const q of queries) {
    const t0 = performance.now();
    await search(db, q, { now: Date.UTC(2026, 11, 1) });
    inProcess.push(performance.now() - t0);
  }
}
db.close();
const whole: number[] = [];
for (let i = 0; i < 15; i++) {
  whole.push(
    (await timed([
      "run",
      "--allow-read",
      "--allow-env",
      "main.ts",
      "search",
      queries[i % queries.length] as string,
    ]))
      .ms,
  );
}

const rows = [
  ["transcripts", `${mb.toFixed(1)} MB, ${gen.sessions} sessions`],
  [
    "cold index (wall, whole process)",
    `${(cold.ms / 1000).toFixed(2)} s → ${
      (mb / (cold.ms / 1000)).toFixed(1)
    } MB/s`,
  ],
  [
    "cold index (in-process pass)",
    `${(coldReport.report.durationMs / 1000).toFixed(2)} s → ${
      (mb / (coldReport.report.durationMs / 1000)).toFixed(1)
    } MB/s`,
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
    "search in-process p50 / p95 (200 queries)",
    `${median(inProcess).toFixed(2)} / ${pct(inProcess, 0.95).toFixed(2)} ms`,
  ],
  ["search whole process p50 (15 runs)", `${median(whole).toFixed(0)} ms`],
];
say("");
say("| measure | result |");
say("|---|---|");
for (const [k, v] of rows) say(`| ${k} | ${v} |`);
say(
  `\nredactions in cold pass: ${JSON.stringify(coldReport.report.redactions)}`,
);
if (!values.keep) await Deno.remove(work, { recursive: true });
else say(`kept ${work}`);
