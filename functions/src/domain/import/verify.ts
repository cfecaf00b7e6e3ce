/**
 * Whether a series Almanac will store is the series the file means, checked in two parts:
 * - its dates: the occurrences ical.js expands from the RRULE (at most `limit`, and at most
 *   VERIFIED_YEARS' worth), moved by the days the first one moves into the calendar's zone, must
 *   be exactly Almanac's expansion of the `recur`;
 * - its times, when the event's zone is not the calendar's: every occurrence of those years,
 *   read in the calendar's zone, must start on its date at the `start_time` Almanac stores (the
 *   first, and those next to a change of either zone's offset stand for the rest). A zone whose
 *   offset from the calendar's changes fails here.
 * ical.js is the slow part, so the reader gives each series a share of a budget as its `limit`;
 * the times are arithmetic on cached offsets (offsets.ts).
 * A difference names its cause where it can: a DTSTART off the rule, the zone's offset, else
 * the first date that differs.
 */
import ICAL from "ical.js";
import { DateTime } from "luxon";
import { addDays, daysBetween, expandRecurrence, firstOccurrenceOnOrAfter, isValidDate } from "../recurrence/index.js";
import type { Recur } from "../types.js";
import { changeDates, instantOf, readingAt } from "./offsets.js";
import { allDayUntil } from "./rules.js";
import type { ReadTiming } from "./times.js";
import { floating, wallOf, type WallClock } from "./zones.js";

export const VERIFIED_OCCURRENCES = 500;
export const VERIFIED_YEARS = 10;
/** How many occurrences ical.js expands for one text, shared among its series. */
export const VERIFY_BUDGET = 100_000;
/** The fewest dates checked per series, however many series a text holds. */
export const MIN_VERIFIED_OCCURRENCES = 50;

/** Each series' share of VERIFY_BUDGET when a text holds `series` of them. */
export const verifyLimit = (series: number): number =>
  Math.min(VERIFIED_OCCURRENCES, Math.max(MIN_VERIFIED_OCCURRENCES, Math.floor(VERIFY_BUDGET / Math.max(series, 1))));

/** ical.js's dates up to `horizon`, at most `limit`, and whether the series ended before. */
function theirDates(rule: ICAL.Recur, read: ReadTiming, horizon: string, limit: number) {
  const copy = rule.clone();
  // Iterated on floating readings: UNTIL becomes the event zone's reading of the same instant.
  if (copy.until && !copy.until.isDate && read.zone !== null) {
    const utc = copy.until.zone === ICAL.Timezone.utcTimezone;
    copy.until = utc ? read.zone.reading(copy.until.toUnixTime() * 1000) : floating(copy.until);
  } else if (copy.until && !copy.until.isDate) {
    // An all-day series: UNTIL as the day it falls on in the event's zone.
    const [year, month, day] = allDayUntil(copy.until, read).split("-").map(Number);
    copy.until = ICAL.Time.fromData({ year, month, day, isDate: true });
  }
  // RFC 5545 takes a bare YEARLY rule's month and day from DTSTART, and skips years without that
  // day; ical.js 2.2 moves Feb 29 to Mar 1 unless they are written out, as here.
  if (copy.freq === "YEARLY" && Object.keys(copy.parts).length === 0) {
    copy.parts = { BYMONTH: [read.start.month], BYMONTHDAY: [read.start.day] };
  }
  const iterator = copy.iterator(floating(read.start));
  const dates: string[] = [];
  for (let next = iterator.next(); next; next = iterator.next()) {
    const date = wallOf(next).date;
    if (date > horizon || dates.length >= limit) return { dates, ended: false };
    dates.push(date);
  }
  return { dates, ended: true };
}

/** Where the occurrence of a date (in the event's zone) starts on the calendar's wall clock. */
function calendarStarts(read: ReadTiming, calendarZone: string) {
  const zone = read.zone!;
  const time = wallOf(read.start).time;
  const { hour, minute, second } = read.start;
  return (date: string): WallClock => {
    if (zone.iana) return readingAt(calendarZone, instantOf(zone.name, { date, time }));
    const [year, month, day] = date.split("-").map(Number);
    const local = DateTime.fromMillis(zone.instant(ICAL.Time.fromData({ year, month, day, hour, minute, second })), {
      zone: calendarZone,
    });
    return { date: local.toFormat("yyyy-LL-dd"), time: local.toFormat("HH:mm") };
  };
}

/**
 * The series' dates up to `last` whose start may read differently from the first's: between two
 * offset changes of the zones nothing moves, and a change on UTC date d can only move an
 * occurrence dated d - 1 to d + 1 (offsets are under a day) or the first one after.
 */
function datesAroundChanges(recur: Recur, zones: string[], last: string): string[] {
  const starts = recur.starts!;
  const years = [Number(starts.slice(0, 4)), Number(last.slice(0, 4))] as const;
  const dates = new Set<string>([starts]);
  for (const change of zones.flatMap((zone) => changeDates(zone, ...years))) {
    const after = addDays(change, 1);
    for (let at = firstOccurrenceOnOrAfter(recur, starts, addDays(change, -1)); at !== null && at <= last;) {
      dates.add(at);
      if (at > after) break;
      at = firstOccurrenceOnOrAfter(recur, starts, addDays(at, 1));
    }
  }
  return [...dates].sort();
}

/** The same month and day `years` later; Feb 29 becomes Feb 28 in a year without it. */
function yearsAfter(date: string, years: number): string {
  const later = `${String(Number(date.slice(0, 4)) + years).padStart(4, "0")}${date.slice(4)}`;
  return later.endsWith("-02-29") && !isValidDate(later) ? `${later.slice(0, 8)}28` : later;
}

/** Why the `recur` is not the RRULE's series, or null when it is. */
export function verifyRule(
  rule: ICAL.Recur,
  read: ReadTiming,
  recur: Recur,
  calendarZone: string,
  limit = VERIFIED_OCCURRENCES,
): string | null {
  const starts = recur.starts!;
  if (firstOccurrenceOnOrAfter(recur, starts, starts) !== starts) {
    return (
      `its DTSTART (${starts}) is not a date of its RRULE: RFC 5545 counts DTSTART as one more occurrence, ` +
      "which an Almanac series cannot hold"
    );
  }
  const first = wallOf(read.start).date;
  const shift = daysBetween(first, starts);
  const horizon = yearsAfter(first, VERIFIED_YEARS);
  const theirs = theirDates(rule, read, horizon, limit);
  const moved = theirs.dates.map((d) => addDays(d, shift));
  const last = theirs.ended ? addDays(horizon, shift) : (moved.at(-1) ?? starts);
  const ours = expandRecurrence(recur, starts, starts, last);
  for (let i = 0; i < Math.max(ours.length, moved.length); i++) {
    if (ours[i] === moved[i]) continue;
    const at = [moved[i], ours[i]].filter((d): d is string => d !== undefined).sort()[0];
    return `its RRULE gives other dates than the ${recur.type} series Almanac could store: first difference on ${at}`;
  }
  if (read.zone === null || read.zone.local) return null;
  const checked = read.zone.iana
    ? datesAroundChanges(recur, [read.zone.name, calendarZone], addDays(horizon, shift))
    : ours.slice(0, limit);
  const startOf = calendarStarts(read, calendarZone);
  for (const date of checked) {
    const start = startOf(addDays(date, -shift));
    if (start.date === date && start.time === read.timing.start_time) continue;
    const when = start.date === date ? start.time : `${start.time} on ${start.date}`;
    return (
      `the series is in ${read.zone.name}, whose offset from ${calendarZone} changes during it ` +
      `(on ${date} it starts at ${when} in ${calendarZone}, not ${read.timing.start_time})` +
      (read.zone.iana ? `; a calendar in ${read.zone.name} can hold it` : "")
    );
  }
  return null;
}
