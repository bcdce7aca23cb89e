/**
 * Builds drafts with the fields every built-in analyzer stamps alike.
 *
 * @module
 */
import type {
  Grain,
  RecommendationDraft,
  StoredGrain,
} from "../memory/types.ts";
import {
  type AnalyzerManifest,
  familyOf,
  type ResolvedParams,
} from "./manifest.ts";

/** Most evidence hashes a draft carries (the rest is reproducible). */
export const MAX_EVIDENCE = 64;

/** The fields an analyzer decides; the rest is stamped. */
export type DraftFields = Omit<
  RecommendationDraft,
  "analyzer" | "params" | "family" | "origin"
>;

/**
 * Stamps a draft with the analyzer id, family, params snapshot and origin,
 * and caps the evidence.
 *
 * @param manifest The proposing analyzer.
 * @param params Its resolved params.
 * @param fields The finding.
 * @returns The draft.
 */
export function makeDraft(
  manifest: AnalyzerManifest,
  params: ResolvedParams,
  fields: DraftFields,
): RecommendationDraft {
  return {
    analyzer: manifest.id,
    params: { ...params },
    family: familyOf(manifest.id),
    origin: "analyzer",
    ...fields,
    evidence: [...new Set(fields.evidence)].slice(0, MAX_EVIDENCE),
  };
}

/**
 * The content of a grain without the fields that tie it to one position in
 * a chain, for use as a replacement in SUPERSEDE.
 *
 * @param grain A grain.
 * @returns A copy without `supersedes`.
 */
export function replacementOf<G extends Grain>(grain: G): G {
  const copy = { ...grain };
  delete copy.supersedes;
  return copy;
}

/**
 * Orders grains oldest first, ties by hash, so "canonical = earliest" is
 * deterministic.
 *
 * @param a One grain.
 * @param b Another.
 * @returns A comparison number.
 */
export function byAge(a: StoredGrain, b: StoredGrain): number {
  return a.grain.created_at - b.grain.created_at ||
    (a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : 0);
}

/** Milliseconds in a day. */
export const DAY_MS = 86_400_000;
