/**
 * opencode's custom slash commands. Running `/name args` stores the
 * command's expanded template as the user's text part, with no mark of the
 * command (opencode's `SessionPrompt.command` passes the template to
 * `prompt()` like typed text). The templates are the Markdown files under
 * `command/` or `commands/` in the project's `.opencode/` and in opencode's
 * config folder, so a user text part that is one of them, expanded, is read
 * back as what the person typed.
 *
 * @module
 */
import { join, relative } from "node:path";
import type { SourceEnv } from "../core/harness.ts";

/** One command template, compiled to match its expansions. */
export interface OpencodeCommand {
  /** The command name: the file's path under `command/`, without `.md`. */
  name: string;
  /** Matches an expansion; groups are the placeholders, in order. */
  pattern: RegExp;
  /** Each group's placeholder: `$ARGUMENTS`, `$1`…, or arguments appended. */
  slots: string[];
}

const PLACEHOLDER = /\$ARGUMENTS|\$\d+|!`[^`]+`/g;

/** A template compiled so that its expansions, trimmed, match it whole. */
function compile(name: string, template: string): OpencodeCommand | undefined {
  const body = template.trim();
  if (!body) return undefined;
  const literal = (s: string) =>
    s.split(/\s+/).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
      .join("\\s*");
  const slots: string[] = [];
  let source = "";
  let at = 0;
  for (const m of body.matchAll(PLACEHOLDER)) {
    source += literal(body.slice(at, m.index));
    if (m[0].startsWith("!")) source += "[\\s\\S]*?"; // a shell command's output
    else {
      source += "([\\s\\S]*?)";
      slots.push(m[0]);
    }
    at = m.index + m[0].length;
  }
  source += literal(body.slice(at));
  if (slots.length === 0) {
    // Arguments given to a template without placeholders are appended.
    source += "(?:\\s+([\\s\\S]*?))?";
    slots.push("appended");
  }
  return { name, pattern: new RegExp(`^${source}$`), slots };
}

/** The Markdown body of a command file: its front matter dropped. */
function body(text: string): string {
  const m = /^---\r?\n[\s\S]*?\r?\n---\r?\n?/.exec(text);
  return m ? text.slice(m[0].length) : text;
}

/** Every `.md` file under a folder, with its path relative to it. */
function markdownFiles(dir: string, root = dir): string[] {
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(dir)];
  } catch {
    return [];
  }
  return entries.sort((a, b) => (a.name < b.name ? -1 : 1)).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory) return markdownFiles(path, root);
    return e.isFile && e.name.endsWith(".md") ? [relative(root, path)] : [];
  });
}

/**
 * The custom commands a session could have run: the project's
 * `.opencode/command(s)/` (the nearest wins over the global ones) and
 * `${XDG_CONFIG_HOME:-~/.config}/opencode/command(s)/`, `~/.opencode/`.
 *
 * @param directory The session's working directory.
 * @param source The environment.
 * @returns The commands found, nearest first (none when no folder exists).
 * @example
 * ```ts
 * import { opencodeCommands } from "./_opencode_commands.ts";
 * import { equal } from "node:assert/strict";
 * equal(opencodeCommands("/nowhere", { home: "/nohome", env: {}, os: "linux" }).length, 0);
 * ```
 */
export function opencodeCommands(
  directory: string | undefined,
  source: SourceEnv,
): OpencodeCommand[] {
  const config = source.env.XDG_CONFIG_HOME || join(source.home, ".config");
  const bases = [
    ...(directory ? [join(directory, ".opencode")] : []),
    join(config, "opencode"),
    join(source.home, ".opencode"),
  ];
  const commands: OpencodeCommand[] = [];
  for (const base of bases) {
    for (const folder of ["command", "commands"]) {
      const dir = join(base, folder);
      for (const file of markdownFiles(dir)) {
        let text: string;
        try {
          text = Deno.readTextFileSync(join(dir, file));
        } catch {
          continue;
        }
        const name = file.replace(/\\/g, "/").replace(/\.md$/, "");
        const command = compile(name, body(text));
        if (command) commands.push(command);
      }
    }
  }
  return commands;
}

/**
 * What the person typed when a user text part is a command's expanded
 * template: `/name` and its arguments.
 *
 * @param text The user text part.
 * @param commands The session's commands.
 * @returns `/name args`, or undefined when no template matches.
 * @example
 * ```ts
 * import { typedCommand } from "./_opencode_commands.ts";
 * import { equal } from "node:assert/strict";
 * const fix = { name: "fix", pattern: /^Fix\s*issue\s*([\s\S]*?)\.$/, slots: ["$ARGUMENTS"] };
 * equal(typedCommand("Fix issue #12.", [fix]), "/fix #12");
 * ```
 */
export function typedCommand(
  text: string,
  commands: readonly OpencodeCommand[],
): string | undefined {
  const trimmed = text.trim();
  for (const command of commands) {
    const m = command.pattern.exec(trimmed);
    if (!m) continue;
    const whole = command.slots.findIndex((s) =>
      s === "$ARGUMENTS" || s === "appended"
    );
    let args = whole >= 0 ? m[whole + 1] ?? "" : "";
    if (whole < 0) {
      // `$1`, `$2`…: one argument each, in order.
      const byPosition = new Map<number, string>();
      command.slots.forEach((s, i) => {
        byPosition.set(Number(s.slice(1)), m[i + 1] ?? "");
      });
      args = [...byPosition].sort((a, b) => a[0] - b[0]).map(([, v]) => v)
        .filter((v) => v).join(" ");
    }
    args = args.trim();
    return `/${command.name}${args ? ` ${args}` : ""}`;
  }
  return undefined;
}
