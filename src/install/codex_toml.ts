/**
 * Codex's `config.toml`: install adds an `[mcp_servers.deja]` table and
 * turns on `[features] codex_hooks`, editing exact byte ranges so every
 * other line stays as it was; uninstall takes out exactly those bytes and
 * puts back the flag's earlier line.
 *
 * @module
 */
import { readToml, tomlString, type TomlTable } from "./toml_doc.ts";

/** What install changed in config.toml, kept for uninstall. */
export interface CodexTomlRecord {
  /** The text appended at the end of the file. */
  appended?: string;
  /** The flag line install wrote in place of `previous` (undefined: inserted). */
  flag?: { written: string; previous?: string };
}

const FLAG_LINE = "codex_hooks = true\n";

function mcpTable(
  tables: readonly TomlTable[],
): { table?: TomlTable | undefined; command?: string | undefined } {
  const table = tables.find((t) => t.name === "mcp_servers.deja");
  if (table) {
    return {
      table,
      command: table.keys.find((k) => k.key === "command")?.value,
    };
  }
  for (const t of tables) {
    const prefix = t.name ? `${t.name}.` : "";
    const key = t.keys.find((k) =>
      `${prefix}${k.key}` === "mcp_servers.deja" ||
      `${prefix}${k.key}` === "mcp_servers.deja.command"
    );
    if (key) return { command: key.value };
  }
  return {};
}

function unquote(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  try {
    return JSON.parse(value);
  } catch {
    return value.replace(/^'|'$/g, "");
  }
}

function flagKey(
  tables: readonly TomlTable[],
): {
  table?: TomlTable | undefined;
  key?: TomlTable["keys"][number] | undefined;
} {
  const features = tables.find((t) => t.name === "features" && !t.array);
  const inTable = features?.keys.find((k) => k.key === "codex_hooks");
  if (inTable) return { table: features, key: inTable };
  const root = tables[0];
  const dotted = root?.keys.find((k) => k.key === "features.codex_hooks");
  if (dotted) return { key: dotted };
  return features ? { table: features } : {};
}

/**
 * Adds deja's MCP table and the hooks flag.
 *
 * @param text The current file ("" when absent).
 * @param launcher The launcher path.
 * @returns The new text and what to record (unchanged text when already wired).
 * @throws {TypeError} When `mcp_servers.deja` exists and is not deja's.
 * @example
 * ```ts
 * import { addCodexToml } from "./codex_toml.ts";
 * import { ok } from "node:assert/strict";
 * const { text } = addCodexToml('model = "o3"\n', "/h/.config/deja/bin/deja-hook");
 * ok(text.includes("[mcp_servers.deja]"));
 * ok(text.includes("codex_hooks = true"));
 * ```
 */
export function addCodexToml(
  text: string,
  launcher: string,
): { text: string; record: CodexTomlRecord } {
  const record: CodexTomlRecord = {};
  let out = text;
  let tables = readToml(out);
  const flag = flagKey(tables);
  let appendFeatures = false;
  if (flag.key) {
    if (flag.key.value !== "true") {
      const previous = out.slice(flag.key.start, flag.key.end);
      const written = flag.key.key === "features.codex_hooks"
        ? "features.codex_hooks = true\n"
        : FLAG_LINE;
      out = out.slice(0, flag.key.start) + written + out.slice(flag.key.end);
      record.flag = { written, previous };
    }
  } else if (flag.table) {
    const last = flag.table.keys.at(-1);
    let at = last ? last.end : flag.table.bodyStart;
    let written = FLAG_LINE;
    if (at > 0 && out[at - 1] !== "\n") written = `\n${FLAG_LINE}`;
    if (at > out.length) at = out.length;
    out = out.slice(0, at) + written + out.slice(at);
    record.flag = { written };
  } else {
    appendFeatures = true;
  }
  tables = readToml(out);
  const mcp = mcpTable(tables);
  const hasMcp = mcp.command !== undefined || mcp.table !== undefined;
  if (hasMcp && unquote(mcp.command) !== launcher) {
    throw new TypeError(
      "config.toml already has an mcp_servers.deja entry that does not call the deja launcher",
    );
  }
  let block = "";
  if (!hasMcp) {
    block += `[mcp_servers.deja]\ncommand = ${
      tomlString(launcher)
    }\nargs = ["mcp"]\n`;
  }
  if (appendFeatures) block += `${block ? "\n" : ""}[features]\n${FLAG_LINE}`;
  if (block) {
    const sep = out.length === 0
      ? ""
      : out.endsWith("\n\n")
      ? ""
      : out.endsWith("\n")
      ? "\n"
      : "\n\n";
    record.appended = sep + block;
    out += record.appended;
  }
  return { text: out, record };
}

/**
 * Takes deja's additions back out: the appended text when it is still
 * there, else the `[mcp_servers.deja]` table; and the flag line install
 * wrote, restored to what it was.
 *
 * @param text The current file.
 * @param record What install recorded (absent: remove the table only).
 * @param launcher The launcher path.
 * @returns The text without deja's additions.
 * @example
 * ```ts
 * import { addCodexToml, removeCodexToml } from "./codex_toml.ts";
 * import { equal } from "node:assert/strict";
 * const before = 'model = "o3"\n\n[features]\ncodex_hooks = false\n';
 * const { text, record } = addCodexToml(before, "/l");
 * equal(removeCodexToml(text, record, "/l"), before);
 * ```
 */
export function removeCodexToml(
  text: string,
  record: CodexTomlRecord | undefined,
  launcher: string,
): string {
  let out = text;
  const appended = record?.appended;
  const at = appended ? out.lastIndexOf(appended) : -1;
  // The appended block goes whole only while nothing was written into its
  // last table since (a key the user added under `[features]` would be left
  // under the table before it).
  if (
    appended && at >= 0 &&
    /^\s*(?:\[|$)/.test(out.slice(at + appended.length))
  ) {
    out = out.slice(0, at) + out.slice(at + appended.length);
  } else {
    const tables = readToml(out);
    const mcp = mcpTable(tables);
    if (mcp.table && unquote(mcp.command) === launcher) {
      out = out.slice(0, mcp.table.start) + out.slice(mcp.table.end);
      out = out.replace(/\n{3,}$/, "\n");
    }
    // The `[features]` table install made now holds the user's keys too:
    // only its flag line goes.
    if (appended?.includes(`[features]\n${FLAG_LINE}`)) {
      const key = flagKey(readToml(out)).key;
      if (key && key.value === "true" && key.key === "codex_hooks") {
        out = out.slice(0, key.start) + out.slice(key.end);
      }
    }
  }
  const flag = record?.flag;
  if (flag) {
    const key = flagKey(readToml(out)).key;
    if (
      key &&
      out.slice(key.start, key.end).replace(/^\n/, "") ===
        flag.written.replace(/^\n/, "")
    ) {
      const start = flag.written.startsWith("\n") && out[key.start - 1] === "\n"
        ? key.start - 1
        : key.start;
      out = out.slice(0, start) + (flag.previous ?? "") + out.slice(key.end);
    }
  }
  return out;
}
