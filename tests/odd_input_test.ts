/**
 * What a field-level fuzz of the transcript parsers found (odd values a
 * corrupt or future transcript can hold), each read end to end: indexed,
 * then searched, listed and shown, and none of it may fail.
 *
 * @module
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { run } from "../cli/mod.ts";
import { captureIo } from "../src/core/io.ts";

/** A temp HOME with the files given (paths under HOME), and a CLI on it. */
async function homeWith(files: Record<string, string | Uint8Array>) {
  const home = await Deno.makeTempDir({ prefix: "deja-odd-" });
  for (const [rel, data] of Object.entries(files)) {
    const path = `${home}/${rel}`;
    await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    if (typeof data === "string") await Deno.writeTextFile(path, data);
    else await Deno.writeFile(path, data);
  }
  const env = { HOME: home, DEJA_INDEX: `${home}/index.db` };
  const cli = async (...argv: string[]) => {
    const io = captureIo({ env, now: Date.UTC(2026, 11, 31) });
    const code = await run(argv, io, { keepPermissions: true });
    return { code, out: io.out(), err: io.err() };
  };
  return {
    home,
    cli,
    index: `${home}/index.db`,
    done: () => Deno.remove(home, { recursive: true }),
  };
}

function claudeLine(fields: Record<string, unknown>, text: string): string {
  return JSON.stringify({
    type: "user",
    uuid: crypto.randomUUID(),
    timestamp: "2026-10-14T09:00:00.000Z",
    message: { role: "user", content: text },
    ...fields,
  });
}

Deno.test("a time no Date can hold in an older index prints as none in search, last and show", async () => {
  const t = await homeWith({
    ".claude/projects/-home-dev-api/0b0e4f9a-0c3d-4e72-a5b8-9f2d7c4e1a63.jsonl":
      claudeLine({}, "the pelican migration stalls") + "\n",
  });
  equal((await t.cli("index", "--quiet")).code, 0);
  // What an index written before parseTime refused such numbers holds.
  const db = new DatabaseSync(t.index);
  db.exec("UPDATE sessions SET started = 1e308, updated = 1e308");
  db.exec("UPDATE records SET time = 1e308");
  db.close();
  for (
    const argv of [
      ["search", "pelican"],
      ["search", "pelican", "--json"],
      ["last"],
      ["last", "--json"],
      ["show", "0b0e4f9a"],
      ["show", "0b0e4f9a", "--json"],
    ]
  ) {
    const r = await t.cli(...argv);
    equal(r.code, 0, `${argv.join(" ")}: ${r.err}`);
  }
  const shown = JSON.parse((await t.cli("show", "0b0e4f9a", "--json")).out);
  equal(shown.session.started, null);
  await t.done();
});

Deno.test("show and search --session take a session id over SQLite's LIKE pattern limit", async () => {
  const id = `s${"a".repeat(60_000)}`;
  const t = await homeWith({
    ".claude/projects/-home-dev-api/long.jsonl":
      claudeLine({ sessionId: id }, "the heron export times out") + "\n",
  });
  equal((await t.cli("index", "--quiet")).code, 0);
  const shown = await t.cli("show", `claude-code:${id}`, "--json");
  equal(shown.code, 0, shown.err);
  equal(JSON.parse(shown.out).session.id, id);
  // A prefix still matches as before, case folded.
  equal((await t.cli("show", "SAAAA")).code, 0);
  const found = await t.cli("search", "heron", "--session", id, "--json");
  equal(found.code, 0, found.err);
  ok(JSON.parse(found.out).results.length === 1);
  await t.done();
});

Deno.test("a session or agent id that names a member every object inherits is indexed like any other", async () => {
  const t = await homeWith({
    ".claude/projects/-home-dev-api/constructor.jsonl": [
      claudeLine({ sessionId: "constructor" }, "the pelican migration stalls"),
      claudeLine(
        { sessionId: "constructor", isSidechain: true, agentId: "toString" },
        "pelican side chain: check the lock table",
      ),
    ].join("\n") + "\n",
    ".claude/projects/-home-dev-api/__proto__.jsonl":
      claudeLine({ sessionId: "__proto__" }, "the pelican rollback worked") +
      "\n",
  });
  const indexed = await t.cli("index", "--json");
  equal(indexed.code, 0, indexed.err);
  deepEqual(JSON.parse(indexed.out).failures, []);
  const found = JSON.parse((await t.cli("search", "pelican", "--json")).out);
  deepEqual(
    found.results.map((r: { session: { id: string } }) => r.session.id).sort(),
    ["__proto__", "constructor", "toString"],
  );
  await t.done();
});

Deno.test("what a parse audit found: NUL bytes before a line, is_error as text, a UTF-16 file", async () => {
  const tool = (id: string) =>
    JSON.stringify({
      type: "assistant",
      uuid: crypto.randomUUID(),
      timestamp: "2026-10-14T09:00:01.000Z",
      message: {
        id: `msg_${id}`,
        role: "assistant",
        content: [{
          type: "tool_use",
          id,
          name: "Bash",
          input: { command: "npm run migrate" },
        }],
      },
    });
  const result = (id: string) =>
    claudeLine({}, "").replace(
      '"content":""',
      `"content":[{"type":"tool_result","tool_use_id":"${id}","is_error":"true","content":"relation quokkas does not exist"}]`,
    );
  const utf16 = new Uint8Array(
    [
      0xff,
      0xfe,
      ...[
        ...new TextEncoder().encode(claudeLine({}, "utf sixteen") + "\n"),
      ].flatMap((b) => [b, 0]),
    ],
  );
  const t = await homeWith({
    // A power loss left NUL bytes where a line was being written; the
    // next line was written after them.
    ".claude/projects/-home-dev-api/1c1e4f9a-0c3d-4e72-a5b8-9f2d7c4e1a63.jsonl":
      claudeLine({}, "the wombat exporter") + "\n" + "\0".repeat(64) +
      claudeLine({}, "after the power loss the narwhal job") + "\n" +
      tool("toolu_q1") + "\n" + result("toolu_q1") + "\n",
    ".claude/projects/-home-dev-api/2c1e4f9a-0c3d-4e72-a5b8-9f2d7c4e1a63.jsonl":
      utf16,
  });
  const indexed = await t.cli("index");
  equal(indexed.code, 3, indexed.err);
  ok(indexed.err.includes("UTF-16"), indexed.err);
  ok(indexed.err.includes("2c1e4f9a"), indexed.err);
  const found = JSON.parse((await t.cli("search", "narwhal", "--json")).out);
  equal(found.total, 1);
  const shown = JSON.parse((await t.cli("show", "1c1e4f9a", "--json")).out);
  const out = shown.records.find((r: { role: string }) =>
    r.role === "tool-output"
  );
  equal(out?.text, "relation quokkas does not exist");
  equal(out?.isError, true);
  await t.done();
});

Deno.test("a file of NUL bytes alone is named, with or without line breaks, and the rest is indexed", async () => {
  const t = await homeWith({
    // A crash before the data reached the disk: the length written, the
    // bytes never. One line with no newline waited as a torn line would.
    ".claude/projects/-home-dev-api/3c1e4f9a-0c3d-4e72-a5b8-9f2d7c4e1a63.jsonl":
      new Uint8Array(8192),
    ".codex/sessions/2026/10/14/rollout-2026-10-14T09-00-00-4c1e4f9a-0c3d-4e72-a5b8-9f2d7c4e1a63.jsonl":
      "\0".repeat(300) + "\n" + "\0".repeat(300) + "\n",
    ".claude/projects/-home-dev-api/5c1e4f9a-0c3d-4e72-a5b8-9f2d7c4e1a63.jsonl":
      claudeLine({}, "the okapi migration") + "\n",
  });
  const indexed = await t.cli("index");
  equal(indexed.code, 3, indexed.err);
  for (const id of ["3c1e4f9a", "4c1e4f9a"]) {
    const line = indexed.err.split("\n").find((l) => l.includes(id)) ?? "";
    ok(line.includes("only NUL bytes"), indexed.err);
  }
  equal(JSON.parse((await t.cli("search", "okapi", "--json")).out).total, 1);
  await t.done();
});

Deno.test("a time far past the pass's clock is written as none, so last does not list it first", async () => {
  const t = await homeWith({
    ".claude/projects/-home-dev-api/3c1e4f9a-0c3d-4e72-a5b8-9f2d7c4e1a63.jsonl":
      claudeLine({ timestamp: "2099-01-01T00:00:00.000Z" }, "the ocelot cron") +
      "\n",
    ".claude/projects/-home-dev-api/4c1e4f9a-0c3d-4e72-a5b8-9f2d7c4e1a63.jsonl":
      claudeLine({}, "the lemur deploy") + "\n",
  });
  equal((await t.cli("index", "--quiet")).code, 0);
  const shown = JSON.parse((await t.cli("show", "3c1e4f9a", "--json")).out);
  equal(shown.session.started, null);
  equal(shown.session.updated, null);
  const last = await t.cli("last");
  equal(last.code, 0, last.err);
  ok(
    last.out.indexOf("lemur") < last.out.indexOf("ocelot") ||
      !last.out.includes("ocelot"),
    last.out,
  );
  await t.done();
});
