// deno-lint-ignore-file no-console
/**
 * One indexing pass in its own process, printing the report, the peak
 * resident set size (VmHWM) and the CPU time of the pass (every thread, user
 * and system) as JSON. Used by index_bench.ts.
 *
 * @module
 */
import process from "node:process";
import { indexStores } from "../../src/index/mod.ts";
import { HARNESSES } from "../../src/sources/registry.ts";

const env = Deno.env.toObject();
const before = process.cpuUsage();
const report = await indexStores({
  indexPath: env.DEJA_INDEX as string,
  harnesses: HARNESSES.filter((h) =>
    h.id === "claude-code" || h.id === "codex"
  ),
  source: { home: env.HOME as string, env, os: Deno.build.os },
  parserModule: new URL("../../src/sources/registry.ts", import.meta.url).href,
});
const status = await Deno.readTextFile("/proc/self/status").catch(() => "");
const peakRssKb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
const cpu = process.cpuUsage(before);
const cpuMs = Math.round((cpu.user + cpu.system) / 1000);
console.log(JSON.stringify({ report, peakRssKb, cpuMs }));
