/**
 * Format-preserving JSON edits: the text is read into values that know
 * where they sit, the new document is compared with the old one, and only
 * the text of members and elements that were added, changed or removed is
 * rewritten. Everything else — key order, a compact array, spacing, CRLF
 * line endings, a missing trailing newline, a file on one line — keeps its
 * exact bytes. Added values follow the style around them: one member a
 * line at the siblings' indentation in a multi-line container, inline and
 * compact in a one-line one.
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
}

/** One object member or array element. */
interface LocatedItem {
  /** The member's key (objects only). */
  key?: string;
  /** Offset just past the previous item or the opening bracket. */
  gapStart: number;
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

const WHITESPACE = /[ \t\r\n]*/y;
const SCALAR = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;

function skipWhitespace(text: string, at: number): number {
  WHITESPACE.lastIndex = at;
  WHITESPACE.test(text);
  return WHITESPACE.lastIndex;
}

function stringEnd(text: string, at: number): number {
  let i = at + 1;
  while (text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
  return i + 1;
}

/** Locates the value at `at` in text already known to be valid JSON. */
function locate(text: string, at: number): Located {
  const start = skipWhitespace(text, at);
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
  let i = skipWhitespace(text, gapStart);
  while (text[i] !== (isObject ? "}" : "]")) {
    if (text[i] === ",") i = skipWhitespace(text, i + 1);
    if (isObject) {
      const keyEnd = stringEnd(text, i);
      const colon = skipWhitespace(text, keyEnd);
      const value = locate(text, colon + 1);
      items.push({
        key: JSON.parse(text.slice(i, keyEnd)) as string,
        gapStart,
        start: i,
        keyEnd,
        value,
      });
      gapStart = value.end;
    } else {
      const value = locate(text, i);
      items.push({ gapStart, start: value.start, keyEnd: value.start, value });
      gapStart = value.end;
    }
    i = skipWhitespace(text, gapStart);
  }
  return { kind: isObject ? "object" : "array", start, end: i + 1, items };
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

/** A container's own separator between two items on one line, if any. */
function oneLineGap(text: string, node: Located): string | undefined {
  return node.items.slice(1).map((item) => gapBefore(text, item)).find((gap) =>
    !gap.includes("\n")
  );
}

function detectStyle(text: string, root: Located): JsonStyle {
  const all = containers(root);
  const member = all.find((node) => node.kind === "object" && node.items[0])
    ?.items[0];
  const colonText = member && text.slice(member.keyEnd, member.value.start);
  const colon = colonText && !colonText.includes("\n") ? colonText : ": ";
  const comma = all.map((node) => oneLineGap(text, node)).find((gap) =>
    gap !== undefined
  );
  return {
    newline: text.includes("\r\n") ? "\r\n" : "\n",
    indent: text.match(/\n([ \t]+)\S/)?.[1] ?? "  ",
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
    const first = node.items[0];
    const last = node.items.at(-1);
    // Where a new item goes: on its own line after the last item's
    // indentation, or inline after the container's own separator.
    let base: string | undefined;
    let separator: string;
    let lead: string;
    let trail: string;
    if (first && last) {
      const before = gapBefore(text, last);
      if (before.includes("\n")) {
        base = before.slice(before.lastIndexOf("\n") + 1);
        separator = `,${style.newline}${base}`;
      } else {
        separator = oneLineGap(text, node) ?? style.comma;
      }
      lead = gapBefore(text, first);
      trail = text.slice(last.value.end, node.end - 1);
    } else if (change.multiline) {
      const outer = lineIndent(text, node.start);
      base = outer + style.indent;
      separator = `,${style.newline}${base}`;
      lead = style.newline + base;
      trail = style.newline + outer;
    } else {
      separator = style.comma;
      lead = "";
      trail = "";
    }
    const inner = { ...change, multiline: base !== undefined };
    const out = node.kind === "object"
      ? this.#objectItems(node, inner)
      : this.#arrayItems(node, inner);
    if (out.length === 0) return open + close;
    let body = "";
    out.forEach((item, position) => {
      // A kept item keeps the separator before it; a new item, or the old
      // first one once something comes before it, gets the container's.
      if (position > 0) {
        body += item.kind === "kept" && item.item !== first
          ? gapBefore(text, item.item)
          : separator;
      }
      if (item.kind === "kept") body += item.text;
      else {
        if (item.key !== undefined) {
          body += JSON.stringify(item.key) + style.colon;
        }
        body += serialize(item.value, { base, style });
      }
    });
    return open + lead + body + trail + close;
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
 * @param text The current file content, or undefined for no file.
 * @param next The document it should hold.
 * @returns The new file content.
 * @throws {SyntaxError} When `text` is not valid JSON.
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
  const old: unknown = JSON.parse(text);
  const root = locate(text, 0);
  const rewriter = new JsonRewriter(text, detectStyle(text, root));
  return text.slice(0, root.start) +
    rewriter.render(root, { old, next, multiline: true }) +
    text.slice(root.end);
}
