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
