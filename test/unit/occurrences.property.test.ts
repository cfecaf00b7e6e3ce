import fc from "fast-check";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import {
  pageOccurrences,
  type LoadedSource,
  type TimedOccurrence,
} from "../../functions/src/domain/queries/occurrences.js";
import { addDays, expandRecurrence } from "../../functions/src/domain/recurrence/index.js";
import type { EventRecord, ExceptionRecord } from "../../functions/src/domain/records.js";
import type { Recur } from "../../functions/src/domain/types.js";
import { expandOccurrences } from "../helpers/occurrences.js";
import { makeCalendarRecord, makeEventRecord } from "../helpers/factories.js";

/**
 * The occurrence pipeline (exceptions, exact durations, order by instant, paging) against a
 * brute force that shares none of it: each event's dates walked one by one, exceptions applied
 * by hand, instants computed by luxon, everything sorted at the end. Zones with DST on both
 * hemispheres, a half-hour and a 45-minute offset; times in the gaps and overlaps; events and
 * moved occurrences spanning days, some begun before the range.
 */

const ZONES = ["Europe/Berlin", "America/New_York", "Australia/Sydney", "Asia/Kolkata", "Pacific/Chatham", "UTC"];
const FROM = "2027-03-20";
const TO = "2027-04-12"; // Berlin, New York and both southern zones all change clocks in this span
const TIMES = ["00:00", "01:30", "02:00", "02:30", "02:45", "03:00", "03:30", "09:00", "12:15", "22:00", "23:59"];

const calendarIn = makeCalendarRecord;

const recurArb: fc.Arbitrary<Recur> = fc.oneof(
  fc.record({ type: fc.constant("daily" as const), interval: fc.integer({ min: 1, max: 3 }) }),
  fc.record({
    type: fc.constant("weekly" as const),
    day: fc.integer({ min: 1, max: 7 }),
    interval: fc.integer({ min: 1, max: 2 }),
  }),
);

const eventArb = fc.record({
  zone: fc.integer({ min: 0, max: ZONES.length - 1 }),
  recur: fc.option(recurArb, { nil: null }),
  offset: fc.integer({ min: -12, max: 20 }), // the series' start (or the one-off's date), days from FROM
  days: fc.constantFrom(1, 1, 1, 2, 3, 9),
  start: fc.option(fc.constantFrom(...TIMES), { nil: null }),
  end: fc.option(fc.constantFrom(...TIMES), { nil: null }),
  exceptions: fc.array(
    fc.record({
      pick: fc.nat(),
      cancelled: fc.boolean(),
      move: fc.integer({ min: -3, max: 3 }),
      start: fc.option(fc.constantFrom(...TIMES), { nil: null }),
      days: fc.constantFrom(1, 1, 2, 4),
    }),
    { maxLength: 3 },
  ),
});

type EventSpec = typeof eventArb extends fc.Arbitrary<infer T> ? T : never;

function buildWorld(specs: EventSpec[]): LoadedSource[] {
  const sources = ZONES.map((zone, z) => ({
    layer: z === 0 ? "main" : `l${z}`,
    calendar: calendarIn(`cal_${z}`, zone),
    events: [] as EventRecord[],
    exceptions: [] as ExceptionRecord[],
  }));
  specs.forEach((spec, i) => {
    const source = sources[spec.zone];
    const day = addDays(FROM, spec.offset);
    const end = spec.start !== null && spec.end !== null && spec.end !== spec.start ? spec.end : null;
    const event = makeEventRecord({
      id: `evt_p${i}`,
      calendar_id: source.calendar.id,
      name: `e${i}`,
      created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, i % 3)).toISOString(), // ties of creation happen
      ...(spec.recur ? { recur: { ...spec.recur, starts: day } } : { date: day }),
      start_time: spec.start,
      end_time: end,
      // A timed event spanning days needs its end time (events/rules.ts).
      days: spec.start !== null && end === null ? 1 : spec.days,
    });
    source.events.push(event);
    if (!spec.recur) return;
    const dates = expandRecurrence(event.recur!, day, addDays(FROM, -12), TO);
    for (const x of spec.exceptions) {
      if (dates.length === 0) break;
      const original = dates[x.pick % dates.length];
      if (source.exceptions.some((e) => e.event_id === event.id && e.original_date === original)) continue;
      source.exceptions.push({
        id: `${event.id}_${original.replaceAll("-", "")}`,
        calendar_id: source.calendar.id,
        event_id: event.id,
        original_date: original,
        cancelled: x.cancelled,
        date: addDays(original, x.move),
        start_time: x.start,
        end_time: x.start === null ? null : x.start === "09:00" ? "08:00" : "10:00",
        days: x.days,
        name: `moved ${event.name}`,
        category: null,
        notes: null,
        sequence: 1,
        created_at: event.created_at,
        updated_at: event.created_at,
      });
    }
  });
  return sources;
}

/** Local date and time in a zone to an instant, as RFC 5545 reads them (gap: forward; overlap: the first). */
function instantOf(zone: string, date: string, time: string): DateTime {
  const [h, m] = time.split(":").map(Number);
  const local = DateTime.fromISO(date, { zone }).set({ hour: h, minute: m });
  if (local.hour !== h || local.minute !== m) {
    // In a gap luxon moves the wall clock; RFC 5545 uses the offset before the gap.
    const before = DateTime.fromISO(date, { zone }).startOf("day").offset;
    return DateTime.fromISO(`${date}T${time}`, { zone: "UTC" }).minus({ minutes: before }).setZone(zone);
  }
  // Of two instants with this wall clock, the earlier.
  const earlier = local.minus({ hours: 1 });
  return earlier.hour === h && earlier.minute === m ? earlier : local;
}

function bruteForce(sources: LoadedSource[]): TimedOccurrence[] {
  const rows: Array<{ o: TimedOccurrence; ms: number; tie: string }> = [];
  for (const source of sources) {
    const zone = source.calendar.timezone;
    for (const event of source.events) {
      const planned: string[] = [];
      for (let d = addDays(FROM, -12); d <= TO; d = addDays(d, 1)) {
        const isDate =
          event.date !== null
            ? event.date === d
            : expandRecurrence(event.recur!, event.recur!.starts!, d, d).length === 1;
        if (isDate && addDays(d, (event.days ?? 1) - 1) >= FROM) planned.push(d);
      }
      const slots = planned
        .filter((d) => !source.exceptions.some((e) => e.event_id === event.id && e.original_date === d))
        .map((d) => ({ ...event, original_date: d, date: d }));
      for (const e of source.exceptions) {
        if (e.event_id === event.id && !e.cancelled && addDays(e.date, (e.days ?? 1) - 1) >= FROM && e.date <= TO)
          slots.push({ ...event, ...e, id: event.id });
      }
      for (const s of slots) {
        const start = s.start_time === null ? null : instantOf(zone, s.date, s.start_time);
        const days = s.days ?? 1;
        const overnight = s.start_time !== null && s.end_time !== null && s.end_time < s.start_time;
        const endDate = addDays(s.date, days === 1 && overnight ? 1 : days - 1);
        let end: DateTime | null = null;
        if (start && s.end_time) {
          const minutes = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3));
          const length = (minutes(s.end_time) - minutes(s.start_time!) + 1440) % 1440 || 1440;
          // Less than a day of elapsed time from the start time on the last day that leaves one.
          const from = addDays(endDate, s.end_time > s.start_time! ? 0 : -1);
          end = instantOf(zone, from, s.start_time!).plus({ minutes: length });
        }
        const fmt = (dt: DateTime) =>
          dt.toISO({ suppressMilliseconds: true, includeOffset: true })!.replace("Z", "+00:00");
        rows.push({
          o: {
            event_id: event.id,
            layer: source.layer,
            date: s.date,
            end_date: endDate,
            days,
            original_date: s.original_date,
            start_time: s.start_time,
            end_time: s.end_time,
            name: s.name,
            category: s.category,
            start: start ? fmt(start) : null,
            end: end ? fmt(end) : null,
            alarms: s.alarms ?? [],
          },
          ms: (start ?? instantOf(zone, s.date, "00:00")).toMillis(),
          tie: [source.layer, event.created_at, event.id, s.original_date].join("\u0000"),
        });
      }
    }
  }
  rows.sort((a, b) => a.ms - b.ms || (a.tie < b.tie ? -1 : a.tie > b.tie ? 1 : 0));
  return rows.map((r) => r.o);
}

function allPages(sources: LoadedSource[], limit: number): TimedOccurrence[] {
  const out: TimedOccurrence[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = pageOccurrences(sources, { from: FROM, to: TO, limit, ...(cursor ? { cursor } : {}) });
    out.push(...page.occurrences);
    if (page.nextCursor === null) return out;
    cursor = page.nextCursor;
  }
}

describe("occurrences with exceptions, across DST, against a brute force", () => {
  it("the whole expansion and every paging of it agree with luxon and a day-by-day walk", () => {
    let compared = 0;
    fc.assert(
      fc.property(
        fc.array(eventArb, { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 1, max: 40 }),
        (specs, limit) => {
          const sources = buildWorld(specs);
          const expected = bruteForce(sources);
          expect(expandOccurrences(sources, FROM, TO)).toEqual(expected);
          expect(allPages(sources, limit)).toEqual(expected);
          compared += expected.length;
        },
      ),
      { numRuns: 300, seed: 20261123 },
    );
    expect(compared).toBeGreaterThan(5_000); // 8,302 occurrences with this seed
  });
});
