/**
 * The deja command line. `deno run -A main.ts help` lists the commands.
 *
 * @module
 */
import { run } from "./cli/mod.ts";
import { processIo } from "./src/core/io.ts";

if (import.meta.main) Deno.exit(await run(Deno.args, processIo()));
