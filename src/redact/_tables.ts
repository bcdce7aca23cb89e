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
  BOOTSTRAP_TOKEN,
  credentialName,
  credentialValueOk,
  keyLikeValue,
  rowValueOk,
} from "./_assignments.ts";
import { cueSet, hasAnyCue, hasCue, TABLE_HEADER_CUES } from "./_cues.ts";
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
  // `kubeadm token list`'s TOKEN column: a bootstrap token is no key shape.
  if (column === "key" || keyLike) {
    return keyLike || BOOTSTRAP_TOKEN.test(value);
  }
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

/** A plist key in CamelCase that ends in `Key` (`RevenueCatKey`), not a public one. */
const PLIST_CAMEL_KEY = /^(?!.*Public)[A-Z][A-Za-z0-9]*[a-z0-9]Key$/;

/** Adds an edit for each plist string under a key that names a secret. */
function plistPairs(text: string, edits: Edits): void {
  PLIST_PAIR.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = PLIST_PAIR.exec(text)) !== null) {
    const key = m[1]!.trim();
    const value = m[2]!;
    const ok = credentialName(key)
      ? credentialValueOk(value, true, false)
      : /^[A-Z][A-Z0-9_]*KEY$/.test(key)
      ? rowValueOk(key, value)
      : PLIST_CAMEL_KEY.test(key) && keyLikeValue(value);
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

/** How a delimited table's cells are separated: a comma, a tab, or 2+ blanks. */
type Separator = "," | "\t" | "  ";

/** The separator a header line's cells use: a tab, else a comma, else blanks. */
function separatorOf(line: string): Separator {
  return line.includes("\t") ? "\t" : line.includes(",") ? "," : "  ";
}

/** Whether a separator of `sep` stands at `i` (2+ blanks or a tab for "  "). */
function separatorAt(text: string, i: number, sep: Separator): boolean {
  const c = text[i];
  if (sep !== "  ") return c === sep;
  return c === "\t" || (c === " " && text[i + 1] === " ");
}

/**
 * The cells of the line `[start, end)` of a CSV, TSV or blank-aligned
 * table, each without its blanks and (a CSV's) double quotes.
 */
function delimitedCells(
  text: string,
  start: number,
  end: number,
  sep: Separator,
): [number, number][] {
  let s = start;
  let e = end;
  while (s < e && blank(text, s)) s++;
  while (e > s && blank(text, e - 1)) e--;
  const cells: [number, number][] = [];
  let from = s;
  for (let i = s; i <= e; i++) {
    if (i < e && !separatorAt(text, i, sep)) continue;
    let a = from;
    let b = i;
    while (a < b && blank(text, a)) a++;
    while (b > a && blank(text, b - 1)) b--;
    if (b - a >= 2 && text[a] === '"' && text[b - 1] === '"') {
      a++;
      b--;
    }
    cells.push([a, b]);
    from = i + 1;
    // Blanks that separate are one separator.
    if (sep === "  ") { while (from < e && blank(text, from)) from++; }
    i = from - 1;
  }
  return cells;
}

/** The cues of a delimited table's header, asked together first. */
const HEADER_CUES = cueSet(TABLE_HEADER_CUES);
/** A pandas frame's row label (its index) before the cells its header names. */
const ROW_LABEL = /^[\w.-]{1,40}$/;
/** How many rows below a header are read. */
const DELIMITED_ROWS = 5000;

/**
 * The columns a delimited table's header line names, when it is one: 2+
 * cells, each a name, one naming a secret with no blank in it; else null.
 */
function delimitedHeader(
  text: string,
  start: number,
  end: number,
  sep: Separator,
): Column[] | null {
  const cells = delimitedCells(text, start, end, sep);
  if (cells.length < 2) return null;
  const columns: Column[] = [];
  for (const [a, b] of cells) {
    const name = text.slice(a, b);
    if (!COLUMN_NAME.test(name)) return null;
    columns.push(/\s/.test(name) ? null : columnOf(name));
  }
  return columns.some((c) => c !== null) ? columns : null;
}

/**
 * Adds an edit for each secret cell of the rows from `at` under `columns`
 * (the rows' cells split at `sep`, as many as the header's; a pandas row
 * has its label first). The rows run to a blank line, a line without the
 * separator, or `stop` (a dump's `\.`). Returns where they end.
 */
function delimitedRows(
  text: string,
  at: number,
  columns: Column[],
  sep: Separator,
  edits: Edits,
  stop?: string,
): number {
  for (let rows = 0; at < text.length && rows < DELIMITED_ROWS; rows++) {
    const end = lineEnd(text, at);
    const line = text.slice(at, end);
    if (line.trim() === "" || line.trimEnd() === stop) break;
    if (!line.includes(sep === "  " ? " " : sep)) break;
    if (!RULE_LINE.test(line)) {
      let cells = delimitedCells(text, at, end, sep);
      if (
        sep === "  " && cells.length === columns.length + 1 &&
        ROW_LABEL.test(text.slice(...cells[0]!))
      ) cells = cells.slice(1);
      if (cells.length === columns.length) {
        columns.forEach((column, c) => {
          const [a, b] = cells[c]!;
          if (column !== null && cellSecret(column, text.slice(a, b))) {
            edits.push({ start: a, end: b, id: "credential" });
          }
        });
      }
    }
    at = end + 1;
  }
  return at;
}

/** Whether the code unit `c` may stand in a column's name. */
function nameUnit(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) ||
    (c >= 48 && c <= 57) || c === 95 || c === 46 || c === 45;
}

/**
 * Whether the name holding `at` stands alone in a cell: a line's start,
 * a separator, a blank or a quote before it, and after it a separator,
 * two blanks, a quote or the line's end (`key:`, `token)` and `apiKey =`
 * are code). Read before the line is, to pass over most words quickly.
 */
function aloneInCell(text: string, at: number): boolean {
  let a = at;
  while (a > 0 && nameUnit(text.charCodeAt(a - 1))) a--;
  let b = at;
  while (b < text.length && nameUnit(text.charCodeAt(b))) b++;
  const before = a === 0 ? 10 : text.charCodeAt(a - 1);
  if (
    before !== 10 && before !== 44 && before !== 9 && before !== 32 &&
    before !== 34
  ) {
    return false;
  }
  const after = b === text.length ? 10 : text.charCodeAt(b);
  if (after === 32) {
    const next = text.charCodeAt(b + 1);
    return next === 32 || next === 9 || next === 10 || next === 13;
  }
  return after === 10 || after === 13 || after === 44 || after === 9 ||
    after === 34;
}

/**
 * Adds an edit for each secret in a CSV, a TSV or a blank-aligned table (a
 * CLI's `NAME  TOKEN  CREATED`, a pandas frame) under a header that names
 * a secret column: the header is a line of names where a cue of
 * {@linkcode TABLE_HEADER_CUES} (a credential word's end, then a
 * separator) stands, each line read once.
 */
function delimitedTables(text: string, edits: Edits): void {
  // A header and a row need a line break; most one-line texts are short,
  // and a short text is not scanned for cues until asked.
  if (text.indexOf("\n") < 0 || !hasAnyCue(text, HEADER_CUES)) return;
  const hits: number[] = [];
  for (const cue of TABLE_HEADER_CUES) {
    if (!hasCue(text, cue)) continue;
    for (let i = text.indexOf(cue); i >= 0; i = text.indexOf(cue, i + 1)) {
      hits.push(i);
    }
  }
  hits.sort((a, b) => a - b);
  let read = 0;
  for (const at of hits) {
    if (at < read || !aloneInCell(text, at)) continue;
    const start = text.lastIndexOf("\n", at) + 1;
    const end = lineEnd(text, at);
    read = end + 1;
    const sep = separatorOf(text.slice(start, end));
    const columns = delimitedHeader(text, start, end, sep);
    if (columns) read = delimitedRows(text, end + 1, columns, sep, edits);
  }
}

/** A psql dump's `COPY table (columns) FROM stdin;` line: group 1 the columns. */
const COPY_HEADER =
  /^COPY [^\s(]{1,200} \(([^()\n]{1,4000})\) FROM stdin;\r?$/gm;

/**
 * Adds an edit for each secret in a `pg_dump` `COPY … FROM stdin;` block:
 * its tab-separated rows to `\.`, under the columns the line names.
 */
function copyDumps(text: string, edits: Edits): void {
  COPY_HEADER.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = COPY_HEADER.exec(text)) !== null) {
    const columns = m[1]!.split(",").map((c) =>
      columnOf(c.trim().replace(/^"|"$/g, ""))
    );
    if (!columns.some((c) => c !== null)) continue;
    const from = m.index + m[0].length + 1;
    COPY_HEADER.lastIndex = delimitedRows(
      text,
      from,
      columns,
      "\t",
      edits,
      "\\.",
    );
  }
}

/**
 * An XML value under a key attribute (MySQL Workbench's `<value
 * type="string" key="password">X</value>`): group 1 the key, 2 the value.
 */
const KEYED_VALUE =
  /\bkey="([^"\n]{1,100})"[^<>\n]{0,200}>([^<\n]{1,4096})<\//g;

/** Adds an edit for each XML value a credential-named key attribute holds. */
function keyedValues(text: string, edits: Edits): void {
  KEYED_VALUE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = KEYED_VALUE.exec(text)) !== null) {
    const value = m[2]!;
    if (!credentialName(m[1]!) || isPlainWord(value)) continue;
    if (!credentialValueOk(value, true, false)) continue;
    const end = m.index + m[0].length - 2;
    edits.push({ start: end - value.length, end, id: "credential" });
  }
}

/**
 * An element named for a credential around a `<Value>` (Windows
 * unattend.xml's `<Password><Value>X</Value>`, `<AdministratorPassword>`):
 * group 1 the element, 2 the value.
 */
const ELEMENT_VALUE =
  /<([A-Za-z][\w.-]{0,60})>\s{0,200}<Value>([^<\n]{1,4096})<\/Value>/g;

/** What Windows Setup leaves of a value it used: `*SENSITIVE*DATA*DELETED*`. */
const DELETED_VALUE = /^\*[A-Z*]*\*$/;

/** Adds an edit for each `<Value>` a credential-named element holds. */
function elementValues(text: string, edits: Edits): void {
  ELEMENT_VALUE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = ELEMENT_VALUE.exec(text)) !== null) {
    const value = m[2]!;
    if (!credentialName(m[1]!) || isPlainWord(value)) continue;
    if (DELETED_VALUE.test(value)) continue;
    if (!credentialValueOk(value, true, false)) continue;
    const end = m.index + m[0].length - "</Value>".length;
    edits.push({ start: end - value.length, end, id: "credential" });
  }
}

/**
 * A line of `reg query`'s output: the value's name, its string type, the
 * data to the line's end (group 1 the name, 2 the data).
 */
const REG_QUERY_LINE =
  /^[ \t]+([A-Za-z][\w.-]{0,100})[ \t]+REG_(?:EXPAND_|MULTI_)?SZ[ \t]+([^\r\n]+)/gm;

/** Adds an edit for each registry string a credential-named value holds. */
function registryValues(text: string, edits: Edits): void {
  REG_QUERY_LINE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = REG_QUERY_LINE.exec(text)) !== null) {
    const data = m[2]!.trimEnd();
    if (!rowValueOk(m[1]!, data) || /\s/.test(data)) continue;
    const start = m.index + m[0].length - m[2]!.length;
    edits.push({ start, end: start + data.length, id: "credential" });
  }
}

/**
 * PowerShell's `ConvertFrom-SecureString` output: a DPAPI blob's fixed
 * header (version 1, the provider's GUID), then the encrypted hex. Group 1
 * is what follows the header.
 */
const DPAPI_BLOB = /01000000d08c9ddf0115d1118c7a00c04fc297eb([0-9a-f]{32,})/gi;

/** Adds an edit for each DPAPI blob's encrypted part, its header kept. */
function dpapiBlobs(text: string, edits: Edits): void {
  DPAPI_BLOB.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = DPAPI_BLOB.exec(text)) !== null) {
    const end = m.index + m[0].length;
    edits.push({ start: end - m[1]!.length, end, id: "credential" });
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
  delimitedTables(text, edits);
  if (hasCue(text, "FROM stdin")) copyDumps(text, edits);
  if (hasCue(text, 'key="')) keyedValues(text, edits);
  if (hasCue(text, "<Value>")) elementValues(text, edits);
  if (hasCue(text, "REG_")) registryValues(text, edits);
  if (hasCue(text, "d08c9ddf0115d111")) dpapiBlobs(text, edits);
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
