// deno-lint-ignore-file no-console
/**
 * Revokes what a command did not declare (as the dispatcher does), then tries
 * to write a file, open a socket and spawn a process, and prints which
 * attempts were refused as JSON. Used by permissions_test.ts.
 *
 * @module
 */
import { findCommand, revokeUndeclared } from "../cli/mod.ts";

const found = await findCommand(Deno.args);
if (!found) throw new Error(`unknown command ${Deno.args.join(" ")}`);
await revokeUndeclared(found.command.permissions);

async function refused(attempt: () => Promise<unknown>): Promise<boolean> {
  try {
    await attempt();
    return false;
  } catch (err) {
    return err instanceof Deno.errors.NotCapable ||
      err instanceof Deno.errors.PermissionDenied;
  }
}

const tmp = Deno.env.get("PROBE_DIR") ?? "/tmp";
const result = {
  write: await refused(() => Deno.writeTextFile(`${tmp}/probe.txt`, "x")),
  net: await refused(() => Deno.connect({ hostname: "127.0.0.1", port: 9 })),
  run: await refused(() => new Deno.Command("true").output()),
};
console.log(JSON.stringify(result));
