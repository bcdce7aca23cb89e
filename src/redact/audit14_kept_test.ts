import {
  assertKept,
  assertTaken,
  type TextKind as Kind,
} from "./_audit_kit.ts";

const SOPS =
  "ENC[AES256_GCM,data:mIyXI3ymvT0L8rCznKcVi6SE,iv:hZmOrpzVvMxYWZQgrlSKyx+yRv+14YkTEAixGB4dJm0=,tag:QV0IpRy/itQ+MpqH+Mm5Bg==,type:str]";
const SEALED =
  "AgBiHEnq8ywsb3VrMbFjMZfbgpA0a7Fp1timAnKLHojhBHqEL0ZoGbBe42CzP591QwmGj97pbIjzNqAOUY+0vMfdoygDIPcn30zKmqEwz7sf176/0nCPNrQAaWxlZfzZaiZiCnRHzqyOeGkxMNke8ka2Q+nd2wxtdevFfEAcHte9adoILu6vexp/lDm5syHf9foV3gvDUhssWDlPqSsPocKpdMYYCnVVKpZ6Bn0WwHbdFYUwLvGe/EdTXlDsXJVOgHwNkYlepKWBjQu/l6/O32AVK6Z2zPOsEKuQlivxJb/1H7QcYUUZRpDfFo2pnuGL5qDqRviEDgA/AUkCrDUGuadOmgNbapHRs39wQlnH+4yL8PiRgkunEteOq8zYsiRp7q+48ZAprcV7EbGEZHs8XI1nhA6MrWQJJcSZOsj2EsnO8xc00cvol2wk6P14pnDTLH2Rm2WrmKDrmv/pgRpSVdNWFbJ5Ib7I3zx/BWfYtHd/fEgap0cWBLM";
/** A short SealedSecret value (under 256 characters: the random-run rule reads it). */
const SEALED_SHORT = "AgBx7Hq8ywsb3VrMbFjMZfbgpA0a7Fp1timAnKLHoj";
const OPENAI_KEY =
  "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7cDe0fGh3iJk6lMn9oPq";

/**
 * Public ids, ciphertext and references the fourteenth audit found redacted
 * (and their look-alikes): [name, kind, text, substring that must stay].
 */
const KEPT: ReadonlyArray<readonly [string, Kind, string, string]> = [
  // ms-openai-org.1: an organization id is public.
  [
    "an OpenAI-Organization header",
    "output",
    "OpenAI-Organization: org-9mItyz4DoqAhLyGMfdwoCHGz",
    "org-9mItyz4DoqAhLyGMfdwoCHGz",
  ],
  [
    "an organization argument",
    "output",
    'client = OpenAI(organization="org-9mItyz4DoqAhLyGMfdwoCHGz")',
    "org-9mItyz4DoqAhLyGMfdwoCHGz",
  ],
  [
    "an OPENAI_ORGANIZATION variable",
    "output",
    "OPENAI_ORGANIZATION=org-9mItyz4DoqAhLyGMfdwoCHGz",
    "org-9mItyz4DoqAhLyGMfdwoCHGz",
  ],
  // ms-recaptcha-site.1: a site key ships in the page.
  [
    "a reCAPTCHA data-sitekey",
    "output",
    '<div class="g-recaptcha" data-sitekey="6LR3XdSGZF2yvcuaVriebMGHXCVBXi_OXB1S3rwC"></div>',
    "6LR3XdSGZF2yvcuaVriebMGHXCVBXi_OXB1S3rwC",
  ],
  [
    "a siteKey in code",
    "output",
    'grecaptcha.execute({ siteKey: "6LR3XdSGZF2yvcuaVriebMGHXCVBXi_OXB1S3rwC" })',
    "6LR3XdSGZF2yvcuaVriebMGHXCVBXi_OXB1S3rwC",
  ],
  [
    "a Turnstile sitekey",
    "output",
    '<div class="cf-turnstile" data-sitekey="0x4AAAAAAABkMYinukE8nzYS"></div>',
    "0x4AAAAAAABkMYinukE8nzYS",
  ],
  // ms-razorpay-keyid.1: a key id ships in Checkout's page options.
  [
    "a Razorpay live key id",
    "output",
    'key: "rzp_live_ABeD0Qcf2KPmKA", // Razorpay key id (public)',
    "rzp_live_ABeD0Qcf2KPmKA",
  ],
  [
    "a Razorpay test key id",
    "output",
    'const options = { "key": "rzp_test_gCuHlJ5j74fkW6", "amount": 50000 };',
    "rzp_test_gCuHlJ5j74fkW6",
  ],
  // ms-sops-enc.1 and ms-sealed.1: ciphertext meant to be committed.
  ["a sops password", "output", `password: ${SOPS}`, SOPS],
  ["a sops password in JSON", "output", `{"password": "${SOPS}"}`, SOPS],
  [
    "a sops value below its key",
    "output",
    `db:\n  password:\n    ${SOPS}`,
    SOPS,
  ],
  [
    "a SealedSecret's password",
    "output",
    `spec:\n  encryptedData:\n    password: ${SEALED}`,
    SEALED.slice(0, 100),
  ],
  [
    "a short SealedSecret value",
    "output",
    `spec:\n  encryptedData:\n    api_token: ${SEALED_SHORT}\n  template:\n    metadata:\n      name: app`,
    SEALED_SHORT,
  ],
  [
    "a short SealedSecret value in JSON",
    "output",
    `{"spec":{"encryptedData":{"password":"${SEALED_SHORT}"}}}`,
    SEALED_SHORT,
  ],
  // notarytool's and altool's references to a stored password.
  [
    "notarytool --password @keychain:",
    "command",
    "xcrun notarytool submit Acme.dmg --apple-id dev@acme.io --team-id 6YH1DSA41R --password @keychain:AC_PASSWORD --wait",
    "@keychain:AC_PASSWORD",
  ],
  [
    "altool -p @keychain:",
    "command",
    "xcrun altool --upload-app -f app.ipa -u dev@acme.io -p @keychain:AC_PASSWORD",
    "@keychain:AC_PASSWORD",
  ],
  [
    "altool --password @env:",
    "command",
    "xcrun altool --notarize-app -u dev@acme.io --password @env:AC_PASSWORD -f app.zip",
    "@env:AC_PASSWORD",
  ],
];

/** Secrets beside the exemptions that must still go: [name, kind, text, secret, kept]. */
const GONE: ReadonlyArray<
  readonly [string, Kind, string, string, string]
> = [
  [
    "an OpenAI key beside the organization header",
    "command",
    `curl https://api.openai.com/v1/models -H "Authorization: Bearer ${OPENAI_KEY}" -H "OpenAI-Organization: org-9mItyz4DoqAhLyGMfdwoCHGz"`,
    OPENAI_KEY,
    "org-9mItyz4DoqAhLyGMfdwoCHGz",
  ],
  [
    "a random organization value that is no org- id",
    "output",
    "organization: Xk9mItyz4DoqAhLyGMfdwoCHGz",
    "Xk9mItyz4DoqAhLyGMfdwoCHGz",
    "organization: ",
  ],
  [
    "a reCAPTCHA secret key",
    "output",
    "secret=6LeR3XdSAAAAAKvcuaVriebMGHXCVBXi_OXB1S3",
    "6LeR3XdSAAAAAKvcuaVriebMGHXCVBXi_OXB1S3",
    "secret=",
  ],
  [
    "a reCAPTCHA secret posted to siteverify",
    "command",
    'curl -d "secret=6LeR3XdSAAAAAKvcuaVriebMGHXCVBXi_OXB1S3&response=abc" https://www.google.com/recaptcha/api/siteverify',
    "6LeR3XdSAAAAAKvcuaVriebMGHXCVBXi_OXB1S3",
    "https://www.google.com/recaptcha/api/siteverify",
  ],
  [
    "a secret shape under a site key's name",
    "output",
    'siteKey: "sk_live_51HxQeRKz8Xw3yTmB7qLpVn2cD4fGhJkLmNoPqRsTuVwXyZa"',
    "sk_live_51HxQeRKz8Xw3yTmB7qLpVn2cD4fGhJkLmNoPqRsTuVwXyZa",
    "siteKey",
  ],
  [
    "Razorpay's key secret beside its key id",
    "output",
    "RAZORPAY_KEY_ID=rzp_live_gCuHlJ5j74fkW6\nRAZORPAY_KEY_SECRET=hMD8l6wVSDMkt8Fh1cjSoa27",
    "hMD8l6wVSDMkt8Fh1cjSoa27",
    "rzp_live_gCuHlJ5j74fkW6",
  ],
  [
    "Razorpay's key secret in code",
    "output",
    'new Razorpay({ key_id: "rzp_test_gCuHlJ5j74fkW6", key_secret: "hMD8l6wVSDMkt8Fh1cjSoa27" })',
    "hMD8l6wVSDMkt8Fh1cjSoa27",
    "rzp_test_gCuHlJ5j74fkW6",
  ],
  [
    "a plain password in output",
    "output",
    "password: hunter2!x",
    "hunter2!x",
    "password: ",
  ],
  [
    "a password in brackets that is no sops value",
    "output",
    "password: ENC[Hunter2!x9]",
    "Hunter2!x9",
    "password: ",
  ],
  [
    "a random run after the encryptedData block ends",
    "output",
    `spec:\n  encryptedData:\n    api_token: ${SEALED_SHORT}\n  template:\n    signature: Xk9mItyz4DoqAhLyGMfdwoCHGz77`,
    "Xk9mItyz4DoqAhLyGMfdwoCHGz77",
    SEALED_SHORT,
  ],
  [
    "a random run after the encryptedData object closes",
    "output",
    `{"encryptedData":{"token":"${SEALED_SHORT}"},"signature":"Xk9mItyz4DoqAhLyGMfdwoCHGz77"}`,
    "Xk9mItyz4DoqAhLyGMfdwoCHGz77",
    SEALED_SHORT,
  ],
  [
    "a password on a line below encryptedData but not under it",
    "output",
    "spec:\n  encryptedData:\n    token: x\nnotes:\n  password: Walrus_quartz747$",
    "Walrus_quartz747$",
    "notes:",
  ],
  [
    "a password after @keychain: that is no item name",
    "command",
    "xcrun notarytool submit Acme.dmg --password @keychain:Tr0ub4dor&3 --wait",
    "Tr0ub4dor&3",
    "--wait",
  ],
  [
    "an app-specific password beside a keychain profile",
    "command",
    "xcrun notarytool store-credentials AC_PASSWORD --apple-id dev@acme.io --password ufxc-kibj-hqxo-oodh",
    "ufxc-kibj-hqxo-oodh",
    "store-credentials AC_PASSWORD",
  ],
];

Deno.test("redact() keeps the public ids, ciphertext and references of the fourteenth audit", async (t) => {
  for (const [name, kind, text, keep] of KEPT) {
    await t.step(name, () => assertKept(text, kind, keep));
  }
});

Deno.test("redact() still takes the secrets beside those exemptions", async (t) => {
  for (const [name, kind, text, secret, kept] of GONE) {
    await t.step(name, () => assertTaken(text, kind, secret, [kept]));
  }
});
