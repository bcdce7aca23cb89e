/**
 * What `deja install <harness>` adds to each harness's config, and how to
 * take exactly that back out: the MCP server entry and the hook entries,
 * all calling the launcher. Entries are recognised as deja's by the
 * launcher path in their command.
 *
 * @module
 */
import { join } from "node:path";

/** Harnesses `deja install` can wire. */
export const INSTALL_HARNESSES = [
  "claude-code",
  "codex",
  "gemini",
  "opencode",
  "cursor",
  "qwen",
] as const;

/** One of {@linkcode INSTALL_HARNESSES}. */
export type InstallHarness = typeof INSTALL_HARNESSES[number];

/** A parsed JSON object. */
export type JsonObject = Record<string, unknown>;

/** How entries are recognised and written. */
export interface Ours {
  /** The launcher path. */
  launcher: string;
  /** Whether a command (string or argv) is one of deja's. */
  isOurs(command: unknown): boolean;
}

/** One JSON config file and the edits install makes to it. */
export interface JsonTarget {
  /** Always "json". */
  kind: "json";
  /** The file. */
  path: string;
  /** What the file is for, for reports. */
  role: string;
  /** Adds deja's entries (idempotent). */
  add(doc: JsonObject, ours: Ours): void;
  /** Removes deja's entries (and containers they alone filled). */
  remove(doc: JsonObject, ours: Ours): void;
}

/** Codex's config.toml: an MCP table and the hooks feature flag. */
export interface TomlTarget {
  /** Always "toml". */
  kind: "toml";
  /** The file. */
  path: string;
  /** What the file is for, for reports. */
  role: string;
}

/** A config file install touches. */
export type Target = JsonTarget | TomlTarget;

function obj(value: unknown): JsonObject | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? value as JsonObject
    : undefined;
}

/** The list under a key (none yet: empty); another value is not ours to drop. */
function listAt(doc: JsonObject, key: string): unknown[] {
  const value = doc[key];
  if (value === undefined) return [];
  if (Array.isArray(value)) return value;
  throw new TypeError(`"${key}" is not a list; fix the file by hand first`);
}

function child(doc: JsonObject, key: string): JsonObject {
  const existing = obj(doc[key]);
  if (existing) return existing;
  if (doc[key] !== undefined) {
    throw new TypeError(
      `"${key}" is not an object; fix the file by hand first`,
    );
  }
  const made: JsonObject = {};
  doc[key] = made;
  return made;
}

function subcommandOf(command: unknown): string | undefined {
  const text = Array.isArray(command)
    ? command.join(" ")
    : typeof command === "string"
    ? command
    : "";
  return text.match(/\b(hook-[a-z-]+|mcp)\b/)?.[1];
}

/** A hook entry in the nested style (Claude Code, Codex, Gemini CLI, Qwen Code). */
interface NestedHook {
  event: string;
  matcher?: string;
  subcommand: string;
  name?: string;
}

function command(ours: Ours, harness: string, sub: string, extra = ""): string {
  return `${shellWord(ours.launcher)} ${sub}${extra} --harness ${harness}`;
}

function shellWord(path: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(path)
    ? path
    : `'${path.replaceAll("'", `'\\''`)}'`;
}

function addNested(
  doc: JsonObject,
  ours: Ours,
  harness: string,
  hooks: readonly NestedHook[],
): void {
  const root = child(doc, "hooks");
  for (const h of hooks) {
    const list = listAt(root, h.event);
    const present = list.some((g) =>
      (obj(g)?.hooks as unknown[] | undefined)?.some?.((e) =>
        ours.isOurs(obj(e)?.command) &&
        subcommandOf(obj(e)?.command) === h.subcommand
      )
    );
    if (present) continue;
    const entry: JsonObject = {
      type: "command",
      command: command(ours, harness, h.subcommand),
    };
    if (h.name) entry.name = h.name;
    const group: JsonObject = {};
    if (h.matcher !== undefined) group.matcher = h.matcher;
    group.hooks = [entry];
    list.push(group);
    root[h.event] = list;
  }
}

function removeNested(doc: JsonObject, ours: Ours): void {
  const root = obj(doc.hooks);
  if (!root) return;
  for (const [event, value] of Object.entries(root)) {
    if (!Array.isArray(value)) continue;
    let touched = false;
    const kept = value.flatMap((g) => {
      const group = obj(g);
      const entries = group?.hooks;
      if (!group || !Array.isArray(entries)) return [g];
      const rest = entries.filter((e) => !ours.isOurs(obj(e)?.command));
      if (rest.length === entries.length) return [g];
      touched = true;
      return rest.length ? [{ ...group, hooks: rest }] : [];
    });
    if (!touched) continue;
    if (kept.length) root[event] = kept;
    else delete root[event];
  }
  if (Object.keys(root).length === 0) delete doc.hooks;
}

function setMcp(
  doc: JsonObject,
  container: string,
  entry: JsonObject,
  ours: Ours,
): void {
  const servers = child(doc, container);
  const current = obj(servers.deja);
  if (current && !ours.isOurs(current.command)) {
    throw new TypeError(
      `"${container}.deja" exists and does not call the deja launcher; remove it or rename it first`,
    );
  }
  if (!current) servers.deja = entry;
}

function removeMcp(doc: JsonObject, container: string, ours: Ours): void {
  const servers = obj(doc[container]);
  if (
    !servers || !obj(servers.deja) || !ours.isOurs(obj(servers.deja)?.command)
  ) return;
  delete servers.deja;
  if (Object.keys(servers).length === 0) delete doc[container];
}

/** Options for {@linkcode targetsFor}. */
export interface TargetOptions {
  /** HOME. */
  home: string;
  /** The environment (CLAUDE_CONFIG_DIR, CODEX_HOME, XDG_CONFIG_HOME, ...). */
  env: Record<string, string | undefined>;
}

/**
 * The config files install edits for a harness, and the edits.
 *
 * @param harness The harness.
 * @param options HOME and environment.
 * @returns The targets.
 * @example
 * ```ts
 * import { targetsFor } from "./wiring.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(targetsFor("codex", { home: "/h", env: {} }).map((t) => t.path), ["/h/.codex/config.toml", "/h/.codex/hooks.json"]);
 * ```
 */
export function targetsFor(
  harness: InstallHarness,
  options: TargetOptions,
): Target[] {
  const { home, env } = options;
  switch (harness) {
    case "claude-code": {
      const dir = env.CLAUDE_CONFIG_DIR || join(home, ".claude");
      const hooks: NestedHook[] = [
        { event: "SessionStart", subcommand: "hook-context" },
        { event: "UserPromptSubmit", subcommand: "hook-prompt" },
        {
          event: "PostToolUse",
          matcher: "Bash",
          subcommand: "hook-tool-after",
        },
        {
          event: "PostToolUseFailure",
          matcher: "Bash",
          subcommand: "hook-tool-after",
        },
        { event: "SessionEnd", subcommand: "hook-session-end" },
      ];
      return [
        {
          kind: "json",
          path: join(dir, "settings.json"),
          role: "hooks",
          add: (doc, ours) => addNested(doc, ours, harness, hooks),
          remove: removeNested,
        },
        {
          kind: "json",
          path: env.CLAUDE_CONFIG_DIR
            ? join(env.CLAUDE_CONFIG_DIR, ".claude.json")
            : join(home, ".claude.json"),
          role: "MCP server",
          add: (doc, ours) =>
            setMcp(doc, "mcpServers", {
              type: "stdio",
              command: ours.launcher,
              args: ["mcp"],
              env: {},
            }, ours),
          remove: (doc, ours) => removeMcp(doc, "mcpServers", ours),
        },
      ];
    }
    case "codex": {
      const dir = env.CODEX_HOME || join(home, ".codex");
      const hooks: NestedHook[] = [
        { event: "SessionStart", subcommand: "hook-context" },
        { event: "UserPromptSubmit", subcommand: "hook-prompt" },
        {
          event: "PostToolUse",
          matcher: "Bash",
          subcommand: "hook-tool-after",
        },
      ];
      return [
        {
          kind: "toml",
          path: join(dir, "config.toml"),
          role: "MCP server and the hooks feature flag",
        },
        {
          kind: "json",
          path: join(dir, "hooks.json"),
          role: "hooks",
          add: (doc, ours) => addNested(doc, ours, harness, hooks),
          remove: removeNested,
        },
      ];
    }
    case "gemini":
    case "qwen": {
      const dir = harness === "gemini"
        ? join(home, ".gemini")
        : join(home, ".qwen");
      const hooks: NestedHook[] = harness === "gemini"
        ? [
          {
            event: "SessionStart",
            subcommand: "hook-context",
            name: "deja-context",
          },
          {
            event: "BeforeAgent",
            subcommand: "hook-prompt",
            name: "deja-prompt",
          },
          {
            event: "AfterTool",
            matcher: "run_shell_command",
            subcommand: "hook-tool-after",
            name: "deja-tool-after",
          },
          {
            event: "SessionEnd",
            subcommand: "hook-session-end",
            name: "deja-session-end",
          },
        ]
        : [
          { event: "SessionStart", subcommand: "hook-context" },
          { event: "UserPromptSubmit", subcommand: "hook-prompt" },
          {
            event: "PostToolUse",
            matcher: "run_shell_command",
            subcommand: "hook-tool-after",
          },
          {
            event: "PostToolUseFailure",
            matcher: "run_shell_command",
            subcommand: "hook-tool-after",
          },
          { event: "SessionEnd", subcommand: "hook-session-end" },
        ];
      return [{
        kind: "json",
        path: join(dir, "settings.json"),
        role: "MCP server and hooks",
        add: (doc, ours) => {
          setMcp(
            doc,
            "mcpServers",
            { command: ours.launcher, args: ["mcp"] },
            ours,
          );
          addNested(doc, ours, harness, hooks);
        },
        remove: (doc, ours) => {
          removeNested(doc, ours);
          removeMcp(doc, "mcpServers", ours);
        },
      }];
    }
    case "cursor": {
      const dir = join(home, ".cursor");
      // Cursor reads `additional_context` back from sessionStart and
      // postToolUse only; postToolUseFailure takes no output, so the remedy
      // rides on postToolUse, whose `tool_output` carries the exit code.
      const flat: Array<[string, string, string, string?]> = [
        ["sessionStart", "hook-context", " --cursor"],
        ["postToolUse", "hook-tool-after", " --cursor", "Shell"],
        ["sessionEnd", "hook-session-end", ""],
      ];
      return [
        {
          kind: "json",
          path: join(dir, "mcp.json"),
          role: "MCP server",
          add: (doc, ours) =>
            setMcp(
              doc,
              "mcpServers",
              { command: ours.launcher, args: ["mcp"] },
              ours,
            ),
          remove: (doc, ours) => removeMcp(doc, "mcpServers", ours),
        },
        {
          kind: "json",
          path: join(dir, "hooks.json"),
          role: "hooks",
          add: (doc, ours) => {
            if (doc.version === undefined) doc.version = 1;
            const root = child(doc, "hooks");
            // An earlier install wired postToolUseFailure, whose output
            // Cursor ignores: that entry goes, the person's own stay.
            const stale = root.postToolUseFailure;
            if (Array.isArray(stale)) {
              const kept = stale.filter((e) => !ours.isOurs(obj(e)?.command));
              if (kept.length === 0) delete root.postToolUseFailure;
              else if (kept.length < stale.length) {
                root.postToolUseFailure = kept;
              }
            }
            for (const [event, sub, extra, matcher] of flat) {
              const list = listAt(root, event);
              if (
                list.some((e) =>
                  ours.isOurs(obj(e)?.command) &&
                  subcommandOf(obj(e)?.command) === sub
                )
              ) continue;
              const entry: JsonObject = {
                command: command(ours, harness, sub, extra),
              };
              if (matcher) entry.matcher = matcher;
              list.push(entry);
              root[event] = list;
            }
          },
          remove: (doc, ours) => {
            const root = obj(doc.hooks);
            if (!root) return;
            for (const [event, value] of Object.entries(root)) {
              if (!Array.isArray(value)) continue;
              const kept = value.filter((e) => !ours.isOurs(obj(e)?.command));
              if (kept.length === value.length) continue;
              if (kept.length) root[event] = kept;
              else delete root[event];
            }
            if (Object.keys(root).length === 0) {
              delete doc.hooks;
              if (doc.version === 1 && Object.keys(doc).length === 1) {
                delete doc.version;
              }
            }
          },
        },
      ];
    }
    case "opencode": {
      const dir = join(
        env.XDG_CONFIG_HOME || join(home, ".config"),
        "opencode",
      );
      return [{
        kind: "json",
        path: join(dir, "opencode.json"),
        role: "MCP server",
        add: (doc, ours) =>
          setMcp(doc, "mcp", {
            type: "local",
            command: [ours.launcher, "mcp"],
            enabled: true,
          }, ours),
        remove: (doc, ours) => removeMcp(doc, "mcp", ours),
      }];
    }
  }
}
