/**
 * Tool calls and their results as the loop learns them from transcripts:
 * each command record with its exit code and the tool output that followed.
 *
 * @module
 */
import { FLAG, openIndex } from "./schema.ts";
import { decodeBodySync as decodeBody } from "./_body.ts";

/** One command an agent ran, with how it ended. */
export interface ToolEvent {
  /** Stable key `harness:session:seq`; the same record always gives the same key. */
  key: string;
  /** Harness id. */
  harness: string;
  /** Session id. */
  sessionId: string;
  /** Project name. */
  project: string;
  /** The command record's seq. */
  seq: number;
  /** When it ran (ms), if known. */
  time?: number;
  /** Tool name, e.g. "Bash" or "shell". */
  tool?: string;
  /** The command line. */
  command: string;
  /** Exit code, if the harness reported one. */
  exitCode?: number;
  /** Failed: a non-zero exit or an error-flagged result. */
  isError: boolean;
  /** The first 2 KiB of the output that followed, if any. */
  output?: string;
}

/** Options for {@linkcode toolEvents}. */
export interface ToolEventsOptions {
  /** Only commands at or after this time (ms). */
  since?: number;
}

interface Row {
  session: number;
  seq: number;
  time: number | null;
  tool: string | null;
  exit_code: number | null;
  flags: number;
  body: Uint8Array | string;
  harness: string;
  id: string;
  project: string;
  out_flags: number | null;
  out_body: Uint8Array | string | null;
}

/**
 * Iterates every command record in the index with its result.
 *
 * @param indexPath The index path.
 * @param options Time filter.
 * @returns Tool events in session order.
 */
export function* toolEvents(
  indexPath: string,
  options: ToolEventsOptions = {},
): Generator<ToolEvent> {
  const db = openIndex(indexPath, { readOnly: true });
  try {
    const stmt = db.prepare(
      `SELECT r.session, r.seq, r.time, r.tool, r.exit_code, r.flags, r.body,
              s.harness, s.id, s.project,
              o.flags AS out_flags, o.body AS out_body
       FROM records r JOIN sessions s ON s.rowid = r.session
       LEFT JOIN records o ON o.rowid = (
         SELECT rowid FROM records WHERE session = r.session AND seq > r.seq
         AND role = 'tool-output' AND seq <= r.seq + 3 ORDER BY seq LIMIT 1)
       WHERE r.role = 'command' AND COALESCE(r.time, 0) >= ?
       ORDER BY r.session, r.seq`,
    );
    for (const row of stmt.iterate(options.since ?? 0) as Iterable<Row>) {
      const outError = row.out_flags !== null &&
        (row.out_flags & FLAG.isError) !== 0;
      const event: ToolEvent = {
        key: `${row.harness}:${row.id}:${row.seq}`,
        harness: row.harness,
        sessionId: row.id,
        project: row.project,
        seq: row.seq,
        command: decodeBody(row.body, (row.flags & FLAG.compressed) !== 0),
        isError: (row.exit_code ?? 0) !== 0 || outError,
      };
      if (row.time !== null) event.time = row.time;
      if (row.tool !== null) event.tool = row.tool;
      if (row.exit_code !== null) event.exitCode = row.exit_code;
      if (row.out_body !== null && row.out_flags !== null) {
        event.output = decodeBody(
          row.out_body,
          (row.out_flags & FLAG.compressed) !== 0,
        )
          .slice(0, 2048);
      }
      yield event;
    }
  } finally {
    db.close();
  }
}
