/**
 * Command analyzers: analyzers in any language, run as a process per call.
 *
 * The envelope (version 1), one JSON document per line:
 *
 * 1. Manifest probe. The engine writes `{"loop":1,"op":"manifest"}` and reads
 *    one object: `{"id":"acme.hello/1","title":…,"description"?:…,
 *    "evidence":{"types":["fact",…],"namespace"?:…,"limit"?:N}}`.
 * 2. Run. The engine writes `{"loop":1,"op":"run","analyzer":id,"now":ms}`,
 *    then one evidence row per line — `{"hash":…,"grain":{…}}` for each
 *    current grain of the declared types — then closes stdin. The process
 *    prints `{"drafts":[{target_ref, action, template:{id,args}, evidence,
 *    severity, proposal?}]}`.
 *
 * The process never touches the memory file: evidence flows one way. A
 * timeout, a crash or output that is not JSON fails only that analyzer's run.
 * Drafts are stamped `origin: "command"` and can never auto-apply.
 * Registration is CLI-only (`--analyzer-cmd 'id=cmd'`), never stored.
 *
 * @module
 */
import type { MemoryReader } from "../memory/mod.ts";
import type {
  Grain,
  GrainType,
  Op,
  Proposal,
  RecommendationDraft,
  Severity,
  StoredGrain,
} from "../memory/types.ts";
import { messageOf } from "../core/errors.ts";
import { type AnalyzerManifest, familyOf, isAnalyzerId } from "./manifest.ts";
import { MAX_EVIDENCE } from "./_draft.ts";
import { parseJsonReply, runProcess, splitArgv } from "./_process.ts";

/** Envelope version written in every request. */
export const ENVELOPE_VERSION = 1;

/** Default per-call timeout. */
export const DEFAULT_ANALYZER_TIMEOUT_MS = 10_000;

const EVIDENCE_TYPES: readonly GrainType[] = [
  "fact",
  "observation",
  "event",
  "skill",
  "goal",
  "note",
];
const MAX_ROWS = 10_000;
const MAX_DRAFTS = 200;

/** A command analyzer as given on the CLI. */
export interface CommandAnalyzerSpec {
  /** Expected manifest id, e.g. `acme.hello/1`. */
  id: string;
  /** Command line (split on whitespace, no shell). */
  command: string;
}

/** A probed command analyzer. */
export interface CommandAnalyzer {
  /** Its manifest (command analyzers never auto-apply). */
  manifest: AnalyzerManifest;
  /** The argv. */
  argv: string[];
  /** Evidence the engine pipes on each run. */
  evidence: { types: GrainType[]; namespace?: string; limit: number };
}

/**
 * Parses `--analyzer-cmd 'id=command args'`.
 *
 * @param value The flag value.
 * @returns The spec.
 * @throws {RangeError} When the id or command is missing or malformed.
 * @example
 * ```ts
 * import { parseAnalyzerCmd } from "./command_analyzer.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(parseAnalyzerCmd("acme.hello/1=python3 hello.py"), { id: "acme.hello/1", command: "python3 hello.py" });
 * ```
 */
export function parseAnalyzerCmd(value: string): CommandAnalyzerSpec {
  const eq = value.indexOf("=");
  if (eq <= 0) {
    throw new RangeError(`--analyzer-cmd needs "id=command", got "${value}"`);
  }
  const id = value.slice(0, eq).trim();
  const command = value.slice(eq + 1).trim();
  if (!isAnalyzerId(id)) {
    throw new RangeError(`Analyzer id "${id}" must look like publisher.name/1`);
  }
  if (!command) throw new RangeError(`--analyzer-cmd "${id}" has no command`);
  return { id, command };
}

/** Options for the process calls. */
export interface CommandOptions {
  /** Per-call timeout in ms (default 10 s). */
  timeoutMs?: number;
  /** Working directory for the process. */
  cwd?: string;
}

/**
 * Probes a command analyzer for its manifest.
 *
 * @param spec The CLI id and command.
 * @param options Timeout.
 * @returns The analyzer, or the reason the probe failed.
 */
export async function probeCommandAnalyzer(
  spec: CommandAnalyzerSpec,
  options: CommandOptions = {},
): Promise<
  { ok: true; analyzer: CommandAnalyzer } | { ok: false; reason: string }
> {
  const argv = splitArgv(spec.command);
  const res = await runProcess(argv, [
    JSON.stringify({ loop: ENVELOPE_VERSION, op: "manifest" }),
  ], {
    timeoutMs: options.timeoutMs ?? DEFAULT_ANALYZER_TIMEOUT_MS,
    ...(options.cwd ? { cwd: options.cwd } : {}),
  });
  if (!res.ok) {
    return { ok: false, reason: `manifest probe failed: ${res.reason}` };
  }
  const parsed = parseJsonReply(res.stdout);
  if (!parsed.ok) {
    return { ok: false, reason: `manifest probe: ${parsed.reason}` };
  }
  const m = parsed.value;
  if (m.id !== spec.id) {
    return {
      ok: false,
      reason: `manifest id ${JSON.stringify(m.id)} does not match "${spec.id}"`,
    };
  }
  const ev =
    (typeof m.evidence === "object" && m.evidence !== null
      ? m.evidence
      : {}) as Record<string, unknown>;
  const types = Array.isArray(ev.types)
    ? ev.types.filter((t): t is GrainType =>
      EVIDENCE_TYPES.includes(t as GrainType)
    )
    : [];
  const limit = typeof ev.limit === "number" && ev.limit > 0
    ? Math.min(Math.floor(ev.limit), MAX_ROWS)
    : 2000;
  const title = typeof m.title === "string" ? m.title.slice(0, 120) : spec.id;
  const description = typeof m.description === "string"
    ? m.description.slice(0, 500)
    : "";
  return {
    ok: true,
    analyzer: {
      argv,
      evidence: {
        types,
        limit,
        ...(typeof ev.namespace === "string"
          ? { namespace: ev.namespace }
          : {}),
      },
      manifest: {
        id: spec.id,
        title,
        description,
        tier: "heavy",
        requires: types,
        capabilities: [],
        targets: ["memory"],
        autoApply: "never",
        params: [],
        defaultOn: true,
      },
    },
  };
}

function evidenceRows(
  store: MemoryReader,
  analyzer: CommandAnalyzer,
): StoredGrain[] {
  const rows: StoredGrain[] = [];
  const ns = analyzer.evidence.namespace;
  for (const type of analyzer.evidence.types) {
    for (
      const s of store.byType(type, {
        currentOnly: true,
        ...(ns ? { namespace: ns } : {}),
      })
    ) {
      if (s.tombstoned) continue;
      rows.push(s);
      if (rows.length >= analyzer.evidence.limit) return rows;
    }
  }
  return rows;
}

const SEVERITIES: readonly Severity[] = ["info", "low", "medium", "high"];
const TARGET_RE = /^(grain|entity|query|template|doc|host):\S.{0,499}$/s;

function cleanArgs(v: unknown): Record<string, string | number> | undefined {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return undefined;
  const out: Record<string, string | number> = {};
  const entries = Object.entries(v as Record<string, unknown>);
  if (entries.length > 16) return undefined;
  for (const [k, val] of entries) {
    if (!/^\w{1,40}$/.test(k)) return undefined;
    if (typeof val === "number" && Number.isFinite(val)) out[k] = val;
    else if (typeof val === "string") {
      out[k] = val.replace(/[\r\n\t]+/g, " ").slice(0, 200);
    } else return undefined;
  }
  return out;
}

function cleanProposal(v: unknown, known: Set<string>): Proposal | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== "object" || v === null) return undefined;
  const p = v as Record<string, unknown>;
  if (p.kind === "host") return { kind: "host", data: p.data ?? null };
  if (
    p.kind !== "ops" || !Array.isArray(p.ops) || p.ops.length === 0 ||
    p.ops.length > 64
  ) return undefined;
  const ops: Op[] = [];
  for (const raw of p.ops as unknown[]) {
    const op = raw as Record<string, unknown>;
    if (
      op?.op === "FORGET" && typeof op.target === "string" &&
      known.has(op.target)
    ) {
      ops.push({ op: "FORGET", target: op.target });
    } else if (
      op?.op === "SUPERSEDE" && typeof op.target === "string" &&
      known.has(op.target) && typeof op.grain === "object"
    ) {
      ops.push({
        op: "SUPERSEDE",
        target: op.target,
        grain: op.grain as Grain,
      });
    } else if (
      op?.op === "ADD" && typeof op.grain === "object" && op.grain !== null
    ) {
      ops.push({ op: "ADD", grain: op.grain as Grain });
    } else {
      return undefined;
    }
  }
  return { kind: "ops", ops };
}

/**
 * Turns one reply draft into a stamped draft, or undefined when it does not
 * validate. Evidence is cut to hashes the engine actually sent.
 *
 * @param analyzer The command analyzer.
 * @param raw One element of the reply's `drafts`.
 * @param known Hashes of the evidence rows sent.
 * @returns The draft, or undefined.
 */
export function stampCommandDraft(
  analyzer: CommandAnalyzer,
  raw: unknown,
  known: Set<string>,
): RecommendationDraft | undefined {
  if (typeof raw !== "object" || raw === null) return undefined;
  const d = raw as Record<string, unknown>;
  if (typeof d.target_ref !== "string" || !TARGET_RE.test(d.target_ref)) {
    return undefined;
  }
  if (
    typeof d.action !== "string" || !/^[a-z][a-z0-9_]{0,39}$/.test(d.action)
  ) return undefined;
  const t = d.template as Record<string, unknown> | undefined;
  if (!t || typeof t.id !== "string" || !/^[a-z0-9_.-]{1,64}$/.test(t.id)) {
    return undefined;
  }
  const args = cleanArgs(t.args ?? {});
  if (!args) return undefined;
  const severity = SEVERITIES.includes(d.severity as Severity)
    ? d.severity as Severity
    : "low";
  const evidence = Array.isArray(d.evidence)
    ? [
      ...new Set(d.evidence.filter((h): h is string =>
        typeof h === "string" && known.has(h)
      )),
    ].slice(0, MAX_EVIDENCE)
    : [];
  const proposal = cleanProposal(d.proposal, known) ??
    {
      kind: "host" as const,
      data: { source: "command", analyzer: analyzer.manifest.id },
    };
  return {
    analyzer: analyzer.manifest.id,
    params: {},
    family: familyOf(analyzer.manifest.id),
    target_ref: d.target_ref,
    action: d.action,
    template: { id: t.id, args },
    evidence,
    severity,
    proposal,
    origin: "command",
  };
}

/**
 * Runs a probed command analyzer once: pipes the evidence rows, parses and
 * validates the drafts it returns.
 *
 * @param analyzer The probed analyzer.
 * @param store The memory reader (read by the engine, never by the process).
 * @param now The run's timestamp.
 * @param options Timeout.
 * @returns Drafts (invalid ones dropped and counted), or the failure reason.
 */
export async function runCommandAnalyzer(
  analyzer: CommandAnalyzer,
  store: MemoryReader,
  now: number,
  options: CommandOptions = {},
): Promise<
  { ok: true; drafts: RecommendationDraft[]; dropped: number } | {
    ok: false;
    reason: string;
  }
> {
  let rows: StoredGrain[];
  try {
    rows = evidenceRows(store, analyzer);
  } catch (err) {
    return { ok: false, reason: `evidence: ${messageOf(err)}` };
  }
  const header = JSON.stringify({
    loop: ENVELOPE_VERSION,
    op: "run",
    analyzer: analyzer.manifest.id,
    now,
  });
  const lines = (function* () {
    yield header;
    for (const r of rows) {
      yield JSON.stringify({ hash: r.hash, grain: r.grain });
    }
  })();
  const res = await runProcess(analyzer.argv, lines, {
    timeoutMs: options.timeoutMs ?? DEFAULT_ANALYZER_TIMEOUT_MS,
    ...(options.cwd ? { cwd: options.cwd } : {}),
  });
  if (!res.ok) return { ok: false, reason: res.reason };
  const parsed = parseJsonReply(res.stdout);
  if (!parsed.ok) return { ok: false, reason: parsed.reason };
  if (!Array.isArray(parsed.value.drafts)) {
    return { ok: false, reason: 'bad JSON: no "drafts" list' };
  }
  const known = new Set(rows.map((r) => r.hash));
  const drafts: RecommendationDraft[] = [];
  let dropped = 0;
  for (const raw of parsed.value.drafts.slice(0, MAX_DRAFTS)) {
    const d = stampCommandDraft(analyzer, raw, known);
    if (d) drafts.push(d);
    else dropped++;
  }
  dropped += Math.max(0, parsed.value.drafts.length - MAX_DRAFTS);
  return { ok: true, drafts, dropped };
}
