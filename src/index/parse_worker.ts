/**
 * The parse worker: loads the harness registry named in each message, parses
 * and prepares one file, and posts the prepared sessions back.
 *
 * @module
 */
/// <reference lib="deno.worker" />
import type { Harness } from "../core/harness.ts";
import { messageOf } from "../core/errors.ts";
import { parseFile } from "./_prepare.ts";

let registry: Map<string, Harness> | undefined;

self.onmessage = async (e: MessageEvent) => {
  const { id, module, harness, kind, path, options, redact } = e.data;
  try {
    registry ??= new Map(
      ((await import(module)).HARNESSES as Harness[]).map((h) => [h.id, h]),
    );
    const fileKind = registry.get(harness)?.kinds.find((k) => k.id === kind);
    if (!fileKind) throw new Error(`Unknown file kind "${harness}/${kind}"`);
    const parsed = await parseFile(fileKind, path, options, redact);
    self.postMessage({ id, parsed });
  } catch (err) {
    self.postMessage({ id, error: messageOf(err) });
  }
};
