import { deepEqual, equal, ok, throws } from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { dirname } from "../src/core/paths.ts";
import { run } from "../cli/mod.ts";
import { captureIo } from "../src/core/io.ts";
import {
  dejaConfigDir,
  INSTALL_HARNESSES,
  type InstallHarness,
  installHarness,
  type InstallOptions,
  jsonComments,
  launcherPath,
  parseJsonWithComments,
  uninstallHarness,
} from "../src/install/mod.ts";
import { selfCommand } from "../src/recall/mod.ts";
import { denoDir } from "./_recall_fixture.ts";

const CONFIGS = fileURLToPath(
  new URL("../fixtures/configs/home", import.meta.url),
);
const NOW = Date.UTC(2026, 10, 25, 10, 0, 0);

async function copyTree(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    if (entry.isDirectory) {
      await copyTree(`${from}/${entry.name}`, `${to}/${entry.name}`);
    } else await Deno.copyFile(`${from}/${entry.name}`, `${to}/${entry.name}`);
  }
}

async function snapshot(
  dir: string,
  skip = "/.config/deja",
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  async function walk(d: string): Promise<void> {
    for await (const e of Deno.readDir(d)) {
      const p = `${d}/${e.name}`;
      if (p.startsWith(`${dir}${skip}`)) continue;
      if (e.isDirectory) await walk(p);
      else out.set(p.slice(dir.length), await Deno.readTextFile(p));
    }
  }
  await walk(dir);
  return out;
}

async function tempHome(): Promise<{ home: string; options: InstallOptions }> {
  const home = `${await Deno.makeTempDir({ prefix: "deja-install-" })}/home`;
  await copyTree(CONFIGS, home);
  return {
    home,
    options: { home, env: { HOME: home }, self: selfCommand({}), now: NOW },
  };
}

Deno.test("installHarness() then uninstallHarness() leaves every config byte-identical", async (t) => {
  for (const harness of INSTALL_HARNESSES) {
    await t.step(harness, async () => {
      const { home, options } = await tempHome();
      const before = await snapshot(home);
      const everything = await snapshot(home, "\0");
      const first = installHarness(harness, options);
      ok(
        first.changes.some((c) =>
          c.role !== "launcher" && c.action !== "unchanged"
        ),
        `${harness} changed nothing`,
      );
      for (const c of first.changes) {
        if (c.action === "update") {
          ok(
            c.backup &&
              (await Deno.readTextFile(c.backup)) ===
                before.get(c.path.slice(home.length)),
          );
          // A config can hold account data: its backup is the owner's alone.
          equal((await Deno.stat(c.backup!)).mode! & 0o777, 0o600);
        }
      }
      const installed = await snapshot(home);
      const second = installHarness(harness, options);
      deepEqual(
        second.changes.map((c) => c.action).filter((a) => a !== "unchanged"),
        [],
        "install twice changes nothing",
      );
      deepEqual(await snapshot(home), installed);
      const dry = uninstallHarness(harness, { ...options, dryRun: true });
      ok(dry.changes.some((c) => c.diff.includes("\n-")));
      deepEqual(await snapshot(home), installed, "a dry run writes nothing");
      const undone = uninstallHarness(harness, options);
      deepEqual(await snapshot(home), before);
      // Nothing of deja's is left either: backups, records, the launcher.
      deepEqual(await snapshot(home, "\0"), everything);
      ok(
        undone.changes.filter((c) => c.backup).every((c) =>
          !first.changes.some((f) => f.backup === c.backup)
        ),
      );
      equal(
        await Deno.stat(launcherPath(home, {})).then(() => true, () => false),
        false,
      );
    });
  }
});

Deno.test("installing every harness, then uninstalling in another order, restores every file", async () => {
  const { home, options } = await tempHome();
  const before = await snapshot(home);
  for (const h of INSTALL_HARNESSES) installHarness(h, options);
  const order: InstallHarness[] = [
    "opencode",
    "claude-code",
    "qwen",
    "codex",
    "cursor",
    "gemini",
  ];
  for (const h of order) {
    uninstallHarness(h, options);
    const launcherLeft = await Deno.stat(launcherPath(home, {})).then(
      () => true,
      () => false,
    );
    equal(launcherLeft, h !== "gemini", `launcher after uninstalling ${h}`);
  }
  deepEqual(await snapshot(home), before);
  const binLeft = await Deno.stat(dirname(launcherPath(home, {}))).then(
    () => true,
    () => false,
  );
  equal(binLeft, false, "the launcher's folder goes with the last harness");
});

Deno.test("installHarness() writes hooks that call the launcher for each event", async () => {
  const { home, options } = await tempHome();
  installHarness("claude-code", options);
  const settings = JSON.parse(
    await Deno.readTextFile(`${home}/.claude/settings.json`),
  );
  const launcher = launcherPath(home, {});
  for (
    const [event, sub] of [
      ["SessionStart", "hook-context"],
      ["UserPromptSubmit", "hook-prompt"],
      ["PostToolUse", "hook-tool-after"],
      ["PostToolUseFailure", "hook-tool-after"],
      ["SessionEnd", "hook-session-end"],
    ]
  ) {
    const commands = (settings.hooks[event as string] as Array<
      { hooks: Array<{ command: string }> }
    >)
      .flatMap((g) => g.hooks.map((h) => h.command));
    ok(
      commands.includes(`${launcher} ${sub} --harness claude-code`),
      `${event}: ${commands.join(", ")}`,
    );
  }
  equal(
    settings.hooks.PostToolUse[0].hooks[0].command,
    'npx prettier --write "$CLAUDE_PROJECT_DIR"/src --log-level silent',
  );
  const mcp =
    JSON.parse(await Deno.readTextFile(`${home}/.claude.json`)).mcpServers.deja;
  deepEqual(mcp, { type: "stdio", command: launcher, args: ["mcp"], env: {} });
});

Deno.test("installHarness() wires Cursor's tool hook to postToolUse, the event whose output Cursor reads", async () => {
  const { home, options } = await tempHome();
  installHarness("cursor", options);
  const file = JSON.parse(
    await Deno.readTextFile(`${home}/.cursor/hooks.json`),
  );
  const launcher = launcherPath(home, {});
  equal(file.version, 1);
  deepEqual(file.hooks.postToolUse, [{
    command: `${launcher} hook-tool-after --cursor --harness cursor`,
    matcher: "Shell",
  }]);
  equal(file.hooks.postToolUseFailure, undefined);
  deepEqual(Object.keys(file.hooks), [
    "sessionStart",
    "postToolUse",
    "sessionEnd",
  ]);
});

Deno.test("installHarness() over an earlier Cursor install moves deja's tool hook from postToolUseFailure to postToolUse", async () => {
  const { home, options } = await tempHome();
  const launcher = launcherPath(home, {});
  const mine = { command: "~/.cursor/hooks/log-failure.sh" };
  await Deno.writeTextFile(
    `${home}/.cursor/hooks.json`,
    `${
      JSON.stringify(
        {
          version: 1,
          hooks: {
            sessionStart: [{
              command: `${launcher} hook-context --cursor --harness cursor`,
            }],
            postToolUseFailure: [mine, {
              command: `${launcher} hook-tool-after --cursor --harness cursor`,
            }],
          },
        },
        null,
        2,
      )
    }\n`,
  );
  installHarness("cursor", options);
  const file = JSON.parse(
    await Deno.readTextFile(`${home}/.cursor/hooks.json`),
  );
  deepEqual(file.hooks.postToolUseFailure, [mine]);
  equal(file.hooks.sessionStart.length, 1);
  equal(file.hooks.postToolUse[0].matcher, "Shell");
});

Deno.test("installHarness() tells the person to trust the hooks in Codex, which skips untrusted ones", async () => {
  const { options } = await tempHome();
  const report = installHarness("codex", options);
  ok(
    report.notes.some((n) => /trust/.test(n) && n.includes("/hooks")),
    report.notes.join("\n"),
  );
});

Deno.test("the launcher finds the deja install ran from", async () => {
  const { home, options } = await tempHome();
  installHarness("codex", options);
  const out = await new Deno.Command("/bin/sh", {
    args: [launcherPath(home, {}), "--version"],
    env: { HOME: home, PATH: "/usr/bin:/bin", DENO_DIR: denoDir() },
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  equal(
    new TextDecoder().decode(out.stdout).trim(),
    "deja 0.1.0",
    new TextDecoder().decode(out.stderr),
  );
});

Deno.test("the launcher exits 0 quietly for a hook when no deja can be found", async () => {
  const { home } = await tempHome();
  const path = launcherPath(home, {});
  await Deno.mkdir(path.replace(/\/[^/]+$/, ""), { recursive: true });
  const { launcherScript } = await import("../src/install/mod.ts");
  await Deno.writeTextFile(path, launcherScript(["/nonexistent/deja"]));
  const out = await new Deno.Command("/bin/sh", {
    args: [path, "hook-context"],
    env: { HOME: home, PATH: "/nonexistent" },
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  equal(out.code, 0);
  equal(out.stdout.length, 0);
});

const GEMINI_JSONC = `{
  // my theme
  "theme": "Dracula", /* dark */
  "docs": "https://geminicli.com/docs/", // not a comment: a URL
  "mcpServers": {
    /* none of mine yet */
  }
  // more to come
}
`;

Deno.test("installHarness() edits JSON with comments in place and keeps every comment", async (t) => {
  const { home, options } = await tempHome();
  const path = `${home}/.gemini/settings.json`;
  await Deno.writeTextFile(path, GEMINI_JSONC);
  installHarness("gemini", options);
  const installed = await Deno.readTextFile(path);
  await t.step("the comments are still there, in order", () => {
    deepEqual(jsonComments(installed), jsonComments(GEMINI_JSONC));
    ok(
      installed.startsWith(
        '{\n  // my theme\n  "theme": "Dracula", /* dark */\n',
      ),
    );
  });
  await t.step("the MCP server and the hooks were added", () => {
    const doc = parseJsonWithComments(installed) as {
      mcpServers: Record<string, { command: string }>;
      hooks: Record<string, unknown>;
      docs: string;
    };
    equal(doc.mcpServers.deja?.command, launcherPath(home, options.env));
    ok(doc.hooks.SessionStart && doc.hooks.AfterTool, installed);
    equal(doc.docs, "https://geminicli.com/docs/");
  });
  await t.step("a second install changes nothing", async () => {
    const again = installHarness("gemini", options);
    ok(again.changes.every((c) => c.action === "unchanged"));
    equal(await Deno.readTextFile(path), installed);
  });
  await t.step("uninstall gives the original bytes back", async () => {
    uninstallHarness("gemini", options);
    equal(await Deno.readTextFile(path), GEMINI_JSONC);
  });
});

Deno.test("uninstallHarness() keeps a comment written since install", async () => {
  const { home, options } = await tempHome();
  const path = `${home}/.gemini/settings.json`;
  await Deno.writeTextFile(path, GEMINI_JSONC);
  installHarness("gemini", options);
  const edited = (await Deno.readTextFile(path)).replace(
    "// my theme",
    "// my theme, for now",
  );
  await Deno.writeTextFile(path, edited);
  uninstallHarness("gemini", options);
  equal(
    await Deno.readTextFile(path),
    GEMINI_JSONC.replace("// my theme", "// my theme, for now"),
  );
});

const OPENCODE_JSONC = `{
  // comment
  "$schema": "https://opencode.ai/config.json",
  "model": "anthropic/claude-sonnet-4-5",
}
`;

Deno.test("installHarness() follows a trailing comma in opencode.json, and uninstall takes it back out", async (t) => {
  const { home, options } = await tempHome();
  const path = `${home}/.config/opencode/opencode.json`;
  await Deno.writeTextFile(path, OPENCODE_JSONC);
  installHarness("opencode", options);
  const installed = await Deno.readTextFile(path);
  await t.step("the entry goes after the comma and gets one of its own", () => {
    ok(installed.startsWith(OPENCODE_JSONC.slice(0, -2)), installed);
    ok(
      installed.endsWith('\n      "enabled": true\n    }\n  },\n}\n'),
      installed,
    );
    deepEqual(jsonComments(installed), ["// comment"]);
    const doc = parseJsonWithComments(installed) as {
      mcp: Record<string, { command: string[] }>;
    };
    equal(doc.mcp.deja?.command[0], launcherPath(home, options.env));
  });
  await t.step("a second install changes nothing", async () => {
    const again = installHarness("opencode", options);
    ok(again.changes.every((c) => c.action === "unchanged"));
    equal(await Deno.readTextFile(path), installed);
  });
  await t.step("uninstall gives the original bytes back", async () => {
    uninstallHarness("opencode", options);
    equal(await Deno.readTextFile(path), OPENCODE_JSONC);
  });
  await t.step("so does uninstall without the install record", async () => {
    installHarness("opencode", options);
    await Deno.remove(
      `${dejaConfigDir(home, options.env)}/install/opencode.json`,
    );
    uninstallHarness("opencode", options);
    equal(await Deno.readTextFile(path), OPENCODE_JSONC);
  });
});

Deno.test("installHarness() refuses a double comma, naming it, and leaves the file untouched", async () => {
  const { home, options } = await tempHome();
  const path = `${home}/.gemini/settings.json`;
  const text = '{\n  // my theme\n  "theme": "dark",,\n}\n';
  await Deno.writeTextFile(path, text);
  throws(
    () => installHarness("gemini", options),
    (err: Error) =>
      err.message.startsWith(
        `Cannot edit "${path}": it is not JSON (Unexpected comma at line 3 column 19: no value before it)`,
      ),
  );
  equal(await Deno.readTextFile(path), text);
});

Deno.test("installHarness() refuses a config.toml it cannot read and leaves it untouched", async () => {
  const { home, options } = await tempHome();
  for (
    const broken of [
      'model = "o3"\n[mcp_servers.deja\ncommand = "x"\n',
      'model = "o3"\nargs = [\n  "a",\n',
    ]
  ) {
    await Deno.writeTextFile(`${home}/.codex/config.toml`, broken);
    throws(() => installHarness("codex", options), /not TOML deja can read/);
    equal(await Deno.readTextFile(`${home}/.codex/config.toml`), broken);
  }
});

Deno.test("deja install names a config file it cannot parse, with a code", async () => {
  const { home } = await tempHome();
  for (
    const [harness, path, text] of [
      ["gemini", `${home}/.gemini/settings.json`, "{bad"],
      ["codex", `${home}/.codex/config.toml`, "[mcp_servers.deja\n"],
      // Valid JSON of another shape than the entries need.
      ["gemini", `${home}/.gemini/settings.json`, '{"mcpServers": []}'],
      [
        "claude-code",
        `${home}/.claude/settings.json`,
        '{"hooks": {"SessionStart": 5}}',
      ],
    ] as const
  ) {
    await Deno.writeTextFile(path, text);
    const io = captureIo({ env: { HOME: home }, now: NOW });
    equal(await run(["install", harness], io, { keepPermissions: true }), 1);
    ok(io.err().startsWith(`error: Cannot edit "${path}": `), io.err());
    ok(io.err().trimEnd().endsWith("[INS-E001]"), io.err());
    equal(await Deno.readTextFile(path), text, "left as it was");
  }
});

Deno.test("uninstallHarness() keeps an empty MCP container the person had before install", async (t) => {
  await t.step(
    "opencode: nothing else changed, the original bytes",
    async () => {
      const { home, options } = await tempHome();
      const path = `${home}/.config/opencode/opencode.json`;
      const original =
        '{"$schema":"https://opencode.ai/config.json","mcp":{}}\n';
      await Deno.writeTextFile(path, original);
      installHarness("opencode", options);
      uninstallHarness("opencode", options);
      equal(await Deno.readTextFile(path), original);
    },
  );
  await t.step(
    "claude-code: the file changed since, mcpServers stays",
    async () => {
      const { home, options } = await tempHome();
      const path = `${home}/.claude.json`;
      await Deno.writeTextFile(
        path,
        '{\n  "numStartups": 3,\n  "mcpServers": {}\n}\n',
      );
      installHarness("claude-code", options);
      const doc = JSON.parse(await Deno.readTextFile(path));
      doc.numStartups = 4;
      await Deno.writeTextFile(path, JSON.stringify(doc, null, 2) + "\n");
      uninstallHarness("claude-code", options);
      deepEqual(JSON.parse(await Deno.readTextFile(path)), {
        numStartups: 4,
        mcpServers: {},
      });
    },
  );
});

Deno.test("uninstallHarness() keeps the backups it names when a file was edited since install", async () => {
  const { home, options } = await tempHome();
  const path = `${home}/.claude.json`;
  const first = installHarness("claude-code", options);
  const pristine = first.changes.find((c) => c.path === path)?.backup;
  const doc = JSON.parse(await Deno.readTextFile(path));
  doc.numStartups = 4;
  const edited = JSON.stringify(doc, null, 2) + "\n";
  await Deno.writeTextFile(path, edited);
  const undone = uninstallHarness("claude-code", options);
  const change = undone.changes.find((c) => c.path === path);
  equal(change?.action, "update");
  // What uninstall took the entry out of, and what install found, stay.
  equal(await Deno.readTextFile(change!.backup!), edited);
  ok(pristine && await Deno.readTextFile(pristine));
});

Deno.test("uninstallHarness() gives an empty config file back empty", async () => {
  const { home, options } = await tempHome();
  const path = `${home}/.gemini/settings.json`;
  await Deno.writeTextFile(path, "");
  installHarness("gemini", options);
  uninstallHarness("gemini", options);
  equal(await Deno.readTextFile(path), "");
});

/** Claude Code settings written by hand: compact arrays, a one-line group. */
const HAND_SETTINGS = `{
  "permissions": {
    "allow": ["Bash(npm test:*)", "Read(~/notes/**)"],
    "deny": []
  },
  "model": "opus",
  "hooks": {
    "PostToolUse": [{"matcher": "Edit", "hooks": [{"type": "command", "command": "prettier"}]}]
  }
}
`;

Deno.test("installHarness() keeps a compact permissions array on one line", async () => {
  const { home, options } = await tempHome();
  const path = `${home}/.claude/settings.json`;
  await Deno.writeTextFile(path, HAND_SETTINGS);
  installHarness("claude-code", options);
  const after = await Deno.readTextFile(path);
  ok(
    after.includes(
      '\n    "allow": ["Bash(npm test:*)", "Read(~/notes/**)"],\n    "deny": []\n',
    ),
    after,
  );
  // deja's PostToolUse group joins the one-line array inline.
  ok(
    after.includes(
      '\n    "PostToolUse": [{"matcher": "Edit", "hooks": [{"type": "command", "command": "prettier"}]}, {"matcher": "Bash", ',
    ),
    after,
  );
});

Deno.test("installHarness() keeps a one-line ~/.claude.json on one line", async () => {
  const { home, options } = await tempHome();
  const path = `${home}/.claude.json`;
  await Deno.writeTextFile(
    path,
    '{"numStartups":5,"mcpServers":{"linear":{"type":"http","url":"https://mcp.linear.example/mcp"}},"userID":"abc"}',
  );
  installHarness("claude-code", options);
  equal(
    await Deno.readTextFile(path),
    `{"numStartups":5,"mcpServers":{"linear":{"type":"http","url":"https://mcp.linear.example/mcp"},"deja":{"type":"stdio","command":${
      JSON.stringify(launcherPath(home, {}))
    },"args":["mcp"],"env":{}}},"userID":"abc"}`,
  );
});

Deno.test("installHarness() keeps CRLF line endings and key order", async () => {
  const { home, options } = await tempHome();
  const path = `${home}/.gemini/settings.json`;
  const original = [
    "{",
    '  "theme": "GitHub",',
    '  "2": "numeric-looking keys come first in a JS object",',
    '  "mcpServers": {',
    '    "sqlite": {"command": "uvx", "args": ["mcp-server-sqlite"]}',
    "  },",
    '  "10": true',
    "}",
    "",
  ].join("\r\n");
  await Deno.writeTextFile(path, original);
  installHarness("gemini", options);
  const after = await Deno.readTextFile(path);
  equal(after.replaceAll("\r\n", "").includes("\n"), false, "CRLF only");
  const sqlite = original.indexOf("\r\n  },");
  ok(after.startsWith(`${original.slice(0, sqlite)},\r\n`), after);
  ok(after.indexOf('"2"') < after.indexOf('"mcpServers"'), "key order");
  ok(after.indexOf('"mcpServers"') < after.indexOf('"10"'), "key order");
  uninstallHarness("gemini", options);
  equal(await Deno.readTextFile(path), original);
});

Deno.test("installHarness() on a hand-formatted file adds only deja's lines; a second install changes nothing", async () => {
  const { home, options } = await tempHome();
  const path = `${home}/.claude/settings.json`;
  await Deno.writeTextFile(path, HAND_SETTINGS);
  const first = installHarness("claude-code", options);
  const diff = first.changes.find((c) => c.path === path)?.diff ?? "";
  const lines = diff.split("\n");
  const removed = lines.filter((l) =>
    l.startsWith("-") && !l.startsWith("---")
  );
  // A line install touches only gains a comma, or deja's inline entry.
  for (const line of removed) {
    ok(
      lines.some((l) => l.startsWith(`+${line.slice(1)},`)) ||
        lines.some((l) => l.startsWith(`+${line.slice(1, -1)}, {`)),
      `${line} rewritten in:\n${diff}`,
    );
  }
  const installed = await Deno.readTextFile(path);
  const second = installHarness("claude-code", options);
  deepEqual(second.changes.map((c) => c.action), [
    "unchanged",
    "unchanged",
    "unchanged",
  ]);
  equal(await Deno.readTextFile(path), installed);
});

Deno.test("uninstallHarness() takes out only deja's text, byte for byte", async (t) => {
  const claudeJson =
    '{"numStartups":5,"mcpServers":{"linear":{"type":"http"}},"userID":"abc"}\n';
  async function setUp() {
    const { home, options } = await tempHome();
    const settings = `${home}/.claude/settings.json`;
    await Deno.writeTextFile(settings, HAND_SETTINGS);
    await Deno.writeTextFile(`${home}/.claude.json`, claudeJson);
    installHarness("claude-code", options);
    return { home, options, settings };
  }
  await t.step("right after install", async () => {
    const { home, options, settings } = await setUp();
    uninstallHarness("claude-code", options);
    equal(await Deno.readTextFile(settings), HAND_SETTINGS);
    equal(await Deno.readTextFile(`${home}/.claude.json`), claudeJson);
  });
  await t.step("without the install record", async () => {
    const { home, options, settings } = await setUp();
    await Deno.remove(
      `${dejaConfigDir(home, options.env)}/install/claude-code.json`,
    );
    uninstallHarness("claude-code", options);
    equal(await Deno.readTextFile(settings), HAND_SETTINGS);
    equal(await Deno.readTextFile(`${home}/.claude.json`), claudeJson);
  });
  await t.step("after the person changed something else", async () => {
    const { options, settings } = await setUp();
    const edited = (await Deno.readTextFile(settings)).replace(
      '"opus"',
      '"sonnet"',
    );
    await Deno.writeTextFile(settings, edited);
    uninstallHarness("claude-code", options);
    equal(
      await Deno.readTextFile(settings),
      HAND_SETTINGS.replace('"opus"', '"sonnet"'),
    );
  });
});

Deno.test("installHarness() writes a missing or empty config indented by two spaces", async (t) => {
  const cases: Array<[string, string | undefined]> = [
    ["missing", undefined],
    ["empty", ""],
  ];
  for (const [name, content] of cases) {
    await t.step(name, async () => {
      const { home, options } = await tempHome();
      const path = `${home}/.gemini/settings.json`;
      if (content === undefined) await Deno.remove(path);
      else await Deno.writeTextFile(path, content);
      installHarness("gemini", options);
      const after = await Deno.readTextFile(path);
      equal(after, `${JSON.stringify(JSON.parse(after), null, 2)}\n`);
    });
  }
});

Deno.test("installHarness() refuses to replace someone else's deja MCP entry", async () => {
  const { home, options } = await tempHome();
  await Deno.writeTextFile(
    `${home}/.cursor/mcp.json`,
    '{"mcpServers":{"deja":{"command":"/opt/other/deja"}}}\n',
  );
  throws(
    () => installHarness("cursor", options),
    /does not call the deja launcher/,
  );
});

Deno.test("deja install --dry-run prints the diff and writes nothing", async () => {
  const { home } = await tempHome();
  const before = await snapshot(home, "/nothing-skipped");
  const io = captureIo({ env: { HOME: home }, now: NOW });
  equal(
    await run(["install", "gemini", "--dry-run"], io, {
      keepPermissions: true,
    }),
    0,
    io.err(),
  );
  ok(io.out().includes("would update"));
  ok(io.out().includes('+    "deja": {'));
  deepEqual(await snapshot(home, "/nothing-skipped"), before);
});

Deno.test("deja install rejects an unknown harness with usage help", async () => {
  const io = captureIo({ env: { HOME: "/nonexistent" } });
  equal(await run(["install", "notepad"], io, { keepPermissions: true }), 64);
  ok(io.err().includes("deja installs into claude-code"));
});

Deno.test("uninstall after install into a HOME without the agent's folders leaves the HOME as it was", async () => {
  const home = `${await Deno.makeTempDir({ prefix: "deja-install-" })}/home`;
  await Deno.mkdir(home, { recursive: true });
  await Deno.writeTextFile(`${home}/.profile`, "# mine\n");
  const options = {
    home,
    env: { HOME: home },
    self: selfCommand({}),
    now: NOW,
  };
  for (const h of INSTALL_HARNESSES) installHarness(h, options);
  for (const h of INSTALL_HARNESSES) uninstallHarness(h, options);
  const left: string[] = [];
  for await (const e of Deno.readDir(home)) left.push(e.name);
  deepEqual(left, [".profile"]);
});
