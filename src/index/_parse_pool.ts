/**
 * Where files are parsed: in this thread, or on one worker while this thread
 * only writes. On a 240 MB cold pass the worker is ~1.5× faster, but a second
 * V8 heap with Deno's default young generation takes peak memory past the 300
 * MB budget; with `--v8-flags=--max-semi-space-size=8` both stay under it
 * (docs/benchmarks.md). So the worker is the default where that flag is
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

/** Planned input after which the parse worker starts. */
const WORKER_FROM_BYTES = 8 * 1024 * 1024;

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
  #pending = new Map<
    number,
    {
      job: PoolJob;
      redactOn: boolean;
      resolve: (parsed: Promise<ParsedFile | Error>) => void;
    }
  >();
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
    this.#worker.postMessage({ load: module });
  }

  #onWorker(job: PoolJob, redactOn: boolean): Promise<ParsedFile | Error> {
    const id = this.#next++;
    return new Promise((resolve) => {
      this.#pending.set(id, { job, redactOn, resolve });
      this.#worker?.postMessage({
        id,
        harness: job.harness.id,
        kind: job.kind.id,
        path: job.path,
        options: job.options,
        redact: redactOn,
      });
    });
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
