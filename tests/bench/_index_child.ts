// deno-lint-ignore-file no-console
/**
 * One indexing pass in its own process, printing the report and the peak
 * resident set size (VmHWM) as JSON. Used by index_bench.ts.
 *
 * @module
 */
import { indexStores } from "../../src/index/mod.ts";
import { HARNESSES } from "../../src/sources/registry.ts";

const env = Deno.env.toObject();
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
console.log(JSON.stringify({ report, peakRssKb }));
