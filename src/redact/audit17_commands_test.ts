import {
  assertLinear,
  type KeptRow,
  keptSteps,
  type LeakRow,
  repeated,
  takenSteps,
} from "./_audit_kit.ts";

/**
 * Credentials in CI logs, command lines, protocol transcripts and files
 * read as output that the seventeenth audit found leaking: [text, kind,
 * secret, keep?].
 */
const LEAKS: ReadonlyArray<LeakRow> = [
  // openssl enc's raw key in hex; the IV stays.
  [
    "openssl enc -aes-256-cbc -K 8a41c0e97d2b5f63e1a90c4d7b28f5e6a3c19d07b4e2f86a5d0c3b91e7f4a268 -iv 0f3a9c5e1b7d2468ace0135779bdf024 -in db.tar -out db.enc",
    "command",
    "8a41c0e97d2b5f63e1a90c4d7b28f5e6a3c19d07b4e2f86a5d0c3b91e7f4a268",
    ["-iv 0f3a9c5e1b7d2468ace0135779bdf024"],
  ],
  [
    "openssl enc -d -aes-128-cbc -K 'b7e15163d0a9f2c84e6d1a3f5c2b9e07' -iv 00000000000000000000000000000000 -in x.enc",
    "command",
    "b7e15163d0a9f2c84e6d1a3f5c2b9e07",
  ],
  // GitHub Actions: a value masked is a secret, in the step and its log.
  [
    'Run echo "::add-mask::Hq2WxR7tLp0vNc9ZsK4bYf8JmDe3Ga6u"\n::add-mask::Hq2WxR7tLp0vNc9ZsK4bYf8JmDe3Ga6u',
    "output",
    "Hq2WxR7tLp0vNc9ZsK4bYf8JmDe3Ga6u",
    ["::add-mask::"],
  ],
  [
    "::add-mask::7d1e4f0a9c2b8e3d6f5a4c1b0e9d8c7f6a5b4c3d",
    "output",
    "7d1e4f0a9c2b8e3d6f5a4c1b0e9d8c7f6a5b4c3d",
  ],
  // A repository variable named for a credential.
  [
    "gh variable set DEPLOY_TOKEN --body Xk3vR9qLm2Tz8WcN5bYp0HdJ7sGf4EaU1oKi6Q",
    "command",
    "Xk3vR9qLm2Tz8WcN5bYp0HdJ7sGf4EaU1oKi6Q",
    ["gh variable set DEPLOY_TOKEN --body "],
  ],
  [
    "gh variable set SMTP_PASSWORD -R acme/web --body 'Tern.Gravel.52!'",
    "command",
    "Tern.Gravel.52!",
  ],
  // A Jenkinsfile's escaped `\$U`.
  [
    'withCredentials([usernamePassword(credentialsId: "nexus", usernameVariable: "U", passwordVariable: "P")]) {\n  sh "curl -fsS -u \\$U:Heron.Basalt.61# https://nexus.acme.io/x.tgz"\n}',
    "output",
    "Heron.Basalt.61#",
    ["-u \\$U:"],
  ],
  [
    'sh "curl -u \\$NEXUS_USER:plover-amber-733 -T dist.zip https://repo.acme.io/"',
    "command",
    "plover-amber-733",
  ],
  // Drone's secret value.
  [
    "drone secret add --repository acme/api --name npm_token --data 'Juniper.Kestrel.27#'",
    "command",
    "Juniper.Kestrel.27#",
    ["--name npm_token --data "],
  ],
  [
    "drone orgsecret add acme registry_pass --data=Quill8831!pine",
    "command",
    "Quill8831!pine",
  ],
  // Buildkite's secret printed after its command.
  [
    "$ buildkite-agent secret get NPM_TOKEN\nP7vQ2mXw9RkT4zLs8NdB3cHf6YjGa0Ue",
    "output",
    "P7vQ2mXw9RkT4zLs8NdB3cHf6YjGa0Ue",
    ["buildkite-agent secret get NPM_TOKEN"],
  ],
  [
    "$ buildkite-agent secret get DB_PASS\nwren-Saffron-418",
    "output",
    "wren-Saffron-418",
  ],
  // SMTP AUTH PLAIN (base64 of \0user\0password), in a transcript and via openssl.
  [
    "C: EHLO ci.local\nS: 250-AUTH PLAIN LOGIN\nC: AUTH PLAIN AG1haWxlckBhY21lLmlvAFRlcm4uR3JhdmVsLjUyIQ==\nS: 235 2.7.0 Accepted",
    "output",
    "AG1haWxlckBhY21lLmlvAFRlcm4uR3JhdmVsLjUyIQ==",
    ["C: AUTH PLAIN ", "250-AUTH PLAIN LOGIN"],
  ],
  [
    "openssl s_client -starttls smtp -connect smtp.mailgun.org:587 -crlf -quiet\nAUTH PLAIN AHBvc3RtYXN0ZXJAbWcuYWNtZS5pbwBxM3JUdjhMbTJ4UWs=\n235 Authentication successful",
    "output",
    "AHBvc3RtYXN0ZXJAbWcuYWNtZS5pbwBxM3JUdjhMbTJ4UWs=",
  ],
  // SMTP AUTH LOGIN: the line after the server asks for the password; the user stays.
  [
    "C: AUTH LOGIN\nS: 334 VXNlcm5hbWU6\nC: b3BzQGFjbWUuaW8=\nS: 334 UGFzc3dvcmQ6\nC: SGVyb24uQmFzYWx0LjYxIw==\nS: 235 OK",
    "output",
    "SGVyb24uQmFzYWx0LjYxIw==",
    ["C: b3BzQGFjbWUuaW8="],
  ],
  [
    " ~> AUTH LOGIN\n<~  334 VXNlcm5hbWU6\n ~> ZGV2QGFjbWUuaW8=\n<~  334 UGFzc3dvcmQ6\n ~> cGxvdmVyLWFtYmVyLTczMw==\n<~  235 2.7.0 Authentication successful",
    "output",
    "cGxvdmVyLWFtYmVyLTczMw==",
  ],
  // IMAP LOGIN.
  [
    '* OK Dovecot ready.\nA001 LOGIN ops@acme.io "Kestrel-Quill-905"\nA001 OK Logged in',
    "output",
    "Kestrel-Quill-905",
    ["A001 LOGIN ops@acme.io "],
  ],
  [
    "> a1 LOGIN reports wrenBasalt77%\n< a1 OK LOGIN completed",
    "output",
    "wrenBasalt77%",
  ],
  // Redis MONITOR.
  [
    '1764000000.123456 [0 10.1.2.3:51234] "AUTH" "Plover.Tern.48!"',
    "output",
    "Plover.Tern.48!",
    ['"AUTH" '],
  ],
  [
    '1764000001.654321 [0 10.1.2.4:40022] "HELLO" "3" "AUTH" "default" "q8Rk2LmZ7vTw3NcX"',
    "output",
    "q8Rk2LmZ7vTw3NcX",
    ['"default"'],
  ],
  // FTP's PASS in a packet dump and in a client's debug output.
  [
    "09:14:02.118811 IP 10.0.4.7.51812 > 10.0.9.2.21: Flags [P.], seq 12:29, ack 61, win 502, length 17: FTP: PASS Basalt71&heron",
    "output",
    "Basalt71&heron",
    ["FTP: PASS "],
  ],
  [
    "---> USER deploy\n331 Password required for deploy\n---> PASS juniper-Wren-552\n230 User deploy logged in",
    "output",
    "juniper-Wren-552",
  ],
  // strace of a Postgres login: the password message.
  [
    'sendto(4, "p\\0\\0\\0\\24Tern-gravel-615\\0", 21, MSG_NOSIGNAL, NULL, 0) = 21',
    "output",
    "Tern-gravel-615",
    ['sendto(4, "p\\0\\0\\0\\24'],
  ],
  [
    'write(3, "p\\0\\0\\0\\22q7Lm!Xw2Rz9\\0", 19) = 19',
    "output",
    "q7Lm!Xw2Rz9",
  ],
  // altool's app-specific password.
  [
    "xcrun altool --upload-app -f build/App.ipa -u dev@acme.io -p wqzt-hmbn-rcvx-plko",
    "command",
    "wqzt-hmbn-rcvx-plko",
    ["-u dev@acme.io -p "],
  ],
  [
    "xcrun altool --validate-app -f App.ipa -t ios -u ci@acme.io -p 'mnbv-cxzl-kjhg-fdsa'",
    "command",
    "mnbv-cxzl-kjhg-fdsa",
  ],
  // WireGuard: a private key piped into wg pubkey, and wg show's private key.
  [
    "echo cPq2Yx8Lm3Nz7Rk0Tv5Ws9Hd1Fg4Jb6Ac2Ue8Xo3Ki= | wg pubkey",
    "command",
    "cPq2Yx8Lm3Nz7Rk0Tv5Ws9Hd1Fg4Jb6Ac2Ue8Xo3Ki=",
    ["| wg pubkey"],
  ],
  [
    "$ sudo wg show wg0 private-key\nGHm3Qp8Zx2Lw7Rt4Nc9Vb1Yd6Kf0Js5Ae3Ui8Oo2Ph=",
    "output",
    "GHm3Qp8Zx2Lw7Rt4Nc9Vb1Yd6Kf0Js5Ae3Ui8Oo2Ph=",
  ],
  // A password piped into kubectl create secret (for kubeseal).
  [
    "echo -n 'Heron88#basalt' | kubectl create secret generic db --dry-run=client --from-file=password=/dev/stdin -o yaml | kubeseal -o yaml > db-sealed.yaml",
    "command",
    "Heron88#basalt",
    ["kubectl create secret generic db"],
  ],
  [
    "printf 'plover-amber-733' | kubectl create secret generic smtp -n mail --from-file=pass=/dev/stdin --dry-run=client -o yaml",
    "command",
    "plover-amber-733",
  ],
  // lftp's password quoted on its own.
  [
    "lftp -u deploy,'Wren.Kestrel.19' sftp://files.acme.io",
    "command",
    "Wren.Kestrel.19",
    ["lftp -u deploy,"],
  ],
  [
    'lftp -u ci-bot,"gravel55!Tern" ftp://ftp.acme.io -e "put a.tgz; quit"',
    "command",
    "gravel55!Tern",
  ],
  // A Makefile's recipe lines, cat or read with a gutter.
  [
    "deploy:\n\thtpasswd -bc /etc/nginx/.htpasswd admin 'Quill-Plover-281'\n.PHONY: deploy",
    "output",
    "Quill-Plover-281",
    ["htpasswd -bc /etc/nginx/.htpasswd admin "],
  ],
  [
    '     1\tsync:\n     2\t\tldapsearch -x -D "cn=admin,dc=acme,dc=io" -w \'basalt.Heron.44#\' -b "dc=acme,dc=io"',
    "output",
    "basalt.Heron.44#",
  ],
  [
    "flush:\n\t@redis-cli -h mysql-1.mysql -a 'Tern.juniper.63!' FLUSHALL",
    "output",
    "Tern.juniper.63!",
  ],
  // redis-cli's -a after a host named like another program.
  [
    "redis-cli -h mysql-0.mysql.svc -a 'Kestrel.Wren.12!' ping",
    "command",
    "Kestrel.Wren.12!",
  ],
  // A value starting with `*` on an env line.
  [
    "REDIS_PASS=*Lq8Tz2Wm5Xr9Nc4V",
    "output",
    "*Lq8Tz2Wm5Xr9Nc4V",
    ["REDIS_PASS="],
  ],
  ["export DB_PASSWORD=*Hy7Pb3Kd9Sf2Gj", "command", "Hy7Pb3Kd9Sf2Gj"],
  [
    "     3\tAPI_TOKEN=*Rm4Vx8Qs1Zt6Lw0c\n     4\tDB_PORT=5432",
    "output",
    "Rm4Vx8Qs1Zt6Lw0c",
  ],
  // 32 hex under a vendor's *_KEY in an inline JSON object.
  [
    '{ "BRAVE_KEY": "5f0c2e9a7b4d1836c5f0e2a9b7d41c38", "DEBUG": "0" }',
    "output",
    "5f0c2e9a7b4d1836c5f0e2a9b7d41c38",
    ['"BRAVE_KEY"', '"DEBUG": "0"'],
  ],
  [
    '      "env": { "LOG": "1", "SERPER_KEY": "a91c3e5f7b2d4068a91c3e5f7b2d4068" }',
    "output",
    "a91c3e5f7b2d4068a91c3e5f7b2d4068",
  ],
];

Deno.test("redact() takes the credentials the seventeenth audit found in CI logs, command lines and transcripts", (t) =>
  takenSteps(t, LEAKS));

/** Look-alikes near the same cues that must stay: [text, kind, keep?]. */
const KEPT: ReadonlyArray<KeptRow> = [
  // CI masks and references.
  ["$ echo $DEPLOY_TOKEN\n[MASKED]", "output"],
  ["$ echo $API_TOKEN\n***", "output"],
  ["$ printenv NPM_TOKEN\n****************1a2b", "output"],
  ['echo "::add-mask::$TOKEN"', "output"],
  ['echo "::add-mask::${{ secrets.DEPLOY_KEY }}"', "output"],
  ["::add-mask::***", "output"],
  // SMTP: capabilities, the prompt for the user, a PLAIN with no secret.
  ["S: 250-AUTH PLAIN LOGIN CRAM-MD5", "output"],
  [
    "C: AUTH LOGIN\nS: 334 VXNlcm5hbWU6\nC: b3BzQGFjbWUuaW8=\nS: 535 5.7.8 failed",
    "output",
  ],
  ["AUTH PLAIN ZXhhbXBsZS1ub3QtYS1jcmVk", "output"],
  // IMAP lines that are no login, Redis replies, an FTP with a mask.
  ["a1 OK LOGIN completed\n* CAPABILITY IMAP4rev1 LOGIN", "output"],
  ['1764000000.1 [0 10.1.2.3:5] "GET" "session:AUTH"', "output"],
  ['"AUTH" "$REDIS_PASSWORD"', "output"],
  ["---> PASS XXXX\n230 Login successful.", "output"],
  ["> PASS src/app.test.ts", "output"],
  // strace buffers that are no password message.
  ['read(4, "R\\0\\0\\0\\10\\0\\0\\0\\0", 16384) = 9', "output"],
  // Variables, key files and prompts on command lines.
  ["gh variable set REGION --body eu-west-1", "command"],
  ["gh variable set API_KEY --body $API_KEY", "command"],
  [
    "drone secret add --repository acme/web --name ssh_key --data @/home/ci/.ssh/id_ed25519",
    "command",
  ],
  [
    "xcrun altool --upload-app -f App.ipa -u dev@acme.io -p @keychain:AC_PASSWORD",
    "command",
  ],
  ["wg genkey | tee privatekey | wg pubkey > publickey", "command"],
  ["cat privatekey | wg pubkey", "command"],
  ['sh "curl -u \\$U:\\$P https://nexus.acme.io/"', "output"],
  [
    "kubectl create secret generic db --from-file=password=./db.txt --dry-run=client -o yaml | kubeseal",
    "command",
  ],
  // Go code indented with tabs, a Makefile without a password.
  [
    'func main() {\n\tcmd := exec.Command("ldapsearch", "-x", "-w", pw)\n\t_ = cmd.Run()\n}',
    "output",
  ],
  [
    "build:\n\tgo build -o bin/app ./cmd/app\n\tldapsearch -x -W -b dc=acme",
    "output",
  ],
  // Pointers, masks, hashes and names near the same keys.
  ["char *password = *argv_pass;", "output"],
  ["DB_PASSWORD=********", "output"],
  ['{ "CACHE_KEY": "user-profile", "DEBUG": "0" }', "output"],
  ['{ "ETAG": "5f0c2e9a7b4d1836c5f0e2a9b7d41c38" }', "output"],
  ["redis-cli -h mysql-0.mysql -a", "command"],
];

Deno.test("redact() keeps what the seventeenth audit's command and transcript rules could over-reach to", (t) =>
  keptSteps(t, KEPT));

Deno.test("the seventeenth audit's command and transcript rules stay linear on a long text of their anchors", () => {
  const anchors = [
    "::add-mask::",
    "AUTH PLAIN AAAAAAAA",
    "334 UGFzc3dvcmQ6\n",
    "a1 LOGIN u ",
    '"AUTH" "a" ',
    "FTP: PASS ",
    "> PASS ",
    '"p\\0\\0\\0\\25a',
    "gh variable set API_KEY ",
    "drone secret add --data",
    "altool -p ",
    "echo abcdefgh | kubectl create secret ",
    "lftp -u a,'",
    "\n\tldapsearch -w ",
    "\t\thtpasswd -b ",
    "curl -u \\$",
    '{ "A_KEY": "',
  ];
  for (const anchor of anchors) {
    assertLinear(repeated(anchor), ["command", "output"]);
  }
});
