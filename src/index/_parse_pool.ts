/**
 * Where files are parsed: in this thread, or on one worker while this thread
 * writes — and parses the files the worker has not started whenever it
 * would otherwise wait for one (`result`). On a 240 MB cold pass the worker is ~1.5× faster, but a second
 * V8 heap with Deno's default young generation takes peak memory past the 300
 * MB budget; with a small one (`--v8-flags=--max-semi-space-size=4`, the
 * `deja` task's) both stay under it (docs/decisions.md). So the worker is the default where that flag is
 * known to be set — the compiled binary and `deno task deja` — and opt-in
 * (`DEJA_INDEX_WORKERS=1`) under a plain `deno run`. Either way it starts only
 * after {@linkcode WORKER_FROM_BYTES} of planned input, since starting it
 * costs more than a small incremental pass.
 *
 * @module
 */
import type { FileKind, Harness, ParseOptions } from "../core/harness.ts";
import { messageOf } from "../core/errors.ts";
import { type ParsedFile, parseFile } from "./_prepare.ts";
import { feedingWorker } from "../core/lines.ts";

/** Planned input after which the parse worker starts. */
const WORKER_FROM_BYTES = 8 * 1024 * 1024;

/**
 * Claim slots shared with the worker, one per file sent (by message id,
 * wrapping). Whichever thread claims a file's slot first parses it: the
 * worker as it comes to the file, this thread when it would otherwise wait.
 * Far more than can be in flight: the writer holds at most `WORKER_AHEAD`
 * files (index_stores.ts), and a file taken back cannot be sent again.
 */
const CLAIM_SLOTS = 4096;

/**
 * Claims a sent file for the worker or for the writer's thread.
 *
 * @param claims The slots shared with the worker.
 * @param id The file's message id.
 * @param by Who parses it.
 * @returns Whether the claim was won (the other thread did not claim first).
 */
export function claim(
  claims: Int32Array,
  id: number,
  by: "worker" | "writer",
): boolean {
  return Atomics.compareExchange(
    claims,
    id % claims.length,
    0,
    by === "worker" ? 1 : 2,
  ) === 0;
}

/**
 * The order in which the writer's thread tries to take back files the
 * worker has not delivered: the one it waits for, then the rest as sent.
 * The oldest is written soonest, so what this thread parses ahead is held
 * briefly; taking the newest (as before the twenty-eighth session) held it
 * until every file before it was written, and left the worker's queue
 * empty sooner (docs/decisions.md, "Parse worker").
 *
 * @param pending The ids of the files sent and not delivered, in the order sent.
 * @param awaited The id of the file the writer waits for.
 * @returns The ids to try, in order.
 * @example
 * ```ts
 * import { takeBackOrder } from "./_parse_pool.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(takeBackOrder([4, 5, 6, 7], 5), [5, 4, 6, 7]);
 * ```
 */
export function takeBackOrder(
  pending: readonly number[],
  awaited: number,
): number[] {
  return [awaited, ...pending.filter((id) => id !== awaited)];
}

/** A file sent to the worker. */
interface Sent {
  job: PoolJob;
  redactOn: boolean;
  resolve: (parsed: Promise<ParsedFile | Error>) => void;
  /** The promise {@linkcode ParsePool.parse} returned for it. */
  parsed: Promise<ParsedFile | Error>;
}

/** What the pool needs of a planned file. */
export interface PoolJob {
  /** The file. */
  path: string;
  /** Its harness. */
  harness: Harness;
  /** Its kind. */
  kind: FileKind;
  /** Planned bytes to read. */
  size: number;
  /** Parse options (JSON-serialisable). */
  options: ParseOptions;
}

/** Parses files in this thread or on a worker. */
export class ParsePool {
  #module: string | undefined;
  #eligible: Set<Harness>;
  #worker: Worker | undefined;
  #workerUrl: URL;
  /** The worker has loaded the parsers. */
  #ready = false;
  #readyWaiters: Array<() => void> = [];
  /** The worker failed as a whole: the rest of the pass parses here. */
  #broken = false;
  /** Files sent to the worker and not delivered or taken back, by id. */
  #pending = new Map<number, Sent>();
  #claims = new Int32Array(new SharedArrayBuffer(4 * CLAIM_SLOTS));
  #next = 0;
  #planned = 0;
  #threshold: number;

  private constructor(
    module: string | undefined,
    eligible: Set<Harness>,
    threshold: number,
    workerUrl: URL,
  ) {
    this.#module = module;
    this.#eligible = eligible;
    this.#threshold = threshold;
    this.#workerUrl = workerUrl;
  }

  /**
   * Creates a pool. A worker is used only with a parser module, and when
   * `DEJA_INDEX_WORKERS` is `1` (or `force`, from the first file: tests), or
   * unset in the compiled binary.
   *
   * @param options `parserModule`, the source environment, whether this is
   * the compiled binary (default `Deno.build.standalone`) and, for tests,
   * the worker's script.
   * @returns The pool.
   */
  static async create(
    options: {
      parserModule?: string;
      source: { env: Record<string, string | undefined> };
      standalone?: boolean;
      workerUrl?: URL;
    },
  ): Promise<ParsePool> {
    const setting = options.source.env.DEJA_INDEX_WORKERS ??
      ((options.standalone ?? Deno.build.standalone) ? "1" : "0");
    const module = setting === "1" || setting === "force"
      ? options.parserModule
      : undefined;
    const eligible = new Set<Harness>();
    if (module) {
      for (const h of (await import(module)).HARNESSES as Harness[]) {
        eligible.add(h);
      }
    }
    return new ParsePool(
      module,
      eligible,
      setting === "force" ? 0 : WORKER_FROM_BYTES,
      options.workerUrl ?? new URL("./parse_worker.ts", import.meta.url),
    );
  }

  /**
   * Parses and prepares a file.
   *
   * @param job The planned file.
   * @param redactOn Whether to redact.
   * @returns The prepared file, or the error that stopped it.
   */
  parse(job: PoolJob, redactOn: boolean): Promise<ParsedFile | Error> {
    this.#planned += job.size;
    if (
      this.#module && !this.#broken && this.#eligible.has(job.harness) &&
      (this.#worker || this.#planned >= this.#threshold)
    ) {
      this.#start(this.#module);
      // Until the worker has loaded the parsers, this thread keeps parsing:
      // waiting for it cost a second of a 240 MB pass. (Tests force every
      // file onto the worker; it takes them once loaded.)
      if (this.#ready || this.#threshold === 0) {
        return this.#onWorker(job, redactOn);
      }
    }
    return inThread(job, redactOn);
  }

  #start(module: string): void {
    if (this.#worker) return;
    this.#worker = new Worker(this.#workerUrl, { type: "module" });
    feedingWorker(true);
    this.#worker.onmessage = (e: MessageEvent) => {
      const { id, parsed, error, ready } = e.data as {
        id: number;
        parsed?: ParsedFile;
        error?: string;
        ready?: boolean;
      };
      if (ready) {
        this.#ready = true;
        for (const wake of this.#readyWaiters.splice(0)) wake();
        return;
      }
      const pending = this.#pending.get(id);
      this.#pending.delete(id);
      pending?.resolve(
        Promise.resolve(
          parsed ?? new Error(error ?? "The parse worker failed"),
        ),
      );
    };
    // A worker that cannot run at all (a packaging fault, a crash) costs
    // speed, not files: what it held and all that follows parse here.
    this.#worker.onerror = (e: ErrorEvent) => {
      e.preventDefault();
      this.#broken = true;
      this.close();
      for (const { job, redactOn, resolve } of this.#pending.values()) {
        resolve(inThread(job, redactOn));
      }
      this.#pending.clear();
      for (const wake of this.#readyWaiters.splice(0)) wake();
    };
    this.#worker.postMessage({ load: module, claims: this.#claims });
  }

  #onWorker(job: PoolJob, redactOn: boolean): Promise<ParsedFile | Error> {
    const id = this.#next++;
    Atomics.store(this.#claims, id % CLAIM_SLOTS, 0);
    let resolve!: Sent["resolve"];
    const parsed = new Promise<ParsedFile | Error>((r) => resolve = r);
    this.#pending.set(id, { job, redactOn, resolve, parsed });
    this.#worker?.postMessage({
      id,
      harness: job.harness.id,
      kind: job.kind.id,
      path: job.path,
      options: job.options,
      redact: redactOn,
    });
    return parsed;
  }

  /**
   * Waits for a file's result. While the worker has not delivered it, this
   * thread takes back a file the worker has not started — the awaited one,
   * else the oldest (see {@linkcode takeBackOrder}) — and parses it itself
   * rather than sit idle.
   *
   * @param parsed What {@linkcode ParsePool.parse} returned.
   * @returns The prepared file, or the error that stopped it.
   */
  async result(
    parsed: Promise<ParsedFile | Error>,
  ): Promise<ParsedFile | Error> {
    while (true) {
      const sent = [...this.#pending];
      const own = sent.find(([, s]) => s.parsed === parsed);
      if (!own) return await parsed;
      const id = takeBackOrder(sent.map(([id]) => id), own[0]).find((id) =>
        claim(this.#claims, id, "writer")
      );
      if (id === undefined) return await parsed;
      const { job, redactOn, resolve } = this.#pending.get(id)!;
      this.#pending.delete(id);
      const here = inThread(job, redactOn);
      resolve(here);
      await here;
    }
  }

  /**
   * Waits for a started worker to load the parsers (at once when none was
   * started).
   *
   * @returns Whether files now go to the worker.
   */
  async settled(): Promise<boolean> {
    if (this.#worker && !this.#ready && !this.#broken) {
      await new Promise<void>((wake) => this.#readyWaiters.push(wake));
    }
    return this.onWorker;
  }

  /** Whether files are being parsed on the worker. */
  get onWorker(): boolean {
    return (this.#ready || (this.#threshold === 0 && !!this.#worker)) &&
      !this.#broken;
  }

  /** Stops the worker, if one started. */
  close(): void {
    if (this.#worker) feedingWorker(false);
    this.#worker?.terminate();
    this.#worker = undefined;
    this.#ready = false;
  }
}

/** Parses a file in this thread; a failure is returned, not thrown. */
function inThread(
  job: PoolJob,
  redactOn: boolean,
): Promise<ParsedFile | Error> {
  return parseFile(job.kind, job.path, job.options, redactOn).catch((err) =>
    err instanceof Error ? err : new Error(messageOf(err))
  );
}
