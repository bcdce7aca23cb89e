/**
 * The precision corpus: for every built-in analyzer, scenarios that plant
 * findings it should report (positives) among look-alikes it must not
 * report (decoys) and seeded background noise. The bench scores each
 * analyzer against the labels; the unit tests pin the same scenarios.
 * All names and content are invented.
 *
 * @module
 */
import type { MemoryStore } from "../memory/mod.ts";
import type { EventGrain, FactGrain, Grain } from "../memory/types.ts";
import { DAY_MS } from "./_draft.ts";

/** The bench's fixed "now": 2026-03-01T00:00:00Z. */
export const FIXTURE_NOW = Date.UTC(2026, 2, 1);

/** One planted situation for one analyzer. */
export interface Scenario {
  /** Analyzer id the labels are for. */
  analyzer: string;
  /** Short name for reports. */
  name: string;
  /** Param overrides for the analyzer. */
  params?: Record<string, unknown>;
  /**
   * Plants grains and returns the labels: one target_ref prefix per finding
   * the analyzer should report.
   */
  build(store: MemoryStore, now: number): string[];
}

/** A small deterministic PRNG (mulberry32). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  "alpha amber anchor apple arrow atlas autumn badge basil beacon birch blade bloom bolt branch breeze brick " +
  "bridge canyon carbon cedar chalk cliff cloud cobalt comet coral crane crystal delta desert dune eagle ember " +
  "falcon fern field flint forest frost garnet glacier granite harbor hazel heron hollow indigo iris island ivory " +
  "jasper juniper kettle lagoon lantern lava lemon lilac linen lotus maple marble meadow mesa mint moss nectar " +
  "north oak ocean olive onyx orbit orchid pebble pepper pine plume prairie quartz quill raven reef ridge river " +
  "robin saffron sage sand shadow shore silver slate spruce stone summit thistle thunder timber topaz tulip " +
  "valley velvet violet walnut willow winter zephyr"
).split(" ");

function sentence(rand: () => number, n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    out.push(WORDS[Math.floor(rand() * WORDS.length)]!);
  }
  return out.join(" ");
}

function base(
  ns: string,
  at: number,
): { namespace: string; created_at: number; actor: string } {
  return { namespace: ns, created_at: at, actor: "human:fixture" };
}

/**
 * Stores a fact.
 *
 * @param store The store.
 * @param ns Namespace.
 * @param triple Subject, relation, object.
 * @param at Creation time.
 * @param extra More fields (valid_to, ...).
 * @returns The hash.
 */
export function putFact(
  store: MemoryStore,
  ns: string,
  triple: [string, string, string],
  at: number,
  extra: Partial<FactGrain> = {},
): string {
  const [subject, relation, object] = triple;
  return store.put(
    {
      ...base(ns, at),
      type: "fact",
      subject,
      relation,
      object,
      ...extra,
    } as Grain,
  );
}

/**
 * Stores a tool-call event.
 *
 * @param store The store.
 * @param tool Tool name.
 * @param isError Whether it failed.
 * @param result The result payload.
 * @param at Creation time.
 * @returns The hash.
 */
export function putEvent(
  store: MemoryStore,
  tool: string,
  isError: boolean,
  result: unknown,
  at: number,
): string {
  const grain: EventGrain = {
    ...base("agent", at),
    type: "event",
    tool,
    is_error: isError,
    result,
    thread: `t${at % 7}`,
  };
  return store.put(grain);
}

/** Background noise every scenario shares: unrelated facts, observations, events. */
function noise(store: MemoryStore, now: number, seed: number): void {
  const rand = prng(seed);
  for (let i = 0; i < 60; i++) {
    putFact(
      store,
      "noise",
      [`module_${i}`, "mentions", sentence(rand, 2)],
      now - Math.floor(rand() * 20) * DAY_MS - i,
    );
  }
  for (let i = 0; i < 60; i++) {
    store.put({
      ...base("noise", now - Math.floor(rand() * 20) * DAY_MS - i),
      type: "observation",
      text: sentence(rand, 8 + Math.floor(rand() * 8)),
    });
  }
  for (let i = 0; i < 40; i++) {
    putEvent(
      store,
      "read_file",
      false,
      { ok: true, bytes: i * 17 },
      now - Math.floor(rand() * 20) * DAY_MS - i,
    );
  }
  for (let i = 0; i < 6; i++) {
    putEvent(store, "read_file", true, {
      error: `unexpected ${sentence(rand, 3)}`,
    }, now - i * DAY_MS - 5);
  }
}

const TOOL_FAILURE: Scenario[] = [{
  analyzer: "deja.tool_failure/1",
  name: "clusters among noise",
  build(store, now) {
    noise(store, now, 1);
    for (let i = 0; i < 6; i++) {
      putEvent(
        store,
        "stripe_refund",
        true,
        { error: "rate_limited" },
        now - i * 3_600_000,
      );
    }
    for (let i = 0; i < 2; i++) {
      putEvent(
        store,
        "stripe_refund",
        false,
        { ok: true },
        now - i * 3_600_000 - 60,
      );
    }
    // One signature once paths and numbers are normalised.
    for (let i = 0; i < 4; i++) {
      putEvent(
        store,
        "bash",
        true,
        `ENOENT: no such file /tmp/run${100 + i}/out-${i}.txt (errno ${i + 2})`,
        now - i * DAY_MS,
      );
    }
    for (let i = 0; i < 4; i++) {
      putEvent(store, "bash", false, "done", now - i * DAY_MS - 90);
    }
    // Low rate but a large absolute count.
    for (let i = 0; i < 60; i++) {
      putEvent(
        store,
        "http_get",
        true,
        { error: "timeout after 30000ms" },
        now - i * 600_000,
      );
    }
    for (let i = 0; i < 140; i++) {
      putEvent(
        store,
        "http_get",
        false,
        { status: 200 },
        now - i * 300_000 - 7,
      );
    }
    // Decoys: too few; too rare; all different; too old; "error" text in a success.
    for (let i = 0; i < 2; i++) {
      putEvent(
        store,
        "grep",
        true,
        { error: "binary file matches" },
        now - i * 1000,
      );
    }
    for (let i = 0; i < 3; i++) {
      putEvent(store, "git", true, { error: "merge conflict" }, now - i * 1000);
    }
    for (let i = 0; i < 17; i++) {
      putEvent(store, "git", false, { ok: true }, now - i * 1000 - 3);
    }
    const npm = [
      "peer dep missing",
      "registry unreachable",
      "lockfile mismatch",
      "disk full",
      "bad tarball",
    ];
    for (const [i, e] of npm.entries()) {
      putEvent(store, "npm", true, { error: e }, now - i * 1000);
    }
    for (let i = 0; i < 5; i++) {
      putEvent(
        store,
        "deploy",
        true,
        { error: "quota exceeded" },
        now - (40 + i) * DAY_MS,
      );
    }
    for (let i = 0; i < 5; i++) {
      putEvent(
        store,
        "lint",
        false,
        { output: "error: none found" },
        now - i * 1000,
      );
    }
    return [
      "entity:lessons/stripe_refund/",
      "entity:lessons/bash/",
      "entity:lessons/http_get/",
    ];
  },
}];

const DUPLICATES: Scenario[] = [{
  analyzer: "deja.duplicate_sweep/1",
  name: "exact facts and near observations",
  build(store, now) {
    noise(store, now, 2);
    const labels: string[] = [];
    const a = putFact(
      store,
      "crm",
      ["acme", "tier", "Enterprise"],
      now - 10 * DAY_MS,
    );
    putFact(store, "crm", ["Acme", "tier", "enterprise "], now - 9 * DAY_MS);
    labels.push(`grain:${a}`);
    const p = putFact(
      store,
      "ops",
      ["billing-api", "port", "8080"],
      now - 8 * DAY_MS,
    );
    putFact(store, "ops", ["billing-api", "port", "8080"], now - 7 * DAY_MS, {
      confidence: 0.8,
    });
    putFact(store, "ops", ["billing-api", "port", "8080"], now - 6 * DAY_MS, {
      actor: "agent:worker",
    });
    labels.push(`grain:${p}`);
    const o1 = store.put({
      ...base("notes", now - 5 * DAY_MS),
      type: "observation",
      text: "The deploy pipeline runs on the shared runner every night at two.",
    });
    store.put({
      ...base("notes", now - 4 * DAY_MS),
      type: "observation",
      text: "the deploy pipeline runs on the shared runner every night at two",
    });
    labels.push(`grain:${o1}`);
    const o2 = store.put({
      ...base("notes", now - 3 * DAY_MS),
      type: "observation",
      text:
        "Staging database snapshots are taken hourly and kept for fourteen days before pruning",
    });
    store.put({
      ...base("notes", now - 2 * DAY_MS),
      type: "observation",
      text:
        "Staging database snapshots are taken hourly and kept for fourteen days before automatic pruning",
    });
    labels.push(`grain:${o2}`);
    // Decoys.
    putFact(store, "crm", ["globex", "tier", "gold"], now - 5 * DAY_MS);
    putFact(store, "crm", ["globex", "tier", "silver"], now - 4 * DAY_MS);
    putFact(store, "crm", ["initech", "region", "eu"], now - 5 * DAY_MS);
    putFact(store, "billing", ["initech", "region", "eu"], now - 5 * DAY_MS);
    store.put({
      ...base("notes", now - DAY_MS),
      type: "observation",
      text: "ok",
    });
    store.put({
      ...base("notes", now - DAY_MS + 1),
      type: "observation",
      text: "ok",
    });
    store.put({
      ...base("notes", now - DAY_MS),
      type: "observation",
      text:
        "Release notes are drafted by the on-call engineer every friday afternoon",
    });
    store.put({
      ...base("notes", now - DAY_MS + 5),
      type: "observation",
      text:
        "Release notes are reviewed by the product lead every monday morning",
    });
    // Templated logs that differ only in an id are two events, not a duplicate.
    for (const id of ["4711", "4712"]) {
      store.put({
        ...base("ci", now - DAY_MS + Number(id)),
        type: "observation",
        text:
          `build ${id} of the payments service passed all unit integration and smoke tests on the linux runner pool in under ten minutes`,
      });
    }
    // A paraphrase is a real duplicate, but token overlap cannot see it
    // (an embedding tier would): labelled, and expected to be missed.
    const para = store.put({
      ...base("notes", now - 2 * DAY_MS),
      type: "observation",
      text: "Use pnpm, not npm, for installing packages in this repo",
    });
    store.put({
      ...base("notes", now - DAY_MS),
      type: "observation",
      text: "In this repo install packages with pnpm rather than npm",
    });
    labels.push(`grain:${para}`);
    const old = putFact(
      store,
      "ops",
      ["queue", "driver", "redis"],
      now - 9 * DAY_MS,
    );
    const dup = putFact(
      store,
      "ops",
      ["queue", "driver", "redis"],
      now - 8 * DAY_MS,
    );
    store.supersede(dup, {
      ...base("ops", now - 7 * DAY_MS),
      type: "fact",
      subject: "queue",
      relation: "driver",
      object: "kafka",
    });
    void old;
    return labels;
  },
}];

const CONTRADICTIONS: Scenario[] = [{
  analyzer: "deja.contradiction_sweep/1",
  name: "seeded and learned relations",
  build(store, now) {
    noise(store, now, 3);
    putFact(
      store,
      "ops",
      ["acme", "deploy_target", "us-east-1"],
      now - 5 * DAY_MS,
    );
    putFact(
      store,
      "ops",
      ["acme", "deploy_target", "eu-west-1"],
      now - 4 * DAY_MS,
    );
    putFact(
      store,
      "eng",
      ["web-app", "uses_version", "node 20"],
      now - 5 * DAY_MS,
    );
    putFact(
      store,
      "eng",
      ["web-app", "uses_version", "node 22"],
      now - 3 * DAY_MS,
    );
    // Learned: ci_provider is single-valued for 6 of 7 subjects.
    for (let i = 0; i < 6; i++) {
      putFact(store, "eng", [
        `repo-${i}`,
        "ci_provider",
        i % 2 ? "buildkite" : "actions",
      ], now - 6 * DAY_MS);
    }
    for (const repo of ["repo-10", "repo-11"]) {
      const was = putFact(
        store,
        "eng",
        [repo, "ci_provider", "travis"],
        now - 30 * DAY_MS,
      );
      store.supersede(was, {
        ...base("eng", now - 7 * DAY_MS),
        type: "fact",
        subject: repo,
        relation: "ci_provider",
        object: "circleci",
      });
    }
    putFact(
      store,
      "eng",
      ["repo-9", "ci_provider", "actions"],
      now - 6 * DAY_MS,
    );
    putFact(
      store,
      "eng",
      ["repo-9", "ci_provider", "jenkins"],
      now - 2 * DAY_MS,
    );
    // Decoys: multi-valued relation; case variants; a superseded old value;
    // the same subject in two namespaces; a relation too rare to learn.
    for (let i = 0; i < 6; i++) {
      putFact(
        store,
        "eng",
        [`svc-${i}`, "depends_on", "postgres"],
        now - 5 * DAY_MS,
      );
      putFact(
        store,
        "eng",
        [`svc-${i}`, "depends_on", "redis"],
        now - 5 * DAY_MS,
      );
    }
    putFact(store, "crm", ["acme", "tier", "Enterprise"], now - 5 * DAY_MS);
    putFact(store, "crm", ["acme", "tier", "enterprise"], now - 4 * DAY_MS);
    const before = putFact(
      store,
      "ops",
      ["globex", "region", "us"],
      now - 5 * DAY_MS,
    );
    store.supersede(before, {
      ...base("ops", now - 2 * DAY_MS),
      type: "fact",
      subject: "globex",
      relation: "region",
      object: "eu",
    });
    putFact(store, "ops", ["initech", "owner", "dana"], now - 5 * DAY_MS);
    putFact(store, "hr", ["initech", "owner", "lee"], now - 5 * DAY_MS);
    // "mentions" is single-valued for its 60 noise subjects, but nothing was
    // ever replaced under it, so it is not learned as functional.
    putFact(
      store,
      "noise",
      ["module_3", "mentions", "granite harbor"],
      now - 2 * DAY_MS,
    );
    // The same value written two ways is not a contradiction.
    putFact(
      store,
      "ops",
      ["umbrella", "region", "us-east-1"],
      now - 5 * DAY_MS,
    );
    putFact(
      store,
      "ops",
      ["umbrella", "region", "US East 1"],
      now - 4 * DAY_MS,
    );
    putFact(store, "eng", ["repo-1", "likes", "tabs"], now - 5 * DAY_MS);
    putFact(store, "eng", ["repo-1", "likes", "spaces"], now - 5 * DAY_MS);
    return [
      "entity:ops/acme/deploy_target",
      "entity:eng/web-app/uses_version",
      "entity:eng/repo-9/ci_provider",
    ];
  },
}];

const STALENESS: Scenario[] = [{
  analyzer: "deja.staleness/1",
  name: "declared expiry",
  build(store, now) {
    noise(store, now, 4);
    const a = putFact(
      store,
      "mkt",
      ["promo", "active", "true"],
      now - 400 * DAY_MS,
      { valid_to: Date.UTC(2020, 0, 1) },
    );
    const b = store.put({
      ...base("notes", now - 10 * DAY_MS),
      type: "note",
      text: "Freeze merges until the audit ends",
      state: "accepted",
      valid_to: now - DAY_MS,
    });
    // Decoys: future expiry; expired but superseded; expired but forgotten.
    putFact(store, "mkt", ["sale", "active", "true"], now - DAY_MS, {
      valid_to: now + 5 * DAY_MS,
    });
    const old = putFact(
      store,
      "mkt",
      ["banner", "text", "winter"],
      now - 90 * DAY_MS,
      { valid_to: now - 30 * DAY_MS },
    );
    store.supersede(old, {
      ...base("mkt", now - 20 * DAY_MS),
      type: "fact",
      subject: "banner",
      relation: "text",
      object: "spring",
    });
    const gone = putFact(
      store,
      "mkt",
      ["coupon", "code", "X1"],
      now - 90 * DAY_MS,
      { valid_to: now - 30 * DAY_MS },
    );
    store.forget(gone, { actor: "human:fixture", reason: "fixture" });
    return [`grain:${a}`, `grain:${b}`];
  },
}];

const FORKS: Scenario[] = [{
  analyzer: "deja.fork_surfacing/1",
  name: "two heads among chains",
  build(store, now) {
    noise(store, now, 5);
    const root = putFact(
      store,
      "ops",
      ["acme", "on_call", "dana"],
      now - 5 * DAY_MS,
    );
    store.supersede(root, {
      ...base("ops", now - 4 * DAY_MS),
      type: "fact",
      subject: "acme",
      relation: "on_call",
      object: "lee",
    });
    store.supersede(root, {
      ...base("ops", now - 3 * DAY_MS),
      type: "fact",
      subject: "acme",
      relation: "on_call",
      object: "sam",
    });
    // Decoys: a linear chain; a fork already merged.
    const lin = putFact(
      store,
      "ops",
      ["globex", "on_call", "ana"],
      now - 5 * DAY_MS,
    );
    const l2 = store.supersede(lin, {
      ...base("ops", now - 4 * DAY_MS),
      type: "fact",
      subject: "globex",
      relation: "on_call",
      object: "bo",
    });
    store.supersede(l2, {
      ...base("ops", now - 3 * DAY_MS),
      type: "fact",
      subject: "globex",
      relation: "on_call",
      object: "cy",
    });
    const m = putFact(
      store,
      "ops",
      ["initech", "on_call", "di"],
      now - 5 * DAY_MS,
    );
    const h1 = store.supersede(m, {
      ...base("ops", now - 4 * DAY_MS),
      type: "fact",
      subject: "initech",
      relation: "on_call",
      object: "ed",
    });
    const h2 = store.supersede(m, {
      ...base("ops", now - 3 * DAY_MS),
      type: "fact",
      subject: "initech",
      relation: "on_call",
      object: "fa",
    });
    store.supersede(h1, {
      ...base("ops", now - 3 * DAY_MS),
      type: "fact",
      subject: "initech",
      relation: "on_call",
      object: "fa",
      derived_from: [h2, h1],
    });
    return [`grain:${root}`];
  },
}];

const SKILLS: Scenario[] = [{
  analyzer: "deja.skill_stall/1",
  name: "practised but low",
  build(store, now) {
    noise(store, now, 6);
    const skill = (
      name: string,
      proficiency: number,
      practice_count: number,
      at: number,
    ) =>
      store.put({
        ...base("skills", at),
        type: "skill",
        name,
        proficiency,
        practice_count,
      });
    skill("sql-migrations", 0.2, 8, now - 3 * DAY_MS);
    skill("rust-lifetimes", 0.35, 12, now - 3 * DAY_MS);
    skill("docker", 0.1, 3, now - 3 * DAY_MS);
    skill("python", 0.8, 30, now - 3 * DAY_MS);
    const old = skill("regex", 0.2, 9, now - 9 * DAY_MS);
    store.supersede(old, {
      ...base("skills", now - DAY_MS),
      type: "skill",
      name: "regex",
      proficiency: 0.7,
      practice_count: 14,
    });
    return ["entity:skills/sql-migrations", "entity:skills/rust-lifetimes"];
  },
}];

const GOALS: Scenario[] = [{
  analyzer: "deja.goal_stagnation/1",
  name: "old active goals without progress",
  build(store, now) {
    noise(store, now, 7);
    const goal = (
      title: string,
      state: "active" | "done" | "abandoned",
      progress: number,
      ageDays: number,
    ) =>
      store.put({
        ...base("goals", now - ageDays * DAY_MS),
        type: "goal",
        title,
        state,
        progress,
      });
    goal("migrate billing to v2", "active", 0.05, 45);
    goal("remove legacy auth", "active", 0, 90);
    goal("write onboarding guide", "done", 0, 60);
    goal("add rate limits", "active", 0.05, 10);
    goal("split the monolith", "active", 0.5, 120);
    goal("drop python 2", "abandoned", 0.02, 200);
    return [
      "entity:goals/migrate billing to v2",
      "entity:goals/remove legacy auth",
    ];
  },
}];

const COLD: Scenario[] = [{
  analyzer: "deja.cold_grains/1",
  name: "never recalled facts",
  params: { max_report: 500 },
  build(store, now) {
    const cold = putFact(
      store,
      "kb",
      ["fax-gateway", "vendor", "faxco"],
      now - 45 * DAY_MS,
    );
    const cold2 = putFact(
      store,
      "kb",
      ["intranet", "theme", "dark"],
      now - 50 * DAY_MS,
    );
    const warm = putFact(
      store,
      "kb",
      ["prod-db", "engine", "postgres"],
      now - 45 * DAY_MS,
    );
    const warm2 = putFact(
      store,
      "kb",
      ["ci", "runner", "linux"],
      now - 45 * DAY_MS,
    );
    putFact(store, "kb", ["new-svc", "language", "go"], now - 5 * DAY_MS);
    const gone = putFact(
      store,
      "kb",
      ["old-svc", "language", "perl"],
      now - 80 * DAY_MS,
    );
    store.forget(gone, { actor: "human:fixture", reason: "fixture" });
    for (let i = 0; i < 30; i++) {
      store.recordRecall({
        query: i % 2 ? "which database" : "ci setup",
        tokens: 100,
        budget: 400,
        results: i % 2 ? [warm] : [warm2],
        at: now - (40 - i) * DAY_MS,
      });
    }
    return [`grain:${cold}`, `grain:${cold2}`];
  },
}, {
  analyzer: "deja.cold_grains/1",
  name: "telemetry too young to judge",
  build(store, now) {
    putFact(store, "kb", ["fax-gateway", "vendor", "faxco"], now - 45 * DAY_MS);
    for (let i = 0; i < 30; i++) {
      store.recordRecall({
        query: "anything",
        tokens: 10,
        budget: 400,
        results: [],
        at: now - 3 * DAY_MS + i,
      });
    }
    return [];
  },
}];

const COVERAGE: Scenario[] = [{
  analyzer: "deja.coverage_gap/1",
  name: "recurring empty questions",
  build(store, now) {
    const rec = (query: string, results: number, ageDays: number) =>
      store.recordRecall({
        query,
        tokens: results * 50,
        budget: 400,
        results: Array(results).fill("0".repeat(64)),
        at: now - ageDays * DAY_MS,
      });
    for (let i = 0; i < 4; i++) {
      rec(
        i % 2
          ? "How do we rotate the API key?"
          : "how do we rotate the api key?",
        0,
        i + 1,
      );
    }
    for (let i = 0; i < 5; i++) {
      rec("who owns the billing service", i === 0 ? 1 : 0, i + 1);
    }
    for (let i = 0; i < 2; i++) rec("where are staging logs", 0, i + 1);
    for (let i = 0; i < 5; i++) {
      rec("what is the deploy target", i < 3 ? 2 : 0, i + 1);
    }
    for (let i = 0; i < 5; i++) rec("old unanswered question", 0, 60 + i);
    return [
      "entity:coverage/how do we rotate the api key?",
      "entity:coverage/who owns the billing service",
    ];
  },
}];

function budgetRows(
  store: MemoryStore,
  now: number,
  n: number,
  over: number,
): void {
  for (let i = 0; i < n; i++) {
    store.recordRecall({
      query: `q${i}`,
      tokens: i < over ? 600 : 200,
      budget: 400,
      results: [],
      at: now - i * 3_600_000,
    });
  }
}

const BUDGET: Scenario[] = [
  {
    analyzer: "deja.budget_pressure/1",
    name: "most assemblies overflow",
    build(store, now) {
      budgetRows(store, now, 25, 15);
      return ["entity:budget/assembly"];
    },
  },
  {
    analyzer: "deja.budget_pressure/1",
    name: "occasional overflow",
    build(store, now) {
      budgetRows(store, now, 40, 8);
      return [];
    },
  },
  {
    analyzer: "deja.budget_pressure/1",
    name: "too few samples",
    build(store, now) {
      budgetRows(store, now, 10, 10);
      return [];
    },
  },
];

const RETENTION: Scenario[] = [{
  analyzer: "deja.retention_sweep/1",
  name: "over-age namespaces",
  params: { max_age: "365d" },
  build(store, now) {
    noise(store, now, 8);
    for (let i = 0; i < 3; i++) {
      putFact(
        store,
        "archive",
        [`ticket-${i}`, "status", "closed"],
        now - (400 + i) * DAY_MS,
      );
    }
    store.put({
      ...base("archive", now - 500 * DAY_MS),
      type: "observation",
      text: "the old office wifi was slow",
    });
    putFact(store, "fresh", ["ticket-9", "status", "open"], now - 10 * DAY_MS);
    return ["entity:retention/archive"];
  },
}];

const OUTCOMES: Scenario[] = [{
  analyzer: "deja.outcome_review/1",
  name: "regressed and held applies",
  build(store, now) {
    const appliedAt = now - 10 * DAY_MS;
    const make = (tool: string, error: string) => {
      for (let i = 0; i < 5; i++) {
        putEvent(store, tool, true, { error }, appliedAt - (i + 1) * 3_600_000);
      }
      const draft = {
        analyzer: "deja.tool_failure/1",
        params: {},
        family: "tool_failure",
        target_ref: `entity:lessons/${tool}/fixture`,
        action: "record_failure",
        template: {
          id: "tool_failure.cluster",
          args: { tool, count: 5, calls: 5, rate: 100, signature: error },
        },
        evidence: [],
        severity: "high" as const,
        proposal: {
          kind: "ops" as const,
          ops: [{
            op: "ADD" as const,
            grain: {
              ...base("lessons", appliedAt),
              type: "fact" as const,
              subject: tool,
              relation: "fails_with",
              object: error,
            },
          }],
        },
        metric: {
          name: "tool_error_recurrence",
          value: 0,
          horizon_days: [1, 7, 30],
        },
      };
      const { hash } = store.propose(draft, {
        actor: "engine:deja.tool_failure/1",
        now: appliedAt,
      });
      store.review(hash, "approve", {
        actor: "human:fixture",
        because: "fixture",
        now: appliedAt,
      });
      store.apply(hash, {
        actor: "human:fixture",
        because: "fixture",
        now: appliedAt,
      });
      return hash;
    };
    make("stripe_refund", "rate_limited");
    make("s3_put", "access denied");
    // After the apply, stripe_refund keeps failing the same way; s3_put does not.
    for (let i = 0; i < 3; i++) {
      putEvent(
        store,
        "stripe_refund",
        true,
        { error: "rate_limited" },
        appliedAt + (i + 1) * DAY_MS,
      );
    }
    putEvent(store, "s3_put", false, { ok: true }, appliedAt + DAY_MS);
    // Applied an hour ago: no horizon is due yet, whatever happens.
    const fresh = now - 3_600_000;
    for (let i = 0; i < 5; i++) {
      putEvent(
        store,
        "smtp_send",
        true,
        { error: "auth failed" },
        fresh - (i + 1) * 60_000,
      );
    }
    const d2 = {
      analyzer: "deja.tool_failure/1",
      params: {},
      family: "tool_failure",
      target_ref: "entity:lessons/smtp_send/fixture",
      action: "record_failure",
      template: {
        id: "tool_failure.cluster",
        args: {
          tool: "smtp_send",
          count: 5,
          calls: 5,
          rate: 100,
          signature: "auth failed",
        },
      },
      evidence: [],
      severity: "high" as const,
      proposal: { kind: "host" as const, data: {} },
      metric: {
        name: "tool_error_recurrence",
        value: 0,
        horizon_days: [1, 7, 30],
      },
    };
    const { hash } = store.propose(d2, {
      actor: "engine:deja.tool_failure/1",
      now: fresh,
    });
    store.review(hash, "approve", {
      actor: "human:fixture",
      because: "fixture",
      now: fresh,
    });
    store.markApplied(hash, {
      actor: "human:fixture",
      because: "fixture",
      now: fresh,
    });
    putEvent(
      store,
      "smtp_send",
      true,
      { error: "auth failed" },
      fresh + 60_000,
    );
    return ["entity:lessons/stripe_refund/fixture"];
  },
}];

/** Every scenario, grouped by analyzer in registry order. */
export const SCENARIOS: readonly Scenario[] = [
  ...TOOL_FAILURE,
  ...DUPLICATES,
  ...CONTRADICTIONS,
  ...STALENESS,
  ...FORKS,
  ...OUTCOMES,
  ...SKILLS,
  ...GOALS,
  ...COLD,
  ...COVERAGE,
  ...BUDGET,
  ...RETENTION,
];

/** Counts for one analyzer over its scenarios. */
export interface Score {
  /** Labelled findings reported. */
  tp: number;
  /** Reported findings without a label. */
  fp: number;
  /** Labelled findings missed. */
  fn: number;
}

/**
 * Scores predicted target refs against label prefixes: each label matches
 * at most one prediction.
 *
 * @param predicted Target refs the analyzer reported.
 * @param labels Expected target_ref prefixes.
 * @returns True/false positives and false negatives.
 */
export function score(
  predicted: readonly string[],
  labels: readonly string[],
): Score {
  const open = [...labels];
  let tp = 0;
  let fp = 0;
  for (const p of predicted) {
    const i = open.findIndex((l) => p.startsWith(l));
    if (i >= 0) {
      tp++;
      open.splice(i, 1);
    } else {
      fp++;
    }
  }
  return { tp, fp, fn: open.length };
}
