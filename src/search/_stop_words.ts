/**
 * Words a query drops because they say how something is asked, not what:
 * function words per language, and the words people use to ask a memory
 * ("remind me what we said about…"). Lists are keyed by language so others
 * can be added beside English; a language's list applies to words in its
 * script (Cyrillic words against Russian, Latin ones against English).
 *
 * @module
 */

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

function list(text: string): ReadonlySet<string> {
  return new Set(text.split(/\s+/).filter(Boolean));
}

/** Stop words by language. */
export const STOP_WORDS: Readonly<Record<string, ReadonlySet<string>>> = {
  en: new Set([...list(ENGLISH), ...list(ASKING)]),
  ru: list(RUSSIAN),
};

/**
 * Whether a lowercased word is a stop word in the list its script selects.
 *
 * @param word A lowercased word.
 * @returns True for a stop word.
 */
export function isStopWord(word: string): boolean {
  if (/[\u0400-\u04ff]/.test(word)) return STOP_WORDS.ru!.has(word);
  return STOP_WORDS.en!.has(word.replaceAll("’", "'"));
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
