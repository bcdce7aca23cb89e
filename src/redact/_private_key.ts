/**
 * PEM and PGP private key blocks: the body between header and footer is
 * replaced, so "BEGIN RSA PRIVATE KEY" stays searchable.
 *
 * @module
 */
import { type Edits, isRedacted } from "./_scan.ts";

const PEM_HEADER =
  /-----BEGIN ((?:[A-Z0-9]+ )*(?:PRIVATE|SECRET) KEY(?: BLOCK)?)-----/g;
const PEM_ANY_FOOTER =
  /-----END (?:[A-Z0-9]+ )*(?:PRIVATE|SECRET) KEY(?: BLOCK)?-----/g;
const PEM_GAP = /^(?:\s|\\+[rn])*/;
const PEM_GAP_END = /(?:\s|\\+[rn])*$/;
// A block cut short is only taken when key material follows the header, so
// a sentence that names the header keeps the text after it.
const PEM_BODY_START = /^(?:[A-Za-z0-9+/=]{16}|[A-Za-z-]+: )/;

/**
 * Adds an edit for the body of every private key block: whole, cut short
 * (to the end of the text), indented or JSON-escaped (`\n` written out).
 */
export function collectPrivateKeys(text: string, edits: Edits): void {
  if (text.indexOf("-----BEGIN ") < 0) return;
  PEM_HEADER.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = PEM_HEADER.exec(text)) !== null) {
    const bodyStart = m.index + m[0].length;
    let footerAt = text.indexOf(`-----END ${m[1]}-----`, bodyStart);
    if (footerAt < 0) {
      PEM_ANY_FOOTER.lastIndex = bodyStart;
      footerAt = PEM_ANY_FOOTER.exec(text)?.index ?? -1;
    }
    const bodyEnd = footerAt < 0 ? text.length : footerAt;
    const body = text.slice(bodyStart, bodyEnd);
    const lead = PEM_GAP.exec(body)![0].length;
    const trail = footerAt < 0 ? 0 : PEM_GAP_END.exec(body)![0].length;
    const inner = body.slice(lead, body.length - trail);
    if (footerAt >= 0) PEM_HEADER.lastIndex = footerAt;
    if (inner.length === 0 || isRedacted(inner)) continue;
    if (footerAt < 0 && !PEM_BODY_START.test(inner)) continue;
    edits.push({
      start: bodyStart + lead,
      end: bodyEnd - trail,
      id: "private-key",
    });
    if (footerAt < 0) return;
  }
}
