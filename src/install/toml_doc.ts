/**
 * A small TOML reader for the subset Codex's `config.toml` uses: tables,
 * arrays of tables, `key = value` lines (bare, quoted and dotted keys), and
 * values that span lines (arrays, inline tables, triple-quoted strings). It
 * finds where each table and key sits in the text, so edits insert or
 * remove exact byte ranges and leave everything else as it was.
 *
 * @module
 */

/** One `key = value` entry, located in the text. */
export interface TomlKey {
  /** The full dotted key path relative to its table, e.g. `codex_hooks`. */
  key: string;
  /** Offset of the line's first character. */
  start: number;
  /** Offset just past the entry's last line (including its newline). */
  end: number;
  /** The raw value text (trimmed, comment dropped). */
  value: string;
}

/** One table, located in the text. The root table has name "". */
export interface TomlTable {
  /** Dotted table name, e.g. `mcp_servers.deja`. */
  name: string;
  /** Whether it is an array-of-tables element (`[[x]]`). */
  array: boolean;
  /** Offset of the header line (the body start for the root table). */
  start: number;
  /** Offset just past the header line. */
  bodyStart: number;
  /** Offset where the next header starts (or the end of the text). */
  end: number;
  /** The table's direct entries. */
  keys: TomlKey[];
}

function splitKey(raw: string): string[] {
  const parts: string[] = [];
  let cur = "";
  let quote: string | undefined;
  for (const ch of raw.trim()) {
    if (quote) {
      if (ch === quote) quote = undefined;
      else cur += ch;
      continue;
    }
    if (ch === '"' || ch === "'") {
      quote = ch;
      continue;
    }
    if (ch === ".") {
      parts.push(cur.trim());
      cur = "";
      continue;
    }
    cur += ch;
  }
  parts.push(cur.trim());
  return parts;
}

/**
 * Normalises a dotted key or table name (`"a".b` → `a.b`).
 *
 * @param raw The key as written.
 * @returns The normalised dotted name.
 * @example
 * ```ts
 * import { normalizeKey } from "./toml_doc.ts";
 * import { equal } from "node:assert/strict";
 * equal(normalizeKey(' mcp_servers . "deja" '), "mcp_servers.deja");
 * ```
 */
export function normalizeKey(raw: string): string {
  return splitKey(raw).join(".");
}

function stripComment(line: string): string {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quote) {
      if (ch === "\\" && quote === '"') i++;
      else if (ch === quote) quote = undefined;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === "#") return line.slice(0, i);
  }
  return line;
}

/** How far a value line opens brackets or a multi-line string. */
function openness(
  text: string,
  state: { depth: number; triple?: string | undefined },
): void {
  for (let i = 0; i < text.length; i++) {
    if (state.triple) {
      if (text.startsWith(state.triple, i)) {
        i += 2;
        state.triple = undefined;
      }
      continue;
    }
    const ch = text[i];
    if (text.startsWith('"""', i) || text.startsWith("'''", i)) {
      state.triple = text.slice(i, i + 3);
      i += 2;
      continue;
    }
    if (ch === '"' || ch === "'") {
      const close = text.indexOf(ch, i + 1);
      let j = close;
      while (ch === '"' && j > 0 && text[j - 1] === "\\") {
        j = text.indexOf(ch, j + 1);
      }
      i = j < 0 ? text.length : j;
      continue;
    }
    if (ch === "#") return;
    if (ch === "[" || ch === "{") state.depth++;
    else if (ch === "]" || ch === "}") state.depth--;
  }
}

/**
 * Reads a TOML text into located tables and keys.
 *
 * @param text The file content.
 * @returns Tables in order, the root first.
 * @example
 * ```ts
 * import { readToml } from "./toml_doc.ts";
 * import { equal } from "node:assert/strict";
 * const tables = readToml('model = "o3"\n[features]\ncodex_hooks = false\n');
 * equal(tables[1]?.name, "features");
 * equal(tables[1]?.keys[0]?.value, "false");
 * ```
 */
export function readToml(text: string): TomlTable[] {
  return scanToml(text).tables;
}

/**
 * The first line of a TOML text this reader cannot place (neither a table
 * header, nor `key = value`, nor blank or a comment), or a value that never
 * closes: a file deja should not append to.
 *
 * @param text The file content.
 * @returns What is wrong and where, or undefined for a readable file.
 * @example
 * ```ts
 * import { tomlProblem } from "./toml_doc.ts";
 * import { equal } from "node:assert/strict";
 * equal(tomlProblem('model = "o3"\n[features]\n'), undefined);
 * equal(tomlProblem("[mcp_servers.deja\n"), 'line 1, "[mcp_servers.deja", is neither a table header nor key = value');
 * ```
 */
export function tomlProblem(text: string): string | undefined {
  return scanToml(text).problem;
}

function scanToml(
  text: string,
): { tables: TomlTable[]; problem: string | undefined } {
  const tables: TomlTable[] = [{
    name: "",
    array: false,
    start: 0,
    bodyStart: 0,
    end: text.length,
    keys: [],
  }];
  let problem: string | undefined;
  const note = (what: string) => {
    problem ??= what;
  };
  let offset = 0;
  const lines = text.split("\n");
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] as string;
    const lineStart = offset;
    const advance = () => {
      offset += (lines[i] as string).length + (i < lines.length - 1 ? 1 : 0);
      i++;
    };
    const bare = stripComment(line).trim();
    const header = bare.match(/^\[\[\s*([^\]]+?)\s*\]\]$/) ??
      bare.match(/^\[\s*([^\]]+?)\s*\]$/);
    if (header) {
      const current = tables[tables.length - 1] as TomlTable;
      current.end = lineStart;
      advance();
      tables.push({
        name: normalizeKey(header[1] as string),
        array: bare.startsWith("[["),
        start: lineStart,
        bodyStart: offset,
        end: text.length,
        keys: [],
      });
      continue;
    }
    const eq = bare.indexOf("=");
    if (bare && eq > 0) {
      const opened = i + 1;
      const key = normalizeKey(bare.slice(0, eq));
      const state: { depth: number; triple?: string | undefined } = {
        depth: 0,
      };
      openness(line.slice(line.indexOf("=") + 1), state);
      let valueText = stripComment(line.slice(line.indexOf("=") + 1)).trim();
      advance();
      while ((state.depth > 0 || state.triple) && i < lines.length) {
        openness(lines[i] as string, state);
        valueText += `\n${lines[i]}`;
        advance();
      }
      if (state.depth > 0 || state.triple) {
        note(`the value of ${key} on line ${opened} is never closed`);
      } else if (valueText.trim() === "") {
        note(`${key} on line ${opened} has no value`);
      }
      (tables[tables.length - 1] as TomlTable).keys.push({
        key,
        start: lineStart,
        end: offset,
        value: valueText.trim(),
      });
      continue;
    }
    if (bare) {
      note(
        `line ${i + 1}, ${
          JSON.stringify(bare.length > 40 ? `${bare.slice(0, 40)}…` : bare)
        }, is neither a table header nor key = value`,
      );
    }
    advance();
  }
  return { tables, problem };
}

/**
 * Quotes a string as a TOML basic string.
 *
 * @param value Any text.
 * @returns The quoted value.
 * @example
 * ```ts
 * import { tomlString } from "./toml_doc.ts";
 * import { equal } from "node:assert/strict";
 * equal(tomlString('a"b'), '"a\\"b"');
 * ```
 */
export function tomlString(value: string): string {
  return JSON.stringify(value);
}
