import {
  assertLinear,
  keptSteps,
  repeated,
  takenSteps,
  type TextKind as Kind,
} from "./_audit_kit.ts";

/**
 * Configuration and environment secrets the fifteenth audit found leaking:
 * [text, kind, secret].
 */
const LEAKS: ReadonlyArray<readonly [string, Kind, string]> = [
  // A literal default after a credential variable's name.
  [
    "'password' => env('DB_PASSWORD', 'Tango86!ember'),",
    "output",
    "Tango86!ember",
  ],
  [
    "'password' => env('DB_PASSWORD', 'Tango68%Lantern'),",
    "output",
    "Tango68%Lantern",
  ],
  [
    'production:\n  <<: *default\n  database: app_production\n  username: app\n  password: <%= ENV.fetch("DB_PASSWORD") { "juniper.Osprey.99#" } %>',
    "output",
    "juniper.Osprey.99#",
  ],
  [
    "  password: <%= ENV['DB_PASSWORD'] || 'juniper.Osprey.99#' %>",
    "output",
    "juniper.Osprey.99#",
  ],
  [
    'config.password = ENV.fetch("DB_PASSWORD", "Cobalt.Saffron.41!")',
    "output",
    "Cobalt.Saffron.41!",
  ],
  [
    'const dbPass = process.env.DB_PASSWORD || "Tango68%Lantern";',
    "output",
    "Tango68%Lantern",
  ],
  [
    'const secret = process.env["JWT_SECRET"] ?? "harbor.Maple.293";',
    "output",
    "harbor.Maple.293",
  ],
  [
    'DATABASES["default"]["PASSWORD"] = os.getenv("DB_PASSWORD", "Tango68%Lantern")',
    "output",
    "Tango68%Lantern",
  ],
  [
    "SECRET_KEY = os.environ.get('SECRET_KEY', 'django-insecure-7#kq!2x@w')",
    "output",
    "django-insecure-7#kq!2x@w",
  ],
  [
    'DB_PASS = config("DB_PASSWORD", default="Velvet-pine-88")',
    "output",
    "Velvet-pine-88",
  ],
  [
    "db_password = os.getenv('DB_PASSWORD') or 'Velvet-pine-88'",
    "output",
    "Velvet-pine-88",
  ],
  [
    "$password = getenv('DB_PASSWORD') ?: 'Tango68%Lantern';",
    "output",
    "Tango68%Lantern",
  ],
  [
    "'password' => $_ENV['DB_PASSWORD'] ?? 'Tango68%Lantern',",
    "output",
    "Tango68%Lantern",
  ],
  [
    'password := getEnv("DB_PASSWORD", "Tango68%Lantern")',
    "output",
    "Tango68%Lantern",
  ],
  [
    "'secret' => config('services.stripe.secret', 'whsec-Tango68%x'),",
    "output",
    "whsec-Tango68%x",
  ],
  [
    "spring.datasource.password=${DB_PASSWORD:Tango68%Lantern}",
    "output",
    "Tango68%Lantern",
  ],
  // A Terraform variable's default.
  [
    'variable "db_password" {\n  type      = string\n  sensitive = true\n  default   = "Tango68%Lantern"\n}',
    "output",
    "Tango68%Lantern",
  ],
  [
    'variable "api_token" { default = "tok-Harbor-5521" }',
    "output",
    "tok-Harbor-5521",
  ],
  // An old value kept in a comment.
  [
    "password: ${DB_PASSWORD}  # old: saffron-Velvet-815",
    "output",
    "saffron-Velvet-815",
  ],
  [
    "DB_PASSWORD=${DB_PASSWORD:?required}  # was Tango68%Lantern",
    "output",
    "Tango68%Lantern",
  ],
  [
    'password: "${DB_PASSWORD}" // previously "Cobalt.Saffron.41!"',
    "output",
    "Cobalt.Saffron.41!",
  ],
  // Go's MySQL DSN.
  [
    'dsn := "app:Cobalt.saffron.20#@tcp(127.0.0.1:3306)/shop?parseTime=true"',
    "output",
    "Cobalt.saffron.20#",
  ],
  [
    "DSN=svc:cactus.glacier.94!@tcp(mysql.prod:3306)/orders?tls=true",
    "output",
    "cactus.glacier.94!",
  ],
  [
    "DSN=svc:Cobalt54%glacier@tcp(mysql.prod:3306)/orders",
    "command",
    "Cobalt54%glacier",
  ],
  [
    'db, err := sql.Open("mysql", "app:Tango68%Lantern@unix(/var/run/mysqld/mysqld.sock)/shop")',
    "output",
    "Tango68%Lantern",
  ],
  [
    'dsn: "app:p@ss:w0rd!@tcp6([::1]:3306)/shop"',
    "output",
    "p@ss:w0rd!",
  ],
  // Passphrases, quoted.
  [
    'export GPG_PASSPHRASE="5FyE^kW^B3MxanDebR"',
    "command",
    "5FyE^kW^B3MxanDebR",
  ],
  ["export GPG_PASSPHRASE='Osprey-maple-508'", "command", "Osprey-maple-508"],
  [
    'env:\n  GPG_PASSPHRASE: "pepper.Quartz.17!"\n  GPG_KEY_ID: C2C295825CDA1BC1',
    "output",
    "pepper.Quartz.17!",
  ],
  [
    'SOPS_PGP_PASSPHRASE="glacier.tundra.97#" sops -d secrets.enc.yaml',
    "command",
    "glacier.tundra.97#",
  ],
  [
    "BORG_PASSPHRASE=\"Junip3r7904!\" borg create ::'{hostname}-{now}' /home",
    "command",
    "Junip3r7904!",
  ],
  // A JWT key and a pepper with human values.
  ["  Jwt__Key: juniper-Osprey-302", "output", "juniper-Osprey-302"],
  [
    "Jwt:\n  Issuer: acme\n  JWT_KEY: harbor-maple-293",
    "output",
    "harbor-maple-293",
  ],
  ['export PEPPER="Osprey-Orbit-767"', "command", "Osprey-Orbit-767"],
  ["PASSWORD_PEPPER=Osprey-Orbit-767", "output", "Osprey-Orbit-767"],
  // OpenWeather's key in a query.
  [
    'curl "https://api.openweathermap.org/data/2.5/weather?q=Lisbon&appid=5cccd2a48cfa5b89c82eb90a75170396&units=metric"',
    "command",
    "5cccd2a48cfa5b89c82eb90a75170396",
  ],
];

Deno.test("redact() covers the configuration secrets the fifteenth audit found leaking", (t) =>
  takenSteps(t, LEAKS));

/**
 * Over-redactions the audit found, and look-alikes of the rules above:
 * [text, kind, keep] (without keep, the text must come back unchanged).
 */
const KEPT: ReadonlyArray<readonly [string, Kind, string?]> = [
  // The audit's over-redactions.
  [
    "BORG_PASSPHRASE=glacier-Velvet-791 borg create ::'{hostname}-{now}' /home",
    "command",
    " borg create ::'{hostname}-{now}' /home",
  ],
  [
    "SSH_KEY_PASSPHRASE=vcOy6JfyM8uuFh49atT8 ./scripts/unlock.sh --verbose",
    "command",
    " ./scripts/unlock.sh --verbose",
  ],
  [
    '    it("rejects a bad password", async () => {\n      const res = await login({ email: "a@b.co", password: "wrong" });\n      expect(res.status).toBe(401);',
    "output",
  ],
  ['await login({ password: "incorrect" })', "output"],
  [
    'fetch("/api/me", { credentials: "include", headers: { Accept: "application/json" } })',
    "output",
  ],
  ['fetch(url, { credentials: "same-origin" })', "output"],
  // Defaults that are no secrets.
  ["'host' => env('DB_HOST', 'localhost'),", "output"],
  ["'password' => env('DB_PASSWORD', ''),", "output"],
  ['password = os.getenv("DB_PASSWORD", "")', "output"],
  ['port = ENV.fetch("PORT") { "3000" }', "output"],
  ['password: <%= ENV.fetch("DB_PASSWORD") { "postgres" } %>', "output"],
  ['const password = process.env.DB_PASSWORD || "changeme";', "output"],
  ['const token = process.env.API_TOKEN ?? "<your-token>";', "output"],
  ["'password' => env('DB_PASSWORD', '${DB_PASS}'),", "output"],
  ['api_key = os.environ.get("API_KEY", "your_api_key_here")', "output"],
  ['const user = process.env.DB_USER || "app_user";', "output"],
  ['label = t("password", "Passwort-1")', "output"],
  ['required_env("DB_PASSWORD", "the database password")', "output"],
  [
    'variable "db_password" {\n  type      = string\n  sensitive = true\n}',
    "output",
  ],
  ['variable "region" {\n  default = "us-east-1"\n}', "output"],
  ['variable "db_password" {\n  default = ""\n}', "output"],
  ['variable "db_password" {\n  default = null\n}', "output"],
  // Comments that keep no old value.
  ["password: ${DB_PASSWORD}  # old: see the vault", "output"],
  ["password: ${DB_PASSWORD}  # was required before 2.0", "output"],
  ["DB_PORT=5432  # old: 5433", "output"],
  ["SSH_PUBLIC_KEY=ssh-ed25519  # old: AAAAC3NzaC1lZDI1NTE5", "output"],
  // Spring defaults that are no secrets, a shell substring.
  ["spring.datasource.password=${DB_PASSWORD:}", "output"],
  ["spring.datasource.password=${DB_PASSWORD:${VAULT_PW}}", "output"],
  ['echo "${PASSWORD:0:4}"', "command"],
  ['echo "${PASSWORD:i:1}"', "command"],
  // Go DSNs with no password in them.
  [
    'dsn := fmt.Sprintf("%s:%s@tcp(%s:%d)/%s?parseTime=true", user, pass, host, port, name)',
    "output",
  ],
  ['db, err := sql.Open("mysql", "root@tcp(127.0.0.1:3306)/test")', "output"],
  ['dsn := "user:" + pass + "@tcp(localhost:3306)/db"', "output"],
  ['DSN="{{.User}}:{{.Password}}@tcp({{.Host}})/db"', "output"],
  ["DSN=app:${DB_PASSWORD}@tcp(db:3306)/app", "output"],
  ["DSN=app:<password>@tcp(db:3306)/app", "output"],
  // Passphrases that are references, and words that a passphrase key holds.
  ['export GPG_PASSPHRASE="$(pass show gpg)"', "command"],
  ['export GPG_PASSPHRASE="${GPG_PASSPHRASE}"', "command"],
  ["GPG_PASSPHRASE_FILE=~/.gnupg/pass.txt", "output"],
  // JWT keys and peppers that name no secret.
  ["  JwtKeyId: 2024-05-key", "output"],
  ["jwtKey: string;", "output"],
  ["JWT_KEY: ${JWT_KEY}", "output"],
  ['  pepper: "black"', "output"],
  ["  pepper: 0.5", "output"],
  // appid values that are public app ids.
  [
    "GET https://api.steampowered.com/ISteamNews/GetNewsForApp/v2/?appid=440&count=3",
    "output",
  ],
  [
    "https://open.weixin.qq.com/connect/oauth2/authorize?appid=wx520c15f417810387&redirect_uri=x",
    "output",
  ],
  [
    "https://login.live.com/oauth20_authorize.srf?appid=8f3c1c5a-1d0b-4a7e-9b59-2f1e6e9a0c11",
    "output",
  ],
];

Deno.test("redact() keeps the configuration look-alikes of the fifteenth audit", (t) =>
  keptSteps(t, KEPT));

Deno.test("redact() takes time linear in the text on repeated configuration anchors", async (t) => {
  const cases: Array<[string, string]> = [
    ['env("DB_PASSWORD", x', repeated('env("DB_PASSWORD", x', 200_000)],
    ["process.env.DB_PASSWORD || ", repeated('a.b.c || "', 200_000)],
    ['ENV["A"] ?? ', repeated('ENV["A"] ?? x', 200_000)],
    ["@tcp( with no blank", repeated("a:b@tcp(", 200_000)],
    ['variable "db_password" {', repeated('variable "db_password" {', 200_000)],
    ["password: x # old: ", repeated("password: x # old: ", 200_000)],
    ["?appid= x 20k", "https://x/" + repeated("?appid=", 200_000)],
    ["${DB_PASSWORD:x unclosed", repeated("${DB_PASSWORD:x", 200_000)],
    [
      'ENV.fetch("DB_PASSWORD") { ',
      repeated('ENV.fetch("DB_PASSWORD") { ', 200_000),
    ],
  ];
  for (const [name, text] of cases) {
    await t.step(name, () => assertLinear(text, ["output"]));
  }
});
