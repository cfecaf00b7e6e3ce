/**
 * A `Recur` checked and turned into integer arithmetic: the `Rule` that index.ts expands.
 *
 * Periods are days (daily), ISO weeks starting Monday (weekly), calendar months (monthly) or
 * calendar years (yearly), numbered from the period that contains `starts` (period 0). Each
 * period of a rule holds at most one occurrence, except weekly periods, which hold one per
 * weekday of the rule. `count` is turned into the date of the count-th occurrence, so every
 * function only ever compares against one inclusive `until`.
 */
import type { Recur, RecurType } from "../types.js";
import {
  civilFromDays,
  dayNumber,
  daysFromCivil,
  daysInMonth,
  isoWeekdayOfDay,
  isValidDate,
  LAST_DATE,
} from "./dates.js";

/** A rule with defaults applied and dates as day numbers. */
export interface Rule {
  type: RecurType;
  /** weekly: the ISO weekdays (1..7) of the rule, ascending and distinct. */
  weekdays: number[];
  /** monthly: day of month 1..31 or -1 (last), or with `week` an ISO weekday 1..7; yearly: day of month. */
  day: number;
  /** monthly by position: 1..5, or -1 for the last; 0 when the rule is by day of month. */
  week: number;
  month: number;
  interval: number;
  start: number;
  /** Inclusive: the earliest of `until`, the count-th occurrence and 9999-12-31. */
  until: number;
}

export const LAST_DAY = dayNumber(LAST_DATE);

// The Gregorian calendar repeats every 400 years (4800 months): a month/year sequence that
// has found no valid date in that many steps never will (e.g. the 31st, every 12 months, from April).
export const MAX_MONTH_STEPS = 4800;
export const MAX_YEAR_STEPS = 400;

const isInt = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v);
const isWeekday = (v: unknown): v is number => isInt(v) && v >= 0 && v <= 7;
/** 0 and 7 are both Sunday (as in cron); the arithmetic uses 7. */
const isoDay = (d: number) => (d === 0 ? 7 : d);

function weeklyDayError(day: unknown): string | null {
  const single = "weekly day must be 0..7 (Monday = 1; 0 and 7 are Sunday) or a list of them, e.g. [1,2,3,4,5]";
  if (!Array.isArray(day)) return isWeekday(day) ? null : single;
  if (day.length < 1 || day.length > 7 || !day.every(isWeekday)) {
    return "weekly day list must hold 1 to 7 weekdays 0..7 (Monday = 1; 0 and 7 are Sunday), e.g. [1,2,3,4,5]";
  }
  const distinct = new Set(day.map(isoDay));
  return distinct.size === day.length ? null : "weekly day list must name each weekday once (0 and 7 are both Sunday)";
}

function monthlyError(day: unknown, week: unknown): string | null {
  if (week == null) {
    return isInt(day) && ((day >= 1 && day <= 31) || day === -1) ? null : "monthly day must be 1..31 or -1 (last day)";
  }
  if (!(isInt(week) && ((week >= 1 && week <= 5) || week === -1))) {
    return "monthly week must be 1..5 or -1 (the last), e.g. week 2 and day 2 is the second Tuesday";
  }
  return isWeekday(day) ? null : "monthly day must be a weekday 0..7 (Monday = 1; 0 and 7 are Sunday) with a week";
}

/**
 * Why a rule is structurally invalid, or null if it is fine. (A valid rule may still have no
 * occurrences, e.g. yearly Feb 30 or until < starts.) `count` together with `until` is valid
 * here (the series ends at whichever comes first, as feeds clip a series to a range); the API
 * refuses it on input (events/rules.ts).
 */
export function recurError(recur: Recur): string | null {
  const { type, day, week, month, interval, starts, until, count } = recur;
  // null is treated as absent, like undefined (stored documents may carry explicit nulls).
  if (interval != null && !(isInt(interval) && interval >= 1)) return "interval must be an integer >= 1";
  if (count != null && !(isInt(count) && count >= 1)) return "count must be an integer >= 1";
  if (starts != null && !isValidDate(starts)) return "starts must be a YYYY-MM-DD date";
  if (until != null && !isValidDate(until)) return "until must be a YYYY-MM-DD date";
  if (type !== "yearly" && month != null) return `${type} takes no month`;
  if (type !== "monthly" && week != null) return `${type} takes no week (week is for monthly rules: the n-th weekday)`;
  if (type !== "weekly" && Array.isArray(day)) return `${type} day must be one number, not a list`;
  switch (type) {
    case "daily":
      return day == null ? null : "daily takes no day";
    case "weekly":
      return weeklyDayError(day);
    case "monthly":
      return monthlyError(day, week);
    case "yearly":
      if (!(isInt(month) && month >= 1 && month <= 12)) return "yearly month must be 1..12";
      return isInt(day) && day >= 1 && day <= 31 ? null : "yearly day must be 1..31";
    default:
      return "type must be daily, weekly, monthly or yearly";
  }
}

/** Monday of the ISO week of day n. */
export const mondayOf = (n: number): number => n - (isoWeekdayOfDay(n) - 1);

export function monthIndexOf(n: number): number {
  const [y, m] = civilFromDays(n);
  return y * 12 + m - 1;
}

export const yearOf = (n: number): number => civilFromDays(n)[0];

/** Smallest multiple of `step` that is >= x (x may be negative: then 0). */
export function ceilMultiple(x: number, step: number): number {
  return x <= 0 ? 0 : Math.ceil(x / step) * step;
}

/** Day number of the occurrence in month `mi` (year*12 + month-1), or NaN if that month has none. */
export function dayInMonth(r: Rule, mi: number): number {
  const y = Math.floor(mi / 12);
  const m = mi - y * 12 + 1;
  const dim = daysInMonth(y, m);
  if (r.week === 0) {
    if (r.day === -1) return daysFromCivil(y, m, dim);
    return r.day <= dim ? daysFromCivil(y, m, r.day) : NaN;
  }
  if (r.week === -1) {
    const last = daysFromCivil(y, m, dim);
    return last - ((isoWeekdayOfDay(last) - r.day + 7) % 7);
  }
  const first = daysFromCivil(y, m, 1);
  const nth = first + ((r.day - isoWeekdayOfDay(first) + 7) % 7) + 7 * (r.week - 1);
  return nth < first + dim ? nth : NaN; // a fifth weekday exists in some months only
}

/** Day number of the occurrence in year y, or NaN (Feb 29 outside leap years, Feb 30). */
export function dayInYear(r: Rule, y: number): number {
  return r.day <= daysInMonth(y, r.month) ? daysFromCivil(y, r.month, r.day) : NaN;
}

/** The occurrence in period p (a month index or a year) of a monthly or yearly rule, or NaN. */
export const inPeriod = (r: Rule, p: number): number => (r.type === "monthly" ? dayInMonth(r, p) : dayInYear(r, p));
export const periodOf = (r: Rule, n: number): number => (r.type === "monthly" ? monthIndexOf(n) : yearOf(n));
export const maxPeriodSteps = (r: Rule): number => (r.type === "monthly" ? MAX_MONTH_STEPS : MAX_YEAR_STEPS);

/** Whether every month (or year) holds the rule's day, so the n-th occurrence is plain arithmetic. */
function everyPeriodOccurs(r: Rule): boolean {
  if (r.type === "monthly") return r.week === 0 ? r.day === -1 || r.day <= 28 : r.week <= 4;
  return r.day <= (r.month === 2 ? 28 : daysInMonth(2001, r.month));
}

/** Daily and weekly occurrences as arithmetic progressions: one per weekday, step in days. */
export function progressions(r: Rule): { first: number; step: number }[] {
  if (r.type === "daily") return [{ first: r.start, step: r.interval }];
  const step = 7 * r.interval;
  const monday0 = mondayOf(r.start);
  return r.weekdays.map((d) => {
    const inWeek0 = monday0 + d - 1;
    return { first: inWeek0 >= r.start ? inWeek0 : inWeek0 + step, step };
  });
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/**
 * After how many periods a monthly or yearly rule's pattern repeats: 400 Gregorian years are
 * 4800 months and 146,097 days (whole weeks), so month lengths, leap days and weekdays repeat.
 */
function cyclePeriods(r: Rule): number {
  const base = r.type === "monthly" ? MAX_MONTH_STEPS : MAX_YEAR_STEPS;
  return base / gcd(base, r.interval);
}

/**
 * Day number of the n-th occurrence (n >= 1) from `start`, ignoring `until` and 9999-12-31;
 * Infinity if the series never occurs. Arithmetic for daily and weekly rules and for months
 * and years that always hold the day; otherwise at most two 400-year cycles of periods are
 * walked (one to count a cycle's occurrences, one to place the remainder), whatever `n` is.
 */
function nthOccurrence(r: Rule, n: number): number {
  switch (r.type) {
    case "daily":
      return r.start + (n - 1) * r.interval;
    case "weekly": {
      const monday0 = mondayOf(r.start);
      const inWeek0 = r.weekdays.filter((d) => monday0 + d - 1 >= r.start);
      if (n <= inWeek0.length) return monday0 + inWeek0[n - 1] - 1;
      const rest = n - inWeek0.length; // counted over the following periods, k a period
      const k = r.weekdays.length;
      const period = Math.ceil(rest / k);
      return monday0 + 7 * r.interval * period + r.weekdays[(rest - 1) % k] - 1;
    }
    case "monthly":
    case "yearly": {
      const p0 = periodOf(r, r.start);
      /** The occurrence in the j-th period of the series (NaN when that period lacks the day). */
      const at = (j: number) => inPeriod(r, p0 + j * r.interval);
      const inFirst = at(0) >= r.start ? 1 : 0; // period 0 may hold a date before `start`
      if (n <= inFirst) return at(0);
      if (everyPeriodOccurs(r)) return at(n - inFirst);
      // Periods 1, 2, ... repeat every `cycle` of them: count one cycle, then jump whole ones.
      const m = n - inFirst;
      const cycle = cyclePeriods(r);
      let perCycle = 0;
      for (let j = 1; j <= cycle; j++) if (!Number.isNaN(at(j)) && ++perCycle === m) return at(j);
      if (perCycle === 0) return Infinity;
      const skipped = Math.floor((m - 1) / perCycle); // whole cycles before the one that holds it
      let rest = m - skipped * perCycle;
      for (let j = 1; j <= cycle; j++) if (!Number.isNaN(at(j)) && --rest === 0) return at(skipped * cycle + j);
      return Infinity; // unreachable: the cycle holds perCycle >= rest occurrences
    }
  }
}

// The count-th occurrence of a monthly or yearly rule may take up to 9,600 steps to find:
// remember the answers (pure, so a cache cannot change a result; cleared when full).
const nthCache = new Map<string, number>();
const NTH_CACHE_SIZE = 10_000;

function cachedNth(r: Rule, n: number): number {
  if (r.type === "daily" || r.type === "weekly") return nthOccurrence(r, n);
  const key = `${r.type}|${r.day}|${r.week}|${r.month}|${r.interval}|${r.start}|${n}`;
  let last = nthCache.get(key);
  if (last === undefined) {
    if (nthCache.size >= NTH_CACHE_SIZE) nthCache.clear();
    last = nthOccurrence(r, n);
    nthCache.set(key, last);
  }
  return last;
}

/** Checks the rule (RangeError if invalid) and applies the defaults. */
export function toRule(recur: Recur, defaultStarts: string): Rule {
  const err = recurError(recur);
  if (err) throw new RangeError(`invalid recur: ${err}`);
  const days = Array.isArray(recur.day) ? recur.day : recur.day == null ? [] : [recur.day];
  const weekly = recur.type === "weekly";
  const r: Rule = {
    type: recur.type,
    weekdays: weekly ? days.map(isoDay).sort((a, b) => a - b) : [],
    day: weekly ? 0 : recur.week != null ? isoDay(days[0] ?? 0) : (days[0] ?? 0),
    week: recur.week ?? 0,
    month: recur.month ?? 0,
    interval: recur.interval ?? 1,
    start: dayNumber(recur.starts ?? defaultStarts),
    // No date after 9999-12-31 exists for the API: every series ends there at the latest.
    until: Math.min(recur.until == null ? Infinity : dayNumber(recur.until), LAST_DAY),
  };
  if (recur.count != null) r.until = Math.min(r.until, cachedNth(r, recur.count));
  return r;
}
