/**
 * Reads of events: the ordered, filtered, paged list (GET .../events), occurrences in a date
 * range (GET .../occurrences, pages, feeds) and someday events. Every function takes
 * event sources (queries/sources.ts): `main` for the calendar's own events, a layer key
 * for an attached calendar's. Dates and times of an event are local to its OWN calendar's
 * timezone and are never converted into a host calendar's zone; `start`/`end` instants
 * carry the offset of that zone.
 */
import { errors } from "../errors.js";
import type { Deps } from "../deps.js";
import { instantFormatter, type InstantFormatter } from "../events/instants.js";
import { paths } from "../paths.js";
import { MinHeap } from "../heap.js";
import { compareSortKeys, cursorCodec } from "../paging.js";
import { readShards } from "../revision.js";
import {
  addDays,
  countOccurrences,
  daysBetween,
  dayNumber,
  expandRecurrence,
  firstOccurrenceOnOrAfter,
  isValidDate,
  occursBetween,
  recurError,
  todayIn,
} from "../recurrence/index.js";
import type { CalendarRecord, EventRecord } from "../records.js";
import type { EventKind, Occurrence, Recur } from "../types.js";
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
export const defaultStartsOf = (
  event: Pick<EventRecord, "created_at">,
  calendar: Pick<CalendarRecord, "timezone">,
): string => todayIn(calendar.timezone, new Date(event.created_at));

/** The events of each source, read in parallel (one query inside each calendar). */
export async function loadSourceEvents(
  deps: Deps,
  sources: EventSource[],
): Promise<Array<EventSource & { events: EventRecord[] }>> {
  const lists = await Promise.all(sources.map((s) => deps.store.query(paths.events(s.calendar.id))));
  return sources.map((s, i) => ({ ...s, events: lists[i].map((d) => d.data) }));
}

/**
 * Starts the reads a cached answer over a calendar's events is keyed by: the calendar's
 * revisions and, with layers, its layer links and their calendars' revisions. None depends on
 * who asks, so a route runs this as requireCalendar's `alongside`, overlapping the caller's
 * role; the route's own reads of the same find them made (http/prefetch.ts).
 */
export async function startSourceReads(deps: Deps, calendar: CalendarRecord, withLayers: boolean): Promise<void> {
  const own = readShards(deps.store, calendar.id);
  if (withLayers) {
    const links = await deps.store.query(paths.layers(calendar.id));
    await Promise.all(links.map((l) => readShards(deps.store, l.data.calendar_id)));
  }
  await own;
}

/** One event of the calendar; an id under another calendar is 404. */
export async function getEvent(deps: Deps, calendarId: string, eventId: string): Promise<EventRecord> {
  const doc = await deps.store.get(paths.event(calendarId, eventId));
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
type SortKey = readonly [group: number, date: string, time: string, createdAt: string, id: string];

const GROUP: Record<EventKind, number> = { "one-off": 0, recurring: 1, someday: 2 };

/** Only dated events order by date and time; recurring and someday ones by creation within their group. */
const sortKey = (e: EventRecord): SortKey =>
  e.kind === "one-off"
    ? [0, e.date!, e.start_time ?? "", e.created_at, e.id]
    : [GROUP[e.kind], "", "", e.created_at, e.id];

/**
 * The sort key as one string that orders as the key does: the group digit, then fields of
 * fixed width (a missing date or time is a placeholder that sorts before every real one:
 * `-` is below the digits), then the id. Stored on each event as `sort_key`, so that a page
 * is read in list order with orderBy, startAfter and limit instead of reading every event.
 */
const sortKeyText = ([group, date, time, createdAt, id]: SortKey): string =>
  `${group} ${date || "----------"} ${time || "--:--"} ${createdAt} ${id}`;

/** What the event commands store as `sort_key`: the event's place in the list. */
export const eventSortKey = (e: EventRecord): string => sortKeyText(sortKey(e));

/** A cursor is the sort key of the last item returned: stable under inserts and deletes. */
const eventCursors = cursorCodec(["number", "string", "string", "string", "string"]);

function inRange(
  event: EventRecord,
  calendar: CalendarRecord,
  from: string | undefined,
  to: string | undefined,
): boolean {
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
 * A bound below every event the filters keep, so that reads skip what they would drop: a
 * kind's group starts after its digit, and a one-off dated `from` or later after `0 {from}`.
 */
function firstPossibleKey(options: ListEventsOptions): string | null {
  if (options.kind !== undefined && options.kind !== "one-off") return String(GROUP[options.kind]);
  return options.from !== undefined ? `0 ${options.from}` : null;
}

/** Most events one read of a source asks for. */
const MAX_CHUNK = 1000;

type Keyed = LayeredEvent & { key: string };

/**
 * One source's events in list order after a bound, read as the merge needs them. A calendar
 * whose events all store `sort_key` (`event_sort_keys`, written since the calendar was
 * created) is read in stored order a chunk at a time; an older one is read whole once, its
 * keys computed, as every page was read before.
 */
class SourceReader {
  readonly buffer: Keyed[] = [];
  done = false;
  private after: string | null;
  private size = 0;
  /** Whether the last chunk had events the filters dropped: the next asks for twice as many. */
  private dropping = false;

  constructor(
    private readonly deps: Deps,
    private readonly source: EventSource,
    after: string | null,
    private readonly keep: (event: EventRecord, calendar: CalendarRecord) => boolean,
  ) {
    this.after = after;
  }

  /** Reads what may hold the next `wanted` events of the page. */
  async fill(wanted: number): Promise<void> {
    const { calendar, layer } = this.source;
    if (!calendar.event_sort_keys) {
      const events = (await this.deps.store.query(paths.events(calendar.id))).map((d) => d.data);
      const keyed = events.map((event) => ({ layer, event, key: event.sort_key ?? eventSortKey(event) }));
      this.take(
        keyed.filter((k) => this.after === null || k.key > this.after).sort((a, b) => (a.key < b.key ? -1 : 1)),
      );
      this.done = true;
      return;
    }
    this.size = Math.min(MAX_CHUNK, this.dropping ? Math.max(wanted, this.size * 2) : wanted);
    const docs = await this.deps.store.query(paths.events(calendar.id), {
      orderBy: [["sort_key", "asc"]],
      ...(this.after === null ? {} : { startAfter: this.after }),
      limit: this.size,
    });
    if (docs.length < this.size) this.done = true;
    const keyed = docs.map((d) => ({ layer, event: d.data, key: d.data.sort_key! }));
    if (keyed.length > 0) this.after = keyed[keyed.length - 1].key;
    const kept = this.take(keyed);
    this.dropping = kept < keyed.length;
  }

  private take(keyed: Keyed[]): number {
    const before = this.buffer.length;
    for (const k of keyed) if (this.keep(k.event, this.source.calendar)) this.buffer.push(k);
    return this.buffer.length - before;
  }
}

/**
 * One page of events of the sources, in list order. `from`/`to` (inclusive) keep one-off
 * events dated in the range and recurring events occurring in it, and leave someday events out.
 * Each source is read from the cursor on in list order, only as far as the page needs (one
 * more than `limit` tells whether a next page exists), and the sources are merged: paging
 * through N events reads about N events in all, plus what the filters drop.
 */
export async function listEvents(
  deps: Deps,
  sources: EventSource[],
  options: ListEventsOptions,
): Promise<{ events: LayeredEvent[]; nextCursor: string | null }> {
  const cursor = options.cursor === undefined ? null : sortKeyText(eventCursors.decode(options.cursor));
  const floor = firstPossibleKey(options);
  const after = cursor !== null && (floor === null || cursor > floor) ? cursor : floor;
  const keep = (event: EventRecord, calendar: CalendarRecord) =>
    (options.kind === undefined || event.kind === options.kind) &&
    (options.category === undefined || event.category === options.category) &&
    inRange(event, calendar, options.from, options.to);
  const readers = sources.map((source) => new SourceReader(deps, source, after, keep));
  const wanted = options.limit + 1;
  const page: Keyed[] = [];
  // The first reads share the page between the sources; a source that runs dry is read on
  // for what the page still needs (all that do at once: one round trip).
  let share = Math.ceil(wanted / readers.length);
  while (page.length < wanted) {
    const dry = readers.filter((r) => r.buffer.length === 0 && !r.done);
    if (dry.length > 0) {
      await Promise.all(dry.map((r) => r.fill(share)));
      share = wanted - page.length;
      continue;
    }
    let next: SourceReader | null = null;
    for (const r of readers) if (r.buffer.length > 0 && (!next || r.buffer[0].key < next.buffer[0].key)) next = r;
    if (!next) break;
    page.push(next.buffer.shift()!);
  }
  const shown = page.slice(0, options.limit);
  const nextCursor = page.length > options.limit ? eventCursors.encode(sortKey(shown[shown.length - 1].event)) : null;
  return { events: shown.map(({ layer, event }) => ({ layer, event })), nextCursor };
}

// ---------------------------------------------------------------------------------------
// Occurrences

/** Longest range of an occurrences request: 366 days, both ends included. */
export const MAX_OCCURRENCE_DAYS = 366;

/**
 * The order of occurrences, defined here only (the list, its cursors, pages and their
 * budgets follow it): date, start time (untimed first), the event's creation, its id, then
 * the layer.
 */
export type OccurrenceKey = [date: string, time: string, createdAt: string, eventId: string, layer: string];

export const occurrenceKey = (date: string, event: EventRecord, layer: string): OccurrenceKey => [
  date,
  event.start_time ?? "",
  event.created_at,
  event.id,
  layer,
];

const occurrenceCursors = cursorCodec(["string", "string", "string", "string", "string"], (key) => isValidDate(key[0]));

export interface OccurrencePageOptions {
  /** Inclusive dates. */
  from: string;
  to: string;
  limit: number;
  cursor?: string;
}

export interface OccurrencePage {
  occurrences: TimedOccurrence[];
  nextCursor: string | null;
}

/** One page of the occurrences of the sources' one-off and recurring events in [from, to]. */
export async function listOccurrences(
  deps: Deps,
  sources: EventSource[],
  options: OccurrencePageOptions,
): Promise<OccurrencePage> {
  return pageOccurrences(await loadSourceEvents(deps, sources), options);
}

type LoadedSource = { layer: string; calendar: CalendarRecord; events: EventRecord[] };

/** An event's occurrences as a sorted stream: its place in a day's order, and its current date. */
interface Stream {
  source: LoadedSource;
  event: EventRecord;
  /** Where its occurrences go among a day's (withinDayKey). */
  order: string;
  date: string;
  day: number;
}

/**
 * The occurrences after `cursor`, in order, at most `limit`. Each event is a stream of its
 * dates, merged with the others through a heap, so the work is one step per event to start
 * its stream plus one heap step per occurrence returned, however many the range holds: the
 * first page of a year of 20,000 daily series (7.3 million occurrences) touches 21,000.
 * The occurrence key is led by the date, so the heap orders streams by day number and then by
 * the rest of the key: the same order, compared cheaply.
 */
export function pageOccurrences(sources: LoadedSource[], options: OccurrencePageOptions): OccurrencePage {
  const { from, to, limit } = options;
  const after = options.cursor === undefined ? null : occurrenceCursors.decode(options.cursor);
  if (from > to) return { occurrences: [], nextCursor: null };
  const start = after && after[0] > from ? after[0] : from;
  const streams: Stream[] = [];
  for (const source of sources) {
    for (const event of source.events) {
      if (event.kind === "someday") continue;
      let date = firstDateIn(event, source.calendar, start, to);
      // Skip what earlier pages returned: with keys led by the date, at most one occurrence.
      while (date !== null && after && compareSortKeys(occurrenceKey(date, event, source.layer), after) <= 0) {
        date = firstDateIn(event, source.calendar, addDays(date, 1), to);
      }
      if (date !== null)
        streams.push({ source, event, order: withinDayKey(event, source.layer), date, day: dayNumber(date) });
    }
  }
  const heap = new MinHeap<Stream>(
    (a, b) => a.day - b.day || (a.order < b.order ? -1 : a.order > b.order ? 1 : 0),
    streams,
  );
  const instants = new InstantsOver(from, to);
  const occurrences: TimedOccurrence[] = [];
  let last: Stream | null = null;
  while (occurrences.length < limit) {
    const stream = heap.pop();
    if (stream === undefined) break;
    occurrences.push(instants.occurrence(stream.source, stream.event, stream.date));
    last = stream;
    const next = firstDateIn(stream.event, stream.source.calendar, addDays(stream.date, 1), to);
    if (next !== null) heap.push({ ...stream, date: next, day: dayNumber(next) });
  }
  const more = heap.size > 0 && last !== null;
  return {
    occurrences,
    nextCursor: more ? occurrenceCursors.encode(occurrenceKey(last!.date, last!.event, last!.source.layer)) : null,
  };
}

/** One occurrence as pages draw it: the event, the layer it came through, its date. */
export interface DatedEvent {
  layer: string;
  event: EventRecord;
  date: string;
}

/**
 * The occurrences in [from, to] that fit in `budget`, in order, and how many more there are.
 * Events are taken in the order of a day, each with all its occurrences in the range, while
 * they fit; from the first that does not, the rest are counted, not expanded. So every day
 * shows its earliest events, an event shows all or none of its occurrences, and the work is
 * one count per event plus the occurrences drawn. `include` leaves events out altogether (a
 * share view's filter).
 */
export function budgetedOccurrences(
  sources: LoadedSource[],
  from: string,
  to: string,
  budget: number,
  include: (layer: string, event: EventRecord) => boolean = () => true,
): { occurrences: DatedEvent[]; omitted: number } {
  const days = daysBetween(from, to) + 1;
  if (days <= 0) return { occurrences: [], omitted: 0 };
  const taken: DatedEvent[] = [];
  let omitted = 0;
  for (const { source, event } of orderedWithinDay(sources)) {
    if (!include(source.layer, event)) continue;
    if (omitted > 0 || taken.length + countIn(event, source.calendar, from, to) > budget) {
      omitted += countIn(event, source.calendar, from, to);
      continue;
    }
    for (const date of datesOf(event, source.calendar, from, to)) taken.push({ layer: source.layer, event, date });
  }
  // Counting sort by day; stable, so the order within a day holds.
  const firstDay = dayNumber(from);
  const perDay = new Array<number>(days + 1).fill(0);
  for (const o of taken) perDay[dayNumber(o.date) - firstDay + 1]++;
  for (let d = 1; d <= days; d++) perDay[d] += perDay[d - 1];
  const occurrences = new Array<DatedEvent>(taken.length);
  for (const o of taken) occurrences[perDay[dayNumber(o.date) - firstDay]++] = o;
  return { occurrences, omitted };
}

/** How many occurrences the event has in [from, to], without listing a series'. */
function countIn(event: EventRecord, calendar: CalendarRecord, from: string, to: string): number {
  if (event.kind === "one-off") return event.date! >= from && event.date! <= to ? 1 : 0;
  const rule = ruleOf(event, calendar);
  return rule ? countOccurrences(rule.recur, rule.starts, from, to) : 0;
}

/**
 * Every occurrence in [from, to], in order: the whole expansion, for ranges known to be small
 * and as the reference the pager is tested against. Events are ordered once and their
 * occurrences placed by a counting sort on the day, so the cost is linear in the number of
 * occurrences (no comparison sort over occurrences).
 */
export function expandOccurrences(sources: LoadedSource[], from: string, to: string): TimedOccurrence[] {
  const days = daysBetween(from, to) + 1;
  if (days <= 0) return [];
  const firstDay = dayNumber(from);
  const instants = new InstantsOver(from, to);
  const found: TimedOccurrence[] = [];
  const dayOf: number[] = [];
  const perDay = new Array<number>(days + 1).fill(0);
  for (const { source, event } of orderedWithinDay(sources)) {
    for (const date of datesOf(event, source.calendar, from, to)) {
      const day = dayNumber(date) - firstDay;
      dayOf.push(day);
      perDay[day + 1]++;
      found.push(instants.occurrence(source, event, date));
    }
  }
  // Counting sort by day; stable, so the event order above holds within a day.
  for (let d = 1; d <= days; d++) perDay[d] += perDay[d - 1];
  const sorted = new Array<TimedOccurrence>(found.length);
  for (let i = 0; i < found.length; i++) sorted[perDay[dayOf[i]]++] = found[i];
  return sorted;
}

/**
 * Where an event's occurrences go among a day's: the occurrence key without its date, its
 * fields joined by NUL, which sorts below every character they hold (times, ISO timestamps,
 * ids, layer keys), so one string comparison orders two events.
 */
const withinDayKey = (event: EventRecord, layer: string): string =>
  occurrenceKey("", event, layer).slice(1).join("\u0000");

/** The one-off and recurring events of the sources, in the order their occurrences take within a day. */
function orderedWithinDay(sources: LoadedSource[]): Array<{ source: LoadedSource; event: EventRecord }> {
  const entries = sources.flatMap((source) =>
    source.events
      .filter((e) => e.kind !== "someday")
      .map((event) => ({ source, event, key: withinDayKey(event, source.layer) })),
  );
  return entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** Occurrences with their instants, for dates in [from, to]: one formatter per zone. */
class InstantsOver {
  private readonly formatters = new Map<string, InstantFormatter>();
  private readonly firstDay: number;

  constructor(
    private readonly from: string,
    private readonly to: string,
  ) {
    this.firstDay = dayNumber(from);
  }

  occurrence(source: { layer: string; calendar: CalendarRecord }, event: EventRecord, date: string): TimedOccurrence {
    const instant = event.start_time ? this.formatterFor(source.calendar.timezone) : null;
    const day = dayNumber(date) - this.firstDay;
    return {
      event_id: event.id,
      layer: source.layer,
      date,
      start_time: event.start_time,
      end_time: event.end_time,
      name: event.name,
      category: event.category,
      start: instant ? instant(day, event.start_time!) : null,
      end: instant && event.end_time ? instant(day, event.end_time) : null,
    };
  }

  private formatterFor(zone: string): InstantFormatter {
    let f = this.formatters.get(zone);
    if (!f) this.formatters.set(zone, (f = instantFormatter(zone, this.from, this.to)));
    return f;
  }
}

/** A valid series' rule and the date it counts from; null for one-off events and odd records. */
function ruleOf(event: EventRecord, calendar: CalendarRecord): { recur: Recur; starts: string } | null {
  const recur = event.kind === "recurring" ? event.recur : null;
  if (!recur || recurError(recur) !== null) return null; // every write is validated; never crash on an odd record
  return { recur, starts: recur.starts ?? defaultStartsOf(event, calendar) };
}

function datesOf(event: EventRecord, calendar: CalendarRecord, from: string, to: string): string[] {
  if (event.kind === "one-off") return event.date! >= from && event.date! <= to ? [event.date!] : [];
  const rule = ruleOf(event, calendar);
  return rule ? expandRecurrence(rule.recur, rule.starts, from, to) : [];
}

/** The event's first occurrence in [from, to], or null. */
function firstDateIn(event: EventRecord, calendar: CalendarRecord, from: string, to: string): string | null {
  // The day after 9999-12-31 has a five-digit year, which would sort before `to` as text.
  if (from.length !== 10 || from > to) return null;
  if (event.kind === "one-off") return event.date! >= from && event.date! <= to ? event.date! : null;
  const rule = ruleOf(event, calendar);
  const date = rule ? firstOccurrenceOnOrAfter(rule.recur, rule.starts, from) : null;
  return date !== null && date <= to ? date : null;
}
