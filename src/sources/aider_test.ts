import { deepEqual, equal, ok } from "node:assert/strict";
import { fileURLToPath } from "node:url";
import type { ParseResult, SourceEnv } from "../core/harness.ts";
import { isSuperseded, type Session } from "../core/types.ts";
import { aider, type AiderParseOptions, parseAiderHistory } from "./aider.ts";
import { hasSamples, roles, sampleDir, tempFileAt } from "./_test_kit.ts";

const FIXTURE_HOME = fileURLToPath(
  new URL("../../fixtures/aider", import.meta.url),
);
const FIXTURE_LOG = `${FIXTURE_HOME}/code/weather-cli/.aider.chat.history.md`;
const SAMPLES = sampleDir("aider");

const source: SourceEnv = { home: FIXTURE_HOME, env: {}, os: "linux" };

function opts(extra: Partial<AiderParseOptions> = {}): AiderParseOptions {
  return { includeSubagents: true, source, ...extra };
}

function count(result: ParseResult, role: string): number {
  return result.sessions.reduce(
    (n, s) => n + s.records.filter((r) => r.role === role).length,
    0,
  );
}

function tempLog(text: string | Uint8Array): Promise<string> {
  return tempFileAt(".aider.chat.history.md", text);
}

/** One aider log line as aider writes it: marker lines end in two spaces. */
function log(...lines: string[]): string {
  return lines.join("\n") + "\n";
}

Deno.test("aider.discover() finds logs in HOME, project folders and configured roots", async (t) => {
  await t.step("fixture HOME", async () => {
    const found = await aider.discover(source);
    deepEqual(found, [FIXTURE_LOG]);
  });
  await t.step(
    "HOME, AIDER_CHAT_HISTORY_FILE and DEJA_AIDER_ROOTS",
    async () => {
      const home = await Deno.makeTempDir();
      const other = await Deno.makeTempDir();
      await Deno.mkdir(`${other}/clients/acme/.git`, { recursive: true });
      await Deno.mkdir(`${home}/projects/a/node_modules/x`, {
        recursive: true,
      });
      await Deno.writeTextFile(`${home}/.aider.chat.history.md`, "");
      await Deno.writeTextFile(`${home}/projects/a/.aider.chat.history.md`, "");
      await Deno.writeTextFile(
        `${home}/projects/a/node_modules/x/.aider.chat.history.md`,
        "",
      );
      await Deno.writeTextFile(
        `${other}/clients/acme/.aider.chat.history.md`,
        "",
      );
      await Deno.writeTextFile(`${other}/named.md`, "");
      const found = await aider.discover({
        home,
        env: {
          DEJA_AIDER_ROOTS: `${other}:/nowhere`,
          AIDER_CHAT_HISTORY_FILE: `${other}/named.md`,
        },
        os: "linux",
      });
      deepEqual(found, [
        `${home}/.aider.chat.history.md`,
        `${other}/named.md`,
        `${home}/projects/a/.aider.chat.history.md`,
        `${other}/clients/acme/.aider.chat.history.md`,
      ]);
    },
  );
  await t.step("~/Projects and ~/workspace, three levels deep", async () => {
    const home = await Deno.makeTempDir();
    const logs = [
      "Projects/zebra-app",
      "workspace/ferret-ui",
      "code/clients/acme/ferrum",
      "code/clients/acme/2026/ironclad",
    ];
    for (const dir of logs) {
      await Deno.mkdir(`${home}/${dir}`, { recursive: true });
      await Deno.writeTextFile(`${home}/${dir}/.aider.chat.history.md`, "");
    }
    const found = await aider.discover({ home, env: {}, os: "linux" });
    deepEqual(found, [
      `${home}/code/clients/acme/ferrum/.aider.chat.history.md`,
      `${home}/Projects/zebra-app/.aider.chat.history.md`,
      `${home}/workspace/ferret-ui/.aider.chat.history.md`,
    ]);
  });
  await t.step("roots list HOME then the configured roots", () => {
    deepEqual(
      aider.roots({
        home: "/h",
        env: { DEJA_AIDER_ROOTS: "C:\\w;D:\\x" },
        os: "windows",
      }),
      ["/h", "C:\\w", "D:\\x"],
    );
  });
});

Deno.test("parseAiderHistory() keeps the errors aider reported, once each, and not its chatter", async () => {
  const retry =
    '> litellm.APIConnectionError: OllamaException - {"error":"model requires more system memory (5.7 GiB) than is available (5.5 GiB)"}  ';
  const path = await tempLog([
    "# aider chat started at 2026-02-10 09:20:41",
    "",
    "#### why is the server not loading  ",
    "",
    retry,
    "> Retrying in 0.2 seconds...  ",
    retry,
    "> Retrying in 0.5 seconds...  ",
    "> Tokens: 1.2k sent, 0 received.  ",
    "",
  ].join("\n"));
  const result = await parseAiderHistory(path, opts());
  const outputs = result.sessions.flatMap((s) =>
    s.records.filter((r) => r.role === "tool-output")
  );
  equal(outputs.length, 1);
  equal(outputs[0]?.text, retry.slice(2).trim());
  equal(outputs[0]?.flags?.isError, true);
  equal(outputs[0]?.tool, "aider");
});

Deno.test("parseAiderHistory() reads the fixture: prompts, replies, commands, edits and an undo", async () => {
  const result = await parseAiderHistory(FIXTURE_LOG, opts());
  equal(result.skipped, 0);
  // The first header is a banner-only start: not a session.
  equal(result.sessions.length, 1);
  const s = result.sessions[0] as Session;
  equal(s.harness, "aider");
  equal(s.project, "weather-cli");
  equal(s.cwd, `${FIXTURE_HOME}/code/weather-cli`);
  ok(/^[0-9a-f]{12}-2$/.test(s.id), s.id);
  equal(
    roles(s),
    "command,files,user,assistant,files,edit,command,user,assistant,files,edit,user,assistant,tool-output,assistant,files",
  );
  // How aider was started is a command of its own.
  equal(
    s.records[0]?.text,
    "/home/dev/.local/bin/aider --model sonnet weather/cli.py",
  );
  equal(s.records[0]?.tool, "aider");
  // The edit that failed to match is an error aider reported.
  const failed = s.records.find((r) => r.role === "tool-output");
  equal(failed?.flags?.isError, true);
  ok(failed?.text.includes("SearchReplaceNoExactMatch"), failed?.text);
  const users = s.records.filter((r) => r.role === "user").map((r) => r.text);
  deepEqual(users, [
    "the --units flag is ignored when printing the forecast.\nmake it convert to fahrenheit when --units=imperial",
    "The test for kelvin fails now. Add kelvin support too.",
    "Drop kelvin, just skip that test instead.",
  ]);
  equal(s.title, "the --units flag is ignored when printing the forecast.");
  const first = s.records.find((r) => r.role === "assistant");
  ok(first && !first.text.includes("thinking-content"), "reasoning removed");
  ok(first?.text.includes("#### heading-like markdown"), "unsigned #### stays");
  const command = s.records.find((r) =>
    r.role === "command" && r.tool !== "aider"
  );
  equal(command?.text, "python -m pytest tests/test_cli.py -q");
  equal(command?.tool, "/run");
  equal(command?.exitCode, undefined);
  const edits = s.records.filter((r) => r.role === "edit").map((r) => r.text);
  deepEqual(edits, [
    'weather/cli.py\n    print(f"{day.name}: {day.temp_c:.0f}°C")',
    'weather/units.py\ndef format_temp(celsius, units):\n    if units == "imperial":',
  ]);
  // Prompt times come from .aider.input.history, replies inherit them.
  equal(s.records[2]?.time, new Date(2026, 1, 10, 9, 21, 30, 118).getTime());
  equal(s.records[3]?.time, s.records[2]?.time);
  equal(s.started, new Date(2026, 1, 10, 9, 20, 41).getTime());
  // /undo removed the kelvin commit: that reply and its edit are superseded.
  deepEqual(s.marks, [{ kind: "undo", from: 8, to: 11 }]);
  const superseded = s.records.filter((r) => isSuperseded(r.seq, s.marks));
  deepEqual(superseded.map((r) => r.role), ["assistant", "files", "edit"]);
});

Deno.test("parseAiderHistory() splits sessions and drops banner-only starts", async (t) => {
  const cases: Array<[string, string, number, string[]]> = [
    [
      "two sessions",
      log(
        "",
        "# aider chat started at 2026-01-01 10:00:00",
        "",
        "#### first  ",
        "",
        "one",
        "",
        "# aider chat started at 2026-01-01 11:00:00",
        "",
        "#### second  ",
        "",
        "two",
      ),
      2,
      ["user,assistant", "user,assistant"],
    ],
    [
      "banner only",
      log(
        "# aider chat started at 2026-01-01 10:00:00",
        "",
        "> Aider v0.86.0  ",
      ),
      0,
      [],
    ],
    [
      "text before the first header",
      log(
        "stray reply",
        "",
        "# aider chat started at 2026-01-01 10:00:00",
        "",
        "#### hi  ",
      ),
      2,
      ["assistant", "user"],
    ],
    [
      "blank input, yes/no echoes and bare slash commands",
      log(
        "# aider chat started at 2026-01-01 10:00:00",
        "",
        "#### <blank>  ",
        "",
        "#### Add file to the chat? (Y)es/(N)o/(A)ll/(S)kip all/(D)on't ask again [Yes]: all  ",
        "",
        "#### /add src/a.py  ",
        "",
        "#### /ask what does a.py do?  ",
        "",
        "It parses flags.",
        "",
        "#### !git status  ",
      ),
      1,
      ["user,assistant,command"],
    ],
  ];
  for (const [name, text, sessions, shapes] of cases) {
    await t.step(name, async () => {
      const result = await parseAiderHistory(await tempLog(text), opts());
      equal(result.sessions.length, sessions);
      deepEqual(result.sessions.map(roles), shapes);
    });
  }
});

Deno.test("parseAiderHistory() reads logs whose trailing spaces were stripped", async () => {
  const text = log(
    "# aider chat started at 2026-01-01 10:00:00",
    "",
    "#### explain the parser",
    "",
    "It reads one line at a time.",
    "```md",
    "#### not a prompt inside a fence",
    "```",
    "",
    "> Tokens: 1k sent",
    "",
    "#### thanks",
  );
  const result = await parseAiderHistory(await tempLog(text), opts());
  equal(roles(result.sessions[0]), "user,assistant,user");
  ok(result.sessions[0]?.records[1]?.text.includes("not a prompt"));
});

Deno.test("parseAiderHistory() keeps a torn last line and survives a truncated log", async (t) => {
  await t.step("torn last line", async () => {
    const text =
      "# aider chat started at 2026-01-01 10:00:00\n\n#### fix the bu";
    const result = await parseAiderHistory(await tempLog(text), opts());
    equal(result.sessions[0]?.records[0]?.text, "fix the bu");
  });
  await t.step("truncated header", async () => {
    const result = await parseAiderHistory(
      await tempLog("# aider chat started at 2026-0"),
      opts(),
    );
    equal(result.sessions.length, 0);
  });
  await t.step("missing file", async () => {
    const result = await parseAiderHistory(
      "/nonexistent/.aider.chat.history.md",
      opts(),
    );
    deepEqual(result, { sessions: [], skipped: 0 });
  });
});

Deno.test("parseAiderHistory() skips an oversized line and caps a huge reply", async () => {
  const huge = "x".repeat(300_000);
  const text = log(
    "# aider chat started at 2026-01-01 10:00:00",
    "",
    "#### go  ",
    "",
    huge,
    "short tail",
    "",
    "#### again  ",
    "",
    "y".repeat(70_000),
  );
  const result = await parseAiderHistory(
    await tempLog(text),
    opts({ maxLineBytes: 100_000 }),
  );
  equal(result.skipped, 1);
  const s = result.sessions[0] as Session;
  equal(roles(s), "user,assistant,user,assistant");
  equal(s.records[1]?.text, "short tail");
  equal(s.records[3]?.flags?.truncated, true);
});

Deno.test("parseAiderHistory() survives hostile input", async (t) => {
  const cases: Array<[string, string | Uint8Array]> = [
    ["binary garbage", crypto.getRandomValues(new Uint8Array(8192))],
    ["only markers", "####  \n>  \n# aider chat started at x\n".repeat(500)],
    [
      "unclosed fence and SEARCH without path",
      log(
        "# aider chat started at 2026-01-01 10:00:00",
        "",
        "#### edit  ",
        "",
        "```",
        "<<<<<<< SEARCH",
        "=======",
        "> Applied edit to   ",
        "> Removed: zz  ",
      ),
    ],
    ["deep nesting", "[".repeat(100_000) + "\n" + "#### ".repeat(10_000)],
  ];
  for (const [name, text] of cases) {
    await t.step(name, async () => {
      const result = await parseAiderHistory(await tempLog(text), opts());
      for (const s of result.sessions) {
        for (const r of s.records) equal(typeof r.text, "string");
        const seqs = s.records.map((r) => r.seq);
        deepEqual(seqs, [...seqs].sort((a, b) => a - b));
      }
    });
  }
});

Deno.test({
  name:
    "parseAiderHistory() reads the real samples with the counts a reader gets",
  ignore: !hasSamples("aider"),
  fn: async (t) => {
    // Counted by reading the files: sessions are `# aider chat started`
    // headers where something was said; user turns are `####` blocks that
    // are not yes/no echoes or slash commands; assistant turns are reply
    // blocks between aider's `>` lines.
    const expected: Array<[string, number, number, number, number]> = [
      ["trading-bot", 3, 3, 0, 0],
      ["monochromatic", 13, 23, 40, 1],
    ];
    for (const [name, sessions, users, replies, marks] of expected) {
      await t.step(name, async () => {
        const path = `${SAMPLES}/${name}/.aider.chat.history.md`;
        equal(aider.kinds[0]?.match(path), true);
        const result = await parseAiderHistory(path, opts());
        equal(result.skipped, 0);
        equal(result.sessions.length, sessions);
        equal(count(result, "user"), users);
        equal(count(result, "assistant"), replies);
        equal(result.sessions.reduce((n, s) => n + s.marks.length, 0), marks);
        for (const s of result.sessions) {
          equal(s.project, name);
          for (const r of s.records) {
            ok(!r.text.includes("thinking-content"), "reasoning kept");
            ok(!/\(Y\)es\/\(N\)o/.test(r.role === "user" ? r.text : ""));
          }
        }
      });
    }
    await t.step("prompt times come from .aider.input.history", async () => {
      const path = `${SAMPLES}/trading-bot/.aider.chat.history.md`;
      const result = await parseAiderHistory(path, opts());
      const first = result.sessions[0]?.records.find((r) => r.role === "user");
      equal(first?.time, new Date(2026, 3, 26, 20, 3, 45, 529).getTime());
    });
  },
});

Deno.test("parseAiderHistory() names sessions the same under a moved HOME", async () => {
  const text = await Deno.readTextFile(FIXTURE_LOG);
  const ids: string[][] = [];
  for (const name of ["old-home", "new-home"]) {
    const home = await Deno.makeTempDir({ prefix: `deja-aider-${name}-` });
    const path = `${home}/code/weather-cli/.aider.chat.history.md`;
    await Deno.mkdir(`${home}/code/weather-cli`, { recursive: true });
    await Deno.writeTextFile(path, text);
    const result = await parseAiderHistory(path, {
      includeSubagents: true,
      source: { home, env: {}, os: "linux" },
    });
    ids.push(result.sessions.map((s) => s.id));
    await Deno.remove(home, { recursive: true });
  }
  ok(ids[0]!.length > 0);
  deepEqual(ids[0], ids[1]);
});
