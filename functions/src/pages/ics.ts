/**
 * iCalendar feeds (RFC 5545) from plain records: no store, no clock, so the same records
 * always give the same text (and the same ETag). Any RFC 5545 client expanding a feed gets
 * exactly the occurrences of `/occurrences`, starts and ends (docs/api.md#icalendar-feeds;
 * test/pages/ics-corpus.test.ts checks it with an iCalendar library we did not write).
 *
 * - One-off events: DATE values when untimed (DTEND the day after the last, exclusive), else DTSTART
 *   with the TZID of the event's own calendar (layer events keep their calendar's zone, as the
 *   API does); a UTC calendar writes UTC times ("Z") instead.
 * - A timed event's length is DURATION, never DTEND (docs/api.md#times): `end_time - start_time`
 *   minutes of elapsed time, +24 h overnight, after the whole days of an event spanning days
 *   (`P2DT480M`, days on the wall clock). A client then ends every occurrence where
 *   `/occurrences` does, DST days included: a DTSTART in a gap is moved forward by the client
 *   (RFC 5545 3.3.5), and the duration counts from there. A DTEND in local time would end
 *   02:30-03:00 on a spring-forward day before it starts, and a series would carry the length
 *   of its first occurrence into every other.
 * - Recurring events: DTSTART is the series' first occurrence and the rule is `toRRule`'s;
 *   for timed events UNTIL becomes the end of the last day as a UTC date-time, as RFC 5545
 *   requires when DTSTART has a TZID. Exceptions are EXDATE and RECURRENCE-ID overrides
 *   (ics-exceptions.ts).
 * - SEQUENCE is the record's `sequence` (raised when a time of the event changes).
 * - Each alarm is a VALARM at the end of its VEVENT, an override with its own (ics-alarms.ts).
 * - The text ends with CRLF, as every content line must (RFC 5545 3.1).
 * - Someday events have no date and are left out.
 * - Each zone used gets a VTIMEZONE built from luxon (vtimezone.ts).
 */
import ical, { escape, type ICalEventData } from "ical-generator";
import { DateTime } from "luxon";
import { eventAlarms } from "../domain/events/alarms.js";
import { daysOf } from "../domain/events/span.js";
import { defaultStartsOf } from "../domain/events/stored.js";
import { exceptionsByEvent } from "../domain/queries/occurrences.js";
import { firstOccurrenceOnOrAfter, lastOccurrence, recurError, toRRule } from "../domain/recurrence/index.js";
import type { EventRecord, ExceptionRecord } from "../domain/records.js";
import type { Recur } from "../domain/types.js";
import { alarmsText } from "./ics-alarms.js";
import { exceptionEntries, standaloneEntries } from "./ics-exceptions.js";
import { calendarText } from "./ics-fold.js";
import { occurrenceData, yearsOf, zoneOf, type IcsEntry, type IcsSource, type Schedule } from "./ics-parts.js";
import { buildVTimezone } from "./vtimezone.js";

export { WallClock, type IcsSource } from "./ics-parts.js";

export interface IcsFeed {
  /** X-WR-CALNAME: the calendar's name, or a share view's. */
  name: string;
  /** X-WR-CALDESC, or null. */
  description: string | null;
  /** The page this feed belongs to (`/c/{slug}` or `/v/{slug}`). */
  url: string;
  /** Right-hand side of event UIDs (`evt_…@host`). */
  uidDomain: string;
  sources: IcsSource[];
  /** Only what happens in this range (a share view's from/to); null ends are open. */
  range?: { from: string | null; to: string | null };
  /**
   * Whether one occurrence is shown, on its own category and date (a share view's filter,
   * viewShowsOccurrence); every occurrence when absent. A series some of whose occurrences
   * are not shown leaves them out by EXDATE (ics-exceptions.ts).
   */
  shows?: (layer: string, event: EventRecord, occurrence: { category: string | null; date: string }) => boolean;
}

export function buildIcs(feed: IcsFeed): string {
  const entries: IcsEntry[] = [];
  for (const source of feed.sources) {
    const byEvent = exceptionsByEvent(source.exceptions);
    for (const event of source.events) entries.push(...eventEntries(event, source, feed, byEvent.get(event.id)));
  }
  entries.sort((a, b) => (a.sortKey < b.sortKey ? -1 : a.sortKey > b.sortKey ? 1 : 0));

  // The years each zone's VTIMEZONE must cover: every date written with that zone.
  const zoneYears = new Map<string, { from: number; to: number }>();
  for (const { zone, years } of entries) {
    if (!zone) continue;
    const span = zoneYears.get(zone) ?? { from: Infinity, to: -Infinity };
    zoneYears.set(zone, { from: Math.min(span.from, ...years), to: Math.max(span.to, ...years) });
  }

  const calendar = ical({
    prodId: { company: "almanac", product: "feeds", language: "EN" },
    name: escape(feed.name, false),
    description: feed.description ? escape(feed.description, false) : null,
    url: feed.url,
    // No REFRESH-INTERVAL: ical-generator writes it after the VTIMEZONEs, where RFC 5545 allows
    // no calendar property; clients poll on their own schedule, HTTP caching does the rest.
    // No calendar-wide zone (it would make ical-generator write DTSTAMP in local time): each
    // timed event names its zone, and the generator adds one VTIMEZONE per zone named.
    timezone: {
      name: null,
      generator: (zone) => {
        const span = zoneYears.get(zone);
        return span ? buildVTimezone(zone, span.from, span.to) : null;
      },
    },
  });
  for (const { data } of entries) calendar.createEvent(data);
  const alarms = entries.map((entry) => alarmsText(entry.alarms, entry.data.summary ?? ""));
  // calendar.toString(), folded in one pass (ics-fold.ts); it leaves END:VCALENDAR without its CRLF.
  return `${calendarText(calendar, alarms)}\r\n`;
}

/**
 * The event's VEVENT and, for a series, the VEVENTs of its moved or changed occurrences. A
 * series whose own occurrences are not shown (or have no date in the range) is left out, and
 * its shown exceptions become events of their own.
 */
function eventEntries(
  event: EventRecord,
  source: IcsSource,
  feed: IcsFeed,
  excepted: ReadonlyMap<string, ExceptionRecord> | undefined,
): IcsEntry[] {
  const shows = (o: { category: string | null; date: string }) => !feed.shows || feed.shows(source.layer, event, o);
  const exceptionsInput = {
    event,
    source,
    uidDomain: feed.uidDomain,
    range: feed.range,
    exceptions: excepted ? [...excepted.values()] : [],
    shows,
  };
  const schedule = scheduleOf(event, source.timezone, feed.range);
  // The own occurrences differ only by date, and the range has cut their dates: the first stands for all.
  if (!schedule || !shows({ category: event.category, date: schedule.date })) {
    return event.kind === "recurring" ? standaloneEntries(exceptionsInput) : [];
  }
  const { date, rrule, until } = schedule;
  const zone = source.timezone;
  const timed = event.start_time !== null;
  const exceptions =
    rrule && excepted ? exceptionEntries({ ...exceptionsInput, schedule }) : { exdate: null, entries: [] };
  const rule = rrule && `RRULE:${timed ? withUtcUntil(rrule, until, zone) : rrule}`;
  const data: ICalEventData = {
    ...occurrenceData(source, {
      date,
      start_time: event.start_time,
      end_time: event.end_time,
      days: daysOf(event),
      name: event.name,
      category: event.category,
      notes: event.notes,
    }),
    id: `${event.id}@${feed.uidDomain}`,
    sequence: event.sequence ?? 0,
    stamp: new Date(event.updated_at),
    created: new Date(event.created_at),
    lastModified: new Date(event.updated_at),
    // A string is written line by line as given (ical-generator takes rrule.js' "RRULE:…\nEXDATE:…" so).
    repeating: rule && (exceptions.exdate ? `${rule}\n${exceptions.exdate}` : rule),
  };
  const sortKey = `${date} ${event.start_time ?? ""} ${event.created_at} ${event.id}`;
  return [
    { sortKey, data, zone: zoneOf(zone, timed), years: yearsOf(date, until), alarms: eventAlarms(event) },
    ...exceptions.entries.map((entry) => ({ ...entry, sortKey: `${sortKey} ${entry.sortKey}` })),
  ];
}

/**
 * When and how the event happens within `range`: the first date, and for a series the rule
 * and its last allowed date. Null when nothing of it falls in the range (someday events,
 * series with no occurrence, invalid stored rules).
 */
function scheduleOf(event: EventRecord, zone: string, range: IcsFeed["range"]): Schedule | null {
  const from = range?.from ?? null;
  const to = range?.to ?? null;
  if (event.kind === "one-off" && event.date) {
    if ((from && event.date < from) || (to && event.date > to)) return null;
    return { date: event.date, rrule: null, until: null, recur: null, defaultStarts: null };
  }
  if (event.kind !== "recurring" || !event.recur || recurError(event.recur) !== null) return null;
  // `starts` stays as stored, so that INTERVAL keeps counting from the same period;
  // only the first date moves up to the range's start and `until` down to its end.
  const recur: Recur = { ...event.recur };
  const defaultStarts = defaultStartsOf(event, { timezone: zone });
  if (recur.count != null && (from || to)) {
    // A moved DTSTART would count COUNT again from there: a cut series ends on its last date instead.
    const last = lastOccurrence(recur, defaultStarts);
    if (!last) return null;
    recur.until = last;
    delete recur.count;
  }
  if (to && (recur.until == null || recur.until > to)) recur.until = to;
  const { dtstart, rrule } = toRRule(recur, defaultStarts);
  const first = from ? firstOccurrenceOnOrAfter(recur, defaultStarts, from) : dtstart;
  if (!first) return null;
  return { date: first, rrule, until: recur.until ?? null, recur, defaultStarts };
}

/**
 * RFC 5545 3.3.10: with a DATE-TIME DTSTART, UNTIL is a UTC date-time. The series ends with
 * the last moment of its `until` day in the event's zone.
 */
function withUtcUntil(rrule: string, until: string | null, zone: string): string {
  if (!until) return rrule;
  const end = DateTime.fromISO(`${until}T23:59:59`, { zone }).toUTC().toFormat("yyyyLLdd'T'HHmmss'Z'");
  return rrule
    .split(";")
    .map((part) => (part.startsWith("UNTIL=") ? `UNTIL=${end}` : part))
    .join(";");
}
