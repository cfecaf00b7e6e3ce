/**
 * Reads of events: the ordered, filtered, paged list (GET .../events) and the sources' events
 * and exceptions that occurrences (queries/occurrences.ts), pages and feeds are drawn from. Every function takes
 * event sources (queries/sources.ts): `main` for the calendar's own events, a layer key
 * for an attached calendar's. Dates and times of an event are local to its OWN calendar's
 * timezone and are never converted into a host calendar's zone; `start`/`end` instants
 * carry the offset of that zone.
 */
import { errors } from "../errors.js";
import type { Deps } from "../deps.js";
import { isIdOf } from "../ids.js";
import { paths } from "../paths.js";
import { cursorCodec } from "../paging.js";
import { shardsFor, type Freshness } from "../revision.js";
import { occursBetween, recurError } from "../recurrence/index.js";
import { defaultStartsOf, eventSortKey, KIND_GROUP, sortKey, sortKeyText } from "../events/stored.js";
import type { CalendarRecord, EventRecord } from "../records.js";
import type { EventKind } from "../types.js";
import type { EventSource } from "./sources.js";

/** An event together with the layer it was read through (`main` for the calendar's own). */
export interface LayeredEvent {
  layer: string;
  event: EventRecord;
}

const MIN_DATE = "0001-01-01";
const MAX_DATE = "9999-12-31";

/**
 * Starts the reads a cached answer over a calendar's events is keyed by: the calendar's
 * revisions and, with layers, its layer links and their calendars' revisions. None depends on
 * the caller's role, so a route runs this as requireCalendar's `alongside`, overlapping the
 * role's read; the route's own reads of the same find them made (http/prefetch.ts), or kept
 * (`freshness`, domain/revision.ts).
 */
export async function startSourceReads(
  deps: Deps,
  calendar: CalendarRecord,
  withLayers: boolean,
  freshness: Freshness,
): Promise<void> {
  const own = shardsFor(deps, calendar.id, freshness);
  if (withLayers) {
    const links = await deps.store.query(paths.layers(calendar.id));
    await Promise.all(links.map((l) => shardsFor(deps, l.data.calendar_id, freshness)));
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

/** A cursor is the sort key of the last item returned: stable under inserts and deletes. */
const eventCursors = cursorCodec(
  ["number", "string", "string", "string", "string"],
  // The occurrences' cursors have the same shape: the group and the event id tell them apart.
  (key) => [0, 1, 2].includes(key[0]) && isIdOf("evt", key[4]),
);

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
  if (options.kind !== undefined && options.kind !== "one-off") return String(KIND_GROUP[options.kind]);
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
