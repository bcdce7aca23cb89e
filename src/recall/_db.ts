/**
 * Index reads the work verbs share: full-text candidates by table, single
 * records, session rows, and the small text helpers (decision lines,
 * whitespace collapse, command normalisation).
 *
 * @module
 */
import type { Database } from "../core/_sqlite.ts";
// The index's schema and body reader alone: its mod.ts brings the indexer, which a query never needs.
import { FLAG, ftsTableFor } from "../index/schema.ts";
import {
  ftsQuote,
  readRecordText,
  recordOf,
  type RecordRow,
  type SessionRow,
  type StoredRecord,
} from "../search/mod.ts";

/** What {@linkcode matchRecords} looks for. */
export interface MatchQuery {
  /** Words or phrases (quoted here; FTS syntax is never interpreted). */
  terms: readonly string[];
  /** Roles to keep (all from one FTS table). */
  roles: readonly string[];
  /** AND (default) or OR. */
  joiner?: "AND" | "OR";
  /** At most this many records (default 2000). */
  limit?: number;
}

/** A record found by a full-text match. */
export interface MatchRow {
  rowid: number;
  session: number;
  seq: number;
  role: string;
  score: number;
}

/**
 * Full-text candidates in the table that holds `roles`, best first.
 *
 * @param db The index.
 * @param query Terms, roles, joiner and cap.
 * @returns Matching records.
 */
export function matchRecords(db: Database, query: MatchQuery): MatchRow[] {
  const { roles, ...options } = query;
  const clean = query.terms.map((t) => t.trim()).filter(Boolean);
  if (clean.length === 0 || roles.length === 0) return [];
  const table = ftsTableFor(roles[0] as string);
  const expression = clean.map(ftsQuote).join(` ${options.joiner ?? "AND"} `);
  try {
    return db.prepare(
      `SELECT f.rowid AS rowid, r.session AS session, r.seq AS seq, r.role AS role, -bm25(${table}) AS score
       FROM ${table} f JOIN records r ON r.rowid = f.rowid JOIN sessions s ON s.rowid = r.session
       WHERE ${table} MATCH ? AND s.hidden = 0 AND r.role IN (${
        roles.map(() => "?").join(",")
      })
       ORDER BY rank LIMIT ${Math.max(1, Math.floor(options.limit ?? 2000))}`,
    ).all(expression, ...roles) as unknown as MatchRow[];
  } catch {
    // A term FTS5 cannot tokenize (only punctuation) matches nothing.
    return [];
  }
}

/**
 * One record by rowid.
 *
 * @param db The index.
 * @param rowid The record.
 * @returns The record, or undefined.
 */
export function recordAt(
  db: Database,
  rowid: number,
): Promise<StoredRecord | undefined> {
  return readRecordText(db, rowid);
}

/**
 * Records of a session within a seq window, in order.
 *
 * @param db The index.
 * @param range The session rowid and the first and last seq (inclusive).
 * @returns The records.
 */
export function recordsBetween(
  db: Database,
  range: { session: number; from: number; to: number },
): Promise<StoredRecord[]> {
  const { session, from, to } = range;
  return Promise.all(
    (db.prepare(
      "SELECT * FROM records WHERE session = ? AND seq >= ? AND seq <= ? ORDER BY seq",
    )
      .all(session, from, to) as unknown as RecordRow[]).map(recordOf),
  );
}

/**
 * Session rows by rowid.
 *
 * @param db The index.
 * @param rowids Session rowids.
 * @returns Rows keyed by rowid.
 */
export function sessionRows(
  db: Database,
  rowids: Iterable<number>,
): Map<number, SessionRow> {
  const out = new Map<number, SessionRow>();
  const stmt = db.prepare("SELECT * FROM sessions WHERE rowid = ?");
  for (const id of rowids) {
    if (out.has(id)) continue;
    const row = stmt.get(id) as unknown as SessionRow | undefined;
    if (row) out.set(id, row);
  }
  return out;
}

/**
 * Whether a session is left out: its id, or its parent's (a sub-agent of a
 * live session), is in the exclusion set.
 *
 * @param row The session.
 * @param exclude Session ids to leave out.
 * @returns True when excluded.
 */
export function isExcluded(
  row: SessionRow,
  exclude: ReadonlySet<string> | undefined,
): boolean {
  if (!exclude || exclude.size === 0) return false;
  return exclude.has(row.id) ||
    (row.parent !== null && exclude.has(row.parent));
}

/** Lines that state a conclusion or decision. */
export const DECISION_LINE =
  /\b(decided|decision|we(?:'ll| will) (?:use|go with|keep)|going with|settled on|chose|conclusion|because|root cause|the (?:cause|fix|problem) (?:is|was)|fixed(?: by| it)?|pinn?ed|the failures? (?:are|is|was)|failed because|fails because|no longer|instead of|now (?:answers|passes|pass|reads|works)|pass(?:es)? now)\b/i;

/**
 * Collapses runs of whitespace to one space and trims.
 *
 * @param text Any text.
 * @returns The collapsed text.
 */
export function collapse(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/**
 * Cuts text to at most `max` characters, ending on a word boundary with "…"
 * when it is cut (mid-word only when the last space is too early).
 *
 * @param text Any text.
 * @param max The cap, "…" included.
 * @returns The text, whole or cut.
 * @example
 * ```ts
 * import { clip } from "./_db.ts";
 * import { equal } from "node:assert/strict";
 * equal(clip("add credo and mix_audit to CI", 20), "add credo and…");
 * ```
 */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  const head = space >= max * 0.6 ? cut.slice(0, space) : cut;
  return `${head.replace(/[\s,;:.-]+$/, "")}…`;
}

/**
 * The sentence of `text` that states a decision, else its first sentence
 * of some length.
 *
 * @param text An assistant or user turn.
 * @param max Character cap.
 * @param about When given, a sentence this matches is preferred (a
 *   decision about it first, then any sentence about it).
 * @returns One sentence.
 */
export function decisionSentence(
  text: string,
  max = 240,
  about?: RegExp,
): string {
  const flat = collapse(text);
  const sentences = flat.split(/(?<=[.!?])\s+(?=[A-Z`"'(])/);
  const decided = sentences.filter((s) => DECISION_LINE.test(s));
  // Naming the thing asked about beats a bare "Done." that opens the turn.
  // A bare "Excellent!" or "Done." says nothing: the first sentence of
  // three words or more stands for the turn.
  const first = sentences.find((s) => s.split(" ").length >= 3) ??
    sentences[0] ?? "";
  const pick = (about && decided.find((s) => about.test(s))) ?? decided[0] ??
    (about && sentences.find((s) => about.test(s))) ?? first;
  return clip(pick, max);
}

/**
 * Assistant turns that close a session: a decision stated before them may
 * have been reversed since ("Docker isn't installed" → "✅ Dev server is
 * running"), so only these speak for how it ended.
 */
export const CLOSING_TURNS = 6;

/**
 * The conclusion of a session: the latest of its closing assistant turns
 * ({@linkcode CLOSING_TURNS}) that states a decision, else its last
 * assistant turn. An earlier decision is not quoted: later turns may have
 * undone it.
 *
 * @param records The session's records in order.
 * @returns One sentence (or "") and whether it states a decision.
 */
export function conclusionOf(
  records: readonly StoredRecord[],
): { text: string; decided: boolean } {
  const said = records.filter((r) => r.role === "assistant" && r.text.trim());
  const decided = said.slice(-CLOSING_TURNS).reverse().find((r) =>
    DECISION_LINE.test(r.text)
  );
  const pick = decided ?? said.at(-1);
  return {
    text: pick ? decisionSentence(pick.text) : "",
    decided: decided !== undefined,
  };
}

/**
 * A command line as grouped: whitespace collapsed, a leading `cd dir &&`
 * dropped.
 *
 * @param command The command text.
 * @returns The normalised command.
 */
export function normalizeCommand(command: string): string {
  return collapse(command.split("\n", 1)[0] ?? "").replace(
    /^cd\s+\S+\s*&&\s*/,
    "",
  );
}

/**
 * Whether a command record ended badly: a non-zero exit code, or, without
 * one, an error-flagged output right after it.
 *
 * @param db The index.
 * @param ref The session rowid and the command record.
 * @returns True when it failed.
 */
export function commandFailed(
  db: Database,
  ref: { session: number; command: StoredRecord },
): boolean {
  const { session, command } = ref;
  if (command.exitCode !== null) return command.exitCode !== 0;
  const out = db.prepare(
    "SELECT flags FROM records WHERE session = ? AND seq > ? AND seq <= ? AND role = 'tool-output' ORDER BY seq LIMIT 1",
  ).get(session, command.seq, command.seq + 3) as { flags: number } | undefined;
  return out !== undefined && (out.flags & FLAG.isError) !== 0;
}

/** The output a harness gives a tool call the person refused. */
const DECLINED =
  /^(?:The user doesn't want to proceed with this tool use|User rejected tool use|The user (?:rejected|declined)\b)|\b(?:rejected|declined) by the (?:user|person)\b/i;

/**
 * Whether a tool call's output says the person refused it: it never ran,
 * so it neither failed nor passed.
 *
 * @param output The output recorded after the call.
 * @returns True for a refusal.
 * @example
 * ```ts
 * import { declinedOutput } from "./_db.ts";
 * import { equal } from "node:assert/strict";
 * equal(declinedOutput("User rejected tool use"), true);
 * equal(declinedOutput("Error: exit status 1"), false);
 * ```
 */
export function declinedOutput(output: string): boolean {
  return DECLINED.test(output.trimStart());
}

/**
 * Whether a command only reads, lists or shows (`cat`, `sed -n`,
 * `git status`, `docker ps`, a bare `cd`): never a recipe, a remedy or the
 * invocation asked about. Leading `cd … &&`, variable assignments and a
 * `powershell -Command` wrapper are looked past.
 *
 * @param command The command line.
 * @returns True when it changes nothing.
 * @example
 * ```ts
 * import { readsOnly } from "./_db.ts";
 * import { equal } from "node:assert/strict";
 * equal(readsOnly("cd api && git status"), true);
 * equal(readsOnly("sed -i 's/a/b/' x.ts"), false);
 * ```
 */
export function readsOnly(command: string): boolean {
  // A pipeline or a chain reads only when every part does
  // (`nl -ba x.css | sed -n '1,200p'`; not `cat seed.sql | psql`).
  return shellParts(withoutWrappers(command)).every((part) => {
    const rest = withoutWrappers(part);
    const program = (rest.split(/\s+/, 1)[0] ?? "").toLowerCase();
    if (program === "sed") return !/\s(?:-i|--in-place)\b/.test(rest);
    return READ_ONLY.has(program) || SHOWS_ONLY.test(rest);
  });
}

/** A command line's pipeline and chain parts (`|`, `||`, `&&`, `;` outside quotes). */
function shellParts(command: string): string[] {
  const parts: string[] = [];
  let quote = "";
  let from = 0;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (quote) {
      if (c === quote) quote = "";
      else if (c === "\\" && quote === '"') i++;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === "|" || c === ";" || (c === "&" && command[i + 1] === "&")) {
      parts.push(command.slice(from, i));
      if (command[i + 1] === c) i++;
      from = i + 1;
    }
  }
  parts.push(command.slice(from));
  return parts.filter((p) => p.trim() !== "");
}

/**
 * Whether a command record is a shell command: not a page an agent
 * fetched or a web search it ran, which some harnesses record as commands.
 *
 * @param tool The record's tool.
 * @param command The command line.
 * @returns False for a fetch or a search.
 * @example
 * ```ts
 * import { isShellCommand } from "./_db.ts";
 * import { equal } from "node:assert/strict";
 * equal(isShellCommand("WebFetch", "https://example.com/docs"), false);
 * equal(isShellCommand("Bash", "npm test"), true);
 * ```
 */
export function isShellCommand(
  tool: string | null | undefined,
  command: string,
): boolean {
  if (tool && NOT_SHELL.has(tool.toLowerCase())) return false;
  return !/^\s*https?:\/\//i.test(command);
}

/** Tools whose records are commands but run no shell. */
const NOT_SHELL = new Set([
  "webfetch",
  "websearch",
  "web_search",
  "web_fetch",
  "fetch",
  "tool_search",
  "image_generation",
]);

/** What a command line runs after `cd … &&`, assignments and a PowerShell wrapper. */
function withoutWrappers(command: string): string {
  let rest = command.trim();
  for (;;) {
    const wrapper = /^cd\s+\S+\s*(?:&&|;)\s*/.exec(rest) ??
      /^[A-Za-z_][A-Za-z0-9_]*=\S*\s+/.exec(rest) ??
      /^(?:powershell|pwsh)(?:\.exe)?\s+(?:-\w+\s+)*-Command\s+["']?/i.exec(
        rest,
      );
    if (!wrapper) return rest;
    rest = rest.slice(wrapper[0].length);
  }
}

/** Programs that only read, list or print. */
const READ_ONLY = new Set([
  "cat",
  "nl",
  "sort",
  "uniq",
  "cut",
  "column",
  "jq",
  "diff",
  "ls",
  "head",
  "tail",
  "less",
  "more",
  "grep",
  "rg",
  "find",
  "awk",
  "echo",
  "printf",
  "wc",
  "file",
  "stat",
  "tree",
  "pwd",
  "cd",
  "which",
  "type",
  "test-path",
  "get-content",
  "get-childitem",
  "select-string",
  "dir",
]);

/** Subcommands of git, docker and kubectl that only show what there is. */
const SHOWS_ONLY =
  /^(?:git\s+(?:status|diff|log|show|blame|rev-parse|ls-files)\b|git\s+(?:branch|remote)(?:\s+-[avr]+)*\s*$|docker\s+(?:ps|images|logs|inspect|version|info)\b|kubectl\s+(?:get|describe|logs)\b)/;
