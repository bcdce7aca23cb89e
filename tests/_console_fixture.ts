/**
 * Test data for the server and console tests: a transcript index built from
 * fixtures/home (optionally plus a session full of hostile strings) and a
 * memory file from `deja init --template demo` + `deja loop run`, all in a
 * temp dir.
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { run } from "../cli/mod.ts";
import { captureIo } from "../src/core/io.ts";
import { openMemory } from "../src/memory/mod.ts";

/** The hostile strings a session, a grain and a recommendation carry. */
export const HOSTILE = {
  img: `<img src=x onerror="window.__xss=1">`,
  script: `</script><script>window.__xss=2</script>`,
  bidi: "\u202Egnp.exe\u202C",
  ansi: "\x1b[31mRED\x1b[0m\x07",
  marker: "zebrafinch",
};

/** The fixture's clock: a few days after the fixture sessions. */
export const FIXTURE_NOW = Date.UTC(2026, 10, 21, 12, 0, 0);

/** Paths of a built fixture. */
export interface ConsoleFixture {
  /** Temp dir holding everything. */
  dir: string;
  /** The fake HOME. */
  home: string;
  /** Transcript index. */
  indexPath: string;
  /** Memory file. */
  memoryPath: string;
  /** The hostile session's id, when built with one. */
  hostileSession?: string;
}

const FIXTURE_HOME = fileURLToPath(
  new URL("../fixtures/home", import.meta.url),
);

async function copyTree(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const e of Deno.readDir(from)) {
    if (e.name === ".cache") continue;
    const src = join(from, e.name);
    const dst = join(to, e.name);
    if (e.isDirectory) await copyTree(src, dst);
    else if (e.isFile) await Deno.copyFile(src, dst);
  }
}

function line(obj: unknown): string {
  return JSON.stringify(obj) + "\n";
}

async function writeHostileSession(home: string): Promise<string> {
  const id = "d1e2f3a4-0b1c-4d2e-8f30-41526374a5b6";
  const dir = join(home, ".claude", "projects", "-home-dev-src-evil");
  await Deno.mkdir(dir, { recursive: true });
  const base = {
    isSidechain: false,
    userType: "external",
    cwd: "/home/dev/src/evil",
    sessionId: id,
    version: "2.1.52",
  };
  const t = (s: number) =>
    new Date(Date.UTC(2026, 10, 20, 9, 0, s)).toISOString();
  const text1 = `${HOSTILE.marker} title ${HOSTILE.img} and ${HOSTILE.script}`;
  const text2 =
    `${HOSTILE.marker} reply: bidi ${HOSTILE.bidi} then escape ${HOSTILE.ansi} done`;
  const body = line({
    ...base,
    parentUuid: null,
    type: "user",
    message: { role: "user", content: text1 },
    uuid: "aa000000-0000-4000-8000-000000000001",
    timestamp: t(1),
  }) +
    line({
      ...base,
      parentUuid: "aa000000-0000-4000-8000-000000000001",
      type: "assistant",
      message: {
        id: "msg_hostile_1",
        type: "message",
        role: "assistant",
        content: [{ type: "text", text: text2 }],
      },
      uuid: "aa000000-0000-4000-8000-000000000002",
      timestamp: t(5),
    });
  await Deno.writeTextFile(join(dir, `${id}.jsonl`), body);
  return id;
}

async function cli(
  argv: string[],
  env: Record<string, string>,
): Promise<string> {
  const io = captureIo({ env, now: FIXTURE_NOW });
  const code = await run(argv, io, { keepPermissions: true });
  if (code !== 0 && code !== 3) {
    throw new Error(`deja ${argv.join(" ")} exited ${code}: ${io.err()}`);
  }
  return io.out();
}

/**
 * Builds the index and the memory file.
 *
 * @param options `hostile` adds a session, grains and a recommendation carrying {@linkcode HOSTILE}.
 * @returns Paths.
 */
export async function buildFixture(
  options: { hostile?: boolean } = {},
): Promise<ConsoleFixture> {
  const dir = await Deno.makeTempDir({ prefix: "deja-console-" });
  const home = join(dir, "home");
  await copyTree(FIXTURE_HOME, home);
  const fixture: ConsoleFixture = {
    dir,
    home,
    indexPath: join(dir, "index.db"),
    memoryPath: join(dir, "demo.db"),
  };
  if (options.hostile) fixture.hostileSession = await writeHostileSession(home);
  const env = {
    HOME: home,
    DEJA_INDEX: fixture.indexPath,
    XDG_DATA_HOME: join(dir, "data"),
  };
  await cli(["index", "--quiet"], env);
  await cli(["init", "--db", fixture.memoryPath, "--template", "demo"], env);
  if (options.hostile) {
    const store = openMemory(fixture.memoryPath, { now: () => FIXTURE_NOW });
    try {
      store.put({
        type: "observation",
        namespace: "evil",
        created_at: FIXTURE_NOW - 60_000,
        actor: "human:tester",
        text:
          `${HOSTILE.marker} grain ${HOSTILE.img} ${HOSTILE.script} ${HOSTILE.bidi} ${HOSTILE.ansi}`,
      });
      for (const object of ["eu-west-1", `us-east-1 ${HOSTILE.img}`]) {
        store.put({
          type: "fact",
          namespace: "evil",
          created_at: FIXTURE_NOW - 50_000,
          actor: "human:tester",
          subject: `${HOSTILE.marker}${HOSTILE.script}`,
          relation: "deploy_target",
          object,
        });
      }
    } finally {
      store.close();
    }
  }
  await cli(["loop", "run", "--db", fixture.memoryPath, "--quiet"], env);
  return fixture;
}
