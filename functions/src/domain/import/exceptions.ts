/**
 * A series' EXDATEs and RECURRENCE-ID overrides as Almanac exceptions, each under the date
 * (in the calendar's zone) on which the series planned the occurrence: an EXDATE, or an override
 * with STATUS:CANCELLED, cancels it; any other override changes what differs from the series
 * (date, times, days, name, notes, category, alarms).
 */
import ICAL from "ical.js";
import type { ExceptionInput } from "../commands/exceptions.js";
import { firstOccurrenceOnOrAfter } from "../recurrence/index.js";
import type { Recur } from "../types.js";
import { readAlarms } from "./alarms.js";
import { readFields, type TextFields } from "./fields.js";
import type { ImportedException } from "./plan.js";
import { lengthMinutes, readTiming, type ReadTiming, type Timing } from "./times.js";
import { toCalendar, wallOf, zoneOfProperty } from "./zones.js";

/** What an override is compared with. */
export interface Series {
  uid: string;
  recur: Recur;
  read: ReadTiming;
  fields: TextFields;
  alarms: number[];
}

export interface ReadContext {
  calendarZone: string;
  fileZones: ReadonlyMap<string, ICAL.Timezone>;
  /** How many dates of each series are checked against ical.js (verify.ts). */
  verifyLimit: number;
}

export const isSeriesDate = (recur: Recur, date: string): boolean =>
  firstOccurrenceOnOrAfter(recur, recur.starts!, date) === date;

/**
 * The calendar's date of the occurrence a RECURRENCE-ID or EXDATE value names; null when its
 * zone is unknown. A DATE value on a timed series names that day's occurrence.
 */
function originalDate(prop: ICAL.Property, value: ICAL.Time, series: Series, ctx: ReadContext): string | null {
  const { zone, start } = series.read;
  if (zone === null) return wallOf(value).date;
  if (value.isDate) {
    const at = ICAL.Time.fromData({
      year: value.year,
      month: value.month,
      day: value.day,
      hour: start.hour,
      minute: start.minute,
    });
    return toCalendar(at, zone, ctx.calendarZone).date;
  }
  const own = zoneOfProperty(prop, ctx.calendarZone, ctx.fileZones);
  return own ? toCalendar(value, own, ctx.calendarZone).date : null;
}

/** The series' EXDATEs as cancellations, and a sentence for each that names no occurrence. */
export function readExdates(vevent: ICAL.Component, series: Series, ctx: ReadContext) {
  const cancelled: ImportedException[] = [];
  const notes: string[] = [];
  const seen = new Set<string>();
  for (const prop of vevent.getAllProperties("exdate")) {
    for (const value of prop.getValues() as ICAL.Time[]) {
      const date = originalDate(prop, value, series, ctx);
      if (date === null) {
        notes.push(
          `EXDATE ${value.toString()} has an unknown time zone "${String(prop.getParameter("tzid"))}"; it was left out`,
        );
      } else if (!isSeriesDate(series.recur, date)) {
        notes.push(`EXDATE ${date} is not a date of the series; it changes nothing`);
      } else if (!seen.has(date)) {
        seen.add(date);
        cancelled.push({ original_date: date, change: { cancelled: true } });
      }
    }
  }
  return { cancelled, notes };
}

export type OverrideResult = { exception: ImportedException | null; notes: string[] } | { skip: string };

/** One RECURRENCE-ID override as the exception of its original date (null when nothing differs). */
export function readOverride(vevent: ICAL.Component, series: Series, ctx: ReadContext): OverrideResult {
  const prop = vevent.getFirstProperty("recurrence-id")!;
  if (String(prop.getParameter("range") ?? "").toUpperCase() === "THISANDFUTURE") {
    return {
      skip: "its RECURRENCE-ID has RANGE=THISANDFUTURE (it changes the rest of the series), which Almanac cannot store",
    };
  }
  const original = originalDate(prop, prop.getFirstValue() as ICAL.Time, series, ctx);
  if (original === null)
    return { skip: `its RECURRENCE-ID has an unknown time zone "${String(prop.getParameter("tzid"))}"` };
  if (!isSeriesDate(series.recur, original)) {
    return { skip: `its RECURRENCE-ID (${original}) is not a date of the series` };
  }
  const exceptionOf = (change: ExceptionInput | null) => (change ? { original_date: original, change } : null);
  if (String(vevent.getFirstPropertyValue("status") ?? "").toUpperCase() === "CANCELLED") {
    return { exception: exceptionOf({ cancelled: true }), notes: [] };
  }
  const planned: Timing = { ...series.read.timing, date: original };
  let timing = planned;
  if (vevent.hasProperty("dtstart")) {
    const read = readTiming(vevent, ctx.calendarZone, ctx.fileZones);
    if ("skip" in read) return read;
    timing = read.timing;
  }
  const change: ExceptionInput = {};
  for (const key of ["date", "start_time", "end_time", "days"] as const) {
    if (timing[key] !== planned[key]) Object.assign(change, { [key]: timing[key] });
  }
  const { fields, cuts } = readFields(vevent);
  for (const key of ["name", "notes", "category"] as const) {
    if (fields[key] !== series.fields[key]) Object.assign(change, { [key]: fields[key] });
  }
  const alarms = readAlarms(vevent, lengthMinutes(timing));
  if (alarms.alarms.join() !== series.alarms.join()) change.alarms = alarms.alarms;
  const notes = [...cuts, ...alarms.left].map((note) => `${original}: ${note}`);
  return { exception: exceptionOf(Object.keys(change).length > 0 ? change : null), notes };
}
