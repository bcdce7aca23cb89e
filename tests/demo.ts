/**
 * `deno task demo`: indexes the bundled demo HOME (fixtures/home) into a
 * temporary directory and runs a few real searches against it.
 *
 * @module
 */
import { fileURLToPath as fromFileUrl } from "node:url";
import { run } from "../cli/mod.ts";
import { processIo, stylesOutput } from "../src/core/io.ts";

const home = fromFileUrl(new URL("../fixtures/home", import.meta.url));
const tmp = await Deno.makeTempDir({ prefix: "deja-demo-" });
const base = processIo();
const io = {
  ...base,
  env: {
    HOME: home,
    DEJA_INDEX: `${tmp}/index.db`,
    PATH: base.env.PATH,
    NO_COLOR: base.env.NO_COLOR,
  },
};
const say = (text: string) =>
  io.stdout.write(
    stylesOutput(io) ? `\n\x1b[1m$ ${text}\x1b[22m\n` : `\n$ ${text}\n`,
  );

const steps: string[][] = [
  ["index"],
  ["stats"],
  ["search", "docker", "compose"],
  ["search", "ECONNREFUSED", "--role", "tool-output", "--role", "command"],
  ["search", "redis", "--project", "api"],
  ["search", "AWS_SECRET_ACCESS_KEY"],
];
let code = 0;
for (const argv of steps) {
  say(`deja ${argv.map((a) => (a.includes(" ") ? `"${a}"` : a)).join(" ")}`);
  code = Math.max(code, await run(argv, io, { keepPermissions: true }));
}
await Deno.remove(tmp, { recursive: true });
io.stdout.write(
  `\nThat index was temporary and is gone. To keep one and try other searches:\n` +
    `  HOME=${home} DEJA_INDEX=/tmp/deja-demo.db deno run -A main.ts index\n` +
    `  HOME=${home} DEJA_INDEX=/tmp/deja-demo.db deno run -A main.ts search "why did we pin redis?"\n`,
);
Deno.exit(code);
