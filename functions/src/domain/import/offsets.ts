/**
 * Wall clocks of IANA zones turned into instants and back, fast enough to check every
 * occurrence of thousands of series: luxon is asked for a zone's offset once per day of a
 * year, the exact changes are found by bisection, and each zone-year is kept. A local time
 * that occurs twice is the first; one inside a DST gap is read with the offset before the gap
 * (RFC 5545 3.3.5), as luxon reads it too.
 */
import { IANAZone } from "luxon";
import { dayNumber, fromDayNumber } from "../recurrence/index.js";

/** A local date and minute, as Almanac stores a time of an event. */
export interface WallClock {
  date: string;
  time: string;
}

const MINUTE = 60_000;
const DAY = 86_400_000;
const MAX_CACHED = 2000;

interface ZoneYear {
  initial: number;
  changes: Array<{ at: number; offset: number }>;
}

const zoneYears = new Map<string, ZoneYear>();

/** The offsets of a year and two days either side: the first, then each change and when it applies. */
function zoneYear(zone: string, year: number): ZoneYear {
  const key = `${zone}|${year}`;
  const cached = zoneYears.get(key);
  if (cached) return cached;
  const tz = IANAZone.create(zone);
  const offsetOf = (ts: number) => Math.round(tz.offset(ts));
  const first = Date.UTC(year, 0, 1) - 2 * DAY;
  const last = Date.UTC(year + 1, 0, 1) + 2 * DAY;
  const found: ZoneYear = { initial: offsetOf(first), changes: [] };
  let previous = found.initial;
  for (let t = first + DAY; t <= last; t += DAY) {
    const offset = offsetOf(t);
    if (offset === previous) continue;
    let lo = t - DAY;
    let hi = t;
    while (hi - lo > MINUTE) {
      const mid = lo + Math.floor((hi - lo) / 2 / MINUTE) * MINUTE;
      if (offsetOf(mid) === offset) hi = mid;
      else lo = mid;
    }
    found.changes.push({ at: hi, offset });
    previous = offset;
  }
  if (zoneYears.size >= MAX_CACHED) zoneYears.clear();
  zoneYears.set(key, found);
  return found;
}

/** The zone's offset from UTC, in minutes, at an instant. */
export function offsetAt(zone: string, utc: number): number {
  const year = zoneYear(zone, new Date(utc).getUTCFullYear());
  let offset = year.initial;
  for (const change of year.changes) {
    if (change.at > utc) break;
    offset = change.offset;
  }
  return offset;
}

/** The instant of a wall-clock date and HH:MM in the zone. */
export function instantOf(zone: string, wall: WallClock): number {
  const local =
    dayNumber(wall.date) * DAY + (Number(wall.time.slice(0, 2)) * 60 + Number(wall.time.slice(3, 5))) * MINUTE;
  const before = offsetAt(zone, local - DAY);
  const after = offsetAt(zone, local + DAY);
  for (const offset of before >= after ? [before, after] : [after, before]) {
    if (offsetAt(zone, local - offset * MINUTE) === offset) return local - offset * MINUTE;
  }
  return local - before * MINUTE;
}

/** The zone's wall-clock date and HH:MM at an instant. */
export function readingAt(zone: string, utc: number): WallClock {
  const local = utc + offsetAt(zone, utc) * MINUTE;
  const day = Math.floor(local / DAY);
  const minutes = Math.floor((local - day * DAY) / MINUTE);
  const pad = (n: number) => (n < 10 ? "0" : "") + n;
  return { date: fromDayNumber(day), time: `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}` };
}

/** The dates (UTC) on which the zone's offset changes, in the years from `fromYear` to `toYear`. */
export function changeDates(zone: string, fromYear: number, toYear: number): string[] {
  const dates = new Set<string>();
  for (let year = fromYear; year <= toYear; year++) {
    for (const change of zoneYear(zone, year).changes) dates.add(fromDayNumber(Math.floor(change.at / DAY)));
  }
  return [...dates];
}
