/**
 * When a VEVENT happens, in the calendar's zone: DTSTART with DTEND or DURATION (or neither)
 * turned into Almanac's `date`, `start_time`, `end_time` and `days` (events/span.ts).
 *
 * - DATE values are all-day: DTEND is exclusive, so `days` is DTEND - DTSTART; without an end, one day.
 * - DATE-TIME values are read in their zone (zones.ts) and turned into the calendar's wall clock.
 *   DURATION counts its days on the wall clock and the rest as elapsed time (RFC 5545 3.3.6); in
 *   the calendar's own zone the rest is added to the wall clock, as Almanac's feeds count it.
 * - An end at the start, or no end, leaves a timed event without `end_time`.
 */
import ICAL from "ical.js";
import { endAfterStart, MAX_EVENT_DAYS } from "../events/span.js";
import { daysBetween } from "../recurrence/index.js";
import { readingAt } from "./offsets.js";
import { floating, namedZone, toCalendar, wallOf, zoneOfProperty, type WallClock, type Zone } from "./zones.js";

export interface Timing {
  date: string;
  start_time: string | null;
  end_time: string | null;
  days: number;
}

/** A VEVENT's timing, the zone of its DTSTART (null when all-day) and the DTSTART value itself. */
export interface ReadTiming {
  timing: Timing;
  zone: Zone | null;
  /** The zone whose days an all-day event's dates are: its DTSTART's TZID's, else the calendar's. */
  dayZone: Zone;
  start: ICAL.Time;
}

export type TimingResult = ReadTiming | { skip: string };

const unknownZone = (prop: ICAL.Property) =>
  `unknown time zone "${String(prop.getParameter("tzid"))}": use an IANA name (Europe/Berlin) or include its VTIMEZONE`;

const tooLong = (days: number) => `it lasts ${days} days; an Almanac event spans at most ${MAX_EVENT_DAYS} days`;

export function readTiming(
  vevent: ICAL.Component,
  calendarZone: string,
  fileZones: ReadonlyMap<string, ICAL.Timezone>,
): TimingResult {
  const startProp = vevent.getFirstProperty("dtstart");
  if (!startProp) return { skip: "it has no DTSTART, so it has no date" };
  const start = startProp.getFirstValue() as ICAL.Time;
  const endProp = vevent.getFirstProperty("dtend");
  const duration = vevent.getFirstPropertyValue("duration") as ICAL.Duration | null;
  if (start.isDate) {
    const date = wallOf(start).date;
    let days = 1;
    if (endProp) days = daysBetween(date, wallOf(endProp.getFirstValue() as ICAL.Time).date);
    else if (duration) days = Math.ceil(duration.toSeconds() / 86_400);
    days = Math.max(days, 1);
    if (days > MAX_EVENT_DAYS) return { skip: tooLong(days) };
    const dayZone =
      (startProp.getParameter("tzid") ? zoneOfProperty(startProp, calendarZone, fileZones) : null) ??
      namedZone(calendarZone, calendarZone);
    return { timing: { date, start_time: null, end_time: null, days }, zone: null, dayZone, start };
  }
  const zone = zoneOfProperty(startProp, calendarZone, fileZones);
  if (!zone) return { skip: unknownZone(startProp) };
  const begin = toCalendar(start, zone, calendarZone);
  let end: WallClock | null = null;
  if (endProp) {
    const endZone = zoneOfProperty(endProp, calendarZone, fileZones);
    if (!endZone) return { skip: unknownZone(endProp) };
    end = toCalendar(endProp.getFirstValue() as ICAL.Time, endZone, calendarZone);
  } else if (duration) {
    end = endAfter(start, duration, zone, calendarZone);
  }
  const span = end ? spanOf(begin, end) : { end_time: null, days: 1 };
  if (typeof span === "string") return { skip: span };
  if (span.days > MAX_EVENT_DAYS) return { skip: tooLong(span.days) };
  return { timing: { date: begin.date, start_time: begin.time, ...span }, zone, dayZone: zone, start };
}

/** The end of a timed event `duration` after `start`, on the calendar's wall clock. */
export function endAfter(start: ICAL.Time, duration: ICAL.Duration, zone: Zone, calendarZone: string): WallClock {
  const sign = duration.isNegative ? -1 : 1;
  // ICAL.Time carries an overflowing day or second into the next month or day.
  const nominal = floating(start);
  nominal.day += sign * (duration.weeks * 7 + duration.days);
  const exactSeconds = sign * (duration.hours * 3600 + duration.minutes * 60 + duration.seconds);
  if (zone.local) {
    nominal.second += exactSeconds;
    return wallOf(nominal);
  }
  return readingAt(calendarZone, zone.instant(nominal) + exactSeconds * 1000);
}

/** `end_time` and `days` of a timed event from its start and end on the calendar's wall clock, or why not. */
export function spanOf(begin: WallClock, end: WallClock): { end_time: string | null; days: number } | string {
  const diff = daysBetween(begin.date, end.date);
  if (diff < 0 || (diff === 0 && end.time < begin.time)) return "it ends before it starts (DTEND or DURATION)";
  if (diff === 0) return { end_time: end.time === begin.time ? null : end.time, days: 1 };
  if (diff === 1 && end.time < begin.time) return { end_time: end.time, days: 1 };
  return { end_time: end.time, days: diff + 1 };
}

/** Minutes from start to end (all-day: whole days); null for a timed event without an end. */
export function lengthMinutes(timing: Timing): number | null {
  if (timing.start_time === null) return timing.days * 1440;
  if (timing.end_time === null) return null;
  const after = endAfterStart(timing.days, timing.start_time, timing.end_time);
  return after.days * 1440 + after.minutes;
}
