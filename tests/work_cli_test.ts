import { equal, ok } from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { run } from "../cli/mod.ts";
import { captureIo } from "../src/core/io.ts";
import { openIndex } from "../src/index/mod.ts";
import { buildWorld, NOW, type RecallWorld } from "./_recall_fixture.ts";

let world: RecallWorld | undefined;
async function deja(
  argv: string[],
  cwd = "/home/dev/src/api",
): Promise<{ code: number; out: string; err: string }> {
  world ??= await buildWorld();
  const io = captureIo({ env: world.env, now: NOW, cwd });
  const code = await run(argv, io, { keepPermissions: true });
  return { code, out: io.out(), err: io.err() };
}

Deno.test("deja fix prints what followed the error, this project first", async () => {
  const r = await deja(["fix", "ECONNREFUSED 127.0.0.1:5432"]);
  equal(r.code, 0, r.err);
  ok(r.out.startsWith("this project — api"), r.out);
  ok(r.out.includes("`docker compose up -d db`"));
});

Deno.test("deja how --json ranks invocations", async () => {
  const r = await deja(["how", "run", "the", "tests", "--json"]);
  equal(JSON.parse(r.out).invocations[0].command, "npm test");
  // Words sessions talk about but ran nothing for are said to be talked of.
  const talked = JSON.parse((await deja(["how", "vault", "--json"])).out);
  ok(
    /talks? about "vault", but no command ran for it$/.test(talked.why),
    talked.why,
  );
  const never = JSON.parse((await deja(["how", "zeppelin", "--json"])).out);
  equal(never.why, 'No recorded command or conversation mentions "zeppelin"');
  // A pasted page is searched by its first words, and only they are named.
  const page = Array.from({ length: 1200 }, (_, i) => `zword${i}`).join(" ");
  const long = JSON.parse((await deja(["how", page, "--json"])).out);
  equal(long.terms.length, 12);
  ok(long.why.length < 300, long.why);
});

Deno.test("deja blame names the editing session and its decision", async () => {
  const r = await deja(["blame", "docker-compose.yml"]);
  ok(r.out.includes("edited it") && r.out.includes("redis:7.2"), r.out);
});

Deno.test("deja blame FILE:0 is a usage error (lines start at 1), not 'past the end'", async () => {
  const zero = await deja(["blame", "docker-compose.yml:0"]);
  equal(zero.code, 64, zero.out);
  ok(
    zero.err.startsWith(
      "error: Line 0 of docker-compose.yml does not exist: lines are numbered from 1\n",
    ),
    zero.err,
  );
  const huge = await deja(["blame", "docker-compose.yml:99999999999999999999"]);
  equal(huge.code, 64, huge.out);
  ok(huge.err.includes("Line 99999999999999999999 of"), huge.err);
});

Deno.test("deja blame of a directory or a one-character name is a usage error, not a search for the bare name", async (t) => {
  for (const target of ["a/", "/a/a/", "src/.", "a", "src/a:3"]) {
    await t.step(target, async () => {
      const r = await deja(["blame", target]);
      equal(r.code, 64, r.out);
      ok(
        r.err.includes("names a directory") || r.err.includes("too short"),
        r.err,
      );
    });
  }
});

Deno.test("deja files lists a topic's files", async () => {
  const r = await deja(["files", "terraform", "plan"]);
  ok(r.out.includes("s3.tf"), r.out);
  // A project no session has is named as such, with the ones there are.
  const none = await deja(["files", "terraform", "--project", "nope"]);
  ok(none.out.startsWith('No sessions of project "nope"; projects on file: '));
  ok(none.out.includes("infra"), none.out);
  // --limit caps the list; anything but a positive count is a usage error.
  const all = await deja(["files", "orders", "--json"]);
  ok(JSON.parse(all.out).length > 1, all.out);
  const one = await deja(["files", "orders", "--limit", "1", "--json"]);
  equal(JSON.parse(one.out).length, 1);
  equal((await deja(["files", "terraform", "--limit", "0"])).code, 64);
});

Deno.test("deja resume prints the native command, and refuses a harness without one", async () => {
  const r = await deja(["resume", "3f2b8c1e"]);
  equal(
    r.out.trim(),
    "cd /home/dev/src/api && claude --resume 3f2b8c1e-7a4d-4e91-b6c2-1d9e0f5a7b34",
  );
  const codex = await deja(["resume", "codex:0199fd22", "--json"]);
  equal(
    JSON.parse(codex.out).argv.join(" "),
    "codex resume 0199fd22-8e41-7b3a-b5c0-6a1e93f4d208",
  );
  // An aider session exists, but aider has no resume flag: not QRY-E002
  // ("no session matches"), which would send the person hunting for it.
  const home = await Deno.makeTempDir();
  const copied = await new Deno.Command("cp", {
    args: [
      "-R",
      `${fileURLToPath(new URL("../fixtures/aider", import.meta.url))}/.`,
      home,
    ],
  }).output();
  equal(copied.code, 0);
  const env = { HOME: home, DEJA_INDEX: `${home}/index.db` };
  const flags = { keepPermissions: true };
  const indexed = captureIo({ env, now: NOW });
  equal(await run(["index", "--quiet"], indexed, flags), 0, indexed.err());
  const db = openIndex(`${home}/index.db`, { readOnly: true });
  const id = (db.prepare(
    "SELECT id FROM sessions WHERE harness = 'aider' LIMIT 1",
  ).get() as { id: string } | undefined)?.id;
  db.close();
  ok(id, "the aider fixture is indexed");
  const io = captureIo({ env, now: NOW });
  equal(await run(["resume", `aider:${id}`], io, flags), 1);
  ok(io.err().includes("[QRY-E005]"), io.err());
  ok(io.err().includes("has no resume command deja knows"), io.err());
  ok(!io.err().includes("QRY-E002"), io.err());
});

Deno.test("deja resume --exec says the session's folder is gone, not that the program is missing", async () => {
  const gone = "/home/dev/src/api";
  ok(!existsDir(gone), `${gone} is the fixture's folder and must not exist`);
  const r = await deja(["resume", "3f2b8c1e", "--exec"]);
  equal(r.code, 1, r.out);
  ok(r.err.includes(`the session's folder ${gone} is gone`), r.err);
  ok(r.err.includes("[QRY-E007]"), r.err);
  ok(!r.err.includes("not installed"), r.err);
});

Deno.test("a session ref's harness is named as --harness names it, and an unknown one is said to be", async () => {
  const aliased = await deja(["show", "Claude:3f2b8c1e", "--json"]);
  equal(aliased.code, 0, aliased.err);
  equal(JSON.parse(aliased.out).session.harness, "claude-code");
  const unknown = await deja(["show", "nope:nope"]);
  equal(unknown.code, 1, unknown.out);
  ok(
    unknown.err.includes('Unknown harness "nope" in "nope:nope"'),
    unknown.err,
  );
  ok(unknown.err.includes("claude-code, codex"), unknown.err);
  ok(unknown.err.includes("[QRY-E002]"), unknown.err);
});

Deno.test("deja handoff --to addresses the packet", async () => {
  const r = await deja(["handoff", "--to", "gemini"], "/home/dev/src/infra");
  ok(r.out.startsWith("# Handoff: "), r.out);
  ok(r.out.includes("for Gemini CLI"));
  // An alias names the agent; a name deja does not know is a usage error.
  const alias = await deja(
    ["handoff", "--to", "Claude"],
    "/home/dev/src/infra",
  );
  ok(alias.out.includes("for Claude Code"), alias.out);
  const bad = await deja(["handoff", "--to", "nope"], "/home/dev/src/infra");
  equal(bad.code, 64, bad.out);
  ok(bad.err.includes('Unknown harness "nope"'), bad.err);
});

Deno.test("deja handoff --to '' names the empty value, not an unknown harness", async () => {
  const r = await deja(["handoff", "--to", ""], "/home/dev/src/infra");
  equal(r.code, 64, r.out);
  ok(r.err.startsWith('error: --to "" names no agent: leave it out'), r.err);
  ok(r.err.includes("Usage: deja handoff"), r.err);
});

Deno.test("deja last lists recent sessions with resume commands", async () => {
  const r = await deja(["last", "3"]);
  equal(r.out.match(/^\d+\. /gm)?.length, 3);
  ok(r.out.includes("resume: "));
  equal((await deja(["last", "zero"])).code, 64);
  // --limit as search spells it, and a harness in any case or alias.
  const limited = await deja(["last", "--limit", "2", "--harness", "Claude"]);
  equal(limited.out.match(/^\d+\. /gm)?.length, 2, limited.out);
  ok(limited.out.includes("claude-code"), limited.out);
  equal((await deja(["last", "--harness", "clod"])).code, 64);
});

Deno.test("deja last names what is on file for the filter that matched nothing", async () => {
  const harness = await deja(["last", "--harness", "goose"]);
  equal(harness.code, 0, harness.err);
  ok(
    harness.out.startsWith(
      "No sessions of harness goose; harnesses on file: ",
    ),
    harness.out,
  );
  ok(harness.out.includes("codex") && !harness.out.includes("infra"));
  // The project is there; the harness is what excluded everything.
  const both = await deja(["last", "--project", "api", "--harness", "goose"]);
  ok(both.out.includes("; harnesses on file: "), both.out);
  ok(!both.out.includes("projects on file"), both.out);
  const project = await deja(["last", "--project", "nope"]);
  ok(
    project.out.startsWith('No sessions of project "nope"; projects on file: '),
    project.out,
  );
  ok(!project.out.includes("harnesses on file"), project.out);
});

Deno.test("deja last refuses a count and a --limit that disagree", async () => {
  const both = await deja(["last", "5", "--limit", "2"]);
  equal(both.code, 64, both.out);
  ok(both.err.includes("5 and --limit 2 disagree"), both.err);
  ok(both.err.includes("Usage: deja last"), both.err);
  const agreeing = await deja(["last", "2", "--limit", "2"]);
  equal(agreeing.out.match(/^\d+\. /gm)?.length, 2, agreeing.err);
  equal((await deja(["last", "--limit", "0"])).code, 64);
});

Deno.test("deja last names the argument at fault in a bad count", async () => {
  const limit = await deja(["last", "--limit", "0"]);
  ok(
    limit.err.startsWith('error: --limit "0" is not a positive whole number'),
    limit.err,
  );
  const n = await deja(["last", "zero"]);
  ok(
    n.err.startsWith('error: The count "zero" is not a positive whole number'),
    n.err,
  );
});

Deno.test("deja last with a count past 2^53 lists every session, not 'datatype mismatch'", async () => {
  for (
    const argv of [
      ["last", "99999999999999999999"],
      ["last", "--limit", "1e30", "--json"],
    ]
  ) {
    const r = await deja(argv);
    equal(r.code, 0, r.err);
    equal(r.err, "");
    ok(r.out.length > 0);
  }
});

Deno.test("work verbs say so when nothing is indexed", async () => {
  const io = captureIo({
    env: { HOME: "/nonexistent", DEJA_INDEX: "/nonexistent/index.db" },
    now: NOW,
  });
  equal(await run(["fix", "boom"], io, { keepPermissions: true }), 1);
  ok(io.err().includes("run deja index"));
});

Deno.test("deja show --role takes a comma list, as search does", async () => {
  const listed = await deja(["show", "3f2b8c1e", "--role", "command,edit"]);
  equal(listed.code, 0, listed.err);
  const repeated = await deja([
    "show",
    "3f2b8c1e",
    "--role",
    "command",
    "--role",
    "edit",
  ]);
  equal(listed.out, repeated.out);
  ok(listed.out.includes("── command"), listed.out);
});

function existsDir(path: string): boolean {
  try {
    return Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}
