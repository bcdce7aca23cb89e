/**
 * Dates and relative times said in words ("last week", "in may", "two days
 * ago", "since 2026-05-01") turned into a time window, and the words taken
 * out of the query. Calendar periods are UTC; weeks start on Monday.
 *
 * @module
 */

/** A time window a query asked for. */
export interface TimeWindow {
  /** Start (ms, inclusive). */
  from: number;
  /** End (ms, exclusive). */
  to: number;
  /** The words that asked for it, as typed. */
  phrase: string;
}

const DAY = 86_400_000;
const MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];
const MONTH_ALIASES: Record<string, number> = {};
MONTHS.forEach((m, i) => {
  MONTH_ALIASES[m] = i;
  MONTH_ALIASES[m.slice(0, 3)] = i;
});
MONTH_ALIASES.sept = 8;
const NUMBERS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  couple: 2,
  "couple of": 2,
  "a couple of": 2,
  few: 4,
  "a few": 4,
  several: 5,
};

function dayStart(t: number): number {
  return Math.floor(t / DAY) * DAY;
}

function weekStart(t: number): number {
  const d = dayStart(t);
  const weekday = (new Date(d).getUTCDay() + 6) % 7;
  return d - weekday * DAY;
}

function monthStart(year: number, month: number): number {
  return Date.UTC(year, month, 1);
}

function unitMs(unit: string): number {
  if (unit.startsWith("day")) return DAY;
  if (unit.startsWith("week")) return 7 * DAY;
  if (unit.startsWith("month")) return 30 * DAY;
  return 365 * DAY;
}

function count(word: string): number | undefined {
  const n = Number(word);
  if (Number.isInteger(n) && n > 0 && n < 1000) return n;
  return NUMBERS[word];
}

const MONTH_WORDS = Object.keys(MONTH_ALIASES).join("|");

/** Month names as written in full and capitalised, but "May". */
const CALENDAR_MONTHS =
  "January|February|March|April|June|July|August|September|October|November|December";

/**
 * "June last year", "early March of this year": the month with the year
 * written out, which the rules below read ("June 2025").
 */
const MONTH_OF_YEAR = new RegExp(
  `\\b(${MONTH_WORDS})\\.?,?\\s+(?:of\\s+)?(last|this)\\s+year\\b`,
  "i",
);

/**
 * Whether "from" opens a range here ("from March on", "from May to July"):
 * "the chats from January" are January's.
 */
function fromOnward(m: RegExpMatchArray): boolean {
  const after = (m.input ?? "").slice((m.index ?? 0) + m[0].length);
  return /^\s*(?:on|onwards?|forward|until|till|to|through|thru|[-–])(?![a-z])/i
    .test(after);
}

/** The span a vague count means, in units back from now: [nearest, farthest]. */
const VAGUE: Record<string, readonly [number, number]> = {
  "a couple of": [1, 3],
  "couple of": [1, 3],
  "a few": [2, 5],
  few: [2, 5],
  several: [3, 8],
};
const NUMBER_WORDS =
  "\\d+|a few|a couple of|couple of|a|an|one|two|three|four|five|six|seven|eight|nine|ten|few|several";

const MAYBE_TIME =
  /\d{4}|\d(?:st|nd|rd|th)?\s+(?:of\s+)?[a-z]{3}|yesterday|today|tonight|morning|afternoon|\bago\b|recent|lately|other day|\b(?:last|this|past|previous)\s|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)|\b(?:over|during)\s+the\s+(?:spring|summer|fall|autumn|winter)\b/i;

/** Hours a named calendar day is widened by on each side: a day said in
 * words is a day where its speaker was, in any time zone. */
const ZONE_SLACK = 14 * 3_600_000;

const SEASONS: Record<string, [number, number]> = {
  spring: [2, 5],
  summer: [5, 8],
  fall: [8, 11],
  autumn: [8, 11],
  winter: [11, 14],
};

/** The UTC start of a named day, or undefined for a day that does not exist. */
function calendarDay(
  year: number,
  month: number,
  day: number,
): number | undefined {
  if (day < 1 || day > 31) return undefined;
  const t = Date.UTC(year, month, day);
  return new Date(t).getUTCMonth() === month % 12 ? t : undefined;
}

/** The year a month and day without one most recently fell in. */
function recentYear(month: number, day: number, now: number): number {
  const d = new Date(now);
  const year = d.getUTCFullYear();
  return Date.UTC(year, month, day) > now ? year - 1 : year;
}

/** A window around a named day, read with the words that lead to it. */
function aroundDay(
  day: number,
  how: string,
  span: string,
  now: number,
): [number, number] {
  // "the week before May 3": the days up to it (and the day itself, where
  // what happened that week is usually told).
  if (span) {
    const n = span === "month" ? 30 : span === "day" ? 1 : 7;
    return span && how === "after"
      ? [day, day + (n + 1) * DAY]
      : [day - n * DAY - ZONE_SLACK, day + DAY + ZONE_SLACK];
  }
  if (how === "since" || how === "from") return [day - ZONE_SLACK, now + DAY];
  if (how === "after") return [day + DAY - ZONE_SLACK, now + DAY];
  if (how === "before" || how === "by") return [0, day + DAY + ZONE_SLACK];
  return [day - ZONE_SLACK, day + DAY + ZONE_SLACK];
}

/**
 * How far past a named week its window reaches: what happened in a week is
 * often told in the days after it ("last Friday I …"), with the zone slack.
 */
const TOLD_AFTER = 3 * DAY + ZONE_SLACK;

/** Which third "early", "mid", "late", "the end of" … name: 0, 1 or 2. */
function thirdOf(part: string | undefined): number {
  const p = (part ?? "").toLowerCase();
  return /early|beginning|start/.test(p) ? 0 : /mid/.test(p) ? 1 : 2;
}

/** Places of a week in its month, from the first. */
const ORDINAL = ["first", "second", "third", "fourth"];

/** Words that make a named time the end of the span asked about. */
const UP_TO = new Set(["as of", "by", "until", "till"]);

interface Rule {
  re: RegExp;
  window(m: RegExpExecArray, now: number): [number, number] | undefined;
}

const RULES: Rule[] = [
  {
    // A week or weekend of a month by its place: "the first weekend of
    // October 2023", "the last week of May".
    re: new RegExp(
      `\\b(?:the\\s+)?(first|second|third|fourth|last)\\s+(week|weekend)\\s+of\\s+(${MONTH_WORDS})\\.?(?:,?\\s+(\\d{4}))?\\b`,
      "i",
    ),
    window(m, now) {
      const month = MONTH_ALIASES[(m[3] ?? "").toLowerCase()];
      if (month === undefined) return undefined;
      const year = m[4] ? Number(m[4]) : recentYear(month, 1, now);
      const place = (m[1] ?? "").toLowerCase();
      const end = monthStart(year, month + 1);
      let from: number;
      let days: number;
      if ((m[2] ?? "").toLowerCase() === "weekend") {
        // Weekends start on the month's Saturdays.
        const first = monthStart(year, month);
        const saturday = first +
          ((6 - new Date(first).getUTCDay() + 7) % 7) * DAY;
        const lastSaturday = saturday +
          Math.floor((end - DAY - saturday) / (7 * DAY)) * 7 * DAY;
        from = place === "last"
          ? lastSaturday
          : saturday + ORDINAL.indexOf(place) * 7 * DAY;
        days = 2;
      } else {
        from = place === "last"
          ? end - 7 * DAY
          : monthStart(year, month) + ORDINAL.indexOf(place) * 7 * DAY;
        days = 7;
      }
      return [from - ZONE_SLACK, from + days * DAY + TOLD_AFTER];
    },
  },
  {
    // The first or last days or weeks of a month: "the last two weeks of
    // August 2023", "the first few days of May".
    re: new RegExp(
      `\\b(?:in\\s+|during\\s+)?(?:the\\s+)?(first|last)\\s+(${NUMBER_WORDS})\\s+(days|weeks)\\s+of\\s+(${MONTH_WORDS})\\.?(?:,?\\s+(\\d{4}))?\\b`,
      "i",
    ),
    window(m, now) {
      const month = MONTH_ALIASES[(m[4] ?? "").toLowerCase()];
      const word = (m[2] ?? "").toLowerCase();
      const n = VAGUE[word]?.[1] ?? count(word);
      if (month === undefined || n === undefined) return undefined;
      const year = m[5] ? Number(m[5]) : recentYear(month, 1, now);
      const span = Math.min(n * unitMs(m[3] ?? ""), 31 * DAY);
      const from = (m[1] ?? "").toLowerCase() === "last"
        ? monthStart(year, month + 1) - span
        : monthStart(year, month);
      return [from - ZONE_SLACK, from + span + TOLD_AFTER];
    },
  },
  {
    re: /\b(since|after|before|on|from)?\s*(\d{4})-(\d{2})-(\d{2})\b/i,
    window(m, now) {
      const day = Date.UTC(Number(m[2]), Number(m[3]) - 1, Number(m[4]));
      if (Number.isNaN(day)) return undefined;
      const how = m[1]?.toLowerCase();
      if (how === "since" || (how === "from" && fromOnward(m))) {
        return [day, now + DAY];
      }
      if (how === "after") return [day + DAY, now + DAY];
      if (how === "before") return [0, day];
      return [day, day + DAY];
    },
  },
  {
    // "on May 3, 2023", "3 June, 2023", "the week before August 3, 2023",
    // "by July 10", "since the 2nd of March".
    re: new RegExp(
      `\\b(?:(?:the\\s+)?(week|weekend|day|month)\\s+(before|after)\\s+)?(?:(on|since|after|before|from|by)\\s+)?(?:the\\s+)?(?:(${MONTH_WORDS})\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?|(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?(${MONTH_WORDS})\\.?)(?:,?\\s+(\\d{4}))?\\b`,
      "i",
    ),
    window(m, now) {
      const month = MONTH_ALIASES[(m[4] ?? m[7] ?? "").toLowerCase()];
      const date = Number(m[5] ?? m[6]);
      if (month === undefined) return undefined;
      const year = m[8] ? Number(m[8]) : recentYear(month, date, now);
      const day = calendarDay(year, month, date);
      if (day === undefined) return undefined;
      const span = (m[1] ?? "").toLowerCase().replace("weekend", "week");
      const how = (m[2] ?? m[3] ?? "on").toLowerCase();
      return aroundDay(
        day,
        how === "from" && !fromOnward(m) ? "on" : how,
        span,
        now,
      );
    },
  },
  {
    re: /\b(spring|summer|fall|autumn|winter)(?:\s+(?:of\s+)?(\d{4}))\b/i,
    window(m) {
      const [first, end] = SEASONS[(m[1] ?? "").toLowerCase()]!;
      const year = Number(m[2]);
      return [monthStart(year, first), monthStart(year, end)];
    },
  },
  {
    // "Last summer", "this spring", "over the winter": the season that is
    // running (this) or the last one to have ended (last, over the), a
    // winter from its December.
    re:
      /\b(last|this|past|over\s+the|during\s+the)\s+(spring|summer|fall|autumn|winter)\b/i,
    window(m, now) {
      const [first, end] = SEASONS[(m[2] ?? "").toLowerCase()]!;
      const running = (m[1] ?? "").toLowerCase() === "this";
      let year = new Date(now).getUTCFullYear();
      // The latest season of that name to have begun (this) or ended.
      while (
        running ? monthStart(year, first) > now : monthStart(year, end) > now
      ) year--;
      return [monthStart(year, first), monthStart(year, end)];
    },
  },
  {
    // A month said with its session: "the February session", "that
    // November chat" (capitalised, and not "May", a verb as often).
    re: new RegExp(
      `\\b(?:the|that|this|a)\\s+(${CALENDAR_MONTHS})(?:['’]s)?\\s+(?:session|chat|conversation|thread|run|one)s?\\b`,
    ),
    window(m, now) {
      const month = MONTH_ALIASES[(m[1] ?? "").toLowerCase()];
      if (month === undefined) return undefined;
      const year = recentYear(month, 1, now);
      return [monthStart(year, month), monthStart(year, month + 1)];
    },
  },
  {
    re: /\byesterday\b/i,
    window: (_m, now) => [dayStart(now) - DAY, dayStart(now)],
  },
  {
    re: /\b(today|this morning|this afternoon|tonight)\b/i,
    window: (_m, now) => [dayStart(now), now + DAY],
  },
  {
    re: new RegExp(
      `\\b(?:in\\s+the\\s+|over\\s+the\\s+|during\\s+the\\s+)?(?:past|last)\\s+(${NUMBER_WORDS})\\s+(days?|weeks?|months?|years?)\\b`,
      "i",
    ),
    window(m, now) {
      const n = count((m[1] ?? "").toLowerCase());
      if (n === undefined) return undefined;
      return [now - n * unitMs((m[2] ?? "").toLowerCase()), now + DAY];
    },
  },
  {
    re: new RegExp(
      `\\b(${NUMBER_WORDS})\\s+(days?|weeks?|months?|years?)\\s+ago\\b`,
      "i",
    ),
    window(m, now) {
      const word = (m[1] ?? "").toLowerCase();
      const n = count(word);
      if (n === undefined) return undefined;
      const unit = unitMs((m[2] ?? "").toLowerCase());
      // "A few weeks ago" is anything from two to five; "two weeks ago",
      // one either side of two.
      const vague = VAGUE[word];
      if (vague) {
        return [
          now - vague[1] * unit,
          Math.min(now, now - vague[0] * unit) + DAY,
        ];
      }
      const at = now - n * unit;
      return [at - Math.max(unit, 2 * DAY), Math.min(now, at + unit) + DAY];
    },
  },
  {
    re: /\b(last|this|previous|past)\s+(week|month|year)\b/i,
    window(m, now) {
      const last = (m[1] ?? "").toLowerCase() !== "this";
      const unit = (m[2] ?? "").toLowerCase();
      const d = new Date(now);
      if (unit === "week") {
        const start = weekStart(now);
        return last ? [start - 7 * DAY, start] : [now - 7 * DAY, now + DAY];
      }
      if (unit === "month") {
        const start = monthStart(d.getUTCFullYear(), d.getUTCMonth());
        return last
          ? [monthStart(d.getUTCFullYear(), d.getUTCMonth() - 1), start]
          : [start, now + DAY];
      }
      const start = Date.UTC(d.getUTCFullYear(), 0, 1);
      return last
        ? [Date.UTC(d.getUTCFullYear() - 1, 0, 1), start]
        : [start, now + DAY];
    },
  },
  {
    // A part of a month: "late May", "mid-June", "the beginning of April".
    re: new RegExp(
      `\\b(early|mid|late|(?:the\\s+)?(?:beginning|start|middle|end)\\s+of)[\\s-]+(${MONTH_WORDS})\\.?(?:\\s+(\\d{4}))?\\b`,
      "i",
    ),
    window(m, now) {
      const month = MONTH_ALIASES[(m[2] ?? "").toLowerCase()];
      if (month === undefined) return undefined;
      // Thirds of the month, from its first day.
      const first = 1 + 10 * thirdOf(m[1]);
      const year = m[3] ? Number(m[3]) : recentYear(month, first, now);
      const from = Date.UTC(year, month, first);
      const to = first === 21 ? monthStart(year, month + 1) : from + 10 * DAY;
      return [from - ZONE_SLACK, to + ZONE_SLACK];
    },
  },
  {
    // A part of a year: "early 2023", "mid-2024", "the end of 2022": its
    // thirds, four months each.
    re:
      /\b(early|mid|late|(?:the\s+)?(?:beginning|start|middle|end)\s+of)[\s-]+((?:19|20)\d\d)\b/i,
    window(m) {
      const first = 4 * thirdOf(m[1]);
      const year = Number(m[2]);
      return [monthStart(year, first), monthStart(year, first + 4)];
    },
  },
  {
    re: new RegExp(
      `\\b(in|during|since|after|before|from|last|as of|by|until|till)\\s+(${MONTH_WORDS})\\.?(?:\\s+(\\d{4}))?\\b|\\b(${MONTH_WORDS})\\s+(\\d{4})\\b`,
      "i",
    ),
    window(m, now) {
      const how = (m[1] ?? "in").toLowerCase();
      const name = (m[2] ?? m[4] ?? "").toLowerCase();
      const month = MONTH_ALIASES[name];
      if (month === undefined) return undefined;
      const d = new Date(now);
      let year = Number(m[3] ?? m[5] ?? NaN);
      if (Number.isNaN(year)) {
        year = d.getUTCFullYear();
        if (
          month > d.getUTCMonth() ||
          (how === "last" && month === d.getUTCMonth())
        ) {
          year--;
        }
      }
      const start = monthStart(year, month);
      const end = monthStart(year, month + 1);
      if (how === "since" || (how === "from" && fromOnward(m))) {
        return [start, now + DAY];
      }
      if (how === "after") return [end, now + DAY];
      if (how === "before") return [0, start];
      // "as of December 2023": everything up to the end of it.
      if (UP_TO.has(how)) return [0, end];
      return [start, end];
    },
  },
  {
    re: /\b(in|during|since|after|before)\s+(19\d\d|20\d\d)\b/i,
    window(m, now) {
      const year = Number(m[2]);
      const start = Date.UTC(year, 0, 1);
      const end = Date.UTC(year + 1, 0, 1);
      const how = (m[1] ?? "").toLowerCase();
      if (how === "since") return [start, now + DAY];
      if (how === "after") return [end, now + DAY];
      if (how === "before") return [0, start];
      return [start, end];
    },
  },
  {
    // Last: a date said with it is the one meant ("made recently, in May
    // 2022").
    re: /\b(recently|lately|the other day)\b/i,
    window: (_m, now) => [now - 30 * DAY, now + DAY],
  },
];

/**
 * Finds the first time phrase in a query and removes it.
 *
 * @param text The query text.
 * @param now The clock (ms).
 * @returns The text without the phrase, and the window when one was found.
 */
export function extractTimeWindow(
  text: string,
  now: number,
): { text: string; window?: TimeWindow } {
  // One cheap test first: most queries name no time, and compiling every
  // rule costs more than the rest of query understanding.
  if (!MAYBE_TIME.test(text)) return { text };
  const year = new Date(now).getUTCFullYear();
  text = text.replace(
    MONTH_OF_YEAR,
    (_all, month: string, which: string) =>
      `${month} ${which.toLowerCase() === "last" ? year - 1 : year}`,
  );
  for (const rule of RULES) {
    const m = rule.re.exec(text);
    if (!m) continue;
    const span = rule.window(m, now);
    if (!span) continue;
    const rest = `${text.slice(0, m.index)} ${
      text.slice(m.index + m[0].length)
    }`.replace(/\s+/g, " ").trim();
    return {
      text: rest,
      window: { from: span[0], to: span[1], phrase: m[0].trim() },
    };
  }
  return { text };
}
