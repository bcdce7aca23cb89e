/**
 * Renders the docs that are generated from code: docs/errors.md from the
 * error codes and docs/harnesses.md from the harness registry.
 * `deno run -A tests/generated_docs.ts` rewrites them; a test keeps them in step.
 *
 * @module
 */
import { ERROR_CODES } from "../src/core/errors.ts";
import { HARNESSES } from "../src/sources/registry.ts";
import { allCommands } from "../cli/commands.ts";
import { commandHelp } from "../cli/mod.ts";

/** The text of docs/errors.md. */
export function renderErrors(): string {
  const rows = Object.entries(ERROR_CODES).map(([code, text]) =>
    `| \`${code}\` | ${text} |`
  );
  return [
    "# Error codes",
    "",
    "Every failure deja reports carries a stable code (`DejaError.code`), printed",
    "as `error: <message> [CODE]` by the CLI and as `code` in HTTP problem bodies.",
    "Codes are never reused for another meaning. A usage error (an unknown",
    "command or flag, a bad value) is not a failure of this kind: it prints",
    "`error: <message>` and the command's help on stderr and exits 64. This",
    "file is generated from `src/core/errors.ts` by",
    "`deno run -A tests/generated_docs.ts`.",
    "",
    "| code | meaning |",
    "|---|---|",
    ...rows,
    "",
  ].join("\n");
}

const cell = (text: string) =>
  text.replaceAll("|", "\\|").replaceAll("\n", " ");

/** The text of docs/harnesses.md. */
export function renderHarnesses(): string {
  const rows = HARNESSES.map((h) =>
    `| ${h.name} (\`${h.id}\`) | ${cell(h.docs.store)} | ${cell(h.format)} | ${
      cell(h.docs.extracts)
    } | ${cell(h.docs.omits)} | ${cell(h.docs.verified)} |`
  );
  return [
    "# Harnesses",
    "",
    `deja reads ${HARNESSES.length} harnesses. This table is generated from the registry`,
    "(`src/sources/registry.ts`) by `deno run -A tests/generated_docs.ts`; a test fails",
    "when it drifts. `deja sources` shows the roots on this machine and what the",
    "index holds from each.",
    "",
    "| harness | store | format | extracted | not extracted (why) | verified against |",
    "|---|---|---|---|---|---|",
    ...rows,
    "",
  ].join("\n");
}

/** The text of docs/cli.md. */
export async function renderCli(): Promise<string> {
  const visible = (await allCommands()).filter((c) => !c.hidden);
  return [
    "# CLI reference",
    "",
    "Generated from each command's own help by `deno run -A tests/generated_docs.ts`;",
    "`deja help <command>` prints the same text. Exit codes: 0 ok, 1 error, 2 a CI",
    "gate matched, 3 partial (some stores unreadable), 64 usage error, 130",
    "`deja index` stopped by Ctrl-C.",
    "",
    ...visible.map((c) =>
      `- [\`deja ${c.name}\`](#deja-${
        c.name.replaceAll(" ", "-")
      }) — ${c.summary}`
    ),
    "",
    ...visible.flatMap((
      c,
    ) => [
      `## deja ${c.name}`,
      "",
      "```text",
      commandHelp(c).trimEnd(),
      "```",
      "",
    ]),
  ].join("\n");
}

if (import.meta.main) {
  await Deno.writeTextFile(
    new URL("../docs/cli.md", import.meta.url),
    await renderCli(),
  );
  const root = new URL("../docs/", import.meta.url);
  await Deno.writeTextFile(new URL("errors.md", root), renderErrors());
  await Deno.writeTextFile(new URL("harnesses.md", root), renderHarnesses());
}
