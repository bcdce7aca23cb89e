import { deepEqual, equal, ok, rejects } from "node:assert/strict";
import type { ParseOptions, ParseResult, SourceEnv } from "../core/harness.ts";
import { isSuperseded, type Session } from "../core/types.ts";
import { kiro, parseKiroLog } from "./kiro.ts";
import { parseKiroCliDb } from "./_kiro_db.ts";
import { parseKiroIdeSession } from "./_kiro_ide.ts";
import { copyFile, writeFixtureDb } from "./_store_test_kit.ts";
import { SCHEMA } from "../../tests/fixtures_gen/kiro.ts";
import { jsonLines, resumeOptions, tempFileAt } from "./_test_kit.ts";

const HOME = new URL("../../fixtures/kiro", import.meta.url).pathname;
const FIXTURE =
  `${HOME}/.kiro/sessions/cli/4b2e8f61-0c7d-4a95-b3e2-9d1f6a0c5e87.jsonl`;

const source: SourceEnv = { home: HOME, env: {}, os: "linux" };

function parse(
  path: string,
  extra: Partial<ParseOptions> = {},
): Promise<ParseResult> {
  return parseKiroLog(path, { includeSubagents: true, source, ...extra });
}

function logFile(text: string): Promise<string> {
  return tempFileAt("cli/s1.jsonl", text);
}

function line(kind: string, content: unknown, extra = {}): unknown {
  return { version: "v1", kind, data: { message_id: kind, content, ...extra } };
}

Deno.test("kiro.roots() honours DEJA_KIRO_ROOT, then KIRO_HOME, then HOME", async (t) => {
  for (
    const [env, want] of [
      [{}, "/h/.kiro/sessions/cli"],
      [{ KIRO_HOME: "/k" }, "/k/sessions/cli"],
      [{ DEJA_KIRO_ROOT: "/s", KIRO_HOME: "/k" }, "/s"],
    ] as const
  ) {
    await t.step(JSON.stringify(env), () => {
      equal(kiro.roots({ home: "/h", env, os: "linux" })[0], want);
    });
  }
});

Deno.test("kiro.roots() names the 1.0 session logs under KIRO_HOME, or DEJA_KIRO_SESSIONS_ROOT", async (t) => {
  for (
    const [env, want] of [
      [{}, "/h/.kiro/sessions"],
      [{ KIRO_HOME: "/k" }, "/k/sessions"],
      [{ DEJA_KIRO_SESSIONS_ROOT: "/v", KIRO_HOME: "/k" }, "/v"],
    ] as const
  ) {
    await t.step(JSON.stringify(env), () => {
      equal(kiro.roots({ home: "/h", env, os: "linux" })[1], want);
    });
  }
});

Deno.test("kiro.roots() names the 1.x store and the IDE sessions on each OS", async (t) => {
  const ide = "Kiro/User/globalStorage/kiro.kiroagent/workspace-sessions";
  for (
    const [os, env, want] of [
      ["linux", {}, [
        "/h/.local/share/kiro-cli/data.sqlite3",
        `/h/.config/${ide}`,
      ]],
      ["linux", { XDG_DATA_HOME: "/d", XDG_CONFIG_HOME: "/c" }, [
        "/d/kiro-cli/data.sqlite3",
        `/c/${ide}`,
      ]],
      ["darwin", {}, [
        "/h/Library/Application Support/kiro-cli/data.sqlite3",
        `/h/Library/Application Support/${ide}`,
      ]],
      ["windows", { LOCALAPPDATA: "/l", APPDATA: "/r" }, [
        "/l/kiro-cli/data.sqlite3",
        `/r/${ide}`,
      ]],
      ["linux", { DEJA_KIRO_DB: "/x.db", DEJA_KIRO_IDE_ROOT: "/ide" }, [
        "/x.db",
        "/ide",
      ]],
    ] as const
  ) {
    await t.step(`${os} ${JSON.stringify(env)}`, () => {
      deepEqual(kiro.roots({ home: "/h", env, os }).slice(2), [...want]);
    });
  }
});

const DB = `${HOME}/.local/share/kiro-cli/data.sqlite3`;
const IDE_DIR =
  `${HOME}/.config/Kiro/User/globalStorage/kiro.kiroagent/workspace-sessions/L2hvbWUvZGV2L2NvZGUvdGlkZXBvb2w`;
const IDE = `${IDE_DIR}/d2b7c9e1-58a4-4f0e-9c3b-6e1a7f2d4c85.json`;
const MESSAGES =
  `${HOME}/.kiro/sessions/072933c72e09bbbd/sess_5f0a9c2e-7d41-4b8e-a3c6-1e9d0b7f2a64/messages.jsonl`;

Deno.test("kiro.discover() finds the 2.x log, the 1.0 session log, the 1.x store and IDE sessions, not metadata or indexes", async () => {
  deepEqual(await kiro.discover(source), [FIXTURE, MESSAGES, DB, IDE]);
  deepEqual(
    [FIXTURE, MESSAGES, DB, IDE].map((p) =>
      kiro.kinds.find((k) => k.match(p))?.id
    ),
    ["cli-log", "session-log", "cli-db", "ide-session"],
  );
});

/** Parses a file with the kind the harness picks for it, as the index does. */
function parseAsIndexed(
  path: string,
  extra: Partial<ParseOptions> = {},
): Promise<ParseResult> {
  const kind = kiro.kinds.find((k) => k.match(path));
  if (!kind) throw new Error(`No kind matches "${path}"`);
  return kind.parse(path, { includeSubagents: true, source, ...extra });
}

Deno.test("kiro reads a 1.0 session log (messages.jsonl): prompts, replies, tool calls and results, with session.json's title and workspace", async () => {
  const result = await parseAsIndexed(MESSAGES);
  equal(result.skipped, 0);
  const s = result.sessions[0] as Session;
  deepEqual([s.id, s.project, s.cwd, s.title, s.started, s.updated], [
    "sess_5f0a9c2e-7d41-4b8e-a3c6-1e9d0b7f2a64",
    "harborview",
    "/home/dev/code/harborview",
    "Retry flaky bucket uploads",
    Date.parse("2026-07-02T08:00:00.000Z"),
    Date.parse("2026-07-02T08:06:30.500Z"),
  ]);
  deepEqual(
    s.records.map((r) => [r.role, r.tool, r.exitCode, r.flags?.isError]),
    [
      ["user", undefined, undefined, undefined],
      ["assistant", undefined, undefined, undefined],
      ["files", "readFile", undefined, undefined],
      ["tool-output", "readFile", undefined, undefined],
      ["command", "execute_bash", undefined, undefined],
      ["tool-output", "execute_bash", undefined, true],
      ["files", "str_replace", undefined, undefined],
      ["edit", "str_replace", undefined, undefined],
      ["tool-output", "str_replace", undefined, undefined],
      ["command", "execute_bash", undefined, undefined],
      ["tool-output", "execute_bash", undefined, true],
      ["assistant", undefined, undefined, undefined],
    ],
  );
  equal(s.records[0]?.locator.recordId, "k-03");
  equal(s.records[0]?.time, Date.parse("2026-07-02T08:00:02.000Z"));
  equal(
    s.records[3]?.text,
    "export async function upload(key, body) {\n  await put(key, body);\n}",
  );
  equal(s.records[4]?.text, "npm test -- upload");
  equal(
    s.records[7]?.text,
    "/home/dev/code/harborview/src/upload.ts\n  await put(key, body);",
  );
  equal(s.records[8]?.text, "Replaced 1 occurrence");
  equal(s.records[10]?.text, "(denied by the user)");
  ok(!s.records.some((r) => /system prompt|steering/.test(r.text)));
});

Deno.test("kiro reads a 1.0 session log without session.json, and survives hostile lines", async (t) => {
  const cases: Array<[string, string, number]> = [
    [
      "plain",
      jsonLines([
        { id: "a", payload: { type: "user", content: "hello" } },
      ]),
      1,
    ],
    ["garbage bytes", "\u0000\u00ff\ufffd\n\u202e\n", 0],
    [
      "wrong types",
      jsonLines([
        { id: 1, payload: "user" },
        { payload: { type: 4 } },
        { payload: { type: "user", content: [null, { text: 5 }] } },
        { payload: { type: "tool_call", toolName: 3, args: "{bad" } },
        { payload: { type: "tool_result", content: { response: 1 } } },
        { payload: { type: "assistant", content: "kept" } },
      ]),
      1,
    ],
    ["torn", '{"id":"a","payload":{"type":"user","content":"hel', 0],
    ["huge nesting", `${'{"payload":'.repeat(100_000)}\n`, 0],
  ];
  for (const [name, text, count] of cases) {
    await t.step(name, async () => {
      const path = await tempFileAt(
        ".kiro/sessions/0123456789abcdef/sess_x/messages.jsonl",
        text,
      );
      await Deno.writeTextFile(
        path.replace(/messages\.jsonl$/, "session.json"),
        "[1,",
      );
      const r = await parseAsIndexed(path);
      equal(r.sessions.length, count);
      if (count) equal(r.sessions[0]?.id, "sess_x");
    });
  }
});

Deno.test("parseKiroLog() reads prompts, tools and results, and marks what a Clear wiped", async () => {
  const result = await parse(FIXTURE);
  equal(result.skipped, 0);
  const s = result.sessions[0] as Session;
  deepEqual([s.id, s.project, s.title, s.started, s.updated], [
    "4b2e8f61-0c7d-4a95-b3e2-9d1f6a0c5e87",
    "ledgerline",
    "CSV import drops quoted commas",
    1779526800412,
    1779527402000,
  ]);
  deepEqual(
    s.records.map((r) => [r.role, r.tool, r.exitCode, r.flags?.isError]),
    [
      ["user", undefined, undefined, undefined],
      ["assistant", undefined, undefined, undefined],
      ["command", "shell", 1, undefined],
      ["tool-output", "shell", undefined, true],
      ["assistant", undefined, undefined, undefined],
      ["files", "fs_write", undefined, undefined],
      ["edit", "fs_write", undefined, undefined],
      ["tool-output", "fs_write", undefined, undefined],
      ["assistant", undefined, undefined, undefined],
      ["user", undefined, undefined, undefined],
      ["assistant", undefined, undefined, undefined],
    ],
  );
  deepEqual(s.marks, [{ kind: "clear", from: 0, to: 9 }]);
  ok(!isSuperseded(9, s.marks) && isSuperseded(8, s.marks));
  equal(s.records[2]?.text, "go test ./internal/importer/...");
  equal(
    s.records[6]?.text,
    '/home/dev/code/ledgerline/internal/importer/row.go\nfields := strings.Split(line, ",")',
  );
  ok(!s.records.some((r) => r.text.includes("naive split")), "thinking");
  equal(s.records[0]?.locator.recordId, "m-01");
});

Deno.test("parseKiroLog() resumes from its safe offset, and a later Clear marks earlier records", async () => {
  const whole = await Deno.readTextFile(FIXTURE);
  const head = whole.split("\n").slice(0, 4).join("\n") + "\n";
  const path = await logFile(head);
  const first = await parse(path);
  equal(first.safeOffset, new TextEncoder().encode(head).length);
  await Deno.writeTextFile(path, whole);
  const second = await parse(path, resumeOptions(first));
  const full = (await parse(FIXTURE)).sessions[0] as Session;
  const a = first.sessions[0] as Session;
  const b = second.sessions[0] as Session;
  deepEqual(
    [...a.records, ...b.records].map((r) => [r.seq, r.role, r.text]),
    full.records.map((r) => [r.seq, r.role, r.text]),
  );
  deepEqual(b.marks, [{ kind: "clear", from: 0, to: 9 }]);
  deepEqual(second.state, { nextSeq: 11, activeFrom: 9 });
});

Deno.test("parseKiroLog() reads a sub-agent's parent, and skips it when sub-agents are off", async () => {
  const path = await logFile(jsonLines([
    line("Prompt", [{ kind: "text", data: "scan the repo" }]),
  ]));
  await Deno.writeTextFile(
    path.replace(/\.jsonl$/, ".json"),
    JSON.stringify({ session_id: "s1", parent_session_id: "p0" }),
  );
  const s = (await parse(path)).sessions[0] as Session;
  deepEqual([s.parent, s.lineage], ["p0", "subagent"]);
  deepEqual((await parse(path, { includeSubagents: false })).sessions, []);
});

Deno.test("parseKiroLog() reads a /compact summary as a summary record", async () => {
  const path = await logFile(jsonLines([
    line("Prompt", [{ kind: "text", data: "echo the probe" }]),
    line("AssistantMessage", [{ kind: "text", data: "DONE" }]),
    {
      version: "v1",
      kind: "Compaction",
      data: {
        summary: "## OBJECTIVE\nEcho a probe string.",
        strategy: { message_pairs_to_exclude: 2 },
        messages_snapshot: [],
      },
    },
    { version: "v1", kind: "Compaction", data: { summary: 4 } },
    line("Prompt", [{ kind: "text", data: "again" }]),
  ]));
  const r = await parse(path);
  equal(r.skipped, 0);
  deepEqual(r.sessions[0]?.records.map((x) => [x.role, x.text]), [
    ["user", "echo the probe"],
    ["assistant", "DONE"],
    ["summary", "## OBJECTIVE\nEcho a probe string."],
    ["user", "again"],
  ]);
});

Deno.test("parseKiroLog() takes a session created for a sub-agent as one, with or without a parent id", async () => {
  const path = await logFile(jsonLines([
    line("Prompt", [{ kind: "text", data: "list the handlers" }]),
  ]));
  await Deno.writeTextFile(
    path.replace(/\.jsonl$/, ".json"),
    JSON.stringify({ session_id: "s1", session_created_reason: "subagent" }),
  );
  const s = (await parse(path)).sessions[0] as Session;
  deepEqual([s.parent, s.lineage], [undefined, "subagent"]);
  deepEqual((await parse(path, { includeSubagents: false })).sessions, []);
});

Deno.test("parseKiroLog() leaves a torn last line and counts malformed ones", async () => {
  const text = jsonLines([line("Prompt", [{ kind: "text", data: "kept" }])]) +
    "nope\n[]\n" + JSON.stringify({ version: "v1", kind: 3 }) + "\n" +
    `{"version":"v1","kind":"Prompt","data":{"content":[{"kind":"te`;
  const path = await logFile(text);
  const r = await parse(path);
  equal(r.skipped, 3);
  deepEqual(r.sessions[0]?.records.map((x) => x.text), ["kept"]);
  equal(r.safeOffset, new TextEncoder().encode(text).lastIndexOf(10) + 1);
  // A bad state reads the file from its start.
  const again = await parse(path, { offset: 5, state: { nextSeq: 1 } });
  deepEqual(again.sessions[0]?.records.map((x) => x.seq), [0]);
});

Deno.test("parseKiroLog() survives hostile input", async (t) => {
  const cases: Array<[string, string]> = [
    ["garbage bytes", "\u0000\u00ff\ufffd\n\u202e\n"],
    [
      "wrong types",
      jsonLines([
        { kind: "Prompt", data: "x" },
        line("Prompt", "text", { meta: { timestamp: "soon" } }),
        line("AssistantMessage", [
          { kind: "toolUse", data: { name: 4, input: [] } },
          { kind: "toolUse", data: { name: "shell", input: "{bad" } },
          { kind: "text", data: { text: "not a string" } },
        ]),
        line("ToolResults", [
          {
            kind: "toolResult",
            data: { content: [{ kind: "json", data: 7 }] },
          },
          { kind: "toolResult", data: "x" },
        ]),
        { kind: "Clear", data: { junk: true } },
        { kind: "Clear" },
      ]),
    ],
    ["huge nesting", `${'{"data":'.repeat(100_000)}\n`],
  ];
  for (const [name, text] of cases) {
    await t.step(name, async () => {
      const path = await logFile(text);
      await Deno.writeTextFile(path.replace(/\.jsonl$/, ".json"), "[1,");
      ok((await parse(path)).skipped >= 0);
    });
  }
});

Deno.test("parseKiroCliDb() reads each conversations_v2 row as a session with its tools", async () => {
  const r = await parseKiroCliDb(await copyFile(DB), {
    includeSubagents: true,
    source,
  });
  equal(r.skipped, 1, "the torn row");
  equal(r.sessions.length, 2);
  const s = r.sessions[0] as Session;
  deepEqual([s.id, s.project, s.cwd, s.started, s.updated], [
    "0f4d2c9a-6b1e-4e73-9a58-c2d7e1b4f306",
    "tidepool",
    "/home/dev/code/tidepool",
    1778483643120,
    1778483800002,
  ]);
  deepEqual(
    s.records.map((r) => [r.role, r.tool, r.exitCode, r.flags?.isError]),
    [
      ["user", undefined, undefined, undefined],
      ["assistant", undefined, undefined, undefined],
      ["command", "execute_bash", 101, undefined],
      ["tool-output", "execute_bash", undefined, true],
      ["files", "fs_read", undefined, undefined],
      ["tool-output", "fs_read", undefined, undefined],
      ["assistant", undefined, undefined, undefined],
      ["files", "fs_write", undefined, undefined],
      ["edit", "fs_write", undefined, undefined],
      ["tool-output", "fs_write", undefined, true],
      ["user", undefined, undefined, undefined],
      ["assistant", undefined, undefined, undefined],
    ],
  );
  equal(s.records[2]?.text, "cargo test -p importer");
  ok(s.records[3]?.text.includes("index out of bounds"));
  equal(s.records[4]?.text, "/home/dev/code/tidepool/src/row.rs");
  equal(s.records[10]?.text, "Wait, keep the panic message too.");
  equal(s.records[1]?.locator.recordId, "a1");
  const c = r.sessions[1] as Session;
  deepEqual(c.records.map((x) => [x.role, x.text]), [
    [
      "summary",
      "We renamed the crate to tidepool-core and moved the CLI into its own binary.",
    ],
    ["user", "Now add a --since flag to the export command."],
    ["assistant", "Added --since, parsed with humantime."],
  ]);
  equal(c.project, "tidepool", "the row's folder key");
});

Deno.test("parseKiroCliDb() reads the older conversations table and refuses unknown stores", async () => {
  const dir = await Deno.makeTempDir();
  const old = `${dir}/old/data.sqlite3`;
  await writeFixtureDb(
    old,
    "CREATE TABLE conversations (key TEXT PRIMARY KEY, value TEXT);",
    [
      {
        table: "conversations",
        rows: [{
          key: "/w/app",
          value: JSON.stringify({
            conversation_id: "c1",
            history: [[
              { content: { Prompt: { prompt: "hi" } } },
              { Response: { message_id: "m", content: "hello" } },
            ]],
          }),
        }],
      },
    ],
  );
  const r = await parseKiroCliDb(old, { includeSubagents: true, source });
  deepEqual(r.sessions.map((s) => [s.id, s.project, s.records.length]), [
    ["c1", "app", 2],
  ]);
  const other = `${dir}/other/data.sqlite3`;
  await writeFixtureDb(
    other,
    "CREATE TABLE auth_kv (key TEXT, value TEXT);",
    [],
  );
  await rejects(
    parseKiroCliDb(other, { includeSubagents: true, source }),
    /Unknown Kiro CLI schema/,
  );
});

Deno.test("parseKiroCliDb() survives hostile values", async () => {
  const path = `${await Deno.makeTempDir()}/data.sqlite3`;
  const values = [
    "null",
    "[]",
    JSON.stringify({ conversation_id: 5, history: "x" }),
    JSON.stringify({
      conversation_id: "h1",
      latest_summary: { no: 1 },
      history: [
        null,
        [],
        { user: { content: { Prompt: { prompt: 3 } } }, assistant: "x" },
        {
          user: { content: { ToolUseResults: { tool_use_results: [7, {}] } } },
          assistant: {
            ToolUse: {
              tool_uses: [null, { name: 4 }, {
                name: "fs_read",
                args: { operations: "x" },
              }],
            },
          },
        },
        {
          user: { timestamp: "soon", content: { Prompt: { prompt: "kept" } } },
        },
      ],
    }),
  ];
  await writeFixtureDb(path, SCHEMA, [{
    table: "conversations_v2",
    rows: values.map((value, i) => ({
      key: `k${i}`,
      conversation_id: `id${i}`,
      value,
      created_at: i,
      updated_at: 2 ** 60,
    })),
  }]);
  const r = await parseKiroCliDb(path, { includeSubagents: true, source });
  ok(r.skipped >= 2);
  ok(r.sessions.some((s) => s.records.some((x) => x.text === "kept")));
});

Deno.test("parseKiroIdeSession() reads text, title and workspace of an IDE chat", async () => {
  const r = await parseKiroIdeSession(IDE, { includeSubagents: true, source });
  const s = r.sessions[0] as Session;
  deepEqual([s.id, s.title, s.project, s.started], [
    "d2b7c9e1-58a4-4f0e-9c3b-6e1a7f2d4c85",
    "Spec for tide alerts",
    "tidepool",
    1778659200000,
  ]);
  deepEqual(s.records.map((x) => [x.role, x.locator.recordId]), [
    ["user", "u-1"],
    ["assistant", "m-1"],
    ["user", "u-2"],
    ["assistant", "m-2"],
  ]);
  ok(!s.records.some((x) => x.text.includes("base64")), "image parts");
  ok(!s.records.some((x) => x.text.includes("system prompt")), "prompt logs");
});

Deno.test("parseKiroIdeSession() takes the workspace from the folder name, and skips torn or hostile files", async (t) => {
  const dir = `${await Deno.makeTempDir()}/L3cvYXBw`;
  await Deno.mkdir(dir);
  const cases: Array<[string, string, number]> = [
    [
      "plain",
      JSON.stringify({
        history: [{ message: { role: "user", content: "hi" } }],
      }),
      1,
    ],
    [
      // A file a Windows tool rewrote opens with a BOM: still read.
      "byte order mark",
      "\ufeff" + JSON.stringify({
        history: [{ message: { role: "user", content: "hi" } }],
      }),
      1,
    ],
    ["torn", '{"sessionId":"x","history":[{"message":{"role":"us', 0],
    ["not an object", "[1,2]", 0],
    [
      "wrong types",
      JSON.stringify({
        sessionId: 3,
        title: [],
        history: [null, 4, { message: { role: "tool", content: "x" } }, {
          message: { role: "user", content: [null, { type: "text", text: 5 }] },
        }],
      }),
      0,
    ],
    ["huge nesting", '{"history":' + "[".repeat(100_000), 0],
  ];
  for (const [name, text, count] of cases) {
    await t.step(name, async () => {
      const path = `${dir}/s.json`;
      await Deno.writeTextFile(path, text);
      const r = await parseKiroIdeSession(path, {
        includeSubagents: true,
        source,
      });
      equal(r.sessions.length, count);
      if (count) equal(r.sessions[0]?.project, "app");
    });
  }
});
