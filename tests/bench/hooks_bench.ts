// deno-lint-ignore-file no-console
/**
 * `deno task bench:hooks [--mb 40] [--runs 30]`: builds a warm index from a
 * deterministic synthetic store plus the recall fixtures, then times each
 * hook on realistic payloads — in process (the hook's own work) and as a
 * whole process run as an installed hook runs it from a checkout
 * (`selfCommand`: `deno run -A --v8-flags=… main.ts hook-…`, what the agent
 * waits for).
 * Prints medians and p95; asserts nothing.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { run } from "../../cli/mod.ts";
import { captureIo } from "../../src/core/io.ts";
import { selfCommand } from "../../src/recall/mod.ts";
import { generateStore } from "./generate_store.ts";
import {
  denoDir,
  EXTRA_SESSIONS,
  NOW,
  writeClaudeSession,
} from "../_recall_fixture.ts";

const { values } = parseArgs({
  args: Deno.args.filter((a) => a !== "--"),
  options: {
    mb: { type: "string", default: "40" },
    runs: { type: "string", default: "30" },
    keep: { type: "boolean" },
  },
});
const runs = Math.max(3, Number(values.runs));
// The command an installed hook runs from this checkout.
const [self, ...selfArgs] = selfCommand({}) as [string, ...string[]];
const work = await Deno.makeTempDir({ prefix: "deja-hooks-bench-" });
const home = `${work}/home`;
const env: Record<string, string> = {
  HOME: home,
  DEJA_INDEX: `${work}/index.db`,
  DEJA_DB: `${work}/memory.db`,
  // Detached children are started (their cost counts) but do nothing.
  DEJA_BIN: "/bin/true",
  PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
};

const median = (xs: number[]) =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const p95 = (xs: number[]) =>
  [...xs].sort((a, b) =>
    a - b
  )[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))] as number;
const ms = (x: number) => `${x.toFixed(1)} ms`;

console.log(`generating a ${values.mb} MB store in ${work} …`);
const store = await generateStore(home, {
  bytes: Number(values.mb) * 1024 * 1024,
  seed: 7,
});
for (const s of EXTRA_SESSIONS) await writeClaudeSession(home, s);
const indexIo = captureIo({ env, now: Date.now() });
const t0 = performance.now();
await run(["index", "--quiet"], indexIo, { keepPermissions: true });
const indexSize = (await Deno.stat(env.DEJA_INDEX as string)).size;
console.log(
  `indexed ${store.sessions} sessions (${
    (store.bytes / 1048576).toFixed(1)
  } MB) in ${((performance.now() - t0) / 1000).toFixed(1)} s; index ${
    (indexSize / 1048576).toFixed(1)
  } MB\n`,
);

const cwd = "/home/dev/src/api";
const prompt = (text: string) => (i: number) => ({
  session_id: `bench-prompt-${i}`,
  cwd,
  hook_event_name: "UserPromptSubmit",
  prompt: text,
});
// Rows: label → [command, payload]. The second prompt has a word no
// transcript holds (a typo), the case that used to scan the vocabulary; the
// third only words most sessions say.
const payloads: Record<
  string,
  [string, (i: number) => Record<string, unknown>]
> = {
  "hook-context": ["hook-context", (i) => ({
    session_id: `bench-ctx-${i}`,
    cwd,
    hook_event_name: "SessionStart",
    source: "startup",
  })],
  "hook-prompt": [
    "hook-prompt",
    prompt(
      "pasted log line\nwhy does the migrate script fail with relation orders_archive does not exist?",
    ),
  ],
  "  with a typo": [
    "hook-prompt",
    prompt(
      "pasted log line\nwhy does the migrtae script fail with relation orders_archive does not exist?",
    ),
  ],
  // Words every generated session says: the slowest case on a big store.
  "  common words": [
    "hook-prompt",
    prompt("how do we retry the queue worker?"),
  ],
  "hook-tool-after": ["hook-tool-after", (i) => ({
    session_id: `bench-tool-${i}`,
    cwd,
    hook_event_name: "PostToolUseFailure",
    tool_name: "Bash",
    tool_input: { command: "npm run migrate" },
    error: 'Exit code 1\nerror: relation "orders_archive" does not exist',
  })],
  "hook-session-end": ["hook-session-end", (i) => ({
    session_id: `bench-end-${i}`,
    cwd,
    hook_event_name: "SessionEnd",
    reason: "exit",
  })],
};

const rows: string[] = [];
for (const [label, [name, make]] of Object.entries(payloads)) {
  const inProcess: number[] = [];
  let said = 0;
  for (let i = 0; i < runs; i++) {
    const io = captureIo({
      env,
      now: NOW + i * 1000,
      stdin: JSON.stringify(make(i)),
      cwd: "/",
    });
    const start = performance.now();
    await run([name], io, { keepPermissions: true });
    inProcess.push(performance.now() - start);
    if (io.out()) said++;
  }
  const whole: number[] = [];
  for (let i = 0; i < Math.min(runs, 10); i++) {
    const child = new Deno.Command(self, {
      args: [...selfArgs, name],
      env: { ...env, DENO_DIR: denoDir() },
      stdin: "piped",
      stdout: "null",
      stderr: "null",
    });
    const start = performance.now();
    const proc = child.spawn();
    const writer = proc.stdin.getWriter();
    await writer.write(
      new TextEncoder().encode(JSON.stringify(make(1000 + i))),
    );
    await writer.close();
    await proc.status;
    whole.push(performance.now() - start);
  }
  rows.push(
    `${label.padEnd(17)} ${ms(median(inProcess)).padStart(9)} ${
      ms(p95(inProcess)).padStart(9)
    }   ${ms(median(whole)).padStart(9)}   ${said}/${runs} answered`,
  );
}
const baseline: number[] = [];
for (let i = 0; i < 10; i++) {
  const start = performance.now();
  await new Deno.Command(self, {
    args: [...selfArgs, "--version"],
    env: { ...env, DENO_DIR: denoDir() },
    stdout: "null",
    stderr: "null",
  }).output();
  baseline.push(performance.now() - start);
}
rows.push(
  `${"deja --version".padEnd(17)} ${"".padStart(9)} ${"".padStart(9)}   ${
    ms(median(baseline)).padStart(9)
  }   (start-up alone)`,
);
console.log(
  `hook              in-process           whole process (as installed)`,
);
console.log(`                  median       p95       median`);
for (const r of rows) console.log(r);
if (!values.keep) await Deno.remove(work, { recursive: true });
