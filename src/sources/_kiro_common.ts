/**
 * What the Kiro readers share: the harness id, the tool dialect of Kiro
 * (kiro-cli's 2.x names, the 1.x names it inherited from Amazon Q Developer
 * CLI, and the names of the 1.0 agent the IDE and kiro-cli 3 share), and how
 * a tool result's blocks become text and an exit code.
 *
 * @module
 */
import { isObject, list, str } from "./_json.ts";
import type { ToolDialect } from "./_tool_records.ts";

/** The registry id of the Kiro harness. */
export const KIRO_ID = "kiro";

/** Tool names and argument keys of kiro-cli 1.x, 2.x and 3, and the IDE since 1.0. */
export const KIRO_DIALECT: ToolDialect = {
  shell: new Set([
    "shell",
    "execute_bash",
    "execute_cmd",
    "execute_pwsh",
    "runCommand",
  ]),
  commandKeys: ["command"],
  pathTools: new Set([
    "read",
    "write",
    "fs_read",
    "fs_write",
    "fs_append",
    "readFile",
    "read_file",
    "readFiles",
    "read_files",
    "writeFile",
  ]),
  pathKeys: ["path", "file_path", "targetFile"],
  pathListKeys: ["paths"],
  editTools: new Set(["write", "fs_write", "str_replace"]),
  oldKeys: ["old_str", "oldStr", "old_string"],
};

/** A tool result's text and exit code (shell results carry `exit_status`). */
export interface KiroResultText {
  /** The output. */
  text: string;
  /** The exit code, when the result carried one. */
  code?: number;
}

/**
 * Joins a tool result's blocks: 2.x `{kind: "text" | "json", data}` or 1.x
 * `{Text: "..."}` / `{Json: {...}}`. A shell result's JSON gives its stdout,
 * stderr and the exit code at the end of `exit_status`.
 *
 * @param content The result's block list.
 * @returns The text and, for a shell result, the exit code.
 * @example
 * ```ts
 * import { kiroResultText } from "./_kiro_common.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(
 *   kiroResultText([{ Json: { exit_status: "exit status: 2", stdout: "", stderr: "boom" } }]),
 *   { text: "boom", code: 2 },
 * );
 * ```
 */
export function kiroResultText(content: unknown): KiroResultText {
  const parts: string[] = [];
  let code: number | undefined;
  for (const block of list(content)) {
    if (!isObject(block)) continue;
    let text: string | undefined;
    let data: unknown;
    let json = false;
    if (block.kind === "text") text = str(block.data);
    else if (block.kind === "json") [data, json] = [block.data, true];
    else if ("Text" in block) text = str(block.Text);
    else if ("Json" in block) [data, json] = [block.Json, true];
    if (text) parts.push(text);
    if (!json) continue;
    if (isObject(data) && ("stdout" in data || "exit_status" in data)) {
      const m = /(-?\d+)\s*$/.exec(str(data.exit_status) ?? "");
      if (m) code = Number(m[1]);
      for (const key of ["stdout", "stderr"]) {
        const out = str(data[key]);
        if (out?.trim()) parts.push(out);
      }
    } else if (data !== undefined) parts.push(JSON.stringify(data));
  }
  return code === undefined
    ? { text: parts.join("\n") }
    : { text: parts.join("\n"), code };
}
