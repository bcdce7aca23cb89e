import {
  assertKept,
  assertTaken,
  type TextKind as Kind,
} from "./_audit_kit.ts";

/** What a text is, as redact() is told. */

/** A leak the fourteenth audit found: `secret` must go, `keep` must stay. */
interface Leak {
  name: string;
  text: string;
  secret: string;
  keep: string[];
  kind?: Kind;
}

/** A look-alike: the text must come back with `keep` in it. */
interface LookAlike {
  name: string;
  text: string;
  keep: string;
  kind?: Kind;
}

const UUID = "300638dd-2204-48fe-990c-2403fe694d9b";
const HEX64 =
  "13d5147c25745af857dd2d37c8c44d7f11ac079bceddd6258ee1099153e2ab4e";
/** A SealedSecret ciphertext: longer than any token run the other rules read. */
const SEALED = (
  "AgBiHEnq8ywsb3VrMbFjMZfbgpA0a7Fp1timAnKLHojhBHqEL0ZoGbBe42CzP591QwmGj97p" +
  "bIjzNqAOUY+0vMfdoygDIPcn30zKmqEwz7sf176/0nCPNrQAaWxlZfzZaiZiCnRHzqyOeGk"
).repeat(4);
const BOX_TOP = "┌──────────────────────┬────────────────────────┐\n";

const LEAKS: Leak[] = [
  // G2: names that carry a secret.
  {
    name: "Honeycomb's team header (honeycomb-otel.1)",
    text:
      'exporters:\n  otlp:\n    endpoint: api.honeycomb.io:443\n    headers:\n      "x-honeycomb-team": "71ea45db158bc8b412d7401ec7226a05d0d31683"',
    secret: "71ea45db158bc8b412d7401ec7226a05d0d31683",
    keep: ['"x-honeycomb-team": "', "api.honeycomb.io:443"],
  },
  {
    name: "Nomad's Secret ID (nomad.1)",
    text:
      `Accessor ID  = 1dedddb7-ec47-4408-ac1b-520774b255b3\nSecret ID    = ${UUID}\nName         = ci\nType         = client`,
    secret: UUID,
    keep: ["Accessor ID  = 1dedddb7-ec47-4408-ac1b-520774b255b3", "Secret ID"],
  },
  {
    name: "Consul's SecretID",
    text:
      `AccessorID:       6a1253d2-1785-24fd-91c2-f8e78c745511\nSecretID:         ${UUID}`,
    secret: UUID,
    keep: ["6a1253d2-1785-24fd-91c2-f8e78c745511", "SecretID:"],
  },
  {
    name: "a licence key, British spelling (license.2)",
    text: '  "intelephense.licenceKey": "722297FB7FD1009",',
    secret: "722297FB7FD1009",
    keep: ['"intelephense.licenceKey": "'],
  },
  {
    name: "a LICENCE_KEY env line",
    text: "INTELEPHENSE_LICENCE_KEY=722297FB7FD1009",
    secret: "722297FB7FD1009",
    keep: ["INTELEPHENSE_LICENCE_KEY="],
  },
  {
    name: "an MFA seed (totp.2)",
    text: "AWS_MFA_SEED=VNMNTF6GSBCRCIVN",
    secret: "VNMNTF6GSBCRCIVN",
    keep: ["AWS_MFA_SEED="],
  },
  {
    name: "a TOTP seed in YAML",
    text: 'totp_seed: "JBSWY3DPEHPK3PXP"',
    secret: "JBSWY3DPEHPK3PXP",
    keep: ["totp_seed:"],
  },
  {
    name: "Bundler's gem host credentials (bundler.1)",
    text: "BUNDLE_ENTERPRISE__CONTRIBSYS__COM=09862ce5:d7e1088b",
    secret: "09862ce5:d7e1088b",
    keep: ["BUNDLE_ENTERPRISE__CONTRIBSYS__COM="],
  },
  {
    name: "Bundler's credentials in .bundle/config",
    text: '---\nBUNDLE_GEMS__CONTRIBSYS__COM: "853c66c2:7daa5054"',
    secret: "853c66c2:7daa5054",
    keep: ["BUNDLE_GEMS__CONTRIBSYS__COM:"],
  },
  // G8: wrapping.
  {
    name: "a *_KEY after a JSON-escaped newline (wrap-json-newline.2)",
    text:
      '{"output":"REDIS_PASSWORD=Mango@nimbus46$\\nMAILGUN_KEY=04300f32e0e1ea168d6daec294704079"}',
    secret: "04300f32e0e1ea168d6daec294704079",
    keep: ["\\nMAILGUN_KEY=", '{"output":"REDIS_PASSWORD='],
  },
  {
    name: "a JSON-escaped colour code between key and = (wrap-json-ansi.1)",
    text:
      '{"content":"\\u001b[32mDATADOG_API_KEY\\u001b[0m=IgAAx9KuIEaSBjB6YwAbDBDO0GkOmK8v"}',
    secret: "IgAAx9KuIEaSBjB6YwAbDBDO0GkOmK8v",
    keep: ["\\u001b[32mDATADOG_API_KEY\\u001b[0m="],
  },
  {
    name: "a shell-escaped colour code between key and =",
    text: 'echo -e "\\033[1mDB_PASSWORD\\033[0m=Walrus_quartz747"',
    secret: "Walrus_quartz747",
    keep: ["\\033[1mDB_PASSWORD\\033[0m="],
  },
  {
    name: "a box-drawn table row (wrap-box-table.1)",
    text: BOX_TOP +
      "│ NAME                 │ VALUE                  │\n│ DATABASE_PASSWORD    │ Falcon_velvet6946?     │\n└──────────────────────┴────────────────────────┘",
    secret: "Falcon_velvet6946?",
    keep: ["│ DATABASE_PASSWORD    │ ", "│ NAME                 │ VALUE"],
  },
  {
    name: "a box-drawn row of a *_KEY, more columns after",
    text: "│ MAILGUN_KEY │ 04300f32e0e1ea168d6daec294704079 │ prod │",
    secret: "04300f32e0e1ea168d6daec294704079",
    keep: ["│ MAILGUN_KEY │ ", " │ prod │"],
  },
  // G4: config and code forms.
  {
    name: "a braced SQL Server password (conn-mssql-url.1)",
    text:
      'DATABASE_URL="sqlserver://acme.database.windows.net:1433;database=orders;user=sqladmin;password={Marbletundra896957};encrypt=true"',
    secret: "Marbletundra896957",
    keep: ["user=sqladmin;password={", "};encrypt=true"],
  },
  {
    name: "a braced password holding a ;",
    text: "Server=db;User Id=sa;Password={a;b=c9!x};",
    secret: "a;b=c9!x",
    keep: ["Server=db;User Id=sa;Password={"],
  },
  {
    name: "cloud-init chpasswd list (cloud-init.1)",
    text:
      "#cloud-config\nchpasswd:\n  list: |\n    root:Falcon.pepper39\n  expire: False",
    secret: "Falcon.pepper39",
    keep: ["    root:", "  expire: False"],
  },
  {
    name: "cloud-init chpasswd as a YAML list",
    text:
      "chpasswd:\n  expire: false\n  list:\n    - ubuntu:RANDOM\n    - deploy:Quartz.tundra41\nruncmd:\n  - echo a:b",
    secret: "Quartz.tundra41",
    keep: ["ubuntu:RANDOM", "- deploy:", "echo a:b"],
  },
  {
    name: "sbt Credentials of four strings (sbt.1)",
    text:
      'credentials += Credentials("Sonatype Nexus Repository Manager", "nexus.acme.io", "deploy", "Saffron-nimbus85!")',
    secret: "Saffron-nimbus85!",
    keep: ['"nexus.acme.io", "deploy", "'],
  },
  {
    name: "Strapi's APP_KEYS, to the line's end (strapi.1)",
    text:
      "APP_KEYS=R79tp34WbgBGglbBdOVpNg==,z8GkPBaSE18rL4hK6b/JWA==,YsMwVG6pRkyiAhqfwCNYEQ==,SClxYQ6HYRb2xUfITC/bZg==\nADMIN_JWT_SECRET=9HL7/aKiGfRYLJknmFi43w==",
    secret: "YsMwVG6pRkyiAhqfwCNYEQ==",
    keep: ["APP_KEYS=", "\nADMIN_JWT_SECRET="],
  },
  {
    name: "a Hardhat network's accounts (eth-privkey.3)",
    text:
      `  networks: {\n    sepolia: {\n      url: "https://eth-sepolia.g.alchemy.com/v2/demo",\n      accounts: ["${HEX64}"],\n    },\n  },`,
    secret: HEX64,
    keep: ['accounts: ["'],
  },
  {
    name: "Hardhat accounts with 0x",
    text: `accounts: ['0x${HEX64}'],`,
    secret: HEX64,
    keep: ["accounts: ['"],
  },
];

const LOOK_ALIKES: LookAlike[] = [
  // G2
  {
    name: "a Honeycomb header from the environment",
    text:
      'curl -H "X-Honeycomb-Team: $HONEYCOMB_API_KEY" https://api.honeycomb.io',
    keep: "$HONEYCOMB_API_KEY",
  },
  {
    name: "a Honeycomb header stand-in",
    text: "x-honeycomb-team: <your-api-key>",
    keep: "<your-api-key>",
  },
  {
    name: "Nomad's Accessor ID",
    text: "Accessor ID  = 1dedddb7-ec47-4408-ac1b-520774b255b3",
    keep: "1dedddb7-ec47-4408-ac1b-520774b255b3",
  },
  {
    name: "AWS's SecretId names a secret",
    text: '{"SecretId": "prod/db/password", "VersionStage": "AWSCURRENT"}',
    keep: "prod/db/password",
  },
  {
    name: "a secret id that is no UUID",
    text: "secret_id = aws_secretsmanager_secret.db.id",
    keep: "aws_secretsmanager_secret.db.id",
  },
  {
    name: "a licence key type",
    text: "licenceKey: string;",
    keep: "licenceKey: string;",
  },
  {
    name: "a random seed",
    text: "seed=42 mfa_enabled=true",
    keep: "seed=42",
  },
  {
    name: "an MFA seed from the environment",
    text: "AWS_MFA_SEED=${MFA_SEED}",
    keep: "${MFA_SEED}",
  },
  {
    name: "Bundler build flags",
    text: "BUNDLE_BUILD__NOKOGIRI=--use-system-libraries",
    keep: "--use-system-libraries",
  },
  {
    name: "a Bundler local path",
    text: "BUNDLE_LOCAL__RACK=/home/me/src/rack",
    keep: "/home/me/src/rack",
  },
  {
    name: "Bundler credentials from the environment",
    text: "BUNDLE_GEMS__CONTRIBSYS__COM=$SIDEKIQ_CREDENTIALS",
    keep: "$SIDEKIQ_CREDENTIALS",
  },
  {
    name: "Bundler credentials stand-in",
    text: "BUNDLE_GEMS__CONTRIBSYS__COM=<user>:<pass>",
    keep: "<user>:<pass>",
  },
  // G8
  {
    name: "ordinary *_KEY names after a JSON-escaped newline",
    text: '{"output":"ok\\nSORT_KEY=created_at\\nCACHE_KEY=user-profile-v2"}',
    keep: "SORT_KEY=created_at\\nCACHE_KEY=user-profile-v2",
  },
  {
    name: "a GPG_KEY after a JSON-escaped newline",
    text: '{"output":"x\\nGPG_KEY=A035C8C19219BA821ECEA86B64E628F8D684696D"}',
    keep: "A035C8C19219BA821ECEA86B64E628F8D684696D",
  },
  {
    name: "a coloured key with a prose value",
    text: '{"content":"\\u001b[32mpassword\\u001b[0m: required"}',
    keep: "\\u001b[32mpassword\\u001b[0m: required",
  },
  {
    name: "a coloured key with a reference",
    text: '{"content":"\\u001b[1mtoken\\u001b[0m=$TOKEN"}',
    keep: "$TOKEN",
  },
  {
    name: "a box table of settings described",
    text: BOX_TOP +
      "│ DB_PASSWORD │ required │\n│ API_TOKEN   │ string   │\n│ CACHE_KEY   │ user-profile │",
    keep: "│ DB_PASSWORD │ required │\n│ API_TOKEN   │ string   │",
  },
  {
    name: "a box table of references and stand-ins",
    text: "│ JWT_SECRET  │ $JWT_SECRET │\n│ SIGNING_KEY │ <your-key>  │",
    keep: "│ JWT_SECRET  │ $JWT_SECRET │\n│ SIGNING_KEY │ <your-key>  │",
  },
  // G4
  {
    name: "a format string's braced password",
    text: 'f"Server={host};Database=app;Uid={user};Pwd={password};"',
    keep: "Pwd={password};",
  },
  {
    name: "a format string's member in braces",
    text: 'conn = f"DRIVER={{ODBC}};UID={user};PWD={self.db_password};"',
    keep: "PWD={self.db_password};",
  },
  {
    name: "a JSX prop",
    text: "<Input password={pw123} onChange={set} />",
    keep: "password={pw123}",
  },
  {
    name: "a string.Format slot",
    text: 'string.Format("Server=x;Password={0};", pw)',
    keep: "Password={0};",
  },
  {
    name: "cloud-init's RANDOM and stand-ins",
    text:
      "chpasswd:\n  list: |\n    root:RANDOM\n    dev:<password>\n    ops:${OPS_PW}",
    keep: "root:RANDOM\n    dev:<password>\n    ops:${OPS_PW}",
  },
  {
    name: "a list: not under chpasswd",
    text: "users:\n  list: |\n    root:Falcon.pepper39x",
    keep: "root:Falcon.pepper39x",
  },
  {
    name: "sbt Credentials from the environment",
    text:
      'credentials += Credentials("Sonatype", "nexus.acme.io", sys.env("USER"), sys.env("PASS"))',
    keep: 'sys.env("PASS")',
  },
  {
    name: "sbt Credentials from a file",
    text: 'credentials += Credentials(Path.userHome / ".sbt" / ".credentials")',
    keep: '".credentials"',
  },
  {
    name: "sbt Credentials with a stand-in",
    text: 'Credentials("Realm", "host", "user", "<password>")',
    keep: "<password>",
  },
  {
    name: "Strapi reads APP_KEYS in code",
    text: "app: { keys: env.array('APP_KEYS') },",
    keep: "env.array('APP_KEYS')",
  },
  {
    name: "an app_keys type",
    text: "app_keys: list[str]",
    keep: "list[str]",
  },
  {
    name: "Hardhat accounts from the environment",
    text:
      "accounts: [process.env.PRIVATE_KEY],\naccounts: [`0x${PRIVATE_KEY}`],",
    keep:
      "accounts: [process.env.PRIVATE_KEY],\naccounts: [`0x${PRIVATE_KEY}`],",
  },
  {
    name: "Hardhat accounts' addresses",
    text: 'accounts: ["0xbc8982d347055b06b56aa4cae7555044017eaa26"],',
    keep: "0xbc8982d347055b06b56aa4cae7555044017eaa26",
  },
  {
    name: "a JSON list of account objects",
    text: `"accounts": [{"id": "${HEX64}"}]`,
    keep: HEX64,
  },
  // Over-redactions the audit found (must_stay.json).
  {
    name: "a CloudFormation !Ref (ms-env-ref.17)",
    text: "api_key: !Ref ApiKeyParameter",
    keep: "!Ref ApiKeyParameter",
  },
  {
    name: "a CloudFormation !Sub",
    text:
      "DbPassword: !Sub '{{resolve:secretsmanager:prod-db:SecretString:password}}'",
    keep: "!Sub '{{resolve",
  },
  {
    name: "a prefixed stand-in (ms-placeholder.8)",
    text: "SLACK_BOT_TOKEN=xoxb-your-bot-token",
    keep: "xoxb-your-bot-token",
  },
  {
    name: "another prefixed stand-in",
    text: "OPENAI_API_KEY=sk-your-openai-key",
    keep: "sk-your-openai-key",
  },
  {
    name: "a sops value in JSON",
    text:
      '"password": "ENC[AES256_GCM,data:mIyXI3ymvT0L8rCznKcVi6SE,iv:hZmOrpzVvMxYWZQgrlSKyx+yRv+14YkTEAixGB4dJm0=,tag:QV0IpRy/itQ+MpqH+Mm5Bg==,type:str]"',
    keep: "ENC[AES256_GCM,data:mIyXI3ymvT0L8rCznKcVi6SE",
  },
  {
    name: "a sops value on an env line",
    text:
      "DB_PASSWORD=ENC[AES256_GCM,data:mIyXI3ymvT0L8rCznKcVi6SE,iv:hZmOrpzVvMxYWZQgrlSKyx+yRv+14YkTEAixGB4dJm0=,tag:QV0IpRy/itQ+MpqH+Mm5Bg==,type:str]",
    keep: "ENC[AES256_GCM,data:mIyXI3ymvT0L8rCznKcVi6SE",
  },
  {
    name: "a SealedSecret's JSON encryptedData",
    text: `{"spec": {"encryptedData": {"password": "${SEALED}"}}}`,
    keep: SEALED,
  },
  {
    name: "a SealedSecret's YAML encryptedData, a *_KEY in it",
    text: `spec:\n  encryptedData:\n    API_KEY: ${SEALED}`,
    keep: SEALED,
  },
  {
    name: "a Mapbox public token (ms-mapbox-pk.1)",
    text:
      "mapboxgl.accessToken = 'pk.eyJ1IjoiYWNtZSIsImEiOiJ6ZDM1MWFmcjY2MGZ0Y3oxMWJ6d2U1Mm1wIn0.T1Fv05XJweosAwz3o1d5nN';",
    keep:
      "pk.eyJ1IjoiYWNtZSIsImEiOiJ6ZDM1MWFmcjY2MGZ0Y3oxMWJ6d2U1Mm1wIn0.T1Fv05XJweosAwz3o1d5nN",
  },
];

/** Secrets beside the look-alikes above: the guards must not keep these. */
const STILL_SECRET: Leak[] = [
  {
    name: "a password after a SealedSecret's block",
    text:
      `spec:\n  encryptedData:\n    API_KEY: ${SEALED}\n  template:\n    type: Opaque\nstringData:\n  password: Hunter2_real9`,
    secret: "Hunter2_real9",
    keep: [SEALED],
  },
  {
    name: "a Mapbox secret token",
    text:
      "MAPBOX_TOKEN=sk.eyJ1IjoiYWNtZSIsImEiOiJ6ZDM1MWFmcjY2MGZ0Y3oxMWJ6d2U1Mm1wIn0.T1Fv05XJweosAwz3o1d5nN",
    secret: "sk.eyJ1IjoiYWNtZSIsImEiOiJ6ZDM1MWFmcjY2MGZ0Y3oxMWJ6d2U1Mm1wIn0",
    keep: ["MAPBOX_TOKEN="],
  },
  {
    name: "a password that starts like a tag",
    text: "password: !Refx9Y7_k",
    secret: "!Refx9Y7_k",
    keep: ["password: "],
  },
];

Deno.test("redact() catches the fourteenth audit's assignment forms", async (t) => {
  for (const c of [...LEAKS, ...STILL_SECRET]) {
    await t.step(
      c.name,
      () => assertTaken(c.text, c.kind ?? "output", c.secret, c.keep),
    );
  }
});

Deno.test("redact() leaves the fourteenth audit's look-alikes alone", async (t) => {
  for (const c of LOOK_ALIKES) {
    await t.step(c.name, () => assertKept(c.text, c.kind ?? "output", c.keep));
  }
});
