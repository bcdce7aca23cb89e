/**
 * Small scanners the redaction rules share: the edit list, reading the value
 * after a key, and the tests that tell a secret from an ordinary word, path,
 * identifier or digest.
 *
 * @module
 */

/** A span of the text to replace with `[redacted:<id>]`. */
export interface Edit {
  start: number;
  end: number;
  id: string;
}

/** Where a rule puts what it finds. */
export type Edits = Edit[];

const MARKER_PREFIX = "[redacted:";

/** Text every replacement becomes. */
export function marker(id: string): string {
  return `${MARKER_PREFIX}${id}]`;
}

/** True when a value is, or holds, an earlier replacement. */
export function isRedacted(value: string): boolean {
  return value.includes(MARKER_PREFIX);
}

/** Finds secrets in `text` and adds an edit for each. */
export type Collect = (text: string, edits: Edits) => void;

/**
 * Sentence punctuation after a bare value: kept out of prose cuts, and
 * ignored when deciding whether a value is an ordinary word. `!` and `?` may
 * belong to a password, so they are not in it.
 */
const SENTENCE_MARKS = ".,;:)]\"'»”";

/**
 * How many characters at the end of `value` are all in `marks`. Read
 * backwards: a regex such as `/[.,;:]+$/` tries every start in a long run
 * of those characters, quadratic in its length.
 */
export function trailingLength(value: string, marks = SENTENCE_MARKS): number {
  let i = value.length;
  while (i > 0 && marks.includes(value[i - 1]!)) i--;
  return value.length - i;
}

/** `value` less the sentence punctuation that ends it. */
export function withoutSentenceEnd(value: string): string {
  return value.slice(0, value.length - trailingLength(value));
}

/** Where a value sits in the text, and whether quotes enclose it. */
export interface ValueSpan {
  start: number;
  end: number;
  quoted: boolean;
}

const QUOTES = "\"'`";
const BARE_STOP = new Uint8Array(128);
for (const ch of " \t\r\n\"'`,;)}]|\\") BARE_STOP[ch.charCodeAt(0)] = 1;
/** A URL query's next `&name=` (`&amp;name=` in XML). */
const QUERY_NEXT = /&(?:amp;)?[A-Za-z_][\w.-]*=/y;
/** An XML closing tag (`</jdbc-url>`): it ends a bare value. */
const CLOSING_TAG = /<\/[A-Za-z][\w.:-]{0,100}>/y;

/**
 * Reads the value that starts at `i` (after optional blanks): a quoted
 * string on one line (plain, or JSON-escaped `\"…\"`), else a bare run that
 * ends at a blank, quote, separator, closing bracket or XML closing tag. A
 * `&` ends the run only when `name=` follows it, as in a URL query. A gdb
 * pointer before a string (`0x5556 "…"`) gives the string.
 */
export function readValue(text: string, i: number): ValueSpan | null {
  const n = text.length;
  while (i < n && (text[i] === " " || text[i] === "\t")) i++;
  if (i >= n) return null;
  let c = text[i]!;
  // A quote escaped once or more (JSON inside JSON: `\\\"`): its closing
  // quote carries the same backslashes.
  let slashes = 0;
  while (text[i + slashes] === "\\" && slashes < 7) slashes++;
  const escaped = slashes > 0 && QUOTES.includes(text[i + slashes] ?? "");
  if (escaped) {
    i += slashes;
    c = text[i]!;
  }
  if (QUOTES.includes(c)) {
    const start = i + 1;
    const end = escaped
      ? text.indexOf("\\".repeat(slashes) + c, start)
      : closingQuote(text, c, start);
    if (end < 0 || hasNewline(text, start, end)) return null;
    return { start, end, quoted: true };
  }
  if (escaped) return null;
  const start = i;
  while (i < n) {
    const ch = text.charCodeAt(i);
    if (ch < 128 && BARE_STOP[ch] === 1) break;
    if (ch === 60 /* < */ && text.charCodeAt(i + 1) === 47 /* / */) {
      CLOSING_TAG.lastIndex = i;
      if (CLOSING_TAG.test(text)) break;
    }
    // A value may start with `&` (`Password=&WX4…;` in a connection
    // string): only in a URL query does a first `&name=` end it.
    if (ch === 38 /* & */ && (i > start || inQuery(text, start))) {
      QUERY_NEXT.lastIndex = i;
      if (QUERY_NEXT.test(text)) break;
    }
    // A URL's fragment ends its query's last value (a yarn.lock
    // `?token=X#<sha>`).
    if (ch === 35 /* # */ && i > start && queryValueAt(text, start)) break;
    i++;
  }
  // gdb prints a string as its address, then the text: `0x5556 "…"`.
  if (text.charCodeAt(start) === 48 && text[start + 1] === "x") {
    GDB_POINTER.lastIndex = start;
    if (GDB_POINTER.test(text)) return readValue(text, GDB_POINTER.lastIndex);
  }
  return i > start ? { start, end: i, quoted: false } : null;
}

/** A pointer gdb prints before the string it points to: `0x5555 "`. */
const GDB_POINTER = /0x[0-9a-f]{1,16} (?=")/y;

/** Whether a `?` stands before `at` on its line (within 2 KiB): a URL query. */
function inQuery(text: string, at: number): boolean {
  // Only the 2 KiB before `at` are read: a search back over the whole text
  // at each value made a long text of `password=&…` quadratic.
  const from = Math.max(0, at - 2047);
  const head = text.slice(from, at + 1);
  const q = head.lastIndexOf("?");
  return q >= 0 && head.indexOf("\n", q) < 0;
}

/** A query parameter's name and `=` right before a value: `?token=`, `&key=`. */
const QUERY_PARAMETER = /[?&][\w.-]{1,64}=$/;

/** Whether the value at `at` is a URL query parameter's (`…?token=X`). */
function queryValueAt(text: string, at: number): boolean {
  return QUERY_PARAMETER.test(text.slice(Math.max(0, at - 66), at)) &&
    inQuery(text, at - 1);
}

/** Whether a line break stands in `[from, to)`, read no further than `to`. */
function hasNewline(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (text.charCodeAt(i) === 10) return true;
  return false;
}

/**
 * Where the line holding `at` starts, when that is at most `max` characters
 * before `at`; -1 when it is further (only that far back is read).
 */
export function lineStartWithin(
  text: string,
  at: number,
  max: number,
): number {
  for (let i = at - 1; i >= 0 && at - i <= max + 1; i--) {
    if (text.charCodeAt(i) === 10) return i + 1;
  }
  return at <= max ? 0 : -1;
}

const CONTINUED = /\\\r?\n[ \t]*([A-Za-z0-9._~+\/=-]{8,})/y;

/**
 * The token run a shell line continuation leads to: `\`, a newline and
 * indentation right at `end`, then 8+ token characters (the rest of a
 * header value split across lines). Null when no continuation is there.
 */
export function continuedRun(text: string, end: number): ValueSpan | null {
  if (text[end] !== "\\") return null;
  CONTINUED.lastIndex = end;
  const m = CONTINUED.exec(text);
  if (!m) return null;
  return {
    start: CONTINUED.lastIndex - m[1]!.length,
    end: CONTINUED.lastIndex,
    quoted: false,
  };
}

/** The shortest line a terminal wraps at (an 80-column one, less a margin). */
const WRAP_WIDTH = 64;
/** The shortest replaced value that a wrap may have cut (a long token). */
const WRAPPED_VALUE = 24;
/** A token continued on the next line (`=` only as its padding: no `NAME=`). */
const CONTINUATION_LINE = /[A-Za-z0-9._~+\/-]{8,}={0,2}(?=\r?\n|$)/y;

/**
 * Where a replaced value `[start, end)` really ends when its token goes on
 * past a line break: after a shell line continuation (`\`, a newline,
 * then 8+ token characters that open no flag), or, when the value is long
 * and ends a line of 64+ characters (a terminal wrapped it), through the
 * lines below that are random token characters alone, no wider than that
 * line (each further one only after a line as wide). `end` when neither.
 */
export function continuedEnd(text: string, start: number, end: number): number {
  if (text[end] === "\\") {
    const more = continuedRun(text, end);
    return more && text[more.start] !== "-" ? more.end : end;
  }
  // Only a value that ends its line is looked back from (once per line).
  const breakAt = text[end] === "\r" ? end + 1 : end;
  if (text[breakAt] !== "\n" || end - start < WRAPPED_VALUE) return end;
  const width = end - (text.lastIndexOf("\n", start - 1) + 1);
  if (width < WRAP_WIDTH) return end;
  let at = end;
  for (let lines = 0; lines < 8; lines++) {
    const next = at + (text[at] === "\r" ? 2 : 1);
    if (text[next - 1] !== "\n") break;
    CONTINUATION_LINE.lastIndex = next;
    const m = CONTINUATION_LINE.exec(text);
    if (!m || m[0].length > width) break;
    const piece = m[0];
    if (charClasses(piece) < 2 || isIdentifierLike(piece)) break;
    at = next + piece.length;
    if (piece.length < width) break;
  }
  return at;
}

/** The next `quote` at or after `from` that no backslash escapes, or -1. */
function closingQuote(text: string, quote: string, from: number): number {
  let at = text.indexOf(quote, from);
  while (at > 0 && text[at - 1] === "\\") at = text.indexOf(quote, at + 1);
  return at;
}

const REFERENCE =
  /^(?:\$[{(]?[A-Za-z_]|\$\{\{|%[A-Za-z_]\w*%(?:$|[\\\/;])|\{\{|process\.env\b|os\.environ\b|os\.getenv\b|getenv\b|env\(|ENV\[|secrets\.|vars\.|@(?:keychain|env):[A-Za-z_][\w.-]*$)/;

/**
 * True for a reference to a secret, not the secret: `$TOKEN`,
 * `${{ secrets.X }}`, `%PASS%` (a whole `%NAME%`, or one a path follows;
 * `%Ab3%x9…` is a password), altool's and notarytool's `@keychain:NAME`
 * and `@env:NAME`.
 */
export function isReference(value: string): boolean {
  return REFERENCE.test(value);
}

/** A sops value (`ENC[AES256_GCM,data:…,type:str]`): ciphertext meant to be committed. */
export function isSopsValue(value: string): boolean {
  return value.startsWith("ENC[AES256_GCM,");
}

/** A SealedSecret's `encryptedData` key, then the object it opens or the end of its line. */
const ENCRYPTED_DATA = /encryptedData["']?[ \t]*:[ \t]*(?:\{|\r?\n)/y;
/** How far before a value its `encryptedData` key is looked for. */
const ENCRYPTED_DATA_REACH = 8192;

/**
 * True when `at` sits under a SealedSecret's `encryptedData` (its values
 * are ciphertext meant to be committed): in the JSON object it opens, or
 * on a YAML line below it indented more than its own line. Only the 8 KiB
 * before `at` are read.
 */
export function inEncryptedData(text: string, at: number): boolean {
  const from = Math.max(0, at - ENCRYPTED_DATA_REACH);
  const before = text.slice(from, at + 1);
  const key = before.lastIndexOf("encryptedData");
  if (key < 0) return false;
  ENCRYPTED_DATA.lastIndex = key;
  if (!ENCRYPTED_DATA.test(before)) return false;
  const open = ENCRYPTED_DATA.lastIndex;
  const below = before.slice(open);
  if (before[open - 1] === "{") return !below.includes("}");
  const indent = leadingBlanks(before.slice(before.lastIndexOf("\n", key) + 1));
  return below.split("\n").every((line) =>
    !line.trim() || leadingBlanks(line) > indent
  );
}

/** How many blanks start `line`. */
function leadingBlanks(line: string): number {
  let i = 0;
  while (line[i] === " " || line[i] === "\t") i++;
  return i;
}

/** A netrc entry before its `password` word: `machine HOST login USER `. */
export const NETRC_BEFORE =
  /(?:^|\s)(?:machine[ \t\r\n]+\S+|default)(?:[ \t\r\n]+(?:login|account|port)[ \t\r\n]+\S+)+[ \t\r\n]+$/;

const PLACEHOLDER =
  /^(?:<[^<>]*>|\*+|\.{2,}|…|-+|_+|•+|\[[^\]]*\]|\{[^}]*\}|\(.*\))$|x{4,}|X{4,}|\*{3}|(?:\.\.\.|…)$|^(?:your|my)[-_ ][a-z]+(?:[-_ ][a-z]+)*$|^(?:replace|change)[-_ ]?me(?:[-_ ][a-z]+)*$/i;

/**
 * True for stand-ins like `<token>`, `****`, `sk-xxxx`, `sk-...`,
 * `your-api-key` (your/my and words only: `my_.2Y%r` is a password),
 * `CHANGE_ME`, `changeme`, `change-me-in-production`.
 */
export function isPlaceholder(value: string): boolean {
  return PLACEHOLDER.test(value);
}

const TYPE_WORDS = new Set([
  "string",
  "str",
  "number",
  "int",
  "integer",
  "bool",
  "boolean",
  "null",
  "none",
  "nil",
  "undefined",
  "true",
  "false",
  "yes",
  "no",
  "on",
  "off",
  "required",
  "optional",
  "empty",
  "any",
  "object",
  "text",
  "hidden",
  "masked",
  "redacted",
  "unset",
  "default",
  "bytes",
  "secret",
  "password",
  "token",
]);

/** True for a type name or flag word that follows a key in code and config. */
export function isTypeWord(value: string): boolean {
  return TYPE_WORDS.has(value.toLowerCase());
}

/**
 * The line-number gutter a file reader puts before each line (Claude Code's
 * `     4→`, Copilot's `4. `, `cat -n`'s `     4\t`).
 */
const GUTTER = /^[ \t]*\d{1,7}(?:→|\t|\. )/;

/** How many characters of `line` a line-number gutter takes (0 when none). */
export function gutterLength(line: string): number {
  return GUTTER.exec(line)?.[0].length ?? 0;
}

/** A home-relative path: `~`, `~/x`, `~user/x` (not `~x!9…`, a password). */
const HOME_PATH = /^~(?:[\w.-]*\/|$)/;

/** True for a value that starts like a path: `/x`, `~/x`, `./x`, `C:\x`. */
export function isPathLike(value: string): boolean {
  const c = value[0];
  if (c === "/") return true;
  if (c === "~") return HOME_PATH.test(value);
  if (c === "." && (value[1] === "/" || value.startsWith("../"))) return true;
  return /^[A-Za-z]:[\\/]/.test(value);
}

/**
 * True for a value that is a path, not base64 that happens to start with
 * `/` (`/GUKBtzpegSqW93FOoGREIVZkMtBW…=`, one base64 secret in 64): a
 * path's pieces are names, a key's are a long random run.
 */
export function isPathValue(value: string): boolean {
  if (!isPathLike(value)) return false;
  if (
    value.length < 20 || !/^[A-Za-z0-9+\/]+={0,2}$/.test(value) ||
    charClasses(value) < 3
  ) return true;
  return !value.split("/").some((p) => p.length >= 16 && !isIdentifierLike(p));
}

/** An ordinary word: letters only, maybe hyphen-joined (`prompt`, `case-sensitive`, `Ключ`). */
export function isPlainWord(value: string): boolean {
  return /^\p{L}+(?:[-'’]\p{L}+)*$/u.test(value);
}

/**
 * `text` decoded from base64, its whole groups of four only (a last,
 * partial group is left out), or null when it is not base64.
 *
 * @example
 * ```ts
 * import { base64Decoded } from "./_scan.ts";
 * import { equal } from "node:assert/strict";
 * equal(base64Decoded("dXNlcjpwdw=="), "user:pw");
 * equal(base64Decoded("dXNlcjpwdw"), "user:p");
 * equal(base64Decoded("a!b?c#d$"), null);
 * ```
 */
export function base64Decoded(text: string): string | null {
  try {
    return atob(text.slice(0, text.length - (text.length % 4)));
  } catch {
    return null;
  }
}

/** Shannon entropy in bits per character. */
export function entropy(value: string): number {
  const seen = new Map<number, number>();
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    seen.set(c, (seen.get(c) ?? 0) + 1);
  }
  let bits = 0;
  for (const k of seen.values()) {
    const p = k / value.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/** How many of lower case, upper case and digits a value holds (0–3). */
export function charClasses(value: string): number {
  return (/[a-z]/.test(value) ? 1 : 0) + (/[A-Z]/.test(value) ? 1 : 0) +
    (/[0-9]/.test(value) ? 1 : 0);
}

const WORD_PART = /[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+/g;

/**
 * True for a name made of words: `getUserAccountByIdentifier`,
 * `MAX_RETRY_COUNT_V2`, `src/components/UserCard`. Random base64 breaks
 * into many one- and two-letter pieces and fails.
 */
export function isIdentifierLike(value: string): boolean {
  const parts = value.match(WORD_PART);
  if (!parts) return false;
  let letters = 0;
  let pieces = 0;
  let numbers = 0;
  let short = 0;
  for (const p of parts) {
    if (p.charCodeAt(0) <= 57) {
      numbers++;
      continue;
    }
    pieces++;
    letters += p.length;
    if (p.length <= 2) short++;
  }
  if (pieces === 0 || numbers > 2) return false;
  return letters / pieces >= 3.5 && short * 3 <= pieces;
}

const EMAIL = /^[\w.+-]+@[\w-]+(?:\.[\w-]+)+$/;

/** True for an e-mail address (a user name, not a password). */
export function isEmail(value: string): boolean {
  return EMAIL.test(value);
}

/** True for a hex digest, a UUID or a `0x` number. */
export function isHexLike(value: string): boolean {
  return /^(?:0x)?[0-9a-fA-F]+(?:-[0-9a-fA-F]+)*$/.test(value);
}
