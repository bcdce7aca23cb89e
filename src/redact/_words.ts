/**
 * Secrets found by a word rather than a separator: netrc passwords
 * (`machine h login u password p`), passwords stated in prose ("the admin
 * password is hunter2!"), and bare `Bearer <token>`. Two literal scans
 * (`pass`, `bearer`) keep this cheap; a `pass` that belongs to openssl's or
 * keytool's password flag is handed to the command-line rule.
 *
 * @module
 */
import { passFlagAt } from "./_command_line.ts";
import {
  type Edits,
  isIdentifierLike,
  isPlaceholder,
  isRedacted,
  isReference,
  readValue,
  SENTENCE_END,
} from "./_scan.ts";

const PASS = /pass/gi;
const BEARER = /bearer/gi;
const NETRC_BEFORE =
  /(?:^|\s)(?:machine[ \t\r\n]+\S+|default)(?:[ \t\r\n]+(?:login|account|port)[ \t\r\n]+\S+)+[ \t\r\n]+$/;
const NETRC_AFTER = /password[ \t]+/iy;
const PROSE =
  /pass(?:word|phrase|wd|code)(?:[ \t]+(?:for|of|on|to)[ \t]+(?:the[ \t]+)?[^\s:]+)?[ \t]*:?[ \t]+(?:is|was|set[ \t]+to|changed[ \t]+to)[ \t]*:?[ \t]+(?:now[ \t]+|still[ \t]+|just[ \t]+)?/iy;
const TRAILING_MARKS = /[!?]+$/;
/** A passphrase quoted a few words after the word: "the passphrase you gave ('…')". */
const QUOTED_NEAR =
  /pass(?:word|phrase|wd|code)\b[^'"`\n]{0,40}?(['"`])([^'"`\s]{8,})\1/iy;
const PASS_WORD = /pass(?:word|phrase|wd|code)/iy;
const BEARER_TOKEN = /[ \t]+([A-Za-z0-9._~+\/=-]{16,})/y;
const WORD_CHAR = /[A-Za-z0-9_-]/;

function proseValue(text: string, at: number, edits: Edits): void {
  PROSE.lastIndex = at;
  const m = PROSE.exec(text);
  if (!m) return;
  const from = at + m[0].length;
  const v = readValue(text, from);
  if (!v) return;
  let end = v.end;
  if (!v.quoted) {
    // A bare value runs to the first space, less sentence punctuation.
    end = from;
    while (end < text.length && !/\s/.test(text[end]!)) end++;
    const trail = SENTENCE_END.exec(text.slice(v.start, end));
    if (trail) end -= trail[0].length;
  }
  const cut = text.slice(v.start, end);
  const value = v.quoted ? cut : cut.replace(TRAILING_MARKS, "");
  if (value.length < 4 || isRedacted(value) || isReference(value)) return;
  if (isPlaceholder(value)) return;
  const digitOrSymbol = /[0-9]/.test(value) ||
    /[^\p{L}\p{N}\-\/'’]/u.test(value);
  const quotedWord = v.quoted && value.length >= 6 && !/\s/.test(value);
  if (digitOrSymbol || quotedWord) {
    edits.push({ start: v.start, end, id: "prose-password" });
  }
}

/** A quoted value a few words after a password word, holding a digit or symbol. */
function quotedNear(text: string, at: number, edits: Edits): void {
  QUOTED_NEAR.lastIndex = at;
  const m = QUOTED_NEAR.exec(text);
  if (!m) return;
  const value = m[2]!;
  if (isRedacted(value) || isReference(value) || isPlaceholder(value)) return;
  if (!/[0-9]/.test(value) && !/[^\p{L}\p{N}]/u.test(value)) return;
  const end = QUOTED_NEAR.lastIndex - 1;
  edits.push({ start: end - value.length, end, id: "prose-password" });
}

/** Adds an edit for every netrc password and password stated in prose. */
export function collectPassWords(text: string, edits: Edits): void {
  PASS.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = PASS.exec(text)) !== null) {
    const at = m.index;
    if (passFlagAt(text, at, edits)) continue;
    if (at > 0 && WORD_CHAR.test(text[at - 1]!)) continue;
    PASS_WORD.lastIndex = at;
    if (!PASS_WORD.test(text)) continue;
    NETRC_AFTER.lastIndex = at;
    if (
      NETRC_AFTER.test(text) &&
      NETRC_BEFORE.test(text.slice(Math.max(0, at - 300), at))
    ) {
      const v = readValue(text, NETRC_AFTER.lastIndex);
      const value = v ? text.slice(v.start, v.end) : "";
      if (v && !isRedacted(value) && !isReference(value)) {
        edits.push({ start: v.start, end: v.end, id: "netrc" });
      }
      continue;
    }
    const before = edits.length;
    proseValue(text, at, edits);
    if (edits.length === before) quotedNear(text, at, edits);
  }
}

/** Adds an edit for every bare `Bearer <token>` outside an Authorization header. */
export function collectBearerWords(text: string, edits: Edits): void {
  BEARER.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = BEARER.exec(text)) !== null) {
    const at = m.index;
    if (at > 0 && WORD_CHAR.test(text[at - 1]!)) continue;
    BEARER_TOKEN.lastIndex = at + 6;
    const t = BEARER_TOKEN.exec(text);
    if (!t) continue;
    const value = t[1]!;
    // "bearer of bad news", "bearer parseLine": a token has digits and is
    // no name made of words.
    if (!/[0-9]/.test(value) || isIdentifierLike(value)) continue;
    if (isRedacted(value) || isReference(value)) continue;
    const end = BEARER_TOKEN.lastIndex;
    edits.push({ start: end - value.length, end, id: "bearer" });
  }
}

/** Where a password hash may start: `$2b$`, `$apr1$`, `$6$`, `$y$`, … */
const CRYPT_START = /\$(?:2[aby]|apr1|[156]|y)\$/g;
/** bcrypt, Apache MD5, sha256/512-crypt, md5-crypt and yescrypt hashes. */
const CRYPT =
  /\$(?:2[aby]\$\d\d\$[.\/A-Za-z0-9]{53}|apr1\$[.\/A-Za-z0-9]{1,8}\$[.\/A-Za-z0-9]{22}|[156]\$(?:rounds=\d+\$)?[.\/A-Za-z0-9]{1,16}\$[.\/A-Za-z0-9]{22,86}|y\$[.\/A-Za-z0-9]+\$[.\/A-Za-z0-9]+\$[.\/A-Za-z0-9]{43})/y;
/** A .pgpass line (host:port:database:user:password), also echoed in quotes. */
const PGPASS =
  /(?:^|["'\s])([A-Za-z*][^:\s"'#]*):(?:\d{1,5}|\*):[^:\s"']+:[^:\s"']+:([^\s"']{4,})/gm;

/**
 * Adds an edit for every password hash (htpasswd, /etc/shadow: crackable
 * offline) and every .pgpass password.
 */
export function collectPasswordLines(text: string, edits: Edits): void {
  if (text.includes("$")) {
    CRYPT_START.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = CRYPT_START.exec(text)) !== null) {
      CRYPT.lastIndex = m.index;
      const hash = CRYPT.exec(text);
      if (!hash) continue;
      edits.push({
        start: m.index,
        end: m.index + hash[0].length,
        id: "password-hash",
      });
      CRYPT_START.lastIndex = m.index + hash[0].length;
    }
  }
  if (!text.includes(":*:") && !/:\d{1,5}:/.test(text)) return;
  PGPASS.lastIndex = 0;
  let p: RegExpExecArray | null;
  while ((p = PGPASS.exec(text)) !== null) {
    const value = p[2]!;
    if (isRedacted(value) || isReference(value) || isPlaceholder(value)) {
      continue;
    }
    const end = p.index + p[0].length;
    edits.push({ start: end - value.length, end, id: "credential" });
  }
}
