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
const OTTER_LOG = `${FIXTURE_HOME}/Projects/otter-api/.aider.chat.history.md`;
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
    deepEqual(found, [FIXTURE_LOG, OTTER_LOG]);
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
  // The first header only started and quit (its launch and model lines):
  // no session.
  equal(result.sessions.length, 1);
  const s = result.sessions[0] as Session;
  equal(s.harness, "aider");
  equal(s.project, "weather-cli");
  equal(s.cwd, `${FIXTURE_HOME}/code/weather-cli`);
  ok(/^[0-9a-f]{12}-2$/.test(s.id), s.id);
  equal(
    roles(s),
    "command,files,tool-output,user,assistant,files,edit,tool-output,command,tool-output,user,assistant,files,edit,tool-output,user,assistant,tool-output,assistant,files",
  );
  // The model aider ran with is found in its status lines.
  ok(/^(?:Main )?model: /im.test(s.records[2]?.text ?? ""), s.records[2]?.text);
  // How aider was started is a command of its own.
  equal(
    s.records[0]?.text,
    "/home/dev/.local/bin/aider --model sonnet weather/cli.py",
  );
  equal(s.records[0]?.tool, "aider");
  // The edit that failed to match is an error aider reported.
  const failed = s.records.find((r) =>
    r.role === "tool-output" && r.tool === "aider" && r.flags?.isError
  );
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
  equal(s.records[3]?.time, new Date(2026, 1, 10, 9, 21, 30, 118).getTime());
  equal(s.records[4]?.time, s.records[3]?.time);
  equal(s.started, new Date(2026, 1, 10, 9, 20, 41).getTime());
  // /undo removed the kelvin commit: that reply, its edit and the commit
  // are superseded.
  deepEqual(s.marks, [{ kind: "undo", from: 11, to: 15 }]);
  const superseded = s.records.filter((r) => isSuperseded(r.seq, s.marks));
  deepEqual(superseded.map((r) => r.role), [
    "assistant",
    "files",
    "edit",
    "tool-output",
  ]);
  equal(superseded.at(-1)?.text, "Commit 8c0d4e7 feat: support kelvin output");
});

/** A chat log (and the files beside it) in a fresh project folder. */
async function tempProject(
  files: { log: string; input?: string; llm?: string; llmName?: string },
): Promise<string> {
  const path = await tempLog(files.log);
  const dir = path.slice(0, path.lastIndexOf("/"));
  if (files.input !== undefined) {
    await Deno.writeTextFile(`${dir}/.aider.input.history`, files.input);
  }
  if (files.llm !== undefined) {
    await Deno.writeTextFile(
      `${dir}/${files.llmName ?? ".aider.llm.history"}`,
      files.llm,
    );
  }
  return path;
}

/** An `I ran this command:` message in aider's LLM log (`format_messages`). */
function ranMessage(command: string, output: string): string {
  const text =
    `I ran this command:\n\n${command}\n\nAnd got this output:\n\n${output}`;
  return ["-------", ...text.split("\n").map((l) => `USER ${l}`)].join("\n");
}

const OK_MESSAGE = "-------\nASSISTANT Ok.";

Deno.test("parseAiderHistory() reads the otter fixture: commits, /git, failed tests and /run output from the LLM log", async () => {
  const result = await parseAiderHistory(OTTER_LOG, opts());
  equal(result.sessions.length, 1);
  const s = result.sessions[0] as Session;
  equal(s.project, "otter-api");
  const at = (seq: number) => s.records.find((r) => r.seq === seq);
  const shape = s.records.map((r) =>
    `${r.role}${r.tool ? ` ${r.tool}` : ""}${r.flags?.isError ? " !" : ""}`
  );
  deepEqual(shape, [
    "command aider",
    "tool-output aider",
    "files add",
    "user",
    "assistant",
    "files edit",
    "edit edit",
    "tool-output commit",
    "command /test",
    "tool-output /test !",
    "assistant",
    "files edit",
    "edit edit",
    "tool-output commit",
    "command /run",
    "tool-output /run !",
    "user",
    "assistant",
    "command /git",
    "tool-output /git",
    "user",
    "assistant",
    "command /run",
    "command /test",
    "tool-output /test !",
    "assistant",
    "command /test",
    "user",
    "assistant",
  ]);
  // Commit messages are kept as what the commit did.
  equal(
    at(7)?.text,
    "Commit 4b1e7a2 fix: stop the otter limiter admitting the request past its cap",
  );
  // The auto-test after the edit failed: its command and output come from
  // the LLM log, once though two requests repeat it.
  equal(at(8)?.text, "pytest -q");
  ok(at(9)?.text.includes("OTTERBURST_31"), at(9)?.text);
  // /run output, sent with the next prompt; that prompt is aider's
  // placeholder after a failed run, so the output is an error.
  equal(at(14)?.text, "pytest -q tests/test_limits.py -k refill");
  equal(
    at(15)?.text,
    "E   RefillClockSkew: otter refill drifted 41ms (OTTER_REFILL_SKEW)\n1 failed in 0.12s",
  );
  // /git output, written as one quoted message after the prompt.
  equal(at(18)?.text, "git log --oneline -3");
  ok(at(19)?.text.includes("(ottercub-ledger)"), at(19)?.text);
  equal(at(19)?.text.split("\n").length, 3);
  // A `{` prompt typed a line at a time takes its closing brace's time.
  equal(
    at(20)?.text,
    "why does the refill clock drift\nonly under the otter soak test?",
  );
  equal(at(20)?.time, new Date(2026, 2, 20, 14, 8, 30, 900).getTime());
  equal(at(21)?.time, at(20)?.time);
  // The shell command the model suggested ran; its output was not added.
  equal(at(22)?.text, "python -m otter.soak --minutes 1");
  // /test that failed, and one that passed (aider logs nothing then).
  equal(at(23)?.text, "pytest -q tests/test_soak.py");
  ok(at(24)?.text.includes("SOAK_TIMEOUT_OTTER"), at(24)?.text);
  equal(at(26)?.text, "pytest -q tests/test_limits.py");
  equal(at(27)?.role, "user");
  equal(at(27)?.time, new Date(2026, 2, 20, 14, 12, 30, 300).getTime());
});

Deno.test("parseAiderHistory() keeps the models aider ran with and its warnings, not its banner", async () => {
  const path = await tempProject({
    log: log(
      "# aider chat started at 2026-04-02 08:15:00",
      "",
      "> /srv/heron/venv/bin/aider --model ollama/mistral-nemo:12b heron.py  ",
      "> Warning: ollama/mistral-nemo:12b expects these environment variables  ",
      "> - OLLAMA_API_BASE: Not set  ",
      "> You can skip this check with --no-show-model-warnings  ",
      "> Aider v0.86.2  ",
      "> Model: ollama/mistral-nemo:12b with whole edit format  ",
      "> Git repo: .git with 3 files  ",
      "",
      "#### why does heron skip the first row?  ",
      "",
      "The reader calls next() before the loop.",
    ),
  });
  const s = (await parseAiderHistory(path, opts())).sessions[0];
  equal(roles(s), "command,tool-output,user,assistant");
  const notice = s?.records[1];
  equal(notice?.tool, "aider");
  equal(notice?.flags?.isError, undefined);
  equal(
    notice?.text,
    [
      "Warning: ollama/mistral-nemo:12b expects these environment variables",
      "- OLLAMA_API_BASE: Not set",
      "Model: ollama/mistral-nemo:12b with whole edit format",
    ].join("\n"),
  );
});

Deno.test("parseAiderHistory() flags a failed /test, and an auto-test, without an LLM log", async (t) => {
  const header = [
    "# aider chat started at 2026-03-15 16:05:10",
    "",
    "> aider --model sonnet --auto-test  ",
  ];
  await t.step("/test that failed", async () => {
    const path = await tempProject({
      log: log(
        ...header,
        "",
        "#### /test pytest -q tests/test_jackalope.py  ",
        "> Added 9 lines of output to the chat.  ",
        "",
        "The jackalope test asserts the old burst.",
      ),
    });
    const s = (await parseAiderHistory(path, opts())).sessions[0];
    equal(roles(s), "command,command,tool-output,assistant");
    const [command, output] = [s?.records[1], s?.records[2]];
    equal(command?.text, "pytest -q tests/test_jackalope.py");
    equal(command?.tool, "/test");
    equal(output?.tool, "/test");
    equal(output?.flags?.isError, true);
    equal(output?.text, "Added 9 lines of output to the chat.");
  });
  await t.step("/run whose output was added, and an auto-test", async () => {
    const path = await tempProject({
      log: log(
        ...header,
        "",
        "#### /run pnpm vitest run wombat  ",
        "> Add 0.4k tokens of command output to the chat? (Y)es/(N)o [Yes]: y  ",
        "> Added 14 lines of output to the chat.  ",
        "",
        "#### fix the wombat drain  ",
        "",
        "Done.",
        "",
        "> Applied edit to src/wombat.ts  ",
        "> Commit 3f9c2ab fix: drain the wombat queue on idle  ",
        "> Added 23 lines of output to the chat.  ",
        "> Attempt to fix test errors? (Y)es/(N)o [Yes]: n  ",
      ),
    });
    const s = (await parseAiderHistory(path, opts())).sessions[0] as Session;
    equal(
      roles(s),
      "command,command,tool-output,user,assistant,files,tool-output,tool-output",
    );
    // Whether a /run failed is not written: its output is not an error.
    equal(s.records[2]?.tool, "/run");
    equal(s.records[2]?.flags?.isError, undefined);
    // The auto-test's output was added: it failed.
    equal(s.records[7]?.tool, "/test");
    equal(s.records[7]?.flags?.isError, true);
  });
  await t.step(
    "a suggested shell command's output is not a test's",
    async () => {
      const path = await tempProject({
        log: log(
          ...header,
          "",
          "#### why is the soak slow  ",
          "",
          "```bash",
          "python -m otter.soak",
          "```",
          "",
          "> python -m otter.soak  ",
          "> Run shell command? (Y)es/(N)o/(D)on't ask again [Yes]: y  ",
          "> Running python -m otter.soak  ",
          "> Add command output to the chat? (Y)es/(N)o/(D)on't ask again [Yes]: y  ",
          "> Added 4 lines of output to the chat.  ",
          "",
          // aider sets this placeholder after a failed /run, not here.
          "#### What's wrong? Fix  ",
        ),
      });
      const s = (await parseAiderHistory(path, opts())).sessions[0] as Session;
      equal(roles(s), "command,user,assistant,command,tool-output,user");
      equal(s.records[3]?.text, "python -m otter.soak");
      equal(s.records[4]?.tool, "/run");
      equal(s.records[4]?.flags?.isError, undefined);
    },
  );
});

Deno.test("parseAiderHistory() keeps /git output and commit messages, and an undo supersedes its commit", async (t) => {
  await t.step("/git output, one line a message, and a git error", async () => {
    const path = await tempProject({
      log: log(
        "# aider chat started at 2026-03-14 10:22:31",
        "",
        "#### /git log --oneline -2  ",
        "> 3f9c2ab fix: preserve the trace header  ",
        "> a41d0e9 feat: add wallaby-cache warmup GIT_OUTPUT_WALLABY  ",
        "",
        "#### /git checkout mian  ",
        "> error: pathspec 'mian' did not match any file(s) known to git  ",
      ),
    });
    const s = (await parseAiderHistory(path, opts())).sessions[0] as Session;
    equal(roles(s), "command,tool-output,command,tool-output");
    equal(
      s.records[1]?.text,
      "3f9c2ab fix: preserve the trace header\na41d0e9 feat: add wallaby-cache warmup GIT_OUTPUT_WALLABY",
    );
    equal(s.records[1]?.tool, "/git");
    equal(s.records[1]?.flags?.isError, undefined);
    equal(s.records[3]?.flags?.isError, true);
    equal(s.records[3]?.tool, "/git");
  });
  await t.step("an undo names the commit it removed", async () => {
    const path = await tempProject({
      log: log(
        "# aider chat started at 2026-03-14 10:22:31",
        "",
        "#### rename the guard  ",
        "",
        "Renamed.",
        "",
        "> Applied edit to src/ocelot.py  ",
        "> Commit 77b01c2 refactor: rename ocelot_guard to ocelot_gate (failed guard)  ",
        "",
        "#### and the gate  ",
        "",
        "Renamed too.",
        "",
        "> Applied edit to src/gate.py  ",
        "> Unable to commit: index.lock exists  ",
        "",
        "#### /undo  ",
        "> Removed: 77b01c2 refactor: rename ocelot_guard to ocelot_gate (failed guard)  ",
        "> Now at:  3f9c2ab fix: preserve the trace header  ",
      ),
    });
    const s = (await parseAiderHistory(path, opts())).sessions[0] as Session;
    equal(
      roles(s),
      "user,assistant,files,tool-output,user,assistant,files,tool-output",
    );
    // A commit message saying "failed" is not an error.
    equal(s.records[3]?.tool, "commit");
    equal(s.records[3]?.flags?.isError, undefined);
    equal(s.records[7]?.flags?.isError, true);
    // The undo removed the first reply's commit, not the uncommitted edit.
    deepEqual(s.marks, [{ kind: "undo", from: 1, to: 4 }]);
  });
  await t.step(
    "an undo leaves the commit of the person's own changes",
    async () => {
      const path = await tempProject({
        log: log(
          "# aider chat started at 2026-03-14 10:22:31",
          "",
          "#### collect before yielding  ",
          "",
          "Collected.",
          "",
          "> Committing src/union.ts before applying edits.  ",
          "> Commit dd581c5 refactor: yield directly  ",
          "> Applied edit to src/union.ts  ",
          "> Commit 2bae9da refactor: collect items before yielding  ",
          "",
          "#### /undo  ",
          "> Removed: 2bae9da refactor: collect items before yielding  ",
          "> Now at:  dd581c5 refactor: yield directly  ",
        ),
      });
      const s = (await parseAiderHistory(path, opts())).sessions[0] as Session;
      equal(roles(s), "user,assistant,tool-output,files,tool-output");
      const undone = s.records.filter((r) => isSuperseded(r.seq, s.marks));
      deepEqual(undone.map((r) => r.text), [
        "Collected.",
        "src/union.ts",
        "Commit 2bae9da refactor: collect items before yielding",
      ]);
    },
  );
});

Deno.test("parseAiderHistory() times a multi-line prompt by its own input-history entry", async (t) => {
  const chat = log(
    "# aider chat started at 2026-03-14 10:22:31",
    "",
    "#### /run pnpm vitest run wombat  ",
    "",
    "#### why does the wombat suite time out?  ",
    "#### it started after the badger-queue change  ",
    "",
    "It waits on the drain.",
  );
  const cases: Array<[string, string, Date]> = [
    [
      "sent whole: one entry, braces and all",
      [
        "# 2026-03-14 10:31:40.000001",
        "+/run pnpm vitest run wombat",
        "",
        "# 2026-03-14 10:33:12.500000",
        "+{",
        "+why does the wombat suite time out?",
        "+it started after the badger-queue change",
        "+}",
      ].join("\n"),
      new Date(2026, 2, 14, 10, 33, 12, 500),
    ],
    [
      "typed a line at a time: one entry a line",
      [
        "# 2026-03-14 10:31:40.000001",
        "+/run pnpm vitest run wombat",
        "",
        "# 2026-03-14 10:32:50.000000",
        "+{wombat",
        "",
        "# 2026-03-14 10:33:01.000000",
        "+why does the wombat suite time out?",
        "",
        "# 2026-03-14 10:33:07.000000",
        "+it started after the badger-queue change",
        "",
        "# 2026-03-14 10:33:12.250000",
        "+wombat}",
      ].join("\n"),
      new Date(2026, 2, 14, 10, 33, 12, 250),
    ],
  ];
  for (const [name, input, want] of cases) {
    await t.step(name, async () => {
      const path = await tempProject({ log: chat, input: input + "\n" });
      const s = (await parseAiderHistory(path, opts())).sessions[0];
      const user = s?.records.find((r) => r.role === "user");
      equal(user?.time, want.getTime());
      equal(s?.records.at(-1)?.time, want.getTime());
    });
  }
});

Deno.test("parseAiderHistory() reads command output from the LLM log, each run once", async (t) => {
  const chat = log(
    "# aider chat started at 2026-03-14 10:22:31",
    "",
    "> aider --model sonnet --test-cmd pnpm run e2e --auto-test  ",
    "",
    "#### fix the redirect  ",
    "",
    "Fixed.",
    "",
    "> Applied edit to src/router.ts  ",
    "> Added 1 line of output to the chat.  ",
    "",
    "#### /run pnpm vitest run wombat  ",
    "> Add 0.1k tokens of command output to the chat? (Y)es/(N)o [Yes]: y  ",
    "> Added 1 line of output to the chat.  ",
    "",
    "#### /run pnpm vitest run wombat  ",
    "> Add 0.1k tokens of command output to the chat? (Y)es/(N)o [Yes]: y  ",
    "> Added 1 line of output to the chat.  ",
    "",
    "#### why  ",
    "",
    "Because.",
  );
  const input = [
    "# 2026-03-14 10:23:00.000000",
    "+fix the redirect",
    "# 2026-03-14 10:31:40.000000",
    "+/run pnpm vitest run wombat",
    "# 2026-03-14 10:31:50.000000",
    "+/run pnpm vitest run wombat",
    "# 2026-03-14 10:33:12.000000",
    "+why",
  ].join("\n") + "\n";
  const e2e = ranMessage("pnpm run e2e", "E2E_CAPYBARA_FAIL");
  const wombat = ranMessage("pnpm vitest run wombat", "ERR_NARWHAL_88");
  const llm = [
    "TO LLM 2026-03-14T10:23:01",
    "-------",
    "SYSTEM Act as an expert software developer.",
    "-------",
    "USER fix the redirect",
    "LLM RESPONSE 2026-03-14T10:23:09",
    "ASSISTANT Fixed.",
    // The auto-test's output, in the chat and sent again as the prompt.
    "TO LLM 2026-03-14T10:23:11",
    e2e,
    OK_MESSAGE,
    e2e,
    "LLM RESPONSE 2026-03-14T10:23:15",
    "ASSISTANT Done.",
    // Two runs with the same output, sent with the next prompt.
    "TO LLM 2026-03-14T10:33:13",
    e2e,
    OK_MESSAGE,
    wombat,
    OK_MESSAGE,
    wombat,
    OK_MESSAGE,
    "-------",
    "USER why",
    "LLM RESPONSE 2026-03-14T10:33:20",
    "ASSISTANT Because.",
  ].join("\n") + "\n";
  const outputs = (s: Session | undefined) =>
    s?.records.filter((r) => r.role === "tool-output").map((r) =>
      `${r.tool} ${r.text}`
    );
  await t.step("the auto-test and both runs", async () => {
    const path = await tempProject({ log: chat, input, llm });
    const s = (await parseAiderHistory(path, opts())).sessions[0];
    deepEqual(outputs(s), [
      "/test E2E_CAPYBARA_FAIL",
      "/run ERR_NARWHAL_88",
      "/run ERR_NARWHAL_88",
    ]);
    const auto = s?.records.find((r) =>
      r.role === "command" && r.tool === "/test"
    );
    equal(auto?.text, "pnpm run e2e");
  });
  await t.step("CRLF line ends, under AIDER_LLM_HISTORY_FILE", async () => {
    const path = await tempProject({
      log: chat,
      input,
      llm: llm.replaceAll("\n", "\r\n"),
      llmName: "llm.log",
    });
    const env = { AIDER_LLM_HISTORY_FILE: "llm.log" };
    const s = (await parseAiderHistory(path, {
      ...opts(),
      source: { ...source, env },
    })).sessions[0];
    equal(outputs(s)?.length, 3);
    ok(outputs(s)?.every((o) => !o.includes("Added")), String(outputs(s)));
  });
  await t.step(
    "the copy a failed test sends as the prompt is no second run",
    async () => {
      const path = await tempProject({
        log: log(
          "# aider chat started at 2026-03-14 10:39:00",
          "",
          "#### fix b  ",
          "",
          "Fixed.",
          "",
          "> Applied edit to src/b.ts  ",
          "> Added 1 line of output to the chat.  ",
          "> Attempt to fix test errors? (Y)es/(N)o [Yes]: y  ",
          "",
          "Fixed again.",
          "",
          "> Applied edit to src/b.ts  ",
          "> Added 2 lines of output to the chat.  ",
          "> Attempt to fix test errors? (Y)es/(N)o [Yes]: n  ",
        ),
        input: "# 2026-03-14 10:40:00.000000\n+fix b\n",
        llm: ["TO LLM 2026-03-14T10:40:05", e2e, OK_MESSAGE, e2e].join("\n"),
      });
      const s = (await parseAiderHistory(path, opts())).sessions[0];
      deepEqual(outputs(s), [
        "/test E2E_CAPYBARA_FAIL",
        "/test Added 2 lines of output to the chat.",
      ]);
    },
  );
  await t.step(
    "an auto-test does not take a typed command's output",
    async () => {
      // The auto-test's own output is not in the log (written from later on).
      const late = llm.slice(llm.indexOf("TO LLM 2026-03-14T10:33:13"));
      const path = await tempProject({
        log: chat.replace("--test-cmd pnpm run e2e ", ""),
        input,
        llm: late.replaceAll(e2e + "\n" + OK_MESSAGE + "\n", ""),
      });
      const s = (await parseAiderHistory(path, opts())).sessions[0];
      deepEqual(outputs(s), [
        "/test Added 1 line of output to the chat.",
        "/run ERR_NARWHAL_88",
        "/run ERR_NARWHAL_88",
      ]);
    },
  );
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

Deno.test("parseAiderHistory() keeps a chat with no prompt when aider reported an error or a warning in it", async (t) => {
  const cases: Array<[string, string[], string, string | undefined]> = [
    [
      "an error names it",
      [
        "> /home/kim/.local/bin/aider --read NOTES.md  ",
        "> Error: Read-only file /home/kim/wren/NOTES.md does not exist. Skipping.  ",
        "> Aider v0.86.2  ",
      ],
      "command,tool-output",
      "Error: Read-only file /home/kim/wren/NOTES.md does not exist. Skipping.",
    ],
    [
      "a warning names it",
      [
        "> /home/kim/.local/bin/aider --model ollama/qwen2.5:7b wren.py  ",
        "> Warning: ollama/qwen2.5:7b expects these environment variables  ",
        "> - OLLAMA_API_BASE: Not set  ",
        "> Aider v0.86.2  ",
        "> Added wren.py to the chat.  ",
      ],
      "command,files,tool-output",
      "Warning: ollama/qwen2.5:7b expects these environment variables",
    ],
    [
      "started and quit: its launch and model lines only",
      [
        "> /home/kim/.local/bin/aider --model sonnet  ",
        "> Aider v0.86.2  ",
        "> Main model: anthropic/claude-sonnet-4-5 with diff edit format  ",
      ],
      "",
      undefined,
    ],
    [
      "a warning alone keeps it",
      ["> Warning: VERTEXAI_LOCATION: Not set  "],
      "tool-output",
      undefined,
    ],
    ["only a banner", ["> Aider v0.86.2  "], "", undefined],
    [
      "a banner and the files it added",
      ["> Aider v0.86.2  ", "> Added wren.py to the chat.  "],
      "",
      undefined,
    ],
  ];
  for (const [name, lines, shape, title] of cases) {
    await t.step(name, async () => {
      const text = log(
        "# aider chat started at 2026-05-01 09:00:00",
        "",
        ...lines,
        "",
        "# aider chat started at 2026-05-01 09:05:00",
        "",
        "#### why is wren slow?  ",
        "",
        "It reads the file twice.",
      );
      const { sessions } = await parseAiderHistory(await tempLog(text), opts());
      const prompted = sessions.at(-1);
      // Chats are numbered by their header, kept or not: the prompted chat's
      // id is the same whether the one before it is kept.
      ok(prompted?.id.endsWith("-2"));
      equal(prompted?.title, "why is wren slow?");
      if (shape === "") {
        equal(sessions.length, 1);
        return;
      }
      equal(sessions.length, 2);
      const first = sessions[0];
      ok(first?.id.endsWith("-1"));
      equal(roles(first), shape);
      if (title !== undefined) equal(first?.title, title);
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
    // headers where something was said or run, or where aider reported an
    // error or a warning (not monochromatic's first, a pip prompt, nor the
    // chats that only started and quit: trading-bot's second,
    // monochromatic's seventeenth); user turns are `####` blocks that
    // are not yes/no echoes or slash commands; assistant turns are reply
    // blocks between aider's `>` lines; marks: monochromatic's one /undo,
    // in two ranges around the commit of the person's own changes that
    // aider made before applying the undone edit.
    const expected: Array<[string, number, number, number, number]> = [
      ["trading-bot", 4, 3, 0, 0],
      ["monochromatic", 17, 23, 40, 2],
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
      const first = result.sessions.flatMap((s) => s.records).find((r) =>
        r.role === "user"
      );
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

Deno.test("parseAiderHistory() reads unclosed reasoning tags and long dash lines in one pass", async () => {
  // The reasoning regexes read on to the end of the reply from every open
  // tag with no close after it, and tried `-{3,}` from every dash of a
  // long run: minutes for this reply.
  const path = await tempLog(log(
    "# aider chat started at 2026-02-10 09:20:41",
    "",
    "#### fix the parser  ",
    "",
    "the fix is in parse.ts",
    "<think> ".repeat(60_000),
    "<reasoning> ".repeat(40_000),
    "-".repeat(150_000),
    "► **THINKING** and no answer",
    "done",
  ));
  const result = await parseAiderHistory(path, opts());
  const reply = result.sessions[0]?.records.find((r) => r.role === "assistant");
  ok(reply?.text.startsWith("the fix is in parse.ts\n<think> <think>"));
  ok(reply?.text.endsWith("\ndone"));
});

Deno.test("parseAiderHistory() does not take the architect's reply, handed to the editor model, for a prompt", async (t) => {
  const plan = [
    "Change `badger/cache.py` so entries expire:",
    "",
    "1. Give `Cache` a `ttl` of 3600 seconds.",
    "",
    "2. In `get`, drop an entry older than `ttl`.",
  ];
  const edit = [
    "badger/cache.py",
    "```python",
    "<<<<<<< SEARCH",
    "    def get(self, key):",
    "=======",
    "    def get(self, key, now=None):",
    ">>>>>>> REPLACE",
    "```",
  ];
  const header = [
    "# aider chat started at 2026-03-02 14:05:11",
    "",
    "> aider --architect --model o3 --editor-model sonnet  ",
    "> Aider v0.86.1  ",
    "",
    "#### make the badger cache expire after an hour  ",
    "",
  ];
  await t.step("auto-accepted (no question asked)", async () => {
    const path = await tempLog(log(
      ...header,
      ...plan,
      "",
      ...plan.map((l) => `#### ${l}  `),
      "",
      ...edit,
      "",
      "> Applied edit to badger/cache.py  ",
      "",
      "#### now add a test for it  ",
      "",
      "Added `test_expiry`.",
      "",
    ));
    const s = (await parseAiderHistory(path, opts())).sessions[0];
    deepEqual(
      s?.records.filter((r) => r.role === "user").map((r) => r.text),
      ["make the badger cache expire after an hour", "now add a test for it"],
    );
    equal(s?.records.filter((r) => r.role === "assistant").length, 3);
    ok(s?.records.some((r) => r.role === "edit"));
  });
  await t.step(
    "after `Edit the files?`, and with a reasoning block",
    async () => {
      const path = await tempLog(log(
        ...header,
        "<thinking-content-7bbeb8e1441453ad999a0bbba8a46d4b>",
        "",
        "The cache has no clock yet.",
        "",
        "</thinking-content-7bbeb8e1441453ad999a0bbba8a46d4b>",
        "",
        ...plan,
        "",
        "> Edit the files? (Y)es/(N)o [Yes]: y  ",
        "",
        ...plan.map((l) => `#### ${l}  `),
        "",
        ...edit,
        "",
      ));
      const s = (await parseAiderHistory(path, opts())).sessions[0];
      deepEqual(
        s?.records.filter((r) => r.role === "user").map((r) => r.text),
        ["make the badger cache expire after an hour"],
      );
    },
  );
  await t.step(
    "a prompt that only repeats an earlier reply is kept",
    async () => {
      const path = await tempLog(log(
        ...header,
        "Done.",
        "",
        "#### thanks  ",
        "",
        "You're welcome.",
        "",
        "#### Done.  ",
        "",
      ));
      const s = (await parseAiderHistory(path, opts())).sessions[0];
      equal(s?.records.filter((r) => r.role === "user").length, 3);
    },
  );
});
