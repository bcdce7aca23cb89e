import { deepEqual, equal, ok, rejects } from "node:assert/strict";
import { join } from "node:path";
import { zstdCompressSync } from "node:zlib";
import { DejaError } from "../core/errors.ts";
import { parseZedThreads, zed } from "./zed.ts";
import {
  copyFile,
  linuxHome,
  parseHome,
  roleCounts,
  total,
  writeFixtureDb,
} from "./_store_test_kit.ts";
import { hasSamples, SAMPLES } from "./_test_kit.ts";

const FIXTURE = new URL("../../fixtures/zed", import.meta.url).pathname;
const SOURCE = linuxHome("/nonexistent");
const SCHEMA =
  "CREATE TABLE threads (id TEXT PRIMARY KEY, summary TEXT NOT NULL, updated_at TEXT NOT NULL, data_type TEXT NOT NULL, data BLOB NOT NULL);";

function zstd(text: string): Uint8Array {
  return new Uint8Array(zstdCompressSync(new TextEncoder().encode(text)));
}

async function threadsDb(
  rows: Array<Record<string, string | Uint8Array | null>>,
): Promise<string> {
  const path = join(await Deno.makeTempDir(), "threads.db");
  await writeFixtureDb(path, SCHEMA, [{ table: "threads", rows }]);
  return path;
}

Deno.test("zed parses the fixture threads (0.3.0, legacy 0.2.0, sub-agent, tagged inputs)", async () => {
  const { files, sessions: all, skipped } = await parseHome(
    zed,
    linuxHome(FIXTURE),
  );
  // threads.db and four text threads (one in the early-2024 config folder).
  equal(files.length, 5);
  equal(skipped, 0);
  const sessions = all.filter((s) => s.path.endsWith("threads.db"));
  equal(sessions.length, 4);
  const main = sessions.find((s) =>
    s.title === "Fix flaky lantern render test"
  );
  ok(main);
  deepEqual(roleCounts(main), {
    user: 2,
    assistant: 2,
    command: 2,
    "tool-output": 4,
    files: 2,
    edit: 1,
  });
  equal(main.project, "lantern");
  equal(main.cwd, "/home/dev/src/lantern");
  equal(
    main.records[0]?.text,
    "The render snapshot test fails every other run. @render.rs Can you find out why?",
    "mentioned file bodies are not speech; the mention stays where it was typed",
  );
  ok(
    !main.records.some((r) => r.text.includes("Probably ordering")),
    "thinking is dropped",
  );
  deepEqual(
    main.records.filter((r) => r.role === "command").map((r) => r.exitCode),
    [101, 0],
  );
  equal(
    main.records.find((r) => r.role === "edit")?.text,
    "lantern/src/scene.rs\nuse std::collections::HashMap;",
  );
  equal(main.records.filter((r) => r.flags?.isError).length, 1);
  equal(main.started, Date.parse("2026-02-10T09:00:00Z"));
  ok(
    main.records.every((r) => r.time === main.started),
    "no per-message times: all get the thread start",
  );

  const child = sessions.find((s) => s.parent === main.id);
  equal(child?.lineage, "subagent");
  ok(child?.records.every((r) => r.flags?.subagent));

  const legacy = sessions.find((s) => s.title === "Explain the build script");
  deepEqual(legacy && roleCounts(legacy), {
    user: 1,
    assistant: 1,
    files: 1,
    "tool-output": 1,
  });
  ok(
    !legacy?.records.some((r) => r.text.includes("helpful assistant")),
    "system messages are dropped",
  );
});

Deno.test("zed reads tagged tool inputs, list-shaped results and the first-opened folder", async () => {
  const { sessions } = await parseHome(zed, linuxHome(FIXTURE));
  const s = sessions.find((x) =>
    x.title === "Rename the humidity probe module"
  );
  ok(s);
  equal(
    s.cwd,
    "/home/dev/src/sensors",
    "folder_paths_order puts sensors first",
  );
  deepEqual(s.records.map((r) => [r.role, r.text, r.exitCode]), [
    [
      "user",
      "Rename probe.rs to humidity_probe.rs and fix imports.",
      undefined,
    ],
    ["files", "sensors/src/probe.rs", undefined],
    ["files", "sensors/src/humidity_probe.rs", undefined],
    [
      "tool-output",
      "Moved sensors/src/probe.rs to sensors/src/humidity_probe.rs",
      undefined,
    ],
    ["command", "cargo build -p sensors", 101],
    [
      "tool-output",
      'Command "cargo build -p sensors" failed with exit code 101.\n\n```\nerror[E0583]: file not found for module `probe`\n```',
      undefined,
    ],
    [
      "assistant",
      "The build still names `mod probe`; updating lib.rs.",
      undefined,
    ],
    ["files", "sensors/src/lib.rs", undefined],
    ["edit", "sensors/src/lib.rs\nmod probe;", undefined],
    ["tool-output", "Edited sensors/src/lib.rs", undefined],
  ]);
});

Deno.test("zed survives hostile tagged tool inputs and folder orders", async () => {
  const doc = JSON.stringify({
    version: "0.3.0",
    messages: [{
      Agent: {
        content: [
          { ToolUse: { name: "terminal", input: { type: "json", value: 5 } } },
          {
            ToolUse: {
              name: "terminal",
              input: { type: "text", value: ["x"] },
              raw_input: "{not json",
            },
          },
          {
            ToolUse: {
              name: "read_file",
              input: { type: "yaml", value: { path: "p" } },
            },
          },
          {
            ToolUse: {
              name: "read_file",
              input: { type: "json", value: { path: "kept.rs" } },
              raw_input: '{"path":"ignored.rs"}',
            },
          },
          { Text: "done" },
        ],
        tool_results: { x: { content: [{ Text: 5 }, null, "plain"] } },
      },
    }],
  });
  const rows = [
    ["a", "/b\n/a", "9,x"],
    ["b", "/b\n/a", "0"],
    ["c", "", "0,1"],
    ["d", "/only", "__proto__"],
  ].map(([id, folders, order]) => ({
    id: id as string,
    summary: "s",
    updated_at: "2026-10-01T00:00:00Z",
    data_type: "json",
    data: doc,
    parent_id: null,
    folder_paths: folders as string,
    folder_paths_order: order as string,
    created_at: null,
  }));
  const path = join(await Deno.makeTempDir(), "threads.db");
  await writeFixtureDb(
    path,
    "CREATE TABLE threads (id TEXT PRIMARY KEY, summary TEXT NOT NULL, updated_at TEXT NOT NULL, data_type TEXT NOT NULL, data BLOB NOT NULL, parent_id TEXT, folder_paths TEXT, folder_paths_order TEXT, created_at TEXT);",
    [{ table: "threads", rows }],
  );
  const { sessions } = await parseZedThreads(path, {
    includeSubagents: true,
    source: SOURCE,
  });
  deepEqual(sessions.map((s) => s.cwd), ["/b", "/b", undefined, "/only"]);
  deepEqual(
    sessions[0]?.records.map((r) => [r.role, r.text]),
    [["files", "kept.rs"], ["assistant", "done"]],
  );
});

Deno.test("zed leaves sub-agent threads out when asked to", async () => {
  const { sessions } = await parseHome(zed, linuxHome(FIXTURE), false);
  equal(sessions.length, 7);
  ok(sessions.every((s) => s.parent === undefined));
});

Deno.test("zed roots follow the OS and the environment", async (t) => {
  // The data root, then where text threads live outside it: the config
  // folder on macOS, and the early-2024 `~/.config/zed/conversations`.
  const early = "/h/.config/zed/conversations";
  const cases: Array<[string, Record<string, string>, string[]]> = [
    ["linux", {}, ["/h/.local/share/zed", early]],
    ["linux", { XDG_DATA_HOME: "/x" }, ["/x/zed", early]],
    ["linux", { XDG_DATA_HOME: "/x", FLATPAK_XDG_DATA_HOME: "/f" }, [
      "/f/zed",
      early,
    ]],
    ["darwin", {}, ["/h/Library/Application Support/Zed", early]],
    [
      "windows",
      { LOCALAPPDATA: "C:/Users/h/AppData/Local" },
      ["C:/Users/h/AppData/Local/Zed"],
    ],
    ["linux", { DEJA_ZED_ROOT: "/r" }, ["/r"]],
  ];
  for (const [os, env, roots] of cases) {
    await t.step(`${os} ${JSON.stringify(env)}`, () => {
      deepEqual(zed.roots({ home: "/h", env, os }), roots);
    });
  }
});

Deno.test("zed names an unknown schema", async (t) => {
  await t.step("no threads table", async () => {
    const path = join(await Deno.makeTempDir(), "threads.db");
    await writeFixtureDb(path, "CREATE TABLE other (x);", []);
    await rejects(
      parseZedThreads(path, { includeSubagents: true, source: SOURCE }),
      (e: unknown) =>
        e instanceof DejaError && e.code === "SRC-E002" &&
        /Unknown Zed schema in ".*threads\.db": missing table "threads"/.test(
          e.message,
        ),
    );
  });
  await t.step("threads without data", async () => {
    const path = join(await Deno.makeTempDir(), "threads.db");
    await writeFixtureDb(
      path,
      "CREATE TABLE threads (id TEXT, summary TEXT, updated_at TEXT);",
      [],
    );
    await rejects(
      parseZedThreads(path, { includeSubagents: true, source: SOURCE }),
      /missing column "data_type" in table "threads"/,
    );
  });
  await t.step("garbage bytes", async () => {
    const path = join(await Deno.makeTempDir(), "threads.db");
    await Deno.writeFile(path, new Uint8Array(4096).fill(0x5a));
    await rejects(
      parseZedThreads(path, { includeSubagents: true, source: SOURCE }),
      (e: unknown) => e instanceof DejaError && e.code === "SRC-E001",
    );
  });
});

Deno.test("zed skips undecodable documents and survives hostile ones", async () => {
  const good = JSON.stringify({
    version: "0.3.0",
    messages: [
      { User: { content: [{ Text: "hello" }] } },
      { Agent: { content: [{ Text: "x".repeat(100_000) }] } },
    ],
  });
  const truncated = zstd(good).subarray(0, 20);
  const deep = "[".repeat(100_000) + "]".repeat(100_000);
  const path = await threadsDb([
    {
      id: "ok",
      summary: "s",
      updated_at: "2026-01-01T00:00:00Z",
      data_type: "zstd",
      data: zstd(good),
    },
    {
      id: "torn",
      summary: "s",
      updated_at: "2026-01-01T00:00:00Z",
      data_type: "zstd",
      data: truncated,
    },
    {
      id: "garbage",
      summary: "s",
      updated_at: "x",
      data_type: "zstd",
      data: crypto.getRandomValues(new Uint8Array(64)),
    },
    {
      id: "weird-type",
      summary: "s",
      updated_at: "x",
      data_type: "bson",
      data: "{}",
    },
    {
      id: "deep",
      summary: "s",
      updated_at: "x",
      data_type: "json",
      data: deep,
    },
    {
      id: "types",
      summary: "s",
      updated_at: "x",
      data_type: "json",
      data: JSON.stringify({
        messages: [5, null, { User: 3 }, {
          Agent: { content: "no", tool_results: [] },
        }, {
          Agent: {
            content: [{ ToolUse: { name: "terminal", input: "{bad" } }, {
              Text: 7,
            }],
          },
        }],
      }),
    },
  ]);
  const { sessions, skipped } = await parseZedThreads(path, {
    includeSubagents: true,
    source: SOURCE,
  });
  deepEqual(sessions.map((s) => s.id), ["ok"]);
  ok(skipped >= 5);
  equal(
    sessions[0]?.records[1]?.flags?.truncated,
    true,
    "an oversized part is cut and flagged",
  );
});

Deno.test("zed parses the real sample store", {
  ignore: !hasSamples("zed"),
}, async () => {
  const copy = await copyFile(
    join(SAMPLES, "zed/atlasata-dotfiles/threads/threads.db"),
  );
  const { sessions, skipped } = await parseZedThreads(copy, {
    includeSubagents: true,
    source: SOURCE,
  });
  equal(skipped, 0);
  // One thread: one user message, six agent messages that only call tools
  // (two list_directory, three read_file, one grep), one result an error.
  equal(sessions.length, 1);
  equal(total(sessions, "user"), 1);
  equal(total(sessions, "assistant"), 0);
  equal(total(sessions, "tool-output"), 6);
  equal(total(sessions, "files"), 3);
  // The grep call's regex and include_pattern, before its output.
  equal(total(sessions, "command"), 1);
  const grep = sessions[0]?.records.findIndex((r) => r.tool === "grep");
  equal(
    sessions[0]?.records[grep ?? -1]?.text,
    "grep mongoose --glob theatlas/src/**/*.ts",
  );
  equal(sessions[0]?.records[(grep ?? -1) + 1]?.role, "tool-output");
  equal(sessions[0]?.records.filter((r) => r.flags?.isError).length, 1);
  equal(sessions[0]?.title, "Mongoose to Supabase Database Migration");
  equal(sessions[0]?.project, "theatlas");
});

Deno.test("zed keeps mentions where they were typed and reads the thread's detailed summary", async () => {
  const current = {
    version: "0.3.0",
    title: "Kiln timer drift",
    updated_at: "2026-10-02T08:00:00Z",
    detailed_summary:
      "The kiln timer drifted because ticks were counted in f32.",
    messages: [
      {
        User: {
          id: "u1",
          content: [
            { Text: "compare " },
            {
              Mention: {
                uri: { File: { abs_path: "/home/dev/kiln/src/timer.rs" } },
                content: "pub struct Timer;",
              },
            },
            { Text: " with " },
            {
              Mention: {
                uri: {
                  Symbol: {
                    abs_path: "/home/dev/kiln/src/clock.rs",
                    name: "Clock::tick",
                    line_range: { start: 9, end: 20 },
                  },
                },
                content: "fn tick() {}",
              },
            },
            { Text: ", see " },
            {
              Mention: {
                uri: { Fetch: { url: "https://example.org/drift" } },
                content: "",
              },
            },
            { Text: " and " },
            {
              Mention: {
                uri: {
                  Selection: {
                    abs_path: "/home/dev/kiln/src/main.rs",
                    line_range: { start: 0, end: 4 },
                  },
                },
                content: "fn main() {}",
              },
            },
            { Mention: { uri: { Diagnostics: {} }, content: "" } },
            { Mention: { uri: 7, content: "odd" } },
          ],
        },
      },
      { Agent: { content: [{ Text: "The tick is an f32." }] } },
    ],
  };
  const legacy = {
    version: "0.2.0",
    summary: "Glaze notes",
    updated_at: "2025-04-02T08:00:00Z",
    detailed_summary_state: {
      Generated: { text: "Glaze notes were merged.", message_id: 1 },
    },
    messages: [{
      id: 0,
      role: "user",
      segments: [{ type: "text", text: "merge the glaze notes" }],
    }],
  };
  const path = await threadsDb([
    {
      id: "t1",
      summary: "Kiln timer drift",
      updated_at: "2026-10-02T08:00:00Z",
      data_type: "zstd",
      data: zstd(JSON.stringify(current)),
    },
    {
      id: "t2",
      summary: "Glaze notes",
      updated_at: "2025-04-02T08:00:00Z",
      data_type: "json",
      data: JSON.stringify(legacy),
    },
  ]);
  const { sessions, skipped } = await parseZedThreads(path, {
    includeSubagents: true,
    source: SOURCE,
  });
  equal(skipped, 0);
  deepEqual(
    sessions.find((s) => s.id === "t1")?.records.map((r) => [r.role, r.text]),
    [
      [
        "user",
        "compare @timer.rs with @Clock::tick, see @https://example.org/drift and @main.rs:1-5 @Diagnostics",
      ],
      ["assistant", "The tick is an f32."],
      ["summary", "The kiln timer drifted because ticks were counted in f32."],
    ],
  );
  deepEqual(
    sessions.find((s) => s.id === "t2")?.records.map((r) => [r.role, r.text]),
    [
      ["user", "merge the glaze notes"],
      ["summary", "Glaze notes were merged."],
    ],
  );
});

const CONVERSATIONS = join(FIXTURE, ".local/share/zed/conversations");

Deno.test("zed reads text threads: speech by byte offset, slash output as tool-output, every saved version", async () => {
  const { sessions } = await parseHome(zed, linuxHome(FIXTURE));
  const byTitle = (title: string) => sessions.find((s) => s.title === title);

  // 0.4.0: system prompt, /file output, reasoning, a folder with nested
  // sections, an errored reply; the text holds multi-byte characters before
  // later offsets, which are UTF-8 byte offsets.
  const tiles = byTitle("Speed up the tile cache");
  ok(tiles);
  equal(tiles.id, "6f1c2d3e-0a4b-4c5d-8e9f-101112131415");
  equal(tiles.cwd, undefined, "a text thread names no project");
  deepEqual(
    tiles.records.map((r) => [r.role, r.tool ?? "", r.text]),
    [
      [
        "user",
        "",
        "Café tiles ☕ load slowly here:\nWhy does evict drop every entry?",
      ],
      ["files", "slash-command", "tilecache/src/cache.rs"],
      [
        "tool-output",
        "slash-command",
        "```rust tilecache/src/cache.rs\nfn evict(&mut self) { self.entries.clear(); }\n```",
      ],
      [
        "assistant",
        "",
        "The evict method clears the whole map instead of popping the least recently used tile.",
      ],
      ["user", "", "Here is the module; suggest a fix."],
      ["files", "slash-command", "tilecache/src"],
      ["files", "slash-command", "tilecache/src/lru.rs"],
      ["files", "slash-command", "tilecache/src/map.rs"],
      [
        "tool-output",
        "slash-command",
        "tilecache/src\ntilecache/src/lru.rs\npub struct Lru;\ntilecache/src/map.rs\npub struct Map;",
      ],
      ["assistant", "", "Partial answer before the limit hit"],
    ],
  );
  ok(!tiles.records.some((r) => r.text.includes("careful Rust reviewer")));
  ok(!tiles.records.some((r) => r.text.includes("culprit")), "no reasoning");
  equal(tiles.records.at(-1)?.flags?.isError, true);
  equal(tiles.records.filter((r) => r.flags?.isError).length, 1);

  // 0.3.0: metadata beside the messages, keyed by numeric id.
  const rename = byTitle("Rename the config loader");
  deepEqual(rename && roleCounts(rename), {
    user: 1,
    "tool-output": 1,
    assistant: 1,
  });
  equal(
    rename?.records[0]?.text,
    "Rename load_config to read_settings everywhere.",
  );

  // 0.1.0: no id, an empty summary (the file name titles it), and a message
  // without metadata, whose text stays with the message before it.
  const pin = byTitle("Pin a crate version");
  equal(pin?.id, "Pin a crate version - 1");
  deepEqual(pin?.records.map((r) => r.role), ["user", "assistant"]);
  equal(
    pin?.records[1]?.text,
    'Write serde = "=1.0.200" to pin it exactly.\nA caret requirement would allow newer patches.',
  );

  // 0.2.0 in the early-2024 folder ~/.config/zed/conversations.
  const borrow = byTitle("Borrow error in parse_header");
  ok(borrow?.path.includes("/.config/zed/conversations/"));
  equal(borrow?.records.length, 2);
});

Deno.test("zed text threads take the file's mtime: their timestamps are Lamport clocks", async () => {
  const home = await Deno.makeTempDir();
  const dir = join(home, ".local/share/zed/conversations");
  await Deno.mkdir(dir, { recursive: true });
  const path = join(dir, "Speed up the tile cache - 1.zed.json");
  await Deno.copyFile(
    join(CONVERSATIONS, "Speed up the tile cache - 1.zed.json"),
    path,
  );
  const when = new Date("2025-03-04T05:06:07Z");
  await Deno.utime(path, when, when);
  const { sessions } = await parseHome(zed, linuxHome(home));
  equal(sessions.length, 1);
  equal(sessions[0]?.started, when.getTime());
  equal(sessions[0]?.updated, when.getTime());
  ok(sessions[0]?.records.every((r) => r.time === undefined));
});

Deno.test("zed finds text threads per OS and under DEJA_ZED_ROOT, and nothing else", async (t) => {
  const write = async (dir: string, name: string) => {
    await Deno.mkdir(dir, { recursive: true });
    await Deno.copyFile(
      join(CONVERSATIONS, "Rename the config loader - 2.zed.json"),
      join(dir, name),
    );
  };
  await t.step("macOS: the config folder", async () => {
    const home = await Deno.makeTempDir();
    await write(join(home, ".config/zed/conversations"), "A - 1.zed.json");
    await write(join(home, ".config/zed/conversations"), "notes.json");
    await write(join(home, ".config/zed/prompts"), "B - 1.zed.json");
    const files = await zed.discover({ home, env: {}, os: "darwin" });
    deepEqual(files, [join(home, ".config/zed/conversations/A - 1.zed.json")]);
  });
  await t.step("Windows: %LOCALAPPDATA%\\Zed\\conversations", async () => {
    const home = await Deno.makeTempDir();
    const local = join(home, "AppData/Local");
    await write(join(local, "Zed/conversations"), "A - 1.zed.json");
    await write(join(home, ".config/zed/conversations"), "B - 1.zed.json");
    const files = await zed.discover({
      home,
      env: { LOCALAPPDATA: local },
      os: "windows",
    });
    deepEqual(files, [join(local, "Zed/conversations/A - 1.zed.json")]);
  });
  await t.step("DEJA_ZED_ROOT replaces every folder", async () => {
    const home = await Deno.makeTempDir();
    const root = join(home, "r");
    await write(join(root, "conversations"), "A - 1.zed.json");
    await write(join(home, ".config/zed/conversations"), "B - 1.zed.json");
    const files = await zed.discover({
      home,
      env: { DEJA_ZED_ROOT: root },
      os: "linux",
    });
    deepEqual(files, [join(root, "conversations/A - 1.zed.json")]);
  });
});

Deno.test("zed survives corrupt and odd text threads", async (t) => {
  const dir = await Deno.makeTempDir();
  const parse = async (name: string, body: string) => {
    const path = join(dir, name);
    await Deno.writeTextFile(path, body);
    return await zed.kinds.find((k) => k.match(path))!.parse(path, {
      includeSubagents: true,
      source: SOURCE,
    });
  };
  await t.step(
    "cut short or not a text thread: one skip, no throw",
    async () => {
      for (
        const body of ['{"text": "hi", "messages": [', "[]", '{"text": 3}']
      ) {
        const result = await parse("Broken - 1.zed.json", body);
        deepEqual(result, { sessions: [], skipped: 1 });
      }
    },
  );
  await t.step("odd messages and sections cost only themselves", async () => {
    const text = "é first question\nthe answer\n";
    const result = await parse(
      "Odd - 1.zed.json",
      JSON.stringify({
        version: "9.9.9",
        text,
        summary: 42,
        messages: [
          "junk",
          { start: -1, metadata: { role: "user" } },
          { id: { value: 0 }, start: 0, metadata: { role: "user" } },
          // Inside "é": both halves still decode (as U+FFFD).
          { start: 1, metadata: { role: "user" } },
          { start: 18, metadata: { role: "assistant", status: { Error: 7 } } },
          { start: 999, metadata: { role: "assistant" } },
          { start: 5, metadata: null },
        ],
        slash_command_output_sections: [
          null,
          { range: { start: 20, end: 2 } },
          { range: "x" },
          { range: { start: 22, end: 5000 }, metadata: { path: 3 } },
        ],
        thought_process_output_sections: { range: { start: 0, end: 3 } },
      }),
    );
    equal(result.skipped, 0);
    const records = result.sessions[0]?.records ?? [];
    equal(result.sessions[0]?.title, "Odd");
    deepEqual(records.map((r) => r.role), [
      "user",
      "user",
      "assistant",
      "tool-output",
    ]);
    equal(records[1]?.text, "\uFFFD first question");
    equal(records[2]?.text, "the");
    equal(records[2]?.flags?.isError, true);
    equal(records[3]?.text, "answer");
  });
});

Deno.test("zed keeps the file a write_file call created or overwrote", async () => {
  const doc = JSON.stringify({
    version: "0.3.0",
    title: "Heron README",
    updated_at: "2026-11-02T08:00:00Z",
    messages: [
      { User: { id: "u1", content: [{ Text: "write a README for heron" }] } },
      {
        Agent: {
          content: [{
            ToolUse: {
              id: "t1",
              name: "write_file",
              input: {
                type: "json",
                value: { path: "heron/README.md", content: "# Heron\n" },
              },
              is_input_complete: true,
            },
          }],
          tool_results: {
            t1: {
              tool_use_id: "t1",
              tool_name: "write_file",
              is_error: false,
              content: [{ Text: "Wrote heron/README.md" }],
            },
          },
        },
      },
    ],
  });
  const path = await threadsDb([{
    id: "w1",
    summary: "Heron README",
    updated_at: "2026-11-02T08:00:00Z",
    data_type: "zstd",
    data: zstd(doc),
  }]);
  const { sessions } = await parseZedThreads(path, {
    includeSubagents: true,
    source: SOURCE,
  });
  deepEqual(sessions[0]?.records.map((r) => [r.role, r.tool, r.text]), [
    ["user", undefined, "write a README for heron"],
    ["files", "write_file", "heron/README.md"],
    ["tool-output", "write_file", "Wrote heron/README.md"],
  ]);
});

Deno.test("zed keeps what a grep call searched for as a command before its output", async () => {
  const use = (id: string, name: string, value: unknown) => ({
    ToolUse: {
      id,
      name,
      input: { type: "json", value },
      is_input_complete: true,
    },
  });
  const done = (id: string, name: string, text: string) => ({
    tool_use_id: id,
    tool_name: name,
    is_error: false,
    content: [{ Text: text }],
  });
  const doc = JSON.stringify({
    version: "0.3.0",
    title: "Plover store",
    updated_at: "2026-11-03T08:00:00Z",
    messages: [
      { User: { id: "u1", content: [{ Text: "where is mongoose used?" }] } },
      {
        Agent: {
          content: [
            use("t1", "grep", {
              regex: "mongoose\\.model",
              include_pattern: "plover/src/**/*.ts",
              offset: 0,
              case_sensitive: false,
            }),
            use("t2", "grep", { include_pattern: "plover/**" }),
            use("t3", "find_path", { glob: "plover/**/*.ts" }),
          ],
          tool_results: {
            t1: done("t1", "grep", "Found 2 matches"),
            t2: done("t2", "grep", "No matches found"),
            t3: done("t3", "find_path", "plover/src/db.ts"),
          },
        },
      },
    ],
  });
  const path = await threadsDb([{
    id: "g1",
    summary: "Plover store",
    updated_at: "2026-11-03T08:00:00Z",
    data_type: "zstd",
    data: zstd(doc),
  }]);
  const { sessions } = await parseZedThreads(path, {
    includeSubagents: true,
    source: SOURCE,
  });
  deepEqual(
    sessions[0]?.records.map((r) => [r.role, r.tool, r.text, r.exitCode]),
    [
      ["user", undefined, "where is mongoose used?", undefined],
      [
        "command",
        "grep",
        "grep mongoose\\.model --glob plover/src/**/*.ts",
        undefined,
      ],
      ["tool-output", "grep", "Found 2 matches", undefined],
      // A call without a regex, and find_path's glob, name no search.
      ["tool-output", "grep", "No matches found", undefined],
      ["tool-output", "find_path", "plover/src/db.ts", undefined],
    ],
  );
});
