/**
 * The two stores the server reads, opened lazily and kept open: the
 * transcript index (always read-only) and the memory file (read-only unless
 * the server holds a token). A missing file is not an error — the console
 * renders empty states that teach the command creating it — and a file
 * created after start is picked up on the next request.
 *
 * @module
 */
import type { Database } from "../core/_sqlite.ts";
import { DejaError } from "../core/errors.ts";
import { openIndex } from "../index/mod.ts";
import { type MemoryStore, openMemory } from "../memory/mod.ts";

function identity(path: string): string | undefined {
  try {
    const st = Deno.statSync(path);
    return `${st.dev}:${st.ino}`;
  } catch {
    return undefined;
  }
}

/** Options for {@linkcode Stores}. */
export interface StoresOptions {
  /** Transcript index path. */
  indexPath: string;
  /** Memory file path. */
  memoryPath: string;
  /** Open the memory file writable (token mode). */
  writable: boolean;
  /** Clock for the memory store, epoch ms. */
  now: () => number;
}

/** Lazily opened stores. */
export class Stores {
  #opts: StoresOptions;
  #index: { db: Database; id: string } | undefined;
  #memory: { store: MemoryStore; id: string } | undefined;

  /** @param opts Paths, mode and clock. */
  constructor(opts: StoresOptions) {
    this.#opts = opts;
  }

  /** Paths and mode. */
  get options(): Readonly<StoresOptions> {
    return this.#opts;
  }

  /** @returns The open index, or undefined when none exists yet. */
  index(): Database | undefined {
    const id = identity(this.#opts.indexPath);
    if (this.#index && this.#index.id !== id) {
      this.#index.db.close();
      this.#index = undefined;
    }
    if (!this.#index && id !== undefined) {
      this.#index = {
        db: openIndex(this.#opts.indexPath, { readOnly: true }),
        id,
      };
    }
    return this.#index?.db;
  }

  /** @returns The open memory file, or undefined when none exists yet. */
  memory(): MemoryStore | undefined {
    const id = identity(this.#opts.memoryPath);
    if (this.#memory && this.#memory.id !== id) {
      this.#memory.store.close();
      this.#memory = undefined;
    }
    if (!this.#memory && id !== undefined) {
      const store = openMemory(this.#opts.memoryPath, {
        readOnly: !this.#opts.writable,
        now: this.#opts.now,
      });
      this.#memory = { store, id };
    }
    return this.#memory?.store;
  }

  /**
   * @returns The index.
   * @throws {DejaError} SRV-E005 with the command that builds it.
   */
  requireIndex(): Database {
    const db = this.index();
    if (!db) {
      throw new DejaError(
        "SRV-E005",
        `No transcript index at "${this.#opts.indexPath}"`,
        {
          detail: { hint: "Run: deja index" },
        },
      );
    }
    return db;
  }

  /**
   * @returns The memory file.
   * @throws {DejaError} SRV-E005 with the command that creates it.
   */
  requireMemory(): MemoryStore {
    const store = this.memory();
    if (!store) {
      throw new DejaError(
        "SRV-E005",
        `No memory file at "${this.#opts.memoryPath}"`,
        {
          detail: {
            hint:
              `Run: deja init --db ${this.#opts.memoryPath} --template coding-agent`,
          },
        },
      );
    }
    return store;
  }

  /** Closes both stores. */
  close(): void {
    this.#index?.db.close();
    this.#memory?.store.close();
    this.#index = undefined;
    this.#memory = undefined;
  }
}
