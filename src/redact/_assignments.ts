/**
 * Values assigned to keys: a `:` or `=` that a credential word precedes
 * (checked by lookbehind, so the scan stops only there), then the key decides
 * the rule: Authorization → bearer, Cookie → cookie, AWS secret names →
 * aws-secret, any other credential word → credential.
 *
 * @module
 */
import {
  type Cue,
  cueSet,
  hasAnyCue,
  hasCue,
  QUALIFIED_CUES as QUALIFIER_CUES,
} from "./_cues.ts";
import { looksRandomToken } from "./_tokens.ts";
import {
  continuedRun,
  type Edits,
  gutterLength,
  inEncryptedData,
  isHexLike,
  isIdentifierLike,
  isPathValue,
  isPlaceholder,
  isPlainWord,
  isRedacted,
  isReference,
  isSopsValue,
  isTypeWord,
  lineStartWithin,
  readValue,
  type ValueSpan,
  withoutSentenceEnd,
} from "./_scan.ts";

// Credential words in other languages and scripts.
const OTHER_WORDS = [
  "passwort",
  "kennwort",
  "contrase[ñn]a",
  "senha",
  "mot[ _]de[ _]passe",
  "wachtwoord",
  "l[öo]senord",
  "salasana",
  "parola",
  "has[łl]o",
  "heslo",
  "jelsz[óo]",
  "[şs]ifre",
  "m[ậa]t[ _]kh[ẩa]u",
  "пароль",
  "токен",
  "секрет",
  "κωδικός",
  "סיסמה",
  "كلمة المرور",
  "पासवर्ड",
  "密码",
  "密碼",
  "口令",
  "令牌",
  "密钥",
  "パスワード",
  "暗証番号",
  "비밀번호",
];
// A key that ends in one of these holds a credential.
const CREDENTIAL_WORDS = [
  "password",
  "passwd",
  "passphrase",
  "passcode",
  "pass",
  "pwd",
  "secret",
  "token",
  "api[ _-]?key",
  "access[ _-]?key(?:[ _-]?id)?",
  "secret[ _-]?key",
  "secret[_-]?key[_-]?base",
  "private[_-]?key",
  "private[_-]?key[_-]?id",
  "signing[_-]?key",
  "encryption[_-]?key",
  "master[_-]?key",
  "(?:app|application|admin|service|licen[cs]e)[_-]?key",
  // Strapi's APP_KEYS: a list of keys on one env line.
  "app[_-]?keys",
  // A TOTP seed (AWS_MFA_SEED, TOTP_SEED).
  "(?:mfa|otp|2fa)[_-]?seed",
  // Honeycomb's API key header.
  "x-honeycomb-team",
  "[_-]pat",
  "tf_token_[a-z0-9_]+",
  "auth[_-]?key",
  // sssd's ldap_default_authtok, the bind password.
  "authtok",
  "subscription[_-]?key",
  "credentials?",
  "auth",
  "(?<![a-z])pw",
  // A JWT signing key (`JWT_KEY`, .NET's `Jwt__Key`), a password hash's
  // pepper (`PEPPER`, `PASSWORD_PEPPER`).
  "jwt[_-]{0,2}key",
  "pepper",
  "mnemonic",
  "(?:seed|recovery)[_-]?phrase",
  // A Wi-Fi pre-shared key (wpa_supplicant's psk="…", hostapd's wpa_psk=).
  "(?<![a-z])psk",
  ...OTHER_WORDS,
];
// The scan's lookbehind uses fewer, broader stems (`key` for every *_key)
// so it stays short; the handler then checks the exact key.
const SCAN_STEMS = [
  "pass(?:word|wd|phrase|code)?",
  "pwd",
  "pw",
  "secret",
  "token",
  "key",
  "key[_-]?base",
  "key[_-]?id",
  "app[_-]?keys",
  "(?:mfa|otp|2fa)[_-]?seed",
  "honeycomb-team",
  "secret[ _-]?id",
  "pat",
  "mnemonic",
  "phrase",
  "tf_token_[a-z0-9_]+",
  "auth",
  "authtok",
  "credentials?",
  "authorization",
  "cookie",
  "psk",
  "pepper",
  "licen[cs]e",
  ...OTHER_WORDS,
];
/**
 * What a credential's name may end in after its credential word: the
 * environment, region, version or role it is for (`DB_PASSWORD_PROD`,
 * `SECRET_KEY_DEV`, `AUTH_TOKEN_EU`, `apiKeyV2`, `PASSWORD_DB`,
 * `PASS_ADMIN`), or the form it is kept in (`smtpPasswordRaw`,
 * `userPasswordClear`). Only these: `PASSWORD_MIN_LENGTH`, `TOKEN_TTL` and
 * `SECRET_KEY_FILE` name no secret.
 */
const QUALIFIER =
  "(?:prod|production|prd|staging|stage|stg|dev|develop|development|local|test|testing|qa|uat|sandbox|live|preview|demo|ci|preprod|nonprod|beta|eu|us|uk|apac|emea|v\\d{1,3}|\\d{1,3}|old|new|next|prev|previous|current|primary|secondary|backup|alt|legacy|tmp|temp|db|database|admin|root|user|app|api|smtp|mail|email|redis|mysql|postgres|pg|mongo|ldap|ftp|sftp|ssh|vpn|wifi|service|svc|master|replica|readonly|plaintext|cleartext|plain|clear|raw)";
/** One to three qualifiers, each after `_`, `-` or (camelCase) nothing. */
const QUALIFIERS = `(?:[_-]?${QUALIFIER}){1,3}`;
/** What may stand between a key and its `:` or `=`: quotes, blanks, `||`, `??`. */
const BEFORE_SEPARATOR = `(?:\\\\?["'\\]]){0,2}[ \\t]*(?:\\|\\||\\?\\?)?`;
// `||=` and `??=` (Ruby's ENV['X'] ||= '…', JS) assign as `=` does.
const ASSIGNMENT = new RegExp(
  `(?<=(?:${SCAN_STEMS.join("|")})${BEFORE_SEPARATOR})[:=：＝]`,
  "gi",
);
/**
 * A credential word with a qualifier after it, then the name's quotes or
 * blanks and its `:` or `=` (`DB_PASSWORD_PROD=`, `"AUTH_TOKEN_EU":`,
 * `apiKeyV2 =`), tried where a cue of {@linkcode QUALIFIED_CUE_LIST}
 * stands (sticky at it): {@linkcode ASSIGNMENT}'s look back tried the
 * qualifiers at every separator, twice its cost.
 */
const QUALIFIED_KEY = new RegExp(
  `(?:pass(?:word|wd|phrase)?|pwd|secret|token|key)(?:${QUALIFIERS})${BEFORE_SEPARATOR}[:=]`,
  "iy",
);
/**
 * A credential word joined to a qualifier, as written in env names, keys
 * and camelCase (`PASSWORD_`, `secret-`, `Token`): each name
 * {@linkcode QUALIFIED_KEY} reads starts with one of these.
 */
const QUALIFIED_CUE_LIST: readonly Cue[] = [...QUALIFIER_CUES, "Secret"];
/** The same, asked together: a text with none of them is passed over. */
const QUALIFIED_CUES = cueSet(QUALIFIED_CUE_LIST);
/** A credential word with more after it: a name that may be qualified. */
const QUALIFIED_STEM = /(?:pass|pwd|secret|token|key)[\w-]/i;
/** A name's qualifier suffix, to drop before the name is judged. */
const QUALIFIED_END = new RegExp(`${QUALIFIERS}$`, "i");

/**
 * `name` less a qualifier suffix that follows a credential word
 * (`DB_PASSWORD_PROD` → `DB_PASSWORD`, `apiKeyV2` → `apiKey`); `name` as
 * it is otherwise. A suffix joined with no `_` or `-` must start a
 * camelCase word or a number (`passwordProd`, `token2`; not `passwordless`).
 */
function withoutQualifier(name: string): string {
  if (!QUALIFIED_STEM.test(name) || CREDENTIAL_END.test(name)) return name;
  const q = QUALIFIED_END.exec(name);
  if (!q || q.index === 0) return name;
  const head = name.slice(0, q.index);
  const first = q[0][0]!;
  const joined = first === "_" || first === "-" || /[0-9]/.test(first) ||
    (/[A-Z]/.test(first) && /[a-z]/.test(head[head.length - 1]!));
  return joined && CREDENTIAL_END.test(head) ? head : name;
}
const CREDENTIAL_END = new RegExp(`(?:${CREDENTIAL_WORDS.join("|")})$`, "i");
const AWS_END =
  /(?:secret_?access_?key|session_?token|aws_?secret(?:_?key)?)$/i;
const AUTH_END = /authorization$/i;
const COOKIE_END = /cookie$/i;
// Ordinary words that end in a key word.
const NOT_A_KEY = /(?:by|com|over|under|tres|sur|encom)pass$|oauth$/i;
const PUBLIC_KEY = /public[\w.-]*$/i;
const KEY_WORD_IN_VALUE = /pass|pwd|secret|token|key|auth|cred/i;
const SCHEME_FIRST =
  /^(bearer|token|basic|bot|apikey|api-key|sso-key|ssws)[ \t]+/i;
/**
 * A scheme of another service (`Splunk <uuid>`, `GenieKey …`, `Key …`): a
 * word, then a long token; the token must hold a digit.
 */
const OTHER_SCHEME = /^[A-Za-z][A-Za-z-]{1,24}[ \t]+(?=[\w+\/.=~-]{16})/;
/** A Kubernetes bootstrap token (`kubeadm token create`): 6 and 16 characters. */
export const BOOTSTRAP_TOKEN = /^[a-z0-9]{6}\.(?=[a-z]*[0-9])[a-z0-9]{16}$/;
// Only at a name's first character: tried inside a name, the same pair
// failed again over the rest of it (quadratic in a long run).
const COOKIE_PAIR = /(?<![^\s=;,"'\\])([^\s=;,"'\\]+)=([^;\s"'\\]*)/g;
const SESSIONISH =
  /sess|sid|token|auth|jwt|csrf|xsrf|remember|login|secret|cred|key|^__(?:host|secure)-|identity|access|refresh/i;

/** The separator at `at` and its length: `:`, `=`, `:=`, `=>`, `==`, `===`. */
function separatorAt(text: string, at: number): string {
  const two = text.slice(at, at + 3);
  if (two.startsWith("===")) return "===";
  if (/^(?::=|=>|==)/.test(two)) return two.slice(0, 2);
  return text[at]!;
}

/**
 * Values a credential key holds that are no secret: a CloudFormation
 * reference (`!Ref ApiKeyParameter`, `!Sub`, `!GetAtt`, `!ImportValue`),
 * a Mapbox public token (`pk.eyJ1Ijoi…`, shipped to browsers; `sk.` is
 * secret). A sops ciphertext is none either ({@linkcode isSopsValue}).
 */
const NO_SECRET =
  /^(?:!(?:Ref|Sub|GetAtt|ImportValue|FindInMap|Join|Select|Base64)$|pk\.eyJ1Ijoi[\w-]+\.[\w-]+$)/;
/** A provider's prefix, then a stand-in: `xoxb-your-bot-token`, `sk-your-key`. */
const PREFIXED_STAND_IN =
  /^[a-z0-9]{2,8}[-_](?:your|my)[-_][a-z]+(?:[-_][a-z]+)*$/i;

/**
 * What a test passes for a wrong password or token (`password: "wrong"`,
 * `token: 'invalid-token'`): it says what the value is, it is none.
 */
const WRONG_VALUE =
  /^(?:wrong|incorrect|invalid|bad|not[-_]?the[-_]?password)(?:[-_ ]?(?:pass(?:word)?|pw|secret|token|key|value|one))?$/i;
/** The values of fetch's `credentials` option. */
const FETCH_CREDENTIALS = /^(?:include|omit|same-origin)$/;

/** Keys of a wallet's seed phrase (`MNEMONIC`, `SEED_PHRASE`). */
const SEED_KEY = /(?:mnemonic|(?:seed|recovery)[_-]?phrase)$/i;

/** Decides whether the value after `key<sep>` is a secret worth replacing. */
export function credentialValueOk(
  raw: string,
  quoted: boolean,
  tight: boolean,
  key = "",
  // An env line's `KEY=…`: the value is text, not code.
  envLine = false,
): boolean {
  // "auth: required." ends a sentence; the period is no part of a word.
  const value = quoted || tight ? raw : withoutSentenceEnd(raw);
  if (value.length < 3 || isRedacted(value) || isReference(value)) return false;
  if (isPlaceholder(value) || isTypeWord(value)) return false;
  if (NO_SECRET.test(value) || isSopsValue(value)) return false;
  if (PREFIXED_STAND_IN.test(value)) return false;
  // A test's wrong password (`password: "wrong"`), fetch's `credentials:
  // "include"`, a pepper of the kitchen (`pepper: "black"`, `pepper: 0.5`).
  if (WRONG_VALUE.test(value)) return false;
  if (/credentials?$/i.test(key) && FETCH_CREDENTIALS.test(value)) return false;
  if (/pepper$/i.test(key) && (isPlainWord(value) || /^[\d.,]+$/.test(value))) {
    return false;
  }
  if (BOOTSTRAP_TOKEN.test(value)) return true;
  if (quoted) {
    // A wallet's seed phrase is words and blanks: 12 or more of them.
    if (SEED_KEY.test(key)) return value.trim().split(/\s+/).length >= 12;
    // A passphrase on an env line may be words and blanks too; one word
    // is judged as any other value.
    if (envLine && PHRASE_KEY.test(key) && /\S\s+\S/.test(value)) return true;
    // UI labels and prose in a string: "Enter your password"; not a
    // Google app password (four blocks of four letters).
    if (APP_PASSWORD.test(value)) return true;
    return !(/\s/.test(value) && /^[\p{L}\s,.'!?:-]+$/u.test(value));
  }
  if (isPathValue(value) || /^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    return false;
  }
  if (/^[0-9]{1,5}$/.test(value)) return false;
  // Code: calls, indexing, generics, member access, references. On an env
  // line (KEY=…) brackets are the value's own characters
  // (`django-insecure-n&14c(79…`), unless it is a call, an index or JSON.
  const literal = envLine && !/^(?:[\w.$]+[([]|[{[<])/.test(value);
  if (!literal && /[()[\]{}<>]/.test(value)) return false;
  // Member access (process.env.KEY, req.body.password) is code, unless a
  // part of it reads as random: a token with dots (ab12.Cd34Ef…). On an env
  // line (KEY=a.b, no blanks) a dotted value is text, unless it starts
  // with an object code reads settings from (settings.X, config.db.pass).
  if (
    /^[&*]*[A-Za-z_$][\w$]*(?:(?:\.|::|->)[A-Za-z_$][\w$]*)+$/.test(value) &&
    !value.split(/\.|::|->/).some(randomPart) &&
    (!(tight && envLine) || CODE_OBJECT.test(value))
  ) {
    return false;
  }
  // A pointer or a reference in code (`*ptr`, `&cfg`); on an env line
  // (`REDIS_PASS=*PuNX…`) the `*` is the value's first character.
  if (!(tight && envLine) && /^[&*]+[A-Za-z_]\w*$/.test(value)) return false;
  if (/^[\p{L}_]+$/u.test(value)) {
    // `password: str` and `token = token` are code; an env-style KEY=word
    // with no blanks is a real assignment. Letters that change case at
    // nearly every character are no name (`ZUBpRGUyWTJKTCFl`, base64 of a
    // short password in a Kubernetes secret's data).
    if (!tight) return randomLetters(value);
    return !KEY_WORD_IN_VALUE.test(value);
  }
  return true;
}

/**
 * 12+ ASCII letters of both cases that break into no words
 * ({@linkcode isIdentifierLike}): `ZUBpRGUyWTJKTCFl`, not `getUserPassword`.
 */
export function randomLetters(value: string): boolean {
  return /^[A-Za-z]{12,}$/.test(value) && /[a-z]/.test(value) &&
    /[A-Z]/.test(value) && !isIdentifierLike(value);
}

/** A Google app password as Google shows it: `abcd efgh ijkl mnop`. */
const APP_PASSWORD = /^[a-z]{4} [a-z]{4} [a-z]{4} [a-z]{4}$/;

/** Objects code reads settings from: `settings.DB_PASSWORD` is no value. */
const CODE_OBJECT =
  /^(?:settings|config|conf|cfg|env|os|process|self|this|secrets|vars|app|options|opts|params|args|values|ctx|context|props|state|window|global)\./i;

/**
 * A part of a dotted value that reads as random: mixed case with digits,
 * and long (16+) or made of humps too short for words (`udS6JoJqX`: 1.5
 * letters a hump, where a name has `getUser2`: 2.7).
 */
function randomPart(part: string): boolean {
  if (!/[0-9]/.test(part) || !/[a-z]/.test(part) || !/[A-Z]/.test(part)) {
    return false;
  }
  if (part.length >= 16) return true;
  const humps = part.match(/[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+/g) ?? [];
  return part.length >= 8 && part.length / humps.length < 2;
}

/** A stand-in in angle brackets on one line, up to 80 characters. */
const ANGLED = /^<[^<>\n]{1,80}>/;

/**
 * Adds an edit for an Authorization header's value at `from`; returns the
 * value it read, if any.
 */
function authorizationValue(
  text: string,
  from: number,
  edits: Edits,
): ValueSpan | null {
  let i = from;
  while (text[i] === " " || text[i] === "\t") i++;
  if (text[i] === "\\") i++;
  if (text[i] === '"' || text[i] === "'" || text[i] === "`") i++;
  const scheme = SCHEME_FIRST.exec(text.slice(i, i + 20));
  const other = scheme ? null : OTHER_SCHEME.exec(text.slice(i, i + 48));
  if (scheme) i += scheme[0].length;
  else if (other) i += other[0].length;
  const v = readValue(text, i);
  if (!v) return null;
  const value = text.slice(v.start, v.end);
  if (value.length < 3 || isRedacted(value)) return v;
  if (isReference(value) || isPlaceholder(value)) return v;
  // A stand-in the reader cut at a blank or bracket: `<base64(user:pass)>`,
  // `<your token>`.
  if (value[0] === "<" && ANGLED.test(text.slice(v.start, v.start + 82))) {
    return v;
  }
  if (other && !/[0-9]/.test(value)) return v;
  // No scheme: "Authorization: required" is prose; a token is not a word.
  if (scheme ? isTypeWord(value) : isPlainWord(value) || value.length < 8) {
    return v;
  }
  // A value split by a shell line continuation goes whole.
  const more = continuedRun(text, v.end);
  edits.push({ start: v.start, end: more?.end ?? v.end, id: "bearer" });
  return v;
}

/**
 * Adds an edit for each session-like pair of the cookie header whose value
 * starts at `from`, read to the line's end or 4 KiB. `read` is how far the
 * headers before it were read: a header inside that is read on from there
 * (less 256 characters, for a pair the last read cut), so a line of many
 * headers costs its length, not a window per header. Returns how far this
 * one read.
 */
function cookieValues(
  text: string,
  from: number,
  read: number,
  edits: Edits,
): number {
  let i = from;
  while (text[i] === " " || text[i] === "\t") i++;
  if (text[i] === "\\") i++;
  if (text[i] === '"' || text[i] === "'") i++;
  // A cookie header is one line; 4 KiB of it is plenty and bounds the work.
  const nl = text.slice(i, i + 4097).indexOf("\n");
  const to = nl < 0 ? Math.min(text.length, i + 4096) : i + nl;
  if (i < read) i = Math.min(to, Math.max(i, read - 256));
  const line = text.slice(i, to);
  COOKIE_PAIR.lastIndex = 0;
  let p: RegExpExecArray | null;
  while ((p = COOKIE_PAIR.exec(line)) !== null) {
    const value = p[2]!;
    if (!SESSIONISH.test(p[1]!) || value.length < 4) continue;
    if (isRedacted(value) || isReference(value)) continue;
    const start = i + p.index + p[1]!.length + 1;
    edits.push({ start, end: start + value.length, id: "cookie" });
  }
  return to;
}

/**
 * Adds a cookie edit for each session-like pair of `name=value; …` between
 * `start` and `end` (curl's `-b 'sessionid=…; theme=dark'`), names kept.
 */
export function cookiePairs(
  text: string,
  start: number,
  end: number,
  edits: Edits,
): void {
  const pairs = text.slice(start, Math.min(end, start + 4096));
  COOKIE_PAIR.lastIndex = 0;
  let p: RegExpExecArray | null;
  while ((p = COOKIE_PAIR.exec(pairs)) !== null) {
    const value = p[2]!;
    if (!SESSIONISH.test(p[1]!) || value.length < 4) continue;
    if (isRedacted(value) || isReference(value)) continue;
    const at = start + p.index + p[1]!.length + 1;
    edits.push({ start: at, end: at + value.length, id: "cookie" });
  }
}

const XML_ELEMENT = new RegExp(
  `<((?:[\\w-]*[_-])?(?:password|passwd|passphrase|secret|token|api[_-]?key|apikey|access[_-]?key|secret[_-]?key|client[_-]?secret|private[_-]?key|credentials?))>([^<\\s][^<\\n]{2,}?)</\\1>`,
  "gi",
);

/** Adds a credential edit for `value` at `start` unless it is a marker, a reference or a stand-in. */
function credentialAt(edits: Edits, start: number, value: string): void {
  if (isRedacted(value) || isReference(value) || isPlaceholder(value)) return;
  edits.push({ start, end: start + value.length, id: "credential" });
}

/** `key="…Password" value="…"` attribute pairs (NuGet.Config, app.config). */
const XML_KEY_VALUE =
  /\bkey="[^"]*(?:password|passwd|secret|token|apikey|api_key)[^"]*"\s+value="([^"]{3,})"/gi;

/** Adds an edit for the text of credential-named XML elements (Maven, .NET). */
function xmlValues(text: string, edits: Edits): void {
  if (hasCue(text, 'value="')) {
    XML_KEY_VALUE.lastIndex = 0;
    let kv: RegExpExecArray | null;
    while ((kv = XML_KEY_VALUE.exec(text)) !== null) {
      const value = kv[1]!;
      credentialAt(edits, kv.index + kv[0].length - 1 - value.length, value);
    }
  }
  if (!hasCue(text, "</")) return;
  XML_ELEMENT.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = XML_ELEMENT.exec(text)) !== null) {
    credentialAt(edits, m.index + m[1]!.length + 2, m[2]!);
  }
}

const IN_ARN = /\barn:[\w-]+:[\w-]+:[\w-]*:\d*:[^\s"']*$/;
// After a reader's line number, a diff's or patch's `-`/`+`, a YAML `- `.
const ENV_LINE =
  /(?:^|\n)(?:[ \t]*\d{1,7}(?:→|\t|\. ))?[ \t]*(?:[-+][ \t]*)?(?:export[ \t]+)?[A-Z_][A-Z0-9_]*$/;

/**
 * Whether the key ending at `k` starts its line as an env variable does
 * (upper case: a form body's `client_secret=…&grant_type=…` is a query).
 */
function envLineKey(text: string, k: number): boolean {
  return ENV_LINE.test(text.slice(Math.max(0, k - 80), k + 1));
}

/** How many key characters (`[\w.-]`) end at `k`. */
function keyLength(text: string, k: number): number {
  let i = k;
  while (i >= 0 && k - i < 64 && /[\w.-]/.test(text[i]!)) i--;
  return k - i;
}

/**
 * Adds an edit for the default of `${NAME:-default}` (or `:=`, `:+`) whose
 * `:` is at `at`; a `:?` message is prose and stays.
 */
function expansionDefault(text: string, at: number, edits: Edits): void {
  const op = text[at + 1];
  // Spring's `${DB_PASSWORD:default}` has no operator; a shell's
  // `${PASSWORD:0:4}` takes a substring.
  const spring = op !== "-" && op !== "=" && op !== "+" && op !== "?" &&
    !/^[\d \t]/.test(op ?? " ");
  if (!spring && op !== "-" && op !== "=" && op !== "+") return;
  const from = spring ? at + 1 : at + 2;
  const window = text.slice(from, from + 256);
  const close = window.indexOf("}");
  if (close < 0) return;
  const value = window.slice(0, close);
  if (value.includes("\n")) return;
  // `${PASSWORD:i:1}`: a substring at a variable's offset.
  if (spring && /^[\w$]+:[\w$]*$/.test(value)) return;
  if (credentialValueOk(value, false, true, "", true)) {
    edits.push({ start: from, end: from + close, id: "credential" });
  }
}

/**
 * A comment after a credential's value that keeps the value it replaced:
 * `password: ${DB_PASSWORD}  # old: X`, `DB_PASS=… // was X`.
 */
const OLD_VALUE_COMMENT =
  /[ \t](?:#|\/\/)[ \t]*(?:old|was|previous(?:ly)?|prev|former|legacy|original|orig|before|backup)(?:[ \t]+(?:value|password|pass|pw|secret|token|key|one))?(?:[ \t]*[:=][ \t]*|[ \t]+)(["'`]?)([^\s"'`]{3,128})\1/i;

/**
 * Adds an edit for the old value a comment keeps on the line of the
 * credential key whose separator is at `at` (its next 256 characters).
 */
function oldValueComment(text: string, at: number, edits: Edits): void {
  const rest = text.slice(at + 1, at + 257);
  const nl = rest.indexOf("\n");
  const line = nl < 0 ? rest : rest.slice(0, nl);
  if (!line.includes("#") && !line.includes("//")) return;
  const m = OLD_VALUE_COMMENT.exec(line);
  if (!m) return;
  const value = m[1] ? m[2]! : withoutSentenceEnd(m[2]!);
  if (isPlainWord(value) || !credentialValueOk(value, m[1] !== "", false)) {
    return;
  }
  const start = at + 1 + m.index + m[0].length - m[1]!.length - m[2]!.length;
  credentialAt(edits, start, value);
}

/** Whether the key ending at `k` is an upper-case env name (`DB_PASS`). */
function envName(text: string, k: number): boolean {
  const key = text.slice(k - keyLength(text, k) + 1, k + 1);
  return /^[A-Z][A-Z0-9]*_[A-Z0-9_]+$/.test(key);
}

/** The end of the non-blank run that reaches `from`. */
function bareEnd(text: string, from: number): number {
  let i = from;
  while (i < text.length && !/\s/.test(text[i]!)) i++;
  return i;
}

/**
 * JSON escaped twice (a JSON string holding JSON holding JSON, as Amp and
 * Qwen store a tool's object result): `\\\"password\\\":\\\"…\\\"`. The
 * scan above looks one backslash deep; this one only runs where three are.
 */
const DOUBLE_ESCAPED = new RegExp(
  `(?:${
    CREDENTIAL_WORDS.join("|")
  })\\\\{3}"[ \\t]*:[ \\t]*\\\\{3}"([^"\\\\]{3,})\\\\{3}"`,
  "gi",
);

function doubleEscaped(text: string, edits: Edits): void {
  if (!hasCue(text, '\\\\\\"')) return;
  DOUBLE_ESCAPED.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = DOUBLE_ESCAPED.exec(text)) !== null) {
    const value = m[1]!;
    credentialAt(edits, m.index + m[0].length - 4 - value.length, value);
  }
}

/** `define('DB_PASSWORD', '…')` and WordPress's `AUTH_KEY` and salts. */
const PHP_DEFINE = /\bdefine\([ \t]*(['"])(\w+)\1[ \t]*,/g;
const DEFINED_SECRET =
  /(?:PASSWORD|PASSWD|PASS|PWD|SECRET|TOKEN|_KEY|SALT|API_?KEY)$/i;

/** Adds an edit for the quoted value of every PHP constant named for a secret. */
function phpDefines(text: string, edits: Edits): void {
  if (!hasCue(text, "define(")) return;
  PHP_DEFINE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = PHP_DEFINE.exec(text)) !== null) {
    if (!DEFINED_SECRET.test(m[2]!) || PUBLIC_KEY.test(m[2]!)) continue;
    const v = readValue(text, PHP_DEFINE.lastIndex);
    if (!v?.quoted) continue;
    const value = text.slice(v.start, v.end);
    if (credentialValueOk(value, true, false)) {
      edits.push({ start: v.start, end: v.end, id: "credential" });
    }
  }
}

/**
 * A Groovy DSL password (Gradle's `storePassword "…"`, `keyPassword '…'`,
 * `password "…"` in a repository's credentials): a line that is the name,
 * a blank and a quoted value. Tried where the `pass` scan of `_words.ts`
 * finds the word (sticky at it).
 */
const GROOVY_PASSWORD = /(?:password|Password|PASSWORD)[ \t]+(?=["'])/y;
/** What may stand before the name on its line: a line-number gutter, indentation, the name's head. */
const GROOVY_HEAD = /^(?:[ \t]*\d{1,7}(?:→|\t|\. ))?[ \t]*\w*$/;

/**
 * Adds an edit when the password word at `at` names a Groovy DSL line's
 * quoted value.
 *
 * @returns True when it did.
 */
export function groovyPasswordAt(
  text: string,
  at: number,
  edits: Edits,
): boolean {
  GROOVY_PASSWORD.lastIndex = at;
  if (!GROOVY_PASSWORD.test(text)) return false;
  const lineStart = lineStartWithin(text, at, 80);
  if (lineStart < 0 || !GROOVY_HEAD.test(text.slice(lineStart, at))) {
    return false;
  }
  const v = readValue(text, GROOVY_PASSWORD.lastIndex);
  if (!v?.quoted) return false;
  // The value ends the line: `password "x" // note` is the most there is.
  const rest = text.slice(v.end + 1, v.end + 80).split("\n", 1)[0]!;
  if (!/^[ \t;,)]*(?:\/\/.*)?\r?$/.test(rest)) return false;
  const value = text.slice(v.start, v.end);
  if (!credentialValueOk(value, true, false)) return false;
  edits.push({ start: v.start, end: v.end, id: "credential" });
  return true;
}

const SENSITIVE = /"sensitive"[ \t]*:[ \t]*true/g;
const JSON_STRING_VALUE = /"value"[ \t]*:[ \t]*"((?:[^"\\\n]|\\.)*)"/;

/**
 * Adds an edit for the string `"value"` of every object `terraform output
 * -json` marks `"sensitive": true`.
 */
function sensitiveValues(text: string, edits: Edits): void {
  if (!hasCue(text, '"sensitive"')) return;
  SENSITIVE.lastIndex = 0;
  // The braces around each mark are found by reading on from the last
  // mark's, and an object is searched for its `"value"` again only when the
  // last search cannot answer (a later mark of the same object reports the
  // same value): a search from each mark made a long text of marks
  // quadratic.
  let open = -1;
  let openRead = 0;
  let close = -1;
  let searched = { from: -1, close: -1, valueAt: -1 };
  let m: RegExpExecArray | null;
  while ((m = SENSITIVE.exec(text)) !== null) {
    const brace = text.slice(openRead, m.index + 1).lastIndexOf("{");
    if (brace >= 0) open = openRead + brace;
    openRead = m.index + 1;
    if (close !== -2 && close < m.index) {
      close = text.indexOf("}", m.index);
      // No `}` after this mark: none after a later one.
      if (close < 0) close = -2;
    }
    if (open < 0 || close < 0) continue;
    if (
      searched.close === close && searched.from <= open &&
      (searched.valueAt < 0 || searched.valueAt >= open)
    ) continue;
    const value = JSON_STRING_VALUE.exec(text.slice(open, close));
    searched = { from: open, close, valueAt: value ? open + value.index : -1 };
    if (!value) continue;
    const end = open + value.index + value[0].length - 1;
    credentialAt(edits, end - value[1]!.length, value[1]!);
  }
}

/** A YAML block scalar's indicator: `|`, `>-`, `|+2`. */
const YAML_BLOCK = /^[|>][+-]?[1-9]?$/;

/**
 * A YAML value below its key (`password:` then an indented line) or in a
 * block scalar (`client_secret: >-` then indented lines), for the key whose
 * separator is at `sepAt`: the span from the first character of the value
 * to the last, or null when the key has none there (a nested mapping, a
 * list, a comment).
 */
function yamlValueBelow(text: string, sepAt: number): ValueSpan | null {
  const head = /^[ \t]*([|>][+-]?[1-9]?)?[ \t]*\r?\n/.exec(
    text.slice(sepAt + 1, sepAt + 16),
  );
  if (!head) return null;
  const lineStart = text.lastIndexOf("\n", sepAt) + 1;
  const keyLine = text.slice(lineStart, sepAt);
  const keyIndent =
    /^[ \t]*/.exec(keyLine.slice(gutterLength(keyLine)))![0].length;
  const block = head[1] !== undefined;
  let start = -1;
  let end = -1;
  let at = sepAt + 1 + head[0].length;
  for (let lines = 0; at < text.length && lines < 64; lines++) {
    const nl = text.indexOf("\n", at);
    const lineEnd = nl < 0 ? text.length : nl;
    const full = text.slice(at, lineEnd).replace(/\r$/, "");
    const gutter = gutterLength(full);
    const line = full.slice(gutter);
    const indent = /^[ \t]*/.exec(line)![0].length;
    if (line.trim() !== "") {
      if (indent <= keyIndent) break;
      if (start < 0) {
        // A nested mapping, a list or a comment is no value.
        if (!block && /^(?:[-#]|[\w"'.-][^:]*:(?:\s|$))/.test(line.trim())) {
          return null;
        }
        start = at + gutter + indent;
      }
      end = at + gutter + line.trimEnd().length;
      if (!block) break;
    }
    if (nl < 0) break;
    at = nl + 1;
  }
  return start < 0 ? null : { start, end, quoted: block };
}

/** Keys of a secret made of words: a passphrase, a wallet's seed phrase. */
const PHRASE_KEY =
  /(?:pass[ _-]?phrase|mnemonic|(?:seed|recovery)[_-]?phrase)$/i;

/**
 * What no word of a phrase holds, after its first blank: a path, a flag,
 * a quote, a shell operator or expansion, an assignment.
 */
const COMMAND_WORD = /[\/\\"`|&;<>=${}()]|::|[ \t]-/;

/**
 * A passphrase on an env line (`PASSPHRASE=correct horse battery`, as `env`
 * prints it): the value is the rest of the line, less a `#` comment.
 *
 * @returns True when an edit was added.
 */
function phraseToLineEnd(text: string, start: number, edits: Edits): boolean {
  let end = text.indexOf("\n", start);
  if (end < 0 || end - start > 256) end = Math.min(text.length, start + 256);
  const line = text.slice(start, end).replace(/[ \t]+#.*$|\s+$/, "");
  // A command after a one-word value (`BORG_PASSPHRASE=x borg create ::a
  // /home`): its paths, flags, quotes and operators are no words of a
  // phrase; the blank ends the value, as the shell reads it.
  const blank = line.search(/[ \t]/);
  if (blank > 0 && COMMAND_WORD.test(line.slice(blank))) return false;
  if (line.length < 3 || isRedacted(line) || isReference(line)) return false;
  if (isPlaceholder(line)) return false;
  edits.push({ start, end: start + line.length, id: "credential" });
  return true;
}

/**
 * An env-style name ending in `KEY` (`AZURE_OPENAI_KEY`, `MAPS_KEY`): upper
 * case, first on its line (after indentation, a reader's line number,
 * `export`, a YAML `- ` or a quote; a line may start after a JSON-escaped
 * `\n`), or quoted as a member of an inline JSON object (`{ "BRAVE_KEY":`,
 * `, "EXA_KEY":`, an MCP server's `env`). Lower-case `cache_key`,
 * `sort_key` are names of other things.
 */
const ENV_KEY_LINE =
  /(?:(?:^|\n|\\n)(?:[ \t]*\d{1,7}(?:→|\t|\. ))?[ \t]*(?:export[ \t]+|-[ \t]+)?["']?|[{,][ \t]*")[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_?KEY$/;

/** Whether the key ending at `k` is an env-style `…_KEY` name first on its line. */
function envKeyName(text: string, k: number): boolean {
  return text[k] === "Y" &&
    ENV_KEY_LINE.test(text.slice(Math.max(0, k - 80), k + 1));
}

/**
 * A value that reads as a key, not a word, name or path: 32+ hex digits,
 * or a random run of 20+ token characters with no `/`.
 */
export function keyLikeValue(value: string): boolean {
  if (/^[0-9a-f]{32,}$/i.test(value)) return true;
  return !value.includes("/") && looksRandomToken(value);
}

/**
 * A key that names what it belongs to before its secret: a deployment
 * (`prod:happy-otter-123|<token>`, Convex) or a key id (`<uuid>:<hex>`,
 * fal.ai). Group 1 is the secret.
 */
const DEPLOY_KEY =
  /^(?:(?:prod|dev|preview|project):[\w:-]{1,64}\||[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}:(?=[0-9a-f]{32}))([A-Za-z0-9+\/=_-]{20,300})/;

/**
 * `AZURE_OPENAI_KEY=0b22…`, `MAPS_KEY: 9f3a…`: a key-like value after an
 * env-style `…_KEY` name that no credential word ends. Returns the value
 * it read, if any.
 */
function envKeyValue(
  text: string,
  at: number,
  sep: string,
  k: number,
  key: string,
  edits: Edits,
): ValueSpan | null {
  if (sep !== "=" && sep !== ":") return null;
  // A GPG key id (the Python images' GPG_KEY) names a public key.
  if (PUBLIC_KEY.test(key) || /[GP]PG_KEY$/.test(key)) return null;
  if (!envKeyName(text, k)) return null;
  const v = readValue(text, at + 1);
  if (!v) return null;
  const deploy = DEPLOY_KEY.exec(text.slice(v.start, v.start + 400));
  if (deploy) {
    const end = v.start + deploy[0].length;
    edits.push({ start: end - deploy[1]!.length, end, id: "credential" });
    return { ...v, end: Math.max(v.end, end) };
  }
  const value = text.slice(v.start, v.end);
  if (keyLikeValue(value)) {
    edits.push({ start: v.start, end: v.end, id: "credential" });
  }
  return v;
}

/**
 * Whether `name` (a variable, a parameter path) names a credential, a
 * qualifier after its word or not (`DB_PASSWORD_PROD`).
 */
export function credentialName(name: string): boolean {
  const last = withoutQualifier(name.split(/[\/.:]/).pop() ?? name);
  return CREDENTIAL_END.test(last) && !NOT_A_KEY.test(last) &&
    !PUBLIC_KEY.test(last);
}

/** A quoted key, then `:` and the `{` of the object the value opens. */
const OWN_KEY = /["']([\w.\/-]{2,100})["'][ \t]*:[ \t]*\{\s*["']?$/;

/**
 * A header a web server sets (nginx `proxy_set_header Authorization
 * "Basic …";`, Apache `RequestHeader set Authorization "…"`): the name, then
 * the value without a colon.
 */
const HEADER_DIRECTIVE =
  /\b(?:proxy_set_header|more_set_input_headers|RequestHeader[ \t]+(?:set|append|add))[ \t]+["']?(?:Proxy-)?Authorization["']?[ \t]+/g;

/** Adds an edit for each Authorization value a web server's config sets. */
function headerDirectives(text: string, edits: Edits): void {
  HEADER_DIRECTIVE.lastIndex = 0;
  while (HEADER_DIRECTIVE.exec(text) !== null) {
    authorizationValue(text, HEADER_DIRECTIVE.lastIndex, edits);
  }
}

/** After a `value` word: its closing quote (if any), blanks, `:` or `=`, blanks. */
const VALUE_SEP = /["']?[ \t]*[:=][ \t]*/y;
/** A `name` key and its value, the variable the pair sets. */
const NAME_KEY =
  /(?<![\w$-])(["']?)(?:name|Name|NAME|key|Key|ParameterKey|ParameterName)\1[ \t]*[:=][ \t]*(["']?)([^\s"',{}]{2,100})\2/g;

/**
 * A value set by name and value: Kubernetes env (`- name: DB_PASSWORD` then
 * `value: …`), ECS task definitions and Postman environments (`{"name":
 * "API_TOKEN", "value": "…"}`), an SSM parameter (`"Name":
 * "/prod/db/password"`, …, `"Value": "…"`), an HTML input. The name comes
 * at most 240 characters before the value, in the same object.
 */
function nameValuePairs(text: string, edits: Edits): void {
  // How far a cookie header in a pair was read (see cookieValues).
  let cookieRead = 0;
  // `value`, `Value`, `VALUE`, `ParameterValue`: found by their `alue`.
  let at = text.indexOf("alue");
  for (; at > 0; at = text.indexOf("alue", at + 4)) {
    const v = text[at - 1];
    if (v !== "v" && v !== "V") continue;
    let word = at - 1;
    if (text.startsWith("Parameter", word - 9)) word -= 9;
    const before = text[word - 1] ?? "";
    if (/[\w$-]/.test(before)) continue;
    const open = before === '"' || before === "'";
    VALUE_SEP.lastIndex = at + 4;
    if (!VALUE_SEP.test(text)) continue;
    if (open !== /^["']/.test(text.slice(at + 4, at + 5))) continue;
    const from = Math.max(0, word - 240);
    const window = text.slice(from, word);
    // The object's own key names it: Spring's actuator `"DB_PASSWORD":
    // {"value": "…"}`.
    const own = OWN_KEY.exec(window.slice(-120));
    if (own && credentialName(own[1]!)) {
      const span = readValue(text, VALUE_SEP.lastIndex);
      const value = span ? text.slice(span.start, span.end) : "";
      if (
        span && !isPlainWord(value) &&
        credentialValueOk(value, span.quoted, false)
      ) {
        edits.push({ start: span.start, end: span.end, id: "credential" });
      }
      continue;
    }
    NAME_KEY.lastIndex = 0;
    let name: RegExpExecArray | null = null;
    for (let n = NAME_KEY.exec(window); n; n = NAME_KEY.exec(window)) name = n;
    if (!name) continue;
    // Another object between them: the name is not this value's.
    if (/[{}]/.test(window.slice(name.index + name[0].length))) continue;
    // A header written as a pair (a HAR file, a Postman collection).
    if (/^authorization$/i.test(name[3]!)) {
      authorizationValue(text, VALUE_SEP.lastIndex, edits);
      continue;
    }
    if (/^(?:set-)?cookie$/i.test(name[3]!)) {
      cookieRead = cookieValues(text, VALUE_SEP.lastIndex, cookieRead, edits);
      continue;
    }
    if (!credentialName(name[3]!)) continue;
    const span = readValue(text, VALUE_SEP.lastIndex);
    if (!span) continue;
    const value = text.slice(span.start, span.end);
    if (isPlainWord(value) || !credentialValueOk(value, span.quoted, false)) {
      continue;
    }
    edits.push({ start: span.start, end: span.end, id: "credential" });
  }
}

/**
 * A row of an aligned table of keys and values (a text with a `Value`
 * header: `vault kv get`'s `password    X`, PowerShell's
 * `Get-ChildItem Env:`, `pulumi config --show-secrets`' `VALUE`) whose
 * first column names a credential, found at 2+ spaces (or, in a table of
 * tab-separated values, a tab) after a credential word: the name alone at
 * the line's start
 * (after a reader's line number), one value from the spaces to the line's
 * end.
 */
const ROW_HEAD =
  /^(?:[ \t]*\d{1,7}(?:→|\t|\. ))?[ \t]*([A-Za-z][\w.-]*(?:pass(?:word|wd|phrase)?|pwd|secret|token|key))$/i;
/** One value, then blanks to the line's end. */
const ROW_VALUE = /(\S+)[ \t]*(?:\r?\n|$)/y;

function alignedValues(text: string, edits: Edits, gapStart = "  "): void {
  let at = text.indexOf(gapStart);
  while (at > 2) {
    let gap = at + gapStart.length;
    while (text.charCodeAt(gap) === 32 || text.charCodeAt(gap) === 9) gap++;
    if (CREDENTIAL_TAILS.has(tailOf(text, at))) {
      alignedRow(text, at, gap, edits);
    }
    at = text.indexOf(gapStart, gap);
  }
}

/**
 * The last three characters of a credential word, lower-cased: password,
 * passwd, passphrase, pwd, secret, token, key, pass.
 */
const CREDENTIAL_TAILS = new Set([
  "ord",
  "swd",
  "ase",
  "pwd",
  "ret",
  "ken",
  "key",
  "ass",
]);

/** The three characters before `at`, lower-cased (ASCII letters only). */
function tailOf(text: string, at: number): string {
  return String.fromCharCode(
    text.charCodeAt(at - 3) | 32,
    text.charCodeAt(at - 2) | 32,
    text.charCodeAt(at - 1) | 32,
  );
}

/** Checks the row whose first column ends at `at` and whose value starts at `gap`. */
function alignedRow(text: string, at: number, gap: number, edits: Edits) {
  const lineStart = lineStartWithin(text, at, 80);
  if (lineStart < 0) return;
  const head = ROW_HEAD.exec(text.slice(lineStart, at));
  if (!head) return;
  ROW_VALUE.lastIndex = gap;
  const row = ROW_VALUE.exec(text);
  if (!row) return;
  const value = row[1]!;
  if (rowValueOk(head[1]!, value)) {
    edits.push({ start: gap, end: gap + value.length, id: "credential" });
  }
}

/** Whether a table row's `value` is a secret its first column `key` names. */
export function rowValueOk(key: string, value: string): boolean {
  const named = credentialName(key) && !/^(?:PASS|FAIL)$/i.test(key);
  return named
    ? !isPlainWord(value) && credentialValueOk(value, false, false)
    : /^[A-Z][A-Z0-9_]*KEY$/.test(key) && !PUBLIC_KEY.test(key) &&
      !/[GP]PG_KEY$/.test(key) && keyLikeValue(value);
}

/**
 * A row of a table drawn with box characters (`doppler secrets`):
 * `│ NAME │ VALUE │`, one name and one value, more columns after them
 * or not.
 */
const BOX_ROW =
  /^[ \t]*[│┃║][ \t]*([A-Za-z][\w.-]*)[ \t]*[│┃][ \t]*([^\s│┃║]+)[ \t]*[│┃║]/gm;

/** Adds an edit for each box-table row whose name names its secret value. */
function boxRows(text: string, edits: Edits): void {
  BOX_ROW.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = BOX_ROW.exec(text)) !== null) {
    const value = m[2]!;
    if (!rowValueOk(m[1]!, value)) continue;
    const start = m.index + m[0].lastIndexOf(value);
    edits.push({ start, end: start + value.length, id: "credential" });
  }
}

/**
 * A credential set by a call that takes the name, then the value:
 * `os.Setenv("DB_PASSWORD", "…")`, `os.environ.setdefault(…)`,
 * `[Environment]::SetEnvironmentVariable(…)`, `System.setProperty(…)`;
 * and HTTP basic auth given as a pair (`auth=("user", "…")`,
 * `HTTPBasicAuth("user", "…")`).
 */
const SETTER_CALL =
  /\b(?:[Ss]etenv|setdefault|setProperty|SetEnvironmentVariable|putenv)\([ \t]*(["'])([\w.-]{2,64})\1[ \t]*,[ \t]*(["'])([^"'\n]{3,})\3/g;
const AUTH_PAIR =
  /(?:\bauth[ \t]*=[ \t]*\(|\b(?:HTTP|aiohttp\.)?(?:Basic|Digest)Auth\()[ \t]*(["'])[^"'\n]*\1[ \t]*,[ \t]*(["'])([^"'\n]{3,})\2/g;
/** The name of one of the calls above, right before its `(` and a quote. */
const SETTER_GATE =
  /(?<=(?:[Ss]etenv|setdefault|setProperty|SetEnvironmentVariable|putenv|auth[ \t]*=[ \t]*|Auth))\([ \t]*["']/;

function setterCalls(text: string, edits: Edits): void {
  // Each form opens its arguments with a quote: a cheap test first.
  if (!hasCue(text, '("') && !hasCue(text, "('")) return;
  if (!SETTER_GATE.test(text)) return;
  SETTER_CALL.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = SETTER_CALL.exec(text)) !== null) {
    const name = m[2]!;
    const value = m[4]!;
    if (!credentialName(name) && !/^[A-Z][A-Z0-9_]*_KEY$/.test(name)) continue;
    if (!credentialValueOk(value, true, false)) continue;
    credentialAt(edits, m.index + m[0].length - 1 - value.length, value);
  }
  AUTH_PAIR.lastIndex = 0;
  while ((m = AUTH_PAIR.exec(text)) !== null) {
    const value = m[3]!;
    if (!credentialValueOk(value, true, false)) continue;
    credentialAt(edits, m.index + m[0].length - 1 - value.length, value);
  }
}

/**
 * A literal default given where code reads a variable: the name quoted as
 * a call's first argument, then the default as its second
 * (`env('DB_PASSWORD', 'X')`, `os.getenv("…", "X")`, `os.environ.get`,
 * `config("…", default="X")`, `ENV.fetch("…", "X")`), in a block after the
 * call (`ENV.fetch("…") { "X" }`) or after an operator (`getenv('…') ?:
 * 'X'`, `os.getenv("…") or "X"`). Group 2 is the name, 4 the default.
 */
const CALL_DEFAULT =
  /\([ \t]*(["'])([A-Za-z_][\w.:-]{1,63})\1[ \t]*(?:,\s{0,40}(?:(?:default|fallback)[ \t]*=[ \t]*)?|\)[ \t]*(?:\{|\|\||\?\?|\?:|or\b)[ \t]*)(["'])([^"'\n]{1,256})\3/g;
/**
 * A default after an operator, the name read as a member or an index
 * (`process.env.DB_PASSWORD || "X"`, `ENV['DB_PASSWORD'] || 'X'`,
 * `$_ENV['DB_PASSWORD'] ?? 'X'`): the operator and the default, then the
 * name is looked for right before them.
 */
const OPERATOR_DEFAULT = /(?:\|\||\?\?|\?:)[ \t]*(["'])([^"'\n]{1,256})\1/g;
const NAME_BEFORE_OPERATOR =
  /(?:\[[ \t]*(["'])([A-Za-z_][\w.:-]{1,63})\1[ \t]*\]|\.([A-Za-z_]\w{1,63}))[ \t]*$/;
/** An env-style name: `DB_PASSWORD`, `SECRET`. */
const ENV_STYLE_NAME = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/;
/** What reads the environment or settings: `os.environ.get`, `ENV.fetch`, `config`. */
const ENV_READER = /env|environ|config|setting|fetch$|getOrDefault$/i;

/**
 * Whether the variable `name`, read by `reader` (the call or object before
 * it), holds a credential: an env-style name (`DB_PASSWORD`) whoever reads
 * it, another (`services.stripe.secret`) only where the environment or
 * settings are read (`t("password", "Passwort")` translates a word).
 */
function credentialVariable(name: string, reader: string): boolean {
  if (!credentialName(name)) return false;
  return ENV_STYLE_NAME.test(name) || ENV_READER.test(reader);
}

/**
 * Whether a variable's literal default is a secret: as a quoted value, and
 * no plain word (`postgres`, `changeme`, `secret`: stand-ins a default
 * takes) nor a format verb (`%s`).
 */
function defaultValueOk(value: string): boolean {
  return !isPlainWord(value) && !/^%[a-z]$/.test(value) &&
    credentialValueOk(value, true, false);
}

/** The name chain (`os.environ.get`, `$_ENV`) that ends right before `at`. */
function readerBefore(text: string, at: number): string {
  const head = text.slice(Math.max(0, at - 48), at);
  let i = head.length;
  while (i > 0 && /[\w$.]/.test(head[i - 1]!)) i--;
  return head.slice(i);
}

/** Adds an edit for each literal default of a credential variable. */
function variableDefaults(text: string, edits: Edits): void {
  if (hasCue(text, '("') || hasCue(text, "('")) {
    CALL_DEFAULT.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = CALL_DEFAULT.exec(text)) !== null) {
      const value = m[4]!;
      if (!credentialVariable(m[2]!, readerBefore(text, m.index))) continue;
      if (!defaultValueOk(value)) continue;
      credentialAt(edits, m.index + m[0].length - 1 - value.length, value);
    }
  }
  if (!hasCue(text, "||") && !hasCue(text, "??") && !hasCue(text, "?:")) {
    return;
  }
  OPERATOR_DEFAULT.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = OPERATOR_DEFAULT.exec(text)) !== null) {
    const head = text.slice(Math.max(0, m.index - 80), m.index);
    const name = NAME_BEFORE_OPERATOR.exec(head);
    if (!name) continue;
    const reader = readerBefore(head, name.index);
    if (!credentialVariable(name[2] ?? name[3]!, reader)) continue;
    const value = m[2]!;
    if (!defaultValueOk(value)) continue;
    credentialAt(edits, m.index + m[0].length - 1 - value.length, value);
  }
}

/** A Terraform variable's block: `variable "db_password" {`. */
const TF_VARIABLE = /\bvariable[ \t]+"([\w-]{1,64})"[ \t]*\{/g;
/** Its `default = "…"` line. */
const TF_DEFAULT = /^[ \t]*default[ \t]*=[ \t]*"([^"\n]{1,256})"/m;

/**
 * Adds an edit for the default of each Terraform variable named for a
 * credential (`variable "db_password" { default = "X" }`), read up to the
 * block's closing brace at its line's start (2 KiB at most).
 */
function terraformDefaults(text: string, edits: Edits): void {
  TF_VARIABLE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = TF_VARIABLE.exec(text)) !== null) {
    if (!credentialName(m[1]!)) continue;
    const from = TF_VARIABLE.lastIndex;
    let body = text.slice(from, from + 2048);
    const close = body.search(/\n\}|\nvariable[ \t]/);
    if (close >= 0) body = body.slice(0, close);
    // On one line too (`variable "x" { default = "…" }`): `^` is the body's start.
    const d = TF_DEFAULT.exec(body);
    if (!d || !defaultValueOk(d[1]!)) continue;
    const end = from + d.index + d[0].length - 1;
    credentialAt(edits, end - d[1]!.length, d[1]!);
  }
}

/** A `"key"` of 32–64 hex digits, or a random run of 32–64. */
const USER_KEY = /"key"[ \t]*:[ \t]*"([0-9a-f]{32,64}|[A-Za-z0-9_-]{32,64})"/y;
/** A user name key of the same object. */
const USER_NAME_KEY = /"user(?:name)?"[ \t]*:/;

/**
 * An API key stored beside the user it belongs to, as `"key"` (Kaggle's
 * `kaggle.json`: `{"username": "…", "key": "<32 hex>"}`): only in an
 * object that names a user within the 200 characters before the key.
 */
function userKeys(text: string, edits: Edits): void {
  for (
    let at = text.indexOf('"key"');
    at >= 0;
    at = text.indexOf('"key"', at + 5)
  ) {
    USER_KEY.lastIndex = at;
    const m = USER_KEY.exec(text);
    if (!m) continue;
    const value = m[1]!;
    if (!/^[0-9a-f]+$/.test(value) && !randomPart(value)) continue;
    const before = text.slice(Math.max(0, at - 200), at);
    const open = before.lastIndexOf("{");
    if (open < 0 || before.includes("}", open)) continue;
    if (!USER_NAME_KEY.test(before.slice(open))) continue;
    credentialAt(edits, USER_KEY.lastIndex - 1 - value.length, value);
  }
}

/**
 * A secret id: Nomad's and Consul's ACL token (`Secret ID    = <uuid>`,
 * `SecretID: <uuid>`), Vault's AppRole `secret_id`. Only a UUID is the
 * secret (AWS's `SecretId` names one).
 */
const SECRET_ID_END = /secret[ _-]?id$/i;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Adds an edit for the UUID after a secret id's separator, if it is one. */
function secretIdValue(text: string, from: number, edits: Edits): void {
  const v = readValue(text, from);
  if (v && UUID.test(text.slice(v.start, v.end))) {
    edits.push({ start: v.start, end: v.end, id: "credential" });
  }
}

/**
 * Bundler's credentials for a gem host, set in the environment or
 * `.bundle/config`: `BUNDLE_GEMS__CONTRIBSYS__COM=user:pass` (the host's
 * dots written `__`). Build flags, local paths and mirrors are no hosts.
 */
const BUNDLE_HOST =
  /(?<![\w$])BUNDLE_(?!BUILD__|LOCAL__|MIRROR__)[A-Z0-9]+__[A-Z0-9_]+["']?[ \t]*[:=]/g;
/** A `user:password` pair, neither side blank nor a stand-in (`<user>:<pass>`). */
export const USER_PASS = /^[^\s:\/<>${}]+:[^\s:\/<>${}]{3,}$/;

/** Adds an edit for the credentials of each Bundler gem host. */
function bundlerHosts(text: string, edits: Edits): void {
  BUNDLE_HOST.lastIndex = 0;
  while (BUNDLE_HOST.exec(text) !== null) {
    const v = readValue(text, BUNDLE_HOST.lastIndex);
    if (!v) continue;
    const value = text.slice(v.start, v.end);
    if (isRedacted(value) || isReference(value) || isPlaceholder(value)) {
      continue;
    }
    if (USER_PASS.test(value) || keyLikeValue(value)) {
      edits.push({ start: v.start, end: v.end, id: "credential" });
    }
  }
}

/** A braced value of a connection string's pair, then the pair's end. */
const BRACED = /\{([^{}"'\s]{3,256})\}(?=[;"']|\s|$)/y;

/**
 * The secret of `password={…}` in a `;`-separated connection string (SQL
 * Server's, as Prisma and ADO.NET write it, braces escaping a `;`): the
 * pair follows a `;` (at `before`), and the text in braces is no name
 * (`{password}` of a format string).
 */
function bracedValue(
  text: string,
  open: number,
  before: number,
): { start: number; end: number } | null {
  if (text[before] !== ";") return null;
  BRACED.lastIndex = open;
  const m = BRACED.exec(text);
  if (!m || !credentialValueOk(m[1]!, false, false)) return null;
  return { start: open + 1, end: open + 1 + m[1]!.length };
}

/** cloud-init's `chpasswd:` then, in it, `list:` and a block or a list. */
const CHPASSWD_LIST =
  /chpasswd:[ \t]*\r?\n(?:[ \t]+\S[^\n]*\n){0,4}?([ \t]+)list:[ \t]*(?:\|[+-]?)?[ \t]*\r?\n/g;
/** A `user:password` line of the list, a YAML `- ` before it or not. */
const CHPASSWD_LINE = /^([ \t]+)(?:-[ \t]+)?[\w.@-]+:(\S+)[ \t]*\r?$/;

/**
 * Adds an edit for each password of cloud-init's `chpasswd: list:` lines
 * (`root:X`); `RANDOM` (cloud-init makes one up) stays.
 */
function chpasswdLists(text: string, edits: Edits): void {
  CHPASSWD_LIST.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = CHPASSWD_LIST.exec(text)) !== null) {
    const indent = m[1]!.length;
    let at = CHPASSWD_LIST.lastIndex;
    for (let lines = 0; at < text.length && lines < 64; lines++) {
      const nl = text.indexOf("\n", at);
      const end = nl < 0 ? text.length : nl;
      const line = CHPASSWD_LINE.exec(text.slice(at, end));
      if (!line || line[1]!.length <= indent) break;
      const value = line[2]!;
      if (!/^(?:RANDOM|R)$/.test(value)) {
        credentialAt(edits, at + line[0].lastIndexOf(value), value);
      }
      at = end + 1;
    }
  }
}

/** sbt's `Credentials("realm", "host", "user", "password")`: the fourth string. */
const SBT_CREDENTIALS =
  /\bCredentials\((?:[ \t]*"[^"\n]*"[ \t]*,){3}[ \t]*"([^"\n]{3,})"[ \t]*\)/g;

/** Adds an edit for the password of each sbt `Credentials(…)` of four strings. */
function sbtCredentials(text: string, edits: Edits): void {
  SBT_CREDENTIALS.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = SBT_CREDENTIALS.exec(text)) !== null) {
    const value = m[1]!;
    if (!credentialValueOk(value, true, false)) continue;
    credentialAt(edits, m.index + m[0].lastIndexOf(value), value);
  }
}

/**
 * A declared type, then `=` and a quote: `str = "`, `&str = "`, `&'static
 * str = "`, `Optional[str] = "`, `str | None = "`, `String = "`.
 */
const TYPE_THEN_VALUE =
  /&?(?:'static[ \t]+)?[A-Za-z_][\w.]*(?:\[[\w., |]{0,60}\]|<[\w., |]{0,60}>)?\??(?:[ \t]*\|[ \t]*None)?[ \t]*=(?![=>])[ \t]*(?=["'])/y;

/**
 * The quoted value of a typed declaration whose type starts at `at`
 * (pydantic's `api_key: str = "…"`, Rust's `const API_KEY: &str = "…"`,
 * Kotlin's and TypeScript's `apiKey: String = "…"`), or null.
 */
function typedValue(text: string, at: number): ValueSpan | null {
  TYPE_THEN_VALUE.lastIndex = at;
  if (!TYPE_THEN_VALUE.test(text)) return null;
  const v = readValue(text, TYPE_THEN_VALUE.lastIndex);
  return v?.quoted ? v : null;
}

/** A PowerShell cmdlet's name: `ConvertTo-SecureString`, `Read-Host`. */
const CMDLET = /^[A-Z][A-Za-z]+-[A-Z][A-Za-z]+$/;

/**
 * A sed substitution's head right before a key: `s/`, `s|^`, `'s#`, and
 * the indentation a pattern may match first (`s/^  `, `s/^\s*`, `s/^[ \t]*`).
 */
const SED_HEAD =
  /(?:^|[\s'";])s([\/|#:@!,])\^?(?:[ \t]+|\\s[*+]|\[ \\t\][*+])?$/;
/** The replacement's own separator: `KEY=`, `key: `. */
const REPLACEMENT_SEP = /[=:][ \t]*/;
/** A replacement's value in quotes, escaped or not: `"X"`, `\"X\"`. */
const QUOTED_REPLACEMENT = /^(\\?["'])(.*)\1$/;
/** What only a regex holds: `.*`, a class, an escape, an anchor, a group. */
const REGEX_PART = /[*+?\[\]\\^$(){}|]/;

/**
 * The end of the sed substitution whose pattern starts with the key at
 * `keyStart` (`s/^DB_PASSWORD=.*\/DB_PASSWORD=X/`), with an edit for each
 * value in it: the pattern's, unless it is a regex (`.*`), and the
 * replacement's after its own `=`. -1 when no sed head stands before the
 * key. `value` is right after the key's `=` or `:`.
 */
function sedSubstitution(
  text: string,
  keyStart: number,
  value: number,
  edits: Edits,
): number {
  const head = SED_HEAD.exec(text.slice(Math.max(0, keyStart - 16), keyStart));
  if (!head) return -1;
  const delimiter = head[1]!;
  const patternEnd = unescapedIndex(text, delimiter, value);
  if (patternEnd < 0) return -1;
  const pattern = text.slice(value, patternEnd).trimStart();
  if (!REGEX_PART.test(pattern) && credentialValueOk(pattern, false, true)) {
    edits.push({
      start: patternEnd - pattern.length,
      end: patternEnd,
      id: "credential",
    });
  }
  const end = unescapedIndex(text, delimiter, patternEnd + 1);
  if (end < 0) return patternEnd + 1;
  const replacement = text.slice(patternEnd + 1, end);
  const sep = REPLACEMENT_SEP.exec(replacement);
  let secret = sep ? replacement.slice(sep.index + sep[0].length) : "";
  // A quoted value (`api_key = \"X\"`): the quotes stay.
  const quote = QUOTED_REPLACEMENT.exec(secret);
  const close = quote ? quote[1]!.length : 0;
  if (quote) secret = quote[2]!;
  if (sep && sep.index > 0 && credentialValueOk(secret, false, true)) {
    const at = end - close - secret.length;
    edits.push({ start: at, end: at + secret.length, id: "credential" });
  }
  return end + 1;
}

/** The next `char` on the line from `from` that no backslash escapes, or -1. */
function unescapedIndex(text: string, char: string, from: number): number {
  for (let i = from; i < text.length && i - from < 512; i++) {
    const c = text[i]!;
    if (c === "\n") return -1;
    if (c === "\\") i++;
    else if (c === char) return i;
  }
  return -1;
}

/**
 * `git diff --word-diff`'s change of a value: `[-old-]{+new+}`, or either
 * alone. Groups 1 and 2 (or 3) are the old and new values.
 */
const WORD_DIFF =
  /\[-([^\n]{1,256}?)-\](?:\{\+([^\n]{1,256}?)\+\})?|\{\+([^\n]{1,256}?)\+\}/y;

/**
 * Adds an edit for each side of a word diff's change (`smtp_password:
 * [-old-]{+new+}`) after the credential `key`'s separator at `from`, each
 * judged as a value of its own.
 *
 * @returns True when a word diff stands there.
 */
function wordDiffValues(
  text: string,
  from: number,
  key: string,
  edits: Edits,
): boolean {
  let i = from;
  while (text[i] === " " || text[i] === "\t") i++;
  const open = text.slice(i, i + 2);
  if (open !== "[-" && open !== "{+") return false;
  WORD_DIFF.lastIndex = i;
  const m = WORD_DIFF.exec(text);
  if (!m) return false;
  // `[-` opens the old value; `{+` the new, after the old one's `-]`.
  const sides: Array<[string | undefined, number]> = [
    [m[1], i + 2],
    [m[2] ?? m[3], m[1] === undefined ? i + 2 : i + m[1].length + 6],
  ];
  for (const [side, at] of sides) {
    if (side === undefined) continue;
    let value = side;
    let start = at;
    if (/^(["']).+\1$/.test(value)) {
      value = value.slice(1, -1);
      start++;
    }
    if (!isPlainWord(value) && credentialValueOk(value, false, false, key)) {
      edits.push({ start, end: start + value.length, id: "credential" });
    }
  }
  return true;
}

/** A Google app password's four groups, then the line's end. */
const APP_GROUPS = /[a-z]{4}(?: [a-z]{4}){3}(?=[ \t]*(?:\r?\n|$))/y;
/** A key first on its line (a properties or env line), up to the key's end. */
const KEY_FIRST =
  /(?:^|\n)(?:[ \t]*\d{1,7}(?:→|\t|\. ))?[ \t]*[-+]?[ \t]*[\w.-]+$/;

/**
 * Whether a Google app password in four groups starts at `start`, the
 * value of a key that ends at `k` and starts its line; when it does,
 * {@linkcode APP_GROUPS}' `lastIndex` is its end.
 */
function appPasswordGroups(text: string, start: number, k: number): boolean {
  APP_GROUPS.lastIndex = start;
  return APP_GROUPS.test(text) &&
    KEY_FIRST.test(text.slice(Math.max(0, k - 80), k + 1));
}

/** A licence's env name (`SIDEKIQ_PRO_LICENSE`, `GRAPHQL_LICENCE`). */
const LICENSE_END = /(?:^|[^A-Za-z])[A-Z0-9_]*_LICEN[CS]E$/;

/**
 * Adds an edit for a licence key after an env-style `…_LICENSE` name whose
 * separator is at `at`: `user:key` (`282aba97:0054e2b7`) or a key-like
 * value; a licence's name (`MIT`, `Apache-2.0`) stays. Returns the value
 * it read, if any.
 */
function licenseValue(
  text: string,
  at: number,
  sep: string,
  k: number,
  edits: Edits,
): ValueSpan | null {
  if ((sep !== "=" && sep !== ":") || !envName(text, k)) return null;
  const v = readValue(text, at + 1);
  if (!v) return null;
  const value = text.slice(v.start, v.end);
  if (isRedacted(value) || isReference(value) || isPlaceholder(value)) {
    return v;
  }
  if (USER_PASS.test(value) || keyLikeValue(value)) {
    edits.push({ start: v.start, end: v.end, id: "credential" });
  }
  return v;
}

/** A value column's header after a tab (a table of tab-separated values). */
const TAB_VALUE_CUES = cueSet(["\tvalue", "\tValue", "\tVALUE"]);

/** Bare values longer than this are read once, with the keys inside them. */
const LONG_VALUE = 256;

/**
 * A colour code written out as text (a JSON string's `\u001b[32m`, a
 * shell's `\033[0m`): redact() strips only real escape bytes.
 */
const WRITTEN_COLOUR = /\\(?:u001b|x1b|033)\[[0-9;]*m/g;

/**
 * `text` with each written-out colour code blanked, the length kept (so
 * edits apply to `text`): a key and its `=` then meet across one.
 */
function withoutWrittenColours(text: string): string {
  return text.replace(WRITTEN_COLOUR, (code) => " ".repeat(code.length));
}

/**
 * Adds an edit for the value of each credential whose name has a qualifier
 * after its word (`DB_PASSWORD_PROD=…`, `"AUTH_TOKEN_EU": "…"`,
 * `dbPasswordProd: …`), judged as an unqualified name's value would be;
 * a plain word (`PASSWORD_DB=postgres`) stays. Names are looked for where
 * each cue the text holds stands.
 */
function qualifiedValues(text: string, edits: Edits): void {
  for (const cue of QUALIFIED_CUE_LIST) {
    if (!hasCue(text, cue)) continue;
    // A name inside a value read before is not read again (a long run of
    // them would read the rest of the run at each).
    let readTo = -1;
    for (
      let i = text.indexOf(cue);
      i >= 0;
      i = text.indexOf(cue, i + cue.length)
    ) {
      if (i < readTo) continue;
      QUALIFIED_KEY.lastIndex = i;
      if (!QUALIFIED_KEY.test(text)) continue;
      readTo = qualifiedValueAt(text, QUALIFIED_KEY.lastIndex - 1, edits);
    }
  }
}

/**
 * Adds an edit for the value after the qualified name whose separator is
 * at `at`, when the name drops to a credential's. Returns how far it read.
 */
function qualifiedValueAt(text: string, at: number, edits: Edits): number {
  // `==` compares; `=>` and `:=` are code.
  if (/[=>]/.test(text[at + 1] ?? "")) return at;
  let k = at - 1;
  while (/[ \t"'\]\\|?]/.test(text[k] ?? "")) k--;
  const named = text.slice(Math.max(0, k - 31), k + 1);
  const key = withoutQualifier(named);
  if (key === named || !CREDENTIAL_END.test(key)) return at;
  if (NOT_A_KEY.test(key) || PUBLIC_KEY.test(key)) return at;
  const v = readValue(text, at + 1);
  if (!v) return at;
  const value = text.slice(v.start, v.end);
  if (isPlainWord(value)) return v.end;
  const tight = text[at] === "=" && k === at - 1 && v.start === at + 1;
  const envLine = envLineKey(text, k);
  if (!credentialValueOk(value, v.quoted, tight, key, envLine)) return v.end;
  const end = !v.quoted && envLine ? bareEnd(text, v.end) : v.end;
  edits.push({ start: v.start, end, id: "credential" });
  return end;
}

/** Adds an edit for every secret assigned to a credential-named key. */
export function collectAssignments(input: string, edits: Edits): void {
  const text = hasCue(input, "1b[") || hasCue(input, "033[")
    ? withoutWrittenColours(input)
    : input;
  if (hasCue(text, '"key"')) userKeys(text, edits);
  if (hasCue(text, "_header") || hasCue(text, "RequestHeader")) {
    headerDirectives(text, edits);
  }
  xmlValues(text, edits);
  doubleEscaped(text, edits);
  phpDefines(text, edits);
  sensitiveValues(text, edits);
  if (hasCue(text, "alue")) nameValuePairs(text, edits);
  // Tables of keys and values print a Value header (vault, PowerShell,
  // pulumi); tab-separated ones a value column after a tab.
  if (hasCue(text, "Value") || hasCue(text, "VALUE")) {
    alignedValues(text, edits);
  }
  if (hasAnyCue(text, TAB_VALUE_CUES)) alignedValues(text, edits, "\t");
  setterCalls(text, edits);
  variableDefaults(text, edits);
  if (hasCue(text, 'variable "')) terraformDefaults(text, edits);
  if (hasCue(text, "│")) boxRows(text, edits);
  if (hasCue(text, "Credentials(")) sbtCredentials(text, edits);
  if (hasCue(text, "chpasswd:")) chpasswdLists(text, edits);
  if (hasCue(text, "BUNDLE_")) bundlerHosts(text, edits);
  if (hasAnyCue(text, QUALIFIED_CUES)) qualifiedValues(text, edits);
  ASSIGNMENT.lastIndex = 0;
  // A key inside a long bare value read before (`pwd=pwd=…`, a minified
  // bundle) is not read again: each would read, and test, the rest of the
  // run, quadratic in its length.
  let longValueEnd = -1;
  const readLong = (v: ValueSpan | null) => {
    if (v && !v.quoted && v.end - v.start > LONG_VALUE) longValueEnd = v.end;
  };
  let cookieRead = 0;
  // SealedSecret ciphertext is meant to be committed.
  const sealed = hasCue(text, "encryptedData");
  let m: RegExpExecArray | null;
  while ((m = ASSIGNMENT.exec(text)) !== null) {
    const at = m.index;
    if (at < longValueEnd) continue;
    let sep = separatorAt(text, at);
    // `::` joins a scope's names (`RandomPassword::db` in a Pulumi URN,
    // `Password::Hasher`): no separator.
    if (sep === ":" && text[at + 1] === ":") continue;
    if (sep.length > 1) ASSIGNMENT.lastIndex = at + sep.length;
    let k = at - 1;
    while (text[k] === " " || text[k] === "\t") k--;
    if (
      k === at - 1 && (text[k] === "|" || text[k] === "?") &&
      text[k - 1] === text[k]
    ) {
      k -= 2;
      while (text[k] === " " || text[k] === "\t") k--;
    }
    for (let q = 0; q < 2 && /["'\]]/.test(text[k] ?? ""); q++) {
      k--;
      while (text[k] === "\\") k--;
    }
    // A value that starts with `=` (`DB_PASS==x9…`, `?password==x9…`): no
    // comparison has an env name or a query parameter on its left.
    if (
      sep.startsWith("==") && k === at - 1 && /\S/.test(text[at + 2] ?? "") &&
      (envName(text, k) || "?&;".includes(text[k - keyLength(text, k)] || "_"))
    ) sep = "=";
    // An earlier replacement (`[redacted:cli-credential] :8000`) names
    // no key.
    if (
      text[k + 1] === "]" &&
      text.slice(Math.max(0, k - 39), k + 1).includes("[redacted:")
    ) continue;
    const key = text.slice(Math.max(0, k - 31), k + 1);
    if (sealed && inEncryptedData(text, at)) continue;
    if (AUTH_END.test(key)) {
      if (sep === ":" || sep === "=") {
        readLong(authorizationValue(text, at + 1, edits));
      }
      continue;
    }
    if (COOKIE_END.test(key)) {
      if (sep === ":" || sep === "=") {
        cookieRead = cookieValues(text, at + 1, cookieRead, edits);
      }
      continue;
    }
    const word = CREDENTIAL_END.exec(key);
    if (!word) {
      if (SECRET_ID_END.test(key)) secretIdValue(text, at + sep.length, edits);
      else if (LICENSE_END.test(key)) {
        readLong(licenseValue(text, at, sep, k, edits));
      } else readLong(envKeyValue(text, at, sep, k, key, edits));
      continue;
    }
    if (!NOT_A_KEY.test(key) && !PUBLIC_KEY.test(key)) {
      oldValueComment(text, at, edits);
    }
    // A shell parameter expansion (`${DB_PASSWORD:?message}`,
    // `${DB_PASSWORD:-default}`): the message is prose; a default is the
    // value, without its operator.
    if (text.startsWith("${", k - keyLength(text, k) - 1)) {
      expansionDefault(text, at, edits);
      continue;
    }
    // `--secret=…`, `--api-key=…`: a flag's value is the command-line
    // rule's to judge (`--secret=db-pass` names a secret).
    if (/(?:^|\s)--[\w-]+$/.test(key)) continue;
    // bypass=, oauth:, PublicKeyToken= (.NET assembly names) are no secrets.
    if (NOT_A_KEY.test(key) || PUBLIC_KEY.test(key)) continue;
    if (sep === "=" && text[at + 1] === "{") {
      const braced = bracedValue(text, at + 1, k - keyLength(text, k));
      if (braced) {
        edits.push({ ...braced, id: "credential" });
        continue;
      }
    }
    const keyStart = k - keyLength(text, k) + 1;
    // A sed substitution's pattern and replacement (`s/^KEY=.*/KEY=X/`).
    if (sep === "=" || sep === ":") {
      const after = sedSubstitution(text, keyStart, at + 1, edits);
      if (after >= 0) {
        ASSIGNMENT.lastIndex = Math.max(ASSIGNMENT.lastIndex, after);
        continue;
      }
    }
    if (wordDiffValues(text, at + sep.length, key, edits)) continue;
    let v = readValue(text, at + sep.length);
    // A word (or a marker) right after the closing quote (`expect
    // "password:"; send "X\r"`): the quotes pair the other way, the key
    // sits in a string.
    if (
      v?.quoted && (text[v.end] === '"' || text[v.end] === "'") &&
      /[\w$[]/.test(text[v.end + 1] ?? "")
    ) continue;
    if (sep === ":" && (!v || YAML_BLOCK.test(text.slice(v.start, v.end)))) {
      v = yamlValueBelow(text, at);
    }
    if (!v) continue;
    readLong(v);
    if (sep === ":" && !v.quoted) v = typedValue(text, v.start) ?? v;
    const value = text.slice(v.start, v.end);
    // PowerShell runs a bare word: `$pw = ConvertTo-SecureString "…"`.
    if (!v.quoted && text[keyStart - 1] === "$" && CMDLET.test(value)) continue;
    // Go's test log (`--- PASS: TestLogin/valid_user`) names a test.
    if (
      /(?:^|[\s-])PASS$/.test(key) &&
      /^(?:Test|Benchmark|Example|Fuzz)/.test(value)
    ) continue;
    if (sep.startsWith("==") && !v.quoted) continue;
    if (
      AWS_END.test(key) && /^[A-Za-z0-9\/+=]{16,}$/.test(value) &&
      !isHexLike(value)
    ) {
      edits.push({ start: v.start, end: v.end, id: "aws-secret" });
      continue;
    }
    // An ARN names a secret (arn:aws:secretsmanager:…:secret:name).
    if (IN_ARN.test(text.slice(Math.max(0, k - 120), k + 1))) continue;
    // A passphrase or seed phrase on an env line runs to the line's end.
    if (
      !v.quoted && PHRASE_KEY.test(key) && envLineKey(text, k) &&
      phraseToLineEnd(text, v.start, edits)
    ) continue;
    // KEY=value with no blanks, as in .env files and shell.
    const tight = sep === "=" && k === at - 1 && v.start === at + 1;
    const envLine = envLineKey(text, k) && (sep === "=" || sep === ":");
    // A Google app password as Google shows it, on a properties or env
    // line (`spring.mail.password=abcd efgh ijkl mnop`): all four groups.
    if (!v.quoted && appPasswordGroups(text, v.start, k)) {
      edits.push({
        start: v.start,
        end: APP_GROUPS.lastIndex,
        id: "credential",
      });
      continue;
    }
    if (credentialValueOk(value, v.quoted, tight, key, envLine)) {
      // A whole env line (`KEY=v&x=y`, an `env` dump, `KEY = a(b)c`): the
      // value is the rest of the line up to a blank, `&`, `)` or not.
      const end = !v.quoted && envLine ? bareEnd(text, v.end) : v.end;
      edits.push({ start: v.start, end, id: "credential" });
    }
  }
}
