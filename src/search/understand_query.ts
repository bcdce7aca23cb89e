/**
 * Query understanding: what a query searches on.
 *
 * - The ask comes first: in a long prompt, the last line ending in "?" (or
 *   the last line carrying a word), and within it the last clause picked the
 *   same way (the whole line when that clause has under two words to search
 *   on), so a pasted log above the question does not spend the term budget.
 *   The rest of the prompt, the ask's own line first, fills what budget is
 *   left, weighted down.
 * - "Quoted phrases" and `backticked code` stay whole.
 * - Stop words go, unless nothing else is left.
 * - Identifiers match in every spelling: `getUserProfile`, `get_user_profile`,
 *   `get-user-profile` and `user profile` find one another.
 * - An irregular verb matches its other forms: "when did she go" finds "I
 *   went" (Porter joins "walked" to "walk", never "went" to "go").
 * - CJK runs become bigrams, without bigrams of two function characters.
 * - A time said in words ("last week", "in may") becomes a window.
 *
 * @module
 */
import { withoutOrdinal } from "./_ordinal.ts";
import {
  cjkBigrams,
  cjkRuns,
  hasCjk,
  identifierParts,
  isAscii,
} from "../index/tokens.ts";
import { porterStem } from "./_stem.ts";
import { irregularForms } from "./_irregular_verbs.ts";
import {
  ANSWER_KIND_WEIGHT,
  answerKinds,
  countedKinds,
  isKindVerb,
  kindInstances,
} from "./_answer_kinds.ts";
import { joinedCompound, splitCompound } from "./_compounds.ts";
import { derivedForms } from "./_derivations.ts";
import { joinedForm, sameActionForms } from "./_phrasal.ts";
import {
  CJK_FUNCTION_CHARS,
  isStopWord,
  queryLanguages,
} from "./_stop_words.ts";
import { extractTimeWindow, type TimeWindow } from "./_time_words.ts";

export type { TimeWindow } from "./_time_words.ts";

/** What a term is. */
export type TermKind = "word" | "phrase" | "code" | "cjk";

/** One thing a query searches for. */
export interface QueryTerm {
  /** The term as searched: a lowercased word, a phrase, code, a bigram. */
  text: string;
  /** Word, "phrase", `code` (or a compound like eu-west-1), CJK bigram. */
  kind: TermKind;
  /** The Porter stem for words (what the index holds); else the text. */
  stem: string;
  /** 1 for the ask; less for the rest of a prompt. */
  weight: number;
  /**
   * Other spellings that count as this term: identifier parts, or the
   * other forms of an irregular verb ("went" for "go").
   */
  alternatives: string[];
  /**
   * Things of the kind the word names, searched as forms of it ("cello"
   * for "instruments"); not spellings of the word, so its own stem still
   * stands for it in a turn's words.
   */
  things?: readonly string[];
  /**
   * Searched but never required: a month or year that named a time window
   * may also be said in the session ("in March we moved…").
   */
  optional?: boolean;
  /**
   * A compound of plain words joined by hyphens or dots ("sub-agent",
   * "Next.js"): a way of writing words, not a name only code would hold.
   */
  plain?: boolean;
  /**
   * Capitalized inside a sentence ("what did Caroline recommend", "the
   * Figma export"): a name, what the question is about.
   */
  proper?: boolean;
}

/** A commit hash (seven hex digits or more, one a digit) or five digits. */
const HASH_OR_NUMBER = /^(?=[a-f]*\d)[0-9a-f]{7,40}$|^\d{5,}$/;

/**
 * Lowercase-led words joined by hyphens or dots, no digit or underscore; or
 * an acronym hyphened to words ("AI-generated", "UI-only").
 */
const PLAIN_COMPOUND =
  /^\p{L}\p{Ll}*(?:[-.]\p{Ll}+)+$|^\p{Lu}{2,4}(?:-\p{Ll}+)+$/u;

/** A query, understood. */
export interface UnderstoodQuery {
  /** The query as given. */
  raw: string;
  /** The ask: the line (and clause) searched on first. */
  ask: string;
  /** Terms in budget order (ask first). */
  terms: QueryTerm[];
  /** Stop words dropped. */
  dropped: string[];
  /** Terms past the budget, not searched. */
  overBudget: string[];
  /** The time window asked for in words, if any. */
  time?: TimeWindow;
  /** True when the prompt was long and only its ask is required. */
  long: boolean;
  /** The ask is about the asker ("did I…", "my…"): weigh their own turns. */
  personal: boolean;
  /** "The short chat", "a long session": the size of the session asked for. */
  size?: "short" | "long";
  /**
   * The ask is about when someone else did something ("when did she…"):
   * a turn saying when ("yesterday", "last week", "3 years ago") is the
   * likelier answer.
   */
  asksWhen: boolean;
  /**
   * It asks when something already happened ("when did…", "when was…"):
   * a turn only planning it ("we fly out in May") is no answer.
   */
  asksWhenPast: boolean;
  /**
   * A clause of the ask naming what is not meant (", not the long one"):
   * its words are not searched.
   */
  notMeant?: string;
}

/**
 * ", not the openrouter one", "; not that session", "but not the cache":
 * a clause setting aside another thing the asker remembers. ("redis, not
 * memcached" without an article is the choice itself, and stays.)
 */
const NOT_MEANT =
  /(?:[,;—–]|\bbut)\s*not\s+(?:the|that|this|a|an|my|our|those|these)\b[^,.;?!]*/gi;

/**
 * A question about the asker: first person singular ("did I", "my") and no
 * second person ("what did you recommend to me" is about the assistant).
 */
function isPersonal(ask: string): boolean {
  const text = ask.replaceAll("’", "'");
  return /(^|[^a-z'])(i|i'm|i've|i'd|my|me|mine|myself)($|[^a-z'])/i.test(
    text,
  ) && !/(^|[^a-z'])(you|your|yours|you've|you're)($|[^a-z'])/i.test(text);
}

/**
 * An ask about when someone else did something ("when did Maria go to the
 * beach?"): said in words in a turn. When we or I did it, the session's own
 * date answers, and a turn saying "since yesterday" is no closer.
 */
const ASKS_WHEN =
  /(^|[^a-z])(when (did|was|were|is|are|do|does|will|had|has|have)|what (time|date|day|month|year) (did|was|were|is|are|do|does|will)|how long ago (did|was|were))\s+(?!(we|i|you|us)\b)/i;

/** Of those, the ones asking about the past. */
const ASKS_WHEN_PAST =
  /(^|[^a-z])((when|what (time|date|day|month|year)) (did|was|were|had|has|have)|how long ago)\s/i;

/**
 * "When did she sign up / book / plan …": the planning is what is asked
 * about, so a turn saying it is the answer.
 */
const ASKS_OF_A_PLAN =
  /\b(sign(s|ed|ing)? up|book|plan|schedul|regist|appl(y|ied))/i;

/** Options for {@linkcode understandQuery}. */
export interface UnderstandOptions {
  /** The clock, for relative times. */
  now: number;
  /** Most terms searched; default 14 for a question, 10 for a long prompt (CJK bigrams count half). */
  budget?: number;
}

const LONG_PROMPT = 240;
const DATE_WORDS =
  /\b(january|february|march|april|may|june|july|august|september|october|november|december|spring|summer|autumn|winter|(?:19|20)\d\d)\b/g;

/**
 * Text in single quotes counts as quoted when it holds a space and the
 * quotes stand at word edges ('model requires more memory'), so that an
 * apostrophe (don't, Jon's) never opens a quote.
 */
const SINGLE_QUOTED =
  "(?<=^|[\\s(\\[{:,])'([^'\\n]*\\s[^'\\n]*)'(?=$|[\\s)\\]}.,;:!?])|‘([^’\\n]+)’";

function protect(text: string): { text: string; kept: string[] } {
  const kept: string[] = [];
  const quoted = new RegExp(
    `"[^"\\n]+"|\`[^\`\\n]+\`|“[^”\\n]+”|${SINGLE_QUOTED}`,
    "g",
  );
  const out = text.replace(quoted, (m) => {
    kept.push(m);
    return `\ue000${kept.length - 1}\ue001`;
  });
  return { text: out, kept };
}

function restore(text: string, kept: readonly string[]): string {
  return text.replace(/\ue000(\d+)\ue001/g, (_m, i) => kept[Number(i)] ?? "");
}

// ASCII text, most queries, takes plain classes, not Unicode property
// ones (see isAscii).
function hasWord(text: string): boolean {
  return /[A-Za-z0-9]/.test(text) ||
    (!isAscii(text) && /[\p{L}\p{N}]/u.test(text));
}

/** A form when there is one, as a list. */
function optional(form: string | undefined): string[] {
  return form === undefined ? [] : [form];
}

function trimWord(raw: string): string {
  return !isAscii(raw)
    ? raw.replace(/^[^\p{L}\p{N}_$@#]+|[^\p{L}\p{N}_]+$/gu, "")
    : raw.replace(/^[^A-Za-z0-9_$@#]+|[^A-Za-z0-9_]+$/g, "");
}

function splitWords(lower: string): string[] {
  return (!isAscii(lower)
    ? lower.split(/[^\p{L}\p{N}]+/u)
    : lower.split(/[^a-z0-9]+/)).filter(Boolean);
}

/** How many words of a text are not stop words. */
function contentWords(text: string): number {
  return splitWords(text.toLowerCase()).filter((w) => !isStopWord(w)).length;
}

/** The last piece ending in "?", else the last piece carrying a word. */
function pickLast(pieces: readonly string[]): number {
  for (let i = pieces.length - 1; i >= 0; i--) {
    if (/\?\s*$/.test(pieces[i]!) && hasWord(pieces[i]!)) return i;
  }
  for (let i = pieces.length - 1; i >= 0; i--) {
    if (hasWord(pieces[i]!)) return i;
  }
  return pieces.length - 1;
}

/**
 * Splits a prompt into its ask and the rest.
 *
 * @param prompt The prompt or query.
 * @returns The ask (line, then clause), the rest of the text, and the rest
 *   with the lines above the ask from the nearest up (an error's message
 *   sits at the bottom of its trace).
 * @example
 * ```ts
 * import { extractAsk } from "./understand_query.ts";
 * import { equal } from "node:assert/strict";
 * const { ask } = extractAsk("Error: boom\n  at x.js:1\nFix it. Why does the parser drop the last line?");
 * equal(ask, "Why does the parser drop the last line?");
 * ```
 */
export function extractAsk(
  prompt: string,
): { ask: string; rest: string; restNearestFirst: string } {
  const { text, kept } = protect(prompt);
  const lines = text.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
  if (lines.length === 0) return { ask: "", rest: "", restNearestFirst: "" };
  const li = pickLast(lines);
  const line = lines[li]!;
  let clauses = line.split(/(?<=[.!?;])\s+/).filter(Boolean);
  let ci = pickLast(clauses);
  // A clause with one word to search on ("how was it solved?") asks about
  // what its line says: the line is the ask.
  if (contentWords(clauses[ci] ?? "") < 2) {
    clauses = [line];
    ci = 0;
  }
  const ask = clauses[ci] ?? line;
  // What the asker wrote around the question comes before what they
  // pasted: the ask's own line first, then the other lines in order.
  const rest = (above: string[]) =>
    restore(
      [
        ...clauses.slice(0, ci),
        ...clauses.slice(ci + 1),
        ...above,
        ...lines.slice(li + 1),
      ].join("\n"),
      kept,
    );
  return {
    ask: restore(ask, kept),
    rest: rest(lines.slice(0, li)),
    restNearestFirst: rest(lines.slice(0, li).reverse()),
  };
}

/** Words of a text: quoted/backticked pieces whole, the rest split on space. */
function pieces(text: string): Array<{ text: string; quoted: boolean }> {
  const out: Array<{ text: string; quoted: boolean }> = [];
  const re = new RegExp(
    `"([^"]+)"|\`([^\`]+)\`|“([^”]+)”|${SINGLE_QUOTED}|(\\S+)`,
    "g",
  );
  for (const m of text.matchAll(re)) {
    if (m[6] !== undefined) out.push({ text: m[6], quoted: false });
    else {
      const inner = (m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5] ?? "").trim();
      if (inner) out.push({ text: inner, quoted: true });
    }
  }
  return out;
}

function termsOf(
  text: string,
  weight: number,
  into: QueryTerm[],
  dropped: string[],
  languages: readonly string[],
): void {
  const list = pieces(text);
  // The particle a verb was joined with ("back" of "roll back") is in the
  // verb's forms, not a term of its own.
  let joinedAt = -1;
  for (const [at, piece] of list.entries()) {
    if (at === joinedAt) continue;
    if (piece.quoted) {
      const lower = firstWords(piece.text.toLowerCase(), MAX_TERM_WORDS);
      if (!hasWord(lower)) continue;
      const kind: TermKind = /\s/.test(lower) ? "phrase" : "code";
      into.push({ text: lower, kind, stem: lower, weight, alternatives: [] });
      continue;
    }
    const raw = trimWord(piece.text);
    if (!raw) continue;
    if (hasCjk(raw)) {
      cjkTerms(raw, weight, into, languages);
      continue;
    }
    let lower = raw.toLowerCase().replace(/['’]s$/, "");
    if (isStopWord(lower, languages)) {
      dropped.push(lower);
      continue;
    }
    lower = lower.replace(/['’]/g, "");
    const parts = identifierParts(raw);
    if (parts) {
      into.push({
        text: lower,
        kind: "code",
        stem: lower,
        weight,
        alternatives: [parts.join(" ")],
      });
      continue;
    }
    const words = splitWords(lower).slice(0, MAX_TERM_WORDS);
    if (
      words.length >= 4 && /^[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)+$/u.test(raw) &&
      words.some((w) => isStopWord(w, languages))
    ) {
      // "the not-in-the-TS-compilation error": words hyphenated into a
      // description, not a name a record would hold as typed.
      termsOf(words.join(" "), weight, into, dropped, languages);
      continue;
    }
    if (words.length > 1) {
      // eu-west-1, max.poll.records, user_profile: one compound term
      // (sign-out also as logout).
      into.push({
        text: words.join(" "),
        kind: "code",
        stem: words.join(" "),
        weight,
        alternatives: words.length === 2
          ? [
            ...sameActionForms(words.join("")),
            // "spec-kit" is also written "speckit"; "sub-agent", "subagent".
            ...optional(
              joinedCompound(words[0]!, words[1]!) ??
                (/^[\p{L}]+-[\p{L}]+$/u.test(raw) ? words.join("") : undefined),
            ),
          ]
          : [],
        ...(PLAIN_COMPOUND.test(raw) ? { plain: true } : {}),
      });
      continue;
    }
    const word = words[0];
    if (!word || word.length < 2) continue;
    if (HASH_OR_NUMBER.test(word)) {
      // A commit hash or a long number is typed on purpose, like a name.
      into.push({
        text: word,
        kind: "code",
        stem: word,
        weight,
        alternatives: [],
      });
      continue;
    }
    const next = list[at + 1];
    const after = next && !next.quoted ? trimWord(next.text).toLowerCase() : "";
    // A name written as two words ("VS Code") is also searched as the one
    // word it is written as (`vscode`), even when its first word is a stop
    // word; so is a verb and its particle: "log in" as "login" and as the two
    // words (any form of the verb: the index is stemmed), not "log" alone.
    const compound = after ? joinedCompound(word, after) : undefined;
    if (!compound && isStopWord(word, languages)) {
      dropped.push(word);
      continue;
    }
    const joined = compound ?? (after ? joinedForm(word, after) : undefined);
    if (joined) {
      joinedAt = at + 1;
      into.push({
        text: joined,
        kind: "word",
        stem: porterStem(joined),
        weight,
        alternatives: [`${word} ${after}`, ...sameActionForms(joined)],
      });
      continue;
    }
    const before = list[at - 1];
    into.push({
      text: word,
      kind: "word",
      stem: porterStem(word),
      weight,
      alternatives: [
        ...irregularForms(word),
        ...derivedForms(word),
        ...sameActionForms(word),
        ...optional(splitCompound(word)),
      ],
      ...(before && !/[.?!:]$/.test(before.text) &&
          (isAscii(raw)
            ? /^[A-Z][a-z]{2,}(?:'s)?$/.test(raw)
            : /^\p{Lu}\p{Ll}{2,}(?:['’]s)?$/u.test(raw))
        ? { proper: true }
        : {}),
    });
  }
}

/**
 * Most words one phrase or compound term holds: a pasted blob read as one
 * (`a🎉a🎉…`, thousands of words) made FTS5 walk a doclist per word, 0.7 s
 * for a query nobody can mean; a phrase's first words find what it does.
 */
const MAX_TERM_WORDS = 32;

/** `text` up to the end of its `n`-th word (all of it when it has fewer). */
function firstWords(text: string, n: number): string {
  let count = 0;
  for (const m of text.matchAll(/[\p{L}\p{N}]+/gu)) {
    if (++count === n) return text.slice(0, m.index + m[0].length);
  }
  return text;
}

function cjkTerms(
  raw: string,
  weight: number,
  into: QueryTerm[],
  languages: readonly string[],
): void {
  // A Latin word inside CJK text ("devcontainerで…", "用Docker部署") is
  // most often the name asked about: it goes before the bigrams.
  const latin = raw.replace(
    /[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uac00-\ud7af\uff66-\uff9f]+/g,
    " ",
  );
  for (const w of splitWords(latin.toLowerCase())) {
    if (w.length >= 2 && !isStopWord(w, languages)) {
      into.push({
        text: w,
        kind: "word",
        stem: porterStem(w),
        weight,
        alternatives: [],
      });
    }
  }
  const grams: string[] = [];
  for (const run of cjkRuns(raw)) {
    const all = cjkBigrams(run);
    const meaningful = all.filter((g) =>
      [...g].some((c) => !CJK_FUNCTION_CHARS.has(c))
    );
    grams.push(...(meaningful.length ? meaningful : all));
  }
  // Kanji and katakana carry a Japanese sentence's content; its hiragana
  // is mostly particles and endings: bigrams without hiragana spend the
  // term budget first.
  const kana = (g: string) => /[\u3040-\u309f]/.test(g) ? 1 : 0;
  for (const g of grams.sort((a, b) => kana(a) - kana(b))) {
    into.push({ text: g, kind: "cjk", stem: g, weight, alternatives: [] });
  }
}

/**
 * "Which session touched…", "find the session where we…": the words that ask
 * for a session, not ones the session said. A session named as a subject ("what
 * session timeout did we set", "the session cookie") stays.
 */
const SESSION_FRAMING =
  /\b(?:(?:find|show)(?:\s+me)?\s+)?(which|what|the|that)\s+sessions?\b(?!\s+(?:timeouts?|cookies?|tokens?|ids?|stores?|keys?|storage|state|data|handling|management|manager|middleware|expir\w*|length|lifetime|replay|fixation|hijacking|tables?|variables?|objects?|affinity|limits?|ttl|secrets?|pool|count|start|end|hooks?|files?)\b)/gi;

/**
 * "last time", "every time", "the other day": when something happened in
 * the asker's memory, no topic and no window.
 */
const WHEN_FILLER =
  /\b(?:(?:the\s+)?(?:last|next|this|that|every|each|first)\s+time|at\s+(?:the|that)\s+time|the\s+other\s+day|a\s+while\s+(?:ago|back))\b/gi;

/** "Died like this": the likeness is to the paste, no word to search. */
const LIKE_THIS = /\b(?:like|as)\s+(?:this|these)\b/gi;

/** "Like this", "these errors", "was this": an ask about what was pasted. */
const POINTS_AT_PASTE = new RegExp(
  [
    LIKE_THIS.source,
    /\b(?:this|these)\s+(?:errors?|output|logs?|traces?|stack|ones?|failures?|messages?|warnings?|crash(?:es)?|exceptions?|lines?)\b/
      .source,
    /\b(?:was|is|were|are)\s+(?:this|these)\b/.source,
  ].join("|"),
  "i",
);

/**
 * "Which chat proposed it?", "which run was this": words that ask for a
 * session by another name, not ones it said.
 */
const RUN_FRAMING = /\b(which)\s+(?:runs?|chats?|threads?|conversations?)\b/gi;

/** The words {@linkcode SESSION_SIZE} starts with ("shorter" holds "short"). */
const SIZE_WORDS =
  "short|long|quick|brief|tiny|small|huge|big|giant|massive|lengthy|endless|marathon";

/** "the short chat", "a long session": how big a session was, no topic. */
const SESSION_SIZE = new RegExp(
  `(?<!\\bin the\\s+)\\b(${SIZE_WORDS}|shorter|longer)\\s+((?:[\\p{L}\\p{N}_.-]+\\s+){0,2})(?:chat|session|conversation|thread|exchange|run|one)s?\\b`,
  "giu",
);

/**
 * Whether text may give a session's size: {@linkcode SESSION_SIZE} costs a
 * fresh process ~1.5 ms to compile, its gate ~0.1 ms, and most queries
 * name no size.
 */
const MAY_GIVE_SIZE = new RegExp(SIZE_WORDS, "iu");

/** Text without the sizes it gives a session ("the short chat": "chat"). */
function withoutSize(text: string): string {
  return MAY_GIVE_SIZE.test(text) ? text.replace(SESSION_SIZE, " $2 ") : text;
}

/** The size a query gives the session it asks for, if it gives one. */
function sizeAsked(ask: string): "short" | "long" | undefined {
  if (!MAY_GIVE_SIZE.test(ask)) return undefined;
  const word = [...ask.matchAll(SESSION_SIZE)][0]?.[1]?.toLowerCase();
  if (!word) return undefined;
  return /^(?:long|longer|huge|big|giant|massive|lengthy|endless|marathon)$/
      .test(word)
    ? "long"
    : "short";
}

/**
 * Words said around the ask past the term budget that are still looked
 * for, not required (names a long question gives last).
 */
const SPARE_TERMS = 20;

/**
 * Understands a query: the ask, its terms in budget order, the time window.
 *
 * @param raw The query or prompt as given.
 * @param options The clock and the term budget.
 * @returns The understood query.
 * @example
 * ```ts
 * import { understandQuery } from "./understand_query.ts";
 * import { deepEqual } from "node:assert/strict";
 * const q = understandQuery("why did we pin the redis client?", { now: 0 });
 * deepEqual(q.terms.map((t) => t.text), ["pin", "redis", "client"]);
 * ```
 */
export function understandQuery(
  raw: string,
  options: UnderstandOptions,
): UnderstoodQuery {
  const long = raw.includes("\n") || raw.length > LONG_PROMPT;
  // A question typed whole spends up to 14 terms (its distinctive words
  // often come last: "… the local qwen2.5 ollama model about the trading
  // bot server"); a long prompt, mostly pasted, 10.
  const budget = options.budget ?? (long ? 10 : 14);
  const { ask, rest, restNearestFirst } = extractAsk(raw);
  const askTime = extractTimeWindow(ask, options.now);
  const dropped: string[] = [];
  const found: QueryTerm[] = [];
  // "¿En qué chat pusimos…": that language's glue words go too.
  const languages = queryLanguages(raw);
  const notMeant = askTime.text.match(NOT_MEANT) ?? [];
  let asked = withoutSize(askTime.text.replace(NOT_MEANT, " "))
    .replace(WHEN_FILLER, " ");
  // Most queries say no "session": the framing's expression (~0.2 ms to
  // compile in a fresh process) waits for one.
  if (/session/i.test(asked)) asked = asked.replace(SESSION_FRAMING, "$1");
  // "The most recent time I ran …": the ordinal says which of the
  // matches, not what they say.
  termsOf(
    withoutOrdinal(asked.replace(RUN_FRAMING, "$1").replace(LIKE_THIS, " ")),
    1,
    found,
    dropped,
    languages,
  );
  // An ask with under two words of its own, or pointing at what was pasted
  // ("which run was this?", "the runs that died like this") is about what
  // was pasted above it: those words weigh as much.
  const pasted = long && (found.length < 2 || POINTS_AT_PASTE.test(ask));
  const restText = pasted ? restNearestFirst : rest;
  const restTime = askTime.window
    ? { text: restText }
    : extractTimeWindow(restText, options.now);
  const time = askTime.window ?? restTime.window;
  termsOf(
    withoutOrdinal(restTime.text),
    pasted ? 1 : long ? 0.3 : 0.7,
    found,
    dropped,
    languages,
  );
  if (time) {
    // Absolute times are words too: keep a month, a season or a year, not
    // required ("our camping trip last summer").
    for (const w of time.phrase.toLowerCase().match(DATE_WORDS) ?? []) {
      found.push({
        text: w,
        kind: "word",
        stem: porterStem(w),
        weight: 0.5,
        alternatives: [],
        optional: true,
      });
    }
  }
  // "What hobby", "which city": the kind of answer, not required while
  // another word is.
  const kinds = answerKinds(ask);
  const isKind = (t: QueryTerm) => t.kind === "word" && kinds.has(t.text);
  // "How many instruments": counted things are named, not their kind; the
  // kind stays required (a count's question says little else).
  const counted = countedKinds(ask);
  for (const t of found) {
    const things = isKind(t) || (t.kind === "word" && counted.has(t.text))
      ? kindInstances(t.text)
      : [];
    if (things.length) t.things = things;
  }
  // "What car do I drive": the kind's verb alone beside it says nothing
  // the kind does not; beside other words ("which sport was I playing when
  // I got hurt") it is one of the words the answer says.
  const verbs = found.filter((t) =>
    !t.optional && t.kind === "word" && isKindVerb(t.stem, kinds)
  );
  const others = found.filter((t) =>
    !t.optional && !isKind(t) && !verbs.includes(t)
  );
  if (others.length === 0) {
    for (const t of verbs) {
      t.optional = true;
      t.weight *= ANSWER_KIND_WEIGHT;
    }
  }
  if (kinds.size > 0 && found.some((t) => !t.optional && !isKind(t))) {
    for (const t of found) {
      if (!isKind(t)) continue;
      t.optional = true;
      t.weight *= ANSWER_KIND_WEIGHT;
    }
  }
  let terms = found;
  if (terms.length === 0 && dropped.length > 0) {
    // Only stop words: search them after all.
    terms = [...new Set(dropped)].map((w) => ({
      text: w,
      kind: "word" as const,
      stem: porterStem(w),
      weight: 1,
      alternatives: [],
    }));
    dropped.length = 0;
  }
  const seen = new Set<string>();
  const unique: QueryTerm[] = [];
  for (const t of terms) {
    const key = `${t.kind === "word" ? "w" : t.kind}:${t.stem}`;
    if (seen.has(key)) continue;
    seen.add(key);
    unique.push(t);
  }
  const kept: QueryTerm[] = [];
  const overBudget: string[] = [];
  let spent = 0;
  let spare = 0;
  for (const t of unique) {
    const cost = t.kind === "cjk" ? 0.5 : 1;
    if (spent + cost <= budget) {
      kept.push(t);
      spent += cost;
    } else if (t.weight < 1 && spare < SPARE_TERMS) {
      // Said around the ask, past the budget: looked for, not required.
      kept.push({ ...t, optional: true });
      spare++;
    } else overBudget.push(t.text);
  }
  const out: UnderstoodQuery = {
    raw,
    ask: ask.trim(),
    terms: kept,
    dropped: [...new Set(dropped)],
    overBudget,
    long,
    personal: isPersonal(ask),
    asksWhen: false,
    asksWhenPast: false,
  };
  // The expression needs "when", "what" or "how": most keyword queries
  // hold none, and it costs a fresh process ~0.2 ms to compile.
  if (/wh[ea]|how/i.test(ask) && ASKS_WHEN.test(ask)) {
    out.asksWhen = true;
    out.asksWhenPast = ASKS_WHEN_PAST.test(ask) && !ASKS_OF_A_PLAN.test(ask);
  }
  if (time) out.time = time;
  // "Short one. My app wouldn't boot…": said before the ask, too.
  const size = sizeAsked(askTime.text.replace(NOT_MEANT, " ")) ??
    sizeAsked(raw.replace(NOT_MEANT, " "));
  if (size) out.size = size;
  if (notMeant.length) {
    out.notMeant = notMeant.map((c) => c.replace(/^[\s,;—–]+/, "").trim())
      .join("; ");
  }
  return out;
}

/**
 * The token the index holds for a single-word term (its Porter stem), or
 * undefined for phrases, code, CJK and words with other spellings: their
 * occurrences are not one indexed token.
 *
 * @param term A query term.
 * @returns The indexed token, if the term is one.
 * @example
 * ```ts
 * import { understandQuery, wordToken } from "./understand_query.ts";
 * import { equal } from "node:assert/strict";
 * const q = understandQuery("retries backing off", { now: 0 });
 * equal(wordToken(q.terms[1]!), "back");
 * ```
 */
export function wordToken(term: QueryTerm): string | undefined {
  return term.kind === "word" && term.alternatives.length === 0
    ? term.stem
    : undefined;
}
