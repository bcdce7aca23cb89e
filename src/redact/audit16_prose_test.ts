import { equal } from "node:assert/strict";
import {
  assertLinear,
  keptSteps,
  type LeakRow,
  repeated,
  takenSteps,
  type TextKind as Kind,
} from "./_audit_kit.ts";
import { redact } from "./redact.ts";

/** Credentials said in prose that the sixteenth audit found leaking: [text, kind, secret, keep?]. */
const LEAKS: ReadonlyArray<LeakRow> = [
  // An agent's summary: a seeded account as a user and a password in code quotes.
  [
    "The seeded admin account is `admin@acme.io` / `7Rq=d2MvK%pw0x`.",
    "speech",
    "7Rq=d2MvK%pw0x",
    ["`admin@acme.io`"],
  ],
  [
    "Test login: `qa@shop.dev` / `Tz!84kLmw#Q2`",
    "speech",
    "Tz!84kLmw#Q2",
    ["`qa@shop.dev`"],
  ],
  // A hardcoded token an agent found, 40 hex digits.
  [
    "I found a hardcoded token in `src/lib/api.ts` line 12: `4f0a9c1de27b8836a05e1f9cd2b47e0a3c6d91b2`. You should rotate it.",
    "speech",
    "4f0a9c1de27b8836a05e1f9cd2b47e0a3c6d91b2",
    ["`src/lib/api.ts` line 12"],
  ],
  [
    "There's a leaked token in config.py: 8e21d4c07b9a3f5e6d1c2b0a9f8e7d6c5b4a3928",
    "speech",
    "8e21d4c07b9a3f5e6d1c2b0a9f8e7d6c5b4a3928",
  ],
  // An API key stored, the hex right after the words.
  [
    "Stored the API key `b83e0f6a21c94d7e5f0a8b3c6d1e2f49` in `config/secrets.json` (gitignored).",
    "speech",
    "b83e0f6a21c94d7e5f0a8b3c6d1e2f49",
    ["`config/secrets.json`"],
  ],
  [
    "Saved the API key `e1c4a7d0b3f69285c1e4a7d0b3f69285` to `.env` and restarted the worker.",
    "speech",
    "e1c4a7d0b3f69285c1e4a7d0b3f69285",
  ],
  // A generated secret in brackets: base64 with a slash and padding.
  [
    "Done. I generated a new JWT secret (Qm7vT2xKp9LwR4nZ8bYc1dFs/Hj6Ue3aGo5iNkPq0rS=) and added it to `.env.local`.",
    "speech",
    "Qm7vT2xKp9LwR4nZ8bYc1dFs/Hj6Ue3aGo5iNkPq0rS=",
    ["`.env.local`"],
  ],
  [
    "the new webhook secret (Hy5Lq2Wz8NcR3vTb6Kx0Pm9/Jd4Fs7Ga1Ue+Yo3Qi=) is in the vault",
    "speech",
    "Hy5Lq2Wz8NcR3vTb6Kx0Pm9/Jd4Fs7Ga1Ue+Yo3Qi=",
  ],
  // German: user, then password with no copula.
  [
    "Zugangsdaten für pgAdmin: Benutzer admin, Kennwort R7^%+c2tpQfuk%+1Xz",
    "speech",
    "R7^%+c2tpQfuk%+1Xz",
    ["Benutzer admin, Kennwort "],
  ],
  [
    "Zugangsdaten für Grafana: Benutzer ops, Passwort 4KQ9FDzTiLpRfEeh",
    "speech",
    "4KQ9FDzTiLpRfEeh",
  ],
  // Mailgun's newer keys: 32 hex digits and two groups of eight.
  [
    "Mailgun API key for the sandbox: 7a2c9e41b0d35f86e12a4c7b9d0e3f58-3c8a1f02-9be4d7a1",
    "speech",
    "7a2c9e41b0d35f86e12a4c7b9d0e3f58-3c8a1f02-9be4d7a1",
    ["Mailgun API key for the sandbox: "],
  ],
  [
    "Mailgun API key (prod): 2b6d0f4a8c3e71952b6d0f4a8c3e7195-6e3f9a25-b18d4ca7",
    "speech",
    "2b6d0f4a8c3e71952b6d0f4a8c3e7195-6e3f9a25-b18d4ca7",
  ],
  // A vendor's key, the hex right after the word key.
  [
    "here is the AssemblyAI key 5e0b7d2a9c41f386e0d2b7a5c9f143e8",
    "speech",
    "5e0b7d2a9c41f386e0d2b7a5c9f143e8",
    ["AssemblyAI key "],
  ],
  [
    "the Deepgram key 9d3f1a7c5e2b40868f1d3a7c5e9b2d04 goes in the worker",
    "speech",
    "9d3f1a7c5e2b40868f1d3a7c5e9b2d04",
  ],
  // ElevenLabs keys: sk_ and 48 hex digits, in any text.
  [
    "ElevenLabs: sk_3a9f0c7e1d5b2486a0f3c9e7d1b5a2480c6e9f3a7d1b5c28",
    "speech",
    "sk_3a9f0c7e1d5b2486a0f3c9e7d1b5a2480c6e9f3a7d1b5c28",
  ],
  [
    "ELEVEN_KEY=sk_b7e1d4a09c3f6285e0b7d4a1c9f3e6285a0d7b4e1c9f3a62\n",
    "output",
    "sk_b7e1d4a09c3f6285e0b7d4a1c9f3e6285a0d7b4e1c9f3a62",
  ],
  // A key pasted after here's my key: base64 with slashes.
  [
    "here's my key pq7xn2//RWGyK0jLNXjozU6v+IUDUzcEgiYcsLAt0rBA — can you wire it into the fetch call?",
    "speech",
    "pq7xn2//RWGyK0jLNXjozU6v+IUDUzcEgiYcsLAt0rBA",
    ["— can you wire it into the fetch call?"],
  ],
  [
    "here you go Zt4Wq8/LmN2pR6vXyB0cD3fGh5Jk7Ms9Tu1Ew+Ia thanks",
    "speech",
    "Zt4Wq8/LmN2pR6vXyB0cD3fGh5Jk7Ms9Tu1Ew+Ia",
  ],
  // A BitLocker recovery key: eight groups of six digits.
  [
    "BitLocker recovery key: 214598-330781-605924-118327-472031-559618-094732-681205",
    "speech",
    "214598-330781-605924-118327-472031-559618-094732-681205",
  ],
  [
    "Recovery Key ID: 4A1B\nRecovery Key: 703318-154429-620917-381106-219637-487003-035574-662189\n",
    "output",
    "703318-154429-620917-381106-219637-487003-035574-662189",
  ],
  // A wallet's seed phrase in quotes.
  [
    'my test wallet seed is "orbit cable fossil mango quiz raven tribe hollow velvet silk canyon wagon" — only on sepolia',
    "speech",
    "orbit cable fossil mango quiz raven tribe hollow velvet silk canyon wagon",
    ["— only on sepolia"],
  ],
  [
    "the seed words: zebra ember tribe cable quiz orbit mango raven silk fossil wagon hollow",
    "speech",
    "zebra ember tribe cable quiz orbit mango raven silk fossil wagon hollow",
  ],
  // A wifi network's name, then its password.
  [
    "office wifi is ACME-5G, password Harbor2741?",
    "speech",
    "Harbor2741",
    ["ACME-5G, password "],
  ],
  [
    "guest wifi is Lobby-Net, password Quartz!88lamp",
    "speech",
    "Quartz!88lamp",
  ],
  // French: my API key.
  [
    "Voici ma clé API : 2d8f4b6a0c1e3579bd8f4b6a0c1e3579bd8f4b6a0c1e3579bd8f4b6a0c1e3579",
    "speech",
    "2d8f4b6a0c1e3579bd8f4b6a0c1e3579bd8f4b6a0c1e3579bd8f4b6a0c1e3579",
    ["Voici ma clé API : "],
  ],
  [
    "la clé d'API est e5a7c9b1d3f50284e6a8c0b2d4f61395e7a9c1b3",
    "speech",
    "e5a7c9b1d3f50284e6a8c0b2d4f61395e7a9c1b3",
  ],
  // A password a few words before a modal: should be, will be.
  [
    "Can you SSH into 10.12.4.9 as ubuntu? The password should be pLQ7wVz2Nc5RtHy8kXb3 unless Mark rotated it last week.",
    "speech",
    "pLQ7wVz2Nc5RtHy8kXb3",
    ["unless Mark rotated it last week."],
  ],
  [
    "the staging password will be 5fk#Q2=mZr*Lx9 after the reset",
    "speech",
    "5fk#Q2=mZr*Lx9",
  ],
  // A markdown list with bold labels.
  [
    "Credentials:\n- **Username:** admin\n- **Password:** Falcon5528?\n- **URL:** https://grafana.acme.io",
    "speech",
    "Falcon5528",
    ["- **URL:** https://grafana.acme.io", "- **Username:** admin"],
  ],
  [
    "* **API Key**: 4bT9qLx2Wm7Rz0Kd8Ys3Vh6Nc1\n* **Region**: eu-west-1",
    "speech",
    "4bT9qLx2Wm7Rz0Kd8Ys3Vh6Nc1",
    ["**Region**: eu-west-1"],
  ],
  // Backup codes for an account, eight digits each.
  [
    "backup codes for the shared 2FA account: 63018274 90215538 47730196",
    "speech",
    "90215538",
  ],
  [
    "recovery codes for ops@acme.io: 18204476, 55910382",
    "speech",
    "55910382",
  ],
  // Portuguese: my API key is.
  [
    "minha chave da API é 9c2e4a6b8d0f13579c2e4a6b8d0f13579c2e4a6b",
    "speech",
    "9c2e4a6b8d0f13579c2e4a6b8d0f13579c2e4a6b",
    ["minha chave da API é "],
  ],
  [
    "a chave secreta é 3e5a7c9b1d3f5e7a9c1b3d5f7a9c1e3b",
    "speech",
    "3e5a7c9b1d3f5e7a9c1b3d5f7a9c1e3b",
  ],
  // Russian: here is the token for.
  [
    "Вот токен для деплоя 8Qx2zR5mLp/9TwKv3NbYc7HdJf1GsAe4",
    "speech",
    "8Qx2zR5mLp/9TwKv3NbYc7HdJf1GsAe4",
    ["Вот токен для деплоя "],
  ],
  [
    "ключ для API 0b2d4f6a8c1e3579b0d2f4a6c8e13579b0d2f4a6c8e13579b0d2f4a6c8e13579",
    "speech",
    "0b2d4f6a8c1e3579b0d2f4a6c8e13579b0d2f4a6c8e13579b0d2f4a6c8e13579",
  ],
  // A password with a `?` the sentence goes on after: the `?` is its own.
  [
    "I changed the admin password to Sl8te4411? so update the seed script",
    "speech",
    "Sl8te4411?",
    [" so update the seed script"],
  ],
];

Deno.test("redact() covers the credentials said in prose the sixteenth audit found leaking", (t) =>
  takenSteps(t, LEAKS));

Deno.test("redact() leaves a marker as it is: a second pass never reads one as a value", () => {
  for (
    const text of [
      "I changed the admin password to [redacted:prose-password]? so update the seed script",
      "the admin password to [redacted:prose-password]: done",
      "password to [redacted:credential]: [redacted:credential]",
    ]
  ) equal(redact(text, { kind: "speech" }).text, text);
});

/** Ordinary text the rules above could over-reach to: [text, kind, keep?]. */
const KEPT: ReadonlyArray<readonly [string, Kind, string?]> = [
  // Prose about passwords that holds none.
  ["the password should be at least 12 characters", "speech"],
  ["the password should be hashed with bcrypt", "speech"],
  ["the password should be sha256-hashed before storage", "speech"],
  ["the password will be reset tomorrow", "speech"],
  ["the password is wrong", "speech"],
  ["I rotated the key yesterday", "speech"],
  ["the token expired at 10:42", "speech"],
  ["use the API key from the dashboard", "speech"],
  ["my wifi password is on the fridge", "speech"],
  ["what should the admin password be? I forgot", "speech"],
  ["the wifi is down, password reset emails are delayed", "speech"],
  // Markdown bold labels with no secret.
  ["- **Password:** see 1Password\n- **Token:** stored in vault", "speech"],
  ["- **Password:** `${DB_PASSWORD}`", "speech"],
  ["**API Key**: ask in #ops", "speech"],
  ["- **Password:** required, min 12 chars", "speech"],
  ["**Password**: N/A", "speech"],
  ["- **Secret:** AWS_SECRET_ACCESS_KEY", "speech"],
  ["- **Token:** GITHUB_TOKEN (auto)", "speech"],
  ["the admin account is `root` / `toor`", "speech"],
  ["office wifi is ACME-5G, password on the whiteboard", "speech"],
  // Other languages' words with no value.
  ["Kennwort ändern unter Einstellungen", "speech"],
  ["Das Passwort muss mindestens 12 Zeichen haben", "speech"],
  ["Passwort 2FA-Code eingeben", "speech"],
  ["Bitte das Kennwort V2-Format verwenden", "speech"],
  ["Benutzer admin, Kennwort vergessen", "speech"],
  ["la clé API est dans le coffre", "speech"],
  ["a chave da API está no cofre", "speech"],
  ["токен для деплоя хранится в vault", "speech"],
  // Backup codes and account pairs with no secret.
  ["backup codes for the account: generated 10, store them safely", "speech"],
  ["the account is admin / see the wiki", "speech"],
  ["login: `admin` / `password`", "speech"],
  // Hex after key words that name no secret.
  ["the primary key 9e107d9d372bb6826bd81d3542a419d6 is wrong", "speech"],
  ["the cache key 9e107d9d372bb6826bd81d3542a419d6 changed", "speech"],
  ["import the gpg key 3F786850E387550FDAB836ED7E6DC881DE23001B", "speech"],
  ["the commit 3f786850e387550fdab836ed7e6dc881de23001b fixed it", "speech"],
  ["the idempotency key 0d4c8b1e7a2f95630d4c8b1e7a2f9563 repeats", "speech"],
  // Slashed runs that are no key: a digest, paths, an image name.
  [
    "the sha256 of the build is 47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=",
    "speech",
  ],
  [
    "the image is at registry/acme/backendServiceWorkerDeployment/latest",
    "speech",
  ],
  ["see src/components/AuthenticationProviderWrapper/index", "speech"],
  // Digits in dashed groups that are no recovery key.
  ["order 214598-330781-605924 shipped", "output"],
  // A seed of a random generator.
  ["the wallet seed is set from the env in tests", "speech"],
];

Deno.test("redact() keeps what the sixteenth audit's prose rules could over-reach to", (t) =>
  keptSteps(t, KEPT));

Deno.test("the sixteenth audit's prose rules stay linear on a long text of their anchors", () => {
  const anchors = [
    "[redacted:x]",
    "wifi a, password ",
    "password should be ",
    "Kennwort ",
    "Benutzer a, Kennwort ",
    "- **Password:** ",
    "account is `a` / ",
    "clé API : ",
    "chave é ",
    "токен для a ",
    "backup codes for a ",
    "API key ",
    "hardcoded token: ",
    "ab+c/",
    "123456-",
    "wallet seed ",
  ];
  for (const anchor of anchors) {
    assertLinear(repeated(anchor), ["speech", "output"]);
  }
});
