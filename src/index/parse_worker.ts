/**
 * The parse worker: loads the harness registry it is sent, says it is ready,
 * then parses and prepares one file per message and posts the prepared
 * sessions back, unless the pool took the file back to parse it itself.
 * Files are taken one at a time, in the order sent: parsed side by side
 * (each awaiting its reads), the file the writer needed next was finished
 * only with the others, and the writer waited.
 *
 * @module
 */
/// <reference lib="deno.worker" />
import type { Harness } from "../core/harness.ts";
import { messageOf } from "../core/errors.ts";
import { parseFile } from "./_prepare.ts";
import { claim } from "./_parse_pool.ts";

let registry: Promise<Map<string, Harness>> | undefined;
/** Claim slots shared with the pool (see `claim`). */
let claims = new Int32Array(1);

let turn: Promise<void> = Promise.resolve();

self.onmessage = (e: MessageEvent) => {
  turn = turn.then(() => handle(e));
};

async function handle(e: MessageEvent): Promise<void> {
  if (e.data.load) {
    claims = e.data.claims;
    // Loaded once, before the first file: the pool parses in its own
    // thread until this says ready.
    registry = import(e.data.load).then((m) =>
      new Map((m.HARNESSES as Harness[]).map((h) => [h.id, h]))
    );
    await registry;
    self.postMessage({ ready: true });
    return;
  }
  const { id, harness, kind, path, options, redact } = e.data;
  // The writer's thread took it back while this one was busy.
  if (!claim(claims, id, "worker")) return;
  try {
    const fileKind = (await registry)?.get(harness)?.kinds.find((k) =>
      k.id === kind
    );
    if (!fileKind) throw new Error(`Unknown file kind "${harness}/${kind}"`);
    const parsed = await parseFile(fileKind, path, options, redact);
    self.postMessage({ id, parsed });
  } catch (err) {
    self.postMessage({ id, error: messageOf(err) });
  }
}
