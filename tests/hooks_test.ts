import { deepEqual, equal, ok } from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { run } from "../cli/mod.ts";
import { captureIo } from "../src/core/io.ts";
import {
  askTerms,
  byteLength,
  livePath,
  readLiveFile,
} from "../src/recall/mod.ts";
import {
  hookPrompt,
  parsePayload,
  SESSION_END_LOOP,
} from "../src/hooks/mod.ts";
import { pendingPassSince } from "../src/index/mod.ts";
import { openMemory } from "../src/memory/mod.ts";
import {
  buildWorld,
  denoDir,
  NOW,
  type RecallWorld,
  ROOT,
} from "./_recall_fixture.ts";

const HOOKS = fileURLToPath(new URL("../fixtures/hooks", import.meta.url));

let world: RecallWorld | undefined;
async function theWorld(): Promise<RecallWorld> {
  world ??= await buildWorld();
  return world;
}

async function hook(
  argv: string[],
  payload: string,
  env: Record<string, string>,
  now = NOW,
): Promise<{ code: number; out: string; err: string }> {
  const io = captureIo({ env, now, stdin: payload, cwd: "/" });
  const code = await run(argv, io, { keepPermissions: true });
  return { code, out: io.out(), err: io.err() };
}

async function fixture(name: string): Promise<string> {
  return await Deno.readTextFile(`${HOOKS}/${name}`);
}

/** Runs a hook on a payload fixture in the shared world; returns stdout. */
async function outOf(argv: string[], name: string): Promise<string> {
  return (await hook(argv, await fixture(name), (await theWorld()).env)).out;
}

/** A stand-in deja that records each argv it is started with. */
async function fakeDeja(): Promise<
  { bin: string; calls: () => Promise<string[]> }
> {
  const dir = await Deno.makeTempDir();
  const marker = `${dir}/spawned`;
  const bin = `${dir}/fake-deja`;
  await Deno.writeTextFile(bin, `#!/bin/sh\necho "$@" >> '${marker}'\n`);
  await Deno.chmod(bin, 0o755);
  return {
    bin,
    // Detached children land a moment later: wait up to 2.5 s for them.
    calls: async () => {
      for (let i = 0; i < 50; i++) {
        const text = await Deno.readTextFile(marker).catch(() => "");
        if (text) return text.trim().split("\n");
        await new Promise((r) => setTimeout(r, 50));
      }
      return [];
    },
  };
}

function context(out: string): { event: string; text: string } {
  const data = JSON.parse(out);
  return {
    event: data.hookSpecificOutput.hookEventName,
    text: data.hookSpecificOutput.additionalContext,
  };
}

Deno.test("hook-context answers Claude Code's SessionStart with a framed digest and stamps the session", async () => {
  const w = await theWorld();
  const r = await hook(
    ["hook-context", "--harness", "claude-code"],
    await fixture("claude-code/session_start.json"),
    w.env,
  );
  equal(r.code, 0);
  const { event, text } = context(r.out);
  equal(event, "SessionStart");
  ok(text.startsWith('<deja-recall kind="session-start">'));
  ok(text.includes("untrusted"));
  ok(byteLength(text) <= 2048);
  ok(text.includes("5d1e7c2a") || text.includes("7b3f9e21"), text);
  const live = readLiveFile(livePath(w.indexPath))
    .sessions["c0ffee00-1111-4222-8333-444455556666"];
  equal(live?.at, NOW);
  equal(live?.harness, "claude-code");
});

Deno.test("hook-prompt speaks once per ask, on the ask rather than the pasted log", async () => {
  const w = await theWorld();
  const payload = await fixture("claude-code/user_prompt_submit.json");
  const first = await hook(["hook-prompt"], payload, w.env);
  const { event, text } = context(first.out);
  equal(event, "UserPromptSubmit");
  ok(text.includes("1b6e4f9a"), text);
  const again = await hook(["hook-prompt"], payload, w.env, NOW + 60_000);
  equal(again.out, "");
});

Deno.test("hook-prompt quotes a new line of a session it quoted before, never the same line twice", async () => {
  const w = await buildWorld([{
    id: "5a0c1d2e-3f40-4a51-8b62-7c8d9e0f1a2b",
    cwd: "/home/dev/src/mictlan",
    start: "2026-11-21T09:00:00Z",
    steps: [
      { user: "the dev container fails to start" },
      {
        assistant:
          "The dev container fails because Docker Desktop is not installed yet.",
      },
      { user: "docker is installed now, start the vite dev server" },
      {
        assistant:
          "The vite dev server is running: Local http://localhost:5174/ is the port to open.",
      },
    ],
  }]);
  const ask = (prompt: string, at: number) =>
    hook(
      ["hook-prompt"],
      JSON.stringify({
        session_id: "ab5e0000-1111-4222-8333-444455556666",
        cwd: "/home/dev/src/mictlan",
        hook_event_name: "UserPromptSubmit",
        prompt,
      }),
      w.env,
      at,
    ).then((r) => r.out ? context(r.out).text : "");
  const first = await ask("why does the dev container fail to start?", NOW);
  ok(first.includes("5a0c1d2e"), first);
  const second = await ask(
    "what port is the vite dev server on?",
    NOW + 60_000,
  );
  ok(second.includes("5a0c1d2e") && second.includes("5174"), second);
  const third = await ask(
    "which port does the vite dev server listen on?",
    NOW + 120_000,
  );
  ok(!third.includes("5174"), third);
});

Deno.test("hook-prompt answers nothing when its searches outrun the time budget", async (t) => {
  const w = await theWorld();
  const payload = parsePayload(
    await fixture("claude-code/user_prompt_submit.json"),
  );
  const answer = async (
    budget: string,
    step: number,
    sessionId: string,
  ) => {
    let elapsed = 0;
    return await hookPrompt({ ...payload, sessionId }, {
      indexPath: w.indexPath,
      memoryPath: w.memoryPath,
      env: { ...w.env, DEJA_HOOK_BUDGET_MS: budget },
      cwd: "/",
      now: NOW,
      // Each look at the clock finds `step` ms gone.
      clock: () => (elapsed += step),
    });
  };
  await t.step("within the budget it answers", async () => {
    ok(
      (await answer("300", 1, "b0d9e700-0000-4000-8000-000000000001")).context,
    );
  });
  await t.step("past the default budget it is silent", async () => {
    deepEqual(
      await answer("", 200, "b0d9e700-0000-4000-8000-000000000002"),
      {},
    );
  });
  await t.step("DEJA_HOOK_BUDGET_MS widens it", async () => {
    ok(
      (await answer("100000", 200, "b0d9e700-0000-4000-8000-000000000003"))
        .context,
    );
  });
});

Deno.test("hook-prompt leaves a pasted blob with no spaces out of its search and answers on the rest, in time", async () => {
  const w = await theWorld();
  const blob = "a\u{1f389}".repeat(50_000);
  deepEqual(askTerms(`"${blob}" ${blob} nightly export job`), [
    "nightly",
    "export",
    "job",
  ]);
  const payload = parsePayload(
    await fixture("claude-code/user_prompt_submit.json"),
  );
  const started = performance.now();
  const answer = await hookPrompt({
    ...payload,
    sessionId: "b0d9e700-0000-4000-8000-000000000004",
    prompt: `${blob} why does the nightly export job time out again?`,
  }, {
    indexPath: w.indexPath,
    memoryPath: w.memoryPath,
    env: { ...w.env, DEJA_HOOK_BUDGET_MS: "100000" },
    cwd: "/",
    now: NOW,
  });
  // Searching the blob itself took 12 s; the ask's words take milliseconds.
  ok(performance.now() - started < 3000);
  ok(answer.context?.includes("1b6e4f9a"), answer.context);
});

Deno.test("hook-tool-after answers a failed command with the remedy on file, once", async () => {
  const w = await theWorld();
  const payload = await fixture("claude-code/post_tool_use_failure.json");
  const r = await hook(["hook-tool-after"], payload, { ...w.env });
  const { event, text } = context(r.out);
  equal(event, "PostToolUseFailure");
  ok(text.includes("docker compose up -d db"), text);
  const body = text.split("\n").slice(2, -1);
  ok(body.length <= 2, body.join("\n"));
  ok(byteLength(body.join("\n")) <= 420);
  equal((await hook(["hook-tool-after"], payload, w.env, NOW + 1000)).out, "");
});

Deno.test("hook-tool-after stays silent on a command that succeeded", async () => {
  await theWorld();
  equal(
    await outOf(["hook-tool-after"], "claude-code/post_tool_use_ok.json"),
    "",
  );
});

Deno.test("hook-session-end drops the live stamp and prints nothing", async () => {
  const w = await theWorld();
  await hook(
    ["hook-context"],
    await fixture("claude-code/session_start.json"),
    w.env,
  );
  const r = await hook(
    ["hook-session-end"],
    await fixture("claude-code/session_end.json"),
    w.env,
    NOW + 5000,
  );
  equal(r.out, "");
  equal(
    readLiveFile(livePath(w.indexPath))
      .sessions["c0ffee00-1111-4222-8333-444455556666"]?.at,
    0,
  );
});

Deno.test("Codex payloads: session start, prompt and a failed Bash call", async (t) => {
  await theWorld();
  await t.step("SessionStart digest for the infra project", async () => {
    const { text } = context(
      await outOf(["hook-context"], "codex/session_start.json"),
    );
    ok(text.includes("in infra"), text);
  });
  await t.step("UserPromptSubmit recalls the versioning fix", async () => {
    const { text } = context(
      await outOf(["hook-prompt"], "codex/user_prompt_submit.json"),
    );
    ok(text.includes("0199fd22"), text);
  });
  await t.step(
    "PostToolUse with a string result carrying the exit code",
    async () => {
      const { event, text } = context(
        await outOf(["hook-tool-after"], "codex/post_tool_use.json"),
      );
      equal(event, "PostToolUse");
      ok(text.includes("edited s3.tf"), text);
      ok(text.includes("`terraform plan -no-color` passed"), text);
    },
  );
});

Deno.test("Gemini CLI payloads: SessionStart, BeforeAgent and AfterTool keep their event names", async (t) => {
  await theWorld();
  await t.step("SessionStart", async () => {
    equal(
      context(
        await outOf(["hook-context"], "gemini/session_start.json"),
      ).event,
      "SessionStart",
    );
  });
  await t.step("BeforeAgent", async () => {
    const { event, text } = context(
      await outOf(["hook-prompt"], "gemini/before_agent.json"),
    );
    equal(event, "BeforeAgent");
    ok(text.includes("3f2b8c1e"), text);
  });
  await t.step("AfterTool with Exit Code in llmContent", async () => {
    const { event, text } = context(
      await outOf(["hook-tool-after"], "gemini/after_tool.json"),
    );
    equal(event, "AfterTool");
    ok(text.includes("docker compose up -d db"));
  });
  await t.step("SessionEnd", async () => {
    equal(
      await outOf(["hook-session-end"], "gemini/session_end.json"),
      "",
    );
  });
});

Deno.test("Cursor payloads get Cursor's output shape with --cursor", async () => {
  await theWorld();
  const start = JSON.parse(
    await outOf(["hook-context", "--cursor"], "cursor/session_start.json"),
  );
  ok(String(start.additional_context).startsWith("<deja-recall"));
  const fail = JSON.parse(
    await outOf(
      ["hook-tool-after", "--cursor"],
      "cursor/post_tool_use_failure.json",
    ),
  );
  ok(String(fail.additional_context).includes("docker compose up -d db"));
});

Deno.test("Cursor postToolUse: a Shell call whose tool_output says exitCode 1 gets the remedy, exitCode 0 nothing", async () => {
  await theWorld();
  const failed = JSON.parse(
    await outOf(
      ["hook-tool-after", "--cursor"],
      "cursor/post_tool_use_failed.json",
    ),
  );
  ok(String(failed.additional_context).includes("docker compose up -d db"));
  equal(
    await outOf(
      ["hook-tool-after", "--cursor"],
      "cursor/post_tool_use_ok.json",
    ),
    "",
  );
});

Deno.test("--plain prints the framed text without the envelope", async () => {
  const w = await theWorld();
  const r = await hook(
    ["hook-context", "--plain"],
    await fixture("gemini/session_start.json"),
    w.env,
  );
  ok(r.out.startsWith('<deja-recall kind="session-start">'));
  ok(r.out.trimEnd().endsWith("</deja-recall>"));
});

Deno.test("hooks fail open: malformed input or an unusable index → exit 0, no output", async (t) => {
  const w = await theWorld();
  const cases: Array<[string, string[], string, Record<string, string>]> = [
    ["not JSON", ["hook-prompt"], "{not json", w.env],
    ["a JSON array", ["hook-tool-after"], "[1,2]", w.env],
    ["a JSON string", ["hook-context"], '"hello"', w.env],
    ["empty stdin to a prompt hook", ["hook-prompt"], "", w.env],
    // The launcher runs whichever deja it finds: one older than the
    // install that wrote the hook entry may not know a flag it passes.
    [
      "an option this deja does not know",
      ["hook-prompt", "--from-a-newer-deja"],
      await fixture("claude-code/user_prompt_submit.json"),
      w.env,
    ],
    [
      "an index path that is a directory",
      ["hook-context"],
      await fixture("claude-code/session_start.json"),
      {
        ...w.env,
        DEJA_INDEX: w.dir,
      },
    ],
    [
      "a damaged index",
      ["hook-tool-after"],
      await fixture("claude-code/post_tool_use_failure.json"),
      {
        ...w.env,
        DEJA_INDEX: `${w.dir}/home/.claude/history.jsonl`,
      },
    ],
  ];
  for (const [name, argv, stdin, env] of cases) {
    await t.step(name, async () => {
      const r = await hook(argv, stdin, env);
      equal(r.code, 0);
      equal(r.out, "");
      equal(r.err, "");
    });
  }
});

/** A world with no index yet, and a fake deja recording what is started. */
async function noIndexYet(extra: Record<string, string> = {}) {
  const w = await theWorld();
  const fake = await fakeDeja();
  const dir = await Deno.makeTempDir();
  const env = {
    HOME: w.home,
    DEJA_INDEX: `${dir}/index.db`,
    DEJA_BIN: fake.bin,
    DEJA_NO_AUTO_LOOP: "1",
    PATH: "/usr/bin:/bin",
    ...extra,
  };
  const payload = await fixture("claude-code/session_start.json");
  return { fake, dir, env, payload };
}

Deno.test("hook-context never builds a missing index: it starts one detached and says so", async () => {
  const { fake, dir, env, payload } = await noIndexYet();
  const json = await hook(["hook-context"], payload, env);
  ok(JSON.parse(json.out).systemMessage.includes("indexing"), json.out);
  equal(
    await Deno.stat(`${dir}/index.db`).then(() => true, () => false),
    false,
    "the hook built nothing",
  );
  deepEqual(await fake.calls(), ["index --quiet"]);
  equal(
    (await hook(["hook-context", "--plain"], payload, env)).out,
    "",
    "--plain says nothing while building",
  );
});

Deno.test("hook-context with automatic indexing off says how to start, not that it is indexing", async () => {
  const { fake, env, payload } = await noIndexYet({ DEJA_NO_AUTO_INDEX: "1" });
  const json = await hook(["hook-context"], payload, env);
  const message = JSON.parse(json.out).systemMessage as string;
  ok(message.includes("run deja index"), json.out);
  ok(!message.includes("indexing this machine"), json.out);
  deepEqual(await fake.calls(), [], "nothing started");
});

Deno.test("hook-session-end starts the gated loop run detached", async () => {
  const w = await theWorld();
  const fake = await fakeDeja();
  const env = {
    ...w.env,
    DEJA_BIN: fake.bin,
    DEJA_NO_AUTO_LOOP: "0",
    PATH: "/usr/bin:/bin",
  };
  await hook(
    ["hook-session-end"],
    await fixture("codex/session_start.json"),
    env,
  );
  deepEqual(await fake.calls(), [
    "loop run --from-index --min-new 20 --min-new-errors 3 --quiet",
  ]);
});

Deno.test("hook-session-end starts an index pass even within a minute of the last refresh", async () => {
  const { fake, dir, env } = await noIndexYet();
  const now = Date.now();
  // Another hook started the stale-index refresh 15 s ago.
  await Deno.writeTextFile(`${dir}/index.db.refresh`, String(now - 15_000));
  await hook(
    ["hook-session-end"],
    await fixture("claude-code/session_end.json"),
    env,
    now,
  );
  deepEqual(await fake.calls(), ["index --quiet"]);
});

Deno.test("hook-session-end while a pass holds the lock marks a pending pass and starts none", async () => {
  const { fake, dir, env } = await noIndexYet();
  using lock = await Deno.open(`${dir}/index.db.lock`, {
    create: true,
    write: true,
  });
  await lock.lock(true);
  await hook(
    ["hook-session-end"],
    await fixture("claude-code/session_end.json"),
    env,
    Date.now(),
  );
  deepEqual(await fake.calls(), [], "the running pass reads again instead");
  ok(pendingPassSince(`${dir}/index.db`, Date.now() - 60_000));
});

Deno.test("the loop run hook-session-end starts learns the ended sessions' commands", async () => {
  const w = await theWorld();
  const dir = await Deno.makeTempDir();
  const memoryPath = `${dir}/memory.db`;
  const io = captureIo({ env: { ...w.env, DEJA_DB: memoryPath }, now: NOW });
  const code = await run([...SESSION_END_LOOP], io, { keepPermissions: true });
  equal(code, 0, io.err());
  const store = openMemory(memoryPath, { readOnly: true });
  try {
    const events = store.counts().event;
    ok(events > 0, "the hooked sessions' tool calls reach the memory file");
  } finally {
    store.close();
  }
});

Deno.test("a hook whose stdin never closes gives up after its read deadline", async () => {
  const w = await theWorld();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `${ROOT}main.ts`, "hook-context", "--plain"],
    env: {
      ...w.env,
      DENO_DIR: denoDir(),
      CLAUDE_PROJECT_DIR: "/home/dev/src/api",
    },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const started = performance.now();
  const timer = setTimeout(() => child.kill(), 10_000);
  const out = await child.output();
  clearTimeout(timer);
  const elapsed = performance.now() - started;
  equal(out.code, 0, new TextDecoder().decode(out.stderr));
  ok(elapsed < 5_000, `took ${Math.round(elapsed)} ms`);
  ok(
    new TextDecoder().decode(out.stdout).includes("<deja-recall"),
    "an empty payload still gets the cwd's digest",
  );
});

Deno.test("hook-context started in / names no project and stays silent", async () => {
  const w = await buildWorld([{
    id: "9d0e1f2a-3b4c-4d5e-8f60-718293a4b5c6",
    cwd: "/",
    start: "2026-11-21T09:00:00Z",
    steps: [
      { user: "tidy the root crontab" },
      { assistant: "The root crontab now runs the backup at 02:00." },
    ],
  }]);
  const payload = JSON.stringify({
    session_id: "c0ffee00-1111-4222-8333-444455556666",
    cwd: "/",
    hook_event_name: "SessionStart",
    source: "startup",
  });
  const r = await hook(["hook-context"], payload, w.env);
  equal(r.code, 0);
  equal(r.out, "");
});
