/**
 * Incremental indexing of every harness's transcripts into one SQLite index.
 * Unchanged files cost one stat; append-only files resume from their last
 * safe offset while the bytes before it are unchanged; anything else
 * replaces that file's sessions. Text is redacted before it is written.
 *
 * @module
 */
import { dirname } from "../core/paths.ts";
import {
  assertWritable,
  type Database,
  isDamagedDatabase,
} from "../core/_sqlite.ts";
import { DejaError, messageOf } from "../core/errors.ts";
import {
  type FileKind,
  type Harness,
  type ParseOptions,
  type ParseResult,
  type SourceEnv,
  takeUnreadableDirs,
} from "../core/harness.ts";
import { fingerprint } from "../core/hash.ts";
import { isZstdPath, readLines } from "../core/lines.ts";
import type { ParsedFile, PreparedSession } from "./_prepare.ts";
import { ParsePool } from "./_parse_pool.ts";
import { isPlainKey, redact, REDACTION_REVISION } from "../redact/mod.ts";
import { pendingPassSince } from "./pending_pass.ts";
import {
  FILES_CHECK_SQL,
  ftsTableFor,
  openIndex,
  recordRowid,
  resetIndexData,
  SETTLED_AFTER_MS,
} from "./schema.ts";
import { hasVocabulary, refreshVocabulary } from "./vocabulary.ts";

/** A progress event, emitted as files are read. */
export interface IndexProgress {
  /** Harness being read. */
  harness: string;
  /** Files looked at so far (all harnesses). */
  files: number;
  /** Files parsed (changed or new) so far. */
  parsed: number;
  /** Bytes parsed so far. */
  bytes: number;
  /** Sessions written so far. */
  sessions: number;
}

/** Options for {@linkcode indexStores}. */
export interface IndexOptions {
  /** Path of the index database. */
  indexPath: string;
  /**
   * Harnesses to read (the registry, minus exclusions, or the ones asked
   * for). Indexed files of other harnesses are left as they are, unless
   * their harness is in {@linkcode IndexOptions.forget}.
   */
  harnesses: readonly Harness[];
  /** Harness ids whose indexed files are dropped (the user excluded them). */
  forget?: readonly string[];
  /** HOME and environment the harnesses discover their stores in. */
  source: SourceEnv;
  /** Read sub-agent transcripts. Default true. */
  includeSubagents?: boolean;
  /** Redact secrets before writing. Default true; only DEJA_NO_REDACT=1 turns it off. */
  redact?: boolean;
  /** Progress callback. */
  onProgress?: (progress: IndexProgress) => void;
  /** Called once when the pass has to wait for another writer. */
  onWait?: () => void;
  /**
   * Called when the index file was no database (or a damaged one): it was
   * moved aside to the path given, and the pass rebuilds from nothing.
   */
  onReset?: (movedTo: string) => void;
  /**
   * The index met a damaged page after a pass (the pass compares files
   * through an index and reads few of its pages): move it aside once the
   * lock is held, and rebuild from nothing.
   */
  damaged?: boolean;
  /** How long to wait for another writer before giving up. Default 60 s. */
  lockWaitMs?: number;
  /** Clock. */
  now?: () => number;
  /**
   * URL of a module exporting `HARNESSES` (the registry). With it, a cold
   * pass parses on a worker while this thread writes; harnesses not in that
   * module are parsed here.
   */
  parserModule?: string;
  /**
   * Bytes of a plain append-only log read at a time when more than this is
   * left to read (default 4 MiB).
   */
  partBytes?: number;
  /**
   * Parsed bytes written per transaction before it commits (default 32
   * MiB): what a pass stopped half-way keeps.
   */
  batchBytes?: number;
}

/** Per-harness totals of one pass. */
export interface HarnessTotals {
  /** Files found. */
  files: number;
  /** Files parsed in this pass. */
  parsed: number;
  /** Bytes parsed in this pass. */
  bytes: number;
  /** Sessions written in this pass. */
  sessions: number;
  /** Records written in this pass. */
  records: number;
}

/** A store that could not be read. */
export interface IndexFailure {
  /** Harness id. */
  harness: string;
  /** File or store path. */
  path: string;
  /** What went wrong. */
  message: string;
  /** Stable error code (docs/errors.md): `SRC-E001` unless the parser said. */
  code: string;
}

/** What one indexing pass did. */
export interface IndexReport {
  /** Files found across all harnesses. */
  files: number;
  /** Files unchanged since the last pass (one stat each). */
  unchanged: number;
  /** Files read from their last safe offset. */
  appended: number;
  /** Files read whole (new or rewritten). */
  replaced: number;
  /** Files that disappeared; their sessions were removed. */
  removed: number;
  /** Bytes parsed. */
  bytes: number;
  /** Sessions written. */
  sessions: number;
  /** Records written. */
  records: number;
  /** Lines or entries skipped as malformed. */
  skipped: number;
  /** The files those were skipped in, with how many each. */
  skippedIn: Array<{ harness: string; path: string; skipped: number }>;
  /** Redactions by rule. */
  redactions: Record<string, number>;
  /** Totals per harness id. */
  harnesses: Record<string, HarnessTotals>;
  /** Stores that could not be read (the rest was indexed). */
  failures: IndexFailure[];
  /** Wall time of the pass. */
  durationMs: number;
}

interface FileRow {
  path: string;
  harness: string;
  kind: string;
  size: number;
  mtime: number;
  safe_offset: number;
  safe_line: number;
  prefix_hash: string;
  state: string | null;
  redactions: string;
  error: string | null;
}

/** What an unchanged pass needs of a known file. */
interface KnownFile {
  harness: string;
  size: number;
  mtime: number;
  /** The last read failed: read it again. */
  failed: boolean;
  /** Read it whole, whatever its prefix says (a setting changed). */
  whole?: boolean;
  /**
   * Its last read kept a tail back for records still to come, while the
   * file might still grow: read that tail again once it has settled.
   */
  tailWaits: boolean;
}

/** A known file's whole row, read only when the file changed. */
type PriorRow = (path: string) => FileRow | undefined;

const PREFIX_WINDOW = 4096;

/**
 * `<safe offset>:<hash>` of a file's first 4 KiB and the 4 KiB before its
 * safe offset, read synchronously (a few microseconds from the page cache;
 * asynchronous calls cost ~0.4 ms a file, seconds over thousands of small
 * files). Empty when the file cannot be read.
 */
function prefixHash(path: string, safeOffset: number): string {
  if (safeOffset <= 0) return "";
  try {
    using file = Deno.openSync(path, { read: true });
    const head = new Uint8Array(Math.min(PREFIX_WINDOW, safeOffset));
    readFull(file, head);
    const tailStart = Math.max(0, safeOffset - PREFIX_WINDOW);
    const tail = new Uint8Array(safeOffset - tailStart);
    file.seekSync(tailStart, Deno.SeekMode.Start);
    readFull(file, tail);
    const both = new Uint8Array(head.length + tail.length);
    both.set(head);
    both.set(tail, head.length);
    return `${safeOffset}:${fingerprint(both)}`;
  } catch {
    return "";
  }
}

function readFull(file: Deno.FsFile, buf: Uint8Array): void {
  let at = 0;
  while (at < buf.length) {
    const n = file.readSync(buf.subarray(at));
    if (n === null) break;
    at += n;
  }
}

async function acquireLock(
  indexPath: string,
  waitMs: number,
  onWait: (() => void) | undefined,
): Promise<Deno.FsFile> {
  let lock: Deno.FsFile;
  try {
    lock = await Deno.open(`${indexPath}.lock`, {
      create: true,
      write: true,
      read: true,
    });
  } catch (err) {
    if (
      err instanceof Deno.errors.PermissionDenied ||
      err instanceof Deno.errors.NotFound ||
      /read-only|os error (13|30)/i.test(String(err))
    ) {
      throw new DejaError(
        "IDX-E001",
        `Cannot write the index beside "${indexPath}" (${
          err instanceof Error ? err.message : String(err)
        }): point DEJA_INDEX at a writable file`,
        { cause: err },
      );
    }
    throw err;
  }
  const deadline = Date.now() + waitMs;
  let told = false;
  while (!(await lock.tryLock(true))) {
    if (!told) {
      onWait?.();
      told = true;
    }
    if (Date.now() > deadline) {
      lock.close();
      throw new DejaError(
        "IDX-E002",
        `Another deja index holds the lock on "${indexPath}": try again when it finishes`,
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return lock;
}

class Writer {
  #db: Database;
  #stmts;

  constructor(db: Database) {
    this.#db = db;
    this.#stmts = {
      findSession: db.prepare(
        "SELECT rowid, records FROM sessions WHERE harness = ? AND id = ? AND path = ?",
      ),
      insertSession: db.prepare(
        `INSERT INTO sessions (harness, id, path, kind, project, cwd, title, started, updated, parent, lineage)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      updateSession: db.prepare(
        `UPDATE sessions SET project = CASE WHEN ? != '' THEN ? ELSE project END,
           cwd = COALESCE(?, cwd),
           title = CASE WHEN ? AND ? IS NOT NULL THEN ? ELSE COALESCE(title, ?) END,
           started = MIN(COALESCE(started, ?), COALESCE(?, started)),
           updated = MAX(COALESCE(updated, ?), COALESCE(?, updated)),
           parent = COALESCE(?, parent), lineage = COALESCE(?, lineage)
         WHERE rowid = ?`,
      ),
      setExitCode: db.prepare(
        `UPDATE records SET exit_code = ? WHERE role = 'command' AND session =
           (SELECT rowid FROM sessions WHERE id = ? AND path = ?) AND seq = ?`,
      ),
      bumpCounts: db.prepare(
        "UPDATE sessions SET records = records + ?, user_turns = user_turns + ? WHERE rowid = ?",
      ),
      insertRecord: db.prepare(
        `INSERT INTO records (rowid, session, seq, role, time, flags, exit_code, tool, line, offset, record_id, body)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      insertSpeech: db.prepare(
        "INSERT INTO fts_speech (rowid, text) VALUES (?, ?)",
      ),
      insertWork: db.prepare(
        "INSERT INTO fts_work (rowid, text) VALUES (?, ?)",
      ),
      insertMark: db.prepare(
        "INSERT INTO marks (session, kind, from_seq, to_seq) VALUES (?, ?, ?, ?)",
      ),
      sessionsOfFile: db.prepare("SELECT rowid FROM sessions WHERE path = ?"),
      deleteSpeech: db.prepare(
        "DELETE FROM fts_speech WHERE rowid IN (SELECT rowid FROM records WHERE session = ? AND role IN ('user', 'assistant'))",
      ),
      deleteWork: db.prepare(
        "DELETE FROM fts_work WHERE rowid IN (SELECT rowid FROM records WHERE session = ? AND role NOT IN ('user', 'assistant'))",
      ),
      deleteRecords: db.prepare("DELETE FROM records WHERE session = ?"),
      deleteMarks: db.prepare("DELETE FROM marks WHERE session = ?"),
      deleteSession: db.prepare("DELETE FROM sessions WHERE rowid = ?"),
      upsertFile: db.prepare(
        `INSERT OR REPLACE INTO files (path, harness, kind, size, mtime, safe_offset, safe_line, prefix_hash, state, skipped, redactions, error, indexed_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      markFileError: db.prepare("UPDATE files SET error = ? WHERE path = ?"),
      insertFailedFile: db.prepare(
        `INSERT OR IGNORE INTO files (path, harness, kind, size, mtime, error, indexed_at)
         VALUES (?, ?, ?, -1, -1, ?, ?)`,
      ),
      deleteFile: db.prepare("DELETE FROM files WHERE path = ?"),
    };
  }

  deleteSessionsOfFile(path: string): void {
    const rows = this.#stmts.sessionsOfFile.all(path) as Array<
      { rowid: number }
    >;
    for (const { rowid } of rows) {
      this.#stmts.deleteSpeech.run(rowid);
      this.#stmts.deleteWork.run(rowid);
      this.#stmts.deleteRecords.run(rowid);
      this.#stmts.deleteMarks.run(rowid);
      this.#stmts.deleteSession.run(rowid);
    }
  }

  /** Sets the exit codes of commands an earlier pass wrote without one. */
  setExitCodes(path: string, codes: ParseResult["lateExitCodes"]): void {
    for (const c of codes ?? []) {
      this.#stmts.setExitCode.run(c.exitCode, c.session, path, c.seq);
    }
  }

  /**
   * Writes prepared sessions; returns the record count. A time later than
   * `latest` (a clock gone wrong, a corrupt line: "2099-…") is written as
   * none, so `deja last` does not list that session first for ever.
   */
  writeSessions(
    kind: string,
    sessions: readonly PreparedSession[],
    latest = Infinity,
  ): number {
    const when = (t: number | null) => t !== null && t > latest ? null : t;
    let written = 0;
    for (const s of sessions) {
      const started = when(s.started);
      const updated = when(s.updated);
      const found = this.#stmts.findSession.get(s.harness, s.id, s.path) as
        | { rowid: number; records: number }
        | undefined;
      let ordinal = found?.records ?? 0;
      let rowid: number;
      if (found) {
        rowid = found.rowid;
        this.#stmts.updateSession.run(
          s.project,
          s.project,
          s.cwd,
          // A title the harness stored replaces the first prompt's that an
          // earlier pass kept (a rename appended later); a derived one not.
          s.titleGiven ? 1 : 0,
          s.title,
          s.title,
          s.title,
          started,
          started,
          updated,
          updated,
          s.parent,
          s.lineage,
          rowid,
        );
      } else {
        const info = this.#stmts.insertSession.run(
          s.harness,
          s.id,
          s.path,
          kind,
          s.project,
          s.cwd,
          s.title,
          started,
          updated,
          s.parent,
          s.lineage,
        );
        rowid = Number(info.lastInsertRowid);
      }
      for (const r of s.records) {
        const recordId = recordRowid(rowid, ordinal++, r.role);
        this.#stmts.insertRecord.run(
          recordId,
          rowid,
          r.seq,
          r.role,
          when(r.time),
          r.flags,
          r.exitCode,
          r.tool,
          r.line,
          r.offset,
          r.recordId,
          r.body,
        );
        const post = ftsTableFor(r.role) === "fts_speech"
          ? this.#stmts.insertSpeech
          : this.#stmts.insertWork;
        post.run(recordId, r.posting);
      }
      for (const m of s.marks) {
        this.#stmts.insertMark.run(rowid, m.kind, m.from, m.to);
      }
      this.#stmts.bumpCounts.run(s.records.length, s.users, rowid);
      written += s.records.length;
    }
    return written;
  }

  saveFile(
    row: Omit<FileRow, "error" | "redactions">,
    skipped: number,
    redactions: Record<string, number>,
    now: number,
  ): void {
    this.#stmts.upsertFile.run(
      row.path,
      row.harness,
      row.kind,
      row.size,
      row.mtime,
      row.safe_offset,
      row.safe_line,
      row.prefix_hash,
      row.state,
      skipped,
      JSON.stringify(redactions),
      null,
      now,
    );
  }

  failFile(
    path: string,
    harness: string,
    kind: string,
    message: string,
    now: number,
  ): void {
    this.#stmts.insertFailedFile.run(path, harness, kind, message, now);
    this.#stmts.markFileError.run(message, path);
  }

  forgetFile(path: string): void {
    this.deleteSessionsOfFile(path);
    this.#stmts.deleteFile.run(path);
  }
}

/**
 * Groups many files' writes into one transaction. FTS5 flushes a segment at
 * every commit, so one commit per file cost a third of a cold pass; a batch
 * commits every {@linkcode BATCH_BYTES} (or the pass's `batchBytes`) of
 * parsed input and at the end.
 */
class Batch {
  #db: Database;
  #limit: number;
  #open = false;
  #bytes = 0;

  constructor(db: Database, limit: number) {
    this.#db = db;
    this.#limit = limit;
  }

  write<T>(bytes: number, fn: () => T): T {
    if (!this.#open) {
      this.#db.exec("BEGIN IMMEDIATE");
      this.#open = true;
    }
    const result = fn();
    this.#bytes += bytes;
    if (this.#bytes >= this.#limit) this.commit();
    return result;
  }

  commit(): void {
    if (this.#open) this.#db.exec("COMMIT");
    this.#open = false;
    this.#bytes = 0;
  }

  rollback(): void {
    if (this.#open) this.#db.exec("ROLLBACK");
    this.#open = false;
    this.#bytes = 0;
  }
}

const BATCH_BYTES = 32 * 1024 * 1024;
/**
 * How far past the pass's clock a transcript's time may lie before it is
 * taken for no time at all: a day covers clocks set to other zones and a
 * little skew between machines.
 */
const FUTURE_SLACK_MS = 24 * 3_600_000;
/** Files parsed ahead of the writer in this thread: more only adds memory. */
const PIPELINE_DEPTH = 2;

/**
 * How far the parse worker may run ahead of the writer. Two files ahead, it
 * sat idle for a third of a 240 MB cold pass, waiting for the writer to ask
 * for more (docs/benchmarks.md).
 */
const WORKER_AHEAD = { files: 16, bytes: 32 * 1024 * 1024 };

function addRedactions(
  into: Record<string, number>,
  from: Record<string, number>,
): void {
  for (const [rule, n] of Object.entries(from)) {
    into[rule] = (into[rule] ?? 0) + n;
  }
}

/**
 * Opens the index; one that is no database, or a damaged one, is a cache
 * deja can rebuild: it is moved aside (with its WAL and shared-memory
 * files, for a look later) and a new one is started. Only a writer holding
 * the lock does this.
 */
function openOrRebuild(
  path: string,
  onReset: ((movedTo: string) => void) | undefined,
): Database {
  try {
    return openIndex(path);
  } catch (err) {
    const damaged = isDamagedDatabase(err) ||
      (err instanceof DejaError &&
        /not a database|malformed|corrupt/i.test(err.message));
    if (!damaged) throw err;
    moveAside(path, onReset);
    return openIndex(path);
  }
}

/**
 * Moves a damaged index aside as `<path>.damaged-<ms>`, with its WAL and
 * shared-memory files, for a look later; the caller holds the lock.
 */
function moveAside(
  path: string,
  onReset: ((movedTo: string) => void) | undefined,
): void {
  const aside = `${path}.damaged-${Date.now()}`;
  for (const suffix of ["", "-wal", "-shm"]) {
    try {
      Deno.renameSync(`${path}${suffix}`, `${aside}${suffix}`);
    } catch {
      // Absent: nothing to move.
    }
  }
  onReset?.(aside);
}

/**
 * Checks the redaction rules an index was written under (meta
 * `redaction`): under other rules, what they let through may be in it, so
 * it is emptied with its freed pages overwritten (`resetIndexData`) and
 * this pass reads every file afresh. A new or current index only records
 * the revision; a pass with redaction off forgets it, so the next pass
 * with redaction on starts afresh too.
 */
function rulesRevision(db: Database, redactOn: boolean): void {
  if (!redactOn) {
    db.exec("DELETE FROM meta WHERE key = 'redaction'");
    return;
  }
  const row = db.prepare("SELECT value FROM meta WHERE key = 'redaction'")
    .get() as { value: string } | undefined;
  const current = String(REDACTION_REVISION);
  if (row?.value === current) return;
  if (db.prepare("SELECT 1 FROM files LIMIT 1").get()) resetIndexData(db);
  db.prepare("INSERT OR REPLACE INTO meta(key, value) VALUES ('redaction', ?)")
    .run(current);
}

/** Passes run again at most after one, for passes asked for meanwhile. */
const PENDING_ROUNDS = 2;

/**
 * Runs one indexing pass over every harness's stores. When a pass was asked
 * for while this one held the lock (`hook-session-end` marks
 * `<index>.pending` rather than start a pass that would wait), it reads
 * again once it is done — quietly, and not counted in the report — so an
 * ended session's last turns are never left for some later pass.
 *
 * @param options Index path, harnesses, environment and switches.
 * @returns What the pass did, including every store it could not read.
 */
export async function indexStores(options: IndexOptions): Promise<IndexReport> {
  // A damaged page met during the pass (past the ones opening reads) moved
  // the file aside: the pass runs again on a new one.
  const first = await onePass(options).catch((err) => {
    if (!isDamagedDatabase(err)) throw err;
    return onePass({ ...options, damaged: false });
  });
  const { onProgress: _progress, onWait: _wait, damaged: _d, ...quiet } =
    options;
  let lockedAt = first.lockedAt;
  for (
    let round = 0;
    round < PENDING_ROUNDS && pendingPassSince(options.indexPath, lockedAt);
    round++
  ) {
    try {
      lockedAt = (await onePass({ ...quiet, lockWaitMs: 0 })).lockedAt;
    } catch (err) {
      // Another pass took the lock after this one, so after the mark: it
      // reads what the mark asked for.
      if (err instanceof DejaError && err.code === "IDX-E002") break;
      throw err;
    }
  }
  return first.report;
}

/** One pass, and when it took the lock (wall clock, epoch ms). */
async function onePass(
  options: IndexOptions,
): Promise<{ report: IndexReport; lockedAt: number }> {
  const now = options.now ?? Date.now;
  const started = performance.now();
  try {
    await Deno.mkdir(dirname(options.indexPath), { recursive: true });
  } catch (err) {
    throw new DejaError(
      "IDX-E001",
      `Cannot make the folder "${dirname(options.indexPath)}" for the index (${
        messageOf(err)
      }): point DEJA_INDEX at a writable file`,
      { cause: err },
    );
  }
  const lock = await acquireLock(
    options.indexPath,
    options.lockWaitMs ?? 60_000,
    options.onWait,
  );
  const lockedAt = Date.now();
  if (options.damaged) moveAside(options.indexPath, options.onReset);
  try {
    assertWritable(
      options.indexPath,
      "IDX-E001",
      "the index",
      "point DEJA_INDEX at a writable file",
    );
  } catch (err) {
    lock.close();
    throw err;
  }
  const db = openOrRebuild(options.indexPath, options.onReset);
  try {
    rulesRevision(db, options.redact ?? true);
  } catch (err) {
    db.close();
    if (isDamagedDatabase(err)) moveAside(options.indexPath, options.onReset);
    lock.close();
    throw err;
  }
  const report: IndexReport = {
    files: 0,
    unchanged: 0,
    appended: 0,
    replaced: 0,
    removed: 0,
    bytes: 0,
    sessions: 0,
    records: 0,
    skipped: 0,
    skippedIn: [],
    redactions: {},
    harnesses: {},
    failures: [],
    durationMs: 0,
  };
  const batch = new Batch(db, options.batchBytes ?? BATCH_BYTES);
  const redactOn = options.redact ?? true;
  const pool = await ParsePool.create(options);
  const queue: Array<
    { job: FileJob; totals: HarnessTotals; parsed: Promise<ParsedFile | Error> }
  > = [];
  let queuedBytes = 0;
  const tooFarAhead = () =>
    pool.onWorker
      ? queue.length > WORKER_AHEAD.files || queuedBytes > WORKER_AHEAD.bytes
      : queue.length > PIPELINE_DEPTH;
  db.exec("PRAGMA cache_size = -16384");
  let damaged = false;
  try {
    // Its ~20 statements are compiled only when something is written: an
    // unchanged pass writes nothing.
    let writer: Writer | undefined;
    const writerOf = () => (writer ??= new Writer(db));
    // Files are parsed ahead (on the pool's worker when there is one) and
    // written in discovery order, so index writes stay deterministic.
    const drain = async () => {
      const next = queue.shift();
      if (!next) return;
      queuedBytes -= Math.min(next.job.size, PART_BYTES);
      // A huge log is read a part at a time: each part is written before
      // the next is parsed.
      let job: FileJob | undefined = next.job;
      let parsed = await pool.result(next.parsed);
      while (job) {
        job = await commitFile(
          job,
          parsed,
          writerOf(),
          batch,
          options,
          report,
          next.totals,
        );
        if (job) parsed = await pool.result(pool.parse(job, redactOn));
      }
    };
    // An unchanged pass compares every file with its row: one JSON string
    // of (path, size, mtime, failed, harness, tail waits) is read at C speed, where a row
    // object per file cost ~10 ms; a changed file's whole row is read on
    // demand.
    const known = new Map<string, KnownFile>();
    const listed = db.prepare(FILES_CHECK_SQL).get() as { rows: string };
    const rows = JSON.parse(listed.rows) as Array<
      [string, number, number, number, string, number]
    >;
    // Indexed, not destructured: in code V8 has not optimised yet, an array
    // pattern per row cost ~5 ms of a 1,300-file pass.
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]!;
      known.set(row[0], {
        harness: row[4],
        size: row[1],
        mtime: row[2],
        failed: row[3] === 1,
        tailWaits: row[5] === 1,
      });
    }
    const rowOf = db.prepare("SELECT * FROM files WHERE path = ?");
    const priorRow: PriorRow = (path) =>
      rowOf.get(path) as unknown as FileRow | undefined;
    // Sub-agent transcripts read (or skipped) under the other setting are
    // stale: a changed DEJA_INCLUDE_SUBAGENTS re-reads every store once.
    const subagents = String(options.includeSubagents ?? true);
    const lastSubagents = db.prepare(
      "SELECT value FROM meta WHERE key = 'include_subagents'",
    )
      .get() as { value: string } | undefined;
    if (lastSubagents && lastSubagents.value !== subagents) {
      for (const file of known.values()) file.whole = true;
    }
    // A harness whose parser changed since its files were read: read them
    // all again, as its new parser would.
    const parsers = parserRevisions(db, options.harnesses);
    // A first pass has nothing stale to re-read: what it settles is
    // written with its first batch, so a pass stopped half-way (Ctrl-C)
    // leaves the files it committed unchanged for the next one.
    if (known.size === 0) {
      batch.write(0, () => {
        const put = db.prepare(
          "INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)",
        );
        if (parsers.write) put.run("parsers", parsers.write);
        put.run("include_subagents", subagents);
      });
    }
    if (parsers.changed.size > 0) {
      for (const file of known.values()) {
        if (parsers.changed.has(file.harness)) file.whole = true;
      }
    }
    const seen = new Set<string>();
    const outOfReach: string[] = [];
    const progress = (harness: string) =>
      options.onProgress?.({
        harness,
        files: report.files,
        parsed: report.appended + report.replaced,
        bytes: report.bytes,
        sessions: report.sessions,
      });
    for (const harness of options.harnesses) {
      const totals: HarnessTotals = {
        files: 0,
        parsed: 0,
        bytes: 0,
        sessions: 0,
        records: 0,
      };
      report.harnesses[harness.id] = totals;
      try {
        takeUnreadableDirs();
        const discovered = await harness.discover(options.source);
        // A folder it could not read is named, and what the index holds
        // from under it stays (its files are out of reach, not gone).
        for (const [dir, message] of takeUnreadableDirs()) {
          outOfReach.push(`${dir}/`);
          report.failures.push({
            harness: harness.id,
            path: dir,
            message: `Cannot read folder: ${message}`,
            code: "SRC-E001",
          });
        }
        for (const path of discovered) {
          if (seen.has(path)) continue;
          const kind = harness.kinds.find((k) => k.match(path));
          if (!kind) continue;
          seen.add(path);
          report.files++;
          totals.files++;
          // Most files of a pass are unchanged: decide that without a
          // promise per file.
          const failures = report.failures.length;
          const stat = changedStat(
            path,
            harness,
            kind,
            known.get(path),
            report,
            now(),
          );
          // A file it could not even stat is named in the index too, so
          // `deja sources` shows the error (and the next pass retries it).
          const failure = report.failures[failures];
          if (!stat && failure) {
            batch.write(
              0,
              () =>
                writerOf().failFile(
                  path,
                  harness.id,
                  kind.id,
                  failure.message,
                  now(),
                ),
            );
          }
          const job = stat &&
            planFile(
              path,
              harness,
              kind,
              stat,
              known.get(path),
              priorRow,
              options,
            );
          if (job) {
            queue.push({ job, totals, parsed: pool.parse(job, redactOn) });
            queuedBytes += Math.min(job.size, PART_BYTES);
            while (tooFarAhead()) await drain();
          }
          if (report.files % 25 === 0) progress(harness.id);
        }
      } catch (err) {
        // The index itself is damaged: no store is to blame.
        if (isDamagedDatabase(err)) throw err;
        report.failures.push({
          harness: harness.id,
          path: harness.roots(options.source).join(", "),
          message: `Cannot list stores: ${messageOf(err)}`,
          code: codeOf(err),
        });
      }
      while (queue.length > 0) await drain();
      progress(harness.id);
    }
    // A file no longer found is dropped only when its harness was read (or
    // is to be forgotten): `--harness codex` leaves the others alone.
    const read = new Set(options.harnesses.map((h) => h.id));
    const forget = new Set(options.forget ?? []);
    const gone: string[] = [];
    known.forEach((file, path) => {
      if (seen.has(path)) return;
      if (outOfReach.some((dir) => path.startsWith(dir))) return;
      if (read.has(file.harness) || forget.has(file.harness)) gone.push(path);
    });
    for (const path of gone) {
      batch.write(0, () => writerOf().forgetFile(path));
      report.removed++;
    }
    // A first pass that found nothing still finished: say so, so a search
    // can tell "nothing found" from "not indexed yet".
    const firstPass = !db.prepare(
      "SELECT 1 FROM meta WHERE key = 'indexed_at'",
    ).get();
    if (report.replaced + report.appended + report.removed > 0 || firstPass) {
      batch.write(0, () =>
        db.exec(
          `UPDATE sessions SET hidden = CASE WHEN kind = 'history' AND EXISTS (
           SELECT 1 FROM sessions t WHERE t.harness = sessions.harness AND t.id = sessions.id AND t.kind != 'history'
         ) THEN 1 ELSE 0 END`,
        ));
      batch.write(
        0,
        () =>
          db.prepare(
            "INSERT OR REPLACE INTO meta(key, value) VALUES ('indexed_at', ?)",
          )
            .run(String(now())),
      );
    }
    // The fuzzy tier's term list, rebuilt once enough was written.
    if (report.records > 0 || report.removed > 0 || !hasVocabulary(db)) {
      batch.write(0, () => refreshVocabulary(db, report.records));
    }
    if (parsers.write) {
      batch.write(
        0,
        () =>
          db.prepare(
            "INSERT OR REPLACE INTO meta(key, value) VALUES ('parsers', ?)",
          ).run(parsers.write!),
      );
    }
    if (lastSubagents?.value !== subagents) {
      batch.write(
        0,
        () =>
          db.prepare(
            "INSERT OR REPLACE INTO meta(key, value) VALUES ('include_subagents', ?)",
          )
            .run(subagents),
      );
    }
    batch.commit();
  } catch (err) {
    damaged = isDamagedDatabase(err);
    try {
      batch.rollback();
    } catch (rollbackErr) {
      // A damaged file may refuse even that; it is moved aside below.
      if (!damaged) throw rollbackErr;
    }
    throw err;
  } finally {
    pool.close();
    db.close();
    if (damaged) moveAside(options.indexPath, options.onReset);
    lock.close();
  }
  report.durationMs = Math.round(performance.now() - started);
  return { report, lockedAt };
}

/**
 * Compares the parser revisions an index was written with (meta `parsers`)
 * with the harnesses about to be read: which changed, and the JSON to store
 * when anything differs (undefined when nothing does, so an unchanged pass
 * writes nothing).
 */
function parserRevisions(
  db: Database,
  harnesses: readonly Harness[],
): { changed: Set<string>; write: string | undefined } {
  const row = db.prepare("SELECT value FROM meta WHERE key = 'parsers'")
    .get() as { value: string } | undefined;
  let stored: Record<string, number> = {};
  try {
    stored = JSON.parse(row?.value ?? "{}");
  } catch {
    // Unreadable: rewritten from the revisions of the harnesses read.
  }
  const next = { ...stored };
  const changed = new Set<string>();
  for (const h of harnesses) {
    const revision = h.revision ?? 1;
    if ((stored[h.id] ?? 1) !== revision) changed.add(h.id);
    next[h.id] = revision;
  }
  const differs = changed.size > 0 ||
    harnesses.some((h) => stored[h.id] === undefined);
  return { changed, write: differs ? JSON.stringify(next) : undefined };
}

/** A file that needs reading, decided by its stat and prefix hash. */
interface FileJob {
  path: string;
  harness: Harness;
  kind: FileKind;
  prior: FileRow | undefined;
  size: number;
  mtime: number;
  resume: boolean;
  options: ParseOptions;
  /** A later part of a file read a part at a time (counted once). */
  continued?: boolean;
}

/**
 * Plain append-only logs with more than this left to read are read a part
 * of about this size at a time, so one huge transcript does not hold the
 * whole file in memory (docs/benchmarks.md).
 */
const PART_BYTES = 4 * 1024 * 1024;

/** A changed file's size (its -wal counted) and mtime. */
interface FileStat {
  size: number;
  mtime: number;
}

/**
 * Stats a file: undefined when it is unchanged since its row (counted) or
 * cannot be read (named as a failure), else its size and mtime.
 */
function changedStat(
  path: string,
  harness: Harness,
  kind: FileKind,
  known: KnownFile | undefined,
  report: IndexReport,
  now: number,
): FileStat | undefined {
  let stat: Deno.FileInfo;
  try {
    // Sync: an unchanged pass is a stat per file, and the async form's
    // promise round trip costs more than the stat itself.
    stat = Deno.statSync(path);
  } catch (err) {
    report.failures.push({
      harness: harness.id,
      path,
      message: messageOf(err),
      code: codeOf(err),
    });
    return undefined;
  }
  let size = stat.size;
  const mtime = stat.mtime?.getTime() ?? 0;
  if (!kind.appendOnly) {
    // A SQLite store's recent writes may sit only in its -wal file, which
    // leaves the main file's size and mtime alone: count the -wal's size.
    // Not its mtime: a reader (deja's own read-only open included) touches
    // an empty -wal without changing anything.
    try {
      size += Deno.statSync(`${path}-wal`).size;
    } catch {
      // No -wal beside the store: nothing pending.
    }
  }
  if (
    known && !known.failed && !known.whole && known.size === size &&
    known.mtime === mtime &&
    !(known.tailWaits && now - mtime >= SETTLED_AFTER_MS)
  ) {
    report.unchanged++;
    return undefined;
  }
  return { size, mtime };
}

/** Decides how to read a changed file: whole, or from its safe offset. */
function planFile(
  path: string,
  harness: Harness,
  kind: FileKind,
  { size, mtime }: FileStat,
  known: KnownFile | undefined,
  priorRow: PriorRow,
  options: IndexOptions,
): FileJob {
  const prior = known ? priorRow(path) : undefined;
  let resume = false;
  if (
    prior && !known?.whole && !prior.error && kind.appendOnly &&
    prior.kind === kind.id &&
    prior.safe_offset > 0 && size >= prior.safe_offset
  ) {
    resume = prefixHash(path, prior.safe_offset) ===
      prior.prefix_hash;
  }
  const parseOptions: ParseOptions = {
    includeSubagents: options.includeSubagents ?? true,
    source: options.source,
  };
  if ((options.now ?? Date.now)() - mtime >= SETTLED_AFTER_MS) {
    parseOptions.settled = true;
  }
  if (resume && prior) {
    parseOptions.offset = prior.safe_offset;
    parseOptions.firstLine = prior.safe_line;
    if (prior.state !== null) parseOptions.state = JSON.parse(prior.state);
  }
  const part = options.partBytes ?? PART_BYTES;
  if (
    kind.appendOnly && !isZstdPath(path) &&
    size - (parseOptions.offset ?? 0) > part
  ) {
    parseOptions.limitBytes = part;
  }
  return {
    path,
    harness,
    kind,
    prior,
    size,
    mtime,
    resume,
    options: parseOptions,
  };
}

/**
 * Writes a parsed file (or its failure) and counts it. Returns the job for
 * the file's next part when it was read only in part.
 */
async function commitFile(
  job: FileJob,
  parsed: ParsedFile | Error,
  writer: Writer,
  batch: Batch,
  options: IndexOptions,
  report: IndexReport,
  totals: HarnessTotals,
): Promise<FileJob | undefined> {
  const now = options.now ?? Date.now;
  const { path, harness, kind, prior, resume } = job;
  const failure = parsed instanceof Error
    ? { message: parsed.message, code: codeOf(parsed) }
    : await unreadable(parsed, job);
  if (parsed instanceof Error || failure) {
    const { message, code } = failure!;
    report.failures.push({ harness: harness.id, path, message, code });
    // What the index held of the file stays.
    batch.write(
      0,
      () => writer.failFile(path, harness.id, kind.id, message, now()),
    );
    return undefined;
  }
  const { result, sessions, redactions } = parsed;
  const start = job.options.offset ?? 0;
  const safeOffset = result.safeOffset ?? (kind.appendOnly ? 0 : job.size);
  const limited = job.options.limitBytes !== undefined;
  if (limited && safeOffset <= start && safeOffset < job.size) {
    // The part ended where it began (a record held back until its end
    // arrives): read the rest in one go.
    const { limitBytes: _, ...whole } = job.options;
    return { ...job, options: whole };
  }
  // A part's row records the bytes read so far as the file's size: should
  // the pass stop here, the next one resumes from the safe offset.
  const more = limited && safeOffset < job.size;
  const upTo = more ? safeOffset : job.size;
  const hash = kind.appendOnly ? prefixHash(path, safeOffset) : "";
  const parsedBytes = upTo - (resume ? start : 0);
  const counts = resume ? mergeCounts(prior, redactions) : redactions;
  const row: FileRow = {
    path,
    harness: harness.id,
    kind: kind.id,
    size: upTo,
    mtime: job.mtime,
    safe_offset: safeOffset,
    safe_line: result.safeLine ?? 1,
    prefix_hash: hash,
    // Parser state carries text across passes (a cwd, a title): redacted
    // as the sessions are, a value at a time, so a key that ends like a
    // credential word (a tool call id `toolu_…_pw`) cannot take its value
    // (the tool's name) for a password.
    state: result.state === undefined ? null : JSON.stringify(
      (options.redact ?? true) ? redactValues(result.state) : result.state,
    ),
    redactions: JSON.stringify(counts),
    error: null,
  };
  const records = batch.write(parsedBytes, () => {
    if (!resume) writer.deleteSessionsOfFile(path);
    const n = writer.writeSessions(kind.id, sessions, now() + FUTURE_SLACK_MS);
    if (resume) writer.setExitCodes(path, result.lateExitCodes);
    writer.saveFile(row, result.skipped, counts, now());
    return n;
  });
  if (!job.continued) {
    // A file whose stamp moved while the last pass read it, with nothing
    // past where that pass stopped, is unchanged.
    if (resume && parsedBytes === 0) report.unchanged++;
    else if (resume) report.appended++;
    else report.replaced++;
    totals.parsed++;
  }
  report.bytes += parsedBytes;
  // Prompt-history entries are not sessions of their own (they are hidden
  // when their transcript exists); count them apart, and a session read in
  // parts once.
  const counted = kind.id === "history" || job.continued ? 0 : sessions.length;
  report.sessions += counted;
  report.records += records;
  report.skipped += result.skipped;
  if (result.skipped > 0) {
    const seen = report.skippedIn.find((f) => f.path === path);
    if (seen) seen.skipped += result.skipped;
    else {
      report.skippedIn.push({
        harness: harness.id,
        path,
        skipped: result.skipped,
      });
    }
  }
  addRedactions(report.redactions, redactions);
  totals.bytes += parsedBytes;
  totals.sessions += counted;
  totals.records += records;
  if (!more) return undefined;
  const next: ParseOptions = {
    ...job.options,
    offset: safeOffset,
    firstLine: result.safeLine ?? 1,
  };
  delete next.state;
  if (result.state !== undefined) next.state = result.state;
  return { ...job, prior: row, resume: true, continued: true, options: next };
}

/** Every string in a JSON value, redacted; the shape and keys as they were. */
function redactValues(value: unknown): unknown {
  if (typeof value === "string") {
    // Parser states hold thousands of line keys: no rule could change them.
    return isPlainKey(value) ? value : redact(value, { kind: "output" }).text;
  }
  if (Array.isArray(value)) return value.map(redactValues);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, redactValues(v)]),
    );
  }
  return value;
}

/**
 * A whole file with lines and no session in them: not this harness's
 * format, or corrupt — named like a failure rather than passed over.
 */
async function unreadable(
  parsed: ParsedFile,
  job: FileJob,
): Promise<{ message: string; code: string } | undefined> {
  const skipped = parsed.result.skipped;
  if (job.resume || parsed.sessions.length > 0) return undefined;
  // Checked before the lines are: a file of NUL bytes alone may have no
  // line break, and its one line waits as a torn last line would, for ever.
  if (job.size > 0 && await onlyNulBytes(job.path)) {
    return {
      message:
        "No session could be read: the file holds only NUL bytes (its contents never reached the disk, as after a crash or power loss)",
      code: "SRC-E001",
    };
  }
  if (skipped === 0) return undefined;
  // A log whose first line is JSON holds lines of a shape this deja does
  // not know (a newer harness, a bookkeeping file): passed over, counted as
  // skipped. One whose first line is not JSON is not a log of this harness.
  if (job.kind.appendOnly && await firstLineIsJson(job.path)) return undefined;
  if (await isUtf16(job.path)) {
    return {
      message:
        "No session could be read: the file is UTF-16 text, and deja reads UTF-8 (an editor or a shell redirect may have converted it)",
      code: "SRC-E001",
    };
  }
  return {
    message: `No session could be read: ${skipped} ${
      skipped === 1 ? "line or entry" : "lines or entries"
    } malformed or of an unknown shape`,
    code: "SRC-E001",
  };
}

/**
 * Whether a file starts as UTF-16 text does: a UTF-16 byte-order mark, or
 * an ASCII character with a zero byte beside it.
 */
async function isUtf16(path: string): Promise<boolean> {
  try {
    using file = await Deno.open(path, { read: true });
    const head = new Uint8Array(2);
    if ((await file.read(head)) !== 2) return false;
    const [a, b] = head as unknown as [number, number];
    return (a === 0xff && b === 0xfe) || (a === 0xfe && b === 0xff) ||
      (a !== 0 && a < 0x80 && b === 0) || (a === 0 && b !== 0 && b < 0x80);
  } catch {
    return false;
  }
}

/** Bytes {@linkcode onlyNulBytes} reads of a file, at most. */
const NUL_CHECK_BYTES = 1 << 20;

/**
 * Whether a file's bytes (its first MiB) are NUL bytes and line breaks
 * only: space the file system gave a file whose writes were lost.
 */
async function onlyNulBytes(path: string): Promise<boolean> {
  try {
    using file = await Deno.open(path, { read: true });
    const head = new Uint8Array(NUL_CHECK_BYTES);
    let length = 0;
    while (length < head.length) {
      const n = await file.read(head.subarray(length));
      if (n === null) break;
      length += n;
    }
    if (length === 0) return false;
    let nul = false;
    for (let i = 0; i < length; i++) {
      const b = head[i]!;
      if (b === 0) nul = true;
      else if (b !== 0x0a && b !== 0x0d) return false;
    }
    return nul;
  } catch {
    return false;
  }
}

/** Whether a log's first non-blank line parses as JSON. */
async function firstLineIsJson(path: string): Promise<boolean> {
  try {
    for await (const line of readLines(path, { maxLineBytes: 1 << 20 })) {
      if (line.text.trim() === "") continue;
      JSON.parse(line.text);
      return true;
    }
  } catch {
    // Unparsable, or unreadable: not JSON.
  }
  return false;
}

/** The stable code of an error: its own, or SRC-E001 (cannot be read). */
function codeOf(err: unknown): string {
  return err instanceof DejaError ? err.code : "SRC-E001";
}

function mergeCounts(
  prior: FileRow | undefined,
  fresh: Record<string, number>,
): Record<string, number> {
  const merged: Record<string, number> = {};
  if (prior?.redactions) addRedactions(merged, JSON.parse(prior.redactions));
  addRedactions(merged, fresh);
  return merged;
}
