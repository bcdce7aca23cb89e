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
import { search, type SearchHit } from "../search/mod.ts";
import { clip, collapse } from "./_db.ts";
import { byteLength, frameOverhead } from "./frame.ts";

/** Default budget of the prompt digest, frame included. */
export const PROMPT_BUDGET = 1536;

/** A session shown to the same asker is not shown again for this long. */
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
  return asked ?? [...items].reverse().find((s) => /\p{L}{2,}/u.test(s)) ?? "";
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
 * The words of an ask worth searching for, at most six, in order.
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
      if (span) out.push(span);
      return " ";
    },
  );
  for (const raw of rest.split(/\s+/)) {
    const word = raw.replace(/^[^\p{L}\p{N}_]+|[^\p{L}\p{N}_]+$/gu, "");
    const lower = word.toLowerCase();
    if (lower.length < 3 || STOP.has(lower) || out.includes(lower)) continue;
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
  return /[./_\\]|[a-z][A-Z]|\p{L}\d|\d\p{L}|\s/u.test(term) ||
    /^[A-Z]{4,}$/.test(term);
}

/** Options for {@linkcode promptDigest}. */
export interface PromptDigestOptions {
  /** The asker's project; its sessions come first. */
  project?: string;
  /** Session ids to leave out (the asker, live ones). */
  exclude?: ReadonlySet<string>;
  /** Sessions already shown to this asker, by `harness:id`, with the time. */
  shown?: Readonly<Record<string, number>>;
  /** Sessions to quote at most (default 3). */
  limit?: number;
  /** Byte budget of the body (default: 1.5 KiB minus the frame). */
  budget?: number;
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
}

function holdsTwo(
  text: string,
  terms: readonly string[],
  need = 2,
): boolean {
  const lower = text.toLowerCase();
  let n = 0;
  for (const t of terms) {
    const stem = t.length > 5
      ? t.toLowerCase().slice(0, t.length - 2)
      : t.toLowerCase();
    if (lower.includes(stem)) n++;
    if (n >= need) return true;
  }
  return false;
}

/**
 * Builds the digest for a prompt, or stays silent: it speaks only when two
 * of the ask's words stand in one quoted line, or a quoted line names a
 * thing the ask names.
 *
 * @param db The index.
 * @param prompt The prompt.
 * @param options Project, exclusions, cooldowns, size, clock.
 * @returns The digest ("" text when silent).
 */
export async function promptDigest(
  db: Database,
  prompt: string,
  options: PromptDigestOptions,
): Promise<PromptDigest> {
  const ask = askOf(prompt);
  const askHash = sha256Hex(collapse(ask).toLowerCase()).slice(0, 16);
  const silent: PromptDigest = { ask, askHash, text: "", sessions: [] };
  const terms = askTerms(ask);
  if (terms.length === 0) return silent;
  const things = terms.filter(namesThing);
  const queries: string[] = [];
  if (terms.length >= 2) {
    queries.push(`${quote(terms[0] as string)} ${quote(terms[1] as string)}`);
  }
  if (terms.length >= 3) queries.push(terms.slice(0, 4).map(quote).join(" "));
  for (const t of things.slice(0, 2)) queries.push(quote(t));
  const hits = new Map<
    string,
    { hit: SearchHit; ours: boolean; order: number }
  >();
  let order = 0;
  for (const q of queries) {
    const scopes = options.project ? [options.project, undefined] : [undefined];
    for (const project of scopes) {
      // What was said only: a hook runs before every prompt, and a second
      // search of work records per query would double its time.
      const found = await search(db, q, {
        now: options.now,
        limit: 6,
        snippets: 2,
        roles: SPEECH_ROLES,
        // A typo in a prompt needs no "did you mean"; the vocabulary scan
        // behind one is the costliest step on a large index.
        fuzzy: false,
        ...(project ? { project } : {}),
      });
      for (const hit of found.results) {
        const key = `${hit.session.harness}:${hit.session.id}`;
        if (hits.has(key)) continue;
        hits.set(key, { hit, ours: !!project, order: order++ });
      }
    }
  }
  const limit = options.limit ?? 3;
  const budget = options.budget ?? PROMPT_BUDGET - frameOverhead("prompt");
  // Another project's session speaks only on a named thing or three words
  // of the ask: two ordinary words ("frontend", "server") meet everywhere.
  const otherNeed = Math.min(3, terms.length);
  const picked = [...hits.entries()].filter(([key, { hit, ours }]) => {
    const s = hit.session;
    if (
      options.exclude?.has(s.id) || (s.parent && options.exclude?.has(s.parent))
    ) return false;
    const shownAt = options.shown?.[key];
    if (shownAt !== undefined && options.now - shownAt < SHOWN_COOLDOWN_MS) {
      return false;
    }
    const own = ours || !options.project;
    return hit.snippets.some((snip) =>
      holdsTwo(snip.text, terms, own ? 2 : otherNeed) ||
      things.some((t) => snip.text.toLowerCase().includes(t.toLowerCase()))
    );
  }).sort((a, b) =>
    Number(b[1].ours) - Number(a[1].ours) || a[1].order - b[1].order
  ).slice(0, limit);
  if (picked.length === 0) return silent;
  const lines = ["deja: earlier sessions touched this ask"];
  let used = byteLength(lines[0] as string);
  const sessions: string[] = [];
  for (const [key, { hit }] of picked) {
    const s = hit.session;
    const updated = s.updated ? Date.parse(s.updated) : undefined;
    const snip = hit.snippets.find((sn) => holdsTwo(sn.text, terms)) ??
      hit.snippets[0];
    const line = `- ${s.project || "-"} · ${s.harness} ${
      shortSessionId(s.id)
    } · ${updated ? formatAge(updated, options.now) : "undated"}: ${
      snip
        ? `${snip.role}: "${clip(collapse(snip.text), 260)}"`
        : collapse(s.title)
    }`;
    const size = byteLength(line) + 1;
    if (used + size > budget) break;
    lines.push(line);
    used += size;
    sessions.push(key);
  }
  if (sessions.length === 0) return silent;
  return { ask, askHash, text: lines.join("\n"), sessions };
}

function quote(term: string): string {
  return /[\s./_\-\\:]/.test(term) ? `"${term.replaceAll('"', "")}"` : term;
}
