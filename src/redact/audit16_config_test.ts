import {
  assertLinear,
  keptSteps,
  type LeakRow,
  repeated,
  takenSteps,
} from "./_audit_kit.ts";

/**
 * Configuration secrets the sixteenth audit found leaking: [text, kind,
 * secret, what stays beside it].
 */
const LEAKS: ReadonlyArray<LeakRow> = [
  // A credential's env name with a qualifier after its word.
  [
    "# staging\nDB_PASSWORD_STAGING=Quill7342!\nLOG_LEVEL=debug",
    "output",
    "Quill7342!",
    ["DB_PASSWORD_STAGING=", "LOG_LEVEL=debug"],
  ],
  [
    "SECRET_KEY_PROD=3f9a0c2e7b1d4f6a8c0e2b4d6f8a1c3e",
    "output",
    "3f9a0c2e7b1d4f6a8c0e2b4d6f8a1c3e",
    ["SECRET_KEY_PROD="],
  ],
  [
    "export MYSQL_ROOT_PASSWORD_DEV='ember-Falcon-77'",
    "command",
    "ember-Falcon-77",
  ],
  [
    '{"AUTH_TOKEN_US": "9c1e5b7a3d2f4e6b8a0c1d3e5f7a9b2c4d6e8f0a1b3c5d7e9f1a3b5c7d9e1f3a", "region": "us-east-1"}',
    "output",
    "9c1e5b7a3d2f4e6b8a0c1d3e5f7a9b2c4d6e8f0a1b3c5d7e9f1a3b5c7d9e1f3a",
    ['"AUTH_TOKEN_US"', "us-east-1"],
  ],
  ['{"db_password_prod": "Harbor#5521"}', "output", "Harbor#5521"],
  ["env:\n  ADMIN_PASSWORD_QA: Tulip93$river", "output", "Tulip93$river"],
  [
    "  STRIPE_SECRET_KEY_LIVE: 7d2e9f1a3c5b7d9e1f3a5c7b9d1e3f5a",
    "output",
    "7d2e9f1a3c5b7d9e1f3a5c7b9d1e3f5a",
  ],
  ["- name: DB_PASSWORD_PROD\n  value: Harbor#5521", "output", "Harbor#5521"],
  // Reordered and camelCase names.
  ["PASSWORD_SMTP=maple-Orbit-913", "output", "maple-Orbit-913"],
  ["PASS_ROOT=Cedar!4471", "output", "Cedar!4471"],
  [
    'const dbPasswordStaging = "willow.Ember.58";',
    "output",
    "willow.Ember.58",
    ["dbPasswordStaging"],
  ],
  [
    "apiKeyV3=4e8b1c9d2a7f3e6b0c5d8a1f4e7b2c9d6a3f0e1b",
    "output",
    "4e8b1c9d2a7f3e6b0c5d8a1f4e7b2c9d6a3f0e1b",
  ],
  // Both sides of a merge conflict on a qualified name.
  [
    "<<<<<<< HEAD\nSENDGRID_API_KEY_DEV=Opal2290?bridge\n=======\nSENDGRID_API_KEY_DEV=Garnet-4418-lake\n>>>>>>> feature/keys\n",
    "output",
    "Opal2290?bridge",
  ],
  [
    "<<<<<<< HEAD\nSENDGRID_API_KEY_DEV=Opal2290?bridge\n=======\nSENDGRID_API_KEY_DEV=Garnet-4418-lake\n>>>>>>> feature/keys\n",
    "output",
    "Garnet-4418-lake",
  ],
  // Dockerfile's legacy ENV and Apache's SetEnv.
  [
    "FROM node:20-slim\nENV DB_PASSWORD Walnut-2231-Sky\nRUN npm ci",
    "output",
    "Walnut-2231-Sky",
    ["ENV DB_PASSWORD ", "RUN npm ci"],
  ],
  [
    "FROM python:3.12\nENV API_TOKEN Rk8sT2vWq9LmX4zN7bYc3HdJ6pFg1QeA\n",
    "output",
    "Rk8sT2vWq9LmX4zN7bYc3HdJ6pFg1QeA",
  ],
  [
    "<VirtualHost *:443>\n    SetEnv API_SECRET Lotus.81!harbor\n</VirtualHost>",
    "output",
    "Lotus.81!harbor",
    ["SetEnv API_SECRET "],
  ],
  ['    SetEnv DB_PASS "Cobalt-19-Birch"', "output", "Cobalt-19-Birch"],
  // ldap.conf, slapd.conf and sssd.
  [
    "URI     ldaps://ldap.acme.io\nBINDDN  cn=svc,dc=acme,dc=io\nBINDPW  Spruce-6619-delta",
    "output",
    "Spruce-6619-delta",
    ["BINDPW  "],
  ],
  ["rootpw   Nimbus88&vale", "output", "Nimbus88&vale"],
  [
    "[domain/acme.io]\nldap_default_authtok = birch-Canyon-482",
    "output",
    "birch-Canyon-482",
  ],
  ["ldap_default_authtok=Fjord#2210", "output", "Fjord#2210"],
  // haproxy's userlist.
  [
    "userlist admins\n  user stats insecure-password Coral-5512-reef",
    "output",
    "Coral-5512-reef",
    ["user stats insecure-password "],
  ],
  ['  user ops insecure-password "Mist!9904"', "output", "Mist!9904"],
  // A password flag inside a compose string or env value.
  [
    '    environment:\n      REDIS_ARGS: "--requirepass Amber.hollow.31#"',
    "output",
    "Amber.hollow.31#",
    ["--requirepass"],
  ],
  ["      - REDIS_ARGS=--requirepass Delta77!fern", "output", "Delta77!fern"],
  // Tab-separated keys and values, pulumi's table.
  [
    "name\tvalue\nDB_HOST\tdb.internal\nDB_PASSWORD\tharbor-Lynx-305\n",
    "output",
    "harbor-Lynx-305",
    ["DB_PASSWORD\t"],
  ],
  [
    "KEY\tVALUE\nAPI_SECRET\tKestrel-4410-moss",
    "output",
    "Kestrel-4410-moss",
  ],
  [
    "KEY                 VALUE\naws:region          eu-west-1\ndbPassword          Sable-3391-pine!\n",
    "output",
    "Sable-3391-pine!",
    ["eu-west-1"],
  ],
  [
    "KEY                 VALUE\napiToken            Heron.7720.glade",
    "output",
    "Heron.7720.glade",
  ],
  // git diff --word-diff: the old value and the new.
  [
    "@@ -4,3 +4,3 @@ production:\n  db_password: [-Old#Pass1x-]{+N3w$Pass2y+}\n",
    "output",
    "Old#Pass1x",
    ["db_password: [-"],
  ],
  [
    "@@ -4,3 +4,3 @@ production:\n  db_password: [-Old#Pass1x-]{+N3w$Pass2y+}\n",
    "output",
    "N3w$Pass2y",
  ],
  ["DB_PASSWORD=[-aster-7712-]{+Yarrow!8820+}", "output", "Yarrow!8820"],
  ["  api_token: {+Tz8qLw2xVn5kRb7m+}", "output", "Tz8qLw2xVn5kRb7m"],
  // pgbouncer's userlist.txt in a diff and as it is.
  [
    '--- a/pgbouncer/userlist.txt\n+++ b/pgbouncer/userlist.txt\n@@ -1 +1,2 @@\n "postgres" "md5d41d8cd98f00b204e9800998ecf8427e"\n+"reporting" "Linden-2209-vale"\n',
    "output",
    "Linden-2209-vale",
    ['"reporting" "'],
  ],
  [
    '$ cat /etc/pgbouncer/userlist.txt\n"app" "Q7#mPz!2rT"\n',
    "output",
    "Q7#mPz!2rT",
  ],
  // Google app passwords in mail configuration.
  [
    "spring.mail.username=alerts@acme.io\nspring.mail.password=qzpt vbnr kwmd hxle\n",
    "output",
    "vbnr kwmd hxle",
    ["spring.mail.password="],
  ],
  ["mail.smtp.password=hvkq wmzt rbnx fjpd", "output", "wmzt rbnx fjpd"],
  [
    "$ sudo cat /etc/postfix/sasl_passwd\n[smtp.gmail.com]:587 ops.team@gmail.com:xkqvbnrtplmwzsdh",
    "output",
    "xkqvbnrtplmwzsdh",
    ["ops.team@gmail.com:"],
  ],
  [
    "[smtp.office365.com]:587 it@acme.io:Harbor-2291-fen",
    "output",
    "Harbor-2291-fen",
  ],
  [
    "account gmail\nhost smtp.gmail.com\nuser me@gmail.com\npassword    tqzvhnmrxkplwbcd\n",
    "output",
    "tqzvhnmrxkplwbcd",
    ["password    "],
  ],
  [
    "defaults\nauth on\n  password   jqtwzkvmbrnhxfpl",
    "output",
    "jqtwzkvmbrnhxfpl",
  ],
  // Licence keys: Bundler's listing and an env dump.
  [
    'BUNDLE_ENTERPRISE__CONTRIBSYS__COM\nSet for your local app (/app/.bundle/config): "a1b2c3d4:e5f6a7b8"',
    "output",
    "a1b2c3d4:e5f6a7b8",
    ["BUNDLE_ENTERPRISE__CONTRIBSYS__COM"],
  ],
  [
    'gems.contribsys.com\nSet for the current user (/home/dev/.bundle/config): "0c9d8e7f:6a5b4c3d"',
    "output",
    "0c9d8e7f:6a5b4c3d",
  ],
  ["SIDEKIQ_ENT_LICENSE=9a8b7c6d:1e2f3a4b", "output", "9a8b7c6d:1e2f3a4b"],
  ['GRAPHQL_PRO_LICENSE: "0f1e2d3c:4b5a6978"', "output", "0f1e2d3c:4b5a6978"],
  // Java XML properties.
  [
    '<entry key="mail.smtp.password">Birch!5521x</entry>',
    "output",
    "Birch!5521x",
    ['<entry key="mail.smtp.password">'],
  ],
  [
    '<entry key="api.token">Vb3nQx8LmZ2kTw7R</entry>',
    "output",
    "Vb3nQx8LmZ2kTw7R",
  ],
];

Deno.test("redact() covers the configuration secrets the sixteenth audit found leaking", (t) =>
  takenSteps(t, LEAKS));

/** Look-alikes that must stay: [text, kind] (all of it stays). */
const KEPT: ReadonlyArray<readonly [string, "speech" | "command" | "output"]> =
  [
    // Names with a credential word that name no secret, and qualified
    // names over code, types and plain words.
    ["PASSWORD_MIN_LENGTH=12", "output"],
    ["TOKEN_EXPIRY_SECONDS=3600", "output"],
    ["SECRET_KEY_FILE=/run/secrets/x", "output"],
    ["PASSWORD_RESET_URL=https://acme.io/reset", "output"],
    ["KEY_PREFIX=app", "output"],
    ["AUTH_DOMAIN=acme.eu.auth0.com", "output"],
    ["PASSWORD_DB=postgres", "output"],
    ["TOKEN_TEST=true", "output"],
    ['password_new = request.form["new_password"]', "output"],
    ['const [passwordNew, setPasswordNew] = useState("");', "output"],
    ["    token_v2: str", "output"],
    ["  tokenPrev: Token | null;", "output"],
    ["api_key_v2_enabled=true", "output"],
    ["  password_reset_token_ttl: 3600", "output"],
    ["passwordPolicy=strict", "output"],
    ["SECRET_KEY_BASE=${SECRET_KEY_BASE}", "output"],
    // Placeholders.
    ["STRIPE_SECRET_KEY=CHANGE_ME\nSTRIPE_WEBHOOK_SECRET=whsec_...", "output"],
    ["STRIPE_SECRET_KEY=changeme", "output"],
    ["STRIPE_SECRET_KEY=CHANGEME", "output"],
    ["STRIPE_SECRET_KEY=<changeme>", "output"],
    ["STRIPE_SECRET_KEY=change-me-in-production", "output"],
    // A certificate's fingerprint.
    [
      "SHA256 Fingerprint=F8:81:06:A1:BB:33:E8:53:E5:70:2D:F1:65:51:EA:EB:DE:E6:74:F7:5F:06:03:41:C3:3B:3D:06:91:19:B2:A6",
      "output",
    ],
    [
      "SHA1 Fingerprint=F8:81:06:A1:BB:33:E8:53:E5:70:2D:F1:65:51:EA:EB:DE:E6:74:F7",
      "output",
    ],
    [
      "MD5 Fingerprint=9e:3a:1f:22:7b:00:11:22:33:44:55:66:77:88:99:aa",
      "output",
    ],
    // Lines of a key and a blank that hold no secret.
    ["PASS  src/app.test.ts", "output"],
    ["passwd alice2", "command"],
    ["pass show email/gmail", "command"],
    ["Forgot password", "output"],
    ["Password  must contain a digit", "output"],
    ["password responsibilities", "output"],
    ["  password changeme", "output"],
    ["auth_pass 1111", "output"],
    ['passwordeval "gpg -q --decrypt ~/.msmtp-password.gpg"', "output"],
    ["password_file /etc/x", "output"],
    ["BINDPW_FILE /etc/ldap.secret", "output"],
    ["ENV PATH /usr/local/bin:$PATH", "output"],
    ["ENV API_TOKEN_FILE /run/secrets/api_token", "output"],
    ["ENV NODE_ENV production", "output"],
    ["ENV PASSWORD_HASHERS argon2", "output"],
    ["SetEnv APP_ENV production", "output"],
    ["SetEnv DB_PASS ${DB_PASS}", "output"],
    ['<entry key="password.min.length">8</entry>', "output"],
    ['<entry key="db.password">${db.password}</entry>', "output"],
    // A userlist's verifier, and a KeyValues file near the word.
    [
      '--- userlist.txt\n "postgres" "SCRAM-SHA-256$4096:N13Zlb10LXkvR2VYVGPjxQ==$HspsA5tHxZee0ElUIUkz+R+X22G9j38win/Qq7v9yHw=:ir6mWkBU5LoFsIvHcK4DB0wYcLapgg5N1Lb7jRSO7SI="',
      "output",
    ],
    ['# userlist\n"name" "Counter-Strike"\n"appid" "730"', "output"],
    // Bracketed file names in logs, near sasl_passwd's shape.
    ["[main.py]:12 foo:bar", "output"],
    ["[db.ts]:10 at:2024-01-01T10:00", "output"],
    ["[app.js]:40 error:ECONNREFUSED", "output"],
    // Word diffs of other keys and of references.
    ["  title: [-Old title-]{+New title+}", "output"],
    ["  smtp_password: [-${OLD_PW}-]{+${NEW_PW}+}", "output"],
    // Flags in argument lists and strings.
    ['command: ["redis-server", "--requirepass", "x"]', "output"],
    ["args.push('--password ' + pw)", "output"],
    // Bundler settings that are no credentials; licences by name.
    [
      'path\nSet for your local app (/app/.bundle/config): "vendor/bundle"',
      "output",
    ],
    [
      'gems.contribsys.com\nSet for the current user (/home/dev/.bundle/config): "true"',
      "output",
    ],
    ["SIDEKIQ_LICENSE=MIT", "output"],
    ["LICENSE: Apache-2.0", "output"],
  ];

Deno.test("redact() keeps the configuration look-alikes of the sixteenth audit", (t) =>
  keptSteps(t, KEPT));

Deno.test("the sixteenth audit's configuration rules stay linear on a long text of their anchors", () => {
  const anchors = [
    "DB_PASSWORD_PROD_EU_V2=",
    "\nDB_PASSWORD_PROD=a&DB_PASSWORD_PROD=a&",
    '"AUTH_TOKEN_EU": "',
    "apiKeyV2V2V2",
    "password ",
    "x password a\n",
    "user a insecure-password ",
    "ENV API_TOKEN ",
    "SetEnv DB_PASS a ",
    '<entry key="db.password">',
    '"a" "',
    "[smtp.a.b]:587 a:",
    "a.b:1 a:b\nsasl_passwd ",
    "BUNDLE_A__B\nSet for a: ",
    "a.b\nSet for ",
    "A_LICENSE=a:",
    "password: [-",
    "password: [-a-]{+",
    "password: {+",
    "password=abcd efgh ijkl ",
    '"--requirepass ',
    "KEY\tVALUE\nDB_PASSWORD\t",
    "VALUE dbPassword  ",
    "Fingerprint=AB:12:",
  ];
  for (const anchor of anchors) {
    assertLinear(repeated(anchor), ["speech", "command", "output"]);
  }
});
