/**
 * The loop engine's verbs: `loop run`, `loop analyzers`, `loop enable`,
 * `loop disable`, `loop set` and `loop schedule`. The review verbs (list,
 * show, approve, ...) live in `cli/loop.ts`.
 *
 * @module
 */
import { exists } from "../src/core/_sqlite.ts";
import { basename } from "node:path";
import { printsSafely } from "./_printable.ts";
import { UsageError } from "../src/core/errors.ts";
import type { Io } from "../src/core/io.ts";
import { indexPath } from "../src/core/paths.ts";
import { parseDuration } from "../src/core/time.ts";
import {
  importFromIndex,
  loadPolicy,
  type MemoryReader,
  openMemory,
  SEVERITIES,
  severityRank,
} from "../src/memory/mod.ts";
import type { MemoryStore, Severity } from "../src/memory/mod.ts";
import {
  activation,
  ANALYZERS,
  DEFAULT_ANALYZER_TIMEOUT_MS,
  DEFAULT_LLM_TIMEOUT_MS,
  findAnalyzer,
  parseAnalyzerCmd,
  parseParam,
  runLoop,
  type RunLoopOptions,
  type RunResult,
  SCHEDULER_OSES,
  type SchedulerOs,
  scheduleSnippet,
} from "../src/loop/mod.ts";
import {
  boolFlag,
  type Command,
  EXIT,
  listFlag,
  type ParsedArgs,
  printJson,
  stringFlag,
} from "./_command.ts";
import { plural } from "../src/core/plural.ts";
import {
  actorFlag,
  DEFAULT_ACTOR,
  JSON_OPTIONS,
  memoryDbPath,
  wantsJson,
} from "./_memory_args.ts";

const dbPath = memoryDbPath;

function count(args: ParsedArgs, name: string): number | undefined {
  const v = stringFlag(args, name);
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v)) {
    throw new UsageError(`--${name} needs a whole number, got "${v}"`);
  }
  return Number(v);
}

function duration(args: ParsedArgs, name: string): number | undefined {
  const v = stringFlag(args, name);
  if (v === undefined) return undefined;
  const ms = parseDuration(v);
  if (ms === undefined) {
    throw new UsageError(
      `--${name} needs a duration like 6h, 30m or 2d, got "${v}"`,
    );
  }
  return ms;
}

function timeoutFlag(args: ParsedArgs, name: string): number | undefined {
  const v = stringFlag(args, name);
  if (v === undefined) return undefined;
  const ms = /^\d+$/.test(v) ? Number(v) * 1000 : parseDuration(v);
  if (ms === undefined || ms <= 0) {
    throw new UsageError(
      `--${name} needs seconds or a duration like 30s, got "${v}"`,
    );
  }
  return ms;
}

function shortId(id: string): string {
  return id.replace(/^deja\./, "").replace(/\/\d+$/, "");
}

/**
 * The one-line notice a `--quiet` run still prints when recommendations
 * land: `deja loop: 3 new (1 high) — deja loop list`.
 *
 * @param result The run outcome.
 * @returns The line, or undefined when nothing new was stored.
 */
export function newRecommendationsNotice(
  result: RunResult,
): string | undefined {
  if (result.dry_run || result.stored === 0) return undefined;
  const high =
    result.recommendations.filter((r) =>
      severityRank(r.severity) >= severityRank("high")
    ).length;
  return `deja loop: ${result.stored} new${
    high ? ` (${high} high)` : ""
  } — deja loop list\n`;
}

function report(result: RunResult): string {
  const lines: string[] = [];
  const fresh = result.new_since_watermark;
  if (result.outcome === "skipped") {
    const why = result.skip_reason === "lock_held"
      ? "another loop run holds the lock"
      : `${result.skip_reason}: ${plural(fresh.grains, "new grain")}, ${
        plural(fresh.error_events, "new error event")
      } since the last run`;
    lines.push(`loop: skipped (${why})`);
    return lines.join("\n") + "\n";
  }
  const verb = result.dry_run ? "would store" : "stored";
  lines.push(
    `loop: ran ${result.analyzers_run.length} analyzer${
      result.analyzers_run.length === 1 ? "" : "s"
    } in ${Math.round(result.duration_ms)} ms — ${result.proposed} proposed, ${
      result.dry_run ? result.recommendations.length : result.stored
    } ${verb}, ${result.deduped} already open or below floor, ${result.auto_applied} auto-applied`,
  );
  lines.push(
    `      ${plural(fresh.grains, "new grain")} and ${
      plural(fresh.error_events, "new error event")
    } since the last run`,
  );
  for (const r of result.recommendations) {
    const hash = r.hash ? r.hash.slice(0, 12) : "(dry run)   ";
    lines.push(
      `  ${hash}  ${r.severity.padEnd(6)}  ${
        shortId(r.analyzer).padEnd(20)
      }  ${r.summary}${r.auto_applied ? "  [auto-applied]" : ""}`,
    );
  }
  for (const s of result.analyzers_skipped) {
    lines.push(`  skipped ${s.id}: ${s.reason}`);
  }
  if (!result.dry_run && result.stored > 0) {
    lines.push("next: deja loop list, then deja loop show <hash>");
  } else if (result.proposed === 0 && fresh.grains + fresh.error_events > 0) {
    // New data and no finding: the thresholds are what a person checks.
    lines.push(
      "  nothing crossed an analyzer's thresholds (windows, rates, counts): deja loop analyzers shows them, deja loop set <analyzer>.<param>=<value> changes one",
    );
  }
  return lines.join("\n") + "\n";
}

/** `deja loop run`. */
export const loopRunCommand: Command = {
  name: "loop run",
  summary: "Run the loop's analyzers and queue new recommendations",
  usage:
    "deja loop run [--db FILE] [--min-new N] [--min-new-errors N] [--if-stale D] [--quiet] [--dry-run] [--only ID] [--format json]",
  help: `One analysis pass over the memory file: every active analyzer reads the
grains, drafts are deduplicated against open recommendations and stored as
pending, host policy may auto-apply structural ones, and the watermark moves.
A bare run always runs; gates are for hooks and cron. Exit 0 on a run or a
clean skip (including "lock_held" when another run is active), 1 on error.

Options:
  --db FILE              Memory file (default $DEJA_DB or ~/.local/share/deja/memory.db)
  --min-new N            Run only if N grains arrived since the last run
  --min-new-errors N     ... or N new failed tool events (OR-combined with the others)
  --if-stale D           ... or the last run is older than D (e.g. 6h)
  --quiet                Print nothing, except one stderr line when new recommendations land
  --dry-run              Analyze and print drafts; store nothing, keep the watermark
  --only ID              Run only this analyzer (repeatable; id, id without /N, or name)
  --format json          Print the run outcome as JSON (also --json)
  --from-index           First learn tool calls from the transcript index ($DEJA_INDEX)
  --analyzer-cmd 'ID=CMD'  Add a command analyzer for this run (repeatable; never stored)
  --analyzer-timeout S   Seconds per command-analyzer call (default ${
    DEFAULT_ANALYZER_TIMEOUT_MS / 1000
  })
  --llm-cmd CMD          Optional model command for DISCOVER/ENRICH (never stored, never auto-applied)
  --llm-timeout S        Seconds per model call (default ${
    DEFAULT_LLM_TIMEOUT_MS / 1000
  })
  --policy FILE          Host policy (default $DEJA_LOOP_POLICY)
  --actor LABEL          Who triggered the run (default ${DEFAULT_ACTOR}). Only
                         an explicit --actor is recorded as the trigger, whom
                         self-approval then blocks from approving what it found

Command analyzers and --llm-cmd spawn processes (argv split on whitespace, no
shell); that is why this command holds the "run" permission.

Examples:
  deja loop run --db demo.db
  deja loop run --min-new 20 --min-new-errors 3 --if-stale 6h --quiet
  deja loop run --dry-run --only acme.hello/1 --analyzer-cmd 'acme.hello/1=python3 hello.py'`,
  permissions: { read: true, write: true, env: true, run: true },
  maxPositionals: 0,
  options: {
    db: { type: "string" },
    "min-new": { type: "string" },
    "min-new-errors": { type: "string" },
    "if-stale": { type: "string" },
    quiet: { type: "boolean" },
    "dry-run": { type: "boolean" },
    only: { type: "string", multiple: true },
    ...JSON_OPTIONS,
    "from-index": { type: "boolean" },
    "analyzer-cmd": { type: "string", multiple: true },
    "analyzer-timeout": { type: "string" },
    "llm-cmd": { type: "string" },
    "llm-timeout": { type: "string" },
    policy: { type: "string" },
    actor: { type: "string" },
  },
  async run(args, io) {
    const format = wantsJson(args) ? "json" : "text";
    const options: RunLoopOptions = {
      actor: actorFlag(args),
      cwd: io.cwd,
    };
    if (stringFlag(args, "actor") !== undefined) {
      options.triggeredBy = options.actor as string;
    }
    const minNew = count(args, "min-new");
    const minNewErrors = count(args, "min-new-errors");
    const ifStale = duration(args, "if-stale");
    if (minNew !== undefined) options.minNew = minNew;
    if (minNewErrors !== undefined) options.minNewErrors = minNewErrors;
    if (ifStale !== undefined) options.ifStaleMs = ifStale;
    if (boolFlag(args, "dry-run")) options.dryRun = true;
    const only = listFlag(args, "only");
    if (only.length) options.only = only;
    try {
      const specs = listFlag(args, "analyzer-cmd").map(parseAnalyzerCmd);
      if (specs.length) options.commandAnalyzers = specs;
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
    const at = timeoutFlag(args, "analyzer-timeout");
    if (at !== undefined) options.analyzerTimeoutMs = at;
    const llm = stringFlag(args, "llm-cmd");
    if (llm) options.llmCmd = llm;
    const lt = timeoutFlag(args, "llm-timeout");
    if (lt !== undefined) options.llmTimeoutMs = lt;
    options.policy = loadPolicy(stringFlag(args, "policy"), io.env).policy;
    if (boolFlag(args, "from-index")) {
      const index = indexPath(io.env);
      if (exists(index)) {
        options.importer = (store) => importFromIndex(store, index);
      } else if (!boolFlag(args, "quiet")) {
        // The session-end hook runs this while the first index pass may
        // still be writing: the analyzers still run on what the file holds.
        io.stderr.write(
          `loop: no transcript index at ${index} yet, so no commands were learned (deja index builds it)\n`,
        );
      }
    }

    const path = dbPath(args, io);
    // A dry run stores nothing: with no memory file yet, it makes none.
    const store = openMemory(
      options.dryRun && !exists(path) ? ":memory:" : path,
      { now: io.now },
    );
    let result: RunResult;
    try {
      result = await runLoop(store, options, io.now());
    } finally {
      store.close();
    }
    if (format === "json") printJson(io, result);
    else if (!boolFlag(args, "quiet")) io.stdout.write(report(result));
    if (boolFlag(args, "quiet")) {
      const notice = newRecommendationsNotice(result);
      if (notice) io.stderr.write(notice);
    }
    return EXIT.ok;
  },
};

function openForReading(
  path: string,
  io: Io,
): MemoryReader & { close(): void } {
  return exists(path)
    ? openMemory(path, { readOnly: true, now: io.now })
    : openMemory(":memory:", { now: io.now });
}

/** `deja loop analyzers`. */
export const loopAnalyzersCommand: Command = {
  name: "loop analyzers",
  summary: "List the loop's analyzers, whether each is active, and why not",
  usage: "deja loop analyzers [--db FILE] [--policy FILE] [--format json]",
  help:
    `Every built-in analyzer with its state in this memory file: on or off (and
which layer decided: default, memory file, host policy), whether it would run
now, and if not, why (missing grain types, no recall telemetry, bad params).

Options:
  --db FILE        Memory file
  --policy FILE    Host policy (default $DEJA_LOOP_POLICY)
  --format json    Manifests, params and activation as JSON (also --json)`,
  permissions: { read: true, env: true },
  maxPositionals: 0,
  options: {
    db: { type: "string" },
    policy: { type: "string" },
    ...JSON_OPTIONS,
  },
  run(args, io) {
    const format = wantsJson(args) ? "json" : "text";
    const policy = loadPolicy(stringFlag(args, "policy"), io.env).policy;
    const store = openForReading(dbPath(args, io), io);
    try {
      const config = store.config();
      const acts = activation(store, config, { policy });
      if (format === "json") {
        printJson(
          io,
          acts.map((a) => ({
            ...a,
            manifest: findAnalyzer(a.id)!.manifest,
            config: config[a.id] ?? null,
          })),
        );
        return Promise.resolve(EXIT.ok);
      }
      const width = Math.max(...acts.map((a) => a.id.length));
      for (const a of acts) {
        const state = a.active
          ? "active  "
          : a.enabled
          ? "waiting "
          : "off     ";
        io.stdout.write(
          `${a.id.padEnd(width)}  ${state}  ${a.title} — ${a.reason}\n`,
        );
        const m = findAnalyzer(a.id)!.manifest;
        const params = m.params.map((p) =>
          `${p.name}=${config[a.id]?.params?.[p.name] ?? p.default}`
        ).join(" ");
        if (params) {
          io.stdout.write(`${" ".repeat(width)}  params  ${params}\n`);
        }
      }
      return Promise.resolve(EXIT.ok);
    } finally {
      store.close();
    }
  },
};

function requireAnalyzer(name: string | undefined): string {
  if (!name) {
    throw new UsageError(
      "Name an analyzer, e.g. deja.staleness/1 or staleness",
    );
  }
  const a = findAnalyzer(name);
  if (!a) {
    throw new UsageError(
      `Unknown analyzer "${name}"; known: ${
        ANALYZERS.map((x) => x.manifest.id).join(", ")
      }`,
    );
  }
  return a.manifest.id;
}

function toggle(enabled: boolean): Command {
  const verb = enabled ? "enable" : "disable";
  return {
    name: `loop ${verb}`,
    summary: `${
      enabled ? "Turn on" : "Turn off"
    } an analyzer in this memory file`,
    usage: `deja loop ${verb} <analyzer> [--db FILE] [--actor LABEL]`,
    help:
      `Stores "${verb}d" for the analyzer in the memory file's loop config. Host
policy still wins: a denied analyzer stays off whatever the file says.

Options:
  --db FILE       Memory file
  --actor LABEL   Who made the change (default ${DEFAULT_ACTOR})
  --json          Print the analyzer's stored config as JSON`,
    permissions: { read: true, write: true, env: true },
    options: {
      db: { type: "string" },
      actor: { type: "string" },
      ...JSON_OPTIONS,
    },
    run(args, io) {
      if (args.positionals.length > 1) {
        throw new UsageError(`loop ${verb} takes one analyzer`);
      }
      const id = requireAnalyzer(args.positionals[0]);
      const json = wantsJson(args);
      const store = openMemory(dbPath(args, io), { now: io.now });
      try {
        store.setConfig(id, { ...editableConfig(store, id), enabled }, {
          actor: actorFlag(args),
          now: io.now(),
        });
        if (json) printJson(io, store.config()[id]);
      } finally {
        store.close();
      }
      if (!json) io.stdout.write(`${id}: ${verb}d\n`);
      return Promise.resolve(EXIT.ok);
    },
  };
}

/**
 * An analyzer's stored config without the fields the store writes itself
 * (who, from where, when): what a change starts from.
 */
function editableConfig(store: MemoryStore, id: string) {
  const {
    analyzer: _a,
    actor: _b,
    source: _c,
    updated_at: _d,
    ...config
  } = store.config()[id] ??
    { analyzer: id, actor: "", source: "", updated_at: 0 };
  return config;
}

/** `deja loop enable`. */
export const loopEnableCommand: Command = toggle(true);
/** `deja loop disable`. */
export const loopDisableCommand: Command = toggle(false);

/** `deja loop set`. */
export const loopSetCommand: Command = {
  name: "loop set",
  summary: "Set an analyzer parameter in this memory file",
  usage:
    "deja loop set <analyzer>.<param>=<value>... [--db FILE] [--actor LABEL]",
  help: `Validates each value against the analyzer's manifest (kind and bounds)
before storing it. Besides declared params, "severity_floor" (info..critical)
and "namespaces" (comma list, empty for all) are accepted. An empty value
removes a param override.

Examples:
  deja loop set tool_failure.min_count=5
  deja loop set deja.staleness/1.grace=7d
  deja loop set duplicate_sweep.namespaces=crm,ops

Options:
  --db FILE       Memory file
  --actor LABEL   Who made the change (default ${DEFAULT_ACTOR})
  --json          Print each changed analyzer's stored config as JSON`,
  permissions: { read: true, write: true, env: true },
  options: {
    db: { type: "string" },
    actor: { type: "string" },
    ...JSON_OPTIONS,
  },
  run(args, io) {
    if (args.positionals.length === 0) {
      throw new UsageError("Give at least one <analyzer>.<param>=<value>");
    }
    const json = wantsJson(args);
    const changes = args.positionals.map((p) => {
      const m = /^(.+)\.([a-z_][a-z0-9_]*)=(.*)$/s.exec(p);
      if (!m) {
        throw new UsageError(`Expected <analyzer>.<param>=<value>, got "${p}"`);
      }
      const id = requireAnalyzer(m[1]);
      const name = m[2]!;
      const raw = m[3]!;
      if (name === "severity_floor") {
        if (raw !== "" && !SEVERITIES.includes(raw as Severity)) {
          throw new UsageError(
            `severity_floor must be one of ${SEVERITIES.join(", ")}`,
          );
        }
        return { id, name, value: raw === "" ? undefined : raw };
      }
      if (name === "namespaces") {
        return {
          id,
          name,
          value: raw.split(",").map((s) => s.trim()).filter(Boolean),
        };
      }
      const spec = findAnalyzer(id)!.manifest.params.find((s) =>
        s.name === name
      );
      if (!spec) {
        const known = findAnalyzer(id)!.manifest.params.map((s) => s.name);
        throw new UsageError(
          `Analyzer "${id}" has no param "${name}"; params: ${
            known.join(", ") || "none"
          }`,
        );
      }
      if (raw === "") return { id, name, value: undefined, param: true };
      try {
        const parsed = parseParam(spec, raw);
        return {
          id,
          name,
          value: spec.kind === "duration" ? raw : parsed,
          param: true,
        };
      } catch (err) {
        throw new UsageError((err as Error).message);
      }
    });
    const store = openMemory(dbPath(args, io), { now: io.now });
    try {
      for (const c of changes) {
        const config = editableConfig(store, c.id);
        if ("param" in c) {
          const params = { ...(config.params ?? {}) };
          if (c.value === undefined) delete params[c.name];
          else params[c.name] = c.value;
          config.params = params;
        } else if (c.name === "severity_floor") {
          if (c.value === undefined) delete config.severity_floor;
          else config.severity_floor = c.value as Severity;
        } else {
          config.namespaces = c.value as string[];
        }
        store.setConfig(c.id, config, {
          actor: actorFlag(args),
          now: io.now(),
        });
        if (!json) {
          io.stdout.write(
            `${c.id}.${c.name} = ${
              c.value === undefined ? "(default)" : JSON.stringify(c.value)
            }\n`,
          );
        }
      }
      if (json) {
        const ids = [...new Set(changes.map((c) => c.id))];
        const config = store.config();
        printJson(io, ids.map((id) => config[id]));
      }
    } finally {
      store.close();
    }
    return Promise.resolve(EXIT.ok);
  },
};

function defaultOs(): SchedulerOs {
  if (Deno.build.os === "darwin") return "launchd";
  if (Deno.build.os === "windows") return "windows";
  return "cron";
}

function mainPath(): string {
  const p = decodeURIComponent(new URL("../main.ts", import.meta.url).pathname);
  return Deno.build.os === "windows"
    ? p.replace(/^\/([A-Za-z]:)/, "$1").replaceAll("/", "\\")
    : p;
}

/**
 * The argv that starts deja from a scheduler: the compiled binary itself,
 * or `deno run` with exactly the permissions `loop run` declares and the
 * absolute path of main.ts.
 */
function dejaArgv(explicit: string | undefined): string[] {
  if (explicit) return [explicit];
  const exe = Deno.execPath();
  if (!/^deno(\.exe)?$/i.test(basename(exe))) return [exe];
  const perms = loopRunCommand.permissions;
  const flags = (["read", "write", "env", "run"] as const).filter((k) =>
    perms[k]
  ).map((k) => `--allow-${k}`);
  return [exe, "run", ...flags, mainPath()];
}

/** `deja loop schedule`. */
export const loopScheduleCommand: Command = {
  name: "loop schedule",
  summary:
    "Print a cron / systemd / launchd / Windows snippet that runs the loop",
  usage:
    "deja loop schedule [--print] [--every 6h] [--os cron|systemd|launchd|windows] [--db FILE]",
  help: `Prints (never installs) a snippet for your scheduler that runs
"deja loop run --min-new 20 --quiet" on this memory file. There is no deja
daemon: time triggers are the operating system's job.

Options:
  --print          Print the snippet (all this verb does; it installs nothing)
  --every D        Interval (default 6h; whole minutes)
  --os NAME        cron, systemd, launchd or windows (default: this machine's)
  --db FILE        Memory file baked into the command (absolute)
  --deja PATH      Program to run instead of the detected deja`,
  permissions: { read: true, env: true },
  maxPositionals: 0,
  options: {
    print: { type: "boolean" },
    every: { type: "string" },
    os: { type: "string" },
    db: { type: "string" },
    deja: { type: "string" },
  },
  run(args, io) {
    // Printing is all it does (it never installs anything): --print only
    // says so.
    const os = (stringFlag(args, "os") ?? defaultOs()) as SchedulerOs;
    if (!SCHEDULER_OSES.includes(os)) {
      throw new UsageError(`--os must be one of ${SCHEDULER_OSES.join(", ")}`);
    }
    const every = duration(args, "every") ?? 6 * 3_600_000;
    const argv = [
      ...dejaArgv(stringFlag(args, "deja")),
      "loop",
      "run",
      "--db",
      dbPath(args, io),
      "--min-new",
      "20",
      "--quiet",
    ];
    try {
      io.stdout.write(scheduleSnippet({ os, everyMs: every, argv }));
    } catch (err) {
      if (err instanceof RangeError) throw new UsageError(err.message);
      throw err;
    }
    return Promise.resolve(EXIT.ok);
  },
};

/** Every command this module registers, for `cli/commands.ts`. */
export const LOOP_RUN_COMMANDS: readonly Command[] = [
  loopRunCommand,
  loopAnalyzersCommand,
  loopEnableCommand,
  loopDisableCommand,
  loopSetCommand,
  loopScheduleCommand,
].map(printsSafely);
