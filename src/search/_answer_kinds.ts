/**
 * Nouns that, said right after "what" or "which", name the kind of answer
 * a question wants: "what hobby did he take up", "which city was she in",
 * "what type of car". The turn that answers names the thing — photography,
 * Seattle, a Mustang — and rarely the kind, so such a noun is searched but
 * not required, at half weight. Words a developer's question says and its
 * session says too ("which file", "what error") are not on the list: they
 * were measured and moved nothing (docs/decisions.md, session 23).
 *
 * @module
 */
import { porterStem } from "./_stem.ts";

const KINDS = new Set(
  `type types sort sorts thing things item items activity activities event
  events hobby hobbies place places city cities country countries state states
  sport sports game games book books food foods dish dishes recipe recipes
  animal animals pet pets instrument instruments color colors colour colours
  job jobs project projects movie movies song songs band bands show shows
  restaurant restaurants car cars music art gift gifts
  course courses class classes degree degrees language languages`.split(/\s+/),
);

/**
 * Things of a kind a person names instead of the kind: "how many
 * instruments do I own" is answered by "my guitar and the piano", "what
 * degree" by "my bachelor's in chemistry". Each is searched as another form
 * of the kind's word (so at the kind's weight, and optional as it is).
 * Words a developer's session says in another sense ("keyboard", "bass",
 * "python", "java", "ruby") are left out.
 */
const INSTANCES: Record<string, string> = {
  instrument: `guitar guitars piano pianos violin violins viola cello drums
    drum ukulele flute clarinet saxophone sax trumpet trombone harp banjo
    mandolin harmonica accordion oboe`,
  pet: `dog dogs puppy puppies cat cats kitten kittens parrot hamster
    rabbit bunny turtle goldfish guinea`,
  car: `sedan suv hatchback minivan pickup convertible honda toyota ford
    tesla subaru mazda bmw audi volkswagen chevy chevrolet nissan hyundai kia
    jeep volvo civic corolla camry prius mustang rav4 outback`,
  degree: `bachelor bachelors bachelor's master's masters phd doctorate mba
    diploma majored`,
  sport: `soccer football basketball baseball tennis golf hockey volleyball
    swimming cycling climbing skiing snowboarding surfing boxing rugby
    cricket badminton softball lacrosse`,
  language: `spanish french german italian portuguese japanese mandarin
    chinese korean arabic russian hindi dutch swedish greek turkish polish
    vietnamese`,
  country: `usa canada mexico brazil argentina chile peru colombia uk
    england scotland ireland france germany spain portugal italy greece
    netherlands belgium switzerland austria sweden norway denmark finland
    iceland poland czechia hungary croatia turkey egypt morocco kenya
    nigeria india china japan korea thailand vietnam singapore indonesia
    philippines malaysia australia zealand israel uae dubai`,
  hobby: `painting drawing knitting crocheting sewing pottery photography
    gardening hiking fishing birding camping baking woodworking reading
    journaling`,
};

const INSTANCES_OF = new Map<string, string[]>();
for (const [kind, words] of Object.entries(INSTANCES)) {
  const list = words.split(/\s+/).filter((w) => w);
  INSTANCES_OF.set(kind, list);
  INSTANCES_OF.set(
    kind.endsWith("y") ? `${kind.slice(0, -1)}ies` : `${kind}s`,
    list,
  );
}

/**
 * The things of a kind a turn may name instead of the kind.
 *
 * @param kind A kind's noun, as {@linkcode answerKinds} returns it.
 * @returns Lowercased words; none for a kind without a list.
 * @example
 * ```ts
 * import { kindInstances } from "./_answer_kinds.ts";
 * import { ok } from "node:assert/strict";
 * ok(kindInstances("instruments").includes("guitar"));
 * ok(kindInstances("hobbies").includes("pottery"));
 * ```
 */
export function kindInstances(kind: string): readonly string[] {
  return INSTANCES_OF.get(kind) ?? [];
}

/**
 * The nouns a question counts ("how many countries", "how many musical
 * instruments"): kinds whose things a turn names, though the count itself
 * is no kind of answer to loosen.
 *
 * @param ask The question, as asked.
 * @returns The lowercased nouns counted, with a list of things.
 * @example
 * ```ts
 * import { countedKinds } from "./_answer_kinds.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual([...countedKinds("How many different countries did I visit?")], [
 *   "countries",
 * ]);
 * deepEqual([...countedKinds("How many pets does she have?")], ["pets"]);
 * deepEqual([...countedKinds("how many times did it fail?")], []);
 * ```
 */
export function countedKinds(ask: string): Set<string> {
  const out = new Set<string>();
  for (
    const m of ask.toLowerCase().matchAll(
      /\bhow many\s+([a-z]+)(?:\s+([a-z]+))?/g,
    )
  ) {
    // The noun counted, or the one after its adjective.
    const noun = [m[1], m[2]].find((w) => w && INSTANCES_OF.has(w));
    if (noun) out.add(noun);
  }
  return out;
}

/**
 * The verb a kind goes with: "what car do I drive", "which instruments
 * does she play". Said beside its kind, the verb adds nothing the kind does
 * not (a turn says "my Civic", not "the car I drive"), so it is as optional
 * as the kind; by stem.
 */
const KIND_VERBS: Record<string, string> = {
  car: "drive",
  instrument: "play",
  sport: "play",
  game: "play",
  language: "speak",
  book: "read",
  movie: "watch",
  show: "watch",
  song: "listen",
};

/**
 * Whether a word (by Porter stem) is the verb one of the kinds goes with.
 *
 * @param stem The word's Porter stem.
 * @param kinds The question's kinds, from {@linkcode answerKinds}.
 * @returns True for "drive" beside "car", "play" beside "instruments".
 * @example
 * ```ts
 * import { isKindVerb } from "./_answer_kinds.ts";
 * import { equal } from "node:assert/strict";
 * equal(isKindVerb("drive", new Set(["car"])), true);
 * equal(isKindVerb("plai", new Set(["instruments"])), true);
 * equal(isKindVerb("drive", new Set(["book"])), false);
 * ```
 */
export function isKindVerb(stem: string, kinds: ReadonlySet<string>): boolean {
  for (const kind of kinds) {
    const one = kind === "countries" ? "country" : kind.replace(/s$/, "");
    const verb = KIND_VERBS[one];
    if (verb && porterStem(verb) === stem) return true;
  }
  return false;
}

/** What a kind of answer weighs against the question's other words. */
export const ANSWER_KIND_WEIGHT = 0.5;

/**
 * The nouns of a question that name the kind of answer it wants.
 *
 * @param ask The question, as asked.
 * @returns The lowercased nouns said right after "what" or "which".
 * @example
 * ```ts
 * import { answerKinds } from "./_answer_kinds.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual([...answerKinds("Which city was Calvin visiting in August?")], [
 *   "city",
 * ]);
 * deepEqual([...answerKinds("why did the city map break?")], []);
 * ```
 */
export function answerKinds(ask: string): Set<string> {
  const out = new Set<string>();
  for (const m of ask.toLowerCase().matchAll(/\b(?:what|which)\s+([a-z]+)/g)) {
    if (KINDS.has(m[1]!)) out.add(m[1]!);
  }
  return out;
}
