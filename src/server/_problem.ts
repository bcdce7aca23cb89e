/**
 * DejaError codes → HTTP status and an RFC 9457 problem body
 * `{type, title, status, code, detail}`. The one table the server's
 * `onError` uses; unknown codes and non-DejaErrors answer 500 without
 * leaking their message.
 *
 * @module
 */
import { DejaError, ERROR_CODES, type ErrorCode } from "../core/errors.ts";

const STATUS: Partial<Record<ErrorCode, number>> = {
  "SRV-E001": 401,
  "SRV-E002": 403,
  "SRV-E003": 429,
  "SRV-E004": 410,
  "SRV-E005": 404,
  "SRV-E006": 400,
  "SRV-E007": 403,
  "SRV-E008": 403,
  "SRV-E009": 405,
  "CLI-E001": 400,
  "QRY-E001": 400,
  "QRY-E002": 404,
  "QRY-E003": 400,
  "QRY-E006": 400,
  "MEM-E001": 503,
  "MEM-E002": 503,
  "MEM-E003": 404,
  "MEM-E004": 503,
  "MEM-E005": 409,
  "IDX-E001": 503,
  "IDX-E002": 503,
  "IDX-E003": 503,
  "IDX-E004": 503,
  "LOOP-E001": 409,
  "LOOP-E002": 403,
  "LOOP-E003": 403,
  "LOOP-E004": 409,
  "LOOP-E005": 400,
  "LOOP-E006": 500,
  "LOOP-E007": 502,
  "LOOP-E008": 409,
  "LOOP-E009": 409,
};

/** The problem body every error answer carries. */
export interface Problem {
  /** A URN naming the error code. */
  type: string;
  /** What the code means, from ERROR_CODES. */
  title: string;
  /** The HTTP status. */
  status: number;
  /** The stable code. */
  code: string;
  /** What happened, in words. */
  detail: string;
  /** What to do about it, when there is a standard answer. */
  hint?: string;
  /** Machine-readable reason for clients (e.g. `cursor_expired`). */
  reason?: string;
}

/**
 * The HTTP status for a code.
 *
 * @param code A DejaError code.
 * @returns The status (500 for codes without a mapping).
 */
export function statusOf(code: string): number {
  return STATUS[code as ErrorCode] ?? 500;
}

/**
 * Builds the problem response for a thrown value.
 *
 * @param err What was thrown.
 * @param hint Optional advice to attach.
 * @returns The response and whether the error was unexpected (worth logging).
 */
export function problemOf(
  err: unknown,
  hint?: string,
): { response: Response; unexpected: boolean } {
  if (err instanceof DejaError) {
    const status = statusOf(err.code);
    const body: Problem = {
      type: `urn:deja:error:${err.code}`,
      title: ERROR_CODES[err.code],
      status,
      code: err.code,
      detail: err.message,
    };
    const h = hint ??
      (typeof err.detail?.hint === "string" ? err.detail.hint : undefined);
    if (h) body.hint = h;
    if (typeof err.detail?.reason === "string") body.reason = err.detail.reason;
    const headers = new Headers({
      "content-type": "application/problem+json; charset=utf-8",
      "cache-control": "no-store",
    });
    if (status === 401) {
      headers.set(
        "www-authenticate",
        err.detail?.challenge === "Bearer"
          ? 'Bearer realm="deja", error="invalid_token"'
          : 'Basic realm="deja", charset="UTF-8"',
      );
    }
    if (status === 405 && typeof err.detail?.allow === "string") {
      headers.set("allow", err.detail.allow);
    }
    if (status === 429 || status === 503) headers.set("retry-after", "1");
    return {
      response: new Response(JSON.stringify(body), { status, headers }),
      unexpected: status >= 500,
    };
  }
  const body: Problem = {
    type: "urn:deja:error:internal",
    title: "Internal error",
    status: 500,
    code: "internal",
    detail: "The server failed; see its stderr",
  };
  return {
    response: new Response(JSON.stringify(body), {
      status: 500,
      headers: {
        "content-type": "application/problem+json; charset=utf-8",
        "cache-control": "no-store",
      },
    }),
    unexpected: true,
  };
}
