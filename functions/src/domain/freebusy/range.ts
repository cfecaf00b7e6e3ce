/**
 * The `from` and `to` of free/busy: each an instant with its UTC offset
 * (`2026-07-06T09:00:00+02:00`, `...Z`, seconds optional) or a date (`2026-07-06`). A date
 * means its whole day in the request's time zone: `from` its first instant, `to` the end of
 * it (dates are inclusive, as everywhere in the API). At most 62 days, read on the clocks the
 * values are written in, so a range across a DST change is not cut an hour short.
 */
import { dayNumber, isInputDate } from "../recurrence/index.js";
import type { Interval } from "./intervals.js";
import { DAY_MS, MINUTE_MS, ZoneClock } from "./zone.js";

export const MAX_RANGE_DAYS = 62;

export type TimeBound = { kind: "date"; day: number } | { kind: "instant"; ms: number; offset: number };

const INSTANT = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?(?:(Z)|([+-])([01]\d|2[0-3]):([0-5]\d))$/;

/** A date or an instant with an offset; null for anything else (no offset is ambiguous, so refused). */
export function parseBound(text: string): TimeBound | null {
  if (isInputDate(text)) return { kind: "date", day: dayNumber(text) };
  const m = INSTANT.exec(text);
  if (!m || !isInputDate(m[1])) return null;
  const offset = m[5] ? 0 : (m[6] === "-" ? -1 : 1) * (Number(m[7]) * 60 + Number(m[8]));
  const local = dayNumber(m[1]) * DAY_MS + (Number(m[2]) * 60 + Number(m[3])) * MINUTE_MS + Number(m[4] ?? 0) * 1000;
  return { kind: "instant", ms: local - offset * MINUTE_MS, offset };
}

/** The wall clock a bound reads: an instant's at its own offset; a date's midnight, or for `to` the midnight ending it. */
function wallClock(bound: TimeBound, side: "from" | "to"): number {
  if (bound.kind === "instant") return bound.ms + bound.offset * MINUTE_MS;
  return (bound.day + (side === "to" ? 1 : 0)) * DAY_MS;
}

/** What is wrong with the range, said of `to`; null when it is fine. */
export function rangeProblem(from: TimeBound, to: TimeBound): string | null {
  const length = wallClock(to, "to") - wallClock(from, "from");
  if (length <= 0 || (from.kind === "instant" && to.kind === "instant" && to.ms <= from.ms)) {
    return "must be after `from`";
  }
  if (length > MAX_RANGE_DAYS * DAY_MS) {
    return `must be at most ${MAX_RANGE_DAYS} days after \`from\` (a date \`to\` counts its whole day); ask for a shorter range`;
  }
  return null;
}

/** A clock of `zone` wide enough for the range's instants. */
export function clockFor(zone: string, from: TimeBound, to: TimeBound): ZoneClock {
  return new ZoneClock(zone, wallClock(from, "from") - DAY_MS, wallClock(to, "to") + DAY_MS);
}

/** The range as instants, its dates read on `clock`: [first instant of `from`, end of `to`). */
export function resolveRange(from: TimeBound, to: TimeBound, clock: ZoneClock): Interval {
  const at = (bound: TimeBound, side: "from" | "to") =>
    bound.kind === "instant" ? bound.ms : clock.firstInstantAtOrAfter(wallClock(bound, side));
  return { start: at(from, "from"), end: at(to, "to") };
}
