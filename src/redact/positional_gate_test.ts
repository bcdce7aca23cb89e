import { equal } from "node:assert/strict";
import { passesPositionalGate, POSITIONAL_GATE } from "./_command_line.ts";

/**
 * Texts for each alternative of the gate, in the gate's order, each holding
 * no cue but its own alternative's (so a cue left out fails a test).
 */
const ONE_PER_ALTERNATIVE: (string | string[])[] = [
  "htpasswd -b .htpasswd admin x",
  "printf '%s' \"$KEY\" | wg pubkey",
  "add_user alice",
  "change_password bob",
  "pg_dump -U admin%x db",
  "gh secret  set API_KEY",
  "docker x --password-stdin",
  "gh auth x --with-token",
  "npm config set registry x",
  "aws configure set region x",
  "dotnet user-secrets list",
  ["mysql -Pfoo", "mysql -pfoo"],
  "ldapsearch -x",
  "msbuild /p:Key=x",
  "gh variable list",
  "drone info",
  "xcrun altool --list",
  "openssl rand 16",
  "ssh-keygen -t ed25519",
  "sudo true",
  "chpasswd < list",
  "x devops y",
  "ngrok authtoken x",
  "vercel env ls",
  "mc alias list",
  "lftp host",
  "net use Z: x",
  "ConvertFrom-SecureString -AsPlainText",
  "wandb\tlogin",
  "snyk auth x",
  "poetry config x",
  "heroku env:set A=1",
  "aws ssm put-parameter",
  "mosquitto_pub -t x",
  "cqlsh host",
  "influx setup",
  "nuget sources list",
  "cypress run",
  "codecov upload",
  "prefect cloud",
  "pulumi stack",
  "keyvault list",
  "bundle config list",
  "ipmitool lan print",
  "az mysql list",
  ["psexec x", "PsExec x", "paexec x", "PaExec x"],
  "twine upload dist/*",
  "mkpasswd x",
  "b2 authorize-account",
  "wpa_passphrase ssid",
  "cryptsetup open",
  "kinit alice",
  "scanner -Dsonar.host=x",
  "jq -n --arg a b",
];

/** The gate's top-level alternatives (a `|` outside groups, classes and escapes). */
function alternatives(source: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let inClass = false;
  let from = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === "\\") i++;
    else if (inClass) inClass = c !== "]";
    else if (c === "[") inClass = true;
    else if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (c === "|" && depth === 0) {
      parts.push(source.slice(from, i));
      from = i + 1;
    }
  }
  parts.push(source.slice(from));
  return parts;
}

Deno.test("positional gate: every alternative has a text, and its cue", () => {
  const alts = alternatives(POSITIONAL_GATE.source);
  equal(ONE_PER_ALTERNATIVE.length, alts.length);
  for (const [i, texts] of ONE_PER_ALTERNATIVE.entries()) {
    const alone = new RegExp(alts[i]!);
    for (const text of [texts].flat()) {
      equal(alone.test(text), true, `${alts[i]} should match ${text}`);
      // The cue prefilter must not stop a text the regex lets through.
      equal(passesPositionalGate(text), true, text);
    }
  }
});

Deno.test("positional gate: a text with no cue does not pass", () => {
  equal(passesPositionalGate("we decided to keep the retry loop"), false);
  equal(POSITIONAL_GATE.test("we decided to keep the retry loop"), false);
});
