/**
 * Words a query drops because they say how something is asked, not what:
 * function words per language, and the words people use to ask a memory
 * ("remind me what we said about…"). Lists are keyed by language so others
 * can be added beside English; a language's list applies to words in its
 * script (Cyrillic words against Russian, Latin ones against English).
 *
 * @module
 */
import { isAscii } from "../index/tokens.ts";

/**
 * Function words, then words that carry no subject in a question ("get",
 * "thing"), then the filler people say around one ("sure", "maybe
 * later", "someone kept trying": measured on every eval, docs/search.md).
 */
const ENGLISH =
  `a about above after again against all am an and any are aren't as at
be because been before being below between both but by can can't cannot could couldn't
did didn't do does doesn't doing don't down during each few for from further had hadn't
has hasn't have haven't having he he'd he'll he's her here here's hers herself him
himself his how how's i i'd i'll i'm i've if in into is isn't it it's its itself let's
me more most mustn't my myself no nor not of off on once only or other ought our ours
ourselves out over own same shan't she she'd she'll she's should shouldn't so some such
than that that's the their theirs them themselves then there there's these they they'd
they'll they're they've this those through to too under until up very was wasn't we
we'd we'll we're we've were weren't what what's when when's where where's which while
who who's whom why why's will with won't would wouldn't you you'd you'll you're you've
your yours yourself yourselves also just yes ok okay please thanks thank hey hi hello
whats hows whos wheres whens im ive id dont didnt doesnt cant wont isnt wasnt
get got gets getting use used using one ones thing things something anything
way much many really actually still even ever now again kind mine yours hers
his theirs ours sure someone somebody later keep kept keeps trying
maybe probably basically somehow somewhere anyway stuff lot pretty quite kinda
gonna wanna going able tried tries`;

/**
 * Words that frame a question about the past rather than name its subject:
 * "remind me what we discussed", "did I mention". Dropped like stop words.
 */
const ASKING =
  `remind reminded remember remembered recall recalled mention mentioned
mentioning told tell telling said say saying talk talked talking discuss discussed
discussing conversation conversations chat chatted earlier previously previous before
ago asked ask asking know knew wondering wonder think thought look looked happen
happened happening`;

const RUSSIAN =
  `и в во не что он на я с со как а то все она так его но да ты к у же
вы за бы по только ее мне было вот от меня еще нет о из ему теперь когда даже ну вдруг
ли если уже или ни быть был него до вас нибудь опять уж вам ведь там потом себя ничего
ей может они тут где есть надо ней для мы тебя их чем была сам чтоб без будто чего раз
тоже себе под будет ж тогда кто этот того потому этого какой совсем ним здесь этом один
почти мой тем чтобы нее сейчас были куда зачем всех никогда можно при наконец два об
другой хоть после над больше тот через эти нас про всего них какая много разве три эту
моя впрочем хорошо свою этой перед иногда лучше чуть том нельзя такой им более всегда
конечно всю между почему как`;

/**
 * Function words of languages written in Latin letters, used only when a
 * query is in that language (see {@linkcode queryLanguages}): "de" is
 * Spanish, Dutch and Portuguese glue, and in an English query the start of
 * "de facto". Words a developer also types as names (jest, vi, io, del) are
 * left out.
 */
const OTHER_LATIN: Readonly<Record<string, string>> = {
  es:
    `el la los las un una unos unas de del al en y o u que qué por para con sin
se su sus lo le les me mi mis te tu es son fue fueron era está están estaba como
cómo cuando cuándo donde dónde cual cuál cuales quién pero más muy ya sí este esta
estos estas ese esa eso esto hay ha he hemos han hizo hicimos hice también sobre
entre hasta desde porque nos nosotros yo vez aquel aquella`,
  pt: `o a os as um uma de do da dos das em no na nos nas e ou que por para com
sem se seu sua é são foi foram era está estava como quando onde qual quem mas mais
muito já não sim este esta esse essa isso isto há também sobre entre até desde
porque eu nós você ele ela vez pelo pela`,
  fr:
    `le la les un une des du de et ou en dans pour par sur avec sans que qui quoi
quel quelle quels quelles où comment quand est sont était a ai avons avez ont ce
cette ces cet il elle ils elles on nous vous je j mon ma mes notre nos son sa ses
ne pas plus y au aux l d c qu s n m t fois`,
  de: `der die das den dem des ein eine einen einem einer und oder aber im an am
auf aus bei mit nach von vom zu zum zur für über unter ist sind war waren hat
haben hatte hatten wir ich du er sie es ihr man nicht kein keine wie wo was wann
warum welche welcher welches dass ob wenn als auch noch schon nur sehr mal doch ja
nein dann hier dort uns unser unsere mich mir wurde wurden`,
  nl: `de het een en of in op aan van voor met bij naar uit over om te tot door
is zijn was waren heeft hebben had wij we ik jij je hij zij ze dat die dit deze
wat waar wanneer hoe waarom welke niet geen ook nog al wel maar dan als toen er
hier daar mijn ons onze keer`,
  it: `il lo la i gli le un uno una di della dei degli delle da dal dalla in nel
nella su sul sulla con per tra fra e o che chi cosa come quando dove quale perché
è sono era ho abbiamo hanno ha non più anche già questo questa quello quella mi
ti si ci noi volta`,
  vi: `tôi mình bạn nó chúng ta cái lần hồi khi lúc chỉ mỗi rồi đi đã đang sẽ có
không ko được dc là của và với này đó kia những các một để thì mà nhưng nếu vì
nên cho trong ngoài trên dưới vào lại nữa hết gì sao nào ai đâu thế vậy nhé nha
ạ à ơi hả bị từ đến tới về theo như cũng vẫn còn rất lắm quá hơn nhất mấy nhiều
ít hay hoặc giúp xem làm chữ`,
  id: `yang dan di ke dari untuk dengan pada ini itu ada tidak apa bagaimana
kapan mana siapa saya kami kita aku kamu sudah akan bisa juga atau tapi karena
dalam`,
  pl: `i w z na do że się nie jak co jest był była gdzie kiedy dla od po o przez
ten ta czy mój nasz który która które`,
  tr: `ve bir bu şu da de mi mı ne nasıl nerede için ile gibi ama çok daha biz
ben sen hangi neden`,
};

function list(text: string): ReadonlySet<string> {
  return new Set(text.split(/\s+/).filter(Boolean));
}

/** Stop words by language. */
export const STOP_WORDS: Readonly<Record<string, ReadonlySet<string>>> = {
  en: new Set([...list(ENGLISH), ...list(ASKING)]),
  ru: list(RUSSIAN),
};

const OTHER_LISTS = new Map(
  Object.entries(OTHER_LATIN).map(([lang, words]) => [lang, list(words)]),
);

/**
 * The languages besides English whose function words a query is written
 * with: two or more different words of a language's list, and at least
 * {@linkcode LANGUAGE_SHARE} of the query's words that are no English stop
 * words, names of code not counted ("¿en qué chat pusimos un botón…" is
 * Spanish; "the de facto default" is not Dutch).
 *
 * @param text The query.
 * @returns Language codes, for {@linkcode isStopWord}.
 */
export function queryLanguages(text: string): string[] {
  // Names of code (collect_advanced_cleanup_ideas, advanced.py, butler-exec)
  // are in no language: only the words around them count.
  // ASCII text, most queries, takes plain classes (see isAscii).
  const ascii = isAscii(text);
  const code = ascii ? ASCII_CODE_TOKEN : CODE_TOKEN;
  const prose = text.split(/\s+/).filter((t) => !code.test(t)).join(" ")
    .toLowerCase();
  const all = [
    ...new Set(prose.split(ascii ? /[^a-z0-9']+/ : /[^\p{L}\p{N}']+/u)),
  ].filter((w) => w);
  const words = all.filter((w) => !STOP_WORDS.en!.has(w));
  // An English sentence may hold a word or two of another list ("where did
  // I leave an AI comment": "ai" and "comment" are French): its own glue
  // words outnumber them.
  const english = all.length - words.length;
  const out: string[] = [];
  for (const [lang, known] of OTHER_LISTS) {
    const hits = words.filter((w) => known.has(w)).length;
    if (
      hits >= 2 && hits > english && hits >= words.length * LANGUAGE_SHARE
    ) out.push(lang);
  }
  return out;
}

/** A token naming code: joined by `_ . / -` inside, a digit, or camelCase. */
const CODE_TOKEN = /\w[_./\\-]\w|\d|\p{Ll}\p{Lu}/u;
/** {@linkcode CODE_TOKEN} for ASCII text. */
const ASCII_CODE_TOKEN = /\w[_./\\-]\w|\d|[a-z][A-Z]/;

/** The share of a query's words a language's glue words must make up. */
const LANGUAGE_SHARE = 0.3;

/**
 * Whether a lowercased word is a stop word in the list its script selects,
 * or in the list of a language the query is written in.
 *
 * @param word A lowercased word.
 * @param languages Languages of the query besides English
 *   ({@linkcode queryLanguages}).
 * @returns True for a stop word.
 */
export function isStopWord(
  word: string,
  languages: readonly string[] = [],
): boolean {
  if (/[\u0400-\u04ff]/.test(word)) return STOP_WORDS.ru!.has(word);
  if (STOP_WORDS.en!.has(word.replaceAll("’", "'"))) return true;
  return languages.some((lang) => OTHER_LISTS.get(lang)?.has(word));
}

/**
 * CJK characters that carry grammar rather than meaning; a bigram made of
 * two of them (什么, 怎么, のを) is dropped from a query.
 */
export const CJK_FUNCTION_CHARS: ReadonlySet<string> = new Set(
  [
    ..."的了吗呢吧啊是在有和与及或我你他她它们这那哪谁什么怎为多少几个一不没也都就还把被给让从到对向于以而又再很太最更该能会要想可如何吗么",
    ..."はがをにでとのもへやかなよねだですますたしてるれらこそあどう",
    ..."은는이가을를에의도와과로으고하다요",
  ],
);
