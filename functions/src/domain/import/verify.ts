/**
 * Whether a series Almanac will store is the series the file means: the occurrences ical.js
 * expands from the RRULE (the first VERIFIED_OCCURRENCES, or VERIFIED_YEARS' worth, whichever
 * ends first), each turned into the calendar's wall clock, must be exactly Almanac's expansion
 * of the `recur`, date for date, at the same start time. A difference names its cause where
 * it can: a DTSTART off the rule, a zone whose offset from the calendar's changes, else the
 * first date that differs.
 */
import ICAL from "ical.js";
import { DateTime } from "luxon";
import { expandRecurrence, firstOccurrenceOnOrAfter } from "../recurrence/index.js";
import type { Recur } from "../types.js";
import type { ReadTiming } from "./times.js";
import { floating, toCalendar, wallOf } from "./zones.js";

export const VERIFIED_OCCURRENCES = 500;
export const VERIFIED_YEARS = 10;

interface Occurrence {
  date: string;
  /** The calendar's start time; null all-day. */
  time: string | null;
}

/** ical.js's occurrences up to `horizon`, at most VERIFIED_OCCURRENCES, and whether the series ended before. */
function theirOccurrences(rule: ICAL.Recur, read: ReadTiming, calendarZone: string, horizon: string) {
  const copy = rule.clone();
  // Iterated on floating readings: UNTIL becomes the event zone's reading of the same instant.
  if (copy.until && !copy.until.isDate && read.zone !== null) {
    const utc = copy.until.zone === ICAL.Timezone.utcTimezone;
    copy.until = utc ? read.zone.reading(copy.until.toUnixTime() * 1000) : floating(copy.until);
  }
  // RFC 5545 takes a bare YEARLY rule's month and day from DTSTART, and skips years without that
  // day; ical.js 2.2 moves Feb 29 to Mar 1 unless they are written out, as here.
  if (copy.freq === "YEARLY" && Object.keys(copy.parts).length === 0) {
    copy.parts = { BYMONTH: [read.start.month], BYMONTHDAY: [read.start.day] };
  }
  const iterator = copy.iterator(floating(read.start));
  const out: Occurrence[] = [];
  for (let next = iterator.next(); next; next = iterator.next()) {
    const at: Occurrence = read.zone
      ? toCalendar(next, read.zone, calendarZone)
      : { date: wallOf(next).date, time: null };
    if (at.date > horizon) return { occurrences: out, ended: false };
    out.push(at);
    if (out.length >= VERIFIED_OCCURRENCES) return { occurrences: out, ended: false };
  }
  return { occurrences: out, ended: true };
}

/** Why the `recur` is not the RRULE's series, or null when it is. */
export function verifyRule(rule: ICAL.Recur, read: ReadTiming, recur: Recur, calendarZone: string): string | null {
  const starts = recur.starts!;
  if (firstOccurrenceOnOrAfter(recur, starts, starts) !== starts) {
    return (
      `its DTSTART (${starts}) is not a date of its RRULE: RFC 5545 counts DTSTART as one more occurrence, ` +
      "which an Almanac series cannot hold"
    );
  }
  const horizon = DateTime.fromISO(starts, { zone: "UTC" }).plus({ years: VERIFIED_YEARS }).toISODate()!;
  const theirs = theirOccurrences(rule, read, calendarZone, horizon);
  const last = theirs.ended ? horizon : (theirs.occurrences.at(-1)?.date ?? starts);
  const ours = expandRecurrence(recur, starts, starts, last);
  const startTime = read.timing.start_time;
  const count = Math.max(ours.length, theirs.occurrences.length);
  for (let i = 0; i < count; i++) {
    const their = theirs.occurrences[i];
    const our = ours[i];
    if (their && our === their.date && their.time === startTime) continue;
    if (their && their.time !== startTime && read.zone && !read.zone.local) {
      return (
        `the series is in ${read.zone.name}, whose offset from ${calendarZone} changes during it ` +
        `(on ${their.date} it starts at ${their.time} in ${calendarZone}, not ${startTime})`
      );
    }
    const at = [their?.date, our].filter((d): d is string => d !== undefined).sort()[0];
    return `its RRULE gives other dates than the ${recur.type} series Almanac could store: first difference on ${at}`;
  }
  return null;
}
