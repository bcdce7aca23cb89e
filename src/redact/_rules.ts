/**
 * The rule ids, from most to least specific, and the collectors that find
 * them. Each collector starts with one scan for a rare anchor (a literal,
 * `://`, a `-` flag, a `:`/`=` that a credential word precedes, or a sampled
 * pass over runs of 20+ token characters) and works only where that anchor
 * is, so clean text costs a few native scans.
 *
 * Collectors report edits on the same text; where two overlap, redact()
 * keeps the one whose id comes first below.
 *
 * @module
 */
import { collectAssignments } from "./_assignments.ts";
import { collectCallArguments } from "./_calls.ts";
import { collectConfigLines } from "./_config_lines.ts";
import {
  collectIpsecSecrets,
  collectLongFlags,
  collectRedisPasswords,
  collectShortFlags,
} from "./_command_line.ts";
import { collectPrivateKeys } from "./_private_key.ts";
import { collectEchoedSecretOutput } from "./command_output.ts";
import type { Collect } from "./_scan.ts";
import { collectTables } from "./_tables.ts";
import { collectTokens, SHAPES } from "./_tokens.ts";
import { collectTranscriptCredentials } from "./_transcripts.ts";
import { collectUrls } from "./_urls.ts";
import {
  collectBearerWords,
  collectPasswordLines,
  collectPassWords,
  collectRecoveryCodes,
} from "./_words.ts";

/**
 * Every collector but two that look for what only speech or a command line
 * holds (`redact()` adds them by the text's kind); order does not matter,
 * rank comes from {@link RULE_IDS}.
 */
export const COLLECTORS: readonly Collect[] = [
  collectPrivateKeys,
  collectTokens,
  collectUrls,
  collectLongFlags,
  collectShortFlags,
  collectAssignments,
  collectCallArguments,
  collectConfigLines,
  collectTables,
  collectPassWords,
  collectBearerWords,
  collectPasswordLines,
  collectRecoveryCodes,
  collectRedisPasswords,
  collectIpsecSecrets,
  collectEchoedSecretOutput,
  collectTranscriptCredentials,
];

/** Rule ids with what each catches, most specific first. */
export const RULE_IDS: readonly { id: string; description: string }[] = [
  {
    id: "private-key",
    description:
      "PEM and PGP private key blocks and OpenVPN static keys, whole, cut short (to the end of the text, or from its start: the base64 lines right before a footer no header opens), indented or JSON-escaped; header and footer kept; PuTTY .ppk Private-Lines and Private-MAC; wallet keys: an anvil/ganache Private Keys listing, a Solana keypair's 64 bytes, a Hardhat network's accounts: [\"<64 hex>\"]",
  },
  ...SHAPES.map(({ id, description }) => ({ id, description })),
  {
    id: "azure-client-secret",
    description:
      "Azure AD client secrets (three characters, a digit, a letter, ~, then 31–34 more)",
  },
  {
    id: "url-credentials",
    description:
      "Passwords in scheme://user:pass@host URLs (user and host kept; the last @ before the host ends the password, which may hold #, / or ?), a key as the user (https://<32 hex>@…, Sentry DSNs, Azure DevOps PATs), and signatures in the query (sig=, signature=, X-Amz-Signature=, X-Goog-Signature=); also in JSON whose slashes are escaped (postgres:\\/\\/app:pw@db); the secret path of Zapier, Make and n8n webhooks and of Infura, Alchemy and QuickNode endpoints; an Oracle thin JDBC URL's password (jdbc:oracle:thin:user/X@host); a Go MySQL DSN's password (user:X@tcp(host:3306)/db, @unix(…)); an OpenWeather key in the query (appid=<32 hex>); a signature or a 32+ hex key= in a query with no scheme before it (an access log's request line); a session id in a URL (;jsessionid=, PHPSESSID=, sessionid=); the key of Healthchecks.io ping and IFTTT Maker URLs; the token of an invitation, password-reset or magic link's path (/invite/<token>)",
  },
  {
    id: "slack-webhook",
    description:
      "Slack webhook URLs (https://hooks.slack.com/services/…): the path after the kind",
  },
  {
    id: "discord-webhook",
    description:
      "Discord webhook URLs (https://discord.com/api/webhooks/<id>/<token>): id and token",
  },
  {
    id: "teams-webhook",
    description:
      "Microsoft Teams incoming webhook URLs (…webhook.office.com/webhookb2/…, outlook.office.com/webhook/…): the path after it",
  },
  {
    id: "cli-credential",
    description:
      "Credentials on a command line: sshpass -p, mysql -pX (attached only), curl -u user:pass, redis-cli -a, docker login -p, az login -p, curl -b/--cookie (session-like pairs, as the cookie rule), rabbitmqadmin -p, mongosh -p, openssl pass: and enc -K <hex>, keytool -storepass, --password/--token/--api-key/--client-secret/--account-key and siblings (after a blank, ordinary words are left); in their own places: htpasswd -b file user X (-nb user X; also as a container's entrypoint), rabbitmqctl add_user name X, smbclient -U user%X, gh secret set --body X, echo X | docker login --password-stdin / gh auth login --with-token / az devops login / sudo -S, echo X | a secret store (vercel env add, wrangler secret put, gh secret set, docker secret create, netlify env:set, firebase functions:secrets:set, gcloud secrets create / versions add), echo user:X | chpasswd, npm/yarn config set …authToken X, aws configure set aws_secret_access_key X, ldapsearch -w, sqlcmd -P, pscp/plink -pw, xfreerdp /p:, 7z -pX, openssl enc -k, ssh-keygen -N, vercel -t, ngrok config add-authtoken, mc alias set NAME URL ACCESS SECRET, redis-server --requirepass/--masterauth, lftp -u user,X, net user NAME X /add, ConvertTo-SecureString 'X' -AsPlainText, dotnet user-secrets set NAME X, --certificate-key, cargo/wandb login X, snyk auth X, poetry config http-basic.NAME user X / pypi-token.NAME X, netlify env:set SECRET_NAME X, aws ssm put-parameter --value X, mosquitto_pub -P, cqlsh -p, influx -t, dotnet nuget add source -p / nuget sources add -Password; also every line of a shell script (#!/) in tool output; also on the lines of tool output that echo a command (Gemini's Command:, a shell prompt); podman/buildah/skopeo/oras/helm registry/crane login -p, skopeo --creds user:X, cypress --key, codecov -t, prefect cloud login -k, pulumi config set --secret NAME X, az keyvault secret set --value X, gh secret set -b'X', net use /user:U X, bundle config HOST user:X, curl -u KEY: (a key as the user), HTTPie api_key==X, an app-specific password (four groups of four) after a secret-named flag, echo/printf X into a file named for a password, ipmitool -P/-k/-y X and user set password ID X, flags whose words _ joins (--user_pass, --admin_password) and --dbpass, echo -n 'user:X' | base64 (and a value encoded on a line that names a credential); az sql/postgres/mysql server create -p X, mc admin user add ALIAS USER X, PsExec -p X, twine upload -p X, mkpasswd X, b2 account authorize ID X, wpa_passphrase SSID X, echo X | cryptsetup / kinit / openconnect --passwd-on-stdin / passwd --stdin, -Dsonar.token=X and -Dsonar.login=<40 hex>, jq --arg token X (and --arg key <hex or key-shaped>)",
  },
  {
    id: "bearer",
    description:
      "Authorization header values (Bearer, Token, Basic, another service's scheme before a token with a digit, …), also as a name/value pair (HAR) or a web server's header directive (proxy_set_header, RequestHeader), and bare Bearer tokens of 16+ characters with a digit, and Basic and base64 of user:password in words",
  },
  {
    id: "cookie",
    description:
      "Values of session-like cookies on Cookie: and Set-Cookie: lines, also as a name/value pair (HAR), and in curl -b/--cookie (names kept)",
  },
  {
    id: "aws-secret",
    description:
      'AWS secret access keys and session tokens assigned to their usual names, said after "secret", or beside an access key id',
  },
  {
    id: "credential",
    description:
      "Values assigned to credential-named keys (password=, secret:, api_key, token, client_secret, Ocp-Apim-Subscription-Key, пароль, 密码, パスワード, contraseña, mot de passe, …), also below a YAML key or in a block scalar; a seed phrase; terraform output -json sensitive values; PHP define('…PASSWORD', …) and WordPress keys and salts; Gradle storePassword \"…\"; .dockerconfigjson; passwords SQL sets (IDENTIFIED BY '…', PASSWORD '…'); Wi-Fi psk=; a Kubernetes bootstrap token; kaggle.json's key beside its username; a credential key over an object's value (Spring actuator); the secret of a deploy key after its deployment or key id (prod:name|…, <uuid>:<hex>); an expect script's send \"X\\r\" after a password prompt; Redis' requirepass/masterauth config lines, CONFIG SET requirepass X and the prompt's AUTH [user] X; the default of ${DB_PASSWORD:-X}; Honeycomb, Prefect, Mollie, Cloudflare tunnel and Salesforce session tokens; HubSpot private app tokens (pat-na1-<uuid>) and Langfuse secret keys (sk-lf-<uuid>); markdown table rows | NAME | VALUE |; in speech, 32+ hex digits a sentence says are an admin, private, signing … key or an auth token; x-honeycomb-team; a Nomad/Consul Secret ID; licenceKey; MFA/TOTP seeds; Bundler's BUNDLE_<HOST>= credentials; names after a JSON-escaped newline or a written-out colour code; box-drawn NAME │ VALUE rows; SQL Server password={X}; cloud-init chpasswd lists; sbt Credentials(…); Strapi APP_KEYS to the line's end; redis-cli CONFIG SET requirepass and ACL SETUSER >X; a literal default after a credential variable's name (env('DB_PASSWORD', 'X'), os.getenv(\"…\", \"X\"), ENV.fetch(\"…\") { \"X\" }, process.env.DB_PASSWORD || \"X\", Spring's ${DB_PASSWORD:X}) and a Terraform credential variable's default; an old value kept in a comment after a credential's value (# old: X); a JWT key (JWT_KEY, Jwt__Key) and a pepper; tables and dumps: a markdown row | NAME | X |, a column under a header naming a password, secret, token or key (markdown, psql, mysql; psql's one column with its footer), a psql \\x record's name | X, PHP var_dump's string(n) \"X\", a plist's <key>NAME</key><string>X</string>, a JSON Web Key's private members (d, p, q, dp, dq, qi, k), a Kubernetes Secret's base64 data whose decoded text holds a secret; Amazon ECR login passwords (eyJwYXlsb2FkIjoi…); in speech, 32+ hex digits (Mailgun's with two dashed groups of eight) right after the word key (not a gpg, ssh, public, primary … key) or after a hardcoded, leaked, access … token; a BitLocker recovery key (eight groups of six digits); an ipsec.secrets PSK, EAP or XAUTH secret; a Java XML properties <entry key=\"…password\">X</entry>; an Elasticsearch or Kibana enrollment token (base64 JSON holding \"key\":\"id:secret\"); a typed declaration's value (api_key: str = \"…\", const API_KEY: &str = \"…\"); a password or key a library call takes by position (server.login(user, X), pika.PlainCredentials(user, X), new PDO(dsn, user, X), mysqli_connect(host, user, X, db), DBI->connect(dsn, user, X), DriverManager.getConnection(url, user, X), new NetworkCredential(user, X), smtp.PlainAuth(id, user, X, host), SetBasicAuth(user, X), .basic_auth(user, Some(X)), .password(X), red:auth(X), simple_bind_s(dn, X), algoliasearch(appId, X), jwt.sign(payload, X), btoa('user:X'), cookieSession({ keys: [X] }), buildConfigField(\"String\", \"API_KEY\", \"\\\"X\\\"\")); the value an SQL INSERT puts in a password's column (VALUES ('a@b.io', 'X'), crypt('X', …)); a password a browser test types into a password field (page.fill('#password', 'X'), getByLabel('Password').fill('X'), cy.get('#password').type('X'), find_element(By.ID, 'password').send_keys('X')); the string gdb prints after a pointer (api_key = 0x5556 \"X\"); in protocol transcripts and CI logs: SMTP AUTH PLAIN <base64> and the base64 line after 334 UGFzc3dvcmQ6, IMAP a1 LOGIN user X, Redis MONITOR \"AUTH\" [\"user\"] \"X\", FTP PASS X (tcpdump's FTP: PASS, a client's --> PASS), a Postgres password message in strace's buffer (\"p\\0\\0\\0\\25X\\0\"), GitHub Actions' ::add-mask::X; a cell of a CSV, TSV, pg_dump COPY block, pandas frame or CLI table (NAME  TOKEN  CREATED) under a header naming a password, secret, token or key; a credential key with a suffix for its form (smtpPasswordRaw, userPasswordClear); an XML value under key=\"password\" (MySQL Workbench) or in a credential element's <Value> (unattend.xml); reg query's DefaultPassword REG_SZ X; a plist key in CamelCase ending in Key (RevenueCatKey); a DPAPI blob's encrypted part (ConvertFrom-SecureString), its header kept",
  },
  {
    id: "password-hash",
    description:
      "Password hashes that can be cracked offline: bcrypt ($2b$), Apache MD5 ($apr1$), sha256/512-crypt ($5$, $6$), md5-crypt ($1$), yescrypt ($y$), argon2 ($argon2id$), Django pbkdf2_sha256$ and Werkzeug pbkdf2:/scrypt: hashes, as in htpasswd, /etc/shadow and user tables",
  },
  {
    id: "netrc",
    description: "netrc entries (machine h login u password p): the password",
  },
  {
    id: "prose-password",
    description:
      "A password stated in prose (the admin password is hunter2!; the passphrase you gave ('…-91'); use X as the password; login with admin / X; creds are ops:X; das Passwort ist X, la contraseña es X, la clave es X, het wachtwoord is X, 密码是X, der API-Schlüssel lautet X, la mia password è X, トークンは X, API 키는 X, 我的令牌是X; pw X; creds: admin / X; test account: user / X; a Google app password after the words app password; pass: and the value below; use PGPASSWORD X; reset db pw to X; lösenordet är X, passordet er X, adgangskoden er X, salasana on X, пароль от базы — X): a bare value must hold a digit or symbol and ends at the first space; a quoted one needs 6+ characters (8+ and a digit or symbol when a few words stand between); also the phrasings of the fourteenth audit (creds for X: user, X; the root pw … it's now X; prompts for a passphrase just type X; the wifi … key is X; log into grafana with admin and X; the temp password they gave me is X; ssh in as deploy, password X), le mdp c'est X, пасс от админки X, Turkish, Polish, Catalan, Romanian, Vietnamese, Indonesian, Malay, Tagalog, Greek, Hebrew, Arabic, Persian, Urdu, Hindi, Bengali, Thai, Bulgarian, Serbian, Lithuanian, Latvian, Estonian, Swahili, Tamil and Icelandic, and a TOTP setup key said in groups of four or in one piece; also the shorthands of the fifteenth audit (Login: admin / X; wifi: SSID / X; (admin / X) after an address; ssh in as root:X; u: deploy p: X; password -> X; the same password as the router, X; logging in with \"X\"; мой пароль X; app password and sixteen letters; backup or recovery codes); and those of the sixteenth audit (the password should be X; a markdown list's **Password:** X; Kennwort X; the account is `user` / `X`; a wifi network named, then password X; clé API : X; chave da API é X; токен для деплоя X; backup codes for an account: …), a `!` or `?` taken with the value only where the sentence goes on after it; MySQL's log line \"A temporary password is generated for root@localhost: X\"; and those of the seventeenth audit (the staging basic-auth is deploy:X; creds: user:X; enter this setup key manually: ABCD EFGH …; recovery codes printed as well as said); since the eighteenth audit also in tool output and commands (a notes file an agent read, a commit message): the sentences of other languages and scripts above and a login pair (log in with admin / X)",
  },
  {
    id: "command-output",
    description:
      "Bare values printed by a command that prints a secret (heroku auth:token, gh auth token, gcloud auth print-access-token, kubectl get secret … | base64 -d, vault kv get -field=, op read, wg genkey, rails secret, echo -n 'user:X' | base64, …): each output line that is one value; set by the indexer, which pairs an output with its command, and by redact() where a prompt line in the same text echoes the command (up to the next prompt); cat of a MongoDB keyfile or an OpenVPN auth-user-pass file",
  },
  {
    id: "entropy",
    description:
      "High-entropy values after key= / key: or alone in quotes (not hex digests, UUIDs, paths, identifiers, object ids, image data or base64 of plain text or of form pairs; not weak ETags, OAuth state, JWK kid, Content-MD5, a page cursor (endCursor), an age recipient or a public key; in speech, not an OpenSSH public key's base64 or a go.sum h1: hash)",
  },
];
