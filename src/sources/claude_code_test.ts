import { deepEqual, equal, ok } from "node:assert/strict";
import { fileURLToPath } from "node:url";
import type { ParseResult, SourceEnv } from "../core/harness.ts";
import {
  isSuperseded,
  type Mark,
  type Session,
  type SessionRecord,
} from "../core/types.ts";
import {
  claudeCode,
  type ClaudeParseOptions,
  parseClaudeHistory,
  parseClaudeTranscript,
} from "./claude_code.ts";
import { MAX_OUTPUT_CHARS } from "../core/text.ts";
import {
  hasSamples,
  resumeOptions,
  sampleDir,
  tempFileAt,
} from "./_test_kit.ts";

const FIXTURE_HOME = fileURLToPath(
  new URL("../../fixtures/home", import.meta.url),
);
const PROJECTS = `${FIXTURE_HOME}/.claude/projects`;
const SAMPLES = sampleDir("claude-code");
const SESSION_A = "3f2b8c1e-7a4d-4e91-b6c2-1d9e0f5a7b34";
const SESSION_B = "8c41d7a2-5e3f-4b6a-9d08-c7e2f1a3b965";
const SESSION_C = "e5d09b3c-2f71-4a8e-83b4-6a1c9f2e7d50";
const AGENT = "a7c31e9b2d4f60815";
const PATH_A = `${PROJECTS}/-home-dev-src-api/${SESSION_A}.jsonl`;
const PATH_B = `${PROJECTS}/-home-dev-src-api/${SESSION_B}.jsonl`;
const PATH_AGENT =
  `${PROJECTS}/-home-dev-src-api/${SESSION_B}/subagents/agent-${AGENT}.jsonl`;
const PATH_C = `${PROJECTS}/-home-dev-src-web/${SESSION_C}.jsonl`;

const source: SourceEnv = { home: FIXTURE_HOME, env: {}, os: "linux" };

function opts(extra: Partial<ClaudeParseOptions> = {}): ClaudeParseOptions {
  return { includeSubagents: true, source, ...extra };
}

function only(result: ParseResult): Session {
  equal(result.sessions.length, 1);
  return result.sessions[0] as Session;
}

function byRole(session: Session, role: string): SessionRecord[] {
  return session.records.filter((r) => r.role === role);
}

function line(obj: Record<string, unknown>): string {
  return JSON.stringify(obj) + "\n";
}

function userLine(text: unknown, extra: Record<string, unknown> = {}): string {
  return line({
    type: "user",
    sessionId: "s1",
    cwd: "/home/a/proj",
    timestamp: "2026-11-02T10:00:00Z",
    uuid: crypto.randomUUID(),
    message: { role: "user", content: text },
    ...extra,
  });
}

function tempFile(name: string, text: string): Promise<string> {
  return tempFileAt(name, text);
}

Deno.test("claudeCode.roots() prefers DEJA_CLAUDE_ROOT, then CLAUDE_CONFIG_DIR, then ~/.claude", async (t) => {
  const cases: Array<[Record<string, string>, string]> = [
    [{}, "/h/.claude"],
    [{ CLAUDE_CONFIG_DIR: "/cfg/claude/" }, "/cfg/claude"],
    [{ CLAUDE_CONFIG_DIR: "/cfg", DEJA_CLAUDE_ROOT: "/redir" }, "/redir"],
  ];
  for (const [env, root] of cases) {
    await t.step(JSON.stringify(env), () => {
      deepEqual(claudeCode.roots({ home: "/h", env, os: "linux" }), [root]);
    });
  }
  equal(claudeCode.id, "claude-code");
  equal(claudeCode.name, "Claude Code");
  ok(claudeCode.envOverrides.includes("CLAUDE_CONFIG_DIR"));
});

Deno.test("claudeCode.discover() yields transcripts, sub-agents and history.jsonl", async () => {
  const found = await claudeCode.discover(source);
  deepEqual(found, [
    PATH_A,
    PATH_B,
    PATH_AGENT,
    PATH_C,
    `${FIXTURE_HOME}/.claude/history.jsonl`,
  ]);
  const kinds = found.map((p) => claudeCode.kinds.find((k) => k.match(p))?.id);
  deepEqual(kinds, [
    "transcript",
    "transcript",
    "transcript",
    "transcript",
    "history",
  ]);
  ok(claudeCode.kinds.every((k) => k.appendOnly));
  const history = claudeCode.kinds.find((k) =>
    k.match("/home/x/projects/dotfiles/.claude/history.jsonl")
  );
  equal(history?.id, "history");
  const moved = await claudeCode.discover({
    home: "/nonexistent",
    env: { CLAUDE_CONFIG_DIR: `${FIXTURE_HOME}/.claude` },
    os: "linux",
  });
  equal(moved.length, 5);
});

Deno.test("parseClaudeTranscript() reads a failing then passing test run with exit codes", async () => {
  const result = await parseClaudeTranscript(PATH_A, opts());
  const s = only(result);
  equal(result.skipped, 0);
  equal(s.harness, "claude-code");
  equal(s.id, SESSION_A);
  equal(s.project, "api");
  equal(s.cwd, "/home/dev/src/api");
  equal(
    s.title,
    "the integration tests for the orders service fail on my machine since this morning. can you run…",
  );
  equal(s.started, Date.parse("2026-10-14T08:02:27.705Z"));
  ok((s.updated ?? 0) > (s.started ?? 0));
  deepEqual(s.records.map((r) => r.seq), s.records.map((_, i) => i));

  const commands = byRole(s, "command");
  deepEqual(commands.map((r) => [r.text, r.exitCode, r.tool]), [
    ["npm test", 1, "Bash"],
    ["docker compose up -d db", 0, "Bash"],
    ["npm test", 0, "Bash"],
  ]);
  const outputs = byRole(s, "tool-output");
  ok(outputs[0]?.text.includes("ECONNREFUSED 127.0.0.1:5432"));
  equal(outputs[0]?.flags?.isError, true);
  equal(outputs[0]?.tool, "Bash");
  equal(outputs.filter((r) => r.flags?.isError).length, 1);
  // The reminder appended to a Read result is not tool output.
  ok(outputs.every((r) => !r.text.includes("system-reminder")));

  deepEqual(byRole(s, "files").map((r) => [r.text, r.tool]), [
    ["/home/dev/src/api/docker-compose.yml", "Read"],
    ["/home/dev/src/api/docker-compose.yml", "Edit"],
  ]);
  deepEqual(byRole(s, "edit").map((r) => r.text), [
    "/home/dev/src/api/docker-compose.yml\n    image: redis:7.4",
  ]);

  const users = byRole(s, "user").map((r) => r.text);
  equal(users.length, 2);
  ok(users[1]?.includes("We decided to pin redis to 7.2 because"));
  const all = s.records.map((r) => r.text).join("\n");
  for (
    const dropped of [
      "Caveat:",
      "/clear",
      "TodoWrite",
      "<system-reminder>",
      "local-command",
    ]
  ) {
    ok(!all.includes(dropped), `"${dropped}" should not be indexed`);
  }
  // Thinking blocks add nothing.
  ok(!all.includes("Let me start with npm test"));
  const first = s.records[0];
  equal(first?.locator.path, PATH_A);
  equal(first?.locator.line, 7);
  equal(typeof first?.locator.offset, "number");
  equal(typeof first?.locator.recordId, "string");
});

Deno.test("parseClaudeTranscript() keeps summaries, files API errors as error output and stops before a torn line", async () => {
  const result = await parseClaudeTranscript(PATH_B, opts());
  const s = only(result);
  equal(s.id, SESSION_B);
  equal(result.skipped, 0);
  const summaries = byRole(s, "summary").map((r) => r.text);
  deepEqual(summaries.length, 2);
  equal(
    summaries[0],
    "Move staging credentials out of the repo into the vault",
  );
  ok(summaries[1]?.startsWith("Summary:\n1. The user asked"));
  ok(!summaries[1]?.includes("This session is being continued"));
  // Redaction is the index's job: the parser hands the text over as written.
  ok(byRole(s, "user")[0]?.text.includes("AWS_SECRET_ACCESS_KEY="));
  // An API error is why a turn failed, not something said.
  const failed = s.records.filter((r) => r.text.includes("529 Overloaded"));
  deepEqual(failed.map((r) => [r.role, r.tool, r.flags?.isError]), [
    ["tool-output", "model", true],
  ]);

  deepEqual(byRole(s, "edit").map((r) => r.text.split("\n")[1]), [
    "const databaseUrl = process.env.DATABASE_URL!;",
    'import { env } from "./env.ts";',
  ]);
  deepEqual(byRole(s, "files").map((r) => r.tool), ["MultiEdit", "Write"]);
  const task = byRole(s, "tool-output").find((r) => r.tool === "Task");
  ok(task?.text.startsWith("Two places read them"));

  const bytes = await Deno.readFile(PATH_B);
  const lastNewline = bytes.lastIndexOf(10);
  ok(lastNewline < bytes.length - 1, "fixture ends in a torn line");
  equal(result.safeOffset, lastNewline + 1);
  const lineCount = bytes.subarray(0, lastNewline + 1).filter((b) => b === 10)
    .length;
  equal(result.safeLine, lineCount + 1);
  ok(!s.records.some((r) => r.text.includes("deploy.sh\nexport")));
});

Deno.test("parseClaudeTranscript() reads a sub-agent file as its own session under the parent", async (t) => {
  const s = only(await parseClaudeTranscript(PATH_AGENT, opts()));
  equal(s.id, AGENT);
  equal(s.parent, SESSION_B);
  equal(s.lineage, "subagent");
  equal(s.project, "api");
  ok(s.records.length >= 4);
  ok(s.records.every((r) => r.flags?.subagent === true));
  const failed = byRole(s, "tool-output").filter((r) => r.flags?.isError);
  deepEqual(failed.map((r) => [r.text, r.tool]), [[
    "File does not exist.",
    "Read",
  ]]);
  await t.step("skipped when sub-agents are off", async () => {
    const off = await parseClaudeTranscript(
      PATH_AGENT,
      opts({ includeSubagents: false }),
    );
    deepEqual(off.sessions, []);
    equal(off.safeOffset, 0);
  });
});

Deno.test("parseClaudeTranscript() cleans IDE blocks, images and interruptions from speech", async () => {
  const s = only(await parseClaudeTranscript(PATH_C, opts()));
  equal(s.project, "web");
  deepEqual(byRole(s, "user").map((r) => r.text), [
    "the checkout banner overlaps the price on mobile, see screenshot. add a build check too",
    "yes add it",
  ]);
  deepEqual(byRole(s, "command").map((r) => [r.text, r.exitCode]), [[
    "npm run build",
    2,
  ]]);
  deepEqual(byRole(s, "files").map((r) => r.tool), ["Write"]);
  equal(byRole(s, "edit").length, 0);
});

Deno.test("parseClaudeHistory() turns prompts into per-session user records", async () => {
  const path = `${FIXTURE_HOME}/.claude/history.jsonl`;
  const result = await parseClaudeHistory(path, opts());
  equal(result.skipped, 0);
  const ids = result.sessions.map((s) => s.id);
  deepEqual(ids, [
    SESSION_A,
    "1b6e4f9a-0c3d-4e72-a5b8-9f2d7c4e1a63",
    SESSION_C,
  ]);
  const gone = result.sessions[1] as Session;
  equal(gone.project, "api");
  equal(gone.cwd, "/home/dev/src/api");
  equal(
    gone.title,
    "why does the nightly export job time out? ERROR export_job: statement timeout after 30000ms",
  );
  ok(gone.records[0]?.text.includes("rows scanned: 41833002"));
  deepEqual(gone.records.map((r) => r.seq), [3, 4]);
  deepEqual(gone.records.map((r) => r.locator.line), [3, 4]);
  // A bare slash command is not a prompt.
  equal((result.sessions[0] as Session).records.length, 1);
  const size = (await Deno.stat(path)).size;
  equal(result.safeOffset, size);
});

Deno.test("parseClaudeHistory() groups lines without a session id by project and day", async () => {
  const at = Date.UTC(2026, 10, 5, 9, 0, 0);
  const path = await tempFile(
    "history.jsonl",
    line({ display: "first", timestamp: at, project: "/w/shop" }) +
      line({ display: "second", timestamp: at + 60_000, project: "/w/shop" }) +
      line({
        display: "other day",
        timestamp: at + 86_400_000,
        project: "/w/shop",
      }) +
      line({ nope: true }) + "garbage\n",
  );
  const result = await parseClaudeHistory(path, opts());
  equal(result.skipped, 2);
  deepEqual(result.sessions.map((s) => [s.id, s.records.length, s.project]), [
    ["history:2026-11-05:/w/shop", 2, "shop"],
    ["history:2026-11-06:/w/shop", 1, "shop"],
  ]);
});

Deno.test("parseClaudeTranscript() resumed at any line gives only the new records with continued seq", async () => {
  const full = only(await parseClaudeTranscript(PATH_A, opts()));
  const text = await Deno.readTextFile(PATH_A);
  const lines = text.split("\n").slice(0, -1);
  const dir = await Deno.makeTempDir();
  const path = `${dir}/${SESSION_A}.jsonl`;
  const key = (
    r: SessionRecord,
  ) => [r.seq, r.role, r.text, r.tool, r.locator.line, r.locator.offset];
  for (let k = 1; k < lines.length; k++) {
    await Deno.writeTextFile(path, lines.slice(0, k).join("\n") + "\n");
    const head = await parseClaudeTranscript(path, opts());
    await Deno.writeTextFile(path, lines.slice(k).join("\n") + "\n", {
      append: true,
    });
    const tail = await parseClaudeTranscript(
      path,
      opts({
        ...(head.safeOffset === undefined ? {} : { offset: head.safeOffset }),
        ...(head.safeLine === undefined ? {} : { firstLine: head.safeLine }),
        state: JSON.parse(JSON.stringify(head.state)),
      }),
    );
    const records = [...head.sessions, ...tail.sessions].flatMap((s) =>
      s.records
    );
    for (const s of tail.sessions) {
      equal(s.id, SESSION_A);
      equal(s.project, "api");
    }
    deepEqual(
      records.map(key),
      full.records.map(key),
      `split at line ${k + 1}`,
    );
  }
});

Deno.test("parseClaudeTranscript() leaves a torn last line for the next pass", async () => {
  const a = userLine("first question");
  const b = userLine("second question");
  const path = await tempFile("s1.jsonl", a + b.slice(0, 30));
  const head = await parseClaudeTranscript(path, opts());
  equal(head.safeOffset, new TextEncoder().encode(a).length);
  equal(head.safeLine, 2);
  equal(head.skipped, 0);
  deepEqual(only(head).records.map((r) => r.text), ["first question"]);
  await Deno.writeTextFile(path, a + b);
  const tail = await parseClaudeTranscript(
    path,
    opts({
      offset: head.safeOffset as number,
      firstLine: 2,
      state: head.state,
    }),
  );
  const rec = only(tail).records;
  deepEqual(rec.map((r) => [r.seq, r.text, r.locator.line]), [[
    1,
    "second question",
    2,
  ]]);
});

Deno.test("parseClaudeTranscript() counts malformed, unknown and oversized lines as skipped", async (t) => {
  await t.step("malformed and unknown", async () => {
    const path = await tempFile(
      "s1.jsonl",
      "{not json\n42\n[1,2]\n\n   \n" + line({ type: "mystery" }) +
        // A type not known here that carries a message may be conversation
        // this deja cannot read: counted. One without is bookkeeping.
        line({ type: "mystery", message: { role: "user", content: "?" } }) +
        line({ type: "cost-state", costUSD: 0.1 }) +
        line({ type: "progress" }) + line({ type: "file-history-snapshot" }) +
        line({ type: "queue-operation" }) + line({ type: "system" }) +
        userLine("still here"),
    );
    const result = await parseClaudeTranscript(path, opts());
    equal(result.skipped, 4);
    deepEqual(only(result).records.map((r) => r.text), ["still here"]);
  });
  await t.step("oversized in the middle and torn at the end", async () => {
    const big = userLine("x".repeat(500));
    const small = userLine("small");
    const path = await tempFile(
      "s1.jsonl",
      small + big + userLine("again") + big.slice(0, 400),
    );
    const result = await parseClaudeTranscript(
      path,
      opts({ maxLineBytes: 300 }),
    );
    equal(result.skipped, 1);
    deepEqual(only(result).records.map((r) => r.text), ["small", "again"]);
    const enc = new TextEncoder();
    equal(result.safeOffset, enc.encode(small + big + small).length);
    equal(result.safeLine, 4);
  });
  await t.step("oversized last line with its newline is consumed", async () => {
    const big = userLine("y".repeat(500));
    const path = await tempFile("s1.jsonl", userLine("a") + big);
    const result = await parseClaudeTranscript(
      path,
      opts({ maxLineBytes: 300 }),
    );
    equal(result.skipped, 1);
    equal(result.safeOffset, (await Deno.stat(path)).size);
    equal(result.safeLine, 3);
  });
});

Deno.test("parseClaudeTranscript() survives hostile input", async (t) => {
  const cases: Array<[string, string]> = [
    [
      "binary garbage",
      String.fromCharCode(...crypto.getRandomValues(new Uint8Array(4096))) +
      "\n",
    ],
    ["deeply nested", "[".repeat(200_000) + "]".repeat(200_000) + "\n"],
    [
      "nested object",
      '{"type":"user","message":' + '{"a":'.repeat(50_000) + "1" +
      "}".repeat(50_001) + "\n",
    ],
    [
      "wrong field types",
      [
        { type: "user", message: 5 },
        { type: "user", message: { content: { text: "obj" } } },
        {
          type: "user",
          message: {
            content: [1, null, "s", { type: "tool_result", content: 7 }],
          },
        },
        {
          type: "assistant",
          message: {
            content: [{ type: "tool_use", name: "Bash", input: "rm" }],
          },
        },
        {
          type: "assistant",
          message: {
            content: [{
              type: "tool_use",
              name: "Edit",
              input: { file_path: 3 },
            }],
          },
        },
        {
          type: "assistant",
          message: {
            content: [{
              type: "tool_use",
              name: "MultiEdit",
              input: { file_path: "/p", edits: "x" },
            }],
          },
        },
        {
          type: "user",
          sessionId: 12,
          cwd: [],
          timestamp: { y: 1 },
          message: { content: "ok" },
        },
        { type: "summary", summary: ["x"] },
        { type: null },
      ].map((o) => JSON.stringify(o)).join("\n") + "\n",
    ],
    [
      "huge line",
      `{"type":"user","message":{"content":"${"z".repeat(2_000_000)}"}}\n`,
    ],
  ];
  for (const [name, text] of cases) {
    await t.step(name, async () => {
      const path = await tempFile("h.jsonl", text);
      const result = await parseClaudeTranscript(
        path,
        opts({ maxLineBytes: 1_000_000 }),
      );
      ok(result.skipped >= 0);
      for (const s of result.sessions) {
        for (const r of s.records) equal(typeof r.text, "string");
      }
    });
  }
});

Deno.test("parseClaudeTranscript() reads each side chain of a main transcript as a sub-agent session", async (t) => {
  const uuid = (n: number) =>
    `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
  const node = (
    type: "user" | "assistant",
    n: number,
    parent: number | null,
    content: unknown,
    extra: Record<string, unknown> = {},
  ) =>
    line({
      type,
      sessionId: "s1",
      uuid: uuid(n),
      parentUuid: parent === null ? null : uuid(parent),
      message: type === "assistant"
        ? { id: `msg_${n}`, role: "assistant", content }
        : { role: "user", content },
      ...extra,
    });
  const side = { isSidechain: true };
  const task = (id: string, prompt: string) => ({
    type: "tool_use",
    id,
    name: "Task",
    input: { description: prompt, prompt },
  });
  // 1.0.x: two Task calls run in parallel, their side chains interleaved
  // in the session's own file (no agentId), each chain's first line naming
  // the message that made the call, or no parent at all.
  const text = node("user", 1, null, "why is the export slow?") +
    node("assistant", 2, 1, [
      task("toolu_a", "profile the CSV writer"),
      task("toolu_b", "check the DB indexes"),
    ]) +
    node("user", 3, 2, "profile the CSV writer", side) +
    node("user", 4, null, "check the DB indexes", side) +
    node("assistant", 5, 3, [{
      type: "text",
      text: "the writer flushes per row",
    }], side) +
    node("assistant", 6, 4, [{
      type: "tool_use",
      id: "toolu_c",
      name: "Bash",
      input: { command: "psql -c '\\di'" },
    }], side) +
    node("user", 7, 6, [{
      type: "tool_result",
      tool_use_id: "toolu_c",
      content: "Exit code 0\nexports_created_idx",
    }], side) +
    node("user", 8, 2, [
      {
        type: "tool_result",
        tool_use_id: "toolu_a",
        content: "flushes per row",
      },
    ]) +
    node("user", 9, 8, "batch the flushes then");
  const path = await tempFile("-home-a-proj/s1.jsonl", text);
  const shape = (s: Session) => ({
    id: s.id,
    parent: s.parent,
    lineage: s.lineage,
    records: s.records.map((r) => [r.role, r.text, r.flags?.subagent ?? false]),
  });
  const want = [
    {
      id: "s1",
      parent: undefined,
      lineage: undefined,
      records: [
        ["user", "why is the export slow?", false],
        // Each Task call's description, the label Claude Code shows for it.
        ["assistant", "profile the CSV writer", false],
        ["assistant", "check the DB indexes", false],
        ["tool-output", "flushes per row", false],
        ["user", "batch the flushes then", false],
      ],
    },
    {
      id: uuid(3),
      parent: "s1",
      lineage: "subagent",
      records: [
        ["user", "profile the CSV writer", true],
        ["assistant", "the writer flushes per row", true],
      ],
    },
    {
      id: uuid(4),
      parent: "s1",
      lineage: "subagent",
      records: [
        ["user", "check the DB indexes", true],
        ["command", "psql -c '\\di'", true],
        ["tool-output", "Exit code 0\nexports_created_idx", true],
      ],
    },
  ];
  await t.step("one pass", async () => {
    const result = await parseClaudeTranscript(path, opts());
    deepEqual(result.sessions.map(shape), want);
    equal(result.sessions[0]?.title, "why is the export slow?");
  });
  await t.step("resumed after every line", async () => {
    const lines = text.split("\n").slice(0, -1);
    const cut = await tempFile("-home-a-proj/cut/s1.jsonl", "");
    for (let k = 1; k < lines.length; k++) {
      await Deno.writeTextFile(cut, lines.slice(0, k).join("\n") + "\n");
      const first = await parseClaudeTranscript(cut, opts());
      await Deno.writeTextFile(cut, text);
      const next = await parseClaudeTranscript(cut, opts(resumeOptions(first)));
      const records = (id: string) =>
        [...first.sessions, ...next.sessions].filter((s) => s.id === id)
          .flatMap((s) => s.records).map((r) => [r.seq, r.role, r.text]);
      for (const w of want) {
        deepEqual(
          records(w.id).map(([, role, text]) => [role, text]),
          w.records.map(([role, text]) => [role, text]),
          `${w.id} split at line ${k + 1}`,
        );
        deepEqual(
          records(w.id).map(([seq]) => seq),
          w.records.map((_, i) => i),
          `${w.id} seqs split at line ${k + 1}`,
        );
      }
    }
  });
  await t.step(
    "an agentId names the chain (2.x wrote some in the file)",
    async () => {
      const p = await tempFile(
        "-home-a-proj/s2.jsonl",
        userLine("main question") +
          userLine("side task", { isSidechain: true, agentId: "ab12" }),
      );
      const [main, agent] = (await parseClaudeTranscript(p, opts())).sessions;
      deepEqual(main?.records.map((r) => r.text), ["main question"]);
      equal(agent?.id, "ab12");
      equal(agent?.parent, "s1");
    },
  );
  await t.step("left out when sub-agents are off", async () => {
    const s = only(
      await parseClaudeTranscript(path, opts({ includeSubagents: false })),
    );
    deepEqual(s.records.map((r) => r.text), [
      "why is the export slow?",
      "profile the CSV writer",
      "check the DB indexes",
      "flushes per row",
      "batch the flushes then",
    ]);
  });
});

Deno.test("parseClaudeTranscript() reads titles, slash command arguments and encoded project names", async (t) => {
  await t.step("custom title and slash command", async () => {
    const text = userLine(
      "<command-message>review</command-message>\n<command-name>/review</command-name>\n<command-args>the auth module</command-args>",
    ) +
      userLine(
        "<command-name>/clear</command-name>\n<command-message>clear</command-message>\n<command-args></command-args>",
      ) +
      line({
        type: "custom-title",
        customTitle: "Auth review",
        sessionId: "s1",
      });
    const path = await tempFile("s1.jsonl", text);
    const s = only(await parseClaudeTranscript(path, opts()));
    deepEqual(s.records.map((r) => r.text), ["/review the auth module"]);
    equal(s.title, "Auth review");
  });
  await t.step(
    "a setting is not speech; a slash command does not title",
    async () => {
      const text = userLine(
        "<command-name>/model</command-name>\n<command-message>model</command-message>\n<command-args>opus</command-args>",
      ) +
        userLine(
          "<command-message>review</command-message>\n<command-name>/review</command-name>\n<command-args>the auth module</command-args>",
        ) +
        userLine("the login page throws on submit");
      const path = await tempFile("s3.jsonl", text);
      const s = only(await parseClaudeTranscript(path, opts()));
      deepEqual(s.records.map((r) => r.text), [
        "/review the auth module",
        "the login page throws on submit",
      ]);
      equal(s.title, "the login page throws on submit");
    },
  );
  const cases: Array<[string, string]> = [
    ["-home-a-proj", "proj"],
    ["C--Users-x-proj", "proj"],
    ["-workspaces", "workspaces"],
  ];
  for (const [dir, project] of cases) {
    await t.step(`${dir} without cwd`, async () => {
      const path = await tempFile(
        `${dir}/s2.jsonl`,
        line({ type: "user", message: { role: "user", content: "hello" } }),
      );
      const s = only(await parseClaudeTranscript(path, opts()));
      equal(s.project, project);
      equal(s.id, "s2");
    });
  }
});

Deno.test("parseClaudeTranscript() keeps the reason a person gave for rejecting a tool call as their words", async (t) => {
  const rejected =
    "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file).";
  const cases: Array<[string, string, string[]]> = [
    [
      "reason given",
      `${rejected} The user provided the following reason for the rejection:  use the staging bucket, not prod`,
      ["deploy the thumbnails", "use the staging bucket, not prod"],
    ],
    [
      "told how to proceed",
      `${rejected} To tell you how to proceed, the user said:\nrun it with --dry-run first\n\nNote: The user's next message may contain a correction or preference. Pay close attention.`,
      ["deploy the thumbnails", "run it with --dry-run first"],
    ],
    [
      "question tool's own words",
      `${rejected} To tell you how to proceed, the user said:\nThe user wants to clarify these questions.\n    This means they may have additional information.`,
      ["deploy the thumbnails"],
    ],
    [
      "no reason",
      `${rejected} STOP what you are doing and wait for the user to tell you how to proceed.`,
      ["deploy the thumbnails"],
    ],
  ];
  for (const [name, result, users] of cases) {
    await t.step(name, async () => {
      const text = userLine("deploy the thumbnails") + line({
        type: "assistant",
        sessionId: "s1",
        timestamp: "2026-11-02T10:00:05Z",
        message: {
          id: "msg_1",
          role: "assistant",
          content: [{
            type: "tool_use",
            id: "toolu_r1",
            name: "Bash",
            input: { command: "aws s3 sync ./thumbs s3://prod-thumbs" },
          }],
        },
      }) + userLine([{
        type: "tool_result",
        tool_use_id: "toolu_r1",
        is_error: true,
        content: result,
      }], { timestamp: "2026-11-02T10:00:09Z" });
      const path = await tempFile(
        `proj/reject-${name.replaceAll(/\W+/g, "-")}.jsonl`,
        text,
      );
      const s = only(await parseClaudeTranscript(path, opts()));
      deepEqual(byRole(s, "user").map((r) => r.text), users);
      // The refused call's own record stays, flagged as the harness wrote it.
      equal(byRole(s, "tool-output")[0]?.flags?.isError, true);
    });
  }
});

Deno.test("parseClaudeTranscript() keeps a person's answers to the question tool as their words", async () => {
  const text = userLine("set up linting for the billing service") + line({
    type: "assistant",
    sessionId: "s1",
    timestamp: "2026-11-02T10:00:05Z",
    message: {
      id: "msg_q",
      role: "assistant",
      content: [{
        type: "tool_use",
        id: "toolu_q1",
        name: "AskUserQuestion",
        input: { questions: [{ question: "Which linter?" }] },
      }],
    },
  }) + userLine([{
    type: "tool_result",
    tool_use_id: "toolu_q1",
    content:
      'User has answered your questions: "Which linter should we use? (ruff is the \'fast\' one)"="ruff", "Fail CI on warnings?"="No, only on errors". You can now continue with the user\'s answers in mind.',
  }], { timestamp: "2026-11-02T10:00:30Z" });
  const path = await tempFile("proj/asked.jsonl", text);
  const s = only(await parseClaudeTranscript(path, opts()));
  deepEqual(byRole(s, "user").map((r) => r.text), [
    "set up linting for the billing service",
    "Which linter should we use? (ruff is the 'fast' one) → ruff\nFail CI on warnings? → No, only on errors",
  ]);
  equal(byRole(s, "tool-output").length, 1);
});

Deno.test("parseClaudeTranscript() reads the compaction agent's answer as a summary", async () => {
  const text = userLine(
    "Your task is to create a detailed summary of the conversation so far",
    {
      isSidechain: true,
      agentId: "acompact-1f2e3d",
    },
  ) + line({
    type: "assistant",
    sessionId: "s1",
    isSidechain: true,
    agentId: "acompact-1f2e3d",
    message: {
      role: "assistant",
      content: [{
        type: "text",
        text: "<summary>We moved the creds to the vault.</summary>",
      }],
    },
  });
  const path = await tempFile(
    "proj/s1/subagents/agent-acompact-1f2e3d.jsonl",
    text,
  );
  const s = only(await parseClaudeTranscript(path, opts()));
  equal(s.id, "acompact-1f2e3d");
  equal(s.parent, "s1");
  deepEqual(s.records.map((r) => r.role), ["summary"]);
});

Deno.test({
  name: "parseClaudeTranscript() reads every real sample",
  ignore: !hasSamples("claude-code"),
  fn: async () => {
    const files: string[] = [];
    const walk = async (dir: string) => {
      for await (const e of Deno.readDir(dir)) {
        const p = `${dir}/${e.name}`;
        if (e.isDirectory) await walk(p);
        else if (e.isFile && p.endsWith(".jsonl")) files.push(p);
      }
    };
    await walk(SAMPLES);
    ok(files.length > 0);
    let subagents = 0;
    let errors = 0;
    let exitCodes = 0;
    let records = 0;
    for (const path of files.sort()) {
      const kind = claudeCode.kinds.find((k) => k.match(path));
      equal(kind?.id, "transcript", path);
      const result = await parseClaudeTranscript(path, opts());
      const size = (await Deno.stat(path)).size;
      ok((result.safeOffset ?? 0) <= size, path);
      for (const s of result.sessions) {
        equal(s.harness, "claude-code");
        ok(s.id.length > 0 && s.project.length > 0, path);
        const seqs = s.records.map((r) => r.seq);
        deepEqual(seqs, [...seqs].sort((a, b) => a - b), path);
        records += s.records.length;
        if (path.includes("/subagents/")) {
          equal(s.lineage, "subagent", path);
          ok(s.parent && path.includes(`/${s.parent}/subagents/`), path);
          ok(s.records.every((r) => r.flags?.subagent), path);
          subagents++;
        }
        errors += s.records.filter((r) => r.flags?.isError).length;
        exitCodes += s.records.filter((r) => (r.exitCode ?? 0) > 0).length;
        const text = s.records.map((r) => r.text).join("\n");
        ok(!text.includes("<system-reminder>"), path);
        ok(!text.includes("<local-command-caveat>"), path);
      }
    }
    ok(records > 100);
    ok(subagents >= 2, "sub-agent sessions found");
    ok(errors > 0, "tool errors found");
    ok(exitCodes > 0, "failing exit codes found");
  },
});

Deno.test("parseClaudeTranscript() reads `!` shell turns, slash command output and task notifications as work, not a person's words", async (t) => {
  const cases: Array<[string, string[], Array<[string, string, string?]>]> = [
    [
      "bash mode command and its output",
      [
        "<bash-input>git log --oneline -3</bash-input>",
        "<bash-stdout>a1b2c3 fix the parser\nd4e5f6 add a test</bash-stdout><bash-stderr></bash-stderr>",
        "now squash those two",
      ],
      [
        ["command", "git log --oneline -3", "Bash"],
        ["tool-output", "a1b2c3 fix the parser\nd4e5f6 add a test", "Bash"],
        ["user", "now squash those two"],
      ],
    ],
    [
      "bash mode stderr only",
      [
        "<bash-input>mkae build</bash-input>",
        "<bash-stdout></bash-stdout><bash-stderr>zsh: command not found: mkae\n</bash-stderr>",
      ],
      [
        ["command", "mkae build", "Bash"],
        ["tool-output", "zsh: command not found: mkae", "Bash"],
      ],
    ],
    [
      "a built-in slash command's output",
      [
        "<command-name>/mcp</command-name>\n            <command-message>mcp</command-message>\n            <command-args></command-args>",
        "<local-command-stdout>Reconnected to tidewave.</local-command-stdout>",
        "is the server back?",
      ],
      [
        ["tool-output", "Reconnected to tidewave.", "slash-command"],
        ["user", "is the server back?"],
      ],
    ],
    [
      "background task notification",
      [
        '<task-notification>\n<task-id>b7f31c2</task-id>\n<tool-use-id>toolu_q9</tool-use-id>\n<status>completed</status>\n<summary>Background command "Run the slow suite" completed (exit code 0)</summary>\n<result>412 passed</result>\n</task-notification>\nRead the output file to retrieve the result: /tmp/tasks/b7f31c2.output',
        "ship it",
      ],
      [
        [
          "tool-output",
          'Background command "Run the slow suite" completed (exit code 0)\n412 passed',
          "task-notification",
        ],
        ["user", "ship it"],
      ],
    ],
  ];
  for (const [name, turns, want] of cases) {
    await t.step(name, async () => {
      const text = turns.map((turn, i) =>
        userLine(turn, { timestamp: `2026-11-02T10:00:0${i}Z` })
      ).join("");
      const path = await tempFile(
        `proj/bash-${name.replaceAll(/\W+/g, "-")}.jsonl`,
        text,
      );
      const s = only(await parseClaudeTranscript(path, opts()));
      deepEqual(
        s.records.map((r) =>
          r.tool === undefined ? [r.role, r.text] : [r.role, r.text, r.tool]
        ),
        want,
      );
      equal(s.title, turns.at(-1)?.startsWith("<") ? undefined : turns.at(-1));
    });
  }
});

Deno.test("claudeCode.discover() also reads the XDG config dir some 1.0.x builds wrote to", async (t) => {
  const line = userLine("tidy the imports");
  await t.step("~/.config/claude beside ~/.claude", async () => {
    const home = await Deno.makeTempDir();
    await Deno.mkdir(`${home}/.claude/projects/-w-a`, { recursive: true });
    await Deno.writeTextFile(`${home}/.claude/projects/-w-a/s1.jsonl`, line);
    await Deno.mkdir(`${home}/.config/claude/projects/-w-b`, {
      recursive: true,
    });
    await Deno.writeTextFile(
      `${home}/.config/claude/projects/-w-b/s2.jsonl`,
      line,
    );
    const env = { home, env: {}, os: "linux" };
    deepEqual(claudeCode.roots(env), [
      `${home}/.claude`,
      `${home}/.config/claude`,
    ]);
    deepEqual(await claudeCode.discover(env), [
      `${home}/.claude/projects/-w-a/s1.jsonl`,
      `${home}/.config/claude/projects/-w-b/s2.jsonl`,
    ]);
  });
  await t.step(
    "$XDG_CONFIG_HOME/claude, and not twice through a symlink",
    async () => {
      const home = await Deno.makeTempDir();
      await Deno.mkdir(`${home}/xdg/claude/projects/-w-c`, { recursive: true });
      await Deno.writeTextFile(
        `${home}/xdg/claude/projects/-w-c/s3.jsonl`,
        line,
      );
      const env = {
        home,
        env: { XDG_CONFIG_HOME: `${home}/xdg` },
        os: "linux",
      };
      deepEqual(claudeCode.roots(env), [
        `${home}/.claude`,
        `${home}/xdg/claude`,
      ]);
      await Deno.symlink(`${home}/xdg/claude`, `${home}/.claude`);
      deepEqual(claudeCode.roots(env), [`${home}/.claude`]);
    },
  );
  await t.step("CLAUDE_CONFIG_DIR names the only root", async () => {
    const home = await Deno.makeTempDir();
    await Deno.mkdir(`${home}/.config/claude/projects`, { recursive: true });
    deepEqual(
      claudeCode.roots({
        home,
        env: { CLAUDE_CONFIG_DIR: "/cfg" },
        os: "linux",
      }),
      ["/cfg"],
    );
  });
});

Deno.test("parseClaudeTranscript() reads the 1.x layouts: sub-agents beside sessions, resumes in a new file", async (t) => {
  await t.step(
    "projects/<dir>/agent-<id>.jsonl is a sub-agent of its lines' session",
    async () => {
      const parent = "7d6c5b4a-1111-4222-8333-444455556666";
      const path = await tempFile(
        "projects/-home-a-proj/agent-a1b2c3.jsonl",
        userLine("find dead code in utils", {
          sessionId: parent,
          agentId: "a1b2c3",
          isSidechain: true,
        }),
      );
      const s = only(await parseClaudeTranscript(path, opts()));
      equal(s.id, "a1b2c3");
      equal(s.parent, parent);
      equal(s.lineage, "subagent");
      equal(s.project, "proj");
      equal(s.records[0]?.flags?.subagent, true);
    },
  );
  await t.step("a resumed session's file keeps its own id", async () => {
    const old = "aaaaaaaa-1111-4222-8333-444455556666";
    const fresh = "bbbbbbbb-1111-4222-8333-444455556666";
    const path = await tempFile(
      `projects/-home-a-proj/${fresh}.jsonl`,
      userLine("copied from the old session", { sessionId: old }) +
        userLine("a new question after the resume", { sessionId: fresh }),
    );
    const s = only(await parseClaudeTranscript(path, opts()));
    equal(s.id, fresh);
    equal(s.records.length, 2);
  });
});

Deno.test("parseClaudeTranscript() counts 2.1's bookkeeping lines as nothing, and a bash notification as output", async () => {
  const meta = (type: string, extra: Record<string, unknown> = {}) =>
    line({
      type,
      sessionId: "s1",
      timestamp: "2026-11-02T10:00:01Z",
      ...extra,
    });
  const path = await tempFile(
    "s1.jsonl",
    [
      userLine(
        '<bash-notification>\n<shell-id>b1</shell-id>\n<status>completed</status>\n<summary>Background command "npm run build" completed (exit code 0).</summary>\n</bash-notification>',
      ),
      userLine("why does the build take four minutes now?"),
      meta("pr-link", { prNumber: 446, prUrl: "https://example.test/pr/446" }),
      meta("mode", { mode: "plan" }),
      meta("permission-mode", { permissionMode: "acceptEdits" }),
      meta("ai-title", { title: "Slow build" }),
      meta("agent-name", { name: "builder" }),
      meta("agent-setting", { setting: "x" }),
      meta("last-prompt", { prompt: "x" }),
      meta("file-history-delta", { files: [] }),
      meta("attachment", { attachment: { type: "hook" } }),
    ].join(""),
  );
  const result = await parseClaudeTranscript(path, opts());
  equal(result.skipped, 0);
  const s = only(result);
  deepEqual(byRole(s, "user").map((r) => r.text), [
    "why does the build take four minutes now?",
  ]);
  deepEqual(byRole(s, "tool-output").map((r) => r.text), [
    'Background command "npm run build" completed (exit code 0).',
  ]);
  equal(s.title, "why does the build take four minutes now?");
});

const HOME_21 = fileURLToPath(
  new URL("../../fixtures/claude-2.1", import.meta.url),
);
const PROJECTS_21 = `${HOME_21}/.claude/projects/-home-dev-heron-api`;
const HERON = "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c51";
const HERON_FORK = "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c52";
const PATH_HERON = `${PROJECTS_21}/${HERON}.jsonl`;
const PATH_HERON_FORK = `${PROJECTS_21}/${HERON_FORK}.jsonl`;
const PATH_WORKFLOW_AGENT =
  `${PROJECTS_21}/${HERON}/subagents/workflows/wf_0c1d2e3f-4a5/agent-b1c2d3e4f5a6.jsonl`;
const source21: SourceEnv = { home: HOME_21, env: {}, os: "linux" };

function queueLine(
  operation: string,
  content?: string,
  extra: Record<string, unknown> = {},
): string {
  return line({
    type: "queue-operation",
    operation,
    timestamp: "2026-11-02T10:00:03Z",
    sessionId: "s1",
    ...(content === undefined ? {} : { content }),
    ...extra,
  });
}

function queuedLine(
  prompt: unknown,
  commandMode = "prompt",
  extra: Record<string, unknown> = {},
): string {
  return line({
    type: "attachment",
    sessionId: "s1",
    timestamp: "2026-11-02T10:00:03Z",
    uuid: crypto.randomUUID(),
    attachment: { type: "queued_command", prompt, commandMode, ...extra },
  });
}

Deno.test("claudeCode.discover() finds workflow agents below subagents/, not a run's journal or saved tool results", async () => {
  const found = await claudeCode.discover(source21);
  deepEqual(found, [PATH_HERON, PATH_HERON_FORK, PATH_WORKFLOW_AGENT]);
  ok(found.every((p) => claudeCode.kinds.find((k) => k.match(p))));
  equal(
    claudeCode.kinds.find((k) =>
      k.match(
        `${PROJECTS_21}/${HERON}/subagents/workflows/wf_0c1d2e3f-4a5/journal.jsonl`,
      )
    ),
    undefined,
  );
  const agent = only(
    await parseClaudeTranscript(
      PATH_WORKFLOW_AGENT,
      opts({ source: source21 }),
    ),
  );
  equal(agent.id, "b1c2d3e4f5a6");
  equal(agent.parent, HERON);
  equal(agent.lineage, "subagent");
  equal(agent.project, "heron-api");
  ok(agent.records.every((r) => r.flags?.subagent));
  ok(
    byRole(agent, "tool-output").some((r) =>
      r.text.includes("plover_rate_limiter")
    ),
  );
});

Deno.test("parseClaudeTranscript() records a prompt typed while the agent worked once, from its queue copies", async (t) => {
  await t.step("2.1.29x session", async () => {
    const s = only(
      await parseClaudeTranscript(PATH_HERON, opts({ source: source21 })),
    );
    // The first prompt went enqueue → dequeue → user line; two were absorbed
    // mid-turn (attachment and remove, in both orders); one was taken back.
    deepEqual(byRole(s, "user").map((r) => r.text), [
      "the heron import job drops rows after the osprey migration, can you check?",
      "also keep the puffin fallback flag on while you fix it",
      "and skip the gannet fixtures for now",
    ]);
    const notices = byRole(s, "tool-output").filter((r) =>
      r.tool === "task-notification"
    );
    deepEqual(notices.map((r) => r.text), [
      'Background command "Warm cache" completed (exit code 0)\ncache warmed: the dunlin index rebuild took 7 minutes',
    ]);
    const puffin = byRole(s, "user")[1];
    equal(puffin?.time, Date.parse("2026-10-05T09:00:21.000Z"));
    ok(puffin?.locator.recordId, "located at its attachment line");
  });
  const cases: Array<[string, string, string[]]> = [
    [
      "a remove with no reason (before 2.1.246) still carries the prompt",
      queueLine("enqueue", "use the staging bucket") +
      queueLine("remove", "use the staging bucket"),
      ["deploy the thumbnails", "use the staging bucket"],
    ],
    [
      "a remove for another reason, or without its text, is not a prompt",
      queueLine("enqueue", "use the staging bucket") +
      queueLine("remove", "use the staging bucket", { reason: "cancelled" }) +
      queueLine("enqueue", "/mcp") + queueLine("remove"),
      ["deploy the thumbnails"],
    ],
    [
      "a queued shell command or bare slash command is not a prompt",
      queuedLine("ls -la", "bash") + queuedLine("/compact"),
      ["deploy the thumbnails"],
    ],
    [
      "a prompt with an image is its text",
      queuedLine([
        { type: "text", text: "the banner overlaps here" },
        { type: "image", source: { type: "base64", data: "iVBOR" } },
      ]),
      ["deploy the thumbnails", "the banner overlaps here"],
    ],
    [
      "a user line repeating the absorbed prompt is not a second record",
      queuedLine("use the staging bucket") +
      userLine("use the staging bucket") +
      userLine("and tag the release") + queuedLine("and tag the release") +
      userLine("ok") + userLine("and tag the release"),
      [
        "deploy the thumbnails",
        "use the staging bucket",
        "and tag the release",
        "and tag the release",
        "ok",
        "and tag the release",
      ],
    ],
  ];
  for (const [name, text, users] of cases) {
    await t.step(name, async () => {
      const path = await tempFile(
        "proj/s1.jsonl",
        userLine("deploy the thumbnails") + text,
      );
      const s = only(await parseClaudeTranscript(path, opts()));
      deepEqual(byRole(s, "user").map((r) => r.text), users);
    });
  }
  await t.step("resumed between a prompt's two copies", async () => {
    const head = userLine("deploy the thumbnails") +
      queueLine("enqueue", "use the staging bucket") +
      queuedLine("use the staging bucket");
    const path = await tempFile("proj/s1.jsonl", head);
    const first = await parseClaudeTranscript(path, opts());
    await Deno.writeTextFile(
      path,
      queueLine("remove", "use the staging bucket", {
        reason: "absorbed_mid_turn",
      }) + userLine("thanks"),
      { append: true },
    );
    const second = only(
      await parseClaudeTranscript(path, opts(resumeOptions(first))),
    );
    deepEqual(
      [...only(first).records, ...second.records].map((r) => r.text),
      ["deploy the thumbnails", "use the staging bucket", "thanks"],
    );
  });
});

Deno.test("parseClaudeTranscript() resumed at any line of a 2.1.29x session gives the records of one read", async () => {
  const full = only(
    await parseClaudeTranscript(PATH_HERON, opts({ source: source21 })),
  );
  const lines = (await Deno.readTextFile(PATH_HERON)).split("\n").slice(0, -1);
  const dir = await Deno.makeTempDir();
  const path = `${dir}/${HERON}.jsonl`;
  await Deno.mkdir(`${dir}/${HERON}/tool-results`, { recursive: true });
  await Deno.copyFile(
    `${PROJECTS_21}/${HERON}/tool-results/toolu_h_bash1.txt`,
    `${dir}/${HERON}/tool-results/toolu_h_bash1.txt`,
  );
  const key = (r: SessionRecord) => [r.seq, r.role, r.text, r.tool, r.exitCode];
  for (let k = 1; k < lines.length; k++) {
    await Deno.writeTextFile(path, lines.slice(0, k).join("\n") + "\n");
    const head = await parseClaudeTranscript(path, opts());
    await Deno.writeTextFile(path, lines.slice(k).join("\n") + "\n", {
      append: true,
    });
    const tail = await parseClaudeTranscript(
      path,
      opts(resumeOptions(head)),
    );
    const records = [...head.sessions, ...tail.sessions].flatMap((s) =>
      s.records
    );
    // An exit code learned later is set by the index on the earlier record.
    for (const late of tail.lateExitCodes ?? []) {
      const command = records.find((r) => r.seq === late.seq);
      if (command) command.exitCode = late.exitCode;
    }
    deepEqual(
      records.map(key),
      full.records.map(key),
      `split at line ${k + 1}`,
    );
  }
});

Deno.test("parseClaudeTranscript() reads a large tool result from the session's tool-results/ file", async (t) => {
  await t.step("the saved file replaces the preview", async () => {
    const s = only(
      await parseClaudeTranscript(PATH_HERON, opts({ source: source21 })),
    );
    const [saved, gone] = byRole(s, "tool-output");
    ok(saved?.text.startsWith("Exit code 1\nok heron-import/case_000\n"));
    ok(
      saved?.text.includes(
        "FAIL heron-import/replay: kittiwake checksum mismatch at row 5512",
      ),
    );
    ok(!saved?.text.includes("<persisted-output>"));
    deepEqual(saved?.flags, { isError: true });
    equal(byRole(s, "command")[0]?.exitCode, 1);
    // Its file is gone: the preview is what there is, less its last word
    // (cut at a byte count, it may be half a token), flagged truncated.
    ok(gone?.text.includes("src/import/osprey.ts:12: const wren = "));
    ok(!gone?.text.includes("loadWren()"));
    equal(gone?.flags?.truncated, true);
    ok(gone?.text.includes("<persisted-output>"));
  });
  const persisted = (named: string) =>
    userLine([{
      type: "tool_result",
      tool_use_id: "toolu_big",
      content:
        `<persisted-output>\nOutput too large (2.1MB). Full output saved to: ${named}\n\nPreview (first 2KB):\nline 0 of the preview\nexport GH=ghp_wuKM8KtlOKsB\n...\n</persisted-output>`,
    }]);
  await t.step(
    "a file past the output cap is read at its two ends",
    async () => {
      const path = await tempFile("proj/s9.jsonl", persisted("/x/big.txt"));
      const lines = Array.from(
        { length: 60_000 },
        (_, i) => `line ${i} of the output: ${"·".repeat(i % 40)}`,
      );
      await Deno.mkdir(path.replace(/\.jsonl$/, "/tool-results"), {
        recursive: true,
      });
      await Deno.writeTextFile(
        path.replace(/\.jsonl$/, "/tool-results/big.txt"),
        lines.join("\n") + "\nlast line: snipe overflow\n",
      );
      const s = only(await parseClaudeTranscript(path, opts()));
      const out = byRole(s, "tool-output")[0];
      ok(out?.text.startsWith("line 0 of the output: \n"));
      ok(out?.text.endsWith("last line: snipe overflow"));
      ok(/\n\[… \d+ bytes …\]\nline \d+ of the output/.test(out?.text ?? ""));
      ok((out?.text.length ?? 0) <= MAX_OUTPUT_CHARS + 64);
      equal(out?.flags?.truncated, true);
    },
  );
  await t.step("only the session's own folder is read", async () => {
    const dir = await Deno.makeTempDir();
    await Deno.writeTextFile(`${dir}/secret.txt`, "nightjar private notes");
    const path = await tempFile(
      "proj/s8.jsonl",
      persisted(`${dir}/secret.txt`) + persisted("../../secret.txt") +
        persisted("linked.txt"),
    );
    const tools = path.replace(/\.jsonl$/, "/tool-results");
    await Deno.mkdir(tools, { recursive: true });
    await Deno.symlink(`${dir}/secret.txt`, `${tools}/linked.txt`);
    const s = only(await parseClaudeTranscript(path, opts()));
    const texts = byRole(s, "tool-output").map((r) => r.text);
    equal(texts.length, 3);
    ok(texts.every((t) => t.includes("line 0 of the preview")));
    ok(texts.every((t) => !t.includes("nightjar")));
    // The preview was cut at a byte count: its last word may be half a
    // token, and goes.
    ok(texts.every((t) => !t.includes("ghp_wuKM8")), texts[0]);
    ok(texts.every((t) => t.includes("export ")));
  });
});

Deno.test("parseClaudeTranscript() titles a session by its custom title, else Claude's own, else its summary line, else the first prompt", async (t) => {
  await t.step("2.1.29x sessions", async () => {
    const named = only(
      await parseClaudeTranscript(PATH_HERON, opts({ source: source21 })),
    );
    equal(named.title, "Heron rows");
    const fork = only(
      await parseClaudeTranscript(PATH_HERON_FORK, opts({ source: source21 })),
    );
    equal(fork.title, "Lemming batch backfill");
  });
  const title = (type: string, text: string) =>
    line({
      type,
      sessionId: "s1",
      [type === "ai-title" ? "aiTitle" : "customTitle"]: text,
    });
  const cases: Array<[string, string, string]> = [
    [
      "Claude's title before the first prompt",
      title("ai-title", "Thumbnail deploy") + userLine("deploy the thumbnails"),
      "Thumbnail deploy",
    ],
    [
      "a custom title before Claude's",
      title("custom-title", "Thumbs") + title("ai-title", "Thumbnail deploy"),
      "Thumbs",
    ],
    [
      "the last custom title",
      title("custom-title", "Thumbs") + title("ai-title", "Thumbnail deploy") +
      title("custom-title", "Thumbs v2"),
      "Thumbs v2",
    ],
  ];
  for (const [name, text, expected] of cases) {
    await t.step(name, async () => {
      const path = await tempFile(
        "proj/s1.jsonl",
        userLine("deploy the thumbnails") + text,
      );
      equal(only(await parseClaudeTranscript(path, opts())).title, expected);
    });
  }
  // 1.x–2.0 title a session in `claude --resume` by its summary line.
  const leaf = "0b7e8a3c-5d1f-4e2a-9c6b-7d8e9f0a1b2c";
  const summary = (text: string, leafUuid = leaf) =>
    line({ type: "summary", summary: text, leafUuid });
  const asked = userLine("deploy the thumbnails", { uuid: leaf });
  const summaryCases: Array<[string, string, string]> = [
    [
      "a summary line before the prompt it sums up",
      summary("Thumbnail CDN deploy") + asked,
      "Thumbnail CDN deploy",
    ],
    [
      "the latest summary line",
      asked + summary("Thumbnail deploy") + summary("Thumbnail CDN deploy"),
      "Thumbnail CDN deploy",
    ],
    [
      "Claude's title before a summary",
      summary("Thumbnail CDN deploy") + asked +
      title("ai-title", "Thumbnail deploy"),
      "Thumbnail deploy",
    ],
    [
      "a custom title before a summary",
      title("custom-title", "Thumbs") + asked + summary("Thumbnail CDN deploy"),
      "Thumbs",
    ],
    [
      "not another session's summary",
      asked + summary("Kafka lag", "9f9f9f9f-0000-4000-8000-000000000000"),
      "deploy the thumbnails",
    ],
  ];
  for (const [name, text, expected] of summaryCases) {
    await t.step(name, async () => {
      const path = await tempFile("proj/s1.jsonl", text);
      equal(only(await parseClaudeTranscript(path, opts())).title, expected);
    });
  }
  await t.step(
    "a custom title read in an earlier pass still wins",
    async () => {
      const path = await tempFile(
        "proj/s1.jsonl",
        userLine("deploy the thumbnails") + title("custom-title", "Thumbs"),
      );
      const first = await parseClaudeTranscript(path, opts());
      await Deno.writeTextFile(path, title("ai-title", "Thumbnail deploy"), {
        append: true,
      });
      const second = await parseClaudeTranscript(
        path,
        opts(resumeOptions(first)),
      );
      equal(second.sessions.length, 0);
      equal((second.state as { titleFrom?: string }).titleFrom, "custom");
    },
  );
});

Deno.test("parseClaudeTranscript() reads a /branch fork as a fork of its source, without the copied turns", async () => {
  const s = only(
    await parseClaudeTranscript(PATH_HERON_FORK, opts({ source: source21 })),
  );
  equal(s.id, HERON_FORK);
  equal(s.parent, HERON);
  equal(s.lineage, "fork");
  equal(s.cwd, "/home/dev/heron-api");
  deepEqual(s.records.map((r) => r.text), [
    "forget the column change; try the lemming batch approach instead",
    "Switching to lemming batches of 5,000 rows.",
  ]);
  equal(s.started, Date.parse("2026-10-06T08:00:00.000Z"));
});

Deno.test("parseClaudeTranscript() keeps to-dos as the agent's plan and a fetched URL as a command", async (t) => {
  await t.step("2.1.29x session", async () => {
    const s = only(
      await parseClaudeTranscript(PATH_HERON, opts({ source: source21 })),
    );
    // The second TodoWrite call rewrites the list: only its new todo is added.
    deepEqual(
      s.records.filter((r) => r.tool === "TodoWrite" && r.role === "assistant")
        .map((r) => r.text),
      ["wire up the skua exporter", "backfill the tern rows"],
    );
    deepEqual(
      byRole(s, "command").filter((r) => r.tool?.startsWith("Web")).map((
        r,
      ) => [r.tool, r.text, r.exitCode]),
      [["WebFetch", "https://example.org/osprey-migration-notes", undefined]],
    );
    // A search's query is already the first line of its result.
    ok(
      byRole(s, "tool-output").some((r) =>
        r.tool === "WebSearch" &&
        r.text.startsWith(
          'Web search results for query: "postgres bigint row id migration"',
        )
      ),
    );
  });
  await t.step("a TaskCreate task", async () => {
    const path = await tempFile(
      "proj/s1.jsonl",
      line({
        type: "assistant",
        sessionId: "s1",
        message: {
          id: "msg_t",
          role: "assistant",
          content: [{
            type: "tool_use",
            id: "toolu_t1",
            name: "TaskCreate",
            input: {
              subject: "Rotate the curlew keys",
              description: "Both staging and prod",
              activeForm: "Rotating the curlew keys",
            },
          }],
        },
      }),
    );
    const s = only(await parseClaudeTranscript(path, opts()));
    deepEqual(s.records.map((r) => [r.role, r.tool, r.text]), [
      [
        "assistant",
        "TaskCreate",
        "Rotate the curlew keys\nBoth staging and prod",
      ],
    ]);
  });
});

Deno.test("parseClaudeTranscript() reads a turn of unclosed tags in linear time", async () => {
  // Each lazy tag regex tried every later unclosed open again: 400 KB of
  // them took ~30 s to read, a few MB hours (an index pass that never ends).
  const soup = (tag: string) => `<${tag}>`.repeat(400_000 / (tag.length + 2));
  const path = await tempFile(
    "f0220000-0000-4000-8000-000000000009.jsonl",
    userLine(`<command-args>x</command-args>${soup("command-name")}`) +
      userLine(`${soup("ide_selection")} said`) +
      line({
        type: "assistant",
        uuid: "a1",
        message: {
          id: "m1",
          role: "assistant",
          content: [{ type: "tool_use", id: "t1", name: "Read", input: {} }],
        },
      }) +
      userLine([{
        type: "tool_result",
        tool_use_id: "t1",
        content: `${soup("system-reminder")} out`,
      }]) + userLine("the last words"),
  );
  const t0 = performance.now();
  const session = only(await parseClaudeTranscript(path, opts()));
  ok(performance.now() - t0 < 3000, `${performance.now() - t0} ms`);
  equal(session.records.at(-1)?.text, "the last words");
});

const HOME_10 = fileURLToPath(
  new URL("../../fixtures/claude-1.0", import.meta.url),
);
const LEDGER = "5b7e2d90-3c41-4f8a-9e26-b1d0c4a7f318";
const PATH_LEDGER =
  `${HOME_10}/.claude/projects/-home-dev-ledger/${LEDGER}.jsonl`;

Deno.test("parseClaudeTranscript() reads what 1.0.x–2.0 write around a conversation as what it is", async (t) => {
  const result = await parseClaudeTranscript(
    PATH_LEDGER,
    opts({ source: { home: HOME_10, env: {}, os: "linux" } }),
  );
  equal(result.skipped, 0);
  const s = only(result);
  const texts = (role: string) => byRole(s, role).map((r) => r.text);
  await t.step("a line written again with its uuid is read once", () => {
    // An IDE reopening the session appends earlier lines again.
    deepEqual(texts("user"), [
      "the CSV export crashes on Feb 29, can you look?",
      "thanks, ship it",
    ]);
    equal(
      texts("tool-output").filter((x) => x.startsWith("Exit code 1")).length,
      1,
    );
  });
  await t.step(
    "a block a later line of its message repeats is read once",
    () => {
      deepEqual(texts("assistant"), [
        "I'll run the export test first.",
        // The command's description, once though the block is repeated.
        "Run the export test",
        "Fixed: toIso now builds the date with Date.UTC.",
      ]);
      equal(
        texts("command").filter((x) => x === "deno test export_test.ts").length,
        1,
      );
    },
  );
  await t.step(
    "hook output, a command's stderr and a skill body are no one's words",
    () => {
      const all = s.records.map((r) => r.text).join("\n");
      for (
        const dropped of [
          "branch main",
          "settings.json line 3",
          "Base directory",
          "Always build dates",
          "dates are UTC",
        ]
      ) {
        ok(!all.includes(dropped), `"${dropped}" should not be indexed`);
      }
      const hook = byRole(s, "tool-output").find((r) => r.tool === "hook");
      equal(
        hook?.text,
        "[~/.claude/hooks/require-tests.sh]: run deno test before stopping",
      );
    },
  );
  await t.step("a compaction summary without its flag is a summary", () => {
    const compaction = texts("summary").find((x) => x.startsWith("Analysis:"));
    ok(compaction?.includes("fix the leap-day crash in toIso"));
  });
  await t.step(
    "a summary line is kept once the message it names is read",
    () => {
      // The other one names a message of another session: 1.x wrote it here.
      deepEqual(texts("summary").map((x) => x.split("\n")[0]), [
        "Analysis:",
        "Ledger CSV export fails on leap days",
      ]);
      const kept = byRole(s, "summary")[1];
      equal(kept?.locator.line, 1);
    },
  );
  await t.step("an interrupted command has no exit code", () => {
    const tail = byRole(s, "command").find((r) => r.text.startsWith("tail"));
    ok(tail);
    equal(tail.exitCode, undefined);
  });
  await t.step(
    "a command left running has the exit code its task ends with",
    () => {
      // From a task notification (2.1), BashOutput (2.0) or TaskOutput (2.1).
      deepEqual(byRole(s, "command").map((r) => [r.text, r.exitCode]), [
        ["deno test export_test.ts", 1],
        ["deno task serve", 2],
        ["tail -f logs/export.log", undefined],
        ["deno lint", 0],
        ["deno task check-dates", 0],
      ]);
      const note = byRole(s, "tool-output").find((r) =>
        r.tool === "task-notification"
      );
      equal(note?.flags?.isError, true);
    },
  );
});

Deno.test("parseClaudeTranscript() resumed at any line of a replaying session gives the records of one read", async () => {
  const full = only(await parseClaudeTranscript(PATH_LEDGER, opts()));
  const lines = (await Deno.readTextFile(PATH_LEDGER)).split("\n").slice(0, -1);
  const path = await tempFile(`${LEDGER}.jsonl`, "");
  const key = (r: SessionRecord) => [r.seq, r.role, r.text, r.tool, r.exitCode];
  for (let k = 1; k < lines.length; k++) {
    await Deno.writeTextFile(path, lines.slice(0, k).join("\n") + "\n");
    const head = await parseClaudeTranscript(path, opts());
    await Deno.writeTextFile(path, lines.slice(k).join("\n") + "\n", {
      append: true,
    });
    const tail = await parseClaudeTranscript(path, opts(resumeOptions(head)));
    const records = [...head.sessions, ...tail.sessions].flatMap((s) =>
      s.records
    );
    for (const late of tail.lateExitCodes ?? []) {
      const command = records.find((r) => r.seq === late.seq);
      if (command) command.exitCode = late.exitCode;
    }
    deepEqual(
      records.map(key),
      full.records.map(key),
      `split at line ${k + 1}`,
    );
  }
});

Deno.test("parseClaudeTranscript() reads another agent's message to a teammate as its output, not a person's words", async () => {
  const path = await tempFile(
    "s1.jsonl",
    userLine(
      '<teammate-message teammate_id="team-lead" color="blue" summary="task 2">\nClaim task #2 and write the wiki page.\n</teammate-message>',
    ) +
      userLine(
        'Another Claude session sent a message:\n<teammate-message teammate_id="reviewer">\nfindings: none\n</teammate-message>',
      ) +
      userLine("which tasks are left?"),
  );
  const s = only(await parseClaudeTranscript(path, opts()));
  deepEqual(s.records.map((r) => [r.role, r.text, r.tool]), [
    [
      "tool-output",
      "Claim task #2 and write the wiki page.",
      "teammate-message",
    ],
    ["tool-output", "findings: none", "teammate-message"],
    ["user", "which tasks are left?", undefined],
  ]);
  equal(s.title, "which tasks are left?");
});

Deno.test("parseClaudeTranscript() records an absorbed prompt's attachment written again once", async () => {
  const attachment = queuedLine("also update the changelog");
  const path = await tempFile(
    "s1.jsonl",
    userLine("bump the version") + attachment +
      queueLine("remove", "also update the changelog", {
        reason: "absorbed_mid_turn",
      }) +
      line({
        type: "assistant",
        sessionId: "s1",
        timestamp: "2026-11-02T10:00:09Z",
        uuid: crypto.randomUUID(),
        message: { role: "assistant", content: "Bumped, changelog too." },
      }) +
      // An IDE reopening the session writes the attachment again.
      attachment + userLine("thanks"),
  );
  const s = only(await parseClaudeTranscript(path, opts()));
  deepEqual(byRole(s, "user").map((r) => r.text), [
    "bump the version",
    "also update the changelog",
    "thanks",
  ]);
});

const HOME_REWIND = fileURLToPath(
  new URL("../../fixtures/claude-rewind", import.meta.url),
);
const KESTREL = "7e3a9c51-0b2d-4f86-a1c4-5d9e8f2b6a70";
const PATH_KESTREL =
  `${HOME_REWIND}/.claude/projects/-home-dev-kestrel/${KESTREL}.jsonl`;

/** The texts of a session's records that its marks supersede, in order. */
function supersededTexts(session: Session): string[] {
  return session.records
    .filter((r) => isSuperseded(r.seq, session.marks))
    .map((r) => r.text);
}

Deno.test("parseClaudeTranscript() supersedes the turns an edited prompt and a /rewind abandoned, not the branch that replaced them", async () => {
  const [session, side] = (await parseClaudeTranscript(PATH_KESTREL, opts()))
    .sessions as [Session, Session];
  deepEqual(new Set(session.marks.map((m) => m.kind)), new Set(["rewind"]));
  deepEqual(supersededTexts(session), [
    // Prompt 2, edited and sent again: its whole first turn.
    "now make the backoff jittered",
    "Using full jitter: sleep a random time up to base times two to the attempt.",
    "deno test src/upload_test.ts --filter fulljitter",
    "ok | 3 passed | 0 failed (fulljitter)",
    "Full jitter is in and the upload tests pass.",
    // Prompt 4, taken back by /rewind after the compaction.
    "run the whole kestrel test suite",
    "deno task test",
    "Exit code 1\nFAILED src/upload_test.ts > retries on 503 (gannet timeout)",
    "One failure: the 503 retry case times out in the gannet fake.",
  ]);
  const current = session.records.filter((r) =>
    !isSuperseded(r.seq, session.marks)
  );
  const said = current.map((r) => r.text);
  // Both results of the parallel calls point at their own call, not at the
  // line before them: still the conversation.
  ok(
    said.includes(
      "src/net.ts:14:export async function withRetry(fn, attempts) {",
    ),
  );
  ok(
    said.includes(
      "export async function upload(chunk) {\n  await put(chunk);\n}",
    ),
  );
  // The branches that replaced them, the side chain and the compaction.
  ok(said.includes("make the backoff use decorrelated jitter instead"));
  ok(said.includes("run only the upload tests"));
  ok(said.includes("All four upload tests pass."));
  // The side chain is its own sub-agent session.
  equal(current.filter((r) => r.flags?.subagent).length, 0);
  equal(side.parent, KESTREL);
  equal(side.records.length, 4);
  equal(current.filter((r) => r.role === "summary").length, 1);
});

Deno.test("parseClaudeTranscript() resumed at any line of a rewound session, and again a line later, supersedes what one read does", async () => {
  const [full, side] = (await parseClaudeTranscript(PATH_KESTREL, opts()))
    .sessions as [Session, Session];
  const superseded = (records: SessionRecord[], marks: Mark[]) =>
    records.filter((r) => isSuperseded(r.seq, marks)).map((r) => r.seq);
  const want = superseded(full.records, full.marks);
  equal(want.length, 9);
  const lines = (await Deno.readTextFile(PATH_KESTREL)).split("\n").slice(
    0,
    -1,
  );
  const path = await tempFile(`${KESTREL}.jsonl`, "");
  const key = (r: SessionRecord) => [r.seq, r.role, r.text];
  for (let k = 1; k < lines.length; k++) {
    // Three passes: the lines before k, line k alone (a rewind's first line
    // may add no record), then the rest.
    await Deno.writeTextFile(path, lines.slice(0, k).join("\n") + "\n");
    const passes = [await parseClaudeTranscript(path, opts())];
    for (const part of [lines.slice(k, k + 1), lines.slice(k + 1)]) {
      await Deno.writeTextFile(path, part.map((l) => l + "\n").join(""), {
        append: true,
      });
      const last = passes.at(-1) as ParseResult;
      passes.push(await parseClaudeTranscript(path, opts(resumeOptions(last))));
    }
    const all = passes.flatMap((p) => p.sessions);
    deepEqual(
      all.filter((s) => s.id === side.id).flatMap((s) => s.records).map(key),
      side.records.map(key),
      `side chain split at line ${k + 1}`,
    );
    const sessions = all.filter((s) => s.id === KESTREL);
    const records = sessions.flatMap((s) => s.records);
    deepEqual(
      records.map(key),
      full.records.map(key),
      `split at line ${k + 1}`,
    );
    deepEqual(
      superseded(records, sessions.flatMap((s) => s.marks)),
      want,
      `marks split at line ${k + 1}`,
    );
  }
});

Deno.test("parseClaudeTranscript() tells a rewind from lines whose parent is not the line before", async (t) => {
  /** A main-chain line of session s1 with this uuid and parent. */
  const node = (
    type: string,
    uuid: string,
    parentUuid: string | null,
    extra: Record<string, unknown> = {},
  ) =>
    line({
      type,
      sessionId: "s1",
      uuid,
      parentUuid,
      isSidechain: false,
      ...extra,
    });
  const id = (n: number) =>
    `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
  const prompt = (n: number, parent: number | null, text: string) =>
    node("user", id(n), parent === null ? null : id(parent), {
      message: { role: "user", content: text },
    });
  const reply = (n: number, parent: number, text: string) =>
    node("assistant", id(n), id(parent), {
      message: {
        id: `msg_${n}`,
        role: "assistant",
        content: [{ type: "text", text }],
      },
    });
  const parse = async (text: string) =>
    only(await parseClaudeTranscript(await tempFile("s1.jsonl", text), opts()));

  await t.step(
    "a resumed session's first lines point into another file",
    async () => {
      const session = await parse(
        prompt(1, 900, "pick up the gannet fix") + reply(2, 1, "Resuming.") +
          prompt(3, 2, "add the 503 case") + reply(4, 3, "Added.") +
          prompt(5, 2, "add the 429 case instead") + reply(6, 5, "Added 429."),
      );
      deepEqual(supersededTexts(session), ["add the 503 case", "Added."]);
    },
  );

  await t.step(
    "a progress or system line between turns is still the chain",
    async () => {
      const session = await parse(
        node("progress", id(1), null, { data: { type: "hook_progress" } }) +
          prompt(2, 1, "first ask") + reply(3, 2, "First answer.") +
          node("system", id(4), id(3), { subtype: "turn_duration" }) +
          prompt(5, 4, "second ask") + reply(6, 5, "Second answer.") +
          // Edited first prompt: the same parent as the first one had.
          prompt(7, 1, "first ask, reworded") + reply(8, 7, "Reworded answer."),
      );
      deepEqual(supersededTexts(session), [
        "first ask",
        "First answer.",
        "second ask",
        "Second answer.",
      ]);
    },
  );

  await t.step("a rewind to the very start writes a new root", async () => {
    const session = await parse(
      prompt(1, null, "rename the bucket") + reply(2, 1, "Renamed.") +
        prompt(3, null, "rename the bucket to kestrel-eu") +
        reply(4, 3, "Renamed to kestrel-eu."),
    );
    deepEqual(supersededTexts(session), ["rename the bucket", "Renamed."]);
  });

  await t.step(
    "a compaction summary written as a new root is no rewind",
    async () => {
      // 1.0.x started the summary of a compacted conversation as a new root,
      // flagged `isCompactSummary` or, before that, unflagged.
      const said =
        "This session is being continued from a previous conversation that ran out of context. Summary: the bucket was renamed.";
      const summary = (n: number, flagged: boolean) =>
        node("user", id(n), null, {
          ...(flagged ? { isCompactSummary: true } : {}),
          message: {
            role: "user",
            content: flagged ? [{ type: "text", text: said }] : said,
          },
        });
      const session = await parse(
        prompt(1, null, "rename the bucket") + reply(2, 1, "Renamed.") +
          summary(3, true) + prompt(4, 3, "add a lifecycle rule") +
          reply(5, 4, "Added.") + summary(6, false) +
          prompt(7, 6, "tag the bucket") + reply(8, 7, "Tagged.") +
          prompt(9, 6, "tag the bucket with its team") +
          reply(10, 9, "Tagged with its team."),
      );
      deepEqual(supersededTexts(session), ["tag the bucket", "Tagged."]);
    },
  );

  await t.step("lines written again keep their place", async () => {
    // An IDE reopening the session writes its lines again, from the root.
    const first = prompt(1, null, "tidy the imports") +
      reply(2, 1, "Tidied.");
    const session = await parse(
      first + first + prompt(3, 2, "now sort them") + reply(4, 3, "Sorted.") +
        prompt(5, 2, "now group them") + reply(6, 5, "Grouped."),
    );
    deepEqual(supersededTexts(session), ["now sort them", "Sorted."]);
  });

  await t.step("a sub-agent file has no rewinds", async () => {
    const dir = await Deno.makeTempDir();
    const path = `${dir}/projects/-home-a-proj/s1/subagents/agent-a1.jsonl`;
    await Deno.mkdir(`${dir}/projects/-home-a-proj/s1/subagents`, {
      recursive: true,
    });
    await Deno.writeTextFile(
      path,
      prompt(1, 800, "find the logger") + reply(2, 1, "In log.ts.") +
        prompt(3, 1, "find the logger again") + reply(4, 3, "Still log.ts.") +
        prompt(5, 2, "thanks") +
        prompt(6, 2, "and the config?") + reply(7, 6, "In config.ts."),
    );
    const session = only(await parseClaudeTranscript(path, opts()));
    deepEqual(session.marks, []);
  });
});

Deno.test("parseClaudeTranscript() does not claim a refused or failed Edit changed the file", async (t) => {
  const rejected =
    "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.";
  const edit = (id: string, old: string) =>
    line({
      type: "assistant",
      sessionId: "s1",
      timestamp: "2026-11-02T10:00:05Z",
      message: {
        id: `msg_${id}`,
        role: "assistant",
        content: [{
          type: "tool_use",
          id,
          name: "Edit",
          input: {
            file_path: "/home/a/proj/cache.ts",
            old_string: old,
            new_string: "x",
          },
        }],
      },
    });
  const result = (id: string, content: string, extra = {}) =>
    userLine([{ type: "tool_result", tool_use_id: id, content, ...extra }], {
      timestamp: "2026-11-02T10:00:09Z",
    });
  const head = userLine("tidy the cache") + edit("toolu_e1", "const TTL = 5");
  const cases: Array<[string, string, string[]]> = [
    [
      "refused",
      result("toolu_e1", rejected, { is_error: true }),
      ["const TTL = 5"],
    ],
    [
      "refused, said only by toolUseResult",
      line({
        type: "user",
        sessionId: "s1",
        uuid: crypto.randomUUID(),
        toolUseResult: "User rejected tool use",
        message: {
          role: "user",
          content: [{
            type: "tool_result",
            tool_use_id: "toolu_e1",
            content: rejected,
          }],
        },
      }),
      ["const TTL = 5"],
    ],
    [
      "failed",
      result(
        "toolu_e1",
        "<tool_use_error>String to replace not found in file.</tool_use_error>",
        {
          is_error: true,
        },
      ),
      ["const TTL = 5"],
    ],
    [
      "applied",
      result("toolu_e1", "The file /home/a/proj/cache.ts has been updated."),
      [],
    ],
  ];
  for (const [name, tail, notApplied] of cases) {
    await t.step(`${name}, in one pass and across two`, async () => {
      const path = await tempFile(
        `proj/edit-${name.replaceAll(/\W+/g, "-")}.jsonl`,
        head + tail,
      );
      const s = only(await parseClaudeTranscript(path, opts()));
      deepEqual(
        supersededTexts(s).map((t) => t.split("\n").at(-1)),
        notApplied,
      );
      if (notApplied.length > 0) {
        deepEqual(s.marks.map((m) => m.kind), ["not-applied"]);
        equal(byRole(s, "tool-output")[0]?.flags?.isError, true);
      }
      // The call written by one pass, its result read by the next.
      await Deno.writeTextFile(path, head);
      const first = await parseClaudeTranscript(path, opts());
      await Deno.writeTextFile(path, head + tail);
      const next = only(
        await parseClaudeTranscript(path, opts(resumeOptions(first))),
      );
      const edits = byRole(only(first), "edit");
      equal(edits.length, 1);
      deepEqual(
        edits.filter((r) => isSuperseded(r.seq, next.marks)).length,
        notApplied.length,
      );
    });
  }
});

Deno.test("parseClaudeTranscript() reads 2.1's flagged Stop hook feedback, system-queued prompts and @-mentioned files as what they are", async () => {
  const attachment = (
    attachment: Record<string, unknown>,
    at: string,
  ): string =>
    line({
      type: "attachment",
      sessionId: "s1",
      cwd: "/home/a/proj",
      timestamp: `2026-11-02T10:00:${at}Z`,
      uuid: crypto.randomUUID(),
      attachment,
    });
  const text = [
    userLine("why does @src/clock.ts drift, see @docs/clock-spec.pdf"),
    // The files the person @-mentioned, read for the agent.
    attachment({
      type: "file",
      filename: "/home/a/proj/src/clock.ts",
      content: {
        type: "text",
        file: { filePath: "/home/a/proj/src/clock.ts", content: "tick()" },
      },
      displayPath: "src/clock.ts",
    }, "01"),
    attachment({
      type: "pdf_reference",
      filename: "/home/a/proj/docs/clock-spec.pdf",
      pageCount: 40,
      fileSize: 120000,
      displayPath: "docs/clock-spec.pdf",
    }, "02"),
    // Harness reminders name no file anyone pointed at.
    attachment({
      type: "plan_mode",
      reminderType: "full",
      planFilePath: "/home/a/.claude/plans/p.md",
      planExists: false,
    }, "03"),
    line({
      type: "assistant",
      sessionId: "s1",
      timestamp: "2026-11-02T10:00:04Z",
      uuid: crypto.randomUUID(),
      message: {
        id: "msg_1",
        role: "assistant",
        content: [{ type: "text", text: "The tick rounds down." }],
      },
    }),
    // 2.1 flags the Stop hook's feedback `isMeta`: still what it printed.
    userLine(
      "Stop hook feedback:\n[~/.claude/hooks/verify.sh]: 2 clock tests fail",
      {
        isMeta: true,
        timestamp: "2026-11-02T10:00:05Z",
      },
    ),
    // A prompt the harness queued itself (a scheduled one) is no one's words;
    // one the person typed is.
    attachment({
      type: "queued_command",
      prompt: "check whether the nightly clock job passed",
      commandMode: "prompt",
      isMeta: true,
    }, "06"),
    attachment({
      type: "queued_command",
      prompt: "also keep the leap-second path",
      commandMode: "prompt",
      origin: { kind: "human" },
    }, "07"),
  ].join("");
  const path = await tempFile("proj/claude-2-1-attachments.jsonl", text);
  const s = only(await parseClaudeTranscript(path, opts()));
  deepEqual(
    s.records.map((r) => [r.role, r.text, r.tool]),
    [
      [
        "user",
        "why does @src/clock.ts drift, see @docs/clock-spec.pdf",
        undefined,
      ],
      ["files", "/home/a/proj/src/clock.ts", "mention"],
      ["files", "/home/a/proj/docs/clock-spec.pdf", "mention"],
      ["assistant", "The tick rounds down.", undefined],
      [
        "tool-output",
        "[~/.claude/hooks/verify.sh]: 2 clock tests fail",
        "hook",
      ],
      ["user", "also keep the leap-second path", undefined],
    ],
  );
});

Deno.test("parseClaudeTranscript() keeps the advisor's advice (a server tool's result in an assistant line) as its output", async () => {
  const assistant = (id: string, content: unknown[], at: string): string =>
    line({
      type: "assistant",
      sessionId: "s1",
      timestamp: `2026-11-02T10:00:${at}Z`,
      uuid: crypto.randomUUID(),
      message: { id, role: "assistant", content },
    });
  // A new line (its own uuid) each time: a block streamed again.
  const advice = () =>
    assistant("msg_a", [{
      type: "advisor_tool_result",
      tool_use_id: "srvtoolu_1",
      content: {
        type: "advisor_result",
        text: "Write-back loses data on crash; go write-through.",
      },
    }], "02");
  const text = [
    userLine("should the otter cache be write-through?"),
    assistant("msg_a", [
      { type: "server_tool_use", id: "srvtoolu_1", name: "advisor", input: {} },
    ], "01"),
    advice(),
    // The same block streamed again is read once.
    advice(),
    assistant("msg_a", [{ type: "text", text: "Going write-through." }], "03"),
    assistant("msg_b", [
      { type: "server_tool_use", id: "srvtoolu_2", name: "advisor", input: {} },
      {
        type: "advisor_tool_result",
        tool_use_id: "srvtoolu_2",
        content: { type: "advisor_redacted_result", encrypted_content: "EqQ" },
      },
      {
        type: "advisor_tool_result",
        tool_use_id: "srvtoolu_3",
        content: {
          type: "advisor_tool_result_error",
          error_code: "overloaded",
        },
      },
    ], "04"),
  ].join("");
  const path = await tempFile("proj/claude-advisor.jsonl", text);
  const s = only(await parseClaudeTranscript(path, opts()));
  deepEqual(
    s.records.map((r) => [r.role, r.text, r.tool, r.flags?.isError]),
    [
      [
        "user",
        "should the otter cache be write-through?",
        undefined,
        undefined,
      ],
      [
        "tool-output",
        "Write-back loses data on crash; go write-through.",
        "advisor",
        undefined,
      ],
      ["assistant", "Going write-through.", undefined, undefined],
      ["tool-output", "overloaded", "advisor", true],
    ],
  );
});

/** An assistant line holding one tool call. */
function callLine(
  id: string,
  name: string,
  input: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): string {
  return line({
    type: "assistant",
    sessionId: "s1",
    timestamp: "2026-11-02T10:00:05Z",
    uuid: crypto.randomUUID(),
    message: {
      id: `msg_${id}`,
      role: "assistant",
      content: [{ type: "tool_use", id, name, input }],
    },
    ...extra,
  });
}

/** A user line holding one tool call's result. */
function resultLine(id: string, content: unknown): string {
  return userLine([{ type: "tool_result", tool_use_id: id, content }]);
}

Deno.test("parseClaudeTranscript() keeps a step's description as the agent's words before its command, each once", async (t) => {
  const text = userLine("let the dev user run docker") +
    callLine("toolu_1", "Bash", {
      command: "net localgroup docker-users dev /add",
      description: "Add the dev user to the docker-users group",
    }) +
    resultLine("toolu_1", "Exit code 2\nSystem error 5 has occurred.");
  const retried = text +
    // The same step tried again carries the same label.
    callLine("toolu_2", "Bash", {
      command: "sudo net localgroup docker-users dev /add",
      description: "Add the dev user to the docker-users group",
    }) +
    resultLine("toolu_2", "The command completed successfully.") +
    callLine("toolu_3", "Bash", { command: "whoami" }) +
    callLine("toolu_4", "Task", {
      description: "Find the devcontainer configs",
      prompt: "Search the home folder for devcontainer.json files",
      subagent_type: "Explore",
    }) +
    resultLine("toolu_4", "Found 2 devcontainer.json files");
  const want = [
    ["user", "let the dev user run docker", undefined],
    ["assistant", "Add the dev user to the docker-users group", "Bash"],
    ["command", "net localgroup docker-users dev /add", "Bash"],
    ["tool-output", "Exit code 2\nSystem error 5 has occurred.", "Bash"],
    ["command", "sudo net localgroup docker-users dev /add", "Bash"],
    ["tool-output", "The command completed successfully.", "Bash"],
    ["command", "whoami", "Bash"],
    ["assistant", "Find the devcontainer configs", "Task"],
    ["tool-output", "Found 2 devcontainer.json files", "Task"],
  ];
  const path = await tempFile("proj/step-labels.jsonl", retried);
  await t.step("one pass", async () => {
    const s = only(await parseClaudeTranscript(path, opts()));
    deepEqual(s.records.map((r) => [r.role, r.text, r.tool]), want);
    // The command's own text and exit code are untouched.
    equal(byRole(s, "command")[0]?.exitCode, 2);
    equal(s.title, "let the dev user run docker");
  });
  await t.step("resumed after every line", async () => {
    const lines = retried.split("\n").slice(0, -1);
    const cut = await tempFile("proj/cut/step-labels.jsonl", "");
    for (let k = 1; k < lines.length; k++) {
      await Deno.writeTextFile(cut, lines.slice(0, k).join("\n") + "\n");
      const first = await parseClaudeTranscript(cut, opts());
      await Deno.writeTextFile(cut, retried);
      const next = await parseClaudeTranscript(cut, opts(resumeOptions(first)));
      deepEqual(
        [...first.sessions, ...next.sessions].flatMap((s) => s.records)
          .map((r) => [r.role, r.text, r.tool]),
        want,
        `split at line ${k + 1}`,
      );
    }
  });
});

Deno.test("parseClaudeTranscript() keeps a hook's feedback inside a system reminder as hook output", async (t) => {
  const reminder = (body: string) =>
    `<system-reminder>\n${body}\n</system-reminder>`;
  const compile =
    "PostToolUse:Edit hook additional context: [COMPILE ERROR]\nCompiling 1 file (.ex)\n     error: undefined function fetch_rows/2\n     └─ lib/otter/cache.ex:31";
  const lint =
    "PostToolUse:Write hook additional context: [CREDO]\n[R] → lib/otter/cache.ex:12 Modules should have a @moduledoc tag.";
  const blocked =
    'PreToolUse:Bash hook blocking error from command: "~/.claude/hooks/no-force.sh": force pushes are not allowed';
  const cases: Array<
    [
      string,
      string,
      Array<[string, string, string | undefined, boolean | undefined]>,
    ]
  > = [
    [
      "2.1's flagged line: an error",
      userLine(reminder(compile), { isMeta: true }),
      [["tool-output", compile, "hook", true]],
    ],
    [
      "feedback that names no error",
      userLine(reminder(lint), { isMeta: true }),
      [["tool-output", lint, "hook", undefined]],
    ],
    [
      "a blocking error",
      userLine(reminder(blocked), { isMeta: true }),
      [["tool-output", blocked, "hook", true]],
    ],
    [
      "inside a person's turn, which stays their words",
      userLine(`${reminder(compile)}\nwhy does the cache not compile?`),
      [
        ["user", "why does the cache not compile?", undefined, undefined],
        ["tool-output", compile, "hook", true],
      ],
    ],
    [
      "inside a tool result, after the tool's own output",
      callLine("toolu_e", "Edit", {
        file_path: "/home/a/proj/lib/otter/cache.ex",
        old_string: "fetch_row(",
        new_string: "fetch_rows(",
      }) +
      resultLine(
        "toolu_e",
        `The file has been updated.\n${reminder(compile)}`,
      ),
      [
        ["files", "/home/a/proj/lib/otter/cache.ex", "Edit", undefined],
        [
          "edit",
          "/home/a/proj/lib/otter/cache.ex\nfetch_row(",
          "Edit",
          undefined,
        ],
        ["tool-output", "The file has been updated.", "Edit", undefined],
        ["tool-output", compile, "hook", true],
      ],
    ],
    [
      "ordinary reminders and a prompt hook's context stay out",
      userLine(
        reminder(
          "The TodoWrite tool hasn't been used recently. Consider using it.",
        ),
        { isMeta: true },
      ) +
      userLine(
        reminder(
          "Note: /home/a/proj/lib/otter/cache.ex was modified, either by the user or by a linter.",
        ),
        { isMeta: true },
      ) +
      userLine(
        reminder(
          "UserPromptSubmit hook additional context: the otter cache lives in lib/otter",
        ),
        { isMeta: true },
      ) +
      userLine(
        reminder(
          "SessionStart:startup hook success: loaded 3 project rules",
        ),
        { isMeta: true },
      ) +
      userLine(
        `${
          reminder("As you answer, note: a hook error is not yours")
        }\nship it`,
      ),
      [["user", "ship it", undefined, undefined]],
    ],
  ];
  for (const [name, text, want] of cases) {
    await t.step(name, async () => {
      const path = await tempFile(
        `proj/hook-${name.replaceAll(/\W+/g, "-")}.jsonl`,
        text,
      );
      const s = only(await parseClaudeTranscript(path, opts()));
      deepEqual(
        s.records.map((r) => [r.role, r.text, r.tool, r.flags?.isError]),
        want,
      );
    });
  }
});

Deno.test("parseClaudeTranscript() titles a session by its request, never by an answer to the agent's question", async (t) => {
  const command = (name: string, args: string) =>
    userLine(
      `<command-message>${name}</command-message>\n<command-name>/${name}</command-name>\n<command-args>${args}</command-args>`,
    );
  const asked = callLine("toolu_q", "AskUserQuestion", {
    questions: [{ question: "Which rig?" }],
  }) +
    resultLine(
      "toolu_q",
      'User has answered your questions: "Which rig do these beads belong to?"="No rig". You can now continue with the user\'s answers in mind.',
    );
  const cases: Array<[string, string, string | undefined]> = [
    [
      "a slash command with a request, then an answer",
      command(
        "beads:create",
        "websearch how to set up credo and dialyzer",
      ) + asked,
      "/beads:create websearch how to set up credo and dialyzer",
    ],
    ["only an answer", asked, undefined],
    [
      "a plain first prompt still titles",
      userLine("set up credo for the otter app") + asked +
      command("beads:create", "from the plan"),
      "set up credo for the otter app",
    ],
    [
      "a plain prompt after the command titles",
      command("review", "the auth module") + asked +
      userLine("the login page throws on submit"),
      "the login page throws on submit",
    ],
    [
      "a given title still wins",
      command("beads:create", "from the plan") + asked +
      line({ type: "ai-title", aiTitle: "Beads for linting", sessionId: "s1" }),
      "Beads for linting",
    ],
  ];
  for (const [name, text, title] of cases) {
    await t.step(name, async () => {
      const path = await tempFile(
        `proj/title-${name.replaceAll(/\W+/g, "-")}.jsonl`,
        text,
      );
      const s = only(await parseClaudeTranscript(path, opts()));
      equal(s.title, title);
      // The answer is still kept as the person's words.
      ok(
        byRole(s, "user").some((r) =>
          r.text === "Which rig do these beads belong to? → No rig"
        ),
      );
    });
  }
});

Deno.test({
  name:
    "parseClaudeTranscript() keeps the real samples' step labels and hook feedback, and titles by the request",
  ignore: !hasSamples("claude-code"),
  fn: async () => {
    const read = async (rel: string) =>
      (await parseClaudeTranscript(`${SAMPLES}/${rel}`, opts())).sessions;
    const [acodu] = await read(
      "dotfiles-acodu/projects/C--Users-acodu-dev-dashboard-mictlan/f9b339d5-1f32-4dfd-b0fb-acbef55eb427.jsonl",
    );
    const at = acodu?.records.findIndex((r) =>
      r.role === "assistant" &&
      r.text === "Add acodu user to docker-users group"
    ) ?? -1;
    ok(at >= 0);
    equal(acodu?.records[at + 1]?.role, "command");
    equal(
      acodu?.records.filter((r) =>
        r.text === "Add acodu user to docker-users group"
      ).length,
      1,
    );
    const [compact] = await read(
      "spotter/4d5611e5-241a-462a-8d15-5122611a9569/subagents/agent-acompact-e1f845.jsonl",
    );
    const hooks = (compact?.records ?? []).filter((r) => r.tool === "hook");
    equal(hooks.length, 3);
    ok(hooks.some((r) =>
      r.flags?.isError &&
      r.text.includes("cannot invoke remote function Access.get/2")
    ));
    const [beads] = await read("spotter/subagent.jsonl");
    ok(beads?.title && !beads.title.includes("→"), beads?.title);
  },
});

Deno.test("parseClaudeTranscript() reads a tool result's content given as one block, not a list", async () => {
  const text = userLine("run the migration") +
    callLine("toolu_b1", "Bash", { command: "npm run migrate" }) +
    resultLine("toolu_b1", {
      type: "text",
      text: "relation orders_archive does not exist",
    }) +
    callLine("toolu_b2", "Bash", { command: "ls" }) +
    resultLine("toolu_b2", { type: "image", source: { data: "iVBOR" } });
  const path = await tempFile("proj/one-block.jsonl", text);
  const s = only(await parseClaudeTranscript(path, opts()));
  deepEqual(byRole(s, "tool-output").map((r) => r.text), [
    "relation orders_archive does not exist",
  ]);
});
