/**
 * Credentials handed to a program on its command line: long flags named for
 * a secret (`--password x`, `--api-key=x`), the short flags of programs that
 * take a password there (`sshpass -p`, `mysql -pX`, `curl -u user:pass`,
 * `redis-cli -a`, `docker login -p`, `podman login -p`), and openssl's
 * `-pass pass:x` and keytool's `-storepass x` (found by the `pass` scan in
 * `_words.ts`).
 *
 * @module
 */
import { cueSet, hasAnyCue, hasCue, POSITIONAL_CUES } from "./_cues.ts";
import { collectAssignments, cookiePairs } from "./_assignments.ts";
import { collectTokens } from "./_tokens.ts";
import { collectUrls } from "./_urls.ts";
import {
  type Edits,
  isIdentifierLike,
  isPathValue,
  isPlaceholder,
  isPlainWord,
  isRedacted,
  isReference,
  isTypeWord,
  lineStartWithin,
  readValue,
  type ValueSpan,
  withoutSentenceEnd,
} from "./_scan.ts";

const ID = "cli-credential";

// Not --no-password, --password-file or --token-env: the name must end in
// the secret word and be followed by `=` or a blank. Its words may be
// joined by `_` (WP-CLI's --user_pass, --admin_password) and a database's
// password may be --dbpass.
const LONG_FLAG =
  /--(?!no-)(?:[a-z0-9]+[-_])*(?:db)?(?:password|passwd|pass|passphrase|(?:auth)?token|secret|api-?key|apikey|secret-key|access-key|(?:account|storage|master|primary|secondary|shared)-key|private-key|certificate-key|client-secret|credentials?|creds|user|auth|bearer|requirepass|masterauth|cookie)(?=[= \t])/g;
// The lookbehind keeps the scan cheap: only a -p/-a/-u (or curl's -sSu) on the same command
// line as one of these programs (within 300 characters, so a huge line is
// not walked again at every flag) stops it. programAt() then says which.
const SHORT_FLAG =
  /(?<=\b(?:sshpass|mysql(?:dump|admin|import|check|sh)?|mariadb(?:-dump|-admin)?|redis-cli|(?:docker|podman|buildah|skopeo|oras|helm[ \t]+registry|crane(?:[ \t]+auth)?)[ \t]+login|curl|az[ \t]+login|rabbitmqadmin|mongo(?:sh)?)\b[^\n|;&]{0,300}[ \t])-(?:[sSkLvifgIq]+[ub]|[paub])/g;
/**
 * The flag part of {@linkcode SHORT_FLAG} alone: a text without it has no
 * short flag to read, and this scan is a quarter of the cost of looking for
 * the programs.
 */
const FLAG_SHAPE = /-(?:[sSkLvifgIq]+[ub]|[paub])/;
/**
 * The programs above, each a word of its own: not inside a host name
 * (`redis-cli -h mysql-0.mysql -a X` is redis-cli's).
 */
const PROGRAMS =
  /\b(sshpass|mysql(?:dump|admin|import|check|sh)?|mariadb(?:-dump|-admin)?|redis-cli|(?:docker|podman|buildah|skopeo|oras|helm[ \t]+registry|crane(?:[ \t]+auth)?)[ \t]+login|curl|az[ \t]+login|rabbitmqadmin|mongo(?:sh)?)(?![\w.-])/g;
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
  while ((m = PROGRAMS.exec(segment)) !== null) {
    const before = segment[m.index - 1];
    if (before !== "." && before !== "-") last = m[1]!;
  }
  return last.replace(/[ \t]+/g, " ");
}

/** An Apple app-specific password (`--password abcd-efgh-ijkl-mnop`): not words. */
const APP_PASSWORD = /^[a-z]{4}-[a-z]{4}-[a-z]{4}-[a-z]{4}$/;

/**
 * Whether a flag's value is a secret. After `=` or as a program's password
 * argument any value counts; after a blank, ordinary words, further flags
 * and ALL_CAPS names are left alone (`--password prompt`), but not an
 * Apple app-specific password.
 */
function valueOk(raw: string, spaced: boolean): boolean {
  const value = spaced ? withoutSentenceEnd(raw) : raw;
  if (value.length === 0 || isRedacted(value)) return false;
  if (isReference(value) || isPlaceholder(value) || isPathValue(value)) {
    return false;
  }
  if (!spaced) return !isTypeWord(value);
  if (value.startsWith("-")) return false;
  if (APP_PASSWORD.test(value)) return true;
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

/**
 * Takes the password of a `user:password` value at `at`; the user stays.
 * The password may be quoted on its own (`admin:'pa ss'`). With no
 * password (`-u KEY:`, as Segment and Stripe take a key) a key-like user
 * is the secret.
 */
function userPassword(text: string, at: number, edits: Edits): void {
  let from = at;
  while (text[from] === " " || text[from] === "\t") from++;
  // A Jenkinsfile's `sh "curl -u \$U:X"`: Groovy's escaped `$`.
  if (text[from] === "\\" && text[from + 1] === "$") from++;
  const v = readValue(text, from);
  // An earlier replacement (`[redacted:…]:` for a key as the user) is done.
  if (!v || isRedacted(text.slice(v.start, v.end))) return;
  // Looked for inside the value only: searching on to the end of the text
  // made a line of many `curl -u name` flags take quadratic time.
  const inValue = text.slice(v.start, v.end).indexOf(":");
  if (inValue < 0) return;
  const colon = v.start + inValue;
  if (colon === v.end - 1) {
    if (!v.quoted && QUOTES.includes(text[colon + 1] ?? "")) {
      take(text, readValue(text, colon + 1), false, edits);
    } else if (keyAsUser(text.slice(v.start, colon))) {
      take(text, { start: v.start, end: colon, quoted: false }, false, edits);
    }
    return;
  }
  take(text, { start: colon + 1, end: v.end, quoted: false }, false, edits);
}

const QUOTES = "'\"";

/** A user that is an API key: 16+ letters and digits (both), not a name made of words. */
function keyAsUser(user: string): boolean {
  return /^[A-Za-z0-9_-]{16,}$/.test(user) && /[0-9]/.test(user) &&
    /[A-Za-z]/.test(user) && !isIdentifierLike(user);
}

/** Takes the session-like values of curl's `-b`/`--cookie` pairs at `at` (not a cookie file's name). */
function curlCookies(text: string, at: number, edits: Edits): void {
  const v = readValue(text, at);
  if (!v || !text.slice(v.start, v.end).includes("=")) return;
  cookiePairs(text, v.start, v.end, edits);
}

/** A tokenizer's special-token flag (`--pad_token`, `--eos-token`): no secret. */
const SPECIAL_TOKEN =
  /[-_](?:pad|eos|bos|unk|sep|cls|mask|sot|eot|start|end|stop|special)[-_]token$/;

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
    const after = m.index + m[0].length;
    // A flag opens a quoted argument string or an env value (compose's
    // `REDIS_ARGS: "--requirepass X"`, `ARGS=--password X`): its value
    // is the bare word after it.
    const opens = m.index > 0 && `"'=`.includes(text[m.index - 1]!) &&
      /^[ \t]+[^\s"']/.test(text.slice(after, after + 16));
    if (m.index > 0 && !/\s/.test(text[m.index - 1]!) && !opens) continue;
    const eq = text[after] === "=";
    if (m[0] === "--cookie") {
      // curl --cookie 'sessionid=…; theme=dark': the session-like values.
      if (programAt(text, m.index) === "curl") {
        curlCookies(text, eq ? after + 1 : after, edits);
      }
    } else if (m[0].endsWith("user")) {
      // curl --user name:secret; other programs' --user is a name.
      if (programAt(text, m.index) === "curl") {
        userPassword(text, eq ? after + 1 : after, edits);
      }
    } else if (m[0].endsWith("creds")) {
      // skopeo/podman/buildah --creds user:secret (--src-creds, --dest-creds).
      userPassword(text, eq ? after + 1 : after, edits);
    } else if (
      m[0] === "--secret" &&
      SECRET_NAME.test(valueAfter(text, after + 1))
    ) {
      // gcloud/docker's --secret=db-pass names a secret; it is not one.
      continue;
    } else if (SPECIAL_TOKEN.test(m[0])) {
      // A tokenizer's special token (--pad_token=[PAD], --eos-token '</s>').
      continue;
    } else take(text, readValue(text, eq ? after + 1 : after), !eq, edits);
  }
}

/**
 * Adds an edit for every password given to sshpass, mysql, curl, redis-cli
 * or a registry login (docker, podman, buildah, skopeo, oras, helm
 * registry, crane).
 */
export function collectShortFlags(text: string, edits: Edits): void {
  if (!FLAG_SHAPE.test(text)) return;
  // Each flag's look back would find no program (300 characters each).
  PROGRAMS.lastIndex = 0;
  if (!PROGRAMS.test(text)) return;
  SHORT_FLAG.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = SHORT_FLAG.exec(text)) !== null) {
    const after = m.index + m[0].length;
    const attached = after < text.length && !/[ \t=]/.test(text[after]!);
    const prog = programAt(text, m.index);
    // curl's flags without a value may come first in one word (-sSu).
    const flag = m[0].length > 2 ? "-" + m[0].slice(-1) : m[0];
    if (flag === "-u") {
      if (prog === "curl") userPassword(text, after, edits);
    } else if (flag === "-b") {
      if (prog === "curl") curlCookies(text, after, edits);
    } else if (flag === "-a") {
      if (prog === "redis-cli" && !attached) {
        take(text, readValue(text, after), false, edits);
      }
    } else if (prog === "sshpass") {
      take(text, readValue(text, after), false, edits);
    } else if (
      prog.endsWith(" login") || prog === "rabbitmqadmin" ||
      prog.startsWith("mongo")
    ) {
      if (!attached) take(text, readValue(text, after), false, edits);
    } else if (prog.startsWith("mysql") || prog.startsWith("mariadb")) {
      // `-p dbname` prompts and names a database: only `-pSecret` counts.
      if (attached) take(text, readValue(text, after), false, edits);
    }
  }
}

/** `setx NAME value`, fish's `set -x NAME value`, for a credential-named variable. */
const SET_VARIABLE =
  /\b(?:setx(?:[ \t]+\/[A-Za-z]+)*|set[ \t]+-[a-zA-Z]*x[a-zA-Z]*)[ \t]+["']?[A-Za-z_]\w*(?:PASSWORD|PASSWD|PASS|PWD|SECRET|TOKEN|KEY)["']?[ \t]+(['"]?)([^\s'"]+)\1(?=\s|$)/dgi;

/**
 * Oracle's `user/password@db` (`sqlplus`, `expdp`, `rman target …`): the last
 * `@` a host follows ends the password.
 */
const ORACLE_LOGIN =
  /\b(?:sqlplus|sqlldr|expdp|impdp|rman|dgmgrl)(?:[ \t]+-[A-Za-z]+)*(?:[ \t]+target)?[ \t]+(['"]?)[A-Za-z][\w$#]*\/([^\s'"\/]+?)(?=@(?:\/\/)?[\w.-]+(?::\d+)?(?:\/[\w.-]*)?(?=[\s'"]|$)|\1(?:\s|$))/dg;

/**
 * Secrets a command takes in its own place, each behind a literal the text
 * must hold: `rabbitmqctl add_user NAME PASS`,
 * `smbclient -U user%PASS`, `gh secret set NAME --body X` (or `-b'X'`),
 * `echo X | docker login --password-stdin` (or `gh auth login
 * --with-token`, `az devops login`, `sudo -S`, `chpasswd`), `npm config set
 * //registry/:_authToken X`, `yarn config set npmAuthToken X`, `aws configure set
 * aws_secret_access_key X`, `dotnet user-secrets set NAME X` for a
 * credential-named setting, and the password flags of programs whose short flag means
 * a password only there (`ldapsearch -w`, `sqlcmd -P`, `pscp -pw`,
 * `xfreerdp /p:`, `7z -pX`, `openssl enc -k`, `ssh-keygen -N`, `vercel
 * -t`, `ngrok config add-authtoken`, `mc alias set NAME URL ACCESS
 * SECRET`, `lftp -u user,X`, `net user NAME X /add`, `net use … /user:U X`,
 * `ConvertTo-SecureString "X" -AsPlainText`, `cypress run --record --key
 * X`, `codecovcli … -t X`, `prefect cloud login -k X`, `pulumi config set
 * --secret NAME X`, `az keyvault secret set … --value X`, `bundle config
 * HOST user:X`, `ipmitool … -P X`, `ipmitool user set password ID X`).
 * Group 2 is the secret. (htpasswd's are read by {@linkcode htpasswdPasswords}.)
 */
const POSITIONAL: ReadonlyArray<readonly [string, RegExp]> = [
  [
    "rabbitmqctl",
    /\brabbitmqctl[ \t]+(?:add_user|change_password)[ \t]+\S+[ \t]+(['"]?)(\S+?)\1(?=\s|$)/dg,
  ],
  [" -U ", /[ \t]-U[ \t]+[^\s%]+%(['"]?)(\S+?)\1(?=\s|$)/dg],
  [
    "gh secret",
    /\bgh[ \t]+secret[ \t]+set\b[^\n|;&]*?[ \t](?:--body[ \t=]+|-b[ \t=]*)(['"]?)([^\s'"]+)\1/dg,
  ],
  // A repository variable named for a credential (`gh variable set API_KEY`).
  [
    "gh variable",
    /\bgh[ \t]+variable[ \t]+set[ \t]+["']?\w*(?:PASSWORD|PASSWD|PASS|PWD|SECRET|TOKEN|KEY)["']?(?=[ \t])[^\n|;&]*?[ \t](?:--body[ \t=]+|-b[ \t=]*)(['"]?)([^\s'"]+)\1/dgi,
  ],
  // Drone's secret value (`--data @file` names a file).
  [
    "drone",
    /\bdrone[ \t]+(?:org)?secret[ \t]+(?:add|update)\b[^\n|;&]*?[ \t]--data(?:=|[ \t]+)(['"]?)([^\s'"@][^\s'"]*)\1(?=\s|$)/dg,
  ],
  // altool's app-specific password (`-p @keychain:NAME`, `@env:VAR` name one).
  [
    "altool",
    /\baltool\b[^\n|;&]*?[ \t](?:-p|--password)(?:=|[ \t]+)(['"]?)([^\s'"@-][^\s'"]*)\1(?=\s|$)/dg,
  ],
  [
    "-stdin",
    /\b(?:echo|printf)[ \t]+(['"]?)([^\s'"|]{8,})\1[ \t]*\|[ \t]*(?:docker|podman|helm[ \t]+registry|oras|gh[ \t]+auth|buildah|skopeo)[ \t]+login\b[^\n]*?--password-stdin/dg,
  ],
  [
    "| ",
    /\b(?:echo|printf)[ \t]+(?:-[ne]+[ \t]+)?(['"]?)([^\s'"|]{8,})\1[ \t]*\|[ \t]*(?:(?:npx|bunx|pnpm(?:[ \t]+dlx)?|yarn)[ \t]+)?(?:vercel[ \t]+env[ \t]+add|wrangler[ \t]+(?:pages[ \t]+)?secret[ \t]+put|gh[ \t]+secret[ \t]+set|docker[ \t]+secret[ \t]+create|netlify[ \t]+env:set|firebase[ \t]+functions:secrets:set|gcloud[ \t]+secrets[ \t]+(?:create|versions[ \t]+add)|kubectl[ \t]+create[ \t]+secret\b[^\n|;&]{0,300}?=\/dev\/stdin|wg[ \t]+pubkey)\b/dg,
  ],
  [
    "--with-token",
    /\b(?:echo|printf)[ \t]+(['"]?)([^\s'"|]{8,})\1[ \t]*\|[ \t]*gh[ \t]+auth[ \t]+login\b[^\n]*?--with-token/dg,
  ],
  [
    "config set",
    /\b(?:npm|pnpm|yarn)[ \t]+config[ \t]+set[ \t]+\S*(?:_authToken|_auth|_password|npmAuthToken|npmAuthIdent)['"]?[ \t]+(['"]?)(\S+?)\1(?=\s|$)/dg,
  ],
  [
    " -P",
    /\b(?:zip|unzip|7z|7za|sqlcmd|bcp|osql)\b[^\n|;&]*?[ \t]-P[ \t]*(['"]?)([^\s'"-][^\s'"]*)\1(?=\s|$)/dg,
  ],
  [
    " -p",
    /\b(?:7z[arz]?|7zz|(?:un)?rar)\b[^\n|;&]*?[ \t]-h?p(['"]?)([^\s'"-][^\s'"]*)\1(?=\s|$)/dg,
  ],
  [
    "ldap",
    /\bldap[a-z]+\b[^\n|;&]*?[ \t]-w[ \t]*(['"]?)([^\s'"]+)\1(?=\s|$)/dg,
  ],
  [
    " -pw ",
    /\b(?:pscp|plink|psftp|putty)(?:\.exe)?\b[^\n|;&]*?[ \t]-pw[ \t]+(['"]?)([^\s'"]+)\1(?=\s|$)/dg,
  ],
  ["/p:", /\b[xw]freerdp3?\b[^\n|;&]*?[ \t]\/p:(['"]?)([^\s'"]+)\1(?=\s|$)/dg],
  [
    "openssl",
    /\bopenssl\b[^\n|;&]*?[ \t]-k[ \t]+(['"]?)([^\s'"]+)\1(?=\s|$)/dg,
  ],
  // openssl enc's raw key in hex (-K; -iv is no secret).
  [
    "openssl",
    /\bopenssl\b[^\n|;&]*?[ \t]-K[ \t]+(['"]?)([0-9a-fA-F]{16,})\1(?=\s|$)/dg,
  ],
  [
    "ssh-keygen",
    /\bssh-keygen\b[^\n|;&]*?[ \t]-[NP][ \t]*(['"]?)([^\s'"]+)\1(?=\s|$)/dg,
  ],
  [
    "sudo",
    /\b(?:echo|printf)[ \t]+(['"]?)([^\s'"|]{4,})\1[ \t]*\|[ \t]*sudo\b[^\n|;&]*?[ \t]-[A-Za-z]*S\b/dg,
  ],
  [
    "<<<",
    /\bsudo\b[^\n|;&]*?[ \t]-[A-Za-z]*S\b[^\n|;&]*?<<<[ \t]*(['"]?)([^\s'"]+)\1(?=\s|$)/dg,
  ],
  [
    "chpasswd",
    /\b(?:echo|printf)[ \t]+(['"]?)[^\s:'"|]+:([^\s'"|]+)\1[ \t]*\|[ \t]*(?:sudo[ \t]+)?chpasswd\b/dg,
  ],
  [
    "devops",
    /\b(?:echo|printf)[ \t]+(['"]?)([^\s'"|]{8,})\1[ \t]*\|[ \t]*az[ \t]+devops[ \t]+login\b/dg,
  ],
  [
    "authtoken",
    /\bngrok\b[^\n|;&]*?[ \t](?:config[ \t]+add-authtoken|authtoken)[ \t]+(['"]?)([^\s'"]+)\1(?=\s|$)/dg,
  ],
  [
    "vercel",
    /\bvercel\b[^\n|;&]*?[ \t]-t[ \t]+(['"]?)([^\s'"]+)\1(?=\s|$)/dg,
  ],
  // MinIO's access key, then its secret key.
  [
    "mc ",
    /\bmc[ \t]+(?:alias[ \t]+set|config[ \t]+host[ \t]+add)[ \t]+\S+[ \t]+\S+[ \t]+(['"]?)([^\s'"]+)\1[ \t]/dg,
  ],
  [
    "mc ",
    /\bmc[ \t]+(?:alias[ \t]+set|config[ \t]+host[ \t]+add)[ \t]+\S+[ \t]+\S+[ \t]+\S+[ \t]+(['"]?)([^\s'"]+)\1(?=\s|$)/dg,
  ],
  [
    "lftp",
    /\blftp\b[^\n|;&]*?[ \t]-u[ \t]+['"]?[^\s,'"]+,(['"]?)([^\s'"]+)\1['"]?(?=\s|$)/dg,
  ],
  [
    "net user",
    /\bnet[ \t]+user[ \t]+[^\s\/]+[ \t]+(['"]?)([^\s'"*\/][^\s'"]*)\1[ \t]+\/add\b/dg,
  ],
  // A password after the share, or after the user.
  [
    "net use",
    /\bnet[ \t]+use(?:[ \t]+(?:[A-Za-z]:|\*))?[ \t]+\\\\\S+[ \t]+(['"]?)([^\s'"\/*&|;<>][^\s'"]*)\1(?=\s|$)/dg,
  ],
  [
    "net use",
    /\bnet[ \t]+use\b[^\n|;&]*?[ \t]\/u(?:ser)?:\S+[ \t]+(['"]?)([^\s'"\/*&|;<>][^\s'"]*)\1(?=\s|$)/dg,
  ],
  [
    "AsPlainText",
    /\bConvertTo-SecureString[ \t]+(?:-String[ \t]+)?(["'])([^"'\n]{3,})\1[ \t]+-AsPlainText\b/dg,
  ],
  // A registry or service token given as the login command's argument.
  [
    "login",
    /\b(?:cargo|wandb)[ \t]+login(?:[ \t]+--(?:registry|host)(?:=|[ \t]+)\S+|[ \t]+--(?:relogin|verify|cloud|anonymously))*[ \t]+(['"]?)([^\s'"-][^\s'"]{15,})\1(?=\s|$)/dg,
  ],
  [
    "snyk auth",
    /\bsnyk[ \t]+auth(?:[ \t]+--[\w-]+=\S+)*[ \t]+(['"]?)([^\s'"-][^\s'"]{15,})\1(?=\s|$)/dg,
  ],
  // Poetry's repository password and PyPI token.
  [
    "poetry config",
    /\bpoetry[ \t]+config[ \t]+(?:http-basic\.\S+[ \t]+\S+|pypi-token\.\S+)[ \t]+(['"]?)([^\s'"-][^\s'"]*)\1(?=\s|$)/dg,
  ],
  // `netlify env:set NAME X` for a credential-named variable (piped in: above).
  [
    "env:set",
    /\bnetlify[ \t]+env:set[ \t]+["']?[A-Za-z_]\w*(?:PASSWORD|PASSWD|PASS|PWD|SECRET|TOKEN|KEY)["']?[ \t]+(['"]?)([^\s'"-][^\s'"]*)\1(?=\s|$)/dgi,
  ],
  // A .NET user secret whose name names a credential (`Stripe:SecretKey`).
  [
    "user-secrets",
    /\bdotnet[ \t]+user-secrets[ \t]+set[ \t]+["']?[\w:.-]*(?:PASSWORD|PASSWD|PASS|PWD|SECRET|TOKEN|KEY)["']?[ \t]+(['"]?)([^\s'"-][^\s'"]*)\1(?=\s|$)/dgi,
  ],
  // An SSM parameter's value (a SecureString's is the secret).
  [
    "put-parameter",
    /\baws[ \t]+ssm[ \t]+put-parameter\b[^\n|;&]*?[ \t]--value[ \t=]+(['"]?)([^\s'"]+)\1(?=\s|$)/dg,
  ],
  // Brokers' and databases' password flags: mosquitto -P, cqlsh -p, influx -t.
  [
    "mosquitto_",
    /\bmosquitto_(?:pub|sub|rr)\b[^\n|;&]*?[ \t]-P[ \t]+(['"]?)([^\s'"]+)\1(?=\s|$)/dg,
  ],
  [
    "cqlsh",
    /\bcqlsh\b[^\n|;&]*?[ \t]-p[ \t]+(['"]?)([^\s'"-][^\s'"]*)\1(?=\s|$)/dg,
  ],
  [
    "influx",
    /\binflux\b[^\n|;&]*?[ \t]-t[ \t]+(['"]?)([^\s'"-][^\s'"]*)\1(?=\s|$)/dg,
  ],
  // NuGet's source password: dotnet nuget add source … -p X, nuget sources add … -Password X.
  [
    "nuget",
    /\b(?:dotnet[ \t]+nuget|nuget(?:\.exe)?)[ \t]+(?:add|update|sources)\b[^\n|;&]*?[ \t](?:-p|-Password)[ \t]+(['"]?)([^\s'"-][^\s'"]*)\1(?=\s|$)/dg,
  ],
  // Record keys and upload tokens of test and CI services.
  [
    "cypress",
    /\bcypress\b[^\n|;&]*?[ \t]--key(?:=|[ \t]+)(['"]?)([^\s'"-][^\s'"]*)\1(?=\s|$)/dg,
  ],
  [
    "codecov",
    /\bcodecov(?:cli)?\b[^\n|;&]*?[ \t]-t[ \t]+(['"]?)([^\s'"-][^\s'"]*)\1(?=\s|$)/dg,
  ],
  [
    "prefect",
    /\bprefect[ \t]+cloud[ \t]+login\b[^\n|;&]*?[ \t](?:-k|--key)(?:=|[ \t]+)(['"]?)([^\s'"-][^\s'"]*)\1(?=\s|$)/dg,
  ],
  // A secret config value: flags, the name, then the value (`--secret`
  // looked for in the 300 characters after `set`, so each command is read
  // once).
  [
    "pulumi",
    /\bpulumi[ \t]+config[ \t]+set(?=[^\n|;&]{0,300}[ \t]--secret(?=\s|$))(?:[ \t]+--?\w[\w-]*(?:=\S+|[ \t]+[^\s'"-]\S*)?)*?[ \t]+(?!-)[^\s'"]+(?:[ \t]+--(?:secret|path|plaintext))*[ \t]+(['"]?)([^\s'"-][^\s'"]*)\1(?=\s|$)/dg,
  ],
  [
    "keyvault",
    /\baz[ \t]+keyvault[ \t]+secret[ \t]+set\b[^\n|;&]*?[ \t]--value[ \t=]+(['"]?)([^\s'"]+)\1(?=\s|$)/dg,
  ],
  // A private gem server's user:password (Sidekiq Pro's gems.contribsys.com).
  [
    "bundle config",
    /\bbundle[ \t]+config(?:[ \t]+set)?(?:[ \t]+--(?:local|global))*[ \t]+(?:https?:\/\/)?[\w-]+(?:\.[\w-]+)+\/?[ \t]+(['"]?)[^\s'":\/]+:(?!\/\/)([^\s'"]+)\1(?=\s|$)/dg,
  ],
  [
    "aws configure",
    /\baws[ \t]+configure[ \t]+set[ \t]+(?:\S+\.)?(?:aws_secret_access_key|aws_session_token)[ \t]+(['"]?)(\S+?)\1(?=\s|$)/dg,
  ],
  // A BMC's password (-P), its IPMIv2 Kg key (-k, -y hex), and a password
  // ipmitool sets for a user or a LAN channel.
  [
    "ipmitool",
    /\bipmitool\b[^\n|;&]*?[ \t]-[Pky][ \t]*(['"]?)([^\s'"-][^\s'"]*)\1(?=\s|$)/dg,
  ],
  // Audit 16: a database server's admin password (az sql server create
  // -p), a MinIO user's secret key, PsExec's and twine's -p, mkpasswd's
  // password, b2's application key, an SSID's passphrase.
  [
    "az ",
    /\baz[ \t]+(?:sql|postgres|mysql|synapse)[ \t]+[^\n|;&]*?[ \t]-p[ \t]+(['"]?)([^\s'"-][^\s'"]*)\1(?=\s|$)/dg,
  ],
  [
    "mc ",
    /\bmc[ \t]+admin[ \t]+user[ \t]+add[ \t]+\S+[ \t]+\S+[ \t]+(['"]?)([^\s'"]+)\1(?=\s|$)/dg,
  ],
  [
    "xec",
    /\b[pP][sa][eE]xec(?:64)?(?:\.exe)?\b[^\n|;&]*?[ \t]-p[ \t]+(['"]?)([^\s'"-][^\s'"]*)\1(?=\s|$)/dg,
  ],
  [
    "twine",
    /\btwine[ \t]+upload\b[^\n|;&]*?[ \t]-p[ \t]+(['"]?)([^\s'"-][^\s'"]*)\1(?=\s|$)/dg,
  ],
  [
    "mkpasswd",
    /\bmkpasswd(?:[ \t]+(?:-[mSRP]|--(?:method|salt|rounds|password-fd))(?:=|[ \t]+)[^\s'"]+|[ \t]+(?:-s|--stdin))*[ \t]+(['"]?)([^\s'"-][^\s'"]*)\1(?=\s|$)/dg,
  ],
  [
    "b2 ",
    /\bb2[ \t]+(?:account[ \t]+authorize|authorize[-_]account)[ \t]+['"]?[^\s'"]+['"]?[ \t]+(['"]?)([^\s'"]+)\1(?=\s|$)/dg,
  ],
  [
    "wpa_passphrase",
    /\bwpa_passphrase[ \t]+(?:"[^"\n]*"|'[^'\n]*'|[^\s'"]+)[ \t]+(['"]?)((?<=['"])[^'"\n]+|[^\s'"]+)\1(?=\s|$)/dg,
  ],
  // A value piped into a program that reads a passphrase from stdin.
  [
    "| ",
    /\b(?:echo|printf)[ \t]+(?:-[neE]+[ \t]+)?(['"]?)([^\s'"|]{4,})\1[ \t]*\|[ \t]*(?:sudo[ \t]+)?(?:cryptsetup|kinit|openconnect\b[^\n|;&]{0,200}?--passwd-on-stdin|passwd\b[^\n|;&]{0,200}?--stdin)\b/dg,
  ],
  // jq's --arg under a credential's name, or a key-shaped value (32+ hex
  // digits, or 20+ letters and digits) under the name key.
  [
    "--arg",
    /\bjq\b[^\n|;&]*?[ \t]--arg[ \t]+\w*(?:[Tt]oken|TOKEN|[Ss]ecret|SECRET|[Pp]ass(?:word|wd)?|PASS(?:WORD|WD)?|pwd|PWD|[Aa]pi_?[Kk]ey|API_?KEY)[ \t]+(['"]?)([^\s'"$-][^\s'"]*)\1(?=\s|$)/dg,
  ],
  [
    "--arg",
    /\bjq\b[^\n|;&]*?[ \t]--arg[ \t]+(?:key|k)[ \t]+(['"]?)([0-9a-fA-F]{32,}|(?=[\w+\/=.-]*\d)(?=[\w+\/=.-]*[A-Za-z])[\w+\/=.-]{20,})\1(?=\s|$)/dg,
  ],
  // SonarScanner's token: -Dsonar.token=X, -Dsonar.login=<40 hex>.
  [
    "sonar.",
    /(?:^|[\s'"])(?:-D)?sonar\.(?:token|password|login(?==(?:['"]?)(?:[0-9a-f]{40}|sq[upa]_)))=(['"]?)([^\s'"]+)\1/dg,
  ],
  [
    "ipmitool",
    /\bipmitool\b[^\n|;&]*?[ \t](?:user[ \t]+set[ \t]+password[ \t]+\d+|lan[ \t]+set[ \t]+\d+[ \t]+password)[ \t]+(['"]?)([^\s'"]+)\1(?=\s|$)/dg,
  ],
];

/**
 * One scan that any of the forms above needs to pass (half the cost of a
 * literal test each), asked only of a text holding one of
 * {@linkcode POSITIONAL_CUES} (every alternative holds one): most texts
 * hold none, and the alternation costs ~5 ns a character.
 */
export const POSITIONAL_GATE =
  /htpasswd|\|[ \t]*(?:(?:npx|bunx|pnpm|yarn)[ \t]+(?:dlx[ \t]+)?)?(?:vercel|wrangler|gh|docker|netlify|firebase|gcloud|kubectl|wg) |add_user|change_password| -U [^\s%]+%|secret\s+set|-stdin|--with-token|config\s+set|configure\s+set|user-secrets| -[Pp]|ldap|\/p:|gh variable|drone|altool|openssl|ssh-keygen|sudo|chpasswd|devops|authtoken|vercel|mc |lftp|net use|AsPlainText|(?:cargo|wandb)[ \t]+login|snyk auth|poetry config|env:set|put-parameter|mosquitto_|cqlsh|influx|nuget|cypress|codecov|prefect|pulumi|keyvault|bundle config|ipmitool|az (?:sql|postgres|mysql|synapse)|[pP][sa][eE]xec|twine|mkpasswd|b2 a|wpa_passphrase|cryptsetup|kinit|sonar\.|--arg/;
const POSITIONAL_SET = cueSet(POSITIONAL_CUES);

/** Whether `text` passes the positional forms' gate. */
export function passesPositionalGate(text: string): boolean {
  return hasAnyCue(text, POSITIONAL_SET) && POSITIONAL_GATE.test(text);
}

/**
 * Redis' password as its config file sets it (`requirepass X`,
 * `masterauth X` alone on a line, not commented out) or `CONFIG SET` does
 * (also as redis-cli's arguments), as typed at redis-cli's prompt
 * (`127.0.0.1:6379> AUTH [user] X`), and an ACL user's (`ACL SETUSER u on
 * >X`).
 */
const REDIS_CONFIG =
  /^[ \t]*(?:[\w.:\[\]-]*>[ \t]*)?(?:CONFIG[ \t]+SET[ \t]+)?(?:requirepass|masterauth)[ \t]+(['"]?)([^\s'"]+)\1[ \t]*\r?$/dgim;
const REDIS_CLI_CONFIG =
  /\bredis-cli\b[^\n|;&]*?[ \t](?:CONFIG|config)[ \t]+(?:SET|set)[ \t]+(?:requirepass|masterauth)[ \t]+(['"]?)([^\s'"]+)\1(?=\s|$)/dg;
const REDIS_AUTH =
  /^[\w.:\[\]-]*>[ \t]*AUTH[ \t]+(?:[^\s'"]+[ \t]+)?(['"]?)([^\s'"]+)\1[ \t]*\r?$/dgim;

/** `ACL SETUSER name`, then its rules to the end of the line (group 1). */
const ACL_SETUSER = /\b(?:ACL|acl)[ \t]+(?:SETUSER|setuser)[ \t]+\S+([^\n]*)/dg;
/** One rule of an ACL SETUSER line: quoted or bare. */
const ACL_RULE = /"[^"]*"|'[^']*'|[^\s'"]+/g;

/**
 * A secret of strongSwan's or Libreswan's ipsec.secrets (`%any : PSK
 * "X"`, also `EAP`, `XAUTH`, a `0s` base64 or `0x` hex value): group 1, 2
 * or 3.
 */
const IPSEC_SECRET =
  /:[ \t]*(?:PSK|EAP|XAUTH|NTLM)[ \t]+(?:"([^"\n]+)"|'([^'\n]+)'|(0[sx][A-Za-z0-9+\/=]{8,}))/dg;

/** Adds an edit for every ipsec.secrets secret (a file, or a line echoed into it). */
export function collectIpsecSecrets(text: string, edits: Edits): void {
  if (
    !hasCue(text, "PSK ") && !hasCue(text, "EAP ") && !hasCue(text, "XAUTH ")
  ) return;
  IPSEC_SECRET.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = IPSEC_SECRET.exec(text)) !== null) {
    const g = m[1] !== undefined ? 1 : m[2] !== undefined ? 2 : 3;
    const [start, end] = m.indices![g]!;
    const value = m[g]!;
    if (isRedacted(value) || isReference(value) || isPlaceholder(value)) {
      continue;
    }
    edits.push({ start, end, id: "credential" });
  }
}

/** Adds an edit for every Redis password a config line, redis-cli, the prompt's AUTH or an ACL user sets. */
export function collectRedisPasswords(text: string, edits: Edits): void {
  // Plain searches: cheaper than one alternation tried at every position.
  const config = hasCue(text, "requirepass") || hasCue(text, "masterauth");
  const auth = hasCue(text, "> AUTH ") || hasCue(text, "> auth ");
  const acl = hasCue(text, "SETUSER") || hasCue(text, "setuser");
  if (!config && !auth && !acl) return;
  const forms: RegExp[] = [];
  if (config) forms.push(REDIS_CONFIG, REDIS_CLI_CONFIG);
  if (auth) forms.push(REDIS_AUTH);
  for (const re of forms) {
    for (const m of matchesOf(re, text)) {
      const [start, end] = m.indices![2]!;
      if (valueOk(text.slice(start, end), false)) {
        edits.push({ start, end, id: "credential" });
      }
    }
  }
  if (acl) aclPasswords(text, edits);
}

/**
 * Adds an edit for each password an `ACL SETUSER` line adds (`>X`) or
 * removes (`<X`), up to a shell operator that ends the command.
 */
function aclPasswords(text: string, edits: Edits): void {
  ACL_SETUSER.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = ACL_SETUSER.exec(text)) !== null) {
    const [from, to] = m.indices![1]!;
    const rules = text.slice(from, to);
    ACL_RULE.lastIndex = 0;
    let r: RegExpExecArray | null;
    while ((r = ACL_RULE.exec(rules)) !== null) {
      const rule = r[0];
      if (/^(?:\|\|?|&&|;)/.test(rule)) break;
      const quoted = rule[0] === '"' || rule[0] === "'";
      const at = r.index + (quoted ? 1 : 0);
      if (rules[at] !== ">" && rules[at] !== "<") continue;
      const end = r.index + rule.length - (quoted ? 1 : 0);
      if (end - at < 2) continue;
      const start = from + at + 1;
      if (valueOk(text.slice(start, from + end), false)) {
        edits.push({ start, end: from + end, id: "credential" });
      }
    }
  }
}

/** A value a command decodes from base64 on the spot: `echo X | base64 -d`. */
const DECODED_ECHO =
  /\b(?:echo|printf)[ \t]+(?:-n[ \t]+)?(['"]?)([A-Za-z0-9+\/]{16,}={0,2})\1[ \t]*\|[ \t]*base64[ \t]+(?:-d|--decode|-D)\b/dg;

/** Adds an edit for a base64 value echoed into `base64 -d` that decodes to a token or credential. */
function decodedEcho(text: string, edits: Edits): void {
  DECODED_ECHO.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = DECODED_ECHO.exec(text)) !== null) {
    let decoded: string;
    try {
      decoded = atob(m[2]!.padEnd(Math.ceil(m[2]!.length / 4) * 4, "="));
    } catch {
      continue;
    }
    const found: Edits = [];
    collectTokens(decoded, found);
    collectAssignments(decoded, found);
    collectUrls(decoded, found);
    if (found.length === 0) continue;
    const [start, end] = m.indices![2]!;
    edits.push({ start, end, id: ID });
  }
}

/**
 * A value a command encodes to base64 (`echo -n 'X' | base64`, `printf
 * '%s' 'user:X' | base64 -w0`; not `base64 -d`): group 2, 3 or 4 (single-
 * or double-quoted, or bare).
 */
const ENCODED_ECHO =
  /\b(?:echo|printf)[ \t]+(?:-[neE]+[ \t]+)*(?:(['"]?)%s\1[ \t]+)?(?:'([^'\n]+)'|"([^"\n]+)"|([^\s'"`|;&<>()]+))[ \t]*\|[ \t]*(?:openssl[ \t]+)?base64\b(?![ \t]+(?:-[A-Za-z0-9]*[dD]\b|--decode))/dg;
/** A word on the line of an encoded value that names what it is a credential. */
const NAMES_CREDENTIAL =
  /pass(?:word|wd|phrase)?(?![a-z])|[_-]pwd|pwd[_-]|secret|token|api[-_]?key|credential|creds|authori[sz]ation|\bbasic\b|\bauth\b/i;
/** A user and password as HTTP Basic joins them (`user:X`; not a URL). */
const USER_PASSWORD = /^[\w.@+-]+:(?!\/\/)(.+)$/;
/** How far around an encoded value its line is read for a credential's name. */
const ENCODED_REACH = 300;

/** A password's shape: a digit or a symbol, and not a number (a port). */
function passwordShaped(value: string): boolean {
  return /[0-9]|[^\sA-Za-z0-9]/.test(value) && !/^[0-9]+$/.test(value);
}

/**
 * Adds an edit for a credential a command encodes to base64: the password
 * of a `user:X` pair when it has a password's shape or its line names a
 * credential (`Authorization: Basic $(echo -n 'u:X' | base64)`), and any
 * other value of that shape on a line that names one (`DB_PASSWORD=$(echo
 * -n 'X' | base64)`, `--from-literal=token=…`, `# the admin password`).
 */
function encodedEcho(text: string, edits: Edits): void {
  ENCODED_ECHO.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = ENCODED_ECHO.exec(text)) !== null) {
    const g = m[2] !== undefined ? 2 : m[3] !== undefined ? 3 : 4;
    const [start, end] = m.indices![g]!;
    // The line around the command, no further than the reach either way.
    const from = lineStartWithin(text, m.index, ENCODED_REACH);
    const tail = text.slice(end, end + ENCODED_REACH);
    const nl = tail.indexOf("\n");
    const around = text.slice(
      from < 0 ? m.index - ENCODED_REACH : from,
      nl < 0 ? end + tail.length : end + nl,
    );
    const named = NAMES_CREDENTIAL.test(around);
    const value = m[g]!;
    const pair = USER_PASSWORD.exec(value);
    if (pair) {
      const password = pair[1]!;
      if (named || passwordShaped(password)) {
        const at = end - password.length;
        take(text, { start: at, end, quoted: false }, false, edits);
      }
    } else if (named && passwordShaped(value)) {
      take(text, { start, end, quoted: false }, false, edits);
    }
  }
}

/**
 * Whether a command encodes a credential to base64 (its output, the
 * encoded credential, is then a secret too).
 *
 * @param command The command line.
 * @returns True for `echo -n 'user:X' | base64` and the other forms
 * {@linkcode collectPositional} takes a value from.
 * @example
 * ```ts
 * import { encodesCredential } from "./_command_line.ts";
 * import { equal } from "node:assert/strict";
 * equal(encodesCredential("echo -n 'admin:S3cret!x' | base64"), true);
 * equal(encodesCredential('echo -n "hello" | base64'), false);
 * ```
 */
export function encodesCredential(command: string): boolean {
  if (!hasCue(command, "base64")) return false;
  const found: Edits = [];
  encodedEcho(command, found);
  return found.length > 0;
}

/**
 * htpasswd and its flag words (group 1: `-nbB`, `-b -c`, `-C 10`, `-bnBC
 * 10`), also as a container's entrypoint (`docker run --entrypoint
 * htpasswd httpd:2 -Bbn user X`: its image is passed over).
 */
const HTPASSWD =
  /(?:--entrypoint[ \t=]+["']?htpasswd["']?[ \t]+[^\s'"-]\S*|(?<![\w.-])htpasswd(?:\.exe)?)((?:[ \t]+-(?:[A-Za-z25]*[Cr][ \t]*\d+|[A-Za-z25]+))+)/g;
/** One argument after them: double- or single-quoted (group 1, 2), or bare (3). */
const HTPASSWD_ARG = /[ \t]+(?:"([^"\n]*)"|'([^'\n]*)'|([^\s'"`;|()<>]+))/dy;

/**
 * Adds an edit for the password htpasswd takes with `-b`: after the file
 * and the user (`htpasswd -b -c FILE user X`), or after the user alone
 * when `-n` prints the line instead (`htpasswd -nbB user X`).
 */
function htpasswdPasswords(text: string, edits: Edits): void {
  HTPASSWD.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = HTPASSWD.exec(text)) !== null) {
    // The flags' letters, without -C's cost and -r's rounds.
    const letters = m[1]!.replace(/[Cr][ \t]*\d+|[\s-]/g, "");
    if (!letters.includes("b")) continue;
    let args = letters.includes("n") ? 2 : 3;
    let at = HTPASSWD.lastIndex;
    let arg: RegExpExecArray | null = null;
    while (args-- > 0) {
      HTPASSWD_ARG.lastIndex = at;
      arg = HTPASSWD_ARG.exec(text);
      if (!arg) break;
      at = HTPASSWD_ARG.lastIndex;
    }
    if (!arg) continue;
    const g = arg[1] !== undefined ? 1 : arg[2] !== undefined ? 2 : 3;
    const [start, end] = arg.indices![g]!;
    take(text, { start, end, quoted: false }, false, edits);
  }
}

/** Adds an edit for every secret a command takes in its own place. */
export function collectPositional(
  text: string,
  edits: Edits,
  commandLine = true,
): void {
  if (hasCue(text, "base64")) {
    decodedEcho(text, edits);
    encodedEcho(text, edits);
  }
  if (commandLine && COMMAND_GATE.test(text)) {
    positional(text, COMMAND_FORMS, edits);
  }
  if (passesPositionalGate(text)) {
    positional(text, POSITIONAL, edits);
    if (hasCue(text, "htpasswd")) htpasswdPasswords(text, edits);
  }
}

/**
 * A Makefile recipe line: a tab first, after a file reader's line-number
 * gutter (`     4\t`, `     4→`) when there is one.
 */
const RECIPE_LINE = /^(?:[ \t]*\d{1,7}(?:→|\t|\. ))?\t/;
/** How far before a value its recipe line's start is looked for. */
const RECIPE_REACH = 1024;

/**
 * Adds an edit for every secret a command takes in its own place on the
 * recipe lines of a Makefile shown in tool output (`cat Makefile`, a file
 * read): those lines are command lines, as a shell script's are.
 */
export function collectRecipeCommands(text: string, edits: Edits): void {
  if (!hasCue(text, "\n\t") && !hasCue(text, "\t\t")) return;
  if (!passesPositionalGate(text)) return;
  const found: Edits = [];
  collectPositional(text, found, false);
  for (const e of found) {
    const from = lineStartWithin(text, e.start, RECIPE_REACH);
    if (from < 0) continue;
    if (RECIPE_LINE.test(text.slice(from, Math.min(e.start, from + 16)))) {
      edits.push(e);
    }
  }
}

/** Adds an edit for the secret (group 2) of each form whose literal the text holds. */
function positional(
  text: string,
  forms: ReadonlyArray<readonly [string, RegExp]>,
  edits: Edits,
): void {
  for (const [literal, re] of forms) {
    if (!text.includes(literal)) continue;
    for (const m of matchesOf(re, text)) {
      const [start, end] = m.indices![2]!;
      take(text, { start, end, quoted: false }, false, edits);
    }
  }
}

/** A lazy run over the rest of a command (`[^\n|;&]*?`) or of a line (`[^\n]*?`). */
const LAZY_RUN = /\[\^\\n\|;&\]\*\?|\[\^\\n\]\*\?/;

/**
 * A form split at its first lazy run: the part before it (the program's
 * name) and the whole form, sticky, with the characters the run stops at.
 */
interface SplitForm {
  head: RegExp;
  whole: RegExp;
  stops: string;
}

const SPLIT_FORMS = new Map<RegExp, SplitForm | null>();

function splitForm(re: RegExp): SplitForm | null {
  if (SPLIT_FORMS.has(re)) return SPLIT_FORMS.get(re)!;
  const lazy = LAZY_RUN.exec(re.source);
  const split = lazy
    ? {
      // The run may open an optional group: `(?:[^\n|;&]*?[ \t])?`.
      head: new RegExp(
        re.source.slice(0, lazy.index).replace(/\(\?:$/, ""),
        "g",
      ),
      whole: new RegExp(re.source, re.flags.replace("g", "y")),
      stops: lazy[0].includes("|") ? "\n|;&" : "\n",
    }
    : null;
  SPLIT_FORMS.set(re, split);
  return split;
}

/**
 * The matches `re` (global) finds in `text`. A form with a lazy run (a
 * program's name, anything on its command, then a flag) is tried only
 * where its head is, and when it fails there, not at another head of the
 * same command that its run already passed over: tried at each, a long
 * command repeating the name (`openssl openssl …`) was quadratic.
 */
function* matchesOf(re: RegExp, text: string): Generator<RegExpExecArray> {
  const split = splitForm(re);
  let m: RegExpExecArray | null;
  if (!split) {
    re.lastIndex = 0;
    while ((m = re.exec(text)) !== null) yield m;
    return;
  }
  const { head, whole, stops } = split;
  // The head and the command end of the last failed try.
  let failedHeadEnd = -1;
  let commandEnd = -1;
  head.lastIndex = 0;
  let h: RegExpExecArray | null;
  while ((h = head.exec(text)) !== null) {
    const at = h.index;
    const headEnd = at + h[0].length;
    head.lastIndex = at + 1;
    // What the run reads from this head, the last failed try read too.
    if (at < commandEnd && headEnd >= failedHeadEnd) continue;
    whole.lastIndex = at;
    m = whole.exec(text);
    if (m) {
      head.lastIndex = Math.max(at + 1, whole.lastIndex);
      yield m;
      continue;
    }
    failedHeadEnd = headEnd;
    commandEnd = headEnd;
    while (commandEnd < text.length && !stops.includes(text[commandEnd]!)) {
      commandEnd++;
    }
  }
}

/**
 * A password file's name: one of its words is pass, pwd, secret, token or
 * cred (`~/.vault_pass`, `token.txt`; not `compass.txt`).
 */
const PASSWORD_FILE =
  /(?:[^\s'"|;&>]*\/)?(?:[^\s\/'"|;&>]*[._-])?(?:pass(?:word|wd|phrase)?|pwd|secrets?|tokens?|credentials?|creds|pgpass|api[_-]?key)(?:[._-][^\s\/'"|;&>]*)?(?=[\s;&|)]|$)/
    .source;
/** A redirect or `| [sudo] tee [-a]` into the file that follows. */
const INTO_FILE = /[ \t]*(?:>>?|\|[ \t]*(?:sudo[ \t]+)?tee(?:[ \t]+-a)?)[ \t]*/
  .source;
/** `echo 'X' > ~/.vault_pass`: a value written into a password file. */
const PASSWORD_FILE_WRITE = new RegExp(
  /\b(?:echo|printf)[ \t]+(?:-[neE]+[ \t]+)?(['"]?)([^\s'"|>\\]{6,})(?:\\n)?\1/
    .source + INTO_FILE + PASSWORD_FILE,
  "dgi",
);
/** A file named for a login (`/tmp/auth.txt`, `vpn-login.conf`). */
const AUTH_FILE = /[^\s'"|;&>]*(?:auth|login)[^\s'"|;&>]*(?=[\s;&|)]|$)/.source;
/** Any file OpenVPN's `--auth-user-pass` reads later on the line (within 300 characters). */
const AUTH_USER_PASS_FILE = /\S+(?=[^\n]{0,300}--auth-user-pass\b)/.source;
/**
 * `printf 'user\nX\n' > auth.txt`: a user and password written as two
 * lines into a file named for them or given to OpenVPN's `--auth-user-pass`.
 */
const USER_PASSWORD_FILE_WRITE = new RegExp(
  /\b(?:printf|echo[ \t]+-e)[ \t]+(['"])[^\s'"\\]+\\n([^\s'"\\]+)(?:\\n)?\1/
    .source +
    INTO_FILE +
    `(?:${PASSWORD_FILE}|${AUTH_FILE}|${AUTH_USER_PASS_FILE})`,
  "dgi",
);

/**
 * Forms found on command lines (a command record, a command echoed in tool
 * output, text of unknown kind) but not looked for in speech, where their
 * anchors would cost a scan of every message: `setx NAME X`, fish's
 * `set -x NAME X`, HTTPie's `-a user:X` and `api_key==X`, Oracle's
 * `user/X@db`, a password echoed into a password file.
 */
const COMMAND_FORMS: ReadonlyArray<readonly [string, RegExp]> = [
  // A credential-named variable set by Windows' setx or fish's set -x.
  ["setx ", SET_VARIABLE],
  ["set -", SET_VARIABLE],
  // HTTPie (and xh): -a user:X.
  [
    " -a ",
    /(?:^|[\s;&|(])(?:https?|xhs?)[ \t]+(?:[^\n|;&]*?[ \t])?-a[ \t]+(['"]?)[^\s:'"]+:([^\s'"]+)\1(?=\s|$)/dg,
  ],
  // HTTPie's query parameter: api_key==X.
  [
    "==",
    /(?:^|[\s;&|(])(?:https?|xhs?)[ \t]+(?:[^\n|;&]*?[ \t])?(?:api[_-]?(?:key|token)|apikey|access[_-]?(?:key|token)|auth[_-]?token|token|key|secret|client[_-]?secret|password|sig|signature)==(['"]?)([^\s'"]+)\1(?=\s|$)/dgi,
  ],
  ["echo ", PASSWORD_FILE_WRITE],
  ["printf ", PASSWORD_FILE_WRITE],
  ["echo ", USER_PASSWORD_FILE_WRITE],
  ["printf ", USER_PASSWORD_FILE_WRITE],
  // Oracle's user/password@db on the command line.
  ...["sqlplus ", "sqlldr ", "expdp ", "impdp ", "rman ", "dgmgrl "].map((
    program,
  ) => [program, ORACLE_LOGIN] as const),
];
const COMMAND_GATE =
  /\bset(?:x | -[a-zA-Z]*x)| -a |==|\b(?:sqlplus|sqlldr|expdp|impdp|rman|dgmgrl|echo|printf) /;

/**
 * A line of tool output that echoes a command: Gemini CLI's `Command: …`
 * header (to its `Directory:` line), or a shell prompt (`$ `, `user@host:~$
 * `). Group 1 is the command.
 */
const ECHOED =
  /^(?:Command:|[ \t]*(?:[\w.-]+@[\w.-]+(?::[^\n$#]{0,120})?)?\$)[ \t]+(\S[^\n]*)/gm;

/**
 * Adds an edit for every secret a command takes in its own place, on the
 * lines of tool output that echo a command: the output of a shell tool
 * that prints its command back gets the command-line rules there, and
 * only there.
 */
export function collectEchoedCommands(text: string, edits: Edits): void {
  if (!hasCue(text, "Command:") && !hasCue(text, "$ ")) return;
  if (
    !passesPositionalGate(text) && !COMMAND_GATE.test(text) &&
    !hasCue(text, "base64")
  ) return;
  ECHOED.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = ECHOED.exec(text)) !== null) {
    const start = m.index + m[0].length - m[1]!.length;
    let end = start + m[1]!.length;
    if (m[0].startsWith("Command:")) {
      // A command over several lines runs to Gemini's next header.
      const header = text.indexOf("\nDirectory:", start);
      if (header > end && header - start < 8192) end = header;
    }
    const found: Edits = [];
    collectPositional(text.slice(start, end), found);
    for (const e of found) {
      edits.push({ start: e.start + start, end: e.end + start, id: e.id });
    }
    ECHOED.lastIndex = Math.max(ECHOED.lastIndex, end);
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
