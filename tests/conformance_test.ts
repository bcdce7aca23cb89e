import { ok } from "node:assert/strict";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { HARNESSES } from "../src/sources/registry.ts";
import type { Session } from "../src/core/types.ts";

const fixtures = fileURLToPath(new URL("../fixtures", import.meta.url));
const harnessDoc = await Deno.readTextFile(
  new URL("../docs/harnesses.md", import.meta.url),
);

/** Claude Code reads the demo HOME (which holds Codex's older shapes too); every other harness has its own. */
function fixtureHome(id: string): string {
  return existsSync(`${fixtures}/${id}`)
    ? `${fixtures}/${id}`
    : `${fixtures}/home`;
}

Deno.test("every registered harness has a fixture, a doc row, and parses its fixture", async (t) => {
  const ids = new Set<string>();
  for (const harness of HARNESSES) {
    await t.step(harness.id, async () => {
      ok(!ids.has(harness.id), `duplicate id ${harness.id}`);
      ids.add(harness.id);
      ok(
        harnessDoc.includes(`(\`${harness.id}\`)`),
        `docs/harnesses.md has no row for ${harness.id}`,
      );
      for (const field of ["store", "extracts", "omits", "verified"] as const) {
        ok(
          harness.docs[field].trim().length > 0,
          `${harness.id}: docs.${field} is empty`,
        );
      }
      const source = { home: fixtureHome(harness.id), env: {}, os: "linux" };
      const sessions: Session[] = [];
      for (const path of await harness.discover(source)) {
        const kind = harness.kinds.find((k) => k.match(path));
        ok(kind, `${harness.id}: discovered ${path} but no kind matches it`);
        const result = await kind.parse(path, {
          includeSubagents: true,
          source,
        });
        sessions.push(...result.sessions);
      }
      if (harness.sealed !== undefined) {
        // A sealed store is listed, never read.
        ok(harness.sealed.trim().length > 0, `${harness.id}: sealed says why`);
        ok(
          (await harness.discover(source)).length >= 1 && sessions.length === 0,
          `${harness.id}: a sealed fixture is listed and yields no session`,
        );
        return;
      }
      ok(sessions.length >= 1, `${harness.id}: no session in its fixture`);
      ok(
        sessions.some((s) => s.records.some((r) => r.role === "user")) &&
          sessions.some((s) => s.records.some((r) => r.role === "assistant")),
        `${harness.id}: the fixture needs a user and an assistant record`,
      );
      for (const s of sessions) {
        ok(
          s.harness === harness.id,
          `${harness.id}: a session says harness ${s.harness}`,
        );
        const seqs = s.records.map((r) => r.seq);
        ok(
          seqs.every((q, i) => i === 0 || q > (seqs[i - 1] as number)),
          `${harness.id}:${s.id}: seq not increasing`,
        );
      }
    });
  }
});
