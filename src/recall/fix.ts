/**
 * `deja fix`: given an error, what ran after the same error last time and
 * worked — the commands that followed a failure without the error coming
 * back, this project's sessions first.
 *
 * @module
 */
import type { Database } from "../core/_sqlite.ts";
import {
  type SessionInfo,
  sessionInfoOf,
  type StoredRecord,
} from "../search/mod.ts";
import {
  clip,
  collapse,
  commandFailed,
  DECISION_LINE,
  decisionSentence,
  isExcluded,
  matchRecords,
  normalizeCommand,
  readsOnly,
  recordsBetween,
  sessionRows,
} from "./_db.ts";
import { isIrreversible } from "./irreversible.ts";

/** Options for {@linkcode fixFor}. */
export interface FixOptions {
  /** The asker's project; its sessions rank first. */
  project?: string;
  /** Only this project's sessions and those recorded without one (hooks). */
  projectOnly?: boolean;
  /** Session ids to leave out (live sessions, the asker). */
  exclude?: ReadonlySet<string>;
  /** Pairs to return (default 5). */
  limit?: number;
}

/** One error seen before and what followed it. */
export interface FixPair {
  /** The session it happened in. */
  session: SessionInfo;
  /** The command that failed, when one did. */
  failed?: string;
  /** The error line as recorded. */
  error: string;
  /** Commands that ran after it and succeeded, in order (never irreversible ones). */
  remedy: string[];
  /** The failed command run again and passing. */
  verified?: string;
  /** Files changed between the error and the passing run. */
  edited: string[];
  /** What the agent concluded after the error. */
  conclusion?: string;
  /** Whether the session is the asker's project. */
  sameProject: boolean;
}

/** What {@linkcode fixFor} found. */
export interface FixResult {
  /** The error as asked. */
  error: string;
  /** The words searched for. */
  terms: string[];
  /** Pairs, best first. */
  pairs: FixPair[];
  /** Why there are none, when there are none. */
  why?: string;
}

const COMMON = new Set([
  "error",
  "errors",
  "failed",
  "fail",
  "failure",
  "the",
  "a",
  "an",
  "at",
  "in",
  "of",
  "to",
  "is",
  "not",
  "and",
  "or",
  "on",
  "for",
  "with",
  "cannot",
  "could",
  "code",
  "exit",
  "warning",
  "fatal",
  "line",
  "file",
  "from",
  "be",
  "was",
  "by",
  "this",
  "that",
  "it",
]);

/**
 * The distinctive pieces of an error message, most distinctive first:
 * identifiers, codes and addresses before plain words; numbers alone and
 * filler words are dropped.
 *
 * @param error The error text (its first line matters most).
 * @param max At most this many.
 * @returns Search terms.
 * @example
 * ```ts
 * import { errorTerms } from "./fix.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(errorTerms("Error: connect ECONNREFUSED 127.0.0.1:5432"), ["127.0.0.1:5432", "ECONNREFUSED", "connect"]);
 * ```
 */
export function errorTerms(error: string, max = 5): string[] {
  return lineTerms(errorLine(error), max);
}

/** Tokens that change from run to run: durations, clock times, dates, addresses. */
const VOLATILE =
  /^(?:\d+(?:\.\d+)?(?:ms|s|sec|secs|m|min|h|us|µs|ns)|\d{1,2}:\d{2}(?::\d{2})?(?:[.,]\d+)?|\d{4}-\d{2}-\d{2}\S*|0x[0-9a-f]{6,})$/i;

/** The distinctive pieces of one error line (see {@linkcode errorTerms}). */
function lineTerms(line: string, max: number): string[] {
  const seen = new Set<string>();
  const pieces: Array<{ term: string; weight: number; at: number }> = [];
  line.split(/\s+/).forEach((raw, at) => {
    const term = raw.replace(/^[^\p{L}\p{N}_]+|[^\p{L}\p{N}_]+$/gu, "");
    if (term.length < 3 || !/\p{L}/u.test(term) && !/\d[.:]\d/.test(term)) {
      return;
    }
    if (VOLATILE.test(term)) return;
    const key = term.toLowerCase();
    if (COMMON.has(key) || seen.has(key)) return;
    seen.add(key);
    let weight = Math.min(term.length, 12);
    if (/[._:/\\-]/.test(term)) weight += 8;
    if (/\d/.test(term)) weight += 4;
    if (/^[A-Z0-9_]{4,}$/.test(term) || /[a-z][A-Z]/.test(term)) weight += 10;
    pieces.push({ term, weight, at });
  });
  return pieces.sort((a, b) => b.weight - a.weight || a.at - b.at).slice(0, max)
    .map((p) => p.term);
}

/**
 * The line of an error output that carries the error: the first line that
 * names one, else the first non-empty line.
 *
 * @param text Error output.
 * @returns One line, trimmed, at most 300 characters.
 * @example
 * ```ts
 * import { errorLine } from "./fix.ts";
 * import { equal } from "node:assert/strict";
 * equal(errorLine("> test\n\nError: connect ECONNREFUSED"), "Error: connect ECONNREFUSED");
 * ```
 */
export function errorLine(text: string): string {
  const lines = text.split("\n").map((l) => l.trim()).filter(Boolean);
  const pick = errorLines(lines)[0] ??
    lines.find((l) => !BARE_EXIT.test(l)) ?? "";
  return pick.length > 300 ? pick.slice(0, 300) : pick;
}

/**
 * The lines that name an error, those that name it outright first (an
 * error class or code, a line opening with "error:") before those that
 * only say something failed (a test runner's "12 failed" summary).
 */
function errorLines(lines: readonly string[]): string[] {
  const named = lines.filter((l) => signalsError(l) && namesError(l));
  return [...named, ...lines.filter((l) => signalsError(l) && !namesError(l))];
}

/** A line that names its error: a class, a code, or "error:" up front. */
function namesError(line: string): boolean {
  return ERROR_CODE.test(line) || ERROR_CLASS.test(line) ||
    /^\W*(?:error|fatal|panic)\b/i.test(line);
}

const ERROR_WORD =
  /\b(error|exception|fatal|panic|traceback|refused|denied|not found|no such|cannot|can't|could not|unable|timed? ?out|failed|invalid|unsupported|missing|undefined)\b/i;
const ERROR_CODE = /\bE[A-Z]{3,}\b/;
/** A named error class: ReferenceError, ModuleNotFoundError, IOException. */
const ERROR_CLASS = /[A-Za-z](?:Error|Exception)\b/;
const BARE_EXIT =
  /^(exit(ed with)? code:?\s*-?\d+|command exited with code \d+)$/i;

/** A trimmed output line that names an error (a bare exit-code line does not). */
function signalsError(line: string): boolean {
  return (ERROR_WORD.test(line) || ERROR_CODE.test(line) ||
    ERROR_CLASS.test(line)) && !BARE_EXIT.test(line);
}

/** Whether one line of the text holds every term. */
function lineHoldsAll(text: string, terms: readonly string[]): boolean {
  return text.split("\n").some((line) => holdsAll(line, terms));
}

function holdsAll(text: string, terms: readonly string[]): boolean {
  const lower = text.toLowerCase();
  return terms.every((t) => lower.includes(t.toLowerCase()));
}

const EDIT_TOOLS =
  /^(edit|multiedit|write|apply_patch|write_file|replace|str_replace|create_file|edit_file|patch)$/i;
const SHELL_REFUSED =
  /command not found|no module named|not recognized as|is not installed|==> not found/i;
const INSTALL =
  /\b(apt(-get)?|brew|npm|pnpm|yarn|pip3?|pipx|uv|cargo|go|gem|dnf|yum|apk)\s+(install|i|add|get)\b/;

/**
 * Finds what followed the same error before.
 *
 * @param db The index.
 * @param error The error text.
 * @param options Project ranking, exclusions and limit.
 * @returns Pairs, this project's first.
 */
export async function fixFor(
  db: Database,
  error: string,
  options: FixOptions = {},
): Promise<FixResult> {
  // A pasted output may name its error on more than one line (a test
  // runner's failing file, then the error it threw): the next one is tried
  // when a line finds nothing.
  const lines = errorLines(
    error.split("\n").map((l) => l.trim()).filter(Boolean),
  ).slice(0, 3);
  let first: FixResult | undefined;
  for (const line of lines.length ? lines : [errorLine(error)]) {
    const result = await fixForTerms(
      db,
      error,
      lineTerms(line.slice(0, 300), 5),
      options,
    );
    if (result.pairs.length) return result;
    first ??= result;
  }
  return first!;
}

/** {@linkcode fixFor} for the terms of one line of the error. */
async function fixForTerms(
  db: Database,
  error: string,
  all: string[],
  options: FixOptions,
): Promise<FixResult> {
  if (all.length === 0) {
    return {
      error,
      terms: [],
      pairs: [],
      why: "The error has no distinctive words to look for",
    };
  }
  // Fewer terms (the least distinctive dropped) until a recorded failure
  // says them on one line.
  let terms = all;
  let seen = false;
  let bySession = new Map<number, FixPair>();
  for (;;) {
    const hits = matchRecords(db, {
      terms,
      roles: ["tool-output"],
      limit: 400,
    });
    seen ||= hits.length > 0;
    if (hits.length) bySession = await pairsOf(db, hits, terms, error, options);
    if (bySession.size || terms.length <= Math.min(2, all.length)) break;
    terms = terms.slice(0, -1);
  }
  if (!seen) {
    return {
      error,
      terms: all,
      pairs: [],
      why: `No recorded command output holds ${
        all.map((t) => `"${t}"`).join(", ")
      }`,
    };
  }
  const pairs = [...bySession.values()].sort((a, b) =>
    Number(b.sameProject) - Number(a.sameProject) ||
    Number(b.remedy.length > 0 || !!b.verified) -
      Number(a.remedy.length > 0 || !!a.verified) ||
    (Date.parse(b.session.updated ?? "") || 0) -
      (Date.parse(a.session.updated ?? "") || 0)
  ).slice(0, options.limit ?? 5);
  const result: FixResult = { error, terms, pairs };
  if (pairs.length === 0) {
    result.why =
      "The error was seen before, but nothing recorded after it ran cleanly";
  }
  return result;
}

/** The first fitting pair of each session the hits are in. */
async function pairsOf(
  db: Database,
  hits: ReturnType<typeof matchRecords>,
  terms: readonly string[],
  error: string,
  options: FixOptions,
): Promise<Map<number, FixPair>> {
  const rows = sessionRows(db, hits.map((h) => h.session));
  const bySession = new Map<number, FixPair>();
  const refused = SHELL_REFUSED.test(error);
  const ordered = [...hits].sort((a, b) =>
    a.session - b.session || a.seq - b.seq
  );
  for (const hit of ordered) {
    if (bySession.has(hit.session)) continue;
    const row = rows.get(hit.session);
    if (!row || isExcluded(row, options.exclude)) continue;
    const sameProject = !!options.project &&
      row.project.toLowerCase() === options.project.toLowerCase();
    if (options.projectOnly && row.project && !sameProject) continue;
    const window = await recordsBetween(db, {
      session: hit.session,
      from: hit.seq - 3,
      to: hit.seq + 40,
    });
    const pair = pairAfter(db, {
      session: hit.session,
      window,
      errorSeq: hit.seq,
      terms,
      refused,
    });
    if (!pair) continue;
    bySession.set(hit.session, {
      session: sessionInfoOf(row),
      sameProject,
      ...pair,
    });
  }
  return bySession;
}

/** Where an error happened and what to judge what followed by. */
interface ErrorSite {
  /** The session rowid. */
  session: number;
  /** Records from just before the error to 40 after it. */
  window: readonly StoredRecord[];
  /** The error output's seq. */
  errorSeq: number;
  /** The terms that found it (their return means it came back). */
  terms: readonly string[];
  /** The shell refused the command (not found): only installs or the corrected program count. */
  refused: boolean;
}

function pairAfter(
  db: Database,
  site: ErrorSite,
): Omit<FixPair, "session" | "sameProject"> | undefined {
  const { session, window, errorSeq, terms, refused } = site;
  const out = window.find((r) => r.seq === errorSeq);
  // The error as asked is one line of the output: terms scattered over a
  // long output (a file read, a log) are another error, or none.
  if (!out || !lineHoldsAll(out.text, terms)) return undefined;
  // The command this output came from: the step just before it, when that
  // step ran a command of the same tool. A model call's error (tool
  // `model`) and a file read's text are no command's output.
  const step = [...window].reverse().find((r) =>
    r.seq < errorSeq && r.role !== "user" && r.role !== "assistant"
  );
  const failedRec = out.tool !== "model" && step?.role === "command" &&
      (!step.tool || !out.tool || step.tool === out.tool)
    ? step
    : undefined;
  const failed = failedRec ? normalizeCommand(failedRec.text) : undefined;
  // Only a failure counts: an output flagged as an error, or its command's.
  if (
    !out.isError &&
    (!failedRec || !commandFailed(db, { session, command: failedRec }))
  ) {
    return undefined;
  }
  let remedy: string[] = [];
  let edited: string[] = [];
  let verified: string | undefined;
  let said: string | undefined;
  let decided: string | undefined;
  for (const r of window) {
    if (r.seq <= errorSeq) continue;
    if (r.role === "user" && verified) break;
    if (r.role === "assistant" && r.text.trim()) {
      said ??= r.text;
      if (!decided && DECISION_LINE.test(r.text)) decided = r.text;
    }
    if (verified) continue;
    if (r.role === "tool-output" && holdsAll(r.text, terms)) {
      // The error came back: what ran before it did not fix it.
      remedy = [];
      edited = [];
      continue;
    }
    if (
      r.role === "edit" || (r.role === "files" && EDIT_TOOLS.test(r.tool ?? ""))
    ) {
      const path = (r.text.split("\n", 1)[0] ?? "").trim();
      if (path && !edited.includes(path) && edited.length < 4) {
        edited.push(path);
      }
      continue;
    }
    if (r.role !== "command") continue;
    const cmd = normalizeCommand(r.text);
    if (commandFailed(db, { session, command: r })) continue;
    if (failed && cmd === failed) {
      verified = cmd;
      continue;
    }
    if (isIrreversible(cmd) || readsOnly(cmd)) continue;
    if (
      refused && !INSTALL.test(cmd) &&
      firstWord(cmd) !== firstWord(failed ?? "")
    ) continue;
    if (!remedy.includes(cmd) && remedy.length < 4) remedy.push(cmd);
  }
  const conclusion = decided ?? said
    ? decisionSentence((decided ?? said) as string)
    : undefined;
  if (remedy.length === 0 && !verified && !conclusion) return undefined;
  const pair: Omit<FixPair, "session" | "sameProject"> = {
    error: termLine(out.text, terms),
    remedy,
    edited,
  };
  if (failed) pair.failed = failed;
  if (verified) pair.verified = verified;
  if (conclusion) pair.conclusion = conclusion;
  return pair;
}

/**
 * The output line holding the most search terms (on a tie, the first that
 * names an error: an npm script's echo shares words with the error below it),
 * else the error line.
 */
function termLine(text: string, terms: readonly string[]): string {
  let best = "";
  let most = 0;
  let bestErrs = false;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    const lower = line.toLowerCase();
    const n = terms.filter((t) => lower.includes(t.toLowerCase())).length;
    if (n === 0) continue;
    const errs = signalsError(line);
    if (n > most || (n === most && errs && !bestErrs)) {
      most = n;
      best = line;
      bestErrs = errs;
    }
  }
  const pick = best || errorLine(text) || collapse(text);
  return clip(pick, 240);
}

function firstWord(cmd: string): string {
  return cmd.trim().split(/\s+/, 1)[0] ?? "";
}
