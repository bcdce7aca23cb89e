import { deepEqual, equal, ok } from "node:assert/strict";
import { COMMAND_MODULES } from "../cli/commands.ts";
import { HARNESS_IDS } from "../src/core/harness_ids.ts";
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

Deno.test("an unknown command names the nearest one when it is a slip", async () => {
  const { run } = await import("../cli/mod.ts");
  const { captureIo } = await import("../src/core/io.ts");
  const cases: Array<[string, string]> = [
    ["serach", 'unknown command "serach": did you mean "search"?'],
    ["indx", 'unknown command "indx": did you mean "index"?'],
    ["xyzzy", 'unknown command "xyzzy"'],
  ];
  for (const [word, message] of cases) {
    const io = captureIo({ env: {}, now: 0 });
    equal(await run([word], io, { keepPermissions: true }), 64);
    equal(io.err().split("\n")[0], `error: ${message}`);
  }
});

Deno.test("help for a verb no command has is a usage error showing the help of the command before it", async () => {
  const { run } = await import("../cli/mod.ts");
  const { captureIo } = await import("../src/core/io.ts");
  const io = captureIo({ env: {}, now: 0 });
  equal(await run(["help", "loop", "nope"], io, { keepPermissions: true }), 64);
  equal(io.out(), "");
  equal(io.err().split("\n")[0], 'error: unknown command "loop nope"');
  ok(io.err().includes("Loop verbs:"), io.err());
  const known = captureIo({ env: {}, now: 0 });
  equal(
    await run(["help", "loop", "run"], known, { keepPermissions: true }),
    0,
  );
  ok(known.out().startsWith("deja loop run"), known.out());
});

Deno.test("deja help help and deja help --help print the overview", async () => {
  const { run } = await import("../cli/mod.ts");
  const { captureIo } = await import("../src/core/io.ts");
  for (const word of ["help", "--help", "-h"]) {
    const io = captureIo({ env: {}, now: 0 });
    equal(await run(["help", word], io, { keepPermissions: true }), 0);
    ok(io.out().startsWith("deja — "), io.out());
    equal(io.err(), "");
  }
});

Deno.test("--harness takes a comma list, as --role does", async () => {
  const { run } = await import("../cli/mod.ts");
  const { captureIo } = await import("../src/core/io.ts");
  const home = await Deno.makeTempDir();
  const env = { HOME: home, DEJA_INDEX: `${home}/index.db` };
  const io = captureIo({ env, now: 0 });
  equal(
    await run(["index", "--harness", "codex,Gemini", "--json", "--quiet"], io, {
      keepPermissions: true,
    }),
    0,
    io.err(),
  );
  deepEqual(Object.keys(JSON.parse(io.out()).harnesses), ["codex", "gemini"]);
  const search = captureIo({ env, now: 0 });
  equal(
    await run(["search", "redis", "--harness", "codex,claude"], search, {
      keepPermissions: true,
    }),
    0,
    search.err(),
  );
  const bad = captureIo({ env, now: 0 });
  equal(
    await run(["search", "redis", "--harness", "codex,nope"], bad, {
      keepPermissions: true,
    }),
    64,
  );
  ok(bad.err().startsWith('error: Unknown harness "nope"'), bad.err());
});

Deno.test("an empty filter (--role, --harness, --project, --session, --since) is a usage error naming it, in every command that takes it", async () => {
  const { run } = await import("../cli/mod.ts");
  const { captureIo } = await import("../src/core/io.ts");
  const home = await Deno.makeTempDir();
  const env = { HOME: home, DEJA_INDEX: `${home}/index.db` };
  const cases: Array<[string[], string, string]> = [
    [["search", "redis"], "role", ""],
    [["search", "redis"], "harness", ""],
    [["search", "redis"], "harness", ","],
    [["search", "redis"], "role", "user,,edit"],
    [["show", "3f2b"], "role", " "],
    [["last"], "harness", ""],
    [["last"], "harness", "codex,"],
    [["index", "--quiet"], "harness", ","],
    [["search", "redis"], "project", ""],
    [["search", "redis"], "session", " "],
    [["search", "redis"], "since", ""],
    [["last"], "project", ""],
    [["how", "run the tests"], "project", ""],
    [["fix", "ECONNREFUSED"], "project", " "],
    [["handoff"], "project", ""],
    [["files", "auth"], "project", ""],
  ];
  for (const [argv, option, value] of cases) {
    const io = captureIo({ env, now: 0 });
    const code = await run([...argv, `--${option}`, value], io, {
      keepPermissions: true,
    });
    const what = `${argv[0]} --${option} "${value}"`;
    equal(code, 64, `${what}: ${io.err()}`);
    ok(io.err().startsWith(`error: --${option} "${value}"`), io.err());
    ok(io.err().includes(`Usage: deja ${argv[0]}`), io.err());
  }
});

Deno.test("--help and -h after -- are words, not a request for help", async () => {
  const { run } = await import("../cli/mod.ts");
  const { captureIo } = await import("../src/core/io.ts");
  const home = await Deno.makeTempDir();
  const env = { HOME: home, DEJA_INDEX: `${home}/index.db` };
  for (const word of ["--help", "-h"]) {
    const io = captureIo({ env, now: 0 });
    equal(
      await run(["search", "--json", "--", word], io, {
        keepPermissions: true,
      }),
      0,
      io.err(),
    );
    equal(JSON.parse(io.out()).query, word);
    const asked = captureIo({ env, now: 0 });
    equal(await run(["search", word], asked, { keepPermissions: true }), 0);
    ok(asked.out().startsWith("deja search"), asked.out());
  }
});

Deno.test("search refuses a query over 8192 characters (as MCP does) before it is echoed into --json", async () => {
  const { run } = await import("../cli/mod.ts");
  const { captureIo } = await import("../src/core/io.ts");
  const home = await Deno.makeTempDir();
  const env = { HOME: home, DEJA_INDEX: `${home}/index.db` };
  const io = captureIo({ env, now: 0 });
  const code = await run(["search", "q".repeat(100_000), "--json"], io, {
    keepPermissions: true,
  });
  equal(code, 64, io.err());
  equal(io.out(), "");
  ok(
    io.err().startsWith(
      "error: The query is 100000 characters; the limit is 8192",
    ),
    io.err(),
  );
  ok(io.err().includes("Usage: deja search"), io.err());
  ok(io.err().length < 10_000, "the query is not echoed back");
});

Deno.test("a stray argument to a command that takes none is a usage error, not a whole pass", async () => {
  const { run } = await import("../cli/mod.ts");
  const { captureIo } = await import("../src/core/io.ts");
  const home = await Deno.makeTempDir();
  const env = { HOME: home, DEJA_INDEX: `${home}/index.db` };
  const cases: Array<[string[], string]> = [
    [["index", "codex"], 'index takes no arguments, got "codex"'],
    [["stats", "codex"], 'stats takes no arguments, got "codex"'],
    [["sources", "x"], 'sources takes no arguments, got "x"'],
    [
      ["loop", "list", "x", "--db", `${home}/m.db`],
      'loop list takes no arguments, got "x"',
    ],
    [["last", "3", "4"], 'last takes at most 1 argument; "4" is one too many'],
    [
      ["show", "ab", "cd"],
      'show takes at most 1 argument; "cd" is one too many',
    ],
  ];
  for (const [argv, message] of cases) {
    const io = captureIo({ env, now: 0 });
    equal(await run(argv, io, { keepPermissions: true }), 64, argv.join(" "));
    equal(io.err().split("\n")[0], `error: ${message}`);
    equal(io.err().includes("Usage: deja"), true);
  }
  // Nothing ran: no index was written.
  equal(
    await Deno.stat(`${home}/index.db`).then(() => true, () => false),
    false,
  );
  await Deno.remove(home, { recursive: true });
});

Deno.test("an option named like a member every object inherits is unknown, as any other", async () => {
  const { run } = await import("../cli/mod.ts");
  const { captureIo } = await import("../src/core/io.ts");
  const home = await Deno.makeTempDir();
  const env = { HOME: home, DEJA_INDEX: `${home}/index.db` };
  for (const flag of ["--constructor", "--toString=1", "--hasOwnProperty"]) {
    const io = captureIo({ env, now: 0 });
    equal(await run(["search", "x", flag], io, { keepPermissions: true }), 64);
    const name = flag.replace(/=.*/, "");
    equal(io.err().split("\n")[0], `error: Unknown option "${name}"`);
  }
  await Deno.remove(home, { recursive: true });
});
