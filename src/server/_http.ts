/**
 * Small request and response helpers shared by the route files: JSON
 * answers that are never cached, strict JSON bodies, and typed query
 * parameters that fail as 400 problems.
 *
 * @module
 */
import { DejaError } from "../core/errors.ts";
import type { Context } from "./_hono.ts";

/**
 * A JSON answer with `Cache-Control: no-store`.
 *
 * @param body Any JSON value.
 * @param status HTTP status (default 200).
 * @returns The response.
 */
export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "cache-control": "no-store",
    },
  });
}

function bad(message: string): never {
  throw new DejaError("SRV-E006", message);
}

/** The largest request body a route reads. */
const MAX_BODY_BYTES = 64 * 1024;

/**
 * The body as text, read no further than {@link MAX_BODY_BYTES}: an
 * over-long body is refused as soon as it is seen, never held whole.
 */
async function boundedText(req: Request): Promise<string> {
  const tooBig = "The request body is larger than 64 KiB";
  if (Number(req.headers.get("content-length") ?? 0) > MAX_BODY_BYTES) {
    await req.body?.cancel().catch(() => {});
    bad(tooBig);
  }
  const reader = req.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => {});
      bad(tooBig);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

/**
 * Reads a JSON object body and refuses unknown keys, so a client cannot
 * smuggle fields the server ignores (an `actor`, say).
 *
 * @param c The context.
 * @param allowed Keys the route accepts.
 * @returns The object.
 * @throws {DejaError} SRV-E006 for a missing, non-object or over-wide body.
 */
export async function strictBody(
  c: Context,
  allowed: readonly string[],
): Promise<Record<string, unknown>> {
  const text = await boundedText(c.req.raw);
  let data: unknown;
  try {
    data = text.trim() === "" ? {} : JSON.parse(text);
  } catch {
    bad("The request body is not JSON");
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    bad("The request body must be a JSON object");
  }
  for (const key of Object.keys(data)) {
    if (!allowed.includes(key)) {
      bad(
        key === "actor"
          ? 'The actor comes from the server (deja ui --actor), never from the request: drop "actor"'
          : `Unknown field "${key}"; this route takes ${
            allowed.map((k) => `"${k}"`).join(", ") || "no fields"
          }`,
      );
    }
  }
  return data as Record<string, unknown>;
}

/**
 * A required string field.
 *
 * @param body The body.
 * @param key The field.
 * @returns The value.
 */
export function stringField(
  body: Record<string, unknown>,
  key: string,
): string {
  const v = body[key];
  if (typeof v !== "string" || v.trim() === "") {
    bad(`"${key}" must be a non-empty string`);
  }
  return v;
}

/**
 * An optional integer query parameter.
 *
 * @param c The context.
 * @param name The parameter.
 * @param min Smallest allowed value.
 * @param max Largest allowed value.
 * @returns The value, or undefined when absent.
 */
export function intParam(
  c: Context,
  name: string,
  min: number,
  max: number,
): number | undefined {
  const raw = c.req.query(name);
  if (raw === undefined || raw === "") return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    bad(`"${name}" must be a whole number from ${min} to ${max}`);
  }
  return n;
}

/**
 * An optional boolean query parameter (`1/0`, `true/false`, `on/off`).
 *
 * @param c The context.
 * @param name The parameter.
 * @returns The value, or undefined when absent.
 */
export function boolParam(c: Context, name: string): boolean | undefined {
  const raw = c.req.query(name);
  if (raw === undefined || raw === "") return undefined;
  if (["1", "true", "on", "yes"].includes(raw)) return true;
  if (["0", "false", "off", "no"].includes(raw)) return false;
  return bad(`"${name}" must be true or false`);
}

/**
 * A hash or hash prefix from a path or body: 2 to 64 hex digits (as the CLI
 * takes them), optionally after `grain:` or `sha256:`. Malformed is the request's fault (400); a
 * well-formed prefix nothing holds is the store's to answer (404).
 *
 * @param raw What the request gave.
 * @param what What the hash names, for the message ("grain").
 * @returns The prefix, lowercased, without its label.
 * @throws {DejaError} SRV-E006 when it is no hash or prefix.
 */
export function hashPrefix(raw: string, what: string): string {
  const p = raw.trim().toLowerCase().replace(/^(grain:)?(sha256:)?/, "");
  if (!/^[0-9a-f]{2,64}$/.test(p)) {
    bad(`"${raw}" is not a ${what} hash or prefix (2 to 64 hex digits)`);
  }
  return p;
}
