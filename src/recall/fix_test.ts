import { equal, ok } from "node:assert/strict";
import type { FileKind, Harness } from "../core/harness.ts";
import type { Session, SessionRecord } from "../core/types.ts";
import { indexStores } from "../index/index_stores.ts";
import { openIndex } from "../index/schema.ts";
import { errorLine, fixFor } from "./fix.ts";

const START = Date.UTC(2026, 9, 2, 14);

type Step = Omit<SessionRecord, "seq" | "locator" | "time">;

/** A harness reading our own JSON files: each holds one session's steps. */
function stepsHarness(dir: string): Harness {
  const kind: FileKind = {
    id: "steps",
    appendOnly: false,
    match: (p) => p.endsWith(".json"),
    async parse(path) {
      const steps = JSON.parse(await Deno.readTextFile(path)) as Step[];
      const id = path.slice(path.lastIndexOf("/") + 1, -".json".length);
      const records = steps.map((s, seq): SessionRecord => ({
        ...s,
        seq,
        time: START + seq * 10_000,
        locator: { path, line: seq + 1 },
      }));
      const session: Session = {
        harness: "steps",
        id,
        project: "shop-web",
        path,
        title: steps[0]?.text ?? "",
        started: START,
        updated: START + steps.length * 10_000,
        records,
        marks: [],
      };
      return { sessions: [session], skipped: 0 };
    },
  };
  return {
    id: "steps",
    name: "Steps",
    format: "json",
    envOverrides: [],
    roots: () => [dir],
    async discover() {
      const files: string[] = [];
      for await (const e of Deno.readDir(dir)) {
        if (e.isFile) files.push(`${dir}/${e.name}`);
      }
      return files;
    },
    kinds: [kind],
    docs: { store: "", extracts: "", omits: "", verified: "" },
  };
}

async function withSessions(
  sessions: Record<string, Step[]>,
  fn: (db: ReturnType<typeof openIndex>) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "deja-fix-" });
  try {
    await Deno.mkdir(`${dir}/store`);
    for (const [id, steps] of Object.entries(sessions)) {
      await Deno.writeTextFile(
        `${dir}/store/${id}.json`,
        JSON.stringify(steps),
      );
    }
    const path = `${dir}/index.db`;
    await indexStores({
      indexPath: path,
      harnesses: [stepsHarness(`${dir}/store`)],
      source: { home: dir, env: {}, os: "linux" },
      now: () => START + 86_400_000,
    });
    const db = openIndex(path, { readOnly: true });
    try {
      await fn(db);
    } finally {
      db.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("fixFor() quotes the line that errs, not the npm script echo that shares its words", async () => {
  const e2e = "npm run test:e2e";
  await withSessions({
    "e2e-config": [
      { role: "user", text: "the end to end run is broken again" },
      { role: "command", text: e2e, tool: "Bash", exitCode: 1 },
      {
        role: "tool-output",
        tool: "Bash",
        flags: { isError: true },
        text: [
          "> shop-web@2.1.0 test:e2e",
          "> cross-env NODE_PATH=./node_modules playwright test",
          "",
          "ReferenceError: __filename is not defined in ES module scope",
          "    at file:///srv/shop-web/e2e/config.ts:3:9",
        ].join("\n"),
      },
      {
        role: "edit",
        tool: "Edit",
        text: "/srv/shop-web/e2e/config.ts\nconst here = __filename;",
      },
      { role: "command", text: e2e, tool: "Bash", exitCode: 0 },
      { role: "tool-output", tool: "Bash", text: "12 passed (9.1s)" },
      {
        role: "assistant",
        text:
          "The config used __filename, which ES modules lack; it now reads import.meta.url and the suite passes now.",
      },
    ],
  }, async (db) => {
    const result = await fixFor(db, "Cannot find module '@playwright/test'");
    const pair = result.pairs[0];
    ok(pair, result.why);
    equal(
      pair.error,
      "ReferenceError: __filename is not defined in ES module scope",
    );
    equal(pair.verified, e2e);
  });
});

Deno.test("errorLine() finds an error named by its class", async (t) => {
  const cases: Array<[string, string, string]> = [
    [
      "ReferenceError",
      "> web@1.0.0 build\n> vite build\n\nReferenceError: window is not defined",
      "ReferenceError: window is not defined",
    ],
    [
      "ModuleNotFoundError",
      "Traceback (most recent call last):\nModuleNotFoundError: No module named 'yaml'",
      "Traceback (most recent call last):",
    ],
    [
      "IOException",
      "BUILD started\njava.io.IOException: Stream closed",
      "java.io.IOException: Stream closed",
    ],
  ];
  for (const [name, text, want] of cases) {
    await t.step(name, () => equal(errorLine(text), want));
  }
});
