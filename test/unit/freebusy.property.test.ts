/**
 * Free/busy against a brute force over minutes (issue 14): random calendars in several zones
 * (each with a layer of its own zone), one-off, daily and weekly events (all-day ones,
 * start-only ones, overnight ones), random ranges given as dates or as instants with offsets,
 * random working hours (overnight and `24:00` ends included) and weekdays, all near DST
 * changes. The reference walks the range minute by minute and reads every wall clock with
 * temporal-polyfill (an implementation of TC39 Temporal this project did not write):
 * - a minute is busy for a calendar when one of its occurrences covers it: the occurrence
 *   starts at its local date and time resolved as RFC 5545 says (Temporal's `compatible`
 *   disambiguation: a time in a gap moves forward by the gap, a repeated time is the first),
 *   and lasts `end_time - start_time` minutes (+24 h when overnight) of elapsed time;
 * - a minute is in working hours when its wall clock reads within them on a chosen weekday
 *   (or, overnight, reads before the end on the day after one);
 * - slots are the maximal runs of free minutes in working hours, at least `minutes` long.
 * Zero disagreements: every minute of every calendar's busy set, of the merged set, and every
 * slot's ends.
 */
import fc from "fast-check";
import { Temporal } from "temporal-polyfill";
import { describe, expect, it } from "vitest";
import {
  clipIntervals,
  freeSlots,
  mergeIntervals,
  subtractIntervals,
  type Interval,
} from "../../functions/src/domain/freebusy/intervals.js";
import { parseDays, parseHours, workingWindows } from "../../functions/src/domain/freebusy/hours.js";
import { clockFor, parseBound, resolveRange } from "../../functions/src/domain/freebusy/range.js";
import { busyIn } from "../../functions/src/domain/queries/freebusy.js";
import type { LoadedSource } from "../../functions/src/domain/queries/occurrences.js";
import type { CalendarRecord, EventRecord } from "../../functions/src/domain/records.js";
import { addDays, isoWeekday } from "../../functions/src/domain/recurrence/index.js";
import { makeEventRecord } from "../helpers/factories.js";

const MINUTE = 60_000;
const DAY = 86_400_000;
/** Cases per property; each walks up to four days minute by minute. */
const RUNS = 150;

/** Zones with DST at 02:00 and 03:00, at midnight (Santiago, Havana), by 30 minutes (Lord Howe), +12:45 (Chatham), none. */
const ZONES = [
  "Europe/Berlin",
  "America/New_York",
  "America/Santiago",
  "America/Havana",
  "Australia/Lord_Howe",
  "Pacific/Chatham",
  "Asia/Kolkata",
  "UTC",
];
/** Days of 2026 with a DST change in one of the zones. */
const CHANGES = [
  "2026-03-08",
  "2026-03-29",
  "2026-04-05",
  "2026-09-06",
  "2026-09-27",
  "2026-10-04",
  "2026-10-25",
  "2026-11-01",
];
const OFFSETS = ["Z", "+02:00", "-05:00", "+05:30", "+12:45"];

// ---------------------------------------------------------------------------------------
// The reference: wall clocks from Temporal, everything else by walking minutes.

/** Offsets (minutes) by zone and quarter hour: every zone listed changes offset on a quarter hour of UTC. */
const quarterOffsets = new Map<string, number>();
function offsetAt(zone: string, ms: number): number {
  const quarter = Math.floor(ms / (15 * MINUTE));
  const key = `${zone}|${quarter}`;
  let offset = quarterOffsets.get(key);
  if (offset === undefined) {
    const zoned = Temporal.Instant.fromEpochMilliseconds(quarter * 15 * MINUTE).toZonedDateTimeISO(zone);
    offset = zoned.offsetNanoseconds / 1e9 / 60;
    quarterOffsets.set(key, offset);
  }
  return offset;
}

/** The wall clock at an instant: its date, weekday and minute of the day. */
function wallClock(zone: string, ms: number) {
  const local = ms + offsetAt(zone, ms) * MINUTE;
  const day = Math.floor(local / DAY);
  const date = new Date(day * DAY).toISOString().slice(0, 10);
  return { date, weekday: isoWeekday(date), minute: Math.round((local - day * DAY) / MINUTE) };
}

const hhmm = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** RFC 5545 3.3.5 by Temporal: a time in a gap moves forward by the gap, a repeated time is the first. */
function startInstant(zone: string, date: string, time: string): number {
  const [year, month, day] = date.split("-").map(Number);
  const [hour, minute] = time.split(":").map(Number);
  return Temporal.ZonedDateTime.from(
    { year, month, day, hour, minute, timeZone: zone },
    { disambiguation: "compatible" },
  ).epochMilliseconds;
}

/** Whether the event (one-off, daily or weekly on one day, 0 or 7 Sunday, as generated below) occurs on the date. */
function occursOn(event: EventRecord, date: string): boolean {
  if (event.kind === "one-off") return event.date === date;
  const recur = event.recur!;
  if (date < recur.starts!) return false;
  if (recur.type === "daily") {
    const days = Math.round((Date.parse(date) - Date.parse(recur.starts!)) / DAY);
    return days % (recur.interval ?? 1) === 0;
  }
  return (recur.day === 0 ? 7 : recur.day) === isoWeekday(date);
}

/** Busy spans of a source's events: its occurrences on the dates around the range, walked one by one. */
function referenceBusy(source: LoadedSource, firstDate: string, lastDate: string): Interval[] {
  const spans: Interval[] = [];
  for (let date = firstDate; date <= lastDate; date = addDays(date, 1)) {
    for (const event of source.events) {
      if (!event.start_time || !event.end_time || !occursOn(event, date)) continue;
      const start = startInstant(source.calendar.timezone, date, event.start_time);
      const length = (minutesOf(event.end_time) - minutesOf(event.start_time) + 24 * 60) % (24 * 60);
      spans.push({ start, end: start + length * MINUTE });
    }
  }
  return spans;
}

/** The first whole minute from `near - 16 h` whose wall clock shows `date` or later. */
function firstMinuteOf(zone: string, date: string): number {
  let m = Date.parse(`${date}T00:00:00Z`) - 16 * 60 * MINUTE;
  while (wallClock(zone, m).date < date) m += MINUTE;
  return m;
}

function inHours(zone: string, ms: number, hours: { start: number; end: number }, days: ReadonlySet<number>) {
  const { date, weekday, minute } = wallClock(zone, ms);
  if (hours.end > hours.start) return days.has(weekday) && minute >= hours.start && minute < hours.end;
  const yesterday = isoWeekday(addDays(date, -1));
  return (days.has(weekday) && minute >= hours.start) || (days.has(yesterday) && minute < hours.end);
}

/** Minute flags of a set of intervals over [start, end). */
function flags(intervals: Interval[], start: number, end: number): boolean[] {
  const out = new Array<boolean>((end - start) / MINUTE).fill(false);
  for (const i of intervals) {
    for (let m = Math.max(i.start, start); m < Math.min(i.end, end); m += MINUTE) out[(m - start) / MINUTE] = true;
  }
  return out;
}

/** Maximal runs of true minutes as intervals. */
function runs(minutes: boolean[], start: number): Interval[] {
  const out: Interval[] = [];
  for (let i = 0; i < minutes.length; i++) {
    if (!minutes[i]) continue;
    let j = i;
    while (j < minutes.length && minutes[j]) j++;
    out.push({ start: start + i * MINUTE, end: start + j * MINUTE });
    i = j;
  }
  return out;
}

const disagreements = (a: boolean[], b: boolean[]) => a.filter((x, i) => x !== b[i]).length;

/** Sorted, disjoint, not touching, not empty. */
function wellFormed(intervals: Interval[]): boolean {
  return intervals.every((i, k) => i.end > i.start && (k === 0 || intervals[k - 1].end < i.start));
}

// ---------------------------------------------------------------------------------------
// Random worlds

const time = fc.integer({ min: 0, max: 24 * 60 - 1 }).map(hhmm);

const eventArb = (around: string) =>
  fc
    .record({
      kind: fc.constantFrom("one-off", "daily", "weekly"),
      offset: fc.integer({ min: -4, max: 4 }),
      start: fc.option(time, { nil: null }),
      length: fc.option(fc.integer({ min: 1, max: 24 * 60 - 1 }), { nil: null }),
      interval: fc.integer({ min: 1, max: 3 }),
      weekday: fc.integer({ min: 0, max: 7 }),
    })
    .map(({ kind, offset, start, length, interval, weekday }) => {
      const times = {
        start_time: start,
        end_time: start !== null && length !== null ? hhmm((minutesOf(start) + length) % (24 * 60)) : null,
      };
      const date = addDays(around, offset);
      if (kind === "one-off") return makeEventRecord({ date, ...times });
      const recur = kind === "daily" ? { type: "daily" as const, interval } : { type: "weekly" as const, day: weekday };
      return makeEventRecord({ recur: { ...recur, starts: date }, ...times });
    });

const sourceArb = (around: string, layer: string) =>
  fc
    .record({
      zone: fc.constantFrom(...ZONES),
      events: fc.array(eventArb(around), { maxLength: 6 }),
    })
    .map(({ zone, events }): LoadedSource => ({
      layer,
      calendar: { id: `cal_${layer}`, timezone: zone } as CalendarRecord,
      events,
      exceptions: [],
    }));

/** An instant on a whole minute, written at one of a few offsets, or a date. */
const boundArb = (date: string) =>
  fc.oneof(
    fc.constant(date),
    fc
      .record({ minute: fc.integer({ min: 0, max: 24 * 60 - 1 }), offset: fc.constantFrom(...OFFSETS) })
      .map(
        ({ minute, offset }) =>
          `${new Date(Date.parse(`${date}T00:00:00Z`) + minute * MINUTE).toISOString().slice(0, 16)}${offset}`,
      ),
  );

const worldArb = fc
  .record({
    change: fc.constantFrom(...CHANGES),
    shift: fc.integer({ min: -2, max: 1 }),
    span: fc.integer({ min: 0, max: 2 }),
  })
  .chain(({ change, shift, span }) => {
    const first = addDays(change, shift);
    return fc.record({
      calendars: fc.array(fc.tuple(sourceArb(change, "main"), sourceArb(change, "layer")), {
        minLength: 1,
        maxLength: 3,
      }),
      from: boundArb(first),
      to: boundArb(addDays(first, span + 1)),
      zone: fc.constantFrom(...ZONES),
      hours: fc
        .tuple(fc.integer({ min: 0, max: 24 * 60 - 1 }), fc.integer({ min: 1, max: 24 * 60 }))
        .filter(([start, end]) => start !== end % (24 * 60) || end === 24 * 60)
        .map(([start, end]) => `${hhmm(start)}-${end === 24 * 60 ? "24:00" : hhmm(end)}`)
        .filter((text) => parseHours(text) !== null),
      days: fc.uniqueArray(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 7 }).map((d) => d.join(",")),
      minutes: fc.integer({ min: 1, max: 300 }),
      limit: fc.integer({ min: 1, max: 100 }),
    });
  });

describe("free/busy against a brute force over minutes", () => {
  it("merge, clip, subtract and slot selection agree with sets of minutes", () => {
    const span = fc.tuple(fc.integer({ min: 0, max: 120 }), fc.integer({ min: -5, max: 30 }));
    const spans = fc
      .array(span, { maxLength: 12 })
      .map((list) => list.map(([start, length]) => ({ start: start * MINUTE, end: (start + length) * MINUTE })));
    const END = 160 * MINUTE;
    fc.assert(
      fc.property(
        spans,
        spans,
        span,
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 1, max: 5 }),
        (a, b, r, min, limit) => {
          const range = { start: r[0] * MINUTE, end: (r[0] + Math.abs(r[1])) * MINUTE };
          const inA = flags(a, 0, END);
          const inB = flags(b, 0, END);
          const inRange = flags([range], 0, END);
          for (const [result, expected] of [
            [mergeIntervals(a), inA],
            [clipIntervals(a, range), inA.map((x, i) => x && inRange[i])],
            [subtractIntervals(a, b), inA.map((x, i) => x && !inB[i])],
          ] as const) {
            expect(wellFormed(result)).toBe(true);
            expect(disagreements(flags(result, 0, END), expected)).toBe(0);
          }
          const expected = runs(
            inA.map((x, i) => x && !inB[i]),
            0,
          )
            .filter((run) => run.end - run.start >= min * MINUTE)
            .slice(0, limit);
          expect(freeSlots(a, b, min * MINUTE, limit)).toEqual(expected);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("busy per calendar, merged busy and free slots agree minute by minute", () => {
    let compared = 0;
    fc.assert(
      fc.property(worldArb, (world) => {
        const from = parseBound(world.from)!;
        const to = parseBound(world.to)!;
        const clock = clockFor(world.zone, from, to);
        const range = resolveRange(from, to, clock);

        // The range's ends: an instant as written, a date as its first minute (`to`: the next date's).
        const rangeStart = from.kind === "instant" ? from.ms : firstMinuteOf(world.zone, world.from);
        const rangeEnd = to.kind === "instant" ? to.ms : firstMinuteOf(world.zone, addDays(world.to, 1));
        expect(range).toEqual({ start: rangeStart, end: rangeEnd });
        if (rangeEnd <= rangeStart) return; // offsets written to contradict each other: the route refuses it

        const firstDate = new Date(rangeStart - 3 * DAY).toISOString().slice(0, 10);
        const lastDate = new Date(rangeEnd + 2 * DAY).toISOString().slice(0, 10);
        const busy = world.calendars.map((sources) => mergeIntervals(sources.flatMap((s) => busyIn(s, range))));
        const merged = mergeIntervals(busy.flat());
        const anyBusy = new Array<boolean>((rangeEnd - rangeStart) / MINUTE).fill(false);
        world.calendars.forEach((sources, c) => {
          const reference = flags(
            sources.flatMap((s) => referenceBusy(s, firstDate, lastDate)),
            rangeStart,
            rangeEnd,
          );
          expect(wellFormed(busy[c])).toBe(true);
          expect(disagreements(flags(busy[c], rangeStart, rangeEnd), reference)).toBe(0);
          reference.forEach((b, i) => (anyBusy[i] ||= b));
        });
        expect(wellFormed(merged)).toBe(true);
        expect(disagreements(flags(merged, rangeStart, rangeEnd), anyBusy)).toBe(0);

        const hours = parseHours(world.hours)!;
        const days = parseDays(world.days)!;
        const windows = workingWindows(clock, range, hours, days);
        const free = anyBusy.map((b, i) => !b && inHours(world.zone, rangeStart + i * MINUTE, hours, days));
        const expected = runs(free, rangeStart)
          .filter((r) => r.end - r.start >= world.minutes * MINUTE)
          .slice(0, world.limit);
        expect(freeSlots(windows, merged, world.minutes * MINUTE, world.limit)).toEqual(expected);
        compared++;
      }),
      { numRuns: RUNS },
    );
    expect(compared).toBeGreaterThan(RUNS / 2);
  });
});
