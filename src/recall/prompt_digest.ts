/**
 * The per-prompt digest: a few quoted lines from earlier sessions, only when
 * the prompt names something the history holds. What is searched is the ask
 * — the last question-like line of the prompt, and within it the last
 * clause — so a pasted listing or stack trace above it does not spend the
 * term budget.
 *
 * @module
 */
import { shortSessionId } from "../core/text.ts";
import type { Database } from "../core/_sqlite.ts";
import { sha256Hex } from "../core/hash.ts";
import { formatAge } from "../core/time.ts";
import { SPEECH_ROLES } from "../core/types.ts";
import {
  idfOf,
  search,
  type SearchHit,
  type Snippet,
  termIdf,
} from "../search/mod.ts";
import { isAscii } from "../index/tokens.ts";
import { clip, collapse } from "./_db.ts";
import { heldTerms, holdsThing } from "./_held.ts";
import { byteLength, frameOverhead, neutralizeFrameTags } from "./frame.ts";

/** Default budget of the prompt digest, frame included. */
export const PROMPT_BUDGET = 1536;

/** A line quoted to the same asker is not quoted again for this long. */
export const SHOWN_COOLDOWN_MS = 60 * 60_000;

const STOP = new Set(
  ("a an the and or but if then else of to in on at by for with from into onto over under about as is are was were be been " +
    "being do does did done have has had having i me my we our us you your it its this that these those there here what " +
    "which who whom whose why how when where can could should would will shall may might must please thanks thank just " +
    "also too very really some any all each every no not yes ok okay let lets let's make get got go going want need like " +
    "now then again still already more most less same other another one two new old use used using run ran running try " +
    "see look check fix add change update file files code thing things way work works working done out")
    .split(" "),
);

function splitOutsideQuotes(text: string, separator: RegExp): string[] {
  const parts: string[] = [];
  let current = "";
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (quote) {
      current += ch;
      if (ch === quote) quote = undefined;
      continue;
    }
    if (ch === "`" || ch === '"') {
      quote = ch;
      current += ch;
      continue;
    }
    current += ch;
    if (separator.test(ch) && /\s/.test(text[i + 1] ?? " ")) {
      parts.push(current);
      current = "";
    }
  }
  if (current.trim()) parts.push(current);
  return parts.map((p) => p.trim()).filter(Boolean);
}

function pickLast(items: readonly string[]): string {
  const asked = [...items].reverse().find((s) => /\?\s*$/.test(s));
  return asked ??
    [...items].reverse().find((s) =>
      isAscii(s) ? /[A-Za-z]{2,}/.test(s) : /\p{L}{2,}/u.test(s)
    ) ?? "";
}

/**
 * The ask of a prompt: the last line ending in `?` (else the last line
 * carrying a word), and within it the last clause picked the same way.
 * Nothing inside backticks or double quotes is cut.
 *
 * @param prompt The whole prompt.
 * @returns The ask.
 * @example
 * ```ts
 * import { askOf } from "./prompt_digest.ts";
 * import { equal } from "node:assert/strict";
 * equal(askOf("Traceback...\n  File x\nfirst read the logs. why does the export time out?"), "why does the export time out?");
 * ```
 */
export function askOf(prompt: string): string {
  const lines = prompt.split("\n").map((l) => l.trim()).filter(Boolean);
  const line = pickLast(lines);
  return pickLast(splitOutsideQuotes(line, /[.;!?]/));
}

/**
 * The longest word or quoted span of an ask searched for: a longer one is a
 * pasted blob, not a name, and matching it costs the search time in
 * proportion to its length (a 100 KB one took the hook 12 s).
 */
const ASK_TERM_MAX = 256;

/**
 * The words of an ask worth searching for, at most six, in order; a word
 * or quoted span over 256 characters is left out.
 *
 * @param ask The ask.
 * @returns Lowercased content words, quoted and backticked spans kept whole.
 * @example
 * ```ts
 * import { askTerms } from "./prompt_digest.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(askTerms("why does the nightly export job time out?"), ["nightly", "export", "job", "time"]);
 * ```
 */
export function askTerms(ask: string): string[] {
  const out: string[] = [];
  const rest = ask.replace(
    /`([^`]+)`|"([^"]+)"/g,
    (_m, a?: string, b?: string) => {
      const span = (a ?? b ?? "").trim();
      if (span && span.length <= ASK_TERM_MAX) out.push(span);
      return " ";
    },
  );
  for (const raw of rest.split(/\s+/)) {
    // ASCII (most prompts) takes plain classes: a Unicode property class
    // costs a fresh hook process its compiling.
    const word = isAscii(raw)
      ? raw.replace(/^[^A-Za-z0-9_]+|[^A-Za-z0-9_]+$/g, "")
      : raw.replace(/^[^\p{L}\p{N}_]+|[^\p{L}\p{N}_]+$/gu, "");
    const lower = word.toLowerCase();
    if (
      lower.length < 3 || lower.length > ASK_TERM_MAX || STOP.has(lower) ||
      out.includes(lower)
    ) continue;
    out.push(/[./_\-\\]|[a-z][A-Z]/.test(word) ? word : lower);
  }
  return out.slice(0, 6);
}

/**
 * Whether a term names a thing rather than a plain word: a path, a dotted
 * or underscored name, camelCase, or letters mixed with digits.
 *
 * @param term A term.
 * @returns True for a thing.
 * @example
 * ```ts
 * import { namesThing } from "./prompt_digest.ts";
 * import { equal } from "node:assert/strict";
 * equal(namesThing("docker-compose.yml"), true);
 * equal(namesThing("export"), false);
 * ```
 */
export function namesThing(term: string): boolean {
  const mixed = isAscii(term)
    ? /[./_\\]|[a-z][A-Z]|[A-Za-z]\d|\d[A-Za-z]|\s/.test(term)
    : /[./_\\]|[a-z][A-Z]|\p{L}\d|\d\p{L}|\s/u.test(term);
  return mixed || /^[A-Z]{4,}$/.test(term);
}

/**
 * A word of the ask is rare when at most one session in this many says it
 * (or only one does, in an index of fewer sessions).
 */
export const RARE_WORD_SHARE = 20;

/**
 * What the rare words of the ask a line of another project holds must weigh
 * together, in IDFs of a word at the rare bar: two rare words, or one said
 * in a handful of a large index's sessions. Words most projects say ("npm",
 * "dev", "server") weigh nothing, however many of them meet.
 */
export const OTHER_PROJECT_RARE_WORDS = 2;

/** Options for {@linkcode promptDigest}. */
export interface PromptDigestOptions {
  /** The asker's project; its sessions come first. */
  project?: string;
  /** Session ids to leave out (the asker, live ones). */
  exclude?: ReadonlySet<string>;
  /**
   * Records already quoted to this asker, by {@linkcode quotedKey}, with the
   * time: a line is not quoted twice within the hour.
   */
  shown?: Readonly<Record<string, number>>;
  /** Sessions to quote at most (default 3). */
  limit?: number;
  /** Byte budget of the body (default: 1.5 KiB minus the frame). */
  budget?: number;
  /**
   * Wall time the searches may take, ms: past it the digest is silent
   * (checked before each search and after the last).
   */
  timeBudgetMs?: number;
  /** Monotonic clock for the time budget, ms (default `performance.now`). */
  clock?: () => number;
  /** The clock, epoch ms. */
  now: number;
}

/** A prompt digest, or why there is none. */
export interface PromptDigest {
  /** The ask found in the prompt. */
  ask: string;
  /** Hash of the ask (for the once-an-hour cooldown). */
  askHash: string;
  /** The digest (not yet framed), or "" when silent. */
  text: string;
  /** Sessions quoted, as `harness:id`. */
  sessions: string[];
  /** Records quoted, by {@linkcode quotedKey} (for the line cooldown). */
  quoted: string[];
}

/**
 * The key a quoted record is remembered by: its file and place.
 *
 * @param snippet The quoted snippet.
 * @returns A short hash.
 * @example
 * ```ts
 * import { quotedKey } from "./prompt_digest.ts";
 * import { equal } from "node:assert/strict";
 * equal(quotedKey({ locator: { path: "/a.jsonl", seq: 4 } }).length, 16);
 * ```
 */
export function quotedKey(snippet: Pick<Snippet, "locator">): string {
  return sha256Hex(`${snippet.locator.path}\n${snippet.locator.seq}`).slice(
    0,
    16,
  );
}

/**
 * Builds the digest for a prompt, or stays silent. A line of the asker's
 * project speaks when it holds two of the ask's words or a thing the ask
 * names; a line of another project only on a named thing or rare words of
 * the ask ({@linkcode OTHER_PROJECT_RARE_WORDS}). A line already quoted to this
 * asker within the hour is not quoted again; the session's other lines
 * may be.
 *
 * @param db The index.
 * @param prompt The prompt.
 * @param options Project, exclusions, cooldowns, size, time budget, clock.
 * @returns The digest ("" text when silent).
 */
export async function promptDigest(
  db: Database,
  prompt: string,
  options: PromptDigestOptions,
): Promise<PromptDigest> {
  const ask = askOf(prompt);
  const askHash = sha256Hex(collapse(ask).toLowerCase()).slice(0, 16);
  const silent: PromptDigest = {
    ask,
    askHash,
    text: "",
    sessions: [],
    quoted: [],
  };
  const terms = askTerms(ask);
  if (terms.length === 0) return silent;
  const things = terms.filter(namesThing);
  const queries: string[] = [];
  if (terms.length >= 2) {
    queries.push(`${quote(terms[0] as string)} ${quote(terms[1] as string)}`);
  }
  if (terms.length >= 3) queries.push(terms.slice(0, 4).map(quote).join(" "));
  for (const t of things.slice(0, 2)) queries.push(quote(t));
  const clock = options.clock ?? (() => performance.now());
  const deadline = clock() + (options.timeBudgetMs ?? Infinity);
  const limit = options.limit ?? 3;
  const project = options.project?.toLowerCase();
  const hits = new Map<string, SearchHit>();
  const picked: Array<{ key: string; hit: SearchHit; snip: Snippet }> = [];
  const idf = new Map<string, number>();
  let rareBar = Infinity;
  // Read once, on the first line of another project that needs it.
  const distinctive = (held: readonly string[]): boolean => {
    if (idf.size === 0) {
      const rarity = termIdf(db, terms, {
        atMostShare: 1 / RARE_WORD_SHARE,
      });
      rarity.idf.forEach((v, i) => idf.set(terms[i] as string, v));
      const n = rarity.sessions;
      rareBar = idfOf(Math.max(1, n / RARE_WORD_SHARE), n);
    }
    const weight = held.reduce((sum, t) => {
      const v = idf.get(t) ?? 0;
      return v >= rareBar ? sum + v : sum;
    }, 0);
    return weight >= OTHER_PROJECT_RARE_WORDS * rareBar;
  };
  const speaks = (hit: SearchHit, snip: Snippet): boolean => {
    if (things.some((t) => holdsThing(snip.text, t))) return true;
    const held = heldTerms(snip.text, terms);
    // No project known (a hook started in "/"): every line is another
    // project's, so a vague ask stays silent there too.
    const own = !!project && hit.session.project.toLowerCase() === project;
    if (own) return held.length >= 2;
    return held.length > 0 && distinctive(held);
  };
  const consider = (key: string, hit: SearchHit): void => {
    const s = hit.session;
    if (
      options.exclude?.has(s.id) || (s.parent && options.exclude?.has(s.parent))
    ) return;
    const fresh = hit.snippets.filter((snip) => {
      const at = options.shown?.[quotedKey(snip)];
      return at === undefined || options.now - at >= SHOWN_COOLDOWN_MS;
    });
    // The line holding most of the ask's words; the search's order breaks
    // ties.
    let snip: Snippet | undefined;
    let most = -1;
    for (const candidate of fresh) {
      const held = heldTerms(candidate.text, terms).length;
      if (held > most && speaks(hit, candidate)) {
        snip = candidate;
        most = held;
      }
    }
    if (snip) picked.push({ key, hit, snip });
  };
  // The asker's project first: once it fills the digest, the machine-wide
  // searches are not run at all.
  const scopes = options.project ? [options.project, undefined] : [undefined];
  for (const scope of scopes) {
    for (const q of queries) {
      if (clock() > deadline) return silent;
      // What was said only: a hook runs before every prompt, and a second
      // search of work records per query would double its time.
      const found = await search(db, q, {
        now: options.now,
        limit: 6,
        snippets: 3,
        roles: SPEECH_ROLES,
        // A typo in a prompt needs no "did you mean"; the vocabulary scan
        // behind one is the costliest step on a large index.
        fuzzy: false,
        ...(scope ? { project: scope } : {}),
      });
      for (const hit of found.results) {
        const key = `${hit.session.harness}:${hit.session.id}`;
        if (hits.has(key)) continue;
        hits.set(key, hit);
        consider(key, hit);
      }
    }
    if (picked.length >= limit) break;
  }
  if (clock() > deadline) return silent;
  if (picked.length === 0) return silent;
  const budget = options.budget ?? PROMPT_BUDGET - frameOverhead("prompt");
  const lines = ["deja: earlier sessions touched this ask"];
  let used = byteLength(lines[0] as string);
  const sessions: string[] = [];
  const quoted: string[] = [];
  for (const { key, hit, snip } of picked.slice(0, limit)) {
    const s = hit.session;
    const updated = s.updated ? Date.parse(s.updated) : undefined;
    // Measured as the frame will print it: a defused tag is 2 bytes longer.
    const line = neutralizeFrameTags(
      `- ${s.project || "-"} · ${s.harness} ${shortSessionId(s.id)} · ${
        updated ? formatAge(updated, options.now) : "undated"
      }: ${snip.role}: "${clip(collapse(snip.text), 260)}"`,
    );
    const size = byteLength(line) + 1;
    if (used + size > budget) break;
    lines.push(line);
    used += size;
    sessions.push(key);
    quoted.push(quotedKey(snip));
  }
  if (sessions.length === 0) return silent;
  return { ask, askHash, text: lines.join("\n"), sessions, quoted };
}

function quote(term: string): string {
  return /[\s./_\-\\:]/.test(term) ? `"${term.replaceAll('"', "")}"` : term;
}
