/**
 * Recurrence expansion: pure functions over `Recur` rules and "YYYY-MM-DD" local dates.
 *
 * Interval semantics. Periods are days (daily), ISO weeks starting Monday (weekly),
 * calendar months (monthly) or calendar years (yearly). The period containing `starts`
 * (default: the caller's `defaultStarts`, the creation date) is period 0. A date is an
 * occurrence iff it matches the rule (one of its weekdays; its day of month, or its n-th or
 * last weekday of the month; its month and day), lies in a period whose index is a multiple
 * of `interval`, starts <= date <= until (inclusive, optional), and is at most the `count`-th
 * such date. A monthly/yearly day missing from a period (the 31st of April, Feb 29 in a
 * common year, a fifth Tuesday) is skipped, not moved. This is RFC 5545 with WKST=MO and
 * DTSTART = the first occurrence, which is what `toRRule` emits.
 *
 * All arithmetic is on integer day numbers; loops jump from candidate to candidate and are
 * bounded (no day-by-day scans). rule.ts turns a `Recur` into that arithmetic.
 */
import type { Recur } from "../types.js";
import { dayNumber, fromDayNumber } from "./dates.js";
import {
  ceilMultiple,
  inPeriod,
  maxPeriodSteps,
  mondayOf,
  periodOf,
  progressions,
  recurError,
  toRule,
  type Rule,
} from "./rule.js";

export * from "./dates.js";
export { recurError };

const BYDAY = ["", "MO", "TU", "WE", "TH", "FR", "SA", "SU"];

/** First occurrence on or after day n, ignoring `until`; NaN if none ever. */
function nextOnOrAfter(r: Rule, n: number): number {
  const lo = Math.max(n, r.start);
  if (r.type === "daily" || r.type === "weekly") {
    return Math.min(...progressions(r).map(({ first, step }) => first + ceilMultiple(lo - first, step)));
  }
  const p0 = periodOf(r, r.start);
  let p = p0 + ceilMultiple(periodOf(r, lo) - p0, r.interval);
  for (let i = 0, steps = maxPeriodSteps(r); i < steps; i++, p += r.interval) {
    const c = inPeriod(r, p);
    if (c >= lo) return c; // NaN compares false
  }
  return NaN;
}

/** Occurrences (formatted) in [lo, hi], both day numbers already clamped to [start, until]. */
function expandRule(r: Rule, lo: number, hi: number): string[] {
  const out: string[] = [];
  if (lo > hi) return out;
  switch (r.type) {
    case "daily": {
      const [{ first, step }] = progressions(r);
      for (let c = first + ceilMultiple(lo - first, step); c <= hi; c += step) out.push(fromDayNumber(c));
      return out;
    }
    case "weekly": {
      // Week by week (only the weeks of the series), each week's weekdays in order.
      const step = 7 * r.interval;
      const monday0 = mondayOf(r.start);
      for (let monday = monday0 + ceilMultiple(mondayOf(lo) - monday0, step); monday <= hi; monday += step) {
        for (const d of r.weekdays) {
          const c = monday + d - 1;
          if (c >= lo && c <= hi) out.push(fromDayNumber(c));
        }
      }
      return out;
    }
    case "monthly":
    case "yearly": {
      const p0 = periodOf(r, r.start);
      const last = periodOf(r, hi);
      for (let p = p0 + ceilMultiple(periodOf(r, lo) - p0, r.interval); p <= last; p += r.interval) {
        const c = inPeriod(r, p);
        if (c >= lo && c <= hi) out.push(fromDayNumber(c)); // NaN (no such day this period) fails both
      }
      return out;
    }
  }
}

/**
 * Every occurrence date in [from, to] (inclusive), ascending.
 * Throws RangeError for an invalid rule or date.
 */
export function expandRecurrence(recur: Recur, defaultStarts: string, from: string, to: string): string[] {
  const r = toRule(recur, defaultStarts);
  return expandRule(r, Math.max(dayNumber(from), r.start), Math.min(dayNumber(to), r.until));
}

/** The first occurrence on or after `date` (within `until` and `count`), or null if there is none. */
export function firstOccurrenceOnOrAfter(recur: Recur, defaultStarts: string, date: string): string | null {
  const r = toRule(recur, defaultStarts);
  const c = nextOnOrAfter(r, dayNumber(date));
  return c <= r.until ? fromDayNumber(c) : null; // NaN <= x is false
}

/**
 * The last occurrence of a finite series (ended by `until` or `count`), null when the series
 * runs on to 9999-12-31 or never occurs.
 */
export function lastOccurrence(recur: Recur, defaultStarts: string): string | null {
  if (recur.until == null && recur.count == null) return null;
  const r = toRule(recur, defaultStarts);
  if (r.type === "daily" || r.type === "weekly") {
    // The latest term of each progression that is <= until.
    let last = -Infinity;
    for (const { first, step } of progressions(r)) {
      if (first <= r.until) last = Math.max(last, first + Math.floor((r.until - first) / step) * step);
    }
    return last >= r.start ? fromDayNumber(last) : null;
  }
  const p0 = periodOf(r, r.start);
  let p = p0 + Math.floor((periodOf(r, r.until) - p0) / r.interval) * r.interval;
  for (let i = 0, steps = maxPeriodSteps(r); i < steps && p >= p0; i++, p -= r.interval) {
    const c = inPeriod(r, p);
    if (c >= r.start && c <= r.until) return fromDayNumber(c);
  }
  return null;
}

/**
 * How many occurrences fall in [from, to] (inclusive): arithmetic for daily and weekly series,
 * so a page can count what it does not draw without listing it.
 */
export function countOccurrences(recur: Recur, defaultStarts: string, from: string, to: string): number {
  const r = toRule(recur, defaultStarts);
  const lo = Math.max(dayNumber(from), r.start);
  const hi = Math.min(dayNumber(to), r.until);
  if (lo > hi) return 0;
  if (r.type === "daily" || r.type === "weekly") {
    let n = 0;
    for (const { first, step } of progressions(r)) {
      const c = first + ceilMultiple(lo - first, step);
      if (c <= hi) n += Math.floor((hi - c) / step) + 1;
    }
    return n;
  }
  return expandRule(r, lo, hi).length; // at most one a month
}

/** Whether the series has at least one occurrence in [from, to]. */
export function occursBetween(recur: Recur, defaultStarts: string, from: string, to: string): boolean {
  const r = toRule(recur, defaultStarts);
  const c = nextOnOrAfter(r, dayNumber(from));
  return c <= dayNumber(to) && c <= r.until;
}

/**
 * RFC 5545 form of a rule: the RRULE value (no "RRULE:" prefix) and the DTSTART date, which is
 * the first occurrence (null when the series is empty). UNTIL is a DATE (YYYYMMDD); callers
 * with timed events must adjust it to a DATE-TIME. COUNT counts from that DTSTART. A rule
 * with both `count` and `until` (a caller clipping a series to a range) is written with UNTIL
 * only, set to its real last occurrence, since RFC 5545 allows one of them and a clipped
 * feed may move DTSTART.
 */
export function toRRule(recur: Recur, defaultStarts: string): { dtstart: string | null; rrule: string } {
  const r = toRule(recur, defaultStarts);
  const parts = [`FREQ=${r.type.toUpperCase()}`];
  if (r.interval !== 1) parts.push(`INTERVAL=${r.interval}`);
  if (r.type === "weekly") parts.push(`BYDAY=${r.weekdays.map((d) => BYDAY[d]).join(",")}`, "WKST=MO");
  if (r.type === "monthly") parts.push(r.week === 0 ? `BYMONTHDAY=${r.day}` : `BYDAY=${r.week}${BYDAY[r.day]}`);
  if (r.type === "yearly") parts.push(`BYMONTH=${r.month}`, `BYMONTHDAY=${r.day}`);
  if (recur.count != null && recur.until == null) parts.push(`COUNT=${recur.count}`);
  else if (recur.until != null) {
    const until = recur.count != null ? (lastOccurrence(recur, defaultStarts) ?? recur.until) : recur.until;
    parts.push(`UNTIL=${until.replaceAll("-", "")}`);
  }
  const first = nextOnOrAfter(r, r.start);
  return { dtstart: first <= r.until ? fromDayNumber(first) : null, rrule: parts.join(";") };
}
