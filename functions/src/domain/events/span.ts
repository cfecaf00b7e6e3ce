/**
 * The days an occurrence covers (docs/api.md#days): `days` consecutive dates from its `date`.
 * All-day, the dates `date` .. `date + days - 1`; timed, from `start_time` on `date` to
 * `end_time` on its last date (with one day, an `end_time` before `start_time` ends the next
 * day). A date range holds an occurrence when one of its days is in the range.
 */
import { dayNumber, FIRST_DATE, fromDayNumber, LAST_DATE } from "../recurrence/index.js";
import { durationMinutes } from "./instants.js";

/** Longest span: a year, leap day included. */
export const MAX_EVENT_DAYS = 366;

/** Events and exceptions written before spans store none: one day. */
export const daysOf = (record: { days?: number }): number => record.days ?? 1;

/** `date` moved by `n` days, never past 9999-12-31. */
const shifted = (date: string, n: number): string =>
  n === 0 ? date : fromDayNumber(Math.min(dayNumber(date) + n, dayNumber(LAST_DATE)));

/**
 * The whole days from `date` to the one a span ends on, cut at 9999-12-31: a series may
 * still start a span there (a one-off may not, events/rules.ts).
 */
export const daysWithin = (date: string, days: number): number =>
  Math.min(days, dayNumber(LAST_DATE) - dayNumber(date));

/** The last of the dates an occurrence on `date` covers. */
export const lastDayOf = (date: string, days: number): string => shifted(date, days - 1);

/** The first date on which an occurrence of `days` days can start and still cover `from`. */
export const earliestStartCovering = (from: string, days: number): string =>
  days <= 1 ? from : fromDayNumber(Math.max(dayNumber(from) - (days - 1), dayNumber(FIRST_DATE)));

/** Whether an occurrence on `date` lasting `days` covers a date of [from, to]. */
export const coversRange = (date: string, days: number, from: string, to: string): boolean =>
  date <= to && lastDayOf(date, days) >= from;

/**
 * When a timed occurrence ends, counted from its start: `days` calendar days (its wall clock
 * kept across a DST change), then `minutes` of elapsed time, as RFC 5545 reads DURATION
 * `P{days}DT{minutes}M`. One day: `end_time - start_time` of elapsed time (a day more when
 * overnight); more: the same, from the start time on the day before the last when `end_time`
 * is not after `start_time`, else on the last day.
 */
export function endAfterStart(days: number, startTime: string, endTime: string): { days: number; minutes: number } {
  const minutes = durationMinutes(startTime, endTime);
  if (days <= 1) return { days: 0, minutes };
  return endTime > startTime ? { days: days - 1, minutes } : { days: days - 2, minutes };
}

/** The date an occurrence ends on: its last day, or the next day for a one-day overnight one. */
export function endDateOf(
  o: { date: string; start_time: string | null; end_time: string | null },
  days: number,
): string {
  if (o.start_time !== null && o.end_time !== null && days <= 1 && o.end_time < o.start_time) return shifted(o.date, 1);
  return lastDayOf(o.date, days);
}
