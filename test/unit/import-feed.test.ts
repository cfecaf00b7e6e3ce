/** readIcs reads Almanac's own feeds (pages/ics.ts) back to the events and exceptions they were written from. */
import { describe, expect, it } from "vitest";
import type { EventRecord, ExceptionRecord } from "../../functions/src/domain/records.js";
import { buildIcs } from "../../functions/src/pages/ics.js";
import { makeEventRecord, makeExceptionRecord } from "../helpers/factories.js";
import { read } from "./import-text.js";

let counter = 0;
const event = (fields: Partial<EventRecord> & Pick<EventRecord, "kind" | "name">): EventRecord =>
  makeEventRecord({
    id: `evt_${++counter}`,
    calendar_id: "cal_1",
    created_at: "2026-03-01T10:00:00.000Z",
    updated_at: "2026-03-02T10:00:00.000Z",
    category: null,
    notes: null,
    ...fields,
  });

const exception = makeExceptionRecord;

const feed = (timezone: string, events: EventRecord[], exceptions: ExceptionRecord[] = []) =>
  buildIcs({
    name: "Plan",
    description: null,
    url: "https://almanac.test/c/plan",
    uidDomain: "almanac.test",
    sources: [{ layer: "main", timezone, events, exceptions }],
  });

describe("readIcs on Almanac's own feeds", () => {
  for (const timezone of ["Europe/Berlin", "UTC", "America/New_York"]) {
    it(`reads one-off events back as written (${timezone})`, async () => {
      // In the feed's order: by date.
      const events = [
        event({ kind: "one-off", name: "Night", date: "2026-03-28", start_time: "22:00", end_time: "03:00" }),
        event({ kind: "one-off", name: "Ping", date: "2026-06-01", start_time: "12:00", alarms: [1440, 0] }),
        event({ kind: "one-off", name: "Fair", date: "2026-10-24", start_time: "09:00", end_time: "17:00", days: 3 }),
        event({
          kind: "one-off",
          name: "Call",
          date: "2026-12-02",
          start_time: "09:30",
          end_time: "10:00",
          alarms: [15],
        }),
        event({ kind: "one-off", name: "Trip", date: "2026-12-10", days: 3, notes: "Pack light", category: "travel" }),
      ];
      const plan = await read(feed(timezone, events), timezone);
      expect(plan.skipped).toEqual([]);
      expect(plan.events.map((e) => e.uid)).toEqual(events.map((e) => `${e.id}@almanac.test`));
      expect(plan.events.map((e) => e.event)).toEqual(
        events.map((e) => ({
          name: e.name,
          notes: e.notes,
          category: e.category,
          date: e.date,
          start_time: e.start_time,
          end_time: e.end_time,
          days: e.days ?? 1,
          alarms: e.alarms ?? [],
        })),
      );
    });
  }

  it("reads series and their exceptions back as written", async () => {
    const weekly = event({
      kind: "recurring",
      name: "Standup",
      recur: { type: "weekly", day: [1, 3], interval: 1, starts: "2026-03-02", until: "2026-06-29" },
      start_time: "09:00",
      end_time: "09:15",
      alarms: [10],
    });
    const monthly = event({
      kind: "recurring",
      name: "Review",
      recur: { type: "monthly", week: 2, day: 2, interval: 1, starts: "2026-01-01", count: 12 },
      start_time: "14:00",
      end_time: "15:00",
    });
    const yearly = event({
      kind: "recurring",
      name: "Birthday",
      recur: { type: "yearly", month: 7, day: 14, starts: "2026-01-01" },
    });
    const daily = event({
      kind: "recurring",
      name: "Walk",
      recur: { type: "daily", interval: 3, starts: "2026-05-01", count: 40 },
    });
    const exceptions = [
      exception(weekly, "2026-03-04", { cancelled: true }),
      exception(weekly, "2026-03-30", {
        date: "2026-03-31",
        start_time: "10:00",
        end_time: "10:30",
        name: "Standup (moved)",
      }),
      exception(weekly, "2026-04-06", { alarms: [] }),
      exception(monthly, "2026-02-10", { notes: "Bring numbers", category: "work", days: 2 }),
      exception(yearly, "2027-07-14", { cancelled: true }),
    ];
    const plan = await read(feed("Europe/Berlin", [weekly, monthly, yearly, daily], exceptions));
    expect(plan.skipped).toEqual([]);
    const byName = new Map(plan.events.map((e) => [e.event.name, e]));
    expect(byName.get("Standup")).toEqual({
      uid: `${weekly.id}@almanac.test`,
      event: {
        name: "Standup",
        notes: null,
        category: null,
        date: null,
        recur: { type: "weekly", day: [1, 3], interval: 1, starts: "2026-03-02", until: "2026-06-29" },
        start_time: "09:00",
        end_time: "09:15",
        days: 1,
        alarms: [10],
      },
      exceptions: [
        { original_date: "2026-03-04", change: { cancelled: true } },
        {
          original_date: "2026-03-30",
          change: { date: "2026-03-31", start_time: "10:00", end_time: "10:30", name: "Standup (moved)" },
        },
        { original_date: "2026-04-06", change: { alarms: [] } },
      ],
    });
    expect(byName.get("Review")).toMatchObject({
      event: { recur: { type: "monthly", week: 2, day: 2, interval: 1, starts: "2026-01-13", count: 12 } },
      exceptions: [{ original_date: "2026-02-10", change: { notes: "Bring numbers", category: "work", days: 2 } }],
    });
    expect(byName.get("Birthday")).toMatchObject({
      event: { recur: { type: "yearly", month: 7, day: 14, interval: 1, starts: "2026-07-14" }, start_time: null },
      exceptions: [{ original_date: "2027-07-14", change: { cancelled: true } }],
    });
    expect(byName.get("Walk")!.event.recur).toEqual({ type: "daily", interval: 3, starts: "2026-05-01", count: 40 });
  });
});
