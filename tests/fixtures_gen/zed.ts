/**
 * Writes fixtures/zed: a HOME whose `.local/share/zed/threads/threads.db`
 * holds a 0.3.0 thread (zstd), a legacy 0.2.0 thread (plain JSON), a
 * sub-agent thread, and a 0.3.0 thread in the late-2026 shape (tagged tool
 * inputs, list-shaped tool results, two folders with `folder_paths_order`). Run: `deno run -A tests/fixtures_gen/zed.ts`.
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

const SENSORS = "/home/dev/src/sensors";

/** The late-2026 shape: tagged tool inputs and list-shaped result content. */
const tagged = {
  title: "Rename the humidity probe module",
  version: "0.3.0",
  updated_at: "2026-10-04T16:20:00Z",
  messages: [
    {
      User: {
        id: "t1",
        content: [{
          Text: "Rename probe.rs to humidity_probe.rs and fix imports.",
        }],
      },
    },
    {
      Agent: {
        content: [
          { Thinking: { text: "Move first, then build.", signature: null } },
          {
            ToolUse: {
              id: "toolu_mv1",
              name: "move_path",
              raw_input:
                '{"source_path":"sensors/src/probe.rs","destination_path":"sensors/src/humidity_probe.rs"}',
              input: {
                type: "json",
                value: {
                  source_path: "sensors/src/probe.rs",
                  destination_path: "sensors/src/humidity_probe.rs",
                },
              },
              is_input_complete: true,
              thought_signature: null,
            },
          },
          {
            ToolUse: {
              id: "toolu_t2",
              name: "terminal",
              raw_input: '{"command":"cargo build -p sensors","cd":"sensors"}',
              input: {
                type: "json",
                value: { command: "cargo build -p sensors", cd: "sensors" },
              },
              is_input_complete: true,
              thought_signature: null,
            },
          },
        ],
        tool_results: {
          toolu_mv1: {
            tool_use_id: "toolu_mv1",
            tool_name: "move_path",
            is_error: false,
            content: [{
              Text:
                "Moved sensors/src/probe.rs to sensors/src/humidity_probe.rs",
            }],
            output: null,
          },
          toolu_t2: {
            tool_use_id: "toolu_t2",
            tool_name: "terminal",
            is_error: false,
            content: [{
              Text:
                'Command "cargo build -p sensors" failed with exit code 101.\n\n```\nerror[E0583]: file not found for module `probe`\n```',
            }],
            output: null,
          },
        },
        reasoning_details: null,
      },
    },
    {
      Agent: {
        content: [
          { Text: "The build still names `mod probe`; updating lib.rs." },
          {
            ToolUse: {
              id: "toolu_e3",
              name: "streaming_edit_file",
              // A free-form (text) input: the path comes from raw_input.
              raw_input:
                '{"path":"sensors/src/lib.rs","edits":[{"old_text":"mod probe;","new_text":"mod humidity_probe;"}]}',
              input: {
                type: "text",
                value: "mod probe; -> mod humidity_probe;",
              },
              is_input_complete: true,
              thought_signature: null,
            },
          },
        ],
        tool_results: {
          toolu_e3: {
            tool_use_id: "toolu_e3",
            tool_name: "streaming_edit_file",
            is_error: false,
            content: [{ Text: "Edited sensors/src/lib.rs" }],
            output: null,
          },
        },
        reasoning_details: null,
      },
    },
  ],
  detailed_summary: null,
  initial_project_snapshot: null,
  cumulative_token_usage: { input_tokens: 5120, output_tokens: 610 },
  request_token_usage: {},
  model: { provider: "zed.dev", model: "claude-sonnet-4-6" },
  profile: "write",
  subagent_context: null,
  speed: null,
  thinking_enabled: true,
  thinking_effort: null,
  draft_prompt: null,
  ui_scroll_position: null,
  sandboxed_terminal_temp_dir: null,
  sandbox_grants: {
    write_paths: [],
    network_hosts: [],
    network_any_host: false,
    allow_fs_write_all: false,
    unsandboxed: false,
    sandbox_fallback: false,
  },
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
        {
          id: "5d8c1a3e-7f2b-4c6d-9e0a-b1c2d3e4f5a6",
          summary: "Rename the humidity probe module",
          updated_at: "2026-10-04T16:20:00.123456789+00:00",
          data_type: "zstd",
          data: zstd(tagged),
          parent_id: null,
          // Sorted; the person opened sensors first (order "1,0").
          folder_paths: `${ROOT}\n${SENSORS}`,
          folder_paths_order: "1,0",
          created_at: "2026-10-04T16:15:00.000000000+00:00",
        },
      ],
    }],
  );
}

if (import.meta.main) await generate();
