import { deepEqual, equal, ok } from "node:assert/strict";
import { fileURLToPath } from "node:url";
import type { SourceEnv } from "../core/harness.ts";
import { kilo } from "./kilo.ts";

const FIXTURE_HOME = fileURLToPath(
  new URL("../../fixtures/kilo", import.meta.url),
);
const TASKS =
  `${FIXTURE_HOME}/.config/Code/User/globalStorage/kilocode.kilo-code/tasks`;
const PARENT = "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d";
const CHILD = "5e4f3a2b-1c0d-4e9f-8a7b-6c5d4e3f2a1b";

const source: SourceEnv = { home: FIXTURE_HOME, env: {}, os: "linux" };

Deno.test("kilo.discover() finds the fixture's tasks and files them under kilo", async () => {
  const found = await kilo.discover(source);
  deepEqual(found, [
    `${TASKS}/${CHILD}/ui_messages.json`,
    `${TASKS}/${PARENT}/ui_messages.json`,
  ]);
  const kind = kilo.kinds.find((k) => k.match(found[1] as string));
  const result = await kind?.parse(found[1] as string, {
    includeSubagents: true,
    source,
  });
  const s = result?.sessions[0];
  equal(s?.harness, "kilo");
  equal(s?.project, "crm-web");
  ok(s?.records.some((r) => r.role === "user"));
  ok(s?.records.some((r) => r.role === "assistant"));
  equal(s?.records.find((r) => r.role === "command")?.exitCode, 2);
});

Deno.test("kilo skips sub-tasks when sub-agents are off", async () => {
  const path = `${TASKS}/${CHILD}/ui_messages.json`;
  const kind = kilo.kinds.find((k) => k.match(path));
  const off = await kind?.parse(path, { includeSubagents: false, source });
  deepEqual(off?.sessions, []);
  const on = await kind?.parse(path, { includeSubagents: true, source });
  equal(on?.sessions[0]?.parent, PARENT);
});

Deno.test("kilo roots follow DEJA_KILO_ROOTS and the OS", () => {
  deepEqual(
    kilo.roots({
      home: "/h",
      env: { DEJA_KILO_ROOTS: "/k1:/k2" },
      os: "linux",
    }),
    ["/k1", "/k2"],
  );
  equal(
    kilo.roots({ home: "/Users/a", env: {}, os: "darwin" })[0],
    "/Users/a/Library/Application Support/Code/User/globalStorage/kilocode.kilo-code",
  );
  equal(
    kilo.kinds[0]?.match(
      "/x/rooveterinaryinc.roo-cline/tasks/t/ui_messages.json",
    ),
    false,
  );
});
