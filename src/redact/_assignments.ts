/**
 * Values assigned to keys: a `:` or `=` that a credential word precedes
 * (checked by lookbehind, so the scan stops only there), then the key decides
 * the rule: Authorization → bearer, Cookie → cookie, AWS secret names →
 * aws-secret, any other credential word → credential.
 *
 * @module
 */
import {
  continuedRun,
  type Edits,
  gutterLength,
  isHexLike,
  isPathLike,
  isPlaceholder,
  isPlainWord,
  isRedacted,
  isReference,
  isTypeWord,
  readValue,
  SENTENCE_END,
  type ValueSpan,
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
  "api[_-]?key",
  "access[_-]?key",
  "secret[_-]?key",
  "secret[_-]?key[_-]?base",
  "private[_-]?key",
  "private[_-]?key[_-]?id",
  "signing[_-]?key",
  "encryption[_-]?key",
  "master[_-]?key",
  "(?:app|application|admin|service|license)[_-]?key",
  "[_-]pat",
  "tf_token_[a-z0-9_]+",
  "auth[_-]?key",
  "subscription[_-]?key",
  "credentials?",
  "auth",
  "(?<![a-z])pw",
  "mnemonic",
  "(?:seed|recovery)[_-]?phrase",
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
  "pat",
  "mnemonic",
  "phrase",
  "tf_token_[a-z0-9_]+",
  "auth",
  "credentials?",
  "authorization",
  "cookie",
  ...OTHER_WORDS,
];
const ASSIGNMENT = new RegExp(
  `(?<=(?:${SCAN_STEMS.join("|")})(?:\\\\?["'\\]]){0,2}[ \\t]*)[:=：＝]`,
  "gi",
);
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
const COOKIE_PAIR = /([^\s=;,"'\\]+)=([^;\s"'\\]*)/g;
const SESSIONISH =
  /sess|sid|token|auth|jwt|csrf|xsrf|remember|login|secret|cred|key|^__(?:host|secure)-|identity|access|refresh/i;

/** The separator at `at` and its length: `:`, `=`, `:=`, `=>`, `==`, `===`. */
function separatorAt(text: string, at: number): string {
  const two = text.slice(at, at + 3);
  if (two.startsWith("===")) return "===";
  if (/^(?::=|=>|==)/.test(two)) return two.slice(0, 2);
  return text[at]!;
}

/** Keys of a wallet's seed phrase (`MNEMONIC`, `SEED_PHRASE`). */
const SEED_KEY = /(?:mnemonic|(?:seed|recovery)[_-]?phrase)$/i;

/** Decides whether the value after `key<sep>` is a secret worth replacing. */
function credentialValueOk(
  raw: string,
  quoted: boolean,
  tight: boolean,
  key = "",
): boolean {
  // "auth: required." ends a sentence; the period is no part of a word.
  const value = quoted || tight ? raw : raw.replace(SENTENCE_END, "");
  if (value.length < 3 || isRedacted(value) || isReference(value)) return false;
  if (isPlaceholder(value) || isTypeWord(value)) return false;
  if (quoted) {
    // A wallet's seed phrase is words and blanks: 12 or more of them.
    if (SEED_KEY.test(key)) return value.trim().split(/\s+/).length >= 12;
    // UI labels and prose in a string: "Enter your password".
    return !(/\s/.test(value) && /^[\p{L}\s,.'!?:-]+$/u.test(value));
  }
  if (isPathLike(value) || /^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return false;
  if (/^[0-9]{1,5}$/.test(value)) return false;
  // Code: calls, indexing, generics, member access, references.
  if (/[()[\]{}<>]/.test(value)) return false;
  // Member access (process.env.KEY, req.body.password) is code, unless a
  // part of it reads as random: a token with dots (ab12.Cd34Ef…).
  if (
    /^[&*]*[A-Za-z_$][\w$]*(?:(?:\.|::|->)[A-Za-z_$][\w$]*)+$/.test(value) &&
    !value.split(/\.|::|->/).some(randomPart)
  ) {
    return false;
  }
  if (/^[&*]+[A-Za-z_]\w*$/.test(value)) return false;
  if (/^[\p{L}_]+$/u.test(value)) {
    // `password: str` and `token = token` are code; an env-style KEY=word
    // with no blanks is a real assignment.
    if (!tight) return false;
    return !KEY_WORD_IN_VALUE.test(value);
  }
  return true;
}

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

function authorizationValue(text: string, from: number, edits: Edits): void {
  let i = from;
  while (text[i] === " " || text[i] === "\t") i++;
  if (text[i] === "\\") i++;
  if (text[i] === '"' || text[i] === "'" || text[i] === "`") i++;
  const scheme = SCHEME_FIRST.exec(text.slice(i, i + 20));
  if (scheme) i += scheme[0].length;
  const v = readValue(text, i);
  if (!v) return;
  const value = text.slice(v.start, v.end);
  if (value.length < 3 || isRedacted(value)) return;
  if (isReference(value) || isPlaceholder(value)) return;
  // No scheme: "Authorization: required" is prose; a token is not a word.
  if (scheme ? isTypeWord(value) : isPlainWord(value) || value.length < 8) {
    return;
  }
  // A value split by a shell line continuation goes whole.
  const more = continuedRun(text, v.end);
  edits.push({ start: v.start, end: more?.end ?? v.end, id: "bearer" });
}

function cookieValues(text: string, from: number, edits: Edits): void {
  let i = from;
  while (text[i] === " " || text[i] === "\t") i++;
  if (text[i] === "\\") i++;
  if (text[i] === '"' || text[i] === "'") i++;
  // A cookie header is one line; 4 KiB of it is plenty and bounds the work.
  let to = text.indexOf("\n", i);
  if (to < 0 || to - i > 4096) to = Math.min(text.length, i + 4096);
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
  if (text.includes('value="')) {
    XML_KEY_VALUE.lastIndex = 0;
    let kv: RegExpExecArray | null;
    while ((kv = XML_KEY_VALUE.exec(text)) !== null) {
      const value = kv[1]!;
      credentialAt(edits, kv.index + kv[0].length - 1 - value.length, value);
    }
  }
  if (!text.includes("</")) return;
  XML_ELEMENT.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = XML_ELEMENT.exec(text)) !== null) {
    credentialAt(edits, m.index + m[1]!.length + 2, m[2]!);
  }
}

const IN_ARN = /\barn:[\w-]+:[\w-]+:[\w-]*:\d*:[^\s"']*$/;
const ENV_LINE = /(?:^|\n)[ \t]*(?:export[ \t]+)?[A-Z_][A-Z0-9_]*$/;

/**
 * Whether the key ending at `k` starts its line as an env variable does
 * (upper case: a form body's `client_secret=…&grant_type=…` is a query).
 */
function envLineKey(text: string, k: number): boolean {
  return ENV_LINE.test(text.slice(Math.max(0, k - 80), k + 1));
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
  if (!text.includes('\\\\\\"')) return;
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
  if (!text.includes("define(")) return;
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
  const lineStart = text.lastIndexOf("\n", at) + 1;
  if (at - lineStart > 80 || !GROOVY_HEAD.test(text.slice(lineStart, at))) {
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
  if (!text.includes('"sensitive"')) return;
  SENSITIVE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = SENSITIVE.exec(text)) !== null) {
    const open = text.lastIndexOf("{", m.index);
    const close = text.indexOf("}", m.index);
    if (open < 0 || close < 0) continue;
    const value = JSON_STRING_VALUE.exec(text.slice(open, close));
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

/** Adds an edit for every secret assigned to a credential-named key. */
export function collectAssignments(text: string, edits: Edits): void {
  xmlValues(text, edits);
  doubleEscaped(text, edits);
  phpDefines(text, edits);
  sensitiveValues(text, edits);
  ASSIGNMENT.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = ASSIGNMENT.exec(text)) !== null) {
    const at = m.index;
    const sep = separatorAt(text, at);
    if (sep.length > 1) ASSIGNMENT.lastIndex = at + sep.length;
    let k = at - 1;
    while (text[k] === " " || text[k] === "\t") k--;
    for (let q = 0; q < 2 && /["'\]]/.test(text[k] ?? ""); q++) {
      k--;
      while (text[k] === "\\") k--;
    }
    const key = text.slice(Math.max(0, k - 31), k + 1);
    if (AUTH_END.test(key)) {
      if (sep === ":" || sep === "=") authorizationValue(text, at + 1, edits);
      continue;
    }
    if (COOKIE_END.test(key)) {
      if (sep === ":" || sep === "=") cookieValues(text, at + 1, edits);
      continue;
    }
    const word = CREDENTIAL_END.exec(key);
    if (!word) continue;
    // `--secret=…`, `--api-key=…`: a flag's value is the command-line
    // rule's to judge (`--secret=db-pass` names a secret).
    if (/(?:^|\s)--[\w-]+$/.test(key)) continue;
    // bypass=, oauth:, PublicKeyToken= (.NET assembly names) are no secrets.
    if (NOT_A_KEY.test(key) || PUBLIC_KEY.test(key)) continue;
    let v = readValue(text, at + sep.length);
    if (sep === ":" && (!v || YAML_BLOCK.test(text.slice(v.start, v.end)))) {
      v = yamlValueBelow(text, at);
    }
    if (!v) continue;
    const value = text.slice(v.start, v.end);
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
    // KEY=value with no blanks, as in .env files and shell.
    const tight = sep === "=" && k === at - 1 && v.start === at + 1;
    if (credentialValueOk(value, v.quoted, tight, key)) {
      // A whole env line (`KEY=v&x=y`, an `env` dump): the value is the
      // rest of the line up to a blank, `&` or not.
      const end = !v.quoted && tight && envLineKey(text, k)
        ? bareEnd(text, v.end)
        : v.end;
      edits.push({ start: v.start, end, id: "credential" });
    }
  }
}
