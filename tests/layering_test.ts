import { deepEqual as assertEquals, ok } from "node:assert/strict";
import { walkFiles } from "../src/core/harness.ts";
import { relative } from "node:path";
import { fileURLToPath as fromFileUrl } from "node:url";
import { V8_FLAGS } from "../src/recall/refresh.ts";

const root = fromFileUrl(new URL("..", import.meta.url));

/** Which top-level folders of src/ each folder may import from. */
const ALLOWED: Record<string, readonly string[]> = {
  core: ["core"],
  redact: ["core", "redact"],
  sources: ["core", "sources"],
  index: ["core", "redact", "index"],
  search: ["core", "index", "search"],
  memory: ["core", "index", "redact", "memory"],
  loop: ["core", "index", "search", "memory", "loop"],
  recall: ["core", "index", "search", "memory", "redact", "sources", "recall"],
  mcp: ["*"],
  server: ["*"],
  hooks: ["*"],
  install: ["*"],
};

async function importsOf(path: string): Promise<string[]> {
  const text = await Deno.readTextFile(path);
  return [...text.matchAll(/(?:from|import)\s+"(\.[^"]+)"/g)].map((m) =>
    m[1] as string
  );
}

Deno.test("src layering: each folder imports only what it may", async () => {
  const problems: string[] = [];
  for (
    const path of walkFiles(
      `${root}src`,
      // Tests may reach across layers to build their fixtures.
      (p) => p.endsWith(".ts") && !p.endsWith("_test.ts"),
    )
  ) {
    const folder = relative(`${root}src`, path).split("/")[0] as string;
    const allowed = ALLOWED[folder];
    if (!allowed) {
      problems.push(
        `${relative(root, path)}: folder "${folder}" has no layering rule`,
      );
      continue;
    }
    for (const spec of await importsOf(path)) {
      const target = relative(root, new URL(spec, `file://${path}`).pathname);
      if (
        target.startsWith("cli/") || target === "main.ts" || target === "mod.ts"
      ) {
        problems.push(`${relative(root, path)} imports ${target}`);
        continue;
      }
      const top = target.split("/")[1] as string;
      if (!allowed.includes("*") && !allowed.includes(top)) {
        problems.push(`${relative(root, path)} imports ${target}`);
      }
    }
  }
  assertEquals(problems, []);
});

Deno.test("mod.ts never imports cli/ or main.ts", async () => {
  const specs = await importsOf(`${root}mod.ts`);
  assertEquals(
    specs.filter((s) => s.startsWith("./cli") || s === "./main.ts"),
    [],
  );
});

/**
 * The specifiers a module loads when it is evaluated, following relative
 * imports: static `import`/`export … from`, not `import type` nor
 * `await import(…)` (loaded only when reached).
 */
async function loadedWith(entry: string): Promise<Set<string>> {
  const seen = new Set<string>();
  const todo = [entry];
  while (todo.length > 0) {
    const path = todo.pop() as string;
    if (seen.has(path)) continue;
    seen.add(path);
    if (!path.startsWith("/")) continue;
    const text = await Deno.readTextFile(path);
    const statements = text.matchAll(
      /^(?:import|export)\s+(type\s+)?(?:[^;"]*?\s+from\s+)?"([^"]+)";/gms,
    );
    for (const [, typeOnly, spec] of statements) {
      if (typeOnly || !spec) continue;
      todo.push(
        spec.startsWith(".") ? new URL(spec, `file://${path}`).pathname : spec,
      );
    }
  }
  return seen;
}

Deno.test("deja search loads no package nor Node polyfill but node:sqlite (start-up time)", async () => {
  const loaded = new Set([
    ...await loadedWith(`${root}main.ts`),
    ...await loadedWith(`${root}cli/search.ts`),
  ]);
  ok(loaded.has(`${root}src/search/search.ts`), "the walk follows imports");
  assertEquals([...loaded].filter((s) => !s.startsWith("/")), [
    "node:sqlite",
  ]);
});

/**
 * The modules Deno prepares when a command starts: static imports and the
 * targets of `import("…")` with a literal specifier (Deno reads and
 * prepares those with the graph, though it evaluates them only when
 * reached); a computed specifier is left out until it runs.
 */
async function preparedWith(entry: string): Promise<Set<string>> {
  const seen = new Set<string>();
  const todo = [entry];
  while (todo.length > 0) {
    const path = todo.pop() as string;
    if (seen.has(path) || !path.startsWith("/")) continue;
    // A specifier in a comment ("a literal `import("./x.ts")` …") names
    // no file.
    const text = await Deno.readTextFile(path).catch(() => undefined);
    if (text === undefined) continue;
    seen.add(path);
    const specs = [
      ...text.matchAll(
        /^(?:import|export)\s+(type\s+)?(?:[^;"]*?\s+from\s+)?"([^"]+)";/gms,
      ),
    ].filter(([, typeOnly]) => !typeOnly).map(([, , spec]) => spec);
    // `typeof import("…")` is a type.
    const dynamic = /(?<!typeof\s+)\bimport\(\s*"([^"]+)"\s*\)/g;
    for (const [, spec] of text.matchAll(dynamic)) {
      specs.push(spec);
    }
    for (const spec of specs) {
      if (spec?.startsWith(".")) {
        todo.push(new URL(spec, `file://${path}`).pathname);
      }
    }
  }
  return seen;
}

Deno.test("deja search and the hooks prepare only what they need: notes, memory and redaction load when reached", async () => {
  const search = [
    ...await preparedWith(`${root}main.ts`),
    ...await preparedWith(`${root}cli/search.ts`),
  ].map((p) => relative(root, p));
  ok(search.includes("src/search/search.ts"), "the walk follows imports");
  assertEquals(
    search.filter((p) => /^src\/(?:memory|recall|redact|loop)\//.test(p)),
    [],
  );
  const hooks = [...await preparedWith(`${root}cli/hooks.ts`)].map((p) =>
    relative(root, p)
  );
  ok(hooks.includes("src/hooks/envelope.ts"), "the walk follows imports");
  // Each hook's own modules load when that hook runs.
  assertEquals(
    hooks.filter((p) => /^src\/(?:search|recall|memory|redact|loop)\//.test(p)),
    [],
  );
});

Deno.test("the deja and compile tasks and a checkout's own command run with the same V8 flags", async () => {
  const config = JSON.parse(await Deno.readTextFile(`${root}deno.json`));
  for (const task of ["deja", "compile"]) {
    const flags = String(config.tasks[task]).match(/--v8-flags=(\S+)/)?.[1];
    assertEquals(flags, V8_FLAGS, task);
  }
});

Deno.test("every module imported by a computed specifier is in the compile task's --include list", async () => {
  const config = JSON.parse(await Deno.readTextFile(`${root}deno.json`));
  const compile = String(config.tasks.compile);
  const included = [...compile.matchAll(/--include\s+(\S+)/g)].map((m) =>
    m[1] as string
  );
  const missing: string[] = [];
  for (
    const path of walkFiles(
      root,
      (p) =>
        p.endsWith(".ts") && !p.endsWith("_test.ts") &&
        /\/(?:src|cli)\//.test(p),
    )
  ) {
    const text = await Deno.readTextFile(path);
    // `new URL("./x.ts", import.meta.url)`, or a lazy loader's literal
    // (`lazy("./x.ts")`, `lazyHandler<…>("../src/hooks/x.ts", …)`).
    const computed = [
      /new URL\(\s*"(\.[^"]+\.ts)",\s*import\.meta\.url\s*\)/g,
      /\blazy\w*(?:<[^>]*>)?\(\s*"(\.[^"]+\.ts)"/g,
    ];
    for (const [, spec] of computed.flatMap((re) => [...text.matchAll(re)])) {
      const target = relative(root, new URL(spec!, `file://${path}`).pathname);
      if (target === "main.ts") continue;
      const covered = included.some((inc) =>
        target === inc || target.startsWith(`${inc.replace(/\/$/, "")}/`)
      );
      if (!covered) missing.push(`${relative(root, path)} -> ${target}`);
    }
  }
  assertEquals(missing, []);
});
