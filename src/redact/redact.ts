/**
 * Secret redaction, run on every record's text before it is written
 * anywhere (index, export, memory). A secret value becomes
 * `[redacted:<rule-id>]`; the key and the prose around it stay, so
 * `AWS_SECRET_ACCESS_KEY=…` is still found by a search for the key name.
 *
 * Cost matters more than usual here: the index runs this on every record of
 * a corpus of hundreds of MB. Each rule starts with one scan for a rare
 * anchor and does real work only where the anchor is, so text without
 * secrets costs a handful of native regex scans and one sampled pass.
 * The rules are listed in `_rules.ts`.
 *
 * @module
 */
import { hasCue, hasWide } from "./_cues.ts";
import { COLLECTORS, RULE_IDS } from "./_rules.ts";
import { collectSecretData } from "./_tables.ts";
import { collectSpokenPasswords, collectWrittenPasswords } from "./_words.ts";
import { collectSpokenTokens } from "./_tokens.ts";
import {
  collectEchoedCommands,
  collectPositional,
  collectRecipeCommands,
} from "./_command_line.ts";
import { continuedEnd, type Edit, type Edits, marker } from "./_scan.ts";

/**
 * The revision of the redaction rules. Bump it whenever redact() replaces
 * something it did not before (or stops replacing something): an index
 * written under another revision has every file read again by the next
 * `deja index`, so secrets the new rules find are no longer kept in it.
 */
export const REDACTION_REVISION = 16;

/** What redact() returns. */
export interface RedactionResult {
  /** The text with secret values replaced by `[redacted:<rule-id>]`. */
  text: string;
  /** Rule id → replacements made; rules that made none are absent. */
  counts: Record<string, number>;
}

/**
 * Every rule id redact() may count, with what it catches, from the most to
 * the least specific (where two matches overlap, the earlier id wins).
 *
 * @example
 * ```ts
 * import { REDACTION_RULES } from "./redact.ts";
 * import { ok } from "node:assert/strict";
 * ok(REDACTION_RULES.some((r) => r.id === "aws-access-key"));
 * ```
 */
export const REDACTION_RULES: readonly { id: string; description: string }[] =
  Object.freeze(RULE_IDS.map((r) => Object.freeze({ ...r })));

const RANK = new Map(RULE_IDS.map((r, i) => [r.id, i]));

// CSI (ESC [ … final), OSC (ESC ] … BEL or ST), DCS/SOS/PM/APC strings,
// charset designations and other two-byte escapes, 8-bit CSI, and any ESC
// left over.
const TERMINAL_ESCAPE =
  // deno-lint-ignore no-control-regex -- matching escape bytes is the point
  /\x1b\[[0-?]*[ -\/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[PX^_][^\x1b]*(?:\x1b\\)?|\x1b[()*+][0-9A-Za-z]|\x1b[@-Z\\-_]|\x9b[0-?]*[ -\/]*[@-~]|\x1b/g;

/**
 * Characters a copied token carries that no one sees: NUL (UTF-16 text a
 * command printed), the soft hyphen, zero-width space, word joiner and BOM
 * anywhere, and the zero-width (non-)joiner after an ASCII character (in
 * emoji and Indic or Persian words they shape the text, so they stay).
 */
const INVISIBLE = /[\0\u00ad\u200b\u2060\ufeff]|(?<=[!-~])[\u200c\u200d]/g;
/** One scan for any character the text is cleaned or folded for. */
const UNUSUAL = /[\0\u00ad\u200b-\u200d\u2060\ufeff\uff01-\uff5e]/;

/**
 * Whether `text` holds a character {@linkcode UNUSUAL} looks for: all but
 * NUL are non-ASCII, so ASCII text (the cue scan tells) is not read again.
 */
function hasUnusual(text: string): boolean {
  return hasCue(text, "\0") || (hasWide(text) && UNUSUAL.test(text));
}
/** Fullwidth forms of ASCII `!`…`~` (`ｇｈｐ＿…`). */
const FULLWIDTH = /[\uff01-\uff5e]/g;

/**
 * Drops the invisible characters that split a token when it is copied
 * from chat, a wiki or a PDF (NUL, U+00AD, U+200B, U+2060, U+FEFF, and
 * U+200C/U+200D after an ASCII character). redact() does this first; the
 * indexer also does it when redaction is off, so a NUL never cuts a
 * stored string short.
 *
 * @param text Any text.
 * @returns The text without those characters (the same string when none).
 * @example
 * ```ts
 * import { withoutInvisible } from "./redact.ts";
 * import { equal } from "node:assert/strict";
 * equal(withoutInvisible("ghp_ab\u200bcd"), "ghp_abcd");
 * ```
 */
export function withoutInvisible(text: string): string {
  return UNUSUAL.test(text) ? text.replace(INVISIBLE, "") : text;
}

/**
 * The text the rules read: fullwidth ASCII folded to ASCII. Each fullwidth
 * character is one UTF-16 unit, as its ASCII form is, so an edit found in
 * the folded text applies to the text as it was.
 */
function folded(text: string): string {
  FULLWIDTH.lastIndex = 0;
  if (!FULLWIDTH.test(text)) return text;
  return text.replace(
    FULLWIDTH,
    (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0),
  );
}

/** At most 16 lowercase letters and digits, after an optional `<length>:`. */
const PLAIN_KEY = /^(?:\d{1,9}:)?[0-9a-z]{1,16}$/;

/**
 * Whether `text` is a short plain key (a line key, a fingerprint `12:1x3k9`)
 * that no rule changes when redacted as output: too short and plain for a
 * secret's shape, with no key word for a value to follow. Callers redacting
 * many such values (a parser's saved state) may pass over them.
 *
 * @example
 * ```ts
 * import { isPlainKey } from "./redact.ts";
 * import { equal } from "node:assert/strict";
 * equal(isPlainKey("4f1c9a0be2d7"), true);
 * equal(isPlainKey("password:hunter2"), false);
 * ```
 */
export function isPlainKey(text: string): boolean {
  return PLAIN_KEY.test(text);
}

/** Options for {@linkcode redact}. */
export interface RedactOptions {
  /**
   * What the text is, when known: `speech` (what people and agents say:
   * every rule), `command` (a command line: of the rules for passwords
   * said in words, only those for a sentence of another language and a
   * login pair), `output` (tool output and other work records: those, but
   * not the rule for secrets a command takes in its own place, which looks
   * for command lines). Unknown text gets every rule.
   */
  kind?: "speech" | "command" | "output";
}

/**
 * Replaces secret values in `text` with `[redacted:<rule-id>]` and counts
 * the replacements per rule. Terminal escape sequences and invisible
 * characters (zero-width, soft hyphen, NUL) are removed first when present
 * (the returned text is then the stripped text), so colour codes and
 * copy artefacts cannot split a key from its value or a token in two;
 * fullwidth ASCII (`ｇｈｐ＿…`) is read as ASCII. Redacting twice gives the same
 * text as redacting once.
 *
 * @param text Any text: a message, a tool output, a command.
 * @param options What the text is (speech, a command, output), when known.
 * @returns The redacted text and per-rule counts.
 * @example
 * ```ts
 * import { redact } from "./redact.ts";
 * import { deepEqual, equal } from "node:assert/strict";
 * const r = redact("export AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY");
 * equal(r.text, "export AWS_SECRET_ACCESS_KEY=[redacted:aws-secret]");
 * deepEqual(r.counts, { "aws-secret": 1 });
 * equal(redact("the password is wrong").text, "the password is wrong");
 * ```
 */
export function redact(
  text: string,
  options: RedactOptions = {},
): RedactionResult {
  let input = text;
  if (hasCue(input, "\x1b") || hasCue(input, "\x9b")) {
    input = input.replace(TERMINAL_ESCAPE, "");
  }
  let scanned = input;
  if (hasUnusual(input)) {
    input = input.replace(INVISIBLE, "");
    scanned = folded(input);
  }
  const edits: Edits = [];
  for (const collect of COLLECTORS) collect(scanned, edits);
  // Output gets the command-line rules only on the lines that echo a
  // command (Gemini's `Command: …`, a shell prompt).
  if (options.kind === "output") {
    collectEchoedCommands(scanned, edits);
    // A shell script (`cat deploy.sh`, a file written or patched) is
    // command lines.
    if (hasCue(scanned, "#!/")) collectPositional(scanned, edits);
    // So is a Makefile's recipe line.
    else collectRecipeCommands(scanned, edits);
  } else collectPositional(scanned, edits, options.kind !== "speech");
  if (options.kind === undefined || options.kind === "speech") {
    collectSpokenPasswords(scanned, edits);
  } else {
    // A notes file read, a commit message: a sentence of another language
    // or a login pair says a password there too.
    collectWrittenPasswords(scanned, edits);
  }
  // A key pasted with no word before it: only where the kind is known to
  // be speech (unknown text may be output, full of ids that look random).
  if (options.kind === "speech") collectSpokenTokens(scanned, edits);
  // A Kubernetes Secret's base64 data: each value decoded and redacted.
  collectSecretData(
    scanned,
    edits,
    (decoded) => Object.keys(redact(decoded, options).counts).length > 0,
  );
  const counts: Record<string, number> = {};
  let out = input;
  if (edits.length > 0 && hasCue(scanned, "[redacted:")) {
    outsideMarkers(scanned, edits);
  }
  if (edits.length > 0) {
    const kept = keepMostSpecific(edits);
    const parts: string[] = [];
    let at = 0;
    for (const [k, e] of kept.entries()) {
      parts.push(input.slice(at, e.start), marker(e.id));
      counts[e.id] = (counts[e.id] ?? 0) + 1;
      // A token split over lines (a `\` continuation, a terminal's wrap)
      // goes whole, up to the next replacement.
      const next = kept[k + 1]?.start ?? input.length;
      at = Math.min(continuedEnd(scanned, e.start, e.end), next);
    }
    parts.push(input.slice(at));
    out = parts.join("");
  }
  const result = hasCue(out, "%") && PERCENT_ESCAPE.test(out)
    ? percentEncoded(out, options, counts)
    : { text: out, counts };
  const decoded = hasCue(result.text, "\\u00")
    ? unicodeEscaped(result, options)
    : result;
  return hasCue(decoded.text, "&") && HTML_ESCAPE.test(decoded.text)
    ? htmlEscaped(decoded, options)
    : decoded;
}

/** An HTML entity for a quote or an angle bracket (`&quot;`, `&#34;`, `&lt;`). */
const HTML_ESCAPE = /&(?:quot|apos|lt|gt|#3[49]|#x2[27]);/;
const HTML_ENTITY = /&(?:quot|apos|lt|gt|#3[49]|#x2[27]);/g;
const HTML_CHAR: Record<string, string> = {
  "&quot;": '"',
  "&#34;": '"',
  "&#x22;": '"',
  "&apos;": "'",
  "&#39;": "'",
  "&#x27;": "'",
  "&lt;": "<",
  "&gt;": ">",
};

/**
 * Credentials in HTML-escaped text (a page or an attribute holding JSON or
 * XML: `data-config="{&quot;apiKey&quot;:&quot;…&quot;}"`,
 * `&lt;password&gt;…&lt;/password&gt;`): the quote and bracket entities are
 * decoded and the text redacted again; when that finds a secret, the text
 * is kept decoded and redacted, else as it was. `&amp;` stays (decoded,
 * `&amp;quot;` would make another layer); no entity is left for the second
 * pass to decode, so it is the last.
 */
function htmlEscaped(
  result: RedactionResult,
  options: RedactOptions,
): RedactionResult {
  const decoded = result.text.replace(HTML_ENTITY, (e) => HTML_CHAR[e]!);
  return redactedIfSecret(result, decoded, options);
}

/**
 * `decoded` (the text with one layer of escapes undone) redacted, counted
 * on top of `result`'s counts, when that finds a secret; else `result`.
 */
function redactedIfSecret(
  result: RedactionResult,
  decoded: string,
  options: RedactOptions,
): RedactionResult {
  const inner = redact(decoded, options);
  if (Object.keys(inner.counts).length === 0) return result;
  const counts = { ...result.counts };
  for (const [rule, n] of Object.entries(inner.counts)) {
    counts[rule] = (counts[rule] ?? 0) + n;
  }
  return { text: inner.text, counts };
}

/** A JSON `\u00XX` escape of a printable ASCII character. */
const UNICODE_ESCAPE = /\\u00([2-7][0-9a-fA-F])/g;

/**
 * Credentials in JSON whose quotes and separators are written as escapes
 * (`{\u0022client_secret\u0022:\u0022…\u0022}`): the escapes are decoded and
 * the text redacted again; when that finds a secret, the text is kept
 * decoded and redacted, else as it was.
 */
function unicodeEscaped(
  result: RedactionResult,
  options: RedactOptions,
): RedactionResult {
  const decoded = result.text.replace(
    UNICODE_ESCAPE,
    (_, hex: string) => String.fromCharCode(parseInt(hex, 16)),
  );
  if (decoded === result.text) return result;
  return redactedIfSecret(result, decoded, options);
}

/**
 * A percent escape of a separator a credential hides behind (`=`, `:`,
 * `@`, `/`, `?`, `&`), also escaped twice (`%253A`).
 */
const PERCENT_ESCAPE = /%(?:25)?(?:3[dDaA]|40|2[fF]|3[fF]|26)/;
/**
 * A run without blanks that holds such an escape, tried only where a run
 * starts: tried inside one too, a long run with no escape (a base64 blob)
 * was read again from each of its characters, quadratic in its length.
 */
const ENCODED_RUN =
  /(?<![^\s"'<>`])[^\s"'<>`]*%(?:25)?(?:3[dDaA]|40|2[fF]|3[fF]|26)[^\s"'<>`]*/g;

/**
 * Credentials hidden in percent-encoded text (a URL carried in another
 * URL's parameter: `next=%2Fapi%3Faccess_token%3D…`): each run holding an
 * escaped separator is decoded and redacted; when that finds a secret, the
 * run is kept decoded and redacted, else as it was.
 */
function percentEncoded(
  text: string,
  options: RedactOptions,
  counts: Record<string, number>,
): RedactionResult {
  const replaced = text.replace(ENCODED_RUN, (run) => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(run);
    } catch {
      return run;
    }
    if (decoded === run) return run;
    // The decoded run may hold another layer: redact() reaches it again.
    const inner = redact(decoded, options);
    if (Object.keys(inner.counts).length === 0) return run;
    for (const [rule, n] of Object.entries(inner.counts)) {
      counts[rule] = (counts[rule] ?? 0) + n;
    }
    return inner.text;
  });
  return { text: replaced, counts };
}

/** A replacement redact() made, as it reads in its output. */
const MARKER = /\[redacted:[a-z0-9-]+\]/g;

/**
 * Keeps `edits` off the replacements an earlier pass made, so a second
 * pass changes nothing: an edit that starts inside a marker (a rule read
 * its words, `prose-password]?`, as a value) is dropped, and one that
 * ends inside a marker is cut back to where the marker starts.
 */
function outsideMarkers(text: string, edits: Edits): void {
  const spans: Array<[number, number]> = [];
  MARKER.lastIndex = 0;
  for (let m; (m = MARKER.exec(text)) !== null;) {
    spans.push([m.index, m.index + m[0].length]);
  }
  if (spans.length === 0) return;
  let kept = 0;
  for (const e of edits) {
    // The first marker that ends after the edit starts, found by halving.
    let lo = 0;
    let hi = spans.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (spans[mid]![1] <= e.start) lo = mid + 1;
      else hi = mid;
    }
    for (let k = lo; k < spans.length && spans[k]![0] < e.end; k++) {
      const [s, end] = spans[k]!;
      if (e.start > s) e.end = e.start;
      else if (e.end < end) e.end = s;
    }
    if (e.end > e.start) edits[kept++] = e;
  }
  edits.length = kept;
}

/**
 * Drops every edit that overlaps one from a more specific rule (between two
 * of one rule, the one reaching further stays) and returns the rest in text
 * order, in O(k log k).
 */
function keepMostSpecific(edits: Edits): Edit[] {
  if (edits.length === 1) return edits;
  const sorted = [...edits].sort((x, y) => x.start - y.start);
  const kept: Edit[] = [];
  for (const e of sorted) {
    const rank = RANK.get(e.id) ?? 0;
    let drop = false;
    // Only the tail of `kept` can overlap: it is in order and disjoint.
    while (kept.length > 0 && kept[kept.length - 1]!.end > e.start) {
      const last = kept[kept.length - 1]!;
      const lastRank = RANK.get(last.id) ?? 0;
      // One rule twice (a token, then the same token joined over lines):
      // the edit that reaches further wins.
      if (lastRank < rank || (lastRank === rank && last.end >= e.end)) {
        drop = true;
        break;
      }
      kept.pop();
    }
    if (!drop) kept.push(e);
  }
  return kept;
}

/**
 * Whether redaction is on. It is off only when `DEJA_NO_REDACT` is exactly
 * `"1"`, which writes plaintext credentials into the index: an escape
 * hatch for debugging a rule, never a setting.
 *
 * @param env The environment to read (inject `io.env`; never read at import).
 * @returns False only for `DEJA_NO_REDACT=1`.
 * @example
 * ```ts
 * import { redactionEnabled } from "./redact.ts";
 * import { equal } from "node:assert/strict";
 * equal(redactionEnabled({}), true);
 * equal(redactionEnabled({ DEJA_NO_REDACT: "1" }), false);
 * equal(redactionEnabled({ DEJA_NO_REDACT: "true" }), true);
 * ```
 */
export function redactionEnabled(
  env: Record<string, string | undefined>,
): boolean {
  return env["DEJA_NO_REDACT"] !== "1";
}

/** Serialised form of a {@link RedactionTally}. */
export interface RedactionTallyJson {
  /** All replacements. */
  total: number;
  /** Rule id → replacements. */
  byRule: Record<string, number>;
  /** Source file → rule id → replacements. */
  byFile: Record<string, Record<string, number>>;
}

/**
 * Running redaction counts per rule and per source file, as kept in the
 * index manifest and printed by `deja sources` / `deja stats`.
 *
 * @example
 * ```ts
 * import { RedactionTally, redact } from "./redact.ts";
 * import { deepEqual, equal } from "node:assert/strict";
 * const tally = new RedactionTally();
 * tally.add(redact("token=ghp_abcdefghijklmnopqrstuvwxyz0123456789").counts, "/s/a.jsonl");
 * tally.add({ jwt: 2 }, "/s/b.jsonl");
 * equal(tally.total, 3);
 * deepEqual(tally.toJSON().byRule, { "github-token": 1, jwt: 2 });
 * ```
 */
export class RedactionTally {
  #byRule = new Map<string, number>();
  #byFile = new Map<string, Map<string, number>>();
  #total = 0;

  /**
   * Adds one redact() result's counts, optionally charged to a source file.
   *
   * @param counts Rule id → replacements, as in {@link RedactionResult}.
   * @param file The source file the text came from.
   */
  add(counts: Readonly<Record<string, number>>, file?: string): void {
    for (const [id, n] of Object.entries(counts)) {
      if (!(n > 0)) continue;
      this.#byRule.set(id, (this.#byRule.get(id) ?? 0) + n);
      this.#total += n;
      if (file === undefined) continue;
      let perFile = this.#byFile.get(file);
      if (!perFile) this.#byFile.set(file, perFile = new Map());
      perFile.set(id, (perFile.get(id) ?? 0) + n);
    }
  }

  /**
   * Adds every count of another tally into this one.
   *
   * @param other The tally to fold in; it is not changed.
   */
  merge(other: RedactionTally): void {
    this.#absorb(other.toJSON());
  }

  /** All replacements counted so far. */
  get total(): number {
    return this.#total;
  }

  /**
   * Counts charged to one source file.
   *
   * @param file The source file path as given to {@link RedactionTally.add}.
   * @returns Rule id → replacements (empty when none).
   */
  forFile(file: string): Record<string, number> {
    return Object.fromEntries(this.#byFile.get(file) ?? []);
  }

  /**
   * Plain-object form with keys sorted, for the manifest or `--json`.
   *
   * @returns Totals, per rule and per file.
   */
  toJSON(): RedactionTallyJson {
    const sorted = (m: Map<string, number>) =>
      Object.fromEntries([...m].sort(([a], [b]) => (a < b ? -1 : 1)));
    const byFile: Record<string, Record<string, number>> = {};
    for (const file of [...this.#byFile.keys()].sort()) {
      byFile[file] = sorted(this.#byFile.get(file)!);
    }
    return { total: this.#total, byRule: sorted(this.#byRule), byFile };
  }

  /**
   * Rebuilds a tally from {@link RedactionTally.toJSON} output.
   *
   * @param json A stored tally.
   * @returns A tally holding the same counts.
   */
  static fromJSON(json: RedactionTallyJson): RedactionTally {
    const tally = new RedactionTally();
    tally.#absorb(json);
    return tally;
  }

  #absorb(json: RedactionTallyJson): void {
    const filed = new Map<string, number>();
    for (const [file, counts] of Object.entries(json.byFile)) {
      this.add(counts, file);
      for (const [id, n] of Object.entries(counts)) {
        filed.set(id, (filed.get(id) ?? 0) + n);
      }
    }
    // Counts that were never charged to a file.
    const rest: Record<string, number> = {};
    for (const [id, n] of Object.entries(json.byRule)) {
      const left = n - (filed.get(id) ?? 0);
      if (left > 0) rest[id] = left;
    }
    this.add(rest);
  }
}
