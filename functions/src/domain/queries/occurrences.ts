/**
 * Occurrences of the sources' one-off and recurring events in a date range, with their
 * exceptions applied (docs/api.md#occurrences): the `/occurrences` pages and the pages'
 * budgeted draw. Dates and times stay in the zone of the
 * event's own calendar; `start`/`end` are exact instants: an occurrence lasts its
 * `end_time - start_time` (a day more when overnight) of elapsed time from its start, DST days
 * included, after the whole days it spans (events/span.ts). A range holds every occurrence one
 * of whose days is in it, so one that began before the range and still runs is in it.
 * Everything is ordered by the start instant (an all-day occurrence at the start of its date),
 * then layer, the event's creation, its id and the original date.
 */
import { effectiveAlarms } from "../events/alarms.js";
import { instantFormatter, MINUTE_MS, type InstantFormatter } from "../events/instants.js";
import {
  coversRange,
  daysOf,
  daysWithin,
  earliestStartCovering,
  endAfterStart,
  endDateOf,
  lastDayOf,
} from "../events/span.js";
import { MinHeap } from "../heap.js";
import { yieldToOthers } from "../yield.js";
import { cursorCodec } from "../paging.js";
import { addDays, countOccurrences, dayNumber, fromDayNumber, isValidDate } from "../recurrence/index.js";
import type { CalendarRecord, EventRecord, ExceptionRecord } from "../records.js";
import type { ViewFilter } from "../types.js";
import { firstPlannedDate, plannedDates, ruleOf } from "../events/planned.js";
import { viewRange, viewShows, viewShowsOccurrence } from "./views.js";

/** Longest range of an occurrences request: 366 days, both ends included. */
export const MAX_OCCURRENCE_DAYS = 366;

/** A source with what it holds: its events and their exceptions. */
export interface LoadedSource {
  layer: string;
  calendar: CalendarRecord;
  events: readonly EventRecord[];
  exceptions: readonly ExceptionRecord[];
}

/** An occurrence as the API answers it; `start`/`end` ISO instants, null without a time (end: without end_time). */
export interface TimedOccurrence {
  event_id: string;
  layer: string;
  date: string;
  /** The date its end falls on (events/span.ts, endDateOf). */
  end_date: string;
  days: number;
  original_date: string;
  start_time: string | null;
  end_time: string | null;
  name: string;
  category: string | null;
  start: string | null;
  end: string | null;
  /** The exception's own alarms, else the event's. */
  alarms: number[];
}

/** An occurrence as pages draw it: the resolved fields, and its instants as UTC milliseconds. */
export interface PlacedOccurrence {
  layer: string;
  event: EventRecord;
  date: string;
  /** The date its end falls on: its last day, the next one for a one-day overnight occurrence. */
  end_date: string;
  days: number;
  original_date: string;
  start_time: string | null;
  end_time: string | null;
  name: string;
  category: string | null;
  notes: string | null;
  alarms: number[];
  start: number | null;
  end: number | null;
}

/** One occurrence before its instants: a series date or a one-off, with its exception applied. */
interface Slot {
  source: LoadedSource;
  event: EventRecord;
  original_date: string;
  date: string;
  start_time: string | null;
  end_time: string | null;
  days: number;
  name: string;
  category: string | null;
  notes: string | null;
  alarms: number[];
}

/** The exceptions of a source by event and original date. */
export function exceptionsByEvent(exceptions: readonly ExceptionRecord[]): Map<string, Map<string, ExceptionRecord>> {
  const byEvent = new Map<string, Map<string, ExceptionRecord>>();
  for (const e of exceptions) {
    let dates = byEvent.get(e.event_id);
    if (!dates) byEvent.set(e.event_id, (dates = new Map<string, ExceptionRecord>()));
    dates.set(e.original_date, e);
  }
  return byEvent;
}

/** The first planned date in [from, to] that no exception replaces. */
function firstOwnDate(
  event: EventRecord,
  calendar: CalendarRecord,
  from: string,
  to: string,
  excepted: ReadonlyMap<string, ExceptionRecord> | undefined,
): string | null {
  let date = firstPlannedDate(event, calendar, from, to);
  while (date !== null && excepted?.has(date)) date = firstPlannedDate(event, calendar, addDays(date, 1), to);
  return date;
}

const ownSlot = (source: LoadedSource, event: EventRecord, date: string): Slot => ({
  source,
  event,
  original_date: date,
  date,
  start_time: event.start_time,
  end_time: event.end_time,
  days: daysOf(event),
  name: event.name,
  category: event.category,
  notes: event.notes,
  alarms: effectiveAlarms(event),
});

const exceptionSlot = (source: LoadedSource, event: EventRecord, e: ExceptionRecord): Slot => ({
  source,
  event,
  original_date: e.original_date,
  date: e.date,
  start_time: e.start_time,
  end_time: e.end_time,
  days: daysOf(e),
  name: e.name,
  category: e.category,
  notes: e.notes,
  alarms: effectiveAlarms(event, e),
});

/** The moved or changed occurrences of an event that cover a date of [from, to] and are wanted; cancelled ones occur nowhere. */
function exceptionSlotsIn(
  source: LoadedSource,
  event: EventRecord,
  excepted: ReadonlyMap<string, ExceptionRecord> | undefined,
  from: string,
  to: string,
  wanted: (e: ExceptionRecord) => boolean = () => true,
): Slot[] {
  if (!excepted || event.kind !== "recurring") return [];
  const slots: Slot[] = [];
  for (const e of excepted.values()) {
    if (!e.cancelled && coversRange(e.date, daysOf(e), from, to) && wanted(e)) {
      slots.push(exceptionSlot(source, event, e));
    }
  }
  return slots;
}

/**
 * The first date an own occurrence of the event may start on and still cover `from`; never
 * before `floor` (a share view's first date, which holds occurrences by their start).
 */
function ownFrom(event: EventRecord, from: string, floor: string | null = null): string {
  const first = earliestStartCovering(from, daysOf(event));
  return floor !== null && floor > first ? floor : first;
}

/**
 * Which occurrences of one event are wanted: its own ones (no exception replaces them; they
 * share the event's category) all or none, each moved or changed one on its own.
 */
interface Wanted {
  own: boolean;
  exception: (e: ExceptionRecord) => boolean;
}

const EVERY_OCCURRENCE: Wanted = { own: true, exception: () => true };

/** Every wanted occurrence of one event in [from, to], exceptions applied, in no particular order. */
function slotsOf(
  source: LoadedSource,
  event: EventRecord,
  excepted: ReadonlyMap<string, ExceptionRecord> | undefined,
  from: string,
  to: string,
  wanted: Wanted = EVERY_OCCURRENCE,
  floor: string | null = null,
): Slot[] {
  const first = ownFrom(event, from, floor);
  const own = wanted.own ? plannedDates(event, source.calendar, first, to).filter((d) => !excepted?.has(d)) : [];
  return [
    ...own.map((d) => ownSlot(source, event, d)),
    ...exceptionSlotsIn(source, event, excepted, from, to, wanted.exception),
  ];
}

/** How many wanted occurrences an event has in [from, to], without listing a series'. */
function countSlots(
  source: LoadedSource,
  event: EventRecord,
  excepted: ReadonlyMap<string, ExceptionRecord> | undefined,
  from: string,
  to: string,
  wanted: Wanted,
  floor: string | null,
): number {
  const changed = exceptionSlotsIn(source, event, excepted, from, to, wanted.exception).length;
  if (!wanted.own) return changed;
  const first = ownFrom(event, from, floor);
  let planned: number;
  if (event.kind === "one-off") planned = event.date! >= first && event.date! <= to ? 1 : 0;
  else {
    const rule = ruleOf(event, source.calendar);
    planned = rule ? countOccurrences(rule.recur, rule.starts, first, to) : 0;
  }
  if (!excepted || event.kind !== "recurring") return planned;
  let replaced = 0;
  for (const date of excepted.keys()) if (date >= first && date <= to) replaced++;
  return planned - replaced + changed;
}

/** The tie-breaking part of the order after the start instant: layer, creation, event id, original date. */
const tieOf = (slot: Slot): string =>
  [slot.source.layer, slot.event.created_at, slot.event.id, slot.original_date].join("\u0000");

/** The most days any event or exception of the sources covers: how far around a range its occurrences reach. */
function widestSpan(sources: readonly LoadedSource[]): number {
  let widest = 1;
  for (const source of sources) {
    for (const e of source.events) widest = Math.max(widest, daysOf(e));
    for (const e of source.exceptions) widest = Math.max(widest, daysOf(e));
  }
  return widest;
}

/**
 * Instants of slots covering [from, to]: one formatter per zone, over the dates they can
 * start on (from `widest - 1` days before the range) to those they can end on.
 */
class Instants {
  private readonly formatters = new Map<string, InstantFormatter>();
  private readonly from: string;
  private readonly to: string;
  private readonly firstDay: number;

  constructor(from: string, to: string, widest: number) {
    this.from = earliestStartCovering(from, widest);
    this.to = lastDayOf(to, widest + 1);
    this.firstDay = dayNumber(this.from);
  }

  /** The start as text and milliseconds; an all-day occurrence starts at its date's first instant. */
  start(slot: Slot): { text: string; ms: number } {
    const text = this.formatter(slot.source.calendar.timezone)(
      dayNumber(slot.date) - this.firstDay,
      slot.start_time ?? "00:00",
    );
    return { text, ms: Date.parse(text) };
  }

  /** The end instant in ms, or null without an end time: whole days on the wall clock, then elapsed minutes. */
  endMs(slot: Slot, startMs: number): number | null {
    if (slot.start_time === null || slot.end_time === null) return null;
    const after = endAfterStart(slot.days, slot.start_time, slot.end_time);
    const from =
      after.days === 0
        ? startMs
        : Date.parse(
            this.formatter(slot.source.calendar.timezone)(
              dayNumber(slot.date) + daysWithin(slot.date, after.days) - this.firstDay,
              slot.start_time,
            ),
          );
    return from + after.minutes * MINUTE_MS;
  }

  occurrence(slot: Slot): TimedOccurrence {
    const start = slot.start_time === null ? null : this.start(slot);
    const endMs = start === null ? null : this.endMs(slot, start.ms);
    return {
      event_id: slot.event.id,
      layer: slot.source.layer,
      date: slot.date,
      end_date: endDateOf(slot, slot.days),
      days: slot.days,
      original_date: slot.original_date,
      start_time: slot.start_time,
      end_time: slot.end_time,
      name: slot.name,
      category: slot.category,
      start: start?.text ?? null,
      end: endMs === null ? null : this.formatter(slot.source.calendar.timezone).at(endMs),
      alarms: slot.alarms,
    };
  }

  private formatter(zone: string): InstantFormatter {
    let f = this.formatters.get(zone);
    if (!f) this.formatters.set(zone, (f = instantFormatter(zone, this.from, this.to)));
    return f;
  }
}

/** A slot with its place in the order. */
interface Keyed {
  slot: Slot;
  ms: number;
  tie: string;
}

const compareKeyed = (a: Keyed, b: Keyed): number => a.ms - b.ms || (a.tie < b.tie ? -1 : a.tie > b.tie ? 1 : 0);

function keyed(instants: Instants, slot: Slot): Keyed {
  return { slot, ms: instants.start(slot).ms, tie: tieOf(slot) };
}

// ---------------------------------------------------------------------------------------
// GET .../occurrences

/** A cursor is the key of the last occurrence returned: its start in ms, then the tie-breaking parts. */
const occurrenceCursors = cursorCodec(
  ["number", "string", "string", "string", "string"],
  (key) => Number.isFinite(key[0]) && isValidDate(key[4]),
);

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

/** An event's own occurrences as a sorted stream (`next` set), or one moved occurrence (`next` null). */
interface Stream extends Keyed {
  next: ((after: string) => string | null) | null;
}

/**
 * The occurrences after `cursor`, in order, at most `limit`. Each event is a stream of its
 * own dates (a later local date is a later instant), each moved occurrence a stream of one;
 * the streams are merged through a heap, so the work is one step per event to start its
 * stream plus one heap step per occurrence returned, however many the range holds: the
 * first page of a year of 20,000 daily series (7.3 million occurrences) touches 21,000.
 */
export function pageOccurrences(sources: LoadedSource[], options: OccurrencePageOptions): OccurrencePage {
  const steps = occurrencePager(sources, options);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * The same page, letting other requests run every STREAMS_PER_TURN events while the streams
 * start (the bulk of the work: 21,000 events' streams took about 145 ms in one piece).
 */
export async function pageOccurrencesInTurns(
  sources: LoadedSource[],
  options: OccurrencePageOptions,
): Promise<OccurrencePage> {
  const steps = occurrencePager(sources, options);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await yieldToOthers();
  }
}

/** Events whose streams start between two turns of the event loop (pageOccurrencesInTurns). */
const STREAMS_PER_TURN = 2_000;

/** pageOccurrences as steps: it pauses (yields) every STREAMS_PER_TURN events, and returns the page. */
function* occurrencePager(sources: LoadedSource[], options: OccurrencePageOptions): Generator<void, OccurrencePage> {
  const { from, to, limit } = options;
  if (from > to) return { occurrences: [], nextCursor: null };
  const after = options.cursor === undefined ? null : occurrenceCursors.decode(options.cursor);
  const afterKeyed = after && { ms: after[0], tie: after.slice(1).join("\u0000") };
  // A stream starts near the cursor: no local date is more than two days from its instant's UTC date.
  const resumeFrom = after ? fromDayNumber(Math.floor(after[0] / 86_400_000) - 2) : null;
  const resume = resumeFrom !== null && resumeFrom.length === 10 ? resumeFrom : null;
  const instants = new Instants(from, to, widestSpan(sources));
  const passed = (k: Keyed) => afterKeyed !== null && compareKeyed(k, afterKeyed as Keyed) <= 0;

  const streams: Stream[] = [];
  let started = 0;
  for (const source of sources) {
    const byEvent = exceptionsByEvent(source.exceptions);
    for (const event of source.events) {
      if (++started % STREAMS_PER_TURN === 0) yield;
      if (event.kind === "someday") continue;
      const excepted = byEvent.get(event.id);
      const next = (on: string) => firstOwnDate(event, source.calendar, on, to, excepted);
      const first = ownFrom(event, from);
      let date = next(resume !== null && resume > first ? resume : first);
      while (date !== null) {
        const k = keyed(instants, ownSlot(source, event, date));
        if (!passed(k)) {
          streams.push({ ...k, next });
          break;
        }
        date = next(addDays(date, 1));
      }
      for (const slot of exceptionSlotsIn(source, event, excepted, from, to)) {
        const k = keyed(instants, slot);
        if (!passed(k)) streams.push({ ...k, next: null });
      }
    }
  }
  const heap = new MinHeap<Stream>(compareKeyed, streams);
  const occurrences: TimedOccurrence[] = [];
  let last: Stream | null = null;
  while (occurrences.length < limit) {
    const stream = heap.pop();
    if (stream === undefined) break;
    occurrences.push(instants.occurrence(stream.slot));
    last = stream;
    const date = stream.next?.(addDays(stream.slot.date, 1)) ?? null;
    if (date !== null)
      heap.push({ ...keyed(instants, ownSlot(stream.slot.source, stream.slot.event, date)), next: stream.next });
  }
  const more = heap.size > 0 && last !== null;
  return { occurrences, nextCursor: more ? occurrenceCursors.encode(cursorKey(last!)) : null };
}

function cursorKey(k: Keyed): readonly [number, string, string, string, string] {
  const { slot } = k;
  return [k.ms, slot.source.layer, slot.event.created_at, slot.event.id, slot.original_date];
}

// ---------------------------------------------------------------------------------------
// Pages and references

/**
 * The occurrences in [from, to] that fit in `budget`, in order, and how many more there are.
 * Events are taken in the order of a day (eventsInOrder), each with all its occurrences in the
 * range, while they fit; from the first that does not, the rest are counted, not expanded.
 * So an event shows all or none of its occurrences, and the work is one count per event plus
 * the occurrences drawn. `include` leaves events out altogether; `view`, a share view's
 * filter, decides on each occurrence (viewShows: its own category and date).
 */
export function budgetedOccurrences(
  sources: LoadedSource[],
  from: string,
  to: string,
  budget: number,
  include: (layer: string, event: EventRecord) => boolean = everyEvent,
  view: ViewFilter | null = null,
): { occurrences: PlacedOccurrence[]; omitted: number } {
  const range = view ? viewRange(view, from, to) : { from, to };
  if (range === null || range.from > range.to) return { occurrences: [], omitted: 0 };
  const instants = new Instants(range.from, range.to, widestSpan(sources));
  const floor = view?.from ?? null;
  const taken: Keyed[] = [];
  let omitted = 0;
  for (const { source, event, excepted } of eventsInOrder(sources)) {
    if (!include(source.layer, event)) continue;
    const wanted = view ? wantedByView(view, source.layer, event) : EVERY_OCCURRENCE;
    const count = countSlots(source, event, excepted, range.from, range.to, wanted, floor);
    if (omitted > 0 || taken.length + count > budget) {
      omitted += count;
      continue;
    }
    for (const slot of slotsOf(source, event, excepted, range.from, range.to, wanted, floor))
      taken.push(keyed(instants, slot));
  }
  taken.sort(compareKeyed);
  return {
    occurrences: taken.map(({ slot, ms }) => ({
      layer: slot.source.layer,
      event: slot.event,
      date: slot.date,
      end_date: endDateOf(slot, slot.days),
      days: slot.days,
      original_date: slot.original_date,
      start_time: slot.start_time,
      end_time: slot.end_time,
      name: slot.name,
      category: slot.category,
      notes: slot.notes,
      alarms: slot.alarms,
      start: slot.start_time === null ? null : ms,
      end: slot.start_time === null ? null : instants.endMs(slot, ms),
    })),
    omitted,
  };
}

/** Every event, for callers that leave none out. */
export const everyEvent = (): boolean => true;

/**
 * What a view wants of an event's occurrences in a range already cut to its dates: the own
 * ones differ only by date, which the cut has decided, so one test on the event's category
 * stands for all of them; each exception is tested on its own category and date.
 */
function wantedByView(view: ViewFilter, layer: string, event: EventRecord): Wanted {
  return {
    own: viewShows(view, { layer, kind: event.kind, category: event.category, date: null }),
    exception: (e) => viewShowsOccurrence(view, layer, event, e),
  };
}

/**
 * The one-off and recurring events of the sources with their exceptions, in the order of a
 * day (start time, untimed first; then layer, creation, id), so a budget keeps each day's
 * earliest events.
 */
function eventsInOrder(sources: LoadedSource[]) {
  const entries = sources.flatMap((source) => {
    const byEvent = exceptionsByEvent(source.exceptions);
    return source.events
      .filter((e) => e.kind !== "someday")
      .map((event) => ({
        source,
        event,
        excepted: byEvent.get(event.id),
        order: [event.start_time ?? "", source.layer, event.created_at, event.id].join("\u0000"),
      }));
  });
  return entries.sort((a, b) => (a.order < b.order ? -1 : a.order > b.order ? 1 : 0));
}
