import {
  assertLinear,
  type KeptRow,
  keptSteps,
  type LeakRow,
  repeated,
  takenSteps,
} from "./_audit_kit.ts";

/**
 * Browser tests, credential hand-offs, two-factor keys, a debugger's
 * strings and a GraphQL field the seventeenth audit found leaking:
 * [text, kind, secret, keep?].
 */
const LEAKS: ReadonlyArray<LeakRow> = [
  // Playwright: a password typed into a field its label or selector names.
  [
    "  await page.getByLabel('Email').fill('r.ito@umbrella.dev');\n  await page.getByLabel('Password').fill('Harbor.quill.58#');\n  await page.getByRole('button', { name: 'Sign in' }).click();",
    "output",
    "Harbor.quill.58#",
    ["getByLabel('Password').fill('", "r.ito@umbrella.dev"],
  ],
  [
    "await page.fill('#password', 'Tundra-falcon-907');",
    "output",
    "Tundra-falcon-907",
    ["page.fill('#password', '"],
  ],
  [
    `await page.locator('input[name="new-password"]').fill("Q7v!mRz2Lp#k");`,
    "output",
    "Q7v!mRz2Lp#k",
  ],
  // Cypress and Selenium: the locator names the field, the call types.
  [
    "cy.get('#password').type('Osprey44$lantern', { log: false })",
    "output",
    "Osprey44$lantern",
    ["cy.get('#password').type('", "{ log: false }"],
  ],
  [
    "cy.get('[data-cy=password-input]').clear().type('W4lrus%Cobalt')",
    "output",
    "W4lrus%Cobalt",
  ],
  [
    "driver.find_element(By.ID, 'password').send_keys('Saffron82!reef')",
    "output",
    "Saffron82!reef",
    ["find_element(By.ID, 'password').send_keys('"],
  ],
  [
    'driver.findElement(By.name("password")).sendKeys("Ember-Marsh-615");',
    "output",
    "Ember-Marsh-615",
  ],
  // A credential handed over in a sentence: a user, a colon, the password.
  [
    "The staging basic-auth is deploy:pelican71#Birch, the same one we used last sprint.",
    "speech",
    "pelican71#Birch",
    ["basic-auth is deploy:"],
  ],
  [
    "Basic auth for the preview site is qa:Mx8%vTq2Rw, ask if it fails.",
    "speech",
    "Mx8%vTq2Rw",
  ],
  ["creds: deploy:Granite-otter-482", "speech", "Granite-otter-482", [
    "creds: deploy:",
  ]],
  // A TOTP setup key typed in groups of four after a colon.
  [
    "If the QR code won't scan, enter this setup key manually: KQ3M 7XWD PLRT A2VN HZ6E JYCB 4GUS OFMI",
    "speech",
    "KQ3M 7XWD PLRT A2VN",
    ["setup key manually: "],
  ],
  [
    "Setup key: mz4q tr7k awxe 5hbn",
    "speech",
    "mz4q tr7k awxe 5hbn",
  ],
  // GitHub's recovery codes read back from the saved file.
  [
    "Your GitHub recovery codes:\nqk2pd-7hw4m\nzr9xt-b3n8c\nf6lma-2vq0e\nKeep them somewhere safe.",
    "output",
    "zr9xt-b3n8c",
    ["Keep them somewhere safe."],
  ],
  [
    "recovery codes:\n  m8f2k-x0qrz\n  7tnpw-c4d9h",
    "output",
    "7tnpw-c4d9h",
  ],
  // gdb prints a string as its address, then the text: the text goes.
  [
    '(gdb) p config\n$1 = {host = 0x5555 "db", port = 5432, api_key = 0x5556 "c03e9a7d51f84b26e90d1c7a5b3f2e84", retries = 3}',
    "output",
    "c03e9a7d51f84b26e90d1c7a5b3f2e84",
    ["api_key = 0x5556 ", 'host = 0x5555 "db"'],
  ],
  [
    '$2 = {user = 0x4052a0 "svc", password = 0x4052b0 "Quill-dune-73!"}',
    "output",
    "Quill-dune-73!",
    ["password = 0x4052b0 "],
  ],
  // A GraphQL response's field with a camelCase qualifier.
  [
    '{"data":{"login":{"__typename":"AuthPayload","passwordPlain":"Fjord4471#"}}}',
    "output",
    "Fjord4471#",
    ['"passwordPlain":"'],
  ],
  [
    '{"data":{"resetPassword":{"passwordPlain":"Cinder-vale-208"}}}',
    "output",
    "Cinder-vale-208",
  ],
];

Deno.test("redact() covers the seventeenth audit's browser tests, hand-offs and two-factor keys", (t) =>
  takenSteps(t, LEAKS));

/** Look-alikes the seventeenth audit's rules must leave as they are. */
const KEPT: ReadonlyArray<KeptRow> = [
  // A variable or an env read typed into a password field is no password.
  [
    "cy.get('#password').type(Cypress.env('password'), { log: false })",
    "output",
  ],
  [
    "await page.getByLabel('Password').fill(process.env.E2E_PASSWORD!);",
    "output",
  ],
  ["await page.fill('#password', password);", "output"],
  [
    "driver.find_element(By.ID, 'password').send_keys(os.environ['PW'])",
    "output",
  ],
  ["cy.get('#password').type('{enter}')", "output"],
  // Another field, or a word that only holds pass.
  ["cy.get('#email').type('qa.lead@acme.io')", "output"],
  ["await page.getByLabel('Passenger').fill('Lovelace#3');", "output"],
  ["cy.get('#search').type('Velvet42#query')", "output"],
  // Prose about basic auth and credentials with no password in it.
  ["creds: see https://vault.acme.io/ops", "speech"],
  ["basic auth is user:password in the docs", "speech"],
  ["The basic-auth header is set by nginx: see the config", "speech"],
  // A setup key or recovery codes not given.
  ["setup key: read the docs here", "speech"],
  ["the setup key format: ABCD EFGH IJKL MNOP", "speech"],
  ["recovery codes: none generated yet", "output"],
  // gdb strings under names that are no credential.
  [
    '$1 = {host = 0x5555 "db", port = 5432, name = 0x5557 "payments"}',
    "output",
  ],
  // GraphQL page cursors: base64 of a position.
  [
    '"pageInfo": { "endCursor": "Y3Vyc29yOnYyOpHOAq7bR2xe1", "hasNextPage": true }',
    "output",
  ],
  [
    '{"startCursor":"Y3Vyc29yOnYyOpHOAm39Kd0Lz","hasPreviousPage":false}',
    "output",
  ],
  ["next_cursor: dXNlcjpVMEc5V0ZYTlo6Mjk4NzQ1", "output"],
  ['{"passwordPlain":true,"passwordMinLength":12}', "output"],
  // A SOPS file's age recipient: a public key.
  [
    "sops:\n    age:\n        - recipient: age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p",
    "output",
  ],
  // A Pulumi URN ends in a resource's name after `::`.
  [
    '{"urn":"urn:pulumi:prod::app::random:index/randomPassword:RandomPassword::db"}',
    "output",
  ],
  // A yarn.lock URL's fragment: the tarball's sha1, after the token.
  [
    '  resolved "https://npm.acme.io/@acme/ui/-/ui-1.4.0.tgz?token=Rb7Kq2XmP9vLs4TzW8yN3cJ6hF1dG5aE0uQ#4e1f0c8b2a9d7e6f5c3b1a0d9e8f7c6b5a4d3e2f"',
    "output",
    "#4e1f0c8b2a9d7e6f5c3b1a0d9e8f7c6b5a4d3e2f",
  ],
];

Deno.test("redact() keeps what the seventeenth audit's rules could over-reach to", (t) =>
  keptSteps(t, KEPT));

Deno.test("the seventeenth audit's rules stay linear on a long text of their anchors", () => {
  const anchors = [
    ".fill(",
    "getByLabel('Password').fill('",
    "page.fill('#password', '",
    "cy.get('#password').type(",
    "'password').send_keys(",
    "password')",
    "basic-auth is a:",
    "creds: a:",
    "setup key: ",
    "setup key: ABCD ",
    "recovery codes:\n",
    "api_key = 0x5 ",
    "?token=a#",
    "passwordPlain:",
    "RandomPassword::",
  ];
  for (const anchor of anchors) {
    assertLinear(repeated(anchor), ["speech", "output"]);
  }
});
