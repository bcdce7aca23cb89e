import {
  assertLinear,
  type KeptRow,
  keptSteps,
  type LeakRow,
  repeated,
  takenSteps,
} from "./_audit_kit.ts";

/**
 * Secrets in code that the sixteenth audit found leaking: [text, kind,
 * secret, what must stay].
 */
const LEAKS: readonly LeakRow[] = [
  // smtplib's, imaplib's login(user, password); a Gmail app password too.
  [
    'server.login("alerts.ops@gmail.com", "wqnb fkrt yzpe hgol")',
    "output",
    "wqnb fkrt yzpe hgol",
    ['server.login("alerts.ops@gmail.com", "'],
  ],
  [
    "imap = imaplib.IMAP4_SSL('imap.acme.io')\nimap.login('inbox-bot', 'Kestrel-Dune-418')",
    "output",
    "Kestrel-Dune-418",
    ["imap.login('inbox-bot', '"],
  ],
  [
    `python -c "import smtplib; s=smtplib.SMTP('smtp.gmail.com',587); s.starttls(); s.login('ci@gmail.com','mfqz ajrw ucth pelb')"`,
    "command",
    "mfqz ajrw ucth pelb",
  ],
  // pika's PlainCredentials, Apache HttpClient's UsernamePasswordCredentials.
  [
    'creds = pika.PlainCredentials("worker", "Lantern-Mosaic-305")',
    "output",
    "Lantern-Mosaic-305",
    ['PlainCredentials("worker", "'],
  ],
  [
    'new UsernamePasswordCredentials("svc", "Tw1light#harbor")',
    "output",
    "Tw1light#harbor",
  ],
  // PHP's PDO and mysqli, Perl's DBI.
  [
    '$db = new PDO("pgsql:host=db;dbname=crm", "crm_app", "Vx8#qLm2!pRt");',
    "output",
    "Vx8#qLm2!pRt",
    ['new PDO("pgsql:host=db;dbname=crm", "crm_app", "'],
  ],
  [
    "$pdo = new PDO('mysql:host=127.0.0.1;dbname=blog', 'blog', 'Garnet55$willow');",
    "output",
    "Garnet55$willow",
  ],
  [
    '$link = mysqli_connect("10.0.4.12", "reports", "Pl4net-Orchid!", "bi");',
    "output",
    "Pl4net-Orchid!",
    ['"reports", "', '", "bi");'],
  ],
  [
    '$mysqli = new mysqli("localhost", "wp", "Copper.fern.82", "wordpress");',
    "output",
    "Copper.fern.82",
  ],
  [
    'my $dbh = DBI->connect("dbi:Pg:dbname=ledger;host=pg", "ledger", "Sable#Quill93", { AutoCommit => 0 });',
    "output",
    "Sable#Quill93",
    ['"ledger", "'],
  ],
  [
    "my $dbh = DBI->connect($dsn, 'root', 'hR7^zPq2Lw', { RaiseError => 1 });",
    "output",
    "hR7^zPq2Lw",
  ],
  // JDBC, .NET and JavaMail.
  [
    'Connection c = DriverManager.getConnection("jdbc:postgresql://db:5432/app", "app", "Ember-Tusk-771");',
    "output",
    "Ember-Tusk-771",
    ['"app", "'],
  ],
  [
    'conn = DriverManager.getConnection(url, "sa", "Qz9!mW3#vB");',
    "output",
    "Qz9!mW3#vB",
  ],
  [
    'smtp.Credentials = new NetworkCredential("noreply@acme.io", "Birch71&canyon");',
    "output",
    "Birch71&canyon",
    ['new NetworkCredential("noreply@acme.io", "'],
  ],
  [
    'var cred = new NetworkCredential("svc-build", "xT4!kP9@mQ", "ACME");',
    "output",
    "xT4!kP9@mQ",
  ],
  [
    'return new PasswordAuthentication("mailer@acme.io", "Drift-Owl-614".toCharArray());',
    "output",
    "Drift-Owl-614",
  ],
  // Go: smtp.PlainAuth, SetBasicAuth, static credentials.
  [
    'auth := smtp.PlainAuth("", "ops@acme.io", "Fj3$kq9!Zr", "smtp.acme.io")',
    "output",
    "Fj3$kq9!Zr",
    ['"ops@acme.io", "', '", "smtp.acme.io")'],
  ],
  [
    'auth := smtp.PlainAuth("", user, "Mango-Reef-827", host)',
    "output",
    "Mango-Reef-827",
  ],
  [
    'req.SetBasicAuth("grafana", "Hollow#Pine55")',
    "output",
    "Hollow#Pine55",
    ['req.SetBasicAuth("grafana", "'],
  ],
  [
    'r.SetBasicAuth("admin", "zQ8-vN2!pL5")',
    "output",
    "zQ8-vN2!pL5",
  ],
  [
    'Creds: credentials.NewStaticV4("AKIAQ3EXAMPLE7GHJ2LM", "7c1f0e9d2b4a6c8e0f1a3b5d7e9f2c4a6b8d0e1f", ""),',
    "output",
    "7c1f0e9d2b4a6c8e0f1a3b5d7e9f2c4a6b8d0e1f",
  ],
  // Rust: reqwest's basic_auth with Some(...), sqlx's .password(...) builder.
  [
    '.basic_auth("deploy", Some("Quasar-Fig-208"))',
    "output",
    "Quasar-Fig-208",
    ['.basic_auth("deploy", Some("', '"))'],
  ],
  [
    'let resp = client.get(url).basic_auth("ci", Some("nW5#tR8@xK")).send().await?;',
    "output",
    "nW5#tR8@xK",
  ],
  [
    'let opts = PgConnectOptions::new()\n    .username("billing")\n    .password("Vesper^Kite42")\n    .database("billing");',
    "output",
    "Vesper^Kite42",
    ['.password("', '.username("billing")'],
  ],
  [
    'HikariConfig cfg = new HikariConfig();\ncfg.setPassword("Onyx-Lark-519");',
    "output",
    "Onyx-Lark-519",
  ],
  // JS: Basic auth built with btoa, Python's b64encode.
  [
    "const basic = btoa('ops:Amber7722!');",
    "output",
    "Amber7722!",
    ["btoa('ops:"],
  ],
  [
    'headers["Authorization"] = "Basic " + base64.b64encode(b"jenkins:Cr4ne-Moss-61").decode()',
    "output",
    "Cr4ne-Moss-61",
  ],
  // Redis AUTH from Lua, Jedis and node.
  [
    'local ok, err = red:auth("Velvet9931?")',
    "output",
    "Velvet9931?",
    ['red:auth("'],
  ],
  ['jedis.auth("default", "Kelp#Tower58");', "output", "Kelp#Tower58"],
  // python-ldap's bind.
  [
    'l.simple_bind_s("uid=svc,ou=apps,dc=acme,dc=io", "Thistle-94-Brook")',
    "output",
    "Thistle-94-Brook",
    ['"uid=svc,ou=apps,dc=acme,dc=io", "'],
  ],
  [
    "conn.bind_s('cn=reader,dc=corp', 'mP3!xW8#qZ', ldap.AUTH_SIMPLE)",
    "output",
    "mP3!xW8#qZ",
  ],
  // Algolia's admin key.
  [
    'const index = algoliasearch("XK2P9RTQ7A", "9d4c2e7f1a0b3c5d6e8f9a1b2c3d4e5f").initIndex("docs");',
    "output",
    "9d4c2e7f1a0b3c5d6e8f9a1b2c3d4e5f",
    ['algoliasearch("XK2P9RTQ7A", "'],
  ],
  [
    "const client = algoliasearch('QW1ER2TY3U', 'e0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5');",
    "speech",
    "e0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5",
  ],
  // JWT libraries' literal secrets.
  [
    'const token = jwt.sign({ sub: user.id, role: "admin" }, "3b9f0c1d7e2a4b6c8d0e1f3a5b7c9d0e2f4a6b8c0d1e3f5a7b9c0d2e4f6a8b0c", { expiresIn: "1h" });',
    "output",
    "3b9f0c1d7e2a4b6c8d0e1f3a5b7c9d0e2f4a6b8c0d1e3f5a7b9c0d2e4f6a8b0c",
    ['jwt.sign({ sub: user.id, role: "admin" }, "', '{ expiresIn: "1h" }'],
  ],
  [
    'decoded = jwt.decode(token, "Saffron-Lodge-2287", algorithms=["HS256"])',
    "output",
    "Saffron-Lodge-2287",
  ],
  [
    'Algorithm algorithm = Algorithm.HMAC256("f1e2d3c4b5a69788796a5b4c3d2e1f00");',
    "output",
    "f1e2d3c4b5a69788796a5b4c3d2e1f00",
  ],
  // Session cookies' signing keys.
  [
    'app.use(cookieSession({ name: "session", keys: ["a3f9c2e17b4d8a6e0c5f1b9d7e3a2c84", "5e8d1c0b9a7f6e4d3c2b1a0f9e8d7c6b"] }));',
    "output",
    "5e8d1c0b9a7f6e4d3c2b1a0f9e8d7c6b",
    ['keys: ["'],
  ],
  [
    "app.keys = ['7d2e9f4a1c6b3e8d0f5a2c7e9b4d1f6a'];",
    "output",
    "7d2e9f4a1c6b3e8d0f5a2c7e9b4d1f6a",
  ],
  // Hex keys behind a type: pydantic, Rust consts, Kotlin and TypeScript.
  [
    'class Settings(BaseSettings):\n    mapbox_api_key: str = "c4e1a9f07b3d52e8a6c0f9d1b7e3a5c2"\n    debug: bool = False',
    "output",
    "c4e1a9f07b3d52e8a6c0f9d1b7e3a5c2",
    ["mapbox_api_key: str = "],
  ],
  [
    '    secret_key: Optional[str] = "8f7e6d5c4b3a29180f7e6d5c4b3a2918"',
    "output",
    "8f7e6d5c4b3a29180f7e6d5c4b3a2918",
  ],
  [
    'pub const DATADOG_API_KEY: &str = "b2a1c3d4e5f60718293a4b5c6d7e8f90";',
    "output",
    "b2a1c3d4e5f60718293a4b5c6d7e8f90",
    ["DATADOG_API_KEY: &str = "],
  ],
  [
    'static SIGNING_KEY: &\'static str = "0a1b2c3d4e5f60718293a4b5c6d7e8f9a0b1c2d3";',
    "output",
    "0a1b2c3d4e5f60718293a4b5c6d7e8f9a0b1c2d3",
  ],
  [
    '    private val apiKey: String = "d0c9b8a7f6e5d4c3b2a19081726354af"',
    "output",
    "d0c9b8a7f6e5d4c3b2a19081726354af",
  ],
  // Android build fields.
  [
    'buildConfigField("String", "MAPS_API_KEY", "\\"6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d\\"")',
    "output",
    "6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d",
    ['buildConfigField("String", "MAPS_API_KEY", "\\"'],
  ],
  [
    'buildConfigField "String", "WEATHER_KEY", \'"1f2e3d4c5b6a79880a9b8c7d6e5f4a3b"\'',
    "output",
    "1f2e3d4c5b6a79880a9b8c7d6e5f4a3b",
  ],
  // .NET user secrets.
  [
    'dotnet user-secrets set "SendGrid:ApiKey" "4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d"',
    "command",
    "4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d",
    ['dotnet user-secrets set "SendGrid:ApiKey" "'],
  ],
  [
    "dotnet user-secrets set Jwt:SigningSecret 9c8b7a6f5e4d3c2b1a0f9e8d7c6b5a4f --project src/Api",
    "command",
    "9c8b7a6f5e4d3c2b1a0f9e8d7c6b5a4f",
  ],
  // A seed INSERT: each value goes by its column.
  [
    "INSERT INTO admin_users (email, password) VALUES ('root@acme.io', 'cedar48*falcon');",
    "output",
    "cedar48*falcon",
    ["('root@acme.io', '"],
  ],
  [
    "insert into users (name, email, password, role) values\n  ('Ann', 'ann@acme.io', 'Maple!204x', 'admin'),\n  ('Bo', 'bo@acme.io', 'Quill#73zz', 'user');",
    "output",
    "Quill#73zz",
    ["'ann@acme.io'", "'bo@acme.io'"],
  ],
  [
    "INSERT INTO users (username, password) VALUES ('ops', crypt('Heron-Vale-52', gen_salt('bf')));",
    "output",
    "Heron-Vale-52",
  ],
  // Collateral: the cmdlet and the sed command keep their shape; only the
  // literal goes.
  [
    '$pw = ConvertTo-SecureString "Tundra-Ash-47!" -AsPlainText -Force',
    "command",
    "Tundra-Ash-47!",
    ['$pw = ConvertTo-SecureString "', '" -AsPlainText -Force'],
  ],
  [
    "sed -i 's/^DB_PASSWORD=.*/DB_PASSWORD=Harb0r3912?/' .env",
    "command",
    "Harb0r3912?",
    ["sed -i 's/^DB_PASSWORD=.*/DB_PASSWORD=", "/' .env"],
  ],
  [
    "sed -i 's/^  password: .*/  password: Lynx-Oat-3301/' config/database.yml",
    "command",
    "Lynx-Oat-3301",
    ["s/^  password: .*/  password: ", "/' config/database.yml"],
  ],
  [
    'sed -E "s/^[ \\t]*api_key = .*/api_key = \\"5d4c3b2a1f0e9d8c7b6a5f4e3d2c1b0a\\"/" cfg.toml',
    "command",
    "5d4c3b2a1f0e9d8c7b6a5f4e3d2c1b0a",
    ['api_key = .*/api_key = \\"', '\\"/" cfg.toml'],
  ],
];

Deno.test("redact() covers the secrets in code the sixteenth audit found leaking", (t) =>
  takenSteps(t, LEAKS));

/** Look-alikes in code that must stay: [text, kind, what stays]. */
const KEPT: readonly KeptRow[] = [
  // Variables and env reads in the secret's place.
  ['server.login(user, os.environ["SMTP_PASS"])', "output"],
  ["server.login(cfg.user, cfg.password)", "output"],
  ["self.client.login(username='admin', password=self.pw)", "output"],
  [
    "const token = jwt.sign(payload, process.env.JWT_SECRET, { expiresIn: '1h' });",
    "output",
  ],
  ["jwt.verify(token, getKey, { algorithms: ['RS256'] }, cb)", "output"],
  [
    'decoded = jwt.decode(token, options={"verify_signature": False})',
    "output",
  ],
  ["$pdo = new PDO($dsn, $user, $pass);", "output"],
  ['$pdo = new PDO("sqlite:/var/db/app.sqlite");', "output"],
  ['$conn = mysqli_connect("localhost", "root", "", "test");', "output"],
  ["conn = DriverManager.getConnection(url, user, password);", "output"],
  [
    'conn = DriverManager.getConnection("jdbc:h2:mem:test", "sa", "");',
    "output",
  ],
  ["new NetworkCredential(username, password)", "output"],
  [
    'auth := smtp.PlainAuth("", from, os.Getenv("SMTP_PASSWORD"), host)',
    "output",
  ],
  ["req.SetBasicAuth(cfg.User, cfg.Pass)", "output"],
  [".basic_auth(&user, Some(&pass))", "output"],
  ['.password(std::env::var("DB_PASSWORD")?)', "output"],
  ['cfg.setPassword(System.getenv("DB_PASSWORD"));', "output"],
  [
    "headers.set('Authorization', 'Basic ' + btoa(`${user}:${pass}`));",
    "output",
  ],
  ["btoa(unescape(encodeURIComponent(text)))", "output"],
  ["local ok, err = red:auth(ngx.var.redis_password)", "output"],
  ["const app = firebase.auth();", "output"],
  ["conn.simple_bind_s(bind_dn, bind_pw)", "output"],
  [
    "const client = algoliasearch(process.env.ALGOLIA_APP_ID, process.env.ALGOLIA_ADMIN_KEY);",
    "output",
  ],
  // Test and tutorial stand-ins: words, placeholders, templates.
  ['await page.login("admin@example.com", "password");', "output"],
  ['jwt.sign(payload, "secret")', "output"],
  ['server.login("me@gmail.com", "<app-password>")', "output"],
  ['.password("changeme-****")', "output"],
  ['conn = DriverManager.getConnection(url, "sa", "%s");', "output"],
  [
    'app.use(cookieSession({ name: "session", keys: ["key1", "key2"] }));',
    "output",
  ],
  ["app.keys = ['im a newer secret', 'i like turtle'];", "output"],
  [
    "Object.keys({ a: 1 }); app.use(session({ keys: [secretA, secretB] }));",
    "output",
  ],
  // Typed declarations that hold no secret.
  ['    api_key: str = Field(..., env="API_KEY")', "output"],
  ["    password: Optional[str] = None", "output"],
  ['const API_KEY: &str = env!("API_KEY");', "output"],
  ['    base_url: str = "https://api.acme.io"', "output"],
  // Build fields of other things, or read from properties.
  [
    'buildConfigField("String", "BASE_URL", "\\"https://api.acme.io\\"")',
    "output",
  ],
  ['buildConfigField("String", "API_KEY", "\\"${apiKey}\\"")', "output"],
  [
    'buildConfigField("String", "API_KEY", "\\"" + props["API_KEY"] + "\\"")',
    "output",
  ],
  // user-secrets of no credential.
  ['dotnet user-secrets set "Logging:LogLevel" "Debug"', "command"],
  // INSERTs with placeholders, hashes, or no credential column.
  ["INSERT INTO users (email, password) VALUES (?, ?)", "output"],
  [
    "INSERT INTO users (email, password) VALUES ($1, $2) RETURNING id",
    "output",
  ],
  [
    "INSERT INTO users (email, password) VALUES ('a@b.io', 'password')",
    "output",
  ],
  [
    "INSERT INTO users (email, password) VALUES ('a@b.io', '$2b$12$KIXQJ0x1z9l3cW8sV5uT2eYq4mR7nA6bC3dE1fG0hI9jK8lM7nO6p')",
    "output",
    "'a@b.io'",
  ],
  [
    "INSERT INTO orders (id, email, total) VALUES (7, 'ops@acme.io', 19.99);",
    "output",
  ],
  ["insert into settings (name, value) values ('theme', 'dark-v2');", "output"],
  // PowerShell: a cmdlet is no value.
  ["$pw = Read-Host -AsSecureString", "output"],
  [
    "$pw = ConvertTo-SecureString $env:SVC_PASS -AsPlainText -Force",
    "command",
    "$pw = ConvertTo-SecureString",
  ],
  // sed: a regex is no value, and the command keeps its shape.
  ["sed -i 's/^DB_PASSWORD=.*/DB_PASSWORD=X/' .env", "command"],
  ['sed -i "s/^API_KEY=.*/API_KEY=$NEW_KEY/" .env', "command"],
  ["sed -i 's|^SECRET_KEY=[a-z0-9]*|SECRET_KEY=${SECRET}|' app.env", "command"],
];

Deno.test("redact() keeps what the sixteenth audit's code rules could over-reach to", (t) =>
  keptSteps(t, KEPT));

Deno.test("the sixteenth audit's code rules stay linear on a long text of their anchors", () => {
  const anchors = [
    ".login(",
    '.login("a", ',
    "PlainCredentials(",
    "new PDO(",
    "DBI->connect(",
    "mysqli_connect(",
    "DriverManager.getConnection(",
    "NetworkCredential(",
    "smtp.PlainAuth(",
    "SetBasicAuth(",
    "basic_auth(",
    ".password(",
    "red:auth(",
    "simple_bind_s(",
    "algoliasearch(",
    "jwt.sign(",
    "Algorithm.HMAC256(",
    "btoa('",
    "buildConfigField(",
    "buildConfigField ",
    "cookieSession({ keys: [",
    "app.keys = [",
    "INSERT INTO t (password) VALUES (",
    "INSERT INTO t (password) VALUES ('a'), (",
    'api_key: str = "',
    "API_KEY: &str",
    "s/^DB_PASSWORD=",
    "$pw = Read-Host ",
    "dotnet user-secrets set A_KEY ",
    "('",
  ];
  for (const anchor of anchors) {
    assertLinear(repeated(anchor), ["speech", "output"]);
  }
});
