/**
 * What a page draws (pages/drawn.ts): every occurrence whose start instant falls in the period
 * in the page calendar's zone, sorted by date then instant, and the overnight ones still
 * running at its start. Checked on examples and against the whole expansion, placed with Intl.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { LoadedSource } from "../../functions/src/domain/queries/occurrences.js";
import { expandOccurrences } from "../helpers/occurrences.js";
import { addDays } from "../../functions/src/domain/recurrence/index.js";
import type { CalendarRecord, EventRecord } from "../../functions/src/domain/records.js";
import { drawnOccurrences } from "../../functions/src/pages/drawn.js";
import { makeEventRecord } from "../helpers/factories.js";

let counter = 0;
const event = (fields: Partial<EventRecord>): EventRecord =>
  makeEventRecord({ id: `evt_${String(++counter).padStart(5, "0")}`, name: `event ${counter}`, ...fields });

const source = (layer: string, timezone: string, events: EventRecord[]): LoadedSource => ({
  layer,
  calendar: { id: `cal_${layer}`, timezone } as CalendarRecord,
  events,
  exceptions: [],
});

const WEEK = { from: "2026-11-23", to: "2026-11-29" };
const everything = () => true;
const summary = (o: { event: EventRecord; date: string; start_time: string | null; end_time: string | null }) =>
  `${o.event.name} ${o.date} ${o.start_time ?? "-"}–${o.end_time ?? "-"}`;

describe("the occurrences a page draws", () => {
  it("brings a layer's occurrence from the day before the period into it when its instant falls there", () => {
    const berlin = source("main", "Europe/Berlin", []);
    const newYork = source("ny", "America/New_York", [
      event({ name: "Sunday evening", date: "2026-11-22", start_time: "20:00", end_time: "21:00" }),
      event({ name: "Last Sunday evening", date: "2026-11-29", start_time: "20:00", end_time: "21:00" }),
      event({ name: "Sunday, all day", date: "2026-11-29" }),
    ]);
    const drawn = drawnOccurrences([berlin, newYork], "Europe/Berlin", WEEK, everything);
    // 20:00 in New York is 02:00 the next day in Berlin.
    expect(drawn.occurrences.map(summary)).toEqual([
      "Sunday evening 2026-11-23 02:00–03:00",
      "Sunday, all day 2026-11-29 -–-",
    ]);
    expect(drawn.continuing).toEqual([]);
    expect(drawn.omitted).toBe(0);
  });

  it("reaches two days out across the date line, where one instant's dates are two days apart", () => {
    const kiritimati = source("kiritimati", "Pacific/Kiritimati", [
      // Tuesday 00:30 at +14 is Sunday 23:30 at -11.
      event({ name: "Tuesday, just after midnight", date: "2026-12-01", start_time: "00:30", end_time: "01:00" }),
    ]);
    const onPagoPago = drawnOccurrences(
      [source("main", "Pacific/Pago_Pago", []), kiritimati],
      "Pacific/Pago_Pago",
      WEEK,
      everything,
    );
    expect(onPagoPago.occurrences.map(summary)).toEqual(["Tuesday, just after midnight 2026-11-29 23:30–00:00"]);

    const pagoPago = source("pago-pago", "Pacific/Pago_Pago", [
      // Saturday 20:00 at -11 is Sunday 21:00 at +14; 23 hours later it is Monday 20:00 there.
      event({ name: "Long night", date: "2026-11-21", start_time: "20:00", end_time: "19:00" }),
    ]);
    const onKiritimati = drawnOccurrences(
      [source("main", "Pacific/Kiritimati", []), pagoPago],
      "Pacific/Kiritimati",
      WEEK,
      everything,
    );
    expect(onKiritimati.occurrences).toEqual([]);
    expect(onKiritimati.continuing.map((o) => `${summary(o)} until ${o.end_date}`)).toEqual([
      "Long night 2026-11-22 21:00–20:00 until 2026-11-23",
    ]);
  });

  it("keeps the overnight occurrences of the day before that run into the period, and no other", () => {
    const own = source("main", "Europe/Berlin", [
      event({ name: "Night shift", date: "2026-11-22", start_time: "22:00", end_time: "02:00" }),
      event({ name: "Until midnight", date: "2026-11-22", start_time: "22:00", end_time: "00:00" }),
      event({ name: "Evening", date: "2026-11-22", start_time: "19:00", end_time: "20:00" }),
    ]);
    const drawn = drawnOccurrences([own], "Europe/Berlin", WEEK, everything);
    expect(drawn.occurrences).toEqual([]);
    expect(drawn.continuing.map((o) => `${summary(o)} until ${o.end_date}`)).toEqual([
      "Night shift 2026-11-22 22:00–02:00 until 2026-11-23",
    ]);
  });

  it("sorts a day by instant across zones, all-day first, and leaves out what the filter does", () => {
    const own = source("main", "America/New_York", [
      event({ name: "Review", date: "2026-11-25", start_time: "07:00", end_time: "08:00" }),
      event({ name: "Holiday", date: "2026-11-25" }),
      event({ name: "Hidden", date: "2026-11-25", start_time: "06:00", category: "private" }),
    ]);
    const berlin = source("berlin", "Europe/Berlin", [
      event({
        name: "Standup",
        recur: { type: "daily", starts: "2026-11-25", until: "2026-11-25" },
        start_time: "09:30",
      }),
      event({ name: "Late call", date: "2026-11-26", start_time: "05:00", end_time: "05:30" }),
    ]);
    const drawn = drawnOccurrences([own, berlin], "America/New_York", WEEK, (_, e) => e.category !== "private");
    expect(drawn.occurrences.map(summary)).toEqual([
      "Holiday 2026-11-25 -–-",
      "Standup 2026-11-25 03:30–-",
      "Review 2026-11-25 07:00–08:00",
      "Late call 2026-11-25 23:00–23:30",
    ]);
  });

  // With both ends of the date line (+14 and -11: a date two days apart for one instant).
  const ZONES = [
    "Europe/Berlin",
    "America/New_York",
    "Australia/Sydney",
    "Asia/Kolkata",
    "Pacific/Chatham",
    "UTC",
    "Pacific/Kiritimati",
    "Pacific/Pago_Pago",
  ];
  const time = fc
    .tuple(fc.integer({ min: 0, max: 23 }), fc.constantFrom(0, 15, 30, 45))
    .map(([h, m]) => `${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}`);
  const eventArb = fc.record({
    dayOffset: fc.integer({ min: -3, max: 12 }),
    daily: fc.boolean(),
    start: fc.option(time, { nil: null }),
    end: fc.option(time, { nil: null }),
  });

  it("draws exactly the occurrences starting in the period in the page's zone (against Intl), in order, and what runs into it", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.array(fc.tuple(fc.constantFrom(...ZONES), fc.array(eventArb, { maxLength: 6 })), {
          minLength: 1,
          maxLength: 3,
        }),
        // Periods around both DST changes of the year in the northern and southern hemispheres.
        fc.constantFrom("2026-03-23", "2026-03-30", "2026-04-02", "2026-10-01", "2026-10-26", "2026-11-02"),
        (pageZone, layers, from) => {
          const to = addDays(from, 6);
          const sources = layers.map(([zone, seeds], i) =>
            source(
              i === 0 ? "main" : `l${i}`,
              zone,
              seeds.map((s) => {
                const date = addDays(from, s.dayOffset);
                const times = { start_time: s.start, end_time: s.start && s.end !== s.start ? s.end : null };
                return s.daily
                  ? event({ recur: { type: "daily", starts: date, until: addDays(date, 3) }, ...times })
                  : event({ date, ...times });
              }),
            ),
          );
          const drawn = drawnOccurrences(sources, pageZone, { from, to }, everything);

          const intl = new Intl.DateTimeFormat("en-CA", {
            timeZone: pageZone,
            hourCycle: "h23",
            year: "numeric",
            month: "2-digit",
            day: "2-digit",
            hour: "2-digit",
            minute: "2-digit",
          });
          const local = (iso: string) => {
            const p = Object.fromEntries(intl.formatToParts(Date.parse(iso)).map((x) => [x.type, x.value]));
            return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}`;
          };
          const all = expandOccurrences(sources, addDays(from, -4), addDays(to, 4)).map((o) => ({
            key: `${o.layer}|${o.event_id}|${o.original_date}`,
            date: o.start === null ? o.date : local(o.start).slice(0, 10),
            end: o.end === null ? null : local(o.end),
          }));
          const expected = all.filter(({ date }) => date >= from && date <= to).map((o) => o.key);
          const actual = drawn.occurrences.map((o) => `${o.layer}|${o.event.id}|${o.original_date}`);
          expect([...actual].sort()).toEqual([...expected].sort());
          // Still running after the first midnight of the period: the week lens draws their rest.
          const stillRunning = all.filter((o) => o.date < from && o.end !== null && o.end > `${from}T00:00`);
          expect(drawn.continuing.map((o) => `${o.layer}|${o.event.id}|${o.original_date}`).sort()).toEqual(
            stillRunning.map((o) => o.key).sort(),
          );
          // In order: by date, then start instant with untimed first.
          for (let i = 1; i < drawn.occurrences.length; i++) {
            const [a, b] = [drawn.occurrences[i - 1], drawn.occurrences[i]];
            expect(a.date <= b.date).toBe(true);
            if (a.date === b.date) expect(a.start ?? -Infinity).toBeLessThanOrEqual(b.start ?? -Infinity);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
