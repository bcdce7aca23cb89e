import {
  assertLinear,
  type KeptRow,
  keptSteps,
  type LeakRow,
  repeated,
  takenSteps,
} from "./_audit_kit.ts";

/**
 * Passwords said in a sentence of another language, or after a login pair,
 * in tool output and commands (a notes file or README an agent read, an
 * error, a commit message): the eighteenth audit found them leaking there
 * while speech took them. [text, kind, secret, keep?].
 */
const LEAKS: ReadonlyArray<LeakRow> = [
  // A file read by a tool: Spanish, Italian, Portuguese, Dutch, Polish.
  [
    "     1\u2192# Acceso\n     2\u2192la contraseña del admin es Tiger!1937ztye",
    "output",
    "Tiger!1937ztye",
    ["la contraseña del admin es "],
  ],
  [
    "Error: request failed\nla contraseña del admin es Juniper#6181ztkn\n    at deploy (deploy.js:12:5)",
    "output",
    "Juniper#6181ztkn",
    ["at deploy (deploy.js:12:5)"],
  ],
  [
    "# note\nla password del database è Velvet$3405Wrxu",
    "output",
    "Velvet$3405Wrxu",
    ["la password del database è "],
  ],
  ["a senha do banco é Quartz@7364kcdc", "output", "Quartz@7364kcdc"],
  ["het wachtwoord is Falcon%7373Qzwa", "output", "Falcon%7373Qzwa"],
  ["hasło do bazy to Falcon#8550vzha", "output", "Falcon#8550vzha"],
  // Scripts other than Latin.
  ["DBのパスワードは Harbor%3382xpaa です", "output", "Harbor%3382xpaa", [
    " です",
  ]],
  ["数据库密码是Harbor#1772Qwbr", "output", "Harbor#1772Qwbr"],
  ["관리자 비밀번호는 Tiger!8522Wwwu 입니다", "output", "Tiger!8522Wwwu"],
  ["пароль от базы: Orbit%5988Whbw", "output", "Orbit%5988Whbw"],
  ["lösenordet är Maple#4471qkz", "output", "Maple#4471qkz"],
  ["passordet til serveren er Ember!2291kqv", "output", "Ember!2291kqv"],
  ["كلمة المرور هي Cobalt#5520xq", "output", "Cobalt#5520xq"],
  // A login pair in a README or a tool's output.
  [
    "log in with admin / Falcon%1286xvtn and check the dashboard",
    "output",
    "Falcon%1286xvtn",
    ["log in with admin / ", " and check the dashboard"],
  ],
  // A commit message in a command.
  [
    'git commit -am "het wachtwoord is Falcon%7373Qzwa"',
    "command",
    "Falcon%7373Qzwa",
    ['git commit -am "het wachtwoord is '],
  ],
  [
    'git commit -m "hasło do bazy to Cobalt&5451Wwpv"',
    "command",
    "Cobalt&5451Wwpv",
  ],
];

Deno.test("redact() covers the eighteenth audit's written passwords in output and commands", (t) =>
  takenSteps(t, LEAKS));

/**
 * What those rules could over-reach to in output, and the public hashes
 * and keys speech's rule for pasted keys took.
 */
const KEPT: ReadonlyArray<KeptRow> = [
  // A message about a password, with no password in it.
  ["Error: la contraseña es obligatoria", "output"],
  ["la password è troppo corta (minimo 12 caratteri)", "output"],
  ["A senha é obrigatória.", "output"],
  ["パスワードは8文字以上で入力してください", "output"],
  ["토큰이 만료되었습니다. 다시 로그인하세요.", "output"],
  ["密码是必填项", "output"],
  ["Dutch: het wachtwoord is verlopen", "output"],
  ["der Token ist abgelaufen", "output"],
  ["le token est généré par le serveur", "output"],
  // The English word with `is` or a colon is another rule's in output.
  ["el token es `$GITHUB_TOKEN`", "output"],
  ["het wachtwoord is ${DB_PASSWORD}", "output"],
  ["пароль: <your-password>", "output"],
  ["Hasło: ********", "command"],
  // A login pair with no password.
  ["Login with GitHub / Google", "output"],
  ["log in with admin / admin and change it", "output"],
  ["login with alice / $PASSWORD", "output"],
  // Public hashes and keys said in speech.
  [
    "github.com/acme/lib v1.2.3 h1:7NI8CGc9xL2b0vojVMWR4wHspM6p09stv5WpspleLuu=",
    "speech",
  ],
  [
    "added the module: golang.org/x/net v0.33.0/go.mod h1:Wq2Xb9HtyYuN4gkyBmnVR6pSNtjVtaHvl8CjVmJlmQ8=",
    "speech",
  ],
  [
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIkxsoJ/mClR2rXR+Rrc9WlBd6wMCYBAaEvKFb0RQr4fq dev@laptop",
    "speech",
  ],
  [
    "add this to authorized_keys: ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQC7x9kPq2Lm4vNw8zRt5YbHc1JdF3sGpX6aWeU0iKoT ops@bastion",
    "speech",
  ],
  [
    "ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBKq3Zt7Yv1mWx9Lr2Np host",
    "speech",
  ],
];

Deno.test("redact() keeps what the eighteenth audit's rules could over-reach to", (t) =>
  keptSteps(t, KEPT));

Deno.test("the eighteenth audit's rules stay linear on a long text of their anchors", () => {
  const anchors = [
    "la contraseña es ",
    "la password è ",
    "wachtwoord ",
    "密码是",
    "비밀번호는 ",
    "пароль от ",
    "log in with a / ",
    "login with a / b ",
    "h1:",
    "AAAAC3NzaC1lZDI1NTE5",
  ];
  for (const anchor of anchors) {
    assertLinear(repeated(anchor), ["speech", "output", "command"]);
  }
});

/**
 * A password after its word with no label, whose letters make words
 * (`Cobalt#5452Wpfu`): a symbol no name holds tells it from an identifier.
 * [text, kind, secret, keep?].
 */
const WORDY_LEAKS: ReadonlyArray<LeakRow> = [
  ["use password Cobalt#5452Wpfu please", "speech", "Cobalt#5452Wpfu"],
  ["try password Harbor@2342Xtwu on the replica", "speech", "Harbor@2342Xtwu"],
  ["pass Amber+Fox2024 along to the contractor", "speech", "Amber+Fox2024"],
];

Deno.test("redact() takes a wordy password after its word by the symbol in it", (t) =>
  takenSteps(t, WORDY_LEAKS));

/** Names after a password word that stay: no such symbol, or an address. */
const WORDY_KEPT: ReadonlyArray<KeptRow> = [
  ["check password MAX_RETRY_COUNT_V2", "speech"],
  ["the password field userName2 is required", "speech"],
  ["the password admin2@corp.com for staging", "speech"],
  ["reset password via src/auth/ResetPassword2.tsx", "speech"],
];

Deno.test("redact() keeps names after a password word", (t) =>
  keptSteps(t, WORDY_KEPT));
