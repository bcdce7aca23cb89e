/**
 * Credentials handed to a program on its command line: long flags named for
 * a secret (`--password x`, `--api-key=x`), the short flags of programs that
 * take a password there (`sshpass -p`, `mysql -pX`, `curl -u user:pass`,
 * `redis-cli -a`, `docker login -p`), and openssl's `-pass pass:x` and
 * keytool's `-storepass x` (found by the `pass` scan in `_words.ts`).
 *
 * @module
 */
import {
  type Edits,
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

const ID = "cli-credential";

// Not --no-password, --password-file or --token-env: the name must end in
// the secret word and be followed by `=` or a blank.
const LONG_FLAG =
  /--(?!no-)(?:[a-z0-9]+-)*(?:password|passwd|pass|passphrase|token|secret|api-?key|apikey|secret-key|access-key|private-key|client-secret|credentials?|user|auth)(?=[= \t])/g;
// The lookbehind keeps the scan cheap: only a -p/-a/-u (or curl's -sSu) on the same command
// line as one of these programs (within 300 characters, so a huge line is
// not walked again at every flag) stops it. programAt() then says which.
const SHORT_FLAG =
  /(?<=\b(?:sshpass|mysql(?:dump|admin|import|check|sh)?|mariadb(?:-dump|-admin)?|redis-cli|docker[ \t]+login|curl|az[ \t]+login|rabbitmqadmin|mongo(?:sh)?)\b[^\n|;&]{0,300}[ \t])-(?:[sSkLvifgIq]+u|[pau])/g;
const PROGRAMS =
  /\b(sshpass|mysql(?:dump|admin|import|check|sh)?|mariadb(?:-dump|-admin)?|redis-cli|docker[ \t]+login|curl|az[ \t]+login|rabbitmqadmin|mongo(?:sh)?)\b/g;
const PASS_FLAG =
  /-(?:(?:src|dest)?(?:store|key)pass[ \t]+|pass(?:in|out)?[ \t]+pass:)/y;

/** The last of the programs above before `at` in the same command. */
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

/**
 * Whether a flag's value is a secret. After `=` or as a program's password
 * argument any value counts; after a blank, ordinary words, further flags
 * and ALL_CAPS names are left alone (`--password prompt`).
 */
function valueOk(raw: string, spaced: boolean): boolean {
  const value = spaced ? raw.replace(SENTENCE_END, "") : raw;
  if (value.length === 0 || isRedacted(value)) return false;
  if (isReference(value) || isPlaceholder(value) || isPathLike(value)) {
    return false;
  }
  if (!spaced) return !isTypeWord(value);
  if (value.startsWith("-")) return false;
  return !isPlainWord(value) && !/^[A-Z][A-Z0-9_]*$/.test(value);
}

function take(
  text: string,
  v: ValueSpan | null,
  spaced: boolean,
  edits: Edits,
): void {
  if (!v) return;
  if (valueOk(text.slice(v.start, v.end), spaced && !v.quoted)) {
    edits.push({ start: v.start, end: v.end, id: ID });
  }
}

/** Takes the password of a `user:password` value at `at`; the user stays. */
function userPassword(text: string, at: number, edits: Edits): void {
  const v = readValue(text, at);
  if (!v) return;
  const colon = text.indexOf(":", v.start);
  if (colon < 0 || colon >= v.end - 1) return;
  take(text, { start: colon + 1, end: v.end, quoted: false }, false, edits);
}

/** A secret's name: words joined by `-`/`_` (`db-pass`, `id=npmrc`). */
const SECRET_NAME = /^(?:id=)?[a-z]+(?:[-_][a-z]+)*(?:,|$)/;

/** The bare text after `at` up to a blank. */
function valueAfter(text: string, at: number): string {
  const end = text.slice(at).search(/\s|$/);
  return text.slice(at, at + end);
}

/** Adds an edit for every secret-named long flag's value. */
export function collectLongFlags(text: string, edits: Edits): void {
  LONG_FLAG.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = LONG_FLAG.exec(text)) !== null) {
    if (m.index > 0 && !/\s/.test(text[m.index - 1]!)) continue;
    const after = m.index + m[0].length;
    const eq = text[after] === "=";
    if (m[0].endsWith("user")) {
      // curl --user name:secret; other programs' --user is a name.
      if (programAt(text, m.index) === "curl") {
        userPassword(text, eq ? after + 1 : after, edits);
      }
    } else if (
      m[0] === "--secret" &&
      SECRET_NAME.test(valueAfter(text, after + 1))
    ) {
      // gcloud/docker's --secret=db-pass names a secret; it is not one.
      continue;
    } else take(text, readValue(text, eq ? after + 1 : after), !eq, edits);
  }
}

/** Adds an edit for every password given to sshpass, mysql, curl, redis-cli or docker login. */
export function collectShortFlags(text: string, edits: Edits): void {
  SHORT_FLAG.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = SHORT_FLAG.exec(text)) !== null) {
    const after = m.index + m[0].length;
    const attached = after < text.length && !/[ \t=]/.test(text[after]!);
    const prog = programAt(text, m.index);
    // curl's flags without a value may come first in one word (-sSu).
    const flag = m[0].length > 2 ? "-u" : m[0];
    if (flag === "-u") {
      if (prog === "curl") userPassword(text, after, edits);
    } else if (flag === "-a") {
      if (prog === "redis-cli" && !attached) {
        take(text, readValue(text, after), false, edits);
      }
    } else if (prog === "sshpass") {
      take(text, readValue(text, after), false, edits);
    } else if (
      prog === "docker login" || prog === "az login" ||
      prog === "rabbitmqadmin" || prog.startsWith("mongo")
    ) {
      if (!attached) take(text, readValue(text, after), false, edits);
    } else if (prog.startsWith("mysql") || prog.startsWith("mariadb")) {
      // `-p dbname` prompts and names a database: only `-pSecret` counts.
      if (attached) take(text, readValue(text, after), false, edits);
    }
  }
}

/**
 * Secrets a command takes in its own place, each behind a literal the text
 * must hold: `htpasswd -b file user PASS`, `rabbitmqctl add_user NAME PASS`,
 * `smbclient -U user%PASS`, `gh secret set NAME --body X`, `echo X | docker
 * login --password-stdin` (or `gh auth login --with-token`), `npm config set
 * //registry/:_authToken X`, `yarn config set npmAuthToken X`, `aws
 * configure set aws_secret_access_key X`, and the admin key given to
 * `algoliasearch("APPID", "…")` in code. Group 2 is the secret.
 */
const POSITIONAL: ReadonlyArray<readonly [string, RegExp]> = [
  [
    "htpasswd",
    /\bhtpasswd(?:[ \t]+-[A-Za-z]*[cmBdspDvi]*)*[ \t]+-[A-Za-z]*b[A-Za-z]*(?:[ \t]+-[A-Za-z]+)*[ \t]+\S+[ \t]+\S+[ \t]+(['"]?)(\S+?)\1(?=\s|$)/g,
  ],
  [
    "rabbitmqctl",
    /\brabbitmqctl[ \t]+(?:add_user|change_password)[ \t]+\S+[ \t]+(['"]?)(\S+?)\1(?=\s|$)/g,
  ],
  [" -U ", /[ \t]-U[ \t]+[^\s%]+%(['"]?)(\S+?)\1(?=\s|$)/g],
  [
    "gh secret",
    /\bgh[ \t]+secret[ \t]+set\b[^\n|;&]*?[ \t](?:--body|-b)[ \t=]+(['"]?)([^\s'"]+)\1/g,
  ],
  [
    "-stdin",
    /\b(?:echo|printf)[ \t]+(['"]?)([^\s'"|]{8,})\1[ \t]*\|[ \t]*(?:docker|podman|helm[ \t]+registry|oras|gh[ \t]+auth|buildah|skopeo)[ \t]+login\b[^\n]*?--password-stdin/g,
  ],
  [
    "--with-token",
    /\b(?:echo|printf)[ \t]+(['"]?)([^\s'"|]{8,})\1[ \t]*\|[ \t]*gh[ \t]+auth[ \t]+login\b[^\n]*?--with-token/g,
  ],
  [
    "config set",
    /\b(?:npm|pnpm|yarn)[ \t]+config[ \t]+set[ \t]+\S*(?:_authToken|_auth|_password|npmAuthToken|npmAuthIdent)[ \t]+(['"]?)(\S+?)\1(?=\s|$)/g,
  ],
  [
    " -P",
    /\b(?:zip|unzip|7z|7za)\b[^\n|;&]*?[ \t]-P[ \t]*(['"]?)([^\s'"-][^\s'"]*)\1(?=\s|$)/g,
  ],
  [
    "algoliasearch",
    /\balgoliasearch\([ \t]*["'][A-Z0-9]{8,12}["'][ \t]*,[ \t]*(["'])([a-f0-9]{32})\1/g,
  ],
  [
    "aws configure",
    /\baws[ \t]+configure[ \t]+set[ \t]+(?:\S+\.)?(?:aws_secret_access_key|aws_session_token)[ \t]+(['"]?)(\S+?)\1(?=\s|$)/g,
  ],
];

/** One scan that any of the forms above needs to pass (half the cost of a literal test each). */
const POSITIONAL_GATE =
  /htpasswd|add_user|change_password| -U [^\s%]+%|secret\s+set|-stdin|--with-token|config\s+set|configure\s+set|algoliasearch\(| -P/;

/** Adds an edit for every secret a command takes in its own place. */
export function collectPositional(text: string, edits: Edits): void {
  if (!POSITIONAL_GATE.test(text)) return;
  for (const [literal, re] of POSITIONAL) {
    if (!text.includes(literal)) continue;
    re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = re.exec(text)) !== null) {
      const value = m[2]!;
      const start = m.index + m[0].lastIndexOf(value);
      take(
        text,
        { start, end: start + value.length, quoted: false },
        false,
        edits,
      );
    }
  }
}

/**
 * Handles openssl's `-pass pass:x` / `-passin pass:x` and keytool's
 * `-storepass x` when the `pass` at `at` belongs to such a flag.
 *
 * @returns True when `at` was such a flag (whether or not a value was taken).
 */
export function passFlagAt(text: string, at: number, edits: Edits): boolean {
  let d = at;
  while (d > 0 && /[a-z]/.test(text[d - 1]!)) d--;
  if (text[d - 1] !== "-" || (d > 1 && !/\s/.test(text[d - 2]!))) return false;
  PASS_FLAG.lastIndex = d - 1;
  if (!PASS_FLAG.test(text)) return false;
  take(text, readValue(text, PASS_FLAG.lastIndex), false, edits);
  return true;
}
