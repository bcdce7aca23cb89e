/**
 * A read-only view of the memory file narrowed to some namespaces, for an
 * analyzer whose config lists `namespaces`. Only the grain scans are
 * narrowed; recommendations, telemetry and lookups by hash pass through.
 *
 * @module
 */
import type { MemoryReader } from "../memory/mod.ts";
import type { Grain, GrainType, StoredGrain } from "../memory/types.ts";

/**
 * Wraps a reader so `byType` and `forks` only see the given namespaces.
 *
 * @param store The full reader.
 * @param namespaces Namespaces to keep; empty keeps everything.
 * @returns The narrowed reader.
 */
export function scopedReader(
  store: MemoryReader,
  namespaces: readonly string[],
): MemoryReader {
  if (namespaces.length === 0) return store;
  const keep = new Set(namespaces);
  const byType = <T extends GrainType>(
    type: T,
    options: Parameters<MemoryReader["byType"]>[1] = {},
  ): StoredGrain<Extract<Grain, { type: T }>>[] => {
    if (options.namespace !== undefined) {
      return keep.has(options.namespace) ? store.byType(type, options) : [];
    }
    return store.byType(type, options).filter((s) =>
      keep.has(s.grain.namespace)
    );
  };
  const forks = (options: { namespace?: string } = {}) => {
    if (options.namespace !== undefined) {
      return keep.has(options.namespace) ? store.forks(options) : [];
    }
    return store.forks().filter((f) =>
      keep.has(store.get(f.parent)?.grain.namespace ?? "")
    );
  };
  // A proxy, not a prototype copy: the store keeps #private state that only
  // the real instance can reach.
  return new Proxy(store, {
    get(target, prop) {
      if (prop === "byType") return byType;
      if (prop === "forks") return forks;
      const v = Reflect.get(target, prop, target);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
}
