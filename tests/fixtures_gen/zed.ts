/**
 * Writes fixtures/zed: a HOME whose `.local/share/zed/threads/threads.db`
 * holds a 0.3.0 thread (zstd), a legacy 0.2.0 thread (plain JSON) and a
 * sub-agent thread. Run: `deno run -A tests/fixtures_gen/zed.ts`.
 *
 * @module
 */
import { zstdCompressSync } from "node:zlib";
import { writeFixtureDb } from "../../src/sources/_store_test_kit.ts";

const SCHEMA = `
CREATE TABLE threads (id TEXT PRIMARY KEY, summary TEXT NOT NULL, updated_at TEXT NOT NULL, data_type TEXT NOT NULL, data BLOB NOT NULL, parent_id TEXT, folder_paths TEXT, folder_paths_order TEXT, created_at TEXT);
`;

const ROOT = "/home/dev/src/lantern";

const main = {
  title: "Fix flaky lantern render test",
  version: "0.3.0",
  updated_at: "2026-02-10T09:05:00Z",
  messages: [
    {
      User: {
        id: "u1",
        content: [
          { Text: "The render snapshot test fails every other run. " },
          {
            Mention: {
              uri: { File: { abs_path: `${ROOT}/tests/render.rs` } },
              content: "fn render_snapshot() { /* attached file body */ }",
            },
          },
          { Text: "Can you find out why?" },
        ],
      },
    },
    {
      Agent: {
        content: [
          {
            Thinking: {
              text: "Probably ordering of a HashMap.",
              signature: "sig",
            },
          },
          { Text: "I'll run the test a few times first." },
          {
            ToolUse: {
              id: "terminal-1",
              name: "terminal",
              raw_input: "{}",
              input: { command: "cargo test render_snapshot", cd: "lantern" },
              is_input_complete: true,
            },
          },
          {
            ToolUse: {
              id: "read_file-2",
              name: "read_file",
              raw_input: "{}",
              input: { path: "lantern/src/scene.rs" },
              is_input_complete: true,
            },
          },
        ],
        tool_results: {
          "terminal-1": {
            tool_use_id: "terminal-1",
            tool_name: "terminal",
            is_error: false,
            content: {
              Text:
                "Command \"cargo test render_snapshot\" failed with exit code 101.\n\n```\nthread 'render_snapshot' panicked: order differs\n```",
            },
            output: null,
          },
          "read_file-2": {
            tool_use_id: "read_file-2",
            tool_name: "read_file",
            is_error: false,
            content: {
              Text:
                "use std::collections::HashMap;\npub struct Scene { nodes: HashMap<u32, Node> }",
            },
            output: null,
          },
        },
      },
    },
    {
      Agent: {
        content: [
          {
            Text:
              "The scene keeps nodes in a HashMap, so iteration order changes. ",
          },
          { Text: "Switching to a BTreeMap makes it stable." },
          {
            ToolUse: {
              id: "edit_file-3",
              name: "edit_file",
              raw_input: "{}",
              input: {
                path: "lantern/src/scene.rs",
                display_description: "Use BTreeMap for nodes",
                mode: "edit",
                edits: [{
                  old_text: "use std::collections::HashMap;",
                  new_text: "use std::collections::BTreeMap;",
                }],
              },
              is_input_complete: true,
            },
          },
          {
            ToolUse: {
              id: "terminal-4",
              name: "terminal",
              raw_input: "{}",
              input: { command: "cargo test render_snapshot", cd: "lantern" },
              is_input_complete: true,
            },
          },
        ],
        tool_results: {
          "edit_file-3": {
            tool_use_id: "edit_file-3",
            tool_name: "edit_file",
            is_error: true,
            content: {
              Text: "Some edits were not applied: old_text not found",
            },
            output: null,
          },
          "terminal-4": {
            tool_use_id: "terminal-4",
            tool_name: "terminal",
            is_error: false,
            content: { Text: "```\ntest render_snapshot ... ok\n```" },
            output: null,
          },
        },
      },
    },
    "Resume",
    { User: { id: "u2", content: [{ Text: "Great, thanks." }] } },
  ],
  detailed_summary: null,
  initial_project_snapshot: {
    worktree_snapshots: [{ worktree_path: ROOT, git_state: null }],
    unsaved_buffer_paths: [],
  },
  model: { provider: "example", model: "example-1" },
  completion_mode: "normal",
  profile: "write",
  imported: false,
};

const child = {
  title: "Search for other HashMap uses",
  version: "0.3.0",
  updated_at: "2026-02-10T09:03:00Z",
  messages: [
    {
      User: {
        id: "c1",
        content: [{ Text: "List other HashMap uses in lantern/src." }],
      },
    },
    {
      Agent: {
        content: [
          {
            ToolUse: {
              id: "grep-1",
              name: "grep",
              raw_input: "{}",
              input: { regex: "HashMap" },
              is_input_complete: true,
            },
          },
          { Text: "Only scene.rs uses a HashMap." },
        ],
        tool_results: {
          "grep-1": {
            tool_use_id: "grep-1",
            tool_name: "grep",
            is_error: false,
            content: { Text: "lantern/src/scene.rs:1" },
            output: null,
          },
        },
      },
    },
  ],
};

const legacy = {
  version: "0.2.0",
  summary: "Explain the build script",
  updated_at: "2025-06-01T12:00:00Z",
  messages: [
    {
      id: 0,
      role: "system",
      segments: [{ type: "text", text: "You are a helpful assistant." }],
      tool_uses: [],
      tool_results: [],
    },
    {
      id: 1,
      role: "user",
      segments: [{ type: "text", text: "What does build.rs do?" }],
      tool_uses: [],
      tool_results: [],
    },
    {
      id: 2,
      role: "assistant",
      segments: [{
        type: "text",
        text: "It generates the shader bindings at compile time.",
      }],
      tool_uses: [{
        id: "t1",
        name: "read_file",
        input: { path: "lantern/build.rs" },
      }],
      tool_results: [{
        tool_use_id: "t1",
        is_error: false,
        content: "fn main() { generate_bindings(); }",
      }],
    },
  ],
};

function zstd(doc: unknown): Uint8Array {
  return new Uint8Array(
    zstdCompressSync(new TextEncoder().encode(JSON.stringify(doc))),
  );
}

/** Writes the fixture files. */
export async function generate(): Promise<void> {
  await writeFixtureDb(
    new URL(
      "../../fixtures/zed/.local/share/zed/threads/threads.db",
      import.meta.url,
    ).pathname,
    SCHEMA,
    [{
      table: "threads",
      rows: [
        {
          id: "7e1f0c52-9a2b-4d1e-8c3f-0a5b6c7d8e90",
          summary: "Fix flaky lantern render test",
          updated_at: "2026-02-10T09:05:00.000000000+00:00",
          data_type: "zstd",
          data: zstd(main),
          parent_id: null,
          folder_paths: `${ROOT}\n`,
          folder_paths_order: "0",
          created_at: "2026-02-10T09:00:00.000000000+00:00",
        },
        {
          id: "0b3e9d14-5f6a-4c7b-9d8e-1f2a3b4c5d6e",
          summary: "Search for other HashMap uses",
          updated_at: "2026-02-10T09:03:00.000000000+00:00",
          data_type: "zstd",
          data: zstd(child),
          parent_id: "7e1f0c52-9a2b-4d1e-8c3f-0a5b6c7d8e90",
          folder_paths: `${ROOT}\n`,
          folder_paths_order: "0",
          created_at: "2026-02-10T09:02:00.000000000+00:00",
        },
        {
          id: "a4c2e6f8-1b3d-4e5f-8a9b-0c1d2e3f4a5b",
          summary: "Explain the build script",
          updated_at: "2025-06-01T12:00:00+00:00",
          data_type: "json",
          data: new TextEncoder().encode(JSON.stringify(legacy)),
          parent_id: null,
          folder_paths: null,
          folder_paths_order: null,
          created_at: null,
        },
      ],
    }],
  );
}

if (import.meta.main) await generate();
