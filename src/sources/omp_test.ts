import { deepEqual, equal, ok } from "node:assert/strict";
import type { ParseResult, SourceEnv } from "../core/harness.ts";
import { isSuperseded, type Session } from "../core/types.ts";
import { omp, parseOmpSession } from "./omp.ts";
import type { PiShapedParseOptions } from "./_pi_shaped.ts";
import { jsonLines, tempFileAt } from "./_test_kit.ts";

const HOME = new URL("../../fixtures/omp", import.meta.url).pathname;
const MAIN =
  `${HOME}/.omp/agent/sessions/--home-dev-code-ferry--/2026-07-03T14-10-00-000Z_9e4d2c7a1b3f5e60.jsonl`;
const PROFILE =
  `${HOME}/.omp/profiles/work/agent/sessions/--home-dev-work-ledger--/2026-07-04T08-00-00-000Z_5a6b7c8d9e0f1a2b.jsonl`;

const source: SourceEnv = { home: HOME, env: {}, os: "linux" };

function parse(
  path: string,
  extra: Partial<PiShapedParseOptions> = {},
): Promise<ParseResult> {
  return parseOmpSession(path, { includeSubagents: true, source, ...extra });
}

function sessionFile(text: string): Promise<string> {
  return tempFileAt("--w--/2026-01-01T00-00-00-000Z_0000bbbb.jsonl", text);
}

Deno.test("omp.roots() lists the default agent, each profile and the XDG folders that exist", async () => {
  const home = await Deno.makeTempDir();
  const xdg = `${home}/xdg`;
  for (
    const dir of [
      `${home}/.omp/profiles/b`,
      `${home}/.omp/profiles/a`,
      `${xdg}/omp/profiles/p`,
    ]
  ) await Deno.mkdir(dir, { recursive: true });
  deepEqual(omp.roots({ home, env: { XDG_DATA_HOME: xdg }, os: "linux" }), [
    `${home}/.omp/agent/sessions`,
    `${home}/.omp/profiles/a/agent/sessions`,
    `${home}/.omp/profiles/b/agent/sessions`,
    `${xdg}/omp/sessions`,
    `${xdg}/omp/profiles/p/sessions`,
  ]);
  deepEqual(
    omp.roots({ home, env: { XDG_DATA_HOME: `${home}/none` }, os: "linux" })
      .length,
    3,
  );
  deepEqual(
    omp.roots({ home: "/h", env: { PI_CONFIG_DIR: ".spin" }, os: "linux" }),
    [
      "/h/.spin/agent/sessions",
    ],
  );
  deepEqual(
    omp.roots({
      home,
      env: { DEJA_OMP_ROOT: "/s", XDG_DATA_HOME: xdg },
      os: "linux",
    }),
    ["/s"],
  );
});

Deno.test("omp.discover() finds the default agent's and a profile's sessions", async () => {
  deepEqual(await omp.discover(source), [MAIN, PROFILE]);
});

Deno.test("parseOmpSession() reads the header title, tools and the abandoned branch", async () => {
  const result = await parse(MAIN);
  equal(result.skipped, 0);
  const s = result.sessions[0] as Session;
  deepEqual([s.harness, s.id, s.project, s.title], [
    "omp",
    "9e4d2c7a1b3f5e60",
    "ferry",
    "Timetable parser rejects ferry 24:10 departures",
  ]);
  deepEqual(s.records.map((r) => r.role), [
    "user",
    "assistant",
    "command",
    "tool-output",
    "files",
    "edit",
    "tool-output",
    "assistant",
    "summary",
    "user",
    "assistant",
  ]);
  equal(s.records[2]?.exitCode, 0);
  deepEqual(
    s.records.filter((r) => isSuperseded(r.seq, s.marks)).map((r) => r.role),
    [
      "assistant",
      "command",
      "tool-output",
      "files",
      "edit",
      "tool-output",
      "assistant",
    ],
  );
  ok(!s.records.some((r) => r.text.includes("Injected todo")), "custom");
  ok(!s.records.some((r) => r.text.includes("GTFS allows hours")), "thinking");
});

Deno.test("parseOmpSession() reads a profile's session", async () => {
  const s = (await parse(PROFILE)).sessions[0] as Session;
  deepEqual([s.project, s.title], [
    "ledger",
    "Why does the ledger export round 0.005 down?",
  ]);
});

Deno.test("parseOmpSession() leaves a torn last line and counts malformed ones", async () => {
  const text = jsonLines([
    { type: "session", version: 3, id: "x", cwd: "/w/a", title: 5 },
    {
      type: "message",
      id: "m1",
      parentId: null,
      message: { role: "user", content: "kept" },
    },
  ]) + "{nope\n17\n" + `{"type":"message","id":"m2","parentId":"m1","mess`;
  const result = await parse(await sessionFile(text));
  equal(result.skipped, 2);
  deepEqual(result.sessions[0]?.records.map((r) => r.text), ["kept"]);
  equal(result.sessions[0]?.title, "kept");
});

Deno.test("parseOmpSession() takes the current title from the title slot and title_change entries", async (t) => {
  const header = {
    type: "session",
    version: 3,
    id: "0000bbbb",
    title: "Fix timetable parser",
    titleSource: "auto",
    timestamp: "2026-07-03T14:10:00.000Z",
    cwd: "/home/dev/code/ferry",
  };
  const prompt = {
    type: "message",
    id: "m1",
    parentId: null,
    timestamp: "2026-07-03T14:10:01.000Z",
    message: { role: "user", content: "departures after midnight fail" },
  };
  await t.step(
    "the first-line slot wins over the header's first title",
    async () => {
      const text = jsonLines([
        {
          type: "title",
          v: 1,
          title: "Night ferries past 24:00",
          source: "user",
          updatedAt: "2026-07-03T15:00:00.000Z",
          pad: "      ",
        },
        header,
        prompt,
      ]);
      const s = (await parse(await sessionFile(text))).sessions[0];
      equal(s?.title, "Night ferries past 24:00");
    },
  );
  await t.step("the last title_change wins when there is no slot", async () => {
    const text = jsonLines([
      header,
      prompt,
      {
        type: "title_change",
        id: "c1",
        parentId: "m1",
        timestamp: "2026-07-03T15:00:00.000Z",
        title: "Night ferries past 24:00",
        previousTitle: "Fix timetable parser",
        source: "user",
      },
    ]);
    const s = (await parse(await sessionFile(text))).sessions[0];
    equal(s?.title, "Night ferries past 24:00");
  });
});

Deno.test("parseOmpSession() reads a Python run the person started as a command with its output", async () => {
  const text = jsonLines([
    {
      type: "session",
      version: 3,
      id: "0000bbbb",
      cwd: "/home/dev/code/ferry",
    },
    {
      type: "message",
      id: "p1",
      parentId: null,
      timestamp: "2026-07-03T14:10:01.000Z",
      message: {
        role: "pythonExecution",
        code: "import gtfs; gtfs.check('feed.zip')",
        output: "ValueError: hour 24 out of range",
        exitCode: 1,
        cancelled: false,
        timestamp: 1783087801000,
      },
    },
  ]);
  const s = (await parse(await sessionFile(text))).sessions[0];
  deepEqual(
    s?.records.map((r) => [r.role, r.tool, r.text, r.exitCode, r.flags]),
    [
      [
        "command",
        "python",
        "import gtfs; gtfs.check('feed.zip')",
        1,
        undefined,
      ],
      [
        "tool-output",
        "python",
        "ValueError: hour 24 out of range",
        undefined,
        { isError: true },
      ],
    ],
  );
});

Deno.test("parseOmpSession() survives hostile input", async (t) => {
  const cases: Array<[string, string]> = [
    ["garbage bytes", "\u0000\u00ff\ufffd\n\u202e\n"],
    [
      "wrong types",
      jsonLines([
        { type: "session", id: {}, title: [], parentSession: 4 },
        { type: "session_init", id: "i", systemPrompt: 3, task: [] },
        { type: "ttsr_injection", id: "t", parentId: "i", injectedRules: "x" },
        { type: "message", id: "m", parentId: "m", message: [] },
        { type: "title", v: 1, title: 7 },
        { type: "title_change", id: "c", parentId: "m", title: {} },
        {
          type: "message",
          id: "p",
          parentId: "m",
          message: { role: "pythonExecution", code: [], exitCode: "1" },
        },
      ]),
    ],
    ["huge nesting", `${"[".repeat(100_000)}\n`],
  ];
  for (const [name, text] of cases) {
    await t.step(name, async () => {
      ok((await parse(await sessionFile(text))).skipped >= 0);
    });
  }
});
