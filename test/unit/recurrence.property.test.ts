/**
 * Property tests: the fast expansion must agree with a deliberately naive reference that
 * walks day by day with JS Date (UTC) and checks each day against the rule's definition.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Recur } from "../../functions/src/domain/types.js";
import {
  addDays,
  daysBetween,
  expandRecurrence,
  firstOccurrenceOnOrAfter,
  occursBetween,
  toRRule,
} from "../../functions/src/domain/recurrence/index.js";

const DAY = 86_400_000;
const ms = (date: string) => Date.parse(`${date}T00:00:00Z`);
const iso = (t: number) => new Date(t).toISOString().slice(0, 10);

/** Monday 00:00 of t's week (getUTCDay: Sunday = 0). */
const mondayOf = (t: number) => t - ((new Date(t).getUTCDay() + 6) % 7) * DAY;

/** Reference: does `date` (ms) belong to the series? Straight from the definition. */
function refOccurs(recur: Recur, defaultStarts: string, t: number): boolean {
  const s = ms(recur.starts ?? defaultStarts);
  if (t < s) return false;
  if (recur.until !== undefined && t > ms(recur.until)) return false;
  const d = new Date(t);
  const sd = new Date(s);
  let period: number;
  switch (recur.type) {
    case "daily":
      period = Math.round((t - s) / DAY);
      break;
    case "weekly":
      if (d.getUTCDay() !== recur.day! % 7) return false;
      period = Math.round((mondayOf(t) - mondayOf(s)) / (7 * DAY));
      break;
    case "monthly": {
      const isLast = new Date(t + DAY).getUTCMonth() !== d.getUTCMonth();
      if (recur.day === -1 ? !isLast : d.getUTCDate() !== recur.day) return false;
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

function refExpand(recur: Recur, defaultStarts: string, from: string, to: string): string[] {
  const out: string[] = [];
  for (let t = ms(from); t <= ms(to); t += DAY) if (refOccurs(recur, defaultStarts, t)) out.push(iso(t));
  return out;
}

// Dates in 2023-2030.
const BASE = ms("2023-01-01");
const SPAN = Math.round((ms("2030-12-31") - BASE) / DAY);
const dateArb = fc.integer({ min: 0, max: SPAN }).map((n) => iso(BASE + n * DAY));

// Day values biased toward the edges: month ends, leap day, Sunday as 0 and 7.
const monthDayArb = fc.oneof(fc.constantFrom(-1, 1, 28, 29, 30, 31), fc.integer({ min: 1, max: 31 }));
const shapeArb: fc.Arbitrary<Pick<Recur, "type" | "day" | "month">> = fc.oneof(
  fc.constant({ type: "daily" as const }),
  fc.record({
    type: fc.constant("weekly" as const),
    day: fc.oneof(fc.constantFrom(0, 7), fc.integer({ min: 0, max: 7 })),
  }),
  fc.record({ type: fc.constant("monthly" as const), day: monthDayArb }),
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
    until: fc.option(dateArb, { nil: undefined }),
  })
  .map(({ shape, interval, starts, until }) => {
    // Only set keys that are present, as stored rules do.
    const r: Recur = { ...shape };
    if (interval !== undefined) r.interval = interval;
    if (starts !== undefined) r.starts = starts;
    if (until !== undefined) r.until = until;
    return r;
  });

const rangeArb = fc
  .tuple(dateArb, fc.integer({ min: 0, max: 400 }))
  .map(([from, len]) => [from, addDays(from, len)] as const);

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
