/**
 * Secrets in configuration that sets a value with blanks, not `=` or `:`:
 * a key and its value alone on a line (msmtprc's `password X`, ldap.conf's
 * `BINDPW X`, a tab-separated `DB_PASSWORD<TAB>X`, `pulumi config
 * --show-secrets`' `dbPassword   X`, haproxy's `user NAME insecure-password
 * X`), a directive that sets a variable (Dockerfile's legacy `ENV NAME X`,
 * Apache's `SetEnv NAME X`), a Java XML properties entry, pgbouncer's
 * userlist.txt (`"user" "X"`), postfix's sasl_passwd (`[host]:port user:X`)
 * and Bundler's `bundle config` listing.
 *
 * @module
 */
import { CONFIG_LINE_CUES, cueSet, hasAnyCue, hasCue } from "./_cues.ts";
import {
  credentialName,
  credentialValueOk,
  keyLikeValue,
  randomLetters,
  USER_PASS,
} from "./_assignments.ts";
import {
  type Edits,
  isPlaceholder,
  isPlainWord,
  isRedacted,
  isReference,
  lineStartWithin,
  NETRC_BEFORE,
} from "./_scan.ts";

/**
 * A password word that ends a key, then blanks: tried where the `pass`
 * scan of `_words.ts` finds the word (sticky at it), and for LDAP's
 * `bindpw`/`rootpw` where a cue says one is there.
 */
const SPACED_WORD = /pass(?:word|wd|phrase)?[ \t]+/iy;
/** LDAP's bind and root password keys (ldap.conf's `BINDPW`, slapd's `rootpw`). */
const LDAP_PW = /(?:bind|root)pw(?=[ \t])/gi;
/**
 * What stands before the word on its line: a reader's line number,
 * indentation, a diff's `+`/`-`, haproxy's `user NAME`, then the key's
 * head (group 1), no blank in it.
 */
const SPACED_HEAD =
  /^(?:[ \t]*\d{1,7}(?:→|\t|\. ))?[ \t]*[-+]?[ \t]*(?:user[ \t]+[^\s"']+[ \t]+)?([A-Za-z][\w.-]*)?$/;
/** The value after the blanks: one word, quoted or not, alone to the line's end. */
const SPACED_VALUE = /(["']?)([^\s"']+)\1[ \t]*(?:\r?\n|$)/y;
/** Words that are a command or a verdict when alone (`passwd alice`, `PASS src/a.test.ts`). */
const BARE_COMMAND = /^(?:pass|passwd|pw|pwd)$/i;
/** A Google app password in one piece: sixteen lower-case letters. */
const APP_PASSWORD_RUN = /^[a-z]{16}$/;

/**
 * Whether a value a blank separates from its key is a secret: a Google app
 * password (sixteen letters with few vowels, as random letters have and a
 * sixteen-letter word has not), or a value with a digit or symbol, or
 * random letters, that is no word, number, path, reference, hash or code.
 */
function spacedValueOk(value: string, quoted: boolean): boolean {
  if (
    APP_PASSWORD_RUN.test(value) && value.replace(/[^aeiou]/g, "").length <= 5
  ) return true;
  // A crypt hash (`$6$…`) is the password-hash rule's.
  if (value.startsWith("$") || isPlainWord(value)) return false;
  if (/^[A-Za-z]+$/.test(value) && !randomLetters(value)) return false;
  return credentialValueOk(value, quoted, false);
}

/**
 * Adds an edit when the key word at `at` (matched up to `end`, its blanks
 * included) ends a `key value` line's key and the value alone follows:
 * msmtprc's `password X`, `DB_PASSWORD<TAB>X`, haproxy's `user NAME
 * insecure-password X`, ldap.conf's `BINDPW X`.
 */
function spacedValueAt(
  text: string,
  at: number,
  end: number,
  edits: Edits,
): boolean {
  const lineStart = lineStartWithin(text, at, 80);
  if (lineStart < 0) return false;
  const head = SPACED_HEAD.exec(text.slice(lineStart, at));
  if (!head) return false;
  const key = (head[1] ?? "") + text.slice(at, end).trimEnd();
  if (BARE_COMMAND.test(key)) return false;
  if (!credentialName(key) && !/^(?:bind|root)pw$/i.test(key)) return false;
  // A netrc entry's password is the netrc rule's.
  if (NETRC_BEFORE.test(text.slice(Math.max(0, at - 300), at))) return false;
  SPACED_VALUE.lastIndex = end;
  const v = SPACED_VALUE.exec(text);
  if (!v) return false;
  const value = v[2]!;
  if (isRedacted(value) || !spacedValueOk(value, v[1] !== "")) return false;
  const start = end + v[1]!.length;
  edits.push({ start, end: start + value.length, id: "credential" });
  return true;
}

/**
 * Adds an edit for the value of a `key value` line whose key ends in the
 * password word at `at` (where the `pass` scan of `_words.ts` stopped).
 *
 * @returns True when it did.
 */
export function spacedPasswordAt(
  text: string,
  at: number,
  edits: Edits,
): boolean {
  SPACED_WORD.lastIndex = at;
  if (!SPACED_WORD.test(text)) return false;
  return spacedValueAt(text, at, SPACED_WORD.lastIndex, edits);
}

/** Adds an edit for the value of each LDAP `bindpw`/`rootpw` line. */
function ldapPasswords(text: string, edits: Edits): void {
  LDAP_PW.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = LDAP_PW.exec(text)) !== null) {
    let end = LDAP_PW.lastIndex;
    while (text[end] === " " || text[end] === "\t") end++;
    spacedValueAt(text, m.index, end, edits);
  }
}

/**
 * A directive that sets a variable with a blank: Dockerfile's legacy `ENV
 * NAME value` (the value is the rest of the line), Apache's `SetEnv NAME
 * value`. Group 1 is the name, 2 the rest of the line.
 */
const SET_DIRECTIVE =
  /^(?:[ \t]*\d{1,7}(?:→|\t|\. ))?[ \t]*[-+]?[ \t]*(?:ENV|SetEnv)[ \t]+([A-Za-z_][\w.-]*)[ \t]+([^\n]+)/gm;

/** Adds an edit for the value of each directive that sets a credential-named variable. */
function setDirectives(text: string, edits: Edits): void {
  SET_DIRECTIVE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = SET_DIRECTIVE.exec(text)) !== null) {
    const name = m[1]!;
    let value = m[2]!.trimEnd();
    let start = m.index + m[0].length - m[2]!.length;
    const quoted = /^(["']).+\1$/.test(value);
    if (quoted) {
      value = value.slice(1, -1);
      start++;
    }
    const ok = credentialName(name)
      ? !isPlainWord(value) &&
        credentialValueOk(value, quoted, true, name, true)
      : /^[A-Z][A-Z0-9_]*_KEY$/.test(name) &&
        !/PUBLIC|[GP]PG_KEY$/.test(name) &&
        keyLikeValue(value);
    if (ok) edits.push({ start, end: start + value.length, id: "credential" });
  }
}

/** A Java XML properties entry: `<entry key="db.password">X</entry>`. */
const XML_ENTRY =
  /<entry[ \t]+key="([^"\n]{1,100})"[ \t]*>([^<\n]{3,256})<\/entry>/g;

/** Adds an edit for the text of each properties entry whose key names a credential. */
function xmlEntries(text: string, edits: Edits): void {
  XML_ENTRY.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = XML_ENTRY.exec(text)) !== null) {
    const value = m[2]!;
    if (!credentialName(m[1]!) || !credentialValueOk(value, true, false)) {
      continue;
    }
    const start = m.index + m[0].length - "</entry>".length - value.length;
    edits.push({ start, end: start + value.length, id: "credential" });
  }
}

/**
 * A line of pgbouncer's userlist.txt, a diff's `+`/`-` before it or not:
 * `"user" "password"`. Group 1 is the password.
 */
const USERLIST_LINE =
  /^(?:[ \t]*\d{1,7}(?:→|\t|\. ))?[-+ ]?"[^"\s]+"[ \t]+"([^"\n]+)"[ \t]*\r?$/gm;
/** A stored verifier (SCRAM or md5), the password-hash rules' to judge. */
const VERIFIER = /^(?:SCRAM-SHA-256\$|md5[0-9a-f]{32}$)/;

/** Adds an edit for each plain password of a pgbouncer userlist. */
function userlistLines(text: string, edits: Edits): void {
  USERLIST_LINE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = USERLIST_LINE.exec(text)) !== null) {
    const value = m[1]!;
    // A number is a setting (`"appid" "730"` of a Valve KeyValues file).
    if (VERIFIER.test(value) || isPlainWord(value) || /^\d+$/.test(value)) {
      continue;
    }
    if (!credentialValueOk(value, true, false)) continue;
    const start = m.index + m[0].lastIndexOf(`"${value}"`) + 1;
    edits.push({ start, end: start + value.length, id: "credential" });
  }
}

/**
 * A line of postfix's sasl_passwd: `[smtp.host]:587 user:password` (the
 * host in brackets and a mail port after it; without them only where the
 * text names the file).
 * Group 1 is the password.
 */
const SASL_LINE =
  /^[ \t]*\[[\w-]+(?:\.[\w-]+)+\]:\d{2,4}[ \t]+[^\s:]+:([^\s:]{4,})[ \t]*\r?$/gm;
/** The same with the host bare (`smtp.host:587 user:password`). */
const SASL_LINE_BARE =
  /^[ \t]*[\w-]+(?:\.[\w-]+)+(?::\d{1,5})?[ \t]+[^\s:]+:([^\s:]{4,})[ \t]*\r?$/gm;

/** Adds an edit for the password of each postfix sasl_passwd line. */
function saslLines(text: string, line: RegExp, edits: Edits): void {
  line.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = line.exec(text)) !== null) {
    const value = m[1]!;
    if (isRedacted(value) || isReference(value) || isPlaceholder(value)) {
      continue;
    }
    if (!spacedValueOk(value, false)) continue;
    const start = m.index + m[0].lastIndexOf(value);
    edits.push({ start, end: start + value.length, id: "credential" });
  }
}

/**
 * `bundle config`'s listing of a gem host's credentials: the host's key
 * (`BUNDLE_GEMS__CONTRIBSYS__COM`, `gems.contribsys.com`) on its own line,
 * then a `Set for … ("path"): "user:pass"` line for each place it is set.
 */
const BUNDLE_LISTING =
  /^(?!(?:BUNDLE_)?(?:BUILD|LOCAL|MIRROR|build|local|mirror)(?:__|\.))(?:BUNDLE_)?[A-Za-z0-9-]+(?:__|\.)[\w.-]+[ \t]*\r?\n((?:Set (?:for|via) [^\n]{1,200}\r?\n?){1,4})/gm;
/** One place's value in the listing: `: "value"` at its line's end. */
const LISTED_VALUE = /: "([^"\n]+)"[ \t]*\r?$/gm;

/** Adds an edit for each credential `bundle config` lists for a gem host. */
function bundleListing(text: string, edits: Edits): void {
  BUNDLE_LISTING.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = BUNDLE_LISTING.exec(text)) !== null) {
    const from = m.index + m[0].length - m[1]!.length;
    LISTED_VALUE.lastIndex = 0;
    let v: RegExpExecArray | null;
    while ((v = LISTED_VALUE.exec(m[1]!)) !== null) {
      const value = v[1]!;
      if (!USER_PASS.test(value) && !keyLikeValue(value)) continue;
      const start = from + v.index + v[0].lastIndexOf(value);
      edits.push({ start, end: start + value.length, id: "credential" });
    }
  }
}

/** The cues of every form above: a text with none of them is passed over. */
const CONFIG_LINE_SET = cueSet(CONFIG_LINE_CUES);

/** Adds an edit for every secret a blank-separated configuration line sets. */
export function collectConfigLines(text: string, edits: Edits): void {
  if (!hasAnyCue(text, CONFIG_LINE_SET)) return;
  if (
    hasCue(text, "BINDPW") || hasCue(text, "bindpw") ||
    hasCue(text, "ROOTPW") || hasCue(text, "rootpw")
  ) ldapPasswords(text, edits);
  if (hasCue(text, "ENV ") || hasCue(text, "SetEnv ")) {
    setDirectives(text, edits);
  }
  if (hasCue(text, "<entry ")) xmlEntries(text, edits);
  if (hasCue(text, "userlist") || hasCue(text, "pgbouncer")) {
    userlistLines(text, edits);
  }
  if (hasCue(text, "]:587") || hasCue(text, "]:465") || hasCue(text, "]:25")) {
    saslLines(text, SASL_LINE, edits);
  }
  if (hasCue(text, "sasl_passwd")) saslLines(text, SASL_LINE_BARE, edits);
  if (hasCue(text, "Set for ") || hasCue(text, "Set via ")) {
    bundleListing(text, edits);
  }
}
