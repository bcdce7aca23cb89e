import { deepEqual, equal } from "node:assert/strict";
import { COMMAND_MODULES } from "../cli/commands.ts";
import { HARNESS_IDS } from "../cli/_harness_ids.ts";
import { HARNESSES } from "../src/sources/registry.ts";

Deno.test("COMMAND_MODULES names and summaries match the commands each module loads", async () => {
  const seen = new Set<string>();
  for (const module of COMMAND_MODULES) {
    const commands = await module.load();
    const loaded = commands.map((c) => c.name);
    deepEqual([...loaded].sort(), Object.keys(module.commands).sort());
    for (const c of commands) {
      equal(module.commands[c.name], c.hidden ? null : c.summary, c.name);
    }
    for (const name of loaded) {
      equal(seen.has(name), false, `"${name}" is registered twice`);
      seen.add(name);
    }
  }
});

Deno.test("HARNESS_IDS lists the registry's ids in order", () => {
  deepEqual([...HARNESS_IDS], HARNESSES.map((h) => h.id));
});

Deno.test("an unknown command names the nearest one when it is a slip", async () => {
  const { run } = await import("../cli/mod.ts");
  const { captureIo } = await import("../src/core/io.ts");
  const cases: Array<[string, string]> = [
    ["serach", 'unknown command "serach": did you mean "search"?'],
    ["indx", 'unknown command "indx": did you mean "index"?'],
    ["xyzzy", 'unknown command "xyzzy"'],
  ];
  for (const [word, message] of cases) {
    const io = captureIo({ env: {}, now: 0 });
    equal(await run([word], io, { keepPermissions: true }), 64);
    equal(io.err().split("\n")[0], `error: ${message}`);
  }
});
