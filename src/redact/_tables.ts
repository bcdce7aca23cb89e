/**
 * Secrets in tables and dumps, where a name and its value do not meet at a
 * `:` or `=`: a markdown row (`| DB_PASSWORD | … |`), a column under a
 * header that names a secret (markdown, psql, mysql), a psql `\x` record
 * (`password | …`), PHP's `var_dump` (`["password"]=>` then `string(16)
 * "…"`), a plist (`<key>API_SECRET</key>` then `<string>…</string>`), a
 * JSON Web Key's private members, and a Kubernetes Secret's base64 data
 * whose decoded text holds a secret. Each starts from a literal cue.
 *
 * @module
 */
import {
  credentialName,
  credentialValueOk,
  keyLikeValue,
  rowValueOk,
} from "./_assignments.ts";
import { hasCue } from "./_cues.ts";
import { type Edits, isPlainWord } from "./_scan.ts";

/**
 * A markdown row of a name, then its value (`| DB_PASSWORD | … |`, names
 * and values in backticks or not), more columns after them or not; tried
 * at a line's start.
 */
const MD_ROW =
  /[ \t]*\|[ \t]*(`?)([A-Za-z][\w.-]*)\1[ \t]*\|[ \t]*(`?)([^\s|`]+)\3[ \t]*\|/dy;

/**
 * Adds an edit for each markdown row whose name names its secret value:
 * each line that holds `| ` is tried once, at its start.
 */
function markdownRows(text: string, edits: Edits): void {
  for (let at = text.indexOf("| "); at >= 0;) {
    const start = text.lastIndexOf("\n", at) + 1;
    MD_ROW.lastIndex = start;
    const m = MD_ROW.exec(text);
    if (m) {
      const value = m[4]!;
      if (rowValueOk(m[2]!, value) && randomEnough(value)) {
        const [a, b] = m.indices![4]!;
        edits.push({ start: a, end: b, id: "credential" });
      }
    }
    const nl = text.indexOf("\n", at);
    at = nl < 0 ? -1 : text.indexOf("| ", nl + 1);
  }
}

/**
 * A value in a table of settings that is no description: a digit or a
 * symbol in it, or letters that break into no words. README tables name
 * `API_KEY` beside `Stripe-key` or `see-below`.
 */
function randomEnough(value: string): boolean {
  return /[^\p{L}-]/u.test(value) ||
    (/[a-z]/.test(value) && /[A-Z]/.test(value) && value.length >= 12);
}

/** A header's name of a password column: the value is judged as a password. */
const PASSWORD_COLUMN =
  /(?:password|passwd|passphrase|passcode|pwd|[_ .-]pass|(?:^|[_ .-])pw)$/i;
/** A header's name of a secret column: a password, or a random key. */
const SECRET_COLUMN = /secret$/i;
/** A name in lower case (`db-creds-v2`): what a Secret column lists as often. */
const LOWER_NAME = /^[a-z0-9]+(?:[-_.][a-z0-9]+)*$/;
/** A header's name of a key column (`key`, `api_key`): random values only. */
const KEY_COLUMN = /(?:^|[_ .-])key$/i;
/** A header cell that is a name, not a sentence. */
const COLUMN_NAME = /^[A-Za-z][\w .-]{0,39}$/;

/** How a column's values are judged, by the name in its header. */
type Column = "password" | "secret" | "key" | null;

/** The kind of the column a header cell names, or null for other columns. */
function columnOf(header: string): Column {
  const name = header.replace(/^[`*]+|[`*]+$/g, "");
  if (!COLUMN_NAME.test(name) || /public|[gp]pg/i.test(name)) return null;
  if (PASSWORD_COLUMN.test(name)) return "password";
  if (SECRET_COLUMN.test(name)) return "secret";
  if (credentialName(name) || KEY_COLUMN.test(name)) return "key";
  return null;
}

/** Whether a cell of a column of that kind holds its secret. */
function cellSecret(column: Column, cell: string): boolean {
  const value = /^`[^`]+`$/.test(cell) ? cell.slice(1, -1) : cell;
  if (value === "" || /\s/.test(value)) return false;
  const keyLike = keyLikeValue(value);
  if (column === "key" || keyLike) return keyLike;
  if (column === "secret" && LOWER_NAME.test(value)) return false;
  return !isPlainWord(value) && credentialValueOk(value, false, false);
}

/** Whether the character at `i` is a blank (a `\r` too). */
function blank(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return c === 32 || c === 9 || c === 13;
}

/**
 * The cells of the line `[start, end)`, split at `|` (a markdown row's
 * outer pipes dropped, a psql row has none), each without its blanks.
 */
function cellsOf(text: string, start: number, end: number): [number, number][] {
  let s = start;
  let e = end;
  while (s < e && blank(text, s)) s++;
  while (e > s && blank(text, e - 1)) e--;
  if (text[s] === "|") s++;
  if (e > s && text[e - 1] === "|" && text[e - 2] !== "\\") e--;
  const cells: [number, number][] = [];
  let from = s;
  for (let i = s; i <= e; i++) {
    if (i < e && (text[i] !== "|" || text[i - 1] === "\\")) continue;
    let a = from;
    let b = i;
    while (a < b && blank(text, a)) a++;
    while (b > a && blank(text, b - 1)) b--;
    cells.push([a, b]);
    from = i + 1;
  }
  return cells;
}

/** A table's rule line: dashes, `|`, `+`, `:` and blanks only. */
const RULE_LINE = /^[-|+: \t\r]*$/;
/** psql's footer: `(1 row)`, `(12 rows)`. */
const PSQL_FOOTER = /^\((?:\d+) rows?\)\r?$/;
/** How many rows of a one-column table are read for its footer. */
const SINGLE_COLUMN_ROWS = 200;

/** The end of the line holding `at` (its `\n`, or the text's end). */
function lineEnd(text: string, at: number): number {
  const nl = text.indexOf("\n", at);
  return nl < 0 ? text.length : nl;
}

/**
 * Adds an edit for each cell under a header that names a secret: the
 * header is the line above a rule line (markdown's `|---|---|`, psql's
 * `----+----`, mysql's `+----+----+`); the rows run to a line that is no
 * row. A psql table of one column (no `|`) counts only with its footer.
 * Returns where the table ends.
 */
function tableBelow(
  text: string,
  headerStart: number,
  ruleStart: number,
  ruleEnd: number,
  edits: Edits,
): number {
  const headerEnd = ruleStart - 1;
  const piped = text.slice(headerStart, headerEnd).includes("|");
  const header = cellsOf(text, headerStart, headerEnd);
  const columns = header.map(([a, b]) => columnOf(text.slice(a, b)));
  if (!columns.some((c) => c !== null)) return ruleEnd;
  // One column: psql's, its rule all dashes, read only with its footer.
  if (!piped && !/^-+\r?$/.test(text.slice(ruleStart, ruleEnd))) return ruleEnd;
  const found: Edits = [];
  let at = ruleEnd + 1;
  let rows = 0;
  let footed = false;
  while (at < text.length) {
    const end = lineEnd(text, at);
    const line = text.slice(at, end);
    if (line.trim() === "") break;
    if (piped) {
      if (!RULE_LINE.test(line)) {
        if (!line.includes("|")) break;
        const cells = cellsOf(text, at, end);
        if (cells.length === columns.length) {
          columns.forEach((column, c) => {
            const [a, b] = cells[c]!;
            if (column !== null && cellSecret(column, text.slice(a, b))) {
              const tick = text[a] === "`" && text[b - 1] === "`" ? 1 : 0;
              found.push({ start: a + tick, end: b - tick, id: "credential" });
            }
          });
        }
      }
    } else {
      if (PSQL_FOOTER.test(line)) {
        footed = true;
        at = end + 1;
        break;
      }
      if (line.includes("|") || ++rows > SINGLE_COLUMN_ROWS) break;
      const [a, b] = cellsOf(text, at, end)[0]!;
      if (cellSecret(columns[0]!, text.slice(a, b))) {
        found.push({ start: a, end: b, id: "credential" });
      }
    }
    at = end + 1;
  }
  if (piped || footed) edits.push(...found);
  return at;
}

/** Adds an edit for each secret in a column a table's header names. */
function headerTables(text: string, edits: Edits): void {
  let from = 0;
  for (let at = text.indexOf("---"); at >= 0; at = text.indexOf("---", from)) {
    const start = text.lastIndexOf("\n", at) + 1;
    const end = lineEnd(text, at);
    from = end + 1;
    if (start < 2 || !RULE_LINE.test(text.slice(start, end))) continue;
    const headerStart = text.lastIndexOf("\n", start - 2) + 1;
    from = Math.max(from, tableBelow(text, headerStart, start, end, edits));
  }
}

/** A psql `\x` record's `name | value` line. */
const RECORD_LINE = /^[ \t]*([A-Za-z_][\w.-]{0,62})[ \t]*\| ?(.*)$/d;

/**
 * Adds an edit for each value of a psql `\x` record (`-[ RECORD 1 ]---`,
 * then `name | value` lines) whose name names a secret.
 */
function psqlRecords(text: string, edits: Edits): void {
  let at = text.indexOf("[ RECORD ");
  while (at >= 0) {
    let line = lineEnd(text, at) + 1;
    while (line < text.length) {
      const end = lineEnd(text, line);
      const row = RECORD_LINE.exec(text.slice(line, end));
      if (!row) break;
      const column = columnOf(row[1]!);
      const [from, to] = row.indices![2]!;
      let b = to;
      while (b > from && blank(text, line + b - 1)) b--;
      if (
        column !== null && cellSecret(column, text.slice(line + from, line + b))
      ) {
        edits.push({ start: line + from, end: line + b, id: "credential" });
      }
      line = end + 1;
    }
    at = text.indexOf("[ RECORD ", Math.max(at + 9, line));
  }
}

/**
 * PHP's `var_dump` of an array or object: `["password"]=>` (an object's
 * `["password":protected]=>`), then on the next line `string(16) "…"`.
 */
const VAR_DUMP =
  /\["([^"\n]{1,64})"(?::[^\]\n]{0,80})?\]=>\r?\n[ \t]*string\((\d{1,6})\) "/g;

/** Adds an edit for each string var_dump prints under a credential name. */
function varDumps(text: string, edits: Edits): void {
  VAR_DUMP.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = VAR_DUMP.exec(text)) !== null) {
    if (!credentialName(m[1]!)) continue;
    const start = VAR_DUMP.lastIndex;
    // The length is in bytes; a value of other than ASCII ends at the
    // quote that ends its line.
    let end = start + Number(m[2]);
    if (
      text[end] !== '"' || !/^\r?(?:\n|$)/.test(text.slice(end + 1, end + 3))
    ) {
      const eol = lineEnd(text, start);
      end = text.lastIndexOf('"', eol);
      if (end < start) continue;
    }
    const value = text.slice(start, end);
    if (credentialValueOk(value, true, false)) {
      edits.push({ start, end, id: "credential" });
    }
  }
}

/** A plist's `<key>NAME</key>`, then `<string>VALUE</string>`. */
const PLIST_PAIR =
  /<key>([^<\n]{1,100})<\/key>[ \t]*(?:\r?\n[ \t]*)?<string>([^<\n]{1,4096})<\/string>/g;

/** Adds an edit for each plist string under a key that names a secret. */
function plistPairs(text: string, edits: Edits): void {
  PLIST_PAIR.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = PLIST_PAIR.exec(text)) !== null) {
    const key = m[1]!.trim();
    const value = m[2]!;
    const ok = credentialName(key)
      ? credentialValueOk(value, true, false)
      : /^[A-Z][A-Z0-9_]*KEY$/.test(key) && rowValueOk(key, value);
    if (!ok) continue;
    const end = m.index + m[0].length - "</string>".length;
    edits.push({ start: end - value.length, end, id: "credential" });
  }
}

/** A JWK's private members: RSA's d, p, q, dp, dq, qi; EC's d; oct's k. */
const JWK_PRIVATE =
  /"(?:d|p|q|dp|dq|qi|k)"[ \t]*:[ \t]*"([A-Za-z0-9_-]{16,})"/g;
/** The longest JWK object read (an RSA 8192 key's members fit). */
const JWK_REACH = 16384;

/**
 * Adds an edit for each private member of a JSON Web Key: the object
 * around each `"kty"`, from the `{` before it to the `}` after it. The
 * braces are found by reading on from the last `"kty"`'s, so many keys
 * cost the text's length once.
 */
function jsonWebKeys(text: string, edits: Edits): void {
  let open = -1;
  let read = 0;
  let close = -1;
  let done = -1;
  for (
    let at = text.indexOf('"kty"');
    at >= 0;
    at = text.indexOf('"kty"', at + 5)
  ) {
    for (let i = at; i >= read; i--) {
      if (text.charCodeAt(i) === 123 /* { */) {
        open = i;
        break;
      }
    }
    read = at;
    if (close !== -2 && close < at) {
      close = text.indexOf("}", at);
      if (close < 0) close = -2;
    }
    if (open < 0 || close < 0 || open === done) continue;
    if (close - open > JWK_REACH) continue;
    done = open;
    const object = text.slice(open, close);
    JWK_PRIVATE.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = JWK_PRIVATE.exec(object)) !== null) {
      const end = open + m.index + m[0].length - 1;
      edits.push({ start: end - m[1]!.length, end, id: "credential" });
    }
  }
}

/** Adds an edit for every secret in a table or dump. */
export function collectTables(text: string, edits: Edits): void {
  if (hasCue(text, "| ")) markdownRows(text, edits);
  if (hasCue(text, "---")) headerTables(text, edits);
  if (hasCue(text, "[ RECORD ")) psqlRecords(text, edits);
  if (hasCue(text, "]=>")) varDumps(text, edits);
  if (hasCue(text, "</key>")) plistPairs(text, edits);
  if (hasCue(text, '"kty"')) jsonWebKeys(text, edits);
}

/** A Kubernetes object's kind is Secret. */
const KIND_SECRET = /\bkind["']?[ \t]*:[ \t]*["']?Secret\b/;
/** A `data` key, then the JSON object it opens or the end of its line. */
const DATA_KEY = /(?<![\w.-])(["']?)data\1[ \t]*:[ \t]*(\{|\r?\n)/g;
/** A pair of a JSON `data` object: the name, a string value, a comma. */
const JSON_PAIR = /\s*"([^"\\\n]{1,253})"[ \t]*:[ \t]*"([^"\\\n]*)"[ \t]*,?/dy;
/** A line below a YAML `data:`: indentation, the name, the value. */
const YAML_PAIR =
  /^([ \t]+)(["']?)([\w.-]{1,253})\2[ \t]*:[ \t]*(\S+)[ \t]*\r?$/;
/** A base64 value long enough to hold a secret, padded as Kubernetes pads it. */
const BASE64_VALUE =
  /^(?:[A-Za-z0-9+\/]{4}){3,}(?:[A-Za-z0-9+\/]{2}==|[A-Za-z0-9+\/]{3}=)?$/;
/** The longest base64 value decoded (a config file's worth). */
const DATA_REACH = 65536;
/** Control characters no text holds (tab and line breaks aside). */
// deno-lint-ignore no-control-regex -- finding them is the point
const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/;

/** `value` decoded from base64 when that gives UTF-8 text, else null. */
function decodedText(value: string): string | null {
  if (value.length > DATA_REACH || !BASE64_VALUE.test(value)) return null;
  let binary: string;
  try {
    binary = atob(value);
  } catch {
    return null;
  }
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  let decoded: string;
  try {
    decoded = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
  return CONTROL.test(decoded) ? null : decoded;
}

/**
 * Adds an edit for each value of a Kubernetes Secret's `data` (base64,
 * in YAML or JSON) whose decoded text holds a secret, as `holdsSecret`
 * (redact() on the decoded text) judges: `DATABASE_URL: <base64 of
 * postgres://app:pw@db/app>`, a config file with a password in it. A value
 * under a name that names a secret is the assignment rules' already. A
 * YAML `data:` block is read without a `kind: Secret` too.
 *
 * @param text The text.
 * @param edits Where edits go.
 * @param holdsSecret Whether a decoded value holds a secret.
 */
export function collectSecretData(
  text: string,
  edits: Edits,
  holdsSecret: (decoded: string) => boolean,
): void {
  const secret = hasCue(text, "Secret") && KIND_SECRET.test(text);
  // A YAML `data:` block shown without its kind (a snippet of the
  // manifest) is read too; a JSON "data" object only in a Secret.
  if (!secret && !hasCue(text, "data:\n")) return;
  const check = (start: number, value: string) => {
    const decoded = decodedText(value);
    if (decoded !== null && holdsSecret(decoded)) {
      edits.push({ start, end: start + value.length, id: "credential" });
    }
  };
  DATA_KEY.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = DATA_KEY.exec(text)) !== null) {
    if (m[2] === "{") {
      if (!secret) continue;
      JSON_PAIR.lastIndex = DATA_KEY.lastIndex;
      let read = DATA_KEY.lastIndex;
      let pair: RegExpExecArray | null;
      while ((pair = JSON_PAIR.exec(text)) !== null) {
        check(pair.indices![2]![0], pair[2]!);
        read = JSON_PAIR.lastIndex;
      }
      // The pairs read are no keys to look for again.
      DATA_KEY.lastIndex = read;
      continue;
    }
    const keyLine = text.lastIndexOf("\n", m.index) + 1;
    let indent = 0;
    while (blank(text, keyLine + indent)) indent++;
    let line = DATA_KEY.lastIndex;
    while (line < text.length) {
      const end = lineEnd(text, line);
      const pair = YAML_PAIR.exec(text.slice(line, end));
      if (!pair || pair[1]!.length <= indent) break;
      const value = pair[4]!;
      check(line + pair[0].lastIndexOf(value), value);
      line = end + 1;
    }
    if (line > DATA_KEY.lastIndex) DATA_KEY.lastIndex = line;
  }
}
