/**
 * The loop's review verbs, capture, import, init and notes through the CLI
 * dispatcher, in-process, on temp memory files.
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync, type SQLInputValue } from "node:sqlite";
import { run } from "../cli/mod.ts";
import { captureIo } from "../src/core/io.ts";
import { openMemory, type RecommendationDraft } from "../src/memory/mod.ts";
import { RUN_LOCK } from "../src/loop/mod.ts";

const NOW = Date.UTC(2026, 6, 1, 12);
const DAY = 86_400_000;

async function deja(
  argv: string[],
  now = NOW,
): Promise<{ code: number; out: string; err: string }> {
  const io = captureIo({ env: {}, cwd: "/", now });
  const code = await run(argv, io, { keepPermissions: true });
  return { code, out: io.out(), err: io.err() };
}

async function demoDb(): Promise<string> {
  const db = join(await Deno.makeTempDir(), "demo.db");
  const init = await deja(["init", "--db", db, "--template", "demo"]);
  equal(init.code, 0, init.err);
  const ran = await deja(["loop", "run", "--db", db, "--format", "json"]);
  equal(ran.code, 0, ran.err);
  return db;
}

interface Row {
  hash: string;
  short: string;
  analyzer: string;
  severity: string;
  status: string;
  destructive: boolean;
  action: string;
  target_ref: string;
}

async function list(db: string, ...extra: string[]): Promise<Row[]> {
  const r = await deja(["loop", "list", "--db", db, "--json", ...extra]);
  equal(r.code, 0, r.err);
  return JSON.parse(r.out) as Row[];
}

/** Runs a review verb that must be refused as tampering (LOOP-E008). */
async function refused(
  db: string,
  verb: string,
  hash: string,
  because: string,
  ...extra: string[]
): Promise<void> {
  const r = await deja([
    "loop",
    verb,
    hash,
    "--db",
    db,
    ...extra,
    "--because",
    because,
  ]);
  equal(r.code, 1, r.out);
  match(r.err, /LOOP-E008/);
}

/** Edits the memory file behind deja's back, as a tamperer would. */
function tamper(db: string, sql: string, ...params: SQLInputValue[]): void {
  const raw = new DatabaseSync(db);
  try {
    raw.prepare(sql).run(...params);
  } finally {
    raw.close();
  }
}

function recall(db: string): string[] {
  const store = openMemory(db, { readOnly: true, now: () => NOW });
  try {
    return store.recall({ limit: 1000 }).map((g) => g.hash).sort();
  } finally {
    store.close();
  }
}

Deno.test("init --dry-run prints the literal batch and writes nothing", async () => {
  const db = join(await Deno.makeTempDir(), "x.db");
  const r = await deja(["init", "--db", db, "--template", "demo", "--dry-run"]);
  equal(r.code, 0);
  match(r.out, /^ADD fact \{.*"deploy_target".*\}$/m);
  match(r.out, /^SUPERSEDE @cache WITH fact /m);
  let exists = true;
  try {
    Deno.statSync(db);
  } catch {
    exists = false;
  }
  equal(exists, false);
  const bad = await deja(["init", "--db", db, "--template", "nope"]);
  equal(bad.code, 64);
});

Deno.test("init --dry-run --json prints JSON (the counts a real run reports, and the batch), not the bare batch", async () => {
  const db = join(await Deno.makeTempDir(), "x.db");
  const dry = await deja([
    "init",
    "--db",
    db,
    "--template",
    "demo",
    "--dry-run",
    "--json",
  ]);
  equal(dry.code, 0, dry.err);
  const planned = JSON.parse(dry.out);
  equal(planned.dry_run, true);
  match(planned.batch, /^SUPERSEDE @cache WITH fact /m);
  const real = await deja(["init", "--db", db, "--template", "demo", "--json"]);
  const written = JSON.parse(real.out);
  deepEqual(
    [planned.db, planned.grains, planned.definitions, planned.config],
    [written.db, written.grains, written.definitions, written.config],
  );
});

Deno.test("init --template demo makes loop run fire at least five analyzers", async () => {
  const db = join(await Deno.makeTempDir(), "demo.db");
  equal((await deja(["init", "--db", db, "--template", "demo"])).code, 0);
  const again = await deja(["init", "--db", db, "--template", "demo"]);
  equal(again.code, 1);
  match(again.err, /MEM-E005/);
  const ran = await deja(["loop", "run", "--db", db, "--format", "json"]);
  const result = JSON.parse(ran.out);
  ok(result.stored >= 5, ran.out);
  const rows = await list(db);
  const analyzers = new Set(rows.map((r) => r.analyzer));
  ok(analyzers.size >= 5, [...analyzers].join(", "));
  for (const r of rows) equal(r.short.length, 12);
});

Deno.test("init on a memory file holding one grain says 1 grain, not 1 grains", async () => {
  const db = join(await Deno.makeTempDir(), "one.db");
  const note = await deja(["remember", "we pin redis", "--db", db]);
  equal(note.code, 0, note.err);
  const r = await deja(["init", "--db", db, "--template", "demo"]);
  equal(r.code, 1, r.out);
  ok(r.err.includes("already holds 1 grain:"), r.err);
});

Deno.test("loop list --fail-on exits 2 when a listed recommendation is severe enough", async () => {
  const db = await demoDb();
  const high = await deja([
    "loop",
    "list",
    "--db",
    db,
    "--status",
    "pending",
    "--fail-on",
    "high",
  ]);
  equal(high.code, 2, high.out);
  match(high.out, /tool_failure/);
  const critical = await deja([
    "loop",
    "list",
    "--db",
    db,
    "--fail-on",
    "critical",
  ]);
  equal(critical.code, 0);
  equal(
    (await deja(["loop", "list", "--db", db, "--fail-on", "urgent"])).code,
    64,
  );
});

Deno.test("loop list --limit takes a positive number; 0 is a usage error, not an empty queue", async () => {
  const db = await demoDb();
  equal((await list(db, "--limit", "2")).length, 2);
  for (const bad of ["0", "-1", "1.5", "abc"]) {
    const r = await deja(["loop", "list", "--db", db, "--limit", bad]);
    equal(r.code, 64, `${bad}: ${r.out}`);
    equal(
      r.err.split("\n")[0],
      `error: --limit "${bad}" is not a positive whole number`,
    );
    equal(r.out, "");
  }
});

Deno.test("loop show prints evidence, the literal proposal and a verified audit chain", async () => {
  const db = await demoDb();
  const rec = (await list(db)).find((r) =>
    r.analyzer === "deja.tool_failure/1"
  )!;
  const shown = await deja(["loop", "show", rec.short.slice(0, 8), "--db", db]);
  equal(shown.code, 0, shown.err);
  match(shown.out, /proposal \(literal\)\n {2}ADD fact /);
  match(shown.out, /evidence \(6\)/);
  match(shown.out, /chain_verified: true/);
  match(shown.out, /none → pending/);
  const json = JSON.parse(
    (await deja(["loop", "show", rec.hash, "--db", db, "--json"])).out,
  );
  equal(json.chain_verified, true);
  equal(json.evidence.length, 6);
});

Deno.test("hash prefixes: unknown and ambiguous prefixes are errors listing matches", async () => {
  const db = await demoDb();
  const unknown = await deja(["loop", "show", "ffffffffffff", "--db", db]);
  equal(unknown.code, 1);
  match(unknown.err, /MEM-E003/);
  const rows = await list(db, "--status", "all");
  const byFirst = new Map<string, number>();
  for (const r of rows) {
    byFirst.set(r.hash.slice(0, 2), (byFirst.get(r.hash.slice(0, 2)) ?? 0) + 1);
  }
  const shared = [...byFirst].find(([, n]) => n > 1)?.[0];
  if (shared) {
    const amb = await deja(["loop", "show", shared, "--db", db]);
    equal(amb.code, 1);
    match(amb.err, /ambiguous/);
  }
});

Deno.test("loop approve refuses self-approval by the creator and the triggering actor", async () => {
  const db = join(await Deno.makeTempDir(), "m.db");
  const store = openMemory(db, { now: () => NOW });
  const draft: RecommendationDraft = {
    analyzer: "acme.lint/1",
    params: {},
    family: "lint",
    target_ref: "host:ci",
    action: "flag",
    template: { id: "command.finding", args: { text: "flaky test" } },
    evidence: [],
    severity: "low",
    proposal: { kind: "host", data: { test: "checkout" } },
    origin: "command",
  };
  const { hash } = store.propose(draft, {
    actor: "agent:worker",
    trigger: "human:bob",
  });
  store.close();
  const self = await deja([
    "loop",
    "approve",
    hash.slice(0, 10),
    "--db",
    db,
    "--actor",
    "agent:worker",
    "--because",
    "looks right",
  ]);
  equal(self.code, 1);
  match(self.err, /self-approval is blocked.*LOOP-E003/);
  const trigger = await deja([
    "loop",
    "approve",
    hash.slice(0, 10),
    "--db",
    db,
    "--actor",
    "human:bob",
    "--because",
    "fine",
  ]);
  equal(trigger.code, 1);
  match(trigger.err, /LOOP-E003/);
  const writer = await deja([
    "loop",
    "approve",
    hash,
    "--db",
    db,
    "--actor",
    "agent:reviewer",
    "--scopes",
    "read,write",
    "--because",
    "x",
  ]);
  equal(writer.code, 1);
  match(writer.err, /"review" scope.*LOOP-E002/);
  const forged = await deja([
    "loop",
    "approve",
    hash,
    "--db",
    db,
    "--actor",
    "policy:auto",
    "--because",
    "x",
  ]);
  equal(forged.code, 64);
  const noReason = await deja([
    "loop",
    "approve",
    hash,
    "--db",
    db,
    "--actor",
    "human:alice",
  ]);
  equal(noReason.code, 64);
  match(noReason.err, /LOOP-E005/);
  // A blank reason is no reason either: the same usage error.
  const blankReason = await deja([
    "loop",
    "approve",
    hash,
    "--db",
    db,
    "--actor",
    "human:alice",
    "--because",
    "  ",
  ]);
  equal(blankReason.code, 64);
  match(blankReason.err, /LOOP-E005/);
  const ok1 = await deja([
    "loop",
    "approve",
    hash,
    "--db",
    db,
    "--actor",
    "human:alice",
    "--scopes",
    "review",
    "--because",
    "the checkout test flaked 4 times this week",
  ]);
  equal(ok1.code, 0, ok1.err);
  const marked = await deja([
    "loop",
    "mark-applied",
    hash,
    "--db",
    db,
    "--actor",
    "human:alice",
    "--because",
    "quarantined it in CI",
  ]);
  equal(marked.code, 0, marked.err);
});

Deno.test("loop approve --expect-version reports a lost compare-and-set race", async () => {
  const db = await demoDb();
  const rec = (await list(db))[0]!;
  const first = await deja([
    "loop",
    "approve",
    rec.hash,
    "--db",
    db,
    "--because",
    "first reviewer",
    "--expect-version",
    "1",
  ]);
  equal(first.code, 0, first.err);
  const second = await deja([
    "loop",
    "reject",
    rec.hash,
    "--db",
    db,
    "--because",
    "second reviewer",
    "--expect-version",
    "1",
  ]);
  equal(second.code, 1);
  match(second.err, /LOOP-E001/);
  const show = JSON.parse(
    (await deja(["loop", "show", rec.hash, "--db", db, "--json"])).out,
  );
  equal(show.status, "approved");
  equal(show.version, 2);
});

Deno.test("loop apply of a destructive recommendation needs admin and --allow-destructive", async () => {
  const db = await demoDb();
  const rec = (await list(db)).find((r) => r.destructive)!;
  ok(rec, "the demo has an expired fact to forget");
  const early = await deja([
    "loop",
    "apply",
    rec.hash,
    "--db",
    db,
    "--because",
    "skip review",
    "--allow-destructive",
  ]);
  equal(early.code, 1);
  match(early.err, /LOOP-E004/);
  equal(
    (await deja([
      "loop",
      "approve",
      rec.hash,
      "--db",
      db,
      "--actor",
      "human:alice",
      "--because",
      "the promo ended",
    ])).code,
    0,
  );
  const noAdmin = await deja([
    "loop",
    "apply",
    rec.hash,
    "--db",
    db,
    "--actor",
    "human:carol",
    "--scopes",
    "apply,write",
    "--allow-destructive",
    "--because",
    "clean up",
  ]);
  equal(noAdmin.code, 1);
  match(noAdmin.err, /"admin" scope.*LOOP-E002/);
  const noFlag = await deja([
    "loop",
    "apply",
    rec.hash,
    "--db",
    db,
    "--actor",
    "human:carol",
    "--because",
    "clean up",
  ]);
  equal(noFlag.code, 1);
  match(noFlag.err, /--allow-destructive.*LOOP-E002/);
  const done = await deja([
    "loop",
    "apply",
    rec.hash,
    "--db",
    db,
    "--actor",
    "human:carol",
    "--allow-destructive",
    "--because",
    "clean up",
  ]);
  equal(done.code, 0, done.err);
  ok(!done.out.includes("undo with"), done.out);
  ok(done.out.includes("it cannot be rolled back"), done.out);
  const back = await deja([
    "loop",
    "rollback",
    rec.hash,
    "--db",
    db,
    "--because",
    "oops",
  ]);
  equal(back.code, 1);
  match(back.err, /non-rollbackable.*LOOP-E004/);
});

Deno.test("loop apply then rollback leaves recall exactly as before the apply", async () => {
  const db = await demoDb();
  const rows = await list(db);
  for (
    const analyzer of [
      "deja.duplicate_sweep/1",
      "deja.contradiction_sweep/1",
      "deja.fork_surfacing/1",
      "deja.tool_failure/1",
    ]
  ) {
    const rec = rows.find((r) => r.analyzer === analyzer);
    if (!rec) continue;
    const before = recall(db);
    equal(
      (await deja([
        "loop",
        "approve",
        rec.hash,
        "--db",
        db,
        "--actor",
        "human:alice",
        "--because",
        "reviewed",
      ])).code,
      0,
    );
    const applied = await deja([
      "loop",
      "apply",
      rec.hash,
      "--db",
      db,
      "--actor",
      "human:alice",
      "--because",
      "consolidate",
    ]);
    equal(applied.code, 0, applied.err);
    const during = recall(db);
    ok(
      JSON.stringify(during) !== JSON.stringify(before),
      `${analyzer}: the apply changed recall`,
    );
    const rolled = await deja([
      "loop",
      "rollback",
      rec.hash,
      "--db",
      db,
      "--actor",
      "human:alice",
      "--because",
      "wrong call",
    ]);
    equal(rolled.code, 0, rolled.err);
    deepEqual(
      recall(db),
      before,
      `${analyzer}: recall after rollback equals recall before apply`,
    );
  }
  const verify = await deja(["loop", "audit", "verify", "--db", db]);
  equal(verify.code, 0, verify.out + verify.err);
});

Deno.test("loop show says what a rollback reverted, not that it wrote it", async () => {
  const db = await demoDb();
  const rec = (await list(db)).find((r) =>
    r.analyzer === "deja.contradiction_sweep/1"
  );
  ok(rec);
  for (const verb of ["approve", "apply", "rollback"]) {
    const r = await deja([
      "loop",
      verb,
      rec.hash,
      "--db",
      db,
      "--actor",
      "human:alice",
      "--because",
      `${verb} it`,
    ]);
    equal(r.code, 0, r.err);
  }
  const show = await deja(["loop", "show", rec.hash, "--db", db]);
  equal(show.code, 0, show.err);
  const lines = show.out.split("\n");
  const at = lines.findIndex((l) => l.includes("applied → rolled_back"));
  ok(at > 0, show.out);
  match(lines[at + 1] ?? "", /^\s+reverted [0-9a-f]{12}/, show.out);
  match(lines[at - 1] ?? "", /^\s+wrote [0-9a-f]{12}/, show.out);
});

Deno.test("loop audit verify and loop show detect a tampered audit row", async () => {
  const db = await demoDb();
  const rec = (await list(db))[0]!;
  equal(
    (await deja([
      "loop",
      "approve",
      rec.hash,
      "--db",
      db,
      "--because",
      "looks right",
    ])).code,
    0,
  );
  equal(
    (await deja(["loop", "audit", "verify", rec.short, "--db", db])).code,
    0,
  );
  // A prefix that names no recommendation is bad input, not a broken chain.
  for (const bad of ["zzzz", "0000000000"]) {
    const r = await deja(["loop", "audit", "verify", bad, "--db", db]);
    equal(r.code, 64, r.err);
    ok(r.err.includes("[MEM-E003]"), r.err);
  }
  const raw = new DatabaseSync(db);
  const { audit_head } = raw.prepare(
    "SELECT audit_head FROM rec_status WHERE hash = ?",
  ).get(rec.hash) as { audit_head: string };
  raw.prepare(
    "UPDATE grains SET body = replace(body, 'looks right', 'rubber stamp') WHERE hash = ?",
  ).run(audit_head);
  raw.close();
  const verify = await deja(["loop", "audit", "verify", "--db", db]);
  equal(verify.code, 1);
  match(
    verify.out,
    new RegExp(`${rec.short}  BROKEN at ${audit_head.slice(0, 12)}`),
  );
  match(verify.err, /LOOP-E008/);
  const shown = await deja(["loop", "show", rec.hash, "--db", db]);
  match(shown.out, /chain_verified: false/);
});

Deno.test("loop audit verify notices an edited actor column and an edited status version", async (t) => {
  const actor = "UPDATE grains SET actor = 'human:mallory' WHERE hash = ?";
  const version = "UPDATE rec_status SET version = version + 5 WHERE hash = ?";
  const cases: Array<[string, string, "head" | "rec", string]> = [
    ["the actor column of an audit row", actor, "head", "actor column"],
    ["the actor column of the recommendation", actor, "rec", "actor column"],
    ["the status version", version, "rec", "stored version 7"],
  ];
  for (const [name, sql, row, words] of cases) {
    await t.step(name, async () => {
      const db = await demoDb();
      const rec = (await list(db))[0]!;
      const approve = await deja([
        "loop",
        "approve",
        rec.hash,
        "--db",
        db,
        "--because",
        "looks right",
      ]);
      equal(approve.code, 0, approve.err);
      const verify = () =>
        deja(["loop", "audit", "verify", rec.short, "--db", db, "--json"]);
      equal((await verify()).code, 0);
      const raw = new DatabaseSync(db);
      const { audit_head } = raw.prepare(
        "SELECT audit_head FROM rec_status WHERE hash = ?",
      ).get(rec.hash) as { audit_head: string };
      raw.close();
      tamper(db, sql, row === "head" ? audit_head : rec.hash);
      const broken = await verify();
      equal(broken.code, 1, broken.out);
      ok(broken.out.includes(words), broken.out);
    });
  }
});

Deno.test("loop list shows expired recommendations once valid_to passes", async () => {
  const db = await demoDb();
  const pending = await list(db);
  const later = NOW + 31 * DAY;
  const r = await deja([
    "loop",
    "list",
    "--db",
    db,
    "--status",
    "expired",
    "--json",
  ], later);
  equal(r.code, 0);
  equal(JSON.parse(r.out).length, pending.length);
  const approve = await deja([
    "loop",
    "approve",
    pending[0]!.hash,
    "--db",
    db,
    "--because",
    "late",
  ], later);
  equal(approve.code, 1);
  match(approve.err, /expired.*LOOP-E004/);
});

Deno.test("a second concurrent loop run skips with lock_held and exits 0", async () => {
  const db = join(await Deno.makeTempDir(), "m.db");
  equal((await deja(["init", "--db", db, "--template", "demo"])).code, 0);
  const holder = openMemory(db, { now: () => NOW });
  const lock = holder.lock(RUN_LOCK, { now: NOW });
  ok(lock);
  try {
    const r = await deja(["loop", "run", "--db", db, "--format", "json"]);
    equal(r.code, 0, r.err);
    const result = JSON.parse(r.out);
    equal(result.outcome, "skipped");
    equal(result.skip_reason, "lock_held");
    ok(typeof result.duration_ms === "number");
  } finally {
    lock.release();
    holder.close();
  }
  const after = JSON.parse(
    (await deja(["loop", "run", "--db", db, "--format", "json"])).out,
  );
  equal(after.outcome, "ran");
});

Deno.test("capture tool-call and import --format tool-log feed the tool-failure analyzer", async () => {
  const dir = await Deno.makeTempDir();
  const db = join(dir, "agent.db");
  for (let i = 0; i < 3; i++) {
    const r = await deja([
      "capture",
      "tool-call",
      "--db",
      db,
      "--tool",
      "stripe_refund",
      "--error",
      "--result",
      '{"error":"rate_limited"}',
      "--thread",
      "s1",
    ]);
    equal(r.code, 0, r.err);
  }
  equal((await deja(["capture", "tool-call", "--db", db])).code, 64);
  const log = join(dir, "history.jsonl");
  await Deno.writeTextFile(
    log,
    [
      {
        role: "assistant",
        tool_calls: [{
          id: "c1",
          type: "function",
          function: { name: "stripe_refund", arguments: '{"order":9}' },
        }],
      },
      { role: "tool", tool_call_id: "c1", content: '{"error":"rate_limited"}' },
      {
        role: "assistant",
        tool_calls: [{
          id: "c2",
          type: "function",
          function: { name: "stripe_refund", arguments: '{"order":10}' },
        }],
      },
      { role: "tool", tool_call_id: "c2", content: '{"refund":"re_1"}' },
    ].map((l) => JSON.stringify(l)).join("\n") + "\n",
  );
  const importLog = ["import", "--format", "tool-log", log, "--db", db];
  const imported = await deja([...importLog, "--json"]);
  equal(imported.code, 0, imported.err);
  equal(JSON.parse(imported.out)[0].stored, 2);
  equal(JSON.parse((await deja([...importLog, "--json"])).out)[0].stored, 0);
  match(
    (await deja(importLog)).out,
    /: 2 tool calls \(\d+ failed\) — 0 stored, 2 already imported, 0 lines skipped\n$/,
  );
  equal((await deja(["import", log, "--db", db])).code, 64);
  const ran = JSON.parse(
    (await deja(["loop", "run", "--db", db, "--format", "json"])).out,
  );
  ok(ran.analyzers_run.includes("deja.tool_failure/1"));
  ok((await list(db)).some((r) => r.analyzer === "deja.tool_failure/1"));
});

Deno.test("import names a file it cannot read before it opens or writes the memory file", async () => {
  const dir = await Deno.makeTempDir();
  const db = join(dir, "agent.db");
  const log = join(dir, "history.jsonl");
  await Deno.writeTextFile(
    log,
    JSON.stringify({
      tool: "x",
      input: {},
      result: "Error: boom",
      is_error: true,
    }) +
      "\n",
  );
  for (const bad of [join(dir, "missing.jsonl"), dir]) {
    const r = await deja([
      "import",
      "--format",
      "tool-log",
      log,
      bad,
      "--db",
      db,
    ]);
    equal(r.code, 64, r.err);
    ok(r.err.startsWith(`error: `) && r.err.includes(`"${bad}"`), r.err);
    equal(r.out, "", "nothing was imported from the first file");
    equal(
      await Deno.stat(db).then(() => true, () => false),
      false,
      "no memory file was made",
    );
  }
});

Deno.test("import - reads the tool log from standard input", async () => {
  const dir = await Deno.makeTempDir();
  const db = join(dir, "agent.db");
  const lines = [
    { tool: "kubectl", input: "get pods", result: "Error: no context" },
    { tool: "kubectl", input: "get ns", result: "default" },
  ].map((l) => JSON.stringify(l)).join("\n");
  const importStdin = async (argv: string[]) => {
    const io = captureIo({ env: {}, cwd: "/", now: NOW, stdin: lines });
    const code = await run(argv, io, { keepPermissions: true });
    return { code, out: io.out(), err: io.err() };
  };
  const argv = ["import", "--format", "tool-log", "-", "--db", db];
  const first = await importStdin([...argv, "--json"]);
  equal(first.code, 0, first.err);
  const [report] = JSON.parse(first.out);
  equal(report.file, "-");
  equal(report.calls, 2);
  equal(report.stored, 2);
  equal(report.errors, 1);
  match(
    (await importStdin(argv)).out,
    /^standard input: 2 tool calls \(1 failed\) — 0 stored, 2 already imported/,
  );
  equal((await importStdin([...argv, "-"])).code, 64);
});

Deno.test("import names the .zst file that is not zstd data", async () => {
  const dir = await Deno.makeTempDir();
  const bad = join(dir, "history.jsonl.zst");
  await Deno.writeTextFile(bad, "plain text, not zstd\n");
  const r = await deja([
    "import",
    "--format",
    "tool-log",
    bad,
    "--db",
    join(dir, "agent.db"),
  ]);
  equal(r.code, 1, r.err);
  equal(
    r.err,
    `error: Cannot import "${bad}": Not zstd data (no zstd frame at its start)\n`,
  );
});

/** `setpriv` drops root's right to write any file, so a mode bit binds root too. */
const SETPRIV = ["/usr/bin/setpriv", "/bin/setpriv"].find((p) => {
  try {
    return Deno.statSync(p).isFile;
  } catch {
    return false;
  }
});

/** Runs deja in a child that mode bits bind, even under root, with HOME set. */
async function unprivileged(
  argv: string[],
  home: string,
): Promise<{ code: number; out: string; err: string }> {
  const main = new URL("../main.ts", import.meta.url).pathname;
  const cmd = [Deno.execPath(), "run", "-A", main, ...argv];
  const [program, ...args] = Deno.uid() === 0
    ? [SETPRIV!, "--bounding-set=-dac_override,-dac_read_search", ...cmd]
    : cmd;
  const out = await new Deno.Command(program!, {
    args,
    env: { HOME: home },
    stdout: "piped",
    stderr: "piped",
  }).output();
  return {
    code: out.code,
    out: new TextDecoder().decode(out.stdout),
    err: new TextDecoder().decode(out.stderr),
  };
}

Deno.test({
  name: "a memory file deja may not write is named on a write, and still reads",
  ignore: Deno.uid() === 0 && SETPRIV === undefined,
  fn: async () => {
    const dir = await Deno.makeTempDir();
    const db = join(dir, "m.db");
    const kept = await deja([
      "remember",
      "pin redis to 7.2",
      "--project",
      "api",
      "--db",
      db,
    ]);
    equal(kept.code, 0, kept.err);
    await Deno.chmod(db, 0o444);
    const as = (argv: string[]) => unprivileged(argv, dir);
    const wrote = await as(["capture", "tool-call", "--tool", "x", "--db", db]);
    equal(wrote.code, 1, wrote.err);
    ok(
      wrote.err.startsWith(`error: Cannot write memory file "${db}"`),
      wrote.err,
    );
    ok(wrote.err.trimEnd().endsWith("[MEM-E001]"), wrote.err);
    const read = await as(["remember", "--list", "--db", db]);
    equal(read.code, 0, read.err);
    ok(read.out.includes("pin redis to 7.2"), read.out);
  },
});

Deno.test({
  name:
    "remember --list on a memory file deja may not read says it cannot read it",
  ignore: Deno.uid() === 0 && SETPRIV === undefined,
  fn: async () => {
    const dir = await Deno.makeTempDir();
    const db = join(dir, "m.db");
    const kept = await deja(["remember", "pin redis to 7.2", "--db", db]);
    equal(kept.code, 0, kept.err);
    await Deno.chmod(db, 0o000);
    const read = await unprivileged(["remember", "--list", "--db", db], dir);
    equal(read.code, 1, read.err);
    ok(
      read.err.startsWith(`error: Cannot read memory file "${db}"`),
      read.err,
    );
    ok(read.err.trimEnd().endsWith("[MEM-E001]"), read.err);
  },
});

Deno.test("remember, promote and remember --list manage notes", async () => {
  const db = join(await Deno.makeTempDir(), "m.db");
  const r = await deja([
    "remember",
    "we pin redis to 7.2",
    "--project",
    "api",
    "--db",
    db,
    "--json",
  ]);
  equal(r.code, 0, r.err);
  const { hash } = JSON.parse(r.out);
  const p = await deja([
    "promote",
    hash.slice(0, 8),
    "--state",
    "stale",
    "--db",
    db,
  ]);
  equal(p.code, 0, p.err);
  const listed = await deja(["remember", "--list", "--db", db]);
  match(
    listed.out,
    /^api\n {2}2026-07-01\n {4}[0-9a-f]{12} {2}\[stale\] {2}we pin redis to 7\.2$/m,
  );
  equal(
    (await deja(["promote", hash, "--state", "bogus", "--db", db])).code,
    64,
  );
});

Deno.test("remember --list on a memory file that is not there lists nothing and creates no file", async () => {
  const db = join(await Deno.makeTempDir(), "typo.db");
  const text = await deja(["remember", "--list", "--db", db]);
  equal(text.code, 0, text.err);
  equal(text.out, 'No notes yet: deja remember "…" --project P\n');
  const json = await deja(["remember", "--list", "--db", db, "--json"]);
  equal(json.out.trim(), "[]");
  let made = true;
  try {
    Deno.statSync(db);
  } catch {
    made = false;
  }
  equal(made, false, "a listing made a new memory file");
});

Deno.test("remember --list names the filter that left every note out instead of saying there are none", async () => {
  const db = join(await Deno.makeTempDir(), "m.db");
  const empty = await deja(["remember", "--list", "--db", db]);
  equal(empty.out, 'No notes yet: deja remember "…" --project P\n');
  const kept = await deja([
    "remember",
    "we use pnpm",
    "--project",
    "api",
    "--db",
    db,
  ]);
  equal(kept.code, 0, kept.err);
  const byProject = await deja([
    "remember",
    "--list",
    "--project",
    "web",
    "--db",
    db,
  ]);
  equal(
    byProject.out,
    'No notes in project "web"; the file holds 1 current note (deja remember --list shows them all)\n',
  );
  const byState = await deja([
    "remember",
    "--list",
    "--state",
    "proposed",
    "--db",
    db,
  ]);
  equal(
    byState.out,
    "No proposed notes; the file holds 1 current note (deja remember --list shows them all)\n",
  );
});

Deno.test("loop config-export and config-import round-trip analyzer settings", async () => {
  const dir = await Deno.makeTempDir();
  const a = join(dir, "a.db");
  const b = join(dir, "b.db");
  equal(
    (await deja(["init", "--db", a, "--template", "coding-agent"])).code,
    0,
  );
  equal((await deja(["init", "--db", b])).code, 0);
  const exported = await deja(["loop", "config-export", "--db", a]);
  equal(exported.code, 0);
  const file = join(dir, "cfg.json");
  await Deno.writeTextFile(file, exported.out);
  const imported = await deja(["loop", "config-import", file, "--db", b]);
  equal(imported.code, 0, imported.err);
  deepEqual(
    JSON.parse((await deja(["loop", "config-export", "--db", b])).out),
    JSON.parse(exported.out),
  );
});

Deno.test("loop config-import refuses an unknown key as a usage error naming the file and the key", async () => {
  const dir = await Deno.makeTempDir();
  const db = join(dir, "m.db");
  equal((await deja(["init", "--db", db])).code, 0);
  const file = join(dir, "cfg.json");
  // A usage error (64) as a file that is no JSON is, where it was 1.
  for (
    const [config, key] of [
      [{ deja_loop_config: 1, auto_apply: true }, "auto_apply"],
      [{ deja_loop_config: 1, analyzers: { "x/1": { grant: 1 } } }, "grant"],
    ] as const
  ) {
    await Deno.writeTextFile(file, JSON.stringify(config));
    const r = await deja(["loop", "config-import", file, "--db", db]);
    equal(r.code, 64, r.err);
    ok(r.err.includes(`unknown key "${key}"`), r.err);
    ok(r.err.includes(`"${file}"`), r.err);
    ok(r.err.includes("[LOOP-E010]"), r.err);
    ok(r.err.includes("Usage: deja loop config-import"), r.err);
  }
  await Deno.writeTextFile(file, "{bad");
  equal((await deja(["loop", "config-import", file, "--db", db])).code, 64);
});

Deno.test("bare loop prints the health report", async () => {
  const db = await demoDb();
  const r = await deja(["loop", "--db", db]);
  equal(r.code, 0, r.err);
  match(r.out, /^Memory health/);
  match(r.out, /deja\.goal_stagnation\/1 +off +off by default/);
  match(r.out, /Recommendations {2}pending \d+/);
  const json = JSON.parse((await deja(["loop", "--db", db, "--json"])).out);
  ok(json.recommendations.pending >= 5);
  equal((await deja(["loop", "frobnicate", "--db", db])).code, 64);
});

Deno.test("bare loop counts one new grain and one failed tool call in the singular", async () => {
  const db = join(await Deno.makeTempDir(), "one.db");
  const store = openMemory(db, { now: () => NOW });
  store.put({
    type: "event",
    namespace: "ops",
    created_at: NOW,
    actor: "agent:x",
    tool: "bash",
    is_error: true,
  });
  store.close();
  const r = await deja(["loop", "--db", db]);
  equal(r.code, 0, r.err);
  ok(
    r.out.includes("since then 1 new grain, 1 new failed tool call\n"),
    r.out,
  );
});

Deno.test("loop approve refuses the actor who triggered the run that proposed it", async () => {
  const db = join(await Deno.makeTempDir(), "demo.db");
  equal((await deja(["init", "--db", db, "--template", "demo"])).code, 0);
  const ran = await deja(["loop", "run", "--db", db, "--actor", "user:carol"]);
  equal(ran.code, 0, ran.err);
  const rec = (await list(db))[0]!;
  const self = await deja([
    "loop",
    "approve",
    rec.hash,
    "--db",
    db,
    "--actor",
    "user:carol",
    "--because",
    "mine",
  ]);
  equal(self.code, 1);
  match(self.err, /LOOP-E003/);
  const other = await deja([
    "loop",
    "approve",
    rec.hash,
    "--db",
    db,
    "--actor",
    "user:dan",
    "--because",
    "reviewed",
  ]);
  equal(other.code, 0, other.err);
});

Deno.test("loop apply refuses a recommendation whose status row was edited outside deja", async () => {
  const db = await demoDb();
  const rec = (await list(db))[0]!;
  tamper(
    db,
    "UPDATE rec_status SET status = 'approved' WHERE hash = ?",
    rec.hash,
  );
  await refused(db, "apply", rec.hash, "skipping review");
});

Deno.test("loop rollback refuses an inverse edited outside deja, and audit verify names it", async () => {
  const db = await demoDb();
  const rec = (await list(db)).find((r) =>
    r.analyzer === "deja.contradiction_sweep/1"
  )!;
  for (const verb of ["approve", "apply"]) {
    const r = await deja([
      "loop",
      verb,
      rec.hash,
      "--db",
      db,
      "--actor",
      "human:alice",
      "--because",
      "reviewed",
    ]);
    equal(r.code, 0, r.err);
  }
  const victim = recall(db).find((h) => !h.startsWith(rec.hash))!;
  tamper(
    db,
    "UPDATE rec_status SET inverse = ? WHERE hash = ?",
    JSON.stringify([{ step: "tombstone", hash: victim }]),
    rec.hash,
  );
  const verify = await deja(["loop", "audit", "verify", rec.hash, "--db", db]);
  equal(verify.code, 1, verify.out);
  match(verify.out, /inverse/);
  await refused(db, "rollback", rec.hash, "undo");
  ok(recall(db).includes(victim), "the unrelated grain is still recalled");
});

Deno.test("loop apply refuses a destructive recommendation whose flags were cleared outside deja", async () => {
  const db = await demoDb();
  const rec = (await list(db)).find((r) => r.destructive)!;
  tamper(
    db,
    "UPDATE rec_status SET destructive = 0, rollbackable = 1 WHERE hash = ?",
    rec.hash,
  );
  const verify = await deja(["loop", "audit", "verify", rec.hash, "--db", db]);
  equal(verify.code, 1, verify.out);
  match(verify.out, /destructive/);
  await refused(db, "approve", rec.hash, "looks harmless now");
});

Deno.test("loop approve still blocks the triggering actor after its name was erased from the status row", async () => {
  const db = join(await Deno.makeTempDir(), "demo.db");
  equal((await deja(["init", "--db", db, "--template", "demo"])).code, 0);
  const ran = await deja(["loop", "run", "--db", db, "--actor", "user:carol"]);
  equal(ran.code, 0, ran.err);
  const rec = (await list(db))[0]!;
  tamper(
    db,
    "UPDATE rec_status SET trigger_actor = NULL WHERE hash = ?",
    rec.hash,
  );
  const self = await deja([
    "loop",
    "approve",
    rec.hash,
    "--db",
    db,
    "--actor",
    "user:carol",
    "--because",
    "my own run, looks fine",
  ]);
  equal(self.code, 1, self.out);
  match(self.err, /LOOP-E00[38]/);
});

Deno.test("loop run, list and show never send a captured tool's control characters to the terminal", async () => {
  const db = join(await Deno.makeTempDir(), "esc.db");
  const tool = "dep\x1b]0;pwned\x07loy";
  for (const thread of ["a", "b", "c"]) {
    const r = await deja([
      "capture",
      "tool-call",
      "--db",
      db,
      "--tool",
      tool,
      "--error",
      "--result",
      "boom",
      "--thread",
      thread,
    ]);
    equal(r.code, 0, r.err);
  }
  const ran = await deja(["loop", "run", "--db", db]);
  const listed = await deja(["loop", "list", "--db", db]);
  const rec = (await list(db))[0]!;
  const rejected = await deja([
    "loop",
    "reject",
    rec.hash,
    "--db",
    db,
    "--because",
    "noise\x1b[2J\r",
  ]);
  const shown = await deja(["loop", "show", rec.hash, "--db", db]);
  for (const r of [ran, listed, rejected, shown]) {
    equal(r.code, 0, r.err);
    ok(
      ![...r.out].some((c) => c < " " && c !== "\n" && c !== "\t"),
      JSON.stringify(r.out),
    );
  }
  ok(shown.out.includes("dep␛]0;pwned␇loy"), shown.out);
  ok(shown.out.includes("noise␛[2J"), shown.out);
  equal(
    JSON.parse(
      (await deja(["loop", "list", "--db", db, "--json", "--status", "all"]))
        .out,
    )[0].summary.includes(tool),
    true,
  );
});

Deno.test("remember --list never sends a note's control characters to the terminal", async () => {
  const db = join(await Deno.makeTempDir(), "notes.db");
  const stored = await deja([
    "remember",
    "pin redis\x1b]0;pwned\x07 to 7.2",
    "--project",
    "api",
    "--db",
    db,
  ]);
  equal(stored.code, 0, stored.err);
  const listed = await deja([
    "remember",
    "--list",
    "--project",
    "api",
    "--db",
    db,
  ]);
  equal(listed.code, 0, listed.err);
  ok(listed.out.includes("pin redis␛]0;pwned␇ to 7.2"), listed.out);
});

Deno.test("a --db in a folder that does not exist is a usage error; nothing is created", async () => {
  const base = await Deno.makeTempDir();
  const db = join(base, "typo-folder", "memory.db");
  for (
    const argv of [
      ["loop", "run", "--db", db],
      ["remember", "--list", "--db", db],
      ["loop", "list", "--db", db],
    ]
  ) {
    const r = await deja(argv);
    equal(r.code, 64, `${argv.join(" ")}: ${r.err}`);
    match(r.err, /typo-folder" does not exist/);
  }
  equal(await Deno.stat(join(base, "typo-folder")).catch(() => null), null);
  // A new file in a folder that is there is still made on first use.
  const fresh = await deja(["loop", "run", "--db", join(base, "new.db")]);
  equal(fresh.code, 0, fresh.err);
  await Deno.remove(base, { recursive: true });
});

Deno.test("an empty --db (an unset variable in a script) is a usage error naming --db", async () => {
  for (
    const argv of [["loop", "list", "--db", ""], ["remember", "x", "--db", " "]]
  ) {
    const r = await deja(argv);
    equal(r.code, 64, `${argv.join(" ")}: ${r.err}`);
    match(r.err, /^error: --db needs a file path/);
  }
});

Deno.test("a --db inside a file says the file is no folder, not that it does not exist", async () => {
  const base = await Deno.makeTempDir();
  const file = join(base, "memory.db");
  await Deno.writeTextFile(file, "");
  const r = await deja(["loop", "list", "--db", join(file, "m.db")]);
  equal(r.code, 64, r.err);
  match(r.err, /memory\.db" is a file, not a folder/);
  await Deno.remove(base, { recursive: true });
});

Deno.test("loop enable, disable and set print the stored config with --json", async () => {
  const db = join(await Deno.makeTempDir(), "memory.db");
  const off = await deja([
    "loop",
    "disable",
    "tool_failure",
    "--db",
    db,
    "--json",
  ]);
  equal(off.code, 0, off.err);
  const disabled = JSON.parse(off.out);
  equal(disabled.enabled, false);
  match(disabled.analyzer, /tool_failure/);
  const set = await deja([
    "loop",
    "set",
    "tool_failure.min_count=5",
    "--db",
    db,
    "--json",
  ]);
  equal(set.code, 0, set.err);
  const [config] = JSON.parse(set.out);
  equal(config.params.min_count, 5);
  equal(config.enabled, false);
  const on = await deja(["loop", "enable", "tool_failure", "--db", db]);
  equal(on.code, 0, on.err);
  match(on.out, /enabled/);
});
