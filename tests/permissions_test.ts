import { deepEqual, equal } from "node:assert/strict";
import { fileURLToPath as fromFileUrl } from "node:url";
import { allCommands } from "../cli/commands.ts";

const root = fromFileUrl(new URL("..", import.meta.url));

function denoDir(): string {
  const env = Deno.env.toObject();
  return env.DENO_DIR ?? `${env.XDG_CACHE_HOME ?? `${env.HOME}/.cache`}/deno`;
}

async function deno(args: string[], env: Record<string, string> = {}) {
  const out = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: root,
    // A HOME override would move Deno's own cache; keep it where it is.
    // The caller's XDG folders would name stores outside a temp HOME.
    env: {
      NO_COLOR: "1",
      DENO_DIR: denoDir(),
      ...(env.HOME
        ? {
          XDG_CONFIG_HOME: `${env.HOME}/.config`,
          XDG_DATA_HOME: `${env.HOME}/.local/share`,
        }
        : {}),
      ...env,
    },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return {
    code: out.code,
    stdout: dec.decode(out.stdout),
    stderr: dec.decode(out.stderr),
  };
}

Deno.test("search cannot write files, open sockets or spawn processes even under -A", async () => {
  const dir = await Deno.makeTempDir();
  const probe = await deno([
    "run",
    "-A",
    "tests/_permission_probe.ts",
    "search",
  ], { PROBE_DIR: dir });
  equal(probe.code, 0, probe.stderr);
  deepEqual(JSON.parse(probe.stdout), { write: true, net: true, run: true });
});

Deno.test("index may write but cannot open sockets or spawn processes", async () => {
  const dir = await Deno.makeTempDir();
  const probe = await deno(
    ["run", "-A", "tests/_permission_probe.ts", "index"],
    { PROBE_DIR: dir },
  );
  equal(probe.code, 0, probe.stderr);
  deepEqual(JSON.parse(probe.stdout), { write: false, net: true, run: true });
});

Deno.test("search runs with only its declared flags (--allow-read --allow-env)", async () => {
  const dir = await Deno.makeTempDir();
  const home = fromFileUrl(new URL("../fixtures/home", import.meta.url));
  const env = { HOME: home, DEJA_INDEX: `${dir}/index.db` };
  const indexed = await deno([
    "run",
    "--allow-read",
    "--allow-write",
    "--allow-env",
    "--allow-sys",
    "main.ts",
    "index",
    "--quiet",
  ], env);
  equal(indexed.code, 0, indexed.stderr);
  const found = await deno([
    "run",
    "--allow-read",
    "--allow-env",
    "main.ts",
    "search",
    "docker",
    "--json",
  ], env);
  equal(found.code, 0, found.stderr);
  equal(typeof JSON.parse(found.stdout).total, "number");
  // A regular expression runs on a worker thread, under the same flags.
  const scanned = await deno([
    "run",
    "--allow-read",
    "--allow-env",
    "main.ts",
    "search",
    "--re",
    "dock[e]r",
    "--json",
  ], env);
  equal(scanned.code, 0, scanned.stderr);
  equal(JSON.parse(scanned.stdout).total, JSON.parse(found.stdout).total);
});

Deno.test("a command started without the env access it declares says so instead of reading the wrong index", async () => {
  const dir = await Deno.makeTempDir();
  const out = await deno([
    "run",
    "--no-prompt",
    "--allow-read",
    "main.ts",
    "search",
    "docker",
  ], { DEJA_INDEX: `${dir}/index.db` });
  equal(out.code, 1, out.stderr);
  equal(out.stdout, "");
  equal(
    out.stderr.trim(),
    "error: deja search needs env access to find HOME and DEJA_INDEX: run it with -A or --allow-read --allow-env [CLI-E002]",
  );
});

Deno.test("every command declares its permissions and help shows them", async () => {
  for (const command of await allCommands()) {
    const help = await deno([
      "run",
      "-A",
      "main.ts",
      "help",
      ...command.name.split(" "),
    ]);
    equal(help.code, 0, `${command.name}: ${help.stderr}`);
    equal(help.stdout.includes("Permissions:"), true, command.name);
  }
});

Deno.test("a usage error prints the command's help on stderr and exits 64", async () => {
  const out = await deno(["run", "-A", "main.ts", "search", "--no-such-flag"]);
  equal(out.code, 64);
  equal(out.stderr.includes("Usage: deja search"), true);
});

Deno.test("a group word without its verb names the verbs in a run, and help shows their help", async () => {
  const out = await deno(["run", "-A", "main.ts", "capture"]);
  equal(out.code, 64);
  equal(
    out.stderr.startsWith('error: "capture" needs one of: capture tool-call'),
    true,
    out.stderr.slice(0, 200),
  );
  const help = await deno(["run", "-A", "main.ts", "help", "capture"]);
  equal(help.code, 0, help.stderr);
  equal(help.stdout.startsWith("deja capture tool-call — "), true, help.stdout);
  equal(help.stdout.includes("Permissions:"), true);
  // "deja capture --help" is the same help.
  const flag = await deno(["run", "-A", "main.ts", "capture", "--help"]);
  equal(flag.code, 0, flag.stderr);
  equal(flag.stdout, help.stdout);
});
