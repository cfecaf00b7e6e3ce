/**
 * Working hours for free-slot search: `hours=09:00-17:00` on `days=1-5` in a time zone. The
 * hours are wall-clock time: on a DST day a window holds the instants whose local clock reads
 * within it (see zone.ts), so 09:00-17:00 starts at 09:00 local before and after the change.
 */
import { isoWeekdayOfDay } from "../recurrence/index.js";
import { clipIntervals, type Interval } from "./intervals.js";
import { DAY_MS, MINUTE_MS, type ZoneClock } from "./zone.js";

/** Minutes after local midnight. An `end` at or before `start` is on the next day (overnight). */
export interface WorkingHours {
  start: number;
  end: number;
}

const HOURS = /^([01]\d|2[0-3]):([0-5]\d)-(?:([01]\d|2[0-3]):([0-5]\d)|(24):(00))$/;

/**
 * `HH:MM-HH:MM`: `09:00-17:00`; `24:00` as the end is midnight (`00:00-24:00` is the whole
 * day); an end before the start runs past midnight (`22:00-06:00`, a window that belongs to
 * the day it starts on). Null when malformed or when start and end are the same.
 */
export function parseHours(text: string): WorkingHours | null {
  const m = HOURS.exec(text);
  if (!m) return null;
  const start = Number(m[1]) * 60 + Number(m[2]);
  const end = m[5] ? 24 * 60 : Number(m[3]) * 60 + Number(m[4]);
  if (end === start) return null;
  return { start, end };
}

const DAY_ITEM = /^([0-7])(?:-([0-7]))?$/;

/**
 * ISO weekdays as a comma-separated list of days and ranges: `1-5` (Monday to Friday),
 * `1,3,5`, `1-3,6`. Monday = 1; 0 and 7 both mean Sunday, as in cron and event rules, so `0-6`
 * is Sunday to Saturday. A range goes upward (`5-7,1`, not `5-1`). Null when malformed.
 */
export function parseDays(text: string): ReadonlySet<number> | null {
  const days = new Set<number>();
  for (const item of text.split(",")) {
    const m = DAY_ITEM.exec(item);
    if (!m) return null;
    const first = Number(m[1]);
    const last = m[2] === undefined ? first : Number(m[2]);
    if (last < first) return null;
    for (let d = first; d <= last; d++) days.add(d === 0 ? 7 : d);
  }
  return days;
}

/**
 * The instants of `range` inside working hours: on each local date whose weekday is in `days`,
 * those whose wall clock reads within the hours (from the start on that date to the end, on
 * the next date when overnight). Windows that touch (`00:00-24:00` every day) are one.
 */
export function workingWindows(
  clock: ZoneClock,
  range: Interval,
  hours: WorkingHours,
  days: ReadonlySet<number>,
): Interval[] {
  if (range.end <= range.start) return [];
  const windows: Interval[] = [];
  const length = (hours.end > hours.start ? hours.end : hours.end + 24 * 60) - hours.start;
  // A day early: yesterday's overnight window, or a clock turned back across midnight.
  for (let day = clock.localDay(range.start) - 2; day <= clock.localDay(range.end) + 1; day++) {
    if (!days.has(isoWeekdayOfDay(day))) continue;
    const start = day * DAY_MS + hours.start * MINUTE_MS;
    windows.push(...clock.instantsShowing(start, start + length * MINUTE_MS));
  }
  return clipIntervals(windows, range);
}
