import { equal } from "node:assert/strict";
import { footerExitCode } from "./_tool_records.ts";

Deno.test("footerExitCode() reads the footer, not an earlier line of its shape the command printed", () => {
  equal(footerExitCode("$ cat run.log\nExit Code: 0\nboom\nExit Code: 1"), 1);
  equal(
    footerExitCode(
      "retrying\n<exited with exit code 0>\n<exited with exit code 2>",
    ),
    2,
  );
  equal(footerExitCode("Exit code: 3\nmore output\nExit code: 0\n"), 0);
  equal(footerExitCode("no footer here"), undefined);
});
