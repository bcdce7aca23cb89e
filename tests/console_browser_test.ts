/**
 * The console in a real browser: playwright-core driving Debian's chromium
 * (no browser download). Skips cleanly when no chromium binary exists.
 * Screenshots of every tab go to a temp dir; with UPDATE_SCREENSHOTS=1 they
 * also refresh docs/img/.
 */
import { equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, chromium, type Page } from "playwright-core";
import { type AppDeps, createApp, serveConsole } from "../src/server/mod.ts";
import {
  buildFixture,
  type ConsoleFixture,
  FIXTURE_NOW,
  HOSTILE,
} from "./_console_fixture.ts";

const CHROMIUM = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
].find((p) => {
  try {
    return Deno.statSync(p).isFile;
  } catch {
    return false;
  }
});
const TOKEN = "browser-test-token";
const DOCS_IMG = fileURLToPath(new URL("../docs/img/", import.meta.url));

type Mode = "read-only" | "review" | "apply";

interface Served {
  url: string;
  /** What the server answered, recorded at its edge. */
  seen: Array<
    { method: string; path: string; origin: string | null; status: number }
  >;
  close(): Promise<void>;
}

async function serve(
  f: ConsoleFixture,
  mode: Mode,
  extra: Partial<AppDeps> = {},
): Promise<Served> {
  const auth: AppDeps["auth"] = {
    allowApply: mode === "apply",
    allowDestructive: false,
    actor: "human:browser",
  };
  if (mode !== "read-only") {
    auth.token = TOKEN;
    auth.tokenEnv = "DEJA_TOKEN";
  }
  const app = createApp({
    memoryPath: f.memoryPath,
    indexPath: f.indexPath,
    auth,
    now: () => FIXTURE_NOW,
    // What the page shows, not how fast a loaded CI machine answers: the
    // first search of a fresh server can pass the 150 ms budget there and
    // come back partial (the budget's own step sets it back).
    searchBudgets: { timeMs: 10_000 },
    ...extra,
  });
  const seen: Served["seen"] = [];
  const recorded = {
    ...app,
    listening: (port: number) => app.listening(port),
    fetch: async (req: Request) => {
      const res = await app.fetch(req);
      seen.push({
        method: req.method,
        path: new URL(req.url).pathname,
        origin: req.headers.get("origin"),
        status: res.status,
      });
      return res;
    },
  };
  const server = await serveConsole(recorded, { port: 0 });
  return {
    url: server.url,
    seen,
    close: async () => {
      await server.shutdown();
      app.close();
    },
  };
}

async function shot(page: Page, dir: string, name: string): Promise<void> {
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: false });
  if (Deno.env.get("UPDATE_SCREENSHOTS") === "1") {
    await Deno.mkdir(DOCS_IMG, { recursive: true });
    await Deno.copyFile(
      join(dir, `${name}.png`),
      join(DOCS_IMG, `console-${name}.png`),
    );
  }
}

async function signIn(page: Page, token = TOKEN): Promise<void> {
  await page.click("#signin");
  await page.fill("#signin-dialog input", token);
  await page.click('#signin-dialog button[value="ok"]');
  await page.waitForSelector("#signin:has-text('Signed in')");
}

async function openRec(
  page: Page,
  url: string,
  summary: RegExp,
): Promise<string> {
  await page.goto(`${url}/?tab=loop&status=all`);
  const row = page.locator("table.queue tbody tr", { hasText: summary })
    .first();
  await row.waitFor();
  const hash = await row.getAttribute("data-hash");
  ok(hash);
  await row.click();
  await page.waitForSelector(".fact-head");
  return hash;
}

async function decide(
  page: Page,
  button: string,
  reason: string,
  status: string,
): Promise<void> {
  await page.fill("#because", reason);
  await page.click(button);
  await page.waitForSelector(`.fact-head .badge:text-is("${status}")`);
}

Deno.test({
  name: CHROMIUM
    ? "console in chromium"
    : "console in chromium (skipped: no chromium binary found)",
  ignore: !CHROMIUM,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const shots = await Deno.makeTempDir({ prefix: "deja-console-shots-" });
    Deno.stderr.writeSync(new TextEncoder().encode(`screenshots: ${shots}\n`));
    // Chromium writes a profile under HOME: keep it out of the real one.
    const browserHome = await Deno.makeTempDir({ prefix: "deja-chromium-" });
    const browser: Browser = await chromium.launch({
      executablePath: CHROMIUM as string,
      headless: true,
      env: {
        ...Deno.env.toObject(),
        HOME: browserHome,
        XDG_CONFIG_HOME: `${browserHome}/.config`,
        XDG_CACHE_HOME: `${browserHome}/.cache`,
      },
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
      ],
    });
    /**
     * A console served over a fresh fixture and a page of the browser on it,
     * both closed after `use`.
     */
    const onPage = async (
      mode: Mode,
      use: (page: Page, served: Served, f: ConsoleFixture) => Promise<void>,
      viewport = { width: 1360, height: 900 },
    ): Promise<void> => {
      const f = await buildFixture();
      const served = await serve(f, mode);
      const page = await browser.newPage({ viewport });
      page.setDefaultTimeout(20_000);
      try {
        await use(page, served, f);
      } finally {
        await page.close();
        await served.close();
      }
    };
    try {
      await t.step(
        "search → open hit → approve → apply → rollback",
        () =>
          onPage("apply", async (page, served) => {
            await page.goto(`${served.url}/?tab=sessions&q=email`);
            const hit = page.locator(".group .hit").first();
            await hit.waitFor();
            await hit.click();
            const located = page.locator(".entry.located");
            await located.waitFor();
            match((await located.textContent()) ?? "", /email/i);
            ok(
              await located.locator("mark").count() > 0,
              "the hit is highlighted in the reader",
            );
            ok(
              await page.locator(".entry.superseded").count() > 0,
              "records a rollback made inactive are marked",
            );
            match(page.url(), /locate=/);
            await shot(page, shots, "sessions");

            await signIn(page);
            await openRec(page, served.url, /acme" holds 2 live values/);
            await shot(page, shots, "detail");
            await page.click("#dryrun");
            await page.waitForSelector("table.effects");
            await decide(
              page,
              "#approve",
              "eu-west-1 is the live region",
              "approved",
            );
            await decide(
              page,
              "#apply",
              "resolve to the latest value",
              "applied",
            );
            await decide(
              page,
              "#rollback",
              "us-east-1 still serves traffic",
              "rolled back",
            );
            equal(await page.locator(".timeline li").count(), 4);
            match(
              (await page.locator('.timeline li[data-to="rolled_back"]')
                .textContent()) ?? "",
              /reverted: [0-9a-f]{12}/,
              "the rollback step names what it reverted, not what it wrote",
            );
            await page.waitForSelector('.badge:text-is("chain verified")');
            await shot(page, shots, "detail-audit");
          }),
      );

      await t.step(
        "read-only mode refuses writes; review mode refuses apply; other origins get 403",
        async () => {
          const f = await buildFixture();
          const ro = await serve(f, "read-only");
          const review = await serve(f, "review");
          const page = await browser.newPage({
            viewport: { width: 1360, height: 900 },
          });
          page.setDefaultTimeout(20_000);
          try {
            await openRec(page, ro.url, /acme" holds 2 live values/);
            ok(await page.locator("#approve").isDisabled());
            ok(await page.locator("#apply").isDisabled());
            match(
              (await page.locator("#banner").textContent()) ?? "",
              /--token-env/,
            );
            match(
              (await page.locator(".card .notice").first().textContent()) ?? "",
              /--token-env/,
            );
            // A write from the page: 401 with a Basic challenge. A context
            // with credentials answers the challenge (a bare headless page
            // would wait on the browser's native prompt forever).
            const context = await browser.newContext({
              httpCredentials: { username: "me", password: "guess" },
            });
            const probe = await context.newPage();
            probe.setDefaultTimeout(20_000);
            await probe.goto(`${ro.url}/?tab=setup`);
            const [status, challenge] = await probe.evaluate(async () => {
              const r = await fetch("/api/loop/run", {
                method: "POST",
                headers: { "content-type": "application/json" },
                body: "{}",
              });
              return [r.status, r.headers.get("www-authenticate")];
            });
            await context.close();
            equal(status, 401);
            match(String(challenge), /^Basic/);
            ok(await page.locator("#signin").isHidden());

            // Review mode: approve works, apply stays off with the hint.
            const hash = await openRec(
              page,
              review.url,
              /acme" holds 2 live values/,
            );
            await signIn(page);
            await decide(page, "#approve", "checked the regions", "approved");
            ok(await page.locator("#apply").isDisabled());
            match(
              (await page.locator(".card .notice").first().textContent()) ?? "",
              /--allow-apply/,
            );

            // A page on another origin (the read-only server's port) posting to the review server.
            // The attacker page is served from another loopback port (an
            // address-space match, so Chromium's local-network checks let the
            // request out); the browser sends its real Origin. Our own pages
            // could not even try: their CSP limits connect-src to 'self'.
            const attacker = await serveConsole({
              fetch: () =>
                new Response("<!doctype html><title>another site</title>", {
                  headers: { "content-type": "text/html" },
                }),
              request: () => Promise.reject(new Error("unused")),
              mode: "read-only",
              listening: () => {},
              close: () => {},
            }, { port: 0 });
            const evil = attacker.url;
            await page.goto(`${evil}/`);
            const target = `${review.url}/api/loop/review`;
            const failed = await page.evaluate(
              async ([url, h]: [string, string]) => {
                try {
                  await fetch(url, {
                    method: "POST",
                    headers: { "content-type": "text/plain" },
                    body: JSON.stringify({
                      hash: h,
                      decision: "reject",
                      because: "csrf",
                    }),
                  });
                  return false;
                } catch {
                  return true;
                }
              },
              [target, hash] as [string, string],
            );
            ok(failed, "the browser gets no readable answer");
            const seen = review.seen.find((x) =>
              x.method === "POST" && x.path === "/api/loop/review" &&
              x.origin === evil
            );
            await attacker.shutdown();
            equal(seen?.status, 403, JSON.stringify(review.seen.slice(-3)));
            const check = await fetch(
              `${review.url}/api/loop/recommendation/${hash}`,
            );
            equal((await check.json()).status, "approved");
          } finally {
            await page.close();
            await ro.close();
            await review.close();
          }
        },
      );

      await t.step(
        "keyboard: j/k move through the queue, Enter opens, / focuses search",
        () =>
          onPage("read-only", async (page, served) => {
            await page.goto(`${served.url}/?tab=loop`);
            const rows = page.locator("table.queue tbody tr");
            await rows.first().waitFor();
            await shot(page, shots, "queue");
            await page.keyboard.press("j");
            await page.keyboard.press("j");
            equal(await rows.nth(2).getAttribute("aria-selected"), "true");
            await page.keyboard.press("k");
            equal(await rows.nth(1).getAttribute("aria-selected"), "true");
            const hash = await rows.nth(1).getAttribute("data-hash");
            await page.keyboard.press("Enter");
            await page.waitForSelector(".fact-head");
            match(page.url(), new RegExp(`rec=${hash}`));
            await page.goto(`${served.url}/?tab=loop&rec=${hash}`);
            await page.waitForSelector('.badge:text-is("chain verified")');
            await page.goto(`${served.url}/?tab=sessions`);
            await page.waitForSelector("#search");
            await page.locator("h1").click();
            await page.keyboard.press("/");
            equal(await page.evaluate("document.activeElement?.id"), "search");

            const tabs: Array<[string, string]> = [
              ["overview", "overview"],
              ["memories", "memories"],
              ["loop&view=analyzers", "analyzers"],
              ["loop&view=outcomes", "outcomes"],
              ["setup", "setup"],
            ];
            for (const [tab, name] of tabs) {
              await page.goto(`${served.url}/?tab=${tab}`);
              await page.waitForSelector("main h1");
              await page.waitForLoadState("networkidle");
              if (name === "memories") {
                await page.locator("table.grains tbody tr").first().click();
                await page.waitForSelector(".drawer h2");
              }
              await shot(page, shots, name);
            }
            await page.goto(`${served.url}/?tab=overview`);
            await page.click("#theme");
            await page.waitForLoadState("networkidle");
            equal(
              await page.evaluate("document.documentElement.dataset.theme"),
              "dark",
            );
            await shot(page, shots, "overview-dark");
          }),
      );

      await t.step(
        "no index: the sessions tab says nothing is indexed, and building only while a pass runs",
        async () => {
          const dir = await Deno.makeTempDir({ prefix: "deja-console-empty-" });
          const indexPath = join(dir, "index.db");
          const served = await serve({
            dir,
            home: dir,
            indexPath,
            memoryPath: join(dir, "memory.db"),
          }, "read-only");
          const page = await browser.newPage({
            viewport: { width: 1360, height: 900 },
          });
          page.setDefaultTimeout(20_000);
          try {
            await page.goto(`${served.url}/?tab=sessions&q=email`);
            const empty = page.locator(".results .empty h3");
            await empty.waitFor();
            equal(await empty.textContent(), "Nothing is indexed yet");
            match(
              (await page.locator(".results .empty").textContent()) ?? "",
              /deja index/,
            );
            const lock = await Deno.open(`${indexPath}.lock`, {
              create: true,
              write: true,
            });
            try {
              await lock.lock(true);
              await page.reload();
              await page.locator(".results .empty h3", {
                hasText: "The index is being built",
              }).waitFor();
            } finally {
              lock.close();
            }
          } finally {
            await page.close();
            await served.close();
          }
        },
      );

      await t.step(
        "times read in the browser's zone: date and clock agree",
        async () => {
          const f = await buildFixture();
          const served = await serve(f, "read-only");
          // UTC-8: 03:30 UTC on the 21st is 19:30 on the 20th here.
          const context = await browser.newContext({
            viewport: { width: 1360, height: 900 },
            timezoneId: "America/Los_Angeles",
          });
          const page = await context.newPage();
          page.setDefaultTimeout(20_000);
          try {
            await page.goto(`${served.url}/?tab=sessions&q=email`);
            await page.locator(".group .hit").first().waitFor();
            const shown = await page.evaluate(async () => {
              const dom = await import("/dom.js");
              return dom.when(Date.UTC(2026, 10, 21, 3, 30));
            });
            equal(shown, "2026-11-20 19:30");
          } finally {
            await context.close();
            await served.close();
          }
        },
      );

      await t.step(
        "a command offered for copying quotes what the query holds",
        () =>
          onPage("read-only", async (page, served) => {
            // A link someone sent: the no-match hint must not run `touch`.
            const q = "zzq$(touch${IFS}pwned) it's";
            await page.goto(
              `${served.url}/?tab=sessions&q=${encodeURIComponent(q)}`,
            );
            const code = page.locator(".results .empty .cmd code");
            await code.waitFor();
            equal(
              await code.textContent(),
              "deja search 'zzq$(touch${IFS}pwned)' 'it'\\''s' --role tool-output",
            );
            // The filter words go along: the CLI searches what the box did.
            await page.goto(
              `${served.url}/?tab=sessions&q=${
                encodeURIComponent("codex:zzq in:api week")
              }`,
            );
            await page.locator(".results .empty .cmd code").waitFor();
            equal(
              await page.locator(".results .empty .cmd code").textContent(),
              "deja search zzq --harness codex --project api --since 7d --role tool-output",
            );
          }),
      );

      await t.step(
        "a stopped server is named, not 'Failed to fetch'",
        async () => {
          const f = await buildFixture();
          const served = await serve(f, "read-only");
          const page = await browser.newPage({
            viewport: { width: 1360, height: 900 },
          });
          page.setDefaultTimeout(20_000);
          try {
            await page.goto(`${served.url}/?tab=sessions&q=email`);
            await page.locator(".group .hit").first().waitFor();
            await served.close();
            await page.fill("#search", "timeout");
            await page.press("#search", "Enter");
            const status = page.locator(".status .error");
            await status.waitFor();
            match(
              (await status.textContent()) ?? "",
              /does not answer: is deja ui still running\?/,
            );
            await page.click('#tabs button[data-tab="loop"]');
            await page.locator("main .empty.error").waitFor();
            match(
              (await page.locator("main .empty.error").textContent()) ?? "",
              /does not answer/,
            );
          } finally {
            await page.close();
          }
        },
      );

      await t.step(
        "a phone-width page never scrolls sideways: wide tables scroll alone",
        () =>
          onPage("read-only", async (page, served) => {
            for (
              const [view, table] of [
                ["tab=loop", "table.queue"],
                ["tab=loop&view=outcomes", "table.outcomes"],
                ["tab=setup", "main table"],
              ] as const
            ) {
              await page.goto(`${served.url}/?${view}`);
              await page.locator(table).first().waitFor();
              equal(
                await page.evaluate("document.documentElement.scrollWidth"),
                375,
                `${view} fits the screen`,
              );
            }
          }, { width: 375, height: 740 }),
      );

      await t.step(
        "Sign in checks the token: a wrong one is named and not kept, the right one signs in",
        async () => {
          const f = await buildFixture();
          const served = await serve(f, "review");
          const page = await browser.newPage({
            viewport: { width: 1360, height: 900 },
          });
          page.setDefaultTimeout(20_000);
          const message = page.locator("#signin-error");
          const submit = async (token: string) => {
            await page.fill("#signin-dialog input", token);
            await page.click('#signin-dialog button[value="ok"]');
          };
          try {
            await page.goto(`${served.url}/?tab=loop`);
            await page.waitForSelector("#signin:has-text('Sign in')");
            await page.click("#signin");
            await submit("not-the-token");
            await message.waitFor();
            equal(
              await message.textContent(),
              "That token does not open writes: it is not the one in $DEJA_TOKEN",
            );
            ok(await page.locator("#signin-dialog").isVisible(), "stays open");
            equal(await page.locator("#signin").textContent(), "Sign in");
            equal(
              await page.evaluate("sessionStorage.getItem('deja-token')"),
              null,
            );
            equal(
              served.seen.filter((x) => x.path === "/api/auth/check")
                .map((x) => x.status).join(),
              "401",
            );

            // Enter in the field signs in (the dialog's default button).
            await page.fill("#signin-dialog input", TOKEN);
            await page.press("#signin-dialog input", "Enter");
            await page.waitForSelector("#signin:has-text('Signed in')");
            ok(await page.locator("#signin-dialog").isHidden());
            await page.locator("#toast .toast", { hasText: /^Signed in/ })
              .waitFor();
            equal(
              await page.evaluate("sessionStorage.getItem('deja-token')"),
              TOKEN,
            );

            // Opened again, the dialog forgets the last attempt's message.
            await page.click("#signin");
            ok(await message.isHidden());
            // A stopped server is named; the kept token stays.
            await served.close();
            await submit("another-token");
            await message.filter({ hasText: /does not answer/ }).waitFor();
            await page.click('#signin-dialog button[value="cancel"]');
            equal(await page.locator("#signin").textContent(), "Signed in");
          } finally {
            await page.close();
          }
        },
      );

      await t.step(
        "a write the kept token does not open signs the tab out",
        () =>
          onPage("review", async (page, served) => {
            // A token kept before the server restarted with another one.
            await page.goto(`${served.url}/?tab=loop`);
            await page.evaluate(() =>
              sessionStorage.setItem("deja-token", "not-the-token")
            );
            await page.reload();
            await page.waitForSelector("#signin:has-text('Signed in')");
            await openRec(page, served.url, /acme" holds 2 live values/);
            await page.fill("#because", "eu-west-1 is the live region");
            await page.click("#approve");
            await page.locator("p.error", { hasText: /^401: / }).waitFor();
            await page.waitForSelector("#signin:has-text('Sign in')");
            equal(
              await page.evaluate("sessionStorage.getItem('deja-token')"),
              null,
            );
          }),
      );

      await t.step(
        "a write the browser's Basic prompt opened says Signed in",
        async () => {
          const f = await buildFixture();
          const served = await serve(f, "review");
          // The context answers the Basic challenge as a user typing the
          // token into the browser's own prompt would.
          const context = await browser.newContext({
            viewport: { width: 1360, height: 900 },
            httpCredentials: { username: "me", password: TOKEN },
          });
          const page = await context.newPage();
          page.setDefaultTimeout(20_000);
          try {
            await page.goto(`${served.url}/?tab=loop`);
            await page.waitForSelector("#signin:has-text('Sign in')");
            await openRec(page, served.url, /acme" holds 2 live values/);
            await decide(page, "#approve", "checked the regions", "approved");
            await page.waitForSelector("#signin:has-text('Signed in')");
            match(
              (await page.locator("#signin").getAttribute("title")) ?? "",
              /browser's login prompt/,
            );
            await page.reload();
            await page.waitForSelector("#signin:has-text('Signed in')");
            // A dry run is a read: it proves nothing about credentials.
            const fresh = await browser.newPage();
            await fresh.goto(`${served.url}/?tab=loop`);
            const row = fresh.locator("table.queue tbody tr").first();
            await row.click();
            await fresh.click("#dryrun");
            await fresh.waitForSelector("table.effects");
            equal(await fresh.locator("#signin").textContent(), "Sign in");
            // An empty token signs out of a kept token.
            await signIn(fresh);
            await fresh.click("#signin");
            await fresh.click('#signin-dialog button[value="ok"]');
            await fresh.waitForSelector("#signin:has-text('Sign in')");
            await fresh.close();
          } finally {
            await context.close();
            await served.close();
          }
        },
      );

      await t.step(
        "Back closes the session a hit opened; Forward reopens it",
        () =>
          onPage("read-only", async (page, served) => {
            await page.goto(`${served.url}/?tab=overview`);
            await page.goto(`${served.url}/?tab=sessions&q=email`);
            const hit = page.locator(".group .hit").first();
            await hit.waitFor();
            await hit.click();
            await page.locator(".entry.located").waitFor();
            await page.goBack();
            await page.locator(".group .hit").first().waitFor();
            match(page.url(), /tab=sessions&q=email$/);
            ok(await page.locator(".reader").isHidden(), "the reader closed");
            await page.goForward();
            await page.locator(".entry.located").waitFor();
            match(page.url(), /open=.*locate=/);
          }),
      );

      await t.step(
        "a search cut short by its time budget never claims no match",
        async () => {
          const f = await buildFixture();
          // Each clock read is a second: the 150 ms budget runs out at once.
          let clock = 0;
          const served = await serve(f, "read-only", {
            clock: () => (clock += 1000),
            searchBudgets: { timeMs: 150 },
          });
          const page = await browser.newPage({
            viewport: { width: 1360, height: 900 },
          });
          page.setDefaultTimeout(20_000);
          try {
            await page.goto(`${served.url}/?tab=sessions&q=email`);
            await page.locator(".status .notice", { hasText: /Partial/ })
              .waitFor();
            equal(await page.locator(".results .group").count(), 0);
            equal(
              await page.locator(".results", { hasText: "No message matches" })
                .count(),
              0,
            );
          } finally {
            await page.close();
            await served.close();
          }
        },
      );

      await t.step(
        "hostile strings render literally and run nothing",
        async () => {
          const f = await buildFixture({ hostile: true });
          const served = await serve(f, "read-only");
          const page = await browser.newPage({
            viewport: { width: 1360, height: 900 },
          });
          page.setDefaultTimeout(20_000);
          const dialogs: string[] = [];
          page.on("dialog", (d) => {
            dialogs.push(d.message());
            d.dismiss();
          });
          try {
            await page.goto(`${served.url}/?tab=sessions&q=${HOSTILE.marker}`);
            const hit = page.locator(".group .hit").first();
            await hit.waitFor();
            const groupText = (await page.locator(".results").textContent()) ??
              "";
            ok(
              groupText.includes(HOSTILE.img),
              "the title shows the <img> tag as text",
            );
            await hit.click();
            await page.locator(".entry.located").waitFor();
            const reader = (await page.locator(".reader").textContent()) ?? "";
            ok(reader.includes(HOSTILE.img));
            ok(reader.includes(HOSTILE.script));
            ok(
              reader.includes("\u27e8U+202E\u27e9gnp.exe\u27e8U+202C\u27e9"),
              "bidi overrides are shown, not obeyed",
            );
            ok(reader.includes("\u2407"), "a BEL shows as ␇");
            await shot(page, shots, "hostile-session");

            await page.goto(
              `${served.url}/?tab=memories&type=observation&mq=${HOSTILE.marker}`,
            );
            const row = page.locator("table.grains tbody tr").first();
            await row.waitFor();
            await row.click();
            await page.waitForSelector(".drawer h2");
            const drawer = (await page.locator(".drawer").textContent()) ?? "";
            ok(drawer.includes(HOSTILE.img));
            ok(
              drawer.includes("\u241b[31mRED"),
              "a terminal escape shows as ␛",
            );

            await openRec(page, served.url, new RegExp(HOSTILE.marker));
            const head = (await page.locator(".fact-head").textContent()) ?? "";
            ok(head.includes(HOSTILE.script));
            const proposal =
              (await page.locator("pre.proposal").textContent()) ?? "";
            ok(proposal.includes("onerror"));

            equal(await page.evaluate("window.__xss"), undefined);
            equal(await page.locator("main img, main script").count(), 0);
            equal(dialogs.length, 0);
          } finally {
            await page.close();
            await served.close();
          }
        },
      );
    } finally {
      await browser.close();
      await Deno.remove(browserHome, { recursive: true }).catch(() => {});
    }
  },
});
