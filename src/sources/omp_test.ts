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
