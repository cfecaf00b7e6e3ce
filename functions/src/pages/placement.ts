/**
 * Where an instant falls on a page: its local date and HH:MM in the page calendar's timezone
 * (docs/api.md#time-zones-on-pages: every time on a page is in that zone, placed by its instant). Pure;
 * luxon (Intl) gives the zone's offset at the instant, the rest is arithmetic.
 */
import { IANAZone } from "luxon";
import { fromDayNumber } from "../domain/recurrence/index.js";

const MINUTE = 60_000;
const DAY = 86_400_000;

/** A local date ("YYYY-MM-DD") and time ("HH:MM") in one zone. */
export interface LocalPlace {
  date: string;
  time: string;
}

const pad2 = (n: number): string => (n < 10 ? "0" : "") + n;

/**
 * Places instants in one zone (an invalid zone reads as UTC, as the instant formatter does).
 * Intl is asked once per UTC day the instants fall on: a day whose start and end have the same
 * offset keeps it throughout (no zone changes offset twice in a day); only a day with a change
 * asks for each instant's own.
 */
export function placerFor(zone: string): (ms: number) => LocalPlace {
  const tz = IANAZone.create(zone);
  const offsetAt = tz.isValid ? (ms: number) => tz.offset(ms) : () => 0;
  const steady = new Map<number, number | null>();
  const offsetOf = (ms: number): number => {
    const day = Math.floor(ms / DAY);
    let offset = steady.get(day);
    if (offset === undefined) {
      const first = offsetAt(day * DAY);
      steady.set(day, (offset = first === offsetAt((day + 1) * DAY) ? first : null));
    }
    return offset ?? offsetAt(ms);
  };
  return (ms) => {
    const local = ms + offsetOf(ms) * MINUTE;
    const day = Math.floor(local / DAY);
    const minutes = Math.floor((local - day * DAY) / MINUTE);
    return { date: fromDayNumber(day), time: `${pad2(Math.floor(minutes / 60))}:${pad2(minutes % 60)}` };
  };
}

/** The local date and HH:MM of the instant `ms` (UTC epoch milliseconds) in `zone`. */
export const placeInstant = (ms: number, zone: string): LocalPlace => placerFor(zone)(ms);

/** What placing needs of an occurrence: its own date, and its instants (null when untimed). */
export interface Instants {
  date: string;
  start: number | null;
  end: number | null;
}

/** An occurrence's date and times on the page; `end_date` only when it ends on a later date. */
export interface PagePlace {
  date: string;
  start_time: string | null;
  end_time: string | null;
  end_date: string | null;
}

/** Places an occurrence by its instants; an untimed (all-day) one stays on its own date. */
export function placeOccurrence(o: Instants, place: (ms: number) => LocalPlace): PagePlace {
  if (o.start === null) return { date: o.date, start_time: null, end_time: null, end_date: null };
  const start = place(o.start);
  if (o.end === null) return { date: start.date, start_time: start.time, end_time: null, end_date: null };
  const end = place(o.end);
  return {
    date: start.date,
    start_time: start.time,
    end_time: end.time,
    end_date: end.date > start.date ? end.date : null,
  };
}
