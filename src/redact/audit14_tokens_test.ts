import {
  assertKept,
  assertTaken,
  type TextKind as Kind,
} from "./_audit_kit.ts";

/** A leak the fourteenth audit found: `secret` must go, `keep` must stay. */
interface Leak {
  name: string;
  kind: Kind;
  text: string;
  secret: string;
  keep: string[];
}

const TUNNEL_TOKEN =
  "eyJhIjoiM2Y4ZDI1MTZiNzViMGU1M2UxNzZkNGJlYWZhMTgyODUiLCJ0IjoiMmRkYzJkNDQtZDAxOC00NTQ3LWE5MjgtZTM0NjYzNTA2NTM5IiwicyI6IlRmTXk0VGk2dHd0S3djQTUrV3pKVTBaeGFyZnFRN0VCZkExVXRlVEtnRGs9In0=";
const KEYPAIR =
  "53,88,50,6,90,32,178,96,65,241,145,213,21,151,244,81,98,188,125,98,107,186,139,198,26,4,192,55,39,21,23,114,17,43,202,26,213,145,148,254,142,221,255,199,156,26,174,58,196,59,211,242,251,174,54,2,143,212,109,162,38,79,23,187";

const LEAKS: Leak[] = [
  // An Oracle thin JDBC URL's password (no `://` in it).
  {
    name: "conn-jdbc-oracle.1",
    kind: "output",
    text:
      "jdbc:oracle:thin:scott/Walrus.tundra2279@//ora.acme.io:1521/ORCLPDB1",
    secret: "Walrus.tundra2279",
    keep: ["jdbc:oracle:thin:scott/", "@//ora.acme.io:1521/ORCLPDB1"],
  },
  {
    name: "an Oracle thin URL with a SID",
    kind: "output",
    text: "spring.datasource.url=jdbc:oracle:thin:app/s3cr3t!Pw@db01:1521:ORCL",
    secret: "s3cr3t!Pw",
    keep: ["jdbc:oracle:thin:app/", "@db01:1521:ORCL"],
  },
  // G1: provider token shapes with no key beside them.
  {
    name: "honeycomb.1",
    kind: "output",
    text:
      'OTEL_EXPORTER_OTLP_HEADERS="x-honeycomb-team=hcaik_b895lqh4845vgemsv5xtls8a0e129ad2w84qeyhtu87mdq6n6bom0hrgkg"',
    secret: "hcaik_b895lqh4845vgemsv5xtls8a0e129ad2w84qeyhtu87mdq6n6bom0hrgkg",
    keep: ["x-honeycomb-team="],
  },
  {
    name: "prefect.1",
    kind: "command",
    text:
      "prefect cloud login -k pnu_aMlzRHlqDGNFuw5g8SuEw9VNnS0p71CL423Y --workspace acme/prod",
    secret: "pnu_aMlzRHlqDGNFuw5g8SuEw9VNnS0p71CL423Y",
    keep: ["prefect cloud login -k", "--workspace acme/prod"],
  },
  {
    name: "mollie.1",
    kind: "output",
    text: '$mollie->setApiKey("live_HFQBGqSmGmal2uYreKrI6yS4yBfEEx");',
    secret: "live_HFQBGqSmGmal2uYreKrI6yS4yBfEEx",
    keep: ["$mollie->setApiKey("],
  },
  {
    name: "mollie test key in speech",
    kind: "speech",
    text: "the sandbox uses test_dHar4XY7LxsDOtmnkVtjNVWXLSlXsM for now",
    secret: "test_dHar4XY7LxsDOtmnkVtjNVWXLSlXsM",
    keep: ["the sandbox uses", "for now"],
  },
  {
    name: "cloudflared.1",
    kind: "command",
    text:
      "sudo cloudflared service install eyJhIjoiHaMGJM-c7W00LXVNWaFQ9AmPkMkcFFZnMzmRAhXLbNlTPPNf2CxTkrxiSIhIiXKVWp-qaxdJGs9YpTqesc1Lr5jVvsGBDI_z4Pq6LEe3hz9KUsz-0EaECH1xzT0OOdj2Xml64Yk1tIqreRBhMzc1z0",
    secret:
      "eyJhIjoiHaMGJM-c7W00LXVNWaFQ9AmPkMkcFFZnMzmRAhXLbNlTPPNf2CxTkrxiSIhIiXKVWp-qaxdJGs9YpTqesc1Lr5jVvsGBDI_z4Pq6LEe3hz9KUsz-0EaECH1xzT0OOdj2Xml64Yk1tIqreRBhMzc1z0",
    keep: ["sudo cloudflared service install"],
  },
  {
    name: "a tunnel token built as cloudflared builds it",
    kind: "command",
    text: `cloudflared tunnel run --token ${TUNNEL_TOKEN}`,
    secret: TUNNEL_TOKEN.slice(0, 120),
    keep: ["cloudflared tunnel run --token"],
  },
  {
    name: "salesforce.1",
    kind: "output",
    text:
      "Access Token     00DVgvLqM2auDkU!AQT2ARGvcTm6O5msJ0kX9aI1HqorA.na3UAedLR_jKFeZL6wgU0YTeJ.SjqLDyt2el3t7ybaUgOz3st09IIxM.g4JjPXz6dwegTriY\nInstance Url     https://acme.my.salesforce.com",
    secret:
      "00DVgvLqM2auDkU!AQT2ARGvcTm6O5msJ0kX9aI1HqorA.na3UAedLR_jKFeZL6wgU0YTeJ.SjqLDyt2el3t7ybaUgOz3st09IIxM.g4JjPXz6dwegTriY",
    keep: ["Access Token", "https://acme.my.salesforce.com"],
  },
  // G6: webhook and RPC URLs whose path is the secret.
  {
    name: "zapier.1",
    kind: "output",
    text:
      "ZAPIER_WEBHOOK=https://hooks.zapier.com/hooks/catch/61457767/t6kf3su/",
    secret: "61457767/t6kf3su",
    keep: ["ZAPIER_WEBHOOK=https://hooks.zapier.com/hooks/catch/"],
  },
  {
    name: "make.1",
    kind: "command",
    text:
      'curl -X POST https://hook.eu2.make.com/jz34fchpu4ow9z176j2npfi0lyn62oov -d \'{"event":"signup"}\'',
    secret: "jz34fchpu4ow9z176j2npfi0lyn62oov",
    keep: ["https://hook.eu2.make.com/", `{"event":"signup"}`],
  },
  {
    name: "n8n.1",
    kind: "output",
    text:
      "N8N_WEBHOOK_URL=https://acme.app.n8n.cloud/webhook/c85ec58a-2f2c-415a-8041-910c6361e9c4",
    secret: "c85ec58a-2f2c-415a-8041-910c6361e9c4",
    keep: ["N8N_WEBHOOK_URL=https://acme.app.n8n.cloud/webhook/"],
  },
  {
    name: "a self-hosted n8n named by its line",
    kind: "output",
    text:
      "N8N_ORDER_HOOK=https://flows.acme.io/automations/webhook-test/0f3c2a7e-9b41-4d2e-8c55-7a1e6f2b9d30",
    secret: "0f3c2a7e-9b41-4d2e-8c55-7a1e6f2b9d30",
    keep: ["https://flows.acme.io/automations/webhook-test/"],
  },
  {
    name: "quicknode.1",
    kind: "output",
    text:
      "QUICKNODE_URL=https://spring-late-moon.quiknode.pro/af441bb3d100ce3847b88e5bea844b8a6d17d3ad/",
    secret: "af441bb3d100ce3847b88e5bea844b8a6d17d3ad",
    keep: ["https://spring-late-moon.quiknode.pro/"],
  },
  // G5: wallet secrets.
  {
    name: "eth-privkey.3",
    kind: "output",
    text:
      '  networks: {\n    sepolia: {\n      url: "https://eth-sepolia.g.alchemy.com/v2/demo",\n      accounts: ["13d5147c25745af857dd2d37c8c44d7f11ac079bceddd6258ee1099153e2ab4e"],\n    },\n  },',
    secret: "13d5147c25745af857dd2d37c8c44d7f11ac079bceddd6258ee1099153e2ab4e",
    keep: ["accounts: [", "sepolia"],
  },
  {
    name: "eth-privkey.4",
    kind: "output",
    text:
      "Available Accounts\n==================\n(0) 0xbc8982d347055b06b56aa4cae7555044017eaa26 (10000.000000000000000000 ETH)\n\nPrivate Keys\n==================\n(0) 0x7cbaad16cecf5c59926e84bddac76b85c87ad1969618cccbb9a446afa024a3d9",
    secret: "7cbaad16cecf5c59926e84bddac76b85c87ad1969618cccbb9a446afa024a3d9",
    keep: ["(0) 0xbc8982d347055b06b56aa4cae7555044017eaa26", "Private Keys"],
  },
  {
    name: "solana-keypair.1",
    kind: "output",
    text: `$ cat ~/.config/solana/id.json\n[${KEYPAIR}]`,
    secret: "142,221,255,199,156,26,174,58,196,59,211,242,251,174,54,2",
    keep: ["$ cat ~/.config/solana/id.json"],
  },
  {
    name: "seed-phrase.2",
    kind: "speech",
    text:
      "ok here is the recovery phrase for the test wallet, don't commit it anywhere:\njungle dune torch before adjust bicycle huge version pig recipe copy desert census bomb fiction seat wave dolphin badge gadget round iron blast congress",
    secret: "pig recipe copy desert census bomb fiction seat",
    keep: ["recovery phrase for the test wallet, don't commit it anywhere:"],
  },
  {
    name: "seed-phrase.3",
    kind: "command",
    text:
      "solana-keygen recover 'prompt:?key=0/0' --outfile ~/.config/solana/ops.json <<< \"olive farm pizza crowd piano own puppy round great shop beauty excite\"",
    secret: "crowd piano own puppy round great",
    keep: ["solana-keygen recover", "--outfile ~/.config/solana/ops.json <<<"],
  },
  {
    name: "seed-phrase.4",
    kind: "output",
    text:
      'const wallet = ethers.Wallet.fromPhrase(\n  "match hospital direct devote tobacco nest impose blue deputy pair above orchard"\n);',
    secret: "devote tobacco nest impose",
    keep: ["ethers.Wallet.fromPhrase("],
  },
  {
    name: "my seed phrase is …",
    kind: "speech",
    text:
      "my seed phrase is harvest metal master laundry romance bless spray apple thought better laundry village, keep it safe",
    secret: "romance bless spray apple",
    keep: ["my seed phrase is", ", keep it safe"],
  },
];

/** A look-alike: `keep` must stay as it is. */
const KEPT: Array<[name: string, kind: Kind, text: string, keep: string]> = [
  [
    "an Oracle thin URL with no user",
    "output",
    "jdbc:oracle:thin:@//ora.acme.io:1521/ORCLPDB1",
    "jdbc:oracle:thin:@//ora.acme.io:1521/ORCLPDB1",
  ],
  [
    "an Oracle thin URL's password from the environment",
    "output",
    "jdbc:oracle:thin:scott/${DB_PASSWORD}@//h:1521/s",
    "scott/${DB_PASSWORD}@",
  ],
  [
    "an Oracle thin URL's stand-in password",
    "output",
    "jdbc:oracle:thin:scott/<password>@//h:1521/s",
    "scott/<password>@",
  ],
  // G1
  [
    "a Mollie-like setting name",
    "output",
    "live_reload_enabled: true",
    "live_reload_enabled",
  ],
  [
    "a test named in words, 30 characters after test_",
    "output",
    "def test_HandlesEmptyListsWhenNoUsers01(self):",
    "test_HandlesEmptyListsWhenNoUsers01",
  ],
  [
    "a Mollie stand-in",
    "output",
    '$mollie->setApiKey("live_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");',
    "live_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
  ],
  [
    "a Honeycomb header from the environment",
    "output",
    'OTEL_EXPORTER_OTLP_HEADERS="x-honeycomb-team=${HONEYCOMB_API_KEY}"',
    "${HONEYCOMB_API_KEY}",
  ],
  [
    "a Prefect key from the environment",
    "command",
    "prefect cloud login -k $PREFECT_API_KEY --workspace acme/prod",
    "$PREFECT_API_KEY",
  ],
  [
    "a pagination cursor: base64 of JSON whose first key is a",
    "output",
    '{"next_cursor": "eyJhIjoibmV4dCIsImIiOjEyMzQ1NjcsImMiOiJwYWdlLXRva2VuLWZvci10aGUtZm9sbG93aW5nLXJlc3VsdHMtc2V0IiwiZCI6dHJ1ZSwiZSI6ImFiYyJ9"}',
    "eyJhIjoibmV4dCIsImIiOjEyMzQ1NjcsImMiOiJwYWdlLXRva2VuLWZvci10aGUtZm9sbG93aW5nLXJlc3VsdHMtc2V0IiwiZCI6dHJ1ZSwiZSI6ImFiYyJ9",
  ],
  [
    "a tunnel token from the environment",
    "command",
    'cloudflared tunnel run --token "$TUNNEL_TOKEN" acme',
    "$TUNNEL_TOKEN",
  ],
  [
    "a Salesforce org id alone",
    "output",
    "Org Id           00DVgvLqM2auDkU\nConnected Status Connected",
    "00DVgvLqM2auDkU",
  ],
  [
    "an exclamation before a capital",
    "speech",
    "Done!All 412 tests pass now and the build is green again",
    "Done!All 412 tests pass",
  ],
  // G6
  [
    "a Zapier URL with stand-ins",
    "output",
    "POST to https://hooks.zapier.com/hooks/catch/<account-id>/<hook-id>/",
    "https://hooks.zapier.com/hooks/catch/<account-id>/<hook-id>/",
  ],
  [
    "Make's help pages",
    "output",
    "see https://www.make.com/en/help/tools/webhooks for the payload",
    "https://www.make.com/en/help/tools/webhooks",
  ],
  [
    "a /webhook/<uuid> path on a host that is not n8n",
    "output",
    "POST https://api.shipfast.io/webhook/c85ec58a-2f2c-415a-8041-910c6361e9c4 200",
    "c85ec58a-2f2c-415a-8041-910c6361e9c4",
  ],
  [
    "an n8n webhook at a named path",
    "output",
    "N8N_WEBHOOK_URL=https://acme.app.n8n.cloud/webhook/order-created",
    "https://acme.app.n8n.cloud/webhook/order-created",
  ],
  [
    "QuickNode's docs",
    "output",
    "https://www.quicknode.com/docs/ethereum/eth_blockNumber",
    "https://www.quicknode.com/docs/ethereum/eth_blockNumber",
  ],
  [
    "a QuickNode URL with a stand-in",
    "output",
    "QUICKNODE_URL=https://spring-late-moon.quiknode.pro/<your-token>/",
    "https://spring-late-moon.quiknode.pro/<your-token>/",
  ],
  // G5
  [
    "anvil's accounts (addresses)",
    "output",
    "Available Accounts\n==================\n(0) 0xbc8982d347055b06b56aa4cae7555044017eaa26 (10000.000000000000000000 ETH)",
    "0xbc8982d347055b06b56aa4cae7555044017eaa26",
  ],
  [
    "transaction hashes listed without a Private Keys header",
    "output",
    "Transactions\n============\n(0) 0x7cbaad16cecf5c59926e84bddac76b85c87ad1969618cccbb9a446afa024a3d9",
    "0x7cbaad16cecf5c59926e84bddac76b85c87ad1969618cccbb9a446afa024a3d9",
  ],
  [
    "Hardhat accounts from the environment",
    "output",
    "      accounts: [process.env.PRIVATE_KEY],",
    "accounts: [process.env.PRIVATE_KEY]",
  ],
  [
    "Hardhat accounts holding an address",
    "output",
    '      accounts: ["0xbc8982d347055b06b56aa4cae7555044017eaa26"],',
    "0xbc8982d347055b06b56aa4cae7555044017eaa26",
  ],
  [
    "a list of 64 indexes",
    "output",
    `[${Array.from({ length: 64 }, (_, i) => i).join(",")}]`,
    "0,1,2,3,4,5,6,7,8,9,10",
  ],
  [
    "a 32-byte public key as bytes",
    "output",
    `pubkey: [${KEYPAIR.split(",").slice(32).join(",")}]`,
    KEYPAIR.split(",").slice(32).join(","),
  ],
  [
    "where the recovery phrase is kept",
    "speech",
    "the recovery phrase is stored in 1Password under ops, never in the repo",
    "stored in 1Password under ops, never in the repo",
  ],
  [
    "a mnemonic from the environment",
    "output",
    "const wallet = ethers.Wallet.fromPhrase(process.env.MNEMONIC);",
    "fromPhrase(process.env.MNEMONIC)",
  ],
  [
    "a prompt in a here-string",
    "command",
    'claude -p <<< "write three short poems about cats dogs birds fish mice rats frogs"',
    "write three short poems about cats dogs birds fish mice rats frogs",
  ],
];

Deno.test("redact() takes the fourteenth audit's token, URL and wallet leaks", async (t) => {
  for (const c of LEAKS) {
    await t.step(c.name, () => assertTaken(c.text, c.kind, c.secret, c.keep));
  }
});

Deno.test("redact() keeps look-alikes of the fourteenth audit's shapes", async (t) => {
  for (const [name, kind, text, keep] of KEPT) {
    await t.step(name, () => assertKept(text, kind, keep));
  }
});
