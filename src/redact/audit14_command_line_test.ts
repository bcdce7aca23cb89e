import { keptSteps, takenSteps, type TextKind as Kind } from "./_audit_kit.ts";

/** A command holding a secret: `secret` must go, each of `keep` must stay. */
interface Leak {
  kind: Kind;
  text: string;
  secret: string;
  keep: string[];
}

/** Secrets given on command lines that the fourteenth blind audit found leaking. */
const AUDIT14_COMMAND_LINE: readonly Leak[] = [
  {
    kind: "command",
    text: "podman login quay.io -u acme+ci -p 'Cactus_orbit00&'",
    secret: "Cactus_orbit00&",
    keep: ["podman login quay.io -u acme+ci -p '"],
  },
  {
    kind: "command",
    text: "buildah login -u bot -p Zq8-Lm2!x registry.acme.io",
    secret: "Zq8-Lm2!x",
    keep: ["buildah login -u bot -p ", " registry.acme.io"],
  },
  {
    kind: "command",
    text: "helm registry login ghcr.io -u bot -p Hx7$kq2Lp0 && helm push c.tgz",
    secret: "Hx7$kq2Lp0",
    keep: ["helm registry login ghcr.io -u bot -p ", " && helm push c.tgz"],
  },
  {
    kind: "command",
    text: "crane auth login -u ci -p Tn4#wq9Rv1 gcr.io",
    secret: "Tn4#wq9Rv1",
    keep: ["crane auth login -u ci -p ", " gcr.io"],
  },
  {
    kind: "command",
    text:
      "skopeo copy --src-creds deploy:Copper-marble8290 docker://registry.acme.io/api:1.4 docker://ghcr.io/acme/api:1.4",
    secret: "Copper-marble8290",
    keep: ["--src-creds deploy:", " docker://registry.acme.io/api:1.4"],
  },
  {
    kind: "command",
    text: "skopeo inspect --creds=bot:Fig9-lark22 docker://q.io/a",
    secret: "Fig9-lark22",
    keep: ["--creds=bot:", " docker://q.io/a"],
  },
  {
    kind: "command",
    text:
      "npx cypress run --record --key c48ad5f4-30f7-41a5-a83a-b94f1f648b32 --parallel",
    secret: "c48ad5f4-30f7-41a5-a83a-b94f1f648b32",
    keep: ["npx cypress run --record --key ", " --parallel"],
  },
  {
    kind: "command",
    text:
      "codecovcli upload-process -t 3e4698f4-a2c5-4b1c-917b-d465cd879afa -f coverage.xml",
    secret: "3e4698f4-a2c5-4b1c-917b-d465cd879afa",
    keep: ["codecovcli upload-process -t ", " -f coverage.xml"],
  },
  {
    kind: "command",
    text:
      "prefect cloud login -k pnu_aMlzRHlqDGNFuw5g8SuEw9VNnS0p71CL423Y --workspace acme/prod",
    secret: "pnu_aMlzRHlqDGNFuw5g8SuEw9VNnS0p71CL423Y",
    keep: ["prefect cloud login -k ", " --workspace acme/prod"],
  },
  {
    kind: "command",
    text:
      "pulumi config set --secret dbPassword 'Walrus.pepper0354!' --stack prod",
    secret: "Walrus.pepper0354!",
    keep: ["pulumi config set --secret dbPassword '", "' --stack prod"],
  },
  {
    kind: "command",
    text: "pulumi config set --stack prod --secret apiKey Kq82-zzLw9",
    secret: "Kq82-zzLw9",
    keep: ["--secret apiKey "],
  },
  {
    kind: "command",
    text:
      "az keyvault secret set --vault-name acme-kv --name db-password --value 'Mango-saffron12#'",
    secret: "Mango-saffron12#",
    keep: ["--name db-password --value '"],
  },
  {
    kind: "command",
    text: "gh secret set DB_PASSWORD -b'Velvet#cactus398!' -e production",
    secret: "Velvet#cactus398!",
    keep: ["gh secret set DB_PASSWORD -b'", "' -e production"],
  },
  {
    kind: "command",
    text:
      "net use Z: \\\\fs01\\builds /user:ACME\\svc_build Mango.marble34 /persistent:no",
    secret: "Mango.marble34",
    keep: ["/user:ACME\\svc_build ", " /persistent:no"],
  },
  {
    kind: "command",
    text: "net use Z: \\\\fs01\\builds Basalt.44x /user:ACME\\svc",
    secret: "Basalt.44x",
    keep: ["net use Z: \\\\fs01\\builds ", " /user:ACME\\svc"],
  },
  {
    kind: "command",
    text: "bundle config --local gems.contribsys.com 853c66c2:7daa5054",
    secret: "7daa5054",
    keep: ["bundle config --local gems.contribsys.com 853c66c2:"],
  },
  {
    kind: "command",
    text: 'redis-cli CONFIG SET requirepass "Quartz_falcon47$"',
    secret: "Quartz_falcon47$",
    keep: ['redis-cli CONFIG SET requirepass "'],
  },
  {
    kind: "command",
    text:
      "redis-cli -h cache -p 6380 config set masterauth Ob7-sq!2 && echo ok",
    secret: "Ob7-sq!2",
    keep: ["config set masterauth ", " && echo ok"],
  },
  {
    kind: "command",
    text: "redis-cli ACL SETUSER worker on >Quartz!basalt08? ~jobs:* +@all",
    secret: "Quartz!basalt08?",
    keep: ["ACL SETUSER worker on >", " ~jobs:* +@all"],
  },
  {
    kind: "output",
    text: "127.0.0.1:6379> ACL SETUSER ops on '>Tiger&moss19' allkeys",
    secret: "Tiger&moss19",
    keep: ["ACL SETUSER ops on '>", "' allkeys"],
  },
  {
    kind: "command",
    text:
      'curl https://api.segment.io/v1/track -u gfNhVVw4h0hAdHEL8DQdeQFfgocR5p8h: -d \'{"userId":"1","event":"x"}\'',
    secret: "gfNhVVw4h0hAdHEL8DQdeQFfgocR5p8h",
    keep: ["/v1/track -u ", ": -d '"],
  },
  {
    kind: "command",
    text:
      "http GET https://api.acme.io/v2/items api_key==yIU5lq9Wqqr6h62tVG7Q9LLAKxIOrhET limit==50",
    secret: "yIU5lq9Wqqr6h62tVG7Q9LLAKxIOrhET",
    keep: ["/v2/items api_key==", " limit==50"],
  },
  {
    kind: "command",
    text:
      "xcrun notarytool submit Acme.dmg --apple-id dev@acme.io --team-id 6YH1DSA41R --password ufxc-kibj-hqxo-oodh --wait",
    secret: "ufxc-kibj-hqxo-oodh",
    keep: ["--team-id 6YH1DSA41R --password ", " --wait"],
  },
  {
    kind: "command",
    text:
      "echo 'Mango!otter641?' > ~/.vault_pass && ansible-vault decrypt group_vars/prod/vault.yml --vault-password-file ~/.vault_pass",
    secret: "Mango!otter641?",
    keep: ["echo '", "' > ~/.vault_pass && ansible-vault decrypt"],
  },
  {
    kind: "command",
    text: "echo -n ghx_8Hq2mWzLp0 | sudo tee /etc/app/api_token",
    secret: "ghx_8Hq2mWzLp0",
    keep: ["echo -n ", " | sudo tee /etc/app/api_token"],
  },
  {
    kind: "command",
    text:
      "printf 'jdoe\\nBasalt.mango082$\\n' > /tmp/auth.txt && sudo openvpn --config acme.ovpn --auth-user-pass /tmp/auth.txt",
    secret: "Basalt.mango082$",
    keep: ["printf 'jdoe\\n", "\\n' > /tmp/auth.txt"],
  },
];

Deno.test("redact() takes the command-line secrets of the fourteenth audit", (t) =>
  takenSteps(
    t,
    AUDIT14_COMMAND_LINE.map(({ text, kind, secret, keep }) =>
      [text, kind, secret, keep] as const
    ),
  ));

/** Commands the new forms could over-reach to: each must come back unchanged. */
const AUDIT14_COMMAND_LINE_KEPT: ReadonlyArray<readonly [string, Kind]> = [
  // Registry logins: a reference, a prompt, a port map after the login.
  ["podman login -u bot -p $QUAY_PASSWORD quay.io", "command"],
  ["buildah login -u bot -p ${REG_PASS} registry.acme.io", "command"],
  ["podman login quay.io && podman run -p 8080:80 nginx", "command"],
  ["oras login -u bot -p <password> ghcr.io", "command"],
  ["podman run -d -p 5432:5432 postgres:16", "command"],
  // skopeo: a user alone, a reference.
  ["skopeo copy --src-creds deploy docker://a/b docker://c/d", "command"],
  ["skopeo copy --dest-creds bot:$GHCR_TOKEN docker://a docker://b", "command"],
  // cypress, codecov, prefect: references and other flags.
  ["npx cypress run --record --key $CYPRESS_RECORD_KEY", "command"],
  [
    "npx cypress run --spec cypress/e2e/login.cy.ts --browser chrome",
    "command",
  ],
  ["codecovcli upload-process -t ${CODECOV_TOKEN} -f coverage.xml", "command"],
  ["docker run -t codecov/uploader:latest --help", "command"],
  ["prefect cloud login -k <your-api-key>", "command"],
  ["prefect cloud workspace set --workspace acme/prod", "command"],
  // pulumi: a plain setting, a value from the environment.
  ["pulumi config set aws:region us-east-1", "command"],
  ["pulumi config set --secret dbPassword $DB_PASSWORD", "command"],
  ["pulumi config set --stack prod region eu-west-1", "command"],
  // az keyvault: reading, a reference.
  [
    "az keyvault secret show --vault-name acme-kv --name db-password",
    "command",
  ],
  [
    "az keyvault secret set --vault-name kv --name x --value $SECRET",
    "command",
  ],
  // gh secret: a reference, a body read from stdin.
  ['gh secret set DB_PASSWORD -b"$DB_PASSWORD"', "command"],
  ["gh secret set DB_PASSWORD --body-file secret.txt", "command"],
  // net use: a prompt (*), switches, no password.
  ["net use Z: \\\\fs01\\builds * /user:ACME\\svc_build", "command"],
  ["net use Z: \\\\fs01\\builds /user:ACME\\svc /persistent:no", "command"],
  ["net use Z: /delete", "command"],
  ["net user bob /domain", "command"],
  // bundle config: ordinary settings.
  ["bundle config set --local path vendor/bundle", "command"],
  ["bundle config build.nokogiri --use-system-libraries", "command"],
  ["bundle config mirror.https://rubygems.org https://m.acme.io", "command"],
  // Redis: a reference, reading the setting, an ACL user without a password.
  ['redis-cli CONFIG SET requirepass "$REDIS_PASSWORD"', "command"],
  ["redis-cli CONFIG GET requirepass", "command"],
  ["redis-cli ACL SETUSER reader on nopass ~cache:* +get", "command"],
  ["redis-cli ACL SETUSER app on >$APP_PW ~* +@all > /tmp/acl.log", "command"],
  // curl -u with an empty password: a name, a reference, a name of words.
  ["curl -u admin: https://api.acme.io/v1", "command"],
  ["curl -u $SEGMENT_WRITE_KEY: https://api.segment.io/v1/track", "command"],
  ["curl -u deploy_user_2024: https://api.acme.io", "command"],
  // HTTPie: ordinary parameters and comparisons.
  ["http GET https://api.acme.io/items limit==50 sort_key==name", "command"],
  [
    "http GET https://api.acme.io/items page_token==CAEQAhoF api_key==$KEY",
    "command",
  ],
  ['if [ "$a" == "$b" ]; then echo same; fi', "command"],
  // --password words that are no app-specific password.
  ["xcrun notarytool submit A.dmg --password ufxc-kibj-hqxo --wait", "command"],
  ["tool --password prompt --verbose", "command"],
  ["deploy --password keep-it --force", "command"],
  // Writes into files that hold no secret, or of a reference.
  ['echo "$VAULT_PASS" > ~/.vault_pass', "command"],
  ["echo 'compiled' > compass.txt", "command"],
  ["echo 'started' > build.log", "command"],
  ['echo "hello world" > password.txt', "command"],
  ["echo '{}' > credentials.json", "command"],
  ["printf 'line one\\nline two\\n' > notes.txt", "command"],
  ["printf 'a\\nb\\n' | tee out.txt", "command"],
  // In speech the write forms are not looked for.
  ["I ran echo 'Mango!otter' > ~/.vault_pass earlier", "speech"],
];

Deno.test("redact() keeps what the fourteenth audit's command-line rules could over-reach to", (t) =>
  keptSteps(t, AUDIT14_COMMAND_LINE_KEPT));
