import { equal } from "node:assert/strict";
import { HARNESSES } from "../sources/registry.ts";
import { AGENT_NAMES } from "./agent_names.ts";

Deno.test("AGENT_NAMES names every registered harness as the registry does", async (t) => {
  for (const harness of HARNESSES) {
    await t.step(harness.id, () => {
      equal(AGENT_NAMES[harness.id], harness.name);
    });
  }
});
