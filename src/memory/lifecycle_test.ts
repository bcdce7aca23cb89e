import { deepEqual, equal, ok, throws } from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { DejaError } from "../core/errors.ts";
import { sha256Hex } from "../core/hash.ts";
import { openMemory } from "./open_memory.ts";
import type { MemoryStore } from "./memory_store.ts";
import { parsePolicy } from "./policy.ts";
import { verifyAuditChain } from "./verify_audit_chain.ts";
import type { FactGrain, Op, Proposal, RecommendationDraft } from "./types.ts";

const DAY = 86_400_000;
const T0 = 1_700_000_000_000;

function fact(
  subject: string,
  relation: string,
  object: string,
  at = T0 - 1000,
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

function draft(
  over: Partial<RecommendationDraft> = {},
  ops: Op[] = [],
): RecommendationDraft {
  return {
    analyzer: "deja.duplicate_sweep/1",
    params: {},
    family: "duplicate_sweep",
    target_ref: "entity:t/acme",
    action: "consolidate",
    template: { id: "duplicate.exact", args: { subject: "acme" } },
    evidence: [],
    severity: "low",
    proposal: { kind: "ops", ops },
    origin: "analyzer",
    ...over,
  };
}

function code(c: string): (e: unknown) => boolean {
  return (e: unknown) => e instanceof DejaError && e.code === c;
}

const ENGINE = "engine:deja.duplicate_sweep/1";
const ALICE = { actor: "human:alice", because: "checked the evidence" };

function setup(): { store: MemoryStore; clock: { now: number } } {
  const clock = { now: T0 };
  const store = openMemory(":memory:", { now: () => clock.now });
  return { store, clock };
}

Deno.test("propose() stores a pending recommendation with an audit grain", () => {
  const { store } = setup();
  const r = store.propose(draft(), { actor: ENGINE });
  equal(r.deduped, false);
  const v = store.recommendation(r.hash);
  equal(v?.status, "pending");
  equal(v?.version, 1);
  equal(v?.creator, ENGINE);
  equal(
    v?.grain.dedup_key,
    "duplicate_sweep\u241fentity:t/acme\u241fconsolidate",
  );
  const audit = store.audit(r.hash);
  equal(audit.length, 1);
  equal(audit[0]?.grain.from, "none");
  equal(audit[0]?.grain.to, "pending");
  equal(audit[0]?.grain.observer, "system");
  deepEqual(verifyAuditChain(store, r.hash), {
    chain_verified: true,
    length: 1,
  });
  store.close();
});

Deno.test("propose() dedups by family, target and action and caps evidence at 64", async (t) => {
  const { store, clock } = setup();
  const evidence = Array.from({ length: 80 }, (_, i) => sha256Hex(String(i)));
  const first = store.propose(draft({ evidence }), { actor: ENGINE });
  await t.step("evidence is capped", () => {
    equal(store.recommendation(first.hash)?.grain.evidence.length, 64);
  });
  await t.step("a growing cluster does not re-propose", () => {
    clock.now += 1000;
    const again = store.propose(
      draft({
        evidence: evidence.slice(0, 3),
        analyzer: "deja.duplicate_sweep/2",
        target_ref: " Entity:T/ACME ",
      }),
      { actor: ENGINE },
    );
    deepEqual(again, { hash: first.hash, deduped: true });
  });
  await t.step("a different action is a different recommendation", () => {
    equal(
      store.propose(draft({ action: "flag" }), { actor: ENGINE }).deduped,
      false,
    );
  });
  store.close();
});

Deno.test("review() reject starts a doubling cooldown on the dedup key", () => {
  const { store, clock } = setup();
  const spans: number[] = [];
  for (let i = 0; i < 5; i++) {
    const r = store.propose(draft(), { actor: ENGINE });
    equal(r.deduped, false, `round ${i} proposes`);
    store.review(r.hash, "reject", ALICE);
    const blocked = store.propose(draft(), { actor: ENGINE });
    deepEqual(blocked, { hash: r.hash, deduped: true, cooldown: true });
    const until = (store as unknown as { db: DatabaseSync }).db
      .prepare("SELECT until FROM cooldowns").get() as { until: number };
    spans.push(Math.round((until.until - clock.now) / DAY));
    clock.now = until.until + 1;
  }
  deepEqual(spans, [7, 14, 28, 56, 90]);
  store.close();
});

Deno.test("review() needs a reason, the review scope, and never the creator", async (t) => {
  const { store } = setup();
  const r = store.propose(draft(), {
    actor: "agent:worker",
    trigger: "human:bob",
  });
  await t.step("BECAUSE is mandatory and bounded", () => {
    throws(
      () =>
        store.review(r.hash, "approve", {
          actor: "human:alice",
          because: "  ",
        }),
      code("LOOP-E005"),
    );
    throws(
      () =>
        store.review(r.hash, "approve", {
          actor: "human:alice",
          because: "x".repeat(501),
        }),
      code("LOOP-E005"),
    );
  });
  await t.step("write grants neither review nor apply", () => {
    throws(
      () =>
        store.review(r.hash, "approve", {
          ...ALICE,
          scopes: ["read", "write"],
        }),
      code("LOOP-E002"),
    );
  });
  await t.step(
    "self-approval is blocked for the creator and the trigger",
    () => {
      throws(() =>
        store.review(r.hash, "approve", {
          actor: "agent:worker",
          because: "mine",
        }), code("LOOP-E003"));
      throws(() =>
        store.review(r.hash, "approve", {
          actor: "Human:Bob",
          because: "mine",
        }), code("LOOP-E003"));
    },
  );
  await t.step("another actor approves", () => {
    const res = store.review(r.hash, "approve", {
      ...ALICE,
      scopes: ["review"],
    });
    equal(res.status, "approved");
    equal(res.version, 2);
  });
  await t.step("a policy actor cannot review", () => {
    const r2 = store.propose(draft({ action: "other" }), { actor: ENGINE });
    throws(
      () =>
        store.review(r2.hash, "approve", {
          actor: "policy:auto",
          because: "x",
        }),
      code("LOOP-E002"),
    );
  });
  deepEqual(verifyAuditChain(store, r.hash).chain_verified, true);
  store.close();
});

Deno.test("transitions compare-and-set on the version column", async () => {
  const path = join(await Deno.makeTempDir(), "m.db");
  const one = openMemory(path, { now: () => T0 });
  const two = openMemory(path, { now: () => T0 });
  const r = one.propose(draft(), { actor: ENGINE });
  const seen = two.recommendation(r.hash)?.version;
  equal(seen, 1);
  one.review(r.hash, "approve", ALICE);
  throws(
    () =>
      two.review(r.hash, "reject", {
        actor: "human:carol",
        because: "no",
        expectedVersion: 1,
      }),
    code("LOOP-E001"),
  );
  throws(
    () => two.review(r.hash, "reject", { actor: "human:carol", because: "no" }),
    code("LOOP-E004"),
  );
  equal(two.recommendation(r.hash)?.status, "approved");
  one.close();
  two.close();
});

Deno.test("apply() of SUPERSEDE and rollback() leave recall exactly as before", () => {
  const { store, clock } = setup();
  const keep = store.put(fact("acme", "tier", "enterprise", T0 - 5000));
  const extra = store.put(fact("acme", "tier", "Enterprise", T0 - 4000));
  store.put(fact("acme", "region", "eu", T0 - 3000));
  const before = store.recall({ text: "acme" }).map((g) => g.hash).sort();
  const replacement: FactGrain = {
    ...fact("acme", "tier", "enterprise", T0),
    actor: ENGINE,
  };
  const r = store.propose(
    draft({ evidence: [keep, extra] }, [{
      op: "SUPERSEDE",
      target: extra,
      grain: replacement,
    }]),
    { actor: ENGINE },
  );
  throws(
    () => store.apply(r.hash, ALICE),
    code("LOOP-E004"),
    "pending needs approval first",
  );
  store.review(r.hash, "approve", ALICE);
  clock.now += 1000;
  throws(
    () => store.apply(r.hash, { ...ALICE, scopes: ["apply"] }),
    code("LOOP-E002"),
    "apply + write needed",
  );
  const applied = store.apply(r.hash, { ...ALICE, scopes: ["apply", "write"] });
  equal(applied.status, "applied");
  equal(applied.results.length, 1);
  equal(store.isCurrent(extra), false);
  const during = store.recall({ text: "acme" }).map((g) => g.hash).sort();
  ok(during.includes(applied.results[0] as string));
  ok(!during.includes(extra));
  clock.now += 1000;
  const back = store.rollback(r.hash, ALICE);
  equal(back.status, "rolled_back");
  deepEqual(store.recall({ text: "acme" }).map((g) => g.hash).sort(), before);
  equal(store.isCurrent(extra), true);
  throws(() => store.rollback(r.hash, ALICE), code("LOOP-E004"));
  const verdict = verifyAuditChain(store, r.hash);
  deepEqual(verdict, { chain_verified: true, length: 4 });
  deepEqual(store.audit(r.hash).map((a) => `${a.grain.from}>${a.grain.to}`), [
    "none>pending",
    "pending>approved",
    "approved>applied",
    "applied>rolled_back",
  ]);
  store.close();
});

Deno.test("apply() of ADD and DEFINE stores inverses that rollback() runs", () => {
  const { store } = setup();
  const lesson = fact("stripe_refund", "fails_with", "rate_limited");
  store.setConfig("x/1", {}, { actor: "a" });
  const r = store.propose(
    draft({
      family: "tool_failure",
      action: "cluster_failure",
      target_ref: "query:t/failures",
    }, [
      { op: "ADD", grain: lesson },
      { op: "DEFINE", key: "query:t/failures", body: { text: "fails_with" } },
    ]),
    { actor: "engine:deja.tool_failure/1" },
  );
  store.review(r.hash, "approve", ALICE);
  const before = store.recall().map((g) => g.hash);
  store.apply(r.hash, ALICE);
  equal(store.recall({ text: "stripe_refund" }).length, 1);
  deepEqual(store.definitions(), {
    "query:t/failures": { text: "fails_with" },
  });
  store.rollback(r.hash, ALICE);
  deepEqual(store.recall().map((g) => g.hash), before);
  deepEqual(store.definitions(), {});
  // Rolled back for a reason: the same change waits out a cooldown.
  deepEqual(
    store.propose(
      draft({
        family: "tool_failure",
        action: "cluster_failure",
        target_ref: "query:t/failures",
      }, [{ op: "ADD", grain: lesson }]),
      { actor: "engine:deja.tool_failure/1" },
    ),
    { hash: r.hash, deduped: true, cooldown: true },
  );
  store.close();
});

Deno.test("apply() refuses a SUPERSEDE whose target is no longer current", () => {
  const { store } = setup();
  const a = store.put(fact("a", "b", "c"));
  const r = store.propose(
    draft({}, [{ op: "SUPERSEDE", target: a, grain: fact("a", "b", "d") }]),
    { actor: ENGINE },
  );
  store.review(r.hash, "approve", ALICE);
  store.supersede(a, fact("a", "b", "e"));
  throws(() => store.apply(r.hash, ALICE), code("LOOP-E009"));
  equal(
    store.recommendation(r.hash)?.status,
    "approved",
    "a refused apply changes nothing",
  );
  store.close();
});

Deno.test("destructive apply needs approval, admin and allow-destructive, and cannot roll back", async (t) => {
  const { store } = setup();
  const old = store.put({
    ...fact("promo", "active", "true"),
    valid_to: T0 - DAY,
  });
  const r = store.propose(
    draft({
      family: "staleness",
      action: "expire",
      target_ref: `grain:${old}`,
      analyzer: "deja.staleness/1",
    }, [
      { op: "FORGET", target: old },
    ]),
    { actor: "engine:deja.staleness/1" },
  );
  const view = store.recommendation(r.hash);
  equal(view?.destructive, true);
  equal(view?.rollbackable, false);
  await t.step("never auto-applies", () => {
    const policy = parsePolicy({
      auto_apply_enabled: true,
      auto_apply: [{
        analyzer: "staleness",
        targets: ["memory"],
        max_severity: "critical",
      }],
    });
    const res = store.autoApply(r.hash, { policy });
    equal(res.applied, false);
    ok(/destructive/.test(res.reason));
  });
  store.review(r.hash, "approve", ALICE);
  await t.step("refused without admin", () => {
    throws(
      () =>
        store.apply(r.hash, {
          ...ALICE,
          scopes: ["apply", "write"],
          allowDestructive: true,
        }),
      code("LOOP-E002"),
    );
  });
  await t.step("refused without allow-destructive", () => {
    throws(
      () => store.apply(r.hash, { ...ALICE, scopes: ["admin"] }),
      code("LOOP-E002"),
    );
  });
  await t.step("applies with both and forgets the grain", () => {
    store.apply(r.hash, {
      ...ALICE,
      scopes: ["apply", "admin"],
      allowDestructive: true,
    });
    equal(store.get(old)?.tombstoned, true);
    throws(() => store.rollback(r.hash, ALICE), code("LOOP-E004"));
  });
  store.close();
});

Deno.test("expired is computed from valid_to and frees the dedup key", () => {
  const { store, clock } = setup();
  const r = store.propose(draft(), { actor: ENGINE, validFor: DAY });
  equal(store.recommendation(r.hash)?.status, "pending");
  clock.now += 2 * DAY;
  equal(store.recommendation(r.hash)?.status, "expired");
  equal(store.recommendations({ status: "expired" }).length, 1);
  equal(store.recommendations({ status: "pending" }).length, 0);
  throws(() => store.review(r.hash, "approve", ALICE), code("LOOP-E004"));
  const fresh = store.propose(draft(), { actor: ENGINE });
  equal(fresh.deduped, false);
  store.close();
});

Deno.test("markApplied() closes doc and host recommendations without rollback", () => {
  const { store } = setup();
  const host: Proposal = { kind: "host", data: { retry: 3 } };
  const r = store.propose(
    draft({ target_ref: "host:client", action: "add_guard", proposal: host }),
    { actor: ENGINE },
  );
  store.review(r.hash, "approve", ALICE);
  throws(() => store.apply(r.hash, ALICE), code("LOOP-E004"));
  const res = store.markApplied(r.hash, ALICE);
  equal(res.status, "applied");
  throws(() => store.rollback(r.hash, ALICE), code("LOOP-E004"));
  equal(verifyAuditChain(store, r.hash).chain_verified, true);
  store.close();
});

Deno.test("apply() edits a stored instruction doc and rollback() supersedes back", () => {
  const { store } = setup();
  const body = "# Rules\nrun tests\nbe brief";
  const head = store.put({
    ...fact("CLAUDE.md", "doc", body),
    namespace: "docs",
  });
  const patch =
    "--- a/CLAUDE.md\n+++ b/CLAUDE.md\n@@ -1,3 +1,4 @@\n # Rules\n run tests\n+retry stripe_refund with backoff\n be brief\n";
  const r = store.propose(
    draft({
      target_ref: "doc:CLAUDE.md",
      action: "add_guard",
      proposal: {
        kind: "doc",
        path: "CLAUDE.md",
        base_digest: sha256Hex(body),
        patch,
      },
    }),
    { actor: ENGINE },
  );
  store.review(r.hash, "approve", ALICE);
  const res = store.apply(r.hash, ALICE);
  const edited = store.get(res.results[0] as string)?.grain as FactGrain;
  equal(
    edited.object,
    "# Rules\nrun tests\nretry stripe_refund with backoff\nbe brief",
  );
  equal(edited.supersedes, head);
  const back = store.rollback(r.hash, ALICE);
  const restored = store.get(back.results[0] as string)?.grain as FactGrain;
  equal(restored.object, body);
  equal(store.heads(head).length, 1);
  equal(store.heads(head)[0], back.results[0]);
  store.close();
});

Deno.test("autoApply() applies only value-identical supersessions under a grant", async (t) => {
  const { store } = setup();
  const keep = store.put(fact("acme", "tier", "enterprise", T0 - 5000));
  const extra = store.put(fact("acme", "tier", "Enterprise", T0 - 4000));
  const policy = parsePolicy({
    auto_apply_enabled: true,
    auto_apply: [{
      analyzer: "duplicate_sweep",
      targets: ["memory"],
      max_severity: "low",
    }],
  });
  await t.step("new text is never auto-applied", () => {
    const r = store.propose(
      draft({ action: "merge" }, [{
        op: "SUPERSEDE",
        target: extra,
        grain: fact("acme", "tier", "gold"),
      }]),
      { actor: ENGINE },
    );
    const res = store.autoApply(r.hash, { policy });
    equal(res.applied, false);
    ok(/value-identical/.test(res.reason), res.reason);
  });
  await t.step("a policy actor cannot bypass the gate through apply()", () => {
    const r = store.propose(
      draft({ action: "merge2" }, [{ op: "ADD", grain: fact("x", "y", "z") }]),
      { actor: ENGINE },
    );
    throws(
      () =>
        store.apply(r.hash, {
          actor: "policy:auto",
          because: "forged",
          policy,
        }),
      code("LOOP-E002"),
    );
    throws(
      () => store.apply(r.hash, { actor: "policy:auto", because: "forged" }),
      code("LOOP-E002"),
    );
  });
  await t.step("an exact duplicate consolidation auto-applies", () => {
    const r = store.propose(
      draft({ evidence: [keep, extra] }, [{
        op: "SUPERSEDE",
        target: extra,
        grain: fact("acme", "tier", "enterprise", T0),
      }]),
      { actor: ENGINE },
    );
    const res = store.autoApply(r.hash, { policy });
    equal(res.applied, true, res.reason);
    const v = store.recommendation(r.hash);
    equal(v?.status, "applied");
    const audit = store.audit(r.hash);
    equal(audit.at(-1)?.grain.observer, "policy");
    equal(audit.at(-1)?.grain.from, "pending");
    equal(verifyAuditChain(store, r.hash).chain_verified, true);
  });
  store.close();
});

Deno.test("verifyAuditChain() detects tampering with stored rows", async (t) => {
  const path = join(await Deno.makeTempDir(), "m.db");
  const store = openMemory(path, { now: () => T0 });
  const r = store.propose(draft(), { actor: ENGINE });
  store.review(r.hash, "approve", ALICE);
  const r2 = store.propose(draft({ action: "b" }), { actor: ENGINE });
  const r3 = store.propose(draft({ action: "c" }), { actor: ENGINE });
  const r4 = store.propose(draft({ action: "d" }), { actor: ENGINE });
  store.close();
  const raw = new DatabaseSync(path);
  await t.step("an edited reason", () => {
    const approve = raw.prepare(
      "SELECT audit_head FROM rec_status WHERE hash = ?",
    ).get(r.hash) as { audit_head: string };
    raw.prepare(
      "UPDATE grains SET body = replace(body, 'checked the evidence', 'rubber stamp') WHERE hash = ?",
    )
      .run(approve.audit_head);
  });
  await t.step("a forged status", () => {
    raw.prepare("UPDATE rec_status SET status = 'approved' WHERE hash = ?").run(
      r2.hash,
    );
  });
  await t.step("a deleted audit grain", () => {
    const head = raw.prepare("SELECT audit_head FROM rec_status WHERE hash = ?")
      .get(r3.hash) as { audit_head: string };
    raw.prepare("DELETE FROM grains WHERE hash = ?").run(head.audit_head);
  });
  await t.step("an edited proposal", () => {
    raw.prepare(
      'UPDATE grains SET body = replace(body, \'"severity":"low"\', \'"severity":"info"\') WHERE hash = ?',
    )
      .run(r4.hash);
  });
  raw.close();
  const again = openMemory(path, { now: () => T0 });
  const a = verifyAuditChain(again, r.hash);
  equal(a.chain_verified, false);
  ok(/does not match its hash/.test(a.reason ?? ""));
  const b = verifyAuditChain(again, r2.hash);
  equal(b.chain_verified, false);
  ok(/stored status/.test(b.reason ?? ""));
  equal(verifyAuditChain(again, r3.hash).chain_verified, false);
  equal(verifyAuditChain(again, r4.hash).chain_verified, false);
  throws(() => again.review(r4.hash, "approve", ALICE), code("LOOP-E008"));
  again.close();
});

Deno.test("propose() by an actor written in decomposed Unicode still verifies and moves on", () => {
  const { store } = setup();
  const r = store.propose(draft(), { actor: "agent:Jose\u0301" });
  deepEqual(verifyAuditChain(store, r.hash), {
    chain_verified: true,
    length: 1,
  });
  store.review(r.hash, "approve", ALICE);
  equal(store.recommendation(r.hash)?.status, "approved");
  store.close();
});
