import { deepEqual, equal, notEqual, throws } from "node:assert/strict";
import { DejaError } from "../core/errors.ts";
import { openMemory } from "./open_memory.ts";
import { groupNotes, listNotes, promote, remember } from "./notes.ts";

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 4, 10, 12);

Deno.test("remember() and promote() keep one current note per chain", () => {
  let now = T0;
  const store = openMemory(":memory:", { now: () => now });
  const a = remember(store, "  we pin redis to 7.2  ", { project: "api" });
  now += 1000;
  const b = promote(store, a, "stale");
  equal(promote(store, b, "stale"), b, "same state is a no-op");
  const notes = listNotes(store, { project: "api" });
  deepEqual(notes.map((n) => [n.hash, n.note.state, n.note.text]), [[
    b,
    "stale",
    "we pin redis to 7.2",
  ]]);
  throws(
    () => promote(store, a, "accepted"),
    (e: unknown) => e instanceof DejaError && e.code === "MEM-E003",
  );
  throws(() => promote(store, b, "bogus" as never), TypeError);
  throws(() => remember(store, "   "), TypeError);
  store.close();
});

Deno.test("listNotes() filters by state and groupNotes() groups per project and day", () => {
  let now = T0;
  const store = openMemory(":memory:", { now: () => now });
  remember(store, "api one", { project: "api" });
  now += DAY;
  remember(store, "api two", { project: "api" });
  remember(store, "web one", { project: "web", state: "proposed" });
  remember(store, "loose");
  equal(listNotes(store, { states: ["proposed"] }).length, 1);
  const groups = groupNotes(listNotes(store));
  deepEqual(
    groups.map((g) => [g.project, g.day, g.notes.map((n) => n.note.text)]),
    [
      ["", "2026-05-11", ["loose"]],
      ["api", "2026-05-11", ["api two"]],
      ["api", "2026-05-10", ["api one"]],
      ["web", "2026-05-11", ["web one"]],
    ],
  );
  store.close();
});

Deno.test("remember() keeps the same words for the same project as one note", () => {
  const store = openMemory(":memory:", { now: () => 1_000 });
  const a = remember(store, "pin redis to 7.2", { project: "api", now: 1_000 });
  const b = remember(store, "pin redis to 7.2", { project: "api", now: 2_000 });
  const c = remember(store, "pin redis to 7.2", { project: "web", now: 3_000 });
  equal(a, b);
  notEqual(a, c);
  store.close();
});

Deno.test("remember() redacts a credential in the note, as the index does", () => {
  const store = openMemory(":memory:", { now: () => T0 });
  const hash = remember(
    store,
    "the staging deploy token is ghp_abcdefghijklmnopqrstuvwxyz0123456789AB",
    { project: "api", state: "proposed", actor: "agent:mcp" },
  );
  const [note] = listNotes(store, { project: "api", states: ["proposed"] });
  equal(note?.hash, hash);
  equal(
    note?.note.text,
    "the staging deploy token is [redacted:github-token]",
  );
  store.close();
});
