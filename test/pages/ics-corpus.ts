/**
 * The feed corpus of issue 12 (test/pages/ics-corpus.test.ts): per time zone, events that
 * exercise what calendar software gets wrong. Times in the DST gap and overlap of each zone's
 * own changes; month ends (31, -1, 29/30 around February, leap day 2028); every frequency with
 * intervals; until and count edges; weekday sets and monthly positions; overnight events; and
 * exceptions (cancelled, moved, changed) on top. Zones without DST take the same shapes at
 * Berlin's dates, where nothing special happens.
 */

type Body = Record<string, unknown>;

/** A DST change of a zone in 2027 and 2028: its dates, a local time it skips or repeats, and which Sunday of the month it is. */
export interface DstEdge {
  dates: [string, string];
  time: string;
  /** The change falls on this Sunday of its month (1..5, -1 last): for `{"week": n, "day": 0}` series. */
  week: number;
}

export interface CorpusZone {
  zone: string;
  /** Local times that do not exist (spring forward). */
  gap: DstEdge;
  /** Local times that exist twice (fall back). */
  overlap: DstEdge;
  /** False for zones without DST: the edges are Berlin's, as plain dates. */
  observesDst: boolean;
}

const BERLIN_EDGES = {
  gap: { dates: ["2027-03-28", "2028-03-26"], time: "02:30", week: -1 },
  overlap: { dates: ["2027-10-31", "2028-10-29"], time: "02:30", week: -1 },
} satisfies Pick<CorpusZone, "gap" | "overlap">;

export const CORPUS_ZONES: CorpusZone[] = [
  { zone: "Europe/Berlin", ...BERLIN_EDGES, observesDst: true },
  {
    zone: "America/New_York",
    gap: { dates: ["2027-03-14", "2028-03-12"], time: "02:30", week: 2 },
    overlap: { dates: ["2027-11-07", "2028-11-05"], time: "01:30", week: 1 },
    observesDst: true,
  },
  {
    zone: "Australia/Sydney",
    gap: { dates: ["2027-10-03", "2028-10-01"], time: "02:30", week: 1 },
    overlap: { dates: ["2027-04-04", "2028-04-02"], time: "02:30", week: 1 },
    observesDst: true,
  },
  {
    // Changes at 02:45 local: +12:45 to +13:45 on the last Sunday of September, back on the first of April.
    zone: "Pacific/Chatham",
    gap: { dates: ["2027-09-26", "2028-09-24"], time: "03:00", week: -1 },
    overlap: { dates: ["2027-04-04", "2028-04-02"], time: "03:00", week: 1 },
    observesDst: true,
  },
  { zone: "Asia/Kolkata", ...BERLIN_EDGES, observesDst: false },
  { zone: "UTC", ...BERLIN_EDGES, observesDst: false },
];

/** One event of the corpus: its POST body (less the name), and exceptions by original date. */
export interface CorpusEvent {
  name: string;
  body: Body;
  /** PATCH .../occurrences/{date} bodies: `{cancelled: true}`, or fields to change. */
  exceptions?: Array<{ date: string; change: Body }>;
}

/** HH:MM plus `minutes`, around the clock. */
export function plus(time: string, minutes: number): string {
  const total = (((Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5)) + minutes) % 1440) + 1440) % 1440;
  return `${String(Math.floor(total / 60)).padStart(2, "0")}:${String(total % 60).padStart(2, "0")}`;
}

/** YYYY-MM-DD plus `days`. */
export function shift(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

const monthDay = (date: string) => ({ month: Number(date.slice(5, 7)), day: Number(date.slice(8, 10)) });

/** The first two years the corpus is compared over. */
export const CORPUS_FROM = "2027-01-01";
export const CORPUS_TO = "2028-12-31";

export function corpusEvents({ gap, overlap }: CorpusZone): CorpusEvent[] {
  const timed = (start: string, minutes: number) => ({ start_time: start, end_time: plus(start, minutes) });
  return [
    // One-off events.
    { name: "One-off timed", body: { date: "2027-02-10", ...timed("09:00", 90) } },
    { name: "One-off all-day", body: { date: "2027-06-15" } },
    { name: "One-off without end", body: { date: "2027-07-01", start_time: "14:00" } },
    {
      name: "One-off overnight into the new year",
      body: { date: "2027-12-31", start_time: "22:00", end_time: "02:00" },
    },
    { name: "One-off in the gap", body: { date: gap.dates[1], ...timed(gap.time, 30) } },
    { name: "One-off in the overlap", body: { date: overlap.dates[1], ...timed(overlap.time, 60) } },
    {
      name: "One-off overnight over the gap",
      body: { date: shift(gap.dates[0], -1), start_time: "23:00", end_time: "04:00" },
    },
    {
      name: "One-off overnight over the overlap",
      body: { date: shift(overlap.dates[0], -1), start_time: "23:00", end_time: "04:00" },
    },
    // Spanning days: the end on the wall clock of the last day, across DST changes too.
    { name: "Three days over the gap", body: { date: shift(gap.dates[0], -1), days: 3, ...timed("09:00", 480) } },
    {
      name: "Two days, overnight, over the overlap",
      body: { date: shift(overlap.dates[0], -1), days: 2, start_time: "23:00", end_time: "04:00" },
    },
    { name: "Four days all-day", body: { date: "2027-08-02", days: 4 } },
    {
      name: "Weekly weekend",
      body: {
        recur: { type: "weekly", day: 6, starts: "2027-01-02", until: "2027-12-18" },
        days: 2,
        ...timed("10:00", 360),
      },
      exceptions: [
        { date: "2027-03-06", change: { days: 3 } },
        { date: "2027-05-08", change: { date: "2027-05-13", days: 1, start_time: "08:00", end_time: "09:00" } },
      ],
    },

    // Daily, intervals, until edges.
    {
      name: "Daily all along",
      body: { recur: { type: "daily", starts: "2027-01-01" }, ...timed("09:00", 30) },
      exceptions: [
        { date: "2027-12-31", change: { date: "2029-01-05" } }, // moved out of the two years
        { date: "2029-01-03", change: { date: "2028-12-30", start_time: "18:00" } }, // moved into them
        { date: "2027-05-05", change: { name: "Daily, once renamed", category: "special", notes: "Just this once." } },
      ],
    },
    {
      name: "Daily every 3 days until April",
      body: { recur: { type: "daily", interval: 3, starts: "2027-01-02", until: "2027-04-30" }, ...timed("08:15", 30) },
    },
    {
      name: "Daily every 2 days, until on an occurrence",
      body: { recur: { type: "daily", interval: 2, starts: "2027-05-01", until: "2027-05-09" }, ...timed("12:00", 60) },
    },
    {
      name: "Daily every 4 days, until between two",
      body: { recur: { type: "daily", interval: 4, starts: "2027-05-01", until: "2027-05-12" }, ...timed("12:00", 20) },
    },
    {
      name: "Daily, until on its start",
      body: { recur: { type: "daily", starts: "2027-08-08", until: "2027-08-08" }, ...timed("08:08", 61) },
    },
    {
      name: "Daily from the last week, open",
      body: { recur: { type: "daily", starts: "2028-12-25" }, ...timed("06:00", 5) },
    },
    {
      name: "Daily at the gap time",
      body: { recur: { type: "daily", starts: "2027-01-01", until: CORPUS_TO }, ...timed(gap.time, 30) },
      exceptions: [
        { date: gap.dates[0], change: { cancelled: true } },
        {
          date: overlap.dates[0],
          change: { date: shift(overlap.dates[0], 1), start_time: "10:00", end_time: "10:45" },
        },
        { date: "2027-06-01", change: { name: "Gap-time check, renamed", category: "ops" } },
        { date: "2027-06-02", change: { date: gap.dates[1], start_time: gap.time, end_time: plus(gap.time, 90) } },
      ],
    },
    {
      name: "Daily across the gap hour",
      body: { recur: { type: "daily", starts: "2027-01-01", until: CORPUS_TO }, ...timed(plus(gap.time, -60), 120) },
    },
    {
      name: "Daily at the overlap time",
      body: { recur: { type: "daily", starts: "2027-01-01", until: CORPUS_TO }, ...timed(overlap.time, 30) },
    },
    {
      name: "Daily overnight around the gap",
      body: {
        recur: { type: "daily", starts: shift(gap.dates[0], -5), until: shift(gap.dates[0], 5) },
        start_time: "22:00",
        end_time: "03:00",
      },
    },
    {
      name: "Daily overnight around the overlap",
      body: {
        recur: { type: "daily", starts: shift(overlap.dates[0], -5), until: shift(overlap.dates[0], 5) },
        start_time: "22:00",
        end_time: "03:00",
      },
    },

    // Weekly.
    {
      name: "Weekly on Sunday (day 0)",
      body: { recur: { type: "weekly", day: 0, starts: "2026-12-01" }, ...timed("10:00", 60) },
    },
    {
      name: "Weekly on Sunday (day 7) at the gap time",
      body: { recur: { type: "weekly", day: 7, starts: "2027-01-01", until: CORPUS_TO }, ...timed(gap.time, 45) },
      exceptions: [
        { date: "2027-01-03", change: { cancelled: true } }, // the first occurrence, DTSTART itself
        {
          date: gap.dates[1],
          change: { start_time: "23:00", end_time: "01:00", name: "Late on the gap day", category: "late" },
        },
      ],
    },
    {
      name: "Every other Sunday at the overlap time",
      body: { recur: { type: "weekly", day: 0, interval: 2, starts: overlap.dates[0] }, ...timed(overlap.time, 90) },
    },
    {
      name: "Every third Friday, all-day",
      body: { recur: { type: "weekly", day: 5, interval: 3, starts: "2027-01-01" } },
    },
    {
      name: "Saturday overnight",
      body: {
        recur: { type: "weekly", day: 6, starts: "2027-01-01", until: "2028-06-30" },
        start_time: "23:30",
        end_time: "00:15",
      },
    },
    {
      name: "Weekdays",
      body: {
        recur: { type: "weekly", day: [1, 2, 3, 4, 5], starts: "2027-01-01", until: "2027-12-31" },
        ...timed("09:30", 15),
      },
      exceptions: [
        { date: "2027-02-01", change: { cancelled: true } },
        { date: "2027-02-02", change: { date: gap.dates[0], start_time: gap.time, end_time: plus(gap.time, 30) } },
      ],
    },
    {
      name: "Weekends at the gap time",
      body: { recur: { type: "weekly", day: [6, 7], starts: "2027-01-01" }, ...timed(gap.time, 30) },
    },
    {
      name: "Tuesday and Thursday every other week, 20 times",
      body: {
        recur: { type: "weekly", day: [4, 2], interval: 2, starts: "2027-02-01", count: 20 },
        ...timed("17:00", 90),
      },
      exceptions: [{ date: "2027-02-04", change: { cancelled: true } }], // still counted (RFC 5545 COUNT)
    },
    {
      name: "Once (count 1)",
      body: { recur: { type: "weekly", day: 3, starts: "2027-06-01", count: 1 }, ...timed("10:00", 10) },
    },

    // Monthly.
    {
      name: "Monthly on the 31st",
      body: { recur: { type: "monthly", day: 31, starts: "2027-01-01" }, ...timed("18:00", 60) },
    },
    {
      name: "Monthly on the 31st, 4 times",
      body: { recur: { type: "monthly", day: 31, starts: "2027-01-01", count: 4 }, ...timed("20:00", 60) },
    },
    {
      name: "Monthly on the last day, all-day",
      body: { recur: { type: "monthly", day: -1, starts: "2027-01-01" } },
      exceptions: [
        { date: "2027-02-28", change: { cancelled: true } },
        { date: "2027-04-30", change: { date: "2027-05-02" } },
        { date: "2027-06-30", change: { start_time: "09:00", end_time: "10:00" } }, // one occurrence with a time
      ],
    },
    {
      name: "Monthly on the 30th",
      body: { recur: { type: "monthly", day: 30, starts: "2027-01-15" }, ...timed("07:00", 30) },
    },
    {
      name: "Monthly on the 29th, every 2 months",
      body: { recur: { type: "monthly", day: 29, interval: 2, starts: "2027-12-01" }, ...timed("16:00", 60) },
    },
    {
      name: "Monthly on the 29th, every 12 months",
      body: { recur: { type: "monthly", day: 29, interval: 12, starts: "2027-01-01" }, ...timed("11:11", 30) },
    },
    {
      name: "Second Tuesday",
      body: { recur: { type: "monthly", week: 2, day: 2, starts: "2027-01-01" }, ...timed("15:00", 60) },
      exceptions: [
        { date: "2027-03-09", change: { start_time: null, end_time: null, name: "Second Tuesday, all day" } },
      ],
    },
    {
      name: "Last Friday, all-day",
      body: { recur: { type: "monthly", week: -1, day: 5, starts: "2027-01-01" } },
    },
    {
      name: "Fifth Monday",
      body: { recur: { type: "monthly", week: 5, day: 1, starts: "2027-01-01" }, ...timed("18:00", 45) },
    },
    {
      name: "The gap's Sunday of every month, at the gap time",
      body: { recur: { type: "monthly", week: gap.week, day: 0, starts: "2027-01-01" }, ...timed(gap.time, 60) },
    },
    {
      name: "The overlap's Sunday of every month, at the overlap time",
      body: {
        recur: { type: "monthly", week: overlap.week, day: 7, starts: "2027-01-01" },
        ...timed(overlap.time, 60),
      },
    },
    {
      name: "Last Sunday every 3 months, 5 times",
      body: {
        recur: { type: "monthly", week: -1, day: 7, interval: 3, starts: "2027-01-01", count: 5 },
        ...timed("12:00", 60),
      },
    },

    // Yearly.
    {
      name: "Yearly on leap day",
      body: { recur: { type: "yearly", month: 2, day: 29, starts: "2024-02-29" }, ...timed("11:00", 60) },
    },
    {
      name: "Yearly on leap day, twice, all-day",
      body: { recur: { type: "yearly", month: 2, day: 29, starts: "2024-01-01", count: 2 } },
    },
    { name: "Yearly on Feb 28, all-day", body: { recur: { type: "yearly", month: 2, day: 28, starts: "2027-01-01" } } },
    {
      name: "Yearly New Year's Eve, overnight",
      body: {
        recur: { type: "yearly", month: 12, day: 31, starts: "2026-12-31" },
        start_time: "23:30",
        end_time: "00:30",
      },
    },
    {
      name: "Every other year",
      body: { recur: { type: "yearly", month: 7, day: 4, interval: 2, starts: "2026-07-04" }, ...timed("12:00", 180) },
    },
    {
      name: "Yearly on the gap day",
      body: { recur: { type: "yearly", ...monthDay(gap.dates[0]), starts: gap.dates[0] }, ...timed(gap.time, 60) },
    },
    {
      name: "Yearly on the overlap day",
      body: {
        recur: { type: "yearly", ...monthDay(overlap.dates[0]), starts: overlap.dates[0] },
        ...timed(overlap.time, 30),
      },
    },
    {
      name: "Daily through the gap, 10 times",
      body: { recur: { type: "daily", starts: shift(gap.dates[0], -3), count: 10 }, ...timed(gap.time, 30) },
      exceptions: [{ date: shift(gap.dates[0], -3), change: { cancelled: true } }],
    },
  ];
}
