import {
  assertLinear,
  keptSteps,
  repeated,
  takenSteps,
  type TextKind as Kind,
} from "./_audit_kit.ts";

/** Credentials said in prose that the fifteenth audit found leaking: [text, kind, secret]. */
const LEAKS: ReadonlyArray<readonly [string, Kind, string]> = [
  // A login pair after a colon, a wifi network's name and key, a pair in
  // brackets after the page it opens.
  [
    "Login: admin / nkGOAmfZCkQi55vMszAKoSbD",
    "speech",
    "nkGOAmfZCkQi55vMszAKoSbD",
  ],
  ["login: deploy / Hunter22!x", "speech", "Hunter22!x"],
  ["wifi: Acme-Guest / Orbit78&Falcon", "speech", "Orbit78&Falcon"],
  ["WiFi: OfficeNet / Pepper-22-lamp", "speech", "Pepper-22-lamp"],
  [
    "- admin panel: https://admin.acme.io (admin / t1oEvYxhcsPDg9oWV6)",
    "speech",
    "t1oEvYxhcsPDg9oWV6",
  ],
  ["- grafana (root / Quartz!basalt93)", "speech", "Quartz!basalt93"],
  // user:password after ssh in as / log in as.
  ["ssh in as root:Cobalt-Orbit-162 on 10.0.0.4", "speech", "Cobalt-Orbit-162"],
  ["log in as admin:Velvet#mango88 and check", "speech", "Velvet#mango88"],
  // u: … p: … shorthand.
  ["u: deploy p: Tang09764#", "speech", "Tang09764#"],
  ["user: ops, p: Harbor#velvet75", "speech", "Harbor#velvet75"],
  // An arrow after the password word.
  ["grafana password -> Cobalt29!juniper", "speech", "Cobalt29!juniper"],
  ["db pass → Velvet_93!x", "speech", "Velvet_93!x"],
  // The same password as something else, then the value.
  [
    "it's the same password as the router, Nimbus5439#",
    "speech",
    "Nimbus5439#",
  ],
  // A quoted value to log in with.
  ['try logging in with "Y2uTQxNvzhkpQKru2X"', "speech", "Y2uTQxNvzhkpQKru2X"],
  ["sign in with 'Harbor#velvet75' on staging", "speech", "Harbor#velvet75"],
  // Russian: my password, then the value.
  ["мой пароль Ospr3y7677#", "speech", "Ospr3y7677#"],
  ["мой новый пароль Basalt.copper77", "speech", "Basalt.copper77"],
  // A Gmail app password right after the words (no is, no colon).
  [
    "Summary: configured SMTP with host smtp.gmail.com, user alerts@acme.io and app password czvztmszczprnofk.",
    "speech",
    "czvztmszczprnofk",
  ],
  // Two-factor backup and recovery codes.
  ["backup codes: 00bd-53ae e29b-ac13 7cb8-3b22", "speech", "00bd-53ae"],
  ["backup codes: 00bd-53ae e29b-ac13 7cb8-3b22", "speech", "7cb8-3b22"],
  [
    "here are my github recovery codes:\n3f9a1-bc27d\n8e4d2-a61f0",
    "speech",
    "8e4d2-a61f0",
  ],
  ["backup codes:\n- 1234 5678\n- 8765 4321", "speech", "8765 4321"],
  // Basic credentials in prose (base64 of user:password).
  [
    "the header value is Basic c3ZjOkNvYmFsdDg5JWNhY3R1cw==",
    "speech",
    "c3ZjOkNvYmFsdDg5JWNhY3R1cw==",
  ],
  // Secret-named rows of a markdown table.
  [
    "| Key | Value |\n|---|---|\n| DB_HOST | db.prod.internal |\n| DB_PASSWORD | uSWz4h3mgTrQtCkmoTSUVJoF |",
    "speech",
    "uSWz4h3mgTrQtCkmoTSUVJoF",
  ],
  [
    "| Variable | Value |\n|---|---|\n| `WANDB_API_KEY` | `bfbf4af9f563d4ed8cadb02efe4b6c03e5921cfc` |\n| `PORT` | `3000` |",
    "speech",
    "bfbf4af9f563d4ed8cadb02efe4b6c03e5921cfc",
  ],
  // A hex key said after what kind of key it is.
  [
    "ok here is my Algolia admin key, please add it to the config and try again: d4d7af766a2a5d0804ac7fa808db4692",
    "speech",
    "d4d7af766a2a5d0804ac7fa808db4692",
  ],
  [
    "use this deployer private key for the sepolia script: a133fa62989a542d6b016a8bf516e366d8bfdf4914d3c4838465381111c2c76a",
    "speech",
    "a133fa62989a542d6b016a8bf516e366d8bfdf4914d3c4838465381111c2c76a",
  ],
  [
    "the signing key is 0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318",
    "speech",
    "4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318",
  ],
  // A Twilio auth token (32 hex digits) said with its name.
  [
    "here's the Twilio auth token for the test account, put it in .env: 2cc8109556f5500241f9d3073536c74f",
    "speech",
    "2cc8109556f5500241f9d3073536c74f",
  ],
  // A TOTP setup key in one piece.
  [
    "the 2FA setup key for the shared admin account is KXOY2SJQOGT5TK3Z, add it to your authenticator",
    "speech",
    "KXOY2SJQOGT5TK3Z",
  ],
  // Vendor prefixes: HubSpot private app tokens, Langfuse secret keys.
  [
    "hubspot private app token pat-eu1-b0135c0a-fe4c-445e-a1c6-6da93ff6c4f6",
    "speech",
    "pat-eu1-b0135c0a-fe4c-445e-a1c6-6da93ff6c4f6",
  ],
  [
    "sk-lf-e87efc26-0a1c-4adb-9dca-7b626be05959\n",
    "output",
    "sk-lf-e87efc26-0a1c-4adb-9dca-7b626be05959",
  ],
];

Deno.test("redact() covers the credentials said in prose the fifteenth audit found leaking", (t) =>
  takenSteps(t, LEAKS));

/** Ordinary text the rules above could over-reach to: [text, kind, keep?]. */
const KEPT: ReadonlyArray<readonly [string, Kind, string?]> = [
  // A Stripe publishable key is public (over-redacted before).
  [
    "the publishable key is pk_test_517oRZkSmUBcEdNPL372xnmZNKdK35mU3Dvx1gZ5ERKfBYB8GQudNQZloMv0z6i2ppUZQviKJo2dP7jx7t3rkt1ifnWGuoucv8w, that one is fine to ship in the bundle",
    "speech",
  ],
  [
    "my Stripe key is pk_live_51HxAbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCdEf",
    "speech",
  ],
  // Login pairs, wifi and brackets with no password.
  ["login: admin / see the wiki", "speech"],
  ["Login: admin / password", "speech"],
  ["login: <user> / <password>", "speech"],
  ["Login: 2024-05-01 / 2024-05-02", "speech"],
  ["wifi: 2.4GHz / 5GHz", "speech"],
  ["wifi: 802.11ac / 802.11ax", "speech"],
  ["wifi: on / off", "speech"],
  ["the ratio (bytes / 1024000) is the size in MB", "speech"],
  ["the flags (read / write) are set", "speech"],
  ["compare the branches (main / feature-AB-123)", "speech"],
  ["see https://acme.io/docs (v1 / v2.0.0-rc1)", "speech"],
  // user:value after ssh in as / log in as with no password.
  ["ssh in as root:root", "speech"],
  ["log in as admin:read-only", "speech"],
  ["ssh in as deploy:/srv/app and restart", "speech"],
  ["run it as user:group 1000:1000", "speech"],
  // u: and p: in maths and physics.
  ["u: 3 p: 4", "speech"],
  ["u: x p: 0.25", "speech"],
  ["u: velocity p: 101325.0", "speech"],
  ["u: 1.0e-3 p: 2.5e-4", "speech"],
  // An arrow after the word, to no password.
  ["password -> reset link sent", "speech"],
  ["password -> hashPassword(pw)", "speech"],
  ["password -> hashed_password", "speech"],
  ["password -> [hidden]", "speech"],
  ["password -> argon2id", "speech"],
  ["pass -> PASS_ENV_VAR", "speech"],
  ["`password -> Option<String>`", "speech"],
  ["`password => bcrypt.hash(password, 10)`", "speech"],
  // The same password as something, then no value.
  ["it's the same password as before, 2 attempts left", "speech"],
  ["same password as the router, so try that first", "speech"],
  // Logging in with a quoted name.
  ['try logging in with "Google"', "speech"],
  ['log in with "admin2@example.com"', "speech"],
  ['logging in with "testuser1"', "speech"],
  ['logging in with "user_1234" failed', "speech"],
  ["connect to db as app:app_user_2", "speech"],
  ['sign in with "Continue with SSO"', "speech"],
  // Russian with no password.
  ["мой пароль не работает", "speech"],
  ["мой пароль 123", "speech"],
  // The words app password, then words.
  ["create an app password then copy it into your mail client", "speech"],
  ["the app password responsibilities are documented", "speech"],
  [
    "create an app password at https://myaccount.google.com/apppasswords",
    "speech",
  ],
  // Backup codes with no codes.
  ["backup codes: 10 generated, store them safely", "speech"],
  ["recovery codes: download them from settings", "speech"],
  ["backup codes: 2024-05-01 is when they were made", "speech"],
  ["the recovery codes are in 1Password", "speech"],
  // Basic with no credentials.
  ["Basic Usage", "speech"],
  ["use Basic dGhpcyBpcyBqdXN0IHRleHQ= as an example", "speech"],
  ["Basic auth is enabled on the staging proxy", "speech"],
  // Markdown tables with no secret value.
  ["| Key | Value |\n|---|---|\n| DB_HOST | db.prod.internal |", "speech"],
  ["| Name | Value |\n|---|---|\n| DB_PASSWORD | `${DB_PASSWORD}` |", "speech"],
  ["| Name | Value |\n|---|---|\n| DB_PASSWORD | required |", "speech"],
  ["| Name | Value |\n|---|---|\n| PASSWORD_MIN_LENGTH | 12 |", "speech"],
  ["| Name | Value |\n|---|---|\n| GITHUB_TOKEN | auto-provided |", "speech"],
  ["| Field | Type |\n|---|---|\n| `password` | `string` |", "speech"],
  [
    "| Name | Value |\n|---|---|\n| STRIPE_PUBLISHABLE_KEY | pk_live_51HxAbCdEfGhIjKlMnOpQrStUvWxYz0123 |",
    "speech",
  ],
  // Hex after key words that name no secret.
  [
    "the cache key for the build is: 9e107d9d372bb6826bd81d3542a419d6",
    "speech",
  ],
  [
    "the access key id for the admin key is: 9e107d9d372bb6826bd81d3542a419d6",
    "speech",
  ],
  [
    "commit for the deploy key change: 3f786850e387550fdab836ed7e6dc881de23001b",
    "speech",
  ],
  [
    "the private key's sha256 is: 0a4d55a8d778e5022fab701977c5d840bbc486d0e3b9a0d3c8e2f1a6b7c8d9e0",
    "speech",
  ],
  ["the md5 of the file is 9e107d9d372bb6826bd81d3542a419d6", "speech"],
  // Two-factor words with no key.
  ["the 2fa setup key is AUTHENTICATORAPP", "speech"],
  ["the mfa key is in the vault under ops", "speech"],
  // Vendor look-alikes: a Langfuse public key, branch names.
  ["LANGFUSE_PUBLIC_KEY=pk-lf-1c2d3e4f-0a1c-4adb-9dca-7b626be05959", "output"],
  ["git checkout pat-summary-2024-report-final", "command"],
  ["git checkout sk-lf-branch-for-langfuse-tests", "command"],
];

Deno.test("redact() keeps what the fifteenth audit's prose rules could over-reach to", (t) =>
  keptSteps(t, KEPT));

Deno.test("the fifteenth audit's prose rules stay linear on a long text of their anchors", () => {
  const anchors = [
    "login: a / ",
    "wifi: a / ",
    "(admin / ",
    "ssh in as a:",
    "u: a p: ",
    "password -> ",
    "same password as a, ",
    'logging in with "',
    "мой пароль ",
    "app password ",
    "backup codes: 00bd-53ae ",
    "Basic c3ZjOkNvYmFsdDg5 ",
    "| A_TOKEN | ",
    "admin key: ",
    "2fa key is ",
    "pat-eu1-",
    "sk-lf-",
  ];
  for (const anchor of anchors) {
    assertLinear(repeated(anchor), ["speech", "output"]);
  }
});
