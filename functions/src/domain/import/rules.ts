/**
 * An RRULE as Almanac's `recur`, in the calendar's zone (domain/recurrence), or the reason it
 * cannot be one. The rule's dates are read in the event's own zone and moved by the days its
 * first occurrence moves into the calendar's zone; verify.ts then checks the result against
 * ical.js's own expansion, which catches what this mapping cannot see (WKST, DST drift).
 *
 * Read: DAILY (with a weekday list and INTERVAL 1, a weekly rule); WEEKLY with a weekday list
 * (or DTSTART's weekday); MONTHLY by one day of the month, one n-th weekday (BYDAY=2TU, or
 * BYDAY=TU;BYSETPOS=2) or DTSTART's day; YEARLY by one month and day (or DTSTART's); INTERVAL;
 * COUNT; UNTIL as the calendar's last local date of the series.
 */
import ICAL from "ical.js";
import { MAX_RECUR_COUNT, MAX_RECUR_INTERVAL } from "../events/rules.js";
import { addDays, daysBetween, isoWeekday, recurError } from "../recurrence/index.js";
import type { Recur } from "../types.js";
import { readingAt } from "./offsets.js";
import type { ReadTiming } from "./times.js";
import { toCalendar, wallOf } from "./zones.js";

const WEEKDAYS = ["", "MO", "TU", "WE", "TH", "FR", "SA", "SU"];
const SUPPORTED_PARTS = new Set(["BYDAY", "BYMONTHDAY", "BYMONTH", "BYSETPOS"]);

/** The series, or why it cannot be one, or `once`: the rule adds nothing to DTSTART. */
export type RuleResult = { recur: Recur } | { skip: string } | { once: true };
type Shape = Pick<Recur, "type" | "day" | "week" | "month">;

const cannot = (what: string) => ({ skip: `RRULE ${what} is not a rule Almanac can represent` });

/** An ISO weekday (1..7) moved by `shift` days. */
const moved = (weekday: number, shift: number) => ((((weekday - 1 + shift) % 7) + 7) % 7) + 1;

/** `BYDAY` entries as [ordinal or 0, ISO weekday]; null when one is not a weekday. */
function weekdaysOf(byday: readonly string[]): Array<[number, number]> | null {
  const out: Array<[number, number]> = [];
  for (const entry of byday) {
    const m = /^([+-]?\d{1,2})?(MO|TU|WE|TH|FR|SA|SU)$/.exec(entry.toUpperCase());
    if (!m) return null;
    out.push([m[1] ? Number(m[1]) : 0, WEEKDAYS.indexOf(m[2])]);
  }
  return out;
}

const single = (values: readonly unknown[] | undefined): number | null =>
  values && values.length === 1 && Number.isInteger(Number(values[0])) ? Number(values[0]) : null;

/** The rule's shape (type, day, week, month) in the event's own dates, from `first` (its DTSTART date). */
function shapeOf(rule: ICAL.Recur, first: string): Shape | { skip: string } {
  const parts = rule.parts as Record<string, readonly unknown[] | undefined>;
  for (const name of Object.keys(parts)) {
    if (!SUPPORTED_PARTS.has(name) && parts[name]?.length) return cannot(name);
  }
  const has = (name: string) => (parts[name]?.length ?? 0) > 0;
  const text = (name: string) => `${name}=${(parts[name] ?? []).join(",")}`;
  const byday = has("BYDAY") ? weekdaysOf(parts.BYDAY!.map(String)) : [];
  if (byday === null) return cannot(text("BYDAY"));
  const plainDays = byday.every(([n]) => n === 0);
  const day = Number(first.slice(8, 10));
  const month = Number(first.slice(5, 7));
  switch (rule.freq) {
    case "DAILY":
      if (has("BYMONTH") || has("BYMONTHDAY") || has("BYSETPOS"))
        return cannot(`FREQ=DAILY with BYMONTH, BYMONTHDAY or BYSETPOS`);
      if (byday.length === 0) return { type: "daily" };
      if (!plainDays || rule.interval !== 1) return cannot(`FREQ=DAILY;INTERVAL=${rule.interval};${text("BYDAY")}`);
      return { type: "weekly", day: byday.map(([, d]) => d) };
    case "WEEKLY":
      if (has("BYMONTH") || has("BYMONTHDAY") || has("BYSETPOS"))
        return cannot(`FREQ=WEEKLY with BYMONTH, BYMONTHDAY or BYSETPOS`);
      if (!plainDays) return cannot(text("BYDAY"));
      return { type: "weekly", day: byday.length > 0 ? byday.map(([, d]) => d) : [isoWeekday(first)] };
    case "MONTHLY": {
      if (has("BYMONTH")) return cannot("FREQ=MONTHLY with BYMONTH");
      if (has("BYMONTHDAY")) {
        const monthDay = single(parts.BYMONTHDAY);
        if (
          has("BYDAY") ||
          has("BYSETPOS") ||
          monthDay === null ||
          !(monthDay === -1 || (monthDay >= 1 && monthDay <= 31))
        ) {
          return cannot(text("BYMONTHDAY"));
        }
        return { type: "monthly", day: monthDay };
      }
      if (byday.length === 0) return has("BYSETPOS") ? cannot(text("BYSETPOS")) : { type: "monthly", day };
      if (byday.length !== 1) return cannot(text("BYDAY"));
      const [[ordinal, weekday]] = byday;
      const week = has("BYSETPOS") ? (ordinal === 0 ? single(parts.BYSETPOS) : null) : ordinal;
      if (week === null || !(week === -1 || (week >= 1 && week <= 5))) {
        return cannot(has("BYSETPOS") ? `${text("BYDAY")};${text("BYSETPOS")}` : text("BYDAY"));
      }
      return { type: "monthly", day: weekday, week };
    }
    case "YEARLY": {
      if (has("BYDAY") || has("BYSETPOS")) return cannot(`FREQ=YEARLY with ${has("BYDAY") ? "BYDAY" : "BYSETPOS"}`);
      const byMonth = has("BYMONTH") ? single(parts.BYMONTH) : month;
      if (byMonth === null) return cannot(text("BYMONTH"));
      if (has("BYMONTHDAY") && !has("BYMONTH")) return cannot("FREQ=YEARLY with BYMONTHDAY but no BYMONTH");
      const monthDay = has("BYMONTHDAY") ? single(parts.BYMONTHDAY) : day;
      if (monthDay === null || monthDay < 1) return cannot(text("BYMONTHDAY"));
      return { type: "yearly", month: byMonth, day: monthDay };
    }
    default:
      return cannot(`FREQ=${rule.freq}`);
  }
}

/** The shape moved by `shift` days, as the calendar's zone sees the same instants. */
function shiftShape(shape: Shape, shift: number, first: string): Shape {
  if (shift === 0) return shape;
  if (shape.type === "weekly") return { ...shape, day: (shape.day as number[]).map((d) => moved(d, shift)) };
  if (shape.type === "monthly" && shape.week != null) return { ...shape, day: moved(shape.day as number, shift) };
  if (shape.type === "monthly")
    return { ...shape, day: (shape.day as number) === -1 ? -1 : Number(first.slice(8, 10)) };
  if (shape.type === "yearly") return { ...shape, month: Number(first.slice(5, 7)), day: Number(first.slice(8, 10)) };
  return shape;
}

/**
 * The calendar's last local date of a series ended by UNTIL: the date of the UNTIL instant,
 * or the day before when the occurrence of that date starts after it.
 */
function untilDate(until: ICAL.Time, read: ReadTiming, calendarZone: string, shift: number): string {
  if (read.zone === null) return allDayUntil(until, read);
  if (until.isDate) return addDays(wallOf(until).date, shift);
  // A UTC UNTIL is an instant; any other is read in the zone of DTSTART, as RFC 5545 writes it.
  const local =
    until.zone === ICAL.Timezone.utcTimezone
      ? readingAt(calendarZone, until.toUnixTime() * 1000)
      : toCalendar(until, read.zone, calendarZone);
  return local.time < read.timing.start_time! ? addDays(local.date, -1) : local.date;
}

/**
 * The last date of an all-day series ended by UNTIL. Its occurrences start at midnight, so a
 * UTC UNTIL (Exchange writes the last day's midnight in its zone, 22:00Z the day before in
 * Berlin's summer) ends it on the date that instant is in the event's zone.
 */
export function allDayUntil(until: ICAL.Time, read: ReadTiming): string {
  if (until.isDate || until.zone !== ICAL.Timezone.utcTimezone) return wallOf(until).date;
  return wallOf(read.dayZone.reading(until.toUnixTime() * 1000)).date;
}

export function readRule(rule: ICAL.Recur, read: ReadTiming, calendarZone: string): RuleResult {
  const first = wallOf(read.start).date;
  const shape = shapeOf(rule, first);
  if ("skip" in shape) return shape;
  const starts = read.timing.date;
  const shift = daysBetween(first, starts);
  if (rule.interval > MAX_RECUR_INTERVAL)
    return cannot(`INTERVAL=${rule.interval} (Almanac's most is ${MAX_RECUR_INTERVAL})`);
  if (rule.count != null && rule.count > MAX_RECUR_COUNT) {
    return cannot(`COUNT=${rule.count} (Almanac's most is ${MAX_RECUR_COUNT})`);
  }
  const recur: Recur = { ...shiftShape(shape, shift, starts), interval: rule.interval, starts };
  if (rule.count != null) recur.count = rule.count;
  if (rule.until) {
    recur.until = untilDate(rule.until, read, calendarZone, shift);
    // RFC 5545 counts DTSTART as the first occurrence whatever the rule: an UNTIL before it
    // (as Apple iCal 1.0 wrote) leaves that one.
    if (recur.until < starts) return { once: true };
  }
  const error = recurError(recur);
  if (error) return { skip: `its RRULE does not fit an Almanac series: ${error}` };
  return { recur };
}
