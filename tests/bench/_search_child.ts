// deno-lint-ignore-file no-console
/**
 * In-process search latency in its own process, as a long-lived reader (the
 * MCP server, `deja serve`) sees it: one open connection, the queries given
 * as JSON arguments asked in rounds; the first round warms SQLite's page
 * cache and the JIT and is not counted (`fresh` as a fourth argument: a
 * new connection for every query). Prints each query's times (ms) as
 * JSON. Used by index_bench.ts, so that the bench process's own heap (the
 * store it generated) is not part of what is timed.
 *
 * @module
 */
import { openIndex } from "../../src/index/mod.ts";
import { search } from "../../src/search/mod.ts";

const [indexPath, queriesJson, roundsArg, mode] = Deno.args;
const queries = JSON.parse(queriesJson as string) as string[];
const rounds = Number(roundsArg ?? 21);
// "fresh": each query on a connection of its own, as a one-shot `deja
// search` or hook asks it (nothing kept from an earlier search).
const fresh = mode === "fresh";
const open = () => openIndex(indexPath as string, { readOnly: true });
let db = open();
const times: Record<string, number[]> = {};
for (const q of queries) times[q] = [];
for (let round = 0; round < rounds; round++) {
  for (const q of queries) {
    if (fresh) {
      db.close();
      db = open();
    }
    const t0 = performance.now();
    await search(db, q, { now: Date.UTC(2026, 11, 1) });
    if (round > 0) times[q]!.push(performance.now() - t0);
  }
}
db.close();
console.log(JSON.stringify(times));
