/**
 * What a command prints when its whole point is to print a secret:
 * `heroku auth:token`, `gh auth token`, `gcloud auth print-access-token`,
 * `kubectl get secret … | base64 -d`, `vault kv get -field=…`, `wg genkey`.
 * The output holds the bare value with no key word before it, which no
 * rule on the text alone can tell from an ordinary word; the indexer pairs
 * each tool output with the command it answers and hands both here.
 *
 * @module
 */
import { hasCue } from "./_cues.ts";
import { encodesCredential } from "./_command_line.ts";
import { type Edits, isPathValue, isRedacted } from "./_scan.ts";
import type { RedactionResult } from "./redact.ts";

/** Commands whose output is a secret. */
const PRINTS_SECRET = new RegExp(
  [
    String.raw`\bheroku\s+auth:token\b`,
    String.raw`\bgh\s+auth\s+token\b`,
    String
      .raw`\bgcloud\s+(?:auth\s+(?:application-default\s+)?print-(?:access|identity)-token)\b`,
    String.raw`\baws\s+ecr(?:-public)?\s+get-login-password\b`,
    String.raw`\baws\s+codeartifact\s+get-authorization-token\b`,
    String.raw`\baz\s+account\s+get-access-token\b`,
    String
      .raw`\bkubectl\b[^\n|]*\bget\s+secrets?\b[^\n]*\|\s*base64\s+(?:-d|--decode|-D)\b`,
    String.raw`\bkubectl\s+create\s+token\b`,
    String.raw`\boc\s+whoami\s+(?:-t|--show-token)\b`,
    String.raw`\bvault\s+(?:kv\s+get|read)\b[^\n]*-field[= ]`,
    String.raw`\bop\s+(?:read|item\s+get\b[^\n]*--fields?)\b`,
    String.raw`\b(?:gopass|pass)\s+show\b`,
    String.raw`\bsecurity\s+find-(?:generic|internet)-password\b[^\n]*\s-w\b`,
    String.raw`\bdoppler\s+secrets\s+get\b[^\n]*--plain\b`,
    String.raw`\bbw\s+get\s+password\b`,
    String.raw`\blpass\s+show\b[^\n]*--password\b`,
    String.raw`\bwg\s+genkey\b`,
    String.raw`\bwg\s+show\s+\S+\s+private-key\b`,
    String.raw`\bbuildkite-agent\s+secret\s+get\b`,
    String.raw`\bopenssl\s+rand\s+-(?:base64|hex)\b`,
    // Generators of an app's signing secret.
    String
      .raw`\b(?:rails|rake)\s+secret\b|\bmix\s+phx\.gen\.secret\b|\bsecrets\.token_(?:hex|urlsafe)\b|\bget_random_secret_key\b`,
    String
      .raw`\b(?:printenv|echo|printf)\b[^\n|;&>]*\$?\{?[A-Z0-9_]*(?:PASSWORD|PASSWD|SECRET|TOKEN|API_?KEY|PRIVATE_?KEY|CREDENTIALS?)\b(?![^\n|;&]*>)`,
    String.raw`\bterraform\s+output\b[^\n]*-raw\b`,
    String.raw`\baws\s+secretsmanager\s+get-secret-value\b`,
    String.raw`\baws\s+ssm\s+get-parameters?\b[^\n]*--with-decryption\b`,
    String.raw`\baws\s+configure\s+get\s+\S*(?:secret|token)`,
    String.raw`\bgcloud\s+secrets\s+versions\s+access\b`,
    String.raw`\baz\s+keyvault\s+secret\s+show\b`,
    String.raw`\bsops\s+(?:-d|--decrypt)\b`,
    String.raw`\bkubectl\b[^\n|]*\bget\s+secrets?\b[^\n]*jsonpath`,
    String
      .raw`\bcat\s+(?:\S*\/)?\.?(?:[\w-]*[_-])?(?:token|secret|password|passwd|api[_-]?key)s?(?:\.(?:txt|key))?(?=\s|$)`,
    String.raw`\bcat\s+(?:\S*\/)?master\.key(?=\s|$)`,
    // A MongoDB replica set's keyfile; OpenVPN's auth-user-pass file (the
    // user, then the password).
    String.raw`\bcat\s+(?:\S*\/)?[\w.-]*key-?file(?:\.\w+)?(?=\s|$)`,
    String
      .raw`\bcat\s+\S*(?:openvpn|vpn)\S*\/[\w.-]*(?:auth|login|pass|cred)[\w.-]*(?=\s|$)`,
    // Jenkins' secrets/initialAdminPassword and other camelCase files.
    String.raw`\bcat\s+(?:\S*\/)?[a-z]\w*(?:Password|Token|Secret)(?=\s|$)`,
    String.raw`\bCONFIG\s+GET\s+(?:requirepass|masterauth)\b`,
    // Argo CD's first admin password; password generators.
    String.raw`\bargocd\s+admin\s+initial-password\b`,
    String.raw`\bpwgen\b|\bgpg\s+--gen-random\b`,
  ].join("|"),
  "i",
);

/**
 * A line that is one bare value (no blank, 8+ characters), alone, after an
 * `Output:` label as Gemini CLI and Qwen Code print a command's result, or
 * as a quoted item of redis-cli's numbered reply (`2) "…"`).
 */
const BARE_LINE =
  /^([ \t]*(?:Output:[ \t]*)?)(\S{8,})([ \t]*)$|^([ \t]*\d{1,3}\)[ \t]+")([^"\s]{8,})("[ \t]*)$/gm;

/**
 * Values that are no secret whatever printed them: paths (`/x`, `./x`,
 * `~/x`; not `~bY…` or `.Hi6…`, passwords), URLs, numbers, a CI's mask
 * (`[MASKED]`, `***`, `****1234`).
 */
const NOT_SECRET =
  /^(?:\[(?:MASKED|masked|REDACTED|FILTERED|HIDDEN)\]$|\*{3,}[^*\s]{0,4}$|\/|\.{1,2}\/|~(?:[\w.-]*\/|$)|[a-z][a-z0-9+.-]*:\/\/|\d+(?:\.\d+)*$|(?:true|false|null|none)$|<exited|\(none\)|(?:requirepass|masterauth)$)/i;

/**
 * Whether a command prints a secret (its output is then passed to
 * {@linkcode redactPrintedSecret}).
 *
 * @param command The command line.
 * @returns True for `heroku auth:token`, `gh auth token`, … .
 * @example
 * ```ts
 * import { printsSecret } from "./command_output.ts";
 * import { equal } from "node:assert/strict";
 * equal(printsSecret("heroku auth:token"), true);
 * equal(printsSecret("heroku logs --tail"), false);
 * ```
 */
export function printsSecret(command: string): boolean {
  // A credential encoded to base64 (`echo -n 'user:X' | base64`) prints it.
  return PRINTS_SECRET.test(command) || encodesCredential(command);
}

/**
 * Replaces every line of a secret-printing command's output that is one
 * bare value (no blank, 8+ characters, not a marker already) with
 * `[redacted:command-output]`; warnings and prose lines stay.
 *
 * @param output The command's output, already through `redact()`.
 * @returns The text and the count under `command-output`.
 * @example
 * ```ts
 * import { redactPrintedSecret } from "./command_output.ts";
 * import { equal } from "node:assert/strict";
 * const r = redactPrintedSecret(" ›   Warning: token will expire\n2adaf897-2e8c-49b8-8323-1e01b627e2c3\n");
 * equal(r.text, " ›   Warning: token will expire\n[redacted:command-output]\n");
 * ```
 */
export function redactPrintedSecret(output: string): RedactionResult {
  let n = 0;
  const text = output.replace(
    BARE_LINE,
    (
      line,
      lead?: string,
      value?: string,
      trail?: string,
      item?: string,
      quoted?: string,
      close?: string,
    ) => {
      const v = value ?? quoted!;
      // A value starting with `/` is a path unless it is base64 with a
      // long random piece (an AWS secret key can start with `/`).
      const plain = v.startsWith("/") ? isPathValue(v) : NOT_SECRET.test(v);
      if (isRedacted(v) || plain) return line;
      n++;
      return `${lead ?? item}[redacted:command-output]${trail ?? close}`;
    },
  );
  return { text, counts: n ? { "command-output": n } : {} };
}

/**
 * A line that echoes a command: a shell prompt (`$ cmd`, `user@host:~$
 * cmd`) or Gemini CLI's `Command: cmd` header. Group 1 is the command.
 */
const PROMPT =
  /^(?:Command:|[ \t]*(?:[\w.-]+@[\w.-]+(?::[^\n$#]{0,120})?)?\$)[ \t]+(\S[^\n]*)/gm;
/** Longest command line checked for printing a secret (they are short). */
const MAX_COMMAND = 256;
/**
 * A word one of the secret-printing commands above holds: a prompt line
 * without one (nearly all) is not tried against them all.
 */
const COMMAND_WORD =
  /pass|secret|token|key|cred|auth|base64|heroku|gcloud|aws|az |kubectl|oc |vault|op |security|doppler|bw |wg |openssl|rails|rake|mix |sops|master|terraform|CONFIG|argocd|pwgen|gpg/i;
/** How far after its command a printed secret is looked for. */
const MAX_OUTPUT = 16384;

/**
 * Adds a `command-output` edit for each bare value line printed after a
 * secret-printing command echoed in the same text (a terminal session
 * pasted into a message, a tool output that shows its prompt: `$ heroku
 * auth:token` then the token), up to the next prompt line or 16 KiB. The
 * indexer pairs a tool output with its command; this reads the pair when
 * both are in one text.
 */
export function collectEchoedSecretOutput(text: string, edits: Edits): void {
  if (!hasCue(text, "$ ") && !hasCue(text, "Command:")) return;
  PROMPT.lastIndex = 0;
  let m = PROMPT.exec(text);
  while (m !== null) {
    const command = m[1]!;
    const from = m.index + m[0].length + 1;
    const next = PROMPT.exec(text);
    if (
      command.length <= MAX_COMMAND && COMMAND_WORD.test(command) &&
      printsSecret(command)
    ) {
      const to = Math.min(next ? next.index : text.length, from + MAX_OUTPUT);
      if (to > from) printedValues(text, from, to, edits);
    }
    m = next;
  }
}

/** Adds an edit for each bare value line of `text` in [from, to). */
function printedValues(
  text: string,
  from: number,
  to: number,
  edits: Edits,
): void {
  const region = text.slice(from, to);
  BARE_LINE.lastIndex = 0;
  let v: RegExpExecArray | null;
  while ((v = BARE_LINE.exec(region)) !== null) {
    const value = v[2] ?? v[5]!;
    const plain = value.startsWith("/")
      ? isPathValue(value)
      : NOT_SECRET.test(value);
    if (isRedacted(value) || plain) continue;
    const start = from + v.index + (v[1] ?? v[4]!).length;
    edits.push({ start, end: start + value.length, id: "command-output" });
  }
}
