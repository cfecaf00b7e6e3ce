/**
 * Which lens a page shows and which stretch of time it covers. Pure functions on
 * "YYYY-MM-DD" dates, so the loader and the renderers agree on the same period.
 */
import { addDays, daysInMonth, formatDate, isoWeekday, isValidDate } from "../domain/recurrence/index.js";
import { LENSES, type Lens } from "../domain/types.js";
import { dateRange, monthYear, shortMonthYear } from "./format.js";

export interface Period {
  /** First and last date whose occurrences the page shows (inclusive). */
  from: string;
  to: string;
  /** Heading of the period, e.g. "November 2026". */
  label: string;
  /** The `date` of the previous and next period, or null at the edge of the supported range. */
  prev: string | null;
  next: string | null;
}

export const SCHEDULE_DAYS = 28;
export const TIMELINE_MONTHS = 3;

// Pages cover the years 1900..2199: beyond, dates are more likely typos than plans.
const MIN_DATE = "1900-01-01";
const MAX_DATE = "2199-12-31";
const inRange = (date: string): boolean => date >= MIN_DATE && date <= MAX_DATE;

/** `?date=` if it is a real date in range, else `today`. */
export function pageDate(requested: unknown, today: string): string {
  return typeof requested === "string" && isValidDate(requested) && inRange(requested) ? requested : today;
}

/** The lenses a page allows, in the canonical order (null or empty: all). */
export function allowedLenses(views: readonly Lens[] | null | undefined): Lens[] {
  if (!views || views.length === 0) return [...LENSES];
  return LENSES.filter((lens) => views.includes(lens));
}

/** `?view=` when allowed, else the default view when allowed, else the first allowed lens. */
export function chooseLens(requested: unknown, allowed: readonly Lens[], defaultView: Lens | null | undefined): Lens {
  if (typeof requested === "string" && (allowed as readonly string[]).includes(requested)) return requested as Lens;
  if (defaultView && allowed.includes(defaultView)) return defaultView;
  return allowed[0];
}

export const startOfWeek = (date: string): string => addDays(date, 1 - isoWeekday(date));
export const startOfMonth = (date: string): string => `${date.slice(0, 8)}01`;

/** The 1st of the month `n` months after the month of `date` (n may be negative). */
export function addMonths(date: string, n: number): string {
  const index = +date.slice(0, 4) * 12 + (+date.slice(5, 7) - 1) + n;
  return formatDate(Math.floor(index / 12), (index % 12) + 1, 1);
}

export const endOfMonth = (date: string): string =>
  formatDate(+date.slice(0, 4), +date.slice(5, 7), daysInMonth(+date.slice(0, 4), +date.slice(5, 7)));

const edge = (date: string): string | null => (inRange(date) ? date : null);

export function periodFor(lens: Lens, date: string): Period {
  switch (lens) {
    case "month": {
      // Whole weeks around the month, so the grid's leading and trailing days show their events.
      const first = startOfMonth(date);
      return {
        from: startOfWeek(first),
        to: addDays(startOfWeek(endOfMonth(date)), 6),
        label: monthYear(date),
        prev: edge(addMonths(date, -1)),
        next: edge(addMonths(date, 1)),
      };
    }
    case "week": {
      const from = startOfWeek(date);
      const to = addDays(from, 6);
      return { from, to, label: dateRange(from, to), prev: edge(addDays(from, -7)), next: edge(addDays(from, 7)) };
    }
    case "schedule": {
      const to = addDays(date, SCHEDULE_DAYS - 1);
      return {
        from: date,
        to,
        label: dateRange(date, to),
        prev: edge(addDays(date, -SCHEDULE_DAYS)),
        next: edge(addDays(date, SCHEDULE_DAYS)),
      };
    }
    case "timeline": {
      const from = startOfMonth(date);
      const to = endOfMonth(addMonths(date, TIMELINE_MONTHS - 1));
      return {
        from,
        to,
        label: `${shortMonthYear(from)} – ${shortMonthYear(to)}`,
        prev: edge(addMonths(date, -TIMELINE_MONTHS)),
        next: edge(addMonths(date, TIMELINE_MONTHS)),
      };
    }
  }
}
