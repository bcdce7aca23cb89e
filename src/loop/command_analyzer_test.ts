import { deepEqual, equal, ok, throws } from "node:assert/strict";
import { openMemory, parsePolicy } from "../memory/mod.ts";
import {
  parseAnalyzerCmd,
  probeCommandAnalyzer,
  runCommandAnalyzer,
} from "./command_analyzer.ts";
import { runLoop } from "./run_loop.ts";
import { FIXTURE_NOW, putFact } from "./_fixtures.ts";

const now = FIXTURE_NOW;
const examples = new URL("../../examples/analyzers/", import.meta.url).pathname;

function hasProgram(name: string): boolean {
  try {
    return new Deno.Command(name, {
      args: ["--version"],
      stdout: "null",
      stderr: "null",
    }).outputSync().success;
  } catch {
    return false;
  }
}

const hasPython = hasProgram("python3");
const hasNode = hasProgram("node");

function seeded() {
  const store = openMemory(":memory:", { now: () => now });
  putFact(store, "team-a", ["billing-api", "owner", "dana"], now - 3000);
  putFact(store, "team-b", ["billing-api", "owner", "dana"], now - 2000);
  putFact(store, "team-a", ["search", "owner", "lee"], now - 1000);
  return store;
}

async function script(
  dir: string,
  name: string,
  body: string,
): Promise<string> {
  const path = `${dir}/${name}`;
  await Deno.writeTextFile(path, body);
  return `node ${path}`;
}

Deno.test("parseAnalyzerCmd() needs id=command", () => {
  deepEqual(parseAnalyzerCmd("acme.x/1=node x.mjs --flag"), {
    id: "acme.x/1",
    command: "node x.mjs --flag",
  });
  throws(() => parseAnalyzerCmd("node x.mjs"), RangeError);
  throws(() => parseAnalyzerCmd("acme.x=node x.mjs"), /publisher.name\/1/);
  throws(() => parseAnalyzerCmd("acme.x/1="), /no command/);
});

for (
  const [lang, program, file, present] of [
    ["Python", "python3", "hello.py", hasPython],
    ["Node", "node", "hello.mjs", hasNode],
  ] as const
) {
  Deno.test({
    name: `the ${lang} example analyzer answers the manifest probe and the run`,
    ignore: !present,
    async fn() {
      const spec = {
        id: "example.hello/1",
        command: `${program} ${examples}${file}`,
      };
      const probe = await probeCommandAnalyzer(spec);
      ok(probe.ok, probe.ok ? "" : probe.reason);
      if (!probe.ok) return;
      equal(probe.analyzer.manifest.id, "example.hello/1");
      deepEqual(probe.analyzer.evidence.types, ["fact"]);
      equal(probe.analyzer.manifest.autoApply, "never");
      const store = seeded();
      const run = await runCommandAnalyzer(probe.analyzer, store, now);
      ok(run.ok, run.ok ? "" : run.reason);
      if (!run.ok) return;
      equal(run.drafts.length, 1);
      const d = run.drafts[0]!;
      equal(d.origin, "command");
      equal(d.analyzer, "example.hello/1");
      equal(d.family, "hello");
      equal(d.target_ref, "entity:billing-api/owner");
      equal(d.evidence.length, 2);
      store.close();
    },
  });
}

Deno.test({
  name:
    "runLoop() stores command drafts as command-origin and never auto-applies them",
  ignore: !hasNode,
  async fn() {
    const store = seeded();
    const policy = parsePolicy({
      auto_apply_enabled: true,
      auto_apply: [{
        analyzer: "example.hello",
        targets: ["memory"],
        max_severity: "critical",
      }],
    });
    const r = await runLoop(store, {
      only: ["example.hello/1"],
      policy,
      actor: "human:ops",
      commandAnalyzers: [{
        id: "example.hello/1",
        command: `node ${examples}hello.mjs`,
      }],
    }, now);
    deepEqual(r.analyzers_run, ["example.hello/1"]);
    equal(r.stored, 1);
    equal(r.auto_applied, 0);
    const [rec] = store.recommendations({ status: "pending" });
    equal(rec?.grain.origin, "command");
    equal(rec?.trigger_actor, "human:ops");
    store.close();
  },
});

Deno.test({
  name:
    "a command analyzer that hangs, prints bad JSON or lies about its id fails alone",
  ignore: !hasNode,
  async fn(t) {
    const dir = await Deno.makeTempDir();
    const manifest = (id: string) =>
      `const m = ${JSON.stringify({ id, evidence: { types: ["fact"] } })};`;
    const readAll =
      `let input = ""; process.stdin.on("data", (c) => (input += c)); process.stdin.on("end", () => main(JSON.parse(input.split("\\n")[0])));`;
    const hang = await script(
      dir,
      "hang.mjs",
      `${manifest("t.hang/1")} ${readAll}
      function main(req) { if (req.op === "manifest") console.log(JSON.stringify(m)); else setTimeout(() => {}, 60000); }`,
    );
    const bad = await script(
      dir,
      "bad.mjs",
      `${manifest("t.bad/1")} ${readAll}
      function main(req) { console.log(req.op === "manifest" ? JSON.stringify(m) : "{drafts: oops"); }`,
    );
    const liar = await script(
      dir,
      "liar.mjs",
      `${manifest("t.other/1")} ${readAll}
      function main() { console.log(JSON.stringify(m)); }`,
    );
    const crash = await script(
      dir,
      "crash.mjs",
      `${manifest("t.crash/1")} ${readAll}
      function main(req) { if (req.op === "manifest") console.log(JSON.stringify(m)); else { console.error("no luck"); process.exit(3); } }`,
    );
    const store = seeded();
    const cases: Array<[string, string, RegExp]> = [
      ["t.hang/1", hang, /^timeout after 5000 ms$/],
      ["t.bad/1", bad, /^bad JSON/],
      ["t.liar/1", liar, /manifest id "t.other\/1" does not match "t.liar\/1"/],
      ["t.crash/1", crash, /exited with code 3: no luck/],
      [
        "t.missing/1",
        "no-such-program-here",
        /manifest probe failed: cannot start/,
      ],
    ];
    for (const [id, command, reason] of cases) {
      await t.step(id, async () => {
        const started = performance.now();
        const r = await runLoop(store, {
          dryRun: true,
          // Generous enough for node to start on a 2-core machine loaded
          // by a whole parallel test run (2 s was not, once).
          analyzerTimeoutMs: 5000,
          commandAnalyzers: [{ id, command }, {
            id: "example.hello/1",
            command: `node ${examples}hello.mjs`,
          }],
        }, now);
        ok(performance.now() - started < 20_000);
        const skipped = r.analyzers_skipped.find((s) => s.id === id);
        ok(skipped && reason.test(skipped.reason), JSON.stringify(skipped));
        ok(r.analyzers_run.includes("example.hello/1"));
        ok(r.analyzers_run.includes("deja.contradiction_sweep/1"));
      });
    }
    store.close();
    await Deno.remove(dir, { recursive: true });
  },
});

Deno.test({
  name:
    "runCommandAnalyzer() drops drafts that cite unknown grains or break the schema",
  ignore: !hasNode,
  async fn() {
    const dir = await Deno.makeTempDir();
    const store = seeded();
    const known = store.byType("fact")[0]!.hash;
    const drafts = [
      {
        target_ref: "entity:x",
        action: "flag",
        template: { id: "t.x", args: { n: 1 } },
        evidence: [known, "f".repeat(64)],
        severity: "high",
      },
      {
        target_ref: "nonsense",
        action: "flag",
        template: { id: "t.x", args: {} },
        evidence: [],
      },
      {
        target_ref: "entity:y",
        action: "Drop Table",
        template: { id: "t.x", args: {} },
        evidence: [],
      },
      {
        target_ref: "entity:z",
        action: "flag",
        template: { id: "t.x", args: { nested: { a: 1 } } },
        evidence: [],
      },
      {
        target_ref: "entity:w",
        action: "forget",
        template: { id: "t.x", args: {} },
        evidence: [],
        proposal: {
          kind: "ops",
          ops: [{ op: "FORGET", target: "e".repeat(64) }],
        },
      },
    ];
    const cmd = await script(
      dir,
      "mixed.mjs",
      `
      let input = ""; process.stdin.on("data", (c) => (input += c));
      process.stdin.on("end", () => {
        const req = JSON.parse(input.split("\\n")[0]);
        console.log(JSON.stringify(req.op === "manifest" ? { id: "t.mixed/1", evidence: { types: ["fact"] } } : { drafts: ${
        JSON.stringify(drafts)
      } }));
      });`,
    );
    const probe = await probeCommandAnalyzer({ id: "t.mixed/1", command: cmd });
    if (!probe.ok) throw new Error(probe.reason);
    const r = await runCommandAnalyzer(probe.analyzer, store, now);
    if (!r.ok) throw new Error(r.reason);
    equal(r.drafts.length, 2);
    equal(r.dropped, 3);
    deepEqual(r.drafts[0]!.evidence, [known]);
    equal(r.drafts[1]!.proposal.kind, "host");
    store.close();
    await Deno.remove(dir, { recursive: true });
  },
});
