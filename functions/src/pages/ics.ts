/**
 * iCalendar feeds (RFC 5545) from plain records: no store, no clock, so the same records
 * always give the same text (and the same ETag).
 *
 * - One-off events: DATE values when untimed (DTEND the next day, exclusive), else
 *   DTSTART/DTEND with the TZID of the event's own calendar (layer events keep their
 *   calendar's zone, as the API does); a UTC calendar writes UTC times ("Z") instead.
 * - Recurring events: DTSTART is the series' first occurrence and the rule is `toRRule`'s;
 *   for timed events UNTIL becomes the end of the last day as a UTC date-time, as RFC 5545
 *   requires when DTSTART has a TZID.
 * - Someday events have no date and are left out.
 * - Each zone used gets a VTIMEZONE built from luxon (vtimezone.ts).
 */
import ical, { escape, type ICalEventData, type ICalLuxonDateTimeStub } from "ical-generator";
import { DateTime } from "luxon";
import { defaultStartsOf } from "../domain/queries/events.js";
import { addDays, firstOccurrenceOnOrAfter, recurError, toRRule } from "../domain/recurrence/index.js";
import type { EventRecord } from "../domain/records.js";
import type { Recur } from "../domain/types.js";
import { buildVTimezone } from "./vtimezone.js";

export interface IcsSource {
  /** `main` for the calendar's own events, else the layer key. */
  layer: string;
  /** The IANA zone this source's dates and times are local to (its own calendar's). */
  timezone: string;
  events: EventRecord[];
}

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
}

export function buildIcs(feed: IcsFeed): string {
  const entries: Array<{ sortKey: string; data: ICalEventData; zone: string | null; years: number[] }> = [];
  for (const source of feed.sources) {
    for (const event of source.events) {
      const entry = toIcalEvent(event, source, feed);
      if (entry) entries.push(entry);
    }
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
  return calendar.toString();
}

function toIcalEvent(
  event: EventRecord,
  source: IcsSource,
  feed: IcsFeed,
): { sortKey: string; data: ICalEventData; zone: string | null; years: number[] } | null {
  const schedule = scheduleOf(event, source.timezone, feed.range);
  if (!schedule) return null;
  const { date, rrule, until } = schedule;
  const zone = source.timezone;
  const utc = isUtc(zone);
  const timed = event.start_time !== null;
  const data: ICalEventData = {
    id: `${event.id}@${feed.uidDomain}`,
    summary: event.name,
    stamp: new Date(event.updated_at),
    created: new Date(event.created_at),
    lastModified: new Date(event.updated_at),
    start: new WallClock(date, event.start_time, zone),
    end: timed
      ? event.end_time
        ? new WallClock(date, event.end_time, zone)
        : null // RFC 5545: a DATE-TIME start without an end is an instant
      : new WallClock(addDays(date, 1), null, zone),
    allDay: !timed,
    timezone: timed && !utc ? zone : null,
    description: event.notes,
    categories: event.category ? [{ name: event.category }] : [],
    repeating: rrule ? (timed ? withUtcUntil(rrule, until, zone) : rrule) : null,
    x: source.layer === "main" ? [] : [["X-ALMANAC-LAYER", source.layer]],
  };
  const years = [date, until].filter((d): d is string => d !== null).map((d) => Number(d.slice(0, 4)));
  return {
    sortKey: `${date} ${event.start_time ?? ""} ${event.created_at} ${event.id}`,
    data,
    zone: timed && !utc ? zone : null,
    years,
  };
}

/**
 * When and how the event happens within `range`: the first date, and for a series the rule
 * and its last allowed date. Null when nothing of it falls in the range (someday events,
 * series with no occurrence, invalid stored rules).
 */
function scheduleOf(
  event: EventRecord,
  zone: string,
  range: IcsFeed["range"],
): { date: string; rrule: string | null; until: string | null } | null {
  const from = range?.from ?? null;
  const to = range?.to ?? null;
  if (event.kind === "one-off" && event.date) {
    if ((from && event.date < from) || (to && event.date > to)) return null;
    return { date: event.date, rrule: null, until: null };
  }
  if (event.kind !== "recurring" || !event.recur || recurError(event.recur) !== null) return null;
  // `starts` stays as stored, so that INTERVAL keeps counting from the same period;
  // only the first date moves up to the range's start and `until` down to its end.
  const recur: Recur = { ...event.recur };
  if (to && (recur.until == null || recur.until > to)) recur.until = to;
  const defaultStarts = defaultStartsOf(event, { timezone: zone });
  const { dtstart, rrule } = toRRule(recur, defaultStarts);
  const first = from ? firstOccurrenceOnOrAfter(recur, defaultStarts, from) : dtstart;
  if (!first) return null;
  return { date: first, rrule, until: recur.until ?? null };
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

const isUtc = (zone: string): boolean => zone === "UTC";

/**
 * A local date (and time) written exactly as stored. ical-generator formats luxon-like
 * values through `setZone(zone).toFormat(...)`; a real luxon DateTime would move a time
 * that falls in a DST gap (02:30 on a spring-forward day), which for a series would move
 * every occurrence. This value keeps the wall-clock reading; clients resolve gaps as
 * RFC 5545 says.
 */
export class WallClock implements ICalLuxonDateTimeStub {
  readonly zone = { type: "wallclock" };
  readonly isValid = true;

  constructor(
    readonly date: string,
    readonly time: string | null,
    private readonly zoneName: string,
  ) {}

  /** Only the own zone (or UTC for a UTC value, or anything for a date) can be asked for. */
  setZone(zone?: string): WallClock {
    const same = zone === this.zoneName || (isUtc(this.zoneName) && zone?.toUpperCase() === "UTC");
    if (this.time !== null && !same) throw new Error(`WallClock in ${this.zoneName} asked for zone ${zone}`);
    return this;
  }

  toFormat(format: string): string {
    if (format === "yyyyLLdd") return this.date.replaceAll("-", "");
    if (format === "HHmmss") return `${(this.time ?? "00:00").replace(":", "")}00`;
    throw new Error(`WallClock cannot format ${format}`);
  }

  /** Only used to order start and end: the reading as if it were UTC is enough. */
  toJSDate(): Date {
    return new Date(`${this.date}T${this.time ?? "00:00"}:00Z`);
  }

  toJSON(): string {
    return this.time === null ? this.date : `${this.date}T${this.time}:00`;
  }
}
