import { deepEqual, equal, ok, throws } from "node:assert/strict";
import { START, withSessions } from "./_test_kit.ts";
import { UsageError } from "../core/errors.ts";
import { blame, parseBlameTarget } from "./blame.ts";

Deno.test("blame() quotes the sentence about the file, not a bare 'Done.' before it", async () => {
  await withSessions({
    "cart-badge": [
      { role: "user", text: "show the item count on the cart icon" },
      {
        role: "edit",
        tool: "Edit",
        text: '/srv/shop-web/src/CartIcon.tsx\nreturn <Icon name="cart" />;',
      },
      {
        role: "assistant",
        text:
          "Done. Added a count badge to CartIcon.tsx that hides at zero. Build succeeded.",
      },
    ],
  }, async (db) => {
    const result = await blame(db, "CartIcon.tsx", {
      cwd: "/srv/shop-web/src",
      now: START + 86_400_000,
    });
    const entry = result.entries[0];
    ok(entry, result.why);
    equal(
      entry.decision,
      "Added a count badge to CartIcon.tsx that hides at zero.",
    );
  });
});

Deno.test("blame() leaves out a file of the same name in another folder", async () => {
  await withSessions({
    "server-entry": [
      { role: "user", text: "stop serving static files from the api" },
      {
        role: "edit",
        tool: "Edit",
        text:
          "/srv/shop/server/src/index.ts\n// app.use(express.static(dist));",
      },
    ],
    "library-entry": [
      { role: "user", text: "export the helpers from the package" },
      {
        role: "edit",
        tool: "Edit",
        text:
          "C:\\code\\packages\\module\\es\\src\\index.ts\nexport * from './fp';",
      },
      {
        role: "assistant",
        text: "Also see src/app/settings/index.ts for the settings page.",
      },
    ],
  }, async (db) => {
    const result = await blame(db, "server/src/index.ts", {
      cwd: "/srv/shop",
      now: START + 86_400_000,
    });
    deepEqual(result.entries.map((e) => e.edited), [true]);
    ok(result.entries[0]?.fullPath);
  });
});

Deno.test("blame() labels a sentence that decides nothing as said, not decided", async (t) => {
  const cases: Array<
    { name: string; reply: string; quote: string; kind: "decided" | "said" }
  > = [
    {
      name: "a plain closing turn",
      reply: "Excellent! Now let me read the configuration files.",
      quote: "Now let me read the configuration files.",
      kind: "said",
    },
    {
      name: "a stated decision",
      reply: "We decided to keep the retry loop in the fetcher.",
      quote: "We decided to keep the retry loop in the fetcher.",
      kind: "decided",
    },
  ];
  for (const c of cases) {
    await t.step(c.name, async () => {
      await withSessions({
        "retry-work": [
          { role: "user", text: "look at the fetcher" },
          {
            role: "edit",
            tool: "Edit",
            text: "/srv/crawler/src/fetcher.ts\nconst tries = 3;",
          },
          { role: "assistant", text: c.reply },
        ],
      }, async (db) => {
        const result = await blame(db, "fetcher.ts", {
          cwd: "/srv/crawler/src",
          now: START + 86_400_000,
        });
        const entry = result.entries[0];
        ok(entry, result.why);
        equal(entry.decision, c.quote);
        equal(entry.decisionKind, c.kind);
      });
    });
  }
});

Deno.test("blame() quotes the latest word on the file, not a decision the session came back to", async () => {
  await withSessions({
    "dev-box": [
      { role: "user", text: "start the dev container" },
      {
        role: "assistant",
        text:
          "Nothing starts from devcontainer.json yet because Docker Desktop is not installed.",
      },
      { role: "user", text: "docker is installed now" },
      {
        role: "edit",
        tool: "Edit",
        text: '/srv/dash/.devcontainer/devcontainer.json\n"image": "node:22"',
      },
      {
        role: "assistant",
        text:
          "Gave devcontainer.json a base image; the container builds and the dev server runs.",
      },
    ],
  }, async (db) => {
    const result = await blame(db, ".devcontainer/devcontainer.json", {
      cwd: "/srv/dash",
      now: START + 86_400_000,
    });
    const entry = result.entries[0];
    ok(entry, result.why);
    equal(
      entry.decision,
      "Gave devcontainer.json a base image; the container builds and the dev server runs.",
    );
    equal(entry.decisionKind, "said");
  });
});

Deno.test("parseBlameTarget() splits path:line and refuses a line that cannot exist", () => {
  deepEqual(parseBlameTarget("src/a.ts"), { file: "src/a.ts" });
  deepEqual(parseBlameTarget("src/a.ts:12"), { file: "src/a.ts", line: 12 });
  deepEqual(parseBlameTarget("C:/x.ts"), { file: "C:/x.ts" });
  throws(() => parseBlameTarget("src/a.ts:0"), UsageError);
  throws(() => parseBlameTarget("src/a.ts:9007199254740992"), UsageError);
});

Deno.test("parseBlameTarget() refuses a directory and a name too short to find", () => {
  for (const raw of ["a/", "/a/a/", "src\\", ".", "src/..", "a", "/x/y/b:4"]) {
    throws(() => parseBlameTarget(raw), UsageError, raw);
  }
  deepEqual(parseBlameTarget("src/ab"), { file: "src/ab" });
});

Deno.test("parseBlameTarget() takes path:line:column as compilers and stack traces print it", () => {
  deepEqual(parseBlameTarget("src/a.ts:12:5"), { file: "src/a.ts", line: 12 });
  throws(() => parseBlameTarget("src/a.ts:0:5"), UsageError);
});
