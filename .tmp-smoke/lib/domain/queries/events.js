/**
 * Reads of events: the ordered, filtered, paged list (GET .../events), occurrences in a date
 * range (GET .../occurrences, pages, feeds) and someday events. Every function takes
 * event sources (queries/sources.ts): `main` for the calendar's own events, a layer key
 * for an attached calendar's. Dates and times of an event are local to its OWN calendar's
 * timezone and are never converted into a host calendar's zone; `start`/`end` instants
 * carry the offset of that zone.
 */
import { errors } from "../../http/errors.js";
import { instantFormatter } from "../events/instants.js";
import { paths } from "../paths.js";
import { daysBetween, dayNumber, expandRecurrence, occursBetween, recurError, todayIn } from "../recurrence/index.js";
const MIN_DATE = "0001-01-01";
const MAX_DATE = "9999-12-31";
/** The date a series starts when its rule has none stored: the creation date in the calendar's timezone. */
export const defaultStartsOf = (event, calendar) => todayIn(calendar.timezone, new Date(event.created_at));
/** The events of each source, read in parallel (one query inside each calendar). */
export async function loadSourceEvents(deps, sources) {
    const lists = await Promise.all(sources.map((s) => deps.store.query(paths.events(s.calendar.id))));
    return sources.map((s, i) => ({ ...s, events: lists[i].map((d) => d.data) }));
}
/** One event of the calendar; an id under another calendar is 404. */
export async function getEvent(deps, calendarId, eventId) {
    const doc = await deps.store.get(paths.event(calendarId, eventId));
    if (!doc)
        throw errors.notFound("event");
    return doc.data;
}
const GROUP = { "one-off": 0, recurring: 1, someday: 2 };
const sortKey = (e) => [GROUP[e.kind], e.date ?? "", e.start_time ?? "", e.created_at, e.id];
function compareKeys(a, b) {
    for (let i = 0; i < a.length; i++) {
        if (a[i] < b[i])
            return -1;
        if (a[i] > b[i])
            return 1;
    }
    return 0;
}
/** The cursor is the sort key of the last event returned: stable under inserts and deletes. */
const encodeCursor = (key) => Buffer.from(JSON.stringify(key)).toString("base64url");
function decodeCursor(cursor) {
    let key;
    try {
        key = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    }
    catch {
        key = null;
    }
    const valid = Array.isArray(key) && key.length === 5 && typeof key[0] === "number" && key.slice(1).every((v) => typeof v === "string");
    if (!valid) {
        throw errors.invalid("invalid_request", "query: `cursor` is not one this endpoint gave out; send the `next_cursor` of the previous page, or omit it to start over", {
            field: "cursor",
            issues: [{ field: "cursor", message: "is not a valid cursor" }],
        });
    }
    return key;
}
function inRange(event, calendar, from, to) {
    if (from === undefined && to === undefined)
        return true;
    const lo = from ?? MIN_DATE;
    const hi = to ?? MAX_DATE;
    if (event.kind === "one-off")
        return event.date >= lo && event.date <= hi;
    if (event.kind === "recurring") {
        const recur = event.recur;
        return recurError(recur) === null && occursBetween(recur, recur.starts ?? defaultStartsOf(event, calendar), lo, hi);
    }
    return false; // someday events have no date, so a date range leaves them out
}
/**
 * One page of events of the sources, in list order. `from`/`to` (inclusive) keep one-off
 * events dated in the range and recurring events occurring in it, and leave someday events out.
 */
export async function listEvents(deps, sources, options) {
    const after = options.cursor === undefined ? null : decodeCursor(options.cursor);
    const loaded = await loadSourceEvents(deps, sources);
    const matching = [];
    for (const source of loaded) {
        for (const event of source.events) {
            if (options.kind !== undefined && event.kind !== options.kind)
                continue;
            if (options.category !== undefined && event.category !== options.category)
                continue;
            if (!inRange(event, source.calendar, options.from, options.to))
                continue;
            const key = sortKey(event);
            if (after && compareKeys(key, after) <= 0)
                continue;
            matching.push({ layer: source.layer, event, key });
        }
    }
    matching.sort((a, b) => compareKeys(a.key, b.key));
    const page = matching.slice(0, options.limit);
    const nextCursor = matching.length > options.limit ? encodeCursor(page[page.length - 1].key) : null;
    return { events: page.map(({ layer, event }) => ({ layer, event })), nextCursor };
}
/** Someday events of the sources (they never occur), oldest first. */
export async function listSomeday(deps, sources) {
    const loaded = await loadSourceEvents(deps, sources);
    return loaded
        .flatMap((s) => s.events.filter((e) => e.kind === "someday").map((event) => ({ layer: s.layer, event })))
        .sort((a, b) => compareKeys(sortKey(a.event), sortKey(b.event)));
}
// ---------------------------------------------------------------------------------------
// Occurrences
/** Longest range of an occurrences request: 366 days, both ends included. */
export const MAX_OCCURRENCE_DAYS = 366;
/** Every occurrence of the sources' one-off and recurring events in [from, to] (inclusive). */
export async function listOccurrences(deps, sources, from, to) {
    return expandOccurrences(await loadSourceEvents(deps, sources), from, to);
}
/**
 * Pure expansion, sorted by date, then time (untimed first), then the event's creation.
 * Events are ordered once and their occurrences dropped into one bucket per day, so the
 * cost is linear in the number of occurrences (no sort over occurrences).
 */
export function expandOccurrences(sources, from, to) {
    const days = daysBetween(from, to) + 1;
    if (days <= 0)
        return [];
    const firstDay = dayNumber(from);
    const buckets = Array.from({ length: days }, () => []);
    const formatters = new Map();
    const formatterFor = (zone) => {
        let f = formatters.get(zone);
        if (!f)
            formatters.set(zone, (f = instantFormatter(zone, from, to)));
        return f;
    };
    const entries = sources.flatMap((s) => s.events.filter((e) => e.kind !== "someday").map((event) => ({ source: s, event })));
    entries.sort((a, b) => cmp(a.event.start_time ?? "", b.event.start_time ?? "") ||
        cmp(a.event.created_at, b.event.created_at) ||
        cmp(a.event.id, b.event.id));
    for (const { source, event } of entries) {
        const dates = datesOf(event, source.calendar, from, to);
        if (dates.length === 0)
            continue;
        const instant = event.start_time ? formatterFor(source.calendar.timezone) : null;
        for (const date of dates) {
            buckets[dayNumber(date) - firstDay].push({
                event_id: event.id,
                layer: source.layer,
                date,
                start_time: event.start_time,
                end_time: event.end_time,
                name: event.name,
                category: event.category,
                start: instant ? instant(date, event.start_time) : null,
                end: instant && event.end_time ? instant(date, event.end_time) : null,
            });
        }
    }
    return buckets.flat();
}
function datesOf(event, calendar, from, to) {
    if (event.kind === "one-off")
        return event.date >= from && event.date <= to ? [event.date] : [];
    const recur = event.recur;
    if (!recur || recurError(recur) !== null)
        return []; // every write is validated; never crash on an odd record
    return expandRecurrence(recur, recur.starts ?? defaultStartsOf(event, calendar), from, to);
}
const cmp = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
//# sourceMappingURL=events.js.map