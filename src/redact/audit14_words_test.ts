import { keptSteps, takenSteps, type TextKind as Kind } from "./_audit_kit.ts";

/** Passwords and secrets said in words that the fourteenth audit found leaking: [text, kind, secret]. */
const LEAKS: ReadonlyArray<readonly [string, Kind, string]> = [
  // English, French and Russian phrasings.
  [
    "creds for the test tenant: qa-bot@acme.io, Pickle@quartz587?",
    "speech",
    "Pickle@quartz587",
  ],
  ["creds: admin, Hunter22!x", "speech", "Hunter22!x"],
  [
    "I rotated the root pw last night, it's now Quartz_falcon24&",
    "speech",
    "Quartz_falcon24&",
  ],
  [
    "when it prompts for a passphrase just type Velvet#walrus68? and hit enter",
    "speech",
    "Velvet#walrus68",
  ],
  [
    "the wifi at the office is AcmeGuest and the key is Falcon@pepper975!",
    "speech",
    "Falcon@pepper975",
  ],
  [
    "log into grafana with admin and Lantern_saffron99!, then add the datasource",
    "speech",
    "Lantern_saffron99",
  ],
  ["login to grafana as admin / Pass1234!", "speech", "Pass1234"],
  [
    "my jira login got reset, temp password they gave me is Tundra!basalt9345!",
    "speech",
    "Tundra!basalt9345",
  ],
  [
    "ssh in as deploy, password Walrus_quartz747$, then run the migration",
    "speech",
    "Walrus_quartz747$",
  ],
  [
    "set MYSQL_ROOT_PASSWORD to Orbit!quartz6060# in compose so it matches prod-like",
    "speech",
    "Orbit!quartz6060#",
  ],
  ["le mdp c'est Copper!basalt4087?", "speech", "Copper!basalt4087"],
  ["mon mdp: Harbor#velvet75", "speech", "Harbor#velvet75"],
  ["вот пасс от админки Basalt.copper7600", "speech", "Basalt.copper7600"],
  ["пароль от админки Basalt.copper7601", "speech", "Basalt.copper7601"],
  // A TOTP setup key and a wallet's recovery phrase said in words.
  [
    "the 2fa setup key for the shared ops account is l6pa s2kk yvyx 7u5n 6s2w fzzg ehuk usvq — add it to your authenticator",
    "speech",
    "l6pa s2kk yvyx 7u5n 6s2w fzzg ehuk usvq",
  ],
  [
    "ok here is the recovery phrase for the test wallet, don't commit it anywhere:\njungle dune torch before adjust bicycle huge version pig recipe copy desert census bomb fiction seat wave dolphin badge gadget round iron blast congress",
    "speech",
    "pig recipe copy desert census bomb fiction seat",
  ],
  [
    "my seed phrase is olive farm pizza crowd piano own puppy round great shop beauty excite.",
    "speech",
    "olive farm pizza crowd piano own puppy round great shop beauty excite",
  ],
  ["MFA secret is JBSW Y3DP EHPK 3PXP", "speech", "JBSW Y3DP EHPK 3PXP"],
  // Languages the rules did not read before.
  [
    "Sunucunun şifresi Zephyr.marble63#, lütfen kimseyle paylaşma.",
    "speech",
    "Zephyr.marble63#",
  ],
  ["veritabanı parolası: Falcon@walrus98", "speech", "Falcon@walrus98"],
  ["hasło do bazy to Basalt-basalt1730!", "speech", "Basalt-basalt1730"],
  ["ang password ng server ay Marble-nimbus24&", "speech", "Marble-nimbus24&"],
  ["la contrasenya és Mango@tundra63$", "speech", "Mango@tundra63$"],
  [
    "kata sandinya Velvet@mango88! ya, jangan disebar",
    "speech",
    "Velvet@mango88",
  ],
  [
    "kata laluan untuk pangkalan data ialah Marble.velvet2293#",
    "speech",
    "Marble.velvet2293#",
  ],
  ["mật khẩu của máy chủ là Quartz!quartz89", "speech", "Quartz!quartz89"],
  [
    "parola pentru baza de date este Quartz_otter625$",
    "speech",
    "Quartz_otter625$",
  ],
];

Deno.test("redact() covers the passwords said in words the fourteenth audit found leaking", (t) =>
  // Counted under any rule (a seed phrase under the private keys').
  takenSteps(t, LEAKS));

/** Over-redactions the audit found, and what the rules above could over-reach to: [text, kind]. */
const KEPT: ReadonlyArray<readonly [string, Kind]> = [
  // ssh's own prompt, and a call chain after `password:`.
  ["Enter passphrase for key '/home/dev/.ssh/id_ed25519':", "output"],
  ["Enter passphrase for key '~/.ssh/id_rsa':", "speech"],
  ["password: z.string().min(12).max(128),", "output"],
  ["password: getpass.getpass(prompt2)", "speech"],
  // Login pairs and lists.
  ["log in with google and then 2fa-enabled", "speech"],
  ["log in with SSO and MFA-2", "speech"],
  ["creds for staging: admin, see the vault", "speech"],
  ["account: dev, us-east-1", "speech"],
  ["creds: <user>, <password>", "speech"],
  // English phrasings with no value.
  ["the password changed, it's now in the vault", "speech"],
  ["the password policy is now 12 chars", "speech"],
  ["enter your password, then type `ssh-add ~/.ssh/id_rsa`", "speech"],
  ["at the passphrase prompt type ./unlock.sh", "speech"],
  ["at the password prompt paste $DB_PASSWORD", "speech"],
  ["the password you gave me is wrong", "speech"],
  ["the password the docs mention is <your-password>", "speech"],
  ["the password in the env is ${DB_PASSWORD}", "speech"],
  ["password reset email is sent to admin@corp.com", "speech"],
  ["run it as root, password reset is needed", "speech"],
  ["same as before, password: ${DB_PASS}", "speech"],
  ["set MYSQL_ROOT_PASSWORD to ${MYSQL_ROOT_PASSWORD} in compose", "speech"],
  ["set MYSQL_ROOT_PASSWORD to xxxxxxxx in compose", "speech"],
  // A key said near the word wifi that is none.
  ["the wifi router's key is WPA2-PSK", "speech"],
  ["the wifi is down. the key is in-the-drawer-2", "speech"],
  ["the key is Falcon@pepper975!", "speech"],
  // Two-factor and recovery phrases without a value.
  ["the 2fa key is more than just some text that they use", "speech"],
  ["2fa key is xxxx xxxx xxxx xxxx", "speech"],
  [
    "the totp secret is stored in vault under ops team keys here",
    "speech",
  ],
  [
    "the recovery phrase is what keeps your wallet safe when you lose your phone",
    "speech",
  ],
  ["the recovery phrase is <twelve words>", "speech"],
  // Other languages saying a password has no value.
  ["şifre yanlış, tekrar deneyin", "speech"],
  ["hasło do bazy to sekret", "speech"],
  ["ang password ng server ay nasa vault", "speech"],
  ["la contrasenya és incorrecta", "speech"],
  ["kata sandi untuk server adalah rahasia", "speech"],
  ["mật khẩu của máy chủ là bí mật", "speech"],
  ["parola pentru baza de date este greșită", "speech"],
  ["le mdp c'est ${MDP}", "speech"],
  ["пароль от админки сменили вчера", "speech"],
  ["la parola chiave è importante", "speech"],
];

Deno.test("redact() keeps what the fourteenth audit's word rules could over-reach to", (t) =>
  keptSteps(t, KEPT));
