/**
 * The redaction rules. Each rule is one scan for a rare anchor (a literal, or
 * a `:`/`=` that a credential word precedes, checked by lookbehind) followed
 * by precise checks at each hit, so text without the anchor costs one
 * native regex scan and nothing else. Token shapes and high-entropy values
 * share a single sampled pass that finds runs of 20+ token characters.
 *
 * Rules do not rewrite the text: they report edits on the same text, and
 * redact() keeps, where two overlap, the one from the rule listed first in
 * {@link RULE_IDS} (the more specific one).
 *
 * @module
 */
import {
  charClasses,
  type Edits,
  entropy,
  isHexLike,
  isIdentifierLike,
  isPathLike,
  isPlaceholder,
  isPlainWord,
  isRedacted,
  isReference,
  isTypeWord,
  readValue,
  type ValueSpan,
} from "./_scan.ts";

// Sentence punctuation after a bare value: kept out of prose cuts, and
// ignored when deciding whether a value is an ordinary word. `!` and `?` may
// belong to a password, so prose cuts keep them.
const SENTENCE_END = /[.,;:)\]"'»”]+$/;

/** One rule: what it may count and how it finds secrets. */
export interface Rule {
  /** Rule ids this rule may count, with what each catches. */
  readonly ids: readonly { id: string; description: string }[];
  /** Adds an edit for every secret value found in `text`. */
  collect(text: string, edits: Edits): void;
}

// ---------------------------------------------------------------- private keys

const PEM_HEADER =
  /-----BEGIN ((?:[A-Z0-9]+ )*(?:PRIVATE|SECRET) KEY(?: BLOCK)?)-----/g;
const PEM_ANY_FOOTER =
  /-----END (?:[A-Z0-9]+ )*(?:PRIVATE|SECRET) KEY(?: BLOCK)?-----/g;
const PEM_GAP = /^(?:\s|\\+[rn])*/;
const PEM_GAP_END = /(?:\s|\\+[rn])*$/;
// A block cut short is only taken when key material follows the header, so
// a sentence that names the header keeps the text after it.
const PEM_BODY_START = /^(?:[A-Za-z0-9+/=]{16}|[A-Za-z-]+: )/;

const privateKey: Rule = {
  ids: [{
    id: "private-key",
    description:
      "PEM and PGP private key blocks, whole, cut short (to the end of the text), indented or JSON-escaped; header and footer kept",
  }],
  collect(text, edits) {
    if (text.indexOf("-----BEGIN ") < 0) return;
    PEM_HEADER.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = PEM_HEADER.exec(text)) !== null) {
      const bodyStart = m.index + m[0].length;
      let footerAt = text.indexOf(`-----END ${m[1]}-----`, bodyStart);
      if (footerAt < 0) {
        PEM_ANY_FOOTER.lastIndex = bodyStart;
        footerAt = PEM_ANY_FOOTER.exec(text)?.index ?? -1;
      }
      const bodyEnd = footerAt < 0 ? text.length : footerAt;
      const body = text.slice(bodyStart, bodyEnd);
      const lead = PEM_GAP.exec(body)![0].length;
      const trail = footerAt < 0 ? 0 : PEM_GAP_END.exec(body)![0].length;
      const inner = body.slice(lead, body.length - trail);
      if (footerAt >= 0) PEM_HEADER.lastIndex = footerAt;
      if (inner.length === 0 || isRedacted(inner)) continue;
      if (footerAt < 0 && !PEM_BODY_START.test(inner)) continue;
      edits.push({
        start: bodyStart + lead,
        end: bodyEnd - trail,
        id: "private-key",
      });
      if (footerAt < 0) return;
    }
  },
};

// -------------------------------------------- token shapes and entropy values

/** A token recognisable by its shape alone; the whole token is replaced. */
interface Shape {
  id: string;
  description: string;
  pattern: string;
  /** Extra check on the match; false keeps it. */
  accept?: (token: string) => boolean;
}

const SHAPES: Shape[] = [
  {
    id: "jwt",
    description: "JSON Web Tokens: three base64url segments starting eyJ",
    pattern: String
      .raw`eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*`,
  },
  {
    id: "aws-access-key",
    description: "AWS access key ids (AKIA…, ASIA…)",
    pattern: String.raw`(?:AKIA|ASIA)[A-Z0-9]{16}`,
  },
  {
    id: "github-token",
    description: "GitHub tokens (ghp_, gho_, ghu_, ghs_, ghr_, github_pat_)",
    pattern: String
      .raw`gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{22,}`,
  },
  {
    id: "gitlab-token",
    description: "GitLab tokens (glpat-, gldt-, glrt-, glptt-, glcbt-, glft-)",
    pattern: String.raw`gl(?:pat|dt|rt|ptt|cbt|ft)-[A-Za-z0-9_-]{20,}`,
  },
  {
    id: "slack-token",
    description: "Slack tokens (xoxb-, xoxp-, xoxa-, xoxe-, xapp-)",
    pattern: String
      .raw`xox[abposre]-[A-Za-z0-9-]{10,}|xapp-\d-[A-Za-z0-9-]{10,}`,
  },
  {
    id: "anthropic-key",
    description: "Anthropic API keys (sk-ant-…)",
    pattern: String.raw`sk-ant-[A-Za-z0-9_-]{20,}`,
  },
  {
    id: "openrouter-key",
    description: "OpenRouter API keys (sk-or-v1-…)",
    pattern: String.raw`sk-or-v1-[A-Za-z0-9]{32,}`,
  },
  {
    id: "openai-key",
    description:
      "OpenAI-style keys (sk-…, sk-proj-…) holding a run of 20+ letters and digits",
    pattern: String.raw`sk-[A-Za-z0-9_-]{20,}`,
    // Branch names like sk-my-long-feature-name have no long random run.
    accept: (t) => /[A-Za-z0-9]{20,}/.test(t) && charClasses(t) >= 2,
  },
  {
    id: "google-api-key",
    description: "Google API keys (AIza…)",
    pattern: String.raw`AIza[0-9A-Za-z_-]{30,}`,
  },
  {
    id: "npm-token",
    description: "npm access tokens (npm_…)",
    pattern: String.raw`npm_[A-Za-z0-9]{30,}`,
  },
  {
    id: "huggingface-token",
    description: "Hugging Face tokens (hf_…)",
    pattern: String.raw`hf_[A-Za-z0-9]{30,}`,
  },
  {
    id: "pypi-token",
    description: "PyPI upload tokens (pypi-Ag…)",
    pattern: String.raw`pypi-Ag[A-Za-z0-9_-]{40,}`,
  },
  {
    id: "sendgrid-key",
    description: "SendGrid API keys (SG.….…)",
    pattern: String.raw`SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}`,
  },
  {
    id: "stripe-key",
    description:
      "Stripe keys and webhook secrets (sk_live_, rk_live_, pk_live_, *_test_, whsec_)",
    pattern: String
      .raw`[spr]k_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9+/]{24,}`,
  },
  {
    id: "shopify-token",
    description: "Shopify access tokens (shpat_, shpca_, shppa_, shpss_)",
    pattern: String.raw`shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32,}`,
  },
  {
    id: "digitalocean-token",
    description: "DigitalOcean tokens (dop_v1_, doo_v1_, dor_v1_)",
    pattern: String.raw`do[opr]_v1_[a-f0-9]{64}`,
  },
  {
    id: "groq-key",
    description: "Groq API keys (gsk_…)",
    pattern: String.raw`gsk_[A-Za-z0-9]{40,}`,
  },
  {
    id: "xai-key",
    description: "xAI API keys (xai- followed by letters and digits only)",
    pattern: String.raw`xai-[A-Za-z0-9]{40,}`,
  },
  {
    id: "linear-key",
    description: "Linear API keys (lin_api_…)",
    pattern: String.raw`lin_api_[A-Za-z0-9]{32,}`,
  },
  {
    id: "databricks-token",
    description: "Databricks tokens (dapi…)",
    pattern: String.raw`dapi[a-f0-9]{32}(?:-\d)?`,
  },
  {
    id: "age-secret-key",
    description: "age encryption secret keys (AGE-SECRET-KEY-1…)",
    pattern: String.raw`AGE-SECRET-KEY-1[0-9A-Z]{50,}`,
  },
  {
    id: "telegram-bot-token",
    description: "Telegram bot tokens (digits:AA…)",
    pattern: String.raw`[0-9]{8,10}:AA[A-Za-z0-9_-]{30,}`,
  },
];

// Sticky: tried only where a token run starts.
const SHAPE_AT = new RegExp(
  `(?:${SHAPES.map((s) => `(${s.pattern})`).join("|")})(?![A-Za-z0-9_-])`,
  "y",
);
// The first two characters of every shape, so most runs never reach the regex.
const SHAPE_HEADS = new Set(
  [
    "ey",
    "AK",
    "AS",
    "AI",
    "AG",
    "gh",
    "gi",
    "gl",
    "gs",
    "xo",
    "xa",
    "sk",
    "rk",
    "pk",
    "np",
    "hf",
    "py",
    "SG",
    "wh",
    "sh",
    "do",
    "li",
    "da",
  ].map((h) => h.charCodeAt(0) * 65536 + h.charCodeAt(1)),
);

// Characters of a token run: base64, base64url and the `-`/`_` of prefixes.
const TOKEN_CHAR = new Uint8Array(65536);
for (
  const c
    of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_-"
) TOKEN_CHAR[c.charCodeAt(0)] = 1;
const MIN_RUN = 20;

const STOP_KEYS = new Set([
  "id",
  "ids",
  "uuid",
  "guid",
  "sha",
  "sha1",
  "sha256",
  "sha512",
  "hash",
  "digest",
  "checksum",
  "integrity",
  "etag",
  "commit",
  "rev",
  "revision",
  "version",
  "ref",
  "parent",
  "tree",
  "oid",
  "blob",
  "moved",
  "to",
  "from",
  "path",
  "file",
  "dir",
  "url",
  "uri",
  "href",
  "src",
  "image",
  "data",
  "content",
  "name",
  "title",
  "type",
  "class",
  "style",
  "model",
  "branch",
  "tag",
  "label",
  "redacted",
  "http",
  "https",
  "public",
  "pubkey",
  "fingerprint",
  "cert",
  "certificate",
  "nonce",
]);
const IMAGE_BASE64 = /^(?:iVBORw0KGgo|\/9j\/|R0lGOD|UklGR|PHN2Zy|JVBERi)/;
// Object ids such as msg_01…, toolu_01…, call_…, cus_… are not secrets.
const OBJECT_ID = /^[a-z]{2,8}_[A-Za-z0-9]{12,}$/;
const KEY_WORDS_OF = /[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+/g;

/** The last word of a key, lower-cased: `commitSha` → `sha`. */
function lastKeyWord(key: string): string {
  const words = key.match(KEY_WORDS_OF);
  return (words?.[words.length - 1] ?? key).toLowerCase();
}

const KEY_CHAR = new Uint8Array(65536);
for (
  const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-"
) KEY_CHAR[c.charCodeAt(0)] = 1;

/** The key before a `=`/`:` at `sepAt`, or "" when none is there. */
function keyBefore(text: string, sepAt: number): string {
  let i = sepAt - 1;
  while (i >= 0 && (text[i] === " " || text[i] === "\t")) i--;
  while (i >= 0 && (text[i] === '"' || text[i] === "'" || text[i] === "\\")) {
    i--;
  }
  const end = i + 1;
  while (i >= 0 && end - i <= 64 && KEY_CHAR[text.charCodeAt(i)] === 1) i--;
  return text.slice(i + 1, end);
}

/** True when a token run reads as random: long, mixed and high in entropy. */
function looksRandom(core: string): boolean {
  if (core.length < MIN_RUN || core.length > 256) return false;
  if (isHexLike(core) || /^sha(?:1|256|384|512)-/.test(core)) return false;
  if (IMAGE_BASE64.test(core) || OBJECT_ID.test(core)) return false;
  if (isPathLike(core) || /^[a-z0-9_\/.-]+$/.test(core)) return false;
  if (charClasses(core) < 3 || isIdentifierLike(core)) return false;
  return entropy(core) >= Math.min(4, Math.log2(core.length) * 0.85);
}

/**
 * Where a run that starts at `a` sits: after `key=`/`key:` with a key of 3+
 * characters that is not a stop word, or alone in quotes. Returns false for
 * any other place.
 */
function secretPosition(text: string, a: number, end: number): boolean {
  let i = a - 1;
  let quote = "";
  const before = text[i];
  if (before === '"' || before === "'" || before === "`") {
    quote = before;
    i--;
    if (text[i] === "\\") i--;
  }
  while (i >= 0 && (text[i] === " " || text[i] === "\t")) i--;
  const sep = text[i];
  // The `:` of a URL scheme is no key separator.
  if (sep === "=" || (sep === ":" && text[i + 1] !== "/")) {
    const key = keyBefore(text, i);
    if (STOP_KEYS.has(lastKeyWord(key))) return false;
    if (key.toLowerCase().includes("public")) return false;
    const digits = /^[0-9]+$/.test(key);
    // A Telegram-style `123456789:` key counts; short keys do not.
    if (digits ? key.length >= 6 : key.length >= 3) return true;
  }
  if (!quote) return false;
  const after = text[end] === "\\" ? text[end + 1] : text[end];
  return after === quote;
}

const tokens: Rule = {
  ids: [
    ...SHAPES.map(({ id, description }) => ({ id, description })),
    {
      id: "entropy",
      description:
        "High-entropy values after key= / key: or alone in quotes (not hex digests, UUIDs, paths, identifiers, object ids or image data)",
    },
  ],
  collect(text, edits) {
    const n = text.length;
    const slash = { at: -1 };
    // Any run of MIN_RUN token characters covers one of every MIN_RUN-th
    // position, so only those are probed; a probe expands to its whole run.
    for (let i = MIN_RUN - 1; i < n; i += MIN_RUN) {
      if (TOKEN_CHAR[text.charCodeAt(i)] !== 1) continue;
      let a = i;
      while (a > 0 && TOKEN_CHAR[text.charCodeAt(a - 1)] === 1) a--;
      let b = i + 1;
      while (b < n && TOKEN_CHAR[text.charCodeAt(b)] === 1) b++;
      if (b - a < MIN_RUN) continue;
      tokenRun(text, a, b, slash, edits);
      i = b;
    }
  },
};

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/**
 * Checks one run `[a, b)` of token characters for shapes, then entropy.
 * `slash.at` caches the next `/` at or after the run (runs come in order),
 * so a text without one is searched once, not once per run.
 */
function tokenRun(
  text: string,
  a: number,
  b: number,
  slash: { at: number },
  edits: Edits,
): void {
  // Some tokens begin before the run: a Telegram token's digits sit before
  // a `:`, and SendGrid keys and JWTs with a short header before a `.`.
  let from = a;
  if (text[a - 1] === ":" && text[a] === "A" && text[a + 1] === "A") {
    let d = a - 1;
    while (d > 0 && isDigit(text.charCodeAt(d - 1))) d--;
    if (a - 1 - d >= 8) from = d;
  } else if (text[a - 1] === ".") {
    let d = a - 1;
    while (d > 0 && a - d < 40 && TOKEN_CHAR[text.charCodeAt(d - 1)] === 1) d--;
    if (text.startsWith("SG.", d) || text.startsWith("eyJ", d)) from = d;
  }
  let found = false;
  let s = from;
  while (s >= 0 && s < b - 15) {
    const head = text.charCodeAt(s) * 65536 + text.charCodeAt(s + 1);
    if (SHAPE_HEADS.has(head) || (s < a && s === from)) {
      SHAPE_AT.lastIndex = s;
      const m = SHAPE_AT.exec(text);
      const k = m ? m.findIndex((g, j) => j > 0 && g !== undefined) - 1 : -1;
      const shape = SHAPES[k];
      if (m && shape && (!shape.accept || shape.accept(m[0]))) {
        edits.push({ start: s, end: s + m[0].length, id: shape.id });
        found = true;
        s += m[0].length;
        continue;
      }
    }
    // Shapes also start after a `/` inside the run (paths, URLs).
    if (slash.at < s && slash.at !== -2) {
      slash.at = text.indexOf("/", s);
      if (slash.at < 0) slash.at = -2;
    }
    s = slash.at < 0 || slash.at >= b ? -1 : slash.at + 1;
  }
  if (found || b - a > 256) return;
  let end = b;
  while (end < text.length && end - b < 2 && text[end] === "=") end++;
  if (!secretPosition(text, a, end)) return;
  if (text.slice(Math.max(0, a - 8), a).includes("base64,")) return;
  if (looksRandom(text.slice(a, b))) {
    edits.push({ start: a, end, id: "entropy" });
  }
}

// ------------------------------------------- URL credentials and webhooks

const AUTHORITY_END = /[\s\/?#"'<>`\\]/g;
const SLACK_PATH =
  /hooks\.slack\.com\/(?:services|workflows|triggers)\/([A-Za-z0-9_\/-]{8,})/y;
const DISCORD_PATH =
  /(?:[a-z]+\.)?discord(?:app)?\.com\/api\/(?:v\d+\/)?webhooks\/(\d+\/[A-Za-z0-9_-]{8,})/y;

/** Adds the secret path of a webhook URL whose host starts at `host`. */
function webhookPath(
  text: string,
  host: number,
  path: RegExp,
  id: string,
  edits: Edits,
): void {
  path.lastIndex = host;
  const m = path.exec(text);
  if (!m || isRedacted(m[1]!)) return;
  const end = host + m[0].length;
  edits.push({ start: end - m[1]!.length, end, id });
}

const urls: Rule = {
  ids: [
    {
      id: "url-credentials",
      description:
        "Passwords in scheme://user:pass@host URLs (user and host kept; the last @ ends the password)",
    },
    {
      id: "slack-webhook",
      description:
        "Slack webhook URLs (https://hooks.slack.com/services/…): the path after the kind",
    },
    {
      id: "discord-webhook",
      description:
        "Discord webhook URLs (https://discord.com/api/webhooks/<id>/<token>): id and token",
    },
  ],
  collect(text, edits) {
    let at = text.indexOf("://");
    while (at >= 0) {
      const host = at + 3;
      AUTHORITY_END.lastIndex = host;
      const stop = AUTHORITY_END.exec(text)?.index ?? text.length;
      const authority = text.slice(host, stop);
      const lastAt = authority.lastIndexOf("@");
      const colon = lastAt < 0 ? -1 : authority.indexOf(":");
      if (colon >= 0 && colon < lastAt) {
        const password = authority.slice(colon + 1, lastAt);
        if (
          password.length > 0 && !isRedacted(password) &&
          !isReference(password) && !isPlaceholder(password)
        ) {
          edits.push({
            start: host + colon + 1,
            end: host + lastAt,
            id: "url-credentials",
          });
        }
      }
      webhookPath(text, host, SLACK_PATH, "slack-webhook", edits);
      webhookPath(text, host, DISCORD_PATH, "discord-webhook", edits);
      at = text.indexOf("://", stop);
    }
  },
};

// ------------------------------------------------------------- command lines

// Every form starts with a `-` after whitespace: long flags named for a
// secret (not --no-password, --password-file or --token-env), the short
// -p/-a/-u of the programs below, openssl's -passin pass: and keytool's
// -storepass. Which program a short flag belongs to is checked per hit.
const CLI_ANCHOR =
  /(?<![^\s])-(?:-(?!no-)(?:[a-z0-9]+-)*(?:password|passwd|pass|passphrase|token|secret|api-?key|apikey|secret-key|access-key|private-key|client-secret|credentials?|user)(?=[= \t])|pass(?:in|out)?[ \t]+pass:|(?:src|dest)?(?:store|key)pass[ \t]|[pau])/g;
const PROGRAMS =
  /\b(sshpass|mysql(?:dump|admin|import|check|sh)?|mariadb(?:-dump|-admin)?|redis-cli|docker[ \t]+login|curl)\b/g;

/** The last known program before `at` in the same command (`|;&` or a new line ends one). */
function programAt(text: string, at: number): string {
  const segment = text.slice(Math.max(0, at - 400), at);
  const cut = Math.max(
    segment.lastIndexOf("\n"),
    segment.lastIndexOf("|"),
    segment.lastIndexOf(";"),
    segment.lastIndexOf("&"),
  );
  PROGRAMS.lastIndex = cut + 1;
  let last = "";
  let m: RegExpExecArray | null;
  while ((m = PROGRAMS.exec(segment)) !== null) last = m[1]!;
  return last.replace(/[ \t]+/, " ");
}

function cliValueOk(raw: string, spaced: boolean): boolean {
  // "--password prompt." ends a sentence; the period is no part of a word.
  const value = spaced ? raw.replace(SENTENCE_END, "") : raw;
  if (value.length === 0 || isRedacted(value)) return false;
  if (isReference(value) || isPlaceholder(value) || isPathLike(value)) {
    return false;
  }
  if (!spaced) return !isTypeWord(value);
  // After a space the next word may be anything: ordinary words, further
  // flags and ALL_CAPS names are left alone.
  if (value.startsWith("-")) return false;
  return !isPlainWord(value) && !/^[A-Z][A-Z0-9_]*$/.test(value);
}

const cli: Rule = {
  ids: [{
    id: "cli-credential",
    description:
      "Credentials on a command line: sshpass -p, mysql -pX (attached only), curl -u user:pass, redis-cli -a, docker login -p, openssl pass:, keytool -storepass, --password/--token/--api-key/--client-secret and siblings (after a space, ordinary words are left)",
  }],
  collect(text, edits) {
    CLI_ANCHOR.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = CLI_ANCHOR.exec(text)) !== null) {
      const flag = m[0];
      const after = m.index + flag.length;
      const take = (v: ValueSpan | null, spaced: boolean): void => {
        if (!v) return;
        const value = text.slice(v.start, v.end);
        if (cliValueOk(value, spaced && !v.quoted)) {
          edits.push({ start: v.start, end: v.end, id: "cli-credential" });
        }
      };
      const attached = after < text.length && !/[ \t=]/.test(text[after]!);
      if (flag.startsWith("--")) {
        if (flag.endsWith("user")) {
          if (programAt(text, m.index) === "curl") {
            userPassword(text, text[after] === "=" ? after + 1 : after, take);
          }
        } else if (text[after] === "=") take(readValue(text, after + 1), false);
        else take(readValue(text, after), true);
        continue;
      }
      if (flag.length !== 2) {
        // -passin pass:… and -storepass …: the value follows directly.
        take(readValue(text, after), false);
        continue;
      }
      const prog = programAt(text, m.index);
      if (flag === "-u") {
        if (prog === "curl") userPassword(text, after, take);
      } else if (flag === "-a") {
        if (prog === "redis-cli" && !attached) {
          take(readValue(text, after), false);
        }
      } else if (prog === "sshpass") take(readValue(text, after), false);
      else if (prog === "docker login") {
        if (!attached) take(readValue(text, after), false);
      } else if (prog.startsWith("mysql") || prog.startsWith("mariadb")) {
        // `-p dbname` prompts and names a database: only `-pSecret` counts.
        if (attached) take(readValue(text, after), false);
      }
    }
  },
};

/** Hands `take` the password of a `user:password` value at `at`. */
function userPassword(
  text: string,
  at: number,
  take: (v: ValueSpan | null, spaced: boolean) => void,
): void {
  const v = readValue(text, at);
  if (!v) return;
  const colon = text.indexOf(":", v.start);
  if (colon < 0 || colon >= v.end - 1) return;
  take({ start: colon + 1, end: v.end, quoted: false }, false);
}

// ----------------------------------------------- key/value assignments

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
  "private[_-]?key",
  "signing[_-]?key",
  "encryption[_-]?key",
  "master[_-]?key",
  "auth[_-]?key",
  "credentials?",
  "auth",
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
// The scan's lookbehind uses broader stems (`key`, `auth`) so it stays one
// short alternation; the handler then checks the exact key.
const ASSIGNMENT = new RegExp(
  String
    .raw`(?<=(?:pass(?:word|wd|phrase|code)?|pwd|secret|token|key|auth|credentials?|authorization|cookie|passwort|kennwort|contrase[ñn]a|senha|wachtwoord|l[öo]senord|salasana|parola|has[łl]o|heslo|jelsz[óo]|[şs]ifre|mot[ _]de[ _]passe|m[ậa]t[ _]kh[ẩa]u|${
    CREDENTIAL_WORDS.slice(CREDENTIAL_WORDS.indexOf("пароль")).join("|")
  })(?:\\?["'\]]){0,2}[ \t]*)[:=：＝]`,
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
const SCHEME_FIRST = /^(bearer|token|basic|bot|apikey|api-key|sso-key)[ \t]+/i;
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

/** Decides whether the value after `key<sep>` is a secret worth replacing. */
function credentialValueOk(
  raw: string,
  quoted: boolean,
  tight: boolean,
): boolean {
  // "auth: required." ends a sentence; the period is no part of a word.
  const value = quoted || tight ? raw : raw.replace(SENTENCE_END, "");
  if (value.length < 3 || isRedacted(value) || isReference(value)) return false;
  if (isPlaceholder(value) || isTypeWord(value)) return false;
  if (quoted) {
    // UI labels and prose in a string: "Enter your password".
    return !(/\s/.test(value) && /^[\p{L}\s,.'!?:-]+$/u.test(value));
  }
  if (isPathLike(value) || /^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return false;
  if (/^[0-9]{1,5}$/.test(value)) return false;
  // Code: calls, indexing, generics, member access, references.
  if (/[()[\]{}<>]/.test(value)) return false;
  if (/^[&*]*[A-Za-z_$][\w$]*(?:(?:\.|::|->)[A-Za-z_$][\w$]*)+$/.test(value)) {
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
  edits.push({ start: v.start, end: v.end, id: "bearer" });
}

function cookieValues(text: string, from: number, edits: Edits): void {
  let i = from;
  while (text[i] === " " || text[i] === "\t") i++;
  if (text[i] === "\\") i++;
  if (text[i] === '"' || text[i] === "'") i++;
  let to = text.indexOf("\n", i);
  if (to < 0) to = text.length;
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

const assignments: Rule = {
  ids: [
    {
      id: "bearer",
      description:
        "Authorization header values (Bearer, Token, Basic, …) and bare Bearer tokens of 16+ characters",
    },
    {
      id: "cookie",
      description:
        "Values of session-like cookies on Cookie: and Set-Cookie: lines (names kept)",
    },
    {
      id: "aws-secret",
      description:
        "AWS secret access keys and session tokens assigned to their usual names",
    },
    {
      id: "credential",
      description:
        "Values assigned to credential-named keys (password=, secret:, api_key, token, client_secret, пароль, 密码, パスワード, contraseña, mot de passe, …)",
    },
  ],
  collect(text, edits) {
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
        if (text[k] === "\\") k--;
      }
      const key = text.slice(Math.max(0, k - 47), k + 1);
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
      // bypass=, oauth:, PublicKeyToken= (.NET assembly names) are no secrets.
      if (NOT_A_KEY.test(key) || PUBLIC_KEY.test(key)) continue;
      const v = readValue(text, at + sep.length);
      if (!v) continue;
      const value = text.slice(v.start, v.end);
      if (sep.startsWith("==") && !v.quoted) continue;
      if (
        AWS_END.test(key) && /^[A-Za-z0-9\/+=]{16,}$/.test(value) &&
        !isHexLike(value)
      ) {
        edits.push({ start: v.start, end: v.end, id: "aws-secret" });
        continue;
      }
      // KEY=value with no blanks, as in .env files and shell.
      const tight = sep === "=" && k === at - 1 && v.start === at + 1;
      if (credentialValueOk(value, v.quoted, tight)) {
        edits.push({ start: v.start, end: v.end, id: "credential" });
      }
    }
  },
};

// ---------------------------------------- netrc, prose passwords, bare Bearer

const WORDS = /pass(?:word|phrase|wd|code)|bearer/gi;
const NETRC_BEFORE =
  /(?:^|\s)(?:machine[ \t\r\n]+\S+|default)(?:[ \t\r\n]+(?:login|account|port)[ \t\r\n]+\S+)+[ \t\r\n]+$/;
const NETRC_AFTER = /password[ \t]+/iy;
const PROSE =
  /pass(?:word|phrase|wd|code)(?:[ \t]+(?:for|of|on|to)[ \t]+(?:the[ \t]+)?[^\s:]+)?[ \t]*:?[ \t]+(?:is|was|set[ \t]+to|changed[ \t]+to)[ \t]*:?[ \t]+(?:now[ \t]+|still[ \t]+|just[ \t]+)?/iy;
const TRAILING_MARKS = /[!?]+$/;
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

const words: Rule = {
  ids: [
    {
      id: "netrc",
      description: "netrc entries (machine h login u password p): the password",
    },
    {
      id: "prose-password",
      description:
        "A password stated in prose (the admin password is hunter2!): the value must hold a digit or symbol and ends at the first space",
    },
  ],
  collect(text, edits) {
    WORDS.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = WORDS.exec(text)) !== null) {
      const at = m.index;
      if (at > 0 && WORD_CHAR.test(text[at - 1]!)) continue;
      if (m[0].length === 6 && (m[0][0] === "b" || m[0][0] === "B")) {
        BEARER_TOKEN.lastIndex = at + 6;
        const t = BEARER_TOKEN.exec(text);
        if (!t) continue;
        const value = t[1]!;
        // "bearer of bad news", "bearer parseLine": a token has digits and
        // is no name made of words.
        if (!/[0-9]/.test(value) || isIdentifierLike(value)) continue;
        if (isRedacted(value) || isReference(value)) continue;
        const end = BEARER_TOKEN.lastIndex;
        edits.push({ start: end - value.length, end, id: "bearer" });
        continue;
      }
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
      proseValue(text, at, edits);
    }
  },
};

/** Every rule; scans run in this order but rank comes from {@link RULE_IDS}. */
export const RULES: readonly Rule[] = [
  privateKey,
  tokens,
  urls,
  cli,
  assignments,
  words,
];

/**
 * Rule ids from most to least specific: where two edits overlap, the one
 * whose id comes first wins.
 */
export const RULE_IDS: readonly { id: string; description: string }[] = [
  ...privateKey.ids,
  ...tokens.ids.filter((r) => r.id !== "entropy"),
  ...urls.ids,
  ...cli.ids,
  ...assignments.ids,
  ...words.ids,
  ...tokens.ids.filter((r) => r.id === "entropy"),
];
