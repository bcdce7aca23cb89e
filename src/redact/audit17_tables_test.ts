import {
  assertLinear,
  type KeptRow,
  keptSteps,
  type LeakRow,
  repeated,
  takenSteps,
} from "./_audit_kit.ts";

/**
 * The seventeenth audit's tables and config shapes: a CSV, TSV, pg_dump
 * `COPY` block, pandas frame or CLI table whose header names a secret
 * column; a credential key with a suffix for the form it is kept in
 * (`smtpPasswordRaw`); an XML value under a key attribute (MySQL
 * Workbench), under a credential element's `<Value>` (unattend.xml), or in
 * a URL whose `&` is written `&amp;` (DataGrip); a plist key in CamelCase
 * (`RevenueCatKey`); `reg query`'s `DefaultPassword REG_SZ X`; PowerShell's
 * `ConvertFrom-SecureString` DPAPI blob. Rows: [text, kind, secret, keep?].
 */
const LEAKS: ReadonlyArray<LeakRow> = [
  // A CSV with a password or key column.
  [
    "id,email,username,password,created_at\n212,r.ito@globex.com,deploy,Walnut47&Heron,2026-02-11T08:10:00Z",
    "output",
    "Walnut47&Heron",
    ["r.ito@globex.com", "2026-02-11T08:10:00Z"],
  ],
  [
    'name,api_key,plan\n"Initech",Qx7Lm2Vb9Rt4Nc8Wz1Kp6Hs3Df5Gj0Ay,pro\n"Umbrella",,free',
    "output",
    "Qx7Lm2Vb9Rt4Nc8Wz1Kp6Hs3Df5Gj0Ay",
    ['"Initech"', "pro"],
  ],
  [
    "user_id\tlogin\tplain_pw\n7712\tbilling\tcopper-Falcon-551",
    "output",
    "copper-Falcon-551",
    ["billing"],
  ],
  [
    "Name, Email, Password\nAda Byron, ada@acme.io, Kestrel!2049x",
    "speech",
    "Kestrel!2049x",
    ["ada@acme.io"],
  ],
  // pg_dump's COPY block: the token column's cells.
  [
    "COPY public.api_tokens (id, user_id, token, created_at) FROM stdin;\n41\t902\t9b1e4c77d02a3f58e6c1b0a4d9f27e35c8a16b03\t2026-05-02T10:00:00Z\n\\.",
    "output",
    "9b1e4c77d02a3f58e6c1b0a4d9f27e35c8a16b03",
    ["2026-05-02T10:00:00Z"],
  ],
  [
    'COPY public.users (id, email, "password") FROM stdin;\n3\tkim@acme.io\tSparrow-cobalt-77\n\\.',
    "output",
    "Sparrow-cobalt-77",
    ["kim@acme.io"],
  ],
  // A pandas frame: the index column has no header.
  [
    "   user_id        email                         api_key\n0      118   ana@initech.dev   Tq4Zr8Lp2Wm6Xv0Nb3Hc7Ks1Fd9Gy5Je\n1      512   bo@acme.io   NaN",
    "output",
    "Tq4Zr8Lp2Wm6Xv0Nb3Hc7Ks1Fd9Gy5Je",
    ["ana@initech.dev", "NaN"],
  ],
  [
    "        name               secret_key\nrow1    stripe-prod        Pv5Hq1Ty8Mw3Rz7Lc2Nx6Bd0Kf4Gs9Ja",
    "output",
    "Pv5Hq1Ty8Mw3Rz7Lc2Nx6Bd0Kf4Gs9Ja",
    ["stripe-prod"],
  ],
  // A CLI table with a TOKEN column.
  [
    "NAME        TOKEN                                      CREATED\nci-runner   Lr2Xk9Wd4Qm7Tz1Hv6Nb3Pc8Fs0Jg5Ya   3d",
    "output",
    "Lr2Xk9Wd4Qm7Tz1Hv6Nb3Pc8Fs0Jg5Ya",
    ["ci-runner", "3d"],
  ],
  [
    "ID   DESCRIPTION   SECRET                                     EXPIRES\n7    deploy bot    Zm4Qa8Wr2Ty6Uc0Ip3Os7Dk1Fl5Gj9Hx   2027-01-01",
    "output",
    "Zm4Qa8Wr2Ty6Uc0Ip3Os7Dk1Fl5Gj9Hx",
    ["deploy bot", "2027-01-01"],
  ],
  [
    "TOKEN                     TTL         EXPIRES                USAGES\n7q2kd9.x8m4vz1rb0cn6tyh   23h         2026-12-04T10:00:00Z   authentication,signing",
    "output",
    "7q2kd9.x8m4vz1rb0cn6tyh",
    ["authentication,signing"],
  ],
  // A credential key with a suffix for the form it is kept in.
  [
    '{"smtpPasswordRaw":"lichen.Harbor.63!"}',
    "output",
    "lichen.Harbor.63!",
    ["smtpPasswordRaw"],
  ],
  [
    '{"userPasswordClear":"Gq7*mR2&vx9Tn4"}',
    "output",
    "Gq7*mR2&vx9Tn4",
    ["userPasswordClear"],
  ],
  // MySQL Workbench's connections.xml.
  [
    '<value type="string" key="userName">root</value>\n<value type="string" key="password">Ember-Walrus-903</value>',
    "output",
    "Ember-Walrus-903",
    ['key="password"', "root"],
  ],
  [
    '<value type="string" key="sshPassword">tidal42#Quince</value>',
    "output",
    "tidal42#Quince",
  ],
  // DataGrip's dataSources.local.xml: `&amp;` and a closing tag.
  [
    "<jdbc-url>jdbc:postgresql://db.internal:5432/app?user=app&amp;password=Quince.Otter.28!</jdbc-url>",
    "output",
    "Quince.Otter.28!",
    ["</jdbc-url>", "user=app"],
  ],
  [
    "<jdbc-url>jdbc:mysql://db:3306/app?user=ro&amp;password=falcon19@Mesa&amp;useSSL=true</jdbc-url>",
    "output",
    "falcon19@Mesa",
    ["&amp;useSSL=true</jdbc-url>"],
  ],
  // Info.plist: a vendor key in CamelCase.
  [
    "<key>RevenueCatKey</key>\n<string>Hn3Wq8Zr1Ty5Lm9Xc2Vb6Kd0Fp4Js7Ga</string>",
    "output",
    "Hn3Wq8Zr1Ty5Lm9Xc2Vb6Kd0Fp4Js7Ga",
    ["RevenueCatKey"],
  ],
  [
    "<key>AmplitudeKey</key>\n\t<string>Ck8Rv2Xn6Wq0Lt4Zm9Pb3Hy7Fs1Dj5Ga</string>",
    "output",
    "Ck8Rv2Xn6Wq0Lt4Zm9Pb3Hy7Fs1Dj5Ga",
  ],
  // unattend.xml: plain text and base64.
  [
    "<AutoLogon>\n  <Password>\n    <Value>Basalt.Pine.71!</Value>\n    <PlainText>true</PlainText>\n  </Password>\n</AutoLogon>",
    "output",
    "Basalt.Pine.71!",
    ["<PlainText>true</PlainText>"],
  ],
  [
    "<AdministratorPassword>\n  <Value>UGluZS5CYXNhbHQuNzEhQWRtaW5pc3RyYXRvclBhc3N3b3Jk</Value>\n  <PlainText>false</PlainText>\n</AdministratorPassword>",
    "output",
    "UGluZS5CYXNhbHQuNzEhQWRtaW5pc3RyYXRvclBhc3N3b3Jk",
  ],
  // reg query's Winlogon values.
  [
    "HKEY_LOCAL_MACHINE\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Winlogon\n    DefaultUserName    REG_SZ    kiosk\n    DefaultPassword    REG_SZ    Otter5531#",
    "output",
    "Otter5531#",
    ["kiosk", "DefaultPassword    REG_SZ    "],
  ],
  [
    "    ProxyPassword    REG_EXPAND_SZ    Wq3Zr8Lt1Xm6Nb0Hc5Vk",
    "output",
    "Wq3Zr8Lt1Xm6Nb0Hc5Vk",
  ],
  // ConvertFrom-SecureString: the DPAPI blob after its fixed header.
  [
    "PS> $secure | ConvertFrom-SecureString\n01000000d08c9ddf0115d1118c7a00c04fc297eb0a7c3e91b5d24f68c0e1a9b7d3f25c84e6a0b9c17d2f3e5a8b4c6d0e1f2a3b4c5d6e7f8091a2b3c4d5e6f7a8b9c0d1e2f3",
    "output",
    "0a7c3e91b5d24f68c0e1a9b7d3f25c84e6a0b9c17d2f3e5a8b4c6d0e1f2a3b4c",
    ["01000000d08c9ddf0115d1118c7a00c04fc297eb"],
  ],
  [
    '$enc = "01000000d08c9ddf0115d1118c7a00c04fc297eb01000000e4a1b2c3d4e5f60718293a4b5c6d7e8f9012ab34cd56ef78"',
    "command",
    "e4a1b2c3d4e5f60718293a4b5c6d7e8f9012ab34cd56ef78",
  ],
];

/** Look-alikes the new rules must leave as they are: [text, kind, keep?]. */
const KEPT: ReadonlyArray<KeptRow> = [
  // Columns named for a password or token that hold none.
  [
    "id,email,password_changed_at,token_count,has_password\n1,a@acme.io,2026-03-07T06:14:13Z,42,true\n2,b@acme.io,,0,false",
    "output",
  ],
  ["user_id,password\n1,\n2,NULL\n3,********", "output"],
  ["id\thas_password\tpassword_reset_at\n1\tt\t2026-01-01 10:00:00", "output"],
  [
    "NAME        TOKEN    CREATED\nci-deploy   <none>   2d\nweb         ****     5d",
    "output",
  ],
  [
    "KEY                 VALUE\nLOG_LEVEL           debug\nFEATURE_FLAG        enabled-for-beta",
    "output",
  ],
  [
    "name,key,value\nretries,max_retries,3\ntimeout,request_timeout_ms,5000",
    "output",
  ],
  [
    "KEY   FINGERPRINT   ADDED\nci-key   SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU   2d",
    "output",
  ],
  [
    "file,line,token\nsrc/a.ts,12,IDENTIFIER\nsrc/b.ts,40,STRING_LITERAL",
    "output",
  ],
  ["model,input_tokens,output_tokens,key\ngpt-4o,1200,300,run-1", "output"],
  ["word,count\nthe,200\npassword,12", "speech"],
  // Code and prose with the words.
  ["const [token, secret] = pair;\nfoo(a, b)", "output"],
  ["token, secret\nfoo, bar", "speech"],
  [
    "COPY public.users (id, email, password_reset_sent_at) FROM stdin;\n1\ta@acme.io\t2026-01-01\n\\.",
    "output",
  ],
  ["COPY public.api_tokens (id, token) FROM stdin;\n1\t\\N\n\\.", "output"],
  // A key suffix that names no secret's form.
  ["const PASSWORD_CLEAR_BUTTON = true", "command"],
  ["smtpPasswordRaw=getenv", "output"],
  // XML around credential names with nothing secret in them.
  [
    '<value type="string" key="password"></value>\n<value type="int" key="port">3306</value>',
    "output",
  ],
  ["<Password>\n  <Value>*SENSITIVE*DATA*DELETED*</Value>", "output"],
  [
    "<key>NSExtensionPointKey</key>\n<string>com.apple.widgetkit-extension</string>",
    "output",
  ],
  ["<jdbc-url>jdbc:postgresql://db:5432/app?user=app</jdbc-url>", "output"],
  // reg query values that are no secret.
  [
    "    DefaultUserName    REG_SZ    kiosk\n    DefaultDomainName    REG_SZ    ACME",
    "output",
  ],
  [
    "    DefaultPassword    REG_SZ    \n    AutoAdminLogon    REG_SZ    1",
    "output",
  ],
  // A DPAPI header alone, and another hex digest.
  ["01000000d08c9ddf0115d1118c7a00c04fc297eb", "output"],
];

Deno.test("redact() takes the seventeenth audit's table and config secrets", (t) =>
  takenSteps(t, LEAKS));

Deno.test("redact() keeps the seventeenth audit's table look-alikes", (t) =>
  keptSteps(t, KEPT));

Deno.test("the seventeenth audit's table rules stay linear on a long text of their anchors", () => {
  const anchors = [
    "id,password\n",
    "password,token,\n",
    "NAME  TOKEN  \n",
    "a  b  password\n1  2  x\n",
    "token\t",
    "COPY t (password) FROM stdin;\n",
    'key="password">',
    'key="password" ',
    "<Password><Value>",
    "<Password> ",
    "    DefaultPassword    REG_SZ    ",
    "01000000d08c9ddf0115d1118c7a00c04fc297eb",
    "&amp;password=a</b",
    "</a></",
    "<key>AbcKey</key><string>",
  ];
  for (const anchor of anchors) {
    assertLinear(repeated(anchor), ["speech", "command", "output"]);
  }
});
