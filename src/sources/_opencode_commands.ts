/**
 * opencode's custom slash commands. Running `/name args` stores the
 * command's expanded template as the user's text part, with no mark of the
 * command (opencode's `SessionPrompt.command` passes the template to
 * `prompt()` like typed text). The templates are the Markdown files under
 * `command/` or `commands/` in the project's `.opencode/` and in opencode's
 * config folder, so a user text part that is one of them, expanded, is read
 * back as what the person typed. The built-in `/init` and `/review`
 * templates live in the opencode program: they are told by fingerprints.
 *
 * @module
 */
import { join, relative } from "node:path";
import type { SourceEnv } from "../core/harness.ts";

/** One command template, compiled to match its expansions. */
export interface OpencodeCommand {
  /** The command name: the file's path under `command/`, without `.md`. */
  name: string;
  /** The template's text between its placeholders, in order. */
  literals: RegExp[];
  /** What stands between two literals: `$ARGUMENTS`, `$1`…, `shell` output, or `appended` arguments. */
  slots: string[];
}

const PLACEHOLDER = /\$ARGUMENTS|\$\d+|!`[^`]+`/g;

/**
 * The fewest characters (not counting spaces) a template must hold besides
 * its placeholders: a shorter one (`Fix $ARGUMENTS`) reads like a prompt a
 * person types, so it is not taken for one.
 */
const MIN_LITERAL = 24;

/**
 * Text matched word by word, whatever the spaces between the words: the
 * first literal at the text's start (sticky), the last at its end.
 */
function literal(text: string, at: "start" | "middle" | "end"): RegExp {
  const source = text.split(/\s+/).map((w) =>
    w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
  ).join("\\s*");
  return at === "end"
    ? new RegExp(`(?:${source})$`, "g")
    : new RegExp(source, at === "start" ? "y" : "g");
}

/**
 * A command template compiled to match its expansions.
 *
 * @param name The command name.
 * @param template The command file's text (front matter is dropped).
 * @returns The command, or undefined for an empty or too short template.
 * @example
 * ```ts
 * import { opencodeCommand, typedCommand } from "./_opencode_commands.ts";
 * import { equal } from "node:assert/strict";
 * const fix = opencodeCommand("fix", "---\nagent: build\n---\nFix the issue $ARGUMENTS and add a regression test.");
 * equal(typedCommand("Fix the issue #12 and add a regression test.", [fix!]), "/fix #12");
 * ```
 */
export function opencodeCommand(
  name: string,
  template: string,
): OpencodeCommand | undefined {
  const text = body(template).trim();
  if (text.replace(PLACEHOLDER, "").replace(/\s+/g, "").length < MIN_LITERAL) {
    return undefined;
  }
  const literals: RegExp[] = [];
  const slots: string[] = [];
  let at = 0;
  for (const m of text.matchAll(PLACEHOLDER)) {
    literals.push(
      literal(text.slice(at, m.index), literals.length ? "middle" : "start"),
    );
    slots.push(m[0].startsWith("!") ? "shell" : m[0]);
    at = m.index + m[0].length;
  }
  if (slots.length === 0) {
    // Arguments given to a template without placeholders are appended.
    literals.push(literal(text, "start"));
    slots.push("appended");
    literals.push(literal("", "end"));
  } else literals.push(literal(text.slice(at), "end"));
  return { name, literals, slots };
}

/**
 * What stands between a command's literals in a text: the first literal at
 * its start, the last at its end, each other at its first place after the
 * one before (one pass, no backtracking over a long text).
 */
function slotValues(
  text: string,
  literals: readonly RegExp[],
): string[] | undefined {
  let at = 0;
  const values: string[] = [];
  for (const [i, re] of literals.entries()) {
    re.lastIndex = at;
    const m = re.exec(text);
    if (!m) return undefined;
    if (i > 0) values.push(text.slice(at, m.index));
    at = m.index + m[0].length;
  }
  return values;
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
        const command = opencodeCommand(name, text);
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
 * import { opencodeCommand, typedCommand } from "./_opencode_commands.ts";
 * import { equal } from "node:assert/strict";
 * const notes = opencodeCommand("notes", "Draft release notes from $1 to $2, grouped by area.");
 * equal(typedCommand("Draft release notes from v1 to v2, grouped by area.", [notes!]), "/notes v1 v2");
 * equal(typedCommand("Draft the notes", [notes!]), undefined);
 * ```
 */
export function typedCommand(
  text: string,
  commands: readonly OpencodeCommand[],
): string | undefined {
  const trimmed = text.trim();
  for (const command of commands) {
    const values = slotValues(trimmed, command.literals);
    if (!values) continue;
    const whole = command.slots.findIndex((s) =>
      s === "$ARGUMENTS" || s === "appended"
    );
    let args: string;
    if (whole >= 0) {
      const value = values[whole] ?? "";
      // Appended arguments follow the template after a blank line.
      if (command.slots[whole] === "appended" && value && !/^\s/.test(value)) {
        continue;
      }
      args = value;
    } else {
      // `$1`, `$2`…: one argument each, in order.
      const byPosition = new Map<number, string>();
      command.slots.forEach((s, i) => {
        if (s !== "shell") byPosition.set(Number(s.slice(1)), values[i] ?? "");
      });
      args = [...byPosition].sort((a, b) => a[0] - b[0]).map(([, v]) =>
        v.trim()
      )
        .filter((v) => v).join(" ");
    }
    args = args.trim();
    return `/${command.name}${args ? ` ${args}` : ""}`;
  }
  return undefined;
}

/**
 * opencode's built-in commands, whose templates live in its program (the
 * `command/template/*.txt` files): each told by the line its template opens
 * with and the text either side of the arguments, as every version since
 * the command appeared wrote them (`initialize.txt` was rewritten in 2026;
 * `review.txt` keeps its opening and its `Input:` line).
 */
const BUILTINS: ReadonlyArray<{
  name: string;
  /** The template's first line. */
  opening: string;
  /** What comes just before the arguments. */
  before: string;
  /**
   * What comes just after them; `line` when they follow the rest of the
   * line `before` starts (the worktree path), up to the text's end.
   */
  after: string | "line";
}> = [
  {
    name: "init",
    opening: "Create or update `AGENTS.md` for this repository.",
    before: "\nUser-provided focus or constraints (honor these):\n",
    after: "\n## How to investigate\n",
  },
  {
    // Before 2026: the arguments after the path of an AGENTS.md to improve
    // (appended there by builds whose template had no `$ARGUMENTS`).
    name: "init",
    opening:
      "Please analyze this codebase and create an AGENTS.md file containing:",
    before: "\nIf there's already an AGENTS.md, improve it if it's located in ",
    after: "line",
  },
  {
    name: "review",
    opening:
      "You are a code reviewer. Your job is to review code changes and provide actionable feedback.",
    before: "\nInput: ",
    after: "\n---\n\n## Determining What to Review\n",
  },
];

/**
 * What the person typed when a user text is the expanded template of one
 * of opencode's built-in commands (`/init`, `/review`): the command and its
 * arguments.
 *
 * @param text A user text part, or a command subtask's prompt.
 * @returns `/init …` or `/review …`, or undefined for any other text.
 * @example
 * ```ts
 * import { builtinCommand } from "./_opencode_commands.ts";
 * import { equal } from "node:assert/strict";
 * const review = "You are a code reviewer. Your job is to review code changes and provide actionable feedback.\n\n---\n\nInput: HEAD~1\n\n---\n\n## Determining What to Review\n…";
 * equal(builtinCommand(review), "/review HEAD~1");
 * equal(builtinCommand("You are a code reviewer. Be brief."), undefined);
 * ```
 */
export function builtinCommand(text: string): string | undefined {
  const trimmed = text.trim();
  for (const b of BUILTINS) {
    if (!trimmed.startsWith(b.opening)) continue;
    const at = trimmed.indexOf(b.before, b.opening.length);
    if (at < 0) continue;
    let from = at + b.before.length;
    let to: number;
    if (b.after === "line") {
      const eol = trimmed.indexOf("\n", from);
      from = eol < 0 ? trimmed.length : eol;
      to = trimmed.length;
    } else {
      to = trimmed.indexOf(b.after, from);
      if (to < 0) continue;
    }
    const args = trimmed.slice(from, to).trim();
    return `/${b.name}${args ? ` ${args}` : ""}`;
  }
  return undefined;
}
