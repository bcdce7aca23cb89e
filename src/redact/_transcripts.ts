/**
 * Credentials in the transcript of a protocol session or a CI log, where
 * the secret has no key word before it but its place says what it is:
 * SMTP's `AUTH PLAIN <base64>` and the base64 line after `334 UGFzc3dvcmQ6`
 * ("Password:"), IMAP's `a1 LOGIN user X`, Redis MONITOR's `"AUTH" "X"`,
 * FTP's `PASS X` in a packet dump or a client's debug output, the
 * password message of a Postgres login in strace's buffers, and GitHub
 * Actions' `::add-mask::X` (the value is masked because it is a secret).
 * Each form runs only where its literal is in the text.
 *
 * @module
 */
import { hasCue } from "./_cues.ts";
import {
  base64Decoded,
  type Edits,
  isPathValue,
  isPlaceholder,
  isRedacted,
  isReference,
} from "./_scan.ts";

const ID = "credential";

/** SMTP's `AUTH PLAIN` with its initial response (group 1: base64 of `\0user\0password`). */
const SMTP_AUTH_PLAIN =
  /\bAUTH[ \t]+PLAIN[ \t]+([A-Za-z0-9+\/]{8,}={0,2})(?![\w+\/=])/dg;

/**
 * The client's line after the server's `334` prompt for a password
 * (base64 of `Password:` or `password:`), as a transcript, swaks or
 * `openssl s_client` shows it (group 1).
 */
const SMTP_AUTH_LOGIN_PASSWORD =
  /\b334[ \t]+[Uc]GFzc3dvcmQ6[ \t]*\r?\n[ \t]*(?:C:[ \t]*|[<>~-]+[ \t]*)?([A-Za-z0-9+\/]{4,}={0,2})[ \t]*\r?$/dgm;

/**
 * IMAP's `LOGIN user password` after a command tag (`a1`, `A001`, `.`),
 * also as curl's verbose output shows it (`> A001 LOGIN …`): the password
 * quoted (group 1) or bare (group 2), last on its line.
 */
const IMAP_LOGIN =
  /^[ \t]*(?:C:[ \t]*|[<>]+[ \t]*)?[A-Za-z0-9.]{1,10}[ \t]+LOGIN[ \t]+(?:"[^"\n]*"|[^\s"]+)[ \t]+(?:"((?:[^"\\\n]|\\.)+)"|([^\s"]+))[ \t]*\r?$/dgm;

/**
 * A Redis `AUTH` as MONITOR prints it (`"AUTH" "X"`, `"AUTH" "user" "X"`,
 * also inside `"HELLO" "3" "AUTH" …`): the only argument (group 1) or the
 * second (group 2).
 */
const REDIS_MONITOR_AUTH =
  /"(?:AUTH|auth)"[ \t]+"((?:[^"\\\n]|\\.)*)"(?:[ \t]+"((?:[^"\\\n]|\\.)*)")?/dg;

/**
 * FTP's `PASS X` as tcpdump decodes it (`FTP: PASS X`) or a client's
 * debug output sends it (`---> PASS X`, curl's `> PASS X`): group 1, last
 * on its line.
 */
const FTP_PASS = /(?:\bFTP:|>)[ \t]+PASS[ \t]+(\S+)[ \t]*\r?$/dgm;
/** A file a test runner reports as passed (`PASS src/app.test.ts`): no password. */
const TEST_FILE = /^[\w.-]+\/[\w.\/-]*\.\w+$/;

/**
 * A Postgres PasswordMessage in strace's escaped buffer: `"p`, a length of
 * four bytes (three `\0` and one escaped or printed byte), the password
 * (group 1), then its `\0`.
 */
const POSTGRES_PASSWORD_MESSAGE =
  /"p\\0\\0\\0(?:\\[0-7]{1,3}|\\[a-z"\\]|[^\\"])((?:[^"\\\n]|\\[^0\n])+)\\0"/dg;

/** GitHub Actions' `::add-mask::X` workflow command (group 1). */
const ADD_MASK = /::add-mask::([^\s"'`]+)/dg;

/** Whether a value found in its place is one to replace (not a reference, mask or marker). */
function secretValue(value: string): boolean {
  return value.length >= 3 && !isRedacted(value) && !isReference(value) &&
    !isPlaceholder(value);
}

/** Adds an edit for the group `pick` names in each match of `re` (flag `d`) whose value passes `ok`. */
function collectGroup(
  text: string,
  re: RegExp,
  edits: Edits,
  pick: (m: RegExpExecArray) => number,
  ok: (value: string) => boolean = secretValue,
): void {
  re.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    const g = pick(m);
    const value = m[g]!;
    if (!ok(value)) continue;
    const [start, end] = m.indices![g]!;
    edits.push({ start, end, id: ID });
  }
}

/** Whether base64 decodes to SASL PLAIN's `authzid\0user\0password`. */
function saslPlain(value: string): boolean {
  return base64Decoded(value)?.includes("\0") ?? false;
}

/** Adds an edit for each credential a protocol transcript or CI log shows in its place. */
export function collectTranscriptCredentials(text: string, edits: Edits): void {
  if (hasCue(text, "AUTH PLAIN")) {
    collectGroup(text, SMTP_AUTH_PLAIN, edits, () => 1, saslPlain);
  }
  if (hasCue(text, "GFzc3dvcmQ6")) {
    collectGroup(text, SMTP_AUTH_LOGIN_PASSWORD, edits, () => 1);
  }
  if (hasCue(text, " LOGIN ")) {
    collectGroup(text, IMAP_LOGIN, edits, (m) => m[1] !== undefined ? 1 : 2);
  }
  if (hasCue(text, '"AUTH" "') || hasCue(text, '"auth" "')) {
    collectGroup(
      text,
      REDIS_MONITOR_AUTH,
      edits,
      (m) => m[2] !== undefined ? 2 : 1,
    );
  }
  if (hasCue(text, "> PASS ") || hasCue(text, "FTP: PASS ")) {
    collectGroup(
      text,
      FTP_PASS,
      edits,
      () => 1,
      (value) =>
        secretValue(value) && !isPathValue(value) && !TEST_FILE.test(value),
    );
  }
  if (hasCue(text, '"p\\0\\0\\0')) {
    collectGroup(text, POSTGRES_PASSWORD_MESSAGE, edits, () => 1);
  }
  if (hasCue(text, "::add-mask::")) {
    collectGroup(text, ADD_MASK, edits, () => 1);
  }
}
