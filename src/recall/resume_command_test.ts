import { equal } from "node:assert/strict";
import type { SessionInfo } from "../search/mod.ts";
import { resumeCommand } from "./resume_command.ts";

const base: SessionInfo = {
  harness: "claude-code",
  id: "55604662",
  project: "spotter",
  path: "/h/.claude/projects/-x/55604662.jsonl",
  title: "",
  started: null,
  updated: null,
  records: 3,
  cwd: "/home/dev/spotter",
};

Deno.test("resumeCommand() reopens the session in its directory", () => {
  equal(
    resumeCommand(base)?.display,
    "cd /home/dev/spotter && claude --resume 55604662",
  );
});

Deno.test("resumeCommand() reopens a sub-agent's parent, which can be resumed", () => {
  const sub = {
    ...base,
    id: "a2898e3",
    parent: "4d5611e5",
    lineage: "subagent",
  };
  equal(
    resumeCommand(sub)?.display,
    "cd /home/dev/spotter && claude --resume 4d5611e5",
  );
  // A fork is a session of its own.
  const fork = { ...sub, lineage: "fork" };
  equal(resumeCommand(fork)?.argv.at(-1), "a2898e3");
});

Deno.test("resumeCommand() writes a Windows session's line for PowerShell", () => {
  const win = { ...base, cwd: "C:\\Users\\o'brien\\dashboard" };
  equal(
    resumeCommand(win)?.display,
    "cd 'C:\\Users\\o''brien\\dashboard'; claude --resume 55604662",
  );
});

Deno.test("resumeCommand() knows the resume flags of Copilot CLI and Kimi", async (t) => {
  const cases = [
    {
      harness: "copilot-cli",
      cwd: "/home/dev/poule",
      want: "cd /home/dev/poule && copilot --resume 7a1c0d2e-5b4f",
    },
    {
      harness: "kimi",
      cwd: "/home/dev/bot",
      want: "cd /home/dev/bot && kimi --session 7a1c0d2e-5b4f",
    },
  ];
  for (const c of cases) {
    await t.step(c.harness, () => {
      const session = {
        ...base,
        harness: c.harness,
        id: "7a1c0d2e-5b4f",
        cwd: c.cwd,
      };
      equal(resumeCommand(session)?.display, c.want);
    });
  }
});

Deno.test("resumeCommand() offers nothing for prompts whose transcript is gone", () => {
  equal(
    resumeCommand({ ...base, path: "/home/dev/.claude/history.jsonl" }),
    undefined,
  );
});
