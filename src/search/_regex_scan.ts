/**
 * The `--re` scan: a person's regular expression run over record texts on
 * a worker thread, so a pattern that backtracks without end (`(a+)+$` on
 * `aaaa…b`) cannot hang the search. One `RegExp.exec` cannot be stopped
 * from the thread running it; the worker can be terminated.
 *
 * @module
 */
import { DejaError } from "../core/errors.ts";

/** A matching record's snippet: a window round its first match, marked. */
export interface RegexSnippet {
  /** About 240 characters round the first match, blanks folded. */
  text: string;
  /** Match ranges in `text`. */
  ranges: Array<[number, number]>;
}

/** How long one batch of records may take before the scan is stopped. */
export const REGEX_BUDGET_MS = 5_000;

/** Records, and characters, sent to the worker at a time. */
export const REGEX_BATCH = { records: 256, chars: 1 << 20 } as const;

function ranges(re: RegExp, text: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const hit of text.matchAll(new RegExp(re.source, "gi"))) {
    if (hit[0].length === 0 || out.length >= 200) break;
    out.push([hit.index, hit.index + hit[0].length]);
  }
  return out;
}

/**
 * The snippet of a text the pattern matches (undefined when it does not).
 *
 * @param re The pattern (case-insensitive).
 * @param text A record's text.
 * @returns The window round the first match and its ranges.
 * @example
 * ```ts
 * import { regexSnippet } from "./_regex_scan.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(regexSnippet(/port \d+/i, "it binds\nport 8080"), {
 *   text: "it binds port 8080",
 *   ranges: [[9, 18]],
 * });
 * ```
 */
export function regexSnippet(
  re: RegExp,
  text: string,
): RegexSnippet | undefined {
  if (!re.test(text)) return undefined;
  const first = ranges(re, text)[0]?.[0] ?? 0;
  const start = Math.max(0, first - 70);
  const end = Math.min(text.length, start + 240);
  const window = (start > 0 ? "…" : "") +
    text.slice(start, end).replace(/\s+/g, " ") +
    (end < text.length ? "…" : "");
  return { text: window, ranges: ranges(re, window) };
}

/**
 * Runs one pattern over batches of texts on a worker, each batch within a
 * time budget. Close it when done.
 */
export class RegexScanner {
  #pattern: string;
  #budgetMs: number;
  #worker: Worker | undefined;
  #ready: Promise<void> | undefined;
  /** Texts scanned so far (the batches answered). */
  scanned = 0;

  /**
   * @param pattern The regular expression (compiled case-insensitive).
   * @param budgetMs How long one batch may take.
   */
  constructor(pattern: string, budgetMs: number = REGEX_BUDGET_MS) {
    this.#pattern = pattern;
    this.#budgetMs = budgetMs;
    // Started now, the worker loads while the first records are read.
    this.#start();
  }

  #start(): { worker: Worker; ready: Promise<void> } {
    if (this.#worker && this.#ready) {
      return { worker: this.#worker, ready: this.#ready };
    }
    const worker = new Worker(new URL("./regex_worker.ts", import.meta.url), {
      type: "module",
    });
    // Loading the worker is not the pattern's time: the budget starts once
    // it says it is ready.
    const ready = new Promise<void>((resolve, reject) => {
      worker.onmessage = () => resolve();
      worker.onerror = (e) => {
        e.preventDefault();
        reject(new Error(e.message));
      };
    });
    // Awaited by the first scan; a search with no record to scan never
    // does, and a worker that failed to load is then no unhandled error.
    ready.catch(() => {});
    this.#worker = worker;
    this.#ready = ready;
    return { worker, ready };
  }

  /**
   * Scans a batch of texts.
   *
   * @param texts Record texts.
   * @returns Each text's snippet, or null where the pattern does not match.
   * @throws {DejaError} `QRY-E006` when the batch takes longer than the
   *   budget (the worker is stopped).
   */
  async scan(texts: readonly string[]): Promise<Array<RegexSnippet | null>> {
    const { worker, ready } = this.#start();
    await ready;
    const answer = await new Promise<Array<RegexSnippet | null>>(
      (resolve, reject) => {
        const timer = setTimeout(() => {
          this.close();
          reject(
            new DejaError(
              "QRY-E006",
              `The regular expression "${this.#pattern}" was stopped: it ran over ${
                this.#budgetMs / 1000
              } s on records ${this.scanned + 1}–${
                this.scanned + texts.length
              } (${this.scanned} scanned in full before them), backtracking without end on some text (nested repeats such as (a+)+ do that); make it more specific`,
            ),
          );
        }, this.#budgetMs);
        worker.onmessage = (e: MessageEvent) => {
          clearTimeout(timer);
          resolve(e.data as Array<RegexSnippet | null>);
        };
        worker.onerror = (e) => {
          clearTimeout(timer);
          e.preventDefault();
          reject(new Error(e.message));
        };
        worker.postMessage({ pattern: this.#pattern, texts });
      },
    );
    this.scanned += texts.length;
    return answer;
  }

  /** Stops the worker. */
  close(): void {
    this.#worker?.terminate();
    this.#worker = undefined;
    this.#ready = undefined;
  }
}
