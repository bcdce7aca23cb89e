import { deepEqual, equal, match, notEqual, ok } from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { run } from "../cli/mod.ts";
import { captureIo } from "../src/core/io.ts";
import { openDatabase } from "../src/core/_sqlite.ts";
import { GRAIN_TYPES, openMemory } from "../src/memory/mod.ts";
import {
  type AppDeps,
  type ConsoleApp,
  consoleBytes,
  createApp,
  serveConsole,
} from "../src/server/mod.ts";
import {
  buildFixture,
  type ConsoleFixture,
  FIXTURE_NOW,
  HOSTILE,
} from "./_console_fixture.ts";

const TOKEN = "s3cret-test-token";
const ORIGIN = "http://127.0.0.1:7777";
type Mode = "read-only" | "review" | "apply" | "destructive";

function appFor(
  f: ConsoleFixture,
  mode: Mode,
  extra: Partial<AppDeps> = {},
): ConsoleApp {
  const auth: AppDeps["auth"] = {
    allowApply: mode === "apply" || mode === "destructive",
    allowDestructive: mode === "destructive",
    actor: "human:reviewer",
  };
  if (mode !== "read-only") {
    auth.token = TOKEN;
    auth.tokenEnv = "DEJA_TOKEN";
  }
  return createApp({
    memoryPath: f.memoryPath,
    indexPath: f.indexPath,
    auth,
    now: () => FIXTURE_NOW,
    ...extra,
  });
}

interface CallOptions {
  body?: unknown;
  token?: string;
  basic?: string;
  origin?: string | null;
  host?: string;
  headers?: Record<string, string>;
}

async function call(
  app: ConsoleApp,
  method: string,
  path: string,
  opts: CallOptions = {},
): Promise<
  { status: number; body: Record<string, unknown>; headers: Headers }
> {
  const headers = new Headers({
    host: opts.host ?? "127.0.0.1:7777",
    ...opts.headers,
  });
  if (method === "POST" && opts.origin !== null) {
    headers.set("origin", opts.origin ?? ORIGIN);
  }
  if (opts.token) headers.set("authorization", `Bearer ${opts.token}`);
  if (opts.basic) {
    headers.set("authorization", `Basic ${btoa(`anyone:${opts.basic}`)}`);
  }
  if (opts.body !== undefined) headers.set("content-type", "application/json");
  const res = await app.request(`http://127.0.0.1:7777${path}`, {
    method,
    headers,
    ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
  });
  const text = await res.text();
  let body: Record<string, unknown> = {};
  try {
    body = text ? JSON.parse(text) : {};
  } catch {
    body = { text };
  }
  return { status: res.status, body, headers: res.headers };
}

interface Rec {
  hash: string;
  analyzer: string;
  target_ref: string;
  status: string;
  version: number;
  destructive: boolean;
  summary: string;
}

async function recs(app: ConsoleApp, status = "all"): Promise<Rec[]> {
  return (await call(app, "GET", `/api/loop/recommendations?status=${status}`))
    .body.recommendations as Rec[];
}

async function recOf(
  app: ConsoleApp,
  analyzer: string,
  target?: string,
): Promise<Rec> {
  const found = (await recs(app)).find((r) =>
    r.analyzer === analyzer && (!target || r.target_ref.includes(target))
  );
  ok(found, `no ${analyzer} recommendation`);
  return found;
}

function isProblem(
  body: Record<string, unknown>,
  status: number,
  code: string,
): void {
  equal(body.status, status);
  equal(body.code, code);
  equal(body.type, `urn:deja:error:${code}`);
  equal(typeof body.title, "string");
  equal(typeof body.detail, "string");
}

const shared = await buildFixture();

Deno.test("createApp() serves read routes and refuses non-loopback Host headers", async (t) => {
  const app = appFor(shared, "read-only", { port: 7777 });
  try {
    await t.step(
      "health reports read-only mode with security headers",
      async () => {
        const r = await call(app, "GET", "/api/health");
        equal(r.status, 200);
        equal(r.body.mode, "read-only");
        equal(r.headers.get("cache-control"), "no-store");
        match(
          r.headers.get("content-security-policy") ?? "",
          /script-src 'self'/,
        );
        equal(r.headers.get("x-frame-options"), "DENY");
      },
    );
    for (
      const host of [
        "evil.example",
        "evil.example:7777",
        "127.0.0.1.nip.io:7777",
        "127.0.0.1:8888",
      ]
    ) {
      await t.step(`Host ${host} → 403`, async () => {
        const r = await call(app, "GET", "/api/health", { host });
        equal(r.status, 403);
        isProblem(r.body, 403, "SRV-E007");
      });
    }
    for (const host of ["127.0.0.1:7777", "localhost:7777", "[::1]:7777"]) {
      await t.step(`Host ${host} → 200`, async () => {
        equal((await call(app, "GET", "/api/health", { host })).status, 200);
      });
    }
    await t.step("unknown API route → 404 problem", async () => {
      const r = await call(app, "GET", "/api/nope");
      isProblem(r.body, 404, "SRV-E005");
    });
  } finally {
    app.close();
  }
});

Deno.test("createApp() answers a method a route does not take with 405 and Allow, for every documented route", async (t) => {
  const app = appFor(shared, "read-only");
  const doc = await Deno.readTextFile(
    new URL("../docs/http-api.md", import.meta.url),
  );
  const documented = new Map<string, Set<string>>();
  for (const [, method, path] of doc.matchAll(/^### `(GET|POST) ([^`?]+)/gm)) {
    const concrete = (path as string).replace(/:\w+/g, "x");
    const methods = documented.get(concrete) ?? new Set<string>();
    methods.add(method as string);
    documented.set(concrete, methods);
  }
  ok(documented.size > 15, `${documented.size} routes documented`);
  try {
    for (const [path, methods] of documented) {
      const allow = [...methods];
      if (methods.has("GET")) allow.splice(allow.indexOf("GET") + 1, 0, "HEAD");
      for (const method of ["GET", "POST", "DELETE"]) {
        if (methods.has(method)) continue;
        await t.step(
          `${method} ${path} → 405 Allow: ${allow.join(", ")}`,
          async () => {
            const r = await call(app, method, path);
            equal(r.status, 405, JSON.stringify(r.body));
            isProblem(r.body, 405, "SRV-E009");
            equal(r.headers.get("allow"), allow.join(", "));
            equal(
              r.headers.get("content-type"),
              "application/problem+json; charset=utf-8",
            );
            equal(r.headers.get("x-frame-options"), "DENY");
          },
        );
      }
    }
    await t.step(
      "a path no route takes stays 404, whatever the method",
      async () => {
        for (const method of ["GET", "POST", "DELETE"]) {
          const r = await call(app, method, "/api/loop/nope");
          isProblem(r.body, 404, "SRV-E005");
          equal(r.headers.get("allow"), null);
        }
      },
    );
    await t.step("the page's files take GET only", async () => {
      const r = await call(app, "POST", "/");
      isProblem(r.body, 405, "SRV-E009");
      equal(r.headers.get("allow"), "GET, HEAD");
    });
  } finally {
    app.close();
  }
});

Deno.test("GET /api/memory/grains takes exactly the types docs/http-api.md lists", async () => {
  const app = appFor(shared, "read-only");
  const doc = await Deno.readTextFile(
    new URL("../docs/http-api.md", import.meta.url),
  );
  const listed = doc.match(
    /### `GET \/api\/memory\/grains`\n\n`type` \(`([a-z|]+)`/,
  )?.[1]?.split("|");
  ok(listed, "docs/http-api.md lists the grain types");
  deepEqual([...listed].sort(), [...GRAIN_TYPES].sort());
  for (const type of listed) {
    const r = await call(app, "GET", `/api/memory/grains?type=${type}`);
    equal(r.status, 200, `${type}: ${JSON.stringify(r.body)}`);
    const grains = r.body.grains as Array<{ type: string }>;
    ok(grains.every((g) => g.type === type), type);
  }
  const unknown = await call(app, "GET", "/api/memory/grains?type=notes");
  isProblem(unknown.body, 400, "SRV-E006");
});

Deno.test("createApp() without a token refuses every write with 401 and a --token-env hint", async (t) => {
  const app = appFor(shared, "read-only");
  try {
    const rec = await recOf(app, "deja.contradiction_sweep/1", "acme");
    const writes: Array<[string, unknown]> = [
      ["/api/loop/review", {
        hash: rec.hash,
        decision: "approve",
        because: "checked",
      }],
      ["/api/loop/apply", { hash: rec.hash, because: "checked" }],
      ["/api/loop/rollback", { hash: rec.hash, because: "checked" }],
      ["/api/loop/run", {}],
      ["/api/loop/analyzers", { analyzer: "staleness", enabled: false }],
    ];
    for (const [path, body] of writes) {
      await t.step(`POST ${path}`, async () => {
        const r = await call(app, "POST", path, { body });
        equal(r.status, 401);
        isProblem(r.body, 401, "SRV-E001");
        match(String(r.body.hint), /--token-env/);
        match(r.headers.get("www-authenticate") ?? "", /^Basic/);
      });
    }
    await t.step("a token is refused too: the server has none", async () => {
      equal(
        (await call(app, "POST", "/api/loop/run", { body: {}, token: TOKEN }))
          .status,
        401,
      );
    });
    await t.step("dry run is a read and works", async () => {
      const r = await call(app, "POST", "/api/loop/dryrun", {
        body: { hash: rec.hash },
      });
      equal(r.status, 200);
      equal(r.body.would_apply, false);
    });
    await t.step("nothing changed", async () => {
      equal(
        (await recOf(app, "deja.contradiction_sweep/1", "acme")).status,
        "pending",
      );
    });
  } finally {
    app.close();
  }
});

Deno.test("createApp() accepts POSTs only from its exact own origin", async (t) => {
  const app = appFor(shared, "review");
  try {
    const rec = await recOf(app, "deja.skill_stall/1");
    const cases: Array<[string, CallOptions, number]> = [
      ["other port", { origin: "http://127.0.0.1:9999" }, 403],
      ["localhost for 127.0.0.1", { origin: "http://localhost:7777" }, 403],
      ["other site", { origin: "https://evil.example" }, 403],
      ["opaque origin", { origin: "null" }, 403],
      ["cross-site fetch metadata", {
        origin: null,
        headers: { "sec-fetch-site": "cross-site" },
      }, 403],
      ["own origin", { origin: ORIGIN }, 200],
      ["no Origin (curl)", { origin: null }, 200],
    ];
    for (const [name, opts, status] of cases) {
      await t.step(name, async () => {
        const r = await call(app, "POST", "/api/loop/dryrun", {
          body: { hash: rec.hash },
          ...opts,
        });
        equal(r.status, status);
        if (status === 403) isProblem(r.body, 403, "SRV-E002");
      });
    }
    await t.step(
      "a write from another origin is refused before the token is checked",
      async () => {
        const r = await call(app, "POST", "/api/loop/review", {
          body: { hash: rec.hash, decision: "approve", because: "x" },
          token: TOKEN,
          origin: "http://127.0.0.1:7778",
        });
        equal(r.status, 403);
        equal((await recOf(app, "deja.skill_stall/1")).status, "pending");
      },
    );
  } finally {
    app.close();
  }
});

Deno.test("a POST body past 64 KiB is refused without being read whole", async (t) => {
  const app = appFor(shared, "read-only");
  try {
    /** A body of `total` bytes handed out in 16 KiB chunks, counting what was read. */
    const endless = (total: number) => {
      const chunk = new TextEncoder().encode("a".repeat(16 * 1024));
      const seen = { bytes: 0 };
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (seen.bytes >= total) return controller.close();
          seen.bytes += chunk.byteLength;
          controller.enqueue(chunk);
        },
      });
      return { stream, seen };
    };
    await t.step("a streamed body stops being read at the limit", async () => {
      const { stream, seen } = endless(32 * 1024 * 1024);
      const res = await app.request("http://127.0.0.1:7777/api/loop/dryrun", {
        method: "POST",
        headers: { host: "127.0.0.1:7777" },
        body: stream,
      });
      const body = await res.json();
      isProblem(body, 400, "SRV-E006");
      match(body.detail, /larger than 64 KiB/);
      ok(seen.bytes <= 128 * 1024, `read ${seen.bytes} bytes of the body`);
    });
    await t.step(
      "a declared Content-Length past the limit is refused",
      async () => {
        const { stream, seen } = endless(1024 * 1024);
        const res = await app.request("http://127.0.0.1:7777/api/loop/dryrun", {
          method: "POST",
          headers: { host: "127.0.0.1:7777", "content-length": "1048576" },
          body: stream,
        });
        isProblem(await res.json(), 400, "SRV-E006");
        ok(seen.bytes <= 128 * 1024, `read ${seen.bytes} bytes of the body`);
      },
    );
    await t.step("a body just under the limit is read", async () => {
      const r = await call(app, "POST", "/api/loop/dryrun", {
        body: { hash: "ab".repeat(32 * 1024 - 20) },
      });
      equal(r.status, 400);
      match(String(r.body.detail), /hash/);
    });
  } finally {
    app.close();
  }
});

/** Every row of every table in a memory file: equal snapshots, nothing written. */
function memoryRows(path: string): string {
  const db = openDatabase(path, { readOnly: true });
  try {
    const tables = db.prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name",
    ).all() as Array<{ name: string }>;
    return JSON.stringify(
      tables.map(({ name }) => [
        name,
        db.prepare(`SELECT * FROM "${name.replaceAll('"', '""')}"`).all(),
      ]),
    );
  } finally {
    db.close();
  }
}

Deno.test("POST /api/auth/check answers whether the credentials open writes, and writes nothing", async (t) => {
  const f = await buildFixture();
  const review = appFor(f, "review");
  const apply = appFor(f, "apply");
  const readOnly = appFor(f, "read-only");
  const before = memoryRows(f.memoryPath);
  try {
    await t.step(
      "the console's token, Bearer or Basic → 200 with the mode",
      async () => {
        for (const cred of [{ token: TOKEN }, { basic: TOKEN }]) {
          const r = await call(review, "POST", "/api/auth/check", {
            body: {},
            ...cred,
          });
          equal(r.status, 200, JSON.stringify(r.body));
          deepEqual(r.body, { ok: true, mode: "review" });
          equal(r.headers.get("cache-control"), "no-store");
        }
        const r = await call(apply, "POST", "/api/auth/check", {
          token: TOKEN,
        });
        deepEqual(r.body, { ok: true, mode: "apply" });
      },
    );
    await t.step(
      "a wrong token → 401 naming the variable, no login prompt",
      async () => {
        const r = await call(review, "POST", "/api/auth/check", {
          body: {},
          token: "not-the-token",
        });
        isProblem(r.body, 401, "SRV-E001");
        equal(r.body.reason, "token_mismatch");
        match(String(r.body.detail), /token sent is not the console's token/);
        match(String(r.body.hint), /\$DEJA_TOKEN/);
        match(
          r.headers.get("www-authenticate") ?? "",
          /^Bearer .*invalid_token/,
        );
      },
    );
    await t.step("no token → 401 asking for one", async () => {
      const r = await call(review, "POST", "/api/auth/check", { body: {} });
      isProblem(r.body, 401, "SRV-E001");
      equal(r.body.reason, "token_missing");
      match(String(r.body.detail), /needs the console's token/);
      match(r.headers.get("www-authenticate") ?? "", /^Basic/);
    });
    await t.step("a read-only server says so, whatever the token", async () => {
      for (const cred of [{}, { token: TOKEN }]) {
        const r = await call(readOnly, "POST", "/api/auth/check", {
          body: {},
          ...cred,
        });
        isProblem(r.body, 401, "SRV-E001");
        equal(r.body.reason, "read_only");
        match(String(r.body.detail), /read-only/);
        match(String(r.body.hint), /--token-env/);
      }
    });
    await t.step(
      "another origin or host is refused before the token is looked at",
      async () => {
        const cases: Array<[CallOptions, string]> = [
          [{ origin: "http://127.0.0.1:7778" }, "SRV-E002"],
          [{ origin: "null" }, "SRV-E002"],
          [
            { origin: null, headers: { "sec-fetch-site": "cross-site" } },
            "SRV-E002",
          ],
          [{ host: "evil.example:7777" }, "SRV-E007"],
        ];
        for (const [opts, code] of cases) {
          const r = await call(review, "POST", "/api/auth/check", {
            body: {},
            token: TOKEN,
            ...opts,
          });
          isProblem(r.body, 403, code);
        }
      },
    );
    await t.step("the body takes no fields", async () => {
      const r = await call(review, "POST", "/api/auth/check", {
        body: { actor: "human:someone-else" },
        token: TOKEN,
      });
      isProblem(r.body, 400, "SRV-E006");
    });
    await t.step("GET is not the route's method", async () => {
      const r = await call(review, "GET", "/api/auth/check");
      isProblem(r.body, 405, "SRV-E009");
      equal(r.headers.get("allow"), "POST");
    });
    await t.step(
      "nothing was written: no audit record, no grain, no config",
      () => {
        equal(memoryRows(f.memoryPath), before);
      },
    );
    await t.step("a real write does show in the snapshot", async () => {
      const rec = await recOf(review, "deja.contradiction_sweep/1", "acme");
      const r = await call(review, "POST", "/api/loop/review", {
        body: { hash: rec.hash, decision: "reject", because: "a control" },
        token: TOKEN,
      });
      equal(r.status, 200, JSON.stringify(r.body));
      notEqual(memoryRows(f.memoryPath), before);
    });
  } finally {
    review.close();
    apply.close();
    readOnly.close();
  }
});

Deno.test("createApp() with a token reviews but applies only with --allow-apply", async (t) => {
  const f = await buildFixture();
  const app = appFor(f, "review");
  try {
    const rec = await recOf(app, "deja.contradiction_sweep/1", "acme");
    await t.step("missing and wrong tokens → 401", async () => {
      const body = {
        hash: rec.hash,
        decision: "approve",
        because: "checked both regions",
      };
      equal(
        (await call(app, "POST", "/api/loop/review", { body })).status,
        401,
      );
      const missing = await call(app, "POST", "/api/loop/review", { body });
      match(String(missing.body.detail), /needs the console's token/);
      match(missing.headers.get("www-authenticate") ?? "", /^Basic/);
      // A Bearer client (the console) is challenged as one: a Basic
      // challenge would hold its fetch behind the browser's login prompt.
      for (
        const [wrong, scheme] of [
          [{ token: "wrong" }, /^Bearer .*invalid_token/],
          [{ basic: "wrong" }, /^Basic/],
        ] as const
      ) {
        const r = await call(app, "POST", "/api/loop/review", {
          body,
          ...wrong,
        });
        equal(r.status, 401);
        match(String(r.body.detail), /token sent is not the console's token/);
        match(r.headers.get("www-authenticate") ?? "", scheme);
      }
    });
    await t.step("the body cannot name the actor", async () => {
      const r = await call(app, "POST", "/api/loop/review", {
        body: {
          hash: rec.hash,
          decision: "approve",
          because: "x",
          actor: "human:someone-else",
        },
        token: TOKEN,
      });
      equal(r.status, 400);
      match(String(r.body.detail), /actor comes from the server/);
    });
    await t.step(
      "a version past 2^53 is malformed (400), not a lost race (409)",
      async () => {
        for (const version of [1e20, -1, 1.5]) {
          const r = await call(app, "POST", "/api/loop/review", {
            body: {
              hash: rec.hash,
              decision: "approve",
              because: "checked",
              version,
            },
            token: TOKEN,
          });
          isProblem(r.body, 400, "SRV-E006");
          match(String(r.body.detail), /"version" must be a whole number/);
        }
      },
    );
    await t.step("a reason is mandatory", async () => {
      const r = await call(app, "POST", "/api/loop/review", {
        body: { hash: rec.hash, decision: "approve", because: "  " },
        token: TOKEN,
      });
      isProblem(r.body, 400, "LOOP-E005");
    });
    await t.step(
      "reason problems speak the request's terms, not the CLI's",
      async () => {
        const missing = await call(app, "POST", "/api/loop/review", {
          body: { hash: rec.hash, decision: "approve" },
          token: TOKEN,
        });
        isProblem(missing.body, 400, "LOOP-E005");
        match(String(missing.body.detail), /needs a reason: send "because"/);
        ok(!String(missing.body.detail).includes("--because"));
        const long = await call(app, "POST", "/api/loop/review", {
          body: {
            hash: rec.hash,
            decision: "approve",
            because: "x".repeat(600),
          },
          token: TOKEN,
        });
        isProblem(long.body, 400, "LOOP-E005");
        match(String(long.body.title), /too long/);
        ok(!String(long.body.title).includes("--because"));
        match(String(long.body.detail), /600 characters; the limit is 500/);
      },
    );
    await t.step("decision must be approve or reject", async () => {
      const r = await call(app, "POST", "/api/loop/review", {
        body: { hash: rec.hash, decision: "yes", because: "x" },
        token: TOKEN,
      });
      equal(r.status, 400);
    });
    await t.step(
      "Basic with the token as password approves; the audit names the server's actor",
      async () => {
        const r = await call(app, "POST", "/api/loop/review", {
          body: {
            hash: rec.hash,
            decision: "approve",
            because: "eu-west-1 is the live region",
          },
          basic: TOKEN,
        });
        equal(r.status, 200);
        equal(r.body.status, "approved");
        const d = await call(
          app,
          "GET",
          `/api/loop/recommendation/${rec.hash.slice(0, 12)}`,
        );
        const audit = d.body.audit as Array<
          { to: string; actor: string; because: string }
        >;
        deepEqual(audit.map((a) => a.to), ["pending", "approved"]);
        equal(audit[1]?.actor, "human:reviewer");
        equal(d.body.chain_verified, true);
      },
    );
    await t.step("apply → 403 with an --allow-apply hint", async () => {
      const r = await call(app, "POST", "/api/loop/apply", {
        body: { hash: rec.hash, because: "go" },
        token: TOKEN,
      });
      isProblem(r.body, 403, "SRV-E008");
      match(String(r.body.hint), /--allow-apply/);
    });
    await t.step(
      "analyzer switch and inline run work with the token",
      async () => {
        const off = await call(app, "POST", "/api/loop/analyzers", {
          body: { analyzer: "skill_stall", enabled: false },
          token: TOKEN,
        });
        equal(off.status, 200);
        equal((off.body.analyzer as { enabled: boolean }).enabled, false);
        const run = await call(app, "POST", "/api/loop/run", {
          body: {},
          token: TOKEN,
        });
        equal(run.status, 200);
        const result = run.body.run as {
          outcome: string;
          completed: boolean;
          analyzers_run: string[];
        };
        equal(result.outcome, "ran");
        equal(result.completed, true);
        ok(!result.analyzers_run.includes("deja.skill_stall/1"));
      },
    );
  } finally {
    app.close();
  }
});

Deno.test("createApp() with --allow-apply runs approve → apply → rollback with a verified audit chain", async () => {
  const f = await buildFixture();
  const app = appFor(f, "apply");
  try {
    const rec = await recOf(app, "deja.contradiction_sweep/1", "acme");
    const post = (path: string, body: Record<string, unknown>) =>
      call(app, "POST", path, {
        body: { hash: rec.hash, ...body },
        token: TOKEN,
      });
    equal(
      (await post("/api/loop/review", {
        decision: "approve",
        because: "eu-west-1 is live",
      })).status,
      200,
    );
    const dry = await post("/api/loop/dryrun", {});
    equal(dry.body.would_apply, true);
    const applied = await post("/api/loop/apply", {
      because: "resolve to the latest value",
    });
    equal(applied.status, 200);
    equal(applied.body.status, "applied");
    ok((applied.body.results as string[]).length > 0);
    const rolled = await post("/api/loop/rollback", {
      because: "the old region is still serving",
    });
    equal(rolled.status, 200);
    equal(rolled.body.status, "rolled_back");
    const d = await call(app, "GET", `/api/loop/recommendation/${rec.hash}`);
    deepEqual((d.body.audit as Array<{ to: string }>).map((a) => a.to), [
      "pending",
      "approved",
      "applied",
      "rolled_back",
    ]);
    equal(d.body.chain_verified, true);
    const outcomes = await call(app, "GET", "/api/loop/outcomes");
    const row =
      (outcomes.body.analyzers as Array<Record<string, number | string>>)
        .find((x) => x.analyzer === "deja.contradiction_sweep/1");
    equal(row?.approved, 1);
    equal(row?.applied, 1);
    equal(row?.rolled_back, 1);
    equal(outcomes.body.caption, "Measured history from audit records");
  } finally {
    app.close();
  }
});

Deno.test("GET /api/loop/recommendation/:hash says why nothing is open on a rejected or rolled-back recommendation", async () => {
  const f = await buildFixture();
  const app = appFor(f, "apply");
  const reader = appFor(f, "read-only");
  try {
    const post = (path: string, hash: string, body: Record<string, unknown>) =>
      call(app, "POST", path, { body: { hash, ...body }, token: TOKEN });
    const rejected = await recOf(app, "deja.duplicate_sweep/1");
    equal(
      (await post("/api/loop/review", rejected.hash, {
        decision: "reject",
        because: "both copies are wanted",
      })).status,
      200,
    );
    const rolled = await recOf(app, "deja.contradiction_sweep/1", "acme");
    for (
      const [path, body] of [
        ["/api/loop/review", { decision: "approve", because: "eu-west-1" }],
        ["/api/loop/apply", { because: "resolve to the latest value" }],
        ["/api/loop/rollback", { because: "the old region still serves" }],
      ] as const
    ) equal((await post(path, rolled.hash, body)).status, 200, path);
    for (
      const [hash, status] of [
        [rejected.hash, "rejected"],
        [rolled.hash, "rolled back"],
      ]
    ) {
      for (const server of [app, reader]) {
        const d = await call(server, "GET", `/api/loop/recommendation/${hash}`);
        const actions = d.body.actions as Record<string, unknown>;
        deepEqual(
          [actions.review, actions.approve, actions.apply, actions.rollback],
          [false, false, false, false],
        );
        equal(actions.why, `${status}: its status leaves no transition`);
      }
    }
  } finally {
    app.close();
    reader.close();
  }
});

Deno.test("createApp() answers 409 to the loser of two concurrent conflicting approvals", async () => {
  const f = await buildFixture();
  const app = appFor(f, "review");
  try {
    const rec = await recOf(app, "deja.duplicate_sweep/1");
    const decide = (decision: string) =>
      call(app, "POST", "/api/loop/review", {
        body: {
          hash: rec.hash,
          decision,
          because: `${decision} from a second tab`,
          version: rec.version,
        },
        token: TOKEN,
      });
    const results = await Promise.all([decide("approve"), decide("reject")]);
    deepEqual(results.map((r) => r.status).sort(), [200, 409]);
    const loser = results.find((r) => r.status === 409);
    ok(
      loser &&
        (loser.body.code === "LOOP-E001" || loser.body.code === "LOOP-E004"),
    );
    const again = await decide("approve");
    equal(again.status, 409);
  } finally {
    app.close();
  }
});

Deno.test("GET /api/loop/recommendation/:hash turns Approve off, with the reason, for the actor that triggered it", async () => {
  const f = await buildFixture();
  const store = openMemory(f.memoryPath, { now: () => FIXTURE_NOW });
  const { hash } = store.propose({
    analyzer: "acme.lint/1",
    params: {},
    family: "lint",
    target_ref: "host:ci",
    action: "flag",
    template: { id: "command.finding", args: { text: "flaky test" } },
    evidence: [],
    severity: "low",
    proposal: { kind: "host", data: { test: "checkout" } },
    origin: "command",
  }, { actor: "agent:worker", trigger: "human:reviewer", now: FIXTURE_NOW });
  store.close();
  const app = appFor(f, "review");
  try {
    const d = await call(app, "GET", `/api/loop/recommendation/${hash}`);
    const actions = d.body.actions as {
      review: boolean;
      approve: boolean;
      why: string | null;
    };
    equal(actions.review, true, "reject stays open");
    equal(actions.approve, false);
    match(String(actions.why), /self-approval/);
    const r = await call(app, "POST", "/api/loop/review", {
      body: { hash, decision: "approve", because: "my own run" },
      token: TOKEN,
    });
    equal(r.status, 403);
  } finally {
    app.close();
  }
});

Deno.test("createApp() gates destructive applies on --allow-destructive and a confirmation", async () => {
  const f = await buildFixture();
  const apply = appFor(f, "apply");
  const destructive = appFor(f, "destructive");
  try {
    const rec = (await recs(apply)).find((r) => r.destructive);
    ok(rec, "the demo proposes a destructive expiry");
    equal(
      (await call(apply, "POST", "/api/loop/review", {
        body: { hash: rec.hash, decision: "approve", because: "expired promo" },
        token: TOKEN,
      })).status,
      200,
    );
    const refused = await call(apply, "POST", "/api/loop/apply", {
      body: { hash: rec.hash, because: "go" },
      token: TOKEN,
    });
    isProblem(refused.body, 403, "SRV-E008");
    match(String(refused.body.hint), /--allow-destructive/);
    const unconfirmed = await call(destructive, "POST", "/api/loop/apply", {
      body: { hash: rec.hash, because: "go" },
      token: TOKEN,
    });
    equal(unconfirmed.status, 400);
    const done = await call(destructive, "POST", "/api/loop/apply", {
      body: { hash: rec.hash, because: "go", confirm_destructive: true },
      token: TOKEN,
    });
    equal(done.status, 200);
    equal(done.body.status, "applied");
  } finally {
    apply.close();
    destructive.close();
  }
});

Deno.test("GET /api/sessions/message-search groups sessions by best hit with byte-offset highlights", async (t) => {
  const f = await buildFixture({ hostile: true });
  const app = appFor(f, "read-only");
  try {
    const r = await call(app, "GET", "/api/sessions/message-search?q=the");
    equal(r.status, 200);
    equal(r.headers.get("cache-control"), "no-store");
    const sessions = r.body.sessions as Array<{
      best_ts_ms: number;
      total_hits: number;
      hits: Array<
        {
          snippet: string;
          snippet_offset_bytes: number;
          ranges: Array<[number, number]>;
          ts_ms: number;
        }
      >;
    }>;
    ok(sessions.length > 2);
    await t.step("sessions by most recent hit, at most 3 hits each", () => {
      for (let i = 1; i < sessions.length; i++) {
        ok(
          (sessions[i - 1]?.best_ts_ms ?? 0) >= (sessions[i]?.best_ts_ms ?? 0),
        );
      }
      for (const s of sessions) {
        ok(s.hits.length <= 3 && s.hits.length <= s.total_hits);
        equal(s.best_ts_ms, s.hits[0]?.ts_ms);
      }
    });
    await t.step(
      "snippets ≤ 280 bytes; ranges cut the needle out of the original bytes",
      () => {
        const enc = new TextEncoder();
        const dec = new TextDecoder();
        for (const s of sessions) {
          for (const h of s.hits) {
            const bytes = enc.encode(h.snippet);
            ok(bytes.length <= 280);
            for (const [a, b] of h.ranges) {
              const from = a - h.snippet_offset_bytes;
              const to = b - h.snippet_offset_bytes;
              if (from < 0 || to > bytes.length) continue;
              equal(dec.decode(bytes.subarray(from, to)).toLowerCase(), "the");
            }
          }
        }
      },
    );
    await t.step("hostile text comes back as data", async () => {
      const h = await call(
        app,
        "GET",
        `/api/sessions/message-search?q=${HOSTILE.marker}`,
      );
      const text = JSON.stringify(h.body.sessions);
      ok(text.includes("onerror"));
    });
    await t.step(
      "filter words narrow by harness, project and time",
      async () => {
        const codex = await call(
          app,
          "GET",
          "/api/sessions/message-search?q=" + encodeURIComponent("codex: the"),
        );
        const sources = new Set(
          (codex.body.sessions as Array<{ source: string }>).map((s) =>
            s.source
          ),
        );
        deepEqual([...sources], ["codex"]);
        deepEqual((codex.body.query as { harnesses: string[] }).harnesses, [
          "codex",
        ]);
        const api = await call(
          app,
          "GET",
          "/api/sessions/message-search?q=" + encodeURIComponent("in:api the"),
        );
        ok(
          (api.body.sessions as Array<{ project: string }>).every((s) =>
            s.project === "api"
          ),
        );
        const today = await call(
          app,
          "GET",
          "/api/sessions/message-search?q=" + encodeURIComponent("today the"),
        );
        equal((today.body.sessions as unknown[]).length, 0);
        const month = await call(
          app,
          "GET",
          "/api/sessions/message-search?q=" + encodeURIComponent("month the"),
        );
        ok((month.body.sessions as unknown[]).length > 0);
      },
    );
    await t.step(
      "filter words alone browse sessions, newest first",
      async () => {
        const b = await call(
          app,
          "GET",
          "/api/sessions/message-search?q=" + encodeURIComponent("codex:"),
        );
        equal(b.body.mode, "browse");
        ok((b.body.sessions as unknown[]).length > 0);
      },
    );
    await t.step("one character is not a search", async () => {
      const one = await call(app, "GET", "/api/sessions/message-search?q=e");
      isProblem(one.body, 400, "SRV-E006");
    });
  } finally {
    app.close();
  }
});

Deno.test("GET /api/sessions/message-search pins cursors to the index revision", async () => {
  const f = await buildFixture();
  const app = appFor(f, "read-only");
  try {
    const first = await call(
      app,
      "GET",
      "/api/sessions/message-search?q=the&limit=1",
    );
    const cursor = first.body.cursor as string;
    ok(cursor);
    const second = await call(
      app,
      "GET",
      `/api/sessions/message-search?q=the&limit=1&cursor=${cursor}`,
    );
    equal(second.status, 200);
    const key = (r: typeof first) =>
      (r.body.sessions as Array<{ session_key: string }>)[0]?.session_key;
    notEqual(key(second), key(first));
    // The cursor is a position, not a page number: another limit continues
    // from the same place.
    const keys = (r: typeof first) =>
      (r.body.sessions as Array<{ session_key: string }>).map((g) =>
        g.session_key
      );
    const three = await call(
      app,
      "GET",
      "/api/sessions/message-search?q=the&limit=3",
    );
    const wider = await call(
      app,
      "GET",
      `/api/sessions/message-search?q=the&limit=2&cursor=${cursor}`,
    );
    equal(wider.status, 200, JSON.stringify(wider.body));
    deepEqual(keys(wider), keys(three).slice(1, 3));
    const other = await call(
      app,
      "GET",
      `/api/sessions/message-search?q=other&limit=1&cursor=${cursor}`,
    );
    isProblem(other.body, 400, "SRV-E006");
    // Another index pass that changes the index moves the revision.
    const extra = join(
      f.home,
      ".claude",
      "projects",
      "-home-dev-src-api",
      "0aa1b2c3-d4e5-4f60-8a7b-8c9d0e1f2a3b.jsonl",
    );
    await Deno.writeTextFile(
      extra,
      JSON.stringify({
        parentUuid: null,
        isSidechain: false,
        type: "user",
        cwd: "/home/dev/src/api",
        sessionId: "0aa1b2c3-d4e5-4f60-8a7b-8c9d0e1f2a3b",
        message: {
          role: "user",
          content: "the cache warms too slowly after deploys",
        },
        uuid: "bb000000-0000-4000-8000-000000000001",
        timestamp: "2026-11-20T10:00:00.000Z",
      }) + "\n",
    );
    const io = captureIo({
      env: { HOME: f.home, DEJA_INDEX: f.indexPath },
      now: FIXTURE_NOW,
    });
    equal(await run(["index", "--quiet"], io, { keepPermissions: true }), 0);
    const expired = await call(
      app,
      "GET",
      `/api/sessions/message-search?q=the&limit=1&cursor=${cursor}`,
    );
    isProblem(expired.body, 410, "SRV-E004");
    equal(expired.body.reason, "cursor_expired");
  } finally {
    app.close();
  }
});

Deno.test("GET /api/sessions/message-search reports budgets as partial answers", async (t) => {
  await t.step(
    "response budget → partial/budget with a continuation cursor",
    async () => {
      const app = appFor(shared, "read-only", {
        searchBudgets: { responseBytes: 3000 },
      });
      try {
        const r = await call(app, "GET", "/api/sessions/message-search?q=the");
        equal(r.body.state, "partial");
        equal(r.body.partial_reason, "budget");
        ok(r.body.cursor);
        const next = await call(
          app,
          "GET",
          `/api/sessions/message-search?q=the&cursor=${r.body.cursor}`,
        );
        equal(next.status, 200);
        ok((next.body.sessions as unknown[]).length > 0);
      } finally {
        app.close();
      }
    },
  );
  await t.step("time budget → partial/timeout without a cursor", async () => {
    let clock = 0;
    const app = appFor(shared, "read-only", { clock: () => (clock += 40) });
    try {
      const r = await call(app, "GET", "/api/sessions/message-search?q=the");
      equal(r.body.state, "partial");
      equal(r.body.partial_reason, "timeout");
      equal(r.body.cursor, null);
    } finally {
      app.close();
    }
  });
  await t.step("a third concurrent search → 429", async () => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const app = appFor(shared, "read-only", { searchHook: () => gate });
    try {
      const a = call(app, "GET", "/api/sessions/message-search?q=the");
      const b = call(app, "GET", "/api/sessions/message-search?q=fix");
      await new Promise((r) => setTimeout(r, 10));
      const c = await call(app, "GET", "/api/sessions/message-search?q=port");
      isProblem(c.body, 429, "SRV-E003");
      release();
      equal((await a).status, 200);
      equal((await b).status, 200);
    } finally {
      app.close();
    }
  });
});

Deno.test("createApp() never logs the search query, even when a search fails", async () => {
  const dir = await Deno.makeTempDir();
  const indexPath = join(dir, "index.db");
  await Deno.writeTextFile(indexPath, "this is not a database");
  const lines: string[] = [];
  const app = createApp({
    memoryPath: join(dir, "none.db"),
    indexPath,
    auth: {
      allowApply: false,
      allowDestructive: false,
      actor: "human:console",
    },
    log: (l) => lines.push(l),
  });
  try {
    const r = await call(
      app,
      "GET",
      "/api/sessions/message-search?q=secret-query-words",
    );
    ok(r.status >= 500);
    ok(lines.length > 0, "the failure is reported");
    ok(lines.every((l) => !l.includes("secret-query-words")));
    const ok2 = createApp({
      memoryPath: shared.memoryPath,
      indexPath: shared.indexPath,
      auth: {
        allowApply: false,
        allowDestructive: false,
        actor: "human:console",
      },
      log: (l) => lines.push(l),
    });
    const before = lines.length;
    await call(ok2, "GET", "/api/sessions/message-search?q=private-words-here");
    equal(lines.length, before);
    ok2.close();
  } finally {
    app.close();
  }
});

Deno.test("GET /api/session/:harness/:id resolves locators to resolved, stale or unavailable", async (t) => {
  const app = appFor(shared, "read-only");
  try {
    const s = await call(app, "GET", "/api/sessions/message-search?q=the");
    const group = (s.body.sessions as Array<
      {
        source: string;
        session_id: string;
        hits: Array<
          { locate: string; seq: number; locator: Record<string, unknown> }
        >;
      }
    >)[0];
    ok(group);
    const hit = group.hits[0];
    ok(hit);
    const path = `/api/session/${group.source}/${
      encodeURIComponent(group.session_id)
    }`;
    await t.step("resolved: the page centers on the record", async () => {
      const r = await call(app, "GET", `${path}?locate=${hit.locate}`);
      equal(r.status, 200);
      const loc = r.body.locate as {
        state: string;
        entry_index: number;
        total_index: number;
        anchor: string;
      };
      equal(loc.state, "resolved");
      equal(loc.anchor, "exact");
      const entries = r.body.entries as Array<{ seq: number; index: number }>;
      equal(entries[loc.entry_index]?.seq, hit.seq);
      equal(entries[loc.entry_index]?.index, loc.total_index);
    });
    await t.step("the locator JSON itself is accepted too", async () => {
      const r = await call(
        app,
        "GET",
        `${path}?locate=${encodeURIComponent(JSON.stringify(hit.locator))}`,
      );
      equal((r.body.locate as { state: string }).state, "resolved");
    });
    await t.step("stale: the text changed", async () => {
      const stale = { ...hit.locator, hash: "0000000000000000" };
      const r = await call(
        app,
        "GET",
        `${path}?locate=${encodeURIComponent(JSON.stringify(stale))}`,
      );
      equal((r.body.locate as { state: string }).state, "stale");
      equal(r.body.offset, 0);
    });
    await t.step(
      "unavailable: no such record, or another session",
      async () => {
        const gone = { ...hit.locator, seq: 99999 };
        delete (gone as Record<string, unknown>).record_id;
        const r = await call(
          app,
          "GET",
          `${path}?locate=${encodeURIComponent(JSON.stringify(gone))}`,
        );
        equal((r.body.locate as { state: string }).state, "unavailable");
        const other = { ...hit.locator, session_id: "someone-else" };
        const r2 = await call(
          app,
          "GET",
          `${path}?locate=${encodeURIComponent(JSON.stringify(other))}`,
        );
        equal((r2.body.locate as { state: string }).state, "unavailable");
      },
    );
    await t.step(
      "an unknown harness filter is a 400 naming the valid ids",
      async () => {
        const r = await call(
          app,
          "GET",
          "/api/sessions/message-search?q=email&harness=nope",
        );
        isProblem(r.body, 400, "SRV-E006");
        match(
          String(r.body.detail),
          /Unknown harness "nope": use one of claude-code, codex,/,
        );
        const known = await call(
          app,
          "GET",
          "/api/sessions/message-search?q=email&harness=Codex",
        );
        equal(known.status, 200);
      },
    );
    await t.step("malformed → 400; unknown session → 404", async () => {
      isProblem(
        (await call(app, "GET", `${path}?locate=%7Bnope`)).body,
        400,
        "SRV-E006",
      );
      isProblem(
        (await call(app, "GET", "/api/session/codex/does-not-exist")).body,
        404,
        "QRY-E002",
      );
    });
    await t.step(
      "the harness is read in any case; an unknown one is a 400 naming the ids",
      async () => {
        const upper = await call(
          app,
          "GET",
          `/api/session/${group.source.toUpperCase()}/${
            encodeURIComponent(group.session_id)
          }`,
        );
        equal(upper.status, 200);
        const r = await call(app, "GET", "/api/session/nope/x");
        isProblem(r.body, 400, "SRV-E006");
        match(
          String(r.body.detail),
          /Unknown harness "nope": use one of claude-code, codex,/,
        );
      },
    );
  } finally {
    app.close();
  }
});

Deno.test("GET routes answer empty states when the stores do not exist yet", async () => {
  const dir = await Deno.makeTempDir();
  const app = createApp({
    memoryPath: join(dir, "memory.db"),
    indexPath: join(dir, "index.db"),
    auth: {
      allowApply: false,
      allowDestructive: false,
      actor: "human:console",
    },
  });
  try {
    const search = await call(
      app,
      "GET",
      "/api/sessions/message-search?q=anything",
    );
    // Nothing builds it: the console starts no index pass.
    equal(search.body.state, "empty");
    match(String(search.body.hint), /run deja index/);
    // While a pass holds the index lock, it is building.
    const lock = await Deno.open(join(dir, "index.db.lock"), {
      create: true,
      write: true,
    });
    try {
      await lock.lock(true);
      const building = await call(
        app,
        "GET",
        "/api/sessions/message-search?q=anything",
      );
      equal(building.body.state, "building");
      match(String(building.body.hint), /index pass is running/);
    } finally {
      lock.close();
    }
    // A harness typo is refused before the missing index is reported.
    const typo = await call(
      app,
      "GET",
      "/api/sessions/message-search?q=anything&harness=nope",
    );
    isProblem(typo.body, 400, "SRV-E006");
    const queue = await call(app, "GET", "/api/loop/recommendations");
    equal(queue.body.exists, false);
    match(String(queue.body.hint), /deja init/);
    const stats = await call(app, "GET", "/api/stats");
    equal((stats.body.index as { exists: boolean }).exists, false);
    const setup = await call(app, "GET", "/api/setup");
    const items = setup.body.items as Array<
      { id: string; ok: boolean; command: string }
    >;
    equal(items.find((i) => i.id === "index")?.ok, false);
    equal(
      items.find((i) => i.id === "memory")?.command,
      `deja init --db ${join(dir, "memory.db")} --template coding-agent`,
    );
    const detail = await call(app, "GET", "/api/loop/recommendation/abcd1234");
    isProblem(detail.body, 404, "SRV-E005");
    match(String(detail.body.hint), /deja init/);
  } finally {
    app.close();
  }
});

Deno.test("GET loop, memory, config and setup routes describe the demo file", async (t) => {
  const app = appFor(shared, "review");
  try {
    await t.step(
      "recommendation detail carries the literal proposal and a verified chain",
      async () => {
        const rec = await recOf(app, "deja.duplicate_sweep/1");
        const d = await call(
          app,
          "GET",
          `/api/loop/recommendation/${rec.hash}`,
        );
        match(String(d.body.proposal_text), /^SUPERSEDE /);
        equal(d.body.chain_verified, true);
        ok((d.body.evidence as unknown[]).length > 0);
        equal((d.body.actions as { review: boolean }).review, true);
      },
    );
    await t.step("analyzers: one card per built-in with params", async () => {
      const a = await call(app, "GET", "/api/loop/analyzers");
      const cards = a.body.analyzers as Array<
        { id: string; params: unknown[]; trust_class: string }
      >;
      equal(cards.length, 12);
      ok(
        cards.every((c) =>
          c.trust_class === "builtin" && Array.isArray(c.params)
        ),
      );
    });
    await t.step("health, config and setup", async () => {
      const h = await call(app, "GET", "/api/loop/health");
      ok((h.body.pending as number) > 0);
      const c = await call(app, "GET", "/api/config");
      equal((c.body.server as { mode: string }).mode, "review");
      equal((c.body.server as { actor: string }).actor, "human:reviewer");
      equal(
        (c.body.policy as { effective: { auto_apply_enabled: boolean } })
          .effective.auto_apply_enabled,
        false,
      );
      const s = await call(app, "GET", "/api/setup");
      const items = s.body.items as Array<
        { id: string; ok: boolean; command: string }
      >;
      equal(items.find((i) => i.id === "index")?.ok, true);
      equal(items.find((i) => i.id === "memory")?.ok, true);
      ok(items.every((i) => i.command.length > 0));
    });
    await t.step(
      "memories: browser, inspector, chain and citing recommendations",
      async () => {
        const g = await call(app, "GET", "/api/memory/grains?type=fact");
        const grains = g.body.grains as Array<{ hash: string; label: string }>;
        ok(grains.length > 0);
        const acme = grains.find((x) =>
          x.label.startsWith("acme deploy_target")
        );
        ok(acme);
        const one = await call(
          app,
          "GET",
          `/api/memory/grain/${acme.hash.slice(0, 10)}`,
        );
        equal(one.body.hash, acme.hash);
        // As short a prefix as the CLI takes is no malformed id.
        const short = await call(
          app,
          "GET",
          `/api/memory/grain/${acme.hash.slice(0, 2)}`,
        );
        ok(short.status !== 400, JSON.stringify(short.body));
        if (short.status === 200) equal(short.body.hash, acme.hash);
        ok((one.body.chain as unknown[]).length >= 1);
        ok((one.body.cited_by as unknown[]).length >= 1);
      },
    );
    await t.step(
      "grain and recommendation ids: malformed → 400, well-formed but unknown → 404",
      async () => {
        for (
          const route of ["/api/memory/grain/", "/api/loop/recommendation/"]
        ) {
          for (const bad of ["nothex", "zzzz", "a", "a".repeat(65)]) {
            const r = await call(app, "GET", `${route}${bad}`);
            isProblem(r.body, 400, "SRV-E006");
          }
          const unknown = await call(app, "GET", `${route}00000000`);
          equal(unknown.status, 404, `${route}: ${unknown.body.code}`);
        }
      },
    );
    await t.step("stats and sources", async () => {
      const s = await call(app, "GET", "/api/stats");
      ok(((s.body.index as { sessions: number }).sessions) > 0);
      const src = await call(app, "GET", "/api/sources");
      ok(
        (src.body.sources as Array<{ id: string }>).some((x) =>
          x.id === "codex"
        ),
      );
    });
  } finally {
    app.close();
  }
});

Deno.test("POST /api/loop/run stops at its time budget and names what it skipped", async () => {
  const f = await buildFixture();
  let clock = 0;
  const app = appFor(f, "review", {
    runBudgetMs: 0,
    clock: () => (clock += 1),
  });
  try {
    const r = await call(app, "POST", "/api/loop/run", {
      body: {},
      token: TOKEN,
    });
    equal(r.status, 200);
    const run = r.body.run as {
      completed: boolean;
      hint: string;
      analyzers_skipped: Array<{ reason: string }>;
    };
    equal(run.completed, false);
    ok(run.analyzers_skipped.some((s) => s.reason === "budget"));
    match(run.hint, /^deja loop run --db /);
  } finally {
    app.close();
  }
});

Deno.test("deja ui answers HEAD with the GET's headers and its body's Content-Length", async () => {
  const app = appFor(shared, "read-only");
  const server = await serveConsole(app, { port: 0 });
  try {
    for (const path of ["/", "/app.js", "/api/health", "/api/nope"]) {
      const get = await fetch(`${server.url}${path}`);
      const size = (await get.arrayBuffer()).byteLength;
      const head = await fetch(`${server.url}${path}`, { method: "HEAD" });
      await head.body?.cancel();
      equal(head.status, get.status, path);
      equal(head.headers.get("content-length"), String(size), path);
      equal(head.headers.get("content-type"), get.headers.get("content-type"));
    }
  } finally {
    await server.shutdown();
    app.close();
  }
});

Deno.test("createApp() serves the embedded console with ETags and 304s", async (t) => {
  const app = appFor(shared, "read-only");
  try {
    const files = [
      "/",
      "/style.css",
      "/app.js",
      "/dom.js",
      "/api.js",
      "/overview.js",
      "/memories.js",
      "/sessions.js",
      "/loop.js",
      "/setup.js",
    ];
    for (const path of files) {
      await t.step(path, async () => {
        const res = await app.request(`http://127.0.0.1${path}`);
        equal(res.status, 200);
        const etag = res.headers.get("etag");
        ok(etag);
        await res.arrayBuffer();
        const again = await app.request(`http://127.0.0.1${path}`, {
          headers: { "if-none-match": etag },
        });
        equal(again.status, 304);
      });
    }
    await t.step(
      "total size ≤ 250 KB",
      () => ok(consoleBytes() <= 250 * 1024, `${consoleBytes()} bytes`),
    );
  } finally {
    app.close();
  }
});

Deno.test("console/*.js never writes HTML from strings", async () => {
  const dir = new URL("../console/", import.meta.url);
  for await (const e of Deno.readDir(dir)) {
    if (!e.name.endsWith(".js") && !e.name.endsWith(".html")) continue;
    const text = await Deno.readTextFile(new URL(e.name, dir));
    for (
      const sink of [
        "innerHTML",
        "outerHTML",
        "insertAdjacentHTML",
        "document.write",
        "eval(",
        "new Function",
      ]
    ) {
      ok(!text.includes(sink), `${e.name} uses ${sink}`);
    }
    if (e.name.endsWith(".html")) {
      ok(
        !/<script>[^<]/.test(text) && !/ on[a-z]+=/.test(text),
        `${e.name} has inline script`,
      );
    }
  }
});

async function readUntil(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  pattern: RegExp,
): Promise<string> {
  const dec = new TextDecoder();
  let text = "";
  const deadline = Date.now() + 30_000;
  while (!pattern.test(text) && Date.now() < deadline) {
    const { value, done } = await reader.read();
    if (done) break;
    text += dec.decode(value);
  }
  return text;
}

Deno.test("deja ui serves the console from the README command and says its mode once", async (t) => {
  const main = fileURLToPath(new URL("../main.ts", import.meta.url));
  const start = async (args: string[], env: Record<string, string> = {}) => {
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        main,
        "ui",
        "--db",
        shared.memoryPath,
        "--port",
        "0",
        ...args,
      ],
      env: { DEJA_INDEX: shared.indexPath, HOME: shared.home, ...env },
      stdout: "null",
      stderr: "piped",
    }).spawn();
    const reader = child.stderr.getReader();
    const notice = await readUntil(reader, /refuses other Host names/);
    const url = /deja ui: (http:\/\/127\.0\.0\.1:\d+)/.exec(notice)?.[1];
    return { child, reader, notice, url };
  };
  await t.step("read-only", async () => {
    const { child, reader, notice, url } = await start([]);
    try {
      ok(url, notice);
      match(notice, /mode: read-only/);
      match(notice, /--token-env VAR/);
      const health = await (await fetch(`${url}/api/health`)).json();
      equal(health.mode, "read-only");
      const page = await fetch(`${url}/`);
      match(await page.text(), /<script type="module" src="\/app.js">/);
      const write = await fetch(`${url}/api/loop/run`, {
        method: "POST",
        body: "{}",
      });
      equal(write.status, 401);
      await write.body?.cancel();
      // fetch() will not send a foreign Host header; a raw request does.
      const conn = await Deno.connect({
        hostname: "127.0.0.1",
        port: Number(new URL(url).port),
      });
      await conn.write(
        new TextEncoder().encode(
          "GET /api/health HTTP/1.1\r\nHost: attacker.example\r\nConnection: close\r\n\r\n",
        ),
      );
      const raw = new TextDecoder().decode(
        await new Response(conn.readable).arrayBuffer(),
      );
      match(raw, /^HTTP\/1\.1 403/);
    } finally {
      child.kill("SIGTERM");
      await reader.cancel();
      equal((await child.status).code, 0);
    }
  });
  await t.step("token + --allow-apply", async () => {
    const { child, reader, notice, url } = await start([
      "--token-env",
      "DEJA_TOKEN",
      "--allow-apply",
    ], {
      DEJA_TOKEN: TOKEN,
    });
    try {
      ok(url, notice);
      match(notice, /mode: apply\./);
      match(notice, /\$DEJA_TOKEN/);
      ok(!notice.includes(TOKEN), "the notice never prints the token");
      const run = await fetch(`${url}/api/loop/run`, {
        method: "POST",
        headers: { authorization: `Bearer ${TOKEN}`, origin: url },
        body: "{}",
      });
      equal(run.status, 200);
      await run.body?.cancel();
    } finally {
      child.kill("SIGTERM");
      await reader.cancel();
      await child.status;
    }
  });
  await t.step("--allow-apply without a token is a usage error", async () => {
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        main,
        "ui",
        "--db",
        shared.memoryPath,
        "--allow-apply",
      ],
      env: { DEJA_INDEX: shared.indexPath },
      stdout: "null",
      stderr: "piped",
    }).output();
    equal(out.code, 64);
    match(
      new TextDecoder().decode(out.stderr),
      /--allow-apply needs --token-env/,
    );
  });
});

Deno.test("deja ui on a port in use fails with its own code, not the usage error's", async () => {
  using taken = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const io = captureIo({
    env: { DEJA_INDEX: shared.indexPath, HOME: shared.home },
    now: FIXTURE_NOW,
  });
  const code = await run(
    ["ui", "--db", shared.memoryPath, "--port", String(taken.addr.port)],
    io,
    { keepPermissions: true },
  );
  equal(code, 1, io.err());
  match(io.err(), /^error: Port \d+ is in use: .* \[SRV-E010\]\n$/);
});
