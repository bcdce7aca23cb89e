import { deepEqual, equal, ok, throws } from "node:assert/strict";
import { join } from "node:path";
import { DejaError } from "../core/errors.ts";
import {
  checkAutoApply,
  effectiveAnalyzer,
  EMPTY_POLICY,
  loadPolicy,
  parsePolicy,
  targetClass,
} from "./policy.ts";
import type { RecommendationDraft } from "./types.ts";

const isPolicyError = (e: unknown) =>
  e instanceof DejaError && e.code === "LOOP-E006";

const FULL = {
  auto_apply_enabled: true,
  auto_apply: [{
    analyzer: "duplicate_sweep",
    targets: ["memory", "query"],
    max_severity: "low",
  }],
  deny: ["retention_sweep"],
  severity_floors: { tool_failure: "medium" },
  telemetry: "off",
};

Deno.test("parsePolicy() accepts the documented shape and fills closed defaults", () => {
  const p = parsePolicy(FULL);
  equal(p.auto_apply_enabled, true);
  equal(p.auto_apply[0]?.max_severity, "low");
  deepEqual(parsePolicy({}), { ...EMPTY_POLICY });
});

Deno.test("parsePolicy() rejects unknown keys and trust-floor switches", async (t) => {
  const cases: Array<[string, unknown]> = [
    ["top-level typo", { auto_apply_enable: true }],
    ["trust floor field", { allow_self_approval: true }],
    ["executable registration", { analyzer_cmd: "rm -rf /" }],
    ["grant extra key", {
      auto_apply: [{
        analyzer: "x",
        targets: ["memory"],
        max_severity: "low",
        destructive: true,
      }],
    }],
    ["prompt target", {
      auto_apply: [{ analyzer: "x", targets: ["prompt"], max_severity: "low" }],
    }],
    ["bad severity", { severity_floors: { x: "urgent" } }],
    ["not JSON", "{"],
    ["not an object", "[]"],
  ];
  for (const [name, value] of cases) {
    await t.step(name, () => throws(() => parsePolicy(value), isPolicyError));
  }
});

Deno.test("loadPolicy() reads --policy, then DEJA_LOOP_POLICY, else the closed default", async () => {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "loop-policy.json");
  await Deno.writeTextFile(path, JSON.stringify(FULL));
  equal(loadPolicy(undefined, {}).source, "none");
  equal(
    loadPolicy(undefined, { DEJA_LOOP_POLICY: path }).policy.auto_apply_enabled,
    true,
  );
  equal(loadPolicy(path, { DEJA_LOOP_POLICY: "/nope" }).source, path);
  throws(() => loadPolicy(join(dir, "missing.json"), {}), isPolicyError);
});

Deno.test("targetClass() maps schemes to target classes", () => {
  deepEqual(
    [
      "grain:ab",
      "entity:x",
      "query:q",
      "template:t",
      "doc:CLAUDE.md",
      "host:x",
      "weird",
    ].map(targetClass),
    ["memory", "memory", "query", "query", "prompt", "host", "host"],
  );
});

Deno.test("checkAutoApply() enforces the trust floor before any grant", async (t) => {
  const policy = parsePolicy({
    auto_apply_enabled: true,
    auto_apply: [{
      analyzer: "dup",
      targets: ["memory", "query"],
      max_severity: "critical",
    }],
  });
  const base: RecommendationDraft = {
    analyzer: "deja.dup/1",
    params: {},
    family: "dup",
    target_ref: "entity:x",
    action: "consolidate",
    template: { id: "t", args: {} },
    evidence: [],
    severity: "low",
    proposal: {
      kind: "ops",
      ops: [{
        op: "SUPERSEDE",
        target: "a".repeat(64),
        grain: {
          type: "fact",
          namespace: "n",
          created_at: 1,
          actor: "e",
          subject: "s",
          relation: "r",
          object: "o",
        },
      }],
    },
  };
  const cases: Array<[string, Partial<RecommendationDraft>, RegExp]> = [
    ["llm origin", { origin: "llm" }, /llm-origin/],
    ["command origin", { origin: "command" }, /command-origin/],
    ["prompt target", { target_ref: "doc:CLAUDE.md" }, /prompt targets/],
    ["host target", { target_ref: "host:x" }, /host targets/],
    ["doc proposal", {
      target_ref: "entity:x",
      proposal: { kind: "doc", path: "p", base_digest: "d", patch: "" },
    }, /memory operations/],
    ["destructive", {
      proposal: {
        kind: "ops",
        ops: [{ op: "FORGET", target: "a".repeat(64) }],
      },
    }, /destructive/],
    ["new content", {
      proposal: {
        kind: "ops",
        ops: [{
          op: "ADD",
          grain: {
            type: "observation",
            namespace: "n",
            created_at: 1,
            actor: "e",
            text: "x",
          },
        }],
      },
    }, /structural/],
    [
      "no grant",
      { analyzer: "deja.other/1", family: "other" },
      /no auto-apply grant/,
    ],
  ];
  for (const [name, over, reason] of cases) {
    await t.step(name, () => {
      const r = checkAutoApply(policy, { ...base, ...over });
      equal(r.allowed, false);
      ok(reason.test(r.reason), r.reason);
    });
  }
  await t.step("disabled master switch", () => {
    equal(
      checkAutoApply({ ...policy, auto_apply_enabled: false }, base).allowed,
      false,
    );
  });
  await t.step(
    "a granted structural draft is provisionally allowed without the store",
    () => {
      const r = checkAutoApply(policy, base);
      equal(r.allowed, true);
      ok(/provisional/.test(r.reason));
    },
  );
});

Deno.test("effectiveAnalyzer() applies engine > CLI > policy > file precedence", async (t) => {
  const policy = parsePolicy({
    deny: ["staleness"],
    severity_floors: { staleness: "medium" },
  });
  const rows: Array<
    [
      string,
      Parameters<typeof effectiveAnalyzer>[2],
      boolean,
      string,
      string | undefined,
    ]
  > = [
    [
      "manifest default on",
      { defaultOn: true },
      true,
      "on by default",
      undefined,
    ],
    [
      "opt-in default",
      { defaultOn: false },
      false,
      "off by default (opt-in)",
      undefined,
    ],
    [
      "file enables opt-in",
      { defaultOn: false, file: { enabled: true } },
      true,
      "enabled in the memory file",
      undefined,
    ],
    [
      "policy deny beats file",
      { defaultOn: true, file: { enabled: true }, policy },
      false,
      "denied by host policy",
      "medium",
    ],
    [
      "CLI --only beats policy",
      { defaultOn: true, policy, cli: { only: ["staleness"] } },
      true,
      "selected by --only",
      "medium",
    ],
    [
      "stricter floor wins",
      { defaultOn: true, file: { severity_floor: "high" }, policy },
      false,
      "denied by host policy",
      "high",
    ],
  ];
  for (const [name, input, enabled, reason, floor] of rows) {
    await t.step(name, () => {
      const r = effectiveAnalyzer("deja.staleness/1", "staleness", input);
      equal(r.enabled, enabled);
      equal(r.reason, reason);
      equal(r.severity_floor, floor);
    });
  }
});
