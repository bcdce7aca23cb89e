/**
 * Every fixture store read again with its ids, names and folders set to
 * members every JavaScript object inherits (`constructor`, `__proto__`):
 * a plain-object table keyed by such a value once lost whole files
 * (docs/decisions.md, eleventh session). Each store must still index
 * without a failure.
 *
 * @module
 */
import { deepEqual } from "node:assert/strict";
import { indexStores } from "../src/index/mod.ts";
import { HARNESSES } from "../src/sources/registry.ts";

const FIXTURES = new URL("../fixtures/", import.meta.url).pathname;
/**
 * Fields that hold ids, tool names, folders and titles in the fixtures'
 * shapes (not the ones that say what an entry is: renaming `type` makes an
 * entry of no known shape, which is skipped as such).
 */
const KEYS = new Set([
  "id",
  "sessionId",
  "session_id",
  "uuid",
  "parentUuid",
  "agentId",
  "tool_use_id",
  "call_id",
  "callId",
  "toolCallId",
  "name",
  "cwd",
  "title",
]);

function renamed(value: unknown, to: string): unknown {
  if (Array.isArray(value)) return value.map((v) => renamed(v, to));
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = KEYS.has(k) && typeof v === "string" ? to : renamed(v, to);
  }
  return out;
}

/** The file with every listed field renamed, or undefined when not JSON. */
function rewrite(text: string, to: string): string | undefined {
  try {
    return JSON.stringify(renamed(JSON.parse(text), to));
  } catch {
    // JSONL: each line on its own.
  }
  const lines = text.split("\n").filter((l) => l.trim() !== "");
  try {
    return lines.map((l) => JSON.stringify(renamed(JSON.parse(l), to)))
      .join("\n") + "\n";
  } catch {
    return undefined;
  }
}

async function copyRewritten(from: string, to: string, name: string) {
  for await (const entry of Deno.readDir(from)) {
    const src = `${from}/${entry.name}`;
    const dst = `${to}/${entry.name}`;
    if (entry.isDirectory) {
      await Deno.mkdir(dst);
      await copyRewritten(src, dst, name);
    } else if (entry.isFile) {
      const bytes = await Deno.readFile(src);
      const text = /\.jsonl?$/.test(entry.name)
        ? rewrite(new TextDecoder().decode(bytes), name)
        : undefined;
      if (text === undefined) await Deno.writeFile(dst, bytes);
      else await Deno.writeTextFile(dst, text);
    }
  }
}

const stores = [...Deno.readDirSync(FIXTURES)]
  .filter((e) => e.isDirectory && !["configs", "hooks"].includes(e.name))
  .map((e) => e.name)
  .sort();

for (const name of ["constructor", "__proto__"]) {
  Deno.test(`every fixture store indexes with its ids and names set to "${name}"`, async () => {
    const failed: string[] = [];
    for (const store of stores) {
      const home = await Deno.makeTempDir({ prefix: "deja-inherited-" });
      try {
        await copyRewritten(`${FIXTURES}${store}`, home, name);
        const report = await indexStores({
          indexPath: `${home}/index.db`,
          harnesses: HARNESSES,
          source: { home, env: { HOME: home }, os: "linux" },
        });
        for (const f of report.failures) {
          failed.push(`${store}: ${f.harness} ${f.message}`);
        }
      } finally {
        await Deno.remove(home, { recursive: true });
      }
    }
    deepEqual(failed, []);
  });
}
