/**
 * PEM and PGP private key blocks and OpenVPN static keys: the body between header and footer is
 * replaced, so "BEGIN RSA PRIVATE KEY" stays searchable. PuTTY `.ppk`
 * files: the `Private-Lines:` body and the `Private-MAC:` value. Wallet
 * secrets: the keys of an anvil/ganache `Private Keys` listing, a Solana
 * keypair file's 64 bytes, and a seed phrase after what names it (a
 * Hardhat network's `accounts: ["<hex>"]` is read with the token runs).
 *
 * @module
 */
import { hasCue } from "./_cues.ts";
import { type Edits, gutterLength, isRedacted } from "./_scan.ts";

// An OpenVPN static key (`ta.key`, `--tls-auth`) is a shared secret in
// the same frame, its body hex.
const PEM_HEADER =
  /-----BEGIN ((?:[A-Z0-9]+ )*(?:PRIVATE|SECRET) KEY(?: BLOCK)?|OpenVPN Static key V\d)-----/g;
const PEM_ANY_FOOTER =
  /-----END (?:(?:[A-Z0-9]+ )*(?:PRIVATE|SECRET) KEY(?: BLOCK)?|OpenVPN Static key V\d)-----/g;
const PEM_GAP = /^(?:\s|\\+[rn])*/;

/**
 * How many characters of blanks and written-out line breaks (`\n`, `\\r`)
 * end `body`. Read backwards: the regex `/(?:\s|\\+[rn])*$/` tried every
 * start in a long run of blanks, quadratic in its length.
 */
function gapEndLength(body: string): number {
  let i = body.length;
  while (i > 0) {
    const c = body[i - 1]!;
    if (/\s/.test(c)) i--;
    else if ((c === "r" || c === "n") && body[i - 2] === "\\") {
      i -= 2;
      while (body[i - 1] === "\\") i--;
    } else break;
  }
  return body.length - i;
}
// A block cut short is only taken when key material follows the header, so
// a sentence that names the header keeps the text after it.
const PEM_BODY_START = /^(?:[A-Za-z0-9+/=]{16}|[A-Za-z-]+: )/;

/**
 * Whether `text` may hold a private key block (PEM, PGP, OpenVPN, PuTTY):
 * the rule reads such a block whole, from its header or to its footer, over
 * as many lines as it has, so no part of the text can be redacted alone.
 *
 * @param text Any text.
 * @returns False when the text holds no block header, footer or PuTTY key.
 */
export function mayHoldKeyBlock(text: string): boolean {
  // Asked of a whole long output before its excerpt is redacted: four
  // plain scans of it cost less than reading it for every cue.
  return text.includes("-----BEGIN ") || text.includes("-----END ") ||
    text.includes("Private-Lines:") || text.includes(LISTING_HEAD);
}

/**
 * Adds an edit for the body of every private key block: whole, cut short
 * (to the end of the text), indented or JSON-escaped (`\n` written out).
 */
export function collectPrivateKeys(text: string, edits: Edits): void {
  walletSecrets(text, edits);
  if (hasCue(text, "Private-Lines:")) puttyKeys(text, edits);
  if (hasCue(text, "-----END ")) headlessKeys(text, edits);
  if (!hasCue(text, "-----BEGIN ")) return;
  PEM_HEADER.lastIndex = 0;
  // From here on no footer follows: not searched for again at each
  // header of a long run of them.
  let noFooterFrom = Infinity;
  let m: RegExpExecArray | null;
  while ((m = PEM_HEADER.exec(text)) !== null) {
    const bodyStart = m.index + m[0].length;
    let footerAt = bodyStart >= noFooterFrom
      ? -1
      : text.indexOf(`-----END ${m[1]}-----`, bodyStart);
    if (footerAt < 0 && bodyStart < noFooterFrom) {
      PEM_ANY_FOOTER.lastIndex = bodyStart;
      footerAt = PEM_ANY_FOOTER.exec(text)?.index ?? -1;
      if (footerAt < 0) noFooterFrom = bodyStart;
    }
    const bodyEnd = footerAt < 0 ? text.length : footerAt;
    const body = text.slice(bodyStart, bodyEnd);
    const lead = PEM_GAP.exec(body)![0].length;
    const trail = footerAt < 0 ? 0 : gapEndLength(body);
    const inner = body.slice(lead, body.length - trail);
    if (footerAt >= 0) PEM_HEADER.lastIndex = footerAt;
    if (footerAt < 0 && !PEM_BODY_START.test(inner)) continue;
    if (inner.length === 0 || isRedacted(inner)) continue;
    edits.push({
      start: bodyStart + lead,
      end: bodyEnd - trail,
      id: "private-key",
    });
    if (footerAt < 0) return;
  }
}

/** A PuTTY key's private part: its line count, then that many lines of base64. */
const PPK_PRIVATE =
  /Private-Lines:[ \t]*(\d{1,3})[ \t]*(?:\r?\n|(?:\\+r)?\\+n)/g;
const PPK_LINE =
  /(?:[ \t]*\d{1,7}(?:→|\t|\. ))?[ \t]*[A-Za-z0-9+\/=]+[ \t]*(?:\r?\n|(?:\\+r)?\\+n|$)/y;
const PPK_MAC = /Private-(?:MAC|Hash):[ \t]*([0-9a-fA-F]{16,})/y;

/** The length of `body` less its trailing blanks and written-out line breaks. */
function trimmedLength(body: string): number {
  return body.length - gapEndLength(body);
}

/**
 * Adds an edit for the private lines of every PuTTY key (with `Encryption:
 * none` they are the whole private key) and for the MAC after them.
 */
function puttyKeys(text: string, edits: Edits): void {
  PPK_PRIVATE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = PPK_PRIVATE.exec(text)) !== null) {
    const body = PPK_PRIVATE.lastIndex;
    const start = body + gutterLength(text.slice(body, body + 16));
    let end = start;
    PPK_LINE.lastIndex = body;
    for (let n = Number(m[1]); n > 0 && PPK_LINE.test(text); n--) {
      end = PPK_LINE.lastIndex;
    }
    end = start + trimmedLength(text.slice(start, end));
    if (end === start || isRedacted(text.slice(start, end))) continue;
    edits.push({ start, end, id: "private-key" });
    let next = end + PEM_GAP.exec(text.slice(end, end + 16))![0].length;
    next += gutterLength(text.slice(next, next + 16));
    PPK_MAC.lastIndex = next;
    const mac = PPK_MAC.exec(text);
    if (mac) {
      const macEnd = PPK_MAC.lastIndex;
      edits.push({
        start: macEnd - mac[1]!.length,
        end: macEnd,
        id: "private-key",
      });
    }
    PPK_PRIVATE.lastIndex = Math.max(PPK_PRIVATE.lastIndex, end);
  }
}

/** A line of key material: gutter, indent, 16+ base64 characters. */
const BODY_LINE =
  /^[ \t]*(?:\d{1,7}(?:→|\t|\. ))?[ \t]*([A-Za-z0-9+\/=]{16,})[ \t]*(?:\r|\\r)?$/;
/** The base64 that ends the first line of a block cut at its start. */
const BODY_TAIL = /[A-Za-z0-9+\/=]{16,}[ \t]*(?:\r|\\r)?$/;
/** A line holding only a file reader's gutter. */
const GUTTER_ONLY = /^[ \t]*\d{1,7}(?:→|\t|\. )[ \t]*$/;
/** The longest line read back (a key's lines are 64 or 70 characters). */
const MAX_LINE = 4096;
/** How far before a footer its body is looked for. */
const HEADLESS_WINDOW = 65536;

/**
 * Adds an edit for the body of every private key block cut at its start
 * (`tail -n 20 key.pem`, a scrolled terminal, a paged output): the lines of
 * base64 that stand right before a footer no header opens, 64 characters
 * or more of them. Read backwards a line at a time (each line one anchored
 * test), at most {@link HEADLESS_WINDOW} characters before the footer.
 */
function headlessKeys(text: string, edits: Edits): void {
  PEM_ANY_FOOTER.lastIndex = 0;
  let opened = 0;
  // The first header at or after the last footer (found once per footer
  // passed, not searched for back from each: quadratic in a run of them).
  let header = text.indexOf("-----BEGIN ");
  let m: RegExpExecArray | null;
  while ((m = PEM_ANY_FOOTER.exec(text)) !== null) {
    const footerAt = m.index;
    const from = opened;
    opened = PEM_ANY_FOOTER.lastIndex;
    if (header >= 0 && header < from) {
      header = text.indexOf("-----BEGIN ", from);
    }
    // A header between the last footer and this one opens this block: the
    // header rule takes its body.
    if (header >= 0 && header < footerAt) continue;
    const floor = Math.max(from, footerAt - HEADLESS_WINDOW);
    let i = footerAt - gapEndLength(text.slice(floor, footerAt));
    // A file reader's gutter before the footer (`   14→-----END …`).
    const near = Math.max(floor, i - 16);
    const lineAt = near + text.slice(near, i).lastIndexOf("\n") + 1;
    if (lineAt > near && GUTTER_ONLY.test(text.slice(lineAt, i))) {
      i = lineAt - gapEndLength(text.slice(floor, lineAt));
    }
    const bodyEnd = i;
    let start = i;
    let total = 0;
    while (i > floor) {
      // Back to the line break (a real one or a written `\n`), char by
      // char: lastIndexOf read on to the text's start on each line.
      let lineStart = i;
      let written = false;
      while (lineStart > floor && i - lineStart <= MAX_LINE) {
        const c = text[lineStart - 1];
        if (c === "\n") break;
        if (c === "n" && text[lineStart - 2] === "\\") {
          written = true;
          break;
        }
        lineStart--;
      }
      if (i - lineStart > MAX_LINE) break;
      const line = text.slice(lineStart, i);
      const body = BODY_LINE.exec(line);
      if (body) {
        start = lineStart + line.indexOf(body[1]!);
        total += body[1]!.length;
      } else {
        const tail = BODY_TAIL.exec(line);
        if (tail) {
          start = lineStart + tail.index;
          total += tail[0].length;
        }
        break;
      }
      // Past the line break before this line (a real or a written one).
      i = lineStart - (written ? 2 : 1);
      if (i > floor && text[i - 1] === "\r") i--;
    }
    if (total < 64 || isRedacted(text.slice(start, bodyEnd))) continue;
    edits.push({ start, end: bodyEnd, id: "private-key" });
  }
}

/** The header of an anvil/ganache key listing, its keys on the lines below. */
const LISTING_HEAD = "Private Keys";
/** The `====` line under it, then blank lines. */
const LISTING_RULE = /Private Keys[ \t]*\r?\n=+[ \t]*(?:\r?\n[ \t]*)*/y;
/** One line of the listing: `(0) 0x<64 hex>`. */
const LISTING_LINE = /\(\d{1,3}\)[ \t]+0x([0-9a-fA-F]{64})[ \t]*(?:\r?\n|$)/y;
/** A JSON list of exactly 64 byte values (a Solana keypair file). */
const BYTE_LIST_START = /\[\s*\d{1,3}\s*,/g;
const BYTE_LIST = /\[\s*((?:\d{1,3}\s*,\s*){63}\d{1,3})\s*\]/y;

/** Adds an edit for each wallet secret (see the module's summary). */
function walletSecrets(text: string, edits: Edits): void {
  if (hasCue(text, LISTING_HEAD)) keyListings(text, edits);
  // A keypair's list is 64 numbers and 63 commas: 128 characters at least.
  if (text.length >= 128 && text.indexOf("[") >= 0) keypairBytes(text, edits);
  seedPhrases(text, edits);
}

/** The keys of every `Private Keys` listing anvil or ganache prints. */
function keyListings(text: string, edits: Edits): void {
  let at = text.indexOf(LISTING_HEAD);
  while (at >= 0) {
    LISTING_RULE.lastIndex = at;
    if (LISTING_RULE.test(text)) {
      LISTING_LINE.lastIndex = LISTING_RULE.lastIndex;
      let m: RegExpExecArray | null;
      while ((m = LISTING_LINE.exec(text)) !== null) {
        const start = m.index + m[0].indexOf(m[1]!);
        edits.push({ start, end: start + 64, id: "private-key" });
      }
    }
    at = text.indexOf(LISTING_HEAD, at + LISTING_HEAD.length);
  }
}

/**
 * A Solana keypair file (`~/.config/solana/id.json`): a list of exactly 64
 * numbers, each a byte, that read as random (most of them distinct, a
 * fair share above 127), not a count or an index list.
 */
function keypairBytes(text: string, edits: Edits): void {
  BYTE_LIST_START.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = BYTE_LIST_START.exec(text)) !== null) {
    BYTE_LIST.lastIndex = m.index;
    const list = BYTE_LIST.exec(text);
    if (!list) continue;
    BYTE_LIST_START.lastIndex = BYTE_LIST.lastIndex;
    const bytes = list[1]!.split(",").map((n) => Number(n.trim()));
    if (bytes.some((b) => b > 255)) continue;
    const high = bytes.filter((b) => b > 127).length;
    if (new Set(bytes).size < 40 || high < 12) continue;
    const start = m.index + list[0].indexOf(list[1]!);
    edits.push({ start, end: start + list[1]!.length, id: "private-key" });
  }
}

/**
 * What names a seed phrase before it: the words seed, recovery or secret
 * phrase, a wallet seed, seed words, mnemonic, a call that takes one (ethers' `fromPhrase(`,
 * `fromMnemonic(`), or a here-string (`<<<`) on a wallet command's line.
 */
const SEED_CUE =
  /(?:seed|recovery|secret|backup)[ _-]?phrase|[wW]allet seed|seed words|mnemonic|from(?:Phrase|Mnemonic)\(|(?:recover|wallet|keygen)\b[^\n]{0,160}<<</gi;
/** A word of a seed phrase: 3–8 lower-case letters (as BIP-39's are). */
const SEED_WORD = String.raw`[a-z]{3,8}(?![A-Za-z'’-])`;
/** The runs of such words after a cue, each maximal. */
const SEED_RUN = new RegExp(
  String.raw`(?<![A-Za-z'’-])${SEED_WORD}(?:[ \t]+${SEED_WORD})*`,
  "g",
);
/** The word counts a BIP-39 phrase has. */
const SEED_LENGTHS = new Set([12, 15, 18, 21, 24]);
/** How far after its cue a seed phrase may start, in characters. */
const SEED_WINDOW = 160;

/**
 * Seed phrases after their cue (`the recovery phrase is …`,
 * `fromPhrase("…")`, `solana-keygen recover … <<< "…"`): the first run of
 * 12, 15, 18, 21 or 24 words of 3–8 lower-case letters that starts within
 * {@link SEED_WINDOW} characters, a run no other word continues.
 */
function seedPhrases(text: string, edits: Edits): void {
  if (
    !hasCue(text, "hrase") && !hasCue(text, "mnemonic") &&
    !hasCue(text, "Mnemonic") && !hasCue(text, "<<<") &&
    !hasCue(text, "allet seed") && !hasCue(text, "seed words")
  ) return;
  SEED_CUE.lastIndex = 0;
  while (SEED_CUE.exec(text) !== null) {
    const from = SEED_CUE.lastIndex;
    const window = text.slice(from, from + SEED_WINDOW + 24 * 9);
    SEED_RUN.lastIndex = 0;
    let run: RegExpExecArray | null;
    while ((run = SEED_RUN.exec(window)) !== null && run.index < SEED_WINDOW) {
      const words = run[0].split(/[ \t]+/).length;
      if (!SEED_LENGTHS.has(words)) continue;
      // A run cut by the window's end may go on: not a whole phrase.
      const end = run.index + run[0].length;
      if (end === window.length && from + end < text.length) break;
      const start = from + run.index;
      edits.push({ start, end: from + end, id: "credential" });
      SEED_CUE.lastIndex = from + end;
      break;
    }
  }
}
