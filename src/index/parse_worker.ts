/**
 * The parse worker: loads the harness registry it is sent, says it is ready,
 * then parses and prepares one file per message and posts the prepared
 * sessions back.
 *
 * @module
 */
/// <reference lib="deno.worker" />
import type { Harness } from "../core/harness.ts";
import { messageOf } from "../core/errors.ts";
import { parseFile } from "./_prepare.ts";

let registry: Promise<Map<string, Harness>> | undefined;

self.onmessage = async (e: MessageEvent) => {
  if (e.data.load) {
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
};
