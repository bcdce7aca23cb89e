/**
 * The literal strings the redaction rules' gates look for in a whole text,
 * found in one scan. A gate asked `text.includes(cue)` once per rule: some
 * sixty scans of every text, over half of what redact() cost on a cold
 * index pass. One pass of an Aho–Corasick automaton over the text answers
 * them all, exactly as `includes` would.
 *
 * @module
 */

/** Audit 16: a credential word joined to a qualifier (DB_PASSWORD_PROD, apiKeyV2). */
export const QUALIFIED_CUES = [
  "PASS_",
  "PASSWORD_",
  "PASSWD_",
  "PWD_",
  "SECRET_",
  "TOKEN_",
  "KEY_",
  "pass_",
  "password_",
  "passwd_",
  "pwd_",
  "secret_",
  "token_",
  "key_",
  "password-",
  "secret-",
  "token-",
  "key-",
  "Password",
  // Audit 17: a GraphQL field's camelCase qualifier (passwordPlain).
  "passwordPlain",
  "Passwd",
  "Token",
  "Key",
] as const;

/** Audit 16: configuration set with blanks (ENV NAME value, BINDPW, sasl_passwd). */
export const CONFIG_LINE_CUES = [
  "BINDPW",
  "bindpw",
  "ROOTPW",
  "rootpw",
  "ENV ",
  "SetEnv ",
  "<entry ",
  "userlist",
  "pgbouncer",
  "]:587",
  "]:465",
  "]:25",
  "sasl_passwd",
  "Set for ",
  "Set via ",
] as const;

/** Audit 16: a URL's signature, session id or link token. */
export const RARE_URL_CUES = [
  "ignature=",
  "sig=",
  "key=",
  "sessionid=",
  "SESSIONID=",
  "SESSID=",
  "/invit",
  "/join-team/",
  "reset",
  "/magic",
] as const;

/** Audit 17: protocol transcripts and CI logs (`_transcripts.ts`). */
export const TRANSCRIPT_CUES = [
  "AUTH PLAIN",
  "GFzc3dvcmQ6",
  " LOGIN ",
  '"AUTH" "',
  '"auth" "',
  "> PASS ",
  "FTP: PASS ",
  '"p\\0\\0\\0',
  "::add-mask::",
] as const;

/**
 * A literal each alternative of the command-line rules' positional gate
 * holds (`_command_line.ts`): a text with none of them cannot pass it, so
 * the gate's regex runs only on texts that hold one (`secret` covers
 * `user-secrets`, `config` the `config set` forms).
 */
export const POSITIONAL_CUES = [
  "htpasswd",
  "|",
  "add_user",
  "change_password",
  " -U ",
  "secret",
  "-stdin",
  "--with-token",
  "config",
  " -P",
  " -p",
  "ldap",
  "/p:",
  "gh variable",
  "drone",
  "altool",
  "openssl",
  "ssh-keygen",
  "sudo",
  "chpasswd",
  "devops",
  "authtoken",
  "vercel",
  "mc ",
  "lftp",
  "net use",
  "AsPlainText",
  "login",
  "snyk auth",
  "env:set",
  "put-parameter",
  "mosquitto_",
  "cqlsh",
  "influx",
  "nuget",
  "cypress",
  "codecov",
  "prefect",
  "pulumi",
  "keyvault",
  "ipmitool",
  "az ",
  "sexec",
  "sExec",
  "aexec",
  "aExec",
  "twine",
  "mkpasswd",
  "b2 a",
  "wpa_passphrase",
  "cryptsetup",
  "kinit",
  "sonar.",
  "--arg",
] as const;

/** Audit 17: a Makefile's recipe line (a tab first, after a reader's gutter or not). */
export const RECIPE_CUES = ["\n\t", "\t\t"] as const;

/**
 * Audit 17: the end of a credential word (`password`, `passwd`, `pwd`,
 * `_pw`, `secret`, `token`, `key`, in lower and upper case) before a
 * delimited table header's separator (a comma, a tab, two blanks, the
 * line's end, a CSV quote): where a header naming a secret column may be.
 */
export const TABLE_HEADER_CUES = [
  "word,",
  "word\t",
  "word  ",
  "word\n",
  "word\r",
  'word",',
  'word"\n',
  "WORD,",
  "WORD\t",
  "WORD  ",
  "WORD\n",
  "WORD\r",
  'WORD",',
  'WORD"\n',
  "swd,",
  "swd\t",
  "swd  ",
  "swd\n",
  "swd\r",
  'swd",',
  'swd"\n',
  "SWD,",
  "SWD\t",
  "SWD  ",
  "SWD\n",
  "SWD\r",
  'SWD",',
  'SWD"\n',
  "pwd,",
  "pwd\t",
  "pwd  ",
  "pwd\n",
  "pwd\r",
  'pwd",',
  'pwd"\n',
  "PWD,",
  "PWD\t",
  "PWD  ",
  "PWD\n",
  "PWD\r",
  'PWD",',
  'PWD"\n',
  "_pw,",
  "_pw\t",
  "_pw  ",
  "_pw\n",
  "_pw\r",
  '_pw",',
  '_pw"\n',
  "_PW,",
  "_PW\t",
  "_PW  ",
  "_PW\n",
  "_PW\r",
  '_PW",',
  '_PW"\n',
  "cret,",
  "cret\t",
  "cret  ",
  "cret\n",
  "cret\r",
  'cret",',
  'cret"\n',
  "CRET,",
  "CRET\t",
  "CRET  ",
  "CRET\n",
  "CRET\r",
  'CRET",',
  'CRET"\n',
  "oken,",
  "oken\t",
  "oken  ",
  "oken\n",
  "oken\r",
  'oken",',
  'oken"\n',
  "OKEN,",
  "OKEN\t",
  "OKEN  ",
  "OKEN\n",
  "OKEN\r",
  'OKEN",',
  'OKEN"\n',
  "key,",
  "key\t",
  "key  ",
  "key\n",
  "key\r",
  'key",',
  'key"\n',
  "Key,",
  "Key\t",
  "Key  ",
  "Key\n",
  "Key\r",
  'Key",',
  'Key"\n',
  "KEY,",
  "KEY\t",
  "KEY  ",
  "KEY\n",
  "KEY\r",
  'KEY",',
  'KEY"\n',
] as const;

/**
 * Audit 17: tables and config a secret sits in without `:` or `=` (a CSV
 * header's credential word in any case, a pg_dump COPY, an XML key
 * attribute or `<Value>`, `reg query`, a DPAPI blob's header).
 */
export const TABLE_CUES = [
  "FROM stdin",
  'key="',
  "<Value>",
  "REG_",
  "d08c9ddf0115d111",
] as const;

/**
 * Audit 18: password words of other languages written in ASCII (`het
 * wachtwoord is …`, `a senha é …`, `lösenord` as `losenord`): with
 * {@linkcode WRITTEN_PASSWORD_CHARS}, the gate of the sentence rules run on
 * tool output and commands (`_words.ts`), answered by the one scan instead
 * of a regex per text.
 */
export const WRITTEN_PASSWORD_CUES = [
  "achtwoord",
  "clave",
  "Clave",
  "chave",
  "Chave",
  "senha",
  "Senha",
  "heslo",
  "Heslo",
  "haslo",
  "Haslo",
  "sifr",
  "Sifr",
  "parol",
  "Parol",
  "kata ",
  "Kata ",
  "mdp",
  "ozink",
  "lapta",
  "neno",
  "Neno",
  "nywila",
  "Nywila",
  "ykilor",
  "senord",
  "assord",
  "dgangskode",
  "alasana",
] as const;

/**
 * Audit 18: what such a word holds outside ASCII (a character of it or of
 * the copula é, as speech's gate reads it, or the word of another script),
 * asked only of text the scan found non-ASCII.
 */
export const WRITTEN_PASSWORD_CHARS = [
  "п",
  "П",
  "к",
  "К",
  "密",
  "口",
  "令",
  "钥",
  "秘",
  "パ",
  "ト",
  "シ",
  "キ",
  "비",
  "암",
  "토",
  "키",
  "ş",
  "Ş",
  "ı",
  "İ",
  "ñ",
  "ł",
  "é",
  "è",
  "ü",
  "ẩ",
  "š",
  "õ",
  "ωδικ",
  "ΩΔΙΚ",
  "υνθηματικ",
  "סיסמ",
  "كلمة",
  "الرقم",
  "رمز",
  "گذرواژه",
  "لمه",
  "پسورد",
  "پاس",
  "पासवर्ड",
  "कूटशब्द",
  "পাসও",
  "รหัสผ่าน",
  "கடவுச்",
  "பாஸ்வேர்ட்",
] as const;

/** Every cue a gate may ask of a whole text. */
const CUES = [
  // Assignments.
  "1b[",
  "033[",
  '"key"',
  "_header",
  "RequestHeader",
  "alue",
  "Value",
  "│",
  "Credentials(",
  "chpasswd:",
  "BUNDLE_",
  "encryptedData",
  '("',
  "('",
  "</",
  "define(",
  'value="',
  '\\\\\\"',
  '"sensitive"',
  // Command lines.
  "requirepass",
  "masterauth",
  "> AUTH ",
  "> auth ",
  "SETUSER",
  "setuser",
  "base64",
  "Command:",
  "$ ",
  "#!/",
  // Private keys and wallets.
  "-----BEGIN ",
  "-----END ",
  "Private-Lines:",
  "hrase",
  "mnemonic",
  "Mnemonic",
  "<<<",
  "Private Keys",
  // Passwords in words.
  "IDENTIFIED",
  "SET PASSWORD",
  "'@'",
  "identified",
  " to ",
  "pw",
  "PW",
  "pass",
  "Pass",
  " is ",
  " was ",
  "expect",
  "send",
  "$",
  "pbkdf2",
  "scrypt:",
  ":*:",
  // Tokens.
  "~",
  "npg_",
  "!A",
  // URLs.
  "thin:",
  "THIN:",
  "/webhook",
  "://",
  ":\\/\\/",
  // Terminal escapes (ESC, and the 8-bit CSI).
  "\x1b",
  "\x9b",
  // Escaped text read again.
  "\\u00",
  "&",
  // Audit 15: configuration.
  "||",
  "??",
  "?:",
  'variable "',
  "@tcp",
  "@unix(",
  // Audit 15: tables and dumps.
  "| ",
  "---",
  "[ RECORD ",
  "]=>",
  "</key>",
  '"kty"',
  "Secret",
  // Audit 15: prose.
  " / ",
  " as ",
  " p:",
  "\np:",
  "->",
  "→",
  "in with",
  "ecovery code",
  "ackup code",
  "Basic ",
  // Audit 15: command lines.
  "htpasswd",
  // Audit 16: a replacement an earlier pass made.
  "[redacted:",
  // Audit 16: prose.
  "ennwort",
  "asswort",
  ":**",
  "**:",
  "allet seed",
  "seed words",
  // Audit 16: a Secret's data block shown alone.
  "data:\n",
  // Audit 16: ipsec.secrets.
  "PSK ",
  "EAP ",
  "XAUTH ",
  // Audit 16: credentials a call takes by position (short pieces of the
  // calls' names: each character of a cue is a state of the scan).
  "(",
  "login(",
  "Credential(",
  "dAuth",
  "PDO(",
  "nnect",
  "sqli(",
  "Auth(",
  "auth(",
  "word(",
  "bind",
  "golia",
  "jwt.",
  "JWT",
  "HMAC",
  "_secret(",
  "Static",
  "btoa(",
  "b64e",
  "igField",
  "keys",
  "INSERT",
  "into",
  // Audit 17: a password typed into a browser test's field.
  "fill(",
  "type(",
  "_keys(",
  "Keys(",
  // Audit 17: an authenticator's setup key after a colon.
  "etup key",
  ...QUALIFIED_CUES,
  ...CONFIG_LINE_CUES,
  ...RARE_URL_CUES,
  ...TRANSCRIPT_CUES,
  ...WRITTEN_PASSWORD_CUES,
  ...WRITTEN_PASSWORD_CHARS,
  ...RECIPE_CUES,
  ...POSITIONAL_CUES,
  // redact.ts: a NUL (UTF-16 output) and a percent escape.
  "\0",
  "%",
  "VALUE",
  "\tvalue",
  "\tValue",
  "\tVALUE",
  ...TABLE_CUES,
  ...TABLE_HEADER_CUES,
] as const;

/** A literal a gate may ask for. */
export type Cue = typeof CUES[number];

/** Each cue's place in the list (a plain object: a keyed load costs less than `Map.get`). */
const INDEX: Record<string, number> = Object.fromEntries(
  CUES.map((c, i) => [c, i]),
);

/** Transitions on ASCII code units: `dense[state * 128 + unit]`. */
let dense: Uint16Array | undefined;
/** Transitions on other code units, per state (only where a cue has one). */
let sparse: Map<number, number>[] = [];
/** Which code units of 128 and up some cue holds (any other one leads to the start). */
let wideUnits = new Uint8Array(0);
/** The cues each state completes (its own and its fallbacks'). */
let ends: number[][] = [];
/** The first state that completes a cue (every later one does too). */
let firstEnding = 0;

/** Builds the automaton on first use (a one-shot command may never need it). */
function automaton(): Uint16Array {
  if (dense) return dense;
  const next: Map<number, number>[] = [new Map()];
  const out: number[][] = [[]];
  CUES.forEach((cue, i) => {
    let s = 0;
    for (let k = 0; k < cue.length; k++) {
      const unit = cue.charCodeAt(k);
      let t = next[s]!.get(unit);
      if (t === undefined) {
        t = next.length;
        next.push(new Map());
        out.push([]);
        next[s]!.set(unit, t);
      }
      s = t;
    }
    out[s]!.push(i);
  });
  // Fallbacks, breadth first: the longest proper suffix that is a prefix.
  const fail = new Array<number>(next.length).fill(0);
  const queue = [...next[0]!.values()];
  for (let q = 0; q < queue.length; q++) {
    const s = queue[q]!;
    for (const [unit, t] of next[s]!) {
      queue.push(t);
      let f = fail[s]!;
      while (f !== 0 && !next[f]!.has(unit)) f = fail[f]!;
      const g = next[f]!.get(unit);
      fail[t] = g !== undefined && g !== t ? g : 0;
      out[t]!.push(...out[fail[t]!]!);
    }
  }
  const step = (s: number, unit: number): number => {
    while (s !== 0 && !next[s]!.has(unit)) s = fail[s]!;
    return next[s]!.get(unit) ?? 0;
  };
  // States that complete a cue are numbered last, so the scan tells them
  // by comparing the state, with no load.
  const order = [...next.keys()].sort((a, b) =>
    (out[a]!.length > 0 ? 1 : 0) - (out[b]!.length > 0 ? 1 : 0) || a - b
  );
  const renumbered = new Array<number>(next.length);
  order.forEach((old, i) => renumbered[old] = i);
  firstEnding = order.findIndex((s) => out[s]!.length > 0);
  if (firstEnding < 0) firstEnding = next.length;
  // Two bytes a transition keep the table small enough to stay in cache.
  if (next.length > 0xffff) throw new Error("too many cue states");
  const table = new Uint16Array(next.length * 128);
  sparse = next.map(() => new Map());
  const wide = new Set<number>();
  for (const cue of CUES) {
    for (let k = 0; k < cue.length; k++) {
      const unit = cue.charCodeAt(k);
      if (unit >= 128) wide.add(unit);
    }
  }
  for (let s = 0; s < next.length; s++) {
    const r = renumbered[s]!;
    for (let unit = 0; unit < 128; unit++) {
      table[r * 128 + unit] = renumbered[step(s, unit)]!;
    }
    for (const unit of wide) {
      const t = step(s, unit);
      if (t !== 0) sparse[r]!.set(unit, renumbered[t]!);
    }
  }
  wideUnits = new Uint8Array(0x10000);
  for (const unit of wide) wideUnits[unit] = 1;
  ends = order.map((old) => out[old]!);
  dense = table;
  return table;
}

/**
 * The scan of the text last scanned: a cue it holds has the current
 * generation in its slot. Stamping a number rather than allocating a fresh
 * array of flags keeps a scan of a short text (a command line) from costing
 * more than the text's own characters do.
 */
let stamps = new Uint32Array(0);
let generation = 0;
/** The last text scanned (its cues carry the current generation). */
let lastText: string | undefined;
/** Whether the last text scanned holds a code unit of 128 or more. */
let lastWide = false;

/** Scans `text` for every cue, stamping the ones it holds. */
function scan(text: string): void {
  const table = automaton();
  if (stamps.length === 0 || generation === 0xffffffff) {
    stamps = new Uint32Array(CUES.length);
    generation = 0;
  }
  const mark = ++generation;
  const found = stamps;
  // Locals, not the module's bindings: the loop reads them per character.
  const completes = firstEnding;
  const wideAt = wideUnits;
  const others = sparse;
  let s = 0;
  let wide = false;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 128) s = table[s * 128 + unit]!;
    else {
      wide = true;
      s = wideAt[unit] === 1 ? others[s]!.get(unit) ?? 0 : 0;
    }
    if (s >= completes) { for (const cue of ends[s]!) found[cue] = mark; }
  }
  lastText = text;
  lastWide = wide;
}

/**
 * Whether `text` holds `cue`, exactly as `text.includes(cue)`: a text
 * is scanned once for every cue, and asking it again (the next rule's
 * gate) reads the answer.
 *
 * @param text The text a gate tests.
 * @param cue The literal it looks for.
 * @returns Whether the text holds it.
 * @example
 * ```ts
 * import { hasCue } from "./_cues.ts";
 * import { equal } from "node:assert/strict";
 * const text = "x".repeat(100) + " requirepass s3cr3t-value";
 * equal(hasCue(text, "requirepass"), true);
 * equal(hasCue(text, "masterauth"), false);
 * ```
 */
export function hasCue(text: string, cue: Cue): boolean {
  if (text !== lastText) scan(text);
  return stamps[INDEX[cue]!] === generation;
}

/**
 * Whether `text` holds any code unit of 128 or more (anything but ASCII),
 * read from the same scan as {@linkcode hasCue}.
 *
 * @param text The text a gate tests.
 * @returns Whether it holds a non-ASCII code unit.
 * @example
 * ```ts
 * import { hasWide } from "./_cues.ts";
 * import { equal } from "node:assert/strict";
 * equal(hasWide("plain ascii"), false);
 * equal(hasWide("ｔｏｋｅｎ"), true);
 * ```
 */
export function hasWide(text: string): boolean {
  if (text !== lastText) scan(text);
  return lastWide;
}

/** Cues a gate asks for together, by their places in the cue list. */
export interface CueSet {
  /** Their indexes in the cue list. */
  readonly indexes: Int32Array;
}

/**
 * A set of cues a gate asks for together: {@linkcode hasAnyCue} then reads
 * one flag per cue instead of looking each one up.
 *
 * @param cues The cues.
 * @returns The set.
 */
export function cueSet(cues: readonly Cue[]): CueSet {
  return { indexes: Int32Array.from(cues, (c) => INDEX[c]!) };
}

/**
 * Whether `text` holds any cue of `set`, each answered as
 * {@linkcode hasCue} would.
 *
 * @param text The text a gate tests.
 * @param set The cues it looks for.
 * @returns Whether the text holds one of them.
 * @example
 * ```ts
 * import { cueSet, hasAnyCue } from "./_cues.ts";
 * import { equal } from "node:assert/strict";
 * const set = cueSet(["requirepass", "masterauth"]);
 * equal(hasAnyCue("x".repeat(100) + " masterauth s3cr3t", set), true);
 * ```
 */
export function hasAnyCue(text: string, set: CueSet): boolean {
  if (text !== lastText) scan(text);
  const { indexes } = set;
  for (let i = 0; i < indexes.length; i++) {
    if (stamps[indexes[i]!] === generation) return true;
  }
  return false;
}

/** The cue list, for tests. */
export const ALL_CUES: readonly Cue[] = CUES;
