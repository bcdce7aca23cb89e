/**
 * A damaged index on the paths that never build one themselves: the MCP
 * server and the hooks start the repair `deja index` performs (it moves the
 * file aside as `index.db.damaged-<ms>` and rebuilds it), and say truthfully
 * what runs.
 *
 * @module
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { run } from "../cli/mod.ts";
import { captureIo } from "../src/core/io.ts";
import { openDatabase } from "../src/core/_sqlite.ts";
import { answerLoop } from "../src/mcp/loop_tools.ts";
import { createApp } from "../src/server/mod.ts";
import { indexBuilding } from "../src/recall/mod.ts";
import { buildWorld, connectMcp, ROOT } from "./_recall_fixture.ts";

/** Overwrites the index's first page header: SQLite no longer knows it. */
async function damage(path: string): Promise<void> {
  const file = await Deno.open(path, { write: true });
  try {
    await file.write(
      new TextEncoder().encode("no SQLite format here, sorry!!"),
    );
  } finally {
    file.close();
  }
}

const connect = connectMcp;

async function recall(client: Client, query: string): Promise<string> {
  const r = await client.callTool({
    name: "deja",
    arguments: { mode: "recall", query },
  }) as { content: Array<{ text: string }> };
  return r.content[0]?.text ?? "";
}

async function asideFiles(indexPath: string): Promise<string[]> {
  const dir = indexPath.slice(0, indexPath.lastIndexOf("/"));
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    if (/^index\.db\.damaged-\d+$/.test(e.name)) out.push(e.name);
  }
  return out;
}

Deno.test({
  name:
    "deja mcp on a damaged index starts the deja index repair and says so; recall works once it is done",
  // The SDK's stdio transport keeps timers for the child it spawns.
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const w = await buildWorld();
    await damage(w.indexPath);
    // Automatic indexing on, and the real deja started in the background.
    const client = await connect({ ...w.env, DEJA_NO_AUTO_INDEX: "0" });
    try {
      const instructions = client.getInstructions() ?? "";
      ok(
        instructions.includes("cannot be read (it is damaged)") &&
          instructions.includes("A background deja index pass was started"),
        instructions,
      );
      // The pass started at initialize holds the lock, moves the file aside
      // and rebuilds: wait for it (a detached child, up to 60 s on a slow box).
      const deadline = Date.now() + 60_000;
      let text = "";
      while (Date.now() < deadline) {
        text = await recall(client, "terraform versioning");
        if (text.includes("0199fd22")) break;
        ok(
          !text.includes("rebuild has been started"),
          "no promise of a rebuild that is not running",
        );
        await new Promise((r) => setTimeout(r, 250));
      }
      ok(text.includes("0199fd22"), text);
      equal((await asideFiles(w.indexPath)).length, 1, "moved aside once");
      for (let i = 0; i < 200 && indexBuilding(w.indexPath); i++) {
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      await client.close();
    }
  },
});

Deno.test({
  name:
    "deja mcp on a damaged index with automatic indexing off says to run deja index and starts nothing",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const w = await buildWorld();
    await damage(w.indexPath);
    const client = await connect(w.env);
    try {
      const text = await recall(client, "terraform");
      ok(text.includes("cannot be read (it is damaged)"), text);
      ok(text.includes("run deja index"), text);
      ok(!/started|rebuild has been/.test(text), text);
      await new Promise((r) => setTimeout(r, 300));
      deepEqual(await asideFiles(w.indexPath), [], "nothing was repaired");
    } finally {
      await client.close();
    }
  },
});

Deno.test("hook-context on a damaged index starts deja index in the background", async () => {
  const w = await buildWorld();
  await damage(w.indexPath);
  const dir = await Deno.makeTempDir();
  const bin = `${dir}/fake-deja`;
  await Deno.writeTextFile(bin, `#!/bin/sh\necho "$@" >> '${dir}/spawned'\n`);
  await Deno.chmod(bin, 0o755);
  const io = captureIo({
    env: { ...w.env, DEJA_NO_AUTO_INDEX: "0", DEJA_BIN: bin },
    now: Date.now(),
    stdin: await Deno.readTextFile(
      `${ROOT}fixtures/hooks/claude-code/session_start.json`,
    ),
    cwd: "/",
  });
  equal(await run(["hook-context"], io, { keepPermissions: true }), 0);
  let calls = "";
  for (let i = 0; i < 50 && !calls; i++) {
    calls = await Deno.readTextFile(`${dir}/spawned`).catch(() => "");
    if (!calls) await new Promise((r) => setTimeout(r, 50));
  }
  equal(calls.trim(), "index --quiet");
});

Deno.test("deja search on a damaged index names it and says deja index repairs it", async () => {
  const w = await buildWorld();
  await damage(w.indexPath);
  const io = captureIo({ env: w.env, now: Date.now() });
  const code = await run(["search", "redis"], io, { keepPermissions: true });
  ok(code !== 0, `exit ${code}`);
  const err = io.err();
  ok(err.includes(w.indexPath), err);
  ok(err.includes("run deja index"), err);
  ok(!/delete/.test(err), err);
  deepEqual(await asideFiles(w.indexPath), []);
});

/**
 * Overwrites the pages of the named tables with garbage, leaving the file
 * header and schema intact: SQLite opens the file and fails only in a query
 * that reads those pages ("database disk image is malformed").
 */
async function damagePages(path: string, tables: string[]): Promise<void> {
  const db = openDatabase(path, { readOnly: true });
  let pageSize: number;
  let roots: number[];
  try {
    pageSize = Number(
      (db.prepare("PRAGMA page_size").get() as { page_size: number })
        .page_size,
    );
    roots = tables.map((name) =>
      Number(
        (db.prepare("SELECT rootpage FROM sqlite_master WHERE name = ?")
          .get(name) as { rootpage: number }).rootpage,
      )
    );
  } finally {
    db.close();
  }
  const file = await Deno.open(path, { write: true });
  try {
    for (const root of roots) {
      await file.seek((root - 1) * pageSize, Deno.SeekMode.Start);
      await file.write(new Uint8Array(pageSize).fill(0xa5));
    }
  } finally {
    file.close();
  }
}

Deno.test("deja index moves aside an index whose pages past the header are damaged, and rebuilds it", async () => {
  const w = await buildWorld();
  // The list of indexed files: every pass reads it, opening does not.
  await damagePages(w.indexPath, ["files"]);
  const io = captureIo({ env: w.env, now: Date.now() });
  equal(await run(["index"], io, { keepPermissions: true }), 0, io.err());
  ok(io.err().includes("moved it to"), io.err());
  equal((await asideFiles(w.indexPath)).length, 1, "moved aside once");
  const search = captureIo({ env: w.env, now: Date.now() });
  equal(await run(["search", "redis"], search, { keepPermissions: true }), 0);
  ok(search.out().includes("matching session"), search.out());
});

Deno.test("deja index --quiet (the background repair) also rebuilds an index whose file list is damaged", async () => {
  const w = await buildWorld();
  // An unchanged pass compares files through an index of them; what it
  // holds is counted from the damaged table afterwards.
  await damagePages(w.indexPath, ["files"]);
  const io = captureIo({ env: w.env, now: Date.now() });
  equal(await run(["index", "--quiet"], io, { keepPermissions: true }), 0);
  equal((await asideFiles(w.indexPath)).length, 1, "moved aside once");
  const stats = captureIo({ env: w.env, now: Date.now() });
  equal(await run(["stats"], stats, { keepPermissions: true }), 0, stats.err());
});

Deno.test("deja index rebuilds an index whose every page past the first is damaged", async () => {
  const w = await buildWorld();
  await damagePages(w.indexPath, ["meta", "files", "sessions", "records"]);
  const io = captureIo({ env: w.env, now: Date.now() });
  equal(await run(["index"], io, { keepPermissions: true }), 0, io.err());
  equal((await asideFiles(w.indexPath)).length, 1, "moved aside once");
});

Deno.test("deja stats on an index with a corrupt page names the index and says how to rebuild it", async () => {
  const w = await buildWorld();
  await damagePages(w.indexPath, ["records"]);
  const io = captureIo({ env: w.env, now: Date.now() });
  equal(await run(["stats"], io, { keepPermissions: true }), 1);
  const err = io.err();
  ok(err.includes(w.indexPath), err);
  ok(err.includes("[IDX-E001]"), err);
  ok(err.includes("deja index"), err);
});

Deno.test("deja index with DEJA_INDEX naming a folder says so and leaves the folder where it is", async () => {
  const w = await buildWorld();
  const folder = `${w.dir}/notes`;
  await Deno.mkdir(folder);
  await Deno.writeTextFile(`${folder}/keep.txt`, "mine");
  const env = { ...w.env, DEJA_INDEX: folder };
  const io = captureIo({ env, now: Date.now() });
  equal(await run(["index"], io, { keepPermissions: true }), 1);
  ok(
    io.err().includes("is a folder") && io.err().includes("[IDX-E001]"),
    io.err(),
  );
  equal(await Deno.readTextFile(`${folder}/keep.txt`), "mine");
  deepEqual(await asideFiles(`${folder}`), []);
  const names: string[] = [];
  for await (const e of Deno.readDir(w.dir)) names.push(e.name);
  ok(!names.some((n) => n.includes("damaged")), names.join(", "));
  const search = captureIo({ env, now: Date.now() });
  equal(await run(["search", "redis"], search, { keepPermissions: true }), 1);
  ok(!search.err().includes("moves the damaged file"), search.err());
});

Deno.test("deja index with DEJA_INDEX naming the memory file refuses it and leaves its tables alone", async () => {
  const w = await buildWorld();
  const memory = `${w.dir}/memory.db`;
  const init = captureIo({ env: w.env, now: Date.now() });
  equal(
    await run(["init", "--db", memory, "--template", "demo"], init, {
      keepPermissions: true,
    }),
    0,
    init.err(),
  );
  const tables = () => {
    const db = openDatabase(memory, { readOnly: true });
    try {
      return (db.prepare("SELECT name FROM sqlite_master ORDER BY name")
        .all() as Array<{ name: string }>).map((r) => r.name);
    } finally {
      db.close();
    }
  };
  const before = tables();
  const env = { ...w.env, DEJA_INDEX: memory };
  for (const argv of [["index"], ["search", "redis"]]) {
    const io = captureIo({ env, now: Date.now() });
    equal(await run(argv, io, { keepPermissions: true }), 1, io.err());
    ok(io.err().includes("is a deja memory file, not a deja index"), io.err());
  }
  deepEqual(tables(), before);
  deepEqual(await asideFiles(memory), []);
});

Deno.test("deja index whose folder cannot be made names it with a code and the way out", async () => {
  const w = await buildWorld();
  // A file where the index's folder would go.
  await Deno.writeTextFile(`${w.dir}/plain`, "");
  const env = { ...w.env, DEJA_INDEX: `${w.dir}/plain/index.db` };
  const io = captureIo({ env, now: Date.now() });
  equal(await run(["index"], io, { keepPermissions: true }), 1);
  const err = io.err();
  ok(err.includes(`"${w.dir}/plain"`), err);
  ok(err.includes("DEJA_INDEX") && err.includes("[IDX-E001]"), err);
});

Deno.test("an index SQLite cannot open beside its WAL asks whether the folder is read-only", async () => {
  const w = await buildWorld();
  // As root a folder cannot be made read-only: a -wal that is no file
  // makes SQLite answer as it does in a read-only folder (SQLITE_CANTOPEN).
  await Deno.remove(`${w.indexPath}-shm`).catch(() => {});
  await Deno.remove(`${w.indexPath}-wal`).catch(() => {});
  await Deno.mkdir(`${w.indexPath}-wal`);
  const io = captureIo({ env: w.env, now: Date.now() });
  equal(await run(["stats"], io, { keepPermissions: true }), 1);
  ok(io.err().includes("read-only") && io.err().includes("-shm"), io.err());
});

Deno.test("a loop command on a memory file with a corrupt page names the file and says it is not rebuilt", async () => {
  const w = await buildWorld();
  const init = captureIo({ env: w.env, now: Date.now() });
  equal(
    await run(["init", "--template", "demo"], init, { keepPermissions: true }),
    0,
    init.err(),
  );
  await damagePages(w.memoryPath, ["grains"]);
  const io = captureIo({ env: w.env, now: Date.now() });
  equal(await run(["loop", "list"], io, { keepPermissions: true }), 1);
  const err = io.err();
  ok(err.includes(w.memoryPath) && err.includes("[MEM-E001]"), err);
  ok(err.includes("backup") && !err.includes("deja index"), err);
});

Deno.test("the MCP loop tool on a memory file with a corrupt page names the file and says it is not rebuilt", async () => {
  const w = await buildWorld();
  const init = captureIo({ env: w.env, now: Date.now() });
  equal(
    await run(["init", "--template", "demo"], init, { keepPermissions: true }),
    0,
    init.err(),
  );
  await damagePages(w.memoryPath, ["grains"]);
  const answer = await answerLoop({}, {
    indexPath: w.indexPath,
    memoryPath: w.memoryPath,
    env: w.env,
    cwd: w.dir,
    now: () => Date.now(),
    scopes: ["read", "write"],
    actor: "agent:test",
    log: () => {},
    spawn: () => {},
  });
  equal(answer.isError, true);
  ok(
    answer.text.includes(w.memoryPath) && answer.text.includes("[MEM-E001]"),
    answer.text,
  );
});

Deno.test("the console API on a memory file with a corrupt page answers 503 MEM-E001 naming it", async () => {
  const w = await buildWorld();
  const init = captureIo({ env: w.env, now: Date.now() });
  equal(
    await run(["init", "--template", "demo"], init, { keepPermissions: true }),
    0,
    init.err(),
  );
  await damagePages(w.memoryPath, ["grains"]);
  const app = createApp({
    memoryPath: w.memoryPath,
    indexPath: w.indexPath,
    auth: { allowApply: false, allowDestructive: false, actor: "human:test" },
    now: () => Date.now(),
  });
  const res = await app.request("http://127.0.0.1:7777/api/memory/grains", {
    headers: { host: "127.0.0.1:7777" },
  });
  equal(res.status, 503);
  const body = await res.json() as { code: string; detail: string };
  equal(body.code, "MEM-E001");
  ok(body.detail.includes(w.memoryPath), body.detail);
});
