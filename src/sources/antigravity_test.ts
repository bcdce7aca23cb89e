import { deepEqual, equal, ok } from "node:assert/strict";
import type { ParseResult, SourceEnv } from "../core/harness.ts";
import type { Session } from "../core/types.ts";
import { antigravity, parseAntigravityTranscript } from "./antigravity.ts";
import { jsonLines, tempFileAt } from "./_test_kit.ts";

const HOME = new URL("../../fixtures/antigravity", import.meta.url).pathname;
const FIXTURE =
  `${HOME}/.gemini/antigravity/brain/6d1f3b7a-2c94-4e58-a0b1-8f7e6d5c4b3a/.system_generated/logs/transcript.jsonl`;

const source: SourceEnv = { home: HOME, env: {}, os: "linux" };

function parse(path: string): Promise<ParseResult> {
  return parseAntigravityTranscript(path, { includeSubagents: true, source });
}

function transcript(text: string): Promise<string> {
  return tempFileAt("brain/c1/.system_generated/logs/transcript.jsonl", text);
}

Deno.test("antigravity.roots() lists every antigravity* brain folder, or DEJA_ANTIGRAVITY_ROOT", async () => {
  const home = await Deno.makeTempDir();
  for (const d of ["antigravity-cli", "antigravity", "tmp"]) {
    await Deno.mkdir(`${home}/.gemini/${d}`, { recursive: true });
  }
  deepEqual(antigravity.roots({ home, env: {}, os: "linux" }), [
    `${home}/.gemini/antigravity/brain`,
    `${home}/.gemini/antigravity-cli/brain`,
  ]);
  deepEqual(
    antigravity.roots({
      home,
      env: { DEJA_ANTIGRAVITY_ROOT: "/b" },
      os: "linux",
    }),
    ["/b"],
  );
});

Deno.test("antigravity.discover() finds the fixture transcript", async () => {
  deepEqual(await antigravity.discover(source), [FIXTURE]);
});

Deno.test("parseAntigravityTranscript() reads requests, replies, commands, files and edits", async () => {
  const result = await parse(FIXTURE);
  equal(result.skipped, 0);
  const s = result.sessions[0] as Session;
  deepEqual([s.id, s.project, s.cwd], [
    "6d1f3b7a-2c94-4e58-a0b1-8f7e6d5c4b3a",
    "orchard",
    "/home/dev/code/orchard",
  ]);
  deepEqual(s.records.map((r) => [r.role, r.tool]), [
    ["user", undefined],
    ["assistant", undefined],
    ["files", "view_file"],
    ["tool-output", "view_file"],
    ["command", "run_command"],
    ["tool-output", "run_command"],
    ["assistant", undefined],
    ["files", "replace_file_content"],
    ["edit", "replace_file_content"],
    ["files", "code_action"],
    ["tool-output", "code_action"],
    ["assistant", undefined],
  ]);
  equal(
    s.records[0]?.text,
    "The harvest report shows yesterday's totals. Make it use the local date.",
  );
  equal(s.records[2]?.text, "/home/dev/code/orchard/report/harvest.py");
  equal(s.records[4]?.text, "python -m pytest tests/test_harvest.py -q");
  ok(!s.records[5]?.text.includes("Created At"), "bookkeeping lines");
  ok(!s.records.some((r) => r.text.includes("workspace is")), "system steps");
  equal(s.records[0]?.time, Date.parse("2026-08-03T13:00:02Z"));
});

Deno.test("parseAntigravityTranscript() reads multi_replace_file_content and write_to_file calls as files and edits", async () => {
  const path = await transcript(jsonLines([
    { source: "USER_EXPLICIT", content: "rename the zone setting" },
    {
      source: "MODEL",
      type: "PLANNER_RESPONSE",
      content: "Renaming it in both places and adding a note.",
      tool_calls: [
        {
          name: "multi_replace_file_content",
          args: {
            TargetFile: "/w/orchard/settings.py",
            ReplacementChunks: [
              {
                TargetContent: "TZ = 'UTC'",
                ReplacementContent: "LOCAL_TZ = 'Europe/Berlin'",
                StartLine: 3,
                EndLine: 3,
              },
              {
                TargetContent: "def zone(): return TZ",
                ReplacementContent: "def zone(): return LOCAL_TZ",
                StartLine: 9,
                EndLine: 9,
              },
            ],
          },
        },
        {
          name: "write_to_file",
          args: {
            TargetFile: "/w/orchard/NOTES.md",
            CodeContent: "The report uses LOCAL_TZ.",
          },
        },
      ],
    },
  ]));
  const s = (await parse(path)).sessions[0] as Session;
  deepEqual(s.records.slice(2).map((r) => [r.role, r.tool, r.text]), [
    ["files", "multi_replace_file_content", "/w/orchard/settings.py"],
    [
      "edit",
      "multi_replace_file_content",
      "/w/orchard/settings.py\nTZ = 'UTC'",
    ],
    [
      "edit",
      "multi_replace_file_content",
      "/w/orchard/settings.py\ndef zone(): return TZ",
    ],
    ["files", "write_to_file", "/w/orchard/NOTES.md"],
  ]);
});

Deno.test("parseAntigravityTranscript() has no project without metadata, and reads a description on the next line", async () => {
  const path = await transcript(jsonLines([
    { source: "USER_EXPLICIT", content: "run the linter" },
    {
      source: "MODEL",
      type: "RUN_COMMAND",
      content: "Task Description:\n  npm run lint\nOutput: clean",
    },
  ]));
  const s = (await parse(path)).sessions[0] as Session;
  deepEqual([s.project, s.records[1]?.text], ["", "npm run lint"]);
});

Deno.test("parseAntigravityTranscript() leaves a torn last line and counts malformed ones", async () => {
  const text = jsonLines([{ source: "USER_EXPLICIT", content: "kept" }]) +
    "nope\n7\n" + JSON.stringify({ source: 4, content: "x" }) + "\n" +
    '{"source":"MODEL","type":"PLANNER_RESPONSE","content":"tor';
  const r = await parse(await transcript(text));
  equal(r.skipped, 3);
  deepEqual(r.sessions[0]?.records.map((x) => x.text), ["kept"]);
});

Deno.test("parseAntigravityTranscript() survives hostile input", async (t) => {
  const cases: Array<[string, string]> = [
    ["garbage bytes", "\u0000\u00ff\ufffd\n\u202e\n"],
    [
      "wrong types",
      jsonLines([
        { source: "USER_EXPLICIT", content: ["x"], created_at: {} },
        { source: "MODEL", type: 5, content: 6 },
        {
          source: "MODEL",
          type: "VIEW_FILE",
          content: "File Path: file://%zz\nFile Path: file://",
        },
        {
          source: "MODEL",
          type: "PLANNER_RESPONSE",
          tool_calls: [
            null,
            { name: "replace_file_content", args: 3 },
            {
              name: "multi_replace_file_content",
              args: { TargetFile: "/x", ReplacementChunks: [3, null, {}] },
            },
            { name: "write_to_file", args: { TargetFile: 7 } },
          ],
        },
        { source: "MODEL", type: "RUN_COMMAND", content: "Task Description:" },
      ]),
    ],
    ["huge nesting", `${'{"source":'.repeat(100_000)}\n`],
  ];
  for (const [name, text] of cases) {
    await t.step(name, async () => {
      ok((await parse(await transcript(text))).skipped >= 0);
    });
  }
  await t.step("conversation metadata of the wrong shape", async () => {
    const path = await transcript(
      jsonLines([{ source: "USER_EXPLICIT", content: "q" }]),
    );
    const root = path.split("/brain/")[0] as string;
    await Deno.mkdir(`${root}/cache`);
    await Deno.writeTextFile(
      `${root}/cache/conversation_metadata.json`,
      '{"conversations":{"c1":{"summary":{"WorkspaceURIs":[3,"http://x","file://rel"]}}}}',
    );
    equal((await parse(path)).sessions[0]?.project, "");
  });
});

Deno.test("parseAntigravityTranscript() reads a request of unclosed metadata tags in one pass", async () => {
  // The lazy regexes read on to the end from every open tag with no close
  // after it: minutes for this 2.7 MB request.
  const request = `run the linter ${"<ADDITIONAL_METADATA> ".repeat(60_000)}${
    "<USER_SETTINGS_CHANGE> ".repeat(60_000)
  }`;
  const path = await transcript(jsonLines([
    { source: "USER_EXPLICIT", content: request },
  ]));
  const s = (await parse(path)).sessions[0] as Session;
  ok(s.records[0]?.text.startsWith("run the linter <ADDITIONAL_METADATA>"));
});
