/**
 * Format-preserving JSON edits: the text is read into values that know
 * where they sit, the new document is compared with the old one, and only
 * the text of members and elements that were added, changed or removed is
 * rewritten. Everything else — key order, a compact array, spacing, CRLF
 * line endings, a missing trailing newline, a file on one line, `//` and
 * `/*` comments, trailing commas — keeps its exact bytes. Added values
 * follow the style around them: one member a line at the siblings'
 * indentation in a multi-line container, inline and compact in a one-line
 * one, with a trailing comma after the last item when the container had
 * one.
 *
 * @module
 */
import { canonicalJson } from "../core/hash.ts";

/** A JSON value and where it sits in the text. */
interface Located {
  kind: "object" | "array" | "scalar";
  /** Offset of the value's first character. */
  start: number;
  /** Offset just past its last character. */
  end: number;
  /** An object's members or an array's elements, in text order. */
  items: LocatedItem[];
  /** Offset of a comma after the last item (JSONC allows one). */
  trailingComma?: number;
}

/** One object member or array element. */
interface LocatedItem {
  /** The member's key (objects only). */
  key?: string;
  /** Offset just past the previous item or the opening bracket. */
  gapStart: number;
  /** Offset of the comma before the item (all but the first). */
  comma?: number;
  /** Offset of the key (members) or the value (elements). */
  start: number;
  /** Offset just past the key (members; the value's start for elements). */
  keyEnd: number;
  value: Located;
}

/** How a file writes what deja adds. */
interface JsonStyle {
  /** Line ending. */
  newline: string;
  /** One level of indentation. */
  indent: string;
  /** Between a key and its value, e.g. `": "` or `":"`. */
  colon: string;
  /** Between two items on one line, e.g. `", "` or `","`. */
  comma: string;
}

/** The old and new value at one place, and whether that place is multi-line. */
interface Change {
  old: unknown;
  next: unknown;
  multiline: boolean;
}

/** An item of the rewritten container: kept text or a value to write. */
type OutItem =
  | { kind: "kept"; item: LocatedItem; text: string }
  | { kind: "fresh"; key?: string; value: unknown };

/** Whitespace and comments, the text between tokens. */
const GAP = /(?:[ \t\r\n]+|\/\/[^\r\n]*|\/\*[\s\S]*?\*\/)*/y;
const COMMENT = /\/\/[^\r\n]*|\/\*[\s\S]*?\*\//y;
const SCALAR = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;
/** A string (kept) or a comment (blanked); an unterminated one last. */
const STRING_OR_COMMENT =
  /"(?:[^"\\]+|\\[\s\S])*"?|\/\/[^\r\n]*|\/\*[\s\S]*?\*\/|\/\*[\s\S]*/g;
/** A string (skipped) or a comma. */
const STRING_OR_COMMA = /"(?:[^"\\]+|\\[\s\S])*"?|,/g;
/** Whitespace, then a closing bracket. */
const CLOSING = /[ \t\r\n]*[}\]]/y;

/** Skips whitespace and comments. */
function skipGap(text: string, at: number): number {
  GAP.lastIndex = at;
  GAP.test(text);
  return GAP.lastIndex;
}

function stringEnd(text: string, at: number): number {
  let i = at + 1;
  while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
  return i + 1;
}

function lineColumn(text: string, at: number): string {
  const line = text.slice(0, at).split("\n").length;
  return `line ${line} column ${at - text.lastIndexOf("\n", at - 1)}`;
}

/**
 * Replaces every comment outside strings with spaces, keeping line breaks,
 * so offsets and line numbers stay those of the original text.
 */
function blankComments(text: string): string {
  return text.replace(STRING_OR_COMMENT, (match, at: number) => {
    if (match.startsWith('"')) return match;
    if (match.startsWith("/*") && (match.length < 4 || !match.endsWith("*/"))) {
      throw new SyntaxError(`Unterminated comment at ${lineColumn(text, at)}`);
    }
    return match.replace(/[^\r\n]/g, " ");
  });
}

/**
 * Whether a value ends right before the comma at `at`, whitespace aside: in
 * `[1,]` one does, in `[,]`, `[1,,]` and `{"a":,}` none does.
 */
function followsValue(blank: string, at: number): boolean {
  let i = at - 1;
  while (i >= 0 && " \t\r\n".includes(blank[i] as string)) i--;
  return i >= 0 && !",[{:".includes(blank[i] as string);
}

/**
 * Replaces every trailing comma (after a value, before a closing bracket)
 * with a space, in text whose comments are already blank.
 */
function blankTrailingCommas(blank: string): string {
  return blank.replace(STRING_OR_COMMA, (match, at: number) => {
    if (match !== "," || !followsValue(blank, at)) return match;
    CLOSING.lastIndex = at + 1;
    return CLOSING.test(blank) ? " " : match;
  });
}

/**
 * Parses JSON that may hold `//` line comments, `/*` block comments and a
 * trailing comma after the last item of an object or array, as the
 * settings of Gemini CLI, opencode and VS Code may (they are read with a
 * JSONC parser). Comments and trailing commas are read as whitespace;
 * everything else must be JSON.
 *
 * @param text The file content.
 * @returns The value it holds.
 * @throws {SyntaxError} When the text is not JSON once its comments and
 * trailing commas are left out; a comma with no value before it (`[1,,]`)
 * or an unterminated comment is named as such, with its line and column.
 * @example
 * ```ts
 * import { parseJsonWithComments } from "./json_doc.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(
 *   parseJsonWithComments('{\n  // theme\n  "url": "http://x", /* ok *\/\n}'),
 *   { url: "http://x" },
 * );
 * ```
 */
export function parseJsonWithComments(text: string): unknown {
  const blank = blankTrailingCommas(blankComments(text));
  try {
    return JSON.parse(blank);
  } catch (err) {
    const stray = [...blank.matchAll(STRING_OR_COMMA)].find((m) =>
      m[0] === "," && !followsValue(blank, m.index)
    );
    if (stray === undefined) throw err;
    throw new SyntaxError(
      `Unexpected comma at ${
        lineColumn(text, stray.index)
      }: no value before it`,
      { cause: err },
    );
  }
}

/**
 * The comments of a JSON text, in order, each with its `//` or `/*`.
 *
 * @param text The file content.
 * @returns Its comments; none inside strings.
 * @example
 * ```ts
 * import { jsonComments } from "./json_doc.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(jsonComments('{"u": "http://x", // site\n "v": 1}'), ["// site"]);
 * ```
 */
export function jsonComments(text: string): string[] {
  return [...text.matchAll(STRING_OR_COMMENT)].map((m) => m[0]).filter((m) =>
    !m.startsWith('"')
  );
}

/** Where the last comment in `[from, to)` ends, and whether it is a `//` one. */
function lastComment(
  text: string,
  from: number,
  to: number,
): { end: number; line: boolean } | undefined {
  let found: { end: number; line: boolean } | undefined;
  for (let i = from; i < to;) {
    COMMENT.lastIndex = i;
    if (COMMENT.test(text)) {
      found = { end: COMMENT.lastIndex, line: text[i + 1] === "/" };
      i = COMMENT.lastIndex;
    } else i++;
  }
  return found;
}

/**
 * Locates the value at `at` in text already known to be valid JSON (with
 * comments and trailing commas).
 */
function locate(text: string, at: number): Located {
  const start = skipGap(text, at);
  const open = text[start];
  if (open !== "{" && open !== "[") {
    let end: number;
    if (open === '"') end = stringEnd(text, start);
    else {
      SCALAR.lastIndex = start;
      if (!SCALAR.test(text)) throw new SyntaxError(`Bad JSON at ${start}`);
      end = SCALAR.lastIndex;
    }
    return { kind: "scalar", start, end, items: [] };
  }
  const isObject = open === "{";
  const items: LocatedItem[] = [];
  let gapStart = start + 1;
  const close = isObject ? "}" : "]";
  let trailingComma: number | undefined;
  let i = skipGap(text, gapStart);
  while (text[i] !== close) {
    let comma: number | undefined;
    if (text[i] === ",") {
      comma = i;
      i = skipGap(text, i + 1);
      if (text[i] === close) {
        trailingComma = comma;
        break;
      }
    }
    const at = comma === undefined ? {} : { comma };
    if (isObject) {
      const keyEnd = stringEnd(text, i);
      const colon = skipGap(text, keyEnd);
      const value = locate(text, colon + 1);
      items.push({
        key: JSON.parse(text.slice(i, keyEnd)) as string,
        gapStart,
        ...at,
        start: i,
        keyEnd,
        value,
      });
    } else {
      const value = locate(text, i);
      items.push({
        gapStart,
        ...at,
        start: value.start,
        keyEnd: value.start,
        value,
      });
    }
    gapStart = (items.at(-1) as LocatedItem).value.end;
    i = skipGap(text, gapStart);
  }
  return {
    kind: isObject ? "object" : "array",
    start,
    end: i + 1,
    items,
    ...(trailingComma === undefined ? {} : { trailingComma }),
  };
}

function containers(node: Located): Located[] {
  return node.kind === "scalar"
    ? []
    : [node, ...node.items.flatMap((item) => containers(item.value))];
}

/** The text before an item: its comma and whitespace, or the lead-in. */
function gapBefore(text: string, item: LocatedItem): string {
  return text.slice(item.gapStart, item.start);
}

/**
 * A container's own separator between two items on one line, if any (a gap
 * with a comment is no model: only a gap outside strings can hold a `/`).
 */
function oneLineGap(text: string, node: Located): string | undefined {
  return node.items.slice(1).map((item) => gapBefore(text, item)).find((gap) =>
    !gap.includes("\n") && !gap.includes("/")
  );
}

/**
 * Reads the file's style; `blank` is the text with its comments blanked,
 * so a comment's lines do not set the indentation.
 */
function detectStyle(text: string, blank: string, root: Located): JsonStyle {
  const all = containers(root);
  const member = all.find((node) => node.kind === "object" && node.items[0])
    ?.items[0];
  const colonText = member && text.slice(member.keyEnd, member.value.start);
  const colon = colonText && !/[\n/]/.test(colonText) ? colonText : ": ";
  const comma = all.map((node) => oneLineGap(text, node)).find((gap) =>
    gap !== undefined
  );
  return {
    newline: text.includes("\r\n") ? "\r\n" : "\n",
    indent: blank.match(/\n([ \t]+)\S/)?.[1] ?? "  ",
    colon,
    // No two items on one line to copy: space after commas as after colons.
    comma: comma ?? (colon.endsWith(" ") ? ", " : ","),
  };
}

const INDENT = /[ \t]*/y;

function lineIndent(text: string, at: number): string {
  INDENT.lastIndex = text.lastIndexOf("\n", at - 1) + 1;
  return text.match(INDENT)?.[0] ?? "";
}

/**
 * Writes a value deja adds: multi-line, starting at indentation `base`, or
 * compact on one line when `base` is undefined.
 */
function serialize(
  value: unknown,
  options: { base: string | undefined; style: JsonStyle },
): string {
  const { base, style } = options;
  if (value === null || typeof value !== "object") {
    return JSON.stringify(value) ?? "null";
  }
  const isArray = Array.isArray(value);
  const entries: Array<[string | undefined, unknown]> = isArray
    ? value.map((v) => [undefined, v])
    : Object.entries(value).filter(([, v]) => v !== undefined);
  const [open, close] = isArray ? ["[", "]"] : ["{", "}"];
  if (entries.length === 0) return `${open}${close}`;
  const inner = base === undefined ? undefined : base + style.indent;
  const parts = entries.map(([key, v]) =>
    (key === undefined ? "" : JSON.stringify(key) + style.colon) +
    serialize(v, { base: inner, style })
  );
  if (inner === undefined) return open + parts.join(style.comma) + close;
  const nl = style.newline;
  return `${open}${nl}${inner}${
    parts.join(`,${nl}${inner}`)
  }${nl}${base}${close}`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function sameKind(node: Located, value: unknown): boolean {
  return node.kind === "object"
    ? isPlainObject(value)
    : node.kind === "array" && Array.isArray(value);
}

/**
 * Lines the new elements up with the old: each new element with the old one
 * it keeps or changes, or alone when it is added. Old elements left out are
 * dropped.
 */
function alignArray(
  old: unknown[],
  next: unknown[],
): Array<{ old?: number; next: number }> {
  const a = old.map(canonicalJson);
  const b = next.map(canonicalJson);
  const lcs = Array.from(
    { length: a.length + 1 },
    () => new Array<number>(b.length + 1).fill(0),
  );
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      const row = lcs[i] as number[];
      row[j] = a[i] === b[j]
        ? (lcs[i + 1]?.[j + 1] ?? 0) + 1
        : Math.max(lcs[i + 1]?.[j] ?? 0, row[j + 1] ?? 0);
    }
  }
  const pairs: Array<{ old?: number; next: number }> = [];
  let dropped: number[] = [];
  let added: number[] = [];
  // Between two equal elements, a dropped one and an added one pair up as
  // one changed element, so its own formatting survives.
  const flush = () => {
    const changed = Math.min(dropped.length, added.length);
    for (let k = 0; k < changed; k++) {
      pairs.push({ old: dropped[k] as number, next: added[k] as number });
    }
    for (const n of added.slice(changed)) pairs.push({ next: n });
    dropped = [];
    added = [];
  };
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      flush();
      pairs.push({ old: i++, next: j++ });
    } else if (
      j >= b.length ||
      (i < a.length && (lcs[i + 1]?.[j] ?? 0) >= (lcs[i]?.[j + 1] ?? 0))
    ) dropped.push(i++);
    else added.push(j++);
  }
  flush();
  return pairs;
}

class JsonRewriter {
  #text: string;
  #style: JsonStyle;

  constructor(text: string, style: JsonStyle) {
    this.#text = text;
    this.#style = style;
  }

  render(node: Located, change: Change): string {
    const text = this.#text;
    if (canonicalJson(change.old) === canonicalJson(change.next)) {
      return text.slice(node.start, node.end);
    }
    if (!sameKind(node, change.next)) {
      return serialize(change.next, {
        base: change.multiline ? lineIndent(text, node.start) : undefined,
        style: this.#style,
      });
    }
    return this.#renderContainer(node, change);
  }

  #kept(item: LocatedItem, change: Change): OutItem {
    return {
      kind: "kept",
      item,
      text: this.#text.slice(item.start, item.value.start) +
        this.render(item.value, change),
    };
  }

  #objectItems(node: Located, change: Change): OutItem[] {
    const old = change.old as Record<string, unknown>;
    const next = change.next as Record<string, unknown>;
    const last = new Map(node.items.map((item, i) => [item.key as string, i]));
    const out: OutItem[] = [];
    node.items.forEach((item, i) => {
      const key = item.key as string;
      if (!Object.hasOwn(next, key)) return;
      // JSON.parse keeps a repeated key's last value: earlier ones stay as is.
      const shadowed = last.get(key) !== i;
      out.push(this.#kept(item, {
        old: old[key],
        next: shadowed ? old[key] : next[key],
        multiline: change.multiline,
      }));
    });
    for (const [key, value] of Object.entries(next)) {
      if (!Object.hasOwn(old, key) && value !== undefined) {
        out.push({ kind: "fresh", key, value });
      }
    }
    return out;
  }

  #arrayItems(node: Located, change: Change): OutItem[] {
    const old = change.old as unknown[];
    const next = change.next as unknown[];
    return alignArray(old, next).map((pair): OutItem =>
      pair.old === undefined
        ? { kind: "fresh", value: next[pair.next] }
        : this.#kept(node.items[pair.old] as LocatedItem, {
          old: old[pair.old],
          next: next[pair.next],
          multiline: change.multiline,
        })
    );
  }

  #renderContainer(node: Located, change: Change): string {
    const text = this.#text;
    const style = this.#style;
    const open = text[node.start] as string;
    const close = text[node.end - 1] as string;
    const items = node.items;
    const first = items[0];
    const last = items.at(-1);
    const outer = lineIndent(text, node.start);
    const tailStart = last ? last.value.end : node.start + 1;
    // Where a new item goes: on its own line after the last item's
    // indentation, or inline after the container's own separator.
    let base: string | undefined;
    let separator: string;
    /** Before a new item written first. */
    let lead: string;
    if (first && last) {
      if (gapBefore(text, last).includes("\n")) {
        base = lineIndent(text, last.start);
        separator = `,${style.newline}${base}`;
      } else {
        separator = oneLineGap(text, node) ?? style.comma;
      }
      lead = text.slice(
        lastComment(text, first.gapStart, first.start)?.end ?? first.gapStart,
        first.start,
      );
    } else if (change.multiline) {
      base = outer + style.indent;
      separator = `,${style.newline}${base}`;
      lead = style.newline + base;
    } else {
      separator = style.comma;
      lead = "";
    }
    const indent = base ?? outer + style.indent;
    const comma = separator.indexOf(",");
    const [sepBefore, sepAfter] = [
      separator.slice(0, comma),
      separator.slice(comma + 1),
    ];
    const inner = { ...change, multiline: base !== undefined };
    const out = node.kind === "object"
      ? this.#objectItems(node, inner)
      : this.#arrayItems(node, inner);
    // A trailing comma stays where it is while the old last item stays
    // last; otherwise it follows the new last item.
    const lastOut = out.at(-1);
    const trailing = node.trailingComma;
    const movedComma = trailing !== undefined &&
        !(lastOut?.kind === "kept" && lastOut.item === last)
      ? trailing
      : undefined;
    /** Before the closing bracket, after any comments kept there. */
    const closeLead = last
      ? text.slice(
        Math.max(
          lastComment(text, tailStart, node.end - 1)?.end ?? tailStart,
          movedComma === undefined ? tailStart : movedComma + 1,
        ),
        node.end - 1,
      )
      : base === undefined
      ? ""
      : style.newline + outer;
    // Comments are never dropped: those before a removed item, and those
    // after the last item when new ones follow it, wait here and are
    // written before the next item (or the closing bracket).
    let pending = "";
    let pendingLine = false;
    const keepComments = (from: number, to: number, at?: number) => {
      const found = lastComment(text, from, to);
      if (!found) return;
      pending += at === undefined || at > found.end
        ? text.slice(from, found.end)
        : text.slice(from, at) + text.slice(at + 1, found.end);
      pendingLine = found.line;
    };
    // The waiting comments, then `leadIn`: on a new line after a `//` one.
    const flush = (leadIn: string, indentation: string): string => {
      const joined = pendingLine && !/^[ \t]*\r?\n/.test(leadIn)
        ? pending + style.newline + indentation +
          leadIn.replace(/^[ \t]+/, "")
        : pending + leadIn;
      pending = "";
      pendingLine = false;
      return joined;
    };
    let next = 0; // the first original item neither written nor dropped
    const drop = (to: number) => {
      for (; next < to; next++) {
        const item = items[next] as LocatedItem;
        keepComments(item.gapStart, item.start, item.comma);
      }
    };
    let tailKept = false;
    const dropRest = () => {
      if (tailKept) return;
      drop(items.length);
      keepComments(tailStart, node.end - 1, movedComma);
      tailKept = true;
    };
    const indexOf = new Map(items.map((item, i) => [item, i]));
    const lastKept = out.findLastIndex((item) => item.kind === "kept");
    let previous: number | undefined;
    let body = "";
    out.forEach((item, position) => {
      if (item.kind === "fresh") {
        if (position > lastKept) dropRest();
        body += position === 0
          ? flush(lead, indent)
          : sepBefore + "," + flush(sepAfter, indent);
        if (item.key !== undefined) {
          body += JSON.stringify(item.key) + style.colon;
        }
        body += serialize(item.value, { base, style });
        previous = undefined;
        return;
      }
      const k = indexOf.get(item.item) as number;
      const gap = gapBefore(text, item.item);
      const at = item.item.comma;
      drop(k);
      if (position > 0 && previous === k - 1) body += gap;
      else if (at === undefined) {
        // The old first item: its own lead-in at the start, else the
        // container's separator (with the comments that were above it).
        if (position === 0) body += gap;
        else if (lastComment(text, item.item.gapStart, item.item.start)) {
          body += sepBefore + "," + flush(gap, indent);
        } else body += separator;
      } else {
        const own = text.slice(item.item.gapStart, at) +
          text.slice(at + 1, item.item.start);
        if (position > 0) {
          body += text.slice(item.item.gapStart, at) + "," +
            flush(text.slice(at + 1, item.item.start), indent);
        } else if (pending === "" && !own.includes("/")) {
          body += gapBefore(text, first as LocatedItem);
        } else body += flush(own, indent);
      }
      next = k + 1;
      previous = k;
      body += item.text;
    });
    dropRest();
    if (out.length === 0 && pending === "") return open + close;
    const lastComma = movedComma === undefined || out.length === 0 ? "" : ",";
    return open + body + lastComma + flush(closeLead, outer) + close;
  }
}

/**
 * Rewrites a JSON text to hold `next`, touching only the text of what
 * changed: kept members and elements keep their exact bytes, removed ones
 * go with one adjacent comma, added ones are written in the style around
 * them (one a line at the siblings' indentation, or inline when the
 * container is on one line). Added object keys go last. A missing or blank
 * text gives `next` indented by two spaces, with a trailing newline.
 *
 * The text may hold `//` and `/*` comments, and every one of them stays:
 * a removed item takes only its own text and a comma, leaving the comments
 * around it where they were, and an item added after the last one goes
 * after the comments that follow it (on a new line after a `//` one).
 * A container that ends in a trailing comma keeps one after its new last
 * item; one without never gets one.
 *
 * @param text The current file content, or undefined for no file.
 * @param next The document it should hold.
 * @returns The new file content.
 * @throws {SyntaxError} When `text` is not JSON, comments and trailing
 * commas aside (see {@linkcode parseJsonWithComments}).
 * @example
 * ```ts
 * import { rewriteJson } from "./json_doc.ts";
 * import { equal } from "node:assert/strict";
 * const text = '{\n  "allow": ["Bash(npm test:*)"]\n}\n';
 * equal(
 *   rewriteJson(text, { allow: ["Bash(npm test:*)"], mcp: { deja: true } }),
 *   '{\n  "allow": ["Bash(npm test:*)"],\n  "mcp": {\n    "deja": true\n  }\n}\n',
 * );
 * ```
 */
export function rewriteJson(text: string | undefined, next: unknown): string {
  if (text === undefined || text.trim() === "") {
    return `${
      serialize(next, {
        base: "",
        style: { newline: "\n", indent: "  ", colon: ": ", comma: ", " },
      })
    }\n`;
  }
  const old = parseJsonWithComments(text);
  const root = locate(text, 0);
  const style = detectStyle(text, blankComments(text), root);
  const rewriter = new JsonRewriter(text, style);
  return text.slice(0, root.start) +
    rewriter.render(root, { old, next, multiline: true }) +
    text.slice(root.end);
}
