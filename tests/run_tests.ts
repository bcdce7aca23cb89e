/**
 * `deno task test`'s last step: runs the whole suite with `TMPDIR` pointed
 * at one fresh folder and removes that folder afterwards, so the temp
 * stores and homes the tests make never pile up in the system's /tmp.
 * Examples in doc comments run too (`--doc`). Arguments are passed on to
 * `deno test`; the exit code is the suite's.
 *
 * @module
 */
const root = await Deno.makeTempDir({ prefix: "deja-tests-" });
// The code's folders: docs/*.md code blocks are illustrations, not tests.
const paths = Deno.args.some((a) => !a.startsWith("-"))
  ? []
  : ["src/", "cli/", "tests/", "mod.ts", "main.ts"];
let code = 1;
try {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["test", "-A", "--doc", "--parallel", ...Deno.args, ...paths],
    env: { TMPDIR: root },
    stdin: "null",
  }).spawn();
  code = (await child.status).code;
} finally {
  await Deno.remove(root, { recursive: true }).catch(() => {});
}
Deno.exit(code);
