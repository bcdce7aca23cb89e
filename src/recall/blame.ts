/**
 * `deja blame`: the sessions that discussed or edited a file, and what they
 * decided; with a line number, the session whose edit record replaced the
 * text git says the line's commit removed.
 *
 * @module
 */
import { basename, dirname, isAbsolute, resolve } from "node:path";
import type { Database } from "../core/_sqlite.ts";
import { UsageError } from "../core/errors.ts";
import {
  readSessionRecords,
  type SessionInfo,
  sessionInfoOf,
  type StoredRecord,
} from "../search/mod.ts";
import {
  collapse,
  conclusionOf,
  DECISION_LINE,
  decisionSentence,
  isExcluded,
  matchRecords,
  recordAt,
  sessionRows,
} from "./_db.ts";

/** What `blame` was asked about: a file, and a 1-based line after `:`. */
export interface BlameTarget {
  /** The path as given, without the `:line`. */
  file: string;
  /** The line, when the path ended in `:N`. */
  line?: number;
}

/**
 * Splits `path[:line[:column]]`; the column compilers and stack traces
 * print after the line is dropped. Lines are numbered from 1, so `:0` and a
 * number too large to hold exactly are refused rather than answered as
 * "past the end". Blame finds a file by its name, so a directory (a path
 * ending in a separator, `.` or `..`) and a one-character name, which would
 * match any path component or word, are refused.
 *
 * @param raw The path as the person or agent typed it.
 * @returns The file and the line, if one was given.
 * @throws {UsageError} When the path names a directory or too short a name,
 * or the line is 0 or too large.
 */
export function parseBlameTarget(raw: string): BlameTarget {
  const m = raw.match(/^(.*?):(\d+)(?::\d+)?$/);
  const file = m ? m[1] as string : raw;
  const name = file.split(/[\\/]/).at(-1) ?? "";
  if (name === "" || name === "." || name === "..") {
    throw new UsageError(
      `"${file}" names a directory: blame takes a file in it`,
    );
  }
  if (name.length < 2) {
    throw new UsageError(
      `File name "${name}" is too short to find: name a file of 2 or more characters`,
    );
  }
  if (!m) return { file };
  const line = Number(m[2]);
  if (line < 1 || !Number.isSafeInteger(line)) {
    throw new UsageError(
      `Line ${m[2]} of ${m[1]} does not exist: lines are numbered from 1`,
    );
  }
  return { file: m[1] as string, line };
}

/** Options for {@linkcode blame}. */
export interface BlameOptions {
  /** Directory a relative path is resolved against. */
  cwd: string;
  /** Session ids to leave out. */
  exclude?: ReadonlySet<string>;
  /** Sessions to return (default 8). */
  limit?: number;
  /** The clock, epoch ms. */
  now: number;
}

/** One session that touched the file. */
export interface BlameEntry {
  /** The session. */
  session: SessionInfo;
  /** Records that name the file. */
  mentions: number;
  /** Whether the session changed the file. */
  edited: boolean;
  /** Whether a record named the full path (not only the basename). */
  fullPath: boolean;
  /** Ranking score. */
  score: number;
  /** What the session decided about the file, or last said of it. */
  decision?: string;
  /**
   * "decided" when the sentence states a decision (or a fix, a cause);
   * "said" when it is only the last thing said about the file or session.
   */
  decisionKind?: "decided" | "said";
}

/** What {@linkcode blame} found. */
export interface BlameResult {
  /** The file as asked. */
  file: string;
  /** The absolute path it resolved to. */
  path: string;
  /** Sessions, best first. */
  entries: BlameEntry[];
  /** Why there are none, when there are none. */
  why?: string;
}

const DAY = 86_400_000;
const EDIT_TOOLS =
  /^(edit|multiedit|write|apply_patch|write_file|replace|str_replace|create_file|edit_file|patch|notebookedit)$/i;

function escapeRe(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * A matcher for a basename standing as a path component or a word of its
 * own (not inside a longer name).
 *
 * @param name The basename, e.g. `users.ts`.
 * @returns The pattern.
 * @example
 * ```ts
 * import { basenamePattern } from "./blame.ts";
 * import { equal } from "node:assert/strict";
 * equal(basenamePattern("users.ts").test("edited src/routes/users.ts."), true);
 * equal(basenamePattern("users.ts").test("see old_users.ts"), false);
 * ```
 */
export function basenamePattern(name: string): RegExp {
  return new RegExp(
    `(^|[\\s/\\\\"'\`(\\[<:=])${
      escapeRe(name)
    }(?=$|[\\s"'\`)\\]>,;:!?]|\\.(\\s|$))`,
    "m",
  );
}

/**
 * Finds the sessions that discussed or edited a file.
 *
 * @param db The index.
 * @param file A path (relative to `options.cwd`, or absolute).
 * @param options Working directory, exclusions, limit, clock.
 * @returns Sessions ranked by how directly they touched the file.
 */
export async function blame(
  db: Database,
  file: string,
  options: BlameOptions,
): Promise<BlameResult> {
  const path = isAbsolute(file) ? file : resolve(options.cwd, file);
  const name = basename(path);
  const result: BlameResult = { file, path, entries: [] };
  if (!name) return { ...result, why: "The path has no file name" };
  const pattern = basenamePattern(name);
  const suffix = file.replace(/^\.\//, "").split(/[\\/]/).length > 1
    ? file.replace(/^\.\//, "")
    : undefined;
  const hits = [
    ...matchRecords(db, {
      terms: [name],
      roles: ["files", "edit"],
      limit: 3000,
    }),
    ...matchRecords(db, {
      terms: [name],
      roles: ["user", "assistant"],
      limit: 3000,
    }),
  ];
  if (hits.length === 0) {
    return { ...result, why: `No session mentions "${name}"` };
  }
  const rows = sessionRows(db, hits.map((h) => h.session));
  const tally = new Map<
    number,
    { mentions: number; edited: boolean; full: boolean; raw: number }
  >();
  for (const hit of hits) {
    const row = rows.get(hit.session);
    if (!row || isExcluded(row, options.exclude)) continue;
    const rec = await recordAt(db, hit.rowid);
    if (!rec) continue;
    const text = rec.role === "edit"
      ? rec.text.split("\n", 1)[0] ?? ""
      : rec.text;
    if (!pattern.test(text)) continue;
    // The same file name in another folder is another file.
    if (suffix !== undefined && otherFolder(text, suffix)) continue;
    const full = text.includes(path) ||
      (suffix !== undefined && text.includes(suffix));
    const edited = rec.role === "edit" ||
      (rec.role === "files" && EDIT_TOOLS.test(rec.tool ?? ""));
    const weight = (edited ? 3 : rec.role === "files" ? 1.5 : 1) *
      (full ? 2 : 1);
    const t = tally.get(hit.session) ??
      { mentions: 0, edited: false, full: false, raw: 0 };
    t.mentions++;
    t.edited ||= edited;
    t.full ||= full;
    t.raw += weight;
    tally.set(hit.session, t);
  }
  const scored = [...tally.entries()].map(([sid, t]) => {
    const row = rows.get(sid)!;
    const ageDays = Math.max(
      0,
      (options.now - (row.updated ?? options.now)) / DAY,
    );
    let score = Math.log2(1 + t.raw) * (0.5 + 0.5 / (1 + ageDays / 30));
    if (
      row.cwd &&
      path.startsWith(row.cwd.endsWith("/") ? row.cwd : `${row.cwd}/`)
    ) score *= 1.5;
    return { sid, row, t, score };
  }).sort((a, b) =>
    b.score - a.score || (b.row.updated ?? 0) - (a.row.updated ?? 0)
  );
  for (const { sid, row, t, score } of scored.slice(0, options.limit ?? 8)) {
    const entry: BlameEntry = {
      session: sessionInfoOf(row),
      mentions: t.mentions,
      edited: t.edited,
      fullPath: t.full,
      score: Math.round(score * 1000) / 1000,
    };
    const decision = decisionAbout(await readSessionRecords(db, sid), pattern);
    if (decision.text) {
      entry.decision = decision.text;
      entry.decisionKind = decision.kind;
    }
    result.entries.push(entry);
  }
  if (result.entries.length === 0) {
    result.why = `"${name}" appears only inside longer names`;
  }
  return result;
}

/**
 * Whether a record names the file only by paths whose folders the typed
 * path contradicts (compared from the file name up, as far as both go):
 * "packages/es/src/index.ts" is another file than "server/src/index.ts".
 */
function otherFolder(recorded: string, typed: string): boolean {
  const parts = (p: string) =>
    p.trim().toLowerCase().split(/[\\/]+/).filter((c) => c && c !== ".");
  // Only what the typed path names below its last "..".
  const typedParts = parts(typed);
  const want = typedParts.slice(typedParts.lastIndexOf("..") + 1);
  const name = want[want.length - 1];
  const paths = recorded.split(/[\s`'"()]+/).filter((w) =>
    w.toLowerCase().endsWith(`/${name}`) ||
    w.toLowerCase().endsWith(`\\${name}`)
  );
  const contradicts = (token: string) => {
    const got = parts(token);
    for (let i = 2; i <= Math.min(want.length, got.length); i++) {
      if (want[want.length - i] !== got[got.length - i]) return true;
    }
    return false;
  };
  return paths.length > 0 && paths.every(contradicts);
}

function decisionAbout(
  records: readonly StoredRecord[],
  pattern: RegExp,
): { text: string; kind: "decided" | "said" } {
  const speech = records.filter((r) =>
    (r.role === "assistant" || r.role === "user") && r.text.trim()
  );
  const about = speech.filter((r) => pattern.test(r.text));
  // The latest word on the file: a decision the assistant came back to
  // later ("isn't installed yet" → "✅ has the base image") is outdated.
  const latest = [...about].reverse().find((r) =>
    r.role === "assistant" || DECISION_LINE.test(r.text)
  );
  if (latest) {
    return {
      text: decisionSentence(latest.text, 240, pattern),
      kind: DECISION_LINE.test(latest.text) ? "decided" : "said",
    };
  }
  const concluded = conclusionOf(records);
  return { text: concluded.text, kind: concluded.decided ? "decided" : "said" };
}

/** Runs git; returns its exit code and stdout. */
export type GitRunner = (
  args: readonly string[],
  cwd: string,
) => Promise<{ code: number; stdout: string }>;

/** Options for {@linkcode blameLine}. */
export interface BlameLineOptions {
  /** The 1-based line. */
  line: number;
  /** Directory a relative path is resolved against. */
  cwd: string;
  /** Runs git (default: the `git` on PATH). */
  git?: GitRunner;
  /** Session ids to leave out. */
  exclude?: ReadonlySet<string>;
}

/** Who changed one line, or which silence it is. */
export interface LineAttribution {
  /** The absolute path. */
  path: string;
  /** The 1-based line. */
  line: number;
  /** The commit git blames for the line. */
  commit?: string;
  /** The session whose edit replaced the text the commit removed. */
  session?: SessionInfo;
  /** The rule that answered. */
  rule?: "replaced";
  /** The replaced text, as the edit record holds it. */
  replaced?: string;
  /** Why no session is named, when none is. */
  silence?: string;
}

/** Spans shorter than this (after collapsing whitespace) are never compared. */
export const MIN_SPAN = 24;

/**
 * Names the session that changed one line: git names the commit that last
 * changed it, and the session is the one whose edit record replaced the same
 * text that commit removed. Without a match, one sentence says which silence
 * it is.
 *
 * @param db The index.
 * @param file A path (relative to `options.cwd`, or absolute).
 * @param options The line, working directory, git runner, exclusions.
 * @returns The attribution.
 */
export async function blameLine(
  db: Database,
  file: string,
  options: BlameLineOptions,
): Promise<LineAttribution> {
  const line = options.line;
  const path = isAbsolute(file) ? file : resolve(options.cwd, file);
  const out: LineAttribution = { path, line };
  const git = options.git ?? runGit;
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch {
    return { ...out, silence: `${file} cannot be read` };
  }
  const count = text.length === 0
    ? 0
    : text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
  if (line < 1 || line > count) {
    return {
      ...out,
      silence: `Line ${line} is past the end of ${file} (${count} line${
        count === 1 ? "" : "s"
      })`,
    };
  }
  const dir = dirname(path);
  let blamed;
  try {
    blamed = await git([
      "blame",
      "-L",
      `${line},${line}`,
      "--porcelain",
      "--",
      path,
    ], dir);
  } catch {
    return {
      ...out,
      silence:
        "git is not available here, so no commit can be named for the line",
    };
  }
  if (blamed.code !== 0) {
    return {
      ...out,
      silence: `git cannot blame ${file} (not in a repository, or not tracked)`,
    };
  }
  const sha = blamed.stdout.split(/\s/, 1)[0] ?? "";
  if (!/^[0-9a-f]{7,}$/.test(sha) || /^0+$/.test(sha)) {
    return {
      ...out,
      silence:
        `Line ${line} is not committed yet, so git names no commit for it`,
    };
  }
  out.commit = sha;
  const shown = await git([
    "show",
    "--format=",
    "--unified=0",
    "--no-color",
    "--no-ext-diff",
    sha,
    "--",
    path,
  ], dir);
  const removed = shown.stdout.split("\n").filter((l) =>
    l.startsWith("-") && !l.startsWith("---")
  )
    .map((l) => l.slice(1)).join("\n");
  const gone = collapse(removed);
  if (gone.length < MIN_SPAN) {
    return {
      ...out,
      silence: `Commit ${
        sha.slice(0, 8)
      } replaced no text long enough to match (deja compares replaced spans of ${MIN_SPAN}+ characters)`,
    };
  }
  const edits = matchRecords(db, {
    terms: [basename(path)],
    roles: ["edit"],
    limit: 2000,
  });
  const rows = sessionRows(db, edits.map((e) => e.session));
  let best:
    | { rec: StoredRecord; session: number; span: number; time: number }
    | undefined;
  for (const e of edits) {
    const row = rows.get(e.session);
    if (!row || isExcluded(row, options.exclude)) continue;
    const rec = await recordAt(db, e.rowid);
    if (!rec) continue;
    const [head, ...body] = rec.text.split("\n");
    if (!head || basename(head.trim()) !== basename(path)) continue;
    const span = collapse(body.join("\n"));
    if (span.length < MIN_SPAN) continue;
    if (!gone.includes(span) && !span.includes(gone)) continue;
    const time = rec.time ?? row.updated ?? 0;
    if (
      !best || span.length > best.span ||
      (span.length === best.span && time > best.time)
    ) {
      best = { rec, session: e.session, span: span.length, time };
    }
  }
  if (!best) {
    return {
      ...out,
      silence: `No recorded edit replaced the text commit ${
        sha.slice(0, 8)
      } removed from ${file}`,
    };
  }
  const row = rows.get(best.session)!;
  return {
    ...out,
    session: sessionInfoOf(row),
    rule: "replaced",
    replaced: best.rec.text.split("\n").slice(1).join("\n"),
  };
}

async function runGit(
  args: readonly string[],
  cwd: string,
): Promise<{ code: number; stdout: string }> {
  const res = await new Deno.Command("git", {
    args: [...args],
    cwd,
    stdout: "piped",
    stderr: "null",
    stdin: "null",
  })
    .output();
  return { code: res.code, stdout: new TextDecoder().decode(res.stdout) };
}
