import { ok } from "node:assert/strict";
import {
  assertLinear,
  keptSteps,
  repeated,
  takenSteps,
  type TextKind as Kind,
} from "./_audit_kit.ts";
import { redact } from "./redact.ts";

/**
 * The fifteenth audit's tables and dumps: secrets in table cells (markdown,
 * psql, mysql), a psql `\x` record, a Kubernetes Secret's base64 data,
 * PHP's var_dump, a plist, a JSON Web Key's private members, the token
 * `aws ecr get-login-password` prints; and the non-secrets in `key: value`
 * places it found redacted (ETags, OAuth state, JWK kid, Content-MD5, a
 * base64 cookie of preferences, WireGuard's public key).
 */

/** A deterministic generator (a linear congruential one). */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

/** `n` characters of `alphabet`, drawn from `next`. */
function draw(next: () => number, alphabet: string, n: number): string {
  let out = "";
  for (let i = 0; i < n; i++) {
    out += alphabet[Math.floor(next() * alphabet.length)];
  }
  return out;
}

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const next = random(15);
/** What `aws ecr get-login-password` prints: base64 of a JSON envelope. */
const ECR = btoa(JSON.stringify({
  payload: draw(next, B64, 1100),
  datakey: draw(next, B64, 380),
  version: "2",
  type: "DATA_KEY",
  expiration: 1717000000,
}));
/** The audit's ECR probe: the envelope's head, then random base64. */
const ECR_PROBE = "eyJwYXlsb2FkIjoi" + draw(next, B64, 1800);
/** An RSA JWK's private exponent and primes (base64url, as long as real ones). */
const B64URL = B64.slice(0, 62) + "-_";
const JWK_N = draw(next, B64URL, 342);
const JWK_D = draw(next, B64URL, 342);
const JWK_P = draw(next, B64URL, 171);
const JWK_Q = draw(next, B64URL, 171);
const JWK_DP = draw(next, B64URL, 171);
const JWK_QI = draw(next, B64URL, 171);
const OCT_K = draw(next, B64URL, 43);
const DB_URL_B64 = btoa("postgres://app:maple.Osprey.31!@db.prod.svc:5432/app");

const TLS_CRT = btoa(
  `-----BEGIN CERTIFICATE-----\n${draw(next, B64, 64)}\n${
    draw(next, B64, 64)
  }\n-----END CERTIFICATE-----\n`,
);
const TLS_KEY = btoa(
  `-----BEGIN PRIVATE KEY-----\n${draw(next, B64, 64)}\n${
    draw(next, B64, 64)
  }\n-----END PRIVATE KEY-----\n`,
);

/** [text, kind, secret] */
const LEAKS: [string, Kind, string][] = [
  // markdown-table-creds: a column under a header naming a password.
  [
    "| Service | Username | Password |\n|---------|----------|----------|\n| Grafana | admin | Emb3r7287! |\n| Jenkins | ci | Z5ydhyPBjRk1hA11YxrCrOi7 |",
    "speech",
    "Emb3r7287!",
  ],
  [
    "| Service | Username | Password |\n|---------|----------|----------|\n| Grafana | admin | Emb3r7287! |\n| Jenkins | ci | Z5ydhyPBjRk1hA11YxrCrOi7 |",
    "speech",
    "Z5ydhyPBjRk1hA11YxrCrOi7",
  ],
  [
    "| host | user | `password` |\n| :--- | :--- | :---: |\n| db1 | root | `Quartz-88!mill` |",
    "output",
    "Quartz-88!mill",
  ],
  [
    "| Name | API token |\n| --- | --- |\n| ci-bot | 7Fq2LmZx9TbW4kRp8sYvN3cJ |",
    "speech",
    "7Fq2LmZx9TbW4kRp8sYvN3cJ",
  ],
  // markdown-table-creds: a name, then its value.
  [
    "| Key | Value |\n|---|---|\n| DB_HOST | db.prod.internal |\n| DB_PASSWORD | uSWz4h3mgTrQtCkmoTSUVJoF |",
    "speech",
    "uSWz4h3mgTrQtCkmoTSUVJoF",
  ],
  ["| DB_PASSWORD | Cobalt81&willow |", "speech", "Cobalt81&willow"],
  [
    "| Variable | Value |\n|---|---|\n| `WANDB_API_KEY` | `bfbf4af9f563d4ed8cadb02efe4b6c03e5921cfc` |\n| `PORT` | `3000` |",
    "speech",
    "bfbf4af9f563d4ed8cadb02efe4b6c03e5921cfc",
  ],
  [
    "  | REDIS_PASSWORD | t0ps3cret-Redis | set in .env |",
    "output",
    "t0ps3cret-Redis",
  ],
  // namevalue-psql-table
  [
    "app=# select username, password from service_accounts;\n   username    |      password\n---------------+--------------------\n reporting     | saffron10!Quartz\n(1 row)",
    "output",
    "saffron10!Quartz",
  ],
  [
    " id | email          | api_secret\n----+----------------+------------------------\n  1 | ana@acme.io    | Wq8#zLp2Vn4!Tr6s\n  2 | bo@acme.io     | Hx3$kMv9Qe1@Yd5f\n(2 rows)\n",
    "output",
    "Hx3$kMv9Qe1@Yd5f",
  ],
  // A psql table of one column: its footer says it is one.
  [
    "app=# select password from users where id = 3;\n     password\n------------------\n Tundra.pine.4417\n(1 row)\n",
    "output",
    "Tundra.pine.4417",
  ],
  // mysql's boxed table.
  [
    "mysql> select user, password from accounts;\n+-------+--------------------+\n| user  | password           |\n+-------+--------------------+\n| admin | Velvet#2291harbor  |\n+-------+--------------------+\n1 row in set (0.00 sec)",
    "output",
    "Velvet#2291harbor",
  ],
  // namevalue-psql-api-keys: a key column holds random keys.
  [
    " id | user_id |                   key                    | created_at\n----+---------+------------------------------------------+------------\n  1 |      42 | rXekl6MPSVnZRyLLqnMJgCmWUSTa53OQsahBoZzf | 2024-05-01\n",
    "output",
    "rXekl6MPSVnZRyLLqnMJgCmWUSTa53OQsahBoZzf",
  ],
  // namevalue-psql-expanded
  [
    "-[ RECORD 1 ]-----------------\nid       | 7\nusername | smtp-relay\npassword | C0balt6113#\n",
    "output",
    "C0balt6113#",
  ],
  [
    "-[ RECORD 1 ]-+-----------------------------------------\nid           | 3\napi_key      | 9f8e7d6c5b4a39281706f5e4d3c2b1a0ffeeddcc\n-[ RECORD 2 ]-+-----------------------------------------\nid           | 4\napi_key      | kP3nV8qZ2wL5xR7tY1uB4mC6dF9gH0jS\n",
    "output",
    "kP3nV8qZ2wL5xR7tY1uB4mC6dF9gH0jS",
  ],
  // aws-ecr-login-password
  [`${ECR}\n`, "output", ECR],
  [`${ECR_PROBE}\n`, "output", ECR_PROBE],
  // k8s-secret-json-b64: base64 that decodes to a URL with a password.
  [
    `{\n    "apiVersion": "v1",\n    "data": {\n        "DATABASE_URL": "${DB_URL_B64}"\n    },\n    "kind": "Secret",\n    "type": "Opaque"\n}`,
    "output",
    DB_URL_B64,
  ],
  [
    `apiVersion: v1\ndata:\n  DATABASE_URL: ${DB_URL_B64}\n  LOG_LEVEL: ZGVidWc=\nkind: Secret\nmetadata:\n  name: app-env\ntype: Opaque\n`,
    "output",
    DB_URL_B64,
  ],
  [
    `apiVersion: v1\nkind: Secret\nmetadata:\n  name: app-config\ndata:\n  config.yaml: ${
      btoa("server:\n  port: 8080\ndatabase:\n  password: Cinder!lake42\n")
    }\n`,
    "output",
    btoa("server:\n  port: 8080\ndatabase:\n  password: Cinder!lake42\n"),
  ],
  // dump-php-var-dump
  [
    'array(3) {\n  ["host"]=>\n  string(9) "localhost"\n  ["user"]=>\n  string(4) "root"\n  ["password"]=>\n  string(16) "ember.Nimbus.88#"\n}',
    "output",
    "ember.Nimbus.88#",
  ],
  [
    'object(App\\Mail\\Config)#12 (2) {\n  ["host":protected]=>\n  string(13) "smtp.acme.com"\n  ["smtpPassword":"App\\Mail\\Config":private]=>\n  string(13) "Hail"Storm 9!"\n}',
    "output",
    'Hail"Storm 9!',
  ],
  // xml-plist
  [
    "<key>API_SECRET</key>\n<string>TrpmTFFhhDIwV2HjQYZdjUNfJjyjvcvM3e7ODgfm</string>",
    "output",
    "TrpmTFFhhDIwV2HjQYZdjUNfJjyjvcvM3e7ODgfm",
  ],
  [
    "\t<dict>\n\t\t<key>Password</key>\t<string>Maple!tree-5590</string>\n\t</dict>",
    "output",
    "Maple!tree-5590",
  ],
  [
    "<key>STRIPE_KEY</key>\n    <string>a8f5f167f44f4964e6c998dee827110c</string>",
    "output",
    "a8f5f167f44f4964e6c998dee827110c",
  ],
  // jwk-private-d, and the other private members.
  [
    `{"kty":"RSA","kid":"2024-05","use":"sig","n":"${JWK_N}","e":"AQAB","d":"${JWK_D}","p":"${JWK_P}","q":"${JWK_Q}","dp":"${JWK_DP}","qi":"${JWK_QI}"}`,
    "output",
    JWK_D,
  ],
  [
    `{\n  "keys": [\n    {\n      "kty": "RSA",\n      "n": "${JWK_N}",\n      "e": "AQAB",\n      "d": "${JWK_D}",\n      "p": "${JWK_P}",\n      "q": "${JWK_Q}",\n      "dp": "${JWK_DP}",\n      "qi": "${JWK_QI}"\n    }\n  ]\n}`,
    "output",
    JWK_D,
  ],
];

/** [text, kind, keep?]: without keep, the text must come back unchanged. */
const LOOK_ALIKES: [string, Kind, string?][] = [
  // Tables of ordinary values.
  [
    "| Variable | Required | Description |\n|---|---|---|\n| `OPENAI_API_KEY` | yes | your OpenAI key |\n| `PORT` | no | defaults to 3000 |",
    "speech",
  ],
  [
    "| Check | Status |\n|---|---|\n| lint | ✅ pass |\n| tests | ❌ 3 failed |",
    "speech",
  ],
  [
    "| Name | Type | Description |\n|---|---|---|\n| DB_PASSWORD | string | The database password |\n| API_TOKEN | required | Stripe-key |\n| JWT_SECRET | `$JWT_SECRET` | from the vault |",
    "speech",
  ],
  [
    "| Service | Username | Password |\n|---|---|---|\n| Grafana | admin | (see vault) |\n| Jenkins | ci | `$JENKINS_PW` |\n| Redis | — | none |\n| Kafka | app | ******** |",
    "speech",
  ],
  [
    "| Model | Max tokens | Price |\n|---|---|---|\n| gpt-4o | 128000 | $2.50 |\n| claude-3-5-sonnet-20241022 | 200000 | $3 |",
    "speech",
  ],
  [
    "| Test | Pass | Time |\n|---|---|---|\n| login_rejects_bad_password | ✅ | 12ms |\n| token_refresh_v2 | ✅ | 8ms |",
    "speech",
  ],
  [
    "| Token | Kind |\n|---|---|\n| `&&` | operator |\n| `fn` | keyword |",
    "speech",
  ],
  [
    "| Key | Action |\n|---|---|\n| Ctrl+S | save |\n| Ctrl+Shift+P | command palette |",
    "speech",
  ],
  [
    "| Secret | Namespace | Used by |\n|---|---|---|\n| db-creds-v2 | prod | api |\n| registry_pull_2 | ci | runners |",
    "speech",
  ],
  // psql output without secrets.
  [
    " id |     email      | role  | created_at\n----+----------------+-------+------------\n  1 | ana@acme.io    | admin | 2024-05-01\n",
    "output",
  ],
  [
    " username | password \n----------+----------\n app      | \n ci       | \n(2 rows)\n",
    "output",
  ],
  [
    "        key         |     value\n--------------------+----------------\n site_name          | Acme Store\n cache_key_prefix   | shop-v2\n(2 rows)\n",
    "output",
  ],
  [
    " id | key                                 | created_at\n----+-------------------------------------+------------\n  1 | uploads/2024/05/invoice-1042.pdf    | 2024-05-01\n",
    "output",
  ],
  [
    "-[ RECORD 1 ]-----------------\nid       | 7\nusername | smtp-relay\nrole     | admin\npassword | \n",
    "output",
  ],
  [
    '                 Table "public.users"\n  Column  |          Type          | Nullable\n----------+------------------------+----------\n id       | integer                | not null\n password | character varying(255) | not null\n',
    "output",
  ],
  // A markdown heading underlined, a YAML separator: no psql table.
  ["password\n--------\nhunter2 is the classic example.\n", "speech"],
  // A Secret's base64 that decodes to plain config, a ConfigMap's binaryData.
  [
    "apiVersion: v1\ndata:\n  DATABASE_HOST: ZGIucHJvZC5zdmM=\n  LOG_LEVEL: ZGVidWc=\n  config.yaml: c2VydmVyOgogIHBvcnQ6IDgwODAK\nkind: Secret\nmetadata:\n  name: app-env\n",
    "output",
  ],
  [
    '{"apiVersion": "v1", "data": {"ca.crt": "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t", "namespace": "a3ViZS1zeXN0ZW0="}, "kind": "Secret"}',
    "output",
  ],
  [
    "binaryData:\n  flags.json: eyJmZWF0dXJlX2ZsYWdzIjp7Im5ld19jaGVja291dCI6dHJ1ZSwiZGFya19tb2RlIjpmYWxzZX0sIm1heF9pdGVtcyI6NTB9",
    "output",
  ],
  [
    "kind: ConfigMap\ndata:\n  DATABASE_URL: postgres://app@db:5432/app\n---\nkind: Secret\ndata:\n  LOG_LEVEL: ZGVidWc=\n",
    "output",
  ],
  // var_dump and plists without secrets.
  [
    'array(3) {\n  ["user"]=>\n  string(4) "root"\n  ["password"]=>\n  NULL\n  ["token"]=>\n  string(0) ""\n}',
    "output",
  ],
  [
    "<key>CFBundleIdentifier</key>\n<string>com.acme.app</string>\n<key>NSFaceIDUsageDescription</key>\n<string>Unlock your saved password with Face ID</string>\n<key>PasswordPolicy</key>\n<string>strong</string>",
    "output",
  ],
  // Public keys: a JWKS, an EC public JWK's thumbprint id.
  [
    `{"keys":[{"kty":"RSA","use":"sig","kid":"651da1da15d86055","alg":"RS256","n":"${JWK_N}","e":"AQAB"}]}`,
    "output",
  ],
  [
    '{"kty":"EC","crv":"P-256","kid":"LzKrI5Ms3RWqJGvqttQU5_37LmXwwATQ2YUWWJYDhdh","use":"sig"}',
    "output",
  ],
  // A base64 JSON that is no ECR token: short, or a cursor.
  [`next: ${btoa('{"payload":"page-2","n":50}')}`, "output"],
  // Over-redactions the audit found.
  [
    "< set-cookie: prefs=dXNlcl9pZD00MiZsb2NhbGU9ZW4tVVMmdGhlbWU9ZGFyayZ0ej1FdXJvcGUvTGlzYm9u; Path=/; Max-Age=31536000",
    "output",
    "dXNlcl9pZD00MiZsb2NhbGU9ZW4tVVMmdGhlbWU9ZGFyayZ0ej1FdXJvcGUvTGlzYm9u",
  ],
  ["content-md5: 6xgczELt9+tltUEdsbhUMd==", "output"],
  ['{"content-md5": "6xgczELt9+tltUEdsbhUMd==", "status": "ok"}', "output"],
  ['etag: W/"obcOscZyQfa1NYLhQdjreEE7mxk"', "output"],
  ['{"etag": "W/"obcOscZyQfa1NYLhQdjreEE7mxk"", "status": "ok"}', "output"],
  ["kid: LzKrI5Ms3RWqJGvqttQU5_37LmXwwATQ2YUWWJYDhdh", "output"],
  [
    '{"kid": "LzKrI5Ms3RWqJGvqttQU5_37LmXwwATQ2YUWWJYDhdh", "status": "ok"}',
    "output",
  ],
  ["state: LylW6HKvFZYiZ8kTtMpDx8dmASA9yqOf", "output"],
  ['{"state": "LylW6HKvFZYiZ8kTtMpDx8dmASA9yqOf", "status": "ok"}', "output"],
  [
    "interface: wg0\n  public key: mf+qBFIGiDqTX3KEMGkXQCbBxVZy3N/Fxg4Oi8qmPUv=\n  private key: (hidden)\n  listening port: 51820\n\npeer: xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=\n  endpoint: 203.0.113.7:51820\n  allowed ips: 10.0.0.2/32",
    "output",
  ],
];

/** Secrets beside the look-alikes' guards: these must still go. */
const STILL_SECRET: [string, Kind, string][] = [
  // Caught before (the prompt line names the command; the entropy rule),
  // and still.
  [
    `$ aws ecr get-login-password --region eu-west-1\n${ECR}`,
    "output",
    ECR,
  ],
  [
    `apiVersion: v1\ndata:\n  tls.crt: ${TLS_CRT}\n  tls.key: ${TLS_KEY}\nkind: Secret\ntype: kubernetes.io/tls\n`,
    "output",
    TLS_KEY,
  ],
  [`{"kty":"oct","kid":"hmac-1","k":"${OCT_K}"}`, "output", OCT_K],
  // A base64 cookie whose pairs hold a session token.
  [
    `< set-cookie: prefs=${
      btoa("uid=42&session_token=Zq8LmX3vT9pWc2KrY7bN4hJd&theme=dark")
    }; Path=/`,
    "output",
    btoa("uid=42&session_token=Zq8LmX3vT9pWc2KrY7bN4hJd&theme=dark"),
  ],
  // wg showconf prints the private key.
  [
    "[Interface]\nListenPort = 51820\nPrivateKey = cHJpdmF0ZS1rZXktbm90LXJlYWwtQUJDREVGR0hJSks=\n",
    "output",
    "cHJpdmF0ZS1rZXktbm90LXJlYWwtQUJDREVGR0hJSks=",
  ],
  // An opaque state token beside a session id.
  [
    "session_state: 9Yq2LmX4vT8pWc3KrZ7bN5hJ",
    "output",
    "9Yq2LmX4vT8pWc3KrZ7bN5hJ",
  ],
];

Deno.test("redact() takes the fifteenth audit's secrets in tables and dumps", (t) =>
  takenSteps(t, [...LEAKS, ...STILL_SECRET]));

Deno.test("redact() keeps the fifteenth audit's look-alikes of tables and dumps", (t) =>
  keptSteps(t, LOOK_ALIKES));

Deno.test("redact() keeps the columns and names around a table's secret", () => {
  const md = redact(
    "| Service | Username | Password |\n|---|---|---|\n| Grafana | admin | Emb3r7287! |",
    { kind: "speech" },
  ).text;
  ok(md.includes("| Grafana | admin | [redacted:"), md);
  const psql = redact(
    "   username    |      password\n---------------+--------------------\n reporting     | saffron10!Quartz\n(1 row)",
    { kind: "output" },
  ).text;
  ok(psql.includes(" reporting     | [redacted:"), psql);
  ok(psql.endsWith("(1 row)"), psql);
  const secret = redact(
    `apiVersion: v1\ndata:\n  DATABASE_URL: ${DB_URL_B64}\n  LOG_LEVEL: ZGVidWc=\nkind: Secret\n`,
    { kind: "output" },
  ).text;
  ok(secret.includes("LOG_LEVEL: ZGVidWc="), secret);
  ok(secret.includes("DATABASE_URL: [redacted:"), secret);
  const tls = redact(
    `apiVersion: v1\ndata:\n  tls.crt: ${TLS_CRT}\n  tls.key: ${TLS_KEY}\nkind: Secret\n`,
    { kind: "output" },
  ).text;
  ok(tls.includes(`tls.crt: ${TLS_CRT}`), tls);
});

Deno.test("redact() stays linear on 200 KB of table and dump anchors", () => {
  const anchors = [
    "| DB_PASSWORD | x |\n",
    "| a | password |\n|---|---|\n",
    "---+---\n",
    "-[ RECORD 1 ]---\npassword | ",
    '["password"]=>\n  string(',
    "<key>API_SECRET</key><string>",
    '{"kty":"RSA","d":"',
    '"kty":"RSA",',
    'kind: Secret\n"data": {"a": "QUJDREVGR0hJSktM", ',
    "  a: QUJDREVGR0hJSktM\nkind: Secret\ndata:\n",
    " Xy9!kd22aa |",
    "kind: Secret\ndata:\n  A: ",
    "eyJwYXlsb2FkIjoi",
    'W/"',
    "------",
    "| ",
  ];
  for (const anchor of anchors) {
    assertLinear(repeated(anchor), ["output", "speech"]);
  }
});
