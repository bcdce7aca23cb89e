import { deepEqual, equal, ok } from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { run } from "../cli/mod.ts";
import { captureIo } from "../src/core/io.ts";
import { openMemory } from "../src/memory/mod.ts";
import { createMcpServer, type McpContext } from "../src/mcp/mod.ts";
import { byteLength, livePath, stampLive } from "../src/recall/mod.ts";
import { buildWorld, connectMcp, denoDir, ROOT } from "./_recall_fixture.ts";

type TextResult = {
  content: Array<{ type: string; text: string }>;
  isError?: boolean;
};

const connect = connectMcp;

async function call(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<{ text: string; isError: boolean }> {
  const r = await client.callTool({ name, arguments: args }) as TextResult;
  equal(r.content.length, 1);
  const text = r.content[0]?.text ?? "";
  ok(
    text.startsWith("<deja-recall"),
    `${name} ${JSON.stringify(args)} is not framed: ${text.slice(0, 120)}`,
  );
  ok(text.endsWith("</deja-recall>"));
  equal(text.match(/<\/deja-recall>/g)?.length, 1, "exactly one closing tag");
  return { text, isError: r.isError === true };
}

Deno.test({
  name:
    "deja mcp serves every mode, the loop tools, resources and prompts to an SDK client",
  // The SDK's stdio transport keeps timers for the child it spawns.
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async (t) => {
    const w = await buildWorld();
    const env = { ...w.env, CLAUDE_PROJECT_DIR: "/home/dev/src/api" };
    const now = Date.now();
    // The loop: two contradicting facts for the contradiction sweep, and a
    // recommendation the reviewer itself proposed (self-approval bait).
    const store = openMemory(w.memoryPath, { now: () => now });
    for (const object of ["us-east-1", "eu-west-1"]) {
      store.put({
        type: "fact",
        namespace: "ops",
        created_at: now - 1000,
        actor: "human:me",
        subject: "api",
        relation: "deploy_target",
        object,
      });
    }
    const own = store.propose({
      analyzer: "deja.duplicate_sweep/1",
      params: {},
      family: "duplicate_sweep",
      target_ref: "entity:ops/api",
      action: "consolidate",
      template: { id: "duplicate.exact", args: { subject: "api" } },
      evidence: [],
      severity: "low",
      proposal: { kind: "ops", ops: [] },
      origin: "analyzer",
    }, { actor: "agent:reviewer", now });
    store.close();
    // A live session: its own hooks stamped it a minute ago.
    stampLive(livePath(w.indexPath), "8c41d7a2-5e3f-4b6a-9d08-c7e2f1a3b965", {
      now: now - 60_000,
      harness: "claude-code",
    });

    const worker = await connect(env, ["--actor", "agent:worker"]);
    const reviewer = await connect(env, [
      "--scopes",
      "review,apply",
      "--actor",
      "agent:reviewer",
    ]);
    try {
      await t.step(
        "initialize carries instructions with the index state",
        () => {
          const text = worker.getInstructions() ?? "";
          ok(text.includes("<deja-recall>"));
          ok(text.includes("The index is ready"), text);
        },
      );

      await t.step(
        "tools/list: deja with a required mode, and the two loop tools",
        async () => {
          const tools = (await worker.listTools()).tools as Array<
            { name: string; inputSchema: { required?: string[] } }
          >;
          deepEqual(tools.map((x) => x.name).sort(), [
            "deja",
            "deja_loop",
            "deja_recommendations",
          ]);
          const deja = tools.find((x) => x.name === "deja");
          deepEqual(deja?.inputSchema.required, ["mode"]);
        },
      );

      const modes: Array<[string, Record<string, unknown>, string]> = [
        ["recall", {
          mode: "recall",
          query: "terraform versioning",
          project: "infra",
        }, "0199fd22"],
        [
          "context",
          { mode: "context", session: "claude-code:3f2b8c1e" },
          "## Changed code",
        ],
        ["blame", {
          mode: "blame",
          path: "/home/dev/src/api/docker-compose.yml",
        }, "redis:7.2"],
        ["fix", {
          mode: "fix",
          query: "Error: connect ECONNREFUSED 127.0.0.1:5432",
        }, "docker compose up -d db"],
        ["how", { mode: "how", query: "run the tests" }, "npm test"],
        [
          "orient",
          { mode: "orient", project: "api" },
          "commands that ran clean here",
        ],
        ["remember", {
          mode: "remember",
          text:
            "Staging deploys read secrets from the vault, never from .env files",
        }, "as proposed"],
        [
          "handoff",
          { mode: "handoff", project: "infra", to: "claude-code" },
          "## Goal",
        ],
      ];
      for (const [mode, args, needle] of modes) {
        await t.step(`deja mode ${mode}`, async () => {
          const r = await call(worker, "deja", args);
          equal(r.isError, false, r.text);
          ok(r.text.includes(needle), r.text);
        });
      }

      await t.step(
        "a note remember proposed is counted, not quoted, in every agent's recall",
        async () => {
          const r = await call(reviewer, "deja", {
            mode: "recall",
            query: "staging secrets vault",
          });
          ok(!r.text.includes("never from .env files"), r.text);
          ok(!r.text.includes("[proposed note"), r.text);
          ok(
            r.text.includes(
              "1 proposed note matches but is not shown until a person reviews it",
            ),
            r.text,
          );
        },
      );

      await t.step(
        "recall leaves a live session out of its own recall",
        async () => {
          const r = await call(worker, "deja", {
            mode: "recall",
            query: "vault",
            project: "api",
          });
          ok(!r.text.includes("8c41d7a2"), r.text);
          ok(
            r.text.includes("a7c31e9b") === false,
            "nor the sub-agent it spawned",
          );
        },
      );

      await t.step(
        "recall of a long pasted log with no match stays within its 4 KiB budget",
        async () => {
          const r = await call(worker, "deja", {
            mode: "recall",
            query: `zqxw${"v".repeat(8000)}`,
          });
          ok(
            new TextEncoder().encode(r.text).length <= 4096,
            `${r.text.length} characters`,
          );
        },
      );

      await t.step(
        "oversized arguments are refused, not echoed back or sent to SQLite",
        async () => {
          const long = "a".repeat(300_000);
          const cases: Array<[string, Record<string, unknown>]> = [
            ["deja", { mode: "blame", path: long }],
            ["deja", { mode: "how", query: `run ${long}` }],
            ["deja", { mode: "orient", project: long }],
            ["deja", { mode: "context", session: long }],
            ["deja", { mode: "remember", text: long }],
            ["deja_recommendations", { action: "show", hash: `ab${long}` }],
          ];
          for (const [name, args] of cases) {
            const r = await worker.callTool({
              name,
              arguments: args,
            }) as TextResult;
            const text = r.content.map((c) => c.text).join("");
            equal(r.isError, true, `${name} ${String(args.mode ?? "")}`);
            ok(text.length < 2000, `${text.length} characters`);
            ok(!text.includes("SQLITE"), text);
          }
        },
      );

      await t.step("a missing argument is a framed error", async () => {
        const r = await call(worker, "deja", { mode: "fix" });
        equal(r.isError, true);
        ok(r.text.includes("needs the error text"));
      });

      let proposed = "";
      await t.step(
        "deja_loop: status, then a run of the light analyzers",
        async () => {
          const status = await call(worker, "deja_loop", { action: "status" });
          ok(status.text.includes("pending recommendations: 1"), status.text);
          const ran = await call(worker, "deja_loop", { action: "run" });
          ok(/\d+ new recommendation/.test(ran.text), ran.text);
          proposed = ran.text.match(/^- ([0-9a-f]{12}) /m)?.[1] ?? "";
          ok(proposed, ran.text);
        },
      );

      await t.step("deja_recommendations list and show", async () => {
        const list = await call(worker, "deja_recommendations", {
          action: "list",
        });
        ok(
          list.text.includes(proposed) &&
            list.text.includes(own.hash.slice(0, 12)),
          list.text,
        );
        const show = await call(worker, "deja_recommendations", {
          action: "show",
          hash: proposed,
        });
        ok(
          show.text.includes("proposal:") &&
            show.text.includes("chain verified"),
          show.text,
        );
      });

      await t.step(
        "deja_recommendations list refuses a status that does not exist",
        async () => {
          const r = await call(worker, "deja_recommendations", {
            action: "list",
            status: "aproved",
          });
          equal(r.isError, true, r.text);
          ok(r.text.includes('"aproved"') && r.text.includes("rolled_back"));
        },
      );

      await t.step(
        "a worker cannot approve: it holds no review scope",
        async () => {
          const r = await call(worker, "deja_recommendations", {
            action: "approve",
            hash: proposed,
            because: "looks right",
          });
          equal(r.isError, true);
          ok(r.text.includes("LOOP-E002"), r.text);
        },
      );

      await t.step("the reviewer approves the engine's proposal", async () => {
        const approved = await call(reviewer, "deja_recommendations", {
          action: "approve",
          hash: proposed,
          because: "two live deploy targets for one service is a real conflict",
        });
        equal(approved.isError, false, approved.text);
        ok(approved.text.includes("is now approved"));
      });

      await t.step(
        "applying a memory change needs write too: no scope amplification",
        async () => {
          const refused = await call(reviewer, "deja_recommendations", {
            action: "apply",
            hash: proposed,
            because: "keep one",
          });
          equal(refused.isError, true);
          ok(
            refused.text.includes("LOOP-E002") &&
              refused.text.includes("write"),
            refused.text,
          );
          const applier = await connect(env, [
            "--scopes",
            "apply,write",
            "--actor",
            "agent:applier",
          ]);
          try {
            const applied = await call(applier, "deja_recommendations", {
              action: "apply",
              hash: proposed,
              because: "keep the newer target",
            });
            equal(applied.isError, false, applied.text);
            ok(applied.text.includes("is now applied"));
          } finally {
            await applier.close();
          }
        },
      );

      await t.step("the reviewer cannot approve its own proposal", async () => {
        const r = await call(reviewer, "deja_recommendations", {
          action: "approve",
          hash: own.hash,
          because: "mine, so fine",
        });
        equal(r.isError, true);
        ok(
          r.text.includes("LOOP-E003") &&
            r.text.includes("self-approval is blocked"),
          r.text,
        );
      });

      await t.step("approving needs a reason", async () => {
        const r = await call(reviewer, "deja_recommendations", {
          action: "reject",
          hash: own.hash,
        });
        equal(r.isError, true);
        ok(r.text.includes("LOOP-E005"));
      });

      await t.step("the reviewer holds no write scope for notes", async () => {
        const r = await call(reviewer, "deja", {
          mode: "remember",
          text: "something",
        });
        equal(r.isError, true);
        ok(r.text.includes("LOOP-E002"));
      });

      await t.step(
        "resources: the 20 most recent sessions, read back framed",
        async () => {
          const list = (await worker.listResources()).resources as Array<
            { uri: string }
          >;
          ok(list.length > 0 && list.length <= 20);
          ok(list.every((r) => r.uri.startsWith("deja://session/")));
          ok(
            !list.some((r) => r.uri.includes("8c41d7a2")),
            "live sessions are not listed",
          );
          const read = await worker.readResource({
            uri: "deja://session/codex:0199fd22-8e41-7b3a-b5c0-6a1e93f4d208",
          });
          const text = (read.contents[0] as { text: string }).text;
          ok(
            text.startsWith("<deja-recall") &&
              text.includes("terraform plan fails"),
            text.slice(0, 200),
          );
        },
      );

      await t.step(
        "resources/read of an unknown session is the protocol's not-found error",
        async () => {
          const err = await worker.readResource({
            uri: "deja://session/claude-code:nope",
          }).then(() => undefined, (e: unknown) => e as McpError);
          ok(err instanceof McpError, "a JSON-RPC error, not content");
          equal(err.code, ErrorCode.InvalidParams);
          ok(err.message.includes("claude-code:nope"), err.message);
          ok(err.message.includes("QRY-E002"), err.message);
        },
      );

      await t.step(
        "resources/read of nope:nope names the unknown harness and the ids",
        async () => {
          const err = await worker.readResource({
            uri: "deja://session/nope:nope",
          }).then(() => undefined, (e: unknown) => e as McpError);
          ok(err instanceof McpError, "a JSON-RPC error, not content");
          equal(err.code, ErrorCode.InvalidParams);
          ok(
            err.message.includes('Unknown harness "nope" in "nope:nope"'),
            err.message,
          );
          ok(err.message.includes("claude-code, codex"), err.message);
        },
      );

      await t.step("prompts/list and prompts/get", async () => {
        const prompts =
          ((await worker.listPrompts()).prompts as Array<{ name: string }>).map(
            (p) => p.name,
          );
        deepEqual(prompts.sort(), ["handoff", "recall", "review-loop"]);
        const got = await worker.getPrompt({
          name: "recall",
          arguments: { topic: "redis pin" },
        });
        ok(JSON.stringify(got.messages).includes("redis pin"));
      });
    } finally {
      await worker.close();
      await reviewer.close();
    }
  },
});

Deno.test({
  name:
    "deja mcp with no index starts a detached pass and says it is building; with automatic indexing off it says to run deja index",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async (t) => {
    await t.step("automatic indexing on: building", async () => {
      const dir = await Deno.makeTempDir();
      const bin = `${dir}/fake-deja`;
      await Deno.writeTextFile(
        bin,
        `#!/bin/sh\necho "$@" >> '${dir}/spawned'\n`,
      );
      await Deno.chmod(bin, 0o755);
      const client = await connect({
        HOME: dir,
        DEJA_INDEX: `${dir}/index.db`,
        DEJA_DB: `${dir}/memory.db`,
        DEJA_BIN: bin,
      });
      try {
        ok((client.getInstructions() ?? "").includes("still building"));
        const r = await call(client, "deja", {
          mode: "recall",
          query: "anything",
        });
        ok(r.text.includes("still being built"), r.text);
        equal(
          await Deno.stat(`${dir}/index.db`).then(() => true, () => false),
          false,
          "no cold build inside a call",
        );
        let spawned = "";
        for (let i = 0; i < 50 && !spawned; i++) {
          spawned = await Deno.readTextFile(`${dir}/spawned`).catch(() => "");
          if (!spawned) await new Promise((r) => setTimeout(r, 50));
        }
        equal(spawned.trim(), "index --quiet", "one detached pass");
      } finally {
        await client.close();
      }
    });
    await t.step("automatic indexing off: run deja index", async () => {
      const dir = await Deno.makeTempDir();
      const client = await connect({
        HOME: dir,
        DEJA_INDEX: `${dir}/index.db`,
        DEJA_DB: `${dir}/memory.db`,
        DEJA_NO_AUTO_INDEX: "1",
      });
      try {
        const instructions = client.getInstructions() ?? "";
        ok(instructions.includes("run deja index"), instructions);
        ok(!instructions.includes("still building"), instructions);
        const r = await call(client, "deja", {
          mode: "recall",
          query: "anything",
        });
        ok(r.text.includes("run deja index"), r.text);
        ok(!r.text.includes("being built"), r.text);
      } finally {
        await client.close();
      }
    });
  },
});

Deno.test("deja mcp refuses an empty actor label as a usage error", async (t) => {
  for (const actor of ["", "   "]) {
    await t.step(JSON.stringify(actor), async () => {
      const io = captureIo({ env: {}, cwd: "/" });
      const code = await run(["mcp", "--actor", actor], io, {
        keepPermissions: true,
      });
      equal(code, 64, io.err());
      ok(io.err().includes("--actor"), io.err());
    });
  }
});

Deno.test("deja mcp refuses an actor label reserved for deja's own parties", async (t) => {
  for (
    const actor of [
      "policy:auto",
      "Policy:auto",
      "engine:deja.x/1",
      "system:init",
    ]
  ) {
    await t.step(actor, async () => {
      const io = captureIo({ env: {}, cwd: "/" });
      const code = await run(["mcp", "--actor", actor], io, {
        keepPermissions: true,
      });
      equal(code, 64, io.err());
      ok(io.err().includes("reserved"), io.err());
    });
  }
});

/** An SDK client talking to an in-process server over an in-memory pipe. */
async function inMemoryClient(
  ctx: McpContext,
): Promise<{ client: Client; close: () => Promise<void> }> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = createMcpServer(ctx);
  await server.connect(serverSide);
  const client = new Client({ name: "deja-test", version: "1.0.0" });
  await client.connect(clientSide);
  return {
    client,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

/** A read-only agent's client on a built world, its server started in "/". */
function readingAgent(
  w: { indexPath: string; memoryPath: string; env: Record<string, string> },
): Promise<{ client: Client; close: () => Promise<void> }> {
  return inMemoryClient({
    indexPath: w.indexPath,
    memoryPath: w.memoryPath,
    env: w.env,
    cwd: "/",
    now: Date.now,
    scopes: ["read"],
    actor: "agent:mcp",
    log: () => {},
  });
}

Deno.test("deja_recommendations never applies a destructive recommendation over MCP, and says where a person does", async () => {
  const dir = await Deno.makeTempDir();
  const db = `${dir}/memory.db`;
  const cli = async (args: string[]) => {
    const io = captureIo({ env: { DEJA_DB: db }, cwd: "/" });
    equal(await run(args, io, { keepPermissions: true }), 0, io.err());
    return io.out();
  };
  await cli(["init", "--db", db, "--template", "demo"]);
  await cli(["loop", "run", "--db", db, "--format", "json"]);
  const rows = JSON.parse(await cli(["loop", "list", "--db", db, "--json"]));
  const rec = rows.find((r: { destructive: boolean }) => r.destructive);
  ok(rec, "the demo has an expired fact to forget");
  await cli([
    "loop",
    "approve",
    rec.hash,
    "--db",
    db,
    "--actor",
    "human:alice",
    "--because",
    "the promo ended",
  ]);
  const { client, close } = await inMemoryClient({
    indexPath: `${dir}/index.db`,
    memoryPath: db,
    env: { DEJA_NO_AUTO_INDEX: "1" },
    cwd: "/",
    now: Date.now,
    scopes: ["read", "write", "review", "apply", "admin"],
    actor: "agent:reviewer",
    log: () => {},
  });
  try {
    const r = await call(client, "deja_recommendations", {
      action: "apply",
      hash: rec.hash,
      because: "clean up",
    });
    equal(r.isError, true, r.text);
    ok(!r.text.includes("--allow-destructive"), r.text);
    ok(r.text.includes("a person applies it from the deja CLI or the console"));
    ok(r.text.includes("LOOP-E002"), r.text);
    const show = await call(client, "deja_recommendations", {
      action: "show",
      hash: rec.hash,
    });
    ok(show.text.includes("status: approved"), show.text);
  } finally {
    await close();
  }
});

Deno.test("deja_recommendations list with nothing stored says so in words", async () => {
  const dir = await Deno.makeTempDir();
  openMemory(`${dir}/memory.db`).close();
  const { client, close } = await readingAgent({
    indexPath: `${dir}/index.db`,
    memoryPath: `${dir}/memory.db`,
    env: { DEJA_NO_AUTO_INDEX: "1" },
  });
  try {
    for (
      const [status, words] of [
        ["all", "No recommendations."],
        ["rolled_back", "No rolled back recommendations."],
        ["pending", "No pending recommendations."],
      ]
    ) {
      const r = await call(client, "deja_recommendations", {
        action: "list",
        status,
      });
      ok(r.text.includes(`\n${words}\n`), r.text);
    }
  } finally {
    await close();
  }
});

Deno.test("deja_loop status counts one new grain and one failed tool call in the singular", async () => {
  const dir = await Deno.makeTempDir();
  const store = openMemory(`${dir}/memory.db`);
  store.put({
    type: "event",
    namespace: "ops",
    created_at: Date.now(),
    actor: "agent:x",
    tool: "bash",
    is_error: true,
  });
  store.close();
  const { client, close } = await readingAgent({
    indexPath: `${dir}/index.db`,
    memoryPath: `${dir}/memory.db`,
    env: { DEJA_NO_AUTO_INDEX: "1" },
  });
  try {
    const r = await call(client, "deja_loop", { action: "status" });
    ok(
      r.text.includes("since then 1 new grain, 1 new failed tool call\n"),
      r.text,
    );
  } finally {
    await close();
  }
});

/** `deja mcp` as a harness starts it: stdio piped, a clean environment. */
function spawnMcp(
  w: { env: Record<string, string> },
  extra: Record<string, string> = {},
  stderr: "piped" | "null" = "null",
): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `${ROOT}main.ts`, "mcp"],
    cwd: "/",
    env: {
      ...w.env,
      ...extra,
      DENO_DIR: denoDir(),
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      NO_COLOR: "1",
    },
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr,
  }).spawn();
}

/**
 * A harness's first JSON-RPC message: `initialize` at a protocol version
 * older than the SDK's latest (2025-06-18), which the server must answer in.
 */
function initialize(clientInfo: { name: string; version: string }) {
  return {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo },
  };
}

Deno.test("deja mcp answers a harness's raw JSON-RPC over stdio: initialize at an older protocol version, tools/list, tools/call", async () => {
  const w = await buildWorld();
  const child = spawnMcp(w, { CLAUDE_PROJECT_DIR: "/home/dev/src/api" });
  const writer = child.stdin.getWriter();
  const lines = child.stdout.pipeThrough(new TextDecoderStream())
    .getReader();
  let buffer = "";
  const stdout: string[] = [];
  // Each message is one line of JSON on stdout, and nothing else is there.
  async function reply(id: number): Promise<Record<string, unknown>> {
    while (true) {
      const at = buffer.indexOf("\n");
      if (at >= 0) {
        const line = buffer.slice(0, at);
        buffer = buffer.slice(at + 1);
        stdout.push(line);
        const message = JSON.parse(line);
        if (message.id === id) return message;
        continue;
      }
      const { value, done } = await lines.read();
      if (done) throw new Error(`stdout closed before reply ${id}`);
      buffer += value;
    }
  }
  const send = (message: unknown) =>
    writer.write(new TextEncoder().encode(`${JSON.stringify(message)}\n`));
  try {
    await send(initialize({ name: "codex-mcp-client", version: "0.60.0" }));
    const init = await reply(1) as { result: Record<string, unknown> };
    equal(init.result.protocolVersion, "2025-06-18");
    equal((init.result.serverInfo as { name: string }).name, "deja");
    ok(String(init.result.instructions).includes("<deja-recall>"));
    await send({ jsonrpc: "2.0", method: "notifications/initialized" });
    await send({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} });
    const list = await reply(2) as {
      result: { tools: Array<{ name: string; inputSchema: unknown }> };
    };
    deepEqual(
      list.result.tools.map((t) => t.name).sort(),
      ["deja", "deja_loop", "deja_recommendations"],
    );
    await send({
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: {
        name: "deja",
        arguments: { mode: "recall", query: "ECONNREFUSED 5432" },
      },
    });
    const call = await reply(3) as {
      result: { content: Array<{ type: string; text: string }> };
    };
    equal(call.result.content[0]?.type, "text");
    ok(call.result.content[0]?.text.startsWith("<deja-recall"));
    ok(call.result.content[0]?.text.includes("ECONNREFUSED 127.0.0.1:5432"));
    for (const line of stdout) equal(JSON.parse(line).jsonrpc, "2.0");
  } finally {
    await writer.close().catch(() => {});
    await lines.cancel().catch(() => {});
    await child.status;
  }
});

Deno.test("deja mcp answers a line that is not JSON-RPC with a JSON-RPC error and says so on stderr", async () => {
  const w = await buildWorld();
  const child = spawnMcp(w, {}, "piped");
  const writer = child.stdin.getWriter();
  // Not JSON; JSON but no JSON-RPC message (params must be an object);
  // then a good ping, answered after both.
  await writer.write(new TextEncoder().encode(
    'not json\n{"jsonrpc":"2.0","id":7,"method":"tools/list","params":null}\n' +
      '{"jsonrpc":"2.0","id":8,"method":"ping"}\n',
  ));
  await writer.close();
  const out = await child.output();
  const replies = new TextDecoder().decode(out.stdout).trim().split("\n")
    .map((line) => JSON.parse(line));
  deepEqual(
    replies.map((r) => r.error?.code ?? r.id),
    [-32700, -32600, 8],
  );
  for (const r of replies) equal(r.jsonrpc, "2.0");
  // An error to a line whose id could not be read carries `"id": null`.
  deepEqual(replies.slice(0, 2).map((r) => r.id), [null, null]);
  const stderr = new TextDecoder().decode(out.stderr);
  ok(stderr.includes("not JSON"), stderr);
  ok(stderr.includes("not a JSON-RPC message"), stderr);
});

Deno.test("deja mcp answers params that fit no schema as invalid params, naming them", async () => {
  const w = await buildWorld();
  const child = spawnMcp(w);
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(
    [
      initialize({ name: "t", version: "1" }),
      { jsonrpc: "2.0", method: "notifications/initialized" },
      {
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "deja", arguments: "oops" },
      },
      { jsonrpc: "2.0", id: 3, method: "ping" },
    ].map((m) => JSON.stringify(m)).join("\n") + "\n",
  ));
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while ((text.match(/\n/g) ?? []).length < 3) {
    const { value, done } = await lines.read();
    if (done) break;
    text += value;
  }
  await writer.close().catch(() => {});
  await lines.cancel().catch(() => {});
  await child.status;
  const replies = text.trim().split("\n").map((l) => JSON.parse(l));
  const bad = replies.find((r) => r.id === 2);
  equal(bad?.error?.code, -32602);
  ok(bad.error.message.includes("params.arguments"), bad.error.message);
  ok(replies.some((r) => r.id === 3 && r.result));
});

Deno.test("resources/read of a long session is at most 16 KiB with its frame", async () => {
  const id = "6b1c2d3e-4f50-4a61-8b72-9c8d7e6f5a4b";
  const w = await buildWorld([{
    id,
    cwd: "/home/dev/src/longrun",
    start: "2026-11-20T09:00:00Z",
    steps: Array.from(
      { length: 600 },
      (_, i) =>
        i % 2
          ? { assistant: `Step ${i}: ${"the migration ran"}` }
          : { user: `next step ${i}: ${"check the orders table"}` },
    ),
  }]);
  const { client, close } = await readingAgent(w);
  try {
    const read = await client.readResource({
      uri: `deja://session/claude-code:${id}`,
    });
    const text = String(read.contents[0]?.text ?? "");
    ok(text.endsWith("</deja-recall>"), text.slice(-200));
    ok(byteLength(text) <= 16384, `${byteLength(text)} bytes`);
  } finally {
    await close();
  }
});

Deno.test("deja mode handoff reads `to` as --to does: an alias or any case names the harness, an unknown name is an error", async () => {
  const w = await buildWorld();
  const { client, close } = await readingAgent(w);
  try {
    for (const to of ["claude", "Claude-Code"]) {
      const r = await call(client, "deja", {
        mode: "handoff",
        session: "3f2b8c1e",
        to,
      });
      equal(r.isError, false, r.text);
      ok(r.text.includes("for Claude Code."), r.text);
      ok(r.text.includes("Resume in Claude Code"), r.text);
    }
    const r = await call(client, "deja", {
      mode: "handoff",
      session: "3f2b8c1e",
      to: "nope",
    });
    equal(r.isError, true, r.text);
    ok(r.text.includes('Unknown harness "nope"'), r.text);
  } finally {
    await close();
  }
});

Deno.test("deja mode handoff in a server started in / asks for a session or project instead of picking any project's latest", async () => {
  const w = await buildWorld();
  const { client, close } = await readingAgent(w);
  try {
    const r = await call(client, "deja", { mode: "handoff" });
    equal(r.isError, true, r.text);
    ok(r.text.includes("Name a session or a project"), r.text);
    const named = await call(client, "deja", {
      mode: "handoff",
      project: "api",
    });
    equal(named.isError, false, named.text);
  } finally {
    await close();
  }
});
