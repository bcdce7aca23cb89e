/**
 * Credentials code hands a library call by position, where no key names
 * them: `server.login("me@acme.io", X)`, `new PDO(dsn, "root", X)`,
 * `DriverManager.getConnection(url, "scott", X)`, `jwt.sign(payload, X)`,
 * `.basic_auth("u", Some(X))`, `btoa("admin:X")`, `cookieSession({ keys:
 * [X] })`; and the value an SQL `INSERT` puts in a password's column by
 * position. Each call is found behind a literal cue; its arguments are read
 * (strings, brackets and nesting skipped) to the one the secret takes, and
 * only a string literal there is judged: a variable, an env read or a
 * format string in that place stays.
 *
 * @module
 */
import { type Cue, cueSet, hasAnyCue, hasCue } from "./_cues.ts";
import { credentialName, keyLikeValue } from "./_assignments.ts";
import {
  type Edits,
  isEmail,
  isPathLike,
  isPlaceholder,
  isPlainWord,
  isRedacted,
  isReference,
  isTypeWord,
} from "./_scan.ts";

/** A span of the text. */
interface Span {
  start: number;
  end: number;
}

/** How far an argument list is read before it is given up. */
const ARGUMENTS_REACH = 400;
/** A list of more arguments is passed over (no call here takes as many). */
const MAX_ARGUMENTS = 6;

/** An argument list as read: each argument, and where the list ends. */
interface ArgumentList {
  args: Span[];
  /** Right after the closing bracket (or line break). */
  end: number;
}

/**
 * The arguments of the list that starts at `from` (right after its `(` or
 * `[`) up to `close` at depth 0, each without its surrounding blanks; null
 * when the list does not close within `reach` characters or `most`
 * arguments. Strings (with their escapes) and nested brackets are passed
 * over. A list that closes at its line's end (Groovy's
 * `buildConfigField "String", …`) takes `\n` as `close`.
 */
function argumentsAt(
  text: string,
  from: number,
  close: string,
  most = MAX_ARGUMENTS,
  reach = ARGUMENTS_REACH,
): ArgumentList | null {
  const args: Span[] = [];
  const limit = Math.min(text.length, from + reach);
  let depth = 0;
  let start = from;
  for (let i = from; i < limit; i++) {
    const c = text[i]!;
    if (c === '"' || c === "'" || c === "`") {
      let j = i + 1;
      while (j < limit && text[j] !== c && text[j] !== "\n") {
        j += text[j] === "\\" ? 2 : 1;
      }
      if (j >= limit || text[j] !== c) return null;
      i = j;
    } else if (c === "(" || c === "[" || c === "{") depth++;
    else if (depth > 0 && (c === ")" || c === "]" || c === "}")) depth--;
    else if (depth === 0 && (c === close || c === "," || c === ")")) {
      args.push(trimmed(text, start, i));
      if (c !== ",") return c === close ? { args, end: i + 1 } : null;
      if (args.length === most) return null;
      start = i + 1;
    }
  }
  // A list that ends with its line ends with the text too.
  if (close !== "\n" || limit < text.length || depth > 0) return null;
  args.push(trimmed(text, start, limit));
  return { args, end: limit };
}

/** `[start, end)` less the blanks and line breaks at either end. */
function trimmed(text: string, start: number, end: number): Span {
  while (start < end && /\s/.test(text[start]!)) start++;
  while (end > start && /\s/.test(text[end - 1]!)) end--;
  return { start, end };
}

/**
 * What may stand before one string literal that is a whole argument: a
 * prefix (`b"…"`, `r"…"`, `@"…"`), Rust's `Some(`.
 */
const LITERAL_HEAD = /^(?:Some\([ \t]*)?[bru@]?(?=["'`])/;
/** And after it: a conversion (`.to_string()`, `.toCharArray()`), `)`. */
const LITERAL_TAIL = /^(?:\.\w+\([\w.]*\))?(?:[ \t]*\))?$/;

/** The text of the string literal that is the whole `arg`, or null. */
function literalIn(text: string, arg: Span): Span | null {
  const s = text.slice(arg.start, arg.end);
  const head = LITERAL_HEAD.exec(s);
  if (!head) return null;
  const open = head[0].length;
  const quote = s[open];
  let i = open + 1;
  while (i < s.length && s[i] !== quote) i += s[i] === "\\" ? 2 : 1;
  if (i >= s.length || !LITERAL_TAIL.test(s.slice(i + 1))) return null;
  return { start: arg.start + open + 1, end: arg.start + i };
}

/** An env-style name: `DB_PASSWORD`, `STRIPE_KEY`. */
const ENV_NAME = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/;
/** A Google app password as Google shows it: `abcd efgh ijkl mnop`. */
const APP_PASSWORD = /^[a-z]{4} [a-z]{4} [a-z]{4} [a-z]{4}$/;
/** Interpolation or a format verb: `${pw}`, `#{pw}`, `{}`, `%s`. */
const TEMPLATE = /\$\{|#\{|\{\d*\}|%[sdv]/;

/**
 * Whether a literal in a password's place is one: no stand-in, reference,
 * template, word, env name, path, address or prose; a Google app
 * password's four groups count.
 */
function passwordLiteral(value: string): boolean {
  if (value.length < 4 || value.length > 256) return false;
  if (isRedacted(value) || isReference(value) || isPlaceholder(value)) {
    return false;
  }
  if (isTypeWord(value) || TEMPLATE.test(value)) return false;
  if (APP_PASSWORD.test(value)) return true;
  if (/\s/.test(value) || isPlainWord(value) || ENV_NAME.test(value)) {
    return false;
  }
  return !isPathLike(value) && !value.includes("://") && !isEmail(value);
}

/** Whether a literal in a key's place is one: 32+ hex digits or a random run. */
function keyLiteral(value: string): boolean {
  return !isRedacted(value) && keyLikeValue(value);
}

/** Whether a literal in a secret's place is a password or a key. */
function secretLiteral(value: string): boolean {
  return passwordLiteral(value) || keyLiteral(value);
}

/** A call that takes a secret by position. */
interface CallForm {
  /** The literal the text must hold. */
  cue: Cue;
  /** The call's name up to its `(` (global). */
  call: RegExp;
  /** The secret's argument, from 0; -1 for the last. */
  slot: number;
  /** The most arguments the call takes in this form. */
  arity?: number;
  /** Whether a literal there is the secret. */
  judge: (value: string) => boolean;
}

/**
 * The calls, the place of the secret, and how it is judged: smtplib's,
 * imaplib's and ftplib's `login(user, X)`, pika's `PlainCredentials(user,
 * X)`, .NET's `NetworkCredential(user, X)`, JavaMail's
 * `PasswordAuthentication(user, X)`, PHP's `new PDO(dsn, user, X)` and
 * `mysqli_connect(host, user, X, db)`, Perl's `DBI->connect(dsn, user, X)`,
 * JDBC's `DriverManager.getConnection(url, user, X)`, Go's
 * `smtp.PlainAuth(id, user, X, host)` and `SetBasicAuth(user, X)`,
 * `basic_auth(user, X)` (reqwest's `Some(X)`), a builder's
 * `.password(X)`/`setPassword(X)`, Redis' `auth([user,] X)` (Lua, Jedis,
 * node), python-ldap's `simple_bind_s(dn, X)`, Algolia's
 * `algoliasearch(appId, KEY)`, a JWT library's `sign`/`verify`/`encode`/
 * `decode(payload, X)`, `Algorithm.HMAC256(X)`, `EncodingKey::from_secret(X)`,
 * Go's static credentials `NewStaticV4(id, X, token)`.
 */
const CALL_FORMS: readonly CallForm[] = [
  { cue: "login(", call: /\.login\(/g, slot: 1, judge: passwordLiteral },
  {
    cue: "Credentials(",
    call: /\b(?:Plain|UsernamePassword)Credentials\(/g,
    slot: 1,
    judge: passwordLiteral,
  },
  {
    cue: "Credential(",
    call: /\bNetworkCredential\(/g,
    slot: 1,
    judge: passwordLiteral,
  },
  {
    cue: "dAuth",
    call: /\bPasswordAuthentication\(/g,
    slot: 1,
    judge: passwordLiteral,
  },
  { cue: "PDO(", call: /\bPDO\(/g, slot: 2, judge: passwordLiteral },
  {
    cue: "nnect",
    call:
      /(?:\bmysqli?_p?connect|\bDBI->connect(?:_cached)?|\b(?:pymysql|MySQLdb)\.connect)\(/g,
    slot: 2,
    judge: passwordLiteral,
  },
  { cue: "sqli(", call: /\bmysqli\(/g, slot: 2, judge: passwordLiteral },
  {
    cue: "nnect",
    call: /\bDriverManager\.getConnection\(/g,
    slot: 2,
    judge: passwordLiteral,
  },
  { cue: "Auth(", call: /\bPlainAuth\(/g, slot: 2, judge: secretLiteral },
  {
    cue: "Auth(",
    call: /\bSetBasicAuth\(/g,
    slot: 1,
    judge: secretLiteral,
  },
  {
    cue: "auth(",
    call: /\bbasic_auth\(/g,
    slot: 1,
    judge: secretLiteral,
  },
  {
    cue: "word(",
    call: /\.(?:set_?|with_?)?[Pp]assword\(/g,
    slot: 0,
    arity: 1,
    judge: passwordLiteral,
  },
  {
    cue: "auth(",
    call: /[.:]auth\(/g,
    slot: -1,
    arity: 2,
    judge: secretLiteral,
  },
  {
    cue: "bind",
    call: /\b(?:simple_bind(?:_s)?|bind_s)\(/g,
    slot: 1,
    judge: passwordLiteral,
  },
  {
    cue: "golia",
    call: /\balgoliasearch\(/g,
    slot: 1,
    judge: keyLiteral,
  },
  {
    cue: "jwt.",
    call: /\b(?:jwt|jsonwebtoken)\.(?:sign|verify|encode|decode)\(/g,
    slot: 1,
    judge: secretLiteral,
  },
  {
    cue: "JWT",
    call: /\bJWT(?:\.|::)(?:encode|decode)\(/g,
    slot: 1,
    judge: secretLiteral,
  },
  {
    cue: "HMAC",
    call: /\bAlgorithm\.HMAC(?:256|384|512)\(/g,
    slot: 0,
    arity: 1,
    judge: secretLiteral,
  },
  {
    cue: "_secret(",
    call: /\b(?:Encoding|Decoding)Key::from_secret\(/g,
    slot: 0,
    arity: 1,
    judge: secretLiteral,
  },
  {
    cue: "Static",
    call: /\bNewStatic(?:V4|Credentials(?:Provider)?)\(/g,
    slot: 1,
    judge: keyLiteral,
  },
];

/** Adds an edit for the secret literal of each call of `form`. */
function callSecrets(text: string, form: CallForm, edits: Edits): void {
  form.call.lastIndex = 0;
  while (form.call.exec(text) !== null) {
    const args = argumentsAt(text, form.call.lastIndex, ")")?.args;
    if (!args || (form.arity !== undefined && args.length > form.arity)) {
      continue;
    }
    const arg = args[form.slot < 0 ? args.length - 1 : form.slot];
    const literal = arg && literalIn(text, arg);
    if (literal && form.judge(text.slice(literal.start, literal.end))) {
      edits.push({ ...literal, id: "credential" });
    }
  }
}

/**
 * A `user:password` pair encoded for Basic auth in code: `btoa("u:X")`,
 * Python's `b64encode(b"u:X")`.
 */
const ENCODE_CALL = /\b(?:btoa|b64encode)\(/g;

/** Adds an edit for the password of each pair encoded for Basic auth. */
function encodedPairs(text: string, edits: Edits): void {
  ENCODE_CALL.lastIndex = 0;
  while (ENCODE_CALL.exec(text) !== null) {
    const args = argumentsAt(text, ENCODE_CALL.lastIndex, ")")?.args;
    const literal = args?.length === 1 ? literalIn(text, args[0]!) : null;
    if (!literal) continue;
    const pair = text.slice(literal.start, literal.end);
    const colon = pair.indexOf(":");
    if (colon < 1 || /\s/.test(pair.slice(0, colon))) continue;
    if (!secretLiteral(pair.slice(colon + 1))) continue;
    edits.push({
      start: literal.start + colon + 1,
      end: literal.end,
      id: "credential",
    });
  }
}

/**
 * Android's build fields and resources, the name then the value:
 * `buildConfigField("String", "API_KEY", "\"X\"")`, Groovy's
 * `buildConfigField "String", "API_KEY", '"X"'`, `resValue("string",
 * "maps_api_key", "X")`.
 */
const BUILD_FIELD =
  /\b(?:buildConfigField|resValue)(?:[ \t]*\(|[ \t]+(?=["']))/g;
/** A value quoted again inside its literal: `\"X\"`, `"X"`. */
const REQUOTED = /^(\\?["'])(.*)\1$/;

/** Adds an edit for each build field's value a credential name names. */
function buildFields(text: string, edits: Edits): void {
  BUILD_FIELD.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = BUILD_FIELD.exec(text)) !== null) {
    const close = m[0].endsWith("(") ? ")" : "\n";
    const args = argumentsAt(text, BUILD_FIELD.lastIndex, close)?.args;
    if (!args || args.length !== 3) continue;
    const name = literalIn(text, args[1]!);
    const value = literalIn(text, args[2]!);
    if (!name || !value) continue;
    const field = text.slice(name.start, name.end);
    if (!credentialName(field) && !/_KEY$/i.test(field)) continue;
    let { start, end } = value;
    const inner = REQUOTED.exec(text.slice(start, end));
    if (inner) {
      start += inner[1]!.length;
      end -= inner[1]!.length;
    }
    if (secretLiteral(text.slice(start, end))) {
      edits.push({ start, end, id: "credential" });
    }
  }
}

/**
 * The keys a session cookie is signed with: `cookieSession({ keys: [X] })`,
 * Koa's `app.keys = [X]`, `new Keygrip([X])`. The list opens after it.
 */
const KEY_LIST = /(?:\bkeys[ \t]*:|\bapp\.keys[ \t]*=|\bKeygrip\()[ \t]*\[/g;
/** Shorter keys are the docs' examples (`keys: ["key1", "key2"]`). */
const MIN_COOKIE_KEY = 8;
/** A session middleware's call, before its `keys:`. */
const SESSION_CALL = /ession\(/;

/** Adds an edit for each literal key a session cookie is signed with. */
function cookieKeys(text: string, edits: Edits): void {
  KEY_LIST.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = KEY_LIST.exec(text)) !== null) {
    if (
      m[0].startsWith("keys") &&
      !SESSION_CALL.test(text.slice(Math.max(0, m.index - 200), m.index))
    ) continue;
    const items = argumentsAt(text, KEY_LIST.lastIndex, "]")?.args;
    for (const item of items ?? []) {
      const literal = literalIn(text, item);
      if (!literal || literal.end - literal.start < MIN_COOKIE_KEY) continue;
      if (secretLiteral(text.slice(literal.start, literal.end))) {
        edits.push({ ...literal, id: "credential" });
      }
    }
  }
}

/** `INSERT INTO table (`: its column list follows. */
const INSERT_HEAD =
  /\b(?:INSERT|insert)[ \t]+(?:INTO|into)[ \t]+[\w."`\[\]]{1,128}[ \t]*\(/g;
/** The `VALUES (` after the column list, and a further row's `, (`. */
const VALUES_OPEN = /\s*(?:VALUES|values)\s*\(/y;
const NEXT_ROW = /\s*,\s*\(/y;
/** Columns of an INSERT read at most, and how far its column list is read. */
const MAX_COLUMNS = 64;
const COLUMNS_REACH = 2048;
/** A function of a literal: `crypt('X', gen_salt('bf'))`, `MD5('X')`. */
const FUNCTION_OF_LITERAL = /^[A-Za-z_]\w*\([ \t]*(['"])([^'"\n]*)\1/;
/** A hash the password-hash rule names: crypt's `$2b$…`, Django's `pbkdf2_…`. */
const HASH_HEAD = /^(?:\$|pbkdf2[_:]|scrypt:|argon2)/;

/**
 * Adds an edit for each value an `INSERT … (cols) VALUES (…), (…)` puts in
 * a credential-named column (`(email, password) VALUES ('a@b.io', 'X')`):
 * the literal, or the literal a function hashes (`crypt('X', …)`).
 */
function insertedValues(text: string, edits: Edits): void {
  INSERT_HEAD.lastIndex = 0;
  while (INSERT_HEAD.exec(text) !== null) {
    const columns = argumentsAt(
      text,
      INSERT_HEAD.lastIndex,
      ")",
      MAX_COLUMNS,
      COLUMNS_REACH,
    );
    if (!columns) continue;
    const secret = columns.args.map((c) =>
      credentialName(text.slice(c.start, c.end).replace(/["`\[\]]/g, ""))
    );
    if (!secret.includes(true)) continue;
    VALUES_OPEN.lastIndex = columns.end;
    let row = VALUES_OPEN.test(text) ? VALUES_OPEN.lastIndex : -1;
    while (row >= 0) {
      const values = argumentsAt(text, row, ")", MAX_COLUMNS, COLUMNS_REACH);
      if (!values) break;
      values.args.forEach((v, i) => {
        if (secret[i]) insertedSecret(text, v, edits);
      });
      // The rows read are not read again for another head.
      INSERT_HEAD.lastIndex = values.end;
      NEXT_ROW.lastIndex = values.end;
      row = NEXT_ROW.test(text) ? NEXT_ROW.lastIndex : -1;
    }
  }
}

/** Adds an edit for the password `value` (a column's) holds, if any. */
function insertedSecret(text: string, value: Span, edits: Edits): void {
  let literal = literalIn(text, value);
  if (!literal) {
    const call = FUNCTION_OF_LITERAL.exec(text.slice(value.start, value.end));
    if (!call) return;
    const start = value.start + call[0].length - 1 - call[2]!.length;
    literal = { start, end: start + call[2]!.length };
  }
  const secret = text.slice(literal.start, literal.end);
  if (!HASH_HEAD.test(secret) && secretLiteral(secret)) {
    edits.push({ ...literal, id: "credential" });
  }
}

/**
 * A browser test's typing call: Playwright's `fill`/`type`/
 * `pressSequentially`, Cypress' `type`, Selenium's `send_keys`/`sendKeys`,
 * WebdriverIO's `setValue`.
 */
const TYPING_CALL =
  /\.(?:fill|type|send_keys|sendKeys|press_?[Ss]equentially|setValue)\(/g;
/**
 * A password word in a field's selector or label (`#password`,
 * `input[name="new-password"]`, `getByLabel('Password')`, `passwordInput`),
 * not in a longer word (`passenger`, `bypass`, `Passport`).
 */
const PASSWORD_FIELD =
  /(?:\b[Pp]ass|(?<=[a-z])Pass)(?:word|wd|phrase|code)?(?![a-z])/;
/**
 * The locator a typing call is chained to names a password field, right
 * before the call: `getByLabel('Password')`, `cy.get('#password')`,
 * `find_element(By.ID, "password")`, `findElement(By.name("password"))`,
 * `locator('#password').clear()`.
 */
const PASSWORD_RECEIVER = new RegExp(
  PASSWORD_FIELD.source + String.raw`[^\n()]{0,60}\)\)?(?:\.\w+\(\))*$`,
);
/** How far before a typing call its locator is looked for. */
const RECEIVER_REACH = 160;

/**
 * Adds an edit for each password literal a browser test types into a
 * password field: `page.fill('#password', X)`, `cy.get('#password').type(X)`,
 * `getByLabel('Password').fill(X)`, `find_element(By.ID,
 * 'password').send_keys(X)`. A variable or an env read there stays.
 */
function typedPasswords(text: string, edits: Edits): void {
  TYPING_CALL.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = TYPING_CALL.exec(text)) !== null) {
    const args = argumentsAt(text, TYPING_CALL.lastIndex, ")", 3)?.args;
    if (!args || args.length === 0) continue;
    // The selector first, then the value: page.fill('#password', X).
    const selector = literalIn(text, args[0]!);
    let value = selector && args.length > 1 &&
        PASSWORD_FIELD.test(text.slice(selector.start, selector.end))
      ? literalIn(text, args[1]!)
      : null;
    if (!value && selector) {
      const line = text.lastIndexOf("\n", m.index) + 1;
      const before = text.slice(
        Math.max(line, m.index - RECEIVER_REACH),
        m.index,
      );
      if (PASSWORD_RECEIVER.test(before)) value = selector;
    }
    if (value && passwordLiteral(text.slice(value.start, value.end))) {
      edits.push({ ...value, id: "credential" });
    }
  }
}

/** Every call form's cue: one look tells whether any form may stand. */
const CALL_CUES = cueSet(CALL_FORMS.map((form) => form.cue));

/** Adds an edit for each secret literal a call takes by position. */
export function collectCallArguments(text: string, edits: Edits): void {
  // Groovy's build fields and Koa's `app.keys = [` need no parenthesis.
  if (
    hasCue(text, "igField") ||
    (hasCue(text, "Value") && text.includes("resValue"))
  ) buildFields(text, edits);
  if (
    hasCue(text, "keys") &&
    (text.includes("ession(") || text.includes("app.keys") ||
      text.includes("Keygrip("))
  ) cookieKeys(text, edits);
  // Every other form opens a list: most texts hold none.
  if (!hasCue(text, "(")) return;
  if (hasAnyCue(text, CALL_CUES)) {
    for (const form of CALL_FORMS) {
      if (hasCue(text, form.cue)) callSecrets(text, form, edits);
    }
  }
  if (hasCue(text, "btoa(") || hasCue(text, "b64e")) encodedPairs(text, edits);
  if (
    (hasCue(text, "pass") || hasCue(text, "Pass")) &&
    (hasCue(text, "fill(") || hasCue(text, "type(") ||
      hasCue(text, "_keys(") || hasCue(text, "Keys(") ||
      text.includes("setValue("))
  ) typedPasswords(text, edits);
  if (
    hasCue(text, "INSERT") || (hasCue(text, "into") && text.includes("insert"))
  ) insertedValues(text, edits);
}
