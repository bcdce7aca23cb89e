/**
 * `deja import --format tool-log FILE`: bring tool-call history that
 * predates deja into the memory file.
 *
 * @module
 */
import { basename, isAbsolute, resolve } from "node:path";
import { messageOf, UsageError } from "../src/core/errors.ts";
import { MAX_LINE_BYTES, readLines } from "../src/core/lines.ts";
import { importToolLog, type ImportToolLogOptions } from "../src/memory/mod.ts";
import {
  boolFlag,
  type Command,
  EXIT,
  printJson,
  stringFlag,
} from "./_command.ts";
import { plural } from "../src/core/plural.ts";
import { DB_OPTION, openStore } from "./_memory_args.ts";

const FORMATS = ["tool-log"];

async function* texts(path: string): AsyncGenerator<string> {
  try {
    for await (const line of readLines(path)) yield line.text;
  } catch (err) {
    // "Not zstd data" alone does not say which of the files it was.
    throw new Error(`Cannot import "${path}": ${messageOf(err)}`, {
      cause: err,
    });
  }
}

/** The lines of standard input; a line past the size cap is left out. */
async function* stdinTexts(
  stream: ReadableStream<Uint8Array>,
): AsyncGenerator<string> {
  let rest = "";
  let skipping = false;
  for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
    const lines = (rest + chunk).split("\n");
    rest = lines.pop() ?? "";
    for (const line of lines) {
      if (!skipping) yield line;
      skipping = false;
    }
    if (rest.length > MAX_LINE_BYTES) {
      rest = "";
      skipping = true;
    }
  }
  if (rest && !skipping) yield rest;
}

/** The path that names standard input. */
const STDIN = "-";

/** Refuses a path that is no readable file, as config-import does. */
function readableFile(path: string): void {
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(path);
  } catch (err) {
    throw new UsageError(`Cannot read "${path}": ${messageOf(err)}`);
  }
  if (!info.isFile) throw new UsageError(`"${path}" is not a file`);
}

/** The `import` subcommand. */
export const importCommand: Command = {
  name: "import",
  summary: "Import tool-call history (OpenAI-style JSONL) into the memory file",
  usage: "deja import --format tool-log FILE... [--db FILE] [--thread ID]",
  help:
    `Reads tool-call JSONL and stores each call as an event grain, so the loop
can learn from history that predates deja. Understood: chat messages with
tool_calls[].function.{name,arguments} and role "tool" results with
tool_call_id; Responses-style function_call / function_call_output items;
{"messages": [...]} lines; flat {tool, input, result, is_error} records.
A result counts as a failure when it has an "error" field, is_error, a
failed status, a non-zero exit code, or starts like an error. Importing the
same file again stores nothing new. .zst files are read directly; "-"
reads standard input (thread "stdin" unless --thread names one).

Options:
  --db FILE          Memory file (default $DEJA_DB or ~/.local/share/deja/memory.db)
  --format tool-log  The input format (required; the only one so far)
  --thread ID        Thread for lines that name none (default: the file name)
  --namespace NS     Namespace (default "default")
  --actor LABEL      Actor stamped on the events (default agent:import)
  --json             Print the counts as JSON

Example:
  deja import --format tool-log support-agent.jsonl && deja loop run`,
  permissions: { read: true, write: true, env: true },
  options: {
    ...DB_OPTION,
    format: { type: "string" },
    thread: { type: "string" },
    namespace: { type: "string" },
    actor: { type: "string" },
    json: { type: "boolean" },
  },
  async run(args, io) {
    const format = stringFlag(args, "format");
    if (!format) {
      throw new UsageError(`--format is required: ${FORMATS.join(", ")}`);
    }
    if (!FORMATS.includes(format)) {
      throw new UsageError(
        `Unknown --format "${format}": use ${FORMATS.join(", ")}`,
      );
    }
    if (args.positionals.length === 0) {
      throw new UsageError("Name at least one file to import");
    }
    const json = boolFlag(args, "json");
    // Every file is checked before the memory file is opened: a typo neither
    // creates a memory file nor stops the import halfway through the list.
    const paths = args.positionals.map((file) =>
      file === STDIN || isAbsolute(file) ? file : resolve(io.cwd, file)
    );
    if (paths.filter((p) => p === STDIN).length > 1) {
      throw new UsageError(`Name standard input ("-") once`);
    }
    for (const path of paths) if (path !== STDIN) readableFile(path);
    const store = openStore(args, io);
    const reports = [];
    try {
      for (const path of paths) {
        const options: ImportToolLogOptions = {
          thread: stringFlag(args, "thread") ??
            (path === STDIN ? "stdin" : basename(path).replace(
              /\.(jsonl|json|ndjson|log)(\.zst)?$/,
              "",
            )),
        };
        const ns = stringFlag(args, "namespace");
        if (ns) options.namespace = ns;
        const actor = stringFlag(args, "actor");
        if (actor) options.actor = actor;
        const lines = path === STDIN
          ? stdinTexts(io.stdin ?? new Blob([]).stream())
          : texts(path);
        const report = await importToolLog(store, lines, options);
        reports.push({ file: path, ...report });
        if (!json) {
          io.stdout.write(
            `${path === STDIN ? "standard input" : path}: ${
              plural(report.calls, "tool call")
            } (${report.errors} failed) — ${report.stored} stored, ${report.duplicates} already imported, ${
              plural(report.skipped, "line")
            } skipped\n`,
          );
        }
      }
    } finally {
      store.close();
    }
    if (json) printJson(io, reports);
    return EXIT.ok;
  },
};
