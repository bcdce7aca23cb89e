/**
 * The columns of a grain row that repeat fields of its hashed body, so
 * SQLite can filter on them. The store writes them from the grain and the
 * audit verification checks them against the body, so an edit to one is as
 * visible as an edit to the body.
 *
 * @module
 */
import type { Grain } from "./types.ts";

/** A grain row's columns derived from its body, as the store writes them. */
export interface GrainColumns {
  /** The grain's type. */
  type: string;
  /** The grain's namespace. */
  namespace: string;
  /** The grain's created_at. */
  created_at: number;
  /** The grain's actor. */
  actor: string;
  /** The grain it supersedes, or null. */
  supersedes: string | null;
  /** The grain's valid_to, or null. */
  valid_to: number | null;
  /** 1 or 0 for an event (failed or not), null for any other grain. */
  is_error: number | null;
  /** An event's source key, or null. */
  source: string | null;
}

/** The columns a grain's row holds besides its body. */
export function grainColumns(grain: Grain): GrainColumns {
  return {
    type: grain.type,
    namespace: grain.namespace,
    created_at: grain.created_at,
    actor: grain.actor,
    supersedes: grain.supersedes ?? null,
    valid_to: grain.valid_to ?? null,
    is_error: grain.type === "event" ? (grain.is_error ? 1 : 0) : null,
    source: grain.type === "event" ? grain.source ?? null : null,
  };
}

/**
 * The first stored column that is not what the hashed body implies, if any.
 * Text is compared NFC-normalised: the body is, the columns were written as
 * given.
 *
 * @param stored The row's columns as read.
 * @param body The grain parsed from the row's (verified) body.
 * @returns The column's name, or undefined when every column agrees.
 */
export function columnOffBody(
  stored: GrainColumns,
  body: Grain,
): keyof GrainColumns | undefined {
  const want = grainColumns(body);
  for (const key of Object.keys(want) as Array<keyof GrainColumns>) {
    const have = stored[key];
    const normal = typeof have === "string" ? have.normalize("NFC") : have;
    if (normal !== want[key]) return key;
  }
  return undefined;
}
