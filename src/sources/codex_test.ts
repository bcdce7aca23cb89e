import { deepEqual, equal, ok } from "node:assert/strict";
import { zstdCompressSync, zstdDecompressSync } from "node:zlib";
import type { ParseOptions, ParseResult, SourceEnv } from "../core/harness.ts";
import {
  isSuperseded,
  type Session,
  type SessionRecord,
} from "../core/types.ts";
import { codex, type CodexRolloutState } from "./codex.ts";
import { hasSamples, resumeOptions, sampleDir } from "./_test_kit.ts";
import { prepareSessions } from "../index/_prepare.ts";
import { decodeBodySync } from "../index/_body.ts";
import { FLAG } from "../index/schema.ts";

const FIXTURE = new URL("../../fixtures/home/.codex", import.meta.url).pathname;
/** The newest rollout shapes (Codex 0.130): see fixtures/codex/.codex/README. */
const NEWEST = new URL("../../fixtures/codex/.codex", import.meta.url).pathname;
const SAMPLES = sampleDir("codex");
const ID_A = "0199f3a1-5c2e-7d10-9a4b-2f6c81d0e7a1";
const ID_B = "0199fd22-8e41-7b3a-b5c0-6a1e93f4d208";
const ID_C = "019a0611-3f7d-7e62-8d19-c4b2a7e05f93";
const ID_GONE = "019a0a70-11c8-7f05-a6e2-5d3b90c4e7f1";
const ROLLOUT_A =
  `${FIXTURE}/sessions/2026/11/03/rollout-2026-11-03T09-12-40-${ID_A}.jsonl`;
const ROLLOUT_B =
  `${FIXTURE}/sessions/2026/11/05/rollout-2026-11-05T14-30-00-${ID_B}.jsonl`;
const ROLLOUT_C =
  `${FIXTURE}/sessions/2026/11/07/rollout-2026-11-07T16-05-00-${ID_C}.jsonl.zst`;

function env(vars: Record<string, string> = {}, home = "/nohome"): SourceEnv {
  return { home, env: vars, os: "linux" };
}

function parse(
  path: string,
  extra: Partial<ParseOptions> = {},
): Promise<ParseResult> {
  const kind = codex.kinds.find((k) => k.match(path));
  if (!kind) throw new Error(`no kind for ${path}`);
  return kind.parse(path, { includeSubagents: true, source: env(), ...extra });
}

async function only(path: string): Promise<Session> {
  const result = await parse(path);
  equal(result.sessions.length, 1);
  return result.sessions[0] as Session;
}

function roles(session: Session, role: string): SessionRecord[] {
  return session.records.filter((r) => r.role === role);
}

/** One rollout line. */
function ln(
  type: string,
  payload: unknown,
  ts = "2026-11-10T10:00:00Z",
): string {
  return JSON.stringify({ timestamp: ts, type, payload });
}

function meta(id: string, extra: Record<string, unknown> = {}): string {
  return ln("session_meta", { id, cwd: "/w/proj", ...extra });
}

function userEvent(text: string): string {
  return ln("event_msg", { type: "user_message", message: text });
}

function userItem(text: string): string {
  return ln("response_item", {
    type: "message",
    role: "user",
    content: [{ type: "input_text", text }],
  });
}

function assistantItem(text: string): string {
  return ln("response_item", {
    type: "message",
    role: "assistant",
    content: [{ type: "output_text", text }],
  });
}

function agentEvent(text: string): string {
  return ln("event_msg", { type: "agent_message", message: text });
}

function shellCall(id: string, cmd: string): string {
  return ln("response_item", {
    type: "function_call",
    name: "shell_command",
    arguments: JSON.stringify({ command: cmd }),
    call_id: id,
  });
}

function callOutput(id: string, output: string): string {
  return ln("response_item", {
    type: "function_call_output",
    call_id: id,
    output,
  });
}

async function tempRollout(lines: string[], name?: string): Promise<string> {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/${
    name ?? `rollout-2026-11-10T10-00-00-${crypto.randomUUID()}.jsonl`
  }`;
  await Deno.writeTextFile(path, lines.map((l) => `${l}\n`).join(""));
  return path;
}

/**
 * Reads a rollout in two passes at every cut between its lines (the first
 * `cut` lines, then the rest resumed from the saved state) and yields the
 * records of both passes.
 */
async function* readAtEveryCut(
  lines: string[],
): AsyncGenerator<{ cut: number; records: SessionRecord[] }> {
  const path = await tempRollout([]);
  for (let cut = 1; cut < lines.length; cut++) {
    await Deno.writeTextFile(
      path,
      lines.slice(0, cut).map((l) => `${l}\n`).join(""),
    );
    const first = await parse(path);
    await Deno.writeTextFile(path, lines.map((l) => `${l}\n`).join(""));
    const next = await parse(path, resumeOptions(first));
    yield {
      cut,
      records: [
        ...(first.sessions[0]?.records ?? []),
        ...(next.sessions[0]?.records ?? []),
      ],
    };
  }
}

/** The parts of a record that survive a move to another file. */
function shape(r: SessionRecord): unknown {
  return {
    role: r.role,
    text: r.text,
    seq: r.seq,
    tool: r.tool,
    exitCode: r.exitCode,
    flags: r.flags,
    time: r.time,
    line: r.locator.line,
  };
}

Deno.test("codex.roots() honours DEJA_CODEX_ROOT, then CODEX_HOME, then HOME", async (t) => {
  const cases: Array<[string, Record<string, string>, string]> = [
    ["home", {}, "/h/.codex"],
    ["CODEX_HOME", { CODEX_HOME: "/c" }, "/c"],
    ["tilde", { CODEX_HOME: "~/alt" }, "/h/alt"],
    ["DEJA_CODEX_ROOT", { CODEX_HOME: "/c", DEJA_CODEX_ROOT: "/d" }, "/d"],
  ];
  for (const [name, vars, want] of cases) {
    await t.step(name, () => {
      deepEqual(codex.roots(env(vars, "/h")), [want]);
    });
  }
  equal(codex.id, "codex");
  equal(codex.name, "Codex CLI");
  ok(codex.envOverrides.includes("CODEX_HOME"));
});

Deno.test("codex kinds match by file name and say which are append-only", () => {
  const kindOf = (p: string) => codex.kinds.find((k) => k.match(p));
  equal(kindOf("/x/sessions/rollout-1.jsonl")?.id, "rollout");
  equal(kindOf("/x/sessions/rollout-1.jsonl")?.appendOnly, true);
  equal(kindOf("/x/sessions/rollout-1.jsonl.zst")?.id, "rollout-zst");
  equal(kindOf("/x/sessions/rollout-1.jsonl.zst")?.appendOnly, false);
  equal(kindOf("/x/history.jsonl")?.id, "history");
  equal(kindOf("/x/history.jsonl")?.appendOnly, true);
  equal(kindOf("/x/sessions/other.jsonl"), undefined);
});

Deno.test("codex.discover() finds rollouts, compressed rollouts and history.jsonl", async (t) => {
  await t.step("fixture store", async () => {
    const found = await codex.discover(env({ CODEX_HOME: FIXTURE }));
    deepEqual(found, [
      ROLLOUT_A,
      ROLLOUT_B,
      ROLLOUT_C,
      `${FIXTURE}/history.jsonl`,
    ]);
  });
  await t.step("archived, twin and stray files", async () => {
    const root = await Deno.makeTempDir();
    await Deno.mkdir(`${root}/sessions/2026/01/02`, { recursive: true });
    await Deno.mkdir(`${root}/archived_sessions`, { recursive: true });
    const day = `${root}/sessions/2026/01/02`;
    await Deno.writeTextFile(`${day}/rollout-a.jsonl`, "");
    await Deno.writeTextFile(`${day}/rollout-a.jsonl.zst`, ""); // twin: plain wins
    await Deno.writeTextFile(`${day}/rollout-b.jsonl.zst`, "");
    await Deno.writeTextFile(`${day}/notes.txt`, "");
    await Deno.writeTextFile(`${root}/archived_sessions/rollout-c.jsonl`, "");
    await Deno.writeTextFile(`${root}/config.toml`, "");
    const found = await codex.discover(env({ DEJA_CODEX_ROOT: root }));
    deepEqual(found, [
      `${day}/rollout-a.jsonl`,
      `${day}/rollout-b.jsonl.zst`,
      `${root}/archived_sessions/rollout-c.jsonl`,
    ]);
  });
  await t.step("missing root yields nothing", async () => {
    const found = await codex.discover(env({ CODEX_HOME: "/does/not/exist" }));
    deepEqual(found, []);
  });
});

Deno.test("rollout parse keeps one copy of each turn and drops injected text", async () => {
  const s = await only(ROLLOUT_A);
  equal(s.harness, "codex");
  equal(s.id, ID_A);
  equal(s.cwd, "/home/dev/src/api");
  equal(s.project, "api");
  equal(
    s.title,
    "The /users endpoint returns 500 when the email is missing. Fix it and keep the tests green.",
  );
  deepEqual(roles(s, "user").map((r) => r.text), [
    "The /users endpoint returns 500 when the email is missing. Fix it and keep the tests green.",
    "Also rename the users table to accounts in the migration.",
    "Actually leave the schema alone; add a regression test for the missing email instead.",
  ]);
  equal(roles(s, "assistant").length, 3);
  for (const r of s.records) {
    ok(!r.text.includes("<environment_context>"), r.text);
    ok(!r.text.includes("AGENTS.md instructions"), r.text);
    ok(!r.text.includes("permissions instructions"), r.text); // developer role
    ok(!r.text.includes("Reproducing the failing request"), r.text); // reasoning
  }
  const seqs = s.records.map((r) => r.seq);
  deepEqual(seqs, seqs.map((_, i) => i));
  equal(s.started, Date.parse("2026-11-03T09:12:40.101Z"));
  equal(s.updated, Date.parse("2026-11-03T09:15:02.001Z"));
  const first = s.records[0] as SessionRecord;
  equal(first.locator.path, ROLLOUT_A);
  equal(first.locator.line, 6); // the event_msg user_message line
  ok((first.locator.offset ?? 0) > 0);
  const bytes = await Deno.readFile(ROLLOUT_A);
  const lineText = new TextDecoder().decode(
    bytes.subarray(first.locator.offset).subarray(0, 40),
  );
  ok(lineText.startsWith('{"timestamp"'));
});

Deno.test("rollout parse attaches exit codes to commands and flags failed output", async (t) => {
  await t.step(
    "shell_command with plain Exit code headers (0.63)",
    async () => {
      const s = await only(ROLLOUT_A);
      const commands = roles(s, "command");
      deepEqual(commands.map((c) => [c.text, c.exitCode, c.tool]), [
        ["npm test -- users", 1, "shell_command"],
        ["npm test -- users", 0, "shell_command"],
        [
          "sed -i 's/users/accounts/g' migrations/0003_users.sql",
          0,
          "shell_command",
        ],
      ]);
      const outputs = roles(s, "tool-output");
      const failed = outputs.filter((o) => o.flags?.isError);
      equal(failed.length, 1);
      ok(failed[0]?.text.startsWith("FAIL test/users.test.ts"));
      ok(!failed[0]?.text.includes("Exit code"));
      equal(failed[0]?.seq, (commands[0]?.seq ?? 0) + 1);
    },
  );
  await t.step(
    "shell argv with bash -lc and JSON-wrapped output (0.55)",
    async () => {
      const s = await only(ROLLOUT_B);
      deepEqual(roles(s, "command").map((c) => [c.text, c.exitCode, c.tool]), [
        ["terraform plan -no-color", 1, "shell"],
        ["sed -n '1,30p' s3.tf", 0, "shell"],
        ["terraform plan -no-color", 0, "shell"],
      ]);
      const outputs = roles(s, "tool-output");
      ok(outputs[0]?.text.startsWith("Error: Unsupported argument"));
      equal(outputs[0]?.flags?.isError, true);
      ok(!outputs.some((o) => o.text === "Plan updated"));
      const said = roles(s, "assistant");
      deepEqual(
        said.filter((r) => r.tool === "update_plan").map((r) => r.text),
        ["Move versioning to its own resource\nRe-run terraform plan"],
      );
      ok(
        said.find((r) => r.tool === undefined)?.text.includes(
          "decided to keep the eu-west-1 bucket versioned because",
        ),
      );
    },
  );
  await t.step(
    "exec_command, write_stdin polling and local_shell_call",
    async () => {
      const path = await tempRollout([
        meta("s1"),
        userEvent("build it"),
        ln("response_item", {
          type: "function_call",
          name: "exec_command",
          arguments: JSON.stringify({ cmd: "cargo build" }),
          call_id: "c1",
        }),
        callOutput(
          "c1",
          "Chunk ID: a\nWall time: 1.0 seconds\nProcess running with session ID 42\nOriginal token count: 3\nOutput:\nCompiling\n",
        ),
        ln("response_item", {
          type: "function_call",
          name: "write_stdin",
          arguments: JSON.stringify({ session_id: 42, chars: "" }),
          call_id: "c2",
        }),
        callOutput(
          "c2",
          "Chunk ID: b\nWall time: 2.0 seconds\nProcess exited with code 101\nOriginal token count: 3\nOutput:\nerror[E0308]: mismatched types\n",
        ),
        ln("response_item", {
          type: "local_shell_call",
          call_id: "c3",
          status: "completed",
          action: { type: "exec", command: ["bash", "-lc", "cargo test"] },
        }),
        callOutput(
          "c3",
          JSON.stringify({ output: "ok", metadata: { exit_code: 0 } }),
        ),
        ln("response_item", {
          type: "function_call",
          name: "shell",
          arguments: JSON.stringify({
            command: ["git", "commit", "-m", "fix it"],
          }),
          call_id: "c4",
        }),
        callOutput(
          "c4",
          "Exit code: 128\nOutput:\nfatal: not a git repository\n",
        ),
      ]);
      const s = await only(path);
      deepEqual(roles(s, "command").map((c) => [c.text, c.exitCode, c.tool]), [
        ["cargo build", 101, "exec_command"],
        ["cargo test", 0, "local_shell"],
        ["git commit -m 'fix it'", 128, "shell"],
      ]);
      const errors = roles(s, "tool-output").filter((o) => o.flags?.isError);
      deepEqual(errors.map((o) => o.text), [
        "error[E0308]: mismatched types",
        "fatal: not a git repository",
      ]);
    },
  );
});

Deno.test("rollout parse turns apply_patch into files and edit records", async (t) => {
  await t.step("custom_tool_call in the fixture", async () => {
    const s = await only(ROLLOUT_A);
    deepEqual(roles(s, "files").map((r) => r.text), [
      "/home/dev/src/api/src/routes/users.ts",
      "/home/dev/src/api/test/users_email.test.ts",
    ]);
    deepEqual(roles(s, "edit").map((r) => r.text), [
      "/home/dev/src/api/src/routes/users.ts\n  const email = normalizeEmail(body.email);",
    ]);
    equal(roles(s, "edit")[0]?.tool, "apply_patch");
  });
  await t.step(
    "function_call, argv and heredoc shapes, moves and deletes",
    async () => {
      const patch = [
        "*** Begin Patch",
        "*** Update File: src/a.ts",
        "@@",
        "-old line",
        "--- not a header",
        "+new line",
        "*** Update File: src/b.ts",
        "*** Move to: src/c.ts",
        "@@",
        "-gone",
        "*** Delete File: /abs/d.ts",
        "*** End Patch",
      ].join("\n");
      const path = await tempRollout([
        meta("s1", { cwd: "/repo" }),
        userEvent("patch it"),
        ln("response_item", {
          type: "function_call",
          name: "apply_patch",
          arguments: JSON.stringify({ input: patch }),
          call_id: "p1",
        }),
        callOutput(
          "p1",
          "Exit code: 1\nOutput:\napply_patch verification failed\n",
        ),
        ln("response_item", {
          type: "function_call",
          name: "shell",
          arguments: JSON.stringify({
            command: ["apply_patch", patch],
            workdir: "/other",
          }),
          call_id: "p2",
        }),
        ln("response_item", {
          type: "function_call",
          name: "shell_command",
          arguments: JSON.stringify({
            command: `apply_patch <<'EOF'\n${patch}\nEOF`,
          }),
          call_id: "p3",
        }),
      ]);
      const s = await only(path);
      equal(roles(s, "command").length, 0);
      deepEqual(roles(s, "files").map((r) => r.text), [
        "/repo/src/a.ts\n/repo/src/b.ts\n/repo/src/c.ts\n/abs/d.ts",
        "/other/src/a.ts\n/other/src/b.ts\n/other/src/c.ts\n/abs/d.ts",
        "/repo/src/a.ts\n/repo/src/b.ts\n/repo/src/c.ts\n/abs/d.ts",
      ]);
      deepEqual(roles(s, "edit").slice(0, 2).map((r) => r.text), [
        "/repo/src/a.ts\nold line\n-- not a header",
        "/repo/src/b.ts\ngone",
      ]);
      const failed = roles(s, "tool-output")[0];
      equal(failed?.text, "apply_patch verification failed");
      equal(failed?.flags?.isError, true);
      equal(failed?.tool, "apply_patch");
    },
  );
});

Deno.test("thread_rolled_back marks the rolled-back turns as superseded", async (t) => {
  await t.step("fixture: one bad turn", async () => {
    const s = await only(ROLLOUT_A);
    const bad = s.records.find((r) => r.text.startsWith("Also rename"));
    const next = s.records.find((r) => r.text.startsWith("Actually leave"));
    ok(bad && next);
    deepEqual(s.marks, [{ kind: "rollback", from: bad.seq, to: next.seq }]);
    const superseded = s.records.filter((r) => isSuperseded(r.seq, s.marks));
    deepEqual(superseded.map((r) => r.role), ["user", "command", "assistant"]);
  });
  await t.step("two turns, then more than there are", async () => {
    const path = await tempRollout([
      meta("s1"),
      userEvent("one"),
      assistantItem("a1"),
      userEvent("two"),
      assistantItem("a2"),
      userEvent("three"),
      assistantItem("a3"),
      ln("event_msg", { type: "thread_rolled_back", num_turns: 2 }),
      userEvent("four"),
      ln("event_msg", { type: "thread_rolled_back", num_turns: 99 }),
      userEvent("five"),
    ]);
    const s = await only(path);
    deepEqual(s.marks, [
      { kind: "rollback", from: 2, to: 6 },
      { kind: "rollback", from: 0, to: 7 },
    ]);
    const live = s.records.filter((r) => !isSuperseded(r.seq, s.marks));
    deepEqual(live.map((r) => r.text), ["five"]);
  });
});

Deno.test("a .jsonl.zst rollout parses like its plain twin", async () => {
  const dir = await Deno.makeTempDir();
  const plainPath = `${dir}/rollout-2026-11-07T16-05-00-${ID_C}.jsonl`;
  await Deno.writeFile(
    plainPath,
    zstdDecompressSync(await Deno.readFile(ROLLOUT_C)),
  );
  const zst = await parse(ROLLOUT_C);
  const plain = await parse(plainPath);
  equal(zst.sessions.length, 1);
  const a = zst.sessions[0] as Session;
  const b = plain.sessions[0] as Session;
  deepEqual(a.records.map(shape), b.records.map(shape));
  deepEqual(
    a.records.map((r) => r.locator.offset),
    b.records.map((r) => r.locator.offset),
  );
  equal(a.id, ID_C);
  equal(a.project, "infra");
  equal(zst.safeOffset, plain.safeOffset);
  deepEqual(roles(a, "summary").map((r) => r.text), [
    "Checked staging for drift: the logs bucket lifecycle rule was edited by hand (90 -> 30 days); main still says 90.",
  ]);
  deepEqual(roles(a, "command").map((c) => c.exitCode), [2, 0]);
  ok(!a.records.some((r) => r.text.includes("Prefer read-only")));
  ok(!a.records.some((r) => r.text.includes("Approval policy")));
  // A compressed file that lacks its final newline still counts its last line.
  const unterminated = `${dir}/rollout-x.jsonl.zst`;
  await Deno.writeFile(
    unterminated,
    zstdCompressSync(
      new TextEncoder().encode(`${meta("z1")}\n${userEvent("last words")}`),
    ),
  );
  const u = await parse(unterminated);
  deepEqual(u.sessions[0]?.records.map((r) => r.text), ["last words"]);
});

Deno.test("a .jsonl.zst rollout of several frames is read whole; one cut short is named, not read as empty", async () => {
  const dir = await Deno.makeTempDir();
  const frame = (text: string) =>
    new Uint8Array(zstdCompressSync(new TextEncoder().encode(text)));
  // pzstd, or an appending writer, leaves one frame per part.
  const parts = `${dir}/rollout-parts.jsonl.zst`;
  await Deno.writeFile(
    parts,
    new Uint8Array([
      ...frame(`${meta("z2")}\n${userEvent("first part")}\n`),
      ...frame(`${userEvent("second part")}\n`),
    ]),
  );
  const both = await parse(parts);
  deepEqual(both.sessions[0]?.records.map((r) => r.text), [
    "first part",
    "second part",
  ]);
  // The node decoder read a truncated frame as nothing, and said nothing.
  const whole = frame(`${meta("z3")}\n${userEvent("lost words")}\n`);
  const cut = `${dir}/rollout-cut.jsonl.zst`;
  await Deno.writeFile(cut, whole.subarray(0, whole.length - 1));
  const err = await parse(cut).then(() => undefined, (e: Error) => e);
  ok(err instanceof Error);
  ok(err.message.includes("cut short"), err.message);
  const plain = `${dir}/rollout-plain.jsonl.zst`;
  await Deno.writeTextFile(plain, `${userEvent("not compressed")}\n`);
  const notZstd = await parse(plain).then(() => undefined, (e: Error) => e);
  ok(notZstd?.message.includes("Not zstd data"), notZstd?.message);
});

Deno.test("history.jsonl gives one user session per session id", async () => {
  const result = await parse(`${FIXTURE}/history.jsonl`);
  deepEqual(result.sessions.map((s) => s.id), [ID_A, ID_B, ID_GONE]);
  const gone = result.sessions[2] as Session;
  equal(gone.project, "");
  equal(gone.records[0]?.role, "user");
  equal(gone.records[0]?.time, 1794124800000);
  equal(gone.title, "How do I rotate the api signing key without downtime?");
  // Resume: an appended prompt continues that session's seq.
  const dir = await Deno.makeTempDir();
  const path = `${dir}/history.jsonl`;
  await Deno.copyFile(`${FIXTURE}/history.jsonl`, path);
  const first = await parse(path);
  await Deno.writeTextFile(
    path,
    `${
      JSON.stringify({
        session_id: ID_GONE,
        ts: 1794124900,
        text: "and the staging key?",
      })
    }\n{"session_id": 5}\n{"ts":1,"text":"x"}\nnot json\n{"session_id":"torn","ts":1,"te`,
    { append: true },
  );
  const next = await parse(path, resumeOptions(first));
  equal(next.sessions.length, 1);
  equal(next.sessions[0]?.id, ID_GONE);
  deepEqual(
    next.sessions[0]?.records.map((r) => [r.seq, r.text, r.locator.line]),
    [
      [1, "and the staging key?", 4],
    ],
  );
  equal(next.skipped, 3);
  ok((next.safeOffset as number) < (await Deno.stat(path)).size);
});

Deno.test("a torn last line is left for the next pass", async () => {
  const full = await Deno.readTextFile(ROLLOUT_A);
  const lines = full.split("\n").filter((l) => l.length > 0);
  const dir = await Deno.makeTempDir();
  const path = `${dir}/rollout-2026-11-03T09-12-40-${ID_A}.jsonl`;
  const head = lines.slice(0, 6).join("\n") + "\n";
  const torn = (lines[6] as string).slice(0, 30);
  await Deno.writeTextFile(path, head + torn);
  const first = await parse(path);
  equal(first.safeOffset, new TextEncoder().encode(head).length);
  equal(first.safeLine, 7);
  equal(first.skipped, 0);
  deepEqual(first.sessions[0]?.records.map((r) => r.role), ["user"]);
  // The writer finishes the line; the next pass reads it.
  await Deno.writeTextFile(path, full);
  const next = await parse(path, {
    offset: first.safeOffset as number,
    firstLine: first.safeLine as number,
    state: first.state,
  });
  equal(next.sessions[0]?.records[0]?.seq, 1);
  equal(next.safeOffset, new TextEncoder().encode(full).length);
});

Deno.test("resuming at any line boundary gives the same records as one pass", async () => {
  const whole = await only(ROLLOUT_A);
  const full = await Deno.readTextFile(ROLLOUT_A);
  const lines = full.split("\n").filter((l) => l.length > 0).map((l) =>
    `${l}\n`
  );
  const dir = await Deno.makeTempDir();
  const path = `${dir}/rollout-2026-11-03T09-12-40-${ID_A}.jsonl`;
  // A turn cut between its two copies keeps the first copy's line and time.
  const comparable = (r: SessionRecord) => ({
    ...(shape(r) as object),
    line: undefined,
    time: undefined,
  });
  for (let cut = 1; cut < lines.length; cut++) {
    await Deno.writeTextFile(path, lines.slice(0, cut).join(""));
    const first = await parse(path);
    await Deno.writeTextFile(path, lines.join(""));
    const state = JSON.parse(JSON.stringify(first.state)) as CodexRolloutState;
    const next = await parse(path, {
      offset: first.safeOffset as number,
      firstLine: first.safeLine as number,
      state,
    });
    const records = [
      ...(first.sessions[0]?.records ?? []),
      ...(next.sessions[0]?.records ?? []),
    ];
    const marks = [
      ...(first.sessions[0]?.marks ?? []),
      ...(next.sessions[0]?.marks ?? []),
    ];
    deepEqual(
      records.map(comparable),
      whole.records.map(comparable),
      `cut ${cut}`,
    );
    deepEqual(marks, whole.marks, `cut ${cut}`);
    for (const r of next.sessions[0]?.records ?? []) {
      ok((r.locator.offset ?? 0) >= (first.safeOffset as number));
    }
    equal(next.sessions[0]?.id ?? ID_A, ID_A);
  }
});

Deno.test("a rollback appended after a resume covers turns read in the earlier pass", async () => {
  const path = await tempRollout([
    meta("s-roll"),
    userEvent("one"),
    shellCall("c1", "make"),
    callOutput("c1", "Exit code: 2\nOutput:\nmake: *** [all] Error 2\n"),
    assistantItem("make failed"),
  ]);
  const first = await parse(path);
  const state = first.state as CodexRolloutState;
  deepEqual(state.userTurnSeqs, [0]);
  equal(state.nextSeq, 4);
  await Deno.writeTextFile(
    path,
    [
      userEvent("two"),
      shellCall("c2", "make clean"),
      ln("event_msg", { type: "thread_rolled_back", num_turns: 2 }),
      userEvent("three"),
    ].map((l) => `${l}\n`).join(""),
    { append: true },
  );
  const next = await parse(path, {
    offset: first.safeOffset as number,
    firstLine: first.safeLine as number,
    state: JSON.parse(JSON.stringify(state)),
  });
  const s = next.sessions[0] as Session;
  equal(s.id, "s-roll");
  equal(s.project, "proj");
  deepEqual(s.records.map((r) => [r.seq, r.role, r.text]), [
    [4, "user", "two"],
    [5, "command", "make clean"],
    [6, "user", "three"],
  ]);
  deepEqual(s.marks, [{ kind: "rollback", from: 0, to: 6 }]);
  // An output whose call was read in the earlier pass keeps its tool and flag.
  await Deno.writeTextFile(
    path,
    `${callOutput("c2", "Exit code: 1\nOutput:\nno rule\n")}\n`,
    {
      append: true,
    },
  );
  const third = await parse(path, {
    offset: next.safeOffset as number,
    firstLine: next.safeLine as number,
    state: next.state,
  });
  const out = third.sessions[0]?.records[0];
  deepEqual([out?.seq, out?.role, out?.tool, out?.flags], [
    7,
    "tool-output",
    "shell_command",
    { isError: true },
  ]);
});

Deno.test("a command still waiting for output is read again with its output", async (t) => {
  await t.step("plain call at the end of the file", async () => {
    const head = [meta("w1"), userEvent("run the tests")];
    const call = shellCall("c1", "deno test");
    const path = await tempRollout([...head, call]);
    const first = await parse(path);
    const callOffset = new TextEncoder().encode(
      head.map((l) => `${l}\n`).join(""),
    ).length;
    equal(first.safeOffset, callOffset);
    equal(first.safeLine, 3);
    deepEqual(first.sessions[0]?.records.map((r) => r.role), ["user"]);
    await Deno.writeTextFile(
      path,
      `${callOutput("c1", "Exit code: 1\nOutput:\nFAILED\n")}\n`,
      { append: true },
    );
    const next = await parse(path, {
      offset: first.safeOffset as number,
      firstLine: first.safeLine as number,
      state: first.state,
    });
    deepEqual(
      next.sessions[0]?.records.map((r) => [r.seq, r.role, r.exitCode]),
      [[1, "command", 1], [2, "tool-output", undefined]],
    );
  });
  await t.step(
    "a settled file keeps nothing back for a call never answered",
    async () => {
      // Codex crashed (or was closed) while the command ran: no output ever
      // comes, and what it wrote after the call (another call, answered; no
      // reply and no end of turn) must not wait for one.
      const path = await tempRollout([
        meta("w0"),
        userEvent("check the cluster"),
        shellCall("c0", "kubectl get pods"),
        shellCall("c9", "git status"),
        callOutput("c9", "Exit code: 0\nOutput:\nzorbleflax clean\n"),
      ]);
      const growing = await parse(path);
      deepEqual(growing.sessions[0]?.records.map((r) => r.role), ["user"]);
      const settled = await parse(path, { settled: true });
      deepEqual(
        settled.sessions[0]?.records.map((r) => [r.role, r.text]),
        [
          ["user", "check the cluster"],
          ["command", "kubectl get pods"],
          ["command", "git status"],
          ["tool-output", "zorbleflax clean"],
        ],
      );
      equal(settled.safeOffset, (await Deno.stat(path)).size);
    },
  );
  await t.step("a running exec waits for its write_stdin poll", async () => {
    const path = await tempRollout([
      meta("w2"),
      userEvent("build"),
      ln("response_item", {
        type: "function_call",
        name: "exec_command",
        arguments: JSON.stringify({ cmd: "make" }),
        call_id: "e1",
      }),
      callOutput("e1", "Process running with session ID 9\nOutput:\ncc a.c\n"),
    ]);
    const first = await parse(path);
    deepEqual(first.sessions[0]?.records.map((r) => r.role), ["user"]);
    await Deno.writeTextFile(
      path,
      [
        ln("response_item", {
          type: "function_call",
          name: "write_stdin",
          arguments: JSON.stringify({ session_id: 9 }),
          call_id: "e2",
        }),
        callOutput("e2", "Process exited with code 0\nOutput:\ndone\n"),
      ].map((l) => `${l}\n`).join(""),
      { append: true },
    );
    const next = await parse(path, {
      offset: first.safeOffset as number,
      firstLine: first.safeLine as number,
      state: first.state,
    });
    deepEqual(
      next.sessions[0]?.records.map((r) => [r.role, r.text, r.exitCode]),
      [
        ["command", "make", 0],
        ["tool-output", "cc a.c", undefined],
        ["tool-output", "done", undefined],
      ],
    );
  });
  await t.step(
    "an aborted turn releases the command without an exit code",
    async () => {
      const path = await tempRollout([
        meta("w3"),
        userEvent("run it"),
        shellCall("c1", "sleep 100"),
        ln("event_msg", { type: "turn_aborted", reason: "interrupted" }),
      ]);
      const result = await parse(path);
      equal(result.safeOffset, (await Deno.stat(path)).size);
      deepEqual(
        result.sessions[0]?.records.map((r) => [r.role, r.exitCode]),
        [["user", undefined], ["command", undefined]],
      );
    },
  );
});

Deno.test("resuming without usable state re-reads and returns only new records", async () => {
  const path = await tempRollout([
    meta("s2"),
    userEvent("one"),
    assistantItem("a1"),
  ]);
  const first = await parse(path);
  await Deno.writeTextFile(path, `${userEvent("two")}\n`, { append: true });
  for (const state of [undefined, { nextSeq: "x" }, null, 7]) {
    const next = await parse(path, {
      offset: first.safeOffset as number,
      firstLine: first.safeLine as number,
      state,
    });
    deepEqual(next.sessions[0]?.records.map((r) => [r.seq, r.text]), [[
      2,
      "two",
    ]]);
    equal(next.sessions[0]?.id, "s2");
  }
  const none = await parse(path, {
    offset: (await Deno.stat(path)).size,
    state: undefined,
  });
  deepEqual(none.sessions, []);
});

Deno.test("echoes count once: user from event_msg, assistant from response_item", async (t) => {
  await t.step("item before event and event before item", async () => {
    const path = await tempRollout([
      meta("e1"),
      userItem("hello"),
      userEvent("hello"),
      agentEvent("hi there"),
      assistantItem("hi there"),
      userItem("<turn_aborted>\nThe user interrupted.\n</turn_aborted>"),
      userEvent("again"),
      userItem("again"),
      assistantItem("sure"),
      agentEvent("sure"),
    ]);
    const s = await only(path);
    deepEqual(s.records.map((r) => [r.role, r.text]), [
      ["user", "hello"],
      ["assistant", "hi there"],
      ["user", "again"],
      ["assistant", "sure"],
    ]);
  });
  await t.step("item-only files fall back to response_item user", async () => {
    const path = await tempRollout([
      meta("e2"),
      userItem("only items"),
      assistantItem("ok"),
    ]);
    deepEqual((await only(path)).records.map((r) => r.role), [
      "user",
      "assistant",
    ]);
  });
  await t.step(
    "item-only files drop the user messages Codex writes itself",
    async () => {
      const path = await tempRollout([
        meta("e2b"),
        userItem(
          "<turn_aborted>\nThe user interrupted the previous turn on purpose.\n</turn_aborted>",
        ),
        userItem("fix the gull cache"),
        userItem(
          "<user_action>\n  <context>User initiated a review task.</context>\n  <action>review</action>\n  <results>\n  No findings.\n  </results>\n</user_action>\n",
        ),
        userItem("<subagents>\n- heron: running\n</subagents>"),
        userItem("<plugins>\n- tracker\n</plugins>\n\nnow ship it"),
        assistantItem("ok"),
      ]);
      deepEqual(
        (await only(path)).records.map((r) => [r.role, r.text]),
        [["user", "fix the gull cache"], ["user", "now ship it"], [
          "assistant",
          "ok",
        ]],
      );
    },
  );
  await t.step("event-only files fall back to agent_message", async () => {
    const path = await tempRollout([
      meta("e3"),
      userEvent("only events"),
      agentEvent("reply one"),
      agentEvent("reply two"),
    ]);
    deepEqual((await only(path)).records.map((r) => r.text), [
      "only events",
      "reply one",
      "reply two",
    ]);
  });
  await t.step("paginated item_completed and user_message pairs", async () => {
    const path = await tempRollout([
      meta("e4"),
      ln("event_msg", {
        type: "item_completed",
        item: {
          type: "UserMessage",
          content: [{ type: "text", text: "run the graph" }],
        },
      }),
      userEvent("run the graph"),
      ln("event_msg", {
        type: "item_completed",
        item: {
          type: "AgentMessage",
          content: [{ type: "Text", text: "graph done" }],
        },
      }),
    ]);
    deepEqual((await only(path)).records.map((r) => [r.role, r.text]), [
      ["user", "run the graph"],
      ["assistant", "graph done"],
    ]);
  });
  await t.step(
    "the same words resent after an aborted turn are a new turn",
    async () => {
      const path = await tempRollout([
        meta("e5"),
        ln(
          "event_msg",
          { type: "user_message", message: "deploy" },
          "2026-11-10T10:00:01Z",
        ),
        ln("event_msg", { type: "turn_aborted", reason: "interrupted" }),
        ln(
          "event_msg",
          { type: "user_message", message: "deploy" },
          "2026-11-10T10:00:09Z",
        ),
      ]);
      equal(roles(await only(path), "user").length, 2);
    },
  );
  await t.step("IDE preamble before the request is dropped", async () => {
    const path = await tempRollout([
      meta("e6"),
      userEvent(
        "# Context from my IDE setup:\n\n## Open tabs:\n- a.ts\n\n## My request for Codex:\nwhy is a.ts slow?",
      ),
    ]);
    equal((await only(path)).records[0]?.text, "why is a.ts slow?");
  });
});

Deno.test("session identity: first session_meta wins, forks name their parent", async (t) => {
  await t.step("fork with a copied source meta", async () => {
    const path = await tempRollout([
      meta("child", { forked_from_id: "parent-1", cwd: "/w/api" }),
      meta("parent-1", { cwd: "/w/other" }),
      userEvent("copied turn"),
    ]);
    const s = await only(path);
    equal(s.id, "child");
    equal(s.parent, "parent-1");
    equal(s.lineage, "fork");
    equal(s.project, "api");
  });
  await t.step(
    "a sub-agent thread names the thread that spawned it",
    async () => {
      for (
        const extra of [
          {
            source: {
              subagent: {
                thread_spawn: { parent_thread_id: "main-1", depth: 1 },
              },
            },
          },
          { thread_source: "subagent", parent_thread_id: "main-1" },
          // A review, a compaction or another delegated task names its
          // parent at the top level only.
          { source: { subagent: "review" }, parent_thread_id: "main-1" },
          { source: { subagent: "compact" }, parent_thread_id: "main-1" },
          {
            source: { subagent: { other: "guardian" } },
            thread_source: "guardian_review",
            parent_thread_id: "main-1",
          },
        ]
      ) {
        const path = await tempRollout([
          meta("worker-1", { cwd: "/w/api", ...extra }),
          userEvent("check the tests"),
        ]);
        const s = await only(path);
        equal(s.parent, "main-1");
        equal(s.lineage, "subagent");
      }
      // Before Codex wrote parent_thread_id, a review names no parent.
      const old = await only(
        await tempRollout([
          meta("review-1", { source: { subagent: "review" } }),
          assistantItem("No findings."),
        ]),
      );
      equal(old.parent, undefined);
    },
  );
  await t.step("session_id fallback, then the file name's uuid", async () => {
    const a = await tempRollout([
      ln("session_meta", { session_id: "via-session-id", cwd: "/w/x" }),
      userEvent("x"),
    ]);
    equal((await only(a)).id, "via-session-id");
    const uuid = "0199aaaa-bbbb-7ccc-8ddd-eeeeffff0000";
    const b = await tempRollout(
      [userEvent("no meta")],
      `rollout-2026-01-01T00-00-00-${uuid}.jsonl`,
    );
    const s = await only(b);
    equal(s.id, uuid);
    equal(s.project, "");
  });
  await t.step("turn_context supplies the cwd when meta has none", async () => {
    const path = await tempRollout([
      ln("session_meta", { id: "m1" }),
      ln("turn_context", { cwd: "/w/svc" }),
      userEvent("x"),
    ]);
    equal((await only(path)).project, "svc");
  });
  await t.step("pre-envelope rollouts (bare header and items)", async () => {
    const path = await tempRollout([
      JSON.stringify({
        id: "legacy-1",
        timestamp: "2025-08-01T10:00:00Z",
        instructions: "x",
      }),
      JSON.stringify({
        type: "message",
        role: "user",
        content: [{ type: "input_text", text: "old style ask" }],
      }),
      JSON.stringify({ record_type: "state" }),
      JSON.stringify({
        type: "function_call",
        name: "shell",
        arguments: JSON.stringify({ command: ["bash", "-lc", "ls"] }),
        call_id: "l1",
      }),
      JSON.stringify({
        type: "function_call_output",
        call_id: "l1",
        output: JSON.stringify({ output: "a\n", metadata: { exit_code: 0 } }),
      }),
      JSON.stringify({
        type: "message",
        role: "assistant",
        content: [{ type: "output_text", text: "old style reply" }],
      }),
    ]);
    const s = await only(path);
    equal(s.id, "legacy-1");
    deepEqual(s.records.map((r) => [r.role, r.text, r.exitCode]), [
      ["user", "old style ask", undefined],
      ["command", "ls", 0],
      ["tool-output", "a", undefined],
      ["assistant", "old style reply", undefined],
    ]);
  });
});

Deno.test("a rollout with nothing to index is no session", async (t) => {
  await t.step("a header alone, then a prompt appended later", async () => {
    const path = await tempRollout([meta("h0", { cwd: "/w/api" })]);
    const first = await parse(path);
    deepEqual(first.sessions, []);
    equal(first.skipped, 0);
    await Deno.writeTextFile(path, `${userEvent("why is the cache cold")}\n`, {
      append: true,
    });
    const next = await parse(path, resumeOptions(first));
    equal(next.sessions.length, 1);
    equal(next.sessions[0]?.id, "h0");
    equal(next.sessions[0]?.project, "api");
    deepEqual(next.sessions[0]?.records.map((r) => r.text), [
      "why is the cache cold",
    ]);
  });
  await t.step("a header and a rename", async () => {
    const path = await tempRollout([
      meta("h1"),
      ln("event_msg", {
        type: "thread_name_updated",
        thread_id: "h1",
        thread_name: "Cache warmup",
      }),
    ]);
    deepEqual((await parse(path)).sessions, []);
  });
  await t.step("blank lines: nothing skipped", async () => {
    const result = await parse(await tempRollout(["", "   ", ""]));
    deepEqual([result.sessions, result.skipped], [[], 0]);
  });
  await t.step("every line corrupt: each one skipped", async () => {
    const result = await parse(await tempRollout(["not json", "{torn"]));
    deepEqual([result.sessions, result.skipped], [[], 2]);
  });
});

Deno.test("malformed, oversized and hostile lines are skipped and counted", async () => {
  const big = JSON.stringify({
    type: "response_item",
    payload: {
      type: "message",
      role: "user",
      content: [{ type: "input_text", text: "x".repeat(9 * 1024 * 1024) }],
    },
  });
  const lines = [
    meta("h1"),
    "not json at all", // skipped
    "[1,2,3]", // skipped
    "42", // skipped
    "",
    '{"type":"response_item","payload":"a string"}', // skipped
    big, // oversized: skipped
    '{"__proto__":{"polluted":true},"type":"event_msg","payload":{"type":"user_message","message":"proto line"}}',
    ln("event_msg", { type: "user_message", message: 12 }),
    ln("event_msg", { type: "thread_rolled_back", num_turns: "lots" }),
    ln("event_msg", { type: "thread_rolled_back", num_turns: -3 }),
    ln("response_item", {
      type: "function_call",
      name: "shell",
      arguments: "{not json",
      call_id: "__proto__",
    }),
    ln("response_item", {
      type: "function_call",
      name: "shell",
      arguments: { command: [1, 2] },
      call_id: "x",
    }),
    ln("response_item", {
      type: "function_call",
      name: "update_plan",
      arguments: "{}",
      call_id: "__proto__",
    }),
    callOutput("__proto__", "Plan updated"),
    ln("response_item", {
      type: "function_call_output",
      call_id: "nobody",
      output: { weird: [1] },
    }),
    ln("response_item", {
      type: "function_call_output",
      call_id: "nobody2",
      output: [{ type: "input_text", text: "from an array" }],
    }),
    ln("response_item", {
      type: "function_call_output",
      call_id: "nobody3",
      output: '{"not":"a wrapper"}',
    }),
    ln("response_item", {
      type: "custom_tool_call",
      name: "apply_patch",
      input: 42,
      call_id: "p",
    }),
    ln("response_item", {
      type: "custom_tool_call",
      name: "apply_patch",
      input: "*** Update File: \n-x",
      call_id: "p2",
    }),
    ln("response_item", {
      type: "message",
      role: "assistant",
      content: { text: "not an array" },
    }),
    ln("response_item", {
      type: "message",
      role: "system",
      content: [{ type: "input_text", text: "system words" }],
    }),
    ln("compacted", { message: 7 }),
    ln("session_meta", { id: "someone-else" }),
    JSON.stringify({
      timestamp: 12,
      type: "event_msg",
      payload: { type: "user_message", message: "odd time" },
    }),
  ];
  const path = await tempRollout(lines);
  const result = await parse(path);
  equal(result.skipped, 5);
  const s = result.sessions[0] as Session;
  equal(s.id, "h1");
  equal(({} as Record<string, unknown>).polluted, undefined);
  deepEqual(s.records.map((r) => r.text), [
    "proto line",
    "from an array",
    '{"not":"a wrapper"}',
    "odd time",
  ]);
  deepEqual(s.marks, []);
  equal(result.safeOffset, (await Deno.stat(path)).size);
  // The state survives JSON and a hostile copy of it.
  const state = JSON.parse(JSON.stringify(result.state));
  state.pendingCalls = JSON.parse(
    '{"__proto__":{"tool":"evil","kind":"shell"},"ok":{"tool":"t","kind":"nope"}}',
  );
  state.userTurnSeqs = [0, "1", -4, 999];
  await Deno.writeTextFile(
    path,
    `${callOutput("__proto__", "Exit code: 3\nOutput:\nboom\n")}\n`,
    { append: true },
  );
  const next = await parse(path, {
    offset: result.safeOffset as number,
    firstLine: result.safeLine as number,
    state,
  });
  const out = next.sessions[0]?.records[0];
  deepEqual([out?.text, out?.tool, out?.flags], ["boom", "evil", {
    isError: true,
  }]);
  equal(({} as Record<string, unknown>).tool, undefined);
});

Deno.test({
  name: "codex parses every real sample without throwing",
  ignore: !hasSamples("codex"),
  fn: async () => {
    let commandsWithExit = 0;
    let failedCommands = 0;
    let edits = 0;
    let files = 0;
    let users = 0;
    const planSteps: string[] = [];
    const reasons: string[] = [];
    const titles: string[] = [];
    for await (const entry of Deno.readDir(SAMPLES)) {
      if (!entry.isDirectory) continue;
      const source = env({ CODEX_HOME: `${SAMPLES}/${entry.name}` });
      for (const path of await codex.discover(source)) {
        const result = await parse(path);
        equal(result.skipped, 0, path);
        for (const s of result.sessions) {
          ok(s.id.length > 0);
          if (s.title !== undefined) titles.push(s.title);
          const seqs = s.records.map((r) => r.seq);
          ok(seqs.every((seq, i) => i === 0 || seq > (seqs[i - 1] as number)));
          for (const r of s.records) {
            if (r.role === "command" && r.exitCode !== undefined) {
              commandsWithExit++;
            }
            if (r.role === "command" && (r.exitCode ?? 0) !== 0) {
              failedCommands++;
            }
            if (r.role === "assistant" && r.tool === "update_plan") {
              planSteps.push(...r.text.split("\n"));
            } else if (r.role === "assistant" && r.tool !== undefined) {
              reasons.push(r.text);
              equal(s.records[s.records.indexOf(r) + 1]?.role, "command");
            }
            if (r.role === "edit") edits++;
            if (r.role === "files") files++;
            if (r.role === "user") {
              users++;
              ok(!r.text.includes("<environment_context>"), r.text);
              ok(!r.text.startsWith("# AGENTS.md instructions"), r.text);
            }
          }
        }
      }
    }
    ok(commandsWithExit > 50, `commands with exit codes: ${commandsWithExit}`);
    ok(failedCommands > 0);
    ok(edits > 0 && files > 0);
    ok(users > 0);
    // Lotto645's four update_plan calls write the same three steps.
    equal(planSteps.length, 3);
    equal(new Set(planSteps).size, 3);
    equal(reasons.length, 1);
    // No title is a template's heading with its # marks.
    ok(titles.every((t) => !t.startsWith("#")), titles.join(" | "));
    ok(titles.includes("user story 1"), titles.join(" | "));
  },
});

Deno.test("older Codex stores: the TypeScript CLI's .json rollouts and cwd-less headers", async (t) => {
  await t.step("a rollout-*.json document is found and read", async () => {
    const home = await Deno.makeTempDir();
    const id = "5e0c2a91-7d3b-4f18-a6c4-92b1e07d3f58";
    const path = `${home}/.codex/sessions/rollout-2025-05-02-${id}.json`;
    await Deno.mkdir(`${home}/.codex/sessions`, { recursive: true });
    const doc = {
      session: { timestamp: "2025-05-02T14:20:00.000Z", id, instructions: "" },
      items: [
        {
          id: "msg_a",
          type: "message",
          role: "user",
          content: [{ type: "input_text", text: "why does the cache miss?" }],
        },
        {
          type: "reasoning",
          id: "rs_a",
          summary: [{ type: "summary_text", text: "thinking hard" }],
        },
        {
          id: "fc_a",
          type: "function_call",
          name: "shell",
          call_id: "call_a",
          arguments: JSON.stringify({
            command: ["bash", "-lc", "grep -n ttl cache.go"],
            workdir: "/home/u/cachesvc",
          }),
        },
        {
          type: "function_call_output",
          call_id: "call_a",
          output: JSON.stringify({
            output: "12: ttl := 0",
            metadata: { exit_code: 0, duration_seconds: 0.2 },
          }),
        },
        {
          id: "msg_b",
          type: "message",
          role: "assistant",
          content: [{ type: "output_text", text: "The TTL is zero." }],
        },
      ],
    };
    await Deno.writeTextFile(path, JSON.stringify(doc, null, 2));
    deepEqual(await codex.discover(env({}, home)), [path]);
    const kind = codex.kinds.find((k) => k.match(path));
    equal(kind?.appendOnly, false);
    const s = await only(path);
    equal(s.id, id);
    equal(s.cwd, "/home/u/cachesvc");
    equal(s.project, "cachesvc");
    equal(s.started, Date.parse("2025-05-02T14:20:00.000Z"));
    deepEqual(s.records.map((r) => [r.role, r.text, r.exitCode]), [
      ["user", "why does the cache miss?", undefined],
      ["command", "grep -n ttl cache.go", 0],
      ["tool-output", "12: ttl := 0", undefined],
      ["assistant", "The TTL is zero.", undefined],
    ]);
  });
  await t.step(
    "a pre-envelope header takes its cwd from <environment_context>",
    async () => {
      const path = await tempRollout([
        JSON.stringify({
          id: "legacy-2",
          timestamp: "2025-07-14T08:00:00Z",
          instructions: null,
          git: { branch: "main" },
        }),
        JSON.stringify({ record_type: "state" }),
        JSON.stringify({
          type: "message",
          role: "user",
          content: [{
            type: "input_text",
            text:
              "<environment_context>\n  <cwd>/home/u/billing</cwd>\n  <approval_policy>on-request</approval_policy>\n</environment_context>",
          }],
        }),
        JSON.stringify({
          type: "message",
          role: "user",
          content: [{ type: "input_text", text: "add an invoice export" }],
        }),
      ]);
      const s = await only(path);
      equal(s.cwd, "/home/u/billing");
      equal(s.project, "billing");
      deepEqual(s.records.map((r) => r.text), ["add an invoice export"]);
    },
  );
});

Deno.test("rollout parse reads a `!` command run in the TUI as a command and its output", async () => {
  const shell = [
    "<user_shell_command>",
    "<command>",
    "ls -la missing-dir",
    "</command>",
    "<result>",
    "Exit code: 2",
    "Duration: 0.0100 seconds",
    "Output:",
    "ls: cannot access 'missing-dir': No such file or directory",
    "</result>",
    "</user_shell_command>",
  ].join("\n");
  const path = await tempRollout([
    meta("0199aaaa-1111-7222-8333-444455556666"),
    userEvent("why is the build dir gone?"),
    userItem(shell),
    ln("response_item", {
      type: "custom_tool_call_output",
      call_id: "c9",
      output: "apply_patch verification failed: no such line in a.ts",
    }),
  ]);
  const s = await only(path);
  deepEqual(roles(s, "user").map((r) => r.text), [
    "why is the build dir gone?",
  ]);
  deepEqual(
    roles(s, "command").map((c) => [c.text, c.exitCode, c.tool]),
    [["ls -la missing-dir", 2, "user_shell"]],
  );
  const [output] = roles(s, "tool-output");
  equal(
    output?.text,
    "ls: cannot access 'missing-dir': No such file or directory",
  );
  equal(output?.flags?.isError, true);
  equal(s.title, "why is the build dir gone?");
});

Deno.test("a declined, sandbox-stopped or unknown call's output is an error", async () => {
  const path = await tempRollout([
    meta("0199aaaa-2222-7333-8444-55556666777a"),
    userEvent("clean the build dir"),
    shellCall("c1", "rm -rf build"),
    callOutput("c1", "exec command rejected by user"),
    ln("response_item", {
      type: "custom_tool_call",
      name: "apply_patch",
      call_id: "c2",
      input: "*** Begin Patch\n*** Delete File: build.sh\n*** End Patch",
    }),
    ln("response_item", {
      type: "custom_tool_call_output",
      call_id: "c2",
      output: "patch rejected by user",
    }),
    shellCall("c3", "touch /etc/heron"),
    callOutput("c3", "failed in sandbox: operation not permitted"),
    shellCall("c4", "curl evil.example"),
    callOutput(
      "c4",
      "This action was rejected due to unacceptable risk.\nReason: network",
    ),
    ln("response_item", {
      type: "function_call",
      name: "gull_tool",
      arguments: "{}",
      call_id: "c5",
    }),
    callOutput("c5", "unsupported call: gull_tool"),
    shellCall("c6", "cat notes.md"),
    callOutput(
      "c6",
      "Exit code: 0\nOutput:\nthe patch rejected by user was fine",
    ),
  ]);
  const s = await only(path);
  deepEqual(
    roles(s, "tool-output").map((r) => [r.tool, r.flags?.isError === true]),
    [
      ["shell_command", true],
      ["apply_patch", true],
      ["shell_command", true],
      ["shell_command", true],
      ["gull_tool", true],
      ["shell_command", false],
    ],
  );
});

Deno.test("a failed turn and a broken stream are error output of the model call", async () => {
  const path = await tempRollout([
    meta("0199aaaa-2222-7333-8444-555566667777"),
    userEvent("summarise the flaky suite"),
    ...[1, 2].map((n) =>
      ln("event_msg", {
        type: "stream_error",
        message: `Reconnecting... ${n}/5`,
        codex_error_info: {
          response_stream_disconnected: { http_status_code: 502 },
        },
        additional_details: "stream disconnected: PELICAN_GATEWAY 502",
      })
    ),
    ln("event_msg", {
      type: "error",
      message: "unexpected status 400: CORMORANT_WINDOW_FULL",
      codex_error_info: "context_window_exceeded",
    }),
    ln("event_msg", { type: "stream_error", message: "Reconnecting... 1/5" }),
  ]);
  const s = await only(path);
  deepEqual(
    roles(s, "tool-output").map((r) => [r.text, r.tool, r.flags?.isError]),
    [
      ["stream disconnected: PELICAN_GATEWAY 502", "model", true],
      ["unexpected status 400: CORMORANT_WINDOW_FULL", "model", true],
      ["Reconnecting... 1/5", "model", true],
    ],
  );
});

Deno.test("an MCP call keeps its server's namespace in the tool name", async () => {
  const path = await tempRollout([
    meta("0199aaaa-3333-7444-8555-666677778888"),
    userEvent("what does ticket HERON-7 say?"),
    ln("response_item", {
      type: "function_call",
      namespace: "mcp__tracker__",
      name: "get_ticket",
      arguments: JSON.stringify({ id: "HERON-7" }),
      call_id: "m1",
    }),
    ln("response_item", {
      type: "function_call_output",
      call_id: "m1",
      output: [{
        type: "input_text",
        text: "HERON-7: the gull cache drops keys",
      }],
    }),
    ln("response_item", {
      type: "function_call",
      namespace: "functions",
      name: "shell_command",
      arguments: JSON.stringify({ command: "ls" }),
      call_id: "m2",
    }),
    callOutput("m2", "Exit code: 0\nOutput:\nsrc\n"),
    ln("response_item", {
      type: "function_call",
      namespace: "mcp__files",
      name: "exec_command",
      arguments: JSON.stringify({ cmd: "not a shell" }),
      call_id: "m3",
    }),
    callOutput("m3", "remote ok"),
  ]);
  const s = await only(path);
  deepEqual(roles(s, "tool-output").map((r) => [r.tool, r.text]), [
    ["mcp__tracker__get_ticket", "HERON-7: the gull cache drops keys"],
    ["shell_command", "src"],
    ["mcp__files__exec_command", "remote ok"],
  ]);
  deepEqual(roles(s, "command").map((r) => [r.tool, r.text]), [
    ["shell_command", "ls"],
  ]);
});

Deno.test("an MCP result written as a JSON string of content blocks keeps their text", async () => {
  const blocks = JSON.stringify([
    { type: "text", text: "HERON-7: the gull cache drops keys" },
    {
      type: "image",
      data: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAAB",
      mimeType: "image/png",
    },
    {
      type: "resource",
      resource: { uri: "file:///w/notes.md", text: "gull notes" },
    },
  ]);
  const s = await only(
    await tempRollout([
      meta("0199aaaa-3333-7444-8555-66667777889b"),
      userEvent("what does HERON-7 say?"),
      ln("response_item", {
        type: "function_call",
        name: "tracker__get_ticket",
        arguments: JSON.stringify({ id: "HERON-7" }),
        call_id: "m1",
      }),
      callOutput("m1", blocks),
      ln("response_item", {
        type: "function_call",
        name: "tracker__list",
        arguments: "{}",
        call_id: "m2",
      }),
      // A tool's own JSON array is its text.
      callOutput("m2", `["HERON-7","HERON-8"]`),
    ]),
  );
  deepEqual(roles(s, "tool-output").map((r) => r.text), [
    "HERON-7: the gull cache drops keys\ngull notes",
    `["HERON-7","HERON-8"]`,
  ]);
});

Deno.test("a tool call's end event says whether its output is an error", async (t) => {
  const mcpCall = (id: string, tool: string) =>
    ln("response_item", {
      type: "function_call",
      namespace: "mcp__tracker__",
      name: tool,
      arguments: JSON.stringify({ id: "HERON-7" }),
      call_id: id,
    });
  const mcpEnd = (id: string, tool: string, result: unknown) =>
    ln("event_msg", {
      type: "mcp_tool_call_end",
      call_id: id,
      invocation: { server: "tracker", tool, arguments: { id: "HERON-7" } },
      duration: { secs: 0, nanos: 5 },
      result,
    });
  const items = (text: string) => [{ type: "input_text", text }];
  const lines = [
    meta("0199aaaa-3333-7444-8555-666677778899"),
    userEvent("file the gull cache bug"),
    // The server answered with an error result: the output is its text only.
    mcpCall("m1", "get_ticket"),
    mcpEnd("m1", "get_ticket", {
      Ok: { content: items("no ticket HERON-7"), isError: true },
    }),
    ln("response_item", {
      type: "function_call_output",
      call_id: "m1",
      output: items("no ticket HERON-7"),
    }),
    // A success says nothing.
    mcpCall("m2", "search"),
    mcpEnd("m2", "search", { Ok: { content: items("HERON-8 gull cache") } }),
    ln("response_item", {
      type: "function_call_output",
      call_id: "m2",
      output: items("HERON-8 gull cache"),
    }),
    // The call never reached the server.
    mcpCall("m3", "create_ticket"),
    mcpEnd("m3", "create_ticket", { Err: "request timed out" }),
    ln("response_item", {
      type: "function_call_output",
      call_id: "m3",
      output: items("request timed out"),
    }),
    // Before the end event was kept, Codex wrote a failed call's text so.
    ln("response_item", {
      type: "function_call",
      name: "tracker__create_ticket",
      arguments: "{}",
      call_id: "m4",
    }),
    callOutput("m4", `err: "Connection closed"`),
    // A patch that did not apply, and a dynamic tool that failed.
    ln("response_item", {
      type: "custom_tool_call",
      name: "apply_patch",
      call_id: "p1",
      input: "*** Begin Patch\n*** Add File: notes.md\n+gull\n*** End Patch",
    }),
    ln("event_msg", {
      type: "patch_apply_end",
      call_id: "p1",
      stdout: "",
      stderr: "notes.md already exists",
      success: false,
    }),
    ln("response_item", {
      type: "custom_tool_call_output",
      call_id: "p1",
      output: "notes.md already exists",
    }),
    ln("response_item", {
      type: "function_call",
      name: "lookup_order",
      arguments: "{}",
      call_id: "d1",
    }),
    ln("event_msg", {
      type: "dynamic_tool_call_response",
      call_id: "d1",
      tool: "lookup_order",
      content_items: [],
      success: false,
      error: "order service down",
    }),
    callOutput("d1", "order service down"),
  ];
  const want = [
    ["mcp__tracker__get_ticket", "no ticket HERON-7", true],
    ["mcp__tracker__search", "HERON-8 gull cache", false],
    ["mcp__tracker__create_ticket", "request timed out", true],
    ["tracker__create_ticket", `err: "Connection closed"`, true],
    ["apply_patch", "notes.md already exists", true],
    ["lookup_order", "order service down", true],
  ];
  const outputs = (records: SessionRecord[]) =>
    records.filter((r) => r.role === "tool-output").map((
      r,
    ) => [r.tool, r.text, r.flags?.isError === true]);
  await t.step("one pass", async () => {
    deepEqual(outputs((await only(await tempRollout(lines))).records), want);
  });
  await t.step("cut between every pair of lines", async () => {
    for await (const { cut, records } of readAtEveryCut(lines)) {
      deepEqual(outputs(records), want, `cut ${cut}`);
    }
  });
  await t.step("an end event after the output still flags it", async () => {
    const s = await only(
      await tempRollout([
        meta("0199aaaa-3333-7444-8555-66667777889a"),
        userEvent("look it up"),
        mcpCall("m1", "get_ticket"),
        ln("response_item", {
          type: "function_call_output",
          call_id: "m1",
          output: items("no ticket HERON-7"),
        }),
        mcpEnd("m1", "get_ticket", { Err: "no ticket HERON-7" }),
        assistantItem("There is no such ticket."),
      ]),
    );
    deepEqual(outputs(s.records), [
      ["mcp__tracker__get_ticket", "no ticket HERON-7", true],
    ]);
  });
});

Deno.test("web searches and generated images are commands, viewed images files, once for both copies", async (t) => {
  const search = (query: string) => ({
    type: "search",
    query,
    queries: [query],
  });
  const lines = [
    meta("0199aaaa-4444-7555-8666-777788889999", { cwd: "/w/gull" }),
    userEvent("why does the gull cache evict hot keys?"),
    ln("response_item", {
      type: "web_search_call",
      status: "completed",
      action: search("lru plover-sketch admission"),
    }),
    ln("event_msg", {
      type: "web_search_end",
      call_id: "ws_1",
      query: "lru plover-sketch admission",
      action: { type: "search", query: "lru plover-sketch admission" },
    }),
    // The event first, then its item; then the same query searched again.
    ln("event_msg", {
      type: "web_search_end",
      call_id: "ws_2",
      query: "https://example.org/tern",
      action: { type: "open_page", url: "https://example.org/tern" },
    }),
    ln("response_item", {
      type: "web_search_call",
      id: "ws_2",
      status: "completed",
      action: { type: "open_page", url: "https://example.org/tern" },
    }),
    ln("response_item", {
      type: "web_search_call",
      status: "completed",
      action: search("lru plover-sketch admission"),
    }),
    // No action on the item: the event says what was searched.
    ln("response_item", { type: "web_search_call", status: "completed" }),
    ln("event_msg", {
      type: "web_search_end",
      call_id: "ws_4",
      query: "skua eviction storm",
    }),
    ln("response_item", {
      type: "function_call",
      name: "view_image",
      arguments: JSON.stringify({ path: "docs/flame_puffin.png" }),
      call_id: "v1",
    }),
    ln("event_msg", {
      type: "view_image_tool_call",
      call_id: "v1",
      path: "/w/gull/docs/flame_puffin.png",
    }),
    ln("response_item", {
      type: "function_call_output",
      call_id: "v1",
      output: [{
        type: "input_image",
        image_url: "data:image/png;base64,AA==",
      }],
    }),
    ln("response_item", {
      type: "image_generation_call",
      id: "ig_1",
      status: "completed",
      revised_prompt: "a gull in a hard hat guarding a cache",
      result: "AA==",
    }),
    ln("event_msg", {
      type: "image_generation_end",
      call_id: "ig_1",
      status: "completed",
      revised_prompt: "a gull in a hard hat guarding a cache",
      result: "AA==",
    }),
    ln("event_msg", {
      type: "item_completed",
      item: { type: "ImageView", id: "v2", path: "/w/gull/shot.png" },
    }),
    assistantItem("The admission sketch is missing."),
  ];
  const want = [
    ["command", "web_search", "lru plover-sketch admission"],
    ["command", "web_search", "https://example.org/tern"],
    ["command", "web_search", "lru plover-sketch admission"],
    ["command", "web_search", "skua eviction storm"],
    ["files", "view_image", "/w/gull/docs/flame_puffin.png"],
    ["command", "image_generation", "a gull in a hard hat guarding a cache"],
    ["files", "view_image", "/w/gull/shot.png"],
  ];
  const work = (records: SessionRecord[]) =>
    records.filter((r) => r.role === "command" || r.role === "files").map((
      r,
    ) => [r.role, r.tool, r.text]);
  await t.step("one pass", async () => {
    const s = await only(await tempRollout(lines));
    deepEqual(work(s.records), want);
    equal(roles(s, "tool-output").length, 0);
  });
  await t.step("cut between every pair of lines", async () => {
    for await (const { cut, records } of readAtEveryCut(lines)) {
      deepEqual(work(records), want, `cut ${cut}`);
    }
  });
});

Deno.test("a code-mode exec script's shell commands are commands, paired with its output", async () => {
  const exec = (id: string, input: string) =>
    ln("response_item", {
      type: "custom_tool_call",
      status: "completed",
      call_id: id,
      name: "exec",
      input,
    });
  const scriptOutput = (id: string, status: string, ...texts: string[]) =>
    ln("response_item", {
      type: "custom_tool_call_output",
      call_id: id,
      name: "exec",
      output: [
        {
          type: "input_text",
          text: `Script ${status}\nWall time 2.5 seconds\nOutput:\n`,
        },
        ...texts.map((text) => ({ type: "input_text", text })),
      ],
    });
  const path = await tempRollout([
    meta("0199aaaa-5555-7666-8777-88889999aaaa", { cwd: "/w/otter" }),
    userEvent("run the otter suite"),
    exec(
      "x1",
      'const r = await tools.exec_command({cmd: "cargo nextest run -p otter", workdir: "/w/otter", yield_time_ms: 60000});\ntext(r.output);',
    ),
    scriptOutput("x1", "completed", "FAIL otter::shard::rebalance_vole\n"),
    exec(
      "x2",
      `const a = await tools.shell_command({ "command": 'rg -n "vole\\\\b" src' });\nconst b = await tools.exec_command({cmd: \`git log -1 --format=%H\`});\ntext(a.output + b.output);`,
    ),
    scriptOutput("x2", "failed", "Script error:\nTypeError: b is undefined"),
    exec("x3", "text(JSON.stringify(await tools.list_mcp_resources({})));"),
    scriptOutput("x3", "completed", "[]"),
    exec(
      "x4",
      "const r = await tools.exec_command({cmd: 'make lint'});\ntext(r.output);",
    ),
    scriptOutput(
      "x4",
      "completed",
      "Chunk ID: 1a\nWall time: 1.1 seconds\nProcess exited with code 2\nOriginal token count: 4\nOutput:\nerror: MARTEN_LINT\n",
    ),
  ]);
  const s = await only(path);
  deepEqual(
    s.records.slice(1).map((r) => [
      r.role,
      r.tool,
      r.text,
      r.exitCode,
      r.flags?.isError,
    ]),
    [
      ["command", "exec", "cargo nextest run -p otter", undefined, undefined],
      [
        "tool-output",
        "exec",
        "FAIL otter::shard::rebalance_vole",
        undefined,
        undefined,
      ],
      ["command", "exec", 'rg -n "vole\\b" src', undefined, undefined],
      ["command", "exec", "git log -1 --format=%H", undefined, undefined],
      [
        "tool-output",
        "exec",
        "Script error:\nTypeError: b is undefined",
        undefined,
        true,
      ],
      ["tool-output", "exec", "[]", undefined, undefined],
      ["command", "exec", "make lint", 2, undefined],
      ["tool-output", "exec", "error: MARTEN_LINT", undefined, true],
    ],
  );
});

Deno.test("a proposed plan is assistant speech, once when its message says it too", async (t) => {
  const plan = (text: string) =>
    ln("event_msg", {
      type: "item_completed",
      thread_id: "p",
      turn_id: "t1",
      item: { type: "Plan", id: "t1-plan", text },
    });
  const steps = "1. Shard by tenant_puffin\n2. Add the admission sketch";
  const lines = [
    meta("0199aaaa-6666-7777-8888-9999aaaabbbb"),
    userEvent("plan the cache rework"),
    plan(steps),
    assistantItem(
      `Here is the plan.\n<proposed_plan>\n${steps}\n</proposed_plan>`,
    ),
    userEvent("now a plan for the metrics"),
    plan("1. Backfill the grebe metrics"),
    ln("event_msg", { type: "task_complete", turn_id: "t2" }),
    userEvent("and the rollout?"),
    plan("1. Canary on the shearwater fleet"),
  ];
  const speech = (records: SessionRecord[]) =>
    records.filter((r) => r.role === "assistant").map((r) => r.text);
  const want = [
    `Here is the plan.\n<proposed_plan>\n${steps}\n</proposed_plan>`,
    "1. Backfill the grebe metrics",
    "1. Canary on the shearwater fleet",
  ];
  await t.step("one pass", async () => {
    const done = ln("event_msg", { type: "task_complete", turn_id: "t3" });
    const path = await tempRollout([...lines, done]);
    const whole = await parse(path);
    deepEqual(speech(whole.sessions[0]?.records ?? []), want);
    equal(whole.safeOffset, (await Deno.stat(path)).size);
    // A file that ends on a plan may yet get its message: the plan waits.
    const open = await parse(await tempRollout(lines));
    deepEqual(speech(open.sessions[0]?.records ?? []), want.slice(0, 2));
  });
  await t.step("cut between every pair of lines", async () => {
    const all = [...lines, assistantItem("Rolling out.")];
    for await (const { cut, records } of readAtEveryCut(all)) {
      deepEqual(speech(records), [...want, "Rolling out."], `cut ${cut}`);
    }
  });
});

Deno.test("a message between agents is assistant speech, flagged when a sub-agent wrote it", async () => {
  const message = (author: string, recipient: string, content: string) =>
    ln("inter_agent_communication", {
      author,
      recipient,
      other_recipients: [],
      content,
      trigger_turn: true,
    });
  const parent = await tempRollout([
    meta("0199aaaa-7777-7888-8999-aaaabbbbcccc"),
    userEvent("find the lock inversion"),
    message("/root/scout", "/root", "FYI the LOON_LOCKSTEP flag serialises it"),
    ln("inter_agent_communication", {
      author: "/root/scout",
      recipient: "/root",
      content: "",
      encrypted_content: "gAAAA",
      trigger_turn: false,
    }),
    message("/root", "/root/scout", "check the wal path too"),
    ln("event_msg", { type: "thread_rolled_back", num_turns: 1 }),
  ]);
  const s = await only(parent);
  deepEqual(
    s.records.map((r) => [r.role, r.text, r.flags?.subagent]),
    [
      ["user", "find the lock inversion", undefined],
      ["assistant", "FYI the LOON_LOCKSTEP flag serialises it", true],
      ["assistant", "check the wal path too", undefined],
    ],
  );
  // Codex starts a turn with each message: a rollback of one undoes the last.
  deepEqual(s.marks, [{ kind: "rollback", from: 2, to: 3 }]);
  equal(s.title, "find the lock inversion");
  // A sub-agent whose task came from its parent is titled by it.
  const child = await only(
    await tempRollout([
      meta("0199aaaa-7777-7888-8999-aaaabbbbdddd", {
        source: {
          subagent: {
            thread_spawn: {
              parent_thread_id: "0199aaaa-7777-7888-8999-aaaabbbbcccc",
              agent_path: "/root/scout",
            },
          },
        },
      }),
      message("/root", "/root/scout", "look for the lock inversion"),
      assistantItem("found it in the wal path"),
    ]),
  );
  equal(child.title, "look for the lock inversion");
  equal(child.records[0]?.flags, undefined);
});

Deno.test("a message between agents written as a response item is assistant speech, once", async (t) => {
  // Newer Codex writes a message between agents as an `agent_message`
  // response item (author, recipient, content parts), and in between wrote
  // it as an assistant message whose only text is the serialized message.
  const serialized = (fields: Record<string, unknown>) =>
    ln("response_item", {
      type: "message",
      role: "assistant",
      content: [{ type: "output_text", text: JSON.stringify(fields) }],
      phase: "commentary",
    });
  const agentItem = (
    author: string,
    recipient: string,
    content: unknown[],
  ) =>
    ln("response_item", { type: "agent_message", author, recipient, content });
  await t.step("agent_message items", async () => {
    const s = await only(
      await tempRollout([
        meta("0199aaaa-7777-7888-8999-aaaabbbb0001"),
        userEvent("why does the kiwi job stall"),
        agentItem("/root/probe", "/root", [
          { type: "input_text", text: "the kiwi job waits on LOCK_KIWI_Q" },
        ]),
        agentItem("/root", "/root/probe", [
          { type: "input_text", text: "trace who holds it" },
        ]),
        // An encrypted one says nothing readable.
        agentItem("/root/probe", "/root", [
          { type: "input_text", text: "Message from /root/probe to /root" },
          { type: "encrypted_content", encrypted_content: "gAAAA" },
        ]),
        // The same message recorded twice in a row counts once.
        ln("inter_agent_communication", {
          author: "/root/probe",
          recipient: "/root",
          content: "held by the nightly vacuum",
          trigger_turn: true,
        }),
        agentItem("/root/probe", "/root", [
          { type: "input_text", text: "held by the nightly vacuum" },
        ]),
        ln("event_msg", { type: "thread_rolled_back", num_turns: 1 }),
      ]),
    );
    deepEqual(
      s.records.map((r) => [r.role, r.text, r.flags?.subagent]),
      [
        ["user", "why does the kiwi job stall", undefined],
        ["assistant", "the kiwi job waits on LOCK_KIWI_Q", true],
        ["assistant", "trace who holds it", undefined],
        ["assistant", "held by the nightly vacuum", true],
      ],
    );
    deepEqual(s.marks, [{ kind: "rollback", from: 3, to: 4 }]);
  });
  await t.step("serialized in an assistant message", async () => {
    const s = await only(
      await tempRollout([
        meta("0199aaaa-7777-7888-8999-aaaabbbb0002"),
        userEvent("keep an eye on the emu build"),
        serialized({
          author: "/root/watcher",
          recipient: "/root",
          other_recipients: [],
          content: "Snooze 300s: emu build still queued",
          trigger_turn: false,
        }),
        serialized({
          author: "/root/watcher",
          recipient: "/root",
          other_recipients: [],
          content: "",
          encrypted_content: "gAAAA",
          trigger_turn: false,
        }),
        // Speech that merely is JSON stays speech.
        assistantItem('{"author":"me","note":"not a message between agents"}'),
      ]),
    );
    deepEqual(
      s.records.map((r) => [r.role, r.text, r.flags?.subagent]),
      [
        ["user", "keep an eye on the emu build", undefined],
        ["assistant", "Snooze 300s: emu build still queued", true],
        [
          "assistant",
          '{"author":"me","note":"not a message between agents"}',
          undefined,
        ],
      ],
    );
  });
});

Deno.test("the same words sent again after a turn ends are a new turn, whichever name the boundary has", async () => {
  // Codex reads `turn_started`/`turn_complete` as the names of
  // `task_started`/`task_complete` too.
  for (
    const [start, end] of [
      ["task_started", "task_complete"],
      ["turn_started", "turn_complete"],
    ]
  ) {
    const s = await only(
      await tempRollout([
        meta("0199aaaa-7777-7888-8999-aaaabbbb0003"),
        ln("event_msg", { type: start, turn_id: "t1" }),
        ln(
          "event_msg",
          { type: "user_message", message: "run the quail suite" },
          "2026-11-10T10:00:01Z",
        ),
        ln("event_msg", { type: end, turn_id: "t1" }, "2026-11-10T10:00:02Z"),
        ln("event_msg", { type: start, turn_id: "t2" }, "2026-11-10T10:00:03Z"),
        ln(
          "event_msg",
          { type: "user_message", message: "run the quail suite" },
          "2026-11-10T10:00:04Z",
        ),
      ]),
    );
    deepEqual(
      roles(s, "user").map((r) => r.text),
      ["run the quail suite", "run the quail suite"],
      start,
    );
  }
});

Deno.test("a name given to the thread titles the session", async (t) => {
  const id = "0199aaaa-8888-7999-8aaa-bbbbccccdddd";
  const renamed = (name: string, thread = id) =>
    ln("event_msg", {
      type: "thread_name_updated",
      thread_id: thread,
      thread_name: name,
    });
  await t.step("thread_name_updated beats the first prompt", async () => {
    const path = await tempRollout([
      meta(id),
      userEvent("the ibis cache keeps evicting hot keys; find out why"),
      renamed("Ibis hot-key eviction"),
      // A fork's copy of its source's rename names the source.
      renamed("Someone else's thread", "0199aaaa-0000-7000-8000-000000000000"),
    ]);
    const s = await only(path);
    equal(s.title, "Ibis hot-key eviction");
    equal(s.titleGiven, true);
  });
  await t.step("a rename in a later pass comes back alone", async () => {
    const path = await tempRollout([meta(id), userEvent("find the ibis bug")]);
    const first = await parse(path);
    equal(first.sessions[0]?.title, "find the ibis bug");
    equal(first.sessions[0]?.titleGiven, undefined);
    await Deno.writeTextFile(path, `${renamed("Ibis bug hunt")}\n`, {
      append: true,
    });
    const next = await parse(path, resumeOptions(first));
    equal(next.sessions.length, 1);
    deepEqual(next.sessions[0]?.records, []);
    equal(next.sessions[0]?.title, "Ibis bug hunt");
    equal(next.sessions[0]?.titleGiven, true);
  });
  await t.step(
    "session_index.jsonl names it, the last line winning",
    async () => {
      const home = await Deno.makeTempDir();
      const day = `${home}/sessions/2026/11/10`;
      await Deno.mkdir(day, { recursive: true });
      const other = "0199aaaa-9999-7aaa-8bbb-ccccddddeeee";
      await Deno.writeTextFile(
        `${home}/session_index.jsonl`,
        [
          {
            id,
            thread_name: "Ibis draft name",
            updated_at: "2026-11-10T10:00:00Z",
          },
          {
            id: other,
            thread_name: "Egret",
            updated_at: "2026-11-10T10:01:00Z",
          },
          {
            id,
            thread_name: "Ibis eviction",
            updated_at: "2026-11-10T10:02:00Z",
          },
          { id: other, thread_name: "", updated_at: "2026-11-10T10:03:00Z" },
        ].map((e) => `${JSON.stringify(e)}\n`).join("") + '{"id":',
      );
      const write = async (sid: string, lines: string[]) => {
        const path = `${day}/rollout-2026-11-10T10-00-00-${sid}.jsonl`;
        await Deno.writeTextFile(path, lines.map((l) => `${l}\n`).join(""));
        return path;
      };
      const a = await only(
        await write(id, [meta(id), userEvent("x"), renamed("Older name")]),
      );
      equal(a.title, "Ibis eviction");
      const b = await only(
        await write(other, [meta(other), userEvent("egret?")]),
      );
      equal(b.title, "egret?");
      equal(b.titleGiven, undefined);
    },
  );
});

Deno.test("the newest rollout shapes read whole, in one pass or resumed at any line", async (t) => {
  const [parent, child] = await codex.discover(env({ CODEX_HOME: NEWEST }));
  ok(parent && child);
  const view = (r: SessionRecord) => [
    r.role,
    r.tool,
    r.text.split("\n")[0],
    r.exitCode,
    r.flags?.isError ?? r.flags?.subagent,
  ];
  await t.step("the parent thread", async () => {
    const s = await only(parent);
    equal(s.title, "Kiwi ledger: lost writes on failover");
    deepEqual(s.records.map(view), [
      [
        "user",
        undefined,
        "the kiwi ledger drops late writes after a failover; find out why",
        undefined,
        undefined,
      ],
      ["command", "exec_command", "rg -n failover ledger/", 0, undefined],
      [
        "tool-output",
        "exec_command",
        "ledger/raft.go:212: func (l *Ledger) onFailover() { // KAKAPO_REPLAY",
        undefined,
        undefined,
      ],
      [
        "tool-output",
        "mcp__tracker__get_ticket",
        "TUI-44: late writes lost after failover; suspect WEKA_FENCE",
        undefined,
        undefined,
      ],
      [
        "command",
        "web_search",
        "raft fencing token kea-ledger",
        undefined,
        undefined,
      ],
      [
        "files",
        "view_image",
        "/home/dev/src/ledger/docs/ledger_takahe.png",
        undefined,
        undefined,
      ],
      ["command", "exec", "go test ./ledger -run TestFailover", 1, undefined],
      [
        "tool-output",
        "exec",
        "--- FAIL: TestFailover (2.01s)",
        undefined,
        true,
      ],
      [
        "command",
        "image_generation",
        "a kiwi in a raincoat guarding a ledger during a storm",
        undefined,
        undefined,
      ],
      [
        "tool-output",
        "model",
        "stream disconnected before completion: TOMTIT_UPSTREAM 502",
        undefined,
        true,
      ],
      [
        "tool-output",
        "model",
        "unexpected status 400 Bad Request: RIFLEMAN_CONTEXT_OVERFLOW",
        undefined,
        true,
      ],
      [
        "assistant",
        undefined,
        "FYI the PUKEKO_GUARD flag hides the race in CI",
        undefined,
        true,
      ],
      ["assistant", undefined, "1. Fence writes by term", undefined, undefined],
      [
        "assistant",
        undefined,
        "Root cause: the old leader keeps writing for one term after a failover. We decided to fence writes by term (FANTAIL_TERM) and replay the ledger tail.",
        undefined,
        undefined,
      ],
    ]);
  });
  await t.step("the sub-agent it spawned", async () => {
    const s = await only(child);
    equal(s.parent, "019e4a10-7c2d-7e31-9b40-5d6e7f801a02");
    equal(s.lineage, "subagent");
    equal(s.title, "audit the ledger fencing for races");
    deepEqual(s.records.map((r) => r.role), [
      "assistant",
      "command",
      "tool-output",
      "assistant",
    ]);
  });
  await t.step("resumed at every line", async () => {
    const whole = await only(parent);
    const lines = (await Deno.readTextFile(parent)).split("\n")
      .filter((l) => l.length > 0).map((l) => `${l}\n`);
    const dir = await Deno.makeTempDir();
    const path = `${dir}/${parent.split("/").at(-1)}`;
    const comparable = (r: SessionRecord) => ({
      ...(shape(r) as object),
      line: undefined,
      time: undefined,
    });
    for (let cut = 1; cut < lines.length; cut++) {
      await Deno.writeTextFile(path, lines.slice(0, cut).join(""));
      const first = await parse(path);
      await Deno.writeTextFile(path, lines.join(""));
      const next = await parse(path, resumeOptions(first));
      deepEqual(
        [
          ...(first.sessions[0]?.records ?? []),
          ...(next.sessions[0]?.records ?? []),
        ].map(comparable),
        whole.records.map(comparable),
        `cut ${cut}`,
      );
    }
  });
});

Deno.test("a rollout of unclosed environment blocks and tool calls reads in linear time", async () => {
  // Lazy regexes retried each later unclosed `<environment_context>` or
  // `tools.exec_command({`: 200 KB of them took 0.5 s and 2 s, a few MB
  // minutes, and the index pass waited.
  const dir = await Deno.makeTempDir();
  const path = `${dir}/rollout-2026-01-01T00-00-00-soup.jsonl`;
  const item = (payload: Record<string, unknown>) =>
    JSON.stringify({
      timestamp: "2026-01-01T00:00:01Z",
      type: "response_item",
      payload,
    });
  await Deno.writeTextFile(
    path,
    [
      JSON.stringify({
        timestamp: "2026-01-01T00:00:00Z",
        type: "session_meta",
        payload: { id: "soup" },
      }),
      item({
        type: "message",
        role: "user",
        content: [{
          type: "input_text",
          text: "<environment_context>".repeat(40_000),
        }],
      }),
      item({
        type: "custom_tool_call",
        name: "exec",
        call_id: "c1",
        input: "tools.exec_command({".repeat(40_000),
      }),
      userEvent("after the soup"),
    ].join("\n") + "\n",
  );
  const t0 = performance.now();
  const result = await parse(path);
  ok(performance.now() - t0 < 3000, `${performance.now() - t0} ms`);
  equal(result.sessions[0]?.records.at(-1)?.text, "after the soup");
});

Deno.test("codex /review: the request Codex writes is not speech, the findings are assistant output", async (t) => {
  const rubric =
    "# Review guidelines:\n\nYou are acting as a reviewer for a proposed code change made by another engineer.";
  const output = {
    findings: [{
      title: "[P1] Cache key ignores the tenant",
      body: "Two tenants share one entry.",
      confidence_score: 0.8,
      priority: 1,
      code_location: {
        absolute_file_path: "/w/proj/cache.ts",
        line_range: { start: 10, end: 12 },
      },
    }],
    overall_correctness: "patch is incorrect",
    overall_explanation: "One bug in the cache.",
    overall_confidence_score: 0.8,
  };
  const findings =
    "One bug in the cache.\n- [P1] Cache key ignores the tenant — /w/proj/cache.ts:10-12\n  Two tenants share one entry.";
  const preset = [
    meta("r1"),
    userEvent("add a tenant cache"),
    assistantItem("done"),
    ln("event_msg", {
      type: "entered_review_mode",
      target: { type: "uncommittedChanges" },
      user_facing_hint: "current changes",
    }),
    userEvent(
      "Review the current code changes (staged, unstaged, and untracked files) and provide prioritized findings.",
    ),
    agentEvent("Looking at the diff."),
    userItem(
      "<user_action>\n  <context>User initiated a review task.</context>\n  <action>review</action>\n  <results>\n  One bug.\n  </results>\n</user_action>",
    ),
    ln("event_msg", { type: "exited_review_mode", review_output: output }),
  ];
  const done = ln("event_msg", { type: "task_complete" });
  await t.step("a preset review: no user turn; the findings kept", async () => {
    const s = await only(await tempRollout([...preset, done]));
    deepEqual(roles(s, "user").map((r) => r.text), ["add a tenant cache"]);
    deepEqual(roles(s, "assistant").map((r) => r.text), ["done", findings]);
  });
  await t.step("a rendered review message says the findings once", async () => {
    const s = await only(
      await tempRollout([
        ...preset,
        assistantItem(`Review: ${findings}`),
        done,
      ]),
    );
    deepEqual(roles(s, "assistant").map((r) => r.text), [
      "done",
      `Review: ${findings}`,
    ]);
  });
  await t.step("a cut anywhere neither loses nor repeats them", async () => {
    const lines = [...preset, assistantItem(`Review: ${findings}`)];
    for await (const { cut, records } of readAtEveryCut(lines)) {
      deepEqual(
        records.filter((r) => r.role !== "tool-output").map((r) => r.text),
        ["add a tenant cache", "done", `Review: ${findings}`],
        `cut ${cut}`,
      );
    }
  });
  await t.step("a custom review's instructions are the person's", async () => {
    for (
      const entered of [
        { target: { type: "custom", instructions: "check the locking" } },
        { prompt: "check the locking", user_facing_hint: "check the locking" },
      ]
    ) {
      const s = await only(
        await tempRollout([
          meta("r2"),
          ln("event_msg", { type: "entered_review_mode", ...entered }),
          userEvent("check the locking"),
          ln("event_msg", { type: "exited_review_mode", review_output: null }),
        ]),
      );
      deepEqual(roles(s, "user").map((r) => r.text), ["check the locking"]);
    }
  });
  await t.step(
    "the rubric sent as a message leaves only the task",
    async () => {
      const s = await only(
        await tempRollout([
          meta("r3"),
          userEvent(
            `${rubric}\n\n---\n\nNow, here's your task: Review the code changes introduced by commit abc123. Provide prioritized, actionable findings.`,
          ),
          userEvent(
            `${rubric}\n\n---\n\nNow, here's your task: is the retry safe?`,
          ),
        ]),
      );
      deepEqual(roles(s, "user").map((r) => r.text), ["is the retry safe?"]);
    },
  );
  await t.step(
    "a review sub-agent's request is Codex's, its answer kept",
    async () => {
      const s = await only(
        await tempRollout([
          meta("r4", { source: { subagent: "review" } }),
          userEvent(
            "Review the code changes against the base branch 'main'. Provide prioritized, actionable findings.",
          ),
          assistantItem(JSON.stringify(output)),
        ]),
      );
      deepEqual(roles(s, "user"), []);
      equal(roles(s, "assistant").length, 1);
    },
  );
});

Deno.test("codex tool_search: what the model looked for is a command, the tools it found its output", async () => {
  const s = await only(
    await tempRollout([
      meta("ts1"),
      userEvent("book the review meeting"),
      ln("response_item", {
        type: "tool_search_call",
        call_id: "search-1",
        execution: "client",
        arguments: { query: "calendar create", limit: 2 },
      }),
      ln("response_item", {
        type: "tool_search_output",
        call_id: "search-1",
        status: "completed",
        execution: "client",
        tools: [
          {
            type: "function",
            name: "mcp__codex_apps__calendar_create_event",
            description: "Create a calendar event.",
            parameters: { type: "object" },
          },
          {
            type: "namespace",
            name: "mcp__linear__",
            tools: [{ type: "function", name: "create_issue" }],
          },
        ],
      }),
      ln("response_item", {
        type: "tool_search_call",
        execution: "server",
        arguments: JSON.stringify({ queries: ["send mail"] }),
      }),
      ln("response_item", {
        type: "tool_search_output",
        execution: "server",
        status: "completed",
        tools: [],
      }),
    ]),
  );
  deepEqual(
    s.records.map((r) => [r.role, r.tool, r.text]),
    [
      ["user", undefined, "book the review meeting"],
      ["command", "tool_search", "calendar create"],
      [
        "tool-output",
        "tool_search",
        "mcp__codex_apps__calendar_create_event: Create a calendar event.\nmcp__linear__create_issue",
      ],
      ["command", "tool_search", "send mail"],
    ],
  );
});

Deno.test("a shell call with no command answers no batch: a secret printed before it stays redacted", async (t) => {
  const cases: Array<[string, string]> = [
    [
      "an empty argv",
      ln("response_item", {
        type: "function_call",
        name: "shell",
        arguments: JSON.stringify({ command: [] }),
        call_id: "c2",
      }),
    ],
    ["an empty command line", shellCall("c2", "")],
    ["a blank command line", shellCall("c2", "   ")],
  ];
  for (const [label, empty] of cases) {
    await t.step(label, async () => {
      // The empty call's output comes first and the next command opens its
      // batch before the token's output arrives.
      const path = await tempRollout([
        meta("s-empty"),
        shellCall("c1", "heroku auth:token"),
        empty,
        callOutput("c2", "Exit code: 1\nOutput:\nerror: command is empty"),
        shellCall("c3", "git status"),
        callOutput(
          "c1",
          "Exit code: 0\nOutput:\n2adaf897-2e8c-49b8-8323-1e01b627e2c3",
        ),
        callOutput("c3", "Exit code: 0\nOutput:\nnothing to commit"),
      ]);
      const s = await only(path);
      const [prepared] = prepareSessions([s], true, {});
      const stored = prepared!.records.map((r) =>
        decodeBodySync(r.body, (r.flags & FLAG.compressed) !== 0)
      );
      equal(stored[3], "[redacted:command-output]");
      equal(stored[4], "nothing to commit");
      deepEqual(s.records.map((r) => [r.role, r.tool, r.text]), [
        ["command", "shell_command", "heroku auth:token"],
        ["tool-output", "codex", "error: command is empty"],
        ["command", "shell_command", "git status"],
        [
          "tool-output",
          "shell_command",
          "2adaf897-2e8c-49b8-8323-1e01b627e2c3",
        ],
        ["tool-output", "shell_command", "nothing to commit"],
      ]);
    });
  }
});

Deno.test("update_plan: the plan's steps and explanation are assistant speech, each step once", async (t) => {
  const planCall = (id: string, args: unknown) =>
    ln("response_item", {
      type: "function_call",
      name: "update_plan",
      arguments: typeof args === "string" ? args : JSON.stringify(args),
      call_id: id,
    });
  const lines = [
    meta("0199aaaa-1212-7000-8000-000000000001"),
    userEvent("move the heron queue to the new broker"),
    planCall("p1", {
      explanation: "Broker first, then the consumers.",
      plan: [
        { step: "Stand up the kestrel broker", status: "in_progress" },
        { step: "Point heron consumers at it", status: "pending" },
      ],
    }),
    callOutput("p1", "Plan updated"),
    shellCall("c1", "kestrel up"),
    callOutput("c1", "Exit code: 0\nOutput:\nbroker ready"),
    // The whole plan again, its statuses moved on, with one step more.
    planCall("p2", {
      plan: [
        { step: "Stand up the kestrel broker", status: "completed" },
        { step: "Point heron consumers at it", status: "in_progress" },
        { step: "Drain the old heron queue", status: "pending" },
      ],
    }),
    callOutput("p2", "Plan updated"),
    // Nothing new: no record.
    planCall("p3", {
      explanation: "Broker first, then the consumers.",
      plan: [
        { step: "Stand up the kestrel broker", status: "completed" },
        { step: "Point heron consumers at it", status: "completed" },
        { step: "Drain the old heron queue", status: "completed" },
      ],
    }),
    callOutput("p3", "Plan updated"),
    planCall("p4", "{not json"),
    planCall("p5", { plan: "not a list", explanation: "  " }),
    assistantItem("The heron queue runs on kestrel now."),
  ];
  const want = [
    ["user", undefined, "move the heron queue to the new broker"],
    ["assistant", "update_plan", "Broker first, then the consumers."],
    [
      "assistant",
      "update_plan",
      "Stand up the kestrel broker\nPoint heron consumers at it",
    ],
    ["command", "shell_command", "kestrel up"],
    ["tool-output", "shell_command", "broker ready"],
    ["assistant", "update_plan", "Drain the old heron queue"],
    ["assistant", undefined, "The heron queue runs on kestrel now."],
  ];
  const view = (records: SessionRecord[]) =>
    records.map((r) => [r.role, r.tool, r.text]);
  await t.step("one pass", async () => {
    const s = await only(await tempRollout(lines));
    deepEqual(view(s.records), want);
    equal(roles(s, "command")[0]?.exitCode, 0);
  });
  await t.step("cut between every pair of lines", async () => {
    for await (const { cut, records } of readAtEveryCut(lines)) {
      deepEqual(view(records), want, `cut ${cut}`);
    }
  });
});

Deno.test("a shell call's justification is assistant speech before its command, each text once", async (t) => {
  const why = "Need to download the kiwi-env dev dependency from npm.";
  const call = (name: string, id: string, args: Record<string, unknown>) =>
    ln("response_item", {
      type: "function_call",
      name,
      arguments: JSON.stringify(args),
      call_id: id,
    });
  const lines = [
    meta("0199aaaa-1313-7000-8000-000000000001"),
    userEvent("add kiwi-env"),
    call("shell", "c1", {
      command: ["bash", "-lc", "npm install -D kiwi-env"],
      with_escalated_permissions: true,
      justification: why,
    }),
    callOutput("c1", "Exit code: 0\nOutput:\nadded 1 package"),
    // The same reason again for a retry: said once.
    call("shell_command", "c2", {
      command: "npm install -D kiwi-env",
      sandbox_permissions: "require_escalated",
      justification: why,
    }),
    callOutput("c2", "Exit code: 0\nOutput:\nup to date"),
    call("exec_command", "c3", {
      cmd: "open http://localhost:5173",
      sandbox_permissions: "require_escalated",
      justification: "Do you want to open the kiwi dashboard in a browser?",
    }),
    callOutput("c3", "Exit code: 1\nOutput:\nno display"),
    // No justification, or an empty one: nothing said.
    call("shell_command", "c4", { command: "git status", justification: "" }),
    callOutput("c4", "Exit code: 0\nOutput:\nclean"),
  ];
  const want = [
    ["user", undefined, "add kiwi-env", undefined],
    ["assistant", "shell", why, undefined],
    ["command", "shell", "npm install -D kiwi-env", 0],
    ["tool-output", "shell", "added 1 package", undefined],
    ["command", "shell_command", "npm install -D kiwi-env", 0],
    ["tool-output", "shell_command", "up to date", undefined],
    [
      "assistant",
      "exec_command",
      "Do you want to open the kiwi dashboard in a browser?",
      undefined,
    ],
    ["command", "exec_command", "open http://localhost:5173", 1],
    ["tool-output", "exec_command", "no display", undefined],
    ["command", "shell_command", "git status", 0],
    ["tool-output", "shell_command", "clean", undefined],
  ];
  const view = (records: SessionRecord[]) =>
    records.map((r) => [r.role, r.tool, r.text, r.exitCode]);
  await t.step("one pass", async () => {
    deepEqual(view((await only(await tempRollout(lines))).records), want);
  });
  await t.step("cut between every pair of lines", async () => {
    // A cut right after a call holds its command back with its reason:
    // the next pass reads both again, with the output.
    for await (const { cut, records } of readAtEveryCut(lines)) {
      deepEqual(view(records), want, `cut ${cut}`);
    }
  });
});

Deno.test("a prompt Codex expanded from a template is titled by its input, else by its heading", async (t) => {
  const specKit = (input: string) =>
    `\n## User Input\n\n\`\`\`text\n${input}\n\`\`\`\n\n` +
    "You **MUST** consider the user input before proceeding (if not empty).\n\n" +
    "## Outline\n\n1. Run the wren prerequisites script.\n";
  const custom = "# /wren-ship — Cut a wren release\n\n" +
    "Purpose: tag and publish one release.\n\n" +
    "Example:\n```md\n## Arguments\nv9.9.9\n```\n";
  const cases: Array<[string, string[], string]> = [
    [
      "the input a spec-kit command shows",
      [specKit("user story 7")],
      "user story 7",
    ],
    [
      "a custom prompt's heading, without its # marks",
      [custom],
      "/wren-ship — Cut a wren release",
    ],
    [
      "an arguments section under the heading",
      ["# Triage\n\n## Arguments\n\nthe wren login loop\n\n## Steps\n1. Read.\n"],
      "the wren login loop",
    ],
    ["an empty input: the heading", [specKit("")], "User Input"],
    [
      "a placeholder left unexpanded: the heading",
      [specKit("$ARGUMENTS")],
      "User Input",
    ],
    [
      "a slash command first, then a template",
      ["/", specKit("user story 8")],
      "user story 8",
    ],
    [
      "a plain first prompt still titles",
      [
        "fix the wren cache\n\n## User Input\n\n```\nnot this\n```",
        specKit("x"),
      ],
      "fix the wren cache",
    ],
    [
      "a tag is no heading",
      ["#412 breaks the wren build"],
      "#412 breaks the wren build",
    ],
  ];
  for (const [label, prompts, title] of cases) {
    await t.step(label, async () => {
      const s = await only(
        await tempRollout([
          meta("0199aaaa-1414-7000-8000-000000000001"),
          ...prompts.map(userEvent),
        ]),
      );
      equal(s.title, title);
      equal(s.titleGiven, undefined);
      // The whole message stays searchable.
      deepEqual(
        roles(s, "user").map((r) => r.text),
        prompts.map((p) => p.trim()),
      );
    });
  }
  await t.step("the title survives indexing", async () => {
    const s = await only(
      await tempRollout([meta("s-t"), userEvent(specKit("user story 9"))]),
    );
    equal(prepareSessions([s], true, {})[0]?.title, "user story 9");
  });
  await t.step("a name given to the thread still wins", async () => {
    const s = await only(
      await tempRollout([
        meta("0199aaaa-1414-7000-8000-000000000002"),
        userEvent(custom),
        ln("event_msg", {
          type: "thread_name_updated",
          thread_id: "0199aaaa-1414-7000-8000-000000000002",
          thread_name: "Wren 9 release",
        }),
      ]),
    );
    equal(s.title, "Wren 9 release");
  });
  await t.step("history.jsonl prompts title the same way", async () => {
    const path = await tempRollout(
      [JSON.stringify({ session_id: "h1", ts: 1790000000, text: custom })],
      "history.jsonl",
    );
    equal((await only(path)).title, "/wren-ship — Cut a wren release");
  });
});

Deno.test("a thread's goal: the objective set with /goal is the prompt, the nudge resuming it is not", async (t) => {
  const thread = "019b2c40-7d15-7e00-9a61-3c5e2f8b0d47";
  const goal = (objective: string, status: string) =>
    ln("event_msg", {
      type: "thread_goal_updated",
      thread_id: thread,
      goal: { thread_id: thread, objective, status, token_budget: null },
    });
  const nudge = userItem(
    '<codex_internal_context source="goal">\nKeep working on the goal.\n' +
      "<objective>port the importer to wasm</objective>\n" +
      "</codex_internal_context>",
  );
  const lines = [
    meta(thread),
    goal("port the importer to wasm", "active"),
    nudge,
    assistantItem("Starting with the parser."),
    goal("port the importer to wasm", "paused"),
    goal("port the importer to wasm", "active"),
    nudge,
    assistantItem("The importer now builds for wasm."),
    goal("port the importer to wasm", "complete"),
  ];
  await t.step("kept once, as the title", async () => {
    const s = await only(await tempRollout(lines));
    deepEqual(roles(s, "user").map((r) => r.text), [
      "port the importer to wasm",
    ]);
    equal(s.title, "port the importer to wasm");
    equal(roles(s, "assistant").length, 2);
  });
  await t.step("once at every cut", async () => {
    for await (const { cut, records } of readAtEveryCut(lines)) {
      equal(
        records.filter((r) => r.role === "user").length,
        1,
        `cut ${cut}`,
      );
    }
  });
  await t.step(
    "a goal the model set with its tool is not the person's",
    async () => {
      const s = await only(
        await tempRollout([
          meta(thread),
          userEvent("make the importer faster"),
          ln("response_item", {
            type: "function_call",
            name: "create_goal",
            arguments: JSON.stringify({ objective: "halve import time" }),
            call_id: "g1",
          }),
          goal("halve import time", "active"),
          callOutput("g1", "goal created"),
          goal("halve import time", "complete"),
        ]),
      );
      deepEqual(roles(s, "user").map((r) => r.text), [
        "make the importer faster",
      ]);
    },
  );
  await t.step("a hook's prompt is not speech either", async () => {
    const s = await only(
      await tempRollout([
        meta(thread),
        goal("port the importer to wasm", "active"),
        userItem(
          '<hook_prompt hook_run_id="stop:0">run the tests</hook_prompt>',
        ),
        assistantItem("Tests pass."),
      ]),
    );
    deepEqual(roles(s, "user").map((r) => r.text), [
      "port the importer to wasm",
    ]);
  });
});

Deno.test("paginated history: a thread built on another's rollout is its fork, one built on its own earlier file is no fork", async (t) => {
  const source = "019b3d51-2a60-7c11-8e02-7f4a1b9c3e58";
  const forked = "019b3d60-9e14-7a25-b3c7-0d8e6f2a4b91";
  const base = (thread: string) => ({
    thread_id: thread,
    end_ordinal_exclusive: 12,
    end_byte_offset: 8192,
  });
  await t.step("another thread's history: a fork of it", async () => {
    const s = await only(
      await tempRollout([
        meta(forked, { history_base: base(source) }),
        userEvent("try the other schema"),
      ]),
    );
    equal(s.parent, source);
    equal(s.lineage, "fork");
  });
  await t.step("its own earlier file: the same thread, no parent", async () => {
    const s = await only(
      await tempRollout([
        meta(source, { history_base: base(source) }),
        userEvent("start over from the migration"),
      ]),
    );
    equal(s.id, source);
    equal(s.parent, undefined);
  });
  await t.step("forked_from_id still names the source", async () => {
    const s = await only(
      await tempRollout([
        meta(forked, { forked_from_id: source, history_base: base(forked) }),
        userEvent("again"),
      ]),
    );
    equal(s.parent, source);
  });
});
