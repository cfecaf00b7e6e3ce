/**
 * Reads of events: the ordered, filtered, paged list (GET .../events), occurrences in a date
 * range (GET .../occurrences, pages, feeds) and someday events. Every function takes
 * event sources (queries/sources.ts): `main` for the calendar's own events, a layer key
 * for an attached calendar's. Dates and times of an event are local to its OWN calendar's
 * timezone and are never converted into a host calendar's zone; `start`/`end` instants
 * carry the offset of that zone.
 */
import { errors } from "../../http/errors.js";
import type { Deps } from "../deps.js";
import { instantFormatter, type InstantFormatter } from "../events/instants.js";
import { paths } from "../paths.js";
import { daysBetween, dayNumber, expandRecurrence, fromDayNumber, occursBetween, recurError, todayIn } from "../recurrence/index.js";
import type { CalendarRecord, EventKind, EventRecord, Occurrence } from "../types.js";
import type { EventSource } from "./sources.js";

/** An event together with the layer it was read through (`main` for the calendar's own). */
export interface LayeredEvent {
  layer: string;
  event: EventRecord;
}

/** An occurrence plus its instants: null when the event has no time (no end_time: end null). */
export interface TimedOccurrence extends Occurrence {
  start: string | null;
  end: string | null;
}

const MIN_DATE = "0001-01-01";
const MAX_DATE = "9999-12-31";

/** The date a series starts when its rule has none stored: the creation date in the calendar's timezone. */
export const defaultStartsOf = (event: Pick<EventRecord, "created_at">, calendar: Pick<CalendarRecord, "timezone">): string =>
  todayIn(calendar.timezone, new Date(event.created_at));

/** The events of each source, read in parallel (one query inside each calendar). */
export async function loadSourceEvents(deps: Deps, sources: EventSource[]): Promise<Array<EventSource & { events: EventRecord[] }>> {
  const lists = await Promise.all(sources.map((s) => deps.store.query<EventRecord>(paths.events(s.calendar.id))));
  return sources.map((s, i) => ({ ...s, events: lists[i].map((d) => d.data) }));
}

/** One event of the calendar; an id under another calendar is 404. */
export async function getEvent(deps: Deps, calendarId: string, eventId: string): Promise<EventRecord> {
  const doc = await deps.store.get<EventRecord>(paths.event(calendarId, eventId));
  if (!doc) throw errors.notFound("event");
  return doc.data;
}

// ---------------------------------------------------------------------------------------
// GET .../events

export interface ListEventsOptions {
  from?: string;
  to?: string;
  category?: string;
  kind?: EventKind;
  limit: number;
  cursor?: string;
}

/** Sort key of DECISIONS 5: dated by date then start time (untimed first), then recurring, then someday; ties by creation. */
type SortKey = [group: number, date: string, time: string, createdAt: string, id: string];

const GROUP: Record<EventKind, number> = { "one-off": 0, recurring: 1, someday: 2 };

/** Only dated events order by date and time; recurring and someday ones by creation within their group. */
const sortKey = (e: EventRecord): SortKey =>
  e.kind === "one-off" ? [0, e.date!, e.start_time ?? "", e.created_at, e.id] : [GROUP[e.kind], "", "", e.created_at, e.id];

function compareKeys(a: SortKey, b: SortKey): number {
  for (let i = 0; i < a.length; i++) {
    if (a[i] < b[i]) return -1;
    if (a[i] > b[i]) return 1;
  }
  return 0;
}

/** The cursor is the sort key of the last event returned: stable under inserts and deletes. */
const encodeCursor = (key: SortKey): string => Buffer.from(JSON.stringify(key)).toString("base64url");

function decodeCursor(cursor: string): SortKey {
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    key = null;
  }
  const valid =
    Array.isArray(key) && key.length === 5 && typeof key[0] === "number" && key.slice(1).every((v) => typeof v === "string");
  if (!valid) {
    throw errors.invalid("invalid_request", "query: `cursor` is not one this endpoint gave out; send the `next_cursor` of the previous page, or omit it to start over", {
      field: "cursor",
      issues: [{ field: "cursor", message: "is not a valid cursor" }],
    });
  }
  return key as SortKey;
}

function inRange(event: EventRecord, calendar: CalendarRecord, from: string | undefined, to: string | undefined): boolean {
  if (from === undefined && to === undefined) return true;
  const lo = from ?? MIN_DATE;
  const hi = to ?? MAX_DATE;
  if (event.kind === "one-off") return event.date! >= lo && event.date! <= hi;
  if (event.kind === "recurring") {
    const recur = event.recur!;
    return recurError(recur) === null && occursBetween(recur, recur.starts ?? defaultStartsOf(event, calendar), lo, hi);
  }
  return false; // someday events have no date, so a date range leaves them out
}

/**
 * One page of events of the sources, in list order. `from`/`to` (inclusive) keep one-off
 * events dated in the range and recurring events occurring in it, and leave someday events out.
 */
export async function listEvents(
  deps: Deps,
  sources: EventSource[],
  options: ListEventsOptions,
): Promise<{ events: LayeredEvent[]; nextCursor: string | null }> {
  const after = options.cursor === undefined ? null : decodeCursor(options.cursor);
  const loaded = await loadSourceEvents(deps, sources);
  const matching: Array<LayeredEvent & { key: SortKey }> = [];
  for (const source of loaded) {
    for (const event of source.events) {
      if (options.kind !== undefined && event.kind !== options.kind) continue;
      if (options.category !== undefined && event.category !== options.category) continue;
      if (!inRange(event, source.calendar, options.from, options.to)) continue;
      const key = sortKey(event);
      if (after && compareKeys(key, after) <= 0) continue;
      matching.push({ layer: source.layer, event, key });
    }
  }
  matching.sort((a, b) => compareKeys(a.key, b.key));
  const page = matching.slice(0, options.limit);
  const nextCursor = matching.length > options.limit ? encodeCursor(page[page.length - 1].key) : null;
  return { events: page.map(({ layer, event }) => ({ layer, event })), nextCursor };
}

/** Someday events of the sources (they never occur), oldest first. */
export async function listSomeday(deps: Deps, sources: EventSource[]): Promise<LayeredEvent[]> {
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
export async function listOccurrences(deps: Deps, sources: EventSource[], from: string, to: string): Promise<TimedOccurrence[]> {
  return expandOccurrences(await loadSourceEvents(deps, sources), from, to);
}

/**
 * Pure expansion, sorted by date, then time (untimed first), then the event's creation.
 * Events are ordered once and their occurrences placed by a counting sort on the day, so the
 * cost is linear in the number of occurrences (no comparison sort over occurrences).
 */
export function expandOccurrences(
  sources: Array<{ layer: string; calendar: CalendarRecord; events: EventRecord[] }>,
  from: string,
  to: string,
): TimedOccurrence[] {
  const days = daysBetween(from, to) + 1;
  if (days <= 0) return [];
  const dayIndex = new Map<string, number>();
  for (let i = 0, first = dayNumber(from); i < days; i++) dayIndex.set(fromDayNumber(first + i), i);
  const formatters = new Map<string, InstantFormatter>();
  const formatterFor = (zone: string): InstantFormatter => {
    let f = formatters.get(zone);
    if (!f) formatters.set(zone, (f = instantFormatter(zone, from, to)));
    return f;
  };

  const entries = sources.flatMap((s) => s.events.filter((e) => e.kind !== "someday").map((event) => ({ source: s, event })));
  entries.sort(
    (a, b) =>
      cmp(a.event.start_time ?? "", b.event.start_time ?? "") ||
      cmp(a.event.created_at, b.event.created_at) ||
      cmp(a.event.id, b.event.id),
  );

  const found: TimedOccurrence[] = [];
  const dayOf: number[] = [];
  const perDay = new Array<number>(days + 1).fill(0);
  for (const { source, event } of entries) {
    const dates = datesOf(event, source.calendar, from, to);
    if (dates.length === 0) continue;
    const instant = event.start_time ? formatterFor(source.calendar.timezone) : null;
    for (const date of dates) {
      const day = dayIndex.get(date)!;
      dayOf.push(day);
      perDay[day + 1]++;
      found.push({
        event_id: event.id,
        layer: source.layer,
        date,
        start_time: event.start_time,
        end_time: event.end_time,
        name: event.name,
        category: event.category,
        start: instant ? instant(day, event.start_time!) : null,
        end: instant && event.end_time ? instant(day, event.end_time) : null,
      });
    }
  }
  // Counting sort by day; stable, so the event order above holds within a day.
  for (let d = 1; d <= days; d++) perDay[d] += perDay[d - 1];
  const sorted = new Array<TimedOccurrence>(found.length);
  for (let i = 0; i < found.length; i++) sorted[perDay[dayOf[i]]++] = found[i];
  return sorted;
}

function datesOf(event: EventRecord, calendar: CalendarRecord, from: string, to: string): string[] {
  if (event.kind === "one-off") return event.date! >= from && event.date! <= to ? [event.date!] : [];
  const recur = event.recur;
  if (!recur || recurError(recur) !== null) return []; // every write is validated; never crash on an odd record
  return expandRecurrence(recur, recur.starts ?? defaultStartsOf(event, calendar), from, to);
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
