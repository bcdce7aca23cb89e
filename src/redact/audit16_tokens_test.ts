import {
  assertLinear,
  type KeptRow,
  keptSteps,
  type LeakRow,
  repeated,
  takenSteps,
} from "./_audit_kit.ts";

/**
 * Vendor keys printed bare, command-line passwords in their own places,
 * tokens wrapped or encoded, and secrets in URL paths and logs that the
 * sixteenth audit found leaking: [text, kind, secret, what stays].
 */
const LEAKS: ReadonlyArray<LeakRow> = [
  // 2024–26 vendor prefixes, printed bare or pasted in chat.
  [
    "$ cat ~/.config/supabase/credentials\nsb_secret_eFfiWaQuk3ew-3JDC0SkUa_aGv9XVVs",
    "output",
    "sb_secret_eFfiWaQuk3ew-3JDC0SkUa_aGv9XVVs",
  ],
  [
    "ok I rotated it, new one is sb_secret_tRZ4U_ElkoAlsVeTMR76Qy_PXkI8gPl",
    "speech",
    "sb_secret_tRZ4U_ElkoAlsVeTMR76Qy_PXkI8gPl",
  ],
  [
    "$ cat ~/.config/tavily/credentials\n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",
    "output",
    "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",
  ],
  [
    "use 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 for the search tool",
    "speech",
    "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",
  ],
  [
    "$ cat ~/.config/firecrawl/credentials\nfc-af5440d53e3156f8e9925619c1df8904",
    "output",
    "fc-af5440d53e3156f8e9925619c1df8904",
  ],
  [
    "the firecrawl key: fc-56c4d4a889d38da9ddc6e4e057c75000",
    "speech",
    "fc-56c4d4a889d38da9ddc6e4e057c75000",
  ],
  [
    "$ cat ~/.config/e2b/credentials\ne2b_1198f3c89aad6e3c487f79cd0e18d9ae2124114b",
    "output",
    "e2b_1198f3c89aad6e3c487f79cd0e18d9ae2124114b",
  ],
  [
    "new one is e2b_54fd006904b4d63af3524c05962ab04f28d63832",
    "speech",
    "e2b_54fd006904b4d63af3524c05962ab04f28d63832",
  ],
  [
    "$ cat ~/.config/neon/credentials\nnapi_wz8tbqr8lxgcwpfytv6vq8pohfyb6dz000n9weoqnxm4uah4nn61cw9zkgvqxdbz",
    "output",
    "napi_wz8tbqr8lxgcwpfytv6vq8pohfyb6dz000n9weoqnxm4uah4nn61cw9zkgvqxdbz",
  ],
  [
    "neon: napi_2qs7uq3lfq21aq5e5owaa8l4i51fjzhszzdlu9oqpsu9jsalowrnhbhpq4oio9og",
    "speech",
    "napi_2qs7uq3lfq21aq5e5owaa8l4i51fjzhszzdlu9oqpsu9jsalowrnhbhpq4oio9og",
  ],
  [
    "$ cat ~/.config/render/credentials\nrnd_NZiv3pII8MDkp34hBOZDZBe4Rh8Y",
    "output",
    "rnd_NZiv3pII8MDkp34hBOZDZBe4Rh8Y",
  ],
  [
    "ok I rotated it, new one is rnd_4sR8IUo8KvZ22p2GphtzefcHWkOY",
    "speech",
    "rnd_4sR8IUo8KvZ22p2GphtzefcHWkOY",
  ],
  [
    "$ cat ~/.config/sourcegraph/credentials\nsgp_b0c4a48c0d0cc88f_2f13f0b8b7b9e1451699f8edb7da572a0aa8d654",
    "output",
    "sgp_b0c4a48c0d0cc88f_2f13f0b8b7b9e1451699f8edb7da572a0aa8d654",
  ],
  [
    "rotated, now using sgp_local_485ff51b1387c16d9a7f4dc351dce23351426948",
    "speech",
    "sgp_local_485ff51b1387c16d9a7f4dc351dce23351426948",
  ],
  [
    "$ cat ~/.config/polar/credentials\npolar_oat_BCi68QokjaTeIUvCCj6076yumbhewjHhHExz2R9iPuT",
    "output",
    "polar_oat_BCi68QokjaTeIUvCCj6076yumbhewjHhHExz2R9iPuT",
  ],
  [
    "new one is polar_oat_BRGlbj29sHVIF2xlipDTf6JrLU4XxRhFPGzbyi4aC6k",
    "speech",
    "polar_oat_BRGlbj29sHVIF2xlipDTf6JrLU4XxRhFPGzbyi4aC6k",
  ],
  [
    "$ cat ~/.config/cerebras/credentials\ncsk-ee2mtkem3rpamblzyvdl8z55avbhqf5dqmjy0j5jfnjpecbs",
    "output",
    "csk-ee2mtkem3rpamblzyvdl8z55avbhqf5dqmjy0j5jfnjpecbs",
  ],
  [
    "now using csk-88bk0hvd7617jur18cn9tey0sjx3z8kzumjlegzqhcsq8jlw",
    "speech",
    "csk-88bk0hvd7617jur18cn9tey0sjx3z8kzumjlegzqhcsq8jlw",
  ],
  [
    "$ cat ~/.config/fireworks/credentials\nfw_pfMkPU75IO12fTfjzAebrimE",
    "output",
    "fw_pfMkPU75IO12fTfjzAebrimE",
  ],
  [
    "ok I rotated it, new one is fw_yjkX1Npw9VJviFrp5EGk6CdL",
    "speech",
    "fw_yjkX1Npw9VJviFrp5EGk6CdL",
  ],
  [
    "$ cat ~/.config/browserbase/credentials\nbb_live_yOqr9x-SaQrLFqD86aZvB4Cvb5V",
    "output",
    "bb_live_yOqr9x-SaQrLFqD86aZvB4Cvb5V",
  ],
  [
    "new one is bb_live_fasEQ7Evpn-M07GX4X3pF505VkD",
    "speech",
    "bb_live_fasEQ7Evpn-M07GX4X3pF505VkD",
  ],
  [
    "$ cat ~/.config/together/credentials\ntgp_v1_K5c9C0SC3LPX8rBSI6hMbxrxl12hjLfx7Y0h4Ao-lXU",
    "output",
    "tgp_v1_K5c9C0SC3LPX8rBSI6hMbxrxl12hjLfx7Y0h4Ao-lXU",
  ],
  [
    "client configured with tgp_v1_uu3jpqgahFSj6xjg3MHmsLn7dFlqjADK7X9gO3szhdO",
    "output",
    "tgp_v1_uu3jpqgahFSj6xjg3MHmsLn7dFlqjADK7X9gO3szhdO",
  ],
  [
    "$ cat ~/.config/upstash/credentials\nAncEAAIjcDExd8nLKwFPoatOjVXfKQYbBRnQMi7Cev4V0vHusI8",
    "output",
    "AncEAAIjcDExd8nLKwFPoatOjVXfKQYbBRnQMi7Cev4V0vHusI8",
  ],
  [
    "client configured with AIpZAAIjcDEutSFoHEZBUXEs2YjNHHdOcsAJWwrlnFyKKzj9hir",
    "output",
    "AIpZAAIjcDEutSFoHEZBUXEs2YjNHHdOcsAJWwrlnFyKKzj9hir",
  ],
  [
    "$ cat ~/.config/voyage/credentials\npa-eDdf7Z-qN5LzG_nhSCgL13nF9OS6EFkXrN_0W_hJeo5",
    "output",
    "pa-eDdf7Z-qN5LzG_nhSCgL13nF9OS6EFkXrN_0W_hJeo5",
  ],
  [
    "client configured with pa-CH-XzuzpBdy1LVA6PePez3UX-9SU7fmS39G1vXFif55",
    "output",
    "pa-CH-XzuzpBdy1LVA6PePez3UX-9SU7fmS39G1vXFif55",
  ],
  [
    "$ cat ~/.config/gemini/credentials\nAQ.Ab8RdPRhB1CyI2kUhiWWIzEA7UqgS7av3BROvJQ9Q_2hwL8DQDqxy",
    "output",
    "AQ.Ab8RdPRhB1CyI2kUhiWWIzEA7UqgS7av3BROvJQ9Q_2hwL8DQDqxy",
  ],
  [
    "client configured with AQ.Ab8R8yIvt54RDK5ZAPZgIFFkhZUhDcCiRihSRU6ZNs98FLCYRIH5w",
    "output",
    "AQ.Ab8R8yIvt54RDK5ZAPZgIFFkhZUhDcCiRihSRU6ZNs98FLCYRIH5w",
  ],
  [
    "$ cat ~/.config/bitbucket/credentials\nATBBy4in8krxQt0DU87SyVjLdJAQOKyVPcLC",
    "output",
    "ATBBy4in8krxQt0DU87SyVjLdJAQOKyVPcLC",
  ],
  [
    "client configured with ATBBqQfLvsjT8XVvd5Y5N9nPJkGkcjUK6yT7",
    "output",
    "ATBBqQfLvsjT8XVvd5Y5N9nPJkGkcjUK6yT7",
  ],
  [
    "$ cat ~/.config/azure/credentials\nuvgpg7basLxhTAHwkNpqxmvIaFdA1Ql6ciqsAUWyb7NUF08rHqX2JQQJ99VWGF8ACOGbtKOhJlvlVl7DTd4v",
    "output",
    "uvgpg7basLxhTAHwkNpqxmvIaFdA1Ql6ciqsAUWyb7NUF08rHqX2JQQJ99VWGF8ACOGbtKOhJlvlVl7DTd4v",
  ],
  [
    "client configured with iTy0uaNphYW0fAH7xwNhcAzAnE0eRTROse5CU1JQGRrLOhRHDhgfJQQJ99TE9G3ACOGrvfGHLtMtynKyw8H5",
    "output",
    "iTy0uaNphYW0fAH7xwNhcAzAnE0eRTROse5CU1JQGRrLOhRHDhgfJQQJ99TE9G3ACOGrvfGHLtMtynKyw8H5",
  ],
  // Command-line passwords as positional arguments or uncommon flags.
  [
    "az sql server create -n acme-sql -g rg-data -l westeurope -u sqladmin -p 'Xq7_m2Lr+pW9v%tE'",
    "command",
    "Xq7_m2Lr+pW9v%tE",
    ["az sql server create -n acme-sql", "-u sqladmin -p"],
  ],
  [
    "az postgres flexible-server create --name pg1 -u pgadmin -p Harbor-Lime-482",
    "command",
    "Harbor-Lime-482",
  ],
  [
    "mc admin user add prod ingest-svc hOFosZYG9uVqv8ExVuo5Zbcb",
    "command",
    "hOFosZYG9uVqv8ExVuo5Zbcb",
    ["mc admin user add prod ingest-svc "],
  ],
  [
    "$ mc admin user add minio readonly 'Cobalt-Pine-913'",
    "output",
    "Cobalt-Pine-913",
  ],
  [
    "psexec \\\\10.20.30.40 -u ACME\\svc -p X9M02bB3f8nUVRBo cmd /c hostname",
    "command",
    "X9M02bB3f8nUVRBo",
    ["cmd /c hostname"],
  ],
  [
    "PsExec64.exe \\\\web01 -u admin -p 'Maple#4471' -h powershell",
    "command",
    "Maple#4471",
  ],
  [
    "twine upload --repository-url https://pypi.acme.io/simple/ -u ci -p 'cedar.Lantern.58#' dist/*",
    "command",
    "cedar.Lantern.58#",
    ["dist/*"],
  ],
  ["twine upload -u deploy -p Quartz9981! dist/*", "command", "Quartz9981!"],
  ["mkpasswd -m sha-512 'PvFMKFl8zE8Ajl'", "command", "PvFMKFl8zE8Ajl"],
  [
    "mkpasswd --method=yescrypt Velvet-Orbit-77",
    "command",
    "Velvet-Orbit-77",
  ],
  [
    "echo -n 'Glacier5521#' | sudo cryptsetup luksOpen /dev/nvme1n1 vault -",
    "command",
    "Glacier5521#",
    ["sudo cryptsetup luksOpen /dev/nvme1n1 vault -"],
  ],
  [
    "printf 'amber-Fjord-61' | cryptsetup open --key-file=- /dev/sdc1 backup",
    "command",
    "amber-Fjord-61",
  ],
  [
    "echo 'lotus-lotus-847' | sudo openconnect --user=jdoe --passwd-on-stdin vpn.acme.io",
    "command",
    "lotus-lotus-847",
  ],
  [
    "echo 'Tidal#Spruce92' | kinit admin@ACME.IO",
    "command",
    "Tidal#Spruce92",
  ],
  [
    "wpa_passphrase \"ACME-Office\" 'tdHNYgt0sgCWBn' | sudo tee /etc/wpa_supplicant/wpa_supplicant.conf",
    "command",
    "tdHNYgt0sgCWBn",
    ['wpa_passphrase "ACME-Office"'],
  ],
  [
    "wpa_passphrase HomeNet 'purple monkey dishwasher 7'",
    "command",
    "purple monkey dishwasher 7",
  ],
  [
    "echo '%any %any : PSK \"Xy8^Lm2+Qr#zT5wV\"' | sudo tee -a /etc/ipsec.secrets",
    "command",
    "Xy8^Lm2+Qr#zT5wV",
  ],
  [
    '$ sudo cat /etc/ipsec.secrets\n# site-to-site\n203.0.113.5 198.51.100.7 : PSK "Harbor-Quartz-2024!"',
    "output",
    "Harbor-Quartz-2024!",
  ],
  [
    "python3 -c \"import smtplib; s=smtplib.SMTP('smtp.gmail.com',587); s.starttls(); s.login('ops@acme.io','zqhv bnwe ktrd plom')\"",
    "command",
    "zqhv bnwe ktrd plom",
  ],
  [
    "python -c \"import imaplib; m=imaplib.IMAP4_SSL('imap.acme.io'); m.login(user, 'Birch#2207x')\"",
    "command",
    "Birch#2207x",
  ],
  [
    "sonar-scanner -Dsonar.projectKey=api -Dsonar.login=654c340b67c01ffff3195f80135f3b92c07423fb",
    "command",
    "654c340b67c01ffff3195f80135f3b92c07423fb",
    ["-Dsonar.projectKey=api -Dsonar.login="],
  ],
  [
    "./gradlew sonar -Dsonar.host.url=https://sonar.acme.io -Dsonar.login=fe5dc94fa78e5fa039c77d2f50540a7edca5b4ee",
    "command",
    "fe5dc94fa78e5fa039c77d2f50540a7edca5b4ee",
  ],
  [
    'npm config set "//npm.acme.io/repository/npm-private/:_authToken" "7293a36d-a487-4734-928f-b8a85de6d8da"',
    "command",
    "7293a36d-a487-4734-928f-b8a85de6d8da",
  ],
  [
    "npm config set '//registry.acme.io/:_authToken' 'd3f71c49-1ee4-4a1b-a1cc-309f0d3b984f'",
    "command",
    "d3f71c49-1ee4-4a1b-a1cc-309f0d3b984f",
  ],
  [
    'curl "https://geo.acme-maps.com/v2/reverse?lat=52.5&lon=13.4&key=dd60132f96aa87e5a4bb15d4dcc513d4"',
    "command",
    "dd60132f96aa87e5a4bb15d4dcc513d4",
    ["lat=52.5&lon=13.4&key="],
  ],
  [
    "curl -s https://api.weatherly.io/v1/now?key=5b11f5c9538f28f41ec36f2e5fa8b4ec",
    "command",
    "5b11f5c9538f28f41ec36f2e5fa8b4ec",
  ],
  [
    "b2 account authorize 0025a7f9e3c4 K0059xV2mQpL7rTn3bWcZ8yHdE1fGk4",
    "command",
    "K0059xV2mQpL7rTn3bWcZ8yHdE1fGk4",
    ["b2 account authorize 0025a7f9e3c4 "],
  ],
  [
    "b2 authorize-account 001f3a9c2b7d K001Jd8sPq2LmN4vX7rT0yZbW3cE5hGa",
    "command",
    "K001Jd8sPq2LmN4vX7rT0yZbW3cE5hGa",
  ],
  [
    "2026-03-02T10:14:55.101233Z 6 [Note] [MY-010454] [Server] A temporary password is generated for root@localhost: q;Ek7#wL_p2A",
    "output",
    "q;Ek7#wL_p2A",
    ["A temporary password is generated for root@localhost: "],
  ],
  [
    "[Note] A temporary password is generated for root@localhost: 3rTg)Xa!kP9s\n[Note] Server ready",
    "output",
    "3rTg)Xa!kP9s",
  ],
  // Wrapped over lines, or encoded.
  [
    "Authorization: Bearer qJDGf1rB853IgN95Dci7xD93lgWk7J6rWs77hSx91HqaksrCoAqUvlPaJQ5W\n2RlTZQcYTbYTTBPynZzih6tZg1v6tnOLD5pIrRzgiQXbhGLbitAhCrNipR0H",
    "output",
    "2RlTZQcYTbYTTBPynZzih6tZg1v6tnOLD5pIrRzgiQXbhGLbitAhCrNipR0H",
  ],
  [
    "x-api-key: hgJjH3LZ7wM6GKHVjk9tCSi5eIeeaAXZY7rzsj6HoV5D0bA2DAzqx2T4Rc1h\r\n1tpQP3JTkLoaz48FcB9Q88zxNWtfcbIU\r\nContent-Type: application/json",
    "output",
    "1tpQP3JTkLoaz48FcB9Q88zxNWtfcbIU",
    ["Content-Type: application/json"],
  ],
  [
    'curl -H "X-Api-Key: tbtSPrwfm74O5bFGEhS2v3y7X6Qd4VKW\\\n1tpQP3JTkLoaz48FcB9Q88zxNWtfcbIU" https://api.acme.io',
    "command",
    "1tpQP3JTkLoaz48FcB9Q88zxNWtfcbIU",
    ["https://api.acme.io"],
  ],
  [
    'curl -H "PRIVATE-TOKEN: LgGOBomUOLc877EgNB6bfbdUwFDrzIe3\\\n  mGxHoL43ScQQYK8TUkl1JYnrw8td" https://gitlab.acme.io/api/v4/user',
    "command",
    "mGxHoL43ScQQYK8TUkl1JYnrw8td",
  ],
  [
    '<entry key="db.password">XFZfTvMUHoXTBzyTzbmncNnz</entry>',
    "output",
    "XFZfTvMUHoXTBzyTzbmncNnz",
    ['<entry key="db.password">', "</entry>"],
  ],
  [
    '<properties>\n  <entry key="mail.smtp.password">Juniper-Wharf-30</entry>\n</properties>',
    "output",
    "Juniper-Wharf-30",
  ],
  [
    "jq --arg key '25209ada870573ca7570574185c68b3e9239e086' '.partner.apiKey = $key' cfg.json > t && mv t cfg.json",
    "command",
    "25209ada870573ca7570574185c68b3e9239e086",
    ["'.partner.apiKey = $key' cfg.json"],
  ],
  [
    "jq -n --arg secret Birch-Lantern-55 '{s: $secret}'",
    "command",
    "Birch-Lantern-55",
  ],
  [
    "data:\n  REDIS_URL: cmVkaXM6Ly9kZWZhdWx0OmZ4RFBOVjJhZENWMWpGellJMjBlQmFoY0ByZWRpcy1tYXN0ZXI6NjM3OS8w\n  LOG_LEVEL: aW5mbw==",
    "output",
    "cmVkaXM6Ly9kZWZhdWx0OmZ4RFBOVjJhZENWMWpGellJMjBlQmFoY0ByZWRpcy1tYXN0ZXI6NjM3OS8w",
    ["LOG_LEVEL: aW5mbw=="],
  ],
  [
    "data:\n  DATABASE_URL: cG9zdGdyZXM6Ly9hcHA6eVhpYzZZT1pxME03cU82MGxJNVFAcGcuaW50ZXJuYWw6NTQzMi9hcHA=",
    "output",
    "cG9zdGdyZXM6Ly9hcHA6eVhpYzZZT1pxME03cU82MGxJNVFAcGcuaW50ZXJuYWw6NTQzMi9hcHA=",
  ],
  [
    "$ cat /etc/mongo/keyfile\nFhELjP/9umOCthItvHs0ipHEvFJTeDowfJNv8JBivKjfjsgyZrIYNsmdp/6lTqSrVFb3pG0wgIBayKQ2QVrLOfAoWKsl1EOG9HJKTX49svEYepauEUdKLPcC",
    "output",
    "FhELjP/9umOCthItvHs0ipHEvFJTeDowfJNv8JBivKjfjsgyZrIYNsmdp/6lTqSrVFb3pG0wgIBayKQ2QVrLOfAoWKsl1EOG9HJKTX49svEYepauEUdKLPcC",
  ],
  [
    "$ sudo cat /data/mongodb-keyfile\n6EuVa26Fhp1ssGbg0s0ar3DO3IpbeX3qYeQrYmPejW2cwEIG95hO8khwgt5xrpEFkxNjVOj4X6hEmf/cHFlbJR9ysugkKgx+k0tXW/IX4eipQcXKIyxUbbIG",
    "output",
    "6EuVa26Fhp1ssGbg0s0ar3DO3IpbeX3qYeQrYmPejW2cwEIG95hO8khwgt5xrpEFkxNjVOj4X6hEmf/cHFlbJR9ysugkKgx+k0tXW/IX4eipQcXKIyxUbbIG",
  ],
  [
    "-> Configure other nodes to join this cluster:\n  eyJ2ZXIiOiI4LjE0LjEiLCJhZHIiOlsiMTcyLjE4LjAuMzo5MjAwIl0sImZnciI6IjhhNjc2MzlmNzQwODBmNTZjNWFhMzI4ZjY3NjIyNmUyMzZhMjNlMjM4ZTNiMWM3N2ZjNGMwMTFmMWJkMzhmMWYiLCJrZXkiOiIwU1BnanRIZmIxRjZ3NzBXQUthZDpZRWpXMVc1YlNhcGZRN0RoM3lFZzQyIn0=",
    "output",
    "eyJ2ZXIiOiI4LjE0LjEiLCJhZHIiOlsiMTcyLjE4LjAuMzo5MjAwIl0sImZnciI6IjhhNjc2MzlmNzQwODBmNTZjNWFhMzI4ZjY3NjIyNmUyMzZhMjNlMjM4ZTNiMWM3N2ZjNGMwMTFmMWJkMzhmMWYiLCJrZXkiOiIwU1BnanRIZmIxRjZ3NzBXQUthZDpZRWpXMVc1YlNhcGZRN0RoM3lFZzQyIn0=",
  ],
  [
    "Kibana enrollment token (valid 30 minutes):\neyJ2ZXIiOiI4LjE0LjEiLCJhZHIiOlsiMTcyLjE4LjAuNDo5MjAwIl0sImZnciI6IjQ3ODYyNTU0MDE3Y2RmODNmZDk4OWU2MGYyMTA0MDIzNjJkNTNjOWVmYzZkODkyYWE2OGJmY2M4YzkyODM0NGIiLCJrZXkiOiI3WVNkbjYwTE5KTVJMZEhiMlU5TDpoT1MwaXJZa1B2ZFJIVU5MOXlmNFN0In0=",
    "command",
    "eyJ2ZXIiOiI4LjE0LjEiLCJhZHIiOlsiMTcyLjE4LjAuNDo5MjAwIl0sImZnciI6IjQ3ODYyNTU0MDE3Y2RmODNmZDk4OWU2MGYyMTA0MDIzNjJkNTNjOWVmYzZkODkyYWE2OGJmY2M4YzkyODM0NGIiLCJrZXkiOiI3WVNkbjYwTE5KTVJMZEhiMlU5TDpoT1MwaXJZa1B2ZFJIVU5MOXlmNFN0In0=",
  ],
  [
    "$ cat /etc/openvpn/client/auth.txt\nvpnuser\nAspen.Harbor.31#",
    "output",
    "Aspen.Harbor.31#",
  ],
  [
    "$ sudo cat /etc/openvpn/credentials.txt\nj.doe\nPvFMKFl8zE8Ajlb0",
    "output",
    "PvFMKFl8zE8Ajlb0",
  ],
  // Secrets in URL paths and logs.
  [
    "curl -fsS -m 10 --retry 5 https://hc-ping.com/7293a36d-a487-4734-928f-b8a85de6d8da",
    "output",
    "7293a36d-a487-4734-928f-b8a85de6d8da",
    ["https://hc-ping.com/"],
  ],
  [
    "0 3 * * * /opt/backup.sh && curl -fsS https://hc-ping.com/HmxOCTQE8phIECUyUALDgx/nightly-backup",
    "output",
    "HmxOCTQE8phIECUyUALDgx",
    ["/nightly-backup"],
  ],
  [
    "https://maker.ifttt.com/trigger/build_failed/with/key/PvFMKFl8zE8Ajlb0cdkbx9",
    "output",
    "PvFMKFl8zE8Ajlb0cdkbx9",
    ["/trigger/build_failed/with/key/"],
  ],
  [
    "curl -X POST https://maker.ifttt.com/trigger/door/json/with/key/d-HmxOCTQE8phIECUyUALD",
    "command",
    "d-HmxOCTQE8phIECUyUALD",
  ],
  [
    "Invite created: https://app.acme.io/invite/tbtSPrwfm74O5bFGEhS2v3y7X6Qd4VKW",
    "output",
    "tbtSPrwfm74O5bFGEhS2v3y7X6Qd4VKW",
    ["https://app.acme.io/invite/"],
  ],
  [
    "reset link: https://acme.io/reset-password/hOFosZYG9uVqv8ExVuo5Zbcb-Xq2",
    "speech",
    "hOFosZYG9uVqv8ExVuo5Zbcb-Xq2",
  ],
  [
    "GET https://portal.acme.io/app;jsessionid=5C1DC860E7527DA285BDC443CCB28D23?page=billing",
    "output",
    "5C1DC860E7527DA285BDC443CCB28D23",
    ["?page=billing"],
  ],
  [
    '10.0.0.7 - - [02/Mar/2026:10:00:01 +0000] "GET /shop/cart.php?PHPSESSID=A02357ECA511228BD9E1785D599875C7 HTTP/1.1" 200 512',
    "output",
    "A02357ECA511228BD9E1785D599875C7",
  ],
  [
    '10.1.2.3 - - [12/May/2026:10:25:11 +0000] "GET /files/q3.pdf?expires=1778600000&signature=388dfa93ee3419300aed2e779eda314554f625b65a91d1cbb5371bd6a2ba1101 HTTP/1.1" 200 99120',
    "output",
    "388dfa93ee3419300aed2e779eda314554f625b65a91d1cbb5371bd6a2ba1101",
    ['HTTP/1.1" 200 99120'],
  ],
  [
    '172.16.0.9 - - [12/May/2026:10:25:12 +0000] "GET /dl?id=7&sig=c0a0f98b7fd216d63d17418e52d2d058 HTTP/2.0" 200 10',
    "output",
    "c0a0f98b7fd216d63d17418e52d2d058",
  ],
  [
    "TypeError: fetch failed\n  [cause]: Error: getaddrinfo ENOTFOUND api.acme.io\n  url: 'https://api.acme.io/v1/sync?key=9398b89b50333b50bb84c349bcaf30428b891e75'\n}",
    "output",
    "9398b89b50333b50bb84c349bcaf30428b891e75",
  ],
  [
    '10.0.0.9 - - [02/Mar/2026:11:00:00 +0000] "GET /v2/tiles/4/8/5.png?key=08e026d8b2ba8ad5e3b4edb0c811cc10 HTTP/1.1" 200 2048',
    "output",
    "08e026d8b2ba8ad5e3b4edb0c811cc10",
  ],
];

Deno.test("redact() takes what the sixteenth audit's token, command and URL probes leaked", (t) =>
  takenSteps(t, LEAKS));

/** Look-alikes of the same cues that must stay: [text, kind, what stays]. */
const KEPT: ReadonlyArray<KeptRow> = [
  // Words and identifiers after the vendor prefixes.
  ['<div class="fc-button fc-button-primary fc-today-button">', "output"],
  ["rnd_seed = 42; rnd_generatorStateSnapshot = None", "output"],
  ["fw_version: 1.2.3\nfw_UpdateCheckIntervalSeconds: 3600", "output"],
  ["the pa-system in hall B is broken", "speech"],
  ["csk-test-util and csk-integration-helpers-for-clusters", "output"],
  ["python e2b_client.py --sandbox base", "command"],
  ["const sb_secret_key_for_local_dev = process.env.SB_SECRET;", "output"],
  ["napi_get_value_string_utf8(env, args[0], buf, 256, &len);", "output"],
  ["tvly-search-results-for-the-weekly-digest", "output"],
  ["bb_live_reload_enabled_for_dev_server: true", "output"],
  ["polar_oat_milk_inventory_report_quarterly", "output"],
  ["ATBBQueryBuilderFactoryImplementation", "output"],
  // Hashes, ids and paths near the same cues.
  [
    "commit 654c340b67c01ffff3195f80135f3b92c07423fb\nAuthor: Dev <dev@acme.io>",
    "output",
  ],
  [
    "image: ghcr.io/acme/api@sha256:388dfa93ee3419300aed2e779eda314554f625b65a91d1cbb5371bd6a2ba1101",
    "output",
  ],
  [
    "GET https://api.acme.io/v1/users/7293a36d-a487-4734-928f-b8a85de6d8da/orders",
    "output",
  ],
  [
    "see https://api.github.com/repos/acme/app/invitations/7293a36d-a487-4734-928f-b8a85de6d8da",
    "output",
  ],
  ["https://app.acme.io/invite/teamMembersFromDirectory", "output"],
  ["https://docs.acme.io/reset-password/troubleshooting", "speech"],
  ["curl 'https://cdn.acme.io/get?key=uploads/2026/report.pdf'", "command"],
  ["https://api.acme.io/cache?key=user-profile-settings", "output"],
  ["GET https://portal.acme.io/app;jsessionid=${SESSION}?page=1", "output"],
  [
    '10.0.0.7 - - [02/Mar/2026:10:00:01 +0000] "GET /health HTTP/1.1" 200 2',
    "output",
  ],
  // Commands whose look-alike argument is no secret.
  ["psexec \\\\web01 -u ACME\\admin cmd /c ipconfig", "command"],
  ["twine upload --repository testpypi dist/*", "command"],
  ["mkpasswd -m help", "command"],
  ["mc admin user list prod", "command"],
  ["jq --arg key name '.[$key]' data.json", "command"],
  ["jq --arg key \"$API_KEY\" '.apiKey = $key' cfg.json", "command"],
  ["az sql server list -g rg-data -o table", "command"],
  ["b2 account get", "command"],
  ["wpa_passphrase", "command"],
  [
    "-Dsonar.login=admin -Dsonar.password=${SONAR_PASSWORD}",
    "command",
    "-Dsonar.login=admin",
  ],
  // Wrapped lines that continue nothing secret.
  [
    "APP_KEYS=R79tp34WbgBGglbBdOVpNg==,z8GkPBaSE18rL4hK6b/JWA==,YsMwVG6pRkyiAhqfwCNYEQ==\nADMIN_JWT_SECRET=9HL7/aKiGfRYLJknmFi43w==",
    "output",
    "\nADMIN_JWT_SECRET=",
  ],
  [
    "Authorization: Bearer qJDGf1rB853IgN95Dci7xD93lgWk7J6rWs77hSx91HqaksrCoAqUvlPaJQ5W\nContent-Type: application/json",
    "output",
    "\nContent-Type: application/json",
  ],
  [
    "DATABASE_PASSWORD=qJDGf1rB853IgN95Dci7xD93lgWk7J6rWs77hSx91HqaksrCoAqU\nmake_release_artifacts",
    "output",
    "\nmake_release_artifacts",
  ],
  // XML entries and data blocks that hold nothing secret.
  ['<entry key="db.url">jdbc:postgresql://db:5432/app</entry>', "output"],
  ["data:\n  LOG_LEVEL: aW5mbw==\n  REDIS_HOST: cmVkaXMtbWFzdGVy", "output"],
  [
    "$ cat /etc/mongod.conf\nsecurity:\n  keyFile: /etc/mongo/keyfile",
    "output",
  ],
  ['%any : PSK "${IPSEC_PSK}"', "output"],
  [
    "[Note] A temporary password is generated for root@localhost: ${PW}",
    "output",
  ],
];

Deno.test("redact() keeps what the sixteenth audit's token, command and URL rules could over-reach to", (t) =>
  keptSteps(t, KEPT));

Deno.test("the sixteenth audit's token, command and URL rules stay linear on a long text of their anchors", () => {
  const anchors = [
    "sb_secret_",
    "tvly-",
    "fc-",
    "e2b_",
    "napi_",
    "rnd_",
    "sgp_",
    "polar_oat_",
    "csk-",
    "fw_",
    "bb_live_",
    "tgp_v1_",
    "pa-",
    "AQ.Ab8R",
    "ATBB",
    "AxyzAAIjcDE",
    "JQQJ99",
    "eyJ2ZXIiOiI",
    "az sql server create -p ",
    "mc admin user add a b ",
    "psexec -p ",
    "twine upload -p ",
    "mkpasswd -m x ",
    "b2 account authorize a ",
    "wpa_passphrase a ",
    "echo x | cryptsetup ",
    "echo x | openconnect ",
    ': PSK "',
    ".login('a', '",
    "-Dsonar.login=",
    "jq --arg key ",
    'npm config set "//r/:_authToken" ',
    "password is generated for a: ",
    '<entry key="password">',
    "data:\n  A: ",
    "$ cat keyfile\n",
    "Bearer abcdefghijklmnopqrstuvwxyz0123456789\\\n",
    "x".repeat(70) + "\n",
    "https://hc-ping.com/",
    "https://maker.ifttt.com/use/",
    "https://a.io/invite/",
    ";jsessionid=",
    "&signature=",
    "?key=",
  ];
  for (const anchor of anchors) {
    assertLinear(repeated(anchor), ["command", "output", "speech"]);
  }
});
