import { equal } from "node:assert/strict";
import { footerExitCode, grepCommand } from "./_tool_records.ts";

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

Deno.test("grepCommand() writes what a search tool looked for as a command line", async (t) => {
  const cases: Array<[string, Record<string, unknown>, string | undefined]> = [
    ["pattern alone", { pattern: "lantern" }, "grep lantern"],
    [
      "pattern, path and glob",
      { pattern: "fn render", path: "src/ui dir", glob: "**/*.rs" },
      "grep 'fn render' 'src/ui dir' --glob **/*.rs",
    ],
    [
      "a quote in the pattern",
      { pattern: "it's" },
      "grep 'it'\\''s'",
    ],
    [
      "zed's regex and include_pattern",
      { regex: "mongoose", include_pattern: "app/**/*.ts" },
      "grep mongoose --glob app/**/*.ts",
    ],
    ["no pattern", { path: "src", glob: "*.rs" }, undefined],
    ["a pattern that is not text", { pattern: 7 }, undefined],
  ];
  for (const [name, args, want] of cases) {
    await t.step(name, () => equal(grepCommand(args), want));
  }
});
