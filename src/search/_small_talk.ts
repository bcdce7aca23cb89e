/**
 * Sessions that are only a greeting. People open an agent, say "hi" (or
 * "こんにちは", or "how are you"), get a hello back, an error or nothing,
 * and leave; later they look for that session by what happened in it ("the
 * amp thread where I just said hi", "I asked opencode how it was doing and
 * never got a reply"). Such a session holds no word of the question, so
 * words alone cannot find it: this module reads the question for a
 * greeting and finds the sessions whose every prompt is one.
 *
 * @module
 */
import type { Database } from "../core/_sqlite.ts";
import { ownValue } from "../core/lookup.ts";
import type { DescribedSession } from "./_described.ts";
import { type ScopeFilter, sessionFilterSql } from "./_retrieve.ts";
import { prepared } from "./_statements.ts";

/** Greetings told apart, so "how it was doing" prefers "How are you". */
export type GreetingKind = "hello" | "how-are-you";

/** A greeting, or the one word typed, a question describes. */
export interface GreetingAsk {
  /**
   * What the question says was all that was typed ("all I typed was the
   * word shell"), when that is no greeting: sessions whose every prompt is
   * this, not a greeting, are meant.
   */
  typed?: string;
  /** Which greeting, when the question says. */
  kind?: GreetingKind;
  /** The language it was said in, when the question names one. */
  language?: string;
  /** True: "it replied"; false: "never got a reply"; absent: not said. */
  replied?: boolean;
}

const HELLO_WORDS = "hi|hello|hey|hiya|howdy|hola|bonjour|hallo|ciao";
const HOW_ARE_YOU =
  /\bhow\s+(?:are\s+(?:you|u)|it\s+(?:was|is)\s+(?:doing|going)|it's\s+(?:doing|going)|(?:was|is)\s+it\s+(?:doing|going)|you\s+(?:were|are)\s+doing)(?:\s+doing|\s+today)?(?=\s*(?:$|[?!.,;:"')]|(?:and|but|then|so|or)\b))/i;
const SAID_HELLO = new RegExp(
  `\\b(?:said|say|saying|typed|type|typing|sent|send|sending|wrote|write|just|only|with\\s+a|a\\s+quick)\\s+(?:a\\s+)?(?:${HELLO_WORDS})\\b|\\b(?:${HELLO_WORDS})\\s+in\\s+[a-z]+ese\\b`,
  "i",
);
const GREETED =
  /\bgreeted\b|\b(?:just|only|nothing\s+but|no\s+more\s+than)\s+(?:a\s+)?greetings?\b/i;
const NO_REPLY =
  /\b(?:never|didn't|did\s+not|no|without\s+(?:a|any))\s+(?:\w+\s+){0,3}?(?:reply|replies|replied|answer|answered|response|responded)\b/i;
const REPLIED =
  /\b(?:it|the\s+(?:agent|bot|model)|claude(?:\s+code)?|codex|gemini|qwen|kimi|amp|aider|opencode|cursor|copilot|cline|crush)\s+(?:actually\s+|just\s+|finally\s+)?(?:replied|answered|responded|asked)\b|\b(?:got|was)\s+(?:actually\s+|finally\s+)?(?:answered|replied\s+to)\b|\bgot\s+(?:an?\s+)?(?:answer|reply|response)\b/i;
/** What was typed, in quotes (group 1) or one bare word (group 2). */
const TYPED_TEXT = `(?:["'“\`]([^"'”\`]{1,40})["'”\`]|([^\\s,.;:!?]+))`;
/** "All I typed was …", "my entire prompt was …", "I only typed …". */
const TYPED = [
  `\\b(?:all|the\\s+only\\s+thing)\\s+I\\s+(?:typed|sent|wrote|entered|said)\\s+(?:in\\s+it\\s+)?(?:was|is)\\s+(?:the\\s+word\\s+|just\\s+)?`,
  `\\b(?:entire|whole|only)\\s+(?:prompt|message|input)\\s+(?:was|is)\\s+(?:the\\s+)?(?:single\\s+|one\\s+)?(?:word\\s+)?`,
  `\\bI\\s+(?:only|just)\\s+(?:typed|sent|entered)\\s+(?:the\\s+word\\s+)?`,
].map((lead) => new RegExp(lead + TYPED_TEXT, "i"));
/** A lone symbol typed, by its name ("my entire message was a single slash"). */
const SYMBOL_NAMED =
  /\b(?:an?\s+)?(?:single\s+|lone\s+|bare\s+|one\s+)?(forward\s+slash|slash|backslash|dash|hyphen|asterisk)\b/gi;
const SYMBOLS: Readonly<Record<string, string>> = {
  "forward slash": "/",
  slash: "/",
  backslash: "\\",
  dash: "-",
  hyphen: "-",
  asterisk: "*",
};
/** Words that start a description of what was typed, not the text itself. */
const NOT_TYPED = new Set([
  "a",
  "an",
  "the",
  "it",
  "that",
  "this",
  "some",
  "something",
  "my",
  "our",
  "one",
  "in",
  "out",
  "up",
  "nothing",
  "anything",
]);
const LANGUAGES =
  "japanese|chinese|korean|spanish|french|german|italian|portuguese|russian|vietnamese";
const LANGUAGE = new RegExp(
  `\\bin\\s+(${LANGUAGES})\\b|\\b(${LANGUAGES})\\s+(?:${HELLO_WORDS}|greeting)s?\\b`,
  "i",
);
/**
 * A greeting the person owns or names by its language: "my first greeting",
 * "my hello", "the Japanese hello" (not "the greeting" a UI shows).
 */
const OWN_GREETING = new RegExp(
  `\\bmy\\s+(?:\\w+\\s+)?(?:greeting|${HELLO_WORDS})\\b|\\b(?:${LANGUAGES})\\s+(?:${HELLO_WORDS}|greeting)s?\\b`,
  "i",
);

/**
 * The greeting a question describes, if it describes one: a greeting said
 * ("I just said hi", "greeted claude in japanese", "asked it how it was
 * doing"), not a word of code ("a hello world app").
 *
 * @param ask The question's ask.
 * @returns What it says of the greeting, or undefined.
 * @example
 * ```ts
 * import { greetingAsked } from "./_small_talk.ts";
 * import { deepEqual, equal } from "node:assert/strict";
 * deepEqual(greetingAsked("the amp thread where I just said hi"), { kind: "hello" });
 * deepEqual(
 *   greetingAsked("I asked opencode how it was doing and never got a reply"),
 *   { kind: "how-are-you", replied: false },
 * );
 * deepEqual(greetingAsked("all I typed was the word shell"), { typed: "shell" });
 * equal(greetingAsked("where is the hello world example"), undefined);
 * ```
 */
export function greetingAsked(ask: string): GreetingAsk | undefined {
  const text = ask.replaceAll("’", "'");
  if (!MAY_DESCRIBE_GREETING.test(text)) return undefined;
  // "After saying hi I asked which model it runs": more than a greeting.
  if (AFTER_GREETING.test(text)) return undefined;
  const symbols = text.replace(
    SYMBOL_NAMED,
    (_, name: string) =>
      `"${SYMBOLS[name.toLowerCase().replace(/\s+/g, " ")] ?? name}"`,
  );
  const typedMatch = TYPED.map((re) => re.exec(symbols)).find((m) => m);
  const typed = typedMatch ? (typedMatch[1] ?? typedMatch[2] ?? "") : "";
  const typedGreeting = typed ? greetingOf(typed) : undefined;
  if (typed && !NOT_TYPED.has(typed.toLowerCase()) && !typedGreeting) {
    return { typed: promptKey(typed) };
  }
  const howAreYou = HOW_ARE_YOU.test(text);
  const saidHello = SAID_HELLO.test(text) || OWN_GREETING.test(text) ||
    QUOTED_SAID.test(text) ||
    GREETED_IN_OWN_WORDS.test(text);
  if (!typedGreeting && !howAreYou && !saidHello && !GREETED.test(text)) {
    return undefined;
  }
  const out: GreetingAsk = {};
  if (howAreYou) out.kind = "how-are-you";
  else if (typedGreeting) out.kind = typedGreeting;
  else if (saidHello) out.kind = "hello";
  const said = LANGUAGE.exec(text);
  const language = said?.[1] ?? said?.[2] ?? languageNamed(text);
  if (language) out.language = language.toLowerCase();
  if (NO_REPLY.test(text) || NO_REPLY_IN_OWN_WORDS.test(text)) {
    out.replied = false;
  } else if (REPLIED.test(text) || REPLIED_IN_OWN_WORDS.test(text)) {
    out.replied = true;
  }
  return out;
}

/** A greeting the question says came before something else. */
const AFTER_GREETING =
  /\b(?:after|once)\s+(?:(?:saying|typing|sending|i\s+said|i\s+typed|a|the|my)\s+)?(?:hi|hello|hey|greeting)\b/i;

/**
 * A greeting described in the asker's own language: "日本語で挨拶したら…",
 * "인사만 했던 대화", "我跟它打招呼", "lần tôi chào nó", "cuando saludé".
 */
const GREETED_IN_OWN_WORDS =
  /(?:挨拶|あいさつ)(?:し|だけ|を)|인사(?:만|했|를|하)|打招呼|问候|问好|\bch[àa]o\b|\bsalud[ée]\b|\bsalu[ée]\b|\bbegr[üu][ßs]t|\bgegroet\b/i;
/** "返してくれた", "답했", "回复了", "trả lời": it replied. */
const REPLIED_IN_OWN_WORDS =
  /返して|返事が(?:来|あ)|返信|답(?:장|변)?했|回复了|回答了|trả lời/;
/** "返事がなかった", "답이 없", "没有回复", "không trả lời": it did not. */
const NO_REPLY_IN_OWN_WORDS =
  /返事(?:が|は)?(?:なかった|来なかった)|返ってこな|답(?:장|이)?\s*없|没(?:有)?回复|không\s+trả\s+lời/;

/** Languages named in their own scripts, to their English names. */
const NATIVE_LANGUAGE_NAMES: ReadonlyArray<[RegExp, string]> = [
  [/日本語|日语|日文|일본어|tiếng nhật/i, "japanese"],
  [/韓国語|韩语|韓語|한국어|tiếng hàn/i, "korean"],
  [/中国語|中文|汉语|중국어|tiếng trung/i, "chinese"],
];

/** Greetings of other languages spelt in Latin letters, and their languages. */
const ROMANIZED_HELLO: Readonly<Record<string, string>> = {
  konnichiwa: "japanese",
  konnichiha: "japanese",
  konbanwa: "japanese",
  ohayo: "japanese",
  ohayou: "japanese",
  nihao: "chinese",
  annyeong: "korean",
  annyeonghaseyo: "korean",
  privet: "russian",
  zdravstvuyte: "russian",
};

/**
 * {@link ROMANIZED_HELLO}'s words, longest first so "ohayou" is not read as
 * "ohayo" and a "u" ("ni hao" as two words too).
 */
const ROMANIZED = [...Object.keys(ROMANIZED_HELLO), "ni\\s+hao"]
  .sort((a, b) => b.length - a.length).join("|");

/**
 * Greetings a question may quote in their own script, or spelt in Latin
 * letters ("the konnichiwa chat").
 */
const QUOTED_HELLO = new RegExp(
  `こんにちは|こんばんは|おはよう|你好|您好|안녕|xin\\s+ch[àa]o|привет|здравствуйте|\\b(?:${ROMANIZED})\\b`,
  "i",
);

/**
 * A greeting of another language said ("said konnichiwa") or naming the
 * session ("the こんにちは chat"); not one only mentioned ("translate
 * konnichiwa").
 */
const QUOTED_SAID = new RegExp(
  `\\b(?:said|say|saying|typed|type|sent|send|wrote|just|only)\\s+(?:${QUOTED_HELLO.source})|(?:${QUOTED_HELLO.source})\\s+(?:chat|thread|session|conversation|one|greeting|prompt|message)s?\\b`,
  "i",
);

/**
 * A word some expression of {@linkcode greetingAsked} needs: a question
 * without one describes no greeting. Compiling the expressions costs a
 * fresh process ~1 ms, this gate a fraction, and most questions fail it.
 */
const MAY_DESCRIBE_GREETING = new RegExp(
  `\\b(?:how|greet\\w*|said|typed|sent|wrote|entered|prompt|message|input|(?:${HELLO_WORDS})s?)\\b|${QUOTED_HELLO.source}|${GREETED_IN_OWN_WORDS.source}`,
  "i",
);

/**
 * The first language a question names in its own script, or the language
 * of a greeting it quotes ("こんにちはと挨拶して…"), if any.
 */
function languageNamed(text: string): string | undefined {
  const hello = QUOTED_HELLO.exec(text);
  if (hello) return greetingLanguage(hello[0]);
  let best: { at: number; name: string } | undefined;
  for (const [re, name] of NATIVE_LANGUAGE_NAMES) {
    const at = text.search(re);
    if (at >= 0 && (!best || at < best.at)) best = { at, name };
  }
  return best?.name;
}

const OPENERS = new RegExp(
  `^(?:${HELLO_WORDS}|${ROMANIZED}|yo|salut|ol[áa]|hej|merhaba|namaste|привет|здравствуйте|xin\\s+ch[àa]o|こんにちは|こんばんは|おはよう(?:ございます)?|你好|您好|안녕(?:하세요)?)`,
  "i",
);
const ASKED_HOW =
  /^(?:(?:hi|hello|hey)[\s,!.]*)?(?:how\s+are\s+(?:you|u)(?:\s+doing)?(?:\s+today)?|how'?s\s+it\s+going|what'?s\s+up|how\s+do\s+you\s+do)/i;
const TRAILER =
  /^[\s,!.?~:)(]*(?:(?:there|friend|buddy|claude|codex|gemini|amp|agent|bot|all)\b[\s,!.?~:)(]*)?$/i;

/**
 * Which greeting a prompt is, when it is nothing but one.
 *
 * @param prompt What the person typed.
 * @returns The greeting's kind, or undefined for any other prompt.
 * @example
 * ```ts
 * import { greetingOf } from "./_small_talk.ts";
 * import { equal } from "node:assert/strict";
 * equal(greetingOf("hi!"), "hello");
 * equal(greetingOf("こんにちは"), "hello");
 * equal(greetingOf("How are you"), "how-are-you");
 * equal(greetingOf("hi, can you fix the login page?"), undefined);
 * ```
 */
export function greetingOf(prompt: string): GreetingKind | undefined {
  const text = prompt.trim().replaceAll("’", "'");
  if (text.length === 0 || text.length > 40) return undefined;
  const how = ASKED_HOW.exec(text);
  if (how && TRAILER.test(text.slice(how[0].length))) return "how-are-you";
  const hello = OPENERS.exec(text);
  if (hello && TRAILER.test(text.slice(hello[0].length))) return "hello";
  return undefined;
}

/**
 * The language a greeting was said in, by its script or its word.
 *
 * @param prompt A greeting.
 * @returns The language's English name, or undefined for English or unknown.
 * @example
 * ```ts
 * import { greetingLanguage } from "./_small_talk.ts";
 * import { equal } from "node:assert/strict";
 * equal(greetingLanguage("こんにちは"), "japanese");
 * equal(greetingLanguage("hola!"), "spanish");
 * equal(greetingLanguage("hi"), undefined);
 * ```
 */
export function greetingLanguage(prompt: string): string | undefined {
  if (/[\u3040-\u30ff]/.test(prompt)) return "japanese";
  if (/[\uac00-\ud7af]/.test(prompt)) return "korean";
  if (/[\u4e00-\u9fff]/.test(prompt)) return "chinese";
  if (/[\u0400-\u04ff]/.test(prompt)) return "russian";
  const words = prompt.trim().toLowerCase().replace(/^ni\s+hao\b/, "nihao");
  const word = words.split(/[\s,!.]/)[0] ?? "";
  return ownValue(LATIN_GREETINGS, word) ?? ownValue(ROMANIZED_HELLO, word);
}

const LATIN_GREETINGS: Readonly<Record<string, string>> = {
  hola: "spanish",
  bonjour: "french",
  salut: "french",
  hallo: "german",
  ciao: "italian",
  "olá": "portuguese",
  ola: "portuguese",
  xin: "vietnamese",
};

/** A prompt as compared with what a question says was typed. */
function promptKey(text: string): string {
  return text.trim().toLowerCase().replace(/^[\s"'“`]+|[\s"'”`.!?]+$/g, "");
}

/** A session whose every prompt is a greeting, or the one text asked. */
export interface GreetingSession extends DescribedSession {
  /** The kinds of greeting its prompts are (none for a typed text). */
  kinds: ReadonlySet<GreetingKind>;
  /** The language of its greeting, when not English. */
  language?: string;
  /** Whether the agent answered in words. */
  replied: boolean;
}

/** Longest prompt read as a possible greeting (characters). */
const LONGEST_PROMPT = 60;

/**
 * The sessions, within the search's filters, whose one to three prompts
 * are each a greeting — or, when the question says what was typed, each
 * that text. One query over the few short sessions; only a question
 * describing such a session pays it.
 *
 * @param db The index.
 * @param filter The search's session filters.
 * @param typed What the question says was all that was typed, if it says.
 * @returns Each such session, in no order.
 */
export function greetingSessions(
  db: Database,
  filter: ScopeFilter,
  typed?: string,
): GreetingSession[] {
  const { where, params } = sessionFilterSql(filter);
  // CROSS JOIN keeps the sessions outermost: SQLite otherwise scanned every
  // record (70 ms on the 240 MB bench index, against well under 1 ms).
  const rows = prepared(
    db,
    `SELECT s.rowid AS session, s.started, s.updated,
       json_group_array(r.body) AS prompts,
       EXISTS (SELECT 1 FROM records a WHERE a.session = s.rowid AND a.role = 'assistant') AS replied
     FROM sessions s CROSS JOIN records r ON r.session = s.rowid AND r.role = 'user'
     WHERE s.user_turns BETWEEN 1 AND 3 AND ${where}
     GROUP BY s.rowid
     HAVING max(length(r.body)) <= ${LONGEST_PROMPT}`,
  ).all(...params) as Array<{
    session: number;
    started: number | null;
    updated: number | null;
    prompts: string;
    replied: number;
  }>;
  const out: GreetingSession[] = [];
  for (const row of rows) {
    const prompts = (JSON.parse(row.prompts) as unknown[]).filter((
      p,
    ): p is string => typeof p === "string");
    if (typed !== undefined) {
      if (!prompts.every((p) => promptKey(p) === typed)) continue;
      out.push({
        session: row.session,
        kinds: new Set(),
        replied: row.replied === 1,
        started: row.started,
        updated: row.updated,
      });
      continue;
    }
    const kinds = new Set<GreetingKind>();
    for (const prompt of prompts) {
      const kind = greetingOf(prompt);
      if (kind) kinds.add(kind);
      else kinds.clear();
      if (!kind) break;
    }
    if (kinds.size === 0) continue;
    const session: GreetingSession = {
      session: row.session,
      kinds,
      replied: row.replied === 1,
      started: row.started,
      updated: row.updated,
    };
    const language = greetingLanguage(prompts[0]!);
    if (language) session.language = language;
    out.push(session);
  }
  return out;
}

/**
 * How many things the question says of the greeting that a session
 * contradicts: another greeting ("how are you" asked, "hi" said), another
 * language (none named means English), a reply where it got none or none
 * where it replied.
 *
 * @param asked What the question says of the greeting.
 * @returns The count for one session.
 */
export function greetingMisfit(
  asked: GreetingAsk,
): (s: GreetingSession) => number {
  return (s) =>
    (asked.kind && !s.kinds.has(asked.kind) ? 1 : 0) +
    (s.language !== asked.language ? 1 : 0) +
    (asked.replied !== undefined && asked.replied !== s.replied ? 1 : 0);
}
