/**
 * The console's files, imported as text so `deno run`, the tests and a
 * compiled binary serve the same bytes, each with a strong ETag.
 *
 * @module
 */
import { sha256Hex } from "../core/hash.ts";
import indexHtml from "../../console/index.html" with { type: "text" };
import styleCss from "../../console/style.css" with { type: "text" };
import appJs from "../../console/app.js" with { type: "text" };
import domJs from "../../console/dom.js" with { type: "text" };
import apiJs from "../../console/api.js" with { type: "text" };
import overviewJs from "../../console/overview.js" with { type: "text" };
import memoriesJs from "../../console/memories.js" with { type: "text" };
import sessionsJs from "../../console/sessions.js" with { type: "text" };
import loopJs from "../../console/loop.js" with { type: "text" };
import setupJs from "../../console/setup.js" with { type: "text" };

/** One served file. */
export interface Asset {
  /** The bytes. */
  body: Uint8Array;
  /** Content type. */
  type: string;
  /** Strong ETag, quoted. */
  etag: string;
}

const JS = "text/javascript; charset=utf-8";

function asset(text: string, type: string): Asset {
  const body = new TextEncoder().encode(text);
  return { body, type, etag: `"${sha256Hex(body).slice(0, 32)}"` };
}

/** URL path → file. `/` is the page. */
export const ASSETS: ReadonlyMap<string, Asset> = new Map([
  ["/", asset(indexHtml, "text/html; charset=utf-8")],
  ["/style.css", asset(styleCss, "text/css; charset=utf-8")],
  ["/app.js", asset(appJs, JS)],
  ["/dom.js", asset(domJs, JS)],
  ["/api.js", asset(apiJs, JS)],
  ["/overview.js", asset(overviewJs, JS)],
  ["/memories.js", asset(memoriesJs, JS)],
  ["/sessions.js", asset(sessionsJs, JS)],
  ["/loop.js", asset(loopJs, JS)],
  ["/setup.js", asset(setupJs, JS)],
]);

/**
 * Total console size in bytes (budget: 250 KB).
 *
 * @returns The sum of every asset's size.
 */
export function consoleBytes(): number {
  let n = 0;
  for (const a of ASSETS.values()) n += a.body.length;
  return n;
}
