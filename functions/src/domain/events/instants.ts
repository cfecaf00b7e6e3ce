/**
 * Local date + HH:MM in an IANA zone -> ISO 8601 instant with that moment's UTC offset
 * ("2026-07-06T09:30:00+02:00"), fast enough for hundreds of thousands of occurrences.
 *
 * Luxon (Intl) is asked for a zone's offset once per day of a year, the exact transition
 * instants are found by bisection, and the result is cached per zone and year (zone rules do
 * not change while the process runs). A date far from any transition is then formatted by
 * concatenation; only dates next to one take the arithmetic path.
 * Rules of RFC 5545 (3.3.5): a local time that occurs twice (autumn) is the first one; a
 * local time inside a spring gap is read with the offset before the gap, so 02:30 on
 * Berlin's spring-forward day becomes 03:30+02:00.
 */
import { IANAZone } from "luxon";
import { civilFromDays, dayNumber, daysFromCivil, fromDayNumber } from "../recurrence/index.js";

const MINUTE = 60_000;
const DAY = 86_400_000;

interface Transition {
  /** UTC ms from which `offset` (minutes) applies. */
  at: number;
  offset: number;
}

/** A zone's offsets over one year and two days around it: the offset at the start, then each change. */
interface ZoneYear {
  initial: number;
  transitions: Transition[];
}

const MAX_CACHED = 5000;
const zoneYears = new Map<string, ZoneYear>();

function zoneYear(zone: string, year: number): ZoneYear {
  const key = `${zone}|${year}`;
  let cached = zoneYears.get(key);
  if (cached) return cached;
  const tz = IANAZone.create(zone);
  // Before standard time, zones ran on local mean time with offsets in seconds (Kiritimati in 0001:
  // -10:29:20); an ISO offset holds whole minutes, so every offset is rounded to the minute.
  const offsetOf = tz.isValid ? (ts: number) => Math.round(tz.offset(ts)) : () => 0;
  const first = (daysFromCivil(year, 1, 1) - 2) * DAY;
  const last = (daysFromCivil(year + 1, 1, 1) + 2) * DAY;
  const initial = offsetOf(first);
  const transitions: Transition[] = [];
  let previous = initial;
  for (let t = first + DAY; t <= last; t += DAY) {
    const offset = offsetOf(t);
    if (offset === previous) continue;
    transitions.push({ at: firstMinuteWith(offsetOf, t - DAY, t, offset), offset });
    previous = offset;
  }
  cached = { initial, transitions };
  if (zoneYears.size >= MAX_CACHED) zoneYears.clear();
  zoneYears.set(key, cached);
  return cached;
}

/** The first whole minute in (lo, hi] at which the offset is `target` (it is at hi). */
function firstMinuteWith(offsetOf: (ts: number) => number, lo: number, hi: number, target: number): number {
  while (hi - lo > MINUTE) {
    const mid = lo + Math.floor((hi - lo) / 2 / MINUTE) * MINUTE;
    if (offsetOf(mid) === target) hi = mid;
    else lo = mid;
  }
  return hi;
}

/**
 * The instant of local `time` (HH:MM) on day `day` of the range (0 = `from`); `at` writes any
 * instant near the range (an end up to two days after `to`) with the zone's offset then.
 */
export type InstantFormatter = ((day: number, time: string) => string) & { at(utc: number): string };

/** A formatter for local times of `zone` on the dates [from, to]; an invalid zone is treated as UTC. */
export function instantFormatter(zone: string, from: string, to: string): InstantFormatter {
  const firstDay = dayNumber(from);
  const lastDay = dayNumber(to);
  const years: ZoneYear[] = [];
  for (let y = civilFromDays(firstDay - 1)[0]; y <= civilFromDays(lastDay + 1)[0]; y++) years.push(zoneYear(zone, y));
  const initial = years[0].initial;
  // Neighbouring years overlap by two days: keep each change once.
  const transitions: Transition[] = [];
  for (const tr of years.flatMap((y) => y.transitions)) {
    if (transitions.length === 0 || tr.at > transitions[transitions.length - 1].at) transitions.push(tr);
  }

  const offsetAt = (ts: number): number => {
    let offset = initial;
    for (const tr of transitions) {
      if (tr.at > ts) break;
      offset = tr.offset;
    }
    return offset;
  };

  const exact = (dayNo: number, time: string): string => {
    const local = dayNo * DAY + (Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5))) * MINUTE;
    const before = offsetAt(local - DAY);
    const after = offsetAt(local + DAY);
    // Try the earlier offset (larger) first: for a repeated local time that is the first instant.
    for (const offset of before >= after ? [before, after] : [after, before]) {
      if (offsetAt(local - offset * MINUTE) === offset) return format(local - offset * MINUTE, offset);
    }
    const utc = local - before * MINUTE; // in a gap: the offset before it
    return format(utc, offsetAt(utc));
  };

  // Per day: the date's prefix and, far from any transition, its fixed offset suffix; and
  // the strings made so far, so events at the same time on the same day share one string.
  const days = Math.max(0, lastDay - firstDay + 1);
  const prefix: string[] = [];
  const suffix: Array<string | null> = [];
  const made: Array<Map<string, string> | undefined> = new Array<Map<string, string> | undefined>(days);
  for (let i = 0; i < days; i++) {
    const dayNo = firstDay + i;
    const near = transitions.some((tr) => tr.at >= (dayNo - 1) * DAY && tr.at <= (dayNo + 2) * DAY);
    prefix.push(`${fromDayNumber(dayNo)}T`);
    suffix.push(near ? null : `:00${offsetSuffix(offsetAt(dayNo * DAY))}`);
  }

  const local = (day: number, time: string): string => {
    let memo = made[day];
    if (!memo) made[day] = memo = new Map();
    let out = memo.get(time);
    if (out === undefined) {
      const steady = suffix[day];
      out = steady === null ? exact(firstDay + day, time) : prefix[day] + time + steady;
      memo.set(time, out);
    }
    return out;
  };
  return Object.assign(local, { at: (utc: number) => format(utc, offsetAt(utc)) });
}

/** Minutes an occurrence lasts (docs/api.md#times): end - start of the wall clock, a day more when it ends the next day. */
export function durationMinutes(startTime: string, endTime: string): number {
  const minutes = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5));
  const diff = minutes(endTime) - minutes(startTime);
  return diff > 0 ? diff : diff + 24 * 60;
}

export const MINUTE_MS = MINUTE;

const pad2 = (n: number): string => (n < 10 ? "0" : "") + n;

function format(utc: number, offset: number): string {
  const local = utc + offset * MINUTE;
  const day = Math.floor(local / DAY);
  const minutes = Math.round((local - day * DAY) / MINUTE);
  return `${fromDayNumber(day)}T${pad2(Math.floor(minutes / 60))}:${pad2(minutes % 60)}:00${offsetSuffix(offset)}`;
}

function offsetSuffix(offset: number): string {
  const abs = Math.abs(offset);
  return `${offset < 0 ? "-" : "+"}${pad2(Math.floor(abs / 60))}:${pad2(abs % 60)}`;
}
