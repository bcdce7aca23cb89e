/**
 * Hashing and canonical JSON, shared by the index (file prefixes) and the
 * memory file (content addresses).
 *
 * @module
 */

/**
 * Hex sha256 of a string or bytes.
 *
 * @param data Text (UTF-8) or bytes.
 * @returns 64 hex characters.
 * @example
 * ```ts
 * import { sha256Hex } from "./hash.ts";
 * import { equal } from "node:assert/strict";
 * equal(sha256Hex("").slice(0, 8), "e3b0c442");
 * ```
 */
export function sha256Hex(data: string | Uint8Array): string {
  const bytes = typeof data === "string" ? encoder.encode(data) : data;
  return sha256(bytes);
}

/**
 * A fast 64-bit fingerprint (two FNV-1a lanes) of a string's UTF-16 code
 * units or of bytes: for change and duplicate detection where nobody
 * chooses the input to collide (file prefixes, repeated turns), never for
 * content addresses, which use {@linkcode sha256Hex}.
 *
 * @param data Text or bytes.
 * @returns 16 hex characters.
 * @example
 * ```ts
 * import { fingerprint } from "./hash.ts";
 * import { equal, notEqual } from "node:assert/strict";
 * equal(fingerprint("abc"), fingerprint("abc"));
 * notEqual(fingerprint("abc"), fingerprint("abd"));
 * ```
 */
export function fingerprint(data: string | Uint8Array): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ data.length;
  if (typeof data === "string") {
    for (let i = 0; i < data.length; i++) {
      const c = data.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995) ^ (b >>> 15);
    }
  } else {
    for (let i = 0; i < data.length; i++) {
      const c = data[i]!;
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995) ^ (b >>> 15);
    }
  }
  return (a >>> 0).toString(16).padStart(8, "0") +
    (b >>> 0).toString(16).padStart(8, "0");
}

// SHA-256 in plain TypeScript (FIPS 180-4). node:crypto costs ~35 ms to load,
// which every hook and query would pay at start-up; the inputs hashed here
// (grains, prompts, 8 KiB file prefixes) are small.
const encoder = new TextEncoder();
const K = new Uint32Array([
  0x428a2f98,
  0x71374491,
  0xb5c0fbcf,
  0xe9b5dba5,
  0x3956c25b,
  0x59f111f1,
  0x923f82a4,
  0xab1c5ed5,
  0xd807aa98,
  0x12835b01,
  0x243185be,
  0x550c7dc3,
  0x72be5d74,
  0x80deb1fe,
  0x9bdc06a7,
  0xc19bf174,
  0xe49b69c1,
  0xefbe4786,
  0x0fc19dc6,
  0x240ca1cc,
  0x2de92c6f,
  0x4a7484aa,
  0x5cb0a9dc,
  0x76f988da,
  0x983e5152,
  0xa831c66d,
  0xb00327c8,
  0xbf597fc7,
  0xc6e00bf3,
  0xd5a79147,
  0x06ca6351,
  0x14292967,
  0x27b70a85,
  0x2e1b2138,
  0x4d2c6dfc,
  0x53380d13,
  0x650a7354,
  0x766a0abb,
  0x81c2c92e,
  0x92722c85,
  0xa2bfe8a1,
  0xa81a664b,
  0xc24b8b70,
  0xc76c51a3,
  0xd192e819,
  0xd6990624,
  0xf40e3585,
  0x106aa070,
  0x19a4c116,
  0x1e376c08,
  0x2748774c,
  0x34b0bcb5,
  0x391c0cb3,
  0x4ed8aa4a,
  0x5b9cca4f,
  0x682e6ff3,
  0x748f82ee,
  0x78a5636f,
  0x84c87814,
  0x8cc70208,
  0x90befffa,
  0xa4506ceb,
  0xbef9a3f7,
  0xc67178f2,
]);

function sha256(message: Uint8Array): string {
  const length = message.length;
  const blocks = Math.ceil((length + 9) / 64);
  const padded = new Uint8Array(blocks * 64);
  padded.set(message);
  padded[length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(length / 0x20000000));
  view.setUint32(padded.length - 4, (length * 8) >>> 0);
  const h = new Uint32Array([
    0x6a09e667,
    0xbb67ae85,
    0x3c6ef372,
    0xa54ff53a,
    0x510e527f,
    0x9b05688c,
    0x1f83d9ab,
    0x5be0cd19,
  ]);
  const w = new Uint32Array(64);
  for (let block = 0; block < blocks; block++) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(block * 64 + i * 4);
    for (let i = 16; i < 64; i++) {
      const a = w[i - 15] as number;
      const b = w[i - 2] as number;
      const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
      const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^
        (b >>> 10);
      w[i] = ((w[i - 16] as number) + s0 + (w[i - 7] as number) + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, hh] = h as unknown as number[] as [
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    for (let i = 0; i < 64; i++) {
      const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^
        ((e >>> 25) | (e << 7));
      const ch = (e & f) ^ (~e & g);
      const t1 = (hh + S1 + ch + (K[i] as number) + (w[i] as number)) >>> 0;
      const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^
        ((a >>> 22) | (a << 10));
      const maj = (a & b) ^ (a & c) ^ (b & c);
      const t2 = (S0 + maj) >>> 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) >>> 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) >>> 0;
    }
    h[0] = (h[0] as number) + a;
    h[1] = (h[1] as number) + b;
    h[2] = (h[2] as number) + c;
    h[3] = (h[3] as number) + d;
    h[4] = (h[4] as number) + e;
    h[5] = (h[5] as number) + f;
    h[6] = (h[6] as number) + g;
    h[7] = (h[7] as number) + hh;
  }
  let out = "";
  for (const word of h) out += word.toString(16).padStart(8, "0");
  return out;
}

/**
 * Canonical JSON: object keys sorted, strings NFC-normalised, no spaces, so
 * equal content always hashes alike.
 *
 * @param value Any JSON-compatible value.
 * @returns The canonical text.
 * @example
 * ```ts
 * import { canonicalJson } from "./hash.ts";
 * import { equal } from "node:assert/strict";
 * equal(canonicalJson({ b: 1, a: [true, "x"] }), '{"a":[true,"x"],"b":1}');
 * ```
 */
export function canonicalJson(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "string") return JSON.stringify(value.normalize("NFC"));
  if (typeof value === "number" || typeof value === "boolean") {
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${
      entries.map(([k, v]) =>
        `${JSON.stringify(k.normalize("NFC"))}:${canonicalJson(v)}`
      ).join(",")
    }}`;
  }
  throw new TypeError(`Cannot canonicalise a ${typeof value}`);
}
