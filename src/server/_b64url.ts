/**
 * base64url (RFC 4648 §5, no padding) for cursors and locators.
 *
 * @module
 */

/**
 * Encodes UTF-8 text as base64url without padding.
 *
 * @param text Any text.
 * @returns The encoding.
 */
export function toBase64Url(text: string): string {
  let bin = "";
  for (const b of new TextEncoder().encode(text)) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * Decodes base64url (padding optional) to UTF-8 text.
 *
 * @param value The encoding.
 * @returns The text, or undefined when it is not base64url of UTF-8.
 */
export function fromBase64Url(value: string): string | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(value)) return undefined;
  try {
    const bin = atob(value.replace(/-/g, "+").replace(/_/g, "/"));
    const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
