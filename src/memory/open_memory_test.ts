import { deepEqual, equal, ok, throws } from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { DejaError } from "../core/errors.ts";
import { openMemory } from "./open_memory.ts";
import type { FactGrain } from "./types.ts";

function fact(
  subject: string,
  relation: string,
  object: string,
  at = 1,
): FactGrain {
  return {
    type: "fact",
    namespace: "t",
    created_at: at,
    actor: "human:test",
    subject,
    relation,
    object,
  };
}

async function tempDb(): Promise<string> {
  const dir = await Deno.makeTempDir();
  return join(dir, "sub", "memory.db");
}

Deno.test("openMemory() creates the file and stores identical content once", async () => {
  const path = await tempDb();
  const store = openMemory(path, { now: () => 10 });
  const a = store.put(fact("acme", "tier", "gold"));
  const b = store.put({ ...fact("acme", "tier", "gold") });
  equal(a, b);
  equal(store.counts().fact, 1);
  equal(store.get(a)?.grain.type, "fact");
  store.close();
  const again = openMemory(path);
  equal(again.counts().fact, 1);
  again.close();
});

Deno.test("openMemory() refuses a file with a newer schema", async () => {
  const path = await tempDb();
  openMemory(path).close();
  const db = new DatabaseSync(path);
  db.exec("UPDATE meta SET value = '99' WHERE key = 'schema_version'");
  db.close();
  throws(
    () => openMemory(path),
    (e: unknown) => e instanceof DejaError && e.code === "MEM-E002",
  );
  throws(
    () => openMemory(path, { readOnly: true }),
    (e: unknown) => e instanceof DejaError && e.code === "MEM-E002",
  );
});

Deno.test("openMemory() refuses deja's transcript index and adds no table to it", async () => {
  const path = await tempDb();
  await Deno.mkdir(join(path, ".."), { recursive: true });
  // The index's own stamp: meta's format (src/index/schema.ts).
  const db = new DatabaseSync(path);
  db.exec(
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL); INSERT INTO meta VALUES ('format', '9'); CREATE TABLE records (x)",
  );
  db.close();
  for (const readOnly of [false, true]) {
    throws(
      () => openMemory(path, { readOnly }),
      (e: unknown) =>
        e instanceof DejaError && e.code === "MEM-E001" &&
        e.message.includes("it is deja's transcript index"),
    );
  }
  const after = new DatabaseSync(path, { readOnly: true });
  const tables = after.prepare("SELECT name FROM sqlite_master ORDER BY name")
    .all().map((r) => r.name);
  after.close();
  deepEqual(tables, ["meta", "records", "sqlite_autoindex_meta_1"]);
});

Deno.test("openMemory() refuses another program's database and adds no table to it", async () => {
  const path = await tempDb();
  await Deno.mkdir(join(path, ".."), { recursive: true });
  const db = new DatabaseSync(path);
  db.exec("CREATE TABLE project (id TEXT); CREATE TABLE message (id TEXT)");
  db.close();
  throws(
    () => openMemory(path),
    (e: unknown) =>
      e instanceof DejaError && e.code === "MEM-E001" &&
      e.message.includes("it is another database (it holds tables project"),
  );
  const after = new DatabaseSync(path, { readOnly: true });
  const tables = after.prepare("SELECT name FROM sqlite_master ORDER BY name")
    .all().map((r) => r.name);
  after.close();
  deepEqual(tables, ["message", "project"]);
});

Deno.test("openMemory() writes a backup before migrating an older file", async () => {
  const path = await tempDb();
  const s = openMemory(path);
  s.put(fact("a", "b", "c"));
  s.close();
  const migrations = { 2: "CREATE TABLE extra(x)" };
  const store = openMemory(path, {
    schema: { version: 2, migrations },
    now: () => 42,
  });
  store.close();
  const backup = `${path}.v1-42.bak`;
  const old = new DatabaseSync(backup, { readOnly: true });
  equal(
    (old.prepare("SELECT value FROM meta WHERE key = 'schema_version'")
      .get() as { value: string }).value,
    "1",
  );
  equal(
    (old.prepare("SELECT count(*) AS n FROM grains").get() as { n: number }).n,
    1,
  );
  old.close();
  const db = new DatabaseSync(path, { readOnly: true });
  equal(
    (db.prepare("SELECT value FROM meta WHERE key = 'schema_version'")
      .get() as { value: string }).value,
    "2",
  );
  db.close();
});

Deno.test("openMemory() read-only refuses writes and missing files", async () => {
  const path = await tempDb();
  throws(
    () => openMemory(path, { readOnly: true }),
    (e: unknown) => e instanceof DejaError && e.code === "MEM-E001",
  );
  openMemory(path).close();
  const ro = openMemory(path, { readOnly: true });
  throws(
    () => ro.put(fact("a", "b", "c")),
    (e: unknown) => e instanceof DejaError && e.code === "MEM-E001",
  );
  ro.close();
});

Deno.test("MemoryStore.put() validates grains and keeps lifecycle grains out", () => {
  const store = openMemory(":memory:");
  throws(
    () =>
      store.put(
        {
          type: "fact",
          namespace: "t",
          created_at: 1,
          actor: "a",
        } as unknown as FactGrain,
      ),
    TypeError,
  );
  throws(
    () =>
      store.put({
        type: "audit",
        namespace: "t",
        created_at: 1,
        actor: "a",
        rec: "x",
        from: "pending",
        to: "approved",
        observer: "human",
        because: "x",
      }),
    TypeError,
  );
  store.close();
});

Deno.test("MemoryStore supersession: heads, forks, chains and tombstones", async (t) => {
  const store = openMemory(":memory:");
  const a = store.put(fact("acme", "region", "eu", 1));
  const b = store.supersede(a, fact("acme", "region", "us", 2));
  await t.step("a successor replaces its predecessor as head", () => {
    deepEqual(store.heads(a), [b]);
    equal(store.isCurrent(a), false);
    equal(store.isCurrent(b), true);
    deepEqual(store.byType("fact", { currentOnly: true }).map((g) => g.hash), [
      b,
    ]);
    deepEqual(store.chain(b).map((g) => g.hash), [a, b]);
  });
  await t.step("two successors of one grain are a fork", () => {
    const c = store.supersede(a, fact("acme", "region", "apac", 3));
    deepEqual(store.heads(b).sort(), [b, c].sort());
    deepEqual(store.forks(), [{ parent: a, heads: [b, c] }]);
    store.forget(c, { actor: "human:test", reason: "wrong" });
    deepEqual(store.heads(a), [b]);
    deepEqual(store.forks(), []);
  });
  await t.step(
    "forgetting the head makes the predecessor current again",
    () => {
      store.forget(b, { actor: "human:test" });
      deepEqual(store.heads(a), [a]);
      equal(store.get(b)?.tombstoned, true);
      equal(store.byType("fact").length, 1);
      equal(store.byType("fact", { includeTombstoned: true }).length, 3);
    },
  );
  await t.step("a tombstoned middle grain does not revive its ancestor", () => {
    const x = store.put(fact("k", "v", "1", 10));
    const y = store.supersede(x, fact("k", "v", "2", 11));
    const z = store.supersede(y, fact("k", "v", "3", 12));
    store.forget(y, { actor: "human:test" });
    deepEqual(store.heads(x), [z]);
  });
  store.close();
});

Deno.test("MemoryStore.recall() returns current, live, unexpired grains matching words", () => {
  const store = openMemory(":memory:", { now: () => 1000 });
  const a = store.put(fact("acme", "tier", "gold", 1));
  store.supersede(a, fact("acme", "tier", "platinum", 2));
  store.put({ ...fact("promo", "active", "true", 3), valid_to: 500 });
  const text = store.recall({ text: "acme" }).map((g) =>
    (g.grain as FactGrain).object
  );
  deepEqual(text, ["platinum"]);
  equal(store.recall({ text: "promo" }).length, 0);
  equal(store.recall({ text: "promo", includeExpired: true }).length, 1);
  store.close();
});

Deno.test("MemoryStore.countSince() counts new grains and error events after a watermark", () => {
  let now = 100;
  const store = openMemory(":memory:", { now: () => now });
  store.put(fact("a", "b", "c"));
  store.setWatermark(100);
  now = 200;
  store.put({
    type: "event",
    namespace: "t",
    created_at: 1,
    actor: "agent:x",
    tool: "bash",
    is_error: true,
  });
  store.put({
    type: "event",
    namespace: "t",
    created_at: 2,
    actor: "agent:x",
    tool: "bash",
    is_error: false,
  });
  deepEqual(store.countSince(100), { grains: 2, error_events: 1 });
  equal(store.watermark(), 100);
  store.close();
});

Deno.test("MemoryStore events with a source key are stored once", () => {
  const store = openMemory(":memory:");
  const e = {
    type: "event" as const,
    namespace: "t",
    created_at: 1,
    actor: "a",
    tool: "bash",
    is_error: true,
    source: "claude:s1:4",
  };
  const h1 = store.put(e);
  const h2 = store.put({ ...e, created_at: 2 });
  equal(h1, h2);
  equal(store.counts().event, 1);
  store.close();
});

Deno.test("MemoryStore.resolve() takes unique prefixes and lists ambiguous ones", () => {
  const store = openMemory(":memory:");
  const hashes = Array.from(
    { length: 100 },
    (_, i) => store.put(fact("s", "r", String(i))),
  );
  const h = hashes[0] as string;
  equal(store.resolve(h.slice(0, 12)), h);
  equal(store.resolve(h.slice(0, 12).toUpperCase()), h);
  const seen = new Map<string, string>();
  const twin = hashes.find((x) =>
    seen.has(x.slice(0, 2)) || !seen.set(x.slice(0, 2), x)
  );
  ok(twin);
  throws(
    () => store.resolve(twin.slice(0, 2)),
    (e: unknown) =>
      e instanceof DejaError && e.code === "MEM-E003" &&
      /ambiguous/.test(e.message),
  );
  throws(
    () => store.resolve("zz"),
    (e: unknown) => e instanceof DejaError && e.code === "MEM-E003",
  );
  store.close();
});

Deno.test("MemoryStore.lock() lets one holder in until it releases or expires", async () => {
  const path = await tempDb();
  let now = 1000;
  const one = openMemory(path, { now: () => now });
  const two = openMemory(path, { now: () => now });
  const held = one.lock("loop-run");
  ok(held);
  equal(two.lock("loop-run"), undefined);
  held.release();
  const again = two.lock("loop-run", { ttlMs: 100 });
  ok(again);
  now += 500;
  ok(one.lock("loop-run"), "an expired lock is taken over");
  one.close();
  two.close();
});

Deno.test("MemoryStore config and state round-trip with provenance", () => {
  const store = openMemory(":memory:", { now: () => 7 });
  store.setConfig("deja.staleness/1", {
    enabled: false,
    params: { grace_days: 2 },
  }, { actor: "human:me" });
  const row = store.config()["deja.staleness/1"];
  equal(row?.enabled, false);
  equal(row?.actor, "human:me");
  equal(row?.source, "local");
  throws(
    () =>
      store.setConfig("x/1", { allow_destructive: true } as never, {
        actor: "a",
      }),
    TypeError,
  );
  const exported = store.exportConfig();
  const other = openMemory(":memory:");
  deepEqual(other.importConfig(exported, { actor: "human:b" }), {
    analyzers: 1,
    definitions: 0,
  });
  equal(other.config()["deja.staleness/1"]?.source, "import");
  throws(
    () =>
      other.importConfig({ deja_loop_config: 1, auto_apply: [] }, {
        actor: "a",
      }),
    TypeError,
  );
  store.setState("k", { a: 1 });
  deepEqual(store.state("k"), { a: 1 });
  store.close();
  other.close();
});

Deno.test("MemoryStore.recordRecall() feeds telemetry and recall counts", () => {
  const store = openMemory(":memory:", { now: () => 9 });
  const h = store.put(fact("a", "b", "c"));
  store.recordRecall({ query: "a", tokens: 120, budget: 100, results: [h] });
  store.recordRecall({ query: "zzz", tokens: 0, budget: 100, results: [] });
  deepEqual(store.telemetry(), [
    { query: "a", tokens: 120, budget: 100, at: 9, results: 1 },
    { query: "zzz", tokens: 0, budget: 100, at: 9, results: 0 },
  ]);
  equal(store.recallCounts().get(h), 1);
  store.close();
});
