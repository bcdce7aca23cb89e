/**
 * `deja init` templates: literal, reviewable batches of statements that seed
 * a memory file. `--dry-run` prints the batch; init runs exactly that text.
 *
 * Batch syntax, one statement per line (`--` starts a comment):
 *
 * ```text
 * ADD <type> <json> [AS @label]
 * SUPERSEDE <@label|hash> WITH <type> <json> [AS @label]
 * DEFINE <query:…|template:…> <json>
 * CONFIG <analyzer-id> <json>
 * ```
 *
 * The JSON holds every grain field except `type` and `actor` (the batch's
 * actor, `system:init`, is stamped on each grain).
 *
 * @module
 */
import { checkAnalyzerConfig } from "./_store.ts";
import type { AnalyzerConfig, MemoryStore } from "./memory_store.ts";
import { GRAIN_TYPES, validateGrain } from "./validate_grain.ts";
import type { Grain } from "./types.ts";

/** The template names `deja init --template` accepts. */
export const TEMPLATE_NAMES = ["blank", "coding-agent", "demo"] as const;

/** One template name. */
export type TemplateName = typeof TEMPLATE_NAMES[number];

const DAY = 86_400_000;
const MIN = 60_000;

type Fields = Record<string, unknown>;

function add(type: string, fields: Fields, label?: string): string {
  return `ADD ${type} ${JSON.stringify(fields)}${label ? ` AS ${label}` : ""}`;
}

function supersede(
  target: string,
  type: string,
  fields: Fields,
  label?: string,
): string {
  return `SUPERSEDE ${target} WITH ${type} ${JSON.stringify(fields)}${
    label ? ` AS ${label}` : ""
  }`;
}

const INSTRUCTIONS = [
  "# Agent instructions",
  "",
  "- Run the project's tests before saying a change is done.",
  "- Prefer small, reviewable commits with a message that says why.",
  "- Never print, commit or paste credentials.",
  "- When a tool call fails twice the same way, stop and report it.",
].join("\n");

function blank(): string[] {
  return [
    "-- deja init --template blank: an empty memory file; nothing is seeded",
  ];
}

function codingAgent(now: number): string[] {
  return [
    "-- deja init --template coding-agent",
    "-- the instruction doc, kept as a supersession chain (edits are reviewable and revertible)",
    add("fact", {
      namespace: "docs",
      created_at: now,
      subject: "CLAUDE.md",
      relation: "doc",
      object: INSTRUCTIONS,
    }),
    "-- starter saved queries (recall options as JSON)",
    `DEFINE query:agent/recent-failures ${
      JSON.stringify({ types: ["event"], text: "error", limit: 20 })
    }`,
    `DEFINE query:agent/lessons ${
      JSON.stringify({ types: ["fact"], text: "fails_with", limit: 20 })
    }`,
    `DEFINE query:agent/notes ${
      JSON.stringify({ types: ["note"], namespace: "notes", limit: 20 })
    }`,
    "-- the default-on analyzers, written down so the file says what runs",
    ...[
      "deja.tool_failure/1",
      "deja.duplicate_sweep/1",
      "deja.contradiction_sweep/1",
      "deja.staleness/1",
      "deja.fork_surfacing/1",
      "deja.outcome_review/1",
      "deja.skill_stall/1",
    ].map((id) => `CONFIG ${id} ${JSON.stringify({ enabled: true })}`),
  ];
}

function demo(now: number): string[] {
  const ns = "demo";
  const at = (ago: number) => now - ago;
  const failures = [1001, 1002, 1003, 1004, 1005, 1006].map((order, i) =>
    add("event", {
      namespace: ns,
      created_at: at((6 - i) * 7 * 60 * MIN),
      tool: "stripe_refund",
      thread: `demo-session-${1 + (i % 3)}`,
      input: { order, amount_cents: 1250 + i * 100 },
      result: { error: "rate_limited", retry_after_s: 2 },
      is_error: true,
    })
  );
  const successes = [2001, 2002].map((order, i) =>
    add("event", {
      namespace: ns,
      created_at: at((2 - i) * 3 * 60 * MIN),
      tool: "stripe_refund",
      thread: "demo-session-4",
      input: { order, amount_cents: 900 },
      result: { refund_id: `re_demo_${order}`, status: "succeeded" },
      is_error: false,
    })
  );
  return [
    "-- deja init --template demo: a planted corpus so `deja loop run` has something to find",
    "-- duplicate sweep: the same fact twice (case differs) and two near-identical observations",
    add("fact", {
      namespace: ns,
      created_at: at(10 * DAY),
      subject: "acme",
      relation: "uses",
      object: "Postgres",
      confidence: 0.9,
    }),
    add("fact", {
      namespace: ns,
      created_at: at(9 * DAY),
      subject: "acme",
      relation: "uses",
      object: "postgres",
      confidence: 0.9,
    }),
    add("observation", {
      namespace: ns,
      created_at: at(8 * DAY),
      text: "Run the integration tests with --runInBand on CI",
    }),
    add("observation", {
      namespace: ns,
      created_at: at(7 * DAY),
      text: "run the integration tests with --runInBand on CI.",
    }),
    "-- contradiction sweep: two live values under the single-valued relation deploy_target",
    add("fact", {
      namespace: ns,
      created_at: at(6 * DAY),
      subject: "acme",
      relation: "deploy_target",
      object: "us-east-1",
      confidence: 0.9,
    }),
    add("fact", {
      namespace: ns,
      created_at: at(2 * DAY),
      subject: "acme",
      relation: "deploy_target",
      object: "eu-west-1",
      confidence: 0.9,
    }),
    "-- staleness: facts whose declared valid_to has passed",
    add("fact", {
      namespace: ns,
      created_at: at(60 * DAY),
      subject: "spring_promo",
      relation: "discount_code",
      object: "SPRING-DEMO",
      valid_to: at(30 * DAY),
    }),
    add("observation", {
      namespace: ns,
      created_at: at(20 * DAY),
      text: "The payments sandbox is down for maintenance this week",
      valid_to: at(13 * DAY),
    }),
    "-- tool-failure clustering: six failed stripe_refund calls with one error, two successes",
    ...failures,
    ...successes,
    "-- fork surfacing: one fact superseded twice, leaving two concurrent heads",
    add("fact", {
      namespace: ns,
      created_at: at(30 * DAY),
      subject: "api",
      relation: "cache_backend",
      object: "redis 6",
    }, "@cache"),
    supersede("@cache", "fact", {
      namespace: ns,
      created_at: at(3 * DAY),
      subject: "api",
      relation: "cache_backend",
      object: "redis 7.2",
    }),
    supersede("@cache", "fact", {
      namespace: ns,
      created_at: at(3 * DAY) + 5 * MIN,
      subject: "api",
      relation: "cache_backend",
      object: "memcached 1.6",
    }),
    "-- skill stall: practised often, still weak",
    add("skill", {
      namespace: ns,
      created_at: at(5 * DAY),
      name: "sql_migrations",
      proficiency: 0.3,
      practice_count: 7,
    }),
    "-- goal stagnation (opt-in analyzer): active for weeks with almost no progress",
    add("goal", {
      namespace: ns,
      created_at: at(45 * DAY),
      title: "Cut CI time under 10 minutes",
      state: "active",
      progress: 0.05,
    }),
    "-- an instruction doc and a note, so review and recall have something to show",
    add("fact", {
      namespace: "docs",
      created_at: at(12 * DAY),
      subject: "CLAUDE.md",
      relation: "doc",
      object: INSTRUCTIONS,
    }),
    add("note", {
      namespace: "notes",
      created_at: at(4 * DAY),
      project: "demo",
      text: "Refunds are retried by the client; the API itself never retries",
      state: "accepted",
    }),
    `DEFINE query:demo/refund-failures ${
      JSON.stringify({
        types: ["event"],
        text: "stripe_refund error",
        limit: 20,
      })
    }`,
  ];
}

/**
 * The literal batch of a template, timed relative to `now`.
 *
 * @param name Template name.
 * @param now Clock, epoch ms (the demo's events are recent relative to it).
 * @returns The batch text, one statement per line.
 * @example
 * ```ts
 * import { templateBatch } from "./init_templates.ts";
 * import { ok } from "node:assert/strict";
 * ok(templateBatch("demo", Date.UTC(2026, 0, 1)).includes("deploy_target"));
 * ```
 */
export function templateBatch(name: TemplateName, now: number): string {
  const lines = name === "blank"
    ? blank()
    : name === "coding-agent"
    ? codingAgent(now)
    : demo(now);
  return lines.join("\n") + "\n";
}

/** One parsed batch statement. */
export type BatchStatement =
  | {
    kind: "ADD";
    grain: Record<string, unknown>;
    type: string;
    label?: string;
    line: number;
  }
  | {
    kind: "SUPERSEDE";
    target: string;
    grain: Record<string, unknown>;
    type: string;
    label?: string;
    line: number;
  }
  | { kind: "DEFINE"; key: string; body: unknown; line: number }
  | { kind: "CONFIG"; analyzer: string; config: AnalyzerConfig; line: number };

function parseJson(text: string, line: number): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new SyntaxError(`Batch line ${line}: the JSON does not parse`);
  }
}

function grainFields(type: string, json: string, line: number): Fields {
  if (
    !(GRAIN_TYPES as readonly string[]).includes(type) ||
    type === "recommendation" || type === "audit"
  ) {
    throw new SyntaxError(
      `Batch line ${line}: "${type}" is not a grain type a batch may add`,
    );
  }
  const v = parseJson(json, line);
  if (typeof v !== "object" || v === null || Array.isArray(v)) {
    throw new SyntaxError(
      `Batch line ${line}: the grain must be a JSON object`,
    );
  }
  if ("type" in v || "actor" in v) {
    throw new SyntaxError(
      `Batch line ${line}: "type" and "actor" come from the statement, not the JSON`,
    );
  }
  return v as Fields;
}

/**
 * Parses a batch.
 *
 * @param text The batch text.
 * @returns The statements.
 * @throws {SyntaxError} naming the first bad line.
 */
export function parseBatch(text: string): BatchStatement[] {
  const out: BatchStatement[] = [];
  text.split("\n").forEach((raw, i) => {
    const line = i + 1;
    const s = raw.trim();
    if (!s || s.startsWith("--") || s.startsWith("#")) return;
    let m = /^ADD (\w+) (\{.*\})(?: AS (@[\w-]+))?$/.exec(s);
    if (m) {
      const st: BatchStatement = {
        kind: "ADD",
        type: m[1]!,
        grain: grainFields(m[1]!, m[2]!, line),
        line,
      };
      if (m[3]) st.label = m[3];
      out.push(st);
      return;
    }
    m =
      /^SUPERSEDE (@[\w-]+|[0-9a-f]{64}) WITH (\w+) (\{.*\})(?: AS (@[\w-]+))?$/
        .exec(s);
    if (m) {
      const st: BatchStatement = {
        kind: "SUPERSEDE",
        target: m[1]!,
        type: m[2]!,
        grain: grainFields(m[2]!, m[3]!, line),
        line,
      };
      if (m[4]) st.label = m[4];
      out.push(st);
      return;
    }
    m = /^DEFINE ((?:query|template):\S+) (.+)$/.exec(s);
    if (m) {
      out.push({
        kind: "DEFINE",
        key: m[1]!,
        body: parseJson(m[2]!, line),
        line,
      });
      return;
    }
    m = /^CONFIG (\S+) (\{.*\})$/.exec(s);
    if (m) {
      let config: AnalyzerConfig;
      try {
        config = checkAnalyzerConfig(m[1]!, parseJson(m[2]!, line));
      } catch (err) {
        throw new SyntaxError(`Batch line ${line}: ${(err as Error).message}`);
      }
      out.push({ kind: "CONFIG", analyzer: m[1]!, config, line });
      return;
    }
    throw new SyntaxError(
      `Batch line ${line}: unknown statement "${s.slice(0, 40)}"`,
    );
  });
  return out;
}

/** What {@linkcode runBatch} wrote. */
export interface BatchReport {
  /** Grains stored. */
  grains: number;
  /** Definitions written. */
  definitions: number;
  /** Analyzer config rows written. */
  config: number;
}

/**
 * What {@linkcode runBatch} would write, counted from the parsed batch
 * (for `deja init --dry-run --json`).
 *
 * @param text The batch text.
 * @returns The counts, as runBatch would report them.
 * @throws {SyntaxError} naming the first bad line.
 */
export function batchReport(text: string): BatchReport {
  const report: BatchReport = { grains: 0, definitions: 0, config: 0 };
  for (const st of parseBatch(text)) {
    if (st.kind === "DEFINE") report.definitions++;
    else if (st.kind === "CONFIG") report.config++;
    else report.grains++;
  }
  return report;
}

/**
 * Runs a batch against a memory file. Every statement is parsed and every
 * grain validated before anything is written.
 *
 * @param store The writable memory file.
 * @param text The batch text.
 * @param options Actor stamped on the grains and config rows.
 * @returns Counts.
 * @throws {SyntaxError} on a malformed batch, before any write.
 */
export function runBatch(
  store: MemoryStore,
  text: string,
  options: { actor?: string } = {},
): BatchReport {
  const actor = options.actor ?? "system:init";
  const statements = parseBatch(text);
  const labels = new Set<string>();
  for (const st of statements) {
    if (st.kind === "ADD" || st.kind === "SUPERSEDE") {
      if (
        st.kind === "SUPERSEDE" && st.target.startsWith("@") &&
        !labels.has(st.target)
      ) {
        throw new SyntaxError(
          `Batch line ${st.line}: label ${st.target} is not defined above`,
        );
      }
      try {
        validateGrain({ ...st.grain, type: st.type, actor });
      } catch (err) {
        throw new SyntaxError(
          `Batch line ${st.line}: ${(err as Error).message}`,
        );
      }
      if (st.label) labels.add(st.label);
    }
  }
  const hashes = new Map<string, string>();
  const report: BatchReport = { grains: 0, definitions: 0, config: 0 };
  for (const st of statements) {
    switch (st.kind) {
      case "ADD":
      case "SUPERSEDE": {
        const grain = { ...st.grain, type: st.type, actor } as unknown as Grain;
        const hash = st.kind === "ADD" ? store.put(grain) : store.supersede(
          st.target.startsWith("@") ? hashes.get(st.target)! : st.target,
          grain,
        );
        if (st.label) hashes.set(st.label, hash);
        report.grains++;
        break;
      }
      case "DEFINE":
        store.importConfig({
          deja_loop_config: 1,
          definitions: { [st.key]: st.body },
        }, { actor });
        report.definitions++;
        break;
      case "CONFIG":
        store.setConfig(st.analyzer, st.config, { actor, source: "init" });
        report.config++;
        break;
    }
  }
  return report;
}
