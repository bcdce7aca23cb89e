/**
 * Turns parsed sessions into rows ready to write: redacted text, the stored
 * body (deflated when long), the posting text and the flag bits. Runs on a
 * parse worker when there is one, so the writer thread only writes.
 *
 * @module
 */
import type { FileKind, ParseOptions, ParseResult } from "../core/harness.ts";
import type { Lineage, Mark, Role, Session } from "../core/types.ts";
import {
  mayHoldKeyBlock,
  printsSecret,
  redact,
  redactPrintedSecret,
  withoutInvisible,
} from "../redact/mod.ts";
import { titleFrom } from "../core/text.ts";
import { ownTable, ownValue } from "../core/lookup.ts";
import {
  DECISION_PATTERN,
  encodeBody,
  keptCleanText,
  type StoredBody,
} from "./_body.ts";
import { FLAG } from "./schema.ts";

/** A record ready for the `records` and FTS tables. */
export interface PreparedRecord {
  seq: number;
  role: Role;
  time: number | null;
  flags: number;
  exitCode: number | null;
  tool: string | null;
  line: number | null;
  offset: number | null;
  recordId: string | null;
  body: StoredBody;
  posting: string;
}

/** A session ready for the `sessions` table, with its records. */
export interface PreparedSession {
  harness: string;
  id: string;
  path: string;
  project: string;
  cwd: string | null;
  title: string | null;
  /** The title is one the harness stored (see Session.titleGiven). */
  titleGiven: boolean;
  started: number | null;
  updated: number | null;
  parent: string | null;
  lineage: Lineage | null;
  records: PreparedRecord[];
  users: number;
  marks: Mark[];
}

/**
 * Redacts and encodes sessions, adding redaction counts to `redactions`.
 *
 * @param sessions Parsed sessions.
 * @param redactOn Whether to redact (only DEJA_NO_REDACT=1 turns it off).
 * @param redactions Counts by rule, added to.
 * @returns The prepared sessions.
 */
export function prepareSessions(
  sessions: readonly Session[],
  redactOn: boolean,
  redactions: Record<string, number>,
  carry: OpenSecrets = { from: ownTable(), to: ownTable() },
): PreparedSession[] {
  const count = (
    counts: Record<string, number>,
    into: Record<string, number> = redactions,
  ) => {
    for (const [rule, n] of Object.entries(counts)) {
      into[rule] = (into[rule] ?? 0) + n;
    }
  };
  const scrub = (
    raw: string,
    role: Role | undefined,
    into?: Record<string, number>,
  ): string => {
    // NULs between characters (UTF-16 text a command printed) and
    // zero-width characters inside a copied token hide every shape from
    // the rules; a NUL also cuts a stored string short. redact() drops
    // them in the one scan it makes for unusual characters; without
    // redaction they are dropped here.
    if (!redactOn) return withoutInvisible(raw);
    // Passwords said in words live in what people and agents say; the
    // secrets a command takes in its own place, in commands.
    const r = redact(raw, { kind: kindOf(role, raw) });
    count(r.counts, into);
    return r.text;
  };
  return sessions.map((s) => {
    let users = 0;
    let title: string | null | undefined;
    // Commands are answered in batches (an agent runs several, then gets
    // their outputs in any order): when a command of a batch prints a
    // secret, every output of that batch loses its bare values.
    const batches = new Map<string, { secret: boolean; open: boolean }>();
    let latest: { secret: boolean; open: boolean } | undefined;
    // A secret-printing command an earlier pass read, its output not yet
    // written: this pass's output for it is the one to clean.
    for (const tool of ownValue(carry.from, s.id) ?? []) {
      latest = { secret: true, open: true };
      batches.set(tool, latest);
    }
    const printed = (
      r: Session["records"][number],
      text: string,
      into: Record<string, number>,
    ): string => {
      if (!redactOn) return text;
      const tool = r.tool ?? "";
      const batch = batches.get(tool);
      if (r.role === "command") {
        const secret = printsSecret(r.text);
        if (batch?.open) batch.secret ||= secret;
        else batches.set(tool, { secret, open: true });
        latest = batches.get(tool);
        return text;
      }
      if (r.role !== "tool-output") return text;
      // An output with no tool name (a `!` shell turn) answers the latest
      // batch, whatever its tool.
      const answered = batch ?? (r.tool ? undefined : latest);
      if (!answered) return text;
      answered.open = false;
      if (!answered.secret) return text;
      const out = redactPrintedSecret(text);
      count(out.counts, into);
      return out.text;
    };
    // The builder titles a session from its first user turn, or the second
    // when the first was a slash command: only those two are compared.
    let userTurnsLeft = 2;
    const records = s.records.map((r): PreparedRecord => {
      // Only what is kept is redacted (a long output's excerpt, with the
      // lines around it); the counts are those of the last cleaning.
      let text = "";
      let counts: Record<string, number> = {};
      const kept = keptCleanText(
        r.role,
        r.text,
        (part) => {
          counts = {};
          text = printed(r, scrub(part, r.role, counts), counts);
          return text;
        },
        redactOn ? mayHoldKeyBlock : undefined,
      );
      count(counts);
      // A title cut from a user turn is cut again from the redacted turn: a
      // secret the cut split would no longer look like one.
      if (
        title === undefined && r.role === "user" && userTurnsLeft-- > 0 &&
        s.title !== undefined && titleFrom(r.text) === s.title
      ) title = titleFrom(text);
      const body = encodeBody(r.role, kept.stored);
      let flags = body.compressed ? FLAG.compressed : 0;
      if (r.flags?.subagent) flags |= FLAG.subagent;
      if (r.flags?.truncated || kept.excerpted) flags |= FLAG.truncated;
      if (r.flags?.isError) flags |= FLAG.isError;
      const speech = r.role === "user" || r.role === "assistant";
      if (speech && DECISION_PATTERN.test(text)) flags |= FLAG.decision;
      if (r.role === "user") users++;
      return {
        seq: r.seq,
        role: r.role,
        time: r.time ?? null,
        flags,
        exitCode: r.exitCode ?? null,
        tool: r.tool ?? null,
        line: r.locator.line ?? null,
        offset: r.locator.offset ?? null,
        recordId: r.locator.recordId ?? null,
        body: body.bytes,
        posting: kept.posting,
      };
    });
    const open = [...batches].filter(([, b]) => b.open && b.secret)
      .map(([tool]) => tool);
    if (open.length) carry.to[s.id] = open;
    return {
      harness: s.harness,
      id: s.id,
      path: s.path,
      // A working directory may hold a token in its name (a clone URL's
      // folder): the project, made from it, too.
      project: scrub(s.project, "files"),
      cwd: s.cwd === undefined ? null : scrub(s.cwd, "files"),
      title: title ??
        (s.title === undefined ? null : clippedSafe(scrub(s.title, undefined))),
      titleGiven: s.titleGiven === true,
      started: s.started ?? null,
      updated: s.updated ?? null,
      parent: s.parent ?? null,
      lineage: s.lineage ?? null,
      records,
      users,
      marks: s.marks,
    };
  });
}

/** What redaction should take a record's text for. */
function kindOf(
  role: Role | undefined,
  text: string,
): "speech" | "command" | "output" {
  if (role === "command") return "command";
  const said = role === undefined || role === "user" || role === "assistant" ||
    role === "summary" || (role === "tool-output" && QUOTES_PERSON.test(text));
  return said ? "speech" : "output";
}

/**
 * A tool result that hands the agent what the person typed (their answers
 * to a question tool, the reason they refused a call): their words, read
 * with the rules for speech.
 */
const QUOTES_PERSON =
  /^\s*(?:User has answered your questions?|The user doesn't want to (?:proceed|take this action)|The user (?:answered|responded|said)\b)/i;

/**
 * A title cut short ("…") by its harness loses its last word when that
 * reads like part of a token (12+ characters with a digit, or mixed case):
 * the rules cannot tell a cut secret from a cut word. Titles deja cuts
 * itself end at a blank (`titleFrom`).
 */
function clippedSafe(title: string): string {
  if (!title.endsWith("…")) return title;
  return title.replace(
    /[A-Za-z0-9+\/_=.-]*…$/,
    (w) =>
      w.length > 12 && (/[0-9]/.test(w) || (/[a-z]/.test(w) && /[A-Z]/.test(w)))
        ? "…"
        : w,
  );
}

/**
 * Secret-printing commands whose output a pass has not seen yet, per
 * session id (their tool names): carried from the pass that read the
 * command (`to`) to the pass that reads the output (`from`), so output
 * written after an index pass is cleaned as if read in one.
 */
export interface OpenSecrets {
  /** Carried in from the pass before. */
  from: Readonly<Record<string, readonly string[]>>;
  /** Carried out to the next pass (filled in). */
  to: Record<string, string[]>;
}

/** The key a file's stored state carries the open batches under. */
const OPEN_SECRETS = "$dejaOpenSecrets";

/**
 * Splits a stored file state into the parser's own and the open batches
 * deja carries beside it (a state without them is the parser's whole).
 */
function unwrapState(
  state: unknown,
): { parser: unknown; open: Record<string, string[]> } {
  if (
    state === null || typeof state !== "object" || Array.isArray(state) ||
    !(OPEN_SECRETS in state)
  ) return { parser: state, open: ownTable() };
  const { [OPEN_SECRETS]: open, parser } = state as Record<string, unknown>;
  const out = ownTable<string[]>();
  if (open && typeof open === "object" && !Array.isArray(open)) {
    for (const [id, tools] of Object.entries(open)) {
      if (Array.isArray(tools)) {
        out[id] = tools.filter((t): t is string => typeof t === "string");
      }
    }
  }
  return { parser, open: out };
}

/** What parsing and preparing one file produced. */
export interface ParsedFile {
  /** Parser result without its sessions. */
  result: Omit<ParseResult, "sessions">;
  /** Sessions ready to write. */
  sessions: PreparedSession[];
  /** Redactions made, by rule. */
  redactions: Record<string, number>;
}

/**
 * Parses and prepares one file in this thread.
 *
 * @param kind The file kind.
 * @param path The file.
 * @param options Parse options.
 * @param redactOn Whether to redact.
 * @returns Prepared sessions and the parser's result.
 */
export async function parseFile(
  kind: FileKind,
  path: string,
  options: ParseOptions,
  redactOn: boolean,
): Promise<ParsedFile> {
  const { parser, open } = unwrapState(options.state);
  const parseOptions = { ...options };
  delete parseOptions.state;
  if (parser !== undefined) parseOptions.state = parser;
  const { sessions, ...result } = await kind.parse(path, parseOptions);
  const redactions: Record<string, number> = {};
  const carry: OpenSecrets = { from: open, to: ownTable() };
  const prepared = prepareSessions(sessions, redactOn, redactions, carry);
  // A file read again from its start has no earlier pass to carry from;
  // one the parser cannot resume has no next pass to carry to.
  if (result.state !== undefined && Object.keys(carry.to).length > 0) {
    result.state = { [OPEN_SECRETS]: carry.to, parser: result.state };
  }
  return { result, sessions: prepared, redactions };
}
