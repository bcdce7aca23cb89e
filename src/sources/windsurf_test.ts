import { deepEqual, equal, ok } from "node:assert/strict";
import type { SourceEnv } from "../core/harness.ts";
import { parseWindsurfSealed, windsurf } from "./windsurf.ts";
import { tempFileAt } from "./_test_kit.ts";

const HOME = new URL("../../fixtures/windsurf", import.meta.url).pathname;
const CASCADE = `${HOME}/.codeium/windsurf/cascade`;

const source: SourceEnv = { home: HOME, env: {}, os: "linux" };

Deno.test("windsurf.roots() honours DEJA_WINDSURF_ROOT, then HOME", () => {
  deepEqual(windsurf.roots({ home: "/h", env: {}, os: "linux" }), [
    "/h/.codeium/windsurf/cascade",
  ]);
  deepEqual(
    windsurf.roots({
      home: "/h",
      env: { DEJA_WINDSURF_ROOT: "/c" },
      os: "linux",
    }),
    ["/c"],
  );
});

Deno.test("windsurf.discover() lists each sealed conversation and nothing else", async () => {
  deepEqual(await windsurf.discover(source), [
    `${CASCADE}/2f6c1a9e-8b3d-4e70-a5c2-91d4e0b7f368.pb`,
    `${CASCADE}/c07e5d12-4a8f-4b3e-9d61-5e2a7f0c4b19.pb`,
  ]);
  ok(windsurf.sealed?.includes("AES-GCM"));
  ok(windsurf.format.startsWith("sealed:"));
});

Deno.test("parseWindsurfSealed() reads nothing, whatever the file holds", async (t) => {
  for (
    const [name, content] of [
      [
        "a sealed fixture",
        `${CASCADE}/2f6c1a9e-8b3d-4e70-a5c2-91d4e0b7f368.pb`,
      ],
      ["plain JSON", await tempFileAt("x.pb", '{"messages":["hi"]}')],
      ["a missing file", "/no/such/0000.pb"],
    ] as const
  ) {
    await t.step(name, async () => {
      const r = await parseWindsurfSealed(content, {
        includeSubagents: true,
        source,
      });
      deepEqual(r.sessions, []);
      equal(r.skipped, 0);
    });
  }
});
