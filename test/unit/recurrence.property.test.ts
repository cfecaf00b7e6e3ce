/**
 * Property tests: the fast expansion must agree with a deliberately naive reference that
 * walks day by day with JS Date (UTC) and checks each day against the rule's definition
 * (weekday sets, n-th and last weekdays of the month, `count` by counting the matching days
 * from `starts`). `toRRule` is checked separately by expanding its output with rrule-temporal,
 * an RFC 5545 library this project did not write.
 */
import fc from "fast-check";
import { RRuleTemporal } from "rrule-temporal";
import { describe, expect, it } from "vitest";
import type { Recur } from "../../functions/src/domain/types.js";
import {
  addDays,
  countOccurrences,
  daysBetween,
  expandRecurrence,
  firstOccurrenceOnOrAfter,
  lastOccurrence,
  occursBetween,
  toRRule,
} from "../../functions/src/domain/recurrence/index.js";

const DAY = 86_400_000;
const ms = (date: string) => Date.parse(`${date}T00:00:00Z`);
const iso = (t: number) => new Date(t).toISOString().slice(0, 10);

/** Monday 00:00 of t's week (getUTCDay: Sunday = 0). */
const mondayOf = (t: number) => t - ((new Date(t).getUTCDay() + 6) % 7) * DAY;

/** The rule's weekdays as getUTCDay numbers (Sunday = 0). */
const weekdaysOf = (day: Recur["day"]) => (Array.isArray(day) ? day : [day!]).map((d) => d % 7);

/** Does day t match the rule's pattern and interval (ignoring starts, until and count)? */
function refMatches(recur: Recur, defaultStarts: string, t: number): boolean {
  const s = ms(recur.starts ?? defaultStarts);
  const d = new Date(t);
  const sd = new Date(s);
  let period: number;
  switch (recur.type) {
    case "daily":
      period = Math.round((t - s) / DAY);
      break;
    case "weekly":
      if (!weekdaysOf(recur.day).includes(d.getUTCDay())) return false;
      period = Math.round((mondayOf(t) - mondayOf(s)) / (7 * DAY));
      break;
    case "monthly": {
      if (recur.week != null) {
        if (d.getUTCDay() !== (recur.day as number) % 7) return false;
        // The n-th: n-1 same weekdays before it in the month; the last: none after it.
        const nth = Math.ceil(d.getUTCDate() / 7);
        const isLast = new Date(t + 7 * DAY).getUTCMonth() !== d.getUTCMonth();
        if (recur.week === -1 ? !isLast : nth !== recur.week) return false;
      } else {
        const isLast = new Date(t + DAY).getUTCMonth() !== d.getUTCMonth();
        if (recur.day === -1 ? !isLast : d.getUTCDate() !== recur.day) return false;
      }
      period = (d.getUTCFullYear() - sd.getUTCFullYear()) * 12 + d.getUTCMonth() - sd.getUTCMonth();
      break;
    }
    case "yearly":
      if (d.getUTCMonth() + 1 !== recur.month || d.getUTCDate() !== recur.day) return false;
      period = d.getUTCFullYear() - sd.getUTCFullYear();
      break;
  }
  return period % (recur.interval ?? 1) === 0;
}

/** Every occurrence in [from, to], walking day by day from `starts` when `count` must be counted. */
function refExpand(recur: Recur, defaultStarts: string, from: string, to: string): string[] {
  const s = ms(recur.starts ?? defaultStarts);
  const end = Math.min(ms(to), recur.until !== undefined ? ms(recur.until) : Infinity);
  const out: string[] = [];
  let seen = 0;
  for (let t = recur.count !== undefined ? s : Math.max(s, ms(from)); t <= end; t += DAY) {
    if (!refMatches(recur, defaultStarts, t)) continue;
    if (recur.count !== undefined && ++seen > recur.count) break;
    if (t >= ms(from)) out.push(iso(t));
  }
  return out;
}

/** Does day t belong to the series? */
const refOccurs = (recur: Recur, defaultStarts: string, t: number) =>
  refExpand(recur, defaultStarts, iso(t), iso(t)).length === 1;

// Dates in 2023-2030.
const BASE = ms("2023-01-01");
const SPAN = Math.round((ms("2030-12-31") - BASE) / DAY);
const dateArb = fc.integer({ min: 0, max: SPAN }).map((n) => iso(BASE + n * DAY));

// Day values biased toward the edges: month ends, leap day, Sunday as 0 and 7.
const monthDayArb = fc.oneof(fc.constantFrom(-1, 1, 28, 29, 30, 31), fc.integer({ min: 1, max: 31 }));
const weekdayArb = fc.oneof(fc.constantFrom(0, 7), fc.integer({ min: 0, max: 7 }));
/** 1 to 7 distinct weekdays in any order, Sunday as 0 or 7 (never both). */
const weekdaySetArb = fc
  .tuple(fc.uniqueArray(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 7 }), fc.boolean())
  .map(([days, sundayAsZero]) => days.map((d) => (d === 7 && sundayAsZero ? 0 : d)));
const shapeArb: fc.Arbitrary<Pick<Recur, "type" | "day" | "week" | "month">> = fc.oneof(
  fc.constant({ type: "daily" as const }),
  fc.record({ type: fc.constant("weekly" as const), day: weekdayArb }),
  fc.record({ type: fc.constant("weekly" as const), day: weekdaySetArb }),
  fc.record({ type: fc.constant("monthly" as const), day: monthDayArb }),
  fc.record({
    type: fc.constant("monthly" as const),
    week: fc.oneof(fc.constantFrom(-1, 5), fc.integer({ min: 1, max: 5 })),
    day: weekdayArb,
  }),
  fc.record({
    type: fc.constant("yearly" as const),
    month: fc.oneof(fc.constant(2), fc.integer({ min: 1, max: 12 })),
    day: fc.oneof(fc.constantFrom(29, 30, 31), fc.integer({ min: 1, max: 31 })),
  }),
);

const recurArb: fc.Arbitrary<Recur> = fc
  .record({
    shape: shapeArb,
    interval: fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }),
    starts: fc.option(dateArb, { nil: undefined }),
    // A series ends by `until`, by `count`, by neither, or (as a feed clips one) by both.
    end: fc.oneof(
      fc.constant({}),
      fc.record({ until: dateArb }),
      fc.record({ count: fc.oneof(fc.constantFrom(1, 2), fc.integer({ min: 1, max: 60 })) }),
      fc.record({ until: dateArb, count: fc.integer({ min: 1, max: 60 }) }),
    ),
  })
  .map(({ shape, interval, starts, end }) => {
    // Only set keys that are present, as stored rules do.
    const r: Recur = { ...shape, ...end };
    if (interval !== undefined) r.interval = interval;
    if (starts !== undefined) r.starts = starts;
    return r;
  });

const rangeArb = fc
  .tuple(dateArb, fc.integer({ min: 0, max: 400 }))
  .map(([from, len]) => [from, addDays(from, len)] as const);

/** toRRule's rule expanded by rrule-temporal: every date from DTSTART up to `to`. */
function rruleTemporalDates(recur: Recur, defaultStarts: string, to: string): string[] {
  const { dtstart, rrule } = toRRule(recur, defaultStarts);
  if (dtstart === null) return [];
  const rule = new RRuleTemporal({ rruleString: `DTSTART;VALUE=DATE:${dtstart.replaceAll("-", "")}\nRRULE:${rrule}` });
  return rule.all((dt) => dt.toPlainDate().toString() <= to).map((dt) => dt.toPlainDate().toString());
}

describe("recurrence properties", () => {
  it("expandRecurrence equals the day-by-day reference", () => {
    fc.assert(
      fc.property(recurArb, dateArb, rangeArb, (recur, defaultStarts, [from, to]) => {
        expect(expandRecurrence(recur, defaultStarts, from, to)).toEqual(refExpand(recur, defaultStarts, from, to));
      }),
      { numRuns: 2000 },
    );
  });

  it("occursBetween is true exactly when the expansion is non-empty", () => {
    fc.assert(
      fc.property(recurArb, dateArb, rangeArb, (recur, defaultStarts, [from, to]) => {
        const any = refExpand(recur, defaultStarts, from, to).length > 0;
        expect(occursBetween(recur, defaultStarts, from, to)).toBe(any);
      }),
      { numRuns: 1000 },
    );
  });

  it("firstOccurrenceOnOrAfter is the first element of the reference expansion", () => {
    // The reference scans a bounded window; a sparse rule (yearly Feb 29 every 5 years) may
    // have its next occurrence beyond it, in which case the answer must lie beyond the window.
    const WINDOW = 3000;
    fc.assert(
      fc.property(recurArb, dateArb, dateArb, (recur, defaultStarts, date) => {
        const end = addDays(date, WINDOW);
        const ref = refExpand(recur, defaultStarts, date, end);
        const got = firstOccurrenceOnOrAfter(recur, defaultStarts, date);
        if (ref.length > 0) {
          expect(got).toBe(ref[0]);
        } else if (got !== null) {
          expect(daysBetween(end, got)).toBeGreaterThan(0);
          expect(refOccurs(recur, defaultStarts, ms(got))).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });

  it("countOccurrences is the length of the reference expansion", () => {
    fc.assert(
      fc.property(recurArb, dateArb, rangeArb, (recur, defaultStarts, [from, to]) => {
        expect(countOccurrences(recur, defaultStarts, from, to)).toBe(refExpand(recur, defaultStarts, from, to).length);
      }),
      { numRuns: 1000 },
    );
  });

  it("lastOccurrence is the last date of a finite series, null for an endless one", () => {
    // The reference walks 40 years from starts: a count that outlasts them must end beyond.
    fc.assert(
      fc.property(recurArb, dateArb, (recur, defaultStarts) => {
        const got = lastOccurrence(recur, defaultStarts);
        if (recur.until === undefined && recur.count === undefined) {
          expect(got).toBeNull();
          return;
        }
        const starts = recur.starts ?? defaultStarts;
        const horizon = addDays(starts, 40 * 366);
        const ref = refExpand(recur, defaultStarts, starts, horizon);
        const complete = recur.until !== undefined || ref.length === recur.count;
        if (complete) expect(got).toBe(ref.at(-1) ?? null);
        else if (got !== null) expect(got > horizon).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it("a far count-th occurrence (months or years that lack the day) matches a period-by-period walk", () => {
    // Reference: step through the series' months (or years) with Date.UTC, counting the ones
    // that hold the day, up to 9999-12-31. Centuries away, where the day-by-day walk cannot go.
    const holds = (recur: Recur, y: number, m: number): number | null => {
      const dim = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
      const day = recur.day as number;
      if (recur.type === "yearly") return day <= dim ? Date.UTC(y, m, day) : null;
      if (recur.week == null) return day === -1 ? Date.UTC(y, m, dim) : day <= dim ? Date.UTC(y, m, day) : null;
      const wd = day % 7;
      const sameWeekdays = [...Array(dim).keys()]
        .map((i) => Date.UTC(y, m, i + 1))
        .filter((t) => new Date(t).getUTCDay() === wd);
      return (recur.week === -1 ? sameWeekdays.at(-1) : sameWeekdays[recur.week - 1]) ?? null;
    };
    const refNth = (recur: Recur): string | null => {
      const s = new Date(ms(recur.starts!));
      let seen = 0;
      let lastSeen = "";
      for (let k = 0; ; k += recur.interval!) {
        const mi =
          recur.type === "yearly"
            ? (s.getUTCFullYear() + k) * 12 + recur.month! - 1
            : s.getUTCFullYear() * 12 + s.getUTCMonth() + k;
        const y = Math.floor(mi / 12);
        if (y > 9999) return seen > 0 ? lastSeen : null;
        const t = holds(recur, y, mi % 12);
        if (t !== null && t >= ms(recur.starts!)) {
          lastSeen = iso(t);
          if (++seen === recur.count) return lastSeen;
        }
      }
    };
    const sparseArb: fc.Arbitrary<Recur> = fc
      .record({
        shape: fc.oneof(
          fc.record({ type: fc.constant("monthly" as const), day: fc.constantFrom(29, 30, 31) }),
          fc.record({
            type: fc.constant("monthly" as const),
            week: fc.constant(5),
            day: fc.integer({ min: 0, max: 7 }),
          }),
          fc.record({ type: fc.constant("yearly" as const), month: fc.constant(2), day: fc.constant(29) }),
        ),
        interval: fc.integer({ min: 1, max: 60 }),
        starts: dateArb,
        count: fc.integer({ min: 1, max: 3000 }),
      })
      .map(({ shape, ...rest }) => ({ ...shape, ...rest }));
    fc.assert(
      fc.property(sparseArb, (recur) => {
        expect(lastOccurrence(recur, "2026-01-01")).toBe(refNth(recur));
      }),
      { numRuns: 150 },
    );
  });

  it("toRRule expanded by rrule-temporal gives the same dates as expandRecurrence", () => {
    fc.assert(
      fc.property(recurArb, dateArb, (recur, defaultStarts) => {
        const from = recur.starts ?? defaultStarts;
        const to = addDays(from, 2 * 366);
        expect(rruleTemporalDates(recur, defaultStarts, to)).toEqual(expandRecurrence(recur, defaultStarts, from, to));
      }),
      { numRuns: 300 },
    );
  });

  it("toRRule's dtstart is the first occurrence from starts", () => {
    fc.assert(
      fc.property(recurArb, dateArb, (recur, defaultStarts) => {
        const starts = recur.starts ?? defaultStarts;
        expect(toRRule(recur, defaultStarts).dtstart).toBe(firstOccurrenceOnOrAfter(recur, defaultStarts, starts));
      }),
    );
  });

  it("date arithmetic agrees with Date.UTC across four centuries", () => {
    const lo = Date.UTC(1700, 0, 1) / DAY;
    const hi = Date.UTC(2500, 0, 1) / DAY;
    fc.assert(
      fc.property(fc.integer({ min: lo, max: hi }), fc.integer({ min: -800, max: 800 }), (n, k) => {
        const a = iso(n * DAY);
        const b = addDays(a, k);
        expect(b).toBe(iso((n + k) * DAY));
        expect(daysBetween(a, b)).toBe(k);
      }),
      { numRuns: 2000 },
    );
  });
});
