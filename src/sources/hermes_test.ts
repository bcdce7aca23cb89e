import { deepEqual, equal, ok, rejects } from "node:assert/strict";
import type { SourceEnv } from "../core/harness.ts";
import { isSuperseded, type Session } from "../core/types.ts";
import { hermes, parseHermesStore } from "./hermes.ts";
import { writeFixtureDb } from "./_store_test_kit.ts";
import { tempFileAt } from "./_test_kit.ts";
import { SCHEMA } from "../../tests/fixtures_gen/hermes.ts";

const HOME = new URL("../../fixtures/hermes", import.meta.url).pathname;
const STORE = `${HOME}/.hermes/state.db`;

const source: SourceEnv = { home: HOME, env: {}, os: "linux" };

async function copyStore(): Promise<string> {
  const path = `${await Deno.makeTempDir()}/state.db`;
  await Deno.copyFile(STORE, path);
  return path;
}

Deno.test("hermes.roots() lists the home's store and each profile's, or DEJA_HERMES_DB alone", async () => {
  const home = await Deno.makeTempDir();
  await Deno.mkdir(`${home}/h/profiles/work`, { recursive: true });
  await Deno.mkdir(`${home}/h/profiles/alt`, { recursive: true });
  deepEqual(
    hermes.roots({ home, env: { HERMES_HOME: `${home}/h` }, os: "linux" }),
    [
      `${home}/h/state.db`,
      `${home}/h/profiles/alt/state.db`,
      `${home}/h/profiles/work/state.db`,
    ],
  );
  deepEqual(
    hermes.roots({ home, env: { DEJA_HERMES_DB: "/d/state.db" }, os: "linux" }),
    [
      "/d/state.db",
    ],
  );
  await writeFixtureDb(`${home}/h/profiles/work/state.db`, SCHEMA, []);
  deepEqual(
    await hermes.discover({
      home,
      env: { HERMES_HOME: `${home}/h` },
      os: "linux",
    }),
    [
      `${home}/h/profiles/work/state.db`,
    ],
  );
});

Deno.test("hermes.discover() finds the fixture store", async () => {
  deepEqual(await hermes.discover(source), [STORE]);
});

Deno.test("parseHermesStore() reads speech, tool calls and outputs, and marks rewound rows", async () => {
  const result = await parseHermesStore(await copyStore(), {
    includeSubagents: true,
    source,
  });
  equal(result.skipped, 0);
  equal(result.sessions.length, 2);
  const s = result.sessions[0] as Session;
  deepEqual([s.id, s.project, s.title, s.parent], [
    "20260614_101500_4f2a9c",
    "tidewater",
    "Cron backup job silently skips Sundays",
    undefined,
  ]);
  deepEqual(s.records.map((r) => [r.role, r.tool, r.exitCode]), [
    ["user", undefined, undefined],
    ["assistant", undefined, undefined],
    ["command", "terminal", 0],
    ["tool-output", "terminal", undefined],
    ["assistant", undefined, undefined],
    ["user", undefined, undefined],
    ["assistant", undefined, undefined],
    ["user", undefined, undefined],
    ["files", "patch", undefined],
    ["edit", "patch", undefined],
    ["tool-output", "patch", undefined],
    ["assistant", undefined, undefined],
  ]);
  deepEqual(s.marks, [{ kind: "rewind", from: 5, to: 7 }]);
  deepEqual(
    s.records.filter((r) => isSuperseded(r.seq, s.marks)).map((r) => r.text),
    [
      "Rewrite it in systemd timers instead.",
      "Converting the job to a systemd timer unit.",
    ],
  );
  equal(s.records[2]?.text, "crontab -l | grep backup");
  equal(
    s.records[9]?.text,
    "/home/dev/code/tidewater/deploy/crontab\n15 2 * * 1-6",
  );
  equal(s.records[0]?.time, 1781432105000);
  ok(
    !s.records.some((r) => r.text.startsWith("You are Hermes")),
    "system prompt",
  );
  const sub = result.sessions[1] as Session;
  deepEqual([sub.parent, sub.lineage, sub.title], [
    "20260614_101500_4f2a9c",
    "subagent",
    "List every script under deploy/ that cron calls.",
  ]);
  const noSubs = await parseHermesStore(await copyStore(), {
    includeSubagents: false,
    source,
  });
  deepEqual(noSubs.sessions.map((x) => x.id), ["20260614_101500_4f2a9c"]);
});

Deno.test("parseHermesStore() names a profile's sessions after it when they have no cwd", async () => {
  const path = `${await Deno.makeTempDir()}/profiles/night/state.db`;
  await writeFixtureDb(path, SCHEMA, [
    { table: "sessions", rows: [{ id: "s1" }] },
    {
      table: "messages",
      rows: [
        { session_id: "s1", role: "user", content: "status?", timestamp: 1 },
        {
          session_id: "s1",
          role: "assistant",
          content: "All green.",
          timestamp: 2,
        },
      ],
    },
  ]);
  const s = (await parseHermesStore(path, { includeSubagents: true, source }))
    .sessions[0];
  equal(s?.project, "night");
});

Deno.test("parseHermesStore() survives hostile rows and names a store of another shape", async (t) => {
  await t.step("wrong types", async () => {
    const path = `${await Deno.makeTempDir()}/state.db`;
    await writeFixtureDb(path, SCHEMA, [
      {
        table: "sessions",
        rows: [{ id: "s1", model_config: "{bad", started_at: "x" }],
      },
      {
        table: "messages",
        rows: [
          { session_id: null, role: "user", content: "orphan", timestamp: 1 },
          {
            session_id: "s1",
            role: "user",
            content: "kept",
            timestamp: "soon",
          },
          {
            session_id: "s1",
            role: "assistant",
            content: null,
            tool_calls: "[{",
            timestamp: 2,
          },
          {
            session_id: "s1",
            role: "assistant",
            content: "",
            tool_calls: '[1,{"function":7}]',
            timestamp: 3,
          },
          {
            session_id: "s1",
            role: "tool",
            content: null,
            tool_call_id: 5,
            timestamp: 4,
          },
          {
            session_id: "s1",
            role: 9,
            content: new Uint8Array([0xff, 0xfe]),
            timestamp: 5,
          },
        ],
      },
    ]);
    const r = await parseHermesStore(path, { includeSubagents: true, source });
    equal(r.skipped, 1);
    deepEqual(r.sessions[0]?.records.map((x) => x.text), ["kept"]);
  });
  await t.step("another schema", async () => {
    const path = `${await Deno.makeTempDir()}/state.db`;
    await writeFixtureDb(path, "CREATE TABLE sessions (id TEXT);", []);
    await rejects(
      parseHermesStore(path, { includeSubagents: true, source }),
      /Hermes/,
    );
  });
  await t.step("not a database", async () => {
    const path = await tempFileAt("state.db", "plain text, no header");
    await rejects(parseHermesStore(path, { includeSubagents: true, source }));
  });
});

Deno.test("parseHermesStore() reads a terminal result's JSON: exit code, error, output", async () => {
  // The terminal tool answers with `{"output", "exit_code", "error"}`.
  const path = `${await Deno.makeTempDir()}/state.db`;
  const call = (id: string, command: string) =>
    JSON.stringify([{
      id,
      type: "function",
      function: { name: "terminal", arguments: JSON.stringify({ command }) },
    }]);
  const result = (output: string, code: number, error: string | null) =>
    JSON.stringify({ output, exit_code: code, error });
  await writeFixtureDb(path, SCHEMA, [
    { table: "sessions", rows: [{ id: "s1", cwd: "/w/ferry" }] },
    {
      table: "messages",
      rows: [
        { session_id: "s1", role: "user", content: "run it", timestamp: 1 },
        {
          session_id: "s1",
          role: "assistant",
          content: "",
          tool_calls: call("c1", "make check"),
          timestamp: 2,
        },
        {
          session_id: "s1",
          role: "tool",
          content: result("ferry.c:12: undefined symbol", 2, null),
          tool_call_id: "c1",
          tool_name: "terminal",
          timestamp: 3,
        },
        {
          session_id: "s1",
          role: "assistant",
          content: "",
          tool_calls: call("c2", "sleep 900"),
          timestamp: 4,
        },
        {
          session_id: "s1",
          role: "tool",
          content: result("", 124, "Command timed out after 600 seconds"),
          tool_call_id: "c2",
          tool_name: "terminal",
          timestamp: 5,
        },
        {
          session_id: "s1",
          role: "assistant",
          content: "",
          tool_calls: call("c3", "ls"),
          timestamp: 6,
        },
        {
          session_id: "s1",
          role: "tool",
          content: result("Makefile\nferry.c", 0, null),
          tool_call_id: "c3",
          tool_name: "terminal",
          timestamp: 7,
        },
      ],
    },
  ]);
  const s = (await parseHermesStore(path, { includeSubagents: true, source }))
    .sessions[0];
  deepEqual(
    s?.records.map((r) => [r.role, r.text, r.exitCode, r.flags?.isError]),
    [
      ["user", "run it", undefined, undefined],
      ["command", "make check", 2, undefined],
      ["tool-output", "ferry.c:12: undefined symbol", undefined, true],
      ["command", "sleep 900", 124, undefined],
      [
        "tool-output",
        "Command timed out after 600 seconds",
        undefined,
        true,
      ],
      ["command", "ls", 0, undefined],
      ["tool-output", "Makefile\nferry.c", undefined, undefined],
    ],
  );
});
