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
import ical, { escape } from "ical-generator";
import { DateTime } from "luxon";
import { defaultStartsOf } from "../domain/queries/events.js";
import { addDays, firstOccurrenceOnOrAfter, recurError, toRRule } from "../domain/recurrence/index.js";
import { buildVTimezone } from "./vtimezone.js";
/** How often subscribed clients that honour REFRESH-INTERVAL should poll. */
const REFRESH_SECONDS = 3600;
export function buildIcs(feed) {
    const entries = [];
    for (const source of feed.sources) {
        for (const event of source.events) {
            const entry = toIcalEvent(event, source, feed);
            if (entry)
                entries.push(entry);
        }
    }
    entries.sort((a, b) => (a.sortKey < b.sortKey ? -1 : a.sortKey > b.sortKey ? 1 : 0));
    // The years each zone's VTIMEZONE must cover: every date written with that zone.
    const zoneYears = new Map();
    for (const { zone, years } of entries) {
        if (!zone)
            continue;
        const span = zoneYears.get(zone) ?? { from: Infinity, to: -Infinity };
        zoneYears.set(zone, { from: Math.min(span.from, ...years), to: Math.max(span.to, ...years) });
    }
    const calendar = ical({
        prodId: { company: "almanac", product: "feeds", language: "EN" },
        name: escape(feed.name, false),
        description: feed.description ? escape(feed.description, false) : null,
        url: feed.url,
        ttl: REFRESH_SECONDS,
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
    for (const { data } of entries)
        calendar.createEvent(data);
    return calendar.toString();
}
function toIcalEvent(event, source, feed) {
    const schedule = scheduleOf(event, source.timezone, feed.range);
    if (!schedule)
        return null;
    const { date, rrule, until } = schedule;
    const zone = source.timezone;
    const utc = isUtc(zone);
    const timed = event.start_time !== null;
    const data = {
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
    const years = [date, until].filter((d) => d !== null).map((d) => Number(d.slice(0, 4)));
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
function scheduleOf(event, zone, range) {
    const from = range?.from ?? null;
    const to = range?.to ?? null;
    if (event.kind === "one-off" && event.date) {
        if ((from && event.date < from) || (to && event.date > to))
            return null;
        return { date: event.date, rrule: null, until: null };
    }
    if (event.kind !== "recurring" || !event.recur || recurError(event.recur) !== null)
        return null;
    // `starts` stays as stored, so that INTERVAL keeps counting from the same period;
    // only the first date moves up to the range's start and `until` down to its end.
    const recur = { ...event.recur };
    if (to && (recur.until == null || recur.until > to))
        recur.until = to;
    const defaultStarts = defaultStartsOf(event, { timezone: zone });
    const { dtstart, rrule } = toRRule(recur, defaultStarts);
    const first = from ? firstOccurrenceOnOrAfter(recur, defaultStarts, from) : dtstart;
    if (!first)
        return null;
    return { date: first, rrule, until: recur.until ?? null };
}
/**
 * RFC 5545 3.3.10: with a DATE-TIME DTSTART, UNTIL is a UTC date-time. The series ends with
 * the last moment of its `until` day in the event's zone.
 */
function withUtcUntil(rrule, until, zone) {
    if (!until)
        return rrule;
    const end = DateTime.fromISO(`${until}T23:59:59`, { zone }).toUTC().toFormat("yyyyLLdd'T'HHmmss'Z'");
    return rrule
        .split(";")
        .map((part) => (part.startsWith("UNTIL=") ? `UNTIL=${end}` : part))
        .join(";");
}
const isUtc = (zone) => zone === "UTC";
/**
 * A local date (and time) written exactly as stored. ical-generator formats luxon-like
 * values through `setZone(zone).toFormat(...)`; a real luxon DateTime would move a time
 * that falls in a DST gap (02:30 on a spring-forward day), which for a series would move
 * every occurrence. This value keeps the wall-clock reading; clients resolve gaps as
 * RFC 5545 says.
 */
export class WallClock {
    date;
    time;
    zoneName;
    zone = { type: "wallclock" };
    isValid = true;
    constructor(date, time, zoneName) {
        this.date = date;
        this.time = time;
        this.zoneName = zoneName;
    }
    /** Only the own zone (or UTC for a UTC value, or anything for a date) can be asked for. */
    setZone(zone) {
        const same = zone === this.zoneName || (isUtc(this.zoneName) && zone?.toUpperCase() === "UTC");
        if (this.time !== null && !same)
            throw new Error(`WallClock in ${this.zoneName} asked for zone ${zone}`);
        return this;
    }
    toFormat(format) {
        if (format === "yyyyLLdd")
            return this.date.replaceAll("-", "");
        if (format === "HHmmss")
            return `${(this.time ?? "00:00").replace(":", "")}00`;
        throw new Error(`WallClock cannot format ${format}`);
    }
    /** Only used to order start and end: the reading as if it were UTC is enough. */
    toJSDate() {
        return new Date(`${this.date}T${this.time ?? "00:00"}:00Z`);
    }
    toJSON() {
        return this.time === null ? this.date : `${this.date}T${this.time}:00`;
    }
}
//# sourceMappingURL=ics.js.map