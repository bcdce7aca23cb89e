/**
 * The `--re` scan's worker: says it is ready, then answers each batch of
 * texts with their snippets (null where the pattern does not match). The
 * search terminates it when a batch runs past its budget.
 *
 * @module
 */
/// <reference lib="deno.worker" />
import { regexSnippet } from "./_regex_scan.ts";

let compiled: { pattern: string; re: RegExp } | undefined;

self.onmessage = (e: MessageEvent) => {
  const { pattern, texts } = e.data as { pattern: string; texts: string[] };
  if (compiled?.pattern !== pattern) {
    compiled = { pattern, re: new RegExp(pattern, "i") };
  }
  const re = compiled.re;
  self.postMessage(texts.map((text) => regexSnippet(re, text) ?? null));
};
self.postMessage({ ready: true });
