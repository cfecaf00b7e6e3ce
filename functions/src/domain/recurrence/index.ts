/**
 * Recurrence expansion: pure functions over `Recur` rules and "YYYY-MM-DD" local dates.
 *
 * Interval semantics. Periods are days (daily), ISO weeks starting Monday (weekly),
 * calendar months (monthly) or calendar years (yearly). The period containing `starts`
 * (default: the caller's `defaultStarts`, the creation date) is period 0. A date is an
 * occurrence iff it matches the rule's day (and month), lies in a period whose index is a
 * multiple of `interval`, and starts <= date <= until (until inclusive, optional).
 * A monthly/yearly day missing from a period (e.g. the 31st of April, Feb 29 in a common
 * year) is skipped, not moved. This is RFC 5545 with WKST=MO and DTSTART = the first
 * occurrence, which is what `toRRule` emits.
 *
 * All arithmetic is on integer day numbers; loops jump from candidate to candidate and are
 * bounded (no day-by-day scans).
 */
import type { Recur, RecurType } from "../types.js";
import {
  civilFromDays,
  dayNumber,
  daysFromCivil,
  daysInMonth,
  formatDate,
  fromDayNumber,
  isoWeekdayOfDay,
  isValidDate,
  LAST_DATE,
} from "./dates.js";

export * from "./dates.js";

/** A rule with defaults applied and dates as day numbers. */
interface Rule {
  type: RecurType;
  day: number;
  month: number;
  interval: number;
  start: number;
  /** Inclusive; 9999-12-31 when the series has no end. */
  until: number;
}

// The Gregorian calendar repeats every 400 years (4800 months): a month/year sequence that
// has found no valid date in that many steps never will (e.g. the 31st, every 12 months, from April).
const MAX_MONTH_STEPS = 4800;
const MAX_YEAR_STEPS = 400;

const BYDAY = ["", "MO", "TU", "WE", "TH", "FR", "SA", "SU"];

const LAST_DAY = dayNumber(LAST_DATE);

const isInt = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v);

/**
 * Why a rule is structurally invalid, or null if it is fine. (A valid rule may still have no
 * occurrences, e.g. yearly Feb 30 or until < starts.)
 */
export function recurError(recur: Recur): string | null {
  const { type, day, month, interval, starts, until } = recur;
  // null is treated as absent, like undefined (stored documents may carry explicit nulls).
  if (interval != null && !(isInt(interval) && interval >= 1)) return "interval must be an integer >= 1";
  if (starts != null && !isValidDate(starts)) return "starts must be a YYYY-MM-DD date";
  if (until != null && !isValidDate(until)) return "until must be a YYYY-MM-DD date";
  if (type !== "yearly" && month != null) return `${type} takes no month`;
  switch (type) {
    case "daily":
      return day == null ? null : "daily takes no day";
    case "weekly":
      return isInt(day) && day >= 0 && day <= 7 ? null : "weekly day must be 0..7 (Monday = 1; 0 and 7 are Sunday)";
    case "monthly":
      return isInt(day) && ((day >= 1 && day <= 31) || day === -1)
        ? null
        : "monthly day must be 1..31 or -1 (last day)";
    case "yearly":
      if (!(isInt(month) && month >= 1 && month <= 12)) return "yearly month must be 1..12";
      return isInt(day) && day >= 1 && day <= 31 ? null : "yearly day must be 1..31";
    default:
      return "type must be daily, weekly, monthly or yearly";
  }
}

function toRule(recur: Recur, defaultStarts: string): Rule {
  const err = recurError(recur);
  if (err) throw new RangeError(`invalid recur: ${err}`);
  let day = recur.day ?? 0;
  if (recur.type === "weekly" && day === 0) day = 7; // 0 and 7 are both Sunday
  return {
    type: recur.type,
    day,
    month: recur.month ?? 0,
    interval: recur.interval ?? 1,
    start: dayNumber(recur.starts ?? defaultStarts),
    // No date after 9999-12-31 exists for the API: every series ends there at the latest.
    until: Math.min(recur.until == null ? Infinity : dayNumber(recur.until), LAST_DAY),
  };
}

/** Daily and weekly series are arithmetic progressions: first occurrence and step, in days. */
function progression(r: Rule): { first: number; step: number } {
  if (r.type === "daily") return { first: r.start, step: r.interval };
  const step = 7 * r.interval;
  const inWeek0 = r.start - (isoWeekdayOfDay(r.start) - 1) + (r.day - 1); // the weekday in starts' week
  return { first: inWeek0 >= r.start ? inWeek0 : inWeek0 + step, step };
}

/** Day number of the occurrence in month `mi` (year*12 + month-1), or NaN if that month lacks the day. */
function dayInMonth(r: Rule, mi: number): number {
  const y = Math.floor(mi / 12);
  const m = mi - y * 12 + 1;
  const dim = daysInMonth(y, m);
  if (r.day === -1) return daysFromCivil(y, m, dim);
  return r.day <= dim ? daysFromCivil(y, m, r.day) : NaN;
}

function monthIndexOf(n: number): number {
  const [y, m] = civilFromDays(n);
  return y * 12 + m - 1;
}

/** Smallest multiple of `step` that is >= x (x may be negative: then 0). */
function ceilMultiple(x: number, step: number): number {
  return x <= 0 ? 0 : Math.ceil(x / step) * step;
}

/** First occurrence on or after day n, ignoring `until`; NaN if none ever. */
function nextOnOrAfter(r: Rule, n: number): number {
  const lo = Math.max(n, r.start);
  switch (r.type) {
    case "daily":
    case "weekly": {
      const { first, step } = progression(r);
      return first + ceilMultiple(lo - first, step);
    }
    case "monthly": {
      const m0 = monthIndexOf(r.start);
      let mi = m0 + ceilMultiple(monthIndexOf(lo) - m0, r.interval);
      for (let i = 0; i < MAX_MONTH_STEPS; i++, mi += r.interval) {
        const c = dayInMonth(r, mi);
        if (c >= lo) return c; // NaN compares false
      }
      return NaN;
    }
    case "yearly": {
      const y0 = civilFromDays(r.start)[0];
      let y = y0 + ceilMultiple(civilFromDays(lo)[0] - y0, r.interval);
      for (let i = 0; i < MAX_YEAR_STEPS; i++, y += r.interval) {
        const c = r.day <= daysInMonth(y, r.month) ? daysFromCivil(y, r.month, r.day) : NaN;
        if (c >= lo) return c;
      }
      return NaN;
    }
  }
}

/** Occurrences (formatted) in [lo, hi], both day numbers already clamped to [start, until]. */
function expandRule(r: Rule, lo: number, hi: number): string[] {
  const out: string[] = [];
  if (lo > hi) return out;
  switch (r.type) {
    case "daily":
    case "weekly": {
      const { first, step } = progression(r);
      for (let c = first + ceilMultiple(lo - first, step); c <= hi; c += step) out.push(fromDayNumber(c));
      return out;
    }
    case "monthly": {
      const m0 = monthIndexOf(r.start);
      const last = monthIndexOf(hi);
      for (let mi = m0 + ceilMultiple(monthIndexOf(lo) - m0, r.interval); mi <= last; mi += r.interval) {
        const y = Math.floor(mi / 12);
        const m = mi - y * 12 + 1;
        const dim = daysInMonth(y, m);
        const d = r.day === -1 ? dim : r.day;
        if (d > dim) continue; // month lacks that day: skipped, as RFC 5545
        const c = daysFromCivil(y, m, d);
        if (c >= lo && c <= hi) out.push(formatDate(y, m, d));
      }
      return out;
    }
    case "yearly": {
      const y0 = civilFromDays(r.start)[0];
      const last = civilFromDays(hi)[0];
      for (let y = y0 + ceilMultiple(civilFromDays(lo)[0] - y0, r.interval); y <= last; y += r.interval) {
        if (r.day > daysInMonth(y, r.month)) continue; // Feb 29 outside leap years
        const c = daysFromCivil(y, r.month, r.day);
        if (c >= lo && c <= hi) out.push(formatDate(y, r.month, r.day));
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

/** The first occurrence on or after `date` (within `until`), or null if there is none. */
export function firstOccurrenceOnOrAfter(recur: Recur, defaultStarts: string, date: string): string | null {
  const r = toRule(recur, defaultStarts);
  const c = nextOnOrAfter(r, dayNumber(date));
  return c <= r.until ? fromDayNumber(c) : null; // NaN <= x is false
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
    const { first, step } = progression(r);
    const c = first + ceilMultiple(lo - first, step);
    return c > hi ? 0 : Math.floor((hi - c) / step) + 1;
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
 * with timed events must adjust it to a DATE-TIME.
 */
export function toRRule(recur: Recur, defaultStarts: string): { dtstart: string | null; rrule: string } {
  const r = toRule(recur, defaultStarts);
  const parts = [`FREQ=${r.type.toUpperCase()}`];
  if (r.interval !== 1) parts.push(`INTERVAL=${r.interval}`);
  if (r.type === "weekly") parts.push(`BYDAY=${BYDAY[r.day]}`, "WKST=MO");
  if (r.type === "monthly") parts.push(`BYMONTHDAY=${r.day}`);
  if (r.type === "yearly") parts.push(`BYMONTH=${r.month}`, `BYMONTHDAY=${r.day}`);
  if (recur.until != null) parts.push(`UNTIL=${recur.until.replaceAll("-", "")}`);
  const first = nextOnOrAfter(r, r.start);
  return { dtstart: first <= r.until ? fromDayNumber(first) : null, rrule: parts.join(";") };
}
