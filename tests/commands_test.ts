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
