/**
 * Free/busy over several calendars (docs/api.md#freebusy): who may see which calendar, what
 * each is busy with, and the free slots inside working hours. The arithmetic is pure and lives
 * in domain/freebusy/; this file reads.
 *
 * A calendar is busy during its timed occurrences and those of its layers the caller may read
 * (the sources GET .../occurrences shows: queries/sources.ts), with exceptions applied.
 * All-day and someday events block nothing, and neither does a timed occurrence without an
 * `end_time`: it is an instant (RFC 5545 3.6.1, as the feeds write it), lasting no time.
 */
import type { Actor } from "../actor.js";
import type { Deps } from "../deps.js";
import { DomainError, errors } from "../errors.js";
import { clipIntervals, mergeIntervals, type Interval } from "../freebusy/intervals.js";
import { clockFor, resolveRange, type TimeBound } from "../freebusy/range.js";
import { DAY_MS, type ZoneClock } from "../freebusy/zone.js";
import { authorize } from "../policy.js";
import { FIRST_DATE, LAST_DATE, dayNumber, fromDayNumber } from "../recurrence/index.js";
import type { CalendarRecord } from "../records.js";
import { freshnessFor, revisionsKey } from "../revision.js";
import { loadCalendarAccess } from "./access.js";
import { loadOccurring } from "./occurring.js";
import { budgetedOccurrences, type LoadedSource } from "./occurrences.js";
import { eventSources, type EventSource } from "./sources.js";

/** Most calendars one request may name. */
export const MAX_FREEBUSY_CALENDARS = 20;

export interface FreeBusyRequest {
  /** Distinct calendar ids, in the order named. */
  ids: string[];
  from: TimeBound;
  to: TimeBound;
  /** The zone dates are read in and merged intervals are written in; default the first readable calendar's. */
  timezone?: string;
}

/** A named calendar the caller may read, with the sources its busy time is made of, or one it may not (null). */
export type NamedCalendar =
  { id: string; calendar: CalendarRecord; sources: EventSource[]; revisions: string } | { id: string; calendar: null };

/** What a free/busy answer is computed from: the calendars, the zone and the range as instants. */
export interface FreeBusyScope {
  calendars: NamedCalendar[];
  zone: string;
  clock: ZoneClock;
  range: Interval;
}

/**
 * Loads the named calendars and judges each with the policy of every read (domain/policy.ts,
 * `calendar.read`): one the caller may not see is null, as a 404 would be on its own, and does
 * not fail the request (`everyCalendar` makes it a 404, for answers that would be wrong
 * without it). A token lacking `calendar:read` for a private calendar it holds a grant on is
 * the token's problem, not the calendar's: 403 insufficient_scope for the whole request.
 */
export async function freeBusyScope(
  deps: Deps,
  actor: Actor | null,
  request: FreeBusyRequest,
  options: { everyCalendar: boolean },
): Promise<FreeBusyScope> {
  const accesses = await Promise.all(request.ids.map((id) => loadCalendarAccess(deps, id, actor)));
  const readable = accesses.map((access) => {
    if (!access) return null;
    try {
      authorize(access.calendar, actor, access.role, "calendar.read");
      return access.calendar;
    } catch (err) {
      if (err instanceof DomainError && err.code === "not_found") return null;
      throw err;
    }
  });
  const missing = readable.indexOf(null);
  if (options.everyCalendar && missing >= 0) throw errors.notFound(`calendar \`${request.ids[missing]}\``);

  const zone = request.timezone ?? readable.find((c) => c !== null)?.timezone ?? "UTC";
  const clock = clockFor(zone, request.from, request.to);
  const range = resolveRange(request.from, request.to, clock);
  // Only offsets written to contradict each other get here (rangeProblem read the clocks).
  if (range.end <= range.start) throw errors.invalidField("invalid_request", "to", "must be after `from`");

  const calendars = await Promise.all(
    request.ids.map(async (id, i): Promise<NamedCalendar> => {
      const calendar = readable[i];
      if (!calendar) return { id, calendar: null };
      const sources = await eventSources(deps, calendar, actor);
      return { id, calendar, sources, revisions: await revisionsKey(deps, sources, freshnessFor(actor)) };
    }),
  );
  return { calendars, zone, clock, range };
}

/** Most occurrences one answer expands, all sources together: a bound on the work of one request. */
export const MAX_BUSY_OCCURRENCES = 50_000;

/** Busy time: each readable calendar's, and all of them together. */
export interface BusyTime {
  /** Per calendar id, merged: overlapping and touching occurrences are one interval. */
  byCalendar: Map<string, Interval[]>;
  /** The union over every readable calendar. */
  merged: Interval[];
}

/**
 * The busy intervals within the range. A calendar named twice, or shown as a layer of another,
 * is read once. More than MAX_BUSY_OCCURRENCES occurrences in the range is 400: they are
 * counted (arithmetic per series) before any is expanded, so a refusal costs little.
 */
export async function busyTime(deps: Deps, scope: FreeBusyScope): Promise<BusyTime> {
  const distinct = new Map<string, EventSource>();
  for (const named of scope.calendars) {
    if (named.calendar) for (const source of named.sources) distinct.set(source.calendar.id, source);
  }
  const dates = datesAround(scope.range);
  const loaded = await loadOccurring(deps, [...distinct.values()], dates);
  // With a budget of 0 nothing is expanded and every occurrence is counted as omitted.
  const count = budgetedOccurrences(loaded, dates.from, dates.to, 0).omitted;
  if (count > MAX_BUSY_OCCURRENCES) throw errors.tooManyOccurrences(MAX_BUSY_OCCURRENCES);
  const busyOfSource = new Map(loaded.map((source) => [source.calendar.id, busyIn(source, scope.range)]));
  const byCalendar = new Map<string, Interval[]>();
  for (const named of scope.calendars) {
    if (named.calendar) {
      byCalendar.set(named.id, mergeIntervals(named.sources.flatMap((s) => busyOfSource.get(s.calendar.id) ?? [])));
    }
  }
  return { byCalendar, merged: mergeIntervals([...byCalendar.values()].flat()) };
}

/**
 * The dates whose occurrences can overlap the range: occurrences are dated in their
 * calendar's zone (at most 14 hours from UTC) and last under a day or two, so from two days
 * before the range's UTC start to a day after its end; what lies outside is clipped.
 */
function datesAround(range: Interval): { from: string; to: string } {
  const first = Math.max(dayNumber(FIRST_DATE), Math.floor(range.start / DAY_MS) - 2);
  const last = Math.min(dayNumber(LAST_DATE), Math.floor((range.end - 1) / DAY_MS) + 1);
  return { from: fromDayNumber(first), to: fromDayNumber(last) };
}

/** The source's timed occurrences with an end, as intervals clipped to the range. */
export function busyIn(source: LoadedSource, range: Interval): Interval[] {
  const { from, to } = datesAround(range);
  const intervals: Interval[] = [];
  for (const o of budgetedOccurrences([source], from, to, Infinity).occurrences) {
    if (o.start !== null && o.end !== null) intervals.push({ start: o.start, end: o.end });
  }
  return clipIntervals(intervals, range);
}
