/**
 * A time zone's clock over a span of instants: its UTC offset at each instant, the local wall
 * clock an instant shows, and the reverse, which instants show a given stretch of wall clock.
 * The reverse is what working hours need across DST: "09:00-17:00" is every instant whose
 * local clock reads from 09:00 to before 17:00, so a spring-forward gap shows no time and an
 * autumn hour that repeats is counted twice, each time the clock passes it.
 *
 * Offsets come from luxon (Intl), asked every 12 hours of a year; each change is then found to
 * the minute by bisection, and a zone's year is kept (zone rules do not change while the
 * process runs), as domain/events/instants.ts does for occurrences.
 */
import { IANAZone } from "luxon";
import { civilFromDays, daysFromCivil, fromDayNumber } from "../recurrence/index.js";
import type { Interval } from "./intervals.js";

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;
const STEP = DAY_MS / 2;

/** From `at` (UTC ms) on, the zone's offset is `offset` minutes east of UTC. */
interface Change {
  at: number;
  offset: number;
}

/** A stretch of instants [from, to) with one offset. */
export interface Segment {
  from: number;
  to: number;
  offset: number;
}

const MAX_CACHED = 2000;
const years = new Map<string, Change[]>();

/** The offset at the start of the year (minus two days) and each change until two days after it. */
function changesOfYear(zone: string, year: number): Change[] {
  const key = `${zone}|${year}`;
  const cached = years.get(key);
  if (cached) return cached;
  const tz = IANAZone.create(zone);
  // Local mean time (zones before about 1900) has offsets with seconds, which ISO 8601 cannot
  // write: the nearest whole minute, so every instant prints exactly as `local` and `offset`.
  const offsetOf = tz.isValid ? (ts: number) => Math.round(tz.offset(ts)) : () => 0;
  const first = (daysFromCivil(year, 1, 1) - 2) * DAY_MS;
  const last = (daysFromCivil(year + 1, 1, 1) + 2) * DAY_MS;
  const changes: Change[] = [{ at: -Infinity, offset: offsetOf(first) }];
  for (let t = first + STEP; t <= last; t += STEP) {
    const offset = offsetOf(t);
    if (offset !== changes[changes.length - 1].offset) {
      changes.push({ at: firstMinuteWith(offsetOf, t - STEP, t, offset), offset });
    }
  }
  if (years.size >= MAX_CACHED) years.clear();
  years.set(key, changes);
  return changes;
}

/** The first whole minute in (lo, hi] at which the offset is `target` (it is at hi). */
function firstMinuteWith(offsetOf: (ts: number) => number, lo: number, hi: number, target: number): number {
  while (hi - lo > MINUTE_MS) {
    const mid = lo + Math.floor((hi - lo) / 2 / MINUTE_MS) * MINUTE_MS;
    if (offsetOf(mid) === target) hi = mid;
    else lo = mid;
  }
  return hi;
}

const yearOf = (ms: number): number => civilFromDays(Math.floor(ms / DAY_MS))[0];

export class ZoneClock {
  /** Consecutive stretches of one offset, covering every instant (the first and last reach out forever). */
  readonly segments: Segment[];

  /** The zone's clock, exact for instants within two days of [lo, hi]. */
  constructor(
    readonly zone: string,
    lo: number,
    hi: number,
  ) {
    const changes: Change[] = [];
    for (let y = yearOf(lo - 2 * DAY_MS); y <= yearOf(hi + 2 * DAY_MS); y++) {
      for (const change of changesOfYear(zone, y)) {
        const last = changes[changes.length - 1];
        // Neighbouring years overlap by days: keep a change once, and only when the offset changes.
        if (!last) changes.push(change);
        else if (change.at > last.at && change.offset !== last.offset) changes.push(change);
      }
    }
    this.segments = changes.map((c, i) => ({
      from: c.at,
      to: i + 1 < changes.length ? changes[i + 1].at : Infinity,
      offset: c.offset,
    }));
  }

  /** Minutes east of UTC at the instant. */
  offsetAt(ms: number): number {
    let offset = this.segments[0].offset;
    for (const s of this.segments) {
      if (s.from > ms) break;
      offset = s.offset;
    }
    return offset;
  }

  /** The wall clock the instant shows, as milliseconds of a UTC-less local time line (day 0 = 1970-01-01). */
  local(ms: number): number {
    return ms + this.offsetAt(ms) * MINUTE_MS;
  }

  /** The local date's day number (1970-01-01 is 0). */
  localDay(ms: number): number {
    return Math.floor(this.local(ms) / DAY_MS);
  }

  /**
   * Every instant whose wall clock reads in [localStart, localEnd): one interval on an
   * ordinary day, none in a skipped stretch, two around an hour that repeats.
   */
  instantsShowing(localStart: number, localEnd: number): Interval[] {
    const out: Interval[] = [];
    for (const s of this.segments) {
      const start = Math.max(s.from, localStart - s.offset * MINUTE_MS);
      const end = Math.min(s.to, localEnd - s.offset * MINUTE_MS);
      if (end > start) {
        const last = out[out.length - 1];
        if (last && last.end === start) last.end = end;
        else out.push({ start, end });
      }
    }
    return out;
  }

  /** The first instant whose wall clock reads `localTime` or later (local midnight, or the end of a gap). */
  firstInstantAtOrAfter(localTime: number): number {
    for (const s of this.segments) {
      const candidate = Math.max(s.from, localTime - s.offset * MINUTE_MS);
      if (candidate < s.to) return candidate;
    }
    return localTime - this.segments[this.segments.length - 1].offset * MINUTE_MS;
  }

  /** The instant as ISO 8601 with this zone's offset at it: `2026-07-06T09:30:00+02:00`. */
  format(ms: number): string {
    const offset = this.offsetAt(ms);
    const local = ms + offset * MINUTE_MS;
    const day = Math.floor(local / DAY_MS);
    const seconds = Math.floor((local - day * DAY_MS) / 1000);
    const abs = Math.abs(offset);
    return (
      `${fromDayNumber(day)}T${pad2(Math.floor(seconds / 3600))}:${pad2(Math.floor(seconds / 60) % 60)}:` +
      `${pad2(seconds % 60)}${offset < 0 ? "-" : "+"}${pad2(Math.floor(abs / 60))}:${pad2(abs % 60)}`
    );
  }
}

const pad2 = (n: number): string => (n < 10 ? "0" : "") + n;
