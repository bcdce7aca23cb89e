/**
 * Secrets found by a word rather than a separator: netrc passwords
 * (`machine h login u password p`), a password word's value after a
 * blank on a configuration line (`_config_lines.ts`), passwords stated in
 * prose ("the admin password is hunter2!", "u: deploy p: X", "backup
 * codes: …"), and bare `Bearer <token>` and `Basic <base64 of
 * user:password>`. Two literal scans (`pass`, `bearer`) and the cues of
 * `_cues.ts` keep this cheap; a `pass`
 * that belongs to openssl's or keytool's password flag is handed to the
 * command-line rule.
 *
 * @module
 */
import {
  cueSet,
  hasAnyCue,
  hasCue,
  hasWide,
  WRITTEN_PASSWORD_CHARS,
  WRITTEN_PASSWORD_CUES,
} from "./_cues.ts";
import { groovyPasswordAt } from "./_assignments.ts";
import { passFlagAt } from "./_command_line.ts";
import { spacedPasswordAt } from "./_config_lines.ts";
import {
  type Edits,
  inEncryptedData,
  isEmail,
  isIdentifierLike,
  isPathLike,
  isPlaceholder,
  isPlainWord,
  isRedacted,
  isReference,
  isSopsValue,
  NETRC_BEFORE,
  readValue,
  trailingLength,
  withoutSentenceEnd,
} from "./_scan.ts";

const PASS = /pass/gi;
const BEARER = /bearer/gi;
const NETRC_AFTER = /password[ \t]+/iy;
const FOR_WHAT = String.raw`[ \t]+(?:for|of|on|to|at)(?:[ \t]+[^\s:]+){1,4}?`;
const PROSE = new RegExp(
  String
    .raw`pass(?:word|phrase|wd|code)(?:${FOR_WHAT}[ \t]*:[ \t]*(?!(?:is|was)\b)|(?:${FOR_WHAT})?(?:[ \t]*:?[ \t]+(?:(?:is|was|has[ \t]+been)[ \t]+)?(?:(?:now|still|just)[ \t]+)?(?:set|changed|reset|updated|rotated)[ \t]+to[ \t]+|[ \t]*:?[ \t]+(?:is|was)[ \t]*:?[ \t]+(?:(?:now|still|just)[ \t]+)?))`,
  "iy",
);
/** `value` less the `!` and `?` that end it. */
function withoutTrailingMarks(value: string): string {
  return value.slice(0, value.length - trailingLength(value, "!?"));
}

/** A blank, then a lower-case letter: the sentence goes on. */
const GOES_ON = /[ \t]+[a-z]/y;

/**
 * How long the value `raw` at `start` is, less the sentence punctuation
 * after it; its `!` and `?` stay only where the sentence goes on after
 * them in lower case ("to P3pp3r2052? so update …": they belong to it,
 * as no question ends there).
 */
function spokenLength(text: string, start: number, raw: string): number {
  const said = withoutSentenceEnd(raw);
  GOES_ON.lastIndex = start + raw.length;
  if (said === raw && GOES_ON.test(text)) return raw.length;
  return withoutTrailingMarks(said).length;
}
/** A passphrase quoted a few words after the word: "the passphrase you gave ('…')". */
const QUOTED_NEAR =
  /pass(?:word|phrase|wd|code)\b[^'"`\n]{0,40}?(['"`])([^'"`\s]{8,})\1/iy;
const PASS_WORD = /pass(?:word|phrase|wd|code)/iy;
const ENV_NAME = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/;
/** "use <value> as the (admin) password": the value comes first. */
const USE_AS =
  /\buse[ \t]+(\S{6,}?)[ \t]+as[ \t]+(?:(?:the|my|your|our|a|an)[ \t]+)?(?:[\w-]+[ \t]+)?$/i;
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
    end -= trailingLength(text.slice(v.start, end));
  }
  const cut = text.slice(v.start, end);
  const value = v.quoted ? cut : withoutTrailingMarks(cut);
  if (value.length < 4 || isRedacted(value) || isReference(value)) return;
  // The rest of an address: "an app password at https://…".
  if (value.startsWith("//")) return;
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
  if (closesWordString(text, at, m)) return;
  // ssh's own prompt: "Enter passphrase for key '/home/dev/.ssh/id_ed25519':".
  if (isPathLike(value)) return;
  if (!/[0-9]/.test(value) && !/[^\p{L}\p{N}]/u.test(value)) return;
  const end = QUOTED_NEAR.lastIndex - 1;
  // A column list's name (`(email, password) VALUES ('a@b.io', …)`): the
  // INSERT rule maps each value to its column.
  if (/\bvalues\b/i.test(m[0].slice(0, -value.length - 2))) return;
  // A variable's name, not its value: ENV["DB_PASSWORD"], getenv('X_PASS').
  const open = end - value.length - 2;
  const call = text.slice(Math.max(0, open - 40), open + 1);
  if (/[A-Za-z_][\w.]*[[(]$/.test(call) || ENV_NAME.test(value)) return;
  edits.push({ start: end - value.length, end, id: "prose-password" });
}

/**
 * Whether the quote that {@linkcode QUOTED_NEAR} took as opening its value
 * closes the string the password word is in: in `cy.get('#password').type(
 * Cypress.env('x'))` the "value" is the code between two strings.
 */
function closesWordString(
  text: string,
  at: number,
  m: RegExpExecArray,
): boolean {
  const quote = m[1]!;
  const gap = m[0].slice(0, m[0].length - m[2]!.length - 2);
  if (/[\s'"`]/.test(gap.replace(PASS_WORD_START, ""))) return false;
  for (let i = at - 1; i >= Math.max(0, at - 40); i--) {
    const c = text[i]!;
    if (c === quote) return true;
    if (/[\s'"`]/.test(c)) return false;
  }
  return false;
}
/** The password word at a {@linkcode QUOTED_NEAR} match's start. */
const PASS_WORD_START = /^pass(?:word|phrase|wd|code)/i;

/** A password word a SQL statement may set: `PASSWORD '…'`, `PASSWORD = PASSWORD('…')`. */
const SQL_HINT = /password\b[ \t]*=?[ \t]*(?:password\()?['"]/iy;

/**
 * Adds an edit for every netrc password, password stated in prose, Groovy
 * DSL password and password a SQL statement sets.
 */
export function collectPassWords(text: string, edits: Edits): void {
  PASS.lastIndex = 0;
  let sql = false;
  let m: RegExpExecArray | null;
  while ((m = PASS.exec(text)) !== null) {
    const at = m.index;
    SQL_HINT.lastIndex = at;
    sql ||= SQL_HINT.test(text);
    if (groovyPasswordAt(text, at, edits)) continue;
    if (passFlagAt(text, at, edits)) continue;
    if (spacedPasswordAt(text, at, edits)) continue;
    if (at > 0 && WORD_CHAR.test(text[at - 1]!)) continue;
    if (appPasswordAt(text, at, edits)) continue;
    if (passwordBelowAt(text, at, edits)) continue;
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
    if (labelled(text, at, edits)) continue;
    PASS_WORD.lastIndex = at;
    if (!PASS_WORD.test(text)) {
      foreignAt(text, at, edits);
      continue;
    }
    const before = edits.length;
    proseValue(text, at, edits);
    if (edits.length === before) quotedNear(text, at, edits);
    if (edits.length === before) valueBefore(text, at, edits);
  }
  // Upper-case literals are cheap to look for; lower-case `identified by`
  // only in MySQL's `'user'@'host'` form.
  if (
    sql || hasCue(text, "IDENTIFIED") || hasCue(text, "SET PASSWORD") ||
    (hasCue(text, "'@'") && hasCue(text, "identified"))
  ) sqlPasswords(text, edits);
}

/**
 * "Das Passwort … ist X", "le mot de passe … est X" in ASCII text, found at
 * its `pass` (other languages' words are found by the non-ASCII scan).
 */
function foreignAt(text: string, at: number, edits: Edits): void {
  const from = text.slice(at - 7, at).toLowerCase() === "mot de " ? at - 7 : at;
  FOREIGN_AT.lastIndex = from;
  const m = FOREIGN_AT.exec(text);
  if (m) spoken(m, edits);
}

/** Adds the value (group 1) of a spoken-password match when it reads as one. */
function spoken(m: RegExpExecArray, edits: Edits): void {
  spokenAt(m.input, m.index, m[0], m[1]!, edits);
}

/** The same for a match at `index` of `text`, `whole`, whose value is `raw`. */
function spokenAt(
  text: string,
  index: number,
  whole: string,
  raw: string,
  edits: Edits,
) {
  const value = withoutTrailingMarks(withoutSentenceEnd(raw));
  if (!secretWord(value)) return;
  const start = index + whole.lastIndexOf(raw);
  const end = start + spokenLength(text, start, raw);
  edits.push({ start, end, id: "prose-password" });
}

/**
 * What names whose password follows: "sudo password X", "login admin pass
 * X", "the staging password X", "with password X", "office wifi is
 * ACME-5G, password X".
 */
const LABEL_BEFORE =
  /(?:\b(?:wi-?fi|wlan|ssid)\b[^\n.;!?]{0,60}?,[ \t]*|\b(?:login|user(?:name)?|db|database|sudo|root|admin|ssh|vpn|smtp|ftp|mysql|postgres|redis|staging|prod(?:uction)?|dev|test|wi-?fi|email|account|server|app)[ \t]+(?:[\w.@-]+[ \t]+)?|\b(?:with|using)[ \t]+(?:the[ \t]+)?|\bas[ \t]+[\w.@-]+,[ \t]*)$/i;
/** A sentence's first word: only the whole word counts ("PASS src/a.test.ts" is a test runner). */
const SENTENCE_START = /(?:^|[.!?\n][ \t]*)$/;
/** Only blanks since the line began: where a test runner prints `PASS <test name>`. */
const RUNNER_VERDICT = /(?:^|\n)[ \t]*$/;
const LABELLED =
  /pass(?:word|phrase|wd)?(?:[ \t]*:?[ \t]+|[ \t]*:[ \t]*\r?\n[ \t]*)(\S+)/iy;

/**
 * A password right after its word, where a label before says whose, or
 * on the line below a line that starts with the word and a colon (`pass:`
 * then the value; not a test runner's upper-case `PASS:`).
 */
function labelled(text: string, at: number, edits: Edits): boolean {
  LABELLED.lastIndex = at;
  const m = LABELLED.exec(text);
  if (!m || !/[0-9]|[^\p{L}\p{N}\s]/u.test(m[1]!)) return false;
  const before = text.slice(Math.max(0, at - 60), at);
  if (RUNNER_VERDICT.test(before) && /^PASS[ \t]/.test(m[0])) return false;
  const below = m[0].includes("\n") && !text.startsWith("PASS", at) &&
    SENTENCE_START.test(before);
  if (!LABEL_BEFORE.test(before) && !below) {
    const word = text.slice(at, at + 10).toLowerCase();
    const opens = SENTENCE_START.test(before) &&
      (word.startsWith("password") || word.startsWith("passphrase"));
    // With no label before, only a value no word or name reads like.
    if (!opens && !(word.startsWith("pass") && strongPassword(m[1]!))) {
      return false;
    }
  }
  let raw = m[1]!;
  // Below a `password:` line, a `key:` is YAML's nested mapping.
  if (below && raw.endsWith(":")) return false;
  // A stand-in whose closing bracket the sentence marks would cut off:
  // `password: [REDACTED]`, `pass: (hidden).`.
  if (isPlaceholder(raw.slice(0, raw.length - trailingLength(raw, ".,;:")))) {
    return false;
  }
  let start = LABELLED.lastIndex - raw.length;
  // A quoted value (`WITH PASSWORD 'x';`): the quotes stay.
  if (/^['"`]/.test(raw)) {
    raw = raw.slice(1);
    start++;
  }
  const value = withoutTrailingMarks(withoutSentenceEnd(raw));
  if (!secretWord(value) || inEncryptedData(text, start)) return false;
  const end = start + spokenLength(text, start, raw);
  edits.push({ start, end, id: "prose-password" });
  return true;
}

/** "use X as the password": a value with a digit or symbol before the word. */
function valueBefore(text: string, at: number, edits: Edits): void {
  const head = text.slice(Math.max(0, at - 120), at);
  const m = USE_AS.exec(head);
  if (!m) return;
  const value = m[1]!;
  if (!secretWord(value)) return;
  const start = at - head.length + m.index + m[0].indexOf(value, 3);
  edits.push({ start, end: start + value.length, id: "prose-password" });
}

/**
 * A value that reads as a password with no label to say so: 8+
 * characters, a digit, and an upper-case letter or a symbol; no name made
 * of words (`PBKDF2_SHA256_ITERATIONS`), env variable, path or URL.
 */
function strongPassword(raw: string): boolean {
  const value = withoutTrailingMarks(withoutSentenceEnd(raw));
  if (value.length < 8 || !/[0-9]/.test(value)) return false;
  if (!/[A-Z]/.test(value) && !/[^\p{L}\p{N}]/u.test(value)) return false;
  if (ENV_NAME.test(value)) return false;
  // A name made of words joins them with `_`, `.`, `-` or `/`; a symbol no
  // name holds (`Cobalt#5452Wpfu`, `Harbor@2342Xtwu`, not an address) makes
  // it no name.
  if (
    (!PASSWORD_SYMBOL.test(value) || isEmail(value)) &&
    isIdentifierLike(value)
  ) return false;
  return secretWord(value) && !/^['"`]/.test(value);
}

/** A symbol passwords hold and names made of words do not. */
const PASSWORD_SYMBOL = /[#!%^&*+=?~@]/;

/** Code that calls a member: `z.string().min(12)`, `getpass.getpass()`. */
const MEMBER_CALL =
  /^[A-Za-z_$][\w$]*(?:\(\)|\.[A-Za-z_$][\w$]*)*\.[A-Za-z_$][\w$]*\(/;

/**
 * A value said in words that reads as a secret: 6+ characters, a digit or
 * symbol, no member call.
 */
function secretWord(value: string): boolean {
  if (value.length < 6 || isRedacted(value) || isReference(value)) return false;
  if (MEMBER_CALL.test(value) || isSopsValue(value)) return false;
  // A word that closes a bracket (`${DB_PASSWORD:?DB_PASSWORD is required}`).
  if (
    isPlainWord(value.slice(0, value.length - trailingLength(value, ")]}")))
  ) {
    return false;
  }
  if (
    isPlaceholder(value) || isPathLike(value) ||
    /^[a-z][a-z0-9+.-]*:\/\//i.test(value)
  ) return false;
  return /[0-9]/.test(value) || /[^\p{L}\p{N}\-'’]/u.test(value);
}

/**
 * A Google app password said after the words "app password": four blocks
 * of four lower-case letters (the blanks optional), quoted or after `is`
 * or `:`, within 40 characters ("then copy into your" is no password).
 */
const APP_PASSWORD_AFTER =
  /password\b[^\n]{0,40}?(?:["'`]|\b(?:is|was)[ \t]+|:[ \t]*)([a-z]{4} ?[a-z]{4} ?[a-z]{4} ?[a-z]{4})(?![a-z])/iy;

/**
 * The same right after the words, with nothing between ("user alerts@… and
 * app password czvztmszczprnofk"): sixteen letters in one piece only (four
 * words of four would be a sentence), and few vowels, as random letters
 * have and a sixteen-letter word ("responsibilities") has not.
 */
const APP_PASSWORD_BARE = /password[ \t]+([a-z]{16})(?![A-Za-z0-9_-])/y;

/** Adds an edit for an app password said after `app password` at `at`. */
function appPasswordAt(text: string, at: number, edits: Edits): boolean {
  if (!/app[ _-]?$/i.test(text.slice(Math.max(0, at - 4), at))) return false;
  APP_PASSWORD_AFTER.lastIndex = at;
  const m = APP_PASSWORD_AFTER.exec(text);
  if (m && /^[a-z ]+$/.test(m[1]!)) {
    const end = APP_PASSWORD_AFTER.lastIndex;
    edits.push({ start: end - m[1]!.length, end, id: "prose-password" });
    return true;
  }
  APP_PASSWORD_BARE.lastIndex = at;
  const bare = APP_PASSWORD_BARE.exec(text);
  if (!bare || bare[1]!.replace(/[^aeiou]/g, "").length > 5) return false;
  const end = APP_PASSWORD_BARE.lastIndex;
  edits.push({ start: end - 16, end, id: "prose-password" });
  return true;
}

/**
 * `login with admin / secret`, `log into grafana with admin and secret`,
 * `creds are ops:secret`, `test account: qa@corp.com / secret`, `creds for
 * the tenant: qa@corp.com, secret`, `creds: deploy:secret`, `the staging
 * basic-auth is deploy:secret`: the second half.
 */
const LOGIN_PAIR =
  /\b(?:(?:log(?:in|[ \t]+in)|sign[ \t]+in)(?:[ \t]*to[ \t]+[\w.-]+)?[ \t]+(?:with|as|using)[ \t]+[\w.@+-]+(?:[ \t]*\/[ \t]*|[ \t]+and[ \t]+)|(?:creds?|credentials)[ \t]+(?:are|is)[ \t]*:?[ \t]+[\w.@+-]+[ \t]*[:\/][ \t]*|(?:creds?|credentials|account)[ \t]*[:=]?[ \t]+[\w.@+-]+[ \t]*\/[ \t]*|(?:creds?|credentials)(?:[ \t]+for[ \t]+[^\n:]{1,40})?:[ \t]*[\w.@+-]+(?:[ \t]*[\/,][ \t]*|:(?!\/\/))|\bbasic[ -]?auth(?:entication)?\b[^\n:]{0,30}?(?:[ \t]+(?:is|are)|:)[ \t]+[\w.@+-]+:(?!\/\/)|log(?:in|[ \t]+in)[ \t]+as[ \t]+[\w.@+-]+[ \t]+(?:with|using)[ \t]+(?:password[ \t]+)?|login\b[^\n\/]{0,40}?(?:[ \t]is|[ \t]*:)[ \t]+[\w.@+-]+(?:[ \t]*\/[ \t]*|:))(\S+)/gi;
/**
 * "the api key is …", "the secret is …", "my pw is …", "the wifi key is …":
 * a value with a digit or symbol; after the bare word key ("the mistral key
 * is …", group 1), only a value that reads as a random key
 * ({@linkcode randomKey}). Group 2 is the value.
 */
const KEY_IS =
  /\b(?:api[ _-]?key|secret|token|passphrase|pw|pwd|private[ _-]key|(?:wi-?fi|wpa2?|wlan)[ \t]+(?:key|password|passphrase|psk)|(key))[ \t]+(?:is|was)[ \t]*:?[ \t]+(\S{8,})/gi;

/**
 * A value said after the bare word key that reads as one: 32+ hex digits,
 * or 20+ characters of three classes (lower, upper, digits), not a name
 * made of words, a path or a URL.
 */
function randomKey(value: string): boolean {
  if (isRedacted(value) || isPathLike(value) || value.includes("/")) {
    return false;
  }
  if (/^[0-9a-f]{32,}$/i.test(value)) return true;
  return /^[A-Za-z0-9_+=.-]+$/.test(value) && /[a-z]/.test(value) &&
    /[A-Z]/.test(value) && /[0-9]/.test(value) && !isIdentifierLike(value);
}

/**
 * A password a program printed on the line below its announcement (Jenkins'
 * "Please use the following password to proceed to installation:", a
 * generated or initial password): the value alone on that line, or the one
 * after a blank line. Tried where the `pass` scan finds `password`, when a
 * word before says the password is a new one.
 */
const BELOW_AFTER =
  /password\b[^\n]{0,80}?:[ \t]*\r?\n(?:[ \t]*\r?\n)?[ \t]*(\S{8,})[ \t]*(?=\r?\n|$)/iy;
/**
 * The same announcement with the value at the end of its own line, after
 * the account it is for (MySQL's log: "A temporary password is generated
 * for root@localhost: X").
 */
const GENERATED_FOR =
  /password[ \t]+(?:is|was|has[ \t]+been)[ \t]+generated[ \t]+for[ \t]+[^\s:]+:[ \t]*(\S{6,})[ \t]*(?=\r?\n|$)/iy;
const BELOW_BEFORE =
  /\b(?:following|generated|initial|temporary|new|one-time|random)[ \t]+(?:(?:admin(?:istrator)?|root|user|superuser)[ \t]+)?$/i;

/**
 * Adds an edit when the password word at `at` announces a value printed
 * below it.
 *
 * @returns True when it did.
 */
function passwordBelowAt(text: string, at: number, edits: Edits): boolean {
  BELOW_AFTER.lastIndex = at;
  GENERATED_FOR.lastIndex = at;
  const m = BELOW_AFTER.exec(text) ?? GENERATED_FOR.exec(text);
  if (!m || !BELOW_BEFORE.test(text.slice(Math.max(0, at - 40), at))) {
    return false;
  }
  const value = m[1]!;
  if (!secretWord(value)) return false;
  const end = m.index + m[0].length;
  edits.push({ start: end - value.length, end, id: "prose-password" });
  return true;
}

/**
 * A password said in another language, a few words after its word and a
 * copula or colon: "das Passwort für den Server ist X", "la contraseña es
 * X", "le mdp c'est X", "密码是X", "パスワードは X です".
 */
const FOREIGN_PROSE =
  /(?:passwort|kennwort|(?:api-?)?schlüssel|chiave(?:[ \t]+api)?|cl[ée][ \t]+(?:(?:d['’]|de[ \t]+l['’])[ \t]*)?API|cl[ée][ \t]+(?:secr[èe]te|priv[ée]e)|chave|password|token|contrase[ñn]a|clave|senha|mot[ \t]+de[ \t]+passe|\bmdp\b|wachtwoord|parola|has[łl]o|heslo|[şs]ifre|пароль|密码|密碼|口令|令牌|密钥|秘钥|パスワード|トークン|シークレット|(?:API|アクセス)[ \t]?キー|비밀번호|암호|토큰|(?:API|액세스|인증)[ \t]?키)[^\n]{0,40}?(?:[ \t](?:ist|lautet|es|é|è|est|c['’]est|era|is|это|je|jest)(?!\p{L})[ \t]*[:：]?|[:：]|是|为|は|는|은|가|이)[ \t]*([^\s，。、\u3000-\u30ff\u3400-\u9fff\uac00-\ud7af]+)/giu;
/** The same, tried only where a `pass` word starts (sticky). */
const FOREIGN_AT = new RegExp(FOREIGN_PROSE.source, "iuy");

/**
 * A password said in Swedish, Norwegian, Danish or Finnish ("lösenordet är
 * X", "passordet er X", "salasana on X"), or in Russian with a dash for its
 * copula ("пароль от базы — X"), a few words after its word.
 */
const NORDIC_PROSE =
  /(?:l[öo]senord(?:et)?|passord(?:et)?|adgangskode(?:n)?|salasana|пароль)(?:[ \t]+[^\s:：—–]+){0,4}?(?:[ \t]+(?:är|er|on)(?!\p{L})[ \t]*[:：]?|[ \t]*[:：]|[ \t]+[—–])[ \t]*(\S+)/giu;
const NORDIC_GATE =
  /[lL][öo]senord|[pP]assord|[aA]dgangskode|[sS]alasana|[пП]ароль/;

/** Up to four words between a password word and its copula. */
const FEW_WORDS = String.raw`(?:[ \t]+[^\s:：]+){0,4}?`;
/**
 * A password said in Polish ("hasło do bazy to X"), Catalan ("la
 * contrasenya és X"), Romanian ("parola pentru baza de date este X"),
 * Vietnamese ("mật khẩu của máy chủ là X"), Indonesian or Malay ("kata
 * laluan untuk pangkalan data ialah X"), Serbian or Croatian ("lozinka je
 * X"), Lithuanian ("slaptažodis yra X"), Latvian ("parole ir X"), Estonian
 * ("parool on X"), Swahili ("nenosiri ni X") or Icelandic ("lykilorðið er
 * X"): each word with its own copulas, or a colon.
 */
const COPULA_PROSE = new RegExp(
  "(?:" + [
    String.raw`has[łl]o${FEW_WORDS}[ \t]+(?:to|jest)`,
    String.raw`contrasenya${FEW_WORDS}(?:[ \t]+(?:és|es)|[ \t]*:)`,
    String.raw`parola${FEW_WORDS}(?:[ \t]+(?:este|e)|[ \t]*:)`,
    String.raw`m[ậa]t[ \t]+kh[ẩa]u${FEW_WORDS}(?:[ \t]+l[àa]|[ \t]*:)`,
    String
      .raw`kata[ \t]+(?:sandi|laluan)(?:nya|mu)?${FEW_WORDS}(?:[ \t]+(?:adalah|ialah|yaitu|yakni)|[ \t]*:)`,
    String
      .raw`(?:lozink[aeu]|[šs]ifr[aeu])${FEW_WORDS}(?:[ \t]+(?:je|glasi)|[ \t]*:)`,
    String
      .raw`slapta[žz]od(?:is|[įi]|[žz]io)${FEW_WORDS}(?:[ \t]+yra|[ \t]*:|[ \t]+[—–])`,
    String.raw`parole${FEW_WORDS}(?:[ \t]+ir|[ \t]*:)`,
    String.raw`(?:parool|salas[õo]na)${FEW_WORDS}(?:[ \t]+on|[ \t]*:)`,
    String.raw`(?:neno[ \t]?siri|nywila)${FEW_WORDS}(?:[ \t]+ni|[ \t]*:)`,
    String.raw`lykilor[ðd](?:i[ðd])?${FEW_WORDS}(?:[ \t]+er|[ \t]*:)`,
  ].join("|") + String.raw`)(?!\p{L})[ \t]*:?[ \t]*(\S+)`,
  "giu",
);
/**
 * The same with no copula, the value right after the word: Turkish
 * ("Sunucunun şifresi X"), Indonesian ("kata sandinya X"), Russian ("вот
 * пасс от админки X", "пароль от админки X", "мой (новый) пароль X",
 * "токен для деплоя X").
 */
const BARE_PROSE =
  /(?<!\p{L})(?:[şŞsS]ifre(?:si|niz|n|m)?|[pP]arolas[ıi]|kata[ \t]+sandi(?:nya|mu)?|(?:пароль|пасс|токен|ключ)[ \t]+(?:от|для|к|на)[ \t]+[^\s:：—–]+|(?:[мМ]о[йя]|[нН]аш|[тТ]вой|[вВ]аш)(?:[ \t]+(?:новый|старый|временный|текущий))?[ \t]+пароль)[ \t]+(\S+)/gu;
/** "ang password ng server ay X": Tagalog says the English word, then ay. */
const TAGALOG_PROSE = new RegExp(
  String.raw`password${FEW_WORDS}[ \t]+ay(?!\p{L})[ \t]*:?[ \t]*(\S+)`,
  "giu",
);

/**
 * Up to four words between a password word and a value before its copula,
 * each starting with a letter of the word's own script (a Latin word may be
 * the value).
 */
const FEW_SCRIPT_WORDS = String.raw`(?:[ \t]+[^\s:：!-~][^\s:：]*){0,4}?`;
/** A password word of a script other than Latin, for the rules below. */
const SCRIPT_WORD = [
  // Greek: κωδικός only as "κωδικός πρόσβασης" when words come between.
  String
    .raw`κωδικ(?:[οό]ς|[οό]|ο[υύ])[ \t]+πρ[οό]σβασης|συνθηματικ[οό]`,
  String.raw`ה?סיסמ[האת]`,
  String.raw`كلمة[ \t]+(?:ال)?(?:مرور|سر)|الرقم[ \t]+السري`,
  String.raw`رمز[ \t]+(?:عبور|ورود)|گذرواژه|[کك]لمه[ \t]+عبور|پسورد`,
  String.raw`پاس[ \t]?ورڈ`,
  String.raw`पासवर्ड|कूटशब्द`,
  String.raw`পাসও(?:য়|য়)ার্ড(?:টি|টা)?`,
  String.raw`парола(?:та)?|лозинк[аеу]`,
  String.raw`கடவுச்ச(?:ொ|ொ)ல்|பாஸ்வேர்ட்`,
].join("|");
/**
 * A password said in Greek ("ο κωδικός πρόσβασης είναι X"), Hebrew
 * ("הסיסמה לשרת היא X"), Arabic ("كلمة المرور هي X"), Hindi ("पासवर्ड है:
 * X"), Bengali ("পাসওয়ার্ড হল X"), Thai ("รหัสผ่านคือ X"), Bulgarian
 * ("паролата е X"), Serbian ("лозинка је X"), or with a colon in those and
 * Persian, Urdu and Tamil: the value in Latin letters after its copula.
 */
const SCRIPT_PROSE = new RegExp(
  "(?:" + [
    String
      .raw`κωδικ(?:[οό]ς|[οό]|ο[υύ])(?:[ \t]+(?:ε[ιί]ναι|[ηή]ταν)|[ \t]*:)`,
    String
      .raw`(?:${SCRIPT_WORD})${FEW_WORDS}(?:[ \t]+(?:ε[ιί]ναι|[ηή]ταν|היא|הוא|זה|זו|هي|هو|है|था|হল|হলো|হচ্ছে|е|беше|је)|[ \t]*:)`,
    String.raw`รหัสผ่าน[\u0e00-\u0e7f]{0,30}?[ \t]*(?:คือ|เป็น|:)`,
  ].join("|") + String.raw`)(?![^\s!-~])[ \t]*:?[ \t]*([!-~]+)`,
  "giu",
);
/**
 * The same said the other way, the value before its copula: Persian
 * ("رمز عبور سرور X است"), Urdu ("پاس ورڈ X ہے"), Hindi ("सर्वर का पासवर्ड
 * X है").
 */
const SCRIPT_BEFORE = new RegExp(
  String
    .raw`(?:${SCRIPT_WORD})${FEW_SCRIPT_WORDS}[ \t]+([!-~]+)[ \t]+(?:است|هست|ہے|تھا|है|था)(?![^\s!-~])`,
  "gu",
);
/** The value right after the word ("கடவுச்சொல் X"), only when it reads as a strong password. */
const SCRIPT_BARE = new RegExp(
  String.raw`(?:${SCRIPT_WORD}|รหัสผ่าน)[ \t]*([!-~]+)`,
  "gu",
);
/** Where a password word of {@linkcode SCRIPT_WORD} or Thai may start. */
const SCRIPT_GATE =
  /ωδικ|ΩΔΙΚ|υνθηματικ|סיסמ|كلمة|الرقم|رمز|گذرواژه|لمه|پسورد|پاس ?ورڈ|पासवर्ड|कूटशब्द|পাসও|รหัสผ่าน|арол|озинк|கடவுச்|பாஸ்வேர்ட்/;

/** "set `DB_PASSWORD` to `…`" (or auf, a, à, на …): a quoted credential name, then its quoted value. */
const SET_TO =
  /[`'"][\w.-]*(?:pass(?:word|wd|phrase)?|secret|token|api[_-]?key)\w*[`'"][ \t]+(?:to|as|auf|a|en|à|na|на|=)[ \t]+[`'"]([^`'"\s]{6,})[`'"]/giu;

/** A character of a password word outside ASCII (or of the copula é). */
const FOREIGN_CHARS = /[пПкК密口令钥秘パトシキ비암토키şŞıİñłéèüẩšõ]/;
/** Password words of other languages written in ASCII alone (or starting so). */
const FOREIGN_ASCII =
  /wachtwoord|kennwort|clave|chave|senha|heslo|haslo|sifr|parol|parool|kata (?:sandi|laluan)|mdp[ :]|lozink|slapta|neno ?siri|nywila|lykilor/i;
const LOGIN_GATE = /log ?in|sign in|cred|account|basic.?auth/i;

/** "ssh in as root, pw X": the short word, then the value. */
const PW_VALUE = /(?:^|[\s,;(])pw[ \t]*[:=]?[ \t]+(\S+)/gi;
/**
 * "use PGPASSWORD X", "DB_PASSWORD is X", "set MYSQL_ROOT_PASSWORD to X": a
 * credential variable's name, then its value.
 */
const NAME_VALUE =
  /\b[A-Z][A-Z0-9_]*?(?:PASSWORD|PASSWD|TOKEN|SECRET|API_?KEY)[ \t]+(?:(?:is|=|to|as)[ \t]+)?([^\s'"`]+)/g;
const NAME_GATE = /PASSWORD|PASSWD|TOKEN|SECRET|API_?KEY/;
/** "reset db pw to X", "set the webhook secret to X", "reset the admin login to X". */
const SET_WORD_TO =
  /\b(?:set|reset|change|changed|update|rotate|rotated)[ \t]+(?:[\w.-]+[ \t]+){0,3}?(?:pw|pwd|pass(?:word|wd|phrase)?|secret|token|api[ _-]?key|login)[ \t]+to[ \t]+(\S+)/gi;

/**
 * A password said in English with the value a few words on: "the root pw
 * …, it's now X" (what it was changed to), "when it prompts for a
 * passphrase just type X" (what to type), "the temp password they gave me
 * is X" (words between the word and is).
 */
const EN_PROSE = new RegExp(
  String
    .raw`\b(?:pass(?:word|phrase|wd|code)|pwd?)\b(?:[^\n.;!?]{0,40}?\b(?:it['’]?s|it[ \t]+is|is)[ \t]+now|[^\n.;]{0,30}?\b(?:type|enter|paste)(?:[ \t]+in)?|(?:[ \t]+[A-Za-z'’]+){1,4}?[ \t]+(?:is|was))[ \t]+([^\s\`]\S*)`,
  "gi",
);
/**
 * Whether `text` may hold a password word of another language: one of its
 * characters outside ASCII, or a word written in ASCII alone.
 */
function foreignWords(text: string, nonAscii: boolean): boolean {
  return (nonAscii && FOREIGN_CHARS.test(text)) || FOREIGN_ASCII.test(text);
}

/**
 * A value said after a password word with no copula between
 * ({@linkcode SCRIPT_BARE}): a strong password, or 8+ characters, a digit
 * and a symbol no name or path holds (`Zephyr@tundra261`; not `` `passwd2` ``
 * in code quotes).
 */
function bareSecret(value: string): boolean {
  const symbol = value.length >= 8 && /[0-9]/.test(value) &&
    /[^\p{L}\p{N}_.\/-]/u.test(value) && !/^['"`]/.test(value);
  return symbol || strongPassword(value);
}

/**
 * A value said before its copula ({@linkcode SCRIPT_BEFORE}): one with a
 * digit, and no file's name (`config.yaml`, where the password is kept).
 */
function numberedValue(value: string): boolean {
  return /[0-9]/.test(value) && !/\.[A-Za-z]{1,5}$/.test(value);
}

/** Adds an edit for every match of `re` whose value `reads` and reads as a secret. */
function spokenWhere(
  re: RegExp,
  text: string,
  edits: Edits,
  reads: (value: string) => boolean,
): void {
  re.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    if (reads(withoutTrailingMarks(withoutSentenceEnd(m[1]!)))) {
      spoken(m, edits);
    }
  }
}

/**
 * A German password right after its word, no copula between: after a user
 * ("Benutzer admin, Kennwort X", group 1) any value {@linkcode pairSecret}
 * reads as one; with none, only 8+ characters with a digit and a symbol
 * (group 2; "Passwort 2FA-Code eingeben" is an instruction).
 */
const GERMAN_BARE =
  /(?<!\p{L})(?:((?:Benutzer(?:name)?|Nutzer|User(?:name)?|Login|Konto)[ \t]*:?[ \t]+[^\s,;]+[ \t]*[,;]?[ \t]*(?:und[ \t]+)?(?:das[ \t]+)?)?)[kKpP](?:ennwort|asswort)[ \t]*:?[ \t]+(\S+)/gu;

/** Adds an edit for each {@linkcode GERMAN_BARE} value that reads as a password. */
function germanBare(text: string, edits: Edits): void {
  GERMAN_BARE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = GERMAN_BARE.exec(text)) !== null) {
    const raw = m[2]!;
    const value = withoutTrailingMarks(withoutSentenceEnd(raw));
    const reads = m[1] === undefined
      ? value.length >= 8 && /[0-9]/.test(value) &&
        /[^\p{L}\p{N}_.\/-]/u.test(value)
      : pairSecret(raw);
    if (reads) spokenAt(text, m.index, m[0], raw, edits);
  }
}

/**
 * "The password should be X": a modal before be, whose value
 * {@linkcode bareSecret} must read as a password ("should be at least 12
 * characters" is a rule for one).
 */
const MODAL_BE =
  /\bpass(?:word|phrase)\b(?:[ \t]+[A-Za-z'’]+){0,3}?[ \t]+(?:should|will|would|must|might|could)[ \t]+(?:still[ \t]+)?be[ \t]+(\S+)/gi;

/**
 * A markdown list's bold label, then the value: `- **Password:** X`,
 * `**API Key**: X` (a quoted value is another rule's).
 */
const BOLD_LABEL =
  /^[ \t]*(?:[-*+][ \t]+|\d{1,3}[.)][ \t]+)?(?:\*\*|__)[^*_\n]{0,30}?\b(?:pass(?:word|phrase|wd)?|pwd?|secret|token|(?:api|secret|private|access)[ _-]?key)(?:[ \t]*:[ \t]*(?:\*\*|__)|(?:\*\*|__)[ \t]*:)[ \t]*(?![`'"])(\S+)/gim;

/**
 * An account said as a user and a password, each bare or in code quotes:
 * "the seeded admin account is `admin@acme.io` / `X`".
 */
const ACCOUNT_PAIR =
  /\b(?:account|login|creds?|credentials)\b[^\n`\/]{0,40}?(?:[ \t]+(?:is|are)|:)[ \t]+(`?)[\w.@+-]+\1[ \t]*\/[ \t]*(`?)([^\s`]+)\2/gi;

/** Adds an edit for each {@linkcode ACCOUNT_PAIR} value that reads as a password. */
function accountPairs(text: string, edits: Edits): void {
  ACCOUNT_PAIR.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = ACCOUNT_PAIR.exec(text)) !== null) {
    const raw = m[3]!;
    if (pairSecret(raw)) spokenAt(text, m.index, m[0], raw, edits);
  }
}

/**
 * Each group of rules with a cheap test the text must pass first; on texts
 * without them (nearly all) the rules cost a scan or two. Passwort and mot
 * de passe are found by the `pass` scan instead.
 */
const SPOKEN: ReadonlyArray<
  readonly [
    (text: string, nonAscii: boolean) => boolean,
    ReadonlyArray<RegExp>,
  ]
> = [
  [foreignWords, [FOREIGN_PROSE, COPULA_PROSE, BARE_PROSE]],

  [() => true, [SET_TO]],
  [(t) => NORDIC_GATE.test(t), [NORDIC_PROSE]],
  [(t) => NAME_GATE.test(t), [NAME_VALUE]],
  [(t) => hasCue(t, " to "), [SET_WORD_TO]],
];

/**
 * Adds an edit for passwords said in a login pair, set to a named variable
 * in quotes, or said in another language, and for a TOTP key said in
 * words (a wallet's seed phrase is read with the private keys).
 */
export function collectSpokenPasswords(text: string, edits: Edits): void {
  const nonAscii = hasWide(text);
  // A login pair's second half is no number or date (`2024-05-02`).
  if (LOGIN_GATE.test(text)) {
    spokenWhere(LOGIN_PAIR, text, edits, (v) => !NUMBER_LIKE.test(v));
  }
  for (const [gate, rules] of SPOKEN) {
    if (gate(text, nonAscii)) {
      for (const re of rules) spokenAll(re, text, edits);
    }
  }
  if (nonAscii) otherScripts(text, edits);
  // The short word pw opens both its own rule and the English phrasings.
  const pw = hasCue(text, "pw");
  if (pw || hasCue(text, "PW")) spokenAll(PW_VALUE, text, edits);
  const pass = hasCue(text, "pass") || hasCue(text, "Pass");
  if (pw || pass) {
    spokenAll(EN_PROSE, text, edits);
    spokenAll(TAGALOG_PROSE, text, edits);
  }
  if (pass) spokenWhere(MODAL_BE, text, edits, bareSecret);
  if (hasCue(text, "ennwort") || hasCue(text, "asswort")) {
    germanBare(text, edits);
  }
  if (hasCue(text, ":**") || hasCue(text, "**:")) {
    pairsWhere(BOLD_LABEL, text, edits);
  }
  if (hasCue(text, " / ") && LOGIN_GATE.test(text)) accountPairs(text, edits);
  const is = hasCue(text, " is ") || hasCue(text, " was ");
  if (is) keyIs(text, edits);
  const setupKey = hasCue(text, "etup key");
  if (is || setupKey) totpKeys(text, edits, setupKey ? IS_OR_COLON : IS);
  shorthandPairs(text, edits, pw || pass);
}

/** Passwords said in a sentence of a script other than Latin (non-ASCII text only). */
function otherScripts(text: string, edits: Edits): void {
  if (!SCRIPT_GATE.test(text)) return;
  spokenAll(SCRIPT_PROSE, text, edits);
  spokenWhere(SCRIPT_BEFORE, text, edits, numberedValue);
  spokenWhere(SCRIPT_BARE, text, edits, bareSecret);
}

/** {@linkcode WRITTEN_PASSWORD_CUES} and `ennwort`, asked together. */
const WRITTEN_SET = cueSet([...WRITTEN_PASSWORD_CUES, "ennwort"]);
/** {@linkcode WRITTEN_PASSWORD_CHARS}, asked of non-ASCII text only. */
const WRITTEN_WIDE_SET = cueSet(WRITTEN_PASSWORD_CHARS);
/**
 * A copula of another language in a {@linkcode FOREIGN_PROSE} match (`la
 * password del database è X`): said after the English word password or
 * token with `is` or a colon, a value in output is another rule's.
 */
const FOREIGN_COPULA =
  /[ \t](?:ist|lautet|es|é|è|est|c['’]est|era|это|je|jest)(?!\p{L})|[是为は는은가이]/u;
const ENGLISH_WORD = /^(?:password|token)/i;
/** "log in with admin / X", "sign in as root / X": a user, a slash, the password. */
const LOGIN_WITH =
  /\b(?:log(?:in|[ \t]+in)|sign[ \t]+in)(?:[ \t]*to[ \t]+[\w.-]+)?[ \t]+(?:with|as|using)[ \t]+[\w.@+-]+[ \t]*\/[ \t]*(\S+)/gi;

/**
 * Adds an edit for each password written in a sentence of another language
 * or after a login pair in tool output and commands: a notes file or
 * README an agent read, a commit message. The English phrasings the `pass`
 * scan finds are read in every text already.
 */
export function collectWrittenPasswords(text: string, edits: Edits): void {
  const wide = hasWide(text);
  if (
    hasAnyCue(text, WRITTEN_SET) || (wide && hasAnyCue(text, WRITTEN_WIDE_SET))
  ) {
    FOREIGN_PROSE.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = FOREIGN_PROSE.exec(text)) !== null) {
      if (!ENGLISH_WORD.test(m[0]) || FOREIGN_COPULA.test(m[0])) {
        spoken(m, edits);
      }
    }
    spokenAll(COPULA_PROSE, text, edits);
    spokenAll(BARE_PROSE, text, edits);
    if (NORDIC_GATE.test(text)) spokenAll(NORDIC_PROSE, text, edits);
    if (wide) otherScripts(text, edits);
  }
  if (hasCue(text, " / ") && LOGIN_GATE.test(text)) {
    pairsWhere(LOGIN_WITH, text, edits);
  }
}

/**
 * "wifi: Acme-Guest / X": a wireless network's name, a slash, its key.
 */
const WIFI_PAIR =
  /\b(?:wi-?fi|wlan|ssid)\b[ \t]*[:=]?[ \t]+[\w.@+-]+[ \t]+\/[ \t]+(\S+)/gi;
const WIFI_GATE = /wi-?fi|wlan|ssid/i;
/**
 * "(admin / X)": a login pair in brackets, right after the address it is
 * for or with a user name one uses (admin, root, an email address).
 */
const BRACKET_PAIR = /\(([\w.@+-]+)[ \t]+\/[ \t]+([^\s()\/]+)\)/g;
const USUAL_USER =
  /^(?:admin(?:istrator)?|root|user(?:name)?|deploy(?:er)?|ubuntu|ec2-user|postgres|guest|test(?:user)?|demo|ops|dev|pi|[\w.+-]+@[\w-]+(?:\.[\w-]+)+)$/i;
const URL_BEFORE = /(?:https?:\/\/|www\.)\S+[ \t]*$/;
/** "ssh in as root:X", "log in as admin:X": a user, a colon, the password. */
const AS_PAIR =
  /\b(?:ssh|log(?:ged|ging)?|sign(?:ed|ing)?|connect(?:ed)?)(?:[ \t]*in)?(?:[ \t]*(?:to|into)[ \t]+[\w.@-]+)?[ \t]+as[ \t]+[\w.@+-]+:([^\s:\/]\S*)/gi;
/** "u: deploy p: X": a user after u:, then the password after p:. */
const UP_PAIR =
  /(?:^|[\s(,;])(?:u|user(?:name)?|usr|login)[ \t]*[:=][ \t]*[A-Za-z][\w.@+-]*(?:[ \t]*[,;\/|][ \t]*|[ \t]+|[ \t]*\r?\n[ \t]*)p:[ \t]*(\S+)/gi;
/** "grafana password -> X", "db pass → X". */
const ARROW =
  /\b(?:pass(?:word|phrase|wd)?|pwd?)\b[ \t]*(?:-{1,2}>|→)[ \t]*(\S+)/gi;
/** "it's the same password as the router, X". */
const SAME_AS =
  /\bsame[ \t]+(?:pass(?:word|phrase|wd)?|pwd?)[ \t]+as[ \t]+[^\n,;:.!?]{1,40}[,:][ \t]*(\S+)/gi;
/** 'try logging in with "X"': a quoted value to log in with. */
const LOGIN_QUOTED =
  /\b(?:log(?:ging|ged)?[ \t]*in|sign(?:ing|ed)?[ \t]*in)(?:[ \t]+(?:to|into)[ \t]+[\w.-]+)?[ \t]+with[ \t]+(["'`])([^"'`\s]{8,})\1/gi;
/** A number, a date, a version: `101325.0`, `2.5e-4`, `2024-05-02`, `802.11ax`, `v2.0.0-rc1`. */
const NUMBER_LIKE =
  /^(?:[-+]?[\d.,]+(?:e[-+]?\d+)?|\d{4}-\d\d-\d\d\S*|v?\d+(?:\.\d+)+(?:[-+.]?\w+)*|[\d.]+[a-z]{0,3})$/i;
/** A lower-case snake_case name: `app_user_2`, `user_1234`. */
const SNAKE_NAME = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/;
/**
 * Code: a name, then a bracket that opens a call, a generic or an index
 * (`hashPassword(pw)`, `Option<String>`), a lower-case snake_case name, or
 * a name made of words with no digit (`hashed_password`).
 */
function codeLike(value: string): boolean {
  return /^[\w$.:]+[<([{]/.test(value) || SNAKE_NAME.test(value) ||
    (/^[A-Za-z_$][\w$.]*$/.test(value) && !/[0-9]/.test(value) &&
      isIdentifierLike(value));
}

/** A value of {@linkcode secretWord} that is no number, version or code. */
function pairSecret(raw: string): boolean {
  // A stand-in the sentence's mark would cut short: `[hidden]`, `<pw>.`.
  if (isPlaceholder(raw.slice(0, raw.length - trailingLength(raw, ".,;:")))) {
    return false;
  }
  const value = withoutTrailingMarks(withoutSentenceEnd(raw));
  return secretWord(value) && !NUMBER_LIKE.test(value) && !codeLike(value) &&
    !ENV_NAME.test(value);
}

/** Adds an edit for each match of `re` whose value (group 1) reads as {@linkcode pairSecret}. */
function pairsWhere(re: RegExp, text: string, edits: Edits): void {
  re.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    if (pairSecret(m[1]!)) spoken(m, edits);
  }
}

/**
 * Adds an edit for each password said in shorthand: a wifi name and key,
 * a login pair in brackets, `as user:X`, `u: … p: X`, `password -> X`,
 * "the same password as …, X", 'logging in with "X"'. `pass` says the
 * text holds a password word.
 */
function shorthandPairs(text: string, edits: Edits, pass: boolean): void {
  if (hasCue(text, " / ")) {
    if (WIFI_GATE.test(text)) pairsWhere(WIFI_PAIR, text, edits);
    bracketPairs(text, edits);
  }
  const as = hasCue(text, " as ");
  if (as) pairsWhere(AS_PAIR, text, edits);
  if (hasCue(text, " p:") || hasCue(text, "\np:")) {
    pairsWhere(UP_PAIR, text, edits);
  }
  if (pass) {
    if (hasCue(text, "->") || hasCue(text, "→")) arrowValues(text, edits);
    if (as) pairsWhere(SAME_AS, text, edits);
  }
  if (hasCue(text, "in with")) loginQuoted(text, edits);
}

/**
 * Adds an edit for each {@linkcode ARROW} value with an upper-case letter
 * or a symbol as well (`argon2id` is the hash it goes to).
 */
function arrowValues(text: string, edits: Edits): void {
  ARROW.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = ARROW.exec(text)) !== null) {
    const raw = m[1]!;
    const value = withoutTrailingMarks(withoutSentenceEnd(raw));
    if (pairSecret(raw) && /[A-Z]|[^\p{L}\p{N}]/u.test(value)) {
      spoken(m, edits);
    }
  }
}

/** Adds an edit for each {@linkcode BRACKET_PAIR} after an address or with a usual user. */
function bracketPairs(text: string, edits: Edits): void {
  BRACKET_PAIR.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = BRACKET_PAIR.exec(text)) !== null) {
    const value = m[2]!;
    if (value.length < 8 || !pairSecret(value) || !/[0-9]/.test(value)) {
      continue;
    }
    if (!/[A-Z]|[^\p{L}\p{N}]/u.test(value)) continue;
    const before = text.slice(Math.max(0, m.index - 200), m.index);
    if (!USUAL_USER.test(m[1]!) && !URL_BEFORE.test(before)) continue;
    const start = m.index + m[0].length - 1 - value.length;
    edits.push({ start, end: start + value.length, id: "prose-password" });
  }
}

/**
 * Adds an edit for each {@linkcode LOGIN_QUOTED} value with a digit and an
 * upper-case letter or a symbol, that is no email address, path or name.
 */
function loginQuoted(text: string, edits: Edits): void {
  LOGIN_QUOTED.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = LOGIN_QUOTED.exec(text)) !== null) {
    const value = m[2]!;
    if (!/[0-9]/.test(value) || !/[A-Z]|[^\p{L}\p{N}]/u.test(value)) continue;
    if (/@[\w-]+\./.test(value) || !secretWord(value) || codeLike(value)) {
      continue;
    }
    const start = m.index + m[0].length - 1 - value.length;
    edits.push({ start, end: start + value.length, id: "prose-password" });
  }
}

/**
 * Two-factor backup or recovery codes after their words and a colon or
 * are: each code two blocks of four digits (Google's, tried first), or
 * 8+ characters (a `-` counted) holding a digit, to the first that is
 * none.
 */
const CODES_HEAD =
  /\b(?:backup|recovery)[ \t]+codes?\b(?:[ \t]+(?:for|of|on|to)\b[^\n:]{1,40}?)?(?:[ \t]+(?:are|is)[ \t]*:?|[ \t]*:)[ \t]*(?:\r?\n[ \t]*(?:[-*•][ \t]+)?)?/gi;
const ONE_CODE =
  /(\d{4}[ ]\d{4}|[A-Za-z0-9]{4,12}(?:-[A-Za-z0-9]{4,12})?)(?![\w-])[ \t]*,?[ \t]*(?:\r?\n[ \t]*(?:[-*•][ \t]+)?)?/y;

/**
 * Adds an edit for each code of a list of backup or recovery codes, said
 * or printed (a saved `github-recovery-codes.txt` read back).
 */
export function collectRecoveryCodes(text: string, edits: Edits): void {
  if (!hasCue(text, "ecovery code") && !hasCue(text, "ackup code")) return;
  CODES_HEAD.lastIndex = 0;
  while (CODES_HEAD.exec(text) !== null) {
    let at = CODES_HEAD.lastIndex;
    for (;;) {
      ONE_CODE.lastIndex = at;
      const c = ONE_CODE.exec(text);
      if (!c) break;
      const code = c[1]!;
      if (!/[0-9]/.test(code) || (code.length < 8 && !code.includes("-"))) {
        break;
      }
      edits.push({ start: at, end: at + code.length, id: "prose-password" });
      at = ONE_CODE.lastIndex;
    }
    CODES_HEAD.lastIndex = Math.max(CODES_HEAD.lastIndex, at);
  }
}

/**
 * A TOTP setup key as authenticator apps show it, said after is or a
 * colon: four to eight groups of four base32 characters ("… is l6pa s2kk
 * yvyx 7u5n …", "enter this setup key manually: RPKY 4CBK …"), or 16 to 64
 * of them in one piece ("… is KXOY2SJQOGT5TK3Z").
 */
const GROUPED_KEY =
  /(?:is|:)[ \t]+((?:[a-z2-7]{4}[ \t]){3,7}[a-z2-7]{4}|[a-z2-7]{16,64})(?![A-Za-z0-9])/iy;
/**
 * A word for two-factor sign-in, then a key or secret: "the 2fa setup key
 * for …"; or an authenticator's "setup key" alone.
 */
const TWO_FACTOR_BEFORE =
  /\b(?:(?:2fa|mfa|t?otp|authenticator)\b[^\n]{0,60}?\b(?:key|secret|seed)|setup[ \t]+key)\b[^\n]{0,40}?$/i;

/** Where a TOTP key may be said: after " is ". */
const IS = / is /g;
/** And, where the words "setup key" stand, after a colon and a blank too. */
const IS_OR_COLON = / is |: /g;

/**
 * Adds an edit for every TOTP key said in words: a {@linkcode GROUPED_KEY}
 * after a {@linkcode TWO_FACTOR_BEFORE}, found from each match of
 * `anchors` ({@linkcode IS} or {@linkcode IS_OR_COLON}).
 */
function totpKeys(text: string, edits: Edits, anchors: RegExp): void {
  anchors.lastIndex = 0;
  let anchor: RegExpExecArray | null;
  while ((anchor = anchors.exec(text)) !== null) {
    const at = anchor.index;
    GROUPED_KEY.lastIndex = text[at] === ":" ? at : at + 1;
    const m = GROUPED_KEY.exec(text);
    if (!m) continue;
    const value = m[1]!;
    // Base32 of random bytes: a digit, a letter, and one case throughout.
    if (!/[2-7]/.test(value) || !/[a-z]/i.test(value)) continue;
    if (value !== value.toLowerCase() && value !== value.toUpperCase()) {
      continue;
    }
    if (!TWO_FACTOR_BEFORE.test(text.slice(Math.max(0, at - 120), at))) {
      continue;
    }
    const end = GROUPED_KEY.lastIndex;
    edits.push({ start: end - value.length, end, id: "prose-password" });
  }
}

/** Adds an edit for every match of `re` whose value reads as a secret. */
function spokenAll(re: RegExp, text: string, edits: Edits): void {
  re.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) spoken(m, edits);
}

/** A Stripe publishable key (`pk_live_…`, `pk_test_…`), or a Razorpay key id. */
const PUBLISHABLE = /^(?:pk|rzp)_(?:live|test)_/;

/** A wireless network named: "the wifi at the office is X and the key is …". */
const WIFI_BEFORE = /\b(?:wi-?fi|wlan|ssid)\b/i;

/**
 * Whether the key said at `at` is a wireless network's: the sentence (up
 * to 80 characters before) names one, and the value holds a lower-case
 * letter (`WPA2-PSK` is the security type).
 */
function wifiKey(text: string, at: number, value: string): boolean {
  if (!/[a-z]/.test(value)) return false;
  const head = text.slice(Math.max(0, at - 80), at);
  return WIFI_BEFORE.test(head.slice(head.search(/[^.!?\n]*$/)));
}

/**
 * Adds an edit for every value said after a key word and is/was
 * ({@linkcode KEY_IS}); after the bare word key, any secret-like value when
 * the sentence names a wireless network.
 */
function keyIs(text: string, edits: Edits): void {
  KEY_IS.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = KEY_IS.exec(text)) !== null) {
    const raw = m[2]!;
    // A Stripe publishable key ships in web pages: public by design.
    if (PUBLISHABLE.test(raw)) continue;
    if (m[1] === undefined || wifiKey(text, m.index, raw)) {
      spokenAt(text, m.index, m[0], raw, edits);
      continue;
    }
    const value = withoutSentenceEnd(raw);
    if (!randomKey(value)) continue;
    const start = m.index + m[0].length - raw.length;
    edits.push({ start, end: start + value.length, id: "prose-password" });
  }
}

/** `Basic`, then base64 (the credentials of HTTP basic auth). */
const BASIC_WORD =
  /Basic[ \t]+([A-Za-z0-9+\/]{8,}={0,2})(?![A-Za-z0-9+\/=_-])/y;

/**
 * Adds an edit for each `Basic <base64>` outside an Authorization header
 * ("the header value is Basic c3Zj…") whose base64 decodes to printable
 * `user:password`.
 */
function basicWords(text: string, edits: Edits): void {
  for (
    let at = text.indexOf("Basic ");
    at >= 0;
    at = text.indexOf("Basic ", at + 6)
  ) {
    if (at > 0 && WORD_CHAR.test(text[at - 1]!)) continue;
    BASIC_WORD.lastIndex = at;
    const m = BASIC_WORD.exec(text);
    if (!m) continue;
    const value = m[1]!;
    let decoded: string;
    try {
      decoded = atob(value);
    } catch {
      continue;
    }
    if (!/^[^\s:]*:[!-~][ -~]*$/.test(decoded)) continue;
    const end = BASIC_WORD.lastIndex;
    edits.push({ start: end - value.length, end, id: "bearer" });
  }
}

/** Adds an edit for every bare `Bearer <token>` or `Basic <user:password>` outside an Authorization header. */
export function collectBearerWords(text: string, edits: Edits): void {
  if (hasCue(text, "Basic ")) basicWords(text, edits);
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

/**
 * Where a password hash may start: `$2b$`, `$apr1$`, `$6$`, `$y$`,
 * `$argon2id$`, Django's `pbkdf2_sha256$`, Werkzeug's `pbkdf2:sha256:…$`
 * and `scrypt:…$`.
 */
const CRYPT_START = /\$(?:2[aby]|apr1|[156]|y|argon2(?:id|i|d))\$/g;
/** The same for the hashes named before their first `$` (Django, Werkzeug). */
const NAMED_START =
  /\b(?:pbkdf2_sha(?:1|256)|pbkdf2:sha\d+(?::\d+)?|scrypt:\d+:\d+:\d+)\$/g;
/**
 * bcrypt, Apache MD5, sha256/512-crypt, md5-crypt, yescrypt and argon2
 * hashes, and Django's and Werkzeug's PBKDF2 and scrypt hashes.
 */
const CRYPT = new RegExp(
  [
    String.raw`\$2[aby]\$\d\d\$[.\/A-Za-z0-9]{53}`,
    String.raw`\$apr1\$[.\/A-Za-z0-9]{1,8}\$[.\/A-Za-z0-9]{22}`,
    String
      .raw`\$[156]\$(?:rounds=\d+\$)?[.\/A-Za-z0-9]{1,16}\$[.\/A-Za-z0-9]{22,86}`,
    String.raw`\$y\$[.\/A-Za-z0-9]+\$[.\/A-Za-z0-9]+\$[.\/A-Za-z0-9]{43}`,
    String
      .raw`\$argon2(?:id|i|d)\$(?:v=\d+\$)?m=\d+,t=\d+,p=\d+\$[A-Za-z0-9+\/]{8,}\$[A-Za-z0-9+\/]{16,}`,
    String
      .raw`pbkdf2_sha(?:1|256)\$\d+\$[A-Za-z0-9.\/+]{4,}\$[A-Za-z0-9+\/]{20,}={0,2}`,
    String
      .raw`(?:pbkdf2:sha\d+(?::\d+)?|scrypt:\d+:\d+:\d+)\$[A-Za-z0-9.\/+]{4,}\$[0-9a-f]{32,}`,
  ].join("|"),
  "y",
);
/** A .pgpass line (host:port:database:user:password), also echoed in quotes. */
const PGPASS =
  /(?:^|["'\s])([A-Za-z*][^:\s"'#]*):(?:\d{1,5}|\*):[^:\s"']+:[^:\s"']+:([^\s"']{4,})/gm;

/** Bytes in hex joined by colons: a fingerprint's tail (`BB:33:E8:…`). */
const HEX_BYTES = /^[0-9A-Fa-f]{2}(?::[0-9A-Fa-f]{2})+$/;

/** Adds an edit for each whole hash that starts where `start` finds a head. */
function cryptHashes(text: string, start: RegExp, edits: Edits): void {
  start.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = start.exec(text)) !== null) {
    CRYPT.lastIndex = m.index;
    const hash = CRYPT.exec(text);
    if (!hash) continue;
    edits.push({
      start: m.index,
      end: m.index + hash[0].length,
      id: "password-hash",
    });
    start.lastIndex = m.index + hash[0].length;
  }
}

/**
 * A password a SQL statement sets: `CREATE USER … IDENTIFIED BY '…'`,
 * `ALTER ROLE … WITH PASSWORD '…'`, `CREATE LOGIN … WITH PASSWORD = '…'`,
 * `SET PASSWORD FOR … = '…'`, Oracle's bare `IDENTIFIED BY tiger`. Group 2
 * is a quoted value, group 3 a bare one.
 */
const SQL_PASSWORD =
  /(?:\b(?:(?:CREATE|ALTER)[ \t]+(?:USER|ROLE|LOGIN)|GRANT)\b[^;\n]{0,200}?(?:\bIDENTIFIED(?:[ \t]+WITH[ \t]+['"]?\w+['"]?)?[ \t]+BY(?:[ \t]+PASSWORD)?|\bPASSWORD\b[ \t]*=?)|\bSET[ \t]+PASSWORD\b[^;\n=]{0,200}=[ \t]*(?:PASSWORD\()?)[ \t]*(?:(['"])([^'"\n]{3,}?)\1|(?<=BY[ \t]+)([^\s;'"()]{3,}))/gi;

/** Adds an edit for every password a SQL statement sets (in any kind of text). */
function sqlPasswords(text: string, edits: Edits): void {
  SQL_PASSWORD.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = SQL_PASSWORD.exec(text)) !== null) {
    const value = m[2] ?? m[3]!;
    if (isRedacted(value) || isReference(value) || isPlaceholder(value)) {
      continue;
    }
    // `IDENTIFIED BY PASSWORD '*6BB…'` is the hash, and a bare word after
    // BY may be a keyword or a variable: only a value with a digit or symbol.
    if (m[3] !== undefined && !/[0-9]|[^\w]/.test(value)) continue;
    const end = m.index + m[0].length - (m[2] === undefined ? 0 : 1);
    edits.push({ start: end - value.length, end, id: "credential" });
  }
}

/**
 * Adds an edit for every password hash (htpasswd, /etc/shadow, argon2,
 * Django: crackable offline), every .pgpass password and every password a
 * SQL statement sets.
 */
export function collectPasswordLines(text: string, edits: Edits): void {
  if (hasCue(text, "expect") && hasCue(text, "send")) {
    expectReplies(text, edits);
  }
  if (hasCue(text, "$")) {
    cryptHashes(text, CRYPT_START, edits);
    if (hasCue(text, "pbkdf2") || hasCue(text, "scrypt:")) {
      cryptHashes(text, NAMED_START, edits);
    }
  }
  if (!hasCue(text, ":*:") && !/:\d{1,5}:/.test(text)) return;
  PGPASS.lastIndex = 0;
  let p: RegExpExecArray | null;
  while ((p = PGPASS.exec(text)) !== null) {
    const value = p[2]!;
    if (isRedacted(value) || isReference(value) || isPlaceholder(value)) {
      continue;
    }
    // A certificate's fingerprint (`SHA256 Fingerprint=F8:81:06:A1:BB:…`)
    // is colon-joined hex bytes, not a .pgpass line.
    if (HEX_BYTES.test(value)) continue;
    const end = p.index + p[0].length;
    edits.push({ start: end - value.length, end, id: "credential" });
  }
}

/**
 * An expect script's answer to a password prompt: `expect "password:"`,
 * then (on the next line, in its braces, or after `;` as `expect -c`
 * writes it on one line) `send "X\\r"`.
 */
const EXPECT_SEND =
  /\bexpect\b[^\n]{0,80}?(?:assword|assphrase|ASSWORD)[^\n]{0,40}?(?:\r?\n[ \t]*|[{;][ \t]*)send[ \t]+(?:--[ \t]+)?"([^"\n]+?)(?:\\r|\\n)?"/dg;
/**
 * A pattern and its action on a line of an `expect { … }` block:
 * `"*assword*" { send "X\\r" }` (also `-re "…"`, `-re {…}`).
 */
const EXPECT_PAIR =
  /^[ \t]*(?:-(?:re|ex|gl)[ \t]+)?(?:"[^"\n]*(?:assword|assphrase|ASSWORD)[^"\n]*"|\{[^{}\n]*(?:assword|assphrase|ASSWORD)[^{}\n]*\})[ \t]*\{[ \t]*send[ \t]+(?:--[ \t]+)?"([^"\n]+?)(?:\\r|\\n)?"/dgm;

/** Adds an edit for the password an expect script sends at a password prompt. */
function expectReplies(text: string, edits: Edits): void {
  for (const re of [EXPECT_SEND, EXPECT_PAIR]) {
    re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = re.exec(text)) !== null) {
      const value = m[1]!;
      if (isRedacted(value) || isReference(value) || isPlaceholder(value)) {
        continue;
      }
      const [start, end] = m.indices![1]!;
      edits.push({ start, end, id: "credential" });
    }
  }
}
