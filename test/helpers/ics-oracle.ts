/**
 * An independent reading of an iCalendar feed, to check it against `/occurrences`.
 *
 * ical.js (Mozilla's iCalendar library, the one Thunderbird uses) parses the text, takes the
 * VTIMEZONEs the feed itself carries, and expands every VEVENT: RRULE, EXDATE and
 * RECURRENCE-ID overrides, DURATION. Each occurrence it gives is a local date-time in a zone.
 *
 * Where ical.js departs from RFC 5545, this file resolves instead, and says so:
 * - A local time that does not exist (DST gap) or exists twice (overlap) is the instant RFC
 *   5545 3.3.5 names (the offset before the gap; the first of the two). ical.js 2.2.1 reads a
 *   gap time with the offset after the gap (an hour early) and an overlap time as the second
 *   instant. Such times are resolved with Temporal (`disambiguation: "compatible"`, which is
 *   exactly 3.3.5's rule); every other time must come out of ical.js's own conversion, through
 *   the feed's VTIMEZONE, identical to Temporal's, which checks the VTIMEZONEs too.
 * - The end is the start plus the DURATION as elapsed time (RFC 5545 3.3.6: hours, minutes and
 *   seconds are exact; days are nominal, added to the local date before the exact part).
 *   ical.js adds a duration to the local reading instead, which differs when a DST change
 *   falls inside the event.
 */
import ICAL from "ical.js";
import { Temporal } from "temporal-polyfill";

/** One occurrence as a client sees it. Times are epoch milliseconds; all-day ones have none. */
export interface FeedOccurrence {
  eventId: string;
  layer: string;
  /** The local date it happens on (an override's own date). */
  date: string;
  /** The local date of the series' occurrence it stands for (RECURRENCE-ID), else `date`. */
  originalDate: string;
  start: number | null;
  end: number | null;
  name: string;
  category: string | null;
}

export interface FeedExpansion {
  occurrences: FeedOccurrence[];
  /** Timed occurrences whose local start time is in a DST gap or overlap (resolved by Temporal). */
  atDstEdges: number;
  /** How many of those ical.js's own conversion would have put at another instant. */
  icalJsOffAtDstEdges: number;
}

/** A recurring event expanded past this many occurrences is a runaway rule, not a corpus entry. */
const MAX_OCCURRENCES_PER_EVENT = 5000;

/**
 * Every occurrence of the feed whose local start date is in [from, to] (YYYY-MM-DD),
 * sorted by event, then date, then start.
 */
export function expandFeed(text: string, from: string, to: string): FeedExpansion {
  const calendar = new ICAL.Component(ICAL.parse(text));
  for (const zone of calendar.getAllSubcomponents("vtimezone")) ICAL.TimezoneService.register(new ICAL.Timezone(zone));
  const vevents = calendar.getAllSubcomponents("vevent");
  const overrides = vevents.filter((v) => v.hasProperty("recurrence-id"));
  const result: FeedExpansion = { occurrences: [], atDstEdges: 0, icalJsOffAtDstEdges: 0 };

  for (const master of vevents.filter((v) => !v.hasProperty("recurrence-id"))) {
    // Left to itself, ical.js relates every RECURRENCE-ID of the calendar to every event (it
    // expects one event per calendar object, as CalDAV stores them): give it the event's own.
    const uid = master.getFirstPropertyValue("uid");
    const own = overrides.filter((o) => o.getFirstPropertyValue("uid") === uid);
    const event = new ICAL.Event(master, { strictExceptions: true, exceptions: own });
    const layer = String(master.getFirstPropertyValue("x-almanac-layer") ?? "main");
    const { eventId, movedFrom } = idsOf(event.uid);

    if (!event.isRecurring()) {
      const details = event.getOccurrenceDetails(event.startDate);
      const occurrence = toOccurrence(details, eventId, layer, result);
      if (movedFrom !== null) occurrence.originalDate = movedFrom;
      if (occurrence.date >= from && occurrence.date <= to) result.occurrences.push(occurrence);
      continue;
    }
    // A moved occurrence may land in the range from anywhere: go on past the last override.
    const lastOverride = own
      .map((o) => localDate(o.getFirstPropertyValue("recurrence-id") as ICAL.Time))
      .reduce((a, b) => (a > b ? a : b), to);
    const iterator = event.iterator();
    let count = 0;
    for (let next = iterator.next(); next; next = iterator.next()) {
      if (localDate(next) > lastOverride) break;
      if (++count > MAX_OCCURRENCES_PER_EVENT) throw new Error(`${eventId}: more than ${count} occurrences`);
      const occurrence = toOccurrence(event.getOccurrenceDetails(next), eventId, layer, result);
      if (occurrence.date >= from && occurrence.date <= to) result.occurrences.push(occurrence);
    }
  }
  result.occurrences.sort(
    (a, b) =>
      compare(a.eventId, b.eventId) ||
      compare(a.date, b.date) ||
      (a.start ?? 0) - (b.start ?? 0) ||
      compare(a.originalDate, b.originalDate),
  );
  return result;
}

/**
 * The event id in a UID. A share view's occurrence moved in from outside its cut series is an
 * event of its own, UID `{eventId}_{YYYYMMDD}@host` (pages/ics-exceptions.ts): it is read back
 * as that event's occurrence of that original date.
 */
function idsOf(uid: string): { eventId: string; movedFrom: string | null } {
  const local = uid.split("@")[0];
  const moved = /^(.+)_(\d{4})(\d{2})(\d{2})$/.exec(local);
  return moved
    ? { eventId: moved[1], movedFrom: `${moved[2]}-${moved[3]}-${moved[4]}` }
    : { eventId: local, movedFrom: null };
}

function toOccurrence(
  details: ReturnType<ICAL.Event["getOccurrenceDetails"]>,
  eventId: string,
  layer: string,
  stats: FeedExpansion,
): FeedOccurrence {
  const { item, startDate, recurrenceId } = details;
  const base = {
    eventId,
    layer,
    date: localDate(startDate),
    originalDate: localDate(recurrenceId),
    name: item.summary,
    category: (item.component.getFirstPropertyValue("categories") as string | null) ?? null,
  };
  if (startDate.isDate) return { ...base, start: null, end: null };
  const start = instantOf(startDate, stats);
  return { ...base, start, end: endOf(item, startDate, start, stats) };
}

/** RFC 5545 3.3.5's instant of a local date-time, checked against ical.js's where that is unambiguous. */
function instantOf(time: ICAL.Time, stats: FeedExpansion): number {
  const zone = time.zone?.tzid;
  if (!zone || zone === "floating") throw new Error(`${time.toString()}: a date-time without a known zone`);
  const local = Temporal.PlainDateTime.from({
    year: time.year,
    month: time.month,
    day: time.day,
    hour: time.hour,
    minute: time.minute,
    second: time.second,
  });
  const timeZone = zone === "UTC" || zone === "Z" ? "UTC" : zone;
  const earlier = local.toZonedDateTime(timeZone, { disambiguation: "earlier" }).epochMilliseconds;
  const later = local.toZonedDateTime(timeZone, { disambiguation: "later" }).epochMilliseconds;
  const rfc = local.toZonedDateTime(timeZone, { disambiguation: "compatible" }).epochMilliseconds;
  const icalJs = time.toUnixTime() * 1000;
  if (earlier === later) {
    if (icalJs !== rfc)
      throw new Error(
        `${time.toString()} ${zone}: ical.js reads ${iso(icalJs)} through the feed's VTIMEZONE, Intl ${iso(rfc)}`,
      );
  } else {
    stats.atDstEdges++;
    if (icalJs !== rfc) stats.icalJsOffAtDstEdges++;
  }
  return rfc;
}

/**
 * The end by the DURATION: its days on the local date-time of the start (nominal), then its
 * hours and minutes as elapsed time; null when the event has no DURATION.
 */
function endOf(item: ICAL.Event, startDate: ICAL.Time, start: number, stats: FeedExpansion): number | null {
  const component = item.component;
  if (component.hasProperty("dtend")) throw new Error(`${item.uid}: a timed event with DTEND (DURATION expected)`);
  const duration = component.getFirstPropertyValue("duration") as ICAL.Duration | null;
  if (!duration) return null;
  if (duration.isNegative || duration.weeks)
    throw new Error(`${item.uid}: DURATION ${duration.toString()} (days, hours and minutes expected)`);
  const exact = ((duration.hours * 60 + duration.minutes) * 60 + duration.seconds) * 1000;
  if (!duration.days) return start + exact;
  const daysLater = startDate.clone();
  daysLater.adjust(duration.days, 0, 0, 0);
  return instantOf(daysLater, stats) + exact;
}

const localDate = (time: ICAL.Time): string => time.toString().slice(0, 10);
const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const iso = (ms: number): string => new Date(ms).toISOString();
